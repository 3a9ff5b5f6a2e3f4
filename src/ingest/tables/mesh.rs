//! MeSH descriptor and supplementary-record tables (no header): id, label, terms joined by
//! `|`, then tree numbers (descriptors, qualifiers) or mapped-to headings (supplementary
//! records). Fields are split as Python's csv module splits them, the way
//! `mesh-tsv-to-rdf` reads the same files, so both agree on every row.
//!
//! Parents come from tree numbers: the descriptor holding a tree number's parent number is a
//! broader descriptor. That needs every descriptor, so it is joined after the last file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::collect::Problems;
use super::{Row, RowContext, RowOutcome, RowReader, excerpt, list, normalize_curie};
use crate::ingest::IngestError;
use crate::model::{
    Concept, ConceptKind, Label, LabelKind, Link, LinkKind, Provenance, Xref, XrefKind,
};

/// The URI prefix of MeSH ids and tree numbers.
pub(super) const MESH: &str = "http://id.nlm.nih.gov/mesh/";

/// Reads MeSH rows of any kind; remembers where each descriptor was, to report its
/// unresolved parents, and which descriptor holds each tree number.
#[derive(Default)]
pub(super) struct MeshReader {
    trees: TreeJoin,
}

/// Descriptors' tree numbers, for their parents once every row is read: a descriptor's and a
/// tree number's worth of memory each, not a concept's.
#[derive(Default)]
pub(super) struct TreeJoin {
    /// Each tree number's descriptor: the lowest IRI stating it, when several do.
    owner: HashMap<String, String>,
    /// Each descriptor's first row.
    locations: HashMap<String, (PathBuf, u64)>,
}

impl RowReader for MeshReader {
    fn has_header(&self) -> bool {
        false
    }

    fn header(&mut self, _file: &Path, _line: &str) -> Result<(), IngestError> {
        Ok(())
    }

    fn row(&mut self, text: &str, cx: &RowContext<'_>) -> Result<Row, String> {
        let fields = split_fields(text)?;
        let [id, label, terms, last, rest @ ..] = fields.as_slice() else {
            return Err(column_count(fields.len()));
        };
        let id = id.trim();
        let kind = match id.as_bytes().first() {
            Some(b'D') => ConceptKind::Descriptor,
            Some(b'C') => ConceptKind::SupplementaryRecord,
            Some(b'Q') => ConceptKind::Qualifier,
            _ => return Err(format!("not a MeSH id: {}", excerpt(id))),
        };
        if !id.get(1..).is_some_and(is_digits) {
            return Err(format!("not a MeSH id: {}", excerpt(id)));
        }
        // Descriptors of organisms carry NCBI taxa in a fifth column; nothing else may.
        let (taxa, surplus) = match rest {
            [taxa, surplus @ ..] if kind == ConceptKind::Descriptor => (taxa.as_str(), surplus),
            _ => ("", rest),
        };
        if surplus.iter().any(|extra| !extra.trim().is_empty()) {
            return Err(column_count(fields.len()));
        }
        let label = label.trim();
        if label.is_empty() {
            return Err(format!("{id} has no label"));
        }
        let mut concept = cx.concept(format!("{MESH}{id}"), kind);
        concept
            .labels
            .push(label_of(label, LabelKind::Label, cx.prov()));
        for term in list(terms, &['|']).filter(|term| *term != label) {
            concept
                .labels
                .push(label_of(term, LabelKind::EntryTerm, cx.prov()));
        }
        if kind == ConceptKind::SupplementaryRecord {
            concept.xrefs = mapped_to(last, cx)?;
        } else {
            concept.tree_numbers = tree_numbers(last)?;
            concept.xrefs = taxon_xrefs(taxa, cx)?;
            if kind == ConceptKind::Descriptor {
                self.trees.first_row(&concept, cx);
            }
        }
        Ok(Row {
            concept,
            note: None,
        })
    }
}

impl MeshReader {
    pub(super) fn into_join(self) -> TreeJoin {
        self.trees
    }
}

impl TreeJoin {
    /// Notes a descriptor's row; a later row for the same descriptor is skipped by the
    /// collector, so its tree numbers are not counted.
    fn first_row(&mut self, concept: &Concept, cx: &RowContext<'_>) {
        let std::collections::hash_map::Entry::Vacant(first) =
            self.locations.entry(concept.iri.clone())
        else {
            return;
        };
        first.insert((cx.file.to_path_buf(), cx.line));
        for tree in &concept.tree_numbers {
            self.owner
                .entry(tree.clone())
                .and_modify(|owner| {
                    if concept.iri < *owner {
                        owner.clone_from(&concept.iri);
                    }
                })
                .or_insert_with(|| concept.iri.clone());
        }
    }

