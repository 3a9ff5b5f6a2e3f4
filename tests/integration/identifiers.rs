//! Identifier normalization on the Bioregistry: one table of real spellings and the
//! outcome each must get, the IRI → CURIE → IRI round trip over every indexed identifier, and
//! the offline `normalize` command.

use ontoresolve::model::Prefixes;

use crate::support::{IdCase, check_identifiers, default_index, hp_and_doid};

const fn case<'a>(input: &'a str, outcome: &'a str, curie: &'a str, note: &'a str) -> IdCase<'a> {
    IdCase {
        input,
        outcome,
        curie,
        note,
    }
}

const FOUND: &str = "found";
const OBSOLETE: &str = "obsolete";
const ABSENT: &str = "not_in_loaded_sources";
const MALFORMED: &str = "malformed";
const UNKNOWN: &str = "unknown_prefix";
const AMBIGUOUS: &str = "ambiguous_input";

/// The bundled default index: HPO and the SKOS stand-in loaded, the Bioregistry as registry.
#[test]
fn every_identifier_spelling_gets_its_outcome_and_canonical_curie() {
    let cases = [
        // found: HPO in every spelling.
        case("HP:0000118", FOUND, "HP:0000118", "HP:0000118"),
        case(
            "hp:0000118",
            FOUND,
            "HP:0000118",
            "folded the case of the prefix 'hp'",
        ),
        case("Hp:0000118", FOUND, "HP:0000118", "folded the case"),
        case("HP_0000118", FOUND, "HP:0000118", "read PREFIX_local"),
        case("hp_0000118", FOUND, "HP:0000118", "read PREFIX_local"),
        case("HP:0000118   ", FOUND, "HP:0000118", "trimmed"),
        case("\tHP:0000118\n", FOUND, "HP:0000118", "trimmed"),
        case(
            "<http://purl.obolibrary.org/obo/HP_0000118>",
            FOUND,
            "HP:0000118",
            "angle brackets",
        ),
        case(
            "http://purl.obolibrary.org/obo/HP_0000118",
            FOUND,
            "HP:0000118",
            "stripped the URI prefix 'http://purl.obolibrary.org/obo/HP_'",
        ),
        case(
            "https://purl.obolibrary.org/obo/HP_0000118",
            FOUND,
            "HP:0000118",
            "https://purl.obolibrary.org/obo/HP_",
        ),
        case(
            "HTTP://PURL.OBOLIBRARY.ORG/obo/HP_0000118",
            FOUND,
            "HP:0000118",
            "lower case",
        ),
        case(
            "http://purl.obolibrary.org/obo/hp_0000118",
            FOUND,
            "HP:0000118",
            "folded the case",
        ),
        case(
            "http://identifiers.org/hp/HP:0000118",
            FOUND,
            "HP:0000118",
            "identifiers.org",
        ),
        case(
            "https://identifiers.org/HP:0000118",
            FOUND,
            "HP:0000118",
            "identifiers.org",
        ),
        case(
            "https://bioregistry.io/hp:0000118",
            FOUND,
            "HP:0000118",
            "bioregistry.io",
        ),
        case(
            "HPO:0000118",
            FOUND,
            "HP:0000118",
            "synonym of the prefix 'HP'",
        ),
        case(
            "HP:HP:0000118",
            FOUND,
            "HP:0000118",
            "repeated prefix 'HP:'",
        ),
        case(
            "obo:HP_0000118",
            FOUND,
            "HP:0000118",
            "read the identifier as the IRI",
        ),
        case("HP:0000001", FOUND, "HP:0000001", "HP:0000001"),
        case("HP:0000094", FOUND, "HP:0000010", "alternative id"),
        case(
            "hem:activation-and-uptake",
            FOUND,
            "hem:activation-and-uptake",
            "",
        ),
        // obsolete, with the replacement chain.
        case("HP:0000057", OBSOLETE, "HP:0000057", "chain HP:0008665"),
        case("hp_0000057", OBSOLETE, "HP:0000057", "chain HP:0008665"),
        case(
            "https://identifiers.org/hp/HP:0000057",
            OBSOLETE,
            "HP:0000057",
            "chain HP:0008665",
        ),
        // not_in_loaded_sources: well-formed, prefix known, no loaded source has it.
        case("HP:9999999", ABSENT, "HP:9999999", "loaded [\"hp\"]"),
        case(
            "GO:0008150",
            ABSENT,
            "GO:0008150",
            "https://bioregistry.io/go:0008150",
        ),
        case("go:0008150", ABSENT, "GO:0008150", "folded the case"),
        case("GO_0008150", ABSENT, "GO:0008150", "read PREFIX_local"),
        case(
            "GO:GO:0008150",
            ABSENT,
            "GO:0008150",
            "repeated prefix 'GO:'",
        ),
        case(
            "http://purl.obolibrary.org/obo/GO_0008150",
            ABSENT,
            "GO:0008150",
            "URI prefix",
        ),
        case(
            "https://identifiers.org/GO:0008150",
            ABSENT,
            "GO:0008150",
            "URI prefix",
        ),
        case("MESH:D009203", FOUND, "MESH:D009203", ""),
        case(
            "mesh:D009203",
            FOUND,
            "MESH:D009203",
            "folded the case of the prefix 'mesh' to 'MESH'",
        ),
        case("MeSH:D009203", FOUND, "MESH:D009203", "folded the case"),
        case(
            "MSH:D009203",
            FOUND,
            "MESH:D009203",
            "'MSH' as a synonym of the prefix 'MESH'",
        ),
        case(
            "mesh:d009203",
            FOUND,
            "MESH:D009203",
            "the case its pattern requires",
        ),
        case(
            "http://id.nlm.nih.gov/mesh/D009203",
            FOUND,
            "MESH:D009203",
            "http://id.nlm.nih.gov/mesh/",
        ),
        case(
            "https://id.nlm.nih.gov/mesh/D009203",
            FOUND,
            "MESH:D009203",
            "https://id.nlm.nih.gov/mesh/",
        ),
        case(
            "https://identifiers.org/mesh:D009203",
            FOUND,
            "MESH:D009203",
            "identifiers.org/mesh:",
        ),
        case(
            "HGNC:HGNC:11998",
            FOUND,
            "HGNC:11998",
            "repeated prefix 'HGNC:'",
        ),
        case(
            "hgnc:5",
            FOUND,
            "HGNC:5",
            "folded the case of the prefix 'hgnc'",
        ),
        case("HGNC:HGNC:5", FOUND, "HGNC:5", "repeated prefix"),
        case("HGNC:99999", ABSENT, "HGNC:99999", "loaded [\"hgnc\"]"),
        case(
            "CHEBI:15377",
            ABSENT,
            "CHEBI:15377",
            "https://bioregistry.io/",
        ),
        case(
            "CHEBI:CHEBI:15377",
            ABSENT,
            "CHEBI:15377",
            "repeated prefix 'CHEBI:'",
        ),
        case("chebi:15377", ABSENT, "CHEBI:15377", "folded the case"),
        case(
            "EntrezGene:7157",
            ABSENT,
            "NCBIGene:7157",
            "'EntrezGene' as a synonym of the prefix 'NCBIGene'",
        ),
        case("ncbigene:7157", ABSENT, "NCBIGene:7157", "folded the case"),
        case("NCBIGENE:7157", ABSENT, "NCBIGene:7157", "folded the case"),
        case(
            "https://www.ncbi.nlm.nih.gov/gene/7157",
            ABSENT,
            "NCBIGene:7157",
            "URI prefix",
        ),
        case("DOID:4", ABSENT, "DOID:4", "catalogued [] loaded []"),
        case(
            "doi:10.1038/s41597-022-01807-3",
            ABSENT,
            "doi:10.1038/s41597-022-01807-3",
            "",
        ),
        case(
            "https://doi.org/10.1038/s41597-022-01807-3",
            ABSENT,
            "doi:10.1038/s41597-022-01807-3",
            "https://doi.org/",
        ),
        case(
            "ark:/53355/cl010066723",
            ABSENT,
            "ark:/53355/cl010066723",
            "",
        ),
        case(
            "http://n2t.net/ark:/53355/cl010066723",
            ABSENT,
            "ark:/53355/cl010066723",
            "http://n2t.net/ark:",
        ),
        case("FMA:63189", ABSENT, "FMA:63189", "deprecates"),
        case(
            "heo:anything",
            ABSENT,
            "heo:anything",
            "catalogued [\"heo\"]",
        ),
        // malformed: the prefix is known, the local id fails its pattern.
        case("HP:123", MALFORMED, "HP:123", "^\\d{7}$"),
        case(
            "HP:00001180",
            MALFORMED,
            "HP:00001180",
            "example HP:0011140",
        ),
        case("HP:0000 118", MALFORMED, "HP:0000 118", "not a valid"),
        case("HP:", MALFORMED, "HP:", ""),
        case("GO:abc", MALFORMED, "GO:abc", "example GO:0032571"),
        case("mesh:X123", MALFORMED, "MESH:X123", "^(C|D|Q)\\d+$"),
        case("hgnc:ABC", MALFORMED, "HGNC:ABC", "^\\d{1,5}$"),
        case("NCBIGene:abc", MALFORMED, "NCBIGene:abc", "^\\d+$"),
        case("", MALFORMED, "", "empty"),
        case("   ", MALFORMED, "", "empty"),
        case("not an identifier", MALFORMED, "", "no prefix"),
        // unknown_prefix, with the closest known prefixes.
        case("MESG:D009203", UNKNOWN, "", "suggestions MESH"),
        case("HGNX:5", UNKNOWN, "", "HGNC"),
        case("GOO:0008150", UNKNOWN, "", "GO"),
        case("notaprefix:123", UNKNOWN, "", "prefix notaprefix"),
        case("QQQZ_1", UNKNOWN, "", "prefix QQQZ"),
        case(
            "http://example.org/thing/1",
            UNKNOWN,
            "",
            "namespace http://example.org/thing/",
        ),
        case(
            "http://purl.obolibrary.org/obo/QQQZ_0000001",
            UNKNOWN,
            "",
            "prefix QQQZ",
        ),
        // ambiguous_input: a bare local id.
        case("0000118", AMBIGUOUS, "", "HP:0000118(found)"),
        case(" 0000057 ", AMBIGUOUS, "", "HP:0000057(found)"),
    ];
    assert!(cases.len() >= 60);
    check_identifiers(default_index(), &cases);
}

