//! Prefix map: CURIE prefixes to URI prefixes and back.
//!
//! Compression tries the IRI's split points from the longest candidate down and looks each
//! candidate up in a hash map, so it never scans the list of prefixes.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

/// One prefix and the URI prefix it abbreviates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrefixRule {
    pub prefix: String,
    pub uri_prefix: String,
}

/// The OBO Foundry PURL space: `PREFIX:local` ↔ `http://purl.obolibrary.org/obo/PREFIX_local`.
pub const OBO_PURL: &str = "http://purl.obolibrary.org/obo/";

#[derive(Clone, Debug, Default)]
pub struct PrefixMap {
    by_prefix: HashMap<String, String>,
    by_lower_prefix: HashMap<String, String>,
    by_uri: HashMap<String, String>,
}

impl PrefixMap {
    /// Builds a map; the first rule for a prefix or URI prefix wins.
    pub fn new(rules: impl IntoIterator<Item = PrefixRule>) -> Self {
        let mut map = PrefixMap::default();
        for rule in rules {
            map.insert(rule);
        }
        map
    }

    pub fn insert(&mut self, rule: PrefixRule) {
        self.by_lower_prefix
            .entry(rule.prefix.to_ascii_lowercase())
            .or_insert_with(|| rule.prefix.clone());
        self.by_uri
            .entry(rule.uri_prefix.clone())
            .or_insert_with(|| rule.prefix.clone());
        self.by_prefix.entry(rule.prefix).or_insert(rule.uri_prefix);
    }

    /// The canonical spelling of a prefix, matched case-insensitively.
    pub fn canonical_prefix(&self, prefix: &str) -> Option<&str> {
        self.by_lower_prefix
            .get(&prefix.to_ascii_lowercase())
            .map(String::as_str)
    }

    pub fn uri_prefix(&self, prefix: &str) -> Option<&str> {
        self.by_prefix.get(prefix).map(String::as_str)
    }

    /// Expands `PREFIX:local` with a known prefix only (matched case-insensitively).
    pub fn expand_known(&self, curie: &str) -> Option<String> {
        let (prefix, local) = curie.split_once(':')?;
        if local.is_empty() || local.starts_with("//") {
            return None;
        }
        let base = self.by_prefix.get(self.canonical_prefix(prefix)?)?;
        Some(format!("{base}{local}"))
    }

    /// Expands `PREFIX:local` to an IRI. Known prefixes match case-insensitively; an unknown
    /// prefix of OBO shape (letters, digits, underscore) falls back to the OBO PURL space.
    pub fn expand(&self, curie: &str) -> Option<String> {
        let (prefix, local) = curie.split_once(':')?;
        if prefix.is_empty() || local.is_empty() || local.starts_with("//") {
            return None;
        }
        if let Some(canonical) = self.canonical_prefix(prefix) {
            let base = self.by_prefix.get(canonical)?;
            return Some(format!("{base}{local}"));
        }
        if is_obo_prefix(prefix) && !local.contains(char::is_whitespace) {
            return Some(format!("{OBO_PURL}{prefix}_{local}"));
        }
        None
    }

    /// Compresses an IRI to a CURIE with the longest matching URI prefix, falling back to the
    /// OBO PURL convention.
    pub fn compress(&self, iri: &str) -> Option<String> {
        let split_points = iri
            .char_indices()
            .filter(|(_, c)| matches!(c, '/' | '#' | '_' | ':' | '=' | '.'))
            .map(|(i, _)| i + 1)
            .collect::<Vec<_>>();
        for &end in split_points.iter().rev() {
            if end >= iri.len() {
                continue;
            }
            if let Some(prefix) = self.by_uri.get(&iri[..end]) {
                return Some(format!("{prefix}:{}", &iri[end..]));
            }
        }
        let rest = iri.strip_prefix(OBO_PURL)?;
        let (prefix, local) = rest.split_once('_')?;
        (is_obo_prefix(prefix) && !local.is_empty() && !local.contains('/'))
            .then(|| format!("{prefix}:{local}"))
    }

    pub fn rules(&self) -> Vec<PrefixRule> {
        let mut rules: Vec<PrefixRule> = self
            .by_prefix
            .iter()
            .map(|(prefix, uri_prefix)| PrefixRule {
                prefix: prefix.clone(),
                uri_prefix: uri_prefix.clone(),
            })
            .collect();
        rules.sort_by(|a, b| a.prefix.cmp(&b.prefix));
        rules
    }
}

fn is_obo_prefix(prefix: &str) -> bool {
    prefix
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && prefix
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> PrefixMap {
        PrefixMap::new([
            PrefixRule {
                prefix: "HP".into(),
                uri_prefix: "http://purl.obolibrary.org/obo/HP_".into(),
            },
            PrefixRule {
                prefix: "stw".into(),
                uri_prefix: "http://zbw.eu/stw/descriptor/".into(),
            },
        ])
    }

    #[test]
    fn expand_and_compress_round_trip() {
        let m = map();
        for curie in ["HP:0000118", "stw:11157-5", "GO:0008150"] {
            let iri = m.expand(curie).expect("expands");
            assert_eq!(m.compress(&iri).as_deref(), Some(curie), "{iri}");
        }
        assert_eq!(
            m.expand("hp:0000118").as_deref(),
            Some("http://purl.obolibrary.org/obo/HP_0000118")
        );
        assert_eq!(m.expand("http://x"), None);
        assert_eq!(m.compress("http://example.org/x"), None);
    }
}
