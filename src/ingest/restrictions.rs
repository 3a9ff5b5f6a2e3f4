//! Existential restrictions a class is stated a subclass of, `C rdfs:subClassOf [a
//! owl:Restriction; owl:onProperty P; owl:someValuesFrom X]`: read as "C is related by P to
//! X" (part_of, has_part…). Their pieces arrive as separate triples, about a named class and
//! about a blank node, in any order; they are held until the file ends and joined then.

use std::collections::HashMap;

use oxrdf::{NamedOrBlankNode, Term, Triple};

use super::vocab::RDFS_SUBCLASS_OF;

const OWL_ON_PROPERTY: &str = "http://www.w3.org/2002/07/owl#onProperty";
const OWL_SOME_VALUES_FROM: &str = "http://www.w3.org/2002/07/owl#someValuesFrom";

/// Restriction pieces held at most (blank nodes and subclass statements together): a file
/// with more stops being read for relations, and says so, rather than holding them all.
pub const MAX_PIECES: usize = 2_000_000;

/// One relation: the class, the property and the class it is related to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Relation {
    pub subject: String,
    pub property: String,
    pub filler: String,
}

#[derive(Default)]
struct Node {
    property: Option<String>,
    filler: Option<String>,
}

/// The pieces seen so far.
#[derive(Default)]
pub struct Restrictions {
    /// (class, blank node) for each `C rdfs:subClassOf _:b`.
    subclass_of: Vec<(String, String)>,
    nodes: HashMap<String, Node>,
    /// Pieces were left unread past [`MAX_PIECES`].
    pub overflowed: bool,
}

impl Restrictions {
    fn room(&mut self) -> bool {
        let room = self.subclass_of.len() + self.nodes.len() < MAX_PIECES;
        self.overflowed |= !room;
        room
    }

    /// Keeps the triple if it is a piece of a restriction; `true` when it was one.
    pub fn observe(&mut self, triple: &Triple) -> bool {
        let p = triple.predicate.as_str();
        match (&triple.subject, &triple.object) {
            (NamedOrBlankNode::NamedNode(class), Term::BlankNode(node))
                if p == RDFS_SUBCLASS_OF =>
            {
                if self.room() {
                    self.subclass_of
                        .push((class.as_str().to_string(), node.as_str().to_string()));
                }
                true
            }
            (NamedOrBlankNode::BlankNode(node), Term::NamedNode(value))
                if p == OWL_ON_PROPERTY || p == OWL_SOME_VALUES_FROM =>
            {
                if !self.nodes.contains_key(node.as_str()) && !self.room() {
                    return true;
                }
                let entry = self.nodes.entry(node.as_str().to_string()).or_default();
                let value = Some(value.as_str().to_string());
                if p == OWL_ON_PROPERTY {
                    entry.property = value;
                } else {
                    entry.filler = value;
                }
                true
            }
            _ => false,
        }
    }

    /// Every complete relation, sorted, each once.
    pub fn finish(self) -> Vec<Relation> {
        let mut out: Vec<Relation> = self
            .subclass_of
            .into_iter()
            .filter_map(|(subject, node)| {
                let node = self.nodes.get(&node)?;
                Some(Relation {
                    subject,
                    property: node.property.clone()?,
                    filler: node.filler.clone()?,
                })
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxrdf::{BlankNode, NamedNode};

    fn named(iri: &str) -> NamedNode {
        NamedNode::new_unchecked(iri)
    }

    #[test]
    fn a_some_values_from_restriction_joins_in_any_triple_order() {
        let node = BlankNode::new_unchecked("b1");
        let mut restrictions = Restrictions::default();
        let part_of = "http://purl.obolibrary.org/obo/BFO_0000050";
        let triples = [
            Triple::new(
                node.clone(),
                named(OWL_SOME_VALUES_FROM),
                named("http://x/Whole"),
            ),
            Triple::new(
                named("http://x/Part"),
                named(RDFS_SUBCLASS_OF),
                node.clone(),
            ),
            Triple::new(node.clone(), named(OWL_ON_PROPERTY), named(part_of)),
            Triple::new(
                named("http://x/Part"),
                named(RDFS_SUBCLASS_OF),
                named("http://x/Thing"),
            ),
        ];
        let kept: Vec<bool> = triples.iter().map(|t| restrictions.observe(t)).collect();
        assert_eq!(kept, [true, true, true, false]);
        assert_eq!(
            restrictions.finish(),
            [Relation {
                subject: "http://x/Part".into(),
                property: part_of.into(),
                filler: "http://x/Whole".into(),
            }]
        );
    }
}
