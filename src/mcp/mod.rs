//! The MCP server: the only module that knows rmcp, schemars and the wire protocol. It serves
//! revisions 2026-07-28 and 2025-11-25 from one handler, over stdio (`stdio.rs`) and
//! Streamable HTTP (`http.rs`). Tools are in `router.rs`, prompts in `prompts.rs`, resources
//! in `resources.rs`, the blocking pool and its deadlines in `pool.rs`.

mod catalogue;
mod client_places;
mod completion;
pub mod cursor;
pub mod dto;
pub mod dto_changes;
pub mod dto_mapping;
pub mod dto_passage;
pub mod dto_query;
pub mod echo;
mod http;
pub mod instructions;
mod page_gate;
mod pool;
mod prompts;
mod resources;
mod router;
mod session;
mod stdio;
mod stdio_threads;
pub mod wire;

pub use client_places::MAX_CALLS_PER_CLIENT;
pub use http::{DEFAULT_MAX_BODY_BYTES, DEFAULT_RATE_LIMIT, HttpOptions, http_router, serve_http};
pub use instructions::instructions as instructions_for;
pub use pool::{Arrival, call_deadline};
pub use prompts::{EXPLAIN_PROMPT, GROUND_PROMPT, MAP_LIST_PROMPT};
pub mod tools;

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::*;
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, tool_handler};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use crate::resolve::Resolver;
use crate::resolve::live::LiveIndex;
use resources::{not_found, page_cursor};

/// How long clients may cache lists and reads: the data only changes with a rebuild.
pub const CACHE_TTL_MS: u64 = 3_600_000;
const PAGE_SIZE: usize = 50;
pub const CONCEPT_TEMPLATE: &str = "ontoresolve://concept/{curie}";
pub const PREFIX_TEMPLATE: &str = "ontoresolve://prefix/{prefix}";
pub const MAPPINGS_TEMPLATE: &str = "ontoresolve://mappings/{curie}";
pub const MAPPING_SET_TEMPLATE: &str = "ontoresolve://mapping-set/{id}";

/// How long one tool call may take, waiting for the pool included. SPARQL stops itself
/// sooner (`resolve::query::QUERY_TIMEOUT`); other long work stops at this deadline
/// (`resolve::deadline`), its partial answer dropped.
pub const CALL_DEADLINE: Duration = Duration::from_secs(10);
/// How often a 2025-11-25 session's notification task checks that the session still exists.
const SESSION_CHECK: Duration = Duration::from_secs(30);
/// Tool calls running at once on the blocking pool; more wait for a place.
pub const MAX_CONCURRENT_CALLS: usize = 8;
/// Of those, explicit SPARQL queries: a query the store cannot cancel promptly (a join held in
/// memory) keeps its place until it ends, and must not starve the other tools.
pub const MAX_CONCURRENT_QUERIES: usize = 2;

#[derive(Clone)]
pub struct OntoServer {
    index: Arc<LiveIndex>,
    calls: Arc<Semaphore>,
    queries: Arc<Semaphore>,
    deadline: Duration,
    /// Shared, so that a server per session costs a few reference counts.
    tool_router: Arc<ToolRouter<Self>>,
    /// The tools as `tools/list` sends them (`catalogue.rs`).
    tools: Arc<Vec<Tool>>,
    /// A 2025-11-25 session's log level and subscriptions (`session.rs`).
    session: Arc<session::Session>,
}

impl OntoServer {
    /// A server over one fixed build.
    pub fn new(resolver: Arc<Resolver>) -> Self {
        Self::live(Arc::new(LiveIndex::fixed(resolver)))
    }

    /// A server that answers each request from the index's current build.
    pub fn live(index: Arc<LiveIndex>) -> Self {
        OntoServer {
            index,
            calls: Arc::new(Semaphore::new(MAX_CONCURRENT_CALLS)),
            queries: Arc::new(Semaphore::new(MAX_CONCURRENT_QUERIES)),
            deadline: CALL_DEADLINE,
            tool_router: Arc::new(Self::tool_router()),
            tools: Arc::new(catalogue::compact_tools(Self::tool_router().list_all())),
            session: Arc::default(),
        }
    }

    /// The same server for a new session: shared index and limits, its own session state.
    pub fn for_session(&self) -> Self {
        OntoServer {
            session: Arc::default(),
            ..self.clone()
        }
    }

