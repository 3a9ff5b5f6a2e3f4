//! In-process: a session hears of a new build and answers from it, and a tool call past its
//! deadline is a `timeout` answer.

use std::sync::Arc;
use std::time::Duration;

use ontoresolve::mcp::OntoServer;
use ontoresolve::resolve::Resolver;
use ontoresolve::resolve::live::{LiveIndex, Reload};
use rmcp::model::*;
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

use crate::shared_server::catalogue_variant;
use crate::support::{build_into, scratch};

#[derive(Clone)]
struct Listener {
    resources_changed: Arc<tokio::sync::Notify>,
    /// Resource updates and log messages heard, as text.
    heard: Arc<std::sync::Mutex<Vec<String>>>,
}

impl ClientHandler for Listener {
    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::default();
        config.protocol_version = ProtocolVersion::V_2025_11_25;
        config
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.resources_changed.notify_one();
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let mut heard = self.heard.lock().expect("lock");
        heard.push(format!("updated {}", params.uri));
    }

    #[allow(deprecated)] // logging is a 2025-11-25 feature
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let mut heard = self.heard.lock().expect("lock");
        heard.push(format!("log {}", params.data));
    }
}

async fn answered_by(client: &rmcp::service::RunningService<RoleClient, Listener>) -> String {
    let result = client
        .call_tool(CallToolRequestParams::new("list_sources"))
        .await
        .expect("tools/call");
    let value: Value = serde_json::to_value(&result).expect("json");
    value["structuredContent"]["index"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// A legacy session sets a log level and subscribes to a concept and to a URI that no build
/// has yet; a new build brings `resources/list_changed`, `resources/updated` for both and a log
/// message naming the build.
#[tokio::test]
#[allow(deprecated)] // logging/setLevel and resources/subscribe are 2025-11-25 methods
async fn a_legacy_session_hears_of_a_new_build_and_answers_from_it() {
    let dir = scratch("live-notify");
    let index_dir = dir.join("index");
    let first = build_into(&catalogue_variant(&dir, 1), &index_dir);
    let resolver = Arc::new(Resolver::open(&index_dir).expect("open"));
    let live = Arc::new(LiveIndex::watching(&index_dir, resolver));
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let server = OntoServer::live(live.clone());
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let changed = Arc::new(tokio::sync::Notify::new());
    let heard = Arc::new(std::sync::Mutex::new(Vec::new()));
    let client = Listener {
        resources_changed: changed.clone(),
        heard: heard.clone(),
    }
    .serve(client_io)
    .await
    .expect("initialize");
    assert_eq!(answered_by(&client).await, first.manifest.build_id);
    client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Info))
        .await
        .expect("logging/setLevel");
    for uri in [
        "ontoresolve://concept/XO:0000001",
        "ontoresolve://concept/XO:9999999",
    ] {
        client
            .subscribe(SubscribeRequestParams::new(uri))
            .await
            .expect("resources/subscribe");
    }
    client
        .subscribe(SubscribeRequestParams::new(
            "ontoresolve://concept/XD:0000001",
        ))
        .await
        .expect("resources/subscribe");
    client
        .unsubscribe(UnsubscribeRequestParams::new(
            "ontoresolve://concept/XD:0000001",
        ))
        .await
        .expect("resources/unsubscribe");

    let second = build_into(&catalogue_variant(&dir, 2), &index_dir);
    assert_eq!(
        live.reload_if_changed().expect("reload"),
        Reload::Switched {
            build_id: second.manifest.build_id.clone()
        }
    );
    tokio::time::timeout(Duration::from_secs(5), changed.notified())
        .await
        .expect("notifications/resources/list_changed within 5 s");
    assert_eq!(answered_by(&client).await, second.manifest.build_id);
    let expected = [
        "updated ontoresolve://concept/XO:0000001".to_string(),
        "updated ontoresolve://concept/XO:9999999".to_string(),
        format!(
            "log {}",
            json!({ "event": "build_switched", "build": second.manifest.build_id })
        ),
    ];
    let waited = std::time::Instant::now();
    while heard.lock().expect("lock").len() < expected.len() {
        assert!(
            waited.elapsed() < Duration::from_secs(5),
            "heard only {:?}",
            heard.lock().expect("lock")
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(*heard.lock().expect("lock"), expected);
    assert_eq!(live.reload_if_changed().expect("check"), Reload::Unchanged);
    let _ = client.cancel().await;
}

async fn call(
    client: &rmcp::service::RunningService<RoleClient, ClientConfig>,
    tool: &str,
    args: Value,
) -> Value {
    let result = client
        .call_tool(
            CallToolRequestParams::new(tool.to_string())
                .with_arguments(args.as_object().cloned().unwrap_or_default()),
        )
        .await
        .expect("tools/call");
    if result.is_error == Some(true) {
        let text = result
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone())
            .unwrap_or_default();
        serde_json::from_str(&text).expect("error JSON")
    } else {
        serde_json::to_value(&result.structured_content).expect("json")
    }
}

/// An in-process 2025-11-25 client of a server over the default index whose calls have
/// `deadline`.
async fn client_of_default_index_with_deadline(
    deadline: Duration,
) -> rmcp::service::RunningService<RoleClient, ClientConfig> {
    let resolver = Arc::new(
        Resolver::open(&crate::support::default_index_dir()).expect("open the default index"),
    );
    let server = OntoServer::new(resolver).with_deadline(deadline);
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    ClientConfig::default()
        .serve(client_io)
        .await
        .expect("initialize")
}

/// A cheap call is answered (not `timeout`, which it would be if it found no place in time).
async fn assert_a_cheap_call_is_answered(
    client: &rmcp::service::RunningService<RoleClient, ClientConfig>,
) {
    let answer = call(
        client,
        "resolve_identifier",
        json!({ "identifier": "HP:0000118" }),
    )
    .await;
    assert_eq!(answer["result"]["outcome"], "found", "{answer}");
}

/// A runaway query outlives the call's deadline: the caller gets `timeout` at the deadline,
/// and the next cheap call is answered at once while the query still runs on the pool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_past_its_deadline_is_a_timeout_answer_and_others_go_on() {
    let client = client_of_default_index_with_deadline(Duration::from_millis(300)).await;
    let runaway =
        json!({ "query": "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?a ?b ?c . ?d ?e ?f } }" });
    let started = std::time::Instant::now();
    let answer = call(&client, "sparql_query", runaway).await;
    assert_eq!(answer["error"]["code"], "timeout", "{answer}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let started = std::time::Instant::now();
    assert_a_cheap_call_is_answered(&client).await;
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    let _ = client.cancel().await;
}

/// Work that would run for seconds (a batch of 1,000 lookups of a MeSH heading with hundreds of
/// supplementary records) stops itself at the call's deadline: every caller gets `timeout`,
/// and the pool's places come back, so a cheap call right after is answered rather than left
/// waiting behind work nobody will read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_work_past_its_deadline_stops_and_gives_its_pool_place_back() {
    let client = client_of_default_index_with_deadline(Duration::from_millis(300)).await;
    let heavy = json!({ "identifiers": vec!["MESH:D000068837"; 1000] });
    let mut calls = Vec::new();
    for _ in 0..ontoresolve::mcp::MAX_CONCURRENT_CALLS {
        let peer = client.peer().clone();
        let args = heavy.as_object().cloned().unwrap_or_default();
        calls.push(tokio::spawn(async move {
            peer.call_tool(CallToolRequestParams::new("map_identifiers").with_arguments(args))
                .await
        }));
    }
    for call in calls {
        let result = call.await.expect("task").expect("tools/call");
        assert_eq!(result.is_error, Some(true), "a whole batch in 300 ms?");
        let text = result.content[0].as_text().map(|t| t.text.clone());
        let answer: Value = serde_json::from_str(&text.unwrap_or_default()).expect("error JSON");
        assert_eq!(answer["error"]["code"], "timeout", "{answer}");
    }
    // Had the batches run on, all eight places would be taken for seconds and this call,
    // with the same 300 ms deadline, would time out waiting for one.
    assert_a_cheap_call_is_answered(&client).await;
    let _ = client.cancel().await;
}
