//! "Which concepts does this passage mention?": every span of the text that is a loaded
//! concept's name (as typed, or as a name variant), longest first at word boundaries, each
//! grounded by the same name search as `find_concepts`; and every use of an abbreviation the
//! passage defines grounded through its long form first, its own readings after.
//!
//! The scan walks the label and variant lexicons word by word, so its cost grows with the
//! passage, not with the number of names. Names too generic to mean a concept on their own
//! ("disease", "patients") are data (`generic_names` in the name rules), never code.

mod abbreviations;
mod choice;
mod coordination;
mod names;
mod spans;
mod tokens;
mod words;

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

pub use abbreviations::{Definition, definitions};
use choice::{AbbreviationUse, abbreviation_uses, choose_longest, queue_names_within};
use coordination::{ConjunctReading, PassageForms};
use tokens::{Token, tokens};

use super::confidence::{Confidence, Features};
use super::search::{MatchKind, NameCandidate};
use super::{ConceptId, ResolveError, Resolver};
use crate::index::{SegmentWalk, SegmentedLexicon};

/// Passages longer than this are refused: a passage is an abstract or a page, not a book.
pub const MAX_PASSAGE_BYTES: usize = 20_480;
/// A name spans at most this many words.
const MAX_NAME_WORDS: usize = 12;
/// One-word names shorter than this are only taken when written in capitals as in the
/// lexicon (a symbol), never as ordinary words ("was", "all").
const MIN_WORD_NAME_CHARS: usize = 4;

/// A passage and its filters.
#[derive(Clone, Debug)]
pub struct PassageQuery<'a> {
    pub text: &'a str,
    /// Source ids whose concepts may be candidates (names are read from every source).
    pub sources: Option<&'a [String]>,
    /// Semantic groups whose concepts may be candidates; every group when `None`.
    pub groups: Option<&'a [crate::model::SemanticGroup]>,
}

/// How a mention was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MentionReading {
    /// The span is a name as written (case, spacing and punctuation folded).
    Name,
    /// The span is a name only after the name rules (plural, spelling, head word).
    NameVariant,
    /// The span is an abbreviation the passage defines (with the head word that completes
    /// its name, when it is followed by it): grounded through its long form.
    Abbreviation { definition: usize, with_head: bool },
    /// The span is a modifier coordinated with the name at `name` (byte span), read with that
    /// name's head: "breast" in "breast and ovarian cancer" read as "breast cancer".
    Coordinated { name: (usize, usize) },
}

/// One mention: where it is, how it was read, and its candidates, ranked.
#[derive(Clone, Debug)]
pub struct Mention {
    /// Byte offsets into the passage; adapters give character offsets.
    pub start: usize,
    pub end: usize,
    pub reading: MentionReading,
    /// Ranked as `find_concepts` ranks them (for an abbreviation: the long form's
    /// candidates, then the short form's own readings).
    pub candidates: Vec<NameCandidate>,
    /// Shorter names inside or across this one, kept as other readings (byte spans).
    pub alternatives: Vec<(usize, usize)>,
    /// The registered features of the span and its first candidate.
    pub features: Features,
    /// The model's probability that the span names its first candidate, when the index has
    /// a confidence model.
    pub confidence: Option<Confidence>,
}

/// What a passage mentions, and what was done to find it.
#[derive(Clone, Debug, Default)]
pub struct PassageGrounding {
    pub mentions: Vec<Mention>,
    pub definitions: Vec<Definition>,
    /// Spans that are names but too generic to mean a concept alone, by folded text.
    pub generic_skipped: BTreeMap<String, usize>,
    /// Names found whose concepts are all outside the wanted sources.
    pub outside_sources: usize,
    /// Per definition (by its place in `definitions`), the uses left unread: its long form
    /// names nothing in the wanted sources, and no reading of the letters alone could be it.
    pub unread_uses: BTreeMap<usize, usize>,
    /// Spans read as names whose confidence is under the model's threshold: not mentions,
    /// listed with their candidates.
    pub uncertain: Vec<Mention>,
    /// The model's mention threshold, when the index has a confidence model.
    pub threshold: Option<f64>,
}

impl PassageGrounding {
    /// Each distinct concept the mentions name first, with how many mentions name it, most
    /// mentioned first.
    pub fn concepts(&self) -> Vec<(ConceptId, usize)> {
        let mut counts: BTreeMap<ConceptId, usize> = BTreeMap::new();
        for m in &self.mentions {
            if let Some(first) = m.candidates.first() {
                *counts.entry(first.concept).or_default() += 1;
            }
        }
        let mut out: Vec<(ConceptId, usize)> = counts.into_iter().collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }
}

