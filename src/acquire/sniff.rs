//! What a downloaded file is, from its first bytes: its compression, and whether it reads as
//! HTML, XML, JSON or plain text. A link that serves an HTML page (a login wall, an error
//! page) is refused before the catalogue or the index is touched.

use std::io::Read;
use std::path::Path;

use super::links::LinkFormat;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
}

impl Compression {
    /// The file name suffix.
    pub fn suffix(self) -> &'static str {
        match self {
            Compression::None => "",
            Compression::Gzip => ".gz",
            Compression::Zstd => ".zst",
        }
    }
}

/// What the (decompressed) content starts as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sniffed {
    Html,
    Xml,
    Json,
    Text,
    Empty,
}

impl Sniffed {
    fn name(self) -> &'static str {
        match self {
            Sniffed::Html => "an HTML page",
            Sniffed::Xml => "XML",
            Sniffed::Json => "JSON",
            Sniffed::Text => "plain text",
            Sniffed::Empty => "an empty file",
        }
    }
}

/// What a file is: its compression, its content's kind and its first line (for messages).
pub fn sniff(path: &Path) -> std::io::Result<(Compression, Sniffed, String)> {
    let mut raw = [0u8; 4];
    let n = std::fs::File::open(path)?.read(&mut raw)?;
    let compression = match &raw[..n] {
        [0x1f, 0x8b, ..] => Compression::Gzip,
        [0x28, 0xb5, 0x2f, 0xfd] => Compression::Zstd,
        _ => Compression::None,
    };
    let mut head = Vec::with_capacity(512);
    let input = crate::ingest::input::open_reader(std::fs::File::open(path)?)?;
    input.take(512).read_to_end(&mut head)?;
    let text = String::from_utf8_lossy(&head);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    let lower = text.to_ascii_lowercase();
    let kind = if text.is_empty() {
        Sniffed::Empty
    } else if lower.starts_with("<!doctype html") || lower.starts_with("<html") {
        Sniffed::Html
    } else if text.starts_with('<') {
        Sniffed::Xml
    } else if text.starts_with('{') || text.starts_with('[') && !text.starts_with("[Term]") {
        Sniffed::Json
    } else {
        Sniffed::Text
    };
    let excerpt: String = text.lines().next().unwrap_or("").chars().take(60).collect();
    Ok((compression, kind, excerpt))
}

/// `Err((expected, found))` when the content cannot be the link's format.
pub(super) fn check(
    format: LinkFormat,
    found: Sniffed,
) -> Result<(), (&'static str, &'static str)> {
    let fits = match format {
        LinkFormat::Obo | LinkFormat::Turtle => found == Sniffed::Text,
        LinkFormat::ObographsJson => found == Sniffed::Json,
        LinkFormat::RdfXml => found == Sniffed::Xml,
    };
    if fits {
        Ok(())
    } else {
        Err((format.name(), found.name()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sniffed(bytes: &[u8]) -> (Compression, Sniffed) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, bytes).unwrap();
        let (c, s, _) = sniff(&path).unwrap();
        (c, s)
    }

    #[test]
    fn html_is_told_from_xml_obo_and_json_even_compressed() {
        assert_eq!(sniffed(b"<!DOCTYPE html>\n<html>").1, Sniffed::Html);
        assert_eq!(sniffed(b"<?xml version=\"1.0\"?>").1, Sniffed::Xml);
        assert_eq!(sniffed(b"format-version: 1.2\n").1, Sniffed::Text);
        assert_eq!(sniffed(b"[Term]\nid: X:1\n").1, Sniffed::Text);
        assert_eq!(sniffed(b"  {\"graphs\": []}").1, Sniffed::Json);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, b"format-version: 1.2\n").unwrap();
        let gz = gz.finish().unwrap();
        assert_eq!(sniffed(&gz), (Compression::Gzip, Sniffed::Text));
        assert_eq!(
            check(LinkFormat::Obo, Sniffed::Html),
            Err(("OBO", "an HTML page"))
        );
    }
}
