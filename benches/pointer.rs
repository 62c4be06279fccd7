//! Reading one value at a JSON pointer from `twitter.json` (`STRUCTIO_CORPUS_DIR`, else
//! `tests/data/corpus`): a pointer near the start (`/statuses/0/id`) and one near the end
//! (`/statuses/99/id`), each read as a `u64` by
//!
//! - `structio::json::get::<u64>`: skips (and checks) what comes before the value, reads
//!   nothing after it;
//! - `structio::from_json::<Value>` then `Value::pointer`;
//! - `sonic_rs::get` (its checked form) then `as_u64`;
//! - `serde_json::from_slice::<serde_json::Value>` then `pointer`;
//! - `structio::json::validate` of the whole document: what checking everything costs, the
//!   floor of any reader that checks the whole document before answering.
//!
//! Sides are timed interleaved, as in the boundary bench: rounds that time a batch of every
//! side in turn (starting with a different side each round), so that a change of load hits every
//! side alike. Printed per side: the median time per read and the median over rounds of its
//! time over `structio::json::get`'s in the same round.
//!
//! `cargo bench --bench pointer` (pin it: `taskset -c 1 cargo bench --bench pointer`).

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use sonic_rs::JsonValueTrait;

/// One side of a comparison: its name and one read, returning the id it found.
type Side<'a> = (&'static str, Box<dyn Fn() -> u64 + 'a>);

/// Rounds per pointer.
const ROUNDS: usize = 31;

/// Times `sides` interleaved and prints the table rows; every side must return `want`.
fn interleaved(name: &str, want: u64, sides: &[Side<'_>]) {
    // Each side's batch takes about 2 ms (a tenth of what it runs in 20 ms).
    let batches: Vec<u32> = sides
        .iter()
        .map(|(_, f)| {
            let t = Instant::now();
            let mut n = 0u32;
            while t.elapsed() < Duration::from_millis(20) || n == 0 {
                assert_eq!(black_box(f()), want);
                n += 1;
            }
            (n / 10).max(1)
        })
        .collect();
    let mut times = vec![Vec::with_capacity(ROUNDS); sides.len()];
    for round in 0..ROUNDS {
        for k in 0..sides.len() {
            let s = (round + k) % sides.len();
            let t = Instant::now();
            for _ in 0..batches[s] {
                assert_eq!(black_box((sides[s].1)()), want, "{name} {}", sides[s].0);
            }
            times[s].push(t.elapsed().as_secs_f64() / f64::from(batches[s]));
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (s, (side, _)) in sides.iter().enumerate() {
        let ratios = times[s].iter().zip(&times[0]).map(|(a, b)| a / b).collect();
        let t = median(times[s].clone());
        let (v, unit) = if t < 1e-6 {
            (t * 1e9, "ns")
        } else {
            (t * 1e6, "us")
        };
        println!(
            "{name:<18} {side:<44} {v:>10.1} {unit} {:>8.2}x",
            median(ratios)
        );
    }
}

fn main() {
    let dir = common::corpus_dir().expect("no corpus: set STRUCTIO_CORPUS_DIR");
    let text = std::fs::read(dir.join("twitter.json")).expect("twitter.json");
    println!(
        "twitter.json, {} bytes; time per read (median of {ROUNDS} rounds) and its ratio to \
         structio::json::get (median of the rounds' ratios)",
        text.len()
    );
    for (index, name) in [(0usize, "/statuses/0/id"), (99, "/statuses/99/id")] {
        let want: u64 = structio::json::get(&text, name).unwrap();
        let t = &text[..];
        let sides: Vec<Side<'_>> = vec![
            (
                "structio::json::get::<u64>",
                Box::new(move || structio::json::get::<u64>(black_box(t), name).unwrap()),
            ),
            (
                "structio from_json::<Value> + pointer",
                Box::new(move || {
                    let v: structio::Value = structio::from_json(black_box(t)).unwrap();
                    v.pointer(name).and_then(structio::Value::as_u64).unwrap()
                }),
            ),
            (
                "sonic_rs::get + as_u64",
                Box::new(move || {
                    sonic_rs::get(black_box(t), &sonic_rs::pointer!["statuses", index, "id"])
                        .unwrap()
                        .as_u64()
                        .unwrap()
                }),
            ),
            (
                "serde_json::Value + pointer",
                Box::new(move || {
                    let v: serde_json::Value = serde_json::from_slice(black_box(t)).unwrap();
                    v.pointer(name).and_then(serde_json::Value::as_u64).unwrap()
                }),
            ),
            (
                "structio::json::validate (whole document)",
                Box::new(move || {
                    structio::json::validate(black_box(t)).unwrap();
                    want
                }),
            ),
        ];
        interleaved(name, want, &sides);
    }
}
