//! `ontoresolve annotate`: every passage of a file grounded as the `ground_passage` tool
//! grounds it (`Resolver::ground_passage`), one output row per mention, in input order.
//!
//! Output is TSV with a header, or JSON Lines; spans are Unicode scalar offsets into the
//! passage, as the tool gives them. Nothing is dropped: a passage over the core's size limit,
//! or whose grounding fails, gives one row with an empty concept and a `note` saying why. A
//! damaged index stops the run (a row is never written from a damaged read). Passages are read
//! a chunk at a time and grounded in parallel, so memory stays bounded on any input.

mod input;

use ontoresolve::model::WireName;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use ontoresolve::model::SemanticGroup;
use ontoresolve::resolve::passage::{
    MAX_PASSAGE_BYTES, Mention, MentionReading, PassageGrounding, PassageQuery,
};
use ontoresolve::resolve::{ConceptId, PinError, ResolveError, Resolver};
use rayon::prelude::*;
use serde::Serialize;

pub use input::Format;
use input::{Passage, Passages, progress_bar, read_chunk};

/// The TSV header: the columns of [`Row`], in order.
const HEADER: &str = "passage\tstart\tend\ttext\tconcept\tlabel\tsource\tmatch_kind\t\
                      confidence\tabbreviation_of\tcoordinated_with\tcandidates\tnote";
/// Write buffer of the output.
const WRITE_BUFFER_BYTES: usize = 1 << 20;

/// How rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Tab-separated, with a header line; tabs and line breaks in values escaped.
    Tsv,
    /// JSON Lines: one object per mention.
    Json,
}

#[derive(clap::Args)]
pub struct Options {
    /// The input file; `-` reads standard input.
    pub file: PathBuf,
    /// `text`: one passage per line (its id is the line number); `pubtator`: title and
    /// abstract blocks, grounded as title, a space, abstract (its id is the PMID).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Candidates only from these source ids, or `id@release` for an older loaded release
    /// (names are read from every source). Default: every current release.
    #[arg(long, value_name = "SOURCE[,SOURCE...]", value_delimiter = ',')]
    pub sources: Vec<String>,
    /// Mentions only of concepts in these semantic groups (disease, phenotype, chemical,
    /// gene, anatomy, organism, procedure, phenomenon, other). Default: every group.
    #[arg(long, value_name = "GROUP[,GROUP...]", value_delimiter = ',')]
    pub groups: Vec<String>,
    /// Write here instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// TSV with a header, or JSON Lines.
    #[arg(long, value_enum, default_value = "tsv")]
    pub output_format: OutputFormat,
    #[command(flatten)]
    pub index: super::IndexArg,
}

/// What every worker needs.
struct Context<'a> {
    resolver: &'a Resolver,
    /// The sources whose concepts may be candidates.
    sources: Vec<String>,
    /// The semantic groups whose concepts may be candidates; all when `None`.
    groups: Option<Vec<SemanticGroup>>,
    output: OutputFormat,
}

/// One passage's output lines.
struct Annotated {
    lines: String,
    mentions: u64,
    problem: bool,
}

/// Totals for the summary on standard error.
#[derive(Default)]
struct Totals {
    passages: u64,
    mentions: u64,
    problems: u64,
}

