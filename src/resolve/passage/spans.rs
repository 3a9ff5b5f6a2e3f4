//! Which spans of a passage are names: the lexicon walk over its words (longest first), names
//! learned from corpora, heads a name may leave out, phrases that describe a class, product
//! heads, and names too generic to mean a concept alone.

use super::*;

impl PassageScan<'_> {
    /// Every span of words that is a label key or a name-variant key, or that starts a label
    /// completed by a head word the passage left out (`omitted_heads`).
    pub(super) fn name_spans(&self, text: &str, words: &[Token]) -> Vec<Span> {
        let mut spans = Vec::new();
        let labels = &self.r.files.labels;
        let variants = self.r.files.variants.as_ref();
        // A word that starts no label starts none wherever it recurs: each distinct first
        // word is walked once over every release's segment.
        let mut first_steps: HashMap<&str, Option<SegmentWalk>> = HashMap::new();
        for first in 0..words.len() {
            let mut exact = None;
            let mut variant =
                variants.map(|(lexicon, rules)| (lexicon, rules, lexicon.walk_start()));
            for (last, word) in words.iter().enumerate().skip(first).take(MAX_NAME_WORDS) {
                if last > first && word.breaks_before {
                    break;
                }
                exact = if last == first {
                    let step = first_steps
                        .entry(word.key.as_str())
                        .or_insert_with(|| extend(labels, labels.walk_start(), false, &word.key));
                    step.clone()
                } else {
                    exact.and_then(|at| extend(labels, at, true, &word.key))
                };
                if let Some(at) = &exact
                    && labels.walk_is_key(at)
                {
                    spans.push(Span {
                        first,
                        last,
                        variant: false,
                        head_omitted: false,
                    });
                }
                variant = variant.and_then(|(lexicon, rules, at)| {
                    variant_step(lexicon, rules, at, (first, last), word, &mut spans)
                        .map(|at| (lexicon, rules, at))
                });
                if last > first
                    && let Some(at) = &exact
                    && !spans
                        .iter()
                        .rev()
                        .take_while(|s| s.first == first)
                        .any(|s| s.last == last)
                    && self.head_completes(at, &text[words[first].start..word.end])
                {
                    spans.push(Span {
                        first,
                        last,
                        variant: true,
                        head_omitted: true,
                    });
                }
                if exact.is_none() && variant.is_none() {
                    break;
                }
            }
        }
        self.learned_spans(text, words, &mut spans);
        spans
    }

    /// Every span of words that is a name the confidence model learned from a corpus.
    fn learned_spans(&self, text: &str, words: &[Token], spans: &mut Vec<Span>) {
        let Some(model) = self.r.confidence_model().filter(|m| !m.learned.is_empty()) else {
            return;
        };
        for first in 0..words.len() {
            let start =
                crate::index::normalize::label_key(&text[words[first].start..words[first].end]);
            let starts_one = start
                .split(' ')
                .next()
                .is_some_and(|w| model.learned_starts.contains(w));
            if !starts_one {
                continue;
            }
            for (last, word) in words
                .iter()
                .enumerate()
                .skip(first)
                .take(model.learned_words)
            {
                if last > first && word.breaks_before {
                    break;
                }
                let surface = &text[words[first].start..word.end];
                let key = crate::index::normalize::label_key(surface);
                let known = spans.iter().any(|s| s.first == first && s.last == last);
                if !known && !model.learned_for(&key).is_empty() {
                    spans.push(Span {
                        first,
                        last,
                        variant: false,
                        head_omitted: false,
                    });
                }
            }
        }
    }

    /// Whether the words walked to `at`, written as `surface` with a capital letter after its
    /// first (an eponym or a letter: "Lesch-Nyhan", "fragile X"), start a label completed by one of
    /// the `omitted_heads`.
    fn head_completes(&self, at: &SegmentWalk, surface: &str) -> bool {
        let labels = &self.r.files.labels;
        // A capital after the first letter: a sentence's first word is no eponym.
        surface.chars().skip(1).any(char::is_uppercase)
            && self.omitted_heads().iter().any(|head| {
                extend(labels, at.clone(), true, head).is_some_and(|end| labels.walk_is_key(&end))
            })
    }

    pub(super) fn omitted_heads(&self) -> &[String] {
        self.r
            .files
            .variants
            .as_ref()
            .map_or(&[], |(_, rules)| rules.omitted_heads.as_slice())
    }

    /// Words, no symbol among them, that end in a class head (`class_heads`).
    pub(super) fn describes_a_class(&self, words: &[Token]) -> bool {
        let Some((head, modifiers)) = words.split_last() else {
            return false;
        };
        !modifiers.is_empty()
            && !words.iter().any(|w| w.symbol)
            && self
                .r
                .files
                .variants
                .as_ref()
                .is_some_and(|(_, rules)| rules.class_heads.contains(&head.key))
    }

    /// Whether a name ending in `head` is a gene or its product (`product_heads`).
    pub(super) fn names_a_product(&self, head: &Token) -> bool {
        self.r
            .files
            .variants
            .as_ref()
            .is_some_and(|(_, rules)| rules.product_heads.contains(&head.key))
    }

    pub(super) fn is_generic(&self, key: &str) -> bool {
        self.r
            .files
            .variants
            .as_ref()
            .is_some_and(|(_, rules)| rules.generic_names.iter().any(|g| g == key))
    }
}
