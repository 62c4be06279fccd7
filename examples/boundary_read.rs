//! Reads one document of the boundary bench (`benches/boundary.rs`) N times with one reader and
//! prints the time per read and the allocations of one read: a harness for profilers. The
//! reads run inside a function named `measured`, so callgrind counts exactly them:
//! `valgrind --tool=callgrind --toggle-collect='*measured*' target/release/examples/boundary_read wide24x1e3 json/parse 10`.
//!
//! `DOC`: `aggregate`, `wide24`, `wide24x1e3` or `wide24x1e5`. `ROW`: `json/from_json`,
//! `json/parse`, `json/parse_invalid`, `json/serde_json+garde`, `beve/from_beve`,
//! `beve/parse`, `beve/parse_invalid`.
//!
//! `cargo run --release --example boundary_read -- DOC ROW [N]`

#[path = "../benches/common/boundary.rs"]
mod docs;

use std::hint::black_box;
use std::time::Instant;

use garde::Validate;

#[path = "../benches/common/counting.rs"]
mod counting;

/// The read of `row`: `true` when it gave what the row expects.
fn reader<T>(row: &str) -> fn(&Inputs) -> bool
where
    T: structio::ReflectOwned + serde::de::DeserializeOwned + Validate,
    <T as Validate>::Context: Default,
{
    match row {
        "json/from_json" => |i| black_box(structio::from_json::<T>(black_box(i.json))).is_ok(),
        "json/parse" => |i| black_box(structio::json::parse::<T>(black_box(i.json))).is_ok(),
        "json/parse_invalid" => {
            |i| black_box(structio::json::parse::<T>(black_box(i.bad_json))).is_err()
        }
        "json/serde_json+garde" => |i| {
            serde_json::from_slice::<T>(black_box(i.json))
                .is_ok_and(|v| black_box(v.validate()).is_ok())
        },
        "beve/from_beve" => |i| black_box(structio::from_beve::<T>(black_box(i.beve))).is_ok(),
        "beve/parse" => |i| black_box(structio::beve::parse::<T>(black_box(i.beve))).is_ok(),
        "beve/parse_invalid" => {
            |i| black_box(structio::beve::parse::<T>(black_box(i.bad_beve))).is_err()
        }
        other => panic!("unknown row {other}"),
    }
}

/// A document in both formats, valid and with every member broken.
struct Inputs<'a> {
    json: &'a [u8],
    bad_json: &'a [u8],
    beve: &'a [u8],
    bad_beve: &'a [u8],
}

#[inline(never)]
fn measured(n: usize, read: fn(&Inputs) -> bool, inputs: &Inputs) {
    for _ in 0..n {
        assert!(read(inputs));
    }
}

fn run<T>(value: &T, row: &str, n: usize)
where
    T: structio::ReflectOwned + serde::de::DeserializeOwned + Validate,
    <T as Validate>::Context: Default,
{
    let json = structio::to_json(value);
    let bad_json = docs::broken(&json);
    let beve = structio::to_beve(value);
    let bad_value: structio::Value =
        structio::from_json(&bad_json).expect("the broken document reads");
    let bad_beve = structio::to_beve(&bad_value);
    let inputs = Inputs {
        json: json.as_bytes(),
        bad_json: bad_json.as_bytes(),
        beve: &beve,
        bad_beve: &bad_beve,
    };
    let read = reader::<T>(row);
    let allocs =
        counting::allocations(|| assert!(read(&inputs), "{row} did not give what it should"));
    let t = Instant::now();
    measured(n, read, &inputs);
    println!(
        "{row}: {:?} per read, {allocs} allocations per read",
        t.elapsed() / n.max(1) as u32
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let doc = args.next().unwrap_or_else(|| "wide24x1e3".to_string());
    let row = args.next().unwrap_or_else(|| "json/parse".to_string());
    let n = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    match doc.as_str() {
        "aggregate" => run(&docs::person(7), &row, n),
        "wide24" => run(&docs::wide(7), &row, n),
        "wide24x1e3" => run(&(0..1000).map(docs::wide).collect::<Vec<_>>(), &row, n),
        "wide24x1e5" => run(&(0..100_000).map(docs::wide).collect::<Vec<_>>(), &row, n),
        other => panic!("unknown document {other}"),
    }
}
