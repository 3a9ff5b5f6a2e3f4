//! Real OWL in RDF/XML: PATO (versionIRI, IAO replacements) and EDAM (oboInOwl:replacedBy).

use ontoresolve::index::manifest::ReleaseOrigin;
use ontoresolve::model::ReplacementKind;
use ontoresolve::resolve::Resolver;

use crate::support::{build_into, scratch, shared_data, single_source_catalog};

fn build_owl(id: &str, relative: &str, prefixes: &str) -> Option<Resolver> {
    let data = shared_data()?;
    let dir = scratch(&format!("owl-{id}"));
    let catalog = single_source_catalog(&dir, id, "owl", &data.join(relative), prefixes);
    build_into(&catalog, &dir.join("index"));
    Some(Resolver::open(&dir.join("index")).expect("open"))
}

fn obsolete_with_replacement(r: &Resolver) -> (u64, u64) {
    let (mut obsolete, mut replaced) = (0, 0);
    for id in r.concept_ids() {
        let c = r.concept(id).expect("concept");
        if c.obsolete {
            obsolete += 1;
            if c.replacements_of(ReplacementKind::ReplacedBy)
                .next()
                .is_some()
            {
                replaced += 1;
            }
        }
    }
    (obsolete, replaced)
}

#[test]
fn pato_release_from_version_iri_and_replacements() {
    let Some(r) = build_owl(
        "pato",
        "owl/pato/pato-base.owl",
        "prefixes = [{ prefix = \"PATO\", uri_prefix = \"http://purl.obolibrary.org/obo/PATO_\" }]",
    ) else {
        return;
    };
    let s = r.manifest().source("pato").expect("pato");
    assert_eq!(s.release, "2025-05-14");
    assert_eq!(
        s.release_origin,
        ReleaseOrigin::File {
            property: "owl:versionIRI".into()
        }
    );
    let (obsolete, replaced) = obsolete_with_replacement(&r);
    // 1,003 deprecated entities: 982 classes and 21 object properties, which are not concepts.
    assert_eq!(obsolete, 982);
    // 102 IAO:0100001 statements: 92 on classes, 10 on object properties.
    assert_eq!(replaced, 92);
    let some = r
        .concept(
            r.lexicon()
                .lookup_id("PATO:0000001")
                .expect("the index reads")[0]
                .concept,
        )
        .expect("quality");
    assert_eq!(
        some.preferred_label().map(|l| l.text.as_str()),
        Some("quality")
    );
}

#[test]
fn edam_replacements_spelled_oboinowl_replacedby() {
    let Some(r) = build_owl(
        "edam",
        "owl/edam/EDAM.owl",
        "prefixes = [{ prefix = \"edam\", uri_prefix = \"http://edamontology.org/\" }]",
    ) else {
        return;
    };
    let (obsolete, replaced) = obsolete_with_replacement(&r);
    assert!(
        obsolete >= 1_100,
        "EDAM has 1,120 deprecated classes, got {obsolete}"
    );
    assert!(
        replaced >= 340,
        "EDAM states 343 oboInOwl:replacedBy, got {replaced}"
    );
}
