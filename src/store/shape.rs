//! The shape of each named graph, counted while it is loaded: its triples, the predicates in
//! use and the classes (`rdf:type` objects) with their counts. `describe_schema` reads them
//! from the build instead of scanning millions of triples per call.

use std::collections::{BTreeMap, HashMap};

use oxigraph::model::{Term, Triple};
use serde::{Deserialize, Serialize};

const RDF_TYPE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";

/// What one named graph holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphShape {
    pub triples: u64,
    /// Predicate IRI → triples using it.
    pub predicates: BTreeMap<String, u64>,
    /// Class IRI → subjects typed with it.
    pub classes: BTreeMap<String, u64>,
}

/// Counts a graph's triples as they stream past, without allocating for IRIs already seen.
#[derive(Default)]
pub(super) struct ShapeCounter {
    triples: u64,
    predicates: HashMap<String, u64>,
    classes: HashMap<String, u64>,
}

fn bump(counts: &mut HashMap<String, u64>, key: &str) {
    match counts.get_mut(key) {
        Some(n) => *n += 1,
        None => {
            counts.insert(key.to_string(), 1);
        }
    }
}

impl ShapeCounter {
    pub(super) fn count(&mut self, triple: &Triple) {
        self.triples += 1;
        let predicate = triple.predicate.as_str();
        bump(&mut self.predicates, predicate);
        if predicate == RDF_TYPE
            && let Term::NamedNode(class) = &triple.object
        {
            bump(&mut self.classes, class.as_str());
        }
    }

    pub(super) fn finish(self) -> GraphShape {
        GraphShape {
            triples: self.triples,
            predicates: self.predicates.into_iter().collect(),
            classes: self.classes.into_iter().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxigraph::model::{Literal, NamedNode};

    #[test]
    fn predicates_and_typed_classes_are_counted() {
        let n = |s: &str| NamedNode::new(s).expect("iri");
        let mut counter = ShapeCounter::default();
        let class = n("http://www.w3.org/2002/07/owl#Class");
        for s in ["http://a/1", "http://a/2"] {
            counter.count(&Triple::new(n(s), n(RDF_TYPE), class.clone()));
            counter.count(&Triple::new(
                n(s),
                n("http://www.w3.org/2000/01/rdf-schema#label"),
                Literal::new_simple_literal("x"),
            ));
        }
        let shape = counter.finish();
        assert_eq!(shape.triples, 4);
        assert_eq!(shape.classes.get(class.as_str()), Some(&2));
        assert_eq!(shape.predicates.get(RDF_TYPE), Some(&2));
        assert_eq!(shape.predicates.len(), 2);
    }
}
