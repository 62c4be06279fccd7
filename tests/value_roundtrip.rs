//! `Value` through both formats: BEVE -> `Value` -> BEVE is byte-identical for every Glaze file,
//! JSON -> `Value` -> JSON gives the same values, and random values survive both formats.

#[path = "common/files.rs"]
mod files;

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use structio::value::{IntMap, Num, TypedArray};
use structio::{Map, NumKind, Value};

/// The files ending in `ext` in `dir` (relative to the repository root), sorted; panics if
/// there are none.
fn golden(dir: &str, ext: &str) -> Vec<PathBuf> {
    files::list(&files::path(dir), ext)
}

fn name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

const EXCHANGE: &str = "formats/beve/exchange";
const BENCH_BEVE: &str = "formats/beve/bench";
const BENCH_JSON: &str = "formats/json/bench";
const CORPUS: &str = "tests/data/corpus";

/// Reads a BEVE file into a `Value` and checks that writing it back gives the same bytes.
fn beve_identity(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap();
    let v: Value = structio::from_beve(&bytes).unwrap_or_else(|e| panic!("{}: {e}", name(path)));
    let back = structio::to_beve(&v);
    assert!(
        back == bytes,
        "{}: BEVE -> Value -> BEVE changed the bytes",
        name(path)
    );
    let again: Value = structio::from_beve(&back).unwrap();
    assert_eq!(again, v, "{}", name(path));
    v
}

#[test]
fn glaze_exchange_beve_round_trips_byte_identical() {
    for p in golden(EXCHANGE, ".beve") {
        beve_identity(&p);
    }
}

#[test]
fn glaze_bench_beve_round_trips_byte_identical() {
    for p in golden(BENCH_BEVE, ".beve") {
        beve_identity(&p);
    }
}

/// Reads JSON text into a `Value`, writes it, reads that again: the values must be equal and
/// writing must then be stable. Returns the value and the written text.
fn json_identity(label: &str, text: &[u8]) -> (Value, String) {
    let v: Value = structio::from_json(text).unwrap_or_else(|e| panic!("{label}: {e}"));
    let out = structio::to_json(&v);
    let back: Value =
        structio::from_json(&out).unwrap_or_else(|e| panic!("{label} (written): {e}"));
    assert!(
        back == v,
        "{label}: JSON -> Value -> JSON changed the value"
    );
    assert!(
        structio::to_json(&back) == out,
        "{label}: writing is not stable"
    );
    (v, out)
}

#[test]
fn json_corpus_round_trips_value_identical() {
    let corpus = golden(CORPUS, ".json");
    assert_eq!(corpus.len(), 3, "twitter, citm_catalog, canada");
    for p in corpus {
        json_identity(&name(&p), &std::fs::read(&p).unwrap());
    }
}

#[test]
fn glaze_bench_json_round_trips_byte_identical() {
    for p in golden(BENCH_JSON, ".json") {
        let text = std::fs::read(&p).unwrap();
        let (_, out) = json_identity(&name(&p), &text);
        // Glaze writes compact JSON in the same key order with the same number spelling.
        if !name(&p).ends_with(".pretty.json") {
            assert!(
                out.as_bytes() == &text[..],
                "{}: not byte-identical",
                name(&p)
            );
        }
    }
}

#[test]
fn glaze_exchange_json_round_trips_value_identical() {
    for p in golden(EXCHANGE, ".json") {
        // strings.json holds raw control characters (Glaze's default), which is not JSON.
        if name(&p) == "strings.json" {
            continue;
        }
        json_identity(&name(&p), &std::fs::read(&p).unwrap());
    }
}

#[test]
fn bench_documents_hold_the_same_values_in_both_formats() {
    let (json, beve) = (golden(BENCH_JSON, ".json"), golden(BENCH_BEVE, ".beve"));
    for b in beve {
        let stem = name(&b).trim_end_matches(".beve").to_string();
        let j = json
            .iter()
            .find(|p| name(p) == format!("{stem}.json"))
            .unwrap();
        let from_beve: Value = structio::from_beve(&std::fs::read(&b).unwrap()).unwrap();
        let from_json: Value = structio::from_json(&std::fs::read(j).unwrap()).unwrap();
        // Typed arrays equal generic arrays of equal numbers, so the two reads agree.
        assert!(
            from_beve == from_json,
            "{stem}: BEVE and JSON values differ"
        );
    }
}

