//! The STW Thesaurus for Economics 9.16: real SKOS with `@base`, relative IRIs and two languages.

use ontoresolve::model::{LabelKind, ReplacementKind};
use ontoresolve::resolve::Resolver;

use crate::support::{
    Expect::*, build_into, check, shared_data, shared_index, single_source_catalog,
};

fn stw() -> Option<&'static Resolver> {
    shared_index("stw", |dir| {
        let data = shared_data()?;
        let catalog = single_source_catalog(
            dir,
            "stw",
            "skos",
            &data.join("skos/stw-9.16/stw.ttl.gz"),
            "prefixes = [{ prefix = \"stw\", uri_prefix = \"http://zbw.eu/stw/descriptor/\" }, { prefix = \"stw.thsys\", uri_prefix = \"http://zbw.eu/stw/thsys/\" }]",
        );
        build_into(&catalog, &dir.join("index"));
        Some(dir.join("index"))
    })
}

const HEALTH_ECONOMICS: &str = "http://zbw.eu/stw/descriptor/11157-5";

#[test]
fn stw_health_economics_by_english_and_german_names() {
    let Some(r) = stw() else { return };
    check(
        r,
        &[
            ("Health economics", Label(HEALTH_ECONOMICS, "pref_label")),
            ("Gesundheitsökonomie", Label(HEALTH_ECONOMICS, "alt_label")),
            ("stw:11157-5", Id(HEALTH_ECONOMICS)),
        ],
    );
    let en = r
        .lexicon()
        .lookup_label("Health economics")
        .expect("the index reads");
    assert_eq!(en[0].label.lang.as_deref(), Some("en"));
    let de = r
        .lexicon()
        .lookup_label("Gesundheitsökonomie")
        .expect("the index reads");
    assert_eq!(
        (de[0].label.kind, de[0].label.lang.as_deref()),
        (LabelKind::AltLabel, Some("de"))
    );
}

#[test]
fn stw_deprecated_descriptor_reports_its_replacement() {
    let Some(r) = stw() else { return };
    let old = r
        .concept(
            r.lexicon()
                .lookup_id("http://zbw.eu/stw/descriptor/10042-6")
                .expect("the index reads")[0]
                .concept,
        )
        .expect("10042-6");
    assert!(old.obsolete);
    let targets: Vec<&str> = old
        .replacements_of(ReplacementKind::ReplacedBy)
        .map(|x| x.target.as_str())
        .collect();
    assert_eq!(targets, ["http://zbw.eu/stw/descriptor/10043-4"]);
    let (_, live) = r
        .replacement_of(&old)
        .expect("the index reads")
        .expect("live replacement");
    assert_eq!(live.iri, "http://zbw.eu/stw/descriptor/10043-4");
}

#[test]
fn stw_counts_and_release() {
    let Some(r) = stw() else { return };
    let s = r.manifest().source("stw").expect("stw");
    assert_eq!(s.release, "9.16");
    assert_eq!(s.counts.concepts, 7_633);
    assert_eq!(s.counts.obsolete, 1_150);
}
