//! The properties every input must satisfy, one function per fuzz target. Each takes raw bytes,
//! panics on a violation and returns quietly otherwise, so the fuzz targets
//! (`fuzz/fuzz_targets/*.rs`) and the regression tests (`tests/regressions.rs`) check the same
//! things. A rejected input only has to fail cleanly (an `Error` whose message can be printed
//! and whose offset lies within the input).

use structio::beve::{transcode, BeveWriter};
use structio::json::Options as JsonOptions;
use structio::{Error, Value};

use super::everything::{Everything, SAMPLE_JSON};

/// Options allowing depth 1024: JSON written from a BEVE value can be a few levels deeper than
/// the BEVE (a complex array or a matrix becomes nested arrays), so reading it back may not
/// use the default limit.
fn deep_json() -> JsonOptions {
    let mut o = JsonOptions::default();
    o.read.max_depth = 1024;
    o
}

/// A rejected input's error must print and point inside the input.
pub fn clean_error(e: &Error, input: &[u8]) {
    let _ = e.to_string();
    assert!(
        e.offset() <= input.len(),
        "error offset {} past the input ({} bytes): {e}",
        e.offset(),
        input.len()
    );
}

/// Whether the debug form shows a NaN: such values never equal themselves.
fn has_nan(d: &impl std::fmt::Debug) -> bool {
    let s = format!("{d:?}");
    s.contains("NaN")
}

/// JSON -> `Value`: JSON -> `Value` -> JSON -> `Value` gives the same value and the same text
/// the second time; the pretty writer writes what `prettify` makes of the compact text;
/// `Value` -> BEVE -> `Value` is the identity and BEVE bytes are a fixed point.
pub fn json_value(data: &[u8]) {
    let records = ndjson(data);
    let v = match structio::from_json::<Value>(data) {
        Ok(v) => v,
        Err(e) => return clean_error(&e, data),
    };
    let records = records.unwrap_or_else(|| panic!("one JSON value is not one NDJSON record"));
    assert!(
        records == [v.clone()],
        "one JSON value read as NDJSON differs"
    );
    let text = structio::to_json(&v);
    let back: Value = structio::from_json(&text)
        .unwrap_or_else(|e| panic!("our own JSON does not read back: {e}\n{text}"));
    assert!(back == v, "JSON round trip changed the value:\n{text}");
    assert_eq!(
        structio::to_json(&back),
        text,
        "JSON text is not a fixed point"
    );
    let pretty_opts = JsonOptions {
        pretty: true,
        ..JsonOptions::default()
    };
    let pretty = structio::json::to_json_with(&v, &pretty_opts);
    assert_eq!(
        Some(&pretty),
        structio::prettify(&text).ok().as_ref(),
        "the pretty writer and prettify lay the value out differently"
    );
    jsonc_same(data, &v, &text);
    let bytes = structio::to_beve(&v);
    let from_beve: Value = structio::from_beve(&bytes)
        .unwrap_or_else(|e| panic!("our own BEVE does not read back: {e}\n{text}"));
    assert!(from_beve == v, "Value -> BEVE -> Value changed it:\n{text}");
    assert_eq!(
        structio::to_beve(&from_beve),
        bytes,
        "BEVE bytes are not a fixed point"
    );
}

/// The comments a JSONC oracle inserts, in turn: block, line (with its line break), empty,
/// and ones holding what would end or start something else.
const COMMENTS: [&str; 6] = [
    "/* c */",
    "// line\n",
    "/**/",
    "/* \"[{ // */",
    "//*/\r\n",
    " /*/**/ ",
];

/// `text` (compact JSON, as `to_json` writes it) with a comment at every place whitespace may
/// stand (before and after every token outside strings), chosen in turn from [`COMMENTS`]
/// starting at `seed`. A `//` comment at the very end keeps its line break.
pub fn with_comments(text: &str, seed: usize) -> String {
    let mut out = String::with_capacity(text.len() * 4);
    let mut k = seed;
    let mut put = |out: &mut String| {
        out.push_str(COMMENTS[k % COMMENTS.len()]);
        k += 1;
    };
    put(&mut out);
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
                put(&mut out);
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '[' | '{' | ',' | ':' => {
                out.push(c);
                put(&mut out);
            }
            ']' | '}' => {
                put(&mut out);
                out.push(c);
                put(&mut out);
            }
            _ => out.push(c),
        }
    }
    out
}

