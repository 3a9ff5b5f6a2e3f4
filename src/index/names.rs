//! Name variants: the steps that let "cancers of the breast" meet "Breast Neoplasms".
//!
//! A name's variant key is its label key (case, Unicode and punctuation folded) taken further:
//! an inverted heading put back in reading order ("Neoplasms, Breast"), one "X of Y" read as
//! "Y X", possessives and stop words dropped, British spellings made American, plurals made
//! singular, head words such as "cancer" made "neoplasm" and modifiers such as "familial" made
//! "hereditary". Words written in capitals or with digits (AIDS, BRCA1) are symbols and are
//! never inflected. Word order is otherwise kept: "rod-cone dystrophy" is not "cone-rod
//! dystrophy". The word lists are data (`ontologies/name-rules.toml`), copied into every
//! build, so that a key written at build time and a query typed later meet under the same
//! rules. Every change to a query is recorded as a typed [`NameStep`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

/// Names longer than this many words get no variant key: a paragraph is not a name.
pub const MAX_VARIANT_WORDS: usize = 24;
/// Names longer than this many bytes get no variant key (checked before any work).
pub const MAX_VARIANT_BYTES: usize = 1024;
/// An inverted heading has at most this many comma-separated parts ("Anemia, Hemolytic,
/// Congenital"); a name with more is a list, not a heading.
const MAX_INVERTED_PARTS: usize = 3;
/// Words shorter than this are never made singular or respelled ("gas", "ms").
const MIN_INFLECTED_CHARS: usize = 4;

/// Where in a word a spelling rule applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RulePlace {
    Start,
    End,
    Anywhere,
}

/// One British → American spelling rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpellingRule {
    pub from: String,
    pub to: String,
    pub at: RulePlace,
}

/// The word lists behind variant keys, read from the catalogue's rules file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameRules {
    /// The version of the file's fields (`index::format::RULES_FORMAT`), read first.
    pub format: u32,
    /// A version of the rules' content, recorded in the manifest.
    pub version: String,
    /// Words dropped from variant keys ("of", "the").
    #[serde(default)]
    pub stop_words: Vec<String>,
    /// Plurals the regular rules get wrong, to their singular.
    #[serde(default)]
    pub irregular_plurals: BTreeMap<String, String>,
    /// Endings of words that are not plurals although they end in "s" ("ss", "us", "is").
    #[serde(default)]
    pub not_plural_endings: Vec<String>,
    /// Plural endings replaced as a whole ("ies" → "y", "sses" → "ss").
    #[serde(default)]
    pub plural_endings: BTreeMap<String, String>,
    #[serde(default)]
    pub spellings: Vec<SpellingRule>,
    /// Head words taken as another ("cancer" → "neoplasm"), after the singular.
    #[serde(default)]
    pub head_words: BTreeMap<String, String>,
    /// Words before the head taken as another ("familial" → "hereditary"), after the
    /// singular.
    #[serde(default)]
    pub modifier_words: BTreeMap<String, String>,
    /// Names too generic to mean a concept on their own in a passage ("disease",
    /// "patients"), as label keys: `ground_passage` does not ground them alone.
    #[serde(default)]
    pub generic_names: Vec<String>,
    /// Last words that make a phrase a class of conditions ("autosomal recessive
    /// disorder"): `ground_passage` reads such a phrase, when it names a concept only outside
    /// the wanted sources, as the nearest broader concept they hold.
    #[serde(default)]
    pub class_heads: Vec<String>,
    /// Last words that make a name a gene's product named after a condition ("Wiskott-Aldrich
    /// syndrome protein"): `ground_passage` also reads the names inside it, before that word.
    #[serde(default)]
    pub product_heads: Vec<String>,
    /// Head words a passage may leave out of an eponymous name ("Lesch-Nyhan patients" for
    /// "Lesch-Nyhan syndrome"): `ground_passage` reads two or more words with a capital after
    /// the first letter that name nothing alone as the name they start, completed by one.
    #[serde(default)]
    pub omitted_heads: Vec<String>,
}

