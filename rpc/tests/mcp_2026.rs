//! The MCP server in revision 2026-07-28 (the modern era: no handshake, the protocol version
//! and client capabilities in every request's `params._meta`), and the era lock between it and
//! the handshake revisions. The expected codes are those of the official Python SDK 2.3.0's
//! dual-era server (`mcp.server.runner.serve_dual_era_loop`, `mcp.shared.inbound`).

use structio::Value;
use structio_rpc::mcp::{
    CacheScope, Era, Server, MODERN_PROTOCOL_VERSIONS, UNSUPPORTED_PROTOCOL_VERSION,
};
use structio_rpc::{code, Response};

mod common;

use common::add_server as server;

/// The envelope the Python SDK writes (version, client info, capabilities), at `version`.
fn meta(version: &str) -> String {
    format!(
        r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"{version}","io.modelcontextprotocol/clientInfo":{{"name":"c","version":"1"}},"io.modelcontextprotocol/clientCapabilities":{{}}}}"#
    )
}

/// A modern request of `method` with `params` members (before `_meta`), at 2026-07-28.
fn modern(id: u32, method: &str, params: &str) -> String {
    let sep = if params.is_empty() { "" } else { "," };
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{sep}{}}}}}"#,
        meta("2026-07-28")
    )
}

/// The response to one line, with `handle_line_deferred` on a twin server checked to give the
/// same bytes (and leave the same era).
fn one(server: &mut Server, twin: &mut Server, line: &str) -> Response<'static, Value, Value> {
    let (mut out, mut general) = (Vec::new(), Vec::new());
    assert!(
        server.handle_line(line.as_bytes(), &mut out),
        "no answer to {line}"
    );
    twin.handle_line_deferred(line.as_bytes(), &mut general);
    assert_eq!(
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&general),
        "routed and deferred differ on {line}"
    );
    assert_eq!(server.era(), twin.era(), "{line}");
    common::answer(&out)
}

/// A pair of servers, one answering the routed way and one the general way.
struct Pair(Server, Server);

impl Pair {
    fn new() -> Pair {
        Pair(server(), server())
    }
    fn with(make: impl Fn() -> Server) -> Pair {
        Pair(make(), make())
    }
    fn result(&mut self, line: &str) -> Value {
        one(&mut self.0, &mut self.1, line)
            .outcome
            .unwrap_or_else(|e| panic!("{line}: {} {}", e.code, e.message))
    }
    fn error(&mut self, line: &str) -> structio_rpc::ErrorObject<'static, Value> {
        match one(&mut self.0, &mut self.1, line).outcome {
            Ok(r) => panic!("{line}: a result {}", structio::to_json(&r)),
            Err(e) => e,
        }
    }
    fn era(&self) -> Option<Era> {
        self.0.era()
    }
}

/// What every modern result carries: `resultType` and the server's name and version.
fn assert_modern_result(r: &Value) {
    assert_eq!(r["resultType"].as_str(), Some("complete"), "{r:?}");
    let info = &r["_meta"]["io.modelcontextprotocol/serverInfo"];
    assert_eq!(info["name"].as_str(), Some("test"), "{r:?}");
    assert_eq!(info["version"].as_str(), Some("0.1.0"), "{r:?}");
}

#[test]
fn server_discover() {
    let mut p = Pair::new();
    let r = p.result(&modern(1, "server/discover", ""));
    assert_eq!(p.era(), Some(Era::Modern));
    assert_eq!(p.0.protocol_version(), None);
    assert_modern_result(&r);
    assert_eq!(
        r["supportedVersions"],
        Value::from(MODERN_PROTOCOL_VERSIONS.to_vec())
    );
    assert_eq!(
        r["capabilities"]["tools"]["listChanged"].as_bool(),
        Some(false)
    );
    assert_eq!(r["ttlMs"].as_u64(), Some(0));
    assert_eq!(r["cacheScope"].as_str(), Some("private"));
    assert!(r.get("instructions").is_none());

    let mut p = Pair::with(|| server().instructions("Use add to add."));
    let r = p.result(&modern(1, "server/discover", ""));
    assert_eq!(r["instructions"].as_str(), Some("Use add to add."));
}

