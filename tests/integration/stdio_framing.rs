//! Hostile lines over stdio against the real binary: each gets its specific JSON-RPC error,
//! in order, and the server still answers afterwards. Before the framing layer, seven of
//! these got no reply at all and the client waited forever.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use crate::support::default_index_dir;

/// `serve` on the default index over stdio, with pipes for stdin and stdout.
fn serve_stdio() -> Child {
    Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
        .args(["serve", "--index"])
        .arg(default_index_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server")
}

#[test]
fn every_unreadable_line_gets_an_error_reply_and_the_server_keeps_answering() {
    let mut child = serve_stdio();
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let huge = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{{\"name\":\"find_concepts\",\"arguments\":{{\"text\":\"{}\"}}}}}}",
        "x".repeat(10 << 20)
    );
    let hostile: Vec<(Vec<u8>, i64)> = vec![
        (b"{\"jsonrpc\":\"2.0\",\"id\":1,".to_vec(), -32700),
        (
            b"[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]".to_vec(),
            -32600,
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"ping\"}".to_vec(),
            -32600,
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"p\xffng\"}".to_vec(),
            -32700,
        ),
        (
            br#"{"jsonrpc":"2.0","id":4,"method":"ping","params":{"t":"\udc00"}}"#.to_vec(),
            -32700,
        ),
        (deep.into_bytes(), -32700),
        (b"\"just a string\"".to_vec(), -32600),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":[1]}".to_vec(),
            -32600,
        ),
        (huge.into_bytes(), 0),
    ];
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    for (line, _) in &hostile {
        stdin.write_all(line).expect("write");
        stdin.write_all(b"\n").expect("write");
    }
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":100,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n{\"jsonrpc\":\"2.0\",\"id\":101,\"method\":\"ping\"}\n")
        .expect("write");
    stdin.flush().expect("flush");
    let mut replies: Vec<Value> = Vec::new();
    for line in stdout.lines() {
        let line = line.expect("read");
        let reply: Value = serde_json::from_str(&line).expect("every reply is JSON");
        let done = reply["id"] == 101;
        replies.push(reply);
        if done {
            break;
        }
    }
    drop(stdin);
    let _ = child.wait();
    let errors: Vec<i64> = replies
        .iter()
        .filter_map(|r| r["error"]["code"].as_i64())
        .collect();
    let expected: Vec<i64> = hostile
        .iter()
        .map(|(_, c)| *c)
        .filter(|c| *c != 0)
        .collect();
    assert_eq!(
        &errors[..expected.len()],
        expected.as_slice(),
        "{replies:#?}"
    );
    // The 10 MB argument is refused as a tool error (or an error), never silence.
    assert!(
        replies.iter().any(|r| r["id"] == 9),
        "the 10 MB call was answered: {:?}",
        replies.iter().map(|r| &r["id"]).collect::<Vec<_>>()
    );
    assert!(
        replies
            .iter()
            .any(|r| r["id"] == 101 && r["result"].is_object())
    );
}

/// A client that sends one request and closes stdin at once (a shell pipe) still gets its
/// answer, and the server exits cleanly: requests already read are answered before it closes.
#[test]
fn a_request_followed_by_end_of_input_is_answered_before_the_server_exits() {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    for request in [
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{meta}}}}}"#),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"find_concepts","arguments":{{"text":"breast cancer"}},{meta}}}}}"#
        ),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
            .args(["serve", "--index"])
            .arg(default_index_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the server");
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(stdin, "{request}").expect("write");
        drop(stdin);
        let out = child.wait_with_output().expect("exit");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let reply: Value = serde_json::from_str(stdout.lines().next().unwrap_or_default())
            .unwrap_or_else(|e| panic!("{e}: {stdout}"));
        assert_eq!(reply["id"], 1);
        assert!(reply["result"].is_object(), "{reply}");
    }
}

/// Stdin that is a file, not a pipe (`serve < requests.jsonl`), is read too: every request
/// in it is answered, and the server exits at its end.
#[test]
fn requests_from_a_file_on_stdin_are_all_answered() {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("requests.jsonl");
    let requests: String = ["breast cancer", "HP:0000118", "Abnormality of body height"]
        .iter()
        .enumerate()
        .map(|(i, text)| {
            format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/call\",\"params\":{{\"name\":\"find_concepts\",\"arguments\":{{\"text\":\"{text}\"}},{meta}}}}}\n",
                i + 1
            )
        })
        .collect();
    std::fs::write(&path, requests).expect("write requests");
    let out = Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
        .args(["serve", "--index"])
        .arg(default_index_dir())
        .stdin(std::fs::File::open(&path).expect("open requests"))
        .stderr(Stdio::piped())
        .output()
        .expect("run the server");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Calls run side by side, so their answers may come in any order.
    let mut ids: Vec<i64> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a JSON-RPC reply"))
        .inspect(|reply| assert!(reply["result"].is_object(), "{reply}"))
        .filter_map(|reply| reply["id"].as_i64())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, [1, 2, 3]);
}

