//! "Which concepts have this name?": the search cascade (identifier → exact name → near
//! spelling → full text), its ranking and its filters. Every adapter (MCP, `lookup`) asks here,
//! so the same question gets the same answer.

use std::collections::HashSet;

use super::{ConceptId, Outcome, ResolveError, Resolver};
use crate::model::{Concept, LabelKind, XrefKind};
use crate::registry::{Reading, Step};

/// How many full-text hits are ranked before filtering.
pub const FULL_TEXT_DEPTH: usize = 1000;
/// Above this many candidates, concepts are counted without looking for the same entity
/// asserted by several sources.
const MAX_ENTITY_GROUPING: usize = 200;
/// How many near-spelling labels are looked at.
const FUZZY_DEPTH: usize = 200;
/// Subtracted from a score per edit of a near spelling.
const EDIT_PENALTY: f64 = 0.1;
/// Subtracted from a score when the match ignored letter case (gene symbols are case-significant).
const CASE_PENALTY: f64 = 0.01;

/// Every way a name can match a concept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    Identifier,
    AltId,
    Label,
    ApprovedSymbol,
    ApprovedName,
    EntryTerm,
    ExactSynonym,
    AltLabel,
    AliasSymbol,
    PreviousSymbol,
    NarrowSynonym,
    BroadSynonym,
    RelatedSynonym,
    HiddenLabel,
    Notation,
    NearSpelling,
    FullText,
}

impl MatchKind {
    /// Every kind, in rank order.
    pub const ALL: [MatchKind; 17] = [
        MatchKind::Identifier,
        MatchKind::AltId,
        MatchKind::Label,
        MatchKind::ApprovedSymbol,
        MatchKind::ApprovedName,
        MatchKind::EntryTerm,
        MatchKind::ExactSynonym,
        MatchKind::AltLabel,
        MatchKind::AliasSymbol,
        MatchKind::PreviousSymbol,
        MatchKind::NarrowSynonym,
        MatchKind::BroadSynonym,
        MatchKind::RelatedSynonym,
        MatchKind::HiddenLabel,
        MatchKind::Notation,
        MatchKind::NearSpelling,
        MatchKind::FullText,
    ];

    /// The kind of a name match on a label of this kind.
    pub fn of_label(kind: LabelKind) -> MatchKind {
        match kind {
            LabelKind::Label | LabelKind::PrefLabel => MatchKind::Label,
            LabelKind::ApprovedSymbol => MatchKind::ApprovedSymbol,
            LabelKind::ApprovedName => MatchKind::ApprovedName,
            LabelKind::EntryTerm => MatchKind::EntryTerm,
            LabelKind::ExactSynonym => MatchKind::ExactSynonym,
            LabelKind::AltLabel => MatchKind::AltLabel,
            LabelKind::AliasSymbol => MatchKind::AliasSymbol,
            LabelKind::PreviousSymbol => MatchKind::PreviousSymbol,
            LabelKind::NarrowSynonym => MatchKind::NarrowSynonym,
            LabelKind::BroadSynonym => MatchKind::BroadSynonym,
            LabelKind::RelatedSynonym => MatchKind::RelatedSynonym,
            LabelKind::HiddenLabel => MatchKind::HiddenLabel,
            LabelKind::Notation => MatchKind::Notation,
        }
    }

    /// The weight of this kind of match: a concept's own name above its other names, and
    /// names another concept may also use (aliases, previous symbols) below those.
    pub fn weight(self) -> f64 {
        match self {
            MatchKind::Identifier => 1.0,
            MatchKind::AltId => 0.97,
            MatchKind::Label | MatchKind::ApprovedSymbol => 0.95,
            MatchKind::ApprovedName => 0.93,
            MatchKind::EntryTerm | MatchKind::ExactSynonym => 0.9,
            MatchKind::AltLabel => 0.88,
            MatchKind::AliasSymbol => 0.85,
            MatchKind::PreviousSymbol => 0.82,
            MatchKind::NarrowSynonym | MatchKind::BroadSynonym => 0.8,
            MatchKind::RelatedSynonym | MatchKind::HiddenLabel | MatchKind::Notation => 0.75,
            MatchKind::NearSpelling => 0.7,
            MatchKind::FullText => 0.5,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            MatchKind::Identifier => "identifier",
            MatchKind::AltId => "alt_id",
            MatchKind::Label => "label",
            MatchKind::ApprovedSymbol => "approved_symbol",
            MatchKind::ApprovedName => "approved_name",
            MatchKind::EntryTerm => "entry_term",
            MatchKind::ExactSynonym => "exact_synonym",
            MatchKind::AltLabel => "alt_label",
            MatchKind::AliasSymbol => "alias_symbol",
            MatchKind::PreviousSymbol => "previous_symbol",
            MatchKind::NarrowSynonym => "narrow_synonym",
            MatchKind::BroadSynonym => "broad_synonym",
            MatchKind::RelatedSynonym => "related_synonym",
            MatchKind::HiddenLabel => "hidden_label",
            MatchKind::Notation => "notation",
            MatchKind::NearSpelling => "near_spelling",
            MatchKind::FullText => "full_text",
        }
    }
}

