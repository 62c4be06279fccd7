//! Reading into an existing value reuses its buffers: after the first read, reading the same
//! document again allocates nothing, for every benchmark document, in both formats.
//!
//! A counting global allocator makes this a test of behaviour, not of timing.

mod common;

use common::{Flat, Mixed};
use structio::Reflect;

#[path = "../benches/common/counting.rs"]
mod counting;

use counting::allocations;

fn settles<T>(name: &str)
where
    T: for<'de> Reflect<'de> + Default,
{
    let json = common::read(&format!("formats/json/bench/{name}.json"));
    let beve = common::read(&format!("formats/beve/bench/{name}.beve"));
    let mut v = T::default();
    structio::read_json(&mut v, &json[..]).unwrap();
    structio::read_json(&mut v, &json[..]).unwrap();
    let n = allocations(|| structio::read_json(&mut v, &json[..]).unwrap());
    assert_eq!(
        n, 0,
        "{name}: read_json allocated {n} times on a warm value"
    );
    structio::read_beve(&mut v, &beve[..]).unwrap();
    structio::read_beve(&mut v, &beve[..]).unwrap();
    let n = allocations(|| structio::read_beve(&mut v, &beve[..]).unwrap());
    assert_eq!(
        n, 0,
        "{name}: read_beve allocated {n} times on a warm value"
    );

    let mut out = Vec::new();
    structio::write_json(&v, &mut out);
    let n = allocations(|| {
        out.clear();
        structio::write_json(&v, &mut out);
    });
    assert_eq!(
        n, 0,
        "{name}: write_json allocated {n} times into a warm buffer"
    );
    out.clear();
    structio::write_beve(&v, &mut out);
    let n = allocations(|| {
        out.clear();
        structio::write_beve(&v, &mut out);
    });
    assert_eq!(
        n, 0,
        "{name}: write_beve allocated {n} times into a warm buffer"
    );
}

#[test]
fn reads_and_writes_settle_into_zero_allocations() {
    // One test function so that no other test thread allocates while we count.
    settles::<Mixed>("mixed");
    settles::<Flat<String>>("strings");
    settles::<Flat<u64>>("uints");
    settles::<Flat<i64>>("ints");
    settles::<Flat<f64>>("doubles");
    settles::<Flat<f64>>("exact_decimals");
    settles::<Flat<bool>>("bools");
}

/// A record read from documents that hold more members than it has.
#[derive(structio::Reflect, Default, Debug, PartialEq)]
struct Part {
    id: u32,
    name: String,
}

/// What the documents hold: `Part`'s members among others.
#[derive(structio::Reflect)]
struct Whole {
    extra: Vec<f64>,
    id: u32,
    note: String,
    name: String,
    nested: Vec<Vec<String>>,
}

#[test]
fn skipping_unknown_keys_settles_into_zero_allocations() {
    let whole = Whole {
        extra: vec![1.5, -2.0],
        id: 7,
        note: "not read".into(),
        name: "kept".into(),
        nested: vec![vec!["a".into()], vec![]],
    };
    let read = structio::ReadOptions {
        unknown_keys: structio::UnknownKeys::Skip,
        ..Default::default()
    };
    let json = structio::to_json(&whole);
    let json_opts = structio::json::Options {
        read,
        ..Default::default()
    };
    let beve = structio::to_beve(&whole);
    let beve_opts = structio::beve::Options {
        read,
        ..Default::default()
    };
    let mut v = Part::default();
    // Two warm-up reads, as for the documents above: a fresh string is sized exactly, a
    // reused one keeps room for whole blocks.
    for _ in 0..2 {
        structio::json::read_json_with(&mut v, &json, &json_opts).unwrap();
    }
    let n = allocations(|| structio::json::read_json_with(&mut v, &json, &json_opts).unwrap());
    assert_eq!(n, 0, "read_json skipping unknown keys allocated {n} times");
    for _ in 0..2 {
        structio::beve::read_beve_with(&mut v, &beve, &beve_opts).unwrap();
    }
    let n = allocations(|| structio::beve::read_beve_with(&mut v, &beve, &beve_opts).unwrap());
    assert_eq!(n, 0, "read_beve skipping unknown keys allocated {n} times");
    assert_eq!(
        v,
        Part {
            id: 7,
            name: "kept".into()
        }
    );
}

/// Records whose members are maps keyed by strings, integers and an enum.
#[derive(structio::Reflect, Default, Debug, PartialEq)]
struct Maps {
    by_name: std::collections::HashMap<String, Vec<f64>>,
    sorted: std::collections::BTreeMap<Box<str>, String>,
    by_id: std::collections::BTreeMap<u32, Part>,
    labels: std::collections::HashMap<i64, u8>,
}

