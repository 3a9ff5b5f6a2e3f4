//! The concept address, `/concept/{id}`: the identifier read from the path, resolved as
//! `resolve_identifier` resolves it, a 303 to the one canonical spelling, then the format
//! asked for (HTML, JSON-LD, Turtle, JSON), or a 404 that names the outcome, or a 406.

use crate::model::WireName;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};

use super::layout::{self, Frame};
use super::negotiate::{self, Format};
use super::{
    address, concept, framed, linked_data, problem, query_pairs, see_other, tool_problem, typed,
    varies,
};
use crate::mcp::dto::{ConceptDetail, IdentifierArgs, MapArgs, Resolution};
use crate::mcp::tools::{self, ErrorCode};
use crate::resolve::{Outcome, Resolver, sparql};

/// The answer at a `/concept/…` address (`uri`) for an `Accept` header: the page, a format, a
/// 303, 404 or 406. Public for the pages benchmark.
pub fn concept_response(r: &Resolver, uri: &Uri, accept: Option<&str>) -> Response {
    let raw = uri.path().strip_prefix("/concept/").unwrap_or("");
    let (raw, suffix) = negotiate::split_suffix(raw);
    let Some(format) = suffix.or_else(|| negotiate::from_accept(accept)) else {
        return not_acceptable();
    };
    let text = match address::decode(raw) {
        Ok(text) => text,
        Err(address::BadPath::NotUtf8) => {
            return problem(
                Some(r),
                StatusCode::BAD_REQUEST,
                "Not an identifier",
                "The address is not valid UTF-8 once decoded.",
                "Write the identifier as a CURIE, such as MONDO:0005148, or as its IRI.",
            );
        }
        Err(address::BadPath::Empty) => {
            return problem(
                Some(r),
                StatusCode::NOT_FOUND,
                "No identifier",
                "The address names no identifier.",
                "Write one after /concept/, such as /concept/MONDO:0005148.",
            );
        }
    };
    let resolved = match r.resolve_identifier_in(&text, None) {
        Err(e) => return tool_problem(r, &e.into()),
        Ok(Err(_)) | Ok(Ok((_, Outcome::Ambiguous { .. }))) => None,
        Ok(Ok((normalized, outcome))) => outcome.concept().map(|id| (id, normalized.release)),
    };
    let Some((id, pin)) = resolved else {
        return unresolved(r, &text, format);
    };
    let found = match r.concept(id) {
        Ok(found) => found,
        Err(e) => return tool_problem(r, &e.into()),
    };
    let canonical = found.curie.clone().unwrap_or_else(|| found.iri.clone());
    let wanted = match &pin {
        Some(release) => format!("{canonical}@{release}"),
        None => canonical.clone(),
    };
    if text != wanted {
        let mut location = address::concept(&canonical, pin.as_deref());
        if let Some(format) = suffix {
            location.push_str(format.suffix());
        }
        if let Some(q) = uri.query() {
            location.push('?');
            location.push_str(q);
        }
        return see_other(&location);
    }
    let predicted = query_pairs(uri)
        .iter()
        .any(|(k, v)| k == "predicted" && v == "1");
    let concept = Found {
        id,
        canonical: &canonical,
        iri: &found.iri,
        pin: pin.as_deref(),
    };
    concept_formats(r, &concept, format, predicted)
}

/// The path from a root down to a concept's parent: each step's identifier and label.
fn lineage(
    r: &Resolver,
    id: crate::resolve::ConceptId,
) -> Result<Vec<(String, Option<String>)>, crate::resolve::ResolveError> {
    (r.browsing().path_to_root(id)?)
        .into_iter()
        .map(|id| {
            let c = r.concept(id)?;
            Ok((
                c.curie.clone().unwrap_or_else(|| c.iri.clone()),
                c.preferred_label().map(|l| l.text.clone()),
            ))
        })
        .collect()
}

/// The concept an address names, once resolved.
struct Found<'a> {
    id: crate::resolve::ConceptId,
    canonical: &'a str,
    iri: &'a str,
    pin: Option<&'a str>,
}

fn concept_formats(r: &Resolver, found: &Found<'_>, format: Format, predicted: bool) -> Response {
    // The record get_concept answers with, for the concept already resolved: resolving the
    // address once is enough. A resolved concept without a record is damage.
    let detail = match tools::detail(r, found.id) {
        Ok(detail) => detail,
        Err(e) => return tool_problem(r, &e),
    };
    let detail = &detail;
    let iri = found.iri;
    match format {
        Format::Json => match serde_json::to_string_pretty(detail) {
            Ok(json) => typed(StatusCode::OK, json, format),
            Err(_) => tool_problem(r, &tools::damaged_answer()),
        },
        Format::JsonLd => {
            let doc = linked_data::concept(r, iri, detail);
            typed(StatusCode::OK, doc.to_string(), format)
        }
        Format::Turtle => match r.store().map_err(|e| e.to_string()).and_then(|s| {
            s.subject_turtle(iri, &detail.graph)
                .map_err(|e| e.to_string())
        }) {
            Ok(turtle) => typed(StatusCode::OK, turtle, format),
            Err(e) => {
                tracing::error!(error = %e, "a concept's Turtle could not be read");
                tool_problem(r, &tools::damaged_answer())
            }
        },
        Format::Html => {
            let sparql = sparql::concept_statements(iri, Some(&detail.graph));
            page(r, found, detail, &sparql, predicted)
        }
    }
}

