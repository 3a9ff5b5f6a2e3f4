//! The in-process MCP harness the `mcp_*` modules share: the server on the bundled catalogue's
//! index over `tokio::io::duplex`, a client under either protocol revision, and readers for tool
//! results and prompts.

use std::sync::Arc;

use ontoresolve::mcp::OntoServer;
use ontoresolve::resolve::Resolver;
use rmcp::model::*;
use rmcp::service::RunningService;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::Value;

/// A connected in-process client.
pub(crate) type Client = RunningService<RoleClient, ClientConfig>;

/// The index of the bundled catalogue, built once per test run and shared.
pub(crate) fn resolver() -> Arc<Resolver> {
    static R: std::sync::OnceLock<Arc<Resolver>> = std::sync::OnceLock::new();
    R.get_or_init(|| Arc::new(Resolver::open(&crate::support::default_index_dir()).expect("open")))
        .clone()
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Revision {
    Modern,
    Legacy,
}

pub(crate) async fn connect(revision: Revision) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let server = OntoServer::new(resolver());
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = match revision {
        Revision::Modern => ClientConfig::default()
            .serve_with_lifecycle(
                client_io,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("discover"),
        Revision::Legacy => {
            let mut config = ClientConfig::default();
            config.protocol_version = ProtocolVersion::V_2025_11_25;
            config.serve(client_io).await.expect("initialize")
        }
    };
    client
        .set_response_cache_config(rmcp::ClientCacheConfig::disabled())
        .await;
    client
}

pub(crate) async fn call(client: &Client, tool: &str, args: Value) -> CallToolResult {
    let args = args.as_object().cloned().unwrap_or_default();
    let response = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .expect("tools/call");
    let value = serde_json::to_value(&response).expect("serialize");
    serde_json::from_value(value).expect("a complete tool result")
}

pub(crate) fn structured(result: &CallToolResult) -> &Value {
    result
        .structured_content
        .as_ref()
        .expect("structuredContent")
}

/// The code of an input error: isError, no structuredContent, the error as JSON text.
pub(crate) fn error_code(result: &CallToolResult) -> String {
    assert_eq!(result.is_error, Some(true), "an input error");
    assert!(
        result.structured_content.is_none(),
        "errors carry no structuredContent"
    );
    let text = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default();
    let v: Value = serde_json::from_str(&text).expect("error JSON");
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    assert!(
        v["error"]["next_step"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    v["error"]["code"].as_str().unwrap_or_default().to_string()
}

pub(crate) async fn both(check: impl AsyncFn(Revision, &Client)) {
    for revision in [Revision::Modern, Revision::Legacy] {
        let client = connect(revision).await;
        check(revision, &client).await;
        let _ = client.cancel().await;
    }
}

impl PartialEq for Revision {
    fn eq(&self, other: &Self) -> bool {
        matches!(
            (self, other),
            (Revision::Modern, Revision::Modern) | (Revision::Legacy, Revision::Legacy)
        )
    }
}

pub(crate) async fn prompt_text(client: &Client, name: &str, arguments: Value) -> String {
    let prompt = client
        .get_prompt(
            GetPromptRequestParams::new(name)
                .with_arguments(arguments.as_object().cloned().unwrap_or_default()),
        )
        .await
        .expect("prompts/get");
    serde_json::to_string(&prompt).expect("json")
}
