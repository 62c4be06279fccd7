//! Hostile JSON with comments (`ReadOptions::comments`): megabytes of comments, unterminated
//! ones, nesting behind comments, lone slashes, comment-looking strings, invalid UTF-8 in
//! comments, every prefix of a commented document, through every reader that takes the
//! option.

use crate::shapes::everything::{Everything, SAMPLE_JSON};
use crate::shapes::oracles::with_comments;
use crate::{bounded, err, err_with, timed};
use structio::json::{
    from_json_with, minify_with, parse_with, prettify_with, validate_with, values_with,
    MinifyOptions, Options, PrettyOptions,
};
use structio::{ParseOptions, RawJsonBuf, ReadOptions, Value};

fn read() -> ReadOptions {
    ReadOptions {
        comments: true,
        ..ReadOptions::default()
    }
}

fn opts() -> Options {
    Options {
        read: read(),
        ..Options::default()
    }
}

/// Every reader with comments on must reject `doc`, with an error whose message contains
/// `needle` and whose offset lies in the input.
#[track_caller]
fn all_reject(what: &str, doc: &[u8], needle: &str) {
    let o = opts();
    let mini = MinifyOptions {
        comments: true,
        ..MinifyOptions::default()
    };
    let pretty = PrettyOptions {
        comments: true,
        ..PrettyOptions::default()
    };
    // A derived struct may stop earlier, at a value of the wrong type.
    let e = err(what, from_json_with::<Everything>(doc, &o));
    assert!(e.offset() <= doc.len(), "{what}: offset past the input");
    let errors = [
        err(what, from_json_with::<Value>(doc, &o)),
        err(what, from_json_with::<RawJsonBuf>(doc, &o)),
        err(what, validate_with(doc, &o.read)),
        err(what, minify_with(doc, &mini)),
        err(what, prettify_with(doc, &pretty)),
        err(
            what,
            values_with::<Value>(doc, &o)
                .collect::<structio::Result<Vec<_>>>()
                .map(|v| v.len()),
        ),
    ];
    for e in errors {
        assert!(e.offset() <= doc.len(), "{what}: offset past the input");
        assert!(
            e.message().contains(needle),
            "{what}: `{}` does not mention `{needle}`",
            e.message()
        );
    }
    let p = ParseOptions {
        read: o.read,
        ..ParseOptions::default()
    };
    assert!(
        parse_with::<Value>(doc, &p).is_err(),
        "{what}: parse accepted"
    );
}

#[test]
fn megabytes_of_comments_read_in_linear_time() {
    bounded(
        "jsonc::megabytes_of_comments_read_in_linear_time",
        256,
        || {
            const N: usize = 1_000_000;
            let o = opts();
            let mut lines = "//\n".repeat(N);
            lines.push('1');
            let mut blocks = "/**/".repeat(N);
            blocks.push_str("[1]");
            let mut between = "[".to_string();
            between.push_str(&"1,/* x */".repeat(N));
            between.push_str("1]");
            for doc in [&lines, &blocks, &between] {
                timed("a million comments", 3000, || {
                    from_json_with::<Value>(doc, &o).unwrap();
                    validate_with(doc.as_bytes(), &o.read).unwrap();
                    let n = values_with::<Value>(doc, &o).count();
                    assert_eq!(n, 1);
                });
            }
            // One comment of 16 MB, closed and not.
            let mut long = "/*".to_string();
            long.push_str(&"x".repeat(16 << 20));
            timed("an unterminated 16 MB comment", 3000, || {
                err_with(
                    "open",
                    from_json_with::<Value>(&long, &o),
                    "unterminated comment",
                );
            });
            long.push_str("*/ 2");
            timed("a closed 16 MB comment", 3000, || {
                assert_eq!(from_json_with::<u8>(&long, &o).unwrap(), 2);
            });
            // A million comment openers that never close (`/*/*/*...` closes at the first `*/`:
            // `*` repeated instead).
            let mut stars = "/*".to_string();
            stars.push_str(&"*".repeat(N));
            timed("a million stars", 3000, || {
                all_reject("stars", stars.as_bytes(), "unterminated comment");
            });
        },
    );
}

