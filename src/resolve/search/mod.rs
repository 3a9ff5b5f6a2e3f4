//! "Which concepts have this name?": every stage (identifier, exact name, name variant, via
//! mapping, near spelling, full text), their candidates merged and ranked by match kind, and
//! the filters. Every adapter (MCP, `lookup`, `map --by label`) asks here, so the same question
//! gets the same answer.

mod answer;
mod kinds;
mod stages;
mod via;

use std::collections::{HashMap, HashSet};

pub use answer::{Learned, NameCandidate, NameQuery, NameSearch, SkipReason, TextReach};
pub use kinds::{MatchKind, Stage};
pub use via::ViaMapping;

use super::{ConceptId, ResolveError, Resolver};
use crate::model::{ConceptIdentity, SourceIdx, XrefKind};

/// How many full-text hits are ranked when the name stages found nothing (adapters list at
/// most 100; the rest are counted).
pub const FULL_TEXT_DEPTH: usize = 200;
/// How many full-text hits are listed beneath name matches: other readings, not the answer.
const FULL_TEXT_DEPTH_BESIDE_NAMES: usize = 20;
/// Above this many candidates, concepts are counted without looking for the same entity
/// asserted by several sources.
const MAX_ENTITY_GROUPING: usize = 50;
/// How many near-spelling labels are looked at, closest first.
const FUZZY_DEPTH: usize = 50;
/// Subtracted from a score per edit of a near spelling.
const EDIT_PENALTY: f64 = 0.1;
/// Subtracted from a score when the match ignored letter case (gene symbols are case-significant).
const CASE_PENALTY: f64 = 0.01;
/// Inputs of at most this many characters, in capitals (with digits), are read as
/// abbreviations or symbols: case-exact matches rank first.
const MAX_ABBREVIATION_CHARS: usize = 8;

/// Which stages a name search runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum StageSet {
    /// Every stage: names, broader concepts, near spellings, full text.
    Every,
    /// Only the stages that name the concept.
    Names,
    /// Those, and broader concepts through an ancestor's mapping.
    NamesOrBroader,
}

/// One name search: its stages, ranking and what the answer says, over the resolver's
/// readers. Short-lived: made for a question, dropped with its answer.
pub(crate) struct NameSearcher<'r> {
    r: &'r Resolver,
}

impl<'r> NameSearcher<'r> {
    pub(crate) fn new(r: &'r Resolver) -> Self {
        NameSearcher { r }
    }

    /// Runs every stage and merges their candidates: each concept once, under its best match,
    /// ranked by match kind (exact label > synonym > via mapping > name variant > near
    /// spelling > full text), then case, then concept. Near spellings and full text run only
    /// when the name stages found live concepts or nothing at all: a name that matched only
    /// obsolete or withdrawn concepts never gets near spellings of other names instead (they
    /// are counted, and listed on request). For a short input in capitals (an abbreviation or
    /// symbol), case-exact matches rank first.
    pub fn find_by_name(&self, query: &NameQuery) -> Result<NameSearch, ResolveError> {
        self.run_stages(query, StageSet::Every)
    }

    /// The stages that name the concept only (identifier, exact name, name variant, via
    /// mapping): no near spellings or full text. A passage's words are no typos, and a name
    /// that matched only in another source is no reason to read definitions.
    pub fn find_names(&self, query: &NameQuery) -> Result<NameSearch, ResolveError> {
        self.run_stages(query, StageSet::Names)
    }

    /// [`Self::find_names`], and broader concepts through an ancestor's mapping: for a
    /// descriptive phrase that names a concept outside the wanted sources only.
    pub fn find_names_or_broader(&self, query: &NameQuery) -> Result<NameSearch, ResolveError> {
        self.run_stages(query, StageSet::NamesOrBroader)
    }

