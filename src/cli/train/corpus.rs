//! What training reads: PubTator corpora (each document's text and its gold mentions), MeSH's
//! semantic groups from the bundled tables (tree C or F03 a disease, D a chemical; a
//! supplementary record the groups of the headings it maps to), and the split of documents
//! into the part fitted on and the part set aside to calibrate.

use std::collections::{BTreeSet, HashMap};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::{Context as _, bail};

/// One in this many documents of a training set is set aside to calibrate.
const CALIBRATION_SHARE: u64 = 5;

/// A semantic group a corpus annotates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    Disease,
    Chemical,
}

/// One gold mention: character span, text, annotated type and its MeSH ids.
#[derive(Clone, Debug)]
pub struct Gold {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub group: Option<Group>,
    /// MeSH ids (D... or C...), without prefix; empty when the gold has none.
    pub ids: Vec<String>,
}

/// One document: id, title and abstract as one text (title, a space, abstract), its mentions.
#[derive(Clone, Debug)]
pub struct Document {
    pub id: String,
    pub text: String,
    pub gold: Vec<Gold>,
}

/// Which part of a training set a document is in (by a hash of its id: the same split on
/// every run). Names learned from one fitting part are used on the other, so that no fitted
/// example meets a name learned from itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    FitA,
    FitB,
    Calibrate,
}

impl Document {
    pub fn part(&self) -> Part {
        match fnv1a(self.id.as_bytes()) % CALIBRATION_SHARE {
            0 => Part::Calibrate,
            1 | 2 => Part::FitA,
            _ => Part::FitB,
        }
    }

    /// Whether this document is set aside to calibrate.
    pub fn calibrates(&self) -> bool {
        self.part() == Part::Calibrate
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Reads a PubTator file: `ID|t|title`, `ID|a|abstract`, then tab-separated annotations
/// (`ID start end text type ids`), documents apart by blank lines. Relations are skipped.
pub fn read_pubtator(path: &Path) -> anyhow::Result<Vec<Document>> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut docs: Vec<Document> = Vec::new();
    let mut title: Option<(String, String)> = None;
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.with_context(|| format!("reading {} line {}", path.display(), n + 1))?;
        if let Some((id, rest)) = line.split_once("|t|") {
            title = Some((id.to_string(), rest.to_string()));
        } else if let Some((id, rest)) = line.split_once("|a|") {
            let Some((tid, t)) = title.take().filter(|(tid, _)| tid == id) else {
                bail!(
                    "{} line {}: an abstract without its title",
                    path.display(),
                    n + 1
                );
            };
            docs.push(Document {
                id: tid,
                text: format!("{t} {rest}"),
                gold: Vec::new(),
            });
        } else if let Some(gold) = annotation(&line)
            && let Some(doc) = docs.last_mut()
        {
            doc.gold.push(gold);
        }
    }
    Ok(docs)
}

/// One annotation line, or `None` for a relation or anything else.
fn annotation(line: &str) -> Option<Gold> {
    let fields: Vec<&str> = line.split('\t').collect();
    if fields.len() < 6 {
        return None;
    }
    let start = fields[1].parse().ok()?;
    let end = fields[2].parse().ok()?;
    let group = match fields[4] {
        "Chemical" => Some(Group::Chemical),
        "Disease" | "SpecificDisease" | "DiseaseClass" | "Modifier" | "CompositeMention" => {
            Some(Group::Disease)
        }
        _ => None,
    };
    let ids = fields[5]
        .split(['|', '+'])
        .map(|id| id.trim().trim_start_matches("MESH:"))
        .filter(|id| is_mesh_id(id))
        .map(str::to_string)
        .collect();
    Some(Gold {
        start,
        end,
        text: fields[3].to_string(),
        group,
        ids,
    })
}

fn is_mesh_id(id: &str) -> bool {
    id.len() > 1
        && (id.starts_with('D') || id.starts_with('C'))
        && id[1..].bytes().all(|b| b.is_ascii_digit())
}

/// MeSH ids to the groups a corpus annotates.
pub struct MeshGroups(HashMap<String, BTreeSet<Group>>);

impl MeshGroups {
    /// From the bundled descriptor and supplementary tables (gzip TSV: id, label, entry
    /// terms, then tree numbers or mapped-to headings).
    pub fn read(descriptors: &Path, supplementary: &Path) -> anyhow::Result<MeshGroups> {
        let mut groups: HashMap<String, BTreeSet<Group>> = HashMap::new();
        for_rows(descriptors, |id, last| {
            let set: BTreeSet<Group> = last.split('|').filter_map(tree_group).collect();
            groups.insert(id.to_string(), set);
        })?;
        let mut supplementary_rows = Vec::new();
        for_rows(supplementary, |id, last| {
            supplementary_rows.push((id.to_string(), last.to_string()));
        })?;
        for (id, mapped) in supplementary_rows {
            let set: BTreeSet<Group> = mapped
                .split('|')
                .map(|h| h.trim_start_matches('*'))
                .filter_map(|h| groups.get(h))
                .flatten()
                .copied()
                .collect();
            groups.insert(id, set);
        }
        Ok(MeshGroups(groups))
    }

    pub fn of(&self, id: &str) -> Option<&BTreeSet<Group>> {
        self.0.get(id)
    }
}

fn tree_group(tree: &str) -> Option<Group> {
    if tree.starts_with('C') || tree.starts_with("F03") {
        Some(Group::Disease)
    } else if tree.starts_with('D') {
        Some(Group::Chemical)
    } else {
        None
    }
}

/// Calls `row` with each row's id and last field.
fn for_rows(path: &Path, mut row: impl FnMut(&str, &str)) -> anyhow::Result<()> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let reader = BufReader::new(flate2::read::GzDecoder::new(file));
    for line in reader.lines() {
        let line = line.with_context(|| format!("reading {}", path.display()))?;
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() >= 4 {
            row(fields[0], fields[3]);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_annotation_line_gives_each_mesh_id_of_a_composite_gold() {
        let g = annotation("1\t0\t5\tfoo\tDisease\tD001943|MESH:D004314").unwrap();
        assert_eq!(g.ids, ["D001943", "D004314"]);
        let g = annotation("1\t0\t5\tfoo\tChemical\t-1").unwrap();
        assert!(g.ids.is_empty());
        assert_eq!(g.group, Some(Group::Chemical));
        assert!(annotation("1\tCID\tD1\tD2").is_none());
    }
}
