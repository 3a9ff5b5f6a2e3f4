//! MeSH and gene identifiers in their native shapes: every candidate of an ambiguous symbol,
//! every replacement of a withdrawn one, entry terms and tree numbers, cross-references with
//! their real predicates; on the bundled default index and on real data from `../shared/data`.

use std::path::{Path, PathBuf};

use ontoresolve::mcp::dto::{FindArgs, IdentifierArgs};
use ontoresolve::mcp::tools;
use ontoresolve::resolve::Resolver;
use serde_json::Value;

use crate::support::{build_into, default_index, hpo, shared_data, shared_index};

fn find(r: &Resolver, text: &str, include_obsolete: bool) -> Value {
    let args = FindArgs {
        text: text.into(),
        sources: None,
        include_obsolete: Some(include_obsolete),
        limit: Some(100),
        cursor: None,
    };
    serde_json::to_value(tools::find_concepts(r, &args).expect("find_concepts answers"))
        .expect("json")
}

fn resolve(r: &Resolver, identifier: &str) -> Value {
    let args = IdentifierArgs {
        identifier: identifier.into(),
        release: None,
    };
    serde_json::to_value(tools::resolve_identifier(r, &args).expect("resolve_identifier answers"))
        .expect("json")
}

fn get(r: &Resolver, identifier: &str) -> Value {
    let args = IdentifierArgs {
        identifier: identifier.into(),
        release: None,
    };
    serde_json::to_value(tools::get_concept(r, &args).expect("get_concept answers")).expect("json")
}

/// (curie, match_kind, case_exact, status) of every candidate.
fn candidates(answer: &Value) -> Vec<(String, String, bool, String)> {
    answer["result"]["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| {
            (
                c["concept"]["curie"].as_str().unwrap_or("").to_string(),
                c["match_kind"].as_str().unwrap_or("").to_string(),
                c["case_exact"].as_bool().unwrap_or(false),
                c["concept"]["status"]
                    .as_str()
                    .unwrap_or("current")
                    .to_string(),
            )
        })
        .collect()
}

fn kind_of<'a>(list: &'a [(String, String, bool, String)], curie: &str) -> Option<&'a str> {
    list.iter().find(|c| c.0 == curie).map(|c| c.1.as_str())
}

#[test]
fn an_ambiguous_symbol_lists_every_gene_and_how_it_matched() {
    let r = default_index();
    let answer = find(r, "SIP1", false);
    let list = candidates(&answer);
    // GEMIN2 = HGNC:10884, SCAF11 = HGNC:10784, ZEB2 = HGNC:14881.
    assert_eq!(
        kind_of(&list, "HGNC:10884"),
        Some("previous_symbol"),
        "{list:?}"
    );
    assert_eq!(
        kind_of(&list, "HGNC:10784"),
        Some("alias_symbol"),
        "{list:?}"
    );
    assert_eq!(
        kind_of(&list, "HGNC:14881"),
        Some("alias_symbol"),
        "{list:?}"
    );
    assert_eq!(answer["result"]["ambiguous"], true);
    assert!(answer["result"]["distinct_concepts"].as_u64().unwrap_or(0) >= 3);
    assert!(
        answer["suggestion"]
            .as_str()
            .unwrap_or("")
            .contains("distinct concepts")
    );
}

#[test]
fn a_withdrawn_symbol_is_hidden_and_counted_until_asked_for() {
    let r = default_index();
    let answer = find(r, "ABC1", false);
    let list = candidates(&answer);
    // ABCA1 = HGNC:29, HEATR6 = HGNC:24076; HGNC:24 is the withdrawn ABC1 itself.
    assert_eq!(
        kind_of(&list, "HGNC:29"),
        Some("previous_symbol"),
        "{list:?}"
    );
    assert_eq!(
        kind_of(&list, "HGNC:24076"),
        Some("alias_symbol"),
        "{list:?}"
    );
    assert!(kind_of(&list, "HGNC:24").is_none(), "{list:?}");
    assert_eq!(answer["result"]["obsolete_hidden"], 1, "{answer}");

    let all = candidates(&find(r, "ABC1", true));
    let withdrawn = all
        .iter()
        .find(|c| c.0 == "HGNC:24")
        .expect("HGNC:24 listed");
    assert_eq!(withdrawn.1, "approved_symbol");
    assert_eq!(withdrawn.3, "withdrawn");
}

