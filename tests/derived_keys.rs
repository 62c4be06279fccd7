//! Derived structs write their keys from text built at compile time: it must be exactly what
//! the JSON writer makes of the same key at run time (escapes included), compact and pretty.

use structio::json::{to_json_with, write_json, Options};

#[derive(structio::Reflect, Default, Debug, PartialEq)]
struct Odd {
    plain: u8,
    #[structio(rename = "q\"b\\s/\u{8}\t\n\u{c}\r\u{1}\u{1f}\u{7f}é😀")]
    odd: u8,
    #[structio(rename = "")]
    empty: u8,
    #[structio(rename = "a_rather_long_key_that_does_not_fit_in_thirty_two_bytes")]
    long: u8,
}

#[test]
fn derived_keys_match_run_time_escaping() {
    let v = Odd {
        plain: 1,
        odd: 2,
        empty: 3,
        long: 4,
    };
    let odd = structio::to_json(&"q\"b\\s/\u{8}\t\n\u{c}\r\u{1}\u{1f}\u{7f}é😀");
    assert_eq!(
        odd,
        "\"q\\\"b\\\\s/\\b\\t\\n\\f\\r\\u0001\\u001F\u{7f}é😀\""
    );
    let long = "a_rather_long_key_that_does_not_fit_in_thirty_two_bytes";
    let want = format!(r#"{{"plain":1,{odd}:2,"":3,"{long}":4}}"#);
    assert_eq!(structio::to_json(&v), want);
    let mut bytes = Vec::new();
    write_json(&v, &mut bytes);
    assert_eq!(bytes, want.as_bytes());
    let pretty = to_json_with(
        &v,
        &Options {
            pretty: true,
            ..Options::default()
        },
    );
    assert_eq!(pretty, structio::prettify(&want).unwrap());
    assert_eq!(structio::from_json::<Odd>(&want).unwrap(), v);
}

/// Field names, renames and aliases outside ASCII are matched in both formats.
#[test]
fn non_ascii_field_names_are_matched() {
    #[derive(structio::Reflect, Default, Debug, PartialEq)]
    struct Accents {
        café: u8,
        #[structio(rename = "名前")]
        name: String,
        #[structio(alias = "größe")]
        size: u32,
    }
    let v = Accents {
        café: 3,
        name: "n".into(),
        size: 9,
    };
    assert_eq!(
        structio::from_beve::<Accents>(&structio::to_beve(&v)).unwrap(),
        v
    );
    assert_eq!(
        structio::from_json::<Accents>(&structio::to_json(&v)).unwrap(),
        v
    );
    let aliased: Accents = structio::from_json(r#"{"größe":9,"名前":"n","café":3}"#).unwrap();
    assert_eq!(aliased, v);
}

/// A key that spells the expected field name is taken without decoding it only when the name
/// has nothing JSON escapes: raw bytes that look like such a name are read as JSON says.
#[test]
fn guessed_keys_are_read_as_json_says() {
    #[derive(structio::Reflect, Default, Debug, PartialEq)]
    struct Quote {
        #[structio(rename = "x\"y")]
        q: u8,
    }
    #[derive(structio::Reflect, Default, Debug, PartialEq)]
    struct Slash {
        #[structio(rename = "a\\")]
        s: u8,
    }
    #[derive(structio::Reflect, Default, Debug, PartialEq)]
    struct Control {
        #[structio(rename = "c\u{1}")]
        c: u8,
    }
    #[derive(structio::Reflect, Default, Debug, PartialEq)]
    struct Plain {
        plain: u8,
        next: u8,
    }
    assert_eq!(structio::from_json::<Quote>(r#"{"x\"y":1}"#).unwrap().q, 1);
    assert!(structio::from_json::<Quote>(r#"{"x"y":1}"#).is_err());
    assert_eq!(structio::from_json::<Slash>(r#"{"a\\":2}"#).unwrap().s, 2);
    assert!(structio::from_json::<Slash>(r#"{"a\":2}"#).is_err());
    assert_eq!(
        structio::from_json::<Control>(r#"{"c\u0001":3}"#)
            .unwrap()
            .c,
        3
    );
    assert!(structio::from_json::<Control>("{\"c\u{1}\":3}").is_err());

    let want = Plain { plain: 4, next: 5 };
    for text in [
        r#"{"plain":4,"next":5}"#,
        r#"{ "plain" : 4 , "next" : 5 }"#,
        r#"{"\u0070lain":4,"nex\u0074":5}"#,
        r#"{"next":5,"plain":4}"#,
    ] {
        assert_eq!(structio::from_json::<Plain>(text).unwrap(), want, "{text}");
    }
    for bad in [
        r#"{"plainx":4}"#,
        r#"{"plai":4}"#,
        r#"{"plain"4}"#,
        r#"{"plain""#,
        r#"{"plain"#,
        "{\"plain\u{0}\":4}",
    ] {
        assert!(structio::from_json::<Plain>(bad).is_err(), "{bad}");
    }
}
