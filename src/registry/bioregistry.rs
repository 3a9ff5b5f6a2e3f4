//! Reading the Bioregistry (its JSON dump and its extended prefix map) and merging the
//! catalogue's own prefixes into one set of prefix records with their spellings and URI
//! prefixes.
//!
//! The extended prefix map decides which prefixes are canonical and which are synonyms (it
//! folds, for example, `ctd.chemical` into `mesh`); the JSON adds names, patterns, examples,
//! bananas and deprecations. JSON prefixes that the map neither lists nor folds into another
//! prefix become records of their own, so that every registry prefix is recognised.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{fold_scheme_and_host, other_scheme};
use crate::index::registry::{KeyEntry, SPELLING_BANANA, SPELLING_DEPRECATED, URI_TWIN};
use crate::model::{PrefixRecord, PrefixRule, RecordOrigin};

#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}:{line}:{column}: {message}", path.display())]
    Syntax {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
}

impl RegistryError {
    pub(super) fn json(path: &Path, error: serde_json::Error) -> RegistryError {
        if error.is_io() {
            return RegistryError::Io {
                path: path.to_path_buf(),
                source: error.into(),
            };
        }
        RegistryError::Syntax {
            path: path.to_path_buf(),
            line: error.line(),
            column: error.column(),
            message: error
                .to_string()
                .split(" at line ")
                .next()
                .unwrap_or_default()
                .to_string(),
        }
    }
}

/// One entry of the extended prefix map.
#[derive(Deserialize)]
struct EpmEntry {
    prefix: String,
    uri_prefix: String,
    #[serde(default)]
    prefix_synonyms: Vec<String>,
    #[serde(default)]
    uri_prefix_synonyms: Vec<String>,
    #[serde(default, deserialize_with = "string_only")]
    pattern: Option<String>,
}

/// What another registry says about a prefix, as the Bioregistry JSON nests it.
#[derive(Default, Deserialize)]
#[serde(default)]
struct External {
    #[serde(deserialize_with = "string_only")]
    name: Option<String>,
    #[serde(deserialize_with = "string_only")]
    pattern: Option<String>,
    #[serde(deserialize_with = "string_only")]
    preferred_prefix: Option<String>,
    #[serde(deserialize_with = "string_only")]
    homepage: Option<String>,
    /// Download URLs of the resource's files (OBO Foundry and OLS list these).
    #[serde(deserialize_with = "artifact_urls")]
    artifacts: Vec<String>,
}

/// The fields of a Bioregistry JSON entry that the registry keeps; the rest is skipped. A field
/// of an unexpected JSON type (a download given as an object, say) is read as absent.
#[derive(Default, Deserialize)]
#[serde(default)]
struct JsonEntry {
    #[serde(deserialize_with = "string_only")]
    name: Option<String>,
    #[serde(deserialize_with = "string_only")]
    preferred_prefix: Option<String>,
    #[serde(deserialize_with = "strings_only")]
    synonyms: Vec<String>,
    #[serde(deserialize_with = "string_only")]
    pattern: Option<String>,
    #[serde(deserialize_with = "string_only")]
    example: Option<String>,
    #[serde(deserialize_with = "string_only")]
    banana: Option<String>,
    #[serde(deserialize_with = "string_only")]
    banana_peel: Option<String>,
    #[serde(deserialize_with = "true_only")]
    deprecated: bool,
    #[serde(deserialize_with = "string_only")]
    uri_format: Option<String>,
    #[serde(deserialize_with = "string_only")]
    homepage: Option<String>,
    #[serde(deserialize_with = "string_only")]
    download_obo: Option<String>,
    #[serde(deserialize_with = "string_only")]
    download_owl: Option<String>,
    #[serde(deserialize_with = "string_only")]
    download_json: Option<String>,
    #[serde(deserialize_with = "string_only")]
    download_rdf: Option<String>,
    #[serde(deserialize_with = "map_only")]
    obofoundry: Option<External>,
    #[serde(deserialize_with = "map_only")]
    miriam: Option<External>,
    #[serde(deserialize_with = "map_only")]
    ols: Option<External>,
    #[serde(deserialize_with = "map_only")]
    n2t: Option<External>,
    #[serde(deserialize_with = "map_only")]
    prefixcommons: Option<External>,
    #[serde(deserialize_with = "map_only")]
    wikidata: Option<External>,
}

