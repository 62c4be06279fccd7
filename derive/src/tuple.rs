//! Tuple structs (a newtype is its inner value; others are arrays) and unit structs (null),
//! and the array code tuple variants share.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::attr::ContainerAttrs;
use crate::bounds;
use crate::convert::{self, Methods};
use crate::model::{Field, Shape, Style};
use crate::slot::{member_slots, Slot};
use crate::structs;

/// Writes `values` (references) as one array.
pub fn write_array(values: &[Slot]) -> TokenStream {
    let n = values.len();
    let elems = values.iter().enumerate().map(|(j, v)| {
        let sep = if j > 0 { quote!(__w.sep();) } else { quote!() };
        let write = v.write();
        quote! {
            #sep
            #write;
        }
    });
    quote! {
        __w.begin_array(#n);
        #(#elems)*
        __w.end_array();
    }
}

/// Reads an array of exactly `values.len()` elements into `values` (`&mut` references or
/// bindings); an expression of type `Result<()>` that uses `?`.
pub fn read_array(values: &[Slot]) -> TokenStream {
    let n = values.len();
    let elems = values.iter().enumerate().map(|(j, v)| {
        let read = v.read();
        quote! {
            __p::expect_element(__r, &mut __seq, #j, #n)?;
            #read.map_err(|__e| __e.push_path(__p::PathSegment::Index(#j)))?;
        }
    });
    quote! {
        {
            let mut __seq = __r.begin_array()?;
            #(#elems)*
            __p::expect_end(__r, &mut __seq, #n)
        }
    }
}

/// Reads an array of exactly `values.len()` elements, each a new value, into the locals
/// `__s0, ...`; statements that use `?`.
pub fn read_array_new(values: &[Slot]) -> TokenStream {
    let n = values.len();
    let elems = values.iter().enumerate().map(|(j, v)| {
        let s = quote::format_ident!("__s{}", j);
        let read = v.read_new();
        quote! {
            __p::expect_element(__r, &mut __seq, #j, #n)?;
            let #s = #read.map_err(|__e| __e.push_path(__p::PathSegment::Index(#j)))?;
        }
    });
    quote! {
        let mut __seq = __r.begin_array()?;
        #(#elems)*
        __p::expect_end(__r, &mut __seq, #n)?;
    }
}

/// `impl Reflect` for a tuple or unit struct.
pub fn expand(input: &DeriveInput, attrs: &ContainerAttrs, shape: &Shape) -> TokenStream {
    let active: Vec<&Field> = shape.active().collect();
    let b = bounds::for_fields(&input.generics, &active, attrs.bound.as_deref(), Vec::new());
    let (impl_g, ty_g, where_c, de) = (&b.impl_generics, &b.ty_generics, &b.where_clause, &b.de);
    let name = &input.ident;
    let (refs, muts) = member_slots(&active, false);
    // `Self { 0: __s0, ... }` from the locals, skipped fields from `Default`.
    let built = structs::construct(&muts, shape, |j, _| {
        let s = quote::format_ident!("__s{}", j);
        quote!(#s)
    });
    let default_value = match structs::defaults(&muts, shape) {
        Some(fields) => quote!(__p::Some(Self #fields)),
        None => quote!(__p::None),
    };
    let has_default_value = structs::has_defaults(&muts, shape);

    let methods = if shape.style == Style::Unit {
        Methods {
            write: quote!(__w.null();),
            read: quote!(__p::read_null(__r)),
            read_new: quote! {
                __p::read_null(__r)?;
                __p::Ok(Self)
            },
            default_value: quote!(__p::Some(Self)),
            has_default_value: quote!(true),
            extra: TokenStream::new(),
            read_new_canonical: TokenStream::new(),
            inline: false,
            inline_read_new: false,
        }
    } else if let [only] = active[..] {
        let ty = &only.ty;
        let may_be_absent = match only.with {
            Some(_) => quote!(false),
            None if only.serde => quote!(false),
            None => quote!(<#ty as __p::Reflect<#de>>::MAY_BE_ABSENT),
        };
        let write = refs[0].write();
        let read = muts[0].read();
        let absent = refs[0].absent();
        let read_new = muts[0].read_new();
        Methods {
            write,
            read,
            read_new: quote! {
                let __s0 = #read_new?;
                __p::Ok(Self #built)
            },
            default_value: default_value.clone(),
            has_default_value: has_default_value.clone(),
            extra: quote! {
                const MAY_BE_ABSENT: bool = #may_be_absent;
                #[inline]
                fn is_absent(&self) -> bool {
                    #absent
                }
            },
            read_new_canonical: TokenStream::new(),
            inline: true,
            inline_read_new: false,
        }
    } else {
        let read_new = read_array_new(&muts);
        Methods {
            write: write_array(&refs),
            read: read_array(&muts),
            read_new: quote! {
                #read_new
                __p::Ok(Self #built)
            },
            default_value: default_value.clone(),
            has_default_value: has_default_value.clone(),
            extra: TokenStream::new(),
            read_new_canonical: TokenStream::new(),
            inline: false,
            inline_read_new: false,
        }
    };
    let methods = convert::methods(attrs, de, methods);
    quote! {
        #[automatically_derived]
        impl #impl_g __p::Reflect<#de> for #name #ty_g #where_c {
            #methods
        }
    }
}
