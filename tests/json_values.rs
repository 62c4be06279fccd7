//! `structio::json::values` and `values_from_reader`: consecutive JSON values in one text
//! (`{..} {..}\n{..}`, `1 2 3`, `[1][2]`), as serde_json's `StreamDeserializer` reads them.
//! Items, offsets, separation rules, errors placed in the whole input, borrowed fields, and
//! the reader fed in pieces against the buffer (`shapes::values::values_oracle`, also the
//! `json_values` fuzz target's oracle). Hostile cases: `tests/hostile/streams.rs`.

mod shapes;

use proptest::prelude::*;
use shapes::streams::{said, Pieces};
use shapes::values::{items, values_oracle};
use structio::json::{values, values_from_reader, values_with, Options};
use structio::{Category, ReadOptions, Reflect, UnknownKeys, Value};

#[derive(Reflect, Debug, PartialEq)]
struct Event<'a> {
    id: u32,
    kind: &'a str,
}

#[derive(Reflect, Debug, PartialEq, Clone)]
struct Owned {
    id: u32,
    kind: String,
}

fn all<'de, T: Reflect<'de>>(input: &'de str) -> Vec<T> {
    values::<T>(input).map(Result::unwrap).collect()
}

#[test]
fn many_values_with_mixed_whitespace() {
    let gaps = [" ", "\n", "\r\n", "\t", "  \n\t ", ""];
    let mut text = String::new();
    let mut ends = Vec::new();
    for i in 0..2000u32 {
        text.push_str(gaps[i as usize % gaps.len()]);
        text.push_str(&format!("{{\"id\":{i},\"kind\":\"k{}\"}}", i % 10));
        ends.push(text.len());
    }
    text.push_str(" \n");
    let mut it = values::<Owned>(&text);
    let mut n = 0;
    while let Some(r) = it.next() {
        let v = r.unwrap();
        assert_eq!(v.id, n);
        assert_eq!(v.kind, format!("k{}", n % 10));
        assert_eq!(it.offset(), ends[n as usize]);
        n += 1;
    }
    assert_eq!(n, 2000);
    assert_eq!(it.index(), 2000);
    assert_eq!(it.offset(), text.len() - 2);
    // The reader hands out the same.
    for piece in [1, 3, 7, 64, 100_000] {
        let got: Vec<Owned> = values_from_reader(Pieces::new(text.as_bytes(), &[piece]))
            .map(Result::unwrap)
            .collect();
        assert_eq!(got, all::<Owned>(&text), "pieces of {piece}");
    }
}

#[test]
fn scalars_strings_arrays_and_objects() {
    assert_eq!(all::<i64>("1 2 3"), [1, 2, 3]);
    assert_eq!(all::<i64>(" -1\n\t20\r\n300 "), [-1, 20, 300]);
    assert_eq!(all::<bool>("true false\ntrue"), [true, false, true]);
    assert_eq!(all::<Option<u8>>("null 1 null"), [None, Some(1), None]);
    assert_eq!(all::<f64>("1.5 -2e3"), [1.5, -2000.0]);
    let v: Vec<Value> = all("{} [] \"s\" 1 true null");
    assert_eq!(v.len(), 6);
}

