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

/// The feature types' written JSON validates against their schemas (CI builds with
/// `--all-features`).
#[cfg(all(
    feature = "chrono",
    feature = "time",
    feature = "uuid",
    feature = "indexmap",
    feature = "smallvec",
    feature = "bytes",
    feature = "num-complex"
))]
mod features {
    use super::{check, written};
    use structio::{Layout, Matrix, Reflect};

    #[derive(Reflect, Debug, PartialEq)]
    struct Feature {
        utc: chrono::DateTime<chrono::Utc>,
        fixed: chrono::DateTime<chrono::FixedOffset>,
        naive: chrono::NaiveDateTime,
        date: chrono::NaiveDate,
        clock: chrono::NaiveTime,
        delta: chrono::TimeDelta,
        odt: time::OffsetDateTime,
        pdt: time::PrimitiveDateTime,
        tdate: time::Date,
        ttime: time::Time,
        tdur: time::Duration,
        id: uuid::Uuid,
        ids: indexmap::IndexMap<uuid::Uuid, u8>,
        order: indexmap::IndexMap<String, i16>,
        set: indexmap::IndexSet<u8>,
        small: smallvec::SmallVec<[u8; 4]>,
        bytes: bytes::Bytes,
        complex: num_complex::Complex<f64>,
        matrix: Matrix<f32>,
    }

    #[test]
    fn feature_types_written_and_read() {
        let utc = chrono::DateTime::<chrono::Utc>::from_timestamp(1_700_000_000, 5).unwrap();
        let date = chrono::NaiveDate::from_ymd_opt(2024, 5, 6).unwrap();
        let clock = chrono::NaiveTime::from_hms_opt(7, 8, 9).unwrap();
        let tdate = time::Date::from_calendar_date(2024, time::Month::May, 6).unwrap();
        let ttime = time::Time::from_hms(7, 8, 9).unwrap();
        let id = uuid::Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8);
        let v = Feature {
            utc,
            fixed: utc.fixed_offset(),
            naive: date.and_time(clock),
            date,
            clock,
            delta: chrono::TimeDelta::seconds(-5),
            odt: time::OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap(),
            pdt: time::PrimitiveDateTime::new(tdate, ttime),
            tdate,
            ttime,
            tdur: time::Duration::seconds(5),
            id,
            ids: [(id, 1)].into_iter().collect(),
            order: [("b".to_string(), -1), ("a".to_string(), 2)]
                .into_iter()
                .collect(),
            set: [3, 1].into_iter().collect(),
            small: [1, 2].into_iter().collect(),
            bytes: bytes::Bytes::from_static(b"ab"),
            complex: num_complex::Complex::new(1.5, -2.0),
            matrix: Matrix::new(Layout::ColMajor, vec![2, 1], vec![1.0, 2.0]).unwrap(),
        };
        written(&v);
        let doc = structio::to_json(&v);
        check::<Feature>(
            &[&doc],
            &[
                &doc.replacen("\"bytes\":[97,98]", "\"bytes\":[97,256]", 1),
                &doc.replacen("\"set\":[3,1]", "\"set\":[3,-1]", 1),
            ],
        );
    }
}

// Issue 42 item 6: the reader and the schema decide integers and integer keys by one rule.
// A number is an integer by its value, whatever its spelling (`1.0`, `100e-2`, `-0` are
// integers, as draft 2020-12 counts them); an integer map key is the canonical decimal
// spelling the `propertyNames` pattern describes.

/// One integer member of every width.
#[derive(Reflect, Debug)]
struct Widths {
    a: u8,
    b: i8,
    c: u16,
    d: i16,
    e: u32,
    f: i32,
    g: u64,
    h: i64,
    i: u128,
    j: i128,
    k: usize,
    l: isize,
}

/// Maps keyed by integers of several widths and signs, non-zero ones included.
#[derive(Reflect, Debug)]
struct Keys {
    small: BTreeMap<u8, i8>,
    signed: BTreeMap<i32, u16>,
    wide: HashMap<u64, bool>,
    huge: BTreeMap<i128, u8>,
    nz: BTreeMap<std::num::NonZeroU16, u8>,
    nzi: BTreeMap<std::num::NonZeroI64, u8>,
}

