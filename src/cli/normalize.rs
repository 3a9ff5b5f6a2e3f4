//! `ontoresolve normalize`: identifiers from a file (one per line, or one TSV column) to
//! canonical CURIE, IRI, outcome and steps as TSV. Every input row gives exactly one output
//! row, in input order; rows are resolved in parallel, a chunk at a time, so memory stays
//! bounded on any file size.

use ontoresolve::model::WireName;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use ontoresolve::resolve::{Outcome, ResolveError, Resolver};

use crate::cli::rows::{MAX_ROW_BYTES, Rows, open_input};
use rayon::prelude::*;

/// Rows read and resolved together; output keeps their order.
const CHUNK_ROWS: usize = 16_384;

#[derive(clap::Args)]
pub struct Options {
    /// The input file; `-` reads standard input.
    pub file: PathBuf,
    /// The TSV column holding identifiers: a number from 1, or a header name (the first
    /// line is then read as the header). Default: the whole line.
    #[arg(long)]
    pub column: Option<String>,
    /// Write here instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub index: super::IndexArg,
}

/// Which field holds the identifier.
enum Column {
    WholeLine,
    /// 0-based field number.
    Field(usize),
}

fn open_output(path: Option<&Path>) -> anyhow::Result<BufWriter<Box<dyn Write>>> {
    let output: Box<dyn Write> = match path {
        Some(path) => Box::new(
            File::create(path).with_context(|| format!("cannot write {}", path.display()))?,
        ),
        None => Box::new(io::stdout().lock()),
    };
    Ok(BufWriter::with_capacity(1 << 20, output))
}

/// Bytes read of a file of known size, or a spinner for stdin; on stderr.
fn progress_bar(size: Option<u64>) -> ProgressBar {
    let progress = match size {
        Some(bytes) => ProgressBar::new(bytes).with_style(
            ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} {per_sec} {msg} (eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => ProgressBar::new_spinner(),
    };
    progress.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    progress
}

/// The field `--column` names: a 1-based number, or a header name (the header row is read).
fn column_of(
    column: Option<&str>,
    reader: &mut Rows,
    progress: &ProgressBar,
) -> anyhow::Result<Column> {
    Ok(match column {
        None => Column::WholeLine,
        Some(n) if n.parse::<usize>().is_ok() => match n.parse::<usize>() {
            Ok(0) | Err(_) => bail!("--column counts from 1"),
            Ok(n) => Column::Field(n - 1),
        },
        Some(name) => {
            let Some(header) = reader.next_row()? else {
                bail!("the file is empty: no header with a column named '{name}'");
            };
            progress.inc(header.bytes);
            match header.text.split('\t').position(|f| f.trim() == name) {
                Some(i) => Column::Field(i),
                None => bail!("the header has no column named '{name}'"),
            }
        }
    })
}

pub fn run(options: Options) -> anyhow::Result<ExitCode> {
    let resolver = Resolver::open(&options.index.path).context("cannot open the index")?;
    let (input, size) = open_input(&options.file)?;
    let mut output = open_output(options.output.as_deref())?;
    let progress = progress_bar(size);
    let mut reader = Rows::new(input);
    let column = column_of(options.column.as_deref(), &mut reader, &progress)?;
    writeln!(output, "line\tinput\tcurie\tiri\toutcome\tsteps")?;
    let mut counts: std::collections::BTreeMap<&'static str, u64> = Default::default();
    loop {
        let mut chunk = Vec::with_capacity(CHUNK_ROWS);
        while chunk.len() < CHUNK_ROWS {
            match reader.next_row()? {
                Some(row) => {
                    progress.inc(row.bytes);
                    chunk.push(row);
                }
                None => break,
            }
        }
        if chunk.is_empty() {
            break;
        }
        // A damaged index stops the run: a row is never written with a wrong outcome.
        let rows: Vec<(u64, String, &'static str)> = chunk
            .par_iter()
            .map(|row| {
                let (fields, code) = if row.too_long {
                    (
                        format!(
                            "{}…\t\t\tmalformed\tthe row is longer than {MAX_ROW_BYTES} bytes",
                            escape(&row.text.chars().take(64).collect::<String>())
                        ),
                        "malformed",
                    )
                } else {
                    resolve_row(&resolver, &row.text, &column)?
                };
                Ok((row.line, fields, code))
            })
            .collect::<Result<_, ResolveError>>()?;
        for (line, row, code) in rows {
            *counts.entry(code).or_default() += 1;
            writeln!(output, "{line}\t{row}")?;
        }
        progress.set_message(format!("{} rows", reader.line));
    }
    output.flush()?;
    progress.finish_and_clear();
    let summary: Vec<String> = counts.iter().map(|(k, v)| format!("{k} {v}")).collect();
    eprintln!("{} rows: {}", reader.line, summary.join(", "));
    Ok(ExitCode::SUCCESS)
}

/// The output fields after the line number, and the outcome code.
fn resolve_row(
    resolver: &Resolver,
    text: &str,
    column: &Column,
) -> Result<(String, &'static str), ResolveError> {
    let field = match column {
        Column::WholeLine => Some(text),
        Column::Field(i) => text.split('\t').nth(*i),
    };
    let Some(field) = field else {
        return Ok((
            format!(
                "{}\t\t\tmalformed\tthe row has no column {}",
                escape(text),
                match column {
                    Column::Field(i) => i + 1,
                    Column::WholeLine => 1,
                }
            ),
            "malformed",
        ));
    };
    let (normalized, outcome) = resolver.resolve_identifier(field)?;
    let mut steps: Vec<String> = normalized.steps.iter().map(ToString::to_string).collect();
    let detail = match &outcome {
        Outcome::Malformed { reason, .. } => Some(reason.to_string()),
        Outcome::UnknownPrefix { suggestions, .. } if !suggestions.is_empty() => Some(format!(
            "closest known prefixes: {}",
            suggestions.join(", ")
        )),
        Outcome::Ambiguous { readings, .. } => Some(format!(
            "readings: {}",
            readings
                .iter()
                .map(|r| r.curie.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        _ => None,
    };
    steps.extend(detail);
    Ok((
        format!(
            "{}\t{}\t{}\t{}\t{}",
            escape(field),
            escape(normalized.curie.as_deref().unwrap_or("")),
            escape(normalized.iri.as_deref().unwrap_or("")),
            outcome.wire_name(),
            escape(&steps.join("; "))
        ),
        outcome.wire_name(),
    ))
}

/// Keeps a field on one TSV cell: backslash, tab, CR and LF are escaped.
fn escape(text: &str) -> String {
    if !text.contains(['\\', '\t', '\n', '\r']) {
        return text.to_string();
    }
    text.replace('\\', "\\\\")
        .replace('\t', "\\t")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}
