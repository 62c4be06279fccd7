//! The canonical-layout reader that `from_json` tries first for a `#[structio(canonical)]` type
//! (`structio::__private::json_compact`): whatever it reads, it reads to the full reader's
//! value; what the full reader rejects, it declines; and it reads every compact document
//! without escapes, for every kind of field (`Everything`).

mod shapes;

use shapes::everything::{Everything, SAMPLE_JSON};
use structio::__private::json_compact;
use structio::Reflect;

/// The sample with its strings' escapes taken out, written compact: a document the compact
/// reader must read whole.
fn plain_sample() -> String {
    let mut v: Everything = structio::from_json(SAMPLE_JSON).unwrap();
    v.string = "a b c".into();
    v.cow = "cöw".into();
    let text = structio::to_json(&v);
    assert!(!text.contains('\\'), "{text}");
    text
}

/// The compact reader's outcome on `text` agrees with the full reader's: a value only where
/// the full reader reads the same value.
fn agrees(text: &[u8]) {
    let compact = json_compact::<Everything>(text);
    let full = structio::from_json::<Everything>(text);
    match (compact, full) {
        (Some(c), Ok(f)) => assert_eq!(c, f, "{}", String::from_utf8_lossy(text)),
        (Some(c), Err(e)) => panic!(
            "compact read {c:?} where the full reader says {e}: {}",
            String::from_utf8_lossy(text)
        ),
        (None, _) => {}
    }
}

#[test]
fn compact_reads_every_field_kind() {
    let text = plain_sample();
    let full: Everything = structio::from_json(&text).unwrap();
    assert_eq!(json_compact::<Everything>(text.as_bytes()), Some(full));
}

#[test]
fn compact_agrees_with_the_full_reader_after_any_one_byte_change() {
    let text = plain_sample().into_bytes();
    // Whitespace, escapes, digits, signs, punctuation, a literal's letter, bytes that are not
    // UTF-8 and a lead byte of a two-byte character, at every position; and a space inserted
    // before every byte.
    let bytes = [
        b' ', b'\n', b'\\', b'"', b'0', b'9', b'-', b'.', b'e', b'{', b'}', b'[', b']', b',', b':',
        b'n', 0xFF, 0xC3, 0x01,
    ];
    for i in 0..text.len() {
        for &b in &bytes {
            let mut t = text.clone();
            t[i] = b;
            agrees(&t);
        }
        let mut t = text.clone();
        t.insert(i, b' ');
        agrees(&t);
        agrees(&text[..i]);
    }
}

/// One number in a canonical struct, and its ordinary twin.
macro_rules! number_twins {
    ($($fast:ident / $slow:ident: $t:ty),* $(,)?) => {$(
        #[derive(Reflect, Debug, PartialEq)]
        #[structio(canonical)]
        struct $fast { n: $t }
        #[derive(Reflect, Debug, PartialEq)]
        struct $slow { n: $t }
    )*};
}

number_twins! {
    I8 / I8Slow: i8, U8 / U8Slow: u8, I32 / I32Slow: i32, U32 / U32Slow: u32,
    I64 / I64Slow: i64, U64 / U64Slow: u64, I128 / I128Slow: i128, U128 / U128Slow: u128,
    F32 / F32Slow: f32, F64 / F64Slow: f64,
}

#[test]
fn compact_numbers_read_as_the_full_reader_reads_them() {
    let numbers = [
        "0",
        "-0",
        "00",
        "01",
        "-01",
        "7",
        "-7",
        "1.5",
        "-1.5",
        "1e3",
        "1E3",
        "1e-3",
        "0.0",
        "-0.0",
        "127",
        "128",
        "-128",
        "-129",
        "255",
        "256",
        "-1",
        "99999999",
        "100000000",
        "-99999999",
        "123456789",
        "2147483647",
        "2147483648",
        "-2147483648",
        "-2147483649",
        "4294967295",
        "4294967296",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "340282366920938463463374607431768211455",
        "-",
        "--1",
        "+1",
        "1.",
        ".5",
        "1e",
        "0x1",
        "1_0",
        "NaN",
        "1 ",
        "1,",
        "3.4028235e38",
        "1e400",
    ];
    for n in numbers {
        let text = format!(r#"{{"n":{n}}}"#);
        macro_rules! check {
            ($($fast:ident / $slow:ident),*) => {$(
                let fast = structio::from_json::<$fast>(&text).map(|v| v.n);
                let slow = structio::from_json::<$slow>(&text).map(|v| v.n);
                match (&fast, &slow) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{text}"),
                    _ => panic!("{text}: canonical {fast:?}, ordinary {slow:?}"),
                }
            )*};
        }
        check!(
            I8 / I8Slow,
            U8 / U8Slow,
            I32 / I32Slow,
            U32 / U32Slow,
            I64 / I64Slow,
            U64 / U64Slow,
            I128 / I128Slow,
            U128 / U128Slow,
            F32 / F32Slow,
            F64 / F64Slow
        );
    }
}

/// A canonical struct with strings of every kind.
#[derive(Reflect, Debug, PartialEq)]
#[structio(canonical)]
struct Texts<'a> {
    owned: String,
    borrowed: &'a str,
    cow: std::borrow::Cow<'a, str>,
    ch: char,
}