/// Why a rules file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// Its format version is missing or not this binary's.
    #[error(transparent)]
    Version(#[from] super::format::VersionReadError),
    /// Not TOML, or a field of the wrong type or unknown at this format version.
    #[error("{0}")]
    Syntax(String),
    /// A rule this binary refuses (an upper-case word, an empty ending).
    #[error("{0}")]
    Invalid(String),
}

/// One change a name went through on its way to a key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum NameStep {
    /// Case, Unicode compatibility forms and punctuation folded (the exact-name key).
    Folded {
        key: String,
    },
    /// Hyphenated parts written as one word ("non-polyposis" → "nonpolyposis").
    HyphenJoined {
        word: String,
    },
    /// A possessive "'s" dropped ("Crohn's" → "crohn").
    PossessiveDropped {
        word: String,
    },
    StopWordDropped {
        word: String,
    },
    /// A British spelling made American ("tumour" → "tumor").
    SpellingAmerican {
        from: String,
        to: String,
    },
    /// A plural made singular ("cancers" → "cancer").
    Singular {
        from: String,
        to: String,
    },
    /// A head word taken as its equivalent ("cancer" → "neoplasm").
    HeadWord {
        from: String,
        to: String,
    },
    /// A word before the head taken as its equivalent ("familial" → "hereditary").
    ModifierWord {
        from: String,
        to: String,
    },
    /// An inverted heading put back in reading order ("Neoplasms, Breast" → "Breast
    /// Neoplasms").
    InversionUndone {
        reordered: String,
    },
    /// "X of Y" read as "Y X" ("cancer of the breast" → "the breast cancer").
    OfPhraseReordered,
}

impl NameStep {
    /// The step in words, for answers that echo how a query was read.
    pub fn describe(&self) -> String {
        match self {
            NameStep::Folded { key } => format!("folded case, Unicode and punctuation: '{key}'"),
            NameStep::HyphenJoined { word } => format!("hyphenated parts joined: '{word}'"),
            NameStep::PossessiveDropped { word } => format!("possessive dropped: '{word}'"),
            NameStep::StopWordDropped { word } => format!("stop word dropped: '{word}'"),
            NameStep::SpellingAmerican { from, to } => {
                format!("American spelling: '{from}' -> '{to}'")
            }
            NameStep::Singular { from, to } => format!("singular: '{from}' -> '{to}'"),
            NameStep::HeadWord { from, to } => format!("head word: '{from}' read as '{to}'"),
            NameStep::ModifierWord { from, to } => format!("modifier: '{from}' read as '{to}'"),
            NameStep::InversionUndone { reordered } => {
                format!("inverted heading read in order: '{reordered}'")
            }
            NameStep::OfPhraseReordered => "'X of Y' read as 'Y X'".into(),
        }
    }
}

/// A name's variant key and the steps that made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub key: String,
    pub steps: Vec<NameStep>,
}

/// Whether `part` occurs in `word` (an empty `part`, which the rules refuse, never does).
fn holds(word: &str, part: &str) -> bool {
    !part.is_empty()
        && word
            .as_bytes()
            .windows(part.len())
            .any(|w| w == part.as_bytes())
}

/// A word of a name and what separated it from the word before.
struct Word {
    text: String,
    after_hyphen: bool,
    after_apostrophe: bool,
    /// Written in capitals or with digits: a symbol or abbreviation, never inflected.
    symbol: bool,
}

impl NameRules {
    /// Parses the rules file (TOML).
    /// Parses and validates a rules file, reading its `format` before anything else: a file
    /// from a newer ontoresolve may have fields this binary does not know.
    pub fn from_toml(text: &str) -> Result<NameRules, RulesError> {
        super::format::check_toml(text, super::format::RULES_FORMAT)?;
        let rules: NameRules =
            toml::from_str(text).map_err(|e| RulesError::Syntax(e.to_string()))?;
        rules.validate().map_err(RulesError::Invalid)?;
        Ok(rules)
    }

