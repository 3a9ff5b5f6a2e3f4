//! Read-only SPARQL for callers outside the build: a query is parsed, refused when it could
//! write (updates, LOAD) or reach another server (SERVICE), and run with a row cap and a
//! deadline that cancels the evaluation itself, so a query that would run forever stops.

use std::sync::{Condvar, Mutex, mpsc};
use std::time::Duration;

use super::StoreReader;
use super::algebra::{calls_service, matched_iris};
use oxigraph::model::{NamedNode, Term};
use oxigraph::sparql::{CancellationToken, QueryEvaluationError, QueryResults, SparqlEvaluator};

/// The longest query text accepted, in bytes.
pub const MAX_QUERY_BYTES: usize = 20_000;

/// SELECT, ASK, CONSTRUCT or DESCRIBE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryForm {
    Select,
    Ask,
    Construct,
    Describe,
}

/// Why a query was not run.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum QueryRefusal {
    #[error("the query is {bytes} bytes; at most {MAX_QUERY_BYTES} are accepted")]
    TooLong { bytes: usize },
    #[error("SPARQL syntax error: {0}")]
    Syntax(String),
    #[error(
        "this is a SPARQL update (INSERT, DELETE, LOAD, CLEAR, CREATE, DROP, …); the store is read-only"
    )]
    Update,
    #[error("the query calls SERVICE; queries run on the local store only")]
    Service,
}

/// Why a query that was run did not finish.
#[derive(Debug, thiserror::Error)]
pub enum QueryFailure {
    #[error("the query ran past its {}-ms deadline and was stopped", .0.as_millis())]
    Timeout(Duration),
    #[error("SPARQL evaluation failed: {0}")]
    Evaluation(String),
    #[error("earlier queries are still being stopped")]
    Busy,
}

/// A query that was checked to be read-only and local.
#[derive(Debug)]
pub struct ReadOnlyQuery {
    query: spargebra::Query,
    pub form: QueryForm,
}

/// The graphs a query ran on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum QueryDataset {
    /// No FROM or FROM NAMED: the default graph is the union of every named graph, and
    /// `GRAPH` still selects one.
    #[default]
    UnionDefaultGraph,
    /// The query's own FROM (the default graph) and FROM NAMED graphs.
    Declared {
        default: Vec<String>,
        named: Vec<String>,
    },
}

impl ReadOnlyQuery {
    /// The dataset the query declares, or the union default graph when it declares none.
    pub fn dataset(&self) -> QueryDataset {
        let declared = match &self.query {
            spargebra::Query::Select { dataset, .. }
            | spargebra::Query::Ask { dataset, .. }
            | spargebra::Query::Construct { dataset, .. }
            | spargebra::Query::Describe { dataset, .. } => dataset.as_ref(),
        };
        match declared {
            None => QueryDataset::UnionDefaultGraph,
            Some(d) => QueryDataset::Declared {
                default: d.default.iter().map(|n| n.as_str().to_string()).collect(),
                named: d
                    .named
                    .iter()
                    .flatten()
                    .map(|n| n.as_str().to_string())
                    .collect(),
            },
        }
    }

    /// The IRIs the query matches data against.
    pub fn matched_iris(&self) -> Vec<String> {
        match &self.query {
            spargebra::Query::Select { pattern, .. }
            | spargebra::Query::Ask { pattern, .. }
            | spargebra::Query::Construct { pattern, .. }
            | spargebra::Query::Describe { pattern, .. } => matched_iris(pattern),
        }
    }
}

/// How many of a query's IRIs are looked up when it finds nothing.
const MAX_CHECKED_IRIS: usize = 20;

/// One RDF term of an answer, as the SPARQL JSON results format spells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerTerm {
    pub kind: TermKind,
    pub value: String,
    pub datatype: Option<String>,
    pub language: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TermKind {
    Iri,
    BlankNode,
    Literal,
    Triple,
}

/// What a query returned, up to the row cap. CONSTRUCT and DESCRIBE rows are triples with
/// the variables `subject`, `predicate`, `object`; ASK has no rows and a `boolean`.
#[derive(Clone, Debug, Default)]
pub struct QueryRows {
    pub variables: Vec<String>,
    pub rows: Vec<Vec<Option<AnswerTerm>>>,
    pub boolean: Option<bool>,
    /// More rows existed than the cap allowed.
    pub capped: bool,
    /// Rows the query gave in all, counted past the cap up to [`MAX_COUNTED_ROWS`] and
    /// within the deadline.
    pub total: u64,
    /// Whether `total` is every row, not a lower bound.
    pub total_exact: bool,
    /// The graphs the query ran on.
    pub dataset: QueryDataset,
    /// When the query found nothing: the IRIs it matches against that occur in no triple of
    /// the store (the likely reason it found nothing).
    pub absent_iris: Vec<String>,
}

