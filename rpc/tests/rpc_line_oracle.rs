//! The `rpc_line` fuzz target's oracle (`fuzz/src/rpc.rs`, included by path) on the lines of
//! issue 42 and their neighbours, so that `cargo test` replays them without the fuzz crate.

#[path = "../../fuzz/src/rpc.rs"]
#[allow(dead_code)]
mod oracle;

/// Every input here through the oracle; the panic names the input.
fn replay(inputs: &[Vec<u8>]) {
    for data in inputs {
        let shown = String::from_utf8_lossy(&data[..data.len().min(160)]).into_owned();
        if let Err(e) = std::panic::catch_unwind(|| oracle::rpc_line(data)) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{shown}: {msg}");
        }
    }
}

/// Errors after a readable id (issue 42, item 1) and ids that cannot be read, as the oracle
/// checks them against serde_json's reading of the line.
#[test]
fn errors_answered_with_the_id_pass_the_oracle() {
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let lines: Vec<String> = vec![
        r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":3}"#.into(),
        r#"{"jsonrpc":"2.0","method":"ping","params":3,"id":"a"}"#.into(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"add"}"#.into(),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{deep}}}"#),
        format!(r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"add","arguments":{deep}}},"id":2}}"#),
        r#"{"jsonrpc":"2.0","id":1,"method":7}"#.into(),
        r#"{"jsonrpc":"2.0","id":1}"#.into(),
        r#"{"jsonrpc":"1.0","id":"x","method":"ping"}"#.into(),
        r#"{"id":3,"id":"z","method":null}"#.into(),
        r#"{"\u0069d":3,"method":null}"#.into(),
        r#"{"jsonrpc":"2.0","id":[1],"method":"ping","params":3}"#.into(),
        r#"{"jsonrpc":"2.0","id":1.5,"id":1,"method":7}"#.into(),
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#.into(),
        r#"{"jsonrpc":"2.0","method":"ping","params":3}"#.into(),
        // Ids of item 3.
        r#"{"jsonrpc":"2.0","id":-0,"method":"ping"}"#.into(),
        r#"{"jsonrpc":"2.0","id":-0,"method":"ping","params":3}"#.into(),
        r#"{"jsonrpc":"2.0","id":1e2,"method":"ping"}"#.into(),
        r#"{"jsonrpc":"2.0","id":1.0,"method":"ping"}"#.into(),
        r#"{"jsonrpc":"2.0","id":-0.0,"method":"ping"}"#.into(),
        r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}"#.into(),
        // A batch, with elements answered for their ids.
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping","params":3},{"jsonrpc":"2.0","method":7,"id":"b"}]"#.into(),
    ];
    replay(
        &lines
            .into_iter()
            .map(String::into_bytes)
            .collect::<Vec<_>>(),
    );
}

/// Lines at the stdio limit (the oracle's server has 256 bytes) with each line break (issue
/// 42, item 2).
#[test]
fn lines_at_the_limit_pass_the_oracle() {
    let ping = |len: usize| {
        let p = r#"{"jsonrpc":"2.0","id":1,"method":"ping""#;
        format!("{p}{}}}", " ".repeat(len - p.len() - 1))
    };
    let mut inputs = Vec::new();
    for len in [255, 256, 257, 258] {
        for ending in ["\n", "\r\n", "\r", "", "\r\r\n"] {
            inputs.push(format!("{}{ending}{}{ending}", ping(len), ping(len)).into_bytes());
        }
    }
    replay(&inputs);
}

/// The `rpc_http` target's oracle on requests of every kind: well-formed, cut short, malformed,
/// oversized; and bodies that are not JSON-RPC.
#[cfg(feature = "http")]
#[test]
fn http_inputs_pass_the_oracle() {
    let inputs: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"GET /mcp HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec(),
        b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\n{".to_vec(),
        b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".to_vec(),
        b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".to_vec(),
        b"DELETE /mcp HTTP/1.1\r\nHost: localhost\r\nMcp-Session-Id: \xff\r\n\r\n".to_vec(),
        b"NoColon\r\n\r\n".to_vec(),
        // Answered in HTTP/1.0 (the fuzzer's first find: the oracle wanted HTTP/1.1).
        b"POST /mcp HTTP/1.0\r\nHost: e\r\n\r\n".to_vec(),
        br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#.to_vec(),
        br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"},1]"#.to_vec(),
        format!("POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n{}", "x".repeat(70_000)).into_bytes(),
    ];
    for data in &inputs {
        let shown = String::from_utf8_lossy(&data[..data.len().min(160)]).into_owned();
        if let Err(e) = std::panic::catch_unwind(|| oracle::rpc_http(data)) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{shown}: {msg}");
        }
    }
}
