//! The steps of `add` and `update`: plan the entry from the registry's record, fetch the file,
//! then install (catalogue entry, build, catalogue switch), undoing the file on failure.

use std::path::{Path, PathBuf};

use super::AcquireError;
use super::download::{self, DownloadProgress, FetchOptions};
use super::links::{self, Choice, LinkFormat, LinkReading, NoLink};
use super::sniff::{self, Compression};
use super::staging::{RemoveOnDrop, build_with, read_catalogue, write_catalogue};
use crate::build::{BuildObserver, BuildSummary};
use crate::catalog::edit::{with_source_added, with_source_replaced};
use crate::catalog::{Catalog, SourceSpec};
use crate::index::manifest::{ReleaseOrigin, SourceRecord};
use crate::model::{OBO_PURL, PrefixRule};
use crate::registry::{Registry, Resource, read_resource};

/// What `add` was asked.
#[derive(Clone, Debug)]
pub struct AddRequest {
    /// The prefix in any spelling.
    pub prefix: String,
    pub url: Option<String>,
    pub file: Option<PathBuf>,
    pub release: Option<String>,
    pub catalogue: PathBuf,
    pub index: PathBuf,
    pub fetch: FetchOptions,
    /// Today's date, the release of last resort.
    pub today: String,
}

/// Where the file comes from.
#[derive(Clone, Debug)]
pub enum FileOrigin {
    /// The registry's link, chosen by `links::choose`.
    Link(Choice),
    /// `--url`.
    Url(String),
    /// `--file`.
    File(PathBuf),
}

/// An entry ready to be fetched and installed.
#[derive(Clone, Debug)]
pub struct AddPlan {
    /// The entry to write; `path` and `sha256` are set once the file is fetched.
    pub entry: SourceSpec,
    pub origin: FileOrigin,
    pub format: LinkFormat,
    /// Where the release of the entry came from, until the file says otherwise.
    pub release_from: &'static str,
}

/// The registry's record for `request.prefix` and the entry it gives.
pub fn plan(
    request: &AddRequest,
    catalog: &Catalog,
    registry: &Registry,
) -> Result<AddPlan, AcquireError> {
    let unknown = || AcquireError::UnknownPrefix {
        written: request.prefix.clone(),
        closest: registry
            .suggest(&request.prefix, 5)
            .into_iter()
            .filter_map(|id| registry.record(id).map(|r| r.preferred.clone()))
            .collect(),
    };
    let record = registry
        .spelling(request.prefix.trim())
        .and_then(|hit| registry.record(hit.record))
        .ok_or_else(unknown)?;
    let json = catalog
        .registry
        .as_ref()
        .map(|spec| catalog.resolve(&spec.json))
        .ok_or_else(unknown)?;
    let resource = read_resource(&json, &record.prefix)
        .map_err(|e| AcquireError::io("reading the Bioregistry", std::io::Error::other(e)))?
        .ok_or_else(unknown)?;
    if let Some(spec) = catalog.sources.iter().find(|s| {
        s.id == resource.prefix
            || s.prefixes
                .iter()
                .any(|p| p.prefix.eq_ignore_ascii_case(&resource.preferred))
    }) {
        return Err(AcquireError::AlreadyCatalogued {
            id: spec.id.clone(),
            catalogue: request.catalogue.clone(),
        });
    }
    let (origin, format) = file_origin(request, &resource)?;
    let (release, release_from) = match &request.release {
        Some(r) => (r.clone(), "--release"),
        None => (request.today.clone(), "the download date"),
    };
    let uri_prefix = record
        .uri_prefix
        .clone()
        .or_else(|| {
            resource
                .uri_format
                .as_deref()
                .and_then(|u| u.strip_suffix("$1"))
                .map(str::to_string)
        })
        .unwrap_or_else(|| format!("{OBO_PURL}{}_", resource.preferred));
    let entry = entry_of(&resource, &origin, format, release, uri_prefix);
    Ok(AddPlan {
        entry,
        origin,
        format,
        release_from,
    })
}

