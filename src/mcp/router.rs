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
        description = "What is this identifier? Normalizes any spelling (case, prefix synonyms, PREFIX_local, IRIs) with the Bioregistry, records each step, and says found, obsolete (each replacement followed), not_in_loaded_sources, not_in_release or ambiguous_input. `@release` or `release` pins an older release. Malformed ids and unknown prefixes are errors naming the pattern or closest prefixes.",
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
        extensions: Extensions,
    ) -> Result<Json<Envelope<Resolution>>, CallToolResult> {
        let args: IdentifierArgs = parse_args(&raw)?;
        self.run(raw, &extensions, move |r| {
            tools::resolve_identifier(r, &args)
        })
        .await
    }

    /// Which concepts have this name?
    #[tool(
        input_schema = schema_for_type::<FindArgs>(),
        description = "Which concepts have this name? Tries it as a label or synonym, a name variant (plural, word order, 'cancer' for 'neoplasm'), via exact mappings, a former label, a near spelling and full text, ranked by match_kind. Short capitals are abbreviations (case-exact first). `ambiguous`: several concepts; choose by match_kind and source. Obsolete ones are counted, listed with include_obsolete.",
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
        extensions: Extensions,
    ) -> Result<Json<Envelope<Candidates>>, CallToolResult> {
        let args: FindArgs = parse_args(&raw)?;
        self.run(raw, &extensions, move |r| tools::find_concepts(r, &args))
            .await
    }

    /// Which concepts does this passage mention?
    #[tool(
        input_schema = schema_for_type::<PassageArgs>(),
        description = "Which concepts does this passage mention? Every loaded name in the text (longest first), each grounded as find_concepts does; abbreviations it defines ('Huntington disease (HD)') through their long form. Spans are character offsets.",
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
        extensions: Extensions,
    ) -> Result<Json<Envelope<Passage>>, CallToolResult> {
        let args: PassageArgs = parse_args(&raw)?;
        self.run(raw, &extensions, move |r| tools::ground_passage(r, &args))
            .await
    }

    /// What is this identifier in other vocabularies?
    #[tool(
        input_schema = schema_for_type::<MapArgs>(),
        description = "What is this identifier in other vocabularies? Every candidate from the SSSOM sets and the sources' xrefs, ranked curated > source xref > other asserted > predicted > inferred, each with predicate (hasDbXref is never exactMatch), justification, confidence, cardinality and its evidence. Inferred ones (at most 2 hops) carry their path. Negatives are listed apart and block what they contradict; predictions need include_predicted.",
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
        extensions: Extensions,
    ) -> Result<Json<Envelope<Mappings>>, CallToolResult> {
        let args: MapArgs = parse_args(&raw)?;
        self.run(raw, &extensions, move |r| tools::map_identifier(r, &args))
            .await
    }

    /// The same for a list.
    #[tool(
        input_schema = schema_for_type::<MapBatchArgs>(),
        description = "map_identifier for up to 1,000 identifiers in compact rows: outcome, each candidate's object, label, status, predicate, justification, confidence, tier, sources, path, negatives and conflicts. A row per input, in order.",
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
        extensions: Extensions,
    ) -> Result<Json<Envelope<MappingRows>>, CallToolResult> {
        let args: MapBatchArgs = parse_args(&raw)?;
        self.run(raw, &extensions, move |r| tools::map_identifiers(r, &args))
            .await
    }

    /// Everything about one concept.
    #[tool(
        input_schema = schema_for_type::<IdentifierArgs>(),
        description = "Everything about one concept: kind, labels by kind, definitions, parents, children, tree numbers, locus type, xrefs with predicate and source, status with every replacement, its release (or a pinned one) and graph.",
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
        extensions: Extensions,
    ) -> Result<Json<Envelope<Option<ConceptDetail>>>, CallToolResult> {
        let args: IdentifierArgs = parse_args(&raw)?;
        self.run(raw, &extensions, move |r| tools::get_concept(r, &args))
            .await
    }

    /// What changed between releases?
    #[tool(
        input_schema = schema_for_type::<ChangesArgs>(),
        description = "What changed between two loaded releases? For one identifier or a whole source (paged): KGCL changes (NodeRename, NodeObsoletion with replacements, NodeDirectMerge, NewSynonym, PlaceUnder...) in OAK's fields. Default: current against the release before.",
        annotations(
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false,
            destructive_hint = false
        )
    )]
    async fn what_changed(
        &self,
        Parameters(raw): Parameters<JsonObject>,
        extensions: Extensions,
    ) -> Result<Json<Envelope<Changes>>, CallToolResult> {
        let args: ChangesArgs = parse_args(&raw)?;
        self.run(raw, &extensions, move |r| tools::what_changed(r, &args))
            .await
    }

    /// What is loaded?
    #[tool(
        description = "What is loaded? Each source release (and where the release came from), counts, licence and scope, and the catalogue sources not loaded.",
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
        description = "Run read-only SPARQL (SELECT, ASK, CONSTRUCT, DESCRIBE): one named graph per source release, the default graph their union. Every tool's `sparql` runs here; an empty answer names the query's IRIs that occur nowhere. Updates and SERVICE are refused; rows are capped (limit, default 100, max 1000), queries stop after 5 s.",
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
        extensions: Extensions,
    ) -> Result<Json<Envelope<QueryResultDto>>, CallToolResult> {
        let args: SparqlArgs = parse_args(&raw)?;
        self.run_query(raw, &extensions, move |r| tools::sparql_query(r, &args))
            .await
    }

    /// How is the data shaped?
    #[tool(
        input_schema = schema_for_type::<SchemaArgs>(),
        description = "How is the data shaped? Per source (or one): its graph and release, triples, the classes and predicates in use with counts, and example queries that run here.",
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
        extensions: Extensions,
    ) -> Result<Json<Envelope<SchemaDto>>, CallToolResult> {
        let args: SchemaArgs = parse_args(&raw)?;
        self.run(raw, &extensions, move |r| tools::describe_schema(r, &args))
            .await
    }
}
