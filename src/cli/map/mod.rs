//! `ontoresolve map`: identifiers (or names) from a file to their mappings as SSSOM TSV.
//!
//! Every input row gives at least one output row, and every output row's `comment` starts with
//! `input line N` so that a reader can join back. Rows are mapped in parallel, a chunk at a
//! time, and written in input order (then candidate rank) to a temporary file; the header,
//! which must declare every prefix the rows use, is written when they are all known, followed
//! by the rows. Memory stays bounded whatever the input size.

mod by_id;
mod by_label;
mod header;
mod input;
mod provenance;
pub(super) mod sssom;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ontoresolve::resolve::Resolver;
use ontoresolve::resolve::mapping::{MAX_HOPS, MAX_TARGETS, MapOptions};
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use header::HeaderInfo;
use input::{Column, Format, Input, MAX_ROW_BYTES, Row};
use sssom::{COLUMNS, NO_TERM_FOUND, Seen, SssomRow, UNSPECIFIED, input_label};

/// Rows read and mapped together; output keeps their order.
const CHUNK_ROWS: usize = 4_096;
/// Write buffer of the temporary and the output file.
const WRITE_BUFFER_BYTES: usize = 1 << 20;
/// Hex digits of the input digest in the mapping set id.
const SET_ID_DIGEST_HEX: usize = 16;

/// What each input row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum By {
    /// An identifier (CURIE, IRI, OBO id), mapped with its asserted and inferred mappings.
    Id,
    /// A name, searched like find_concepts does.
    Label,
}

#[derive(clap::Args)]
pub struct Options {
    /// The input file; `-` reads standard input.
    pub file: PathBuf,
    /// Target prefixes (MESH,DOID); every vocabulary when absent.
    #[arg(long, value_name = "PREFIX[,PREFIX...]", value_delimiter = ',')]
    pub to: Vec<String>,
    /// Whether each row is an identifier or a name.
    #[arg(long, value_enum, default_value = "id")]
    pub by: By,
    /// The column holding the values: a number from 1, or a header name (the first line
    /// is then read as the header). Default: the whole line (the first field of CSV).
    #[arg(long)]
    pub column: Option<String>,
    /// Write here instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Also write predicted (and undecided) mappings.
    #[arg(long)]
    pub include_predicted: bool,
    /// Leave out mappings inferred by chaining.
    #[arg(long)]
    pub no_inferred: bool,
    /// Hops an inferred chain may take.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub max_hops: u8,
    #[command(flatten)]
    pub index: super::IndexArg,
}

/// What every row builder needs.
pub struct Context<'a> {
    pub resolver: &'a Resolver,
    pub options: MapOptions,
    /// `ontoresolve <version>`, the tool of the rows this command derives.
    pub tool: String,
    /// The day of the run, the date of the rows this command derives.
    pub today: String,
    /// Loaded sources of the target prefixes, searched for names (`--by label`).
    pub target_sources: Vec<String>,
}

/// One input row's output.
struct Mapped {
    lines: String,
    rows: u64,
    code: &'static str,
    mapped: bool,
    seen: Seen,
}

/// Totals for the summary on standard error.
#[derive(Default)]
struct Totals {
    inputs: u64,
    rows: u64,
    mapped: u64,
    codes: BTreeMap<&'static str, u64>,
}

