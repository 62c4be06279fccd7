//! Parsing `#[structio(...)]` attributes on the container, its variants and its fields.
//!
//! Every misuse becomes a `syn::Error` on the span of the offending token; the entry point turns
//! the first one into a single `compile_error!`.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, ExprLit, Lit, LitStr, Token, WherePredicate};

use crate::case::RenameRule;

/// Attributes of the type itself.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `rename_all = "..."`: fields of a struct, variants of an enum.
    pub rename_all: Option<RenameRule>,
    /// `tag = "..."`: internally tagged (or adjacently, with `content`).
    pub tag: Option<LitStr>,
    /// `content = "..."`: adjacently tagged.
    pub content: Option<LitStr>,
    /// `untagged`, with its span.
    pub untagged: Option<Span>,
    /// `bound = "..."`: where-predicates replacing the inferred bounds.
    pub bound: Option<Vec<WherePredicate>>,
    /// `crate = "..."`: the path of the structio crate.
    pub krate: Option<syn::Path>,
    /// `default`: every member may be left out, taking its value in the type's `Default`.
    pub default: Option<Span>,
    /// `from = "T"`: read as a `T`, then converted with `From<T>`.
    pub from: Option<syn::Type>,
    /// `try_from = "T"`: read as a `T`, then converted with `TryFrom<T>` (its error, shown with
    /// `Display`, becomes the read error).
    pub try_from: Option<syn::Type>,
    /// `into = "T"`: written as the `T` that `Into<T>` makes of a clone.
    pub into: Option<syn::Type>,
    /// `check = "path"`: a function `fn(&Self) -> Result<(), String>` run on every value read.
    pub check: Option<(syn::Path, Span)>,
    /// `canonical`: reading tries the canonical layout first (compact, members in declaration
    /// order), recognised with one comparison per member.
    pub canonical: Option<Span>,
    /// `as_integer` (unit-only enums): JSON writes and reads the discriminant.
    pub as_integer: Option<Span>,
    /// `as_array` (structs with named fields): an array of the members in declaration order.
    pub as_array: Option<Span>,
}

/// Where a member left out of a document takes its value from.
#[derive(Clone)]
pub enum FieldDefault {
    /// `default`: the member type's `Default`.
    Trait,
    /// `default = "path"`: what the function at `path` returns.
    Path(syn::Path),
}

/// Attributes of a field.
#[derive(Default)]
pub struct FieldAttrs {
    /// `rename = "..."`.
    pub rename: Option<LitStr>,
    /// `alias = "..."`, repeatable.
    pub aliases: Vec<LitStr>,
    /// `skip`.
    pub skip: Option<Span>,
    /// `skip_write`: never written, read when present.
    pub skip_write: Option<Span>,
    /// `skip_read`: written, never read (its key is an unknown key on input).
    pub skip_read: Option<Span>,
    /// `with = "module"`: the module whose `write` and `read` functions replace the field
    /// type's `Reflect` impl.
    pub with: Option<syn::Path>,
    /// `flatten`: the members of the field's struct are written and read as the container's own.
    pub flatten: Option<Span>,
    /// `default` or `default = "path"`: the member may be left out.
    pub default: Option<FieldDefault>,
    /// `skip_if = "path"`: the member is not written when `path(&value)` is true.
    pub skip_if: Option<syn::Path>,
    /// `serde`: written and read through the field type's serde `Serialize`/`Deserialize`.
    pub serde: Option<Span>,
    /// `quoted`: a number or bool (or a `Vec`/`Option` of them) as a string in JSON.
    pub quoted: Option<Span>,
    /// The constraints: `length(..)`, `range(..)`, `pattern = ".."`, `one_of(..)`,
    /// `items(..)`, `check = "path"`, in the order written.
    pub rules: Vec<RuleSpec>,
}

/// A bound of `range(..)` as written.
#[derive(Clone, Copy)]
pub enum BoundLit {
    Int(i128),
    Float(f64),
}

