//! structio-rpc against serde_json (a `Value` dispatcher and a borrowed `RawValue` envelope)
//! and sonic-rs: (a) envelope and dispatch, (b) a typed `tools/call` parse in the canonical and a
//! spaced/reordered layout, (c) request bytes to response bytes through the MCP server.
//!
//! Paired: the sides take turns, round by round, in one process; each row is the median of the
//! rounds' ns per message. A counting global allocator reports allocations per message.
//!
//! Run: `cargo bench -p structio-rpc --bench rpc` (`ROUNDS=`, `ITERS=` to change the effort).

use std::alloc::{GlobalAlloc, Layout, System};
use std::borrow::Cow;
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use serde::Deserialize;
use structio_rpc::mcp::{Server, ToolError};
use structio_rpc::{Id, Request};

/// Counts allocations (and reallocations).
struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every method forwards to `System` with the caller's arguments unchanged; counting
// touches only an atomic.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc` is passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract for `realloc` is passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{}},"clientInfo":{"name":"bench-client","version":"1.0.0"}}}"#;
const TOOLS_LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
const TOOLS_CALL: &str = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"left":2,"right":40}}}"#;
const TOOLS_CALL_SPACED: &str = r#"{ "method" : "tools/call", "params" : { "arguments" : { "right" : 40, "left" : 2 }, "name" : "add" }, "id" : 3, "jsonrpc" : "2.0" }"#;

/// The arguments of `add`.
#[derive(structio::Reflect, Deserialize, Debug, PartialEq, Clone, Copy)]
struct Add {
    left: i32,
    right: i32,
}

/// The result of `add`.
#[derive(structio::Reflect, serde::Serialize)]
struct Sum {
    result: i32,
}

/// `tools/call` params with typed arguments.
#[derive(structio::Reflect, Deserialize, Debug, PartialEq)]
struct CallParams<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    arguments: Add,
}

/// A whole typed `tools/call` request, for serde_json and sonic-rs.
#[derive(Deserialize, Debug, PartialEq)]
struct SerdeCall<'a> {
    #[allow(dead_code)]
    jsonrpc: &'a str,
    id: i64,
    #[serde(borrow)]
    method: Cow<'a, str>,
    #[serde(borrow)]
    params: CallParams<'a>,
}

fn server() -> Server {
    Server::new("bench", "1.0.0").tool("add", "Adds two integers", |a: Add| {
        Ok::<_, ToolError>(Sum {
            result: a.left.wrapping_add(a.right),
        })
    })
}

/// One side of a row: a closure run `iters` times per round.
struct Side<'a> {
    name: &'static str,
    run: Box<dyn FnMut() + 'a>,
    ns: Vec<f64>,
    allocs: f64,
}

impl<'a> Side<'a> {
    fn new(name: &'static str, run: impl FnMut() + 'a) -> Side<'a> {
        Side {
            name,
            run: Box::new(run),
            ns: Vec::new(),
            allocs: 0.0,
        }
    }
}

/// Runs the sides in turn, `rounds` times `iters` calls each, and prints a row per side: the
/// median ns per call, the ratio to the first side, allocations per call.
fn row(label: &str, mut sides: Vec<Side<'_>>, rounds: usize, iters: usize) {
    for s in &mut sides {
        // Warm up, and count allocations over one round.
        for _ in 0..iters / 10 + 1 {
            (s.run)();
        }
        let a = ALLOCS.load(Ordering::Relaxed);
        for _ in 0..iters {
            (s.run)();
        }
        s.allocs = (ALLOCS.load(Ordering::Relaxed) - a) as f64 / iters as f64;
    }
    for _ in 0..rounds {
        for s in &mut sides {
            let t = Instant::now();
            for _ in 0..iters {
                (s.run)();
            }
            s.ns.push(t.elapsed().as_nanos() as f64 / iters as f64);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() / 2]
    };
    let base = median(&mut sides[0].ns);
    for s in &mut sides {
        let m = median(&mut s.ns);
        println!(
            "{label:<28} {:<26} {m:>9.1} ns  {:>5.2}x  {:>5.2} allocs",
            s.name,
            m / base,
            s.allocs
        );
    }
}

