//! Enums with data in the four representations: externally tagged (default), internally
//! tagged, adjacently tagged and untagged.

use structio::Reflect;

use super::common::{both, from_json, from_json_glaze, glaze_rule, json_error, prefixes_are_eof};

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
enum Ext {
    #[default]
    Unit,
    #[structio(rename = "num", alias = "number")]
    New(i32),
    Pair(u8, String),
    Point {
        x: i32,
        #[structio(rename = "Y")]
        y: i32,
    },
    Empty {},
    NoElems(),
    #[structio(rename_all = "camelCase")]
    Camel {
        long_name: u8,
    },
}

#[test]
fn external_writes_every_kind_of_variant() {
    both(
        &Ext::Unit,
        r#""Unit""#,
        r#"
            02 10 55 6e 69 74  // string "Unit"
        "#,
    );
    both(
        &Ext::New(-5),
        r#"{"num":-5}"#,
        r#"
            03 04                        // object, 1 member
            0c 6e 75 6d  49 fb ff ff ff  // "num": i32 -5
        "#,
    );
    both(
        &Ext::Pair(1, "a".into()),
        r#"{"Pair":[1,"a"]}"#,
        r#"
            03 04                  // object, 1 member
            10 50 61 69 72  05 08  // "Pair": generic array, 2 elements
              11 01                // u8 1
              02 04 61             // string "a"
        "#,
    );
    both(
        &Ext::Point { x: 1, y: 2 },
        r#"{"Point":{"x":1,"Y":2}}"#,
        r#"
            03 04                     // object, 1 member
            14 50 6f 69 6e 74  03 08  // "Point": object, 2 members
              04 78  49 01 00 00 00   // "x": i32 1
              04 59  49 02 00 00 00   // "Y": i32 2
        "#,
    );
    both(
        &Ext::Empty {},
        r#"{"Empty":{}}"#,
        r#"
            03 04                     // object, 1 member
            14 45 6d 70 74 79  03 00  // "Empty": object, 0 members
        "#,
    );
    both(
        &Ext::NoElems(),
        r#"{"NoElems":[]}"#,
        r#"
            03 04                           // object, 1 member
            1c 4e 6f 45 6c 65 6d 73  05 00  // "NoElems": generic array, 0 elements
        "#,
    );
    both(
        &Ext::Camel { long_name: 1 },
        r#"{"Camel":{"longName":1}}"#,
        r#"
            03 04                                // object, 1 member
            14 43 61 6d 65 6c  03 04             // "Camel": object, 1 member
              20 6c 6f 6e 67 4e 61 6d 65  11 01  // "longName": u8 1
        "#,
    );
}