/// The concept page: the record, its mappings (inference on, predictions on request) and
/// its path to the root.
fn page(
    r: &Resolver,
    found: &Found<'_>,
    detail: &ConceptDetail,
    sparql: &str,
    predicted: bool,
) -> Response {
    let Found {
        id,
        canonical,
        iri,
        pin,
    } = *found;
    let map_args = MapArgs {
        identifier: canonical.to_string(),
        targets: None,
        include_inferred: Some(true),
        include_predicted: Some(predicted),
        cursor: None,
    };
    let mappings = tools::map_identifier(r, &map_args);
    let lineage = match lineage(r, id) {
        Ok(lineage) => lineage,
        Err(e) => return tool_problem(r, &e.into()),
    };
    let license = r
        .manifest()
        .releases(&detail.concept.source)
        .find(|s| s.release == detail.release)
        .map(|s| s.license.clone())
        .unwrap_or_default();
    let view = concept::ConceptView {
        detail,
        iri,
        sparql,
        license: &license,
        mappings: mappings.as_ref().map_err(|e| e.message.clone()),
        predicted_shown: predicted,
        lineage: &lineage,
        pinned: pin,
    };
    let label = detail.concept.name.label.clone().unwrap_or_default();
    let title = if label.is_empty() {
        canonical.to_string()
    } else {
        format!("{label} · {canonical}")
    };
    let frame = Frame {
        title: &title,
        query: "",
        concept: Some(canonical),
    };
    varies(framed(
        Some(r),
        StatusCode::OK,
        &frame,
        concept::body(&view),
    ))
}

/// An identifier that names no loaded concept: the resolution's outcome and advice, 404.
fn unresolved(r: &Resolver, text: &str, format: Format) -> Response {
    let args = IdentifierArgs {
        identifier: text.to_string(),
        release: None,
    };
    match tools::resolve_identifier(r, &args) {
        Err(e)
            if matches!(
                e.code,
                ErrorCode::MalformedIdentifier
                    | ErrorCode::UnknownPrefix
                    | ErrorCode::AmbiguousInput
            ) =>
        {
            // The same outcomes as resolve_identifier, each a 404 that names it.
            let title = format!("Not found: {}", e.code.wire_name().replace('_', " "));
            problem(
                Some(r),
                StatusCode::NOT_FOUND,
                &title,
                &e.message,
                &e.next_step,
            )
        }
        Err(e) => tool_problem(r, &e),
        Ok(answer) if format == Format::Json => {
            let body = serde_json::to_string_pretty(&answer).unwrap_or_default();
            typed(StatusCode::NOT_FOUND, body, Format::Json)
        }
        Ok(answer) => {
            let res = &answer.result;
            let title = format!("Not found: {}", res.outcome.as_str().replace('_', " "));
            framed(
                Some(r),
                StatusCode::NOT_FOUND,
                &Frame::titled(&title),
                resolution_body(&title, res),
            )
        }
    }
}

fn resolution_body(title: &str, res: &Resolution) -> Markup {
    html! {
        h1 { (title) }
        p { "Outcome: " code.outcome { (res.outcome.as_str()) } }
        p { (res.message) }
        @if let Some(next) = &res.next_step { p { (next) } }
        @if !res.readings.is_empty() {
            h2 { "Possible readings" }
            ul { @for reading in &res.readings { li { (layout::concept_link(&reading.curie, reading.concept.as_ref().and_then(|c| c.name.label.as_deref()), reading.concept.is_some())) } } }
        }
        @if !res.loaded_sources_for_prefix.is_empty() || !res.sources_for_prefix.is_empty() {
            p { "Sources that use this prefix: " (res.sources_for_prefix.join(", ")) }
        }
        @if let Some(url) = &res.resolver_url { p { "The registry resolves it at " (layout::outside(url)) } }
        @if let Some(prefix) = &res.prefix { p { a href=(address::prefix(&prefix.prefix)) { "About the prefix " (prefix.prefix) } } }
    }
}

fn not_acceptable() -> Response {
    let types: Vec<&str> = Format::ALL.iter().map(|f| f.media_type()).collect();
    let mut response = (
        StatusCode::NOT_ACCEPTABLE,
        format!("406 Not Acceptable: a concept is served as {}, or with the suffix .html, .jsonld, .ttl or .json\n", types.join(", ")),
    )
        .into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}
