//! The stdio transport's framing: every line from stdin is checked before rmcp sees it, so
//! that a line rmcp would drop in silence (not JSON, not UTF-8, a batch, an object as id, a
//! lone surrogate, nesting too deep) gets a JSON-RPC error reply instead, and the client never
//! waits forever. Valid lines go on to rmcp unchanged; rmcp's replies and ours share one
//! writer, a whole line at a time.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// A longer line is refused (and read through to its end without being kept).
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;
/// Bytes buffered between this layer and rmcp, each way.
const PIPE_BYTES: usize = 1 << 20;
/// Lines waiting for the writer.
const PENDING_LINES: usize = 64;
/// How long, once stdin has ended, requests already read may take to be answered before
/// the server closes: longer than any call's deadline.
const DRAIN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(15);

/// Requests passed to rmcp and not yet answered. Stdin may end right after a request (a
/// client that sends one request and closes); rmcp's input stays open until it is answered.
#[derive(Default)]
struct Pending {
    open: std::sync::atomic::AtomicI64,
    answered: tokio::sync::Notify,
}

impl Pending {
    fn asked(&self) {
        self.open.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    fn answered(&self) {
        self.open.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        self.answered.notify_waiters();
    }

    /// Waits until every request read so far has its answer, or the drain timeout.
    async fn drained(&self) {
        let wait = async {
            loop {
                let notified = self.answered.notified();
                if self.open.load(std::sync::atomic::Ordering::SeqCst) <= 0 {
                    return;
                }
                notified.await;
            }
        };
        let _ = tokio::time::timeout(DRAIN_TIMEOUT, wait).await;
    }
}

/// Whether a line rmcp wrote answers a request: it has an id and no method.
fn is_response(line: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Probe {
        #[serde(default)]
        id: Option<serde::de::IgnoredAny>,
        #[serde(default)]
        method: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_str::<Probe>(line).is_ok_and(|p| p.id.is_some() && p.method.is_none())
}

/// JSON-RPC: the line is not JSON (or not UTF-8).
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: the line is JSON but not a request, notification or response this server reads.
const INVALID_REQUEST: i64 = -32600;

/// Why a line is refused, as a JSON-RPC error object.
fn refusal(code: i64, message: &str, id: Value) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } }).to_string()
}

/// The reply a line gets from this layer, or `None` when it goes on to rmcp.
#[cfg(test)]
fn check_line(line: &[u8]) -> Option<String> {
    inspect_line(line).err()
}

/// What a line passed on to rmcp means for the requests waiting for an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Forwarded {
    /// A request rmcp will answer.
    Request,
    /// A cancellation: rmcp drops the cancelled request's answer.
    Cancel,
    /// Anything else, including `subscriptions/listen`, which stays open until cancelled.
    Other,
}

/// What a line is, or the refusal this layer sends for it.
fn inspect_line(line: &[u8]) -> Result<Forwarded, String> {
    let Ok(text) = std::str::from_utf8(line) else {
        return Err(refusal(
            PARSE_ERROR,
            "parse error: the line is not UTF-8",
            Value::Null,
        ));
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(_) => {
            return Err(refusal(
                PARSE_ERROR,
                "parse error: the line is not one JSON value (or is nested too deeply)",
                Value::Null,
            ));
        }
    };
    let Value::Object(message) = value else {
        let what = if value.is_array() {
            "invalid request: batches are not supported; send one message per line"
        } else {
            "invalid request: a message is a JSON object"
        };
        return Err(refusal(INVALID_REQUEST, what, Value::Null));
    };
    let id = message.get("id").cloned();
    let id_ok = match &id {
        None => true,
        Some(Value::String(_)) => true,
        Some(Value::Number(n)) => n.is_i64(),
        Some(_) => false,
    };
    if !id_ok {
        return Err(refusal(
            INVALID_REQUEST,
            "invalid request: id must be a string or an integer",
            Value::Null,
        ));
    }
    let reply_id = id.unwrap_or(Value::Null);
    if message.get("jsonrpc") != Some(&Value::String("2.0".into())) {
        return Err(refusal(
            INVALID_REQUEST,
            "invalid request: jsonrpc must be \"2.0\"",
            reply_id,
        ));
    }
    let forwarded = match (
        message.get("method").and_then(Value::as_str),
        message.contains_key("id"),
    ) {
        (Some("subscriptions/listen"), _) => Forwarded::Other,
        (Some("notifications/cancelled"), false) => Forwarded::Cancel,
        (Some(_), true) => Forwarded::Request,
        _ => Forwarded::Other,
    };
    let shape_ok = match message.get("method") {
        Some(Value::String(_)) => {
            matches!(message.get("params"), None | Some(Value::Object(_)))
        }
        Some(_) => false,
        None => message.contains_key("result") || message.contains_key("error"),
    };
    if !shape_ok {
        return Err(refusal(
            INVALID_REQUEST,
            "invalid request: a request needs a string method and object params; a response a result or an error",
            reply_id,
        ));
    }
    if let Some((code, text)) = super::echo::overlong_fields(&Value::Object(message)) {
        let id = if code == INVALID_REQUEST {
            Value::Null
        } else {
            reply_id
        };
        return Err(refusal(code, &text, id));
    }
    Ok(forwarded)
}