pub fn run(options: Options) -> anyhow::Result<ExitCode> {
    let resolver = Resolver::open(&options.index.path).context("cannot open the index")?;
    let map_options = map_options(&resolver, &options)?;
    let cx = Context {
        target_sources: by_label::target_sources(&resolver, &map_options.targets),
        options: map_options,
        resolver: &resolver,
        tool: format!("ontoresolve {}", env!("CARGO_PKG_VERSION")),
        today: sssom::today(),
    };
    let mut input = Input::open(&options.file)?;
    let (column, header_bytes) = input.column(options.column.as_deref())?;
    if let Some(out) = &options.output
        && let (Ok(a), Ok(b)) = (options.file.canonicalize(), out.canonicalize())
        && a == b
    {
        bail!("the output {} is the input; write elsewhere", out.display());
    }
    let mut output: Box<dyn Write> = match &options.output {
        Some(path) => Box::new(
            File::create(path).with_context(|| format!("cannot write {}", path.display()))?,
        ),
        None => Box::new(io::stdout().lock()),
    };
    let progress = progress_bar(input.size);
    progress.inc(header_bytes);
    let spill = match options.output.as_deref().and_then(Path::parent) {
        Some(dir) if !dir.as_os_str().is_empty() => tempfile::tempfile_in(dir),
        _ => tempfile::tempfile(),
    }
    .context("cannot create a temporary file for the rows")?;
    let mut rows_out = BufWriter::with_capacity(WRITE_BUFFER_BYTES, spill);
    let mut seen = Seen::default();
    let mut totals = Totals::default();
    let mut digest = Sha256::new();
    digest.update(format!(
        "{:?}|{:?}|{}\n",
        options.by,
        column,
        options_words(&cx)
    ));
    loop {
        let chunk = read_chunk(&mut input, &progress, &mut digest)?;
        if chunk.is_empty() {
            break;
        }
        let mapped: Vec<Mapped> = chunk
            .par_iter()
            .map(|row| map_row(&cx, options.by, input.format, column, row))
            .collect::<anyhow::Result<_>>()?;
        for m in mapped {
            rows_out.write_all(m.lines.as_bytes())?;
            totals.add(&m);
            seen.merge(m.seen);
        }
        progress.set_message(format!("{} rows in, {} out", totals.inputs, totals.rows));
    }
    progress.finish_and_clear();
    let mut spill = rows_out.into_inner().map_err(|e| e.into_error())?;
    spill.seek(SeekFrom::Start(0))?;
    let info = HeaderInfo {
        mapping_set_id: set_id(&resolver, digest),
        title: format!("{} map of {}", cx.tool, options.file.display()),
        description: description(&cx, options.by, &totals),
        today: &cx.today,
    };
    let mut out = BufWriter::with_capacity(WRITE_BUFFER_BYTES, &mut output);
    header::write_header(&mut out, &resolver, &seen, &info)?;
    writeln!(out, "{}", COLUMNS.join("\t"))?;
    io::copy(&mut spill, &mut out)?;
    out.flush()?;
    eprintln!("{}", totals.summary());
    Ok(ExitCode::SUCCESS)
}

/// The core's options from the command line; an unknown target prefix is an error.
fn map_options(r: &Resolver, options: &Options) -> anyhow::Result<MapOptions> {
    let written: Vec<&str> = options
        .to
        .iter()
        .flat_map(|t| t.split(','))
        .map(|t| t.trim().trim_end_matches(':'))
        .filter(|t| !t.is_empty())
        .collect();
    if written.len() > MAX_TARGETS {
        bail!(
            "at most {MAX_TARGETS} target prefixes, got {}",
            written.len()
        );
    }
    let mut targets = Vec::new();
    for t in written {
        match r.canonical_prefix(t) {
            Some(p) if !targets.contains(&p) => targets.push(p),
            Some(_) => {}
            None => bail!(
                "the target prefix '{}' is not in the registry",
                t.chars().take(64).collect::<String>()
            ),
        }
    }
    if !(1..=MAX_HOPS).contains(&options.max_hops) {
        bail!("--max-hops is 1 to {MAX_HOPS}");
    }
    Ok(MapOptions {
        targets,
        include_inferred: !options.no_inferred,
        include_predicted: options.include_predicted,
        max_hops: options.max_hops,
    })
}

