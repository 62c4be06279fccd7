//! Tuple structs (a newtype is its inner value; others are arrays) and unit structs (null),
//! and the array code tuple variants share.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::attr::ContainerAttrs;
use crate::bounds;
use crate::model::{Field, Shape, Style};
use crate::slot::{member_slots, Slot};

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

/// `impl Reflect` for a tuple or unit struct.
pub fn expand(input: &DeriveInput, attrs: &ContainerAttrs, shape: &Shape) -> TokenStream {
    let active: Vec<&Field> = shape.active().collect();
    let b = bounds::for_fields(&input.generics, &active, attrs.bound.as_deref(), Vec::new());
    let (impl_g, ty_g, where_c, de) = (&b.impl_generics, &b.ty_generics, &b.where_clause, &b.de);
    let name = &input.ident;

    let body = if shape.style == Style::Unit {
        quote! {
            fn write<__W: __p::Writer>(&self, __w: &mut __W) {
                __w.null();
            }
            fn read<__R: __p::Reader<#de>>(&mut self, __r: &mut __R) -> __p::Result<()> {
                __p::read_null(__r)
            }
        }
    } else if let [only] = active[..] {
        let m = &only.member;
        let ty = &only.ty;
        let may_be_absent = match only.with {
            Some(_) => quote!(false),
            None => quote!(<#ty as __p::Reflect<#de>>::MAY_BE_ABSENT),
        };
        let write = Slot::of(only, quote!(&self.#m)).write();
        let read = Slot::of(only, quote!(&mut self.#m)).read();
        let absent = Slot::of(only, quote!(&self.#m)).absent();
        quote! {
            const MAY_BE_ABSENT: bool = #may_be_absent;
            #[inline]
            fn write<__W: __p::Writer>(&self, __w: &mut __W) {
                #write
            }
            #[inline]
            fn read<__R: __p::Reader<#de>>(&mut self, __r: &mut __R) -> __p::Result<()> {
                #read
            }
            #[inline]
            fn is_absent(&self) -> bool {
                #absent
            }
        }
    } else {
        let (refs, muts) = member_slots(&active);
        let write = write_array(&refs);
        let read = read_array(&muts);
        quote! {
            fn write<__W: __p::Writer>(&self, __w: &mut __W) {
                #write
            }
            fn read<__R: __p::Reader<#de>>(&mut self, __r: &mut __R) -> __p::Result<()> {
                #read
            }
        }
    };
    quote! {
        #[automatically_derived]
        impl #impl_g __p::Reflect<#de> for #name #ty_g #where_c {
            #body
        }
    }
}
