//! The serde bridge (`structio::serde`, feature `serde`): serde types written and read through
//! structio's writers and readers.
//!
//! The main check is byte identity: for types that derive both serde's traits and
//! `structio::Reflect` with the same names, what the bridge writes equals what structio's
//! derive writes, in JSON (compact, pretty, null members, serde float style) and BEVE (plain,
//! aligned, null members), and what the bridge reads equals the value. Then the Glaze files
//! (the seven benchmark documents, the exchange files, the corpus), errors with their offset,
//! line, column and path (compared with the derive's where both report the same thing),
//! borrowed strings, `Serde<T>` fields, `Value`, and the cases serde cannot describe exactly.

mod common;

#[path = "../benches/common/corpus.rs"]
#[allow(dead_code)]
mod corpus;

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use structio::beve::BeveWriter;
use structio::json::{FloatStyle, JsonWriter};
use structio::serde::{self as bridge, Serde};
use structio::{Category, IoSink, PathSegment, Reflect, ReflectOwned, Value};

// ---------------------------------------------------------------------------------------------
// Types with both derives and the same names.

#[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
struct Scalars {
    flag: bool,
    tiny: i8,
    small: i16,
    mid: i32,
    big: i64,
    huge: i128,
    ubyte: u8,
    ushort: u16,
    uint: u32,
    ulong: u64,
    uhuge: u128,
    single: f32,
    double: f64,
    letter: char,
    text: String,
    nothing: (),
}

#[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
struct Inner {
    name: String,
    weight: f64,
    tags: Vec<String>,
    note: Option<String>,
}

#[derive(
    Reflect, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default,
)]
#[structio(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
enum Color {
    #[default]
    Red,
    Green,
    Blue,
}

#[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq)]
enum Shape {
    Circle(f64),
    Rect { w: f64, h: f64 },
    Poly(Vec<[f64; 2]>),
    Pair(i32, String),
}

impl Default for Shape {
    fn default() -> Shape {
        Shape::Circle(0.0)
    }
}

#[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
#[structio(tag = "type")]
#[serde(tag = "type")]
enum Event {
    #[default]
    Idle,
    Start {
        at: u64,
    },
    Stop {
        at: u64,
        reason: String,
    },
}

#[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
#[structio(tag = "t", content = "c")]
#[serde(tag = "t", content = "c")]
enum Msg {
    #[default]
    Quit,
    Text(String),
    Nums(Vec<i32>),
    Move {
        x: i32,
        y: i32,
    },
}

#[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[structio(untagged)]
#[serde(untagged)]
enum Loose {
    Num(f64),
    Text(String),
    List(Vec<u32>),
    Obj(Inner),
}

impl Default for Loose {
    fn default() -> Loose {
        Loose::Num(0.0)
    }
}

#[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
struct Rgb(u8, u8, u8);

#[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
struct Meters(f64);

#[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
struct MaybeId(Option<u32>);

#[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
struct Marker;

#[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
struct Empty {}

#[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
#[structio(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
struct Everything {
    scalars: Scalars,
    doubles: Vec<f64>,
    floats: Vec<f32>,
    bytes: Vec<u8>,
    flags: Vec<bool>,
    words: Vec<String>,
    nested_ints: Vec<Vec<i32>>,
    fixed: [f64; 3],
    pair: [String; 2],
    points: Vec<[f64; 2]>,
    set: BTreeSet<u16>,
    deque: VecDeque<i64>,
    by_name: BTreeMap<String, Inner>,
    by_id: BTreeMap<u32, String>,
    by_neg: BTreeMap<i64, Vec<f32>>,
    by_color: BTreeMap<Color, u32>,
    sparse: BTreeMap<String, Option<u8>>,
    opt_elems: Vec<Option<u8>>,
    chars: Vec<char>,
    boxed: Box<Inner>,
    mixed_tuple: (i32, String, f64),
    color: Color,
    colors: Vec<Color>,
    shapes: Vec<Shape>,
    events: Vec<Event>,
    msgs: Vec<Msg>,
    loose: Vec<Loose>,
    rgb: Rgb,
    lengths: Vec<Meters>,
    // Left out when it holds `None` (as the derive leaves it out); both need a default.
    #[serde(default)]
    #[structio(default)]
    maybe_id: MaybeId,
    marker: Marker,
    empty: Empty,
    #[structio(rename = "type")]
    #[serde(rename = "type")]
    kind: String,
    opt_set: Option<u32>,
    opt_unset: Option<u32>,
    opt_struct: Option<Inner>,
    opt_none_struct: Option<Inner>,
    opt_vec: Option<Vec<f64>>,
    last: i32,
}

fn inner(name: &str, note: Option<&str>) -> Inner {
    Inner {
        name: name.into(),
        weight: 0.1,
        tags: vec![
            "a\"b".into(),
            "line\nbreak".into(),
            "\u{1}ctl".into(),
            "é✓".into(),
        ],
        note: note.map(Into::into),
    }
}

