//! Revision 2026-07-28's multi round-trip requests (feature `async`): a tool asking for input
//! ends its call with an `InputRequiredResult`, and the client retries it with
//! `inputResponses` and the sealed `requestState`. The first round's bytes, retries, two
//! questions over three rounds, several requests in one result, the tool's own state, the
//! refusals of a state tampered with, expired, minted for another tool or by another key,
//! a missing client capability, a bad answer, the one-pass route against the general way,
//! `Connection`, and the handshake era asking through `elicitation/create` instead.
#![cfg(feature = "async")]

use std::sync::Arc;
use std::time::Duration;

use structio::Value;
use structio_rpc::mcp::{
    BuildErrorKind, Connection, Context, Elicitation, InputRequest, InputRequired, Outbox,
    PromptMessage, SamplingRequest, Server, ToolError, MISSING_REQUIRED_CLIENT_CAPABILITY,
};

const KEY: &[u8] = b"0123456789abcdef0123456789abcdef-test-key";

#[derive(structio::Reflect)]
struct Order {
    item: String,
}

#[derive(structio::Reflect)]
struct Quantity {
    count: u32,
}

#[derive(structio::Reflect)]
struct Address {
    street: String,
}

#[derive(structio::Reflect)]
struct Nothing {}

#[derive(structio::Reflect)]
struct Pick {
    a: u32,
    b: Vec<u32>,
}

#[derive(structio::Reflect)]
struct Add {
    left: i32,
    right: i32,
}

/// `order` asks the quantity; `ship` asks the quantity, then the address (two rounds of
/// questions); `survey` asks three things at once; `steps` keeps a state of its own;
/// `add` is a plain tool.
fn shop() -> Server {
    Server::new("shop", "1.0")
        .request_state_key(KEY)
        .tool(
            "order",
            "Orders an item",
            |ctx: Context, o: Order| async move {
                let message = format!("How many {}?", o.item);
                Ok::<_, ToolError>(match ctx.ask::<Quantity>("quantity", &message).await? {
                    Elicitation::Accept(q) => format!("ordered {} {}", q.count, o.item),
                    Elicitation::Decline => "declined".to_owned(),
                    Elicitation::Cancel => "cancelled".to_owned(),
                })
            },
        )
        .tool(
            "ship",
            "Ships an item",
            |ctx: Context, o: Order| async move {
                let Elicitation::Accept(q) = ctx.ask::<Quantity>("quantity", "How many?").await?
                else {
                    return Ok("no quantity".to_owned());
                };
                let Elicitation::Accept(a) = ctx.ask::<Address>("address", "Where to?").await?
                else {
                    return Ok("no address".to_owned());
                };
                Ok::<_, ToolError>(format!("{} {} to {}", q.count, o.item, a.street))
            },
        )
        .tool(
            "survey",
            "Asks three things",
            |ctx: Context, _: Nothing| async move {
                let answers = ctx
                    .ask_all(&[
                        ("name", InputRequest::elicit::<Address>("Your street?")),
                        (
                            "capital",
                            InputRequest::sample(
                                &SamplingRequest::new(10).user("Capital of France?"),
                            ),
                        ),
                        ("roots", InputRequest::roots()),
                    ])
                    .await?;
                let street = match answers[0].elicitation::<Address>()? {
                    Elicitation::Accept(a) => a.street,
                    _ => "-".to_owned(),
                };
                let capital = answers[1].sampling()?;
                let roots = answers[2].roots()?;
                Ok::<_, ToolError>(format!(
                    "{street}; {}; {}",
                    capital.text().unwrap_or("?"),
                    roots
                        .iter()
                        .map(|r| r.uri.as_str())
                        .collect::<Vec<_>>()
                        .join(",")
                ))
            },
        )
        .tool(
            "steps",
            "Keeps a state",
            |ctx: Context, _: Nothing| async move {
                match ctx.request_state() {
                    None => Err(ctx.input_required(InputRequired::new().state("step-1"))),
                    Some(state) => Ok::<_, ToolError>(format!("resumed at {state}")),
                }
            },
        )
        .tool("add", "Adds", |a: Add| Ok::<_, ToolError>(a.left + a.right))
        .tool(
            "pick",
            "Asks, then adds",
            |ctx: Context, p: Pick| async move {
                let Elicitation::Accept(q) = ctx.ask::<Quantity>("quantity", "How many?").await?
                else {
                    return Ok(0);
                };
                Ok::<_, ToolError>(q.count + p.a + p.b.iter().sum::<u32>())
            },
        )
}

