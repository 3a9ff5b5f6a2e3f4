//! Shared helpers: locating real data, building indexes once per test binary, and the `check`
//! helper that runs a table of lookups and reports every failure at once.

use ontoresolve::model::WireName;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use ontoresolve::build::{BuildOptions, BuildSummary, Silent, build};
use ontoresolve::resolve::{ConceptId, Resolver};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn fixtures() -> PathBuf {
    repo().join("tests/data")
}

/// `../shared/data`, or `ONTORESOLVE_SHARED_DATA`; `None` (with the reason printed) when absent.
pub fn shared_data() -> Option<PathBuf> {
    let dir = std::env::var_os("ONTORESOLVE_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared/data"));
    if dir.join("MANIFEST.md").is_file() {
        Some(dir)
    } else {
        skip(
            Missing::Data,
            format_args!(
                "real data not found at {} (set ONTORESOLVE_SHARED_DATA)",
                dir.display()
            ),
        );
        None
    }
}

/// What a skipped test lacks.
#[derive(Clone, Copy, Debug)]
pub enum Missing {
    /// Real data from `../shared/data`: required when `ONTORESOLVE_REQUIRE_DATA` is set.
    Data,
    /// An external client (the Python SDK, sssom-py, the conformance suite): required when
    /// `ONTORESOLVE_REQUIRE_CLIENTS` is set.
    Client,
}

/// Prints why a test skips, or fails it when what it lacks is required: in CI a skipped test
/// would hide a regression.
pub fn skip(missing: Missing, reason: impl std::fmt::Display) {
    let variable = match missing {
        Missing::Data => "ONTORESOLVE_REQUIRE_DATA",
        Missing::Client => "ONTORESOLVE_REQUIRE_CLIENTS",
    };
    assert!(
        std::env::var_os(variable).is_none(),
        "{reason}, and {variable} is set"
    );
    eprintln!("SKIPPED: {reason}");
}

/// The Python of the test clients (`ONTORESOLVE_PYTHON`, else the venv
/// `scripts/setup-clients` makes in `/var/tmp/ontoresolve-venv`) if it can import `module`;
/// otherwise the test skips (see [`skip`]) and this is `None`.
pub fn python_with(module: &str) -> Option<PathBuf> {
    let python = std::env::var_os("ONTORESOLVE_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/var/tmp/ontoresolve-venv/bin/python"));
    let ok = std::process::Command::new(&python)
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        skip(
            Missing::Client,
            format_args!(
                "Python module {module} is not installed for {} (run scripts/setup-clients)",
                python.display()
            ),
        );
    }
    ok.then_some(python)
}

