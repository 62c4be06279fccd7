//! The `boundary` target's oracle: `json::parse` and `beve::parse` on any bytes.
//!
//! - `parse` accepts exactly what the trusted reader accepts, and gives the same value;
//! - a rejected document's report is not empty, holds at most `max_issues` issues (plus the
//!   one that stopped reading), each pointing inside the input, and prints;
//! - the BEVE of the same document (through `Value`; documents that repeat a key, which a
//!   `Value` cannot hold, are left out) gets the same issues: kinds and pointers, in the same
//!   order (messages may word a type error differently);
//! - `check` on an accepted value finds nothing.

use std::collections::BTreeMap;

use structio::{ParseOptions, Reflect, Report};

#[derive(Reflect, Debug, Clone, PartialEq)]
pub struct Inner {
    #[structio(length(min = 1, max = 4))]
    pub name: String,
    #[structio(range(min = -5, max = 5))]
    pub n: i32,
    pub opt: Option<u8>,
}

fn even(v: &u32) -> Result<(), String> {
    if v & 1 == 0 {
        Ok(())
    } else {
        Err("odd".into())
    }
}

fn small_sum(d: &Doc) -> Result<(), String> {
    if d.inner.len() <= 3 {
        Ok(())
    } else {
        Err("too many".into())
    }
}

#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(check = "small_sum")]
pub struct Doc {
    #[structio(pattern = "^[a-c]*$", length(max = 6))]
    pub slug: String,
    #[structio(one_of("x", "y"))]
    pub tier: Option<String>,
    #[structio(items(range(max = 9), check = "even"))]
    pub nums: Vec<u32>,
    pub inner: Vec<Inner>,
    #[structio(items(length(max = 2)))]
    pub map: BTreeMap<String, String>,
    #[structio(alias = "f2", range(exclusive_min = 0.0))]
    pub f: f64,
    #[structio(default)]
    pub flag: bool,
}

/// The issues as (kind, pointer).
fn shape(r: &Report) -> Vec<(structio::IssueKind, String)> {
    r.issues()
        .iter()
        .map(|i| (i.kind(), i.pointer().to_string()))
        .collect()
}

/// Checks the properties on `data` (JSON text).
pub fn check(data: &[u8]) {
    let opts = ParseOptions {
        max_issues: 5,
        ..ParseOptions::default()
    };
    let trusted = structio::from_json::<Doc>(data);
    let parsed = structio::json::parse_with::<Doc>(data, &opts);
    match (&trusted, &parsed) {
        (Ok(a), Ok(b)) => {
            assert!(a == b || a.f.is_nan(), "parse read another value");
            assert!(
                structio::check(a).is_ok(),
                "check refuses what parse accepted"
            );
        }
        (Err(_), Err(r)) => {
            assert!(!r.issues().is_empty());
            assert!(r.issues().len() <= opts.max_issues + 1, "{r}");
            for i in r.issues() {
                assert!(i.offset().unwrap() <= data.len(), "{r}");
                assert!(i.line_column().is_some());
            }
            let _ = r.to_string();
            let _ = r.to_problem_details();
        }
        (Ok(_), Err(r)) => panic!("parse refused what from_json accepted: {r}"),
        (Err(e), Ok(_)) => panic!("parse accepted what from_json refused: {e}"),
    }
    // The same document in BEVE. A `Value` keeps one entry per key, so a document that repeats
    // a key has no BEVE twin (its BEVE holds the last value only): those are not compared.
    let once = structio::json::Options {
        read: structio::ReadOptions {
            error_on_duplicate_keys: true,
            ..structio::ReadOptions::default()
        },
        ..structio::json::Options::default()
    };
    let Ok(v) = structio::json::from_json_with::<structio::Value>(data, &once) else {
        return;
    };
    let bytes = structio::to_beve(&v);
    let beve = structio::beve::parse_with::<Doc>(&bytes, &opts);
    match (&parsed, &beve) {
        (Ok(_), Ok(_)) => {}
        (Err(j), Err(b)) => assert_eq!(shape(j), shape(b), "JSON:\n{j}\nBEVE:\n{b}"),
        (j, b) => panic!("JSON and BEVE disagree: {:?} / {:?}", j.is_ok(), b.is_ok()),
    }
}
