//! The stream readers (`JsonLines::from_reader`, `Delimited::from_reader`, `array_iter`) keep
//! memory bounded by the longest record, not the input: a 2 GB NDJSON stream (made on the fly,
//! never on disk) is read in a child process whose address space may grow by 128 MiB, and
//! hostile streams (endless garbage, endless nesting, records declaring huge lengths, records
//! longer than the limit, endless blank lines; consecutive JSON values: millions of tiny
//! values, deep nesting, values past the limit) end in a clean error, quickly, in bounded
//! memory.

use std::io::{self, Read};

use structio::beve::Delimited;
use structio::json::{array_iter, JsonLines};
use structio::{Category, Reflect, Value};

use super::{bounded, timed};

/// Every member may be left out (the records here are partial).
#[derive(Reflect, Default, Debug)]
#[structio(default)]
struct Rec {
    id: u64,
    name: String,
    tags: Vec<String>,
    score: f64,
}

/// `head`, then `pattern` over and over: `total` bytes in all (`None`: endless).
struct Endless {
    head: Vec<u8>,
    pattern: Vec<u8>,
    /// Where in `head`, then in `pattern`, the next byte comes from.
    at: usize,
    in_head: bool,
    left: Option<u64>,
}

impl Endless {
    fn new(head: &[u8], pattern: &[u8], total: Option<u64>) -> Endless {
        Endless {
            head: head.to_vec(),
            pattern: pattern.to_vec(),
            at: 0,
            in_head: !head.is_empty(),
            left: total,
        }
    }
}

impl Read for Endless {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let mut n = out.len();
        if let Some(left) = self.left {
            n = n.min(usize::try_from(left).unwrap_or(usize::MAX));
        }
        let mut done = 0;
        while done < n {
            let src = if self.in_head {
                &self.head
            } else {
                &self.pattern
            };
            let k = (src.len() - self.at).min(n - done);
            out[done..done + k].copy_from_slice(&src[self.at..self.at + k]);
            done += k;
            self.at += k;
            if self.at == src.len() {
                self.at = 0;
                self.in_head = false;
            }
        }
        if let Some(left) = &mut self.left {
            *left -= done as u64;
        }
        Ok(done)
    }
}

/// The records of the generated stream: `RECORDS` distinct lines, cycled.
const RECORDS: u64 = 1024;

/// One block of the generated NDJSON stream: records with ids `0..RECORDS`, each on its line.
fn block() -> Vec<u8> {
    let mut out = String::new();
    for i in 0..RECORDS {
        out.push_str(&format!(
            "{{\"id\":{i},\"name\":\"item {i} \\u00e9\",\"tags\":[\"a\",\"b{}\"],\"score\":{}.5}}\n",
            i % 7,
            i % 100
        ));
    }
    out.into_bytes()
}

/// Reads `blocks` blocks of generated NDJSON (the size printed) through
/// `JsonLines::from_reader` into one reused record; checks the count and the sum of the ids.
fn read_generated(blocks: u64) {
    let block = block();
    let total = blocks * block.len() as u64;
    let start = std::time::Instant::now();
    let mut lines = JsonLines::from_reader(Endless::new(&[], &block, Some(total)));
    let mut r = Rec::default();
    let (mut n, mut sum) = (0u64, 0u64);
    while let Some(res) = lines.read_into(&mut r) {
        res.unwrap();
        n += 1;
        sum += r.id;
    }
    assert_eq!(n, blocks * RECORDS);
    assert_eq!(sum, blocks * (RECORDS * (RECORDS - 1) / 2));
    assert_eq!(lines.offset() as u64, total - 1);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} MB of NDJSON, {n} records, in {secs:.1} s ({:.0} MB/s)",
        total / 1_000_000,
        total as f64 / secs / 1e6
    );
}

/// 2 GB of NDJSON, never held: in a child process whose address space may grow by 128 MiB.
#[test]
fn two_gigabytes_of_ndjson_in_bounded_memory() {
    let blocks = 2_000_000_000 / block().len() as u64;
    bounded(
        "streams::two_gigabytes_of_ndjson_in_bounded_memory",
        128,
        || read_generated(blocks),
    );
}