fn everything() -> Everything {
    Everything {
        scalars: Scalars {
            flag: true,
            tiny: -128,
            small: -300,
            mid: 70_000,
            big: -(1 << 60),
            huge: -(1 << 100),
            ubyte: 255,
            ushort: 65535,
            uint: 4_000_000_000,
            ulong: u64::MAX,
            uhuge: 1 << 120,
            single: 0.1,
            double: -2.5e-7,
            letter: 'ß',
            text: "tab\tquote\"back\\slash</script>\u{2028}".into(),
            nothing: (),
        },
        doubles: vec![1.0, 1e16, 1.5e300, -0.0, 0.1, 123456.789],
        floats: vec![0.1, 3.4e38, 1e-7],
        bytes: vec![0, 1, 255],
        flags: vec![true, false, true, true, false, false, false, false, true],
        words: vec!["one".into(), String::new(), "three\n".into()],
        nested_ints: vec![vec![1, 2], vec![-3], vec![4, 5, 6]],
        fixed: [1.0, 2.5, -3.0],
        pair: ["x".into(), "y".into()],
        points: vec![[1.0, 2.0], [3.5, -4.25]],
        set: BTreeSet::from([3, 1, 2]),
        deque: VecDeque::from([7, -8]),
        by_name: BTreeMap::from([
            ("first".into(), inner("one", None)),
            ("sec\"ond".into(), inner("two", Some("n"))),
        ]),
        by_id: BTreeMap::from([(1, "a".into()), (4_000_000_000, "b".into())]),
        by_neg: BTreeMap::from([(-5, vec![1.5]), (9, vec![2.0, 3.0])]),
        by_color: BTreeMap::from([(Color::Green, 2), (Color::Blue, 3)]),
        sparse: BTreeMap::from([("kept".into(), Some(1)), ("dropped".into(), None)]),
        opt_elems: vec![Some(1), None, Some(3)],
        chars: vec!['a', 'é'],
        boxed: Box::new(inner("boxed", None)),
        mixed_tuple: (-1, "t".into(), 0.5),
        color: Color::Blue,
        colors: vec![Color::Red, Color::Blue],
        shapes: vec![
            Shape::Circle(1.5),
            Shape::Rect { w: 2.0, h: 3.0 },
            Shape::Poly(vec![[0.0, 0.0], [1.0, 1.0]]),
            Shape::Pair(7, "seven".into()),
        ],
        events: vec![
            Event::Idle,
            Event::Start { at: 5 },
            Event::Stop {
                at: 9,
                reason: "done".into(),
            },
        ],
        msgs: vec![
            Msg::Quit,
            Msg::Text("hi".into()),
            Msg::Nums(vec![1, 2]),
            Msg::Move { x: -1, y: 2 },
        ],
        loose: vec![
            Loose::Num(2.5),
            Loose::Text("s".into()),
            Loose::List(vec![1, 2, 3]),
            Loose::Obj(inner("loose", None)),
        ],
        rgb: Rgb(1, 2, 3),
        lengths: vec![Meters(1.5), Meters(2.0)],
        maybe_id: MaybeId(None),
        marker: Marker,
        empty: Empty {},
        kind: "everything".into(),
        opt_set: Some(7),
        opt_unset: None,
        opt_struct: Some(inner("opt", Some("note"))),
        opt_none_struct: None,
        opt_vec: Some(vec![0.5]),
        last: -1,
    }
}

/// Every JSON option set the comparisons use.
fn json_options() -> Vec<structio::json::Options> {
    use structio::json::Options;
    vec![
        Options::default(),
        Options {
            pretty: true,
            ..Options::default()
        },
        Options {
            pretty: true,
            indent: 2,
            write_null_members: true,
            ..Options::default()
        },
        Options {
            write_null_members: true,
            ..Options::default()
        },
        Options {
            float_style: FloatStyle::Serde,
            ..Options::default()
        },
    ]
}

/// Every BEVE option set the comparisons use.
fn beve_options() -> Vec<structio::beve::Options> {
    use structio::beve::Options;
    vec![
        Options::default(),
        Options {
            aligned_arrays: true,
            ..Options::default()
        },
        Options {
            write_null_members: true,
            ..Options::default()
        },
        Options {
            aligned_arrays: true,
            write_null_members: true,
            ..Options::default()
        },
    ]
}

/// Compares two byte strings, showing where they part.
fn same_bytes(ours: &[u8], theirs: &[u8], what: &str) {
    if ours != theirs {
        let at = ours
            .iter()
            .zip(theirs)
            .position(|(a, b)| a != b)
            .unwrap_or(ours.len().min(theirs.len()));
        let from = at.saturating_sub(24);
        panic!(
            "{what}: differ at byte {at} (lengths {} and {})\n ours: {:?}\n    theirs: {:?}\n ours as text: {:?}",
            ours.len(),
            theirs.len(),
            &ours[from..(at + 16).min(ours.len())],
            &theirs[from..(at + 16).min(theirs.len())],
            String::from_utf8_lossy(&ours[from..(at + 16).min(ours.len())]),
        );
    }
}

/// The bridge writes `v` as the derive does, in every layout, and reads back what the derive
/// reads back (`v` itself, unless members or entries holding `None` were left out).
fn same<T>(v: &T)
where
    T: Serialize + DeserializeOwned + ReflectOwned + PartialEq + Debug + Default,
{
    for o in json_options() {
        let ours = bridge::to_json_with(v, &o);
        let derived = structio::json::to_json_with(v, &o);
        assert_eq!(ours, derived, "JSON with {o:?}");
        let mut buf = b"prefix".to_vec();
        bridge::write_json_with(v, &mut buf, &o).unwrap();
        assert_eq!(&buf[6..], derived.as_bytes());
        let back: T = bridge::from_json(&ours).unwrap_or_else(|e| panic!("{e}\n{ours}"));
        let derived_back: T = structio::from_json(&ours).unwrap();
        assert_eq!(back, derived_back, "JSON read back with {o:?}");
    }
    for o in beve_options() {
        let ours = bridge::to_beve_with(v, &o);
        let derived = structio::beve::to_beve_with(v, &o);
        same_bytes(&ours, &derived, &format!("BEVE with {o:?}"));
        let back: T = bridge::from_beve(&ours).unwrap_or_else(|e| panic!("{e}"));
        let derived_back: T = structio::from_beve(&ours).unwrap();
        assert_eq!(back, derived_back, "BEVE read back with {o:?}");
        // Appended to bytes already there (aligned arrays pad from the buffer's start).
        let mut buf = vec![0xAA; 3];
        bridge::write_beve_with(v, &mut buf, &o).unwrap();
        let mut derived = vec![0xAA; 3];
        structio::beve::write_beve_with(v, &mut derived, &o);
        assert_eq!(buf, derived, "appended BEVE with {o:?}");
    }
}

#[test]
fn everything_is_written_as_the_derive_writes_it() {
    let v = everything();
    same(&v);
    // Read back, the value lacks only the map entry that held `None`.
    let mut expect = v.clone();
    expect.sparse.remove("dropped");
    assert_eq!(
        bridge::from_json::<Everything>(&bridge::to_json(&v)).unwrap(),
        expect
    );
    assert_eq!(
        bridge::from_beve::<Everything>(&bridge::to_beve(&v)).unwrap(),
        expect
    );
    // (An empty map keyed by an enum has string keys through serde: not this one.)
    let mut d = Everything::default();
    d.by_color.insert(Color::Red, 0);
    same(&d);
    same(&Scalars::default());
    same(&inner("x", Some("y")));
}

