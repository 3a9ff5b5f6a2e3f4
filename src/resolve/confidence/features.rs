//! The feature registry: every signal the confidence model weighs, named, documented, and
//! computed here by the serving code (training calls the same functions). A candidate's
//! features describe how its name matched and what else matched; a mention's add how the
//! passage wrote the span.

use crate::model::{Facet, SemanticGroup};
use crate::resolve::passage::{Mention, MentionReading};
use crate::resolve::search::{MatchKind, NameCandidate};

/// Whether a feature describes a name search's candidate or a passage's mention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Candidate,
    Mention,
}

macro_rules! registry {
    ($($variant:ident = $name:literal, $scope:ident, $about:literal;)*) => {
        /// Every registered feature.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Feature { $($variant),* }

        impl Feature {
            pub const ALL: &'static [Feature] = &[$(Feature::$variant),*];

            /// The name the model file and `basis` use.
            pub fn name(self) -> &'static str {
                match self { $(Feature::$variant => $name),* }
            }

            /// What it measures, in words (docs/tools.md lists these).
            pub fn about(self) -> &'static str {
                match self { $(Feature::$variant => $about),* }
            }

            pub fn scope(self) -> Scope {
                match self { $(Feature::$variant => Scope::$scope),* }
            }
        }
    };
}

registry! {
    KindIdentifier = "kind_identifier", Candidate, "the input is the concept's identifier or alternative id";
    KindLabel = "kind_label", Candidate, "the input is the concept's label, approved symbol or approved name";
    KindSynonym = "kind_synonym", Candidate, "the input is an entry term, exact synonym or alternative label";
    KindSymbolAlias = "kind_symbol_alias", Candidate, "the input is an alias or previous gene symbol, which other genes may share";
    KindViaMapping = "kind_via_mapping", Candidate, "another concept has the name and maps to this one";
    KindNameVariant = "kind_name_variant", Candidate, "the name matched only after the name rules (plural, word order, spelling, head word)";
    KindCorpusName = "kind_corpus_name", Candidate, "a name a training corpus wrote for the concept, which no source gives it";
    LearnedSupport = "learned_support", Candidate, "ln(how many training mentions wrote a corpus name for the concept)";
    KindNearSpelling = "kind_near_spelling", Candidate, "a label within a few edits of the input";
    KindBroader = "kind_broader", Candidate, "a broader concept reached through an ancestor's mapping, or one narrower than a coordination's names";
    KindFullText = "kind_full_text", Candidate, "a full-text hit in labels, synonyms and definitions";
    EditDistance = "edit_distance", Candidate, "edits between the input and a near spelling";
    EditShare = "edit_share", Candidate, "those edits over the input's length";
    CaseDiffers = "case_differs", Candidate, "the matched text differs from the input in letter case";
    NameRewritten = "name_rewritten", Candidate, "the matched name met the input only after its own head or modifier word was read as another";
    NumberOnly = "number_only", Candidate, "the matched name met the input only in grammatical number (\"leads\" for \"Lead\")";
    AbbreviationQuery = "abbreviation_query", Candidate, "the input is short and in capitals: an abbreviation or symbol";
    First = "first", Candidate, "the candidate ranks first by match kind among its source's";
    FirstOwnName = "first_own_name", Candidate, "first, matched by a label, synonym or identifier of its own";
    FirstCorpusName = "first_corpus_name", Candidate, "first, matched by a corpus name";
    FirstGuess = "first_guess", Candidate, "first, and only a guess (near spelling, broader concept, full text)";
    Position = "position", Candidate, "ln(1 + the candidate's place in the match-kind ranking among its own source's candidates)";
    Outranked = "outranked", Candidate, "ln(1 + how many of its source's candidates matched by a better kind; guesses count as one kind)";
    QueryWords = "query_words", Candidate, "ln(words in the input)";
    ShortQuery = "short_query", Candidate, "the input has at most four characters";
    GroupDisease = "group_disease", Candidate, "the concept is a disease";
    GroupChemical = "group_chemical", Candidate, "the concept is a chemical";
    GroupGene = "group_gene", Candidate, "the concept is a gene";
    GroupProcedure = "group_procedure", Candidate, "the concept is a procedure";
    GroupPhenomenon = "group_phenomenon", Candidate, "the concept is a phenomenon or process";
    FacetProtein = "facet_protein", Candidate, "the concept is an enzyme or protein (every chemical tree number of MeSH under D08.811 or D12.776)";
    FacetUseOrForm = "facet_use_or_form", Candidate, "the concept is what a substance is given as or used for: a dosage form or a class by action or use (every chemical tree number under D26 or D27)";
    FacetSignOrCondition = "facet_sign_or_condition", Candidate, "the concept is a general sign, symptom or pathological condition (every disease tree number under C23)";
    ReadAsAbbreviation = "read_as_abbreviation", Mention, "the span is an abbreviation the passage defines, read through its long form";
    SpanWords = "span_words", Mention, "ln(words in the span)";
    SingleLowerWord = "single_lower_word", Mention, "the span is one word in lower case";
    SpanInCapitals = "span_in_capitals", Mention, "the span has no lower-case letter (a symbol)";
    OtherReadings = "other_readings", Mention, "ln(1 + shorter names inside or across the span)";
    MentionCandidates = "mention_candidates", Mention, "ln(the span's candidates)";
    SurfaceRepeats = "surface_repeats", Mention, "ln(how often the passage writes the span's text as whole words, in any ASCII letter case)";
    HyphenatedOn = "hyphenated_on", Mention, "a hyphen joins the span to the next word (\"cocaine-induced\", \"insulin-dependent\")";
}

