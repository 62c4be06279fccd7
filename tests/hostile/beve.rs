//! Hostile BEVE: counts far beyond the payload, `count * size` overflow, reserved header bits
//! and types, bad padding, truncated size integers, deep nesting and invalid UTF-8.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use crate::shapes::everything::{Everything, Inner};
use crate::{bounded, err, err_with, timed};
use structio::beve::{from_beve_with, transcode, transcode_with, BeveWriter, Options};
use structio::{ReadOptions, UnknownKeys, Value};

/// The compressed SIZE encoding of `n` (minimal width), or at the width `w` (1, 2, 4, 8).
fn size(n: u64) -> Vec<u8> {
    let w = match n {
        0..=0x3F => 1,
        0x40..=0x3FFF => 2,
        0x4000..=0x3FFF_FFFF => 4,
        _ => 8,
    };
    size_w(n, w)
}

fn size_w(n: u64, w: usize) -> Vec<u8> {
    let config = match w {
        1 => 0,
        2 => 1,
        4 => 2,
        _ => 3,
    };
    (n << 2 | config).to_le_bytes()[..w].to_vec()
}

/// `head` followed by SIZE(`n`) and `tail`.
fn doc(head: &[u8], n: u64, tail: &[u8]) -> Vec<u8> {
    [head, &size(n), tail].concat()
}

/// Every schema-less reader rejects `d`: `Value`, transcode (into BEVE) and skipping it as an
/// unknown member of a struct.
#[track_caller]
fn generic_reject(what: &str, d: &[u8]) {
    err(what, structio::from_beve::<Value>(d));
    err(what, transcode(d, &mut BeveWriter::new(Vec::new())));
    let mut opts = Options::default();
    opts.read.unknown_keys = UnknownKeys::Skip;
    let wrapped = [&[0x03, 0x04, 0x0C, b'z', b'z', b'z'][..], d].concat();
    err(what, from_beve_with::<Inner>(&wrapped, &opts));
}

/// The largest count a SIZE can carry.
const MAX_COUNT: u64 = (1 << 62) - 1;

#[test]
fn huge_counts_with_a_tiny_payload() {
    bounded("beve::huge_counts_with_a_tiny_payload", 64, || {
        let tail = [0u8; 16];
        for n in [1 << 20, 1 << 30, 1 << 40, 1 << 61, MAX_COUNT] {
            let what = |t: &str| format!("{t} of {n}");
            // Numeric typed arrays of every width, into Value, Vec, Cow, VecDeque, a struct.
            for h in [
                0x0C, 0x14, 0x2C, 0x34, 0x44, 0x4C, 0x54, 0x64, 0x6C, 0x74, 0x8C, 0x94, 0x24, 0x04,
            ] {
                let d = doc(&[h], n, &tail);
                generic_reject(&what("typed array"), &d);
                err(&what("Vec<f64>"), structio::from_beve::<Vec<f64>>(&d));
                err(&what("Vec<u8>"), structio::from_beve::<Vec<u8>>(&d));
                err(&what("Vec<i64>"), structio::from_beve::<Vec<i64>>(&d));
                err(&what("Cow<[f64]>"), structio::from_beve::<Cow<[f64]>>(&d));
                err(
                    &what("deque"),
                    structio::from_beve::<std::collections::VecDeque<u16>>(&d),
                );
            }
            // Aligned typed array.
            let d = [&[0x5C, 0x64][..], &size(n), &[0u8], &tail].concat();
            generic_reject(&what("aligned"), &d);
            err(
                &what("aligned Vec<f64>"),
                structio::from_beve::<Vec<f64>>(&d),
            );
            // Bool, string arrays; strings; generic arrays; objects of every key type.
            for (h, t) in [
                (0x1C, "bools"),
                (0x3C, "strings"),
                (0x02, "string"),
                (0x05, "array"),
            ] {
                let d = doc(&[h], n, &tail);
                generic_reject(&what(t), &d);
                err(&what(t), structio::from_beve::<Vec<bool>>(&d));
                err(&what(t), structio::from_beve::<Vec<String>>(&d));
                err(&what(t), structio::from_beve::<String>(&d));
                err(&what(t), structio::from_beve::<Vec<Option<u8>>>(&d));
                err(&what(t), structio::from_beve::<Vec<Inner>>(&d));
            }
            for h in [
                0x03, 0x0B, 0x2B, 0x4B, 0x6B, 0x13, 0x33, 0x53, 0x73, 0x8B, 0x93,
            ] {
                let d = doc(&[h], n, &tail);
                generic_reject(&what("object"), &d);
                err(&what("map"), structio::from_beve::<HashMap<String, u8>>(&d));
                err(
                    &what("map"),
                    structio::from_beve::<BTreeMap<i64, Option<u8>>>(&d),
                );
                err(&what("struct"), structio::from_beve::<Inner>(&d));
                err(&what("Everything"), structio::from_beve::<Everything>(&d));
            }
            // A string key whose length is huge.
            let d = [&[0x03, 0x04][..], &size(n), &tail].concat();
            generic_reject(&what("key"), &d);
            err(&what("key"), structio::from_beve::<Inner>(&d));
            // Complex arrays and matrices.
            for ch in [0x61u8, 0x41, 0x69] {
                let d = doc(&[0x1E, ch | 1], n, &tail);
                generic_reject(&what("complex array"), &d);
            }
            let d = [&[0x16, 0x00, 0x54][..], &size(n), &tail].concat();
            generic_reject(&what("matrix extents"), &d);
        }
    });
}

