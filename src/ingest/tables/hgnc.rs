//! HGNC's gene table (tab-separated, header line, columns found by name): symbols, names,
//! status, and cross-references to NCBI Gene, Ensembl, UniProt and the mouse and rat genes.
//!
//! A withdrawn symbol names its replacements only inside the name text
//! (`symbol withdrawn, see [HGNC:4285](…) and [HGNC:6298](…)`), so they are read from there.

use std::path::Path;

use super::{Header, Row, RowContext, RowReader, excerpt, list, normalize_curie, split_row};
use crate::ingest::IngestError;
use crate::model::{Label, LabelKind, Provenance, Replacement, ReplacementKind, Xref, XrefKind};

/// The URI prefix of HGNC genes (`HGNC:5` is `http://identifiers.org/hgnc/5`).
const HGNC_IRI: &str = "http://identifiers.org/hgnc/";
const HUMAN: &str = "NCBITaxon:9606";

const REQUIRED: [&str; 7] = [
    "HGNC ID",
    "Approved symbol",
    "Approved name",
    "Status",
    "Alias symbols",
    "Previous symbols",
    "Locus type",
];

/// Where the columns are, once the header is read.
struct Columns {
    id: usize,
    symbol: usize,
    name: usize,
    status: usize,
    aliases: usize,
    previous: usize,
    locus_type: usize,
    /// Optional cross-reference columns, each with how it becomes an xref.
    xrefs: Vec<(usize, XrefColumn)>,
    count: usize,
}

#[derive(Clone, Copy)]
struct XrefColumn {
    kind: XrefKind,
    /// Put before the value; empty when the value carries its own prefix (`MGI:…`).
    prefix: &'static str,
    /// The prefix to add when a self-prefixed value lacks it.
    own_prefix: &'static str,
}

impl XrefColumn {
    fn xref(self, value: &str, cx: &RowContext<'_>) -> Xref {
        let curie = if !self.own_prefix.is_empty() && !value.contains(':') {
            format!("{}{value}", self.own_prefix)
        } else {
            format!("{}{value}", self.prefix)
        };
        Xref {
            target: normalize_curie(cx.prefixes, &curie),
            kind: self.kind,
            qualifier: None,
            prov: cx.prov(),
        }
    }
}

const XREF_COLUMNS: [(&str, XrefColumn); 5] = [
    (
        "NCBI Gene ID(supplied by NCBI)",
        XrefColumn {
            kind: XrefKind::ExactMatch,
            prefix: "NCBIGene:",
            own_prefix: "",
        },
    ),
    (
        "Ensembl gene ID",
        XrefColumn {
            kind: XrefKind::ExactMatch,
            prefix: "ensembl:",
            own_prefix: "",
        },
    ),
    (
        "UniProt ID(supplied by UniProt)",
        XrefColumn {
            kind: XrefKind::HasGeneProduct,
            prefix: "uniprot:",
            own_prefix: "",
        },
    ),
    (
        "Mouse genome database ID(supplied by MGI)",
        XrefColumn {
            kind: XrefKind::Ortholog,
            prefix: "",
            own_prefix: "MGI:",
        },
    ),
    (
        "Rat genome database ID(supplied by RGD)",
        XrefColumn {
            kind: XrefKind::Ortholog,
            prefix: "",
            own_prefix: "RGD:",
        },
    ),
];

#[derive(Default)]
pub(super) struct HgncReader {
    columns: Option<Columns>,
}

impl RowReader for HgncReader {
    fn has_header(&self) -> bool {
        true
    }

    fn header(&mut self, file: &Path, line: &str) -> Result<(), IngestError> {
        let header = Header::parse(line);
        let [id, symbol, name, status, aliases, previous, locus_type] =
            header.require(file, REQUIRED)?;
        let xrefs = XREF_COLUMNS
            .iter()
            .filter_map(|(name, how)| Some((header.optional(name)?, *how)))
            .collect();
        self.columns = Some(Columns {
            id,
            symbol,
            name,
            status,
            aliases,
            previous,
            locus_type,
            xrefs,
            count: header.count,
        });
        Ok(())
    }

