//! `sparql_query`: "run this query", read-only, with its row cap and deadline echoed.

use std::collections::BTreeMap;

use serde_json::json;

use super::{ErrorCode, ToolError, all_sources};
use crate::mcp::dto::*;
use crate::resolve::Resolver;
use crate::resolve::query::{
    AbsentIri, AnswerTerm, DEFAULT_QUERY_ROWS, MAX_QUERY_BYTES, MAX_QUERY_ROWS, QUERY_TIMEOUT,
    QueryAnswer, QueryDataset, QueryError, QueryFailure, QueryRefusal,
};

fn term(t: AnswerTerm) -> TermDto {
    TermDto {
        kind: Tag::of(&t.kind),
        value: t.value,
        datatype: t.datatype,
        language: t.language,
    }
}

/// What a stopped query may take, past its timeout, to say so (the store's cancel grace and a
/// margin).
const STORE_GRACE: std::time::Duration = std::time::Duration::from_millis(400);

/// The error answer; a timeout names the call's deadline, not what was left of it.
fn query_error(e: QueryError, deadline: std::time::Duration) -> ToolError {
    match e {
        QueryError::Refused(QueryRefusal::TooLong { bytes }) => ToolError::new(
            ErrorCode::LimitExceeded,
            format!("the query is {bytes} bytes; at most {MAX_QUERY_BYTES} are accepted"),
            "Shorten the query, e.g. with PREFIX declarations or fewer VALUES.",
        ),
        QueryError::Refused(QueryRefusal::Syntax(message)) => ToolError::new(
            ErrorCode::InvalidQuery,
            message,
            "Fix the query at the position given; describe_schema has example queries that run.",
        ),
        QueryError::Refused(QueryRefusal::Update) => ToolError::new(
            ErrorCode::ReadOnlyQuery,
            "updates (INSERT, DELETE, LOAD, CLEAR, CREATE, DROP, ...) are refused: the index is read-only".into(),
            "Ask with SELECT, ASK, CONSTRUCT or DESCRIBE. The data changes only with `ontoresolve build`.",
        ),
        QueryError::Refused(QueryRefusal::Service) => ToolError::new(
            ErrorCode::ReadOnlyQuery,
            "SERVICE is refused: queries run on the loaded sources only, never on other servers".into(),
            "Remove the SERVICE clause and query the local graphs (describe_schema lists them).",
        ),
        QueryError::Failed(QueryFailure::Timeout(_)) => ToolError::new(
            ErrorCode::Timeout,
            format!(
                "the query ran past its {} ms deadline (counted from the call's arrival) and was stopped",
                deadline.as_millis()
            ),
            "Narrow it: bind a subject or predicate, name a GRAPH, or add a LIMIT before ORDER BY.",
        ),
        QueryError::Failed(QueryFailure::Busy) => ToolError::new(
            ErrorCode::RateLimited,
            "earlier queries that ran past their deadline are still being stopped".into(),
            "Retry in a few seconds, with a narrower query.",
        ),
        QueryError::Failed(QueryFailure::Evaluation(message)) => ToolError::new(
            ErrorCode::QueryFailed,
            format!("the query could not be evaluated: {message}"),
            "Check the functions and types it uses; describe_schema has example queries that run.",
        ),
        QueryError::Unavailable(e) => {
            tracing::error!(error = %e, "RDF store unavailable");
            ToolError::new(
                ErrorCode::IndexDamaged,
                "the RDF store could not be opened".into(),
                "Do not treat this as no rows. Tell whoever runs the server; rebuilding the index repairs it.",
            )
        }
    }
}

pub fn sparql_query(
    r: &Resolver,
    args: &SparqlArgs,
) -> Result<Envelope<QueryResultDto>, ToolError> {
    let input = json!({ "query": args.query, "limit": args.limit, "cursor": args.cursor });
    let mut defaults = Vec::new();
    let limit = row_limit(args.limit, &mut defaults)?;
    defaults.push(format!("timeout_ms={}", QUERY_TIMEOUT.as_millis()));
    let build_id = r.manifest().build_id.as_str();
    let scope = format!("sparql_query\u{0}{}\u{0}{limit}", args.query);
    let offset = super::page_offset(r, args.cursor.as_deref(), &scope)?;
    // The call's deadline counts from its arrival: time spent waiting for a place is not
    // given back to the query.
    // The store answers up to its cancel grace after the timeout: that is kept inside the
    // call's deadline, so the caller hears the query's own timeout and its advice.
    let timeout = crate::resolve::deadline::remaining().map_or(QUERY_TIMEOUT, |left| {
        left.saturating_sub(STORE_GRACE).min(QUERY_TIMEOUT)
    });
    if timeout.is_zero() {
        return Err(query_error(
            QueryError::Failed(QueryFailure::Timeout(timeout)),
            QUERY_TIMEOUT,
        ));
    }
    let answer = r
        .run_query(&args.query, offset, limit, timeout)
        .map_err(|e| query_error(e, QUERY_TIMEOUT))?;
    let suggestion = answer_suggestion(&answer);
    let total = answer.rows.total;
    let result = result_dto(answer);
    let rows_len = result.rows.len();
    let capped = result.cap_hit;
    Ok(Envelope {
        query: QueryEcho {
            input,
            // The query itself is the answer's `sparql`: not echoed twice.
            normalized: String::new(),
            steps: Vec::new(),
            filters: json!({ "limit": result.row_cap, "timeout_ms": result.timeout_ms }),
            defaults_applied: defaults,
        },
        total,
        returned: rows_len as u64,
        truncated: capped,
        cursor: capped.then(|| crate::mcp::cursor::encode(build_id, &scope, offset + rows_len)),
        sources: all_sources(r),
        index: r.manifest().build_id.clone(),
        sparql: args.query.clone(),
        suggestion,
        result,
    })
}

