//! Unit-only enums: a name in JSON, an integer of the `#[repr]` width in BEVE, map keys.

use std::collections::BTreeMap;

use structio::Reflect;

use super::common::{both, from_json, from_json_glaze, json_error};

#[derive(Reflect, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
enum Color {
    #[default]
    Red,
    Green,
    #[structio(rename = "azure", alias = "blue", alias = "Blue")]
    Blue,
}

#[derive(Reflect, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
#[repr(u8)]
#[structio(rename_all = "snake_case")]
enum Level {
    #[default]
    VeryLow = 1,
    High = 200,
}

#[derive(Reflect, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
#[repr(i64)]
enum Wide {
    #[default]
    Neg = -5,
    Big = 1 << 40,
}

#[test]
fn names_in_json() {
    both(
        &Color::Red,
        r#""Red""#,
        r#"
            49 00 00 00 00  // i32 0
        "#,
    );
    both(
        &Color::Blue,
        r#""azure""#,
        r#"
            49 02 00 00 00  // i32 2
        "#,
    );
    assert_eq!(from_json::<Color>(r#""blue""#), Color::Blue);
    assert_eq!(from_json::<Color>(r#""Blue""#), Color::Blue);
    both(
        &Level::VeryLow,
        r#""very_low""#,
        r#"
            11 01  // u8 1
        "#,
    );
    both(
        &Level::High,
        r#""high""#,
        r#"
            11 c8  // u8 200
        "#,
    );
    both(
        &Wide::Big,
        r#""Big""#,
        r#"
            69 00 00 00 00 00 01 00 00  // i64 1099511627776
        "#,
    );
    let (msg, _) = json_error::<Color>(r#""Purple""#);
    assert_eq!(msg, "unknown variant `Purple`");
}

#[test]
fn integers_of_the_repr_width_in_beve() {
    // No repr: i32.
    assert_eq!(structio::to_beve(&Color::Green), [0x49, 1, 0, 0, 0]);
    assert_eq!(structio::to_beve(&Color::Blue), [0x49, 2, 0, 0, 0]);
    assert_eq!(structio::to_beve(&Level::High), [0x11, 200]);
    assert_eq!(
        structio::to_beve(&Wide::Neg),
        [0x69, 0xFB, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    );
    assert_eq!(
        structio::from_beve::<Level>(&[0x11u8, 1][..]).unwrap(),
        Level::VeryLow
    );
    assert!(structio::from_beve::<Level>(&[0x11u8, 2][..]).is_err());
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Palette {
    main: Color,
    levels: Vec<Level>,
    counts: BTreeMap<Color, u32>,
    by_level: BTreeMap<Level, String>,
}

#[test]
fn as_fields_and_map_keys() {
    let v = Palette {
        main: Color::Green,
        levels: vec![Level::High, Level::VeryLow],
        counts: [(Color::Red, 1), (Color::Blue, 3)].into_iter().collect(),
        by_level: [(Level::High, "h".to_string())].into_iter().collect(),
    };
    both(
        &v,
        r#"{"main":"Green","levels":["high","very_low"],"counts":{"Red":1,"azure":3},"by_level":{"high":"h"}}"#,
        r#"
            03 10                              // object, 4 members
            10 6d 61 69 6e  49 01 00 00 00     // "main": i32 1
            18 6c 65 76 65 6c 73  05 08        // "levels": generic array, 2 elements
              11 c8                            // u8 200
              11 01                            // u8 1
            18 63 6f 75 6e 74 73  4b 08        // "counts": object with i32 keys, 2 members
              00 00 00 00  51 01 00 00 00      // key 0: u32 1
              02 00 00 00  51 03 00 00 00      // key 2: u32 3
            20 62 79 5f 6c 65 76 65 6c  13 04  // "by_level": object with u8 keys, 1 member
              c8  02 04 68                     // key 200: string "h"
        "#,
    );
    let (msg, _) = json_error::<Palette>(r#"{"counts":{"Teal":1}}"#);
    assert_eq!(msg, "unknown variant `Teal`");
    let v: Palette = from_json_glaze(r#"{"counts":{"blue":2}}"#);
    assert_eq!(v.counts[&Color::Blue], 2);
}

#[test]
fn map_key_kind_is_the_repr() {
    use structio::{KeyKind, MapKey, NumKind};
    assert_eq!(<Color as MapKey>::KIND, KeyKind::Int(NumKind::I32));
    assert_eq!(<Level as MapKey>::KIND, KeyKind::Int(NumKind::U8));
    assert_eq!(<Wide as MapKey>::KIND, KeyKind::Int(NumKind::I64));
}

#[derive(Reflect, Debug, PartialEq)]
enum Never {}

#[test]
fn enum_without_variants_compiles_and_is_never_read() {
    both(
        &([] as [Never; 0]),
        "[]",
        r#"
            05 00  // generic array, 0 elements
        "#,
    );
    let mut none: [Never; 0] = [];
    assert!(structio::read_json(&mut none, r#"["A"]"#).is_err());
}
