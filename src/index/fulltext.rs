//! The tantivy full-text index over labels, synonyms and definitions.

use std::path::Path;

use tantivy::Term;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, ConstScoreQuery, Occur, Query, TermQuery};
use tantivy::schema::{FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TEXT};
use tantivy::tokenizer::{TextAnalyzer, TokenStream};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, doc};

use crate::model::Concept;

#[derive(Debug, thiserror::Error)]
#[error("full-text index: {0}")]
pub struct FullTextError(#[from] tantivy::TantivyError);

/// The concept id field.
const ID: &str = "id";

struct Fields {
    id: Field,
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

    pub fn add(
        &mut self,
        id: u32,
        source_id: &str,
        concept: &Concept,
    ) -> Result<(), FullTextError> {
        let f = &self.fields;
        let mut document = doc!(f.id => u64::from(id), f.source => source_id);
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
    /// The searched text fields, each with its boost and the analyzer that indexed it.
    fields: Vec<(Field, f32, TextAnalyzer)>,
    source: Field,
}

impl FullText {
    pub fn open(dir: &Path) -> Result<Self, FullTextError> {
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
            fields: analyzed,
            source: fields.source,
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

    /// The best `limit` hits for free text in the given release keys (all when `None`), and
    /// whether more match. Query syntax is never interpreted: the text is searched as words.
    pub fn search(
        &self,
        text: &str,
        sources: Option<&[String]>,
        limit: usize,
    ) -> Result<(Vec<TextHit>, bool), FullTextError> {
        // Words only: query syntax such as `*`, `field:` or quotes is data, not an operator.
        let words: String = text
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { ' ' })
            .collect::<String>()
            .to_lowercase();
        let limit = limit.min(MAX_HITS);
        let words_query = self.words_query(&words);
        let query: Box<dyn Query> = match sources {
            None => Box::new(words_query),
            Some(sources) => {
                let any_source: Vec<(Occur, Box<dyn Query>)> = sources
                    .iter()
                    .map(|s| {
                        let term = Term::from_field_text(self.source, s);
                        let query: Box<dyn Query> =
                            Box::new(TermQuery::new(term, IndexRecordOption::Basic));
                        (Occur::Should, query)
                    })
                    .collect();
                // The source clause filters without scoring: a small source's rare term
                // must not lift its hits.
                let filter = ConstScoreQuery::new(Box::new(BooleanQuery::new(any_source)), 0.0);
                Box::new(BooleanQuery::new(vec![
                    (Occur::Must, Box::new(words_query) as Box<dyn Query>),
                    (Occur::Must, Box::new(filter)),
                ]))
            }
        };
        let searcher = self.reader.searcher();
        // One hit past the limit says whether more match, without counting every match.
        let top = searcher.search(&query, &TopDocs::with_limit(limit + 1).order_by_score())?;
        let more = top.len() > limit;
        let mut hits = Vec::with_capacity(top.len());
        let mut columns = Vec::new();
        for (score, address) in top.into_iter().take(limit) {
            let segment = address.segment_ord as usize;
            if columns.len() <= segment {
                columns.resize_with(segment + 1, || None);
            }
            if columns[segment].is_none() {
                columns[segment] = Some(
                    searcher
                        .segment_reader(address.segment_ord)
                        .fast_fields()
                        .u64(ID)?,
                );
            }
            let id = columns[segment]
                .as_ref()
                .and_then(|c| c.first(address.doc_id));
            match id.and_then(|id| u32::try_from(id).ok()) {
                Some(id) => hits.push(TextHit { concept: id, score }),
                None => super::damage::report(&format_args!(
                    "full-text document {} of segment {segment} has no concept id",
                    address.doc_id
                )),
            }
        }
        Ok((hits, more))
    }
}
