//! Hostile JSON: invalid UTF-8, deep nesting and the depth limit, extreme numbers, syntax
//! outside RFC 8259, bad escapes and raw control bytes.

use std::collections::HashMap;

use crate::shapes::everything::{
    Adjacent, Everything, External, Inner, Internal, Unit, SAMPLE_JSON,
};
// An untagged enum whose first variant fails only at the end of its payload: each level tries
// it, fails, and reads the payload again as the second variant, so reading `n` nested arrays
// naively takes 2^n steps.
use crate::shapes::limits::Nest as Backtrack;
use crate::{bounded, err, err_with, timed};
use structio::json::{from_json_with, prettify_with, Options, PrettyOptions};
use structio::{RawJsonBuf, UnknownKeys, Value};

/// Every reader of JSON text must reject `doc`: `Value`, `Everything`, validate, prettify,
/// minify and `RawJsonBuf`.
#[track_caller]
fn all_reject(what: &str, doc: &[u8]) {
    err(what, structio::from_json::<Value>(doc));
    err(what, structio::from_json::<Everything>(doc));
    err(what, structio::json::validate(doc));
    err(what, structio::prettify(doc));
    err(what, structio::minify(doc));
    err(what, structio::from_json::<RawJsonBuf>(doc));
}

#[test]
fn invalid_utf8_at_every_position_of_the_sample() {
    let sample = SAMPLE_JSON.as_bytes();
    for i in 0..sample.len() {
        let mut doc = sample.to_vec();
        doc[i] = 0xFF; // never valid in UTF-8, inside or outside strings
        all_reject(&format!("0xFF at {i}"), &doc);
    }
}

#[test]
fn invalid_utf8_sequences_inside_strings() {
    let bad: [&[u8]; 9] = [
        b"\x80",             // continuation without a lead
        b"\xC0\xAF",         // overlong '/'
        b"\xC1\xBF",         // overlong
        b"\xE0\x80\xAF",     // overlong
        b"\xED\xA0\x80",     // UTF-16 surrogate encoded
        b"\xF4\x90\x80\x80", // beyond U+10FFFF
        b"\xF8\x88\x80\x80\x80",
        b"\xE2\x82",     // truncated
        b"\xF0\x9F\x98", // truncated
    ];
    for seq in bad {
        for (prefix, suffix) in [
            ("\"", "\""),
            ("\"abc", "def\""),
            ("{\"", "\":1}"),
            ("[\"x", "\"]"),
        ] {
            let mut doc = prefix.as_bytes().to_vec();
            doc.extend_from_slice(seq);
            doc.extend_from_slice(suffix.as_bytes());
            let what = format!("{seq:x?} in {prefix}..{suffix}");
            err(&what, structio::from_json::<Value>(&doc));
            err(&what, structio::json::validate(&doc));
            err(&what, structio::minify(&doc));
            if prefix == "\"" || prefix == "\"abc" {
                err(&what, structio::from_json::<String>(&doc));
                err(&what, structio::from_json::<&str>(&doc));
            }
            if prefix == "{\"" {
                err(&what, structio::from_json::<HashMap<String, u8>>(&doc));
            }
        }
    }
    // Valid multi-byte text reads (the check above is not just "any high byte fails").
    let s: String = structio::from_json("\"\u{e9}\u{20ac}\u{1F600}\"").unwrap();
    assert_eq!(s, "\u{e9}\u{20ac}\u{1F600}");
}

/// `n` nested arrays around `0`, closed or not.
fn nested_arrays(n: usize, closed: bool) -> Vec<u8> {
    let mut v = vec![b'['; n];
    v.push(b'0');
    if closed {
        v.resize(v.len() + n, b']');
    }
    v
}

/// `n` nested objects `{"a":...}` around `null`, closed or not.
fn nested_objects(key: &str, n: usize, closed: bool) -> Vec<u8> {
    let open = format!("{{\"{key}\":");
    let mut v = open.repeat(n).into_bytes();
    v.extend_from_slice(b"null");
    if closed {
        v.resize(v.len() + n, b'}');
    }
    v
}

