//! Pages for people on the HTTP server, beside `/mcp`: a concept at one address in HTML,
//! JSON-LD, Turtle or JSON; search with suggestions; sources, prefixes, mapping sets, and
//! the query behind each page. Every answer comes from the same tool functions MCP calls
//! (`mcp::tools`), so a page shows the same candidates in the same order; this module only
//! lays them out. Markup is maud's, which escapes every value. The gate in `mcp::http`
//! applies the token, Host and Origin checks, the rate limit and the client shares, and adds
//! the security headers to every response.

mod address;
pub mod auth;
mod catalogue;
mod concept;
mod layout;
mod linked_data;
pub mod negotiate;
mod search;

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use maud::{Markup, html};

use crate::mcp::dto::{IdentifierArgs, MapArgs, Resolution, SparqlArgs};
use crate::mcp::tools::{self, ErrorCode, ToolError};
use crate::resolve::live::LiveIndex;
use crate::resolve::{Outcome, Resolver};
use layout::Frame;
use negotiate::Format;

/// The Content-Security-Policy every response carries: nothing but this server's own
/// stylesheet, script and images; no inline script, no framing, forms post only here.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// Paths served without a token: the login form and the files it needs.
pub fn is_public(path: &str) -> bool {
    path == "/login" || path.starts_with("/assets/") || path == "/favicon.ico"
}

/// What a page request is, for the access log (never the identifier or the query).
pub fn route_name(path: &str) -> &'static str {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    match first {
        "" => "home",
        "concept" => "concept",
        "search" => "search",
        "suggest" => "suggest",
        "source" => "source",
        "prefix" => "prefix",
        "mapping-set" => "mapping_set",
        "sparql" => "sparql",
        "login" => "login",
        "assets" | "favicon.ico" => "asset",
        _ => "unknown",
    }
}

struct Pages {
    index: Arc<LiveIndex>,
    login: Option<Arc<auth::Login>>,
}

/// The page routes, for `mcp::http` to serve beside `/mcp`.
pub fn router(index: Arc<LiveIndex>, login: Option<Arc<auth::Login>>) -> Router {
    let pages = Arc::new(Pages { index, login });
    Router::new()
        .route("/", get(home))
        .route("/concept/{*rest}", get(concept_page))
        .route("/search", get(search_page))
        .route("/suggest", get(suggest))
        .route("/source/{*rest}", get(source_page))
        .route("/prefix/{*rest}", get(prefix_page))
        .route("/mapping-set/{*rest}", get(mapping_set_page))
        .route("/sparql", get(sparql_page))
        .route("/login", get(login_form).post(login_post))
        .route(
            "/assets/style.css",
            get(|| async { asset(layout::STYLE, "text/css; charset=utf-8") }),
        )
        .route(
            "/assets/app.js",
            get(|| async { asset(layout::SCRIPT, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/assets/icon.svg",
            get(|| async { asset(layout::ICON, "image/svg+xml") }),
        )
        .route(
            "/favicon.ico",
            get(|| async { asset(layout::ICON, "image/svg+xml") }),
        )
        .fallback(not_a_page)
        .with_state(pages)
}

fn asset(body: &'static str, content_type: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    response
}

fn html_response(status: StatusCode, markup: Markup) -> Response {
    let mut response = (status, markup.into_string()).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
}

/// `Vary: Accept`: the concept address answers in several formats.
fn varies(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("Accept"));
    response
}

fn typed(status: StatusCode, body: String, format: Format) -> Response {
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(format.content_type()),
    );
    headers.insert(header::VARY, HeaderValue::from_static("Accept"));
    response
}

/// A page with the frame around `body`.
fn framed(r: Option<&Resolver>, status: StatusCode, frame: &Frame<'_>, body: Markup) -> Response {
    html_response(status, layout::page(r, frame, body))
}

/// A page that says what went wrong and what to do; `title` is also its heading.
fn problem(
    r: Option<&Resolver>,
    status: StatusCode,
    title: &str,
    message: &str,
    next: &str,
) -> Response {
    let body = html! {
        h1 { (title) }
        p { (message) }
        @if !next.is_empty() { p { (next) } }
        p { a href="/" { "Home" } }
    };
    framed(r, status, &Frame::titled(title), body)
}

/// A tool's error as a page: damage is a server error, never "not found".
fn tool_problem(r: &Resolver, e: &ToolError) -> Response {
    let status = match e.code {
        ErrorCode::IndexDamaged | ErrorCode::InternalError | ErrorCode::QueryFailed => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
        ErrorCode::Timeout => StatusCode::GATEWAY_TIMEOUT,
        ErrorCode::LimitExceeded => StatusCode::URI_TOO_LONG,
        ErrorCode::UnknownRelease | ErrorCode::UnknownSource => StatusCode::NOT_FOUND,
        _ => StatusCode::BAD_REQUEST,
    };
    problem(
        Some(r),
        status,
        &e.code.as_str().replace('_', " "),
        &e.message,
        &e.next_step,
    )
}

/// Runs page work on the blocking pool: index reads are synchronous.
async fn blocking(work: impl FnOnce() -> Response + Send + 'static) -> Response {
    match tokio::task::spawn_blocking(work).await {
        Ok(response) => response,
        Err(e) => {
            tracing::error!(error = %e, "a page's work failed");
            problem(
                None,
                StatusCode::INTERNAL_SERVER_ERROR,
                "Internal error",
                "The page could not be made.",
                "Try again; if it persists, tell whoever runs the server.",
            )
        }
    }
}

/// The raw query string's pairs, `+` as space, percent-decoded; undecodable pairs dropped.
fn query_pairs(uri: &Uri) -> Vec<(String, String)> {
    pairs(uri.query().unwrap_or(""))
}

/// `application/x-www-form-urlencoded` pairs, as query strings and form bodies carry them.
fn pairs(raw: &str) -> Vec<(String, String)> {
    let decode = |s: &str| {
        percent_encoding::percent_decode_str(&s.replace('+', " "))
            .decode_utf8()
            .ok()
            .map(|c| c.into_owned())
    };
    raw.split('&')
        .filter(|p| !p.is_empty())
        .filter_map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            Some((decode(k)?, decode(v)?))
        })
        .collect()
}