#[test]
fn tools_list_and_cache_hints() {
    let mut p = Pair::new();
    let r = p.result(&modern(2, "tools/list", ""));
    assert_modern_result(&r);
    assert_eq!(r["ttlMs"].as_u64(), Some(0));
    assert_eq!(r["cacheScope"].as_str(), Some("private"));
    // The same tools as the handshake era lists.
    let mut h = Pair::new();
    let handshake = h.result(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#);
    assert_eq!(h.era(), Some(Era::Handshake));
    assert_eq!(r["tools"], handshake["tools"]);
    assert!(handshake.get("resultType").is_none() && handshake.get("ttlMs").is_none());

    let mut p = Pair::with(|| server().cache_hints(3_600_000, CacheScope::Public));
    for method in ["tools/list", "server/discover"] {
        let r = p.result(&modern(2, method, ""));
        assert_eq!(r["ttlMs"].as_u64(), Some(3_600_000), "{method}");
        assert_eq!(r["cacheScope"].as_str(), Some("public"), "{method}");
        assert_modern_result(&r);
    }
}

#[test]
fn tools_call() {
    let mut p = Pair::new();
    let r = p.result(&modern(
        3,
        "tools/call",
        r#""name":"add","arguments":{"left":2,"right":40}"#,
    ));
    assert_modern_result(&r);
    assert_eq!(r["isError"].as_bool(), Some(false));
    assert_eq!(r["structuredContent"]["result"].as_i64(), Some(42));
    assert_eq!(r["content"][0]["text"].as_str(), Some(r#"{"result":42}"#));

    // Arguments that do not fit: a tool execution error, a modern result too.
    let r = p.result(&modern(
        4,
        "tools/call",
        r#""name":"add","arguments":{"left":"two"}"#,
    ));
    assert_modern_result(&r);
    assert_eq!(r["isError"].as_bool(), Some(true));
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("$.left") && text.contains("$.right"),
        "{text}"
    );

    // The tool's own error.
    let r = p.result(&modern(
        5,
        "tools/call",
        r#""name":"add","arguments":{"left":2147483647,"right":1}"#,
    ));
    assert_modern_result(&r);
    assert_eq!(r["content"][0]["text"].as_str(), Some("overflow"));

    // `_meta` first, spaces, `inputResponses` without a state ignored (nothing asked).
    let line = format!(
        r#"{{ "jsonrpc": "2.0", "id": "s", "method": "tools/call", "params": {{ {}, "inputResponses": {{}}, "arguments": {{ "right": 1, "left": 2 }}, "name": "add" }} }}"#,
        meta("2026-07-28")
    );
    assert_eq!(
        p.result(&line)["structuredContent"]["result"].as_i64(),
        Some(3)
    );
    // A `requestState` this server did not mint is refused, whatever the tool (see
    // mcp_mrtr.rs for the states it mints).
    let line = format!(
        r#"{{ "jsonrpc": "2.0", "id": "s", "method": "tools/call", "params": {{ {}, "requestState": "x", "inputResponses": {{}}, "arguments": {{ "right": 1, "left": 2 }}, "name": "add" }} }}"#,
        meta("2026-07-28")
    );
    let e = p.error(&line);
    assert_eq!(e.code, code::INVALID_PARAMS);
    assert_eq!(e.message, "Invalid or expired requestState");

    // Protocol errors: an unknown tool, no name, a tool that panics.
    let e = p.error(&modern(6, "tools/call", r#""name":"nope""#));
    assert_eq!(e.code, code::INVALID_PARAMS);
    assert!(e.message.contains("nope"), "{}", e.message);
    let e = p.error(&modern(7, "tools/call", r#""arguments":{}"#));
    assert_eq!(e.code, code::INVALID_PARAMS);
    let e = p.error(&modern(
        8,
        "tools/call",
        r#""name":"boom","arguments":{"left":1,"right":2}"#,
    ));
    assert_eq!(e.code, code::INTERNAL_ERROR);
    // Still serving.
    let r = p.result(&modern(
        9,
        "tools/call",
        r#""name":"add","arguments":{"left":1,"right":1}"#,
    ));
    assert_eq!(r["structuredContent"]["result"].as_i64(), Some(2));
}

#[test]
fn envelope_refusals() {
    let mut p = Pair::new();
    p.result(&modern(1, "server/discover", ""));
    let caps = r#""io.modelcontextprotocol/clientCapabilities":{}"#;
    let version = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28""#;
    let invalid = [
        // No `_meta`, no params, `_meta` not an object.
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":5}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}"#.to_owned(),
        // A required member missing (or null).
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{{caps}}}}}}}"#
        ),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{{version}}}}}}}"#
        ),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":null,{caps}}}}}}}"#
        ),
        // A version that is not a string, capabilities or client info that are not objects.
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":20260728,{caps}}}}}}}"#
        ),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{{version},"io.modelcontextprotocol/clientCapabilities":[]}}}}}}"#
        ),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{{version},{caps},"io.modelcontextprotocol/clientInfo":"c"}}}}}}"#
        ),
    ];
    for line in &invalid {
        let e = p.error(line);
        assert_eq!(e.code, code::INVALID_PARAMS, "{line}: {}", e.message);
    }
    let e = p.error(&format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{{caps}}}}}}}"#
    ));
    assert!(
        e.message
            .contains("io.modelcontextprotocol/protocolVersion"),
        "the missing member is named: {}",
        e.message
    );

    // A version this server does not speak: -32022, naming what it speaks.
    for asked in ["2025-11-25", "2099-01-01", ""] {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"add",{}}}}}"#,
            meta(asked)
        );
        let e = p.error(&line);
        assert_eq!(e.code, UNSUPPORTED_PROTOCOL_VERSION, "{asked}");
        let data = e.data.expect("data");
        assert_eq!(data["supported"], Value::from(vec!["2026-07-28"]));
        assert_eq!(data["requested"].as_str(), Some(asked));
    }

    // Methods revision 2026-07-28 does not have: `ping` (removed), unknown ones.
    for method in ["ping", "logging/setLevel", "nonesuch"] {
        let e = p.error(&modern(1, method, ""));
        assert_eq!(e.code, code::METHOD_NOT_FOUND, "{method}");
    }
    // The connection stays modern and serving.
    assert_eq!(p.era(), Some(Era::Modern));
    assert_modern_result(&p.result(&modern(2, "tools/list", "")));
}

