//! Float parsing vectors (`tests/data/floats/data`, lines `F16HEX F32HEX F64HEX TEXT`): every
//! TEXT that is a JSON number reads bit-exactly as `f64`, `f32` and `f16` (negated too), a text
//! that overflows the type is an error, and what we write for each value reads back to the
//! same bits.

mod json_common;

use half::f16;

/// Whether `t` matches the JSON number grammar.
fn is_json_number(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let s = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - s
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

struct Vector {
    f16: u16,
    f32: u32,
    f64: u64,
    text: String,
}

/// The vectors whose TEXT is a JSON number, from every file of `tests/data/floats/data`.
fn vectors() -> Vec<Vector> {
    let paths = json_common::list(&json_common::data("floats/data"), ".txt");
    let mut v = Vec::new();
    for p in paths {
        for line in std::fs::read_to_string(&p).unwrap().lines() {
            let mut f = line.split_whitespace();
            let (Some(h), Some(s), Some(d), Some(t)) = (f.next(), f.next(), f.next(), f.next())
            else {
                continue;
            };
            if !is_json_number(t) {
                continue;
            }
            v.push(Vector {
                f16: u16::from_str_radix(h, 16).unwrap(),
                f32: u32::from_str_radix(s, 16).unwrap(),
                f64: u64::from_str_radix(d, 16).unwrap(),
                text: t.to_string(),
            });
        }
    }
    // 52,863 of the 52,977 lines are JSON numbers.
    assert_eq!(v.len(), 52_863, "JSON-number float vectors");
    v
}

#[test]
fn grammar_filter() {
    for t in ["0", "-0", "1.5", "1e5", "1E+5", "0.0e-1", "123"] {
        assert!(is_json_number(t), "{t}");
    }
    for t in [".5", "1.", "01", "+1", "1e", "inf", "0x1p3", "1_0", ""] {
        assert!(!is_json_number(t), "{t}");
    }
}

#[test]
fn every_vector_reads_bit_exactly() {
    let vs = vectors();
    let mut failures = Vec::new();
    for v in &vs {
        for neg in [false, true] {
            let text = if neg {
                format!("-{}", v.text)
            } else {
                v.text.clone()
            };
            let sign64 = if neg { 1 << 63 } else { 0 };
            let sign32 = if neg { 1 << 31 } else { 0 };
            let sign16 = if neg { 1 << 15 } else { 0 };

            let got = structio::from_json::<f64>(&text).map(f64::to_bits);
            let want = (v.f64 & !(1 << 63) != 0x7FF0_0000_0000_0000).then_some(v.f64 | sign64);
            if got.as_ref().ok() != want.as_ref() {
                failures.push(format!("f64 {text}: {got:x?} want {want:x?}"));
            }

            let got = structio::from_json::<f32>(&text).map(f32::to_bits);
            let want = (v.f32 & !(1 << 31) != 0x7F80_0000).then_some(v.f32 | sign32);
            if got.as_ref().ok() != want.as_ref() {
                failures.push(format!("f32 {text}: {got:x?} want {want:x?}"));
            }

            let got = structio::from_json::<f16>(&text).map(f16::to_bits);
            let want = (v.f16 & !(1 << 15) != 0x7C00).then_some(v.f16 | sign16);
            if got.as_ref().ok() != want.as_ref() {
                failures.push(format!("f16 {text}: {got:x?} want {want:x?}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}

#[test]
fn what_we_write_reads_back() {
    let vs = vectors();
    for v in &vs {
        let d = f64::from_bits(v.f64);
        if d.is_finite() {
            let t = structio::to_json(&d);
            let back: f64 = structio::from_json(&t).unwrap();
            assert_eq!(back.to_bits(), v.f64, "{t}");
        }
        let f = f32::from_bits(v.f32);
        if f.is_finite() {
            let t = structio::to_json(&f);
            let back: f32 = structio::from_json(&t).unwrap();
            assert_eq!(back.to_bits(), v.f32, "{t}");
        }
        let h = f16::from_bits(v.f16);
        if h.is_finite() {
            let t = structio::to_json(&h);
            let back: f16 = structio::from_json(&t).unwrap();
            assert_eq!(back.to_bits(), v.f16, "{t}");
        }
    }
}
