//! The file formats a catalogue entry can name (`format = "obo"`), their names and how a
//! file name suggests one. The readers live in `ingest`, which depends on these, never the
//! reverse.

use std::path::Path;

use super::SourceKind;

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
    /// OBO Graphs JSON: the first graph's nodes (label, definition, scoped synonyms, xrefs,
    /// deprecation, replacements, alt ids) and `is_a` edges; later graphs (imports) are skipped.
    ObographsJson,
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
            "obographs-json" => Format::Table(TableFormat::ObographsJson),
            "sssom-tsv" | "sssom" => Format::Mappings(MappingFormat::SssomTsv),
            "gilda-tsv" => Format::Mappings(MappingFormat::GildaTsv),
            _ => return None,
        })
    }

    /// The catalogue's name of the format, as `from_name` reads it and the manifest records it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Obo => "obo",
            Format::Rdf(RdfSyntax::Turtle) => "turtle",
            Format::Rdf(RdfSyntax::NTriples) => "ntriples",
            Format::Rdf(RdfSyntax::RdfXml) => "rdfxml",
            Format::Table(TableFormat::MeshTsv) => "mesh-tsv",
            Format::Table(TableFormat::HgncTsv) => "hgnc-tsv",
            Format::Table(TableFormat::GeneInfo) => "gene-info",
            Format::Table(TableFormat::CompactJson) => "compact-json",
            Format::Table(TableFormat::ObographsJson) => "obographs-json",
            Format::Mappings(MappingFormat::SssomTsv) => "sssom-tsv",
            Format::Mappings(MappingFormat::GildaTsv) => "gilda-tsv",
        }
    }

    /// Why this format cannot serve a source of `kind`, if it cannot.
    pub fn fits_kind(self, kind: SourceKind) -> Option<&'static str> {
        match (self, kind) {
            (Format::Table(TableFormat::MeshTsv), SourceKind::Mesh) => None,
            (Format::Table(TableFormat::HgncTsv | TableFormat::GeneInfo), SourceKind::Gene) => None,
            (
                Format::Table(TableFormat::CompactJson | TableFormat::ObographsJson),
                SourceKind::Obo | SourceKind::Owl,
            ) => None,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_name_reads_back_as_its_format() {
        let all = [
            Format::Obo,
            Format::Rdf(RdfSyntax::Turtle),
            Format::Rdf(RdfSyntax::NTriples),
            Format::Rdf(RdfSyntax::RdfXml),
            Format::Table(TableFormat::MeshTsv),
            Format::Table(TableFormat::HgncTsv),
            Format::Table(TableFormat::GeneInfo),
            Format::Table(TableFormat::CompactJson),
            Format::Table(TableFormat::ObographsJson),
            Format::Mappings(MappingFormat::SssomTsv),
            Format::Mappings(MappingFormat::GildaTsv),
        ];
        for format in all {
            assert_eq!(Format::from_name(format.name()), Some(format));
        }
    }
}
