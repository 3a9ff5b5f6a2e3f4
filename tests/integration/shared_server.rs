//! A server a team shares, driven through the real binary over HTTP: bearer tokens, rate
//! limits, unparsable bodies, refusing a public address without a token, and live reload of a
//! new build with leases keeping builds in use.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::http_client::{post, post_from};
use crate::process::{binary, serve, serve_at};
use crate::support::{build_into, default_index_dir, fixtures, scratch};

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn call_body(tool: &str, arguments: Value) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},{META}}}}}"#
    )
}

fn modern_call(
    port: u16,
    extra: &[(&str, &str)],
    tool: &str,
    arguments: Value,
) -> (u16, String, String) {
    let mut headers = vec![
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", tool),
    ];
    headers.extend_from_slice(extra);
    post(port, &headers, &call_body(tool, arguments))
}

fn fixtures_index(name: &str) -> PathBuf {
    let dir = scratch(name);
    let index = dir.join("index");
    build_into(&fixtures().join("fixtures.toml"), &index);
    index
}

#[test]
fn http_requires_the_bearer_token_when_one_is_set() {
    let index = fixtures_index("auth");
    let token_file = index.parent().expect("dir").join("token");
    std::fs::write(&token_file, "correct-horse-battery-staple\n").expect("write token");
    let server = serve(
        &index,
        &["--auth-token-file", token_file.to_str().expect("utf-8")],
        &[],
    );
    let args = json!({ "identifier": "XO:0000001" });
    let (status, head, body) = modern_call(server.1, &[], "resolve_identifier", args.clone());
    assert_eq!(status, 401, "{body}");
    assert!(head.contains("www-authenticate: bearer"), "{head}");
    let (status, head, _) = modern_call(
        server.1,
        &[("Authorization", "Bearer wrong-token")],
        "resolve_identifier",
        args.clone(),
    );
    assert_eq!(status, 401);
    assert!(head.contains("invalid_token"), "{head}");
    let (status, _, body) = modern_call(
        server.1,
        &[("Authorization", "Bearer correct-horse-battery-staple")],
        "resolve_identifier",
        args.clone(),
    );
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"found\""), "{body}");
    // Guessing is slowed down: an address failing fast gets 429s.
    let statuses: Vec<u16> = (0..12)
        .map(|_| {
            modern_call(
                server.1,
                &[("Authorization", "Bearer guess")],
                "resolve_identifier",
                args.clone(),
            )
            .0
        })
        .collect();
    assert!(
        statuses.contains(&401) && statuses.contains(&429),
        "{statuses:?}"
    );
    // The environment variable is the alternative to the file.
    let by_env = serve(
        &index,
        &[],
        &[("ONTORESOLVE_AUTH_TOKEN", "from-the-environment-0123456789")],
    );
    assert_eq!(
        modern_call(by_env.1, &[], "resolve_identifier", args.clone()).0,
        401
    );
    assert_eq!(
        modern_call(
            by_env.1,
            &[("Authorization", "Bearer from-the-environment-0123456789")],
            "resolve_identifier",
            args
        )
        .0,
        200
    );
    // A short token is refused at start: it would be no access control.
    let out = Command::new(binary())
        .args(["serve", "--index"])
        .arg(&index)
        .args(["--http", "127.0.0.1:0"])
        .env("ONTORESOLVE_AUTH_TOKEN", "abc")
        .output()
        .expect("run serve");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("at least"), "{stderr}");
}

#[test]
fn a_client_over_its_rate_limit_gets_429_with_retry_after() {
    let index = fixtures_index("rate-limit");
    let server = serve(&index, &["--rate-limit", "5"], &[]);
    let args = json!({ "identifier": "XO:0000001" });
    let statuses: Vec<(u16, String, String)> = (0..12)
        .map(|_| modern_call(server.1, &[], "resolve_identifier", args.clone()))
        .collect();
    assert_eq!(statuses[0].0, 200);
    let limited = statuses
        .iter()
        .find(|(status, _, _)| *status == 429)
        .expect("a burst of 12 over a limit of 5 a second");
    assert!(limited.1.contains("retry-after: 1"), "{}", limited.1);
    let body: Value = serde_json::from_str(&limited.2).expect("JSON-RPC error body");
    assert_eq!(body["error"]["data"]["code"], "rate_limited");
    assert_eq!(body["id"], 1, "the error answers the request's id");
    let wait = body["error"]["data"]["retry_after_ms"]
        .as_u64()
        .expect("retry_after_ms");
    assert!((1..=1000).contains(&wait), "{wait}");
    std::thread::sleep(Duration::from_millis(wait + 50));
    assert_eq!(
        modern_call(server.1, &[], "resolve_identifier", args).0,
        200,
        "after waiting"
    );
}

