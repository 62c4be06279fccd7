//! Structs with named fields: order, renaming, aliases, skipping, `None` members, nesting.

use structio::Reflect;

use super::common::{both, from_json, from_json_glaze, glaze_rule, json_error};

#[derive(Reflect, Default, Debug, PartialEq)]
struct Plain {
    id: u32,
    name: String,
    tags: Vec<String>,
    score: Option<i64>,
}

#[test]
fn fields_in_declaration_order_none_left_out() {
    let v = Plain {
        id: 7,
        name: "seven".into(),
        tags: vec!["a".into(), "b".into()],
        score: None,
    };
    both(
        &v,
        r#"{"id":7,"name":"seven","tags":["a","b"]}"#,
        r#"
            03 0c                                 // object, 3 members (score None)
            08 69 64  51 07 00 00 00              // "id": u32 7
            10 6e 61 6d 65  02 14 73 65 76 65 6e  // "name": string "seven"
            10 74 61 67 73  3c 08 04 61 04 62     // "tags": string array ["a", "b"]
        "#,
    );
    let v = Plain {
        score: Some(-3),
        ..v
    };
    both(
        &v,
        r#"{"id":7,"name":"seven","tags":["a","b"],"score":-3}"#,
        r#"
            03 10                                         // object, 4 members
            08 69 64  51 07 00 00 00                      // "id": u32 7
            10 6e 61 6d 65  02 14 73 65 76 65 6e          // "name": string "seven"
            10 74 61 67 73  3c 08 04 61 04 62             // "tags": string array ["a", "b"]
            14 73 63 6f 72 65  69 fd ff ff ff ff ff ff ff  // "score": i64 -3
        "#,
    );
}

