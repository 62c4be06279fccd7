//! How the generated code writes and reads one field: through its type's `Reflect` impl, the
//! `write` and `read` functions of a `#[structio(with = "module")]`, or serde
//! (`#[structio(serde)]`); what it takes when a document leaves it out; when it is not written.

use proc_macro2::TokenStream;
use quote::quote;

use crate::attr::FieldDefault;
use crate::model::Field;

/// A field's value as the generated code reaches it (`&self.a`, `&mut self.a`, a binding),
/// with how it is written and read.
#[derive(Clone)]
pub struct Slot {
    pub value: TokenStream,
    /// The declared type.
    pub ty: syn::Type,
    /// The written name (named fields), for the missing-key error.
    pub name: String,
    /// `self.<member>`, for the container's `Default`.
    pub member: syn::Member,
    pub with: Option<syn::Path>,
    /// `#[structio(serde)]`.
    pub serde: bool,
    /// `#[structio(quoted)]`: written and read through `structio::quoted` (otherwise as its
    /// type: `None` left out, defaults).
    pub quoted: bool,
    /// `#[structio(skip_if = "path")]`.
    pub skip_if: Option<syn::Path>,
    /// `#[structio(default)]` on the field.
    pub default: Option<FieldDefault>,
    /// `#[structio(default)]` on the struct: the member of its `Default` fills in.
    pub container_default: bool,
    /// The field is spelled as an `Option` (see [`crate::structs::is_option`]): a document may
    /// leave it out, and then reading sets it to `None`.
    pub optional: bool,
    /// The closure checking the member's declared constraints (see
    /// [`crate::rules::checks`]), run right after each read.
    pub checks: Option<TokenStream>,
}

impl Slot {
    /// `value` of field `f`.
    pub fn of(f: &Field, value: TokenStream) -> Slot {
        Slot {
            value,
            ty: f.ty.clone(),
            name: f.name.clone(),
            member: f.member.clone(),
            with: f.with.clone(),
            serde: f.serde,
            quoted: f.quoted,
            skip_if: f.skip_if.clone(),
            default: f.default.clone(),
            container_default: false,
            optional: crate::structs::is_option(&f.ty),
            checks: crate::rules::checks(f),
        }
    }

    /// The slot of a member of a struct marked `#[structio(default)]` when `on`.
    pub fn container_default(mut self, on: bool) -> Slot {
        self.container_default = on;
        self
    }

