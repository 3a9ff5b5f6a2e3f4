//! `/api/search`, `/api/select` and `/api/suggest` in Solr's shape. Search asks the same
//! name search `find_concepts` asks, so the same text ranks the same concepts first; OLS's
//! filters (`exact`, `local`, `childrenOf`, `allChildrenOf`, `type`, `obsoletes`) are applied
//! to its candidates.

use std::collections::{BTreeMap, HashSet};
use std::time::Instant;

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::Value;

use super::json::{SearchDoc, Solr, SolrHeader, SolrResponse, Suggestion};
use super::shape::{Context, label_in, obo_id, short_form};
use super::{ApiError, Params, json_response};
use crate::model::SourceIdx;
use crate::resolve::browse::{Links, SourceBrowse};
use crate::resolve::{ConceptId, NameQuery, Resolver};

/// Rows a search gives when the request names none, and the most it gives.
const DEFAULT_ROWS: u64 = 10;
const MAX_ROWS: u64 = 1000;
/// The deepest `start`: the name search ranks a bounded number of candidates.
const MAX_START: u64 = 10_000;

/// `search` ranks every kind of match; `select` is OLS's search for typing ahead, with the
/// same parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    Search,
    Select,
}

/// The ontologies a request names (every current release when none), each checked.
fn ontologies<'r>(r: &'r Resolver, params: &Params) -> Result<Vec<SourceBrowse<'r>>, ApiError> {
    let named = params.list("ontology")?;
    if named.is_empty() {
        return Ok(r
            .browsing()
            .all()
            .into_iter()
            .filter(|s| s.record.current)
            .collect());
    }
    named
        .iter()
        .map(|id| {
            r.browsing().release(id).ok_or_else(|| {
                ApiError::NotFound(format!(
                    "Resource not found: no ontology has the id {:?}",
                    id.chars().take(80).collect::<String>()
                ))
            })
        })
        .collect()
}

fn header(params: BTreeMap<&'static str, String>, started: Instant) -> SolrHeader {
    SolrHeader {
        status: 0,
        q_time: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        params,
    }
}

/// What a search's filters keep.
struct Filters {
    exact: bool,
    local: bool,
    children_of: Vec<String>,
    all_children_of: Vec<String>,
    classes: bool,
}

impl Filters {
    fn of(params: &Params) -> Result<Filters, ApiError> {
        let types = params.list("type")?;
        Ok(Filters {
            exact: params.flag("exact", false)?,
            local: params.flag("local", false)?,
            children_of: params.list("childrenOf")?,
            all_children_of: params.list("allChildrenOf")?,
            // Every concept is a class (or SKOS concept): other types have no entities here.
            classes: types.is_empty() || types.iter().any(|t| t == "class" || t == "term"),
        })
    }

    /// Whether a filter needs the candidates' records, not only their sources.
    fn reads_records(&self) -> bool {
        self.local || !self.children_of.is_empty() || !self.all_children_of.is_empty()
    }

    fn keeps(
        &self,
        source: &SourceBrowse<'_>,
        concept: &crate::model::Concept,
    ) -> Result<bool, ApiError> {
        if self.local && !source.defines(&concept.iri) {
            return Ok(false);
        }
        if !self.children_of.is_empty()
            && !(source.parents(concept, Links::IsA)?)
                .iter()
                .any(|(_, p)| self.children_of.contains(&p.iri))
        {
            return Ok(false);
        }
        if !self.all_children_of.is_empty()
            && !(source.ancestors(concept, Links::Hierarchical)?)
                .iter()
                .any(|(_, p)| self.all_children_of.contains(&p.iri))
        {
            return Ok(false);
        }
        Ok(true)
    }
}

