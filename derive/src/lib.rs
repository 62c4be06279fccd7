//! `#[derive(Reflect)]` (skeleton).
extern crate proc_macro;
use proc_macro::TokenStream;

/// Derives `structio::Reflect`.
#[proc_macro_derive(Reflect, attributes(structio))]
pub fn derive_reflect(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}
