//! "What is this identifier?": normalization of the common spellings and one specific outcome
//! per case, never a guess.

use super::{ConceptId, IdMatch, Resolver};
use crate::index::manifest::IdShape;
use crate::model::{Concept, ReplacementKind};

/// The input, its normalized form and every step taken to get there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Normalized {
    pub input: String,
    /// The canonical CURIE when the prefix is known.
    pub curie: Option<String>,
    pub iri: Option<String>,
    pub steps: Vec<String>,
}

/// One hop of a replacement chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainStep {
    pub iri: String,
    pub concept: Option<ConceptId>,
    pub obsolete: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Live concepts with this identifier (more than one when several sources hold it).
    Found(Vec<IdMatch>),
    /// An obsolete concept; `chain` follows replaced_by from it (cycle-safe), `consider` lists
    /// the alternatives it names.
    Obsolete {
        concept: ConceptId,
        chain: Vec<ChainStep>,
        consider: Vec<String>,
        cycle: bool,
    },
    /// The prefix is known and the local id has the right shape, but no loaded source has it.
    NotInLoadedSources {
        prefix: String,
        sources: Vec<String>,
    },
    /// The prefix is known but the local id does not fit, or the input is not an identifier.
    Malformed {
        reason: String,
        expected: Option<String>,
        example: Option<String>,
    },
    UnknownPrefix {
        prefix: String,
        suggestions: Vec<String>,
    },
    /// A bare local id that matches concepts without naming a namespace: every reading.
    Ambiguous(Vec<IdMatch>),
}

impl Resolver {
    /// Normalizes `text` and says what it identifies.
    pub fn resolve_identifier(&self, text: &str) -> (Normalized, Outcome) {
        let mut n = Normalized {
            input: text.to_string(),
            ..Normalized::default()
        };
        let mut t = text.trim();
        if t.len() != text.len() {
            n.steps.push("trimmed surrounding whitespace".into());
        }
        if let Some(inner) = t.strip_prefix('<').and_then(|x| x.strip_suffix('>')) {
            t = inner.trim();
            n.steps.push("removed angle brackets".into());
        }
        let matches = self.lookup_id(t);
        if !matches.is_empty()
            && matches
                .iter()
                .all(|m| m.spelling == super::Spelling::LocalId)
        {
            // A bare local id names no namespace: list every reading, never pick one.
            n.steps.push(format!(
                "'{t}' has no prefix; it is a local id in several readings"
            ));
            return (n, Outcome::Ambiguous(matches));
        }
        if !matches.is_empty() {
            return self.found(n, t, matches);
        }
        let Some((prefix, local, how)) = self.split_identifier(t) else {
            return (
                n,
                Outcome::Malformed {
                    reason: "not a CURIE (PREFIX:local), an IRI or an OBO-style id (PREFIX_local)"
                        .into(),
                    expected: Some("PREFIX:local, e.g. HP:0000118".into()),
                    example: None,
                },
            );
        };
        n.steps.extend(how);
        let Some(canonical) = self
            .prefixes()
            .canonical_prefix(&prefix)
            .map(str::to_string)
        else {
            let suggestions = self.closest_prefixes(&prefix);
            return (
                n,
                Outcome::UnknownPrefix {
                    prefix,
                    suggestions,
                },
            );
        };
        if canonical != prefix {
            n.steps.push(format!(
                "prefix '{prefix}' matched known prefix '{canonical}' ignoring case"
            ));
        }
        let curie = format!("{canonical}:{local}");
        n.iri = self.prefixes().expand_known(&curie);
        n.curie = Some(curie);
        let shapes: Vec<(&str, &IdShape)> = self
            .manifest()
            .sources
            .iter()
            .flat_map(|s| s.id_shapes.iter().map(move |shape| (s.id.as_str(), shape)))
            .filter(|(_, shape)| shape.prefix == canonical)
            .collect();
        if let Some((_, shape)) = shapes.first()
            && !shapes.iter().any(|(_, s)| s.fits(&local))
        {
            return (
                n,
                Outcome::Malformed {
                    reason: format!("'{local}' does not look like a {canonical} local id"),
                    expected: Some(shape.describe()),
                    example: Some(format!("{canonical}:{}", shape.example)),
                },
            );
        }
        if local.is_empty() || local.contains(char::is_whitespace) {
            return (
                n,
                Outcome::Malformed {
                    reason: format!(
                        "'{local}' is not a local id: it is empty or contains whitespace"
                    ),
                    expected: None,
                    example: None,
                },
            );
        }
        let sources = shapes.iter().map(|(id, _)| id.to_string()).collect();
        (
            n,
            Outcome::NotInLoadedSources {
                prefix: canonical,
                sources,
            },
        )
    }

