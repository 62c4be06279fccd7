//! JSON Patch (RFC 6902), JSON Merge Patch (RFC 7386) and `diff` on `Value`: the examples of
//! both RFCs' Appendix A, written here as our own cases from the RFC text; each operation's
//! failures; atomicity; and two properties (random values diffed then patched; random patches
//! never panic and are atomic, through the `value_patch` fuzz oracle).

#[path = "shapes/patch.rs"]
mod patch_oracle;

use proptest::prelude::*;
use structio::value::{diff, merge_patch, patch, PatchFailure};
use structio::{Category, PathSegment, Value};

fn v(text: &str) -> Value {
    structio::from_json(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Applies `ops` to `doc` and checks the result is `expected` (as values and, since member
/// order is kept, as text).
fn applies(doc: &str, ops: &str, expected: &str) {
    let mut d = v(doc);
    patch(&mut d, &v(ops)).unwrap_or_else(|e| panic!("{e}\ndoc {doc}\npatch {ops}"));
    assert_eq!(d, v(expected), "doc {doc}\npatch {ops}");
    assert_eq!(
        structio::to_json(&d),
        structio::to_json(&v(expected)),
        "member order, doc {doc}\npatch {ops}"
    );
}

/// Applies `ops` to `doc`, which must fail with `failure` at operation `index`, leaving the
/// document as it was; returns the message.
fn fails(doc: &str, ops: &str, failure: PatchFailure, index: usize) -> String {
    let mut d = v(doc);
    let before = structio::to_json(&d);
    let e = patch(&mut d, &v(ops)).expect_err(ops);
    assert_eq!(e.patch_failure(), Some(failure), "{e}\npatch {ops}");
    assert_eq!(e.category(), Category::Data);
    assert_eq!(e.path_segments(), [PathSegment::Index(index)], "{e}");
    assert_eq!(
        structio::to_json(&d),
        before,
        "a failed patch changed the document"
    );
    e.to_string()
}

// RFC 6902 Appendix A.

#[test]
fn a01_adding_an_object_member() {
    applies(
        r#"{"foo": "bar"}"#,
        r#"[{"op": "add", "path": "/baz", "value": "qux"}]"#,
        r#"{"foo": "bar", "baz": "qux"}"#,
    );
}

#[test]
fn a02_adding_an_array_element() {
    applies(
        r#"{"foo": ["bar", "baz"]}"#,
        r#"[{"op": "add", "path": "/foo/1", "value": "qux"}]"#,
        r#"{"foo": ["bar", "qux", "baz"]}"#,
    );
}

#[test]
fn a03_removing_an_object_member() {
    applies(
        r#"{"baz": "qux", "foo": "bar"}"#,
        r#"[{"op": "remove", "path": "/baz"}]"#,
        r#"{"foo": "bar"}"#,
    );
}

#[test]
fn a04_removing_an_array_element() {
    applies(
        r#"{"foo": ["bar", "qux", "baz"]}"#,
        r#"[{"op": "remove", "path": "/foo/1"}]"#,
        r#"{"foo": ["bar", "baz"]}"#,
    );
}

#[test]
fn a05_replacing_a_value() {
    applies(
        r#"{"baz": "qux", "foo": "bar"}"#,
        r#"[{"op": "replace", "path": "/baz", "value": "boo"}]"#,
        r#"{"baz": "boo", "foo": "bar"}"#,
    );
}

#[test]
fn a06_moving_a_value() {
    applies(
        r#"{"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}}"#,
        r#"[{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}]"#,
        r#"{"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}}"#,
    );
}

#[test]
fn a07_moving_an_array_element() {
    applies(
        r#"{"foo": ["all", "grass", "cows", "eat"]}"#,
        r#"[{"op": "move", "from": "/foo/1", "path": "/foo/3"}]"#,
        r#"{"foo": ["all", "cows", "eat", "grass"]}"#,
    );
}

#[test]
fn a08_testing_a_value_success() {
    applies(
        r#"{"baz": "qux", "foo": ["a", 2, "c"]}"#,
        r#"[{"op": "test", "path": "/baz", "value": "qux"},
            {"op": "test", "path": "/foo/1", "value": 2}]"#,
        r#"{"baz": "qux", "foo": ["a", 2, "c"]}"#,
    );
}

#[test]
fn a09_testing_a_value_error() {
    let m = fails(
        r#"{"baz": "qux"}"#,
        r#"[{"op": "test", "path": "/baz", "value": "bar"}]"#,
        PatchFailure::TestFailed,
        0,
    );
    assert_eq!(
        m,
        "JSON Patch operation 0 (test `/baz`): test failed: the value is \"qux\", not the value \
         the test expects, path $[0]"
    );
}

#[test]
fn a10_adding_a_nested_member_object() {
    applies(
        r#"{"foo": "bar"}"#,
        r#"[{"op": "add", "path": "/child", "value": {"grandchild": {}}}]"#,
        r#"{"foo": "bar", "child": {"grandchild": {}}}"#,
    );
}

#[test]
fn a11_ignoring_unrecognized_elements() {
    applies(
        r#"{"foo": "bar"}"#,
        r#"[{"op": "add", "path": "/baz", "value": "qux", "xyz": 123}]"#,
        r#"{"foo": "bar", "baz": "qux"}"#,
    );
}

#[test]
fn a12_adding_to_a_nonexistent_target() {
    let m = fails(
        r#"{"foo": "bar"}"#,
        r#"[{"op": "add", "path": "/baz/bat", "value": "qux"}]"#,
        PatchFailure::PathNotFound,
        0,
    );
    assert!(
        m.contains("(add `/baz/bat`)") && m.contains("no member `baz`"),
        "{m}"
    );
}

#[test]
fn a13_invalid_json_patch_document() {
    // An operation with `op` twice. A `Value` keeps the last of repeated members, so this reads
    // as a `remove` of the missing `/baz`: refused all the same, and nothing changes.
    let mut d = v(r#"{"foo": "bar"}"#);
    let ops = v(r#"[{"op": "add", "path": "/baz", "value": "qux", "op": "remove"}]"#);
    assert!(patch(&mut d, &ops).is_err());
    assert_eq!(d, v(r#"{"foo": "bar"}"#));
}

#[test]
fn a14_escape_ordering() {
    applies(
        r#"{"/": 9, "~1": 10}"#,
        r#"[{"op": "test", "path": "/~01", "value": 10}]"#,
        r#"{"/": 9, "~1": 10}"#,
    );
}

#[test]
fn a15_comparing_strings_and_numbers() {
    fails(
        r#"{"/": 9, "~1": 10}"#,
        r#"[{"op": "test", "path": "/~01", "value": "10"}]"#,
        PatchFailure::TestFailed,
        0,
    );
}

#[test]
fn a16_adding_an_array_value() {
    applies(
        r#"{"foo": ["bar"]}"#,
        r#"[{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}]"#,
        r#"{"foo": ["bar", ["abc", "def"]]}"#,
    );
}

// Edges of the operations that succeed.

#[test]
fn pointers_and_indices() {
    // The root: replaced by add and replace, of any type.
    applies(
        r#"{"a": 1}"#,
        r#"[{"op": "add", "path": "", "value": [1]}]"#,
        "[1]",
    );
    applies(
        "[1]",
        r#"[{"op": "replace", "path": "", "value": {"x": 2}}]"#,
        r#"{"x": 2}"#,
    );
    applies(
        r#""s""#,
        r#"[{"op": "replace", "path": "", "value": 3}]"#,
        "3",
    );
    // Empty member names: `/` and a trailing `/`.
    applies(
        "{}",
        r#"[{"op": "add", "path": "/", "value": 1}]"#,
        r#"{"": 1}"#,
    );
    applies(
        r#"{"k": {}}"#,
        r#"[{"op": "add", "path": "/k/", "value": 1}]"#,
        r#"{"k": {"": 1}}"#,
    );
    // In an object, digits, `-` and leading zeros are plain names.
    applies(
        r#"{"a": 1}"#,
        r#"[{"op": "add", "path": "/0", "value": 2}, {"op": "add", "path": "/-", "value": 3},
            {"op": "add", "path": "/007", "value": 4}]"#,
        r#"{"a": 1, "0": 2, "-": 3, "007": 4}"#,
    );
    // Arrays: insert before, at the end by index == length or `-`, nested `-`.
    applies(
        "[1, 2]",
        r#"[{"op": "add", "path": "/0", "value": 0}]"#,
        "[0, 1, 2]",
    );
    applies(
        "[1, 2]",
        r#"[{"op": "add", "path": "/2", "value": 3}]"#,
        "[1, 2, 3]",
    );
    applies("[]", r#"[{"op": "add", "path": "/-", "value": 1}]"#, "[1]");
    applies(
        "[1, [2, [3]]]",
        r#"[{"op": "add", "path": "/1/1/-", "value": {"x": [4]}}]"#,
        r#"[1, [2, [3, {"x": [4]}]]]"#,
    );
    // Escapes: `~01` is `~1`, not `/`.
    applies(
        r#"{"a/b": 1, "m~n": 2}"#,
        r#"[{"op": "replace", "path": "/a~1b", "value": 3}, {"op": "remove", "path": "/m~0n"}]"#,
        r#"{"a/b": 3}"#,
    );
    // add on an existing member replaces it in place; null is a value like any other.
    applies(
        r#"{"a": null, "b": 1}"#,
        r#"[{"op": "add", "path": "/a", "value": 2}, {"op": "test", "path": "/b", "value": 1}]"#,
        r#"{"a": 2, "b": 1}"#,
    );
    applies(
        r#"{"a": null}"#,
        r#"[{"op": "test", "path": "/a", "value": null}, {"op": "copy", "from": "/a", "path": "/b"},
            {"op": "move", "from": "/a", "path": "/c"}]"#,
        r#"{"b": null, "c": null}"#,
    );
}

#[test]
fn move_and_copy() {
    // Moving onto itself changes nothing (the location must exist).
    applies(
        r#"{"a": 1}"#,
        r#"[{"op": "move", "from": "/a", "path": "/a"}]"#,
        r#"{"a": 1}"#,
    );
    // Moving up out of a child, and from an array into an object.
    applies(
        r#"{"a": {"b": {"c": 1}}}"#,
        r#"[{"op": "move", "from": "/a/b", "path": "/a"}]"#,
        r#"{"a": {"c": 1}}"#,
    );
    applies(
        r#"{"l": [1, 2, 3], "o": {}}"#,
        r#"[{"op": "move", "from": "/l/0", "path": "/o/first"},
            {"op": "move", "from": "/l/1", "path": "/l/0"}]"#,
        r#"{"l": [3, 2], "o": {"first": 1}}"#,
    );
    applies(
        "[1, 2]",
        r#"[{"op": "move", "from": "/0", "path": "/-"}]"#,
        "[2, 1]",
    );
    // A copy is independent of its source.
    applies(
        r#"{"a": {"b": [1]}}"#,
        r#"[{"op": "copy", "from": "/a", "path": "/c"}, {"op": "add", "path": "/c/b/-", "value": 2},
            {"op": "copy", "from": "/a/b/0", "path": "/a/b/0"}]"#,
        r#"{"a": {"b": [1, 1]}, "c": {"b": [1, 2]}}"#,
    );
    // Copying the whole document into itself.
    applies(
        r#"{"a": 1}"#,
        r#"[{"op": "copy", "from": "", "path": "/b"}]"#,
        r#"{"a": 1, "b": {"a": 1}}"#,
    );
}

#[test]
fn test_compares_numbers_by_value_and_objects_without_order() {
    let doc = r#"{"n": 1, "f": 2.5, "o": {"x": 1, "y": [1, 2]}, "big": 18446744073709551615}"#;
    applies(
        doc,
        r#"[{"op": "test", "path": "/n", "value": 1.0}, {"op": "test", "path": "/n", "value": 1e0},
            {"op": "test", "path": "/f", "value": 25e-1},
            {"op": "test", "path": "/o", "value": {"y": [1.0, 2], "x": 1}},
            {"op": "test", "path": "/big", "value": 18446744073709551615}]"#,
        doc,
    );
    // Not equal: another number, a string of the digits, array order, an extra member, a
    // float that rounds to the same double as a large integer.
    for (path, value) in [
        ("/n", "2"),
        ("/n", r#""1""#),
        ("/n", "true"),
        ("/o/y", "[2, 1]"),
        ("/o", r#"{"x": 1, "y": [1, 2], "z": null}"#),
        ("/big", "18446744073709551616.0"),
        ("/f", "null"),
    ] {
        let ops = format!(r#"[{{"op": "test", "path": "{path}", "value": {value}}}]"#);
        fails(doc, &ops, PatchFailure::TestFailed, 0);
    }
}

// Failures of each operation.

#[test]
fn add_failures() {
    use PatchFailure::*;
    let doc = r#"{"a": [1, 2], "s": "x"}"#;
    for (path, failure) in [
        ("/a/3", PathNotFound),   // index > length
        ("/a/-1", PathNotFound),  // not an index
        ("/a/01", PathNotFound),  // leading zero
        ("/a/1e0", PathNotFound), // not decimal digits
        ("/a/x", PathNotFound),   // a name in an array
        ("/b/c", PathNotFound),   // missing parent
        ("/s/0", PathNotFound),   // into a string
        ("/a/0/x", PathNotFound), // into a number
        ("a", InvalidPatch),      // not a pointer
        ("/~2", InvalidPatch),    // bad escape
        ("/a~", InvalidPatch),    // lone `~`
    ] {
        let ops = format!(r#"[{{"op": "add", "path": "{path}", "value": 0}}]"#);
        let m = fails(doc, &ops, failure, 0);
        assert!(m.starts_with("JSON Patch operation 0 (add"), "{m}");
    }
    let m = fails(doc, r#"[{"op": "add", "path": "/x"}]"#, InvalidPatch, 0);
    assert!(m.contains("missing `value`"), "{m}");
    let m = fails(
        doc,
        r#"[{"op": "add", "path": "/a/9", "value": 0}]"#,
        PathNotFound,
        0,
    );
    assert!(
        m.contains("index 9 is out of range for an array of length 2"),
        "{m}"
    );
}

#[test]
fn remove_failures() {
    use PatchFailure::*;
    let doc = r#"{"a": [1, 2], "o": {"k": 1}}"#;
    for path in ["/b", "/a/2", "/a/-", "/a/00", "/o/k/x", "/x/y", "/o/K"] {
        let ops = format!(r#"[{{"op": "remove", "path": "{path}"}}]"#);
        fails(doc, &ops, PathNotFound, 0);
    }
    let m = fails(doc, r#"[{"op": "remove", "path": ""}]"#, InvalidPatch, 0);
    assert!(m.contains("whole document"), "{m}");
    fails(doc, r#"[{"op": "remove"}]"#, InvalidPatch, 0);
}

#[test]
fn replace_failures() {
    use PatchFailure::*;
    let doc = r#"{"a": [1, 2], "o": {"k": 1}}"#;
    for path in ["/b", "/a/2", "/a/-", "/o/x/y", "/a/1e0"] {
        let ops = format!(r#"[{{"op": "replace", "path": "{path}", "value": 0}}]"#);
        fails(doc, &ops, PathNotFound, 0);
    }
    let m = fails(
        doc,
        r#"[{"op": "replace", "path": "/a/0"}]"#,
        InvalidPatch,
        0,
    );
    assert!(m.contains("missing `value`"), "{m}");
}

#[test]
fn move_failures() {
    use PatchFailure::*;
    let doc = r#"{"a": {"b": 1}, "l": [1]}"#;
    let m = fails(doc, r#"[{"op": "move", "path": "/c"}]"#, InvalidPatch, 0);
    assert!(m.contains("missing `from`"), "{m}");
    let m = fails(
        doc,
        r#"[{"op": "move", "from": "/x", "path": "/c"}]"#,
        PathNotFound,
        0,
    );
    assert!(m.contains("no member `x`"), "{m}");
    let m = fails(
        doc,
        r#"[{"op": "move", "from": "/a", "path": "/a/b/c"}]"#,
        InvalidPatch,
        0,
    );
    assert!(m.contains("into its own child"), "{m}");
    fails(
        doc,
        r#"[{"op": "move", "from": "", "path": "/x"}]"#,
        InvalidPatch,
        0,
    );
    fails(
        doc,
        r#"[{"op": "move", "from": "/l/1e0", "path": "/x"}]"#,
        PathNotFound,
        0,
    );
    fails(
        doc,
        r#"[{"op": "move", "from": "/x", "path": "/x"}]"#,
        PathNotFound,
        0,
    );
    // The source is found and taken, then the target's parent is missing: nothing changes.
    fails(
        doc,
        r#"[{"op": "move", "from": "/a/b", "path": "/n/o"}]"#,
        PathNotFound,
        0,
    );
    fails(
        doc,
        r#"[{"op": "move", "from": "/l/0", "path": "/l/1"}]"#,
        PathNotFound,
        0,
    );
    fails(
        doc,
        r#"[{"op": "move", "from": 7, "path": "/l/1"}]"#,
        InvalidPatch,
        0,
    );
    // `/a` is not a prefix of `/ab`.
    applies(
        r#"{"a": 1}"#,
        r#"[{"op": "move", "from": "/a", "path": "/ab"}]"#,
        r#"{"ab": 1}"#,
    );
}

#[test]
fn copy_failures() {
    use PatchFailure::*;
    let doc = r#"{"a": {"b": 1}, "l": [1]}"#;
    fails(doc, r#"[{"op": "copy", "path": "/c"}]"#, InvalidPatch, 0);
    fails(
        doc,
        r#"[{"op": "copy", "from": "/x", "path": "/c"}]"#,
        PathNotFound,
        0,
    );
    fails(
        doc,
        r#"[{"op": "copy", "from": "/a", "path": "/l/5"}]"#,
        PathNotFound,
        0,
    );
    fails(
        doc,
        r#"[{"op": "copy", "from": "/l/-", "path": "/c"}]"#,
        PathNotFound,
        0,
    );
    fails(
        doc,
        r#"[{"op": "copy", "from": "a", "path": "/c"}]"#,
        InvalidPatch,
        0,
    );
}

#[test]
fn test_failures() {
    use PatchFailure::*;
    let doc = r#"{"a": [1, 2]}"#;
    let m = fails(doc, r#"[{"op": "test", "path": "/a"}]"#, InvalidPatch, 0);
    assert!(m.contains("missing `value`"), "{m}");
    fails(
        doc,
        r#"[{"op": "test", "path": "/b", "value": 1}]"#,
        PathNotFound,
        0,
    );
    fails(
        doc,
        r#"[{"op": "test", "path": "/a/00", "value": 1}]"#,
        PathNotFound,
        0,
    );
    fails(
        doc,
        r#"[{"op": "test", "path": "/a/-", "value": 1}]"#,
        PathNotFound,
        0,
    );
    fails(
        doc,
        r#"[{"op": "test", "path": "/a", "value": [1]}]"#,
        TestFailed,
        0,
    );
}

#[test]
fn invalid_patch_documents() {
    use PatchFailure::*;
    let doc = r#"{"a": 1}"#;
    let m = fails(
        doc,
        r#"[{"op": "spam", "path": "/a", "value": 1}]"#,
        InvalidPatch,
        0,
    );
    assert!(m.contains("unknown op `spam`"), "{m}");
    let m = fails(doc, r#"[{"path": "/a", "value": 1}]"#, InvalidPatch, 0);
    assert!(m.contains("missing `op`"), "{m}");
    let m = fails(doc, r#"[{"op": "add", "value": 1}]"#, InvalidPatch, 0);
    assert!(m.contains("missing `path`"), "{m}");
    let m = fails(
        doc,
        r#"[{"op": "add", "path": null, "value": 1}]"#,
        InvalidPatch,
        0,
    );
    assert!(m.contains("`path` must be a string, found null"), "{m}");
    fails(
        doc,
        r#"[{"op": 1, "path": "/a", "value": 1}]"#,
        InvalidPatch,
        0,
    );
    fails(
        doc,
        r#"[{"op": "ADD", "path": "/a", "value": 1}]"#,
        InvalidPatch,
        0,
    );
    fails(doc, "[[]]", InvalidPatch, 0);
    fails(
        doc,
        r#"[{"op": "test", "path": "/a", "value": 1}, 5]"#,
        InvalidPatch,
        1,
    );
    // Not an array at all: the error has no operation index.
    for ops in [r#"{"op": "add", "path": "/a", "value": 1}"#, "null", "3"] {
        let mut d = v(doc);
        let e = patch(&mut d, &v(ops)).unwrap_err();
        assert_eq!(e.patch_failure(), Some(InvalidPatch));
        assert!(e.path_segments().is_empty());
        assert!(
            e.to_string()
                .starts_with("JSON Patch: invalid patch document: a patch must be an array"),
            "{e}"
        );
    }
    // The empty patch changes nothing, on any document.
    applies(r#"{"a": 1}"#, "[]", r#"{"a": 1}"#);
    applies("7", "[]", "7");
}

#[test]
fn a_failing_third_operation_leaves_the_document_unchanged() {
    let doc = r#"{"z": 0, "list": [1, 2, 3], "o": {"k": "v", "m": [true]}, "a": null}"#;
    let ops = r#"[
        {"op": "remove", "path": "/z"},
        {"op": "add", "path": "/list/0", "value": 0},
        {"op": "test", "path": "/o/k", "value": "not v"},
        {"op": "add", "path": "/never", "value": 1}
    ]"#;
    let m = fails(doc, ops, PatchFailure::TestFailed, 2);
    assert!(
        m.starts_with("JSON Patch operation 2 (test `/o/k`): test failed"),
        "{m}"
    );
    // And with an operation whose target is missing, after a move that emptied a member.
    let ops = r#"[
        {"op": "move", "from": "/z", "path": "/zz"},
        {"op": "remove", "path": "/o/k"},
        {"op": "replace", "path": "/o/k", "value": 1}
    ]"#;
    fails(doc, ops, PatchFailure::PathNotFound, 2);
    // A malformed operation after a failing one: the document is checked first.
    let ops = r#"[{"op": "remove", "path": "/nope"}, {"op": "add", "path": "/x"}]"#;
    fails(doc, ops, PatchFailure::InvalidPatch, 1);
}

#[test]
fn typed_arrays_and_integer_keyed_objects() {
    let mut doc = Value::from_iter([("t", Value::from(vec![1.5f64, 2.5]))]);
    patch(
        &mut doc,
        &v(r#"[{"op": "test", "path": "/t", "value": [1.5, 2.5]},
               {"op": "replace", "path": "/t/0", "value": "x"}]"#),
    )
    .unwrap();
    assert_eq!(structio::to_json(&doc), r#"{"t":["x",2.5]}"#);
}

// RFC 7386 Appendix A, then the example of its section 3.

#[test]
fn merge_patch_appendix_a() {
    for (target, p, result) in [
        (r#"{"a":"b"}"#, r#"{"a":"c"}"#, r#"{"a":"c"}"#),
        (r#"{"a":"b"}"#, r#"{"b":"c"}"#, r#"{"a":"b","b":"c"}"#),
        (r#"{"a":"b"}"#, r#"{"a":null}"#, "{}"),
        (r#"{"a":"b","b":"c"}"#, r#"{"a":null}"#, r#"{"b":"c"}"#),
        (r#"{"a":["b"]}"#, r#"{"a":"c"}"#, r#"{"a":"c"}"#),
        (r#"{"a":"c"}"#, r#"{"a":["b"]}"#, r#"{"a":["b"]}"#),
        (
            r#"{"a":{"b":"c"}}"#,
            r#"{"a":{"b":"d","c":null}}"#,
            r#"{"a":{"b":"d"}}"#,
        ),
        (r#"{"a":[{"b":"c"}]}"#, r#"{"a":[1]}"#, r#"{"a":[1]}"#),
        (r#"["a","b"]"#, r#"["c","d"]"#, r#"["c","d"]"#),
        (r#"{"a":"b"}"#, r#"["c"]"#, r#"["c"]"#),
        (r#"{"a":"foo"}"#, "null", "null"),
        (r#"{"a":"foo"}"#, r#""bar""#, r#""bar""#),
        (r#"{"e":null}"#, r#"{"a":1}"#, r#"{"e":null,"a":1}"#),
        (r#"[1,2]"#, r#"{"a":"b","c":null}"#, r#"{"a":"b"}"#),
        ("{}", r#"{"a":{"bb":{"ccc":null}}}"#, r#"{"a":{"bb":{}}}"#),
    ] {
        let mut t = v(target);
        merge_patch(&mut t, &v(p));
        assert_eq!(
            structio::to_json(&t),
            structio::to_json(&v(result)),
            "{target} + {p}"
        );
    }
}

#[test]
fn merge_patch_section_3_example() {
    let mut t = v(r#"{
        "title": "Goodbye!",
        "author": {"givenName": "John", "familyName": "Doe"},
        "tags": ["example", "sample"],
        "content": "This will be unchanged"
    }"#);
    merge_patch(
        &mut t,
        &v(r#"{
            "title": "Hello!",
            "phoneNumber": "+01-123-456-7890",
            "author": {"familyName": null},
            "tags": ["example"]
        }"#),
    );
    assert_eq!(
        structio::to_json(&t),
        structio::to_json(&v(r#"{
            "title": "Hello!",
            "author": {"givenName": "John"},
            "tags": ["example"],
            "content": "This will be unchanged",
            "phoneNumber": "+01-123-456-7890"
        }"#))
    );
}

#[test]
fn diff_examples() {
    let cases = [
        (r#"{"a": 1}"#, r#"{"a": 1}"#, "[]"),
        ("1", "1.0", "[]"),
        (r#"{"a": 1, "b": 2}"#, r#"{"b": 2, "a": 1}"#, "[]"),
        ("[1, 2]", "[1]", r#"[{"op":"remove","path":"/1"}]"#),
        (
            "[1]",
            "[1, 2, 3]",
            r#"[{"op":"add","path":"/1","value":2},{"op":"add","path":"/2","value":3}]"#,
        ),
        (
            r#"{"a/b": {"~": 1}}"#,
            r#"{"a/b": {"~": 2}}"#,
            r#"[{"op":"replace","path":"/a~1b/~0","value":2}]"#,
        ),
        (
            r#"{"a": 1}"#,
            "[1]",
            r#"[{"op":"replace","path":"","value":[1]}]"#,
        ),
        (
            "[3, 2, 1]",
            "[3]",
            r#"[{"op":"remove","path":"/2"},{"op":"remove","path":"/1"}]"#,
        ),
    ];
    for (from, to, expected) in cases {
        let d = diff(&v(from), &v(to));
        assert_eq!(structio::to_json(&d), expected, "{from} -> {to}");
        let mut x = v(from);
        patch(&mut x, &d).unwrap();
        assert_eq!(x, v(to));
    }
}

/// JSON-like values: every JSON kind, names and strings from a small set that includes the
/// characters JSON Pointer escapes, numbers of several kinds.
fn json_value() -> impl Strategy<Value = Value> {
    let name = prop::sample::select(vec!["", "a", "b", "~", "/", "0", "-", "a/~b"]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..4).prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-4i32..4).prop_map(|i| Value::from(f64::from(i) / 2.0)),
        name.clone().prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 40, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
            prop::collection::vec((name.clone(), inner), 0..5).prop_map(Value::from_iter),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn diff_then_patch_gives_the_target(from in json_value(), to in json_value()) {
        let d = diff(&from, &to);
        let mut x = from.clone();
        patch(&mut x, &d).map_err(|e| TestCaseError::fail(format!("{e}\n{}", structio::to_json(&d))))?;
        prop_assert!(x == to, "{} != {}", structio::to_json(&x), structio::to_json(&to));
        prop_assert_eq!(diff(&to, &to).len(), Some(0));
    }

    #[test]
    fn patch_with_random_operations_never_panics_and_is_atomic(
        data in prop::collection::vec(any::<u8>(), 0..200)
    ) {
        patch_oracle::value_patch(&data);
    }

    #[test]
    fn merge_patch_is_idempotent(target in json_value(), p in json_value()) {
        let mut once = target.clone();
        merge_patch(&mut once, &p);
        let mut twice = once.clone();
        merge_patch(&mut twice, &p);
        prop_assert_eq!(structio::to_json(&once), structio::to_json(&twice));
    }
}
