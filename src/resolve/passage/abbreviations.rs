//! Abbreviations a passage defines, found as Schwartz and Hearst (2003) find them: a short
//! form in parentheses after its long form ("Wilson disease (WD)"), or the reverse ("WD
//! (Wilson disease)"), the long form's words holding the short form's letters in order, the
//! first letter starting a word; or, for a few letters, as the initials of as many words in
//! another order ("myotonic dystrophy (DM)"). A short form inside a name ("von Hippel-Lindau
//! (VHL) disease") keeps the head word after it, so "VHL disease" reads as the whole name.

/// One definition: the short form, its long form, and where each part is, in byte offsets
/// into the passage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    pub short: String,
    /// The long form as written.
    pub long: String,
    /// A head word right after "(SF)" that completes a name ("von Hippel-Lindau (VHL)
    /// disease"): "SF head" then reads as "long head".
    pub head: Option<String>,
    pub long_span: (usize, usize),
    pub short_span: (usize, usize),
}

impl Definition {
    /// The long form's readings for a use of the short form, the likeliest first: with the
    /// head word when the use is followed by it, else the long form alone first.
    pub fn readings(&self, use_has_head: bool) -> Vec<String> {
        let Some(head) = &self.head else {
            return vec![self.long.clone()];
        };
        let named = format!("{} {head}", self.long);
        if use_has_head {
            vec![named, self.long.clone()]
        } else {
            vec![self.long.clone(), named]
        }
    }
}

/// Short forms are at most this many characters, and at most two words.
const MAX_SHORT_CHARS: usize = 10;
/// Head words that, right after "(SF)", complete the long form's name.
const NAME_HEADS: [&str; 8] = [
    "disease",
    "syndrome",
    "disorder",
    "deficiency",
    "dystrophy",
    "tumor",
    "tumour",
    "carcinoma",
];

/// Every definition in the passage, in order. A short form defined twice keeps its first
/// definition: later ones are uses.
pub fn definitions(text: &str) -> Vec<Definition> {
    let mut out: Vec<Definition> = Vec::new();
    let mut at = 0;
    while let Some(open) = text[at..].find('(').map(|i| at + i) {
        let Some(close) = text[open + 1..].find(')').map(|i| open + 1 + i) else {
            break;
        };
        at = open + 1;
        let inner = text[open + 1..close].trim();
        if inner.contains('(') {
            continue;
        }
        let found = if is_short_form(inner) {
            long_before(text, open, inner, close)
        } else if let Some(last) = last_listed(inner) {
            // "(Krabbe disease; AO-GLD)": a synonym, then the short form.
            long_before(text, open, last, close)
        } else {
            short_before(text, open, inner, close)
        };
        let Some(d) = found else {
            continue;
        };
        let parts = components(&d);
        for d in std::iter::once(d).chain(parts) {
            if !out.iter().any(|o| o.short == d.short) {
                out.push(d);
            }
        }
    }
    out
}

/// The last of several items listed in parentheses, when it may be a short form.
fn last_listed(inner: &str) -> Option<&str> {
    let (_, last) = inner.rsplit_once([';', ','])?;
    let last = last.trim();
    is_short_form(last).then_some(last)
}

/// The parts of a composite short form ("HPT-JT", "VCFS/DGS"), each defined by the part of
/// the long form its letters spell ("hyperparathyroidism-jaw tumor syndrome": "HPT" for
/// "hyperparathyroidism", "JT" for "jaw tumor", the head word "syndrome" shared): a passage
/// uses the parts alone.
fn components(whole: &Definition) -> Vec<Definition> {
    let Some((a, b)) = whole.short.split_once(['-', '/']) else {
        return Vec::new();
    };
    if !is_short_form(a) || !is_short_form(b) || b.contains(['-', '/']) {
        return Vec::new();
    }
    let long = whole.long.as_str();
    let splits = long
        .char_indices()
        .filter(|&(_, c)| c.is_whitespace() || c == '-' || c == '/')
        .map(|(i, c)| (i, i + c.len_utf8()));
    for (left_end, right_start) in splits {
        let left = &long[..left_end];
        let (right, head) = without_head(b, &long[right_start..]);
        if best_long_form(a, left) != Some(left) || best_long_form(b, right) != Some(right) {
            continue;
        }
        let at = |part: &str| whole.long_span.0 + (part.as_ptr() as usize - long.as_ptr() as usize);
        let short_at = |part: &str| {
            whole.short_span.0 + (part.as_ptr() as usize - whole.short.as_ptr() as usize)
        };
        let part = |short: &str, long: &str, head: Option<&str>| Definition {
            short: short.to_string(),
            long: long.to_string(),
            head: head.map(str::to_string),
            long_span: (at(long), at(long) + long.len()),
            short_span: (short_at(short), short_at(short) + short.len()),
        };
        return vec![
            part(a, left, None),
            part(b, right, head.or(whole.head.as_deref())),
        ];
    }
    Vec::new()
}

