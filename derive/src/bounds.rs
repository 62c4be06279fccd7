//! The generics of the emitted impls: the input's own parameters, the document lifetime `'de`
//! (outliving every lifetime of the type, so borrowed fields can be read), and bounds on the
//! type parameters the fields use.

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::{GenericParam, Generics, Lifetime, LifetimeParam, Type, WherePredicate};

/// What the generated code needs of a field's type.
#[derive(Clone, Copy)]
pub struct Need {
    /// It is written and read.
    pub reflect: bool,
    /// It is built with `Default::default()` (a skipped field).
    pub default: bool,
}

/// Impl generics, type generics and where clause, ready to interpolate.
pub struct Bounds {
    pub impl_generics: TokenStream,
    pub ty_generics: TokenStream,
    pub where_clause: TokenStream,
    /// The document lifetime: `'de`, the input's own if it declares one.
    pub de: Lifetime,
}

/// Builds the generics of `impl<'de, ...> Reflect<'de> for Type<...>`.
///
/// Every type parameter that appears in a field type gets `Reflect<'de>`; it also gets
/// `Default` when the field type is built with `Default::default()` (a skipped field of an
/// enum variant).
/// `bound` replaces these inferred bounds. `uses` is `None` for the stub impl emitted next to
/// a compile error, which gets no bounds at all. `extra` predicates are added in every case.
pub fn build(
    generics: &Generics,
    uses: Option<&[(&Type, Need)]>,
    bound: Option<&[WherePredicate]>,
    extra: Vec<WherePredicate>,
) -> Bounds {
    let mut g = generics.clone();
    let lifetimes: Vec<Lifetime> = generics.lifetimes().map(|l| l.lifetime.clone()).collect();
    let own_de = lifetimes.iter().find(|l| l.ident == "de").cloned();
    let de = document_lifetime(generics);
    let mut preds: Vec<WherePredicate> = Vec::new();
    match own_de {
        Some(_) => {
            for l in lifetimes.iter().filter(|l| l.ident != "de") {
                preds.push(syn::parse_quote!(#de: #l));
            }
        }
        None => {
            let mut param = LifetimeParam::new(de.clone());
            param.bounds.extend(lifetimes.iter().cloned());
            g.params.insert(0, GenericParam::Lifetime(param));
        }
    }
    match (uses, bound) {
        (None, _) => {}
        (Some(_), Some(bound)) => preds.extend(bound.iter().cloned()),
        (Some(uses), None) => {
            for p in generics.type_params() {
                let ident = &p.ident;
                let mut reflect = false;
                let mut default = false;
                for (ty, need) in uses {
                    if !mentions(ty, ident) {
                        continue;
                    }
                    reflect |= need.reflect;
                    default |= need.default;
                }
                if reflect {
                    preds.push(syn::parse_quote!(#ident: __p::Reflect<#de>));
                }
                if default {
                    preds.push(syn::parse_quote!(#ident: __p::Default));
                }
            }
        }
    }
    preds.extend(extra);
    if !preds.is_empty() {
        g.make_where_clause().predicates.extend(preds);
    }
    let (impl_generics, _, where_clause) = g.split_for_impl();
    let (_, ty_generics, _) = generics.split_for_impl();
    Bounds {
        impl_generics: impl_generics.to_token_stream(),
        ty_generics: ty_generics.to_token_stream(),
        where_clause: quote!(#where_clause),
        de,
    }
}

/// The document lifetime of the impls: the type's own `'de` if it declares one, else `'de`.
pub fn document_lifetime(generics: &Generics) -> Lifetime {
    generics
        .lifetimes()
        .map(|l| l.lifetime.clone())
        .find(|l| l.ident == "de")
        .unwrap_or_else(|| Lifetime::new("'de", proc_macro2::Span::call_site()))
}

/// Whether the type mentions the identifier anywhere.
pub fn mentions(ty: &Type, ident: &Ident) -> bool {
    fn walk(ts: TokenStream, ident: &Ident) -> bool {
        ts.into_iter().any(|t| match t {
            TokenTree::Ident(i) => i == *ident,
            TokenTree::Group(g) => walk(g.stream(), ident),
            _ => false,
        })
    }
    walk(ty.to_token_stream(), ident)
}

/// Whether the type mentions any generic parameter (type, lifetime or const) of `generics`.
pub fn mentions_generics(ty: &Type, generics: &Generics) -> bool {
    generics.params.iter().any(|p| match p {
        GenericParam::Type(t) => mentions(ty, &t.ident),
        GenericParam::Lifetime(l) => mentions(ty, &l.lifetime.ident),
        GenericParam::Const(c) => mentions(ty, &c.ident),
    })
}

/// Bounds for a struct whose `fields` are written and read (each field type needs `Reflect`
/// unless a `with` module or serde handles it), or the user's `bound` instead; `extra`
/// predicates are added in every case.
pub fn for_fields(
    generics: &Generics,
    fields: &[&crate::model::Field],
    bound: Option<&[WherePredicate]>,
    extra: Vec<WherePredicate>,
) -> Bounds {
    let uses: Vec<_> = fields
        .iter()
        .map(|f| {
            (
                &f.ty,
                Need {
                    // A `with` module writes and reads the field; what it needs of the type,
                    // `bound` can say.
                    reflect: f.with.is_none() && !f.serde,
                    default: false,
                },
            )
        })
        .collect();
    build(generics, Some(&uses), bound, extra)
}

/// The predicate `ty: Fields<'de>` (a struct with named fields deriving `Reflect`), for a field
/// whose members the generated code reaches, and, for a type that does not depend on the
/// generics, a check at the type itself, so that a missing impl is reported there once
/// rather than at every use of the container.
pub fn needs_fields(ty: &Type, generics: &Generics) -> (WherePredicate, TokenStream) {
    let de = document_lifetime(generics);
    let pred = syn::parse_quote_spanned!(ty.span()=> #ty: __p::Fields<#de>);
    let check = if mentions_generics(ty, generics) {
        TokenStream::new()
    } else {
        quote_spanned! {ty.span()=>
            const _: () = {
                fn __fields<'__a, __T: __p::Fields<'__a>>() {}
                let _ = __fields::<#ty>;
            };
        }
    };
    (pred, check)
}
