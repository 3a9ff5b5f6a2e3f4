//! Normalization: any spelling of an identifier to its canonical CURIE and IRI, recording every
//! step taken. It reads the registry only; whether a concept exists is the resolver's question.

use std::borrow::Cow;
use std::sync::Arc;

use super::reading::{Identified, Normalization, PatternCheck, Reading, Step};
use super::{RecordId, Registry, fold_scheme_and_host};

/// Repeated prefixes removed at most this many times (`GO:GO:GO:1` is already odd).
const MAX_REPEATS: usize = 3;

impl Registry {
    /// Reads `input` as an identifier: an IRI, a CURIE, `PREFIX_local` or a bare local id.
    pub fn normalize(&self, input: &str) -> Normalization {
        let mut steps = Vec::new();
        let text = unwrap(input, &mut steps);
        let reading = self.read(text, &mut steps);
        Normalization {
            input: input.to_string(),
            steps,
            reading,
        }
    }

    fn read(&self, text: &str, steps: &mut Vec<Step>) -> Reading {
        if text.is_empty() {
            return Reading::Empty;
        }
        if is_iri(text) {
            return self.read_iri(text, steps);
        }
        self.read_curie(text, steps)
    }

    /// `PREFIX:local`, `PREFIX_local` or a bare local id.
    fn read_curie(&self, text: &str, steps: &mut Vec<Step>) -> Reading {
        if let Some((raw, local)) = text.split_once(':')
            && !raw.trim().is_empty()
        {
            let written = raw.trim();
            let local = local.trim_start();
            if let Some(hit) = self.prefix_spelling(written, local) {
                if written.len() != raw.len() || local.len() != text.len() - raw.len() - 1 {
                    steps.push(Step::SpaceAroundColon);
                }
                self.note_spelling(written, hit, steps);
                return self.identify(hit.record, local, hit.deprecated, steps, true);
            }
            // `hgvs_NP_003997.1:p.Trp24Cys`: a known prefix before an underscore counts when
            // the rest is a valid local id.
            if let Some((at, hit)) = self.underscore_prefix(written) {
                let mut tried = Vec::new();
                let reading = self.read_underscore(text, at, hit, &mut tried);
                if matches!(&reading, Reading::Identifier(id) if id.pattern != PatternCheck::Fails)
                {
                    steps.extend(tried);
                    return reading;
                }
            }
            if !written.contains(char::is_whitespace) {
                return Reading::UnknownPrefix {
                    prefix: written.to_string(),
                };
            }
        }
        if let Some((at, hit)) = self.underscore_prefix(text) {
            return self.read_underscore(text, at, hit, steps);
        }
        if let Some((written, local)) = text.split_once('_')
            && !local.is_empty()
            && looks_like_prefix(written)
        {
            return Reading::UnknownPrefix {
                prefix: written.to_string(),
            };
        }
        Reading::Bare {
            local: text.to_string(),
        }
    }

    fn read_underscore(
        &self,
        text: &str,
        at: usize,
        hit: super::SpellingHit,
        steps: &mut Vec<Step>,
    ) -> Reading {
        steps.push(Step::UnderscoreRead);
        self.note_spelling(&text[..at], hit, steps);
        self.identify(hit.record, &text[at + 1..], hit.deprecated, steps, true)
    }

    /// The record `written` names before `local`. A spelling that is only a record's banana
    /// counts in its own letter case and before a local id that fits the record's pattern:
    /// bananas include common words (`Gene`).
    fn prefix_spelling(&self, written: &str, local: &str) -> Option<super::SpellingHit> {
        let hit = self.spelling(written)?;
        if hit.banana {
            let record = self.record(hit.record)?;
            let exact = record.banana.as_deref() == Some(written);
            if !exact || self.check_pattern(hit.record, local) != PatternCheck::Fits {
                return None;
            }
        }
        Some(hit)
    }

