//! `structio::json_schema` checked against a real validator (the `jsonschema` crate): for a
//! table of derived and std types, every document structio's JSON reader accepts validates
//! against the type's schema, every document it rejects for a wrong type, a missing or unknown
//! key or a value out of range fails it, and every value's written JSON validates.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::num::{NonZeroI32, NonZeroU8};
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use structio::{from_json, json_schema, to_json, JsonSchema, Reflect, ReflectOwned, Value};

/// The schema of `T` as the validator's JSON.
fn schema_of<T: JsonSchema + ?Sized>() -> serde_json::Value {
    let text = to_json(&json_schema::<T>());
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn validator<T: JsonSchema + ?Sized>() -> jsonschema::Validator {
    let schema = schema_of::<T>();
    jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{e}: {schema:#}"))
}

/// Every document of `accepted` reads as a `T` and validates; every document of `rejected` is
/// refused by both.
fn check<T: ReflectOwned + JsonSchema>(accepted: &[&str], rejected: &[&str]) {
    let v = validator::<T>();
    let schema = schema_of::<T>();
    for doc in accepted {
        if let Err(e) = from_json::<T>(doc) {
            panic!("structio refuses {doc}: {e}");
        }
        let instance: serde_json::Value = serde_json::from_str(doc).unwrap();
        if let Err(e) = v.validate(&instance) {
            panic!("schema refuses {doc}: {e}\n{schema:#}");
        }
    }
    for doc in rejected {
        assert!(from_json::<T>(doc).is_err(), "structio accepts {doc}");
        let instance: serde_json::Value = serde_json::from_str(doc).unwrap();
        assert!(!v.is_valid(&instance), "schema accepts {doc}\n{schema:#}");
    }
}

/// The JSON structio writes for `value` validates against `T`'s schema.
fn written<T: ReflectOwned + JsonSchema>(value: &T) {
    let v = validator::<T>();
    let text = to_json(value);
    let instance: serde_json::Value = serde_json::from_str(&text).unwrap();
    if let Err(e) = v.validate(&instance) {
        panic!("written {text} fails: {e}\n{:#}", schema_of::<T>());
    }
}

/// An account.
#[derive(Reflect, Debug, PartialEq)]
#[structio(rename_all = "camelCase")]
struct Account {
    /// Shown to others.
    display_name: String,
    #[structio(alias = "yearsOld")]
    age: u8,
    nickname: Option<String>,
    #[structio(default)]
    tags: Vec<String>,
    #[structio(rename = "e-mail")]
    email: Option<Box<str>>,
    #[structio(skip)]
    cache: u32,
    plan: Plan,
}

/// What an account pays for.
#[derive(Reflect, Debug, PartialEq, Default, Clone, Copy, PartialOrd, Ord, Eq, Hash)]
#[structio(rename_all = "lowercase")]
enum Plan {
    #[default]
    Free,
    Pro,
}

#[test]
fn structs_with_names_options_and_defaults() {
    check::<Account>(
        &[
            r#"{"displayName":"a","age":3,"plan":"free"}"#,
            r#"{"displayName":"a","age":255,"nickname":null,"tags":["x"],"e-mail":"m","plan":"pro"}"#,
            r#"{"plan":"pro","age":0,"displayName":""}"#,
        ],
        &[
            // Missing key, unknown key, wrong type, out of range, unknown variant.
            r#"{"displayName":"a","plan":"free"}"#,
            r#"{"displayName":"a","age":3,"plan":"free","x":1}"#,
            r#"{"displayName":"a","age":3,"plan":"free","cache":1}"#,
            r#"{"displayName":1,"age":3,"plan":"free"}"#,
            r#"{"displayName":"a","age":256,"plan":"free"}"#,
            r#"{"displayName":"a","age":-1,"plan":"free"}"#,
            r#"{"displayName":"a","age":3,"plan":"gold"}"#,
            r#"{"display_name":"a","age":3,"plan":"free"}"#,
            r#"{"displayName":"a","age":3,"plan":"free","tags":[1]}"#,
            r#"[]"#,
        ],
    );
    written(&Account {
        display_name: "n".into(),
        age: 9,
        nickname: Some("k".into()),
        tags: vec!["t".into()],
        email: None,
        cache: 0,
        plan: Plan::Pro,
    });
    let s = schema_of::<Account>();
    assert_eq!(s["description"], "An account.");
    assert_eq!(s["title"], "Account");
    assert_eq!(
        s["properties"]["displayName"]["description"],
        "Shown to others."
    );
    assert_eq!(
        s["required"],
        serde_json::json!(["displayName", "age", "plan"])
    );
    assert_eq!(
        s["$defs"]["Plan"]["enum"],
        serde_json::json!(["free", "pro"])
    );
    assert_eq!(
        s["$defs"]["Plan"]["description"],
        "What an account pays for."
    );
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct Meta {
    version: u32,
    note: Option<String>,
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct Flat {
    id: u64,
    #[structio(flatten)]
    meta: Meta,
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct FlatRest {
    id: u64,
    #[structio(flatten)]
    rest: BTreeMap<String, i8>,
}

#[test]
fn flattened_members_are_merged() {
    check::<Flat>(
        &[
            r#"{"id":1,"version":2}"#,
            r#"{"version":2,"id":1,"note":"n"}"#,
        ],
        &[
            r#"{"id":1}"#,
            r#"{"id":1,"version":2,"meta":{}}"#,
            r#"{"id":1,"version":-2}"#,
        ],
    );
    check::<FlatRest>(
        &[r#"{"id":1}"#, r#"{"id":1,"a":-3,"b":4}"#],
        &[r#"{"id":1,"a":"x"}"#, r#"{"id":1,"a":300}"#, r#"{"a":1}"#],
    );
    let s = schema_of::<Flat>();
    assert_eq!(s["required"], serde_json::json!(["id", "version"]));
}

/// A shape.
#[derive(Reflect, Debug, PartialEq)]
enum External {
    /// Nothing.
    Empty,
    Newtype(u8),
    Pair(u8, String),
    Named {
        x: i16,
        y: Option<bool>,
    },
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct Payload {
    size: u16,
}

#[derive(Reflect, Debug, PartialEq)]
#[structio(tag = "kind", rename_all = "snake_case")]
enum Internal {
    Empty,
    Named { x: i16 },
    Wrapped(Payload),
}

#[derive(Reflect, Debug, PartialEq)]
#[structio(tag = "t", content = "c")]
enum Adjacent {
    Empty,
    Newtype(u8),
    Named { x: i16 },
}

#[derive(Reflect, Debug, PartialEq)]
#[structio(untagged)]
enum Untagged {
    Nothing,
    Number(u8),
    Text(String),
    Point { x: i16, y: i16 },
    List(Vec<bool>),
}

#[test]
fn enum_representations() {
    check::<External>(
        &[
            r#""Empty""#,
            r#"{"Newtype":3}"#,
            r#"{"Pair":[1,"a"]}"#,
            r#"{"Named":{"x":-1}}"#,
            r#"{"Named":{"x":-1,"y":true}}"#,
        ],
        &[
            r#""Other""#,
            r#"{"Newtype":300}"#,
            r#"{"Pair":[1]}"#,
            r#"{"Pair":[1,"a",2]}"#,
            r#"{"Named":{"y":true}}"#,
            r#"{"Named":{"x":1,"z":1}}"#,
            r#"{"Newtype":1,"Empty":null}"#,
        ],
    );
    check::<Internal>(
        &[
            r#"{"kind":"empty"}"#,
            r#"{"kind":"named","x":4}"#,
            r#"{"x":4,"kind":"named"}"#,
            r#"{"kind":"wrapped","size":9}"#,
        ],
        &[
            r#"{"kind":"Empty"}"#,
            r#"{"kind":"named"}"#,
            r#"{"kind":"named","x":4,"size":1}"#,
            r#"{"kind":"wrapped","size":-9}"#,
            r#"{"x":4}"#,
        ],
    );
    check::<Adjacent>(
        &[
            r#"{"t":"Empty"}"#,
            r#"{"t":"Newtype","c":7}"#,
            r#"{"c":{"x":1},"t":"Named"}"#,
        ],
        &[
            r#"{"t":"Newtype","c":"7"}"#,
            r#"{"t":"Named","c":{}}"#,
            r#"{"t":"Other","c":1}"#,
        ],
    );
    check::<Untagged>(
        &["null", "7", r#""text""#, r#"{"x":1,"y":2}"#, "[true,false]"],
        &["true", "1.5", r#"{"x":1}"#, "[1]"],
    );
    for v in [
        External::Empty,
        External::Newtype(1),
        External::Pair(2, "b".into()),
        External::Named { x: 3, y: None },
    ] {
        written(&v);
    }
    written(&Internal::Wrapped(Payload { size: 3 }));
    written(&Internal::Empty);
    written(&Adjacent::Named { x: 1 });
    written(&Untagged::Point { x: 1, y: 2 });
    let s = schema_of::<External>();
    assert_eq!(s["description"], "A shape.");
    assert_eq!(
        s["oneOf"][0],
        serde_json::json!({"const": "Empty", "description": "Nothing."})
    );
}

/// A tree of any depth: its schema refers to itself.
#[derive(Reflect, Debug, PartialEq, Default)]
struct Tree {
    label: String,
    children: Vec<Tree>,
    next: Option<Box<Tree>>,
}

#[test]
fn recursive_types_refer_to_their_definition() {
    check::<Tree>(
        &[
            r#"{"label":"a","children":[]}"#,
            r#"{"label":"a","children":[{"label":"b","children":[]}],"next":{"label":"c","children":[]}}"#,
        ],
        &[
            r#"{"label":"a","children":[{"label":"b"}]}"#,
            r#"{"label":"a","children":[],"next":{"label":1,"children":[]}}"#,
        ],
    );
    let s = schema_of::<Tree>();
    assert_eq!(s["properties"]["children"]["items"]["$ref"], "#/$defs/Tree");
    assert!(s["$defs"]["Tree"].is_object());
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct Page<T> {
    items: Vec<T>,
    total: u32,
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct Id(u32);

#[derive(Reflect, Debug, PartialEq, Default)]
struct Pair(u8, String);

#[derive(Reflect, Debug, PartialEq, Default)]
struct Marker;

#[derive(Reflect, Debug, PartialEq, Default)]
struct MaybeName(Option<String>);

#[derive(Reflect, Debug, PartialEq, Default)]
struct Holder {
    name: MaybeName,
    id: Id,
    pair: Pair,
    marker: Marker,
}

#[test]
fn generics_newtypes_tuples_and_units() {
    check::<Page<Account>>(
        &[r#"{"items":[{"displayName":"a","age":3,"plan":"free"}],"total":1}"#],
        &[r#"{"items":[{"age":3}],"total":1}"#],
    );
    check::<Page<u8>>(
        &[r#"{"items":[1],"total":1}"#],
        &[r#"{"items":[-1],"total":1}"#],
    );
    assert_eq!(schema_of::<Page<u8>>()["title"], "Page_u8");
    check::<Holder>(
        &[
            r#"{"id":1,"pair":[1,"x"],"marker":null}"#,
            r#"{"name":"n","id":1,"pair":[1,"x"],"marker":null}"#,
        ],
        &[
            r#"{"id":-1,"pair":[1,"x"],"marker":null}"#,
            r#"{"id":1,"pair":[1],"marker":null}"#,
            r#"{"id":1,"pair":[1,"x"],"marker":1}"#,
        ],
    );
}

#[derive(Reflect, Debug, PartialEq, Default, Clone)]
#[structio(from = "Vec<u8>", into = "Vec<u8>")]
struct Bytes3(Vec<u8>);

impl From<Vec<u8>> for Bytes3 {
    fn from(v: Vec<u8>) -> Self {
        Bytes3(v)
    }
}

impl From<Bytes3> for Vec<u8> {
    fn from(b: Bytes3) -> Self {
        b.0
    }
}

#[derive(Reflect, Debug, PartialEq)]
#[structio(default)]
struct Settings {
    level: u8,
    name: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            level: 3,
            name: "x".into(),
        }
    }
}

#[test]
fn conversions_and_container_defaults() {
    check::<Bytes3>(&["[1,2]"], &["[256]", r#""a""#]);
    check::<Settings>(
        &["{}", r#"{"level":1}"#],
        &[r#"{"level":"1"}"#, r#"{"other":1}"#],
    );
}

/// A type with a hand-written `Reflect` impl and no `JsonSchema`: members of its type are
/// described as any value.
#[derive(Debug, PartialEq, Default)]
struct Opaque(u8);

impl<'de> Reflect<'de> for Opaque {
    fn write<W: structio::Writer>(&self, w: &mut W) {
        self.0.write(w)
    }
    fn read<R: structio::Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
        self.0.read(r)
    }
    fn read_new<R: structio::Reader<'de>>(r: &mut R) -> structio::Result<Self> {
        u8::read_new(r).map(Opaque)
    }
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct WithOpaque {
    o: Opaque,
    n: u8,
}

#[test]
fn types_without_a_schema_are_any_value() {
    let s = schema_of::<WithOpaque>();
    assert_eq!(s["properties"]["o"], serde_json::json!({}));
    check::<WithOpaque>(&[r#"{"o":1,"n":2}"#], &[r#"{"n":2}"#]);
}

/// Every std type in one struct: its written JSON validates, as do documents with other
/// values, and out-of-range values fail.
#[derive(Reflect, Debug, PartialEq)]
struct StdTypes {
    i8: i8,
    u64: u64,
    i128: i128,
    usize: usize,
    f32: f32,
    f64: f64,
    b: bool,
    c: char,
    unit: (),
    s: String,
    boxed: Box<str>,
    list: Vec<u16>,
    deque: VecDeque<String>,
    array: [u8; 3],
    tuple: (u8, String, bool),
    set: BTreeSet<i32>,
    map: HashMap<String, f64>,
    int_keys: BTreeMap<i64, bool>,
    enum_keys: BTreeMap<Plan, u8>,
    nz: NonZeroU8,
    nzi: NonZeroI32,
    dur: Duration,
    time: SystemTime,
    ip: IpAddr,
    ip4: Ipv4Addr,
    ip6: Ipv6Addr,
    sock: SocketAddr,
    path: PathBuf,
    value: Value,
    raw: structio::RawJsonBuf,
    opt: Option<u8>,
    nested: Option<Vec<Option<String>>>,
}

fn std_value() -> StdTypes {
    StdTypes {
        i8: -5,
        u64: u64::MAX,
        // serde_json (the validator's input) holds 64-bit integers exactly.
        i128: i64::MIN.into(),
        usize: 7,
        f32: 1.5,
        f64: -2.25e300,
        b: true,
        c: 'é',
        unit: (),
        s: "s".into(),
        boxed: "b".into(),
        list: vec![1, 65535],
        deque: ["a".to_string()].into_iter().collect(),
        array: [1, 2, 3],
        tuple: (1, "t".into(), false),
        set: [-1, 2].into_iter().collect(),
        map: [("k".to_string(), 0.5)].into_iter().collect(),
        int_keys: [(-3, true), (40, false)].into_iter().collect(),
        enum_keys: [(Plan::Pro, 1)].into_iter().collect(),
        nz: NonZeroU8::new(9).unwrap(),
        nzi: NonZeroI32::new(-9).unwrap(),
        dur: Duration::from_millis(1500),
        time: SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000),
        ip: "::1".parse().unwrap(),
        ip4: Ipv4Addr::LOCALHOST,
        ip6: Ipv6Addr::LOCALHOST,
        sock: "127.0.0.1:80".parse().unwrap(),
        path: PathBuf::from("/tmp/x"),
        value: Value::from_iter([("any", Value::from(1))]),
        raw: structio::RawJsonBuf::new("[1,{}]").unwrap(),
        opt: None,
        nested: Some(vec![None, Some("x".into())]),
    }
}

#[test]
fn std_types_written_and_read() {
    let v = std_value();
    written(&v);
    let text = to_json(&v);
    let base: serde_json::Value = serde_json::from_str(&text).unwrap();
    let validator = validator::<StdTypes>();
    // Each replacement is refused by structio and by the schema.
    let bad: &[(&str, serde_json::Value)] = &[
        ("i8", serde_json::json!(128)),
        ("u64", serde_json::json!(-1)),
        ("usize", serde_json::json!("1")),
        ("b", serde_json::json!(1)),
        ("c", serde_json::json!("ab")),
        ("c", serde_json::json!("")),
        ("unit", serde_json::json!(0)),
        ("list", serde_json::json!([65536])),
        ("array", serde_json::json!([1, 2])),
        ("array", serde_json::json!([1, 2, 3, 4])),
        ("tuple", serde_json::json!([1, "t"])),
        ("tuple", serde_json::json!([1, "t", false, 1])),
        ("map", serde_json::json!({"k": "v"})),
        ("int_keys", serde_json::json!({"x": true})),
        ("enum_keys", serde_json::json!({"gold": 1})),
        ("nz", serde_json::json!(0)),
        ("nzi", serde_json::json!(0)),
        ("dur", serde_json::json!(-1)),
        ("ip4", serde_json::json!(1)),
        ("opt", serde_json::json!(256)),
        ("nested", serde_json::json!([1])),
    ];
    for (key, value) in bad {
        let mut doc = base.clone();
        doc[*key] = value.clone();
        let text = doc.to_string();
        assert!(
            from_json::<StdTypes>(&text).is_err(),
            "structio accepts {key}: {value}"
        );
        assert!(!validator.is_valid(&doc), "schema accepts {key}: {value}");
    }
    // Other values both accept.
    let good: &[(&str, serde_json::Value)] = &[
        ("i128", serde_json::json!(i64::MAX)),
        ("f32", serde_json::json!(1)),
        ("set", serde_json::json!([])),
        ("opt", serde_json::json!(null)),
        ("opt", serde_json::json!(255)),
        ("nested", serde_json::json!(null)),
        ("nested", serde_json::json!([null])),
        ("value", serde_json::json!([1, "x", null])),
        ("raw", serde_json::json!({"a": [true]})),
        ("int_keys", serde_json::json!({"-0": true, "0": false})),
    ];
    for (key, value) in good {
        let mut doc = base.clone();
        doc[*key] = value.clone();
        let text = doc.to_string();
        if let Err(e) = from_json::<StdTypes>(&text) {
            panic!("structio refuses {key}: {value}: {e}");
        }
        assert!(validator.is_valid(&doc), "schema refuses {key}: {value}");
    }
    let mut doc = base.clone();
    doc.as_object_mut().unwrap().remove("opt");
    assert!(validator.is_valid(&doc));
    assert!(from_json::<StdTypes>(&doc.to_string()).is_ok());
}

#[test]
fn schema_documents_are_stable() {
    let s = json_schema::<Plan>();
    assert_eq!(
        to_json(&s),
        r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Plan","description":"What an account pays for.","type":"string","enum":["free","pro"]}"#
    );
    let s = json_schema::<Vec<u8>>();
    assert_eq!(
        to_json(&s),
        r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"array","items":{"type":"integer","minimum":0,"maximum":255}}"#
    );
}

/// Declared constraints.
#[derive(Reflect, Debug, PartialEq)]
struct Limited {
    #[structio(length(min = 1, max = 4))]
    name: String,
    #[structio(range(min = 0, max = 150))]
    age: i32,
    #[structio(pattern = "^[a-z0-9-]+$")]
    slug: String,
    #[structio(one_of("free", "pro"))]
    plan: String,
    #[structio(length(max = 2), items(length(min = 1)))]
    tags: Vec<String>,
    #[structio(range(exclusive_min = 0.0, exclusive_max = 1.0))]
    score: f64,
    #[structio(one_of("a", "b"))]
    choice: Option<String>,
    #[structio(items(range(max = 10)))]
    limits: BTreeMap<String, u32>,
    zip: Zip,
}

/// A newtype with a constraint on its field.
#[derive(Reflect, Debug, PartialEq)]
struct Zip(#[structio(pattern = "^[0-9]{5}$")] String);

#[test]
fn constraints_become_keywords() {
    let ok = r#"{"name":"ab","age":150,"slug":"a-1","plan":"pro","tags":["x"],"score":0.5,"limits":{"a":10},"zip":"12345"}"#;
    let with = |key: &str, value: &str| -> String {
        let mut doc: serde_json::Value = serde_json::from_str(ok).unwrap();
        doc[key] = serde_json::from_str(value).unwrap();
        doc.to_string()
    };
    let accepted = [
        ok.to_string(),
        with("choice", "null"),
        with("choice", r#""b""#),
        with("name", r#""abcd""#),
        with("age", "0"),
        with("tags", "[]"),
    ];
    let rejected = [
        with("name", r#""""#),
        with("name", r#""abcde""#),
        with("age", "151"),
        with("age", "-1"),
        with("slug", r#""A""#),
        with("plan", r#""gold""#),
        with("tags", r#"["a","b","c"]"#),
        with("tags", r#"[""]"#),
        with("score", "0"),
        with("score", "1"),
        with("choice", r#""c""#),
        with("limits", r#"{"a":11}"#),
        with("zip", r#""1234""#),
    ];
    let accepted: Vec<&str> = accepted.iter().map(String::as_str).collect();
    let rejected: Vec<&str> = rejected.iter().map(String::as_str).collect();
    check::<Limited>(&accepted, &rejected);
    let s = schema_of::<Limited>();
    assert_eq!(
        s["properties"]["plan"]["enum"],
        serde_json::json!(["free", "pro"])
    );
    assert_eq!(
        s["properties"]["choice"]["enum"],
        serde_json::json!(["a", "b", null])
    );
    assert_eq!(s["properties"]["tags"]["items"]["minLength"], 1);
    assert_eq!(
        s["properties"]["limits"]["additionalProperties"]["maximum"],
        10
    );
    assert_eq!(s["$defs"]["Zip"]["pattern"], "^[0-9]{5}$");
}