#[test]
fn an_approved_symbol_ranks_first_and_case_is_reported() {
    let r = default_index();
    let list = candidates(&find(r, "TP53", false));
    assert_eq!(list[0].0, "HGNC:11998", "{list:?}");
    assert_eq!(list[0].1, "approved_symbol");
    assert!(list[0].2, "TP53 is case-exact");
    let lower = candidates(&find(r, "tp53", false));
    assert_eq!(lower[0].0, "HGNC:11998", "{lower:?}");
    assert!(!lower[0].2, "tp53 is not case-exact");
}

#[test]
fn a_withdrawn_symbol_resolves_to_every_replacement() {
    let r = default_index();
    let answer = resolve(r, "HGNC:2792");
    assert_eq!(answer["result"]["outcome"], "obsolete", "{answer}");
    assert_eq!(answer["result"]["concepts"][0]["status"], "withdrawn");
    let ends: Vec<&str> = answer["result"]["replacements"]
        .as_array()
        .expect("replacements")
        .iter()
        .filter_map(|c| c["ends_at"].as_str())
        .collect();
    assert_eq!(ends, ["HGNC:4285", "HGNC:6298"], "{answer}");
    assert!(
        answer["result"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("none is preferred")
    );

    let single = resolve(r, "HGNC:6");
    let ends: Vec<&str> = single["result"]["replacements"]
        .as_array()
        .expect("replacements")
        .iter()
        .filter_map(|c| c["ends_at"].as_str())
        .collect();
    assert_eq!(ends, ["HGNC:12469"], "{single}");
}

#[test]
fn hgnc_cross_references_keep_their_meaning_and_provenance() {
    let r = default_index();
    let answer = get(r, "HGNC:11998");
    let detail = &answer["result"];
    assert_eq!(detail["concept"]["kind"], "gene");
    assert_eq!(detail["locus_type"], "gene with protein product");
    let xrefs = detail["xrefs"].as_array().expect("xrefs");
    let has = |target: &str, predicate: &str| {
        xrefs.iter().any(|x| {
            x["target"].as_str().is_some_and(|t| t.ends_with(target))
                && x["predicate"] == predicate
                && x["source"] == "hgnc"
                && x["release"].as_str().is_some_and(|r| !r.is_empty())
        })
    };
    assert!(has("7157", "skos:exactMatch"), "{xrefs:?}");
    assert!(has("ENSG00000141510", "skos:exactMatch"), "{xrefs:?}");
    assert!(has("P04637", "RO:0002205"), "{xrefs:?}");
    // The mouse and rat orthologs are there, and never as exact matches.
    for prefix in ["mgi:", "rgd:"] {
        let orthologs: Vec<&Value> = xrefs
            .iter()
            .filter(|x| {
                x["target"]
                    .as_str()
                    .is_some_and(|t| t.to_lowercase().starts_with(prefix))
            })
            .collect();
        assert!(!orthologs.is_empty(), "{prefix} {xrefs:?}");
        assert!(
            orthologs.iter().all(|x| x["predicate"] == "RO:HOM0000017"),
            "{xrefs:?}"
        );
    }
}

#[test]
fn mesh_entry_terms_find_their_descriptor() {
    let r = default_index();
    let list = candidates(&find(r, "Slaughter Houses", false));
    assert_eq!(
        kind_of(&list, "MESH:D000003"),
        Some("entry_term"),
        "{list:?}"
    );
    let answer = get(r, "MESH:D000003");
    assert_eq!(answer["result"]["concept"]["label"], "Abattoirs");
    assert_eq!(answer["result"]["concept"]["kind"], "descriptor");
    let trees = answer["result"]["tree_numbers"].as_array().expect("trees");
    assert!(trees.iter().any(|t| t == "J03.540.020"), "{trees:?}");
}

#[test]
fn mesh_identifiers_resolve_in_every_spelling_to_the_catalogue_prefix() {
    let r = default_index();
    for spelling in [
        "MESH:D000001",
        "mesh:D000001",
        "MSH:D000001",
        "http://id.nlm.nih.gov/mesh/D000001",
    ] {
        let answer = resolve(r, spelling);
        assert_eq!(answer["result"]["outcome"], "found", "{spelling}: {answer}");
        assert_eq!(answer["query"]["normalized"], "MESH:D000001", "{spelling}");
        assert_eq!(answer["result"]["concepts"][0]["label"], "Calcimycin");
    }
    let hgnc = resolve(r, "hgnc:11998");
    assert_eq!(hgnc["query"]["normalized"], "HGNC:11998", "{hgnc}");
}

#[test]
fn mesh_descriptors_have_parents_from_tree_numbers_and_records_map_to_them() {
    let r = default_index();
    // D000005 Abdomen (A01.923.047) sits under Torso, A01.923.
    let abdomen = get(r, "MESH:D000005");
    let parents: Vec<&str> = abdomen["result"]["parents"]
        .as_array()
        .expect("parents")
        .iter()
        .filter_map(|p| p["label"].as_str())
        .collect();
    assert!(parents.contains(&"Torso"), "{parents:?}");
    // C000002 bevonium is indexed under D001561.
    let record = get(r, "MESH:C000002");
    assert_eq!(record["result"]["concept"]["kind"], "supplementary_record");
    let xrefs = record["result"]["xrefs"].as_array().expect("xrefs");
    assert!(
        xrefs.iter().any(|x| x["target"] == "MESH:D001561"
            && x["predicate"] == "meshv:preferredMappedTo"
            && x["source"] == "mesh"
            && x["release"] == "2024"),
        "{xrefs:?}"
    );
}

#[test]
fn an_obsolete_term_with_two_replacements_and_an_alt_id_reading_reports_all() {
    let r = hpo();
    let answer = resolve(r, "HP:0000535");
    let result = &answer["result"];
    assert_eq!(result["outcome"], "obsolete", "{answer}");
    let ends: Vec<&str> = result["replacements"]
        .as_array()
        .expect("replacements")
        .iter()
        .filter_map(|c| c["ends_at"].as_str())
        .collect();
    assert_eq!(ends.len(), 2, "{answer}");
    let alt: Vec<&str> = result["alt_id_of"]
        .as_array()
        .expect("alt_id_of")
        .iter()
        .filter_map(|c| c["curie"].as_str())
        .collect();
    assert_eq!(alt, ["HP:0045075"], "{answer}");
}

#[test]
fn instructions_and_tool_sources_come_from_the_manifest() {
    let r = default_index();
    let sources = serde_json::to_value(tools::list_sources(r)).expect("json");
    let ids: Vec<&str> = sources["result"]["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .filter_map(|s| s["id"].as_str())
        .collect();
    assert!(ids.contains(&"mesh") && ids.contains(&"hgnc"), "{ids:?}");
    let text = ontoresolve::mcp::instructions_for(r.manifest());
    assert!(
        text.contains("mesh (Medical Subject Headings (MeSH)), release 2024"),
        "{text}"
    );
    assert!(!text.contains("no gene source is loaded"), "{text}");
}

/// An index of one real file from `../shared/data`, built once.
fn real_index(
    name: &str,
    kind: &str,
    format: &str,
    file: &str,
    prefix: &str,
) -> Option<&'static Resolver> {
    let data = shared_data()?;
    let file = data.join(file);
    shared_index(name, |dir| {
        let catalog = crate::support::single_source_catalog(
            dir,
            name,
            kind,
            &file,
            &format!("format = \"{format}\"\nrelease = \"test\"\nprefixes = [{prefix}]"),
        );
        build_into(&catalog, &dir.join("index"));
        Some(dir.join("index"))
    })
}

const MESH_PREFIX: &str = "{ prefix = \"MESH\", uri_prefix = \"http://id.nlm.nih.gov/mesh/\" }";

#[test]
fn ncbi_gene_info_gives_symbols_synonyms_and_hgnc_links() {
    let Some(r) = real_index(
        "gene-info",
        "gene",
        "gene-info",
        "genes/Homo_sapiens.gene_info-2020-01-29.gz",
        "{ prefix = \"NCBIGene\", uri_prefix = \"https://www.ncbi.nlm.nih.gov/gene/\" }",
    ) else {
        return;
    };
    let answer = get(r, "NCBIGene:7157");
    let detail = &answer["result"];
    assert_eq!(detail["concept"]["label"], "TP53", "{answer}");
    assert_eq!(detail["taxon"], "NCBITaxon:9606");
    let labels = detail["labels"].as_array().expect("labels");
    assert!(
        labels
            .iter()
            .any(|l| l["text"] == "LFS1" && l["kind"] == "alias_symbol"),
        "{labels:?}"
    );
    let xrefs = detail["xrefs"].as_array().expect("xrefs");
    assert!(
        xrefs
            .iter()
            .any(|x| x["target"] == "HGNC:11998" && x["predicate"] == "skos:exactMatch"),
        "{xrefs:?}"
    );
}

#[test]
fn mesh_rdf_samples_join_descriptors_concepts_and_terms() {
    let Some(r) = real_index(
        "mesh-rdf-samples",
        "mesh",
        "ntriples",
        "mesh/rdf/hhs-meshrdf_webui_src_test_resources_samples.nt",
        MESH_PREFIX,
    ) else {
        return;
    };
    let answer = get(r, "MESH:D000001");
    let detail = &answer["result"];
    assert_eq!(detail["concept"]["label"], "Calcimycin", "{answer}");
    assert_eq!(detail["concept"]["kind"], "descriptor");
    let labels = detail["labels"].as_array().expect("labels");
    assert!(
        labels.iter().any(|l| l["kind"] == "narrow_synonym"),
        "terms of the narrower concept: {labels:?}"
    );
    assert!(!detail["tree_numbers"].as_array().expect("trees").is_empty());
    let with_parent = r
        .concept_ids()
        .filter_map(|id| r.concept(id).ok())
        .find(|c| {
            c.parents.iter().any(|p| {
                r.lexicon()
                    .by_iri_any(&p.iri, c.source)
                    .expect("the index reads")
                    .is_some()
            })
        });
    assert!(
        with_parent.is_some(),
        "a descriptor lists a broader descriptor from the same file"
    );
    let record = r
        .concept_ids()
        .map(|id| r.concept(id).expect("the index reads"))
        .find(|c| c.kind == ontoresolve::model::ConceptKind::SupplementaryRecord)
        .expect("a supplementary record");
    assert!(
        record
            .xrefs
            .iter()
            .any(|x| x.kind == ontoresolve::model::XrefKind::PreferredMappedTo),
        "{record:?}"
    );
}

#[test]
fn mesh_qualifiers_resolve_by_identifier_but_are_never_name_candidates() {
    let r = shared_index("mesh-qualifier", |dir| {
        let catalog = crate::support::single_source_catalog(
            dir,
            "mesh",
            "mesh",
            &crate::support::fixtures().join("mesh-qualifier.nt"),
            &format!("release = \"2024\"\nprefixes = [{MESH_PREFIX}]"),
        );
        build_into(&catalog, &dir.join("index"));
        Some(dir.join("index"))
    })
    .expect("fixture index");
    let answer = resolve(r, "MESH:Q000009");
    assert_eq!(answer["result"]["outcome"], "found", "{answer}");
    assert_eq!(answer["result"]["concepts"][0]["kind"], "qualifier");
    for name in ["adverse effects", "side effects"] {
        let list = candidates(&find(r, name, true));
        assert!(
            list.iter().all(|c| c.0 != "MESH:Q000009"),
            "{name}: {list:?}"
        );
    }
    let descriptor = candidates(&find(r, "Anti-Bacterial Agents", false));
    assert_eq!(descriptor[0].0, "MESH:D000900");
}

/// The first `rows` lines of a gzipped table, written plain into `dir`.
fn head_of(table: &Path, rows: usize, dir: &Path) -> PathBuf {
    use std::io::{BufRead, Write};
    let file = std::fs::File::open(table).expect("open table");
    let reader = std::io::BufReader::new(flate2::read::GzDecoder::new(file));
    let out_path = dir
        .join(table.file_name().expect("name"))
        .with_extension("");
    let mut out = std::fs::File::create(&out_path).expect("create");
    for line in reader.lines().take(rows) {
        writeln!(out, "{}", line.expect("line")).expect("write");
    }
    out_path
}

#[test]
fn mesh_tables_and_mesh_rdf_give_the_same_concepts_labels_and_parents() {
    const ROWS: usize = 3000;
    let Some(data) = shared_data() else {
        return;
    };
    let tool = data.join("../tools/mesh-tsv-to-rdf");
    if !tool.is_file() {
        crate::support::skip(
            crate::support::Missing::Data,
            format_args!("{} not found", tool.display()),
        );
        return;
    }
    let dir = crate::support::scratch("mesh-tables-vs-rdf");
    let nt = dir.join("mesh.nt");
    let status = std::process::Command::new("python3")
        .arg(&tool)
        .arg(&nt)
        .args(["--limit", &ROWS.to_string()])
        .status()
        .expect("run mesh-tsv-to-rdf");
    assert!(status.success());
    let descriptors = head_of(&data.join("mesh/mesh2024_descriptors.tsv.gz"), ROWS, &dir);
    let records = head_of(&data.join("mesh/mesh2024_supplementary.tsv.gz"), ROWS, &dir);
    let tables = crate::support::single_source_catalog(
        &dir,
        "mesh-tables",
        "mesh",
        &descriptors,
        &format!(
            "format = \"mesh-tsv\"\nmore_paths = [\"{}\"]\nrelease = \"2024\"\nprefixes = [{MESH_PREFIX}]",
            records.display()
        ),
    );
    let rdf = crate::support::single_source_catalog(
        &dir,
        "mesh-rdf",
        "mesh",
        &nt,
        &format!("format = \"ntriples\"\nrelease = \"2024\"\nprefixes = [{MESH_PREFIX}]"),
    );
    build_into(&tables, &dir.join("tables"));
    build_into(&rdf, &dir.join("rdf"));
    let a = Resolver::open(&dir.join("tables")).expect("open");
    let b = Resolver::open(&dir.join("rdf")).expect("open");
    assert_eq!(a.concept_count(), b.concept_count());
    let mut compared = 0;
    for id in a.concept_ids() {
        let x = a.concept(id).expect("concept");
        let y = b
            .lexicon()
            .by_iri_any(&x.iri, ontoresolve::model::SourceIdx(0))
            .expect("the index reads")
            .map(|(_, c)| c)
            .unwrap_or_else(|| panic!("{} missing from the RDF path", x.iri));
        assert_eq!(x.kind, y.kind, "{}", x.iri);
        assert_eq!(
            x.preferred_label().map(|l| &l.text),
            y.preferred_label().map(|l| &l.text),
            "{}",
            x.iri
        );
        let parents = |c: &ontoresolve::model::Concept| {
            let mut p: Vec<String> = c.parents.iter().map(|l| l.iri.clone()).collect();
            p.sort();
            p
        };
        assert_eq!(parents(&x), parents(&y), "{}", x.iri);
        assert_eq!(x.tree_numbers, y.tree_numbers, "{}", x.iri);
        let names = |c: &ontoresolve::model::Concept| {
            let mut n: Vec<String> = c.labels.iter().map(|l| l.text.clone()).collect();
            n.sort();
            n.dedup();
            n
        };
        assert_eq!(names(&x), names(&y), "{}", x.iri);
        compared += 1;
    }
    assert_eq!(compared, 2 * ROWS);
}

/// The concepts the answer's SPARQL finds in the store.
fn sparql_concepts(r: &Resolver, answer: &Value) -> Vec<String> {
    let rows = r
        .store()
        .expect("store")
        .select(answer["sparql"].as_str().expect("sparql"))
        .expect("the SPARQL runs");
    let mut out: Vec<String> = rows
        .iter()
        .flat_map(|row| row.iter())
        .filter(|(k, _)| k == "concept")
        .map(|(_, v)| v.trim_matches(|c| c == '<' || c == '>').to_string())
        .collect();
    out.sort();
    out.dedup();
    out
}

fn answer_concepts(r: &Resolver, answer: &Value) -> Vec<String> {
    let mut out: Vec<String> = answer["result"]["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| crate::support::concept_iri(r, &c["concept"]))
        .collect();
    out.sort();
    out
}

#[test]
fn the_sparql_of_a_symbol_or_entry_term_search_re_runs_it() {
    let r = default_index();
    for name in ["SIP1", "Slaughter Houses", "tp53"] {
        let answer = find(r, name, false);
        assert_eq!(
            sparql_concepts(r, &answer),
            answer_concepts(r, &answer),
            "{name}"
        );
    }
    let Some(samples) = real_index(
        "mesh-rdf-samples",
        "mesh",
        "ntriples",
        "mesh/rdf/hhs-meshrdf_webui_src_test_resources_samples.nt",
        MESH_PREFIX,
    ) else {
        return;
    };
    let answer = find(samples, "Paracetamol", false);
    assert_eq!(
        answer["result"]["candidates"][0]["concept"]["curie"], "MESH:D000082",
        "{answer}"
    );
    assert_eq!(
        sparql_concepts(samples, &answer),
        answer_concepts(samples, &answer)
    );
}

#[test]
fn year_versioned_mesh_iris_name_the_release_and_re_run_as_sparql() {
    let Some(r) = real_index(
        "mesh-rdf-2020",
        "mesh",
        "ntriples",
        "mesh/rdf/nxontology-data_mesh2020-subset.nt",
        MESH_PREFIX,
    ) else {
        return;
    };
    assert_eq!(r.manifest().sources[0].release, "2020");
    let concept = r
        .concept(ontoresolve::resolve::ConceptId(0))
        .expect("a concept");
    assert!(!concept.iri.contains("/2020/"), "{}", concept.iri);
    let curie = concept.curie.clone().expect("curie");
    let answer = resolve(r, &curie);
    assert_eq!(answer["result"]["outcome"], "found", "{answer}");
    let rows = r
        .store()
        .expect("store")
        .select(answer["sparql"].as_str().expect("sparql"))
        .expect("runs");
    assert!(
        !rows.is_empty(),
        "the store names the node as the index does: {answer}"
    );
}