#[test]
fn reading_into_existing_maps_settles_into_zero_allocations() {
    let mut m = Maps::default();
    for i in 0..40u32 {
        m.by_name
            .insert(format!("series {i}"), vec![f64::from(i); 5]);
        m.sorted
            .insert(format!("k{i:03}").into(), "x".repeat(i as usize));
        let name = format!("part {i}");
        m.by_id.insert(i * 7, Part { id: i, name });
        m.labels.insert(-i64::from(i), i as u8);
    }
    let json = structio::to_json(&m);
    let beve = structio::to_beve(&m);
    let mut v = Maps::default();
    for _ in 0..2 {
        structio::read_json(&mut v, &json).unwrap();
    }
    let n = allocations(|| structio::read_json(&mut v, &json).unwrap());
    assert_eq!(n, 0, "read_json into warm maps allocated {n} times");
    assert_eq!(v, m);
    for _ in 0..2 {
        structio::read_beve(&mut v, &beve).unwrap();
    }
    let n = allocations(|| structio::read_beve(&mut v, &beve).unwrap());
    assert_eq!(n, 0, "read_beve into warm maps allocated {n} times");
    assert_eq!(v, m);
}

/// A struct keeping unknown members in a flattened map.
#[derive(structio::Reflect, Default, Debug, PartialEq)]
struct Kept {
    id: u32,
    #[structio(flatten)]
    rest: std::collections::BTreeMap<String, Vec<u16>>,
}

#[test]
fn reading_into_a_flattened_map_settles_into_zero_allocations() {
    let mut k = Kept {
        id: 3,
        ..Kept::default()
    };
    for i in 0..30u16 {
        // Short keys and keys longer than the stack copy.
        let key = if i % 3 == 0 {
            format!("a long key past forty-eight bytes of text, number {i}")
        } else {
            format!("k{i}")
        };
        k.rest.insert(key, vec![i; usize::from(i)]);
    }
    let json = structio::to_json(&k);
    let beve = structio::to_beve(&k);
    // A flattened map is emptied before each read (its keys are not tallied, so that is how
    // it ends up holding the object's keys only); the merging read reuses its entries.
    let mut jo = structio::json::Options::default();
    jo.read.merge = true;
    let mut bo = structio::beve::Options::default();
    bo.read.merge = true;
    let mut v = Kept::default();
    structio::json::read_json_with(&mut v, &json, &jo).unwrap();
    let n = allocations(|| structio::json::read_json_with(&mut v, &json, &jo).unwrap());
    // Each long key is copied once per read; short ones are not copied to the heap.
    assert_eq!(
        n, 10,
        "read_json into a warm flattened map allocated {n} times"
    );
    assert_eq!(v, k);
    structio::beve::read_beve_with(&mut v, &beve, &bo).unwrap();
    let n = allocations(|| structio::beve::read_beve_with(&mut v, &beve, &bo).unwrap());
    assert_eq!(
        n, 10,
        "read_beve into a warm flattened map allocated {n} times"
    );
    assert_eq!(v, k);
    // Without merging, the map holds the document's keys only.
    v.rest.insert("stale".into(), vec![1]);
    structio::read_json(&mut v, &json).unwrap();
    assert_eq!(v, k);
    v.rest.insert("stale".into(), vec![1]);
    structio::read_beve(&mut v, &beve).unwrap();
    assert_eq!(v, k);
}

#[test]
fn reading_ndjson_into_an_existing_vector_settles_into_zero_allocations() {
    let records: Vec<Part> = (0..200u32)
        .map(|i| Part {
            id: i,
            name: format!("record {i} \u{e9}\t"),
        })
        .collect();
    let text = structio::json::to_ndjson(&records);
    let mut v: Vec<Part> = Vec::new();
    for _ in 0..2 {
        structio::json::read_ndjson(&mut v, &text).unwrap();
    }
    let n = allocations(|| structio::json::read_ndjson(&mut v, &text).unwrap());
    assert_eq!(n, 0, "read_ndjson into a warm vector allocated {n} times");
    assert_eq!(v, records);
    let mut lines = structio::json::JsonLines::new(&text);
    let mut one = Part::default();
    lines.read_into(&mut one).unwrap().unwrap();
    let n = allocations(|| {
        while let Some(r) = lines.read_into(&mut one) {
            r.unwrap();
        }
    });
    assert!(n <= 2, "one record read over the last allocated {n} times");
    assert_eq!(one, records[199]);
}

#[test]
fn the_counter_counts() {
    let n = allocations(|| drop(std::hint::black_box(vec![1u8; 10])));
    assert_eq!(n, 1);
}
