//! The bad-input table: hostile and mistaken requests to the real binary over HTTP, on the
//! default index with a token. Each gets its specific error (HTTP status, JSON-RPC code or
//! tool error code), and after each one the server still answers a cheap call.

use serde_json::{Value, json};

use crate::http_client::post;
use crate::process::serve;
use crate::support::default_index_dir;

const TOKEN: &str = "bad-input-table-token-0123456789";
const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// What a case must get back.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// This HTTP status, and this JSON-RPC error code in the body.
    Rpc(u16, i64),
    /// HTTP 200 with a tool result flagged `isError` carrying this code.
    Tool(&'static str),
    /// This HTTP status only (the body is not JSON-RPC).
    Status(u16),
}

fn call(tool: &str, arguments: Value) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},{META}}}}}"#
    )
}

fn method(name: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":7,"method":"{name}","params":{params}}}"#)
}

struct Case {
    name: &'static str,
    headers: Vec<(&'static str, String)>,
    body: String,
    expect: Expect,
}

fn case(name: &'static str, body: String, expect: Expect) -> Case {
    Case {
        name,
        headers: Vec::new(),
        body,
        expect,
    }
}

fn with(mut c: Case, header: &'static str, value: &str) -> Case {
    c.headers.push((header, value.to_string()));
    c
}

fn cases() -> Vec<Case> {
    let meta = |extra: &str| format!("{{{META}{extra}}}");
    let foreign = ontoresolve::mcp::cursor::encode("another-build", "resources/list", 1);
    let foreign_tool = ontoresolve::mcp::cursor::encode("another-build", "x", 50);
    let runaway = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?a ?b ?c . ?d ?e ?f } }";
    // Under the 1 MiB body limit (5 MB ones go over stdio: `stdio_framing.rs`); each answer
    // stays under 2 KB, as every answer of the table must.
    let big = "z".repeat(600_000);
    vec![
        // A name also goes in the Mcp-Name header, which must stay under the server's header
        // limit: 60 KB.
        case(
            "60 KB resource URI",
            method(
                "resources/read",
                &format!(
                    "{{\"uri\":\"ontoresolve://concept/{}\",{META}}}",
                    &big[..60_000]
                ),
            ),
            Expect::Rpc(400, -32602),
        ),
        case(
            "60 KB prompt name",
            method(
                "prompts/get",
                &format!("{{\"name\":\"{}\",{META}}}", &big[..60_000]),
            ),
            Expect::Rpc(400, -32602),
        ),
        case(
            "600 KB prompt argument",
            method(
                "prompts/get",
                &format!(
                    "{{\"name\":\"ground_mention\",\"arguments\":{{\"mention\":\"{big}\"}},{META}}}"
                ),
            ),
            Expect::Rpc(200, -32602),
        ),
        case(
            "600 KB completion value",
            method(
                "completion/complete",
                &format!(
                    "{{\"ref\":{{\"type\":\"ref/prompt\",\"name\":\"map_identifier_list\"}},\"argument\":{{\"name\":\"identifiers\",\"value\":\"HP:0000118,{big},HP:\"}},{META}}}"
                ),
            ),
            Expect::Status(200),
        ),
        with(
            case(
                "600 KB method name",
                method(&big, &meta("")),
                Expect::Rpc(404, -32601),
            ),
            "Mcp-Method",
            "",
        ),
        case(
            "60 KB tool name",
            call(&big[..60_000], json!({})),
            Expect::Rpc(400, -32602),
        ),
        case(
            "600 KB request id",
            format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":\"{big}\",\"method\":\"tools/list\",\"params\":{}}}",
                meta("")
            ),
            Expect::Rpc(400, -32600),
        ),
        case(
            "600 KB list cursor",
            method(
                "resources/list",
                &format!("{{\"cursor\":\"{big}\",{META}}}"),
            ),
            Expect::Rpc(200, -32602),
        ),
        // Framing and JSON-RPC shape.
        case(
            "unparsable JSON",
            "{\"jsonrpc\":".into(),
            Expect::Rpc(400, -32700),
        ),
        case("empty body", String::new(), Expect::Rpc(400, -32700)),
        case(
            "not JSON (a replacement character)",
            "\u{fffd}{".into(),
            Expect::Rpc(400, -32700),
        ),
        case(
            "deep nesting",
            format!("{}{}", "[".repeat(5000), "]".repeat(5000)),
            Expect::Rpc(400, -32700),
        ),
        case(
            "10 MB argument",
            call("find_concepts", json!({ "text": "x".repeat(10 << 20) })),
            Expect::Status(413),
        ),
        case(
            "unknown method",
            method("no/such", &meta("")),
            Expect::Rpc(404, -32601),
        ),
        case(
            "removed method ping",
            method("ping", &meta("")),
            Expect::Rpc(404, -32601),
        ),
        case(
            "missing _meta",
            method("tools/list", "{}"),
            Expect::Rpc(400, -32602),
        ),
        case(
            "unsupported protocol version",
            method(
                "server/discover",
                r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01","io.modelcontextprotocol/clientCapabilities":{}}}"#,
            ),
            Expect::Status(400),
        ),
        with(
            case(
                "protocol-version header mismatch",
                method("tools/list", &meta("")),
                Expect::Rpc(400, -32020),
            ),
            "MCP-Protocol-Version",
            "2025-11-25",
        ),
        with(
            case(
                "Origin not allowed",
                method("tools/list", &meta("")),
                Expect::Status(403),
            ),
            "Origin",
            "http://evil.example",
        ),
        with(
            case(
                "Host not allowed",
                method("tools/list", &meta("")),
                Expect::Status(403),
            ),
            "Host",
            "evil.example",
        ),
        with(
            case(
                "missing token",
                method("tools/list", &meta("")),
                Expect::Rpc(401, -32001),
            ),
            "Authorization",
            "",
        ),
        with(
            case(
                "wrong token",
                method("tools/list", &meta("")),
                Expect::Rpc(401, -32001),
            ),
            "Authorization",
            "Bearer not-the-token-at-all-0000000",
        ),
        case(
            "unknown tool",
            call("no_such_tool", json!({})),
            Expect::Rpc(200, -32602),
        ),
        case(
            "unknown resource",
            method(
                "resources/read",
                &format!("{{\"uri\":\"http://example.org/nothing\",{META}}}"),
            ),
            Expect::Rpc(200, -32602),
        ),
        case(
            "bad resources/list cursor",
            method(
                "resources/list",
                &format!("{{\"cursor\":\"offset:5\",{META}}}"),
            ),
            Expect::Rpc(200, -32602),
        ),
        case(
            "resources/list cursor from another build",
            method(
                "resources/list",
                &format!("{{\"cursor\":\"{foreign}\",{META}}}"),
            ),
            Expect::Rpc(200, -32602),
        ),
        case(
            "unknown prompt",
            method("prompts/get", &format!("{{\"name\":\"nope\",{META}}}")),
            Expect::Rpc(200, -32602),
        ),
        // Tool arguments.
        case(
            "identifier missing",
            call("resolve_identifier", json!({})),
            Expect::Tool("invalid_argument"),
        ),
        case(
            "identifier a number",
            call("resolve_identifier", json!({ "identifier": 42 })),
            Expect::Tool("invalid_argument"),
        ),
        case(
            "unknown argument",
            call(
                "resolve_identifier",
                json!({ "identifier": "HP:1", "extra": 1 }),
            ),
            Expect::Tool("invalid_argument"),
        ),
        case(
            "malformed identifier",
            call("resolve_identifier", json!({ "identifier": "HP:abc" })),
            Expect::Tool("malformed_identifier"),
        ),
        case(
            "unknown prefix",
            call("resolve_identifier", json!({ "identifier": "NOPE:1" })),
            Expect::Tool("unknown_prefix"),
        ),
        case(
            "identifier over 4 KB",
            call(
                "resolve_identifier",
                json!({ "identifier": "A".repeat(5000) }),
            ),
            Expect::Tool("limit_exceeded"),
        ),
        case(
            "empty text",
            call("find_concepts", json!({ "text": "  " })),
            Expect::Tool("invalid_argument"),
        ),
        case(
            "text over 1000 bytes",
            call("find_concepts", json!({ "text": "y".repeat(1001) })),
            Expect::Tool("limit_exceeded"),
        ),
        case(
            "limit 0",
            call("find_concepts", json!({ "text": "asthma", "limit": 0 })),
            Expect::Tool("limit_exceeded"),
        ),
        case(
            "limit a string",
            call("find_concepts", json!({ "text": "asthma", "limit": "ten" })),
            Expect::Tool("invalid_argument"),
        ),
        case(
            "sources not a list",
            call(
                "find_concepts",
                json!({ "text": "asthma", "sources": "mesh" }),
            ),
            Expect::Tool("invalid_argument"),
        ),
        case(
            "unknown source",
            call(
                "find_concepts",
                json!({ "text": "asthma", "sources": ["nope"] }),
            ),
            Expect::Tool("unknown_source"),
        ),
        case(
            "find_concepts bad cursor",
            call("find_concepts", json!({ "text": "asthma", "cursor": "zz" })),
            Expect::Tool("invalid_cursor"),
        ),
        case(
            "map_identifier cursor from another build",
            call(
                "map_identifier",
                json!({ "identifier": "MONDO:0005148", "cursor": foreign_tool }),
            ),
            Expect::Tool("invalid_cursor"),
        ),
        case(
            "unknown target prefix",
            call(
                "map_identifier",
                json!({ "identifier": "MONDO:0005148", "targets": ["NOPE"] }),
            ),
            Expect::Tool("unknown_prefix"),
        ),
        case(
            "1,001 identifiers",
            call(
                "map_identifiers",
                json!({ "identifiers": vec!["HP:0000118"; 1001] }),
            ),
            Expect::Tool("limit_exceeded"),
        ),
        case(
            "identifiers not a list",
            call("map_identifiers", json!({ "identifiers": "HP:0000118" })),
            Expect::Tool("invalid_argument"),
        ),
        case(
            "SPARQL update",
            call(
                "sparql_query",
                json!({ "query": "INSERT DATA { <http://a> <http://b> <http://c> }" }),
            ),
            Expect::Tool("read_only_query"),
        ),
        case(
            "SPARQL LOAD",
            call(
                "sparql_query",
                json!({ "query": "LOAD <http://example.org/x.ttl>" }),
            ),
            Expect::Tool("read_only_query"),
        ),
        case(
            "SPARQL SERVICE",
            call(
                "sparql_query",
                json!({ "query": "SELECT * WHERE { SERVICE <http://x> { ?s ?p ?o } }" }),
            ),
            Expect::Tool("read_only_query"),
        ),
        case(
            "SPARQL syntax",
            call("sparql_query", json!({ "query": "SELECT ?s WHERE {" })),
            Expect::Tool("invalid_query"),
        ),
        case(
            "SPARQL limit 5000",
            call("sparql_query", json!({ "query": "ASK {}", "limit": 5000 })),
            Expect::Tool("limit_exceeded"),
        ),
        case(
            "SPARQL that would run forever",
            call("sparql_query", json!({ "query": runaway })),
            Expect::Tool("timeout"),
        ),
        case(
            "unknown schema source",
            call("describe_schema", json!({ "source": "nope" })),
            Expect::Tool("unknown_source"),
        ),
        with(
            case(
                "mirrored argument without its header",
                call("describe_schema", json!({ "source": "hp" })),
                Expect::Rpc(400, -32020),
            ),
            "Mcp-Param-Source",
            "",
        ),
        with(
            case(
                "mirrored argument with another value in its header",
                call("describe_schema", json!({ "source": "hp" })),
                Expect::Rpc(400, -32020),
            ),
            "Mcp-Param-Source",
            "doid",
        ),
        with(
            case(
                "mirrored argument header in broken Base64",
                call("describe_schema", json!({ "source": "hp" })),
                Expect::Rpc(400, -32020),
            ),
            "Mcp-Param-Source",
            "=?base64?aHA?=",
        ),
    ]
}

