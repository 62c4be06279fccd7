//! structio against serde_json (with `float_roundtrip`) and Rust's own float parsing:
//! - proptest-generated JSON texts, spelled in ways serde_json never writes (exponents, `E`,
//!   trailing zeros, escapes, surrogate pairs, whitespace), read as `Value` and as typed values;
//! - every JSONTestSuite file and every benchmark corpus through the shared differential
//!   oracle (`tests/shapes/differential.rs`, also a fuzz target);
//! - every float vector of `tests/data/floats/data` read as a `Value` (bit-exact, and what
//!   serde_json reads). `tests/json_floats.rs` checks the typed f64/f32/f16 reads and writes.
//!
//! Typed reads differ from serde_json by design in one way: structio reads an integer spelled
//! with a fraction or exponent (`1e2`, `-0`) into an integer type when the value is integral,
//! serde_json rejects it; integer targets are compared only on plain integer literals.
//! serde_json reads `f32` through `f64` (double rounding), so `f32` is compared with
//! `str::parse::<f32>` instead.

#[path = "common/files.rs"]
mod files;
mod shapes;

use proptest::prelude::*;
use shapes::differential::{json_differential, same};
use structio::Value;

/// A JSON text and whether it has only plain integer literals as numbers.
#[derive(Debug, Clone)]
struct Doc {
    text: String,
}

/// How a number is spelled: the text and, for typed checks, what kind it is.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|i| i.to_string()),
        any::<u64>().prop_map(|u| u.to_string()),
        any::<i128>().prop_map(|i| i.to_string()),
        (-20i32..20).prop_map(|i| i.to_string()),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f:?}")),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f:e}")),
        any::<f32>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f}")),
        (any::<i32>(), -400i32..400, any::<bool>())
            .prop_map(|(m, e, upper)| format!("{m}{}{e}", if upper { 'E' } else { 'e' })),
        (1u64..1000, 1u32..30, -30i32..30).prop_map(|(m, zeros, e)| {
            let sign = if e < 0 { '-' } else { '+' };
            format!("{m}.{}e{sign}{}", "0".repeat(zeros as usize), e.abs())
        }),
        ("[1-9][0-9]{0,40}", "[0-9]{1,40}").prop_map(|(a, b)| format!("{a}.{b}")),
        "-?(0|[1-9][0-9]{0,25})(\\.[0-9]{1,25})?([eE][+-]?[0-9]{1,3})?",
    ]
}

/// A string literal with escapes of every kind.
fn string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-zA-Z0-9 ]{0,6}",
        any::<char>()
            .prop_filter("needs no escape", |c| *c >= ' ' && *c != '"' && *c != '\\')
            .prop_map(String::from),
        Just("\\\"".to_string()),
        Just("\\\\".to_string()),
        Just("\\/".to_string()),
        prop_oneof![
            Just("\\b"),
            Just("\\f"),
            Just("\\n"),
            Just("\\r"),
            Just("\\t")
        ]
        .prop_map(String::from),
        any::<char>().prop_map(|c| {
            let mut units = [0u16; 2];
            c.encode_utf16(&mut units)
                .iter()
                .map(|u| format!("\\u{u:04x}"))
                .collect()
        }),
        (0u8..0x20).prop_map(|b| format!("\\u{b:04X}")),
    ];
    prop::collection::vec(piece, 0..6).prop_map(|p| format!("\"{}\"", p.concat()))
}

/// Whitespace as the RFC allows it.
fn ws() -> impl Strategy<Value = String> {
    prop_oneof![4 => Just(String::new()), 1 => "[ \t\r\n]{1,3}"]
}

