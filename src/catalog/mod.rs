//! The source catalogue (`ontologies/sources.toml`): what to load, from where, and under which
//! licence.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub mod edit;
mod format;

use crate::model::PrefixRule;
pub use format::{Format, MappingFormat, RdfSyntax, TableFormat, strip_compression};

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("{}: cannot read the catalogue: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `line` is the line of the entry at fault (1-based), when one is.
    #[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Invalid {
        path: PathBuf,
        line: Option<usize>,
        message: String,
    },
}

/// What kind of vocabulary a source is; decides which resources count as concepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    Obo,
    Owl,
    Skos,
    /// MeSH: descriptors, supplementary concept records and qualifiers, from NLM's RDF or from
    /// the descriptor and supplementary tables.
    Mesh,
    /// Gene identifiers from a table (HGNC, NCBI Gene `gene_info`).
    Gene,
    /// A mapping set: SSSOM TSV, or gilda's MeSH mappings. Each file is its own set.
    Sssom,
}

impl SourceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Obo => "obo",
            SourceKind::Owl => "owl",
            SourceKind::Skos => "skos",
            SourceKind::Mesh => "mesh",
            SourceKind::Gene => "gene",
            SourceKind::Sssom => "sssom",
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceSpec {
    pub id: String,
    pub title: String,
    pub kind: SourceKind,
    /// obo, turtle, ntriples, rdfxml, mesh-tsv, hgnc-tsv, gene-info, compact-json or
    /// obographs-json (for obo and owl sources); guessed from the file name when absent (never
    /// for JSON).
    #[serde(default)]
    pub format: Option<String>,
    /// Relative to the catalogue file.
    pub path: PathBuf,
    /// Further files of the same source and format (MeSH's supplementary table), read after
    /// `path`.
    #[serde(default)]
    pub more_paths: Vec<PathBuf>,
    /// Where to download it, for users with the web.
    #[serde(default)]
    pub url: Option<String>,
    /// Whether the file ships in `ontologies/`; an absent unbundled file is skipped, not an error.
    #[serde(default = "yes")]
    pub bundled: bool,
    /// The release used when the file states none.
    #[serde(default)]
    pub release: Option<String>,
    /// The SHA-256 of `path` as `ontoresolve add` downloaded it; the build refuses a file
    /// that no longer matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    #[serde(default)]
    pub base_iri: Option<String>,
    /// rdf:type IRIs that mark a concept, replacing the kind's default (owl:Class for OBO and
    /// OWL, skos:Concept for SKOS).
    #[serde(default)]
    pub concept_types: Vec<String>,
    #[serde(default)]
    pub prefixes: Vec<PrefixRule>,
    /// The prefix the source's terms are known by when its `prefixes` name none (OLS's
    /// `preferredPrefix`): an ontology whose IRIs are not CURIE-shaped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_prefix: Option<String>,
    /// IRI prefixes of the terms the source defines, beside its prefixes' URI prefixes (OLS's
    /// `base_uri`); a term outside them is one it imports or cites.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub base_uris: Vec<String>,
    /// Relations that place a term under another beside `is_a` (OLS's
    /// `hierarchical_property`, such as part_of, BFO:0000050), read where OWL states them:
    /// `rdfs:subClassOf [owl:onProperty P; owl:someValuesFrom X]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hierarchical_properties: Vec<String>,
    pub license: String,
    pub attribution: String,
    pub homepage: String,
    pub scope: String,
    /// The semantic group of the source's concepts when their own structure does not say
    /// (MeSH's trees do, a gene table's genes are genes): `disease` for MONDO, `phenotype` for
    /// HPO. Default `other`.
    #[serde(default)]
    pub group: Option<crate::model::SemanticGroup>,
    /// Mapping sets: the set id when the file states none (gilda's plain TSV).
    #[serde(default)]
    pub mapping_set_id: Option<String>,
    /// Mapping sets: the rows are predictions or undecided, not curated mappings; they are
    /// left out of answers unless asked for.
    #[serde(default)]
    pub predicted: bool,
    /// Mapping sets: the tool that made the rows, when the file does not say (gilda).
    #[serde(default)]
    pub mapping_tool: Option<String>,
    /// Mapping sets: an external `.sssom.yml` with the set's metadata.
    #[serde(default)]
    pub metadata: Option<PathBuf>,
}

fn yes() -> bool {
    true
}

/// The name variant rules (`[names]`): word lists for plurals, spellings and head words.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamesSpec {
    /// Relative to the catalogue file.
    pub rules: PathBuf,
}

/// The confidence model (`[confidence]`): the weights `ontoresolve train` fitted.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfidenceSpec {
    /// Relative to the catalogue file.
    pub model: PathBuf,
}

