//! Enums: unit-only enums (a name in JSON, an integer in BEVE, usable as map keys) and enums
//! with data in the four representations: externally tagged (default), internally tagged
//! (`tag`), adjacently tagged (`tag` + `content`) and untagged.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{DataEnum, DeriveInput, LitStr, Meta, Token};

use crate::attr::ContainerAttrs;
use crate::bounds::{self, Need};
use crate::keys::{self, Entry};
use crate::model::{self, Style, Variant};
use crate::slot::{slots, Slot};
use crate::structs::{self, Lead};
use crate::{tuple, untagged_shape};
use structio_keys::shape;

/// How an enum with data is laid out.
enum Repr<'a> {
    External,
    Internal {
        tag: &'a LitStr,
    },
    Adjacent {
        tag: &'a LitStr,
        content: &'a LitStr,
    },
    Untagged,
}

/// `impl Reflect` for an enum.
pub fn expand(
    input: &DeriveInput,
    attrs: &ContainerAttrs,
    data: &DataEnum,
) -> syn::Result<TokenStream> {
    let repr = representation(attrs)?;
    let variants = model::variants(data, attrs.rename_all)?;
    // `Reflect::default_value`: the unit variant marked `#[default]` (std's `Default` derive).
    let default = match data
        .variants
        .iter()
        .find(|v| v.attrs.iter().any(|a| a.path().is_ident("default")))
        .filter(|v| v.fields.is_empty())
    {
        Some(v) => {
            let ident = &v.ident;
            DefaultValue {
                value: quote!(__p::Some(Self::#ident)),
                always: quote!(true),
            }
        }
        None => DefaultValue {
            value: quote!(__p::None),
            always: quote!(false),
        },
    };
    let other = other_variant(&variants, &repr)?;
    if let Some(span) = attrs.as_array {
        return Err(syn::Error::new(
            span,
            "`as_array` applies to structs with named fields (a tuple variant is already an \
             array)",
        ));
    }
    if let Some(span) = attrs.as_integer {
        if !matches!(repr, Repr::External) {
            return Err(syn::Error::new(
                span,
                "`as_integer` writes a unit-only enum as its discriminant; it cannot go with \
                 `tag`, `content` or `untagged`",
            ));
        }
        if let Some(v) = variants.iter().find(|v| v.shape.style != Style::Unit) {
            return Err(syn::Error::new(
                v.ident.span(),
                format!(
                    "`as_integer` applies to unit-only enums (written as their discriminant); \
                     variant `{}` has fields",
                    v.ident
                ),
            ));
        }
    }
    if let Repr::External = repr {
        if variants.iter().all(|v| v.shape.style == Style::Unit) {
            return unit_only(input, attrs, &variants, default, other);
        }
        if let Some(i) = other {
            return Err(syn::Error::new(
                variants[i]
                    .other
                    .unwrap_or_else(proc_macro2::Span::call_site),
                "`other` on an externally tagged enum with data would leave an unknown \
                 variant's payload unread: use it on a unit-only enum, or tag the enum \
                 (`tag = \"..\"`, with or without `content`)",
            ));
        }
    }
    with_data(input, attrs, &variants, &repr, default, other)
}

/// The index of the variant marked `#[structio(other)]`, checked: at most one, a unit
/// variant, and not in an untagged enum (which has no variant names).
fn other_variant(variants: &[Variant], repr: &Repr) -> syn::Result<Option<usize>> {
    let mut found = None;
    for (i, v) in variants.iter().enumerate() {
        let Some(span) = v.other else { continue };
        if found.is_some() {
            return Err(syn::Error::new(
                span,
                "only one variant can be `other`: an unknown name reads as that one",
            ));
        }
        if v.shape.style != Style::Unit {
            return Err(syn::Error::new(
                span,
                "`other` applies to a unit variant: an unknown variant has no payload to read \
                 into it",
            ));
        }
        if let Repr::Untagged = repr {
            return Err(syn::Error::new(
                span,
                "`other` needs variant names, which an untagged enum does not write",
            ));
        }
        found = Some(i);
    }
    Ok(found)
}

/// Checks the combination of `tag`, `content` and `untagged`.
fn representation(attrs: &ContainerAttrs) -> syn::Result<Repr<'_>> {
    match (&attrs.tag, &attrs.content, attrs.untagged) {
        (Some(_), _, Some(span)) | (_, Some(_), Some(span)) => Err(syn::Error::new(
            span,
            "`untagged` cannot be combined with `tag` or `content`",
        )),
        (None, Some(content), None) => Err(syn::Error::new(
            content.span(),
            "`content` needs `tag`: an adjacently tagged enum is \
             `#[structio(tag = \"t\", content = \"c\")]`",
        )),
        (Some(tag), Some(content), None) if tag.value() == content.value() => Err(syn::Error::new(
            content.span(),
            "`tag` and `content` must be different keys",
        )),
        (Some(tag), Some(content), None) => Ok(Repr::Adjacent { tag, content }),
        (Some(tag), None, None) => Ok(Repr::Internal { tag }),
        (None, None, Some(_)) => Ok(Repr::Untagged),
        (None, None, None) => Ok(Repr::External),
    }
}

/// The integer type BEVE writes a unit-only enum as: its `#[repr]`, or `i32`; as a `NumKind`
/// and as the Rust type its discriminant is written as (`isize`/`usize` as 64 bits).
pub fn repr_kind(input: &DeriveInput) -> syn::Result<(TokenStream, TokenStream)> {
    let mut kind = (quote!(I32), quote!(i32));
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let items =
            attr.parse_args_with(syn::punctuated::Punctuated::<Meta, Token![,]>::parse_terminated)?;
        for item in items {
            let Meta::Path(path) = item else { continue };
            let Some(ident) = path.get_ident() else {
                continue;
            };
            kind = match ident.to_string().as_str() {
                "i8" => (quote!(I8), quote!(i8)),
                "i16" => (quote!(I16), quote!(i16)),
                "i32" => (quote!(I32), quote!(i32)),
                "i64" | "isize" => (quote!(I64), quote!(i64)),
                "i128" => (quote!(I128), quote!(i128)),
                "u8" => (quote!(U8), quote!(u8)),
                "u16" => (quote!(U16), quote!(u16)),
                "u32" => (quote!(U32), quote!(u32)),
                "u64" | "usize" => (quote!(U64), quote!(u64)),
                "u128" => (quote!(U128), quote!(u128)),
                _ => continue,
            };
        }
    }
    let (kind, ty) = kind;
    Ok((quote!(__p::NumKind::#kind), ty))
}

/// Key entries for variant names.
fn entries(variants: &[Variant]) -> Vec<Entry<'_>> {
    variants
        .iter()
        .map(|v| Entry {
            label: v.ident.to_string(),
            name: &v.name,
            name_span: v.name_span,
            aliases: &v.aliases,
            optional: false,
        })
        .collect()
}

/// A unit-only enum: `EnumInfo`, `Reflect` and `MapKey`; `default` is the body of
/// `default_value`.
fn unit_only(
    input: &DeriveInput,
    attrs: &ContainerAttrs,
    variants: &[Variant],
    default: DefaultValue,
    other: Option<usize>,
) -> syn::Result<TokenStream> {
    let table = keys::table(&entries(variants), "variant")?;
    let name = &input.ident;
    let type_name = name.to_string();
    let (repr, repr_ty) = repr_kind(input)?;
    let as_integer = attrs.as_integer.is_some();
    let all_keys = &table.keys;
    let probe = keys::probe(all_keys);
    let idents: Vec<_> = variants.iter().map(|v| &v.ident).collect();
    let key_idents = table.key_entry.iter().map(|&e| &variants[e as usize].ident);
    let names = &table.names;
    let from_index = table.key_entry.iter().enumerate().map(|(k, &e)| {
        let ident = &variants[e as usize].ident;
        quote!(#k => Self::#ident,)
    });
    let from_index: Vec<TokenStream> = from_index.collect();
    let b = bounds::build(&input.generics, Some(&[]), None, Vec::new());
    let (impl_g, ty_g, where_c, de) = (&b.impl_generics, &b.ty_generics, &b.where_clause, &b.de);

    let (write, write_key) = if variants.is_empty() {
        (quote!(match *self {}), quote!(match *self {}))
    } else {
        (
            quote! {
                match self {
                    #( Self::#idents => __w.unit_variant(#names, Self::#idents as i128, __INFO.repr), )*
                }
            },
            quote! {
                match self {
                    #( Self::#idents => __w.enum_key(#names, Self::#idents as i128, __INFO.repr), )*
                }
            },
        )
    };
    // `as_integer`: the discriminant, a number of the `repr` type, in both formats (the bytes
    // BEVE writes for a unit variant anyway); as a key, an integer key (`"3"` in JSON).
    let (write, write_key) = if as_integer && !variants.is_empty() {
        (
            quote! {
                match self {
                    #( Self::#idents => __w.number(Self::#idents as #repr_ty), )*
                }
            },
            quote! {
                match self {
                    #( Self::#idents => __w.int_key(Self::#idents as #repr_ty), )*
                }
            },
        )
    } else {
        (write, write_key)
    };
    let read_variant = if as_integer {
        quote!(__p::read_enum_integer(__r, &__INFO))
    } else {
        quote!(__r.read_unit_variant(&__INFO))
    };
    let variant_from_key = if as_integer {
        quote!(__p::variant_from_int_key)
    } else {
        quote!(__p::variant_from_key)
    };
    let w = if variants.is_empty() {
        quote!(_)
    } else {
        quote!(__w)
    };
    let read_new = if variants.is_empty() {
        quote! {
            let __at = __r.offset();
            #read_variant?;
            __p::Err(__p::no_matching_variant(__at))
        }
    } else if let Some(o) = other {
        // An unknown name (or BEVE discriminant) is the `other` variant.
        let o = &variants[o].ident;
        quote! {
            let __at = __r.offset();
            __p::Ok(match #read_variant {
                __p::Ok(__k) => match __k {
                    #(#from_index)*
                    _ => return __p::Err(__p::no_matching_variant(__at)),
                },
                __p::Err(__e) if __p::is_unknown_variant(&__e) => Self::#o,
                __p::Err(__e) => return __p::Err(__e),
            })
        }
    } else {
        quote! {
            let __at = __r.offset();
            __p::Ok(match #read_variant? {
                #(#from_index)*
                _ => return __p::Err(__p::no_matching_variant(__at)),
            })
        }
    };
    // Names compared in a canonical attempt: not for an enum written as integers.
    let read_new_canonical = if as_integer {
        TokenStream::new()
    } else {
        canonical_literals(variants, &table.names, de)
    };
    let methods = crate::convert::methods(
        attrs,
        de,
        crate::convert::Methods {
            write: if variants.is_empty() {
                quote!(let _ = __w; #write)
            } else {
                write.clone()
            },
            read: quote! {
                *self = <Self as __p::Reflect<#de>>::read_new(__r)?;
                __p::Ok(())
            },
            read_new,
            default_value: default.value,
            has_default_value: default.always,
            extra: TokenStream::new(),
            read_new_canonical,
            inline: true,
            inline_read_new: false,
        },
    );
    let from_key = if variants.is_empty() {
        quote! {
            fn from_key(_: __p::Key<#de, '_>, __offset: usize) -> __p::Result<Self> {
                __p::Err(__p::no_matching_variant(__offset))
            }
        }
    } else if let Some(o) = other {
        let o = &variants[o].ident;
        quote! {
            fn from_key(__key: __p::Key<#de, '_>, __offset: usize) -> __p::Result<Self> {
                __p::Ok(match #variant_from_key(&__INFO, __key, __offset) {
                    __p::Ok(__k) => match __k {
                        #(#from_index)*
                        _ => return __p::Err(__p::no_matching_variant(__offset)),
                    },
                    __p::Err(__e) if __p::is_unknown_variant(&__e) => Self::#o,
                    __p::Err(__e) => return __p::Err(__e),
                })
            }
        }
    } else {
        quote! {
            fn from_key(__key: __p::Key<#de, '_>, __offset: usize) -> __p::Result<Self> {
                __p::Ok(match #variant_from_key(&__INFO, __key, __offset)? {
                    #(#from_index)*
                    _ => return __p::Err(__p::no_matching_variant(__offset)),
                })
            }
        }
    };
    Ok(quote! {
        const __INFO: __p::EnumInfo = __p::EnumInfo {
            name: #type_name,
            names: &[#(#all_keys),*],
            probe: #probe,
            discriminants: &[#( #name::#key_idents as i128 ),*],
            repr: #repr,
        };

        #[automatically_derived]
        impl #impl_g __p::Reflect<#de> for #name #ty_g #where_c {
            #methods
        }

        #[automatically_derived]
        impl #impl_g __p::MapKey<#de> for #name #ty_g #where_c {
            const KIND: __p::KeyKind = __p::KeyKind::Int(__INFO.repr);
            #[inline]
            fn write_key<__W: __p::Writer>(&self, #w: &mut __W) {
                #write_key
            }
            #[inline]
            #from_key
        }
    })
}

