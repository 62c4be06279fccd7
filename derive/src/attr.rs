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
    /// `canonical`: reading tries the canonical layout first (compact, members in declaration
    /// order), recognised with one comparison per member.
    pub canonical: Option<Span>,
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
        "canonical" => once(&mut out.canonical, flag(meta, name)?, meta, name),
        _ => Err(meta.error(format!(
            "unknown structio attribute `{name}` on a type; expected `rename_all`, `tag`, \
             `content`, `untagged`, `bound`, `crate`, `default`, `from`, `try_from`, `into` \
             or `canonical`"
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
        _ => Err(meta.error(format!(
            "unknown structio attribute `{name}` on a field; expected `rename`, `alias`, `skip`, \
             `with`, `flatten`, `default`, `skip_if` or `serde`"
        ))),
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
        _ => Err(meta.error(format!(
            "unknown structio attribute `{name}` on a variant; expected `rename`, `alias` or \
             `rename_all`"
        ))),
    })?;
    Ok(out)
}
