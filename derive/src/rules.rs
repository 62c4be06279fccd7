//! Constraints (`length`, `range`, `pattern`, `one_of`, `items`, `check`): the constant
//! `Rule` lists the derive records for each field (`__RULES_<field>`, nested lists of `items`
//! as `__RULES_<field>_<k>`), the compiled patterns (`__PATTERN_<field>_<k>`), and the closure
//! that checks a member's value right after it is read. Only fields that declare constraints
//! get any of these, so a struct without them expands exactly as before.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;

use crate::attr::{BoundLit, ChoiceLit, RuleKind, RuleSpec};
use crate::model::Field;

/// The name of the list of rules at `path` (the field's index, then the positions of the
/// `items` rules it is nested in).
pub fn list_ident(path: &[usize]) -> Ident {
    let mut s = String::from("__RULES");
    for p in path {
        s.push('_');
        s.push_str(&p.to_string());
    }
    Ident::new(&s, Span::call_site())
}

/// The name of the compiled pattern of rule `k` of the list at `path`.
fn pattern_ident(path: &[usize], k: usize) -> Ident {
    let mut s = String::from("__PATTERN");
    for p in path.iter().chain([&k]) {
        s.push('_');
        s.push_str(&p.to_string());
    }
    Ident::new(&s, Span::call_site())
}

/// The constant lists of every field's rules and their compiled patterns.
pub fn consts<'a>(fields: impl IntoIterator<Item = &'a Field>) -> TokenStream {
    let mut out = TokenStream::new();
    for f in fields {
        if !f.rules.is_empty() {
            emit_list(&[f.index], &f.rules, &mut out);
        }
    }
    out
}

/// The list at `path` (and the lists nested in it), into `out`.
fn emit_list(path: &[usize], rules: &[RuleSpec], out: &mut TokenStream) {
    let id = list_ident(path);
    let mut items = Vec::new();
    for (k, r) in rules.iter().enumerate() {
        let inner: Vec<usize> = path.iter().copied().chain([k]).collect();
        items.push(rule_tokens(&r.kind, &inner));
        match &r.kind {
            RuleKind::Items(sub) => emit_list(&inner, sub, out),
            RuleKind::Pattern(p) => {
                let pid = pattern_ident(path, k);
                out.extend(quote! {
                    static #pid: __p::Pattern = __p::Pattern::new(#p);
                });
            }
            _ => {}
        }
    }
    out.extend(quote! {
        const #id: &[__p::Rule] = &[#(#items),*];
    });
}

