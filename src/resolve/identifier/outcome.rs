//! What an identifier lookup answers: the normalized input with its steps, and one typed
//! outcome per case.

use super::chains::Chain;
use crate::registry::{PatternCheck, RecordId, Step};
use crate::resolve::releases::{ReleaseHolding, View};
use crate::resolve::{ConceptId, IdMatch};

/// The input, its normalized form and every step taken to get there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Normalized {
    pub input: String,
    /// The canonical CURIE when the prefix is known.
    pub curie: Option<String>,
    pub iri: Option<String>,
    pub steps: Vec<ResolveStep>,
    /// The release the call pinned, which answers instead of the current one.
    pub release: Option<String>,
}

impl Normalized {
    pub(super) fn view(&self) -> View<'_> {
        match &self.release {
            Some(release) => View::Pinned(release),
            None => View::Current,
        }
    }
}

/// One thing resolving did to read the input: a registry step, or what the index showed.
/// Typed until an adapter renders it (`Display` gives the English).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveStep {
    Normalized(Step),
    /// A bare local id, read under every loaded prefix it fits.
    BareLocalId {
        local: String,
    },
    /// A year-versioned IRI (MeSH's `…/mesh/2024/D000001`) read as its release and the
    /// unversioned IRI.
    VersionedIri {
        release: String,
        iri: String,
    },
    /// Only a concept with another letter case matched (identifiers are case-sensitive).
    MatchedOtherCase {
        matched: String,
    },
    /// The identifier is an alternative id of this concept.
    AltIdOf {
        id: String,
        of: String,
    },
    /// The identifier is an obsolete concept's own, and also an alternative id of this one.
    AlsoAltIdOf {
        id: String,
        of: String,
    },
}

impl std::fmt::Display for ResolveStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResolveStep::Normalized(step) => step.fmt(f),
            ResolveStep::BareLocalId { local } => {
                write!(
                    f,
                    "'{local}' has no prefix; read it under every loaded prefix it fits"
                )
            }
            ResolveStep::VersionedIri { release, iri } => {
                write!(f, "read the versioned IRI as {iri} in release {release}")
            }
            ResolveStep::MatchedOtherCase { matched } => write!(
                f,
                "matched {matched} without regard to letter case; identifiers are case-sensitive, so check it is the one meant"
            ),
            ResolveStep::AltIdOf { id, of } => {
                write!(f, "'{id}' is an alternative id (alt_id) of {of}")
            }
            ResolveStep::AlsoAltIdOf { id, of } => {
                write!(f, "'{id}' is also an alternative id (alt_id) of {of}")
            }
        }
    }
}

/// Why an input is not a well-formed identifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MalformedReason {
    Empty,
    TooLong {
        bytes: usize,
    },
    /// No prefix, and no loaded prefix's local ids fit it.
    NoPrefixFits {
        local: String,
    },
    /// The local id fails its prefix's pattern.
    PatternFails {
        local: String,
        prefix: String,
    },
    /// The prefix has no pattern, and the local id has another shape than its loaded ids.
    ShapeDiffers {
        local: String,
        prefix: String,
    },
}

impl std::fmt::Display for MalformedReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MalformedReason::Empty => write!(f, "the identifier is empty"),
            MalformedReason::TooLong { bytes } => write!(
                f,
                "the input is {bytes} bytes; identifiers are at most {MAX_IDENTIFIER_BYTES}"
            ),
            MalformedReason::NoPrefixFits { local } => write!(
                f,
                "'{local}' has no prefix and fits no loaded prefix's local ids; it is not an identifier"
            ),
            MalformedReason::PatternFails { local, prefix } => {
                write!(f, "'{local}' is not a valid {prefix} local id")
            }
            MalformedReason::ShapeDiffers { local, prefix } => {
                write!(f, "'{local}' does not look like a {prefix} local id")
            }
        }
    }
}

/// One way to read a bare local id: a loaded prefix it fits, and the concept if one exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BareReading {
    pub curie: String,
    pub concept: Option<ConceptId>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Live concepts with this identifier (more than one when several sources hold it).
    Found(Vec<IdMatch>),
    /// An obsolete concept; `chains` follows each of its replaced_by links (cycle-safe),
    /// `consider` lists the alternatives it names, and `alt_id_of` the live concepts that list
    /// the identifier as an alternative id.
    Obsolete {
        concept: ConceptId,
        chains: Vec<Chain>,
        consider: Vec<String>,
        alt_id_of: Vec<ConceptId>,
    },
    /// The prefix is known and the local id fits its pattern, but no loaded source has it.
    NotInLoadedSources {
        record: RecordId,
        /// The canonical prefix.
        prefix: String,
        /// Catalogued sources that declare the prefix, loaded or not.
        catalogued: Vec<String>,
        /// Of those, the ones loaded in this index.
        loaded: Vec<String>,
        /// Where the registry resolves the identifier.
        resolver_url: Option<String>,
        deprecated_prefix: bool,
        /// Whether the local id was checked against a pattern (`Fits`), or could not be
        /// (`NoPattern`, `Unusable`): only `Fits` makes it well-formed.
        pattern: PatternCheck,
    },
    /// The pinned release does not hold the identifier; `holders` says which loaded releases
    /// do, and how.
    NotInRelease {
        release: String,
        holders: Vec<ReleaseHolding>,
    },
    /// The prefix is known but the local id does not fit, or the input is not an identifier.
    Malformed {
        reason: MalformedReason,
        /// The pattern (or shape) local ids of this prefix have.
        expected: Option<String>,
        example: Option<String>,
    },
    UnknownPrefix {
        prefix: String,
        suggestions: Vec<String>,
        /// The input was an IRI and `prefix` is its namespace.
        namespace: bool,
    },
    /// A bare local id: every loaded prefix it could belong to.
    Ambiguous {
        local: String,
        readings: Vec<BareReading>,
    },
}

impl Outcome {
    /// The concept the identifier names: its first live match, or the obsolete concept.
    pub fn concept(&self) -> Option<ConceptId> {
        match self {
            Outcome::Found(matches) => matches.first().map(|m| m.concept),
            Outcome::Obsolete { concept, .. } => Some(*concept),
            _ => None,
        }
    }
}

/// Longer inputs are not identifiers; refusing them bounds the work per request.
pub const MAX_IDENTIFIER_BYTES: usize = 4_096;
