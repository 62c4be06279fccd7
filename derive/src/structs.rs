//! Structs with named fields (objects), and the member code struct variants share.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{DeriveInput, Ident};

use crate::attr::ContainerAttrs;
use crate::bounds;
use crate::keys::{self, Entry};
use crate::model::{Field, Shape};
use crate::slot::{member_slots, Slot};

/// Key entries for the active fields of a shape; with `container_default` (a struct marked
/// `#[structio(default)]`) every field may be left out.
pub fn entries<'a>(fields: &[&'a Field], container_default: bool) -> Vec<Entry<'a>> {
    fields
        .iter()
        .map(|f| Entry {
            label: match &f.member {
                syn::Member::Named(id) => id.to_string(),
                syn::Member::Unnamed(i) => i.index.to_string(),
            },
            name: &f.name,
            name_span: f.name_span,
            aliases: &f.aliases,
            optional: is_option(&f.ty) || f.default.is_some() || container_default,
        })
        .collect()
}

/// Whether `ty` is spelled as an `Option<..>` (any path ending in `Option`). A type alias of an
/// option is not seen through; such a field is then a required key under
/// `error_on_missing_keys`.
pub fn is_option(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "Option"),
        syn::Type::Group(g) => is_option(&g.elem),
        syn::Type::Paren(p) => is_option(&p.elem),
        _ => false,
    }
}

/// `let __nulls = ...; let __has0 = ...;`: which members are written. `values` are references.
pub fn presence(values: &[Slot]) -> TokenStream {
    if values.is_empty() {
        return TokenStream::new();
    }
    let has = has_idents(values.len());
    let absent = values.iter().map(Slot::absent);
    quote! {
        let __nulls = __w.write_null_members();
        #( let #has = __nulls || !#absent; )*
    }
}

