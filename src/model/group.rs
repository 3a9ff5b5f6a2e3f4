//! Semantic groups: what kind of thing a concept is (a disease, a chemical, a gene...), from
//! its source's own structure: MeSH tree categories, a source's catalogue default (MONDO
//! diseases, HPO phenotypes), a gene table's genes. A MeSH supplementary record takes the
//! group of the heading it is mapped to, read when asked.

use serde::{Deserialize, Serialize};

use super::{Concept, ConceptKind};

macro_rules! groups {
    ($($variant:ident = $name:literal, $code:literal;)*) => {
        /// Every semantic group.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum SemanticGroup { $($variant),* }

        impl SemanticGroup {
            pub const ALL: &'static [SemanticGroup] = &[$(SemanticGroup::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self { $(SemanticGroup::$variant => $name),* }
            }

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
    Disease = "disease", 1;
    Phenotype = "phenotype", 2;
    Chemical = "chemical", 3;
    Gene = "gene", 4;
    Anatomy = "anatomy", 5;
    Organism = "organism", 6;
    Procedure = "procedure", 7;
    Phenomenon = "phenomenon", 8;
    Other = "other", 9;
}

impl SemanticGroup {
    pub fn named(name: &str) -> Option<SemanticGroup> {
        SemanticGroup::ALL
            .iter()
            .copied()
            .find(|g| g.as_str().eq_ignore_ascii_case(name.trim()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_group_has_a_code_that_reads_back_and_a_name() {
        for g in SemanticGroup::ALL {
            assert_eq!(SemanticGroup::from_code(g.code()), Some(*g));
            assert_eq!(SemanticGroup::named(g.as_str()), Some(*g));
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
}