    fn row(&mut self, text: &str, cx: &RowContext<'_>) -> Result<Row, String> {
        let Some(cols) = &self.columns else {
            return Err("row before the header".into());
        };
        let fields = split_row(text, cols.count)?;
        let cell = |i: usize| fields.get(i).map_or("", |s| s.trim());
        let id = cell(cols.id);
        let number = id
            .strip_prefix("HGNC:")
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| format!("not an HGNC id: {}", excerpt(id)))?;
        let symbol = cell(cols.symbol);
        if symbol.is_empty() {
            return Err(format!("{id} has no approved symbol"));
        }
        let prov = cx.prov();
        let mut concept = cx.gene(
            format!("{HGNC_IRI}{number}"),
            HUMAN.to_string(),
            cell(cols.locus_type),
        );
        let label = |text: &str, kind| Label {
            text: text.to_string(),
            kind,
            lang: None,
            prov,
        };
        concept
            .labels
            .push(label(symbol, LabelKind::ApprovedSymbol));
        let name = cell(cols.name);
        let mut note = None;
        match cell(cols.status) {
            "Approved" | "Entry Withdrawn" if !name.is_empty() => {
                concept.labels.push(label(name, LabelKind::ApprovedName));
            }
            "Approved" | "Entry Withdrawn" => {}
            // The name column of a withdrawn symbol is a note naming its replacements.
            "Symbol Withdrawn" => {
                concept.replacements = replacements(name, prov);
                if concept.replacements.is_empty() {
                    note = Some(format!(
                        "{id}: withdrawn symbol whose note names no replacement: {}",
                        excerpt(name)
                    ));
                }
            }
            other => return Err(format!("{id}: unknown status {}", excerpt(other))),
        }
        if cell(cols.status) != "Approved" {
            concept.obsolete = true;
            concept.withdrawn = true;
        }
        for alias in list(cell(cols.aliases), &[',']) {
            concept.labels.push(label(alias, LabelKind::AliasSymbol));
        }
        for previous in list(cell(cols.previous), &[',']) {
            concept
                .labels
                .push(label(previous, LabelKind::PreviousSymbol));
        }
        for &(at, how) in &cols.xrefs {
            for value in list(cell(at), &[',', '|']) {
                concept.xrefs.push(how.xref(value, cx));
            }
        }
        Ok(Row { concept, note })
    }
}

