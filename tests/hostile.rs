//! Hostile input: every case gets a clean error (or a documented acceptance, see
//! `docs/reliability.md`), in time linear in the input and memory bounded by a small multiple
//! of it. Cases that could exhaust memory or the stack run in a child process (this test binary
//! re-executed with `STRUCTIO_HOSTILE_CASE` naming the test) under an address-space limit, so a
//! runaway allocation fails there and an abort or stack overflow is reported as a failure
//! rather than killing the suite.
//!
//! - `hostile/prefixes.rs`: every prefix of the golden files is an error, typed and `Value`.
//! - `hostile/json.rs`: UTF-8, nesting, numbers, syntax outside RFC 8259, escapes; deep
//!   `Value`s cloned and printed on a small stack, megabyte keys in errors, repeated adjacent
//!   tags, integer map keys, huge indents, `RawJson` through the pretty layout.
//! - `hostile/jsonc.rs`: JSON with comments: megabytes of comments, unterminated and lone
//!   ones, nesting behind comments, invalid UTF-8 in comments, every prefix of a commented
//!   document, through every reader that takes the option.
//! - `hostile/beve.rs`: counts, sizes, headers, padding, nesting, UTF-8; integers past the
//!   `f32` range, megabyte keys, repeated adjacent tags, string keys of integer maps, huge
//!   indents.
//! - `hostile/limits.rs`: budgets across a whole input (delimited re-reads), reservations for
//!   large elements, the stack taken by nesting types with large inline data.
//! - `hostile/pointer.rs`: `json::get` and `beve::get`: deep nesting on the path and in the
//!   values skipped, a million members before the target, megabyte pointers and keys, documents
//!   built against the UTF-8 check that grows with what is read.
//! - `hostile/streams.rs`: the stream readers in bounded memory: a 2 GB NDJSON stream, endless
//!   garbage and nesting, huge declared BEVE lengths, records past the limit, long gaps;
//!   consecutive JSON values (`json::values`): millions of tiny values, deep nesting, values
//!   past the limit.
//! - `hostile/boundary.rs`: `json::parse` and `beve::parse`: a million invalid members stop
//!   at `max_issues`, deep nesting of failing values is one pass, huge counts, long keys.
//! - `hostile/types.rs`: the types read from text of their own or checked after reading
//!   (`NonZero*`, `Duration`, `SystemTime`, addresses, paths, and the optional features'
//!   types): megabyte texts, long numbers, a late zero, huge counts, repeated keys.
//! - `hostile/value.rs`: `from_value` and `to_value` on trees built in code: untagged nests in
//!   linear time, a million levels deep, large inline types on a small stack, megabyte keys in
//!   messages, a million nulls read as 4 KiB elements.
//! - `hostile/attrs.rs`: the derive's `quoted`, `as_integer` and `as_array` layouts: megabyte
//!   quoted numbers, numbers past every range, extra elements, huge counts.

mod common;
mod shapes;

#[path = "hostile/attrs.rs"]
mod attrs;
#[path = "hostile/beve.rs"]
mod beve;
#[path = "hostile/boundary.rs"]
mod boundary;
#[path = "hostile/json.rs"]
mod json;
#[path = "hostile/jsonc.rs"]
mod jsonc;
#[path = "hostile/limits.rs"]
mod limits;
#[path = "hostile/pointer.rs"]
mod pointer;
#[path = "hostile/prefixes.rs"]
mod prefixes;
#[path = "hostile/streams.rs"]
mod streams;
#[path = "hostile/types.rs"]
mod types;
#[path = "hostile/value.rs"]
mod value;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The environment variable naming the test a child process runs.
const CASE_VAR: &str = "STRUCTIO_HOSTILE_CASE";

/// How long a child may run before it counts as a hang.
const CHILD_TIMEOUT: Duration = Duration::from_secs(120);

/// Runs `case` in a child process whose address space may grow by at most `budget_mib` MiB
/// beyond what the test binary has mapped when the case starts. `test` is the test's path as
/// the harness names it (`module::function`). In the parent this spawns the child and asserts a
/// clean exit within [`CHILD_TIMEOUT`]; in the child it sets the limit and runs `case`.
pub fn bounded(test: &str, budget_mib: u64, case: impl FnOnce()) {
    if let Some((status, out, err)) = in_child(test, budget_mib, case) {
        assert!(
            status.success() && out.contains("1 passed"),
            "{test}: child failed ({status}) under a {budget_mib} MiB budget\nstdout:\n{out}\nstderr:\n{err}"
        );
    }
}

/// In the child (selected by [`CASE_VAR`]): sets the limit, runs `case` and returns `None`. In
/// the parent: runs the child and returns its exit status, stdout and stderr.
fn in_child(
    test: &str,
    budget_mib: u64,
    case: impl FnOnce(),
) -> Option<(std::process::ExitStatus, String, String)> {
    if std::env::var(CASE_VAR).as_deref() == Ok(test) {
        limit_address_space(budget_mib);
        case();
        return None;
    }
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new(exe)
        .args([test, "--exact", "--test-threads=1", "--nocapture"])
        .env(CASE_VAR, test)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > CHILD_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{test}: still running after {CHILD_TIMEOUT:?} (a hang)");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    Some((status, out, err))
}

/// The cap works: a child allocating 200 MiB under a 64 MiB budget fails.
#[test]
fn the_memory_cap_catches_a_runaway_allocation() {
    let r = in_child("the_memory_cap_catches_a_runaway_allocation", 64, || {
        let v = std::hint::black_box(vec![1u8; 200 << 20]);
        assert_eq!(v[5], 1);
    });
    if let Some((status, _, err)) = r {
        assert!(!status.success(), "200 MiB fit in a 64 MiB budget");
        assert!(err.contains("memory allocation"), "{err}");
    }
}

/// Caps the address space at what is mapped now plus `budget_mib` MiB.
fn limit_address_space(budget_mib: u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let vm_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmSize in /proc/self/status");
    let bytes = (vm_kib + budget_mib * 1024) * 1024;
    let lim = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: `setrlimit` reads the struct we pass by reference and changes only this
    // process's limit.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::setrlimit(libc::RLIMIT_AS, &lim) };
    assert_eq!(rc, 0, "setrlimit failed");
}

/// Asserts `f` returns within `release_ms` milliseconds (ten times that in a debug build) and
/// passes its result on. The limits are far above the linear cost (milliseconds for a
/// megabyte) and far below a quadratic one (minutes), so a shared, busy machine does not make
/// them flaky.
pub fn timed<T>(what: &str, release_ms: u64, f: impl FnOnce() -> T) -> T {
    let limit = Duration::from_millis(if cfg!(debug_assertions) {
        release_ms * 10
    } else {
        release_ms
    });
    let start = Instant::now();
    let r = f();
    let took = start.elapsed();
    assert!(took <= limit, "{what}: took {took:?}, limit {limit:?}");
    r
}

/// Asserts `r` is an error, naming the case otherwise.
#[track_caller]
pub fn err<T: std::fmt::Debug>(what: &str, r: structio::Result<T>) -> structio::Error {
    match r {
        Ok(v) => panic!("{what}: accepted, read {v:?}"),
        Err(e) => e,
    }
}

/// Asserts `r` is an error whose message contains `needle`.
#[track_caller]
pub fn err_with<T: std::fmt::Debug>(what: &str, r: structio::Result<T>, needle: &str) {
    let e = err(what, r);
    assert!(
        e.message().contains(needle),
        "{what}: error `{}` does not mention `{needle}`",
        e.message()
    );
}
