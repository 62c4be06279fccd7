//! `to_value` / `from_value`: typed values to and from a `Value` tree without JSON text in
//! between. Every kind of field round-trips; numbers keep their kind; reading checks what
//! `from_json` checks (types, ranges, unknown and missing keys, constraints) with the same
//! messages and the path of the value; the shapes of the reliability tests round-trip; and
//! neither direction allocates more than the result (a counting allocator).

mod shapes;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use structio::value::{TypedArray, ValueReader};
use structio::{
    from_value, from_value_ref, from_value_ref_with, to_value, NumKind, ReadOptions, Reflect,
    UnknownKeys, Value,
};

#[path = "../benches/common/counting.rs"]
mod counting;

#[derive(Reflect, Default, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
enum Color {
    #[default]
    Red,
    Green = 5,
}

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
enum Ext {
    #[default]
    Unit,
    New(i64),
    Tup(u8, String),
    Rec {
        w: f64,
    },
}

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
#[structio(tag = "kind")]
enum Int {
    #[default]
    Empty,
    Named {
        id: u32,
    },
}

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
#[structio(tag = "t", content = "c")]
enum Adj {
    #[default]
    Off,
    Level(u8),
    Pair {
        a: i8,
        b: i8,
    },
}

#[derive(Reflect, Debug, Clone, PartialEq)]
#[structio(untagged)]
enum Unt {
    Num(i64),
    Text(String),
    List(Vec<u8>),
}

impl Default for Unt {
    fn default() -> Self {
        Unt::Num(0)
    }
}

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Leaf {
    #[structio(rename = "the name")]
    name: String,
    #[structio(default)]
    score: u16,
}

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Extra {
    z: bool,
}

/// Every kind of field.
#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct All {
    i8: i8,
    i64: i64,
    i128: i128,
    u64: u64,
    u128: u128,
    f32: f32,
    f64: f64,
    ch: char,
    text: String,
    opt: Option<i32>,
    none: Option<String>,
    ints: Vec<i32>,
    bytes: Vec<u8>,
    bools: Vec<bool>,
    strings: Vec<String>,
    leaves: Vec<Leaf>,
    by_name: BTreeMap<String, Leaf>,
    by_id: BTreeMap<i64, bool>,
    by_color: BTreeMap<Color, u8>,
    color: Color,
    colors: Vec<Color>,
    ext: Vec<Ext>,
    int: Vec<Int>,
    adj: Vec<Adj>,
    unt: Vec<Unt>,
    tuple: (u8, String, [f64; 2]),
    array: [i16; 3],
    boxed: Box<Leaf>,
    #[structio(flatten)]
    extra: Extra,
}

fn sample() -> All {
    All {
        i8: i8::MIN,
        i64: i64::MIN,
        i128: i128::MIN,
        u64: u64::MAX,
        u128: u128::MAX,
        f32: 1.5,
        f64: -0.1,
        ch: 'é',
        text: "quote \" backslash \\ newline \n tab \t nul \u{0} é 😀".into(),
        opt: Some(-7),
        none: None,
        ints: vec![i32::MIN, 0, i32::MAX],
        bytes: vec![0, 255],
        bools: vec![true, false],
        strings: vec!["a".into(), "\"b\"".into()],
        leaves: vec![Leaf {
            name: "l".into(),
            score: 3,
        }],
        by_name: [(
            "k\n".to_string(),
            Leaf {
                name: "x".into(),
                score: 0,
            },
        )]
        .into_iter()
        .collect(),
        by_id: [(-5, true), (i64::MAX, false)].into_iter().collect(),
        by_color: [(Color::Green, 1), (Color::Red, 2)].into_iter().collect(),
        color: Color::Green,
        colors: vec![Color::Red, Color::Green],
        ext: vec![
            Ext::Unit,
            Ext::New(-1),
            Ext::Tup(2, "t".into()),
            Ext::Rec { w: 2.5 },
        ],
        int: vec![Int::Empty, Int::Named { id: 9 }],
        adj: vec![Adj::Off, Adj::Level(4), Adj::Pair { a: -1, b: 1 }],
        unt: vec![Unt::Num(3), Unt::Text("u".into()), Unt::List(vec![1, 2])],
        tuple: (7, "s".into(), [0.5, -2.0]),
        array: [i16::MIN, 0, i16::MAX],
        boxed: Box::new(Leaf {
            name: "b".into(),
            score: 1,
        }),
        extra: Extra { z: true },
    }
}