/// JSON with comments inserted at whitespace positions (see [`with_comments`]) reads, with
/// comments on, as the plain text does through every reader: typed (`Value`), `parse`,
/// `values`, `validate`, `minify` (back to the compact text) and `prettify`; with comments
/// off it is an error. The plain input reads the same with comments on.
pub fn jsonc_same(data: &[u8], v: &Value, text: &str) {
    use structio::json::{MinifyOptions, PrettyOptions};
    let read = JsonOptions {
        read: structio::ReadOptions {
            comments: true,
            ..Default::default()
        },
        ..JsonOptions::default()
    };
    let same: Value = structio::json::from_json_with(data, &read)
        .unwrap_or_else(|e| panic!("plain JSON fails with comments on: {e}"));
    assert!(same == *v, "plain JSON reads otherwise with comments on");
    let jsonc = with_comments(text, data.len());
    let back: Value = structio::json::from_json_with(&jsonc, &read)
        .unwrap_or_else(|e| panic!("JSONC does not read: {e}\n{jsonc}"));
    assert!(
        back == *v,
        "JSONC reads otherwise than its plain text:\n{jsonc}"
    );
    assert!(
        structio::from_json::<Value>(&jsonc).is_err(),
        "comments read with comments off:\n{jsonc}"
    );
    let parse = structio::ParseOptions {
        read: read.read,
        ..Default::default()
    };
    let parsed: Value = structio::json::parse_with(&jsonc, &parse)
        .unwrap_or_else(|r| panic!("JSONC does not parse: {r}\n{jsonc}"));
    assert!(parsed == *v, "JSONC parses otherwise:\n{jsonc}");
    let all: Vec<Value> = structio::json::values_with(&jsonc, &read)
        .collect::<structio::Result<_>>()
        .unwrap_or_else(|e| panic!("JSONC values fail: {e}\n{jsonc}"));
    assert!(all == [v.clone()], "JSONC values differ:\n{jsonc}");
    structio::json::validate_with(jsonc.as_bytes(), &read.read)
        .unwrap_or_else(|e| panic!("JSONC does not validate: {e}\n{jsonc}"));
    let mini = MinifyOptions {
        comments: true,
        ..MinifyOptions::default()
    };
    assert_eq!(
        structio::json::minify_with(&jsonc, &mini).ok().as_deref(),
        Some(text),
        "JSONC minifies otherwise"
    );
    let pretty = PrettyOptions {
        comments: true,
        ..PrettyOptions::default()
    };
    // Comments stand where whitespace may: inside an empty container they are the
    // whitespace that keeps Glaze's two line breaks, so compare against the text with a
    // space at each comment.
    let spaced = structio::prettify(&with_spaces(text)).unwrap();
    assert_eq!(
        structio::json::prettify_with(&jsonc, &pretty).ok(),
        Some(spaced),
        "JSONC prettifies otherwise"
    );
}

