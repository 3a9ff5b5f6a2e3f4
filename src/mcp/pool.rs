//! The blocking pool behind every call: tools, resource reads and completions run on it, in a
//! place, until a deadline that counts from the request's arrival (the HTTP gate stamps it,
//! `Arrival`), so that time spent waiting for a place is never given back. Past the deadline
//! the caller is answered at once; long work stops at its next check of
//! [`crate::resolve::deadline`] and gives its place back.

use crate::mcp::tools::ErrorCode;
use crate::model::WireName;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::*;
use rmcp::{ErrorData as McpError, Json};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use super::{CALL_DEADLINE, OntoServer, tool_error, tools};
use crate::resolve::Resolver;

/// When a request reached the server. The HTTP gate sets it before the request waits for
/// anything (its body, a place); a deadline counts from it, so that waiting is never free.
#[derive(Clone, Copy, Debug)]
pub struct Arrival(pub std::time::Instant);

/// The arrival of the request these extensions came with: the gate's, or now (stdio, where a
/// line is handled as it is read).
pub(super) fn arrival(extensions: &Extensions) -> std::time::Instant {
    extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Arrival>())
        .map_or_else(std::time::Instant::now, |a| a.0)
}

/// How long a call may take from its arrival: a SPARQL query its own deadline, any other
/// call the call deadline.
pub fn call_deadline(tool: Option<&str>) -> Duration {
    if tool == Some("sparql_query") {
        crate::resolve::query::QUERY_TIMEOUT
    } else {
        CALL_DEADLINE
    }
}

/// Why pooled work gave no answer.
pub(super) enum PoolFailure {
    Panicked,
    Timeout(Duration),
    /// The deadline passed while the call waited for a place: nothing ran.
    NeverStarted(Duration),
}

/// The protocol error for damage met outside a tool (a resource listing or read, a
/// completion): logged naming the file, answered as `index_damaged`, never as "not found".
pub(super) fn damaged_error(error: &crate::resolve::ResolveError) -> McpError {
    tracing::error!("index damaged: {error}");
    McpError::internal_error(
        "part of the index could not be read, so the answer would be incomplete",
        Some(json!({ "code": ErrorCode::IndexDamaged.wire_name() })),
    )
}

impl OntoServer {
    /// Runs a tool's work on the blocking pool within the call deadline. Past it, the caller
    /// gets a `timeout` answer at once and the server keeps serving others.
    pub(super) async fn run<T, F>(
        &self,
        raw: JsonObject,
        extensions: &Extensions,
        work: F,
    ) -> Result<Json<T>, CallToolResult>
    where
        T: Send + 'static,
        F: FnOnce(&Resolver) -> Result<T, tools::ToolError> + Send + 'static,
    {
        self.run_limited(None, arrival(extensions), self.deadline, raw, work)
            .await
    }

    /// [`Self::run`] for a SPARQL query: it also takes one of the query places, and its
    /// deadline is the query's, counted from arrival as well.
    pub(super) async fn run_query<T, F>(
        &self,
        raw: JsonObject,
        extensions: &Extensions,
        work: F,
    ) -> Result<Json<T>, CallToolResult>
    where
        T: Send + 'static,
        F: FnOnce(&Resolver) -> Result<T, tools::ToolError> + Send + 'static,
    {
        let deadline = self.deadline.min(call_deadline(Some("sparql_query")));
        let places = Some(self.queries.clone());
        self.run_limited(places, arrival(extensions), deadline, raw, work)
            .await
    }

    async fn run_limited<T, F>(
        &self,
        extra: Option<Arc<Semaphore>>,
        arrived: std::time::Instant,
        deadline: Duration,
        raw: JsonObject,
        work: F,
    ) -> Result<Json<T>, CallToolResult>
    where
        T: Send + 'static,
        F: FnOnce(&Resolver) -> Result<T, tools::ToolError> + Send + 'static,
    {
        match self.pooled(extra, arrived, deadline, work).await {
            Ok(answer) => answer
                .map(Json)
                .map_err(|e| tool_error(e, Value::Object(raw))),
            Err(PoolFailure::NeverStarted(deadline)) => Err(tool_error(
                tools::ToolError::new(
                    tools::ErrorCode::Timeout,
                    format!(
                        "the server was busy: the call waited its whole {} ms deadline for a place and did not start",
                        deadline.as_millis()
                    ),
                    "Nothing ran: retry in a few seconds.",
                ),
                Value::Object(raw),
            )),
            Err(PoolFailure::Panicked) => Err(tool_error(
                tools::ToolError::new(
                    tools::ErrorCode::InternalError,
                    "the server failed while answering; nothing was returned".into(),
                    "Retry once; if it fails again, tell whoever runs the server.",
                ),
                Value::Object(raw),
            )),
            Err(PoolFailure::Timeout(deadline)) => Err(tool_error(
                tools::ToolError::new(
                    tools::ErrorCode::Timeout,
                    format!("the call ran past its {} ms deadline", deadline.as_millis()),
                    "Narrow the question (a smaller limit, fewer identifiers, a source filter) and call again.",
                ),
                Value::Object(raw),
            )),
        }
    }