fn opt<T>(v: &Option<T>, each: impl Fn(&T) -> TokenStream) -> TokenStream {
    match v {
        Some(x) => {
            let x = each(x);
            quote!(__p::Some(#x))
        }
        None => quote!(__p::None),
    }
}

fn bound(b: &BoundLit) -> TokenStream {
    match *b {
        BoundLit::Int(i) => {
            let lit = Literal::u128_unsuffixed(i.unsigned_abs());
            if i < 0 {
                quote!(__p::Bound::Int(-#lit))
            } else {
                quote!(__p::Bound::Int(#lit))
            }
        }
        BoundLit::Float(f) => {
            let lit = Literal::f64_suffixed(f.abs());
            if f.is_sign_negative() {
                quote!(__p::Bound::Float(-#lit))
            } else {
                quote!(__p::Bound::Float(#lit))
            }
        }
    }
}

/// A `Rule` value; `inner` names an `items` rule's nested list.
fn rule_tokens(kind: &RuleKind, inner: &[usize]) -> TokenStream {
    match kind {
        RuleKind::Length { min, max, bytes } => {
            let min = opt(min, |m| quote!(#m));
            let max = opt(max, |m| quote!(#m));
            quote!(__p::Rule::Length { min: #min, max: #max, bytes: #bytes })
        }
        RuleKind::Range {
            min,
            max,
            exclusive_min,
            exclusive_max,
        } => {
            let (a, b, c, d) = (
                opt(min, bound),
                opt(max, bound),
                opt(exclusive_min, bound),
                opt(exclusive_max, bound),
            );
            quote!(__p::Rule::Range { min: #a, max: #b, exclusive_min: #c, exclusive_max: #d })
        }
        RuleKind::Pattern(p) => quote!(__p::Rule::Pattern(#p)),
        RuleKind::OneOf(list) => {
            let items = list.iter().map(|c| match c {
                ChoiceLit::Str(s) => quote!(__p::Choice::Str(#s)),
                ChoiceLit::Num(b) => {
                    let b = bound(b);
                    quote!(__p::Choice::Num(#b))
                }
            });
            quote!(__p::Rule::OneOf(&[#(#items),*]))
        }
        RuleKind::Items(_) => {
            let id = list_ident(inner);
            quote!(__p::Rule::Items(#id))
        }
        RuleKind::Check(path) => {
            let text = quote!(#path).to_string().replace(' ', "");
            quote!(__p::Rule::Check(#text))
        }
    }
}

/// The statements checking `__v` (a reference) against the list at `path`, into `__o`.
fn check_stmts(path: &[usize], rules: &[RuleSpec]) -> TokenStream {
    let id = list_ident(path);
    let mut out = TokenStream::new();
    for (k, r) in rules.iter().enumerate() {
        let span = r.span;
        out.extend(match &r.kind {
            RuleKind::Length { .. } => quote_spanned! {span=>
                __p::constraint::length(__v, &#id[#k], __o);
            },
            RuleKind::Range { .. } => quote_spanned! {span=>
                __p::constraint::range(__v, &#id[#k], __o);
            },
            RuleKind::Pattern(_) => {
                let pid = pattern_ident(path, k);
                quote_spanned! {span=>
                    __p::constraint::pattern(__v, &#id[#k], &#pid, __o);
                }
            }
            RuleKind::OneOf(_) => quote_spanned! {span=>
                __p::constraint::one_of(__v, &#id[#k], __o);
            },
            RuleKind::Items(sub) => {
                let inner: Vec<usize> = path.iter().copied().chain([k]).collect();
                let body = check_stmts(&inner, sub);
                quote_spanned! {span=>
                    __p::constraint::items(__v, __o, |__v, __o| { #body });
                }
            }
            RuleKind::Check(f) => quote_spanned! {span=>
                __p::constraint::user_check(#f(__v), &#id[#k], __o);
            },
        });
    }
    out
}

/// The closure checking field `f`'s value (`|__v: &Type, __o: &mut Violations| ..`), if it
/// declares constraints.
pub fn checks(f: &Field) -> Option<TokenStream> {
    if f.rules.is_empty() {
        return None;
    }
    let ty = &f.ty;
    let body = check_stmts(&[f.index], &f.rules);
    Some(quote! {
        |__v: &#ty, __o: &mut __p::Violations| { #body }
    })
}

/// `Fields::RULES` for the own fields `fields` (in key-table order), when one declares
/// constraints.
pub fn fields_rules(fields: &[&Field]) -> TokenStream {
    if fields.iter().all(|f| f.rules.is_empty()) {
        return TokenStream::new();
    }
    let lists = fields.iter().map(|f| {
        if f.rules.is_empty() {
            quote!(&[])
        } else {
            let id = list_ident(&[f.index]);
            quote!(#id)
        }
    });
    quote! {
        const RULES: &'static [&'static [__p::Rule]] = &[#(#lists),*];
    }
}

/// The container's `check = "path"`: its rule list (`__TYPE_RULES`) and the closure checking
/// a value of `Self`.
pub fn container(check: &Option<(syn::Path, Span)>) -> Option<(TokenStream, TokenStream)> {
    let (path, span) = check.as_ref()?;
    let text = quote!(#path).to_string().replace(' ', "");
    let consts = quote! {
        const __TYPE_RULES: &[__p::Rule] = &[__p::Rule::Check(#text)];
    };
    let closure = quote_spanned! {*span=>
        |__v: &Self, __o: &mut __p::Violations| {
            __p::constraint::user_check(#path(__v), &__TYPE_RULES[0], __o)
        }
    };
    Some((consts, closure))
}
