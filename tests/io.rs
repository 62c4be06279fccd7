//! Files and `std::io`: `to_writer`/`from_reader` in both formats, the stream readers
//! (`JsonLines::from_reader`, `Delimited::from_reader`, `array_iter`) against the in-memory
//! readers on whole inputs, cut inputs and altered inputs fed in pieces of every size, I/O
//! failures, record limits, and Glaze's file helpers (errors naming the file, atomic writes).
//! Bounded memory on a 2 GB stream and hostile streams: `tests/hostile/streams.rs`.

mod shapes;

use std::borrow::Cow;
use std::io::{self, Read, Write};
use std::path::Path;

use shapes::everything::SAMPLE_JSON;
use shapes::streams::{array_same, delimited_same, ndjson_same, said, streams, Pieces};
use structio::beve::{to_delimited, Delimited};
use structio::json::{array_iter, JsonLines};
use structio::{Category, Reflect, Value};

/// Every member may be left out (the records here are partial).
#[derive(Reflect, Default, Debug, PartialEq, Clone)]
#[structio(default)]
struct Event {
    id: u32,
    kind: String,
    tags: Vec<String>,
    score: Option<f64>,
}

fn ev(id: u32) -> Event {
    Event {
        id,
        kind: format!("kind {id} \u{e9}\u{1F600} \"q\""),
        tags: (0..id % 4).map(|t| format!("t{t}")).collect(),
        score: id.is_multiple_of(2).then_some(id as f64 / 4.0),
    }
}

/// Reads `data`, then fails with `kind`.
struct FailAfter<'a> {
    data: &'a [u8],
    kind: io::ErrorKind,
}

impl Read for FailAfter<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.data.is_empty() {
            return Err(io::Error::new(self.kind, "cable cut"));
        }
        let n = out.len().min(self.data.len()).min(1000);
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Takes `room` bytes, then fails.
struct Full {
    room: usize,
    got: Vec<u8>,
}

