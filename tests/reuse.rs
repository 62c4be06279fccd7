//! Reading into a used value gives exactly what reading into a new one gives, in both formats
//! and through every reader (typed, NDJSON, delimited BEVE), for random values read over random
//! earlier contents: a left-out `Option` member becomes `None`, an enum's payload is the
//! document's, a map holds the document's entries only. `ReadOptions::merge` keeps Glaze's
//! merging read, which these tests also pin.

use std::collections::{BTreeMap, HashMap};

use proptest::prelude::*;
use structio::beve::{read_delimited, to_delimited, Delimited};
use structio::json::{read_ndjson, to_ndjson, JsonLines};
use structio::Reflect;

#[derive(Reflect, Debug, Clone, PartialEq, Default)]
struct Inner {
    label: String,
    note: Option<String>,
    weights: Vec<f64>,
}

#[derive(Reflect, Debug, Clone, PartialEq, Default)]
struct Extra {
    flag: Option<bool>,
    count: u32,
}

#[derive(Reflect, Debug, Clone, PartialEq, Default)]
#[structio(tag = "kind")]
enum Internal {
    #[default]
    Empty,
    Named {
        a: Option<u8>,
        b: String,
    },
}

#[derive(Reflect, Debug, Clone, PartialEq, Default)]
#[structio(tag = "t", content = "c")]
enum Adjacent {
    #[default]
    Off,
    Level(i32),
    Pair {
        x: Option<i16>,
        y: Vec<u8>,
    },
}

#[derive(Reflect, Debug, Clone, PartialEq, Default)]
enum External {
    #[default]
    Nothing,
    Text(String),
    Shape {
        w: u16,
        h: Option<u16>,
        inner: Option<Inner>,
    },
}

#[derive(Reflect, Debug, Clone, PartialEq, Default)]
struct Record {
    id: u64,
    note: Option<String>,
    inner: Inner,
    maybe_inner: Option<Inner>,
    tags: Vec<String>,
    by_name: HashMap<String, Vec<u16>>,
    sorted: BTreeMap<u32, Option<String>>,
    internal: Internal,
    adjacent: Adjacent,
    external: External,
    #[structio(flatten)]
    extra: Extra,
}

fn text() -> impl Strategy<Value = String> {
    "[a-z]{0,6}"
}

fn inner() -> impl Strategy<Value = Inner> {
    (
        text(),
        proptest::option::of(text()),
        proptest::collection::vec(-1e3f64..1e3, 0..4),
    )
        .prop_map(|(label, note, weights)| Inner {
            label,
            note,
            weights,
        })
}

fn record() -> impl Strategy<Value = Record> {
    let internal = prop_oneof![
        Just(Internal::Empty),
        (proptest::option::of(any::<u8>()), text()).prop_map(|(a, b)| Internal::Named { a, b }),
    ];
    let adjacent = prop_oneof![
        Just(Adjacent::Off),
        any::<i32>().prop_map(Adjacent::Level),
        (
            proptest::option::of(any::<i16>()),
            proptest::collection::vec(any::<u8>(), 0..3)
        )
            .prop_map(|(x, y)| Adjacent::Pair { x, y }),
    ];
    let external = prop_oneof![
        Just(External::Nothing),
        text().prop_map(External::Text),
        (
            any::<u16>(),
            proptest::option::of(any::<u16>()),
            proptest::option::of(inner())
        )
            .prop_map(|(w, h, inner)| External::Shape { w, h, inner }),
    ];
    (
        (
            any::<u64>(),
            proptest::option::of(text()),
            inner(),
            proptest::option::of(inner()),
            proptest::collection::vec(text(), 0..4),
        ),
        (
            proptest::collection::hash_map(
                text(),
                proptest::collection::vec(any::<u16>(), 0..3),
                0..4,
            ),
            proptest::collection::btree_map(0u32..20, proptest::option::of(text()), 0..4),
            internal,
            adjacent,
            external,
            (proptest::option::of(any::<bool>()), any::<u32>())
                .prop_map(|(flag, count)| Extra { flag, count }),
        ),
    )
        .prop_map(
            |(
                (id, note, inner, maybe_inner, tags),
                (by_name, sorted, internal, adjacent, external, extra),
            )| {
                Record {
                    id,
                    note,
                    inner,
                    maybe_inner,
                    tags,
                    by_name,
                    sorted,
                    internal,
                    adjacent,
                    external,
                    extra,
                }
            },
        )
}

