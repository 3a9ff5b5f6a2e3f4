//! Prefixes: the [`Prefixes`] trait that ingest expands and compresses identifiers through, the
//! registry's [`PrefixRecord`], and [`PrefixMap`], a small in-memory map for prefixes a file
//! declares itself (OBO `idspace`, built-in vocabularies).
//!
//! Compression tries the IRI's split points from the longest candidate down and looks each
//! candidate up in a hash map, so it never scans the list of prefixes.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

/// Expands CURIEs with known prefixes and compresses IRIs to canonical CURIEs. The index's
/// prefix registry implements it; so does [`PrefixMap`].
pub trait Prefixes: Sync {
    /// `PREFIX:local` to an IRI, for a known prefix (matched without regard to case).
    fn expand(&self, curie: &str) -> Option<String>;
    /// An IRI to a canonical CURIE, by its longest known URI prefix.
    fn compress(&self, iri: &str) -> Option<String>;
}

/// Where a prefix record comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordOrigin {
    Bioregistry,
    /// Declared by a catalogued source and unknown to the registry.
    Catalogue,
}

/// One namespace of identifiers, as the prefix registry knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrefixRecord {
    /// The registry's prefix (Bioregistry prefixes are lower case), e.g. `ncbigene`.
    pub prefix: String,
    /// The capitalisation canonical CURIEs use, e.g. `NCBIGene`, `HP`, `mesh`.
    pub preferred: String,
    pub origin: RecordOrigin,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The regular expression every local id matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// The registry's canonical URI prefix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri_prefix: Option<String>,
    /// The URI prefix the catalogued sources use for this prefix; it wins over `uri_prefix`
    /// when expanding, so that expanded IRIs are the IRIs in the store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index_uri_prefix: Option<String>,
    /// A copy of the prefix that some local ids carry (`GO_REF:` in `go.ref:GO_REF:0000001`);
    /// normalization removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub banana: Option<String>,
    /// What separates the banana from the local id; `:` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub banana_peel: Option<String>,
    #[serde(default)]
    pub deprecated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homepage: Option<String>,
    /// Other spellings of the prefix, as the registry writes them.
    #[serde(default)]
    pub synonyms: Vec<String>,
    /// Every URI prefix that abbreviates to this prefix.
    #[serde(default)]
    pub uri_prefixes: Vec<String>,
    /// Where the whole resource can be downloaded (OBO, OWL, JSON, RDF), per the registry.
    #[serde(default)]
    pub downloads: Vec<String>,
    /// Catalogued sources that declare this prefix (loaded or not).
    #[serde(default)]
    pub sources: Vec<String>,
}

impl PrefixRecord {
    /// A record that knows only its prefix, its preferred spelling and where it came from.
    pub fn bare(prefix: &str, preferred: String, origin: RecordOrigin) -> PrefixRecord {
        PrefixRecord {
            prefix: prefix.to_string(),
            preferred,
            origin,
            name: None,
            pattern: None,
            example: None,
            uri_prefix: None,
            index_uri_prefix: None,
            banana: None,
            banana_peel: None,
            deprecated: false,
            homepage: None,
            synonyms: Vec::new(),
            uri_prefixes: Vec::new(),
            downloads: Vec::new(),
            sources: Vec::new(),
        }
    }

    /// The URI prefix expansion uses: the loaded sources' own, else the registry's.
    pub fn expansion_base(&self) -> Option<&str> {
        self.index_uri_prefix
            .as_deref()
            .or(self.uri_prefix.as_deref())
    }

    /// The Bioregistry's resolver for an identifier under this prefix; characters that would
    /// end or break the URL's path are %-escaped.
    pub fn resolver_url(&self, local: &str) -> Option<String> {
        if self.origin != RecordOrigin::Bioregistry {
            return None;
        }
        let mut escaped = String::with_capacity(local.len());
        for c in local.chars() {
            match c {
                '%' | '#' | '?' | ' ' | '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}' => {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        escaped.push_str(&format!("%{b:02X}"));
                    }
                }
                c => escaped.push(c),
            }
        }
        Some(format!("https://bioregistry.io/{}:{escaped}", self.prefix))
    }
}

/// `PREFIX:local` in the OBO PURL space, for a prefix of OBO shape (letters, digits,
/// underscore) that no registry knows: how OBO files name terms of undeclared ontologies.
pub fn obo_purl(curie: &str) -> Option<String> {
    let (prefix, local) = curie.split_once(':')?;
    (is_obo_prefix(prefix)
        && !local.is_empty()
        && !local.starts_with("//")
        && !local.contains(char::is_whitespace))
    .then(|| format!("{OBO_PURL}{prefix}_{local}"))
}

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
        obo_purl(curie)
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

impl Prefixes for PrefixMap {
    fn expand(&self, curie: &str) -> Option<String> {
        self.expand_known(curie)
    }
    fn compress(&self, iri: &str) -> Option<String> {
        PrefixMap::compress(self, iri)
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

    #[test]
    fn resolver_urls_escape_what_would_cut_the_path() {
        let record = PrefixRecord::bare("doi", "doi".into(), RecordOrigin::Bioregistry);
        assert_eq!(
            record.resolver_url("10.1/a#b?c d%").as_deref(),
            Some("https://bioregistry.io/doi:10.1/a%23b%3Fc%20d%25")
        );
        let local = PrefixRecord {
            origin: RecordOrigin::Catalogue,
            ..record
        };
        assert_eq!(local.resolver_url("x"), None);
    }

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