#[test]
fn a_generic_array_of_many_nulls_allocates_for_what_is_there() {
    // A generic array claiming 2^40 elements followed by a megabyte of nulls: the reader must
    // fail at the end of the input without having reserved 2^40 slots.
    bounded(
        "beve::a_generic_array_of_many_nulls_allocates_for_what_is_there",
        256,
        || {
            let d = doc(&[0x05], 1 << 40, &vec![0u8; 1 << 20]);
            timed("a million nulls", 3000, || {
                generic_reject("nulls", &d);
                err(
                    "Vec<Option<u8>>",
                    structio::from_beve::<Vec<Option<u8>>>(&d),
                );
                err("Vec<Value>", structio::from_beve::<Vec<Value>>(&d));
            });
            // The same array with the right count reads.
            let d = doc(&[0x05], 1 << 20, &vec![0u8; 1 << 20]);
            let v: Vec<Option<u8>> = structio::from_beve(&d).unwrap();
            assert_eq!(v.len(), 1 << 20);
        },
    );
}

#[test]
fn count_times_size_overflow() {
    // Counts whose byte length overflows 64 bits (and 62-bit counts that do not).
    for (h, n) in [
        (0x64u8, MAX_COUNT),
        (0x8C, MAX_COUNT),
        (0x94, (1 << 61) + 1),
        (0x44, 1 << 62 >> 1),
    ] {
        let d = doc(&[h], n, &[1, 2, 3, 4, 5, 6, 7, 8]);
        generic_reject("overflow", &d);
        err("Vec<u128>", structio::from_beve::<Vec<u128>>(&d));
        err("Vec<f64>", structio::from_beve::<Vec<f64>>(&d));
    }
    // The 8-byte SIZE form with the top value.
    let d = [&[0x64][..], &u64::MAX.to_le_bytes()].concat();
    generic_reject("all ones", &d);
}

#[test]
fn reserved_header_bits_and_types() {
    let mut rejected = Vec::new();
    for h in 0u8..=255 {
        // A payload that would make most valid headers succeed as a one-element container or a
        // small number: the header alone decides.
        let d = [
            &[h][..],
            &[0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0][..],
        ]
        .concat();
        if structio::from_beve::<Value>(&d).is_err() {
            rejected.push(h);
        }
        let t = transcode(&d, &mut BeveWriter::new(Vec::new()));
        assert_eq!(
            t.is_err(),
            structio::from_beve::<Value>(&d).is_err(),
            "header {h:#04x}: transcode and Value disagree"
        );
    }
    // Major type 7 is reserved; so are number class 3, 256-bit widths, typed-array sub-types
    // 3..7 of class 3, object key class 3, and extension ids past 3.
    let must = [
        0x07, 0x0F, 0x17, 0xFF, // major 7
        0x19, 0x39, 0x59, 0x79, // number class 3
        0xA1, 0xA9, 0xB1, 0xC1, 0xE1, // 32-byte and wider numbers
        0x7C, 0x9C, 0xBC, 0xDC, 0xFC, // class-3 typed-array sub-types 3..7
        0x1B, 0x3B, // object key class 3
        0x26, 0x2E, 0x36, 0xFE, // extension ids 4..31
        0x06, // a delimiter is not a value
    ];
    for h in must {
        assert!(rejected.contains(&h), "header {h:#04x} accepted");
    }
    // Unused bits of null, string and generic array headers must be zero.
    for h in [0x10, 0x20, 0x40, 0x80, 0x0A, 0x12, 0x22, 0x0D, 0x25] {
        assert!(
            rejected.contains(&h),
            "header {h:#04x} (reserved bits set) accepted"
        );
    }
}

