//! `#[structio(flatten)]`: the members of a field's struct written and read as the container's
//! own, in both formats, nested, generic, next to options, with paths and key rules; a
//! flattened map keeping the keys no member takes.

use std::collections::BTreeMap;

use structio::{Reflect, UnknownKeys};

use super::common::{both, from_json_glaze, glaze_rule, glaze_rule_beve, json_error};

// Most documents here leave members out: they are read under Glaze's rule (the members take
// their defaults), as the flattened members' own rules are what is tested.

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
        r#"
            03 14                                         // object, 5 members (note None)
            04 71  02 10 72 75 73 74                      // "q": string "rust"
            10 70 61 67 65  51 02 00 00 00                // "page": u32 2
            20 70 65 72 5f 70 61 67 65  51 32 00 00 00    // "per_page": u32 50
            10 73 6f 72 74  02 10 64 61 74 65             // "sort": string "date"
            28 63 72 65 61 74 65 64 5f 62 79  02 0c 61 6e 6e  // "created_by": string "ann"
        "#,
    );
    // BEVE: one object with all five members (the count covers the flattened ones).
    let v: structio::Value = structio::from_beve(&structio::to_beve(&q)).unwrap();
    assert_eq!(v.as_object().unwrap().len(), 5);
    let shuffled: Query =
        from_json_glaze(r#"{"created_by":"ann","per_page":50,"sort":"date","page":2,"q":"rust"}"#);
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
    structio::json::read_json_with(&mut q, r#"{"per_page":10}"#, &glaze_rule()).unwrap();
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
    opts.read.error_on_missing_keys = false;
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
        r#"
            03 1c                                         // object, 7 members
            08 69 64  71 09 00 00 00 00 00 00 00          // "id": u64 9
            04 71  02 10 72 75 73 74                      // "q": string "rust"
            10 70 61 67 65  51 02 00 00 00                // "page": u32 2
            20 70 65 72 5f 70 61 67 65  51 32 00 00 00    // "per_page": u32 50
            10 73 6f 72 74  02 10 64 61 74 65             // "sort": string "date"
            28 63 72 65 61 74 65 64 5f 62 79  02 0c 61 6e 6e  // "created_by": string "ann"
            18 63 75 72 73 6f 72  02 08 63 31             // "cursor": string "c1"
        "#,
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
        r#"
            03 08                                       // object, 2 members
            10 70 61 67 65  51 01 00 00 00              // "page": u32 1
            20 70 65 72 5f 70 61 67 65  51 02 00 00 00  // "per_page": u32 2
        "#,
    );
    both(
        &Only::default(),
        r#"{"page":0,"per_page":0}"#,
        r#"
            03 08                                       // object, 2 members
            10 70 61 67 65  51 00 00 00 00              // "page": u32 0
            20 70 65 72 5f 70 61 67 65  51 00 00 00 00  // "per_page": u32 0
        "#,
    );
    let e = Envelope {
        kind: "audit".into(),
        body: Audit {
            created_by: "bo".into(),
            note: Some("n".into()),
        },
    };
    both(
        &e,
        r#"{"kind":"audit","created_by":"bo","note":"n"}"#,
        r#"
            03 0c                                         // object, 3 members
            10 6b 69 6e 64  02 14 61 75 64 69 74          // "kind": string "audit"
            28 63 72 65 61 74 65 64 5f 62 79  02 08 62 6f  // "created_by": string "bo"
            10 6e 6f 74 65  02 04 6e                      // "note": string "n"
        "#,
    );
    // Empty flattened members: no stray separators.
    let e = Envelope {
        kind: "x".into(),
        body: Paging2 { cursor: None },
    };
    both(
        &e,
        r#"{"kind":"x"}"#,
        r#"
            03 04                     // object, 1 member (cursor None)
            10 6b 69 6e 64  02 04 78  // "kind": string "x"
        "#,
    );
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
        r#"
            03 18                                         // object, 6 members
            10 74 79 70 65  02 18 53 65 61 72 63 68       // "type": string "Search"
            04 71  02 10 72 75 73 74                      // "q": string "rust"
            10 70 61 67 65  51 02 00 00 00                // "page": u32 2
            20 70 65 72 5f 70 61 67 65  51 32 00 00 00    // "per_page": u32 50
            10 73 6f 72 74  02 10 64 61 74 65             // "sort": string "date"
            28 63 72 65 61 74 65 64 5f 62 79  02 0c 61 6e 6e  // "created_by": string "ann"
        "#,
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
    let c: Clash = from_json_glaze(r#"{"page":"own","per_page":3}"#);
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
        r#"
            03 0c                                       // object, 3 members
            10 74 61 67 73  03 04                       // "tags": object, 1 member
              04 61  11 01                              // "a": u8 1
            10 70 61 67 65  51 00 00 00 00              // "page": u32 0
            20 70 65 72 5f 70 61 67 65  51 00 00 00 00  // "per_page": u32 0
        "#,
    );
}

