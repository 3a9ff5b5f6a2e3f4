//! The browsing routes: the root, ontologies, an ontology's terms (paged, or looked up by
//! IRI, short form or OBO id), one term and its relatives, and the same across ontologies;
//! each as a HAL page with Spring's counters and links.

use std::collections::BTreeMap;

use axum::response::Response;
use serde::Serialize;

use super::json::{Href, Links, Page, PageInfo, Term};
use super::route::{Entities, Relation, Route};
use super::shape::{Context, Standing, encode_query};
use super::{ApiError, Params};
use crate::model::Concept;
use crate::resolve::browse::{Links as Follow, SourceBrowse};
use crate::resolve::browse_entities::EntityKind;
use crate::resolve::{ConceptId, Resolver};

/// Items per page when the request names no size, and the most a page holds (Spring's
/// defaults; a larger `size` is lowered to it, as Spring does).
const DEFAULT_SIZE: u64 = 20;
const MAX_SIZE: u64 = 1000;

/// The root: links to what the API serves.
pub fn root(ctx: &Context) -> BTreeMap<&'static str, Links> {
    let mut links = Links::new();
    for name in ["ontologies", "terms", "properties", "individuals"] {
        links.insert(
            name.to_string(),
            Href {
                href: format!("{}/api/{name}", ctx.base),
            },
        );
    }
    links.insert(
        "profile".to_string(),
        Href {
            href: format!("{}/api/profile", ctx.base),
        },
    );
    BTreeMap::from([("_links", links)])
}

/// Which page a request asks for.
#[derive(Clone, Copy, Debug)]
struct Paging {
    page: u64,
    size: u64,
}

impl Paging {
    fn of(params: &Params) -> Result<Paging, ApiError> {
        let page = params.number("page", 0, u64::from(u32::MAX))?;
        let size = params
            .number("size", DEFAULT_SIZE, u64::from(u32::MAX))?
            .clamp(1, MAX_SIZE);
        Ok(Paging { page, size })
    }

    fn offset(self) -> u64 {
        self.page.saturating_mul(self.size)
    }
}

/// A HAL page of `items` (already this page's), with Spring's links. A page past the last
/// one is "not found", saying how many there are.
fn page<T: Serialize>(
    address: &str,
    key: &'static str,
    items: Vec<T>,
    total: u64,
    paging: Paging,
) -> Result<Page<T>, ApiError> {
    let pages = total.div_ceil(paging.size);
    if paging.page > 0 && paging.page >= pages {
        return Err(ApiError::NotFound(format!(
            "page {} is past the last page: {total} items make {pages} pages of {} (numbered from 0)",
            paging.page, paging.size
        )));
    }
    let sep = if address.contains('?') { '&' } else { '?' };
    let at = |n: u64| Href {
        href: format!("{address}{sep}page={n}&size={}", paging.size),
    };
    let mut links = Links::new();
    if pages > 1 {
        links.insert("first".to_string(), at(0));
        links.insert("last".to_string(), at(pages - 1));
    }
    if paging.page > 0 {
        links.insert("prev".to_string(), at(paging.page - 1));
    }
    links.insert("self".to_string(), at(paging.page));
    if paging.page + 1 < pages {
        links.insert("next".to_string(), at(paging.page + 1));
    }
    Ok(Page {
        embedded: (!items.is_empty()).then(|| BTreeMap::from([(key, items)])),
        links,
        page: PageInfo {
            size: paging.size,
            total_elements: total,
            total_pages: pages,
            number: paging.page,
        },
    })
}

/// A lookup's one hit, as Spring gives an unpaged result: the request's own address.
fn single<T: Serialize>(address: String, key: &'static str, item: T) -> Page<T> {
    let mut links = Links::new();
    links.insert("self".to_string(), Href { href: address });
    Page {
        embedded: Some(BTreeMap::from([(key, vec![item])])),
        links,
        page: PageInfo {
            size: 1,
            total_elements: 1,
            total_pages: 1,
            number: 0,
        },
    }
}

