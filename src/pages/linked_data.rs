//! A concept as JSON-LD: the record `get_concept` gives, said in SKOS, RDFS, OWL and
//! oboInOwl terms under an inline context, so that it parses offline. Turtle comes from the
//! store itself (`StoreReader::subject_turtle`).

use serde_json::{Map, Value, json};

use crate::mcp::dto::{ConceptDetail, LabelDto};
use crate::model::Prefixes;
use crate::resolve::Resolver;

const RDFS: &str = "http://www.w3.org/2000/01/rdf-schema#";
const SKOS: &str = "http://www.w3.org/2004/02/skos/core#";
const OWL: &str = "http://www.w3.org/2002/07/owl#";
const OBO_IN_OWL: &str = "http://www.geneontology.org/formats/oboInOwl#";
const XSD_BOOLEAN: &str = "http://www.w3.org/2001/XMLSchema#boolean";
const REPLACED_BY: &str = "http://purl.obolibrary.org/obo/IAO_0100001";

fn context() -> Value {
    json!({
        "rdfs": RDFS,
        "skos": SKOS,
        "owl": OWL,
        "oboInOwl": OBO_IN_OWL,
        "replacedBy": { "@id": REPLACED_BY, "@type": "@id" },
    })
}

/// The property a name of this kind is stated with.
fn label_property(l: &LabelDto) -> &'static str {
    match l.kind.as_str() {
        "pref_label" => "skos:prefLabel",
        "label" => "rdfs:label",
        "hidden_label" => "skos:hiddenLabel",
        "notation" => "skos:notation",
        "exact_synonym" => "oboInOwl:hasExactSynonym",
        "related_synonym" => "oboInOwl:hasRelatedSynonym",
        "broad_synonym" => "oboInOwl:hasBroadSynonym",
        "narrow_synonym" => "oboInOwl:hasNarrowSynonym",
        _ => "skos:altLabel",
    }
}

fn literal(text: &str, lang: Option<&str>) -> Value {
    match lang {
        Some(lang) if !lang.is_empty() => json!({ "@value": text, "@language": lang }),
        _ => Value::String(text.to_string()),
    }
}

fn push(node: &mut Map<String, Value>, key: &str, value: Value) {
    match node.get_mut(key) {
        Some(Value::Array(items)) => {
            if !items.contains(&value) {
                items.push(value);
            }
        }
        _ => {
            node.insert(key.to_string(), Value::Array(vec![value]));
        }
    }
}

/// An identifier as a node reference: its IRI when the registry expands it, else none.
fn reference(r: &Resolver, curie: Option<&str>, iri: Option<&str>) -> Option<Value> {
    let iri = match iri {
        Some(iri) => iri.to_string(),
        None => r.registry().expand(curie?)?,
    };
    Some(json!({ "@id": iri }))
}

/// A predicate CURIE as a JSON-LD key: compact when the context knows its prefix, else the
/// IRI the registry expands it to.
fn predicate_key(r: &Resolver, predicate: &str) -> Option<String> {
    let (prefix, _) = predicate.split_once(':')?;
    if ["rdfs", "skos", "owl", "oboInOwl"].contains(&prefix) {
        return Some(predicate.to_string());
    }
    r.registry().expand(predicate)
}

/// The JSON-LD document of one concept whose IRI is `iri`.
pub fn concept(r: &Resolver, iri: &str, d: &ConceptDetail) -> Value {
    let mut node = Map::new();
    node.insert("@context".into(), context());
    node.insert("@id".into(), Value::String(iri.to_string()));
    let kind = match d.concept.kind.as_str() {
        "concept" | "descriptor" | "supplementary_record" | "qualifier" => "skos:Concept",
        _ => "owl:Class",
    };
    node.insert("@type".into(), Value::String(kind.into()));
    if let Some(label) = &d.concept.name.label {
        push(&mut node, "rdfs:label", Value::String(label.clone()));
    }
    for l in &d.labels {
        push(
            &mut node,
            label_property(l),
            literal(&l.text, l.lang.as_deref()),
        );
    }
    for def in &d.definitions {
        push(
            &mut node,
            "skos:definition",
            literal(&def.text, def.lang.as_deref()),
        );
    }
    if let Some(curie) = &d.concept.name.curie {
        push(&mut node, "oboInOwl:id", Value::String(curie.clone()));
    }
    for alt in &d.alt_ids {
        push(
            &mut node,
            "oboInOwl:hasAlternativeId",
            Value::String(alt.clone()),
        );
    }
    for t in &d.tree_numbers {
        push(&mut node, "skos:notation", Value::String(t.clone()));
    }
    for p in &d.parents {
        let key = match p.relation.as_str() {
            "sub_class_of" => "rdfs:subClassOf",
            _ => "skos:broader",
        };
        if let Some(target) = reference(r, p.name.curie.as_deref(), p.name.iri.as_deref()) {
            push(&mut node, key, target);
        }
    }
    for x in &d.xrefs {
        let Some(key) = predicate_key(r, &x.predicate) else {
            continue;
        };
        let value = if key == "oboInOwl:hasDbXref" {
            Value::String(x.target.clone())
        } else {
            match reference(r, Some(&x.target), None) {
                Some(v) => v,
                None => continue,
            }
        };
        push(&mut node, &key, value);
    }
    if d.concept.status != "current" {
        node.insert(
            "owl:deprecated".into(),
            json!({ "@value": "true", "@type": XSD_BOOLEAN }),
        );
    }
    for chain in &d.replacements {
        if let Some(first) = chain.hops.first()
            && let Some(Value::Object(target)) =
                reference(r, first.name.curie.as_deref(), first.name.iri.as_deref())
            && let Some(Value::String(id)) = target.get("@id")
        {
            push(&mut node, "replacedBy", Value::String(id.clone()));
        }
    }
    Value::Object(node)
}
