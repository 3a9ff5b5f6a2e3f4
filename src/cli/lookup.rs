//! `ontoresolve lookup`: identifier first, then exact name, fuzzy name and full text.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use ontoresolve::resolve::{ConceptDetails, Resolver};
use serde_json::json;

pub fn run(
    query: &str,
    index_dir: &Path,
    json_output: bool,
    limit: usize,
) -> anyhow::Result<ExitCode> {
    let resolver = Resolver::open(index_dir).context("cannot open the index")?;
    let ids = resolver.lookup_id(query);
    if !ids.is_empty() {
        for m in ids.iter().take(limit) {
            if let Some(details) = resolver.details(m.concept) {
                print_details(
                    &resolver,
                    &details,
                    &format!("identifier ({:?})", m.spelling),
                    json_output,
                );
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut candidates: Vec<(u32, String)> = resolver
        .lookup_label(query)
        .into_iter()
        .map(|m| {
            (
                m.concept,
                format!("exact {} \"{}\"", m.label.kind.as_str(), m.label.text),
            )
        })
        .collect();
    if candidates.is_empty() {
        candidates = resolver
            .fuzzy(query, 2, limit)
            .into_iter()
            .map(|m| {
                (
                    m.concept,
                    format!(
                        "fuzzy (distance {}) {} \"{}\"",
                        m.distance,
                        m.label.kind.as_str(),
                        m.label.text
                    ),
                )
            })
            .collect();
    }
    if candidates.is_empty() {
        let (hits, _) = resolver.search(query, limit)?;
        candidates = hits
            .into_iter()
            .map(|h| (h.concept, format!("full text (score {:.2})", h.score)))
            .collect();
    }
    if candidates.is_empty() {
        eprintln!(
            "no concept matches {query:?} as an identifier, a name, a near spelling or in full text"
        );
        return Ok(ExitCode::from(1));
    }
    let mut seen = Vec::new();
    for (id, how) in candidates {
        if seen.contains(&id) || seen.len() >= limit {
            continue;
        }
        seen.push(id);
        if let Some(details) = resolver.details(id) {
            print_details(&resolver, &details, &how, json_output);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_details(resolver: &Resolver, d: &ConceptDetails, matched: &str, json_output: bool) {
    let c = &d.concept;
    let replacement = if c.obsolete {
        resolver.replacement_of(c)
    } else {
        None
    };
    if json_output {
        let value = json!({
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
            "live_replacement": replacement.as_ref().map(|(_, r)| &r.iri),
        });
        println!("{value}");
        return;
    }
    let name = c
        .preferred_label()
        .map_or("(no label)", |l| l.text.as_str());
    println!(
        "{} {}  [{}]",
        c.curie.as_deref().unwrap_or(&c.iri),
        name,
        matched
    );
    println!("  iri:      {}", c.iri);
    println!("  source:   {} release {}", d.source_id, d.release);
    if c.obsolete {
        println!("  OBSOLETE");
        for r in &c.replacements {
            println!("  {:?}: {}", r.kind, r.target);
        }
        if let Some((_, r)) = replacement {
            println!(
                "  use instead: {} {}",
                r.curie.as_deref().unwrap_or(&r.iri),
                r.preferred_label().map_or("", |l| l.text.as_str())
            );
        }
    }
    for l in &c.labels {
        println!(
            "  {:<15} {}{}",
            l.kind.as_str(),
            l.text,
            l.lang
                .as_deref()
                .map(|x| format!("@{x}"))
                .unwrap_or_default()
        );
    }
    for def in &c.definitions {
        println!("  definition      {}", def.text);
    }
    for p in &d.parents {
        println!(
            "  parent          {} {}",
            p.curie.as_deref().unwrap_or(&p.iri),
            p.label.as_deref().unwrap_or("")
        );
    }
    println!("  children        {}", d.children.len());
    for x in &c.xrefs {
        println!("  xref            {:?} {}", x.kind, x.target);
    }
}