/// The most variants a unit-only enum may have for its canonical read to compare them all:
/// enough for the tags of a protocol (a version, a method, a kind), few enough that a value
/// none of them matches costs a bounded number of comparisons before the attempt ends.
const CANONICAL_LITERALS: usize = 8;

/// `read_new_canonical` for a unit-only enum of at most [`CANONICAL_LITERALS`] variants, all
/// named without characters JSON escapes: inside a canonical attempt (a reader with a
/// canonical layout) each name, quoted, is compared with the input (`Reader::take_exact`) and
/// the first that matches is the value: no string scan and no lookup, and the position moves
/// by a length known for that variant. Anything else (an alias, an escaped name, a value of
/// the wrong type) ends the attempt (`None`), and the ordinary reader reads it. Nothing for
/// other enums, which the provided method reads by `read_new`.
fn canonical_literals(variants: &[Variant], names: &[String], de: &syn::Lifetime) -> TokenStream {
    if variants.is_empty()
        || variants.len() > CANONICAL_LITERALS
        || !names.iter().all(|n| structio_keys::is_plain(n.as_bytes()))
    {
        return TokenStream::new();
    }
    let tries = variants.iter().zip(names).map(|(v, name)| {
        let ident = &v.ident;
        let text = syn::LitByteStr::new(format!("\"{name}\"").as_bytes(), v.ident.span());
        quote! {
            if __p::Reader::take_exact(__r, #text) {
                return __p::Ok(__p::Some(Self::#ident));
            }
        }
    });
    crate::convert::read_new_canonical(
        de,
        quote! {
            #(#tries)*
            __p::Ok(__p::None)
        },
    )
}

/// Names of the bindings of a variant's active fields: `__f0, __f1, ...`.
fn bindings(v: &Variant) -> Vec<Slot> {
    let active: Vec<&model::Field> = v.shape.active().collect();
    slots(&active, |j, _| {
        let id = format_ident!("__f{}", j);
        quote!(#id)
    })
}

/// The pattern binding a variant's active fields to `__f0, ...`.
fn pattern(v: &Variant) -> TokenStream {
    let ident = &v.ident;
    let mut j = 0usize;
    match v.shape.style {
        Style::Unit => quote!(Self::#ident),
        Style::Tuple => {
            let parts = v.shape.fields.iter().map(|f| {
                if f.skip {
                    quote!(_)
                } else {
                    let id = format_ident!("__f{}", j);
                    j += 1;
                    quote!(#id)
                }
            });
            let parts: Vec<_> = parts.collect();
            quote!(Self::#ident( #(#parts),* ))
        }
        Style::Named => {
            let mut parts = Vec::new();
            let mut rest = false;
            for f in &v.shape.fields {
                if f.skip {
                    rest = true;
                } else {
                    let m = &f.member;
                    let id = format_ident!("__f{}", j);
                    j += 1;
                    parts.push(quote!(#m: #id));
                }
            }
            let rest = if rest { quote!(..) } else { quote!() };
            let comma = if rest.is_empty() || parts.is_empty() {
                quote!()
            } else {
                quote!(,)
            };
            quote!(Self::#ident { #(#parts),* #comma #rest })
        }
    }
}

/// A new value of variant `i` read from `__r`: a `Result<Self>` expression. For an internally
/// tagged enum (`tag`), the payload's members are read from the object `__map`; the payload
/// of a newtype variant then starts from its type's `Reflect::default_value`, and its
/// container rules run once its members are read (reporting at the object's start,
/// `__start`), as its own `read` would run them.
fn build(i: usize, v: &Variant, tag: Option<&LitStr>) -> TokenStream {
    let ident = &v.ident;
    let values = bindings(v);
    let local = |j: usize| format_ident!("__s{}", j);
    let built = structs::construct(&values, &v.shape, |j, _| {
        let s = local(j);
        quote!(#s)
    });
    match (v.shape.style, tag) {
        (Style::Unit, _) => quote!(__p::Ok(Self::#ident)),
        (Style::Tuple, Some(tag)) => {
            let ty = &values[0].ty;
            let type_name = quote!(#ty).to_string();
            quote!({
                match <#ty as __p::Reflect<'_>>::default_value() {
                    __p::Some(mut __s0) => {
                        __p::read_members_in(__r, __map, __start, &mut __s0, __p::Some(#tag))?;
                        __p::Ok(Self::#ident #built)
                    }
                    __p::None => __p::Err(__p::no_default_value(#type_name, __r.offset())),
                }
            })
        }
        (Style::Tuple, None) if v.is_newtype() => {
            let read = values[0].read_new();
            quote!({
                let __s0 = #read?;
                __p::Ok(Self::#ident #built)
            })
        }
        (Style::Tuple, None) => {
            let read = tuple::read_array_new(&values);
            quote!({
                #read
                __p::Ok(Self::#ident #built)
            })
        }
        (Style::Named, _) => {
            let info = fields_const(i);
            let read = match tag {
                Some(tag) => {
                    quote!(__p::read_fields_in(__r, __map, &#info, __p::Some(#tag), __read))
                }
                None => quote!(__p::read_fields(__r, &#info, __p::None, __read)),
            };
            let body = structs::build_with(&values, &v.shape, quote!(Self::#ident), read);
            quote!({ #body })
        }
    }
}

/// The const holding the key table of struct variant `i`.
fn fields_const(i: usize) -> syn::Ident {
    format_ident!("__V{}", i)
}

/// Writes the payload of a variant from its bindings: the value of a newtype, an array for a
/// tuple variant, an object for a struct variant.
fn write_payload(v: &Variant) -> TokenStream {
    let values = bindings(v);
    match v.shape.style {
        Style::Unit => quote!(__w.null();),
        Style::Tuple if v.is_newtype() => {
            let write = values[0].write();
            quote!(#write;)
        }
        Style::Tuple => tuple::write_array(&values),
        Style::Named => {
            let names: Vec<String> = v.shape.active().map(|f| f.name.clone()).collect();
            let presence = structs::presence(&values);
            let count = structs::count(values.len(), 0);
            let members = structs::members(&names, &values, Lead::Static(false));
            quote! {
                #presence
                __w.begin_struct(#count);
                #members
                __w.end_object();
            }
        }
    }
}

/// Reads variant `i` (of an enum with data) from `__r`: into `self` (`Result<()>`), reusing
/// the payload when `self` already is that variant and building a new one otherwise; with
/// `fresh`, into the local `__out` (`read_new`). For an internally tagged enum (`tag`) the
/// payload's members come from the object `__map`.
fn read_variant(i: usize, v: &Variant, tag: Option<&LitStr>, fresh: bool) -> TokenStream {
    let build = build(i, v, tag);
    if fresh {
        return quote!({
            __out = __p::Some(#build?);
            __p::Ok(())
        });
    }
    let ident = &v.ident;
    let reuse = match (v.shape.style, tag) {
        (Style::Unit, _) => {
            return quote!({
                *self = Self::#ident;
                __p::Ok(())
            })
        }
        (Style::Tuple, Some(tag)) => {
            quote!(__p::read_members_in(__r, __map, __start, __f0, __p::Some(#tag)))
        }
        (Style::Tuple, None) if v.is_newtype() => bindings(v)[0].read(),
        (Style::Tuple, None) => tuple::read_array(&bindings(v)),
        (Style::Named, _) => {
            let info = fields_const(i);
            let read = struct_read_closure(v);
            match tag {
                Some(tag) => {
                    quote!(__p::read_fields_in(__r, __map, &#info, __p::Some(#tag), #read))
                }
                None => quote!(__p::read_fields(__r, &#info, __p::None, #read)),
            }
        }
    };
    let pat = pattern(v);
    quote! {
        match self {
            #pat => #reuse,
            _ => {
                *self = #build?;
                __p::Ok(())
            }
        }
    }
}

/// `|__j, __r| match __j { ... }` reading the fields of a struct variant from its bindings.
fn struct_read_closure(v: &Variant) -> TokenStream {
    let values = bindings(v);
    if values.is_empty() {
        quote!(|_, _| __p::Ok(()))
    } else {
        let m = structs::member_match(&format_ident!("__j"), &values);
        quote!(|__j, __r| #m)
    }
}

/// The bodies of an enum's `default_value` and `HAS_DEFAULT_VALUE`.
struct DefaultValue {
    value: TokenStream,
    always: TokenStream,
}

/// An enum with data.
fn with_data(
    input: &DeriveInput,
    attrs: &ContainerAttrs,
    variants: &[Variant],
    repr: &Repr,
    default: DefaultValue,
    other: Option<usize>,
) -> syn::Result<TokenStream> {
    check_variants(variants, repr)?;
    let mut uses = Vec::new();
    for v in variants {
        for f in &v.shape.fields {
            uses.push((
                &f.ty,
                Need {
                    reflect: !f.skip && f.with.is_none() && !f.serde,
                    default: f.skip,
                },
            ));
        }
    }
    // A newtype variant of an internally tagged enum needs member access to its inner struct.
    // Asked for once, on the impl and at the inner type, it gives one error there if missing.
    // The bound keeps the impl's body free of errors; a check at the type reports a missing
    // impl right away (for a type that does not depend on the generics, which it cannot name).
    let mut extra = Vec::new();
    let mut checks = TokenStream::new();
    if let Repr::Internal { .. } = repr {
        for v in variants.iter().filter(|v| v.is_newtype()) {
            if let Some(f) = v.shape.active().next() {
                let (pred, check) = bounds::needs_fields(&f.ty, &input.generics);
                extra.push(pred);
                checks.extend(check);
            }
        }
    }
    let b = bounds::build(&input.generics, Some(&uses), attrs.bound.as_deref(), extra);
    let (impl_g, ty_g, where_c, de) = (&b.impl_generics, &b.ty_generics, &b.where_clause, &b.de);
    let name = &input.ident;

    // Tables: variant names (not for untagged enums) and the fields of struct variants.
    let mut consts = TokenStream::new();
    if !matches!(repr, Repr::Untagged) && !variants.is_empty() {
        let table = keys::table(&entries(variants), "variant")?;
        let info = table.fields_info();
        let unit = variants.iter().map(|v| v.shape.style == Style::Unit);
        consts.extend(quote! {
            const __VARIANTS: __p::VariantsInfo = __p::VariantsInfo {
                keys: #info,
                unit: &[#(#unit),*],
            };
        });
    }
    for (i, v) in variants.iter().enumerate() {
        if v.shape.style == Style::Named {
            let active: Vec<_> = v.shape.active().collect();
            let info = keys::table(&structs::entries(&active, false), "field")?.fields_info();
            let c = fields_const(i);
            consts.extend(quote!(const #c: __p::FieldsInfo = #info;));
        }
    }

    let write_arms = variants.iter().map(|v| {
        let pat = pattern(v);
        let body = write_variant(v, repr);
        quote!(#pat => { #body })
    });
    let write_arms: Vec<_> = write_arms.collect();
    let write = if variants.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(#write_arms)* })
    };
    let (read, read_new) = if variants.is_empty() {
        let none = quote!(__p::Err(__p::no_matching_variant(__r.offset())));
        (none.clone(), none)
    } else {
        let read_new = read_variants(variants, repr, true, other);
        (
            read_variants(variants, repr, false, other),
            quote! {
                let mut __out: __p::Option<Self> = __p::None;
                #read_new?;
                __out.ok_or_else(|| __p::no_matching_variant(__r.offset()))
            },
        )
    };
    let methods = crate::convert::methods(
        attrs,
        de,
        crate::convert::Methods {
            write: if variants.is_empty() {
                quote!(let _ = __w; #write)
            } else {
                write
            },
            read,
            read_new,
            default_value: default.value,
            has_default_value: default.always,
            extra: TokenStream::new(),
            read_new_canonical: TokenStream::new(),
            inline: false,
            inline_read_new: false,
        },
    );

    Ok(quote! {
        #consts
        #checks

        #[automatically_derived]
        impl #impl_g __p::Reflect<#de> for #name #ty_g #where_c {
            #methods
        }
    })
}

/// Rejects variants a representation cannot hold, and struct-variant fields that clash with
/// the tag.
fn check_variants(variants: &[Variant], repr: &Repr) -> syn::Result<()> {
    let Repr::Internal { tag } = repr else {
        return Ok(());
    };
    for v in variants {
        match v.shape.style {
            Style::Tuple if !v.is_newtype() => {
                return Err(syn::Error::new(
                    v.ident.span(),
                    "an internally tagged enum (`tag` without `content`) cannot hold a tuple \
                     variant: its members sit next to the tag in one object; use a struct \
                     variant, a newtype variant wrapping a struct, or add `content`",
                ));
            }
            Style::Tuple => {
                if let Some(with) = v.shape.active().find_map(|f| f.with.as_ref()) {
                    return Err(syn::Error::new(
                        with.span(),
                        "the payload of a newtype variant of an internally tagged enum is a \
                         struct whose members sit next to the tag, so it cannot go through a \
                         `with` module; wrap it in a struct, or add `content`",
                    ));
                }
            }
            Style::Named => {
                if let Some(f) = v.shape.active().find(|f| {
                    f.name == tag.value() || f.aliases.iter().any(|(a, _)| *a == tag.value())
                }) {
                    return Err(syn::Error::new(
                        f.name_span,
                        format!(
                            "field key `{}` clashes with the tag `{}` of the enum",
                            tag.value(),
                            tag.value()
                        ),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The body of the write arm of one variant.
fn write_variant(v: &Variant, repr: &Repr) -> TokenStream {
    let name = &v.name;
    let unit = v.shape.style == Style::Unit;
    match repr {
        Repr::External if unit => quote!(__w.str(#name);),
        Repr::External => {
            let payload = write_payload(v);
            quote! {
                __w.begin_object(1);
                __w.key(#name);
                #payload
                __w.end_object();
            }
        }
        Repr::Internal { tag } => match v.shape.style {
            Style::Unit => quote! {
                __w.begin_object(1);
                __w.key(#tag);
                __w.str(#name);
                __w.end_object();
            },
            Style::Tuple => quote! {
                __w.begin_object(1 + __p::Fields::count_members(__f0, __w));
                __w.key(#tag);
                __w.str(#name);
                __p::Fields::write_members(__f0, __w, true);
                __w.end_object();
            },
            Style::Named => {
                let values = bindings(v);
                let names: Vec<String> = v.shape.active().map(|f| f.name.clone()).collect();
                let presence = structs::presence(&values);
                let count = structs::count(values.len(), 1);
                let members = structs::members(&names, &values, Lead::Static(true));
                quote! {
                    #presence
                    __w.begin_struct(#count);
                    __w.key(#tag);
                    __w.str(#name);
                    #members
                    __w.end_object();
                }
            }
        },
        Repr::Adjacent { tag, .. } if unit => quote! {
            __w.begin_object(1);
            __w.key(#tag);
            __w.str(#name);
            __w.end_object();
        },
        Repr::Adjacent { tag, content } => {
            let payload = write_payload(v);
            quote! {
                __w.begin_object(2);
                __w.key(#tag);
                __w.str(#name);
                __w.sep();
                __w.key(#content);
                #payload
                __w.end_object();
            }
        }
        Repr::Untagged => write_payload(v),
    }
}

/// The body of `read` for an enum with data, or with `fresh` the read that fills `__out` for
/// `read_new` (see [`read_variant`]).
fn read_variants(
    variants: &[Variant],
    repr: &Repr,
    fresh: bool,
    other: Option<usize>,
) -> TokenStream {
    let has_unit = variants.iter().any(|v| v.shape.style == Style::Unit);
    let present = if has_unit {
        quote!(__present)
    } else {
        quote!(_)
    };
    match repr {
        Repr::External | Repr::Adjacent { .. } => {
            let arms = variants.iter().enumerate().map(|(i, v)| {
                let read = read_variant(i, v, None, fresh);
                if v.shape.style == Style::Unit {
                    quote!(#i => {
                        if __present {
                            __p::read_null(__r)?;
                        }
                        #read
                    })
                } else {
                    quote!(#i => #read,)
                }
            });
            let closure = quote! {
                |__i, __r, #present| match __i {
                    #(#arms)*
                    _ => __p::Ok(()),
                }
            };
            match repr {
                Repr::Adjacent { tag, content } => match other {
                    None => quote!(__p::read_adjacent(__r, &__VARIANTS, #tag, #content, #closure)),
                    Some(o) => quote!(__p::read_adjacent_or(
                        __r, &__VARIANTS, #tag, #content, #o, #closure
                    )),
                },
                _ => quote!(__p::read_external(__r, &__VARIANTS, #closure)),
            }
        }
        Repr::Internal { tag } => {
            let arms = variants.iter().enumerate().map(|(i, v)| match v.shape.style {
                Style::Unit => {
                    let read = read_variant(i, v, Some(tag), fresh);
                    quote!(#i => {
                        __p::read_fields_in(__r, __map, &__p::NO_FIELDS, __p::Some(#tag), |_, _| __p::Ok(()))?;
                        #read
                    })
                }
                _ => {
                    let read = read_variant(i, v, Some(tag), fresh);
                    quote!(#i => #read,)
                }
            });
            // Where the object starts: the container rules of a newtype variant's payload
            // report there.
            let start = if variants.iter().any(|v| v.shape.style == Style::Tuple) {
                quote!(__start)
            } else {
                quote!(_)
            };
            let (f, o) = match other {
                None => (quote!(read_internal), TokenStream::new()),
                Some(o) => (quote!(read_internal_or), quote!(#o,)),
            };
            quote! {
                __p::#f(__r, &__VARIANTS, #tag, #o |__i, __r, __map, #start| match __i {
                    #(#arms)*
                    _ => __p::Ok(()),
                })
            }
        }
        Repr::Untagged => {
            let shapes = variants.iter().map(|v| match v.shape.style {
                Style::Unit => shape::NULL,
                Style::Tuple if v.is_newtype() => v
                    .shape
                    .active()
                    .next()
                    // A `with` module (or serde) may write any kind of value, whatever the type.
                    .map_or(shape::ANY, |f| match f.with {
                        Some(_) => shape::ANY,
                        None if f.serde => shape::ANY,
                        None => untagged_shape::of_type(&f.ty),
                    }),
                Style::Tuple => shape::ARRAY,
                Style::Named => shape::OBJECT,
            });
            let arms = variants.iter().enumerate().map(|(i, v)| {
                let read = read_variant(i, v, None, fresh);
                if v.shape.style == Style::Unit {
                    quote!(#i => {
                        __p::read_null(__r)?;
                        #read
                    })
                } else {
                    quote!(#i => #read,)
                }
            });
            quote! {
                __p::read_untagged(__r, &[#(#shapes),*], |__i, __r| match __i {
                    #(#arms)*
                    _ => __p::Ok(()),
                })
            }
        }
    }
}