/// A value of `one_of(..)` as written.
#[derive(Clone)]
pub enum ChoiceLit {
    Str(String),
    Num(BoundLit),
}

/// A constraint of a field as written (see `structio::constraint::Rule`).
#[derive(Clone)]
pub enum RuleKind {
    Length {
        min: Option<u64>,
        max: Option<u64>,
        bytes: bool,
    },
    Range {
        min: Option<BoundLit>,
        max: Option<BoundLit>,
        exclusive_min: Option<BoundLit>,
        exclusive_max: Option<BoundLit>,
    },
    Pattern(String),
    OneOf(Vec<ChoiceLit>),
    Items(Vec<RuleSpec>),
    Check(syn::Path),
}

/// A constraint with the span of its attribute (where a type that cannot take it is
/// reported).
#[derive(Clone)]
pub struct RuleSpec {
    pub kind: RuleKind,
    pub span: Span,
}

/// Parses the constraint `name` (`length`, `range`, `pattern`, `one_of`, `items`, `check`);
/// `None` when `name` is not one.
fn rule(name: &str, meta: &ParseNestedMeta) -> syn::Result<Option<RuleSpec>> {
    let span = meta.path.segments[0].ident.span();
    let kind = match name {
        "length" => {
            let (mut min, mut max, mut bytes) = (None, None, false);
            meta.parse_nested_meta(|m| {
                if m.path.is_ident("bytes") {
                    bytes = true;
                    Ok(())
                } else if m.path.is_ident("min") {
                    once(&mut min, int_value(&m)?, &m, "min")
                } else if m.path.is_ident("max") {
                    once(&mut max, int_value(&m)?, &m, "max")
                } else if m.path.is_ident("equal") {
                    let v = int_value(&m)?;
                    once(&mut min, v, &m, "min")?;
                    once(&mut max, v, &m, "max")
                } else {
                    Err(m.error("`length` takes `min = N`, `max = N`, `equal = N` and `bytes`"))
                }
            })?;
            if min.is_none() && max.is_none() {
                return Err(meta.error("`length` needs `min = N`, `max = N` or both"));
            }
            if let (Some(a), Some(b)) = (min, max) {
                if a > b {
                    return Err(meta.error("`length`: `min` is greater than `max`"));
                }
            }
            RuleKind::Length { min, max, bytes }
        }
        "range" => {
            let (mut min, mut max, mut emin, mut emax) = (None, None, None, None);
            meta.parse_nested_meta(|m| {
                let slot = if m.path.is_ident("min") {
                    &mut min
                } else if m.path.is_ident("max") {
                    &mut max
                } else if m.path.is_ident("exclusive_min") {
                    &mut emin
                } else if m.path.is_ident("exclusive_max") {
                    &mut emax
                } else {
                    return Err(
                        m.error("`range` takes `min`, `max`, `exclusive_min` and `exclusive_max`")
                    );
                };
                let v = bound_value(&m)?;
                once(slot, v, &m, "bound")
            })?;
            if min.is_none() && max.is_none() && emin.is_none() && emax.is_none() {
                return Err(meta.error("`range` needs at least one bound, as `range(min = 0)`"));
            }
            RuleKind::Range {
                min,
                max,
                exclusive_min: emin,
                exclusive_max: emax,
            }
        }
        "pattern" => {
            let lit = string(meta, name)?;
            if let Err(e) = regex_syntax::Parser::new().parse(&lit.value()) {
                return Err(syn::Error::new(
                    lit.span(),
                    format!("invalid `pattern`: {e}"),
                ));
            }
            RuleKind::Pattern(lit.value())
        }
        "one_of" => {
            let content;
            syn::parenthesized!(content in meta.input);
            let list = Punctuated::<Expr, Token![,]>::parse_terminated(&content)?;
            let mut out = Vec::new();
            for e in list {
                out.push(match literal(&e)? {
                    Lit::Str(s) => ChoiceLit::Str(s.value()),
                    _ => ChoiceLit::Num(bound_of(&e)?),
                });
            }
            if out.is_empty() {
                return Err(meta.error("`one_of` needs at least one value"));
            }
            RuleKind::OneOf(out)
        }
        "items" => {
            let mut inner = Vec::new();
            meta.parse_nested_meta(|m| {
                let name = m
                    .path
                    .get_ident()
                    .map(|i| i.to_string())
                    .unwrap_or_default();
                match rule(&name, &m)? {
                    Some(r) => {
                        inner.push(r);
                        Ok(())
                    }
                    None => Err(m.error(
                        "`items` takes constraints: `length`, `range`, `pattern`, `one_of`, \
                         `items` or `check`",
                    )),
                }
            })?;
            RuleKind::Items(inner)
        }
        "check" => RuleKind::Check(path_value(meta, name, "check = \"my_check\"")?),
        _ => return Ok(None),
    };
    Ok(Some(RuleSpec { kind, span }))
}