    fn found(&self, mut n: Normalized, key: &str, matches: Vec<IdMatch>) -> (Normalized, Outcome) {
        // The concept's own identifier wins over another concept's alternative id: an obsolete
        // term whose id a live term lists as alt_id is reported as obsolete, with its chain.
        let (own, alt): (Vec<IdMatch>, Vec<IdMatch>) = matches
            .into_iter()
            .partition(|m| m.spelling != super::Spelling::AltId);
        let matches = if own.is_empty() { alt } else { own };
        let concepts: Vec<(IdMatch, Concept)> = matches
            .into_iter()
            .filter_map(|m| Some((m.clone(), self.concept(m.concept)?)))
            .collect();
        if let Some((m, c)) = concepts.first() {
            n.curie = c.curie.clone();
            n.iri = Some(c.iri.clone());
            let spelled = match m.spelling {
                super::Spelling::Iri => "an IRI",
                super::Spelling::Curie => "a CURIE",
                super::Spelling::Underscore => "an OBO-style id (PREFIX_local)",
                super::Spelling::LocalId => "a bare local id",
                super::Spelling::AltId => "an alternative id (alt_id) of the concept",
            };
            n.steps.push(format!("recognised '{key}' as {spelled}"));
            if c.curie.as_deref() != Some(key) && c.iri != key {
                n.steps.push("case folded to the canonical spelling".into());
            }
        }
        let live: Vec<IdMatch> = concepts
            .iter()
            .filter(|(_, c)| !c.obsolete)
            .map(|(m, _)| m.clone())
            .collect();
        if !live.is_empty() {
            return (n, Outcome::Found(live));
        }
        let Some((m, c)) = concepts.into_iter().next() else {
            return (n, Outcome::Found(Vec::new()));
        };
        let (chain, cycle) = self.replacement_chain(&c);
        let consider = c
            .replacements_of(ReplacementKind::Consider)
            .map(|r| r.target.clone())
            .collect();
        (
            n,
            Outcome::Obsolete {
                concept: m.concept,
                chain,
                consider,
                cycle,
            },
        )
    }

    /// Splits into (prefix, local id) and says how; IRIs go through the prefix map.
    fn split_identifier(&self, t: &str) -> Option<(String, String, Vec<String>)> {
        let lower = t.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            let curie = self.prefixes().compress(t).or_else(|| {
                // The same IRI with the other scheme.
                let swapped = match t.split_once("://") {
                    Some(("https", rest)) | Some(("HTTPS", rest)) => format!("http://{rest}"),
                    Some((_, rest)) => format!("https://{rest}"),
                    None => return None,
                };
                self.prefixes().compress(&swapped)
            });
            let Some((prefix, local)) = curie.as_deref().and_then(|c| c.split_once(':')) else {
                // An IRI outside every known namespace: its namespace is the unknown prefix.
                let cut = t.rfind(['/', '#', '_']).map_or(t.len(), |i| i + 1);
                return Some((t[..cut].to_string(), t[cut..].to_string(), Vec::new()));
            };
            return Some((
                prefix.to_string(),
                local.to_string(),
                vec![format!("stripped the URI prefix of '{prefix}'")],
            ));
        }
        if let Some((prefix, local)) = t.split_once(':')
            && !prefix.is_empty()
            && !local.is_empty()
            && !prefix.contains(char::is_whitespace)
        {
            return Some((prefix.to_string(), local.to_string(), Vec::new()));
        }
        if let Some((prefix, local)) = t.split_once('_')
            && !local.is_empty()
            && prefix
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
            && prefix.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return Some((
                prefix.to_string(),
                local.to_string(),
                vec!["read PREFIX_local as PREFIX:local".into()],
            ));
        }
        None
    }

    /// Known prefixes within two edits of `prefix` (case-insensitive), closest first.
    fn closest_prefixes(&self, prefix: &str) -> Vec<String> {
        let wanted = prefix.to_ascii_lowercase();
        let mut scored: Vec<(usize, String)> = self
            .prefixes()
            .rules()
            .into_iter()
            .map(|r| {
                (
                    edit_distance(&wanted, &r.prefix.to_ascii_lowercase()),
                    r.prefix,
                )
            })
            .filter(|(d, _)| *d <= 2)
            .collect();
        scored.sort();
        scored.into_iter().map(|(_, p)| p).take(5).collect()
    }

    /// Follows replaced_by from an obsolete concept until a live concept, a dead end or a cycle.
    pub fn replacement_chain(&self, start: &Concept) -> (Vec<ChainStep>, bool) {
        let mut chain = Vec::new();
        let mut seen = vec![start.iri.clone()];
        let mut current = start.clone();
        loop {
            let Some(next) = current
                .replacements_of(ReplacementKind::ReplacedBy)
                .next()
                .map(|r| r.target.clone())
            else {
                return (chain, false);
            };
            if seen.contains(&next) {
                return (chain, true);
            }
            seen.push(next.clone());
            match self.by_iri_any(&next, current.source) {
                Some((id, found)) => {
                    let obsolete = found.obsolete;
                    chain.push(ChainStep {
                        iri: next,
                        concept: Some(id),
                        obsolete,
                    });
                    if !obsolete {
                        return (chain, false);
                    }
                    current = found;
                }
                None => {
                    chain.push(ChainStep {
                        iri: next,
                        concept: None,
                        obsolete: false,
                    });
                    return (chain, false);
                }
            }
        }
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut row = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            row[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(row[j] + 1);
        }
        prev = row;
    }
    prev[b.len()]
}