#[test]
fn era_is_decided_by_the_first_request() {
    let initialize = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;

    // Modern first: `initialize` is refused with -32022 and the versions served.
    let mut p = Pair::new();
    assert_eq!(p.era(), None);
    p.result(&modern(1, "tools/list", ""));
    let e = p.error(initialize);
    assert_eq!(e.code, UNSUPPORTED_PROTOCOL_VERSION);
    let data = e.data.expect("data");
    assert_eq!(data["supported"], Value::from(vec!["2026-07-28"]));
    assert_eq!(data["requested"].as_str(), Some("2025-11-25"));
    // Without a version to name, only the versions served.
    let e = p.error(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#);
    assert_eq!(e.code, UNSUPPORTED_PROTOCOL_VERSION);
    assert!(e.data.expect("data").get("requested").is_none());
    assert_eq!(p.0.protocol_version(), None);

    // A first request naming a version the server does not speak still opens a modern
    // connection (the SDK's behaviour): the client retries with a version it is told.
    let mut p = Pair::new();
    let e = p.error(&format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{}}}}}"#,
        meta("2099-01-01")
    ));
    assert_eq!(e.code, UNSUPPORTED_PROTOCOL_VERSION);
    assert_eq!(p.era(), Some(Era::Modern));
    p.result(&modern(2, "server/discover", ""));

    // Handshake first: requests carrying the modern envelope are refused with -32600.
    for first in [
        initialize,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"left":1,"right":2}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"server/discover"}"#,
    ] {
        let mut p = Pair::new();
        one(&mut p.0, &mut p.1, first);
        assert_eq!(p.era(), Some(Era::Handshake), "{first}");
        for method in ["server/discover", "tools/list", "ping"] {
            let e = p.error(&modern(2, method, ""));
            assert_eq!(e.code, code::INVALID_REQUEST, "{first} then {method}");
        }
        // `server/discover` is not a method of the handshake revisions.
        let e = p.error(r#"{"jsonrpc":"2.0","id":3,"method":"server/discover"}"#);
        assert_eq!(e.code, code::METHOD_NOT_FOUND);
        // The handshake era goes on: `_meta` without the version (a progress token) is fine,
        // and so is `initialize` carrying the envelope.
        let r = p.result(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"left":1,"right":2},"_meta":{"progressToken":7}}}"#);
        assert_eq!(r["structuredContent"]["result"].as_i64(), Some(3));
        assert!(r.get("resultType").is_none());
        let r = p.result(&format!(
            r#"{{"jsonrpc":"2.0","id":5,"method":"initialize","params":{{"protocolVersion":"2025-06-18",{}}}}}"#,
            meta("2026-07-28")
        ));
        assert_eq!(r["protocolVersion"].as_str(), Some("2025-06-18"));
    }

    // `initialize` carrying the modern envelope opens a handshake connection.
    let mut p = Pair::new();
    p.result(&format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-11-25",{}}}}}"#,
        meta("2026-07-28")
    ));
    assert_eq!(p.era(), Some(Era::Handshake));

    // Notifications and lines that are not requests decide nothing.
    let mut p = Pair::new();
    for line in [
        format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":1,{}}}}}"#,
            meta("2026-07-28")
        ),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
    ] {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        assert!(!p.0.handle_line(line.as_bytes(), &mut a));
        assert!(!p.1.handle_line_deferred(line.as_bytes(), &mut b));
    }
    let e = p.error("not json");
    assert_eq!(e.code, code::PARSE_ERROR);
    let e = p.error(r#"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#);
    assert_eq!(e.code, code::INVALID_REQUEST);
    assert_eq!(p.era(), None);
    p.result(initialize);
    assert_eq!(p.era(), Some(Era::Handshake));
    assert_eq!(p.0.protocol_version(), Some("2025-11-25"));
}

