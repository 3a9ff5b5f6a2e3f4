//! The OLS4 v1 REST API under `/api/`, so that existing OLS clients (`ols-client`,
//! `ebi-ols-client`, `rols`) work against this server unchanged: ontologies, terms and their
//! hierarchy as HAL pages, and search in Solr's shape. An adapter like `pages`: it parses the
//! request, asks `resolve` (browsing in `resolve::browse`, search in the name search
//! `find_concepts` uses) and lays the answer out in OLS's JSON (`json`). The gate in
//! `mcp::http` applies the same token, Host, Origin and rate checks as everywhere else.

mod json;
mod lists;
pub mod route;
mod search;
mod shape;

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;

use crate::resolve::live::LiveIndex;
use crate::resolve::{ResolveError, Resolver};
use route::{BadRoute, Route};
use shape::Context;

pub use route::route_name;

/// The longest query-string value read; longer ones are refused, never echoed.
const MAX_PARAM_CHARS: usize = 1000;
/// How much of a path an "Endpoint not found" message repeats.
const MAX_ECHOED_PATH: usize = 300;

/// Whether a path is the API's.
pub fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// Why a request has no answer, rendered in OLS's error shape (`status`, `message`).
#[derive(Debug)]
pub enum ApiError {
    /// No route has this shape: OLS's own "Endpoint not found".
    NoEndpoint(String),
    /// The ontology, term or page asked for is not here; the message says which.
    NotFound(String),
    /// A parameter cannot be read or is out of range; the message says which and why.
    BadRequest(String),
    /// Part of the index could not be read: damage, never "not found".
    Damaged,
}

impl From<ResolveError> for ApiError {
    fn from(error: ResolveError) -> Self {
        tracing::error!(error = %error, "the OLS API could not read the index");
        ApiError::Damaged
    }
}

impl ApiError {
    fn status(&self) -> StatusCode {
        match self {
            ApiError::NoEndpoint(_) | ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Damaged => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn message(&self) -> String {
        match self {
            ApiError::NoEndpoint(path) => {
                let mut shown: String = path.chars().take(MAX_ECHOED_PATH).collect();
                if shown.len() < path.len() {
                    shown.push('…');
                }
                format!("Endpoint not found: {shown}")
            }
            ApiError::NotFound(m) | ApiError::BadRequest(m) => m.clone(),
            ApiError::Damaged => "Part of the index could not be read; whoever runs the server can run `ontoresolve check`.".into(),
        }
    }

    fn into_response(self) -> Response {
        let status = self.status();
        let body = json::Problem {
            status: status.as_u16(),
            message: self.message(),
        };
        json_response(status, &body)
    }
}

/// Why a request without the token is refused.
pub const TOKEN_NEEDED: &str = "This server needs its token: send it as the password of HTTP Basic credentials (http://user:TOKEN@host/api/…, or ~/.netrc) or as a bearer header.";

/// A refusal by the gate (401 without the token, 403 for the Host or Origin), in OLS's error
/// shape; a 401 names the schemes that carry the token.
pub fn refused(status: u16, why: &str) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::FORBIDDEN);
    let mut response = json_response(
        status,
        &json::Problem {
            status: status.as_u16(),
            message: why.to_string(),
        },
    );
    if status == StatusCode::UNAUTHORIZED {
        response.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Basic realm=\"ontoresolve\", Bearer realm=\"ontoresolve\""),
        );
    }
    response
}

/// A HAL answer (ontologies, terms and their pages), as Spring HATEOAS labels it: HAL
/// clients (`ebi-ols-client`) decode by this media type.
fn hal_response(body: &impl Serialize) -> Response {
    typed_response(StatusCode::OK, body, "application/hal+json")
}

/// A plain JSON answer (search, errors).
fn json_response(status: StatusCode, body: &impl Serialize) -> Response {
    typed_response(status, body, "application/json")
}

