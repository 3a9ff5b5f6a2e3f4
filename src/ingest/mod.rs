//! Parsers per format, each streaming triples into a [`TripleSink`], and the concept
//! [`extract::Extractor`] that turns a triple stream into concepts.
//!
//! Every input is parsed exactly once: the build's sink hands each triple both to the store and
//! to the extractor.

pub mod error;
pub mod extract;
pub mod input;
pub mod obo;
pub mod rdf;
pub mod vocab;

use std::io::BufRead;
use std::path::Path;

use oxigraph::model::Triple;

pub use error::{IngestError, Location};
pub use extract::{ExtractStats, Extractor, FileRelease};

use crate::model::Prefixes;

/// An RDF concrete syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RdfSyntax {
    Turtle,
    NTriples,
    RdfXml,
}

/// A file format the build can read (gzip-compressed or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Obo,
    Rdf(RdfSyntax),
}

impl Format {
    /// Parses a catalogue `format` value.
    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name.to_ascii_lowercase().as_str() {
            "obo" => Format::Obo,
            "turtle" | "ttl" => Format::Rdf(RdfSyntax::Turtle),
            "ntriples" | "n-triples" | "nt" => Format::Rdf(RdfSyntax::NTriples),
            "rdfxml" | "rdf/xml" | "owl" | "rdf" | "xml" => Format::Rdf(RdfSyntax::RdfXml),
            _ => return None,
        })
    }

    /// Guesses the format from a file name, ignoring a `.gz` suffix.
    pub fn from_path(path: &Path) -> Option<Format> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        let ext = name.rsplit_once('.')?.1;
        Format::from_name(ext)
    }
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
    }
}