/// The ontology an id names, or "not found" naming the loaded ones.
fn ontology<'r>(r: &'r Resolver, id: &str) -> Result<SourceBrowse<'r>, ApiError> {
    r.browsing().release(id).ok_or_else(|| {
        let mut known: Vec<String> = r.browsing().all().iter().map(|s| s.key()).collect();
        known.truncate(20);
        ApiError::NotFound(format!(
            "Resource not found: no ontology has the id {:?}; loaded: {}",
            id.chars().take(80).collect::<String>(),
            known.join(", ")
        ))
    })
}

/// A term's standing in its ontology.
fn standing(source: &SourceBrowse<'_>, concept: &Concept) -> Result<Standing, ApiError> {
    Ok(Standing {
        is_root: source.is_root(concept)?,
        has_children: source.has_children(concept)?,
    })
}

fn term(ctx: &Context, source: &SourceBrowse<'_>, concept: &Concept) -> Result<Term, ApiError> {
    Ok(ctx.term(source, concept, standing(source, concept)?, Entities::Terms))
}

/// Terms in wire form, each with its standing.
fn terms<'c>(
    ctx: &Context,
    source: &SourceBrowse<'_>,
    concepts: impl IntoIterator<Item = &'c (ConceptId, Concept)>,
) -> Result<Vec<Term>, ApiError> {
    (concepts.into_iter())
        .map(|(_, c)| term(ctx, source, c))
        .collect()
}

/// Every browsing route.
pub fn answer(
    r: &Resolver,
    ctx: &Context,
    params: &Params,
    route: Route,
) -> Result<Response, ApiError> {
    let ok = |body: &dyn erased::Json| Ok(body.respond());
    match route {
        Route::Ontologies => ok(&ontologies(r, ctx, params)?),
        Route::Ontology(id) => ok(&ctx.ontology(&ontology(r, &id)?)),
        Route::OntologyList(id, Entities::Terms) => ok(&ontology_terms(r, ctx, params, &id)?),
        Route::OntologyList(id, list) => ok(&ontology_entities(r, ctx, params, &id, list)?),
        Route::OntologyItem(id, Entities::Terms, iri) => {
            let source = ontology(r, &id)?;
            let (_, concept) = source.by_iri(&iri)?.ok_or_else(|| not_a_term(&source))?;
            ok(&term(ctx, &source, &concept)?)
        }
        Route::OntologyItem(id, list, iri) => {
            let source = ontology(r, &id)?;
            let kind = entity_kind(list);
            let entity = source
                .entities(kind)?
                .into_iter()
                .find(|e| e.iri == iri)
                .ok_or_else(|| {
                    ApiError::NotFound(format!(
                        "Resource not found: {} declares no {} with that IRI",
                        source.key(),
                        kind_name(kind)
                    ))
                })?;
            ok(&ctx.entity(&source, &entity, kind))
        }
        Route::Related(id, iri, relation) => ok(&related(r, ctx, params, &id, &iri, relation)?),
        Route::List(Entities::Terms) => ok(&all_terms(r, ctx, params)?),
        Route::List(list) => {
            let address = format!("{}/api/{}", ctx.base, list.as_str());
            ok(&page::<Term>(
                &address,
                list.as_str(),
                Vec::new(),
                0,
                Paging::of(params)?,
            )?)
        }
        Route::Item(Entities::Terms, iri) => {
            let found = terms_everywhere(r, ctx, &iri)?;
            let address = format!(
                "{}/api/terms/{}",
                ctx.base,
                super::shape::encode_twice(&iri)
            );
            if found.is_empty() {
                return Err(ApiError::NotFound(format!(
                    "Resource not found: no loaded ontology holds the term {}",
                    bounded(&iri)
                )));
            }
            let total = found.len() as u64;
            ok(&page(&address, "terms", found, total, Paging::of(params)?)?)
        }
        Route::Item(list, _) => Err(ApiError::NotFound(format!(
            "Resource not found: the index holds no {}",
            list.as_str()
        ))),
        Route::Root | Route::Search | Route::Select | Route::Suggest => Err(ApiError::NoEndpoint(
            "this route is answered elsewhere".into(),
        )),
    }
}

/// Type-erased JSON bodies, so one match arm can answer any of them.
mod erased {
    use axum::response::Response;

    pub trait Json {
        fn respond(&self) -> Response;
    }

