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
            let got = first.longest_prefix_of(query).expect("read");
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
        (second.longest_prefix_of("http://a/b_1").expect("read")).map(|(l, _)| l),
        Some(11)
    );
    assert_eq!(second.longest_prefix_of("http://a/x").expect("read"), None);
    assert_eq!(
        (first.longest_prefix_of("http://a/x").expect("read")).map(|(l, _)| l),
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
        .expect("read")
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
        .expect("read")
        .into_iter()
        .map(|h| h.key)
        .collect();
    assert_eq!(one, ["seizures", "ceizures", "eizures", "seizure"]);
}

/// The restricted Damerau–Levenshtein distance (an adjacent transposition is one edit).
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

#[test]
fn near_keys_are_exactly_the_keys_within_the_allowed_edits() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Short keys over a small alphabet (with two-byte letters), so that many lie within two
    // edits of each other; generated by a fixed linear congruential sequence.
    let alphabet = ['a', 'b', 'c', 'é', ' ', 'ß'];
    let mut seed: u64 = 7;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let mut keys: Vec<String> = (0..3000)
        .map(|_| {
            let len = 1 + next(8);
            (0..len).map(|_| alphabet[next(alphabet.len())]).collect()
        })
        .collect();
    keys.sort();
    keys.dedup();
    let key_refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    let lexicon = lexicon(dir.path(), &key_refs);
    for query in ["abcé", "ba", "cabbage", "éßa b", "ab ab ab", "b"] {
        for max in [1u8, 2] {
            let first = query.chars().next();
            let mut expected: Vec<(u8, String)> = keys
                .iter()
                .filter_map(|k| {
                    let d = edits(query, k);
                    let allowed = if k.chars().next() == first { max } else { 1 };
                    (d <= usize::from(allowed)).then(|| (d as u8, k.clone()))
                })
                .collect();
            expected.sort();
            let found: Vec<(u8, String)> = lexicon
                .fuzzy(query, max, usize::MAX)
                .expect("read")
                .into_iter()
                .map(|h| (h.distance, h.key))
                .collect();
            assert_eq!(found, expected, "query {query:?} within {max}");
        }
    }
}

/// Writes `entries` into `name.fst` and `name.postings` under `dir`; the two paths.
fn write_entries(dir: &Path, name: &str, entries: &[(&str, u32)]) -> (PathBuf, PathBuf) {
    let mut writer = LexiconWriter::spilling(dir, name);
    for (key, concept) in entries {
        writer.add(
            key.to_string(),
            Posting {
                concept: *concept,
                detail: 1,
            },
        );
    }
    writer.park();
    let (fst, postings) = (
        dir.join(format!("{name}.fst")),
        dir.join(format!("{name}.postings")),
    );
    writer.write(&fst, &postings).expect("write");
    (fst, postings)
}

#[test]
fn release_segments_read_as_one_answer_as_the_lexicon_written_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Release A holds concepts 0-2, release B concepts 3-5 (0-2 in its own segment).
    let a = [("alpha", 0), ("beta", 1), ("omega", 2), ("gamma", 0)];
    let b = [("beta", 0), ("delta", 2), ("omega", 1), ("gamma", 0)];
    let whole: Vec<(&str, u32)> = (a.iter().copied())
        .chain(b.iter().map(|(k, c)| (*k, c + 3)))
        .collect();
    let (a_fst, a_postings) = write_entries(dir.path(), "a", &a);
    let (b_fst, b_postings) = write_entries(dir.path(), "b", &b);
    let (w_fst, w_postings) = write_entries(dir.path(), "whole", &whole);
    let span = |first| ReleaseSpan { first, count: 3 };
    let segmented = SegmentedLexicon::open([
        ((a_fst.as_path(), a_postings.as_path()), span(0)),
        ((b_fst.as_path(), b_postings.as_path()), span(3)),
    ])
    .expect("open");
    let whole = Lexicon::open(&w_fst, &w_postings).expect("open");
    for key in ["alpha", "beta", "gamma", "delta", "omega", "zeta"] {
        assert_eq!(segmented.get(key), whole.get(key), "{key}");
    }
    assert_eq!(segmented.prefixed("", 10), whole.prefixed("", 10));
    assert_eq!(segmented.prefixed("", 3), whole.prefixed("", 3));
    assert_eq!(segmented.fuzzy("gamme", 1, 10), whole.fuzzy("gamme", 1, 10));
    assert_eq!(segmented.fuzzy("bata", 2, 10), whole.fuzzy("bata", 2, 10));
    let at = segmented.walk(segmented.walk_start(), b"gam").expect("gam");
    assert!(at.started() && !segmented.walk_is_key(&at));
    let at = segmented.walk(at, b"ma").expect("gamma");
    assert!(segmented.walk_is_key(&at));
    assert!(segmented.walk(at, b"x").is_none());
    assert_eq!(segmented.counts().keys, 8, "gamma, beta and omega in both");
}

#[test]
fn a_segment_posting_beyond_its_release_is_damage_naming_the_postings_not_an_answer() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (fst, postings) = write_entries(dir.path(), "a", &[("alpha", 0), ("alpha", 7)]);
    let span = ReleaseSpan {
        first: 10,
        count: 2,
    };
    let segmented =
        SegmentedLexicon::open([((fst.as_path(), postings.as_path()), span)]).expect("open");
    let error = segmented
        .get("alpha")
        .expect_err("concept 7 of a release of 2 is damage, not an answer");
    assert_eq!(error.path, postings);
    assert!(error.to_string().contains("concept 7"), "{error}");
}

#[test]
fn a_lexicon_read_whole_passes_when_every_posting_names_a_record_and_fails_naming_one_past_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (fst, postings) = write_entries(dir.path(), "r", &[("a", 0), ("b", 5), ("b", 1)]);
    let lexicon = Lexicon::open(&fst, &postings).expect("open");
    lexicon
        .verify_postings(6)
        .expect("every posting names one of six records");
    let error = lexicon
        .verify_postings(3)
        .expect_err("record 5 of three is damage");
    assert_eq!(error.path, postings);
    assert!(error.to_string().contains("record 5 of 3"), "{error}");
}