/// A 10 MB identifier or name, in each tool that takes one and in a mistyped argument, gets an
/// answer under 2 KB: the input is echoed as its start and its length, never whole.
#[test]
fn a_ten_megabyte_input_gets_an_answer_under_two_kilobytes() {
    let mut child = serve_stdio();
    let huge = "x".repeat(10 << 20);
    let calls = [
        (
            "resolve_identifier",
            format!("{{\"identifier\":\"{huge}\"}}"),
        ),
        ("get_concept", format!("{{\"identifier\":\"{huge}\"}}")),
        ("map_identifier", format!("{{\"identifier\":\"{huge}\"}}")),
        ("find_concepts", format!("{{\"text\":\"{huge}\"}}")),
        (
            "find_concepts",
            format!("{{\"text\":\"x\",\"limit\":\"{huge}\"}}"),
        ),
        ("sparql_query", format!("{{\"query\":\"{huge}\"}}")),
    ];
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .expect("write");
    for (i, (tool, arguments)) in calls.iter().enumerate() {
        let line = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/call\",\"params\":{{\"name\":\"{tool}\",\"arguments\":{arguments}}}}}\n",
            i + 1
        );
        stdin.write_all(line.as_bytes()).expect("write");
    }
    stdin.flush().expect("flush");
    let mut sizes: Vec<(String, usize)> = Vec::new();
    for line in stdout.lines() {
        let line = line.expect("read");
        let reply: Value = serde_json::from_str(&line).expect("every reply is JSON");
        let Some(id) = reply["id"].as_u64().filter(|&id| id > 0) else {
            continue;
        };
        let (tool, _) = &calls[id as usize - 1];
        assert_eq!(
            reply["result"]["isError"],
            true,
            "{tool}: {}",
            &line[..line.len().min(500)]
        );
        let text = reply["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(
            text.len() <= 2048,
            "{tool}: the error answer is {} bytes",
            text.len()
        );
        sizes.push((tool.to_string(), line.len()));
        if sizes.len() == calls.len() {
            break;
        }
    }
    drop(stdin);
    let _ = child.wait();
    assert_eq!(sizes.len(), calls.len(), "every call answered: {sizes:?}");
    for (tool, bytes) in &sizes {
        // The JSON-RPC frame holds the error once as text: its own size is at most 2 KB
        // (escaping aside), the frame a little more.
        assert!(*bytes < 2600, "{tool}: {bytes} bytes back");
    }
}

#[test]
fn five_megabyte_names_uris_and_values_are_echoed_at_most_256_characters() {
    let mut child = serve_stdio();
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let big = "x".repeat(5 << 20);
    let request = |id: u32, method: &str, params: Value| {
        serde_json::json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
            .to_string()
    };
    let hostile: Vec<(u32, &str, String)> = vec![
        (
            201,
            "resource URI",
            request(
                201,
                "resources/read",
                serde_json::json!({ "uri": format!("ontoresolve://concept/{big}") }),
            ),
        ),
        (
            202,
            "resource URI of no scheme",
            request(202, "resources/read", serde_json::json!({ "uri": big })),
        ),
        (
            203,
            "prompt name",
            request(203, "prompts/get", serde_json::json!({ "name": big })),
        ),
        (
            204,
            "prompt argument",
            request(
                204,
                "prompts/get",
                serde_json::json!({ "name": "ground_mention", "arguments": { "mention": big } }),
            ),
        ),
        (
            205,
            "completion value",
            request(
                205,
                "completion/complete",
                serde_json::json!({ "ref": { "type": "ref/prompt", "name": "map_identifier_list" }, "argument": { "name": "identifiers", "value": format!("HP:0000118,{big},HP:") } }),
            ),
        ),
        (
            206,
            "method name",
            request(206, &big, serde_json::json!({})),
        ),
        (
            207,
            "list cursor",
            request(207, "resources/list", serde_json::json!({ "cursor": big })),
        ),
        (
            208,
            "tool name",
            request(
                208,
                "tools/call",
                serde_json::json!({ "name": big, "arguments": {} }),
            ),
        ),
    ];
    let init = "{\"jsonrpc\":\"2.0\",\"id\":100,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
    stdin.write_all(init.as_bytes()).expect("write");
    for (_, _, line) in &hostile {
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
    }
    // An id too long to repeat: refused with a null id.
    let long_id = serde_json::json!({ "jsonrpc": "2.0", "id": big, "method": "ping" }).to_string();
    stdin.write_all(long_id.as_bytes()).expect("write");
    stdin.write_all(b"\n").expect("write");
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":300,\"method\":\"ping\"}\n")
        .expect("write");
    stdin.flush().expect("flush");
    let mut replies: std::collections::BTreeMap<u64, String> = Default::default();
    for line in stdout.lines() {
        let line = line.expect("read");
        let reply: Value = serde_json::from_str(&line).expect("every reply is JSON");
        let id = reply["id"].as_u64().unwrap_or(0);
        // Every reply but initialize's (the server's instructions) is small.
        assert!(
            id == 100 || line.len() < 2048,
            "a {}-byte reply",
            line.len()
        );
        replies.insert(id, line);
        if id == 300 {
            break;
        }
    }
    drop(stdin);
    let _ = child.wait();
    let null_id = replies
        .get(&0)
        .expect("the long id is answered with a null id");
    assert!(null_id.contains("-32600"), "{null_id}");
    for (id, what, _) in &hostile {
        let reply = replies
            .get(&u64::from(*id))
            .unwrap_or_else(|| panic!("{what}: no reply"));
        assert!(
            reply.len() < 2048,
            "{what}: a {} byte reply: {}",
            reply.len(),
            &reply[..300.min(reply.len())]
        );
        let value: Value = serde_json::from_str(reply).expect("json");
        match *id {
            // Completion of a value no one types answers nothing, not an error.
            205 => assert_eq!(
                value["result"]["completion"]["values"],
                serde_json::json!([]),
                "{reply}"
            ),
            206 => assert_eq!(value["error"]["code"], -32601, "{reply}"),
            _ => assert!(value["error"]["code"].is_i64(), "{what}: {reply}"),
        }
        // Where it says what it was sent, it says how long it was.
        if reply.contains("xxxxxxxx") {
            assert!(
                reply.contains("5242"),
                "{what}: the length is stated: {reply}"
            );
        }
    }
}