#[test]
fn aligned_array_padding() {
    // 5C 64 SIZE(1) PAD p | p bytes | 8 data bytes: p < 8 reads, p >= 8 is an error.
    for p in 0u8..=20 {
        let mut d = vec![0x5C, 0x64, 0x04, p];
        d.resize(d.len() + p as usize, 0);
        d.extend(1.5f64.to_le_bytes());
        let v = structio::from_beve::<Vec<f64>>(&d);
        let g = structio::from_beve::<Value>(&d);
        if p < 8 {
            assert_eq!(v.unwrap(), [1.5], "padding {p}");
            assert!(g.is_ok(), "padding {p}");
        } else {
            err(&format!("padding {p}"), v);
            generic_reject(&format!("padding {p}"), &d);
        }
    }
    // The inner header must be numeric and wider than one byte is not required, but bool and
    // string element types are invalid.
    for inner in [0x1C, 0x3C, 0x5C, 0x05, 0x02, 0x00] {
        let d = [0x5C, inner, 0x04, 0x00, 0x01];
        generic_reject(&format!("aligned of {inner:#04x}"), &d);
    }
    // Padding past the end of the input.
    generic_reject("pad past end", &[0x5C, 0x64, 0x04, 0x07, 0, 0]);
}

#[test]
fn truncated_size_integers() {
    for head in [
        &[0x02][..],
        &[0x05],
        &[0x03],
        &[0x64],
        &[0x1C],
        &[0x3C],
        &[0x03, 0x04],
        &[0x5C, 0x64],
    ] {
        for w in [2usize, 4, 8] {
            let full = [head, &size_w(1, w)].concat();
            for cut in head.len()..full.len() {
                generic_reject(
                    &format!("{head:x?} size of width {w} cut at {cut}"),
                    &full[..cut],
                );
            }
        }
    }
}

#[test]
fn non_minimal_sizes_are_accepted() {
    // Glaze reads any width; so do we (documented).
    for w in [1usize, 2, 4, 8] {
        let d = [&[0x02][..], &size_w(2, w), b"hi"].concat();
        assert_eq!(structio::from_beve::<String>(&d).unwrap(), "hi");
    }
}

/// `n` nested one-element generic arrays around a null.
fn nested_arrays(n: usize) -> Vec<u8> {
    let mut v = [0x05, 0x04].repeat(n);
    v.push(0x00);
    v
}

/// `n` nested `{"next": ...}` objects around a null.
fn nested_next(n: usize) -> Vec<u8> {
    let mut v = [0x03, 0x04, 0x10, b'n', b'e', b'x', b't'].repeat(n);
    v.push(0x00);
    v
}

#[test]
fn a_million_nested_arrays() {
    bounded("beve::a_million_nested_arrays", 64, || {
        const N: usize = 1_000_000;
        let d = nested_arrays(N);
        timed("a million levels", 3000, || {
            err_with("Value", structio::from_beve::<Value>(&d), "nesting");
            err_with(
                "transcode",
                transcode(&d, &mut BeveWriter::new(Vec::new())),
                "nesting",
            );
            generic_reject("skip", &d);
        });
        err_with(
            "Inner",
            structio::from_beve::<Inner>(&nested_next(N)),
            "nesting",
        );
    });
}