/// Reads lines from `input`, refuses bad ones on `replies`, and writes good ones to `server`.
/// Ends (closing `server`) when `input` ends.
async fn read_lines(
    input: impl AsyncRead + Unpin,
    mut server: impl AsyncWrite + Unpin,
    replies: mpsc::Sender<String>,
    pending: &Pending,
) -> std::io::Result<()> {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut input)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut line)
            .await?;
        if read == 0 {
            break;
        }
        if line.len() > MAX_LINE_BYTES && line.last() != Some(&b'\n') {
            skip_rest_of_line(&mut input).await?;
            let reply = refusal(
                INVALID_REQUEST,
                &format!("invalid request: a message is at most {MAX_LINE_BYTES} bytes"),
                Value::Null,
            );
            if replies.send(reply).await.is_err() {
                break;
            }
            continue;
        }
        let trimmed = line.trim_ascii();
        if trimmed.is_empty() {
            continue;
        }
        match inspect_line(trimmed) {
            Err(reply) => {
                if replies.send(reply).await.is_err() {
                    break;
                }
            }
            Ok(forwarded) => {
                match forwarded {
                    Forwarded::Request => pending.asked(),
                    Forwarded::Cancel => pending.answered(),
                    Forwarded::Other => {}
                }
                server.write_all(trimmed).await?;
                server.write_all(b"\n").await?;
                server.flush().await?;
            }
        }
    }
    pending.drained().await;
    server.shutdown().await
}

async fn skip_rest_of_line(input: &mut (impl AsyncBufReadExt + Unpin)) -> std::io::Result<()> {
    loop {
        let buffer = input.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(());
        }
        if let Some(end) = buffer.iter().position(|&b| b == b'\n') {
            input.consume(end + 1);
            return Ok(());
        }
        let n = buffer.len();
        input.consume(n);
    }
}

/// Forwards rmcp's output, a line at a time, to the writer.
async fn forward_replies(
    server: impl AsyncRead + Unpin,
    replies: mpsc::Sender<String>,
    pending: &Pending,
) -> std::io::Result<()> {
    let mut lines = BufReader::new(server).lines();
    while let Some(line) = lines.next_line().await? {
        let answers = is_response(&line);
        let sent = replies.send(line).await;
        if answers {
            pending.answered();
        }
        if sent.is_err() {
            break;
        }
    }
    Ok(())
}

/// Writes whole lines to `output` until every sender is gone.
async fn write_lines(
    mut output: impl AsyncWrite + Unpin,
    mut replies: mpsc::Receiver<String>,
) -> std::io::Result<()> {
    while let Some(mut line) = replies.recv().await {
        // One write per line: tokio's stdout runs each write on the blocking pool, and a
        // second write for the newline would cost another round trip.
        line.push('\n');
        output.write_all(line.as_bytes()).await?;
        output.flush().await?;
    }
    // A writer that hands lines on (stdout's thread) has written them all once shut down.
    output.shutdown().await
}

/// The pipe rmcp reads requests from and writes replies to.
pub type Transport = (
    tokio::io::ReadHalf<tokio::io::DuplexStream>,
    tokio::io::WriteHalf<tokio::io::DuplexStream>,
);

/// The transport rmcp serves on, and the task that frames stdin and stdout around it.
pub fn framed(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin + Send + 'static,
) -> (Transport, tokio::task::JoinHandle<std::io::Result<()>>) {
    let (ours, theirs) = tokio::io::duplex(PIPE_BYTES);
    let (from_server, to_server) = tokio::io::split(ours);
    let (tx, rx) = mpsc::channel(PENDING_LINES);
    let reader_tx = tx.clone();
    let task = tokio::spawn(async move {
        let pending = Pending::default();
        let reader = read_lines(input, to_server, reader_tx, &pending);
        let forward = forward_replies(from_server, tx, &pending);
        let writer = write_lines(output, rx);
        let (read, forward, write) = tokio::join!(reader, forward, writer);
        read.and(forward).and(write)
    });
    (tokio::io::split(theirs), task)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(reply: Option<String>) -> Option<i64> {
        let value: Value = serde_json::from_str(&reply?).ok()?;
        value["error"]["code"].as_i64()
    }

    #[test]
    fn lines_rmcp_would_drop_get_a_specific_error() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let cases: Vec<(&[u8], i64)> = vec![
            (b"{not json", PARSE_ERROR),
            (b"\xff\xfe{}", PARSE_ERROR),
            (
                br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\ud800"}}"#,
                PARSE_ERROR,
            ),
            (deep.as_bytes(), PARSE_ERROR),
            (
                br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
                INVALID_REQUEST,
            ),
            (b"42", INVALID_REQUEST),
            (
                br#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
                INVALID_REQUEST,
            ),
            (
                br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
                INVALID_REQUEST,
            ),
            (
                br#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
                INVALID_REQUEST,
            ),
            (br#"{"jsonrpc":"2.0","id":1,"method":7}"#, INVALID_REQUEST),
            (
                br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}"#,
                INVALID_REQUEST,
            ),
            (br#"{"jsonrpc":"2.0","id":1}"#, INVALID_REQUEST),
        ];
        for (line, expected) in cases {
            assert_eq!(
                code(check_line(line)),
                Some(expected),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn well_formed_messages_go_on_to_rmcp() {
        for line in [
            br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.as_slice(),
            br#"{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}}"#,
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            br#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
        ] {
            assert_eq!(check_line(line), None, "{}", String::from_utf8_lossy(line));
        }
    }

    #[tokio::test]
    async fn an_over_long_line_is_refused_and_the_next_one_still_read() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
        let (tx, mut rx) = mpsc::channel(4);
        let mut server = Vec::new();
        read_lines(input.as_slice(), &mut server, tx, &Pending::default())
            .await
            .expect("read");
        let reply = rx.recv().await.expect("a refusal");
        assert!(reply.contains("-32600"), "{reply}");
        assert_eq!(
            String::from_utf8_lossy(&server),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"
        );
    }
}