/// A nested element: non-zero and optional integers.
#[derive(Reflect, Debug)]
struct Part {
    x: NonZeroI32,
    y: Option<u16>,
}

/// The document the property test generates: every width, integer keys, nesting, options,
/// sequences and constrained members.
#[derive(Reflect, Debug)]
struct Sample {
    widths: Widths,
    keys: Keys,
    opt: Option<u32>,
    list: Vec<i16>,
    parts: Vec<Part>,
    nonzero: NonZeroU8,
    #[structio(range(min = 0, max = 150))]
    age: i32,
    #[structio(length(min = 1, max = 3))]
    name: String,
    inner: Option<Box<Part>>,
}

/// `reader accepts => schema validates` (so `schema refuses => reader refuses`) for one
/// document: a document serde_json cannot read (a number beyond f64, bad grammar) must be
/// refused by the reader too.
fn agree<T: ReflectOwned + JsonSchema>(
    v: &jsonschema::Validator,
    doc: &str,
) -> Result<bool, String> {
    let ours = from_json::<T>(doc);
    let instance = match serde_json::from_str::<serde_json::Value>(doc) {
        Ok(i) => i,
        Err(e) => {
            return match ours {
                Ok(_) => Err(format!(
                    "structio accepts what serde_json refuses ({e}): {doc}"
                )),
                Err(_) => Ok(false),
            }
        }
    };
    match ours {
        Ok(_) if !v.is_valid(&instance) => {
            let why = v.validate(&instance).map_err(|e| e.to_string()).err();
            Err(format!(
                "structio accepts, the schema refuses ({why:?}): {doc}"
            ))
        }
        Ok(_) => Ok(true),
        Err(_) => Ok(false),
    }
}

/// The significant digits of `m` (no trailing zeros).
fn significant_digits(m: u128) -> usize {
    let t = m.to_string();
    t.trim_end_matches('0').len().max(1)
}

/// `-`/magnitude spelled in the way `style` picks: as written, with a zero fraction, with
/// an exponent (exact or not), with a non-zero fraction, or as bad grammar. A magnitude of
/// more than 15 significant digits is spelled only as written (as an integer, which serde_json
/// keeps exact up to 64 bits and rounds beyond as it rounds the schema's bounds), so that the
/// number the validator sees is on the same side of every bound as the exact value.
fn spell(neg: bool, m: u128, style: u8) -> String {
    let sign = if neg { "-" } else { "" };
    let digits = m.to_string();
    let exact_f64 = significant_digits(m) <= 15;
    let body = match style % 14 {
        0..=2 => digits.clone(),
        3 if exact_f64 => format!("{digits}.0"),
        4 if exact_f64 => format!("{digits}e0"),
        5 if exact_f64 => format!("{digits}0e-1"),
        6 if exact_f64 => {
            // d.ddd e(n-1): the same value in scientific notation.
            let t = digits.trim_end_matches('0');
            let t = if t.is_empty() { "0" } else { t };
            let (head, tail) = t.split_at(1);
            let point = if tail.is_empty() {
                String::new()
            } else {
                format!(".{tail}")
            };
            format!("{head}{point}e{}", digits.len() - 1)
        }
        7 if exact_f64 => format!("{digits}.5"),
        8 if exact_f64 => format!("{digits}e-1"),
        9 if exact_f64 => format!("{digits}.000E+0"),
        10 if exact_f64 => format!("{digits}E2"),
        11 if exact_f64 => format!("{digits}.{}", "0".repeat(30)),
        12 => "1e400".to_string(),
        13 => format!("0{digits}"),
        _ => digits.clone(),
    };
    format!("{sign}{body}")
}

/// A key's text: canonical, or spelled as a value may be and a key may not.
fn key_spelling(neg: bool, m: u128, style: u8) -> String {
    let sign = if neg { "-" } else { "" };
    match style % 12 {
        0..=4 => format!("{sign}{m}"),
        5 => format!("{sign}{m}e0"),
        6 => format!("{sign}0{m}"),
        7 => format!("+{m}"),
        8 => format!(" {sign}{m}"),
        9 => format!("{sign}{m}.0"),
        10 => "-0".to_string(),
        _ => "x".to_string(),
    }
}

