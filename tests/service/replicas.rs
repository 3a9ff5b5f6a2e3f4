//! Three `serve --http` replicas over one index directory behind a round-robin client: every
//! request succeeds on whichever replica gets it, a cursor from one replica pages on another,
//! and after a rebuild all three answer from the new build and never from the old one again.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::process::{Server, serve};
use crate::{Conn, build_edition, call_body, edition_of, scratch};

/// The calls the client sends in turn, each answered from the data of one build.
const CALLS: [(&str, &str); 4] = [
    ("get_concept", r#"{"identifier":"XD:0000003"}"#),
    ("find_concepts", r#"{"text":"pulmonary disease"}"#),
    ("map_identifier", r#"{"identifier":"XD:0000004"}"#),
    ("list_sources", "{}"),
];

/// The error code of a tool result with `isError`, or `None`.
fn tool_error(answer: &Value) -> Option<String> {
    if answer["result"]["isError"] != Value::Bool(true) {
        return None;
    }
    let text = answer["result"]["content"][0]["text"].as_str()?;
    let body: Value = serde_json::from_str(text).ok()?;
    body["error"]["code"].as_str().map(str::to_string)
}

/// The first page of a name search with one candidate per page, and its cursor.
fn first_page(conn: &mut Conn) -> (Value, String) {
    let (status, page) = conn
        .call(
            "find_concepts",
            &call_body(1, "find_concepts", r#"{"text":"disease","limit":1}"#),
        )
        .expect("first page");
    assert_eq!(status, 200, "{page}");
    let cursor = page["result"]["structuredContent"]["cursor"]
        .as_str()
        .unwrap_or_else(|| panic!("a cursor for more candidates: {page}"))
        .to_string();
    (page, cursor)
}

fn next_page(conn: &mut Conn, cursor: &str) -> Value {
    let args = format!(r#"{{"text":"disease","limit":1,"cursor":"{cursor}"}}"#);
    let (status, page) = conn
        .call("find_concepts", &call_body(2, "find_concepts", &args))
        .expect("next page");
    assert_eq!(status, 200, "{page}");
    page
}

fn first_candidate(page: &Value) -> String {
    page["result"]["structuredContent"]["result"]["candidates"][0]["concept"]["curie"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn three_replicas_behind_a_round_robin_client_answer_every_request_through_a_rebuild() {
    let dir = scratch("replicas");
    let index = dir.join("index");
    let mut builds = HashMap::new();
    builds.insert(build_edition(&dir, &index, 1), 1);
    let replicas: Vec<Server> = (0..3)
        .map(|_| serve(&index, &["--rate-limit", "0"], &[]))
        .collect();
    let mut conns: Vec<Conn> = replicas.iter().map(|s| Conn::new(s.1, None)).collect();

    // A cursor is bound to the build and the question, not to the replica that issued it.
    let (page_one, old_cursor) = first_page(&mut conns[0]);
    let page_two = next_page(&mut conns[1], &old_cursor);
    assert!(!first_candidate(&page_two).is_empty(), "{page_two}");
    assert_ne!(first_candidate(&page_one), first_candidate(&page_two));

    // editions[r]: the edition of every answer replica r gave, in order.
    let mut editions: Vec<Vec<u32>> = vec![Vec::new(); replicas.len()];
    let started = Instant::now();
    let mut rebuilt: Option<Instant> = None;
    let mut after_switch = 0;
    for n in 0u64.. {
        let replica = n as usize % replicas.len();
        let (tool, args) = CALLS[(n as usize / replicas.len()) % CALLS.len()];
        let (status, answer) = conns[replica]
            .call(tool, &call_body(n, tool, args))
            .unwrap_or_else(|e| panic!("replica {replica} dropped request {n}: {e}"));
        assert_eq!(status, 200, "replica {replica}, {tool}: {answer}");
        let edition =
            edition_of(&answer, &builds).unwrap_or_else(|e| panic!("replica {replica}: {e}"));
        editions[replica].push(edition);
        match rebuilt {
            None if started.elapsed() > Duration::from_secs(1) => {
                builds.insert(build_edition(&dir, &index, 2), 2);
                rebuilt = Some(Instant::now());
            }
            Some(at) if editions.iter().all(|e| e.last() == Some(&2)) => {
                after_switch += 1;
                if after_switch > 30 {
                    eprintln!(
                        "replicas: {} requests; all three on the new build {:?} after the rebuild",
                        n + 1,
                        at.elapsed()
                    );
                    break;
                }
            }
            Some(at) => assert!(
                at.elapsed() < Duration::from_secs(5),
                "not every replica answers from the new build 5 s after it was installed: {:?}",
                editions.iter().map(|e| e.last()).collect::<Vec<_>>()
            ),
            None => {}
        }
    }
    for (replica, answered) in editions.iter().enumerate() {
        assert!(answered.contains(&1), "replica {replica} answered before");
        assert!(
            answered.windows(2).all(|w| w[0] <= w[1]),
            "replica {replica} went back to the old build: {answered:?}"
        );
    }

    // The old build's cursor is refused everywhere; a new one pages across replicas.
    for conn in &mut conns {
        let answer = next_page(conn, &old_cursor);
        assert_eq!(
            tool_error(&answer).as_deref(),
            Some("invalid_cursor"),
            "{answer}"
        );
    }
    let (first, cursor) = first_page(&mut conns[2]);
    let on_zero = next_page(&mut conns[0], &cursor);
    let on_one = next_page(&mut conns[1], &cursor);
    assert!(!first_candidate(&on_zero).is_empty(), "{on_zero}");
    assert_ne!(first_candidate(&first), first_candidate(&on_zero));
    assert_eq!(first_candidate(&on_zero), first_candidate(&on_one));
}
