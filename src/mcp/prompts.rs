//! Prompts: workflows a user picks, each a short plan written in the tools' own names. A test
//! checks that every tool they name exists.

use crate::mcp::tools::ErrorCode;
use crate::model::WireName;
use rmcp::ErrorData as McpError;
use rmcp::model::*;
use serde_json::json;

use super::CACHE_TTL_MS;

pub const GROUND_PROMPT: &str = "ground_mention";
pub const MAP_LIST_PROMPT: &str = "map_identifier_list";
pub const EXPLAIN_PROMPT: &str = "explain_mapping";

/// The longest argument a prompt accepts, in bytes: a prompt is a plan, not a data channel.
pub const MAX_PROMPT_ARGUMENT_BYTES: usize = 20_000;

fn argument(name: &str, description: &str, required: bool) -> PromptArgument {
    PromptArgument::new(name)
        .with_description(description)
        .with_required(required)
}

pub fn list(request: Option<PaginatedRequestParams>) -> Result<ListPromptsResult, McpError> {
    if let Some(c) = request.and_then(|r| r.cursor) {
        return Err(McpError::invalid_params(
            "invalid cursor: prompts fit on one page",
            Some(
                json!({ "code": ErrorCode::InvalidCursor.wire_name(), "cursor": super::echo::text(&c) }),
            ),
        ));
    }
    Ok(ListPromptsResult::with_all_items(vec![
        Prompt::new(
            GROUND_PROMPT,
            Some("Ground a mention (a name or an identifier) to a concept with its source release, confirm it and list its mappings, or say plainly that it cannot be grounded."),
            Some(vec![
                argument("mention", "The text or identifier to ground, e.g. \"short stature\" or \"HP:0004322\".", true),
                argument("source", "Prefer concepts of this source id, e.g. mesh (list_sources names them).", false),
            ]),
        )
        .with_title("Ground a mention"),
        Prompt::new(
            MAP_LIST_PROMPT,
            Some("Map a list of identifiers to other vocabularies: normalize each, map them all, and summarise what is ambiguous, obsolete or unmapped."),
            Some(vec![
                argument("identifiers", "The identifiers, one per line or separated by commas.", true),
                argument("targets", "Target prefixes, comma-separated, e.g. MESH,DOID. Default: all.", false),
            ]),
        )
        .with_title("Map a list of identifiers"),
        Prompt::new(
            EXPLAIN_PROMPT,
            Some("Explain why two identifiers map (or do not): every statement and hop with who asserted it, the predicate, the justification and the release."),
            Some(vec![
                argument("subject", "The identifier to map from, e.g. MONDO:0005148.", true),
                argument("object", "The identifier it should map to, e.g. DOID:9352.", true),
            ]),
        )
        .with_title("Explain a mapping"),
    ])
    .with_ttl_ms(CACHE_TTL_MS)
    .with_cache_scope(CacheScope::Public))
}

fn required<'a>(request: &'a GetPromptRequestParams, name: &str) -> Result<&'a str, McpError> {
    let value = optional(request, name)?.ok_or_else(|| {
        McpError::invalid_params(format!("the argument '{name}' is required"), None)
    })?;
    Ok(value)
}

fn optional<'a>(
    request: &'a GetPromptRequestParams,
    name: &str,
) -> Result<Option<&'a str>, McpError> {
    let value = request
        .arguments
        .as_ref()
        .and_then(|a| a.get(name))
        .and_then(|m| m.as_str())
        .map(str::trim)
        .filter(|v| !v.is_empty());
    match value {
        Some(v) if v.len() > MAX_PROMPT_ARGUMENT_BYTES => Err(McpError::invalid_params(
            format!(
                "the argument '{name}' is {} bytes; at most {MAX_PROMPT_ARGUMENT_BYTES} are accepted",
                v.len()
            ),
            Some(json!({ "code": ErrorCode::LimitExceeded.wire_name() })),
        )),
        other => Ok(other),
    }
}

