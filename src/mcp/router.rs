//! The tools: each parses its arguments, then runs the core's answer on the blocking pool
//! within the call deadline (`OntoServer::run`), so that index work never stalls the async
//! runtime and a call past its deadline gets a `timeout` answer.

use rmcp::handler::server::common::schema_for_type;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::*;
use rmcp::{Json, tool, tool_router};

use super::dto::*;
use super::{OntoServer, parse_args, tools};

#[tool_router(vis = "pub(super)")]
impl OntoServer {
    /// What is this identifier?
    #[tool(
        input_schema = schema_for_type::<IdentifierArgs>(),
        description = "What is this identifier? Normalizes any spelling (CURIE in any case, synonyms such as EntrezGene or MSH, PREFIX_local, IRIs, identifiers.org and n2t links, GO:GO:) with the Bioregistry, records each step, and says one of: found, obsolete (every replacement followed to a live concept, and live concepts listing it as alt id), not_in_loaded_sources (with the resolver link), malformed (pattern and example), unknown_prefix (closest prefixes) or ambiguous_input (every reading of a bare local id).",
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
        self.run(raw, move |r| tools::resolve_identifier(r, &args))
            .await
    }

    /// Which concepts have this name?
    #[tool(
        input_schema = schema_for_type::<FindArgs>(),
        description = "Which concepts have this name? Looks it up as a label or synonym, a name variant (plural, inverted heading, 'X of Y', British spelling, 'cancer' for 'neoplasm'), through exact mappings from another source (via_mapping), as a near spelling and in full text; ranks all by match_kind. `sources` limits candidates, not names. Short inputs in capitals are abbreviations (case-exact first). Each candidate says how it matched, whether case matched (gene symbols are case-significant), its status and score basis; `ambiguous` says when a name names several concepts. Obsolete ones are hidden unless include_obsolete, and counted.",
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
        self.run(raw, move |r| tools::find_concepts(r, &args)).await
    }

    /// What is this identifier in other vocabularies?
    #[tool(
        input_schema = schema_for_type::<MapArgs>(),
        description = "What is this identifier in other vocabularies? Every candidate from the loaded SSSOM mapping sets and the sources' cross-references, ranked: curated asserted > source cross-reference > other asserted > predicted > inferred. Each has its object with label and status, predicate (hasDbXref is never exactMatch), justification, confidence, cardinality, and one evidence entry per statement (set id and version, source, release, author, reviewer, tool). Inferred ones (SSSOM chaining, at most 2 hops) carry their path with each hop's evidence. Negative (Not) statements are listed apart and block what they contradict; conflicts are flagged; predictions are hidden unless include_predicted, and counted.",
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
        self.run(raw, move |r| tools::map_identifier(r, &args))
            .await
    }

    /// The same for a list.
    #[tool(
        input_schema = schema_for_type::<MapBatchArgs>(),
        description = "map_identifier for up to 1,000 identifiers in compact rows: per input its outcome, each candidate's object, label, status, predicate, justification, confidence, tier, sources and path, negatives and conflicts. Every input gets a row, in order.",
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
        self.run(raw, move |r| tools::map_identifiers(r, &args))
            .await
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
        self.run(raw, move |r| tools::get_concept(r, &args)).await
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
        Json(tools::list_sources(&self.resolver()))
    }
    /// Run this query.
    #[tool(
        input_schema = schema_for_type::<SparqlArgs>(),
        description = "Run read-only SPARQL (SELECT, ASK, CONSTRUCT, DESCRIBE) on the store, one named graph per source release; without FROM the default graph is their union. Every other tool's `sparql` runs here unchanged; an empty answer names the query's IRIs that occur nowhere. Updates, LOAD and SERVICE are refused (read_only_query); rows are capped (limit, default 100, max 1000) and queries stop after 5 s (timeout), both echoed. Rows are SPARQL JSON terms.",
        annotations(
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false,
            destructive_hint = false
        )
    )]
    async fn sparql_query(
        &self,
        Parameters(raw): Parameters<JsonObject>,
    ) -> Result<Json<Envelope<QueryResultDto>>, CallToolResult> {
        let args: SparqlArgs = parse_args(&raw)?;
        self.run_query(raw, move |r| tools::sparql_query(r, &args))
            .await
    }

    /// How is the data shaped?
    #[tool(
        input_schema = schema_for_type::<SchemaArgs>(),
        description = "How is the data shaped? For each source (or one), its named graph and release, triple count, the classes and predicates in use with counts, and example queries for sparql_query that run on this index.",
        annotations(
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false,
            destructive_hint = false
        )
    )]
    async fn describe_schema(
        &self,
        Parameters(raw): Parameters<JsonObject>,
    ) -> Result<Json<Envelope<SchemaDto>>, CallToolResult> {
        let args: SchemaArgs = parse_args(&raw)?;
        self.run(raw, move |r| tools::describe_schema(r, &args))
            .await
    }
}
