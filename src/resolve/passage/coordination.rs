//! Names that share a head word with the name after them: "breast" in "breast and ovarian
//! cancer", "Becker" in "Becker and Duchenne muscular dystrophy", each of "colon, rectal and
//! ovarian cancers". A modifier is read with the head of the name it is coordinated with, and
//! becomes a mention when that reading is a loaded concept's name. A concept narrower than
//! both names that the coordination names as a whole, in a passage that says what narrows it,
//! is read first ("breast and ovarian cancer" beside "BRCA1": the hereditary syndrome).

use super::tokens::{Token, tokens};
use super::{Mention, MentionReading, Scan, Span};
use std::cell::OnceCell;
use std::collections::{BTreeSet, HashMap, HashSet};

use super::PassageScan;
use crate::resolve::search::NameCandidate;
use crate::resolve::{ConceptId, ResolveError};

/// Modifiers read in one list ("a, b, c and d cancer"), at most.
const MAX_CONJUNCTS: usize = 6;
/// Concepts narrower than both of a coordination's names listed at most: a coordination
/// names one thing as a whole, or reads as its parts.
const MAX_SHARED_NARROWER: usize = 3;

/// Words that join a coordination: never what narrows a concept.
const CONJUNCTIONS: [&str; 2] = ["and", "or"];

/// A modifier coordinated with a name: its word, and the name whose head it shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Conjunct {
    pub word: usize,
    pub name: Span,
}

/// The text between two words.
fn gap<'t>(text: &'t str, words: &[Token], left: usize) -> &'t str {
    &text[words[left].end..words[left + 1].start]
}

fn is_space(gap: &str) -> bool {
    !gap.is_empty() && gap.chars().all(|c| c == ' ')
}

/// Every word coordinated with the first word of a name of two or more words: the one before
/// a conjunction ("and", "or", "and/or", a slash or a hyphen) just before the name, then each
/// word before it in a comma-separated list.
pub(super) fn conjuncts(text: &str, words: &[Token], names: &[Span]) -> Vec<Conjunct> {
    let mut out = Vec::new();
    for &name in names.iter().filter(|s| s.last > s.first) {
        let Some(mut word) = conjunction_before(text, words, name.first) else {
            continue;
        };
        for _ in 0..MAX_CONJUNCTS {
            out.push(Conjunct { word, name });
            // ", " before the word continues the list; ", and" was read already.
            match word.checked_sub(1) {
                Some(before) if gap(text, words, before) == ", " && !words[before].symbol => {
                    word = before;
                }
                _ => break,
            }
        }
    }
    out
}

/// The word joined to word `first` by a conjunction just before it.
fn conjunction_before(text: &str, words: &[Token], first: usize) -> Option<usize> {
    let before = first.checked_sub(1)?;
    let joined = gap(text, words, before);
    if joined == "/" || joined == "-" {
        return Some(before);
    }
    if !is_space(joined) || !matches!(words[before].key.as_str(), "and" | "or") {
        return None;
    }
    let mut word = before.checked_sub(1)?;
    // "and/or"
    if words[before].key == "or" && gap(text, words, word) == "/" && words[word].key == "and" {
        word = word.checked_sub(1)?;
        return (is_space(gap(text, words, word))).then_some(word);
    }
    let joined = gap(text, words, word);
    (is_space(joined) || joined == ", ").then_some(word)
}

/// The forms of a passage's words, folded once, when a coordination first needs them.
pub(super) struct PassageForms<'w> {
    words: &'w [Token],
    forms: OnceCell<HashSet<String>>,
}

impl<'w> PassageForms<'w> {
    pub(super) fn new(words: &'w [Token]) -> Self {
        PassageForms {
            words,
            forms: OnceCell::new(),
        }
    }

    fn get(&self, scan: &PassageScan<'_>) -> &HashSet<String> {
        self.forms.get_or_init(|| scan.forms_of(self.words))
    }
}

/// A conjunct's mention, and the concept its coordination names as a whole when that is read
/// first: the name it is coordinated with reads it first too.
pub(super) struct ConjunctReading {
    pub mention: Mention,
    pub whole: Option<NameCandidate>,
}

impl<'r> PassageScan<'r> {
    /// The mention of a conjunct read with its name's head ("breast cancer" for "breast" in
    /// "breast and ovarian cancer"), its own readings after; `None` when that reading names
    /// no concept. A concept narrower than both names comes after the reading, or before it
    /// when the coordination names it and the passage says what narrows it
    /// ([`PassageScan::names_and_narrows`]).
    pub(super) fn conjunct_mention(
        &self,
        scan: &Scan<'_>,
        passage: &PassageForms<'_>,
        conjunct: Conjunct,
        (own, name_first): (Option<&Mention>, Option<ConceptId>),
    ) -> Result<Option<ConjunctReading>, ResolveError> {
        let words = passage.words;
        let text = scan.query.text;
        let word = &words[conjunct.word];
        let head = &text[words[conjunct.name.first + 1].start..words[conjunct.name.last].end];
        let reading = format!("{} {head}", &text[word.start..word.end]);
        let mut candidates = self.names_only(scan, &reading)?;
        let Some(first) = candidates.first() else {
            return Ok(None);
        };
        let mut whole = None;
        if let Some(other) = name_first {
            let shared = self.shared_narrower(first.concept, other)?;
            let coordination: Vec<Vec<String>> = std::iter::once(word)
                .chain(&words[conjunct.name.first..=conjunct.name.last])
                .map(|w| self.word_forms(w))
                .filter(|forms| !forms.is_empty())
                .collect();
            for candidate in &shared {
                if self.names_and_narrows(candidate.concept, &coordination, passage)? {
                    whole = Some(candidate.clone());
                    break;
                }
            }
            if let Some(whole) = &whole {
                super::read_first(&mut candidates, whole.clone());
            }
            super::then_unseen(&mut candidates, shared);
        }
        if let Some(own) = own {
            super::then_unseen(&mut candidates, own.candidates.iter().cloned());
        }
        let mention = Mention {
            start: word.start,
            end: word.end,
            reading: MentionReading::Coordinated {
                name: (
                    words[conjunct.name.first].start,
                    words[conjunct.name.last].end,
                ),
            },
            candidates,
            alternatives: Vec::new(),
            features: Default::default(),
            confidence: None,
        };
        Ok(Some(ConjunctReading { mention, whole }))
    }