#[test]
fn unparsable_http_bodies_get_a_jsonrpc_parse_error_and_the_server_goes_on() {
    let index = fixtures_index("http-parse");
    let server = serve(&index, &[], &[]);
    let modern = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
    ];
    for bad in ["{not json", "", "\u{feff}{}", "[1,2"] {
        let (status, _, body) = post(server.1, &modern, bad);
        assert_eq!(status, 400, "{bad:?}: {body}");
        let v: Value = serde_json::from_str(&body).expect("JSON-RPC error");
        assert_eq!(v["error"]["code"], -32700, "{bad:?}");
        assert_eq!(v["id"], Value::Null);
    }
    let (status, _, body) = modern_call(
        server.1,
        &[],
        "resolve_identifier",
        json!({ "identifier": "XO:0000001" }),
    );
    assert_eq!(status, 200, "{body}");
}

#[test]
fn a_public_address_without_a_token_is_refused_unless_insecure_public() {
    let index = fixtures_index("public");
    let out = Command::new(binary())
        .args(["serve", "--index"])
        .arg(&index)
        .args(["--http", "0.0.0.0:0"])
        .env_remove("ONTORESOLVE_AUTH_TOKEN")
        .output()
        .expect("run serve");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--insecure-public") && stderr.contains("--auth-token-file"),
        "{stderr}"
    );
    let server = serve_at(
        "0.0.0.0",
        &index,
        &["--insecure-public", "--allow-host", "ontoresolve.example"],
        &[],
    );
    let port = server.1;
    // Remote clients name the server by a host it was told to accept; other names are refused
    // (DNS rebinding).
    let args = json!({ "identifier": "XO:0000001" });
    let named = format!("ontoresolve.example:{port}");
    let other = format!("elsewhere.example:{port}");
    assert_eq!(
        modern_call(
            port,
            &[("Host", named.as_str())],
            "resolve_identifier",
            args.clone()
        )
        .0,
        200
    );
    assert_eq!(
        modern_call(
            port,
            &[("Host", other.as_str())],
            "resolve_identifier",
            args.clone()
        )
        .0,
        403
    );
    drop(server);
    // With a token, on every address, any name reaches it: the token is the guard.
    let server = serve_at(
        "0.0.0.0",
        &index,
        &[],
        &[("ONTORESOLVE_AUTH_TOKEN", "a-team-token-0123456789abcdef")],
    );
    let port = server.1;
    let remote = format!("ontoresolve.lab.example:{port}");
    let (status, _, body) = modern_call(
        port,
        &[
            ("Host", remote.as_str()),
            ("Authorization", "Bearer a-team-token-0123456789abcdef"),
        ],
        "resolve_identifier",
        args,
    );
    assert_eq!(status, 200, "{body}");
}

/// The fixtures catalogue with absolute paths and one title changed, so its build id differs.
pub(crate) fn catalogue_variant(dir: &Path, n: usize) -> PathBuf {
    let text = std::fs::read_to_string(fixtures().join("fixtures.toml"))
        .expect("read")
        .replace("path = \"", &format!("path = \"{}/", fixtures().display()))
        .replace(
            "title = \"Example OWL ontology\"",
            &format!("title = \"Example OWL ontology, edition {n}\""),
        );
    let path = dir.join(format!("catalog-{n}.toml"));
    std::fs::write(&path, text).expect("write catalogue");
    path
}

