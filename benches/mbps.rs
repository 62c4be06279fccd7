//! structio's side of `benches/compare.sh`: the seven Glaze benchmark documents timed exactly as
//! baseline-cpp times Glaze (reused destination value and output buffer, prettify and minify
//! included), in one of two modes.
//!
//! ```text
//! cargo bench --bench mbps -- [DIR] [SECONDS] [REPS] [DOC...]
//! cargo bench --bench mbps -- paired GLAZE_BENCH DIR [ROUNDS] [SAMPLE_MS] [DOC...]
//! cargo bench --bench mbps -- serve DIR
//! ```
//! - **Loops** (the first form): best of REPS loops of at least SECONDS per cell, baseline-cpp's
//!   `run` method; one `doc<TAB>op<TAB>MB/s` line per cell. SECONDS defaults to 0.5, REPS to 5.
//! - **Paired**: starts baseline-cpp's binary in `serve` mode and, for each cell, alternates the
//!   two sides ROUNDS times (default 100), the order swapped every round. A round is each
//!   side's best of five samples of about SAMPLE_MS milliseconds (default 0.5), so the two
//!   sides of a round run within a few milliseconds of each other: a slow spell of a shared
//!   host slows both. Prints `doc<TAB>op<TAB>structio MB/s<TAB>Glaze MB/s<TAB>ratio` lines:
//!   the MB/s are the medians of the rounds' bests, the ratio is the median of the rounds'
//!   structio / Glaze ratios.
//!
//! - **Serve**: answers timing requests on stdin as baseline-cpp's `serve` does, so that
//!   `paired` can be given another build of this bench in place of GLAZE_BENCH: two builds of
//!   structio side by side (`mbps-new paired mbps-old DIR`; the "Glaze" column is then the
//!   other build).
//!
//! `BENCH_OPS=beve_read,minify` (loops and paired) times only the operations it names.
//!
//! DIR holds NAME.json, NAME.pretty.json and NAME.beve (loops mode's default:
//! `STRUCTIO_BENCH_DIR`, else the copies in formats/; paired mode needs it, as Glaze's side
//! reads the three from one folder, which `compare.sh` makes). MB = 10^6 bytes; JSON read, write and prettify count the compact JSON
//! size, minify the pretty size, BEVE read and write the BEVE size.

mod common;

use common::shapes::{Flat, Mixed};
use common::{best_mbps, doc_dirs, load_doc, DocFiles};
use std::hint::black_box;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;
use structio::ReflectOwned;

/// The six operations, named as baseline-cpp names them, in the order they are reported.
const OPS: [&str; 6] = [
    "json_read",
    "json_write",
    "prettify",
    "minify",
    "beve_read",
    "beve_write",
];

/// Samples per side and round in paired mode (each side's round is its best sample).
const SAMPLES: usize = 5;

/// One document's files with the reused value and output buffer every operation works on.
struct Doc<T> {
    files: DocFiles,
    value: T,
    out: Vec<u8>,
}

impl<T: ReflectOwned + Default> Doc<T> {
    fn new(name: &str, files: DocFiles) -> Self {
        let mut value = T::default();
        structio::read_json(&mut value, &files.json[..]).unwrap_or_else(|e| panic!("{name}: {e}"));
        Doc {
            files,
            value,
            out: Vec::new(),
        }
    }

    /// One call of operation `OP` (an index into [`OPS`]); false when it failed.
    #[inline(always)]
    fn one<const OP: usize>(&mut self) -> bool {
        let f = &self.files;
        let out = &mut self.out;
        match OP {
            0 => return structio::read_json(&mut self.value, &f.json[..]).is_ok(),
            4 => return structio::read_beve(&mut self.value, &f.beve[..]).is_ok(),
            _ => {}
        }
        out.clear();
        let ok = match OP {
            1 => {
                structio::write_json(&self.value, out);
                true
            }
            2 => structio::json::prettify_into(&f.json[..], out).is_ok(),
            3 => structio::json::minify_into(&f.pretty[..], out).is_ok(),
            _ => {
                structio::write_beve(&self.value, out);
                true
            }
        };
        black_box(&out);
        ok
    }

    /// Operation `op` run `n` times; false when a call failed.
    fn call(&mut self, op: usize, n: usize) -> bool {
        fn many<T: ReflectOwned + Default, const OP: usize>(d: &mut Doc<T>, n: usize) -> bool {
            (0..n).fold(true, |ok, _| d.one::<OP>() & ok)
        }
        match op {
            0 => many::<T, 0>(self, n),
            1 => many::<T, 1>(self, n),
            2 => many::<T, 2>(self, n),
            3 => many::<T, 3>(self, n),
            4 => many::<T, 4>(self, n),
            _ => many::<T, 5>(self, n),
        }
    }