/// One passage being grounded: its query, and the name searches it already ran by text.
struct Scan<'q> {
    query: &'q PassageQuery<'q>,
    searched: RefCell<HashMap<String, Vec<NameCandidate>>>,
}

/// A span the lexicons know: words `first..=last`, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    first: usize,
    last: usize,
    variant: bool,
    /// The words name a concept only with a head word the passage leaves out
    /// (`omitted_heads`: "Lesch-Nyhan" for "Lesch-Nyhan syndrome").
    head_omitted: bool,
}

/// One passage's scan: its words, names, abbreviations, coordinations and mentions, over the
/// resolver's readers. Made for a passage, dropped with its grounding.
pub(crate) struct PassageScan<'r> {
    r: &'r Resolver,
}

impl<'r> PassageScan<'r> {
    pub(crate) fn new(r: &'r Resolver) -> Self {
        PassageScan { r }
    }
}

impl<'r> PassageScan<'r> {
    /// Finds every mention of a loaded concept's name in the passage and grounds each.
    pub fn ground_passage(&self, query: &PassageQuery) -> Result<PassageGrounding, ResolveError> {
        let text = query.text;
        let scan = Scan {
            query,
            searched: RefCell::new(HashMap::new()),
        };
        let words = tokens(text);
        let mut out = PassageGrounding {
            definitions: definitions(text),
            ..PassageGrounding::default()
        };
        let spans = self.name_spans(text, &words);
        let uses = abbreviation_uses(text, &words, &out.definitions);
        let mut chosen: VecDeque<_> = choose_longest(&spans, &uses).into();
        let mut names = Vec::new();
        while let Some((span, alternatives)) = chosen.pop_front() {
            let (start, end) = (words[span.first].start, words[span.last].end);
            let mention = match uses.iter().find(|u| u.span == span) {
                Some(u) => self.abbreviation_mention(
                    &scan,
                    &mut out.definitions,
                    &out.mentions,
                    u,
                    (start, end),
                )?,
                None => {
                    let surface = &text[start..end];
                    let key = crate::index::normalize::label_key(surface);
                    if self.is_generic(&key) {
                        *out.generic_skipped.entry(key).or_default() += 1;
                        continue;
                    }
                    self.name_mention(
                        &scan,
                        surface,
                        &words[span.first..=span.last],
                        span,
                        (start, end),
                    )?
                }
            };
            match mention {
                Some(mut m) => {
                    m.alternatives = alternatives
                        .iter()
                        .map(|a| (words[a.first].start, words[a.last].end))
                        .collect();
                    // A span the model doubts may hold a name it does not ("induced
                    // hypotension" read as the technique): the longest names inside it are
                    // read in its place, and it is kept as uncertain.
                    if !super::confidence::judge(self.r.confidence_model(), &mut m, text) {
                        out.uncertain.push(m);
                        queue_names_within(&mut chosen, &alternatives, &uses, span, span.last);
                        continue;
                    }
                    if matches!(
                        m.reading,
                        MentionReading::Name | MentionReading::NameVariant
                    ) {
                        names.push(span);
                        // A product named after a condition names the condition too.
                        if self.names_a_product(&words[span.last]) {
                            let before_head = span.last.saturating_sub(1);
                            queue_names_within(
                                &mut chosen,
                                &alternatives,
                                &uses,
                                span,
                                before_head,
                            );
                        }
                    }
                    out.mentions.push(m);
                }
                None => {
                    match uses.iter().find(|u| u.span == span) {
                        Some(u) => *out.unread_uses.entry(u.definition).or_default() += 1,
                        None => out.outside_sources += 1,
                    }
                    // A name known only outside the wanted sources may hold one they know
                    // ("kidney cancer" in "hereditary kidney cancer"): the longest names
                    // inside it are read in its place.
                    queue_names_within(&mut chosen, &alternatives, &uses, span, span.last);
                }
            }
        }
        self.add_conjuncts(
            &scan,
            &words,
            &names,
            (&mut out.mentions, &mut out.uncertain),
        )?;
        super::confidence::judge_mentions(self.r.confidence_model(), &mut out, text);
        Ok(out)
    }

