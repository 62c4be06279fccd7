//! The MCP server: lifecycle, tools, errors, and the stdio transport's bounds.

use std::io::Read;

use structio::Value;
use structio_rpc::mcp::{Server, LATEST_PROTOCOL_VERSION};
use structio_rpc::{code, Id, Response};

mod common;

use common::{boom, search};

fn server() -> Server {
    Server::new("test", "0.1.0")
        .tool("add", "Adds two integers", common::add)
        .tool("search", "Searches", search)
        .tool("boom", "Panics", boom)
}

/// The response to one line.
fn one(server: &mut Server, line: &str) -> Response<'static, Value, Value> {
    let mut out = Vec::new();
    assert!(
        server.handle_line(line.as_bytes(), &mut out),
        "no answer to {line}"
    );
    common::answer(&out)
}

fn call(server: &mut Server, tool: &str, args: &str) -> Value {
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{{"name":"{tool}","arguments":{args}}}}}"#
    );
    one(server, &line).outcome.expect("a result")
}

#[test]
fn initialize_negotiates_the_version() {
    let mut s = server();
    for (asked, agreed) in [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("2024-11-05", "2024-11-05"),
        ("2099-01-01", LATEST_PROTOCOL_VERSION),
    ] {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{asked}","capabilities":{{"roots":{{}}}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
        );
        let r = one(&mut s, &line).outcome.unwrap();
        assert_eq!(r["protocolVersion"].as_str(), Some(agreed));
        assert_eq!(r["serverInfo"]["name"].as_str(), Some("test"));
        assert_eq!(
            r["capabilities"]["tools"]["listChanged"].as_bool(),
            Some(false)
        );
        assert_eq!(s.protocol_version(), Some(agreed));
    }
    // Without the version: invalid params.
    let e = one(
        &mut s,
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
    )
    .outcome
    .unwrap_err();
    assert_eq!(e.code, code::INVALID_PARAMS);
}

