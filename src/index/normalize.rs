//! Text normalization shared by the index writers and the query side, so that a key written at
//! build time and a query typed by a user meet in the same form.

use unicode_normalization::UnicodeNormalization;

/// A label's lexicon key: NFKC, lower case, every run of non-alphanumeric characters one space.
///
/// `"Abnormality of body-height "` and `"abnormality of body height"` share a key; diacritics
/// are kept, so `"Gesundheitsökonomie"` stays distinct from `"gesundheitsokonomie"` (fuzzy
/// search bridges the two).
pub fn label_key(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.nfkc().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.push(c);
        } else {
            pending_space = true;
        }
    }
    out
}

/// An identifier's lexicon key: trimmed, without surrounding angle brackets, lower case.
pub fn id_key(text: &str) -> String {
    let text = text.trim();
    let text = text
        .strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(text)
        .trim();
    text.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_keys_fold_case_space_and_punctuation() {
        assert_eq!(
            label_key("  Abnormality of body-height "),
            "abnormality of body height"
        );
        assert_eq!(label_key("Gesundheitsökonomie"), "gesundheitsökonomie");
        assert_eq!(label_key("ﬁbrosis"), "fibrosis");
        assert_eq!(label_key("!!"), "");
        assert_eq!(
            label_key(&label_key("Type 2 Diabetes")),
            label_key("Type 2 Diabetes")
        );
    }

    #[test]
    fn id_keys_fold_case_and_brackets() {
        assert_eq!(
            id_key(" <http://purl.obolibrary.org/obo/HP_0000118> "),
            "http://purl.obolibrary.org/obo/hp_0000118"
        );
        assert_eq!(id_key("HP:0000118"), "hp:0000118");
    }
}
