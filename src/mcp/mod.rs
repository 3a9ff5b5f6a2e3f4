//! The MCP server: the only module that knows rmcp, schemars and the wire protocol. It serves
//! revisions 2026-07-28 and 2025-11-25 from one handler, over stdio and Streamable HTTP.

pub mod dto;
pub mod dto_mapping;
mod instructions;
mod resources;
mod stdio;

pub use instructions::instructions as instructions_for;
pub mod tools;

use std::borrow::Cow;
use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::handler::server::common::schema_for_type;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{
    ErrorData as McpError, Json, RoleServer, ServerHandler, tool, tool_handler, tool_router,
};
use serde_json::{Value, json};

use crate::resolve::Resolver;
use dto::*;
use resources::{json_contents, not_found, page_cursor};

/// How long clients may cache lists and reads: the data only changes with a rebuild.
pub const CACHE_TTL_MS: u64 = 3_600_000;
const PAGE_SIZE: usize = 50;
pub const CONCEPT_TEMPLATE: &str = "ontoresolve://concept/{curie}";
pub const PREFIX_TEMPLATE: &str = "ontoresolve://prefix/{prefix}";
pub const MAPPINGS_TEMPLATE: &str = "ontoresolve://mappings/{curie}";
pub const MAPPING_SET_TEMPLATE: &str = "ontoresolve://mapping-set/{id}";
const GROUND_PROMPT: &str = "ground_mention";

#[derive(Clone)]
pub struct OntoServer {
    resolver: Arc<Resolver>,
    instructions: Arc<String>,
    tool_router: ToolRouter<Self>,
}

