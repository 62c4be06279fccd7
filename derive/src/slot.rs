//! How the generated code writes and reads one field: through its type's `Reflect` impl, or
//! through the `write` and `read` functions of a `#[structio(with = "module")]`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::Field;

/// A field's value as the generated code reaches it (`&self.a`, `&mut self.a`, a binding),
/// with the module that writes and reads it, if any.
pub struct Slot {
    pub value: TokenStream,
    pub with: Option<syn::Path>,
    /// The field is spelled as an `Option` (see [`crate::structs::is_option`]): a document may
    /// leave it out, and then reading sets it to `None`.
    pub optional: bool,
}

impl Slot {
    /// `value` of field `f`.
    pub fn of(f: &Field, value: TokenStream) -> Slot {
        Slot {
            value,
            with: f.with.clone(),
            optional: crate::structs::is_option(&f.ty),
        }
    }

    /// Sets the value (a `&mut`) to `None` when the field is optional; nothing otherwise.
    pub fn reset(&self) -> TokenStream {
        let v = &self.value;
        if self.optional {
            quote!(*#v = __p::None;)
        } else {
            TokenStream::new()
        }
    }

    /// Writes the value (a reference) to `__w`; an expression of type `()`.
    pub fn write(&self) -> TokenStream {
        let v = &self.value;
        match &self.with {
            Some(m) => quote!(#m::write(#v, __w)),
            None => quote!(__p::Reflect::write(#v, __w)),
        }
    }

    /// Reads into the value (a `&mut`) from `__r`; an expression of type `Result<()>`.
    pub fn read(&self) -> TokenStream {
        let v = &self.value;
        match &self.with {
            Some(m) => quote!(#m::read(#v, __r)),
            None => quote!(__p::Reflect::read(#v, __r)),
        }
    }

    /// Whether the value is left out of its struct; a `with` field always is written.
    pub fn absent(&self) -> TokenStream {
        let v = &self.value;
        match &self.with {
            Some(_) => quote!(false),
            None => quote!(__p::Reflect::is_absent(#v)),
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
pub fn member_slots(fields: &[&Field]) -> (Vec<Slot>, Vec<Slot>) {
    let refs = slots(fields, |_, f| {
        let m = &f.member;
        quote!(&self.#m)
    });
    let muts = slots(fields, |_, f| {
        let m = &f.member;
        quote!(&mut self.#m)
    });
    (refs, muts)
}