/// A struct that keeps the members it does not know, as serde's `flatten` into a map does.
#[derive(Reflect, Default, Debug, PartialEq)]
struct Event {
    id: u32,
    #[structio(flatten)]
    paging: Paging,
    #[structio(flatten)]
    extra: BTreeMap<String, structio::Value>,
}

#[test]
fn a_flattened_map_keeps_the_keys_no_member_takes() {
    let text = r#"{"id":1,"page":2,"per_page":3,"color":"red","tags":[1,"x"],"z":null}"#;
    let e: Event = from_json_glaze(text);
    assert_eq!(e.id, 1);
    assert_eq!(
        e.paging,
        Paging {
            page: 2,
            per_page: 3
        }
    );
    assert_eq!(e.extra.len(), 3);
    assert_eq!(e.extra["color"], structio::Value::from("red"));
    // Written back where the field stands, in the map's order.
    both(
        &e,
        r#"{"id":1,"page":2,"per_page":3,"color":"red","tags":[1,"x"],"z":null}"#,
        r#"
            03 18                                       // object, 6 members
            08 69 64  51 01 00 00 00                    // "id": u32 1
            10 70 61 67 65  51 02 00 00 00              // "page": u32 2
            20 70 65 72 5f 70 61 67 65  51 03 00 00 00  // "per_page": u32 3
            14 63 6f 6c 6f 72  02 0c 72 65 64           // "color": string "red"
            10 74 61 67 73  05 08                       // "tags": generic array, 2 elements
              69 01 00 00 00 00 00 00 00                // i64 1
              02 04 78                                  // string "x"
            04 7a  00                                   // "z": null
        "#,
    );
    // Kept keys never count as unknown, and an escaped key is kept unescaped.
    let e: Event = from_json_glaze(r#"{"a\u00e9":1,"id":5}"#);
    assert_eq!(e.id, 5);
    assert_eq!(e.extra.keys().collect::<Vec<_>>(), ["aé"]);
    // An error inside a kept value names its key.
    #[derive(Reflect, Default, Debug, PartialEq)]
    struct Counts {
        name: String,
        #[structio(flatten)]
        counts: std::collections::HashMap<String, u8>,
    }
    let (msg, path) = json_error::<Counts>(r#"{"name":"n","apples":3,"pears":300}"#);
    assert!(msg.contains("range") || msg.contains("fit"), "{msg}");
    assert_eq!(path, r#"$["pears"]"#);
    let c: Counts = from_json_glaze(r#"{"apples":3,"name":"n","pears":4}"#);
    assert_eq!(
        (c.name.as_str(), c.counts.len(), c.counts["pears"]),
        ("n", 2, 4)
    );
    // Entries holding `None` are left out, as in a map, unless null members are written.
    #[derive(Reflect, Default, Debug, PartialEq)]
    struct Sparse {
        id: u8,
        #[structio(flatten)]
        rest: BTreeMap<String, Option<u8>>,
    }
    let s = Sparse {
        id: 1,
        rest: [("a".to_string(), None), ("b".to_string(), Some(2))].into(),
    };
    assert_eq!(structio::to_json(&s), r#"{"id":1,"b":2}"#);
    let nulls = structio::json::Options {
        write_null_members: true,
        ..structio::json::Options::default()
    };
    assert_eq!(
        structio::json::to_json_with(&s, &nulls),
        r#"{"id":1,"a":null,"b":2}"#
    );
    let back: Sparse = structio::from_beve(&structio::to_beve(&s)).unwrap();
    assert_eq!(back.rest.len(), 1);
}

#[test]
fn a_flattened_value_map_and_nested_keepers() {
    #[derive(Reflect, Default, Debug, PartialEq)]
    struct Loose {
        kind: String,
        #[structio(flatten)]
        rest: structio::Map,
    }
    let l: Loose = from_json_glaze(r#"{"x":{"y":[true]},"kind":"k","n":-1.5}"#);
    assert_eq!(l.kind, "k");
    assert_eq!(l.rest.len(), 2);
    both(
        &l,
        r#"{"kind":"k","x":{"y":[true]},"n":-1.5}"#,
        r#"
            03 0c                              // object, 3 members
            10 6b 69 6e 64  02 04 6b           // "kind": string "k"
            04 78  03 04                       // "x": object, 1 member
              04 79  05 04                     // "y": generic array, 1 element
                18                             // true
            04 6e  61 00 00 00 00 00 00 f8 bf  // "n": f64 -1.5
        "#,
    );
    // A struct that flattens a struct with a map: unknown keys reach the inner map, after
    // every flattened struct's members were tried.
    #[derive(Reflect, Default, Debug, PartialEq)]
    struct Wrapper {
        #[structio(flatten)]
        loose: Loose,
        #[structio(flatten)]
        paging: Paging,
        v: u8,
    }
    let w: Wrapper = from_json_glaze(r#"{"v":1,"page":4,"other":"o","kind":"k"}"#);
    assert_eq!((w.v, w.paging.page, w.loose.kind.as_str()), (1, 4, "k"));
    assert_eq!(w.loose.rest.get("other"), Some(&structio::Value::from("o")));
    both(
        &w,
        r#"{"kind":"k","other":"o","page":4,"per_page":0,"v":1}"#,
        r#"
            03 14                                       // object, 5 members
            10 6b 69 6e 64  02 04 6b                    // "kind": string "k"
            14 6f 74 68 65 72  02 04 6f                 // "other": string "o"
            10 70 61 67 65  51 04 00 00 00              // "page": u32 4
            20 70 65 72 5f 70 61 67 65  51 00 00 00 00  // "per_page": u32 0
            04 76  11 01                                // "v": u8 1
        "#,
    );
}

#[test]
fn reading_into_a_used_flattened_map_keeps_the_documents_keys_only() {
    let mut e: Event = from_json_glaze(r#"{"id":1,"a":1,"b":2}"#);
    structio::json::read_json_with(&mut e, r#"{"b":[3],"c":4}"#, &glaze_rule()).unwrap();
    // As a fresh read: `a` is gone (a required member the document leaves out, `id`, keeps
    // its value).
    assert_eq!(
        structio::to_json(&e),
        r#"{"id":1,"page":0,"per_page":0,"b":[3],"c":4}"#
    );
    // The merging read keeps the entries the document does not name and reads into the others.
    let mut opts = structio::json::Options::default();
    opts.read.merge = true;
    opts.read.error_on_missing_keys = false;
    let mut e: Event = from_json_glaze(r#"{"id":1,"a":1,"b":2}"#);
    structio::json::read_json_with(&mut e, r#"{"b":[3],"c":4}"#, &opts).unwrap();
    assert_eq!(
        structio::to_json(&e),
        r#"{"id":1,"page":0,"per_page":0,"a":1,"b":[3],"c":4}"#
    );
    // Long keys (past the short-key copy) are kept whole.
    let long = "k".repeat(200);
    let e: Event = from_json_glaze(&format!(r#"{{"{long}":1,"id":2}}"#));
    assert!(e.extra.contains_key(&long));
    // The tag of an internally tagged enum is not kept; a newtype payload may be a map.
    #[derive(Reflect, Default, Debug, PartialEq)]
    #[structio(tag = "type")]
    enum Note {
        #[default]
        Empty,
        Fields(BTreeMap<String, u32>),
    }
    let n = Note::Fields([("a".to_string(), 1)].into());
    both(
        &n,
        r#"{"type":"Fields","a":1}"#,
        r#"
            03 08                                    // object, 2 members
            10 74 79 70 65  02 18 46 69 65 6c 64 73  // "type": string "Fields"
            04 61  51 01 00 00 00                    // "a": u32 1
        "#,
    );
}

mod props {
    use proptest::prelude::*;

    use super::{glaze_rule, glaze_rule_beve, Audit, Outer, Paging, Paging2, Query};

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

    /// Own fields, a flattened struct and a flattened map.
    #[derive(structio::Reflect, Default, Debug, PartialEq)]
    struct Keeper {
        id: u32,
        #[structio(flatten)]
        paging: Paging,
        #[structio(flatten)]
        rest: std::collections::HashMap<String, u32>,
    }

    /// Object keys: the members' names often, any text otherwise.
    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            prop_oneof![Just("id"), Just("page"), Just("per_page"), Just("pag")]
                .prop_map(str::to_string),
            "\\PC{0,6}",
            "[a-z]{1,60}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Any object of numbers read into `Keeper`: the members take their keys, the map
        /// keeps exactly the others; written back (both formats), the object is the same,
        /// with the members' defaults added.
        #[test]
        fn a_flattened_map_keeps_exactly_the_other_keys(
            object in proptest::collection::btree_map(key(), any::<u32>(), 0..12),
        ) {
            let own = ["id", "page", "per_page"];
            let want_rest: std::collections::HashMap<String, u32> = object
                .iter()
                .filter(|(k, _)| !own.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), *v))
                .collect();
            let get = |k: &str| object.get(k).copied().unwrap_or_default();
            let want = Keeper {
                id: get("id"),
                paging: Paging { page: get("page"), per_page: get("per_page") },
                rest: want_rest,
            };
            let from_text: Keeper = structio::json::from_json_with(&structio::to_json(&object), &glaze_rule()).unwrap();
            prop_assert_eq!(&from_text, &want);
            let from_beve: Keeper = structio::beve::from_beve_with(&structio::to_beve(&object), &glaze_rule_beve()).unwrap();
            prop_assert_eq!(&from_beve, &want);
            let mut whole = object.clone();
            for k in own {
                whole.insert(k.to_string(), get(k));
            }
            let text: std::collections::BTreeMap<String, u32> =
                structio::from_json(&structio::to_json(&want)).unwrap();
            prop_assert_eq!(&text, &whole);
            let beve: std::collections::BTreeMap<String, u32> =
                structio::from_beve(&structio::to_beve(&want)).unwrap();
            prop_assert_eq!(&beve, &whole);
        }

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