/// (a) serde_json `Value` dispatcher: the message parsed into a tree, the method and params
/// taken out of it, the response built as a tree and written.
fn value_dispatch(line: &str, out: &mut Vec<u8>) {
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    let id = v["id"].clone();
    let method = v["method"].as_str().unwrap_or("").to_owned();
    let params = v.get("params").cloned();
    let result = match method.as_str() {
        "ping" => serde_json::json!({}),
        "initialize" => serde_json::json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {"listChanged": false}},
            "serverInfo": {"name": "bench", "version": "1.0.0"},
        }),
        "tools/list" => {
            serde_json::json!({"tools": [{"name": "add", "description": "Adds two integers", "inputSchema": {"type": "object"}}]})
        }
        "tools/call" => {
            let p = params.unwrap_or_default();
            let args: Add = serde_json::from_value(p["arguments"].clone()).unwrap();
            let r = serde_json::json!({"result": args.left.wrapping_add(args.right)});
            serde_json::json!({"content": [{"type": "text", "text": r.to_string()}], "structuredContent": r, "isError": false})
        }
        _ => serde_json::Value::Null,
    };
    out.clear();
    serde_json::to_writer(
        &mut *out,
        &serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result}),
    )
    .unwrap();
}

/// The envelope serde_json reads with borrowed fields and `params` left as a `RawValue`.
#[derive(Deserialize)]
struct RawEnvelope<'a> {
    #[allow(dead_code)]
    jsonrpc: &'a str,
    #[serde(borrow)]
    id: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow)]
    method: Cow<'a, str>,
    #[serde(borrow)]
    params: Option<&'a serde_json::value::RawValue>,
}

#[derive(Deserialize)]
struct RawCall<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow)]
    arguments: &'a serde_json::value::RawValue,
}

