//! The tantivy full-text index over labels, synonyms and definitions.
//!
//! A document names its concept by the source release it belongs to (`origin`, a digest of
//! the release's graph IRI) and its place within that release (`id`), never by a build-wide
//! id: a later build whose sources move keeps every document as it stands, and the reader
//! adds each release's first concept id from the manifest.

use std::collections::{BinaryHeap, HashMap};
use std::path::Path;

use sha2::{Digest, Sha256};
use tantivy::Term;

use tantivy::query::{BooleanQuery, BoostQuery, EnableScoring, Occur, Query, TermQuery};
use tantivy::schema::{FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TEXT};
use tantivy::tokenizer::{TextAnalyzer, TokenStream};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Score, doc};

use crate::model::Concept;

#[derive(Debug, thiserror::Error)]
pub enum FullTextError {
    #[error("full-text index: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    /// Documents whose ids name no concept of the build: damage, never fewer hits.
    #[error("full-text index: {documents} documents name no concept of this build")]
    Damaged { documents: u64 },
}

/// The concept's place within its source release.
const ID: &str = "id";
/// The source release's number ([`origin_of`]).
const ORIGIN: &str = "origin";

/// The number that names a source release's documents: the first eight bytes of the SHA-256
/// of its graph IRI, the same in every build.
pub fn origin_of(graph: &str) -> u64 {
    let digest = Sha256::digest(graph.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}

/// Where a source release's documents are written from: its origin and first concept id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DocumentOrigin {
    pub origin: u64,
    pub first_concept: u32,
}

struct Fields {
    id: Field,
    origin: Field,
    label: Field,
    synonym: Field,
    definition: Field,
    source: Field,
}

fn schema() -> (Schema, Fields) {
    let mut builder = Schema::builder();
    let fields = Fields {
        // A fast field: hits read their concept id from a column, never from stored documents.
        id: builder.add_u64_field(ID, INDEXED | STORED | FAST),
        // Indexed too: a search of some releases takes their documents' postings as a clause.
        origin: builder.add_u64_field(ORIGIN, FAST | INDEXED),
        label: builder.add_text_field("label", TEXT),
        synonym: builder.add_text_field("synonym", TEXT),
        definition: builder.add_text_field("definition", TEXT),
        source: builder.add_text_field("source", STRING),
    };
    (builder.build(), fields)
}

pub struct FullTextWriter {
    writer: IndexWriter,
    fields: Fields,
}

impl FullTextWriter {
    /// One indexing thread, so documents keep the order they were added in.
    pub fn create(dir: &Path) -> Result<Self, FullTextError> {
        let (schema, fields) = schema();
        let index = Index::create_in_dir(dir, schema)?;
        let writer = index.writer_with_num_threads(1, 128 * 1024 * 1024)?;
        Ok(FullTextWriter { writer, fields })
    }

    /// A writer that adds to a copy of an installed build's full-text index: its files are
    /// copied from `installed` into the empty directory `dir` (they are never changed in
    /// place), and documents added after them keep their order.
    pub fn append_to_copy(installed: &Path, dir: &Path) -> Result<Self, FullTextError> {
        let copy = |e: std::io::Error| {
            FullTextError::Tantivy(tantivy::TantivyError::InternalError(format!(
                "copying the installed full-text index: {e}"
            )))
        };
        for entry in std::fs::read_dir(installed).map_err(copy)? {
            let entry = entry.map_err(copy)?;
            let name = entry.file_name();
            // Lock files belong to the writer that made them.
            if entry.file_type().map_err(copy)?.is_file()
                && !name.to_string_lossy().ends_with(".lock")
            {
                std::fs::copy(entry.path(), dir.join(&name)).map_err(copy)?;
            }
        }
        let index = Index::open_in_dir(dir)?;
        let (_, fields) = schema();
        let writer = index.writer_with_num_threads(1, 128 * 1024 * 1024)?;
        Ok(FullTextWriter { writer, fields })
    }

