//! How an identifier key was spelled, kept as the id lexicon's posting detail: one enum, and
//! a detail no variant names is damage, never a guess.

/// One spelling of a concept's identifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Spelling {
    Iri,
    Curie,
    /// `PREFIX_local`.
    Underscore,
    LocalId,
    AltId,
}

impl Spelling {
    pub const ALL: [Spelling; 5] = [
        Spelling::Iri,
        Spelling::Curie,
        Spelling::Underscore,
        Spelling::LocalId,
        Spelling::AltId,
    ];

    /// The posting detail the build writes.
    pub fn detail(self) -> u16 {
        match self {
            Spelling::Iri => 0,
            Spelling::Curie => 1,
            Spelling::Underscore => 2,
            Spelling::LocalId => 3,
            Spelling::AltId => 4,
        }
    }

    /// The spelling a posting detail names; `None` for a detail no build writes.
    pub fn from_detail(detail: u16) -> Option<Spelling> {
        Spelling::ALL.into_iter().find(|s| s.detail() == detail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_reads_back_from_its_detail_and_no_other_detail_reads() {
        for s in Spelling::ALL {
            assert_eq!(Spelling::from_detail(s.detail()), Some(s));
        }
        assert_eq!(Spelling::from_detail(5), None);
        assert_eq!(Spelling::from_detail(u16::MAX), None);
    }
}