/// The file's origin and format: `--file`, `--url`, else the registry's best link.
fn file_origin(
    request: &AddRequest,
    resource: &Resource,
) -> Result<(FileOrigin, LinkFormat), AcquireError> {
    let named = |name: &str| match links::read_link(name, "") {
        LinkReading::Readable(format) => Ok(format),
        LinkReading::Unreadable(what) => Err(AcquireError::UnreadableLinks {
            prefix: resource.preferred.clone(),
            links: vec![(name.to_string(), what)],
        }),
    };
    if let Some(file) = &request.file {
        let format = named(&file.display().to_string())?;
        return Ok((FileOrigin::File(file.clone()), format));
    }
    if let Some(url) = &request.url {
        return Ok((FileOrigin::Url(url.clone()), named(url)?));
    }
    match links::choose(resource) {
        Ok(choice) => {
            let format = choice.format;
            Ok((FileOrigin::Link(choice), format))
        }
        Err(NoLink::None) => Err(AcquireError::NoLink {
            prefix: resource.preferred.clone(),
            homepage: resource
                .homepage
                .clone()
                .unwrap_or_else(|| format!("https://bioregistry.io/{}", resource.prefix)),
        }),
        Err(NoLink::Unreadable(links)) => Err(AcquireError::UnreadableLinks {
            prefix: resource.preferred.clone(),
            links,
        }),
    }
}

fn entry_of(
    resource: &Resource,
    origin: &FileOrigin,
    format: LinkFormat,
    release: String,
    uri_prefix: String,
) -> SourceSpec {
    let title = resource
        .name
        .clone()
        .unwrap_or_else(|| resource.preferred.clone());
    let url = match origin {
        FileOrigin::Link(choice) => Some(choice.download.url.clone()),
        FileOrigin::Url(url) => Some(url.clone()),
        FileOrigin::File(_) => None,
    };
    let homepage = resource
        .homepage
        .clone()
        .unwrap_or_else(|| format!("https://bioregistry.io/{}", resource.prefix));
    let scope = resource
        .description
        .as_deref()
        .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| format!("{title}; see {homepage}"));
    let attribution = format!(
        "{title} ({}), from {}; entry written from the Bioregistry's record '{}'.",
        resource.preferred,
        url.as_deref().unwrap_or("a local file"),
        resource.prefix
    );
    SourceSpec {
        id: resource.prefix.clone(),
        title,
        kind: format.kind(),
        format: Some(format.catalogue_format().to_string()),
        path: PathBuf::new(),
        more_paths: Vec::new(),
        url,
        bundled: false,
        release: Some(release),
        sha256: None,
        base_iri: None,
        concept_types: Vec::new(),
        prefixes: vec![PrefixRule {
            prefix: resource.preferred.clone(),
            uri_prefix,
        }],
        preferred_prefix: None,
        base_uris: Vec::new(),
        hierarchical_properties: Vec::new(),
        license: resource
            .license
            .clone()
            .unwrap_or_else(|| "not stated by the registry; see the homepage".to_string()),
        attribution,
        homepage,
        scope,
        group: None,
        mapping_set_id: None,
        predicted: false,
        mapping_tool: None,
        metadata: None,
    }
}

/// A fetched file under its temporary name, with what it is.
pub struct Fetched {
    file: tempfile::NamedTempFile,
    sha256: String,
    compression: Compression,
    /// The address fetched, or the file copied.
    pub from: String,
}

/// Downloads (or copies) the plan's file beside the catalogue and checks it is what its link
/// says.
pub fn fetch(
    plan: &AddPlan,
    request: &AddRequest,
    catalog: &Catalog,
    progress: &dyn DownloadProgress,
) -> Result<Fetched, AcquireError> {
    remove_stale_downloads(&catalog.dir);
    let (file, sha256, from) = match &plan.origin {
        FileOrigin::File(path) => copy_in(path, &catalog.dir)?,
        FileOrigin::Url(url) => downloaded(url, request, catalog, progress)?,
        FileOrigin::Link(choice) => downloaded(&choice.download.url, request, catalog, progress)?,
    };
    checked(file, sha256, from, plan.format)
}