/// The routing headers a 2026-07-28 client sends with a body: `Mcp-Method`, `Mcp-Name` for
/// the methods that name something, and `Mcp-Param-*` for arguments mirrored into headers.
fn routing_headers(body: &str) -> Vec<(&'static str, String)> {
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        return Vec::new();
    };
    let mut headers = Vec::new();
    if let Some(m) = value["method"].as_str() {
        headers.push(("Mcp-Method", m.to_string()));
        let name = match m {
            "tools/call" | "prompts/get" => value["params"]["name"].as_str(),
            "resources/read" => value["params"]["uri"].as_str(),
            _ => None,
        };
        if let Some(n) = name {
            headers.push(("Mcp-Name", n.to_string()));
        }
    }
    // The one argument a tool mirrors into a header (SEP-2243 `x-mcp-header`).
    if value["params"]["name"] == "describe_schema"
        && let Some(source) = value["params"]["arguments"]["source"].as_str()
    {
        headers.push(("Mcp-Param-Source", source.to_string()));
    }
    headers
}

fn check(name: &str, expect: Expect, status: u16, body: &str) -> Result<(), String> {
    let value: Option<Value> = serde_json::from_str(body).ok();
    let rpc_code = value.as_ref().and_then(|v| v["error"]["code"].as_i64());
    let tool_code = value
        .as_ref()
        .filter(|v| v["result"]["isError"] == true)
        .and_then(|v| v["result"]["content"][0]["text"].as_str())
        .and_then(|t| serde_json::from_str::<Value>(t).ok())
        .and_then(|e| e["error"]["code"].as_str().map(str::to_string));
    let ok = match expect {
        Expect::Rpc(s, code) => status == s && rpc_code == Some(code),
        Expect::Tool(code) => status == 200 && tool_code.as_deref() == Some(code),
        Expect::Status(s) => status == s,
    };
    if ok {
        Ok(())
    } else {
        let shown: String = body.chars().take(300).collect();
        Err(format!(
            "{name}: expected {expect:?}, got HTTP {status}: {shown}"
        ))
    }
}

