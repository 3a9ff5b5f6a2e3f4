//! Semantic groups: what kind of thing a concept is (a disease, a chemical, a gene...), from
//! its source's own structure: MeSH tree categories, a source's catalogue default (MONDO
//! diseases, HPO phenotypes), a gene table's genes. A MeSH supplementary record takes the
//! group of the heading it is mapped to, read when asked.

use serde::{Deserialize, Serialize};

use super::{Concept, ConceptKind, WireName};

macro_rules! groups {
    ($($variant:ident = $code:literal;)*) => {
        /// Every semantic group.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum SemanticGroup { $($variant),* }

        impl SemanticGroup {
            pub const ALL: &'static [SemanticGroup] = &[$(SemanticGroup::$variant),*];

            /// Its code in the concept flags (0: read from the concept's mapping).
            pub fn code(self) -> u8 {
                match self { $(SemanticGroup::$variant => $code),* }
            }

            pub fn from_code(code: u8) -> Option<SemanticGroup> {
                match code { $($code => Some(SemanticGroup::$variant),)* _ => None }
            }
        }
    };
}

groups! {
    Disease = 1;
    Phenotype = 2;
    Chemical = 3;
    Gene = 4;
    Anatomy = 5;
    Organism = 6;
    Procedure = 7;
    Phenomenon = 8;
    Other = 9;
}

impl SemanticGroup {
    pub fn named(name: &str) -> Option<SemanticGroup> {
        SemanticGroup::ALL
            .iter()
            .copied()
            .find(|g| g.wire_name().eq_ignore_ascii_case(name.trim()))
    }

    /// The group of a MeSH tree number's category: C and F03 diseases, D chemicals, A
    /// anatomy, B organisms, E procedures, G and the rest of F phenomena.
    pub fn of_tree(tree: &str) -> SemanticGroup {
        if tree.starts_with("F03") {
            return SemanticGroup::Disease;
        }
        match tree.as_bytes().first() {
            Some(b'C') => SemanticGroup::Disease,
            Some(b'D') => SemanticGroup::Chemical,
            Some(b'A') => SemanticGroup::Anatomy,
            Some(b'B') => SemanticGroup::Organism,
            Some(b'E') => SemanticGroup::Procedure,
            Some(b'F' | b'G') => SemanticGroup::Phenomenon,
            _ => SemanticGroup::Other,
        }
    }

    /// A concept's group as the build knows it: by its tree numbers (a disease or a chemical
    /// first when it has several), else the source's default; `None` for a supplementary
    /// record without tree numbers, whose mapped heading says.
    pub fn of_concept(concept: &Concept, default: SemanticGroup) -> Option<SemanticGroup> {
        let trees: Vec<SemanticGroup> = concept
            .tree_numbers
            .iter()
            .map(|t| SemanticGroup::of_tree(t))
            .collect();
        for preferred in [SemanticGroup::Disease, SemanticGroup::Chemical] {
            if trees.contains(&preferred) {
                return Some(preferred);
            }
        }
        if let Some(first) = trees.first() {
            return Some(*first);
        }
        match concept.kind {
            ConceptKind::SupplementaryRecord => None,
            ConceptKind::Gene => Some(SemanticGroup::Gene),
            _ => Some(default),
        }
    }
}

/// A finer kind within a group, from MeSH's tree: the kinds of disease and chemical
/// concepts a text names less often as the thing itself (an enzyme or protein among chemicals,
/// a drug's class or dosage form, a general sign or condition among diseases). The model
/// weighs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Facet {
    /// Every chemical tree number is under Enzymes (D08.811) or Proteins (D12.776).
    Protein,
    /// Every chemical tree number is under Pharmaceutical Preparations (D26) or Chemical
    /// Actions and Uses (D27): what a substance is given as or used for (a tablet, a saline
    /// solution, an anticonvulsant), not which substance.
    UseOrForm,
    /// Every disease tree number is under Pathological Conditions, Signs and Symptoms (C23).
    SignOrCondition,
}