/// Every distinct HGNC id a withdrawal note names, in order, as replacement IRIs. Tolerates
/// the irregular notes (`HGNC: 4741`, a missing bracket) by looking only for `HGNC:` digits.
fn replacements(note: &str, prov: Provenance) -> Vec<Replacement> {
    let mut numbers: Vec<&str> = Vec::new();
    let mut rest = note;
    while let Some((_, after)) = rest.split_once("HGNC:") {
        let after = after.trim_start();
        let end = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        let (digits, tail) = after.split_at_checked(end).unwrap_or((after, ""));
        if !digits.is_empty() && !numbers.contains(&digits) {
            numbers.push(digits);
        }
        rest = tail;
    }
    numbers
        .into_iter()
        .map(|n| Replacement {
            kind: ReplacementKind::ReplacedBy,
            target: format!("{HGNC_IRI}{n}"),
            prov,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::tests::read_str;
    use super::*;
    use crate::ingest::TableFormat;

    const HEADER: &str = "HGNC ID\tApproved symbol\tApproved name\tStatus\tAlias symbols\t\
        NCBI Gene ID(supplied by NCBI)\tUniProt ID(supplied by UniProt)\t\
        Mouse genome database ID(supplied by MGI)\tRat genome database ID(supplied by RGD)\t\
        Previous symbols\tEnsembl gene ID\tLocus type\tEnzyme IDs\n";

    fn hgnc(rows: &str) -> super::super::TableConcepts {
        read_str(
            TableFormat::HgncTsv,
            &[("hgnc.tsv", &format!("{HEADER}{rows}"))],
        )
    }

    fn targets(replacements: &[Replacement]) -> Vec<&str> {
        replacements.iter().map(|r| r.target.as_str()).collect()
    }

    #[test]
    fn approved_gene_has_symbols_name_and_xrefs() {
        let read = hgnc(
            "HGNC:5\tA1BG\talpha-1-B glycoprotein\tApproved\tABG, GAB\t1\tP04217\t\
             MGI:2152878, MGI:1\tRGD:69417\tOLD1\tENSG00000121410\tgene with protein product\t\n",
        );
        assert!(read.problems.is_empty(), "{:?}", read.problems);
        let gene = &read.concepts[0];
        assert_eq!(gene.iri, "http://identifiers.org/hgnc/5");
        assert_eq!(gene.curie.as_deref(), Some("HGNC:5"));
        assert_eq!(gene.kind, crate::model::ConceptKind::Gene);
        assert_eq!(gene.taxon.as_deref(), Some("NCBITaxon:9606"));
        assert_eq!(
            gene.locus_type.as_deref(),
            Some("gene with protein product")
        );
        let kinds: Vec<(&str, LabelKind)> = gene
            .labels
            .iter()
            .map(|l| (l.text.as_str(), l.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                ("A1BG", LabelKind::ApprovedSymbol),
                ("alpha-1-B glycoprotein", LabelKind::ApprovedName),
                ("ABG", LabelKind::AliasSymbol),
                ("GAB", LabelKind::AliasSymbol),
                ("OLD1", LabelKind::PreviousSymbol),
            ]
        );
        let xrefs: Vec<(&str, XrefKind)> = gene
            .xrefs
            .iter()
            .map(|x| (x.target.as_str(), x.kind))
            .collect();
        for expected in [
            ("NCBIGene:1", XrefKind::ExactMatch),
            ("ensembl:ENSG00000121410", XrefKind::ExactMatch),
            ("uniprot:P04217", XrefKind::HasGeneProduct),
            ("MGI:2152878", XrefKind::Ortholog),
            ("MGI:1", XrefKind::Ortholog),
            ("RGD:69417", XrefKind::Ortholog),
        ] {
            assert!(xrefs.contains(&expected), "{expected:?} in {xrefs:?}");
        }
        assert_eq!(xrefs.len(), 6);
    }

    #[test]
    fn withdrawn_symbol_notes_yield_replacements_even_when_irregular() {
        let read = hgnc(
            "HGNC:2792\tDFNA2\tsymbol withdrawn, see [HGNC:4285](/x/HGNC:4285) and \
             [HGNC:6298](/x/HGNC:6298)\tSymbol Withdrawn\t\t\t\t\t\t\t\tunknown\t\n\
             HGNC:4744\tH2AZ\tsymbol withdrawn, see [HGNC: 4741](/x/HGNC: 4741)\t\
             Symbol Withdrawn\t\t\t\t\t\t\t\tunknown\t\n\
             HGNC:1531\tCBBM\tsymbol withdrawn, see [HGNC:4206](/x/HGNC:4206) and \
             [HGNC:9936]/x/HGNC:9936)\tSymbol Withdrawn\t\t\t\t\t\t\t\tunknown\t\n",
        );
        assert!(read.problems.is_empty(), "{:?}", read.problems);
        let by_id = |n: &str| {
            read.concepts
                .iter()
                .find(|c| c.iri == format!("{HGNC_IRI}{n}"))
                .unwrap()
        };
        let dfna2 = by_id("2792");
        assert!(dfna2.obsolete && dfna2.withdrawn);
        assert_eq!(
            targets(&dfna2.replacements),
            [
                "http://identifiers.org/hgnc/4285",
                "http://identifiers.org/hgnc/6298"
            ]
        );
        assert!(
            dfna2
                .labels
                .iter()
                .all(|l| l.kind != LabelKind::ApprovedName),
            "the note is not a name"
        );
        assert_eq!(
            targets(&by_id("4744").replacements),
            [format!("{HGNC_IRI}4741")]
        );
        assert_eq!(
            targets(&by_id("1531").replacements),
            [format!("{HGNC_IRI}4206"), format!("{HGNC_IRI}9936")]
        );
    }

    #[test]
    fn withdrawn_symbol_without_replacement_is_kept_and_reported() {
        let read = hgnc("HGNC:7\tXYZ\tsymbol withdrawn\tSymbol Withdrawn\t\t\t\t\t\t\t\t\t\n");
        assert_eq!(read.concepts.len(), 1);
        assert!(read.concepts[0].withdrawn && read.concepts[0].replacements.is_empty());
        assert_eq!(read.problems.len(), 1);
        assert_eq!(read.problems[0].line, 2);
        // The row is loaded: the manifest must not count it as skipped.
        assert_eq!(
            read.problems[0].outcome,
            crate::ingest::tables::RowOutcome::KeptWithNote
        );
    }

    #[test]
    fn a_row_with_the_wrong_column_count_is_skipped_and_the_rest_loads() {
        let read = hgnc(
            "HGNC:7	XYZ	too few
             HGNC:5	A1BG	alpha-1-B glycoprotein	Approved								gene	
",
        );
        assert_eq!(read.concepts.len(), 1);
        assert_eq!(read.problems.len(), 1);
        assert_eq!(read.problems[0].line, 2);
        assert_eq!(
            read.problems[0].outcome,
            crate::ingest::tables::RowOutcome::Skipped
        );
    }

    #[test]
    fn withdrawn_entry_keeps_its_name() {
        let read = hgnc(
            "HGNC:1\tA12M1\tadenovirus-12 site 1C\tEntry Withdrawn\t\t\t\t\t\t\t\tunknown\t\n",
        );
        let gene = &read.concepts[0];
        assert!(gene.obsolete && gene.withdrawn && gene.replacements.is_empty());
        assert_eq!(gene.labels[1].kind, LabelKind::ApprovedName);
    }

    #[test]
    fn header_missing_columns_is_fatal_and_names_them() {
        let input = "HGNC ID\tApproved symbol\tStatus\tLocus type\nHGNC:1\tA\tApproved\tx\n";
        let error = super::super::tests::try_read_str(TableFormat::HgncTsv, &[("h.tsv", input)])
            .unwrap_err()
            .to_string();
        for missing in ["Approved name", "Alias symbols", "Previous symbols"] {
            assert!(error.contains(missing), "{error}");
        }
        assert!(!error.contains("Locus type"), "{error}");
    }

    #[test]
    fn bad_rows_are_skipped_with_their_line() {
        let read = hgnc(
            "HGNC:x\tA\tn\tApproved\t\t\t\t\t\t\t\t\t\n\
             HGNC:2\tB\tn\tApproved\n\
             HGNC:3\tC\tn\tPending\t\t\t\t\t\t\t\t\t\n\
             HGNC:4\t\tn\tApproved\t\t\t\t\t\t\t\t\t\n\
             HGNC:5\tE\tn\tApproved\t\t\t\t\t\t\t\t\t\n",
        );
        assert_eq!(read.concepts.len(), 1);
        let lines: Vec<u64> = read.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 3, 4, 5]);
        assert_eq!(read.rows, 5);
    }

    #[test]
    fn xref_columns_are_optional() {
        let input = "HGNC ID\tApproved symbol\tApproved name\tStatus\tAlias symbols\t\
                     Previous symbols\tLocus type\nHGNC:9\tG\tgene\tApproved\t\t\tother\n";
        let read = read_str(TableFormat::HgncTsv, &[("h.tsv", input)]);
        assert!(read.problems.is_empty(), "{:?}", read.problems);
        assert!(read.concepts[0].xrefs.is_empty());
    }
}
