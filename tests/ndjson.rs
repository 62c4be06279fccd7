//! Newline-delimited JSON: what is written (Glaze's `write_ndjson` layout), what is read
//! (line ends, blank lines, records across lines), and how errors are located.

use std::collections::BTreeMap;

use structio::json::{
    from_ndjson, read_ndjson, read_ndjson_with, to_ndjson, to_ndjson_with, write_ndjson,
    FloatStyle, JsonLines, LinesWriter, Options,
};
use structio::{Reflect, Value};

/// Every member may be left out (the records here are partial).
#[derive(Reflect, Default, Debug, PartialEq, Clone)]
#[structio(default)]
struct Event {
    id: u32,
    kind: String,
    tags: Vec<String>,
    score: Option<f64>,
}

fn ev(id: u32, kind: &str) -> Event {
    Event {
        id,
        kind: kind.into(),
        tags: vec![format!("t{id}")],
        score: id.is_multiple_of(2).then_some(id as f64 / 4.0),
    }
}

#[test]
fn records_are_compact_and_joined_by_single_line_breaks() {
    let events = vec![ev(1, "open"), ev(2, "line\nbreak"), ev(3, "é")];
    let text = to_ndjson(&events);
    let lines: Vec<String> = events.iter().map(structio::to_json).collect();
    assert_eq!(text, lines.join("\n"));
    // A line break inside a string is escaped, so every record is one line.
    assert_eq!(text.lines().count(), 3);
    assert!(!text.ends_with('\n'));
    assert_eq!(to_ndjson::<Event>(&[]), "");
    assert_eq!(to_ndjson(&[1u8]), "1");

    // `write_ndjson` appends; `pretty` is ignored; other options apply.
    let mut out = b"head:".to_vec();
    write_ndjson(&[1.5f64, 2.0], &mut out);
    assert_eq!(out, b"head:1.5\n2");
    let opts = Options {
        pretty: true,
        float_style: FloatStyle::Serde,
        write_null_members: true,
        ..Options::default()
    };
    assert_eq!(
        to_ndjson_with(&[ev(1, "a")], &opts),
        r#"{"id":1,"kind":"a","tags":["t1"],"score":null}"#
    );

    let mut w = LinesWriter::new();
    w.push(&ev(4, "x"));
    w.push(&vec![1u8, 2]);
    w.push(&"s");
    assert_eq!(w.count(), 3);
    assert_eq!(
        w.into_bytes(),
        br#"{"id":4,"kind":"x","tags":["t4"],"score":1}
[1,2]
"s""#
    );
}

#[test]
fn what_is_written_reads_back() {
    let events: Vec<Event> = (0..50).map(|i| ev(i, "k")).collect();
    assert_eq!(from_ndjson::<Event>(&to_ndjson(&events)).unwrap(), events);
    let maps = vec![BTreeMap::from([("a".to_string(), 1i64)]), BTreeMap::new()];
    assert_eq!(
        from_ndjson::<BTreeMap<String, i64>>(&to_ndjson(&maps)).unwrap(),
        maps
    );
    let values: Vec<Value> = from_ndjson("1\n\"two\"\n[3]\n{\"four\":4}\nnull").unwrap();
    assert_eq!(values.len(), 5);
    assert_eq!(values[3]["four"], Value::from(4));
}

#[test]
fn line_ends_blank_lines_and_multi_line_records_are_read() {
    let want = vec![ev(1, "a"), ev(2, "b")];
    let one = structio::to_json(&want[0]);
    let two = structio::to_json(&want[1]);
    let pretty_two = structio::prettify(&two).unwrap();
    for text in [
        format!("{one}\n{two}"),
        format!("{one}\n{two}\n"),
        format!("{one}\r\n{two}\r\n"),
        format!("\n\n  {one}  \n\n\t{two}\n\n"),
        format!("{one}\n{pretty_two}"),
        format!("{one} \r\n \r\n{two}"),
    ] {
        assert_eq!(from_ndjson::<Event>(&text).unwrap(), want, "{text:?}");
    }
    for empty in ["", "\n", " \r\n\t\n"] {
        assert!(from_ndjson::<Event>(empty).unwrap().is_empty());
        assert!(JsonLines::new(empty).next().is_none());
    }
}

