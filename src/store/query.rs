//! Read-only SPARQL for callers outside the build: a query is parsed, refused when it could
//! write (updates, LOAD) or reach another server (SERVICE), and run with a row cap and a
//! deadline that cancels the evaluation itself, so a query that would run forever stops.

use std::sync::mpsc;
use std::time::Duration;

use oxigraph::model::Term;
use oxigraph::sparql::{CancellationToken, QueryEvaluationError, QueryResults, SparqlEvaluator};
use spargebra::algebra::{AggregateExpression, Expression, GraphPattern, OrderExpression};

use super::StoreReader;

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

impl QueryForm {
    pub fn as_str(self) -> &'static str {
        match self {
            QueryForm::Select => "select",
            QueryForm::Ask => "ask",
            QueryForm::Construct => "construct",
            QueryForm::Describe => "describe",
        }
    }
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
}

/// A query that was checked to be read-only and local.
#[derive(Debug)]
pub struct ReadOnlyQuery {
    query: spargebra::Query,
    pub form: QueryForm,
}

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

impl TermKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TermKind::Iri => "uri",
            TermKind::BlankNode => "bnode",
            TermKind::Literal => "literal",
            TermKind::Triple => "triple",
        }
    }
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

fn calls_service(p: &GraphPattern) -> bool {
    match p {
        GraphPattern::Service { .. } => true,
        GraphPattern::Bgp { .. } | GraphPattern::Path { .. } | GraphPattern::Values { .. } => false,
        GraphPattern::Join { left, right }
        | GraphPattern::Lateral { left, right }
        | GraphPattern::Union { left, right }
        | GraphPattern::Minus { left, right } => calls_service(left) || calls_service(right),
        GraphPattern::LeftJoin {
            left,
            right,
            expression,
        } => {
            calls_service(left)
                || calls_service(right)
                || expression.as_ref().is_some_and(expression_calls_service)
        }
        GraphPattern::Filter { expr, inner } => {
            expression_calls_service(expr) || calls_service(inner)
        }
        GraphPattern::Extend {
            inner, expression, ..
        } => expression_calls_service(expression) || calls_service(inner),
        GraphPattern::OrderBy { inner, expression } => {
            calls_service(inner)
                || expression.iter().any(|o| match o {
                    OrderExpression::Asc(e) | OrderExpression::Desc(e) => {
                        expression_calls_service(e)
                    }
                })
        }
        GraphPattern::Group {
            inner, aggregates, ..
        } => {
            calls_service(inner)
                || aggregates.iter().any(|(_, a)| match a {
                    AggregateExpression::CountSolutions { .. } => false,
                    AggregateExpression::FunctionCall { expr, .. } => {
                        expression_calls_service(expr)
                    }
                })
        }
        GraphPattern::Graph { inner, .. }
        | GraphPattern::Project { inner, .. }
        | GraphPattern::Distinct { inner }
        | GraphPattern::Reduced { inner }
        | GraphPattern::Slice { inner, .. } => calls_service(inner),
    }
}

fn expression_calls_service(e: &Expression) -> bool {
    match e {
        Expression::Exists(p) => calls_service(p),
        Expression::NamedNode(_)
        | Expression::Literal(_)
        | Expression::Variable(_)
        | Expression::Bound(_) => false,
        Expression::Or(a, b)
        | Expression::And(a, b)
        | Expression::Equal(a, b)
        | Expression::SameTerm(a, b)
        | Expression::Greater(a, b)
        | Expression::GreaterOrEqual(a, b)
        | Expression::Less(a, b)
        | Expression::LessOrEqual(a, b)
        | Expression::Add(a, b)
        | Expression::Subtract(a, b)
        | Expression::Multiply(a, b)
        | Expression::Divide(a, b) => expression_calls_service(a) || expression_calls_service(b),
        Expression::UnaryPlus(a) | Expression::UnaryMinus(a) | Expression::Not(a) => {
            expression_calls_service(a)
        }
        Expression::In(a, list) => {
            expression_calls_service(a) || list.iter().any(expression_calls_service)
        }
        Expression::If(a, b, c) => {
            expression_calls_service(a)
                || expression_calls_service(b)
                || expression_calls_service(c)
        }
        Expression::Coalesce(list) | Expression::FunctionCall(_, list) => {
            list.iter().any(expression_calls_service)
        }
    }
}

/// Cancels a token when the deadline passes, unless dropped first.
struct Watchdog {
    _stop: mpsc::Sender<()>,
}

impl Watchdog {
    fn start(token: CancellationToken, timeout: Duration) -> Watchdog {
        let (stop, stopped) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(timeout) {
                token.cancel();
            }
        });
        Watchdog { _stop: stop }
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
    pub fn run_read_only(
        &self,
        query: ReadOnlyQuery,
        offset: usize,
        limit: usize,
        timeout: Duration,
    ) -> Result<QueryRows, QueryFailure> {
        let token = CancellationToken::new();
        let _watchdog = Watchdog::start(token.clone(), timeout);
        let results = SparqlEvaluator::new()
            .with_cancellation_token(token)
            .for_query(query.query)
            .on_store(&self.store)
            .execute()
            .map_err(|e| evaluation_error(e, timeout))?;
        let mut out = QueryRows::default();
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