/// A long form without its last word when that word is a head word the short form's letters
/// do not need ("jaw tumor syndrome" for "JT"): the head is shared by the composite.
fn without_head<'t>(short: &str, long: &'t str) -> (&'t str, Option<&'t str>) {
    let trimmed = long.trim_end();
    let start = after_last_space(trimmed);
    let (rest, last) = (trimmed[..start].trim_end(), &trimmed[start..]);
    let is_head = NAME_HEADS.iter().any(|h| h.eq_ignore_ascii_case(last));
    if is_head && !rest.is_empty() && best_long_form(short, rest) == Some(rest) {
        (rest, Some(last))
    } else {
        (trimmed, None)
    }
}

fn is_short_form(candidate: &str) -> bool {
    let chars = candidate.chars().count();
    (2..=MAX_SHORT_CHARS).contains(&chars)
        && candidate.split_whitespace().count() <= 2
        && candidate.chars().next().is_some_and(char::is_alphanumeric)
        && candidate.chars().any(char::is_alphabetic)
        // "(p < 0.05)", "(n = 12)", "(1995)" are not abbreviations.
        && !candidate.contains(['=', '<', '>', ',', ';'])
        && candidate.chars().any(|c| c.is_uppercase())
}

/// "long form (SHORT)": the long form among the words before the parenthesis.
fn long_before(text: &str, open: usize, short: &str, close: usize) -> Option<Definition> {
    let short_start = open + 1 + text[open + 1..close].find(short)?;
    let window = window_before(text, open, short);
    let long =
        best_long_form(short, window.1).or_else(|| initials_in_any_order(short, window.1))?;
    let long_start = window.0 + (window.1.len() - long.len());
    let long_end = long_start + long.len();
    Some(Definition {
        short: short.to_string(),
        long: long.to_string(),
        head: head_after(text, close).map(str::to_string),
        long_span: (long_start, long_end),
        short_span: (short_start, short_start + short.len()),
    })
}

/// "SHORT (long form)": the word before the parenthesis is the short form.
fn short_before(text: &str, open: usize, inner: &str, close: usize) -> Option<Definition> {
    let before = text[..open].trim_end();
    let start = after_last_space(before);
    let short = &before[start..];
    if !is_short_form(short) || inner.split_whitespace().count() > 8 {
        return None;
    }
    let long = best_long_form(short, inner)?;
    if long != inner {
        return None;
    }
    let long_start = open + 1 + text[open + 1..close].find(inner)?;
    Some(Definition {
        short: short.to_string(),
        long: long.to_string(),
        head: None,
        long_span: (long_start, long_start + long.len()),
        short_span: (start, start + short.len()),
    })
}

/// The words before `open` a long form may use: at most min(|SF| + 5, 2|SF|) words, within
/// the sentence (after the last '.', ';' or ':').
fn window_before<'t>(text: &'t str, open: usize, short: &str) -> (usize, &'t str) {
    let before = &text[..open];
    let sentence = before.rfind(['.', ';', ':', '(', ')']).map_or(0, |i| i + 1);
    let letters = short.chars().filter(|c| c.is_alphanumeric()).count();
    let max_words = (letters + 5).min(letters * 2);
    let mut start = open;
    let mut words = 0;
    for (i, _) in before[sentence..]
        .char_indices()
        .rev()
        .filter(|&(_, c)| c.is_whitespace())
    {
        let at = sentence + i;
        if !before[at..start].trim().is_empty() {
            words += 1;
            if words > max_words {
                break;
            }
        }
        start = at;
    }
    if words <= max_words {
        start = sentence;
    }
    let trimmed = before[start..].trim();
    let offset = start + before[start..].find(trimmed).unwrap_or(0);
    (offset, trimmed)
}

