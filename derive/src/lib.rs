//! `#[derive(Reflect)]` for structio.
//!
//! The entry point reads the item, hands it to the generator for its kind and wraps the result
//! in `const _: () = { use ::structio::__private as __p; ... };`, so that nothing leaks into the
//! user's namespace and the runtime is reached only through `__private`. On invalid input it
//! emits one `compile_error!` on the offending span plus a stub impl, so the user sees one
//! error rather than one per use of the type.
//!
//! - `attr.rs`: `#[structio(...)]` parsing; `case.rs`: `rename_all`; `model.rs`: fields and
//!   variants with their written names.
//! - `bounds.rs`: impl generics with the document lifetime `'de` and inferred bounds.
//! - `keys.rs`: key tables and their perfect-hash probes, chosen here at compile time.
//! - `structs.rs`, `tuple.rs`, `enums.rs` (with `untagged_shape.rs` for untagged enums): the
//!   code; `slot.rs`: how one field is written and read (its `Reflect` impl or a `with` module).
//! - `schema.rs`: the `JsonSchema` impl, from the same model.
#![warn(missing_docs)]

extern crate proc_macro;

mod attr;
mod bounds;
mod case;
mod convert;
mod enums;
mod keys;
mod literal;
mod model;
mod rules;
mod schema;
mod slot;
mod structs;
mod tuple;
mod untagged_shape;

use proc_macro2::TokenStream;
use quote::quote;
use syn::{parse_macro_input, Data, DeriveInput};

use crate::model::Style;

/// Derives `structio::Reflect` (and, for unit-only enums, `structio::MapKey`), and
/// `structio::JsonSchema` describing the same JSON (see `structio::json_schema`).
///
/// # Layout
///
/// - A struct with named fields is an object, keys in declaration order; `None` members are
///   left out unless the writer asks for null members. Reading accepts keys in any order;
///   fields the document does not mention keep their values.
/// - A tuple struct with one field (not counting skipped ones) is that field's value; other
///   tuple structs are arrays of exactly their length. A unit struct is `null`.
/// - A unit-only enum is its variant name in JSON and its discriminant in BEVE, as an integer
///   of the `#[repr]` type (`i32` without one). It can also be a map key.
/// - An enum with data is, by default, externally tagged: a unit variant is its name,
///   other variants are `{"Name": payload}` where the payload of a newtype variant is its
///   value, of a tuple variant an array and of a struct variant an object. Reading a variant
///   that `self` already holds reads into it in place; another variant is first built from
///   `Default` values of its fields (so they must implement `Default`).
///
/// # Container attributes
///
/// - `rename_all = "..."`: `lowercase`, `UPPERCASE`, `PascalCase`, `camelCase`, `snake_case`,
///   `SCREAMING_SNAKE_CASE`, `kebab-case` or `SCREAMING-KEBAB-CASE`, applied as serde does to
///   the fields of a struct or the variants of an enum.
/// - `tag = "t"`: internally tagged, `{"t": "Name", ...fields}`, for unit variants, struct
///   variants and newtype variants wrapping a derived struct with named fields. The tag is
///   expected first; elsewhere it costs one extra pass over the object.
/// - `tag = "t", content = "c"`: adjacently tagged, `{"t": "Name", "c": payload}` (a unit
///   variant is `{"t": "Name"}`); read in either key order.
/// - `untagged`: the bare payload; reading tries, in declaration order, the variants whose
///   payload can have the kind of value found, and keeps the first that reads.
/// - `bound = "T: structio::Reflect<'de>"`: where-predicates replacing the inferred ones
///   (`T: Reflect<'de>` for each type parameter used by a field, plus `Default` where reading
///   may have to build a value).
/// - `crate = "path"`: where structio is, when it is not `::structio`.
/// - `default` (structs): every member may be left out, taking its value in the struct's
///   `Default`.
/// - `from = "T"` / `try_from = "T"`: read as a `T`, then converted with `From` / `TryFrom`
///   (its error becomes the read error); `into = "T"`: written as the `T` a clone converts to.
/// - `check = "path"` (structs with named fields): `fn(&Self) -> Result<(), String>` run on
///   every value read.
/// - `canonical` (structs with named fields): reading JSON first tries the compact layout with
///   members in declaration order.
/// - `as_integer` (unit-only enums): JSON writes and reads the discriminant (a map key: its
///   decimal text); BEVE is unchanged.
/// - `as_array` (structs with named fields): an array of the members in declaration order in
///   both formats (not with `flatten` or `canonical`); read from exactly that many elements.
///
/// # Field and variant attributes
///
/// - `rename = "key"`: the key (or variant name) written and read.
/// - `alias = "key"` (repeatable): another key accepted when reading; a document holding two
///   keys of one field is an error.
/// - `skip` (fields): neither written nor read; reading leaves the field alone (in an enum
///   variant that has to be built, it is `Default`).
/// - `skip_write` (named fields of structs): never written, read when present.
/// - `skip_read` (named fields of structs): always written, never read: its key on input is an
///   unknown key, and every read sets the field to its `default` (or `None`), which it needs.
/// - `other` (one unit variant of a unit-only, internally or adjacently tagged enum): an
///   unknown variant name (or BEVE discriminant of a unit-only enum) reads as this variant.
/// - `flatten` (fields of structs with named fields): the members of the field's struct (a
///   derived struct with named fields) are written and read as the container's own, where the
///   field stands; keys of the container's own fields are matched first.
/// - `with = "module"` (fields): written by `module::write(&field, writer)` and read by
///   `module::read(&mut field, reader)` instead of the type's `Reflect` impl; no bound is
///   inferred for the field's type, and the field is always written.
/// - `default` / `default = "path"` (fields): the member may be left out, taking
///   `Default::default()` or `path()`.
/// - `skip_if = "path"` (fields): not written when `path(&field)` is true.
/// - `serde` (fields, feature `serde`): written and read through the type's serde impls.
/// - `quoted` (number or `bool` fields, and `Vec`/`Option` of them): a string in JSON.
/// - `length(..)`, `range(..)`, `pattern = ".."`, `one_of(..)`, `items(..)`, `check = ".."`
///   (fields): constraints checked on every read.
/// - `rename_all = "..."` (struct variants): renames the variant's fields.
///
/// Types with lifetimes can borrow from the input (`&'a str`, `Cow<'a, str>`, `RawJson<'a>`):
/// the impl is `impl<'de: 'a, 'a> Reflect<'de> for T<'a>`, or uses the type's own `'de`.
#[proc_macro_derive(Reflect, attributes(structio))]
pub fn derive_reflect(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input).into()
}