/// The modern envelope with the client capabilities `caps`.
fn meta(caps: &str) -> String {
    format!(
        r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{{"name":"c","version":"1"}},"io.modelcontextprotocol/clientCapabilities":{caps}}}"#
    )
}

const ALL: &str = r#"{"elicitation":{},"sampling":{},"roots":{}}"#;

/// A modern `tools/call` of `name` with `arguments` and `extra` members (before `_meta`).
fn call(id: u32, name: &str, arguments: &str, extra: &str, caps: &str) -> String {
    let sep = if extra.is_empty() { "" } else { "," };
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}{sep}{extra},{}}}}}"#,
        meta(caps)
    )
}

/// `"inputResponses":...,"requestState":...` for a retry.
fn retry(responses: &str, state: &str) -> String {
    format!(
        r#""inputResponses":{responses},"requestState":{}"#,
        structio::to_json(&state)
    )
}

/// The answer to `line` through `handle_line`, checked to be the answer of
/// `handle_line_deferred` on a twin server (with the state's text, which holds the time,
/// set aside), without its line break.
fn both(server: &mut Server, twin: &mut Server, line: &str) -> String {
    let (mut out, mut general) = (Vec::new(), Vec::new());
    assert!(server.handle_line(line.as_bytes(), &mut out), "{line}");
    assert!(
        twin.handle_line_deferred(line.as_bytes(), &mut general),
        "{line}"
    );
    let out = String::from_utf8(out).unwrap();
    let general = String::from_utf8(general).unwrap();
    assert_eq!(
        without_state(&out).0,
        without_state(&general).0,
        "routed and deferred differ on {line}"
    );
    out.trim_end().to_owned()
}

/// `response` with its `requestState` text replaced by `STATE`, and that text.
fn without_state(response: &str) -> (String, String) {
    const AT: &str = r#""requestState":""#;
    let Some(start) = response.find(AT).map(|i| i + AT.len()) else {
        return (response.to_owned(), String::new());
    };
    let end = start + response[start..].find('"').unwrap();
    let state = response[start..end].to_owned();
    (
        format!("{}STATE{}", &response[..start], &response[end..]),
        state,
    )
}