/// Garbage, endless nesting and unterminated values on endless streams: an error after at
/// most about 64 KiB (the first full check) or the record limit, in bounded memory.
#[test]
fn endless_hostile_json_streams_end_in_an_error() {
    bounded(
        "streams::endless_hostile_json_streams_end_in_an_error",
        128,
        || {
            let cases: &[(&[u8], &[u8], &str)] = &[
                (b"", b"x", "expected a value"),
                (b"[", b"x", "expected a value"),
                (b"{\"a\":1", b" x", "expected `,` or `}`"),
                (b"", b"[", "nesting deeper than the limit of 256"),
                (b"", b"{\"a\":[", "nesting deeper than the limit of 256"),
                (b"{}", b"x", "expected a line break after the record"),
                (b"\"", b"\x01", "control character in string"),
                (b"\"\xFF", b"a", "invalid UTF-8"),
                (b"", b"1", "record larger than the limit of 16777216 bytes"),
                (
                    b"[\"",
                    b"a",
                    "record larger than the limit of 16777216 bytes",
                ),
                (
                    b"[",
                    b"1,",
                    "record larger than the limit of 16777216 bytes",
                ),
            ];
            for (head, pattern, msg) in cases {
                let what = format!(
                    "{:?} then {:?}",
                    String::from_utf8_lossy(head),
                    String::from_utf8_lossy(pattern)
                );
                let e = timed(&what, 2000, || {
                    let mut lines = JsonLines::from_reader(Endless::new(head, pattern, None))
                        .max_record_len(16 << 20);
                    let mut first = lines.read::<Value>();
                    if head == b"{}" {
                        assert!(first.unwrap().is_ok());
                        first = lines.read::<Value>();
                    }
                    first.unwrap().unwrap_err()
                });
                assert!(e.message().starts_with(msg), "{what}: {e}");
            }
            // An array of endless elements reads on in constant memory; one endless element
            // is an error.
            let mut it = array_iter::<u32, _>(Endless::new(b"[", b"7, ", None));
            assert!(it.by_ref().take(3_000_000).all(|r| r.unwrap() == 7));
            let e = array_iter::<String, _>(Endless::new(b"[\"", b"s", None))
                .max_record_len(16 << 20)
                .next()
                .unwrap()
                .unwrap_err();
            assert_eq!(e.category(), Category::Limit);
            assert_eq!((e.offset(), e.path()), (1, "$[0]".to_string()));
        },
    );
}

/// Blank lines and spaces between records are passed over without being kept.
#[test]
fn long_gaps_between_records_are_not_kept() {
    bounded(
        "streams::long_gaps_between_records_are_not_kept",
        64,
        || {
            let mut lines = JsonLines::from_reader(Endless::new(
                b"{\"id\":1}",
                b"\n \r\n  ",
                Some(8 + 6 * (20 << 20)),
            ));
            assert_eq!(lines.read::<Rec>().unwrap().unwrap().id, 1);
            assert!(lines.read::<Rec>().is_none());
            assert_eq!(lines.offset(), 8);
            // Spaces after a record without a line break: the next record is an error, found
            // after 100 MiB of spaces held in no buffer.
            let mut lines = JsonLines::from_reader(
                Endless::new(b"1", b" ", Some(1 + (100 << 20))).chain(&b"2"[..]),
            );
            assert_eq!(lines.read::<u8>().unwrap().unwrap(), 1);
            let e = lines.read::<u8>().unwrap().unwrap_err();
            assert_eq!(e.message(), "expected a line break after the record");
            assert_eq!(
                (e.offset(), e.line_column()),
                (1 + (100 << 20), Some((1, 2 + (100 << 20))))
            );
        },
    );
}

/// BEVE values declaring huge lengths allocate nothing for them: a short stream is an
/// end-of-input error at once; an endless one is an error at the record limit.
#[test]
fn huge_declared_beve_lengths_are_never_allocated() {
    bounded(
        "streams::huge_declared_beve_lengths_are_never_allocated",
        128,
        || {
            let huge = [0xFFu8; 8];
            let heads: Vec<Vec<u8>> = [0x02u8, 0x05, 0x03, 0x64, 0x1C, 0x3C, 0x73]
                .iter()
                .map(|&h| [&[h][..], &huge[..]].concat())
                .collect();
            for head in &heads {
                let what = format!("{head:02X?}");
                let e = timed(&what, 2000, || {
                    Delimited::from_reader(&[&head[..], &[0u8; 100][..]].concat()[..])
                        .read::<Value>()
                        .unwrap()
                        .unwrap_err()
                });
                assert!(e.is_eof() || e.category() == Category::Limit, "{what}: {e}");
                let e = timed(&what, 2000, || {
                    Delimited::from_reader(Endless::new(head, &[0u8], None))
                        .max_record_len(16 << 20)
                        .read::<Value>()
                        .unwrap()
                        .unwrap_err()
                });
                assert_eq!(e.category(), Category::Limit, "{what}: {e}");
                assert_eq!(e.offset(), 0);
            }
            // Endless nesting and garbage: errors at once.
            let e = Delimited::from_reader(Endless::new(&[], &[0x05, 0x04], None))
                .read::<Value>()
                .unwrap()
                .unwrap_err();
            assert_eq!(e.message(), "nesting deeper than the limit of 256");
            for garbage in [0x07u8, 0x0A, 0x06, 0xFF] {
                let e = Delimited::from_reader(Endless::new(&[0x05, 0x04], &[garbage], None))
                    .read::<Value>()
                    .unwrap()
                    .unwrap_err();
                assert_eq!(e.category(), Category::Syntax, "{garbage:02X}: {e}");
            }
            // Many values, one at a time, in constant memory.
            let one = structio::to_beve(&vec![1u8, 2, 3]);
            let mut seq =
                Delimited::from_reader(Endless::new(&one, &[&[0x06][..], &one].concat(), None));
            let mut v = Vec::<u8>::new();
            for _ in 0..2_000_000 {
                seq.read_into(&mut v).unwrap().unwrap();
            }
            assert_eq!(v, [1, 2, 3]);
        },
    );
}

