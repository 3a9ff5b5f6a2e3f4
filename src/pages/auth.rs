//! Pages behind a token: a login form that checks the token once and sets an HttpOnly,
//! SameSite=Strict cookie. The cookie holds a digest of the token under a key drawn when
//! the server starts, never the token; API clients keep the bearer header.

use maud::{Markup, html};
use sha2::{Digest, Sha256};

use super::address;

/// The cookie's name.
pub const COOKIE: &str = "ontoresolve_session";

/// What the gate and the login form need to know of the token.
pub struct Login {
    token_digest: [u8; 32],
    /// The value a logged-in browser's cookie carries.
    session: String,
}

fn digest(text: &[u8]) -> [u8; 32] {
    Sha256::digest(text).into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Equal in constant time, so timing says nothing about the value.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Login {
    pub fn new(token: &str) -> Login {
        use std::hash::{BuildHasher, Hasher};
        // A per-process key: cookies end with the process, and say nothing of the token.
        let mut key = Vec::with_capacity(64);
        for _ in 0..4 {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write(token.as_bytes());
            key.extend_from_slice(&h.finish().to_le_bytes());
        }
        key.extend_from_slice(token.as_bytes());
        Login {
            token_digest: digest(token.as_bytes()),
            session: hex(&digest(&key)),
        }
    }

    pub fn accepts_token(&self, token: &str) -> bool {
        same(&digest(token.as_bytes()), &self.token_digest)
    }

    /// Whether a `Cookie` header carries this server's session.
    pub fn accepts_cookie(&self, cookie_header: &str) -> bool {
        cookie_header
            .split(';')
            .filter_map(|c| c.trim().split_once('='))
            .any(|(name, value)| name == COOKIE && same(value.as_bytes(), self.session.as_bytes()))
    }

    /// The `Set-Cookie` value a successful login sends.
    pub fn set_cookie(&self) -> String {
        format!(
            "{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/",
            self.session
        )
    }
}

/// The login form; `next` is where a successful login goes.
pub fn form(next: &str, failed: bool) -> Markup {
    html! {
        h1 { "Log in" }
        @if failed { div.banner role="alert" { "That token is not accepted." } }
        p { "This server requires the token its operator set (" code { "--auth-token-file" } " or " code { "ONTORESOLVE_AUTH_TOKEN" } ")." }
        form action="/login" method="post" {
            input type="hidden" name="next" value=(address::local_target(next));
            label for="token" { "Token" }
            " "
            input #token type="password" name="token" required autocomplete="current-password";
            " "
            button type="submit" { "Log in" }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_servers_cookie_and_token_are_accepted() {
        let login = Login::new("s3cret");
        assert!(login.accepts_token("s3cret"));
        assert!(!login.accepts_token("s3cret "));
        let set = login.set_cookie();
        let value = set.split(';').next().unwrap_or_default();
        assert!(login.accepts_cookie(&format!("a=b; {value}")));
        assert!(!login.accepts_cookie(&format!("{COOKIE}=s3cret")));
        assert!(
            !Login::new("s3cret").accepts_cookie(value),
            "a new process, a new key"
        );
        assert!(set.contains("HttpOnly") && set.contains("SameSite=Strict"));
        assert!(!set.contains("s3cret"));
    }
}