#[test]
fn small_values_and_top_level_shapes() {
    same(&1.5f64);
    same(&Some(3u8));
    same(&None::<u8>);
    same(&vec![Some(1.0), None]);
    same(&String::from("\u{0}\u{1f}\u{7f}"));
    same(&vec![vec![true], vec![false, true]]);
    same(&BTreeMap::from([(1u8, Inner::default())]));
    same(&(1u8, "two".to_string(), [3.0f32, 4.0]));
    same(&Color::Green);
    same(&vec![Shape::Circle(-1.0)]);
    same(&Event::Stop {
        at: 1,
        reason: String::new(),
    });
    same(&Msg::Nums(vec![]));
    same(&Marker);
    same(&Empty {});
    same(&Rgb(9, 8, 7));
    same(&Meters(0.25));
    same(&MaybeId(Some(4)));
    same(&vec![Meters(1.0)]);
    same(&BTreeMap::from([(String::from("gone"), None::<u32>)]));
    same(&BTreeMap::from([(-7i16, vec![1u64 << 40])]));
    same(&vec![i128::MIN, i128::MAX]);
    same(&vec![u128::MAX]);
    same(&HashMap::from([(String::from("k"), 1u8)]));
}

/// A struct with more than 63 members, some `None`: the BEVE count written first (the 2-byte
/// form for 64 and more) is corrected at the end, and its width with it.
#[test]
fn wide_structs_with_members_left_out() {
    #[derive(Reflect, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
    struct Wide {
        a: common::Az<Option<u8>>,
        b: common::Az<Option<u8>>,
        c: common::Az<Option<u8>>,
    }
    let mut w = Wide::default();
    same(&w);
    w.a.a = Some(1);
    w.c.z = Some(2);
    same(&w);
    let full = common::Az {
        a: Some(1u8),
        ..Default::default()
    };
    let mut map: BTreeMap<String, Option<u8>> = BTreeMap::new();
    for i in 0..70 {
        map.insert(format!("k{i:02}"), (i % 10 == 0).then_some(i as u8));
    }
    same(&map);
    same(&Wide {
        a: full.clone(),
        b: full.clone(),
        c: full,
    });
}

// ---------------------------------------------------------------------------------------------
// Glaze's files.

