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
    let v = match structio::from_json::<Value>(data) {
        Ok(v) => v,
        Err(e) => return clean_error(&e, data),
    };
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

/// JSON -> `Everything`: what we write reads back to an equal value, in JSON and in BEVE.
pub fn json_typed(data: &[u8]) {
    let a = match structio::from_json::<Everything>(data) {
        Ok(v) => v,
        Err(e) => return clean_error(&e, data),
    };
    let text = structio::to_json(&a);
    let b: Everything = structio::from_json(&text)
        .unwrap_or_else(|e| panic!("our own JSON does not read back: {e}\n{text}"));
    assert_eq!(a, b, "typed JSON round trip changed the value:\n{text}");
    let bytes = structio::to_beve(&a);
    let c: Everything = structio::from_beve(&bytes)
        .unwrap_or_else(|e| panic!("our own BEVE does not read back: {e}\n{text}"));
    assert_eq!(a, c, "typed BEVE round trip changed the value:\n{text}");
    json_reuse(&a);
}

/// JSON writing options that name every member, `None` ones as `null`, so reading the text into
/// an existing value must overwrite all of it.
fn json_every_member() -> JsonOptions {
    JsonOptions {
        write_null_members: true,
        ..JsonOptions::default()
    }
}

/// What reading `new`'s full text over `old` must give: `new`, but for maps, whose entries are
/// merged into the old map (a key read again overwrites its value; the others stay).
fn read_over<'a>(old: &Everything<'a>, new: &Everything<'a>) -> Everything<'a> {
    let mut want = new.clone();
    want.str_map = old.str_map.clone();
    want.str_map.extend(new.str_map.clone());
    want.int_map = old.int_map.clone();
    want.int_map.extend(new.int_map.clone());
    want.btree_str = old.btree_str.clone();
    want.btree_str.extend(new.btree_str.clone());
    want.btree_int = old.btree_int.clone();
    want.btree_int.extend(new.btree_int.clone());
    want.enum_map = old.enum_map.clone();
    want.enum_map.extend(new.enum_map.clone());
    want
}

/// Reading into a used value (strings and vectors reuse their buffers) gives what a fresh read
/// gives (maps aside, see [`read_over`]): `a`'s full text read over the sample, and the
/// sample's read over a copy of `a`.
fn json_reuse(a: &Everything) {
    let sample: Everything = structio::from_json(SAMPLE_JSON).unwrap();
    let text = structio::json::to_json_with(a, &json_every_member());
    let mut over = sample.clone();
    structio::read_json(&mut over, &text)
        .unwrap_or_else(|e| panic!("reading over the sample failed: {e}\n{text}"));
    assert_eq!(
        over,
        read_over(&sample, a),
        "reading over the sample differs from a fresh read:\n{text}"
    );
    let sample_text = structio::json::to_json_with(&sample, &json_every_member());
    let mut over = a.clone();
    structio::read_json(&mut over, &sample_text)
        .unwrap_or_else(|e| panic!("reading the sample over a value failed: {e}\n{text}"));
    assert_eq!(
        over,
        read_over(a, &sample),
        "reading the sample over a value differs:\n{text}"
    );
}

/// [`json_reuse`] in BEVE (NaN aside): `a`'s full BEVE read over the sample, and the sample's
/// read over a copy of `a`.
fn beve_reuse(a: &Everything) {
    let every = structio::beve::Options {
        write_null_members: true,
        ..structio::beve::Options::default()
    };
    let sample: Everything = structio::from_json(SAMPLE_JSON).unwrap();
    let bytes = structio::beve::to_beve_with(a, &every);
    let mut over = sample.clone();
    structio::read_beve(&mut over, &bytes)
        .unwrap_or_else(|e| panic!("reading over the sample failed: {e}\n{a:?}"));
    assert!(
        over == read_over(&sample, a) || has_nan(a),
        "BEVE read over the sample differs from a fresh read: {a:?}\n{over:?}"
    );
    let sample_bytes = structio::beve::to_beve_with(&sample, &every);
    let mut over = a.clone();
    structio::read_beve(&mut over, &sample_bytes)
        .unwrap_or_else(|e| panic!("reading the sample over a value failed: {e}\n{a:?}"));
    assert!(
        over == read_over(a, &sample) || has_nan(a),
        "BEVE read of the sample over a value differs: {a:?}"
    );
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
    assert_eq!(
        structio::prettify(&mini).unwrap(),
        pretty,
        "prettify(minify(x)) != prettify(x)"
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
