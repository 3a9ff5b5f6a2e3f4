//! "Which concepts does this passage mention?": `ground_passage` shapes the core's passage
//! grounding into the envelope, spans in characters.

use crate::model::WireName;
use std::collections::BTreeSet;

use serde_json::json;

use super::find::{candidate, wanted_sources};
use super::*;
use crate::mcp::dto::*;
use crate::model::SemanticGroup;
use crate::resolve::passage::{
    MAX_PASSAGE_BYTES, Mention, MentionReading, PassageGrounding, PassageQuery,
};
use crate::resolve::{Resolver, sparql};

const DEFAULT_PASSAGE_LIMIT: u32 = 3;
const MAX_PASSAGE_LIMIT: u32 = 10;

/// Byte offsets to character offsets, for one text.
struct CharOffsets(Vec<usize>);

impl CharOffsets {
    fn of(text: &str) -> Self {
        CharOffsets(text.char_indices().map(|(b, _)| b).collect())
    }

    fn at(&self, byte: usize) -> u64 {
        self.0.partition_point(|&b| b < byte) as u64
    }
}

pub fn ground_passage(r: &Resolver, args: &PassageArgs) -> Result<Envelope<Passage>, ToolError> {
    let input = json!({ "text": args.text, "sources": args.sources, "limit": args.limit, "groups": args.groups });
    let text = checked_passage(&args.text)?;
    let mut defaults = Vec::new();
    let limit = passage_limit(args.limit, &mut defaults)?;
    let wanted = wanted_sources(r, args.sources.as_deref(), &mut defaults)?;
    let groups = wanted_groups(args.groups.as_deref(), &mut defaults)?;
    let grounding = r.ground_passage(&PassageQuery {
        text,
        sources: Some(&wanted),
        groups: groups.as_deref(),
    })?;
    let offsets = CharOffsets::of(text);
    let mentions: Vec<MentionDto> = grounding
        .mentions
        .iter()
        .map(|m| mention(r, text, &offsets, &grounding, m, limit))
        .collect::<Result<_, _>>()?;
    let concepts = concept_counts(r, &grounding)?;
    let iris = concept_iris(r, &concepts);
    let iri_refs: Vec<&str> = iris.iter().map(String::as_str).collect();
    let total = mentions.len() as u64;
    let sources = passage_sources(r, &concepts, &wanted);
    let suggestion = match (mentions.is_empty(), grounding.uncertain.is_empty()) {
        (true, true) => Some("No loaded concept's name occurs in the passage (generic words alone are skipped): try find_concepts on a phrase you expected, or widen sources.".to_string()),
        (true, false) => Some("Names occur, but none confidently enough to be a mention: see uncertain, each with its candidates and confidence.".to_string()),
        _ => None,
    };
    Ok(Envelope {
        query: QueryEcho {
            input,
            normalized: String::new(),
            steps: Vec::new(),
            filters: json!({ "sources": args.sources, "groups": args.groups }),
            defaults_applied: defaults,
        },
        total,
        returned: total,
        truncated: false,
        cursor: None,
        sources,
        index: r.manifest().build_id.clone(),
        sparql: sparql::concept_names(&iri_refs, &[]),
        suggestion,
        result: Passage {
            mentions,
            concepts,
            abbreviations: grounding
                .definitions
                .iter()
                .enumerate()
                .map(|(at, d)| AbbreviationDto {
                    short_form: d.short.clone(),
                    long_form: d.long.clone(),
                    unread_uses: grounding.unread_uses.get(&at).copied().unwrap_or(0) as u64,
                    head: d.head.clone(),
                })
                .collect(),
            generic_skipped: grounding.generic_skipped.keys().cloned().collect(),
            outside_sources: grounding.outside_sources as u64,
            uncertain: grounding
                .uncertain
                .iter()
                .map(|m| mention(r, text, &offsets, &grounding, m, limit))
                .collect::<Result<_, _>>()?,
            threshold: grounding.threshold,
        },
    })
}

