//! An MCP server over stdio (or, with `--http ADDR` and the feature `http`, over Streamable
//! HTTP at `http://ADDR/mcp`) with six tools (and a seventh added and removed while it
//! serves), two resources, a prompt and a completion:
//!
//! - `add`: arguments `{"left": i32, "right": i32}`, result `{"result": left + right}`
//!   (structured content); listed with the title `Add two integers` and the hint
//!   `readOnlyHint: true`;
//! - `search`: arguments `{"query": string of 1 to 64 characters, "limit": integer 1..=100}`,
//!   result a list of `limit` strings (as structured content `{"result": [...]}`);
//! - `greet`: arguments `{"name": string}`, result the plain text `Hello, NAME!` (one text
//!   block, no structured content);
//! - `slow`: arguments `{"steps": 1..=100, "ms": 0..=10000}`: sleeps `ms` milliseconds per
//!   step, reports progress after each step (`progress` = the step, `total` = `steps`) when
//!   the request carries a `progressToken`, returns `{"done": steps}`; a cancelled call stops
//!   at the next step (and is not answered). Calls run concurrently: `ping` and other calls
//!   are answered while it sleeps;
//! - `extras`: arguments `{"on": bool}`: adds (`true`) or removes (`false`) the tool `echo`
//!   (arguments `{"text": string}`, result the plain text `text`) while the server serves,
//!   through its [`LiveTools`] handle; the result is the plain text `changed` or `unchanged`.
//!   Each change is announced with `notifications/tools/list_changed`: to a client of the
//!   handshake era on its session stream, to a client of revision 2026-07-28 on its
//!   `subscriptions/listen` stream if it asked for `toolsListChanged`;
//! - `order`: arguments `{"item": string}`: asks the user how many (a form of one member,
//!   `{"quantity": integer 1..=99}`) and returns the text `ordered N ITEM` (`no order` when
//!   the user declines or cancels). The same code serves both eras: in the handshake
//!   revisions it sends `elicitation/create` to the client and awaits the answer; in revision
//!   2026-07-28 the call ends with an `InputRequiredResult` and the client retries it with the
//!   answer (`inputResponses`) and the sealed `requestState`;
//! - the resource `test://static/readme` (text, `text/plain`) and the template
//!   `test://items/{id}` (`id` a number from 1 to 100: `{"id": id}` as `application/json`;
//!   another `id` is not found);
//! - the prompt `review`, arguments `code` (required) and `language` (optional), whose
//!   `language` completes from a short list.
//!
//! Run: `cargo run --release -p structio-rpc --example mcp_server`, then write JSON-RPC
//! messages to its stdin, one per line:
//!
//! ```text
//! {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}
//! {"jsonrpc":"2.0","method":"notifications/initialized"}
//! {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"left":2,"right":3}}}
//! ```
//!
//! Over HTTP: `cargo run --release -p structio-rpc --features http --example mcp_server --
//! --http 127.0.0.1:8000`, then POST the same messages to `http://127.0.0.1:8000/mcp` (see
//! the crate's README).

use structio_rpc::mcp::{
    CompletionRequest, Context, Elicitation, LiveTools, PromptMessage, ResourceContents,
    ResourceError, ResourceOptions, ResourceRequest, Server, ToolAnnotations, ToolError,
    ToolOptions,
};

/// The arguments of `add`.
#[derive(structio::Reflect)]
struct Add {
    left: i32,
    right: i32,
}

/// The result of `add`.
#[derive(structio::Reflect)]
struct Sum {
    result: i32,
}

/// The arguments of `search`: the constraints are checked when the arguments are read (a
/// call that breaks them gets a tool execution error naming each member), and appear in the
/// tool's input schema.
#[derive(structio::Reflect)]
struct Search {
    #[structio(length(min = 1, max = 64))]
    query: String,
    #[structio(range(min = 1, max = 100))]
    limit: u32,
}

/// The arguments of `slow`.
#[derive(structio::Reflect)]
struct Slow {
    #[structio(range(min = 1, max = 100))]
    steps: u32,
    #[structio(range(min = 0, max = 10000))]
    ms: u64,
}

/// The result of `slow`.
#[derive(structio::Reflect)]
struct Done {
    done: u32,
}

/// `slow`: `steps` sleeps of `ms` milliseconds, a progress notification after each; stops
/// when the call is cancelled.
async fn slow(ctx: Context, s: Slow) -> Result<Done, ToolError> {
    for step in 1..=s.steps {
        tokio::select! {
            () = tokio::time::sleep(std::time::Duration::from_millis(s.ms)) => {}
            () = ctx.cancelled() => return Err(ToolError::new("cancelled")),
        }
        ctx.progress(step, Some(f64::from(s.steps)), None);
    }
    Ok(Done { done: s.steps })
}

/// The arguments of `order`.
#[derive(structio::Reflect)]
struct Order {
    item: String,
}

/// What `order` asks the user: the form's one member.
#[derive(structio::Reflect)]
struct Quantity {
    #[structio(range(min = 1, max = 99))]
    quantity: u32,
}

/// `order`: asks how many, in either era (see the module's documentation).
async fn order(ctx: Context, o: Order) -> Result<String, ToolError> {
    let message = format!("How many {} do you want?", o.item);
    Ok(match ctx.ask::<Quantity>("quantity", &message).await? {
        Elicitation::Accept(q) => format!("ordered {} {}", q.quantity, o.item),
        Elicitation::Decline | Elicitation::Cancel => "no order".to_owned(),
    })
}

/// The arguments of `greet`.
#[derive(structio::Reflect)]
struct Greet {
    name: String,
}

fn add(a: Add) -> Result<Sum, ToolError> {
    match a.left.checked_add(a.right) {
        Some(result) => Ok(Sum { result }),
        None => Err(ToolError::new("the sum does not fit in a 32-bit integer")),
    }
}

