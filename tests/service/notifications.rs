//! A rebuild reaches listening clients of the real binary over HTTP, in both revisions: a
//! 2026-07-28 `subscriptions/listen` stream hears `resources/list_changed`, and
//! `tools/list_changed` because a source's release changed; a 2025-11-25 session hears the same
//! on its standalone SSE stream, plus `resources/updated` for what it subscribed to and a log
//! message naming the new build.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::http_client;
use crate::process::serve;
use crate::{META, build_edition, scratch};

/// How long a notification may take to arrive once the new build is installed.
const HEARD_WITHIN: Duration = Duration::from_secs(10);

/// An open response stream: its status, headers and the JSON-RPC messages heard on it so far,
/// read by a thread of its own.
struct EventStream {
    status: u16,
    head: String,
    heard: Arc<Mutex<Vec<Value>>>,
}

impl EventStream {
    /// Sends one request and keeps its response open, collecting every SSE `data:` message.
    fn open(port: u16, method: &str, headers: &[(&str, &str)], body: &str) -> EventStream {
        let opened = http_client::open(port, method, headers, body);
        let heard = Arc::new(Mutex::new(Vec::new()));
        let chunked = opened.chunked();
        let sink = heard.clone();
        let reader = opened.reader;
        std::thread::spawn(move || {
            http_client::read_events(reader, chunked, |message| {
                sink.lock().expect("lock").push(message)
            })
        });
        EventStream {
            status: opened.status,
            head: opened.head,
            heard,
        }
    }

    fn header(&self, name: &str) -> Option<String> {
        http_client::header(&self.head, name)
    }

    fn methods(&self) -> Vec<String> {
        self.heard
            .lock()
            .expect("lock")
            .iter()
            .filter_map(|m| m["method"].as_str().map(str::to_string))
            .collect()
    }

    /// Waits until every method in `wanted` has been heard, or fails naming what was.
    fn wait_for(&self, what: &str, wanted: &[&str]) {
        let started = Instant::now();
        while !wanted.iter().all(|w| self.methods().iter().any(|m| m == w)) {
            assert!(
                started.elapsed() < HEARD_WITHIN,
                "{what} heard only {:?}, wanted {wanted:?}",
                self.methods()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// One request of a 2025-11-25 session, answered as plain JSON.
fn legacy_post(port: u16, session: &str, body: &Value) -> (u16, String) {
    let (status, _, answer) = http_client::post(
        port,
        &[
            ("MCP-Protocol-Version", "2025-11-25"),
            ("Mcp-Session-Id", session),
        ],
        &body.to_string(),
    );
    (status, answer)
}

#[test]
fn a_rebuild_reaches_listen_streams_and_legacy_sessions_over_http() {
    let dir = scratch("notifications");
    let index = dir.join("index");
    build_edition(&dir, &index, 1);
    let server = serve(&index, &["--rate-limit", "0"], &[]);
    let port = server.1;

    // 2026-07-28: a listen stream for list changes, acknowledged before anything happens.
    let listen = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{{"notifications":{{"resourcesListChanged":true,"toolsListChanged":true}},{META}}}}}"#
    );
    let modern = EventStream::open(
        port,
        "POST",
        &[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "subscriptions/listen"),
        ],
        &listen,
    );
    assert_eq!(modern.status, 200, "{}", modern.head);
    assert!(
        modern
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/event-stream")),
        "{}",
        modern.head
    );
    modern.wait_for(
        "the listen stream",
        &["notifications/subscriptions/acknowledged"],
    );

    // 2025-11-25: a session with a log level, a subscription and its standalone stream.
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "notifications-test", "version": "1"}}});
    let (status, head, answer) = http_client::post(
        port,
        &[("MCP-Protocol-Version", "2025-11-25")],
        &initialize.to_string(),
    );
    assert_eq!(status, 200, "{answer}");
    let session = head
        .lines()
        .find_map(|l| l.strip_prefix("mcp-session-id:"))
        .map(|v| v.trim().to_string())
        .unwrap_or_else(|| panic!("a session id: {head}"));
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(legacy_post(port, &session, &initialized).0, 202);
    let level = json!({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel",
        "params": {"level": "info"}});
    let (status, answer) = legacy_post(port, &session, &level);
    assert_eq!(status, 200, "{answer}");
    let concept = "ontoresolve://concept/XD:0000003";
    let subscribe = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/subscribe",
        "params": {"uri": concept}});
    let (status, answer) = legacy_post(port, &session, &subscribe);
    assert!(status == 200 && !answer.contains("\"error\""), "{answer}");
    let legacy = EventStream::open(
        port,
        "GET",
        &[
            ("MCP-Protocol-Version", "2025-11-25"),
            ("Mcp-Session-Id", &session),
        ],
        "",
    );
    assert_eq!(legacy.status, 200, "{}", legacy.head);

    // Nothing is announced before there is something new.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(legacy.methods().is_empty(), "{:?}", legacy.methods());
    assert_eq!(
        modern.methods(),
        ["notifications/subscriptions/acknowledged"]
    );

    let second = build_edition(&dir, &index, 2);
    let changes = [
        "notifications/resources/list_changed",
        "notifications/tools/list_changed",
    ];
    modern.wait_for("the listen stream", &changes);
    legacy.wait_for(
        "the legacy session",
        &[
            changes[0],
            changes[1],
            "notifications/resources/updated",
            "notifications/message",
        ],
    );
    let heard = legacy.heard.lock().expect("lock").clone();
    let updated: Vec<&Value> = heard
        .iter()
        .filter(|m| m["method"] == "notifications/resources/updated")
        .collect();
    assert_eq!(updated.len(), 1, "{heard:?}");
    assert_eq!(updated[0]["params"]["uri"], concept);
    let log = heard
        .iter()
        .find(|m| m["method"] == "notifications/message")
        .expect("a log message");
    assert_eq!(log["params"]["level"], "info");
    assert_eq!(
        log["params"]["data"],
        json!({ "event": "build_switched", "build": second })
    );
    // A listen stream carries only what it asked for, and only 2026-07-28's kinds of it.
    let modern_heard = modern.methods();
    assert!(
        modern_heard
            .iter()
            .all(|m| m == "notifications/subscriptions/acknowledged" || changes.contains(&&**m)),
        "{modern_heard:?}"
    );
}