    /// Mentions of modifiers coordinated with a name ("breast" in "breast and ovarian
    /// cancer"): each replaces the word's own one-word mention, keeping its readings after,
    /// and is left out when the word lies in a longer mention.
    fn add_conjuncts(
        &self,
        scan: &Scan<'_>,
        words: &[Token],
        names: &[Span],
        (mentions, uncertain): (&mut Vec<Mention>, &mut Vec<Mention>),
    ) -> Result<(), ResolveError> {
        let mut done = HashSet::new();
        // Applied after the loop: a list's later modifiers still meet the name's own reading.
        let mut read_whole_first: Vec<((usize, usize), NameCandidate)> = Vec::new();
        let passage = PassageForms::new(words);
        for conjunct in coordination::conjuncts(scan.query.text, words, names) {
            let word = &words[conjunct.word];
            if !done.insert(conjunct.word) {
                continue;
            }
            // A word the model doubted alone is read again with the name's head: its own
            // reading comes back as the one the coordination replaces.
            let doubted = uncertain
                .iter()
                .position(|m| m.start == word.start && m.end == word.end);
            if let Some(at) = doubted {
                let own = uncertain.remove(at);
                let at = mentions.partition_point(|m| m.start < own.start);
                mentions.insert(at, own);
            }
            let own = mentions
                .iter()
                .position(|m| m.start == word.start && m.end == word.end);
            let covered = mentions.iter().any(|m| {
                m.start < word.end && word.start < m.end && m.end - m.start > word.end - word.start
            });
            if covered
                || own.is_some_and(|at| {
                    !matches!(
                        mentions[at].reading,
                        MentionReading::Name | MentionReading::NameVariant
                    )
                })
            {
                continue;
            }
            let own_mention = own.map(|at| &mentions[at]);
            let name = (
                words[conjunct.name.first].start,
                words[conjunct.name.last].end,
            );
            let name_first = mentions
                .iter()
                .find(|m| (m.start, m.end) == name)
                .and_then(|m| m.candidates.first())
                .map(|c| c.concept);
            let Some(ConjunctReading { mut mention, whole }) =
                self.conjunct_mention(scan, &passage, conjunct, (own_mention, name_first))?
            else {
                continue;
            };
            // A coordinated reading the model doubts never displaces a word's own mention.
            let text = scan.query.text;
            if own.is_some()
                && doubted.is_none()
                && !super::confidence::judge(self.r.confidence_model(), &mut mention, text)
            {
                uncertain.push(mention);
                continue;
            }
            // The modifier nearest the name decides ("colon and breast and ovarian cancer").
            if let Some(whole) = whole
                && !read_whole_first.iter().any(|(n, _)| *n == name)
            {
                read_whole_first.push((name, whole));
            }
            match own {
                Some(at) => mentions[at] = mention,
                None => {
                    let at = mentions.partition_point(|m| m.start < mention.start);
                    mentions.insert(at, mention);
                }
            }
        }
        for (name, whole) in read_whole_first {
            if let Some(m) = mentions.iter_mut().find(|m| (m.start, m.end) == name) {
                read_first(&mut m.candidates, whole);
            }
        }
        Ok(())
    }

    /// A name's mention: its candidates in the wanted sources, or `None` when it has none
    /// there. A short lower-case word is taken only when it names a concept in its own
    /// letter case.
    fn name_mention(
        &self,
        scan: &Scan<'_>,
        surface: &str,
        words: &[Token],
        span: Span,
        (start, end): (usize, usize),
    ) -> Result<Option<Mention>, ResolveError> {
        let mut candidates = if span.head_omitted {
            self.names_with_omitted_head(scan, surface)?
        } else {
            self.names_only(scan, surface)?
        };
        // A phrase that describes a class of conditions ("autosomal recessive disorder") and
        // names a concept only outside the wanted sources reads as the nearest broader
        // concept they hold. A specific name never does (a broader heading is another
        // concept), nor a symbol (no reading of an abbreviation).
        if candidates.is_empty() && self.describes_a_class(words) {
            candidates = self.names_or_broader(scan, surface)?;
        }
        let Some(first) = candidates.first() else {
            return Ok(None);
        };
        let single_word = words.len() == 1;
        let ordinary_word = single_word && !words[0].symbol;
        let symbol_only = matches!(
            first.kind,
            MatchKind::ApprovedSymbol | MatchKind::AliasSymbol | MatchKind::PreviousSymbol
        );
        // An ordinary word is not the abbreviation spelled with its letters ("gave" is not
        // "GAVE", "same" is not "SAMe").
        let lower_case = !surface.chars().any(char::is_uppercase);
        let abbreviated_name = first.text.as_deref().is_some_and(|name| {
            crate::index::names::is_symbol(name) || (lower_case && capital_inside_a_word(name))
        });
        if single_word
            && (surface.chars().count() < MIN_WORD_NAME_CHARS
                || (ordinary_word && (symbol_only || abbreviated_name)))
            && !first.case_exact
        {
            return Ok(None);
        }
        // A symbol the passage does not define, spelled exactly as a gene's approved symbol,
        // names the gene: disease abbreviations are defined where they are used, gene symbols
        // are not. Outside the wanted sources, the mention is not theirs.
        Ok(Some(Mention {
            start,
            end,
            reading: if span.variant {
                MentionReading::NameVariant
            } else {
                MentionReading::Name
            },
            candidates,
            alternatives: Vec::new(),
            features: Features::default(),
            confidence: None,
        }))
    }

