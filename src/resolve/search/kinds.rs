//! The typed states of a name search: every way a name can match ([`MatchKind`], which is also
//! the ranking tier) and the stages that find them ([`Stage`]).

use crate::model::LabelKind;

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
    /// A concept of another source that a concept whose name matched maps to by a curated
    /// exact mapping (MONDO's "DMD" leads to MeSH's Duchenne muscular dystrophy).
    ViaMapping,
    /// A label or synonym that meets the name only after the name rules (plural, word order,
    /// British spelling, head words such as "cancer" for "neoplasm").
    NameVariant,
    /// A name a training corpus wrote for the concept, which no loaded source gives it
    /// ("adriamycin" for Doxorubicin): learned by `ontoresolve train`, traced to the corpus.
    CorpusName,
    /// A label or synonym an older loaded release gave this concept, which the release
    /// searched no longer does.
    FormerLabel,
    NearSpelling,
    /// A concept another source holds for an ancestor of a concept whose name matched, when
    /// that concept maps to no loaded concept itself: broader than what the name means.
    BroaderViaMapping,
    /// A concept narrower than each name of a passage's coordination, which the coordination
    /// may name as a whole ("breast and ovarian cancer": Hereditary Breast and Ovarian Cancer
    /// Syndrome, under both Breast and Ovarian Neoplasms). Listed after the names, or first
    /// when one of its names holds the whole coordination and the passage says what narrows
    /// it ("BRCA1", "hereditary").
    SharedNarrower,
    FullText,
}

impl MatchKind {
    /// Every kind, in rank order.
    pub const ALL: [MatchKind; 23] = [
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
        MatchKind::ViaMapping,
        MatchKind::NameVariant,
        MatchKind::FormerLabel,
        MatchKind::CorpusName,
        MatchKind::NearSpelling,
        MatchKind::BroaderViaMapping,
        MatchKind::SharedNarrower,
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
            MatchKind::ViaMapping => 0.74,
            MatchKind::NameVariant => 0.72,
            MatchKind::CorpusName => 0.705,
            MatchKind::FormerLabel => 0.71,
            MatchKind::NearSpelling => 0.7,
            MatchKind::BroaderViaMapping => 0.6,
            MatchKind::SharedNarrower => 0.58,
            MatchKind::FullText => 0.5,
        }
    }

    /// Whether a match of this kind is a name match (the input names the concept, possibly
    /// after folding), as opposed to a near spelling, a broader concept or a full-text hit. Ambiguity is judged
    /// among name matches.
    /// Whether the input met one of the concept's own names or identifiers as written (case,
    /// spacing and punctuation aside): no mapping, rule, corpus, older release or guess.
    pub fn as_written(self) -> bool {
        self.tier() <= 2 && self != MatchKind::ViaMapping
    }

    pub fn names_the_concept(self) -> bool {
        !matches!(
            self,
            MatchKind::NearSpelling
                | MatchKind::BroaderViaMapping
                | MatchKind::SharedNarrower
                | MatchKind::FullText
        )
    }

    /// The rank tier: identifier, the concept's own name, another of its names, a name
    /// reached through a mapping, a name variant, a corpus's name, a near spelling, full text. Candidates are
    /// ranked by tier first, then by score within the tier.
    pub fn tier(self) -> u8 {
        match self {
            MatchKind::Identifier | MatchKind::AltId => 0,
            MatchKind::Label | MatchKind::ApprovedSymbol | MatchKind::ApprovedName => 1,
            MatchKind::EntryTerm
            | MatchKind::ExactSynonym
            | MatchKind::AltLabel
            | MatchKind::AliasSymbol
            | MatchKind::PreviousSymbol
            | MatchKind::NarrowSynonym
            | MatchKind::BroadSynonym
            | MatchKind::RelatedSynonym
            | MatchKind::HiddenLabel
            | MatchKind::Notation => 2,
            MatchKind::ViaMapping => 3,
            MatchKind::NameVariant | MatchKind::FormerLabel => 4,
            // A corpus's name fills a gap the sources leave: after every name of theirs.
            MatchKind::CorpusName => 5,
            MatchKind::NearSpelling | MatchKind::BroaderViaMapping | MatchKind::SharedNarrower => 6,
            MatchKind::FullText => 7,
        }
    }
}

/// The stages of a name search, in the order they run. Every stage runs (near spelling and
/// full text only when the name stages found live concepts or nothing at all); their
/// candidates are merged and ranked by match kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Identifier,
    ExactName,
    NameVariant,
    CorpusName,
    ViaMapping,
    NearSpelling,
    FullText,
}

impl Stage {
    pub const ALL: [Stage; 7] = [
        Stage::Identifier,
        Stage::ExactName,
        Stage::NameVariant,
        Stage::CorpusName,
        Stage::ViaMapping,
        Stage::NearSpelling,
        Stage::FullText,
    ];
}