    /// Links a descriptor to the descriptors holding its tree numbers' parents; a tree number
    /// whose parent no descriptor holds is noted at the descriptor's row.
    pub(super) fn join(
        &self,
        concept: &mut Concept,
        problems: &mut Problems,
    ) -> Result<(), IngestError> {
        if concept.kind != ConceptKind::Descriptor {
            return Ok(());
        }
        let mut unresolved = Vec::new();
        for tree in &concept.tree_numbers {
            let Some((parent_tree, _)) = tree.rsplit_once('.') else {
                continue;
            };
            match self.owner.get(parent_tree) {
                Some(parent) if *parent == concept.iri => {}
                Some(parent) => concept.parents.push(Link {
                    iri: parent.clone(),
                    kind: LinkKind::BroaderDescriptor,
                    prov: Provenance {
                        source: concept.source,
                    },
                }),
                None => unresolved.push(tree.clone()),
            }
        }
        if let Some((file, line)) = self.locations.get(&concept.iri) {
            for tree in unresolved {
                let message = format!(
                    "tree number {tree}: no descriptor holds its parent; no parent link from it"
                );
                problems.record(file, *line, message, RowOutcome::KeptWithNote)?;
            }
        }
        Ok(())
    }
}

fn column_count(found: usize) -> String {
    format!(
        "expected 4 columns (id, label, terms, trees or mapped-to; descriptors may add \
         NCBI taxa), found {found}"
    )
}

/// NCBI Taxonomy ids joined by `|`, as unqualified cross-references: a genus descriptor
/// lists several taxa, so they are not exact matches.
fn taxon_xrefs(cell: &str, cx: &RowContext<'_>) -> Result<Vec<Xref>, String> {
    list(cell, &['|'])
        .map(|taxon| {
            if !is_digits(taxon) {
                return Err(format!("bad NCBI taxon id {}", excerpt(taxon)));
            }
            Ok(Xref {
                target: normalize_curie(cx.prefixes, &format!("NCBITaxon:{taxon}")),
                kind: XrefKind::DbXref,
                qualifier: None,
                prov: cx.prov(),
            })
        })
        .collect()
}

fn label_of(text: &str, kind: LabelKind, prov: Provenance) -> Label {
    Label {
        text: text.to_string(),
        kind,
        lang: None,
        prov,
    }
}

/// Tree numbers joined by `|`; one malformed number rejects the row.
fn tree_numbers(cell: &str) -> Result<Vec<String>, String> {
    list(cell, &['|'])
        .map(|tree| {
            if is_tree_number(tree) {
                Ok(tree.to_string())
            } else {
                Err(format!("bad tree number {}", excerpt(tree)))
            }
        })
        .collect()
}

/// `A01`, `C04.557.337`: a capital letter, two digits, then groups of `.` and three digits.
fn is_tree_number(tree: &str) -> bool {
    let bytes = tree.as_bytes();
    let Some((top, rest)) = bytes.split_at_checked(3) else {
        return false;
    };
    let top_ok = matches!(top, [letter, d1, d2]
        if letter.is_ascii_uppercase() && d1.is_ascii_digit() && d2.is_ascii_digit());
    top_ok
        && rest.len() % 4 == 0
        && rest.chunks(4).all(|group| {
            matches!(group, [b'.', a, b, c]
                if a.is_ascii_digit() && b.is_ascii_digit() && c.is_ascii_digit())
        })
}

/// Mapped-to headings joined by `,` (or `|`). The first is the preferred one, as
/// `mesh-tsv-to-rdf` and NLM write it; `D006896Q000031` is heading D006896 with qualifier
/// Q000031.
fn mapped_to(cell: &str, cx: &RowContext<'_>) -> Result<Vec<Xref>, String> {
    let mut xrefs: Vec<Xref> = Vec::new();
    for target in list(cell, &[',', '|']) {
        let (id, qualifier) =
            parse_heading(target).ok_or_else(|| format!("bad mapped-to {}", excerpt(target)))?;
        let curie = cx
            .prefixes
            .compress(&format!("{MESH}{id}"))
            .unwrap_or_else(|| format!("MESH:{id}"));
        let qualifier = qualifier.map(str::to_string);
        // A heading listed twice keeps its first (possibly preferred) mention.
        if xrefs
            .iter()
            .any(|x| x.target == curie && x.qualifier == qualifier)
        {
            continue;
        }
        let kind = if xrefs.is_empty() {
            XrefKind::PreferredMappedTo
        } else {
            XrefKind::MappedTo
        };
        xrefs.push(Xref {
            target: curie,
            kind,
            qualifier,
            prov: cx.prov(),
        });
    }
    Ok(xrefs)
}

