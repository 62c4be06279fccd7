//! The oracle of the `serde_bridge` target: `structio::serde::from_json` / `from_beve` on any
//! bytes (a selector byte, then the document: even for JSON, odd for BEVE).
//!
//! - Reading never panics; a rejected input's error prints and points inside the input (JSON
//!   errors with a line and column), as for every other reader.
//! - A document read into `Doc` (a type deriving both serde's traits and `Reflect`) is written
//!   by the bridge exactly as structio's derive writes it, in both formats, and reads back
//!   through the bridge to a value written the same way again.
//! - A document read into `structio::Value` through the bridge is written by the bridge as
//!   structio writes that value (JSON), and equals the value structio's own reader gives.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A shape with the bridge's interesting cases: typed arrays, rows, optional members, maps
/// with string and integer keys, an enum with data, recursion through `Option<Box<_>>`.
#[derive(structio::Reflect, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
pub struct Doc {
    pub name: String,
    pub id: u64,
    pub tags: Vec<String>,
    pub xs: Vec<f64>,
    pub pts: Vec<[f32; 2]>,
    pub flags: Vec<bool>,
    pub by_name: BTreeMap<String, i32>,
    pub by_id: BTreeMap<u16, Option<bool>>,
    pub shape: Shape,
    pub tuple: (i8, String),
    pub next: Option<Box<Doc>>,
}

/// An externally tagged enum with newtype, struct and tuple variants.
#[derive(structio::Reflect, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub enum Shape {
    Circle(f64),
    Rect { w: u32, h: u32 },
    Named(String, i64),
}

impl Default for Shape {
    fn default() -> Shape {
        Shape::Circle(0.0)
    }
}

/// The bridge's output for `d` equals the derive's, in both formats.
fn writes_as_derived(d: &Doc) -> (String, Vec<u8>) {
    let json = structio::serde::to_json(d);
    assert_eq!(
        json,
        structio::to_json(d),
        "bridge JSON differs from the derive's"
    );
    let beve = structio::serde::to_beve(d);
    assert_eq!(
        beve,
        structio::to_beve(d),
        "bridge BEVE differs from the derive's"
    );
    (json, beve)
}

/// A rejected input's error prints and points inside the input.
fn clean(e: &structio::Error, input: &[u8], json: bool) {
    let _ = e.to_string();
    assert!(
        e.offset() <= input.len(),
        "error offset past the input: {e}"
    );
    if json {
        assert!(
            e.line_column().is_some(),
            "JSON error without a position: {e}"
        );
    }
}

/// See the module documentation.
pub fn check(data: &[u8]) {
    let Some((&sel, doc)) = data.split_first() else {
        return;
    };
    let json = sel & 1 == 0;
    let read = if json {
        structio::serde::from_json::<Doc>(doc)
    } else {
        structio::serde::from_beve::<Doc>(doc)
    };
    match read {
        Err(e) => clean(&e, doc, json),
        Ok(d) => {
            let (text, bytes) = writes_as_derived(&d);
            let a: Doc = structio::serde::from_json(&text)
                .unwrap_or_else(|e| panic!("the bridge's JSON does not read back: {e}\n{text}"));
            assert_eq!(
                writes_as_derived(&a).0,
                text,
                "JSON round trip changed the value"
            );
            let b: Doc = structio::serde::from_beve(&bytes)
                .unwrap_or_else(|e| panic!("the bridge's BEVE does not read back: {e}"));
            assert_eq!(
                writes_as_derived(&b).1,
                bytes,
                "BEVE round trip changed the value"
            );
        }
    }
    let value = if json {
        structio::serde::from_json::<structio::Value>(doc)
    } else {
        structio::serde::from_beve::<structio::Value>(doc)
    };
    match value {
        Err(e) => clean(&e, doc, json),
        Ok(v) => {
            let native: structio::Value = if json {
                structio::from_json(doc)
            } else {
                structio::from_beve(doc)
            }
            .unwrap_or_else(|e| panic!("the bridge read a Value structio rejects: {e}"));
            if !format!("{native:?}").contains("NaN") {
                assert_eq!(v, native, "the bridge read another Value");
            }
            assert_eq!(
                structio::serde::to_json(&v),
                structio::to_json(&v),
                "bridge JSON of a Value differs"
            );
        }
    }
}