/// The literal of `e` (through invisible groups and a leading minus).
fn literal(e: &Expr) -> syn::Result<Lit> {
    match e {
        Expr::Group(g) => literal(&g.expr),
        Expr::Lit(ExprLit { lit, .. }) => Ok(lit.clone()),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => literal(&u.expr),
        other => Err(syn::Error::new_spanned(
            other,
            "expected a literal: a number or a string",
        )),
    }
}

/// A number literal (maybe negative) as a bound.
fn bound_of(e: &Expr) -> syn::Result<BoundLit> {
    let (neg, inner) = match e {
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => (true, &*u.expr),
        Expr::Group(g) => return bound_of(&g.expr),
        e => (false, e),
    };
    match literal(inner)? {
        Lit::Int(i) => {
            let v: i128 = i.base10_parse()?;
            Ok(BoundLit::Int(if neg { -v } else { v }))
        }
        Lit::Float(f) => {
            let v: f64 = f.base10_parse()?;
            Ok(BoundLit::Float(if neg { -v } else { v }))
        }
        other => Err(syn::Error::new_spanned(other, "expected a number")),
    }
}

/// `name = N` as a bound.
fn bound_value(meta: &ParseNestedMeta) -> syn::Result<BoundLit> {
    let e: Expr = meta.value()?.parse()?;
    bound_of(&e)
}

/// `name = N` as a count.
fn int_value(meta: &ParseNestedMeta) -> syn::Result<u64> {
    let e: Expr = meta.value()?.parse()?;
    match literal(&e)? {
        Lit::Int(i) if !matches!(e, Expr::Unary(_)) => i.base10_parse(),
        _ => Err(syn::Error::new_spanned(
            e,
            "expected a count (an integer of 0 or more)",
        )),
    }
}

/// Attributes of an enum variant.
#[derive(Default)]
pub struct VariantAttrs {
    /// `rename = "..."`.
    pub rename: Option<LitStr>,
    /// `alias = "..."`, repeatable.
    pub aliases: Vec<LitStr>,
    /// `rename_all = "..."` for the fields of a struct variant.
    pub rename_all: Option<RenameRule>,
    /// `other`: the unit variant an unknown variant name (or BEVE discriminant) reads as.
    pub other: Option<Span>,
}

/// Calls `each` for every item inside every `#[structio(...)]` attribute.
fn for_each_item(
    attrs: &[Attribute],
    mut each: impl FnMut(&str, &ParseNestedMeta) -> syn::Result<()>,
) -> syn::Result<()> {
    for attr in attrs {
        if !attr.path().is_ident("structio") {
            continue;
        }
        attr.parse_nested_meta(|meta| {
            let name = match meta.path.get_ident() {
                Some(ident) => ident.to_string(),
                // `crate` is a keyword, which `get_ident` does not return.
                None if meta.path.is_ident("crate") => "crate".to_string(),
                None => {
                    return Err(meta.error("expected a structio attribute name, not a path"));
                }
            };
            each(&name, &meta)
        })?;
    }
    Ok(())
}