#[test]
fn a_million_nested_arrays_and_objects() {
    bounded("json::a_million_nested_arrays_and_objects", 64, || {
        const N: usize = 1_000_000;
        for closed in [false, true] {
            for doc in [nested_arrays(N, closed), nested_objects("a", N, closed)] {
                timed("a million levels", 3000, || {
                    err_with("Value", structio::from_json::<Value>(&doc), "nesting");
                    err_with("validate", structio::json::validate(&doc), "nesting");
                    err_with("prettify", structio::prettify(&doc), "nesting");
                    err_with("minify", structio::minify(&doc), "nesting");
                    err_with("raw", structio::from_json::<RawJsonBuf>(&doc), "nesting");
                });
            }
            // Recursion through a derived type: Inner.next is Option<Box<Inner>>.
            let doc = nested_objects("next", N, closed);
            err_with("Inner", structio::from_json::<Inner>(&doc), "nesting");
            // Skipping an unknown member does not recurse either.
            let mut opts = Options::default();
            opts.read.unknown_keys = UnknownKeys::Skip;
            let mut doc = b"{\"unknown\":".to_vec();
            doc.extend(nested_arrays(N, closed));
            err_with("skip", from_json_with::<Everything>(&doc, &opts), "nesting");
        }
    });
}

#[test]
fn the_depth_limit_is_exact() {
    let default = Options::default().read.max_depth;
    assert_eq!(default, 256);
    for limit in [1, 10, default] {
        let mut opts = Options::default();
        opts.read.max_depth = limit;
        let pretty = PrettyOptions {
            max_depth: limit,
            ..PrettyOptions::default()
        };
        for (depth, ok) in [(limit - 1, true), (limit, true), (limit + 1, false)] {
            for doc in [nested_arrays(depth, true), nested_objects("a", depth, true)] {
                let what = format!("depth {depth}, limit {limit}");
                assert_eq!(from_json_with::<Value>(&doc, &opts).is_ok(), ok, "{what}");
                assert_eq!(
                    from_json_with::<RawJsonBuf>(&doc, &opts).is_ok(),
                    ok,
                    "{what}"
                );
                assert_eq!(prettify_with(&doc, &pretty).is_ok(), ok, "{what}");
                if limit == default {
                    assert_eq!(structio::json::validate(&doc).is_ok(), ok, "{what}");
                    assert_eq!(structio::minify(&doc).is_ok(), ok, "{what}");
                }
            }
            if depth > 0 {
                let doc = nested_objects("next", depth, true);
                let r = from_json_with::<Inner>(&doc, &opts);
                assert_eq!(r.is_ok(), ok, "Inner depth {depth}, limit {limit}: {r:?}");
            }
        }
    }
}

#[test]
fn a_million_digits() {
    bounded("json::a_million_digits", 64, || {
        let digits = "7".repeat(1_000_000);
        let cases = [
            digits.clone(),
            format!("-{digits}"),
            format!("0.{digits}"),
            format!("{digits}.5"),
            format!("1e{digits}"),
            format!("1e-{digits}"),
            format!("0.{}1", "0".repeat(1_000_000)),
            format!("{digits}e-1000000"),
            format!("-0.{digits}e1000000"),
            // Integers spelled with a million zeros: read by value, still linear.
            format!(
                "1{}.{}e-1000000",
                "0".repeat(1_000_000),
                "0".repeat(1_000_000)
            ),
            format!("0.{}1e1000001", "0".repeat(1_000_000)),
        ];
        for doc in &cases {
            timed("a million digits", 2000, || {
                let _ = structio::from_json::<Value>(doc);
                let _ = structio::from_json::<f64>(doc);
                let _ = structio::from_json::<f32>(doc);
                let _ = structio::from_json::<i64>(doc);
                let _ = structio::from_json::<u128>(doc);
                structio::json::validate(doc.as_bytes()).unwrap();
                assert_eq!(structio::minify(doc).unwrap(), *doc);
            });
        }
        // Integers beyond every integer type: an error for integers, and for f64 beyond its range.
        err("i64", structio::from_json::<i64>(&cases[0]));
        err("u128", structio::from_json::<u128>(&cases[0]));
        err("f64", structio::from_json::<f64>(&cases[0]));
        err("Value", structio::from_json::<Value>(&cases[0]));
        err("f64 exp", structio::from_json::<f64>(&cases[4]));
        // Tiny: rounds to zero, as in every correctly rounding parser.
        assert_eq!(structio::from_json::<f64>(&cases[5]).unwrap(), 0.0);
        assert_eq!(structio::from_json::<f64>(&cases[6]).unwrap(), 0.0);
        // Many digits of a representable value round correctly.
        let v: f64 = structio::from_json(&cases[2]).unwrap();
        assert_eq!(v, "0.7777777777777777777777".parse::<f64>().unwrap());
        // The integers spelled with a million zeros.
        assert_eq!(structio::from_json::<u8>(&cases[9]).unwrap(), 1);
        assert_eq!(structio::from_json::<i64>(&cases[10]).unwrap(), 1);
    });
}

