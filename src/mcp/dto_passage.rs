//! Wire shapes of `ground_passage`. Spans are Unicode scalar (character) offsets into the
//! text as sent, end exclusive.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::dto::{Candidate, ConceptSummary};
use super::echo::{is_zero, sig3_opt};

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PassageArgs {
    /// The passage (an abstract, a paragraph), up to 20 KB.
    pub text: String,
    /// Candidates only from these source ids (names are read from every source). Default: all.
    #[serde(default)]
    pub sources: Option<Vec<String>>,
    /// At most this many candidates per mention, 1 to 10. Default: 3.
    #[serde(default)]
    pub limit: Option<u32>,
    /// Mentions only of concepts in these semantic groups (for example ["disease",
    /// "chemical"]): a span whose candidates are all of other groups is no mention. Default:
    /// every group.
    #[serde(default)]
    pub groups: Option<Vec<String>>,
}

/// Where an abbreviation is defined.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct AbbreviationOf {
    /// The long form as the passage writes it.
    pub long_form: String,
    /// Its span (characters).
    pub start: u64,
    pub end: u64,
}

/// A shorter or overlapping name kept as another reading of a mention's text.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SpanDto {
    pub start: u64,
    pub end: u64,
    pub text: String,
}

/// One mention of a loaded concept's name.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct MentionDto {
    /// Its span (characters, end exclusive) and text.
    pub start: u64,
    pub end: u64,
    pub text: String,
    /// The estimated probability that the span names its first candidate (calibrated as a
    /// candidate's confidence is); a span under the answer's `threshold` is listed under
    /// `uncertain` instead.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "sig3_opt")]
    pub confidence: Option<f64>,
    /// Ranked as find_concepts ranks them; for an abbreviation the long form's candidates
    /// come first, then the short form's own readings.
    pub candidates: Vec<Candidate>,
    /// How many candidates there are in all (`limit` lists the first).
    pub candidates_total: u64,
    /// The passage defines this mention as an abbreviation of that long form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub abbreviation_of: Option<AbbreviationOf>,
    /// The name whose head this modifier shares ("ovarian cancer" for "breast" in "breast and
    /// ovarian cancer"): its candidates read it with that head, then concepts narrower than
    /// both names (shared_narrower; first, for both names, when the passage says what
    /// narrows it), its own readings after.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coordinated_with: Option<SpanDto>,
    /// Shorter or overlapping names in the same text, other readings.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<SpanDto>,
}

/// One distinct concept the mentions name first.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ConceptMentions {
    pub concept: ConceptSummary,
    pub mentions: u64,
}

/// An abbreviation the passage defines.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct AbbreviationDto {
    pub short_form: String,
    pub long_form: String,
    /// Uses not made mentions: the long form names nothing in `sources`, and no reading of
    /// the letters alone shares a word with it.
    #[serde(skip_serializing_if = "is_zero")]
    pub unread_uses: u64,
    /// The word after "(SF)" that completes the name ("von Hippel-Lindau (VHL) disease"):
    /// "SF head" reads as "long form head".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
}

/// The answer of `ground_passage`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Passage {
    /// In text order.
    pub mentions: Vec<MentionDto>,
    /// Each distinct concept the mentions name first, most mentioned first.
    pub concepts: Vec<ConceptMentions>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub abbreviations: Vec<AbbreviationDto>,
    /// Names too generic to ground alone ("disease", "patients") that were skipped.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub generic_skipped: Vec<String>,
    /// Names found whose concepts are all outside `sources` or `groups`.
    #[serde(skip_serializing_if = "is_zero")]
    pub outside_sources: u64,
    /// Spans read as names whose confidence is under `threshold`: not mentions, and not
    /// counted in `concepts`; each with its candidates, in text order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub uncertain: Vec<MentionDto>,
    /// The confidence a span needs to be a mention (the confidence model's, chosen where it
    /// was calibrated; not a parameter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
}