#[test]
fn compact_strings_are_checked_where_they_are() {
    // Plain text borrows; escapes and bad UTF-8 go to the full reader, which unescapes or
    // reports them.
    let ok: Texts =
        structio::from_json(r#"{"owned":"ö","borrowed":"b","cow":"c","ch":"é"}"#).unwrap();
    assert_eq!(
        (ok.owned.as_str(), ok.borrowed, &*ok.cow, ok.ch),
        ("ö", "b", "c", 'é')
    );
    assert!(
        json_compact::<Texts>(br#"{"owned":"a\n","borrowed":"b","cow":"c","ch":"x"}"#).is_none()
    );
    let escaped: Texts =
        structio::from_json(r#"{"owned":"a\n","borrowed":"b","cow":"c\u00e9","ch":"x"}"#).unwrap();
    assert_eq!((escaped.owned.as_str(), &*escaped.cow), ("a\n", "cé"));
    for bad in [
        &b"{\"owned\":\"\xff\",\"borrowed\":\"b\",\"cow\":\"c\",\"ch\":\"x\"}"[..],
        b"{\"owned\":\"a\",\"borrowed\":\"\xc3\",\"cow\":\"c\",\"ch\":\"x\"}",
        b"{\"owned\":\"a\",\"borrowed\":\"b\",\"cow\":\"c\",\"ch\":\"x\"}\xff",
        b"{\"owned\":\"a\",\"borrowed\":\"b\",\"cow\":\"c\x01\",\"ch\":\"x\"}",
    ] {
        assert!(json_compact::<Texts>(bad).is_none());
        assert!(structio::from_json::<Texts>(bad).is_err());
    }
    // Trailing whitespace is allowed, anything else after the value is not.
    assert!(structio::from_json::<Texts>(
        "{\"owned\":\"a\",\"borrowed\":\"b\",\"cow\":\"c\",\"ch\":\"x\"} \n"
    )
    .is_ok());
    let e = structio::from_json::<Texts>(r#"{"owned":"a","borrowed":"b","cow":"c","ch":"x"}x"#)
        .unwrap_err();
    assert!(e.to_string().contains("trailing"), "{e}");
}

/// A canonical struct nested in itself, for the depth limit.
#[derive(Reflect, Debug, PartialEq)]
#[structio(canonical)]
struct Deep {
    next: Option<Box<Deep>>,
}

#[test]
fn compact_keeps_the_depth_limit() {
    let n = 300;
    let text = format!("{}null{}", r#"{"next":"#.repeat(n), "}".repeat(n));
    let e = structio::from_json::<Deep>(&text).unwrap_err();
    assert!(e.to_string().contains("deeper than the limit"), "{e}");
    let text = format!("{}null{}", r#"{"next":"#.repeat(100), "}".repeat(100));
    assert!(structio::from_json::<Deep>(&text).is_ok());
    assert!(json_compact::<Deep>(text.as_bytes()).is_some());
}

#[test]
fn failing_deep_inside_nested_canonical_values_reads_in_linear_time() {
    // Each level's canonical attempt fails with the innermost error; without the reader
    // stopping further attempts, every level would read its subtree twice: 2^250 reads.
    for inner in ["1", r#"{"next":1}"#, r#"{ "next" : 1 }"#] {
        let text = format!("{}{inner}{}", r#"{"next":"#.repeat(250), "}".repeat(250));
        let e = structio::from_json::<Deep>(&text).unwrap_err();
        assert!(e.path().starts_with("$.next.next"), "{e}");
        assert!(structio::json::parse::<Deep>(&text).is_err());
    }
    // A layout the attempts do not recognise, deep inside, still reads.
    let text = format!("{}{{ }}{}", r#"{"next":"#.repeat(250), "}".repeat(250));
    assert!(structio::from_json::<Deep>(&text).is_ok());
}

#[test]
fn canonical_twins_agree_after_any_one_byte_change() {
    use shapes::canonical::{CanonCall, SAMPLE};
    use shapes::oracles::canonical_twins;
    let text = SAMPLE.as_bytes();
    // The sample is read on the canonical path, nested structs included.
    assert!(json_compact::<CanonCall>(text).is_some());
    canonical_twins(text);
    let bytes = [
        b' ', b'\\', b'"', b'0', b'9', b'-', b'.', b'e', b'{', b'}', b'[', b']', b',', b':', b'n',
        0xFF, 0xC3, 0x01,
    ];
    for i in 0..text.len() {
        for &b in &bytes {
            let mut t = text.to_vec();
            t[i] = b;
            canonical_twins(&t);
        }
    }
    // Members of the nested structs in another order, left out, or added; compact throughout.
    for t in [
        SAMPLE.replace(r#""left":2,"right":-40"#, r#""right":-40,"left":2"#),
        SAMPLE.replace(r#""more":null"#, r#""more":{"small":1,"left":1,"right":1}"#),
        SAMPLE.replace(r#""more":null"#, r#""more":{"left":1,"right":1,"small":1}"#),
        SAMPLE.replace(r#","small":3}"#, "}"),
        SAMPLE.replace(r#""small":7"#, r#""small":7,"extra":[1,{"a":2}]"#),
        SAMPLE.replace(r#""small":7"#, r#""small":700"#),
        // The tags: another variant, an alias, an escaped name, an unknown name, another type.
        SAMPLE.replace(r#""tools/call""#, r#""add""#),
        SAMPLE.replace(r#""tools/call""#, r#""Stop""#),
        SAMPLE.replace(r#""tools/call""#, r#""call""#),
        SAMPLE.replace(r#""tools/call""#, r#""tools\/call""#),
        SAMPLE.replace(r#""tools/call""#, r#""tools/cal""#),
        SAMPLE.replace(r#""tools/call""#, r#""tools/calls""#),
        SAMPLE.replace(r#""tools/call""#, "2"),
        SAMPLE.replace(r#""T9""#, r#""T1""#),
        SAMPLE.replace(r#""T9""#, "null"),
        SAMPLE.replace(r#""T9""#, r#""T10""#),
    ] {
        canonical_twins(t.as_bytes());
    }
}