    /// Whether a coordination names `concept` as a whole and the passage says what narrows
    /// it: one of its names (its own, or those of the concepts it maps to exactly) holds every
    /// word of the coordination (`coordination`: each word's forms), and the passage holds a
    /// word that two of those names use besides ("hereditary", "BRCA1"): three letters or
    /// more, not a number, neither a conjunction nor a generic name.
    fn names_and_narrows(
        &self,
        concept: ConceptId,
        coordination: &[Vec<String>],
        passage: &PassageForms<'_>,
    ) -> Result<bool, ResolveError> {
        let mut concepts = vec![concept];
        concepts.extend(
            crate::resolve::search::NameSearcher::new(self.r)
                .curated_exact_targets(concept)?
                .into_iter()
                .map(|(id, _)| id),
        );
        // Distinct word sets: "HBOC Syndrome" and "Syndromes, HBOC" are one name.
        let mut names: BTreeSet<BTreeSet<String>> = BTreeSet::new();
        for id in concepts {
            for label in self.r.concept(id)?.labels {
                names.insert(self.forms_of(&tokens(&label.text)).into_iter().collect());
            }
        }
        let holds = |name: &BTreeSet<String>| {
            coordination
                .iter()
                .all(|forms| forms.iter().any(|f| name.contains(f)))
        };
        if !names.iter().any(holds) {
            return Ok(false);
        }
        let said: HashSet<&str> = coordination.iter().flatten().map(String::as_str).collect();
        let mut uses: HashMap<&str, usize> = HashMap::new();
        for word in names.iter().flatten() {
            *uses.entry(word.as_str()).or_default() += 1;
        }
        let passage = passage.get(self);
        Ok(uses.into_iter().any(|(word, n)| {
            n >= 2
                && word.chars().count() >= 3
                && !word.chars().all(|c| c.is_ascii_digit())
                && !said.contains(word)
                && !CONJUNCTIONS.contains(&word)
                && !self.is_generic(word)
                && passage.contains(word)
        }))
    }

    /// The searchable, current concepts that are children of both `a` and `b` in one
    /// release: what a coordination of their names may name as a whole ("breast and ovarian
    /// cancer": Hereditary Breast and Ovarian Cancer Syndrome), each a `shared_narrower`
    /// candidate.
    fn shared_narrower(
        &self,
        a: ConceptId,
        b: ConceptId,
    ) -> Result<Vec<NameCandidate>, ResolveError> {
        if a == b {
            return Ok(Vec::new());
        }
        let (one, other) = (self.r.concept(a)?, self.r.concept(b)?);
        if one.source != other.source {
            return Ok(Vec::new());
        }
        let theirs: HashSet<&str> = other.children.iter().map(|l| l.iri.as_str()).collect();
        let mut out = Vec::new();
        for link in one
            .children
            .iter()
            .filter(|l| theirs.contains(l.iri.as_str()))
        {
            if out.len() >= MAX_SHARED_NARROWER {
                break;
            }
            let Some((id, child)) = self.r.lexicon().by_iri_any(&link.iri, one.source)? else {
                continue;
            };
            let usable =
                (self.r.files.flags.get(id.0)).is_some_and(|f| f.searchable && !f.obsolete);
            if child.source == one.source && usable {
                out.push(NameCandidate::shared_narrower(id));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokens;
    use super::*;

    fn read(text: &str, name: (usize, usize)) -> Vec<String> {
        let words = tokens(text);
        let span = Span {
            first: name.0,
            last: name.1,
            variant: false,
            head_omitted: false,
        };
        conjuncts(text, &words, &[span])
            .iter()
            .map(|c| words[c.word].key.clone())
            .collect()
    }

    #[test]
    fn conjunctions_lists_and_slashes_join_a_modifier_to_the_name_after_it() {
        assert_eq!(read("breast and ovarian cancer", (2, 3)), ["breast"]);
        assert_eq!(read("breast/ovarian cancer", (1, 2)), ["breast"]);
        assert_eq!(read("breast-ovarian cancer", (1, 2)), ["breast"]);
        assert_eq!(read("breast and/or ovarian cancer", (3, 4)), ["breast"]);
        assert_eq!(
            read("colon, rectal, and ovarian cancers", (3, 4)),
            ["rectal", "colon"]
        );
        assert_eq!(
            read("colon, rectal or ovarian cancers", (3, 4)),
            ["rectal", "colon"]
        );
    }

    #[test]
    fn a_name_after_other_words_or_a_sentence_end_has_no_conjunct() {
        assert!(read("women with ovarian cancer", (2, 3)).is_empty());
        assert!(read("breast. And ovarian cancer", (2, 3)).is_empty());
        assert!(read("and ovarian cancer", (1, 2)).is_empty());
        // A one-word name has no head to share.
        assert!(read("breast and cancer", (2, 2)).is_empty());
    }
}