/// `text` with a space wherever [`with_comments`] puts a comment.
fn with_spaces(text: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    let mut escaped = false;
    out.push(' ');
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
                out.push(' ');
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '[' | '{' | ',' | ':' => {
                out.push(c);
                out.push(' ');
            }
            ']' | '}' => {
                out.push(' ');
                out.push(c);
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

/// The input as NDJSON: read whole, record by record through the iterator (each record's bytes
/// must read alone as the record read in place), and written back to the same records. The
/// records, or `None` when the input is not NDJSON.
fn ndjson(data: &[u8]) -> Option<Vec<Value>> {
    let records: Vec<Value> = match structio::json::from_ndjson(data) {
        Ok(r) => r,
        Err(e) => {
            clean_error(&e, data);
            return None;
        }
    };
    let raw: Vec<&[u8]> = structio::json::JsonLines::new(data)
        .collect::<structio::Result<_>>()
        .unwrap_or_else(|e| panic!("NDJSON read whole, but its iterator fails: {e}"));
    assert_eq!(raw.len(), records.len(), "NDJSON record counts differ");
    for (r, v) in raw.iter().zip(&records) {
        let alone: Value = structio::from_json(r)
            .unwrap_or_else(|e| panic!("an NDJSON record does not read alone: {e}"));
        assert!(alone == *v, "an NDJSON record read alone differs");
    }
    let text = structio::json::to_ndjson(&records);
    let back: Vec<Value> = structio::json::from_ndjson(&text)
        .unwrap_or_else(|e| panic!("our own NDJSON does not read back: {e}\n{text}"));
    assert!(
        back == records,
        "NDJSON round trip changed the records:\n{text}"
    );
    Some(records)
}

/// A struct marked `canonical` (with canonical structs nested in it) and its ordinary twin read
/// the same value from `data`, or fail with the same error; the canonical-layout reader alone
/// reads that value or declines.
pub fn canonical_twins(data: &[u8]) {
    use super::canonical::{CanonCall, PlainCall, Twin};
    let fast = structio::from_json::<CanonCall>(data);
    let slow = structio::from_json::<PlainCall>(data);
    let compact = structio::__private::json_compact::<CanonCall>(data);
    match (&fast, &slow) {
        (Ok(f), Ok(s)) => assert_eq!(&f.plain(), s, "the canonical twin read another value"),
        (Err(f), Err(s)) => assert_eq!(
            (f.to_string(), f.path()),
            (s.to_string(), s.path()),
            "the twins fail differently"
        ),
        (f, s) => panic!("canonical {f:?}, ordinary {s:?}"),
    }
    if let Some(c) = compact {
        assert_eq!(
            Some(c.plain()),
            slow.ok(),
            "the compact reader read what the ordinary reader does not"
        );
    }
}

/// JSON -> `Everything`: what we write reads back to an equal value, in JSON and in BEVE.
/// Also the canonical twins (`canonical_twins`).
pub fn json_typed(data: &[u8]) {
    canonical_twins(data);
    // The canonical-layout reader (what `from_json` tries first for a canonical type) reads
    // what the full reader reads, or declines.
    let compact = structio::__private::json_compact::<Everything>(data);
    let a = match structio::from_json::<Everything>(data) {
        Ok(v) => v,
        Err(e) => {
            assert!(
                compact.is_none(),
                "the compact reader took what the full reader rejects: {e}"
            );
            return clean_error(&e, data);
        }
    };
    if let Some(c) = compact {
        assert_eq!(c, a, "the compact reader read another value");
    }
    let text = structio::to_json(&a);
    let b: Everything = structio::from_json(&text)
        .unwrap_or_else(|e| panic!("our own JSON does not read back: {e}\n{text}"));
    assert_eq!(a, b, "typed JSON round trip changed the value:\n{text}");
    // Our own compact text without escapes is the compact reader's to read.
    if !text.contains('\\') {
        let c = structio::__private::json_compact::<Everything>(text.as_bytes());
        assert_eq!(
            c.as_ref(),
            Some(&a),
            "the compact reader declined our own text:\n{text}"
        );
    }
    let bytes = structio::to_beve(&a);
    let c: Everything = structio::from_beve(&bytes)
        .unwrap_or_else(|e| panic!("our own BEVE does not read back: {e}\n{text}"));
    assert_eq!(a, c, "typed BEVE round trip changed the value:\n{text}");
    json_reuse(&a);
}

/// JSON writing options that name every member, `None` ones as `null`; the default writer
/// leaves them out, and reading either into a used value must give what a fresh read gives.
fn json_every_member() -> JsonOptions {
    JsonOptions {
        write_null_members: true,
        ..JsonOptions::default()
    }
}

/// Reading into a used value (strings and vectors reuse their buffers) gives exactly what a
/// fresh read gives (left-out `None` members become `None`, maps hold the document's entries
/// only): `a`'s text read over the sample, and the sample's read over a copy of `a`, written
/// with `None` members left out and written as `null`.
fn json_reuse(a: &Everything) {
    let sample: Everything = structio::from_json(SAMPLE_JSON).unwrap();
    for opts in [JsonOptions::default(), json_every_member()] {
        let text = structio::json::to_json_with(a, &opts);
        let fresh: Everything = structio::from_json(&text).unwrap();
        let mut over = sample.clone();
        structio::read_json(&mut over, &text)
            .unwrap_or_else(|e| panic!("reading over the sample failed: {e}\n{text}"));
        assert_eq!(
            over, fresh,
            "reading over the sample differs from a fresh read:\n{text}"
        );
        let sample_text = structio::json::to_json_with(&sample, &opts);
        let fresh: Everything = structio::from_json(&sample_text).unwrap();
        let mut over = a.clone();
        structio::read_json(&mut over, &sample_text)
            .unwrap_or_else(|e| panic!("reading the sample over a value failed: {e}\n{text}"));
        assert_eq!(
            over, fresh,
            "reading the sample over a value differs:\n{text}"
        );
    }
}

/// [`json_reuse`] in BEVE (NaN aside).
fn beve_reuse(a: &Everything) {
    let every = structio::beve::Options {
        write_null_members: true,
        ..structio::beve::Options::default()
    };
    let sample: Everything = structio::from_json(SAMPLE_JSON).unwrap();
    for opts in [structio::beve::Options::default(), every] {
        let bytes = structio::beve::to_beve_with(a, &opts);
        let fresh: Everything = structio::from_beve(&bytes).unwrap();
        let mut over = sample.clone();
        structio::read_beve(&mut over, &bytes)
            .unwrap_or_else(|e| panic!("reading over the sample failed: {e}\n{a:?}"));
        assert!(
            over == fresh || has_nan(a),
            "BEVE read over the sample differs from a fresh read: {a:?}\n{over:?}"
        );
        let sample_bytes = structio::beve::to_beve_with(&sample, &opts);
        let fresh: Everything = structio::from_beve(&sample_bytes).unwrap();
        let mut over = a.clone();
        structio::read_beve(&mut over, &sample_bytes)
            .unwrap_or_else(|e| panic!("reading the sample over a value failed: {e}\n{a:?}"));
        assert!(
            over == fresh || has_nan(a),
            "BEVE read of the sample over a value differs: {a:?}"
        );
    }
}

/// BEVE -> `Value`: `Value` -> BEVE -> `Value` is the identity (NaN aside) and the bytes are a
/// fixed point; the JSON we write for it is valid JSON that reads back as a `Value`.
pub fn beve_value(data: &[u8]) {
    let v = match structio::from_beve::<Value>(data) {
        Ok(v) => v,
        Err(e) => return clean_error(&e, data),
    };
    let bytes = structio::to_beve(&v);
    let back: Value = structio::from_beve(&bytes)
        .unwrap_or_else(|e| panic!("our own BEVE does not read back: {e}\n{v:?}"));
    assert!(
        back == v || has_nan(&v),
        "BEVE round trip changed the value: {v:?}"
    );
    assert_eq!(
        structio::to_beve(&back),
        bytes,
        "BEVE bytes are not a fixed point"
    );
    let text = structio::to_json(&v);
    structio::json::from_json_with::<Value>(&text, &deep_json())
        .unwrap_or_else(|e| panic!("JSON written for a BEVE value does not read: {e}\n{text}"));
}

/// BEVE -> `Everything`: BEVE round trip is the identity (NaN aside); the JSON we write for it is
/// valid.
pub fn beve_typed(data: &[u8]) {
    let a = match structio::from_beve::<Everything>(data) {
        Ok(v) => v,
        Err(e) => return clean_error(&e, data),
    };
    let bytes = structio::to_beve(&a);
    let b: Everything = structio::from_beve(&bytes)
        .unwrap_or_else(|e| panic!("our own BEVE does not read back: {e}\n{a:?}"));
    assert!(
        a == b || has_nan(&a),
        "typed BEVE round trip changed the value: {a:?}"
    );
    beve_reuse(&a);
    let text = structio::to_json(&a);
    structio::json::validate(text.as_bytes())
        .unwrap_or_else(|e| panic!("JSON written for a BEVE value is invalid: {e}\n{text}"));
}

/// `prettify`, `minify`, `validate` and reading a `Value` accept exactly the same documents
/// (but for numbers beyond f64, which only `Value` rejects); minify and prettify undo each
/// other, and neither changes the value.
pub fn pretty_minify(data: &[u8]) {
    let pretty = structio::prettify(data);
    let mini = structio::minify(data);
    let valid = structio::json::validate(data);
    let value = structio::from_json::<Value>(data);
    // Reading a `Value` also rejects numbers beyond f64 (`1e400`), which are well-formed JSON
    // to the syntax-only checkers: that is the one intended difference.
    let beyond_f64 = matches!(&value, Err(e) if e.message().contains("out of range"));
    let value_ok = value.is_ok() || (beyond_f64 && valid.is_ok());
    let verdicts = [pretty.is_ok(), mini.is_ok(), valid.is_ok(), value_ok];
    assert!(
        verdicts.iter().all(|&v| v == verdicts[0]),
        "prettify/minify/validate/Value disagree: {verdicts:?} ({:?} {:?} {:?} {:?})",
        pretty.as_ref().err().map(|e| e.to_string()),
        mini.as_ref().err().map(|e| e.to_string()),
        valid.as_ref().err().map(|e| e.to_string()),
        value.as_ref().err().map(|e| e.to_string()),
    );
    let (Ok(pretty), Ok(mini)) = (pretty, mini) else {
        for e in [structio::prettify(data).err(), structio::minify(data).err()]
            .into_iter()
            .flatten()
        {
            clean_error(&e, data);
        }
        return;
    };
    assert_eq!(
        structio::minify(&pretty).unwrap(),
        mini,
        "minify(prettify(x)) != minify(x)"
    );
    // Not `prettify(minify(x)) == prettify(x)`: like Glaze, an empty container with whitespace
    // between its brackets keeps two line breaks, which minify removes. Prettify is a fixed
    // point instead, and the compact text's layout minifies back to it.
    assert_eq!(
        structio::prettify(&pretty).unwrap(),
        pretty,
        "prettify(prettify(x)) != prettify(x)"
    );
    assert_eq!(
        structio::minify(&structio::prettify(&mini).unwrap()).unwrap(),
        mini,
        "minify(prettify(minify(x))) != minify(x)"
    );
    assert!(
        !mini
            .bytes()
            .any(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
            || mini.contains('"')
    );
    if let Ok(value) = value {
        let again: Value = structio::from_json(&pretty).unwrap();
        assert!(again == value, "prettify changed the value");
    }
}

/// `transcode` into a BEVE writer accepts exactly what reading a `Value` accepts; its output
/// is a fixed point and holds the same value.
pub fn beve_transcode(data: &[u8]) {
    let mut w = BeveWriter::new(Vec::new());
    let t = transcode(data, &mut w);
    let value = structio::from_beve::<Value>(data);
    assert_eq!(
        t.is_ok(),
        value.is_ok(),
        "transcode and Value disagree: {:?} vs {:?}",
        t.as_ref().err().map(|e| e.to_string()),
        value.as_ref().err().map(|e| e.to_string())
    );
    let (Ok(()), Ok(value)) = (t, value) else {
        if let Err(e) = transcode(data, &mut BeveWriter::new(Vec::new())) {
            clean_error(&e, data);
        }
        return;
    };
    let out = w.into_inner();
    let mut w2 = BeveWriter::new(Vec::new());
    transcode(&out, &mut w2)
        .unwrap_or_else(|e| panic!("transcoded output does not transcode: {e}"));
    assert_eq!(
        w2.into_inner(),
        out,
        "transcode output is not a fixed point"
    );
    let v2: Value = structio::from_beve(&out).unwrap();
    assert!(
        v2 == value || has_nan(&value),
        "transcode changed the value"
    );
}

/// A built `Value` (any kinds, NaN included): BEVE -> `Value` gives it back exactly (NaN aside)
/// with the same bytes; its JSON text is valid, reads back, and becomes a fixed point.
pub fn value_roundtrip(v: &Value) {
    let bytes = structio::to_beve(v);
    let back: Value = structio::from_beve(&bytes)
        .unwrap_or_else(|e| panic!("our own BEVE does not read back: {e}\n{v:?}"));
    assert!(
        back == *v || has_nan(v),
        "BEVE round trip changed {v:?} into {back:?}"
    );
    assert_eq!(
        structio::to_beve(&back),
        bytes,
        "BEVE bytes are not a fixed point"
    );
    // JSON keeps values, not kinds: an f32 `-2.8549169E9` reads back as an f64 that is written
    // `-2854916900`, which reads back as an i64. So the text is a fixed point from the second
    // writing on.
    let text = structio::to_json(v);
    let again: Value = structio::from_json(&text)
        .unwrap_or_else(|e| panic!("our own JSON does not read back: {e}\n{text}"));
    let text2 = structio::to_json(&again);
    let again2: Value = structio::from_json(&text2)
        .unwrap_or_else(|e| panic!("our own JSON does not read back: {e}\n{text2}"));
    assert_eq!(
        structio::to_json(&again2),
        text2,
        "JSON text is not a fixed point"
    );
}

/// `beve_to_json`: for a single value it writes valid JSON holding what `Value` -> JSON writes
/// (compared after reading both back, because `beve_to_json` streams and keeps a repeated key
/// twice where `Value` keeps the last value once); for anything `Value` rejects it fails cleanly,
/// unless the input is a delimited sequence, whose every line is then valid JSON.
pub fn beve_to_json(data: &[u8]) {
    let json = structio::beve_to_json(data);
    if let Ok(v) = structio::from_beve::<Value>(data) {
        let text =
            json.unwrap_or_else(|e| panic!("Value reads it but beve_to_json fails: {e}\n{v:?}"));
        let normal = |t: &str| {
            let v: Value = structio::json::from_json_with(t, &deep_json())
                .unwrap_or_else(|e| panic!("invalid JSON written: {e}\n{t}"));
            structio::to_json(&v)
        };
        assert_eq!(
            normal(&text),
            normal(&structio::to_json(&v)),
            "beve_to_json and Value -> JSON differ"
        );
        return;
    }
    match json {
        Err(e) => clean_error(&e, data),
        Ok(text) => {
            assert!(data.contains(&0x06), "accepted without a delimiter: {text}");
            for line in text.split('\n').filter(|l| !l.is_empty()) {
                structio::json::from_json_with::<Value>(line, &deep_json())
                    .unwrap_or_else(|e| panic!("beve_to_json wrote invalid JSON: {e}\n{line}"));
            }
        }
    }
}

/// A type the read-option oracle reads: `T<'a>` borrows from the input, and `same` compares two
/// values read from different buffers (a concrete type is covariant, a generic one is not).
pub trait OptionShape {
    /// The type read.
    type T<'a>: structio::Reflect<'a> + Default + std::fmt::Debug + PartialEq;
    /// `a == b` across lifetimes.
    fn same<'a, 'b>(a: &Self::T<'a>, b: &Self::T<'b>) -> bool;
    /// Whether the type holds `RawJson` (whose text is captured unread: no keys are checked in
    /// it).
    const RAW: bool;
}

/// [`Everything`] for [`typed_options`].
pub struct EverythingShape;

impl OptionShape for EverythingShape {
    type T<'a> = Everything<'a>;
    fn same<'a, 'b>(a: &Everything<'a>, b: &Everything<'b>) -> bool {
        a == b
    }
    const RAW: bool = true;
}

/// [`super::tree::Tree`] for [`typed_options`].
pub struct TreeShape;

impl OptionShape for TreeShape {
    type T<'a> = super::tree::Tree;
    fn same<'a, 'b>(a: &Self::T<'a>, b: &Self::T<'b>) -> bool {
        a == b
    }
    const RAW: bool = false;
}

/// The read options the first input byte of [`typed_options`] selects: bit 0 skips unknown
/// keys, bit 1 reports missing keys, bit 2 duplicate keys, bits 3 to 5 give `max_depth` 0 to 6,
/// or the default 256 when all three are set (bit 6 picks the format, bit 7 the shape; the
/// merging read is not selected: these reads make new values).
pub fn selected_options(sel: u8) -> structio::ReadOptions {
    let depth = usize::from((sel >> 3) & 7);
    structio::ReadOptions {
        unknown_keys: if sel & 1 != 0 {
            structio::UnknownKeys::Skip
        } else {
            structio::UnknownKeys::Error
        },
        error_on_missing_keys: sel & 2 != 0,
        error_on_duplicate_keys: sel & 4 != 0,
        max_depth: if depth == 7 { 256 } else { depth },
        merge: false,
        comments: false,
    }
}

/// Reads `doc` as `S::T` in JSON or BEVE through the format's `Options`.
fn read_with<'a, S: OptionShape>(
    beve: bool,
    doc: &'a [u8],
    read: structio::ReadOptions,
) -> Result<S::T<'a>, Error> {
    if beve {
        let opts = structio::beve::Options {
            read,
            ..structio::beve::Options::default()
        };
        structio::beve::from_beve_with(doc, &opts)
    } else {
        let opts = JsonOptions {
            read,
            ..JsonOptions::default()
        };
        structio::json::from_json_with(doc, &opts)
    }
}

/// Whether `e` is the depth limit's error.
fn is_depth_error(e: &Error) -> bool {
    e.category() == structio::Category::Limit && e.message().starts_with("nesting deeper")
}

/// The outcome of a read, printable, for messages.
fn outcome<T: std::fmt::Debug>(r: &Result<T, Error>) -> String {
    match r {
        Ok(v) => format!("Ok({v:?})"),
        Err(e) => format!("Err({e})"),
    }
}

/// Typed reading with non-default `ReadOptions`, in JSON or BEVE, into `Everything` or `Tree`.
/// The first byte selects: options as in [`selected_options`], bit 6 BEVE (else JSON), bit 7
/// `Tree` (else `Everything`); the rest is the document. Checks:
/// - a rejected document fails cleanly; a depth error names the limit;
/// - strict implies lenient: a read that succeeds with `error_on_missing_keys`,
///   `error_on_duplicate_keys` or `unknown_keys: Error` succeeds with the same value with each of
///   them turned off, and with all of them off (NaN aside);
/// - skipping unknown keys: when a read with `unknown_keys: Error` succeeds, the read that skips
///   them succeeds with the same value;
/// - depth: a read that does not fail on the depth limit gives exactly the same outcome (value,
///   or error with its position) at the default limit 256 (nothing else depends on the limit);
///   the document nests as the typed reader counted: a read that succeeds at depth `d` means
///   `prettify` (JSON) or a `Value` (BEVE) with the limit `d` accept the document too, and one
///   that fails on the limit means they reject it;
/// - a successful read with `error_on_missing_keys`, written with every member named
///   (`write_null_members`), reads back strictly to the same value;
/// - a successful read written with other write options (pretty but for `RawJson`, whose text
///   the pretty writer lays out too; serde-style floats; aligned BEVE arrays) reads back to the
///   same value;
/// - with `error_on_duplicate_keys` (and no unknown keys skipped, no `RawJson`), a document that
///   reads has no repeated key in any object: a `Value` read with the same check accepts it.
pub fn typed_options(data: &[u8]) {
    let Some((&sel, doc)) = data.split_first() else {
        return;
    };
    if sel & 0x80 != 0 {
        options_on::<TreeShape>(sel, doc);
    } else {
        options_on::<EverythingShape>(sel, doc);
    }
}

/// [`typed_options`] for one shape.
fn options_on<S: OptionShape>(sel: u8, doc: &[u8]) {
    use structio::{ReadOptions, UnknownKeys};
    let beve = sel & 0x40 != 0;
    let opts = selected_options(sel);
    let fmt = if beve { "BEVE" } else { "JSON" };
    let got = read_with::<S>(beve, doc, opts);
    let same = |a: &S::T<'_>, b: &S::T<'_>| S::same(a, b) || has_nan(a);

    // Clean errors; a depth error names the limit.
    if let Err(e) = &got {
        clean_error(e, doc);
        if is_depth_error(e) {
            assert_eq!(
                e.message(),
                format!("nesting deeper than the limit of {}", opts.max_depth),
                "{fmt} depth error names another limit ({opts:?})"
            );
        }
    }

    // Strict implies lenient, one option at a time and all together.
    if let Ok(v) = &got {
        let mut relaxed = vec![ReadOptions {
            unknown_keys: UnknownKeys::Skip,
            error_on_missing_keys: false,
            error_on_duplicate_keys: false,
            ..opts
        }];
        if opts.unknown_keys == UnknownKeys::Error {
            relaxed.push(ReadOptions {
                unknown_keys: UnknownKeys::Skip,
                ..opts
            });
        }
        if opts.error_on_missing_keys {
            relaxed.push(ReadOptions {
                error_on_missing_keys: false,
                ..opts
            });
        }
        if opts.error_on_duplicate_keys {
            relaxed.push(ReadOptions {
                error_on_duplicate_keys: false,
                ..opts
            });
        }
        for lenient in relaxed {
            match read_with::<S>(beve, doc, lenient) {
                Ok(w) => assert!(
                    same(v, &w),
                    "{fmt}: {opts:?} and {lenient:?} read different values:\n{v:?}\n{w:?}"
                ),
                Err(e) => panic!("{fmt}: {opts:?} reads it but {lenient:?} fails: {e}\n{v:?}"),
            }
        }
    }

    // Skipping unknown keys gives what refusing them gives, when that succeeds.
    if opts.unknown_keys == UnknownKeys::Skip {
        let refuse = ReadOptions {
            unknown_keys: UnknownKeys::Error,
            ..opts
        };
        if let Ok(w) = read_with::<S>(beve, doc, refuse) {
            match &got {
                Ok(v) => assert!(
                    same(v, &w),
                    "{fmt}: skipping unknown keys changed the value"
                ),
                Err(e) => panic!("{fmt}: {refuse:?} reads it but skipping fails: {e}"),
            }
        }
    }

    // Depth: short of the limit, the limit changes nothing.
    let hit_limit = matches!(&got, Err(e) if is_depth_error(e));
    if opts.max_depth < 256 && !hit_limit {
        let deep = ReadOptions {
            max_depth: 256,
            ..opts
        };
        let at_256 = read_with::<S>(beve, doc, deep);
        let agree = match (&got, &at_256) {
            (Ok(a), Ok(b)) => same(a, b),
            (Err(a), Err(b)) => a.to_string() == b.to_string(),
            _ => false,
        };
        assert!(
            agree,
            "{fmt}: {opts:?} gives {} but depth 256 gives {}",
            outcome(&got),
            outcome(&at_256)
        );
    }
    // The nesting the typed reader counted is the document's.
    if got.is_ok() || hit_limit {
        let other = if beve {
            let o = structio::beve::Options {
                read: ReadOptions {
                    max_depth: opts.max_depth,
                    ..ReadOptions::default()
                },
                ..structio::beve::Options::default()
            };
            structio::beve::from_beve_with::<Value>(doc, &o).map(|_| ())
        } else {
            let o = structio::json::PrettyOptions {
                max_depth: opts.max_depth,
                ..structio::json::PrettyOptions::default()
            };
            structio::json::prettify_with(doc, &o).map(|_| ())
        };
        let checker = if beve { "Value" } else { "prettify" };
        assert_eq!(
            other.is_ok(),
            got.is_ok(),
            "{fmt}: the typed read ({}) and {checker} ({:?}) disagree on depth {}",
            outcome(&got),
            other.as_ref().err().map(|e| e.to_string()),
            opts.max_depth
        );
    }

    let Ok(v) = got else {
        return;
    };

    // Missing keys: every member written reads back strictly; other write options read back.
    let strict = ReadOptions {
        max_depth: 256,
        ..opts
    };
    if beve {
        let every = structio::beve::Options {
            write_null_members: true,
            ..structio::beve::Options::default()
        };
        let aligned = structio::beve::Options {
            aligned_arrays: sel & 1 != 0,
            write_null_members: sel & 2 == 0,
            ..structio::beve::Options::default()
        };
        let mut writes = vec![(aligned, ReadOptions::default())];
        if opts.error_on_missing_keys {
            writes.push((every, strict));
        }
        for (w, r) in writes {
            let bytes = structio::beve::to_beve_with(&v, &w);
            let back = read_with::<S>(true, &bytes, r)
                .unwrap_or_else(|e| panic!("BEVE written with {w:?} fails {r:?}: {e}\n{v:?}"));
            assert!(
                same(&v, &back),
                "BEVE written with {w:?} reads back as {back:?}"
            );
        }
    } else {
        let every = JsonOptions {
            write_null_members: true,
            ..JsonOptions::default()
        };
        let styled = JsonOptions {
            // The pretty writer lays out `RawJson` text too, so only `Tree` reads back equal.
            pretty: sel & 1 != 0 && !S::RAW,
            indent: usize::from(sel >> 3 & 7),
            float_style: if sel & 4 != 0 {
                structio::json::FloatStyle::Serde
            } else {
                structio::json::FloatStyle::Glaze
            },
            write_null_members: sel & 2 == 0,
            ..JsonOptions::default()
        };
        let mut writes = vec![(styled, ReadOptions::default())];
        if opts.error_on_missing_keys {
            writes.push((every, strict));
        }
        for (w, r) in writes {
            let text = structio::json::to_json_with(&v, &w);
            let back = read_with::<S>(false, text.as_bytes(), r)
                .unwrap_or_else(|e| panic!("JSON written with {w:?} fails {r:?}: {e}\n{text}"));
            assert!(
                same(&v, &back),
                "JSON written with {w:?} reads back as {back:?}"
            );
        }
    }

    // Duplicate keys: no object of the document repeats a key.
    if opts.error_on_duplicate_keys && opts.unknown_keys == UnknownKeys::Error && !S::RAW {
        let read = ReadOptions {
            error_on_duplicate_keys: true,
            ..ReadOptions::default()
        };
        let value = if beve {
            let o = structio::beve::Options {
                read,
                ..structio::beve::Options::default()
            };
            structio::beve::from_beve_with::<Value>(doc, &o)
        } else {
            let o = JsonOptions {
                read,
                ..JsonOptions::default()
            };
            structio::json::from_json_with::<Value>(doc, &o)
        };
        if let Err(e) = value {
            panic!("{fmt}: read with error_on_duplicate_keys but a Value read fails: {e}\n{v:?}");
        }
    }
}

/// Characters a `beve_strings` input picks from: every UTF-8 length, the edges of each range,
/// and bytes a JSON writer escapes.
pub const STRING_PIECES: [&str; 16] = [
    "a",
    "Z",
    "\"",
    "\\",
    "\u{1}",
    "\u{7F}",
    "é",
    "\u{7FF}",
    "\u{800}",
    "€",
    "\u{D7FF}",
    "\u{E000}",
    "\u{FFFF}",
    "\u{10000}",
    "😀",
    "\u{10FFFF}",
];

/// A BEVE string array built from `data`, and the byte strings in it: `beve_strings`'s input.
/// The first byte picks the SIZE width of every string (bits 0-1: minimal, or 2, 4 or 8 bytes
/// where the length fits), whether strings are built from whole characters (bit 2) or taken
/// as raw bytes, and whether a string of 100 ASCII bytes comes first (bit 3: readers may
/// judge text that starts ASCII differently). Then each string is a length byte (its low 7
/// bits times a step its top bit picks: 1, or 64 for lengths around blocks and up to 8 KiB;
/// whole characters may run up to 3 bytes past it), a corruption byte (`0xFF`: none;
/// otherwise its place is this byte times the length over 256, set to the byte after the
/// content) and its content, drawn from the rest of `data` again and again.
pub fn string_array_of(data: &[u8]) -> (Vec<u8>, Vec<Vec<u8>>) {
    let Some((&mode, rest)) = data.split_first() else {
        return (vec![0x3C, 0], Vec::new());
    };
    let mut strings = Vec::new();
    if mode & 8 != 0 {
        strings.push(b"ascii text ".repeat(10)[..100].to_vec());
    }
    let mut i = 0;
    let byte = |i: &mut usize| {
        let b = rest.get(*i % rest.len().max(1)).copied().unwrap_or(b'x');
        *i += 1;
        b
    };
    while i + 2 <= rest.len() && strings.len() < 300 {
        let l = byte(&mut i);
        let len = (l & 0x7F) as usize * if l & 0x80 != 0 { 64 } else { 1 };
        let corrupt = byte(&mut i);
        let mut s = Vec::with_capacity(len);
        while s.len() < len {
            let b = byte(&mut i);
            if mode & 4 != 0 {
                s.extend_from_slice(STRING_PIECES[(b & 15) as usize].as_bytes());
            } else {
                s.push(b);
            }
        }
        if corrupt != 0xFF && len > 0 {
            let at = corrupt as usize * len / 256;
            s[at] = byte(&mut i);
        }
        strings.push(s);
    }
    let mut bytes = vec![0x3C];
    // A SIZE of `width` (1: two bytes, 2: four, 3: eight) where `n` fits, else the smallest.
    let size = |bytes: &mut Vec<u8>, n: usize, width: u8| {
        let n = n as u64;
        match width {
            1 if n < 1 << 14 => bytes.extend_from_slice(&((n as u16) << 2 | 1).to_le_bytes()),
            2 if n < 1 << 30 => bytes.extend_from_slice(&((n as u32) << 2 | 2).to_le_bytes()),
            3 => bytes.extend_from_slice(&(n << 2 | 3).to_le_bytes()),
            _ if n < 1 << 6 => bytes.push((n as u8) << 2),
            _ if n < 1 << 14 => bytes.extend_from_slice(&((n as u16) << 2 | 1).to_le_bytes()),
            _ => bytes.extend_from_slice(&((n as u32) << 2 | 2).to_le_bytes()),
        }
    };
    size(&mut bytes, strings.len(), 0);
    for s in &strings {
        size(&mut bytes, s.len(), mode & 3);
        bytes.extend_from_slice(s);
    }
    (bytes, strings)
}

/// BEVE string arrays (`string_array_of`) -> `Vec<String>`, fresh and over used vectors
/// shorter and longer than the array, and -> `Vec<&str>`: each read succeeds exactly when
/// every string is UTF-8, with those strings; otherwise it fails with the index of the first
/// string that is not, and a used vector holds nothing but UTF-8 afterwards.
pub fn beve_strings(data: &[u8]) {
    let (bytes, strings) = string_array_of(data);
    let first_bad = strings.iter().position(|s| std::str::from_utf8(s).is_err());
    let check = |got: Result<Vec<String>, Error>, what: &str| match (got, first_bad) {
        (Ok(v), None) => {
            let got: Vec<&[u8]> = v.iter().map(|s| s.as_bytes()).collect();
            let want: Vec<&[u8]> = strings.iter().map(|s| &s[..]).collect();
            assert_eq!(got, want, "{what}");
        }
        (Err(e), Some(bad)) => {
            clean_error(&e, &bytes);
            assert_eq!(e.path(), format!("$[{bad}]"), "{what}: {e}");
        }
        (Ok(_), Some(bad)) => panic!("{what}: string {bad} is not UTF-8 but was read"),
        (Err(e), None) => panic!("{what}: valid strings rejected: {e}"),
    };
    check(structio::from_beve::<Vec<String>>(&bytes), "fresh");
    let borrowed = structio::from_beve::<Vec<&str>>(&bytes)
        .map(|v| v.into_iter().map(str::to_string).collect());
    check(borrowed, "borrowed");
    for used in [0, 1, strings.len(), strings.len() + 3] {
        let mut v: Vec<String> = (0..used).map(|i| "é".repeat(i % 7)).collect();
        let got = structio::read_beve(&mut v, &bytes[..]);
        for s in &v {
            assert!(std::str::from_utf8(s.as_bytes()).is_ok(), "used {used}");
        }
        check(got.map(|()| v), &format!("over {used} used strings"));
    }
}

/// Whether the tree holds a float that is a whole number: such a number may have been written
/// with a fraction or an exponent whose decimal value is not exactly that float
/// (`1.00000000000000001`, `1e30`), which an integer target reads by its decimal value from
/// the text and by the float's value from the tree (see `structio::from_value_ref_with`).
fn has_whole_float(v: &Value) -> bool {
    let mut work = vec![v];
    while let Some(v) = work.pop() {
        match v {
            Value::Number(n) if n.is_float() => {
                let f = n.as_f64_lossy();
                if f.is_finite() && f.trunc() == f {
                    return true;
                }
            }
            Value::Array(a) => work.extend(a.iter()),
            Value::Object(m) => work.extend(m.values()),
            _ => {}
        }
    }
    false
}

/// `T` read from the document and from its `Value` (`from_value_ref`, `from_value`): the
/// same value, or errors with the same message and path, unless the tree holds a whole float
/// (`exact` is false) or either read hit a budget (the untagged enums' re-read budget counts
/// bytes in the text and values in the tree). Whatever the tree gives reads back from its
/// own `to_value`.
fn same_through_value<T>(data: &[u8], v: &Value, exact: bool)
where
    T: structio::ReflectOwned + PartialEq + std::fmt::Debug,
{
    let direct = structio::from_json::<T>(data);
    let via = structio::from_value_ref::<T>(v);
    let owned = structio::from_value::<T>(v.clone());
    match (&via, &owned) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "from_value and from_value_ref differ"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("from_value_ref {a:?}, from_value {b:?}"),
    }
    if let Ok(t) = &via {
        let tree = structio::to_value(t);
        let back = structio::from_value_ref::<T>(&tree)
            .unwrap_or_else(|e| panic!("to_value of {t:?} does not read back: {e}"));
        assert_eq!(&back, t, "to_value -> from_value changed the value");
    }
    if let Err(e) = &via {
        let _ = e.to_string();
        assert!(!e.path().is_empty());
    }
    let budget = |r: &Result<T, Error>| {
        r.as_ref()
            .is_err_and(|e| e.category() == structio::Category::Limit)
    };
    if !exact || budget(&direct) || budget(&via) {
        return;
    }
    match (direct, via) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "the tree read another value"),
        (Err(a), Err(b)) => assert_eq!(
            (a.message(), a.path()),
            (b.message(), b.path()),
            "the text and the tree fail differently"
        ),
        (a, b) => panic!("from the text {a:?}, from the tree {b:?}"),
    }
}

