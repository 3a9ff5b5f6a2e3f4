//! Which spans become mentions: the uses of the abbreviations a passage defines, the longest
//! span at each place (shorter ones kept as its alternatives), and the names inside a mention
//! read again in its place.

use std::collections::VecDeque;

use super::Span;
use super::abbreviations::Definition;
use super::tokens::{Token, tokens};

/// One use of a defined short form: its words (with the head word after it, when the
/// definition has one and the use is followed by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AbbreviationUse {
    pub span: Span,
    pub definition: usize,
    pub with_head: bool,
}

/// Every use of a defined short form: the words that spell it exactly, in its letter case.
pub(super) fn abbreviation_uses(
    text: &str,
    words: &[Token],
    defined: &[Definition],
) -> Vec<AbbreviationUse> {
    let mut uses = Vec::new();
    for (definition, d) in defined.iter().enumerate() {
        let parts = tokens(&d.short).len().max(1);
        for first in 0..words.len() {
            let last = first + parts - 1;
            let Some(end_word) = words.get(last) else {
                break;
            };
            if text[words[first].start..end_word.end] != *d.short {
                continue;
            }
            let heads = |w: &Token| d.head.as_ref().is_some_and(|h| h.to_lowercase() == w.key);
            let at_definition = words[first].start == d.short_span.0;
            let head = words
                .get(last + 1)
                .filter(|w| (at_definition || !w.breaks_before) && heads(w));
            // Where the passage writes "long (SF) head", the whole is the name.
            let long_first = words.iter().position(|w| w.start == d.long_span.0);
            let first = match (at_definition, head, long_first) {
                (true, Some(_), Some(long_first)) => long_first,
                _ => first,
            };
            uses.push(AbbreviationUse {
                span: Span {
                    first,
                    last: last + usize::from(head.is_some()),
                    variant: false,
                    head_omitted: false,
                },
                definition,
                with_head: head.is_some(),
            });
        }
    }
    uses
}

/// Queues, to be read next, the longest names among `alternatives` and the abbreviation
/// `uses` that lie within words `span.first..=last`, `span` itself excepted: each is smaller,
/// so reading again ends.
pub(super) fn queue_names_within(
    chosen: &mut VecDeque<(Span, Vec<Span>)>,
    alternatives: &[Span],
    uses: &[AbbreviationUse],
    span: Span,
    last: usize,
) {
    let within = |s: &Span| {
        s.first >= span.first && s.last <= last && (s.first, s.last) != (span.first, span.last)
    };
    let inner: Vec<Span> = alternatives.iter().copied().filter(within).collect();
    let uses: Vec<AbbreviationUse> = uses.iter().copied().filter(|u| within(&u.span)).collect();
    for again in choose_longest(&inner, &uses).into_iter().rev() {
        chosen.push_front(again);
    }
}

/// The mentions, left to right: at each place the longest span (an abbreviation's use wins
/// among spans of its length), and every shorter span it overlaps kept as its alternatives.
pub(super) fn choose_longest(spans: &[Span], uses: &[AbbreviationUse]) -> Vec<(Span, Vec<Span>)> {
    let mut all: Vec<Span> = spans.to_vec();
    all.extend(uses.iter().map(|u| u.span));
    let is_use = |s: &Span| {
        uses.iter()
            .any(|u| u.span.first == s.first && u.span.last == s.last)
    };
    // Earliest first; at one start, the longest ("G6PD deficiency" over a defined "G6PD"),
    // and at one length an abbreviation's use.
    all.sort_by(|a, b| {
        a.first
            .cmp(&b.first)
            .then(b.last.cmp(&a.last))
            .then(is_use(b).cmp(&is_use(a)))
            .then(a.variant.cmp(&b.variant))
    });
    all.dedup_by(|a, b| a.first == b.first && a.last == b.last);
    let mut chosen: Vec<(Span, Vec<Span>)> = Vec::new();
    for span in all {
        match chosen.last_mut() {
            Some((taken, alternatives)) if span.first <= taken.last => alternatives.push(span),
            _ => {
                let span = uses
                    .iter()
                    .map(|u| u.span)
                    .find(|u| *u == span)
                    .unwrap_or(span);
                chosen.push((span, Vec::new()));
            }
        }
    }
    chosen
}
