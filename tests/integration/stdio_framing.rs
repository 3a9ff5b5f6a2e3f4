//! Hostile lines over stdio against the real binary: each gets its specific JSON-RPC error,
//! in order, and the server still answers afterwards. Before the framing layer, seven of
//! these got no reply at all and the client waited forever.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::default_index_dir;

#[test]
fn every_unreadable_line_gets_an_error_reply_and_the_server_keeps_answering() {
    let index = default_index_dir();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
        .args(["serve", "--index"])
        .arg(&index)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
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