/// How many features are registered.
pub const COUNT: usize = Feature::ALL.len();

impl Feature {
    pub fn index(self) -> usize {
        self as usize
    }

    /// The feature of this name, if registered.
    pub fn named(name: &str) -> Option<Feature> {
        Feature::ALL.iter().copied().find(|f| f.name() == name)
    }
}

/// One candidate's or mention's feature values, by [`Feature::index`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features(pub [f64; COUNT]);

impl Default for Features {
    fn default() -> Self {
        Features([0.0; COUNT])
    }
}

impl Features {
    pub fn get(&self, f: Feature) -> f64 {
        self.0[f.index()]
    }

    fn set(&mut self, f: Feature, value: f64) {
        self.0[f.index()] = value;
    }

    fn flag(&mut self, f: Feature, on: bool) {
        self.set(f, if on { 1.0 } else { 0.0 });
    }
}

/// The feature of each semantic group; groups without one weigh as the baseline (`other`,
/// and those whose feature changed nothing in the ablation).
fn group_feature(group: SemanticGroup) -> Option<Feature> {
    Some(match group {
        SemanticGroup::Disease => Feature::GroupDisease,
        SemanticGroup::Phenotype
        | SemanticGroup::Organism
        | SemanticGroup::Anatomy
        | SemanticGroup::Other => return None,
        SemanticGroup::Chemical => Feature::GroupChemical,
        SemanticGroup::Gene => Feature::GroupGene,
        SemanticGroup::Procedure => Feature::GroupProcedure,
        SemanticGroup::Phenomenon => Feature::GroupPhenomenon,
    })
}

fn facet_feature(facet: Facet) -> Feature {
    match facet {
        Facet::Protein => Feature::FacetProtein,
        Facet::UseOrForm => Feature::FacetUseOrForm,
        Facet::SignOrCondition => Feature::FacetSignOrCondition,
    }
}

/// The match-kind feature of each kind; kinds without one weigh as the baseline (a switched
/// off feature that changed nothing in the ablation was removed).
fn kind_feature(kind: MatchKind) -> Option<Feature> {
    Some(match kind {
        MatchKind::Identifier | MatchKind::AltId => Feature::KindIdentifier,
        MatchKind::Label | MatchKind::ApprovedSymbol | MatchKind::ApprovedName => {
            Feature::KindLabel
        }
        MatchKind::EntryTerm | MatchKind::ExactSynonym | MatchKind::AltLabel => {
            Feature::KindSynonym
        }
        MatchKind::AliasSymbol | MatchKind::PreviousSymbol => Feature::KindSymbolAlias,
        MatchKind::NarrowSynonym
        | MatchKind::BroadSynonym
        | MatchKind::RelatedSynonym
        | MatchKind::HiddenLabel
        | MatchKind::Notation
        | MatchKind::FormerLabel => return None,
        MatchKind::ViaMapping => Feature::KindViaMapping,
        MatchKind::NameVariant => Feature::KindNameVariant,
        MatchKind::CorpusName => Feature::KindCorpusName,
        MatchKind::NearSpelling => Feature::KindNearSpelling,
        MatchKind::BroaderViaMapping | MatchKind::SharedNarrower => Feature::KindBroader,
        MatchKind::FullText => Feature::KindFullText,
    })
}

/// The tier of near spellings and broader concepts; full text's is below it.
const GUESS_TIER: u8 = 6;

/// The match-kind tier, with every guess (near spelling, broader concept, full text) in one:
/// the model orders guesses among themselves.
pub fn guess_tier(c: &NameCandidate) -> u8 {
    c.tier().min(GUESS_TIER)
}

