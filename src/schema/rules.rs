//! Declared constraints ([`Rule`]) as JSON Schema keywords: `length` as `minLength` /
//! `maxLength` (strings), `minItems` / `maxItems` (arrays) or `minProperties` /
//! `maxProperties` (maps); `range` as `minimum`, `maximum`, `exclusiveMinimum`,
//! `exclusiveMaximum`; `pattern` as `pattern`; `one_of` as `enum`; `items(..)` on the schema of
//! the elements (`items`) or of the map's values (`additionalProperties`). A `check` function
//! has no keyword; it is left out.

use super::{array, SchemaGenerator};
use crate::constraint::{Bound, Choice, Rule};
use crate::value::{Map, Value};

/// `schema` with the keywords of `rules` added (the schema of a member that declares them).
/// A `$ref` keeps its target and gets the keywords beside it, which draft 2020-12 applies
/// together.
pub fn constrain(schema: Value, rules: &[Rule], gen: &SchemaGenerator) -> Value {
    if rules.is_empty() {
        return schema;
    }
    let kinds = Kinds::of(gen.resolve(&schema), gen);
    let mut m = match schema {
        Value::Object(m) => m,
        other => {
            let mut m = Map::new();
            m.insert("allOf", array(vec![other]));
            m
        }
    };
    for rule in rules {
        apply(&mut m, rule, kinds, gen);
    }
    Value::Object(m)
}

/// Which JSON types a schema may take, as far as its `type` (or its `anyOf` branches') says;
/// all of them when it does not say.
#[derive(Clone, Copy)]
struct Kinds {
    string: bool,
    array: bool,
    object: bool,
    null: bool,
}

impl Kinds {
    fn of(schema: &Value, gen: &SchemaGenerator) -> Kinds {
        let none = Kinds {
            string: false,
            array: false,
            object: false,
            null: false,
        };
        let add = |mut k: Kinds, t: &str| {
            match t {
                "string" => k.string = true,
                "array" => k.array = true,
                "object" => k.object = true,
                "null" => k.null = true,
                _ => {}
            }
            k
        };
        match schema.get("type") {
            Some(Value::String(t)) => add(none, t.as_str()),
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).fold(none, add),
            _ => match schema.get("anyOf").and_then(Value::as_array) {
                Some(branches) if !branches.is_empty() => {
                    let mut k = none;
                    for b in branches {
                        let bk = Kinds::of(gen.resolve(b), gen);
                        k.string |= bk.string;
                        k.array |= bk.array;
                        k.object |= bk.object;
                        k.null |= bk.null;
                    }
                    k
                }
                _ => Kinds {
                    string: true,
                    array: true,
                    object: true,
                    null: true,
                },
            },
        }
    }
}

/// A bound as a JSON number.
fn number(b: Bound) -> Value {
    match b {
        Bound::Int(i) => Value::from(i),
        Bound::Float(f) => Value::from(f),
    }
}

/// Adds the keywords of `rule` to the schema `m`, which takes values of `kinds`.
fn apply(m: &mut Map, rule: &Rule, kinds: Kinds, gen: &SchemaGenerator) {
    match *rule {
        Rule::Length { min, max, bytes } => {
            if kinds.string {
                // JSON Schema counts characters. A byte count bounds them loosely: at most
                // `max` characters, at least a quarter of `min` (four bytes per character).
                let min_chars = if bytes {
                    min.map(|n| n.div_ceil(4))
                } else {
                    min
                };
                put_range(m, "minLength", "maxLength", min_chars, max);
            }
            if kinds.array {
                put_range(m, "minItems", "maxItems", min, max);
            }
            if kinds.object {
                put_range(m, "minProperties", "maxProperties", min, max);
            }
        }
        Rule::Range {
            min,
            max,
            exclusive_min,
            exclusive_max,
        } => {
            for (key, b) in [
                ("minimum", min),
                ("maximum", max),
                ("exclusiveMinimum", exclusive_min),
                ("exclusiveMaximum", exclusive_max),
            ] {
                if let Some(b) = b {
                    m.insert(key, number(b));
                }
            }
        }
        Rule::Pattern(p) => {
            m.insert("pattern", Value::from(p));
        }
        Rule::OneOf(choices) => {
            let mut values: Vec<Value> = choices
                .iter()
                .map(|c| match *c {
                    Choice::Str(s) => Value::from(s),
                    Choice::Num(b) => number(b),
                })
                .collect();
            // An `Option` member's `None` is not checked.
            if kinds.null {
                values.push(Value::Null);
            }
            m.insert("enum", array(values));
        }
        Rule::Items(inner) => {
            let mut done = false;
            for key in ["items", "additionalProperties"] {
                if let Some(elem) = m.get_mut(key) {
                    if !matches!(elem, Value::Bool(_)) {
                        let e = std::mem::take(elem);
                        *elem = constrain(e, inner, gen);
                        done = true;
                    }
                }
            }
            if !done {
                // The elements' schema is elsewhere (behind a `$ref`): the rules go beside it.
                let each = constrain(Value::Object(Map::new()), inner, gen);
                let mut extra = Map::new();
                extra.insert("items", each.clone());
                extra.insert("additionalProperties", each);
                let all = m
                    .get_or_insert_with("allOf", || array(Vec::new()))
                    .as_array_mut();
                if let Some(all) = all {
                    all.push(Value::Object(extra));
                }
            }
        }
        Rule::Check(_) => {}
    }
}

/// `min` and `max` under the keys `lo` and `hi`.
fn put_range(m: &mut Map, lo: &str, hi: &str, min: Option<u64>, max: Option<u64>) {
    if let Some(n) = min {
        m.insert(lo, Value::from(n));
    }
    if let Some(n) = max {
        m.insert(hi, Value::from(n));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::JsonSchema;

    fn with<T: JsonSchema>(rules: &[Rule]) -> Value {
        let mut g = SchemaGenerator::new();
        let s = T::json_schema(&mut g);
        constrain(s, rules, &g)
    }

    #[test]
    fn keywords_by_type() {
        let len = [Rule::Length {
            min: Some(1),
            max: Some(8),
            bytes: false,
        }];
        let s = with::<String>(&len);
        assert_eq!(s["minLength"].as_u64(), Some(1));
        assert_eq!(s["maxLength"].as_u64(), Some(8));
        assert!(s.get("minItems").is_none());
        let v = with::<Vec<u8>>(&len);
        assert_eq!(v["minItems"].as_u64(), Some(1));
        assert!(v.get("minLength").is_none());
        let m = with::<std::collections::BTreeMap<String, u8>>(&len);
        assert_eq!(m["maxProperties"].as_u64(), Some(8));
        let b = with::<String>(&[Rule::Length {
            min: Some(5),
            max: Some(8),
            bytes: true,
        }]);
        assert_eq!(b["minLength"].as_u64(), Some(2));
        let r = with::<Option<i32>>(&[Rule::Range {
            min: Some(Bound::Int(-1)),
            max: None,
            exclusive_min: None,
            exclusive_max: Some(Bound::Float(2.5)),
        }]);
        assert_eq!(r["minimum"].as_i64(), Some(-1));
        assert_eq!(r["exclusiveMaximum"].as_f64(), Some(2.5));
        let e = with::<Option<String>>(&[Rule::OneOf(&[Choice::Str("a"), Choice::Str("b")])]);
        assert_eq!(crate::to_json(&e["enum"]), r#"["a","b",null]"#);
        let i = with::<Vec<String>>(&[Rule::Items(&[Rule::Pattern("^x")])]);
        assert_eq!(i["items"]["pattern"], "^x");
    }
}
