//! Our concepts and sources in OLS's shapes: a term with its links, an ontology with its
//! config. Only laying out: every fact comes from `resolve::browse` and the concept model.

use std::collections::BTreeMap;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use super::json::{Href, Links, OboXref, Ontology, OntologyConfig, Term};
use super::route::{Entities, Relation};
use crate::model::{Concept, LabelKind, ReplacementKind, XrefKind};
use crate::resolve::browse::SourceBrowse;
use crate::resolve::browse_entities::{Entity, EntityKind};

/// What OLS leaves unencoded in an IRI it puts in a link: the unreserved characters.
const URL_ENCODER: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'.')
    .remove(b'-')
    .remove(b'~')
    .remove(b'_');

/// An IRI encoded twice, as OLS puts it in a path.
pub fn encode_twice(iri: &str) -> String {
    let once = utf8_percent_encode(iri, URL_ENCODER).to_string();
    utf8_percent_encode(&once, URL_ENCODER).to_string()
}

/// A query-string value.
pub fn encode_query(value: &str) -> String {
    utf8_percent_encode(value, URL_ENCODER).to_string()
}

fn href(text: String) -> Href {
    Href { href: text }
}

/// The label predicates OLS's config names.
const RDFS_LABEL: &str = "http://www.w3.org/2000/01/rdf-schema#label";
const DEFINITIONS: [&str; 2] = [
    "http://purl.obolibrary.org/obo/IAO_0000115",
    "http://www.w3.org/2004/02/skos/core#definition",
];
const SYNONYMS: [&str; 5] = [
    "http://www.geneontology.org/formats/oboInOwl#hasExactSynonym",
    "http://www.geneontology.org/formats/oboInOwl#hasRelatedSynonym",
    "http://www.geneontology.org/formats/oboInOwl#hasNarrowSynonym",
    "http://www.geneontology.org/formats/oboInOwl#hasBroadSynonym",
    "http://www.w3.org/2004/02/skos/core#altLabel",
];

/// A term's label as OLS picks it: among its labels in the language (else untagged, else
/// English), the first in code-unit order.
pub fn label_in(concept: &Concept, lang: &str) -> Option<String> {
    let primary: Vec<&crate::model::Label> = concept
        .labels
        .iter()
        .filter(|l| l.kind.is_primary())
        .collect();
    let tagged = |want: Option<&str>| -> Vec<&str> {
        primary
            .iter()
            .filter(|l| match (want, l.lang.as_deref()) {
                (Some(w), Some(t)) => t.eq_ignore_ascii_case(w),
                (None, None) => true,
                _ => false,
            })
            .map(|l| l.text.as_str())
            .collect()
    };
    let mut pick = tagged(Some(lang));
    if pick.is_empty() {
        pick = tagged(None);
    }
    if pick.is_empty() {
        pick = tagged(Some("en"));
    }
    pick.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    pick.first().map(|s| s.to_string())
}

/// A cross-reference as OLS splits it: `DB:id`, or a URL, or as written.
fn obo_xref(target: &str) -> OboXref {
    if target.starts_with("http://") || target.starts_with("https://") {
        return OboXref {
            database: None,
            id: target.to_string(),
            url: Some(target.to_string()),
        };
    }
    match target.split_once(':') {
        Some((db, id)) if !id.contains("://") && !db.is_empty() => OboXref {
            database: Some(db.to_string()),
            id: id.to_string(),
            url: None,
        },
        _ => OboXref {
            database: None,
            id: target.to_string(),
            url: None,
        },
    }
}

/// Whether a label kind is a synonym as OLS lists them (not the label, a notation or a hidden
/// label).
fn is_synonym(kind: LabelKind) -> bool {
    !kind.is_primary() && !matches!(kind, LabelKind::Notation | LabelKind::HiddenLabel)
}

/// The local name after an IRI's last `#` or `/`.
pub fn local_name(iri: &str) -> &str {
    iri.rsplit(['#', '/']).next().unwrap_or(iri)
}

/// OLS's `short_form`: `PREFIX_local` for an IRI in one of the ontology's base URIs, else the
/// local name (`urn:` IRIs lose the `urn:`).
pub fn short_form(source: &SourceBrowse<'_>, iri: &str) -> String {
    if let Some(rest) = iri.strip_prefix("urn:") {
        return rest.to_string();
    }
    let prefix = source
        .preferred_prefix()
        .unwrap_or_else(|| source.record.id.to_ascii_uppercase());
    for base in source.base_uris() {
        if let Some(rest) = iri.strip_prefix(base.as_str()).filter(|r| !r.is_empty()) {
            return format!("{prefix}_{rest}");
        }
    }
    local_name(iri).to_string()
}

/// OLS's `obo_id`: the short form with its last `_` read as `:`.
pub fn obo_id(short_form: &str) -> String {
    match short_form.rsplit_once('_') {
        Some((prefix, local)) => format!("{prefix}:{local}"),
        None => short_form.to_string(),
    }
}