fn ground_text(mention: &str, source: Option<&str>) -> String {
    let sources = source
        .map(|s| {
            format!(
                " Pass sources=[{s:?}] to find_concepts: it limits the candidates, not the names."
            )
        })
        .unwrap_or_default();
    format!(
        "Ground this mention to a concept: {mention:?}.\n\
         1. If it looks like an identifier, call resolve_identifier. Only outcome \"found\" counts as resolved; \
         for \"obsolete\" look at every replacement it gives (several means the choice is yours to justify).\n\
         2. Otherwise call find_concepts with the text.{sources} Candidates come ranked by match_kind \
         (identifier, exact label, synonym, via_mapping, name_variant, near spelling, full text); read every \
         candidate, not just the first, and mind `ambiguous`.\n\
         3. Call get_concept on your choice to confirm its definition and parents.\n\
         4. Call map_identifier on it to list what it is in other vocabularies, with who asserted each mapping.\n\
         Answer with the CURIE, the label, the source and its release, how it matched, and its mappings. \
         If nothing fits, say that it could not be grounded; never invent an identifier."
    )
}

fn map_list_text(identifiers: &str, targets: Option<&str>) -> String {
    let list: Vec<&str> = identifiers
        .split(['\n', ','])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let targets = targets
        .map(|t| {
            let t: Vec<&str> = t
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect();
            format!(" with targets={t:?}")
        })
        .unwrap_or_default();
    format!(
        "Map these {} identifiers to other vocabularies: {list:?}.\n\
         1. Call map_identifiers once with all of them{targets} (up to 1,000 per call). Every input gets a row.\n\
         2. For rows whose outcome is not found (malformed, unknown_prefix, not_in_loaded_sources, obsolete), \
         call resolve_identifier on the input to see why and, for obsolete ones, every replacement.\n\
         3. For inputs with several candidates in one target, or with conflicts, call map_identifier on them to \
         read each candidate's evidence.\n\
         Summarise as a table: input, normalized identifier, mapped identifier(s) with predicate and \
         justification, and a column naming what needs a person's decision (ambiguous, obsolete, unmapped, \
         conflicting, only predicted). Never drop an input and never pick one of several candidates silently.",
        list.len()
    )
}

fn explain_text(subject: &str, object: &str) -> String {
    format!(
        "Explain whether and why {subject:?} maps to {object:?}.\n\
         1. Call resolve_identifier on both to confirm they exist and are current.\n\
         2. Call map_identifier on {subject:?} with include_inferred and include_predicted true, and find \
         {object:?} among the candidates and the negative statements.\n\
         3. For an asserted candidate, give each evidence entry: mapping set and version, source release, \
         predicate, justification, author or tool, confidence. For an inferred one, give every hop of its path \
         with the same provenance.\n\
         4. If it is not there, call map_identifier on {object:?} for the reverse direction, then say plainly that \
         no loaded source asserts or implies the mapping.\n\
         Quote the `sparql` of the answers so the user can re-run them with sparql_query."
    )
}

pub fn get(request: GetPromptRequestParams) -> Result<GetPromptResponse, McpError> {
    let (text, description) = match request.name.as_str() {
        GROUND_PROMPT => (
            ground_text(
                required(&request, "mention")?,
                optional(&request, "source")?,
            ),
            "Ground a mention with provenance",
        ),
        MAP_LIST_PROMPT => (
            map_list_text(
                required(&request, "identifiers")?,
                optional(&request, "targets")?,
            ),
            "Map a list of identifiers and summarise what needs a decision",
        ),
        EXPLAIN_PROMPT => (
            explain_text(
                required(&request, "subject")?,
                required(&request, "object")?,
            ),
            "Explain a mapping hop by hop",
        ),
        other => {
            return Err(McpError::invalid_params(
                format!(
                    "no prompt named '{}'; prompts/list names them",
                    super::echo::quoted(other)
                ),
                None,
            ));
        }
    };
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(description)
            .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_prompt_counts_inputs_split_by_lines_and_commas() {
        let text = map_list_text(
            "MONDO:0005148,\nDOID:9352 , ,HP:0000118",
            Some("MESH, DOID"),
        );
        assert!(text.starts_with("Map these 3 identifiers"), "{text}");
        assert!(text.contains("targets=[\"MESH\", \"DOID\"]"), "{text}");
    }

    #[test]
    fn a_mention_with_quotes_stays_one_quoted_string() {
        let text = ground_text("a \"quoted\"\nname", None);
        assert!(text.contains(r#""a \"quoted\"\nname""#), "{text}");
    }
}
