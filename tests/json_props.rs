//! Properties of the JSON backend on generated input: dynamic values round-trip in both
//! layouts, and damaged documents never panic and get the same verdict from every reader.

mod json_common;

use json_common::Any;
use proptest::prelude::*;
use structio::json::{to_json_with, Options};
use structio::Wire;

fn number() -> impl Strategy<Value = Wire> {
    prop_oneof![
        any::<u64>().prop_map(|u| Wire::Uint(u as u128)),
        any::<i64>().prop_map(|i| Wire::Int(i.min(-1) as i128)),
        any::<u128>().prop_map(Wire::Uint),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Wire::F64),
        (-1000i32..1000, 0u32..4).prop_map(|(a, b)| Wire::F64(a as f64 / 2f64.powi(b as i32))),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,12}",
        "\\PC{0,20}",
        proptest::collection::vec(any::<char>(), 0..24).prop_map(|v| v.into_iter().collect()),
        "[\"\\\\\\x00-\\x1f/a]{0,40}",
    ]
}

fn value() -> impl Strategy<Value = Any> {
    let leaf = prop_oneof![
        Just(Any::Null),
        any::<bool>().prop_map(Any::Bool),
        number().prop_map(Any::Num),
        text().prop_map(Any::Str),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Any::Arr),
            proptest::collection::vec((text(), inner), 0..8).prop_map(Any::Obj),
        ]
    })
}

/// Equality with numbers compared by value (an integral float is written without `.0`).
fn same(a: &Any, b: &Any) -> bool {
    fn num(w: &Wire) -> f64 {
        match *w {
            Wire::Int(i) => i as f64,
            Wire::Uint(u) => u as f64,
            Wire::F32(f) => f as f64,
            Wire::F64(f) => f,
        }
    }
    match (a, b) {
        (Any::Num(x), Any::Num(y)) => {
            x == y || (num(x) == num(y) && num(x).is_sign_negative() == num(y).is_sign_negative())
        }
        (Any::Arr(x), Any::Arr(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Any::Obj(x), Any::Obj(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.0 == q.0 && same(&p.1, &q.1))
        }
        _ => a == b,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn values_round_trip(v in value()) {
        let text = structio::to_json(&v);
        let back: Any = structio::from_json(&text).unwrap();
        prop_assert!(same(&back, &v), "{text}");
        let pretty = to_json_with(&v, &Options { pretty: true, ..Options::default() });
        prop_assert_eq!(&structio::prettify(&text).unwrap(), &pretty);
        prop_assert_eq!(&structio::minify(&pretty).unwrap(), &text);
        let back: Any = structio::from_json(&pretty).unwrap();
        prop_assert!(same(&back, &v));
        let mut bytes = Vec::new();
        structio::write_json(&v, &mut bytes);
        prop_assert_eq!(bytes, text.into_bytes());
    }

    #[test]
    fn damaged_documents_never_panic(v in value(), cuts in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4)) {
        let mut bytes = structio::to_json(&v).into_bytes();
        for (at, b) in cuts {
            if bytes.is_empty() {
                break;
            }
            let at = at % bytes.len();
            match b % 3 {
                0 => bytes[at] = b,
                1 => { bytes.remove(at); }
                _ => {
                    let pool = b"[]{}\",:\\-0e.";
                    bytes.insert(at, pool[b as usize % pool.len()]);
                }
            }
        }
        let walked = structio::json::validate(&bytes).is_ok();
        prop_assert_eq!(structio::minify(&bytes[..]).is_ok(), walked);
        prop_assert_eq!(structio::prettify(&bytes[..]).is_ok(), walked);
        // The typed reader is stricter only about numbers (it converts them).
        if structio::from_json::<Any>(&bytes[..]).is_ok() {
            prop_assert!(walked);
        }
        if let Err(e) = structio::json::validate(&bytes) {
            prop_assert!(e.offset() <= bytes.len());
            prop_assert!(e.line_column().is_some());
        }
        let _ = structio::from_json::<Vec<String>>(&bytes[..]);
        let _ = structio::from_json::<Vec<f64>>(&bytes[..]);
    }
}