fn first<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

async fn home(State(p): State<Arc<Pages>>) -> Response {
    blocking(move || {
        let r = p.index.current();
        framed(
            Some(&r),
            StatusCode::OK,
            &Frame::titled(""),
            catalogue::home(&r),
        )
    })
    .await
}

async fn not_a_page(State(p): State<Arc<Pages>>) -> Response {
    let r = p.index.current();
    problem(
        Some(&r),
        StatusCode::NOT_FOUND,
        "No such page",
        "Nothing is served at this address.",
        "Search from the box above, or start from the home page.",
    )
}

async fn concept_page(State(p): State<Arc<Pages>>, uri: Uri, headers: HeaderMap) -> Response {
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    blocking(move || {
        let r = p.index.current();
        concept_response(&r, &uri, accept.as_deref())
    })
    .await
}

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
        Err(e) => {
            crate::resolve::damage::report(&e);
            return tool_problem(r, &tools::damaged_answer());
        }
        Ok(Err(_)) | Ok(Ok((_, Outcome::Ambiguous { .. }))) => None,
        Ok(Ok((normalized, outcome))) => match outcome {
            Outcome::Found(m) => m.first().map(|m| (m.concept, normalized.release)),
            Outcome::Obsolete { concept, .. } => Some((concept, normalized.release)),
            _ => None,
        },
    };
    let Some((id, pin)) = resolved else {
        return unresolved(r, &text, format);
    };
    let Some(found) = r.concept(id) else {
        return tool_problem(r, &tools::damaged_answer());
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

/// The concept an address names, once resolved.
struct Found<'a> {
    id: crate::resolve::ConceptId,
    canonical: &'a str,
    iri: &'a str,
    pin: Option<&'a str>,
}