fn string_only<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => Some(s),
        _ => None,
    })
}

fn strings_only<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::Array(items) => items
            .into_iter()
            .filter_map(|v| match v {
                serde_json::Value::String(s) => Some(s),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    })
}

fn artifact_urls<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::Array(items) => items
            .iter()
            .filter_map(|item| item.get("url")?.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    })
}

fn true_only<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(serde_json::Value::deserialize(d)? == serde_json::Value::Bool(true))
}

fn map_only<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<External>, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    Ok(value
        .is_object()
        .then(|| serde_json::from_value(value).ok())
        .flatten())
}

impl JsonEntry {
    fn externals(&self) -> impl Iterator<Item = &External> {
        [
            &self.obofoundry,
            &self.miriam,
            &self.ols,
            &self.n2t,
            &self.prefixcommons,
            &self.wikidata,
        ]
        .into_iter()
        .flatten()
    }

    fn name(&self) -> Option<String> {
        self.name
            .clone()
            .or_else(|| self.externals().find_map(|e| e.name.clone()))
    }

    /// The entry's own pattern, else MIRIAM's or Wikidata's (as the Bioregistry itself falls
    /// back); other registries' patterns are too loose or too strict to trust.
    fn pattern(&self) -> Option<String> {
        self.pattern.clone().or_else(|| {
            [&self.miriam, &self.wikidata]
                .into_iter()
                .flatten()
                .find_map(|e| e.pattern.clone())
        })
    }

    fn homepage(&self) -> Option<String> {
        self.homepage
            .clone()
            .or_else(|| self.externals().find_map(|e| e.homepage.clone()))
    }

    /// The registry record of `prefix` from this entry, with what the caller settled.
    fn record(
        &self,
        prefix: &str,
        pattern: Option<String>,
        uri_prefix: Option<String>,
        synonyms: Vec<String>,
    ) -> PrefixRecord {
        PrefixRecord {
            name: self.name(),
            pattern,
            example: self.example.clone(),
            uri_prefix,
            banana: self.banana.clone(),
            banana_peel: self.banana_peel.clone(),
            deprecated: self.deprecated,
            homepage: self.homepage(),
            synonyms,
            downloads: self.downloads(),
            ..PrefixRecord::bare(prefix, self.preferred(prefix), RecordOrigin::Bioregistry)
        }
    }

    fn preferred(&self, prefix: &str) -> String {
        self.preferred_prefix
            .clone()
            .or_else(|| {
                self.obofoundry
                    .as_ref()
                    .and_then(|o| o.preferred_prefix.clone())
            })
            .unwrap_or_else(|| prefix.to_string())
    }

    fn downloads(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let own = [
            &self.download_obo,
            &self.download_owl,
            &self.download_json,
            &self.download_rdf,
        ];
        let listed = self.externals().flat_map(|e| e.artifacts.iter());
        for url in own.into_iter().flatten().chain(listed) {
            if !out.contains(url) {
                out.push(url.clone());
            }
        }
        out
    }
}

/// Key priorities, lowest wins: the catalogue's own prefixes, then a record's own prefix, a
/// synonym the map lists, a synonym only the JSON lists, and last a record's banana.
const CATALOGUE: u8 = 0;
const OWN: u8 = 1;
const PREFERRED: u8 = 2;
const MAP_SYNONYM: u8 = 3;
const JSON_SYNONYM: u8 = 4;
const BANANA: u8 = 5;
/// The namespace a resolver (identifiers.org, n2t) uses for a record in its URI prefixes.
const RESOLVER_NAMESPACE: u8 = 6;

