//! Tests of `lexicon`.

use super::super::header::HEADER_BYTES;
use super::*;

fn lexicon(dir: &Path, keys: &[&str]) -> Lexicon {
    let mut writer = LexiconWriter::default();
    for (i, key) in keys.iter().enumerate() {
        writer.add(
            key.to_string(),
            Posting {
                concept: i as u32,
                detail: 0,
            },
        );
    }
    writer
        .write(&dir.join("k.fst"), &dir.join("k.postings"))
        .expect("write");
    Lexicon::open(&dir.join("k.fst"), &dir.join("k.postings")).expect("open")
}

#[test]
fn a_truncated_or_empty_fst_fails_at_open_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let keys = ["alpha", "beta", "gamma", "delta", "epsilon"];
    drop(lexicon(dir.path(), &keys));
    let fst = dir.path().join("k.fst");
    let postings = dir.path().join("k.postings");
    let bytes = std::fs::read(&fst).expect("read");
    for len in [bytes.len() - 1, bytes.len() - 7, 40, 36, 10, 0] {
        std::fs::write(&fst, &bytes[..len.min(bytes.len())]).expect("truncate");
        let error = Lexicon::open(&fst, &postings)
            .err()
            .unwrap_or_else(|| panic!("an FST cut to {len} bytes opened"));
        assert_eq!(error.path, fst, "{len} bytes: {error}");
    }
    std::fs::write(&fst, &bytes).expect("restore");
    assert!(verify_fst_file(&fst).is_ok());
    let mut flipped = bytes.clone();
    flipped[20] ^= 0x40;
    std::fs::write(&fst, &flipped).expect("flip");
    assert!(
        verify_fst_file(&fst).is_err(),
        "a flipped byte fails the FST's own checksum"
    );
}

#[test]
fn a_walk_word_by_word_finds_every_key_along_it_and_stops_where_none_continues() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lex = lexicon(dir.path(), &["breast", "breast cancer", "breast cancer 1"]);
    let start = lex.walk_start();
    let breast = lex.walk(start, b"breast").expect("a key");
    assert!(lex.walk_is_key(breast));
    let spaced = lex.walk(breast, b" ").expect("a longer key goes on");
    assert!(!lex.walk_is_key(spaced));
    let cancer = lex.walk(spaced, b"cancer").expect("a key");
    assert!(lex.walk_is_key(cancer));
    assert!(lex.walk(cancer, b" 2").is_none(), "no key goes on so");
    assert!(
        lex.walk(start, b"bre")
            .is_some_and(|at| !lex.walk_is_key(at))
    );
    assert!(lex.walk(start, b"ovary").is_none());
}

#[test]
fn postings_without_their_header_fail_at_open_naming_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    drop(lexicon(dir.path(), &["a", "b"]));
    let fst = dir.path().join("k.fst");
    let postings = dir.path().join("k.postings");
    let bytes = std::fs::read(&postings).expect("read");
    std::fs::write(&postings, &bytes[HEADER_BYTES..]).expect("strip header");
    let error = Lexicon::open(&fst, &postings)
        .err()
        .expect("postings without a header are damaged");
    assert_eq!(error.path, postings);
    assert!(
        matches!(error.problem, FileProblem::WrongMagic { .. }),
        "{error}"
    );
}

/// The walk memo must give the same answers as a fresh walk, in any order of queries and
/// across lexicons.
#[test]
fn longest_prefix_is_the_same_with_and_without_the_memo() {
    let dir = tempfile::tempdir().expect("tempdir");
    let keys = ["http://a/", "http://a/b_", "http://a/b_c/", "http://c/"];
    let first = lexicon(dir.path(), &keys);
    let queries = [
        ("http://a/b_1", Some(("http://a/b_", 1))),
        ("http://a/x", Some(("http://a/", 0))),
        ("http://a/b_2", Some(("http://a/b_", 1))),
        ("http://a/b_c/3", Some(("http://a/b_c/", 2))),
        ("http://a/b_4", Some(("http://a/b_", 1))),
        ("http://c/5", Some(("http://c/", 3))),
        ("http://d/6", None),
        ("http://a/", Some(("http://a/", 0))),
    ];
    for _ in 0..2 {
        for (query, want) in queries {
            let got = first.longest_prefix_of(query);
            assert_eq!(
                got.map(|(len, p)| (&query[..len], p.concept)),
                want,
                "{query}"
            );
        }
    }
    let other_dir = tempfile::tempdir().expect("tempdir");
    let second = lexicon(other_dir.path(), &["http://a/b_"]);
    assert_eq!(
        second.longest_prefix_of("http://a/b_1").map(|(l, _)| l),
        Some(11)
    );
    assert_eq!(second.longest_prefix_of("http://a/x"), None);
    assert_eq!(
        first.longest_prefix_of("http://a/x").map(|(l, _)| l),
        Some(9)
    );
}

#[test]
fn near_keys_are_found_at_their_distance_whatever_their_first_character() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Query "seizures": one edit with another first character (`ceizures`, `eizures`),
    // one and two edits sharing it, and a key two edits away with another first character,
    // which distance 2 does not look for.
    let keys = [
        "ceizures", "eizures", "seizure", "seizures", "sezure", "xeizurex", "zzzzz",
    ];
    let lexicon = lexicon(dir.path(), &keys);
    let mut found: Vec<(String, u8)> = lexicon
        .fuzzy("seizures", 2, 100)
        .into_iter()
        .map(|h| (h.key, h.distance))
        .collect();
    found.sort();
    let expected: Vec<(String, u8)> = [
        ("ceizures", 1),
        ("eizures", 1),
        ("seizure", 1),
        ("seizures", 0),
        ("sezure", 2),
    ]
    .iter()
    .map(|(k, d)| (k.to_string(), *d))
    .collect();
    assert_eq!(found, expected);
    let one: Vec<String> = lexicon
        .fuzzy("seizures", 1, 100)
        .into_iter()
        .map(|h| h.key)
        .collect();
    assert_eq!(one, ["seizures", "ceizures", "eizures", "seizure"]);
}
