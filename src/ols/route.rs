//! What an `/api/…` path asks, read from the raw (still percent-encoded) path: every route
//! the adapter serves is one variant, so a path either parses into one or is "not found".

use percent_encoding::percent_decode_str;

/// A term's relatives, as the path under a term names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    Parents,
    Children,
    Ancestors,
    Descendants,
    HierarchicalParents,
    HierarchicalChildren,
    HierarchicalAncestors,
    HierarchicalDescendants,
}

impl Relation {
    pub const ALL: [Relation; 8] = [
        Relation::Parents,
        Relation::Children,
        Relation::Ancestors,
        Relation::Descendants,
        Relation::HierarchicalParents,
        Relation::HierarchicalChildren,
        Relation::HierarchicalAncestors,
        Relation::HierarchicalDescendants,
    ];

    /// The path segment and link name.
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Parents => "parents",
            Relation::Children => "children",
            Relation::Ancestors => "ancestors",
            Relation::Descendants => "descendants",
            Relation::HierarchicalParents => "hierarchicalParents",
            Relation::HierarchicalChildren => "hierarchicalChildren",
            Relation::HierarchicalAncestors => "hierarchicalAncestors",
            Relation::HierarchicalDescendants => "hierarchicalDescendants",
        }
    }

    fn parse(segment: &str) -> Option<Relation> {
        Relation::ALL.into_iter().find(|r| r.as_str() == segment)
    }

    /// Whether the relation climbs (parents, ancestors) rather than descends.
    pub fn upward(self) -> bool {
        matches!(
            self,
            Relation::Parents
                | Relation::Ancestors
                | Relation::HierarchicalParents
                | Relation::HierarchicalAncestors
        )
    }

    /// Whether the relation follows every step rather than one.
    pub fn transitive(self) -> bool {
        matches!(
            self,
            Relation::Ancestors
                | Relation::Descendants
                | Relation::HierarchicalAncestors
                | Relation::HierarchicalDescendants
        )
    }

    /// Whether it follows hierarchical relations beside `is_a`.
    pub fn hierarchical(self) -> bool {
        matches!(
            self,
            Relation::HierarchicalParents
                | Relation::HierarchicalChildren
                | Relation::HierarchicalAncestors
                | Relation::HierarchicalDescendants
        )
    }
}

/// Which kind of entity a per-ontology list holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entities {
    Terms,
    Properties,
    Individuals,
}

impl Entities {
    /// The path segment and the `_embedded` key.
    pub fn as_str(self) -> &'static str {
        match self {
            Entities::Terms => "terms",
            Entities::Properties => "properties",
            Entities::Individuals => "individuals",
        }
    }

    fn parse(segment: &str) -> Option<Entities> {
        [Entities::Terms, Entities::Properties, Entities::Individuals]
            .into_iter()
            .find(|e| e.as_str() == segment)
    }
}

/// One API request's route, its ontology id and IRI decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    Root,
    Ontologies,
    Ontology(String),
    /// `/api/ontologies/{id}/terms` (or properties, individuals): a page, or a lookup.
    OntologyList(String, Entities),
    /// `/api/ontologies/{id}/terms/{iri}` (or a property or individual).
    OntologyItem(String, Entities, String),
    /// `/api/ontologies/{id}/terms/{iri}/{relation}`.
    Related(String, String, Relation),
    /// `/api/terms`, `/api/properties`, `/api/individuals`: across ontologies.
    List(Entities),
    /// `/api/terms/{iri}` and the like: the entity in every ontology that holds it.
    Item(Entities, String),
    Search,
    Select,
    Suggest,
}

/// Why a path is no route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadRoute {
    /// No route has this shape (OLS's "Endpoint not found").
    NoEndpoint,
    /// An IRI or id segment is not percent-encoded UTF-8.
    BadEncoding,
}

/// A segment decoded: OLS's IRIs are encoded twice, so a segment that still holds an escape
/// after one decoding (`http%3A%2F%2F…`) is decoded again. An IRI sent encoded once reads
/// the same.
pub fn decode_segment(raw: &str) -> Result<String, BadRoute> {
    let once = percent_decode_str(raw)
        .decode_utf8()
        .map_err(|_| BadRoute::BadEncoding)?;
    let looks_encoded = {
        let lower = once.to_ascii_lowercase();
        lower.contains("%3a") || lower.contains("%2f") || lower.contains("%23")
    };
    if !looks_encoded {
        return Ok(once.into_owned());
    }
    Ok(percent_decode_str(&once)
        .decode_utf8()
        .map_err(|_| BadRoute::BadEncoding)?
        .into_owned())
}

