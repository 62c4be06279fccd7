//! The documents of the boundary bench (`benches/boundary.rs`) and of its callgrind harness
//! (`examples/boundary_read.rs`): the aggregate Reified.Schema measures, a 24-field record and
//! lists of it, each with structio constraints and the same rules for `garde`.

use garde::Validate;
use serde::{Deserialize, Serialize};

/// The nested record of (a).
#[derive(structio::Reflect, Serialize, Deserialize, Validate, Debug, Clone, PartialEq)]
pub struct Address {
    #[garde(skip)]
    street: String,
    #[garde(skip)]
    city: String,
    #[garde(skip)]
    zip: String,
}

/// (a): seven primitive fields, one nested record, two collections; name and age constrained.
#[derive(structio::Reflect, Serialize, Deserialize, Validate, Debug, Clone, PartialEq)]
pub struct Person {
    #[garde(skip)]
    id: u64,
    #[structio(length(min = 1, max = 64))]
    #[garde(length(chars, min = 1, max = 64))]
    name: String,
    #[structio(range(min = 0, max = 150))]
    #[garde(range(min = 0, max = 150))]
    age: u32,
    #[garde(skip)]
    email: String,
    #[garde(skip)]
    active: bool,
    #[garde(skip)]
    score: f64,
    #[garde(skip)]
    rank: i32,
    #[garde(dive)]
    address: Address,
    #[garde(skip)]
    tags: Vec<String>,
    #[garde(skip)]
    scores: Vec<f64>,
}

/// (b): 24 fields, eight of them constrained.
#[derive(structio::Reflect, Serialize, Deserialize, Validate, Debug, Clone, PartialEq)]
pub struct Wide {
    #[garde(skip)]
    f00: u64,
    #[structio(length(min = 1, max = 32))]
    #[garde(length(chars, min = 1, max = 32))]
    f01: String,
    #[structio(range(min = 0, max = 1000))]
    #[garde(range(min = 0, max = 1000))]
    f02: i32,
    #[garde(skip)]
    f03: f64,
    #[garde(skip)]
    f04: bool,
    #[structio(length(max = 64))]
    #[garde(length(chars, max = 64))]
    f05: String,
    #[garde(skip)]
    f06: u32,
    #[structio(range(min = -1.0, max = 1.0))]
    #[garde(range(min = -1.0, max = 1.0))]
    f07: f64,
    #[garde(skip)]
    f08: String,
    #[garde(skip)]
    f09: i64,
    #[structio(length(max = 8))]
    #[garde(length(max = 8))]
    f10: Vec<u32>,
    #[garde(skip)]
    f11: bool,
    #[structio(range(max = 255))]
    #[garde(range(max = 255))]
    f12: u16,
    #[garde(skip)]
    f13: String,
    #[garde(skip)]
    f14: f32,
    #[structio(length(min = 1, max = 16))]
    #[garde(length(chars, min = 1, max = 16))]
    f15: String,
    #[garde(skip)]
    f16: u8,
    #[garde(skip)]
    f17: i16,
    #[structio(range(min = 1))]
    #[garde(range(min = 1))]
    f18: u64,
    #[garde(skip)]
    f19: String,
    #[garde(skip)]
    f20: Vec<String>,
    #[garde(skip)]
    f21: bool,
    #[garde(skip)]
    f22: f64,
    #[garde(skip)]
    f23: String,
}

/// Record (a) number `i`.
pub fn person(i: u64) -> Person {
    Person {
        id: i,
        name: format!("Person {i}"),
        age: (i % 100) as u32,
        email: format!("person{i}@example.com"),
        active: i.is_multiple_of(2),
        score: i as f64 * 0.25,
        rank: -(i as i32),
        address: Address {
            street: "1 Main Street".into(),
            city: "Springfield".into(),
            zip: "12345".into(),
        },
        tags: vec!["a".into(), "bb".into(), "ccc".into()],
        scores: vec![1.5, 2.5, 3.5],
    }
}

/// Record (b) number `i`.
pub fn wide(i: u64) -> Wide {
    Wide {
        f00: i,
        f01: format!("record-{i}"),
        f02: (i % 1000) as i32,
        f03: i as f64 / 3.0,
        f04: true,
        f05: "a description of modest length".into(),
        f06: 7,
        f07: 0.5,
        f08: "free text".into(),
        f09: -(i as i64),
        f10: vec![1, 2, 3],
        f11: false,
        f12: 200,
        f13: "more text".into(),
        f14: 1.25,
        f15: "short".into(),
        f16: 8,
        f17: -16,
        f18: 1 + i,
        f19: "x".into(),
        f20: vec!["p".into(), "q".into()],
        f21: true,
        f22: 3.75,
        f23: "the end".into(),
    }
}

/// `doc` with every member replaced by a value that breaks its constraint or its type.
pub fn broken(doc: &str) -> String {
    let mut v: structio::Value = structio::from_json(doc).unwrap();
    fn each(v: &mut structio::Value) {
        match v {
            structio::Value::Array(a) => a.iter_mut().for_each(each),
            structio::Value::Object(m) => {
                for (_, x) in m.iter_mut() {
                    *x = match x {
                        structio::Value::String(_) => structio::Value::from(""),
                        structio::Value::Number(_) => structio::Value::from("nan"),
                        structio::Value::Bool(_) => structio::Value::from(3u8),
                        other => {
                            each(other);
                            continue;
                        }
                    };
                }
            }
            _ => {}
        }
    }
    each(&mut v);
    structio::to_json(&v)
}
