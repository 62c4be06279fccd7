//! JSONTestSuite (nst/JSONTestSuite, `test_parsing/`, copied into `tests/data/`): every `y_`
//! file is accepted, every `n_` file rejected, and the outcome of every `i_` file is pinned.
//! Each file goes through both the untyped walker (`validate`, `minify`, `prettify`) and the
//! typed reader (a small dynamic value type below, read through the `Reader` trait).

mod json_common;

use json_common::Any;
use structio::Wire;

/// Equality with numbers compared by value: Glaze's layout writes an integral float without
/// `.0`, so `0.0` reads back as the integer `0`.
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
        (Any::Num(x), Any::Num(y)) => x == y || num(x) == num(y),
        (Any::Arr(x), Any::Arr(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Any::Obj(x), Any::Obj(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.0 == q.0 && same(&p.1, &q.1))
        }
        _ => a == b,
    }
}

/// Every file of the suite (`tests/data/JSONTestSuite/test_parsing`), sorted by name.
fn files() -> Vec<(String, Vec<u8>)> {
    let dir = json_common::data("JSONTestSuite/test_parsing");
    let v: Vec<_> = json_common::list(&dir, ".json")
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    assert_eq!(v.len(), 318, "JSONTestSuite has 318 parsing files");
    v
}

/// Outcome of one file: (`validate` accepts, the typed reader accepts).
fn outcome(text: &[u8]) -> (bool, bool) {
    let walked = structio::json::validate(text).is_ok();
    let typed = structio::from_json::<Any>(text).is_ok();
    // The re-formatters walk the same way as validate.
    assert_eq!(structio::minify(text).is_ok(), walked);
    assert_eq!(structio::prettify(text).is_ok(), walked);
    (walked, typed)
}

#[test]
fn y_files_are_accepted_and_round_trip() {
    let mut n = 0;
    for (name, text) in files().into_iter().filter(|(n, _)| n.starts_with("y_")) {
        n += 1;
        if let Err(e) = structio::json::validate(&text) {
            panic!("{name}: validate: {e}");
        }
        let v = match structio::from_json::<Any>(&text) {
            Ok(v) => v,
            Err(e) => panic!("{name}: typed read: {e}"),
        };
        // What we write reads back to the same value, and is what minify makes of the input
        // for documents already in our layout.
        let out = structio::to_json(&v);
        let back: Any = structio::from_json(&out).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(same(&back, &v), "{name}: {back:?} != {v:?}");
        let mini = structio::minify(&text).unwrap();
        assert_eq!(
            structio::minify(&structio::prettify(&text).unwrap()).unwrap(),
            mini
        );
        let pretty = structio::json::to_json_with(
            &v,
            &structio::json::Options {
                pretty: true,
                ..Default::default()
            },
        );
        assert_eq!(structio::prettify(&out).unwrap(), pretty, "{name}");
    }
    assert_eq!(n, 95);
}

#[test]
fn n_files_are_rejected() {
    let mut n = 0;
    for (name, text) in files().into_iter().filter(|(n, _)| n.starts_with("n_")) {
        n += 1;
        assert_eq!(outcome(&text), (false, false), "{name} must be rejected");
    }
    assert_eq!(n, 188);
}

/// (file, accepted by `validate`, accepted by the typed reader). The typed reader differs only
/// on numbers: it converts them, and a finite number too large for `f64` is an error.
const I_OUTCOMES: &[(&str, bool, bool)] = &[
    ("i_number_double_huge_neg_exp.json", true, true),
    ("i_number_huge_exp.json", true, false),
    ("i_number_neg_int_huge_exp.json", true, false),
    ("i_number_pos_double_huge_exp.json", true, false),
    ("i_number_real_neg_overflow.json", true, false),
    ("i_number_real_pos_overflow.json", true, false),
    ("i_number_real_underflow.json", true, true),
    ("i_number_too_big_neg_int.json", true, true),
    ("i_number_too_big_pos_int.json", true, true),
    ("i_number_very_big_negative_int.json", true, true),
    ("i_object_key_lone_2nd_surrogate.json", false, false),
    ("i_string_1st_surrogate_but_2nd_missing.json", false, false),
    (
        "i_string_1st_valid_surrogate_2nd_invalid.json",
        false,
        false,
    ),
    ("i_string_UTF-16LE_with_BOM.json", false, false),
    ("i_string_UTF-8_invalid_sequence.json", false, false),
    ("i_string_UTF8_surrogate_U+D800.json", false, false),
    (
        "i_string_incomplete_surrogate_and_escape_valid.json",
        false,
        false,
    ),
    ("i_string_incomplete_surrogate_pair.json", false, false),
    (
        "i_string_incomplete_surrogates_escape_valid.json",
        false,
        false,
    ),
    ("i_string_invalid_lonely_surrogate.json", false, false),
    ("i_string_invalid_surrogate.json", false, false),
    ("i_string_invalid_utf-8.json", false, false),
    ("i_string_inverted_surrogates_U+1D11E.json", false, false),
    ("i_string_iso_latin_1.json", false, false),
    ("i_string_lone_second_surrogate.json", false, false),
    ("i_string_lone_utf8_continuation_byte.json", false, false),
    ("i_string_not_in_unicode_range.json", false, false),
    ("i_string_overlong_sequence_2_bytes.json", false, false),
    ("i_string_overlong_sequence_6_bytes.json", false, false),
    ("i_string_overlong_sequence_6_bytes_null.json", false, false),
    ("i_string_truncated-utf-8.json", false, false),
    ("i_string_utf16BE_no_BOM.json", false, false),
    ("i_string_utf16LE_no_BOM.json", false, false),
    ("i_structure_500_nested_arrays.json", false, false),
    ("i_structure_UTF-8_BOM_empty_object.json", false, false),
];

#[test]
fn i_files_have_pinned_outcomes() {
    let mut actual = Vec::new();
    for (name, text) in files().into_iter().filter(|(n, _)| n.starts_with("i_")) {
        let (walked, typed) = outcome(&text);
        actual.push((name, walked, typed));
    }
    let table: Vec<_> = I_OUTCOMES
        .iter()
        .map(|&(n, w, t)| (n.to_string(), w, t))
        .collect();
    if table != actual {
        for (n, w, t) in &actual {
            println!("    (\"{n}\", {w}, {t}),");
        }
        panic!("i_ outcomes changed (actual table printed above)");
    }
}