/// The stages of the cascade, in the order they are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Identifier,
    ExactName,
    NearSpelling,
    FullText,
}

impl Stage {
    pub const ALL: [Stage; 4] = [
        Stage::Identifier,
        Stage::ExactName,
        Stage::NearSpelling,
        Stage::FullText,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Identifier => "identifier",
            Stage::ExactName => "exact_label+synonym",
            Stage::NearSpelling => "fuzzy",
            Stage::FullText => "full_text",
        }
    }
}

/// One concept a name search found, with how it matched.
#[derive(Clone, Debug, PartialEq)]
pub struct NameCandidate {
    pub concept: ConceptId,
    pub stage: Stage,
    pub kind: MatchKind,
    /// Whether the matched text equals the input in letter case too.
    pub case_exact: bool,
    /// Edits between the input and the label, for near spellings.
    pub distance: Option<u8>,
    /// The text that matched, with its language tag.
    pub text: Option<String>,
    pub lang: Option<String>,
    /// BM25 relevance, for full-text matches.
    pub relevance: Option<f64>,
    /// Whether the concept is obsolete or withdrawn (listed only when asked for).
    pub obsolete: bool,
    /// The match kind's weight (scaled by relevance for full text).
    pub weight: f64,
    pub score: f64,
}

/// A name search: the text and its filters.
#[derive(Clone, Debug)]
pub struct NameQuery<'a> {
    pub text: &'a str,
    /// Source ids to search; every loaded source when `None`.
    pub sources: Option<&'a [String]>,
    pub include_obsolete: bool,
}

/// Every visible candidate, ranked; nothing is cut here (adapters page).
#[derive(Clone, Debug, Default)]
pub struct NameSearch {
    pub candidates: Vec<NameCandidate>,
    /// Obsolete or withdrawn concepts that matched but were left out, by id.
    pub hidden: Vec<ConceptId>,
    /// How many distinct entities the candidates name: concepts of several sources joined by
    /// an exact-match cross-reference (HGNC:11998 and NCBIGene:7157) count once.
    pub distinct_entities: usize,
    pub stages_tried: Vec<Stage>,
    /// The stage that produced the candidates.
    pub decided: Option<Stage>,
    /// Whether full text matched more documents than were ranked.
    pub more_exist: bool,
}

impl NameSearch {
    /// How many different concepts the candidates name.
    pub fn distinct_concepts(&self) -> usize {
        self.candidates
            .iter()
            .map(|c| c.concept)
            .collect::<HashSet<_>>()
            .len()
    }

    /// Obsolete or withdrawn concepts that matched but were left out.
    pub fn obsolete_hidden(&self) -> u64 {
        self.hidden.len() as u64
    }
}

