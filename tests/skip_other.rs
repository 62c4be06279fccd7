//! One-way skips (`#[structio(skip_write)]`, `#[structio(skip_read)]`) and the catch-all
//! variant (`#[structio(other)]`), issue 43 rows 8 and 9: JSON and BEVE, a fresh read and a
//! read into an existing value, `json::parse`, the unknown-keys policies, canonical structs
//! and the JSON Schema (checked with the `jsonschema` validator).

use structio::{from_beve, from_json, json_schema, to_beve, to_json, JsonSchema, Reflect};
use structio::{ReflectOwned, UnknownKeys};

/// The schema of `T` as the validator's JSON.
fn schema_of<T: JsonSchema + ?Sized>() -> serde_json::Value {
    let text = to_json(&json_schema::<T>());
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Whether `doc` validates against `T`'s schema.
fn valid<T: JsonSchema + ?Sized>(doc: &str) -> bool {
    let schema = schema_of::<T>();
    let v = jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{e}: {schema:#}"));
    v.is_valid(&serde_json::from_str(doc).unwrap())
}

fn skip_unknown() -> structio::json::Options {
    let mut opts = structio::json::Options::default();
    opts.read.unknown_keys = UnknownKeys::Skip;
    opts
}

fn beve_skip_unknown() -> structio::beve::Options {
    let mut opts = structio::beve::Options::default();
    opts.read.unknown_keys = UnknownKeys::Skip;
    opts
}

fn default_secret() -> String {
    "hidden".to_string()
}

/// A user: the password is accepted but never written back, the server-side fields are
/// written but never taken from input.
#[derive(Reflect, Debug, PartialEq, Clone)]
struct User {
    name: String,
    #[structio(skip_write, default)]
    password: String,
    #[structio(skip_read, default)]
    logins: u32,
    #[structio(skip_read)]
    last_seen: Option<String>,
    #[structio(skip_read, default = "default_secret")]
    note: String,
}

fn user() -> User {
    User {
        name: "ann".into(),
        password: "pw".into(),
        logins: 7,
        last_seen: Some("today".into()),
        note: "n".into(),
    }
}

#[test]
fn skip_write_is_never_written() {
    let u = user();
    let text = to_json(&u);
    assert_eq!(
        text,
        r#"{"name":"ann","logins":7,"last_seen":"today","note":"n"}"#
    );
    // BEVE: the same members, read back with unknown keys skipped (skip_read keys are
    // unknown on input) as the same value minus the one-way fields.
    let back: User = structio::beve::from_beve_with(&to_beve(&u), &beve_skip_unknown()).unwrap();
    assert_eq!(
        back,
        User {
            name: "ann".into(),
            password: String::new(),
            logins: 0,
            last_seen: None,
            note: "hidden".into(),
        }
    );
}

#[test]
fn skip_write_is_read_when_present() {
    let u: User = from_json(r#"{"name":"bob","password":"secret"}"#).unwrap();
    assert_eq!(u.password, "secret");
    assert_eq!(u.logins, 0);
    assert_eq!(u.last_seen, None);
    assert_eq!(u.note, "hidden");
    // And in BEVE: a document written by a struct that does write it.
    // Without a default, a `skip_write` member is still a required key of what is read.
    #[derive(Reflect, Debug)]
    struct Strict {
        #[structio(skip_write)]
        token: String,
    }
    assert_eq!(to_json(&Strict { token: "t".into() }), "{}");
    let err = from_json::<Strict>("{}").unwrap_err();
    assert!(err.to_string().contains("missing key `token`"), "{err}");
    assert_eq!(from_json::<Strict>(r#"{"token":"t"}"#).unwrap().token, "t");
    #[derive(Reflect)]
    struct Input {
        name: String,
        password: String,
    }
    let bytes = to_beve(&Input {
        name: "bob".into(),
        password: "secret".into(),
    });
    let u: User = from_beve(&bytes).unwrap();
    assert_eq!(u.password, "secret");
    assert_eq!(u.note, "hidden");
}

#[test]
fn skip_read_key_is_an_unknown_key() {
    // The default policy refuses it, as it refuses the key of a `skip` field.
    let err = from_json::<User>(r#"{"name":"a","password":"p","logins":3}"#).unwrap_err();
    assert!(err.to_string().contains("unknown key `logins`"), "{err}");
    let err = structio::json::parse::<User>(r#"{"name":"a","note":"x"}"#).unwrap_err();
    assert!(err.to_string().contains("note"), "{err}");
    // `UnknownKeys::Skip` skips it: the field keeps its default.
    let u: User = structio::json::from_json_with(
        r#"{"name":"a","logins":3,"last_seen":"x","note":"y","password":"p"}"#,
        &skip_unknown(),
    )
    .unwrap();
    assert_eq!(
        u,
        User {
            name: "a".into(),
            password: "p".into(),
            logins: 0,
            last_seen: None,
            note: "hidden".into(),
        }
    );
    let u: User = structio::json::parse(r#"{"name":"a","password":"p"}"#).unwrap();
    assert_eq!(u.note, "hidden");
}

#[test]
fn read_into_existing_value_matches_a_fresh_read() {
    for doc in [
        r#"{"name":"z","password":"q"}"#,
        r#"{"name":"z"}"#,
        r#"{"password":"q","name":"z"}"#,
    ] {
        let fresh: User = from_json(doc).unwrap();
        let mut into = user();
        structio::read_json(&mut into, doc).unwrap();
        // The skip_read fields are set to their defaults; the skip_write one is read (and
        // when left out keeps the rule of an ordinary member).
        assert_eq!(into.logins, fresh.logins, "{doc}");
        assert_eq!(into.last_seen, fresh.last_seen, "{doc}");
        assert_eq!(into.note, fresh.note, "{doc}");
        assert_eq!(into.name, fresh.name, "{doc}");
        if doc.contains("password") {
            assert_eq!(into, fresh, "{doc}");
        }
        let mut into = user();
        structio::read_beve(&mut into, &to_beve(&fresh)).unwrap_err();
        let mut into = user();
        structio::beve::read_beve_with(&mut into, &to_beve(&fresh), &beve_skip_unknown()).unwrap();
        assert_eq!(into.note, "hidden");
        assert_eq!(into.logins, 0);
    }
}

/// Canonical structs with one-way fields: the fast path declines what it does not hold.
#[derive(Reflect, Debug, PartialEq, Default)]
#[structio(canonical)]
struct Canon {
    a: u32,
    #[structio(skip_write, default)]
    b: u32,
    #[structio(skip_read, default)]
    c: u32,
    d: u32,
}

#[test]
fn canonical_struct_with_one_way_fields() {
    let v = Canon {
        a: 1,
        b: 2,
        c: 3,
        d: 4,
    };
    assert_eq!(to_json(&v), r#"{"a":1,"c":3,"d":4}"#);
    // The canonical layout of what is read: a, b, d.
    let r: Canon = from_json(r#"{"a":1,"b":2,"d":4}"#).unwrap();
    assert_eq!(
        r,
        Canon {
            a: 1,
            b: 2,
            c: 0,
            d: 4
        }
    );
    // Not that layout: the ordinary reader.
    let r: Canon = from_json(r#"{"a":1,"d":4}"#).unwrap();
    assert_eq!(
        r,
        Canon {
            a: 1,
            b: 0,
            c: 0,
            d: 4
        }
    );
    assert!(from_json::<Canon>(r#"{"a":1,"c":3,"d":4}"#).is_err());
    let r: Canon =
        structio::json::from_json_with(r#"{"a":1,"c":3,"d":4}"#, &skip_unknown()).unwrap();
    assert_eq!(
        r,
        Canon {
            a: 1,
            b: 0,
            c: 0,
            d: 4
        }
    );
    let mut into = v;
    structio::read_json(&mut into, r#"{"a":5,"b":6,"d":7}"#).unwrap();
    assert_eq!(
        into,
        Canon {
            a: 5,
            b: 6,
            c: 0,
            d: 7
        }
    );
}

/// Flattened structs with one-way fields, on either side.
#[derive(Reflect, Debug, PartialEq, Default)]
struct Inner {
    x: u32,
    #[structio(skip_write, default)]
    y: u32,
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct Flat {
    #[structio(skip_read, default)]
    id: u32,
    #[structio(flatten)]
    inner: Inner,
    #[structio(skip_write, default)]
    z: u32,
}

#[test]
fn flattened_one_way_fields() {
    let v = Flat {
        id: 1,
        inner: Inner { x: 2, y: 3 },
        z: 4,
    };
    assert_eq!(to_json(&v), r#"{"id":1,"x":2}"#);
    let r: Flat = from_json(r#"{"x":2,"y":3,"z":4}"#).unwrap();
    assert_eq!(
        r,
        Flat {
            id: 0,
            inner: Inner { x: 2, y: 3 },
            z: 4
        }
    );
    assert!(from_json::<Flat>(r#"{"id":1,"x":2}"#).is_err());
    let mut into = v;
    structio::read_json(&mut into, r#"{"x":5}"#).unwrap();
    assert_eq!(into.id, 0);
    let b: Flat = structio::beve::from_beve_with(&to_beve(&into), &beve_skip_unknown()).unwrap();
    assert_eq!(b.inner.x, 5);
}

#[test]
fn one_way_schema() {
    let s = schema_of::<User>();
    let def = s.clone();
    let props = &def["properties"];
    assert_eq!(props["password"]["writeOnly"], true, "{def:#}");
    assert_eq!(props["logins"]["readOnly"], true, "{def:#}");
    assert_eq!(props["note"]["readOnly"], true, "{def:#}");
    let required: Vec<&str> = def["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(required, ["name"], "{def:#}");
    // What is written validates, and so does what is read.
    assert!(valid::<User>(&to_json(&user())));
    assert!(valid::<User>(r#"{"name":"a","password":"p"}"#));
    assert!(!valid::<User>(r#"{"password":"p"}"#));
}

fn roundtrip<T: ReflectOwned + PartialEq + std::fmt::Debug>(v: &T) {
    assert_eq!(&from_json::<T>(&to_json(v)).unwrap(), v);
    assert_eq!(&from_beve::<T>(&to_beve(v)).unwrap(), v);
}

#[test]
fn regression_style_names() {
    // Raw identifiers and renamed one-way fields.
    #[derive(Reflect, Debug, PartialEq, Default)]
    #[structio(rename_all = "camelCase")]
    struct Odd {
        r#type: u8,
        #[structio(skip_write, default, rename = "r#in")]
        r#in: u8,
        #[structio(skip_read, default, alias = "old")]
        long_name: u8,
    }
    let v = Odd {
        r#type: 1,
        r#in: 2,
        long_name: 3,
    };
    assert_eq!(to_json(&v), r#"{"type":1,"longName":3}"#);
    let r: Odd = from_json(r#"{"type":1,"r#in":2}"#).unwrap();
    assert_eq!(
        r,
        Odd {
            r#type: 1,
            r#in: 2,
            long_name: 0
        }
    );
    assert!(from_json::<Odd>(r#"{"type":1,"old":2}"#).is_err());
    // What it writes reads back when unknown keys are skipped.
    let v = Odd {
        r#type: 9,
        r#in: 0,
        long_name: 4,
    };
    let back: Odd = structio::json::from_json_with(&to_json(&v), &skip_unknown()).unwrap();
    assert_eq!(back.r#type, 9);
    assert_eq!(back.long_name, 0);
}

/// A unit-only enum with a catch-all.
#[derive(Reflect, Debug, PartialEq, Clone, Copy)]
#[structio(rename_all = "lowercase")]
enum Kind {
    Circle,
    #[structio(alias = "box")]
    Square,
    #[structio(other)]
    Unknown,
}

#[test]
fn other_unit_only() {
    assert_eq!(from_json::<Kind>(r#""circle""#).unwrap(), Kind::Circle);
    assert_eq!(from_json::<Kind>(r#""box""#).unwrap(), Kind::Square);
    assert_eq!(from_json::<Kind>(r#""hexagon""#).unwrap(), Kind::Unknown);
    // Its own name still reads as it, and it writes its own name.
    assert_eq!(from_json::<Kind>(r#""unknown""#).unwrap(), Kind::Unknown);
    assert_eq!(to_json(&Kind::Unknown), r#""unknown""#);
    // A value of the wrong type is still an error.
    assert!(from_json::<Kind>("3").is_err());
    assert_eq!(
        structio::json::parse::<Kind>(r#""hexagon""#).unwrap(),
        Kind::Unknown
    );
    assert_eq!(
        structio::json::parse::<Vec<Kind>>(r#"["a","circle","b"]"#).unwrap(),
        [Kind::Unknown, Kind::Circle, Kind::Unknown]
    );
    // Read into an existing value: what a fresh read gives.
    let mut k = Kind::Circle;
    structio::read_json(&mut k, r#""zzz""#).unwrap();
    assert_eq!(k, Kind::Unknown);
    // BEVE writes the discriminant: an unknown one, or an unknown name, is `Unknown` too.
    for k in [Kind::Circle, Kind::Square, Kind::Unknown] {
        roundtrip(&k);
    }
    assert_eq!(from_beve::<Kind>(&to_beve(&77i32)).unwrap(), Kind::Unknown);
    assert_eq!(from_beve::<Kind>(&to_beve(&1i32)).unwrap(), Kind::Square);
    assert_eq!(
        from_beve::<Kind>(&to_beve(&"hexagon".to_string())).unwrap(),
        Kind::Unknown
    );
    assert_eq!(
        from_beve::<Kind>(&to_beve(&"circle".to_string())).unwrap(),
        Kind::Circle
    );
    // As a map key.
    let m: std::collections::BTreeMap<String, u8> =
        [("circle".to_string(), 1), ("what".to_string(), 2)].into();
    let back: Vec<(Kind, u8)> = from_json::<std::collections::HashMap<Kind, u8>>(&to_json(&m))
        .map(|h| {
            let mut v: Vec<_> = h.into_iter().collect();
            v.sort_by_key(|p| p.1);
            v
        })
        .unwrap();
    assert_eq!(back, [(Kind::Circle, 1), (Kind::Unknown, 2)]);
}

/// More variants than the canonical literals compare: the ordinary read in the attempt.
#[derive(Reflect, Debug, PartialEq, Clone, Copy, Default)]
enum Many {
    #[default]
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
    I,
    #[structio(other)]
    Rest,
}

impl std::hash::Hash for Kind {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (*self as u8).hash(h)
    }
}
impl Eq for Kind {}

#[derive(Reflect, Debug, PartialEq)]
#[structio(canonical)]
struct Shape {
    kind: Kind,
    many: Many,
    n: u32,
}

#[test]
fn other_in_a_canonical_struct() {
    let s = Shape {
        kind: Kind::Square,
        many: Many::I,
        n: 3,
    };
    roundtrip(&s);
    // The literal attempt ends on an unknown name; the ordinary read gives `other`.
    let r: Shape = from_json(r#"{"kind":"oval","many":"Z","n":4}"#).unwrap();
    assert_eq!(
        r,
        Shape {
            kind: Kind::Unknown,
            many: Many::Rest,
            n: 4
        }
    );
    let r: Shape = from_json(r#"{"kind":"circle","many":"Q","n":5}"#).unwrap();
    assert_eq!(r.many, Many::Rest);
    assert_eq!(r.kind, Kind::Circle);
    let r: Shape = structio::json::parse(r#"{"kind":"x","many":"A","n":1}"#).unwrap();
    assert_eq!(r.kind, Kind::Unknown);
    assert_eq!(r.many, Many::A);
    let mut into = s;
    structio::read_json(&mut into, r#"{"kind":"x","many":"y","n":1}"#).unwrap();
    assert_eq!(into.kind, Kind::Unknown);
    assert_eq!(into.many, Many::Rest);
}

/// Internally tagged, with data.
#[derive(Reflect, Debug, PartialEq)]
#[structio(tag = "type")]
enum Event {
    Click {
        x: i32,
    },
    Key(KeyPress),
    #[structio(other)]
    Other,
}

#[derive(Reflect, Debug, PartialEq)]
struct KeyPress {
    code: u32,
}

/// Adjacently tagged, with data.
#[derive(Reflect, Debug, PartialEq)]
#[structio(tag = "t", content = "c")]
enum Msg {
    Text(String),
    Ping,
    #[structio(other, rename = "other")]
    Unknown,
}

#[test]
fn other_tagged_enums() {
    assert_eq!(
        from_json::<Event>(r#"{"type":"Click","x":1}"#).unwrap(),
        Event::Click { x: 1 }
    );
    assert_eq!(
        from_json::<Event>(r#"{"type":"Scroll"}"#).unwrap(),
        Event::Other
    );
    assert_eq!(
        from_json::<Event>(r#"{"type":"Other"}"#).unwrap(),
        Event::Other
    );
    // The tag after other members: the object is scanned for it, then read again.
    assert!(from_json::<Event>(r#"{"dy":3,"type":"Scroll"}"#).is_err());
    let mut opts = skip_unknown();
    opts.read.error_on_missing_keys = false;
    assert_eq!(
        structio::json::from_json_with::<Event>(r#"{"dy":3,"type":"Scroll"}"#, &opts).unwrap(),
        Event::Other
    );
    assert_eq!(to_json(&Event::Other), r#"{"type":"Other"}"#);
    roundtrip(&Event::Other);
    roundtrip(&Event::Key(KeyPress { code: 2 }));
    assert_eq!(
        structio::json::parse::<Event>(r#"{"type":"Nope"}"#).unwrap(),
        Event::Other
    );
    let mut e = Event::Click { x: 1 };
    structio::read_json(&mut e, r#"{"type":"Nope"}"#).unwrap();
    assert_eq!(e, Event::Other);
    // BEVE: a document written by an enum that knows the variant.
    #[derive(Reflect)]
    #[structio(tag = "type")]
    enum Newer {
        Scroll,
    }
    assert_eq!(
        from_beve::<Event>(&to_beve(&Newer::Scroll)).unwrap(),
        Event::Other
    );

    assert_eq!(
        from_json::<Msg>(r#"{"t":"Text","c":"hi"}"#).unwrap(),
        Msg::Text("hi".into())
    );
    assert_eq!(from_json::<Msg>(r#"{"t":"Zap"}"#).unwrap(), Msg::Unknown);
    assert_eq!(
        from_json::<Msg>(r#"{"c":null,"t":"Zap"}"#).unwrap(),
        Msg::Unknown
    );
    assert_eq!(from_json::<Msg>(r#"{"t":"other"}"#).unwrap(), Msg::Unknown);
    assert_eq!(to_json(&Msg::Unknown), r#"{"t":"other"}"#);
    roundtrip(&Msg::Unknown);
    roundtrip(&Msg::Ping);
    #[derive(Reflect)]
    #[structio(tag = "t", content = "c")]
    enum NewMsg {
        Zap,
    }
    assert_eq!(
        from_beve::<Msg>(&to_beve(&NewMsg::Zap)).unwrap(),
        Msg::Unknown
    );
}

#[test]
fn other_schema() {
    assert!(valid::<Kind>(r#""hexagon""#));
    assert!(valid::<Kind>(r#""circle""#));
    assert!(!valid::<Kind>("3"));
    for doc in [
        r#"{"type":"Click","x":1}"#,
        r#"{"type":"Scroll"}"#,
        r#"{"type":"Key","code":1}"#,
    ] {
        assert!(from_json::<Event>(doc).is_ok(), "{doc}");
        assert!(valid::<Event>(doc), "{doc}");
    }
    assert!(!valid::<Event>(r#"{"type":3}"#));
    for doc in [
        r#"{"t":"Zap"}"#,
        r#"{"t":"Text","c":"x"}"#,
        r#"{"t":"Ping"}"#,
    ] {
        assert!(from_json::<Msg>(doc).is_ok(), "{doc}");
        assert!(valid::<Msg>(doc), "{doc}");
    }
    assert!(valid::<Shape>(r#"{"kind":"oval","many":"Z","n":4}"#));
}
