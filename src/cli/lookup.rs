//! `ontoresolve lookup`: the same search as `find_concepts` (identifier, exact name, name
//! variant, via mapping, near spelling, full text), obsolete concepts included and marked.

use ontoresolve::model::WireName;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use ontoresolve::model::Concept;
use ontoresolve::resolve::{ConceptDetails, ConceptId, NameQuery, NameSearch, Resolver};
use serde_json::{Value, json};

pub fn run(
    query: &str,
    index_dir: &Path,
    json_output: bool,
    limit: usize,
) -> anyhow::Result<ExitCode> {
    let resolver = Resolver::open(index_dir).context("cannot open the index")?;
    let found = resolver
        .find_by_name(&NameQuery {
            text: query,
            sources: None,
            include_obsolete: true,
            full_text_beside_names: false,
            wanted: limit,
        })
        .context("the index could not be searched")?;
    if found.candidates.is_empty() {
        eprintln!(
            "no concept matches {query:?} as an identifier, a name, a near spelling or in full text"
        );
        return Ok(ExitCode::from(1));
    }
    // Written through one buffer: a reader that closed the pipe ("| head") has what it
    // wanted, and `println!` would panic.
    let mut out = BufWriter::new(io::stdout().lock());
    match write_found(&mut out, &resolver, &found, (query, limit), json_output) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        written => written?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Each candidate's record, then how many distinct concepts matched.
fn write_found(
    out: &mut impl Write,
    resolver: &Resolver,
    found: &NameSearch,
    (query, limit): (&str, usize),
    json_output: bool,
) -> io::Result<()> {
    for candidate in found.candidates.iter().take(limit) {
        let via = match &candidate.via {
            Some(v) => {
                let origin = resolver.concept(v.from).map_err(io::Error::other)?;
                let chain: String = v.through.iter().map(|t| format!(" → {t}")).collect();
                format!(" via {}{chain}", origin.curie.unwrap_or(origin.iri))
            }
            None => String::new(),
        };
        let confidence = candidate
            .confidence
            .as_ref()
            .map(|c| format!(", confidence {:.3} ({})", c.p, c.basis_text()))
            .unwrap_or_default();
        let how = format!(
            "{}{via}{}{}{confidence} \"{}\"",
            candidate.kind.wire_name(),
            candidate
                .distance
                .map(|d| format!(" (distance {d})"))
                .unwrap_or_default(),
            if candidate.case_exact {
                ""
            } else {
                ", other letter case"
            },
            candidate.text.as_deref().unwrap_or("")
        );
        let details = resolver
            .details(candidate.concept)
            .map_err(io::Error::other)?;
        print_details(out, resolver, &details, &how, json_output)?;
    }
    if found.distinct_concepts() > 1 {
        let summary = format!(
            "{query:?} matches {} distinct concepts; showing {}",
            found.distinct_concepts(),
            found.distinct_concepts().min(limit)
        );
        // A closing line of its own: on stdout after the records (so it cannot interleave
        // with them), or on stderr where stdout is JSON.
        if json_output {
            eprintln!("{summary}");
        } else {
            writeln!(out, "\n{summary}")?;
        }
    }
    out.flush()
}

fn print_details(
    out: &mut impl Write,
    resolver: &Resolver,
    d: &ConceptDetails,
    matched: &str,
    json_output: bool,
) -> io::Result<()> {
    let c = &d.concept;
    let replacements = if c.obsolete {
        resolver.live_replacements(c).map_err(io::Error::other)?
    } else {
        Vec::new()
    };
    if json_output {
        writeln!(out, "{}", details_json(d, matched, &replacements))
    } else {
        print_text(out, d, matched, &replacements)
    }
}

/// The `--json` line of one concept.
fn details_json(d: &ConceptDetails, matched: &str, replacements: &[(ConceptId, Concept)]) -> Value {
    let c = &d.concept;
    json!({
        "matched": matched,
        "iri": c.iri,
        "curie": c.curie,
        "source": d.source_id,
        "release": d.release,
        "obsolete": c.obsolete,
        "labels": c.labels,
        "definitions": c.definitions,
        "parents": d.parents,
        "children": d.children,
        "xrefs": c.xrefs,
        "replacements": c.replacements,
        "alt_ids": c.alt_ids,
        "status": c.status().wire_name(),
        "kind": c.kind.wire_name(),
        "tree_numbers": c.tree_numbers,
        "locus_type": c.locus_type,
        "live_replacements": replacements.iter().map(|(_, r)| &r.iri).collect::<Vec<_>>(),
    })
}

/// The text lines of one concept.
fn print_text(
    out: &mut impl Write,
    d: &ConceptDetails,
    matched: &str,
    replacements: &[(ConceptId, Concept)],
) -> io::Result<()> {
    let c = &d.concept;
    let name = c
        .preferred_label()
        .map_or("(no label)", |l| l.text.as_str());
    writeln!(
        out,
        "{} {}  [{}]",
        c.curie.as_deref().unwrap_or(&c.iri),
        name,
        matched
    )?;
    writeln!(out, "  iri:      {}", c.iri)?;
    writeln!(out, "  source:   {} release {}", d.source_id, d.release)?;
    writeln!(out, "  kind:     {}", c.kind.wire_name())?;
    if let Some(locus) = &c.locus_type {
        writeln!(out, "  locus:    {locus}")?;
    }
    for tree in &c.tree_numbers {
        writeln!(out, "  tree      {tree}")?;
    }
    if c.obsolete {
        print_obsolete(out, c, replacements)?;
    }
    for l in &c.labels {
        writeln!(
            out,
            "  {:<15} {}{}",
            l.kind.wire_name(),
            l.text,
            l.lang
                .as_deref()
                .map(|x| format!("@{x}"))
                .unwrap_or_default()
        )?;
    }
    for def in &c.definitions {
        writeln!(out, "  definition      {}", def.text)?;
    }
    for p in &d.parents {
        writeln!(
            out,
            "  parent          {} {}",
            p.curie.as_deref().unwrap_or(&p.iri),
            p.label.as_deref().unwrap_or("")
        )?;
    }
    writeln!(out, "  children        {}", d.children.len())?;
    for x in &c.xrefs {
        writeln!(out, "  xref            {} {}", x.kind.curie(), x.target)?;
    }
    Ok(())
}

/// What replaces an obsolete concept: its stated replacements and the live concepts they reach.
fn print_obsolete(
    out: &mut impl Write,
    c: &Concept,
    replacements: &[(ConceptId, Concept)],
) -> io::Result<()> {
    writeln!(out, "  {}", c.status().wire_name().to_uppercase())?;
    for r in &c.replacements {
        writeln!(out, "  {:?}: {}", r.kind, r.target)?;
    }
    for (_, r) in replacements {
        writeln!(
            out,
            "  use instead: {} {}",
            r.curie.as_deref().unwrap_or(&r.iri),
            r.preferred_label().map_or("", |l| l.text.as_str())
        )?;
    }
    Ok(())
}