#[test]
fn json_numbers_keep_integers_exact() {
    let v: Value =
        structio::from_json("[1, -1, 9223372036854775807, 18446744073709551615, 1.5, 1e2, -0]")
            .unwrap();
    let kinds: Vec<NumKind> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_number().unwrap().kind())
        .collect();
    use NumKind::*;
    // `-0` keeps its sign as the float -0.0.
    assert_eq!(kinds, [I64, I64, I64, U64, F64, F64, F64]);
    assert_eq!(v[3].as_u64(), Some(u64::MAX));
    assert_eq!(v[2].as_i64(), Some(i64::MAX));
    assert_eq!(
        structio::to_json(&v),
        "[1,-1,9223372036854775807,18446744073709551615,1.5,100,-0]"
    );
}

#[test]
fn json_objects_keep_order_and_the_last_repeated_key() {
    let v: Value = structio::from_json(r#"{"b":1,"a":null,"b":[true]}"#).unwrap();
    assert_eq!(
        v.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["b", "a"]
    );
    assert_eq!(structio::to_json(&v), r#"{"b":[true],"a":null}"#);
    assert_eq!(v.to_string(), r#"{"b":[true],"a":null}"#);
}

#[test]
fn json_errors_carry_the_path() {
    let e = structio::from_json::<Value>(r#"{"a": [1, {"b": tru}]}"#).unwrap_err();
    assert_eq!(e.path(), "$[\"a\"][1][\"b\"]");
}

#[test]
fn json_depth_limit_holds() {
    let ok = format!("{}{}", "[".repeat(256), "]".repeat(256));
    assert!(structio::from_json::<Value>(&ok).is_ok());
    let deep = format!("{}{}", "[".repeat(257), "]".repeat(257));
    let e = structio::from_json::<Value>(&deep).unwrap_err();
    assert_eq!(e.category(), structio::Category::Limit);
}

#[test]
fn beve_keeps_every_kind() {
    let mut ints = IntMap::new(NumKind::I8);
    ints.insert(-1i8, Value::from(vec![Value::from(1u8)]));
    let v = Value::from_iter([
        ("i8", Value::from(-3i8)),
        ("u128", Value::from(u128::MAX)),
        ("f16", Value::from(half::f16::from_f32(1.5))),
        ("bf16s", Value::from(vec![half::bf16::from_f32(2.0)])),
        ("ints", Value::IntObject(ints)),
        ("strs", Value::from(vec!["x", "y"])),
        (
            "generic",
            Value::from(vec![Value::from(1i32), Value::from(2i32)]),
        ),
    ]);
    let bytes = structio::to_beve(&v);
    let back: Value = structio::from_beve(&bytes).unwrap();
    assert_eq!(back, v);
    assert_eq!(back["i8"].as_number().unwrap().kind(), NumKind::I8);
    assert!(
        matches!(back["generic"], Value::Array(_)),
        "a generic array stays generic"
    );
    assert_eq!(structio::to_beve(&back), bytes);
}

/// A complex<f64> (1+2i) and a complex<f32> array as Glaze writes them: BEVE extension 3.
fn extensions() -> Vec<Vec<u8>> {
    let mut single = vec![0x1e, 0x60];
    single.extend(1.0f64.to_le_bytes());
    single.extend(2.0f64.to_le_bytes());
    let mut array = vec![0x1e, 0x41, 0x08];
    for x in [1.0f32, -1.0, 0.5, 0.25] {
        array.extend(x.to_le_bytes());
    }
    vec![single, array]
}

#[test]
fn extensions_are_kept_verbatim_and_transcoded_to_json() {
    for ext in extensions() {
        let v: Value = structio::from_beve(&ext).unwrap();
        assert_eq!(v, Value::Extension(ext.clone()));
        assert_eq!(structio::to_beve(&v), ext);
    }
    let v = Value::Extension(extensions()[0].clone());
    assert_eq!(structio::to_json(&v), "[1,2]");
}

/// Finite floats (NaN never equals itself).
fn finite() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("finite", |f| f.is_finite())
}

/// Numbers of every kind; `json` keeps to what JSON keeps exactly (no f32/f16/bf16, whose
/// decimal text reads back as a different f64, and nothing wider than 64 bits).
fn num(json: bool) -> BoxedStrategy<Num> {
    let common = prop_oneof![
        any::<i8>().prop_map(Num::from),
        any::<i16>().prop_map(Num::from),
        any::<i32>().prop_map(Num::from),
        any::<i64>().prop_map(Num::from),
        any::<u8>().prop_map(Num::from),
        any::<u16>().prop_map(Num::from),
        any::<u32>().prop_map(Num::from),
        any::<u64>().prop_map(Num::from),
        finite().prop_map(Num::from),
    ];
    if json {
        return common.boxed();
    }
    prop_oneof![
        common,
        any::<i128>().prop_map(Num::from),
        any::<u128>().prop_map(Num::from),
        any::<f32>()
            .prop_filter("not NaN", |f| !f.is_nan())
            .prop_map(Num::from),
        any::<u16>()
            .prop_map(half::f16::from_bits)
            .prop_filter("not NaN", |f| !f.is_nan())
            .prop_map(Num::from),
        any::<u16>()
            .prop_map(half::bf16::from_bits)
            .prop_filter("not NaN", |f| !f.is_nan())
            .prop_map(Num::from),
    ]
    .boxed()
}

/// Up to 8 elements.
fn v<S: Strategy>(s: S) -> proptest::collection::VecStrategy<S> {
    proptest::collection::vec(s, 0..8)
}

fn typed(json: bool) -> BoxedStrategy<TypedArray> {
    let common = prop_oneof![
        v(any::<i8>()).prop_map(TypedArray::from),
        v(any::<u16>()).prop_map(TypedArray::from),
        v(any::<i32>()).prop_map(TypedArray::from),
        v(any::<u64>()).prop_map(TypedArray::from),
        v(finite()).prop_map(TypedArray::from),
        v(any::<bool>()).prop_map(TypedArray::from),
        v(any::<String>()).prop_map(TypedArray::from),
    ];
    if json {
        return common.boxed();
    }
    prop_oneof![
        common,
        v(any::<i128>()).prop_map(TypedArray::from),
        v(any::<f32>().prop_filter("not NaN", |f| !f.is_nan())).prop_map(TypedArray::from),
    ]
    .boxed()
}

/// Values up to a few levels deep.
fn value(json: bool) -> impl Strategy<Value = Value> {
    let mut leaf = vec![
        Just(Value::Null).boxed(),
        any::<bool>().prop_map(Value::Bool).boxed(),
        num(json).prop_map(Value::Number).boxed(),
        any::<String>().prop_map(Value::String).boxed(),
        typed(json).prop_map(Value::Typed).boxed(),
    ];
    if !json {
        leaf.push(
            proptest::sample::select(extensions())
                .prop_map(Value::Extension)
                .boxed(),
        );
    }
    proptest::strategy::Union::new(leaf).prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            proptest::collection::vec((any::<String>(), inner.clone()), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map>())),
            (
                proptest::sample::select(vec![
                    NumKind::I8,
                    NumKind::U16,
                    NumKind::I64,
                    NumKind::U64
                ]),
                proptest::collection::vec((any::<i64>(), inner), 0..6)
            )
                .prop_map(|(kind, kv)| {
                    let mut m = IntMap::new(kind);
                    for (k, v) in kv {
                        // Keep the keys that fit the map's key type.
                        let _ = m.try_insert(k, v);
                    }
                    Value::IntObject(m)
                }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_value_survives_beve(v in value(false)) {
        let bytes = structio::to_beve(&v);
        let back: Value = structio::from_beve(&bytes).unwrap();
        prop_assert_eq!(&back, &v);
        prop_assert_eq!(structio::to_beve(&back), bytes);
    }

    #[test]
    fn any_json_value_survives_json(v in value(true)) {
        let text = structio::to_json(&v);
        let back: Value = structio::from_json(&text).unwrap();
        prop_assert_eq!(&back, &v);
        prop_assert_eq!(structio::to_json(&back), text);
    }
}

/// The exchange files whose JSON Glaze's own `beve_to_json` reproduces (INDEX.tsv).
const SAME_JSON: [&str; 8] = [
    "scalars",
    "typed_arrays",
    "generic_arrays",
    "maps",
    "optionals",
    "nested",
    "variants",
    "complex",
];

#[test]
fn glaze_beve_as_value_writes_glazes_json() {
    let beve = golden(EXCHANGE, ".beve");
    for stem in SAME_JSON {
        let b = beve
            .iter()
            .find(|p| name(p) == format!("{stem}.beve"))
            .unwrap();
        let j = b.with_extension("json");
        let v: Value = structio::from_beve(&std::fs::read(b).unwrap()).unwrap();
        let glaze = String::from_utf8(std::fs::read(&j).unwrap()).unwrap();
        assert_eq!(structio::to_json(&v), glaze, "{stem}");
    }
}