#[test]
fn a_million_nested_arrays_without_a_depth_limit() {
    // With the limit lifted the schema-less walks are iterative: no stack overflow, and memory
    // stays proportional to the depth (a frame per open level, ~40 input bytes' worth each).
    bounded(
        "beve::a_million_nested_arrays_without_a_depth_limit",
        512,
        || {
            const N: usize = 1_000_000;
            let d = nested_arrays(N);
            let deep = ReadOptions {
                max_depth: usize::MAX,
                ..ReadOptions::default()
            };
            let mut w = BeveWriter::new(Vec::new());
            transcode_with(&d, &mut w, &deep).unwrap();
            assert_eq!(w.into_inner(), d);
            let v: Value = from_beve_with(
                &d,
                &Options {
                    read: deep,
                    ..Options::default()
                },
            )
            .unwrap();
            drop(v);
        },
    );
}

#[test]
fn the_depth_limit_is_exact() {
    assert_eq!(Options::default().read.max_depth, 256);
    for limit in [1usize, 10, 256] {
        let opts = Options {
            read: ReadOptions {
                max_depth: limit,
                ..ReadOptions::default()
            },
            ..Options::default()
        };
        for (depth, ok) in [(limit - 1, true), (limit, true), (limit + 1, false)] {
            let what = format!("depth {depth}, limit {limit}");
            let d = nested_arrays(depth);
            assert_eq!(from_beve_with::<Value>(&d, &opts).is_ok(), ok, "{what}");
            let t = transcode_with(&d, &mut BeveWriter::new(Vec::new()), &opts.read);
            assert_eq!(t.is_ok(), ok, "{what}");
            if depth > 0 {
                let r = from_beve_with::<Inner>(&nested_next(depth), &opts);
                assert_eq!(r.is_ok(), ok, "Inner {what}: {r:?}");
            }
        }
    }
}

#[test]
fn invalid_utf8_in_strings_keys_and_string_arrays() {
    let text = b"abcdefghij";
    for i in 0..text.len() {
        for bad in [&[0xFFu8][..], &[0xC0, 0xAF], &[0xED, 0xA0, 0x80], &[0x80]] {
            let mut s = text.to_vec();
            s.splice(i..i + 1, bad.iter().copied());
            let what = format!("{bad:x?} at {i}");
            let string = [&[0x02][..], &size(s.len() as u64), &s].concat();
            generic_reject(&what, &string);
            err(&what, structio::from_beve::<String>(&string));
            err(&what, structio::from_beve::<&str>(&string));
            let array = [&[0x3C, 0x04][..], &size(s.len() as u64), &s].concat();
            generic_reject(&what, &array);
            err(&what, structio::from_beve::<Vec<String>>(&array));
            let object = [&[0x03, 0x04][..], &size(s.len() as u64), &s, &[0x00]].concat();
            generic_reject(&what, &object);
            err(
                &what,
                structio::from_beve::<HashMap<String, Option<u8>>>(&object),
            );
        }
    }
}

#[test]
fn wrong_shapes() {
    // Float into an integer, out-of-range integers, bools with reserved bits, chars.
    err(
        "f64 into i32",
        structio::from_beve::<i32>(&structio::to_beve(&1.0f64)),
    );
    err(
        "300 into u8",
        structio::from_beve::<u8>(&structio::to_beve(&300u16)),
    );
    err(
        "-1 into u64",
        structio::from_beve::<u64>(&structio::to_beve(&-1i8)),
    );
    err(
        "array too long",
        structio::from_beve::<[u8; 2]>(&structio::to_beve(&vec![1u8, 2, 3])),
    );
    err(
        "array too short",
        structio::from_beve::<[u8; 4]>(&structio::to_beve(&vec![1u8, 2, 3])),
    );
    err(
        "surrogate char",
        structio::from_beve::<char>(&structio::to_beve(&0xD800u32)),
    );
    err(
        "trailing bytes",
        structio::from_beve::<Value>(&[0x00, 0x00]),
    );
    err("empty", structio::from_beve::<Value>(&[]));
    // RawJson in BEVE is a string of JSON text: it is validated like JSON.
    for text in ["{", "[1,]", "nul", "1 2", "\"\\ud800\"", ""] {
        let d = structio::to_beve(&text);
        err(text, structio::from_beve::<structio::RawJsonBuf>(&d));
        err(text, structio::from_beve::<structio::RawJson>(&d));
    }
    let d = structio::to_beve(&"{\"a\": [1]}");
    let raw: structio::RawJson = structio::from_beve(&d).unwrap();
    assert_eq!(raw.get(), "{\"a\": [1]}");
    // Bool arrays whose unused high bits are set.
    err(
        "bool padding bits",
        structio::from_beve::<Vec<bool>>(&[0x1C, 0x04, 0xFE]),
    );
}

