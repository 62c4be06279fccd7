//! Throughput of the JSON backend on the seven Glaze benchmark documents, printed as
//! `name<TAB>case<TAB>MB/s` like the Glaze baseline binary. Every case writes into one reused
//! output buffer, as Glaze's benchmark does. MB/s is measured on the compact
//! document's size for every case (minify: on the pretty input's size too, as `minify_in`).
//!
//! `cargo run --release --example json_mbps -- [SECONDS] [REPS] [DOC...]`; with
//! `JSON_MBPS_CASE=json_write` (say) only that case is timed (reading always runs, to fill the
//! value).

#[path = "../tests/common/mod.rs"]
mod common;

#[path = "timing/mod.rs"]
mod timing;

use timing::{Cases, Timing};

struct Backend;

impl Cases for Backend {
    fn doc<T: for<'de> structio::Reflect<'de> + Default>(&mut self, name: &str, t: &Timing) {
        let json = common::read(&format!("formats/json/bench/{name}.json"));
        let pretty = common::read(&format!("formats/json/bench/{name}.pretty.json"));
        let n = json.len();
        let mut v = T::default();
        let row = |case: &str, mbps: f64| println!("{name}\t{case}\t{mbps:.0}");
        row(
            "json_read",
            t.best("json_read", n, || {
                structio::json::read_json(&mut v, &json[..]).unwrap()
            }),
        );
        let mut out = Vec::with_capacity(2 * n);
        row(
            "json_write",
            t.best("json_write", n, || {
                out.clear();
                structio::json::write_json(&v, &mut out);
            }),
        );
        row(
            "prettify",
            t.best("prettify", n, || {
                out.clear();
                structio::json::prettify_into(&json[..], &mut out).unwrap();
                std::hint::black_box(&out);
            }),
        );
        let m = t.best("minify", n, || {
            out.clear();
            structio::json::minify_into(&pretty[..], &mut out).unwrap();
            std::hint::black_box(&out);
        });
        row("minify", m);
        row("minify_in", m * pretty.len() as f64 / n as f64);
    }
}

fn main() {
    timing::run("JSON_MBPS_CASE", "json_read", &mut Backend);
}
