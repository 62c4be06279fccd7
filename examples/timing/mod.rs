//! What `json_mbps` and `beve_mbps` share: argument parsing, the timing loop (best of REPS
//! rounds of SECONDS, Glaze baseline's method), the one function an instruction count looks
//! at, and the dispatch over the seven benchmark documents and their Rust types.

use crate::common::{Az, Flat, Mixed};
use std::time::{Duration, Instant};

/// Calls `f` `n` times: what an instruction count (`valgrind --tool=callgrind
/// --toggle-collect='*measured*'`) looks at.
#[inline(never)]
fn measured(n: usize, f: &mut impl FnMut()) {
    for _ in 0..n {
        f();
    }
}

/// How to time: from the command line `[SECONDS] [REPS] [DOC...]`, and the environment
/// variable (`var`) that picks one case.
pub struct Timing {
    /// Length of one round; negative: exactly `-secs` calls once (for instruction counts).
    secs: f64,
    reps: usize,
    /// Environment variable naming the only case to time.
    var: &'static str,
    /// The case that fills the value (it runs even when another case is picked).
    fill: &'static str,
}

impl Timing {
    /// Best MB/s of the rounds, `bytes` per call of `f`; 0 for a case not picked.
    pub fn best(&self, case: &str, bytes: usize, mut f: impl FnMut()) -> f64 {
        if std::env::var(self.var).is_ok_and(|c| c != case) {
            if case == self.fill {
                f();
            }
            return 0.0;
        }
        f();
        if self.secs < 0.0 {
            measured(-self.secs as usize, &mut f);
            return 0.0;
        }
        let mut best = f64::MAX;
        for _ in 0..self.reps {
            let start = Instant::now();
            let mut calls = 0u64;
            while start.elapsed() < Duration::from_secs_f64(self.secs) {
                for _ in 0..8 {
                    f();
                }
                calls += 8;
            }
            best = best.min(start.elapsed().as_secs_f64() / calls as f64);
        }
        bytes as f64 / best / 1e6
    }
}

/// The cases of one backend, run on one document read into a `T`.
pub trait Cases {
    /// Times every case on document `name`, printing `name<TAB>case<TAB>MB/s` rows.
    fn doc<T: for<'de> structio::Reflect<'de> + Default>(&mut self, name: &str, t: &Timing);
}

/// Parses the command line and runs `cases` on each document asked for (all by default).
pub fn run(var: &'static str, fill: &'static str, cases: &mut impl Cases) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let t = Timing {
        secs: args.first().and_then(|a| a.parse().ok()).unwrap_or(0.3),
        reps: args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3),
        var,
        fill,
    };
    let only: Vec<&str> = args.iter().skip(2).map(|s| s.as_str()).collect();
    let want = |d: &str| only.is_empty() || only.contains(&d);
    if want("mixed") {
        cases.doc::<Mixed>("mixed", &t);
    }
    if want("strings") {
        cases.doc::<Flat<String>>("strings", &t);
    }
    if want("uints") {
        cases.doc::<Flat<u64>>("uints", &t);
    }
    if want("ints") {
        cases.doc::<Flat<i64>>("ints", &t);
    }
    if want("doubles") {
        cases.doc::<Flat<f64>>("doubles", &t);
    }
    if want("exact_decimals") {
        cases.doc::<Flat<f64>>("exact_decimals", &t);
    }
    if want("bools") {
        cases.doc::<Az<Vec<bool>>>("bools", &t);
    }
}
