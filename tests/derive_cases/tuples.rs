//! Tuple structs (newtypes are transparent, others are arrays) and unit structs (null).

use structio::Reflect;

use super::common::{both, from_json, json_error};

#[derive(Reflect, Default, Debug, PartialEq)]
struct Meters(f64);

#[derive(Reflect, Default, Debug, PartialEq)]
struct MaybeName(Option<String>);

#[derive(Reflect, Default, Debug, PartialEq)]
struct Holder {
    len: Meters,
    name: MaybeName,
}

#[test]
fn newtype_is_its_inner_value() {
    both(
        &Meters(1.5),
        "1.5",
        r#"
            61 00 00 00 00 00 00 f8 3f  // f64 1.5
        "#,
    );
    both(
        &Holder {
            len: Meters(2.0),
            name: MaybeName(Some("n".into())),
        },
        r#"{"len":2,"name":"n"}"#,
        r#"
            03 08                                    // object, 2 members
            0c 6c 65 6e  61 00 00 00 00 00 00 00 40  // "len": f64 2.0
            10 6e 61 6d 65  02 04 6e                 // "name": string "n"
        "#,
    );
    // `is_absent` goes through the newtype: a `None` inside is left out.
    both(
        &Holder {
            len: Meters(0.5),
            name: MaybeName(None),
        },
        r#"{"len":0.5}"#,
        r#"
            03 04                                    // object, 1 member (name None)
            0c 6c 65 6e  61 00 00 00 00 00 00 e0 3f  // "len": f64 0.5
        "#,
    );
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Triple(u8, String, Vec<i32>);

#[test]
fn tuple_struct_is_an_array() {
    both(
        &Triple(1, "a".into(), vec![-1, 2]),
        r#"[1,"a",[-1,2]]"#,
        r#"
            05 0c                            // generic array, 3 elements
              11 01                          // u8 1
              02 04 61                       // string "a"
              4c 08 ff ff ff ff 02 00 00 00  // i32 typed array [-1, 2]
        "#,
    );
}

#[test]
fn tuple_struct_length_and_element_errors() {
    let (msg, _) = json_error::<Triple>(r#"[1,"a"]"#);
    assert_eq!(msg, "expected 3 elements, found 2");
    let (msg, _) = json_error::<Triple>(r#"[1,"a",[],4]"#);
    assert_eq!(msg, "expected 3 elements, found 4");
    let (_, path) = json_error::<Triple>(r#"[1,2,[]]"#);
    assert_eq!(path, "$[1]");
    let (_, path) = json_error::<Triple>(r#"[1,"a",[1,"x"]]"#);
    assert_eq!(path, "$[2][1]");
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct WithSkip(u8, #[structio(skip)] u64, u8);

#[test]
fn skipped_tuple_fields_are_left_out_of_the_array() {
    let mut v = WithSkip(1, 99, 2);
    assert_eq!(structio::to_json(&v), "[1,2]");
    structio::read_json(&mut v, "[3,4]").unwrap();
    assert_eq!(v, WithSkip(3, 99, 4));
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Unit;

#[derive(Reflect, Default, Debug, PartialEq)]
struct NoFields();

#[test]
fn unit_struct_is_null_and_empty_tuple_struct_an_empty_array() {
    both(
        &Unit,
        "null",
        r#"
            00  // null
        "#,
    );
    let (msg, _) = json_error::<Unit>("0");
    assert_eq!(msg, "expected null, found a number");
    both(
        &NoFields(),
        "[]",
        r#"
            05 00  // generic array, 0 elements
        "#,
    );
    let _: NoFields = from_json(" [ ] ");
}