/// JSON -> `Value` -> typed (`from_value_ref`, `from_value`) against JSON -> typed, for the
/// shapes `Tree`, the boundary shapes `Doc` and `Held` (constraints and container rules), and
/// `Everything`: the same success and the same value, or the same error message and path
/// (see [`same_through_value`] for the exceptions); what the tree reads reads back from its own
/// `to_value`. Documents that repeat a key (a `Value` keeps the last one) are left out.
/// `Everything` holds a borrowed `RawJson`, which a tree cannot lend: from the tree it fails
/// there (at `$.raw`) or before.
pub fn value_convert(data: &[u8]) {
    let once = JsonOptions {
        read: structio::ReadOptions {
            error_on_duplicate_keys: true,
            ..structio::ReadOptions::default()
        },
        ..JsonOptions::default()
    };
    let v = match structio::json::from_json_with::<Value>(data, &once) {
        Ok(v) => v,
        Err(e) => return clean_error(&e, data),
    };
    let exact = !has_whole_float(&v);
    same_through_value::<super::tree::Tree>(data, &v, exact);
    same_through_value::<super::boundary::Doc>(data, &v, exact);
    same_through_value::<super::boundary::Held>(data, &v, exact);
    same_through_value::<Value>(data, &v, exact);
    let direct = structio::from_json::<Everything>(data);
    let via = structio::from_value_ref::<Everything>(&v);
    if let Ok(e) = via {
        panic!("an Everything with a borrowed RawJson read from a tree: {e:?}");
    }
    if let (Ok(_), Err(e)) = (&direct, &via) {
        if exact {
            assert_eq!(e.path(), "$.raw", "{e}");
        }
    }
}