impl Write for Full {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        if self.room == 0 {
            return Err(io::Error::new(io::ErrorKind::StorageFull, "no room"));
        }
        let n = b.len().min(self.room);
        self.got.extend_from_slice(&b[..n]);
        self.room -= n;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// An I/O error: category, `io_error`, `source` and the message agree.
#[track_caller]
fn check_io_error(e: &structio::Error, kind: io::ErrorKind, message: &str) {
    assert_eq!(e.category(), Category::Io, "{e}");
    assert_eq!(e.io_error().map(io::Error::kind), Some(kind), "{e}");
    let source = std::error::Error::source(e).expect("an I/O error has a source");
    let io = source
        .downcast_ref::<io::Error>()
        .expect("the source is the io::Error");
    assert_eq!(io.kind(), kind);
    assert_eq!(e.message(), message);
}

#[test]
fn one_value_through_writers_and_readers() {
    let events: Vec<Event> = (0..50).map(ev).collect();
    let mut out = Vec::new();
    structio::json::to_writer(&mut out, &events).unwrap();
    assert_eq!(out, structio::to_json(&events).as_bytes());
    let back: Vec<Event> = structio::json::from_reader(Pieces::new(&out, &[7, 1, 300])).unwrap();
    assert_eq!(back, events);

    let pretty = structio::json::Options {
        pretty: true,
        ..Default::default()
    };
    let mut out = Vec::new();
    structio::json::to_writer_with(&mut out, &events, &pretty).unwrap();
    assert_eq!(
        out,
        structio::json::to_json_with(&events, &pretty).as_bytes()
    );
    let back: Vec<Event> = structio::json::from_reader_with(&out[..], &pretty).unwrap();
    assert_eq!(back, events);

    let mut out = Vec::new();
    structio::beve::to_writer(&mut out, &events).unwrap();
    assert_eq!(out, structio::to_beve(&events));
    let back: Vec<Event> = structio::beve::from_reader(Pieces::new(&out, &[5, 4096])).unwrap();
    assert_eq!(back, events);
    let aligned = structio::beve::Options {
        aligned_arrays: true,
        ..Default::default()
    };
    let xs = vec![1.5f64, 2.5, -3.0];
    let mut out = vec![];
    structio::beve::to_writer_with(&mut out, &xs, &aligned).unwrap();
    assert_eq!(out, structio::beve::to_beve_with(&xs, &aligned));
    let back: Vec<f64> = structio::beve::from_reader_with(&out[..], &aligned).unwrap();
    assert_eq!(back, xs);

    // Parse errors are the in-memory ones.
    let e = structio::json::from_reader::<Vec<u8>, _>(&b"[1, 300]"[..]).unwrap_err();
    assert_eq!(
        e.to_string(),
        structio::from_json::<Vec<u8>>("[1, 300]")
            .unwrap_err()
            .to_string()
    );
    let e = structio::beve::from_reader::<String, _>(&[0x09u8, 7][..]).unwrap_err();
    assert_eq!(e.to_string(), "expected a string, found a number at byte 0");
}

#[test]
fn io_failures_are_io_errors_and_return_no_value() {
    let text = structio::to_json(&(0..1000).map(ev).collect::<Vec<_>>());
    let half = &text.as_bytes()[..text.len() / 2];
    let r = FailAfter {
        data: half,
        kind: io::ErrorKind::ConnectionReset,
    };
    let e = structio::json::from_reader::<Vec<Event>, _>(r).unwrap_err();
    check_io_error(&e, io::ErrorKind::ConnectionReset, "read failed: cable cut");
    assert_eq!(e.offset(), half.len());
    assert_eq!(
        e.to_string(),
        format!("read failed: cable cut at byte {}", half.len())
    );

    let bytes = structio::to_beve(&(0..1000).map(ev).collect::<Vec<_>>());
    let r = FailAfter {
        data: &bytes[..100],
        kind: io::ErrorKind::UnexpectedEof,
    };
    let e = structio::beve::from_reader::<Vec<Event>, _>(r).unwrap_err();
    check_io_error(&e, io::ErrorKind::UnexpectedEof, "read failed: cable cut");
    assert_eq!(e.offset(), 100);

    let mut w = Full {
        room: 10,
        got: Vec::new(),
    };
    let e = structio::json::to_writer(&mut w, &ev(3)).unwrap_err();
    check_io_error(&e, io::ErrorKind::StorageFull, "write failed: no room");
    assert_eq!(e.to_string(), "write failed: no room");
    let mut w = Full {
        room: 3,
        got: Vec::new(),
    };
    let e = structio::beve::to_writer(&mut w, &ev(3)).unwrap_err();
    check_io_error(&e, io::ErrorKind::StorageFull, "write failed: no room");
    // Other errors have no I/O error behind them.
    let e = structio::from_json::<u8>("x").unwrap_err();
    assert!(e.io_error().is_none() && std::error::Error::source(&e).is_none());
}

/// Records the size of every `write` call it gets.
struct Chunks {
    sizes: Vec<usize>,
    bytes: Vec<u8>,
}

impl Write for Chunks {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.sizes.push(buf.len());
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn to_writer_streams_in_bounded_chunks() {
    // About 6 MB of output in either format: it must leave in chunks, not in one write of the
    // whole (the writer holds at most its 64 KiB chunk plus one value's text).
    let events: Vec<Event> = (0..60_000).map(ev).collect();
    let mut w = Chunks {
        sizes: Vec::new(),
        bytes: Vec::new(),
    };
    structio::json::to_writer(&mut w, &events).unwrap();
    assert_eq!(w.bytes, structio::to_json(&events).as_bytes());
    assert!(w.sizes.len() > 10, "{} writes", w.sizes.len());
    assert!(
        w.sizes.iter().all(|&n| n <= 256 << 10),
        "{:?}",
        w.sizes.iter().max()
    );

    // A BEVE generic array knows its count up front, so it streams too.
    let mut w = Chunks {
        sizes: Vec::new(),
        bytes: Vec::new(),
    };
    structio::beve::to_writer(&mut w, &events).unwrap();
    assert_eq!(w.bytes, structio::to_beve(&events));
    assert!(w.sizes.len() > 10, "{} writes", w.sizes.len());
    assert!(
        w.sizes.iter().all(|&n| n <= 256 << 10),
        "{:?}",
        w.sizes.iter().max()
    );
}

/// Piece sizes the readers are fed in: every read short, or whole.
const PIECES: [&[usize]; 6] = [&[1], &[2, 1], &[3, 1, 7], &[64], &[1000, 1], &[1 << 20]];

/// NDJSON documents: blank lines, `\r\n`, records across lines, scalars, strings with escapes
/// and multi-byte characters, bad records and bad separators.
fn ndjson_docs() -> Vec<Vec<u8>> {
    let events: Vec<Event> = (0..6).map(ev).collect();
    let mut docs: Vec<Vec<u8>> = vec![
        structio::json::to_ndjson(&events).into_bytes(),
        b"{\"id\":1}\r\n\r\n  {\"id\":2,\n \"kind\" : \"a\\u00e9\\n\"}\n\n".to_vec(),
        b"1\n-2.5e3\ntrue\nnull\n\"s\\\"\"\n[]\n{}\n".to_vec(),
        b"12x\n".to_vec(),
        b"[1] [2]\n".to_vec(),
        b"{\"id\": 1}\n{\"id\": \"x\"}\n{\"id\": 3}".to_vec(),
        b"\n\n   \n".to_vec(),
        b"".to_vec(),
        b"[[[[[[[[[[]]]]]]]]]]\n{\"a\":{\"b\":[1,{\"c\":\"}]\"}]}}\n".to_vec(),
        b"\"\\ud83d\\ude00\" \n \"\xF0\x9F\x98\x80\"\n".to_vec(),
        b"-\n".to_vec(),
        b"]\n".to_vec(),
        b"{\"id\":1}}\n".to_vec(),
        b"\"abc\x01\"\n".to_vec(),
        b"\"\xFF\"\n".to_vec(),
        b"tru\n".to_vec(),
        b"-Infinity\n".to_vec(),
    ];
    let mut pretty = Vec::new();
    for e in &events {
        let opts = structio::json::Options {
            pretty: true,
            ..Default::default()
        };
        pretty.extend_from_slice(structio::json::to_json_with(e, &opts).as_bytes());
        pretty.push(b'\n');
    }
    docs.push(pretty);
    docs.push(SAMPLE_JSON.as_bytes().to_vec());
    docs
}

/// `doc`, every prefix of it (every 7th for long ones) and single-byte changes to it.
fn variants(doc: &[u8], changes: &[u8]) -> Vec<Vec<u8>> {
    let step = if doc.len() > 300 { 7 } else { 1 };
    let mut out: Vec<Vec<u8>> = (0..doc.len())
        .step_by(step)
        .map(|n| doc[..n].to_vec())
        .collect();
    for i in (0..doc.len()).step_by(step * 3) {
        for &c in changes {
            let mut d = doc.to_vec();
            d[i] = c;
            out.push(d);
        }
    }
    out.push(doc.to_vec());
    out
}

#[test]
fn ndjson_streams_read_what_memory_reads() {
    for doc in ndjson_docs() {
        for v in variants(&doc, b"\n ]\"\\x") {
            for sizes in PIECES {
                ndjson_same::<Value>(&v, sizes);
                ndjson_same::<Event>(&v, sizes);
            }
        }
    }
}

#[test]
fn delimited_streams_read_what_memory_reads() {
    let events: Vec<Event> = (0..6).map(ev).collect();
    let values: Vec<Value> = ndjson_docs()
        .iter()
        .filter_map(|d| structio::json::from_ndjson::<Value>(d).ok())
        .flatten()
        .collect();
    let mut docs = vec![
        to_delimited(&events),
        to_delimited(&values),
        [&[0x06u8][..], &to_delimited(&events[..2]), &[0x06]].concat(),
        [0x06, 0x06].to_vec(),
        [0x09, 1, 0x09, 2].to_vec(),
        Vec::new(),
        structio::to_beve_aligned(&vec![1.5f64, 2.5]).to_vec(),
    ];
    let mut tagged = structio::to_beve(&std::collections::BTreeMap::from([(3u16, vec![true; 9])]));
    tagged.push(0x06);
    tagged.extend_from_slice(&[
        0x0E, 0x04, 0x05, 0x08, 0x00, 0x08, 0x18, 0x09, 7, 0x02, 0x04, b'a', 0x1C, 0x08, 0x01,
        0x3C, 0x04, 0x04, b'x',
    ]);
    docs.push(tagged);
    for doc in docs {
        for v in variants(&doc, &[0x06, 0x00, 0xFF, 0x05, 0x03, 0x02]) {
            for sizes in PIECES {
                delimited_same::<Value>(&v, sizes);
                delimited_same::<Event>(&v, sizes);
            }
        }
    }
}

#[test]
fn array_iter_reads_what_from_json_reads() {
    let events: Vec<Event> = (0..6).map(ev).collect();
    let docs: Vec<Vec<u8>> = vec![
        structio::to_json(&events).into_bytes(),
        b" [ 1 , 2,3 ] \n".to_vec(),
        b"[]".to_vec(),
        b"[ ]  ".to_vec(),
        b"[1,]".to_vec(),
        b"[1 2]".to_vec(),
        b"[1,2] x".to_vec(),
        b"{\"a\":1}".to_vec(),
        b"".to_vec(),
        b"  ".to_vec(),
        b"[[[[]]]]".to_vec(),
        b"[\"a\\\"]\", \"\xC3\xA9\", -0.5e-3, true, null, {}]".to_vec(),
        b"[12x]".to_vec(),
        SAMPLE_JSON.as_bytes().to_vec(),
        format!("[{}]", SAMPLE_JSON).into_bytes(),
    ];
    for doc in docs {
        for v in variants(&doc, b",] \"x") {
            for sizes in PIECES {
                array_same::<Value>(&v, sizes);
                array_same::<Event>(&v, sizes);
            }
        }
    }
}

#[test]
fn the_fuzz_oracle_runs_on_every_kind_of_input() {
    let mut inputs = ndjson_docs();
    inputs.push(to_delimited(&(0..4).map(ev).collect::<Vec<_>>()));
    inputs.push(structio::to_json(&(0..4).map(ev).collect::<Vec<_>>()).into_bytes());
    for doc in inputs {
        for sel in 0..5u8 {
            streams(&[&[sel][..], &doc].concat());
        }
    }
}

#[test]
fn stream_errors_are_placed_in_the_whole_stream() {
    // Far more than a buffer of records before the bad one, so the buffer was refilled and
    // moved many times; then the bad record on a line of its own.
    let mut text = structio::json::to_ndjson(&(0..20_000).map(ev).collect::<Vec<_>>());
    text.push_str("\n\n  {\"id\": 1,\n   \"kind\": 5}\n");
    let mut in_memory = JsonLines::new(&text);
    let whole = loop {
        if let Err(e) = in_memory.read::<Event>().unwrap() {
            break e;
        }
    };
    let mut lines = JsonLines::from_reader(Pieces::new(text.as_bytes(), &[4000, 17]));
    let mut n = 0;
    let e = loop {
        match lines.read::<Event>().unwrap() {
            Ok(_) => n += 1,
            Err(e) => break e,
        }
    };
    assert_eq!(n, 20_000);
    assert_eq!(said(&e), said(&whole));
    assert_eq!(e.line_column(), Some((20_003, 12)));
    assert_eq!(e.path(), "$[20000].kind");
    // The source line is shown whole, as in memory.
    assert_eq!(e.to_string(), whole.to_string());
    assert!(lines.read::<Event>().is_none());

    // The same for BEVE offsets and array elements.
    let mut bytes = to_delimited(&(0..20_000).map(ev).collect::<Vec<_>>());
    let bad_at = bytes.len() + 1;
    bytes.extend_from_slice(&[0x06, 0x07]);
    let mut seq = Delimited::from_reader(Pieces::new(&bytes, &[4000, 17]));
    let mut n = 0;
    let e = loop {
        match seq.read::<Event>().unwrap() {
            Ok(_) => n += 1,
            Err(e) => break e,
        }
    };
    assert_eq!(n, 20_000);
    assert_eq!(e.offset(), bad_at);
    assert_eq!(e.message(), "expected an object, found a reserved header");

    let mut text = structio::to_json(&(0..20_000).map(ev).collect::<Vec<_>>());
    text.insert_str(text.len() - 1, ",\n {\"id\": -1}");
    let whole = structio::from_json::<Vec<Event>>(&text).unwrap_err();
    let mut it = array_iter::<Event, _>(Pieces::new(text.as_bytes(), &[4000, 17]));
    assert_eq!(
        it.by_ref().take(20_000).filter(Result::is_ok).count(),
        20_000
    );
    let e = it.next().unwrap().unwrap_err();
    assert_eq!(said(&e), said(&whole));
    assert_eq!(e.to_string(), whole.to_string());
    assert!(it.next().is_none());
}

#[test]
fn an_io_failure_midway_ends_a_stream_with_an_io_error() {
    let text = structio::json::to_ndjson(&(0..1000).map(ev).collect::<Vec<_>>());
    let cut = text.len() / 2;
    let mut lines = JsonLines::from_reader(FailAfter {
        data: &text.as_bytes()[..cut],
        kind: io::ErrorKind::TimedOut,
    });
    let mut n = 0;
    let e = loop {
        match lines.read::<Event>().unwrap() {
            Ok(e) => {
                assert_eq!(e, ev(n));
                n += 1;
            }
            Err(e) => break e,
        }
    };
    let complete = text[..cut].matches('\n').count() as u32;
    assert!(
        n == complete || n == complete + 1,
        "{n} records of {complete}"
    );
    check_io_error(&e, io::ErrorKind::TimedOut, "read failed: cable cut");
    assert_eq!(e.offset(), cut);
    assert!(lines.read::<Event>().is_none());

    let bytes = to_delimited(&(0..1000).map(ev).collect::<Vec<_>>());
    let mut seq = Delimited::from_reader(FailAfter {
        data: &bytes[..bytes.len() / 2],
        kind: io::ErrorKind::TimedOut,
    });
    let e = loop {
        if let Err(e) = seq.read::<Event>().unwrap() {
            break e;
        }
    };
    check_io_error(&e, io::ErrorKind::TimedOut, "read failed: cable cut");
    assert!(seq.read::<Event>().is_none());

    let text = structio::to_json(&(0..1000).map(ev).collect::<Vec<_>>());
    let it = array_iter::<Event, _>(FailAfter {
        data: &text.as_bytes()[..text.len() / 2],
        kind: io::ErrorKind::TimedOut,
    });
    let last = it.last().unwrap().unwrap_err();
    check_io_error(&last, io::ErrorKind::TimedOut, "read failed: cable cut");
}

#[test]
fn a_truncated_last_record_is_an_end_of_input_error() {
    let text = "{\"id\":1}\n{\"id\":2,\"kind\":\"ab";
    let mut lines = JsonLines::from_reader(text.as_bytes());
    assert_eq!(lines.read::<Event>().unwrap().unwrap().id, 1);
    let e = lines.read::<Event>().unwrap().unwrap_err();
    assert!(e.is_eof(), "{e}");
    assert_eq!(e.offset(), text.len());
    assert_eq!(e.path(), "$[1].kind");
    assert!(lines.read::<Event>().is_none());

    let bytes = to_delimited(&[ev(1), ev(2)]);
    let mut seq = Delimited::from_reader(&bytes[..bytes.len() - 3]);
    assert_eq!(seq.read::<Event>().unwrap().unwrap(), ev(1));
    let e = seq.read::<Event>().unwrap().unwrap_err();
    assert!(e.is_eof(), "{e}");

    let e = array_iter::<u8, _>(&b"[1, 2"[..])
        .last()
        .unwrap()
        .unwrap_err();
    assert!(e.is_eof(), "{e}");
    assert_eq!(e.offset(), 5);
}

#[test]
fn records_longer_than_the_limit_are_limit_errors() {
    let long = format!("{{\"id\":7,\"kind\":\"{}\"}}", "k".repeat(5000));
    let text = format!("{{\"id\":1}}\n  {long}\n{{\"id\":3}}\n");
    // Under the limit it reads; over it, an error at the record's start naming the record.
    let mut lines =
        JsonLines::from_reader(Pieces::new(text.as_bytes(), &[100])).max_record_len(long.len());
    assert_eq!(lines.by_ref_count(), 3);
    let mut lines =
        JsonLines::from_reader(Pieces::new(text.as_bytes(), &[100])).max_record_len(long.len() - 1);
    assert_eq!(lines.read::<Event>().unwrap().unwrap().id, 1);
    let e = lines.read::<Event>().unwrap().unwrap_err();
    assert_eq!(e.category(), Category::Limit);
    assert_eq!(
        e.message(),
        format!("record larger than the limit of {} bytes", long.len() - 1)
    );
    assert_eq!((e.offset(), e.line_column()), (11, Some((2, 3))));
    assert_eq!(e.path(), "$[1]");
    assert!(lines.read::<Event>().is_none());

    let bytes = to_delimited(&[ev(1), ev(2), ev(3)]);
    let size = structio::to_beve(&ev(2)).len();
    let mut seq = Delimited::from_reader(Pieces::new(&bytes, &[5])).max_record_len(size);
    assert!((0..3).all(|_| seq.read::<Event>().unwrap().is_ok()));
    let mut seq = Delimited::from_reader(Pieces::new(&bytes, &[5])).max_record_len(size - 1);
    assert_eq!(seq.read::<Event>().unwrap().unwrap(), ev(1));
    let e = seq.read::<Event>().unwrap().unwrap_err();
    assert_eq!(e.category(), Category::Limit);
    assert_eq!(e.offset(), structio::to_beve(&ev(1)).len() + 1);

    let text = format!("[1, \"{}\", 3]", "s".repeat(3000));
    let got: Vec<_> = array_iter::<Value, _>(text.as_bytes())
        .max_record_len(3002)
        .collect();
    assert!(got.iter().all(Result::is_ok) && got.len() == 3);
    let got: Vec<_> = array_iter::<Value, _>(text.as_bytes())
        .max_record_len(3001)
        .collect();
    let e = got[1].as_ref().unwrap_err();
    assert_eq!(e.category(), Category::Limit);
    assert_eq!((e.offset(), e.path()), (4, "$[1]".to_string()));
    assert_eq!(got.len(), 2);
}

/// Counting records through `read::<Value>`.
trait CountRecords {
    fn by_ref_count(&mut self) -> usize;
}

impl<R: Read> CountRecords for structio::json::LinesReader<R> {
    fn by_ref_count(&mut self) -> usize {
        let mut n = 0;
        while let Some(r) = self.read::<Value>() {
            r.unwrap();
            n += 1;
        }
        n
    }
}

#[test]
fn stream_records_can_be_borrowed_and_reused() {
    #[derive(Reflect, Default, Debug)]
    struct Borrowed<'a> {
        id: u32,
        kind: &'a str,
        tags: Vec<Cow<'a, str>>,
        score: Option<f64>,
    }
    let text =
        structio::json::to_ndjson(&(0..100).map(ev).collect::<Vec<_>>()).replace("\\\"", "'");
    let mut lines = JsonLines::from_reader(Pieces::new(text.as_bytes(), &[50]));
    let mut n = 0;
    while let Some(r) = lines.read::<Borrowed>() {
        let b = r.unwrap();
        assert!(b.kind.starts_with(&format!("kind {n} ")), "{}", b.kind);
        assert_eq!(b.id, n);
        assert!(b.tags.iter().all(|t| matches!(t, Cow::Borrowed(_))));
        n += 1;
    }
    assert_eq!(n, 100);