/// URI key priorities: the catalogue's, then the registry's; a generated other-scheme twin
/// ranks after every key written in a source.
const CATALOGUE_URI: u8 = 0;
const REGISTRY_URI: u8 = 1;
const TWIN: u8 = 2;

/// Prefix records under construction, with the spellings and URI prefixes that lead to them.
#[derive(Default)]
pub struct RegistryData {
    records: Vec<PrefixRecord>,
    /// Lower-cased spelling → (priority, record).
    spellings: HashMap<String, (u8, usize)>,
    deprecated_spellings: HashSet<String>,
    /// Spellings that are only a record's banana.
    banana_spellings: HashSet<String>,
    /// URI prefix, scheme and host in lower case → (priority, record).
    uris: HashMap<String, (u8, usize)>,
}

impl RegistryData {
    /// Adds a spelling; the lowest priority wins, and between records of equal priority a
    /// current record beats a deprecated one.
    fn add_spelling(&mut self, spelling: &str, priority: u8, record: usize) {
        let key = spelling.to_lowercase();
        if key.is_empty() {
            return;
        }
        let deprecated = |r: usize| self.records.get(r).is_some_and(|x| x.deprecated);
        let rank = (priority, deprecated(record));
        let current = self.spellings.get(&key).map(|&(p, r)| (p, deprecated(r)));
        if current.is_none_or(|c| rank < c) {
            self.spellings.insert(key, (priority, record));
        }
    }

    /// Adds a URI prefix (scheme and host folded to lower case, as queries are) and its
    /// twin under the other scheme, http or https.
    fn add_uri(&mut self, uri: &str, priority: u8, record: usize) {
        if uri.is_empty() || !(uri.contains("://") || uri.starts_with("urn:")) {
            return;
        }
        let folded = fold_scheme_and_host(uri).into_owned();
        let twin = other_scheme(&folded);
        for (key, priority) in [(Some(folded), priority), (twin, TWIN + priority)] {
            let Some(key) = key else { continue };
            let slot = self.uris.entry(key).or_insert((priority, record));
            if priority < slot.0 {
                *slot = (priority, record);
            }
        }
        let listed = &mut self.records[record].uri_prefixes;
        if !listed.iter().any(|u| u == uri) {
            listed.push(uri.to_string());
        }
    }

    /// A banana (`GO_REF` of `go.ref`) read as a prefix: only written in its own case and only
    /// with a local id that fits (the reader checks both), never a single letter.
    fn add_banana(&mut self, banana: Option<&str>, record: usize) {
        let Some(banana) = banana.filter(|b| b.chars().count() >= 2) else {
            return;
        };
        let key = banana.to_lowercase();
        if !self.spellings.contains_key(&key) {
            self.add_spelling(banana, BANANA, record);
            self.banana_spellings.insert(key);
        }
    }

    /// For each resolver URI key (`https://identifiers.org/iedb:`), its namespace (`iedb`) as
    /// a spelling of the record, unless the namespace already names one.
    fn add_resolver_namespaces(&mut self) {
        let mut found = Vec::new();
        for (uri, &(priority, record)) in &self.uris {
            if priority >= TWIN {
                continue;
            }
            let Some((_, rest)) = uri.split_once("://") else {
                continue;
            };
            let Some(path) = ["identifiers.org/", "n2t.net/"]
                .iter()
                .find_map(|host| rest.strip_prefix(host))
            else {
                continue;
            };
            if let Some(namespace) = path.strip_suffix(':').or_else(|| path.strip_suffix('/'))
                && !namespace.is_empty()
                && !namespace.contains([':', '/'])
            {
                found.push((namespace.to_string(), record));
            }
        }
        found.sort();
        for (namespace, record) in found {
            self.add_spelling(&namespace, RESOLVER_NAMESPACE, record);
        }
    }

    fn owner_of_spelling(&self, spelling: &str) -> Option<usize> {
        self.spellings.get(&spelling.to_lowercase()).map(|s| s.1)
    }