    /// Adds concept `id` of the source release `from` (its key `source_id`); `id` is at or
    /// above the release's first concept.
    pub fn add(
        &mut self,
        (id, from): (u32, DocumentOrigin),
        source_id: &str,
        concept: &Concept,
    ) -> Result<(), FullTextError> {
        let f = &self.fields;
        let local = u64::from(id.saturating_sub(from.first_concept));
        let mut document = doc!(f.id => local, f.origin => from.origin, f.source => source_id);
        for label in &concept.labels {
            let field = if label.kind.is_primary() {
                f.label
            } else {
                f.synonym
            };
            document.add_text(field, &label.text);
        }
        for definition in &concept.definitions {
            document.add_text(f.definition, &definition.text);
        }
        self.writer.add_document(document)?;
        Ok(())
    }

    pub fn finish(mut self) -> Result<(), FullTextError> {
        self.writer.commit()?;
        self.writer.wait_merging_threads()?;
        Ok(())
    }
}

/// Files of the full-text index at `dir` whose bytes no longer match the checksum tantivy
/// wrote in their footer, sorted. An error when the index cannot be opened or a file cannot
/// be read to its footer (a truncated file).
pub fn damaged_files(dir: &Path) -> Result<Vec<std::path::PathBuf>, String> {
    let index = Index::open_in_dir(dir).map_err(|e| e.to_string())?;
    let mut damaged: Vec<std::path::PathBuf> = index
        .validate_checksum()
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|file| dir.join(file))
        .collect();
    damaged.sort();
    Ok(damaged)
}

/// A full-text hit: the concept id and its BM25 score (labels weigh 3, synonyms 2,
/// definitions 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextHit {
    pub concept: u32,
    pub score: f32,
}

/// The most hits one search returns, whatever the caller asks.
pub const MAX_HITS: usize = 1000;

pub struct FullText {
    reader: IndexReader,
    /// Each source release's first concept id, by origin.
    firsts: HashMap<u64, u32>,
    /// The searched text fields, each with its boost and the analyzer that indexed it.
    fields: Vec<(Field, f32, TextAnalyzer)>,
    /// The column naming each document's source release.
    origin: Field,
}

impl FullText {
    /// Opens the full text of a build whose source releases are `origins`.
    pub fn open(dir: &Path, origins: &[DocumentOrigin]) -> Result<Self, FullTextError> {
        let index = Index::open_in_dir(dir)?;
        let (_, fields) = schema();
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let searched = [
            (fields.label, 3.0),
            (fields.synonym, 2.0),
            (fields.definition, 1.0),
        ];
        let mut analyzed = Vec::with_capacity(searched.len());
        for (field, boost) in searched {
            analyzed.push((field, boost, index.tokenizer_for_field(field)?));
        }
        Ok(FullText {
            reader,
            firsts: origins
                .iter()
                .map(|o| (o.origin, o.first_concept))
                .collect(),
            fields: analyzed,
            origin: fields.origin,
        })
    }

    /// One flat disjunction: every word in every searched field, boosted by field. Flat, so
    /// that tantivy ranks the top hits by block-max WAND instead of scoring every match; a
    /// repeated word counts each time, as a query parser would count it.
    fn words_query(&self, words: &str) -> BooleanQuery {
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for (field, boost, analyzer) in &self.fields {
            let mut analyzer = analyzer.clone();
            let mut tokens = analyzer.token_stream(words);
            while let Some(token) = tokens.next() {
                let term = Term::from_field_text(*field, &token.text);
                let query = TermQuery::new(term, IndexRecordOption::WithFreqs);
                clauses.push((
                    Occur::Should,
                    Box::new(BoostQuery::new(Box::new(query), *boost)),
                ));
            }
        }
        BooleanQuery::new(clauses)
    }

    /// The best `limit` hits for free text among the concepts `wanted` accepts (every
    /// concept when `None`), and whether more match. Query syntax is never interpreted: the
    /// text is searched as words.
    ///
    /// The filter runs inside block-max WAND, as tantivy's own top-docs collector skips
    /// deleted documents: a rejected document never raises the bar, so a narrow filter still
    /// skips every block that cannot beat the wanted hits found so far.
    pub fn search(
        &self,
        text: &str,
        wanted: Option<&dyn Fn(u32) -> bool>,
        limit: usize,
    ) -> Result<(Vec<TextHit>, bool), FullTextError> {
        self.ranked(text, None, wanted, limit)
    }