/// A text in the wanted language: tagged with it, else untagged.
fn in_lang(tag: Option<&str>, lang: &str) -> bool {
    tag.is_none_or(|t| {
        t.eq_ignore_ascii_case(lang) || t.to_ascii_lowercase().starts_with(&format!("{lang}-"))
    })
}

/// Where a term stands in its ontology's hierarchy.
#[derive(Clone, Copy, Debug)]
pub struct Standing {
    pub is_root: bool,
    pub has_children: bool,
}

/// The base every link starts with (`http://host:port`), and the language asked for.
#[derive(Clone, Debug)]
pub struct Context {
    pub base: String,
    pub lang: String,
}

impl Context {
    /// The address of an ontology's list or item.
    pub fn ontology_href(&self, source: &SourceBrowse<'_>) -> String {
        format!("{}/api/ontologies/{}", self.base, source.key())
    }

    fn item_href(&self, source: &SourceBrowse<'_>, list: Entities, iri: &str) -> String {
        format!(
            "{}/{}/{}",
            self.ontology_href(source),
            list.as_str(),
            encode_twice(iri)
        )
    }

    /// A term (or property, or individual) as OLS gives it.
    pub fn term(
        &self,
        source: &SourceBrowse<'_>,
        concept: &Concept,
        standing: Standing,
        list: Entities,
    ) -> Term {
        let lang = self.lang.as_str();
        let short = short_form(source, &concept.iri);
        let label = label_in(concept, lang).unwrap_or_else(|| short.clone());
        let description = concept
            .definitions
            .iter()
            .filter(|d| in_lang(d.lang.as_deref(), lang))
            .map(|d| d.text.clone())
            .collect();
        let synonym_labels = || {
            concept
                .labels
                .iter()
                .filter(|l| is_synonym(l.kind) && in_lang(l.lang.as_deref(), lang))
        };
        let mut synonyms: Vec<String> = Vec::new();
        for l in synonym_labels() {
            if !synonyms.contains(&l.text) && l.text != label {
                synonyms.push(l.text.clone());
            }
        }
        let obo_xref = concept
            .xrefs
            .iter()
            .filter(|x| x.kind == XrefKind::DbXref)
            .map(|x| obo_xref(&x.target))
            .collect();
        let obo_id = obo_id(&short);
        let replaced = concept
            .replacements_of(ReplacementKind::ReplacedBy)
            .map(|r| local_name(&r.target).to_string())
            .next();
        Term {
            iri: concept.iri.clone(),
            lang: lang.to_string(),
            description,
            synonyms,
            annotation: annotations(concept),
            label,
            ontology_name: source.key(),
            ontology_prefix: source.preferred_prefix(),
            ontology_iri: source.ontology_iri(),
            is_obsolete: concept.obsolete,
            term_replaced_by: replaced,
            is_defining_ontology: source.defines(&concept.iri),
            has_children: standing.has_children,
            is_root: standing.is_root,
            short_form: short,
            obo_id,
            is_preferred_root: Some(false),
            obo_xref,
            links: self.term_links(source, concept, standing, list),
        }
    }

    /// The links OLS gives a term: itself and the graph always, upward links when it has
    /// parents, downward ones when it has children.
    fn term_links(
        &self,
        source: &SourceBrowse<'_>,
        concept: &Concept,
        standing: Standing,
        list: Entities,
    ) -> Links {
        let own = self.item_href(source, list, &concept.iri);
        let mut links = Links::new();
        links.insert(
            "self".to_string(),
            href(format!("{own}?lang={}", self.lang)),
        );
        if list != Entities::Terms {
            return links;
        }
        for relation in Relation::ALL {
            let shown = if relation.upward() {
                !standing.is_root
            } else {
                standing.has_children
            };
            if shown {
                links.insert(
                    relation.as_str().to_string(),
                    href(format!("{own}/{}", relation.as_str())),
                );
            }
        }
        if !standing.is_root {
            links.insert("jstree".to_string(), href(format!("{own}/jstree")));
        }
        links.insert("graph".to_string(), href(format!("{own}/graph")));
        // One link per related property, named by its label (spaces as `_`), else its local
        // name, as OLS names them.
        let mut named: Links = Links::new();
        for relation in &concept.relations {
            let name = relation
                .property_label
                .as_deref()
                .unwrap_or_else(|| local_name(&relation.property))
                .replace(' ', "_");
            named
                .entry(name)
                .or_insert_with(|| href(format!("{own}/{}", encode_twice(&relation.property))));
        }
        links.extend(named);
        links
    }

