//! Byte-exact exchange with Glaze on its benchmark documents (`formats/json/bench`, written by
//! Glaze 8.1), and the exact text, offset, line/column and path of errors.

mod json_common;

use std::collections::BTreeMap;

use structio::__private as p;
use structio::json::{to_json_with, Options};

fn doc(name: &str) -> String {
    String::from_utf8(json_common::read(&format!(
        "formats/json/bench/{name}.json"
    )))
    .unwrap()
}

fn pretty_doc(name: &str) -> String {
    String::from_utf8(json_common::read(&format!(
        "formats/json/bench/{name}.pretty.json"
    )))
    .unwrap()
}

/// The element of `mixed`: Glaze's `test_struct`, with the impl the derive would emit.
#[derive(Default, Debug, PartialEq)]
struct TestStruct {
    test_strings: Vec<String>,
    test_uints: Vec<u64>,
    test_doubles: Vec<f64>,
    test_ints: Vec<i64>,
    test_bools: Vec<bool>,
}

const _: () = {
    const INFO: p::FieldsInfo = p::FieldsInfo {
        optional: &[],
        names: &[
            "testStrings",
            "testUints",
            "testDoubles",
            "testInts",
            "testBools",
        ],
        keys: &[
            "testStrings",
            "testUints",
            "testDoubles",
            "testInts",
            "testBools",
        ],
        key_field: &[0, 1, 2, 3, 4],
        probe: p::Probe::Linear,
        plain: true,
    };
    impl<'de> p::Reflect<'de> for TestStruct {
        fn write<W: p::Writer>(&self, w: &mut W) {
            w.begin_object(5);
            w.key(INFO.names[0]);
            p::Reflect::write(&self.test_strings, w);
            w.sep();
            w.key(INFO.names[1]);
            p::Reflect::write(&self.test_uints, w);
            w.sep();
            w.key(INFO.names[2]);
            p::Reflect::write(&self.test_doubles, w);
            w.sep();
            w.key(INFO.names[3]);
            p::Reflect::write(&self.test_ints, w);
            w.sep();
            w.key(INFO.names[4]);
            p::Reflect::write(&self.test_bools, w);
            w.end_object();
        }
        fn read<R: p::Reader<'de>>(&mut self, r: &mut R) -> p::Result<()> {
            p::read_fields(r, &INFO, None, |m, r| match m {
                p::Member::Index(0) => p::Reflect::read(&mut self.test_strings, r),
                p::Member::Index(1) => p::Reflect::read(&mut self.test_uints, r),
                p::Member::Index(2) => p::Reflect::read(&mut self.test_doubles, r),
                p::Member::Index(3) => p::Reflect::read(&mut self.test_ints, r),
                p::Member::Index(4) => p::Reflect::read(&mut self.test_bools, r),
                _ => Ok(()),
            })
        }
        fn read_new<R: p::Reader<'de>>(r: &mut R) -> p::Result<Self> {
            let mut v = <Self as Default>::default();
            v.read(r)?;
            Ok(v)
        }
    }
};

/// Reads `name` as `BTreeMap<String, Vec<T>>` (keys `a`..`z` sort in declaration order), writes
/// it back compact and pretty, and reads it again into the same value.
fn round_trip<T>(name: &str)
where
    T: for<'de> p::Reflect<'de> + Default + PartialEq + std::fmt::Debug,
{
    let text = doc(name);
    let pretty = pretty_doc(name);
    let mut v: BTreeMap<String, Vec<T>> =
        structio::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(v.len(), 26);
    assert_eq!(structio::to_json(&v), text, "{name}: compact write");
    let opts = Options {
        pretty: true,
        ..Options::default()
    };
    assert_eq!(to_json_with(&v, &opts), pretty, "{name}: pretty write");
    // Reading the pretty text into the value just read reuses it and changes nothing.
    structio::read_json(&mut v, &pretty).unwrap();
    assert_eq!(
        structio::to_json(&v),
        text,
        "{name}: read into an existing value"
    );
    let mut out = b"prefix:".to_vec();
    structio::write_json(&v, &mut out);
    assert_eq!(&out[7..], text.as_bytes(), "{name}: write_json appends");
}

#[test]
fn bench_documents_round_trip_byte_for_byte() {
    round_trip::<String>("strings");
    round_trip::<u64>("uints");
    round_trip::<i64>("ints");
    round_trip::<f64>("doubles");
    round_trip::<f64>("exact_decimals");
    round_trip::<bool>("bools");
    round_trip::<TestStruct>("mixed");
}

#[test]
fn prettify_and_minify_match_glaze() {
    for name in json_common::DOCS {
        let text = doc(name);
        let pretty = pretty_doc(name);
        assert_eq!(structio::prettify(&text).unwrap(), pretty, "{name}");
        assert_eq!(structio::minify(&pretty).unwrap(), text, "{name}");
        assert_eq!(structio::minify(&text).unwrap(), text, "{name}");
        assert_eq!(structio::prettify(&pretty).unwrap(), pretty, "{name}");
        structio::json::validate(text.as_bytes()).unwrap();
    }
}

/// (message, offset, line:column, path) of reading `text` as `T`.
fn error_of<T>(text: &str) -> (String, usize, (usize, usize), String)
where
    T: for<'de> p::Reflect<'de> + Default + std::fmt::Debug,
{
    let e = structio::from_json::<T>(text).unwrap_err();
    (e.message(), e.offset(), e.line_column().unwrap(), e.path())
}

