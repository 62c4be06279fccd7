//! JSON Schema (draft 2020-12) from the same description that reads and writes a type.
//!
//! [`JsonSchema`] is implemented by `#[derive(Reflect)]` and by every std and feature type that
//! implements [`Reflect`](crate::Reflect); [`json_schema`] turns it into a
//! complete schema document. The schema describes what structio's JSON reader accepts under the
//! default [`ReadOptions`](crate::ReadOptions): the keys as written (after `rename` and
//! `rename_all`), the members a document may leave out, `additionalProperties: false` because
//! unknown keys are errors, the four enum representations, flattened members, integer ranges,
//! fixed lengths, formats, doc comments as `description`, and the constraints a member
//! declares (`length`, `range`, `pattern`, `one_of`, `items`) as `minLength`/`maxLength`,
//! `minItems`/`maxItems`, `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum`,
//! `pattern` and `enum`.
//!
//! ```
//! /// A user account.
//! #[derive(structio::Reflect)]
//! #[structio(rename_all = "camelCase")]
//! struct Account {
//!     /// Shown to other users.
//!     display_name: String,
//!     age: Option<u8>,
//! }
//!
//! let schema = structio::json_schema::<Account>();
//! assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
//! assert_eq!(schema["description"], "A user account.");
//! assert_eq!(schema["properties"]["displayName"]["type"], "string");
//! assert_eq!(schema["properties"]["age"]["maximum"].as_u64(), Some(255));
//! assert_eq!(schema["required"][0], "displayName");
//! assert_eq!(schema["additionalProperties"], false);
//! ```
//!
//! Named types (derived structs and enums) are described once, in the document's `$defs`, and
//! referred to with `$ref`, so recursive types have finite schemas. The root type is written at
//! the top of the document (its definition stays in `$defs` only when something refers to it).

#![forbid(unsafe_code)]

pub(crate) mod derive_support;
pub(crate) mod impls;
pub(crate) mod rules;

use std::collections::{HashMap, HashSet};

use crate::value::{Array, Map, Value};

/// The `$schema` of the documents [`json_schema`] makes: JSON Schema draft
/// 2020-12.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// A type that can describe its JSON form as a JSON Schema (draft 2020-12).
///
/// What it is for: telling the producers of documents what a structio reader will accept
/// (an HTTP API's request bodies, the arguments of a tool a language model calls, a config
/// file's editor support), from the same description that reads and writes the type, so that
/// the two never drift apart.
///
/// `#[derive(Reflect)]` implements it beside `Reflect` (with a `JsonSchema` bound on the type
/// parameters its members use); structio implements it for every std and feature type that
/// implements `Reflect`. Call [`crate::json_schema`] for a complete document.
///
/// A member of a derived type whose type does not implement `JsonSchema` (a hand-written
/// `Reflect` impl, a `with` module, a `serde` member) is described by `{}`, which accepts any
/// value. Implement this trait for such a type to describe it:
///
/// ```
/// use structio::schema::SchemaGenerator;
/// use structio::{JsonSchema, Value};
///
/// struct Celsius(f64);
///
/// impl JsonSchema for Celsius {
///     fn json_schema(_: &mut SchemaGenerator) -> Value {
///         Value::from_iter([("type", Value::from("number")), ("minimum", Value::from(-273.15))])
///     }
/// }
/// ```
pub trait JsonSchema {
    /// The schema of the type: the schema itself for a type described inline, or a
    /// `{"$ref": "#/$defs/Name"}` for a named type, whose definition `gen` keeps (see
    /// [`SchemaGenerator::named`]).
    fn json_schema(gen: &mut SchemaGenerator) -> Value;

    /// The schema of the type's values as keys of a JSON object (the text of a map key,
    /// used as the map's `propertyNames`). The default is [`JsonSchema::json_schema`], right
    /// for strings and for the names of unit-only enums; the integers override it (an integer
    /// key is written in quotes).
    fn key_schema(gen: &mut SchemaGenerator) -> Value {
        Self::json_schema(gen)
    }