/// Reads tool arguments ourselves, so that a missing, misspelled or mistyped argument is an
/// `invalid_argument` answer with a next step rather than a bare deserialization message.
fn parse_args<T: serde::de::DeserializeOwned>(raw: &JsonObject) -> Result<T, CallToolResult> {
    serde_json::from_value(Value::Object(raw.clone())).map_err(|e| {
        tool_error(
            tools::ToolError::new(
                "invalid_argument",
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

#[tool_router]
impl OntoServer {
    pub fn new(resolver: Arc<Resolver>) -> Self {
        let instructions = Arc::new(instructions::instructions(resolver.manifest()));
        OntoServer {
            resolver,
            instructions,
            tool_router: Self::tool_router(),
        }
    }

    /// What is this identifier?
    #[tool(
        input_schema = schema_for_type::<IdentifierArgs>(),
        description = "What is this identifier? Normalizes any spelling (CURIE in any case, prefix synonyms such as EntrezGene or MSH, PREFIX_local, IRIs including identifiers.org and n2t links, doubled prefixes like GO:GO:) with the Bioregistry, records each step, and says exactly one of: found, obsolete (with every replacement, each followed to a live concept, and any live concept that lists it as an alternative id), not_in_loaded_sources (with the resolver link), malformed (with the pattern and an example), unknown_prefix (with the closest prefixes) or ambiguous_input (every reading of a bare local id).",
        annotations(
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false,
            destructive_hint = false
        )
    )]
    async fn resolve_identifier(
        &self,
        Parameters(raw): Parameters<JsonObject>,
    ) -> Result<Json<Envelope<Resolution>>, CallToolResult> {
        let args: IdentifierArgs = parse_args(&raw)?;
        tools::resolve_identifier(&self.resolver, &args)
            .map(Json)
            .map_err(|e| tool_error(e, Value::Object(raw)))
    }

    /// Which concepts have this name?
    #[tool(
        input_schema = schema_for_type::<FindArgs>(),
        description = "Which concepts have this name? Looks the name up as a label or synonym, as a name variant (plural, inverted heading, 'X of Y', British spelling, 'X cancer' for 'X neoplasms'), through mappings (another source has the name and maps exactly to the concept: match_kind via_mapping, with the mapping), as a near spelling and in full text, and ranks all of them by match_kind, best first. `sources` limits the candidates, not the names: a name only MONDO knows still finds MeSH concepts. Short inputs in capitals are read as abbreviations (case-exact first). Each candidate says how it matched, whether the letter case matched (gene symbols are case-significant), its status and its score's basis; `ambiguous` and `distinct_concepts` say when one name names several concepts. Obsolete and withdrawn concepts are hidden unless include_obsolete is true, and counted.",
        annotations(
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false,
            destructive_hint = false
        )
    )]
    async fn find_concepts(
        &self,
        Parameters(raw): Parameters<JsonObject>,
    ) -> Result<Json<Envelope<Candidates>>, CallToolResult> {
        let args: FindArgs = parse_args(&raw)?;
        tools::find_concepts(&self.resolver, &args)
            .map(Json)
            .map_err(|e| tool_error(e, Value::Object(raw)))
    }

    /// What is this identifier in other vocabularies?
    #[tool(
        input_schema = schema_for_type::<MapArgs>(),
        description = "What is this identifier in other vocabularies? Every candidate from the loaded mapping sets (SSSOM: MONDO, biomappings, gilda, ...) and the sources' own cross-references, one ranked list: curated asserted > a source's cross-reference > other asserted > predicted > inferred. Each candidate has its object (normalized CURIE) with label and status when loaded, predicate (hasDbXref is never read as exactMatch), justification, confidence, cardinality, rank basis, and one evidence entry per statement (mapping set id and version, source, release, author, reviewer, tool). Inferred candidates (SSSOM chaining rules, at most 2 hops, never twice through one prefix) come with their path and each hop's evidence. Negative (Not) statements are listed apart, never as candidates, and block the inferences they contradict; conflicts are flagged; predictions are hidden unless include_predicted and counted.",
        annotations(
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false,
            destructive_hint = false
        )
    )]
    async fn map_identifier(
        &self,
        Parameters(raw): Parameters<JsonObject>,
    ) -> Result<Json<Envelope<Mappings>>, CallToolResult> {
        let args: MapArgs = parse_args(&raw)?;
        tools::map_identifier(&self.resolver, &args)
            .map(Json)
            .map_err(|e| tool_error(e, Value::Object(raw)))
    }

    /// The same for a list.
    #[tool(
        input_schema = schema_for_type::<MapBatchArgs>(),
        description = "map_identifier for a list of up to 1,000 identifiers, with the same options, in compact rows: per input its outcome (or why it has no mapping), each candidate's object, label, status, predicate, justification, confidence, rank tier, sources and the identifiers an inferred one goes through, the objects of negative statements and the number of conflicts. Every input gets a row, in input order.",
        annotations(
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false,
            destructive_hint = false
        )
    )]
    async fn map_identifiers(
        &self,
        Parameters(raw): Parameters<JsonObject>,
    ) -> Result<Json<Envelope<MappingRows>>, CallToolResult> {
        let args: MapBatchArgs = parse_args(&raw)?;
        tools::map_identifiers(&self.resolver, &args)
            .map(Json)
            .map_err(|e| tool_error(e, Value::Object(raw)))
    }

    /// Everything about one concept.
    #[tool(
        input_schema = schema_for_type::<IdentifierArgs>(),
        description = "Everything about one concept: its kind (class, concept, descriptor, supplementary_record, qualifier, gene), labels by kind and language, definitions, parents, children, MeSH tree numbers, a gene's locus type, cross-references with their predicate, source and release, status with every replacement, and its source release and named graph.",
        annotations(
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false,
            destructive_hint = false
        )
    )]
    async fn get_concept(
        &self,
        Parameters(raw): Parameters<JsonObject>,
    ) -> Result<Json<Envelope<Option<ConceptDetail>>>, CallToolResult> {
        let args: IdentifierArgs = parse_args(&raw)?;
        tools::get_concept(&self.resolver, &args)
            .map(Json)
            .map_err(|e| tool_error(e, Value::Object(raw)))
    }

    /// What is loaded?
    #[tool(
        description = "What is loaded? Each source with its release (and where the release came from), counts, licence and scope, and the catalogue sources that are not loaded.",
        annotations(
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false,
            destructive_hint = false
        )
    )]
    async fn list_sources(&self) -> Json<Envelope<SourceList>> {
        Json(tools::list_sources(&self.resolver))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for OntoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .enable_completions()
                .build(),
        )
        .with_server_info(Implementation::new(
            "ontoresolve",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(self.instructions.as_str())
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

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        if let Some(c) = request.and_then(|r| r.cursor) {
            return Err(McpError::invalid_params(
                "invalid cursor",
                Some(json!({ "cursor": c })),
            ));
        }
        // Descriptions name what this index holds, from its manifest, never from fixed text.
        let loaded = self
            .resolver
            .manifest()
            .sources
            .iter()
            .map(|s| format!("{} ({} {})", s.id, s.title, s.release))
            .collect::<Vec<_>>()
            .join(", ");
        let tools = self
            .tool_router
            .list_all()
            .into_iter()
            .map(|mut tool| {
                if let Some(d) = tool.description.take() {
                    tool.description = Some(format!("{d} Loaded sources: {loaded}.").into());
                }
                tool
            })
            .collect();
        Ok(ListToolsResult::with_all_items(tools)
            .with_ttl_ms(CACHE_TTL_MS)
            .with_cache_scope(CacheScope::Public))
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        if let Some(c) = request.and_then(|r| r.cursor) {
            return Err(McpError::invalid_params(
                "invalid cursor",
                Some(json!({ "cursor": c })),
            ));
        }
        Ok(ListPromptsResult::with_all_items(vec![
            Prompt::new(
                GROUND_PROMPT,
                Some("Ground a mention (a name or an identifier) to a concept, with its source release, or say plainly that it cannot be grounded."),
                Some(vec![PromptArgument::new("mention")
                    .with_description("The text or identifier to ground, e.g. \"short stature\" or \"HP:0004322\".")
                    .with_required(true)]),
            )
            .with_title("Ground a mention"),
        ])
        .with_ttl_ms(CACHE_TTL_MS)
        .with_cache_scope(CacheScope::Public))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        if request.name != GROUND_PROMPT {
            return Err(McpError::invalid_params(
                format!(
                    "no prompt named '{}'; prompts/list names them",
                    request.name
                ),
                None,
            ));
        }
        let mention = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("mention"))
            .and_then(|m| m.as_str())
            .ok_or_else(|| McpError::invalid_params("the argument 'mention' is required", None))?;
        let text = format!(
            "Ground this mention to a concept: {mention:?}.\n\
             1. If it looks like an identifier, call resolve_identifier. Only outcome \"found\" counts as resolved; \
             for \"obsolete\" use the replacement it gives.\n\
             2. Otherwise call find_concepts with the text. Prefer exact_label over synonym over fuzzy over full_text, \
             and look at every candidate, not just the first.\n\
             3. Call get_concept on your choice to check its definition and parents.\n\
             Answer with the CURIE, the label, the source and its release, and how it matched. \
             If nothing fits, say that it could not be grounded; never invent an identifier."
        );
        Ok(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
                .with_description("Ground a mention with provenance")
                .into(),
        )
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let all = self.all_listed();
        let start = page_cursor(request.and_then(|r| r.cursor), all.len())?;
        let end = (start + PAGE_SIZE).min(all.len());
        let mut result = ListResourcesResult::with_all_items(all[start..end].to_vec())
            .with_ttl_ms(CACHE_TTL_MS)
            .with_cache_scope(CacheScope::Public);
        result.next_cursor = (end < all.len()).then(|| format!("offset:{end}"));
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
                Some(json!({ "cursor": c })),
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
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri.as_str();
        let contents = if let Some(id) = uri.strip_prefix("ontoresolve://source/") {
            self.resolver.manifest().source(id).and_then(|s| {
                let info = tools::source_info(s);
                let body = json!({ "source": info, "attribution": s.attribution, "url": s.url, "files": s.files, "top_concepts": s.top_concepts });
                Some(vec![ResourceContents::text(serde_json::to_string_pretty(&body).ok()?, uri).with_mime_type("application/json")])
            })
        } else if let Some(prefix) = uri.strip_prefix("ontoresolve://prefix/") {
            let prefix = crate::resolve::percent_decode(prefix);
            tools::prefix_document(&self.resolver, &prefix).and_then(|body| {
                Some(vec![
                    ResourceContents::text(serde_json::to_string_pretty(&body).ok()?, uri)
                        .with_mime_type("application/json"),
                ])
            })
        } else if let Some(curie) = uri.strip_prefix("ontoresolve://mappings/") {
            let curie = crate::resolve::percent_decode(curie);
            json_contents(uri, tools::mappings_document(&self.resolver, &curie))
        } else if let Some(id) = uri.strip_prefix("ontoresolve://mapping-set/") {
            json_contents(uri, tools::mapping_set_document(&self.resolver, id))
        } else {
            self.read_concept(uri)
        };
        let contents = contents.ok_or_else(|| not_found(uri))?;
        Ok(ReadResourceResult::new(contents)
            .with_ttl_ms(CACHE_TTL_MS)
            .with_cache_scope(CacheScope::Public)
            .into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        let template = request.r#ref.as_resource_uri();
        let values = if template == Some(CONCEPT_TEMPLATE) && request.argument.name == "curie" {
            self.resolver
                .complete_identifier(&request.argument.value, CompletionInfo::MAX_VALUES)
        } else if template == Some(PREFIX_TEMPLATE) && request.argument.name == "prefix" {
            let registry = self.resolver.registry();
            registry
                .complete(&request.argument.value, CompletionInfo::MAX_VALUES)
                .into_iter()
                .filter_map(|id| Some(registry.record(id)?.preferred.clone()))
                .collect()
        } else if template == Some(MAPPINGS_TEMPLATE) && request.argument.name == "curie" {
            self.resolver
                .complete_mapped(&request.argument.value, CompletionInfo::MAX_VALUES)
        } else if template == Some(MAPPING_SET_TEMPLATE) && request.argument.name == "id" {
            tools::mapping_set_entries(&self.resolver)
                .into_iter()
                .map(|e| e.0)
                .filter(|id| id.starts_with(request.argument.value.as_str()))
                .take(CompletionInfo::MAX_VALUES)
                .collect()
        } else {
            Vec::new()
        };
        let has_more = values.len() >= CompletionInfo::MAX_VALUES;
        let info = CompletionInfo::with_pagination(values, None, has_more)
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(CompleteResult::new(info))
    }
}