/// The route of a path beneath `/api`.
pub fn parse(path: &str) -> Result<Route, BadRoute> {
    let rest = path
        .strip_prefix("/api")
        .ok_or(BadRoute::NoEndpoint)?
        .trim_end_matches('/');
    let segments: Vec<&str> = if rest.is_empty() {
        Vec::new()
    } else {
        rest.strip_prefix('/')
            .ok_or(BadRoute::NoEndpoint)?
            .split('/')
            .collect()
    };
    let id = |raw: &str| -> Result<String, BadRoute> {
        Ok(percent_decode_str(raw)
            .decode_utf8()
            .map_err(|_| BadRoute::BadEncoding)?
            .to_lowercase())
    };
    match segments.as_slice() {
        [] => Ok(Route::Root),
        ["ontologies"] => Ok(Route::Ontologies),
        ["ontologies", o] => Ok(Route::Ontology(id(o)?)),
        ["ontologies", o, list] => {
            let list = Entities::parse(list).ok_or(BadRoute::NoEndpoint)?;
            Ok(Route::OntologyList(id(o)?, list))
        }
        ["ontologies", o, list, iri] => {
            let list = Entities::parse(list).ok_or(BadRoute::NoEndpoint)?;
            Ok(Route::OntologyItem(id(o)?, list, decode_segment(iri)?))
        }
        ["ontologies", o, "terms", iri, relation] => {
            let relation = Relation::parse(relation).ok_or(BadRoute::NoEndpoint)?;
            Ok(Route::Related(id(o)?, decode_segment(iri)?, relation))
        }
        ["search"] => Ok(Route::Search),
        ["select"] => Ok(Route::Select),
        ["suggest"] => Ok(Route::Suggest),
        [list] => Ok(Route::List(
            Entities::parse(list).ok_or(BadRoute::NoEndpoint)?,
        )),
        [list, iri] => Ok(Route::Item(
            Entities::parse(list).ok_or(BadRoute::NoEndpoint)?,
            decode_segment(iri)?,
        )),
        _ => Err(BadRoute::NoEndpoint),
    }
}

/// What a request is, for the access log (never the identifier or the query): read off the
/// raw segments, nothing decoded (the answer parses the path itself).
pub fn route_name(path: &str) -> &'static str {
    let rest = path.strip_prefix("/api").unwrap_or(path).trim_matches('/');
    let segments: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    match segments.as_slice() {
        [] => "api_root",
        ["ontologies"] | ["ontologies", _] => "api_ontologies",
        ["ontologies", _, "terms", _, relation] if Relation::parse(relation).is_some() => {
            "api_hierarchy"
        }
        ["ontologies", _, list, ..] | [list, ..] if Entities::parse(list).is_some() => "api_terms",
        ["search"] | ["select"] => "api_search",
        ["suggest"] => "api_suggest",
        _ => "api_unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_encoded_iris_and_relations_parse_into_routes() {
        let path = "/api/ontologies/PartOf/terms/http%253A%252F%252Fpurl.obolibrary.org%252Fobo%252FMS_1003056/hierarchicalParents";
        assert_eq!(
            parse(path),
            Ok(Route::Related(
                "partof".into(),
                "http://purl.obolibrary.org/obo/MS_1003056".into(),
                Relation::HierarchicalParents
            ))
        );
        assert_eq!(
            parse("/api/terms/http%3A%2F%2Fpurl.obolibrary.org%2Fobo%2FHP_0000118"),
            Ok(Route::Item(
                Entities::Terms,
                "http://purl.obolibrary.org/obo/HP_0000118".into()
            ))
        );
        assert_eq!(parse("/api"), Ok(Route::Root));
        assert_eq!(parse("/api/"), Ok(Route::Root));
        assert_eq!(
            parse("/api/ontologies/hp/classes/x"),
            Err(BadRoute::NoEndpoint)
        );
        assert_eq!(parse("/api/entities"), Err(BadRoute::NoEndpoint));
        assert_eq!(
            parse("/api/ontologies/hp/terms/%FF%FE"),
            Err(BadRoute::BadEncoding)
        );
        assert_eq!(
            parse("/api/ontologies/hp/terms/x/siblings"),
            Err(BadRoute::NoEndpoint)
        );
    }

    #[test]
    fn the_access_log_names_a_route_without_decoding_its_identifier() {
        assert_eq!(route_name("/api"), "api_root");
        assert_eq!(route_name("/api/ontologies/hp"), "api_ontologies");
        assert_eq!(
            route_name("/api/ontologies/hp/terms/%FF/ancestors"),
            "api_hierarchy"
        );
        assert_eq!(route_name("/api/ontologies/hp/properties"), "api_terms");
        assert_eq!(route_name("/api/terms/x"), "api_terms");
        assert_eq!(route_name("/api/select"), "api_search");
        assert_eq!(route_name("/api/suggest"), "api_suggest");
        assert_eq!(route_name("/api/ontologies/hp/classes/x"), "api_unknown");
    }
}