    /// Whether a struct member of this type may be left out of a document (as
    /// [`Reflect::MAY_BE_ABSENT`](crate::Reflect::MAY_BE_ABSENT) says: `Option`, and what wraps
    /// one): such a member is not `required`. Default `false`.
    fn may_be_absent() -> bool {
        false
    }
}

/// The complete JSON Schema document (draft 2020-12) of `T`, as a [`Value`]: `$schema`, the
/// schema of `T` at the top, and the definitions of the named types it uses in `$defs`.
///
/// ```
/// #[derive(structio::Reflect)]
/// #[structio(tag = "kind")]
/// enum Shape {
///     Circle { radius: f64 },
///     Square { side: f64 },
/// }
///
/// let schema = structio::json_schema::<Shape>();
/// let variants = schema["oneOf"].as_array().unwrap();
/// assert_eq!(variants.len(), 2);
/// assert_eq!(variants[0]["properties"]["kind"]["const"], "Circle");
/// println!("{}", structio::prettify(&structio::to_json(&schema)).unwrap());
/// ```
pub fn json_schema<T: JsonSchema + ?Sized>() -> Value {
    SchemaGenerator::new().root_schema::<T>()
}

/// Collects the definitions of named types while schemas are built (the document's `$defs`).
///
/// A named type (every derived struct and enum) adds its definition once, under a name made
/// from its Rust type name without module paths (`Page_User` for `Page<User>`; a number is
/// appended when two types would share a name), and is referred to by `$ref` everywhere,
/// itself included: recursive types work.
#[derive(Debug, Default)]
pub struct SchemaGenerator {
    /// The definitions made, in the order they were finished.
    defs: Map,
    /// The definition name of each named type seen (by its full type name), including those
    /// still being built.
    names: HashMap<&'static str, String>,
    /// Every definition name given out.
    taken: HashSet<String>,
}

impl SchemaGenerator {
    /// A generator with no definitions yet.
    pub fn new() -> SchemaGenerator {
        SchemaGenerator::default()
    }

    /// The schema of `T` (a `$ref` for a named type), its definitions added here.
    pub fn subschema_for<T: JsonSchema + ?Sized>(&mut self) -> Value {
        T::json_schema(self)
    }

    /// The `$ref` to the definition of the named type `id` (a full Rust type name, such as
    /// `std::any::type_name::<Self>()`), building it with `build` the first time. A type met
    /// again while its definition is being built (a recursive type) gets its `$ref` at once.
    pub fn named(&mut self, id: &'static str, build: impl FnOnce(&mut Self) -> Value) -> Value {
        if let Some(name) = self.names.get(id) {
            return reference(name);
        }
        let name = self.fresh_name(id);
        self.names.insert(id, name.clone());
        let schema = build(self);
        self.defs.insert(name.clone(), schema);
        reference(&name)
    }

    /// The definitions made so far, by name (what `$defs` holds).
    pub fn definitions(&self) -> &Map {
        &self.defs
    }

    /// The definitions made so far, taken out of the generator.
    pub fn take_definitions(&mut self) -> Map {
        std::mem::take(&mut self.defs)
    }

    /// The schema `schema` stands for: the definition a `$ref` to `#/$defs/...` names (one this
    /// generator made), else `schema` itself.
    pub fn resolve<'a>(&'a self, schema: &'a Value) -> &'a Value {
        ref_name(schema)
            .and_then(|name| self.defs.get(name))
            .unwrap_or(schema)
    }

    /// The complete document for `T` (see [`crate::json_schema`]).
    pub fn root_schema<T: JsonSchema + ?Sized>(mut self) -> Value {
        let top = T::json_schema(&mut self);
        let mut defs = self.take_definitions();
        let (mut body, title) = match ref_name(&top).map(str::to_string) {
            Some(name) => {
                let body = defs.get(&name).cloned().unwrap_or_default();
                let target = format!("#/$defs/{name}");
                let used =
                    refers_to(&body, &target) || defs.values().any(|d| refers_to(d, &target));
                if !used {
                    defs.remove(&name);
                }
                (body, Some(name))
            }
            None => (top, None),
        };
        let mut root = Map::new();
        root.insert("$schema", Value::from(DRAFT_2020_12));
        if let Some(title) = title {
            root.insert("title", Value::from(title));
        }
        match body.as_object_mut() {
            Some(members) => {
                for (k, v) in std::mem::take(members) {
                    root.insert(k, v);
                }
            }
            // Only objects are made; anything else is kept under `allOf`.
            None => {
                root.insert("allOf", Value::Array(Array::from(vec![body])));
            }
        }
        if !defs.is_empty() {
            root.insert("$defs", Value::Object(defs));
        }
        Value::Object(root)
    }

