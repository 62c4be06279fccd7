//! The `value_patch` oracle: a document and a JSON Patch built from raw bytes (so a fuzzer
//! explores them, `tests/regressions/NAME.patch` replays them and `tests/json_patch.rs` runs it
//! on random bytes), applied with `structio::value::patch`.
//!
//! Checked: no panic; a failing patch leaves the document as it was (same value, same text,
//! member order included) and its error prints and names why; a patch succeeds exactly when
//! applying its operations one at a time succeeds, with the same result; `diff` from the old
//! document to the new one patches the old one into the new one; `merge_patch` never panics.

use structio::value::{diff, merge_patch, patch, IntMap, Value};
use structio::{NumKind, PathSegment};

/// Reads the input a byte at a time; zeros once it runs out, so every input builds something.
struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
}

/// Names and pointer tokens: the ones JSON Pointer treats specially among them.
const WORDS: [&str; 12] = [
    "a", "b", "", "~", "/", "0", "1", "-", "01", "a~1", "~0b", "9",
];

fn word(b: &mut Bytes<'_>) -> &'static str {
    WORDS[b.next() as usize % WORDS.len()]
}

/// A value of at most `depth` more levels: every JSON kind, plus a typed array and an
/// integer-keyed object (which `patch` treats as JSON does).
fn value(b: &mut Bytes<'_>, depth: u32) -> Value {
    let tag = b.next() % if depth == 0 { 5 } else { 9 };
    match tag {
        0 => Value::Null,
        1 => Value::from(b.next() & 1 == 1),
        2 => Value::from(b.next() as i64 - 128),
        3 => Value::from(f64::from(b.next()) / 4.0),
        4 => Value::from(word(b)),
        5 => (0..b.next() % 4).map(|_| value(b, depth - 1)).collect(),
        6 => Value::from_iter((0..b.next() % 4).map(|_| (word(b), value(b, depth - 1)))),
        7 => Value::from((0..b.next() % 4).map(|_| b.next()).collect::<Vec<u8>>()),
        _ => {
            let mut m = IntMap::new(NumKind::U8);
            for _ in 0..b.next() % 3 {
                m.insert(b.next() % 4, value(b, depth - 1));
            }
            Value::IntObject(m)
        }
    }
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A JSON pointer: mostly a walk down existing locations of `doc`, then maybe one more token
/// (a new member, `-`, an index past the end, a leading zero: rarely where the operation needs
/// an existing location, `existing`); sometimes a malformed one.
fn pointer(b: &mut Bytes<'_>, doc: &Value, existing: bool) -> String {
    match b.next() {
        0xFF => return "a".to_owned(),
        0xFE => return "/~2".to_owned(),
        _ => {}
    }
    let mut p = String::new();
    let mut v = Some(doc);
    // Where an existing location is needed, mostly not the root (which `remove` refuses and
    // `move` cannot take from).
    let steps = b.next() % 4 + u8::from(existing);
    for _ in 0..steps {
        let Some(cur) = v else { break };
        let n = cur.len().unwrap_or(0);
        if n == 0 || (b.next().is_multiple_of(5) && !(existing && p.is_empty())) {
            break;
        }
        let i = b.next() as usize % n;
        let token = match cur {
            Value::Object(m) => m.keys().nth(i).unwrap_or("").to_owned(),
            Value::IntObject(m) => m.keys().nth(i).map(|k| k.to_string()).unwrap_or_default(),
            _ => i.to_string(),
        };
        v = cur.pointer(&format!("{p}/{}", escape(&token)));
        p.push('/');
        p.push_str(&escape(&token));
    }
    // One more token: sometimes, or nearly always where the walk stayed at the root.
    let more = b.next();
    let extra = if existing {
        more.is_multiple_of(8)
    } else {
        more.is_multiple_of(3) || (p.is_empty() && more % 8 != 1)
    };
    if extra {
        p.push('/');
        let extra = match b.next() % 4 {
            0 => v.and_then(Value::len).unwrap_or(0).to_string(),
            _ => escape(word(b)),
        };
        p.push_str(&extra);
    }
    p
}

/// One operation object: mostly well-formed, sometimes with a member missing or an unknown op.
fn operation(b: &mut Bytes<'_>, doc: &Value) -> Value {
    const OPS: [&str; 6] = ["add", "remove", "replace", "move", "copy", "test"];
    let n = b.next();
    let op = if n >= 250 {
        "spam"
    } else {
        OPS[n as usize % OPS.len()]
    };
    let path = pointer(b, doc, matches!(op, "remove" | "replace" | "test"));
    let mut members = vec![
        ("op", Value::from(op)),
        ("path", Value::from(path.as_str())),
    ];
    match op {
        "move" | "copy" => members.push(("from", Value::from(pointer(b, doc, true)))),
        "test" if b.next().is_multiple_of(2) => {
            // Mostly the value that is there, so that tests pass and later operations run.
            let there = doc.pointer(&path).cloned().unwrap_or(Value::Null);
            members.push(("value", there));
        }
        "remove" => {}
        _ => members.push(("value", value(b, 2))),
    }
    match b.next() {
        0xFF => {
            members.remove(b.next() as usize % members.len());
        }
        0xFE => members.push(("xyz", Value::from(1))),
        _ => {}
    }
    Value::from_iter(members)
}

/// The document and the patch `data` describes.
pub fn build(data: &[u8]) -> (Value, Value) {
    let mut b = Bytes { data, pos: 0 };
    let n_ops = b.next() % 9;
    let depth = u32::from(b.next() % 5);
    // Mostly an object at the top, as patched documents are.
    let doc = match b.next() % 4 {
        0 => value(&mut b, depth),
        _ => Value::from_iter((0..b.next() % 5).map(|_| (word(&mut b), value(&mut b, depth)))),
    };
    let mut ops = Vec::new();
    // Pointers follow the document as the earlier operations leave it, so that later
    // operations mostly find their locations.
    let mut cur = doc.clone();
    for _ in 0..n_ops {
        let op = operation(&mut b, &cur);
        let _ = patch(&mut cur, &Value::from(vec![op.clone()]));
        ops.push(op);
    }
    (doc, Value::from(ops))
}

/// The `value_patch` fuzz target: see the module documentation.
pub fn value_patch(data: &[u8]) {
    let (doc, ops) = build(data);
    check(&doc, &ops);
}

/// The checks of [`value_patch`] on one document and patch.
pub fn check(doc: &Value, ops: &Value) {
    let text = structio::to_json(doc);
    let mut whole = doc.clone();
    let result = patch(&mut whole, ops);

    // One operation at a time: a failing one must leave the document alone too.
    let mut step = doc.clone();
    let mut first_failure = None;
    for (i, op) in ops
        .as_array()
        .map(|a| a.as_slice())
        .unwrap_or(&[])
        .iter()
        .enumerate()
    {
        let before = structio::to_json(&step);
        if let Err(e) = patch(&mut step, &Value::from(vec![op.clone()])) {
            assert!(e.patch_failure().is_some(), "{e}");
            assert_eq!(
                structio::to_json(&step),
                before,
                "operation {i} failed but changed the document: {e}"
            );
            first_failure = Some(i);
            break;
        }
    }

    match result {
        Ok(()) => {
            assert_eq!(
                first_failure, None,
                "the patch succeeds but operation {first_failure:?} alone fails"
            );
            assert_eq!(
                structio::to_json(&whole),
                structio::to_json(&step),
                "the patch differs from its operations one at a time"
            );
        }
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("JSON Patch"), "{message}");
            assert!(e.patch_failure().is_some(), "{message}");
            assert!(
                whole == *doc,
                "a failed patch changed the document: {message}"
            );
            assert_eq!(
                structio::to_json(&whole),
                text,
                "a failed patch changed the document's text: {message}"
            );
            let failed = match e.path_segments().as_slice() {
                [PathSegment::Index(i)] => *i,
                other => panic!("a failed operation's path is $[i], not {other:?}: {message}"),
            };
            // The patch document is checked first, so its error can name a malformed operation
            // after one that would fail when applied; never one before the first failure.
            let first = first_failure.unwrap_or_else(|| {
                panic!("the patch fails ({message}) but its operations one at a time succeed")
            });
            assert!(
                first <= failed,
                "operation {first} fails alone, but the patch names {failed}: {message}"
            );
        }
    }

    // diff turns the old document into the new one.
    let d = diff(doc, &whole);
    let mut again = doc.clone();
    patch(&mut again, &d)
        .unwrap_or_else(|e| panic!("diff's patch fails: {e}\n{}", structio::to_json(&d)));
    assert!(
        again == whole,
        "diff's patch gives {} not {}",
        structio::to_json(&again),
        structio::to_json(&whole)
    );

    // merge_patch with anything never panics.
    let mut merged = doc.clone();
    merge_patch(&mut merged, ops);
    merge_patch(&mut merged, &whole);
}
