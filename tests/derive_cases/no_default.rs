//! Reading without `Default` (a new value is built from its members), the rule for members a
//! document leaves out (`missing key` unless the member may be left out), and the attributes
//! that go with it: `default`, `default = "fn"`, container `default`, `skip_if`, `from`,
//! `try_from` and `into`.

use std::collections::BTreeMap;

use structio::json::Options;
use structio::{ReadOptions, Reflect};

use super::common::{both, from_json, from_json_glaze, glaze_rule, json_error};

/// No `Default`: neither the enum nor the structs holding it have one.
#[derive(Reflect, Debug, PartialEq, Clone, Copy)]
enum Kind {
    Small,
    Large,
}

#[derive(Reflect, Debug, PartialEq)]
struct Item {
    id: u32,
    kind: Kind,
    note: Option<String>,
}

#[derive(Reflect, Debug, PartialEq)]
struct Order {
    items: Vec<Item>,
    by_name: BTreeMap<String, Kind>,
    pair: (Kind, u8),
    fixed: [Kind; 2],
    boxed: Box<Kind>,
    maybe: Option<Kind>,
}

fn order() -> Order {
    Order {
        items: vec![
            Item {
                id: 1,
                kind: Kind::Small,
                note: None,
            },
            Item {
                id: 2,
                kind: Kind::Large,
                note: Some("x".into()),
            },
        ],
        by_name: [("a".to_string(), Kind::Large)].into_iter().collect(),
        pair: (Kind::Small, 3),
        fixed: [Kind::Large, Kind::Small],
        boxed: Box::new(Kind::Large),
        maybe: None,
    }
}

#[test]
fn types_without_default_read_in_both_formats() {
    let v = order();
    let json = structio::to_json(&v);
    assert_eq!(
        json,
        r#"{"items":[{"id":1,"kind":"Small"},{"id":2,"kind":"Large","note":"x"}],"by_name":{"a":"Large"},"pair":["Small",3],"fixed":["Large","Small"],"boxed":"Large"}"#
    );
    assert_eq!(structio::from_json::<Order>(&json).unwrap(), v);
    assert_eq!(
        structio::from_beve::<Order>(&structio::to_beve(&v)).unwrap(),
        v
    );
    // Reading into a used value gives what a fresh read gives.
    let mut used = order();
    used.items.push(Item {
        id: 9,
        kind: Kind::Small,
        note: Some("old".into()),
    });
    used.maybe = Some(Kind::Small);
    structio::read_json(&mut used, &json).unwrap();
    assert_eq!(used, v);
}

#[test]
fn a_required_member_left_out_is_a_missing_key_with_its_path() {
    let json = r#"{"items":[{"id":1,"kind":"Small"},{"id":2}],"by_name":{},"pair":["Small",3],"fixed":["Large","Small"],"boxed":"Large"}"#;
    let e = structio::from_json::<Order>(json).unwrap_err();
    assert_eq!(e.message(), "missing key `kind`");
    assert_eq!(e.path(), "$.items[1]");
    assert_eq!(e.line_column(), Some((1, 42)));
    // The same into an existing value.
    let mut used = order();
    let e = structio::read_json(&mut used, json).unwrap_err();
    assert_eq!(
        (e.message(), e.path()),
        ("missing key `kind`".into(), "$.items[1]".into())
    );
    // And in BEVE, from a document written without the member.
    #[derive(Reflect, Debug, PartialEq)]
    struct ItemNoKind {
        id: u32,
    }
    let bytes = structio::to_beve(&ItemNoKind { id: 4 });
    let e = structio::from_beve::<Item>(&bytes).unwrap_err();
    assert_eq!(e.message(), "missing key `kind`");
    assert_eq!(e.offset(), bytes.len());
}

