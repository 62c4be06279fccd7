//! Reading one value at a JSON pointer (`json::get`, `beve::get`) against reading the whole
//! document as a `Value` and following the pointer there (`Value::pointer`): the oracle of
//! the `json_get` fuzz target, also run by `tests/pointer_get.rs`.

use structio::json::Options as JsonOptions;
use structio::Value;

use super::oracles::clean_error;

/// Escapes a member name as a pointer token.
pub fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// Pointers to values of `v`, in document order, at most `max` of them; every `step`-th
/// value (the root always).
pub fn pointers(v: &Value, max: usize, step: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = 0usize;
    let mut stack: Vec<(String, &Value)> = vec![(String::new(), v)];
    while let Some((p, v)) = stack.pop() {
        if out.len() >= max {
            break;
        }
        if seen.is_multiple_of(step.max(1)) {
            out.push(p.clone());
        }
        seen += 1;
        let mut children: Vec<(String, &Value)> = match v {
            Value::Array(a) => a
                .iter()
                .enumerate()
                .map(|(i, c)| (format!("{p}/{i}"), c))
                .collect(),
            Value::Object(m) => m
                .iter()
                .map(|(k, c)| (format!("{p}/{}", escape(k)), c))
                .collect(),
            Value::IntObject(m) => m.iter().map(|(k, c)| (format!("{p}/{k}"), c)).collect(),
            _ => Vec::new(),
        };
        children.reverse();
        stack.extend(children);
    }
    out
}

/// Pointers that name nothing in a document that has `p`: past the end of an array, a
/// missing member, `-`, a leading zero, a step into the value, a bad escape.
pub fn misses(p: &str) -> Vec<String> {
    vec![
        format!("{p}/999999"),
        format!("{p}/no such member"),
        format!("{p}/-"),
        format!("{p}/00"),
        format!("{p}/0/0/0/0/0/0/0/0"),
        format!("{p}/~2"),
        format!("{p}/a~"),
    ]
}

/// Checks `json::get::<Value>` (and `beve::get::<Value>` on the BEVE of the document) at
/// `pointer` against `whole.pointer(pointer)`, where `whole` is `doc` read as a `Value` with
/// duplicate keys rejected (`get` follows the first of duplicate keys, `from_json` keeps the
/// last): the same value where the pointer finds one, an error where it does not.
pub fn agrees(doc: &[u8], beve: Option<&[u8]>, whole: &Value, pointer: &str) {
    let got = structio::json::get::<Value>(doc, pointer);
    match (whole.pointer(pointer), &got) {
        (Some(want), Ok(v)) => assert!(v == want, "json::get {pointer:?}: {v:?} != {want:?}"),
        (Some(want), Err(e)) => panic!("json::get {pointer:?}: {e}, want {want:?}"),
        (None, Ok(v)) => panic!("json::get {pointer:?}: found {v:?}, Value::pointer nothing"),
        (None, Err(e)) => clean_error(e, doc),
    }
    if let Some(b) = beve {
        let got = structio::beve::get::<Value>(b, pointer);
        match (whole.pointer(pointer), &got) {
            (Some(want), Ok(v)) => {
                assert!(v == want, "beve::get {pointer:?}: {v:?} != {want:?}")
            }
            (Some(want), Err(e)) => panic!("beve::get {pointer:?}: {e}, want {want:?}"),
            (None, Ok(v)) => {
                panic!("beve::get {pointer:?}: found {v:?}, Value::pointer nothing")
            }
            (None, Err(e)) => clean_error(e, b),
        }
    }
}

/// The `json_get` fuzz target: the bytes up to the first newline are a pointer (as UTF-8,
/// lossily), the rest a document. `json::get` and `beve::get` never panic, and agree with
/// `Value::pointer` on that pointer and on pointers to (and just beside) values the document
/// has, whenever the document reads as a `Value` with duplicate keys rejected.
pub fn json_get(data: &[u8]) {
    let (ptr, doc) = match data.iter().position(|&b| b == b'\n') {
        Some(k) => (&data[..k], &data[k + 1..]),
        None => (&b""[..], data),
    };
    let ptr = String::from_utf8_lossy(ptr).into_owned();
    let mut opts = JsonOptions::default();
    opts.read.error_on_duplicate_keys = true;
    let Ok(whole) = structio::json::from_json_with::<Value>(doc, &opts) else {
        // Whatever the document, no panic, and a clean error.
        for p in [ptr.as_str(), "", "/0", "/a"] {
            if let Err(e) = structio::json::get::<Value>(doc, p) {
                clean_error(&e, doc);
            }
            if let Err(e) = structio::beve::get::<Value>(doc, p) {
                clean_error(&e, doc);
            }
        }
        return;
    };
    let beve = structio::to_beve(&whole);
    let mut all = pointers(&whole, 24, 1);
    let near: Vec<String> = all.iter().take(4).flat_map(|p| misses(p)).collect();
    all.extend(near);
    all.push(ptr);
    for p in &all {
        agrees(doc, Some(&beve), &whole, p);
    }
}