pub fn run(options: Options) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let resolver = Resolver::open(&options.index.path).context("cannot open the index")?;
    let sources = match wanted_sources(&resolver, &options.sources) {
        Ok(sources) => sources,
        Err(message) => {
            eprintln!("error: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    let mut groups = Vec::new();
    for name in options.groups.iter().filter(|g| !g.trim().is_empty()) {
        match SemanticGroup::named(name) {
            Some(group) => groups.push(group),
            None => {
                let known: Vec<&str> = SemanticGroup::ALL.iter().map(|g| g.wire_name()).collect();
                eprintln!(
                    "error: unknown group {name:?}; the groups are {}",
                    known.join(", ")
                );
                return Ok(ExitCode::from(2));
            }
        }
    }
    let mut input = Passages::open(&options.file, options.format)?;
    let mut output = open_output(&options)?;
    if options.output_format == OutputFormat::Tsv {
        writeln!(output, "{HEADER}")?;
    }
    let cx = Context {
        resolver: &resolver,
        sources,
        groups: (!groups.is_empty()).then_some(groups),
        output: options.output_format,
    };
    let progress = progress_bar(input.size);
    let mut totals = Totals::default();
    loop {
        let chunk = read_chunk(&mut input)?;
        if chunk.is_empty() {
            break;
        }
        let annotated: Vec<Annotated> = chunk
            .par_iter()
            .map(|passage| annotate(&cx, passage))
            .collect::<Result<_, ResolveError>>()?;
        for a in annotated {
            output.write_all(a.lines.as_bytes())?;
            totals.add(&a);
        }
        progress.set_position(input.bytes_read);
        progress.set_message(format!(
            "{} passages, {} mentions",
            totals.passages, totals.mentions
        ));
    }
    output.flush()?;
    progress.finish_and_clear();
    if let Some(first) = input.first_stray_line {
        eprintln!(
            "{} lines were neither a title, an abstract nor an annotation of their PubTator \
             block and were not read (the first is line {first})",
            input.stray_lines
        );
    }
    eprintln!("{}", totals.summary(started.elapsed()));
    Ok(ExitCode::SUCCESS)
}

/// The sources whose concepts may be candidates, as the `ground_passage` tool takes them: those
/// named (checked by the core: loaded, and any pinned release loaded), or every current one.
fn wanted_sources(r: &Resolver, named: &[String]) -> Result<Vec<String>, PinError> {
    let named: Vec<String> = named
        .iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if named.is_empty() {
        return Ok(r
            .manifest()
            .sources
            .iter()
            .filter(|s| s.current)
            .map(|s| s.id.clone())
            .collect());
    }
    r.releases().check_sources(&named)?;
    Ok(named)
}

/// Standard output, or `-o OUT` unless it is the input itself.
fn open_output(options: &Options) -> anyhow::Result<BufWriter<Box<dyn Write>>> {
    let output: Box<dyn Write> = match &options.output {
        Some(path) => {
            if let (Ok(a), Ok(b)) = (options.file.canonicalize(), path.canonicalize())
                && a == b
            {
                bail!(
                    "the output {} is the input; write elsewhere",
                    path.display()
                );
            }
            Box::new(
                File::create(path).with_context(|| format!("cannot write {}", path.display()))?,
            )
        }
        None => Box::new(io::stdout().lock()),
    };
    Ok(BufWriter::with_capacity(WRITE_BUFFER_BYTES, output))
}

/// One passage to its rows. Only damage is an error: any other failure is the passage's note.
fn annotate(cx: &Context, passage: &Passage) -> Result<Annotated, ResolveError> {
    if passage.cut || passage.text.len() > MAX_PASSAGE_BYTES {
        let size = if passage.cut {
            "a line of the passage is over the row limit".to_string()
        } else {
            format!("the passage has {} bytes", passage.text.len())
        };
        let note = format!(
            "not grounded: {size}, and ground_passage takes at most {MAX_PASSAGE_BYTES}; split it"
        );
        return Ok(cx.problem(passage, &note));
    }
    let query = PassageQuery {
        text: &passage.text,
        sources: Some(&cx.sources),
        groups: cx.groups.as_deref(),
    };
    // A panic in one passage must not lose the rest of a long run; the hook has printed it.
    let grounded = panic::catch_unwind(AssertUnwindSafe(|| {
        let grounding = cx.resolver.ground_passage(&query)?;
        cx.shape(passage, &grounding)
    }));
    match grounded {
        Ok(Ok(annotated)) => Ok(annotated),
        Ok(Err(error)) if is_damage(&error) => Err(error),
        Ok(Err(error)) => Ok(cx.problem(passage, &format!("not grounded: {error}"))),
        Err(_) => Ok(cx.problem(
            passage,
            "not grounded: ground_passage failed (its message is on standard error)",
        )),
    }
}

fn is_damage(error: &ResolveError) -> bool {
    matches!(
        error,
        ResolveError::Damaged(_)
            | ResolveError::Open(_)
            | ResolveError::FullText(ontoresolve::index::fulltext::FullTextError::Damaged { .. })
    )
}

/// What a row says about one concept, read once per passage.
struct ConceptCells {
    /// The CURIE, or the IRI when the concept has none.
    curie: String,
    label: Option<String>,
    source: String,
    status: &'static str,
}

/// One output row: a mention, or the note of a passage that was not grounded. As JSON,
/// absent fields instead of nulls; as TSV, empty cells.
#[derive(Default, Serialize)]
struct Row<'a> {
    passage: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<&'a str>,
    /// The first candidate's CURIE, label, source and match kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    concept: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    match_kind: Option<&'static str>,
    /// The probability that the span names its first candidate, to three digits.
    #[serde(skip_serializing_if = "Option::is_none")]
    confidence: Option<f64>,
    /// The long form, as the passage writes it, of the abbreviation this mention is.
    #[serde(skip_serializing_if = "Option::is_none")]
    abbreviation_of: Option<&'a str>,
    /// The name whose head this modifier shares ("ovarian cancer" for "breast" in "breast and
    /// ovarian cancer"), as the passage writes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    coordinated_with: Option<&'a str>,
    /// Ranked as the core ranks them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    candidates: Vec<CandidateCell<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
}

#[derive(Serialize)]
struct CandidateCell<'a> {
    curie: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
    match_kind: &'static str,
    status: &'static str,
    /// In the row (for the first candidate), not in the list.
    #[serde(skip)]
    source: &'a str,
}