/// A BEVE object with string keys: `entries` are keys and the BEVE bytes of their values.
fn str_object(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut d = doc(&[0x03], entries.len() as u64, &[]);
    for (k, v) in entries {
        d.extend(size(k.len() as u64));
        d.extend(k.as_bytes());
        d.extend(v);
    }
    d
}

#[test]
fn integers_past_the_f32_range_are_out_of_range() {
    // JSON's verdict on the same number.
    let json = err(
        "JSON u128::MAX as f32",
        structio::from_json::<f32>("340282366920938463463374607431768211455"),
    );
    assert_eq!(json.message(), "number out of range for f32");
    let same = |what: &str, e: structio::Error| {
        assert_eq!(
            (e.category(), e.message()),
            (json.category(), json.message()),
            "{what}"
        );
        e
    };
    // A u128 scalar: header 0x91, then 16 bytes.
    let scalar = [&[0x91][..], &[0xFF; 16]].concat();
    assert_eq!(scalar, structio::to_beve(&u128::MAX));
    same("scalar", err("scalar", structio::from_beve::<f32>(&scalar)));
    same(
        "halfway",
        err(
            "halfway",
            structio::from_beve::<f32>(&structio::to_beve(&(u128::MAX - (1 << 103) + 1))),
        ),
    );
    // Typed arrays, plain and aligned, bulk-converted into f32.
    let typed = structio::to_beve(&vec![1u128, u128::MAX]);
    let e = same(
        "typed",
        err("typed", structio::from_beve::<Vec<f32>>(&typed)),
    );
    assert_eq!(e.path(), "$[1]");
    let aligned = structio::to_beve_aligned(&vec![1u128, u128::MAX]);
    same(
        "aligned",
        err(
            "aligned",
            structio::from_beve::<Vec<f32>>(aligned.as_slice()),
        ),
    );
    same(
        "array",
        err("array", structio::from_beve::<[f32; 2]>(&typed)),
    );
    // A generic array of u128 values, element by element.
    let generic = structio::to_beve(&vec![Value::from(1u8), Value::from(u128::MAX)]);
    same(
        "generic",
        err("generic", structio::from_beve::<Vec<f32>>(&generic)),
    );
    // Through `Value`: the number keeps its kind and converts by the same rule.
    let v: Value = structio::from_beve(&scalar).unwrap();
    assert_eq!(v.as_number().unwrap().to::<f32>(), None);
    same(
        "JSON of Vec<f32>",
        err(
            "JSON typed",
            structio::from_json::<Vec<f32>>("[1,340282366920938463463374607431768211455]"),
        ),
    );
    // What does fit: f32::MAX as an integer, i128 at both ends, and any integer into f64.
    assert_eq!(
        structio::from_beve::<f32>(&structio::to_beve(&(f32::MAX as u128))).unwrap(),
        f32::MAX
    );
    let ends = structio::to_beve(&vec![i128::MIN, i128::MAX]);
    assert_eq!(
        structio::from_beve::<Vec<f32>>(&ends).unwrap(),
        [-(2f32.powi(127)), 2f32.powi(127)]
    );
    assert_eq!(
        structio::from_beve::<Vec<f64>>(&typed).unwrap(),
        [1.0, u128::MAX as f64]
    );
    assert_eq!(
        structio::from_beve::<f64>(&scalar).unwrap(),
        u128::MAX as f64
    );
    // The half types already refused.
    err("f16", structio::from_beve::<half::f16>(&scalar));
    err("bf16", structio::from_beve::<half::bf16>(&scalar));
}

#[test]
fn a_megabyte_key_makes_a_short_message() {
    let key = "k".repeat(1 << 20);
    let d = str_object(&[(&key, structio::to_beve(&"not a number"))]);
    let e = err(
        "type error",
        structio::from_beve::<HashMap<String, u32>>(&d),
    );
    let shown = e.to_string();
    assert!(shown.len() < 1024, "{} bytes: {shown:.200}", shown.len());
    assert!(e.path().contains("(1048576 bytes)"), "{}", e.path());
    let d = str_object(&[(&key, structio::to_beve(&1u32))]);
    let e = err("unknown key", structio::from_beve::<Inner>(&d));
    assert!(e.to_string().len() < 1024);
    assert_eq!(e.key().map(str::len), Some(1 << 20));
}