    /// An abbreviation's mention: the long form's candidates first (its first reading that
    /// names a concept, else those of the name the passage writes around it, which then
    /// becomes the definition's long form), then the short form's own readings (a gene symbol
    /// may be meant).
    fn abbreviation_mention(
        &self,
        scan: &Scan<'_>,
        definitions: &mut [Definition],
        named: &[Mention],
        used: &AbbreviationUse,
        (start, end): (usize, usize),
    ) -> Result<Option<Mention>, ResolveError> {
        let Some(definition) = definitions.get_mut(used.definition) else {
            return Ok(None);
        };
        let mut candidates: Vec<NameCandidate> = Vec::new();
        for long in definition.readings(used.with_head) {
            let found = self.names_only(scan, &long)?;
            if !found.is_empty() {
                candidates = found;
                break;
            }
        }
        // The letters may spell less than the name written ("familial Mediterranean fever
        // (MEF)": "Mediterranean fever"): the name mention that ends where the long form
        // ends and holds it.
        if candidates.is_empty()
            && let Some(around) = named.iter().rev().find(|m| {
                m.end == definition.long_span.1
                    && m.start <= definition.long_span.0
                    && matches!(
                        m.reading,
                        MentionReading::Name | MentionReading::NameVariant
                    )
            })
            && let Some(name) = scan.query.text.get(around.start..around.end)
        {
            candidates = around.candidates.clone();
            definition.long = name.to_string();
            definition.long_span = (around.start, around.end);
        }
        let mut own = self.names_only(scan, &definition.short)?;
        // The passage says what the letters stand for here. When that names nothing, a
        // reading of the letters alone is kept only if it could be that ("WAS protein (WASP)"
        // is not Wasps; "lipoma preferred partner (LPP)" may be the gene LPP).
        if candidates.is_empty() {
            let long = self.content_words(&definition.long);
            let mut kept = Vec::with_capacity(own.len());
            for reading in own {
                if self.shares_a_word(reading.concept, &long)? {
                    kept.push(reading);
                }
            }
            own = kept;
        }
        then_unseen(&mut candidates, own);
        Ok((!candidates.is_empty()).then_some(Mention {
            start,
            end,
            reading: MentionReading::Abbreviation {
                definition: used.definition,
                with_head: used.with_head,
            },
            candidates,
            alternatives: Vec::new(),
            features: Features::default(),
            confidence: None,
        }))
    }
}

/// Whether a capital follows a letter or digit in `name` ("SAMe", not "beta-Catenin").
fn capital_inside_a_word(name: &str) -> bool {
    name.chars()
        .zip(name.chars().skip(1))
        .any(|(before, c)| before.is_alphanumeric() && c.is_uppercase())
}

/// Puts `reading` first, its concept listed once.
fn read_first(candidates: &mut Vec<NameCandidate>, reading: NameCandidate) {
    candidates.retain(|c| c.concept != reading.concept);
    candidates.insert(0, reading);
}

/// Appends the candidates of `rest` whose concepts `first` does not hold yet: a reading's
/// own candidates after those of the reading that ranks first.
fn then_unseen(first: &mut Vec<NameCandidate>, rest: impl IntoIterator<Item = NameCandidate>) {
    let seen: HashSet<ConceptId> = first.iter().map(|c| c.concept).collect();
    first.extend(rest.into_iter().filter(|c| !seen.contains(&c.concept)));
}

/// One word of a variant walk: a stop word is skipped inside a name (never first); the
/// word as a head ends a name here, and as an inner word the walk goes on.
fn variant_step(
    lexicon: &SegmentedLexicon,
    rules: &crate::index::names::NameRules,
    at: SegmentWalk,
    (first, last): (usize, usize),
    word: &Token,
    spans: &mut Vec<Span>,
) -> Option<SegmentWalk> {
    let Some((inner, head)) = rules.word_forms(&word.key, word.symbol) else {
        return (last > first).then_some(at);
    };
    let started = at.started();
    if let Some(end) = extend(lexicon, at.clone(), started, &head)
        && lexicon.walk_is_key(&end)
        && !spans.iter().any(|s| s.first == first && s.last == last)
    {
        spans.push(Span {
            first,
            last,
            variant: true,
            head_omitted: false,
        });
    }
    extend(lexicon, at, started, &inner)
}

/// The walk extended by one word (with the space before it when the name already started).
fn extend(
    lexicon: &SegmentedLexicon,
    at: SegmentWalk,
    space: bool,
    word: &str,
) -> Option<SegmentWalk> {
    let at = if space { lexicon.walk(at, b" ")? } else { at };
    lexicon.walk(at, word.as_bytes())
}

#[cfg(test)]
mod tests;
