//! A build that keeps the installed build's leading sources takes their records, flags,
//! lexicon postings and full text as stored, and each segment of the mapping index when
//! nothing it is made of changed: the result is byte for byte the build a full rebuild gives,
//! answers alike, and a damaged installed file is never carried.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ontoresolve::build::{BuildObserver, BuildOptions, BuildSummary, build};
use ontoresolve::resolve::Resolver;

use crate::support::{fixtures, fixtures_plus_source, scratch};

/// Remembers the build's stage lines.
#[derive(Default)]
struct Stages(Mutex<Vec<String>>);

impl BuildObserver for Stages {
    fn stage(&self, name: &str) {
        if let Ok(mut lines) = self.0.lock() {
            lines.push(name.to_string());
        }
    }
}

impl Stages {
    fn any(&self, starts: &str) -> bool {
        self.0
            .lock()
            .map(|l| l.iter().any(|s| s.starts_with(starts)))
            .unwrap_or(false)
    }

    fn all(&self) -> String {
        self.0.lock().map(|l| l.join("\n")).unwrap_or_default()
    }
}

fn build_watched(catalog: &Path, index: &Path) -> (BuildSummary, Stages) {
    let stages = Stages::default();
    let summary = build(
        &BuildOptions {
            catalog: catalog.to_path_buf(),
            index_dir: index.to_path_buf(),
            keep_going: false,
        },
        &stages,
    )
    .unwrap_or_else(|e| panic!("build of {} failed: {e}", catalog.display()));
    (summary, stages)
}

/// The fixture catalogue alone, and the fixtures followed by a small OBO source.
fn catalogues(dir: &Path) -> (PathBuf, PathBuf) {
    let extra = dir.join("extra.obo");
    std::fs::write(
        &extra,
        "format-version: 1.2\ndata-version: 2026-01-01\nontology: xe\n\n\
         [Term]\nid: XD:0000501\nname: lung disease of the extra kind\nxref: MESH:D011014\n\n\
         [Term]\nid: XD:0000502\nname: pulmonary disease\ndef: \"A disease of the lung.\" []\nis_a: XD:0000501\n",
    )
    .expect("write the extra source");
    let with_extra = fixtures_plus_source(
        dir,
        "xe",
        "obo",
        &extra,
        // A prefix the fixtures declare: a new one would change how identifiers read, and
        // every source would be read again.
        "format = \"obo\"",
    );
    let text = std::fs::read_to_string(fixtures().join("fixtures.toml")).expect("read");
    let alone = dir.join("alone.toml");
    std::fs::write(
        &alone,
        text.replace("path = \"", &format!("path = \"{}/", fixtures().display())),
    )
    .expect("write the catalogue");
    (alone, with_extra)
}

fn file_checksums(summary: &BuildSummary) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = summary
        .manifest
        .files
        .iter()
        .map(|f| (f.name.clone(), f.sha256.clone()))
        .collect();
    files.sort();
    files
}

/// A manifest without when and how long its build took: what two builds of the same inputs
/// share.
fn manifest_without_times(summary: &BuildSummary) -> serde_json::Value {
    let mut manifest = serde_json::to_value(&summary.manifest).expect("a manifest as JSON");
    if let Some(fields) = manifest.as_object_mut() {
        fields.remove("built");
    }
    manifest
}

/// Asserts that `built` has the files, build id and manifest (counts, segments, footprints)
/// of a fresh build of `catalog` in `fresh`.
fn assert_equals_a_fresh_build(built: &BuildSummary, catalog: &Path, fresh: &Path) {
    let (full, _) = build_watched(catalog, fresh);
    assert_eq!(file_checksums(built), file_checksums(&full));
    assert_eq!(built.manifest.build_id, full.manifest.build_id);
    assert_eq!(manifest_without_times(built), manifest_without_times(&full));
}