/// A scratch directory under cargo's per-target temp dir, emptied first.
/// A turn for work that takes both cores for a minute (an add test's build), or that must not
/// share them with such work (a query near its deadline): one holder at a time.
pub fn heavy_turn() -> std::sync::MutexGuard<'static, ()> {
    static HEAVY: Mutex<()> = Mutex::new(());
    HEAVY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("ontoresolve-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

pub fn build_into(catalog: &Path, index_dir: &Path) -> BuildSummary {
    build(
        &BuildOptions {
            catalog: catalog.to_path_buf(),
            index_dir: index_dir.to_path_buf(),
            keep_going: false,
        },
        &Silent,
    )
    .unwrap_or_else(|e| panic!("build of {} failed: {e}", catalog.display()))
}

/// Writes a one-source catalogue for a file outside the repository.
pub fn single_source_catalog(
    dir: &Path,
    id: &str,
    kind: &str,
    file: &Path,
    extra: &str,
) -> PathBuf {
    let path = dir.join(format!("{id}.toml"));
    let text = format!(
        "[[source]]\nid = \"{id}\"\ntitle = \"{id}\"\nkind = \"{kind}\"\npath = \"{}\"\nlicense = \"test\"\nattribution = \"test\"\nhomepage = \"https://example.org\"\nscope = \"test\"\n{extra}\n",
        file.display()
    );
    std::fs::write(&path, text).expect("write catalogue");
    path
}

/// Writes a catalogue with the fixture sources followed by one more source.
pub fn fixtures_plus_source(dir: &Path, id: &str, kind: &str, file: &Path, extra: &str) -> PathBuf {
    let one = single_source_catalog(dir, id, kind, file, extra);
    let fixtures_toml = std::fs::read_to_string(fixtures().join("fixtures.toml")).expect("read");
    let text = fixtures_toml.replace("path = \"", &format!("path = \"{}/", fixtures().display()))
        + "\n"
        + &std::fs::read_to_string(&one).expect("read");
    let path = dir.join("catalog.toml");
    std::fs::write(&path, text).expect("write catalogue");
    path
}

/// Builds each named index at most once per test binary and shares the resolver.
/// `make` builds into the scratch directory it is given and returns the index directory.
pub fn shared_index(
    name: &str,
    make: impl FnOnce(&Path) -> Option<PathBuf>,
) -> Option<&'static Resolver> {
    type Built = Vec<(String, Option<&'static Resolver>)>;
    static INDEXES: OnceLock<Mutex<Built>> = OnceLock::new();
    let lock = INDEXES.get_or_init(|| Mutex::new(Vec::new()));
    let mut built = lock.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, r)) = built.iter().find(|(n, _)| n == name) {
        return *r;
    }
    let dir = scratch(&format!("shared-{name}"));
    let resolver = make(&dir).map(|index| {
        let r = Resolver::open(&index).expect("open built index");
        &*Box::leak(Box::new(r))
    });
    built.push((name.to_string(), resolver));
    resolver
}

/// The HPO index from the bundled catalogue entry.
pub fn hpo() -> &'static Resolver {
    shared_index("hpo", |dir| {
        let file = repo().join("ontologies/hp-2025-01-16.obo.gz");
        let catalog = single_source_catalog(
            dir,
            "hp",
            "obo",
            &file,
            "prefixes = [{ prefix = \"HP\", uri_prefix = \"http://purl.obolibrary.org/obo/HP_\" }]",
        );
        build_into(&catalog, &dir.join("index"));
        Some(dir.join("index"))
    })
    .expect("HPO is bundled")
}

/// The index of the bundled catalogue: HPO, the SKOS stand-in and the Bioregistry.
pub fn default_index() -> &'static Resolver {
    shared_index("default", |dir| {
        build_into(&repo().join("ontologies/sources.toml"), &dir.join("index"));
        Some(dir.join("index"))
    })
    .expect("the default catalogue is bundled")
}

/// [`default_index`] read without its confidence model: the match-kind ranking alone, no
/// corpus names and no uncertain spans, for tests of how names are read.
pub fn default_index_unweighed() -> &'static Resolver {
    static R: OnceLock<Resolver> = OnceLock::new();
    R.get_or_init(|| Resolver::open_unweighed(&default_index_dir()).expect("open"))
}

/// Where [`default_index`] is built, for tests that run the binary on it.
pub fn default_index_dir() -> PathBuf {
    default_index();
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("ontoresolve-tests")
        .join("shared-default")
        .join("index")
}

/// HPO and the Human Disease Ontology (from the shared data) with the Bioregistry: two loaded
/// namespaces whose local ids overlap. `None` when the shared data is absent.
pub fn hp_and_doid() -> Option<&'static Resolver> {
    let data = shared_data()?;
    shared_index("hp-doid", |dir| {
        let ontologies = repo().join("ontologies");
        let catalog = dir.join("catalog.toml");
        let text = format!(
            r#"[registry]
id = "bioregistry"
title = "Bioregistry"
json = "{o}/bioregistry-0.15.6.json.gz"
prefix_map = "{o}/bioregistry-0.15.6.epm.json"
release = "0.15.6"
license = "CC0"
attribution = "Bioregistry"
homepage = "https://bioregistry.io"

[[source]]
id = "hp"
title = "HPO"
kind = "obo"
path = "{o}/hp-2025-01-16.obo.gz"
prefixes = [{{ prefix = "HP", uri_prefix = "http://purl.obolibrary.org/obo/HP_" }}]
license = "test"
attribution = "test"
homepage = "https://hpo.jax.org"
scope = "test"

[[source]]
id = "doid"
title = "Human Disease Ontology"
kind = "obo"
path = "{d}/obo/doid-2024-01-31.obo.gz"
prefixes = [{{ prefix = "DOID", uri_prefix = "http://purl.obolibrary.org/obo/DOID_" }}]
license = "CC0"
attribution = "test"
homepage = "https://disease-ontology.org"
scope = "test"
"#,
            o = ontologies.display(),
            d = data.display()
        );
        std::fs::write(&catalog, text).expect("write catalogue");
        build_into(&catalog, &dir.join("index"));
        Some(dir.join("index"))
    })
}