#[test]
fn keys_in_any_order_and_missing_keys_keep_values() {
    let v: Plain = from_json(r#"{"score":1,"tags":[],"name":"n","id":2}"#);
    assert_eq!(
        v,
        Plain {
            id: 2,
            name: "n".into(),
            tags: vec![],
            score: Some(1)
        }
    );
    let mut v = Plain {
        id: 9,
        name: "kept".into(),
        tags: vec!["t".into()],
        score: Some(5),
    };
    // By default a required member left out is a missing key (the value is then partly read).
    let e = structio::read_json(&mut v, r#"{"id":1,"score":null}"#).unwrap_err();
    assert_eq!(
        (e.message(), e.path()),
        ("missing key `name`".into(), "$".into())
    );
    // Under Glaze's rule it keeps its value.
    let mut v = Plain {
        id: 9,
        name: "kept".into(),
        tags: vec!["t".into()],
        score: Some(5),
    };
    structio::json::read_json_with(&mut v, r#"{"id":1,"score":null}"#, &glaze_rule()).unwrap();
    assert_eq!(
        v,
        Plain {
            id: 1,
            name: "kept".into(),
            tags: vec!["t".into()],
            score: None
        }
    );
}

#[test]
fn unknown_key_is_an_error() {
    let (msg, _) = json_error::<Plain>(r#"{"id":1,"nope":2}"#);
    assert_eq!(msg, "unknown key `nope`");
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Renamed {
    #[structio(rename = "ID")]
    id: u32,
    #[structio(alias = "fullName", alias = "full_name")]
    name: String,
    #[structio(rename = "type")]
    kind: u8,
    r#match: bool,
}

#[test]
fn rename_and_raw_identifiers() {
    let v = Renamed {
        id: 1,
        name: "x".into(),
        kind: 2,
        r#match: true,
    };
    both(
        &v,
        r#"{"ID":1,"name":"x","type":2,"match":true}"#,
        r#"
            03 10                     // object, 4 members
            08 49 44  51 01 00 00 00  // "ID": u32 1
            10 6e 61 6d 65  02 04 78  // "name": string "x"
            10 74 79 70 65  11 02     // "type": u8 2
            14 6d 61 74 63 68  18     // "match": true
        "#,
    );
    let (msg, _) = json_error::<Renamed>(r#"{"id":1}"#);
    assert_eq!(msg, "unknown key `id`");
}

#[test]
fn aliases_are_accepted_on_input_only() {
    let v: Renamed = from_json_glaze(r#"{"fullName":"a"}"#);
    assert_eq!(v.name, "a");
    let v: Renamed = from_json_glaze(r#"{"full_name":"b","ID":3}"#);
    assert_eq!((v.name.as_str(), v.id), ("b", 3));
    assert_eq!(
        structio::to_json(&v),
        r#"{"ID":3,"name":"b","type":0,"match":false}"#
    );
    let (msg, path) = json_error::<Renamed>(r#"{"name":"a","fullName":"b"}"#);
    assert_eq!(msg, "keys `name` and `fullName` name the same field");
    assert_eq!(path, "$");
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Skips {
    a: u8,
    #[structio(skip)]
    cache: Vec<u64>,
    b: u8,
}

#[test]
fn skipped_fields_are_neither_written_nor_read() {
    let mut v = Skips {
        a: 1,
        cache: vec![9, 9],
        b: 2,
    };
    assert_eq!(structio::to_json(&v), r#"{"a":1,"b":2}"#);
    structio::read_json(&mut v, r#"{"b":5,"a":4}"#).unwrap();
    assert_eq!(v.cache, vec![9, 9]);
    assert_eq!((v.a, v.b), (4, 5));
    let (msg, _) = json_error::<Skips>(r#"{"cache":[]}"#);
    assert_eq!(msg, "unknown key `cache`");
    let bytes = structio::to_beve(&v);
    let back: Skips = structio::from_beve::<Skips>(&bytes).unwrap();
    assert_eq!((back.a, back.b, back.cache.len()), (4, 5, 0));
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Empty {}

#[test]
fn struct_without_fields_is_an_empty_object() {
    both(
        &Empty {},
        "{}",
        r#"
            03 00  // object, 0 members
        "#,
    );
    let (msg, _) = json_error::<Empty>(r#"{"a":1}"#);
    assert_eq!(msg, "unknown key `a`");
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Inner {
    x: i32,
    label: Option<String>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Outer {
    inner: Inner,
    list: Vec<Inner>,
    boxed: Option<Box<Inner>>,
}

#[test]
fn nested_structs_and_error_paths() {
    let v = Outer {
        inner: Inner {
            x: 1,
            label: Some("l".into()),
        },
        list: vec![Inner { x: 2, label: None }],
        boxed: Some(Box::new(Inner { x: 3, label: None })),
    };
    both(
        &v,
        r#"{"inner":{"x":1,"label":"l"},"list":[{"x":2}],"boxed":{"x":3}}"#,
        r#"
            03 0c                          // object, 3 members
            14 69 6e 6e 65 72  03 08       // "inner": object, 2 members
              04 78  49 01 00 00 00        // "x": i32 1
              14 6c 61 62 65 6c  02 04 6c  // "label": string "l"
            10 6c 69 73 74  05 04          // "list": generic array, 1 element
              03 04                        // object, 1 member
                04 78  49 02 00 00 00      // "x": i32 2
            14 62 6f 78 65 64  03 04       // "boxed": object, 1 member
              04 78  49 03 00 00 00        // "x": i32 3
        "#,
    );
    let (msg, path) = json_error::<Outer>(r#"{"list":[{"x":1},{"x":"no"}]}"#);
    assert!(msg.starts_with("expected"), "{msg}");
    assert_eq!(path, "$.list[1].x");
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(rename_all = "camelCase")]
struct Camel {
    first_name: String,
    #[structio(rename = "LAST")]
    last_name: String,
    age_in_years: u8,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(rename_all = "SCREAMING_SNAKE_CASE")]
struct Screaming {
    first_name: u8,
    x: u8,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(rename_all = "kebab-case")]
struct Kebab {
    first_name: u8,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(rename_all = "PascalCase")]
struct Pascal {
    first_name: u8,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(rename_all = "UPPERCASE")]
struct Upper {
    first_name: u8,
}

#[test]
fn rename_all_rules_on_fields() {
    let v = Camel {
        first_name: "a".into(),
        last_name: "b".into(),
        age_in_years: 3,
    };
    both(
        &v,
        r#"{"firstName":"a","LAST":"b","ageInYears":3}"#,
        r#"
            03 0c                                    // object, 3 members
            24 66 69 72 73 74 4e 61 6d 65  02 04 61  // "firstName": string "a"
            10 4c 41 53 54  02 04 62                 // "LAST": string "b"
            28 61 67 65 49 6e 59 65 61 72 73  11 03  // "ageInYears": u8 3
        "#,
    );
    both(
        &Screaming {
            first_name: 1,
            x: 2,
        },
        r#"{"FIRST_NAME":1,"X":2}"#,
        r#"
            03 08                                    // object, 2 members
            28 46 49 52 53 54 5f 4e 41 4d 45  11 01  // "FIRST_NAME": u8 1
            04 58  11 02                             // "X": u8 2
        "#,
    );
    both(
        &Kebab { first_name: 1 },
        r#"{"first-name":1}"#,
        r#"
            03 04                                    // object, 1 member
            28 66 69 72 73 74 2d 6e 61 6d 65  11 01  // "first-name": u8 1
        "#,
    );
    both(
        &Pascal { first_name: 1 },
        r#"{"FirstName":1}"#,
        r#"
            03 04                                 // object, 1 member
            24 46 69 72 73 74 4e 61 6d 65  11 01  // "FirstName": u8 1
        "#,
    );
    both(
        &Upper { first_name: 1 },
        r#"{"FIRST_NAME":1}"#,
        r#"
            03 04                                    // object, 1 member
            28 46 49 52 53 54 5f 4e 41 4d 45  11 01  // "FIRST_NAME": u8 1
        "#,
    );
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Unicode {
    #[structio(rename = "naïve café")]
    a: u8,
    #[structio(rename = "")]
    b: u8,
    #[structio(rename = "quote\"d")]
    c: u8,
}

#[test]
fn unusual_keys() {
    let v = Unicode { a: 1, b: 2, c: 3 };
    both(
        &v,
        r#"{"naïve café":1,"":2,"quote\"d":3}"#,
        r#"
            03 0c                                         // object, 3 members
            30 6e 61 c3 af 76 65 20 63 61 66 c3 a9  11 01  // "naïve café": u8 1
            00  11 02                                     // "": u8 2
            1c 71 75 6f 74 65 22 64  11 03                // "quote\"d": u8 3
        "#,
    );
}