    /// The value a member left out takes when it may be left out: an expression of the
    /// member's type; `None` when it may not be.
    fn left_out(&self) -> Option<TokenStream> {
        let m = &self.member;
        match &self.default {
            Some(FieldDefault::Trait) => Some(quote!(__p::Default::default())),
            Some(FieldDefault::Path(path)) => Some(quote!(#path())),
            None if self.container_default => Some(quote!(<Self as __p::Default>::default().#m)),
            None if self.optional => Some(quote!(__p::None)),
            None => None,
        }
    }

    /// What reading into the value (a `&mut`) does when the object left the member out (see
    /// `Member::Absent`): one that may be left out (by its declaration, or because its type's
    /// value may be, `Reflect::MAY_BE_ABSENT`) takes what a fresh read gives, unless the reader
    /// merges; another is the missing-key error under `error_on_missing_keys` and keeps its
    /// value otherwise. A `Result<()>` expression using `__r`.
    pub fn on_absent(&self) -> TokenStream {
        let v = &self.value;
        let missing = self.missing();
        match self.left_out() {
            Some(x) => quote!({
                if !__r.options().merge {
                    *#v = #x;
                }
                __p::Ok(())
            }),
            None if self.with.is_some() || self.serde => {
                quote!(if __r.options().error_on_missing_keys { #missing } else { __p::Ok(()) })
            }
            None => {
                let name = &self.name;
                quote!(__p::left_out(#v, #name, __r))
            }
        }
    }

    /// What building a new value does when the object left the member out: the missing-key
    /// error, while the reader is where the object's members end, when [`Slot::finish`] will
    /// not fill it in. A `Result<()>` expression using `__r`.
    pub fn on_absent_new(&self) -> TokenStream {
        let ty = &self.ty;
        let missing = self.missing();
        match self.left_out() {
            Some(_) => quote!(__p::Ok(())),
            None if self.with.is_some() || self.serde => missing,
            None => {
                let name = &self.name;
                quote!(__p::left_out_new::<#ty, _>(#name, __r))
            }
        }
    }

    /// The missing-key error for the member, as an `Err` expression (the object ended at
    /// `__r`'s offset).
    fn missing(&self) -> TokenStream {
        let name = &self.name;
        quote!(__p::Err(__p::missing_key(#name, __r.offset())))
    }

    /// Writes the value (a reference) to `__w`; an expression of type `()`.
    pub fn write(&self) -> TokenStream {
        let v = &self.value;
        match &self.with {
            Some(m) => quote!(#m::write(#v, __w)),
            None if self.serde => quote!(__p::write_serde(#v, __w)),
            None if self.quoted => quote!(__p::quoted::write(#v, __w)),
            None => quote!(__p::Reflect::write(#v, __w)),
        }
    }

    /// Reads into the value (a `&mut`) from `__r`, then checks its declared constraints;
    /// an expression of type `Result<()>`.
    pub fn read(&self) -> TokenStream {
        let v = &self.value;
        let read = match &self.with {
            Some(m) => quote!(#m::read(#v, __r)),
            None if self.serde => quote!(__p::read_serde(__r).map(|__x| *#v = __x)),
            None if self.quoted => quote!(__p::quoted::read(#v, __r)),
            None => quote!(__p::read_member(#v, __r)),
        };
        match &self.checks {
            None => read,
            Some(checks) => quote! {({
                let __mark = __r.save();
                match #read {
                    __p::Ok(()) => __p::enforce(__r, __mark, &*#v, #checks),
                    __p::Err(__e) => __p::Err(__e),
                }
            })},
        }
    }

    /// Reads a new value of the member's type from `__r` (a `with` module's `read_new`), then
    /// checks its declared constraints; an expression of type `Result<Type>`.
    pub fn read_new(&self) -> TokenStream {
        let ty = &self.ty;
        let read = match &self.with {
            Some(m) => quote!(#m::read_new(__r)),
            None if self.serde => quote!(__p::read_serde::<#ty, _>(__r)),
            None if self.quoted => quote!(__p::quoted::read_new::<#ty, _>(__r)),
            None => quote!(__p::read_member_new::<#ty, _>(__r)),
        };
        match &self.checks {
            None => read,
            Some(checks) => quote! {({
                let __mark = __r.save();
                match #read {
                    __p::Ok(__x) => __p::enforce(__r, __mark, &__x, #checks).map(|()| __x),
                    __p::Err(__e) => __p::Err(__e),
                }
            })},
        }
    }

    /// [`Self::read_new`] inside a canonical attempt: a member of a type of its own, without
    /// constraints, by its `Reflect::read_new_canonical` (`None` when the input differs from
    /// the canonical layout); any other (`with`, serde, constraints to check) by
    /// [`Self::read_new`]. An expression of type `Result<Option<Type>>`.
    pub fn read_new_canonical(&self) -> TokenStream {
        let ty = &self.ty;
        if !self.reads_as_its_type() {
            let read = self.read_new();
            return quote!(#read.map(__p::Some));
        }
        quote!(<#ty as __p::Reflect<'_>>::read_new_canonical(__r))
    }

    /// Reads into `slot`, a local `Option` of the member's type: into the value it holds (a
    /// key given twice), or a new one. A `Result<()>` expression.
    pub fn read_into_slot(&self, slot: &syn::Ident) -> TokenStream {
        if self.reads_as_its_type() {
            return quote!(__p::read_slot(&mut #slot, __r));
        }
        let held = Slot {
            value: quote!(__held),
            ..self.clone()
        };
        let read = held.read();
        let read_new = self.read_new();
        quote! {
            match &mut #slot {
                __p::Some(__held) => #read,
                __p::None => #read_new.map(|__x| #slot = __p::Some(__x)),
            }
        }
    }

    /// The member's value from `slot` (a local `Option`) once the object is read: what was
    /// read, else what a member left out takes, else the type's `Reflect::default_value` when
    /// its value may be left out (`MAY_BE_ABSENT`) or under `error_on_missing_keys: false`,
    /// else the missing-key error (a `return`).
    pub fn finish(&self, slot: &syn::Ident) -> TokenStream {
        let fallback = match self.left_out() {
            Some(x) => x,
            None if self.with.is_some() || self.serde => {
                let missing = self.missing();
                quote!(return #missing)
            }
            None => {
                let (ty, name) = (&self.ty, &self.name);
                return quote!(__p::take_slot::<#ty, _>(#slot, #name, __r)?);
            }
        };
        quote! {
            match #slot {
                __p::Some(__x) => __x,
                __p::None => #fallback,
            }
        }
    }

    /// Whether the member is read by its type's own `Reflect` impl, with nothing to check
    /// after: no `with` module, serde, `quoted` or declared constraints.
    fn reads_as_its_type(&self) -> bool {
        self.with.is_none() && !self.serde && !self.quoted && self.checks.is_none()
    }

    /// The member's value when nothing was read (`Reflect::default_value` of its struct):
    /// an expression of its type that may `?` on an `Option`; `None` when there is none (a
    /// `with` or serde member without a declared default).
    pub fn default_value(&self) -> Option<TokenStream> {
        let ty = &self.ty;
        match self.left_out() {
            Some(x) => Some(x),
            None if self.with.is_some() || self.serde => None,
            None => Some(quote!(<#ty as __p::Reflect<'_>>::default_value()?)),
        }
    }

    /// A constant `bool` expression: whether [`Slot::default_value`] is always `Some` (its
    /// type's `Reflect::HAS_DEFAULT_VALUE`); `None` when it never is.
    pub fn has_default_value(&self) -> Option<TokenStream> {
        let ty = &self.ty;
        match self.left_out() {
            Some(_) => Some(quote!(true)),
            None if self.with.is_some() || self.serde => None,
            None => Some(quote!(<#ty as __p::Reflect<'_>>::HAS_DEFAULT_VALUE)),
        }
    }

    /// Whether the value is left out of its struct: `None` (unless `with` or `serde` writes
    /// it) or `skip_if` says so.
    pub fn absent(&self) -> TokenStream {
        let v = &self.value;
        let own = if self.with.is_some() || self.serde {
            quote!(false)
        } else {
            quote!(__p::Reflect::is_absent(#v))
        };
        match &self.skip_if {
            Some(path) => quote!((#own || #path(#v))),
            None => own,
        }
    }
}

/// A slot for each of `fields`, with the value `value(j, field)`.
pub fn slots(fields: &[&Field], value: impl Fn(usize, &Field) -> TokenStream) -> Vec<Slot> {
    fields
        .iter()
        .enumerate()
        .map(|(j, f)| Slot::of(f, value(j, f)))
        .collect()
}

/// `&self.field` and `&mut self.field` slots for each of `fields`: what writing and reading
/// a struct's members work on.
/// `container_default`: the struct is marked `#[structio(default)]`.
pub fn member_slots(fields: &[&Field], container_default: bool) -> (Vec<Slot>, Vec<Slot>) {
    let of = |value: fn(&Field) -> TokenStream| -> Vec<Slot> {
        fields
            .iter()
            .map(|f| Slot::of(f, value(f)).container_default(container_default))
            .collect()
    };
    let refs = of(|f| {
        let m = &f.member;
        quote!(&self.#m)
    });
    let muts = of(|f| {
        let m = &f.member;
        quote!(&mut self.#m)
    });
    (refs, muts)
}
