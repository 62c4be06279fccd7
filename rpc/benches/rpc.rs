//! structio-rpc against serde_json (a `Value` dispatcher and a borrowed `RawValue` envelope),
//! sonic-rs, blazingly-json 0.1.9 and mcport 0.6.1: (a) envelope and dispatch (the message read,
//! routed on its method, and what the method needs read: the protocol version, the tool name
//! and its typed arguments), (b) a typed `tools/call` parse in the canonical and a
//! spaced/reordered layout, (c) request bytes to response bytes: one message through
//! `Server::handle_line`, and a stream of messages through each MCP runtime's stream API in
//! the process.
//!
//! Paired: the sides take turns, round by round, in one process; each row is the median of the
//! rounds' ns per message. A counting global allocator reports allocations per message.
//!
//! Run: `cargo bench -p structio-rpc --bench rpc` (`ROUNDS=`, `ITERS=` to change the effort;
//! `ROW=` a row's label and `SIDE=` a side's name, to run only those; `TSV=1` prints each row
//! as `label<TAB>side<TAB>ns<TAB>ratio<TAB>allocations`, as `benches/retake.sh` reads it).
//!
//! Instructions per message, repeatable on a busy host: one side under callgrind, e.g.
//! `ROW='tools/call canonical' SIDE='blazingly-json canonical' ROUNDS=1 ITERS=10000 valgrind
//! --tool=callgrind --toggle-collect='*measured*' target/release/deps/rpc-*` (the count over
//! `ITERS`; the bench binary's name is printed by `cargo bench --no-run`).

use std::borrow::Cow;
use std::hint::black_box;
use std::time::Instant;

use serde::Deserialize;
use structio::RawJson;
use structio_rpc::mcp::{Server, ToolError};
use structio_rpc::{Id, Request};

#[path = "../../benches/common/counting.rs"]
mod counting;

const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{}},"clientInfo":{"name":"bench-client","version":"1.0.0"}}}"#;
const TOOLS_LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
const TOOLS_CALL: &str = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"left":2,"right":40}}}"#;
/// A `tools/call` of revision 2026-07-28, as the official Python SDK 2.3.0 writes it: the
/// protocol version, client info and capabilities in `params._meta`, after the call.
const TOOLS_CALL_2026: &str = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"left":2,"right":40},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench-client","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#;
/// `tools/list` of revision 2026-07-28.
const TOOLS_LIST_2026: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench-client","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#;
/// `server/discover` of revision 2026-07-28.
const DISCOVER_2026: &str = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench-client","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#;
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

/// `iters` calls of `run`: the timed loop, in a function of its own so that callgrind can count
/// exactly it (`--toggle-collect='*measured*'`, with `ROW=` and `SIDE=` picking one side).
#[inline(never)]
fn measured(run: &mut dyn FnMut(), iters: usize) {
    for _ in 0..iters {
        run();
    }
}

/// Whether the row `label` and side `name` are selected by `ROW=` and `SIDE=`; everything
/// when unset.
fn selected(label: &str, name: &str) -> bool {
    std::env::var("ROW").map_or(true, |v| v == label)
        && std::env::var("SIDE").map_or(true, |v| v == name)
}

/// Runs the sides in turn, `rounds` times `iters` calls each, and prints a row per side: the
/// median ns per call, the ratio to the first side, allocations per call.
fn row(label: &str, mut sides: Vec<Side<'_>>, rounds: usize, iters: usize) {
    sides.retain(|s| selected(label, s.name));
    if sides.is_empty() {
        return;
    }
    for s in &mut sides {
        // Warm up, and count allocations over one round.
        for _ in 0..iters / 10 + 1 {
            (s.run)();
        }
        let a = counting::total();
        for _ in 0..iters {
            (s.run)();
        }
        s.allocs = (counting::total() - a) as f64 / iters as f64;
    }
    for _ in 0..rounds {
        for s in &mut sides {
            let t = Instant::now();
            measured(&mut s.run, iters);
            s.ns.push(t.elapsed().as_nanos() as f64 / iters as f64);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() / 2]
    };
    let base = median(&mut sides[0].ns);
    let tsv = std::env::var_os("TSV").is_some();
    for s in &mut sides {
        let m = median(&mut s.ns);
        if tsv {
            println!(
                "{label}\t{}\t{m:.1}\t{:.3}\t{:.2}",
                s.name,
                m / base,
                s.allocs
            );
            continue;
        }
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

/// The parameters `initialize` needs.
#[derive(structio::Reflect)]
struct InitParams<'a> {
    #[structio(rename = "protocolVersion")]
    protocol_version: &'a str,
}

/// `tools/call` params with deferred arguments (and the modern envelope, as
/// `Server::handle_line_deferred` reads them).
#[derive(structio::Reflect)]
struct DeferredCall<'a> {
    name: &'a str,
    arguments: Option<RawJson<'a>>,
    #[structio(rename = "_meta")]
    meta: Option<DeferredMeta<'a>>,
}

