//! The methods of a `Reflect` impl, and the container conversions that replace them:
//! `#[structio(from = "T")]` and `try_from = "T"` (read as a `T`, then converted) and
//! `into = "T"` (written as the `T` a clone converts to), as serde's attributes of those names.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Lifetime;

use crate::attr::ContainerAttrs;

/// The bodies of the `Reflect` methods a shape generates, and the other items of its impl.
pub struct Methods {
    /// `write`, writing `self` to `__w`.
    pub write: TokenStream,
    /// `read`: a `Result<()>` body reading into `self` from `__r`.
    pub read: TokenStream,
    /// `read_new`: a `Result<Self>` body reading from `__r`.
    pub read_new: TokenStream,
    /// `default_value`: an `Option<Self>` body (may use `?` on options).
    pub default_value: TokenStream,
    /// `HAS_DEFAULT_VALUE`: a constant `bool` expression, `true` when `default_value` is
    /// always `Some`.
    pub has_default_value: TokenStream,
    /// Other items (`MAY_BE_ABSENT`, `is_absent`, ...), dropped when `into` replaces writing.
    pub extra: TokenStream,
    /// `read_new_canonical` when the shape has one of its own (else the trait's provided
    /// method), dropped when `from`/`try_from` replaces reading.
    pub read_new_canonical: TokenStream,
    /// Whether the methods are marked `#[inline]`.
    pub inline: bool,
    /// Whether `read_new` is marked `#[inline]` (when `inline` is not).
    pub inline_read_new: bool,
}

/// The items of the `Reflect` impl (`de` is its document lifetime): `m`, with reading replaced
/// by `from`/`try_from` and writing by `into` when the container asks for them.
pub fn methods(attrs: &ContainerAttrs, de: &Lifetime, m: Methods) -> TokenStream {
    let Methods {
        mut write,
        mut read,
        mut read_new,
        mut default_value,
        mut has_default_value,
        mut extra,
        mut read_new_canonical,
        inline,
        inline_read_new,
    } = m;
    let inline_new = if inline || inline_read_new {
        quote!(#[inline])
    } else {
        quote!()
    };
    let inline = if inline { quote!(#[inline]) } else { quote!() };
    if let Some(into) = &attrs.into {
        write = quote! {
            let __v: #into = __p::Into::into(__p::Clone::clone(self));
            __p::Reflect::write(&__v, __w)
        };
        extra = TokenStream::new();
    }
    if attrs.from.is_some() || attrs.try_from.is_some() {
        // Read as another type: the canonical read of this one does not apply.
        read_new_canonical = TokenStream::new();
    }
    if let Some(from) = &attrs.from {
        read = quote! {
            *self = <Self as __p::Reflect<#de>>::read_new(__r)?;
            __p::Ok(())
        };
        read_new = quote!(<#from as __p::Reflect<#de>>::read_new(__r).map(__p::From::from));
        default_value = quote!(<#from as __p::Reflect<#de>>::default_value().map(__p::From::from));
        has_default_value = quote!(<#from as __p::Reflect<#de>>::HAS_DEFAULT_VALUE);
    } else if let Some(from) = &attrs.try_from {
        read = quote! {
            *self = <Self as __p::Reflect<#de>>::read_new(__r)?;
            __p::Ok(())
        };
        read_new = quote! {
            let __at = __r.offset();
            let __v = <#from as __p::Reflect<#de>>::read_new(__r)?;
            <Self as __p::TryFrom<#from>>::try_from(__v)
                .map_err(|__e| __p::conversion_error(&__e, __at))
        };
        default_value = quote! {
            <Self as __p::TryFrom<#from>>::try_from(
                <#from as __p::Reflect<#de>>::default_value()?
            ).ok()
        };
        // The conversion may refuse the default value.
        has_default_value = quote!(false);
    }
    quote! {
        #extra
        #read_new_canonical
        #inline
        fn write<__W: __p::Writer>(&self, __w: &mut __W) {
            #write
        }
        #inline
        fn read<__R: __p::Reader<#de>>(&mut self, __r: &mut __R) -> __p::Result<()> {
            #read
        }
        #inline_new
        fn read_new<__R: __p::Reader<#de>>(__r: &mut __R) -> __p::Result<Self> {
            #read_new
        }
        fn default_value() -> __p::Option<Self> {
            #default_value
        }
        const HAS_DEFAULT_VALUE: bool = #has_default_value;
    }
}

/// Rejects conversions that contradict each other.
pub fn check(attrs: &ContainerAttrs) -> syn::Result<()> {
    if let (Some((_, span)), true) = (
        &attrs.check,
        attrs.from.is_some() || attrs.try_from.is_some(),
    ) {
        return Err(syn::Error::new(
            *span,
            "`check` runs on the struct as read; with `from`/`try_from` the type is read as \
             another one: declare the check there",
        ));
    }
    if let (Some(_), Some(t)) = (&attrs.from, &attrs.try_from) {
        return Err(syn::Error::new_spanned(
            t,
            "`from` and `try_from` both say how the type is read; keep one",
        ));
    }
    Ok(())
}

/// A `read_new_canonical` method (`de` the document lifetime) whose `body` reads the canonical
/// layout from `__r` (a `Result<Option<Self>>` body); a reader without a canonical layout
/// reads the value by `read_new` instead.
pub fn read_new_canonical(de: &Lifetime, body: TokenStream) -> TokenStream {
    let hot = crate::hot();
    quote! {
        #hot
        fn read_new_canonical<__R: __p::Reader<#de>>(
            __r: &mut __R,
        ) -> __p::Result<__p::Option<Self>> {
            if !<__R as __p::Reader<#de>>::CANONICAL {
                return <Self as __p::Reflect<#de>>::read_new(__r).map(__p::Some);
            }
            #body
        }
    }
}