    fn owner_of_uri(&self, uri: &str) -> Option<usize> {
        self.uris
            .get(fold_scheme_and_host(uri).as_ref())
            .filter(|u| u.0 < TWIN)
            .map(|u| u.1)
    }

    /// Adds a prefix a catalogued source declares. It joins the registry record it names when
    /// that record knows its URI prefix (or knows none); otherwise it is a record of its own,
    /// which takes the spelling: the catalogue is the authority on what its sources mean.
    pub fn add_catalogue_prefix(&mut self, source_id: &str, rule: &PrefixRule) {
        let by_uri = self.owner_of_uri(&rule.uri_prefix);
        let by_spelling = self
            .owner_of_spelling(&rule.prefix)
            .filter(|&r| by_uri == Some(r) || !self.uris.values().any(|u| u.1 == r && u.0 < TWIN));
        if let (Some(_), None, None) = (self.owner_of_spelling(&rule.prefix), by_uri, by_spelling) {
            tracing::warn!(
                source = source_id,
                prefix = %rule.prefix,
                "the catalogue's prefix names a registry prefix with other URI prefixes; the catalogue's meaning wins"
            );
        }
        let record = match by_spelling.or(by_uri) {
            Some(record) => record,
            None => {
                self.records.push(PrefixRecord {
                    uri_prefix: Some(rule.uri_prefix.clone()),
                    ..PrefixRecord::bare(&rule.prefix, rule.prefix.clone(), RecordOrigin::Catalogue)
                });
                self.records.len() - 1
            }
        };
        self.add_spelling(&rule.prefix, CATALOGUE, record);
        let entry = &mut self.records[record];
        // A catalogued source's identifiers are written the way the source prints them (MESH,
        // HGNC), whether or not this build loads it: the first catalogue spelling becomes the
        // preferred one.
        if entry.sources.is_empty() && entry.preferred != rule.prefix {
            entry.preferred = rule.prefix.clone();
        }
        if entry.index_uri_prefix.is_none() {
            entry.index_uri_prefix = Some(rule.uri_prefix.clone());
        }
        if !entry.sources.iter().any(|s| s == source_id) {
            entry.sources.push(source_id.to_string());
        }
        // The catalogue's URI prefix is how the store spells this namespace: it wins.
        self.add_uri(&rule.uri_prefix, CATALOGUE_URI, record);
    }

    /// The records, and their spelling and URI keys with one record per key, in key order.
    /// Each record lists the URI prefixes it owns (twins aside).
    pub fn finish(mut self) -> (Vec<PrefixRecord>, Vec<KeyEntry>, Vec<KeyEntry>) {
        self.add_resolver_namespaces();
        let deprecated = &self.deprecated_spellings;
        let bananas = &self.banana_spellings;
        let mut spellings: Vec<KeyEntry> = self
            .spellings
            .iter()
            .map(|(key, &(priority, record))| KeyEntry {
                detail: if deprecated.contains(key) {
                    SPELLING_DEPRECATED
                } else {
                    0
                } | if priority == BANANA && bananas.contains(key) {
                    SPELLING_BANANA
                } else {
                    0
                },
                key: key.clone(),
                record: record as u32,
            })
            .collect();
        spellings.sort_by(|a, b| a.key.cmp(&b.key));
        // Each record lists the URI prefixes it owns, as the registry writes them.
        let uris_owned = &self.uris;
        for (i, record) in self.records.iter_mut().enumerate() {
            record.uri_prefixes.retain(|u| {
                uris_owned
                    .get(fold_scheme_and_host(u).as_ref())
                    .is_some_and(|&(priority, owner)| owner == i && priority < TWIN)
            });
        }
        let mut uris: Vec<KeyEntry> = self
            .uris
            .into_iter()
            .map(|(key, (priority, record))| KeyEntry {
                key,
                record: record as u32,
                detail: if priority >= TWIN { URI_TWIN } else { 0 },
            })
            .collect();
        uris.sort_by(|a, b| a.key.cmp(&b.key));
        (self.records, spellings, uris)
    }
}

