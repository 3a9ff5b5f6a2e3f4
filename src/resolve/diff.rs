//! "What changed between two releases?": the changes between two loaded releases of one
//! source, typed with the KGCL change classes that OAK's diff uses. Both releases' concepts sit
//! in the concept table in IRI order, so a whole-source diff is one merge walk over the two
//! ranges, in IRI order, never a scan of anything else.
//!
//! Rules: a term new in the later release is one `NodeCreation`, whatever its status; a term
//! gone is a `NodeDeletion` (naming the term that lists it as an alternative id, when one
//! does). A term live in the earlier release and obsolete in the later gets exactly one
//! obsoletion change: `NodeDirectMerge` when a live term lists it as an alternative id, else
//! `NodeObsoletionWithDirectReplacement` when it has a replaced_by, else `NodeObsoletion`.
//! Content changes (label, synonyms, parents, definitions, cross-references) are reported for
//! terms live in both releases: an obsoletion's new label is no rename.

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::sync::Arc;

use super::Spelling;
use crate::index::normalize::id_key;
use crate::model::{Concept, ReplacementKind, SourceIdx};

use super::{ConceptId, ResolveError, Resolver};

/// The KGCL change classes a diff reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChangeKind {
    NodeCreation,
    NodeDeletion,
    NodeRename,
    NodeObsoletion,
    NodeObsoletionWithDirectReplacement,
    NodeDirectMerge,
    NodeUnobsoletion,
    NewSynonym,
    RemoveSynonym,
    SynonymPredicateChange,
    PlaceUnder,
    RemoveUnder,
    NewTextDefinition,
    RemoveTextDefinition,
    TextDefinitionReplacement,
    NewMapping,
    RemoveMapping,
}

impl ChangeKind {
    pub const ALL: [ChangeKind; 17] = [
        ChangeKind::NodeCreation,
        ChangeKind::NodeDeletion,
        ChangeKind::NodeRename,
        ChangeKind::NodeObsoletion,
        ChangeKind::NodeObsoletionWithDirectReplacement,
        ChangeKind::NodeDirectMerge,
        ChangeKind::NodeUnobsoletion,
        ChangeKind::NewSynonym,
        ChangeKind::RemoveSynonym,
        ChangeKind::SynonymPredicateChange,
        ChangeKind::PlaceUnder,
        ChangeKind::RemoveUnder,
        ChangeKind::NewTextDefinition,
        ChangeKind::RemoveTextDefinition,
        ChangeKind::TextDefinitionReplacement,
        ChangeKind::NewMapping,
        ChangeKind::RemoveMapping,
    ];
}

/// One change, in OAK's field names; identifiers as the source prints them (CURIEs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub kind: ChangeKind,
    pub about_node: String,
    /// The term's IRI as the store holds it (`about_node` is its CURIE where it has one).
    pub about_iri: String,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    /// Obsoletions: every replaced_by, normalized.
    pub has_direct_replacement: Vec<String>,
    /// Obsoletions: every consider, normalized.
    pub consider: Vec<String>,
}

impl Change {
    fn new(kind: ChangeKind, about: &str) -> Change {
        Change {
            kind,
            about_node: about.to_string(),
            about_iri: String::new(),
            old_value: None,
            new_value: None,
            has_direct_replacement: Vec::new(),
            consider: Vec::new(),
        }
    }

    fn old(mut self, value: impl Into<String>) -> Change {
        self.old_value = Some(value.into());
        self
    }

    fn new_value(mut self, value: impl Into<String>) -> Change {
        self.new_value = Some(value.into());
        self
    }
}

/// Two loaded releases of one source, earlier (`from`) and later (`to`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReleasePair {
    pub source: String,
    pub from: String,
    pub to: String,
    from_idx: SourceIdx,
    to_idx: SourceIdx,
}

/// How many release pairs' changes a resolver keeps: a client pages through a few at a time.
const DIFFS_KEPT: usize = 4;