    fn run_stages(&self, query: &NameQuery, set: StageSet) -> Result<NameSearch, ResolveError> {
        let names_only = set != StageSet::Every;
        let text = query.text.trim();
        let mut out = NameSearch {
            abbreviation: is_abbreviation(text),
            ..NameSearch::default()
        };
        let mut hidden = HashSet::new();
        out.stages_tried.push(Stage::Identifier);
        let identified = self.identifier_stage(text)?;
        // A pinned identifier names its release's concept: no source filter applies.
        let pinned = crate::resolve::split_pin(text).is_ok_and(|(_, pin)| pin.is_some());
        let mut kept = if pinned {
            self.keep_pinned(identified, query, &mut hidden)
        } else {
            self.keep(identified, query, &mut hidden)?
        };
        // An identifier that was found is not a name: no name stages, near spellings or
        // full text.
        if !kept.is_empty() {
            return self.finish(text, out, kept, hidden);
        }
        out.stages_tried.push(Stage::ExactName);
        let exact = self.exact_name_stage(text)?;
        // A near spelling guesses at a typo: when the name matched a label as typed, in any
        // source, it is not one.
        let typed = !exact.is_empty();
        let mut names = exact;
        if self.r.files.variants.is_some() {
            out.stages_tried.push(Stage::NameVariant);
            let (variants, steps) = self.name_variant_stage(text)?;
            out.variant_steps = steps;
            names.extend(variants);
        }
        if self
            .r
            .confidence_model()
            .is_some_and(|m| !m.learned.is_empty())
        {
            out.stages_tried.push(Stage::CorpusName);
            names.extend(self.corpus_name_stage(text)?);
        }
        out.stages_tried.push(Stage::ViaMapping);
        // A passage's names take a broader concept only when asked for.
        let broader = match set {
            StageSet::Every => via::Broader::FromTypedNames,
            StageSet::Names => via::Broader::Never,
            StageSet::NamesOrBroader => via::Broader::FromAnyName,
        };
        let (via, via_limited) = self.via_mapping_stage(&names, broader)?;
        out.via_limited = via_limited;
        names.extend(via);
        kept.extend(self.keep(names, query, &mut hidden)?);
        if names_only {
            return self.finish(text, out, kept, hidden);
        }
        let live_names = kept.iter().any(|c| !c.obsolete);
        // A name that matched only obsolete or withdrawn concepts gets nothing else: other
        // names never stand in for it.
        if !(live_names || (kept.is_empty() && hidden.is_empty())) {
            out.stages_skipped = vec![
                (Stage::NearSpelling, SkipReason::OnlyObsoleteMatched),
                (Stage::FullText, SkipReason::OnlyObsoleteMatched),
            ];
            return self.finish(text, out, kept, hidden);
        }
        let fallback = Fallback { typed, live_names };
        self.fallback_stages(text, query, fallback, &mut kept, &mut hidden, &mut out)?;
        self.finish(text, out, kept, hidden)
    }

    /// Near spellings when the name matched nothing as typed, and full text unless a live
    /// concept matched as typed (and the caller did not ask for it beside names); what they
    /// find is kept as the name stages' candidates are.
    fn fallback_stages(
        &self,
        text: &str,
        query: &NameQuery,
        fallback: Fallback,
        kept: &mut Vec<NameCandidate>,
        hidden: &mut HashSet<ConceptId>,
        out: &mut NameSearch,
    ) -> Result<(), ResolveError> {
        if fallback.typed {
            out.stages_skipped
                .push((Stage::NearSpelling, SkipReason::NameMatchedAsTyped));
        } else {
            out.stages_tried.push(Stage::NearSpelling);
            let near = self.near_spelling_stage(text)?;
            kept.extend(self.keep(near, query, hidden)?);
        }
        // A name matched as typed is the answer; full text beside it only adds other
        // readings, at several times the cost of the rest, so it runs when asked for.
        let live_typed = fallback.typed
            && kept
                .iter()
                .any(|c| !c.obsolete && c.stage == Stage::ExactName);
        if live_typed && !query.full_text_beside_names {
            out.stages_skipped
                .push((Stage::FullText, SkipReason::NameMatchedAsTyped));
            return Ok(());
        }
        out.stages_tried.push(Stage::FullText);
        if fallback.live_names {
            // Beside name matches, full text only adds a few other readings.
            let (full_text, _) = self.full_text_stage(text, query, FULL_TEXT_DEPTH_BESIDE_NAMES)?;
            kept.extend(self.keep(full_text, query, hidden)?);
            return Ok(());
        }
        let (full_text, reach) = self.ranked_full_text(text, query, kept, hidden)?;
        out.text_reach = reach;
        kept.extend(full_text);
        Ok(())
    }

