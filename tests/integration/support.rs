//! Shared helpers: locating real data, building indexes once per test binary, and the `check`
//! helper that runs a table of lookups and reports every failure at once.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use ontoresolve::build::{BuildOptions, BuildSummary, Silent, build};
use ontoresolve::resolve::Resolver;

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
        eprintln!(
            "SKIPPED: real data not found at {} (set ONTORESOLVE_SHARED_DATA)",
            dir.display()
        );
        None
    }
}

/// A scratch directory under cargo's per-target temp dir, emptied first.
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
    let iri = |id: u32| resolver.concept(id).map(|c| c.iri).unwrap_or_default();
    let mut failures = Vec::new();
    for (query, expect) in cases {
        let outcome = match expect {
            Expect::Id(want) => {
                let got: Vec<String> = resolver
                    .lookup_id(query)
                    .iter()
                    .map(|m| iri(m.concept))
                    .collect();
                (got.iter().any(|g| g == want))
                    .then_some(())
                    .ok_or(format!("id lookup gave {got:?}, want {want}"))
            }
            Expect::Label(want, kind) => {
                let got = resolver.lookup_label(query);
                match got.first() {
                    Some(m) if iri(m.concept) == *want && m.label.kind.as_str() == *kind => Ok(()),
                    _ => Err(format!(
                        "label lookup gave {:?}, want {want} via {kind}",
                        got.iter()
                            .map(|m| (iri(m.concept), m.label.kind.as_str()))
                            .collect::<Vec<_>>()
                    )),
                }
            }
            Expect::Fuzzy(want, distance) => {
                let got = resolver.fuzzy(query, 2, 20);
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
                let (hits, _) = resolver.search(query, 5).expect("search runs");
                match hits.first() {
                    Some(h) if iri(h.concept) == *want => Ok(()),
                    _ => Err(format!(
                        "full text gave {:?}, want {want}",
                        hits.iter().map(|h| iri(h.concept)).collect::<Vec<_>>()
                    )),
                }
            }
            Expect::NoId => {
                let got = resolver.lookup_id(query);
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