#[test]
fn batches_in_the_modern_era() {
    let mut p = Pair::new();
    let line = format!(
        "[{},{},{}]",
        modern(1, "server/discover", ""),
        modern(
            2,
            "tools/call",
            r#""name":"add","arguments":{"left":1,"right":2}"#
        ),
        modern(3, "ping", "")
    );
    let (mut a, mut b) = (Vec::new(), Vec::new());
    assert!(p.0.handle_line(line.as_bytes(), &mut a));
    assert!(p.1.handle_line_deferred(line.as_bytes(), &mut b));
    assert_eq!(String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
    let answers: Vec<Response<Value, Value>> = structio::from_json(&a[..a.len() - 1]).unwrap();
    assert_eq!(answers.len(), 3);
    assert_modern_result(answers[0].outcome.as_ref().unwrap());
    assert_eq!(
        answers[1].outcome.as_ref().unwrap()["structuredContent"]["result"].as_i64(),
        Some(3)
    );
    assert_eq!(
        answers[2].outcome.as_ref().unwrap_err().code,
        code::METHOD_NOT_FOUND
    );
    assert_eq!(p.era(), Some(Era::Modern));
}

/// Lines whose routing pass and general reading might disagree (duplicate members, escapes,
/// `null`s, odd shapes), in each state of the connection: byte-identical answers.
#[test]
fn routed_and_deferred_agree_in_every_era() {
    let m = meta("2026-07-28");
    let lines = [
        modern(1, "tools/call", r#""name":"add","arguments":{"left":2,"right":40}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{m},"_meta":{{}}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{}},{m}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{m},"_meta":null}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{m},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{m},"_meta":{{"io.modelcontextprotocol/protocolVersion":null}}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{m},"_meta":{{"io.modelcontextprotocol/protocolVersion":7}}}}}}"#),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-\u0032\u0038","io.modelcontextprotocol/clientCapabilities":{}}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol\/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":null}}}"#.to_owned(),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"add",{m},"name":5}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"add"}},"params":{{{m}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25",{m}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{{m}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{{m}}}}}"#),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"left":1,"right":2},"_meta":{"progressToken":"t"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_owned(),
    ];
    let openers = [
        None,
        Some(modern(0, "server/discover", "")),
        Some(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#.to_owned()),
    ];
    for opener in &openers {
        for line in &lines {
            let mut p = Pair::new();
            if let Some(o) = opener {
                one(&mut p.0, &mut p.1, o);
            }
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let wrote = p.0.handle_line(line.as_bytes(), &mut a);
            assert_eq!(wrote, p.1.handle_line_deferred(line.as_bytes(), &mut b));
            assert_eq!(
                String::from_utf8_lossy(&a),
                String::from_utf8_lossy(&b),
                "after {opener:?}: {line}"
            );
            assert_eq!(p.0.era(), p.1.era(), "after {opener:?}: {line}");
        }
    }
}