    /// Full-text hits, kept, as deep as the wanted positions need. Live full-text hits rank
    /// below every live name match, so the positions are settled once the live names and
    /// full-text hits outnumber them; a hit whose concept a name stage found is listed once, under its name.
    /// Deepens fourfold until then, up to [`FULL_TEXT_DEPTH`].
    fn ranked_full_text(
        &self,
        text: &str,
        query: &NameQuery,
        kept: &[NameCandidate],
        hidden: &mut HashSet<ConceptId>,
    ) -> Result<(Vec<NameCandidate>, TextReach), ResolveError> {
        let found: HashSet<ConceptId> = kept.iter().map(|c| c.concept).collect();
        // Only names rank above every full-text hit: near spellings and broader concepts are
        // guesses, ordered among full-text hits by confidence, so they settle no position.
        let live_found = kept
            .iter()
            .filter(|c| !c.obsolete && c.kind.names_the_concept())
            .count();
        let mut depth = query
            .wanted
            .saturating_add(found.len())
            .saturating_add(1)
            .clamp(1, FULL_TEXT_DEPTH);
        loop {
            let (hits, more_match) = self.full_text_stage(text, query, depth)?;
            let mut hidden_here = HashSet::new();
            let hits = self.keep(hits, query, &mut hidden_here)?;
            let live_new = hits
                .iter()
                .filter(|c| !c.obsolete && !found.contains(&c.concept))
                .count();
            let settled = live_found + live_new > query.wanted;
            if !more_match || settled || depth == FULL_TEXT_DEPTH {
                hidden.extend(hidden_here);
                let reach = match (more_match, depth == FULL_TEXT_DEPTH) {
                    (false, _) => TextReach::Every,
                    (true, true) => TextReach::Capped,
                    (true, false) => TextReach::Wanted,
                };
                return Ok((hits, reach));
            }
            depth = depth.saturating_mul(4).min(FULL_TEXT_DEPTH);
        }
    }

    /// The source filter for full text, as release keys: none when it selects every release
    /// the full-text index holds (inside the query it would only cost a scan of the source
    /// terms).
    fn text_filter(&self, query: &NameQuery<'_>) -> Option<Vec<String>> {
        self.r.releases().text_keys(query.sources)
    }

    /// Ranks the candidates and fills in what the answer says about them.
    fn finish(
        &self,
        text: &str,
        mut out: NameSearch,
        kept: Vec<NameCandidate>,
        hidden: HashSet<ConceptId>,
    ) -> Result<NameSearch, ResolveError> {
        let mut ranked = rank(kept, out.abbreviation);
        for c in &mut ranked {
            let (group, facet) = self.r.kind_of(c.concept)?;
            c.group = Some(group);
            c.facet = facet;
            c.source = self.r.files.flags.get(c.concept.0).map(|f| f.source);
        }
        out.candidates = crate::resolve::confidence::weigh_candidates(
            self.r.confidence_model(),
            ranked,
            text,
            out.abbreviation,
        );
        let mut matched: Vec<Stage> = out.candidates.iter().map(|c| c.stage).collect();
        matched.sort_unstable();
        matched.dedup();
        out.stages_matched = matched;
        out.hidden = hidden.into_iter().collect();
        out.hidden.sort_unstable();
        let decisive = out.decisive().to_vec();
        out.distinct_entities = self.distinct_entities(&decisive)?;
        Ok(out)
    }

