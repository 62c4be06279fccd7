//! Hostile input to `json::get` and `beve::get`: deep nesting on the way down and in the values
//! skipped, a million members before the target, megabyte pointers and keys, and documents
//! built against the UTF-8 check that grows with what is read (long strings across its end, a
//! long run without strings before a string, a skipped value far longer than what was checked).

use crate::{bounded, err_with, timed};
use structio::{beve, json, Value};

#[test]
fn deep_nesting_on_the_path_and_in_skipped_values() {
    bounded(
        "pointer::deep_nesting_on_the_path_and_in_skipped_values",
        64,
        || {
            const N: usize = 1_000_000;
            let down = "/0".repeat(N);
            let arrays = format!("{}1{}", "[".repeat(N), "]".repeat(N));
            timed("a million levels on the path", 3000, || {
                err_with("json", json::get::<Value>(&arrays, &down), "nesting");
            });
            // Skipped: the deep value comes before the target.
            let skipped = format!("[{}, 1]", "[".repeat(N));
            timed("a million levels skipped", 3000, || {
                err_with("json", json::get::<u8>(&skipped, "/1"), "nesting");
            });
            let objects = format!("{}1{}", "{\"a\":".repeat(N), "}".repeat(N));
            timed("a million objects on the path", 3000, || {
                err_with(
                    "json",
                    json::get::<Value>(&objects, &"/a".repeat(N)),
                    "nesting",
                );
            });
            let mut deep = [0x05u8, 0x04].repeat(N);
            deep.push(0x00);
            timed("a million BEVE levels", 3000, || {
                err_with("beve", beve::get::<Value>(&deep, &down), "nesting");
                let mut skipped = vec![0x05, 0x08];
                skipped.extend_from_slice(&deep);
                skipped.push(0x00);
                err_with(
                    "beve skipped",
                    beve::get::<Value>(&skipped, "/1"),
                    "nesting",
                );
            });
        },
    );
}

#[test]
fn a_million_members_before_the_target_and_long_pointers() {
    bounded(
        "pointer::a_million_members_before_the_target_and_long_pointers",
        256,
        || {
            const N: usize = 1_000_000;
            let mut doc = String::from("{");
            for i in 0..N {
                doc.push_str(&format!("\"k{i}\":{i},"));
            }
            doc.push_str("\"last\":7}");
            timed("the last of a million members", 2000, || {
                assert_eq!(json::get::<u32>(&doc, "/last").unwrap(), 7);
                err_with(
                    "missing",
                    json::get::<u32>(&doc, "/none"),
                    "no member `none`",
                );
            });
            let arr = format!("[{}7]", "0,".repeat(N));
            timed("element a million", 2000, || {
                assert_eq!(json::get::<u32>(&arr, &format!("/{N}")).unwrap(), 7);
                err_with(
                    "past",
                    json::get::<u32>(&arr, &format!("/{}", N + 1)),
                    "out of range",
                );
            });
            let v: Value = structio::from_json(&arr).unwrap();
            let b = structio::to_beve(&v);
            timed("BEVE element a million", 2000, || {
                assert_eq!(beve::get::<u32>(&b, &format!("/{N}")).unwrap(), 7);
            });
            // Megabyte pointers: tokens, escapes, one long key; the message stays short.
            let long = format!("/{}", "~0~1".repeat(N));
            timed("megabyte pointers", 2000, || {
                let e = json::get::<u8>(&doc, &long).unwrap_err();
                assert!(e.to_string().len() < 1000, "{} bytes", e.to_string().len());
                let e = json::get::<u8>("{}", &"/".repeat(N)).unwrap_err();
                assert!(e.to_string().len() < 1000);
                let e = json::get::<u8>("[]", &format!("/{}", "9".repeat(N))).unwrap_err();
                assert!(e.to_string().len() < 1000);
                let e = json::get::<u8>("{}", &format!("/{}~", "a".repeat(N))).unwrap_err();
                assert!(e.to_string().len() < 1000);
                let e = beve::get::<u8>(&b, &format!("/{}", "1".repeat(N))).unwrap_err();
                assert!(e.to_string().len() < 1000);
            });
            // A megabyte key, compared and skipped.
            let key = "k".repeat(N);
            let doc = format!("{{\"{key}\":1,\"a\":2}}");
            timed("a megabyte key", 2000, || {
                assert_eq!(json::get::<u8>(&doc, "/a").unwrap(), 2);
                assert_eq!(json::get::<u8>(&doc, &format!("/{key}")).unwrap(), 1);
            });
        },
    );
}

#[test]
fn the_utf8_check_grows_with_what_is_read() {
    bounded(
        "pointer::the_utf8_check_grows_with_what_is_read",
        512,
        || {
            const MB: usize = 1 << 20;
            // Strings across every boundary of the growing check, of every length.
            let long = "é".repeat(8 * MB);
            let doc = format!("[\"{long}\", 1]");
            timed("an 16 MB string before the target", 3000, || {
                assert_eq!(json::get::<u8>(&doc, "/1").unwrap(), 1);
                assert_eq!(json::get::<String>(&doc, "/0").unwrap().len(), long.len());
            });
            // 4 MB without a string, then one: the check covers it in one step, not one doubling
            // at a time over the whole run.
            let doc = format!("[[{}\"é\"], 1]", "1,".repeat(2 * MB));
            timed("4 MB of numbers, then a string", 3000, || {
                assert_eq!(json::get::<u8>(&doc, "/1").unwrap(), 1);
                let v: Vec<Value> = json::get(&doc, "/0").unwrap();
                assert_eq!(v.len(), 2 * MB + 1);
            });
            // Invalid UTF-8 at the end of a long document before the target, and after it.
            let mut doc = format!("[[{}\"é\"], 1]", "\"ab\",".repeat(2 * MB)).into_bytes();
            let at = doc.len() - 8;
            assert_eq!(doc[at], 0xC3);
            doc[at] = 0xFF;
            timed("invalid UTF-8 late", 3000, || {
                let e = json::get::<u8>(&doc[..], "/1").unwrap_err();
                assert_eq!((e.message(), e.offset()), ("invalid UTF-8".to_string(), at));
                assert_eq!(json::get::<String>(&doc[..], "/0/0").unwrap(), "ab");
            });
            // Many small reads near the start of a large document stay cheap.
            let big = format!("{{\"a\":1,\"rest\":[{}]}}", "\"ü\",".repeat(4 * MB) + "0");
            timed(
                "a thousand reads near the start of a 12 MB document",
                1000,
                || {
                    for _ in 0..1000 {
                        assert_eq!(json::get::<u8>(&big, "/a").unwrap(), 1);
                    }
                },
            );
        },
    );
}
