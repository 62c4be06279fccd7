//! Derived code under the reader and writer options: null members, unknown keys skipped,
//! missing and duplicate keys reported, in structs and in every enum representation.

use std::collections::{BTreeMap, HashMap};

use structio::json::{from_json_with, read_json_with, to_json_with, Options};
use structio::{ReadOptions, Reflect, UnknownKeys};

#[derive(Reflect, Default, Debug, PartialEq)]
struct Opt {
    a: Option<u8>,
    b: u8,
    c: Option<u8>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Inner {
    x: Option<u8>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(tag = "type")]
enum Tagged {
    #[default]
    U,
    S {
        a: Option<u8>,
        b: u8,
    },
    N(Inner),
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(tag = "t", content = "c")]
enum Adj {
    #[default]
    U,
    S {
        a: Option<u8>,
    },
}

fn nulls() -> Options {
    Options {
        write_null_members: true,
        ..Options::default()
    }
}

fn read(read: ReadOptions) -> Options {
    Options {
        read,
        ..Options::default()
    }
}

#[test]
fn null_members_are_written_when_asked() {
    let v = Opt {
        a: None,
        b: 1,
        c: None,
    };
    assert_eq!(structio::to_json(&v), r#"{"b":1}"#);
    assert_eq!(to_json_with(&v, &nulls()), r#"{"a":null,"b":1,"c":null}"#);
    let t = Tagged::S { a: None, b: 2 };
    assert_eq!(structio::to_json(&t), r#"{"type":"S","b":2}"#);
    assert_eq!(to_json_with(&t, &nulls()), r#"{"type":"S","a":null,"b":2}"#);
    let n = Tagged::N(Inner { x: None });
    assert_eq!(structio::to_json(&n), r#"{"type":"N"}"#);
    assert_eq!(to_json_with(&n, &nulls()), r#"{"type":"N","x":null}"#);
    let a = Adj::S { a: None };
    assert_eq!(structio::to_json(&a), r#"{"t":"S","c":{}}"#);
    assert_eq!(to_json_with(&a, &nulls()), r#"{"t":"S","c":{"a":null}}"#);
}

#[test]
fn unknown_keys_can_be_skipped() {
    let skip = read(ReadOptions {
        unknown_keys: UnknownKeys::Skip,
        ..ReadOptions::default()
    });
    let v: Opt = from_json_with(r#"{"z":[1,{"q":2}],"b":3}"#, &skip).unwrap();
    assert_eq!(v.b, 3);
    let t: Tagged = from_json_with(r#"{"z":1,"b":3,"type":"S","y":{}}"#, &skip).unwrap();
    assert_eq!(t, Tagged::S { a: None, b: 3 });
    let t: Tagged = from_json_with(r#"{"type":"U","z":1}"#, &skip).unwrap();
    assert_eq!(t, Tagged::U);
    let a: Adj = from_json_with(r#"{"z":1,"c":{"a":1,"q":0},"t":"S"}"#, &skip).unwrap();
    assert_eq!(a, Adj::S { a: Some(1) });
}

#[test]
fn missing_and_duplicate_keys_can_be_errors() {
    let strict = read(ReadOptions {
        error_on_missing_keys: true,
        error_on_duplicate_keys: true,
        ..ReadOptions::default()
    });
    let e = from_json_with::<Opt>(r#"{"a":1,"c":3}"#, &strict).unwrap_err();
    assert_eq!(e.message(), "missing key `b`");
    // `Option` members may be missing: `None` is left out when written, so what structio
    // writes reads back under the option.
    let ok: Opt = from_json_with(r#"{"b":2}"#, &strict).unwrap();
    assert_eq!(
        ok,
        Opt {
            a: None,
            b: 2,
            c: None
        }
    );
    let written = structio::to_json(&ok);
    assert_eq!(from_json_with::<Opt>(&written, &strict).unwrap(), ok);
    let e = from_json_with::<Opt>(r#"{"a":1,"b":2,"c":3,"b":4}"#, &strict).unwrap_err();
    assert_eq!(e.message(), "duplicate key `b`");
    let e = from_json_with::<Tagged>(r#"{"type":"S","a":2}"#, &strict).unwrap_err();
    assert_eq!(e.message(), "missing key `b`");
    let ok: Tagged = from_json_with(r#"{"b":2,"type":"S","a":null}"#, &strict).unwrap();
    assert_eq!(ok, Tagged::S { a: None, b: 2 });
    // The tag twice, first or not (the member walk passes tags over, so a second one went
    // unnoticed), in a struct variant and a newtype variant.
    for (text, at) in [
        (r#"{"type":"S","b":2,"type":"U"}"#, 18),
        (r#"{"b":2,"type":"S","type":"S"}"#, 18),
        (r#"{"type":"N","type":"N","x":null}"#, 12),
    ] {
        let e = from_json_with::<Tagged>(text, &strict).unwrap_err();
        assert_eq!(
            (e.message().as_str(), e.offset()),
            ("duplicate key `type`", at),
            "{text}"
        );
        from_json_with::<Tagged>(text, &Options::default()).unwrap();
    }
    // A map's repeated key, string or integer; reading into a map that already holds the key
    // is no repeat.
    let e = from_json_with::<BTreeMap<String, u8>>(r#"{"a":1,"b":2,"a":3}"#, &strict).unwrap_err();
    assert_eq!(
        (e.message().as_str(), e.offset()),
        ("duplicate key `a`", 13)
    );
    let e = from_json_with::<HashMap<u8, u8>>(r#"{"1":1,"2":2,"1":3}"#, &strict).unwrap_err();
    assert_eq!(e.message(), "duplicate key `1`");
    let mut m = BTreeMap::from([("a".to_string(), 0u8)]);
    read_json_with(&mut m, r#"{"a":1}"#, &strict).unwrap();
    assert_eq!(m["a"], 1);
    let e = read_json_with(&mut m, r#"{"x":{"a":1,"a":1}}"#, &strict);
    assert!(e.is_err());
    let beve = structio::beve::Options {
        read: strict.read,
        ..structio::beve::Options::default()
    };
    // BEVE: an integer-keyed object holding 5 twice (written with keys 5 and 6, then the 6
    // changed).
    let mut twice = structio::to_beve(&BTreeMap::from([(5u8, 1u8), (6, 2)]));
    let six = twice.iter().rposition(|&b| b == 6).unwrap();
    twice[six] = 5;
    let e = structio::beve::from_beve_with::<HashMap<u8, u8>>(&twice, &beve).unwrap_err();
    assert_eq!(e.message(), "duplicate key `5`");
    assert_eq!(
        structio::from_beve::<HashMap<u8, u8>>(&twice).unwrap()[&5],
        2
    );
}
