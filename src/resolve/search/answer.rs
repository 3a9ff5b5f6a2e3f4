//! What a name search answers with: each candidate and how it matched, the query and its
//! filters, and the ranked search with what it tried and left out.

use crate::model::WireName;
use std::collections::HashSet;

use super::{MatchKind, Stage, ViaMapping, penalties};
use crate::index::names::NameStep;
use crate::resolve::ConceptId;
use crate::resolve::confidence::{Confidence, Features};

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
    /// For via-mapping candidates: the concept whose name matched and the mapping followed.
    pub via: Option<ViaMapping>,
    /// Whether the concept is obsolete or withdrawn (listed only when asked for).
    pub obsolete: bool,
    /// For a name variant: the matched name met the input only after a head or modifier word
    /// of its own, one the input did not write, was read as another ("Carcinoma" read as
    /// "neoplasm" for "cancer"). Such a name is a sibling that shares the word's equivalent,
    /// so it ranks after a name that is that equivalent ("Neoplasms").
    pub name_rewritten: bool,
    /// For a name variant: the name met the input only in grammatical number ("glutamate"
    /// for "Glutamates"). In chemistry a plural heading names a class and the singular its
    /// member, so such a match is no surer than a corpus's name written as the input is.
    pub number_only: bool,
    /// The match kind's weight (scaled by relevance for full text).
    pub weight: f64,
    pub score: f64,
    /// What kind of thing the concept is, and the source release holding it, once the
    /// candidates are ranked.
    pub group: Option<crate::model::SemanticGroup>,
    pub facet: Option<crate::model::Facet>,
    pub source: Option<crate::model::SourceIdx>,
    /// For a corpus name: the corpus that wrote it, and how often.
    pub learned: Option<Learned>,
    /// The registered features, computed once the candidates are ranked by match kind.
    pub features: Features,
    /// The model's probability that this is the concept the text names, when the index has a
    /// confidence model.
    pub confidence: Option<Confidence>,
}

impl NameCandidate {
    /// A candidate found by `stage`, weighted by its kind and scored; the stage adds the
    /// matched text and the rest.
    pub(super) fn new(concept: ConceptId, stage: Stage, kind: MatchKind, case_exact: bool) -> Self {
        NameCandidate {
            concept,
            stage,
            kind,
            case_exact,
            distance: None,
            text: None,
            lang: None,
            relevance: None,
            via: None,
            obsolete: false,
            name_rewritten: false,
            number_only: false,
            weight: kind.weight(),
            score: 0.0,
            group: None,
            facet: None,
            source: None,
            learned: None,
            features: Features::default(),
            confidence: None,
        }
        .scored()
    }

    /// The rank tier ([`MatchKind::tier`]); a variant in grammatical number alone ranks with
    /// the corpus names.
    pub fn tier(&self) -> u8 {
        if self.kind == MatchKind::NameVariant && self.number_only {
            MatchKind::CorpusName.tier()
        } else {
            self.kind.tier()
        }
    }

    /// The matched label.
    pub(super) fn with_label(mut self, label: crate::model::Label) -> Self {
        self.text = Some(label.text);
        self.lang = label.lang;
        self
    }

    /// The same match, found only after the name rules: a name variant, weighted and scored
    /// as one.
    pub(in crate::resolve) fn into_name_variant(mut self) -> Self {
        self.stage = Stage::NameVariant;
        self.kind = MatchKind::NameVariant;
        self.weight = MatchKind::NameVariant.weight();
        self.scored()
    }

    /// A concept narrower than each concept a coordination's names name
    /// ([`MatchKind::SharedNarrower`]).
    pub(in crate::resolve) fn shared_narrower(concept: ConceptId) -> Self {
        NameCandidate::new(
            concept,
            Stage::NameVariant,
            MatchKind::SharedNarrower,
            false,
        )
    }

    /// The score: the weight less the penalties, rounded so that equal matches tie.
    pub(super) fn scored(mut self) -> Self {
        let (edits, case) = penalties(&self);
        self.score = ((self.weight - edits - case) * 1000.0).round() / 1000.0;
        self
    }

    /// The score's basis in words: the tier and what was taken off.
    pub fn basis(&self) -> String {
        let (edits, case) = penalties(self);
        let mut basis = format!("{} {:.2}", self.kind.wire_name(), self.weight);
        if let Some(relevance) = self.relevance {
            // The score is the kind's weight scaled by this relevance over the best hit's.
            basis = format!("bm25 {relevance:.1}");
        }
        if edits > 0.0 {
            basis.push_str(&format!(" - {edits:.2} for edits"));
        }
        if case > 0.0 {
            basis.push_str(&format!(" - {case:.2} for letter case"));
        }
        basis
    }
}

