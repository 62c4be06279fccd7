//! Throughput of the BEVE backend on the seven Glaze benchmark documents, printed as
//! `name<TAB>case<TAB>MB/s` like the Glaze baseline binary (MB/s of the BEVE size).
//!
//! `cargo run --release --example beve_mbps -- [SECONDS] [REPS] [DOC...]`; with
//! `BEVE_MBPS_CASE=beve_write` (say) only that case is timed (reading always runs, to fill the
//! value). A negative SECONDS runs exactly that many calls once, for instruction counts
//! (`valgrind --tool=callgrind --toggle-collect='*measured*'`).

#[path = "../tests/common/mod.rs"]
mod common;

#[path = "timing/mod.rs"]
mod timing;

use timing::{Cases, Timing};

struct Backend;

impl Cases for Backend {
    fn doc<T: for<'de> structio::Reflect<'de> + Default>(&mut self, name: &str, t: &Timing) {
        let beve = common::read(&format!("formats/beve/bench/{name}.beve"));
        let n = beve.len();
        let mut v = T::default();
        let row = |case: &str, mbps: f64| println!("{name}\t{case}\t{mbps:.0}");
        row(
            "beve_read",
            t.best("beve_read", n, || {
                structio::read_beve(&mut v, &beve[..]).unwrap()
            }),
        );
        let mut out = Vec::with_capacity(2 * n);
        row(
            "beve_write",
            t.best("beve_write", n, || {
                out.clear();
                structio::write_beve(&v, &mut out);
            }),
        );
    }
}

fn main() {
    timing::run("BEVE_MBPS_CASE", "beve_read", &mut Backend);
}