fn concept_formats(r: &Resolver, found: &Found<'_>, format: Format, predicted: bool) -> Response {
    let Found {
        id,
        canonical,
        iri,
        pin,
    } = *found;
    let args = IdentifierArgs {
        identifier: canonical.to_string(),
        release: pin.map(str::to_string),
    };
    let answer = match tools::get_concept(r, &args) {
        Ok(answer) => answer,
        Err(e) => return tool_problem(r, &e),
    };
    let Some(detail) = &answer.result else {
        return unresolved(r, canonical, format);
    };
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
            let map_args = MapArgs {
                identifier: canonical.to_string(),
                targets: None,
                include_inferred: Some(true),
                include_predicted: Some(predicted),
                cursor: None,
            };
            let mappings = tools::map_identifier(r, &map_args);
            let lineage: Vec<(String, Option<String>)> = r
                .path_to_root(id)
                .into_iter()
                .filter_map(|id| r.concept(id))
                .map(|c| {
                    (
                        c.curie.clone().unwrap_or_else(|| c.iri.clone()),
                        c.preferred_label().map(|l| l.text.clone()),
                    )
                })
                .collect();
            let license = r
                .manifest()
                .releases(&detail.concept.source)
                .find(|s| s.release == detail.release)
                .map(|s| s.license.clone())
                .unwrap_or_default();
            let view = concept::ConceptView {
                detail,
                iri,
                sparql: &answer.sparql,
                license: &license,
                mappings: mappings.as_ref().map_err(|e| e.message.clone()),
                predicted_shown: predicted,
                lineage: &lineage,
                pinned: pin,
            };
            let label = detail.concept.label.clone().unwrap_or_default();
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
    }
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
            let title = format!("Not found: {}", e.code.as_str().replace('_', " "));
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
            ul { @for reading in &res.readings { li { (layout::concept_link(&reading.curie, reading.concept.as_ref().and_then(|c| c.label.as_deref()), reading.concept.is_some())) } } }
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

fn see_other(location: &str) -> Response {
    match HeaderValue::from_str(location) {
        Ok(value) => {
            let mut response = StatusCode::SEE_OTHER.into_response();
            response.headers_mut().insert(header::LOCATION, value);
            response
        }
        Err(_) => problem(
            None,
            StatusCode::BAD_REQUEST,
            "Not an identifier",
            "The address cannot be written back.",
            "",
        ),
    }
}

async fn search_page(State(p): State<Arc<Pages>>, uri: Uri) -> Response {
    blocking(move || {
        let r = p.index.current();
        let pairs = query_pairs(&uri);
        let form = search::SearchForm {
            q: first(&pairs, "q").unwrap_or("").to_string(),
            source: pairs
                .iter()
                .filter(|(k, _)| k == "source")
                .map(|(_, v)| v.clone())
                .collect(),
            obsolete: first(&pairs, "obsolete").map(str::to_string),
            cursor: first(&pairs, "cursor").map(str::to_string),
        };
        let answer = search::run(&r, &form);
        let status = match &answer {
            Some(Err(e)) if e.code == ErrorCode::IndexDamaged => StatusCode::INTERNAL_SERVER_ERROR,
            Some(Err(_)) => StatusCode::BAD_REQUEST,
            _ => StatusCode::OK,
        };
        let shown: String = form.q.chars().take(80).collect();
        let title = if shown.is_empty() {
            "Search".to_string()
        } else {
            format!("Search: {shown}")
        };
        let frame = Frame {
            title: &title,
            query: &form.q,
            concept: None,
        };
        framed(
            Some(&r),
            status,
            &frame,
            search::body(&r, &form, answer.as_ref()),
        )
    })
    .await
}

async fn suggest(State(p): State<Arc<Pages>>, uri: Uri) -> Response {
    let r = p.index.current();
    let pairs = query_pairs(&uri);
    let body = search::suggestions(&r, first(&pairs, "q").unwrap_or(""));
    typed(StatusCode::OK, body.to_string(), Format::Json)
}