    /// Runs `work` on the blocking pool in a call place (and an `extra` place when given),
    /// until `deadline` after it `arrived`. Then the caller is answered, and long work stops
    /// at its next check of [`crate::resolve::deadline`] and gives its place back.
    async fn pooled<T, F>(
        &self,
        extra: Option<Arc<Semaphore>>,
        arrived: std::time::Instant,
        deadline: Duration,
        work: F,
    ) -> Result<T, PoolFailure>
    where
        T: Send + 'static,
        F: FnOnce(&Resolver) -> T + Send + 'static,
    {
        let resolver = self.resolver();
        let calls = self.calls.clone();
        // Waiting for a place counts: the work stops itself at the same instant.
        let due = arrived + deadline;
        let started = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let started_here = started.clone();
        let task = async move {
            let extra_permit = match extra {
                Some(places) => Some(places.acquire_owned().await),
                None => None,
            };
            let permit = calls.acquire_owned().await;
            tokio::task::spawn_blocking(move || {
                let _permits = (permit, extra_permit);
                // A place that came free only after the deadline does no work for a caller
                // already answered.
                if std::time::Instant::now() >= due {
                    return None;
                }
                started_here.store(true, std::sync::atomic::Ordering::SeqCst);
                Some(crate::resolve::deadline::within(due, || work(&resolver)))
            })
            .await
        };
        match tokio::time::timeout_at(due.into(), task).await {
            Ok(Ok(Some((answer, false)))) => Ok(answer),
            // The work stopped itself at the deadline: its answer is partial, never served.
            Ok(Ok(Some((_, true)))) => Err(PoolFailure::Timeout(deadline)),
            Ok(Ok(None)) => Err(PoolFailure::NeverStarted(deadline)),
            Ok(Err(join)) => {
                tracing::error!(error = %join, "a request failed inside the server");
                Err(PoolFailure::Panicked)
            }
            Err(_) if !started.load(std::sync::atomic::Ordering::SeqCst) => {
                Err(PoolFailure::NeverStarted(deadline))
            }
            Err(_) => Err(PoolFailure::Timeout(deadline)),
        }
    }
}

impl OntoServer {
    /// Index work for a protocol method (resources/read, completion/complete): on the blocking
    /// pool, in a call place, within the call deadline. Past it: a JSON-RPC error with
    /// `data.code` "timeout".
    pub(super) async fn blocking<T, F>(
        &self,
        extensions: &Extensions,
        work: F,
    ) -> Result<T, McpError>
    where
        T: Send + 'static,
        F: FnOnce(&Resolver) -> T + Send + 'static,
    {
        match self
            .pooled(None, arrival(extensions), self.deadline, work)
            .await
        {
            Ok(answer) => Ok(answer),
            Err(PoolFailure::Panicked) => Err(McpError::internal_error(
                "the server failed while answering",
                None,
            )),
            Err(PoolFailure::Timeout(deadline)) => Err(McpError::internal_error(
                format!(
                    "the request ran past its {} ms deadline",
                    deadline.as_millis()
                ),
                Some(json!({ "code": ErrorCode::Timeout.wire_name() })),
            )),
            Err(PoolFailure::NeverStarted(deadline)) => Err(McpError::internal_error(
                format!(
                    "the server was busy: the request waited its whole {} ms deadline for a place and did not start",
                    deadline.as_millis()
                ),
                Some(
                    json!({ "code": ErrorCode::Timeout.wire_name(), "next_step": "Nothing ran: retry in a few seconds." }),
                ),
            )),
        }
    }
}