    /// The candidates in the chosen sources and searchable; obsolete ones go to `hidden`
    /// unless asked for.
    fn keep(
        &self,
        found: Vec<NameCandidate>,
        query: &NameQuery,
        hidden: &mut HashSet<ConceptId>,
    ) -> Result<Vec<NameCandidate>, ResolveError> {
        let mut out = Vec::with_capacity(found.len());
        let mut status: HashMap<ConceptId, Option<bool>> = HashMap::new();
        for candidate in found {
            let Some(mut candidate) = self.in_wanted_release(candidate, query)? else {
                continue;
            };
            let obsolete = *status.entry(candidate.concept).or_insert_with(|| {
                let flags = self.r.files.flags.get(candidate.concept.0)?;
                (flags.searchable && self.source_wanted(flags.source, query.sources))
                    .then_some(flags.obsolete)
            });
            let Some(obsolete) = obsolete else {
                continue;
            };
            if obsolete && !query.include_obsolete {
                hidden.insert(candidate.concept);
                continue;
            }
            candidate.obsolete = obsolete;
            out.push(candidate);
        }
        Ok(out)
    }

    /// [`Self::keep`] for a pinned identifier's concepts: searchable, and obsolete ones
    /// hidden unless asked for, whatever their release.
    fn keep_pinned(
        &self,
        found: Vec<NameCandidate>,
        query: &NameQuery,
        hidden: &mut HashSet<ConceptId>,
    ) -> Vec<NameCandidate> {
        let mut out = Vec::new();
        for mut candidate in found {
            let Some(flags) = self.r.files.flags.get(candidate.concept.0) else {
                continue;
            };
            if !flags.searchable {
                continue;
            }
            if flags.obsolete && !query.include_obsolete {
                hidden.insert(candidate.concept);
                continue;
            }
            candidate.obsolete = flags.obsolete;
            out.push(candidate);
        }
        out
    }

    /// A candidate as the wanted release has it. A name that only an older release of a
    /// wanted source gives its concept becomes a former-label candidate of the same concept
    /// in the wanted release, ranked below current names; other matches in unwanted releases
    /// (near spellings, full text, or a concept the wanted release lacks) are dropped.
    fn in_wanted_release(
        &self,
        mut candidate: NameCandidate,
        query: &NameQuery,
    ) -> Result<Option<NameCandidate>, ResolveError> {
        let Some(flags) = self.r.files.flags.get(candidate.concept.0) else {
            return Ok(None);
        };
        if self.source_wanted(flags.source, query.sources) {
            return Ok(Some(candidate));
        }
        let Some(record) = self.r.manifest().sources.get(flags.source.slot()) else {
            return Ok(None);
        };
        let names_it =
            candidate.kind.names_the_concept() && candidate.kind != MatchKind::ViaMapping;
        if record.current || !names_it {
            return Ok(None);
        }
        let old = self.r.concept(candidate.concept)?;
        let wanted = (self.r.manifest().sources.iter().enumerate()).find_map(|(i, s)| {
            let i = SourceIdx::try_from(i).ok()?;
            (s.id == record.id && self.source_wanted(i, query.sources)).then_some(i)
        });
        let Some(wanted) = wanted else {
            return Ok(None);
        };
        let Some((concept, _)) = self.r.lexicon().by_iri(&old.iri, wanted)? else {
            return Ok(None);
        };
        candidate.concept = concept;
        candidate.kind = MatchKind::FormerLabel;
        candidate.weight = MatchKind::FormerLabel.weight();
        Ok(Some(candidate.scored()))
    }

    /// Candidates that are the same thing count as one entity: joined by an exact-match
    /// cross-reference in either record, by a curated exact mapping, or as a via-mapping
    /// candidate and the concept whose name led to it.
    fn distinct_entities(&self, candidates: &[NameCandidate]) -> Result<usize, ResolveError> {
        let mut ids: Vec<ConceptId> = candidates.iter().map(|c| c.concept).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.len() > MAX_ENTITY_GROUPING {
            return Ok(ids.len());
        }
        let position = |id: ConceptId| ids.binary_search(&id).ok();
        let mut group: Vec<usize> = (0..ids.len()).collect();
        fn root(group: &mut [usize], mut i: usize) -> usize {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        }
        let join = |group: &mut Vec<usize>, i: usize, j: usize| {
            let (ri, rj) = (root(group, i), root(group, j));
            group[ri] = rj;
        };
        for c in candidates {
            if let (Some(via), Some(i)) = (&c.via, position(c.concept))
                && let Some(j) = position(via.from)
            {
                join(&mut group, i, j);
            }
        }
        let concepts: Vec<ConceptIdentity> = ids
            .iter()
            .map(|&id| self.r.identity(id))
            .collect::<Result<_, _>>()?;
        for (i, a) in concepts.iter().enumerate() {
            for (j, b) in concepts.iter().enumerate().skip(i + 1) {
                if same_entity(a, b) || same_entity(b, a) {
                    join(&mut group, i, j);
                }
            }
            // A damaged mapping record only loses a join here; the via stage reports it.
            for (target, _) in self.curated_exact_targets(ids[i]).unwrap_or_default() {
                if let Some(j) = position(target) {
                    join(&mut group, i, j);
                }
            }
        }
        Ok((0..ids.len()).filter(|&i| root(&mut group, i) == i).count())
    }