/// What `resolve_identifier` must answer for one input.
pub struct IdCase<'a> {
    pub input: &'a str,
    /// found, obsolete, not_in_loaded_sources, malformed, unknown_prefix or ambiguous_input.
    pub outcome: &'a str,
    /// The canonical CURIE after normalization ("" when there is none).
    pub curie: &'a str,
    /// Text that must appear in the steps or the outcome's details ("" for no check).
    pub note: &'a str,
}

/// The steps and the outcome's details of an answer, as one string to search.
fn describe(resolver: &Resolver, outcome: &ontoresolve::resolve::Outcome) -> String {
    use ontoresolve::resolve::Outcome;
    let curie = |id: ConceptId| {
        (resolver.concept(id).expect("the index reads"))
            .curie
            .unwrap_or_default()
    };
    match outcome {
        Outcome::Found(m) => m
            .iter()
            .map(|m| curie(m.concept))
            .collect::<Vec<_>>()
            .join(" "),
        Outcome::Obsolete {
            chains, consider, ..
        } => format!(
            "chain {} consider {}",
            chains
                .iter()
                .map(|chain| chain
                    .steps
                    .iter()
                    .map(|s| s.concept.map(curie).unwrap_or_else(|| s.iri.clone()))
                    .collect::<Vec<_>>()
                    .join(" > "))
                .collect::<Vec<_>>()
                .join(" | "),
            consider.join(" ")
        ),
        Outcome::NotInLoadedSources {
            prefix,
            catalogued,
            loaded,
            resolver_url,
            deprecated_prefix,
            pattern,
            ..
        } => format!(
            "prefix {prefix} catalogued {catalogued:?} loaded {loaded:?} resolver {} deprecated {deprecated_prefix} pattern {pattern:?}",
            resolver_url.as_deref().unwrap_or("-")
        ),
        Outcome::Malformed {
            reason,
            expected,
            example,
        } => format!(
            "{reason} expected {} example {}",
            expected.as_deref().unwrap_or("-"),
            example.as_deref().unwrap_or("-")
        ),
        Outcome::UnknownPrefix {
            prefix,
            suggestions,
            namespace,
        } => format!(
            "{} {prefix} suggestions {}",
            if *namespace { "namespace" } else { "prefix" },
            suggestions.join(" ")
        ),
        Outcome::NotInRelease { release, .. } => format!("not in release {release}"),
        Outcome::Ambiguous { readings, .. } => readings
            .iter()
            .map(|r| {
                format!(
                    "{}{}",
                    r.curie,
                    if r.concept.is_some() { "(found)" } else { "" }
                )
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Runs every identifier case and fails once, listing each case that did not hold.
pub fn check_identifiers(resolver: &Resolver, cases: &[IdCase<'_>]) {
    let mut failures = Vec::new();
    for case in cases {
        let (normalized, outcome) = resolver
            .resolve_identifier(case.input)
            .expect("a sound index answers");
        let details = describe(resolver, &outcome);
        let steps = normalized
            .steps
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ");
        let curie = normalized.curie.as_deref().unwrap_or("");
        let mut wrong = Vec::new();
        if outcome.wire_name() != case.outcome {
            wrong.push(format!(
                "outcome {}, want {}",
                outcome.wire_name(),
                case.outcome
            ));
        }
        if curie != case.curie {
            wrong.push(format!("curie {curie:?}, want {:?}", case.curie));
        }
        if !case.note.is_empty() && !steps.contains(case.note) && !details.contains(case.note) {
            wrong.push(format!("no {:?} in the steps or details", case.note));
        }
        if !wrong.is_empty() {
            failures.push(format!(
                "  {:?}: {}
      steps: {steps}
      details: {details}",
                case.input,
                wrong.join(", ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// What a lookup must find.
pub enum Expect<'a> {
    /// Resolves as an identifier to this IRI.
    Id(&'a str),
    /// The first exact label match is this IRI, through a label of this kind.
    Label(&'a str, &'a str),
    /// Some fuzzy match at this distance is this IRI.
    Fuzzy(&'a str, u8),
    /// The best full-text hit is this IRI.
    Text(&'a str),
    /// Nothing matches as an identifier.
    NoId,
}

/// Runs every case and fails once, listing each case that did not hold.
pub fn check(resolver: &Resolver, cases: &[(&str, Expect<'_>)]) {
    let iri = |id: ConceptId| resolver.concept(id).map(|c| c.iri).unwrap_or_default();
    let mut failures = Vec::new();
    for (query, expect) in cases {
        let outcome = match expect {
            Expect::Id(want) => {
                let got: Vec<String> = resolver
                    .lexicon()
                    .lookup_id(query)
                    .expect("the index reads")
                    .iter()
                    .map(|m| iri(m.concept))
                    .collect();
                (got.iter().any(|g| g == want))
                    .then_some(())
                    .ok_or(format!("id lookup gave {got:?}, want {want}"))
            }
            Expect::Label(want, kind) => {
                let got = resolver
                    .lexicon()
                    .lookup_label(query)
                    .expect("the index reads");
                match got.first() {
                    Some(m) if iri(m.concept) == *want && m.label.kind.wire_name() == *kind => {
                        Ok(())
                    }
                    _ => Err(format!(
                        "label lookup gave {:?}, want {want} via {kind}",
                        got.iter()
                            .map(|m| (iri(m.concept), m.label.kind.wire_name()))
                            .collect::<Vec<_>>()
                    )),
                }
            }
            Expect::Fuzzy(want, distance) => {
                let got = resolver
                    .lexicon()
                    .fuzzy(query, 2, 20)
                    .expect("the index reads");
                got.iter()
                    .any(|m| iri(m.concept) == *want && m.distance == *distance)
                    .then_some(())
                    .ok_or(format!(
                        "fuzzy gave {:?}, want {want} at distance {distance}",
                        got.iter()
                            .map(|m| (iri(m.concept), m.distance))
                            .collect::<Vec<_>>()
                    ))
            }
            Expect::Text(want) => {
                let (hits, _) = resolver
                    .lexicon()
                    .search(query, None, 5)
                    .expect("search runs");
                match hits.first() {
                    Some(h) if iri(h.concept) == *want => Ok(()),
                    _ => Err(format!(
                        "full text gave {:?}, want {want}",
                        hits.iter().map(|h| iri(h.concept)).collect::<Vec<_>>()
                    )),
                }
            }
            Expect::NoId => {
                let got = resolver
                    .lexicon()
                    .lookup_id(query)
                    .expect("the index reads");
                got.is_empty().then_some(()).ok_or(format!(
                    "expected no identifier match, got {} matches",
                    got.len()
                ))
            }
        };
        if let Err(why) = outcome {
            failures.push(format!("  {query:?}: {why}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// A wire concept's IRI: its `iri`, else its CURIE expanded through the registry (answers
/// leave out an IRI the CURIE gives).
pub fn concept_iri(r: &Resolver, concept: &serde_json::Value) -> String {
    use ontoresolve::model::Prefixes;
    match (concept["iri"].as_str(), concept["curie"].as_str()) {
        (Some(iri), _) => iri.to_string(),
        (None, Some(curie)) => r.registry().expand(curie).unwrap_or_default(),
        (None, None) => String::new(),
    }
}