/// A JSON document.
fn doc() -> impl Strategy<Value = Doc> {
    let leaf = prop_oneof![
        Just("null".to_string()),
        Just("true".to_string()),
        Just("false".to_string()),
        number(),
        string(),
    ];
    let tree = leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            (prop::collection::vec((ws(), inner.clone(), ws()), 0..6)).prop_map(|items| format!(
                "[{}]",
                items
                    .into_iter()
                    .map(|(a, v, b)| format!("{a}{v}{b}"))
                    .collect::<Vec<_>>()
                    .join(",")
            )),
            (prop::collection::vec((ws(), string(), ws(), inner, ws()), 0..6)).prop_map(
                |members| format!(
                    "{{{}}}",
                    members
                        .into_iter()
                        .map(|(a, k, b, v, c)| format!("{a}{k}{b}:{v}{c}"))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            ),
        ]
    });
    (ws(), tree, ws()).prop_map(|(a, t, b)| Doc {
        text: format!("{a}{t}{b}"),
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn generated_documents_read_the_same(d in doc()) {
        json_differential(d.text.as_bytes());
        // Every generated document is valid JSON: structio must accept it, unless a number is
        // beyond f64.
        let r = structio::from_json::<Value>(&d.text);
        if let Err(e) = &r {
            prop_assert!(e.message().contains("out of range"), "{e}\n{}", d.text);
        }
    }

    #[test]
    fn numbers_read_the_same_typed(text in number()) {
        let ours = structio::from_json::<f64>(&text).ok().map(f64::to_bits);
        let theirs = serde_json::from_str::<f64>(&text).ok().map(f64::to_bits);
        prop_assert_eq!(ours, theirs, "f64 {}", text);
        let std = text.parse::<f64>().ok().filter(|f| f.is_finite()).map(f64::to_bits);
        prop_assert_eq!(ours, std, "f64 vs std {}", text);
        let ours = structio::from_json::<f32>(&text).ok().map(f32::to_bits);
        let std = text.parse::<f32>().ok().filter(|f| f.is_finite()).map(f32::to_bits);
        prop_assert_eq!(ours, std, "f32 vs std {}", text);
        let plain_integer = text.bytes().all(|b| b.is_ascii_digit() || b == b'-') && text != "-0";
        if plain_integer {
            prop_assert_eq!(structio::from_json::<i64>(&text).ok(), serde_json::from_str::<i64>(&text).ok(), "i64 {}", text);
            prop_assert_eq!(structio::from_json::<u64>(&text).ok(), serde_json::from_str::<u64>(&text).ok(), "u64 {}", text);
            prop_assert_eq!(structio::from_json::<i8>(&text).ok(), serde_json::from_str::<i8>(&text).ok(), "i8 {}", text);
            prop_assert_eq!(structio::from_json::<u128>(&text).ok(), text.parse::<u128>().ok(), "u128 {}", text);
            prop_assert_eq!(structio::from_json::<i128>(&text).ok(), text.parse::<i128>().ok(), "i128 {}", text);
        } else if let Ok(i) = structio::from_json::<i64>(&text) {
            // Accepted with a fraction or exponent: the value must be exactly that integer.
            let f: f64 = text.parse().unwrap();
            prop_assert_eq!(i as f64, f, "i64 {}", text);
        }
    }

    #[test]
    fn strings_read_the_same_typed(text in string()) {
        let ours = structio::from_json::<String>(&text);
        let theirs = serde_json::from_str::<String>(&text);
        prop_assert_eq!(ours.as_ref().ok(), theirs.as_ref().ok(), "{}", text);
        prop_assert!(ours.is_ok(), "{}", text);
        // And what we write reads back in serde_json.
        let written = structio::to_json(&ours.unwrap());
        prop_assert_eq!(serde_json::from_str::<String>(&written).ok(), theirs.ok());
    }

    #[test]
    fn typed_containers_read_the_same(v in prop::collection::vec((any::<i32>(), any::<f64>().prop_filter("finite", |f| f.is_finite()), ".{0,8}", any::<bool>()), 0..8)) {
        // serde_json writes them, both read them back.
        let text = serde_json::to_string(&v).unwrap();
        let ours: Vec<(i32, f64, String, bool)> = structio::from_json(&text).unwrap();
        let theirs: Vec<(i32, f64, String, bool)> = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&ours, &theirs);
        // structio writes them, serde_json reads them back exactly.
        let text = structio::to_json(&ours);
        let theirs: Vec<(i32, f64, String, bool)> = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(ours, theirs);
    }
}

#[test]
fn json_test_suite_and_corpora_agree_with_serde_json() {
    let mut files = files::list(&files::data("JSONTestSuite/test_parsing"), ".json");
    files.extend(
        ["twitter", "citm_catalog", "canada"].map(|n| files::data(&format!("corpus/{n}.json"))),
    );
    let mut n = 0;
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let r = std::panic::catch_unwind(|| json_differential(&data));
        assert!(r.is_ok(), "{} differs (see the panic above)", f.display());
        n += 1;
    }
    assert_eq!(n, 318 + 3, "files");
}

#[test]
fn float_vectors_read_as_values_bit_exactly() {
    let mut n = 0;
    for path in files::list(&files::data("floats/data"), ".txt") {
        let text = std::fs::read_to_string(path).unwrap();
        for line in text.lines() {
            let mut parts = line.split_whitespace();
            let (Some(_), Some(_), Some(f64hex), Some(t)) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let Ok(want) = u64::from_str_radix(f64hex, 16) else {
                continue;
            };
            let Ok(theirs) = serde_json::from_str::<serde_json::Value>(t) else {
                // Not a JSON number, or beyond f64: structio rejects it too.
                assert!(structio::from_json::<Value>(t).is_err(), "{t} accepted");
                continue;
            };
            let v: Value = structio::from_json(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert!(
                same(&v, &theirs, &mut String::new()).is_ok(),
                "{t}: {v:?} vs {theirs:?}"
            );
            if let Some(n) = v.as_number().filter(|n| n.is_float()) {
                assert_eq!(n.as_f64_lossy().to_bits(), want, "{t}");
            }
            n += 1;
        }
    }
    assert!(n > 50_000, "{n} vectors");
}