    /// Whether the filter selects this source release: a plain id its current release,
    /// `id@release` that release; no filter, every current release.
    fn source_wanted(&self, source: SourceIdx, sources: Option<&[String]>) -> bool {
        let Some(record) = self.r.manifest().sources.get(source.slot()) else {
            return false;
        };
        match sources {
            None => record.current,
            Some(wanted) => wanted.iter().any(|w| record.selected_by(w)),
        }
    }
}

/// What the name stages left the fallback stages to decide by.
#[derive(Clone, Copy)]
struct Fallback {
    /// A label or synonym matched the name as typed, in any source.
    typed: bool,
    /// A live concept is among the name stages' candidates.
    live_names: bool,
}

/// Each concept once, under its best match; live before obsolete; for abbreviations,
/// case-exact name matches first.
fn rank(mut found: Vec<NameCandidate>, abbreviation: bool) -> Vec<NameCandidate> {
    let case_first = |c: &NameCandidate| abbreviation && !c.case_exact;
    found.sort_by(|a, b| {
        a.obsolete
            .cmp(&b.obsolete)
            .then(case_first(a).cmp(&case_first(b)))
            .then(a.tier().cmp(&b.tier()))
            .then(b.score.total_cmp(&a.score))
            .then(a.name_rewritten.cmp(&b.name_rewritten))
            .then(b.case_exact.cmp(&a.case_exact))
            .then(a.kind.cmp(&b.kind))
            .then(a.concept.cmp(&b.concept))
    });
    let mut seen = HashSet::new();
    found.retain(|c| seen.insert(c.concept));
    found
}

/// A short input in capitals, digits allowed ("DMD", "BRCA1", "WD"): an abbreviation or a
/// symbol, where letter case carries meaning.
fn is_abbreviation(text: &str) -> bool {
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    text.chars().count() <= MAX_ABBREVIATION_CHARS
        && letters >= 2
        && text
            .chars()
            .all(|c| c.is_uppercase() || c.is_ascii_digit() || c == '-')
}

/// Whether `a` states that it is the same entity as `b` (an exact-match cross-reference to
/// `b`'s identifier).
fn same_entity(a: &ConceptIdentity, b: &ConceptIdentity) -> bool {
    a.xrefs.iter().any(|x| {
        x.kind == XrefKind::ExactMatch
            && (x.target == b.iri
                || b.curie
                    .as_deref()
                    .is_some_and(|curie| x.target.eq_ignore_ascii_case(curie)))
    })
}

/// Whether two names have the same letters and digits in the same case (spacing and
/// punctuation aside): a match that only folded case is not case-exact.
fn same_letters(a: &str, b: &str) -> bool {
    a.chars()
        .filter(|c| c.is_alphanumeric())
        .eq(b.chars().filter(|c| c.is_alphanumeric()))
}

/// The penalties behind a score: per edit of a near spelling, and for letter case where it
/// counts (an identifier, a name as typed, and what a name led to through a mapping).
pub fn penalties(candidate: &NameCandidate) -> (f64, f64) {
    let edits = EDIT_PENALTY * f64::from(candidate.distance.unwrap_or(0));
    let case_counts = matches!(
        candidate.stage,
        Stage::Identifier | Stage::ExactName | Stage::ViaMapping
    );
    let case = if candidate.case_exact || !case_counts {
        0.0
    } else {
        CASE_PENALTY
    };
    (edits, case)
}
