//! The derive's view of the input: fields and variants with their written names, aliases and
//! flags, after attributes and `rename_all` have been applied.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Fields, Ident, Member, Type};

use crate::attr;
use crate::case::RenameRule;

/// A field of a struct or of a variant.
#[derive(Clone)]
pub struct Field {
    /// `self.<member>`: a name or a position.
    pub member: Member,
    /// The declared type.
    pub ty: Type,
    /// The key it is written under (named fields only).
    pub name: String,
    /// Where the name comes from (the `rename` literal or the field), for errors.
    pub name_span: Span,
    /// Extra keys accepted on input.
    pub aliases: Vec<(String, Span)>,
    /// `#[structio(skip)]`: neither written nor read.
    pub skip: bool,
    /// `#[structio(skip_write)]`: never written, read when present.
    pub skip_write: bool,
    /// `#[structio(skip_read)]`: written, never read (takes its default).
    pub skip_read: bool,
    /// `#[structio(with = "module")]`: written by `module::write`, read by `module::read`.
    pub with: Option<syn::Path>,
    /// `#[structio(flatten)]`: its struct's members are the container's own.
    pub flatten: bool,
    /// `#[structio(default)]` or `#[structio(default = "path")]`: may be left out.
    pub default: Option<attr::FieldDefault>,
    /// `#[structio(skip_if = "path")]`: not written when `path(&value)` is true.
    pub skip_if: Option<syn::Path>,
    /// `#[structio(serde)]`: written and read through serde.
    pub serde: bool,
    /// `#[structio(quoted)]`: written and read through `structio::quoted`.
    pub quoted: bool,
    /// Its doc comment (the schema's `description`).
    pub doc: String,
    /// The declared constraints.
    pub rules: Vec<attr::RuleSpec>,
    /// The field's position among all the fields (names the constants of its rules).
    pub index: usize,
}

impl Field {
    /// The value a `skip_read` field takes on every read: its `default`, else `None`.
    pub fn unread_value(&self) -> proc_macro2::TokenStream {
        match &self.default {
            Some(attr::FieldDefault::Trait) => quote::quote!(__p::Default::default()),
            Some(attr::FieldDefault::Path(path)) => quote::quote!(#path()),
            None => quote::quote!(__p::None),
        }
    }
}

/// How a struct or variant holds its fields.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `{ a: A, b: B }`.
    Named,
    /// `(A, B)`.
    Tuple,
    /// No fields at all.
    Unit,
}

/// A list of fields with their style.
pub struct Shape {
    pub style: Style,
    pub fields: Vec<Field>,
}

impl Shape {
    /// The fields that are written and read.
    pub fn active(&self) -> impl Iterator<Item = &Field> {
        self.fields.iter().filter(|f| !f.skip)
    }

    /// How many fields are written and read.
    pub fn active_count(&self) -> usize {
        self.active().count()
    }
}

/// An enum variant.
pub struct Variant {
    pub ident: Ident,
    /// The name it is written under.
    pub name: String,
    pub name_span: Span,
    pub aliases: Vec<(String, Span)>,
    pub shape: Shape,
    /// `#[structio(other)]`: the catch-all for unknown variant names.
    pub other: Option<Span>,
}

impl Variant {
    /// A tuple variant with exactly one active field: its payload is that field's value.
    pub fn is_newtype(&self) -> bool {
        self.shape.style == Style::Tuple && self.shape.active_count() == 1
    }
}

/// Reads the fields of a struct or variant. `rule` renames named fields without `rename`.
pub fn shape(fields: &Fields, rule: Option<RenameRule>) -> syn::Result<Shape> {
    let style = match fields {
        Fields::Named(_) => Style::Named,
        Fields::Unnamed(_) => Style::Tuple,
        Fields::Unit => Style::Unit,
    };
    let mut out = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let attrs = attr::field(&f.attrs)?;
        let (member, default_name, default_span) = match &f.ident {
            Some(ident) => {
                let plain = ident.unraw().to_string();
                let name = rule.map_or_else(|| plain.clone(), |r| r.apply_to_field(&plain));
                (Member::Named(ident.clone()), name, ident.span())
            }
            None => {
                if let Some(lit) = attrs.rename.as_ref().or(attrs.aliases.first()) {
                    return Err(syn::Error::new(
                        lit.span(),
                        "`rename` and `alias` apply to named fields only; tuple fields are \
                         written by position",
                    ));
                }
                (Member::Unnamed(i.into()), String::new(), f.ty.span())
            }
        };
        if let Some(span) = attrs.flatten {
            let clash = [
                (
                    attrs.rename.is_some() || !attrs.aliases.is_empty(),
                    "`rename` and `alias`",
                ),
                (attrs.with.is_some(), "`with`"),
                (attrs.skip.is_some(), "`skip`"),
                (attrs.skip_write.is_some(), "`skip_write`"),
                (attrs.skip_read.is_some(), "`skip_read`"),
                (attrs.default.is_some(), "`default`"),
                (attrs.skip_if.is_some(), "`skip_if`"),
                (attrs.serde.is_some(), "`serde`"),
                (attrs.quoted.is_some(), "`quoted`"),
                (
                    !attrs.rules.is_empty(),
                    "a constraint (the flattened struct's fields declare their own)",
                ),
            ]
            .into_iter()
            .find_map(|(set, what)| set.then_some(what));
            if let Some(what) = clash {
                return Err(syn::Error::new(
                    span,
                    format!(
                        "`flatten` lifts the members of the field's struct into this one; {what} \
                         cannot go with it"
                    ),
                ));
            }
            if f.ident.is_none() {
                return Err(syn::Error::new(
                    span,
                    "`flatten` applies to named fields: a tuple field has no members to lift",
                ));
            }
        }
        if let Some(span) = attrs.quoted {
            if attrs.with.is_some() || attrs.serde.is_some() {
                return Err(syn::Error::new(
                    span,
                    "`quoted` says how the field is written and read, as `with` and `serde` do; \
                     keep one",
                ));
            }
        }
        if let (Some(span), Some(_)) = (attrs.serde, &attrs.with) {
            return Err(syn::Error::new(
                span,
                "`serde` and `with` both say how the field is written and read; keep one",
            ));
        }
        if let (Some(_), Some(r)) = (attrs.skip, attrs.rules.first()) {
            return Err(syn::Error::new(
                r.span,
                "a skipped field is never read, so a constraint on it would never be checked",
            ));
        }
        one_way(&attrs, f)?;
        let (name, name_span) = match &attrs.rename {
            Some(lit) => (lit.value(), lit.span()),
            None => (default_name, default_span),
        };
        out.push(Field {
            member,
            ty: f.ty.clone(),
            name,
            name_span,
            aliases: attrs
                .aliases
                .iter()
                .map(|l| (l.value(), l.span()))
                .collect(),
            skip: attrs.skip.is_some(),
            skip_write: attrs.skip_write.is_some(),
            skip_read: attrs.skip_read.is_some(),
            with: attrs.with,
            flatten: attrs.flatten.is_some(),
            default: attrs.default,
            skip_if: attrs.skip_if,
            serde: attrs.serde.is_some(),
            quoted: attrs.quoted.is_some(),
            doc: crate::schema::doc_text(&f.attrs),
            rules: attrs.rules,
            index: i,
        });
    }
    Ok(Shape { style, fields: out })
}