#[test]
fn every_kind_of_field_round_trips_and_agrees_with_json() {
    let x = sample();
    let v = to_value(&x);
    assert_eq!(from_value::<All>(v.clone()).unwrap(), x);
    assert_eq!(from_value_ref::<All>(&v).unwrap(), x);
    // What JSON makes of the same value, by `Value`'s equality (every float here is exact in
    // its own kind, so the f32 compares equal with its JSON reading).
    let via_json: Value = structio::from_json(&structio::to_json(&x)).unwrap();
    assert_eq!(v, via_json);
    // The tree's JSON is the value's JSON, byte for byte.
    assert_eq!(structio::to_json(&v), structio::to_json(&x));
    // And the tree read from the JSON reads back as the value.
    assert_eq!(from_value::<All>(via_json).unwrap(), x);
    // A tree read back from its own BEVE reads too (integer-keyed objects, typed arrays).
    let from_beve: Value = structio::from_beve(&structio::to_beve(&v)).unwrap();
    assert_eq!(from_value::<All>(from_beve).unwrap(), x);
    // `to_value` of a tree is the tree.
    assert_eq!(to_value(&v), v);
}

#[test]
fn numbers_keep_their_kind_and_arrays_stay_typed() {
    let x = sample();
    let v = to_value(&x);
    let kind = |k: &str| match &v[k] {
        Value::Number(n) => n.kind(),
        other => panic!("{k}: {other:?}"),
    };
    assert_eq!(kind("u64"), NumKind::U64);
    assert_eq!(v["u64"].as_u64(), Some(u64::MAX));
    assert_eq!(kind("i64"), NumKind::I64);
    assert_eq!(v["i64"].as_i64(), Some(i64::MIN));
    assert_eq!(kind("i128"), NumKind::I128);
    assert_eq!(kind("u128"), NumKind::U128);
    assert_eq!(kind("f32"), NumKind::F32);
    assert_eq!(kind("i8"), NumKind::I8);
    assert!(matches!(&v["ints"], Value::Typed(TypedArray::I32(a)) if a.len() == 3));
    assert!(matches!(&v["bytes"], Value::Typed(TypedArray::U8(_))));
    assert!(matches!(&v["bools"], Value::Typed(TypedArray::Bool(_))));
    assert!(matches!(&v["strings"], Value::Typed(TypedArray::Str(_))));
    assert!(matches!(&v["by_id"], Value::IntObject(m) if m.kind() == NumKind::I64));
    // A unit variant and the keys of an enum-keyed map are names, as in JSON.
    assert_eq!(v["color"], "Green");
    assert!(matches!(&v["by_color"], Value::Object(m) if m.contains_key("Green")));
    assert!(
        v.get("none").is_none(),
        "None members are left out, as in JSON"
    );
    // Non-finite floats stay as they are (JSON writes null).
    let nan = to_value(&vec![f64::NAN, f64::INFINITY]);
    let back: Vec<f64> = from_value(nan).unwrap();
    assert!(back[0].is_nan() && back[1] == f64::INFINITY);
}

#[test]
fn numbers_read_as_json_numbers_do() {
    // A whole float reads into an integer type; a fraction or a value out of range does not.
    assert_eq!(from_value::<u8>(Value::from(1.0)).unwrap(), 1);
    assert_eq!(from_value::<u64>(Value::from(-0.0)).unwrap(), 0);
    assert_eq!(
        from_value::<u8>(Value::from(1.5)).unwrap_err().message(),
        structio::from_json::<u8>("1.5").unwrap_err().message()
    );
    assert_eq!(
        from_value::<u8>(Value::from(256)).unwrap_err().message(),
        structio::from_json::<u8>("256").unwrap_err().message()
    );
    assert_eq!(
        from_value::<i64>(Value::from(u64::MAX))
            .unwrap_err()
            .message(),
        structio::from_json::<i64>(&u64::MAX.to_string())
            .unwrap_err()
            .message()
    );
    assert_eq!(from_value::<f32>(Value::from(3u64)).unwrap(), 3.0);
    assert!(from_value::<u8>(Value::from("1")).is_err());
    // A unit variant by its name, or by its discriminant (what BEVE writes).
    assert_eq!(
        from_value::<Color>(Value::from("Green")).unwrap(),
        Color::Green
    );
    assert_eq!(from_value::<Color>(Value::from(5u8)).unwrap(), Color::Green);
    assert!(from_value::<Color>(Value::from(4u8)).is_err());
    let e = from_value::<Color>(Value::from("Blue")).unwrap_err();
    assert!(e.message().contains("Blue"), "{e}");
}