/// A sign and magnitude: mostly near the edges of the integer types and small values.
fn magnitude() -> impl Strategy<Value = (bool, u128)> {
    let edges: Vec<u128> = vec![
        0,
        1,
        9,
        10,
        100,
        127,
        128,
        129,
        150,
        151,
        255,
        256,
        32767,
        32768,
        65535,
        65536,
        i32::MAX as u128,
        i32::MAX as u128 + 1,
        u32::MAX as u128,
        u32::MAX as u128 + 1,
        i64::MAX as u128,
        i64::MAX as u128 + 1,
        u64::MAX as u128,
        u64::MAX as u128 + 1,
        1_000_000_000_000_000_000,
        i128::MAX as u128,
        i128::MAX as u128 + 1,
        u128::MAX,
    ];
    let edge = prop::sample::select(edges);
    let near = (edge, -2i64..=2).prop_map(|(e, d)| e.saturating_add_signed(d as i128));
    let pick = prop_oneof![
        4 => 0u128..200,
        4 => near,
        1 => any::<u64>().prop_map(u128::from),
        1 => any::<u128>(),
    ];
    (prop::bool::weighted(0.3), pick)
}

/// Any number spelling.
fn number() -> impl Strategy<Value = String> {
    (magnitude(), any::<u8>()).prop_map(|((neg, m), style)| spell(neg, m, style))
}

/// Any key spelling.
fn key() -> impl Strategy<Value = String> {
    (magnitude(), any::<u8>()).prop_map(|((neg, m), style)| key_spelling(neg, m, style))
}

/// A number every integer member takes (1 to 99, in a spelling whose value is an integer)
/// most of the time, else any: so that a whole document is often read.
fn tame_number() -> impl Strategy<Value = String> {
    let tame = (
        1u128..100,
        prop::sample::select(vec![0u8, 3, 4, 5, 6, 9, 11]),
    )
        .prop_map(|(m, style)| spell(false, m, style));
    prop_oneof![49 => tame, 1 => number()]
}

/// A key every integer map takes most of the time, else any.
fn tame_key() -> impl Strategy<Value = String> {
    prop_oneof![49 => (1u32..100).prop_map(|k| k.to_string()), 1 => key()]
}

fn object_of(keys: Vec<String>, values: Vec<String>) -> String {
    let members: Vec<String> = keys
        .iter()
        .zip(&values)
        .map(|(k, v)| format!("{}:{v}", to_json(&k.as_str())))
        .collect();
    format!("{{{}}}", members.join(","))
}

fn map_text() -> impl Strategy<Value = String> {
    prop::collection::vec((tame_key(), tame_number()), 0..3).prop_map(|kv| {
        let (k, v): (Vec<String>, Vec<String>) = kv.into_iter().unzip();
        object_of(k, v)
    })
}

