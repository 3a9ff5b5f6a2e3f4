//! The prefix registry's part of a build: read the Bioregistry, merge the catalogue's prefixes,
//! write the registry files and open them for ingest.

use std::fs;
use std::io;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::{BuildError, BuildObserver, hex, io_err};
use crate::catalog::{Catalog, RegistrySpec};
use crate::index::BuildLayout;
use crate::index::manifest::{InputFile, RegistryRecord, RegistrySource};
use crate::ingest;
use crate::registry::{Registry, RegistryData, RegistryError, load_bioregistry};

/// Reads the registry inputs, merges the catalogue's prefixes, writes the registry files into
/// the build and opens them: ingest turns IRIs into CURIEs through the same registry that
/// answers queries.
pub(super) fn build_registry(
    catalog: &Catalog,
    layout: &BuildLayout,
    observer: &dyn BuildObserver,
) -> Result<(RegistryRecord, Registry), BuildError> {
    let (mut data, source) = match &catalog.registry {
        Some(spec) => {
            observer.stage("reading the prefix registry");
            let (data, source) = read_registry(catalog, spec)?;
            (data, Some(source))
        }
        None => (RegistryData::default(), None),
    };
    for spec in &catalog.sources {
        for rule in &spec.prefixes {
            data.add_catalogue_prefix(&spec.id, rule);
        }
    }
    let (records, spellings, uris) = data.finish();
    let counts = crate::index::registry::write(layout, &records, spellings, uris)
        .map_err(io_err("writing the prefix registry"))?;
    let registry =
        Registry::open(layout).map_err(|e| io_err("opening the prefix registry")(e.into()))?;
    Ok((RegistryRecord { source, counts }, registry))
}

fn read_registry(
    catalog: &Catalog,
    spec: &RegistrySpec,
) -> Result<(RegistryData, RegistrySource), BuildError> {
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
    let data = load_bioregistry(
        open(&json_path)?,
        &spec.json,
        open(&map_path)?,
        &spec.prefix_map,
    )?;
    let files = [(&spec.json, &json_path), (&spec.prefix_map, &map_path)]
        .into_iter()
        .map(|(written, path)| input_file(written, path))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((
        data,
        RegistrySource {
            id: spec.id.clone(),
            title: spec.title.clone(),
            release: spec.release.clone(),
            files,
            license: spec.license.clone(),
            attribution: spec.attribution.clone(),
            homepage: spec.homepage.clone(),
            url: spec.url.clone(),
        },
    ))
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
