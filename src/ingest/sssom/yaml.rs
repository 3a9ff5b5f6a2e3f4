//! The YAML subset SSSOM headers use, parsed without a YAML crate.
//!
//! Supported, at the top level of a block mapping:
//! - `key: value` scalars: plain (a ` #` comment is cut), `'single'` (`''` escapes a quote) or
//!   `"double"` quoted (backslash escapes), continued on more-indented lines (folded with one
//!   space), or block scalars `|` / `>` (lines joined with a newline / a space);
//! - `key: [a, b]` flow lists of scalars;
//! - `key:` followed by more-indented `- item` lines (a list of scalars);
//! - `key:` followed by more-indented `name: value` lines (a map of scalars, e.g. `curie_map`).
//!
//! The indentation of the first content line is the top level. Blank lines, comment lines,
//! `---` and `...` are skipped. A top-level line that is not `key:` or `key: value`, or an
//! unterminated quoted scalar, is an error located at its line. A value of any other shape
//! (nested deeper, lists of maps, flow maps, anchors, tags) is [`YamlValue::Unsupported`], for
//! the caller to refuse or ignore.

/// One physical header line: its 1-based number and text (after the `#` for an embedded header).
pub(super) type YamlLine = (u64, String);

/// A located parse error: the line and what is wrong there.
pub(super) type YamlError = (u64, String);

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum YamlValue {
    Scalar(String),
    List(Vec<String>),
    Map(Vec<(String, String)>),
    /// A shape outside the subset, with why.
    Unsupported(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct YamlEntry {
    pub line: u64,
    pub key: String,
    pub value: YamlValue,
}

/// A top-level key with its value text and the more-indented lines that follow it.
struct Block<'a> {
    line: u64,
    key: &'a str,
    value: &'a str,
    children: Vec<(u64, usize, &'a str)>,
}

/// Parses header lines into top-level entries, in order (a repeated key appears twice).
pub(super) fn parse(lines: &[YamlLine]) -> Result<Vec<YamlEntry>, YamlError> {
    let blocks = split_blocks(lines)?;
    blocks
        .into_iter()
        .map(|block| {
            Ok(YamlEntry {
                line: block.line,
                key: block.key.to_string(),
                value: block_value(&block)?,
            })
        })
        .collect()
}

/// Groups content lines into top-level blocks by indentation.
fn split_blocks(lines: &[YamlLine]) -> Result<Vec<Block<'_>>, YamlError> {
    let mut blocks: Vec<Block<'_>> = Vec::new();
    let mut top_indent = None;
    for (line, text) in lines {
        let body = text.trim_start_matches(' ');
        if is_skippable(body) {
            continue;
        }
        if body.starts_with('\t') {
            return Err((*line, "a tab in indentation".into()));
        }
        let indent = text.len() - body.len();
        let top = *top_indent.get_or_insert(indent);
        if indent <= top {
            let (key, value) = split_key(body).ok_or_else(|| {
                (
                    *line,
                    format!("expected `key: value`, found {}", short(body)),
                )
            })?;
            blocks.push(Block {
                line: *line,
                key,
                value,
                children: Vec::new(),
            });
        } else if let Some(block) = blocks.last_mut() {
            block.children.push((*line, indent, body.trim_end()));
        }
    }
    Ok(blocks)
}

fn is_skippable(body: &str) -> bool {
    let body = body.trim();
    body.is_empty() || body.starts_with('#') || body == "---" || body == "..."
}

/// Splits `key: value` or `key:` (the key unquoted); `None` when the line is neither.
fn split_key(body: &str) -> Option<(&str, &str)> {
    let body = body.trim_end();
    let (key, value) = match body.find(": ") {
        Some(at) => (&body[..at], &body[at + 2..]),
        None => (body.strip_suffix(':')?, ""),
    };
    let key = key.trim();
    let key = strip_quotes(key).unwrap_or(key);
    if key.is_empty() || key.starts_with('-') {
        return None;
    }
    Some((key, value.trim()))
}

fn strip_quotes(text: &str) -> Option<&str> {
    ['"', '\'']
        .iter()
        .find_map(|&q| text.strip_prefix(q)?.strip_suffix(q))
}

fn block_value(block: &Block<'_>) -> Result<YamlValue, YamlError> {
    let value = block.value;
    if value.is_empty() {
        return Ok(match block.children.first() {
            None => YamlValue::Scalar(String::new()),
            Some((_, _, first)) if first.starts_with('-') => list_value(block),
            Some(_) => map_value(block)?,
        });
    }
    match value.chars().next() {
        Some('|') => return Ok(block_scalar(block, true)),
        Some('>') => return Ok(block_scalar(block, false)),
        _ => {}
    }
    if value.starts_with(['&', '*', '!', '{', '%', '@', '`']) {
        return Ok(YamlValue::Unsupported(format!(
            "value {} is outside the supported YAML subset",
            short(value)
        )));
    }
    if value.starts_with('[') {
        return flow_list(block);
    }
    let mut text = value.to_string();
    for (_, _, more) in &block.children {
        text.push(' ');
        text.push_str(more.trim());
    }
    scalar(&text, block.line).map(YamlValue::Scalar)
}

/// `|` keeps line breaks, `>` folds them into spaces; chomping indicators are accepted and
/// trailing newlines dropped.
fn block_scalar(block: &Block<'_>, literal: bool) -> YamlValue {
    let lines: Vec<&str> = block.children.iter().map(|(_, _, text)| *text).collect();
    YamlValue::Scalar(lines.join(if literal { "\n" } else { " " }))
}

fn flow_list(block: &Block<'_>) -> Result<YamlValue, YamlError> {
    let mut text = block.value.to_string();
    for (_, _, more) in &block.children {
        text.push(' ');
        text.push_str(more.trim());
    }
    let Some(inner) = text
        .strip_prefix('[')
        .and_then(|t| t.trim_end().strip_suffix(']'))
    else {
        return Err((
            block.line,
            format!("unterminated flow list {}", short(&text)),
        ));
    };
    if inner.contains(['[', '{']) {
        return Ok(YamlValue::Unsupported("a nested flow collection".into()));
    }
    let items = split_flow_items(inner)
        .into_iter()
        .map(|item| scalar(item, block.line))
        .filter(|item| !matches!(item, Ok(text) if text.is_empty()))
        .collect::<Result<_, _>>()?;
    Ok(YamlValue::List(items))
}

/// Splits a flow list's inside on commas outside quotes.
fn split_flow_items(inner: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut start, mut quote) = (0, None);
    for (at, c) in inner.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(open), _) if c == open => quote = None,
            (None, ',') => {
                items.push(inner[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(inner[start..].trim());
    items
}

/// `- item` lines at one indentation; a more-indented line continues the item before it.
fn list_value(block: &Block<'_>) -> YamlValue {
    let item_indent = block.children.first().map_or(0, |(_, indent, _)| *indent);
    let mut items: Vec<(u64, String)> = Vec::new();
    for (line, indent, text) in &block.children {
        if *indent == item_indent {
            let Some(item) = text.strip_prefix('-') else {
                return YamlValue::Unsupported("a list mixed with other content".into());
            };
            items.push((*line, item.trim().to_string()));
        } else if let (true, Some((_, item))) = (*indent > item_indent, items.last_mut()) {
            item.push(' ');
            item.push_str(text.trim());
        } else {
            return YamlValue::Unsupported("a list with uneven indentation".into());
        }
    }
    let mut values = Vec::with_capacity(items.len());
    for (line, item) in items {
        let quoted = item.starts_with(['\'', '"']);
        let map_like = !quoted && split_key(&item).is_some_and(|(_, v)| !v.is_empty());
        if map_like || item.starts_with(['-', '[', '{']) {
            return YamlValue::Unsupported("a list of collections".into());
        }
        match scalar(&item, line) {
            Ok(value) => values.push(value),
            Err((_, why)) => return YamlValue::Unsupported(why),
        }
    }
    YamlValue::List(values)
}

/// `name: value` lines at one indentation, each value a one-line scalar.
fn map_value(block: &Block<'_>) -> Result<YamlValue, YamlError> {
    let entry_indent = block.children.first().map_or(0, |(_, indent, _)| *indent);
    let mut entries = Vec::with_capacity(block.children.len());
    for (line, indent, text) in &block.children {
        if *indent != entry_indent {
            return Ok(YamlValue::Unsupported(format!(
                "line {line}: nesting deeper than one level"
            )));
        }
        let Some((name, value)) = split_key(text) else {
            return Err((
                *line,
                format!("expected `name: value`, found {}", short(text)),
            ));
        };
        entries.push((name.to_string(), scalar(value, *line)?));
    }
    Ok(YamlValue::Map(entries))
}

/// A one-line (or already folded) scalar: quoted or plain.
fn scalar(text: &str, line: u64) -> Result<String, YamlError> {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix('\'') {
        return single_quoted(rest).ok_or_else(|| (line, unterminated(text)));
    }
    if let Some(rest) = text.strip_prefix('"') {
        return double_quoted(rest).ok_or_else(|| (line, unterminated(text)));
    }
    let plain = match text.find(" #") {
        Some(at) => &text[..at],
        None => text,
    };
    Ok(plain.trim_end().to_string())
}

fn unterminated(text: &str) -> String {
    format!("unterminated quoted value {}", short(text))
}

/// The text after an opening `'`, up to its closing quote; `None` when unterminated or when
/// anything but a comment follows.
fn single_quoted(rest: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = rest.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c != '\'' {
            out.push(c);
        } else if chars.peek().is_some_and(|(_, next)| *next == '\'') {
            chars.next();
            out.push('\'');
        } else {
            return only_comment_after(&rest[at + 1..]).then_some(out);
        }
    }
    None
}

/// The text after an opening `"`, escapes resolved (an unknown escape keeps its character).
fn double_quoted(rest: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = rest.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return only_comment_after(&rest[at + 1..]).then_some(out),
            '\\' => out.push(match chars.next()?.1 {
                'n' => '\n',
                't' => '\t',
                '0' => '\0',
                other => other,
            }),
            _ => out.push(c),
        }
    }
    None
}

fn only_comment_after(rest: &str) -> bool {
    let rest = rest.trim();
    rest.is_empty() || rest.starts_with('#')
}

fn short(text: &str) -> String {
    super::excerpt(text)
}
