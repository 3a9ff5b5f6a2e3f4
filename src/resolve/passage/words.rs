//! Words compared across spellings: the forms the name rules give a word ("cancers" as
//! "cancer" inside a name and "neoplasm" as its head, "familial" as "hereditary"), the words
//! of a name that can say what it is, and whether two names share one.

use std::collections::HashSet;

use super::PassageScan;
use super::tokens::{Token, tokens};
use crate::resolve::{ConceptId, ResolveError};

/// Whether two words are one: equal, or one of at least four letters holds the other of at
/// least four ("azadeoxycytidine" holds "deoxycytidine").
pub(super) fn same_word(a: &str, b: &str) -> bool {
    a == b || (a.chars().count() >= 4 && b.chars().count() >= 4 && (a.contains(b) || b.contains(a)))
}

impl<'r> PassageScan<'r> {
    /// A word's forms under the name rules: inside a name and as its head, once each when
    /// they agree; none for a stop word. Without rules, the word itself.
    pub(super) fn word_forms(&self, word: &Token) -> Vec<String> {
        let Some((_, rules)) = self.r.files.variants.as_ref() else {
            return vec![word.key.clone()];
        };
        match rules.word_forms(&word.key, word.symbol) {
            Some((inner, head)) if inner == head => vec![inner],
            Some((inner, head)) => vec![inner, head],
            None => Vec::new(),
        }
    }

    /// Every form of every word of `words`.
    pub(super) fn forms_of(&self, words: &[Token]) -> HashSet<String> {
        words.iter().flat_map(|w| self.word_forms(w)).collect()
    }

    /// The words of a name that can say what it is, in their forms: three letters or more,
    /// neither a stop word nor a generic name ("gene", "protein", "disease").
    pub(super) fn content_words(&self, name: &str) -> Vec<String> {
        tokens(name)
            .iter()
            .filter(|w| w.key.chars().count() >= 3 && !self.is_generic(&w.key))
            .flat_map(|w| self.word_forms(w))
            .collect()
    }

    /// Whether one of `concept`'s names shares a word with `words`.
    pub(super) fn shares_a_word(
        &self,
        concept: ConceptId,
        words: &[String],
    ) -> Result<bool, ResolveError> {
        Ok(self.r.concept(concept)?.labels.iter().any(|label| {
            self.content_words(&label.text)
                .iter()
                .any(|w| words.iter().any(|x| same_word(w, x)))
        }))
    }
}
