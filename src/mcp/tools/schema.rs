//! `describe_schema`: how the data is shaped, per named graph, with example queries that run.

use serde_json::json;

use super::{ErrorCode, ToolError, source_release};
use crate::mcp::dto::*;
use crate::resolve::{GraphShape, GraphShapes, Resolver, sparql};

/// Classes and predicates listed per graph, the most used first.
pub const MAX_LISTED_IRIS: usize = 40;
/// How the store's graphs are seen by a query, said once in the schema answer.
pub const DEFAULT_GRAPH_NOTE: &str = "Without FROM, the default graph is the union of every named graph below; FROM, FROM NAMED and GRAPH select graphs.";
/// Rows each example query asks for.
const EXAMPLE_ROWS: usize = 10;

fn most_used(counts: &std::collections::BTreeMap<String, u64>) -> Vec<IriCount> {
    let mut list: Vec<IriCount> = counts
        .iter()
        .map(|(iri, &count)| IriCount {
            iri: iri.clone(),
            count,
        })
        .collect();
    // Stable order: most used first, then by IRI.
    list.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.iri.cmp(&b.iri)));
    list.truncate(MAX_LISTED_IRIS);
    list
}

fn graph_schema(source: &str, release: &str, graph: &str, shape: &GraphShape) -> GraphSchema {
    GraphSchema {
        source: source.into(),
        release: release.into(),
        graph: graph.into(),
        triples: shape.triples,
        classes: most_used(&shape.classes),
        predicates: most_used(&shape.predicates),
    }
}

/// Three queries that run on this build: a class's members, one concept's statements, and
/// a mapping set's axioms, each from the listed graphs when they have them.
fn examples(r: &Resolver, graphs: &[GraphSchema]) -> Vec<ExampleQuery> {
    let mut out = Vec::new();
    let members = graphs.iter().find_map(|g| Some((g, g.classes.first()?)));
    if let Some((g, class)) = members {
        out.push(ExampleQuery {
            question: format!("Which concepts of {} are {}?", g.source, class.iri),
            sparql: sparql::class_members(&g.graph, &class.iri, EXAMPLE_ROWS),
        });
    }
    let top = graphs.iter().find_map(|g| {
        let s = r.manifest().source(&g.source)?;
        Some((g, s.top_concepts.first()?))
    });
    if let Some((g, concept)) = top {
        out.push(ExampleQuery {
            question: format!("What does {} say about {concept}?", g.source),
            sparql: sparql::concept_statements(concept, Some(&g.graph)),
        });
    }
    let mapping_graph = r
        .manifest()
        .mapping_sets
        .iter()
        .find(|m| graphs.iter().any(|g| g.graph == m.graph))
        .or_else(|| r.manifest().mapping_sets.first());
    if let Some(m) = mapping_graph {
        out.push(ExampleQuery {
            question: format!("Which mappings does {} assert?", m.mapping_set_id),
            sparql: sparql::mapping_axioms(&m.graph, EXAMPLE_ROWS),
        });
    }
    out
}

pub fn describe_schema(r: &Resolver, args: &SchemaArgs) -> Result<Envelope<SchemaDto>, ToolError> {
    let m = r.manifest();
    let input = json!({ "source": args.source });
    let wanted = args.source.as_deref().map(str::trim);
    check_source(r, wanted)?;
    let graphs = wanted_graphs(r, wanted)?;
    let examples = examples(r, &graphs);
    let sparql = vocabulary_sparql(&graphs);
    let total = graphs.len() as u64;
    Ok(Envelope {
        query: QueryEcho {
            input,
            normalized: wanted.unwrap_or_default().to_string(),
            steps: Vec::new(),
            filters: json!({ "source": wanted }),
            defaults_applied: if wanted.is_none() {
                vec!["source=all".into()]
            } else {
                Vec::new()
            },
        },
        total,
        returned: total,
        truncated: false,
        cursor: None,
        sources: m
            .sources
            .iter()
            .filter(|s| wanted.is_none_or(|w| w == s.id))
            .map(source_release)
            .collect(),
        index: m.build_id.clone(),
        sparql,
        suggestion: None,
        result: SchemaDto {
            default_graph: DEFAULT_GRAPH_NOTE.into(),
            graphs,
            examples,
        },
    })
}

/// Graphs of at most this many triples in all are counted again by the answer's query; larger
/// ones are checked pair by pair, which a query's deadline allows whatever their size.
const RECOUNTED_TRIPLES: u64 = 300_000;

/// The query behind the answer: the predicates counted again when the graphs are small, else
/// each graph with its listed predicates and classes, each pair checked.
fn vocabulary_sparql(graphs: &[GraphSchema]) -> String {
    let graph_iris: Vec<&str> = graphs.iter().map(|g| g.graph.as_str()).collect();
    if graphs.iter().map(|g| g.triples).sum::<u64>() <= RECOUNTED_TRIPLES {
        return sparql::graph_predicate_counts(&graph_iris);
    }
    let mut predicates: Vec<&str> = Vec::new();
    let mut classes: Vec<&str> = Vec::new();
    for g in graphs {
        predicates.extend(g.predicates.iter().map(|p| p.iri.as_str()));
        classes.extend(g.classes.iter().map(|c| c.iri.as_str()));
    }
    predicates.sort_unstable();
    predicates.dedup();
    classes.sort_unstable();
    classes.dedup();
    sparql::graph_vocabulary(&graph_iris, &predicates, &classes)
}

/// A source asked for must be a loaded source or mapping set.
fn check_source(r: &Resolver, wanted: Option<&str>) -> Result<(), ToolError> {
    let m = r.manifest();
    match wanted {
        Some(id) if m.source(id).is_none() && !m.mapping_sets.iter().any(|s| s.source == id) => {
            Err(ToolError::new(
                ErrorCode::UnknownSource,
                format!("no loaded source or mapping set has the id {id:?}"),
                "Call list_sources for the loaded ids, or omit source for all of them.",
            ))
        }
        _ => Ok(()),
    }
}

/// The shape of each wanted graph: every source release's, then each mapping set's.
fn wanted_graphs(r: &Resolver, wanted: Option<&str>) -> Result<Vec<GraphSchema>, ToolError> {
    let m = r.manifest();
    let shapes: GraphShapes = r.graph_shapes().map_err(|e| {
        tracing::error!(error = %e, "graph shapes unreadable");
        ToolError::new(
            ErrorCode::IndexDamaged,
            "the build's graph shapes could not be read".into(),
            "Tell whoever runs the server; rebuilding the index repairs it.",
        )
    })?;
    let empty = GraphShape::default();
    let mut graphs = Vec::new();
    for s in m
        .sources
        .iter()
        .filter(|s| wanted.is_none_or(|w| w == s.id))
    {
        let shape = shapes.graphs.get(&s.graph).unwrap_or(&empty);
        graphs.push(graph_schema(&s.id, &s.release, &s.graph, shape));
    }
    for set in m
        .mapping_sets
        .iter()
        .filter(|s| wanted.is_none_or(|w| w == s.source))
    {
        if graphs.iter().any(|g| g.graph == set.graph) {
            continue;
        }
        let shape = shapes.graphs.get(&set.graph).unwrap_or(&empty);
        graphs.push(graph_schema(
            &set.mapping_set_id,
            &set.release,
            &set.graph,
            shape,
        ));
    }
    Ok(graphs)
}