/// The prefix registry's input: the Bioregistry JSON dump and its extended prefix map.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegistrySpec {
    pub id: String,
    pub title: String,
    /// The JSON dump (gzip or plain), relative to the catalogue file.
    pub json: PathBuf,
    /// The extended prefix map (JSON), relative to the catalogue file.
    pub prefix_map: PathBuf,
    pub release: String,
    #[serde(default)]
    pub url: Option<String>,
    pub license: String,
    pub attribution: String,
    pub homepage: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    /// Without it, the registry holds only the prefixes the sources declare.
    #[serde(default)]
    pub registry: Option<RegistrySpec>,
    /// Without it, names are only folded for case and punctuation (no variant lexicon).
    #[serde(default)]
    pub names: Option<NamesSpec>,
    /// Without it, candidates and mentions carry no confidence, and none is `uncertain`.
    #[serde(default)]
    pub confidence: Option<ConfidenceSpec>,
    #[serde(rename = "source", default)]
    pub sources: Vec<SourceSpec>,
    #[serde(skip)]
    pub dir: PathBuf,
}

impl SourceSpec {
    pub fn format(&self) -> Option<Format> {
        match &self.format {
            Some(name) => Format::from_name(name),
            None => Format::from_path(&self.path),
        }
    }
}

/// The 1-based line of a byte offset.
fn line_at(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The line of each `[[source]]` header, in order: where each entry's errors point.
fn source_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| line.trim_start().starts_with("[[source]]"))
        .map(|(n, _)| n + 1)
        .collect()
}