/// Schwartz and Hearst's match: from the end, each of the short form's letters and digits is
/// found in the long form in order, the first one at the start of a word. The long form is
/// cut to start at that word.
fn best_long_form<'t>(short: &str, long: &'t str) -> Option<&'t str> {
    let short: Vec<char> = short.chars().flat_map(char::to_lowercase).collect();
    let long_chars: Vec<(usize, char)> = long
        .char_indices()
        .map(|(i, c)| (i, c.to_lowercase().next().unwrap_or(c)))
        .collect();
    let mut s = short.len();
    let mut l = long_chars.len();
    while s > 0 {
        s -= 1;
        let wanted = short[s];
        if !wanted.is_alphanumeric() {
            continue;
        }
        loop {
            if l == 0 {
                return None;
            }
            l -= 1;
            let (_, c) = long_chars[l];
            let at_word_start = l == 0 || !long_chars[l - 1].1.is_alphanumeric();
            if c == wanted && (s > 0 || at_word_start) {
                break;
            }
        }
    }
    let byte = long_chars.get(l).map_or(0, |&(i, _)| i);
    let start = after_last_space(&long[..byte]);
    let found = long[start..].trim();
    let words = found.split_whitespace().count();
    let letters = short.iter().filter(|c| c.is_alphanumeric()).count();
    (found.chars().count() > short.len() && words <= (letters + 5).min(letters * 2).max(1))
        .then_some(found)
}

/// A short form of two to five letters whose long form writes them as word initials in
/// another order ("myotonic dystrophy (DM)", after the Latin "dystrophia myotonica"): the last
/// as many words as it has letters, when their initials are its letters.
fn initials_in_any_order<'t>(short: &str, long: &'t str) -> Option<&'t str> {
    if !short.chars().all(char::is_alphabetic) {
        return None;
    }
    let mut letters: Vec<char> = short.chars().flat_map(char::to_lowercase).collect();
    if !(2..=5).contains(&letters.len()) {
        return None;
    }
    let words: Vec<(usize, &str)> = long
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - long.as_ptr() as usize, w))
        .collect();
    let (start, _) = *words.get(words.len().checked_sub(letters.len())?)?;
    let mut initials: Vec<char> = words[words.len() - letters.len()..]
        .iter()
        .filter_map(|(_, w)| w.chars().next())
        .flat_map(char::to_lowercase)
        .collect();
    letters.sort_unstable();
    initials.sort_unstable();
    (letters == initials).then(|| long[start..].trim())
}