    /// A resolver's path: `PREFIX:local`, or the legacy `prefix/local`.
    fn read_resolver_path(&self, path: &str, steps: &mut Vec<Step>) -> Reading {
        match path.split_once('/') {
            Some((prefix, local)) if !prefix.contains(':') => {
                self.read_curie(&format!("{prefix}:{local}"), steps)
            }
            _ => self.read_curie(path, steps),
        }
    }

    /// The longest known prefix spelling before an underscore, within the first
    /// [`MAX_PREFIX_BYTES`](super::MAX_PREFIX_BYTES) bytes.
    fn underscore_prefix(&self, text: &str) -> Option<(usize, super::SpellingHit)> {
        let mut best = None;
        for (at, _) in text.match_indices('_') {
            if at > super::MAX_PREFIX_BYTES {
                break;
            }
            if at + 1 < text.len()
                && let Some(hit) = self.prefix_spelling(&text[..at], &text[at + 1..])
            {
                best = Some((at, hit));
            }
        }
        best
    }

    fn read_iri(&self, text: &str, steps: &mut Vec<Step>) -> Reading {
        let folded = fold_scheme_and_host(text);
        if folded != text {
            steps.push(Step::HostCaseFolded);
        }
        let found = self.uri_prefix_of(&folded);
        // A resolver (identifiers.org, n2t, bioregistry.io) names the prefix in its path, in
        // any case: read the path as a CURIE unless a longer, specific URI prefix matched.
        if let Some(base) = resolver_base(&folded)
            && found.is_none_or(|m| m.len <= base)
        {
            steps.push(Step::ResolverRead {
                resolver: folded[..base].to_string(),
            });
            let rest = &folded[base..];
            let decoded = percent_decode(rest);
            if decoded != rest {
                // Some local ids hold %-escapes themselves: decode only when that helps.
                let mut decoded_steps = vec![Step::PercentDecoded];
                let reading = self.read_resolver_path(&decoded, &mut decoded_steps);
                let fits = |r: &Reading| matches!(r, Reading::Identifier(id) if id.pattern != PatternCheck::Fails);
                if fits(&reading) {
                    steps.extend(decoded_steps);
                    return reading;
                }
                let mut raw_steps = Vec::new();
                let raw = self.read_resolver_path(rest, &mut raw_steps);
                if fits(&raw) {
                    steps.extend(raw_steps);
                    return raw;
                }
                steps.extend(decoded_steps);
                return reading;
            }
            return self.read_resolver_path(rest, steps);
        }
        let Some(found) = found else {
            return Reading::UnknownNamespace {
                namespace: namespace_of(&folded).to_string(),
            };
        };
        let uri_prefix = &folded[..found.len];
        let local = &folded[found.len..];
        if found.twin {
            steps.push(Step::SchemeSwapped {
                written: scheme_of(&folded).to_string(),
            });
        }
        // The bare OBO PURL space: `PREFIX_local` after it names the ontology, whose own URI
        // prefix was not matched (letter case) or is unknown.
        if uri_prefix.ends_with("purl.obolibrary.org/obo/") {
            steps.push(Step::UriPrefixStripped {
                uri_prefix: uri_prefix.to_string(),
                prefix: Arc::from("obo"),
            });
            if let Some((at, hit)) = self.underscore_prefix(local) {
                steps.push(Step::UnderscoreRead);
                self.note_spelling(&local[..at], hit, steps);
                return self.identify(hit.record, &local[at + 1..], hit.deprecated, steps, false);
            }
            if let Some((written, rest)) = local.split_once('_')
                && !rest.is_empty()
                && looks_like_prefix(written)
            {
                return Reading::UnknownPrefix {
                    prefix: written.to_string(),
                };
            }
        } else {
            let prefix = self
                .preferred(found.record)
                .unwrap_or_else(|| Arc::from(""));
            steps.push(Step::UriPrefixStripped {
                uri_prefix: uri_prefix.to_string(),
                prefix,
            });
        }
        self.identify(found.record, local, false, steps, false)
    }

