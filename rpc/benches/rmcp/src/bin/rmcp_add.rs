//! rmcp 3.11 (the official Rust SDK) serving the tools of `rpc/examples/mcp_server.rs` that the
//! benchmarks call: `add {left, right}` -> structured `{"result": left + right}`, and
//! `slow {steps, ms}` (sleeps `steps` x `ms` milliseconds, then `{"done": steps}`: the calls in
//! flight of the memory measurement). Over stdio by default; `--http ADDR` serves Streamable
//! HTTP at `http://ADDR/mcp` (rmcp's defaults: sessions, SSE responses), `--http-stateless
//! ADDR` without sessions and with `json_response` (plain JSON answers where nothing streams).

use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{schemars, tool, tool_router, ServiceExt};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    left: i32,
    right: i32,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum {
    result: i32,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Slow {
    steps: u32,
    ms: u64,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Done {
    done: u32,
}

#[derive(Clone)]
struct Bench;

#[tool_router(server_handler)]
impl Bench {
    #[tool(description = "Adds two integers")]
    fn add(&self, Parameters(Add { left, right }): Parameters<Add>) -> Result<Json<Sum>, String> {
        left.checked_add(right)
            .map(|result| Json(Sum { result }))
            .ok_or_else(|| "overflow".to_string())
    }

    #[tool(description = "Sleeps steps x ms milliseconds")]
    async fn slow(&self, Parameters(Slow { steps, ms }): Parameters<Slow>) -> Json<Done> {
        for _ in 0..steps {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
        Json(Done { done: steps })
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match args.as_slice() {
        [] => runtime.block_on(async {
            let service = Bench.serve(rmcp::transport::stdio()).await?;
            service.waiting().await?;
            Ok(())
        }),
        [flag, addr] if flag == "--http" => {
            runtime.block_on(serve_http(addr, StreamableHttpServerConfig::default()))
        }
        [flag, addr] if flag == "--http-stateless" => {
            let config = StreamableHttpServerConfig::default()
                .with_legacy_session_mode(false)
                .with_json_response(true);
            runtime.block_on(serve_http(addr, config))
        }
        _ => Err("usage: rmcp_add [--http ADDR | --http-stateless ADDR]".into()),
    }
}

async fn serve_http(
    addr: &str,
    config: StreamableHttpServerConfig,
) -> Result<(), Box<dyn std::error::Error>> {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    use hyper_util::server::conn::auto::Builder;
    use hyper_util::service::TowerToHyperService;
    let service = TowerToHyperService::new(StreamableHttpService::new(
        || Ok(Bench),
        Arc::new(LocalSessionManager::default()),
        config,
    ));
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("rmcp_add: http://{}/mcp", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        // As axum::serve does: small SSE writes are not held back for the peer's ACK.
        stream.set_nodelay(true)?;
        let service = service.clone();
        tokio::spawn(async move {
            let _ = Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
