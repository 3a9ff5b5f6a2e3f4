//! NCBI Gene's `gene_info` table (tab-separated, `#tax_id` header line, `-` for an empty
//! cell): one gene per row with its symbol, synonyms, description and database
//! cross-references (`MIM:191170|HGNC:HGNC:11998|Ensembl:ENSG00000141510`).

use std::path::Path;

use super::{Header, Row, RowContext, RowReader, excerpt, list, normalize_curie, split_row};
use crate::ingest::IngestError;
use crate::model::{Label, LabelKind, Xref, XrefKind};

/// The URI prefix of NCBI genes.
const NCBI_GENE_IRI: &str = "https://www.ncbi.nlm.nih.gov/gene/";

/// Column names as the header writes them (the `#` before `tax_id` is dropped).
const REQUIRED: [&str; 7] = [
    "tax_id",
    "GeneID",
    "Symbol",
    "Synonyms",
    "dbXrefs",
    "description",
    "type_of_gene",
];

struct Columns {
    taxon: usize,
    gene: usize,
    symbol: usize,
    synonyms: usize,
    xrefs: usize,
    description: usize,
    type_of_gene: usize,
    count: usize,
}

#[derive(Default)]
pub(super) struct GeneInfoReader {
    columns: Option<Columns>,
}

impl RowReader for GeneInfoReader {
    fn has_header(&self) -> bool {
        true
    }

    fn header(&mut self, file: &Path, line: &str) -> Result<(), IngestError> {
        let header = Header::parse(line);
        let [
            taxon,
            gene,
            symbol,
            synonyms,
            xrefs,
            description,
            type_of_gene,
        ] = header.require(file, REQUIRED)?;
        self.columns = Some(Columns {
            taxon,
            gene,
            symbol,
            synonyms,
            xrefs,
            description,
            type_of_gene,
            count: header.count,
        });
        Ok(())
    }

