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
mod concept_address;
mod layout;
mod linked_data;
pub mod negotiate;
mod search;

use crate::model::WireName;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use maud::{Markup, html};

use crate::mcp::dto::SparqlArgs;
use crate::mcp::tools::{self, ErrorCode, ToolError};
use crate::resolve::Resolver;
use crate::resolve::live::LiveIndex;
pub use concept_address::concept_response;
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
        &e.code.wire_name().replace('_', " "),
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
        let shown: String = form.shown().chars().take(80).collect();
        let title = if shown.is_empty() {
            "Search".to_string()
        } else {
            format!("Search: {shown}")
        };
        let frame = Frame {
            title: &title,
            query: form.shown(),
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
    match search::suggestions(&r, first(&pairs, "q").unwrap_or("")) {
        Ok(body) => typed(StatusCode::OK, body.to_string(), Format::Json),
        Err(e) => {
            let body = e.to_json(&serde_json::json!({}));
            typed(
                StatusCode::INTERNAL_SERVER_ERROR,
                body.to_string(),
                Format::Json,
            )
        }
    }
}

/// A page's title and body.
pub type Titled = (String, Markup);

/// A page found by a path tail (`/source/{id}` and the like), or a 404 naming what was asked.
async fn by_tail(
    p: Arc<Pages>,
    uri: Uri,
    strip: &'static str,
    what: &'static str,
    make: fn(&Resolver, &str) -> Result<Option<Titled>, ToolError>,
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
            Err(e) => tool_problem(&r, &e),
            Ok(Some((title, body))) => {
                framed(Some(&r), StatusCode::OK, &Frame::titled(&title), body)
            }
            Ok(None) => problem(
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