/// A page found by a path tail (`/source/{id}` and the like), or a 404 naming what was asked.
async fn by_tail(
    p: Arc<Pages>,
    uri: Uri,
    strip: &'static str,
    what: &'static str,
    make: fn(&Resolver, &str) -> Option<(String, Markup)>,
) -> Response {
    blocking(move || {
        let r = p.index.current();
        let raw = uri.path().strip_prefix(strip).unwrap_or("");
        let Ok(key) = address::decode(raw) else {
            return problem(
                Some(&r),
                StatusCode::NOT_FOUND,
                &format!("No such {what}"),
                "The address names nothing.",
                "",
            );
        };
        match make(&r, &key) {
            Some((title, body)) => framed(Some(&r), StatusCode::OK, &Frame::titled(&title), body),
            None => problem(
                Some(&r),
                StatusCode::NOT_FOUND,
                &format!("No such {what}"),
                &format!("No loaded {what} is called that."),
                "The home page lists what is loaded.",
            ),
        }
    })
    .await
}

async fn source_page(State(p): State<Arc<Pages>>, uri: Uri) -> Response {
    by_tail(p, uri, "/source/", "source", catalogue::source).await
}

async fn prefix_page(State(p): State<Arc<Pages>>, uri: Uri) -> Response {
    by_tail(p, uri, "/prefix/", "prefix", catalogue::prefix).await
}

async fn mapping_set_page(State(p): State<Arc<Pages>>, uri: Uri) -> Response {
    by_tail(
        p,
        uri,
        "/mapping-set/",
        "mapping set",
        catalogue::mapping_set,
    )
    .await
}

async fn sparql_page(State(p): State<Arc<Pages>>, uri: Uri) -> Response {
    blocking(move || {
        let r = p.index.current();
        let pairs = query_pairs(&uri);
        let query = first(&pairs, "query").unwrap_or("").to_string();
        if query.trim().is_empty() {
            let body = html! { h1 { "SPARQL query" } p { "Follow a page's “Run the query” link, or add ?query= to this address." } };
            return framed(Some(&r), StatusCode::OK, &Frame::titled("SPARQL query"), body);
        }
        let args = SparqlArgs { query: query.clone(), limit: Some(100), cursor: None };
        let answer = tools::sparql_query(&r, &args);
        let status = match &answer {
            Ok(_) => StatusCode::OK,
            Err(e) if matches!(e.code, ErrorCode::IndexDamaged | ErrorCode::QueryFailed) => StatusCode::INTERNAL_SERVER_ERROR,
            Err(e) if e.code == ErrorCode::Timeout => StatusCode::GATEWAY_TIMEOUT,
            Err(_) => StatusCode::BAD_REQUEST,
        };
        framed(Some(&r), status, &Frame::titled("SPARQL query"), catalogue::query_results(&query, &answer))
    })
    .await
}

async fn login_form(State(p): State<Arc<Pages>>, uri: Uri) -> Response {
    let pairs = query_pairs(&uri);
    let next = first(&pairs, "next").unwrap_or("/").to_string();
    if p.login.is_none() {
        return see_other(address::local_target(&next));
    }
    framed(
        None,
        StatusCode::OK,
        &Frame::titled("Log in"),
        auth::form(&next, false),
    )
}

async fn login_post(State(p): State<Arc<Pages>>, body: Bytes) -> Response {
    let Some(login) = &p.login else {
        return see_other("/");
    };
    let pairs = pairs(&String::from_utf8_lossy(&body));
    let next = first(&pairs, "next").unwrap_or("/").to_string();
    let token = first(&pairs, "token").unwrap_or("");
    if !login.accepts_token(token) {
        return framed(
            None,
            StatusCode::UNAUTHORIZED,
            &Frame::titled("Log in"),
            auth::form(&next, true),
        );
    }
    let mut response = see_other(address::local_target(&next));
    if let Ok(cookie) = HeaderValue::from_str(&login.set_cookie()) {
        response.headers_mut().insert(header::SET_COOKIE, cookie);
    }
    response
}

/// The page a request without the token gets on a server that requires one: 401 and the form.
pub fn login_required(path_and_query: &str) -> Response {
    let mut response = framed(
        None,
        StatusCode::UNAUTHORIZED,
        &Frame::titled("Log in"),
        auth::form(path_and_query, false),
    );
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"ontoresolve\""),
    );
    response
}

/// A refusal by the gate (Host, Origin) for a page request.
pub fn forbidden(why: &str) -> Response {
    problem(None, StatusCode::FORBIDDEN, "Forbidden", why, "")
}