/// Adjacent values without whitespace, as serde_json's `StreamDeserializer` decides: after an
/// array, object or string anything may follow; after a number or literal, whitespace, the end
/// or one of `"[]{},:`.
#[test]
fn adjacent_values_follow_serde_json() {
    assert_eq!(all::<Vec<u8>>("[1][2]"), [[1], [2]]);
    assert_eq!(all::<String>("\"a\"\"b\""), ["a", "b"]);
    assert_eq!(all::<Value>("{}[]\"x\"1").len(), 4);
    assert_eq!(all::<Value>("[1]2").len(), 2);
    assert_eq!(all::<Value>("\"a\"true").len(), 2);
    // A scalar followed by a quote or a bracket: two values.
    assert_eq!(all::<Value>("1\"a\"").len(), 2);
    assert_eq!(all::<Value>("1[2]").len(), 2);
    assert_eq!(all::<Value>("null{}").len(), 2);
    // A scalar followed by what would continue a scalar: an error in place of the value.
    for (text, at) in [("1true", 1), ("truefalse", 4), ("null1", 4), ("1 2x", 3)] {
        let got: Vec<_> = values::<Value>(text).collect();
        let e = got.last().unwrap().as_ref().unwrap_err();
        assert_eq!(e.offset(), at, "{text}: {e}");
        assert_eq!(
            e.message(),
            "expected whitespace or the end after a number or literal",
            "{text}"
        );
    }
    // A scalar followed by `]`, `,` or `:`: the value, then an error at that byte.
    for text in ["1]", "1,2", "true:"] {
        let got: Vec<_> = values::<Value>(text).collect();
        assert_eq!(got.len(), 2, "{text}");
        assert!(got[0].is_ok());
        assert_eq!(
            got[1].as_ref().unwrap_err().offset(),
            text.len() - 1 - usize::from(text == "1,2")
        );
        assert_eq!(got[1].as_ref().unwrap_err().message(), "expected a value");
    }
}

#[test]
fn borrowed_fields() {
    let input = String::from("{\"id\":1,\"kind\":\"open\"}\n{\"id\":2,\"kind\":\"close\"}");
    let events: Vec<Event> = all(&input);
    assert_eq!(
        events,
        [
            Event {
                id: 1,
                kind: "open"
            },
            Event {
                id: 2,
                kind: "close"
            }
        ]
    );
    // The `&str` points into the input.
    let range = input.as_bytes().as_ptr_range();
    assert!(range.contains(&events[1].kind.as_ptr()));
    let words: Vec<&str> = all("\"ab\" \"cd\"");
    assert_eq!(words, ["ab", "cd"]);
}

#[test]
fn offset_after_each_item() {
    let mut it = values::<Value>("  [1] \n {\"a\": 2}3 \"x\"  ");
    assert_eq!(it.offset(), 0);
    let mut offsets = Vec::new();
    while let Some(r) = it.next() {
        r.unwrap();
        offsets.push(it.offset());
    }
    // `{"a": 2}3`: the number right after an object.
    assert_eq!(offsets, [5, 16, 17, 21]);
    assert_eq!(it.offset(), 21);
}

#[test]
fn empty_and_whitespace_only_inputs_give_nothing() {
    for text in ["", " ", "\n\n", " \t\r\n "] {
        assert!(values::<Value>(text).next().is_none(), "{text:?}");
        let mut it = values_from_reader::<Value, _>(text.as_bytes());
        assert!(it.next().is_none(), "{text:?}");
        assert!(it.next().is_none());
        assert_eq!(it.offset(), 0);
    }
}

#[test]
fn trailing_whitespace_is_not_an_item() {
    let mut it = values::<u8>("1 2 \n\t ");
    assert_eq!(it.next().unwrap().unwrap(), 1);
    assert_eq!(it.next().unwrap().unwrap(), 2);
    assert!(it.next().is_none());
    assert_eq!(it.offset(), 3);
}

/// An error in the middle: the values before it, then the error placed in the whole input
/// (offset, line, column, the item's index first in the path), then nothing.
#[test]
fn an_error_mid_stream_ends_the_iteration() {
    let text = "{\"id\":1,\"kind\":\"a\"}\n{\"id\":2,\"kind\":\"b\"}\n  {\"id\":\"x\",\"kind\":\"c\"}\n{\"id\":4,\"kind\":\"d\"}";
    let mut it = values::<Owned>(text);
    assert_eq!(it.next().unwrap().unwrap().id, 1);
    assert_eq!(it.next().unwrap().unwrap().id, 2);
    let before = it.offset();
    let e = it.next().unwrap().unwrap_err();
    let at = text.find("\"x\"").unwrap();
    assert_eq!(e.offset(), at);
    assert_eq!(e.line_column(), Some((3, 9)));
    assert_eq!(e.path(), "$[2].id");
    assert!(it.next().is_none());
    assert!(it.next().is_none());
    assert_eq!(it.offset(), before);
    // Malformed JSON mid-stream.
    let e = values::<Value>("[1]\n[2,,]\n[3]")
        .find_map(Result::err)
        .unwrap();
    assert_eq!((e.offset(), e.line_column()), (7, Some((2, 4))));
    assert_eq!(e.path(), "$[1][1]");
    assert_eq!(e.message(), "expected a value");
}

