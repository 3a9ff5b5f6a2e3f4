//! The name searches a passage runs: each text once per passage, names only (a passage's
//! words are not typos of names), with broader concepts when a class phrase asks for them, and
//! the heading a record states after its names.

use super::PassageScan;
use super::{Scan, then_unseen};
use crate::resolve::ResolveError;
use crate::resolve::search::{MatchKind, NameCandidate, NameQuery};

impl<'r> PassageScan<'r> {
    /// The candidates of the surface completed by the first omitted head that names a concept
    /// in the wanted sources, each a name variant (the passage wrote less than the name).
    pub(super) fn names_with_omitted_head(
        &self,
        scan: &Scan<'_>,
        surface: &str,
    ) -> Result<Vec<NameCandidate>, ResolveError> {
        for head in self.omitted_heads() {
            let found = self.names_only(scan, &format!("{surface} {head}"))?;
            if !found.is_empty() {
                // Only names become name variants: a heading stays broader.
                return Ok(found
                    .into_iter()
                    .map(|c| {
                        if c.kind.names_the_concept() {
                            c.into_name_variant()
                        } else {
                            c
                        }
                    })
                    .collect());
            }
        }
        Ok(Vec::new())
    }

    /// A name search whose candidates all name the concept (no near spellings or full text:
    /// a passage's words are not typos of names).
    pub(super) fn names_only(
        &self,
        scan: &Scan<'_>,
        text: &str,
    ) -> Result<Vec<NameCandidate>, ResolveError> {
        self.passage_names(scan, text, false)
    }

    /// [`Self::names_only`], with broader concepts through an ancestor's mapping.
    pub(super) fn names_or_broader(
        &self,
        scan: &Scan<'_>,
        text: &str,
    ) -> Result<Vec<NameCandidate>, ResolveError> {
        self.passage_names(scan, text, true)
    }

    /// Each text is searched once per passage (a passage names the same things again), with
    /// broader concepts or without: the two are cached apart.
    fn passage_names(
        &self,
        scan: &Scan<'_>,
        text: &str,
        broader: bool,
    ) -> Result<Vec<NameCandidate>, ResolveError> {
        let key = if broader {
            format!("\u{1}{text}")
        } else {
            text.to_string()
        };
        if let Some(found) = scan.searched.borrow().get(&key) {
            return Ok(found.clone());
        }
        let query = NameQuery {
            text,
            sources: scan.query.sources,
            include_obsolete: false,
            full_text_beside_names: false,
            // Names only: no full text to rank.
            wanted: 0,
        };
        let mut search = if broader {
            crate::resolve::search::NameSearcher::new(self.r).find_names_or_broader(&query)?
        } else {
            crate::resolve::search::NameSearcher::new(self.r).find_names(&query)?
        };
        search.candidates.retain(|c| {
            c.kind.names_the_concept() || (broader && c.kind == MatchKind::BroaderViaMapping)
        });
        // The heading a record is indexed under follows the names (MeSH's supplementary
        // "Breast Cancer, Familial" → Breast Neoplasms): broader, never first.
        if let Some(first) = search.candidates.first()
            && first.kind.names_the_concept()
        {
            let headings =
                crate::resolve::search::NameSearcher::new(self.r).stated_broader(&query, first)?;
            then_unseen(&mut search.candidates, headings);
        }
        if let Some(groups) = scan.query.groups {
            let mut kept = Vec::with_capacity(search.candidates.len());
            for mut c in search.candidates {
                let group = match c.group {
                    Some(group) => group,
                    None => {
                        let (group, facet) = self.r.kind_of(c.concept)?;
                        c.facet = facet;
                        group
                    }
                };
                c.group = Some(group);
                if groups.contains(&group) {
                    kept.push(c);
                }
            }
            // Ranked and weighed again among what is left: an excluded concept is no rival.
            search.candidates = crate::resolve::confidence::weigh_candidates(
                self.r.confidence_model(),
                kept,
                text,
                search.abbreviation,
            );
        }
        scan.searched
            .borrow_mut()
            .insert(key, search.candidates.clone());
        Ok(search.candidates)
    }
}