/// The fetched file, once its content is seen to fit its format.
fn checked(
    file: tempfile::NamedTempFile,
    sha256: String,
    from: String,
    format: LinkFormat,
) -> Result<Fetched, AcquireError> {
    let (compression, found, excerpt) =
        sniff::sniff(file.path()).map_err(|e| AcquireError::io(format!("reading {from}"), e))?;
    if let Err((expected, found)) = sniff::check(format, found) {
        return Err(AcquireError::NotTheFormat {
            url: from,
            expected,
            found,
            excerpt,
        });
    }
    Ok(Fetched {
        file,
        sha256,
        compression,
        from,
    })
}

fn downloaded(
    url: &str,
    request: &AddRequest,
    catalog: &Catalog,
    progress: &dyn DownloadProgress,
) -> Result<(tempfile::NamedTempFile, String, String), AcquireError> {
    let d = download::download(url, &request.fetch, &catalog.dir, progress)?;
    Ok((d.file, d.sha256, d.fetched))
}

fn copy_in(
    path: &Path,
    dir: &Path,
) -> Result<(tempfile::NamedTempFile, String, String), AcquireError> {
    use sha2::Digest;
    let from = path.display().to_string();
    let mut input =
        std::fs::File::open(path).map_err(|e| AcquireError::io(format!("reading {from}"), e))?;
    let mut file = tempfile::Builder::new()
        .prefix(download::TEMP_PREFIX)
        .tempfile_in(dir)
        .map_err(|e| AcquireError::io(format!("creating a file in {}", dir.display()), e))?;
    let mut hasher = sha2::Sha256::new();
    let mut tee = TeeWriter(file.as_file_mut(), &mut hasher);
    std::io::copy(&mut input, &mut tee)
        .map_err(|e| AcquireError::io(format!("copying {from}"), e))?;
    Ok((file, crate::build::hex(&hasher.finalize()), from))
}

/// Writes to a file and a hasher at once.
struct TeeWriter<'a>(&'a mut std::fs::File, &'a mut sha2::Sha256);

impl std::io::Write for TeeWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.0.write(buf)?;
        sha2::Digest::update(self.1, &buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Temporary downloads older than a day are a killed add's; remove them.
fn remove_stale_downloads(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() > 86_400);
        if stale
            && entry
                .file_name()
                .to_string_lossy()
                .starts_with(download::TEMP_PREFIX)
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// What an installed add did.
#[derive(Debug)]
pub struct Installed {
    pub entry: SourceSpec,
    pub file: PathBuf,
    pub record: SourceRecord,
    /// Where the release came from, in words.
    pub release_from: String,
    pub summary: BuildSummary,
}

/// Names the file, writes the entry, builds, and switches the catalogue; on failure the
/// catalogue and `CURRENT` are as they were and the file is gone.
pub fn install(
    plan: AddPlan,
    fetched: Fetched,
    request: &AddRequest,
    catalog: &Catalog,
    observer: &dyn BuildObserver,
) -> Result<Installed, AcquireError> {
    let comment = format!(
        "Added by `ontoresolve add {}` from {}.",
        request.prefix, fetched.from
    );
    let staged = Staged {
        entry: plan.entry,
        format: plan.format,
        release_from: plan.release_from,
        fetched,
    };
    staged.install(
        &request.catalogue,
        &request.index,
        catalog,
        observer,
        |text, entry| Ok(with_source_added(text, entry, &comment)?),
    )
}

/// A fetched file and the entry that will name it.
struct Staged {
    entry: SourceSpec,
    format: LinkFormat,
    release_from: &'static str,
    fetched: Fetched,
}

impl Staged {
    /// Places the file under its name, builds from the catalogue as `edit` changes it, and
    /// writes that catalogue with the release the build read.
    fn install(
        mut self,
        catalogue: &Path,
        index: &Path,
        catalog: &Catalog,
        observer: &dyn BuildObserver,
        edit: impl Fn(&str, &SourceSpec) -> Result<String, AcquireError>,
    ) -> Result<Installed, AcquireError> {
        let sha256 = self.fetched.sha256.clone();
        let name = format!(
            "{}-{}.{}{}",
            self.entry.id,
            &sha256[..12],
            self.format.extension(),
            self.fetched.compression.suffix()
        );
        let target = catalog.dir.join(&name);
        let placing = |e| AcquireError::io(format!("placing the file at {}", target.display()), e);
        if target.exists() {
            return Err(placing(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "a file of that name exists",
            )));
        }
        self.fetched
            .file
            .persist(&target)
            .map_err(|e| placing(e.error))?;
        let placed = RemoveOnDrop(Some(target.clone()));
        self.entry.path = PathBuf::from(&name);
        self.entry.sha256 = Some(sha256.clone());
        let original = read_catalogue(catalogue)?;
        let summary = build_with(catalogue, index, observer, |text| edit(text, &self.entry))?;
        let record = summary
            .manifest
            .releases(&self.entry.id)
            .find(|r| r.files.first().is_some_and(|f| f.sha256 == sha256))
            .cloned()
            .ok_or_else(|| AcquireError::NotCatalogued(self.entry.id.clone()))?;
        let release_from = match &record.release_origin {
            ReleaseOrigin::File { property } => format!("the file's {property}"),
            _ => self.release_from.to_string(),
        };
        self.entry.release = Some(record.release.clone());
        write_catalogue(catalogue, &edit(&original, &self.entry)?)?;
        placed.keep();
        Ok(Installed {
            entry: self.entry,
            file: target,
            record,
            release_from,
            summary,
        })
    }
}