/// What full text and exact lookups answer, for comparing two indexes.
fn answers(index: &Path) -> Vec<String> {
    let r = Resolver::open(index).expect("open the index");
    let mut out = Vec::new();
    for text in ["disease", "lung", "pulmonary disease", "pneumonia lung"] {
        let (hits, more) = r.lexicon().search(text, None, 20).expect("search");
        // Scores as answers show them: tantivy sums per segment, so the last bit may differ.
        let hits: Vec<String> = hits
            .iter()
            .map(|h| format!("{:?} {:.4}", h.concept, h.score))
            .collect();
        out.push(format!("{text}: {hits:?} {more}"));
    }
    for id in ["XD:0000004", "XD:0000502", "MESH:D011014"] {
        out.push(format!(
            "{id}: {:?}",
            r.lexicon().lookup_id(id).expect("the index reads")
        ));
    }
    out
}

#[test]
fn a_source_added_at_the_end_carries_the_rest_and_equals_a_full_rebuild() {
    let dir = scratch("carried-build");
    let (alone, with_extra) = catalogues(&dir);
    let (index, fresh) = (dir.join("index"), dir.join("fresh"));
    let (first, _) = build_watched(&alone, &index);

    let (added, stages) = build_watched(&with_extra, &index);
    assert!(
        stages.any("taking the first 4 sources'"),
        "the fixtures are carried: {}",
        stages.all()
    );
    assert_equals_a_fresh_build(&added, &with_extra, &fresh);
    assert_eq!(answers(&index), answers(&fresh));

    // Removing the last source carries the rest; its full text is written again without it.
    let (removed, stages) = build_watched(&alone, &index);
    assert!(
        stages.any("taking the first 4 sources'"),
        "{}",
        stages.all()
    );
    assert!(
        !stages.any("taking the full text whole"),
        "{}",
        stages.all()
    );
    assert_eq!(file_checksums(&removed), file_checksums(&first));
    let (again, _) = build_watched(&alone, &dir.join("fresh-alone"));
    assert_eq!(answers(&index), answers(&dir.join("fresh-alone")));
    assert_eq!(file_checksums(&again), file_checksums(&first));
}

#[test]
fn a_damaged_installed_file_is_never_carried_and_every_source_is_read_again() {
    let dir = scratch("carried-damage");
    let (alone, _) = catalogues(&dir);
    let index = dir.join("index");
    let (first, _) = build_watched(&alone, &index);

    // One byte of a label changes: the record still decodes, so only a checksum can tell.
    let (data, mut bytes, at) = (first.manifest.files.iter())
        .filter(|f| f.name.starts_with("concepts-") && f.name.ends_with(".dat"))
        .find_map(|f| {
            let data = first.dir.join(&f.name);
            let bytes = std::fs::read(&data).expect("read a table segment");
            let at = bytes.windows(7).position(|w| w == b"disease")?;
            Some((data, bytes, at))
        })
        .expect("a label");
    let segment = data
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_string();
    bytes[at] = b'D';
    std::fs::write(&data, bytes).expect("damage the table");

    let (rebuilt, stages) = build_watched(&alone, &index);
    assert!(
        stages.any("reading every source: the installed build is damaged"),
        "{}",
        stages.all()
    );
    assert!(stages.all().contains(&segment), "{}", stages.all());
    assert!(!stages.any("taking the first"), "{}", stages.all());
    assert_eq!(file_checksums(&rebuilt), file_checksums(&first));
}

#[test]
fn a_damaged_lexicon_segment_is_never_taken_and_every_source_is_read_again() {
    let dir = scratch("carried-damaged-segment");
    let (alone, with_extra) = catalogues(&dir);
    let index = dir.join("index");
    let (first, _) = build_watched(&alone, &index);

    let segment = (first.manifest.files.iter())
        .map(|f| f.name.clone())
        .find(|n| n.starts_with("labels-") && n.ends_with(".postings"))
        .expect("a label segment");
    let path = first.dir.join(&segment);
    let mut bytes = std::fs::read(&path).expect("read the segment");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&path, bytes).expect("damage the segment");

    let (rebuilt, stages) = build_watched(&with_extra, &index);
    assert!(
        stages.any("reading every source: the installed build is damaged"),
        "{}",
        stages.all()
    );
    assert!(stages.all().contains(&segment), "{}", stages.all());
    assert!(
        stages.all().contains("read anew (0 taken as stored)"),
        "{}",
        stages.all()
    );
    assert_equals_a_fresh_build(&rebuilt, &with_extra, &dir.join("fresh"));
}