/// The changes of the release pairs asked for lately, each computed once.
#[derive(Default)]
pub(super) struct DiffCache(std::sync::Mutex<Vec<(PairKey, Arc<[Change]>)>>);

/// A release pair by its source slots, older first.
type PairKey = (SourceIdx, SourceIdx);

impl DiffCache {
    fn get(&self, key: PairKey) -> Option<Arc<[Change]>> {
        let kept = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.iter().find(|(k, _)| *k == key).map(|(_, c)| c.clone())
    }

    fn put(&self, key: PairKey, changes: Arc<[Change]>) {
        let mut kept = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.retain(|(k, _)| *k != key);
        if kept.len() >= DIFFS_KEPT {
            kept.remove(0);
        }
        kept.push((key, changes));
    }
}

/// Why two releases cannot be compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffError {
    UnknownSource {
        source: String,
        loaded: Vec<String>,
    },
    UnknownRelease {
        source: String,
        release: String,
        loaded: Vec<String>,
    },
    SameRelease {
        release: String,
    },
    /// `to` is the earliest loaded release, so no default `from` precedes it.
    NoEarlier {
        release: String,
    },
    OneRelease {
        source: String,
        release: String,
    },
}

impl std::error::Error for DiffError {}

impl std::fmt::Display for DiffError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiffError::UnknownSource { source, loaded } => write!(
                f,
                "unknown source '{source}'; loaded sources: {}",
                loaded.join(", ")
            ),
            DiffError::UnknownRelease {
                source,
                release,
                loaded,
            } => write!(
                f,
                "release '{release}' of {source} is not loaded; loaded releases: {}",
                loaded.join(", ")
            ),
            DiffError::SameRelease { release } => {
                write!(
                    f,
                    "from and to are both release '{release}'; name two releases"
                )
            }
            DiffError::NoEarlier { release } => write!(
                f,
                "no loaded release is earlier than '{release}'; name `from`"
            ),
            DiffError::OneRelease { source, release } => write!(
                f,
                "{source} has one release loaded ({release}); add another release to the catalogue to compare"
            ),
        }
    }
}

/// One comparison of two loaded releases of a source, over the resolver's readers.
pub(crate) struct ReleaseDiff<'r> {
    r: &'r Resolver,
}

impl<'r> ReleaseDiff<'r> {
    pub(crate) fn new(r: &'r Resolver) -> Self {
        ReleaseDiff { r }
    }
}

impl<'r> ReleaseDiff<'r> {
    /// The two releases of `source` to compare: `from` and `to` as named, by default the two
    /// newest loaded (the current one and the one before it in release order).
    pub fn release_pair(
        &self,
        source: &str,
        from: Option<&str>,
        to: Option<&str>,
    ) -> Result<ReleasePair, DiffError> {
        let manifest = self.r.manifest();
        let releases: Vec<(u16, &str)> = manifest
            .sources
            .iter()
            .enumerate()
            .filter(|(_, s)| s.id == source)
            .filter_map(|(i, s)| Some((u16::try_from(i).ok()?, s.release.as_str())))
            .collect();
        let Some(current) = manifest.source(source) else {
            return Err(DiffError::UnknownSource {
                source: source.to_string(),
                loaded: manifest.source_ids(),
            });
        };
        if releases.len() < 2 {
            return Err(DiffError::OneRelease {
                source: source.to_string(),
                release: current.release.clone(),
            });
        }
        let find = |release: &str| {
            releases
                .iter()
                .find(|(_, r)| *r == release)
                .copied()
                .ok_or_else(|| DiffError::UnknownRelease {
                    source: source.to_string(),
                    release: release.to_string(),
                    loaded: releases.iter().map(|(_, r)| r.to_string()).collect(),
                })
        };
        let ordered = release_order(&releases);
        let to = match to {
            Some(r) => find(r)?,
            None => find(&current.release)?,
        };
        let from = match from {
            Some(r) => find(r)?,
            None => {
                let at = ordered.iter().position(|x| x.0 == to.0).unwrap_or(0);
                match at.checked_sub(1).and_then(|i| ordered.get(i)) {
                    Some(&earlier) => earlier,
                    None => {
                        return Err(DiffError::NoEarlier {
                            release: to.1.to_string(),
                        });
                    }
                }
            }
        };
        if from.0 == to.0 {
            return Err(DiffError::SameRelease {
                release: to.1.to_string(),
            });
        }
        Ok(ReleasePair {
            source: source.to_string(),
            from: from.1.to_string(),
            to: to.1.to_string(),
            from_idx: SourceIdx(from.0),
            to_idx: SourceIdx(to.0),
        })
    }

