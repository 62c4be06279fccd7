//! Reading one value at a JSON pointer: `json::get` and `beve::get` (RFC 6901 pointers, errors
//! that name the pointer, what is checked before the value and what is not read after it),
//! and their agreement with `from_json::<Value>` + `Value::pointer` on the test documents.

mod shapes;

use std::collections::{BTreeMap, HashMap};

use structio::{beve, json, Category, Value};

const DOC: &str = r#"{
  "a": {"b": [10, 20, {"c": "deep"}], "e": null},
  "a/b": 1,
  "m~n": 2,
  "": {"": 3},
  "esc\"aped": 4,
  "caf\u00e9": 5,
  "café2": 6,
  "t": true,
  "n": -1.5e3,
  "s": "str"
}"#;

#[track_caller]
fn json_err<T: std::fmt::Debug + for<'de> structio::Reflect<'de>>(
    doc: &str,
    p: &str,
) -> structio::Error {
    json::get::<T>(doc, p).expect_err(p)
}

#[test]
fn nested_objects_and_arrays() {
    assert_eq!(json::get::<u32>(DOC, "/a/b/0").unwrap(), 10);
    assert_eq!(json::get::<u32>(DOC, "/a/b/1").unwrap(), 20);
    assert_eq!(json::get::<String>(DOC, "/a/b/2/c").unwrap(), "deep");
    assert_eq!(json::get::<&str>(DOC, "/a/b/2/c").unwrap(), "deep");
    assert_eq!(json::get::<Option<u8>>(DOC, "/a/e").unwrap(), None);
    assert_eq!(json::get::<Vec<Value>>(DOC, "/a/b").unwrap().len(), 3);
    assert!(json::get::<bool>(DOC, "/t").unwrap());
    assert_eq!(json::get::<f64>(DOC, "/n").unwrap(), -1500.0);
    assert_eq!(json::get::<HashMap<String, u8>>(DOC, "/").unwrap()[""], 3);
}