    fn note_spelling(&self, written: &str, hit: super::SpellingHit, steps: &mut Vec<Step>) {
        let Some(record) = self.record(hit.record) else {
            return;
        };
        if written != record.preferred {
            let prefix = self.preferred(hit.record).unwrap_or_else(|| Arc::from(""));
            let same_letters = written.eq_ignore_ascii_case(&record.preferred)
                || written.eq_ignore_ascii_case(&record.prefix);
            steps.push(if same_letters {
                Step::PrefixCaseFolded {
                    written: written.to_string(),
                    prefix,
                }
            } else {
                Step::PrefixSynonym {
                    written: written.to_string(),
                    prefix,
                }
            });
        }
        if hit.deprecated || record.deprecated {
            steps.push(Step::DeprecatedPrefix {
                written: written.to_string(),
            });
        }
    }

    /// A known prefix and its local id: repeated prefixes removed, the pattern checked, the
    /// canonical CURIE and IRI formed. `via_curie` allows one re-reading as an IRI.
    fn identify(
        &self,
        record_id: RecordId,
        local: &str,
        deprecated_spelling: bool,
        steps: &mut Vec<Step>,
        via_curie: bool,
    ) -> Reading {
        let Some(record) = self.record(record_id) else {
            return Reading::UnknownPrefix {
                prefix: local.to_string(),
            };
        };
        let mut local = local.to_string();
        for _ in 0..MAX_REPEATS {
            match self.repeated_prefix(record_id, &local) {
                Some(cut) => {
                    steps.push(Step::RepeatedPrefixRemoved {
                        removed: local[..cut].to_string(),
                    });
                    local = local[cut..].to_string();
                }
                None => break,
            }
        }
        let mut pattern = self.check_pattern(record_id, &local);
        if pattern == PatternCheck::Fails
            && let Some(trimmed) = local.strip_suffix('/')
            && self.check_pattern(record_id, trimmed) == PatternCheck::Fits
        {
            local.truncate(trimmed.len());
            steps.push(Step::TrailingSlashRemoved);
            pattern = PatternCheck::Fits;
        }
        if pattern == PatternCheck::Fails {
            for cased in [local.to_uppercase(), local.to_lowercase()] {
                if cased != local && self.check_pattern(record_id, &cased) == PatternCheck::Fits {
                    steps.push(Step::LocalCaseFolded {
                        written: std::mem::replace(&mut local, cased),
                        local: local.clone(),
                    });
                    pattern = PatternCheck::Fits;
                    break;
                }
            }
        }
        if local.is_empty() || local.contains(char::is_whitespace) {
            pattern = PatternCheck::Fails;
        }
        let iri = record.expansion_base().map(|base| [base, &local].concat());
        // A broad namespace without a pattern (obo:HP_0000118): read the IRI it expands to,
        // which a more specific prefix may own.
        if via_curie
            && record.pattern.is_none()
            && let Some(iri) = &iri
            && let Some(other) = self.uri_prefix_of(&fold_scheme_and_host(iri))
            && other.record != record_id
            && other.len > record.expansion_base().map_or(0, str::len)
        {
            steps.push(Step::ReadAsIri { iri: iri.clone() });
            return self.read_iri(iri, steps);
        }
        Reading::Identifier(Identified {
            record: record_id,
            prefix: self
                .preferred(record_id)
                .unwrap_or_else(|| Arc::from(record.preferred.as_str())),
            curie: [record.preferred.as_str(), ":", &local].concat(),
            local,
            iri,
            pattern,
            deprecated_prefix: deprecated_spelling || record.deprecated,
        })
    }

