//! The `boundary` target's oracle: `json::parse` and `beve::parse` on any bytes.
//!
//! - `parse` accepts exactly what the trusted reader accepts, and gives the same value;
//! - a rejected document's report is not empty, holds at most `max_issues` issues (plus the
//!   one that stopped reading), each pointing inside the input, and prints;
//! - the BEVE of the same document (through `Value`; documents that repeat a key, which a
//!   `Value` cannot hold, are left out) gets the same issues: kinds and pointers, in the same
//!   order (messages may word a type error differently);
//! - `check` on an accepted value finds nothing;
//! - the same for [`Held`], whose [`Pair`]s (a struct with a container rule) sit in every
//!   shape that reads a struct's members without its own `read` or around it: flattened (once
//!   and twice), the newtype payload of an internally tagged enum (also flattening one), of an
//!   externally and an adjacently tagged one, in a `Vec` and an `Option`; and every `Pair` in
//!   a value any of `from_json`, `json::parse`, `from_beve`, `beve::parse` or reading into a
//!   used value accepts keeps its rule, checked by calling the rule on each (not by the
//!   readers' own `check`, which could miss the same pair they missed).

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

fn pair_ok(p: &Pair) -> Result<(), String> {
    if p.a <= p.b {
        Ok(())
    } else {
        Err("a after b".into())
    }
}

/// A struct with a container rule (and a field constraint).
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
#[structio(check = "pair_ok")]
pub struct Pair {
    #[structio(range(min = -9, max = 9))]
    pub a: i32,
    pub b: i32,
}

/// [`Pair`] flattened.
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
pub struct FlatPair {
    pub id: Option<u8>,
    #[structio(flatten)]
    pub pair: Pair,
}

/// [`Pair`] in the newtype payloads of an internally tagged enum, once through [`FlatPair`].
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(tag = "type")]
pub enum Tagged {
    P(Pair),
    F(FlatPair),
    U { x: u8 },
}

/// [`Pair`] as an externally tagged newtype payload.
#[derive(Reflect, Debug, Clone, PartialEq)]
pub enum External {
    P(Pair),
    N(u8),
}

/// [`Pair`] as an adjacently tagged newtype payload.
#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(tag = "t", content = "c")]
pub enum Adjacent {
    P(Pair),
    N(u8),
}

/// Pairs in every shape: `{"id":1,"a":0,"b":1,"tagged":[{"type":"P","a":0,"b":1}],...}`.
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
pub struct Held {
    #[structio(flatten)]
    pub flat: FlatPair,
    #[structio(default)]
    pub tagged: Vec<Tagged>,
    pub ext: Option<External>,
    pub adj: Option<Adjacent>,
}

impl Held {
    /// Every [`Pair`] it holds.
    fn pairs(&self) -> Vec<&Pair> {
        let mut out = vec![&self.flat.pair];
        for t in &self.tagged {
            match t {
                Tagged::P(p) | Tagged::F(FlatPair { pair: p, .. }) => out.push(p),
                Tagged::U { .. } => {}
            }
        }
        if let Some(External::P(p)) = &self.ext {
            out.push(p);
        }
        if let Some(Adjacent::P(p)) = &self.adj {
            out.push(p);
        }
        out
    }

    /// Asserts that every pair keeps its rules; `how` names the reader.
    fn assert_kept(&self, how: &str) {
        for p in self.pairs() {
            assert!(
                pair_ok(p).is_ok(),
                "{how} accepted a pair that breaks its rule: {p:?}"
            );
            assert!(
                (-9..=9).contains(&p.a),
                "{how} accepted a pair out of range: {p:?}"
            );
        }
    }
}

/// The properties of [`check`] for [`Held`], on JSON text `data`.
fn held(data: &[u8]) {
    let trusted = structio::from_json::<Held>(data);
    let parsed = structio::json::parse::<Held>(data);
    if let Ok(v) = &trusted {
        v.assert_kept("from_json");
        assert!(
            structio::check(v).is_ok(),
            "check refuses what from_json accepted"
        );
    }
    if let Ok(v) = &parsed {
        v.assert_kept("json::parse");
    }
    assert_eq!(
        trusted.is_ok(),
        parsed.is_ok(),
        "from_json and json::parse disagree"
    );
    // Into a used value: one that holds a pair in every place, all keeping the rules.
    let mut used = Held {
        flat: FlatPair {
            id: Some(1),
            pair: Pair { a: 1, b: 2 },
        },
        tagged: vec![
            Tagged::P(Pair { a: 1, b: 2 }),
            Tagged::F(FlatPair::default()),
        ],
        ext: Some(External::P(Pair { a: 1, b: 2 })),
        adj: Some(Adjacent::P(Pair { a: 1, b: 2 })),
    };
    if structio::read_json(&mut used, data).is_ok() {
        used.assert_kept("read_json");
        assert!(trusted.is_ok(), "read_json accepted what from_json refused");
    }
    // The BEVE of the same document.
    let Ok(v) = structio::from_json::<structio::Value>(data) else {
        return;
    };
    let bytes = structio::to_beve(&v);
    let trusted = structio::from_beve::<Held>(&bytes);
    if let Ok(v) = &trusted {
        v.assert_kept("from_beve");
    }
    if let Ok(v) = structio::beve::parse::<Held>(&bytes) {
        v.assert_kept("beve::parse");
        assert!(
            trusted.is_ok(),
            "beve::parse accepted what from_beve refused"
        );
    }
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
    held(data);
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
