//! MCP server benchmark against the real binary: tool-call round trip over stdio and over HTTP
//! (p50/p99), calls per second over HTTP with 8 concurrent clients, time from process start to
//! the first `server/discover` answer, and idle RSS. `scripts/bench` runs it on the HPO index
//! (`ONTORESOLVE_BENCH_INDEX`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[path = "timing.rs"]
mod timing;
use timing::report;

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into()))
        .join("release/ontoresolve")
}

fn index() -> String {
    std::env::var("ONTORESOLVE_BENCH_INDEX").unwrap_or_else(|_| "index".into())
}

fn call(id: u64, identifier: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"resolve_identifier","arguments":{{"identifier":"{identifier}"}},{META}}}}}"#
    )
}

/// `serve` over stdio, with pipes for stdin and stdout.
fn spawn_stdio() -> Child {
    Command::new(binary())
        .args(["serve", "--index", &index()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn")
}

fn ids() -> Vec<String> {
    (1..=2000).map(|i| format!("HP:{:07}", i * 3)).collect()
}

fn stdio_round_trips() {
    let mut child = spawn_stdio();
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let mut samples = Vec::new();
    for (i, id) in ids().iter().enumerate() {
        let t = Instant::now();
        writeln!(stdin, "{}", call(i as u64, id)).expect("write");
        line.clear();
        stdout.read_line(&mut line).expect("read");
        if i >= 100 {
            samples.push(t.elapsed());
        }
    }
    report("tools/call round trip over stdio", samples);
    drop(stdin);
    let _ = child.wait();
}

fn http_server(port: u16) -> Child {
    let child = Command::new(binary())
        .args([
            "serve",
            "--index",
            &index(),
            "--http",
            &format!("127.0.0.1:{port}"),
        ])
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        std::thread::sleep(Duration::from_millis(10));
    }
    child
}

/// One keep-alive HTTP/1.1 connection.
struct Conn {
    reader: BufReader<TcpStream>,
    port: u16,
}

impl Conn {
    fn new(port: u16) -> Conn {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        stream.set_nodelay(true).ok();
        Conn {
            reader: BufReader::new(stream),
            port,
        }
    }

    fn post(&mut self, body: &str) -> usize {
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: resolve_identifier\r\nContent-Length: {}\r\n\r\n{body}",
            self.port,
            body.len()
        );
        self.reader
            .get_mut()
            .write_all(request.as_bytes())
            .expect("write");
        let mut length = 0;
        let mut line = String::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line).expect("read header");
            if line == "\r\n" || line.is_empty() {
                break;
            }
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).expect("read body");
        length
    }
}

fn http_benchmarks() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("port")
        .port();
    let mut server = http_server(port);
    let mut conn = Conn::new(port);
    let ids = ids();
    let mut samples = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let t = Instant::now();
        assert!(conn.post(&call(i as u64, id)) > 0);
        if i >= 100 {
            samples.push(t.elapsed());
        }
    }
    report("tools/call round trip over HTTP", samples);

    let clients = 8;
    let per_client = 2500;
    let start = Instant::now();
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            let ids = ids.clone();
            std::thread::spawn(move || {
                let mut conn = Conn::new(port);
                for i in 0..per_client {
                    conn.post(&call(i as u64, &ids[(i + c * 17) % ids.len()]));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("client thread");
    }
    let elapsed = start.elapsed();
    println!(
        "{:<44} {:.0} calls/s ({} calls in {:.2?})",
        format!("HTTP throughput, {clients} concurrent clients"),
        (clients * per_client) as f64 / elapsed.as_secs_f64(),
        clients * per_client,
        elapsed
    );
    std::thread::sleep(Duration::from_secs(2));
    let rss = std::fs::read_to_string(format!("/proc/{}/status", server.id()))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .map(|l| l.to_string())
        })
        .unwrap_or_default();
    println!(
        "{:<44} {}",
        "server RSS after the load (HTTP)",
        rss.trim_start_matches("VmRSS:").trim()
    );
    let _ = server.kill();
    let _ = server.wait();
}

fn first_discover_and_idle_rss() {
    let discover =
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{META}}}}}"#);
    let mut samples = Vec::new();
    let mut idle = String::new();
    for round in 0..20 {
        let t = Instant::now();
        let mut child = spawn_stdio();
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(stdin, "{discover}").expect("write");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("read");
        samples.push(t.elapsed());
        if round == 0 {
            std::thread::sleep(Duration::from_secs(1));
            idle = std::fs::read_to_string(format!("/proc/{}/status", child.id()))
                .ok()
                .and_then(|s| {
                    s.lines()
                        .find(|l| l.starts_with("VmRSS:"))
                        .map(|l| l.to_string())
                })
                .unwrap_or_default();
        }
        drop(stdin);
        let _ = child.wait();
    }
    report("process start to first discover answer", samples);
    println!(
        "{:<44} {}",
        "idle RSS (stdio, after discover)",
        idle.trim_start_matches("VmRSS:").trim()
    );
}

fn main() {
    first_discover_and_idle_rss();
    stdio_round_trips();
    http_benchmarks();
}