impl Resolver {
    /// Runs the cascade: each stage runs only if the stages before it matched nothing in the
    /// chosen sources, so a match in another source never hides a near spelling. A stage that
    /// matched only obsolete or withdrawn concepts ends the search (they are counted, and
    /// listed on request): near spellings of other names never stand in for them. Within a
    /// stage every matching concept is kept, best match first, live before obsolete.
    pub fn find_by_name(&self, query: &NameQuery) -> Result<NameSearch, ResolveError> {
        let text = query.text.trim();
        let mut out = NameSearch::default();
        let mut hidden = HashSet::new();
        for stage in Stage::ALL {
            out.stages_tried.push(stage);
            let mut found = match stage {
                Stage::Identifier => self.identifier_stage(text),
                Stage::ExactName => self.exact_name_stage(text),
                Stage::NearSpelling => self.near_spelling_stage(text),
                Stage::FullText => {
                    let (found, total) = self.full_text_stage(text)?;
                    out.more_exist = total > found.len();
                    found
                }
            };
            found.sort_by(|a, b| {
                b.score
                    .total_cmp(&a.score)
                    .then(b.case_exact.cmp(&a.case_exact))
                    .then(a.kind.cmp(&b.kind))
                    .then(a.concept.cmp(&b.concept))
            });
            let mut seen = HashSet::new();
            for mut candidate in found {
                if !seen.insert(candidate.concept) {
                    continue;
                }
                let Some(concept) = self.concept(candidate.concept) else {
                    continue;
                };
                if !self.in_sources(&concept, query.sources) || !concept.kind.searchable() {
                    continue;
                }
                if concept.obsolete && !query.include_obsolete {
                    hidden.insert(candidate.concept);
                    continue;
                }
                candidate.obsolete = concept.obsolete;
                out.candidates.push(candidate);
            }
            if !out.candidates.is_empty() || !hidden.is_empty() {
                out.decided = Some(stage);
                break;
            }
        }
        // Stable: within live and within obsolete candidates, the ranking above holds.
        out.candidates.sort_by_key(|c| c.obsolete);
        out.hidden = hidden.into_iter().collect();
        out.hidden.sort_unstable();
        out.distinct_entities = self.distinct_entities(&out.candidates);
        Ok(out)
    }

    /// Candidates joined by an exact-match cross-reference (one source says the other's
    /// concept is the same) count as one entity.
    fn distinct_entities(&self, candidates: &[NameCandidate]) -> usize {
        let mut ids: Vec<ConceptId> = candidates.iter().map(|c| c.concept).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.len() > MAX_ENTITY_GROUPING {
            return ids.len();
        }
        let concepts: Vec<Concept> = ids.iter().filter_map(|&id| self.concept(id)).collect();
        let mut group: Vec<usize> = (0..concepts.len()).collect();
        fn root(group: &mut [usize], mut i: usize) -> usize {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        }
        for (i, a) in concepts.iter().enumerate() {
            for (j, b) in concepts.iter().enumerate().skip(i + 1) {
                if same_entity(a, b) || same_entity(b, a) {
                    let (ri, rj) = (root(&mut group, i), root(&mut group, j));
                    group[ri] = rj;
                }
            }
        }
        (0..concepts.len())
            .filter(|&i| root(&mut group, i) == i)
            .count()
    }

    fn in_sources(&self, concept: &Concept, sources: Option<&[String]>) -> bool {
        match sources {
            None => true,
            Some(wanted) => self
                .source_of(concept)
                .is_some_and(|s| wanted.contains(&s.id)),
        }
    }

    /// The text read as an identifier in any spelling the registry knows; bare local ids are
    /// left to the name stages.
    fn identifier_stage(&self, text: &str) -> Vec<NameCandidate> {
        let normalization = self.registry().normalize(text);
        if !matches!(
            normalization.reading,
            Reading::Identifier(_) | Reading::UnknownNamespace { .. }
        ) {
            return Vec::new();
        }
        let (normalized, outcome) = self.resolve_normalized(&normalization);
        let mut ids: Vec<(ConceptId, MatchKind)> = match outcome {
            Outcome::Found(matches) => {
                let alt = matches.iter().all(|m| m.spelling == super::Spelling::AltId);
                let kind = if alt {
                    MatchKind::AltId
                } else {
                    MatchKind::Identifier
                };
                matches.into_iter().map(|m| (m.concept, kind)).collect()
            }
            // An obsolete identifier that a live concept also lists as an alternative id:
            // both readings are candidates.
            Outcome::Obsolete {
                concept, alt_id_of, ..
            } => std::iter::once((concept, MatchKind::Identifier))
                .chain(alt_id_of.into_iter().map(|id| (id, MatchKind::AltId)))
                .collect(),
            _ => Vec::new(),
        };
        ids.dedup();
        let folded = normalization.steps.iter().any(|s| {
            matches!(
                s,
                Step::PrefixCaseFolded { .. } | Step::LocalCaseFolded { .. }
            )
        });
        ids.into_iter()
            .map(|(concept, kind)| {
                // Case-exact when nothing was folded and the identifier is the concept's own
                // (the index matches without regard to case).
                let case_exact = !folded
                    && self.concept(concept).is_some_and(|c| {
                        kind == MatchKind::AltId
                            || c.curie.is_some() && c.curie == normalized.curie
                            || normalized.iri.as_deref() == Some(c.iri.as_str())
                    });
                NameCandidate {
                    concept,
                    stage: Stage::Identifier,
                    kind,
                    case_exact,
                    distance: None,
                    text: Some(text.to_string()),
                    lang: None,
                    relevance: None,
                    obsolete: false,
                    weight: kind.weight(),
                    score: score(kind.weight(), None, case_exact),
                }
            })
            .collect()
    }