/// Reading what a method needs with structio's options: other members skipped.
fn skip_unknown() -> structio::json::Options {
    structio::json::Options {
        read: structio::ReadOptions {
            unknown_keys: structio::UnknownKeys::Skip,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// What the routed methods read of `params`, in the envelope's pass (other members skipped):
/// the typed routing envelope, as `Server::handle_line` reads a message (the modern
/// envelope in `_meta` included).
#[derive(structio::Reflect)]
struct Route<'a> {
    #[structio(rename = "protocolVersion")]
    protocol_version: Option<&'a str>,
    name: Option<&'a str>,
    arguments: Option<RawJson<'a>>,
    #[structio(rename = "_meta")]
    meta: Option<RouteMeta>,
}

/// The modern envelope (revision 2026-07-28), as `Server::handle_line` reads it: whether the
/// version is one the server speaks, whether the capabilities and client info are objects.
#[derive(structio::Reflect)]
struct RouteMeta {
    #[structio(rename = "io.modelcontextprotocol/protocolVersion")]
    protocol_version: Option<Spoken>,
    #[structio(rename = "io.modelcontextprotocol/clientInfo")]
    client_info: Option<Kind>,
    #[structio(rename = "io.modelcontextprotocol/clientCapabilities")]
    client_capabilities: Option<Kind>,
}

/// Whether a version string is 2026-07-28 (as the server keeps it in the routing pass).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Spoken(bool);

impl<'de> structio::Reflect<'de> for Spoken {
    fn write<W: structio::Writer>(&self, w: &mut W) {
        w.null()
    }
    fn read<R: structio::Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
        *self = Self::read_new(r)?;
        Ok(())
    }
    #[inline]
    fn read_new<R: structio::Reader<'de>>(r: &mut R) -> structio::Result<Self> {
        let v = Cow::<'de, str>::read_new(r)?;
        Ok(Spoken(v == "2026-07-28"))
    }
}

/// Whether a value is an object (as the server keeps it in the routing pass).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Kind(bool);

impl<'de> structio::Reflect<'de> for Kind {
    fn write<W: structio::Writer>(&self, w: &mut W) {
        w.null()
    }
    fn read<R: structio::Reader<'de>>(&mut self, r: &mut R) -> structio::Result<()> {
        *self = Self::read_new(r)?;
        Ok(())
    }
    #[inline]
    fn read_new<R: structio::Reader<'de>>(r: &mut R) -> structio::Result<Self> {
        let v = RawJson::read_new(r)?;
        Ok(Kind(v.get().starts_with('{')))
    }
}

/// The modern envelope as the general way reads it (members kept as text).
#[derive(structio::Reflect)]
struct DeferredMeta<'a> {
    #[structio(rename = "io.modelcontextprotocol/protocolVersion")]
    protocol_version: Option<RawJson<'a>>,
    #[structio(rename = "io.modelcontextprotocol/clientInfo")]
    client_info: Option<RawJson<'a>>,
    #[structio(rename = "io.modelcontextprotocol/clientCapabilities")]
    client_capabilities: Option<RawJson<'a>>,
}

/// (a) structio-rpc: the typed routing envelope (id and method borrowed, the members of
/// `params` the methods route on read in the same pass, the tool's arguments kept as text),
/// then the arguments read into their type.
fn ours_route(line: &[u8], opts: &structio::json::Options) {
    let r: Request<Route> = structio::json::from_json_with(line, opts).unwrap();
    black_box(&r.id);
    match r.method.as_ref() {
        "initialize" => {
            black_box(r.params.and_then(|p| p.protocol_version));
        }
        "tools/call" => {
            let p = r.params.unwrap();
            let a: Add = p.arguments.unwrap().parse().unwrap();
            black_box(p.meta.and_then(|m| m.protocol_version));
            black_box((p.name, a));
        }
        m => {
            black_box(m);
        }
    }
}