/// (a) serde_json with borrowed `RawValue`s: the envelope borrows, params are read when the
/// method is known, the response written with `to_writer` of typed structs.
fn raw_dispatch(line: &str, out: &mut Vec<u8>, catalog: &serde_json::value::RawValue) {
    #[derive(serde::Serialize)]
    struct Resp<'a, T> {
        jsonrpc: &'static str,
        id: &'a serde_json::value::RawValue,
        result: T,
    }
    #[derive(serde::Serialize)]
    struct Text<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        text: &'a str,
    }
    #[derive(serde::Serialize)]
    struct CallResult<'a> {
        content: [Text<'a>; 1],
        #[serde(rename = "structuredContent")]
        structured: &'a serde_json::value::RawValue,
        #[serde(rename = "isError")]
        is_error: bool,
    }
    let env: RawEnvelope = serde_json::from_str(line).unwrap();
    let id = env.id.unwrap();
    out.clear();
    match env.method.as_ref() {
        "ping" => serde_json::to_writer(
            &mut *out,
            &Resp {
                jsonrpc: "2.0",
                id,
                result: serde_json::json!({}),
            },
        )
        .unwrap(),
        "initialize" => {
            #[derive(Deserialize)]
            struct Init<'a> {
                #[serde(rename = "protocolVersion")]
                #[allow(dead_code)]
                version: &'a str,
            }
            let _init: Init = serde_json::from_str(env.params.unwrap().get()).unwrap();
            let r = serde_json::value::RawValue::from_string(
                r#"{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":false}},"serverInfo":{"name":"bench","version":"1.0.0"}}"#.to_owned(),
            )
            .unwrap();
            serde_json::to_writer(
                &mut *out,
                &Resp {
                    jsonrpc: "2.0",
                    id,
                    result: r,
                },
            )
            .unwrap()
        }
        "tools/list" => serde_json::to_writer(
            &mut *out,
            &Resp {
                jsonrpc: "2.0",
                id,
                result: catalog,
            },
        )
        .unwrap(),
        "tools/call" => {
            let call: RawCall = serde_json::from_str(env.params.unwrap().get()).unwrap();
            assert_eq!(call.name, "add");
            let args: Add = serde_json::from_str(call.arguments.get()).unwrap();
            let text = serde_json::to_string(&Sum {
                result: args.left.wrapping_add(args.right),
            })
            .unwrap();
            let structured: &serde_json::value::RawValue = serde_json::from_str(&text).unwrap();
            let r = CallResult {
                content: [Text {
                    kind: "text",
                    text: &text,
                }],
                structured,
                is_error: false,
            };
            serde_json::to_writer(
                &mut *out,
                &Resp {
                    jsonrpc: "2.0",
                    id,
                    result: r,
                },
            )
            .unwrap()
        }
        _ => {}
    }
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let rounds = env("ROUNDS", 15);
    let iters = env("ITERS", 20_000);
    println!("rounds {rounds} x {iters} calls per side; median ns per message, ratio to the first side, allocations per message\n");

    // (a) envelope + dispatch: each side reads the envelope, routes on the method, reads what
    // the method needs and writes the response bytes.
    println!("(a) envelope + dispatch (request bytes to response bytes)");
    let catalog_text = {
        let mut s = server();
        let mut out = Vec::new();
        s.handle_line(TOOLS_LIST.as_bytes(), &mut out);
        let r: structio_rpc::Response = structio::from_json(&out[..out.len() - 1]).unwrap();
        r.outcome.unwrap().get().to_owned()
    };
    let catalog = serde_json::value::RawValue::from_string(catalog_text).unwrap();
    for (label, line) in [
        ("ping", PING),
        ("initialize", INITIALIZE),
        ("tools/list", TOOLS_LIST),
        ("tools/call", TOOLS_CALL),
    ] {
        let mut s = server();
        let mut out1 = Vec::with_capacity(1024);
        let mut out2 = Vec::with_capacity(1024);
        let mut out3 = Vec::with_capacity(1024);
        // The three sides answer with the same JSON value.
        s.handle_line(line.as_bytes(), &mut out1);
        value_dispatch(line, &mut out2);
        raw_dispatch(line, &mut out3, &catalog);
        let a: structio::Value = structio::from_json(&out1).unwrap();
        let b: structio::Value = structio::from_json(&out2).unwrap();
        let c: structio::Value = structio::from_json(&out3).unwrap();
        if label != "initialize" && label != "tools/list" {
            assert_eq!(a, b, "{label}");
        }
        assert_eq!(a, c, "{label}");
        row(
            label,
            vec![
                Side::new("structio-rpc", || {
                    out1.clear();
                    s.handle_line(black_box(line.as_bytes()), &mut out1);
                }),
                Side::new("serde_json Value", || {
                    value_dispatch(black_box(line), &mut out2)
                }),
                Side::new("serde_json RawValue", || {
                    raw_dispatch(black_box(line), &mut out3, &catalog)
                }),
            ],
            rounds,
            iters,
        );
    }

    // (b) a typed tools/call parse: the whole message into typed values.
    println!("\n(b) typed tools/call parse");
    for (label, line) in [
        ("canonical", TOOLS_CALL),
        ("spaced/reordered", TOOLS_CALL_SPACED),
    ] {
        let ours: Request<CallParams> = structio::from_json(line).unwrap();
        let serde: SerdeCall = serde_json::from_str(line).unwrap();
        let sonic: SerdeCall = sonic_rs::from_str(line).unwrap();
        assert_eq!(ours.params.as_ref(), Some(&serde.params));
        assert_eq!(ours.id, Some(Id::Int(serde.id)));
        assert_eq!(ours.method, serde.method);
        assert_eq!(sonic, serde);
        row(
            &format!("tools/call {label}"),
            vec![
                Side::new("structio Request<P>", || {
                    let r: Request<CallParams> = structio::from_json(black_box(line)).unwrap();
                    black_box(r);
                }),
                Side::new("serde_json derive", || {
                    let r: SerdeCall = serde_json::from_str(black_box(line)).unwrap();
                    black_box(r);
                }),
                Side::new("sonic-rs derive", || {
                    let r: SerdeCall = sonic_rs::from_str(black_box(line)).unwrap();
                    black_box(r);
                }),
            ],
            rounds,
            iters,
        );
    }
    // Deferred: the envelope with RawJson params, then the params read once the method is known.
    let deferred = || {
        let r: Request = structio::from_json(black_box(TOOLS_CALL)).unwrap();
        let p: CallParams = r.params.unwrap_or_default().parse().unwrap();
        black_box(p);
    };
    row(
        "tools/call deferred params",
        vec![Side::new("structio Request + parse", deferred)],
        rounds,
        iters,
    );
}
