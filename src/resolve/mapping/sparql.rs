//! The identifiers whose statements a mapping answer used, as IRIs for the query
//! `resolve::sparql::mapping_statements` writes.

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
        // An IRI that could leave its brackets is left out, never escaped into the query.
        .filter_map(|curie| {
            let normalization = resolver.registry().normalize(curie);
            let iri = normalization.identified()?.iri.clone()?;
            crate::resolve::sparql::is_safe_iri(&iri).then_some(iri)
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
    let iris: Vec<&str> = iris.iter().map(String::as_str).collect();
    cut + &crate::resolve::sparql::mapping_statements(&iris)
}
