//! The pieces `#[derive(Reflect)]` builds a type's schema with: object schemas with members
//! and flattened fields, the enum representations, descriptions, and the probe that describes a
//! member whose type does not implement [`JsonSchema`] as `{}`. For derived code only (it
//! reaches them through `__private`): names and signatures may change without notice.

use std::marker::PhantomData;

use super::{array, object, JsonSchema, SchemaGenerator};
use crate::value::{Map, Value};

/// Stands for the type `T` in derived code, to ask for its schema whether or not `T`
/// implements [`JsonSchema`]: `(&SchemaProbe::<T>::NEW).schema_of(gen)` is `T`'s schema when it
/// does (through [`ViaJsonSchema`]), `{}` otherwise (through [`ViaAnySchema`], which method
/// lookup reaches one auto-reference later).
pub struct SchemaProbe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> SchemaProbe<T> {
    /// The probe.
    pub const NEW: SchemaProbe<T> = SchemaProbe(PhantomData);
}

/// The probe's answer for a type that implements [`JsonSchema`].
pub trait ViaJsonSchema {
    /// The type's schema.
    fn schema_of(&self, gen: &mut SchemaGenerator) -> Value;
    /// [`JsonSchema::may_be_absent`] of the type.
    fn may_be_absent(&self) -> bool;
}

impl<T: JsonSchema + ?Sized> ViaJsonSchema for SchemaProbe<T> {
    #[inline]
    fn schema_of(&self, gen: &mut SchemaGenerator) -> Value {
        T::json_schema(gen)
    }
    #[inline]
    fn may_be_absent(&self) -> bool {
        T::may_be_absent()
    }
}

/// The probe's answer for a type that does not implement [`JsonSchema`]: any value (`{}`),
/// required.
pub trait ViaAnySchema {
    /// `{}`.
    fn schema_of(&self, gen: &mut SchemaGenerator) -> Value;
    /// `false`.
    fn may_be_absent(&self) -> bool;
}

impl<T: ?Sized> ViaAnySchema for &SchemaProbe<T> {
    #[inline]
    fn schema_of(&self, _: &mut SchemaGenerator) -> Value {
        any()
    }
    #[inline]
    fn may_be_absent(&self) -> bool {
        false
    }
}

/// `{}`: any value.
pub fn any() -> Value {
    Value::Object(Map::new())
}

/// `schema` with `doc` as its `description` (unchanged when `doc` is empty). Beside a `$ref`
/// the description applies to this use of the type.
pub fn describe(mut schema: Value, doc: &str) -> Value {
    if doc.is_empty() {
        return schema;
    }
    match schema.as_object_mut() {
        Some(m) => {
            // First, where a reader looks for it.
            let mut described = Map::with_capacity(m.len() + 1);
            described.insert("description", Value::from(doc));
            for (k, v) in std::mem::take(m) {
                if k != "description" {
                    described.insert(k, v);
                }
            }
            Value::Object(described)
        }
        None => object([
            ("description", Value::from(doc)),
            ("allOf", array(vec![schema])),
        ]),
    }
}

/// `{"const": name}`: one variant name or tag.
pub fn constant(name: &str) -> Value {
    object([("const", Value::from(name))])
}

/// `schema` with the annotation `keyword: true` (`readOnly` for a `skip_read` member, which is
/// only ever written; `writeOnly` for a `skip_write` one, only ever read).
pub fn annotate(mut schema: Value, keyword: &str) -> Value {
    match schema.as_object_mut() {
        Some(m) => {
            m.insert(keyword, Value::Bool(true));
            schema
        }
        None => object([(keyword, Value::Bool(true)), ("allOf", array(vec![schema]))]),
    }
}

/// `{"type": "string"}`: any string (the names of an enum with a `#[structio(other)]`
/// variant, which reads every name).
pub fn any_string() -> Value {
    object([("type", Value::from("string"))])
}

/// `{"type": "string", "enum": [names...]}`: a unit-only enum, written as its variant names
/// (`{"not": {}}`, nothing, for an enum without variants).
pub fn names(names: &[&str]) -> Value {
    if names.is_empty() {
        return never();
    }
    object([
        ("type", Value::from("string")),
        (
            "enum",
            array(names.iter().map(|&n| Value::from(n)).collect()),
        ),
    ])
}

/// `{"type": "integer", "enum": [discriminants...]}`: a unit-only enum marked
/// `#[structio(as_integer)]`; any integer (`{"type": "integer"}`) with an `other` variant.
pub fn integers(discriminants: &[i128], repr: crate::NumKind, other: bool) -> Value {
    if other {
        return object([("type", Value::from("integer"))]);
    }
    if discriminants.is_empty() {
        return never();
    }
    object([
        ("type", Value::from("integer")),
        (
            "enum",
            array(
                discriminants
                    .iter()
                    .map(|&d| match repr {
                        // Stored `as i128`: a `u128` past `i128::MAX` wrapped.
                        crate::NumKind::U128 => Value::from(d as u128),
                        _ => Value::from(d),
                    })
                    .collect(),
            ),
        ),
    ])
}

