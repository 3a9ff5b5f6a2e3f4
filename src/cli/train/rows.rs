//! Labelled examples, asked of the serving code: each gold mention's name searched as
//! `find_concepts` searches it (`sources=["mesh"]`), and each document grounded as
//! `ground_passage` grounds it. A candidate is right when its MeSH id is among the mention's
//! gold ids; a passage's reading is right when a gold mention it overlaps has its first
//! candidate's id, wrong when that mention has other ids or when no gold mention is there and
//! its concept is of a group the corpus annotates, and neither otherwise (the corpus says
//! nothing of genes or anatomy).

use ontoresolve::model::WireName;
use std::collections::{BTreeSet, HashMap};

use anyhow::Context as _;
use ontoresolve::resolve::confidence::{self, ConfidenceModel, Features, fit::Row};
use ontoresolve::resolve::passage::PassageQuery;
use ontoresolve::resolve::{ConceptId, NameCandidate, NameQuery, Resolver};
use rayon::prelude::*;

use super::corpus::{Document, Group, MeshGroups};

/// Candidates looked at per search, as `find_concepts` lists by default.
pub const LISTED: usize = 10;
const MESH: &str = "mesh";

/// A corpus: its documents and the groups it annotates.
pub struct Corpus {
    pub id: &'static str,
    pub docs: Vec<Document>,
    pub groups: &'static [Group],
}

/// One name search, as served without a model: the candidates in match-kind order, each
/// with its MeSH id.
pub struct Search {
    pub text: String,
    pub abbreviation: bool,
    pub candidates: Vec<NameCandidate>,
}

/// One gold mention's question: which search, and what is right.
pub struct Asked {
    pub search: usize,
    pub gold: Vec<String>,
    pub calibrates: bool,
}

/// Every name search of a corpus's gold mentions.
pub struct Searches {
    pub searches: Vec<Search>,
    pub asked: Vec<Asked>,
}

/// MeSH ids of concepts, read once.
#[derive(Default)]
pub struct MeshIds(HashMap<ConceptId, Option<String>>);

impl MeshIds {
    pub fn of(&mut self, r: &Resolver, id: ConceptId) -> anyhow::Result<Option<String>> {
        if let Some(known) = self.0.get(&id) {
            return Ok(known.clone());
        }
        let identity = r.identity(id).context("reading a candidate")?;
        let local = identity
            .curie
            .as_deref()
            .and_then(|c| c.split_once(':'))
            .filter(|(prefix, _)| prefix.eq_ignore_ascii_case("mesh"))
            .map(|(_, local)| local.to_string());
        self.0.insert(id, local.clone());
        Ok(local)
    }
}

/// Searches every gold mention with MeSH ids of the documents `keep` selects, each distinct
/// text once (in parallel; results in input order).
pub fn search_mentions(
    r: &Resolver,
    corpus: &Corpus,
    keep: &dyn Fn(&Document) -> bool,
) -> anyhow::Result<Searches> {
    let mut texts: Vec<String> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut asked = Vec::new();
    for doc in corpus.docs.iter().filter(|d| keep(d)) {
        for g in doc.gold.iter().filter(|g| !g.ids.is_empty()) {
            let search = *at.entry(g.text.clone()).or_insert_with(|| {
                texts.push(g.text.clone());
                texts.len() - 1
            });
            asked.push(Asked {
                search,
                gold: g.ids.clone(),
                calibrates: doc.calibrates(),
            });
        }
    }
    let sources = [MESH.to_string()];
    let searches = texts
        .into_par_iter()
        .map(|text| {
            let found = r.find_by_name(&NameQuery {
                text: &text,
                sources: Some(&sources),
                include_obsolete: false,
                full_text_beside_names: false,
                wanted: LISTED,
            })?;
            Ok(Search {
                abbreviation: found.abbreviation,
                candidates: found.candidates,
                text,
            })
        })
        .collect::<Result<Vec<_>, ontoresolve::resolve::ResolveError>>()
        .context("searching a gold mention's name")?;
    Ok(Searches { searches, asked })
}

/// Each listed candidate of each asked search, labelled: `(calibrates, row)`.
pub fn candidate_rows(
    r: &Resolver,
    searches: &Searches,
    ids: &mut MeshIds,
) -> anyhow::Result<Vec<(bool, Row)>> {
    let mut rows = Vec::new();
    for asked in &searches.asked {
        let search = &searches.searches[asked.search];
        for c in search.candidates.iter().take(LISTED) {
            let right = ids
                .of(r, c.concept)?
                .is_some_and(|id| asked.gold.contains(&id));
            rows.push((
                asked.calibrates,
                Row {
                    features: c.features,
                    right,
                },
            ));
        }
    }
    Ok(rows)
}

/// The first candidate `model` would give each asked search, as `(stated, right)`.
pub fn first_answers(
    r: &Resolver,
    searches: &Searches,
    model: &ConfidenceModel,
    ids: &mut MeshIds,
    calibrating: Option<bool>,
) -> anyhow::Result<Vec<(f64, bool)>> {
    let firsts = searches.firsts(model);
    let mut out = Vec::new();
    for asked in &searches.asked {
        if calibrating.is_some_and(|c| c != asked.calibrates) {
            continue;
        }
        match &firsts[asked.search] {
            Some(first) => {
                let right = ids
                    .of(r, first.concept)?
                    .is_some_and(|id| asked.gold.contains(&id));
                out.push((stated(first), right));
            }
            None => out.push((0.0, false)),
        }
    }
    Ok(out)
}

