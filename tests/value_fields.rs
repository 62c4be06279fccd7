//! `Value` and its containers as fields of derived structs, in both formats; values far deeper
//! than any stack would allow for recursion; aligned BEVE arrays.

use structio::value::{IntMap, TypedArray};
use structio::{Map, NumKind, ReadOptions, Value};

#[derive(structio::Reflect, Default, Debug, PartialEq)]
struct Envelope {
    id: u32,
    payload: Value,
    extra: Option<Value>,
    meta: Map,
    by_id: IntMap,
    samples: TypedArray,
}

fn envelope() -> Envelope {
    let mut by_id = IntMap::new(NumKind::I64);
    by_id.insert(-2, Value::from("minus two"));
    by_id.insert(40, Value::from(vec![1u8, 2]));
    Envelope {
        id: 7,
        payload: Value::from_iter([
            ("n", Value::from(u64::MAX)),
            ("list", Value::from(vec![Value::Null, Value::from(1.5)])),
            ("s", Value::from("\"quoted\"")),
        ]),
        extra: None,
        meta: Map::from_iter([("k", Value::from(true))]),
        by_id,
        samples: TypedArray::from(vec![0.25f64, -1.0]),
    }
}

#[test]
fn value_fields_round_trip_in_json() {
    let e = envelope();
    let text = structio::to_json(&e);
    assert_eq!(
        text,
        concat!(
            r#"{"id":7,"payload":{"n":18446744073709551615,"list":[null,1.5],"s":"\"quoted\""},"#,
            r#""meta":{"k":true},"by_id":{"-2":"minus two","40":[1,2]},"samples":[0.25,-1]}"#
        )
    );
    let back: Envelope = structio::from_json(&text).unwrap();
    // JSON has no typed arrays or integer keys; the fields take them back from their types.
    assert_eq!(back, e);
    assert_eq!(back.by_id.kind(), NumKind::I64);
    assert_eq!(back.samples, TypedArray::F64(vec![0.25, -1.0]));
    assert_eq!(structio::to_json(&back), text);
}

#[test]
fn value_fields_round_trip_in_beve() {
    let e = envelope();
    let bytes = structio::to_beve(&e);
    let back: Envelope = structio::from_beve(&bytes).unwrap();
    assert_eq!(back, e);
    assert_eq!(structio::to_beve(&back), bytes);
    // The struct's BEVE read as a dynamic value writes the same JSON as the struct.
    let dynamic: Value = structio::from_beve(&bytes).unwrap();
    assert_eq!(structio::to_json(&dynamic), structio::to_json(&e));
    assert_eq!(structio::to_beve(&dynamic), bytes);
}

#[test]
fn value_field_errors_name_the_field() {
    let e = structio::from_json::<Envelope>(r#"{"payload":{"a":[1,tru]}}"#).unwrap_err();
    assert_eq!(e.path(), "$.payload[\"a\"][1]");
    let e = structio::from_json::<Envelope>(r#"{"by_id":{"x":1}}"#).unwrap_err();
    assert_eq!(e.message(), "expected an integer for an integer map key");
    let e = structio::from_json::<Envelope>(r#"{"meta":[]}"#).unwrap_err();
    assert_eq!(e.message(), "expected an object, found an array");
    assert_eq!(e.path(), "$.meta");
}

/// Arrays nested `depth` deep, built without recursion.
fn deep(depth: usize) -> Value {
    let mut v = Value::from("bottom");
    for _ in 0..depth {
        v = Value::from(vec![v]);
    }
    v
}

const DEEP: usize = 1_000_000;

#[test]
fn a_million_levels_drop_compare_and_write() {
    let (a, b) = (deep(DEEP), deep(DEEP));
    assert!(a == b);
    let text = structio::to_json(&a);
    assert_eq!(text.len(), 2 * DEEP + "\"bottom\"".len());
    let bytes = structio::to_beve(&a);
    drop((a, b));

    // Reading is bounded by the depth limit, not by the stack.
    let read = ReadOptions {
        max_depth: DEEP,
        ..ReadOptions::default()
    };
    let json_opts = structio::json::Options {
        read,
        ..Default::default()
    };
    let from_json: Value = structio::json::from_json_with(&text, &json_opts).unwrap();
    let beve_opts = structio::beve::Options {
        read,
        ..Default::default()
    };
    let from_beve: Value = structio::beve::from_beve_with(&bytes, &beve_opts).unwrap();
    assert!(from_json == from_beve);
    assert!(
        structio::from_json::<Value>(&text).is_err(),
        "default limit is 256"
    );
}

#[test]
fn aligned_beve_round_trips_with_to_beve_aligned() {
    let v = Value::from_iter([
        ("a", Value::from(vec![1.0f64, 2.0, 3.0])),
        (
            "b",
            Value::from(vec![Value::from(vec![7u32, 8]), Value::from(vec![-1i16])]),
        ),
        ("c", Value::from(vec![1u8, 2])),
    ]);
    let aligned = structio::to_beve_aligned(&v);
    assert_ne!(
        &aligned[..],
        &structio::to_beve(&v)[..],
        "arrays are padded"
    );
    let back: Value = structio::from_beve(&aligned[..]).unwrap();
    assert_eq!(back, v);
    assert_eq!(&structio::to_beve_aligned(&back)[..], &aligned[..]);
}
