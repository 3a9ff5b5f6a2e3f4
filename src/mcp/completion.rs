//! Completion of resource-template and prompt arguments: identifiers, prefixes, mapping sets
//! and source ids, from the build that answers.

use rmcp::model::{CompleteRequestParams, CompletionInfo};

use super::{
    CONCEPT_TEMPLATE, EXPLAIN_PROMPT, GROUND_PROMPT, MAP_LIST_PROMPT, MAPPING_SET_TEMPLATE,
    MAPPINGS_TEMPLATE, PREFIX_TEMPLATE, tools,
};
use crate::resolve::{ResolveError, Resolver};

const MAX: usize = CompletionInfo::MAX_VALUES;

fn prefixes(r: &Resolver, written: &str) -> Vec<String> {
    let registry = r.registry();
    registry
        .complete(written, MAX)
        .into_iter()
        .filter_map(|id| Some(registry.record(id)?.preferred.clone()))
        .collect()
}

/// Completes the last item of a comma- or line-separated list, keeping the items before it.
fn last_item(
    value: &str,
    complete: impl Fn(&str) -> Result<Vec<String>, ResolveError>,
) -> Result<Vec<String>, ResolveError> {
    let cut = value.rfind([',', '\n']).map_or(0, |i| i + 1);
    let (head, tail) = value.split_at(cut);
    let spacing = &tail[..tail.len() - tail.trim_start().len()];
    Ok(complete(tail.trim_start())?
        .into_iter()
        .map(|c| format!("{head}{spacing}{c}"))
        .collect())
}

/// The values offered for one argument; empty for arguments without completion.
pub fn values(r: &Resolver, request: &CompleteRequestParams) -> Result<Vec<String>, ResolveError> {
    let value = request.argument.value.as_str();
    let argument = request.argument.name.as_str();
    // A completion repeats what was typed: a longer value is no partly typed name, and its
    // completions would echo it many times over.
    if value.len() > super::echo::ECHO_CHARS {
        return Ok(Vec::new());
    }
    if let Some(template) = request.r#ref.as_resource_uri() {
        return Ok(match (template, argument) {
            (CONCEPT_TEMPLATE, "curie") => r.lexicon().complete_identifier(value, MAX)?,
            (PREFIX_TEMPLATE, "prefix") => prefixes(r, value),
            (MAPPINGS_TEMPLATE, "curie") => r.lexicon().complete_mapped(value, MAX)?,
            (MAPPING_SET_TEMPLATE, "id") => tools::mapping_set_entries(r)
                .into_iter()
                .map(|e| e.0)
                .filter(|id| id.starts_with(value))
                .take(MAX)
                .collect(),
            _ => Vec::new(),
        });
    }
    Ok(match (request.r#ref.as_prompt_name(), argument) {
        (Some(GROUND_PROMPT), "mention")
        | (Some(EXPLAIN_PROMPT), "subject")
        | (Some(EXPLAIN_PROMPT), "object") => r.lexicon().complete_identifier(value, MAX)?,
        (Some(GROUND_PROMPT), "source") => r
            .manifest()
            .sources
            .iter()
            .filter(|s| s.current)
            .map(|s| s.id.clone())
            .filter(|id| id.starts_with(value))
            .take(MAX)
            .collect(),
        (Some(MAP_LIST_PROMPT), "identifiers") => {
            last_item(value, |item| r.lexicon().complete_identifier(item, MAX))?
        }
        (Some(MAP_LIST_PROMPT), "targets") => last_item(value, |item| Ok(prefixes(r, item)))?,
        _ => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_list_item_is_completed_and_the_rest_kept() {
        let complete = |item: &str| Ok(vec![format!("{item}X")]);
        let done = |value| last_item(value, complete).expect("no index read");
        assert_eq!(done("A, B"), ["A, BX"]);
        assert_eq!(done("A\nB"), ["A\nBX"]);
        assert_eq!(done("B"), ["BX"]);
        assert_eq!(done("A,"), ["A,X"]);
    }
}
