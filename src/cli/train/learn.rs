//! Names learned from a corpus: a mention text that training documents write for one MeSH
//! concept, at least twice and nine times in ten, which no loaded source gives that concept
//! (no name stage finds it). Each is kept with its corpus and count, never with the text
//! around it.

use std::collections::BTreeMap;

use ontoresolve::index::confidence::LearnedName;
use ontoresolve::resolve::{MatchKind, Resolver, name_key};

use super::corpus::Document;
use super::rows::{Corpus, MeshIds, Searches};

/// A name is learned only when written this often for its concept...
const MIN_MENTIONS: u32 = 2;
/// ...and for that concept at least this share of the times it is written.
const MIN_SHARE: f64 = 0.9;
/// Shorter names are abbreviations, which a passage defines where it uses them.
const MIN_CHARS: usize = 3;

/// How often a concept was written under one name key: in all, and per surface form.
type Written = (u32, BTreeMap<String, u32>);

/// The names `corpus` teaches from the documents `keep` selects, given each mention's
/// searches without learned names (`searches`, over every training document).
pub fn learn_names(
    r: &Resolver,
    corpus: &Corpus,
    searches: &Searches,
    ids: &mut MeshIds,
    keep: &dyn Fn(&Document) -> bool,
) -> anyhow::Result<Vec<LearnedName>> {
    // Per name key: per concept, the count and each surface form's count.
    let mut seen: BTreeMap<String, BTreeMap<String, Written>> = BTreeMap::new();
    for doc in corpus.docs.iter().filter(|d| keep(d)) {
        for g in doc.gold.iter().filter(|g| g.ids.len() == 1) {
            let key = name_key(&g.text);
            if key.chars().count() < MIN_CHARS {
                continue;
            }
            let entry = seen
                .entry(key)
                .or_default()
                .entry(g.ids[0].clone())
                .or_default();
            entry.0 += 1;
            *entry.1.entry(g.text.clone()).or_default() += 1;
        }
    }
    let mut by_text: BTreeMap<&str, usize> = BTreeMap::new();
    for (at, s) in searches.searches.iter().enumerate() {
        by_text.insert(&s.text, at);
    }
    let mut out = Vec::new();
    for concepts in seen.into_values() {
        let total: u32 = concepts.values().map(|c| c.0).sum();
        let Some((id, (count, forms))) = concepts
            .iter()
            .max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.0.cmp(a.0)))
        else {
            continue;
        };
        if *count < MIN_MENTIONS || f64::from(*count) < MIN_SHARE * f64::from(total) {
            continue;
        }
        let Some((surface, _)) = forms.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))) else {
            continue;
        };
        let curie = format!("MESH:{id}");
        if r.lexicon().lookup_id(&curie)?.is_empty() {
            continue;
        }
        // A name a source already gives the concept is no corpus name.
        let named = match by_text.get(surface.as_str()) {
            Some(&at) => {
                let mut named = false;
                for c in &searches.searches[at].candidates {
                    if c.kind.names_the_concept()
                        && c.kind != MatchKind::CorpusName
                        && ids.of(r, c.concept)?.as_deref() == Some(id.as_str())
                    {
                        named = true;
                        break;
                    }
                }
                named
            }
            None => false,
        };
        if named {
            continue;
        }
        out.push(LearnedName {
            name: surface.clone(),
            concept: curie,
            corpus: corpus.id.to_string(),
            mentions: *count,
        });
    }
    Ok(out)
}
