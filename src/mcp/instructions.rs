//! The server instructions: scope, a tool-selection guide, then licences and attribution.

use crate::resolve::Manifest;

pub fn instructions(m: &Manifest) -> String {
    let set_ids = mapping_set_ids(m);
    let mut out = scope(m, &set_ids);
    out.push_str(TOOL_GUIDE);
    out.push_str(&confidence(m));
    out.push_str(&licences(m, &set_ids));
    out
}

/// The catalogue ids of the loaded mapping sets, in manifest order, each once.
fn mapping_set_ids(m: &Manifest) -> Vec<&str> {
    let mut set_ids: Vec<&str> = Vec::new();
    for set in &m.mapping_sets {
        if !set_ids.contains(&set.source.as_str()) {
            set_ids.push(&set.source);
        }
    }
    set_ids
}

/// What is loaded (sources, mapping sets, what was skipped), what is not covered, and how
/// identifiers are normalized.
fn scope(m: &Manifest, set_ids: &[&str]) -> String {
    let mut out = String::from("SCOPE\nLoaded sources (id, release):\n");
    for s in &m.sources {
        out.push_str(&format!(
            "- {} ({}), release {}: {}\n",
            s.id, s.title, s.release, s.scope
        ));
    }
    if !set_ids.is_empty() {
        out.push_str("Loaded mapping sets (see ontoresolve://mapping-set/{id}):\n");
        for id in set_ids {
            let files: Vec<_> = m.mapping_sets_of(id).collect();
            let rows: u64 = files.iter().map(|s| s.counts.rows).sum();
            let predicted = if files.iter().any(|s| s.predicted) {
                ", predictions (hidden unless include_predicted)"
            } else {
                ""
            };
            out.push_str(&format!(
                "- {id}, release {}: {} files, {rows} rows{predicted}\n",
                files.first().map_or("", |s| s.release.as_str()),
                files.len()
            ));
        }
    }
    for s in &m.skipped {
        out.push_str(&format!("- {} is NOT loaded: {}\n", s.id, s.reason));
    }
    let has = |kind: &str| m.sources.iter().any(|s| s.kind == kind);
    let mut missing = vec!["literature", "clinical trials", "sequences", "variants"];
    if !has("mesh") {
        missing.push("drugs and chemicals (MeSH is not loaded)");
    }
    if !has("gene") {
        missing.push("genes (no gene source is loaded)");
    }
    out.push_str(&format!(
        "Not covered: {}, and any vocabulary not listed above.\n",
        missing.join(", ")
    ));
    if has("gene") {
        out.push_str(
            "Gene symbols are case-significant and reused: find_concepts lists every gene a \
             symbol names (approved, alias or previous symbol) and says which; never take the \
             first candidate of an ambiguous symbol.\n",
        );
    }
    match &m.registry.source {
        Some(r) => out.push_str(&format!(
            "Identifiers are normalized with the {} release {} ({} prefixes): an identifier of a \
             known prefix that no loaded source holds is reported as not in the loaded sources, \
             with the registry's resolver link; an unknown prefix is reported with the closest \
             known ones. Nothing is guessed.\n\n",
            r.title, r.release, m.registry.counts.records
        )),
        None => out.push_str(
            "Only the loaded sources' prefixes are known; an identifier of any other prefix is \
             reported as an unknown prefix, never guessed.\n\n",
        ),
    }
    out
}