impl Facet {
    /// Its code in the concept flags (0: none).
    pub fn code(self) -> u8 {
        match self {
            Facet::Protein => 1,
            Facet::UseOrForm => 2,
            Facet::SignOrCondition => 3,
        }
    }

    pub fn from_code(code: u8) -> Option<Facet> {
        match code {
            1 => Some(Facet::Protein),
            2 => Some(Facet::UseOrForm),
            3 => Some(Facet::SignOrCondition),
            _ => None,
        }
    }

    /// The facet of a concept of `group` with these tree numbers, if every tree number of
    /// that group lies under one facet's branches.
    pub fn of_trees(group: SemanticGroup, trees: &[String]) -> Option<Facet> {
        let of_group: Vec<&str> = trees
            .iter()
            .map(String::as_str)
            .filter(|t| SemanticGroup::of_tree(t) == group)
            .collect();
        let all_under = |branches: &[&str]| {
            !of_group.is_empty()
                && of_group
                    .iter()
                    .all(|t| branches.iter().any(|b| t.starts_with(b)))
        };
        match group {
            SemanticGroup::Chemical if all_under(&["D08.811", "D12.776"]) => Some(Facet::Protein),
            SemanticGroup::Chemical if all_under(&["D26", "D27"]) => Some(Facet::UseOrForm),
            SemanticGroup::Disease if all_under(&["C23"]) => Some(Facet::SignOrCondition),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_group_has_a_code_that_reads_back_and_a_name() {
        for g in SemanticGroup::ALL {
            assert_eq!(SemanticGroup::from_code(g.code()), Some(*g));
            assert_eq!(SemanticGroup::named(g.wire_name()), Some(*g));
        }
        assert_eq!(SemanticGroup::from_code(0), None);
    }

    #[test]
    fn mesh_trees_give_diseases_for_c_and_f03_and_chemicals_for_d() {
        assert_eq!(SemanticGroup::of_tree("C14.907"), SemanticGroup::Disease);
        assert_eq!(SemanticGroup::of_tree("F03.600"), SemanticGroup::Disease);
        assert_eq!(SemanticGroup::of_tree("F01.145"), SemanticGroup::Phenomenon);
        assert_eq!(SemanticGroup::of_tree("D02.355"), SemanticGroup::Chemical);
        assert_eq!(SemanticGroup::of_tree("B01.050"), SemanticGroup::Organism);
    }

    #[test]
    fn a_facet_needs_every_tree_number_of_the_group_under_its_branches() {
        let trees = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let chemical = SemanticGroup::Chemical;
        assert_eq!(
            Facet::of_trees(chemical, &trees(&["D08.811.277", "D12.776.476"])),
            Some(Facet::Protein)
        );
        // A peptide hormone is no protein here, nor is an enzyme that is also a drug.
        assert_eq!(Facet::of_trees(chemical, &trees(&["D12.644.548"])), None);
        assert_eq!(
            Facet::of_trees(chemical, &trees(&["D08.811.277", "D27.505"])),
            None
        );
        assert_eq!(
            Facet::of_trees(chemical, &trees(&["D27.505.954"])),
            Some(Facet::UseOrForm)
        );
        assert_eq!(
            Facet::of_trees(chemical, &trees(&["D26.255.830", "D27.505"])),
            Some(Facet::UseOrForm)
        );
        // A substance that is also a preparation is a substance.
        assert_eq!(
            Facet::of_trees(chemical, &trees(&["D20.280.810", "D26.255.165.810"])),
            None
        );
        // Trees of other groups do not count against it.
        assert_eq!(
            Facet::of_trees(SemanticGroup::Disease, &trees(&["C23.888.592", "G11.561"])),
            Some(Facet::SignOrCondition)
        );
        assert_eq!(Facet::of_trees(SemanticGroup::Disease, &[]), None);
        for f in [Facet::Protein, Facet::UseOrForm, Facet::SignOrCondition] {
            assert_eq!(Facet::from_code(f.code()), Some(f));
        }
    }
}