fn progress_bar(size: Option<u64>) -> ProgressBar {
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

/// Up to [`CHUNK_ROWS`] rows, each also fed to the input digest.
fn read_chunk(
    input: &mut Input,
    progress: &ProgressBar,
    digest: &mut Sha256,
) -> io::Result<Vec<Row>> {
    let mut chunk = Vec::with_capacity(CHUNK_ROWS);
    while chunk.len() < CHUNK_ROWS {
        let Some(row) = input.rows.next_row()? else {
            break;
        };
        progress.inc(row.bytes);
        digest.update(row.text.as_bytes());
        digest.update(b"\n");
        chunk.push(row);
    }
    Ok(chunk)
}

/// One input row to its SSSOM lines.
fn map_row(
    cx: &Context,
    by: By,
    format: Format,
    column: Column,
    row: &Row,
) -> anyhow::Result<Mapped> {
    let mut seen = Seen::default();
    let value = if row.too_long {
        Err(format!("the row is longer than {MAX_ROW_BYTES} bytes"))
    } else {
        input::value(&row.text, format, column)
            .ok_or_else(|| format!("the row has no column {}", column_number(column)))
    };
    let (rows, code, mapped) = match value {
        Err(reason) => {
            let row = unreadable_row(cx, row, &reason);
            (vec![row], "malformed", false)
        }
        // A damaged index stops the run: a row is never written from a damaged read.
        Ok(text) => match by {
            By::Id => by_id::rows_for_id(cx, row.line, &text, &mut seen)
                .map(|r| (r.rows, r.code, r.mapped))?,
            By::Label => by_label::rows_for_name(cx, row.line, &text, &mut seen)
                .map(|r| (r.rows, r.code, r.mapped))?,
        },
    };
    let mut lines = String::new();
    for r in &rows {
        lines.push_str(&r.line(&mut seen));
    }
    Ok(Mapped {
        lines,
        rows: rows.len() as u64,
        code,
        mapped,
        seen,
    })
}

fn column_number(column: Column) -> usize {
    match column {
        Column::WholeLine => 1,
        Column::Field(i) => i + 1,
    }
}

/// The row for an input row that holds no value to map.
fn unreadable_row(cx: &Context, row: &Row, reason: &str) -> SssomRow {
    SssomRow {
        subject_id: NO_TERM_FOUND.to_string(),
        subject_label: input_label(&row.text),
        predicate_id: "skos:exactMatch".to_string(),
        object_id: NO_TERM_FOUND.to_string(),
        mapping_justification: UNSPECIFIED.to_string(),
        mapping_tool: cx.tool.clone(),
        mapping_date: cx.today.clone(),
        comment: format!("input line {}; malformed: {reason}", row.line),
        ..SssomRow::default()
    }
}

/// The core options in words, for the description and the set id.
fn options_words(cx: &Context) -> String {
    let o = &cx.options;
    format!(
        "targets {}; inferred {} (at most {} hops); predicted {}",
        if o.targets.is_empty() {
            "all".to_string()
        } else {
            o.targets.join(", ")
        },
        if o.include_inferred {
            "included"
        } else {
            "left out"
        },
        o.max_hops,
        if o.include_predicted {
            "included"
        } else {
            "left out"
        },
    )
}

/// `urn:ontoresolve:map:<build id>:<digest of options and input>`: the same build, options
/// and input give the same id.
fn set_id(r: &Resolver, digest: Sha256) -> String {
    let hex: String = digest
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!(
        "urn:ontoresolve:map:{}:{}",
        r.manifest().build_id,
        &hex[..SET_ID_DIGEST_HEX]
    )
}

fn description(cx: &Context, by: By, totals: &Totals) -> String {
    let what = match by {
        By::Id => "identifiers mapped with their asserted and inferred mappings",
        By::Label => "names searched in the loaded sources (literal subjects) and mapped",
    };
    format!(
        "{what} by {} from index build {} on {}; {}. {} input rows gave {} rows; {}. \
         Each row's comment starts with its input line. Rows with object sssom:NoTermFound say \
         why an input has no mapping.",
        cx.tool,
        cx.resolver.manifest().build_id,
        cx.today,
        options_words(cx),
        totals.inputs,
        totals.rows,
        totals.outcomes(),
    )
}

impl Totals {
    fn add(&mut self, m: &Mapped) {
        self.inputs += 1;
        self.rows += m.rows;
        self.mapped += u64::from(m.mapped);
        *self.codes.entry(m.code).or_default() += 1;
    }

    fn outcomes(&self) -> String {
        let codes: Vec<String> = self.codes.iter().map(|(k, v)| format!("{k} {v}")).collect();
        format!(
            "{}; mapped {}, unmapped {}",
            codes.join(", "),
            self.mapped,
            self.inputs - self.mapped
        )
    }

    fn summary(&self) -> String {
        format!(
            "{} input rows: {}; {} rows written",
            self.inputs,
            self.outcomes(),
            self.rows
        )
    }
}
