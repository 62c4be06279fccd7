//! Unit-only enums: a name in JSON, an integer of the `#[repr]` width in BEVE, map keys.

use std::collections::BTreeMap;

use structio::Reflect;

use super::common::{both, from_json, json_error};

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
    both(&Color::Red, r#""Red""#);
    both(&Color::Blue, r#""azure""#);
    assert_eq!(from_json::<Color>(r#""blue""#), Color::Blue);
    assert_eq!(from_json::<Color>(r#""Blue""#), Color::Blue);
    both(&Level::VeryLow, r#""very_low""#);
    both(&Level::High, r#""high""#);
    both(&Wide::Big, r#""Big""#);
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
    );
    let (msg, _) = json_error::<Palette>(r#"{"counts":{"Teal":1}}"#);
    assert_eq!(msg, "unknown variant `Teal`");
    let v: Palette = from_json(r#"{"counts":{"blue":2}}"#);
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
    both(&([] as [Never; 0]), "[]");
    let mut none: [Never; 0] = [];
    assert!(structio::read_json(&mut none, r#"["A"]"#).is_err());
}