impl Catalog {
    pub fn load(path: &Path) -> Result<Catalog, CatalogError> {
        let text = std::fs::read_to_string(path).map_err(|source| CatalogError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut catalog: Catalog = toml::from_str(&text).map_err(|e| CatalogError::Invalid {
            path: path.to_path_buf(),
            line: e.span().map(|span| line_at(&text, span.start)),
            message: e.message().to_string(),
        })?;
        catalog.dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        catalog.validate(path, &source_lines(&text))?;
        Ok(catalog)
    }

    /// Checks every entry; `lines` holds each `[[source]]` entry's line, in order.
    fn validate(&self, path: &Path, lines: &[usize]) -> Result<(), CatalogError> {
        let mut ids: std::collections::HashMap<&str, Vec<usize>> = std::collections::HashMap::new();
        for (at, source) in self.sources.iter().enumerate() {
            let invalid = |message: String| CatalogError::Invalid {
                path: path.to_path_buf(),
                line: lines.get(at).copied(),
                message,
            };
            let ok_id = !source.id.is_empty()
                && source
                    .id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.');
            if !ok_id {
                return Err(invalid(format!(
                    "source id '{}' must be letters, digits, '-', '_' or '.'",
                    source.id
                )));
            }
            if let Some(release) = &source.release
                && let Err(problem) = crate::model::check_release(release)
            {
                return Err(invalid(format!(
                    "source '{}': release '{}': {problem}",
                    source.id,
                    release.escape_debug()
                )));
            }
            let earlier: &[usize] = ids.get(source.id.as_str()).map_or(&[], Vec::as_slice);
            for &before in earlier {
                if let Some(problem) = release_clash(&self.sources[before], source) {
                    let line = lines
                        .get(before)
                        .map(|l| format!(" (first at line {l})"))
                        .unwrap_or_default();
                    return Err(invalid(format!(
                        "source id '{}' appears twice{line}: {problem}",
                        source.id
                    )));
                }
            }
            ids.entry(source.id.as_str()).or_default().push(at);
            if source.format().is_none() {
                return Err(invalid(format!(
                    "source '{}': unknown format; use obo, turtle, ntriples, rdfxml, mesh-tsv, hgnc-tsv, gene-info, compact-json, obographs-json, sssom-tsv or gilda-tsv",
                    source.id
                )));
            }
            if let Some(problem) = source.format().and_then(|f| f.fits_kind(source.kind)) {
                return Err(invalid(format!("source '{}': {problem}", source.id)));
            }
            if !source.more_paths.is_empty()
                && !matches!(
                    source.format(),
                    Some(Format::Table(_) | Format::Mappings(_))
                )
            {
                return Err(invalid(format!(
                    "source '{}': more_paths is for table and mapping-set formats only",
                    source.id
                )));
            }
        }
        Ok(())
    }

    /// Whether entry `at` is the current release of its source among the entries `loadable`
    /// says can be read: the newest by release date where every release is a date, else the
    /// last in catalogue order.
    pub fn is_current(&self, at: usize, loadable: impl Fn(usize) -> bool) -> bool {
        let Some(spec) = self.sources.get(at) else {
            return false;
        };
        let same: Vec<usize> = (0..self.sources.len())
            .filter(|&i| self.sources[i].id == spec.id && loadable(i))
            .collect();
        let releases: Vec<&str> = same
            .iter()
            .map(|&i| self.sources[i].release.as_deref().unwrap_or(""))
            .collect();
        crate::model::newest_release(&releases).and_then(|i| same.get(i).copied()) == Some(at)
    }

    /// A path written in the catalogue, resolved against the catalogue's directory.
    pub fn resolve(&self, path: &Path) -> PathBuf {
        self.dir.join(path)
    }

    /// The file of a source, resolved against the catalogue's directory.
    pub fn file(&self, source: &SourceSpec) -> PathBuf {
        self.dir.join(&source.path)
    }

    /// Every file of a source in reading order: `path`, then `more_paths`.
    pub fn files(&self, source: &SourceSpec) -> Vec<PathBuf> {
        std::iter::once(&source.path)
            .chain(&source.more_paths)
            .map(|p| self.dir.join(p))
            .collect()
    }
}

/// Why two entries with one id cannot be two releases of one source: each must state its
/// release, the releases must differ, and both must declare the same prefixes.
fn release_clash(earlier: &SourceSpec, later: &SourceSpec) -> Option<String> {
    match (&earlier.release, &later.release) {
        (Some(a), Some(b)) if a == b => Some(format!("both entries are release '{a}'")),
        (Some(_), Some(_)) if earlier.prefixes != later.prefixes => {
            Some("releases of one source must declare the same prefixes".into())
        }
        (Some(_), Some(_)) => None,
        _ => Some("releases of one source must each state `release`".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(text: &str) -> Result<Catalog, CatalogError> {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("sources.toml");
        std::fs::write(&path, text).expect("write catalogue");
        Catalog::load(&path)
    }

    const ENTRY: &str = "[[source]]\nid = \"hp\"\ntitle = \"HPO\"\nkind = \"obo\"\npath = \"hp.obo\"\nlicense = \"x\"\nattribution = \"x\"\nhomepage = \"x\"\nscope = \"x\"\n";

    #[test]
    fn a_repeated_source_id_names_the_file_and_both_lines() {
        let text = format!("# catalogue\n\n{ENTRY}\n{ENTRY}");
        let error = load_text(&text).expect_err("repeated id").to_string();
        assert!(error.contains("sources.toml:13:"), "{error}");
        assert!(error.contains("first at line 3"), "{error}");
        assert!(error.contains("must each state `release`"), "{error}");
    }

    fn release(release: &str, prefix: &str) -> String {
        ENTRY.replace(
            "scope = \"x\"\n",
            &format!(
                "scope = \"x\"\nrelease = \"{release}\"\nprefixes = [{{ prefix = \"{prefix}\", uri_prefix = \"http://x/{prefix}_\" }}]\n"
            ),
        )
    }

    #[test]
    fn one_id_with_two_releases_is_two_releases_of_one_source_and_the_newer_is_current() {
        let text = format!(
            "{}{}",
            release("2026-05-05", "HP"),
            release("2025-02-04", "HP")
        );
        let catalog = load_text(&text).expect("two releases");
        assert!(catalog.is_current(0, |_| true));
        assert!(!catalog.is_current(1, |_| true));
        assert!(catalog.is_current(1, |i| i == 1), "the newest loadable one");
    }

    #[test]
    fn two_releases_that_clash_name_both_entries_and_why() {
        let same = format!("{}{}", release("2025", "HP"), release("2025", "HP"));
        let error = load_text(&same).expect_err("same release").to_string();
        assert!(
            error.contains("sources.toml:12:") && error.contains("first at line 1"),
            "{error}"
        );
        assert!(error.contains("both entries are release '2025'"), "{error}");
        let third = format!(
            "{}{}{}",
            release("2024", "HP"),
            release("2025", "HP"),
            release("2025", "HP")
        );
        let error = load_text(&third)
            .expect_err("third repeats the second")
            .to_string();
        assert!(error.contains("both entries are release '2025'"), "{error}");
        let prefixes = format!("{}{}", release("2024", "HP"), release("2025", "XP"));
        let error = load_text(&prefixes)
            .expect_err("prefixes differ")
            .to_string();
        assert!(error.contains("same prefixes"), "{error}");
        let control = release("20\\u0007", "HP");
        let error = load_text(&control).expect_err("bad release").to_string();
        assert!(error.contains("date or version"), "{error}");
    }

    #[test]
    fn a_toml_syntax_error_names_the_file_and_line() {
        let error = load_text("\n\n[[source]]\nid = \n")
            .expect_err("syntax")
            .to_string();
        assert!(error.contains("sources.toml:4:"), "{error}");
    }
}