/// Where the last word of `text` starts (after its last whitespace, which may be wider than
/// a byte).
fn after_last_space(text: &str) -> usize {
    text.char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// The head word right after the closing parenthesis, when it completes a name.
fn head_after(text: &str, close: usize) -> Option<&str> {
    let after = text.get(close + 1..)?;
    let word: &str = after
        .trim_start()
        .split(|c: char| !c.is_alphanumeric())
        .next()?;
    NAME_HEADS
        .iter()
        .any(|h| h.eq_ignore_ascii_case(word))
        .then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(text: &str) -> Definition {
        definitions(text).into_iter().next().expect("a definition")
    }

    #[test]
    fn a_long_form_before_its_short_form_is_found_with_both_spans() {
        let text = "Huntington disease (HD) is a neurodegenerative disorder.";
        let d = first(text);
        assert_eq!(d.short, "HD");
        assert_eq!(d.long, "Huntington disease");
        assert_eq!(&text[d.long_span.0..d.long_span.1], "Huntington disease");
        assert_eq!(&text[d.short_span.0..d.short_span.1], "HD");
    }

    #[test]
    fn the_long_form_starts_at_the_word_of_the_first_letter() {
        let d = first("Patients with adenomatous polyposis coli (APC) were seen.");
        assert_eq!(d.long, "adenomatous polyposis coli");
        let d = first("the ataxia-telangiectasia (A-T) gene");
        assert_eq!(d.short, "A-T");
        assert_eq!(d.long, "ataxia-telangiectasia");
    }

    #[test]
    fn a_short_form_inside_a_name_yields_the_whole_name_first() {
        let d = first("Germline mutations in von Hippel-Lindau (VHL) disease");
        assert_eq!(d.short, "VHL");
        assert_eq!(d.long, "von Hippel-Lindau");
        assert_eq!(
            d.readings(true),
            ["von Hippel-Lindau disease", "von Hippel-Lindau"]
        );
        assert_eq!(
            d.readings(false),
            ["von Hippel-Lindau", "von Hippel-Lindau disease"]
        );
    }

    #[test]
    fn a_short_form_before_its_long_form_is_found() {
        let d = first("In DMD (Duchenne muscular dystrophy) boys");
        assert_eq!(d.short, "DMD");
        assert_eq!(d.long, "Duchenne muscular dystrophy");
    }

    #[test]
    fn initials_in_another_order_still_define_a_short_form() {
        let d = first("Myotonic dystrophy (DM) is the commonest muscular dystrophy.");
        assert_eq!(d.short, "DM");
        assert_eq!(d.long, "Myotonic dystrophy");
    }

    #[test]
    fn parentheses_that_are_no_abbreviation_give_nothing() {
        for text in [
            "values (p < 0.05) differ",
            "in 1995 (n = 12)",
            "a cohort (1995) of families",
            "the gene (see below) is",
            "unbalanced ( parenthesis",
            "an empty () pair",
            "a letter (a) only",
            "mismatched letters (XYZ) here",
        ] {
            assert!(definitions(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn a_short_form_listed_after_a_synonym_in_parentheses_is_defined() {
        let d = first("adult onset globoid cell leukodystrophy (Krabbe disease; AO-GLD) by PCR");
        assert_eq!(d.short, "AO-GLD");
        assert_eq!(d.long, "adult onset globoid cell leukodystrophy");
    }

    #[test]
    fn the_parts_of_a_composite_short_form_are_defined_by_the_parts_of_its_long_form() {
        let text = "Hereditary hyperparathyroidism-jaw tumor syndrome (HPT-JT) is dominant.";
        let found = definitions(text);
        let shorts: Vec<(&str, &str)> = found
            .iter()
            .map(|d| (d.short.as_str(), d.long.as_str()))
            .collect();
        assert_eq!(
            shorts,
            [
                ("HPT-JT", "hyperparathyroidism-jaw tumor syndrome"),
                ("HPT", "hyperparathyroidism"),
                ("JT", "jaw tumor"),
            ]
        );
        assert_eq!(
            found[2].readings(false),
            ["jaw tumor", "jaw tumor syndrome"]
        );
        for d in &found {
            assert_eq!(&text[d.long_span.0..d.long_span.1], d.long);
            assert_eq!(&text[d.short_span.0..d.short_span.1], d.short);
        }
        let found = definitions("velo-cardio-facial syndrome/DiGeorge syndrome (VCFS/DGS) is");
        let longs: Vec<&str> = found.iter().map(|d| d.long.as_str()).collect();
        assert_eq!(
            longs,
            [
                "velo-cardio-facial syndrome/DiGeorge syndrome",
                "velo-cardio-facial syndrome",
                "DiGeorge syndrome"
            ]
        );
    }

    #[test]
    fn a_short_form_defined_twice_keeps_its_first_definition() {
        let found =
            definitions("Wilson disease (WD) is rare. Later, WD (Wilson's disease) recurs.");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].long, "Wilson disease");
    }

    #[test]
    fn unicode_text_keeps_byte_spans_on_character_boundaries() {
        let text = "La maladie de Huntington — Huntington’s disease (HD) — touche";
        let d = first(text);
        assert!(text.is_char_boundary(d.long_span.0));
        assert_eq!(&text[d.short_span.0..d.short_span.1], "HD");
        assert!(d.long.ends_with("disease"));
    }
}
