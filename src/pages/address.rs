//! Addresses: the identifier a `/concept/…` path names (percent-decoded, any spelling the
//! resolver reads), and the one canonical address each concept, source, prefix, search and
//! query page has.

use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};

/// What a path segment may not hold raw; `/` and `:` stay, so IRIs read as IRIs.
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}')
    .add(b'\'');

/// A query-string value: everything but unreserved characters is encoded.
const QUERY: &AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~')
    .remove(b':');

/// Why a path names no identifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadPath {
    /// The decoded bytes are not UTF-8.
    NotUtf8,
    /// Nothing after `/concept/`.
    Empty,
}

/// The identifier text a raw (still percent-encoded) path tail names.
pub fn decode(raw: &str) -> Result<String, BadPath> {
    let text = percent_decode_str(raw)
        .decode_utf8()
        .map_err(|_| BadPath::NotUtf8)?;
    if text.trim().is_empty() {
        return Err(BadPath::Empty);
    }
    Ok(text.into_owned())
}

/// The canonical address of a concept: its CURIE (else its IRI), pinned when `release` is.
pub fn concept(id: &str, release: Option<&str>) -> String {
    let mut out = format!("/concept/{}", utf8_percent_encode(id, PATH));
    if let Some(release) = release {
        out.push('@');
        out.extend(utf8_percent_encode(release, PATH));
    }
    out
}

pub fn source(id: &str) -> String {
    format!("/source/{}", utf8_percent_encode(id, PATH))
}

pub fn prefix(prefix: &str) -> String {
    format!("/prefix/{}", utf8_percent_encode(prefix, PATH))
}

pub fn mapping_set(id: &str) -> String {
    format!("/mapping-set/{}", utf8_percent_encode(id, PATH))
}

/// A query-string value, encoded.
pub fn query_value(value: &str) -> String {
    utf8_percent_encode(value, QUERY).to_string()
}

/// The page that runs a SPARQL query.
pub fn sparql(query: &str) -> String {
    format!("/sparql?query={}", query_value(query))
}

/// Where a link to `iri` may point outside: only http and https, never `javascript:` and
/// the like, which are shown as text.
pub fn outside_link(iri: &str) -> Option<&str> {
    let lower = iri
        .get(..8)
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    (lower.starts_with("http://") || lower.starts_with("https://")).then_some(iri)
}

/// The longest address the login form carries back.
const MAX_RETURN_BYTES: usize = 1024;

/// Where a login may send its browser back to: a path on this server, never elsewhere.
pub fn local_target(next: &str) -> &str {
    // A page echoes it: an address longer than any page's is no place to return to.
    let ok = next.len() <= MAX_RETURN_BYTES
        && next.starts_with('/')
        && !next.starts_with("//")
        && !next.contains('\\');
    if ok { next } else { "/" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_decodes_to_the_identifier_it_spells() {
        assert_eq!(decode("MONDO:0005148").as_deref(), Ok("MONDO:0005148"));
        assert_eq!(
            decode("http://purl.obolibrary.org/obo/HP_0000535").as_deref(),
            Ok("http://purl.obolibrary.org/obo/HP_0000535")
        );
        assert_eq!(decode("a%2Fb").as_deref(), Ok("a/b"));
        assert_eq!(decode("%FF%FE"), Err(BadPath::NotUtf8));
        assert_eq!(decode("%20"), Err(BadPath::Empty));
    }

    #[test]
    fn canonical_addresses_encode_what_a_path_cannot_hold() {
        assert_eq!(concept("MONDO:0005148", None), "/concept/MONDO:0005148");
        assert_eq!(
            concept("MONDO:0000030", Some("2025-02-04")),
            "/concept/MONDO:0000030@2025-02-04"
        );
        assert_eq!(
            concept("http://x.org/a b#c?d", None),
            "/concept/http://x.org/a%20b%23c%3Fd"
        );
        assert_eq!(concept("\"><img>", None), "/concept/%22%3E%3Cimg%3E");
        assert_eq!(sparql("SELECT ?s"), "/sparql?query=SELECT%20%3Fs");
    }

    #[test]
    fn only_web_iris_become_outside_links() {
        assert!(outside_link("https://example.org/x").is_some());
        assert!(outside_link("HTTP://EXAMPLE.ORG").is_some());
        assert!(outside_link("javascript:alert(1)").is_none());
        assert!(outside_link("data:text/html,x").is_none());
        assert_eq!(local_target("/concept/HP:1"), "/concept/HP:1");
        assert_eq!(local_target("//evil.example/"), "/");
        assert_eq!(local_target("https://evil.example/"), "/");
    }
}
