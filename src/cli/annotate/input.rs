//! The passages of `ontoresolve annotate`, read one at a time from a file or standard input.
//!
//! - Text: one passage per line, its id the line number. An empty line is a passage too.
//! - PubTator (the NCBI disease corpus format): blocks of `ID|t|title` and `ID|a|abstract`
//!   lines followed by tab-separated annotation lines (ignored), separated by blank lines. The
//!   passage is `title + " " + abstract`, where PubTator puts the abstract's offsets, so spans
//!   compare with the gold annotations; its id is the `ID`.
//!
//! Lines go through [`Rows`], so one huge line cannot exhaust memory: a cut line marks its
//! passage, which is then reported rather than grounded on part of its text. Passages are
//! taken a chunk at a time ([`read_chunk`]); progress counts the bytes read.

use std::io::{self};
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::rows::{Row, Rows};

/// Passages read and grounded together (fewer when they reach [`CHUNK_BYTES`]); output keeps
/// their order. Small enough that progress moves every second or so.
const CHUNK_PASSAGES: usize = 128;
const CHUNK_BYTES: usize = 2 << 20;

/// How the input holds its passages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One passage per line; its id is the line number.
    Text,
    /// PubTator blocks: `ID|t|title`, `ID|a|abstract`, annotation lines; the id is `ID`.
    Pubtator,
}

/// One passage to ground.
pub struct Passage {
    /// The line number (text) or the document id (PubTator).
    pub id: String,
    pub text: String,
    /// A line of the passage was longer than the row limit and was cut.
    pub cut: bool,
}

/// The passages of the input, in order.
pub struct Passages {
    rows: Rows,
    format: Format,
    /// The input's size when it is a file (for progress).
    pub size: Option<u64>,
    /// Bytes read so far.
    pub bytes_read: u64,
    /// PubTator lines that are neither a title, an abstract nor an annotation of their block.
    pub stray_lines: u64,
    /// The first of them, by line number.
    pub first_stray_line: Option<u64>,
    /// A line read that starts the next PubTator block.
    pending: Option<Row>,
}

/// A PubTator line, classified.
enum PubtatorLine<'a> {
    Blank,
    Title { id: &'a str, text: &'a str },
    Abstract { id: &'a str, text: &'a str },
    Annotation { id: &'a str },
    Other,
}

/// The PubTator block being read.
struct Block {
    id: String,
    title: Option<String>,
    abstract_text: Option<String>,
    cut: bool,
}

impl Block {
    fn new(id: &str, title: Option<&str>, abstract_text: Option<&str>, cut: bool) -> Block {
        Block {
            id: id.to_string(),
            title: title.map(str::to_string),
            abstract_text: abstract_text.map(str::to_string),
            cut,
        }
    }

    fn into_passage(self) -> Passage {
        let title = self.title.unwrap_or_default();
        let text = match self.abstract_text {
            // PubTator offsets put the abstract at len(title) + 1.
            Some(abstract_text) => format!("{title} {abstract_text}"),
            None => title,
        };
        Passage {
            id: self.id,
            text,
            cut: self.cut,
        }
    }
}

impl Passages {
    /// Opens `path` (`-` for standard input).
    pub fn open(path: &Path, format: Format) -> anyhow::Result<Passages> {
        let (input, size) = crate::cli::rows::open_input(path)?;
        Ok(Passages {
            rows: Rows::new(input),
            format,
            size,
            bytes_read: 0,
            stray_lines: 0,
            first_stray_line: None,
            pending: None,
        })
    }

    /// The next passage, or `None` at the end of the input.
    pub fn next_passage(&mut self) -> io::Result<Option<Passage>> {
        match self.format {
            Format::Text => Ok(self.next_row()?.map(|row| Passage {
                id: row.line.to_string(),
                text: row.text,
                cut: row.too_long,
            })),
            Format::Pubtator => self.next_block(),
        }
    }

    fn next_row(&mut self) -> io::Result<Option<Row>> {
        if let Some(row) = self.pending.take() {
            return Ok(Some(row));
        }
        let row = self.rows.next_row()?;
        if let Some(row) = &row {
            self.bytes_read += row.bytes;
        }
        Ok(row)
    }

    /// The next PubTator block as a passage. A block ends at a blank line, at a title, or at
    /// an abstract it cannot take (another id, or a second abstract).
    fn next_block(&mut self) -> io::Result<Option<Passage>> {
        let mut block: Option<Block> = None;
        while let Some(row) = self.next_row()? {
            let line = classify(&row.text);
            let starts_block = match (&line, &block) {
                (PubtatorLine::Blank, Some(_)) => break,
                (PubtatorLine::Title { .. }, Some(_)) => true,
                (PubtatorLine::Abstract { id, .. }, Some(b)) => {
                    b.id != *id || b.abstract_text.is_some()
                }
                _ => false,
            };
            if starts_block {
                self.pending = Some(row);
                break;
            }
            match line {
                PubtatorLine::Blank => {}
                PubtatorLine::Title { id, text } => {
                    block = Some(Block::new(id, Some(text), None, row.too_long));
                }
                PubtatorLine::Abstract { id, text } => match &mut block {
                    Some(b) => {
                        b.abstract_text = Some(text.to_string());
                        b.cut |= row.too_long;
                    }
                    None => block = Some(Block::new(id, None, Some(text), row.too_long)),
                },
                PubtatorLine::Annotation { id } if block.as_ref().is_some_and(|b| b.id == id) => {}
                PubtatorLine::Annotation { .. } | PubtatorLine::Other => self.stray(row.line),
            }
        }
        Ok(block.map(Block::into_passage))
    }

