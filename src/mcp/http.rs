//! Streamable HTTP: rmcp's service at `/mcp` behind one gate that checks the bearer token,
//! applies the per-client rate limit, the per-client share of pool places
//! (`client_places.rs`) and the body limit, answers unparsable bodies with a
//! JSON-RPC error, and writes one structured access-log line per request (never argument
//! values).

use crate::mcp::tools::ErrorCode;
use crate::model::WireName;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, Request, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::OntoServer;
use super::client_places::{ClientPlaces, MAX_CALLS_PER_CLIENT};
use crate::resolve::live::LiveIndex;

/// The rate limit when `--rate-limit` is not given: calls per second per client.
pub const DEFAULT_RATE_LIMIT: u32 = 200;
/// The largest request body accepted, in bytes.
pub const DEFAULT_MAX_BODY_BYTES: usize = 1 << 20;
/// Clients remembered by the rate limiter before idle ones are forgotten.
const MAX_TRACKED_CLIENTS: usize = 10_000;

/// HTTP settings: where to listen, who may call and how often.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    pub addr: SocketAddr,
    /// Browser origins accepted besides localhost.
    pub extra_origins: Vec<String>,
    /// Host headers accepted besides loopback names and the bound address.
    pub extra_hosts: Vec<String>,
    pub max_body_bytes: usize,
    /// The bearer token every request must carry; `None` serves without authentication.
    pub auth_token: Option<String>,
    /// Calls per second per client (its token when auth is on, else its address); 0 = none.
    pub rate_limit: u32,
}

impl HttpOptions {
    pub fn new(addr: SocketAddr) -> Self {
        HttpOptions {
            addr,
            extra_origins: Vec::new(),
            extra_hosts: Vec::new(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            auth_token: None,
            rate_limit: DEFAULT_RATE_LIMIT,
        }
    }
}

/// A token bucket per client: `rate` calls a second, bursts of up to `rate`.
pub(super) struct RateLimiter {
    rate: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl RateLimiter {
    /// `Ok` when the client may call now, else how long until it may.
    pub(super) fn check(&self, client: &str) -> Result<(), Duration> {
        let now = Instant::now();
        let mut buckets = match self.buckets.lock() {
            Ok(b) => b,
            Err(poisoned) => poisoned.into_inner(),
        };
        if buckets.len() >= MAX_TRACKED_CLIENTS && !buckets.contains_key(client) {
            // Full buckets are the same as forgotten ones.
            let rate = self.rate;
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < rate
            });
            // Still full: so many clients are busy at once that the limit cannot tell them
            // apart anyway. Forgetting them all keeps memory bounded.
            if buckets.len() >= MAX_TRACKED_CLIENTS {
                buckets.clear();
            }
        }
        let (tokens, at) = buckets
            .entry(client.to_string())
            .or_insert((self.rate, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.rate).min(self.rate);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - *tokens) / self.rate))
        }
    }
}

pub(super) struct Gate {
    /// Names the token in logs and buckets without revealing anything about it: a digest
    /// under a key drawn when the server starts.
    token_tag: String,
    pub(super) limiter: Option<RateLimiter>,
    /// Failed authentications per address, so a token cannot be guessed at full speed.
    pub(super) failures: RateLimiter,
    /// Each client's share of the pool's places (tool calls, resource reads, completion).
    pub(super) places: ClientPlaces,
    max_body_bytes: usize,
    /// Host and Origin rules, the login, for the pages beside `/mcp`.
    pub(super) pages: super::page_gate::PageRules,
}

/// Failed authentications an address may make per second.
const FAILED_AUTH_PER_SECOND: f64 = 5.0;

/// A short tag for the token, keyed per process.
fn token_tag(token: &str) -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write(token.as_bytes());
    format!("token:{:08x}", hasher.finish() as u32)
}

/// Why a client is told to wait.
const OVER_RATE: &str = "rate limit exceeded: slow down";
pub(super) const OVER_SHARE: &str =
    "too many calls at once from this client: wait for one to finish, or send fewer side by side";

pub(super) fn too_many_requests(id: Value, wait: Duration) -> Response {
    too_many(id, wait, OVER_RATE)
}

