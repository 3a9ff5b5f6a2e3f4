//! Parsers per format, each streaming triples into a [`TripleSink`], and the concept
//! [`extract::Extractor`] that turns a triple stream into concepts.
//!
//! Every input is parsed exactly once: the build's sink hands each triple both to the store and
//! to the extractor.

pub mod error;
pub mod extract;
pub mod input;
pub mod mesh_rdf;
pub mod obo;
pub mod rdf;
pub mod sssom;
pub mod tables;
pub mod vocab;

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

use oxigraph::model::Triple;

pub use error::{IngestError, Location};
pub use extract::{ExtractStats, Extractor, FileRelease, Profile};

use crate::model::{Concept, Link, Prefixes};

/// An RDF concrete syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RdfSyntax {
    Turtle,
    NTriples,
    RdfXml,
}

/// A table format, read row by row into concepts (and written to the store as triples).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// MeSH descriptor and supplementary-record tables (no header; id, label, terms, trees or
    /// mapped-to).
    MeshTsv,
    /// HGNC's gene table with its header line.
    HgncTsv,
    /// NCBI Gene `gene_info` with its `#tax_id` header line.
    GeneInfo,
    /// The compact JSON of cellxgene-ontology-guide (MONDO): one object keyed by CURIE, each
    /// term with its label, synonyms, ancestors by depth, deprecation and replacements.
    CompactJson,
}

/// A file format the build can read (gzip- or zstd-compressed or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Obo,
    Rdf(RdfSyntax),
    Table(TableFormat),
    Mappings(MappingFormat),
}

/// A mapping-set format; each file is one set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MappingFormat {
    /// SSSOM TSV with its YAML header.
    SssomTsv,
    /// gilda's MeSH mappings: six columns, no header.
    GildaTsv,
}

impl Format {
    /// Parses a catalogue `format` value.
    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name.to_ascii_lowercase().as_str() {
            "obo" => Format::Obo,
            "turtle" | "ttl" => Format::Rdf(RdfSyntax::Turtle),
            "ntriples" | "n-triples" | "nt" => Format::Rdf(RdfSyntax::NTriples),
            "rdfxml" | "rdf/xml" | "owl" | "rdf" | "xml" => Format::Rdf(RdfSyntax::RdfXml),
            "mesh-tsv" => Format::Table(TableFormat::MeshTsv),
            "hgnc-tsv" => Format::Table(TableFormat::HgncTsv),
            "gene-info" | "gene_info" => Format::Table(TableFormat::GeneInfo),
            "compact-json" => Format::Table(TableFormat::CompactJson),
            "sssom-tsv" | "sssom" => Format::Mappings(MappingFormat::SssomTsv),
            "gilda-tsv" => Format::Mappings(MappingFormat::GildaTsv),
            _ => return None,
        })
    }

    /// Why this format cannot serve a source of `kind`, if it cannot.
    pub fn fits_kind(self, kind: crate::catalog::SourceKind) -> Option<&'static str> {
        use crate::catalog::SourceKind;
        match (self, kind) {
            (Format::Table(TableFormat::MeshTsv), SourceKind::Mesh) => None,
            (Format::Table(TableFormat::HgncTsv | TableFormat::GeneInfo), SourceKind::Gene) => None,
            (Format::Table(TableFormat::CompactJson), SourceKind::Obo | SourceKind::Owl) => None,
            (Format::Table(_), _) => Some("this table format does not fit the source's kind"),
            (Format::Mappings(_), SourceKind::Sssom) => None,
            (Format::Mappings(_), _) | (_, SourceKind::Sssom) => {
                Some("mapping sets (sssom-tsv, gilda-tsv) go with kind = \"sssom\" and only there")
            }
            (_, SourceKind::Gene) => {
                Some("gene sources are read from tables (hgnc-tsv, gene-info)")
            }
            (Format::Obo, SourceKind::Mesh) => Some("MeSH is read from NLM's RDF or from mesh-tsv"),
            _ => None,
        }
    }

    /// Guesses the format from a file name, ignoring a `.gz` or `.zst` suffix. A `.json` file
    /// is not guessed: OBO Graphs, JSON-LD and the compact JSON all end so, and only the
    /// catalogue's `format` can tell them apart.
    pub fn from_path(path: &Path) -> Option<Format> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let name = strip_compression(&name);
        if name.ends_with(".sssom.tsv") {
            return Some(Format::Mappings(MappingFormat::SssomTsv));
        }
        let ext = name.rsplit_once('.')?.1;
        Format::from_name(ext)
    }
}

/// A file name without its compression suffix (`.gz`, `.zst`), which the opener detects by
/// magic number anyway.
pub fn strip_compression(name: &str) -> &str {
    name.strip_suffix(".gz")
        .or_else(|| name.strip_suffix(".zst"))
        .unwrap_or(name)
}

/// A release a file states outside its triples (OBO `data-version`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatedRelease {
    pub value: String,
    pub property: &'static str,
}

/// Receives a source's triples as they are parsed.
pub trait TripleSink {
    fn triple(&mut self, triple: Triple) -> Result<(), IngestError>;
    fn stated_release(&mut self, release: StatedRelease);
}

/// Parses one file of the given format into `sink`.
pub fn parse(
    input: impl BufRead,
    file: &Path,
    format: Format,
    base_iri: Option<&str>,
    prefixes: &dyn Prefixes,
    sink: &mut impl TripleSink,
) -> Result<(), IngestError> {
    match format {
        Format::Obo => obo::parse(input, file, prefixes, sink),
        Format::Rdf(syntax) => rdf::parse(input, file, syntax, base_iri, sink),
        Format::Table(_) => Err(IngestError::Invalid {
            file: file.to_path_buf(),
            message: "a table is read by ingest::tables, not as triples".into(),
        }),
        Format::Mappings(_) => Err(IngestError::Invalid {
            file: file.to_path_buf(),
            message: "a mapping set is read by ingest::sssom, not as triples".into(),
        }),
    }
}

/// Children from parents, among concepts sorted by IRI.
pub(crate) fn fill_children(concepts: &mut [Concept]) {
    let mut children: BTreeMap<String, Vec<Link>> = BTreeMap::new();
    for concept in concepts.iter() {
        for parent in &concept.parents {
            children.entry(parent.iri.clone()).or_default().push(Link {
                iri: concept.iri.clone(),
                kind: parent.kind,
                prov: parent.prov,
            });
        }
    }
    for (parent, links) in children {
        if let Ok(at) = concepts.binary_search_by(|c| c.iri.as_str().cmp(&parent))
            && let Some(concept) = concepts.get_mut(at)
        {
            concept.children = links;
        }
    }
}
