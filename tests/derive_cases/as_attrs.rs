//! `as_integer` (unit-only enums as their discriminant), `quoted` (numbers and bools as strings in
//! JSON) and `as_array` (structs as the array of their members), with BEVE's
//! `structs_as_arrays`; the exact bytes of each are in the case table.

use std::collections::BTreeMap;

use structio::Reflect;

use super::common::{both, from_json, json_error, prefixes_are_eof};

#[derive(Reflect, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
#[structio(as_integer)]
#[repr(i16)]
enum Code {
    #[default]
    Ok = 0,
    Gone = -410,
    #[structio(other)]
    Unknown = 999,
}

#[derive(Reflect, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
#[structio(as_integer)]
enum Plain {
    #[default]
    A,
    B,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(default)]
struct Coded {
    code: Code,
    plain: Plain,
    by_code: BTreeMap<Code, u8>,
}

#[test]
fn as_integer_reads_discriminants_and_names_the_type_on_a_name() {
    let v = from_json::<Coded>(r#"{"code":-410,"plain":1,"by_code":{"0":1,"-410":2}}"#);
    assert_eq!(v.code, Code::Gone);
    assert_eq!(v.plain, Plain::B);
    assert_eq!(v.by_code, [(Code::Ok, 1), (Code::Gone, 2)].into());
    let (msg, path) = json_error::<Coded>(r#"{"plain":"B"}"#);
    assert_eq!(path, "$.plain");
    assert!(msg.contains("Plain"), "{msg}");
    // An unknown integer: `other`, or an error without one.
    assert_eq!(from_json::<Coded>(r#"{"code":5}"#).code, Code::Unknown);
    assert_eq!(
        from_json::<Coded>(r#"{"by_code":{"5":1}}"#).by_code,
        [(Code::Unknown, 1)].into()
    );
    let (msg, path) = json_error::<Coded>(r#"{"plain":2}"#);
    assert_eq!(path, "$.plain");
    assert!(msg.contains("unknown variant"), "{msg}");
    // Not an integer: a fraction, a bool, a non-canonical key.
    for bad in [r#"{"plain":1.5}"#, r#"{"plain":true}"#, r#"{"plain":null}"#] {
        assert_eq!(json_error::<Coded>(bad).1, "$.plain", "{bad}");
    }
    for bad in [
        r#"{"by_code":{"01":1}}"#,
        r#"{"by_code":{"Ok":1}}"#,
        r#"{"by_code":{" 0":1}}"#,
    ] {
        assert!(structio::from_json::<Coded>(bad).is_err(), "{bad}");
    }
    prefixes_are_eof::<Coded>(r#"{"code":-410,"plain":1,"by_code":{"0":1}}"#);
    // BEVE: the discriminant of the repr type, as without the attribute; `other` too.
    both(&Code::Gone, "-410", "29 66 fe");
    assert_eq!(
        structio::from_beve::<Code>(&[0x29, 0x05, 0x00]).unwrap(),
        Code::Unknown
    );
}

#[test]
fn as_integer_schema() {
    let s = structio::json_schema::<Coded>();
    let text = structio::to_json(&s);
    assert!(
        text.contains(r#""enum":[0,-410,999]"#) || text.contains(r#""type":"integer""#),
        "{text}"
    );
    let p = structio::to_json(&structio::json_schema::<BTreeMap<Plain, u8>>());
    assert!(
        p.contains(r#""propertyNames":{"type":"string","enum":["0","1"]}"#),
        "{p}"
    );
    let p = structio::to_json(&structio::json_schema::<Plain>());
    assert!(p.contains(r#""type":"integer","enum":[0,1]"#), "{p}");
}

/// A repr(u128) discriminant past `i128::MAX`, in a plain unit-only enum and with `as_integer`.
#[derive(Reflect, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
#[repr(u128)]
enum Huge {
    #[default]
    Small = 1,
    Top = u128::MAX,
}

#[derive(Reflect, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
#[structio(as_integer)]
#[repr(u128)]
enum HugeInt {
    #[default]
    Small = 1,
    Top = u128::MAX,
}

#[test]
fn u128_discriminants_past_i128_max() {
    let top = "91 ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff";
    both(&Huge::Top, r#""Top""#, top);
    both(
        &HugeInt::Top,
        "340282366920938463463374607431768211455",
        top,
    );
    let m: BTreeMap<HugeInt, u8> = [(HugeInt::Top, 1)].into();
    assert_eq!(
        structio::to_json(&m),
        r#"{"340282366920938463463374607431768211455":1}"#
    );
    assert_eq!(
        structio::from_json::<BTreeMap<HugeInt, u8>>(&structio::to_json(&m)).unwrap(),
        m
    );
    assert_eq!(
        structio::from_beve::<BTreeMap<HugeInt, u8>>(&structio::to_beve(&m)).unwrap(),
        m
    );
    let h: BTreeMap<Huge, u8> = [(Huge::Top, 1)].into();
    assert_eq!(
        structio::from_beve::<BTreeMap<Huge, u8>>(&structio::to_beve(&h)).unwrap(),
        h
    );
    // -1 is not u128::MAX.
    assert!(structio::from_json::<HugeInt>("-1").is_err());
    assert!(
        structio::from_beve::<Huge>(&[0x69, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
            .is_err()
    );
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(default)]
struct Quoted {
    #[structio(quoted)]
    small: i8,
    #[structio(quoted)]
    big: i128,
    #[structio(quoted)]
    f: f32,
    #[structio(quoted)]
    flags: Vec<bool>,
    #[structio(quoted)]
    maybe: Option<u64>,
    #[structio(quoted)]
    nested: Vec<Option<u16>>,
    #[structio(quoted)]
    size: usize,
}

#[test]
fn quoted_reads_only_exact_numbers_in_strings() {
    let v = Quoted {
        small: -128,
        big: i128::MIN,
        f: 0.1,
        flags: vec![true, false],
        maybe: None,
        nested: vec![Some(1), None],
        size: 3,
    };
    let json = structio::to_json(&v);
    assert_eq!(
        json,
        r#"{"small":"-128","big":"-170141183460469231731687303715884105728","f":"0.1","flags":["true","false"],"nested":["1",null],"size":"3"}"#
    );
    assert_eq!(from_json::<Quoted>(&json), v);
    assert_eq!(
        structio::from_beve::<Quoted>(&structio::to_beve(&v)).unwrap(),
        v
    );
    prefixes_are_eof::<Quoted>(&json);
    // Only an `Option` takes null.
    assert_eq!(from_json::<Quoted>(r#"{"maybe":null}"#).maybe, None);
    assert_eq!(
        from_json::<Quoted>(r#"{"maybe":"18446744073709551615"}"#).maybe,
        Some(u64::MAX)
    );
    for (bad, path) in [
        (r#"{"small":1}"#, "$.small"),
        (r#"{"small":null}"#, "$.small"),
        (r#"{"small":"128"}"#, "$.small"),
        (r#"{"small":" 1"}"#, "$.small"),
        (r#"{"small":"1 "}"#, "$.small"),
        (r#"{"small":"+1"}"#, "$.small"),
        (r#"{"small":"01"}"#, "$.small"),
        (r#"{"small":""}"#, "$.small"),
        (r#"{"small":"1.0"}"#, "$.small"),
        (r#"{"small":"0x1"}"#, "$.small"),
        (r#"{"f":"NaN"}"#, "$.f"),
        (r#"{"f":"1e999"}"#, "$.f"),
        (r#"{"flags":["true","yes"]}"#, "$.flags[1]"),
        (r#"{"flags":[true]}"#, "$.flags[0]"),
        (r#"{"maybe":"18446744073709551616"}"#, "$.maybe"),
        (r#"{"nested":["1",2]}"#, "$.nested[1]"),
        (r#"{"size":"-1"}"#, "$.size"),
        (
            r#"{"big":"170141183460469231731687303715884105728"}"#,
            "$.big",
        ),
    ] {
        let (_, p) = json_error::<Quoted>(bad);
        assert_eq!(p, path, "{bad}");
    }
}

#[test]
fn quoted_schema_is_a_string_with_a_pattern() {
    let text = structio::to_json(&structio::json_schema::<Quoted>());
    assert!(
        text.contains(r#""small":{"type":"string","pattern":"^-?(0|[1-9][0-9]*)$"}"#),
        "{text}"
    );
    assert!(
        text.contains(
            r#""flags":{"type":"array","items":{"type":"string","pattern":"^(true|false)$"}}"#
        ),
        "{text}"
    );
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(as_array)]
struct Pt {
    x: i32,
    y: i32,
    label: Option<String>,
    #[structio(skip_read)]
    out_only: Option<u8>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Shape {
    name: String,
    points: Vec<Pt>,
}

#[test]
fn as_array_needs_exactly_its_members() {
    let s = Shape {
        name: "tri".into(),
        points: vec![
            Pt {
                x: 1,
                y: 2,
                label: Some("a".into()),
                out_only: None,
            },
            Pt::default(),
        ],
    };
    let json = structio::to_json(&s);
    assert_eq!(json, r#"{"name":"tri","points":[[1,2,"a"],[0,0,null]]}"#);
    assert_eq!(from_json::<Shape>(&json), s);
    assert_eq!(
        structio::from_beve::<Shape>(&structio::to_beve(&s)).unwrap(),
        s
    );
    prefixes_are_eof::<Shape>(&json);
    for (bad, path) in [
        (r#"{"points":[[1,2]]}"#, "$.points[0]"),
        (r#"{"points":[[1,2,null,4]]}"#, "$.points[0]"),
        (r#"{"points":[[1,"2",null]]}"#, "$.points[0][1]"),
        (r#"{"points":[{"x":1,"y":2}]}"#, "$.points[0]"),
        (r#"{"points":[[]]}"#, "$.points[0]"),
    ] {
        let (_, p) = json_error::<Shape>(bad);
        assert_eq!(p, path, "{bad}");
    }
    // The same in BEVE: an array of two where three are needed, one of four.
    let short = structio::to_beve(&(1i32, 2i32));
    assert!(structio::from_beve::<Pt>(&short).is_err());
    let long = structio::to_beve(&(1i32, 2i32, (), 4u8));
    assert!(structio::from_beve::<Pt>(&long).is_err());
    // Reading into a value: the `skip_read` member takes its default.
    let mut p = Pt {
        out_only: Some(9),
        ..Pt::default()
    };
    structio::read_json(&mut p, "[5,6,null]").unwrap();
    assert_eq!((p.x, p.y, p.out_only), (5, 6, None));
    let schema = structio::to_json(&structio::json_schema::<Pt>());
    assert!(schema.contains(r#""minItems":3,"maxItems":3"#), "{schema}");
}

/// The same members as `Shape`, without `as_array` anywhere.
#[derive(Reflect, Default, Debug, PartialEq)]
struct PlainPt {
    x: i32,
    y: i32,
    label: Option<String>,
    #[structio(skip_read)]
    out_only: Option<u8>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct PlainShape {
    name: String,
    points: Vec<PlainPt>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(as_array)]
struct RowShape {
    name: String,
    points: Vec<Pt>,
}

#[test]
fn beve_structs_as_arrays_writes_every_struct_as_its_array() {
    let opts = structio::beve::Options {
        structs_as_arrays: true,
        ..Default::default()
    };
    let v = PlainShape {
        name: "q".into(),
        points: vec![PlainPt {
            x: 1,
            y: -1,
            label: None,
            out_only: Some(3),
        }],
    };
    let bytes = structio::beve::to_beve_with(&v, &opts);
    let want = super::table::hex(
        r#"
        05 08              // generic array, 2 elements
        02 04 71           // string "q"
        05 04              // generic array, 1 element
          05 0c            // generic array, 3 elements
            49 01 00 00 00 // i32 1
            49 ff ff ff ff // i32 -1
            00             // null
        "#,
    );
    assert_eq!(bytes, want);
    let back: RowShape = structio::from_beve(&bytes).unwrap();
    assert_eq!(back.points[0].y, -1);
    // Every entry point with the options agrees.
    assert_eq!(structio::beve::beve_size_with(&v, &opts), bytes.len());
    let mut out = Vec::new();
    structio::beve::to_writer_with(&mut out, &v, &opts).unwrap();
    assert_eq!(out, bytes);
    assert_eq!(
        &structio::beve::to_beve_aligned_with(&v, &opts)[..],
        &bytes[..]
    );
    // Without the option, objects as before.
    assert_eq!(structio::to_beve(&v)[0], 0x03);
}