pub(super) fn too_many(id: Value, wait: Duration, message: &str) -> Response {
    let retry_after_ms = wait.as_millis().max(1) as u64;
    let mut response = json_response(
        StatusCode::TOO_MANY_REQUESTS,
        jsonrpc_error(
            id,
            -32000,
            message,
            json!({ "code": ErrorCode::RateLimited.wire_name(), "retry_after_ms": retry_after_ms }),
        ),
    );
    let seconds = retry_after_ms.div_ceil(1000).to_string();
    if let Ok(v) = HeaderValue::from_str(&seconds) {
        response.headers_mut().insert(header::RETRY_AFTER, v);
    }
    response
}

fn jsonrpc_error(id: Value, code: i64, message: &str, data: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message, "data": data } })
}

fn json_response(status: StatusCode, body: Value) -> Response {
    let mut response = (status, body.to_string()).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

fn unauthorized(presented: bool) -> Response {
    let challenge = if presented {
        "Bearer realm=\"ontoresolve\", error=\"invalid_token\""
    } else {
        "Bearer realm=\"ontoresolve\""
    };
    let mut response = json_response(
        StatusCode::UNAUTHORIZED,
        jsonrpc_error(
            Value::Null,
            -32001,
            "a valid bearer token is required",
            json!({ "code": ErrorCode::Unauthorized.wire_name() }),
        ),
    );
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static(challenge),
    );
    response
}

/// What the access log and the error replies need from a JSON-RPC body.
#[derive(Default)]
struct Probe {
    id: Value,
    method: Option<String>,
    name: Option<String>,
    /// A field too long to read without echoing it (`echo::overlong_fields`).
    overlong: Option<(i64, String)>,
}

fn probe(body: &[u8]) -> Result<Probe, serde_json::Error> {
    let value: Value = serde_json::from_slice(body)?;
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    let overlong = super::echo::overlong_fields(&value);
    // An id too long to repeat is not repeated, in this refusal or any other.
    let id = match &overlong {
        Some((-32600, _)) => Value::Null,
        _ => value.get("id").cloned().unwrap_or(Value::Null),
    };
    Ok(Probe {
        overlong,
        id,
        method: text(value.get("method")),
        name: text(value.pointer("/params/name"))
            .or_else(|| text(value.pointer("/params/uri")).map(|u| u.chars().take(200).collect())),
    })
}

pub(super) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// One access-log line per request: who, what, and how it ended. Never the arguments.
pub(super) struct Access {
    pub(super) client: String,
    pub(super) http: axum::http::Method,
    pub(super) method: Option<String>,
    pub(super) name: Option<String>,
    pub(super) started: Instant,
}

impl Access {
    /// Logs a request refused before it ran, with why.
    pub(super) fn refused(&self, status: u16, outcome: &'static str) {
        tracing::info!(
            target: "ontoresolve::access",
            client = %self.client,
            http = %self.http,
            method = self.method.as_deref().unwrap_or("-"),
            status,
            outcome,
        );
    }

    pub(super) fn answered(&self, status: u16) {
        tracing::info!(
            target: "ontoresolve::access",
            client = %self.client,
            http = %self.http,
            method = self.method.as_deref().unwrap_or("-"),
            name = self.name.as_deref().unwrap_or("-"),
            status,
            ms = self.started.elapsed().as_secs_f64() * 1000.0,
        );
    }
}

/// Sets the client a request counts against: its address, and its token's tag when a token
/// is required (teammates sharing a token still have a bucket each); or the refusal.
fn refused_by_token(gate: &Gate, request: &Request<Body>, access: &mut Access) -> Option<Response> {
    // The one token check, shared with the pages (constant time, on digests).
    let login = gate.pages.login.as_ref()?;
    let presented = bearer(request.headers());
    match presented {
        Some(t) if login.accepts_token(t) => {
            access.client = format!("{} {}", gate.token_tag, access.client);
            None
        }
        _ => {
            if let Err(wait) = gate.failures.check(&access.client) {
                access.refused(429, "failed_auth_limited");
                return Some(too_many_requests(Value::Null, wait));
            }
            access.refused(401, "unauthorized");
            Some(unauthorized(presented.is_some()))
        }
    }
}