fn part_text() -> impl Strategy<Value = String> {
    (tame_number(), prop::option::of(tame_number())).prop_map(|(x, y)| match y {
        Some(y) => format!(r#"{{"x":{x},"y":{y}}}"#),
        None => format!(r#"{{"x":{x}}}"#),
    })
}

fn sample_text() -> impl Strategy<Value = String> {
    let widths = prop::collection::vec(tame_number(), 12).prop_map(|v| {
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"];
        object_of(names.iter().map(|n| n.to_string()).collect(), v)
    });
    let keys = prop::collection::vec(map_text(), 6).prop_map(|v| {
        let names = ["small", "signed", "wide", "huge", "nz", "nzi"];
        object_of(names.iter().map(|n| n.to_string()).collect(), v)
    });
    let rest = (
        prop::option::of(tame_number()),
        prop::collection::vec(tame_number(), 0..3),
        prop::collection::vec(part_text(), 0..2),
        tame_number(),
        tame_number(),
        prop_oneof![9 => "[aé]{1,3}", 1 => "[aé]{0,5}"],
        prop::option::of(part_text()),
    );
    (widths, keys, rest).prop_map(|(w, k, (opt, list, parts, nz, age, name, inner))| {
        let mut members = vec![
            format!(r#""widths":{w}"#),
            format!(r#""keys":{k}"#),
            format!(r#""list":[{}]"#, list.join(",")),
            format!(r#""parts":[{}]"#, parts.join(",")),
            format!(r#""nonzero":{nz}"#),
            format!(r#""age":{age}"#),
            format!(r#""name":{}"#, to_json(&name)),
        ];
        if let Some(o) = opt {
            members.push(format!(r#""opt":{o}"#));
        }
        if let Some(i) = inner {
            members.push(format!(r#""inner":{i}"#));
        }
        format!("{{{}}}", members.join(","))
    })
}

/// A document of one member of type `T` spelled `text`.
#[derive(Reflect, Debug)]
struct One<T> {
    v: T,
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Every document the reader accepts validates against `json_schema::<T>()`; a document
    /// the schema refuses is refused by the reader.
    #[test]
    fn reader_and_schema_agree(doc in sample_text(), single in number(), k in key()) {
        thread_local! {
            static SAMPLE: jsonschema::Validator = validator::<Sample>();
            static U8: jsonschema::Validator = validator::<One<u8>>();
            static I64: jsonschema::Validator = validator::<One<i64>>();
            static U128: jsonschema::Validator = validator::<One<u128>>();
            static NZ: jsonschema::Validator = validator::<One<NonZeroI32>>();
            static KU32: jsonschema::Validator = validator::<One<BTreeMap<u32, u8>>>();
            static KI16: jsonschema::Validator = validator::<One<BTreeMap<i16, u8>>>();
        }
        SAMPLE.with(|v| agree::<Sample>(v, &doc)).map_err(TestCaseError::fail)?;
        // One number or one key at a time: most are read, so both verdicts are exercised.
        let one = format!(r#"{{"v":{single}}}"#);
        U8.with(|v| agree::<One<u8>>(v, &one)).map_err(TestCaseError::fail)?;
        I64.with(|v| agree::<One<i64>>(v, &one)).map_err(TestCaseError::fail)?;
        U128.with(|v| agree::<One<u128>>(v, &one)).map_err(TestCaseError::fail)?;
        NZ.with(|v| agree::<One<NonZeroI32>>(v, &one)).map_err(TestCaseError::fail)?;
        let keyed = format!(r#"{{"v":{{{}:1}}}}"#, to_json(&k.as_str()));
        KU32.with(|v| agree::<One<BTreeMap<u32, u8>>>(v, &keyed)).map_err(TestCaseError::fail)?;
        KI16.with(|v| agree::<One<BTreeMap<i16, u8>>>(v, &keyed)).map_err(TestCaseError::fail)?;
    }
}

/// Both ways for one member of type `T`: the reader and the schema give the same verdict on
/// each spelling (the values here are exact as f64, so the validator sees the exact value).
fn same_verdict<T: ReflectOwned + JsonSchema>(accepted: &[&str], rejected: &[&str]) {
    let wrap = |t: &&str| format!(r#"{{"v":{t}}}"#);
    let accepted: Vec<String> = accepted.iter().map(wrap).collect();
    let rejected: Vec<String> = rejected.iter().map(wrap).collect();
    let a: Vec<&str> = accepted.iter().map(String::as_str).collect();
    let r: Vec<&str> = rejected.iter().map(String::as_str).collect();
    check::<One<T>>(&a, &r);
}

#[test]
fn integer_member_accepts_integral_fraction() {
    let integral = [
        "1", "1.0", "100e-2", "10e-1", "1.50e1", "0.15e2", "1e0", "1E+0",
    ];
    same_verdict::<u8>(&integral, &[]);
    same_verdict::<i64>(&integral, &[]);
    same_verdict::<u128>(&integral, &[]);
    assert_eq!(from_json::<u8>("1.50e1").unwrap(), 15);
    assert_eq!(from_json::<i16>("-3.2767e4").unwrap(), -32767);
    // Out of range in any spelling: both refuse.
    same_verdict::<u8>(
        &["2.55e2", "255.000"],
        &["2.56e2", "256.0", "25600e-2", "-1.0"],
    );
    same_verdict::<i8>(&["-1.28e2", "127.0"], &["-1.29e2", "128.0"]);
}

#[test]
fn integer_member_accepts_negative_zero() {
    let zeros = ["-0", "-0.0", "-0e5", "0.0", "-0.000e-3"];
    same_verdict::<u8>(&zeros, &[]);
    same_verdict::<u64>(&zeros, &[]);
    same_verdict::<i32>(&zeros, &[]);
    // A non-zero type refuses zero in every spelling, as its schema does.
    same_verdict::<std::num::NonZeroU8>(&["1.0"], &zeros);
    same_verdict::<NonZeroI32>(&["-1.0"], &zeros);
}

#[test]
fn integer_member_rejects_nonzero_fraction() {
    same_verdict::<u8>(&[], &["1.5", "1e-2", "-0.5", "0.1", "1.05e1", "100e-3"]);
    same_verdict::<i64>(&[], &["-1.5", "1e-1", "12345.0001"]);
    let e = from_json::<u8>("1.5").unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("expected an integer for u8", 1)
    );
}

#[test]
fn integer_member_huge_exponent_is_bounded() {
    let started = std::time::Instant::now();
    let e = from_json::<u8>("1e999999999").unwrap_err();
    assert_eq!(e.message(), "number out of range for u8");
    let e = from_json::<u8>("1e-999999999").unwrap_err();
    assert_eq!(e.message(), "expected an integer for u8");
    assert_eq!(from_json::<u8>("0e999999999").unwrap(), 0);
    let t = format!("0.{}1e100001", "0".repeat(100_000));
    assert_eq!(from_json::<u8>(&t).unwrap(), 1);
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
}

#[test]
fn integer_map_key_rejects_exponent() {
    let doc = |k: &str| format!(r#"{{"v":{{{}:1}}}}"#, to_json(&k));
    let canonical = ["0", "1", "42", "4294967295"];
    let spelled = [
        "1e0", "1E0", "10e-1", "1.0", "01", "00", "+1", " 1", "1 ", "-0", "-1", "", "x",
    ];
    let ok: Vec<String> = canonical.iter().map(|k| doc(k)).collect();
    let bad: Vec<String> = spelled.iter().map(|k| doc(k)).collect();
    let ok: Vec<&str> = ok.iter().map(String::as_str).collect();
    let bad: Vec<&str> = bad.iter().map(String::as_str).collect();
    check::<One<BTreeMap<u32, u8>>>(&ok, &bad);
    check::<One<HashMap<u64, u8>>>(&ok, &bad);
    // The error quotes the key and points at it.
    let e = from_json::<BTreeMap<u32, u8>>(r#"{"1e0":1}"#).unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("invalid integer map key `1e0`", 1)
    );
}

#[test]
fn signed_map_key_takes_negative_zero_as_its_pattern_does() {
    let doc = |k: &str| format!(r#"{{"v":{{{}:1}}}}"#, to_json(&k));
    let ok: Vec<String> = ["0", "-0", "-1", "-2147483648", "7"]
        .iter()
        .map(|k| doc(k))
        .collect();
    let bad: Vec<String> = ["-01", "-1e0", "-+1", "--1", "- 1", "-1.0", "-"]
        .iter()
        .map(|k| doc(k))
        .collect();
    let ok: Vec<&str> = ok.iter().map(String::as_str).collect();
    let bad: Vec<&str> = bad.iter().map(String::as_str).collect();
    check::<One<BTreeMap<i32, u8>>>(&ok, &bad);
    // A non-zero key refuses zero however it is written, as its pattern does.
    let zero: Vec<String> = ["0", "-0"].iter().map(|k| doc(k)).collect();
    let zero: Vec<&str> = zero.iter().map(String::as_str).collect();
    check::<One<BTreeMap<std::num::NonZeroI64, u8>>>(&[&doc("-5")], &zero);
    check::<One<BTreeMap<std::num::NonZeroU16, u8>>>(&[&doc("5")], &zero);
}