#[test]
fn a_value_cut_at_the_end() {
    for (text, n) in [
        ("[1] [2", 1),
        ("1 \"ab", 1),
        ("{\"a\":1} {\"b\"", 1),
        ("[1]{", 1),
    ] {
        let got: Vec<_> = values::<Value>(text).collect();
        assert_eq!(got.len(), n + 1, "{text}");
        let e = got[n].as_ref().unwrap_err();
        assert!(e.is_eof(), "{text}: {e}");
        assert_eq!(e.offset(), text.len(), "{text}");
        assert_eq!(e.path().get(..4), Some("$[1]"), "{text}");
    }
    // A number cut at the end is a whole number.
    assert_eq!(all::<u32>("1 23"), [1, 23]);
    let e = values::<f64>("1 2e").nth(1).unwrap().unwrap_err();
    assert_eq!(e.offset(), 4);
}

#[test]
fn options_apply_to_every_value() {
    let opts = Options {
        read: ReadOptions {
            unknown_keys: UnknownKeys::Skip,
            ..Default::default()
        },
        ..Default::default()
    };
    let text = "{\"id\":1,\"kind\":\"a\",\"x\":[]} {\"id\":2,\"kind\":\"b\",\"y\":{}}";
    let got: Vec<Owned> = values_with(text, &opts).map(Result::unwrap).collect();
    assert_eq!(got.len(), 2);
    let got: Vec<Owned> = structio::json::values_from_reader_with(text.as_bytes(), &opts)
        .map(Result::unwrap)
        .collect();
    assert_eq!(got[1].id, 2);
    // Refused by default.
    assert!(values::<Owned>(text).next().unwrap().is_err());
}

#[test]
fn the_reader_limits_one_value() {
    let big = format!("[{}1]", "1,".repeat(5000));
    let text = format!("[1] {big} [2]");
    let mut it = values_from_reader::<Vec<u8>, _>(text.as_bytes()).max_record_len(4096);
    assert_eq!(it.next().unwrap().unwrap(), [1]);
    let e = it.next().unwrap().unwrap_err();
    assert_eq!(e.category(), Category::Limit);
    assert_eq!((e.offset(), e.path()), (4, "$[1]".to_string()));
    assert!(it.next().is_none());
    // Under the limit: read.
    let mut it = values_from_reader::<Vec<u8>, _>(text.as_bytes()).max_record_len(20_000);
    assert_eq!(it.by_ref().filter(Result::is_ok).count(), 3);
}

/// The reader fed in pieces of 1, 3, 7 and 64 bytes hands out the same items, offsets and
/// errors as `values` on the whole input, on good, bad and cut inputs.
#[test]
fn the_reader_in_pieces_agrees_with_the_buffer() {
    let texts: &[&str] = &[
        "",
        "  ",
        "1 2 3",
        "[1][2]\"a\"\"b\"{}",
        "1\"a\"[2]null{}",
        "1true",
        "truefalse",
        "1]",
        "[1]\n[2, x]\n[3]",
        "{\"a\": [1, {\"b\": \"\\u00e9\\n\"}]}\n\n{\"c\": null}  ",
        "[1] [2",
        "\"abc",
        "1 2e",
        "-",
        "[1]}",
        "\"\u{e9}\u{1F600}\" \"x\"",
        "123456789012345678901234567890 1",
        "[[[[[[[[[[]]]]]]]]]] [[",
    ];
    for text in texts {
        values_oracle(text.as_bytes());
        for piece in [1, 3, 7, 64] {
            let streamed: Vec<_> =
                values_from_reader::<Value, _>(Pieces::new(text.as_bytes(), &[piece]))
                    .map(|r| r.map(|v| format!("{v:?}")).map_err(|e| said(&e)))
                    .collect();
            let whole: Vec<_> = items(text.as_bytes()).into_iter().map(|(r, _)| r).collect();
            assert_eq!(streamed, whole, "{text:?} in pieces of {piece}");
        }
    }
    // Invalid UTF-8, a control byte in a string, bytes of every kind.
    for bytes in [
        &b"\"\xFF\" 1"[..],
        b"\"a\x01\"",
        b"[1] \xC3",
        b"\"\xF0\x9F\x98\x80\"\"\xF0\x9F\"",
    ] {
        values_oracle(bytes);
    }
}

