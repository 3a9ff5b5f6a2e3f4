//! Which format a concept address answers in: a suffix (`.html`, `.jsonld`, `.ttl`,
//! `.json`) wins over `Accept`, whose q-values are honoured; `*/*` and no header give HTML.

/// The formats a concept is served in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Html,
    JsonLd,
    Turtle,
    Json,
}

impl Format {
    /// Every format, in the order a tie in `Accept` is broken.
    pub const ALL: [Format; 4] = [Format::Html, Format::JsonLd, Format::Turtle, Format::Json];

    pub fn media_type(self) -> &'static str {
        match self {
            Format::Html => "text/html",
            Format::JsonLd => "application/ld+json",
            Format::Turtle => "text/turtle",
            Format::Json => "application/json",
        }
    }

    pub fn suffix(self) -> &'static str {
        match self {
            Format::Html => ".html",
            Format::JsonLd => ".jsonld",
            Format::Turtle => ".ttl",
            Format::Json => ".json",
        }
    }

    /// The `Content-Type` header value.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Html => "text/html; charset=utf-8",
            Format::JsonLd => "application/ld+json",
            Format::Turtle => "text/turtle; charset=utf-8",
            Format::Json => "application/json",
        }
    }
}

/// Splits a format suffix off an address: `MONDO:0005148.ttl` → (`MONDO:0005148`, Turtle).
pub fn split_suffix(address: &str) -> (&str, Option<Format>) {
    for format in Format::ALL {
        if let Some(rest) = address.strip_suffix(format.suffix())
            && !rest.is_empty()
        {
            return (rest, Some(format));
        }
    }
    (address, None)
}

/// The best format for an `Accept` header, or `None` when it names nothing we serve (406).
pub fn from_accept(accept: Option<&str>) -> Option<Format> {
    let Some(accept) = accept.map(str::trim).filter(|a| !a.is_empty()) else {
        return Some(Format::Html);
    };
    let mut best: Option<(f32, u8, Format)> = None;
    for format in Format::ALL {
        let Some((q, specificity)) = quality(accept, format.media_type()) else {
            continue;
        };
        if q <= 0.0 {
            continue;
        }
        // Higher q wins; at equal q, an exact type beats `type/*`, which beats `*/*`; at equal
        // both, the order of `Format::ALL` (HTML first).
        let better = match best {
            None => true,
            Some((bq, bs, _)) => q > bq || (q == bq && specificity > bs),
        };
        if better {
            best = Some((q, specificity, format));
        }
    }
    best.map(|(_, _, f)| f)
}

/// The q-value the most specific range matching `media` gives it, with that range's
/// specificity (2 exact, 1 `type/*`, 0 `*/*`).
fn quality(accept: &str, media: &str) -> Option<(f32, u8)> {
    let (kind, _) = media.split_once('/')?;
    let mut found: Option<(f32, u8)> = None;
    for range in accept.split(',') {
        let mut parts = range.split(';');
        let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let specificity = if name == media {
            2
        } else if name.strip_suffix("/*") == Some(kind) {
            1
        } else if name == "*/*" {
            0
        } else {
            continue;
        };
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|v| v.trim().parse::<f32>().ok())
            .unwrap_or(1.0)
            .clamp(0.0, 1.0);
        if found.is_none_or(|(_, s)| specificity > s) {
            found = Some((q, specificity));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_headers_choose_by_q_value_then_specificity() {
        let cases = [
            (None, Some(Format::Html)),
            (Some("*/*"), Some(Format::Html)),
            (Some("text/turtle"), Some(Format::Turtle)),
            (Some("application/ld+json"), Some(Format::JsonLd)),
            (Some("application/json"), Some(Format::Json)),
            (
                Some("text/html;q=0.1, text/turtle;q=0.9"),
                Some(Format::Turtle),
            ),
            (
                Some("application/*;q=0.5, text/html;q=0.4"),
                Some(Format::JsonLd),
            ),
            (Some("text/turtle;q=0, */*;q=0.1"), Some(Format::Html)),
            (Some("image/png"), None),
            (Some("text/turtle;q=0"), None),
            (
                Some("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
                Some(Format::Html),
            ),
        ];
        for (accept, want) in cases {
            assert_eq!(from_accept(accept), want, "{accept:?}");
        }
    }

    #[test]
    fn a_suffix_is_split_off_only_when_something_precedes_it() {
        assert_eq!(
            split_suffix("MONDO:0005148.ttl"),
            ("MONDO:0005148", Some(Format::Turtle))
        );
        assert_eq!(split_suffix("HP:0000535.jsonld").1, Some(Format::JsonLd));
        assert_eq!(split_suffix("HP:0000535.json").1, Some(Format::Json));
        assert_eq!(split_suffix("HP:0000535"), ("HP:0000535", None));
        assert_eq!(split_suffix(".html"), (".html", None));
    }
}