/// Which tool to call first, when to go on, and the common workflows.
const TOOL_GUIDE: &str = "TOOL GUIDE\n\
         - Have an identifier (CURIE, IRI, PREFIX_local)? Call resolve_identifier first. It says \
         found, obsolete (with every replacement), not in the loaded sources, or malformed/unknown \
         prefix: treat anything but found as not resolved.\n\
         - Have a name? Call find_concepts (with sources to ground into one vocabulary). It \
         ranks labels, synonyms, names reached through mappings, name variants, near spellings \
         and full text, says which matched (match_kind) and whether the name is ambiguous; \
         obsolete concepts are hidden and counted.\n\
         - Have a passage (an abstract, a note)? Call ground_passage: it finds every name in it \
         and grounds abbreviations the text defines (\"Wilson disease (WD)\") through their long \
         form. A short capitalised input alone (WD, HD) may name several things: when you hold \
         the text around it, ground the text instead.\n\
         - Need labels, definitions, parents, children, xrefs or provenance? Call get_concept with \
         the identifier from the first step.\n\
         - Need the identifier in another vocabulary (MeSH, DOID, OMIM, UMLS, NCBIGene, ...)? Call \
         map_identifier (map_identifiers for a list). Every candidate says who stated it, how \
         (predicate: hasDbXref is only a cross-reference, not the same thing), how sure, and \
         whether it is inferred (with its path); read negatives and conflicts before choosing.\n\
         - Unsure what is loaded or which release? Call list_sources. Where a source has \
         several releases, the current one answers; pin another with MONDO:0000030@2025-02-04, \
         `release`, or sources [\"mondo@2025-02-04\"]; what_changed says what changed between \
         releases, for one identifier or a whole source.\n\
         - Want to check or go beyond an answer? describe_schema says how each source's graph \
         is shaped (classes, predicates, counts, example queries); sparql_query runs an \
         answer's sparql, or any read-only query, with a row cap and a deadline.\n\
         Common workflows: (1) name -> find_concepts -> get_concept on the top candidate when ambiguous is false, \
         otherwise choose among the candidates by match_kind and source; \
         (2) identifier -> resolve_identifier -> if obsolete, get_concept on each replacement; \
         (3) hierarchy -> get_concept, then get_concept on a parent or child.\n\
         Every answer is an envelope: query (what was asked and how it was read), total, \
         returned, truncated and cursor (the next page), sources (the releases used), index (the \
         build id), sparql (a query that re-runs it), suggestion, and result. A prefix's pattern, example and URI prefixes are at ontoresolve://prefix/{prefix}.\n\n";

/// How sure an answer is: what `confidence` means and what it learned from.
fn confidence(m: &Manifest) -> String {
    let Some(model) = &m.confidence_model else {
        return "CONFIDENCE\nThis index has no confidence model: candidates carry no confidence; judge them by match_kind.\n\n".into();
    };
    let corpora: Vec<&str> = model.trained_on.iter().map(|c| c.id.as_str()).collect();
    let mut out = format!(
        "CONFIDENCE\nEvery candidate's confidence is the estimated probability that it is the \
         concept the text names: a logistic model over the match (kind, edits, ambiguity, \
         group...), fitted on the training sets of {} and a sample of the loaded ontologies' own \
         names, calibrated on documents set aside (model {}). Among candidates stated at c, about \
         c are right on those corpora; on other text it is an estimate. basis names the features \
         that weighed most. ground_passage lists a span under {} as uncertain, not as a mention. \
         match_kind corpus_name is a name one of those corpora wrote for the concept \
         ({} learned), never a source's own name: learned_from says which.\n",
        corpora.join(" and "),
        model.version,
        model.mention_threshold,
        model.learned_names
    );
    for c in &model.trained_on {
        out.push_str(&format!("- {}: {}\n", c.id, c.citation));
    }
    out.push('\n');
    out
}

/// Each source's, mapping set's and the registry's licence and attribution, stated once here
/// rather than in every answer.
fn licences(m: &Manifest, set_ids: &[&str]) -> String {
    let mut out = String::from("LICENCES AND ATTRIBUTION\n");
    for s in &m.sources {
        out.push_str(&format!("- {}: {}. {}\n", s.id, s.license, s.attribution));
    }
    for id in set_ids {
        if let Some(set) = m.mapping_sets_of(id).next() {
            out.push_str(&format!(
                "- {id} (mapping sets): {}. {}\n",
                set.license, set.attribution
            ));
        }
    }
    if let Some(r) = &m.registry.source {
        out.push_str(&format!(
            "- {} (prefix registry): {}. {}\n",
            r.id, r.license, r.attribution
        ));
    }
    out
}