fn typed_response(status: StatusCode, body: &impl Serialize, media: &'static str) -> Response {
    match serde_json::to_string(body) {
        Ok(text) => {
            let mut response = (status, text).into_response();
            response
                .headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static(media));
            response
        }
        Err(e) => {
            tracing::error!(error = %e, "an OLS answer could not be written");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// A request's query parameters, decoded (`+` as space); a repeated one keeps every value.
pub struct Params(Vec<(String, String)>);

impl Params {
    fn of(uri: &Uri) -> Params {
        let decode = |s: &str| {
            percent_encoding::percent_decode_str(&s.replace('+', " "))
                .decode_utf8()
                .ok()
                .map(|c| c.into_owned())
        };
        Params(
            uri.query()
                .unwrap_or("")
                .split('&')
                .filter(|p| !p.is_empty())
                .filter_map(|p| {
                    let (k, v) = p.split_once('=').unwrap_or((p, ""));
                    Some((decode(k)?, decode(v)?))
                })
                .collect(),
        )
    }

    /// The first value of a parameter, refused when longer than `MAX_PARAM_CHARS`.
    pub fn get(&self, key: &str) -> Result<Option<&str>, ApiError> {
        match self.0.iter().find(|(k, _)| k == key) {
            Some((_, v)) if v.chars().count() > MAX_PARAM_CHARS => Err(ApiError::BadRequest(
                format!("{key} is longer than {MAX_PARAM_CHARS} characters"),
            )),
            Some((_, v)) => Ok(Some(v.as_str())),
            None => Ok(None),
        }
    }

    /// Every value of a parameter, each split at commas (`ontology=hp,mondo&ontology=mesh`).
    pub fn list(&self, key: &str) -> Result<Vec<String>, ApiError> {
        let mut out = Vec::new();
        for (k, v) in &self.0 {
            if k != key {
                continue;
            }
            if v.chars().count() > MAX_PARAM_CHARS {
                return Err(ApiError::BadRequest(format!(
                    "{key} is longer than {MAX_PARAM_CHARS} characters"
                )));
            }
            out.extend(
                v.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            );
        }
        Ok(out)
    }

    /// A whole number, or the default when absent; refused when not one or over `max`.
    pub fn number(&self, key: &str, default: u64, max: u64) -> Result<u64, ApiError> {
        let Some(text) = self.get(key)? else {
            return Ok(default);
        };
        let n: u64 = text.trim().parse().map_err(|_| {
            ApiError::BadRequest(format!("{key} must be a whole number from 0 to {max}"))
        })?;
        if n > max {
            return Err(ApiError::BadRequest(format!("{key} must be at most {max}")));
        }
        Ok(n)
    }

    /// `true` or `false`, or the default when absent.
    pub fn flag(&self, key: &str, default: bool) -> Result<bool, ApiError> {
        match self.get(key)?.map(|v| v.trim().to_ascii_lowercase()) {
            None => Ok(default),
            Some(v) if v == "true" => Ok(true),
            Some(v) if v == "false" => Ok(false),
            Some(_) => Err(ApiError::BadRequest(format!("{key} must be true or false"))),
        }
    }
}

struct Api {
    index: Arc<LiveIndex>,
}

/// The API's routes, for `mcp::http` to serve beside `/mcp` and the pages.
pub fn router(index: Arc<LiveIndex>) -> Router {
    let api = Arc::new(Api { index });
    Router::new()
        .route("/api", get(answer))
        .route("/api/", get(answer))
        .route("/api/{*rest}", get(answer))
        .with_state(api)
}

/// The address links start with: the scheme and the `Host` the client used.
fn base_of(headers: &HeaderMap) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            h.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
        })
        .unwrap_or("localhost");
    format!("http://{host}")
}

async fn answer(State(api): State<Arc<Api>>, headers: HeaderMap, uri: Uri) -> Response {
    let base = base_of(&headers);
    let work = move || {
        let r = api.index.current();
        let params = Params::of(&uri);
        let path = uri.path().to_string();
        respond(&r, &path, &params, base)
    };
    match tokio::task::spawn_blocking(work).await {
        Ok(response) => response,
        Err(e) => {
            tracing::error!(error = %e, "an OLS API answer failed");
            ApiError::Damaged.into_response()
        }
    }
}

fn respond(r: &Resolver, path: &str, params: &Params, base: String) -> Response {
    let lang = match params.get("lang") {
        Ok(lang) => lang.unwrap_or("en").to_ascii_lowercase(),
        Err(e) => return e.into_response(),
    };
    let ctx = Context { base, lang };
    let route = match route::parse(path) {
        Ok(route) => route,
        Err(BadRoute::NoEndpoint) => return ApiError::NoEndpoint(path.to_string()).into_response(),
        Err(BadRoute::BadEncoding) => {
            return ApiError::BadRequest(
                "the path is not percent-encoded UTF-8: encode the IRI twice, as OLS does".into(),
            )
            .into_response();
        }
    };
    let answered = match route {
        Route::Root => Ok(hal_response(&lists::root(&ctx))),
        Route::Search => search::search(r, &ctx, params, search::Flavour::Search),
        Route::Select => search::search(r, &ctx, params, search::Flavour::Select),
        Route::Suggest => search::suggest(r, params),
        other => lists::answer(r, &ctx, params, other),
    };
    answered.unwrap_or_else(ApiError::into_response)
}
