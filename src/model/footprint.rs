//! A source's prefix footprint: the prefixes and IRI namespaces its reading asked the prefix
//! registry about and did not get from the Bioregistry. A later build compares it with a prefix
//! the catalogue declares anew (or no longer declares) to tell whether the source would read
//! differently, so that a new ontology with a prefix of its own is no reason to read the
//! others again.

use std::collections::{BTreeSet, HashSet};

use serde::{Deserialize, Serialize};

/// Split points after the host that a namespace keeps at first: enough for
/// `http://purl.obolibrary.org/obo/SYNTAX_`.
pub const NAMESPACE_DEPTH: usize = 3;
/// Namespaces or prefixes kept before namespaces are cut shorter, or the footprint gives up.
pub const FOOTPRINT_CAP: usize = 2_048;

/// What one source's reading could not take from the Bioregistry alone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrefixFootprint {
    /// CURIE prefixes (lower case) that were unknown, or known only because another catalogued
    /// source declares them.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub prefixes: BTreeSet<String>,
    /// IRIs under no Bioregistry URI prefix, each cut to a leading part ([`namespace_key`]).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub namespaces: BTreeSet<String>,
    /// Too many to list: any prefix declared anew may change how this source reads.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub overflow: bool,
}

impl PrefixFootprint {
    /// Whether declaring (or dropping) `prefix` with the URI prefix `uri_prefix` (scheme and
    /// host in lower case) may change what this source's reading got. Errs towards yes: a
    /// namespace cut short matches every URI prefix that starts with it.
    pub fn touches(&self, prefix: &str, uri_prefix: &str) -> bool {
        self.overflow
            || self.prefixes.contains(&prefix.to_ascii_lowercase())
            || self
                .namespaces
                .iter()
                .any(|n| n.starts_with(uri_prefix) || uri_prefix.starts_with(n.as_str()))
    }
}

/// A footprint as it is being recorded: namespaces are cut shorter when there are many, down
/// to scheme and host, and past that the footprint gives up (`overflow`).
#[derive(Debug)]
pub struct FootprintRecorder {
    prefixes: HashSet<String>,
    namespaces: HashSet<String>,
    depth: usize,
    overflow: bool,
}

impl Default for FootprintRecorder {
    fn default() -> Self {
        FootprintRecorder {
            prefixes: HashSet::new(),
            namespaces: HashSet::new(),
            depth: NAMESPACE_DEPTH,
            overflow: false,
        }
    }
}

impl FootprintRecorder {
    /// Notes a prefix, already in lower case.
    pub fn prefix(&mut self, folded: &str) {
        if !self.overflow && !self.prefixes.contains(folded) {
            self.prefixes.insert(folded.to_string());
            self.overflow |= self.prefixes.len() > FOOTPRINT_CAP;
        }
    }

    /// Notes an IRI's namespace; its scheme and host already in lower case.
    pub fn namespace(&mut self, iri: &str) {
        if self.overflow || self.namespaces.contains(namespace_key(iri, self.depth)) {
            return;
        }
        self.namespaces
            .insert(namespace_key(iri, self.depth).to_string());
        while self.namespaces.len() > FOOTPRINT_CAP && !self.overflow {
            if self.depth == 0 {
                self.overflow = true;
                break;
            }
            self.depth -= 1;
            let depth = self.depth;
            self.namespaces = self
                .namespaces
                .iter()
                .map(|n| namespace_key(n, depth).to_string())
                .collect();
        }
    }

    pub fn finish(&self) -> PrefixFootprint {
        if self.overflow {
            return PrefixFootprint {
                overflow: true,
                ..PrefixFootprint::default()
            };
        }
        PrefixFootprint {
            prefixes: self.prefixes.iter().cloned().collect(),
            namespaces: self.namespaces.iter().cloned().collect(),
            overflow: false,
        }
    }
}

/// The leading part of `iri` up to and including its `depth`-th split point (`/ # _ : = . ?`)
/// after the scheme and host; the whole scheme and host at depth 0. Always a prefix of `iri`,
/// so an IRI under a URI prefix has a key that the URI prefix starts with or that starts with
/// the URI prefix.
pub fn namespace_key(iri: &str, depth: usize) -> &str {
    // Without an authority (`urn:isbn:…`), the scheme stands for the host.
    let host_end = match iri.find("://") {
        Some(at) => iri[at + 3..]
            .find(['/', '?', '#'])
            .map_or(iri.len(), |end| at + 3 + end),
        None => iri.find(':').map_or(0, |at| at + 1),
    };
    let mut end = host_end;
    for (seen, (at, c)) in iri[host_end..]
        .char_indices()
        .filter(|(_, c)| matches!(c, '/' | '#' | '_' | ':' | '=' | '.' | '?'))
        .enumerate()
    {
        if seen == depth {
            break;
        }
        end = host_end + at + c.len_utf8();
    }
    &iri[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_namespace_key_keeps_the_first_split_points_after_the_host() {
        let iri = "http://purl.obolibrary.org/obo/SYNTAX_123";
        assert_eq!(
            namespace_key(iri, 3),
            "http://purl.obolibrary.org/obo/SYNTAX_"
        );
        assert_eq!(namespace_key(iri, 2), "http://purl.obolibrary.org/obo/");
        assert_eq!(namespace_key(iri, 0), "http://purl.obolibrary.org");
        assert_eq!(namespace_key("http://x.org", 3), "http://x.org");
        assert_eq!(
            namespace_key("https://doi.org/10.1/abc", 9),
            "https://doi.org/10.1/"
        );
        assert_eq!(namespace_key("urn:isbn:123", 3), "urn:isbn:");
        assert_eq!(namespace_key("urn:isbn:123", 0), "urn:");
    }

    #[test]
    fn a_footprint_is_touched_by_its_prefixes_and_by_uri_prefixes_over_its_namespaces() {
        let footprint = PrefixFootprint {
            prefixes: ["syntax".to_string()].into(),
            namespaces: ["http://example.org/terms/".to_string()].into(),
            overflow: false,
        };
        assert!(footprint.touches("SYNTAX", "http://elsewhere.org/"));
        assert!(footprint.touches("EX", "http://example.org/terms/EX_"));
        assert!(footprint.touches("EX", "http://example.org/"));
        assert!(!footprint.touches("EX", "http://example.org/other/"));
        assert!(!PrefixFootprint::default().touches("EX", "http://example.org/"));
        let overflow = PrefixFootprint {
            overflow: true,
            ..PrefixFootprint::default()
        };
        assert!(overflow.touches("EX", "http://example.org/"));
    }

    #[test]
    fn many_namespaces_are_cut_shorter_and_still_cover_every_iri() {
        let mut recorder = FootprintRecorder::default();
        for n in 0..(FOOTPRINT_CAP * 2) {
            recorder.namespace(&format!("http://example.org/a{n}/b/c"));
        }
        let footprint = recorder.finish();
        assert!(!footprint.overflow);
        assert!(footprint.namespaces.len() <= FOOTPRINT_CAP);
        assert!(footprint.touches("A7", "http://example.org/a7/"));
        assert!(!footprint.touches("A7", "http://elsewhere.org/a7/"));
        for n in 0..(FOOTPRINT_CAP * 2) {
            recorder.namespace(&format!("http://host{n}.org/"));
        }
        assert!(recorder.finish().overflow);
    }
}
