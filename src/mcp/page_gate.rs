//! The gate's rules for the pages and the OLS API beside `/mcp` (`crate::pages`,
//! `crate::ols`): the same Host and Origin checks as MCP, the token (bearer header, HTTP Basic
//! credentials whose password is the token, or the login cookie a browser holds), the rate
//! limit and the client's share of places; and the security headers every response carries.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Method, Request, header};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::Value;

use super::CALL_DEADLINE;
use super::http::{Access, Gate, OVER_SHARE, bearer, too_many, too_many_requests};
use crate::pages;

/// Host and Origin rules and the login, as `http_router` set them for `/mcp`.
pub struct PageRules {
    /// Host names accepted (port aside); `None` accepts any.
    pub hosts: Option<Vec<String>>,
    /// Origins accepted (`http://localhost:*` takes any port), besides the page's own.
    pub origins: Vec<String>,
    pub login: Option<Arc<pages::auth::Login>>,
}

/// The host of a `Host` header, without its port.
fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    host.rsplit_once(':')
        .filter(|(_, port)| port.chars().all(|c| c.is_ascii_digit()))
        .map_or(host, |(name, _)| name)
}

fn origin_matches(origin: &str, pattern: &str) -> bool {
    match pattern.strip_suffix(":*") {
        Some(base) => {
            origin == base
                || origin.strip_prefix(base).is_some_and(|rest| {
                    rest.strip_prefix(':').is_some_and(|port| {
                        !port.is_empty() && port.chars().all(|c| c.is_ascii_digit())
                    })
                })
        }
        None => origin == pattern,
    }
}

impl PageRules {
    /// Why a request is refused for where it says it comes from, if it is.
    fn refusal(&self, headers: &HeaderMap) -> Option<&'static str> {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        if let Some(hosts) = &self.hosts {
            let name = host_name(host).to_ascii_lowercase();
            if !hosts.iter().any(|h| h.eq_ignore_ascii_case(&name)) {
                return Some("this server does not answer to that host name");
            }
        }
        let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok())?;
        let own = [format!("http://{host}"), format!("https://{host}")];
        let allowed = own.iter().any(|o| o == origin)
            || self.origins.iter().any(|p| origin_matches(origin, p));
        (!allowed).then_some("requests from that origin are not accepted")
    }

    /// Whether the request carries the token: a bearer header, Basic credentials whose
    /// password is the token (how OLS clients, which send no headers of their own, reach a
    /// guarded server: `requests` takes them from the URL or `~/.netrc`), or the login cookie.
    fn authorized(&self, login: &pages::auth::Login, headers: &HeaderMap) -> bool {
        bearer(headers).is_some_and(|t| login.accepts_token(t))
            || basic_password(headers).is_some_and(|t| login.accepts_token(&t))
            || headers
                .get_all(header::COOKIE)
                .iter()
                .filter_map(|c| c.to_str().ok())
                .any(|c| login.accepts_cookie(c))
    }
}

/// The password of HTTP Basic credentials, if the request carries them.
fn basic_password(headers: &HeaderMap) -> Option<String> {
    use base64::Engine;
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, encoded) = value.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    text.split_once(':')
        .map(|(_, password)| password.to_string())
}

/// A page or API request through the checks, then to the router.
pub(super) async fn page_gate(
    gate: &Gate,
    peer: SocketAddr,
    request: Request<Body>,
    next: Next,
) -> Response {
    let path = request.uri().path();
    let public = pages::is_public(path);
    let api = crate::ols::is_api(path);
    let access = Access {
        client: peer.ip().to_string(),
        http: request.method().clone(),
        method: Some(if api { "api" } else { "page" }.into()),
        name: Some(
            if api {
                crate::ols::route_name(path)
            } else {
                pages::route_name(path)
            }
            .into(),
        ),
        started: Instant::now(),
    };
    let rules = &gate.pages;
    if let Some(why) = rules.refusal(request.headers()) {
        access.refused(403, "forbidden_host_or_origin");
        return if api {
            crate::ols::refused(403, why)
        } else {
            pages::forbidden(why)
        };
    }
    if let Some(login) = &rules.login {
        if path == "/login" && request.method() == Method::POST {
            // Every login attempt counts, so a token cannot be guessed at full speed.
            if let Err(wait) = gate.failures.check(&access.client) {
                access.refused(429, "failed_auth_limited");
                return too_many_requests(Value::Null, wait);
            }
        } else if !public && !rules.authorized(login, request.headers()) {
            access.refused(401, "unauthorized");
            if api {
                return crate::ols::refused(401, crate::ols::TOKEN_NEEDED);
            }
            let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
            return pages::login_required(target);
        }
    }
    if let Some(limiter) = &gate.limiter
        && let Err(wait) = limiter.check(&access.client)
    {
        access.refused(429, "rate_limited");
        return too_many_requests(Value::Null, wait);
    }
    let _place = if public {
        None
    } else {
        match gate.places.acquire(&access.client, CALL_DEADLINE).await {
            Some(place) => Some(place),
            None => {
                access.refused(429, "too_many_calls_at_once");
                return too_many(Value::Null, Duration::from_secs(1), OVER_SHARE);
            }
        }
    };
    let response = next.run(request).await;
    access.answered(response.status().as_u16());
    response
}

/// The headers every response carries, errors included.
pub(super) fn secure(headers: &mut HeaderMap) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(pages::CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_lose_their_ports_and_origins_match_any_port_patterns() {
        assert_eq!(host_name("127.0.0.1:8765"), "127.0.0.1");
        assert_eq!(host_name("[::1]:8765"), "::1");
        assert_eq!(host_name("localhost"), "localhost");
        assert!(origin_matches(
            "http://localhost:5173",
            "http://localhost:*"
        ));
        assert!(origin_matches("http://localhost", "http://localhost:*"));
        assert!(!origin_matches(
            "http://localhost.evil:5173",
            "http://localhost:*"
        ));
        assert!(!origin_matches("http://localhost:", "http://localhost:*"));
        assert!(origin_matches("https://app.example", "https://app.example"));
    }
}