/// The fixtures followed by OBO sources, each `(id, declared prefix, URI prefix, body)`, and
/// the fixture mapping set.
fn fixtures_with_obo(dir: &Path, name: &str, sources: &[(&str, &str, &str, &str)]) -> PathBuf {
    let text = std::fs::read_to_string(fixtures().join("fixtures.toml")).expect("read");
    let mut catalogue = text.replace("path = \"", &format!("path = \"{}/", fixtures().display()));
    for (id, prefix, uri_prefix, body) in sources {
        let file = dir.join(format!("{id}.obo"));
        std::fs::write(
            &file,
            format!("format-version: 1.2\ndata-version: 2026-01-01\nontology: {id}\n\n{body}"),
        )
        .expect("write a source");
        catalogue.push_str(&format!(
            "\n[[source]]\nid = \"{id}\"\ntitle = \"{id}\"\nkind = \"obo\"\nformat = \"obo\"\n\
             path = \"{}\"\nprefixes = [{{ prefix = \"{prefix}\", uri_prefix = \"{uri_prefix}\" }}]\n\
             license = \"test\"\nattribution = \"test\"\nhomepage = \"https://example.org\"\n\
             scope = \"test\"\n",
            file.display()
        ));
    }
    // A mapping set whose rows name a prefix no source declares.
    catalogue.push_str(&format!(
        "\n[[source]]\nid = \"chain\"\ntitle = \"chain\"\nkind = \"sssom\"\n\
         path = \"{}/sssom/chain.sssom.tsv\"\nrelease = \"1\"\nlicense = \"CC0\"\n\
         attribution = \"test\"\nhomepage = \"https://example.org\"\nscope = \"test\"\n",
        fixtures().display()
    ));
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, catalogue).expect("write the catalogue");
    path
}

#[test]
fn a_source_with_a_prefix_of_its_own_reads_again_only_the_sources_that_use_the_prefix() {
    let dir = scratch("carried-new-prefix");
    // `zu` names a parent under ZP before any source declares ZP: it reads as an OBO PURL
    // then, and under the declared URI prefix once `zp` is catalogued.
    let zu = (
        "zu",
        "ZU",
        "http://purl.obolibrary.org/obo/ZU_",
        "[Term]\nid: ZU:0000001\nname: zu lung condition\nis_a: ZP:0000009\n",
    );
    let zp = (
        "zp",
        "ZP",
        "http://example.org/zp/",
        "[Term]\nid: ZP:0000009\nname: zp respiratory condition\n",
    );
    let yo = (
        "yo",
        "YO",
        "http://purl.obolibrary.org/obo/YO_",
        "[Term]\nid: YO:0000001\nname: yo lung finding\nxref: MESH:D011014\n",
    );
    let before = fixtures_with_obo(&dir, "before", &[zu]);
    let after = fixtures_with_obo(&dir, "after", &[zu, zp]);
    let untouched = fixtures_with_obo(&dir, "untouched", &[zu, yo]);
    let index = dir.join("index");
    build_watched(&before, &index);

    let (added, stages) = build_watched(&after, &index);
    assert!(
        stages.any("taking the first 4 sources'"),
        "{}",
        stages.all()
    );
    assert!(
        stages.any("keeping 1 unchanged mapping-set"),
        "{}",
        stages.all()
    );
    assert!(
        stages.any("zu: reading it again, as the prefix ZP"),
        "{}",
        stages.all()
    );
    assert_equals_a_fresh_build(&added, &after, &dir.join("fresh-after"));

    // Dropping ZP again reads `zu` again; a new prefix that `zu` never used leaves it be.
    let (_, stages) = build_watched(&before, &index);
    assert!(stages.any("zu: reading it again"), "{}", stages.all());
    let (yo_added, stages) = build_watched(&untouched, &index);
    assert!(
        stages.any("taking the first 5 sources'"),
        "{}",
        stages.all()
    );
    assert!(!stages.any("zu: reading it again"), "{}", stages.all());
    assert_equals_a_fresh_build(&yo_added, &untouched, &dir.join("fresh-untouched"));

    // The set maps to NCIT, which no source declared: declaring it reads the set again.
    let ncit = (
        "nc",
        "NCIT",
        "http://purl.obolibrary.org/obo/NCIT_",
        "[Term]\nid: NCIT:C1\nname: a thesaurus thing\n",
    );
    let declared = fixtures_with_obo(&dir, "declared", &[zu, yo, ncit]);
    let (declared_build, stages) = build_watched(&declared, &index);
    assert!(
        stages.any("taking the first 6 sources'"),
        "{}",
        stages.all()
    );
    assert!(!stages.any("keeping"), "{}", stages.all());
    assert_equals_a_fresh_build(&declared_build, &declared, &dir.join("fresh-declared"));
}

