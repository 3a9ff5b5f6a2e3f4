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
        description = "What is this identifier? Normalizes any spelling (any case, prefix synonyms such as EntrezGene, PREFIX_local, IRIs, identifiers.org links) with the Bioregistry, records each step, and says found, obsolete (each replacement followed to a live concept), not_in_loaded_sources (with a resolver link) or ambiguous_input (each reading of a bare local id). Malformed ids and unknown prefixes are errors naming the pattern, an example or the closest prefixes.",
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
        description = "Which concepts have this name? Tries it as a label or synonym, a name variant (plural, word order, British spelling, 'cancer' for 'neoplasm'), through exact mappings (via_mapping), as a near spelling and in full text, ranked by match_kind. `sources` limits candidates, not names. Short inputs in capitals are abbreviations (case-exact first). `ambiguous` says a name names several concepts: choose by match_kind and source. Obsolete ones are hidden unless include_obsolete, and counted.",
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

    /// Which concepts does this passage mention?
    #[tool(
        input_schema = schema_for_type::<PassageArgs>(),
        description = "Which concepts does this passage mention? Finds every loaded name in the text (longest first, variants too), grounds each as find_concepts does, and abbreviations the passage defines ('Huntington disease (HD)') through their long form first. Spans are character offsets.",
        annotations(
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false,
            destructive_hint = false
        )
    )]
    async fn ground_passage(
        &self,
        Parameters(raw): Parameters<JsonObject>,
    ) -> Result<Json<Envelope<Passage>>, CallToolResult> {
        let args: PassageArgs = parse_args(&raw)?;
        self.run(raw, move |r| tools::ground_passage(r, &args))
            .await
    }

    /// What is this identifier in other vocabularies?
    #[tool(
        input_schema = schema_for_type::<MapArgs>(),
        description = "What is this identifier in other vocabularies? Every candidate from the loaded SSSOM sets and the sources' cross-references, ranked curated asserted > source xref > other asserted > predicted > inferred, each with predicate (hasDbXref is never exactMatch), justification, confidence, cardinality and one evidence entry per statement. Inferred ones (SSSOM chaining, at most 2 hops) carry their path. Not statements are listed apart and block what they contradict; predictions are hidden unless include_predicted.",
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
        description = "Everything about one concept: kind, labels by kind and language, definitions, parents, children, MeSH tree numbers, a gene's locus type, cross-references with predicate and source, status with every replacement, and its release and named graph.",
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
        description = "Run read-only SPARQL (SELECT, ASK, CONSTRUCT, DESCRIBE) on the store, one named graph per source release; without FROM the default graph is their union. Every other tool's `sparql` runs here unchanged; an empty answer names the query's IRIs that occur nowhere. Updates, LOAD and SERVICE are refused; rows are capped (limit, default 100, max 1000) and queries stop after 5 s, both echoed.",
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