/// How many rows past the cap are counted to report a total.
pub const MAX_COUNTED_ROWS: u64 = 100_000;

/// Keeps the rows of a result stream from `offset`, at most `limit`, then counts the rest.
fn collect_rows<T>(
    out: &mut QueryRows,
    mut items: impl Iterator<Item = Result<T, QueryEvaluationError>>,
    (offset, limit): (usize, usize),
    timeout: Duration,
    to_row: impl Fn(T) -> Vec<Option<AnswerTerm>>,
) -> Result<(), QueryFailure> {
    for item in items.by_ref() {
        let item = item.map_err(|e| evaluation_error(e, timeout))?;
        out.total += 1;
        if out.total as usize <= offset {
            continue;
        }
        if out.rows.len() == limit {
            out.capped = true;
            break;
        }
        out.rows.push(to_row(item));
    }
    count_rest(out, items, timeout)
}

/// Counts what is left of a result stream, up to [`MAX_COUNTED_ROWS`] in all; a deadline
/// reached while counting ends the count, not the answer.
fn count_rest<T>(
    out: &mut QueryRows,
    rest: impl Iterator<Item = Result<T, QueryEvaluationError>>,
    timeout: Duration,
) -> Result<(), QueryFailure> {
    out.total_exact = true;
    for item in rest {
        match item {
            Ok(_) if out.total < MAX_COUNTED_ROWS => out.total += 1,
            Ok(_) | Err(QueryEvaluationError::Cancelled) => {
                out.total_exact = false;
                break;
            }
            Err(e) => return Err(evaluation_error(e, timeout)),
        }
    }
    Ok(())
}

/// Parses `text` and refuses anything but a local read.
pub fn parse_read_only(text: &str) -> Result<ReadOnlyQuery, QueryRefusal> {
    if text.len() > MAX_QUERY_BYTES {
        return Err(QueryRefusal::TooLong { bytes: text.len() });
    }
    let parsed = match spargebra::SparqlParser::new().parse_query(text) {
        Ok(q) => q,
        Err(query_error) => {
            // An empty text is a valid update of no operations: it is still no query.
            let is_update = spargebra::SparqlParser::new()
                .parse_update(text)
                .is_ok_and(|u| !u.operations.is_empty());
            return Err(if is_update {
                QueryRefusal::Update
            } else {
                QueryRefusal::Syntax(query_error.to_string())
            });
        }
    };
    let (form, pattern) = match &parsed {
        spargebra::Query::Select { pattern, .. } => (QueryForm::Select, pattern),
        spargebra::Query::Ask { pattern, .. } => (QueryForm::Ask, pattern),
        spargebra::Query::Construct { pattern, .. } => (QueryForm::Construct, pattern),
        spargebra::Query::Describe { pattern, .. } => (QueryForm::Describe, pattern),
    };
    if calls_service(pattern) {
        return Err(QueryRefusal::Service);
    }
    Ok(ReadOnlyQuery {
        query: parsed,
        form,
    })
}

/// How long after its deadline a cancelled evaluation may take to say so before the caller
/// is answered without it (a join or aggregate held in memory notices late).
const CANCEL_GRACE: Duration = Duration::from_millis(200);
/// Evaluations that may run at once, cancelled ones winding down included; a new query
/// waits for a place (up to its deadline), so abandoned work never piles up.
const MAX_EVALUATIONS: usize = 6;
static EVALUATIONS: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// One place among [`MAX_EVALUATIONS`], given back when the evaluation thread ends.
struct EvaluationPlace;

impl EvaluationPlace {
    /// A place, waiting at most `wait` for one.
    fn take(wait: Duration) -> Option<EvaluationPlace> {
        let (count, freed) = &EVALUATIONS;
        let running = count.lock().unwrap_or_else(|e| e.into_inner());
        let (mut running, _) = freed
            .wait_timeout_while(running, wait, |n| *n >= MAX_EVALUATIONS)
            .unwrap_or_else(|e| e.into_inner());
        if *running >= MAX_EVALUATIONS {
            return None;
        }
        *running += 1;
        Some(EvaluationPlace)
    }
}