/// The fixtures followed by two releases of the extra source, the older first (as a catalogue
/// lists them), or by the newer alone.
fn two_releases(dir: &Path) -> (PathBuf, PathBuf) {
    let (_, with_extra) = catalogues(dir);
    let text = std::fs::read_to_string(&with_extra).expect("read");
    let at = text.rfind("[[source]]").expect("the extra source's entry");
    let (head, entry) = text.split_at(at);
    // Releases of one source each state their release.
    let released = |entry: &str, release: &str| {
        entry.replacen(
            "[[source]]\n",
            &format!("[[source]]\nrelease = \"{release}\"\n"),
            1,
        )
    };
    let newer = released(entry, "2026-01-01");
    let newer_only = dir.join("newer-only.toml");
    std::fs::write(&newer_only, format!("{head}{newer}")).expect("write");
    let older = dir.join("extra-older.obo");
    std::fs::write(
        &older,
        "format-version: 1.2\ndata-version: 2025-01-01\nontology: xe\n\n\
         [Term]\nid: XD:0000501\nname: lung disease of an older kind\nxref: MESH:D011014\n",
    )
    .expect("write the older release");
    let older_entry = released(entry, "2025-01-01").replace(
        &dir.join("extra.obo").display().to_string(),
        &older.display().to_string(),
    );
    assert!(older_entry.contains("extra-older.obo"), "{older_entry}");
    let both = dir.join("both-releases.toml");
    std::fs::write(&both, format!("{head}{older_entry}\n{newer}")).expect("write");
    (newer_only, both)
}

#[test]
fn adding_an_older_release_takes_the_mapping_index_and_equals_a_full_rebuild() {
    let dir = scratch("carried-mappings");
    let (newer_only, both) = two_releases(&dir);
    let index = dir.join("index");
    build_watched(&newer_only, &index);

    let (added, stages) = build_watched(&both, &index);
    assert!(
        stages.any("taking the mapping sets' segment") && stages.any(NO_SEGMENT_WRITTEN),
        "an older release feeds no mapping: {}",
        stages.all()
    );
    assert_equals_a_fresh_build(&added, &both, &dir.join("fresh"));
    // Only the added release's keys are written: the newer release's lexicon segments count
    // its concepts from its own first, so they are taken as stored though it moved.
    let releases = added.manifest.sources.len() - 1;
    assert!(
        stages.any(&format!(
            "writing the lexicon segments of 1 release read anew ({releases} taken as stored)"
        )),
        "{}",
        stages.all()
    );
    // The installed full text is taken whole: the newer release's documents, which now count
    // from a later id, still name its concepts.
    assert!(stages.any("taking the full text whole"), "{}", stages.all());
    assert_eq!(answers(&index), answers(&dir.join("fresh")));
    // The current release's cross-reference still names its own source and release, though
    // the older release now sits before it.
    let r = Resolver::open(&index).expect("open the index");
    let manifest = r.manifest();
    let xe = manifest
        .sources
        .iter()
        .position(|s| s.id == "xe" && s.current)
        .expect("the current xe");
    assert_eq!(
        manifest.xref_source_index(4),
        Some(xe),
        "{:?}",
        manifest.sources
    );

    // Removing the older release again changes nothing the mapping index is made of.
    let (_, stages) = build_watched(&newer_only, &index);
    assert!(stages.any(NO_SEGMENT_WRITTEN), "{}", stages.all());
}