/// The first candidate `model` gives, as serving ranks and weighs them.
pub fn first_served(
    model: &ConfidenceModel,
    candidates: &[NameCandidate],
    text: &str,
    abbreviation: bool,
) -> Option<NameCandidate> {
    confidence::weigh_candidates(Some(model), candidates.to_vec(), text, abbreviation)
        .into_iter()
        .next()
}

/// A candidate's stated confidence (0 without one).
pub fn stated(c: &NameCandidate) -> f64 {
    c.confidence.as_ref().map_or(0.0, |c| c.p)
}

impl Searches {
    /// Each search's first candidate under `model`, weighed once per distinct text.
    fn firsts(&self, model: &ConfidenceModel) -> Vec<Option<NameCandidate>> {
        self.searches
            .iter()
            .map(|s| first_served(model, &s.candidates, &s.text, s.abbreviation))
            .collect()
    }
}

/// One span a passage read: its features, its first candidate's MeSH id and groups, and its
/// label (`None`: the corpus says nothing of it).
pub struct Reading {
    pub doc: usize,
    pub features: Features,
    pub id: Option<String>,
    pub groups: BTreeSet<Group>,
    pub right: Option<bool>,
}

/// Every reading of every document, grounded with the resolver's model (its candidate part
/// orders each span's candidates; every span is kept, certain or not).
pub fn passage_readings(
    r: &Resolver,
    corpus: &Corpus,
    mesh: &MeshGroups,
    ids: &mut MeshIds,
    keep: &dyn Fn(&Document) -> bool,
) -> anyhow::Result<Vec<Reading>> {
    let sources = [MESH.to_string()];
    let kept: Vec<(usize, &Document)> = corpus
        .docs
        .iter()
        .enumerate()
        .filter(|(_, d)| keep(d))
        .collect();
    let groundings = kept
        .par_iter()
        .map(|(_, doc)| {
            r.ground_passage(&PassageQuery {
                text: &doc.text,
                sources: Some(&sources),
                groups: None,
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .context("grounding a training document")?;
    let mut out = Vec::new();
    for ((at, doc), grounding) in kept.into_iter().zip(&groundings) {
        let bytes = byte_offsets(&doc.text);
        for m in confidence::every_reading(grounding) {
            let Some(first) = m.candidates.first() else {
                continue;
            };
            let id = ids.of(r, first.concept)?;
            let groups = id
                .as_deref()
                .and_then(|id| mesh.of(id))
                .cloned()
                .unwrap_or_default();
            let overlapping: Vec<&[String]> = doc
                .gold
                .iter()
                .filter(|g| bytes(g.start) < m.end && m.start < bytes(g.end))
                .map(|g| g.ids.as_slice())
                .collect();
            let right = if overlapping.iter().any(|ids| ids.is_empty()) {
                None
            } else if !overlapping.is_empty() {
                Some(
                    id.as_ref()
                        .is_some_and(|id| overlapping.iter().any(|g| g.contains(id))),
                )
            } else if groups.iter().any(|g| corpus.groups.contains(g)) {
                Some(false)
            } else {
                None
            };
            out.push(Reading {
                doc: at,
                features: m.features,
                id,
                groups,
                right,
            });
        }
    }
    Ok(out)
}

/// Character offsets to byte offsets of `text`.
fn byte_offsets(text: &str) -> impl Fn(usize) -> usize + '_ {
    let starts: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
    move |char_at| starts.get(char_at).copied().unwrap_or(text.len())
}

/// The first answers stated at 0.9 or more that are wrong, as TSV lines.
pub fn confident_misses(
    r: &Resolver,
    searches: &Searches,
    model: &ConfidenceModel,
    ids: &mut MeshIds,
) -> anyhow::Result<String> {
    let firsts = searches.firsts(model);
    let mut out = String::new();
    for asked in &searches.asked {
        let s = &searches.searches[asked.search];
        let Some(first) = &firsts[asked.search] else {
            continue;
        };
        let Some(c) = &first.confidence else {
            continue;
        };
        let id = ids.of(r, first.concept)?.unwrap_or_default();
        if c.p >= 0.9 && !asked.gold.contains(&id) {
            out.push_str(&format!(
                "{}\t{}\t{id} {}\t{:.3}\t{}\n",
                s.text,
                asked.gold.join("|"),
                first.kind.wire_name(),
                c.p,
                c.basis_text()
            ));
        }
    }
    Ok(out)
}

/// Per match kind of the first answer: answers, mean stated, share right.
pub fn by_kind(
    r: &Resolver,
    searches: &Searches,
    model: &ConfidenceModel,
    ids: &mut MeshIds,
) -> anyhow::Result<String> {
    let mut kinds: std::collections::BTreeMap<&'static str, (usize, f64, usize)> =
        std::collections::BTreeMap::new();
    let firsts = searches.firsts(model);
    for asked in &searches.asked {
        let Some(first) = &firsts[asked.search] else {
            continue;
        };
        let p = stated(first);
        let right = ids
            .of(r, first.concept)?
            .is_some_and(|id| asked.gold.contains(&id));
        let e = kinds.entry(first.kind.wire_name()).or_default();
        e.0 += 1;
        e.1 += p;
        e.2 += usize::from(right);
    }
    Ok(kinds
        .iter()
        .map(|(k, (n, p, right))| {
            format!(
                "{k} {n}@{:.2}:{:.2}",
                p / *n as f64,
                *right as f64 / *n as f64
            )
        })
        .collect::<Vec<_>>()
        .join(", "))
}
