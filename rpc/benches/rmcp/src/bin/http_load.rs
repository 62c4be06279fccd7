//! The HTTP load generator of the MCP benchmarks: drives a Streamable HTTP MCP server (ours,
//! `mcp_server --http ADDR`, or rmcp's, `rmcp_add --http ADDR`) at `URL` with keep-alive
//! HTTP/1.1 connections, each its own MCP session (revision 2025-11-25: `initialize`, its
//! `Mcp-Session-Id`, `notifications/initialized`), then `tools/call` of `add`, one call at a
//! time per connection. Prints calls per second and the latency percentiles.
//!
//! ```text
//! http_load URL [--conns C] [--calls N]          # N calls (default 100000) over C connections (1)
//! http_load URL --sessions K --pid PID           # the server's resident memory per idle session
//! http_load URL --inflight K --pid PID [--ms M]  # ... per call in flight (K `slow` calls of M ms)
//! ```
//!
//! Every answer is checked (HTTP 200, a JSON-RPC result for the call's id, `"isError":false`),
//! whether the server answers `application/json` or a `text/event-stream`.

use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::Request;
use hyper_util::rt::TokioIo;

type Failure = Box<dyn std::error::Error + Send + Sync>;

/// One keep-alive connection and the MCP session on it.
struct Session {
    send: SendRequest<Full<Bytes>>,
    host: String,
    path: String,
    id: Option<String>,
}

impl Session {
    async fn connect(url: &Url) -> Result<Session, Failure> {
        let stream = tokio::net::TcpStream::connect(&url.authority).await?;
        stream.set_nodelay(true)?;
        let (send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(conn);
        Ok(Session {
            send,
            host: url.authority.clone(),
            path: url.path.clone(),
            id: None,
        })
    }

    /// POSTs `body`; returns the status and the whole response body.
    async fn post(&mut self, body: String) -> Result<(u16, Vec<u8>, Option<String>), Failure> {
        let mut req = Request::post(&self.path)
            .header("host", &self.host)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if let Some(id) = &self.id {
            req = req
                .header("mcp-session-id", id)
                .header("mcp-protocol-version", "2025-11-25");
        }
        self.send.ready().await?;
        let res = self
            .send
            .send_request(req.body(Full::new(Bytes::from(body)))?)
            .await?;
        let status = res.status().as_u16();
        let session = res
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let bytes = res.into_body().collect().await?.to_bytes();
        Ok((status, bytes.to_vec(), session))
    }

    /// `initialize` and `notifications/initialized`.
    async fn open(url: &Url) -> Result<Session, Failure> {
        let mut s = Session::connect(url).await?;
        let (status, body, id) = s
            .post(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"http_load","version":"1"}}}"#.into())
            .await?;
        if status != 200 || !contains(&body, b"\"protocolVersion\"") {
            return Err(format!(
                "initialize: HTTP {status}: {}",
                String::from_utf8_lossy(&body)
            )
            .into());
        }
        s.id = id;
        let (status, body, _) = s
            .post(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into())
            .await?;
        if status != 202 {
            return Err(format!(
                "initialized: HTTP {status}: {}",
                String::from_utf8_lossy(&body)
            )
            .into());
        }
        Ok(s)
    }

    /// Calls `tool` with `arguments` as request `id` and checks the answer.
    async fn call(&mut self, id: u64, tool: &str, arguments: &str) -> Result<(), Failure> {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
        );
        let (status, body, _) = self.post(body).await?;
        let want = format!("\"id\":{id},\"result\"");
        if status != 200
            || !contains(&body, want.as_bytes())
            || !contains(&body, b"\"isError\":false")
        {
            return Err(format!(
                "call {id}: HTTP {status}: {}",
                String::from_utf8_lossy(&body)
            )
            .into());
        }
        Ok(())
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

struct Url {
    authority: String,
    path: String,
}

fn parse_url(url: &str) -> Result<Url, Failure> {
    let rest = url
        .strip_prefix("http://")
        .ok_or("the URL must start with http://")?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    Ok(Url {
        authority: authority.into(),
        path: path.into(),
    })
}

/// The server's resident memory, in KiB.
fn rss_kib(pid: u32) -> Result<u64, Failure> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .ok_or("no VmRSS")?;
    Ok(line.split_whitespace().nth(1).ok_or("VmRSS")?.parse()?)
}

fn flag<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
}