/// The features of the candidate at `at` of a list ranked by match kind, for the input `text`.
pub fn candidate_features(
    ranked: &[NameCandidate],
    at: usize,
    text: &str,
    abbreviation: bool,
) -> Features {
    let mut f = Features::default();
    let Some(c) = ranked.get(at) else {
        return f;
    };
    if let Some(kind) = kind_feature(c.kind) {
        f.flag(kind, true);
    }
    if let Some(group) = c.group.and_then(group_feature) {
        f.flag(group, true);
    }
    if let Some(facet) = c.facet {
        f.flag(facet_feature(facet), true);
    }
    let distance = f64::from(c.distance.unwrap_or(0));
    let chars = text.chars().filter(|c| !c.is_whitespace()).count().max(1);
    f.set(Feature::EditDistance, distance);
    f.set(Feature::EditShare, distance / chars as f64);
    if let Some(learned) = &c.learned {
        f.set(
            Feature::LearnedSupport,
            f64::from(learned.mentions.max(1)).ln(),
        );
    }
    f.flag(Feature::CaseDiffers, !c.case_exact);
    f.flag(Feature::NameRewritten, c.name_rewritten);
    f.flag(Feature::NumberOnly, c.number_only);
    f.flag(Feature::AbbreviationQuery, abbreviation);
    // Rank is read within the candidate's own source: another source's concept for the same
    // thing is no rival (MONDO's and MeSH's breast cancer are both right).
    let at = ranked[..at].iter().filter(|r| r.source == c.source).count();
    f.set(Feature::Position, (1.0 + at as f64).ln());
    if at == 0 {
        f.flag(Feature::First, true);
        let first = match c.kind.tier() {
            0..=2 => Some(Feature::FirstOwnName),
            // A first via-mapping name or name variant weighs as `first` alone.
            3 | 4 => None,
            5 => Some(Feature::FirstCorpusName),
            _ => Some(Feature::FirstGuess),
        };
        if let Some(first) = first {
            f.flag(first, true);
        }
    }
    let tier = guess_tier(c);
    let better = ranked
        .iter()
        .filter(|r| r.source == c.source && guess_tier(r) < tier)
        .count();
    f.set(Feature::Outranked, (1.0 + better as f64).ln());
    let words = text.split_whitespace().count().max(1);
    f.set(Feature::QueryWords, (words as f64).ln());
    f.flag(Feature::ShortQuery, text.trim().chars().count() <= 4);
    f
}

/// A mention's features: its first candidate's, and how the passage wrote the span and what
/// stands around it.
pub fn mention_features(mention: &Mention, text: &str) -> Features {
    let surface = text.get(mention.start..mention.end).unwrap_or("");
    let after = text.get(mention.end..).unwrap_or("");
    let mut f = mention
        .candidates
        .first()
        .map(|c| c.features)
        .unwrap_or_default();
    f.flag(
        Feature::ReadAsAbbreviation,
        matches!(mention.reading, MentionReading::Abbreviation { .. }),
    );
    let words = surface.split_whitespace().count().max(1);
    f.set(Feature::SpanWords, (words as f64).ln());
    f.flag(
        Feature::SingleLowerWord,
        words == 1 && !surface.chars().any(char::is_uppercase),
    );
    f.flag(
        Feature::SpanInCapitals,
        surface.chars().any(char::is_alphabetic) && !surface.chars().any(char::is_lowercase),
    );
    f.set(
        Feature::OtherReadings,
        (1.0 + mention.alternatives.len() as f64).ln(),
    );
    f.set(
        Feature::MentionCandidates,
        (mention.candidates.len().max(1) as f64).ln(),
    );
    f.set(
        Feature::SurfaceRepeats,
        (occurrences(text, surface).max(1) as f64).ln(),
    );
    f.flag(
        Feature::HyphenatedOn,
        after
            .strip_prefix('-')
            .is_some_and(|rest| rest.starts_with(char::is_alphabetic)),
    );
    f
}

/// How often `text` writes `surface` as whole words, ignoring ASCII letter case; a scan
/// without allocation, as it runs for every span of a passage (at most 20 KB).
fn occurrences(text: &str, surface: &str) -> usize {
    let (t, s) = (text.as_bytes(), surface.as_bytes());
    if s.is_empty() || s.len() > t.len() {
        return 0;
    }
    let word = |b: u8| b.is_ascii_alphanumeric() || !b.is_ascii();
    (0..=t.len() - s.len())
        .filter(|&at| {
            t[at..at + s.len()].eq_ignore_ascii_case(s)
                && (at == 0 || !word(t[at - 1]))
                && t.get(at + s.len()).is_none_or(|&b| !word(b))
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_feature_has_a_distinct_snake_case_name_and_a_description() {
        let mut names: Vec<&str> = Feature::ALL.iter().map(|f| f.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), COUNT);
        for f in Feature::ALL {
            assert!(
                f.name().chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{}",
                f.name()
            );
            assert!(f.about().len() > 10, "{}", f.name());
            assert_eq!(Feature::named(f.name()), Some(*f));
            assert_eq!(Feature::ALL[f.index()], *f);
        }
    }

    #[test]
    fn a_span_is_counted_where_the_passage_writes_it_as_whole_words_in_any_case() {
        let text = "Cocaine-induced seizures. cocaine users; Cocaines, procaine and COCAINE.";
        assert_eq!(occurrences(text, "cocaine"), 3);
        assert_eq!(occurrences(text, "caine"), 0);
        assert_eq!(occurrences(text, ""), 0);
        assert_eq!(occurrences("short", "a longer surface"), 0);
    }
}