/// Consecutive JSON values (`json::values`, `json::values_from_reader`): two million tiny
/// values in constant memory, one value nested far past the depth limit (in a buffer and on an
/// endless stream), and values larger than the reader's limit: clean errors, quickly, in
/// bounded memory.
#[test]
fn consecutive_json_values_in_bounded_memory() {
    use structio::json::{values, values_from_reader};
    bounded(
        "streams::consecutive_json_values_in_bounded_memory",
        128,
        || {
            // Two million tiny values from a stream, never held: `1 []{}""` over and over,
            // adjacent where the rules allow.
            let total = 2_000_000u64;
            let n = timed("two million tiny values", 5_000, || {
                let mut it = values_from_reader::<Value, _>(Endless::new(
                    &[],
                    b"1 []{}\"\"",
                    Some(total / 4 * 8),
                ));
                let mut n = 0u64;
                for r in it.by_ref() {
                    r.unwrap();
                    n += 1;
                }
                assert_eq!(it.offset() as u64, total / 4 * 8);
                n
            });
            assert_eq!(n, total);
            // The same in a buffer (2 MB of one-byte values): every item read, in time linear
            // in the input.
            let text = "7 ".repeat(1 << 20);
            let n = timed("a million one-byte values in a buffer", 10_000, || {
                values::<u8>(&text)
                    .filter(|r| r.as_ref().is_ok_and(|&b| b == 7))
                    .count()
            });
            assert_eq!(n, 1 << 20);
            // One value nested far past the depth limit, after a good one: an error naming the
            // limit, in a buffer and on an endless stream.
            let deep = format!("[1] {}", "[".repeat(1 << 20));
            let mut it = values::<Value>(&deep);
            assert!(it.next().unwrap().is_ok());
            let e = it.next().unwrap().unwrap_err();
            assert_eq!(e.message(), "nesting deeper than the limit of 256");
            assert_eq!(e.offset(), 4 + 256);
            assert!(it.next().is_none());
            let e = timed("endless nesting", 2000, || {
                let mut it =
                    values_from_reader::<Value, _>(Endless::new(b"{} ", b"[{\"a\":", None));
                assert!(it.next().unwrap().is_ok());
                it.next().unwrap().unwrap_err()
            });
            assert_eq!(e.message(), "nesting deeper than the limit of 256");
            assert_eq!(e.path().get(..4), Some("$[1]"));
            // Values larger than the limit: an error of category Limit once that much is read,
            // whatever the kind of value; nothing after it.
            for (head, pattern) in [
                (&b"[\""[..], &b"a"[..]),
                (b"[", b"1,"),
                (b"\"", b"x"),
                (b"", b"1"),
                (b"{\"k\":[", b"true,"),
            ] {
                let what = String::from_utf8_lossy(head).into_owned();
                let e = timed(&what, 2000, || {
                    let mut it = values_from_reader::<Value, _>(Endless::new(
                        &[b"[0] ", head].concat(),
                        pattern,
                        None,
                    ))
                    .max_record_len(16 << 20);
                    assert!(it.next().unwrap().is_ok());
                    let e = it.next().unwrap().unwrap_err();
                    assert!(it.next().is_none());
                    e
                });
                assert_eq!(e.category(), Category::Limit, "{what}: {e}");
                assert_eq!(
                    e.message(),
                    "record larger than the limit of 16777216 bytes"
                );
                assert_eq!((e.offset(), e.path()), (4, "$[1]".to_string()), "{what}");
            }
            // Endless whitespace after a value is passed over without being kept.
            let mut it =
                values_from_reader::<u8, _>(Endless::new(b"1", b" \n", Some(1 + (16 << 20))));
            assert_eq!(it.next().unwrap().unwrap(), 1);
            assert!(it.next().is_none());
            assert_eq!(it.offset(), 1);
        },
    );
}