impl Drop for EvaluationPlace {
    fn drop(&mut self) {
        let (count, freed) = &EVALUATIONS;
        let mut running = count.lock().unwrap_or_else(|e| e.into_inner());
        *running = running.saturating_sub(1);
        freed.notify_one();
    }
}

fn answer_term(term: Term) -> AnswerTerm {
    match term {
        Term::NamedNode(n) => AnswerTerm {
            kind: TermKind::Iri,
            value: n.into_string(),
            datatype: None,
            language: None,
        },
        Term::BlankNode(b) => AnswerTerm {
            kind: TermKind::BlankNode,
            value: b.into_string(),
            datatype: None,
            language: None,
        },
        Term::Literal(l) => {
            let language = l.language().map(str::to_string);
            let datatype = (language.is_none()).then(|| l.datatype().as_str().to_string());
            AnswerTerm {
                kind: TermKind::Literal,
                value: l.value().to_string(),
                datatype,
                language,
            }
        }
        #[allow(unreachable_patterns)]
        other => AnswerTerm {
            kind: TermKind::Triple,
            value: other.to_string(),
            datatype: None,
            language: None,
        },
    }
}

fn evaluation_error(e: QueryEvaluationError, timeout: Duration) -> QueryFailure {
    match e {
        QueryEvaluationError::Cancelled => QueryFailure::Timeout(timeout),
        other => QueryFailure::Evaluation(other.to_string()),
    }
}

impl StoreReader {
    /// Runs a checked query, skipping `offset` rows and keeping at most `limit`, stopping it
    /// after `timeout`.
    ///
    /// The evaluation runs on a thread of its own and the caller is answered by the deadline
    /// whatever it is doing: oxigraph checks cancellation as it reads quads, not inside a
    /// join or aggregate it holds in memory, so a cancelled evaluation may finish late; its
    /// thread then ends on its own, holding one of `MAX_EVALUATIONS` places until it does.
    pub fn run_read_only(
        &self,
        query: ReadOnlyQuery,
        offset: usize,
        limit: usize,
        timeout: Duration,
    ) -> Result<QueryRows, QueryFailure> {
        let started = std::time::Instant::now();
        let place = EvaluationPlace::take(timeout).ok_or(QueryFailure::Busy)?;
        let timeout_left = timeout.saturating_sub(started.elapsed());
        let token = CancellationToken::new();
        let (sender, answer) = mpsc::channel();
        let reader = self.clone();
        let evaluation_token = token.clone();
        std::thread::Builder::new()
            .name("sparql".into())
            .spawn(move || {
                let _place = place;
                let rows = reader.evaluate(query, offset, limit, timeout, evaluation_token);
                let _ = sender.send(rows);
            })
            .map_err(|e| QueryFailure::Evaluation(format!("no thread for the query: {e}")))?;
        match answer.recv_timeout(timeout_left) {
            Ok(rows) => rows,
            Err(_) => {
                token.cancel();
                // What the evaluation had when it noticed (rows counted so far), if it
                // notices soon; else the deadline's answer.
                answer
                    .recv_timeout(CANCEL_GRACE)
                    .unwrap_or(Err(QueryFailure::Timeout(timeout)))
            }
        }
    }

    /// Evaluates a checked query until it ends or `token` is cancelled.
    fn evaluate(
        &self,
        query: ReadOnlyQuery,
        offset: usize,
        limit: usize,
        timeout: Duration,
        token: CancellationToken,
    ) -> Result<QueryRows, QueryFailure> {
        let dataset = query.dataset();
        let iris = query.matched_iris();
        let mut prepared = SparqlEvaluator::new()
            .with_cancellation_token(token)
            .for_query(query.query);
        if dataset == QueryDataset::UnionDefaultGraph {
            prepared.dataset_mut().set_default_graph_as_union();
        }
        let results = prepared
            .on_store(&self.store)
            .execute()
            .map_err(|e| evaluation_error(e, timeout))?;
        let mut out = QueryRows {
            dataset,
            ..QueryRows::default()
        };
        match results {
            QueryResults::Boolean(b) => {
                out.boolean = Some(b);
                out.total_exact = true;
            }
            QueryResults::Solutions(solutions) => {
                out.variables = solutions
                    .variables()
                    .iter()
                    .map(|v| v.as_str().to_string())
                    .collect();
                collect_rows(&mut out, solutions, (offset, limit), timeout, |solution| {
                    solution
                        .values()
                        .iter()
                        .map(|t| t.clone().map(answer_term))
                        .collect()
                })?;
            }
            QueryResults::Graph(triples) => {
                out.variables = ["subject", "predicate", "object"]
                    .map(String::from)
                    .to_vec();
                collect_rows(&mut out, triples, (offset, limit), timeout, |triple| {
                    vec![
                        Some(answer_term(triple.subject.into())),
                        Some(answer_term(triple.predicate.into())),
                        Some(answer_term(triple.object)),
                    ]
                })?;
            }
        }
        if out.total == 0 && out.boolean != Some(true) {
            out.absent_iris = self.absent(&iris)?;
        }
        Ok(out)
    }