/// Resolver links in any letter case, pasted variants, and inputs that must not pass as
/// well-formed: the cases a review of the first version found.
#[test]
fn resolver_links_and_pasted_variants_normalize_and_ill_formed_inputs_are_refused() {
    let long = "x".repeat(5_000);
    let cases = [
        case(
            "https://identifiers.org/HGNC:5",
            FOUND,
            "HGNC:5",
            "resolver https://identifiers.org/",
        ),
        case(
            "https://identifiers.org/ncbitaxon/9606",
            ABSENT,
            "NCBITaxon:9606",
            "resolver",
        ),
        case(
            "https://identifiers.org/GO%3A0008150",
            ABSENT,
            "GO:0008150",
            "decoded %-escapes",
        ),
        case(
            "https://identifiers.org/doi/10.1038/s41597-022-01807-3",
            ABSENT,
            "doi:10.1038/s41597-022-01807-3",
            "",
        ),
        case(
            "https://n2t.net/HP:0000118",
            FOUND,
            "HP:0000118",
            "resolver https://n2t.net/",
        ),
        case(
            "https://bioregistry.io/Hp:0000118",
            FOUND,
            "HP:0000118",
            "folded the case",
        ),
        case(
            "HTTP://ID.NLM.NIH.GOV/mesh/D009203",
            FOUND,
            "MESH:D009203",
            "scheme and host in lower case",
        ),
        case(
            "http://cran.r-project.org/package=ggplot2",
            ABSENT,
            "cran:ggplot2",
            "",
        ),
        case(
            "http://github.com/healthprojects/health-economics-rust-crate/blob/main/spec/activation-and-uptake",
            FOUND,
            "hem:activation-and-uptake",
            "registry writes with https, not http",
        ),
        case(
            "http://purl.obolibrary.org/obo/apollo_sv_00000001",
            ABSENT,
            "APOLLO_SV:00000001",
            "read PREFIX_local",
        ),
        case(
            "http://purl.obolibrary.org/obo/co_320_0000001",
            ABSENT,
            "CO_320:0000001",
            "",
        ),
        case(
            "https://pubmed.ncbi.nlm.nih.gov/31452104/",
            ABSENT,
            "pubmed:31452104",
            "trailing slash",
        ),
        case(
            "https://www.ncbi.nlm.nih.gov/gene/7157/",
            ABSENT,
            "NCBIGene:7157",
            "trailing slash",
        ),
        case(
            "GO:GO_0008150",
            ABSENT,
            "GO:0008150",
            "repeated prefix 'GO_'",
        ),
        case("HP_HP_0000118", FOUND, "HP:0000118", "repeated prefix"),
        case("GO_REF:0000001", ABSENT, "go.ref:0000001", "'GO_REF'"),
        case("\u{FEFF}GO:0008150", ABSENT, "GO:0008150", "trimmed"),
        case(
            "HP :0000118",
            FOUND,
            "HP:0000118",
            "whitespace around the colon",
        ),
        case(
            "hem:Activation-And-Uptake",
            FOUND,
            "hem:activation-and-uptake",
            "without regard to letter case",
        ),
        case("pgx:!!!", MALFORMED, "pgx:!!!", "not a valid pgx local id"),
        case(
            "HP:\u{0660}\u{0660}\u{0660}\u{0660}\u{0661}\u{0661}\u{0668}",
            MALFORMED,
            "HP:\u{0660}\u{0660}\u{0660}\u{0660}\u{0661}\u{0661}\u{0668}",
            "^\\d{7}$",
        ),
        case("obo:hp.owl", ABSENT, "obo:hp.owl", "pattern NoPattern"),
        case(
            "http://example.org/x/1",
            UNKNOWN,
            "",
            "namespace http://example.org/x/",
        ),
        case(&long, MALFORMED, "", "identifiers are at most 4096"),
        // A banana counts as a prefix only in its own case and before a fitting local id.
        case("Gene:7157", UNKNOWN, "", "suggestions"),
        case("c:elegans", UNKNOWN, "", "prefix c"),
        case(
            "https://identifiers.org/IEDB:1038233",
            ABSENT,
            "iedb.reference:1038233",
            "resolver",
        ),
        case(
            "https://identifiers.org/cog.pathway:NAD%20biosynthesis",
            ABSENT,
            "cog.pathway:NAD%20biosynthesis",
            "",
        ),
        case("asrp:ASRP1423", ABSENT, "asrp:ASRP1423", ""),
        case(
            "hgvs_NP_003997.1:p.Trp24Cys",
            ABSENT,
            "hgvs:NP_003997.1:p.Trp24Cys",
            "read PREFIX_local",
        ),
    ];
    check_identifiers(default_index(), &cases);
}