fn build_dirs(index: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(index)
        .expect("index dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("build-"))
        .collect();
    names.sort();
    names
}

#[test]
fn a_rebuild_is_served_within_seconds_and_builds_in_use_are_kept() {
    let dir = scratch("live-reload");
    let index = dir.join("index");
    let first = build_into(&catalogue_variant(&dir, 1), &index);
    let server = serve(&index, &[], &[]);
    let answered_by = || {
        let (status, _, body) = modern_call(server.1, &[], "list_sources", json!({}));
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).expect("json");
        v["result"]["structuredContent"]["index"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(answered_by(), first.manifest.build_id);

    let second = build_into(&catalogue_variant(&dir, 2), &index);
    assert_ne!(second.manifest.build_id, first.manifest.build_id);
    let switched = Instant::now();
    while answered_by() != second.manifest.build_id {
        assert!(
            switched.elapsed() < Duration::from_secs(5),
            "the new build was not served within 5 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    // A reader in this process holds the second build; two more builds may not remove it.
    let reader = ontoresolve::resolve::Resolver::open(&index).expect("open");
    assert_eq!(reader.manifest().build_id, second.manifest.build_id);
    let second_dir = second
        .dir
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    build_into(&catalogue_variant(&dir, 3), &index);
    let fourth = build_into(&catalogue_variant(&dir, 4), &index);
    while answered_by() != fourth.manifest.build_id {
        assert!(
            switched.elapsed() < Duration::from_secs(30),
            "the fourth build was not served"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        build_dirs(&index).contains(&second_dir),
        "a leased build stays: {:?}",
        build_dirs(&index)
    );
    let first_dir = first
        .dir
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    assert!(
        !build_dirs(&index).contains(&first_dir),
        "an unleased old build goes"
    );
    drop(reader);
    build_into(&catalogue_variant(&dir, 5), &index);
    assert!(
        !build_dirs(&index).contains(&second_dir),
        "once released it goes too"
    );
}

/// One client's long calls side by side (eight batches of 500 lookups of a MeSH heading with
/// hundreds of supplementary records, seconds each) take at most its share of the pool's
/// places, so another client's cheap call is answered at once rather than after them.
#[test]
fn one_clients_long_calls_never_leave_another_client_waiting() {
    let server = serve(&default_index_dir(), &["--rate-limit", "0"], &[]);
    let port = server.1;
    let heavy = json!({ "identifiers": vec!["MESH:D000068837"; 500] });
    let batches: Vec<_> = (0..ontoresolve::mcp::MAX_CONCURRENT_CALLS)
        .map(|_| {
            let heavy = heavy.clone();
            std::thread::spawn(move || modern_call(port, &[], "map_identifiers", heavy))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let headers = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "resolve_identifier"),
    ];
    let started = Instant::now();
    let (status, _, body) = post_from(
        std::net::Ipv4Addr::new(127, 0, 0, 2),
        port,
        &headers,
        &call_body("resolve_identifier", json!({ "identifier": "HP:0000118" })),
    );
    let waited = started.elapsed();
    let still_running = batches.iter().filter(|b| !b.is_finished()).count();
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#"\"outcome\":\"found\""#), "{body}");
    assert!(
        still_running > 0,
        "the batches were meant to outlast the cheap call"
    );
    assert!(
        waited < Duration::from_secs(2),
        "another client's cheap call waited {waited:?} behind the batches"
    );
    // The first client's calls over its share waited for its own places; those that found
    // none within the call deadline were told to retry, never dropped.
    for batch in batches {
        let (status, _, body) = batch.join().expect("batch thread");
        assert!(
            status == 200 || (status == 429 && body.contains(r#""rate_limited""#)),
            "{status} {body}"
        );
    }
}

/// The error code of a tool answer over HTTP (`timeout`, `rate_limited`...), or the HTTP
/// status when the gate answered.
fn answer_code(status: u16, body: &str) -> String {
    if status != 200 {
        return format!("http {status}");
    }
    let value: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    value["result"]["content"][0]["text"]
        .as_str()
        .and_then(|t| serde_json::from_str::<Value>(t).ok())
        .and_then(|e| e["error"]["code"].as_str().map(str::to_string))
        .unwrap_or_else(|| "answered".into())
}

#[test]
fn runaway_queries_sent_at_once_are_answered_within_one_deadline_of_arriving() {
    let server = serve(&default_index_dir(), &["--rate-limit", "0"], &[]);
    let port = server.1;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Four clients keep the pool busy with name searches.
    let load: Vec<_> = (0..4u8)
        .map(|n| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let headers = [
                    ("MCP-Protocol-Version", "2026-07-28"),
                    ("Mcp-Method", "tools/call"),
                    ("Mcp-Name", "find_concepts"),
                ];
                let body = call_body("find_concepts", json!({ "text": "breast cancer" }));
                let mut calls = 0u32;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    post_from(
                        std::net::Ipv4Addr::new(127, 0, 1, n + 1),
                        port,
                        &headers,
                        &body,
                    );
                    calls += 1;
                }
                calls
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let runaway = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }";
    let queries: Vec<_> = (0..4u8)
        .map(|n| {
            std::thread::spawn(move || {
                let headers = [
                    ("MCP-Protocol-Version", "2026-07-28"),
                    ("Mcp-Method", "tools/call"),
                    ("Mcp-Name", "sparql_query"),
                ];
                let sent = Instant::now();
                let (status, _, body) = post_from(
                    std::net::Ipv4Addr::new(127, 0, 2, n + 1),
                    port,
                    &headers,
                    &call_body("sparql_query", json!({ "query": runaway })),
                );
                (sent.elapsed(), answer_code(status, &body))
            })
        })
        .collect();
    let answers: Vec<(Duration, String)> = queries
        .into_iter()
        .map(|q| q.join().expect("query thread"))
        .collect();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let calls: u32 = load.into_iter().map(|l| l.join().unwrap_or(0)).sum();
    assert!(calls > 0, "the load ran");
    let deadline = ontoresolve::resolve::query::QUERY_TIMEOUT;
    // The margin covers a machine whose two cores also run the other tests; before, two of
    // the four were answered one whole deadline late.
    let margin = Duration::from_millis(2500);
    for (took, code) in &answers {
        assert!(
            code == "timeout" || code == "http 429",
            "a runaway query is stopped, or refused as busy: {code} {answers:?}"
        );
        assert!(
            *took < deadline + margin,
            "answered {took:?} after it arrived, past its {deadline:?} deadline: {answers:?}"
        );
    }
}