#[test]
fn ping_list_and_notifications() {
    let mut s = server();
    let r = one(&mut s, r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    assert_eq!(r.id, Id::from("p"));
    assert_eq!(structio::to_json(&r.outcome.unwrap()), "{}");
    let tools = one(&mut s, r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
        .outcome
        .unwrap();
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["add", "search", "boom"]);
    assert_eq!(
        tools["tools"][0]["description"].as_str(),
        Some("Adds two integers")
    );
    assert_eq!(
        tools["tools"][0]["inputSchema"]["type"].as_str(),
        Some("object")
    );
    // The derive's schemas: the argument members, and the result (wrapped when not an object).
    let add = &tools["tools"][0];
    assert_eq!(
        add["inputSchema"]["properties"]["left"]["type"].as_str(),
        Some("integer")
    );
    assert_eq!(
        add["outputSchema"]["properties"]["result"]["type"].as_str(),
        Some("integer")
    );
    let search = &tools["tools"][1];
    assert_eq!(search["outputSchema"]["type"].as_str(), Some("object"));
    assert_eq!(
        search["outputSchema"]["properties"]["result"]["type"].as_str(),
        Some("array")
    );
    let mut out = Vec::new();
    assert!(!s.handle_line(
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        &mut out
    ));
    assert!(!s.handle_line(
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#,
        &mut out
    ));
    assert!(out.is_empty());
    let e = one(
        &mut s,
        r#"{"jsonrpc":"2.0","id":3,"method":"resources/list"}"#,
    )
    .outcome
    .unwrap_err();
    assert_eq!(e.code, code::METHOD_NOT_FOUND);
}

#[test]
fn tools_call_results() {
    let mut s = server();
    let r = call(&mut s, "add", r#"{"left":2,"right":40}"#);
    assert_eq!(r["isError"].as_bool(), Some(false));
    assert_eq!(r["structuredContent"]["result"].as_i64(), Some(42));
    assert_eq!(r["content"][0]["type"].as_str(), Some("text"));
    assert_eq!(r["content"][0]["text"].as_str(), Some(r#"{"result":42}"#));
    // Spaced and reordered arguments give the same value.
    let r = call(&mut s, "add", r#"{ "right" : 40 , "left" : 2 }"#);
    assert_eq!(r["structuredContent"]["result"].as_i64(), Some(42));
    // A result that is not an object is wrapped.
    let r = call(&mut s, "search", r#"{"query":"q","limit":2}"#);
    assert_eq!(
        structio::to_json(&r["structuredContent"]),
        r#"{"result":["q 0","q 1"]}"#
    );
    assert_eq!(
        r["content"][0]["text"].as_str(),
        Some(r#"{"result":["q 0","q 1"]}"#)
    );
}

#[test]
fn invalid_arguments_are_tool_execution_errors() {
    let mut s = server();
    for (args, path) in [
        (r#"{"left":"2","right":3}"#, "$.left"),
        (r#"{"left":2}"#, "$.right"),
        (r#"{"left":2,"right":3,"middle":1}"#, "$.middle"),
        (r#"{"left":2,"right":3000000000}"#, "$.right"),
        (r#"[1,2]"#, "$"),
    ] {
        let r = call(&mut s, "add", args);
        assert_eq!(r["isError"].as_bool(), Some(true), "{args}");
        let text = r["content"][0]["text"].as_str().unwrap();
        assert!(text.contains(path), "{args}: {text}");
        assert!(text.contains("`add`"), "{text}");
    }
    // Every offending member is named, not only the first.
    let r = call(&mut s, "add", r#"{"left":"x","right":true,"extra":1}"#);
    let text = r["content"][0]["text"].as_str().unwrap();
    for path in ["$.left", "$.right", "$.extra"] {
        assert!(text.contains(path), "{text}");
    }
    let r = call(&mut s, "search", r#"{"query":"q","limit":0}"#);
    assert_eq!(r["isError"].as_bool(), Some(true));
    assert!(r["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("$.limit"));
    // The tool's own error.
    let r = call(&mut s, "add", r#"{"left":2147483647,"right":1}"#);
    assert_eq!(r["isError"].as_bool(), Some(true));
    assert_eq!(r["content"][0]["text"].as_str(), Some("overflow"));
}

#[test]
fn protocol_errors_of_tools_call() {
    let mut s = server();
    let e = one(
        &mut s,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nonesuch","arguments":{}}}"#,
    )
    .outcome
    .unwrap_err();
    assert_eq!(e.code, code::INVALID_PARAMS);
    assert!(e.message.contains("Unknown tool"));
    let e = one(
        &mut s,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,
    )
    .outcome
    .unwrap_err();
    assert_eq!(e.code, code::INVALID_PARAMS);
    let e = one(&mut s, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#)
        .outcome
        .unwrap_err();
    assert_eq!(e.code, code::INVALID_PARAMS);
    // A panicking tool: an internal error, and the server goes on.
    let e = one(
        &mut s,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"boom","arguments":{"left":1,"right":2}}}"#,
    )
    .outcome
    .unwrap_err();
    assert_eq!(e.code, code::INTERNAL_ERROR);
    assert_eq!(
        call(&mut s, "add", r#"{"left":1,"right":2}"#)["isError"].as_bool(),
        Some(false)
    );
}

/// An error found after the id was read (issue 42) is answered with the id by both ways of
/// reading a message: `handle_line`'s one-pass routing falls back to the general way, which
/// recovers it.
#[test]
fn protocol_errors_after_the_id_carry_the_id() {
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    for (line, id, code) in [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":3}"#.to_owned(),
            Id::Int(1),
            code::INVALID_PARAMS,
        ),
        (
            r#"{"jsonrpc":"2.0","method":"tools/call","params":"add","id":"c"}"#.to_owned(),
            Id::from("c"),
            code::INVALID_PARAMS,
        ),
        (
            format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"add","arguments":{deep}}}}}"#
            ),
            Id::Int(2),
            code::INVALID_PARAMS,
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":null}"#.to_owned(),
            Id::Int(3),
            code::INVALID_REQUEST,
        ),
        (
            r#"{"jsonrpc":"2.0","id":-0,"method":"ping","params":[]}"#.to_owned(),
            Id::Int(0),
            0,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1.0,"method":"ping","params":3}"#.to_owned(),
            Id::Null,
            code::INVALID_REQUEST,
        ),
    ] {
        let (mut routed, mut deferred) = (Vec::new(), Vec::new());
        server().handle_line(line.as_bytes(), &mut routed);
        server().handle_line_deferred(line.as_bytes(), &mut deferred);
        assert_eq!(routed, deferred, "{line}");
        let r = common::answer(&routed);
        assert_eq!(r.id, id, "{line}");
        match r.outcome {
            Ok(_) => assert_eq!(code, 0, "{line}"),
            Err(e) => assert_eq!(e.code, code, "{line}"),
        }
    }
}

/// Serves `input` and returns the output lines.
fn serve(server: &mut Server, input: impl Read) -> Vec<String> {
    let mut out = Vec::new();
    server.serve(input, &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn stdio_lines() {
    let mut s = server();
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        "\r\n\n   \n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        "garbage\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#
    );
    let lines = serve(&mut s, input.as_bytes());
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    assert!(lines[1].contains("-32700"));
    assert_eq!(lines[2], r#"{"jsonrpc":"2.0","id":2,"result":{}}"#);
}

#[test]
fn stdio_pipelined_in_small_reads() {
    let mut input = String::new();
    for i in 0..200 {
        input.push_str(&format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"tools/call\",\"params\":{{\"name\":\"add\",\"arguments\":{{\"left\":{i},\"right\":1}}}}}}\n"
        ));
    }
    for step in [1, 7, 100, 1 << 20] {
        let mut s = server();
        let lines = serve(&mut s, Trickle(input.as_bytes(), step));
        assert_eq!(lines.len(), 200);
        for (i, l) in lines.iter().enumerate() {
            assert!(
                l.starts_with(&format!("{{\"jsonrpc\":\"2.0\",\"id\":{i},")),
                "{l}"
            );
            assert!(
                l.contains(&format!("\"structuredContent\":{{\"result\":{}}}", i + 1)),
                "{l}"
            );
        }
    }
}

/// A 100 MB line without a line break for most of it, then a ping.
struct Huge {
    left: usize,
    tail: &'static [u8],
}

impl Read for Huge {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left > 0 {
            let n = self.left.min(buf.len());
            buf[..n].fill(b'1');
            if self.left == 100 << 20 {
                buf[0] = b'[';
            }
            self.left -= n;
            return Ok(n);
        }
        let n = self.tail.len().min(buf.len());
        buf[..n].copy_from_slice(&self.tail[..n]);
        self.tail = &self.tail[n..];
        Ok(n)
    }
}

#[test]
fn stdio_line_limit() {
    let mut s = server().max_line(1 << 20);
    let lines = serve(
        &mut s,
        Huge {
            left: 100 << 20,
            tail: b"]\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n",
        },
    );
    assert_eq!(lines.len(), 2, "{lines:?}");
    let r: Response<Value, Value> = structio::from_json(&lines[0]).unwrap();
    let e = r.outcome.unwrap_err();
    assert_eq!((r.id, e.code), (Id::Null, code::INVALID_REQUEST));
    assert!(e.message.contains("longer than 1048576 bytes"));
    assert_eq!(lines[1], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    // A line at the limit is read; one byte more is not; an overlong last line without a
    // line break is answered too.
    let mut s = server().max_line(48);
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#; // 40 bytes
    let at_limit = format!("{ping}{}", " ".repeat(8));
    let over = format!("{ping}{}", " ".repeat(9));
    let lines = serve(&mut s, format!("{at_limit}\n{over}\n{over}").as_bytes());
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    assert!(lines[1].contains("-32600") && lines[2].contains("-32600"));
}

/// Hands out its bytes a few at a time.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.1.min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// A ping of exactly `len` bytes (padded with spaces inside the object).
fn ping_of(len: usize, id: usize) -> String {
    let ping = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping""#);
    format!("{ping}{}}}", " ".repeat(len - ping.len() - 1))
}

/// The line limit is on the message, without its line break: a line of exactly the limit is
/// answered whether it ends with `\n`, `\r\n` or the end of the input, one byte more is refused
/// with each ending, also when the `\r` and the `\n` arrive in different reads.
#[test]
fn stdio_line_limit_does_not_count_the_line_break() {
    let limit = 48;
    for ending in ["\n", "\r\n"] {
        let input = format!(
            "{}{ending}{}{ending}{}{ending}{}{ending}{}",
            ping_of(limit, 1),
            ping_of(limit + 1, 2),
            ping_of(limit - 1, 3),
            ping_of(limit + 2, 4),
            ping_of(limit, 5),
        );
        for step in [1, 2, 3, 47, 48, 49, 50, 1 << 16] {
            let mut s = server().max_line(limit);
            let lines = serve(&mut s, Trickle(input.as_bytes(), step));
            assert_eq!(lines.len(), 5, "{ending:?} {step}: {lines:?}");
            assert_eq!(
                lines[0], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                "{ending:?} {step}"
            );
            assert!(
                lines[1].contains("longer than 48 bytes"),
                "{ending:?} {step}: {}",
                lines[1]
            );
            assert_eq!(
                lines[2], r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
                "{ending:?} {step}"
            );
            assert!(
                lines[3].contains("longer than 48 bytes"),
                "{ending:?} {step}: {}",
                lines[3]
            );
            assert_eq!(
                lines[4], r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
                "{ending:?} {step}"
            );
        }
    }
    // A last line with a lone `\r` and no `\n`: the `\r` is dropped too.
    for step in [1, 48, 49, 1 << 16] {
        let input = format!("{}\r", ping_of(limit, 6));
        let lines = serve(
            &mut server().max_line(limit),
            Trickle(input.as_bytes(), step),
        );
        assert_eq!(lines, [r#"{"jsonrpc":"2.0","id":6,"result":{}}"#], "{step}");
        let input = format!("{}\r", ping_of(limit + 1, 7));
        let lines = serve(
            &mut server().max_line(limit),
            Trickle(input.as_bytes(), step),
        );
        assert!(
            lines.len() == 1 && lines[0].contains("-32600"),
            "{step}: {lines:?}"
        );
    }
    // A `\r` inside the line counts: only the one before the `\n` is part of the break.
    let input = format!("{}\r\r\n", ping_of(limit, 8));
    let lines = serve(&mut server().max_line(limit), input.as_bytes());
    assert!(lines.len() == 1 && lines[0].contains("-32600"), "{lines:?}");
}

/// The case of issue 42 at the default limit: a 4 MiB message is answered with either line
/// break, 4 MiB and one byte is refused with either.
#[test]
fn stdio_default_limit_of_4_mib_with_either_line_break() {
    use structio_rpc::mcp::DEFAULT_MAX_LINE;
    for ending in ["\n", "\r\n"] {
        let input = format!(
            "{}{ending}{}{ending}",
            ping_of(DEFAULT_MAX_LINE, 1),
            ping_of(DEFAULT_MAX_LINE + 1, 2)
        );
        let lines = serve(&mut server(), input.as_bytes());
        assert_eq!(lines.len(), 2, "{ending:?}");
        assert_eq!(
            lines[0], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            "{ending:?}"
        );
        assert!(
            lines[1].contains("longer than 4194304 bytes"),
            "{ending:?}: {}",
            lines[1]
        );
    }
}

#[test]
fn stdio_stops_when_the_reader_goes_away() {
    struct Closed;
    impl std::io::Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut s = server();
    let input = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
        .repeat(3)
        .replace("}{", "}\n{");
    assert!(s.serve(input.as_bytes(), Closed).is_ok());
}

mod arbitrary_lines {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]
        /// Any bytes as a line: one JSON answer or nothing, and the server goes on serving.
        #[test]
        fn any_line(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let mut s = server();
            let mut out = Vec::new();
            s.handle_line(&bytes, &mut out);
            if !out.is_empty() {
                prop_assert_eq!(out.last(), Some(&b'\n'));
                prop_assert!(structio::json::validate(&out[..out.len() - 1]).is_ok());
            }
            let mut general = Vec::new();
            server().handle_line_deferred(&bytes, &mut general);
            prop_assert_eq!(&out, &general, "routed and deferred answers differ");
            out.clear();
            let answered = s.handle_line(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, &mut out);
            prop_assert!(answered);
        }

        /// Arguments of any shape: a result or a tool execution error, never a protocol error.
        #[test]
        fn any_arguments(left in prop_oneof![Just("1".to_owned()), Just("\"x\"".to_owned()), Just("null".to_owned()), any::<i64>().prop_map(|n| n.to_string())],
                         extra in prop_oneof![Just(""), Just(",\"z\":1"), Just(",\"right\":2")]) {
            let mut s = server();
            let r = call(&mut s, "add", &format!("{{\"left\":{left},\"right\":3{extra}}}"));
            prop_assert!(r["isError"].as_bool().is_some());
        }
    }
}

/// `handle_line` reads the usual messages in one pass (the routing members of `params` with the
/// envelope); `handle_line_deferred` reads every message the general way. Same answers.
#[test]
fn routed_and_deferred_answers_are_the_same() {
    let lines = [
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}"#,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}"#,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":null}}"#,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","name":5}}"#,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"name":[1,2]}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"x"}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"left":2,"right":40}}}"#,
        r#"{ "params" : { "arguments" : { "right" : 40, "left" : 2 }, "name" : "add" }, "method" : "tools/call", "id" : 3, "jsonrpc" : "2.0" }"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"a\u0064d","arguments":{"left":2,"right":40}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","name":"search","arguments":{"query":"q","limit":2}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":null}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":[1,2]}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"left":"x"}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","protocolVersion":7,"arguments":{"left":1,"right":2}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":["add",{"left":1,"right":2}]}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"add"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"boom","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"boom","arguments":{"left":1,"right":2}}}"#,
        r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"add","arguments":{"left":1,"right":2}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"left":1,"right":2}}}]"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"name":"x"},"params":{"name":5}}"#,
        r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping""#,
        "not json",
    ];
    let (mut routed, mut deferred) = (server(), server());
    for line in lines {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let wrote = routed.handle_line(line.as_bytes(), &mut a);
        assert_eq!(
            wrote,
            deferred.handle_line_deferred(line.as_bytes(), &mut b)
        );
        assert_eq!(
            String::from_utf8_lossy(&a),
            String::from_utf8_lossy(&b),
            "{line}"
        );
        assert_eq!(routed.protocol_version(), deferred.protocol_version());
    }
}