impl Context<'_> {
    /// The rows of a grounded passage, one per mention.
    fn shape(
        &self,
        passage: &Passage,
        grounding: &PassageGrounding,
    ) -> Result<Annotated, ResolveError> {
        let mut concepts: HashMap<ConceptId, ConceptCells> = HashMap::new();
        let spans = every_span(grounding);
        for c in spans.iter().flat_map(|m| &m.candidates) {
            if let Entry::Vacant(slot) = concepts.entry(c.concept) {
                slot.insert(self.concept_cells(c.concept)?);
            }
        }
        let offsets = CharOffsets::of(&passage.text);
        let mut lines = String::new();
        let uncertain = grounding.threshold.map(|t| {
            format!("uncertain: its confidence is under the model's threshold {t}; not a mention")
        });
        for m in spans {
            let mut row = mention_row(passage, &offsets, grounding, &concepts, m);
            if grounding.uncertain.iter().any(|u| std::ptr::eq(u, m)) {
                row.note = uncertain.as_deref();
            }
            push_row(&mut lines, self.output, &row);
        }
        Ok(Annotated {
            lines,
            mentions: grounding.mentions.len() as u64,
            problem: false,
        })
    }

    fn concept_cells(&self, id: ConceptId) -> Result<ConceptCells, ResolveError> {
        let concept = self.resolver.concept(id)?;
        Ok(ConceptCells {
            source: self
                .resolver
                .source_of(&concept)
                .map(|s| s.id.clone())
                .unwrap_or_default(),
            label: concept.preferred_label().map(|l| l.text.clone()),
            status: concept.status().wire_name(),
            curie: concept.curie.unwrap_or(concept.iri),
        })
    }

    /// The one row of a passage that could not be grounded.
    fn problem(&self, passage: &Passage, note: &str) -> Annotated {
        let mut lines = String::new();
        let row = Row {
            passage: &passage.id,
            note: Some(note),
            ..Row::default()
        };
        push_row(&mut lines, self.output, &row);
        Annotated {
            lines,
            mentions: 0,
            problem: true,
        }
    }
}

/// Mentions and uncertain spans, in text order: nothing the passage read is dropped.
fn every_span(grounding: &PassageGrounding) -> Vec<&Mention> {
    let mut spans: Vec<&Mention> = grounding
        .mentions
        .iter()
        .chain(grounding.uncertain.iter())
        .collect();
    spans.sort_by_key(|m| (m.start, m.end));
    spans
}