/// `doc` written, then read into a copy of `used`, through JSON and BEVE, equals the fresh read
/// of the same bytes (which is `doc` except for map entries holding `None`, which the writers
/// leave out as Glaze does).
fn check_one(doc: &Record, used: &Record) {
    let json = structio::to_json(doc);
    let beve = structio::to_beve(doc);
    let fresh_json: Record = structio::from_json(&json).unwrap();
    let fresh_beve: Record = structio::from_beve(&beve).unwrap();
    assert_eq!(fresh_json, fresh_beve, "{json}");
    let mut v = used.clone();
    structio::read_json(&mut v, &json).unwrap();
    assert_eq!(v, fresh_json, "JSON over a used value\n{json}");
    let mut v = used.clone();
    structio::read_beve(&mut v, &beve).unwrap();
    assert_eq!(v, fresh_beve, "BEVE over a used value\n{json}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn a_used_value_reads_as_a_fresh_one(doc in record(), used in record()) {
        check_one(&doc, &used);
    }

    #[test]
    fn used_records_read_as_fresh_ones_through_ndjson_and_delimited_beve(
        docs in proptest::collection::vec(record(), 0..6),
        used in proptest::collection::vec(record(), 0..6),
    ) {
        let lines = to_ndjson(&docs);
        let fresh: Vec<Record> = structio::json::from_ndjson(&lines).unwrap();
        let mut v = used.clone();
        read_ndjson(&mut v, &lines).unwrap();
        prop_assert_eq!(&v, &fresh);
        let mut it = JsonLines::new(&lines);
        let mut one = used.first().cloned().unwrap_or_default();
        for d in &fresh {
            it.read_into(&mut one).unwrap().unwrap();
            prop_assert_eq!(&one, d);
        }
        let seq = to_delimited(&docs);
        let fresh: Vec<Record> = structio::beve::from_delimited(&seq).unwrap();
        let mut v = used.clone();
        read_delimited(&mut v, &seq).unwrap();
        prop_assert_eq!(&v, &fresh);
        let mut it = Delimited::new(&seq);
        let mut one = used.first().cloned().unwrap_or_default();
        for d in &fresh {
            it.read_into(&mut one).unwrap().unwrap();
            prop_assert_eq!(&one, d);
        }
    }
}

/// The case from the report: a record written with `note: None` (left out) read into one that
/// held `Some("halted")`.
#[test]
fn a_left_out_option_member_becomes_none() {
    let used = Record {
        note: Some("halted".into()),
        ..Record::default()
    };
    check_one(&Record::default(), &used);
}

/// A map read over one with other keys holds the document's keys only; a repeated key in the
/// document (last one wins, as in a fresh read) does not hide a stale entry.
#[test]
fn a_map_holds_the_documents_entries_only() {
    let mut m: BTreeMap<String, u8> = [("a".to_string(), 1), ("b".to_string(), 2)].into();
    structio::read_json(&mut m, r#"{"a":5,"a":6}"#).unwrap();
    assert_eq!(m, [("a".to_string(), 6)].into());
    let mut h: HashMap<u32, u8> = [(1, 1), (2, 2), (3, 3)].into();
    structio::read_json(&mut h, r#"{"2":9,"4":8}"#).unwrap();
    assert_eq!(h, [(2, 9), (4, 8)].into());
    // Same keys: read in place.
    structio::read_json(&mut h, r#"{"4":1,"2":2}"#).unwrap();
    assert_eq!(h, [(2, 2), (4, 1)].into());
}

/// A struct that keeps unknown keys in a flattened map.
#[derive(Reflect, Debug, Clone, PartialEq, Default)]
struct Open {
    id: u32,
    #[structio(flatten)]
    rest: BTreeMap<String, Option<String>>,
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// A flattened map read over one with other keys holds the document's keys only.
    #[test]
    fn a_flattened_map_reads_as_a_fresh_one(
        doc in (any::<u32>(), proptest::collection::btree_map("[a-z]{1,4}", proptest::option::of(text()), 0..5)),
        used in (any::<u32>(), proptest::collection::btree_map("[a-z]{1,4}", proptest::option::of(text()), 0..5)),
    ) {
        let doc = Open { id: doc.0, rest: doc.1.into_iter().filter(|(k, _)| k != "id").collect() };
        let used = Open { id: used.0, rest: used.1 };
        let json = structio::to_json(&doc);
        let beve = structio::to_beve(&doc);
        let fresh: Open = structio::from_json(&json).unwrap();
        let mut v = used.clone();
        structio::read_json(&mut v, &json).unwrap();
        prop_assert_eq!(&v, &fresh);
        let mut v = used.clone();
        structio::read_beve(&mut v, &beve).unwrap();
        prop_assert_eq!(&v, &fresh);
    }
}

/// `ReadOptions::merge` keeps Glaze's merging read: left-out members and entries stay.
#[test]
fn the_merge_option_keeps_what_the_document_leaves_out() {
    let mut opts = structio::json::Options::default();
    opts.read.merge = true;
    opts.read.error_on_missing_keys = false;
    let mut v = Record {
        note: Some("kept".into()),
        sorted: [(7, None)].into(),
        ..Record::default()
    };
    let doc = r#"{"id":3,"sorted":{"8":"x"}}"#;
    structio::json::read_json_with(&mut v, doc, &opts).unwrap();
    assert_eq!(v.id, 3);
    assert_eq!(v.note.as_deref(), Some("kept"));
    assert_eq!(v.sorted, [(7, None), (8, Some("x".into()))].into());
    opts.read.merge = false;
    structio::json::read_json_with(&mut v, doc, &opts).unwrap();
    assert_eq!(v.note, None);
    assert_eq!(v.sorted, [(8, Some("x".into()))].into());
}
