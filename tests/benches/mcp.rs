//! MCP server benchmark against the real binary: tool-call round trip over stdio and over HTTP
//! (p50/p99), calls per second and p99 over HTTP with 8 concurrent clients without and with a
//! bearer token, p99 of a cheap call while another client runs slow SPARQL, how long four runaway
//! queries sent at once take to be answered, time from the end
//! of a rebuild to the first answer from the new build, time from process start to the first
//! `server/discover` answer, and idle RSS. `scripts/bench` runs it on the HPO index
//! (`ONTORESOLVE_BENCH_INDEX`); the rebuild uses `ONTORESOLVE_BENCH_CATALOG` when set.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[allow(dead_code)]
#[path = "../integration/http_client.rs"]
mod http_client;
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

const TOKEN: &str = "bench-token-0123456789abcdef";

/// A server on `index`; `--rate-limit 0` so that the load measures the server, not the limit.
fn http_server_on(index: &str, port: u16, token: bool) -> Child {
    let mut command = Command::new(binary());
    command
        .args([
            "serve",
            "--index",
            index,
            "--http",
            &format!("127.0.0.1:{port}"),
        ])
        .args(["--rate-limit", "0"])
        .env_remove("ONTORESOLVE_AUTH_TOKEN")
        .stderr(Stdio::null());
    if token {
        command.env("ONTORESOLVE_AUTH_TOKEN", TOKEN);
    }
    let child = command.spawn().expect("spawn");
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        std::thread::sleep(Duration::from_millis(10));
    }
    child
}

fn http_server(port: u16) -> Child {
    http_server_on(&index(), port, false)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("port")
        .port()
}

/// One keep-alive HTTP/1.1 connection (the tests' `http_client::Conn`), remembering the status
/// of its last answer.
struct Conn {
    conn: http_client::Conn,
    /// The status of the last answer (0 when the server closed the connection instead).
    status: u16,
}

impl Conn {
    /// A connection, sending the bench's bearer token when `token` is set.
    fn new(port: u16, token: bool) -> Conn {
        Conn {
            conn: http_client::Conn::new(port, token.then_some(TOKEN)),
            status: 0,
        }
    }

    fn post(&mut self, body: &str) -> usize {
        self.post_body(body).len()
    }

    /// Posts a tools/call and returns the answer's body.
    fn post_body(&mut self, body: &str) -> Vec<u8> {
        let tool = body
            .split("\"name\":\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or("resolve_identifier")
            .to_string();
        match self.conn.call_raw(&tool, body) {
            Ok((status, body)) => {
                self.status = status;
                body
            }
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                self.status = 0;
                Vec::new()
            }
            Err(e) => panic!("tools/call over HTTP: {e}"),
        }
    }
}

/// 8 clients, each on its own keep-alive connection, for `per_client` calls: calls per second
/// and the latency percentiles of every call. Any answer other than 200 is counted as failed.
fn load(port: u16, token: bool, per_client: usize, label: &str) {
    let clients = 8;
    let ids = ids();
    let start = Instant::now();
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            let ids = ids.clone();
            std::thread::spawn(move || {
                let mut conn = Conn::new(port, token);
                let mut samples = Vec::with_capacity(per_client);
                let mut failed = 0;
                for i in 0..per_client {
                    let t = Instant::now();
                    conn.post(&call(i as u64, &ids[(i + c * 17) % ids.len()]));
                    samples.push(t.elapsed());
                    if conn.status != 200 {
                        failed += 1;
                    }
                }
                (samples, failed)
            })
        })
        .collect();
    let mut samples = Vec::new();
    let mut failed = 0;
    for t in threads {
        let (s, f) = t.join().expect("client thread");
        samples.extend(s);
        failed += f;
    }
    let elapsed = start.elapsed();
    println!(
        "{:<44} {:.0} calls/s ({} calls in {:.2?}, {failed} failed)",
        format!("HTTP throughput, {clients} clients, {label}"),
        samples.len() as f64 / elapsed.as_secs_f64(),
        samples.len(),
        elapsed
    );
    report(&format!("HTTP latency under that load, {label}"), samples);
}

/// The p99 of a cheap call while another client keeps the server busy with SPARQL that runs
/// into its deadline.
fn cheap_call_beside_slow_queries(port: u16) {
    let slow = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"sparql_query","arguments":{{"query":"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH ?g {{ ?a ?b ?c . ?d ?e ?f }} }}"}},{META}}}}}"#
    );
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let slow_client = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut conn = Conn::new(port, false);
            let mut answers = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let body = conn.post_body(&slow);
                answers += usize::from(String::from_utf8_lossy(&body).contains("timeout"));
            }
            answers
        })
    };
    std::thread::sleep(Duration::from_millis(500));
    let ids = ids();
    let mut conn = Conn::new(port, false);
    let mut samples = Vec::new();
    let started = Instant::now();
    let mut i = 0;
    while started.elapsed() < Duration::from_secs(12) {
        let t = Instant::now();
        conn.post(&call(i as u64, &ids[i % ids.len()]));
        samples.push(t.elapsed());
        i += 1;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let timeouts = slow_client.join().expect("slow client");
    report("cheap call beside slow SPARQL (HTTP)", samples);
    println!("{:<44} {timeouts}", "slow queries stopped with `timeout`");
}