#[test]
fn strings_borrow_from_the_tree() {
    #[derive(Reflect, Debug, PartialEq)]
    struct Borrows<'a> {
        name: &'a str,
        cow: Cow<'a, str>,
        keys: BTreeMap<&'a str, u8>,
    }
    let v: Value = structio::from_json(r#"{"name":"a\nb","cow":"c","keys":{"k\"":1}}"#).unwrap();
    let b: Borrows<'_> = from_value_ref(&v).unwrap();
    // Numbers of a typed array of the same kind are borrowed too.
    let floats = to_value(&vec![0.5f64, 1.5]);
    let c: Cow<'_, [f64]> = from_value_ref(&floats).unwrap();
    assert!(matches!(c, Cow::Borrowed([0.5, 1.5])));
    let c: Cow<'_, [f32]> = from_value_ref(&floats).unwrap();
    assert!(matches!(c, Cow::Owned(ref v) if v == &[0.5, 1.5]));
    assert_eq!(b.name, "a\nb");
    assert!(matches!(b.cow, Cow::Borrowed("c")));
    assert_eq!(b.keys.get("k\""), Some(&1));
    // A borrowed RawJson cannot be read (the tree holds no text); a RawJsonBuf can.
    #[derive(Reflect, Debug)]
    struct Raw<'a> {
        raw: structio::RawJson<'a>,
    }
    #[derive(Reflect, Debug)]
    struct RawBuf {
        raw: structio::RawJsonBuf,
    }
    let v: Value = structio::from_json(r#"{"raw":{"a":[1, 2.5,"x"]}}"#).unwrap();
    let e = from_value_ref::<Raw<'_>>(&v).unwrap_err();
    assert!(e.message().contains("RawJsonBuf"), "{e}");
    assert_eq!(e.path(), "$.raw");
    let r: RawBuf = from_value_ref(&v).unwrap();
    assert_eq!(r.raw.get(), r#"{"a":[1,2.5,"x"]}"#);
    // Writing a RawJson puts the value its text holds in the tree.
    let t = to_value(&structio::RawJsonBuf::new(r#"{"a": [1]}"#).unwrap());
    assert_eq!(t["a"][0].as_i64(), Some(1));
}

#[test]
fn defaults_missing_and_unknown_fields() {
    // `score` has a default; `name` does not.
    let v: Value = structio::from_json(r#"{"the name":"n"}"#).unwrap();
    assert_eq!(
        from_value::<Leaf>(v).unwrap(),
        Leaf {
            name: "n".into(),
            score: 0
        }
    );
    let v: Value = structio::from_json(r#"{"score":1}"#).unwrap();
    let e = from_value::<Leaf>(v.clone()).unwrap_err();
    let j = structio::from_json::<Leaf>(r#"{"score":1}"#).unwrap_err();
    assert_eq!(e.message(), j.message());
    // Glaze's rule: a member left out takes its type's default.
    let lenient = ReadOptions {
        error_on_missing_keys: false,
        ..ReadOptions::default()
    };
    assert_eq!(
        from_value_ref_with::<Leaf>(&v, &lenient).unwrap(),
        Leaf {
            name: String::new(),
            score: 1
        }
    );
    // Unknown keys: an error naming the key, or skipped.
    let v: Value = structio::from_json(r#"{"the name":"n","other":[{"deep":[1,2]}]}"#).unwrap();
    let e = from_value_ref::<Leaf>(&v).unwrap_err();
    assert!(e.message().contains("other"), "{e}");
    let skip = ReadOptions {
        unknown_keys: UnknownKeys::Skip,
        ..ReadOptions::default()
    };
    assert_eq!(from_value_ref_with::<Leaf>(&v, &skip).unwrap().name, "n");
    // The depth limit holds for skipped values too.
    let shallow = ReadOptions {
        max_depth: 2,
        ..skip
    };
    let e = from_value_ref_with::<Leaf>(&v, &shallow).unwrap_err();
    assert!(e.message().contains("deeper than the limit"), "{e}");
    let shallow = ReadOptions {
        max_depth: 4,
        ..skip
    };
    assert!(from_value_ref_with::<Leaf>(&v, &shallow).is_ok());
}

#[derive(Reflect, Debug, PartialEq)]
struct Checked {
    #[structio(length(min = 1, max = 3))]
    name: String,
    #[structio(range(min = 0, max = 10))]
    n: i32,
    #[structio(items(range(max = 9)))]
    items: Vec<u32>,
    rows: Vec<Row>,
}

#[derive(Reflect, Debug, PartialEq)]
struct Row {
    #[structio(pattern = "^[a-z]+$")]
    b: String,
}

/// `from_value` of the document's `Value` fails as `from_json` of the document does: same
/// message, same path.
fn same_failure<T: structio::ReflectOwned + std::fmt::Debug>(json: &str) -> structio::Error {
    let j = structio::from_json::<T>(json).unwrap_err();
    let v: Value = structio::from_json(json).unwrap();
    let e = from_value::<T>(v).unwrap_err();
    assert_eq!(e.message(), j.message(), "{json}");
    assert_eq!(e.path(), j.path(), "{json}");
    assert_eq!(e.category(), j.category(), "{json}");
    assert!(e.to_string().contains("(pre-order)"), "{e}");
    e
}

#[test]
fn constraint_failures_carry_the_path() {
    let ok = r#"{"name":"ab","n":3,"items":[1,2],"rows":[{"b":"x"}]}"#;
    let v: Value = structio::from_json(ok).unwrap();
    assert_eq!(from_value_ref::<Checked>(&v).unwrap().n, 3);
    let e = same_failure::<Checked>(r#"{"name":"","n":3,"items":[],"rows":[]}"#);
    assert_eq!(e.path(), "$.name");
    assert!(e.rule().is_some());
    same_failure::<Checked>(r#"{"name":"a","n":11,"items":[],"rows":[]}"#);
    let e = same_failure::<Checked>(r#"{"name":"a","n":1,"items":[1,2,30],"rows":[]}"#);
    assert_eq!(e.path(), "$.items[2]");
    let e = same_failure::<Checked>(
        r#"{"name":"a","n":1,"items":[],"rows":[{"b":"x"},{"b":"x"},{"b":"x"},{"b":"X"}]}"#,
    );
    assert_eq!(e.path(), "$.rows[3].b");
}

#[test]
fn wrong_types_carry_the_path_and_a_pre_order_offset() {
    #[derive(Reflect, Debug)]
    struct A {
        a: Vec<B>,
    }
    #[derive(Reflect, Debug)]
    struct B {
        b: u8,
    }
    let json = r#"{"a":[{"b":1},{"b":2},{"b":3},{"b":"x"}]}"#;
    let e = same_failure::<A>(json);
    assert_eq!(e.path(), "$.a[3].b");
    // Pre-order: the root 0, the array 1, then two values per element: `"x"` is value 9.
    assert_eq!(e.offset(), 9);
    assert!(e.to_string().contains("at value 9 (pre-order)"), "{e}");
    same_failure::<A>(r#"{"a":[{"b":300}]}"#);
    same_failure::<A>(r#"{"a":{"b":1}}"#);
    same_failure::<A>(r#"{"a":[{"b":1,"c":2}]}"#);
    same_failure::<All>(r#"{"ext":[{"Nope":1}]}"#);
    same_failure::<(u8, String)>(r#"[1,"a",3]"#);
    same_failure::<[u8; 2]>(r#"[1]"#);
    same_failure::<HashMap<u8, u8>>(r#"{"1":1,"01":2}"#);
    same_failure::<char>(r#""ab""#);
}

/// The reliability tests' shapes: their samples round-trip through `to_value`, and reading the
/// sample's `Value` gives what reading the sample gives.
#[test]
fn the_shapes_round_trip() {
    use shapes::everything::{Everything, SAMPLE_JSON};
    use shapes::tree::{Tree, TREE_JSON};
    let t: Tree = structio::from_json(TREE_JSON).unwrap();
    let v = to_value(&t);
    assert_eq!(from_value::<Tree>(v.clone()).unwrap(), t);
    let doc: Value = structio::from_json(TREE_JSON).unwrap();
    assert_eq!(from_value::<Tree>(doc).unwrap(), t);
    let doc: Value = structio::from_json(&structio::to_json(&t)).unwrap();
    assert_eq!(v, doc);

    // `Everything` holds a borrowed `RawJson`, which a tree cannot lend: the read stops there,
    // with the path. Everything else in it reads (the same value with the raw member as a
    // `RawJsonBuf` is checked through the JSON of the tree).
    let e: Everything<'_> = structio::from_json(SAMPLE_JSON).unwrap();
    let v = to_value(&e);
    let err = from_value_ref::<Everything<'_>>(&v).unwrap_err();
    assert_eq!(err.path(), "$.raw");
    let text = structio::to_json(&v);
    assert_eq!(structio::from_json::<Everything<'_>>(&text).unwrap(), e);
    let doc: Value = structio::from_json(&structio::to_json(&e)).unwrap();
    assert_eq!(v, doc);

    // The boundary shapes, with their constraints and container rules.
    shapes::oracles::value_convert(SAMPLE_JSON.as_bytes());
    shapes::oracles::value_convert(TREE_JSON.as_bytes());
    shapes::oracles::value_convert(br#"{"id":1,"a":0,"b":1,"tagged":[{"type":"P","a":0,"b":1},{"type":"F","a":-1,"b":2}],"ext":{"P":{"a":1,"b":2}},"adj":{"t":"N","c":3}}"#);
    shapes::oracles::value_convert(br#"{"id":1,"a":3,"b":1}"#);
    shapes::oracles::value_convert(
        br#"{"slug":"abc","nums":[2,4],"inner":[{"name":"n","n":1}],"map":{"k":"v"},"f":0.5}"#,
    );
    shapes::oracles::value_convert(br#"{"slug":"abd","nums":[3],"inner":[],"map":{},"f":0}"#);
}

/// A Value as deep as the depth limit allows reads; one level more is the depth error, and a
/// tree far deeper than any limit (built in code) is refused without exhausting the stack.
#[test]
fn depth_limits_and_deep_trees() {
    #[derive(Reflect, Default, Debug, PartialEq)]
    struct Node {
        next: Option<Box<Node>>,
    }
    let mut v = Value::from_iter([("next", Value::Null)]);
    for _ in 0..200_000 {
        v = Value::from_iter([("next", v)]);
    }
    let e = from_value_ref::<Node>(&v).unwrap_err();
    assert!(e.message().contains("deeper than the limit"), "{e}");
    let e = from_value_ref::<Value>(&v).unwrap_err();
    assert!(e.message().contains("deeper than the limit"), "{e}");
    let opts = ReadOptions {
        unknown_keys: UnknownKeys::Skip,
        ..ReadOptions::default()
    };
    #[derive(Reflect, Default, Debug, PartialEq)]
    struct Empty {}
    assert!(from_value_ref_with::<Empty>(&v, &opts).is_err());
    // `to_value` of a deep tree does not recurse.
    let w = to_value(&v);
    assert!(w == v);
    drop(w);
    // A reader can be driven by hand too.
    let mut r = ValueReader::new(&v);
    assert!(structio::Reader::peek_kind(&mut r).is_ok());
}

/// No JSON text in between: reading a struct from a tree allocates exactly what the result
/// holds (as cloning the result does), and writing one allocates exactly the tree (as cloning
/// the tree does). A counting allocator (per thread) counts.
#[test]
fn conversions_allocate_only_their_results() {
    #[derive(Reflect, Debug, Clone, PartialEq)]
    struct Rec {
        id: u64,
        name: String,
        tags: Vec<String>,
        nums: Vec<f64>,
        inner: Vec<Leaf>,
        map: BTreeMap<String, i32>,
        opt: Option<String>,
    }
    let x = Rec {
        id: 7,
        name: "a longer name with \"escapes\"\n".into(),
        tags: vec!["t1".into(), "t2".into(), "t3".into()],
        nums: (0..100).map(|i| i as f64 / 3.0).collect(),
        inner: (0..5)
            .map(|i| Leaf {
                name: format!("leaf {i}"),
                score: i,
            })
            .collect(),
        map: [("k1".to_string(), 1), ("k2".to_string(), 2)]
            .into_iter()
            .collect(),
        opt: Some("o".into()),
    };
    let v = to_value(&x);
    // Warm-up (lazy statics, thread locals).
    let _ = from_value_ref::<Rec>(&v).unwrap();
    let mut back = None;
    let read = counting::allocations(|| back = Some(from_value_ref::<Rec>(&v).unwrap()));
    let back = back.unwrap();
    assert_eq!(back, x);
    let held = counting::allocations(|| drop(back.clone()));
    assert_eq!(
        read, held,
        "from_value_ref allocated {read}, the result holds {held}"
    );

    let mut tree = None;
    let wrote = counting::allocations(|| tree = Some(to_value(&x)));
    let tree = tree.unwrap();
    // `Value::clone` allocates the tree and a work list of its own (it does not recurse).
    let nodes = counting::allocations(|| drop(tree.clone()));
    assert!(
        wrote <= nodes,
        "to_value allocated {wrote}, the tree holds {nodes}"
    );
    // The tree's own allocations: one per non-empty string, array and object (and a key's),
    // one per typed array and its strings.
    assert_eq!(wrote, tree_allocations(&tree), "to_value allocated {wrote}");
    // For comparison, the way through text: the text itself and the tree read from it.
    let through_text = counting::allocations(|| {
        let text = structio::to_json(&x);
        drop(structio::from_json::<Value>(&text).unwrap());
    });
    assert!(through_text > wrote, "{through_text} <= {wrote}");
}

/// What differs between the BEVE of a value and the BEVE of its tree: the kinds that JSON and
/// `Value` do not tell apart (a unit variant is its name, complex numbers and matrices are
/// arrays, an enum-keyed map has string keys). Everything else is byte-identical.
#[test]
fn beve_of_the_tree_differs_only_where_documented() {
    #[derive(Reflect, Default, Debug, PartialEq)]
    struct Same {
        a: u64,
        b: Vec<f32>,
        c: BTreeMap<u16, String>,
        d: Vec<bool>,
        e: (i8, String),
        f: Option<Vec<String>>,
    }
    let s = Same {
        a: u64::MAX,
        b: vec![1.5, 2.0],
        c: [(1, "x".to_string())].into_iter().collect(),
        d: vec![true],
        e: (-1, "e".into()),
        f: Some(vec!["s".into()]),
    };
    assert_eq!(structio::to_beve(&to_value(&s)), structio::to_beve(&s));
    // Differences.
    let differs = |bytes: Vec<u8>, tree: Value| assert_ne!(structio::to_beve(&tree), bytes);
    differs(structio::to_beve(&Color::Green), to_value(&Color::Green));
    let by_color: BTreeMap<Color, u8> = [(Color::Green, 1)].into_iter().collect();
    differs(structio::to_beve(&by_color), to_value(&by_color));
    let m =
        structio::Matrix::new(structio::Layout::RowMajor, vec![2, 1], vec![1.0f64, 2.0]).unwrap();
    differs(structio::to_beve(&m), to_value(&m));
    assert_eq!(
        to_value(&m),
        structio::from_json::<Value>(&structio::to_json(&m)).unwrap()
    );
    // Each reads back into its type all the same.
    assert_eq!(
        from_value::<Color>(to_value(&Color::Green)).unwrap(),
        Color::Green
    );
    assert_eq!(
        from_value::<BTreeMap<Color, u8>>(to_value(&by_color)).unwrap(),
        by_color
    );
}

/// The allocations a tree holds: a non-empty string (a value or a key), array, object or
/// typed array takes one (small objects have no index).
fn tree_allocations(v: &Value) -> usize {
    fn s(s: &str) -> usize {
        usize::from(!s.is_empty())
    }
    match v {
        Value::String(t) => s(t),
        Value::Array(a) => {
            usize::from(!a.is_empty()) + a.iter().map(tree_allocations).sum::<usize>()
        }
        Value::Object(m) => {
            usize::from(!m.is_empty())
                + m.iter()
                    .map(|(k, v)| s(k) + tree_allocations(v))
                    .sum::<usize>()
        }
        Value::IntObject(m) => {
            usize::from(!m.is_empty()) + m.values().map(tree_allocations).sum::<usize>()
        }
        Value::Typed(TypedArray::Str(v)) => {
            usize::from(!v.is_empty()) + v.iter().map(|t| s(t)).sum::<usize>()
        }
        Value::Typed(t) => usize::from(!t.is_empty()),
        _ => 0,
    }
}
