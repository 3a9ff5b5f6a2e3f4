//! Editing the catalogue file in place (`ontoresolve add`, `remove`, `update`): one
//! `[[source]]` entry is appended, replaced or removed through toml_edit, so the rest of the
//! file, comments and order included, stays as written.

use toml_edit::{Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table, value};

use super::SourceSpec;

/// Why the catalogue text could not be edited.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    #[error("the catalogue is not valid TOML: {0}")]
    Syntax(String),
    #[error("the catalogue's `source` is not a list of [[source]] tables")]
    Shape,
}

fn parse(text: &str) -> Result<DocumentMut, EditError> {
    text.parse::<DocumentMut>()
        .map_err(|e| EditError::Syntax(e.to_string()))
}

fn sources(doc: &mut DocumentMut) -> Result<&mut ArrayOfTables, EditError> {
    let item = doc
        .entry("source")
        .or_insert(Item::ArrayOfTables(ArrayOfTables::new()));
    item.as_array_of_tables_mut().ok_or(EditError::Shape)
}

/// The entry as a `[[source]]` table, fields in the catalogue's usual order, preceded by
/// `comment` (one `#` line per line).
fn entry_table(spec: &SourceSpec, comment: &str) -> Table {
    let mut table = Table::new();
    let mut put = |key: &str, text: &str| {
        table.insert(key, value(text));
    };
    put("id", &spec.id);
    put("title", &spec.title);
    put("kind", spec.kind.as_str());
    if let Some(format) = &spec.format {
        put("format", format);
    }
    put("path", &spec.path.display().to_string());
    if let Some(url) = &spec.url {
        put("url", url);
    }
    if let Some(release) = &spec.release {
        put("release", release);
    }
    if let Some(sha256) = &spec.sha256 {
        put("sha256", sha256);
    }
    let mut prefixes = Array::new();
    for rule in &spec.prefixes {
        let mut inline = InlineTable::new();
        inline.insert("prefix", rule.prefix.as_str().into());
        inline.insert("uri_prefix", rule.uri_prefix.as_str().into());
        prefixes.push(inline);
    }
    put("license", &spec.license);
    put("attribution", &spec.attribution);
    put("homepage", &spec.homepage);
    put("scope", &spec.scope);
    if !spec.bundled {
        table.insert("bundled", value(false));
    }
    table.insert("prefixes", value(prefixes));
    let decor: String = comment.lines().map(|l| format!("\n# {l}")).collect();
    table.decor_mut().set_prefix(format!("{decor}\n"));
    table
}

/// The catalogue text with `spec` appended as the last `[[source]]`.
pub fn with_source_added(
    text: &str,
    spec: &SourceSpec,
    comment: &str,
) -> Result<String, EditError> {
    let mut doc = parse(text)?;
    sources(&mut doc)?.push(entry_table(spec, comment));
    Ok(doc.to_string())
}

/// The catalogue text with the entry at position `at` among the `[[source]]` tables replaced
/// by `spec`, in its place, keeping the comments before it.
pub fn with_source_replaced(text: &str, at: usize, spec: &SourceSpec) -> Result<String, EditError> {
    let mut doc = parse(text)?;
    let list = sources(&mut doc)?;
    let Some(table) = list.get_mut(at) else {
        return Err(EditError::Shape);
    };
    let prefix = table
        .decor()
        .prefix()
        .and_then(|p| p.as_str())
        .unwrap_or("")
        .to_string();
    let mut next = entry_table(spec, "");
    next.decor_mut().set_prefix(prefix);
    *table = next;
    Ok(doc.to_string())
}

/// The catalogue text without the entries of `id` (only the one of `release` when given),
/// and how many were removed.
pub fn with_source_removed(
    text: &str,
    id: &str,
    release: Option<&str>,
) -> Result<(String, usize), EditError> {
    let mut doc = parse(text)?;
    let list = sources(&mut doc)?;
    let before = list.len();
    list.retain(|table| {
        let is = |key: &str, want: &str| table.get(key).and_then(Item::as_str) == Some(want);
        !(is("id", id) && release.is_none_or(|r| is("release", r)))
    });
    let removed = before - list.len();
    Ok((doc.to_string(), removed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PrefixRule;

    const CATALOGUE: &str = "# The catalogue.\n\n[registry]\nid = \"bioregistry\" # kept\n\n# HPO's entry.\n[[source]]\nid = \"hp\"\ntitle = \"HPO\"\n";

    fn spec() -> SourceSpec {
        let text = r#"id = "doid"
title = "Human Disease Ontology"
kind = "obo"
format = "obo"
path = "doid-0123456789ab.obo.gz"
release = "2024-01-31"
bundled = false
prefixes = [{ prefix = "DOID", uri_prefix = "http://purl.obolibrary.org/obo/DOID_" }]
license = "CC0-1.0"
attribution = "Disease Ontology"
homepage = "http://www.disease-ontology.org"
scope = "Human disease"
"#;
        toml::from_str(text).unwrap()
    }

    #[test]
    fn an_added_entry_keeps_every_comment_and_reads_back() {
        let out = with_source_added(CATALOGUE, &spec(), "Added by ontoresolve add doid").unwrap();
        assert!(out.starts_with(CATALOGUE), "{out}");
        assert!(out.contains("# Added by ontoresolve add doid\n[[source]]\nid = \"doid\""));
        let doc: toml::Table = toml::from_str(&out).unwrap();
        let entries = doc["source"].as_array().unwrap();
        let read: SourceSpec = entries[1].clone().try_into().unwrap();
        assert_eq!(
            read.prefixes,
            [PrefixRule {
                prefix: "DOID".into(),
                uri_prefix: "http://purl.obolibrary.org/obo/DOID_".into()
            }]
        );
        assert!(!read.bundled);
    }

    #[test]
    fn removing_an_added_entry_gives_back_the_catalogue() {
        let added = with_source_added(CATALOGUE, &spec(), "Added").unwrap();
        let (out, removed) = with_source_removed(&added, "doid", None).unwrap();
        assert_eq!(removed, 1);
        assert_eq!(out, CATALOGUE);
        let (_, none) = with_source_removed(&added, "doid", Some("2020-01-01")).unwrap();
        assert_eq!(none, 0);
    }
}
