//! Taking segments of the installed mapping index as they stand (`mapping_segments`), so that
//! adding or removing a release reads no mapping set and no other source's cross-references
//! again.
//!
//! A current release's segment is made of its cross-references read through the registry: it
//! is taken when the release is reused, the installed build holds its segment, and no prefix
//! declared anew touches the footprint its cross-references were read with. The mapping sets'
//! segment is made of the registry and every mapping set: a digest of those
//! (`Manifest::mapping_set_inputs`) is recorded by every build, and a build with the same
//! digest whose new prefixes touch no set's footprint takes it. Either is checked against its
//! recorded checksums first: a damaged segment is read anew, and the build says so.

use std::path::Path;

use sha2::{Digest, Sha256};

use super::registry::input_file;
use super::reuse::{Previous, entry_fingerprint};
use super::{BuildError, BuildObserver, hex, is_mapping_set};
use crate::catalog::Catalog;
use crate::index::manifest::{
    MappingSegmentRecord, MappingSetRecord, RegistryRecord, SkippedSource, SourceRecord,
};
use crate::index::{FORMAT_VERSION, MAPPING_SETS_SEGMENT, release_segment_name};

/// The digest of what the mapping sets' segment is made of: the format, the registry's files
/// and every mapping set's entry, release and files.
pub(super) fn set_inputs(
    catalog: &Catalog,
    registry: &RegistryRecord,
) -> Result<String, BuildError> {
    let mut digest = Sha256::new();
    let mut note = |part: &str| {
        digest.update(part.as_bytes());
        digest.update([0]);
    };
    note(&FORMAT_VERSION.to_string());
    for file in registry.source.iter().flat_map(|s| &s.files) {
        note(&file.sha256);
    }
    for spec in catalog.sources.iter().filter(|s| is_mapping_set(s)) {
        note(&spec.id);
        note(&entry_fingerprint(spec));
        // Left out of the fingerprint, and a set's only release: it names its graph.
        note(&super::mappings::set_release(spec));
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

/// The installed mapping sets' segment a build takes, and what the installed manifest says of
/// it.
pub(super) struct TakenMappings {
    pub(super) sets: Vec<MappingSetRecord>,
    pub(super) segment: MappingSegmentRecord,
    /// The mapping sets the installed build skipped, and why.
    pub(super) skipped: Vec<SkippedSource>,
}

/// The installed mapping sets' segment when a build with these inputs (`digest`) may take it:
/// the installed build recorded the same digest, no prefix declared anew touches a set's
/// footprint, and its files match the checksums it recorded (damage is never carried: the
/// build then says so and reads every mapping set).
pub(super) fn takeable_sets(
    catalog: &Catalog,
    previous: Option<&Previous>,
    digest: &str,
    observer: &dyn BuildObserver,
) -> Option<TakenMappings> {
    let previous = previous?;
    let manifest = &previous.manifest;
    if manifest.mapping_set_inputs != digest {
        return None;
    }
    let touched = (manifest.mapping_sets.iter())
        .any(|set| previous.touched(set.prefix_use.as_ref()).is_some());
    let segment = (manifest.mapping_segments.iter()).find(|s| s.name == MAPPING_SETS_SEGMENT)?;
    if touched {
        return None;
    }
    if let Err(e) = verify_segment(previous, MAPPING_SETS_SEGMENT) {
        observer.stage(&format!(
            "reading every mapping set: the installed mapping index is damaged: {e}"
        ));
        return None;
    }
    let set_ids: Vec<&str> = (catalog.sources.iter())
        .filter(|s| is_mapping_set(s))
        .map(|s| s.id.as_str())
        .collect();
    observer.stage(&format!(
        "taking the mapping sets' segment of the mapping index and its {} mapping-set files from the installed build (nothing they are made of changed)",
        manifest.mapping_sets.len()
    ));
    Some(TakenMappings {
        sets: manifest.mapping_sets.clone(),
        segment: segment.clone(),
        skipped: (manifest.skipped.iter())
            .filter(|s| set_ids.contains(&s.id.as_str()))
            .cloned()
            .collect(),
    })
}

/// The installed segment of a reused current release when the build may take it: the
/// installed build holds it, no prefix declared anew touches its footprint, and its files
/// match their recorded checksums (else the build says so and reads its cross-references).
pub(super) fn takeable_release(
    previous: &Previous,
    record: &SourceRecord,
    observer: &dyn BuildObserver,
) -> Option<MappingSegmentRecord> {
    let name = release_segment_name(&record.graph);
    let manifest = &previous.manifest;
    let installed = manifest
        .sources
        .iter()
        .any(|s| s.graph == record.graph && s.current);
    let segment = (manifest.mapping_segments.iter()).find(|s| s.name == name);
    let segment = segment.filter(|_| installed && record.current)?;
    if previous.touched(segment.prefix_use.as_ref()).is_some() {
        return None;
    }
    if let Err(e) = verify_segment(previous, &name) {
        observer.stage(&format!(
            "reading the cross-references of {} again: its installed mapping segment is damaged: {e}",
            record.key()
        ));
        return None;
    }
    Some(segment.clone())
}

fn verify_segment(previous: &Previous, name: &str) -> Result<(), crate::index::FileError> {
    let files = previous.layout.mapping_segment(name);
    let files: Vec<std::path::PathBuf> = files.all().into_iter().cloned().collect();
    crate::index::integrity::verify_these(&files, &previous.manifest)
}

/// A build directory's files are never changed once written, so a hard link is as good as a
/// copy.
pub(super) fn link_or_copy(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::hard_link(from, to).or_else(|_| std::fs::copy(from, to).map(|_| ()))
}
