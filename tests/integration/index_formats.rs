//! Each text file of a build is held to its format version: the fields it has are those
//! recorded here for that version. A change of fields without a change of version fails, so
//! that an older binary is never handed a file it would misread as damaged (it refuses it as
//! newer instead, having read the version first).

use std::collections::BTreeSet;

use ontoresolve::index::FORMAT_VERSION;
use ontoresolve::index::confidence::MODEL_FORMAT;
use ontoresolve::index::format::RULES_FORMAT;
use serde_json::Value;

use crate::support::{default_index, repo};

/// Every field path of a JSON value (or a TOML document read as one): `a`, `a.b`, `a[].c`
/// (map keys that are data, such as graph IRIs and counts by name, read as `*`).
fn json_fields(value: &Value, at: &str, data_keys: &[&str], out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            let data = data_keys.contains(&at);
            for (key, v) in map {
                let name = if data { "*" } else { key.as_str() };
                let path = if at.is_empty() {
                    name.to_string()
                } else {
                    format!("{at}.{name}")
                };
                out.insert(path.clone());
                json_fields(v, &path, data_keys, out);
            }
        }
        Value::Array(items) => {
            for item in items {
                json_fields(item, &format!("{at}[]"), data_keys, out);
            }
        }
        _ => {}
    }
}

fn assert_fields(file: &str, version: u32, recorded: (u32, &[&str]), found: &BTreeSet<String>) {
    let (recorded_version, fields) = recorded;
    let recorded: BTreeSet<String> = fields.iter().map(|f| f.to_string()).collect();
    let added: Vec<_> = found.difference(&recorded).collect();
    let dropped: Vec<_> = recorded.difference(found).collect();
    assert!(
        added.is_empty() && dropped.is_empty() && version == recorded_version,
        "{file}: its fields changed (added {added:?}, dropped {dropped:?}) or its version did \
         ({version}, recorded {recorded_version}). A change of fields changes the format version: \
         raise it, then record the fields for the new version here. Found: {found:#?}"
    );
}

/// The manifest's fields at [`FORMAT_VERSION`], as the default build writes them.
const MANIFEST: (u32, &[&str]) = (
    19,
    &[
        "build_id",
        "built",
        "built.finished_unix",
        "built.seconds",
        "confidence_model",
        "confidence_model.file",
        "confidence_model.learned_names",
        "confidence_model.mention_threshold",
        "confidence_model.sha256",
        "confidence_model.trained_on",
        "confidence_model.trained_on[].citation",
        "confidence_model.trained_on[].id",
        "confidence_model.version",
        "counts",
        "counts.concepts",
        "counts.id_lexicon",
        "counts.id_lexicon.keys",
        "counts.id_lexicon.postings",
        "counts.label_lexicon",
        "counts.label_lexicon.keys",
        "counts.label_lexicon.postings",
        "counts.mappings",
        "counts.mappings.identifiers",
        "counts.mappings.mappings",
        "counts.mappings.statements",
        "counts.triples",
        "counts.variant_lexicon",
        "counts.variant_lexicon.keys",
        "counts.variant_lexicon.postings",
        "files",
        "files[].bytes",
        "files[].name",
        "files[].sha256",
        "format_version",
        "mapping_segments",
        "mapping_segments[].counts",
        "mapping_segments[].counts.identifiers",
        "mapping_segments[].counts.mappings",
        "mapping_segments[].counts.statements",
        "mapping_segments[].name",
        "mapping_segments[].prefix_use",
        "mapping_segments[].prefix_use.prefixes",
        "mapping_set_inputs",
        "mapping_sets",
        "mapping_sets[].attribution",
        "mapping_sets[].counts",
        "mapping_sets[].counts.mappings",
        "mapping_sets[].counts.negative",
        "mapping_sets[].counts.no_term_found",
        "mapping_sets[].counts.rows",
        "mapping_sets[].counts.skipped_rows",
        "mapping_sets[].counts.triples",
        "mapping_sets[].counts.unregistered_ids",
        "mapping_sets[].entry",
        "mapping_sets[].file",
        "mapping_sets[].graph",
        "mapping_sets[].header",
        "mapping_sets[].header.comment",
        "mapping_sets[].license",
        "mapping_sets[].license_origin",
        "mapping_sets[].mapping_set_id",
        "mapping_sets[].mapping_set_version",
        "mapping_sets[].predicted",
        "mapping_sets[].prefix_use",
        "mapping_sets[].release",
        "mapping_sets[].sha256",
        "mapping_sets[].source",
        "mapping_sets[].title",
        "name_rules",
        "name_rules.file",
        "name_rules.sha256",
        "name_rules.version",
        "prefixes",
        "prefixes[].prefix",
        "prefixes[].uri_prefix",
        "registry",
        "registry.counts",
        "registry.counts.patterns",
        "registry.counts.records",
        "registry.counts.spellings",
        "registry.counts.uri_prefixes",
        "registry.source",
        "registry.source.attribution",
        "registry.source.files",
        "registry.source.files[].bytes",
        "registry.source.files[].path",
        "registry.source.files[].sha256",
        "registry.source.homepage",
        "registry.source.id",
        "registry.source.license",
        "registry.source.release",
        "registry.source.title",
        "registry.source.url",
        "skipped",
        "skipped[].id",
        "skipped[].reason",
        "sources",
        "sources[].attribution",
        "sources[].counts",
        "sources[].counts.concepts",
        "sources[].counts.definitions",
        "sources[].counts.labels",
        "sources[].counts.obsolete",
        "sources[].counts.parent_links",
        "sources[].counts.replacements",
        "sources[].counts.skipped_rows",
        "sources[].counts.triples",
        "sources[].counts.xrefs",
        "sources[].current",
        "sources[].entry",
        "sources[].files",
        "sources[].files[].bytes",
        "sources[].files[].path",
        "sources[].files[].sha256",
        "sources[].first_concept",
        "sources[].format",
        "sources[].graph",
        "sources[].group",
        "sources[].homepage",
        "sources[].id",
        "sources[].id_shapes",
        "sources[].id_shapes[].charset",
        "sources[].id_shapes[].example",
        "sources[].id_shapes[].max_len",
        "sources[].id_shapes[].min_len",
        "sources[].id_shapes[].prefix",
        "sources[].kind",
        "sources[].ontology_iri",
        "sources[].license",
        "sources[].prefix_use",
        "sources[].release",
        "sources[].release_origin",
        "sources[].release_origin.file",
        "sources[].release_origin.file.property",
        "sources[].scope",
        "sources[].title",
        "sources[].top_concepts",
        "sources[].url",
    ],
);
/// `schema.json`'s fields at [`FORMAT_VERSION`].
const SCHEMA: (u32, &[&str]) = (
    19,
    &[
        "format_version",
        "graphs",
        "graphs.*",
        "graphs.*.classes",
        "graphs.*.classes.*",
        "graphs.*.predicates",
        "graphs.*.predicates.*",
        "graphs.*.triples",
    ],
);
/// `confidence-model.toml`'s keys at [`MODEL_FORMAT`] (weights by feature name are data).
const MODEL: (u32, &[&str]) = (
    1,
    &[
        "candidate",
        "candidate.bias",
        "candidate.weights",
        "candidate.weights.*",
        "format",
        "held_out",
        "held_out.candidate_ece",
        "held_out.candidates",
        "held_out.mention_ece",
        "held_out.mention_f1",
        "held_out.mentions",
        "learned_name",
        "learned_name[].concept",
        "learned_name[].corpus",
        "learned_name[].mentions",
        "learned_name[].name",
        "mention",
        "mention.bias",
        "mention.weights",
        "mention.weights.*",
        "mention_threshold",
        "trained_on",
        "trained_on[].citation",
        "trained_on[].file",
        "trained_on[].id",
        "trained_on[].sha256",
        "version",
    ],
);
/// `name-rules.toml`'s keys at [`RULES_FORMAT`].
const RULES: (u32, &[&str]) = (
    1,
    &[
        "class_heads",
        "format",
        "generic_names",
        "head_words",
        "head_words.*",
        "irregular_plurals",
        "irregular_plurals.*",
        "modifier_words",
        "modifier_words.*",
        "not_plural_endings",
        "omitted_heads",
        "plural_endings",
        "plural_endings.*",
        "product_heads",
        "spellings",
        "spellings[].at",
        "spellings[].from",
        "spellings[].to",
        "stop_words",
        "version",
    ],
);