    /// The bytes one call of `op` is credited with.
    fn bytes(&self, op: usize) -> usize {
        match op {
            3 => self.files.pretty.len(),
            4 | 5 => self.files.beve.len(),
            _ => self.files.json.len(),
        }
    }

    /// Best of [`SAMPLES`] timings of `batch` calls of `op`, in nanoseconds per call.
    fn sample(&mut self, name: &str, op: usize, batch: usize) -> f64 {
        let mut best = f64::MAX;
        for _ in 0..SAMPLES {
            let start = Instant::now();
            assert!(self.call(op, batch), "{name} {}: failed", OPS[op]);
            best = best.min(start.elapsed().as_secs_f64() * 1e9 / batch as f64);
        }
        best
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// baseline-cpp's binary in `serve` mode.
struct Glaze {
    child: Child,
    to: ChildStdin,
    from: BufReader<ChildStdout>,
}

impl Glaze {
    fn start(exe: &str, dir: &Path) -> Glaze {
        let mut child = Command::new(exe)
            .arg("serve")
            .arg(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start the Glaze baseline {exe}: {e}"));
        let to = child.stdin.take().expect("piped stdin");
        let from = BufReader::new(child.stdout.take().expect("piped stdout"));
        Glaze { child, to, from }
    }

    /// Glaze's best of [`SAMPLES`] timings of `batch` calls, in nanoseconds per call.
    fn sample(&mut self, doc: &str, op: &str, batch: usize) -> f64 {
        writeln!(self.to, "{doc} {op} {batch} {SAMPLES}").expect("write to the Glaze baseline");
        self.to.flush().expect("write to the Glaze baseline");
        let mut line = String::new();
        self.from
            .read_line(&mut line)
            .expect("read from the Glaze baseline");
        line.trim()
            .parse()
            .unwrap_or_else(|_| panic!("Glaze baseline on {doc} {op}: {line:?}"))
    }
}

impl Drop for Glaze {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

/// Whether `BENCH_OPS` (a comma-separated list of operation names; unset or empty: all)
/// names operation `op`.
fn op_chosen(op: &str) -> bool {
    match std::env::var("BENCH_OPS") {
        Ok(list) if !list.is_empty() => list.split(',').any(|o| o.trim() == op),
        _ => true,
    }
}

/// The seven documents (or those `only` names), read from `dir` (or the default folders).
fn docs(dir: Option<&String>, only: &[String]) -> Vec<(&'static str, Box<dyn Timed>)> {
    let (json_dir, beve_dir) = match dir {
        Some(d) => (PathBuf::from(d), PathBuf::from(d)),
        None => doc_dirs(),
    };
    let mut docs: Vec<(&'static str, Box<dyn Timed>)> = Vec::new();
    macro_rules! doc {
        ($name:literal, $t:ty) => {{
            if only.is_empty() || only.iter().any(|o| o == $name) {
                let d = Doc::<$t>::new($name, load_doc(&json_dir, &beve_dir, $name));
                docs.push(($name, Box::new(d)));
            }
        }};
    }
    doc!("mixed", Mixed);
    doc!("strings", Flat<String>);
    doc!("uints", Flat<u64>);
    doc!("ints", Flat<i64>);
    doc!("doubles", Flat<f64>);
    doc!("exact_decimals", Flat<f64>);
    doc!("bools", Flat<bool>);
    docs
}

/// Runs `each` on the seven documents (or those `only` names), read from `dir` (or the
/// default folders).
fn each_doc(dir: Option<&String>, only: &[String], mut each: impl FnMut(&str, &mut dyn Timed)) {
    for (name, mut d) in docs(dir, only) {
        each(name, &mut *d);
    }
}

/// The two modes over a document of any type.
trait Timed {
    /// Loops mode: every operation's best MB/s, printed as it is measured.
    fn loops(&mut self, name: &str, seconds: f64, reps: u32);
    /// Paired mode: every operation alternated with Glaze's, `rounds` rounds of samples of
    /// about `sample_ns`.
    fn paired(&mut self, name: &str, glaze: &mut Glaze, rounds: usize, sample_ns: f64);
    /// Serve mode: the best of [`SAMPLES`] timings of `batch` calls of operation `op` (a name
    /// from [`OPS`]), in nanoseconds per call; `None` for an unknown operation.
    fn serve(&mut self, name: &str, op: &str, batch: usize) -> Option<f64>;
}

impl<T: ReflectOwned + Default> Timed for Doc<T> {
    fn loops(&mut self, name: &str, seconds: f64, reps: u32) {
        let mut ok = true;
        for (op, op_name) in OPS.iter().enumerate() {
            if !op_chosen(op_name) {
                continue;
            }
            let mbps = best_mbps(self.bytes(op), seconds, reps, || ok &= self.call(op, 1));
            println!("{name}\t{op_name}\t{mbps:.0}");
            std::io::stdout().flush().ok();
        }
        assert!(ok, "{name}: an operation failed while timing");
    }

    fn serve(&mut self, name: &str, op: &str, batch: usize) -> Option<f64> {
        let op = OPS.iter().position(|o| *o == op)?;
        Some(self.sample(name, op, batch))
    }

    fn paired(&mut self, name: &str, glaze: &mut Glaze, rounds: usize, sample_ns: f64) {
        for (op, op_name) in OPS.iter().enumerate() {
            if !op_chosen(op_name) {
                continue;
            }
            // Warm both sides and size the batch from the slower one.
            let ours = self.sample(name, op, 1);
            let theirs = glaze.sample(name, op_name, 1);
            let batch = (sample_ns / ours.max(theirs)).clamp(1.0, 1e6) as usize;
            let (mut ours_ns, mut theirs_ns, mut ratios) = (vec![], vec![], vec![]);
            for round in 0..rounds {
                let (o, t) = if round % 2 == 0 {
                    let t = glaze.sample(name, op_name, batch);
                    (self.sample(name, op, batch), t)
                } else {
                    let o = self.sample(name, op, batch);
                    (o, glaze.sample(name, op_name, batch))
                };
                ours_ns.push(o);
                theirs_ns.push(t);
                ratios.push(t / o);
            }
            let mbps = |ns: f64| self.bytes(op) as f64 / ns * 1e3;
            println!(
                "{name}\t{op_name}\t{:.0}\t{:.0}\t{:.3}",
                mbps(median(&mut ours_ns)),
                mbps(median(&mut theirs_ns)),
                median(&mut ratios)
            );
            std::io::stdout().flush().ok();
        }
    }
}

/// Serve mode: answers baseline-cpp's timing requests (`DOC OP BATCH SAMPLES` lines on stdin,
/// one answer line each: nanoseconds per call, or `error`), so that `paired` mode can drive
/// another build of this bench in place of Glaze's and compare two builds of structio side
/// by side.
fn serve(dir: &String) {
    let mut loaded = docs(Some(dir), &[]);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let line = line.expect("read a request");
        let parts: Vec<&str> = line.split_whitespace().collect();
        let answer = match parts[..] {
            [doc, op, batch, _samples] => loaded
                .iter_mut()
                .find(|(n, _)| *n == doc)
                .zip(batch.parse::<usize>().ok())
                .and_then(|((n, d), batch)| d.serve(n, op, batch)),
            _ => None,
        };
        match answer {
            Some(ns) => writeln!(out, "{ns}"),
            None => writeln!(out, "error"),
        }
        .and_then(|()| out.flush())
        .expect("answer a request");
    }
}

fn main() {
    // `cargo bench` passes `--bench`; everything starting with `-` is ignored.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if args.first().map(String::as_str) == Some("serve") {
        let dir = args.get(1).expect("serve DIR");
        serve(dir);
    } else if args.first().map(String::as_str) == Some("paired") {
        let usage = "paired GLAZE_BENCH DIR [ROUNDS] [SAMPLE_MS]";
        let exe = args.get(1).expect(usage);
        // Glaze's side reads all three files of a document from one folder.
        let dir = args.get(2).expect(usage);
        let rounds: usize = args.get(3).map_or(100, |s| s.parse().expect("ROUNDS"));
        let ms: f64 = args.get(4).map_or(0.5, |s| s.parse().expect("SAMPLE_MS"));
        let mut glaze = Glaze::start(exe, Path::new(dir));
        each_doc(Some(dir), args.get(5..).unwrap_or(&[]), |name, d| {
            d.paired(name, &mut glaze, rounds, ms * 1e6)
        });
    } else {
        let seconds: f64 = args.get(1).map_or(0.5, |s| s.parse().expect("SECONDS"));
        let reps: u32 = args.get(2).map_or(5, |s| s.parse().expect("REPS"));
        each_doc(args.first(), args.get(3..).unwrap_or(&[]), |name, d| {
            d.loops(name, seconds, reps)
        });
    }
}