    /// The same server with another call deadline (tests use a short one).
    pub fn with_deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }

    /// The build this request is answered from.
    fn resolver(&self) -> Arc<Resolver> {
        self.index.current()
    }
}

/// Whether a request speaks a revision with a handshake (2025-11-25), not the stateless one.
fn legacy(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_none_or(|version| version.has_initialize())
}

/// Reads tool arguments ourselves, so that a missing, misspelled or mistyped argument is an
/// `invalid_argument` answer with a next step rather than a bare deserialization message.
fn parse_args<T: serde::de::DeserializeOwned>(raw: &JsonObject) -> Result<T, CallToolResult> {
    serde_json::from_value(Value::Object(raw.clone())).map_err(|e| {
        tool_error(
            tools::ToolError::new(
                tools::ErrorCode::InvalidArgument,
                format!("the arguments do not fit the tool's input schema: {e}"),
                "Call again with the arguments named and typed as in the tool's inputSchema.",
            ),
            Value::Object(raw.clone()),
        )
    })
}

/// An input error: `isError` with the code, message and next step as JSON text. No
/// structuredContent, which would have to match the success outputSchema.
fn tool_error(e: tools::ToolError, input: serde_json::Value) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(e.to_json(&input).to_string())])
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for OntoServer {
    // `logging` is deprecated (SEP-2577) but still how 2025-11-25 clients learn that
    // logging/setLevel is offered.
    #[allow(deprecated)]
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_resources()
                .enable_resources_list_changed()
                .enable_resources_subscribe()
                .enable_prompts()
                .enable_completions()
                .enable_logging()
                .build(),
        )
        .with_server_info(Implementation::new(
            "ontoresolve",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(instructions::instructions(self.resolver().manifest()))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(&[ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25])
    }

    async fn discover(&self, _ctx: RequestContext<RoleServer>) -> Result<DiscoverResult, McpError> {
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.get_info(),
        )
        .with_ttl_ms(CACHE_TTL_MS)
        .with_cache_scope(CacheScope::Public))
    }

    /// 2026-07-28 clients hear of new builds on `subscriptions/listen`.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = requested.supported_by(&self.get_info().capabilities);
        accepted.resource_subscriptions = None;
        accepted.prompts_list_changed = None;
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), McpError> {
        let mut switches = self.index.switches();
        switches.mark_unchanged();
        loop {
            tokio::select! {
                () = context.cancelled() => return Ok(()),
                changed = switches.changed() => {
                    if changed.is_err() {
                        return Ok(());
                    }
                    let switch = switches.borrow_and_update().clone();
                    let sink = context.sink();
                    if sink.accepted().resources_list_changed == Some(true) {
                        let _ = sink.notify_resource_list_changed().await;
                    }
                    if switch.sources_changed && sink.accepted().tools_list_changed == Some(true) {
                        let _ = sink.notify_tool_list_changed().await;
                    }
                }
            }
        }
    }

    /// 2025-11-25 clients hear of new builds on their session, until it closes.
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let mut switches = self.index.switches();
        switches.mark_unchanged();
        let peer = context.peer;
        let session = self.session.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    changed = switches.changed() => {
                        if changed.is_err() {
                            return;
                        }
                        let switch = switches.borrow_and_update().clone();
                        if peer.notify_resource_list_changed().await.is_err() {
                            return;
                        }
                        if switch.sources_changed && peer.notify_tool_list_changed().await.is_err() {
                            return;
                        }
                        if session.announce_build(&peer, &switch.build_id).await.is_err() {
                            return;
                        }
                    }
                    // A session that ended without a build switch must not leave this task.
                    () = tokio::time::sleep(SESSION_CHECK) => {
                        if peer.is_transport_closed() {
                            return;
                        }
                    }
                }
            }
        });
    }

    /// 2025-11-25 only: the level of log messages this session wants (none until set).
    #[allow(deprecated)] // logging is deprecated (SEP-2577) and removed in 2026-07-28
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        if !legacy(&context) {
            return Err(McpError::method_not_found::<SetLevelRequestMethod>());
        }
        self.session.set_level(request.level);
        Ok(())
    }

    /// 2025-11-25 only (rmcp refuses it for 2026-07-28): `resources/updated` for this URI
    /// whenever a new build is served.
    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.session.subscribe(&request.uri)
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.session.unsubscribe(&request.uri);
        Ok(())
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        if let Some(c) = request.and_then(|r| r.cursor) {
            return Err(McpError::invalid_params(
                "invalid cursor",
                Some(json!({ "cursor": echo::text(&c) })),
            ));
        }
        let tools = self.tools.as_ref().clone();
        Ok(ListToolsResult::with_all_items(tools)
            .with_ttl_ms(CACHE_TTL_MS)
            .with_cache_scope(CacheScope::Public))
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        prompts::list(request)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        prompts::get(request)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let resolver = self.resolver();
        let build_id = resolver.manifest().build_id.as_str();
        let all = resources::all_listed(&resolver).map_err(|e| pool::damaged_error(&e))?;
        let start = page_cursor(request.and_then(|r| r.cursor), all.len(), build_id)?;
        let end = (start + PAGE_SIZE).min(all.len());
        let mut result = ListResourcesResult::with_all_items(all[start..end].to_vec())
            .with_ttl_ms(CACHE_TTL_MS)
            .with_cache_scope(CacheScope::Public);
        result.next_cursor =
            (end < all.len()).then(|| cursor::encode(build_id, resources::LIST_SCOPE, end));
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        if let Some(c) = request.and_then(|r| r.cursor) {
            return Err(McpError::invalid_params(
                "invalid cursor",
                Some(json!({ "cursor": echo::text(&c) })),
            ));
        }
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(CONCEPT_TEMPLATE, "concept")
                .with_title("A concept by CURIE")
                .with_description("Any loaded concept by CURIE, e.g. ontoresolve://concept/HP:0000118; JSON and Turtle.")
                .with_mime_type("application/json"),
            ResourceTemplate::new(PREFIX_TEMPLATE, "prefix")
                .with_title("A prefix by name")
                .with_description("Any Bioregistry or catalogue prefix, in any case or synonym, e.g. ontoresolve://prefix/mesh: its record, pattern, example, URI prefixes and the loaded sources that use it.")
                .with_mime_type("application/json"),
            ResourceTemplate::new(MAPPINGS_TEMPLATE, "mappings")
                .with_title("An identifier's mappings")
                .with_description("Every mapping of an identifier, e.g. ontoresolve://mappings/MONDO:0005148: the map_identifier answer with its defaults (inferred included, predictions counted).")
                .with_mime_type("application/json"),
            ResourceTemplate::new(MAPPING_SET_TEMPLATE, "mapping-set")
                .with_title("A mapping set by catalogue id")
                .with_description("A loaded mapping set, e.g. ontoresolve://mapping-set/mondo-sssom: each file's set id, version, licence, header and counts.")
                .with_mime_type("application/json"),
        ])
        .with_ttl_ms(CACHE_TTL_MS)
        .with_cache_scope(CacheScope::Public))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri.clone();
        let contents = self
            .blocking(&context.extensions, move |resolver| {
                resources::contents(resolver, &uri)
            })
            .await??;
        let uri = request.uri.as_str();
        let contents = contents.ok_or_else(|| not_found(uri))?;
        Ok(ReadResourceResult::new(contents)
            .with_ttl_ms(CACHE_TTL_MS)
            .with_cache_scope(CacheScope::Public)
            .into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        let values = self
            .blocking(&context.extensions, move |resolver| {
                completion::values(resolver, &request)
            })
            .await?
            .map_err(|e| pool::damaged_error(&e))?;
        let has_more = values.len() >= CompletionInfo::MAX_VALUES;
        let info = CompletionInfo::with_pagination(values, None, has_more)
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CompleteResult::new(info))
    }
}

/// Serves over stdin/stdout until stdin closes.
/// Every line is checked first (`stdio.rs`): one that rmcp would drop gets a JSON-RPC error
/// reply.
pub async fn serve_stdio(index: Arc<LiveIndex>) -> Result<(), std::io::Error> {
    use rmcp::ServiceExt;
    let (transport, framing) = stdio::framed(
        stdio_threads::stdin()?,
        stdio_threads::ThreadStdout::spawn()?,
    );
    match OntoServer::live(index).serve(transport).await {
        Ok(running) => {
            running.waiting().await.map_err(std::io::Error::other)?;
        }
        // A stateless client may send only `server/discover` (answered) and close: stdin
        // ending before a session starts is a normal end, not an error.
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => {}
        Err(e) => return Err(std::io::Error::other(e)),
    }
    framing.await.map_err(std::io::Error::other)??;
    Ok(())
}