    /// Every word and ending must be a non-empty lower-case word: keys are lower case, and an
    /// empty `from` would rewrite every word.
    fn validate(&self) -> Result<(), String> {
        let words = self
            .stop_words
            .iter()
            .chain(&self.not_plural_endings)
            .chain(self.irregular_plurals.iter().flat_map(|(a, b)| [a, b]))
            .chain(self.plural_endings.iter().flat_map(|(a, b)| [a, b]))
            .chain(self.head_words.iter().flat_map(|(a, b)| [a, b]))
            .chain(self.modifier_words.iter().flat_map(|(a, b)| [a, b]))
            .chain(&self.class_heads)
            .chain(&self.product_heads)
            .chain(&self.omitted_heads)
            .chain(self.spellings.iter().flat_map(|r| [&r.from, &r.to]));
        if let Some(bad) = self
            .generic_names
            .iter()
            .find(|g| super::normalize::label_key(g) != **g)
        {
            return Err(format!(
                "generic name '{bad}' must be written as a label key: lower case, words one space apart"
            ));
        }
        for word in words {
            let empty_allowed = self.plural_endings.values().any(|v| v == word);
            if (word.is_empty() && !empty_allowed)
                || word
                    .chars()
                    .any(|c| !(c.is_lowercase() || c.is_ascii_digit()))
            {
                return Err(format!(
                    "'{word}': rule words must be non-empty lower-case letters or digits"
                ));
            }
        }
        Ok(())
    }