    /// [`Self::search`] among the documents of the source releases `origins` (by
    /// [`origin_of`] their graphs), which `wanted` also accepts. The releases are a clause of
    /// the query, so documents of other releases are never scored: a search of one small
    /// release among large ones does not rank the large ones' common words.
    pub fn search_in(
        &self,
        text: &str,
        origins: &[u64],
        wanted: &dyn Fn(u32) -> bool,
        limit: usize,
    ) -> Result<(Vec<TextHit>, bool), FullTextError> {
        self.ranked(text, Some(origins), Some(wanted), limit)
    }

    fn ranked(
        &self,
        text: &str,
        origins: Option<&[u64]>,
        wanted: Option<&dyn Fn(u32) -> bool>,
        limit: usize,
    ) -> Result<(Vec<TextHit>, bool), FullTextError> {
        // Words only: query syntax such as `*`, `field:` or quotes is data, not an operator.
        let words: String = text
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { ' ' })
            .collect::<String>()
            .to_lowercase();
        let limit = limit.min(MAX_HITS);
        let searcher = self.reader.searcher();
        let words_query = self.words_query(&words);
        let query: Box<dyn Query> = match origins {
            None => Box::new(words_query),
            Some(origins) => {
                let releases: Vec<(Occur, Box<dyn Query>)> = origins
                    .iter()
                    .map(|&o| {
                        let at = Term::from_field_u64(self.origin, o);
                        let release = TermQuery::new(at, IndexRecordOption::Basic);
                        (Occur::Should, Box::new(release) as Box<dyn Query>)
                    })
                    .collect();
                // Scored 0: the releases select documents, they never add to a score.
                let releases = BoostQuery::new(Box::new(BooleanQuery::new(releases)), 0.0);
                Box::new(BooleanQuery::new(vec![
                    (Occur::Must, Box::new(words_query) as Box<dyn Query>),
                    (Occur::Must, Box::new(releases)),
                ]))
            }
        };
        let weight = query.weight(EnableScoring::enabled_from_searcher(&searcher))?;
        // One hit past the limit says whether more match, without counting every match.
        let mut best = BestHits::new(limit + 1);
        let mut missing_ids = 0u64;
        for reader in searcher.segment_readers() {
            let ids = reader.fast_fields().u64(ID)?;
            let origins = reader.fast_fields().u64(ORIGIN)?;
            let alive = reader.alive_bitset();
            let mut threshold = best.threshold();
            weight.for_each_pruning(threshold, reader, &mut |doc, score| {
                if alive.is_some_and(|a| a.is_deleted(doc)) {
                    return threshold;
                }
                let concept = ids.first(doc).and_then(|local| {
                    let first = *self.firsts.get(&origins.first(doc)?)?;
                    first.checked_add(u32::try_from(local).ok()?)
                });
                let Some(concept) = concept else {
                    missing_ids += 1;
                    return threshold;
                };
                if wanted.is_none_or(|keep| keep(concept)) {
                    best.push(Ranked { score, concept });
                    threshold = best.threshold();
                }
                threshold
            })?;
        }
        if missing_ids > 0 {
            return Err(FullTextError::Damaged {
                documents: missing_ids,
            });
        }
        let mut hits = best.into_sorted();
        let more = hits.len() > limit;
        hits.truncate(limit);
        Ok((hits, more))
    }
}

/// A hit while ranking: ordered worst first, so that a max-heap pops the worst (the lower
/// score, then the later concept). Ties go by concept id, not by where the document sits, so
/// an index built in one go and one added to a copy rank alike.
struct Ranked {
    score: f32,
    concept: u32,
}

impl Ranked {
    fn worse_than(&self, other: &Ranked) -> std::cmp::Ordering {
        other
            .score
            .total_cmp(&self.score)
            .then(self.concept.cmp(&other.concept))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.worse_than(other).is_eq()
    }
}

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.worse_than(other)
    }
}

