//! The stream readers against the in-memory readers on the same data, in MB/s (Glaze's timing
//! method: best of REPS loops of at least SECONDS each):
//!
//! ```text
//! cargo bench --bench streams -- [SECONDS] [REPS]
//! ```
//!
//! Two record shapes, about 16 MB of each: `events` (small records of strings and numbers, one
//! escape each) and `samples` (records of 64 floats). Each is read one record at a time into a
//! reused value, as NDJSON (`JsonLines::new` against `JsonLines::from_reader`, the latter
//! from a slice, which hands over 64 KiB per read, and through 4 KiB reads, as a pipe gives),
//! as delimited BEVE (`Delimited::new` against `Delimited::from_reader`) and as one JSON array
//! (`read_json` into a reused `Vec` against `array_iter`). Prints `shape<TAB>op<TAB>MB/s`.

mod common;

use std::io::Read;

use common::best_mbps;
use structio::beve::Delimited;
use structio::json::{array_iter, JsonLines};
use structio::{Reflect, ReflectOwned};

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Event {
    id: u64,
    user: String,
    kind: String,
    tags: Vec<String>,
    score: f64,
    ok: bool,
}

#[derive(Reflect, Default, Debug, Clone, PartialEq)]
struct Samples {
    id: u32,
    values: Vec<f64>,
}

fn events(n: usize) -> Vec<Event> {
    (0..n)
        .map(|i| Event {
            id: i as u64 * 7919,
            user: format!("user{}", i % 1000),
            kind: format!("kind \"{}\"", i % 13),
            tags: (0..i % 4).map(|t| format!("tag{t}")).collect(),
            score: i as f64 * 0.25 - 100.0,
            ok: i % 3 == 0,
        })
        .collect()
}

fn samples(n: usize) -> Vec<Samples> {
    (0..n)
        .map(|i| Samples {
            id: i as u32,
            values: (0..64).map(|k| (i * 64 + k) as f64 * 1.0001e-3).collect(),
        })
        .collect()
}

/// Hands out at most `n` bytes per read, as a pipe or a socket does.
struct Pieces<'a>(&'a [u8], usize);

impl Read for Pieces<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let k = self.1.min(out.len()).min(self.0.len());
        out[..k].copy_from_slice(&self.0[..k]);
        self.0 = &self.0[k..];
        Ok(k)
    }
}

fn shape<T: ReflectOwned + Default + Clone>(name: &str, items: &[T], seconds: f64, reps: u32) {
    let ndjson = structio::json::to_ndjson(items).into_bytes();
    let beve = structio::beve::to_delimited(items);
    let array = structio::to_json(&items.to_vec()).into_bytes();
    let n = items.len();
    let mut v = T::default();
    let row = |op: &str, bytes: usize, f: &mut dyn FnMut()| {
        println!("{name}\t{op}\t{:.0}", best_mbps(bytes, seconds, reps, f));
    };
    row("ndjson memory", ndjson.len(), &mut || {
        let mut lines = JsonLines::new(&ndjson);
        let mut k = 0;
        while let Some(r) = lines.read_into(&mut v) {
            r.unwrap();
            k += 1;
        }
        assert_eq!(k, n);
    });
    row("ndjson stream", ndjson.len(), &mut || {
        let mut lines = JsonLines::from_reader(&ndjson[..]);
        let mut k = 0;
        while let Some(r) = lines.read_into(&mut v) {
            r.unwrap();
            k += 1;
        }
        assert_eq!(k, n);
    });
    row("ndjson stream 4k reads", ndjson.len(), &mut || {
        let mut lines = JsonLines::from_reader(Pieces(&ndjson, 4096));
        let mut k = 0;
        while let Some(r) = lines.read_into(&mut v) {
            r.unwrap();
            k += 1;
        }
        assert_eq!(k, n);
    });
    row("delimited memory", beve.len(), &mut || {
        let mut seq = Delimited::new(&beve);
        let mut k = 0;
        while let Some(r) = seq.read_into(&mut v) {
            r.unwrap();
            k += 1;
        }
        assert_eq!(k, n);
    });
    row("delimited stream", beve.len(), &mut || {
        let mut seq = Delimited::from_reader(&beve[..]);
        let mut k = 0;
        while let Some(r) = seq.read_into(&mut v) {
            r.unwrap();
            k += 1;
        }
        assert_eq!(k, n);
    });
    let mut all: Vec<T> = Vec::new();
    row("array memory", array.len(), &mut || {
        structio::read_json(&mut all, &array).unwrap();
        assert_eq!(all.len(), n);
    });
    row("array stream", array.len(), &mut || {
        let mut it = array_iter::<T, _>(&array[..]);
        let mut k = 0;
        while let Some(r) = it.read_into(&mut v) {
            r.unwrap();
            k += 1;
        }
        assert_eq!(k, n);
    });
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let seconds: f64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(0.5);
    let reps: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    shape("events", &events(150_000), seconds, reps);
    shape("samples", &samples(12_000), seconds, reps);
}