/// (a) structio-rpc, the deferred envelope (id and method borrowed, params kept as text), then
/// what the method needs read from the text: the general way, which the typed routing
/// envelope falls back to.
fn ours_dispatch(line: &[u8], opts: &structio::json::Options) {
    let r: Request = structio::from_json(line).unwrap();
    black_box(&r.id);
    match r.method.as_ref() {
        "initialize" => {
            let p: InitParams =
                structio::json::from_json_with(r.params.unwrap().get(), opts).unwrap();
            black_box(p.protocol_version);
        }
        "tools/call" => {
            let p: DeferredCall = r.params.unwrap().parse().unwrap();
            let a: Add = p.arguments.unwrap().parse().unwrap();
            black_box(p.meta.and_then(|m| m.protocol_version));
            black_box((p.name, a));
        }
        m => {
            black_box(m);
        }
    }
}

/// (a) serde_json `Value`: the message as a tree, method and params taken out of it.
fn value_route(line: &[u8]) {
    let v: serde_json::Value = serde_json::from_slice(line).unwrap();
    black_box(v.get("id").cloned());
    match v.get("method").and_then(serde_json::Value::as_str) {
        Some("initialize") => {
            black_box(
                v.pointer("/params/protocolVersion")
                    .and_then(serde_json::Value::as_str),
            );
        }
        Some("tools/call") => {
            black_box(
                v.pointer("/params/name")
                    .and_then(serde_json::Value::as_str),
            );
            let args = v.pointer("/params/arguments").cloned().unwrap_or_default();
            let a: Add = serde_json::from_value(args).unwrap();
            black_box(a);
        }
        m => {
            black_box(m);
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawParams<'a> {
    #[serde(default)]
    protocol_version: Option<&'a str>,
    #[serde(default)]
    name: Option<&'a str>,
    #[serde(default, borrow)]
    arguments: Option<&'a serde_json::value::RawValue>,
}

/// (a) serde_json with borrowed `RawValue`s.
fn raw_route(line: &[u8]) {
    let env: RawEnvelope = serde_json::from_slice(line).unwrap();
    black_box(env.id.map(|i| i.get()));
    match env.method.as_ref() {
        "initialize" => {
            let p: RawParams = serde_json::from_str(env.params.unwrap().get()).unwrap();
            black_box(p.protocol_version);
        }
        "tools/call" => {
            let p: RawParams = serde_json::from_str(env.params.unwrap().get()).unwrap();
            let a: Add = serde_json::from_str(p.arguments.unwrap().get()).unwrap();
            black_box((p.name, a));
        }
        m => {
            black_box(m);
        }
    }
}

#[derive(Deserialize)]
struct BjRequest<'a> {
    #[serde(default, borrow)]
    id: Option<blazingly_json::RawJson<'a>>,
    method: &'a str,
    #[serde(default, borrow)]
    params: Option<BjParams<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BjParams<'a> {
    #[serde(default)]
    protocol_version: Option<&'a str>,
    #[serde(default)]
    name: Option<&'a str>,
    #[serde(default, borrow)]
    arguments: Option<blazingly_json::RawJson<'a>>,
}

/// (a) blazingly-json's envelope (its `mcp_fast_path` bench's `FastRequest`): id and params'
/// arguments kept raw, routing fields borrowed.
fn bj_route(line: &[u8]) {
    let r: BjRequest = blazingly_json::from_slice(line).unwrap();
    black_box(r.id.map(|i| i.get()));
    match r.method {
        "initialize" => {
            black_box(r.params.and_then(|p| p.protocol_version));
        }
        "tools/call" => {
            let p = r.params.unwrap();
            let a: Add = p.arguments.unwrap().deserialize().unwrap();
            black_box((p.name, a));
        }
        m => {
            black_box(m);
        }
    }
}

/// The typed `tools/call` fields the canonical recognisers return.
type CallFields<'a> = (i64, &'a str, i32, i32);