/// `D012345`, `C000002`, `Q000031` (no qualifier), or `D006896Q000031` (with one).
fn parse_heading(target: &str) -> Option<(&str, Option<&str>)> {
    let kind = *target.as_bytes().first()?;
    if matches!(kind, b'D' | b'C' | b'Q') && target.get(1..).is_some_and(is_digits) {
        return Some((target, None));
    }
    let (heading, qualifier) = target.split_at_checked(target.find('Q')?)?;
    let valid = kind == b'D'
        && heading.get(1..).is_some_and(is_digits)
        && qualifier.get(1..).is_some_and(is_digits);
    valid.then_some((heading, Some(qualifier)))
}

fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// Splits a row on tabs as Python's csv module reads it (quote `"`, doubled quotes, not
/// strict): a field that starts with `"` runs to its closing quote and may hold tabs, `""`
/// inside it is one quote, and a quote anywhere else is an ordinary character.
fn split_fields(line: &str) -> Result<Vec<String>, String> {
    #[derive(PartialEq)]
    enum State {
        Start,
        Plain,
        Quoted,
        QuoteInQuoted,
    }
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut state = State::Start;
    for c in line.chars() {
        state = match (state, c) {
            (State::Quoted, '"') => State::QuoteInQuoted,
            (State::Quoted, c) => {
                field.push(c);
                State::Quoted
            }
            (State::Start, '"') => State::Quoted,
            (State::QuoteInQuoted, '"') => {
                field.push('"');
                State::Quoted
            }
            (_, '\t') => {
                fields.push(std::mem::take(&mut field));
                State::Start
            }
            (_, c) => {
                field.push(c);
                State::Plain
            }
        };
    }
    if state == State::Quoted {
        return Err("a quoted field is not closed on its line".into());
    }
    fields.push(field);
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{read_str, test_prefixes};
    use super::*;
    use crate::ingest::TableFormat;
    use crate::model::ConceptKind;

    fn mesh(text: &str) -> super::super::TableConcepts {
        read_str(TableFormat::MeshTsv, &[("mesh.tsv", text)])
    }

    #[test]
    fn fields_split_like_python_csv() {
        assert_eq!(split_fields("a\tb\t").unwrap(), ["a", "b", ""]);
        assert_eq!(split_fields("\"x\ty\"\tz").unwrap(), ["x\ty", "z"]);
        assert_eq!(split_fields("\"say \"\"hi\"\"\"").unwrap(), ["say \"hi\""]);
        assert_eq!(split_fields("5\" disk\tb").unwrap(), ["5\" disk", "b"]);
        assert_eq!(split_fields("\"ab\"cd\te").unwrap(), ["abcd", "e"]);
        assert!(split_fields("\"open\tb").is_err());
    }

    #[test]
    fn quoted_synonym_keeps_its_tab() {
        let read = mesh(
            "C483025\tAckr1 protein mouse\t\"Dfy protein, mouse|ID: 13349 ims\tatypical \
             chemokine receptor 1|FY protein, mouse\"\tD004375,D011956\n",
        );
        assert!(read.problems.is_empty(), "{:?}", read.problems);
        let scr = &read.concepts[0];
        assert_eq!(scr.kind, ConceptKind::SupplementaryRecord);
        let terms: Vec<&str> = scr.labels.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            terms,
            [
                "Ackr1 protein mouse",
                "Dfy protein, mouse",
                "ID: 13349 ims\tatypical chemokine receptor 1",
                "FY protein, mouse"
            ]
        );
        assert_eq!(scr.xrefs.len(), 2);
    }

    #[test]
    fn descriptor_rows_become_labelled_descriptors_with_parents() {
        let read = mesh(
            "D1\tRoot\t\tA01\t\n\
             D2\tChild\tChildren|Child|Kid\tA01.100|B02\t\n\
             D3\tGrandchild\t\tA01.100.200\t\n",
        );
        assert!(read.problems.is_empty(), "{:?}", read.problems);
        assert_eq!(read.rows, 3);
        let [d1, d2, d3] = read.concepts.as_slice() else {
            panic!("{:?}", read.concepts)
        };
        assert_eq!(d1.curie.as_deref(), Some("MESH:D1"));
        assert_eq!(
            d2.labels.len(),
            3,
            "the label is not repeated as entry term"
        );
        assert_eq!(d2.labels[1].kind, LabelKind::EntryTerm);
        assert_eq!(d2.tree_numbers, ["A01.100", "B02"]);
        assert_eq!(d2.parents[0].iri, d1.iri);
        assert_eq!(d2.parents[0].kind, LinkKind::BroaderDescriptor);
        assert_eq!(d3.parents[0].iri, d2.iri);
        assert_eq!(d1.children[0].iri, d2.iri);
        assert!(d3.parents.len() == 1 && d1.parents.is_empty());
    }

    #[test]
    fn wrong_column_count_is_reported_and_the_rest_loads() {
        let read = mesh(
            "D1\tOne\t\tA01\t\nD2\tTwo\nD3\tThree\t\tA02\t1\tsurplus\n\
             C4\tFour\t\tD1\t1\nD5\tFive\t\tA03\n",
        );
        let ids: Vec<&str> = read.concepts.iter().map(|c| &c.iri[MESH.len()..]).collect();
        assert_eq!(ids, ["D1", "D5"]);
        let lines: Vec<u64> = read.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 3, 4]);
        assert!(read.problems[0].message.contains("found 2"));
        assert_eq!(read.rows, 5);
    }

    #[test]
    fn bad_tree_number_skips_the_row() {
        let read = mesh("D1\tOne\t\tA01.1x\t\nD2\tTwo\t\tA01|a02\t\nD3\tThree\t\tZ99\t\n");
        assert_eq!(read.concepts.len(), 1);
        assert_eq!(read.problems.len(), 2);
        assert!(read.problems[0].message.contains("A01.1x"));
        assert!(is_tree_number("C04.557.337") && !is_tree_number("C4") && !is_tree_number(""));
    }

    #[test]
    fn organism_descriptors_cross_reference_their_taxa() {
        let read = mesh("D1\tAcacia\t\tB01.875\t138017|3808\nD2\tBad\t\tB01\tx1\n");
        assert_eq!(read.concepts.len(), 1);
        let targets: Vec<(&str, XrefKind)> = read.concepts[0]
            .xrefs
            .iter()
            .map(|x| (x.target.as_str(), x.kind))
            .collect();
        assert_eq!(
            targets,
            [
                ("NCBITaxon:138017", XrefKind::DbXref),
                ("NCBITaxon:3808", XrefKind::DbXref)
            ]
        );
        assert_eq!(
            read.problems.len(),
            2,
            "a bad taxon, and B01.875's absent parent"
        );
        assert!(
            read.problems
                .iter()
                .any(|p| p.line == 2 && p.message.contains("x1"))
        );
    }

    #[test]
    fn parent_tree_number_without_descriptor_is_reported_but_kept() {
        let read = mesh("D1\tOrphan\t\tA01.100\t\n");
        assert_eq!(read.concepts.len(), 1);
        assert!(read.concepts[0].parents.is_empty());
        assert_eq!(read.problems.len(), 1);
        assert_eq!(read.problems[0].line, 1);
    }

    #[test]
    fn mapped_to_with_qualifier_keeps_descriptor_and_qualifier() {
        let read = mesh("C1\tSome drug\t\tD006896Q000031, D000001 |D000002,D000001\n");
        assert!(read.problems.is_empty(), "{:?}", read.problems);
        let xrefs = &read.concepts[0].xrefs;
        let find = |target: &str| xrefs.iter().find(|x| x.target == target).unwrap();
        let preferred = find("MESH:D006896");
        assert_eq!(preferred.kind, XrefKind::PreferredMappedTo);
        assert_eq!(preferred.qualifier.as_deref(), Some("Q000031"));
        assert_eq!(find("MESH:D000001").kind, XrefKind::MappedTo);
        assert_eq!(xrefs.len(), 3, "a repeated heading counts once: {xrefs:?}");
        assert!(read.concepts[0].parents.is_empty());
        assert!(read.concepts[0].tree_numbers.is_empty());
    }

    #[test]
    fn bad_ids_and_mapped_to_targets_skip_the_row() {
        let read = mesh("X1\tNot mesh\t\t\nC2\tDrug\t\tD1Q\nC3\t \t\tD1\nC4\tOk\t\tQ000031\n");
        assert_eq!(read.concepts.len(), 1);
        let lines: Vec<u64> = read.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [1, 2, 3]);
        assert_eq!(
            parse_heading("D006896Q000031"),
            Some(("D006896", Some("Q000031")))
        );
        assert_eq!(parse_heading("C1Q2"), None);
    }

    #[test]
    fn mesh_curie_follows_the_prefix_registry() {
        let prefixes = test_prefixes();
        let cx = RowContext {
            file: Path::new("x"),
            line: 1,
            source: crate::model::SourceIdx(0),
            prefixes: &prefixes,
        };
        assert_eq!(mapped_to("D1", &cx).unwrap()[0].target, "MESH:D1");
        let lower = crate::model::PrefixMap::new([crate::model::PrefixRule {
            prefix: "mesh".into(),
            uri_prefix: MESH.into(),
        }]);
        let cx = RowContext {
            prefixes: &lower,
            ..cx
        };
        assert_eq!(mapped_to("D1", &cx).unwrap()[0].target, "mesh:D1");
        let empty = crate::model::PrefixMap::default();
        let cx = RowContext {
            prefixes: &empty,
            ..cx
        };
        assert_eq!(mapped_to("D1", &cx).unwrap()[0].target, "MESH:D1");
    }
}