/// Every pattern of the registry compiles (as ASCII classes), so no prefix silently accepts
/// any local id.
#[test]
fn every_registry_pattern_compiles() {
    let r = default_index();
    let registry = r.registry();
    let mut unusable = Vec::new();
    for id in registry.record_ids() {
        let Some(record) = registry.record(id) else {
            continue;
        };
        if record.pattern.is_some()
            && registry.check_pattern(id, "x") == ontoresolve::registry::PatternCheck::Unusable
        {
            unusable.push(record.prefix.clone());
        }
    }
    assert!(
        unusable.is_empty(),
        "patterns that do not compile: {unusable:?}"
    );
}

/// Two loaded namespaces whose local ids overlap: a bare id lists every reading.
#[test]
fn a_bare_local_id_lists_every_loaded_reading() {
    let Some(r) = hp_and_doid() else { return };
    check_identifiers(
        r,
        &[
            case(
                "0001816",
                AMBIGUOUS,
                "",
                "HP:0001816(found) DOID:0001816(found)",
            ),
            case("0000118", AMBIGUOUS, "", "HP:0000118(found) DOID:0000118"),
            case("4", AMBIGUOUS, "", "DOID:4(found)"),
            case("DOID:4", FOUND, "DOID:4", "DOID:4"),
            case("doid_4", FOUND, "DOID:4", "read PREFIX_local"),
            case("DOID:0001816", FOUND, "DOID:0001816", ""),
            case("DOID:abc", MALFORMED, "DOID:abc", "^\\d+$"),
        ],
    );
}