/// Parses the value of `name = "..."` as a string literal.
fn string(meta: &ParseNestedMeta, name: &str) -> syn::Result<LitStr> {
    let expr: Expr = meta
        .value()
        .map_err(|_| meta.error(format!("`{name}` needs a string value: `{name} = \"...\"`")))?
        .parse()?;
    // A `$x:literal` or `$x:expr` fragment of a `macro_rules!` arrives wrapped in an
    // invisible group: look through it, as serde does.
    let mut expr = expr;
    while let Expr::Group(g) = expr {
        expr = *g.expr;
    }
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(s),
        other => Err(syn::Error::new_spanned(
            other,
            format!("`{name}` takes a string literal: `{name} = \"...\"`"),
        )),
    }
}

/// Checks that a flag attribute such as `skip` comes without a value.
fn flag(meta: &ParseNestedMeta, name: &str) -> syn::Result<Span> {
    if meta.input.is_empty() || meta.input.peek(Token![,]) {
        Ok(meta.path.segments[0].ident.span())
    } else {
        Err(meta.error(format!("`{name}` takes no value")))
    }
}

/// Stores a value that may be given once.
fn once<T>(slot: &mut Option<T>, value: T, meta: &ParseNestedMeta, name: &str) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error(format!("duplicate `{name}` attribute")));
    }
    *slot = Some(value);
    Ok(())
}

/// Parses `rename_all = "..."`.
fn rename_rule(meta: &ParseNestedMeta) -> syn::Result<RenameRule> {
    let lit = string(meta, "rename_all")?;
    RenameRule::parse(&lit.value()).ok_or_else(|| {
        syn::Error::new(
            lit.span(),
            format!(
                "unknown `rename_all` rule \"{}\"; expected one of {}",
                lit.value(),
                RenameRule::expected()
            ),
        )
    })
}

/// Parses the attributes of a struct or enum.
pub fn container(attrs: &[Attribute]) -> syn::Result<ContainerAttrs> {
    let mut out = ContainerAttrs::default();
    for_each_item(attrs, |name, meta| match name {
        "rename_all" => once(&mut out.rename_all, rename_rule(meta)?, meta, name),
        "tag" => once(&mut out.tag, string(meta, name)?, meta, name),
        "content" => once(&mut out.content, string(meta, name)?, meta, name),
        "untagged" => once(&mut out.untagged, flag(meta, name)?, meta, name),
        "bound" => {
            let lit = string(meta, name)?;
            let preds = lit
                .parse_with(Punctuated::<WherePredicate, Token![,]>::parse_terminated)
                .map_err(|e| {
                    syn::Error::new(lit.span(), format!("invalid `bound` predicates: {e}"))
                })?;
            once(&mut out.bound, preds.into_iter().collect(), meta, name)
        }
        "crate" => {
            let lit = string(meta, name)?;
            let path = lit.parse::<syn::Path>().map_err(|_| {
                syn::Error::new(lit.span(), "`crate` needs a path, like \"::structio\"")
            })?;
            once(&mut out.krate, path, meta, name)
        }
        "default" => once(&mut out.default, flag(meta, name)?, meta, name),
        "from" => once(&mut out.from, type_value(meta, name)?, meta, name),
        "try_from" => once(&mut out.try_from, type_value(meta, name)?, meta, name),
        "into" => once(&mut out.into, type_value(meta, name)?, meta, name),
        "check" => {
            let span = meta.path.segments[0].ident.span();
            let path = path_value(meta, name, "check = \"my_check\"")?;
            once(&mut out.check, (path, span), meta, name)
        }
        "canonical" => once(&mut out.canonical, flag(meta, name)?, meta, name),
        "as_integer" => once(&mut out.as_integer, flag(meta, name)?, meta, name),
        "as_array" => once(&mut out.as_array, flag(meta, name)?, meta, name),
        _ => Err(meta.error(format!(
            "unknown structio attribute `{name}` on a type; expected `rename_all`, `tag`, \
             `content`, `untagged`, `bound`, `crate`, `default`, `from`, `try_from`, `into`, \
             `check`, `canonical`, `as_integer` or `as_array`"
        ))),
    })?;
    Ok(out)
}

