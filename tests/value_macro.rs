//! `structio::value!`: each value compared with `from_json::<Value>` of the same text, by
//! value and by kind (the `Debug` form names every number's kind, and BEVE writes it).

use structio::value::{Num, TypedArray};
use structio::{value, Map, NumKind, Value};

fn json(text: &str) -> Value {
    structio::from_json(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// `v` is what reading `text` gives: equal, with the same number kinds and member order.
#[track_caller]
fn same(v: Value, text: &str) {
    let j = json(text);
    assert_eq!(v, j, "{text}");
    assert_eq!(format!("{v:?}"), format!("{j:?}"), "{text}");
    assert_eq!(structio::to_beve(&v), structio::to_beve(&j), "{text}");
    assert_eq!(structio::to_json(&v), structio::to_json(&j), "{text}");
}

/// `v` equals what reading `text` gives, as a value and as JSON text; number kinds may differ
/// (an expression keeps its Rust type: a `usize` is a `u64` number, an `i32` an `i32`).
#[track_caller]
fn same_value(v: Value, text: &str) {
    let j = json(text);
    assert_eq!(v, j, "{text}");
    assert_eq!(structio::to_json(&v), structio::to_json(&j), "{text}");
}

fn kind(v: &Value) -> NumKind {
    v.as_number().map(|n: Num| n.kind()).expect("a number")
}

#[test]
fn literals() {
    same(value!(null), "null");
    same(value!(true), "true");
    same(value!(false), "false");
    same(value!(0), "0");
    same(value!(1), "1");
    same(value!(-1), "-1");
    same(value!(-0), "-0");
    same(value!(2.5), "2.5");
    same(value!(-2.5), "-2.5");
    same(value!(1e3), "1e3");
    same(value!(1.5e-7), "1.5e-7");
    same(value!(0.1), "0.1");
    same(value!(1_000_000), "1000000");
    same(value!(0x10), "16");
    same(value!(""), r#""""#);
    same(value!("text"), r#""text""#);
    assert_eq!(kind(&value!(1)), NumKind::I64);
    assert_eq!(kind(&value!(-0)), NumKind::F64);
    assert!(value!(-0)
        .as_number()
        .unwrap()
        .as_f64()
        .unwrap()
        .is_sign_negative());
}

#[test]
fn integers_at_the_edges_of_each_kind() {
    same(value!(9223372036854775807), "9223372036854775807");
    same(value!(-9223372036854775808), "-9223372036854775808");
    same(value!(9223372036854775808), "9223372036854775808");
    same(value!(18446744073709551615), "18446744073709551615");
    same(value!(18446744073709551616), "18446744073709551616");
    same(value!(-9223372036854775809), "-9223372036854775809");
    same(
        value!(340282366920938463463374607431768211455),
        "340282366920938463463374607431768211455",
    );
    same(
        value!(-170141183460469231731687303715884105728),
        "-170141183460469231731687303715884105728",
    );
    assert_eq!(kind(&value!(9223372036854775807)), NumKind::I64);
    assert_eq!(kind(&value!(9223372036854775808)), NumKind::U64);
    assert_eq!(kind(&value!(18446744073709551616)), NumKind::U128);
    assert_eq!(kind(&value!(-9223372036854775809)), NumKind::I128);
}

#[test]
fn suffixed_literals_keep_their_type() {
    assert_eq!(kind(&value!(1u8)), NumKind::U8);
    assert_eq!(kind(&value!(-3i16)), NumKind::I16);
    assert_eq!(kind(&value!(1.5f32)), NumKind::F32);
    assert_eq!(kind(&value!(7usize)), NumKind::U64);
    assert_eq!(value!([1u8, -2i32]), json("[1, -2]"));
}

#[test]
fn strings_with_escapes() {
    same(value!("a\"b"), r#""a\"b""#);
    same(value!("back\\slash"), r#""back\\slash""#);
    same(value!("line\nbreak\ttab\r"), r#""line\nbreak\ttab\r""#);
    same(value!("\u{e9}\u{1F600}"), r#""\u00e9\ud83d\ude00""#);
    same(value!("nul\0"), r#""nul\u0000""#);
    same(value!(r"raw \n stays"), r#""raw \\n stays""#);
    same(value!(r#"with "quotes""#), r#""with \"quotes\"""#);
    same(value!('c'), r#""c""#);
    same(value!({"k\"ey": "v"}), r#"{"k\"ey": "v"}"#);
}

#[test]
fn arrays_and_objects() {
    same(value!([]), "[]");
    same(value!({}), "{}");
    same(value!([1, 2.5, null]), "[1, 2.5, null]");
    same(value!([1, 2.5, null,]), "[1, 2.5, null]");
    same(value!([-1, -2.5, -0, 3]), "[-1, -2.5, -0, 3]");
    same(value!([[], [[]], {}, [{}]]), "[[], [[]], {}, [{}]]");
    same(
        value!({"a": [1, 2.5, null], "nested": {"t": true, "f": false}, "s": "x",}),
        r#"{"a": [1, 2.5, null], "nested": {"t": true, "f": false}, "s": "x"}"#,
    );
    same(
        value!({"deep": [{"x": [{"y": [[-4]]}]}]}),
        r#"{"deep": [{"x": [{"y": [[-4]]}]}]}"#,
    );
    // A repeated key keeps its first place and its last value, as reading does.
    same(
        value!({"a": 1, "b": 2, "a": 3}),
        r#"{"a": 1, "b": 2, "a": 3}"#,
    );
    same(value!({"": ""}), r#"{"": ""}"#);
}

#[test]
fn expressions_as_values() {
    let x = 5i64;
    let name = String::from("probe");
    let maybe: Option<&str> = None;
    let list = vec![Value::from(1), Value::from("two")];
    let inner = value!({"k": [true]});
    let v = value!({
        "n": x,
        "neg": -x,
        "sum": x + 1,
        "len": name.len(),
        "name": name.clone(),
        "borrowed": name.as_str(),
        "none": maybe,
        "some": Some(2.5),
        "list": list,
        "inner": inner,
        "call": i64::pow(2, 10),
        "paren": (x * 2),
        "block": ({ let y = 3; y * 3 }),
    });
    assert_eq!(kind(&v["len"]), NumKind::U64);
    assert_eq!(kind(&v["block"]), NumKind::I32);
    assert_eq!(kind(&v["list"][0]), NumKind::I32);
    same_value(
        v,
        r#"{"n": 5, "neg": -5, "sum": 6, "len": 5, "name": "probe", "borrowed": "probe",
            "none": null, "some": 2.5, "list": [1, "two"], "inner": {"k": [true]},
            "call": 1024, "paren": 10, "block": 9}"#,
    );
    // Expressions in arrays, also several tokens long and negated.
    let a = 2;
    same_value(
        value!([a, -a, a * 3, -(a + 1), x.max(7)]),
        "[2, -2, 6, -3, 7]",
    );
    // A Vec of numbers is a typed array, equal to the JSON array.
    let typed = value!({"t": vec![1.5f64, 2.5]});
    assert!(matches!(typed["t"], Value::Typed(TypedArray::F64(_))));
    assert_eq!(typed, json(r#"{"t": [1.5, 2.5]}"#));
}

#[test]
fn expression_keys() {
    let k = "dynamic";
    let i = 3;
    let v = value!({(k): 1, (format!("k{i}")): [i], "fixed": (k.len())});
    same_value(v, r#"{"dynamic": 1, "k3": [3], "fixed": 7}"#);
    let owned = String::from("o");
    same(value!({(owned.clone()): null}), r#"{"o": null}"#);
}

#[test]
fn the_macro_builds_the_same_types_as_hand_code() {
    let v = value!({"a": [1]});
    let mut m = Map::new();
    m.insert("a", Value::from(vec![Value::from(1i64)]));
    assert_eq!(format!("{v:?}"), format!("{:?}", Value::Object(m)));
}