/// (b) blazingly-json's canonical scanner, written for this message as its bench writes one
/// for its own: exact literals around each field, falling back to its `JsonCursor` when the
/// layout differs.
fn bj_canonical(line: &[u8]) -> CallFields<'_> {
    use blazingly_json::CanonicalBytesScanner;
    #[inline]
    fn recognise(mut s: CanonicalBytesScanner<'_>) -> Option<CallFields<'_>> {
        s.literal(r#"{"jsonrpc":"2.0","id":"#)?;
        let id = s.signed()?;
        s.literal(r#","method":"tools/call","params":{"name":"#)?;
        let (name, left, right) = bj_params(&mut s)?;
        s.is_finished().then_some((id, name, left, right))
    }
    if let Some(f) = recognise(CanonicalBytesScanner::new(line)) {
        return f;
    }
    bj_cursor(line)
}

/// The rest of a canonical `tools/call` after `"params":{"name":` for blazingly-json's
/// scanner: the name, the two arguments and the three closing braces.
#[inline(always)]
fn bj_params<'a>(s: &mut blazingly_json::CanonicalBytesScanner<'a>) -> Option<(&'a str, i32, i32)> {
    let name = s.plain_string()?;
    s.literal(r#","arguments":{"left":"#)?;
    let left = i32::try_from(s.signed()?).ok()?;
    s.literal(r#","right":"#)?;
    let right = i32::try_from(s.signed()?).ok()?;
    s.literal("}}}")?;
    Some((name, left, right))
}

/// (b) blazingly-json's canonical scanner as [`bj_canonical`] runs it, building the value the
/// structio side returns (`Request<FastCall>`: the id as an `Id`, the method and the name as
/// `Cow`s) instead of four scalars, so that both sides hand the harness the same value to move
/// and drop. The method is read as a string here, not compared as part of a literal. Layouts
/// it does not recognise go to [`bj_cursor`], as in [`bj_canonical`] (which does not read the
/// method: the value then names `tools/call`).
fn bj_canonical_request(line: &[u8]) -> Request<'_, FastCall<'_>> {
    use blazingly_json::CanonicalBytesScanner;
    #[inline]
    fn recognise(mut s: CanonicalBytesScanner<'_>) -> Option<Request<'_, FastCall<'_>>> {
        s.literal(r#"{"jsonrpc":"2.0","id":"#)?;
        let id = s.signed()?;
        s.literal(r#","method":"#)?;
        let method = s.plain_string()?;
        s.literal(r#","params":{"name":"#)?;
        let (name, left, right) = bj_params(&mut s)?;
        let params = FastCall {
            name: Cow::Borrowed(name),
            arguments: FastAdd { left, right },
        };
        s.is_finished()
            .then_some(Request::new(Id::Int(id), method, Some(params)))
    }
    if let Some(r) = recognise(CanonicalBytesScanner::new(line)) {
        return r;
    }
    let (id, name, left, right) = bj_cursor(line);
    let params = FastCall {
        name: Cow::Borrowed(name),
        arguments: FastAdd { left, right },
    };
    Request::new(Id::Int(id), "tools/call", Some(params))
}

/// blazingly-json's `JsonCursor`, every field by name.
fn bj_cursor(line: &[u8]) -> CallFields<'_> {
    let (mut id, mut name, mut left, mut right) = (None, None, None, None);
    let mut cursor = blazingly_json::JsonCursor::from_slice(line);
    cursor
        .object(|req| {
            while let Some(f) = req.next_field()? {
                match f.name() {
                    "id" => id = Some(f.signed()?),
                    "params" => f.object(|params| {
                        while let Some(f) = params.next_field()? {
                            match f.name() {
                                "name" => name = Some(f.string()?),
                                "arguments" => f.object(|args| {
                                    while let Some(f) = args.next_field()? {
                                        match f.name() {
                                            "left" => left = Some(f.deserialize::<i32>()?),
                                            "right" => right = Some(f.deserialize::<i32>()?),
                                            _ => f.skip()?,
                                        }
                                    }
                                    Ok(())
                                })?,
                                _ => f.skip()?,
                            }
                        }
                        Ok(())
                    })?,
                    _ => f.skip()?,
                }
            }
            Ok(())
        })
        .unwrap();
    cursor.end().unwrap();
    let name = match name.unwrap() {
        Cow::Borrowed(s) => s,
        Cow::Owned(_) => "",
    };
    (id.unwrap(), name, left.unwrap(), right.unwrap())
}

/// `tools/call` params whose types take the canonical fast path.
#[derive(structio::Reflect, Debug, PartialEq)]
#[structio(canonical)]
struct FastCall<'a> {
    name: Cow<'a, str>,
    arguments: FastAdd,
}

/// `Add` taking the canonical fast path.
#[derive(structio::Reflect, Debug, PartialEq, Clone, Copy)]
#[structio(canonical)]
struct FastAdd {
    left: i32,
    right: i32,
}

/// (b) The `tools/call` message as one derived struct of its own shape, borrowing its text:
/// what a program writes for one message, as blazingly-json's scanner is written for one
/// (the method is read, not compared with `tools/call`; `jsonrpc` is read, not checked).
#[derive(structio::Reflect, Debug, PartialEq)]
#[structio(canonical)]
struct MessageCall<'a> {
    jsonrpc: &'a str,
    id: i64,
    method: &'a str,
    params: MessageParams<'a>,
}

/// (b) [`MessageCall`] with its tags typed, checked as blazingly-json's scanner checks its
/// literals: `jsonrpc` and `method` are unit enums whose one variant is named `2.0` and
/// `tools/call`, which a canonical read compares with the input as whole JSON strings.
#[derive(structio::Reflect, Debug, PartialEq)]
#[structio(canonical)]
struct TaggedCall<'a> {
    jsonrpc: Version,
    id: i64,
    method: CallMethod,
    params: MessageParams<'a>,
}

/// The `jsonrpc` of [`TaggedCall`].
#[derive(structio::Reflect, Debug, PartialEq, Clone, Copy)]
enum Version {
    #[structio(rename = "2.0")]
    V2,
}

/// The `method` of [`TaggedCall`].
#[derive(structio::Reflect, Debug, PartialEq, Clone, Copy)]
enum CallMethod {
    #[structio(rename = "tools/call")]
    ToolsCall,
}

/// The `params` of [`MessageCall`] and [`TaggedCall`].
#[derive(structio::Reflect, Debug, PartialEq)]
#[structio(canonical)]
struct MessageParams<'a> {
    name: &'a str,
    arguments: FastAdd,
}

/// A stream of `n` copies of `line` after the lifecycle messages.
fn stream(line: &str, n: usize) -> Vec<u8> {
    let mut s = String::new();
    s.push_str(INITIALIZE);
    s.push('\n');
    s.push_str(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    s.push('\n');
    for _ in 0..n {
        s.push_str(line);
        s.push('\n');
    }
    s.into_bytes()
}

/// mcport's `add` tool, as its example `math.rs` defines it.
#[mcport::tool]
fn add(left: i32, right: i32) -> i64 {
    i64::from(left) + i64::from(right)
}

fn main() {
    let rounds = env("ROUNDS", 15);
    let iters = env("ITERS", 20_000);
    println!("rounds {rounds} x {iters} calls per side; median ns per message, ratio to the first side, allocations per message\n");

    // (a) envelope + dispatch.
    println!("(a) envelope + dispatch (read, route on the method, read what it needs)");
    let opts = skip_unknown();
    for (label, line) in [
        ("ping", PING),
        ("initialize", INITIALIZE),
        ("tools/list", TOOLS_LIST),
        ("tools/call", TOOLS_CALL),
    ] {
        let line = line.as_bytes();
        row(
            label,
            vec![
                Side::new("structio-rpc", || ours_route(black_box(line), &opts)),
                Side::new("structio-rpc deferred", || {
                    ours_dispatch(black_box(line), &opts)
                }),
                Side::new("serde_json Value", || value_route(black_box(line))),
                Side::new("serde_json RawValue", || raw_route(black_box(line))),
                Side::new("blazingly-json envelope", || bj_route(black_box(line))),
            ],
            rounds,
            iters,
        );
    }
    // The modern era (revision 2026-07-28): the `_meta` envelope read with the call.
    {
        let line = TOOLS_CALL_2026.as_bytes();
        row(
            "tools/call 2026-07-28",
            vec![
                Side::new("structio-rpc", || ours_route(black_box(line), &opts)),
                Side::new("structio-rpc deferred", || {
                    ours_dispatch(black_box(line), &opts)
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
        let fast: Request<FastCall> = structio::from_json(line).unwrap();
        let serde: SerdeCall = serde_json::from_str(line).unwrap();
        let sonic: SerdeCall = sonic_rs::from_str(line).unwrap();
        assert_eq!(ours.params.as_ref(), Some(&serde.params));
        assert_eq!(ours.id, Some(Id::Int(serde.id)));
        assert_eq!(ours.method, serde.method);
        assert_eq!(
            fast.params
                .as_ref()
                .map(|p| (p.arguments.left, p.arguments.right)),
            Some((2, 40))
        );
        assert_eq!(sonic, serde);
        assert_eq!(bj_canonical(line.as_bytes()), (3, "add", 2, 40));
        let msg: MessageCall = structio::from_json(line).unwrap();
        let p = &msg.params;
        assert_eq!(
            (msg.id, p.name, p.arguments.left, p.arguments.right),
            bj_canonical(line.as_bytes())
        );
        assert_eq!((msg.jsonrpc, msg.method), ("2.0", "tools/call"));
        let tagged: TaggedCall = structio::from_json(line).unwrap();
        assert_eq!(tagged.params, msg.params);
        assert_eq!(
            (tagged.jsonrpc, tagged.method, tagged.id),
            (Version::V2, CallMethod::ToolsCall, msg.id)
        );
        assert_eq!(bj_canonical_request(line.as_bytes()), fast);
        row(
            &format!("tools/call {label}"),
            vec![
                Side::new("structio, canonical types", || {
                    let r: Request<FastCall> = structio::from_json(black_box(line)).unwrap();
                    black_box(r);
                }),
                Side::new("structio, message struct", || {
                    let r: MessageCall = structio::from_json(black_box(line)).unwrap();
                    black_box(r);
                }),
                Side::new("structio, message struct, tags", || {
                    let r: TaggedCall = structio::from_json(black_box(line)).unwrap();
                    black_box(r);
                }),
                Side::new("structio, ordinary types", || {
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
                Side::new("blazingly-json canonical", || {
                    black_box(bj_canonical(black_box(line.as_bytes())));
                }),
                Side::new("blazingly-json canonical, same value", || {
                    black_box(bj_canonical_request(black_box(line.as_bytes())));
                }),
            ],
            rounds,
            iters,
        );
    }

    // (c) request bytes to response bytes.
    println!("\n(c) request bytes to response bytes");
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
            &format!("{label}, one message"),
            vec![
                Side::new("structio-rpc handle_line", || {
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
    // The modern era (revision 2026-07-28): no other side speaks it.
    for (label, line) in [
        ("server/discover 2026-07-28", DISCOVER_2026),
        ("tools/list 2026-07-28", TOOLS_LIST_2026),
        ("tools/call 2026-07-28", TOOLS_CALL_2026),
    ] {
        let mut s = server();
        let mut out = Vec::with_capacity(4096);
        s.handle_line(line.as_bytes(), &mut out);
        let r: structio_rpc::Response<structio::Value, structio::Value> =
            structio::from_json(&out[..out.len() - 1]).unwrap();
        assert_eq!(
            r.outcome.unwrap()["resultType"].as_str(),
            Some("complete"),
            "{label}"
        );
        row(
            &format!("{label}, one message"),
            vec![Side::new("structio-rpc handle_line", || {
                out.clear();
                s.handle_line(black_box(line.as_bytes()), &mut out);
            })],
            rounds,
            iters,
        );
    }
    // A stream of tools/call messages through each runtime's stream API (in the process).
    let n = 1000;
    let input = stream(TOOLS_CALL, n);
    let mut ours_out = Vec::with_capacity(input.len() * 3);
    let mut theirs_out = Vec::with_capacity(input.len() * 3);
    let mut s = server();
    s.serve(&input[..], &mut ours_out).unwrap();
    let mut m = mcport::McpServer::new("math", "1.0.0").tools(mcport::tools![add]);
    m.serve_streams(&input[..], &mut theirs_out).unwrap();
    let count = |o: &[u8]| o.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(count(&ours_out), n + 1);
    assert_eq!(
        count(&theirs_out),
        n + 1,
        "{}",
        String::from_utf8_lossy(&theirs_out[..300.min(theirs_out.len())])
    );
    let stream_iters = (iters / n).max(2);
    row(
        &format!("tools/call, stream of {n}"),
        vec![
            Side::new("structio-rpc serve", || {
                ours_out.clear();
                s.serve(black_box(&input[..]), &mut ours_out).unwrap();
            }),
            Side::new("mcport serve_streams", || {
                theirs_out.clear();
                m.serve_streams(black_box(&input[..]), &mut theirs_out)
                    .unwrap();
            }),
        ],
        rounds,
        stream_iters,
    );
    println!("(the stream rows are per stream of {n} messages plus initialize; divide by {n} for per message)");
}