/// The stage of a build that takes every segment of the mapping index as stored.
const NO_SEGMENT_WRITTEN: &str = "writing 0 segment(s) of the mapping index";

#[test]
fn a_current_source_added_or_removed_writes_only_its_mapping_segment_and_damage_is_read_anew() {
    let dir = scratch("carried-mappings-changed");
    let (newer_only, both) = two_releases(&dir);
    let (alone, _) = catalogues(&dir);
    let index = dir.join("index");
    build_watched(&newer_only, &index);
    // The current source goes: its segment leaves, every other is taken.
    let (removed, stages) = build_watched(&alone, &index);
    assert!(stages.any(NO_SEGMENT_WRITTEN), "{}", stages.all());
    assert!(
        stages.any("taking the mapping sets' segment"),
        "{}",
        stages.all()
    );
    assert_equals_a_fresh_build(&removed, &alone, &dir.join("fresh-alone"));
    // It comes back: only its own cross-references are read.
    let (added, stages) = build_watched(&newer_only, &index);
    assert!(
        stages.any("writing 1 segment(s) of the mapping index"),
        "{}",
        stages.all()
    );
    assert_equals_a_fresh_build(&added, &newer_only, &dir.join("fresh-newer"));

    let damage = |name: &str| {
        let data = added.dir.join(name);
        let mut bytes = std::fs::read(&data).expect("read the mapping records");
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&data, bytes).expect("damage the mapping records");
    };
    let xe = (added.manifest.sources.iter())
        .find(|s| s.id == "xe" && s.current)
        .expect("xe");
    let xe_segment = ontoresolve::index::release_segment_name(&xe.graph);
    damage("mappings-sets.dat");
    damage(&format!("mappings-{xe_segment}.dat"));
    let (rebuilt, stages) = build_watched(&both, &index);
    assert!(
        stages.any("reading every mapping set: the installed mapping index is damaged"),
        "{}",
        stages.all()
    );
    assert!(
        stages.any(
            "reading the cross-references of xe again: its installed mapping segment is damaged"
        ),
        "{}",
        stages.all()
    );
    assert!(
        !stages.any("taking the mapping sets' segment"),
        "{}",
        stages.all()
    );
    assert_equals_a_fresh_build(&rebuilt, &both, &dir.join("fresh"));
}

#[test]
fn a_mapping_set_whose_release_changed_is_read_again_and_states_the_new_release() {
    let dir = scratch("carried-set-release");
    let before = fixtures_with_obo(&dir, "before", &[]);
    let text = std::fs::read_to_string(&before).expect("read");
    let after = dir.join("after.toml");
    let changed = text.replace(
        "sssom/chain.sssom.tsv\"\nrelease = \"1\"",
        "sssom/chain.sssom.tsv\"\nrelease = \"2\"",
    );
    assert_ne!(changed, text, "the set's release is in the catalogue");
    std::fs::write(&after, changed).expect("write the catalogue");
    let index = dir.join("index");
    build_watched(&before, &index);

    let (rebuilt, stages) = build_watched(&after, &index);
    assert!(
        !stages.any("taking the mapping sets' segment") && !stages.any("keeping 1 unchanged"),
        "{}",
        stages.all()
    );
    let set = (rebuilt.manifest.mapping_sets.iter())
        .find(|s| s.source == "chain")
        .expect("the chain set");
    assert_eq!(set.release, "2");
    assert_equals_a_fresh_build(&rebuilt, &after, &dir.join("fresh"));
}
