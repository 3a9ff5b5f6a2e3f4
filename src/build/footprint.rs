//! Recording a source's prefix footprint while it is read: [`PrefixUse`] answers as the
//! registry does and notes every CURIE prefix or IRI namespace that the Bioregistry alone did
//! not answer, so that a later build can tell whether a prefix the catalogue declares anew
//! touches this source (`reuse`).

use std::sync::Mutex;

use crate::catalog::SourceSpec;
use crate::model::{FootprintRecorder, PrefixFootprint, PrefixRecord, Prefixes, RecordOrigin};
use crate::registry::{Reading, Registry, expandable_curie, fold_scheme_and_host};

/// The registry, seen by one source's reading.
pub(super) struct PrefixUse<'r> {
    registry: &'r Registry,
    /// The prefixes the source declares itself (lower case): its entry is compared on its own.
    own: Vec<String>,
    seen: Mutex<FootprintRecorder>,
}

impl<'r> PrefixUse<'r> {
    pub(super) fn new(registry: &'r Registry, spec: &SourceSpec) -> PrefixUse<'r> {
        PrefixUse {
            registry,
            own: spec
                .prefixes
                .iter()
                .map(|p| p.prefix.to_ascii_lowercase())
                .collect(),
            seen: Mutex::new(FootprintRecorder::default()),
        }
    }

    /// The footprint recorded so far, in sorted order.
    pub(super) fn footprint(&self) -> PrefixFootprint {
        match self.seen.lock() {
            Ok(seen) => seen.finish(),
            Err(_) => PrefixFootprint {
                overflow: true,
                ..PrefixFootprint::default()
            },
        }
    }

    /// Locks only when there is something to note: most lookups have nothing.
    fn note(&self, prefix: Option<&str>, iri: Option<&str>) {
        if (prefix.is_some() || iri.is_some())
            && let Ok(mut seen) = self.seen.lock()
        {
            note(&mut seen, &self.own, prefix, iri);
        }
    }
}

/// What a registry reading of `written` (an IRI or a CURIE) adds to a footprint: a prefix it
/// did not know, or whose record only the catalogue declares; and the IRI, when it was not
/// read under a record.
pub(super) fn noted<'a>(
    registry: &'a Registry,
    written: &'a str,
    reading: &'a Reading,
) -> (Option<&'a str>, Option<&'a str>) {
    let iri = written.contains("://").then_some(written);
    match reading {
        Reading::Identifier(id) => {
            let prefix = registry
                .record(id.record)
                .and_then(catalogue_only)
                .map(|r| r.preferred.as_str());
            (prefix, iri.filter(|_| id.local.is_empty()))
        }
        Reading::UnknownPrefix { prefix } => (Some(prefix), iri),
        Reading::UnknownNamespace { .. } => (None, iri),
        Reading::Empty | Reading::Bare { .. } => (None, None),
    }
}

/// Notes a prefix (unless `own` declares it) and an IRI's namespace.
pub(super) fn note(
    seen: &mut FootprintRecorder,
    own: &[String],
    prefix: Option<&str>,
    iri: Option<&str>,
) {
    if let Some(prefix) = prefix {
        let folded = prefix.to_ascii_lowercase();
        if !own.contains(&folded) {
            seen.prefix(&folded);
        }
    }
    if let Some(iri) = iri {
        seen.namespace(&fold_scheme_and_host(iri));
    }
}

/// A record that only a catalogued source declares: a reading through it depends on that.
fn catalogue_only(record: &PrefixRecord) -> Option<&PrefixRecord> {
    (record.origin == RecordOrigin::Catalogue).then_some(record)
}

impl Prefixes for PrefixUse<'_> {
    fn expand(&self, curie: &str) -> Option<String> {
        let (written, local) = expandable_curie(curie)?;
        let Some(hit) = self.registry.spelling(written) else {
            self.note(Some(written), None);
            return None;
        };
        let record = self.registry.record(hit.record)?;
        self.note(catalogue_only(record).map(|r| r.preferred.as_str()), None);
        Some(format!("{}{local}", record.expansion_base()?))
    }

    /// As [`Registry`] compresses; an IRI it reads under no Bioregistry record is noted.
    fn compress(&self, iri: &str) -> Option<String> {
        let reading = self.registry.normalize(iri).reading;
        let (prefix, namespace) = noted(self.registry, iri, &reading);
        self.note(prefix, namespace);
        match reading {
            Reading::Identifier(id) if !id.local.is_empty() => Some(id.curie),
            _ => None,
        }
    }
}
