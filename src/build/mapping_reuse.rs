//! Taking the installed mapping index as it stands when nothing it is made of changed, so that
//! adding or removing an older release (whose cross-references never feed the mapping index)
//! reads no mapping set and no source's cross-references again.
//!
//! The mapping index is made of the registry, the catalogue's declared prefixes, the current
//! sources' cross-references (numbered among the current sources) and every mapping set. A
//! digest of those inputs (`Manifest::mapping_inputs`) is recorded by every build; a build
//! whose current sources are all reused and whose digest equals the installed one links the
//! installed mapping files, after checking them against their recorded checksums.

use std::path::Path;

use sha2::{Digest, Sha256};

use super::registry::input_file;
use super::reuse::{Previous, entry_fingerprint};
use super::{BuildError, BuildObserver, hex, io_err, is_mapping_set};
use crate::catalog::Catalog;
use crate::index::manifest::{
    MappingIndexCounts, MappingSetRecord, RegistryRecord, SkippedSource, SourceRecord,
};
use crate::index::{BuildLayout, FORMAT_VERSION};

/// The digest of the mapping index's inputs other than the current sources: the format, the
/// registry's files, the declared prefixes and every mapping set's entry and files.
fn fixed_inputs(catalog: &Catalog, registry: &RegistryRecord) -> Result<String, BuildError> {
    let mut digest = Sha256::new();
    let mut note = |part: &str| {
        digest.update(part.as_bytes());
        digest.update([0]);
    };
    note(&FORMAT_VERSION.to_string());
    for file in registry.source.iter().flat_map(|s| &s.files) {
        note(&file.sha256);
    }
    note(&serde_json::to_string(&super::declared_prefixes(catalog)).unwrap_or_default());
    for spec in catalog.sources.iter().filter(|s| is_mapping_set(s)) {
        note(&spec.id);
        note(&entry_fingerprint(spec));
        let written = std::iter::once(&spec.path).chain(&spec.more_paths);
        for (file, written) in catalog.files(spec).iter().zip(written) {
            if file.is_file() {
                note(&input_file(written, file)?.sha256);
            } else {
                note("missing");
            }
        }
    }
    Ok(hex(&digest.finalize()))
}

/// The digest of everything the mapping index is made of: `fixed` ([`fixed_inputs`]) and the
/// build's current source records in load order.
fn mapping_inputs<'r>(fixed: &str, current: impl Iterator<Item = &'r SourceRecord>) -> String {
    let mut digest = Sha256::new();
    digest.update(fixed.as_bytes());
    for record in current {
        for part in [&record.graph, &record.entry] {
            digest.update(part.as_bytes());
            digest.update([0]);
        }
        for file in &record.files {
            digest.update(file.sha256.as_bytes());
            digest.update([0]);
        }
        digest.update([1]);
    }
    hex(&digest.finalize())
}

/// The digest a build will record when every current source is reused (the reused records
/// stand for them); `None` when some current source is read, so its inputs are not yet known.
fn planned_inputs(
    fixed: &str,
    catalog: &Catalog,
    loadable: &[bool],
    reuse: &[Option<SourceRecord>],
) -> Option<String> {
    let mut current = Vec::new();
    for at in (0..catalog.sources.len()).filter(|&at| loadable[at]) {
        if catalog.is_current(at, |i| loadable[i]) {
            current.push(reuse[at].as_ref()?);
        }
    }
    Some(mapping_inputs(fixed, current.into_iter()))
}

/// The installed mapping index a build takes, and what the installed manifest says of it.
pub(super) struct TakenMappings {
    pub(super) sets: Vec<MappingSetRecord>,
    pub(super) counts: MappingIndexCounts,
    /// The mapping sets the installed build skipped, and why.
    pub(super) skipped: Vec<SkippedSource>,
}