/// The seven benchmark documents: read through the bridge as structio reads them, written back
/// byte for byte as Glaze wrote them (compact JSON, pretty JSON, BEVE).
#[test]
fn glaze_benchmark_documents() {
    fn doc<T>(name: &str)
    where
        T: Serialize + DeserializeOwned + ReflectOwned + PartialEq + Debug + Default,
    {
        let json = common::read(&format!("formats/json/bench/{name}.json"));
        let pretty = common::read(&format!("formats/json/bench/{name}.pretty.json"));
        let beve = common::read(&format!("formats/beve/bench/{name}.beve"));
        let from_json: T = bridge::from_json(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        let from_beve: T = bridge::from_beve(&beve).unwrap_or_else(|e| panic!("{name}: {e}"));
        let derived: T = structio::from_json(&json).unwrap();
        assert!(from_json == derived, "{name}: JSON read differs");
        assert!(from_beve == derived, "{name}: BEVE read differs");
        assert!(
            bridge::to_json(&from_json).as_bytes() == &json[..],
            "{name}: JSON"
        );
        let opts = structio::json::Options {
            pretty: true,
            ..Default::default()
        };
        assert!(
            bridge::to_json_with(&from_json, &opts).as_bytes() == &pretty[..],
            "{name}: pretty JSON"
        );
        same_bytes(&bridge::to_beve(&from_beve), &beve, name);
    }
    doc::<common::Mixed>("mixed");
    doc::<common::Flat<String>>("strings");
    doc::<common::Flat<u64>>("uints");
    doc::<common::Flat<i64>>("ints");
    doc::<common::Flat<f64>>("doubles");
    doc::<common::Flat<f64>>("exact_decimals");
    doc::<common::Flat<bool>>("bools");
}

#[derive(Reflect, Serialize, Deserialize, Debug, Default, PartialEq, Clone)]
struct Point {
    x: f64,
    y: f64,
}

#[derive(Reflect, Serialize, Deserialize, Debug, Default, PartialEq, Clone)]
struct Maps {
    str_i32: BTreeMap<String, i32>,
    str_struct: BTreeMap<String, Point>,
    str_vec: BTreeMap<String, Vec<f64>>,
    i32_str: BTreeMap<i32, String>,
    u64_f64: BTreeMap<u64, f64>,
    i8_bool: BTreeMap<i8, bool>,
    u16_struct: BTreeMap<u16, Point>,
    i64_strs: BTreeMap<i64, Vec<String>>,
}

#[derive(Reflect, Serialize, Deserialize, Debug, Default, PartialEq, Clone)]
struct Optionals {
    opt_set: Option<i32>,
    opt_unset: Option<i32>,
    opt_str_set: Option<String>,
    opt_str_unset: Option<String>,
    opt_struct: Option<Point>,
    uptr_set: Option<Box<f64>>,
    uptr_null: Option<Box<f64>>,
    sptr_set: Option<String>,
    after: i32,
}

#[derive(Reflect, Serialize, Deserialize, Debug, Default, PartialEq, Clone)]
struct TypedArrays {
    i8: Vec<i8>,
    i16: Vec<i16>,
    i32: Vec<i32>,
    i64: Vec<i64>,
    u8: Vec<u8>,
    u16: Vec<u16>,
    u32: Vec<u32>,
    u64: Vec<u64>,
    f32: Vec<f32>,
    f64: Vec<f64>,
}

#[derive(Reflect, Serialize, Deserialize, Debug, Default, PartialEq, Clone)]
struct BoolStringArrays {
    bits_1: Vec<bool>,
    bits_8: Vec<bool>,
    bits_11: Vec<bool>,
    strs: Vec<String>,
}

#[derive(Reflect, Serialize, Deserialize, Debug, Default, PartialEq, Clone)]
struct GenericArrays {
    points: Vec<Point>,
    nested_ints: Vec<Vec<i32>>,
    nested_strs: Vec<Vec<String>>,
    opt_ints: Vec<Option<i32>>,
    tuple_mixed: (i32, String, f64, bool),
    maps: Vec<BTreeMap<String, i32>>,
}

#[derive(Reflect, Serialize, Deserialize, Debug, Default, PartialEq, Clone)]
struct Inner2 {
    name: String,
    ids: Vec<i32>,
}

#[derive(Reflect, Serialize, Deserialize, Debug, Default, PartialEq, Clone)]
struct Inner1 {
    deep: Inner2,
    weight: f64,
}

#[derive(Reflect, Serialize, Deserialize, Debug, Default, PartialEq, Clone)]
struct Nested {
    mid: Inner1,
    top: i32,
    nothing: Empty,
    list: Vec<Inner1>,
}

#[derive(Reflect, Serialize, Deserialize, Debug, Default, PartialEq, Clone)]
struct Sizes {
    str_16383: String,
    str_16384: String,
    u8_64: Vec<u8>,
    bits_64: Vec<bool>,
    strs_64: Vec<String>,
    map_64: BTreeMap<String, i32>,
}

#[derive(Reflect, Serialize, Deserialize, Debug, Default, PartialEq, Clone)]
struct Fixed {
    ai: [i32; 3],
    ad: [f64; 2],
    #[structio(rename = "as")]
    #[serde(rename = "as")]
    strs: [String; 2],
    ab: [bool; 3],
    ap: [Point; 1],
    pr: BTreeMap<String, i32>,
    tup: (String, Vec<i32>, Point),
}

/// Glaze's exchange files (`formats/beve/exchange`, written by Glaze 8.1): read through the
/// bridge from BEVE and from JSON, and written back byte for byte in both.
#[test]
fn glaze_exchange_files() {
    fn exchange<T>(name: &str)
    where
        T: Serialize + DeserializeOwned + ReflectOwned + PartialEq + Debug + Default,
    {
        let beve = common::read(&format!("formats/beve/exchange/{name}.beve"));
        let json = common::read(&format!("formats/beve/exchange/{name}.json"));
        let v: T = bridge::from_beve(&beve).unwrap_or_else(|e| panic!("{name}: {e}"));
        let derived: T = structio::from_beve(&beve).unwrap();
        assert_eq!(v, derived, "{name}");
        same_bytes(&bridge::to_beve(&v), &beve, name);
        let from_json: T = bridge::from_json(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(from_json, v, "{name}: JSON");
        assert_eq!(
            bridge::to_json(&v).as_bytes(),
            &json[..],
            "{name}: JSON written back differently"
        );
    }
    exchange::<Maps>("maps");
    exchange::<Optionals>("optionals");
    exchange::<TypedArrays>("typed_arrays");
    exchange::<BoolStringArrays>("bool_string_arrays");
    exchange::<GenericArrays>("generic_arrays");
    exchange::<Nested>("nested");
    exchange::<Sizes>("sizes");
    exchange::<Fixed>("fixed");
}

/// The JSON corpus with the bench's types: the bridge reads what serde_json and structio read,
/// and writes what structio writes, in both formats.
#[test]
fn corpus_documents() {
    fn doc<T>(name: &str)
    where
        T: Serialize + DeserializeOwned + ReflectOwned + PartialEq + Debug + Default,
    {
        let text = std::fs::read(common::data(&format!("corpus/{name}.json"))).unwrap();
        let ours: T = bridge::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let serde: T = serde_json::from_slice(&text).unwrap();
        assert!(ours == serde, "{name}: differs from serde_json");
        let json = bridge::to_json(&ours);
        assert!(json == structio::to_json(&ours), "{name}: JSON");
        let beve = bridge::to_beve(&ours);
        same_bytes(&beve, &structio::to_beve(&ours), name);
        let back: T = bridge::from_beve(&beve).unwrap();
        assert!(back == ours, "{name}: BEVE read back");
        let back: T = bridge::from_json(&json).unwrap();
        assert!(back == ours, "{name}: JSON read back");
    }
    doc::<corpus::Twitter>("twitter");
    doc::<corpus::CitmCatalog>("citm_catalog");
    doc::<corpus::Canada>("canada");
}

// ---------------------------------------------------------------------------------------------
// Borrowing.

#[test]
fn borrowed_strings_and_bytes() {
    let call: corpus::ToolsCall = bridge::from_json(corpus::TOOLS_CALL).unwrap();
    assert_eq!(call.params.arguments.city, "Paris");
    let text = corpus::TOOLS_CALL.as_bytes();
    let range = text.as_ptr_range();
    assert!(
        range.contains(&call.method.as_ptr()),
        "borrowed from the input"
    );
    let beve = bridge::to_beve(&call);
    let again: corpus::ToolsCall = bridge::from_beve(&beve).unwrap();
    assert_eq!(again, call);
    assert!(beve.as_ptr_range().contains(&again.jsonrpc.as_ptr()));

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Borrows<'a> {
        #[serde(borrow)]
        cow: Cow<'a, str>,
        #[serde(borrow)]
        raw: &'a [u8],
    }
    let v = Borrows {
        cow: Cow::Borrowed("plain"),
        raw: &[1, 2, 3],
    };
    let beve = bridge::to_beve(&v);
    let back: Borrows = bridge::from_beve(&beve).unwrap();
    assert_eq!(back, v);
    assert!(matches!(back.cow, Cow::Borrowed(_)));
    assert!(beve.as_ptr_range().contains(&back.raw.as_ptr()));

    // A JSON string with escapes cannot be a `&str`; a `Cow` takes it.
    let e =
        bridge::from_json::<corpus::WeatherArgs>(r#"{"city":"Pa\"ris","units":"x"}"#).unwrap_err();
    assert_eq!(e.path(), "$.city");
    assert_eq!(e.offset(), 8);
    let v: BTreeMap<Cow<str>, Cow<str>> = bridge::from_json(r#"{"a\n":"b\t","c":"d"}"#).unwrap();
    assert_eq!(v[&Cow::from("a\n")], "b\t");
}

// ---------------------------------------------------------------------------------------------
// Errors: offset, line and column, path.

/// The bridge and the derive report the same error (message, offset, position, path).
fn same_error<T>(json: &str)
where
    T: DeserializeOwned + ReflectOwned + Default + Debug,
{
    let ours = bridge::from_json::<T>(json).unwrap_err();
    let derived = structio::from_json::<T>(json).unwrap_err();
    assert_eq!(ours.to_string(), derived.to_string(), "{json}");
    assert_eq!(ours.offset(), derived.offset(), "{json}");
    assert_eq!(ours.path_segments(), derived.path_segments(), "{json}");
    assert_eq!(ours.category(), derived.category(), "{json}");
    // And in BEVE, where the document can be written.
    if let Ok(v) = structio::from_json::<structio::Value>(json) {
        let beve = structio::to_beve(&v);
        let ours = bridge::from_beve::<T>(&beve).unwrap_err();
        let derived = structio::from_beve::<T>(&beve).unwrap_err();
        // (The derive's bulk reads word some messages more closely: "an array of numbers".)
        assert_eq!(
            ours.offset(),
            derived.offset(),
            "{json} in BEVE: {ours} / {derived}"
        );
        assert_eq!(ours.path(), derived.path(), "{json} in BEVE");
    }
}

#[test]
fn errors_match_the_derive() {
    let base = structio::to_json(&everything());
    let bad = |from: &str, to: &str| {
        assert!(base.contains(from), "{from}");
        base.replacen(from, to, 1)
    };
    same_error::<Everything>(&bad(r#""tiny":-128"#, r#""tiny":-129"#));
    same_error::<Everything>(&bad(r#""tiny":-128"#, r#""tiny":"x""#));
    same_error::<Everything>(&bad(r#""flag":true"#, r#""flag":1"#));
    same_error::<Everything>(&bad(r#""letter":"ß""#, r#""letter":"ab""#));
    same_error::<Everything>(&bad(r#"[-3]"#, r#"[-3,"x"]"#));
    same_error::<Everything>(&bad(r#""weight":0.1"#, r#""weight":true"#));
    same_error::<Everything>(&bad(r#""1":"a""#, r#""x":"a""#));
    same_error::<Everything>(&bad(r#""1":"a""#, r#""1":2"#));
    same_error::<Everything>(&bad(r#""last":-1"#, r#""last":-1,"extra":0"#));
    same_error::<Everything>(&bad(r#""doubles":[1,"#, r#""doubles":[1,,"#));
    same_error::<Everything>(&bad(r#""fixed":[1,2.5,-3]"#, r#""fixed":{}"#));
    same_error::<Everything>(&bad(r#""words":["one""#, r#""words":[1"#));
    same_error::<Everything>(&bad(r#""byNeg":{"-5""#, r#""byNeg":{"-5x""#));
    same_error::<Everything>(&bad(r#"{"Circle":1.5}"#, r#"{"Circle":"r"}"#));
    same_error::<Everything>(&bad(r#"{"Circle":1.5}"#, r#"{"Oval":1.5}"#));
    same_error::<Everything>(&bad(r#"{"w":2,"h":3}"#, r#"{"w":2,"h":null}"#));
    same_error::<Everything>(&bad(r#"{"Circle":1.5}"#, r#"{"Circle":1.5,"Rect":1}"#));
    same_error::<Everything>(&format!("{base} x"));
    same_error::<Everything>(&base[..base.len() - 9]);
    same_error::<Vec<Vec<u8>>>("[[1],\n [2, 300]]");
    same_error::<BTreeMap<String, Inner>>("{\"a\":\n{\"name\":\"n\",\n\"weight\":\"w\"}}");
}

#[test]
fn errors_carry_line_column_and_path() {
    let text =
        "{\n  \"name\": \"n\",\n  \"weight\": 1,\n  \"tags\": [\"a\", 5],\n  \"note\": null\n}";
    let e = bridge::from_json::<Inner>(text).unwrap_err();
    assert_eq!(e.path(), "$.tags[1]");
    assert_eq!(e.line_column(), Some((4, 17)));
    assert_eq!(e.category(), Category::Data);
    assert!(e
        .to_string()
        .starts_with("expected a string, found a number at 4:17"));

    // Unknown keys are errors by default, as in structio and Glaze; skipped on request.
    let e = bridge::from_json::<Point>(r#"{"x":1,"z":2,"y":3}"#).unwrap_err();
    assert_eq!(e.message(), "unknown key `z`");
    assert_eq!(e.offset(), 7);
    let lenient = structio::json::Options {
        read: structio::ReadOptions {
            unknown_keys: structio::UnknownKeys::Skip,
            ..Default::default()
        },
        ..Default::default()
    };
    let p: Point = bridge::from_json_with(r#"{"x":1,"z":[2,{}],"y":3}"#, &lenient).unwrap();
    assert_eq!(p, Point { x: 1.0, y: 3.0 });
    // ... unless serde is told to deny them.
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        x: f64,
    }
    let e = bridge::from_json_with::<Strict>(r#"{"x":1,"z":2}"#, &lenient).unwrap_err();
    assert_eq!(e.message(), "unknown key `z`");
    assert_eq!(e.offset(), 7);

    // serde's own rules: a missing field (not an Option) and a repeated one.
    let e = bridge::from_json::<Point>(r#"{"x":1}"#).unwrap_err();
    assert_eq!(e.message(), "missing key `y`");
    assert_eq!(e.key(), Some("y"));
    assert_eq!(e.offset(), 7);
    let e = bridge::from_json::<Inner>(r#"{"name":"a","weight":1,"tags":[]}"#);
    assert_eq!(e.unwrap().note, None);
    let e = bridge::from_json::<Point>(r#"{"x":1,"x":2,"y":3}"#).unwrap_err();
    assert_eq!(e.message(), "duplicate key `x`");
    assert_eq!(e.offset(), 7);
    // A custom error from a `Deserialize` impl, placed at the value it was given.
    #[derive(Debug)]
    struct Even(#[allow(dead_code)] u32);
    impl<'de> Deserialize<'de> for Even {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Even, D::Error> {
            let v = u32::deserialize(d)?;
            if v % 2 == 1 {
                return Err(serde::de::Error::custom(format!("{v} is odd")));
            }
            Ok(Even(v))
        }
    }
    let e = bridge::from_json::<BTreeMap<String, Vec<Even>>>("{\"k\": [2, 4,\n 7]}").unwrap_err();
    assert_eq!(e.message(), "7 is odd");
    assert_eq!(e.path(), "$[\"k\"][2]");
    assert_eq!(e.line_column(), Some((2, 2)));
    let beve = structio::to_beve(&BTreeMap::from([("k", vec![2u32, 7])]));
    let e = bridge::from_beve::<BTreeMap<String, Vec<Even>>>(&beve).unwrap_err();
    assert_eq!(e.message(), "7 is odd");
    assert_eq!(e.path(), "$[\"k\"][1]");
    assert_eq!(e.line_column(), None);
    assert!(e.offset() > 0 && e.offset() < beve.len());

    // Enum errors name the variant in the path.
    let e = bridge::from_json::<Shape>(r#"{"Rect":{"w":1,"h":"x"}}"#).unwrap_err();
    assert_eq!(e.path(), "$.Rect.h");
    let e = bridge::from_json::<Shape>(r#""Circle""#).unwrap_err();
    assert_eq!(
        e.message(),
        "variant `Circle` holds data: expected an object"
    );
    let e = bridge::from_json::<Color>(r#""purple""#).unwrap_err();
    assert_eq!(e.message(), "unknown variant `purple`");
    assert_eq!(e.offset(), 0);
    let e = bridge::from_json::<Shape>(r#"{}"#).unwrap_err();
    assert_eq!(
        e.message(),
        "expected an object with exactly one key naming the variant"
    );

    // Bad BEVE: offsets, never a panic.
    let beve = bridge::to_beve(&everything());
    for cut in (0..beve.len()).step_by(7) {
        let e = bridge::from_beve::<Everything>(&beve[..cut]).unwrap_err();
        assert!(e.offset() <= cut, "{cut}: {e}");
    }
    let json = bridge::to_json(&everything());
    for cut in (0..json.len()).step_by(5) {
        let e = bridge::from_json::<Everything>(&json.as_bytes()[..cut]).unwrap_err();
        assert!(e.offset() <= cut && e.line_column().is_some(), "{cut}: {e}");
    }
    // Deep nesting stops at the depth limit.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = bridge::from_json::<Value>(&deep).unwrap_err();
    assert_eq!(e.category(), Category::Limit);
}

// ---------------------------------------------------------------------------------------------
// `#[structio(serde)]`'s functions and `Serde<T>`.

/// A type that knows only serde, with serde attributes structio has no counterpart for.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
struct Legacy {
    id: u32,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    tags: Vec<String>,
    #[serde(with = "as_text")]
    code: u16,
}

mod as_text {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &u16, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u16, D::Error> {
        let s = <&str>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[derive(Reflect, Debug, Clone, PartialEq, Default)]
struct Record {
    name: String,
    legacy: Serde<Legacy>,
    maybe: Serde<Option<Legacy>>,
    list: Vec<Serde<Legacy>>,
    after: u8,
}

#[test]
fn serde_fields_in_derived_types() {
    let legacy = Legacy {
        id: 7,
        tags: vec![],
        code: 42,
    };
    let r = Record {
        name: "r".into(),
        legacy: Serde(legacy.clone()),
        maybe: Serde(None),
        list: vec![Serde(Legacy {
            tags: vec!["t".into()],
            ..legacy.clone()
        })],
        after: 1,
    };
    let json = structio::to_json(&r);
    assert_eq!(
        json,
        r#"{"name":"r","legacy":{"ID":7,"CODE":"42"},"list":[{"ID":7,"TAGS":["t"],"CODE":"42"}],"after":1}"#
    );
    assert_eq!(structio::from_json::<Record>(&json).unwrap(), r);
    let beve = structio::to_beve(&r);
    assert_eq!(structio::from_beve::<Record>(&beve).unwrap(), r);
    assert_eq!(structio::beve::beve_size(&r), beve.len());
    let aligned = structio::to_beve_aligned(&r);
    assert_eq!(structio::from_beve::<Record>(&aligned).unwrap(), r);
    let mut with_maybe = r.clone();
    with_maybe.maybe = Serde(Some(legacy));
    let json = structio::to_json(&with_maybe);
    assert!(json.contains(r#""maybe":{"ID":7,"CODE":"42"}"#), "{json}");
    assert_eq!(structio::from_json::<Record>(&json).unwrap(), with_maybe);

    // Errors inside a serde field keep the whole path.
    let e = structio::from_json::<Record>(
        r#"{"name":"r","legacy":{"ID":7,"CODE":"x"},"list":[],"after":1}"#,
    )
    .unwrap_err();
    assert_eq!(e.path(), "$.legacy.CODE");
    assert_eq!(e.message(), "invalid digit found in string");
    assert_eq!(e.offset(), 36);

    // The functions the derive calls, on any writer and reader.
    let mut w = JsonWriter::new(String::new());
    bridge::write_serde(&legacy_list(), &mut w);
    let text = w.into_inner();
    let back: Vec<Legacy> = bridge::from_json(&text).unwrap();
    assert_eq!(back, legacy_list());
}

fn legacy_list() -> Vec<Legacy> {
    vec![
        Legacy::default(),
        Legacy {
            id: 1,
            tags: vec!["a".into()],
            code: 2,
        },
    ]
}

/// `write_serde` into a streaming sink: the BEVE of a struct whose count is corrected at its
/// end is held until then, so the stream equals the bytes written in memory.
#[test]
fn streamed_output_equals_output_in_memory() {
    let mut big = everything();
    big.doubles = (0..40_000).map(|i| i as f64 * 0.5).collect();
    big.words = (0..5_000).map(|i| format!("w{i}")).collect();
    let mut sink = IoSink::new(Vec::new());
    bridge::write_serde(&big, &mut BeveWriter::new(&mut sink));
    assert_eq!(sink.finish().unwrap(), bridge::to_beve(&big));
    let mut sink = IoSink::new(Vec::new());
    bridge::write_serde(&big, &mut JsonWriter::new(&mut sink));
    assert_eq!(sink.finish().unwrap(), bridge::to_json(&big).as_bytes());
    // Through structio's own streaming entry point, as a field.
    let r = Record {
        legacy: Serde(Legacy {
            tags: (0..20_000).map(|i| i.to_string()).collect(),
            ..Legacy::default()
        }),
        ..Record::default()
    };
    let mut out = Vec::new();
    structio::beve::to_writer(&mut out, &r).unwrap();
    assert_eq!(out, structio::to_beve(&r));
}

// ---------------------------------------------------------------------------------------------
// What serde cannot describe exactly (see the module documentation).

#[test]
fn documented_differences() {
    // A unit variant of an enum with data: JSON as the derive, BEVE by index (the derive
    // writes the name); the bridge reads both.
    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq, Default)]
    enum WithUnit {
        #[default]
        Nothing,
        Some(u8),
    }
    assert_eq!(
        bridge::to_json(&WithUnit::Nothing),
        structio::to_json(&WithUnit::Nothing)
    );
    assert_eq!(
        bridge::to_beve(&WithUnit::Nothing),
        structio::to_beve(&0i32)
    );
    assert_eq!(
        bridge::from_beve::<WithUnit>(&structio::to_beve(&WithUnit::Nothing)).unwrap(),
        WithUnit::Nothing
    );
    assert_eq!(
        bridge::from_beve::<WithUnit>(&bridge::to_beve(&WithUnit::Some(3))).unwrap(),
        WithUnit::Some(3)
    );
    // Homogeneous tuples are typed arrays (the derive writes generic arrays); JSON is equal.
    let t = (1.0f64, 2.0f64);
    assert_eq!(bridge::to_json(&t), structio::to_json(&t));
    assert_eq!(bridge::to_beve(&t), structio::to_beve(&[1.0f64, 2.0]));
    assert_eq!(
        structio::from_beve::<(f64, f64)>(&bridge::to_beve(&t)).unwrap(),
        t
    );
    // An empty sequence is a typed array when its element type is known by name (a
    // standard number, bool or string type), else a generic one; an empty map has integer
    // keys when its key type is an integer type, else string keys.
    assert_eq!(
        bridge::to_beve(&Vec::<f64>::new()),
        structio::to_beve(&Vec::<f64>::new())
    );
    assert_eq!(
        bridge::to_beve(&Vec::<String>::new()),
        structio::to_beve(&Vec::<String>::new())
    );
    assert_eq!(bridge::to_beve(&[0u8; 0]), [0x05, 0x00]);
    assert_eq!(bridge::to_beve(&Vec::<Meters>::new()), [0x05, 0x00]);
    assert_eq!(
        bridge::to_beve(&BTreeMap::<u32, u8>::new()),
        structio::to_beve(&BTreeMap::<u32, u8>::new())
    );
    assert_eq!(bridge::to_beve(&BTreeMap::<Color, u8>::new()), [0x03, 0x00]);
    assert_eq!(
        structio::from_beve::<Vec<f64>>(&[0x05, 0x00]).unwrap(),
        Vec::<f64>::new()
    );
    // `usize` is a `u64` to serde: a typed array (the derive writes a generic one).
    assert_eq!(
        bridge::to_beve(&vec![1usize]),
        structio::to_beve(&vec![1u64])
    );
    assert_eq!(
        structio::from_beve::<BTreeMap<u32, u8>>(&[0x03, 0x00]).unwrap(),
        BTreeMap::new()
    );
    // `is_human_readable` follows the format.
    let addr: std::net::Ipv4Addr = "10.0.0.1".parse().unwrap();
    assert_eq!(bridge::to_json(&addr), r#""10.0.0.1""#);
    assert_eq!(bridge::to_beve(&addr), structio::to_beve(&[10u8, 0, 0, 1]));
    assert_eq!(
        bridge::from_beve::<std::net::Ipv4Addr>(&bridge::to_beve(&addr)).unwrap(),
        addr
    );
    assert_eq!(
        bridge::from_json::<std::net::Ipv4Addr>(r#""10.0.0.1""#).unwrap(),
        addr
    );
}

#[test]
fn writing_errors() {
    let key = HashMap::from([((1, 2), 3)]);
    let mut out = b"kept".to_vec();
    let e = bridge::write_json(&key, &mut out).unwrap_err();
    assert!(e.message().starts_with("a map key must be"), "{e}");
    assert_eq!(out, b"kept");
    assert!(bridge::write_beve(&key, &mut out).is_err());
    assert_eq!(out, b"kept");
    let r = std::panic::catch_unwind(|| bridge::to_json(&key));
    assert!(r.is_err());

    struct Fails;
    impl Serialize for Fails {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no"))
        }
    }
    let e = bridge::serialize(&Fails, &mut JsonWriter::new(String::new())).unwrap_err();
    assert_eq!(e.message(), "no");
    assert_eq!(e.category(), Category::Data);
}

/// Sequences and maps of unknown length, and `#[serde(flatten)]` (a map of unknown length).
#[test]
fn unknown_lengths_and_flatten() {
    struct Odd(Vec<u32>);
    impl Serialize for Odd {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.0.iter().filter(|x| *x % 2 == 1))
        }
    }
    struct OddMap(Vec<u32>);
    impl Serialize for OddMap {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(
                self.0
                    .iter()
                    .filter(|x| *x % 2 == 1)
                    .map(|x| (x, vec![*x; 2])),
            )
        }
    }
    let v: Vec<u32> = (0..200).collect();
    let odd: Vec<u32> = v.iter().copied().filter(|x| x % 2 == 1).collect();
    assert_eq!(bridge::to_beve(&Odd(v.clone())), structio::to_beve(&odd));
    let odd_map: BTreeMap<u32, Vec<u32>> = odd.iter().map(|&x| (x, vec![x; 2])).collect();
    for o in beve_options() {
        // With aligned arrays a count not known up front keeps its 8-byte form, so that no
        // aligned payload moves; otherwise the bytes are the derive's.
        if !o.aligned_arrays {
            assert_eq!(
                bridge::to_beve_with(&OddMap(v.clone()), &o),
                structio::beve::to_beve_with(&odd_map, &o),
                "{o:?}"
            );
        }
        let bytes = bridge::to_beve_with(&OddMap(v.clone()), &o);
        let back: BTreeMap<u32, Vec<u32>> = structio::from_beve(&bytes).unwrap();
        assert_eq!(back, odd_map);
        let nested = vec![Some(OddMap(v.clone())), None];
        let bytes = bridge::to_beve_with(&nested, &o);
        let back: Vec<Option<BTreeMap<u32, Vec<u32>>>> = structio::from_beve(&bytes).unwrap();
        assert_eq!(back, vec![Some(odd_map.clone()), None]);
    }
    assert_eq!(
        bridge::to_json(&OddMap(v.clone())),
        structio::to_json(&odd_map)
    );
    // Not one type: a generic array of unknown length.
    struct Mixed;
    impl Serialize for Mixed {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            let mut seq = s.serialize_seq(None)?;
            for i in 0..100u8 {
                seq.serialize_element(&i)?;
            }
            seq.serialize_element("end")?;
            seq.end()
        }
    }
    let bytes = bridge::to_beve(&Mixed);
    let back: Value = structio::from_beve(&bytes).unwrap();
    assert_eq!(back.as_array().unwrap().len(), 101);
    assert_eq!(back[100], "end");

    #[derive(Reflect, Serialize, Deserialize, Debug, PartialEq, Default)]
    struct Flat {
        id: u32,
        #[serde(flatten)]
        #[structio(flatten)]
        rest: BTreeMap<String, u32>,
        name: Option<String>,
    }
    let f = Flat {
        id: 1,
        rest: BTreeMap::from([("a".into(), 2), ("b".into(), 3)]),
        name: None,
    };
    let json = bridge::to_json(&f);
    assert_eq!(json, r#"{"id":1,"a":2,"b":3}"#);
    assert_eq!(bridge::from_json::<Flat>(&json).unwrap(), f);
    let beve = bridge::to_beve(&f);
    assert_eq!(beve, structio::to_beve(&f));
    assert_eq!(bridge::from_beve::<Flat>(&beve).unwrap(), f);
}

// ---------------------------------------------------------------------------------------------
// `Value`, `Error`.

/// Whether `v` holds an empty typed array.
fn has_empty_typed(v: &Value) -> bool {
    match v {
        Value::Typed(t) => t.is_empty(),
        Value::Array(a) => a.iter().any(has_empty_typed),
        Value::Object(m) => m.values().any(has_empty_typed),
        Value::IntObject(m) => m.values().any(has_empty_typed),
        _ => false,
    }
}

#[test]
fn value_through_serde() {
    // Every exchange file: BEVE -> Value through the bridge is the native value; a native
    // Value is written through the bridge as structio writes it.
    for path in common::list(&common::path("formats/beve/exchange"), ".beve") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let beve = std::fs::read(&path).unwrap();
        let native: Value = structio::from_beve(&beve).unwrap();
        let v: Value = bridge::from_beve(&beve).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(v, native, "{name}");
        assert_eq!(
            bridge::to_json(&native),
            structio::to_json(&native),
            "{name}"
        );
        // A generic array of numbers of one type (Glaze's vector of enums in `enums`) is a
        // typed array through serde.
        if name != "enums.beve" {
            same_bytes(
                &bridge::to_beve(&native),
                &structio::to_beve(&native),
                &name,
            );
        }
        // Read through serde, a typed array is a sequence of numbers (bools, strings), written
        // as a typed array again: the same bytes, but for empty typed arrays.
        if name != "enums.beve" && !has_empty_typed(&native) {
            same_bytes(&bridge::to_beve(&v), &beve, &name);
        }
    }
    // JSON -> Value through the bridge and natively: the same value, the same text.
    let text = structio::to_json(&everything());
    let ours: Value = bridge::from_json(&text).unwrap();
    let native: Value = structio::from_json(&text).unwrap();
    assert_eq!(ours, native);
    assert_eq!(bridge::to_json(&ours), text);
    // With another serde format.
    let through_serde_json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(through_serde_json, native);
    let written: serde_json::Value =
        serde_json::from_str(&serde_json::to_string(&native).unwrap()).unwrap();
    assert_eq!(
        written,
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    );
    // Numbers keep their kind through the bridge.
    let beve = structio::to_beve(&(1u16, -2i8, 3.5f32, u128::MAX));
    let v: Value = bridge::from_beve(&beve).unwrap();
    assert_eq!(bridge::to_beve(&v), beve);
}

#[test]
fn error_is_serdes_error_type() {
    use serde::de::Error as _;
    let e = structio::Error::missing_field("id");
    assert_eq!(e.message(), "missing key `id`");
    assert_eq!(e.key(), Some("id"));
    assert_eq!(
        structio::Error::unknown_field("x", &[]).message(),
        "unknown key `x`"
    );
    assert_eq!(
        structio::Error::unknown_variant("v", &[]).message(),
        "unknown variant `v`"
    );
    assert_eq!(
        structio::Error::duplicate_field("d").message(),
        "duplicate key `d`"
    );
    assert_eq!(
        structio::Error::invalid_length(3, &"an array of 2").message(),
        "expected an array of 2, found 3 elements"
    );
    let e = <structio::Error as serde::ser::Error>::custom("bad");
    assert_eq!((e.message(), e.offset()), ("bad".to_string(), 0));
    // serde_json's error converts through the message.
    let e: structio::Error =
        structio::Error::custom(serde_json::from_str::<u8>("x").unwrap_err().to_string(), 3);
    assert_eq!(e.offset(), 3);
    assert_eq!(e.path_segments(), Vec::<PathSegment>::new());
}