pub fn search(
    r: &Resolver,
    ctx: &Context,
    params: &Params,
    flavour: Flavour,
) -> Result<Response, ApiError> {
    let started = Instant::now();
    let q = params.get("q")?.unwrap_or("").trim().to_string();
    if q.is_empty() {
        return Err(ApiError::BadRequest(
            "q is required: the text to search for".into(),
        ));
    }
    let rows = params.number("rows", DEFAULT_ROWS, MAX_ROWS)?;
    let start = params.number("start", 0, MAX_START)?;
    let include_obsolete = params.flag("obsoletes", false)?;
    let filters = Filters::of(params)?;
    let fields = params.list("fieldList")?;
    let sources = ontologies(r, params)?;
    let keys: Vec<String> = sources.iter().map(|s| s.key()).collect();
    // Ranked as `find_concepts` ranks its later pages: the names a text matched, then the
    // full-text readings (which its first page leaves out), so every page counts the same.
    let found = if filters.classes {
        r.find_by_name(&NameQuery {
            text: &q,
            sources: Some(&keys),
            include_obsolete,
            full_text_beside_names: true,
            wanted: usize::try_from(start + rows).unwrap_or(usize::MAX),
        })?
        .candidates
    } else {
        Vec::new()
    };
    // Candidates are counted from the index's flags; a record is read only when a filter
    // needs it, and for the page's own docs.
    let mut seen = HashSet::new();
    let mut kept: Vec<(ConceptId, usize, Option<f64>)> = Vec::new();
    for candidate in found {
        if !seen.insert(candidate.concept) || (filters.exact && !candidate.kind.as_written()) {
            continue;
        }
        let slot = r.browsing().source_slot(candidate.concept);
        let Some(at) = sources.iter().position(|s| Some(s.slot) == slot) else {
            continue;
        };
        if filters.reads_records() {
            let concept = r.concept(candidate.concept)?;
            if !filters.keeps(&sources[at], &concept)? {
                continue;
            }
        }
        kept.push((candidate.concept, at, candidate.confidence.map(|c| c.p)));
    }
    let num_found = kept.len() as u64;
    let mut page: Vec<Value> = Vec::new();
    let first = usize::try_from(start).unwrap_or(usize::MAX);
    let wanted = usize::try_from(rows).unwrap_or(usize::MAX);
    for &(id, at, confidence) in kept.iter().skip(first).take(wanted) {
        let concept = r.concept(id)?;
        let found = doc(ctx, &sources[at], &concept, confidence, flavour);
        page.push(only_fields(found, &fields));
    }
    let mut echoed = BTreeMap::from([
        ("q", q.chars().take(200).collect::<String>()),
        ("rows", rows.to_string()),
        ("start", start.to_string()),
    ]);
    if !keys.is_empty() && !params.list("ontology")?.is_empty() {
        echoed.insert("ontology", keys.join(","));
    }
    if flavour == Flavour::Select {
        echoed.insert("defType", "edismax".into());
    }
    let body = Solr {
        response_header: header(echoed, started),
        response: SolrResponse {
            num_found,
            start,
            docs: page,
        },
    };
    Ok(json_response(StatusCode::OK, &body))
}

/// A search hit with OLS's default fields.
fn doc(
    ctx: &Context,
    source: &SourceBrowse<'_>,
    concept: &crate::model::Concept,
    confidence: Option<f64>,
    flavour: Flavour,
) -> SearchDoc {
    let short = short_form(source, &concept.iri);
    SearchDoc {
        // Select names each hit by OLS's internal id; search leaves it out.
        id: (flavour == Flavour::Select).then(|| format!("{}:class:{}", source.key(), concept.iri)),
        iri: concept.iri.clone(),
        obo_id: concept.curie.clone().unwrap_or_else(|| obo_id(&short)),
        label: label_in(concept, &ctx.lang).unwrap_or_else(|| short.clone()),
        short_form: short,
        description: concept.definitions.iter().map(|d| d.text.clone()).collect(),
        ontology_name: source.key(),
        ontology_prefix: source.preferred_prefix().unwrap_or_default(),
        kind: "class",
        is_obsolete: concept.obsolete,
        confidence: confidence.map(|p| (p * 1000.0).round() / 1000.0),
    }
}

/// A doc with only the fields `fieldList` names (all of them when it names none).
fn only_fields(doc: SearchDoc, fields: &[String]) -> Value {
    let mut value = serde_json::to_value(doc).unwrap_or(Value::Null);
    if !fields.is_empty()
        && let Value::Object(map) = &mut value
    {
        map.retain(|k, _| fields.iter().any(|f| f == k));
    }
    value
}

/// `/api/suggest`: names that start with `q`, for typing ahead.
pub fn suggest(r: &Resolver, params: &Params) -> Result<Response, ApiError> {
    let started = Instant::now();
    let q = params.get("q")?.unwrap_or("").trim().to_string();
    if q.is_empty() {
        return Err(ApiError::BadRequest(
            "q is required: the start of a name".into(),
        ));
    }
    let rows = params.number("rows", DEFAULT_ROWS, MAX_ROWS)?;
    let start = params.number("start", 0, MAX_START)?;
    let sources = ontologies(r, params)?;
    let slots: Vec<SourceIdx> = sources.iter().map(|s| s.slot).collect();
    let depth = usize::try_from(start + rows).unwrap_or(usize::MAX);
    let names = r.browsing().names_starting(&q, Some(&slots), depth)?;
    let num_found = names.len() as u64;
    let docs = names
        .into_iter()
        .skip(usize::try_from(start).unwrap_or(usize::MAX))
        .map(|autosuggest| Suggestion { autosuggest })
        .collect();
    let echoed = BTreeMap::from([
        ("q", q.chars().take(200).collect::<String>()),
        ("rows", rows.to_string()),
        ("start", start.to_string()),
    ]);
    let body = Solr {
        response_header: header(echoed, started),
        response: SolrResponse {
            num_found,
            start,
            docs,
        },
    };
    Ok(json_response(StatusCode::OK, &body))
}
