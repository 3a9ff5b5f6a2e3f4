//! The SPARQL that re-runs a mapping answer's statements: the SSSOM axioms of every mapping
//! set that name the subject or an identifier the chains went through, and the sources' own
//! cross-reference triples of those identifiers.

use crate::model::XrefKind;
use crate::resolve::Resolver;

/// Identifiers named in one query's VALUES; a chain reads few, a hub is cut here.
pub const MAX_SPARQL_NODES: usize = 64;

/// The query over the identifiers the answer read (subject first).
pub fn mapping_sparql(resolver: &Resolver, nodes: &[String]) -> String {
    let mut distinct: Vec<&String> = Vec::new();
    for node in nodes {
        if !distinct.contains(&node) {
            distinct.push(node);
        }
    }
    let iris: Vec<String> = distinct
        .iter()
        .take(MAX_SPARQL_NODES)
        .filter_map(|curie| {
            let normalization = resolver.registry().normalize(curie);
            let iri = normalization.identified()?.iri.clone()?;
            safe_iri(&iri).then(|| format!("<{iri}>"))
        })
        .collect();
    let cut = if distinct.len() > MAX_SPARQL_NODES {
        format!(
            "# Limited to the first {MAX_SPARQL_NODES} of {} identifiers the answer read.\n",
            distinct.len()
        )
    } else {
        String::new()
    };
    let xref_predicates: Vec<String> = XrefKind::ALL
        .iter()
        .map(|k| format!("<{}>", k.predicate()))
        .collect();
    cut + &format!(
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

/// Whether an IRI may stand between `<` and `>` in SPARQL as it is (no characters the IRIREF
/// production forbids); one that may not is left out of the query, never escaped into it.
fn safe_iri(iri: &str) -> bool {
    !iri.is_empty()
        && !iri
            .chars()
            .any(|c| matches!(c, '<' | '>' | '"' | '{' | '}' | '|' | '^' | '`' | '\\') || c <= ' ')
}

#[cfg(test)]
mod tests {
    use super::safe_iri;

    #[test]
    fn an_iri_that_could_break_out_of_its_brackets_is_refused() {
        assert!(safe_iri("http://purl.obolibrary.org/obo/MONDO_0005148"));
        assert!(!safe_iri("http://example.org/a>} DROP ALL {<b"));
        assert!(!safe_iri("http://example.org/a b"));
        assert!(!safe_iri(""));
    }
}
