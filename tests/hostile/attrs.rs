//! Hostile input for the derive's layout attributes: `quoted` numbers (megabyte digit strings,
//! padding, a million quoted elements), `as_integer` enums (numbers far past every range) and
//! `as_array` structs (a million elements where two are due, counts far beyond the payload).
//! Each is a clean error with its path, in time linear in the input and memory bounded by a
//! small multiple of it.

use std::collections::BTreeMap;

use structio::Reflect;

use crate::{bounded, err, timed};

#[derive(Reflect, Default, Debug, PartialEq)]
struct Q {
    #[structio(quoted)]
    n: u64,
    #[structio(quoted)]
    f: f64,
    #[structio(quoted)]
    v: Vec<u8>,
}

#[derive(Reflect, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
#[structio(as_integer)]
#[repr(u8)]
enum E {
    #[default]
    A = 1,
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(as_array)]
struct Pair {
    a: u8,
    b: Option<String>,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Holder {
    e: E,
    keyed: BTreeMap<E, u8>,
    pair: Pair,
}

#[test]
fn megabyte_quoted_numbers_are_linear_clean_errors() {
    let digits = "9".repeat(1 << 20);
    timed("megabyte quoted numbers", 3000, || {
        let e = err(
            "u64",
            structio::from_json::<Q>(&format!(r#"{{"n":"{digits}"}}"#)),
        );
        assert_eq!(e.path(), "$.n");
        assert!(e.message().len() < 200, "{}", e.message());
        let e = err(
            "f64",
            structio::from_json::<Q>(&format!(r#"{{"f":"{digits}"}}"#)),
        );
        assert_eq!(e.path(), "$.f");
        let padded = format!(r#"{{"n":"{}1"}}"#, " ".repeat(1 << 20));
        let e = err("padding", structio::from_json::<Q>(&padded));
        assert_eq!(e.path(), "$.n");
        assert!(e.message().len() < 200, "{}", e.message());
        // A megabyte number (not a string) is the wrong type at once.
        let e = err(
            "bare",
            structio::from_json::<Q>(&format!(r#"{{"n":{digits}}}"#)),
        );
        assert_eq!(e.path(), "$.n");
    });
}

#[test]
fn a_million_quoted_elements_read_in_linear_time() {
    let one = r#""1","#.repeat(1 << 20);
    let doc = format!(r#"{{"v":[{one}"300"]}}"#);
    timed("a million quoted elements", 3000, || {
        let e = err("last out of range", structio::from_json::<Q>(&doc));
        assert_eq!(e.path(), format!("$.v[{}]", 1 << 20));
    });
}

#[test]
fn as_integer_numbers_past_every_range() {
    let digits = "9".repeat(1 << 20);
    timed("as_integer megabyte numbers", 3000, || {
        for doc in [
            format!(r#"{{"e":{digits}}}"#),
            format!(r#"{{"e":-{digits}}}"#),
            format!(r#"{{"e":1e{digits}}}"#),
            format!(r#"{{"keyed":{{"{digits}":1}}}}"#),
        ] {
            let e = err("as_integer", structio::from_json::<Holder>(&doc));
            assert!(e.path().starts_with("$.e") || e.path().starts_with("$.keyed"));
            assert!(e.message().len() < 200, "{}", e.message());
        }
    });
}

#[test]
fn as_array_too_many_elements_stop_at_the_first_extra() {
    let extra = "1,".repeat(1 << 20);
    let doc = format!(r#"{{"pair":[1,null,{extra}1]}}"#);
    timed("as_array extra elements", 1000, || {
        let e = err("extra", structio::from_json::<Holder>(&doc));
        assert_eq!(e.path(), "$.pair");
        assert!(e.offset() < 40, "{}", e.offset());
    });
}

#[test]
fn as_array_counts_far_beyond_the_payload() {
    bounded("attrs::as_array_counts_far_beyond_the_payload", 64, || {
        for n in [2u64, 3, 1 << 30, (1 << 61) - 1] {
            let size = (n << 2 | 3).to_le_bytes();
            let doc = [&[0x05u8][..], &size, &[0x11, 1, 0x00]].concat();
            let what = format!("count {n}");
            let r = structio::from_beve::<Pair>(&doc);
            if n == 2 {
                assert_eq!(r.unwrap(), Pair { a: 1, b: None }, "{what}");
            } else {
                err(&what, r);
            }
        }
    });
}