    impl<T: serde::Serialize> Json for T {
        fn respond(&self) -> Response {
            crate::ols::hal_response(self)
        }
    }
}

/// At most 200 characters of an identifier, for a message.
fn bounded(text: &str) -> String {
    let mut shown: String = text.chars().take(200).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    shown
}

fn not_a_term(source: &SourceBrowse<'_>) -> ApiError {
    ApiError::NotFound(format!(
        "Resource not found: {} holds no term with that IRI",
        source.key()
    ))
}

fn ontologies(
    r: &Resolver,
    ctx: &Context,
    params: &Params,
) -> Result<Page<super::json::Ontology>, ApiError> {
    let paging = Paging::of(params)?;
    let all = r.browsing().all();
    let total = all.len() as u64;
    let items = all
        .iter()
        .skip(usize::try_from(paging.offset()).unwrap_or(usize::MAX))
        .take(usize::try_from(paging.size).unwrap_or(usize::MAX))
        .map(|s| ctx.ontology(s))
        .collect();
    page(
        &format!("{}/api/ontologies", ctx.base),
        "ontologies",
        items,
        total,
        paging,
    )
}

/// An ontology's terms, a page of them, or the one an `iri`, `short_form`, `obo_id` or `id`
/// parameter names.
fn ontology_terms(
    r: &Resolver,
    ctx: &Context,
    params: &Params,
    id: &str,
) -> Result<Page<Term>, ApiError> {
    let source = ontology(r, id)?;
    let paging = Paging::of(params)?;
    let address = format!("{}/terms", ctx.ontology_href(&source));
    for key in ["iri", "short_form", "obo_id", "id"] {
        let Some(value) = params.get(key)? else {
            continue;
        };
        let found = if key == "iri" {
            source.by_iri(value)?
        } else {
            source.by_id(value)?
        };
        let (_, concept) = found.ok_or_else(|| {
            ApiError::NotFound(format!(
                "Resource not found: {} holds no term with {key} {}",
                source.key(),
                bounded(value)
            ))
        })?;
        let lookup = format!("{address}?{key}={}", encode_query(value));
        return Ok(single(lookup, "terms", term(ctx, &source, &concept)?));
    }
    let total = u64::from(source.term_count());
    let offset = u32::try_from(paging.offset()).unwrap_or(u32::MAX);
    let size = u32::try_from(paging.size).unwrap_or(u32::MAX);
    let items = terms(ctx, &source, &source.terms(offset, size)?)?;
    page(&address, "terms", items, total, paging)
}

fn entity_kind(list: Entities) -> EntityKind {
    match list {
        Entities::Individuals => EntityKind::Individual,
        Entities::Terms | Entities::Properties => EntityKind::Property,
    }
}

fn kind_name(kind: EntityKind) -> &'static str {
    match kind {
        EntityKind::Property => "property",
        EntityKind::Individual => "individual",
    }
}

/// An ontology's properties or individuals, a page of them, or the one an `iri`,
/// `short_form` or `obo_id` parameter names.
fn ontology_entities(
    r: &Resolver,
    ctx: &Context,
    params: &Params,
    id: &str,
    list: Entities,
) -> Result<Page<Term>, ApiError> {
    let source = ontology(r, id)?;
    let paging = Paging::of(params)?;
    let kind = entity_kind(list);
    let address = format!("{}/{}", ctx.ontology_href(&source), list.as_str());
    let all = source.entities(kind)?;
    for key in ["iri", "short_form", "obo_id"] {
        let Some(value) = params.get(key)? else {
            continue;
        };
        let entity = all
            .iter()
            .find(|e| {
                let item = ctx.entity(&source, e, kind);
                match key {
                    "iri" => item.iri == value,
                    "short_form" => item.short_form == value,
                    _ => item.obo_id == value,
                }
            })
            .ok_or_else(|| {
                ApiError::NotFound(format!(
                    "Resource not found: {} declares no {} with {key} {}",
                    source.key(),
                    kind_name(kind),
                    bounded(value)
                ))
            })?;
        let lookup = format!("{address}?{key}={}", encode_query(value));
        return Ok(single(
            lookup,
            list.as_str(),
            ctx.entity(&source, entity, kind),
        ));
    }
    let total = all.len() as u64;
    let items = all
        .iter()
        .skip(usize::try_from(paging.offset()).unwrap_or(usize::MAX))
        .take(usize::try_from(paging.size).unwrap_or(usize::MAX))
        .map(|e| ctx.entity(&source, e, kind))
        .collect();
    page(&address, list.as_str(), items, total, paging)
}

