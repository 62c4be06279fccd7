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
//! - `strukt.rs`, `tuple.rs`, `enums.rs` (with `shape.rs` for untagged enums): the code.
extern crate proc_macro;

mod attr;
mod bounds;
mod case;
mod enums;
mod keys;
mod model;
mod shape;
mod strukt;
mod tuple;

use proc_macro2::TokenStream;
use quote::quote;
use syn::{parse_macro_input, Data, DeriveInput};

use crate::model::Style;

/// Derives `structio::Reflect` (and, for unit-only enums, `structio::MapKey`).
///
/// Container attributes: `rename_all = "..."`, `tag = "..."`, `content = "..."`, `untagged`,
/// `bound = "..."`, `crate = "..."`. Field attributes: `rename`, `alias` (repeatable), `skip`.
/// Variant attributes: `rename`, `alias`, `rename_all`.
#[proc_macro_derive(Reflect, attributes(structio))]
pub fn derive_reflect(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input).into()
}

fn expand(input: &DeriveInput) -> TokenStream {
    let (body, krate) = match attr::container(&input.attrs) {
        Ok(attrs) => {
            let krate = krate_path(&attrs);
            (generate(input, &attrs), krate)
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

fn krate_path(attrs: &attr::ContainerAttrs) -> TokenStream {
    match &attrs.krate {
        Some(path) => quote!(#path),
        None => quote!(::structio),
    }
}

fn wrap(krate: &TokenStream, body: TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        const _: () = {
            use #krate::__private as __p;
            #body
        };
    }
}

fn generate(input: &DeriveInput, attrs: &attr::ContainerAttrs) -> syn::Result<TokenStream> {
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
            match shape.style {
                Style::Named => strukt::expand(input, attrs, &shape),
                Style::Tuple | Style::Unit => Ok(tuple::expand(input, attrs, &shape)),
            }
        }
        Data::Enum(data) => enums::expand(input, attrs, data),
        Data::Union(u) => Err(syn::Error::new(
            u.union_token.span,
            "`Reflect` cannot be derived for a union: structio cannot tell which field is live",
        )),
    }
}

/// An impl with the right generics and no bounds, next to a compile error: uses of the type
/// elsewhere then type-check and report nothing more.
fn stub(input: &DeriveInput) -> TokenStream {
    let b = bounds::build(&input.generics, None, None);
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
                fn write_members<__W: __p::Writer>(&self, _: &mut __W, _: bool) {
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