/// Four runaway SPARQL queries sent at once, from four clients, while four other connections
/// keep calling: how long after it was sent each is answered. The deadline (5 s) counts from
/// arrival, so a query that waits for one of the two query places is answered at it, not 5 s
/// after it starts.
fn runaway_queries_at_once(port: u16) {
    let runaway = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"sparql_query","arguments":{{"query":"SELECT (COUNT(*) AS ?n) WHERE {{ ?a ?b ?c . ?d ?e ?f }}"}},{META}}}}}"#
    );
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let loaders: Vec<_> = (0..4)
        .map(|c| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let ids = ids();
                let mut conn = Conn::new(port, false);
                let mut i = c * 101;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    conn.post(&call(i as u64, &ids[i % ids.len()]));
                    i += 1;
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut samples = Vec::new();
    let mut stopped = 0;
    for _round in 0..3 {
        let queries: Vec<_> = (0..4u8)
            .map(|n| {
                let runaway = runaway.clone();
                std::thread::spawn(move || {
                    let headers = [
                        ("MCP-Protocol-Version", "2026-07-28"),
                        ("Mcp-Method", "tools/call"),
                        ("Mcp-Name", "sparql_query"),
                    ];
                    let sent = Instant::now();
                    let source = std::net::Ipv4Addr::new(127, 0, 3, n + 1);
                    let (_, _, body) = http_client::post_from(source, port, &headers, &runaway);
                    (sent.elapsed(), body.contains("timeout"))
                })
            })
            .collect();
        for q in queries {
            let (took, timeout) = q.join().expect("query thread");
            samples.push(took);
            stopped += usize::from(timeout);
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for l in loaders {
        let _ = l.join();
    }
    report("runaway SPARQL, 4 at once, sent to answered", samples);
    println!(
        "{:<44} {stopped} of 12",
        "runaway queries answered `timeout`"
    );
}

/// The peer: the Python MCP SDK's server (`peer_server.py`) with the same tool shape over the
/// same HPO data, under the same 8-client load, without and with a token.
fn peer_load() {
    let python = std::env::var("ONTORESOLVE_BENCH_PYTHON")
        .unwrap_or_else(|_| "/var/tmp/ontoresolve-venv/bin/python".into());
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/benches/peer_server.py");
    let hpo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ontologies/hp-2025-01-16.obo.gz");
    if !std::path::Path::new(&python).exists() {
        println!(
            "{:<44} skipped (no Python with mcp at {python})",
            "peer (Python MCP SDK)"
        );
        return;
    }
    for token in [false, true] {
        let port = free_port();
        let mut command = Command::new(&python);
        command
            .arg(&script)
            .arg(port.to_string())
            .arg(&hpo)
            .stderr(Stdio::null());
        command.env_remove("ONTORESOLVE_AUTH_TOKEN");
        if token {
            command.env("ONTORESOLVE_AUTH_TOKEN", TOKEN);
        }
        let mut peer = command.spawn().expect("spawn the peer");
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "peer did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let label = if token {
            "peer, bearer token"
        } else {
            "peer, no token"
        };
        load(port, token, 400, label);
        let _ = peer.kill();
        let _ = peer.wait();
    }
}

/// From the moment `ontoresolve build` exits to the first answer naming the new build.
fn reload_latency() {
    let Ok(catalog) = std::env::var("ONTORESOLVE_BENCH_CATALOG") else {
        println!(
            "{:<44} skipped (ONTORESOLVE_BENCH_CATALOG not set)",
            "reload latency"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("ontoresolve-bench-reload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let index = dir.join("index");
    let build = |n: usize| {
        let text = std::fs::read_to_string(&catalog).expect("catalogue");
        let edited = dir.join(format!("catalog-{n}.toml"));
        std::fs::create_dir_all(&dir).expect("dir");
        // A comment changes nothing; a title does, and so the build id.
        std::fs::write(
            &edited,
            text.replacen("title = \"", &format!("title = \"[{n}] "), 1),
        )
        .expect("write");
        let status = Command::new(binary())
            .args(["build", "--sources"])
            .arg(&edited)
            .arg("--index")
            .arg(&index)
            .stderr(Stdio::null())
            .status()
            .expect("build");
        assert!(status.success());
    };
    build(0);
    let port = free_port();
    let mut server = http_server_on(index.to_str().expect("utf-8"), port, false);
    let list = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"list_sources","arguments":{{}},{META}}}}}"#
    );
    let mut conn = Conn::new(port, false);
    let build_of = |conn: &mut Conn| {
        let body = String::from_utf8_lossy(&conn.post_body(&list)).into_owned();
        body.split("\"index\":\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or_default()
            .to_string()
    };
    let mut samples = Vec::new();
    for n in 1..=5 {
        let before = build_of(&mut conn);
        build(n);
        let t = Instant::now();
        while build_of(&mut conn) == before {
            assert!(t.elapsed() < Duration::from_secs(10), "no reload");
        }
        samples.push(t.elapsed());
    }
    report("end of rebuild to first answer from it", samples);
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

fn http_benchmarks() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("port")
        .port();
    let mut server = http_server(port);
    let mut conn = Conn::new(port, false);
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
    load(port, false, 2500, "no token");
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
    cheap_call_beside_slow_queries(port);
    runaway_queries_at_once(port);
    let _ = server.kill();
    let _ = server.wait();

    let port = free_port();
    let mut server = http_server_on(&index(), port, true);
    load(port, true, 2500, "bearer token");
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
    peer_load();
    reload_latency();
}