/// A term's parents, children, ancestors or descendants, a page of them.
fn related(
    r: &Resolver,
    ctx: &Context,
    params: &Params,
    id: &str,
    iri: &str,
    relation: Relation,
) -> Result<Page<Term>, ApiError> {
    let source = ontology(r, id)?;
    let paging = Paging::of(params)?;
    let address = format!(
        "{}/terms/{}/{}",
        ctx.ontology_href(&source),
        super::shape::encode_twice(iri),
        relation.as_str()
    );
    // As OLS: the relatives of a term the ontology does not hold are none.
    let Some((_, concept)) = source.by_iri(iri)? else {
        return page(&address, "terms", Vec::new(), 0, paging);
    };
    let follow = if relation.hierarchical() {
        Follow::Hierarchical
    } else {
        Follow::IsA
    };
    let found = match (relation.upward(), relation.transitive()) {
        (true, false) => source.parents(&concept, follow)?,
        (false, false) => source.children(&concept, follow)?,
        (true, true) => source.ancestors(&concept, follow)?,
        (false, true) => source.descendants(&concept, follow)?,
    };
    let total = found.len() as u64;
    let shown = (found.iter())
        .skip(usize::try_from(paging.offset()).unwrap_or(usize::MAX))
        .take(usize::try_from(paging.size).unwrap_or(usize::MAX));
    let items = terms(ctx, &source, shown)?;
    page(&address, "terms", items, total, paging)
}

/// The term with this IRI in every ontology that holds it.
fn terms_everywhere(r: &Resolver, ctx: &Context, iri: &str) -> Result<Vec<Term>, ApiError> {
    let mut out = Vec::new();
    for source in r.browsing().all().iter().filter(|s| s.record.current) {
        if let Some((_, concept)) = source.by_iri(iri)? {
            out.push(term(ctx, source, &concept)?);
        }
    }
    Ok(out)
}

/// `/api/terms`: looked up by `iri`, `id`, `obo_id` or `short_form` across ontologies, or
/// every term of every current release, a page at a time.
fn all_terms(r: &Resolver, ctx: &Context, params: &Params) -> Result<Page<Term>, ApiError> {
    let paging = Paging::of(params)?;
    let address = format!("{}/api/terms", ctx.base);
    for key in ["iri", "id", "obo_id", "short_form"] {
        let Some(value) = params.get(key)? else {
            continue;
        };
        let sources = r.browsing().all();
        let mut found = Vec::new();
        for (_, concept) in r.browsing().terms_with_id(value)? {
            if let Some(source) = sources.iter().find(|s| s.slot == concept.source) {
                found.push(term(ctx, source, &concept)?);
            }
        }
        if found.is_empty() {
            return Err(ApiError::NotFound(format!(
                "Resource not found: no loaded ontology holds a term with {key} {}",
                bounded(value)
            )));
        }
        let total = found.len() as u64;
        let lookup = format!("{address}?{key}={}", encode_query(value));
        return page(&lookup, "terms", found, total, paging);
    }
    let current: Vec<SourceBrowse<'_>> = r
        .browsing()
        .all()
        .into_iter()
        .filter(|s| s.record.current)
        .collect();
    let total: u64 = current.iter().map(|s| u64::from(s.term_count())).sum();
    let mut skip = paging.offset();
    let mut items = Vec::new();
    for source in &current {
        let count = u64::from(source.term_count());
        if skip >= count {
            skip -= count;
            continue;
        }
        let want = paging.size - items.len() as u64;
        let from = u32::try_from(skip).unwrap_or(u32::MAX);
        let take = u32::try_from(want).unwrap_or(u32::MAX);
        items.extend(terms(ctx, source, &source.terms(from, take)?)?);
        skip = 0;
        if items.len() as u64 >= paging.size {
            break;
        }
    }
    page(&address, "terms", items, total, paging)
}
