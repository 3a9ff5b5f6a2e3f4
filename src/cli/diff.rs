//! `ontoresolve diff SOURCE`: the changes between two loaded releases of a source, as JSON
//! (`{source, from, to, summary, changes}`), Markdown or TSV. The diff is the core's
//! (`resolve::diff`); this only prints it. Exit 2 for an unknown source or release, equal
//! releases or a source with one release; 1 for a damaged index.

use ontoresolve::model::WireName;
use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use ontoresolve::resolve::Resolver;
use ontoresolve::resolve::diff::{Change, ReleasePair};
use serde_json::{Value, json};

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum DiffFormat {
    Json,
    Md,
    Tsv,
}

pub fn run(
    source: &str,
    from: Option<&str>,
    to: Option<&str>,
    format: DiffFormat,
    index: &Path,
) -> anyhow::Result<ExitCode> {
    let resolver = Resolver::open(index)
        .with_context(|| format!("cannot open the index at {}", index.display()))?;
    let pair = match resolver.release_pair(source, from, to) {
        Ok(pair) => pair,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let changes = resolver
        .diff_source(&pair)
        .context("the index could not be read while comparing; run `ontoresolve check`")?;
    let mut out = BufWriter::new(io::stdout().lock());
    match format {
        DiffFormat::Json => write_json(&mut out, &pair, &changes)?,
        DiffFormat::Md => write_markdown(&mut out, &pair, &changes)?,
        DiffFormat::Tsv => write_tsv(&mut out, &changes)?,
    }
    out.flush()?;
    eprintln!(
        "{}: {} changes from {} to {}",
        pair.source,
        changes.len(),
        pair.from,
        pair.to
    );
    Ok(ExitCode::SUCCESS)
}

fn summary(changes: &[Change]) -> BTreeMap<&'static str, u64> {
    let mut out = BTreeMap::new();
    for c in changes {
        *out.entry(c.kind.wire_name()).or_insert(0) += 1;
    }
    out
}

fn change_json(c: &Change) -> Value {
    let mut v = json!({ "type": c.kind.wire_name(), "about_node": c.about_node });
    if let Some(old) = &c.old_value {
        v["old_value"] = json!(old);
    }
    if let Some(new) = &c.new_value {
        v["new_value"] = json!(new);
    }
    if !c.has_direct_replacement.is_empty() {
        v["has_direct_replacement"] = json!(c.has_direct_replacement);
    }
    if !c.consider.is_empty() {
        v["consider"] = json!(c.consider);
    }
    v
}

fn write_json(out: &mut impl Write, pair: &ReleasePair, changes: &[Change]) -> io::Result<()> {
    let document = json!({
        "source": pair.source,
        "from": pair.from,
        "to": pair.to,
        "summary": summary(changes),
        "changes": changes.iter().map(change_json).collect::<Vec<_>>(),
    });
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}

/// A cell without the characters that would break a TSV row or a Markdown table.
fn cell(text: &str, table: bool) -> String {
    let flat = text.replace(['\t', '\n', '\r'], " ");
    if table {
        flat.replace('|', "\\|")
    } else {
        flat
    }
}

fn write_markdown(out: &mut impl Write, pair: &ReleasePair, changes: &[Change]) -> io::Result<()> {
    writeln!(out, "# {}: {} → {}\n", pair.source, pair.from, pair.to)?;
    writeln!(out, "| type | changes |\n|---|---|")?;
    for (kind, n) in summary(changes) {
        writeln!(out, "| {kind} | {n} |")?;
    }
    writeln!(
        out,
        "\n| type | about_node | old_value | new_value | replacements |"
    )?;
    writeln!(out, "|---|---|---|---|---|")?;
    for c in changes {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            c.kind.wire_name(),
            cell(&c.about_node, true),
            cell(c.old_value.as_deref().unwrap_or(""), true),
            cell(c.new_value.as_deref().unwrap_or(""), true),
            cell(&c.has_direct_replacement.join(" "), true),
        )?;
    }
    Ok(())
}

fn write_tsv(out: &mut impl Write, changes: &[Change]) -> io::Result<()> {
    writeln!(
        out,
        "type\tabout_node\told_value\tnew_value\thas_direct_replacement\tconsider"
    )?;
    for c in changes {
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}",
            c.kind.wire_name(),
            cell(&c.about_node, false),
            cell(c.old_value.as_deref().unwrap_or(""), false),
            cell(c.new_value.as_deref().unwrap_or(""), false),
            c.has_direct_replacement.join("|"),
            c.consider.join("|"),
        )?;
    }
    Ok(())
}