fn expand(input: &DeriveInput) -> TokenStream {
    let (body, krate) = match attr::container(&input.attrs) {
        Ok(attrs) => {
            let krate = krate_path(&attrs);
            let body = generate(input, &attrs).and_then(|reflect| {
                let schema = schema::expand(input, &attrs)?;
                Ok(quote!(#reflect #schema))
            });
            (body, krate)
        }
        Err(e) => (Err(e), quote!(::structio)),
    };
    match body {
        Ok(body) => wrap(&krate, body),
        Err(e) => {
            let error = e.to_compile_error();
            let stub = wrap(&krate, stub(input));
            quote! {
                #error
                #stub
            }
        }
    }
}

/// The inlining of the generated code that a struct's walk is always inlined with in an
/// optimised build: `#[inline(always)]`, or the plain `#[inline]` hint when the user's crate is
/// built with debug assertions (a debug build), where forced inlining copied the whole walk
/// into every type's code and made the build and its binary several times larger (the
/// library's own hot paths follow the same rule).
pub(crate) fn hot() -> TokenStream {
    quote! {
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[cfg_attr(debug_assertions, inline)]
    }
}

fn krate_path(attrs: &attr::ContainerAttrs) -> TokenStream {
    match &attrs.krate {
        Some(path) => quote!(#path),
        None => quote!(::structio),
    }
}

fn wrap(krate: &TokenStream, body: TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        const _: () = {
            use #krate::__private as __p;
            #body
        };
    }
}

fn generate(input: &DeriveInput, attrs: &attr::ContainerAttrs) -> syn::Result<TokenStream> {
    convert::check(attrs)?;
    match &input.data {
        Data::Struct(data) => {
            if let Some(span) = attrs.untagged {
                return Err(syn::Error::new(span, "`untagged` applies to enums only"));
            }
            if let Some(lit) = attrs.tag.as_ref().or(attrs.content.as_ref()) {
                return Err(syn::Error::new(
                    lit.span(),
                    "`tag` and `content` apply to enums only",
                ));
            }
            let shape = model::shape(&data.fields, attrs.rename_all)?;
            if let Some(span) = attrs.as_integer {
                return Err(syn::Error::new(
                    span,
                    "`as_integer` applies to unit-only enums (written as their discriminant)",
                ));
            }
            if let Some(span) = attrs.as_array {
                if shape.style != Style::Named {
                    return Err(syn::Error::new(
                        span,
                        "`as_array` applies to structs with named fields (a tuple struct is \
                         already an array)",
                    ));
                }
                if let Some(f) = shape.active().find(|f| f.flatten) {
                    return Err(syn::Error::new(
                        f.name_span,
                        "`as_array` writes the members by position; a `flatten` field lifts \
                         members by name and cannot go with it",
                    ));
                }
                if attrs.canonical.is_some() {
                    return Err(syn::Error::new(
                        span,
                        "`canonical` reads the object layout; `as_array` has none",
                    ));
                }
            }
            if let Some(span) = attrs.canonical {
                if shape.style != Style::Named || shape.active().any(|f| f.flatten) {
                    return Err(syn::Error::new(
                        span,
                        "`canonical` applies to structs with named fields and no flattened field",
                    ));
                }
            }
            if let (Some((_, span)), Style::Tuple | Style::Unit) = (&attrs.check, shape.style) {
                return Err(syn::Error::new(
                    *span,
                    "`check` on a type applies to structs with named fields; on a newtype, \
                     put it on the field",
                ));
            }
            let consts = rules::consts(&shape.fields);
            let container = rules::container(&attrs.check).map(|c| c.0);
            let body = match shape.style {
                Style::Named => structs::expand(input, attrs, &shape)?,
                Style::Tuple | Style::Unit => tuple::expand(input, attrs, &shape),
            };
            Ok(quote! {
                #consts
                #container
                #body
            })
        }
        Data::Enum(data) => {
            if let Some(span) = attrs.canonical {
                return Err(syn::Error::new(
                    span,
                    "`canonical` applies to structs with named fields",
                ));
            }
            if let Some((_, span)) = &attrs.check {
                return Err(syn::Error::new(
                    *span,
                    "`check` on a type applies to structs with named fields",
                ));
            }
            if let Some(span) = attrs.default {
                return Err(syn::Error::new(
                    span,
                    "`default` on a type fills in the members a document leaves out, so it \
                     applies to structs only; mark the enum's default variant `#[default]` for \
                     `Reflect::default_value`",
                ));
            }
            enums::expand(input, attrs, data)
        }
        Data::Union(u) => Err(syn::Error::new(
            u.union_token.span,
            "`Reflect` cannot be derived for a union: structio cannot tell which field is live",
        )),
    }
}

/// An impl with the right generics and no bounds, next to a compile error: uses of the type
/// elsewhere then type-check and report nothing more.
fn stub(input: &DeriveInput) -> TokenStream {
    let b = bounds::build(&input.generics, None, None, Vec::new());
    let (impl_g, ty_g, where_c, de) = (&b.impl_generics, &b.ty_generics, &b.where_clause, &b.de);
    let name = &input.ident;
    let mut out = quote! {
        impl #impl_g __p::Reflect<#de> for #name #ty_g #where_c {
            fn write<__W: __p::Writer>(&self, _: &mut __W) {
                ::core::unreachable!()
            }
            fn read<__R: __p::Reader<#de>>(&mut self, _: &mut __R) -> __p::Result<()> {
                ::core::unreachable!()
            }
            fn read_new<__R: __p::Reader<#de>>(_: &mut __R) -> __p::Result<Self> {
                ::core::unreachable!()
            }
        }
    };
    match &input.data {
        Data::Enum(e) if e.variants.iter().all(|v| v.fields.is_empty()) => out.extend(quote! {
            impl #impl_g __p::MapKey<#de> for #name #ty_g #where_c {
                const KIND: __p::KeyKind = __p::KeyKind::Str;
                fn write_key<__W: __p::Writer>(&self, _: &mut __W) {
                    ::core::unreachable!()
                }
                fn from_key(_: __p::Key<#de, '_>, _: usize) -> __p::Result<Self> {
                    ::core::unreachable!()
                }
            }
        }),
        Data::Struct(s) if matches!(s.fields, syn::Fields::Named(_)) => out.extend(quote! {
            impl #impl_g __p::Fields<#de> for #name #ty_g #where_c {
                const INFO: &'static __p::FieldsInfo = &__p::NO_FIELDS;
                fn count_members<__W: __p::Writer>(&self, _: &__W) -> usize {
                    ::core::unreachable!()
                }
                fn write_members<__W: __p::Writer>(&self, _: &mut __W, _: bool) -> bool {
                    ::core::unreachable!()
                }
                fn read_member<__R: __p::Reader<#de>>(&mut self, _: usize, _: &mut __R) -> __p::Result<()> {
                    ::core::unreachable!()
                }
            }
        }),
        _ => {}
    }
    out
}

/// The literal half of `structio::value!` (`$crate`, then a literal, maybe negated): not an API
/// of its own; use `structio::value!`.
#[doc(hidden)]
#[proc_macro]
pub fn value_literal(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    literal::expand(input.into()).into()
}