/// What `update` found.
#[derive(Debug)]
pub enum Updated {
    /// The link serves the file the catalogue already names.
    Unchanged { url: String, sha256: String },
    /// A new release, beside the old one (`kept` names it) or in its place.
    Installed {
        installed: Box<Installed>,
        kept: Option<String>,
        deleted: Option<PathBuf>,
    },
}

/// Fetches a source's `url` again. When the file changed, the new file becomes a new release:
/// beside the old one when the catalogue already keeps several releases of it, else in its
/// place (the old file is deleted when it is not bundled).
pub fn update(
    request: &AddRequest,
    observer: &dyn BuildObserver,
    progress: &dyn DownloadProgress,
) -> Result<Updated, AcquireError> {
    let catalog = Catalog::load(&request.catalogue)?;
    let id = request.prefix.as_str();
    let (at, spec) = catalog
        .sources
        .iter()
        .enumerate()
        .rfind(|(_, s)| s.id == id)
        .ok_or_else(|| AcquireError::NotCatalogued(id.to_string()))?;
    let url = spec
        .url
        .clone()
        .ok_or_else(|| AcquireError::NoUrl(id.to_string()))?;
    let format = match links::read_link(&url, spec.format.as_deref().unwrap_or("")) {
        LinkReading::Readable(format) => format,
        LinkReading::Unreadable(what) => {
            return Err(AcquireError::UnreadableLinks {
                prefix: id.to_string(),
                links: vec![(url, what)],
            });
        }
    };
    remove_stale_downloads(&catalog.dir);
    let (file, sha256, from) = downloaded(&url, request, &catalog, progress)?;
    let now = match &spec.sha256 {
        Some(sha) => sha.clone(),
        None => crate::build::file_sha256(&catalog.file(spec)).unwrap_or_default(),
    };
    if now.eq_ignore_ascii_case(&sha256) {
        return Ok(Updated::Unchanged { url: from, sha256 });
    }
    let fetched = checked(file, sha256, from, format)?;
    let mut entry = spec.clone();
    let (release, release_from) = match &request.release {
        Some(r) => (r.clone(), "--release"),
        None => (request.today.clone(), "the download date"),
    };
    entry.release = Some(release);
    let several = catalog.sources.iter().filter(|s| s.id == id).count() > 1;
    let comment = format!(
        "Updated by `ontoresolve update {id}` from {}.",
        fetched.from
    );
    let staged = Staged {
        entry,
        format,
        release_from,
        fetched,
    };
    let installed = staged.install(
        &request.catalogue,
        &request.index,
        &catalog,
        observer,
        |text, entry| {
            if several {
                Ok(with_source_added(text, entry, &comment)?)
            } else {
                Ok(with_source_replaced(text, at, entry)?)
            }
        },
    )?;
    let deleted = (!several && !spec.bundled && spec.path != installed.entry.path)
        .then(|| catalog.file(spec))
        .filter(|old| std::fs::remove_file(old).is_ok());
    Ok(Updated::Installed {
        installed: Box::new(installed),
        kept: several.then(|| spec.release.clone().unwrap_or_default()),
        deleted,
    })
}
