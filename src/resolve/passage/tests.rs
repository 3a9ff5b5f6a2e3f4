//! The span choice and abbreviation uses, on their own (the grounding itself is tested on the
//! default index in `tests/integration/passages.rs`).

use super::*;

fn span(first: usize, last: usize) -> Span {
    Span {
        first,
        last,
        variant: false,
        head_omitted: false,
    }
}

#[test]
fn the_longest_name_wins_its_place_and_overlapping_names_stay_as_alternatives() {
    // "hereditary breast cancer": words 0..=2; "breast cancer" 1..=2; "breast" 1..=1;
    // "cancer" 2..=2; later "ovarian" 4..=4.
    let spans = [span(1, 1), span(0, 2), span(2, 2), span(1, 2), span(4, 4)];
    let chosen = choose_longest(&spans, &[]);
    let places: Vec<(usize, usize)> = chosen.iter().map(|(s, _)| (s.first, s.last)).collect();
    assert_eq!(places, [(0, 2), (4, 4)]);
    let alternatives: Vec<(usize, usize)> = chosen[0].1.iter().map(|s| (s.first, s.last)).collect();
    assert_eq!(alternatives, [(1, 2), (1, 1), (2, 2)]);
}

#[test]
fn an_abbreviation_use_wins_its_place_over_a_name_of_the_same_words() {
    let uses = [AbbreviationUse {
        span: span(3, 3),
        definition: 0,
        with_head: false,
    }];
    let chosen = choose_longest(&[span(3, 3), span(5, 6)], &uses);
    assert_eq!(chosen.len(), 2);
    assert_eq!(chosen[0].0, span(3, 3));
    assert!(
        chosen[0].1.is_empty(),
        "the same span is not its own alternative"
    );
}

#[test]
fn every_use_of_a_short_form_is_found_in_its_letter_case_only() {
    let text = "Huntington disease (HD) is rare. In HD, and not in hd or HDL, it recurs.";
    let defined = definitions(text);
    let words = tokens(text);
    let uses = abbreviation_uses(text, &words, &defined);
    let spelled: Vec<&str> = uses
        .iter()
        .map(|u| &text[words[u.span.first].start..words[u.span.last].end])
        .collect();
    assert_eq!(spelled, ["HD", "HD"]);
}

#[test]
fn a_short_form_of_several_words_is_found_across_its_hyphen() {
    let text = "ataxia-telangiectasia (A-T) patients; A-T cells";
    let defined = definitions(text);
    let words = tokens(text);
    let uses = abbreviation_uses(text, &words, &defined);
    assert_eq!(uses.len(), 2);
    assert!(uses.iter().all(|u| u.span.last == u.span.first + 1));
}

#[test]
fn a_use_followed_by_the_definitions_head_word_takes_it_in() {
    let text =
        "glucose-6-phosphate dehydrogenase (G6PD) deficiency; G6PD deficiency and G6PD activity";
    let defined = definitions(text);
    let words = tokens(text);
    let uses = abbreviation_uses(text, &words, &defined);
    let spelled: Vec<(&str, bool)> = uses
        .iter()
        .map(|u| {
            (
                &text[words[u.span.first].start..words[u.span.last].end],
                u.with_head,
            )
        })
        .collect();
    assert_eq!(
        spelled,
        [
            ("glucose-6-phosphate dehydrogenase (G6PD) deficiency", true),
            ("G6PD deficiency", true),
            ("G6PD", false)
        ]
    );
}