#[test]
fn adjacent_tag_and_content_repeated_in_any_order() {
    use crate::shapes::everything::Adjacent;
    let t = || structio::to_beve(&"Text");
    let c = |s: &str| structio::to_beve(&s);
    for (d, key) in [
        (str_object(&[("c", c("a")), ("t", t()), ("c", c("b"))]), "c"),
        (str_object(&[("t", t()), ("c", c("a")), ("c", c("b"))]), "c"),
        (str_object(&[("c", c("a")), ("c", c("b")), ("t", t())]), "c"),
        (str_object(&[("t", t()), ("t", t()), ("c", c("a"))]), "t"),
        (str_object(&[("t", t()), ("c", c("a")), ("t", t())]), "t"),
        (str_object(&[("c", c("a")), ("t", t()), ("t", t())]), "t"),
    ] {
        let e = err(key, structio::from_beve::<Adjacent>(&d));
        assert_eq!(e.message(), format!("duplicate key `{key}`"));
    }
    for d in [
        str_object(&[("c", c("b")), ("t", t())]),
        str_object(&[("t", t()), ("c", c("b"))]),
    ] {
        assert_eq!(
            structio::from_beve::<Adjacent>(&d).unwrap(),
            Adjacent::Text("b".into())
        );
    }
}

#[test]
fn string_keys_of_integer_maps_take_only_the_canonical_spelling() {
    // BEVE objects with string keys read into integer-keyed maps take the keys by JSON's rule
    // for integer keys: the canonical decimal spelling only (no exponent, fraction, `+`,
    // leading zero or space; `-0` for a signed type only).
    let canonical = |text: &str, signed: bool| {
        let digits = match text.strip_prefix('-') {
            Some(d) if signed => d,
            _ => text,
        };
        digits == "0"
            || (digits.starts_with(|c: char| ('1'..='9').contains(&c))
                && digits.bytes().all(|b| b.is_ascii_digit()))
    };
    for text in [
        "-0",
        "+1",
        "01",
        "1",
        "-1",
        "1e2",
        "1.0",
        " 1",
        "",
        "4294967296",
        "-0e0",
        "0e3",
    ] {
        let d = str_object(&[(text, structio::to_beve(&7u8))]);
        let beve = structio::from_beve::<BTreeMap<u32, u8>>(&d)
            .ok()
            .map(|m| *m.keys().next().unwrap());
        let json = structio::from_json::<u32>(text).ok();
        let json = json.filter(|_| canonical(text, false));
        assert_eq!(beve, json, "key {text:?}");
        let beve = structio::from_beve::<BTreeMap<i64, u8>>(&d)
            .ok()
            .map(|m| *m.keys().next().unwrap());
        let json = structio::from_json::<i64>(text)
            .ok()
            .filter(|_| canonical(text, true));
        assert_eq!(beve, json, "key {text:?}");
    }
}

#[test]
fn huge_indents_are_errors_when_transcoding() {
    bounded("beve::huge_indents_are_errors_when_transcoding", 64, || {
        let d = structio::to_beve(&vec![vec![1u8], vec![2]]);
        for indent in [usize::MAX, 1_000_000_000, structio::json::MAX_INDENT + 1] {
            let opts = structio::json::Options {
                pretty: true,
                indent,
                ..Default::default()
            };
            let e = err("indent", structio::beve::beve_to_json_with(&d, &opts));
            assert_eq!(e.category(), structio::Category::Limit);
            // Not pretty: the indent is not used.
            let compact = structio::json::Options {
                pretty: false,
                ..opts
            };
            assert_eq!(
                structio::beve::beve_to_json_with(&d, &compact).unwrap(),
                "[[1],[2]]"
            );
        }
        let opts = structio::json::Options {
            pretty: true,
            indent: structio::json::MAX_INDENT,
            ..Default::default()
        };
        let text = structio::beve::beve_to_json_with(&d, &opts).unwrap();
        assert_eq!(
            text,
            structio::json::prettify_with(
                "[[1],[2]]",
                &structio::json::PrettyOptions {
                    indent: structio::json::MAX_INDENT,
                    ..Default::default()
                }
            )
            .unwrap()
        );
    });
}