/// The golden JSON documents, back to back with and without whitespace: the oracle holds.
#[test]
fn golden_documents_back_to_back() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/formats/json/bench");
    let mut docs: Vec<Vec<u8>> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    docs.sort();
    let joined = docs.join(&b"\n"[..]);
    values_oracle(&joined);
    let tight: Vec<u8> = docs.iter().flat_map(|d| d.trim_ascii().to_vec()).collect();
    values_oracle(&tight);
    let n = values::<Value>(&joined).count();
    assert_eq!(n, docs.len());
}

/// JSON text for a value of every kind, small enough to be cheap.
fn json_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u32>().prop_map(|n| format!("{}.{}e-3", n / 7, n % 1000)),
        Just("true".to_string()),
        Just("false".to_string()),
        Just("null".to_string()),
        "[a-z\u{e9}\u{1F600} \\\\\"]{0,8}".prop_map(|s| {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        }),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5)
                .prop_map(|v| format!("[{}]", v.join(", "))),
            proptest::collection::vec(("[a-z]{0,4}", inner), 0..5).prop_map(|v| {
                let members: Vec<String> = v.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

/// Whether the value written as `text` ends by itself (array, object, string).
fn self_delimited(text: &str) -> bool {
    matches!(text.as_bytes()[0], b'[' | b'{' | b'"')
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Values joined by random whitespace (none where the rules allow it): `values` hands out
    /// what `from_json` reads from each value's text alone, with `offset()` at each value's end;
    /// the reader in pieces of 1, 3, 7 and 64 bytes hands out the same.
    #[test]
    fn values_agree_with_reading_each_item(
        parts in proptest::collection::vec((json_text(), 0usize..6), 0..12),
        tail in 0usize..3,
    ) {
        let gaps = ["", " ", "\n", "\r\n", "\t ", " \n "];
        let mut text = String::new();
        let mut expect = Vec::new();
        let mut prev_delimited = true;
        for (value, gap) in &parts {
            let mut gap = gaps[*gap];
            if gap.is_empty() && !prev_delimited && !self_delimited(value) {
                gap = " ";
            }
            text.push_str(gap);
            text.push_str(value);
            let alone = structio::from_json::<Value>(value).unwrap();
            expect.push((format!("{alone:?}"), text.len()));
            prev_delimited = self_delimited(value);
        }
        text.push_str(gaps[tail]);
        let mut it = values::<Value>(&text);
        let mut got = Vec::new();
        while let Some(r) = it.next() {
            got.push((format!("{:?}", r.unwrap()), it.offset()));
        }
        prop_assert_eq!(&got, &expect);
        for piece in [1, 3, 7, 64] {
            let sizes = [piece];
            let mut it = values_from_reader::<Value, _>(Pieces::new(text.as_bytes(), &sizes));
            let mut streamed = Vec::new();
            while let Some(r) = it.next() {
                streamed.push((format!("{:?}", r.unwrap()), it.offset()));
            }
            prop_assert_eq!(&streamed, &expect);
        }
        values_oracle(text.as_bytes());
    }

    /// Any bytes: the oracle holds (no panic, items agree with `from_json`, the reader agrees).
    #[test]
    fn the_oracle_holds_on_any_text(text in "[ \n\\[\\]{}\",:0-9a-z\\\\.eE+-]{0,40}") {
        values_oracle(text.as_bytes());
    }
}