#[test]
fn external_reads_alternative_forms() {
    assert_eq!(from_json::<Ext>(r#"{"Unit":null}"#), Ext::Unit);
    assert_eq!(from_json::<Ext>(r#"{"number":3}"#), Ext::New(3));
    assert_eq!(
        from_json_glaze::<Ext>(r#" { "Point" : { "Y" : 2 } } "#),
        Ext::Point { x: 0, y: 2 }
    );
    assert_eq!(
        json_error::<Ext>(r#" { "Point" : { "Y" : 2 } } "#),
        ("missing key `x`".into(), "$.Point".into())
    );
}

#[test]
fn external_errors() {
    let cases: &[(&str, &str)] = &[
        (r#""Pair""#, "variant `Pair` holds data: expected an object"),
        (
            "{}",
            "expected an object with exactly one key naming the variant",
        ),
        (
            r#"{"Unit":null,"num":1}"#,
            "expected an object with exactly one key naming the variant, found a second key `num`",
        ),
        (r#"{"Nope":1}"#, "unknown variant `Nope`"),
        (r#""Nope""#, "unknown variant `Nope`"),
        ("5", "expected a string or an object, found a number"),
        (r#"{"Unit":1}"#, "expected null, found a number"),
    ];
    for (json, want) in cases {
        assert_eq!(json_error::<Ext>(json).0, *want, "{json}");
    }
    assert_eq!(json_error::<Ext>(r#"{"Point":{"x":"a"}}"#).1, "$.Point.x");
    assert_eq!(json_error::<Ext>(r#"{"Pair":[1,2]}"#).1, "$.Pair[1]");
    prefixes_are_eof::<Ext>(r#"{"Point":{"x":1,"Y":2}}"#);
}

#[test]
fn reading_the_same_variant_reuses_it() {
    // Under Glaze's rule a member left out keeps its value, or takes its default in a new
    // variant; by default it is a missing key.
    let glaze = glaze_rule();
    let mut v = Ext::Point { x: 1, y: 2 };
    structio::json::read_json_with(&mut v, r#"{"Point":{"Y":5}}"#, &glaze).unwrap();
    assert_eq!(v, Ext::Point { x: 1, y: 5 });
    let mut v = Ext::Unit;
    structio::json::read_json_with(&mut v, r#"{"Point":{"Y":5}}"#, &glaze).unwrap();
    assert_eq!(v, Ext::Point { x: 0, y: 5 });
    let e = structio::read_json(&mut v, r#"{"Point":{"Y":6}}"#).unwrap_err();
    assert_eq!(e.message(), "missing key `x`");
    let mut v = Ext::Pair(1, String::with_capacity(64));
    structio::read_json(&mut v, r#"{"Pair":[2,"b"]}"#).unwrap();
    match &v {
        Ext::Pair(2, s) => assert!(s == "b" && s.capacity() >= 64),
        other => panic!("{other:?}"),
    }
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Inner {
    a: u8,
    b: Option<u8>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(tag = "type", rename_all = "snake_case")]
enum Shape {
    Circle {
        r: f64,
    },
    RightRect {
        w: u32,
        h: u32,
        label: Option<String>,
        #[structio(skip)]
        cache: u64,
    },
    #[default]
    Nothing,
    Wrapped(Inner),
    Group {
        items: Vec<Inner>,
    },
}

#[test]
fn internal_puts_the_tag_first() {
    both(
        &Shape::Circle { r: 1.5 },
        r#"{"type":"circle","r":1.5}"#,
        r#"
            03 08                                    // object, 2 members
            10 74 79 70 65  02 18 63 69 72 63 6c 65  // "type": string "circle"
            04 72  61 00 00 00 00 00 00 f8 3f        // "r": f64 1.5
        "#,
    );
    both(
        &Shape::RightRect {
            w: 1,
            h: 2,
            label: None,
            cache: 0,
        },
        r#"{"type":"right_rect","w":1,"h":2}"#,
        r#"
            03 0c                                         // object, 3 members
            10 74 79 70 65  02 28 72 69 67 68 74 5f 72 65 63 74  // "type": string "right_rect"
            04 77  51 01 00 00 00                         // "w": u32 1
            04 68  51 02 00 00 00                         // "h": u32 2
        "#,
    );
    both(
        &Shape::RightRect {
            w: 1,
            h: 2,
            label: Some("l".into()),
            cache: 0,
        },
        r#"{"type":"right_rect","w":1,"h":2,"label":"l"}"#,
        r#"
            03 10                                         // object, 4 members
            10 74 79 70 65  02 28 72 69 67 68 74 5f 72 65 63 74  // "type": string "right_rect"
            04 77  51 01 00 00 00                         // "w": u32 1
            04 68  51 02 00 00 00                         // "h": u32 2
            14 6c 61 62 65 6c  02 04 6c                   // "label": string "l"
        "#,
    );
    both(
        &Shape::Nothing,
        r#"{"type":"nothing"}"#,
        r#"
            03 04                                       // object, 1 member
            10 74 79 70 65  02 1c 6e 6f 74 68 69 6e 67  // "type": string "nothing"
        "#,
    );
    both(
        &Shape::Wrapped(Inner { a: 1, b: Some(2) }),
        r#"{"type":"wrapped","a":1,"b":2}"#,
        r#"
            03 0c                                       // object, 3 members
            10 74 79 70 65  02 1c 77 72 61 70 70 65 64  // "type": string "wrapped"
            04 61  11 01                                // "a": u8 1
            04 62  11 02                                // "b": u8 2
        "#,
    );
    both(
        &Shape::Wrapped(Inner { a: 1, b: None }),
        r#"{"type":"wrapped","a":1}"#,
        r#"
            03 08                                       // object, 2 members
            10 74 79 70 65  02 1c 77 72 61 70 70 65 64  // "type": string "wrapped"
            04 61  11 01                                // "a": u8 1
        "#,
    );
}

#[test]
fn internal_finds_a_late_tag() {
    assert_eq!(
        from_json::<Shape>(r#"{"h":2,"w":1,"type":"right_rect"}"#),
        Shape::RightRect {
            w: 1,
            h: 2,
            label: None,
            cache: 0
        }
    );
    assert_eq!(
        from_json::<Shape>(r#"{"a":3,"type":"wrapped"}"#),
        Shape::Wrapped(Inner { a: 3, b: None })
    );
    // The scan for the tag passes over nested values; a tag inside them is an ordinary key.
    assert_eq!(
        from_json::<Shape>(r#"{"items":[{"a":1},{"a":2}],"type":"group"}"#),
        Shape::Group {
            items: vec![Inner { a: 1, b: None }, Inner { a: 2, b: None }]
        }
    );
    let (msg, path) = json_error::<Shape>(r#"{"items":[{"type":"x"}],"type":"group"}"#);
    assert_eq!(
        (msg.as_str(), path.as_str()),
        ("unknown key `type`", "$.items[0]")
    );
    prefixes_are_eof::<Shape>(r#"{"w":1,"type":"right_rect","h":2}"#);
}

#[test]
fn internal_errors() {
    let cases: &[(&str, &str)] = &[
        (r#"{"w":1}"#, "missing key `type`"),
        ("{}", "missing key `type`"),
        (r#"{"type":"triangle"}"#, "unknown variant `triangle`"),
        (r#"{"type":"circle","q":1}"#, "unknown key `q`"),
        (r#"{"type":"nothing","q":1}"#, "unknown key `q`"),
        (r#"{"type":"wrapped","cache":1}"#, "unknown key `cache`"),
        (r#"{"type":1}"#, "expected a string, found a number"),
    ];
    for (json, want) in cases {
        assert_eq!(json_error::<Shape>(json).0, *want, "{json}");
    }
    assert_eq!(json_error::<Shape>(r#"{"type":"circle","r":"x"}"#).1, "$.r");
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(tag = "t", content = "c")]
enum Adj {
    #[default]
    A,
    B(i32),
    C {
        x: u8,
    },
    D(u8, u8),
}

#[test]
fn adjacent_tag_then_content() {
    both(
        &Adj::A,
        r#"{"t":"A"}"#,
        r#"
            03 04            // object, 1 member
            04 74  02 04 41  // "t": string "A"
        "#,
    );
    both(
        &Adj::B(3),
        r#"{"t":"B","c":3}"#,
        r#"
            03 08                  // object, 2 members
            04 74  02 04 42        // "t": string "B"
            04 63  49 03 00 00 00  // "c": i32 3
        "#,
    );
    both(
        &Adj::C { x: 1 },
        r#"{"t":"C","c":{"x":1}}"#,
        r#"
            03 08            // object, 2 members
            04 74  02 04 43  // "t": string "C"
            04 63  03 04     // "c": object, 1 member
              04 78  11 01   // "x": u8 1
        "#,
    );
    both(
        &Adj::D(1, 2),
        r#"{"t":"D","c":[1,2]}"#,
        r#"
            03 08            // object, 2 members
            04 74  02 04 44  // "t": string "D"
            04 63  05 08     // "c": generic array, 2 elements
              11 01          // u8 1
              11 02          // u8 2
        "#,
    );
}

#[test]
fn adjacent_reads_either_order() {
    assert_eq!(
        from_json::<Adj>(r#"{"c":{"x":4},"t":"C"}"#),
        Adj::C { x: 4 }
    );
    assert_eq!(from_json::<Adj>(r#"{"c":[5,6],"t":"D"}"#), Adj::D(5, 6));
    assert_eq!(from_json::<Adj>(r#"{"t":"A","c":null}"#), Adj::A);
    assert_eq!(from_json::<Adj>(r#"{"c":null,"t":"A"}"#), Adj::A);
    prefixes_are_eof::<Adj>(r#"{"c":{"x":4},"t":"C"}"#);
}

#[test]
fn adjacent_errors() {
    let cases: &[(&str, &str)] = &[
        (r#"{"t":"B"}"#, "missing key `c`"),
        (r#"{"c":1}"#, "missing key `t`"),
        (r#"{"t":"B","c":1,"z":0}"#, "unknown key `z`"),
        (r#"{"t":"B","t":"B","c":1}"#, "duplicate key `t`"),
        (r#"{"c":1,"c":1,"t":"B"}"#, "duplicate key `c`"),
        (r#"{"t":"E","c":1}"#, "unknown variant `E`"),
        (r#"{"t":"A","c":1}"#, "expected null, found a number"),
    ];
    for (json, want) in cases {
        assert_eq!(json_error::<Adj>(json).0, *want, "{json}");
    }
    assert_eq!(json_error::<Adj>(r#"{"t":"C","c":{"x":"s"}}"#).1, "$.c.x");
    assert_eq!(json_error::<Adj>(r#"{"c":{"x":"s"},"t":"C"}"#).1, "$.c.x");
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(untagged)]
enum Any {
    #[default]
    Nil,
    Flag(bool),
    Int(i64),
    Float(f64),
    Text(String),
    List(Vec<Any>),
    Pt {
        x: i32,
        y: i32,
    },
    Named {
        name: String,
    },
    Pair(u8, u8),
}

#[test]
fn untagged_writes_bare_payloads() {
    both(
        &Any::Nil,
        "null",
        r#"
            00  // null
        "#,
    );
    both(
        &Any::Flag(true),
        "true",
        r#"
            18  // true
        "#,
    );
    both(
        &Any::Int(-3),
        "-3",
        r#"
            69 fd ff ff ff ff ff ff ff  // i64 -3
        "#,
    );
    both(
        &Any::Float(1.5),
        "1.5",
        r#"
            61 00 00 00 00 00 00 f8 3f  // f64 1.5
        "#,
    );
    both(
        &Any::Text("s".into()),
        r#""s""#,
        r#"
            02 04 73  // string "s"
        "#,
    );
    both(
        &Any::List(vec![Any::Int(1), Any::Text("a".into()), Any::Nil]),
        r#"[1,"a",null]"#,
        r#"
            05 0c                         // generic array, 3 elements
              69 01 00 00 00 00 00 00 00  // i64 1
              02 04 61                    // string "a"
              00                          // null
        "#,
    );
    both(
        &Any::Pt { x: 1, y: 2 },
        r#"{"x":1,"y":2}"#,
        r#"
            03 08                  // object, 2 members
            04 78  49 01 00 00 00  // "x": i32 1
            04 79  49 02 00 00 00  // "y": i32 2
        "#,
    );
    both(
        &Any::Named { name: "n".into() },
        r#"{"name":"n"}"#,
        r#"
            03 04                     // object, 1 member
            10 6e 61 6d 65  02 04 6e  // "name": string "n"
        "#,
    );
}

#[test]
fn untagged_first_variant_that_reads_wins() {
    assert_eq!(from_json::<Any>("2.5"), Any::Float(2.5));
    assert_eq!(from_json::<Any>(r#"{"x":1,"y":0}"#), Any::Pt { x: 1, y: 0 });
    // A struct variant missing a member does not match (`Named` does not either).
    assert_eq!(
        json_error::<Any>(r#"{"x":1}"#).0,
        "no variant matches the value"
    );
    // `List` comes before `Pair` and takes every array.
    assert_eq!(
        from_json::<Any>("[1,2]"),
        Any::List(vec![Any::Int(1), Any::Int(2)])
    );
    let (msg, _) = json_error::<Any>(r#"{"zzz":1}"#);
    assert_eq!(msg, "no variant matches the value");
    prefixes_are_eof::<Any>(r#"[1,{"name":"n"},null,[true]]"#);
}

#[derive(Reflect, Debug, PartialEq)]
#[structio(untagged)]
enum NumOrWord {
    Word(String),
    Num(u8),
}

impl Default for NumOrWord {
    fn default() -> Self {
        NumOrWord::Num(0)
    }
}

#[test]
fn untagged_skips_variants_of_another_shape() {
    assert_eq!(from_json::<NumOrWord>("7"), NumOrWord::Num(7));
    assert_eq!(
        from_json::<NumOrWord>(r#""w""#),
        NumOrWord::Word("w".into())
    );
    let (msg, _) = json_error::<NumOrWord>("300");
    assert_eq!(msg, "no variant matches the value");
    let (msg, _) = json_error::<NumOrWord>("[]");
    assert_eq!(msg, "no variant matches the value");
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(tag = "kind", rename_all = "lowercase")]
enum TaggedUnits {
    #[default]
    On,
    Off,
}

#[test]
fn unit_only_enum_with_a_tag_is_an_object() {
    both(
        &TaggedUnits::Off,
        r#"{"kind":"off"}"#,
        r#"
            03 04                           // object, 1 member
            10 6b 69 6e 64  02 0c 6f 66 66  // "kind": string "off"
        "#,
    );
    assert_eq!(
        json_error::<TaggedUnits>(r#""off""#).0,
        "expected an object, found a string"
    );
}