#[test]
fn errors_name_what_where_and_path() {
    type Doc = BTreeMap<String, Vec<TestStruct>>;
    let e = |m: &str, off: usize, lc: (usize, usize), path: &str| {
        (m.to_string(), off, lc, path.to_string())
    };
    assert_eq!(
        error_of::<Vec<u8>>("[1, 2, 3, 256]"),
        e("number out of range for u8", 10, (1, 11), "$[3]")
    );
    assert_eq!(
        error_of::<Doc>("{\"a\": [{\"testUints\": [1, -2]}]}"),
        e(
            "number out of range for u64",
            25,
            (1, 26),
            "$[\"a\"][0].testUints[1]"
        )
    );
    assert_eq!(
        error_of::<Doc>("{\n\"a\": [\n  {\"testInts\": [1.5]}\n]}"),
        e(
            "expected an integer for i64",
            26,
            (3, 18),
            "$[\"a\"][0].testInts[0]"
        )
    );
    assert_eq!(
        error_of::<Doc>("{\"a\": [{\"testBools\": [true, 1]}]}"),
        e(
            "expected a boolean, found a number",
            28,
            (1, 29),
            "$[\"a\"][0].testBools[1]"
        )
    );
    assert_eq!(
        error_of::<Doc>("{\"a\": [{\"nope\": 1}]}"),
        e("unknown key `nope`", 8, (1, 9), "$[\"a\"][0]")
    );
    assert_eq!(
        error_of::<Doc>("{\"a\": [{\"testBools\": [], \"nope\": 1}]}"),
        e("unknown key `nope`", 25, (1, 26), "$[\"a\"][0]")
    );
    assert_eq!(
        error_of::<Vec<String>>("[\"a\", \"b\\q\"]"),
        e("invalid escape", 9, (1, 10), "$[1]")
    );
    assert_eq!(
        error_of::<Vec<f64>>("[1,\n 2\n 3]"),
        e("expected `,` or `]`", 8, (3, 2), "$")
    );
    assert_eq!(
        error_of::<Vec<f64>>("[1, 2] x"),
        e("trailing characters after the value", 7, (1, 8), "$")
    );
    assert_eq!(
        error_of::<Vec<f64>>("[1, 2,]"),
        e("expected a value", 6, (1, 7), "$[2]")
    );
    assert_eq!(
        error_of::<Option<String>>("nul"),
        e("unexpected end of input", 3, (1, 4), "$")
    );
    assert_eq!(
        error_of::<String>("[]"),
        e("expected a string, found an array", 0, (1, 1), "$")
    );
    assert_eq!(
        error_of::<f64>("1e400"),
        e("number out of range for f64", 0, (1, 1), "$")
    );
    assert_eq!(
        error_of::<BTreeMap<String, u8>>("{\"k\" 1}"),
        e("expected `:`", 5, (1, 6), "$")
    );
    assert_eq!(
        error_of::<BTreeMap<String, u8>>("{1: 1}"),
        e("expected a string key", 1, (1, 2), "$")
    );
}

#[test]
fn display_shows_position_path_and_caret() {
    let e = structio::from_json::<Vec<Vec<u8>>>("[[1],\n [2, 300]]").unwrap_err();
    assert_eq!(
        e.to_string(),
        "number out of range for u8 at 2:6 (byte 11), path $[1][1]\n    [2, 300]]\n        ^"
    );
}

#[test]
fn every_prefix_of_a_document_is_an_end_of_input_error() {
    type Doc = BTreeMap<String, Vec<TestStruct>>;
    let docs = [
        r#"{"a":[{"testStrings":["x\"y","\u00e9\ud83d\ude00"],"testUints":[0,18446744073709551615],"testDoubles":[-1.5E-7,0.25,1E300],"testInts":[-9223372036854775808],"testBools":[true,false]}],"b":[]}"#,
        "{\n   \"z\": [\n      {\n         \"testBools\": [\n            true\n         ]\n      }\n   ]\n}",
    ];
    for text in docs {
        structio::from_json::<Doc>(text).unwrap();
        for n in 0..text.len() {
            let Some(prefix) = text.get(..n) else {
                continue;
            };
            let e = structio::from_json::<Doc>(prefix).unwrap_err();
            assert!(e.is_eof(), "prefix {prefix:?}: {e}");
            let e = structio::json::validate(prefix.as_bytes()).unwrap_err();
            assert!(e.is_eof(), "validate {prefix:?}: {e}");
            assert!(structio::prettify(prefix).unwrap_err().is_eof());
        }
    }
}

#[test]
fn glaze_exchange_documents_round_trip_as_dynamic_values() {
    let dir = json_common::path("formats/beve/exchange");
    let mut n = 0;
    for path in json_common::list(&dir, ".json") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // strings.json holds raw control bytes (Glaze's default); strings.escctl.json is the
        // valid form of the same document.
        if name == "strings.json" {
            continue;
        }
        n += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        let v: json_common::Any =
            structio::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(structio::to_json(&v), text, "{name}");
        assert_eq!(
            structio::minify(&structio::prettify(&text).unwrap()).unwrap(),
            text,
            "{name}"
        );
    }
    assert_eq!(n, 17);
    let raw = json_common::read("formats/beve/exchange/strings.json");
    let e = structio::json::validate(&raw).unwrap_err();
    assert_eq!(e.message(), "control character in string");
}