/// The semantic groups asked for, each known (the error lists them), or every group.
fn wanted_groups(
    asked: Option<&[String]>,
    defaults: &mut Vec<String>,
) -> Result<Option<Vec<SemanticGroup>>, ToolError> {
    let Some(asked) = asked.filter(|a| !a.is_empty()) else {
        defaults.push("groups=all".into());
        return Ok(None);
    };
    let known = || {
        SemanticGroup::ALL
            .iter()
            .map(|g| g.wire_name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    asked
        .iter()
        .map(|name| {
            SemanticGroup::named(name).ok_or_else(|| {
                ToolError::new(
                    ErrorCode::InvalidArgument,
                    format!("unknown group {}", crate::mcp::echo::quoted(name)),
                    format!("Pass groups from: {}.", known()),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Candidates per mention asked for, or the default (noted in `defaults`).
fn passage_limit(asked: Option<u32>, defaults: &mut Vec<String>) -> Result<usize, ToolError> {
    let limit = match asked {
        None => {
            defaults.push(format!("limit={DEFAULT_PASSAGE_LIMIT}"));
            DEFAULT_PASSAGE_LIMIT
        }
        Some(n @ 1..=MAX_PASSAGE_LIMIT) => n,
        Some(n) => {
            return Err(ToolError::new(
                ErrorCode::InvalidArgument,
                format!("limit {n} is out of range"),
                format!("Pass a limit from 1 to {MAX_PASSAGE_LIMIT} candidates per mention."),
            ));
        }
    };
    Ok(limit as usize)
}

/// The IRI of each distinct concept, for the SPARQL that re-reads their names.
fn concept_iris(r: &Resolver, concepts: &[ConceptMentions]) -> Vec<String> {
    concepts
        .iter()
        .filter_map(|c| {
            c.concept.name.iri.clone().or_else(|| {
                c.concept
                    .name
                    .curie
                    .as_deref()
                    .and_then(|x| r.registry().expand(x))
            })
        })
        .collect()
}

fn checked_passage(text: &str) -> Result<&str, ToolError> {
    if text.trim().is_empty() {
        return Err(ToolError::new(
            ErrorCode::InvalidArgument,
            "text is empty".into(),
            "Pass the passage to ground, e.g. an abstract.",
        ));
    }
    if text.len() > MAX_PASSAGE_BYTES {
        return Err(ToolError::new(
            ErrorCode::LimitExceeded,
            format!(
                "text has {} bytes, over the {MAX_PASSAGE_BYTES} allowed",
                text.len()
            ),
            "Split the text into passages of at most 20 KB (paragraphs or sections) and ground each.",
        ));
    }
    Ok(text)
}

fn mention(
    r: &Resolver,
    text: &str,
    offsets: &CharOffsets,
    grounding: &PassageGrounding,
    m: &Mention,
    limit: usize,
) -> Result<MentionDto, ToolError> {
    let abbreviation_of = match m.reading {
        MentionReading::Abbreviation { definition, .. } => grounding
            .definitions
            .get(definition)
            .map(|d| AbbreviationOf {
                long_form: text[d.long_span.0..d.long_span.1].to_string(),
                start: offsets.at(d.long_span.0),
                end: offsets.at(d.long_span.1),
            }),
        MentionReading::Name | MentionReading::NameVariant | MentionReading::Coordinated { .. } => {
            None
        }
    };
    let coordinated_with = match m.reading {
        MentionReading::Coordinated { name: (start, end) } => Some(SpanDto {
            start: offsets.at(start),
            end: offsets.at(end),
            text: text[start..end].to_string(),
        }),
        _ => None,
    };
    Ok(MentionDto {
        start: offsets.at(m.start),
        end: offsets.at(m.end),
        text: text[m.start..m.end].to_string(),
        confidence: m.confidence.as_ref().map(|c| c.p),
        candidates: (m.candidates.iter().take(limit))
            .map(|c| Ok(candidate(r, c)?.0))
            .collect::<Result<_, ToolError>>()?,
        candidates_total: m.candidates.len() as u64,
        abbreviation_of,
        coordinated_with,
        alternatives: m
            .alternatives
            .iter()
            .map(|&(start, end)| SpanDto {
                start: offsets.at(start),
                end: offsets.at(end),
                text: text[start..end].to_string(),
            })
            .collect(),
    })
}

fn concept_counts(
    r: &Resolver,
    grounding: &PassageGrounding,
) -> Result<Vec<ConceptMentions>, ToolError> {
    grounding
        .concepts()
        .into_iter()
        .map(|(id, n)| {
            Ok(ConceptMentions {
                concept: summary(r, &r.concept(id)?),
                mentions: n as u64,
            })
        })
        .collect()
}

/// The releases of the sources the concepts come from (every wanted source when none).
fn passage_sources(
    r: &Resolver,
    concepts: &[ConceptMentions],
    wanted: &[String],
) -> Vec<SourceRelease> {
    let used: BTreeSet<&str> = concepts.iter().map(|c| c.concept.source.as_str()).collect();
    r.manifest()
        .sources
        .iter()
        .filter(|s| {
            wanted.iter().any(|w| s.selected_by(w))
                && (used.is_empty() || used.contains(s.id.as_str()))
        })
        .map(source_release)
        .collect()
}
