//! The prefix registry's part of a build: read the Bioregistry, merge the catalogue's prefixes,
//! write the registry files (or take them from the installed build when their inputs are
//! unchanged) and open them for ingest.

use std::fs;
use std::io;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::{BuildError, BuildObserver, hex, io_err};
use crate::catalog::{Catalog, RegistrySpec};
use crate::index::integrity::verify_these;
use crate::index::manifest::{InputFile, RegistryRecord, RegistrySource};
use crate::index::{BuildLayout, FORMAT_VERSION, Manifest, RegistryCounts, active_build, lease};
use crate::ingest;
use crate::model::PrefixRule;
use crate::registry::{Registry, RegistryData, RegistryError, load_bioregistry};

/// The prefix registry of a build in `layout`: taken from the installed build of `index_dir`
/// as stored when everything it is made from is unchanged (see [`inputs_digest`]), else read
/// from the Bioregistry, merged with the catalogue's prefixes and written. Either way it is
/// then opened like any reader's: ingest turns IRIs into CURIEs through the same registry that
/// answers queries.
pub(super) fn build_registry(
    catalog: &Catalog,
    layout: &BuildLayout,
    index_dir: Option<&Path>,
    observer: &dyn BuildObserver,
) -> Result<(RegistryRecord, Registry), BuildError> {
    let source = (catalog.registry.as_ref())
        .map(|spec| registry_source(catalog, spec))
        .transpose()?;
    let inputs = inputs_digest(catalog, source.as_ref());
    let taken = match index_dir {
        Some(dir) => take_installed(dir, layout, &inputs, observer)?,
        None => None,
    };
    let counts = match taken {
        Some(counts) => counts,
        None => write_registry(catalog, layout, observer)?,
    };
    let registry =
        Registry::open(layout).map_err(|e| io_err("opening the prefix registry")(e.into()))?;
    let record = RegistryRecord {
        source,
        counts,
        inputs,
    };
    Ok((record, registry))
}

/// Reads the Bioregistry (when the catalogue names one), merges the catalogue's prefixes and
/// writes the registry files.
fn write_registry(
    catalog: &Catalog,
    layout: &BuildLayout,
    observer: &dyn BuildObserver,
) -> Result<RegistryCounts, BuildError> {
    let mut data = match &catalog.registry {
        Some(spec) => {
            observer.stage("reading the prefix registry");
            read_registry(catalog, spec)?
        }
        None => RegistryData::default(),
    };
    for (source_id, rule) in catalogue_prefixes(catalog) {
        data.add_catalogue_prefix(source_id, rule);
    }
    let (records, spellings, uris) = data.finish();
    crate::index::registry::write(layout, &records, spellings, uris)
        .map_err(io_err("writing the prefix registry"))
}

/// Every prefix the catalogue declares with the source declaring it, in catalogue order, each
/// once: the releases of a source declare the same prefixes, and adding a release must not
/// change the registry.
fn catalogue_prefixes(catalog: &Catalog) -> Vec<(&str, &PrefixRule)> {
    let mut seen = std::collections::HashSet::new();
    (catalog.sources.iter())
        .flat_map(|spec| spec.prefixes.iter().map(|rule| (spec.id.as_str(), rule)))
        .filter(|&(id, rule)| seen.insert((id, &rule.prefix, &rule.uri_prefix)))
        .collect()
}

/// SHA-256 of what the registry files are made from: the index format, the registry's input
/// files (by checksum, so paths play no part) and the catalogue's prefixes.
fn inputs_digest(catalog: &Catalog, source: Option<&RegistrySource>) -> String {
    #[derive(serde::Serialize)]
    struct Inputs<'a> {
        format: u32,
        files: Vec<&'a str>,
        prefixes: Vec<(&'a str, &'a PrefixRule)>,
    }
    let inputs = Inputs {
        format: FORMAT_VERSION,
        files: source
            .map(|s| s.files.iter().map(|f| f.sha256.as_str()).collect())
            .unwrap_or_default(),
        prefixes: catalogue_prefixes(catalog),
    };
    hex(&Sha256::digest(
        serde_json::to_vec(&inputs).unwrap_or_default(),
    ))
}

/// Hard-links the installed build's registry files into `layout` when that build recorded
/// the same `inputs` and its files still match their checksums; their counts, or `None` when
/// the registry must be written anew (said when the installed files are damaged).
fn take_installed(
    index_dir: &Path,
    layout: &BuildLayout,
    inputs: &str,
    observer: &dyn BuildObserver,
) -> Result<Option<RegistryCounts>, BuildError> {
    let Ok(installed) = active_build(index_dir) else {
        return Ok(None);
    };
    // Leased while its files are checked and linked.
    let Ok(_lease) = lease::Lease::take(&installed.dir) else {
        return Ok(None);
    };
    let Ok(manifest) = Manifest::read(&installed.manifest()) else {
        return Ok(None);
    };
    if manifest.format_version != FORMAT_VERSION || manifest.registry.inputs != inputs {
        return Ok(None);
    }
    let files = installed.registry_files();
    if let Err(e) = verify_these(&files, &manifest) {
        observer.stage(&format!(
            "writing the prefix registry anew: the installed one is damaged ({e})"
        ));
        return Ok(None);
    }
    observer
        .stage("taking the prefix registry from the installed build (its inputs are unchanged)");
    for (from, to) in files.iter().zip(layout.registry_files()) {
        super::mapping_reuse::link_or_copy(from, &to)
            .map_err(io_err("taking the installed prefix registry"))?;
    }
    Ok(Some(manifest.registry.counts))
}

/// What the manifest says of the catalogue's registry release, with its files' checksums.
fn registry_source(catalog: &Catalog, spec: &RegistrySpec) -> Result<RegistrySource, BuildError> {
    let files = [&spec.json, &spec.prefix_map]
        .into_iter()
        .map(|written| input_file(written, &catalog.resolve(written)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RegistrySource {
        id: spec.id.clone(),
        title: spec.title.clone(),
        release: spec.release.clone(),
        files,
        license: spec.license.clone(),
        attribution: spec.attribution.clone(),
        homepage: spec.homepage.clone(),
        url: spec.url.clone(),
    })
}

fn read_registry(catalog: &Catalog, spec: &RegistrySpec) -> Result<RegistryData, BuildError> {
    let json_path = catalog.resolve(&spec.json);
    let map_path = catalog.resolve(&spec.prefix_map);
    let open = |path: &Path| -> Result<Box<dyn io::BufRead + Send>, BuildError> {
        let file = fs::File::open(path).map_err(|source| RegistryError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        ingest::input::open_reader(file).map_err(|source| {
            BuildError::Registry(RegistryError::Io {
                path: path.to_path_buf(),
                source,
            })
        })
    };
    Ok(load_bioregistry(
        open(&json_path)?,
        &spec.json,
        open(&map_path)?,
        &spec.prefix_map,
    )?)
}

/// A file's size and checksum, for the manifest.
pub(super) fn input_file(written: &Path, path: &Path) -> Result<InputFile, BuildError> {
    let context = format!("reading {}", path.display());
    let mut file = fs::File::open(path).map_err(io_err(context.clone()))?;
    let mut hasher = Sha256::new();
    let bytes = io::copy(&mut file, &mut hasher).map_err(io_err(context))?;
    Ok(InputFile {
        path: written.display().to_string(),
        bytes,
        sha256: hex(&hasher.finalize()),
    })
}