/// The page size asked for, or the default (noted in `defaults`); out of range is an error.
fn row_limit(asked: Option<u32>, defaults: &mut Vec<String>) -> Result<usize, ToolError> {
    match asked {
        None => {
            defaults.push(format!("limit={DEFAULT_QUERY_ROWS}"));
            Ok(DEFAULT_QUERY_ROWS)
        }
        Some(n) if (1..=MAX_QUERY_ROWS as u32).contains(&n) => Ok(n as usize),
        Some(n) => Err(ToolError::new(
            ErrorCode::LimitExceeded,
            format!("limit {n} is outside 1 to {MAX_QUERY_ROWS}"),
            format!(
                "Pass a limit from 1 to {MAX_QUERY_ROWS}; add LIMIT and OFFSET to the query to page."
            ),
        )),
    }
}

/// What to do next: page on when the rows were capped, or why an empty answer may be empty.
fn answer_suggestion(answer: &QueryAnswer) -> Option<String> {
    let rows = &answer.rows;
    if rows.capped {
        Some(format!(
            "{} of {}{} rows: pass `cursor` for the next page (ORDER BY in the query keeps pages stable).",
            rows.rows.len(),
            if rows.total_exact { "" } else { "at least " },
            rows.total
        ))
    } else if rows.rows.is_empty() && rows.boolean.is_none() || rows.boolean == Some(false) {
        Some(empty_suggestion(&answer.absent))
    } else {
        None
    }
}

/// The answer's rows keyed by variable (unbound ones left out), and what bounded them.
fn result_dto(answer: QueryAnswer) -> QueryResultDto {
    let variables = answer.rows.variables;
    let rows: Vec<BTreeMap<String, TermDto>> = answer
        .rows
        .rows
        .into_iter()
        .map(|row| {
            variables
                .iter()
                .zip(row)
                .filter_map(|(v, t)| Some((v.clone(), term(t?))))
                .collect()
        })
        .collect();
    QueryResultDto {
        form: Tag::of(&answer.form),
        variables,
        rows,
        boolean: answer.rows.boolean,
        row_cap: answer.row_cap as u32,
        cap_hit: answer.rows.capped,
        total_exact: answer.rows.total_exact,
        timeout_ms: QUERY_TIMEOUT.as_millis() as u64,
        dataset: dataset(&answer.rows.dataset),
        absent_iris: answer
            .absent
            .iter()
            .map(|a| AbsentIriDto {
                iri: a.iri.clone(),
                meant: a.meant.clone(),
            })
            .collect(),
    }
}

fn dataset(d: &QueryDataset) -> DatasetDto {
    match d {
        QueryDataset::UnionDefaultGraph => DatasetDto {
            default_graph: Tag::of(d),
            from: Vec::new(),
            from_named: Vec::new(),
        },
        QueryDataset::Declared { default, named } => DatasetDto {
            default_graph: Tag::of(d),
            from: default.clone(),
            from_named: named.clone(),
        },
    }
}

/// Why an empty answer may be empty: the IRIs that occur nowhere, and what they likely meant.
fn empty_suggestion(absent: &[AbsentIri]) -> String {
    if absent.is_empty() {
        return "Nothing matched, though every IRI of the query occurs in the data: check literals (language tags, datatypes) and joins; describe_schema lists each graph's classes and predicates.".into();
    }
    let named: Vec<String> = absent
        .iter()
        .take(5)
        .map(|a| match &a.meant {
            Some(m) => format!(
                "<{}> (did you mean <{m}>?)",
                crate::mcp::echo::error_text(&a.iri)
            ),
            None => format!("<{}>", crate::mcp::echo::error_text(&a.iri)),
        })
        .collect();
    format!(
        "Nothing matched, and these IRIs occur in no triple: {}. describe_schema lists the IRIs in use.",
        named.join(", ")
    )
}
