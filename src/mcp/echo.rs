//! How an answer echoes its input and rounds its numbers: at most what helps. An input field is
//! echoed as given when short, else as its first [`ECHO_CHARS`] characters with its length in
//! bytes; unset (null) arguments are not echoed; error texts are capped so that an error answer
//! stays under [`MAX_ERROR_BYTES`] whatever the input.

use serde::Serializer;
use serde_json::{Map, Value, json};

/// Characters of one input string echoed back.
pub const ECHO_CHARS: usize = 256;
/// Items of one input list echoed back.
pub const ECHO_ITEMS: usize = 20;
/// The largest error answer, in bytes, whatever the input.
pub const MAX_ERROR_BYTES: usize = 2048;
/// Characters of an error's message or next step.
const MAX_ERROR_TEXT: usize = 480;

/// The arguments as the caller set them: nulls and empty lists left out, long strings and
/// lists cut to their start with their size.
pub fn input(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty()))
                .map(|(k, v)| (cut(k), input(v)))
                .collect::<Map<String, Value>>(),
        ),
        Value::String(s) if s.len() > ECHO_CHARS && s.chars().count() > ECHO_CHARS => json!({
            "start": s.chars().take(ECHO_CHARS).collect::<String>(),
            "bytes": s.len(),
        }),
        Value::Array(items) if items.len() > ECHO_ITEMS => json!({
            "start": items.iter().take(ECHO_ITEMS).map(input).collect::<Vec<_>>(),
            "items": items.len(),
        }),
        Value::Array(items) => Value::Array(items.iter().map(input).collect()),
        other => other.clone(),
    }
}

/// One input string as an answer may echo it: as given when short, else its first
/// [`ECHO_CHARS`] characters and its length in bytes. Every protocol error that names what
/// the caller sent (a URI, a prompt name, a cursor, a method) echoes it through this.
pub fn text(value: &str) -> Value {
    input(&Value::String(value.to_string()))
}

/// An input string inside a sentence: as given when short, else its first [`ECHO_CHARS`]
/// characters, an ellipsis and its length.
pub fn quoted(value: &str) -> String {
    if value.chars().count() <= ECHO_CHARS {
        return value.to_string();
    }
    format!("{}… ({} bytes)", cut(value), value.len())
}

/// The longest resource URI read: longer ones are refused before anything quotes them.
pub const MAX_URI_BYTES: usize = 1024;

/// Why a message's id, method or named parameters cannot be answered without echoing
/// megabytes, as a JSON-RPC code and message; checked before rmcp reads the message, whose own
/// errors (an unknown method or tool, a routing header that does not match) quote them whole.
/// An id is a string of at most [`ECHO_CHARS`] characters or an integer; a method, a name or
/// a source id at most [`ECHO_CHARS`] (no method's name is longer); a URI at most
/// [`MAX_URI_BYTES`].
pub fn overlong_fields(message: &Value) -> Option<(i64, String)> {
    if let Some(Value::String(id)) = message.get("id")
        && id.len() > ECHO_CHARS
    {
        return Some((
            -32600,
            format!(
                "invalid request: an id is at most {ECHO_CHARS} characters; this one has {} bytes",
                id.len()
            ),
        ));
    }
    if let Some(method) = message.get("method").and_then(Value::as_str)
        && method.len() > ECHO_CHARS
    {
        return Some((-32601, format!("method not found: '{}'", quoted(method))));
    }
    let params = message.get("params")?;
    let limits = [
        ("/name", ECHO_CHARS),
        ("/uri", MAX_URI_BYTES),
        ("/arguments/source", ECHO_CHARS),
        ("/ref/name", ECHO_CHARS),
        ("/ref/uri", MAX_URI_BYTES),
    ];
    limits.iter().find_map(|(at, most)| {
        let text = params.pointer(at)?.as_str()?;
        (text.len() > *most).then(|| {
            (
                -32602,
                format!(
                    "invalid params: {} is {} bytes, at most {most} are read: '{}'",
                    &at[1..],
                    text.len(),
                    quoted(text)
                ),
            )
        })
    })
}