fn search(s: Search) -> Result<Vec<String>, ToolError> {
    Ok((1..=s.limit)
        .map(|i| format!("{} result {i}", s.query))
        .collect())
}

/// The arguments of the prompt `review`: the members' doc comments are the arguments'
/// descriptions, and `language`, an `Option`, is not required.
#[derive(structio::Reflect)]
struct Review {
    /// The code to review
    code: String,
    /// The language it is written in
    language: Option<String>,
}

/// The prompt `review`: one message of the user.
fn review(r: Review) -> Result<Vec<PromptMessage>, ToolError> {
    let language = r.language.unwrap_or_else(|| "code".to_owned());
    Ok(vec![PromptMessage::user(format!(
        "Please review this {language}:\n\n{}",
        r.code
    ))])
}

/// The languages `review`'s `language` completes to: those starting with what was typed.
fn languages(r: &CompletionRequest<'_>) -> Vec<String> {
    ["python", "perl", "rust", "ruby", "c", "cpp"]
        .iter()
        .filter(|l| l.starts_with(r.value()))
        .map(|l| l.to_string())
        .collect()
}

/// The item of `test://items/{id}`: `id` from 1 to 100.
fn item(r: &ResourceRequest<'_>) -> Result<ResourceContents, ResourceError> {
    match r.variable("id").and_then(|id| id.parse::<u32>().ok()) {
        Some(id @ 1..=100) => Ok(ResourceContents::text(r.uri(), format!("{{\"id\":{id}}}"))),
        _ => Err(ResourceError::not_found()),
    }
}

/// The arguments of `extras`.
#[derive(structio::Reflect)]
struct Extras {
    on: bool,
}

/// The arguments of `echo`.
#[derive(structio::Reflect)]
struct Echo {
    text: String,
}

/// `extras`: adds or removes `echo` through the server's live tools; whether that changed
/// the tools.
fn extras(tools: &LiveTools, e: Extras) -> Result<String, ToolError> {
    let changed = if e.on {
        tools
            .add("echo", "Says `text` back", |t: Echo| {
                Ok::<_, ToolError>(t.text)
            })
            .is_ok()
    } else {
        tools.remove("echo")
    };
    Ok(if changed { "changed" } else { "unchanged" }.to_owned())
}

/// A `String` result is sent as one plain text block.
fn greet(g: Greet) -> Result<String, ToolError> {
    Ok(format!("Hello, {}!", g.name))
}

fn main() {
    let mut server = Server::new("structio-example", env!("CARGO_PKG_VERSION"))
        .tool_with(
            "add",
            "Adds two integers",
            ToolOptions::new()
                .title("Add two integers")
                .annotations(ToolAnnotations::new().read_only(true)),
            add,
        )
        .tool(
            "search",
            "Returns `limit` (1 to 100) results for `query` (1 to 64 characters)",
            search,
        )
        .tool("greet", "Greets `name`", greet)
        .tool(
            "slow",
            "Sleeps `ms` milliseconds (0 to 10000) `steps` times (1 to 100), reporting progress after each step; returns {\"done\": steps}",
            slow,
        )
        .tool(
            "order",
            "Orders `item`: asks the user how many (elicitation), in either protocol era",
            order,
        )
        .resource(
            "test://static/readme",
            "readme",
            ResourceOptions::new()
                .title("Read me")
                .description("What this server is")
                .mime_type("text/plain"),
            |r| {
                Ok(ResourceContents::text(
                    r.uri(),
                    "An example MCP server written with structio-rpc.",
                ))
            },
        )
        .resource_template(
            "test://items/{id}",
            "item",
            ResourceOptions::new()
                .description("Item `id`, from 1 to 100")
                .mime_type("application/json"),
            item,
        )
        .prompt("review", "Asks for a review of some code", review)
        .complete_prompt_argument("review", "language", languages);
    // Tools added and removed while serving: the handle is shared with `extras`.
    let tools = server.live_tools();
    server = server.tool(
        "extras",
        "Adds (on: true) or removes (on: false) the tool `echo`; returns whether that changed the tools",
        move |e: Extras| extras(&tools, e),
    );
    // A tool that could not be added (a bad or taken name) would make `serve_stdio` fail
    // before serving; `check` tells it first.
    if let Err(e) = server.check() {
        eprintln!("mcp_server: {e}");
        std::process::exit(2);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let served = match args.as_slice() {
        [] => {
            eprintln!(
                "mcp_server: serving {} tools on stdio",
                server.tool_names().count()
            );
            server.serve_stdio()
        }
        [flag, addr] if flag == "--http" => serve_http(&mut server, addr),
        _ => {
            eprintln!(
                "usage: mcp_server [--http ADDR]: serves MCP over stdin and stdout, or with \
                 --http over Streamable HTTP at http://ADDR/mcp (feature `http`); got {args:?}"
            );
            std::process::exit(2);
        }
    };
    if let Err(e) = served {
        eprintln!("mcp_server: {e}");
        std::process::exit(1);
    }
}

/// `--http ADDR`: the server at `http://ADDR/mcp`, until the process is ended.
#[cfg(feature = "http")]
fn serve_http(server: &mut Server, addr: &str) -> std::io::Result<()> {
    eprintln!(
        "mcp_server: serving {} tools at http://{addr}/mcp",
        server.tool_names().count()
    );
    server.serve_http(addr)
}

/// `--http ADDR` without the `http` feature: refused.
#[cfg(not(feature = "http"))]
fn serve_http(_: &mut Server, _: &str) -> std::io::Result<()> {
    eprintln!("mcp_server: --http needs the `http` feature (--features http)");
    std::process::exit(2);
}