#[test]
fn records_sharing_a_line_are_an_error() {
    // A comma after a record is not a separator either (the reader moves past a comma after
    // a value inside arrays and objects; a record must not).
    for (text, at) in [
        ("1 2", 2),
        ("{}{}", 2),
        ("[1]\n[2] [3]", 8),
        ("1\r2", 2),
        ("[1],\n[2]", 3),
        ("{\"a\":1} ,", 8),
        ("\"s\",", 3),
    ] {
        let err = from_ndjson::<Value>(text).unwrap_err();
        assert!(
            err.to_string()
                .contains("expected a line break after the record"),
            "{text:?}: {err}"
        );
        assert_eq!(err.offset(), at, "{text:?}");
    }
}

#[test]
fn errors_give_the_line_and_the_record() {
    let text = "{\"id\":1,\"kind\":\"a\"}\n\n{\"id\":\"x\"}\n{\"id\":3}";
    let err = from_ndjson::<Event>(text).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("at 3:7"), "{msg}");
    assert!(msg.contains("path $[1].id"), "{msg}");
    assert_eq!(err.offset(), 27);

    // A truncated last record.
    let err = from_ndjson::<Event>("{\"id\":1}\n{\"id\":").unwrap_err();
    assert!(err.is_eof(), "{err}");
    // Unknown keys follow the options.
    let text = "{\"id\":1,\"extra\":true}";
    assert!(from_ndjson::<Event>(text).is_err());
    let mut opts = Options::default();
    opts.read.unknown_keys = structio::UnknownKeys::Skip;
    let mut out: Vec<Event> = Vec::new();
    read_ndjson_with(&mut out, text, &opts).unwrap();
    assert_eq!(
        out,
        [Event {
            id: 1,
            ..Event::default()
        }]
    );
    // The depth limit counts within each record.
    let mut opts = Options::default();
    opts.read.max_depth = 2;
    let mut out: Vec<Value> = Vec::new();
    read_ndjson_with(&mut out, "[[1]]\n[[2]]", &opts).unwrap();
    assert!(read_ndjson_with(&mut out, "[[1]]\n[[[2]]]", &opts).is_err());
}

#[test]
fn reading_into_a_vector_reuses_its_elements() {
    let mut out = vec![ev(10, "old"), ev(11, "old"), ev(12, "old")];
    out[0].kind.reserve(256);
    let ptr = out[0].kind.as_ptr();
    read_ndjson(&mut out, "{\"id\":1,\"kind\":\"new\"}\n{\"kind\":\"k\"}").unwrap();
    // Two records: the third element is gone; members a record leaves out take what a fresh
    // read gives (`Event` is `#[structio(default)]`), and buffers are reused.
    assert_eq!(out.len(), 2);
    assert_eq!((out[0].id, out[0].kind.as_str()), (1, "new"));
    assert!(out[0].tags.is_empty());
    assert_eq!(out[0].kind.as_ptr(), ptr);
    assert_eq!((out[1].id, out[1].kind.as_str()), (0, "k"));
    // More records than elements: new ones start from the default.
    read_ndjson(&mut out, "{\"id\":1}\n{\"id\":2}\n{\"id\":3}").unwrap();
    assert_eq!(out.len(), 3);
    assert_eq!(
        out[2],
        Event {
            id: 3,
            ..Event::default()
        }
    );
    read_ndjson(&mut out, "").unwrap();
    assert!(out.is_empty());
}

#[test]
fn the_iterator_reads_records_of_any_type_and_stops_at_an_error() {
    let text = "{\"id\":5}\n[1,2,3]\n\"s\"\n{\"id\":oops}\n7";
    let mut lines = JsonLines::new(text);
    assert_eq!(lines.read::<Event>().unwrap().unwrap().id, 5);
    let mut v = vec![9u8; 10];
    lines.read_into(&mut v).unwrap().unwrap();
    assert_eq!(v, [1, 2, 3]);
    assert_eq!(lines.index(), 2);
    assert_eq!(lines.next().unwrap().unwrap(), b"\"s\"");
    let err = lines.next().unwrap().unwrap_err();
    assert!(err.to_string().contains("path $[3]"), "{err}");
    assert!(lines.next().is_none());

    // As an iterator: each record's bytes, without the whitespace around it.
    let raw: Vec<&[u8]> = JsonLines::new(" 1 \n {\"a\" : [ ] }\r\n")
        .collect::<structio::Result<_>>()
        .unwrap();
    assert_eq!(raw, [&b"1"[..], &b"{\"a\" : [ ] }"[..]]);
    let mut bad = JsonLines::new("1\n[1,\n2");
    assert!(bad.next().unwrap().is_ok());
    assert!(bad.next().unwrap().unwrap_err().is_eof());
    assert!(bad.next().is_none());
}
