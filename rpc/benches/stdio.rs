//! Whole-process stdio: 100,000 pipelined `tools/call` lines (after `initialize`) written to a
//! server's stdin while its stdout is read, for the example `mcp_server`, mcport 0.6.1 serving
//! the same `add` tool (`examples/mcport_add.rs`) and rmcp 3.11.0 serving it
//! (`benches/rmcp/src/bin/rmcp_add.rs`, its own workspace). The servers take turns, round by
//! round; each row is the median wall time of a round, from the first byte written to the last
//! response read, and the time per message.
//!
//! Build the servers first, then run:
//! `cargo build --release -p structio-rpc --examples`,
//! `cargo build --release --manifest-path rpc/benches/rmcp/Cargo.toml` (or set `RMCP_ADD` to
//! its binary; without it, no rmcp row), `cargo bench -p structio-rpc --bench stdio`
//! (`LINES=` and `ROUNDS=` change the effort).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The folder of the release examples: beside this bench's `deps` folder.
fn examples_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the bench's path");
    let profile = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>");
    let release = profile
        .parent()
        .expect("target")
        .join("release")
        .join("examples");
    if release.exists() {
        release
    } else {
        profile.join("examples")
    }
}

/// One round: spawns `server`, writes the lines from a thread, reads every response line.
fn round(server: &PathBuf, input: &[u8], expect: usize) -> Duration {
    let mut child = Command::new(server)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (build it: cargo build --release -p structio-rpc --examples)",
                server.display()
            )
        });
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let input = input.to_vec();
    let start = Instant::now();
    let writer = std::thread::spawn(move || {
        stdin.write_all(&input).unwrap();
        // Kept open until every answer is read: a server that stops at the end of its input
        // without finishing its calls (rmcp drops those still running) would lose answers.
        stdin
    });
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    let mut line = Vec::new();
    let mut n = 0;
    while n < expect {
        line.clear();
        if reader.read_until(b'\n', &mut line).unwrap() == 0 {
            break;
        }
        n += 1;
    }
    let t = start.elapsed();
    // Closing stdin ends the server.
    drop(writer.join().unwrap());
    drop(reader);
    child.wait().unwrap();
    assert_eq!(
        n,
        expect,
        "{}: answered {n} of {expect} lines",
        server.display()
    );
    t
}

fn main() {
    let lines: usize = std::env::var("LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7);
    let mut input = String::new();
    input.push_str(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#);
    input.push('\n');
    input.push_str(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    input.push('\n');
    for i in 0..lines {
        input.push_str(&format!(
            r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"add","arguments":{{"left":{},"right":40}}}}}}"#,
            i + 1,
            i % 1000
        ));
        input.push('\n');
    }
    let dir = examples_dir();
    let mut servers = vec![
        ("structio-rpc mcp_server", dir.join("mcp_server")),
        ("mcport 0.6.1 add", dir.join("mcport_add")),
    ];
    // rmcp is built in its own workspace (rpc/benches/rmcp), not with this crate.
    let rmcp = std::env::var_os("RMCP_ADD")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/rmcp/target/release/rmcp_add")
        });
    if rmcp.exists() {
        servers.push(("rmcp 3.11.0 add", rmcp));
    } else {
        eprintln!(
            "{} not built: no rmcp row (cargo build --release --manifest-path rpc/benches/rmcp/Cargo.toml)",
            rmcp.display()
        );
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); servers.len()];
    for _ in 0..rounds {
        for (i, (_, path)) in servers.iter().enumerate() {
            times[i].push(round(path, input.as_bytes(), lines + 1));
        }
    }
    println!("{lines} pipelined tools/call lines, {rounds} rounds, median");
    let base = {
        let mut t = times[0].clone();
        t.sort();
        t[t.len() / 2]
    };
    for ((name, _), t) in servers.iter().zip(&mut times) {
        t.sort();
        let m = t[t.len() / 2];
        println!(
            "{name:<26} {:>8.1} ms  {:>7.0} ns/message  {:>5.2}x",
            m.as_secs_f64() * 1e3,
            m.as_nanos() as f64 / lines as f64,
            m.as_secs_f64() / base.as_secs_f64()
        );
    }
}