#[test]
fn escapes_in_pointers_and_keys() {
    assert_eq!(json::get::<u8>(DOC, "/a~1b").unwrap(), 1);
    assert_eq!(json::get::<u8>(DOC, "/m~0n").unwrap(), 2);
    assert_eq!(json::get::<u8>(DOC, "//").unwrap(), 3);
    // Keys with JSON escapes are compared unescaped.
    assert_eq!(json::get::<u8>(DOC, "/esc\"aped").unwrap(), 4);
    assert_eq!(json::get::<u8>(DOC, "/café").unwrap(), 5);
    assert_eq!(json::get::<u8>(DOC, "/café2").unwrap(), 6);
    // `~01` is `~1`, not `/`.
    assert_eq!(json::get::<u8>(r#"{"~1": 7}"#, "/~01").unwrap(), 7);
}

#[test]
fn the_empty_pointer_is_the_whole_document() {
    assert_eq!(json::get::<u8>(" 7 ", "").unwrap(), 7);
    let v: Value = json::get(DOC, "").unwrap();
    assert_eq!(v, structio::from_json::<Value>(DOC).unwrap());
    // Nothing after the value is read, even for the whole document.
    assert_eq!(json::get::<Vec<u8>>("[1,2] trailing", "").unwrap(), [1, 2]);
}

#[test]
fn missing_members_and_indexes_name_the_pointer() {
    let e = json_err::<u8>(DOC, "/a/x");
    assert_eq!(e.category(), Category::Data);
    assert_eq!(
        e.message(),
        "no value at JSON pointer `/a/x`: no member `x`"
    );
    assert_eq!(e.path(), "$[\"a\"]");
    assert_eq!(e.line_column(), Some((2, 8)));
    assert_eq!(e.offset(), DOC.find("{\"b\"").unwrap());

    let e = json_err::<u8>(DOC, "/a/b/3");
    assert_eq!(
        e.message(),
        "no value at JSON pointer `/a/b/3`: index 3 is out of range for an array of 3 elements"
    );
    assert_eq!(e.path(), "$[\"a\"][\"b\"]");
    let e = json_err::<u8>("[]", "/0");
    assert_eq!(
        e.message(),
        "no value at JSON pointer `/0`: index 0 is out of range for an array of 0 elements"
    );
    let e = json_err::<u8>("[[5]]", "/0/1");
    assert!(e
        .message()
        .ends_with("index 1 is out of range for an array of 1 element"));
    let e = json_err::<u8>("{}", "/a");
    assert_eq!(e.message(), "no value at JSON pointer `/a`: no member `a`");
    assert!(e.to_string().contains("at 1:1 (byte 0)"), "{e}");
}

#[test]
fn dash_leading_zeros_and_other_non_indexes() {
    let e = json_err::<u32>(DOC, "/a/b/-");
    assert_eq!(
        e.message(),
        "no value at JSON pointer `/a/b/-`: `-` (past the last element) names no element to read"
    );
    for bad in ["01", "00", "+1", "-1", "1.0", "", " 1", "x"] {
        let e = json_err::<u32>(DOC, &format!("/a/b/{bad}"));
        assert!(
            e.message().contains("is not an array index"),
            "{bad}: {}",
            e.message()
        );
    }
    // `0` is fine; `-` and leading zeros are plain names in an object.
    assert_eq!(json::get::<u8>("[9]", "/0").unwrap(), 9);
    assert_eq!(json::get::<u8>(r#"{"-": 1, "01": 2}"#, "/-").unwrap(), 1);
    assert_eq!(json::get::<u8>(r#"{"-": 1, "01": 2}"#, "/01").unwrap(), 2);
    // A huge index is out of range, not an overflow.
    let e = json_err::<u8>("[1]", "/99999999999999999999999999");
    assert!(e.message().contains("out of range"), "{}", e.message());
}

#[test]
fn invalid_pointers() {
    for (p, why) in [
        ("a", "it must be empty or start with `/`"),
        ("#/a", "it must be empty or start with `/`"),
        ("/~2", "`~` must be followed by `0` or `1`"),
        ("/a~", "`~` must be followed by `0` or `1`"),
        ("/a/~x/b", "`~` must be followed by `0` or `1`"),
    ] {
        let e = json_err::<Value>(DOC, p);
        assert_eq!(e.message(), format!("invalid JSON pointer `{p}`: {why}"));
        assert_eq!(e.category(), Category::Data);
        let e = beve::get::<Value>(&structio::to_beve(&7u8), p).unwrap_err();
        assert_eq!(e.message(), format!("invalid JSON pointer `{p}`: {why}"));
    }
    // The pointer is checked before the document is looked at.
    assert!(json_err::<Value>("not json", "/~")
        .message()
        .starts_with("invalid JSON pointer"));
}

#[test]
fn pointers_into_scalars() {
    for (p, what) in [
        ("/s/0", "`/s` is a string"),
        ("/n/x", "`/n` is a number"),
        ("/t/0", "`/t` is a boolean"),
        ("/a/e/0", "`/a/e` is null"),
    ] {
        let e = json_err::<Value>(DOC, p);
        assert_eq!(
            e.message(),
            format!("no value at JSON pointer `{p}`: {what}, not an object or an array")
        );
    }
    let e = json_err::<Value>("12", "/0");
    assert!(e
        .message()
        .ends_with("the document is a number, not an object or an array"));
    // A malformed scalar is reported as such.
    let e = json_err::<Value>(r#"{"a": tru}"#, "/a/0");
    assert_eq!(e.message(), "invalid literal");
}

#[test]
fn invalid_json_before_the_target_is_an_error() {
    for doc in [
        r#"{"x": [1, 2,], "a": 1}"#,
        r#"{"x": tru, "a": 1}"#,
        r#"{"x": "\q", "a": 1}"#,
        r#"{"x": 01, "a": 1}"#,
        r#"{"x" 1, "a": 1}"#,
        r#"{"x": 1 "a": 1}"#,
        r#"{"x": {"y": 1]], "a": 1}"#,
        "{\"x\": \"\u{1}\", \"a\": 1}",
        r#"{x: 1, "a": 1}"#,
        r#"[[1, 2 3], 4]"#,
    ] {
        let p = if doc.starts_with('[') { "/1" } else { "/a" };
        let e = json::get::<u8>(doc, p).expect_err(doc);
        let want = structio::from_json::<Value>(doc).unwrap_err();
        assert_eq!(e.message(), want.message(), "{doc}");
        assert_eq!(e.offset(), want.offset(), "{doc}");
        assert_eq!(e.category(), Category::Syntax, "{doc}");
    }
    // Invalid UTF-8 before the target, in a key or a value.
    let doc = b"{\"x\": \"\xFF\", \"a\": 1}";
    assert_eq!(
        json::get::<u8>(doc, "/a").unwrap_err().message(),
        "invalid UTF-8"
    );
    let doc = b"{\"\xC0\": 0, \"a\": 1}";
    assert_eq!(json::get::<u8>(doc, "/a").unwrap_err().offset(), 2);
    // Nesting deeper than the limit before the target.
    let deep = format!("[{}{}, 1]", "[".repeat(300), "]".repeat(300));
    let e = json::get::<u8>(&deep, "/1").unwrap_err();
    assert_eq!(e.category(), Category::Limit);
    let mut opts = json::Options::default();
    opts.read.max_depth = 1000;
    assert_eq!(json::get_with::<u8>(&deep, "/1", &opts).unwrap(), 1);
}

#[test]
fn invalid_json_after_the_target_is_not_read() {
    for doc in [
        r#"{"a": 1, "x": tru"#,
        r#"{"a": 1 garbage"#,
        r#"{"a": 1, "b": [1, 2,]}"#,
        "{\"a\": 1, \"b\": \"\u{1}\"}",
        r#"[1, 2, oops"#,
    ] {
        let p = if doc.starts_with('[') { "/0" } else { "/a" };
        assert_eq!(json::get::<u8>(doc, p).unwrap(), 1, "{doc}");
        assert!(structio::from_json::<Value>(doc).is_err());
    }
    let doc = b"{\"a\": 1, \"x\": \"\xFF\"}";
    assert_eq!(json::get::<u8>(doc, "/a").unwrap(), 1);
}

#[test]
fn errors_while_reading_the_target_carry_its_path() {
    let e = json::get::<u8>(r#"{"a": [1, 300]}"#, "/a/1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "number out of range for u8 at 1:11 (byte 10), path $[\"a\"][1]\n   {\"a\": [1, 300]}\n             ^"
    );
    let e = json::get::<Vec<u8>>(r#"{"a": [[1, 300]]}"#, "/a/0").unwrap_err();
    assert_eq!(e.path(), "$[\"a\"][0][1]");
    // A string with an escape cannot be borrowed, as with `from_json`.
    assert!(json::get::<&str>(r#"{"a": "x\n"}"#, "/a").is_err());
    assert_eq!(json::get::<String>(r#"{"a": "x\n"}"#, "/a").unwrap(), "x\n");
}

#[test]
fn duplicate_keys_follow_the_first() {
    let doc = r#"{"a": 1, "a": 2}"#;
    assert_eq!(json::get::<u8>(doc, "/a").unwrap(), 1);
}

/// A document longer than the prefix checked first, with strings crossing every boundary the
/// check grows to, and multi-byte characters everywhere.
fn long_doc(n: usize) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"id":{i},"name":"ñame é {i} {}","v":[{i},"x"]}}"#,
                "ü".repeat(i % 50)
            )
        })
        .collect();
    format!(r#"{{"items":[{}],"after":"🎉"}}"#, items.join(","))
}

#[test]
fn a_long_document_is_read_as_far_as_needed() {
    let doc = long_doc(3000);
    assert!(doc.len() > 200_000);
    for i in [0, 1, 17, 100, 1000, 2999] {
        assert_eq!(
            json::get::<u64>(&doc, &format!("/items/{i}/id")).unwrap(),
            i as u64
        );
        let name: String = json::get(&doc, &format!("/items/{i}/name")).unwrap();
        assert!(name.starts_with(&format!("ñame é {i} ")));
        let item: Value = json::get(&doc, &format!("/items/{i}")).unwrap();
        assert_eq!(item["id"], Value::from(i as u64));
    }
    assert_eq!(json::get::<String>(&doc, "/after").unwrap(), "🎉");
    let items: Value = json::get(&doc, "/items").unwrap();
    assert_eq!(items.as_array().unwrap().len(), 3000);
    let e = json::get::<u64>(&doc, "/items/3000").unwrap_err();
    assert!(e.message().contains("3000 elements"), "{e}");

    // Invalid UTF-8 late in the document: found when it comes before the target, not read
    // when it comes after it, and reported where `from_json` reports it.
    let mut bad = doc.clone().into_bytes();
    let at = doc.find("ñame é 2000 ").unwrap() + 2;
    bad[at] = 0xFF;
    let want = structio::from_json::<Value>(&bad[..]).unwrap_err();
    let e = json::get::<u64>(&bad[..], "/items/2500/id").unwrap_err();
    assert_eq!((e.message(), e.offset()), (want.message(), want.offset()));
    assert_eq!(e.offset(), at);
    assert_eq!(json::get::<u64>(&bad[..], "/items/1999/id").unwrap(), 1999);
    let e = json::get::<Value>(&bad[..], "/items").unwrap_err();
    assert_eq!(e.offset(), at);
    let e = json::get::<Value>(&bad[..], "").unwrap_err();
    assert_eq!(e.offset(), at);
}

#[test]
fn beve_objects_arrays_and_typed_arrays() {
    #[derive(structio::Reflect)]
    struct Doc {
        name: String,
        floats: Vec<f64>,
        bytes: Vec<u8>,
        flags: Vec<bool>,
        words: Vec<String>,
        by_id: BTreeMap<i32, String>,
        by_u: BTreeMap<u64, u8>,
        nested: Vec<Vec<Option<i16>>>,
        map: BTreeMap<String, Value>,
    }
    let d = Doc {
        name: "doc".into(),
        floats: vec![0.5, 1.5, 2.5],
        bytes: vec![7, 8, 9],
        flags: (0..20).map(|i| i % 3 == 0).collect(),
        words: vec!["zero".into(), "one".into(), "two é".into()],
        by_id: BTreeMap::from([(-2, "minus two".into()), (7, "seven".into())]),
        by_u: BTreeMap::from([(u64::MAX, 1)]),
        nested: vec![vec![Some(1), None], vec![Some(-3)]],
        map: BTreeMap::from([
            ("a/b".into(), Value::from(1)),
            ("m~n".into(), Value::from(2)),
        ]),
    };
    for bytes in [
        structio::to_beve(&d),
        structio::to_beve_aligned(&d).to_vec(),
    ] {
        let b = &bytes[..];
        assert_eq!(beve::get::<String>(b, "/name").unwrap(), "doc");
        assert_eq!(beve::get::<&str>(b, "/name").unwrap(), "doc");
        assert_eq!(beve::get::<f64>(b, "/floats/2").unwrap(), 2.5);
        assert_eq!(beve::get::<f32>(b, "/floats/1").unwrap(), 1.5);
        assert_eq!(
            beve::get::<Value>(b, "/floats/0").unwrap(),
            Value::from(0.5)
        );
        assert_eq!(beve::get::<u8>(b, "/bytes/1").unwrap(), 8);
        assert_eq!(beve::get::<u64>(b, "/bytes/2").unwrap(), 9);
        for i in 0..20 {
            assert_eq!(
                beve::get::<bool>(b, &format!("/flags/{i}")).unwrap(),
                i % 3 == 0
            );
        }
        assert_eq!(beve::get::<String>(b, "/words/2").unwrap(), "two é");
        assert_eq!(beve::get::<&str>(b, "/words/0").unwrap(), "zero");
        assert_eq!(
            beve::get::<Value>(b, "/words/1").unwrap(),
            Value::from("one")
        );
        assert_eq!(beve::get::<String>(b, "/by_id/-2").unwrap(), "minus two");
        assert_eq!(beve::get::<String>(b, "/by_id/7").unwrap(), "seven");
        assert_eq!(
            beve::get::<u8>(b, &format!("/by_u/{}", u64::MAX)).unwrap(),
            1
        );
        assert_eq!(beve::get::<Option<i16>>(b, "/nested/0/1").unwrap(), None);
        assert_eq!(beve::get::<i16>(b, "/nested/1/0").unwrap(), -3);
        assert_eq!(beve::get::<u8>(b, "/map/a~1b").unwrap(), 1);
        assert_eq!(beve::get::<u8>(b, "/map/m~0n").unwrap(), 2);
        assert_eq!(
            beve::get::<Vec<f64>>(b, "/floats").unwrap(),
            [0.5, 1.5, 2.5]
        );
        let whole: Value = beve::get(b, "").unwrap();
        assert_eq!(whole, structio::from_beve::<Value>(b).unwrap());

        for (p, msg) in [
            (
                "/floats/3",
                "index 3 is out of range for an array of 3 elements",
            ),
            (
                "/flags/20",
                "index 20 is out of range for an array of 20 elements",
            ),
            (
                "/words/-",
                "`-` (past the last element) names no element to read",
            ),
            (
                "/bytes/01",
                "`01` is not an array index (decimal digits without a leading zero)",
            ),
            ("/by_id/8", "no member `8`"),
            ("/by_id/07", "`07` is not an integer key"),
            ("/by_id/x", "`x` is not an integer key"),
            ("/nope", "no member `nope`"),
            (
                "/floats/0/x",
                "`/floats/0` is a number, not an object or an array",
            ),
            (
                "/words/0/0",
                "`/words/0` is a string, not an object or an array",
            ),
            (
                "/flags/0/0",
                "`/flags/0` is a boolean, not an object or an array",
            ),
            ("/name/0", "`/name` is a string, not an object or an array"),
        ] {
            let e = beve::get::<Value>(b, p).unwrap_err();
            assert_eq!(
                e.message(),
                format!("no value at JSON pointer `{p}`: {msg}")
            );
            assert_eq!(e.category(), Category::Data);
        }
        let e = beve::get::<u8>(b, "/floats/1").unwrap_err();
        assert_eq!(e.path(), "$[\"floats\"][1]");
    }
}

#[test]
fn beve_invalid_before_the_target_is_an_error_after_it_is_not_read() {
    // [ "\xFF", 1 ] as a generic array: the bad string comes before element 1.
    let bad_first = [0x05, 0x08, 0x02, 0x04, 0xFF, 0x11, 0x01];
    assert_eq!(
        beve::get::<u8>(&bad_first, "/1").unwrap_err().message(),
        "invalid UTF-8"
    );
    // [ 1, "\xFF" ]: element 0 reads; the rest is not looked at.
    let bad_last = [0x05, 0x08, 0x11, 0x01, 0x02, 0x04, 0xFF];
    assert_eq!(beve::get::<u8>(&bad_last, "/0").unwrap(), 1);
    assert!(structio::from_beve::<Value>(&bad_last).is_err());
    // Trailing bytes after the value are not read either.
    assert_eq!(beve::get::<u8>(&[0x11, 0x05, 0xFF, 0xFF], "").unwrap(), 5);
    // A string array with a bad string before the element.
    let strs = [0x3C, 0x08, 0x04, 0xFF, 0x04, b'a'];
    assert_eq!(
        beve::get::<String>(&strs, "/1").unwrap_err().message(),
        "invalid UTF-8"
    );
    assert!(beve::get::<String>(&strs, "/0").is_err());
    // Counts larger than the input are errors before anything is skipped.
    let huge = [0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00];
    assert!(beve::get::<u8>(&huge, "/0").unwrap_err().is_eof());
    let huge_typed = [0x64, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00];
    assert!(beve::get::<u8>(&huge_typed, "/0").unwrap_err().is_eof());
    // Depth beyond the limit on the way down.
    let mut deep = [0x05, 0x04].repeat(300);
    deep.push(0x00);
    let p = "/0".repeat(300);
    assert_eq!(
        beve::get::<Value>(&deep, &p).unwrap_err().category(),
        Category::Limit
    );
    let mut opts = beve::Options::default();
    opts.read.max_depth = 1000;
    assert_eq!(
        beve::get_with::<Value>(&deep, &p, &opts).unwrap(),
        Value::Null
    );
}

#[test]
fn beve_and_json_agree_on_the_sample_documents() {
    for (name, text) in [
        ("everything", shapes::everything::SAMPLE_JSON),
        ("tree", shapes::tree::TREE_JSON),
        ("doc", DOC),
    ] {
        let whole: Value = structio::from_json(text).unwrap();
        let beve = structio::to_beve(&whole);
        for p in shapes::pointer::pointers(&whole, usize::MAX, 1) {
            shapes::pointer::agrees(text.as_bytes(), Some(&beve), &whole, &p);
            for m in shapes::pointer::misses(&p) {
                shapes::pointer::agrees(text.as_bytes(), Some(&beve), &whole, &m);
            }
        }
        let _ = name;
    }
}

#[test]
fn agreement_with_value_pointer_on_the_corpus() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let text = std::fs::read(dir.join(name)).unwrap();
        let whole: Value = structio::from_json(&text[..]).unwrap();
        let beve = structio::to_beve(&whole);
        // Every value to depth 3, and a sample of the rest, spread over the whole document.
        let mut ps = shapes::pointer::pointers(&whole, usize::MAX, 1);
        let total = ps.len();
        let step = (total / 400).max(1);
        ps = ps
            .into_iter()
            .enumerate()
            .filter(|(i, p)| i.is_multiple_of(step) || p.matches('/').count() <= 2)
            .map(|(_, p)| p)
            .take(800)
            .collect();
        ps.push(
            shapes::pointer::pointers(&whole, usize::MAX, 1)
                .pop()
                .unwrap(),
        );
        for p in &ps {
            shapes::pointer::agrees(&text, Some(&beve), &whole, p);
        }
        for p in ps.iter().take(20) {
            for m in shapes::pointer::misses(p) {
                shapes::pointer::agrees(&text, Some(&beve), &whole, &m);
            }
        }
    }
}

#[test]
fn the_fuzz_oracle_on_small_inputs() {
    for input in [
        &b"/a\n{\"a\": [1, {\"b\": 2}]}"[..],
        b"/a/1/b\n{\"a\": [1, {\"b\": 2}]}",
        b"\n[1, 2, 3]",
        b"/~2\n{}",
        b"/0\n[1,",
        b"{\"a\":1,\"a\":2}",
        b"/\xFF\n{\"\xFF\": 1}",
        b"",
        b"\n\n",
    ] {
        shapes::pointer::json_get(input);
    }
}