/// Serves over stdin/stdout until stdin closes.
/// Every line is checked first (`stdio.rs`): one that rmcp would drop gets a JSON-RPC error
/// reply.
pub async fn serve_stdio(resolver: Arc<Resolver>) -> Result<(), std::io::Error> {
    use rmcp::ServiceExt;
    let (transport, framing) = stdio::framed(tokio::io::stdin(), tokio::io::stdout());
    let running = OntoServer::new(resolver)
        .serve(transport)
        .await
        .map_err(std::io::Error::other)?;
    running.waiting().await.map_err(std::io::Error::other)?;
    framing.await.map_err(std::io::Error::other)??;
    Ok(())
}

/// HTTP settings: where to listen and which browser origins may call.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    pub addr: SocketAddr,
    pub extra_origins: Vec<String>,
    pub max_body_bytes: usize,
}

/// The axum router serving Streamable HTTP at `/mcp`.
pub fn http_router(resolver: Arc<Resolver>, options: &HttpOptions) -> axum::Router {
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    };
    let mut origins = vec![
        "http://localhost:*".to_string(),
        "http://127.0.0.1:*".to_string(),
        "http://[::1]:*".to_string(),
        "https://localhost:*".to_string(),
    ];
    origins.extend(options.extra_origins.iter().cloned());
    let config = StreamableHttpServerConfig::default()
        .with_allowed_origins(origins)
        .with_max_request_body_bytes(options.max_body_bytes)
        .with_json_response(true);
    let server = Arc::new(OntoServer::new(resolver));
    let service: StreamableHttpService<Arc<OntoServer>, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(server.clone()), Default::default(), config);
    axum::Router::new().nest_service("/mcp", service)
}

/// Serves Streamable HTTP until Ctrl-C.
pub async fn serve_http(
    resolver: Arc<Resolver>,
    options: HttpOptions,
) -> Result<(), std::io::Error> {
    let router = http_router(resolver, &options);
    let listener = tokio::net::TcpListener::bind(options.addr).await?;
    tracing::info!(addr = %options.addr, "serving Streamable HTTP at /mcp");
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