/// Where a corpus name was learned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Learned {
    /// The corpus id, as the model file names it.
    pub corpus: String,
    /// How many of its training mentions wrote the name for the concept.
    pub mentions: u32,
}

/// A name search: the text and its filters.
#[derive(Clone, Debug)]
pub struct NameQuery<'a> {
    pub text: &'a str,
    /// Source ids whose concepts may be candidates; every loaded source when `None`. Names are
    /// looked up in every source, so a name only another source knows still leads to a
    /// concept here through a mapping.
    pub sources: Option<&'a [String]>,
    pub include_obsolete: bool,
    /// Rank full-text hits beside a name matched as typed too (other readings, slower). By
    /// default full text runs only when no name matched as typed.
    pub full_text_beside_names: bool,
    /// How many of the best candidates the caller lists (a page's end). Full text ranks last,
    /// so it ranks only as deep as these positions need, never past [`super::FULL_TEXT_DEPTH`]; the
    /// positions are the same as at any greater depth. [`super::FULL_TEXT_DEPTH`] ranks all it can.
    pub wanted: usize,
}

/// How far full text ranked its matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TextReach {
    /// Every match was ranked, or full text did not run, or it listed only a few other
    /// readings beside name matches.
    #[default]
    Every,
    /// As deep as the wanted positions needed: more match, and a deeper search ranks them.
    Wanted,
    /// [`super::FULL_TEXT_DEPTH`] matches, its cap: more match than any search ranks.
    Capped,
}

/// Why a stage did not run, so that the answer can say what was left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// The name matched a label or synonym as typed: it is no typo.
    NameMatchedAsTyped,
    /// The name matched only obsolete or withdrawn concepts: other names never stand in.
    OnlyObsoleteMatched,
}

/// The visible candidates, ranked: every name match, and full-text hits as deep as the
/// query's wanted positions need (`text_reach` says how deep); adapters page.
#[derive(Clone, Debug, Default)]
pub struct NameSearch {
    pub candidates: Vec<NameCandidate>,
    /// Obsolete or withdrawn concepts that matched but were left out, by id.
    pub hidden: Vec<ConceptId>,
    /// How many distinct entities the name matches (candidates that name the concept, or all
    /// candidates when none does): concepts of several sources joined by an exact-match
    /// cross-reference (HGNC:11998 and NCBIGene:7157) count once.
    pub distinct_entities: usize,
    pub stages_tried: Vec<Stage>,
    /// The stages that did not run, and why.
    pub stages_skipped: Vec<(Stage, SkipReason)>,
    /// The stages that gave at least one listed candidate.
    pub stages_matched: Vec<Stage>,
    /// The steps the name went through for the name-variant stage.
    pub variant_steps: Vec<NameStep>,
    /// The input was read as an abbreviation or symbol (short, in capitals).
    pub abbreviation: bool,
    /// More names matched, or their mappings led to more concepts, than the via-mapping stage
    /// follows: some via-mapping candidates may be missing.
    pub via_limited: bool,
    /// How far full text ranked: more may match than are candidates.
    pub text_reach: TextReach,
}

impl NameSearch {
    /// The candidates that name the concept (identifier, name, variant, via mapping), or all
    /// of them when none does: what ambiguity is judged on.
    pub fn decisive(&self) -> &[NameCandidate] {
        let Some(first) = self.candidates.first() else {
            return &self.candidates;
        };
        if !first.kind.names_the_concept() {
            return &self.candidates;
        }
        // The best group of name matches: the name as typed (with the concepts it leads to
        // through mappings), else its variants; candidates that ignored letter case count
        // only when nothing matched in case for an abbreviation.
        let group = |c: &NameCandidate| match c.tier() {
            0..=3 => 0,
            4 => 1,
            5 => 2,
            _ => 3,
        };
        let best = group(first);
        let n = self
            .candidates
            .iter()
            .take_while(|c| {
                group(c) == best
                    && c.obsolete == first.obsolete
                    && (!self.abbreviation || c.case_exact == first.case_exact)
            })
            .count();
        &self.candidates[..n]
    }

    /// How many different concepts the decisive candidates name.
    pub fn distinct_concepts(&self) -> usize {
        self.decisive()
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