#[test]
fn nesting_behind_comments_stops_at_the_limit() {
    bounded(
        "jsonc::nesting_behind_comments_stops_at_the_limit",
        128,
        || {
            const N: usize = 1_000_000;
            let doc = "/**/[".repeat(N);
            timed("a million commented levels", 3000, || {
                all_reject("nesting", doc.as_bytes(), "nesting");
            });
            let doc = "{\"a\"://\n".repeat(N);
            timed("a million commented objects", 3000, || {
                all_reject("nesting", doc.as_bytes(), "nesting");
            });
        },
    );
}

#[test]
fn slashes_and_comment_looking_strings() {
    const N: usize = 100_000;
    let o = opts();
    for doc in [
        "/".repeat(N),
        "[1 ".to_string() + &"/ ".repeat(N) + "]",
        "/x".repeat(N),
        "[1,".to_string() + &"/".repeat(N),
    ] {
        timed("lone slashes", 3000, || {
            for e in [
                err("slash", from_json_with::<Value>(&doc, &o)),
                err("slash", validate_with(doc.as_bytes(), &o.read)),
            ] {
                assert!(e.offset() == doc.len() || doc.as_bytes()[e.offset()] == b'/');
            }
        });
    }
    // Strings full of comment openers and quotes escaped inside them.
    let one = r#""/* \" // \\","#;
    let doc = format!("[{}1]", one.repeat(N));
    timed("comment-looking strings", 3000, || {
        let v: Vec<Value> = from_json_with(&doc, &o).unwrap();
        assert_eq!(v.len(), N + 1);
    });
    // An unterminated string hides what follows it: the reader's error, not a comment's.
    let doc = "[\"abc /* x */ ]";
    let e = from_json_with::<Value>(doc, &o).unwrap_err();
    assert!(e.is_eof(), "{e}");
}

#[test]
fn invalid_utf8_inside_comments() {
    for (open, close) in [("/*", "*/"), ("//", "\n")] {
        for bad in [&b"\xFF"[..], b"\xC0\xAF", b"\xED\xA0\x80", b"\xE2\x82"] {
            let mut doc = b"[1, ".to_vec();
            doc.extend_from_slice(open.as_bytes());
            doc.extend_from_slice(b" ok ");
            let at = doc.len();
            doc.extend_from_slice(bad);
            doc.extend_from_slice(close.as_bytes());
            doc.extend_from_slice(b"2]");
            all_reject(&format!("{bad:x?} in {open}"), &doc, "UTF-8");
            let e = from_json_with::<Value>(&doc, &opts()).unwrap_err();
            assert_eq!(e.offset(), at);
        }
    }
}

#[test]
fn every_prefix_of_a_commented_document_is_an_error() {
    let v: Value = structio::from_json(SAMPLE_JSON).unwrap();
    let compact = structio::to_json(&v);
    let doc = with_comments(&compact, 0);
    // The value ends at the last `}`; only what follows may be cut off.
    let end = doc.rfind('}').unwrap();
    for i in 0..=end {
        let cut = &doc.as_bytes()[..i];
        let what = format!("prefix of {i} bytes");
        err(&what, from_json_with::<Value>(cut, &opts()));
        err(&what, from_json_with::<Everything>(cut, &opts()));
        err(&what, validate_with(cut, &read()));
    }
    for i in end + 1..=doc.len() {
        // Cutting into the trailing comment: the value, or an error after it (a lone `/`,
        // a `/*` without its end).
        let cut = &doc.as_bytes()[..i];
        match from_json_with::<Value>(cut, &opts()) {
            Ok(back) => assert!(back == v),
            Err(e) => assert!(e.offset() > end && e.offset() <= i, "{e}"),
        }
    }
}