/// Every identifier in the built index survives IRI → CURIE → IRI unchanged, through the
/// same normalization that answers queries.
#[test]
fn every_indexed_identifier_round_trips_iri_to_curie_to_iri() {
    let r = default_index();
    let mut failures = Vec::new();
    for id in r.concept_ids() {
        let Ok(c) = r.concept(id) else {
            failures.push(format!("concept {id} unreadable"));
            continue;
        };
        let curie = r.registry().normalize(&c.iri);
        let Some(curie) = curie.identified().map(|i| i.curie.clone()) else {
            failures.push(format!("{}: no CURIE", c.iri));
            continue;
        };
        if c.curie.as_deref() != Some(curie.as_str()) {
            failures.push(format!("{}: CURIE {curie}, indexed {:?}", c.iri, c.curie));
        }
        let back = r.registry().normalize(&curie);
        let iri = back.identified().and_then(|i| i.iri.clone());
        if iri.as_deref() != Some(c.iri.as_str())
            || r.registry().expand(&curie).as_deref() != Some(c.iri.as_str())
        {
            failures.push(format!("{}: {curie} came back as {iri:?}", c.iri));
        }
    }
    // Alternative ids are identifiers in the index too: CURIE → IRI → CURIE.
    let mut alt_ids = 0;
    for id in r.concept_ids() {
        for alt in r.concept(id).map(|c| c.alt_ids).unwrap_or_default() {
            alt_ids += 1;
            let iri = r.registry().expand(&alt);
            let back = iri.as_deref().and_then(|i| r.registry().compress(i));
            if back.as_deref() != Some(alt.as_str()) {
                failures.push(format!("alt id {alt}: IRI {iri:?} came back as {back:?}"));
            }
        }
    }
    assert!(alt_ids > 1_000, "{alt_ids}");
    assert!(r.concept_count() > 19_000);
    assert!(
        failures.is_empty(),
        "{} of {} identifiers do not round-trip:\n{}",
        failures.len(),
        r.concept_count(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The registry holds the whole Bioregistry release, and the manifest says which.
#[test]
fn the_whole_registry_release_is_data_in_the_index() {
    let r = default_index();
    let registry = &r.manifest().registry;
    let source = registry.source.as_ref().expect("registry source");
    assert_eq!(source.release, "0.15.6");
    assert_eq!(source.files.len(), 2);
    assert!(source.files.iter().all(|f| f.sha256.len() == 64));
    // 2,465 prefixes in the extended prefix map, the JSON's others, and the stand-in's own.
    assert!(registry.counts.records >= 2_465, "{:?}", registry.counts);
    assert!(
        registry.counts.uri_prefixes > 20_000,
        "{:?}",
        registry.counts
    );
    assert!(registry.counts.patterns > 1_500, "{:?}", registry.counts);
    let hp = r.registry().spelling("hp").expect("hp");
    let record = r.registry().record(hp.record).expect("record");
    assert_eq!(record.preferred, "HP");
    assert_eq!(record.sources, ["hp"]);
    assert_eq!(record.pattern.as_deref(), Some("^\\d{7}$"));
    let ncbigene = r.registry().spelling("ENTREZGENE").expect("synonym");
    assert_eq!(
        r.registry()
            .record(ncbigene.record)
            .map(|x| x.preferred.as_str()),
        Some("NCBIGene")
    );
    // A spelling the registry deprecates, folded into the prefix that took it over.
    let astd = r.registry().spelling("astd").expect("astd");
    assert!(astd.deprecated);
}

/// `ontoresolve normalize`: every input row gives one output row, in order, whatever it holds.
#[test]
fn the_normalize_command_writes_one_row_per_input_row_in_order() {
    let dir = crate::support::scratch("normalize-cli");
    let input = dir.join("ids.txt");
    let mut bytes = b"HP:0000118\nGO:GO:0008150\n\nMSH:D009203\r\nnot an id\n".to_vec();
    bytes.extend_from_slice(b"\xff\xfe broken utf-8\nHP:0000057");
    std::fs::write(&input, bytes).expect("write input");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
        .arg("normalize")
        .arg(&input)
        .arg("--index")
        .arg(crate::support::default_index_dir())
        .output()
        .expect("run normalize");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8 output");
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(
        rows[0],
        ["line", "input", "curie", "iri", "outcome", "steps"]
    );
    let body = &rows[1..];
    assert_eq!(body.len(), 7, "{text}");
    assert!(body.iter().all(|r| r.len() == 6), "{text}");
    let lines: Vec<&str> = body.iter().map(|r| r[0]).collect();
    assert_eq!(lines, ["1", "2", "3", "4", "5", "6", "7"]);
    let outcome = |i: usize| (body[i][2], body[i][4]);
    assert_eq!(outcome(0), ("HP:0000118", "found"));
    assert_eq!(body[0][3], "http://purl.obolibrary.org/obo/HP_0000118");
    assert_eq!(outcome(1), ("GO:0008150", "not_in_loaded_sources"));
    assert!(body[1][5].contains("repeated prefix"), "{text}");
    assert_eq!(outcome(2), ("", "malformed"));
    assert_eq!(outcome(3), ("MESH:D009203", "found"));
    assert_eq!(outcome(4).1, "malformed");
    assert_eq!(outcome(5).1, "malformed");
    assert_eq!(outcome(6), ("HP:0000057", "obsolete"));

    // A TSV column chosen by header name; the header is not a data row.
    let tsv = dir.join("ids.tsv");
    std::fs::write(&tsv, "mention\tid\nheight\tHP:0000002\nbroken\n").expect("write tsv");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
        .args(["normalize", "--column", "id"])
        .arg(&tsv)
        .arg("--index")
        .arg(crate::support::default_index_dir())
        .output()
        .expect("run normalize");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8 output");
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(
        (rows[0][0], rows[0][2], rows[0][4]),
        ("2", "HP:0000002", "found")
    );
    assert_eq!((rows[1][0], rows[1][4]), ("3", "malformed"));
    assert!(rows[1][5].contains("no column 2"), "{text}");
}

/// No input reaches a panic: random bytes, real spellings cut and spliced at every position,
/// separators, non-ASCII and very long strings, through both normalization and resolution.
#[test]
fn normalization_never_panics_on_hostile_input() {
    let r = default_index();
    let seeds = [
        "HP:0000118",
        "http://purl.obolibrary.org/obo/HP_0000118",
        "GO:GO:0008150",
        "https://identifiers.org/mesh:D009203",
        "ark:/53355/cl010066723",
        "urn:miriam:go:GO%3A0008150",
        "obo:HP_0000118",
        "EntrezGene:7157",
        "go.ref:GO_REF:0000001",
        "cellosaurus:CVCL_0440",
    ];
    let specials = [
        ":", "_", "/", "://", "<", ">", "\"", "é", "\u{0}", "\u{FEFF}", " ", "%3A", "ǅ", "İ",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut inputs: Vec<String> = Vec::new();
    for seed in seeds {
        for cut in 0..=seed.len() {
            if let (Some(head), Some(tail)) = (seed.get(..cut), seed.get(cut..)) {
                for special in specials {
                    inputs.push(format!("{head}{special}{tail}"));
                }
                inputs.push(head.to_string());
                inputs.push(tail.to_string());
            }
        }
    }
    for _ in 0..5_000 {
        let len = (next() % 40) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| (next() % 256) as u8).collect();
        inputs.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    inputs.push("HP:".repeat(10_000));
    inputs.push("a_".repeat(100_000));
    inputs.push(format!("https://identifiers.org/{}", "%3A".repeat(10_000)));
    inputs.push(format!(
        "http://purl.obolibrary.org/obo/HP_{}",
        "9".repeat(100_000)
    ));
    for input in &inputs {
        let n = r.registry().normalize(input);
        if let Some(id) = n.identified() {
            assert!(
                id.curie.starts_with(&format!("{}:", id.prefix)),
                "{input:?}"
            );
        }
        r.resolve_identifier(input)
            .expect("a sound index answers every input");
    }
    assert!(inputs.len() > 5_000);
}

/// Every Bioregistry example, written as `prefix:example` and as the registry's own IRI for
/// it, normalizes to `PREFERRED:example` and fits its pattern. The exceptions are the registry's
/// own data: examples with spaces (not identifiers here), and IRIs a longer URI prefix of
/// another record claims first.
#[test]
fn every_registry_example_normalizes_to_itself() {
    let r = default_index();
    let registry = r.registry();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for id in registry.record_ids() {
        let Some(record) = registry.record(id) else {
            continue;
        };
        let Some(example) = record.example.clone() else {
            continue;
        };
        if example.contains(char::is_whitespace) {
            continue;
        }
        let want = format!("{}:{example}", record.preferred);
        let mut inputs = vec![format!("{}:{example}", record.prefix)];
        if let Some(base) = &record.uri_prefix {
            inputs.push(format!("{base}{example}"));
        }
        for input in inputs {
            checked += 1;
            let n = registry.normalize(&input);
            match n.identified() {
                Some(got)
                    if got.curie == want
                        && got.pattern != ontoresolve::registry::PatternCheck::Fails => {}
                Some(got) => wrong.push(format!("{input} -> {} ({:?})", got.curie, got.pattern)),
                None => wrong.push(format!("{input} -> {:?}", n.reading)),
            }
        }
    }
    assert!(checked > 3_000, "{checked}");
    wrong.sort();
    // Bioregistry 0.15.6 gives these two records URI prefixes that end inside their own
    // examples (afo's `…result#AFR_`, prima's `…dataset#Raw…`); a longer key claims them.
    let data_quirks = [
        "http://purl.allotrope.org/ontologies/result#AFR_10001055 -> afo:10001055 (NoPattern)",
        "https://purls.helmholtz-metadaten.de/prima/dataset#RawData -> prima:RawData (NoPattern)",
    ];
    wrong.retain(|w| !data_quirks.contains(&w.as_str()));
    assert!(
        wrong.is_empty(),
        "{} of {checked} examples do not normalize to themselves:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