/// The `k` best hits seen, and the score a document must beat to join them.
struct BestHits {
    k: usize,
    heap: BinaryHeap<Ranked>,
}

impl BestHits {
    fn new(k: usize) -> Self {
        BestHits {
            k,
            heap: BinaryHeap::with_capacity(k + 1),
        }
    }

    fn push(&mut self, hit: Ranked) {
        if self.heap.len() < self.k {
            self.heap.push(hit);
        } else if self.heap.peek().is_some_and(|worst| hit < *worst) {
            self.heap.pop();
            self.heap.push(hit);
        }
    }

    /// Just under the worst kept score once `k` are kept (a tie may still win on its concept
    /// id, whichever segment it sits in); any score before.
    fn threshold(&self) -> Score {
        match self.heap.peek() {
            Some(worst) if self.heap.len() >= self.k => worst.score.next_down(),
            _ => Score::MIN,
        }
    }

    /// Best first.
    fn into_sorted(self) -> Vec<TextHit> {
        self.heap
            .into_sorted_vec()
            .into_iter()
            .map(|h| TextHit {
                concept: h.concept,
                score: h.score,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Label, LabelKind, Provenance, SourceIdx};

    fn named(text: &str) -> Concept {
        Concept {
            labels: vec![Label {
                text: text.into(),
                kind: LabelKind::Label,
                lang: None,
                prov: Provenance {
                    source: SourceIdx(0),
                },
            }],
            ..Concept::default()
        }
    }

    const X: DocumentOrigin = DocumentOrigin {
        origin: 7,
        first_concept: 0,
    };

    #[test]
    fn equal_scores_rank_by_concept_id_whichever_segment_holds_them() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (installed, copy) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir(&installed).expect("dir");
        std::fs::create_dir(&copy).expect("dir");
        let mut writer = FullTextWriter::create(&installed).expect("create");
        writer
            .add((9, X), "x", &named("lung disease"))
            .expect("add");
        writer.add((4, X), "x", &named("heart")).expect("add");
        writer.finish().expect("finish");
        let mut writer = FullTextWriter::append_to_copy(&installed, &copy).expect("copy");
        writer
            .add((2, X), "x", &named("lung disease"))
            .expect("add");
        writer.finish().expect("finish");

        let text = FullText::open(&copy, &[X]).expect("open");
        let concepts = |limit| {
            let (hits, more) = text.search("lung", None, limit).expect("search");
            (hits.iter().map(|h| h.concept).collect::<Vec<_>>(), more)
        };
        assert_eq!(concepts(10), (vec![2, 9], false));
        // The tie in the later segment still wins the one place.
        assert_eq!(concepts(1), (vec![2], true));
        let installed = FullText::open(&installed, &[X]).expect("open the installed copy");
        assert_eq!(
            installed.search("lung", None, 10).expect("search").0.len(),
            1
        );
    }

    #[test]
    fn a_document_follows_its_release_to_wherever_a_later_build_numbers_it_and_one_of_no_release_is_damage()
     {
        let dir = tempfile::tempdir().expect("tempdir");
        let from = DocumentOrigin {
            origin: origin_of("urn:ontoresolve:graph:x:2026"),
            first_concept: 100,
        };
        let mut writer = FullTextWriter::create(dir.path()).expect("create");
        writer
            .add((103, from), "x", &named("lung disease"))
            .expect("add");
        writer.finish().expect("finish");
        let concepts = |origins: &[DocumentOrigin]| {
            let text = FullText::open(dir.path(), origins).expect("open");
            let hits = text.search("lung", None, 10).expect("search").0;
            hits.iter().map(|h| h.concept).collect::<Vec<_>>()
        };
        assert_eq!(concepts(&[from]), vec![103]);
        let moved = DocumentOrigin {
            first_concept: 130,
            ..from
        };
        assert_eq!(concepts(&[moved]), vec![133]);
        // A document of a release this build does not hold is damage, never fewer hits.
        let text = FullText::open(dir.path(), &[X]).expect("open");
        assert!(matches!(
            text.search("lung", None, 10),
            Err(FullTextError::Damaged { documents: 1 })
        ));
    }
}
