//! `value_literal!`, the literal half of `structio::value!`: a literal becomes the
//! `Value` that reading the same text as JSON gives, decided here at compile time.
//!
//! Input: the path of structio (`$crate`), a comma, then a literal with an optional `-`. An
//! unsuffixed integer becomes an `i64` when it fits, else a `u64`, else an `i128`/`u128` (as
//! the JSON reader picks), and `-0` the float `-0.0` (as JSON reads it); an unsuffixed float is
//! an `f64`. Anything else (suffixed numbers, strings, chars, booleans) goes through
//! `Value::from` as written, so the compiler checks it (`300u8` and `-1u8` are errors, and a
//! literal without a `From` impl, like a byte string, is refused).

use proc_macro2::{Literal, TokenStream, TokenTree};
use quote::quote;
use syn::{Expr, ExprLit, ExprUnary, Lit, UnOp};

pub fn expand(input: TokenStream) -> TokenStream {
    let mut tokens = input.into_iter();
    let mut krate = TokenStream::new();
    for t in tokens.by_ref() {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' => break,
            _ => krate.extend([t]),
        }
    }
    let rest: TokenStream = tokens.collect();
    let expr: Expr = match syn::parse2(rest) {
        Ok(e) => e,
        Err(e) => return e.to_compile_error(),
    };
    let (negative, lit) = match split(&expr) {
        Some(x) => x,
        None => {
            return syn::Error::new_spanned(&expr, "value!: expected a literal").to_compile_error()
        }
    };
    let minus = negative.then(|| quote!(-));
    match lit {
        Lit::Int(i) if i.suffix().is_empty() => {
            let digits = i.base10_digits();
            let Ok(magnitude) = digits.parse::<u128>() else {
                return syn::Error::new_spanned(i, "value!: integer beyond u128")
                    .to_compile_error();
            };
            let number = if negative {
                if magnitude == 0 {
                    // JSON reads `-0` as the float -0.0, keeping the sign.
                    quote!(-0.0f64)
                } else if magnitude <= i64::MIN.unsigned_abs() as u128 {
                    let v = Literal::i64_suffixed((magnitude as i128).wrapping_neg() as i64);
                    quote!(#v)
                } else if magnitude <= i128::MIN.unsigned_abs() {
                    let v = Literal::i128_suffixed((magnitude as i128).wrapping_neg());
                    quote!(#v)
                } else {
                    return syn::Error::new_spanned(&expr, "value!: integer below i128::MIN")
                        .to_compile_error();
                }
            } else if let Ok(v) = i64::try_from(magnitude) {
                let v = Literal::i64_suffixed(v);
                quote!(#v)
            } else if let Ok(v) = u64::try_from(magnitude) {
                let v = Literal::u64_suffixed(v);
                quote!(#v)
            } else {
                let v = Literal::u128_suffixed(magnitude);
                quote!(#v)
            };
            quote!(#krate::Value::from(#number))
        }
        Lit::Float(f) if f.suffix().is_empty() => {
            quote!(<#krate::Value as ::core::convert::From<f64>>::from(#minus #f))
        }
        other => quote!(#krate::Value::from(#minus #other)),
    }
}

/// The literal of `lit` or `-lit` (through the invisible groups a `$l:literal` fragment
/// arrives in), with whether it is negated.
fn split(expr: &Expr) -> Option<(bool, &Lit)> {
    match expr {
        Expr::Group(g) => split(&g.expr),
        Expr::Lit(ExprLit { lit, .. }) => Some((false, lit)),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => match split(expr)? {
            (false, lit) => Some((true, lit)),
            (true, _) => None,
        },
        _ => None,
    }
}
