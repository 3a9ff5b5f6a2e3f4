//! What normalization reads an input as, and the steps it took: typed, rendered only at the
//! edges.

use std::fmt;
use std::sync::Arc;

use super::RecordId;

/// One thing normalization did to the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Trimmed,
    Unbracketed,
    Unquoted,
    /// An IRI's namespace was recognised and removed.
    UriPrefixStripped {
        uri_prefix: String,
        prefix: Arc<str>,
    },
    /// The IRI matched a URI prefix the registry writes with the other scheme (http for
    /// https or the reverse).
    SchemeSwapped {
        written: String,
    },
    /// A resolver IRI (identifiers.org, n2t, bioregistry.io) was read as the CURIE in its path.
    ResolverRead {
        resolver: String,
    },
    PercentDecoded,
    /// Whitespace around the colon of a CURIE.
    SpaceAroundColon,
    TrailingSlashRemoved,
    /// The IRI's scheme and host were matched in lower case.
    HostCaseFolded,
    /// A synonym of the prefix was written.
    PrefixSynonym {
        written: String,
        prefix: Arc<str>,
    },
    /// The prefix was written in another letter case.
    PrefixCaseFolded {
        written: String,
        prefix: Arc<str>,
    },
    /// The registry deprecates the prefix as written.
    DeprecatedPrefix {
        written: String,
    },
    /// `PREFIX_local` was read as `PREFIX:local`.
    UnderscoreRead,
    /// A repeated prefix (`GO:GO:`) or the registry's "banana" was removed from the local id.
    RepeatedPrefixRemoved {
        removed: String,
    },
    /// The local id only fits the prefix's pattern in another letter case.
    LocalCaseFolded {
        written: String,
        local: String,
    },
    /// A CURIE under a broad namespace (`obo:HP_0000118`) was read as the IRI it expands to.
    ReadAsIri {
        iri: String,
    },
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Trimmed => write!(f, "trimmed surrounding whitespace"),
            Step::Unbracketed => write!(f, "removed angle brackets"),
            Step::Unquoted => write!(f, "removed surrounding quotes"),
            Step::UriPrefixStripped { uri_prefix, prefix } => {
                write!(f, "stripped the URI prefix '{uri_prefix}' of '{prefix}'")
            }
            Step::SchemeSwapped { written } => write!(
                f,
                "matched a URI prefix the registry writes with {}, not {written}",
                if written == "https" { "http" } else { "https" }
            ),
            Step::ResolverRead { resolver } => {
                write!(f, "read the path after the resolver {resolver} as a CURIE")
            }
            Step::PercentDecoded => write!(f, "decoded %-escapes"),
            Step::SpaceAroundColon => write!(f, "removed whitespace around the colon"),
            Step::TrailingSlashRemoved => write!(f, "removed a trailing slash from the local id"),
            Step::HostCaseFolded => write!(f, "matched the IRI's scheme and host in lower case"),
            Step::PrefixSynonym { written, prefix } => {
                write!(
                    f,
                    "recognised '{written}' as a synonym of the prefix '{prefix}'"
                )
            }
            Step::PrefixCaseFolded { written, prefix } => {
                write!(f, "folded the case of the prefix '{written}' to '{prefix}'")
            }
            Step::DeprecatedPrefix { written } => {
                write!(f, "'{written}' is a prefix the Bioregistry deprecates")
            }
            Step::UnderscoreRead => write!(f, "read PREFIX_local as PREFIX:local"),
            Step::RepeatedPrefixRemoved { removed } => {
                write!(
                    f,
                    "removed the repeated prefix '{removed}' from the local id"
                )
            }
            Step::LocalCaseFolded { written, local } => write!(
                f,
                "changed the local id '{written}' to '{local}', the case its pattern requires"
            ),
            Step::ReadAsIri { iri } => write!(f, "read the identifier as the IRI {iri}"),
        }
    }
}

/// Whether a local id fits its prefix's pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatternCheck {
    Fits,
    Fails,
    /// The registry gives no pattern for this prefix.
    NoPattern,
    /// The registry's pattern cannot be compiled; the id was not checked.
    Unusable,
}

/// An input read as a known prefix and a local id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identified {
    pub record: RecordId,
    /// The prefix in its preferred capitalisation.
    pub prefix: Arc<str>,
    pub local: String,
    pub curie: String,
    /// The canonical IRI, when the prefix has a URI prefix.
    pub iri: Option<String>,
    pub pattern: PatternCheck,
    /// The prefix as written, or its record, is deprecated.
    pub deprecated_prefix: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Nothing but whitespace (or brackets and quotes).
    Empty,
    Identifier(Identified),
    /// A CURIE prefix that the registry does not know.
    UnknownPrefix {
        prefix: String,
    },
    /// An IRI under no URI prefix the registry knows; `namespace` is its path up to the last
    /// `/`, `#` or `_`.
    UnknownNamespace {
        namespace: String,
    },
    /// No prefix at all: a bare local id, or not an identifier.
    Bare {
        local: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Normalization {
    pub input: String,
    pub steps: Vec<Step>,
    pub reading: Reading,
}

impl Normalization {
    pub fn identified(&self) -> Option<&Identified> {
        match &self.reading {
            Reading::Identifier(id) => Some(id),
            _ => None,
        }
    }
}
