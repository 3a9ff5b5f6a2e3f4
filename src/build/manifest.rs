//! The manifest a build writes: what it gathered (the sources and sets read, the files, the
//! counts) and the build id that names it, a hash of everything that was read.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use super::{declared_prefixes, hex, mappings};
use crate::catalog::Catalog;
use crate::index::manifest::{
    BuildTime, Counts, IndexFileRecord, ModelRecord, NameRulesRecord, RegistryRecord,
    SkippedSource, SourceRecord,
};
use crate::index::{FORMAT_VERSION, Manifest};

/// What a build gathered, before it becomes the manifest.
pub(super) struct ManifestParts {
    pub(super) records: Vec<SourceRecord>,
    pub(super) skipped: Vec<SkippedSource>,
    pub(super) registry: RegistryRecord,
    pub(super) rules: Option<NameRulesRecord>,
    pub(super) model: Option<ModelRecord>,
    pub(super) counts: Counts,
    pub(super) mapped: mappings::MappingsWritten,
    pub(super) files: Vec<IndexFileRecord>,
    pub(super) mapping_set_inputs: String,
}

impl ManifestParts {
    pub(super) fn into_manifest(self, catalog: &Catalog, started: Instant) -> Manifest {
        Manifest {
            format_version: FORMAT_VERSION,
            build_id: build_id(
                catalog,
                &self.records,
                &self.mapped.sets,
                &self.registry,
                self.rules.as_ref(),
                self.model.as_ref(),
            ),
            sources: self.records,
            skipped: self.skipped,
            prefixes: declared_prefixes(catalog),
            registry: self.registry,
            counts: self.counts,
            mapping_sets: self.mapped.sets,
            name_rules: self.rules,
            confidence_model: self.model,
            files: self.files,
            mapping_set_inputs: self.mapping_set_inputs,
            mapping_segments: self.mapped.segments,
            built: build_time(started),
        }
    }
}

fn build_time(started: Instant) -> BuildTime {
    BuildTime {
        finished_unix: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
        seconds: (started.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
    }
}

fn build_id(
    catalog: &Catalog,
    records: &[SourceRecord],
    sets: &[crate::index::manifest::MappingSetRecord],
    registry: &RegistryRecord,
    rules: Option<&NameRulesRecord>,
    model: Option<&ModelRecord>,
) -> String {
    let mut hasher = Sha256::new();
    hasher.update(FORMAT_VERSION.to_le_bytes());
    if let Some(rules) = rules {
        hasher.update(rules.sha256.as_bytes());
    }
    if let Some(model) = model {
        hasher.update(b"confidence-model");
        hasher.update(model.sha256.as_bytes());
    }
    if let Some(source) = &registry.source {
        hasher.update(source.release.as_bytes());
        for file in &source.files {
            hasher.update(file.sha256.as_bytes());
        }
    }
    for record in records {
        // The entry as its fingerprint (every field but the fallback release), then what
        // was read.
        hasher.update(record.entry.as_bytes());
        for file in &record.files {
            hasher.update(file.sha256.as_bytes());
        }
        hasher.update(record.release.as_bytes());
    }
    for set in sets {
        if let Some(spec) = catalog.sources.iter().find(|s| s.id == set.source) {
            hasher.update(serde_json::to_vec(spec).unwrap_or_default());
        }
        hasher.update(set.sha256.as_bytes());
    }
    hex(&hasher.finalize())[..16].to_string()
}