/// The keys such an enum is as a map key: the discriminants' decimal text (`{"type":
/// "string", "enum": ["0", "3"]}`), or any canonical integer with an `other` variant.
pub fn integer_keys(discriminants: &[i128], repr: crate::NumKind, other: bool) -> Value {
    if other {
        return object([
            ("type", Value::from("string")),
            ("pattern", Value::from("^-?(0|[1-9][0-9]*)$")),
        ]);
    }
    if discriminants.is_empty() {
        return never();
    }
    object([
        ("type", Value::from("string")),
        (
            "enum",
            array(
                discriminants
                    .iter()
                    .map(|&d| match repr {
                        crate::NumKind::U128 => Value::from((d as u128).to_string()),
                        _ => Value::from(d.to_string()),
                    })
                    .collect(),
            ),
        ),
    ])
}

/// `{"not": {}}`: no value (an enum without variants).
pub fn never() -> Value {
    object([("not", any())])
}

/// `{"oneOf": [...]}`: exactly one of `variants` (tagged enums; nothing without variants).
pub fn one_of(variants: impl IntoIterator<Item = Value>) -> Value {
    let variants: Vec<Value> = variants.into_iter().collect();
    if variants.is_empty() {
        return never();
    }
    object([("oneOf", array(variants))])
}

/// `{"anyOf": [...]}`: at least one of `variants` (untagged enums, whose variants may
/// overlap: the reader takes the first that reads; nothing without variants).
pub fn any_of(variants: impl IntoIterator<Item = Value>) -> Value {
    let variants: Vec<Value> = variants.into_iter().collect();
    if variants.is_empty() {
        return never();
    }
    object([("anyOf", array(variants))])
}

/// An array of exactly the given elements, in order (tuples, tuple structs and variants).
pub fn tuple(items: impl IntoIterator<Item = Value>) -> Value {
    let items: Vec<Value> = items.into_iter().collect();
    let n = items.len();
    object([
        ("type", Value::from("array")),
        ("prefixItems", array(items)),
        ("items", Value::Bool(false)),
        ("minItems", Value::from(n)),
        ("maxItems", Value::from(n)),
    ])
}

/// `null` (unit structs and unit variants of untagged enums).
pub fn null() -> Value {
    object([("type", Value::from("null"))])
}

/// An externally tagged variant: its name (a unit variant), or an object with one member, the
/// name, holding the payload.
pub fn external(name: &str, payload: Option<Value>) -> Value {
    match payload {
        None => constant(name),
        Some(payload) => {
            let mut o = ObjectSchema::new();
            o.member(name, payload, true, "");
            o.finish("")
        }
    }
}

/// An adjacently tagged variant: `{tag: name, content: payload}` (no content for a unit
/// variant).
pub fn adjacent(tag: &str, content: &str, name: &str, payload: Option<Value>) -> Value {
    let mut o = ObjectSchema::new();
    o.member(tag, constant(name), true, "");
    if let Some(payload) = payload {
        o.member(content, payload, true, "");
    }
    o.finish("")
}

/// The schema of an object with known members, built member by member: a derived struct, a
/// struct variant, an internally tagged variant.
#[derive(Debug)]
pub struct ObjectSchema {
    properties: Map,
    required: Vec<Value>,
    /// `additionalProperties`: `false` (unknown keys are errors), a schema (a flattened map
    /// keeps them), or none (any value).
    additional: Option<Value>,
}

impl Default for ObjectSchema {
    fn default() -> Self {
        ObjectSchema::new()
    }
}

impl ObjectSchema {
    /// No members; other keys are refused.
    pub fn new() -> ObjectSchema {
        ObjectSchema {
            properties: Map::new(),
            required: Vec::new(),
            additional: Some(Value::Bool(false)),
        }
    }

    /// Adds the member `name` with the schema of its value, described by `doc`.
    pub fn member(&mut self, name: &str, schema: Value, required: bool, doc: &str) {
        self.properties.insert(name, describe(schema, doc));
        if required {
            self.required.push(Value::from(name));
        }
    }

    /// Adds the members of a flattened field whose schema is `schema` (a derived struct's, or
    /// a map's): its properties and required keys; a map's value schema becomes the schema of
    /// the keys no member takes.
    pub fn flatten(&mut self, gen: &SchemaGenerator, schema: &Value) {
        let flat = gen.resolve(schema);
        if let Some(props) = flat.get("properties").and_then(Value::as_object) {
            for (k, v) in props {
                self.properties.insert(k, v.clone());
            }
        }
        if let Some(req) = flat.get("required").and_then(Value::as_array) {
            self.required.extend(req.iter().cloned());
        }
        match flat.get("additionalProperties") {
            Some(Value::Bool(false)) => {}
            Some(other) => self.additional = Some(other.clone()),
            None => self.additional = None,
        }
    }

    /// The schema, described by `doc`.
    pub fn finish(self, doc: &str) -> Value {
        let mut m = Map::new();
        if !doc.is_empty() {
            m.insert("description", Value::from(doc));
        }
        m.insert("type", Value::from("object"));
        if !self.properties.is_empty() {
            m.insert("properties", Value::Object(self.properties));
        }
        if !self.required.is_empty() {
            m.insert("required", array(self.required));
        }
        if let Some(additional) = self.additional {
            m.insert("additionalProperties", additional);
        }
        Value::Object(m)
    }
}