fn mention_row<'a>(
    passage: &'a Passage,
    offsets: &CharOffsets,
    grounding: &'a PassageGrounding,
    concepts: &'a HashMap<ConceptId, ConceptCells>,
    m: &Mention,
) -> Row<'a> {
    let text = passage.text.as_str();
    let abbreviation_of = match m.reading {
        MentionReading::Abbreviation { definition, .. } => grounding
            .definitions
            .get(definition)
            .and_then(|d| text.get(d.long_span.0..d.long_span.1)),
        MentionReading::Name | MentionReading::NameVariant | MentionReading::Coordinated { .. } => {
            None
        }
    };
    // A conjunct's concept is read with the head of the name it is coordinated with.
    let coordinated_with = match m.reading {
        MentionReading::Coordinated { name } => text.get(name.0..name.1),
        _ => None,
    };
    let candidates: Vec<CandidateCell> = m
        .candidates
        .iter()
        .filter_map(|c| {
            let cells = concepts.get(&c.concept)?;
            Some(CandidateCell {
                curie: &cells.curie,
                label: cells.label.as_deref(),
                match_kind: c.kind.wire_name(),
                status: cells.status,
                source: &cells.source,
            })
        })
        .collect();
    let first = candidates.first();
    Row {
        passage: &passage.id,
        start: Some(offsets.at(m.start)),
        end: Some(offsets.at(m.end)),
        text: Some(text.get(m.start..m.end).unwrap_or_default()),
        concept: first.map(|c| c.curie),
        label: first.and_then(|c| c.label),
        source: first.map(|c| c.source),
        match_kind: first.map(|c| c.match_kind),
        confidence: m
            .confidence
            .as_ref()
            .map(|c| (c.p * 1000.0).round() / 1000.0),
        abbreviation_of,
        coordinated_with,
        note: None,
        candidates,
    }
}

fn push_row(out: &mut String, format: OutputFormat, row: &Row) {
    match format {
        OutputFormat::Tsv => push_tsv(out, row),
        OutputFormat::Json => push_json(out, row),
    }
}

/// The row's cells in [`HEADER`] order, absent ones empty.
fn push_tsv(out: &mut String, row: &Row) {
    let curies: Vec<&str> = row.candidates.iter().map(|c| c.curie).collect();
    let cells = [
        Some(escape(row.passage)),
        row.start.map(|n| n.to_string()),
        row.end.map(|n| n.to_string()),
        row.text.map(escape),
        row.concept.map(escape),
        row.label.map(escape),
        row.source.map(escape),
        row.match_kind.map(str::to_string),
        row.confidence.map(|c| c.to_string()),
        row.abbreviation_of.map(escape),
        row.coordinated_with.map(escape),
        Some(escape(&curies.join("|"))),
        row.note.map(escape),
    ];
    let cells: Vec<String> = cells.into_iter().map(Option::unwrap_or_default).collect();
    out.push_str(&cells.join("\t"));
    out.push('\n');
}

fn push_json(out: &mut String, value: &impl Serialize) {
    // Strings and numbers always serialize; the fallback only keeps the line count right.
    match serde_json::to_string(value) {
        Ok(line) => out.push_str(&line),
        Err(error) => out.push_str(&serde_json::json!({ "note": error.to_string() }).to_string()),
    }
    out.push('\n');
}

/// Byte offsets to Unicode scalar offsets, for one text.
struct CharOffsets(Vec<usize>);

impl CharOffsets {
    fn of(text: &str) -> CharOffsets {
        CharOffsets(text.char_indices().map(|(b, _)| b).collect())
    }

    fn at(&self, byte: usize) -> u64 {
        self.0.partition_point(|&b| b < byte) as u64
    }
}

/// Keeps a value in one TSV cell: backslash, tab, CR and LF are escaped.
fn escape(text: &str) -> String {
    if !text.contains(['\\', '\t', '\n', '\r']) {
        return text.to_string();
    }
    text.replace('\\', "\\\\")
        .replace('\t', "\\t")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

impl Totals {
    fn add(&mut self, a: &Annotated) {
        self.passages += 1;
        self.mentions += a.mentions;
        self.problems += u64::from(a.problem);
    }

    fn summary(&self, elapsed: Duration) -> String {
        let seconds = elapsed.as_secs_f64();
        let rate = if seconds > 0.0 {
            self.passages as f64 / seconds
        } else {
            0.0
        };
        format!(
            "{} passages, {} mentions, passages with problems: {}, {seconds:.1} s, \
             {rate:.1} passages/s",
            self.passages, self.mentions, self.problems
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_offsets_count_unicode_scalars_not_bytes() {
        let text = "Ménière’s disease";
        let offsets = CharOffsets::of(text);
        let byte = text.find("disease").expect("in the text");
        assert_eq!(offsets.at(byte), 10);
        assert_eq!(offsets.at(text.len()), text.chars().count() as u64);
    }

    #[test]
    fn escaped_values_stay_in_one_tsv_cell() {
        assert_eq!(escape("a\tb\nc\\d\r"), "a\\tb\\nc\\\\d\\r");
        assert_eq!(escape("plain"), "plain");
    }
}
