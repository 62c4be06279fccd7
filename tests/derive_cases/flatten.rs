//! `#[structio(flatten)]`: the members of a field's struct written and read as the container's
//! own, in both formats, nested, generic, next to options, with paths and key rules.

use std::collections::BTreeMap;

use structio::{Reflect, UnknownKeys};

use super::common::{both, from_json, json_error};

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
struct Paging {
    page: u32,
    per_page: u32,
}

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
struct Audit {
    created_by: String,
    note: Option<String>,
}

#[derive(Reflect, Default, Debug, PartialEq, Clone)]
struct Query {
    q: String,
    #[structio(flatten)]
    paging: Paging,
    sort: Option<String>,
    #[structio(flatten)]
    audit: Audit,
}

fn query() -> Query {
    Query {
        q: "rust".into(),
        paging: Paging {
            page: 2,
            per_page: 50,
        },
        sort: Some("date".into()),
        audit: Audit {
            created_by: "ann".into(),
            note: None,
        },
    }
}

#[test]
fn members_are_written_in_place_and_read_in_any_order() {
    let q = query();
    both(
        &q,
        r#"{"q":"rust","page":2,"per_page":50,"sort":"date","created_by":"ann"}"#,
    );
    // BEVE: one object with all five members (the count covers the flattened ones).
    let v: structio::Value = structio::from_beve(&structio::to_beve(&q)).unwrap();
    assert_eq!(v.as_object().unwrap().len(), 5);
    let shuffled: Query =
        from_json(r#"{"created_by":"ann","per_page":50,"sort":"date","page":2,"q":"rust"}"#);
    assert_eq!(shuffled, q);
    // Pretty layout and null members go through the flattened struct too.
    let opts = structio::json::Options {
        write_null_members: true,
        ..structio::json::Options::default()
    };
    assert_eq!(
        structio::json::to_json_with(&q, &opts),
        r#"{"q":"rust","page":2,"per_page":50,"sort":"date","created_by":"ann","note":null}"#
    );
    let pretty = structio::json::Options {
        pretty: true,
        ..structio::json::Options::default()
    };
    let text = structio::json::to_json_with(&q, &pretty);
    assert_eq!(structio::prettify(&structio::to_json(&q)).unwrap(), text);
}

#[test]
fn members_left_out_keep_their_values_and_errors_name_the_member() {
    let mut q = query();
    structio::read_json(&mut q, r#"{"per_page":10}"#).unwrap();
    assert_eq!(
        q.paging,
        Paging {
            page: 2,
            per_page: 10
        }
    );
    assert_eq!(q.audit.created_by, "ann");
    let (msg, path) = json_error::<Query>(r#"{"q":"x","page":"two"}"#);
    assert!(msg.contains("expected"), "{msg}");
    assert_eq!(path, "$.page");
    let (msg, _) = json_error::<Query>(r#"{"q":"x","pages":1}"#);
    assert_eq!(msg, "unknown key `pages`");
    let mut opts = structio::json::Options::default();
    opts.read.unknown_keys = UnknownKeys::Skip;
    let q: Query =
        structio::json::from_json_with(r#"{"pages":1,"page":3,"x":[1,{}]}"#, &opts).unwrap();
    assert_eq!(q.paging.page, 3);
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Outer {
    id: u64,
    #[structio(flatten)]
    query: Query,
    #[structio(flatten)]
    more: Paging2,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Paging2 {
    cursor: Option<String>,
}

#[test]
fn flattened_structs_that_flatten_others() {
    let o = Outer {
        id: 9,
        query: query(),
        more: Paging2 {
            cursor: Some("c1".into()),
        },
    };
    both(
        &o,
        r#"{"id":9,"q":"rust","page":2,"per_page":50,"sort":"date","created_by":"ann","cursor":"c1"}"#,
    );
    let (_, path) = json_error::<Outer>(r#"{"note":5}"#);
    assert_eq!(path, "$.note");
    let (_, path) = json_error::<Outer>(r#"{"cursor":[]}"#);
    assert_eq!(path, "$.cursor");
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Only {
    #[structio(flatten)]
    inner: Paging,
}

#[derive(Reflect, Default, Debug, PartialEq)]
struct Envelope<T> {
    kind: String,
    #[structio(flatten)]
    body: T,
}

#[test]
fn a_struct_of_only_a_flattened_field_and_a_generic_one() {
    both(
        &Only {
            inner: Paging {
                page: 1,
                per_page: 2,
            },
        },
        r#"{"page":1,"per_page":2}"#,
    );
    both(&Only::default(), r#"{"page":0,"per_page":0}"#);
    let e = Envelope {
        kind: "audit".into(),
        body: Audit {
            created_by: "bo".into(),
            note: Some("n".into()),
        },
    };
    both(&e, r#"{"kind":"audit","created_by":"bo","note":"n"}"#);
    // Empty flattened members: no stray separators.
    let e = Envelope {
        kind: "x".into(),
        body: Paging2 { cursor: None },
    };
    both(&e, r#"{"kind":"x"}"#);
    let v = vec![e];
    assert_eq!(structio::to_json(&v), r#"[{"kind":"x"}]"#);
}

#[derive(Reflect, Default, Debug, PartialEq)]
#[structio(tag = "type")]
enum Message {
    #[default]
    Ping,
    Search(Query),
}

#[test]
fn an_internally_tagged_newtype_around_a_flattening_struct() {
    let m = Message::Search(query());
    both(
        &m,
        r#"{"type":"Search","q":"rust","page":2,"per_page":50,"sort":"date","created_by":"ann"}"#,
    );
}

#[test]
fn own_fields_win_over_flattened_ones_with_the_same_key() {
    #[derive(Reflect, Default, Debug, PartialEq)]
    struct Clash {
        page: String,
        #[structio(flatten)]
        paging: Paging,
    }
    let c: Clash = from_json(r#"{"page":"own","per_page":3}"#);
    assert_eq!(c.page, "own");
    assert_eq!(
        c.paging,
        Paging {
            page: 0,
            per_page: 3
        }
    );
    // Maps are read as usual beside them.
    #[derive(Reflect, Default, Debug, PartialEq)]
    struct WithMap {
        tags: BTreeMap<String, u8>,
        #[structio(flatten)]
        paging: Paging,
    }
    both(
        &WithMap {
            tags: [("a".to_string(), 1)].into(),
            paging: Paging::default(),
        },
        r#"{"tags":{"a":1},"page":0,"per_page":0}"#,
    );
}

mod props {
    use proptest::prelude::*;

    use super::{Audit, Outer, Paging, Paging2, Query};

    fn outer() -> impl Strategy<Value = Outer> {
        (
            any::<u64>(),
            ".{0,8}",
            any::<(u32, u32)>(),
            proptest::option::of(".{0,4}"),
            ".{0,6}",
            proptest::option::of("\\PC{0,4}"),
            proptest::option::of("[a-z]{0,3}"),
        )
            .prop_map(|(id, q, (page, per_page), sort, by, note, cursor)| Outer {
                id,
                query: Query {
                    q,
                    paging: Paging { page, per_page },
                    sort,
                    audit: Audit {
                        created_by: by,
                        note,
                    },
                },
                more: Paging2 { cursor },
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Written, read back, in both formats; the members of the JSON object in any order
        /// read to the same value; reading into a used value that every member overwrites
        /// gives the same value too.
        #[test]
        fn flattened_values_round_trip(v in outer(), w in outer(), seed in any::<u64>()) {
            let text = structio::to_json(&v);
            prop_assert_eq!(&structio::from_json::<Outer>(&text).unwrap(), &v);
            prop_assert_eq!(&structio::from_beve::<Outer>(&structio::to_beve(&v)).unwrap(), &v);
            let mut members: Vec<(String, structio::Value)> = structio::from_json::<structio::Value>(&text)
                .unwrap()
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, x)| (k.to_string(), x.clone()))
                .collect();
            // A fixed shuffle from the seed.
            let mut s = seed | 1;
            for i in (1..members.len()).rev() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                members.swap(i, (s % (i as u64 + 1)) as usize);
            }
            let shuffled: structio::Value = members.into_iter().collect();
            let back: Outer = structio::from_json(&structio::to_json(&shuffled)).unwrap();
            prop_assert_eq!(&back, &v);
            let every = structio::json::Options { write_null_members: true, ..Default::default() };
            let mut used = w;
            structio::read_json(&mut used, &structio::json::to_json_with(&v, &every)).unwrap();
            prop_assert_eq!(&used, &v);
        }
    }
}