    /// Of these IRIs (at most [`MAX_CHECKED_IRIS`]), the ones no triple of any graph uses as
    /// subject, predicate or object.
    fn absent(&self, iris: &[String]) -> Result<Vec<String>, QueryFailure> {
        let mut out = Vec::new();
        for iri in iris.iter().take(MAX_CHECKED_IRIS) {
            let Ok(node) = NamedNode::new(iri.as_str()) else {
                continue;
            };
            let node = node.as_ref();
            let used = |quads: oxigraph::store::QuadIter<'_>| -> Result<bool, QueryFailure> {
                match quads.into_iter().next() {
                    None => Ok(false),
                    Some(Ok(_)) => Ok(true),
                    Some(Err(e)) => Err(QueryFailure::Evaluation(e.to_string())),
                }
            };
            let found = used(
                self.store
                    .quads_for_pattern(Some(node.into()), None, None, None),
            )? || used(self.store.quads_for_pattern(None, Some(node), None, None))?
                || used(
                    self.store
                        .quads_for_pattern(None, None, Some(node.into()), None),
                )?;
            if !found {
                out.push(iri.clone());
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_and_load_are_refused_as_updates() {
        for text in [
            "INSERT DATA { <http://a> <http://b> <http://c> }",
            "DELETE WHERE { ?s ?p ?o }",
            "LOAD <http://example.org/data.ttl>",
            "CLEAR ALL",
            "DROP GRAPH <http://a>",
        ] {
            assert_eq!(
                parse_read_only(text).unwrap_err(),
                QueryRefusal::Update,
                "{text}"
            );
        }
    }

    #[test]
    fn service_is_refused_wherever_it_hides() {
        for text in [
            "SELECT * WHERE { SERVICE <http://dbpedia.org/sparql> { ?s ?p ?o } }",
            "SELECT * WHERE { ?a ?b ?c OPTIONAL { SERVICE SILENT <http://x> { ?s ?p ?o } } }",
            "SELECT * WHERE { ?a ?b ?c FILTER EXISTS { SERVICE <http://x> { ?s ?p ?o } } }",
            "ASK { { ?a ?b ?c } UNION { SERVICE <http://x> { ?s ?p ?o } } }",
            "SELECT * WHERE { ?a ?b ?c BIND(IF(EXISTS { SERVICE <http://x> { ?s ?p ?o } }, 1, 0) AS ?z) }",
        ] {
            assert_eq!(
                parse_read_only(text).unwrap_err(),
                QueryRefusal::Service,
                "{text}"
            );
        }
    }

    #[test]
    fn the_four_read_forms_are_accepted() {
        let forms = [
            ("SELECT ?s WHERE { ?s ?p ?o }", QueryForm::Select),
            ("ASK { ?s ?p ?o }", QueryForm::Ask),
            (
                "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }",
                QueryForm::Construct,
            ),
            ("DESCRIBE <http://example.org/x>", QueryForm::Describe),
        ];
        for (text, form) in forms {
            assert_eq!(parse_read_only(text).expect(text).form, form);
        }
    }

    #[test]
    fn a_syntax_error_says_where_and_an_oversized_query_is_refused_unparsed() {
        let Err(QueryRefusal::Syntax(message)) = parse_read_only("SELECT ?s WHERE { ?s ?p ") else {
            panic!("expected a syntax error");
        };
        assert!(!message.is_empty());
        let long = format!(
            "SELECT * WHERE {{ ?s ?p \"{}\" }}",
            "x".repeat(MAX_QUERY_BYTES)
        );
        assert!(matches!(
            parse_read_only(&long),
            Err(QueryRefusal::TooLong { .. })
        ));
        assert!(matches!(parse_read_only(""), Err(QueryRefusal::Syntax(_))));
    }
}