    /// A property or individual as OLS gives it: never obsolete or defined here, its
    /// `obo_id` the short form with every `_` read as `:`.
    pub fn entity(&self, source: &SourceBrowse<'_>, entity: &Entity, kind: EntityKind) -> Term {
        let lang = self.lang.as_str();
        let short = short_form(source, &entity.iri);
        let pick = |texts: &[(String, Option<String>)]| -> Vec<String> {
            let tagged: Vec<String> = texts
                .iter()
                .filter(|(_, t)| t.as_deref().is_some_and(|t| t.eq_ignore_ascii_case(lang)))
                .map(|(s, _)| s.clone())
                .collect();
            if !tagged.is_empty() {
                return tagged;
            }
            let untagged: Vec<String> = texts
                .iter()
                .filter(|(_, t)| t.is_none())
                .map(|(s, _)| s.clone())
                .collect();
            if !untagged.is_empty() {
                return untagged;
            }
            texts
                .iter()
                .filter(|(_, t)| t.as_deref() == Some("en"))
                .map(|(s, _)| s.clone())
                .collect()
        };
        let mut labels = pick(&entity.labels);
        labels.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        let (list, is_root, has_children) = match kind {
            EntityKind::Property => (
                Entities::Properties,
                entity.parents.is_empty(),
                !entity.children.is_empty(),
            ),
            EntityKind::Individual => (Entities::Individuals, false, false),
        };
        let own = self.item_href(source, list, &entity.iri);
        let mut links = Links::new();
        links.insert(
            "self".to_string(),
            href(format!("{own}?lang={}", self.lang)),
        );
        let relations: &[&str] = match kind {
            EntityKind::Individual => &["types", "alltypes", "jstree"],
            EntityKind::Property if is_root && has_children => &["children", "descendants"],
            EntityKind::Property if is_root => &[],
            EntityKind::Property if has_children => {
                &["parents", "ancestors", "jstree", "children", "descendants"]
            }
            EntityKind::Property => &["parents", "ancestors", "jstree"],
        };
        for name in relations {
            links.insert(name.to_string(), href(format!("{own}/{name}")));
        }
        Term {
            iri: entity.iri.clone(),
            lang: lang.to_string(),
            description: pick(&entity.definitions),
            synonyms: Vec::new(),
            annotation: BTreeMap::new(),
            label: labels.first().cloned().unwrap_or_else(|| short.clone()),
            ontology_name: source.key(),
            ontology_prefix: source.preferred_prefix(),
            ontology_iri: source.ontology_iri(),
            is_obsolete: false,
            term_replaced_by: None,
            is_defining_ontology: false,
            has_children,
            is_root,
            obo_id: short.replace('_', ":"),
            short_form: short,
            obo_xref: Vec::new(),
            is_preferred_root: None,
            links,
        }
    }

    /// An ontology with its config.
    pub fn ontology(&self, source: &SourceBrowse<'_>) -> Ontology {
        let record = source.record;
        let own = self.ontology_href(source);
        let mut links = Links::new();
        links.insert(
            "self".to_string(),
            href(format!("{own}?lang={}", self.lang)),
        );
        for list in [Entities::Terms, Entities::Properties, Entities::Individuals] {
            links.insert(
                list.as_str().to_string(),
                href(format!("{own}/{}", list.as_str())),
            );
        }
        let text = |t: &str| (!t.is_empty()).then(|| t.to_string());
        let mut annotations = BTreeMap::new();
        for (key, value) in [
            ("license", &record.license),
            ("attribution", &record.attribution),
        ] {
            if !value.is_empty() {
                annotations.insert(key.to_string(), vec![value.clone()]);
            }
        }
        let base_uris = source.base_uris();
        Ontology {
            languages: vec!["en".into()],
            lang: self.lang.clone(),
            ontology_id: source.key(),
            status: "LOADED",
            message: String::new(),
            version: text(&record.release),
            load_attempts: 0,
            number_of_terms: record.counts.concepts,
            number_of_properties: 0,
            number_of_individuals: 0,
            config: OntologyConfig {
                id: source.key(),
                version_iri: None,
                namespace: record.id.clone(),
                preferred_prefix: source.preferred_prefix(),
                title: record.title.clone(),
                description: text(&record.scope),
                homepage: text(&record.homepage),
                version: text(&record.release),
                creators: Vec::new(),
                annotations,
                file_location: record.url.clone(),
                obo_slims: false,
                label_property: RDFS_LABEL,
                definition_properties: DEFINITIONS.to_vec(),
                synonym_properties: SYNONYMS.to_vec(),
                hierarchical_properties: Vec::new(),
                base_uris: base_uris.clone(),
                hidden_properties: Vec::new(),
                preferred_root_terms: Vec::new(),
                is_skos: record.kind == "skos",
                allow_download: false,
            },
            base_uris,
            links,
        }
    }
}

/// Annotations OLS lists by property label: replacements, alternative ids, cross-references
/// and MeSH tree numbers. Empty lists are left out.
fn annotations(concept: &Concept) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut put = |key: &str, values: Vec<String>| {
        if !values.is_empty() {
            out.insert(key.to_string(), values);
        }
    };
    put(
        "term replaced by",
        concept
            .replacements_of(ReplacementKind::ReplacedBy)
            .map(|r| r.target.clone())
            .collect(),
    );
    put(
        "consider",
        concept
            .replacements_of(ReplacementKind::Consider)
            .map(|r| r.target.clone())
            .collect(),
    );
    put("has_alternative_id", concept.alt_ids.clone());
    put(
        "database_cross_reference",
        concept
            .xrefs
            .iter()
            .filter(|x| x.kind == XrefKind::DbXref)
            .map(|x| x.target.clone())
            .collect(),
    );
    put("tree number", concept.tree_numbers.clone());
    out
}