    // read_into reuses the value; members a record leaves out take what a fresh read gives
    // (`Event` is `#[structio(default)]`: its `Default`'s members).
    let mut lines = JsonLines::from_reader(&b"{\"id\":1,\"kind\":\"a\"}\n{\"id\":2}\n"[..]);
    let mut e = Event::default();
    lines.read_into(&mut e).unwrap().unwrap();
    lines.read_into(&mut e).unwrap().unwrap();
    assert_eq!((e.id, e.kind.as_str()), (2, ""));
    assert_eq!((lines.index(), lines.offset()), (2, 28));
    assert!(lines.read_into(&mut e).is_none());

    let bytes = to_delimited(&["abc", "de"]);
    let mut seq = Delimited::from_reader(&bytes[..]);
    assert_eq!(seq.read::<&str>().unwrap().unwrap(), "abc");
    assert_eq!(seq.offset(), 5);
    let mut s = String::with_capacity(64);
    seq.read_into(&mut s).unwrap().unwrap();
    assert_eq!(
        (s.as_str(), s.capacity() >= 64, seq.index()),
        ("de", true, 2)
    );
    assert!(seq.read_into(&mut s).is_none());

    let mut it = array_iter::<Vec<u8>, _>(&b"[[1,2],[3]]"[..]);
    let mut v = Vec::with_capacity(16);
    it.read_into(&mut v).unwrap().unwrap();
    it.read_into(&mut v).unwrap().unwrap();
    assert_eq!(
        (v.as_slice(), v.capacity() >= 16, it.index()),
        (&[3u8][..], true, 2)
    );
    assert!(it.read_into(&mut v).is_none());
}

#[test]
fn a_long_record_arriving_in_small_pieces_is_read_in_linear_time() {
    // 8 MB records in 1 KiB reads: a record scanned again at every read would take minutes.
    let big = Event {
        kind: "x".repeat(8 << 20),
        tags: vec!["t".repeat(100); 20_000],
        ..ev(1)
    };
    let text = structio::json::to_ndjson(&[big.clone(), ev(2)]);
    let start = std::time::Instant::now();
    let mut lines = JsonLines::from_reader(Pieces::new(text.as_bytes(), &[1024]));
    assert_eq!(lines.read::<Event>().unwrap().unwrap(), big);
    assert_eq!(lines.read::<Event>().unwrap().unwrap(), ev(2));
    let bytes = to_delimited(&[big.clone(), ev(2)]);
    let mut seq = Delimited::from_reader(Pieces::new(&bytes, &[1024]));
    assert_eq!(seq.read::<Event>().unwrap().unwrap(), big);
    assert_eq!(seq.read::<Event>().unwrap().unwrap(), ev(2));
    let nested = vec![vec![ev(1); 20_000]; 3];
    let bytes = to_delimited(std::slice::from_ref(&nested));
    let mut seq = Delimited::from_reader(Pieces::new(&bytes, &[1024]));
    assert_eq!(seq.read::<Vec<Vec<Event>>>().unwrap().unwrap(), nested);
    let limit = if cfg!(debug_assertions) { 60 } else { 10 };
    assert!(start.elapsed().as_secs() < limit, "{:?}", start.elapsed());
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Config {
    name: String,
    port: u8,
}

#[test]
fn files_are_read_and_written_and_errors_name_them() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let c = Config {
        name: "svc".into(),
        port: 80,
    };
    structio::write_file_json(&c, at("c.json")).unwrap();
    assert_eq!(
        std::fs::read_to_string(at("c.json")).unwrap(),
        structio::to_json(&c)
    );
    assert_eq!(structio::read_file_json::<Config>(at("c.json")).unwrap(), c);
    structio::write_file_beve(&c, at("c.beve")).unwrap();
    assert_eq!(std::fs::read(at("c.beve")).unwrap(), structio::to_beve(&c));
    assert_eq!(structio::read_file_beve::<Config>(at("c.beve")).unwrap(), c);
    let events: Vec<Event> = (0..3000).map(ev).collect();
    structio::write_file_ndjson(&events, at("e.ndjson")).unwrap();
    assert_eq!(
        std::fs::read_to_string(at("e.ndjson")).unwrap(),
        structio::json::to_ndjson(&events)
    );
    assert_eq!(
        structio::read_file_ndjson::<Event>(at("e.ndjson")).unwrap(),
        events
    );
    // A vector is taken as a slice.
    structio::write_file_ndjson(&Vec::<Event>::new(), at("empty.ndjson")).unwrap();
    assert_eq!(std::fs::read(at("empty.ndjson")).unwrap(), b"");
    let pretty = structio::json::Options {
        pretty: true,
        ..Default::default()
    };
    structio::write_file_json_with(&c, at("p.json"), &pretty).unwrap();
    assert_eq!(
        structio::read_file_json_with::<Config>(at("p.json"), &pretty).unwrap(),
        c
    );
    let aligned = structio::beve::Options {
        aligned_arrays: true,
        ..Default::default()
    };
    structio::write_file_beve_with(&vec![1u32, 2], at("a.beve"), &aligned).unwrap();
    assert_eq!(
        structio::read_file_beve_with::<Vec<u32>>(at("a.beve"), &aligned).unwrap(),
        [1, 2]
    );

    // JSON: file:line:column: message, path, then the source line.
    std::fs::write(
        at("config.json"),
        "{\n  \"name\": \"svc\",\n  \"port\":     300\n}",
    )
    .unwrap();
    let e = structio::read_file_json::<Config>(at("config.json")).unwrap_err();
    let shown = at("config.json").display().to_string();
    assert_eq!(
        e.to_string(),
        format!("{shown}:3:15: number out of range for u8, path $.port\n     \"port\":     300\n                 ^")
    );
    assert_eq!(e.file(), Some(at("config.json").as_path()));
    assert_eq!((e.offset(), e.line_column()), (33, Some((3, 15))));
    // BEVE: file, message, byte offset, path.
    let mut bytes = structio::to_beve(&c);
    let last = bytes.len() - 1;
    // The port's number header and byte become an empty string.
    bytes[last - 1] = 0x02;
    bytes[last] = 0x00;
    std::fs::write(at("bad.beve"), &bytes).unwrap();
    let e = structio::read_file_beve::<Config>(at("bad.beve")).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: expected a number, found a string at byte {}, path $.port",
            at("bad.beve").display(),
            last - 1
        )
    );
    // NDJSON: the record's index first in the path.
    std::fs::write(at("bad.ndjson"), "{\"id\":1}\n{\"id\":x}").unwrap();
    let e = structio::read_file_ndjson::<Event>(at("bad.ndjson")).unwrap_err();
    assert_eq!(
        e.to_string().lines().next().unwrap(),
        format!(
            "{}:2:7: expected a value, path $[1].id",
            at("bad.ndjson").display()
        )
    );
    // A missing file: an I/O error naming it, with no offset.
    for e in [
        structio::read_file_json::<Config>(at("missing.json")).unwrap_err(),
        structio::read_file_beve::<Config>(at("missing.json")).unwrap_err(),
        structio::read_file_ndjson::<Config>(at("missing.json")).unwrap_err(),
    ] {
        check_io_error(&e, io::ErrorKind::NotFound, &e.message());
        assert!(e.message().starts_with("cannot read: "), "{e}");
        assert_eq!(e.file(), Some(at("missing.json").as_path()));
        assert!(e
            .to_string()
            .starts_with(&format!("{}: cannot read: ", at("missing.json").display())));
        assert!(!e.to_string().contains("at byte"), "{e}");
    }
    // Writing into a folder that does not exist.
    let e = structio::write_file_json(&c, at("no/such.json")).unwrap_err();
    assert_eq!(e.category(), Category::Io);
    assert_eq!(e.file(), Some(at("no/such.json").as_path()));
    // Nothing but the files written is left in the folder.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "a.beve",
            "bad.beve",
            "bad.ndjson",
            "c.beve",
            "c.json",
            "config.json",
            "e.ndjson",
            "empty.ndjson",
            "p.json"
        ]
    );
}