#[test]
fn a_million_escapes_and_a_long_error_line() {
    bounded("json::a_million_escapes_and_a_long_error_line", 128, || {
        for esc in ["\\u0041", "\\ud83d\\ude00", "\\n", "\\u00e9"] {
            let doc = format!("\"{}\"", esc.repeat(1_000_000));
            let s: String = timed("a million escapes", 2000, || {
                structio::from_json(&doc).unwrap()
            });
            assert!(s.len() >= 1_000_000);
            timed("validate", 2000, || {
                structio::json::validate(doc.as_bytes()).unwrap()
            });
        }
        // An error at the end of a 10 MB single-line document: the message stays short.
        let mut doc = "[1,".repeat(3_000_000);
        doc.push('x');
        let e = timed("long line", 2000, || {
            err("long line", structio::from_json::<Value>(&doc))
        });
        assert!(
            e.to_string().len() < 1000,
            "{} bytes of message",
            e.to_string().len()
        );
        let e = err("long line", structio::from_json::<Vec<u8>>(&doc));
        assert!(e.to_string().len() < 1000);
    });
}

#[test]
fn numbers_at_and_past_the_edges() {
    err_with(
        "1e999999999",
        structio::from_json::<f64>("1e999999999"),
        "out of range",
    );
    err_with(
        "-1e999999999",
        structio::from_json::<Value>("-1e999999999"),
        "out of range",
    );
    err_with("1e309", structio::from_json::<f64>("1e309"), "out of range");
    assert_eq!(
        structio::from_json::<f64>("0e99999999999999999999").unwrap(),
        0.0
    );
    assert_eq!(
        structio::from_json::<u8>("0e99999999999999999999").unwrap(),
        0
    );
    assert_eq!(structio::from_json::<f64>("1e-999999999").unwrap(), 0.0);
    let neg = structio::from_json::<f64>("-1e-999").unwrap();
    assert_eq!(neg.to_bits(), (-0.0f64).to_bits());
    // -0: a float keeps the sign; an integer reads 0, unsigned ones too (its value is 0, which
    // the schema's `minimum: 0` accepts).
    assert_eq!(
        structio::from_json::<f64>("-0").unwrap().to_bits(),
        (-0.0f64).to_bits()
    );
    assert_eq!(
        structio::from_json::<Value>("-0")
            .unwrap()
            .as_f64()
            .map(f64::to_bits),
        Some((-0.0f64).to_bits())
    );
    assert_eq!(structio::from_json::<i64>("-0").unwrap(), 0);
    assert_eq!(structio::from_json::<i8>("-0").unwrap(), 0);
    assert_eq!(structio::from_json::<u8>("-0").unwrap(), 0);
    assert_eq!(structio::from_json::<i64>("-0.0").unwrap(), 0);
    assert_eq!(structio::from_json::<u64>("-0.0e5").unwrap(), 0);
    err("-1 into u8", structio::from_json::<u8>("-1"));
    err("-1.0 into u8", structio::from_json::<u8>("-1.0"));
    // Integer ranges.
    err_with("256 u8", structio::from_json::<u8>("256"), "out of range");
    assert_eq!(structio::from_json::<u8>("255").unwrap(), 255);
    err("-129 i8", structio::from_json::<i8>("-129"));
    assert_eq!(structio::from_json::<i8>("-128").unwrap(), -128);
    err("-1 u64", structio::from_json::<u64>("-1"));
    err(
        "2^64 u64",
        structio::from_json::<u64>("18446744073709551616"),
    );
    err(
        "2^128 u128",
        structio::from_json::<u128>("340282366920938463463374607431768211456"),
    );
    err("1.5 i32", structio::from_json::<i32>("1.5"));
    err("1e-2 i32", structio::from_json::<i32>("1e-2"));
    err("-0.5 u8", structio::from_json::<u8>("-0.5"));
    // An integer is read by its value, whatever the spelling (documented): an exponent, or a
    // fraction that is zero, as JSON Schema counts integers.
    assert_eq!(structio::from_json::<u8>("1e2").unwrap(), 100);
    err("1e3 u8", structio::from_json::<u8>("1e3"));
    assert_eq!(structio::from_json::<u8>("1.0").unwrap(), 1);
    assert_eq!(structio::from_json::<u8>("100e-2").unwrap(), 1);
    assert_eq!(structio::from_json::<u8>("1.50e1").unwrap(), 15);
    assert_eq!(structio::from_json::<i8>("-1.28e2").unwrap(), -128);
    err("-1.29e2 i8", structio::from_json::<i8>("-1.29e2"));
    err_with(
        "1e999999999 u8",
        structio::from_json::<u8>("1e999999999"),
        "out of range",
    );
    assert_eq!(
        structio::from_json::<u128>("3.40282366920938463463374607431768211455e38").unwrap(),
        u128::MAX
    );
    // f32 range.
    err_with(
        "1e39 f32",
        structio::from_json::<f32>("1e39"),
        "out of range",
    );
    err("3.5e38 f32", structio::from_json::<f32>("3.5e38"));
    assert_eq!(
        structio::from_json::<f32>("3.4028235e38").unwrap(),
        f32::MAX
    );
    assert_eq!(structio::from_json::<f32>("1e-50").unwrap(), 0.0);
    // Integers beyond u64 stay exact in a Value.
    let v: Value = structio::from_json("18446744073709551616").unwrap();
    assert_eq!(v.as_u128(), Some(1 << 64));
    let v: Value = structio::from_json("-170141183460469231731687303715884105728").unwrap();
    assert_eq!(v.as_i128(), Some(i128::MIN));
    let v: Value = structio::from_json("340282366920938463463374607431768211456").unwrap();
    assert_eq!(v.as_f64(), Some(3.402823669209385e38));
}

