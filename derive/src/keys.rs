//! Key tables: the accepted keys of a struct, a struct variant or an enum's variants, checked
//! for clashes and given the cheapest perfect-hash probe `structio_keys::plan` finds, emitted
//! as constants over static arrays.

use proc_macro2::{Literal, Span, TokenStream};
use quote::quote;
use structio_keys::Probe;

/// One entry that owns keys: a field or a variant.
pub struct Entry<'a> {
    /// What the entry is called in the source (the field or variant identifier), for errors.
    pub label: String,
    /// The written name.
    pub name: &'a str,
    pub name_span: Span,
    /// Extra keys accepted on input.
    pub aliases: &'a [(String, Span)],
    /// An `Option` field: never a missing key, since `None` members are left out when written.
    pub optional: bool,
}

/// The keys of a table: names first (one per entry, in order), then aliases.
pub struct Table {
    pub names: Vec<String>,
    pub keys: Vec<String>,
    /// For each key, the entry it selects.
    pub key_entry: Vec<u16>,
    /// For each entry, whether it may be missing (see [`Entry::optional`]).
    pub optional: Vec<bool>,
}

/// Builds a table; a key used twice (after renaming) is an error on the second use. `what`
/// names the entries in the message ("field", "variant").
pub fn table(entries: &[Entry], what: &str) -> syn::Result<Table> {
    if entries.len() >= usize::from(u16::MAX) {
        return Err(syn::Error::new(
            Span::call_site(),
            format!("too many {what}s for a key table"),
        ));
    }
    let mut keys: Vec<(String, u16)> = Vec::new();
    let mut add = |key: &str, span: Span, entry: usize| -> syn::Result<()> {
        if let Some(&(_, other)) = keys.iter().find(|(k, _)| k == key) {
            let other = &entries[other as usize];
            let how = if other.name == key {
                "is already written as"
            } else {
                "already accepts"
            };
            let msg = format!(
                "key `{key}` is used twice: {what} `{}` {how} `{key}`",
                other.label
            );
            return Err(syn::Error::new(span, msg));
        }
        keys.push((key.to_string(), entry as u16));
        Ok(())
    };
    for (i, e) in entries.iter().enumerate() {
        add(e.name, e.name_span, i)?;
    }
    for (i, e) in entries.iter().enumerate() {
        for (alias, span) in e.aliases {
            add(alias, *span, i)?;
        }
    }
    if keys.len() >= usize::from(u16::MAX) {
        return Err(syn::Error::new(
            Span::call_site(),
            format!("too many keys for one {what} table"),
        ));
    }
    Ok(Table {
        names: entries.iter().map(|e| e.name.to_string()).collect(),
        optional: entries.iter().map(|e| e.optional).collect(),
        key_entry: keys.iter().map(|&(_, e)| e).collect(),
        keys: keys.into_iter().map(|(k, _)| k).collect(),
    })
}

impl Table {
    /// A `FieldsInfo` literal, and the name of the probe strategy.
    pub fn fields_info(&self) -> TokenStream {
        let names = &self.names;
        let keys = &self.keys;
        let key_field = self.key_entry.iter().map(|&e| Literal::u16_unsuffixed(e));
        let probe = probe(keys);
        let plain = names.iter().all(|n| structio_keys::is_plain(n.as_bytes()));
        let optional = if self.optional.contains(&true) {
            let o = &self.optional;
            quote!(&[#(#o),*])
        } else {
            quote!(&[])
        };
        quote! {
            __p::FieldsInfo {
                names: &[#(#names),*],
                optional: #optional,
                keys: &[#(#keys),*],
                key_field: &[#(#key_field),*],
                probe: #probe,
                plain: #plain,
            }
        }
    }
}

/// A `Probe<&'static [u16]>` literal for `keys` (which must be distinct).
pub fn probe(keys: &[String]) -> TokenStream {
    let refs: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
    // One byte string per table (`__p::unpack` reads it at compile time): a table of 256 or
    // more slots spelled as numbers was a tenth of a struct's generated code.
    let slots = |t: Vec<u16>| -> TokenStream {
        let n = t.len();
        let packed = Literal::byte_string(&structio_keys::pack(&t));
        quote!(const { __p::unpack_slots::<#n>(#packed) })
    };
    match structio_keys::plan(&refs) {
        Probe::Empty => quote!(__p::Probe::Empty),
        Probe::Single => quote!(__p::Probe::Single),
        Probe::Linear => quote!(__p::Probe::Linear),
        Probe::ByteAt { index, table } => {
            let table = slots(table);
            quote! {
                __p::Probe::ByteAt { index: #index, table: &#table }
            }
        }
        Probe::LenByte {
            index,
            seed,
            shift,
            table,
        } => {
            let table = slots(table);
            quote! { __p::Probe::LenByte { index: #index, seed: #seed, shift: #shift, table: &#table } }
        }
        Probe::Front {
            bytes,
            seed,
            shift,
            table,
        } => {
            let table = slots(table);
            quote! { __p::Probe::Front { bytes: #bytes, seed: #seed, shift: #shift, table: &#table } }
        }
        Probe::Full { seed, shift, table } => {
            let table = slots(table);
            quote! { __p::Probe::Full { seed: #seed, shift: #shift, table: &#table } }
        }
    }
}
