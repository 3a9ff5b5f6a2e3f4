//! A passage's words, as the lexicons key them: maximal runs of letters and digits, lower
//! case after NFKC, with where each is and whether a name may run on across the gap before it.

use unicode_normalization::UnicodeNormalization;

/// One word of the passage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Byte offsets into the passage.
    pub start: usize,
    pub end: usize,
    /// Lower case after NFKC: the word as a label key writes it.
    pub key: String,
    /// Written in capitals (two or more, no lower case) or with digits: a symbol.
    pub symbol: bool,
    /// A name cannot run on from the previous word to this one: the gap holds sentence or
    /// clause punctuation, brackets or a line break.
    pub breaks_before: bool,
}

/// Characters a name may run across ("breast-ovarian", "Crohn's", "breast/ovarian", spaces).
fn joins_names(c: char) -> bool {
    c == ' '
        || c == '\t'
        || matches!(
            c,
            '-' | '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '/' | '\'' | '\u{2019}' | '+'
        )
        || (c.is_whitespace() && c != '\n' && c != '\r')
}

/// Every word of `text`, in order.
pub fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut gap_breaks = false;
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            out.push(token(text, s, i, gap_breaks));
            gap_breaks = false;
        }
        if !joins_names(c) {
            gap_breaks = true;
        }
    }
    if let Some(s) = start {
        out.push(token(text, s, text.len(), gap_breaks));
    }
    out
}

fn token(text: &str, start: usize, end: usize, breaks_before: bool) -> Token {
    let word = &text[start..end];
    Token {
        start,
        end,
        key: word.nfkc().flat_map(char::to_lowercase).collect(),
        symbol: crate::index::names::is_symbol(word),
        breaks_before,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_folded_and_clause_punctuation_breaks_names() {
        let text = "Breast-cancer (BRCA1), and\nCrohn's disease.";
        let words = tokens(text);
        let keys: Vec<&str> = words.iter().map(|t| t.key.as_str()).collect();
        assert_eq!(
            keys,
            ["breast", "cancer", "brca1", "and", "crohn", "s", "disease"]
        );
        let breaks: Vec<bool> = words.iter().map(|t| t.breaks_before).collect();
        assert_eq!(breaks, [false, false, true, true, true, false, false]);
        assert!(words[2].symbol);
        assert_eq!(&text[words[2].start..words[2].end], "BRCA1");
    }

    #[test]
    fn unicode_words_keep_their_byte_spans() {
        let text = "Gesundheitsökonomie ﬁbrosis";
        let words = tokens(text);
        assert_eq!(words[0].key, "gesundheitsökonomie");
        assert_eq!(words[1].key, "fibrosis");
        assert_eq!(&text[words[1].start..words[1].end], "ﬁbrosis");
    }
}
