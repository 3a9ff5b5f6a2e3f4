//! One Bioregistry entry as `ontoresolve add` needs it: the resource's name, description,
//! homepage and licence, and every download link with the field that lists it. The dump is
//! streamed: only the wanted entry is deserialized, every other one is skipped unread.

use std::fmt;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

use super::RegistryError;

/// Where a registry entry lists a download link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListedAs {
    /// The entry's own `download_obo`, `download_json`, `download_owl` or `download_rdf`.
    Own(&'static str),
    /// An `artifacts` item of the OBO Foundry's record, with its `type`.
    OboFoundry,
    /// An `artifacts` item of OLS's record.
    Ols,
}

impl fmt::Display for ListedAs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListedAs::Own(field) => f.write_str(field),
            ListedAs::OboFoundry => f.write_str("obofoundry.artifacts"),
            ListedAs::Ols => f.write_str("ols.artifacts"),
        }
    }
}

/// A download link of a resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Download {
    pub url: String,
    pub listed_as: ListedAs,
    /// The artifact's declared `type` (`obo`, `owl`, `obograph_json`), or the own field's
    /// format (`obo`, `json`, `owl`, `rdf`).
    pub declared: String,
}

/// What the registry says of one resource.
#[derive(Clone, Debug, Default)]
pub struct Resource {
    /// The registry's key (lower case), e.g. `doid`.
    pub prefix: String,
    /// The capitalisation CURIEs use, e.g. `DOID`.
    pub preferred: String,
    pub name: Option<String>,
    pub description: Option<String>,
    pub homepage: Option<String>,
    /// An SPDX id or a licence's name.
    pub license: Option<String>,
    /// `…$1`: the URI of a local id.
    pub uri_format: Option<String>,
    pub downloads: Vec<Download>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct Artifact {
    #[serde(rename = "type")]
    kind: Option<String>,
    url: Option<String>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct Licence {
    name: Option<String>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct ExternalRecord {
    name: Option<String>,
    description: Option<String>,
    homepage: Option<String>,
    preferred_prefix: Option<String>,
    #[serde(deserialize_with = "lenient")]
    license: Option<Licence>,
    #[serde(deserialize_with = "lenient")]
    artifacts: Option<Vec<Artifact>>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct Entry {
    name: Option<String>,
    description: Option<String>,
    homepage: Option<String>,
    preferred_prefix: Option<String>,
    license: Option<String>,
    uri_format: Option<String>,
    download_obo: Option<String>,
    download_json: Option<String>,
    download_owl: Option<String>,
    download_rdf: Option<String>,
    #[serde(deserialize_with = "lenient")]
    obofoundry: Option<ExternalRecord>,
    #[serde(deserialize_with = "lenient")]
    ols: Option<ExternalRecord>,
}

/// A field of an unexpected shape reads as absent rather than failing the whole dump.
fn lenient<'de, D: Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
) -> Result<Option<T>, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    Ok(serde_json::from_value(value).ok())
}

impl Entry {
    fn into_resource(self, prefix: &str) -> Resource {
        let obofoundry = self.obofoundry.unwrap_or_default();
        let ols = self.ols.unwrap_or_default();
        let mut downloads: Vec<Download> = Vec::new();
        let own = [
            ("download_obo", "obo", self.download_obo),
            ("download_json", "json", self.download_json),
            ("download_owl", "owl", self.download_owl),
            ("download_rdf", "rdf", self.download_rdf),
        ];
        for (field, declared, url) in own {
            if let Some(url) = url {
                push_link(&mut downloads, url, ListedAs::Own(field), declared.into());
            }
        }
        for (listed_as, record) in [(ListedAs::OboFoundry, &obofoundry), (ListedAs::Ols, &ols)] {
            for artifact in record.artifacts.iter().flatten() {
                if let Some(url) = &artifact.url {
                    let declared = artifact.kind.clone().unwrap_or_default();
                    push_link(&mut downloads, url.clone(), listed_as, declared);
                }
            }
        }
        let license = self
            .license
            .or_else(|| obofoundry.license.as_ref().and_then(|l| l.name.clone()));
        Resource {
            prefix: prefix.to_string(),
            preferred: self
                .preferred_prefix
                .or(obofoundry.preferred_prefix.clone())
                .unwrap_or_else(|| prefix.to_string()),
            name: self.name.or(obofoundry.name.clone()).or(ols.name.clone()),
            description: self
                .description
                .or(obofoundry.description.clone())
                .or(ols.description.clone()),
            homepage: self
                .homepage
                .or(obofoundry.homepage.clone())
                .or(ols.homepage.clone()),
            license,
            uri_format: self.uri_format,
            downloads,
        }
    }
}

fn push_link(downloads: &mut Vec<Download>, url: String, listed_as: ListedAs, declared: String) {
    if !downloads.iter().any(|d| d.url == url) {
        downloads.push(Download {
            url,
            listed_as,
            declared,
        });
    }
}

/// Reads the entry `prefix` (the registry's key) from the Bioregistry JSON dump (gzipped or
/// not); `None` when the dump has no such entry.
pub fn read_resource(json: &Path, prefix: &str) -> Result<Option<Resource>, RegistryError> {
    let file = std::fs::File::open(json).map_err(|source| RegistryError::Io {
        path: json.to_path_buf(),
        source,
    })?;
    let input = crate::ingest::input::open_reader(file).map_err(|source| RegistryError::Io {
        path: json.to_path_buf(),
        source,
    })?;
    read_resource_from(input, prefix).map_err(|e| RegistryError::json(json, e))
}

fn read_resource_from(input: impl Read, prefix: &str) -> serde_json::Result<Option<Resource>> {
    let mut reader = serde_json::Deserializer::from_reader(std::io::BufReader::new(input));
    let found = OneEntry(prefix).deserialize(&mut reader)?;
    Ok(found.map(|entry| entry.into_resource(prefix)))
}

/// Walks the top-level map, keeping only the entry under one key.
struct OneEntry<'a>(&'a str);

impl<'de> DeserializeSeed<'de> for OneEntry<'_> {
    type Value = Option<Entry>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for OneEntry<'_> {
    type Value = Option<Entry>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the Bioregistry's map of prefixes to entries")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<String>()? {
            if found.is_none() && key == self.0 {
                found = Some(map.next_value::<Entry>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = r#"{
      "aaa": {"name": "skipped", "download_obo": 3},
      "doid": {
        "description": "An ontology of human disease",
        "download_json": "http://purl.obolibrary.org/obo/doid.json",
        "download_obo": "https://example.org/doid.obo",
        "license": "CC0-1.0",
        "obofoundry": {
          "name": "Human Disease Ontology",
          "homepage": "http://www.disease-ontology.org",
          "preferred_prefix": "DOID",
          "artifacts": [
            {"type": "owl", "url": "http://purl.obolibrary.org/obo/doid.owl"},
            {"type": "obo", "url": "https://example.org/doid.obo"}
          ]
        },
        "ols": {"artifacts": "not a list"}
      }
    }"#;

    #[test]
    fn the_wanted_entry_is_read_with_every_link_once() {
        let resource = read_resource_from(DUMP.as_bytes(), "doid")
            .unwrap()
            .unwrap();
        assert_eq!(resource.preferred, "DOID");
        assert_eq!(resource.name.as_deref(), Some("Human Disease Ontology"));
        assert_eq!(resource.license.as_deref(), Some("CC0-1.0"));
        let links: Vec<(&str, String)> = resource
            .downloads
            .iter()
            .map(|d| (d.url.as_str(), d.listed_as.to_string()))
            .collect();
        assert_eq!(
            links,
            [
                ("https://example.org/doid.obo", "download_obo".to_string()),
                (
                    "http://purl.obolibrary.org/obo/doid.json",
                    "download_json".to_string()
                ),
                (
                    "http://purl.obolibrary.org/obo/doid.owl",
                    "obofoundry.artifacts".to_string()
                ),
            ]
        );
    }

    #[test]
    fn an_absent_entry_is_none_and_broken_json_is_an_error() {
        assert!(read_resource_from(DUMP.as_bytes(), "go").unwrap().is_none());
        assert!(read_resource_from(&b"{\"doid\": {"[..], "doid").is_err());
    }
}