    /// The named graphs of the pair's two releases, earlier first.
    pub fn pair_graphs(&self, pair: &ReleasePair) -> (String, String) {
        let graph = |i: SourceIdx| {
            self.r
                .manifest()
                .sources
                .get(i.slot())
                .map(|s| s.graph.clone())
                .unwrap_or_default()
        };
        (graph(pair.from_idx), graph(pair.to_idx))
    }

    /// Every change between the pair's releases, in IRI order (a term's changes together):
    /// computed on the first call for the pair, then read from the resolver's cache.
    pub fn diff_source(&self, pair: &ReleasePair) -> Result<Arc<[Change]>, ResolveError> {
        let key = (pair.from_idx, pair.to_idx);
        if let Some(changes) = self.r.diffs.get(key) {
            return Ok(changes);
        }
        let changes: Arc<[Change]> = self.compute_source_diff(pair)?.into();
        self.r.diffs.put(key, changes.clone());
        Ok(changes)
    }

    /// Every change between the pair's releases: both releases' concepts walked in IRI order.
    fn compute_source_diff(&self, pair: &ReleasePair) -> Result<Vec<Change>, ResolveError> {
        let mut older = self.release_concepts(pair.from_idx);
        let mut newer = self.release_concepts(pair.to_idx);
        let (mut a, mut b) = (older.next().transpose()?, newer.next().transpose()?);
        let mut out = Vec::new();
        loop {
            let order = match (&a, &b) {
                (None, None) => break,
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some(x), Some(y)) => x.iri.cmp(&y.iri),
            };
            match order {
                Ordering::Less => {
                    out.extend(self.changes(pair, a.as_ref(), None)?);
                    a = older.next().transpose()?;
                }
                Ordering::Greater => {
                    out.extend(self.changes(pair, None, b.as_ref())?);
                    b = newer.next().transpose()?;
                }
                Ordering::Equal => {
                    out.extend(self.changes(pair, a.as_ref(), b.as_ref())?);
                    a = older.next().transpose()?;
                    b = newer.next().transpose()?;
                }
            }
        }
        Ok(out)
    }

    /// The changes of one term between the pair's releases (none when it did not change or
    /// neither release has it).
    pub fn diff_concept(&self, pair: &ReleasePair, iri: &str) -> Result<Vec<Change>, ResolveError> {
        let a = self.r.lexicon().by_iri(iri, pair.from_idx)?.map(|(_, c)| c);
        let b = self.r.lexicon().by_iri(iri, pair.to_idx)?.map(|(_, c)| c);
        self.changes(pair, a.as_ref(), b.as_ref())
    }

    /// The concepts of one source release, in IRI order (the table's order).
    fn release_concepts(
        &self,
        source: SourceIdx,
    ) -> impl Iterator<Item = Result<Concept, ResolveError>> + '_ {
        let record = self.r.manifest().sources.get(source.slot());
        let first = record.map_or(0, |r| r.first_concept);
        let count = record.map_or(0, |r| r.counts.concepts);
        let end = u32::try_from(u64::from(first) + count).unwrap_or(u32::MAX);
        (first..end).map(move |id| self.r.concept(ConceptId(id)))
    }

    fn changes(
        &self,
        pair: &ReleasePair,
        a: Option<&Concept>,
        b: Option<&Concept>,
    ) -> Result<Vec<Change>, ResolveError> {
        let mut changes = self.term_or_node_changes(pair, a, b)?;
        if let Some(term) = b.or(a) {
            for change in &mut changes {
                change.about_iri.clone_from(&term.iri);
            }
        }
        Ok(changes)
    }

    fn term_or_node_changes(
        &self,
        pair: &ReleasePair,
        a: Option<&Concept>,
        b: Option<&Concept>,
    ) -> Result<Vec<Change>, ResolveError> {
        Ok(match (a, b) {
            (None, None) => Vec::new(),
            (None, Some(b)) => vec![Change::new(ChangeKind::NodeCreation, &self.printed(b))],
            (Some(a), None) => {
                let about = self.printed(a);
                let mut change = Change::new(ChangeKind::NodeDeletion, &about);
                if let Some(holder) = self.alt_id_holder(&about, pair.to_idx)? {
                    change = change.new_value(holder);
                }
                vec![change]
            }
            (Some(a), Some(b)) => match (a.obsolete, b.obsolete) {
                (false, true) => vec![self.obsoletion(pair, &self.printed(b), b)?],
                (true, false) => vec![Change::new(ChangeKind::NodeUnobsoletion, &self.printed(b))],
                (true, true) => Vec::new(),
                (false, false) => self.term_changes(a, b),
            },
        })
    }

    /// The changes of a term live in both releases.
    fn term_changes(&self, a: &Concept, b: &Concept) -> Vec<Change> {
        let about = self.printed(b);
        let mut out = Vec::new();
        let label = |c: &Concept| c.preferred_label().map(|l| l.text.clone());
        if let (Some(old), Some(new)) = (label(a), label(b))
            && old != new
        {
            out.push(
                Change::new(ChangeKind::NodeRename, &about)
                    .old(old)
                    .new_value(new),
            );
        }
        synonym_changes(&about, a, b, &mut out);
        let parents = |c: &Concept| -> BTreeSet<String> {
            c.parents.iter().map(|l| self.printed_iri(&l.iri)).collect()
        };
        set_changes(
            &about,
            parents(a),
            parents(b),
            ChangeKind::RemoveUnder,
            ChangeKind::PlaceUnder,
            &mut out,
        );
        definition_changes(&about, a, b, &mut out);
        let xrefs = |c: &Concept| -> BTreeSet<String> {
            c.xrefs.iter().map(|x| x.target.clone()).collect()
        };
        set_changes(
            &about,
            xrefs(a),
            xrefs(b),
            ChangeKind::RemoveMapping,
            ChangeKind::NewMapping,
            &mut out,
        );
        out
    }

    /// Exactly one change for a term that became obsolete.
    fn obsoletion(
        &self,
        pair: &ReleasePair,
        about: &str,
        b: &Concept,
    ) -> Result<Change, ResolveError> {
        let targets = |kind| -> Vec<String> {
            b.replacements_of(kind)
                .map(|r| self.printed_iri(&r.target))
                .collect()
        };
        let replaced_by = targets(ReplacementKind::ReplacedBy);
        let consider = targets(ReplacementKind::Consider);
        let holder = self.alt_id_holder(about, pair.to_idx)?;
        let mut change = match (&holder, replaced_by.is_empty()) {
            (Some(holder), _) => Change::new(ChangeKind::NodeDirectMerge, about).new_value(holder),
            (None, false) => Change::new(ChangeKind::NodeObsoletionWithDirectReplacement, about),
            (None, true) => Change::new(ChangeKind::NodeObsoletion, about),
        };
        change.has_direct_replacement = replaced_by;
        change.consider = consider;
        Ok(change)
    }

    /// The live term of a release that lists `curie` as an alternative id.
    fn alt_id_holder(
        &self,
        curie: &str,
        release: SourceIdx,
    ) -> Result<Option<String>, ResolveError> {
        let alt = Spelling::AltId.detail();
        for p in self.r.files.ids.get(&id_key(curie))? {
            if p.detail != alt {
                continue;
            }
            let c = self.r.concept(ConceptId(p.concept))?;
            if c.source == release && !c.obsolete && c.alt_ids.iter().any(|x| x == curie) {
                return Ok(Some(self.printed(&c)));
            }
        }
        Ok(None)
    }

    /// A concept's identifier as its source prints it.
    fn printed(&self, c: &Concept) -> String {
        c.curie.clone().unwrap_or_else(|| c.iri.clone())
    }

    /// An IRI (or a replacement as written) as a CURIE where the registry can say one.
    fn printed_iri(&self, iri: &str) -> String {
        use crate::model::Prefixes;
        self.r
            .registry()
            .compress(iri)
            .unwrap_or_else(|| iri.to_string())
    }
}