/// The body, read up to the limit, and what a POST says it is (method, id, tool name).
async fn read_body(
    gate: &Gate,
    body: Body,
    access: &mut Access,
) -> Result<(Bytes, Probe), Response> {
    let Ok(bytes) = axum::body::to_bytes(body, gate.max_body_bytes).await else {
        access.refused(413, "body_too_large");
        return Err(json_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            jsonrpc_error(
                Value::Null,
                -32600,
                "the request body is too large",
                json!({ "code": ErrorCode::LimitExceeded.wire_name(), "max_body_bytes": gate.max_body_bytes }),
            ),
        ));
    };
    if access.http != axum::http::Method::POST {
        return Ok((bytes, Probe::default()));
    }
    match probe(&bytes) {
        Ok(probed) => {
            // The access log keeps names, never a caller's megabytes.
            let logged = |s: &Option<String>| s.as_deref().map(|s| s.chars().take(200).collect());
            access.method = logged(&probed.method);
            access.name = logged(&probed.name);
            if let Some((code, message)) = &probed.overlong {
                // As rmcp answers an unknown method: 404; anything else over its bound: 400.
                let (status, outcome) = match code {
                    -32601 => (StatusCode::NOT_FOUND, "method_not_found"),
                    _ => (StatusCode::BAD_REQUEST, "limit_exceeded"),
                };
                access.refused(status.as_u16(), outcome);
                return Err(json_response(
                    status,
                    jsonrpc_error(
                        probed.id.clone(),
                        *code,
                        message,
                        json!({ "code": outcome }),
                    ),
                ));
            }
            Ok((bytes, probed))
        }
        Err(e) => {
            access.refused(400, "parse_error");
            Err(json_response(
                StatusCode::BAD_REQUEST,
                jsonrpc_error(
                    Value::Null,
                    -32700,
                    "parse error: the body is not JSON",
                    json!({ "code": ErrorCode::ParseError.wire_name(), "line": e.line(), "column": e.column() }),
                ),
            ))
        }
    }
}

/// Every request: `/mcp` through the MCP checks, anything else through the pages' checks;
/// every response leaves with the security headers.
async fn gate(
    State(gate): State<Arc<Gate>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request<Body>,
    next: Next,
) -> Response {
    let path = request.uri().path();
    let mut response = if path == "/mcp" || path.starts_with("/mcp/") {
        mcp_gate(&gate, peer, request, next).await
    } else {
        super::page_gate::page_gate(&gate, peer, request, next).await
    };
    super::page_gate::secure(response.headers_mut());
    response
}

async fn mcp_gate(gate: &Gate, peer: SocketAddr, request: Request<Body>, next: Next) -> Response {
    let mut access = Access {
        client: peer.ip().to_string(),
        http: request.method().clone(),
        method: None,
        name: None,
        started: Instant::now(),
    };
    if let Some(refusal) = refused_by_token(gate, &request, &mut access) {
        return refusal;
    }
    let (mut parts, body) = request.into_parts();
    // The call's deadline counts from here: reading the body and waiting for a place count.
    parts.extensions.insert(super::Arrival(access.started));
    let (bytes, probed) = match read_body(gate, body, &mut access).await {
        Ok(read) => read,
        Err(refusal) => return refusal,
    };
    if let Some(limiter) = &gate.limiter
        && let Err(wait) = limiter.check(&access.client)
    {
        access.refused(429, "rate_limited");
        return too_many_requests(probed.id, wait);
    }
    // Held until the answer is made (answers are plain JSON), so the place covers the work.
    let pooled = matches!(
        probed.method.as_deref(),
        Some("tools/call" | "resources/read" | "completion/complete")
    );
    let _place = if pooled {
        let tool = (probed.method.as_deref() == Some("tools/call"))
            .then_some(probed.name.as_deref())
            .flatten();
        let left = super::call_deadline(tool).saturating_sub(access.started.elapsed());
        match gate.places.acquire(&access.client, left).await {
            Some(place) => Some(place),
            None => {
                access.refused(429, "too_many_calls_at_once");
                return too_many(probed.id, Duration::from_secs(1), OVER_SHARE);
            }
        }
    } else {
        None
    };
    let response = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    access.answered(response.status().as_u16());
    response
}