/// The installed mapping index when a build with these inputs may take it: every current
/// source is reused (`planned` is then the digest of the inputs), the installed build
/// recorded the same digest, and its mapping files match the checksums it recorded (damage is
/// never carried: the build then says so and reads every mapping set).
fn takeable(
    catalog: &Catalog,
    previous: Option<&Previous>,
    planned: Option<&str>,
    observer: &dyn BuildObserver,
) -> Option<TakenMappings> {
    let (previous, planned) = (previous?, planned?);
    let manifest = &previous.manifest;
    if manifest.mapping_inputs.is_empty() || manifest.mapping_inputs != planned {
        return None;
    }
    let installed = previous.layout.mappings();
    let files: Vec<std::path::PathBuf> = installed.all().into_iter().cloned().collect();
    if let Err(e) = crate::index::integrity::verify_these(&files, manifest) {
        observer.stage(&format!(
            "reading every mapping set: the installed mapping index is damaged: {e}"
        ));
        return None;
    }
    let sets = catalog.sources.iter().filter(|s| is_mapping_set(s));
    let set_ids: Vec<&str> = sets.map(|s| s.id.as_str()).collect();
    Some(TakenMappings {
        sets: manifest.mapping_sets.clone(),
        counts: manifest.counts.mappings,
        skipped: manifest
            .skipped
            .iter()
            .filter(|s| set_ids.contains(&s.id.as_str()))
            .cloned()
            .collect(),
    })
}

/// The build's plan for its mapping index, made before the sources are read.
pub(super) struct MappingPlan {
    /// [`fixed_inputs`].
    fixed: String,
    /// [`planned_inputs`].
    planned: Option<String>,
    /// The installed mapping index, when the plan is to take it.
    pub(super) taken: Option<TakenMappings>,
}

impl MappingPlan {
    pub(super) fn new(
        (catalog, registry): (&Catalog, &RegistryRecord),
        (loadable, reuse): (&[bool], &[Option<SourceRecord>]),
        previous: Option<&Previous>,
        observer: &dyn BuildObserver,
    ) -> Result<MappingPlan, BuildError> {
        let fixed = fixed_inputs(catalog, registry)?;
        let planned = planned_inputs(&fixed, catalog, loadable, reuse);
        let taken = takeable(catalog, previous, planned.as_deref(), observer);
        Ok(MappingPlan {
            fixed,
            planned,
            taken,
        })
    }

    /// Once the sources are read: the digest this build records, and the installed mapping
    /// index when the plan took it and the inputs are still the planned ones.
    pub(super) fn settle(
        self,
        records: &[SourceRecord],
        observer: &dyn BuildObserver,
    ) -> Result<(String, Option<TakenMappings>), BuildError> {
        let inputs = mapping_inputs(&self.fixed, records.iter().filter(|r| r.current));
        match self.taken {
            Some(taken) if self.planned.as_deref() == Some(inputs.as_str()) => {
                observer.stage(&format!(
                    "taking the mapping index and its {} mapping-set files from the installed build (nothing they are made of changed)",
                    taken.sets.len()
                ));
                Ok((inputs, Some(taken)))
            }
            // Only a current source that failed to load could change the inputs midway, and
            // its cross-references were never read: nothing is built from half of them.
            Some(_) => Err(BuildError::TakenSourceFailed),
            None => Ok((inputs, None)),
        }
    }
}

/// Links (or copies, across file systems) the installed mapping files, which [`takeable`]
/// checked, into the new build; the installed build is leased meanwhile.
pub(super) fn take_files(previous: &Previous, layout: &BuildLayout) -> Result<(), BuildError> {
    let installed = previous.layout.mappings();
    for (from, to) in installed.all().into_iter().zip(layout.mappings().all()) {
        link_or_copy(from, to).map_err(io_err(format!(
            "taking the installed mapping file {}",
            from.display()
        )))?;
    }
    Ok(())
}

/// A build directory's files are never changed once written, so a hard link is as good as a
/// copy.
pub(super) fn link_or_copy(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::hard_link(from, to).or_else(|_| std::fs::copy(from, to).map(|_| ()))
}