/// Parses the value of `name = "..."` as the path of a function (`example` shows one).
fn path_value(meta: &ParseNestedMeta, name: &str, example: &str) -> syn::Result<syn::Path> {
    let lit = string(meta, name)?;
    lit.parse::<syn::Path>().map_err(|_| {
        syn::Error::new(
            lit.span(),
            format!("`{name}` takes the path of a function, as in `{example}`"),
        )
    })
}

/// Parses the value of `name = "..."` as a type.
fn type_value(meta: &ParseNestedMeta, name: &str) -> syn::Result<syn::Type> {
    let lit = string(meta, name)?;
    lit.parse::<syn::Type>().map_err(|_| {
        syn::Error::new(
            lit.span(),
            format!("`{name}` takes a type, as in `{name} = \"MyType\"`"),
        )
    })
}

/// Parses the attributes of a field.
pub fn field(attrs: &[Attribute]) -> syn::Result<FieldAttrs> {
    let mut out = FieldAttrs::default();
    for_each_item(attrs, |name, meta| match name {
        "rename" => once(&mut out.rename, string(meta, name)?, meta, name),
        "alias" => {
            out.aliases.push(string(meta, name)?);
            Ok(())
        }
        "skip" => once(&mut out.skip, flag(meta, name)?, meta, name),
        "skip_write" => once(&mut out.skip_write, flag(meta, name)?, meta, name),
        "skip_read" => once(&mut out.skip_read, flag(meta, name)?, meta, name),
        "flatten" => once(&mut out.flatten, flag(meta, name)?, meta, name),
        "with" => {
            let lit = string(meta, name)?;
            let path = lit.parse::<syn::Path>().map_err(|_| {
                syn::Error::new(
                    lit.span(),
                    "`with` takes the path of a module, as in `with = \"my_codec\"`",
                )
            })?;
            once(&mut out.with, path, meta, name)
        }
        "default" => {
            let value = if meta.input.peek(Token![=]) {
                FieldDefault::Path(path_value(meta, name, "default = \"my_default\"")?)
            } else {
                flag(meta, name)?;
                FieldDefault::Trait
            };
            once(&mut out.default, value, meta, name)
        }
        "skip_if" => {
            let path = path_value(meta, name, "skip_if = \"Vec::is_empty\"")?;
            once(&mut out.skip_if, path, meta, name)
        }
        "serde" => once(&mut out.serde, flag(meta, name)?, meta, name),
        "quoted" => once(&mut out.quoted, flag(meta, name)?, meta, name),
        _ => match rule(name, meta)? {
            Some(r) => {
                out.rules.push(r);
                Ok(())
            }
            None => Err(meta.error(format!(
                "unknown structio attribute `{name}` on a field; expected `rename`, `alias`, \
                 `skip`, `skip_write`, `skip_read`, `with`, `flatten`, `default`, `skip_if`, \
                 `serde`, `quoted`, or a constraint: \
                 `length`, `range`, `pattern`, `one_of`, `items`, `check`"
            ))),
        },
    })?;
    Ok(out)
}

/// Parses the attributes of an enum variant.
pub fn variant(attrs: &[Attribute]) -> syn::Result<VariantAttrs> {
    let mut out = VariantAttrs::default();
    for_each_item(attrs, |name, meta| match name {
        "rename" => once(&mut out.rename, string(meta, name)?, meta, name),
        "alias" => {
            out.aliases.push(string(meta, name)?);
            Ok(())
        }
        "rename_all" => once(&mut out.rename_all, rename_rule(meta)?, meta, name),
        "other" => once(&mut out.other, flag(meta, name)?, meta, name),
        _ => Err(meta.error(format!(
            "unknown structio attribute `{name}` on a variant; expected `rename`, `alias`, \
             `rename_all` or `other`"
        ))),
    })?;
    Ok(out)
}