/// The environment variable that makes the test below its own child.
const FSIZE_CHILD: &str = "STRUCTIO_IO_FSIZE_CHILD";

/// `write_file_json` and `write_file_ndjson` on a process whose files may not grow past 64
/// KiB (`RLIMIT_FSIZE`; the write fails with `EFBIG` midway through the file): each fails with
/// an I/O error, the old file is untouched and no temporary file is left. The limit is set in
/// a child process (this test binary run again), so the rest of the suite can write files.
#[cfg(unix)]
#[test]
fn a_write_failing_midway_leaves_the_old_file_and_no_temporary_file() {
    let test = "a_write_failing_midway_leaves_the_old_file_and_no_temporary_file";
    if let Ok(dir) = std::env::var(FSIZE_CHILD) {
        let dir = Path::new(&dir);
        let lim = libc::rlimit {
            rlim_cur: 64 << 10,
            rlim_max: 64 << 10,
        };
        // SAFETY: ignoring SIGXFSZ makes a write past the limit fail with EFBIG instead of
        // ending the process; `setrlimit` reads the struct passed by reference and changes
        // only this process's limit.
        #[allow(unsafe_code)]
        unsafe {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &lim), 0);
        }
        let events: Vec<Event> = (0..20_000).map(ev).collect();
        let e = structio::write_file_json(&events, dir.join("old.json")).unwrap_err();
        assert_eq!(e.category(), Category::Io, "{e}");
        assert_eq!(
            e.io_error().unwrap().raw_os_error(),
            Some(libc::EFBIG),
            "{e}"
        );
        assert_eq!(e.file(), Some(dir.join("old.json").as_path()));
        let e = structio::write_file_ndjson(&events, dir.join("old.ndjson")).unwrap_err();
        assert_eq!(
            e.io_error().unwrap().raw_os_error(),
            Some(libc::EFBIG),
            "{e}"
        );
        // A small file still fits.
        structio::write_file_json(&ev(1), dir.join("small.json")).unwrap();
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.json"), "[\"old\"]").unwrap();
    std::fs::write(dir.path().join("old.ndjson"), "{\"old\":1}").unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--test-threads=1", "--nocapture"])
        .env(FSIZE_CHILD, dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "child failed: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("old.json")).unwrap(),
        "[\"old\"]"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("old.ndjson")).unwrap(),
        "{\"old\":1}"
    );
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["old.json", "old.ndjson", "small.json"]);
}

