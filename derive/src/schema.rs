//! `impl JsonSchema`, emitted beside `Reflect` from the same model: the written names, the
//! members a document may leave out, flattened members, the enum representations and the doc
//! comments (as `description`).
//!
//! A member's schema is asked for through `__p::SchemaProbe`, so that a member type without a
//! `JsonSchema` impl (a hand-written `Reflect` impl) is described as any value instead of
//! failing to compile; type parameters get a `JsonSchema` bound, which makes the probe find
//! their impls.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Attribute, DataEnum, DeriveInput, Expr, ExprLit, Lit, Type, WherePredicate};

use crate::attr::ContainerAttrs;
use crate::bounds;
use crate::model::{self, Field, Shape, Style, Variant};

/// The `JsonSchema` impl of `input` (whose `Reflect` impl was generated from `attrs`).
pub fn expand(input: &DeriveInput, attrs: &ContainerAttrs) -> syn::Result<TokenStream> {
    let doc = doc_text(&input.attrs);
    let mut types: Vec<Type> = Vec::new();
    let mut may_be_absent = TokenStream::new();
    let body = if let Some(from) = attrs.from.as_ref().or(attrs.try_from.as_ref()) {
        // Read as the `from` type: its schema is the document's.
        types.push(from.clone());
        let s = probe_schema(from);
        quote!(__p::describe(#s, #doc))
    } else {
        match &input.data {
            syn::Data::Struct(data) => {
                let shape = model::shape(&data.fields, attrs.rename_all)?;
                for f in shape.active().filter(|f| uses_type(f)) {
                    types.push(f.ty.clone());
                }
                match shape.style {
                    Style::Named if attrs.as_array.is_some() => {
                        let items = shape
                            .active()
                            .filter(|f| !f.skip_write && !f.skip_read)
                            .map(field_schema);
                        quote!(__p::describe(__p::tuple_schema([#(#items),*]), #doc))
                    }
                    Style::Named => object(&shape, attrs.default.is_some(), None, &doc),
                    Style::Unit => quote!(__p::describe(__p::null_schema(), #doc)),
                    Style::Tuple => {
                        let active: Vec<&Field> = shape.active().collect();
                        if let [only] = active[..] {
                            if uses_type(only) {
                                let ty = &only.ty;
                                may_be_absent = quote! {
                                    fn may_be_absent() -> bool {
                                        #[allow(unused_imports)]
                                        use __p::{ViaAnySchema as _, ViaJsonSchema as _};
                                        (&__p::SchemaProbe::<#ty>::NEW).may_be_absent()
                                    }
                                };
                            }
                            let s = field_schema(only);
                            quote!(__p::describe(#s, #doc))
                        } else {
                            let items = active.iter().map(|f| field_schema(f));
                            quote!(__p::describe(__p::tuple_schema([#(#items),*]), #doc))
                        }
                    }
                }
            }
            syn::Data::Enum(data) => {
                let variants = model::variants(data, attrs.rename_all)?;
                for v in &variants {
                    for f in v.shape.active().filter(|f| uses_type(f)) {
                        types.push(f.ty.clone());
                    }
                }
                if attrs.as_integer.is_some() {
                    // The discriminants, as numbers and (quoted) as map keys.
                    let (repr, _) = crate::enums::repr_kind(input)?;
                    let name = &input.ident;
                    let idents = variants.iter().map(|v| &v.ident);
                    let other = variants.iter().any(|v| v.other.is_some());
                    let list = quote!(&[#( #name::#idents as i128 ),*]);
                    may_be_absent = quote! {
                        fn key_schema(_: &mut __p::SchemaGenerator) -> __p::Value {
                            __p::integer_keys_schema(#list, #repr, #other)
                        }
                    };
                    quote!(__p::describe(__p::integers_schema(#list, #repr, #other), #doc))
                } else {
                    enum_body(data, attrs, &variants, &doc)
                }
            }
            syn::Data::Union(_) => return Ok(TokenStream::new()),
        }
    };

    let mut generics = input.generics.clone();
    let preds: Vec<WherePredicate> = input
        .generics
        .type_params()
        .filter(|p| types.iter().any(|ty| bounds::mentions(ty, &p.ident)))
        .map(|p| {
            let ident = &p.ident;
            syn::parse_quote!(#ident: __p::JsonSchema)
        })
        .collect();
    if !preds.is_empty() {
        generics.make_where_clause().predicates.extend(preds);
    }
    let (impl_g, ty_g, where_c) = generics.split_for_impl();
    let name = &input.ident;
    Ok(quote! {
        #[automatically_derived]
        #[allow(single_use_lifetimes)]
        impl #impl_g __p::JsonSchema for #name #ty_g #where_c {
            fn json_schema(__g: &mut __p::SchemaGenerator) -> __p::Value {
                #[allow(unused_imports)]
                use __p::{ViaAnySchema as _, ViaJsonSchema as _};
                __g.named(__p::type_name::<Self>(), |__g| #body)
            }
            #may_be_absent
        }
    })
}

/// Whether the field's own type says how it is written (not a `with` module or serde).
fn uses_type(f: &Field) -> bool {
    f.with.is_none() && !f.serde
}

/// The schema of `ty` (a `Value` expression using `__g`), `{}` when it has no `JsonSchema`.
fn probe_schema(ty: &Type) -> TokenStream {
    quote!((&__p::SchemaProbe::<#ty>::NEW).schema_of(__g))
}

/// The schema of the value of field `f`, with the keywords of the constraints it declares
/// (from the rule list the `Reflect` side emits, `__RULES_<index>`).
fn field_schema(f: &Field) -> TokenStream {
    let s = if f.quoted {
        let ty = &f.ty;
        quote!(__p::quoted::schema::<#ty>(__g))
    } else if uses_type(f) {
        probe_schema(&f.ty)
    } else {
        quote!(__p::any_schema())
    };
    if f.rules.is_empty() {
        s
    } else {
        let list = crate::rules::list_ident(&[f.index]);
        quote!(__p::constrain_schema(#s, #list, __g))
    }
}

/// Whether field `f` must be present (a `bool` expression): not when it is an `Option`, has a
/// default (its own or its struct's, `container_default`) or its type may be left out.
/// Neither is a one-way field: a `skip_write` one is absent from what is written, a `skip_read`
/// one from what is read.
fn required(f: &Field, container_default: bool) -> TokenStream {
    if crate::structs::is_option(&f.ty)
        || f.default.is_some()
        || container_default
        || f.skip_write
        || f.skip_read
    {
        quote!(false)
    } else if uses_type(f) {
        let ty = &f.ty;
        quote!(!(&__p::SchemaProbe::<#ty>::NEW).may_be_absent())
    } else {
        quote!(true)
    }
}

/// Statements adding the active fields of `shape` to the `ObjectSchema` `__o`: members, and
/// flattened fields' members.
fn members(shape: &Shape, container_default: bool) -> TokenStream {
    let mut out = TokenStream::new();
    for f in shape.active() {
        let s = field_schema(f);
        if f.flatten {
            out.extend(quote! {
                let __s = #s;
                __o.flatten(__g, &__s);
            });
        } else {
            let name = &f.name;
            let req = required(f, container_default);
            // `skip_write`: only ever accepted as input; `skip_read`: only ever written.
            let s = if f.skip_write {
                quote!(__p::annotate_schema(#s, "writeOnly"))
            } else if f.skip_read {
                quote!(__p::annotate_schema(#s, "readOnly"))
            } else {
                s
            };
            let doc = &f.doc;
            out.extend(quote!(__o.member(#name, #s, #req, #doc);));
        }
    }
    out
}

/// An object schema of the named fields of `shape`, after the member `tag` holding the constant
/// `name` when given (an internally tagged variant).
fn object(
    shape: &Shape,
    container_default: bool,
    tag: Option<(&str, &str)>,
    doc: &str,
) -> TokenStream {
    let tag =
        tag.map(|(tag, name)| quote!(__o.member(#tag, __p::constant_schema(#name), true, "");));
    let members = members(shape, container_default);
    quote!({
        let mut __o = __p::ObjectSchema::new();
        #tag
        #members
        __o.finish(#doc)
    })
}

/// The payload of variant `v` as written by the external and adjacent representations and
/// untagged: `None` for a unit variant.
fn payload(v: &Variant) -> Option<TokenStream> {
    match v.shape.style {
        Style::Unit => None,
        Style::Tuple if v.is_newtype() => v.shape.active().next().map(field_schema),
        Style::Tuple => {
            let items = v.shape.active().map(field_schema);
            Some(quote!(__p::tuple_schema([#(#items),*])))
        }
        Style::Named => Some(object(&v.shape, false, None, "")),
    }
}

/// The schema of an enum.
fn enum_body(
    data: &DataEnum,
    attrs: &ContainerAttrs,
    variants: &[Variant],
    doc: &str,
) -> TokenStream {
    let docs: Vec<String> = data.variants.iter().map(|v| doc_text(&v.attrs)).collect();
    let tag = attrs.tag.as_ref().map(|t| t.value());
    let content = attrs.content.as_ref().map(|c| c.value());
    let untagged = attrs.untagged.is_some();
    let other = variants.iter().any(|v| v.other.is_some());
    if other && tag.is_none() && !untagged {
        // A unit-only enum with an `other` variant reads any name.
        return quote!(__p::describe(__p::any_string_schema(), #doc));
    }
    if tag.is_none() && !untagged && variants.iter().all(|v| v.shape.style == Style::Unit) {
        // Written as the variant names.
        let names = variants.iter().map(|v| &v.name);
        let any_doc = docs.iter().any(|d| !d.is_empty());
        if !any_doc {
            return quote!(__p::describe(__p::names_schema(&[#(#names),*]), #doc));
        }
        let each = variants.iter().zip(&docs).map(|(v, d)| {
            let name = &v.name;
            quote!(__p::describe(__p::constant_schema(#name), #d))
        });
        return quote!(__p::describe(__p::one_of_schema([#(#each),*]), #doc));
    }
    let each = variants.iter().zip(&docs).map(|(v, d)| {
        let name = &v.name;
        let schema = match (&tag, &content) {
            _ if untagged => payload(v).unwrap_or_else(|| quote!(__p::null_schema())),
            // The `other` variant: any tag (with no content, or a null one).
            (Some(tag), content) if v.other.is_some() => {
                let content = content
                    .as_ref()
                    .map(|c| quote!(__o.member(#c, __p::null_schema(), false, "");));
                quote!({
                    let mut __o = __p::ObjectSchema::new();
                    __o.member(#tag, __p::any_string_schema(), true, "");
                    #content
                    __o.finish("")
                })
            }
            (Some(tag), Some(content)) => {
                let p = match payload(v) {
                    Some(p) => quote!(__p::Some(#p)),
                    None => quote!(__p::None),
                };
                quote!(__p::adjacent_schema(#tag, #content, #name, #p))
            }
            (Some(tag), None) => match v.shape.style {
                Style::Named => object(&v.shape, false, Some((tag.as_str(), name.as_str())), ""),
                Style::Unit => {
                    let empty = Shape {
                        style: Style::Named,
                        fields: Vec::new(),
                    };
                    object(&empty, false, Some((tag.as_str(), name.as_str())), "")
                }
                Style::Tuple => {
                    // A newtype wrapping a struct: its members sit beside the tag.
                    let s = v
                        .shape
                        .active()
                        .next()
                        .map(field_schema)
                        .unwrap_or_else(|| quote!(__p::any_schema()));
                    quote!({
                        let mut __o = __p::ObjectSchema::new();
                        __o.member(#tag, __p::constant_schema(#name), true, "");
                        let __s = #s;
                        __o.flatten(__g, &__s);
                        __o.finish("")
                    })
                }
            },
            _ => {
                let p = match payload(v) {
                    Some(p) => quote!(__p::Some(#p)),
                    None => quote!(__p::None),
                };
                quote!(__p::external_schema(#name, #p))
            }
        };
        quote!(__p::describe(#schema, #d))
    });
    // With an `other` variant a known tag matches two variants' schemas.
    let combine = if untagged || other {
        quote!(__p::any_of_schema)
    } else {
        quote!(__p::one_of_schema)
    };
    quote!(__p::describe(#combine([#(#each),*]), #doc))
}

/// The text of the `#[doc = "..."]` attributes (doc comments): lines joined with `\n`, one
/// leading space of each line and surrounding blank lines removed.
pub fn doc_text(attrs: &[Attribute]) -> String {
    let mut lines = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        let syn::Meta::NameValue(nv) = &attr.meta else {
            continue;
        };
        let mut expr = &nv.value;
        while let Expr::Group(g) = expr {
            expr = &g.expr;
        }
        if let Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) = expr
        {
            let text = s.value();
            for line in text.lines() {
                lines.push(
                    line.strip_prefix(' ')
                        .unwrap_or(line)
                        .trim_end()
                        .to_string(),
                );
            }
        }
    }
    lines.join("\n").trim().to_string()
}