/// The number of members written, plus `base`; needs [`presence`] before it.
pub fn count(n: usize, base: usize) -> TokenStream {
    let has = has_idents(n);
    if n == 0 {
        quote!(#base)
    } else {
        quote!(#base #( + usize::from(#has) )*)
    }
}

/// Whether members were written before the ones being generated.
pub enum Lead {
    /// Known now: the tag of an internally tagged enum was (`true`), or nothing was (`false`).
    Static(bool),
    /// Known at run time, from the variable `__lead`.
    Runtime,
}

/// Writes `key: value` members with `sep` between them; needs [`presence`] before it.
pub fn members(keys: &[String], values: &[Slot], lead: Lead) -> TokenStream {
    let n = values.len();
    let has = has_idents(n);
    let mut out = TokenStream::new();
    // `__first` says that nothing was written yet; it is needed only when a later member
    // has to ask, and assigned only when a later member reads it.
    let needs_flag = match lead {
        Lead::Static(true) => false,
        Lead::Static(false) => n >= 2,
        Lead::Runtime => n >= 1,
    };
    if needs_flag {
        let init = match lead {
            Lead::Runtime => quote!(!__lead),
            _ => quote!(true),
        };
        let mutability = if n >= 2 { quote!(mut) } else { quote!() };
        out.extend(quote!(let #mutability __first = #init;));
    }
    for (j, ((key, value), has)) in keys.iter().zip(values).zip(&has).enumerate() {
        let sep = match lead {
            Lead::Static(true) => quote!(__w.sep();),
            Lead::Static(false) if j == 0 => quote!(),
            _ => quote!(if !__first {
                __w.sep();
            }),
        };
        let clear = if needs_flag && j + 1 < n {
            quote!(__first = false;)
        } else {
            quote!()
        };
        out.extend(member(key, has, value, quote!(#sep #clear)));
    }
    out
}

/// One member: when `has` is set, `before` (the separator and flag updates), the key, then the
/// value.
fn member(key: &str, has: &Ident, value: &Slot, before: TokenStream) -> TokenStream {
    let write = value.write();
    quote! {
        if #has {
            #before
            __w.field_key(const { __p::FieldName::new(#key) });
            #write;
        }
    }
}

/// Whether any of `n` members is written (`__has0 || ...`); needs [`presence`] before it.
fn any_written(n: usize) -> TokenStream {
    let has = has_idents(n);
    if n == 0 {
        quote!(false)
    } else {
        quote!(#(#has)||*)
    }
}

/// `match __i { 0 => read(v0), ... }` for a `read_fields` callback; `values` are `&mut`
/// references (or bindings) and the reader is `__r`.
pub fn read_match(index: &Ident, values: &[Slot]) -> TokenStream {
    let arms = values.iter().enumerate().map(|(j, v)| {
        let read = v.read();
        quote!(#j => #read,)
    });
    quote! {
        match #index {
            #(#arms)*
            _ => __p::Ok(()),
        }
    }
}

/// `match __m { Member::Index(0) => read(v0), ..., Member::Absent(0) => ..., ... }` for a
/// `read_fields` callback over `values` (`&mut` references or bindings), the member in
/// `member` and the reader in `__r` (see [`Slot::on_absent`]).
pub fn member_match(member: &Ident, values: &[Slot]) -> TokenStream {
    let reads = values.iter().enumerate().map(|(j, v)| {
        let read = v.read();
        quote!(__p::Member::Index(#j) => #read,)
    });
    let absents = values.iter().enumerate().map(|(j, v)| {
        let absent = v.on_absent();
        quote!(__p::Member::Absent(#j) => #absent,)
    });
    quote! {
        match #member {
            #(#reads)*
            #(#absents)*
            _ => __p::Ok(()),
        }
    }
}

/// The arms of `Fields::absent_member` for `values` (`&mut self.field` slots) numbered from 0,
/// the index in `__i` (see [`Slot::on_absent`]).
pub fn absent_arms(values: &[Slot]) -> Vec<TokenStream> {
    values
        .iter()
        .enumerate()
        .map(|(j, v)| {
            let absent = v.on_absent();
            quote!(#j => #absent,)
        })
        .collect()
}

/// `__has0, __has1, ...`.
fn has_idents(n: usize) -> Vec<Ident> {
    (0..n).map(|j| format_ident!("__has{}", j)).collect()
}

/// `impl Reflect` (and the hidden `Fields`) for a struct with named fields.
pub fn expand(
    input: &DeriveInput,
    attrs: &ContainerAttrs,
    shape: &Shape,
) -> syn::Result<TokenStream> {
    if attrs.as_array.is_some() {
        return expand_as_array(input, attrs, shape);
    }
    if shape.active().any(|f| f.flatten) {
        return expand_flat(input, attrs, shape);
    }
    let active: Vec<&Field> = shape.active().collect();
    // `skip_read` fields are written only, `skip_write` ones read only.
    let readable: Vec<&Field> = active.iter().copied().filter(|f| !f.skip_read).collect();
    let writable: Vec<&Field> = active.iter().copied().filter(|f| !f.skip_write).collect();
    let container_default = attrs.default.is_some();
    let table = keys::table(&entries(&readable, container_default), "field")?;
    let info = table.fields_info();
    let b = bounds::for_fields(&input.generics, &active, attrs.bound.as_deref(), Vec::new());
    let (impl_g, ty_g, where_c, de) = (&b.impl_generics, &b.ty_generics, &b.where_clause, &b.de);
    let name = &input.ident;

    let (_, muts) = member_slots(&readable, container_default);
    let (refs, _) = member_slots(&writable, container_default);
    let written_names: Vec<String> = writable.iter().map(|f| f.name.clone()).collect();
    let presence = presence(&refs);
    let count = count(refs.len(), 0);
    let members = members(&written_names, &refs, Lead::Runtime);
    let wrote = any_written(refs.len());
    let (w_count, w_write, lead) = if refs.is_empty() {
        (quote!(_), quote!(_), quote!(_))
    } else {
        (quote!(__w), quote!(__w), quote!(__lead))
    };
    let write_as_array = write_as_array(&active, container_default);
    let read_member = if muts.is_empty() {
        quote! {
            fn read_member<__R: __p::Reader<#de>>(&mut self, _: usize, _: &mut __R) -> __p::Result<()> {
                __p::Ok(())
            }
        }
    } else {
        let m = read_match(&format_ident!("__i"), &muts);
        quote! {
            fn read_member<__R: __p::Reader<#de>>(&mut self, __i: usize, __r: &mut __R) -> __p::Result<()> {
                #m
            }
        }
    };

    let absents = absent_arms(&muts);
    let absent_member = if absents.is_empty() {
        TokenStream::new()
    } else {
        quote! {
            #[inline]
            fn absent_member<__R: __p::Reader<#de>>(
                &mut self,
                __i: usize,
                __r: &mut __R,
            ) -> __p::Result<()> {
                match __i {
                    #(#absents)*
                    _ => __p::Ok(()),
                }
            }
        }
    };
    let unread = unread_resets(shape);
    let mut read = own_walk(quote!(self));
    let keys = match attrs.canonical {
        Some(span) => Some(canonical_keys(&table.names, span)?),
        None => None,
    };
    if let Some(keys) = &keys {
        read = quote! {
            if __p::read_canonical(__r, &[#(#keys),*], |__i, __r| {
                <Self as __p::Fields<#de>>::read_member(self, __i, __r)
            }) {
                return __p::Ok(());
            }
            #read
        };
    }
    if !unread.is_empty() {
        read = quote! {
            #unread
            #read
        };
    }
    let check = crate::rules::container(&attrs.check);
    let check = check.as_ref().map(|c| &c.1);
    let read_new = build(
        &muts,
        shape,
        quote!(__p::read_fields(__r, &__INFO, __p::None, __read)),
        check,
        keys.is_some(),
    );
    let in_layout = match &keys {
        Some(keys) => read_new_canonical(&muts, shape, keys, check, de),
        None => TokenStream::new(),
    };
    let reflect = reflect_via_fields(
        input,
        attrs,
        &b,
        read,
        read_new,
        [
            default_value(&muts, shape, container_default),
            has_default_value(&muts, shape, container_default),
        ],
        in_layout,
    );
    let rules = crate::rules::fields_rules(&active);
    let container_rules = fields_checks(check, &[], de);
    let hot = crate::hot();
    Ok(quote! {
        const __INFO: __p::FieldsInfo = #info;

        #[automatically_derived]
        impl #impl_g __p::Fields<#de> for #name #ty_g #where_c {
            const INFO: &'static __p::FieldsInfo = &__INFO;
            #rules
            #container_rules
            #[inline]
            fn count_members<__W: __p::Writer>(&self, #w_count: &__W) -> usize {
                #presence
                #count
            }
            #[inline]
            fn write_members<__W: __p::Writer>(&self, #w_write: &mut __W, #lead: bool) -> bool {
                #presence
                #members
                #wrote
            }
            #write_as_array
            // Always inlined into the walk, as is the closure that calls it: the walk is
            // optimised once, in `read_fields` (see there).
            #hot
            #read_member
            #absent_member
        }

        #reflect
    })
}

/// The members of a struct in its array form (`#[structio(as_array)]`, or any struct written by
/// a writer with `STRUCTS_AS_ARRAYS`): the active fields that are both written and read (not
/// `skip_write`, not `skip_read`), in declaration order; a flattened field is one element, its
/// own value.
fn array_members<'a>(active: &[&'a Field]) -> Vec<&'a Field> {
    active
        .iter()
        .copied()
        .filter(|f| !f.skip_write && !f.skip_read)
        .collect()
}

/// `Fields::write_as_array` for a struct with the `active` fields: a generic array of its
/// [`array_members`], every one written (`None` as null, `skip_if` not asked).
fn write_as_array(active: &[&Field], container_default: bool) -> TokenStream {
    let members = array_members(active);
    let (refs, _) = member_slots(&members, container_default);
    let body = crate::tuple::write_array(&refs);
    quote! {
        fn write_as_array<__W: __p::Writer>(&self, __w: &mut __W) {
            #body
        }
    }
}

/// `impl Reflect` for a struct marked `#[structio(as_array)]`: a generic array of its
/// [`array_members`] in declaration order in both formats, read back from exactly that many
/// elements (an `Option` member too: null for `None`). A `skip_write` field, never in the
/// array, is left alone by a read (and `Default` in a new value), as a `skip` one; a
/// `skip_read` one takes its unread value, as in the object form. No `Fields` impl: the members
/// have no keys to lift into another struct.
pub fn expand_as_array(
    input: &DeriveInput,
    attrs: &ContainerAttrs,
    shape: &Shape,
) -> syn::Result<TokenStream> {
    // `skip_write` fields are in neither direction's array: skipped.
    let shape = Shape {
        style: shape.style,
        fields: shape
            .fields
            .iter()
            .map(|f| {
                let mut f = f.clone();
                if f.skip_write {
                    f.skip = true;
                    f.skip_write = false;
                }
                f
            })
            .collect(),
    };
    let active: Vec<&Field> = shape.active().collect();
    let members = array_members(&active);
    let container_default = attrs.default.is_some();
    let b = bounds::for_fields(&input.generics, &active, attrs.bound.as_deref(), Vec::new());
    let (impl_g, ty_g, where_c, de) = (&b.impl_generics, &b.ty_generics, &b.where_clause, &b.de);
    let name = &input.ident;
    let (refs, muts) = member_slots(&members, container_default);
    let write = crate::tuple::write_array(&refs);
    let read_array = crate::tuple::read_array(&muts);
    let unread = unread_resets(&shape);
    let read_new_array = crate::tuple::read_array_new(&muts);
    let built = construct(&muts, &shape, |j, _| {
        let s = format_ident!("__s{}", j);
        quote!(#s)
    });
    let check = crate::rules::container(&attrs.check);
    let check = check.as_ref().map(|c| &c.1);
    let (read, read_new) = match check {
        None => (
            quote! {
                #unread
                #read_array
            },
            quote! {
                #read_new_array
                __p::Ok(Self #built)
            },
        ),
        Some(check) => (
            quote! {
                let __mark = __r.save();
                #unread
                #read_array?;
                __p::enforce(__r, __mark, &*self, #check)
            },
            quote! {
                let __mark = __r.save();
                #read_new_array
                let __v = Self #built;
                __p::enforce(__r, __mark, &__v, #check)?;
                __p::Ok(__v)
            },
        ),
    };
    let methods = crate::convert::methods(
        attrs,
        de,
        crate::convert::Methods {
            write,
            read,
            read_new,
            default_value: default_value(&muts, &shape, container_default),
            has_default_value: has_default_value(&muts, &shape, container_default),
            extra: TokenStream::new(),
            read_new_canonical: TokenStream::new(),
            inline: false,
            inline_read_new: false,
        },
    );
    Ok(quote! {
        #[automatically_derived]
        impl #impl_g __p::Reflect<#de> for #name #ty_g #where_c {
            #methods
        }
    })
}

/// `Fields::CHECKS` and `Fields::check_fields` for a struct with container rule `check` (its
/// `check = ".."` closure) and flattened fields `flat` (`(member, type)`): the flattened
/// fields' rules first (each only when its type has some), then the struct's own. Nothing for
/// a struct with neither, which keeps the trait's defaults (no rules).
fn fields_checks(
    check: Option<&TokenStream>,
    flat: &[(&syn::Member, &syn::Type)],
    de: &syn::Lifetime,
) -> TokenStream {
    if check.is_none() && flat.is_empty() {
        return TokenStream::new();
    }
    let flat_checks = flat.iter().map(|(m, ty)| {
        quote! {
            if <#ty as __p::Fields<#de>>::CHECKS {
                __p::Fields::check_fields(&self.#m, __o);
            }
        }
    });
    let any = if check.is_some() {
        quote!(true)
    } else {
        any_checks(flat.iter().map(|(_, ty)| *ty), de)
    };
    let own_check = check.map(|c| quote!((#c)(self, __o);));
    quote! {
        const CHECKS: bool = #any;
        #[inline]
        fn check_fields(&self, __o: &mut __p::Violations) {
            #(#flat_checks)*
            #own_check
        }
    }
}

/// Whether one of `types` (at least one) has container rules: `<A as Fields>::CHECKS || ..`.
fn any_checks<'a>(types: impl Iterator<Item = &'a syn::Type>, de: &syn::Lifetime) -> TokenStream {
    let each = types.map(|ty| quote!(<#ty as __p::Fields<#de>>::CHECKS));
    quote!(#(#each)||*)
}

/// The byte strings of the canonical layout of a struct with members `names`: `"a":`, then
/// `,"b":` and so on, as `b"..."` literals. Every name must be plain (nothing a JSON string
/// escapes), so that it stands in the input as it is.
fn canonical_keys(names: &[String], span: proc_macro2::Span) -> syn::Result<Vec<syn::LitByteStr>> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            if !structio_keys::is_plain(name.as_bytes()) {
                return Err(syn::Error::new(
                    span,
                    format!("`canonical` needs member names without characters JSON escapes; `{name}` has one"),
                ));
            }
            let text = format!("{}\"{name}\":", if i == 0 { "" } else { "," });
            Ok(syn::LitByteStr::new(text.as_bytes(), span))
        })
        .collect()
}

/// `impl Reflect` for a struct with named fields on top of its `Fields` impl: written as one
/// object of its members, read by `read` (a `Result<()>` expression using `__r`), read new by
/// `read_new` (a `Result<Self>` body using `__r`), with `default_value` (an `Option<Self>`
/// body) and `read_new_canonical` (the method, or nothing for the provided one).
fn reflect_via_fields(
    input: &DeriveInput,
    attrs: &ContainerAttrs,
    b: &bounds::Bounds,
    read: TokenStream,
    read_new: TokenStream,
    [default_value, has_default_value]: [TokenStream; 2],
    read_new_canonical: TokenStream,
) -> TokenStream {
    let (impl_g, ty_g, where_c, de) = (&b.impl_generics, &b.ty_generics, &b.where_clause, &b.de);
    let name = &input.ident;
    // Marked `canonical` and read as itself (not through `from`/`try_from`).
    let canonical = attrs.canonical.is_some() && attrs.from.is_none() && attrs.try_from.is_none();
    let read = match crate::rules::container(&attrs.check) {
        None => read,
        Some((_, check)) => quote! {
            let __mark = __r.save();
            let __res = (|| -> __p::Result<()> { #read })();
            __res?;
            __p::enforce(__r, __mark, &*self, #check)
        },
    };
    let methods = crate::convert::methods(
        attrs,
        de,
        crate::convert::Methods {
            write: quote! {
                // A constant: `false` for every writer but BEVE's `structs_as_arrays` one.
                if <__W as __p::Writer>::STRUCTS_AS_ARRAYS {
                    return <Self as __p::Fields<#de>>::write_as_array(self, __w);
                }
                __w.begin_struct(<Self as __p::Fields<#de>>::count_members(self, __w));
                <Self as __p::Fields<#de>>::write_members(self, __w, false);
                __w.end_object();
            },
            read,
            read_new,
            default_value,
            has_default_value,
            extra: TokenStream::new(),
            read_new_canonical,
            inline: false,
            // Its canonical fast path inlined into the caller's, its ordinary read out of line
            // (see `build`).
            inline_read_new: canonical,
        },
    );
    // A canonical struct read as itself is read by the canonical-layout reader first.
    let canonical = canonical.then(|| {
        quote!(
            const CANONICAL: bool = true;
        )
    });
    quote! {
        #[automatically_derived]
        impl #impl_g __p::Reflect<#de> for #name #ty_g #where_c {
            #canonical
            #methods
        }
    }
}

/// The walk of a struct's own members (`read_fields` with `__INFO`) into `target`, a
/// `&mut Self` expression. Its closure is always inlined into the walk, so that the walk is
/// optimised once, in `read_fields` (see there).
fn own_walk(target: TokenStream) -> TokenStream {
    let hot = crate::hot();
    quote! {
        __p::read_fields(__r, &__INFO, __p::None, #hot |__m, __r| {
            __p::own_member(#target, __m, __r)
        })
    }
}

/// The local `Option` holding member `j` while a new value is built.
fn slot_ident(j: usize) -> Ident {
    format_ident!("__s{}", j)
}

/// The body of `read_new` for a struct or struct variant built from `values` (the active
/// members, in order): a local `Option` per member, filled by `read` (a `Result<()>`
/// expression calling the closure `__read(member, reader)`), then the value built from them
/// (see [`Slot::finish`]) with `Default` values for skipped fields. `path` names the struct
/// or variant (`Self`, `Self::Variant`).
pub fn build_with(
    values: &[Slot],
    shape: &Shape,
    path: TokenStream,
    read: TokenStream,
) -> TokenStream {
    let decls = values.iter().enumerate().map(|(j, v)| {
        let s = slot_ident(j);
        let ty = &v.ty;
        quote!(let mut #s: __p::Option<#ty> = __p::None;)
    });
    let arms = values.iter().enumerate().map(|(j, v)| {
        let read = v.read_into_slot(&slot_ident(j));
        let absent = v.on_absent_new();
        quote! {
            __p::Member::Index(#j) => #read,
            __p::Member::Absent(#j) => #absent,
        }
    });
    let closure = if values.is_empty() {
        quote!(let __read = |_: __p::Member<'_>, _: &mut _| __p::Ok(());)
    } else {
        quote! {
            let __read = |__m: __p::Member<'_>, __r: &mut __R| match __m {
                #(#arms)*
                _ => __p::Ok(()),
            };
        }
    };
    let fields = construct(values, shape, |j, v| v.finish(&slot_ident(j)));
    quote! {
        #(#decls)*
        {
            #closure
            #read?;
        }
        __p::Ok(#path #fields)
    }
}

/// [`build_with`] for a struct (`Self`), after the faster way for a struct that has a
/// default value: reading into it, in place, which gives the same value. `check` is the
/// container's `check = ".."` closure, run on the value built (reading in place runs it).
/// `canonical` (a struct marked `canonical`) puts the canonical attempt first
/// ([`read_new_canonical`] in `structio::read::try_canonical`), and the rest in a call that
/// is never inlined (`read_new` is then marked `#[inline]`): the fast path of nested canonical
/// structs becomes one piece of code, where each value is built in place instead of being
/// returned through the `Result`s of calls, a copy whose loads wait for the stores just made.
fn build(
    values: &[Slot],
    shape: &Shape,
    read: TokenStream,
    check: Option<&TokenStream>,
    canonical: bool,
) -> TokenStream {
    let built = build_with(values, shape, quote!(Self), read);
    let built = match check {
        None => built,
        Some(check) => quote! {
            let __mark = __r.save();
            let __v = (|| -> __p::Result<Self> { #built })()?;
            __p::enforce(__r, __mark, &__v, #check)?;
            __p::Ok(__v)
        },
    };
    // After a canonical attempt, reading into the default value walks the members without
    // trying the layout again (`Reflect::read` would).
    let into_default = if !canonical {
        quote!(__p::Reflect::read(&mut __v, __r)?;)
    } else {
        let walk = own_walk(quote!(&mut __v));
        match check {
            None => quote!(#walk?;),
            Some(check) => quote! {
                let __mark = __r.save();
                #walk?;
                __p::enforce(__r, __mark, &__v, #check)?;
            },
        }
    };
    // Debug builds compile only the way the type takes (`HAS_DEFAULT_VALUE` is a constant, so
    // the member-by-member way is not compiled at all for a type with a default value: half
    // the LLVM IR of a debug build of many structs). Optimised builds (no debug assertions)
    // leave it to the optimiser, which drops that way once `default_value` is inlined: ending
    // it earlier changed the inlining of nested structs' reads (+0.6% instructions reading
    // twitter.json).
    let rest = quote! {
        if let __p::Some(mut __v) = <Self as __p::Reflect<'_>>::default_value() {
            #into_default
            return __p::Ok(__v);
        }
        if ::core::cfg!(debug_assertions) && <Self as __p::Reflect<'_>>::HAS_DEFAULT_VALUE {
            return __p::Err(__p::default_value_broken(
                __p::type_name::<Self>(),
                __r.offset(),
            ));
        }
        #built
    };
    if !canonical {
        return rest;
    }
    let hot = crate::hot();
    quote! {
        if let __p::Some(__v) = __p::try_canonical(
            __r,
            #hot |__r| <Self as __p::Reflect<'_>>::read_new_canonical(__r),
        ) {
            return __p::Ok(__v);
        }
        __p::out_of_line(__r, |__r| { #rest })
    }
}

/// `Reflect::read_new_canonical` for a struct marked `canonical`, with members `values`,
/// canonical `keys` and container check `check`: in a reader with a canonical layout, the
/// opening brace, each key compared and each value read in declaration order (a nested
/// canonical struct by its own `read_new_canonical`, so that a difference anywhere ends the
/// whole attempt), the closing brace, then the value built straight from them (skipped fields
/// from `Default`); `Ok(None)` on the first difference. Other readers read it as `read_new`.
fn read_new_canonical(
    values: &[Slot],
    shape: &Shape,
    keys: &[syn::LitByteStr],
    check: Option<&TokenStream>,
    de: &syn::Lifetime,
) -> TokenStream {
    let locals: Vec<Ident> = (0..values.len())
        .map(|j| format_ident!("__c{}", j))
        .collect();
    let steps = values
        .iter()
        .zip(keys)
        .zip(&locals)
        .map(|((v, key), local)| {
            let read = v.read_new_canonical();
            quote! {
                if !__p::Reader::take_exact(__r, #key) {
                    return __p::Ok(__p::None);
                }
                let __p::Some(#local) = #read? else {
                    return __p::Ok(__p::None);
                };
            }
        });
    let fields = construct(values, shape, |j, _| {
        let local = &locals[j];
        quote!(#local)
    });
    let (mark, done) = match check {
        None => (TokenStream::new(), TokenStream::new()),
        Some(check) => (
            quote!(let __mark = __r.save();),
            quote!(__p::enforce(__r, __mark, &__v, #check)?;),
        ),
    };
    crate::convert::read_new_canonical(
        de,
        quote! {
            #mark
            let mut __map = __r.begin_object()?;
            #(#steps)*
            if __r.next_field(&mut __map)?.is_some() {
                return __p::Ok(__p::None);
            }
            let __v = Self #fields;
            #done
            __p::Ok(__p::Some(__v))
        },
    )
}

/// Statements setting the `skip_read` fields of `shape` (in `self`) to the value a fresh read
/// gives them, unless the reader merges; nothing when there are none.
fn unread_resets(shape: &Shape) -> TokenStream {
    let sets: Vec<TokenStream> = shape
        .active()
        .filter(|f| f.skip_read)
        .map(|f| {
            let (m, x) = (&f.member, f.unread_value());
            quote!(self.#m = #x;)
        })
        .collect();
    if sets.is_empty() {
        return TokenStream::new();
    }
    quote! {
        if !__p::Reader::options(__r).merge {
            #(#sets)*
        }
    }
}

/// `{ member: value, ... }` for every field of `shape`: `value(j, slot)` for active field `j`,
/// `Default::default()` for a skipped one.
pub fn construct(
    values: &[Slot],
    shape: &Shape,
    value: impl Fn(usize, &Slot) -> TokenStream,
) -> TokenStream {
    let mut j = 0;
    let parts = shape.fields.iter().map(|f| {
        let m = &f.member;
        if f.skip || f.flatten {
            quote!(#m: __p::Default::default())
        } else if f.skip_read {
            let x = f.unread_value();
            quote!(#m: #x)
        } else {
            let x = value(j, &values[j]);
            j += 1;
            quote!(#m: #x)
        }
    });
    let parts: Vec<TokenStream> = parts.collect();
    quote!({ #(#parts),* })
}

/// The body of `default_value` for a struct: its `Default` when marked `#[structio(default)]`,
/// else built member by member (`None` if one has no default value); flattened fields take
/// their types' default values.
fn default_value(values: &[Slot], shape: &Shape, container_default: bool) -> TokenStream {
    if container_default {
        return quote!(__p::Some(<Self as __p::Default>::default()));
    }
    match defaults(values, shape) {
        Some(fields) => quote!(__p::Some(Self #fields)),
        None => quote!(__p::None),
    }
}

/// `{ member: default, ... }` for every field of `shape` when nothing is read: skipped fields
/// from `Default`, flattened ones from their types' default values, the others as
/// [`Slot::default_value`] says; `None` when a member has none.
pub fn defaults(values: &[Slot], shape: &Shape) -> Option<TokenStream> {
    let mut j = 0;
    let mut parts = Vec::new();
    for f in &shape.fields {
        let m = &f.member;
        if f.skip {
            parts.push(quote!(#m: __p::Default::default()));
        } else if f.skip_read {
            let x = f.unread_value();
            parts.push(quote!(#m: #x));
        } else if f.flatten {
            let ty = &f.ty;
            parts.push(quote!(#m: <#ty as __p::Reflect<'_>>::default_value()?));
        } else {
            let x = values[j].default_value()?;
            j += 1;
            parts.push(quote!(#m: #x));
        }
    }
    Some(quote!({ #(#parts),* }))
}

/// A constant `bool` expression: whether [`defaults`] always gives a value (every member has
/// one: the struct's `Reflect::HAS_DEFAULT_VALUE`).
pub fn has_defaults(values: &[Slot], shape: &Shape) -> TokenStream {
    let mut j = 0;
    let mut parts = Vec::new();
    for f in &shape.fields {
        if f.skip || f.skip_read {
            continue;
        }
        if f.flatten {
            let ty = &f.ty;
            parts.push(quote!(<#ty as __p::Reflect<'_>>::HAS_DEFAULT_VALUE));
            continue;
        }
        match values[j].has_default_value() {
            Some(x) => parts.push(x),
            None => return quote!(false),
        }
        j += 1;
    }
    quote!(true #(&& #parts)*)
}

/// `HAS_DEFAULT_VALUE` of a struct (see [`default_value`]).
fn has_default_value(values: &[Slot], shape: &Shape, container_default: bool) -> TokenStream {
    if container_default {
        return quote!(true);
    }
    has_defaults(values, shape)
}

/// [`expand`] for a struct with `#[structio(flatten)]` fields. Its own fields (the others) have
/// the key table and member indices `0..n`; the members of flattened field `c` follow, each
/// field's after those of the one before it (`Fields::MEMBERS` of each type), so that a key
/// the table does not hold is looked up in each flattened type in turn
/// (`Fields::flat_member`) and read through `read_member` like the rest. A key none of them
/// holds goes to the first flattened field that keeps other keys (`Fields::REST`: a map, or a
/// struct flattening one), when there is one. Members are written in declaration order, a
/// flattened field's where the field stands.
fn expand_flat(
    input: &DeriveInput,
    attrs: &ContainerAttrs,
    shape: &Shape,
) -> syn::Result<TokenStream> {
    let active: Vec<&Field> = shape.active().collect();
    // Its own fields as read (without `skip_read` ones) and as written (without `skip_write`).
    let own: Vec<&Field> = active
        .iter()
        .copied()
        .filter(|f| !f.flatten && !f.skip_read)
        .collect();
    let own_written: Vec<&Field> = active
        .iter()
        .copied()
        .filter(|f| !f.flatten && !f.skip_write)
        .collect();
    let flat: Vec<&Field> = active.iter().copied().filter(|f| f.flatten).collect();
    let container_default = attrs.default.is_some();
    let write_as_array = write_as_array(&active, container_default);
    let table = keys::table(&entries(&own, container_default), "field")?;
    let info = table.fields_info();
    let de = bounds::document_lifetime(&input.generics);
    // Each flattened type must be a struct with named fields deriving `Reflect`.
    let (extra, checks): (Vec<_>, TokenStream) = flat
        .iter()
        .map(|f| bounds::needs_fields(&f.ty, &input.generics))
        .unzip();
    let b = bounds::for_fields(&input.generics, &active, attrs.bound.as_deref(), extra);
    let (impl_g, ty_g, where_c) = (&b.impl_generics, &b.ty_generics, &b.where_clause);
    let name = &input.ident;
    let n_own = own.len();

    let (_, muts) = member_slots(&own, container_default);
    let (refs, _) = member_slots(&own_written, container_default);
    let presence = presence(&refs);
    let own_count = count(refs.len(), 0);
    let flat_members: Vec<TokenStream> = flat
        .iter()
        .map(|f| {
            let m = &f.member;
            quote!(self.#m)
        })
        .collect();
    let flat_types: Vec<&syn::Type> = flat.iter().map(|f| &f.ty).collect();

    // Members in declaration order; `__wrote` says this struct has written one.
    let has = has_idents(own_written.len());
    let mut writes = TokenStream::new();
    let mut j = 0;
    for f in &active {
        if f.skip_write {
            continue;
        }
        if f.flatten {
            let m = &f.member;
            writes.extend(quote! {
                __wrote |= __p::Fields::write_members(&self.#m, __w, __lead || __wrote);
            });
        } else {
            let before = quote! {
                if __lead || __wrote {
                    __w.sep();
                }
                __wrote = true;
            };
            writes.extend(member(&f.name, &has[j], &refs[j], before));
            j += 1;
        }
    }
    let own_reads = if muts.is_empty() {
        quote!(__p::Ok(()))
    } else {
        read_match(&format_ident!("__i"), &muts)
    };
    let own_absents = absent_arms(&muts);

    let own_rules = crate::rules::fields_rules(&own);
    let check = crate::rules::container(&attrs.check);
    let flat_pairs: Vec<(&syn::Member, &syn::Type)> =
        flat.iter().map(|f| (&f.member, &f.ty)).collect();
    let container_rules = fields_checks(check.as_ref().map(|c| &c.1), &flat_pairs, &de);
    // The members of flattened fields are read through `read_member`, not their types' own
    // `read`, so their container rules (`Fields::check_fields`, for the types that have any:
    // a constant, so that types without rules read exactly as before) run here, once the
    // object is read, reporting where it starts; the struct's own rule runs after them (see
    // `reflect_via_fields`).
    let flat_checks = flat.iter().map(|f| {
        let (m, ty) = (&f.member, &f.ty);
        quote! {
            if <#ty as __p::Fields<#de>>::CHECKS {
                __p::Fields::check_fields(&__v.#m, __o);
            }
        }
    });
    let any_flat_checks = any_checks(flat.iter().map(|f| &f.ty), &de);
    let type_name = name.to_string();
    let unread = unread_resets(shape);
    let reflect = reflect_via_fields(
        input,
        attrs,
        &b,
        quote! {
            #unread
            let __start = __r.save();
            let mut __map = __r.begin_object()?;
            let mut __kept = __p::KeptKeys::default();
            if <Self as __p::Fields<#de>>::REST && !__p::Reader::options(__r).merge {
                <Self as __p::Fields<#de>>::clear_rest(self);
            }
            __p::read_flat_fields_in(
                __r,
                &mut __map,
                &__INFO,
                __p::None,
                <Self as __p::Fields<#de>>::MEMBERS,
                <Self as __p::Fields<#de>>::flat_member,
                <Self as __p::Fields<#de>>::REST,
                |__m, __r| __p::read_member_of(self, __m, __r, &mut __kept),
            )?;
            if #any_flat_checks {
                __p::enforce(__r, __start, &*self, |__v: &Self, __o: &mut __p::Violations| {
                    #(#flat_checks)*
                })?;
            }
            __p::Ok(())
        },
        // The members of flattened fields are read into values of their types, so a new value
        // starts from the struct's default value.
        quote! {
            match <Self as __p::Reflect<#de>>::default_value() {
                __p::Some(mut __v) => {
                    __p::Reflect::read(&mut __v, __r)?;
                    __p::Ok(__v)
                }
                __p::None => __p::Err(__p::no_default_value(#type_name, __r.offset())),
            }
        },
        [
            default_value(&muts, shape, container_default),
            has_default_value(&muts, shape, container_default),
        ],
        TokenStream::new(),
    );
    Ok(quote! {
        const __INFO: __p::FieldsInfo = #info;
        #checks

        #[automatically_derived]
        impl #impl_g __p::Fields<#de> for #name #ty_g #where_c {
            const INFO: &'static __p::FieldsInfo = &__INFO;
            #own_rules
            #container_rules
            const MEMBERS: usize = #n_own #( + <#flat_types as __p::Fields<#de>>::MEMBERS )*;
            const REST: bool = false #( || <#flat_types as __p::Fields<#de>>::REST )*;
            #[inline]
            fn read_rest<__R: __p::Reader<#de>>(
                &mut self,
                __k: &str,
                __at: usize,
                __r: &mut __R,
            ) -> __p::Result<()> {
                #(
                    if <#flat_types as __p::Fields<#de>>::REST {
                        return __p::Fields::read_rest(&mut #flat_members, __k, __at, __r);
                    }
                )*
                __p::Reader::skip_value(__r)
            }
            #[inline]
            fn clear_rest(&mut self) {
                #(
                    if <#flat_types as __p::Fields<#de>>::REST {
                        __p::Fields::clear_rest(&mut #flat_members);
                    }
                )*
            }
            #[inline]
            fn flat_member(__k: &[u8]) -> __p::Option<(usize, &'static str)> {
                let mut __off = #n_own;
                #(
                    if let __p::Some((__m, __n)) = __p::member_of::<#flat_types>(__k) {
                        return __p::Some((__off + __m, __n));
                    }
                    __off += <#flat_types as __p::Fields<#de>>::MEMBERS;
                )*
                let _ = __off;
                __p::None
            }
            #[inline]
            fn count_members<__W: __p::Writer>(&self, __w: &__W) -> usize {
                #presence
                #own_count #( + __p::Fields::count_members(&#flat_members, __w) )*
            }
            #[inline]
            fn write_members<__W: __p::Writer>(&self, __w: &mut __W, __lead: bool) -> bool {
                #presence
                let mut __wrote = false;
                #writes
                __wrote
            }
            #write_as_array
            #[inline]
            fn read_member<__R: __p::Reader<#de>>(
                &mut self,
                __i: usize,
                __r: &mut __R,
            ) -> __p::Result<()> {
                if __i < #n_own {
                    return #own_reads;
                }
                let mut __i = __i - #n_own;
                #(
                    if __i < <#flat_types as __p::Fields<#de>>::MEMBERS {
                        return __p::Fields::read_member(&mut #flat_members, __i, __r);
                    }
                    __i -= <#flat_types as __p::Fields<#de>>::MEMBERS;
                )*
                let _ = __i;
                __p::Ok(())
            }
            #[inline]
            fn absent_member<__R: __p::Reader<#de>>(
                &mut self,
                __i: usize,
                __r: &mut __R,
            ) -> __p::Result<()> {
                if __i < #n_own {
                    return match __i {
                        #(#own_absents)*
                        _ => __p::Ok(()),
                    };
                }
                let mut __i = __i - #n_own;
                #(
                    if __i < <#flat_types as __p::Fields<#de>>::MEMBERS {
                        return __p::Fields::absent_member(&mut #flat_members, __i, __r);
                    }
                    __i -= <#flat_types as __p::Fields<#de>>::MEMBERS;
                )*
                let _ = __i;
                __p::Ok(())
            }
        }

        #reflect
    })
}