/// The axum router serving Streamable HTTP at `/mcp`. Serve it with
/// `into_make_service_with_connect_info::<SocketAddr>()`: the gate keys clients by address.
pub fn http_router(index: Arc<LiveIndex>, options: &HttpOptions) -> axum::Router {
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    };
    let mut origins = vec![
        "http://localhost:*".to_string(),
        "http://127.0.0.1:*".to_string(),
        "http://[::1]:*".to_string(),
        "https://localhost:*".to_string(),
    ];
    origins.extend(options.extra_origins.iter().cloned());
    let mut hosts = vec![
        "localhost".to_string(),
        "127.0.0.1".to_string(),
        "::1".to_string(),
    ];
    let ip = options.addr.ip();
    if !ip.is_unspecified() && !ip.is_loopback() {
        hosts.push(ip.to_string());
    }
    hosts.extend(options.extra_hosts.iter().cloned());
    // Bound to every address with a token and no named hosts: clients reach it by names we
    // cannot know, and the Host check guards against DNS rebinding, which cannot supply the
    // token.
    let any_host =
        ip.is_unspecified() && options.auth_token.is_some() && options.extra_hosts.is_empty();
    let login = options
        .auth_token
        .as_deref()
        .map(|t| Arc::new(crate::pages::auth::Login::new(t)));
    let rules = super::page_gate::PageRules {
        hosts: (!any_host).then(|| hosts.clone()),
        origins: origins.clone(),
        login: login.clone(),
    };
    let mut config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .with_max_request_body_bytes(options.max_body_bytes)
        .with_json_response(true);
    if any_host {
        config = config.disable_allowed_hosts();
    }
    let pages = crate::pages::router(index.clone(), login);
    let index_for_api = index.clone();
    let server = Arc::new(OntoServer::live(index));
    let service: StreamableHttpService<Arc<OntoServer>, LocalSessionManager> =
        StreamableHttpService::new(
            move || Ok(Arc::new(server.for_session())),
            Default::default(),
            config,
        );
    let gate = Arc::new(Gate {
        token_tag: options
            .auth_token
            .as_deref()
            .map(token_tag)
            .unwrap_or_default(),
        failures: RateLimiter {
            rate: FAILED_AUTH_PER_SECOND,
            buckets: Mutex::new(HashMap::new()),
        },
        places: ClientPlaces::new(MAX_CALLS_PER_CLIENT),
        limiter: (options.rate_limit > 0).then(|| RateLimiter {
            rate: f64::from(options.rate_limit),
            buckets: Mutex::new(HashMap::new()),
        }),
        max_body_bytes: options.max_body_bytes,
        pages: rules,
    });
    axum::Router::new()
        .nest_service("/mcp", service)
        .merge(crate::ols::router(index_for_api))
        .merge(pages)
        .layer(middleware::from_fn_with_state(gate, self::gate))
}

/// Serves Streamable HTTP until Ctrl-C. `on_listening` hears the bound address once the port
/// is open, so that port 0 (any free port) can be announced to whoever started the server.
pub async fn serve_http(
    index: Arc<LiveIndex>,
    options: HttpOptions,
    on_listening: impl FnOnce(SocketAddr),
) -> Result<(), std::io::Error> {
    let router = http_router(index, &options);
    let listener = tokio::net::TcpListener::bind(options.addr).await?;
    let bound = listener.local_addr()?;
    tracing::info!(addr = %bound, "serving Streamable HTTP at /mcp");
    on_listening(bound);
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_over_its_rate_waits_and_others_do_not() {
        let limiter = RateLimiter {
            rate: 5.0,
            buckets: Mutex::new(HashMap::new()),
        };
        for _ in 0..5 {
            assert!(limiter.check("a").is_ok());
        }
        let wait = limiter
            .check("a")
            .expect_err("the sixth call in a burst of five");
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_millis(200),
            "{wait:?}"
        );
        assert!(
            limiter.check("b").is_ok(),
            "another client has its own bucket"
        );
    }

    #[test]
    fn a_body_is_probed_for_id_method_and_tool_name() {
        let p = probe(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"find_concepts","arguments":{"text":"x"}}}"#)
            .expect("json");
        assert_eq!(p.id, json!(7));
        assert_eq!(p.method.as_deref(), Some("tools/call"));
        assert_eq!(p.name.as_deref(), Some("find_concepts"));
        assert!(probe(b"{not json").is_err());
    }
}