    /// The variant keys of a name: one, or two when it has hyphenated words (joined, and
    /// apart). Empty for a name without letters or digits, or longer than
    /// [`MAX_VARIANT_WORDS`].
    pub fn variants(&self, text: &str) -> Vec<Variant> {
        if text.len() > MAX_VARIANT_BYTES {
            return Vec::new();
        }
        let plain = split_words(text);
        if plain.is_empty() || plain.len() > MAX_VARIANT_WORDS {
            return Vec::new();
        }
        let mut first_steps = vec![NameStep::Folded {
            key: plain
                .iter()
                .map(|w| w.text.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        }];
        let words = match uninverted(text) {
            Some(reordered) => {
                let words = split_words(&reordered);
                first_steps.push(NameStep::InversionUndone { reordered });
                words
            }
            None => plain,
        };
        let words = match of_phrase_reordered(words) {
            Ok(words) => {
                first_steps.push(NameStep::OfPhraseReordered);
                words
            }
            Err(words) => words,
        };
        let mut out = vec![self.variant(&words, false, first_steps.clone())];
        if words.iter().any(|w| w.after_hyphen) {
            let joined = self.variant(&words, true, first_steps);
            if joined.key != out[0].key {
                out.push(joined);
            }
        }
        out
    }

    /// One passage word as a variant key writes it: `None` for a stop word (dropped inside a
    /// name), else its form inside a name and its form as the name's head (last word). `word`
    /// is lower case after NFKC; a symbol (capitals, digits) is kept as it is.
    pub fn word_forms(&self, word: &str, symbol: bool) -> Option<(String, String)> {
        if symbol {
            return Some((word.to_string(), word.to_string()));
        }
        if self.stop_words.iter().any(|w| w == word) {
            return None;
        }
        let mut steps = Vec::new();
        let inner = self.key_word(word.to_string(), false, &mut steps);
        let head = self.key_word(word.to_string(), true, &mut steps);
        Some((inner, head))
    }

    fn variant(&self, words: &[Word], join_hyphens: bool, first_steps: Vec<NameStep>) -> Variant {
        let mut steps = first_steps;
        let mut kept: Vec<(String, bool)> = Vec::with_capacity(words.len());
        for word in words {
            if word.after_apostrophe && word.text == "s" {
                let owner = kept.last().map(|w| w.0.clone()).unwrap_or_default();
                steps.push(NameStep::PossessiveDropped { word: owner });
                continue;
            }
            if join_hyphens
                && word.after_hyphen
                && let Some(last) = kept.last_mut()
            {
                let joined = format!("{}{}", last.0, word.text);
                steps.push(NameStep::HyphenJoined {
                    word: joined.clone(),
                });
                *last = (joined, last.1 || word.symbol);
                continue;
            }
            kept.push((word.text.clone(), word.symbol));
        }
        let mut keyed: Vec<String> = Vec::with_capacity(kept.len());
        let last = kept.len().saturating_sub(1);
        for (i, (word, symbol)) in kept.into_iter().enumerate() {
            if symbol {
                keyed.push(word);
            } else if self.stop_words.contains(&word) {
                steps.push(NameStep::StopWordDropped { word });
            } else {
                keyed.push(self.key_word(word, i == last, &mut steps));
            }
        }
        Variant {
            key: keyed.join(" "),
            steps,
        }
    }

    /// One word through spelling, singular and head-word rules.
    /// `head`: the name's last word, the head of an English noun phrase, the only one that
    /// head-word rules apply to ("tumor necrosis factor" keeps its "tumor").
    fn key_word(&self, word: String, head: bool, steps: &mut Vec<NameStep>) -> String {
        let mut word = word;
        if word.chars().count() >= MIN_INFLECTED_CHARS {
            let respelled = self.respell(&word);
            if respelled != word {
                steps.push(NameStep::SpellingAmerican {
                    from: word.clone(),
                    to: respelled.clone(),
                });
                word = respelled;
            }
            let singular = self.singular(&word);
            if singular != word {
                steps.push(NameStep::Singular {
                    from: word.clone(),
                    to: singular.clone(),
                });
                word = singular;
            }
        }
        if head && let Some(equivalent) = self.head_words.get(&word) {
            steps.push(NameStep::HeadWord {
                from: word.clone(),
                to: equivalent.clone(),
            });
            word = equivalent.clone();
        } else if !head && let Some(equivalent) = self.modifier_words.get(&word) {
            steps.push(NameStep::ModifierWord {
                from: word.clone(),
                to: equivalent.clone(),
            });
            word = equivalent.clone();
        }
        word
    }

    fn respell(&self, word: &str) -> String {
        let mut word = word.to_string();
        for rule in &self.spellings {
            word = match rule.at {
                RulePlace::Start => match word.strip_prefix(rule.from.as_str()) {
                    Some(rest) => format!("{}{rest}", rule.to),
                    None => word,
                },
                RulePlace::End => match word.strip_suffix(rule.from.as_str()) {
                    Some(rest) => format!("{rest}{}", rule.to),
                    None => word,
                },
                // Most words hold no rule's letters: a plain scan spares `replace` its searcher.
                RulePlace::Anywhere if holds(&word, &rule.from) => {
                    word.replace(rule.from.as_str(), &rule.to)
                }
                RulePlace::Anywhere => word,
            };
        }
        word
    }

    fn singular(&self, word: &str) -> String {
        if let Some(single) = self.irregular_plurals.get(word) {
            return single.clone();
        }
        if !word.ends_with('s') || self.not_plural_endings.iter().any(|e| word.ends_with(e)) {
            return word.to_string();
        }
        // The longest matching ending wins ("sses" before "s").
        let ending = self
            .plural_endings
            .iter()
            .filter(|(from, _)| word.len() > from.len() + 1 && word.ends_with(from.as_str()))
            .max_by_key(|(from, _)| from.len());
        match ending {
            Some((from, to)) => format!("{}{to}", &word[..word.len() - from.len()]),
            None => word[..word.len() - 1].to_string(),
        }
    }
}

/// The words of a name, lower case after NFKC, with what came before each and whether it was
/// written as a symbol.
fn split_words(text: &str) -> Vec<Word> {
    let mut words: Vec<Word> = Vec::new();
    let mut current = String::new();
    let mut upper = 0usize;
    let mut lower = 0usize;
    let mut digits = 0usize;
    let mut separator = String::new();
    for c in text.nfkc() {
        if c.is_alphanumeric() {
            if c.is_uppercase() {
                upper += 1;
            } else if c.is_lowercase() {
                lower += 1;
            } else if c.is_numeric() {
                digits += 1;
            }
            current.extend(c.to_lowercase());
            continue;
        }
        if !current.is_empty() {
            push_word(&mut words, &mut current, &separator, (upper, lower, digits));
            separator.clear();
            (upper, lower, digits) = (0, 0, 0);
        }
        separator.push(c);
    }
    if !current.is_empty() {
        push_word(&mut words, &mut current, &separator, (upper, lower, digits));
    }
    words
}

fn push_word(
    words: &mut Vec<Word>,
    current: &mut String,
    separator: &str,
    (upper, lower, digits): (usize, usize, usize),
) {
    let after_hyphen = !words.is_empty() && is_hyphen_run(separator);
    let after_apostrophe = !words.is_empty() && is_apostrophe_run(separator);
    words.push(Word {
        text: std::mem::take(current),
        after_hyphen,
        after_apostrophe,
        symbol: written_as_symbol(upper, lower, digits),
    });
}

/// A word with digits, or in capitals (two or more, no lower case), is a symbol (AIDS,
/// BRCA1): never inflected, and read in its own letter case.
fn written_as_symbol(upper: usize, lower: usize, digits: usize) -> bool {
    digits > 0 || (upper >= 2 && lower == 0)
}

/// Whether a word as written is a symbol, by the rule names are keyed with.
pub fn is_symbol(word: &str) -> bool {
    let (mut upper, mut lower, mut digits) = (0usize, 0usize, 0usize);
    for c in word.chars() {
        if c.is_uppercase() {
            upper += 1;
        } else if c.is_lowercase() {
            lower += 1;
        } else if c.is_numeric() {
            digits += 1;
        }
    }
    written_as_symbol(upper, lower, digits)
}

/// An inverted heading ("Neoplasms, Breast", "Anemia, Hemolytic, Congenital") in reading
/// order: its comma-separated parts reversed. `None` when the name has no ", " or too many.
fn uninverted(text: &str) -> Option<String> {
    let parts: Vec<&str> = text
        .split(", ")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() < 2 || parts.len() > MAX_INVERTED_PARTS {
        return None;
    }
    Some(parts.into_iter().rev().collect::<Vec<_>>().join(" "))
}

/// "X of Y" as "Y X", when the name has exactly one "of" with words on both sides; the words
/// back unchanged otherwise.
fn of_phrase_reordered(mut words: Vec<Word>) -> Result<Vec<Word>, Vec<Word>> {
    let ofs: Vec<usize> = words
        .iter()
        .enumerate()
        .filter(|(_, w)| w.text == "of" && !w.symbol)
        .map(|(i, _)| i)
        .collect();
    match ofs.as_slice() {
        [i] if *i > 0 && *i + 1 < words.len() => {
            let tail = words.split_off(i + 1);
            words.pop();
            let mut out = tail;
            if let Some(first) = out.first_mut() {
                first.after_hyphen = false;
                first.after_apostrophe = false;
            }
            if let Some(first) = words.first_mut() {
                first.after_hyphen = false;
                first.after_apostrophe = false;
            }
            out.extend(words);
            Ok(out)
        }
        _ => Err(words),
    }
}

fn is_hyphen_run(separator: &str) -> bool {
    separator.chars().count() == 1
        && separator
            .chars()
            .all(|c| matches!(c, '-' | '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}'))
}

fn is_apostrophe_run(separator: &str) -> bool {
    separator.chars().count() == 1
        && separator
            .chars()
            .all(|c| matches!(c, '\'' | '\u{2019}' | '\u{02bc}'))
}

#[cfg(test)]
mod tests;
