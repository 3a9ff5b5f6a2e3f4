//! The SPARQL that re-runs a mapping answer's statements: the SSSOM axioms of every mapping
//! set that name the subject or an identifier the chains went through, and the sources' own
//! cross-reference triples of those identifiers.

use crate::model::XrefKind;
use crate::resolve::Resolver;

/// Identifiers named in one query's VALUES; a chain reads few, a hub is cut here.
pub const MAX_SPARQL_NODES: usize = 64;

/// The query over the identifiers the answer read (subject first).
pub fn mapping_sparql(resolver: &Resolver, nodes: &[String]) -> String {
    let iris: Vec<String> = nodes
        .iter()
        .take(MAX_SPARQL_NODES)
        .filter_map(|curie| {
            let normalization = resolver.registry().normalize(curie);
            let iri = normalization.identified()?.iri.clone()?;
            Some(format!("<{iri}>"))
        })
        .collect();
    let xref_predicates: Vec<String> = XrefKind::ALL
        .iter()
        .map(|k| format!("<{}>", k.predicate()))
        .collect();
    format!(
        "PREFIX owl: <http://www.w3.org/2002/07/owl#>\n\
         PREFIX sssom: <https://w3id.org/sssom/>\n\
         SELECT ?graph ?subject ?predicate ?modifier ?object ?justification ?confidence WHERE {{\n\
         \x20 VALUES ?x {{ {} }}\n\
         \x20 {{ GRAPH ?graph {{\n\
         \x20   {{ ?axiom owl:annotatedSource ?x }} UNION {{ ?axiom owl:annotatedTarget ?x }}\n\
         \x20   ?axiom owl:annotatedSource ?subject ; owl:annotatedProperty ?predicate ;\n\
         \x20          owl:annotatedTarget ?object ; sssom:mapping_justification ?justification .\n\
         \x20   OPTIONAL {{ ?axiom sssom:predicate_modifier ?modifier }}\n\
         \x20   OPTIONAL {{ ?axiom sssom:confidence ?confidence }} }} }}\n\
         \x20 UNION\n\
         \x20 {{ GRAPH ?graph {{ ?x ?predicate ?object . VALUES ?predicate {{ {} }} }} BIND(?x AS ?subject) }}\n\
         }}\nORDER BY ?subject ?object ?graph",
        iris.join(" "),
        xref_predicates.join(" ")
    )
}
