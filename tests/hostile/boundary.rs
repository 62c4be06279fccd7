//! Boundary parsing (`json::parse`, `beve::parse`) on hostile input: a million invalid members
//! stop at `max_issues`, deep nesting of failing values is one pass (not one per level), huge
//! counts and long keys stay bounded.

use structio::{IssueKind, ParseOptions, Reflect};

use super::{bounded, timed};

#[derive(Reflect, Debug)]
struct Item {
    #[structio(range(max = 10))]
    n: u32,
}

/// What the BEVE documents hold: `Item`'s member and one it does not have.
#[derive(Reflect, Debug, Clone)]
struct Bad {
    n: u32,
    x: u8,
}

#[derive(Reflect, Debug)]
struct Node {
    #[structio(length(min = 1))]
    name: String,
    next: Option<Box<Node>>,
}

#[test]
fn a_million_invalid_members_stop_at_max_issues() {
    bounded(
        "boundary::a_million_invalid_members_stop_at_max_issues",
        256,
        || {
            const N: usize = 1_000_000;
            let mut text = String::from("[");
            for i in 0..N {
                if i > 0 {
                    text.push(',');
                }
                text.push_str(r#"{"n":99,"x":1}"#);
            }
            text.push(']');
            timed("a million invalid members", 3000, || {
                let r = structio::json::parse::<Vec<Item>>(&text).unwrap_err();
                assert_eq!(r.issues().len(), 100);
                assert!(r.is_truncated());
                assert_eq!(r.issues()[1].kind(), IssueKind::UnknownKey);
                assert_eq!(r.issues()[99].pointer(), "/49/x");
            });
            // No cap to speak of: every issue of 50,000 members recorded, in linear time.
            let part = format!(
                "{}]",
                &text[..text.len() / 20 - 1].rsplit_once(',').unwrap().0
            );
            let opts = ParseOptions {
                max_issues: usize::MAX,
                ..ParseOptions::default()
            };
            timed("a hundred thousand issues", 3000, || {
                let r = structio::json::parse_with::<Vec<Item>>(&part, &opts).unwrap_err();
                assert!(r.issues().len() > 90_000, "{}", r.issues().len());
                assert!(!r.is_truncated());
            });
            let bytes = structio::to_beve(&vec![Bad { n: 99, x: 1 }; N]);
            timed("a million invalid members (BEVE)", 3000, || {
                let r = structio::beve::parse::<Vec<Item>>(&bytes).unwrap_err();
                assert_eq!(r.issues().len(), 100);
            });
        },
    );
}

/// `depth` nodes, each `{"name":"","next":...}`, the innermost with a `next` of the wrong type.
fn chain(depth: usize) -> String {
    let mut s = String::new();
    for _ in 0..depth {
        s.push_str(r#"{"name":"","next":"#);
    }
    s.push('7');
    for _ in 0..depth {
        s.push('}');
    }
    s
}

#[test]
fn deep_nesting_of_failing_values_is_one_pass() {
    // Up to the depth limit, every level breaks a constraint and the innermost has a type
    // error: all are reported once, and a failed level is not skipped again by its parent.
    let r = structio::json::parse_with::<Node>(
        &chain(200),
        &ParseOptions {
            max_issues: 1000,
            ..ParseOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(r.issues().len(), 201);
    assert_eq!(r.issues()[200].kind(), IssueKind::Type);
    assert_eq!(r.issues()[200].pointer().matches("/next").count(), 200);
    // Past the depth limit: a limit issue, the last.
    let r = structio::json::parse::<Node>(&chain(100_000)).unwrap_err();
    assert!(r.issues().len() <= 101);
    let last = r.issues().last().unwrap();
    assert!(
        matches!(last.kind(), IssueKind::Limit | IssueKind::Constraint),
        "{r}"
    );
    // Wide and deep: many failing subtrees, each skipped at most once.
    let doc = format!("[{}]", vec![chain(50); 2000].join(","));
    timed("2000 failing chains", 3000, || {
        let r = structio::json::parse_with::<Vec<Node>>(
            &doc,
            &ParseOptions {
                max_issues: usize::MAX,
                ..ParseOptions::default()
            },
        )
        .unwrap_err();
        assert_eq!(r.issues().len(), 2000 * 51);
    });
}

#[test]
fn huge_counts_and_long_keys_stay_bounded() {
    bounded(
        "boundary::huge_counts_and_long_keys_stay_bounded",
        256,
        || {
            // A BEVE array of structs claiming 2^60 elements: refused, little reserved.
            let one = structio::to_beve(&vec![Bad { n: 1, x: 1 }]);
            assert_eq!(one[1], 1 << 2, "a one-byte count of 1");
            let mut bytes = vec![one[0]];
            bytes.extend((((1u64 << 60) << 2) | 3).to_le_bytes());
            bytes.extend(&one[2..]);
            let r = structio::beve::parse::<Vec<Item>>(&bytes).unwrap_err();
            assert!(!r.issues().is_empty());
            assert!(r.issues().len() <= 3, "{r}");
            // A megabyte-long unknown key: one issue, the message cut.
            let key = "k".repeat(1 << 20);
            let text = format!(r#"{{"n":1,"{key}":0}}"#);
            let r = structio::json::parse::<Item>(&text).unwrap_err();
            assert_eq!(r.issues().len(), 1);
            assert!(r.issues()[0].message().len() < 200);
        },
    );
}

fn ordered(p: &Ordered) -> Result<(), String> {
    if p.a <= p.b {
        Ok(())
    } else {
        Err("a after b".into())
    }
}

/// A struct with a container rule.
#[derive(Reflect, Debug, Default)]
#[structio(check = "ordered")]
struct Ordered {
    a: u32,
    b: u32,
}

/// [`Ordered`] flattened.
#[derive(Reflect, Debug, Default)]
struct FlatOrdered {
    id: u32,
    #[structio(flatten)]
    pair: Ordered,
}

/// [`Ordered`] as an internally tagged payload.
#[derive(Reflect, Debug)]
#[structio(tag = "type")]
enum TaggedOrdered {
    P(Ordered),
    F(FlatOrdered),
}

/// Half a million flattened and internally tagged structs that each break their container
/// rule (read by the walk of the struct or enum holding them, not their own `read`): the
/// collecting readers stop at `max_issues` in one pass, the trusted ones at the first.
#[test]
fn a_million_broken_container_rules_stop_at_max_issues() {
    bounded(
        "boundary::a_million_broken_container_rules_stop_at_max_issues",
        256,
        || {
            const N: usize = 500_000;
            let mut text = String::from("[");
            for i in 0..N {
                if i > 0 {
                    text.push(',');
                }
                text.push_str(if i % 2 == 0 {
                    r#"{"type":"F","id":1,"a":2,"b":1}"#
                } else {
                    r#"{"a":2,"b":1,"type":"P"}"#
                });
            }
            text.push(']');
            timed("half a million broken container rules", 3000, || {
                let r = structio::json::parse::<Vec<TaggedOrdered>>(&text).unwrap_err();
                assert_eq!(r.issues().len(), 100);
                assert!(r.issues().iter().all(|i| i.kind() == IssueKind::Constraint));
                assert!(r.is_truncated());
                assert_eq!(r.issues()[99].pointer(), "/99");
                let e = structio::from_json::<Vec<TaggedOrdered>>(&text).unwrap_err();
                assert_eq!(e.path(), "$[0]");
            });
            let flat: Vec<FlatOrdered> = (0..N / 10)
                .map(|i| FlatOrdered {
                    id: i as u32,
                    pair: Ordered { a: 2, b: 1 },
                })
                .collect();
            let bytes = structio::to_beve(&flat);
            timed(
                "fifty thousand broken flattened rules in BEVE",
                3000,
                || {
                    let r = structio::beve::parse::<Vec<FlatOrdered>>(&bytes).unwrap_err();
                    assert_eq!(r.issues().len(), 100);
                    assert_eq!(r.issues()[42].pointer(), "/42");
                    assert_eq!(structio::check(&flat).unwrap_err().issues().len(), 100);
                },
            );
        },
    );
}

/// Eight required members: `{}` is eight issues in two bytes.
#[derive(Reflect, Debug)]
struct Wide {
    a: u8,
    b: u8,
    c: u8,
    d: u8,
    e: u8,
    f: u8,
    g: u8,
    h: u8,
}

/// Issue 42: with no cap to speak of (`max_issues: usize::MAX`), a document of millions of
/// issues made a report of millions of issues, each with its own path, pointer and message,
/// until the allocator gave up (an abort). The report now holds at most memory proportional to
/// the input (128 bytes per byte, at least 1 MiB) and stops there, marked as truncated; each
/// issue's texts are bounded, however long a key. JSON and BEVE, each document with four
/// million issues (about 2 GB of report), under a 384 MiB budget.
#[test]
fn millions_of_issues_without_a_cap_are_reported_in_bounded_memory() {
    bounded(
        "boundary::millions_of_issues_without_a_cap_are_reported_in_bounded_memory",
        384,
        || {
            let opts = ParseOptions {
                max_issues: usize::MAX,
                ..ParseOptions::default()
            };
            const N: usize = 500_000;
            // JSON: eight missing members in every `{}`.
            let text = format!("[{}]", vec!["{}"; N].join(","));
            let r = timed("four million issues (JSON)", 5000, || {
                structio::json::parse_with::<Vec<Wide>>(&text, &opts).unwrap_err()
            });
            assert!(r.is_truncated());
            let n = r.issues().len();
            assert!((100_000..8 * N).contains(&n), "{n}");
            assert_eq!(r.issues()[9].pointer(), "/1/b");
            assert_eq!(r.issues()[9].kind(), IssueKind::MissingKey);
            drop((r, text));
            // BEVE: the same, `{}` as two bytes (an empty object of string keys).
            let bytes =
                structio::to_beve(&vec![std::collections::BTreeMap::<String, u8>::new(); N]);
            assert!(bytes.len() < 2 * N + 16, "{}", bytes.len());
            let r = timed("four million issues (BEVE)", 5000, || {
                structio::beve::parse_with::<Vec<Wide>>(&bytes, &opts).unwrap_err()
            });
            assert!(r.is_truncated());
            let n = r.issues().len();
            assert!((50_000..8 * N).contains(&n), "{n}");
            assert_eq!(r.issues()[9].pointer(), "/1/b");
            drop((r, bytes));
            // A 64 KiB unknown key, a hundred times: each issue's path and pointer hold a
            // clipped key, not the whole key again.
            let key = "k".repeat(64 << 10);
            let one = format!("{{\"a\":1,\"{key}\":0}}");
            let text = format!("[{}]", vec![one.as_str(); 100].join(","));
            let r = structio::json::parse_with::<Vec<Wide>>(&text, &opts).unwrap_err();
            assert_eq!(r.issues().len(), 800, "{}", r.issues().len());
            let unknown = &r.issues()[0];
            assert_eq!(unknown.kind(), IssueKind::UnknownKey);
            assert!(unknown.path().len() < 200, "{}", unknown.path().len());
            assert!(unknown.pointer().len() < 200, "{}", unknown.pointer().len());
            assert!(unknown.message().len() < 200, "{}", unknown.message().len());
            assert!(
                unknown.path().starts_with("$[0][\"kkkk"),
                "{}",
                unknown.path()
            );
            assert!(unknown.path().ends_with("k…\"]"), "{}", unknown.path());
            assert!(unknown.pointer().ends_with("k…"), "{}", unknown.pointer());
        },
    );
}