    fn row(&mut self, text: &str, cx: &RowContext<'_>) -> Result<Row, String> {
        let Some(cols) = &self.columns else {
            return Err("row before the header".into());
        };
        let fields = split_row(text, cols.count)?;
        // `-` is gene_info's empty cell.
        let cell = |i: usize| match fields.get(i).map_or("", |s| s.trim()) {
            "-" => "",
            value => value,
        };
        let is_number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let gene = cell(cols.gene);
        if !is_number(gene) {
            return Err(format!("not a GeneID: {}", excerpt(gene)));
        }
        let taxon = cell(cols.taxon);
        if !is_number(taxon) {
            return Err(format!("GeneID {gene}: not a tax_id: {}", excerpt(taxon)));
        }
        let symbol = cell(cols.symbol);
        if symbol.is_empty() {
            return Err(format!("GeneID {gene} has no symbol"));
        }
        let prov = cx.prov();
        let mut concept = cx.gene(
            format!("{NCBI_GENE_IRI}{gene}"),
            format!("NCBITaxon:{taxon}"),
            cell(cols.type_of_gene),
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
        let description = cell(cols.description);
        if !description.is_empty() {
            concept
                .labels
                .push(label(description, LabelKind::ApprovedName));
        }
        for synonym in list(cell(cols.synonyms), &['|']).filter(|s| *s != "-") {
            concept.labels.push(label(synonym, LabelKind::AliasSymbol));
        }
        let mut bad = Vec::new();
        for written in list(cell(cols.xrefs), &['|']) {
            match db_xref(written) {
                Some((curie, kind)) => concept.xrefs.push(Xref {
                    target: normalize_curie(cx.prefixes, &curie),
                    kind,
                    qualifier: None,
                    prov,
                }),
                None => bad.push(excerpt(written)),
            }
        }
        let note = (!bad.is_empty()).then(|| {
            format!(
                "GeneID {gene}: unreadable dbXrefs, left out: {}",
                bad.join(", ")
            )
        });
        Ok(Row { concept, note })
    }
}

/// One `DB:value` of the dbXrefs column as a CURIE and the kind of its link. NCBI writes HGNC
/// ids with their own prefix again (`HGNC:HGNC:11998`) and OMIM as `MIM`.
fn db_xref(written: &str) -> Option<(String, XrefKind)> {
    let (db, value) = written.split_once(':')?;
    let value = value.trim();
    if db.trim().is_empty() || value.is_empty() {
        return None;
    }
    Some(match db.trim() {
        "HGNC" => {
            let number = value.strip_prefix("HGNC:").unwrap_or(value).trim();
            (format!("HGNC:{number}"), XrefKind::ExactMatch)
        }
        "Ensembl" => (format!("ensembl:{value}"), XrefKind::ExactMatch),
        "MIM" => (format!("OMIM:{value}"), XrefKind::DbXref),
        _ => (written.trim().to_string(), XrefKind::DbXref),
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{read_str, try_read_str};
    use super::*;
    use crate::ingest::TableFormat;

    const HEADER: &str = "#tax_id\tGeneID\tSymbol\tLocusTag\tSynonyms\tdbXrefs\tchromosome\t\
        map_location\tdescription\ttype_of_gene\tSymbol_from_nomenclature_authority\t\
        Full_name_from_nomenclature_authority\tNomenclature_status\tOther_designations\t\
        Modification_date\tFeature_type\n";
    const TP53: &str = "9606\t7157\tTP53\t-\tBCC7|LFS1|P53\tMIM:191170|HGNC:HGNC:11998|\
        Ensembl:ENSG00000141510|IMGT/GENE-DB:TP53\t17\t17p13.1\ttumor protein p53\t\
        protein-coding\tTP53\ttumor protein p53\tO\tcellular tumor antigen p53\t20200127\t-\n";

    #[test]
    fn gene_row_has_symbol_aliases_name_and_xrefs() {
        let read = read_str(TableFormat::GeneInfo, &[("g", &format!("{HEADER}{TP53}"))]);
        assert!(read.problems.is_empty(), "{:?}", read.problems);
        let gene = &read.concepts[0];
        assert_eq!(gene.iri, "https://www.ncbi.nlm.nih.gov/gene/7157");
        assert_eq!(gene.curie.as_deref(), Some("NCBIGene:7157"));
        assert_eq!(gene.taxon.as_deref(), Some("NCBITaxon:9606"));
        assert_eq!(gene.locus_type.as_deref(), Some("protein-coding"));
        assert_eq!(
            gene.preferred_label().map(|l| l.text.as_str()),
            Some("TP53")
        );
        let aliases = gene
            .labels
            .iter()
            .filter(|l| l.kind == LabelKind::AliasSymbol);
        assert_eq!(aliases.count(), 3);
        let xrefs: Vec<(&str, XrefKind)> = gene
            .xrefs
            .iter()
            .map(|x| (x.target.as_str(), x.kind))
            .collect();
        for expected in [
            ("HGNC:11998", XrefKind::ExactMatch),
            ("ensembl:ENSG00000141510", XrefKind::ExactMatch),
            ("OMIM:191170", XrefKind::DbXref),
            ("IMGT/GENE-DB:TP53", XrefKind::DbXref),
        ] {
            assert!(xrefs.contains(&expected), "{expected:?} in {xrefs:?}");
        }
    }

    #[test]
    fn dashes_are_empty_cells() {
        let row = "9606\t1\tA1BG\t-\t-\t-\t19\t-\t-\t-\t-\t-\t-\t-\t-\t-\n";
        let read = read_str(TableFormat::GeneInfo, &[("g", &format!("{HEADER}{row}"))]);
        let gene = &read.concepts[0];
        assert_eq!(gene.labels.len(), 1);
        assert!(gene.xrefs.is_empty() && gene.locus_type.is_none());
    }

    #[test]
    fn bad_rows_and_xrefs_are_reported() {
        let rows = "9606\tx\tA\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\n\
                    9606\t2\tB\n\
                    9606\t3\tC\t-\t-\tnocolon|MIM:1\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\n";
        let read = read_str(TableFormat::GeneInfo, &[("g", &format!("{HEADER}{rows}"))]);
        assert_eq!(read.concepts.len(), 1, "the row with a bad xref is kept");
        assert_eq!(read.concepts[0].xrefs.len(), 1);
        let lines: Vec<u64> = read.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 3, 4]);
    }

    #[test]
    fn header_without_gene_columns_is_fatal() {
        let error = try_read_str(TableFormat::GeneInfo, &[("g", "#tax_id\tGeneID\tSymbol\n")])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("Synonyms") && error.contains("type_of_gene"),
            "{error}"
        );
        let empty = try_read_str(TableFormat::GeneInfo, &[("g", "")]).unwrap_err();
        assert!(empty.to_string().contains("no header"), "{empty}");
    }
}