    fn stray(&mut self, line: u64) {
        self.stray_lines += 1;
        self.first_stray_line.get_or_insert(line);
    }
}

/// What a PubTator line is: `ID|t|…`, `ID|a|…`, `ID<tab>…`, blank, or none of these. An id is
/// a non-empty run of characters other than `|`, tabs and spaces.
fn classify(line: &str) -> PubtatorLine<'_> {
    if line.trim().is_empty() {
        return PubtatorLine::Blank;
    }
    let is_id = |id: &str| !id.is_empty() && !id.contains(['|', '\t', ' ']);
    if let Some((id, rest)) = line.split_once('|')
        && is_id(id)
    {
        if let Some(text) = rest.strip_prefix("t|") {
            return PubtatorLine::Title { id, text };
        }
        if let Some(text) = rest.strip_prefix("a|") {
            return PubtatorLine::Abstract { id, text };
        }
    }
    match line.split_once('\t') {
        Some((id, _)) if is_id(id) => PubtatorLine::Annotation { id },
        _ => PubtatorLine::Other,
    }
}

/// Bytes read of a file of known size, or a spinner for stdin; on stderr.
pub fn progress_bar(size: Option<u64>) -> ProgressBar {
    let bar = match size {
        Some(bytes) => ProgressBar::new(bytes).with_style(
            ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} {per_sec} {msg} (eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => ProgressBar::new_spinner(),
    };
    bar.set_draw_target(ProgressDrawTarget::stderr());
    bar
}

/// Up to [`CHUNK_PASSAGES`] passages, or fewer holding [`CHUNK_BYTES`] of text.
pub fn read_chunk(input: &mut Passages) -> io::Result<Vec<Passage>> {
    let mut chunk = Vec::with_capacity(CHUNK_PASSAGES);
    let mut bytes = 0;
    while chunk.len() < CHUNK_PASSAGES && bytes < CHUNK_BYTES {
        let Some(passage) = input.next_passage()? else {
            break;
        };
        bytes += passage.text.len();
        chunk.push(passage);
    }
    Ok(chunk)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passages(text: &str, format: Format) -> (Vec<(String, String)>, u64) {
        let mut input = Passages {
            rows: Rows::new(Box::new(io::Cursor::new(text.as_bytes().to_vec()))),
            format,
            size: None,
            bytes_read: 0,
            stray_lines: 0,
            first_stray_line: None,
            pending: None,
        };
        let mut out = Vec::new();
        while let Some(p) = input.next_passage().expect("in memory") {
            out.push((p.id, p.text));
        }
        assert_eq!(input.bytes_read, text.len() as u64, "every byte is counted");
        (out, input.stray_lines)
    }

    #[test]
    fn pubtator_blocks_join_title_and_abstract_with_one_space_and_skip_annotations() {
        let text = "1|t|Title one.\n1|a|Abstract one.\n1\t0\t5\tTitle\tDisease\tD1\n\n\
                    2|t|Title two.\r\n2|a|Abstract two.\r\n";
        let (found, stray) = passages(text, Format::Pubtator);
        assert_eq!(
            found,
            vec![
                ("1".to_string(), "Title one. Abstract one.".to_string()),
                ("2".to_string(), "Title two. Abstract two.".to_string()),
            ]
        );
        assert_eq!(stray, 0);
    }

    #[test]
    fn a_pubtator_title_starts_a_new_block_even_without_a_blank_line() {
        let text = "1|t|One\n2|t|Two\n2|a|Second\n3|a|Alone\nstray words\n";
        let (found, stray) = passages(text, Format::Pubtator);
        let ids: Vec<&str> = found.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["1", "2", "3"]);
        assert_eq!(found[0].1, "One");
        assert_eq!(
            found[2].1, " Alone",
            "the abstract keeps its PubTator offset"
        );
        assert_eq!(stray, 1);
    }

    #[test]
    fn text_lines_are_passages_numbered_by_line_including_empty_ones() {
        let (found, _) = passages("first\n\nthird", Format::Text);
        assert_eq!(
            found,
            vec![
                ("1".to_string(), "first".to_string()),
                ("2".to_string(), String::new()),
                ("3".to_string(), "third".to_string()),
            ]
        );
    }
}