#[test]
fn every_parsed_index_file_has_the_fields_of_its_format_version() {
    let r = default_index();
    let dir = r.build_dir();
    let read = |name: &str| -> Value {
        serde_json::from_slice(&std::fs::read(dir.join(name)).expect("read")).expect("json")
    };
    let mut manifest = BTreeSet::new();
    json_fields(
        &read("manifest.json"),
        "",
        &["counts.by_prefix", "sources[].counts.by_kind"],
        &mut manifest,
    );
    assert_fields("manifest.json", FORMAT_VERSION, MANIFEST, &manifest);

    let mut schema = BTreeSet::new();
    json_fields(
        &read("schema.json"),
        "",
        &["graphs", "graphs.*.predicates", "graphs.*.classes"],
        &mut schema,
    );
    assert_fields("schema.json", FORMAT_VERSION, SCHEMA, &schema);

    // The bundled rules file, which every build copies as it is.
    let text = std::fs::read_to_string(repo().join("ontologies/name-rules.toml")).expect("rules");
    let rules: toml::Value = toml::from_str(&text).expect("toml");
    let rules = serde_json::to_value(rules).expect("TOML reads as JSON");
    let mut fields = BTreeSet::new();
    json_fields(
        &rules,
        "",
        &[
            "irregular_plurals",
            "plural_endings",
            "head_words",
            "modifier_words",
        ],
        &mut fields,
    );
    assert_fields("name-rules.toml", RULES_FORMAT, RULES, &fields);

    // The bundled confidence model, which every build copies as it is.
    let text =
        std::fs::read_to_string(repo().join("ontologies/confidence-model.toml")).expect("model");
    let model: toml::Value = toml::from_str(&text).expect("toml");
    let model = serde_json::to_value(model).expect("TOML reads as JSON");
    let mut fields = BTreeSet::new();
    json_fields(
        &model,
        "",
        &["candidate.weights", "mention.weights"],
        &mut fields,
    );
    assert_fields("confidence-model.toml", MODEL_FORMAT, MODEL, &fields);
    // Every field the rules type declares, set in the bundled file or not: a new optional
    // field changes the format too.
    let declared = toml::to_string(&ontoresolve::index::names::NameRules::default())
        .expect("the rules serialize");
    let declared: toml::Value = toml::from_str(&declared).expect("toml");
    let declared: BTreeSet<String> = declared
        .as_table()
        .expect("a table")
        .keys()
        .cloned()
        .collect();
    let recorded: BTreeSet<String> = RULES
        .1
        .iter()
        .filter(|f| !f.contains(['.', '[']))
        .map(|f| f.to_string())
        .collect();
    assert_eq!(
        declared, recorded,
        "name-rules.toml: the fields NameRules declares differ from those recorded for format \
         {RULES_FORMAT}: raise RULES_FORMAT and record them"
    );
}