    /// The length of a repeated prefix at the start of `local` (`GO:` in `GO:0008150` under
    /// `go`, or the registry's banana), when removing it makes the id fit or nothing fits.
    fn repeated_prefix(&self, record_id: RecordId, local: &str) -> Option<usize> {
        let record = self.record(record_id)?;
        let mut cuts = Vec::new();
        if let Some((head, rest)) = local.split_once(':')
            && !rest.is_empty()
            && self.spelling(head).map(|h| h.record) == Some(record_id)
        {
            cuts.push(head.len() + 1);
        }
        // `GO:GO_0008150`: only when what follows fits, since local ids may hold underscores.
        if let Some((head, rest)) = local.split_once('_')
            && head.len() <= super::MAX_PREFIX_BYTES
            && self.check_pattern(record_id, rest) == PatternCheck::Fits
            && self.spelling(head).map(|h| h.record) == Some(record_id)
        {
            cuts.push(head.len() + 1);
        }
        if let Some(banana) = &record.banana {
            let peel = record.banana_peel.as_deref().unwrap_or(":");
            let stem = format!("{banana}{peel}");
            if local.len() > stem.len()
                && local
                    .get(..stem.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(&stem))
            {
                cuts.push(stem.len());
            }
        }
        if cuts.is_empty() {
            return None;
        }
        let whole = self.check_pattern(record_id, local);
        cuts.into_iter().find(|&cut| {
            let rest = self.check_pattern(record_id, &local[cut..]);
            rest == PatternCheck::Fits
                || (whole != PatternCheck::Fits && rest != PatternCheck::Fails)
        })
    }
}

/// The input without surrounding whitespace, angle brackets and quotes, as normalization
/// reads it.
pub fn unwrapped(input: &str) -> &str {
    unwrap(input, &mut Vec::new())
}

/// Removes surrounding whitespace, angle brackets and quotes.
fn unwrap<'a>(input: &'a str, steps: &mut Vec<Step>) -> &'a str {
    let mut text = input.trim_matches(is_blank);
    if text.len() != input.len() {
        steps.push(Step::Trimmed);
    }
    loop {
        if let Some(inner) = text.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
            text = inner.trim_matches(is_blank);
            steps.push(Step::Unbracketed);
        } else if let Some(inner) = ['"', '\'']
            .iter()
            .find_map(|q| text.strip_prefix(*q).and_then(|t| t.strip_suffix(*q)))
        {
            text = inner.trim_matches(is_blank);
            steps.push(Step::Unquoted);
        } else {
            return text;
        }
    }
}

/// `scheme://…` with a letters-only scheme, or a URN.
fn is_iri(text: &str) -> bool {
    if text.len() > 4
        && text
            .get(..4)
            .is_some_and(|t| t.eq_ignore_ascii_case("urn:"))
    {
        return true;
    }
    text.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.bytes().all(|b| b.is_ascii_alphabetic())
    })
}

/// Whitespace, and the invisible characters pasted text carries (byte-order mark, zero-width
/// space).
fn is_blank(c: char) -> bool {
    c.is_whitespace() || c == '\u{FEFF}' || c == '\u{200B}'
}

/// Hosts that resolve `PREFIX:local` (or `prefix/local`) in their path.
const RESOLVERS: [&str; 4] = [
    "identifiers.org/",
    "www.identifiers.org/",
    "n2t.net/",
    "bioregistry.io/",
];

/// The length of `scheme://resolver/` when the (folded) IRI is under a resolver.
fn resolver_base(iri: &str) -> Option<usize> {
    let (scheme, rest) = iri.split_once("://")?;
    let host = RESOLVERS.iter().find(|h| rest.starts_with(**h))?;
    Some(scheme.len() + 3 + host.len())
}

fn scheme_of(iri: &str) -> &str {
    iri.split_once("://").map_or("", |(scheme, _)| scheme)
}

/// Decodes `%XX` escapes once (a CURIE's colon is often escaped in URIs); a bad escape
/// stays as written.
pub fn percent_decode(text: &str) -> Cow<'_, str> {
    if !text.contains('%') {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

/// An unknown IRI's namespace: everything up to its last `/`, `#` or `_`.
fn namespace_of(iri: &str) -> &str {
    let cut = iri.rfind(['/', '#', '_']).map_or(iri.len(), |i| i + 1);
    &iri[..cut]
}

/// Letters, digits and dots, starting with a letter: a plausible prefix.
fn looks_like_prefix(text: &str) -> bool {
    text.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '.')
}
