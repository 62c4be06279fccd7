//! The transport with a core that streams: a request answered with notifications and then its
//! response goes out as an SSE stream; a client that goes away in the middle of one does not
//! disturb another.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use super::{serve, HttpCore, HttpOptions};

/// A core that answers every request with two progress notifications, then (after `delay`)
/// the response; a notification with nothing.
struct Streaming {
    delay: Duration,
}

impl HttpCore for Streaming {
    type Session = u32;

    fn open(&self) -> u32 {
        0
    }

    fn post(&self, calls: &mut u32, body: &[u8], frames: mpsc::UnboundedSender<Vec<u8>>) {
        *calls += 1;
        let text = std::str::from_utf8(body).unwrap();
        if !text.contains(r#""id""#) {
            return;
        }
        for n in 1..=2 {
            let note = format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":1,"progress":{n}}}}}"#
            );
            if frames.send(note.into_bytes()).is_err() {
                return;
            }
            std::thread::sleep(self.delay);
        }
        let answer = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"calls":{calls}}}}}"#);
        let _ = frames.send(answer.into_bytes());
    }

    fn listen(&self, _: &mut u32, _: mpsc::UnboundedSender<Vec<u8>>) -> bool {
        false
    }
}

fn start(
    delay: Duration,
) -> (
    std::net::SocketAddr,
    watch::Sender<bool>,
    std::thread::JoinHandle<()>,
) {
    let (tx, rx) = std::sync::mpsc::channel();
    let (stop, stopped) = watch::channel(false);
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            serve(listener, HttpOptions::new(), Streaming { delay }, stopped)
                .await
                .unwrap();
        });
    });
    (rx.recv().unwrap(), stop, thread)
}

/// A stateless (2026-07-28) request, written on a new connection.
fn request(addr: std::net::SocketAddr) -> TcpStream {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#;
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    stream
}

#[test]
fn notifications_then_response_as_sse() {
    let (addr, stop, thread) = start(Duration::from_millis(1));
    let mut raw = String::new();
    request(addr).read_to_string(&mut raw).unwrap();
    assert!(raw.starts_with("HTTP/1.1 200"), "{raw}");
    assert!(raw.contains("content-type: text/event-stream"), "{raw}");
    let events: Vec<&str> = raw
        .match_indices("data: ")
        .map(|(i, _)| &raw[i + 6..])
        .collect();
    assert_eq!(events.len(), 3, "{raw}");
    assert!(events[0].starts_with(r#"{"jsonrpc":"2.0","method":"notifications/progress""#));
    assert!(events[2].starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"calls":1}}"#));
    assert!(raw.contains("event: message\n"));
    stop.send(true).unwrap();
    thread.join().unwrap();
}

#[test]
fn client_gone_mid_stream() {
    let (addr, stop, thread) = start(Duration::from_millis(100));
    {
        // Reads the head and the first event, then goes away.
        let mut stream = request(addr);
        let mut buf = [0u8; 256];
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0);
    }
    let mut raw = String::new();
    request(addr).read_to_string(&mut raw).unwrap();
    assert!(raw.contains(r#""result":{"calls":1}"#), "{raw}");
    stop.send(true).unwrap();
    thread.join().unwrap();
}
