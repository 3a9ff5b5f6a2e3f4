//! Real MCP clients against the real binary: the Python SDK (stdio and HTTP, both revisions),
//! the conformance suite, and raw HTTP requests for the transport's safety checks.
//! Clients are installed by `scripts/setup-clients`; tests without them print why they skipped.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::http_client;
use crate::process::{Server, serve};
use crate::support::{Missing, python_with, repo, scratch, skip};

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_ontoresolve")
}

/// The bundled catalogue's index, built once per test run and shared with the other tests.
fn default_index() -> PathBuf {
    crate::support::default_index_dir()
}

#[test]
fn python_sdk_over_stdio_and_http_in_both_revisions() {
    let Some(python) = python_with("mcp") else {
        return;
    };
    let out = Command::new(python)
        .arg(repo().join("tests/clients/python_client.py"))
        .arg(binary())
        .arg(default_index())
        .env("ONTORESOLVE_LOG", "error")
        .output()
        .expect("run the Python client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for mode in [
        "stdio auto (2026-07-28)",
        "stdio legacy (2025-11-25)",
        "http auto (2026-07-28)",
        "http legacy (2025-11-25)",
    ] {
        assert!(
            stdout.contains(&format!("ok: {mode}")),
            "{mode} missing from:\n{stdout}"
        );
    }
}

#[test]
fn conformance_suite_passes_except_reviewed_fixture_scenarios() {
    let clients = std::env::var_os("ONTORESOLVE_CLIENTS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/var/tmp/ontoresolve-clients"));
    if !clients
        .join("node_modules/@modelcontextprotocol/conformance/dist/index.js")
        .is_file()
    {
        skip(
            Missing::Client,
            format_args!(
                "the conformance suite is not installed in {} (run scripts/setup-clients)",
                clients.display()
            ),
        );
        return;
    }
    let out = Command::new("bash")
        .arg(repo().join("tests/clients/run-conformance"))
        .arg(binary())
        .arg(default_index())
        .output()
        .expect("run the conformance suite");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(
        stdout.matches("Baseline check passed").count(),
        2,
        "{stdout}"
    );
}

fn http_server() -> Server {
    serve(
        &default_index(),
        &["--allow-origin", "https://app.example"],
        &[],
    )
}

/// Sends one HTTP/1.1 POST to /mcp and returns the status code.
fn post(port: u16, headers: &[(&str, &str)], body: &str) -> u16 {
    http_client::post(port, headers, body).0
}

const DISCOVER: &str = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

#[test]
fn http_checks_origin_host_and_body_size() {
    let server = http_server();
    let port = server.1;
    let modern = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "server/discover"),
    ];
    assert_eq!(
        post(port, &modern, DISCOVER),
        200,
        "no Origin: a non-browser client"
    );
    let with = |origin: &'static str| [modern[0], modern[1], ("Origin", origin)];
    assert_eq!(post(port, &with("http://evil.example"), DISCOVER), 403);
    assert_eq!(post(port, &with("http://localhost:5173"), DISCOVER), 200);
    assert_eq!(
        post(port, &with("https://app.example"), DISCOVER),
        200,
        "--allow-origin adds to the list"
    );
    assert_eq!(
        post(
            port,
            &[modern[0], modern[1], ("Host", "evil.example")],
            DISCOVER
        ),
        403,
        "DNS rebinding"
    );
    let huge = format!("{{\"pad\":\"{}\"}}", "x".repeat(2 << 20));
    assert_eq!(
        post(port, &modern, &huge),
        413,
        "bodies over 1 MiB are refused"
    );
}

#[test]
fn stdio_stdout_carries_only_protocol_messages() {
    let mut child = Command::new(binary())
        .args(["serve", "--index"])
        .arg(default_index())
        .env("ONTORESOLVE_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn serve");
    let mut stdin = child.stdin.take().expect("stdin");
    let _ = writeln!(stdin, "{DISCOVER}");
    let _ = writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"resolve_identifier","arguments":{{"identifier":"HP:0000118"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
    );
    drop(stdin);
    let out = child
        .wait_with_output()
        .expect("serve exits when stdin closes");
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    for line in lines {
        let v: serde_json::Value =
            serde_json::from_str(line).expect("every stdout line is JSON-RPC");
        assert_eq!(v["jsonrpc"], "2.0");
    }
    assert!(stdout.contains("Phenotypic abnormality"));
}

#[test]
fn two_servers_share_one_index_read_only() {
    let read = r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"http://purl.obolibrary.org/obo/HP_0000118","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let spawn = || {
        Command::new(binary())
            .args(["serve", "--index"])
            .arg(default_index())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn serve")
    };
    let (mut a, mut b) = (spawn(), spawn());
    for child in [&mut a, &mut b] {
        let mut stdin = child.stdin.take().expect("stdin");
        let _ = writeln!(stdin, "{read}");
    }
    for child in [a, b] {
        let out = child
            .wait_with_output()
            .expect("serve exits when stdin closes");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("text/turtle") && stdout.contains("Phenotypic abnormality"),
            "{stdout}"
        );
    }
}

#[test]
fn serve_builds_a_missing_index_first() {
    let dir = scratch("serve-first-run");
    let index = dir.join("index");
    let discover = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let mut child = Command::new(binary())
        .args(["serve", "--index"])
        .arg(&index)
        .arg("--sources")
        .arg(crate::support::fixtures().join("fixtures.toml"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn serve");
    let mut stdin = child.stdin.take().expect("stdin");
    let _ = writeln!(stdin, "{discover}");
    drop(stdin);
    let out = child.wait_with_output().expect("serve exits");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("building it from"),
        "progress on stderr: {stderr}"
    );
    assert!(stdout.contains("\"supportedVersions\""), "{stdout}");
    assert!(
        stdout.contains("xd (Example OBO ontology), release 2023-07-01"),
        "instructions name the new build: {stdout}"
    );
    assert!(index.join("CURRENT").is_file());
}