    fn exact_name_stage(&self, text: &str) -> Vec<NameCandidate> {
        self.lookup_label(text)
            .into_iter()
            .map(|m| {
                let kind = MatchKind::of_label(m.label.kind);
                let case_exact = same_letters(&m.label.text, text);
                NameCandidate {
                    concept: m.concept,
                    stage: Stage::ExactName,
                    kind,
                    case_exact,
                    distance: None,
                    text: Some(m.label.text),
                    lang: m.label.lang,
                    relevance: None,
                    obsolete: false,
                    weight: kind.weight(),
                    score: score(kind.weight(), None, case_exact),
                }
            })
            .collect()
    }

    fn near_spelling_stage(&self, text: &str) -> Vec<NameCandidate> {
        let max = if crate::index::normalize::label_key(text).chars().count() < 5 {
            1
        } else {
            2
        };
        let kind = MatchKind::NearSpelling;
        self.fuzzy(text, max, FUZZY_DEPTH)
            .into_iter()
            .map(|m| NameCandidate {
                concept: m.concept,
                stage: Stage::NearSpelling,
                kind,
                case_exact: false,
                distance: Some(m.distance),
                text: Some(m.label.text),
                lang: m.label.lang,
                relevance: None,
                obsolete: false,
                weight: kind.weight(),
                score: score(kind.weight(), Some(m.distance), true),
            })
            .collect()
    }

    /// Full-text hits and how many documents matched in all.
    fn full_text_stage(&self, text: &str) -> Result<(Vec<NameCandidate>, usize), ResolveError> {
        let (hits, total) = self.search(text, FULL_TEXT_DEPTH)?;
        let best = hits.first().map_or(1.0, |h| f64::from(h.score)).max(1e-6);
        let kind = MatchKind::FullText;
        let found = hits
            .into_iter()
            .map(|h| {
                let weight = kind.weight() * f64::from(h.score) / best;
                NameCandidate {
                    concept: h.concept,
                    stage: Stage::FullText,
                    kind,
                    case_exact: false,
                    distance: None,
                    text: None,
                    lang: None,
                    relevance: Some(f64::from(h.score)),
                    obsolete: false,
                    weight,
                    score: score(weight, None, true),
                }
            })
            .collect();
        Ok((found, total))
    }
}

/// Whether `a` states that it is the same entity as `b` (an exact-match cross-reference to
/// `b`'s identifier).
fn same_entity(a: &Concept, b: &Concept) -> bool {
    a.xrefs.iter().any(|x| {
        x.kind == XrefKind::ExactMatch
            && (x.target == b.iri
                || b.curie
                    .as_deref()
                    .is_some_and(|curie| x.target.eq_ignore_ascii_case(curie)))
    })
}

/// Whether two names have the same letters and digits in the same case (spacing and
/// punctuation aside): a match that only folded case is not case-exact.
fn same_letters(a: &str, b: &str) -> bool {
    a.chars()
        .filter(|c| c.is_alphanumeric())
        .eq(b.chars().filter(|c| c.is_alphanumeric()))
}

/// The ranking score: the match kind's weight, less a penalty per edit and one for a match
/// that ignored letter case; rounded so that equal matches tie.
fn score(weight: f64, distance: Option<u8>, case_exact: bool) -> f64 {
    let edits = EDIT_PENALTY * f64::from(distance.unwrap_or(0));
    let case = if case_exact { 0.0 } else { CASE_PENALTY };
    ((weight - edits - case) * 1000.0).round() / 1000.0
}

/// The penalties behind a score, for adapters that show its basis.
pub fn penalties(candidate: &NameCandidate) -> (f64, f64) {
    let edits = EDIT_PENALTY * f64::from(candidate.distance.unwrap_or(0));
    let case = if candidate.case_exact
        || candidate.stage != Stage::Identifier && candidate.stage != Stage::ExactName
    {
        0.0
    } else {
        CASE_PENALTY
    };
    (edits, case)
}