#[test]
fn a_malformed_record_is_reported_at_its_first_bad_byte() {
    // A BEVE array that claims a million elements, a bad header after two of them, then more
    // input than the stream reader reads ahead past a malformed value, but less than the
    // million: in memory, the reader finds the count too large for the rest of the input;
    // the stream reader cannot know that without reading the rest, and reports the bad header.
    let mut bytes = vec![0x05];
    bytes.extend_from_slice(&((1_000_000u32 << 2) | 2).to_le_bytes());
    bytes.extend_from_slice(&[0x00, 0x00, 0x07]);
    bytes.resize(300_000, 0);
    let whole = Delimited::new(&bytes).read::<Value>().unwrap().unwrap_err();
    assert!(whole.is_eof(), "{whole}");
    let e = Delimited::from_reader(&bytes[..])
        .read::<Value>()
        .unwrap()
        .unwrap_err();
    assert_eq!(e.to_string(), "invalid header byte 0x07 at byte 7");
    // Within reach of the read-ahead, the stream sees what memory sees.
    bytes.truncate(1000);
    let whole = Delimited::new(&bytes).read::<Value>().unwrap().unwrap_err();
    let e = Delimited::from_reader(&bytes[..])
        .read::<Value>()
        .unwrap()
        .unwrap_err();
    assert_eq!(said(&e), said(&whole));
}

#[test]
fn streams_read_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("events.ndjson");
    let events: Vec<Event> = (0..30_000).map(ev).collect();
    structio::write_file_ndjson(&events, &path).unwrap();
    let mut lines = JsonLines::from_reader(std::fs::File::open(&path).unwrap());
    let mut n = 0;
    while let Some(e) = lines.read::<Event>() {
        assert_eq!(e.unwrap(), events[n as usize]);
        n += 1;
    }
    assert_eq!(n, 30_000);
    let path = dir.path().join("events.beve");
    std::fs::write(&path, to_delimited(&events)).unwrap();
    let file = io::BufReader::new(std::fs::File::open(&path).unwrap());
    let mut seq = Delimited::from_reader(file);
    let mut e = Event::default();
    let mut n = 0;
    while let Some(r) = seq.read_into(&mut e) {
        r.unwrap();
        assert_eq!(e, events[n]);
        n += 1;
    }
    assert_eq!(n, 30_000);
    let path = dir.path().join("events.json");
    structio::write_file_json(&events, &path).unwrap();
    let all: Vec<Event> = array_iter(std::fs::File::open(&path).unwrap())
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(all, events);
}