#[test]
fn syntax_outside_rfc_8259() {
    let cases: &[&str] = &[
        "",
        " ",
        "01",
        "-01",
        "00",
        "1.",
        ".5",
        "+1",
        "1e",
        "1e+",
        "-",
        "- 1",
        "0x10",
        "1_000",
        "NaN",
        "-NaN",
        "nan",
        "Infinity",
        "-Infinity",
        "inf",
        "\u{feff}1",
        "\u{feff}{}",
        "/* c */ 1",
        "1 // c",
        "# c\n1",
        "[1,]",
        "[,1]",
        "[1,,2]",
        "{\"a\":1,}",
        "{,}",
        "{a:1}",
        "{'a':1}",
        "['a']",
        "[1 2]",
        "{\"a\" 1}",
        "{\"a\":}",
        "{\"a\"}",
        "{1:2}",
        "{null:1}",
        "tru",
        "nul",
        "fals",
        "True",
        "NULL",
        "[",
        "]",
        "{",
        "}",
        "1 2",
        "[1]]",
        "{}}",
        "\"abc",
        "\"\\\"",
        "[1]x",
        "\u{a0}1",
        "\u{2028}1",
        "\x0c1",
        "\x0b1",
    ];
    for doc in cases {
        all_reject(&format!("{doc:?}"), doc.as_bytes());
    }
    // What the RFC allows around values.
    for doc in [" \t\r\n1 \t\r\n", "[ 1 , 2 ]", "{ \"a\" : 1 }"] {
        structio::from_json::<Value>(doc).unwrap();
        structio::json::validate(doc.as_bytes()).unwrap();
    }
}