fn main() -> Result<(), Failure> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let url = parse_url(args.first().ok_or("usage: http_load URL [options]")?)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        if let Some(k) = flag::<usize>(&args, "--sessions") {
            let pid = flag(&args, "--pid").ok_or("--sessions needs --pid")?;
            return idle_sessions(&url, k, pid).await;
        }
        if let Some(k) = flag::<usize>(&args, "--inflight") {
            let pid = flag(&args, "--pid").ok_or("--inflight needs --pid")?;
            return in_flight(&url, k, pid, flag(&args, "--ms").unwrap_or(3000)).await;
        }
        let conns = flag(&args, "--conns").unwrap_or(1usize);
        let calls = flag(&args, "--calls").unwrap_or(100_000usize);
        load(&url, conns, calls).await
    })
}

/// `calls` calls of `add` over `conns` connections; prints calls/s and latencies.
async fn load(url: &Url, conns: usize, calls: usize) -> Result<(), Failure> {
    let mut sessions = Vec::new();
    for _ in 0..conns {
        sessions.push(Session::open(url).await?);
    }
    // A short warm-up per connection, not timed.
    for s in &mut sessions {
        for i in 0..20 {
            s.call(1_000_000 + i, "add", r#"{"left":1,"right":2}"#)
                .await?;
        }
    }
    let per = calls / conns;
    let start = Instant::now();
    let mut tasks = Vec::new();
    for mut s in sessions {
        tasks.push(tokio::spawn(async move {
            let mut lat = Vec::with_capacity(per);
            for i in 0..per {
                let t = Instant::now();
                let args = format!(r#"{{"left":{},"right":40}}"#, i % 1000);
                s.call(i as u64 + 1, "add", &args).await?;
                lat.push(t.elapsed());
            }
            Ok::<_, Failure>(lat)
        }));
    }
    let mut lat = Vec::with_capacity(calls);
    for t in tasks {
        lat.extend(t.await??);
    }
    let wall = start.elapsed();
    lat.sort();
    let pct = |p: f64| lat[((lat.len() as f64 * p) as usize).min(lat.len() - 1)];
    println!(
        "conns {conns} calls {} wall {:.3} s  {:.0} calls/s  p50 {:.1} us  p99 {:.1} us  max {:.1} us",
        lat.len(),
        wall.as_secs_f64(),
        lat.len() as f64 / wall.as_secs_f64(),
        us(pct(0.50)),
        us(pct(0.99)),
        us(*lat.last().unwrap()),
    );
    Ok(())
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// Opens `k` sessions (each on its own connection, then closed: the sessions stay) and prints
/// the server's resident memory per session.
async fn idle_sessions(url: &Url, k: usize, pid: u32) -> Result<(), Failure> {
    // One session first, so that what every server allocates once is not counted.
    drop(Session::open(url).await?);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = rss_kib(pid)?;
    let mut open = Vec::with_capacity(k);
    for _ in 0..k {
        open.push(Session::open(url).await?);
    }
    drop(open);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = rss_kib(pid)?;
    println!(
        "idle sessions {k}: RSS {before} -> {after} KiB, {:.2} KiB per session",
        (after as f64 - before as f64) / k as f64
    );
    Ok(())
}

/// Starts `k` calls of `slow` (one step of `ms` milliseconds), each on its own session, and
/// prints the server's resident memory per call in flight while they wait.
async fn in_flight(url: &Url, k: usize, pid: u32, ms: u64) -> Result<(), Failure> {
    let mut sessions = Vec::with_capacity(k);
    for _ in 0..k {
        sessions.push(Session::open(url).await?);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = rss_kib(pid)?;
    let start = Instant::now();
    let mut tasks = Vec::new();
    for (i, mut s) in sessions.into_iter().enumerate() {
        let args = format!(r#"{{"steps":1,"ms":{ms}}}"#);
        tasks.push(tokio::spawn(async move {
            s.call(i as u64 + 1, "slow", &args).await
        }));
    }
    // Half the sleep: every call has arrived and waits.
    tokio::time::sleep(Duration::from_millis(ms / 2)).await;
    let during = rss_kib(pid)?;
    if start.elapsed() >= Duration::from_millis(ms) {
        return Err("the calls were not all in flight when measured: raise --ms".into());
    }
    for t in tasks {
        t.await??;
    }
    println!(
        "calls in flight {k}: RSS {before} -> {during} KiB, {:.2} KiB per call",
        (during as f64 - before as f64) / k as f64
    );
    Ok(())
}