#[test]
fn every_bad_input_gets_its_specific_error_and_the_server_keeps_answering() {
    let index = default_index_dir();
    let server = serve(
        &index,
        &["--rate-limit", "0"],
        &[("ONTORESOLVE_AUTH_TOKEN", TOKEN)],
    );
    let bearer = format!("Bearer {TOKEN}");
    let cases = cases();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let routing = routing_headers(&c.body);
        let mut headers: Vec<(&str, &str)> = vec![
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Authorization", bearer.as_str()),
        ];
        headers.extend(routing.iter().map(|(k, v)| (*k, v.as_str())));
        for (k, v) in &c.headers {
            headers.retain(|(h, _)| !h.eq_ignore_ascii_case(k));
            if !v.is_empty() {
                headers.push((k, v.as_str()));
            }
        }
        let (status, _, body) = post(server.1, &headers, &c.body);
        if let Err(e) = check(c.name, c.expect, status, &body) {
            failures.push(e);
        }
        if body.len() >= ontoresolve::mcp::echo::MAX_ERROR_BYTES {
            let shown: String = body.chars().take(300).collect();
            failures.push(format!("{}: a {}-byte answer: {shown}", c.name, body.len()));
        }
        // The server still answers.
        let (status, _, body) = post(
            server.1,
            &[
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Authorization", bearer.as_str()),
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "resolve_identifier"),
            ],
            &call("resolve_identifier", json!({ "identifier": "HP:0000118" })),
        );
        if status != 200 || !body.contains("\\\"found\\\"") && !body.contains("\"found\"") {
            failures.push(format!(
                "after {}: the server did not answer ({status})",
                c.name
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