/// Checks the one-way skips `skip_write` and `skip_read` of field `f`: named fields only, not
/// with `skip` nor with each other; `skip_read` needs a value to take (a field `default` or an
/// `Option` type) and takes no constraint (it would never be checked).
fn one_way(attrs: &attr::FieldAttrs, f: &syn::Field) -> syn::Result<()> {
    let (span, what) =
        match (attrs.skip_write, attrs.skip_read) {
            (Some(w), Some(_)) => return Err(syn::Error::new(
                w,
                "`skip_write` and `skip_read` together never write nor read the field: use `skip`",
            )),
            (Some(w), None) => (w, "skip_write"),
            (None, Some(r)) => (r, "skip_read"),
            (None, None) => return Ok(()),
        };
    if attrs.skip.is_some() {
        return Err(syn::Error::new(
            span,
            format!("`skip` already leaves the field out both ways; `{what}` cannot go with it"),
        ));
    }
    if f.ident.is_none() {
        return Err(syn::Error::new(
            span,
            format!("`{what}` applies to named fields: a tuple field is written by position"),
        ));
    }
    if attrs.skip_read.is_some() {
        if attrs.default.is_none() && !crate::structs::is_option(&f.ty) {
            return Err(syn::Error::new(
                span,
                "a `skip_read` field is never read, so it needs a value to take: add \
                 `#[structio(default)]` or `#[structio(default = \"path\")]`, or make it an `Option`",
            ));
        }
        if let Some(r) = attrs.rules.first() {
            return Err(syn::Error::new(
                r.span,
                "a `skip_read` field is never read, so a constraint on it would never be checked",
            ));
        }
    }
    Ok(())
}

/// Reads the variants of an enum. `rule` renames variants without `rename`.
pub fn variants(data: &syn::DataEnum, rule: Option<RenameRule>) -> syn::Result<Vec<Variant>> {
    let mut out = Vec::new();
    for v in &data.variants {
        let attrs = attr::variant(&v.attrs)?;
        let plain = v.ident.unraw().to_string();
        let (name, name_span) = match &attrs.rename {
            Some(lit) => (lit.value(), lit.span()),
            None => (
                rule.map_or_else(|| plain.clone(), |r| r.apply_to_variant(&plain)),
                v.ident.span(),
            ),
        };
        if let (Some(_), Fields::Unnamed(_) | Fields::Unit) = (attrs.rename_all, &v.fields) {
            return Err(syn::Error::new(
                v.ident.span(),
                "`rename_all` on a variant renames the fields of a struct variant; this variant \
                 has no named fields",
            ));
        }
        out.push(Variant {
            ident: v.ident.clone(),
            name,
            name_span,
            aliases: attrs
                .aliases
                .iter()
                .map(|l| (l.value(), l.span()))
                .collect(),
            shape: {
                let shape = shape(&v.fields, attrs.rename_all)?;
                if let Some(r) = shape.fields.iter().find_map(|f| f.rules.first()) {
                    return Err(syn::Error::new(
                        r.span,
                        "constraints apply to the fields of structs; for a variant's field, \
                         wrap it in a newtype struct that declares them",
                    ));
                }
                if let Some(f) = shape.fields.iter().find(|f| f.skip_write || f.skip_read) {
                    return Err(syn::Error::new(
                        f.name_span,
                        "`skip_write` and `skip_read` apply to the fields of structs, not of enum \
                         variants",
                    ));
                }
                if let Some(f) = shape.fields.iter().find(|f| f.flatten) {
                    return Err(syn::Error::new(
                        f.name_span,
                        "`flatten` applies to the fields of structs, not of enum variants",
                    ));
                }
                shape
            },
            other: attrs.other,
        });
    }
    Ok(out)
}