    /// A definition name for the type `id` not given out yet.
    fn fresh_name(&mut self, id: &str) -> String {
        let base = def_name(id);
        let mut name = base.clone();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }
}

/// `{"$ref": "#/$defs/name"}`.
fn reference(name: &str) -> Value {
    object([("$ref", Value::from(format!("#/$defs/{name}")))])
}

/// The definition name a `{"$ref": "#/$defs/name", ...}` names.
fn ref_name(schema: &Value) -> Option<&str> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
}

/// Whether `$ref: target` occurs anywhere in `schema` (walked without recursion).
fn refers_to(schema: &Value, target: &str) -> bool {
    let mut work = vec![schema];
    while let Some(v) = work.pop() {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if k == "$ref" && x.as_str() == Some(target) {
                        return true;
                    }
                    work.push(x);
                }
            }
            Value::Array(a) => work.extend(a.iter()),
            _ => {}
        }
    }
    false
}

/// The definition name of a Rust type name: module paths dropped, generic arguments joined
/// with `_` (`my::Page<my::User>` becomes `Page_User`), only ASCII letters, digits and `_`
/// kept, so the name needs no escaping in a JSON pointer or a URI.
fn def_name(id: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let mut rest = id;
    while let Some(c) = rest.chars().next() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            rest = &rest[1..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("::") {
            // A module: dropped.
            word.clear();
            rest = after;
            continue;
        }
        if !word.is_empty() {
            out.push_str(&word);
            word.clear();
        }
        if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
        rest = &rest[c.len_utf8()..];
    }
    out.push_str(&word);
    let trimmed = out.trim_end_matches('_');
    if trimmed.is_empty() {
        "Type".to_string()
    } else {
        trimmed.to_string()
    }
}

/// An object schema from `members`.
pub(crate) fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    let mut m = Map::with_capacity(N);
    for (k, v) in members {
        m.insert(k, v);
    }
    Value::Object(m)
}

/// An array of values.
pub(crate) fn array(items: Vec<Value>) -> Value {
    Value::Array(Array::from(items))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definition_names() {
        assert_eq!(def_name("my_crate::models::User"), "User");
        assert_eq!(def_name("a::Page<a::b::User>"), "Page_User");
        assert_eq!(
            def_name("a::Pair<i32, alloc::string::String>"),
            "Pair_i32_String"
        );
        assert_eq!(def_name("a::Wrap<[u8; 4]>"), "Wrap_u8_4");
        assert_eq!(def_name("a::Wrap<&str>"), "Wrap_str");
        assert_eq!(def_name("<>"), "Type");
    }

    #[test]
    fn named_types_get_distinct_names_and_refs() {
        let mut g = SchemaGenerator::new();
        let a = g.named("x::T", |_| object([("type", Value::from("null"))]));
        let b = g.named("y::T", |_| object([("type", Value::from("string"))]));
        let again = g.named("x::T", |_| unreachable!());
        assert_eq!(a["$ref"], "#/$defs/T");
        assert_eq!(b["$ref"], "#/$defs/T2");
        assert_eq!(again, a);
        assert_eq!(g.resolve(&b)["type"], "string");
        assert_eq!(g.definitions().len(), 2);
    }

    #[test]
    fn recursive_definitions_refer_to_themselves() {
        let mut g = SchemaGenerator::new();
        let r = g.named("x::Node", |g| {
            let inner = g.named("x::Node", |_| unreachable!());
            object([("items", inner)])
        });
        assert_eq!(r["$ref"], "#/$defs/Node");
        assert_eq!(g.definitions()["Node"]["items"]["$ref"], "#/$defs/Node");
    }
}