#[test]
fn glaze_rule_fills_left_out_members_with_their_default_value() {
    #[derive(Reflect, Debug, PartialEq)]
    struct Counts {
        a: u32,
        b: Vec<u8>,
        c: Option<u8>,
    }
    assert_eq!(
        from_json_glaze::<Counts>(r#"{"b":[1]}"#),
        Counts {
            a: 0,
            b: vec![1],
            c: None
        }
    );
    assert_eq!(json_error::<Counts>(r#"{"b":[1]}"#).0, "missing key `a`");
    // A member whose type has no default value is still missing.
    let e = structio::json::from_json_with::<Item>(r#"{"id":1}"#, &glaze_rule()).unwrap_err();
    assert_eq!(e.message(), "missing key `kind`");
    // Into an existing value, a left-out member keeps its value under Glaze's rule.
    let mut v = Item {
        id: 5,
        kind: Kind::Large,
        note: Some("n".into()),
    };
    structio::json::read_json_with(&mut v, r#"{"id":6}"#, &glaze_rule()).unwrap();
    assert_eq!(
        v,
        Item {
            id: 6,
            kind: Kind::Large,
            note: None
        }
    );
}

fn seven() -> u32 {
    7
}

#[derive(Reflect, Debug, PartialEq)]
struct Defaults {
    id: u32,
    #[structio(default)]
    tags: Vec<String>,
    #[structio(default = "seven")]
    retries: u32,
}

#[test]
fn field_defaults_fill_in_left_out_members() {
    assert_eq!(
        from_json::<Defaults>(r#"{"id":1}"#),
        Defaults {
            id: 1,
            tags: vec![],
            retries: 7
        }
    );
    assert_eq!(
        json_error::<Defaults>(r#"{"tags":[]}"#).0,
        "missing key `id`"
    );
    // Into a used value: the default, as a fresh read gives.
    let mut v = Defaults {
        id: 0,
        tags: vec!["old".into()],
        retries: 1,
    };
    structio::read_json(&mut v, r#"{"id":2}"#).unwrap();
    assert_eq!(
        v,
        Defaults {
            id: 2,
            tags: vec![],
            retries: 7
        }
    );
    // Under `merge` the members left out keep their values.
    let merge = Options {
        read: ReadOptions {
            merge: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let mut v = Defaults {
        id: 0,
        tags: vec!["old".into()],
        retries: 1,
    };
    structio::json::read_json_with(&mut v, r#"{"id":3}"#, &merge).unwrap();
    assert_eq!(v.tags, ["old"]);
    assert_eq!(v.retries, 1);
}

#[derive(Reflect, Debug, PartialEq)]
#[structio(default)]
struct Config {
    host: String,
    port: u16,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "localhost".into(),
            port: 8080,
        }
    }
}

#[test]
fn a_container_default_fills_in_every_member() {
    assert_eq!(
        from_json::<Config>(r#"{"port":1}"#),
        Config {
            host: "localhost".into(),
            port: 1
        }
    );
    assert_eq!(from_json::<Config>("{}"), Config::default());
    assert_eq!(Config::default_value(), Some(Config::default()));
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

#[derive(Reflect, Debug, PartialEq, Default)]
struct Sparse {
    #[structio(skip_if = "Vec::is_empty", default)]
    list: Vec<u8>,
    #[structio(skip_if = "is_zero", default)]
    count: u32,
    name: String,
}

#[test]
fn skip_if_leaves_members_out_in_both_formats() {
    both(
        &Sparse {
            list: vec![],
            count: 0,
            name: "a".into(),
        },
        r#"{"name":"a"}"#,
        "03 04  10 6e 61 6d 65  02 04 61",
    );
    both(
        &Sparse {
            list: vec![1],
            count: 2,
            name: String::new(),
        },
        r#"{"list":[1],"count":2,"name":""}"#,
        r#"
            03 0c
              10 6c 69 73 74  14 04 01
              14 63 6f 75 6e 74  51 02 00 00 00
              10 6e 61 6d 65  02 00
        "#,
    );
}

/// Read as an `f64`, through `From`; written as one, through `Into`.
#[derive(Reflect, Debug, PartialEq, Clone, Copy)]
#[structio(from = "f64", into = "f64")]
struct Celsius {
    tenths: i64,
}

impl From<f64> for Celsius {
    fn from(v: f64) -> Self {
        Celsius {
            tenths: (v * 10.0).round() as i64,
        }
    }
}

impl From<Celsius> for f64 {
    fn from(c: Celsius) -> f64 {
        c.tenths as f64 / 10.0
    }
}

/// Read as a `String`, checked by `TryFrom`.
#[derive(Reflect, Debug, PartialEq, Clone)]
#[structio(try_from = "String", into = "String")]
struct Email(String);

impl TryFrom<String> for Email {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        if s.contains('@') {
            Ok(Email(s))
        } else {
            Err(format!("`{s}` is not an e-mail address"))
        }
    }
}

impl From<Email> for String {
    fn from(e: Email) -> String {
        e.0
    }
}

#[derive(Reflect, Debug, PartialEq)]
struct Contact {
    temp: Celsius,
    mail: Vec<Email>,
}

#[test]
fn from_try_from_and_into_convert_on_the_way() {
    both(
        &Celsius { tenths: 215 },
        "21.5",
        "61 00 00 00 00 00 80 35 40",
    );
    let c = Contact {
        temp: Celsius { tenths: -5 },
        mail: vec![Email("a@b".into())],
    };
    let json = structio::to_json(&c);
    assert_eq!(json, r#"{"temp":-0.5,"mail":["a@b"]}"#);
    assert_eq!(from_json::<Contact>(&json), c);
    assert_eq!(
        structio::from_beve::<Contact>(&structio::to_beve(&c)).unwrap(),
        c
    );
    let e = structio::from_json::<Contact>(r#"{"temp":1,"mail":["a@b","nope"]}"#).unwrap_err();
    assert_eq!(e.message(), "`nope` is not an e-mail address");
    assert_eq!(e.path(), "$.mail[1]");
    assert_eq!(e.offset(), 24);
    // Reading into a value goes through the conversion too.
    let mut v = Email("x@y".into());
    structio::read_json(&mut v, r#""p@q""#).unwrap();
    assert_eq!(v, Email("p@q".into()));
}

/// Enums build the variant a document names, payloads included, without `Default`.
#[derive(Reflect, Debug, PartialEq)]
enum Shape {
    Dot,
    Line(Kind, u32),
    Boxed(Kind),
    Rect { w: u32, kind: Kind },
}

#[derive(Reflect, Debug, PartialEq)]
#[structio(tag = "type")]
enum Tagged {
    Rect { w: u32, kind: Kind },
    Inner(Item),
}

#[derive(Reflect, Debug, PartialEq)]
#[structio(untagged)]
enum Loose {
    Rect { w: u32, kind: Kind },
    Flag(bool),
}

#[test]
fn enum_payloads_are_built_without_default() {
    for v in [
        Shape::Dot,
        Shape::Line(Kind::Large, 2),
        Shape::Boxed(Kind::Small),
        Shape::Rect {
            w: 3,
            kind: Kind::Large,
        },
    ] {
        let json = structio::to_json(&v);
        assert_eq!(from_json::<Shape>(&json), v, "{json}");
        assert_eq!(
            structio::from_beve::<Shape>(&structio::to_beve(&v)).unwrap(),
            v
        );
        // Into a value holding another variant.
        let mut used = Shape::Line(Kind::Small, 9);
        structio::read_json(&mut used, &json).unwrap();
        assert_eq!(used, v);
    }
    let v = Tagged::Rect {
        w: 1,
        kind: Kind::Small,
    };
    assert_eq!(from_json::<Tagged>(&structio::to_json(&v)), v);
    assert_eq!(
        json_error::<Tagged>(r#"{"type":"Rect","w":1}"#),
        ("missing key `kind`".into(), "$".into())
    );
    // The payload of an internally tagged newtype starts from its default value, which
    // `Item` (holding a `Kind`) does not have: a clear error, and reading into a value works.
    let e = structio::from_json::<Tagged>(r#"{"type":"Inner","id":1,"kind":"Small"}"#).unwrap_err();
    assert!(e.message().contains("cannot be read as a new value"), "{e}");
    let mut v = Tagged::Inner(Item {
        id: 0,
        kind: Kind::Large,
        note: None,
    });
    structio::read_json(&mut v, r#"{"type":"Inner","id":1,"kind":"Small"}"#).unwrap();
    assert_eq!(
        v,
        Tagged::Inner(Item {
            id: 1,
            kind: Kind::Small,
            note: None
        })
    );
    assert_eq!(
        from_json::<Loose>(r#"{"w":2,"kind":"Large"}"#),
        Loose::Rect {
            w: 2,
            kind: Kind::Large
        }
    );
    // A struct variant missing a member does not match; the next variant is tried.
    assert_eq!(
        json_error::<Loose>(r#"{"w":2}"#).0,
        "no variant matches the value"
    );
    assert_eq!(from_json::<Loose>("true"), Loose::Flag(true));
}

#[test]
fn default_values_follow_the_members() {
    #[derive(Reflect, Debug, PartialEq, Default)]
    enum Level {
        #[default]
        Low,
        High,
    }
    #[derive(Reflect, Debug, PartialEq)]
    struct Plain {
        a: u8,
        b: Option<Kind>,
        c: Level,
    }
    assert_eq!(Level::default_value(), Some(Level::Low));
    assert_eq!(Kind::default_value(), None);
    assert_eq!(
        Plain::default_value(),
        Some(Plain {
            a: 0,
            b: None,
            c: Level::Low
        })
    );
    assert_eq!(Item::default_value(), None);
    assert_eq!(<Option<Item>>::default_value(), Some(None));
}

/// `HAS_DEFAULT_VALUE` says whether `default_value` is `Some`, for the std types and for every
/// shape the derive makes; the derived `read_new` compiles only the way it takes from it.
#[test]
fn has_default_value_agrees_with_default_value() {
    fn agree<T: for<'de> Reflect<'de>>(expected: bool) {
        let name = std::any::type_name::<T>();
        assert_eq!(<T as Reflect>::HAS_DEFAULT_VALUE, expected, "{name}");
        assert_eq!(
            <T as Reflect>::default_value().is_some(),
            expected,
            "{name}"
        );
    }
    #[derive(Reflect, Debug, PartialEq, Default)]
    enum Level {
        #[default]
        Low,
        High,
    }
    #[derive(Reflect, Debug, PartialEq)]
    struct Plain {
        a: u8,
        b: Option<Kind>,
        c: Level,
        d: [u16; 2],
        e: (String, Vec<u32>),
        f: Box<Level>,
    }
    #[derive(Reflect, Debug, PartialEq)]
    struct WithDefault {
        #[structio(default)]
        kind: Option<Kind>,
        #[structio(skip)]
        skipped: u8,
    }
    #[derive(Reflect, Debug, PartialEq)]
    struct Tuple(u8, Level);
    #[derive(Reflect, Debug, PartialEq)]
    struct TupleWithout(u8, Kind);
    #[derive(Reflect, Debug, PartialEq)]
    struct Unit;
    agree::<u8>(true);
    agree::<f64>(true);
    agree::<bool>(true);
    agree::<char>(true);
    agree::<()>(true);
    agree::<String>(true);
    agree::<Vec<Kind>>(true);
    agree::<Option<Kind>>(true);
    agree::<BTreeMap<String, Kind>>(true);
    agree::<std::time::Duration>(true);
    agree::<structio::Value>(true);
    agree::<std::num::NonZeroU32>(false);
    agree::<std::net::Ipv4Addr>(false);
    agree::<[Kind; 2]>(false);
    agree::<[u8; 3]>(true);
    agree::<(u8, Kind)>(false);
    agree::<(u8, String)>(true);
    agree::<Box<Kind>>(false);
    agree::<std::rc::Rc<u8>>(true);
    agree::<Kind>(false);
    agree::<Level>(true);
    agree::<Item>(false);
    agree::<Plain>(true);
    agree::<WithDefault>(true);
    agree::<Tuple>(true);
    agree::<TupleWithout>(false);
    agree::<Unit>(true);
    // Both ways give the same value.
    assert_eq!(
        from_json::<Plain>(r#"{"a":1,"b":"Small","c":"High","d":[1,2],"e":["x",[3]],"f":"High"}"#),
        Plain {
            a: 1,
            b: Some(Kind::Small),
            c: Level::High,
            d: [1, 2],
            e: ("x".into(), vec![3]),
            f: Box::new(Level::High)
        }
    );
    assert_eq!(
        from_json::<Item>(r#"{"id":1,"kind":"Large"}"#),
        Item {
            id: 1,
            kind: Kind::Large,
            note: None
        }
    );
}

/// A hand-written `Reflect` that says it always has a default value but gives none: a struct
/// holding it reports that when read as a new value (in debug builds, where the other way is
/// not compiled; optimised builds read it member by member).
#[test]
fn a_broken_has_default_value_is_an_error_not_a_panic() {
    #[derive(Debug, PartialEq)]
    struct Liar(u8);
    impl<'de> Reflect<'de> for Liar {
        fn write<W: structio::Writer>(&self, w: &mut W) {
            self.0.write(w)
        }
        fn read<R: structio::Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
            self.0.read(r)
        }
        fn read_new<R: structio::Reader<'de>>(r: &mut R) -> structio::Result<Self> {
            u8::read_new(r).map(Liar)
        }
        const HAS_DEFAULT_VALUE: bool = true;
    }
    #[derive(Reflect, Debug, PartialEq)]
    struct Holder {
        liar: Liar,
    }
    let got = structio::from_json::<Holder>(r#"{"liar":7}"#);
    if cfg!(debug_assertions) {
        let e = got.unwrap_err();
        assert!(
            e.message()
                .contains("HAS_DEFAULT_VALUE` is true but its `default_value` returned `None`"),
            "{e}"
        );
    } else {
        assert_eq!(got.unwrap(), Holder { liar: Liar(7) });
    }
}