/// A key or short text cut to [`ECHO_CHARS`] characters.
fn cut(text: &str) -> String {
    text.chars().take(ECHO_CHARS).collect()
}

/// An error's message or next step, cut to a size an error answer can afford (a parse error
/// may quote the whole input).
pub fn error_text(text: &str) -> String {
    if text.chars().count() <= MAX_ERROR_TEXT {
        return text.to_string();
    }
    let mut out: String = text.chars().take(MAX_ERROR_TEXT).collect();
    out.push('…');
    out
}

/// `x` to three significant digits, so that a score or confidence carries no false precision.
pub fn three_digits(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    format!("{x:.2e}").parse().unwrap_or(x)
}

/// Serializes a number to three significant digits.
pub fn sig3<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(three_digits(*x))
}

/// Serializes an optional number to three significant digits.
pub fn sig3_opt<S: Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match x {
        Some(x) => s.serialize_some(&three_digits(*x)),
        None => s.serialize_none(),
    }
}

/// For `skip_serializing_if`: a `false` flag is left out.
pub fn is_false(b: &bool) -> bool {
    !*b
}

/// For `skip_serializing_if`: a zero count is left out.
pub fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// For `skip_serializing_if`: an empty object (or null) is left out.
pub fn is_empty_object(v: &Value) -> bool {
    v.is_null() || v.as_object().is_some_and(Map::is_empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_string_is_echoed_as_its_start_and_length() {
        let long = "x".repeat(10_000_000);
        let echoed = input(&json!({ "identifier": long, "limit": null }));
        assert_eq!(echoed["identifier"]["bytes"], 10_000_000);
        assert_eq!(
            echoed["identifier"]["start"].as_str().map(str::len),
            Some(ECHO_CHARS)
        );
        assert!(
            echoed.get("limit").is_none(),
            "unset arguments are not echoed"
        );
        assert!(echoed.to_string().len() < 400);
    }

    #[test]
    fn a_long_string_in_a_sentence_or_an_error_field_is_cut_with_its_length() {
        let long = "é".repeat(5_000_000);
        let quoted = quoted(&long);
        assert!(
            quoted.ends_with("… (10000000 bytes)"),
            "{}",
            &quoted[quoted.len() - 40..]
        );
        assert_eq!(
            quoted.chars().count(),
            ECHO_CHARS + "… (10000000 bytes)".chars().count()
        );
        assert_eq!(super::quoted("MONDO:0005148"), "MONDO:0005148");
        assert_eq!(text(&long)["bytes"], 10_000_000);
        assert_eq!(text("short"), json!("short"));
    }

    #[test]
    fn a_long_list_is_echoed_as_its_first_items_and_count() {
        let ids: Vec<String> = (0..1000).map(|i| format!("HP:{i:07}")).collect();
        let echoed = input(&json!({ "identifiers": ids }));
        assert_eq!(echoed["identifiers"]["items"], 1000);
        assert_eq!(
            echoed["identifiers"]["start"].as_array().map(Vec::len),
            Some(ECHO_ITEMS)
        );
    }

    #[test]
    fn numbers_keep_three_significant_digits() {
        assert_eq!(three_digits(0.949_999_999_9), 0.95);
        assert_eq!(three_digits(0.123_456), 0.123);
        assert_eq!(three_digits(12.3456), 12.3);
        assert_eq!(three_digits(0.0), 0.0);
        assert_eq!(
            serde_json::to_string(&three_digits(0.7290000001)).ok(),
            Some("0.729".into())
        );
    }

    #[test]
    fn error_texts_are_cut_on_a_character_boundary() {
        let text = "é".repeat(5000);
        let cut = error_text(&text);
        assert_eq!(cut.chars().count(), MAX_ERROR_TEXT + 1);
    }
}