/// Reads the Bioregistry JSON dump and extended prefix map into prefix records.
pub fn load_bioregistry(
    json: impl Read,
    json_path: &Path,
    epm: impl Read,
    epm_path: &Path,
) -> Result<RegistryData, RegistryError> {
    let entries: BTreeMap<String, JsonEntry> =
        serde_json::from_reader(std::io::BufReader::new(json))
            .map_err(|e| RegistryError::json(json_path, e))?;
    let mut map: Vec<EpmEntry> = serde_json::from_reader(std::io::BufReader::new(epm))
        .map_err(|e| RegistryError::json(epm_path, e))?;
    map.sort_by(|a, b| a.prefix.cmp(&b.prefix));
    let none = JsonEntry::default();
    let mut data = RegistryData::default();
    for e in &map {
        data.add_mapped(e, entries.get(&e.prefix).unwrap_or(&none));
    }
    // JSON prefixes the map leaves out: a deprecated spelling of a record it folds them
    // into, or a record of their own.
    for (prefix, json) in &entries {
        let mapped = map
            .binary_search_by(|e| e.prefix.as_str().cmp(prefix))
            .is_ok();
        if mapped {
            continue;
        }
        if data.owner_of_spelling(prefix).is_some() {
            if json.deprecated {
                data.deprecated_spellings.insert(prefix.to_lowercase());
            }
            continue;
        }
        data.add_unmapped(prefix, json);
    }
    Ok(data)
}

impl RegistryData {
    /// Adds a prefix the extended prefix map lists, with what the JSON says of it.
    fn add_mapped(&mut self, e: &EpmEntry, json: &JsonEntry) {
        let mut synonyms: Vec<String> = Vec::new();
        for s in e.prefix_synonyms.iter().chain(&json.synonyms) {
            if !synonyms.contains(s) {
                synonyms.push(s.clone());
            }
        }
        // The map's pattern is the Bioregistry's own choice, fallbacks included.
        let pattern = e.pattern.clone().or_else(|| json.pattern.clone());
        let record =
            self.push_record(json.record(&e.prefix, pattern, Some(e.uri_prefix.clone()), synonyms));
        self.add_spelling(&e.prefix, OWN, record);
        for s in &e.prefix_synonyms {
            self.add_spelling(s, MAP_SYNONYM, record);
        }
        for s in &json.synonyms {
            self.add_spelling(s, JSON_SYNONYM, record);
        }
        self.add_uri(&e.uri_prefix, REGISTRY_URI, record);
        for u in &e.uri_prefix_synonyms {
            self.add_uri(u, REGISTRY_URI, record);
        }
        self.add_banana(json.banana.as_deref(), record);
    }

    /// Adds a prefix only the JSON knows, its URI prefix taken from its URI format.
    fn add_unmapped(&mut self, prefix: &str, json: &JsonEntry) {
        let uri_prefix = json
            .uri_format
            .as_deref()
            .and_then(|f| f.strip_suffix("$1"))
            .map(str::to_string);
        let record = self.push_record(json.record(
            prefix,
            json.pattern(),
            uri_prefix.clone(),
            json.synonyms.clone(),
        ));
        self.add_spelling(prefix, OWN, record);
        for s in &json.synonyms {
            self.add_spelling(s, JSON_SYNONYM, record);
        }
        if let Some(uri) = &uri_prefix {
            self.add_uri(uri, REGISTRY_URI, record);
        }
        self.add_banana(json.banana.as_deref(), record);
    }

    /// Pushes a registry record and claims its preferred spelling; returns its index.
    fn push_record(&mut self, record: PrefixRecord) -> usize {
        let preferred = record.preferred.clone();
        self.records.push(record);
        let index = self.records.len() - 1;
        self.add_spelling(&preferred, PREFERRED, index);
        index
    }
}