#[test]
fn escapes_and_surrogates() {
    let bad = [
        r#""\ud800""#,       // lone leading surrogate
        r#""\udc00""#,       // lone trailing surrogate
        r#""\udc00\ud800""#, // reversed pair
        r#""\ud800\u0041""#, // leading surrogate then not a trailing one
        r#""\ud800\ud800""#, // two leading
        r#""\ud800x""#,      // leading surrogate then text
        r#""\ud800\""#,      // leading surrogate then another escape
        r#""\u12""#,         // short
        r#""\u12G4""#,       // not hex
        r#""\x41""#,         // not a JSON escape
        r#""\'""#,
        r#""\U0041""#,
        r#""\"#,
    ];
    for doc in bad {
        all_reject(doc, doc.as_bytes());
        err(doc, structio::from_json::<String>(doc));
    }
    let s: String = structio::from_json(r#""\ud83d\ude00\u00e9\/\b\f\n\r\t\u0000""#).unwrap();
    assert_eq!(s, "\u{1F600}\u{e9}/\u{8}\u{c}\n\r\t\0");
}

#[test]
fn raw_control_bytes_in_strings() {
    for b in 0u8..0x20 {
        for doc in [
            vec![b'"', b, b'"'],
            [b"{\"a".as_slice(), &[b], b"\":1}"].concat(),
        ] {
            all_reject(&format!("raw {b:#04x}"), &doc);
        }
    }
    // DEL and other non-control ASCII are fine raw.
    assert_eq!(structio::from_json::<String>("\"\x7f~\"").unwrap(), "\x7f~");
}

#[test]
fn duplicate_keys() {
    // Default: the last value wins, in a Value and in a struct.
    let v: Value = structio::from_json(r#"{"a":1,"b":2,"a":3}"#).unwrap();
    assert_eq!(v["a"].as_i64(), Some(3));
    assert_eq!(v.as_object().unwrap().len(), 2);
    let i: Inner = structio::from_json(r#"{"id":1,"id":2}"#).unwrap();
    assert_eq!(i.id, 2);
    // A field given under its name and its alias is always an error.
    err(
        "name and alias",
        structio::from_json::<Inner>(r#"{"label":"a","name":"b"}"#),
    );
    // With the option, any repeat is an error.
    let mut opts = Options::default();
    opts.read.error_on_duplicate_keys = true;
    err_with(
        "dup",
        from_json_with::<Inner>(r#"{"id":1,"id":2}"#, &opts),
        "id",
    );
}

#[test]
fn wrong_shapes_are_errors_with_paths() {
    let e = err(
        "u8 in struct",
        structio::from_json::<Everything>(r#"{"nested":[{"id":-1}]}"#),
    );
    assert_eq!(e.path(), "$.nested[0].id");
    err(
        "array length",
        structio::from_json::<Everything>(r#"{"array":[1,2]}"#),
    );
    err(
        "array length",
        structio::from_json::<Everything>(r#"{"array":[1,2,3,4]}"#),
    );
    err("char", structio::from_json::<Everything>(r#"{"ch":"ab"}"#));
    err("char", structio::from_json::<Everything>(r#"{"ch":""}"#));
    err(
        "escaped &str",
        structio::from_json::<Everything>(r#"{"borrowed":"a\nb"}"#),
    );
    err(
        "unknown key",
        structio::from_json::<Everything>(r#"{"nope":1}"#),
    );
    err(
        "variant",
        structio::from_json::<Everything>(r#"{"unit":"Purple"}"#),
    );
    err(
        "tag",
        structio::from_json::<Everything>(r#"{"internal":{"type":"nope"}}"#),
    );
    err(
        "untagged",
        structio::from_json::<Everything>(r#"{"untagged":true}"#),
    );
    err(
        "int key",
        structio::from_json::<Everything>(r#"{"int_map":{"x":true}}"#),
    );
    err(
        "int key",
        structio::from_json::<Everything>(r#"{"btree_int":{"2147483648":"x"}}"#),
    );
}

#[test]
fn untagged_backtracking_is_bounded() {
    // Shallow nesting reads (the budget allows 64 re-reads of the input).
    let doc = format!("{}{}", "[".repeat(4), "]".repeat(4));
    structio::from_json::<Backtrack>(&doc).unwrap();
    let beve = structio::to_beve(&structio::from_json::<Backtrack>(&doc).unwrap());
    structio::from_beve::<Backtrack>(&beve).unwrap();
    // 200 levels would take 2^200 steps; the reader gives up after re-reading 64 times the
    // input, in both formats.
    let doc = format!("{}{}", "[".repeat(200), "]".repeat(200));
    timed("JSON backtracking", 2000, || {
        err_with(
            "JSON",
            structio::from_json::<Backtrack>(&doc),
            "backtracking",
        );
    });
    let mut beve = [0x05u8, 0x04].repeat(199);
    beve.extend([0x05, 0x00]);
    timed("BEVE backtracking", 2000, || {
        err_with(
            "BEVE",
            structio::from_beve::<Backtrack>(&beve),
            "backtracking",
        );
    });
}

#[test]
fn escaped_keys_and_names_match_like_plain_ones() {
    // Keys, aliases, variant names and tags spelled with escapes mean the same text, so they
    // are found (and count as duplicates) exactly like their plain spelling.
    let i: Inner = structio::from_json(r#"{"\u0069d":7,"na\u006de":"x"}"#).unwrap();
    assert_eq!((i.id, i.text.as_str()), (7, "x"));
    let u: Unit = structio::from_json(r#""Gr\u0065en""#).unwrap();
    assert_eq!(u, Unit::Green);
    let t: Internal = structio::from_json(r#"{"x":1,"y":2,"\u0074ype":"po\u0069nt"}"#).unwrap();
    assert_eq!(t, Internal::Point { x: 1, y: 2 });
    let a: Adjacent = structio::from_json(r#"{"c":"x","\u0074":"Text"}"#).unwrap();
    assert_eq!(a, Adjacent::Text("x".into()));
    let e: External = structio::from_json(r#"{"N\u0075m":3}"#).unwrap();
    assert_eq!(e, External::Num(3));
    let m: std::collections::BTreeMap<i32, u8> = structio::from_json(r#"{"\u0031":1}"#).unwrap();
    assert_eq!(m[&1], 1);
    let mut opts = Options::default();
    opts.read.error_on_duplicate_keys = true;
    err(
        "dup",
        from_json_with::<Inner>(r#"{"id":1,"\u0069d":2}"#, &opts),
    );
}

#[test]
fn a_deep_value_clones_and_prints_on_a_small_stack() {
    // Read with the depth limit lifted, a `Value` a hundred thousand levels deep is cloned,
    // debug-printed, compared, displayed and dropped without recursion.
    bounded(
        "json::a_deep_value_clones_and_prints_on_a_small_stack",
        256,
        || {
            const N: usize = 100_000;
            let mut opts = Options::default();
            opts.read.max_depth = usize::MAX;
            let doc = nested_arrays(N, true);
            let v: Value = from_json_with(&doc, &opts).unwrap();
            crate::shapes::limits::on_stack(256 * 1024, move || {
                let c = v.clone();
                assert!(c == v);
                let leaf = format!("{:?}", structio::from_json::<Value>("0").unwrap());
                let debug = format!("{c:?}");
                assert!(debug == "Array([".repeat(N) + &leaf + &"])".repeat(N));
                assert_eq!(c.to_string().into_bytes(), doc);
                drop(c);
                // Objects too.
                let doc = nested_objects("a", N, true);
                let v: Value = from_json_with(&doc, &opts).unwrap();
                let c = v.clone();
                assert!(c == v);
                let debug = format!("{c:?}");
                let expected = r#"Object({"a": "#.repeat(N) + "Null" + &"})".repeat(N);
                assert!(debug == expected, "{}", &debug[debug.len() - 60..]);
            });
        },
    );
}

#[test]
fn a_megabyte_key_makes_a_short_message() {
    let key = "k".repeat(1 << 20);
    // A type error below the key: the path names it.
    let doc = format!(r#"{{"{key}":"not a number"}}"#);
    let e = err(
        "type error",
        structio::from_json::<HashMap<String, u32>>(&doc),
    );
    let shown = e.to_string();
    assert!(shown.len() < 1024, "{} bytes: {shown:.200}", shown.len());
    assert!(e.path().contains("(1048576 bytes)"), "{}", e.path());
    // The key in the message itself: unknown, duplicate.
    let doc = format!(r#"{{"{key}":1}}"#);
    let e = err("unknown key", structio::from_json::<Inner>(&doc));
    assert!(e.to_string().len() < 1024);
    assert_eq!(e.key().map(str::len), Some(1 << 20));
    let mut opts = Options::default();
    opts.read.error_on_duplicate_keys = true;
    let doc = format!(r#"{{"{key}":1,"{key}":2}}"#);
    let e = err(
        "duplicate key",
        from_json_with::<HashMap<String, u32>>(&doc, &opts),
    );
    assert!(e.to_string().len() < 1024);
    let doc = format!(r#"{{"unit":"{key}"}}"#);
    let e = err("variant", structio::from_json::<Everything>(&doc));
    assert!(e.to_string().len() < 1024);
    let doc = format!(r#"{{"external":{{"Num":1,"{key}":1}}}}"#);
    let e = err("second key", structio::from_json::<Everything>(&doc));
    assert!(e.to_string().len() < 1024, "{:.300}", e.to_string());
}

#[test]
fn adjacent_tag_and_content_repeated_in_any_order() {
    let mut opts = Options::default();
    opts.read.error_on_duplicate_keys = false;
    for (doc, key) in [
        (r#"{"c":"a","t":"Text","c":"b"}"#, "c"),
        (r#"{"t":"Text","c":"a","c":"b"}"#, "c"),
        (r#"{"c":"a","c":"b","t":"Text"}"#, "c"),
        (r#"{"t":"Text","t":"Text","c":"a"}"#, "t"),
        (r#"{"t":"Text","c":"a","t":"Text"}"#, "t"),
        (r#"{"c":"a","t":"Text","t":"Text"}"#, "t"),
        (r#"{"t":"Unit","c":null,"c":null}"#, "c"),
        (r#"{"c":null,"t":"Unit","c":null}"#, "c"),
    ] {
        let e = err(doc, from_json_with::<Adjacent>(doc, &opts));
        assert_eq!(e.message(), format!("duplicate key `{key}`"), "{doc}");
        assert_eq!(e.key(), Some(key), "{doc}");
    }
    // Once each, in either order, is fine.
    for doc in [r#"{"c":"b","t":"Text"}"#, r#"{"t":"Text","c":"b"}"#] {
        let v: Adjacent = structio::from_json(doc).unwrap();
        assert_eq!(v, Adjacent::Text("b".into()), "{doc}");
    }
}

/// What reading `text` as a value of type `T` and as a key of a `BTreeMap<T, u8>` and a
/// `HashMap<T, u8>` gives (the value only when `text` is the canonical decimal spelling of an
/// integer: `0` or a first digit that is not `0`, with a `-` if `signed`).
fn key_and_value<T>(text: &str, signed: bool) -> (Option<T>, Option<T>, Option<T>)
where
    T: for<'de> structio::Reflect<'de>
        + for<'de> structio::MapKey<'de>
        + Default
        + Ord
        + std::hash::Hash
        + Copy
        + std::fmt::Debug,
{
    let digits = match text.strip_prefix('-') {
        Some(d) if signed => d,
        _ => text,
    };
    let canonical = digits == "0"
        || (digits.starts_with(|c: char| ('1'..='9').contains(&c))
            && digits.bytes().all(|b| b.is_ascii_digit()));
    let value = structio::from_json::<T>(text).ok().filter(|_| canonical);
    let doc = format!("{{{}:7}}", structio::to_json(&text));
    let btree = structio::from_json::<std::collections::BTreeMap<T, u8>>(&doc)
        .ok()
        .map(|m| *m.keys().next().unwrap());
    let hash = structio::from_json::<HashMap<T, u8>>(&doc)
        .ok()
        .map(|m| *m.keys().next().unwrap());
    (value, btree, hash)
}

/// An integer map key is the canonical decimal spelling of an integer in range, as the
/// `propertyNames` pattern of the map's JSON Schema says (`^-?(0|[1-9][0-9]*)$`, no `-` for an
/// unsigned type): every other spelling a value may have (`1e2`, `1.0`, `-0` for an unsigned
/// type) is an error for a key.
#[test]
fn integer_map_keys_take_only_the_canonical_spelling() {
    let mut texts: Vec<String> = [
        "0",
        "-0",
        "00",
        "-00",
        "01",
        "-01",
        "+1",
        "+0",
        "1",
        "-1",
        "7",
        "-7",
        "10",
        "1.0",
        "1.5",
        "-1.5",
        "1e2",
        "1E2",
        "1e+2",
        "1e-2",
        "0e5",
        "-0e5",
        "0e999999999",
        "1e400",
        "1.",
        ".1",
        "-",
        "",
        "e1",
        "0x10",
        "1_000",
        "١",
        "Infinity",
        "NaN",
        "null",
        "true",
        "\"1\"",
        "1 2",
        "1,2",
        "--1",
        "-+1",
        "1-",
        "0.0",
        "-0.0",
        "99999999999999999999",
        "-99999999999999999999",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Each width's edges and one past them, as written and in exponent form.
    for edge in [
        i8::MIN as i128,
        i8::MAX as i128,
        u8::MAX as i128,
        i16::MIN as i128,
        i16::MAX as i128,
        u16::MAX as i128,
        i32::MIN as i128,
        i32::MAX as i128,
        u32::MAX as i128,
        i64::MIN as i128,
        i64::MAX as i128,
        u64::MAX as i128,
        i128::MIN,
        i128::MAX,
    ] {
        for d in [-1, 0, 1] {
            if let Some(v) = edge.checked_add(d) {
                texts.push(v.to_string());
            }
        }
    }
    texts.push(u128::MAX.to_string());
    texts.push(format!("{}0", u128::MAX));
    texts.push("340282366920938463463374607431768211456".into());
    texts.push("-170141183460469231731687303715884105729".into());
    texts.push("2e2".into());
    texts.push("25e1".into());
    texts.push("256e0".into());
    macro_rules! check {
        ($($t:ty),*) => {$(
            let signed = <$t>::MIN != 0;
            for text in &texts {
                let (value, btree, hash) = key_and_value::<$t>(text, signed);
                assert_eq!(
                    btree, value,
                    "{}: key {text:?} read as {btree:?}, value as {value:?}",
                    stringify!($t)
                );
                assert_eq!(hash, value, "{}: key {text:?}", stringify!($t));
            }
            // Whitespace around a value is the document's; in a key it is part of the text.
            for text in [" 1", "1 ", "\t1", "1\n"] {
                let (_, btree, hash) = key_and_value::<$t>(text, signed);
                assert_eq!((btree, hash), (None, None), "{}: key {text:?}", stringify!($t));
            }
        )*};
    }
    check!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
    // `-0` is not an unsigned key; the error quotes the key, and points at it.
    let e = err(
        "-0",
        structio::from_json::<std::collections::BTreeMap<u32, u8>>(r#"{"-0":1}"#),
    );
    assert_eq!(e.message(), "invalid integer map key `-0`");
    assert_eq!(e.offset(), 1);
    // It is for a signed one (the pattern allows it): the key 0.
    let m = structio::from_json::<std::collections::BTreeMap<i32, u8>>(r#"{"-0":1}"#).unwrap();
    assert_eq!(m.get(&0), Some(&1));
}

#[test]
fn huge_indents_are_rejected_or_clamped() {
    // Rejected where the function returns a `Result`, clamped to `MAX_INDENT` where it cannot
    // fail; either way nothing allocates for the indent asked for.
    bounded("json::huge_indents_are_rejected_or_clamped", 64, || {
        use structio::json::{prettify_into_with, to_json_with, MAX_INDENT};
        let doc = r#"{"a":[1,{"b":[]}],"c":"d"}"#;
        let widest = PrettyOptions {
            indent: MAX_INDENT,
            ..PrettyOptions::default()
        };
        let at_max = prettify_with(doc, &widest).unwrap();
        let v: Value = structio::from_json(doc).unwrap();
        for indent in [usize::MAX, usize::MAX / 2, 1_000_000_000, MAX_INDENT + 1] {
            let opts = PrettyOptions {
                indent,
                ..PrettyOptions::default()
            };
            let e = err("prettify", prettify_with(doc, &opts));
            assert_eq!(e.category(), structio::Category::Limit);
            assert!(e.message().contains("indent"), "{}", e.message());
            let mut out = b"kept".to_vec();
            err("prettify_into", prettify_into_with(doc, &mut out, &opts));
            assert_eq!(out, b"kept");
            let write = Options {
                pretty: true,
                indent,
                ..Options::default()
            };
            assert_eq!(to_json_with(&v, &write), at_max, "indent {indent}");
        }
    });
}

/// A struct with a `RawJson` member between others.
#[derive(structio::Reflect, Default, Debug, PartialEq)]
struct WithRaw<'a> {
    id: u32,
    raw: structio::RawJson<'a>,
    owned: RawJsonBuf,
    tail: Vec<u8>,
}

/// The next number below `n` from the xorshift state `seed`.
fn rnd(seed: &mut u64, n: u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed % n
}

/// Whitespace of some kind (or none), picked from `seed`.
fn ws(seed: &mut u64) -> &'static str {
    ["", " ", "\n", "\t", "\r\n", "  \n   ", "\n\n"][rnd(seed, 7) as usize]
}

/// A JSON value with whitespace of every kind in every place it may go, from `seed`.
fn spaced_json(seed: &mut u64, depth: usize, out: &mut String) {
    match rnd(seed, if depth == 0 { 4 } else { 6 }) {
        0 => out.push_str(
            ["null", "true", "-1.5e3", "0", "12345678901234567890"][rnd(seed, 5) as usize],
        ),
        1 => out.push_str(r#""a  b\n\t \" [ { , : ""#),
        2 => out.push_str("\"\""),
        3 => out.push_str("\" \u{e9}\u{1F600} \""),
        k => {
            let object = k == 5;
            out.push(if object { '{' } else { '[' });
            out.push_str(ws(seed));
            for i in 0..rnd(seed, 4) {
                if i > 0 {
                    out.push_str(ws(seed));
                    out.push(',');
                    out.push_str(ws(seed));
                }
                if object {
                    out.push_str(&format!("\"k {i}\""));
                    out.push_str(ws(seed));
                    out.push(':');
                    out.push_str(ws(seed));
                }
                spaced_json(seed, depth - 1, out);
            }
            out.push_str(ws(seed));
            out.push(if object { '}' } else { ']' });
        }
    }
}

#[test]
fn raw_json_reads_back_from_pretty_output() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut raws = 0;
    for round in 0..20_000 {
        let mut text = String::new();
        spaced_json(&mut seed, 1 + round % 4, &mut text);
        let raw = structio::RawJson::new(&text).unwrap();
        let v = WithRaw {
            id: round as u32,
            raw,
            owned: RawJsonBuf::new(text.clone()).unwrap(),
            tail: vec![1, 2],
        };
        for indent in [0, 1, 3, 8] {
            let opts = Options {
                pretty: true,
                indent,
                ..Options::default()
            };
            let pretty = structio::json::to_json_with(&v, &opts);
            let back: WithRaw =
                structio::from_json(&pretty).unwrap_or_else(|e| panic!("{e}\n{pretty}"));
            assert_eq!(back, v, "{pretty}");
            // The rest of the document is laid out as before.
            let compact = structio::to_json(&v);
            assert_eq!(
                structio::minify(&pretty).unwrap(),
                structio::minify(&compact).unwrap()
            );
        }
        // Strings hold only escaped line breaks: a real one is layout.
        raws += usize::from(text.contains('\n'));
    }
    assert!(raws > 5_000, "{raws} raw texts with line breaks");
}