/// The releases in release order: by date where every one is a date, else catalogue order.
fn release_order<'a>(releases: &[(u16, &'a str)]) -> Vec<(u16, &'a str)> {
    let mut ordered = releases.to_vec();
    let dates = releases
        .iter()
        .all(|(_, r)| crate::model::compare_releases(r, r).is_some());
    // A stable sort keeps catalogue order among equal dates.
    if dates {
        ordered.sort_by(|a, b| crate::model::compare_releases(a.1, b.1).unwrap_or(Ordering::Equal));
    }
    ordered
}

/// A synonym's predicate by its local name (`hasExactSynonym`, `altLabel`).
fn predicate_name(kind: crate::model::LabelKind) -> &'static str {
    let iri = kind.predicate();
    iri.rsplit(['#', '/']).next().unwrap_or(iri)
}

fn synonym_changes(about: &str, a: &Concept, b: &Concept, out: &mut Vec<Change>) {
    use std::collections::BTreeMap;
    let synonyms = |c: &Concept| -> BTreeMap<String, BTreeSet<&'static str>> {
        let mut map: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
        for l in c.labels.iter().filter(|l| !l.kind.is_primary()) {
            map.entry(l.text.clone())
                .or_default()
                .insert(predicate_name(l.kind));
        }
        map
    };
    let (old, new) = (synonyms(a), synonyms(b));
    let joined = |kinds: &BTreeSet<&str>| kinds.iter().copied().collect::<Vec<_>>().join(" ");
    for (text, kinds) in &new {
        match old.get(text) {
            None => out.push(Change::new(ChangeKind::NewSynonym, about).new_value(text.clone())),
            Some(was) if was != kinds => out.push(
                Change::new(ChangeKind::SynonymPredicateChange, about)
                    .old(format!("{text} {}", joined(was)))
                    .new_value(format!("{text} {}", joined(kinds))),
            ),
            Some(_) => {}
        }
    }
    for text in old.keys().filter(|t| !new.contains_key(*t)) {
        out.push(Change::new(ChangeKind::RemoveSynonym, about).old(text.clone()));
    }
}

fn definition_changes(about: &str, a: &Concept, b: &Concept, out: &mut Vec<Change>) {
    let first = |c: &Concept| c.definitions.first().map(|d| d.text.clone());
    match (first(a), first(b)) {
        (None, Some(new)) => {
            out.push(Change::new(ChangeKind::NewTextDefinition, about).new_value(new))
        }
        (Some(old), None) => {
            out.push(Change::new(ChangeKind::RemoveTextDefinition, about).old(old))
        }
        (Some(old), Some(new)) if old != new => out.push(
            Change::new(ChangeKind::TextDefinitionReplacement, about)
                .old(old)
                .new_value(new),
        ),
        _ => {}
    }
}

fn set_changes(
    about: &str,
    old: BTreeSet<String>,
    new: BTreeSet<String>,
    removed: ChangeKind,
    added: ChangeKind,
    out: &mut Vec<Change>,
) {
    for gone in old.difference(&new) {
        out.push(Change::new(removed, about).old(gone.clone()));
    }
    for came in new.difference(&old) {
        out.push(Change::new(added, about).new_value(came.clone()));
    }
}