fn json(text: &str) -> Value {
    structio::from_json::<Value>(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The text of a tool result.
fn text(response: &str) -> String {
    let v = json(response);
    assert_eq!(
        v["result"]["resultType"].as_str(),
        Some("complete"),
        "{response}"
    );
    v["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A pair of servers: one answering the routed way, one the general way.
struct Pair(Server, Server);

impl Pair {
    fn new() -> Pair {
        Pair(shop(), shop())
    }
    fn send(&mut self, line: &str) -> String {
        both(&mut self.0, &mut self.1, line)
    }
    /// A first round: the response with the state set aside, and the state.
    fn ask(&mut self, line: &str) -> (String, String) {
        without_state(&self.send(line))
    }
    fn error(&mut self, line: &str) -> (i64, String, Value) {
        let v = json(&self.send(line));
        let e = &v["error"];
        assert!(v.get("result").is_none(), "{v:?}");
        (
            e["code"].as_i64().unwrap(),
            e["message"].as_str().unwrap().to_owned(),
            e.get("data").cloned().unwrap_or(Value::Null),
        )
    }
}

const STAMP: &str =
    r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"shop","version":"1.0"}}"#;

#[test]
fn first_round_is_an_input_required_result() {
    let mut p = Pair::new();
    let (response, state) = p.ask(&call(1, "order", r#"{"item":"pears"}"#, "", ALL));
    assert_eq!(
        response,
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{"quantity":"#,
                r#"{{"method":"elicitation/create","params":{{"mode":"form","message":"How many pears?","#,
                r#""requestedSchema":{{"type":"object","properties":{{"count":{{"type":"integer","minimum":0,"maximum":4294967295}}}},"required":["count"]}}}}}}}},"#,
                r#""requestState":"STATE",{}}}}}"#
            ),
            STAMP
        )
    );
    // Opaque to the client, but signed, not encrypted: a payload and a tag, base64url.
    let (payload, tag) = state.split_once('.').unwrap();
    assert_eq!(tag.len(), 43, "a 32-byte HMAC-SHA256 tag");
    assert!(payload
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
}

#[test]
fn a_retry_with_the_answer_completes_the_call() {
    let mut p = Pair::new();
    let (_, state) = p.ask(&call(1, "order", r#"{"item":"pears"}"#, "", ALL));
    let answer = r#"{"quantity":{"action":"accept","content":{"count":3}}}"#;
    let done = p.send(&call(
        2,
        "order",
        r#"{"item":"pears"}"#,
        &retry(answer, &state),
        ALL,
    ));
    assert_eq!(
        done,
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"content":[{{"type":"text","text":"ordered 3 pears"}}],"isError":false,"resultType":"complete",{STAMP}}}}}"#
        )
    );
    // Declined and cancelled forms are answers too.
    for (action, said) in [("decline", "declined"), ("cancel", "cancelled")] {
        let answer = format!(r#"{{"quantity":{{"action":"{action}"}}}}"#);
        let done = p.send(&call(
            3,
            "order",
            r#"{"item":"pears"}"#,
            &retry(&answer, &state),
            ALL,
        ));
        assert_eq!(text(&done), said);
    }
    // The same state serves again within its lifetime (not single-use).
    let done = p.send(&call(
        4,
        "order",
        r#"{"item":"pears"}"#,
        &retry(answer, &state),
        ALL,
    ));
    assert_eq!(text(&done), "ordered 3 pears");
}

#[test]
fn a_retry_without_the_answer_asks_again() {
    let mut p = Pair::new();
    let (first, state) = p.ask(&call(1, "order", r#"{"item":"pears"}"#, "", ALL));
    // No answer, or one under a key the server did not ask: asked again, the same way.
    for responses in [
        "{}",
        r#"{"other":{"action":"accept","content":{"count":1}}}"#,
    ] {
        let (again, _) = p.ask(&call(
            1,
            "order",
            r#"{"item":"pears"}"#,
            &retry(responses, &state),
            ALL,
        ));
        assert_eq!(again, first);
    }
    // An answer without the state that asked for it is not taken either.
    let answer = r#""inputResponses":{"quantity":{"action":"accept","content":{"count":3}}}"#;
    let (again, _) = p.ask(&call(1, "order", r#"{"item":"pears"}"#, answer, ALL));
    assert_eq!(again, first);
}

#[test]
fn two_questions_over_three_rounds() {
    let mut p = Pair::new();
    let args = r#"{"item":"books"}"#;
    let (first, state1) = p.ask(&call(1, "ship", args, "", ALL));
    assert!(first.contains(r#""inputRequests":{"quantity":"#), "{first}");
    let (second, state2) = p.ask(&call(
        2,
        "ship",
        args,
        &retry(
            r#"{"quantity":{"action":"accept","content":{"count":2}}}"#,
            &state1,
        ),
        ALL,
    ));
    assert!(second.contains(r#""inputRequests":{"address":{"method":"elicitation/create","params":{"mode":"form","message":"Where to?""#), "{second}");
    assert!(!second.contains("quantity"), "{second}");
    // The third round carries only the second answer: the first comes from the state.
    let done = p.send(&call(
        3,
        "ship",
        args,
        &retry(
            r#"{"address":{"action":"accept","content":{"street":"Elm St"}}}"#,
            &state2,
        ),
        ALL,
    ));
    assert_eq!(text(&done), "2 books to Elm St");
    // An answer the state records is not replaced by a retry naming its key again.
    let done = p.send(&call(
        4,
        "ship",
        args,
        &retry(
            r#"{"quantity":{"action":"accept","content":{"count":99}},"address":{"action":"accept","content":{"street":"Oak"}}}"#,
            &state2,
        ),
        ALL,
    ));
    assert_eq!(text(&done), "2 books to Oak");
}

#[test]
fn several_requests_in_one_result() {
    let mut p = Pair::new();
    let (first, state) = p.ask(&call(1, "survey", "{}", "", ALL));
    assert_eq!(
        first,
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{"#,
                r#""name":{{"method":"elicitation/create","params":{{"mode":"form","message":"Your street?","requestedSchema":{{"type":"object","properties":{{"street":{{"type":"string"}}}},"required":["street"]}}}}}},"#,
                r#""capital":{{"method":"sampling/createMessage","params":{{"messages":[{{"role":"user","content":{{"type":"text","text":"Capital of France?"}}}}],"maxTokens":10}}}},"#,
                r#""roots":{{"method":"roots/list"}}}},"requestState":"STATE",{}}}}}"#
            ),
            STAMP
        )
    );
    // Two of three answered: the third is asked for alone.
    let (second, state2) = p.ask(&call(
        2,
        "survey",
        "{}",
        &retry(
            r#"{"name":{"action":"accept","content":{"street":"Rue Royale"}},"roots":{"roots":[{"uri":"file:///a","name":"a"},{"uri":"file:///b"}]}}"#,
            &state,
        ),
        ALL,
    ));
    assert!(
        second.contains(r#""inputRequests":{"capital":"#),
        "{second}"
    );
    assert!(
        !second.contains(r#""name":{"method""#) && !second.contains(r#""roots":{"method""#),
        "{second}"
    );
    let done = p.send(&call(
        3,
        "survey",
        "{}",
        &retry(
            r#"{"capital":{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m","stopReason":"endTurn"}}"#,
            &state2,
        ),
        ALL,
    ));
    assert_eq!(text(&done), "Rue Royale; Paris; file:///a,file:///b");
}

#[test]
fn a_tool_keeps_a_state_of_its_own() {
    let mut p = Pair::new();
    let (first, state) = p.ask(&call(1, "steps", "{}", "", ALL));
    // No request for input: the state alone (the spec's load-shedding form).
    assert_eq!(
        first,
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","requestState":"STATE",{STAMP}}}}}"#
        )
    );
    let done = p.send(&call(2, "steps", "{}", &retry("{}", &state), ALL));
    assert_eq!(text(&done), "resumed at step-1");
    let done = p.send(&call(
        3,
        "steps",
        "{}",
        &format!(r#""requestState":{}"#, structio::to_json(&state)),
        "{}",
    ));
    assert_eq!(text(&done), "resumed at step-1");
}

/// `state` with one character of its payload changed.
fn tampered(state: &str) -> String {
    let mut bytes = state.as_bytes().to_vec();
    bytes[5] = if bytes[5] == b'A' { b'B' } else { b'A' };
    String::from_utf8(bytes).unwrap()
}

#[test]
fn a_state_that_does_not_verify_is_refused() {
    let mut p = Pair::new();
    let (_, state) = p.ask(&call(1, "order", r#"{"item":"pears"}"#, "", ALL));
    let (_, ship_state) = p.ask(&call(1, "ship", r#"{"item":"pears"}"#, "", ALL));
    let answer = r#"{"quantity":{"action":"accept","content":{"count":3}}}"#;
    let refused = |p: &mut Pair, tool: &str, state: &str| {
        let (code, message, data) = p.error(&call(
            9,
            tool,
            r#"{"item":"pears"}"#,
            &retry(answer, state),
            ALL,
        ));
        assert_eq!(
            (code, message.as_str(), data),
            (-32602, "Invalid or expired requestState", Value::Null),
            "{tool} {state}"
        );
    };
    // Tampered with: payload, tag, shape.
    refused(&mut p, "order", &tampered(&state));
    let (payload, tag) = state.split_once('.').unwrap();
    refused(&mut p, "order", &format!("{payload}.{}", tampered(tag)));
    refused(&mut p, "order", payload);
    refused(&mut p, "order", "");
    refused(&mut p, "order", "not base64!");
    // Minted for another tool.
    refused(&mut p, "order", &ship_state);
    refused(&mut p, "ship", &state);
    // Minted for other arguments: refused; the same arguments written another way: taken.
    let (code, message, _) = p.error(&call(
        9,
        "order",
        r#"{"item":"gold"}"#,
        &retry(answer, &state),
        ALL,
    ));
    assert_eq!(
        (code, message.as_str()),
        (-32602, "Invalid or expired requestState")
    );
    let (_, pick_state) = p.ask(&call(1, "pick", r#"{"a":1,"b":[2,3]}"#, "", ALL));
    let v = json(&p.send(&call(
        9,
        "pick",
        r#"{ "b" : [2, 3], "a" : 1 }"#,
        &retry(answer, &pick_state),
        ALL,
    )));
    assert_eq!(
        v["result"]["structuredContent"]["result"].as_u64(),
        Some(9),
        "{v:?}"
    );
    let (code, _, _) = p.error(&call(
        9,
        "pick",
        r#"{"a":1,"b":[3,2]}"#,
        &retry(answer, &pick_state),
        ALL,
    ));
    assert_eq!(code, -32602);
    // A plain tool never mints one: any state is refused there too.
    let (code, message, _) = p.error(&call(
        9,
        "add",
        r#"{"left":1,"right":2}"#,
        &retry("{}", &state),
        ALL,
    ));
    assert_eq!(
        (code, message.as_str()),
        (-32602, "Invalid or expired requestState")
    );
    // A state that is not a string.
    let (code, message, _) = p.error(&call(
        9,
        "order",
        r#"{"item":"pears"}"#,
        r#""requestState":42"#,
        ALL,
    ));
    assert_eq!(
        (code, message.as_str()),
        (-32602, "Invalid or expired requestState")
    );
    // The verified state still serves.
    let done = p.send(&call(
        2,
        "order",
        r#"{"item":"pears"}"#,
        &retry(answer, &state),
        ALL,
    ));
    assert_eq!(text(&done), "ordered 3 pears");
    // `inputResponses` must be an object.
    let (code, _, _) = p.error(&call(
        9,
        "order",
        r#"{"item":"pears"}"#,
        &format!(r#""inputResponses":[],"requestState":"{state}""#),
        ALL,
    ));
    assert_eq!(code, -32602);
}

#[test]
fn a_state_from_another_key_or_expired_is_refused() {
    let line = call(1, "order", r#"{"item":"pears"}"#, "", ALL);
    let (_, state) = without_state(&both(&mut shop(), &mut shop(), &line));
    let answer = r#"{"quantity":{"action":"accept","content":{"count":3}}}"#;
    let again = call(
        2,
        "order",
        r#"{"item":"pears"}"#,
        &retry(answer, &state),
        ALL,
    );
    // Another instance with the same key verifies it.
    assert_eq!(
        text(&both(&mut shop(), &mut shop(), &again)),
        "ordered 3 pears"
    );
    // A server with its own random key does not.
    let other = || {
        Server::new("shop", "1.0").tool("order", "Orders", |ctx: Context, o: Order| async move {
            ctx.ask::<Quantity>("quantity", "How many?").await?;
            Ok::<_, ToolError>(o.item)
        })
    };
    let v = json(&both(&mut other(), &mut other(), &again));
    assert_eq!(
        v["error"]["message"].as_str(),
        Some("Invalid or expired requestState")
    );
    // Expired: a lifetime of zero.
    let brief = || shop().request_state_ttl(Duration::ZERO);
    let (mut a, mut b) = (brief(), brief());
    let (_, state) = without_state(&both(&mut a, &mut b, &line));
    std::thread::sleep(Duration::from_millis(2));
    let again = call(
        2,
        "order",
        r#"{"item":"pears"}"#,
        &retry(answer, &state),
        ALL,
    );
    let v = json(&both(&mut a, &mut b, &again));
    assert_eq!(v["error"]["code"].as_i64(), Some(-32602));
    assert_eq!(
        v["error"]["message"].as_str(),
        Some("Invalid or expired requestState")
    );
}

#[test]
fn a_short_key_is_a_build_problem() {
    let server = Server::new("s", "1").request_state_key(b"short");
    assert_eq!(
        server.check().unwrap_err().kind(),
        BuildErrorKind::ShortRequestStateKey
    );
}

#[test]
fn a_missing_capability_is_an_error() {
    let mut p = Pair::new();
    let response = p.send(&call(1, "order", r#"{"item":"pears"}"#, "", "{}"));
    assert_eq!(
        response,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"Server requires the elicitation capability for this request","data":{"requiredCapabilities":{"elicitation":{}}}}}"#
    );
    assert_eq!(MISSING_REQUIRED_CLIENT_CAPABILITY, -32021);
    // Elicitation in URL mode only takes no forms.
    let (code, _, _) = p.error(&call(
        1,
        "order",
        r#"{"item":"pears"}"#,
        "",
        r#"{"elicitation":{"url":{}}}"#,
    ));
    assert_eq!(code, -32021);
    // Form mode declared.
    let (first, _) = p.ask(&call(
        1,
        "order",
        r#"{"item":"pears"}"#,
        "",
        r#"{"elicitation":{"form":{}}}"#,
    ));
    assert!(first.contains("input_required"), "{first}");
    // Every missing capability is named.
    let (code, message, data) = p.error(&call(1, "survey", "{}", "", r#"{"elicitation":{}}"#));
    assert_eq!(code, -32021);
    assert_eq!(
        message,
        "Server requires the sampling and roots capabilities for this request"
    );
    assert_eq!(
        structio::to_json(&data),
        r#"{"requiredCapabilities":{"sampling":{},"roots":{}}}"#
    );
}

#[test]
fn a_bad_answer_is_a_tool_error_naming_its_key_and_path() {
    let mut p = Pair::new();
    let (_, state) = p.ask(&call(1, "order", r#"{"item":"pears"}"#, "", ALL));
    let answer = r#"{"quantity":{"action":"accept","content":{"count":"three"}}}"#;
    let v = json(&p.send(&call(
        2,
        "order",
        r#"{"item":"pears"}"#,
        &retry(answer, &state),
        ALL,
    )));
    assert_eq!(v["result"]["isError"].as_bool(), Some(true), "{v:?}");
    let said = v["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        said.starts_with("the answer to the input request `quantity` does not read:\n$.inputResponses.quantity.content.count: "),
        "{said}"
    );
    let answer = r#"{"quantity":{"action":"maybe"}}"#;
    let v = json(&p.send(&call(
        2,
        "order",
        r#"{"item":"pears"}"#,
        &retry(answer, &state),
        ALL,
    )));
    let said = v["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        said.contains("$.inputResponses.quantity.action: unknown action"),
        "{said}"
    );
}

#[test]
fn the_one_pass_route_does_not_drop_the_retry() {
    // The route the usual message takes must not drop `inputResponses` or `requestState` (it
    // leaves a retry to the general way): `handle_line` alone (no twin) completes the retry.
    let mut server = shop();
    let mut out = Vec::new();
    server.handle_line(
        call(1, "order", r#"{"item":"figs"}"#, "", ALL).as_bytes(),
        &mut out,
    );
    let (_, state) = without_state(std::str::from_utf8(&out).unwrap());
    let answer = r#"{"quantity":{"action":"accept","content":{"count":5}}}"#;
    let mut out = Vec::new();
    server.handle_line(
        call(
            2,
            "order",
            r#"{"item":"figs"}"#,
            &retry(answer, &state),
            ALL,
        )
        .as_bytes(),
        &mut out,
    );
    assert_eq!(text(std::str::from_utf8(&out).unwrap()), "ordered 5 figs");
    // The members in any order, `_meta` first.
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{{},"requestState":{},"inputResponses":{answer},"arguments":{{"item":"figs"}},"name":"order"}}}}"#,
        meta(ALL),
        structio::to_json(&state)
    );
    let mut twin = shop();
    assert_eq!(text(&both(&mut server, &mut twin, &line)), "ordered 5 figs");
}

#[test]
fn prompts_and_reads_refuse_a_state() {
    let make = || {
        shop().prompt("greet", "Greets", |_: Nothing| {
            Ok(vec![structio_rpc::mcp::PromptMessage::user("hi")])
        })
    };
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{{"name":"greet","requestState":"x.y",{}}}}}"#,
        meta(ALL)
    );
    let v = json(&both(&mut make(), &mut make(), &line));
    assert_eq!(
        v["error"]["message"].as_str(),
        Some("Invalid or expired requestState")
    );
}

/// [`shop`] with the prompt `order` (a `Context`: asks the quantity) and the plain `plain`.
fn shop_with_prompts() -> Server {
    shop()
        .prompt_with_context(
            "order",
            "Drafts an order",
            |ctx: Context, o: Order| async move {
                let count = match ctx.ask::<Quantity>("quantity", "How many?").await? {
                    Elicitation::Accept(q) => q.count,
                    _ => 0,
                };
                Ok::<_, ToolError>(vec![PromptMessage::user(format!(
                    "Order {count} {}",
                    o.item
                ))])
            },
        )
        .prompt("plain", "Plain", |_: Nothing| {
            Ok(vec![PromptMessage::user("hi")])
        })
}

/// A modern `prompts/get` of `name` with `arguments` and `extra` members.
fn get(id: u32, name: &str, arguments: &str, extra: &str) -> String {
    call(id, name, arguments, extra, ALL).replace("tools/call", "prompts/get")
}

#[test]
fn a_prompt_asks_in_the_modern_era() {
    let mut p = Pair(shop_with_prompts(), shop_with_prompts());
    let (first, state) = p.ask(&get(1, "order", r#"{"item":"figs"}"#, ""));
    assert_eq!(
        first,
        format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{"quantity":"#,
                r#"{{"method":"elicitation/create","params":{{"mode":"form","message":"How many?","#,
                r#""requestedSchema":{{"type":"object","properties":{{"count":{{"type":"integer","minimum":0,"maximum":4294967295}}}},"required":["count"]}}}}}}}},"#,
                r#""requestState":"STATE",{}}}}}"#
            ),
            STAMP
        )
    );
    let answer = r#"{"quantity":{"action":"accept","content":{"count":7}}}"#;
    let done = json(&p.send(&get(
        2,
        "order",
        r#"{"item":"figs"}"#,
        &retry(answer, &state),
    )));
    assert_eq!(
        done["result"]["resultType"].as_str(),
        Some("complete"),
        "{done:?}"
    );
    assert_eq!(
        done["result"]["messages"][0]["content"]["text"].as_str(),
        Some("Order 7 figs")
    );
    // A state minted for the tool of the same name is refused on the prompt, and the other
    // way round: the method is bound too.
    let (_, tool_state) = p.ask(&call(3, "order", r#"{"item":"figs"}"#, "", ALL));
    let (code, message, _) = p.error(&get(
        4,
        "order",
        r#"{"item":"figs"}"#,
        &retry(answer, &tool_state),
    ));
    assert_eq!(
        (code, message.as_str()),
        (-32602, "Invalid or expired requestState")
    );
    let (code, _, _) = p.error(&call(
        5,
        "order",
        r#"{"item":"figs"}"#,
        &retry(answer, &state),
        ALL,
    ));
    assert_eq!(code, -32602);
    // A plain prompt mints none: any state is refused.
    let (code, _, _) = p.error(&get(6, "plain", "{}", &retry("{}", &state)));
    assert_eq!(code, -32602);
    // A missing capability.
    let line =
        call(7, "order", r#"{"item":"figs"}"#, "", "{}").replace("tools/call", "prompts/get");
    let (code, _, _) = p.error(&line);
    assert_eq!(code, -32021);
}

#[test]
fn a_prompt_cannot_ask_in_the_handshake_era() {
    let mut p = Pair(shop_with_prompts(), shop_with_prompts());
    p.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}}"#);
    let (code, message, _) = p.error(r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"order","arguments":{"item":"figs"}}}"#);
    assert_eq!(code, -32602);
    assert!(message.contains("no client connection"), "{message}");
    let v = json(&p.send(r#"{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"plain","arguments":{},"requestState":"x"}}"#));
    assert_eq!(
        v["result"]["messages"][0]["content"]["text"].as_str(),
        Some("hi")
    );
}

#[test]
fn the_handshake_era_ignores_the_retry_members() {
    let mut p = Pair::new();
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    p.send(init);
    let line = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"left":1,"right":2},"requestState":"forged","inputResponses":{}}}"#;
    let v = json(&p.send(line));
    assert_eq!(v["result"]["structuredContent"]["result"].as_i64(), Some(3));
    // A tool asking through `handle_line` has no connection to send the request on.
    let line = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"order","arguments":{"item":"x"}}}"#;
    let v = json(&p.send(line));
    assert_eq!(v["result"]["isError"].as_bool(), Some(true));
    assert!(v["result"].get("resultType").is_none());
    // Forcing an input-required end in the handshake era gives a tool error.
    let line = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"steps","arguments":{}}}"#;
    let v = json(&p.send(line));
    assert_eq!(v["result"]["isError"].as_bool(), Some(true), "{v:?}");
}

/// The next frame, as text.
async fn next(frames: &mut tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>) -> String {
    let frame = tokio::time::timeout(Duration::from_secs(5), frames.recv())
        .await
        .expect("a frame in time")
        .expect("a frame");
    String::from_utf8(frame).unwrap()
}

#[tokio::test]
async fn through_a_connection_in_the_modern_era() {
    let mut c = Connection::new(Arc::new(shop()));
    let (out, mut frames) = Outbox::channel();
    c.handle(
        call(1, "ship", r#"{"item":"tea"}"#, "", ALL).as_bytes(),
        out,
    );
    let (first, state) = without_state(&next(&mut frames).await);
    assert!(first.starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"quantity":"#), "{first}");
    let (out, mut frames) = Outbox::channel();
    c.handle(
        call(
            2,
            "ship",
            r#"{"item":"tea"}"#,
            &retry(
                r#"{"quantity":{"action":"accept","content":{"count":1}}}"#,
                &state,
            ),
            ALL,
        )
        .as_bytes(),
        out,
    );
    let (_, state) = without_state(&next(&mut frames).await);
    let (out, mut frames) = Outbox::channel();
    c.handle(
        call(
            3,
            "ship",
            r#"{"item":"tea"}"#,
            &retry(
                r#"{"address":{"action":"accept","content":{"street":"Main"}}}"#,
                &state,
            ),
            ALL,
        )
        .as_bytes(),
        out,
    );
    assert_eq!(text(&next(&mut frames).await), "1 tea to Main");
    // A refused state, before the tool runs.
    let (out, mut frames) = Outbox::channel();
    c.handle(
        call(
            4,
            "ship",
            r#"{"item":"tea"}"#,
            &retry("{}", &tampered(&state)),
            ALL,
        )
        .as_bytes(),
        out,
    );
    assert!(next(&mut frames)
        .await
        .contains(r#""error":{"code":-32602,"message":"Invalid or expired requestState"}"#));
    // No request goes to the client in this era.
    assert_eq!(c.requests_waiting(), 0);
}

#[tokio::test]
async fn the_handshake_era_asks_through_elicitation() {
    let mut c = Connection::new(Arc::new(shop()));
    let (out, mut frames) = Outbox::channel();
    c.handle(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}}"#, out);
    next(&mut frames).await;
    let (out, mut frames) = Outbox::channel();
    c.handle(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"order","arguments":{"item":"plums"}}}"#, out);
    // The same tool sends `elicitation/create` (no `mode`, as `Context::elicit` sends it).
    let request = next(&mut frames).await;
    assert_eq!(
        request,
        r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"How many plums?","requestedSchema":{"type":"object","properties":{"count":{"type":"integer","minimum":0,"maximum":4294967295}},"required":["count"]}}}"#
    );
    let (out, _) = Outbox::channel();
    c.handle(
        br#"{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"count":4}}}"#,
        out,
    );
    let response = next(&mut frames).await;
    assert_eq!(
        response,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ordered 4 plums"}],"isError":false}}"#
    );
    // Several requests: sent one after the other.
    let (out, mut frames) = Outbox::channel();
    c.handle(br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ship","arguments":{"item":"tea"}}}"#, out);
    assert!(next(&mut frames).await.contains(r#""message":"How many?""#));
    let (out, _) = Outbox::channel();
    c.handle(
        br#"{"jsonrpc":"2.0","id":2,"result":{"action":"accept","content":{"count":2}}}"#,
        out,
    );
    assert!(next(&mut frames).await.contains(r#""message":"Where to?""#));
    let (out, _) = Outbox::channel();
    c.handle(
        br#"{"jsonrpc":"2.0","id":3,"result":{"action":"accept","content":{"street":"Elm"}}}"#,
        out,
    );
    assert!(next(&mut frames).await.contains(r#""text":"2 tea to Elm""#));
    // A capability the client did not declare: a tool error (the handshake era's way).
    let (out, mut frames) = Outbox::channel();
    c.handle(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"survey","arguments":{}}}"#, out);
    assert!(next(&mut frames)
        .await
        .contains(r#""message":"Your street?""#));
    let (out, _) = Outbox::channel();
    c.handle(
        br#"{"jsonrpc":"2.0","id":4,"result":{"action":"accept","content":{"street":"Elm"}}}"#,
        out,
    );
    let response = next(&mut frames).await;
    assert!(response.contains(r#""isError":true"#), "{response}");
    assert!(
        response.contains("the client did not declare the sampling capability"),
        "{response}"
    );
}
