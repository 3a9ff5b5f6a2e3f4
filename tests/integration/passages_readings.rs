//! `ground_passage` on the default index: how a passage's names are read. A modifier
//! coordinated with a name takes its head (and the concept the coordination may name as a
//! whole), a phrase for a class of conditions reads as its heading, an eponym without its
//! head word as the name it starts, a record is followed by its heading, and an adjective is
//! not the field it names.

use crate::passages::{
    candidate, curies, first_curie, ground, ground_unweighed, mention_with_text, mentions, spanned,
};

#[test]
fn a_modifier_coordinated_with_a_name_is_read_with_its_head() {
    let text = "Carriers have a high risk of breast or ovarian cancer, and of colon, rectal or \
                gastric cancers.";
    let answer = ground(text, Some(&["mesh"]), None);
    let found = mentions(&answer);
    let at = |word: &str| {
        found
            .iter()
            .find(|m| spanned(text, &m["start"], &m["end"]) == word)
            .unwrap_or_else(|| panic!("'{word}' is a mention: {answer:#}"))
    };
    let breast = at("breast");
    assert_eq!(first_curie(breast), "MESH:D001943", "{breast:#}");
    assert_eq!(breast["coordinated_with"]["text"], "ovarian cancer");
    assert!(
        curies(breast).contains(&"MESH:D001940"),
        "the word's own reading (the breast) stays: {breast:#}"
    );
    assert_eq!(first_curie(at("ovarian cancer")), "MESH:D010051");
    assert_eq!(
        first_curie(at("colon")),
        "MESH:D003110",
        "colonic neoplasms"
    );
    assert_eq!(
        first_curie(at("rectal")),
        "MESH:D012004",
        "rectal neoplasms"
    );
    // A name that follows other words shares its head with nothing.
    let plain = ground(
        "Women with ovarian cancer were seen.",
        Some(&["mesh"]),
        None,
    );
    let plain_mentions = mentions(&plain);
    assert!(
        !plain_mentions.is_empty(),
        "ovarian cancer is a mention: {plain:#}"
    );
    assert!(
        plain_mentions
            .iter()
            .all(|m| m["coordinated_with"].is_null()),
        "{plain:#}"
    );
}

#[test]
fn a_class_of_conditions_reads_as_a_broader_heading_and_a_specific_name_never_does() {
    // MONDO's "autosomal recessive disease" maps to no MeSH heading, its parent does: the
    // phrase describes a class, so MeSH's Genetic Diseases, Inborn is its reading, said to be
    // broader. "Paroxysmal nocturnal hemoglobinuria" names one disease that MeSH (here) does
    // not: its broader headings (Anemia, Hemolytic) would be another concept.
    // The corpora wrote some of these phrases for their headings (corpus names): the
    // readings are those of the sources alone.
    let answer = ground_unweighed(
        "Wolman disease is an autosomal recessive disease of lipid storage. \
         Hemochromatosis is an inherited disorder. \
         Paroxysmal nocturnal hemoglobinuria was seen.",
        Some(&["mesh"]),
        Some(10),
    );
    let found = mentions(&answer);
    let class = found
        .iter()
        .find(|m| m["text"] == "autosomal recessive disease")
        .unwrap_or_else(|| panic!("the class phrase is a mention: {answer:#}"));
    let first = &class["candidates"][0];
    assert_eq!(first["concept"]["curie"], "MESH:D030342", "{class:#}");
    assert_eq!(first["match_kind"], "broader_via_mapping", "{class:#}");
    // A class phrase as a name variant ("inherited disease", MONDO) leads on through that
    // concept's own exact mapping, and stays a name variant.
    let inherited = found
        .iter()
        .find(|m| m["text"] == "inherited disorder")
        .unwrap_or_else(|| panic!("the variant class phrase is a mention: {answer:#}"));
    let first = &inherited["candidates"][0];
    assert_eq!(first["concept"]["curie"], "MESH:D030342", "{inherited:#}");
    assert_eq!(first["match_kind"], "name_variant", "{inherited:#}");
    assert!(first["via"].is_object(), "{inherited:#}");
    for mention in &found {
        let text = mention["text"].as_str().unwrap_or_default();
        if text.to_lowercase().contains("hemoglobinuria") {
            for c in mention["candidates"].as_array().into_iter().flatten() {
                assert_ne!(c["match_kind"], "broader_via_mapping", "{mention:#}");
            }
        }
    }
    assert!(
        found.iter().any(|m| m["text"] == "Wolman disease"),
        "{answer:#}"
    );
}

#[test]
fn a_name_known_only_outside_the_wanted_sources_gives_way_to_the_names_inside_it() {
    // "familial ovarian cancer" is MONDO's label, with no MeSH mapping here: read in its
    // place, MeSH's "ovarian cancer" (a name variant of Ovarian Neoplasms) is the mention.
    let text =
        "Mutations were found in familial ovarian cancer and in familial adenomatous polyposis.";
    let answer = ground(text, Some(&["mesh"]), None);
    let found = mentions(&answer);
    let inner = found
        .iter()
        .find(|m| m["text"] == "ovarian cancer")
        .unwrap_or_else(|| panic!("the inner name is a mention: {answer:#}"));
    assert_eq!(first_curie(inner), "MESH:D010051", "{inner:#}");
    assert_eq!(
        spanned(text, &inner["start"], &inner["end"]),
        "ovarian cancer"
    );
    assert!(
        found
            .iter()
            .any(|m| m["text"] == "familial adenomatous polyposis"
                && first_curie(m) == "MESH:D011125"),
        "{answer:#}"
    );
    assert!(
        !found.iter().any(|m| m["text"] == "familial ovarian cancer"),
        "{answer:#}"
    );
    // Without a filter the longer name is MONDO's mention, and the inner one an alternative.
    let all = ground(text, None, None);
    let outer = mentions(&all)
        .into_iter()
        .find(|m| m["text"] == "familial ovarian cancer")
        .unwrap_or_else(|| panic!("the longer name is a mention: {all:#}"));
    assert!(first_curie(&outer).starts_with("MONDO:"), "{outer:#}");
    // A defined abbreviation whose long form is known only outside the wanted sources has no
    // mention, and nothing inside it is read again and again.
    let defined = ground(
        "Familial ovarian cancer (FOC) is rare; FOC runs in families.",
        Some(&["mesh"]),
        None,
    );
    assert!(
        !mentions(&defined).iter().any(|m| m["text"] == "FOC"),
        "{defined:#}"
    );
}

#[test]
fn a_product_named_after_a_condition_is_a_mention_and_so_is_the_condition() {
    let text = "Mutations in the Wiskott-Aldrich syndrome protein were found in the patients.";
    let answer = ground(text, Some(&["mesh"]), None);
    let found = mentions(&answer);
    let named = |t: &str| mention_with_text(&found, t, &answer);
    assert_eq!(
        first_curie(named("Wiskott-Aldrich syndrome protein")),
        "MESH:D051316"
    );
    let condition = named("Wiskott-Aldrich syndrome");
    assert_eq!(first_curie(condition), "MESH:D014923", "{condition:#}");
    assert_eq!(
        spanned(text, &condition["start"], &condition["end"]),
        "Wiskott-Aldrich syndrome"
    );
    // A name whose last word is no product head keeps the names inside it as alternatives.
    let plain = ground(
        "She had familial adenomatous polyposis.",
        Some(&["mesh"]),
        None,
    );
    assert_eq!(mentions(&plain).len(), 1, "{plain:#}");
}

#[test]
fn an_eponym_written_without_its_head_word_reads_as_the_name_it_starts() {
    let text =
        "Three Lesch-Nyhan patients and two fragile X carriers had low von Willebrand factor.";
    let answer = ground(text, Some(&["mesh"]), None);
    let found = mentions(&answer);
    let named = |t: &str| mention_with_text(&found, t, &answer);
    let lesch = named("Lesch-Nyhan");
    assert_eq!(first_curie(lesch), "MESH:D007926", "{lesch:#}");
    assert_eq!(lesch["candidates"][0]["match_kind"], "name_variant");
    // Stated as sure as the model is of a first name variant, with its basis.
    assert!(
        lesch["candidates"][0]["confidence"].as_f64().is_some(),
        "{lesch:#}"
    );
    assert!(
        lesch["candidates"][0]["basis"].as_str().is_some(),
        "{lesch:#}"
    );
    assert_eq!(first_curie(named("fragile X")), "MESH:D005600");
    // The protein is named, and so is the disease inside its name.
    assert_eq!(first_curie(named("von Willebrand factor")), "MESH:D014841");
    assert_eq!(first_curie(named("von Willebrand")), "MESH:D014842");
    // A record's headings stay broader: only the names become name variants.
    let woude = ground("Three Van der Woude families.", Some(&["mesh"]), Some(10));
    let found = mentions(&woude);
    let record = mention_with_text(&found, "Van der Woude", &woude);
    assert_eq!(first_curie(record), "MESH:C536528", "{record:#}");
    assert_eq!(
        candidate(record, "MESH:D002971")["match_kind"],
        "broader_via_mapping",
        "cleft lip, a heading of the record: {record:#}"
    );
    // Words capitalized only to start a sentence are no eponym.
    let plain = ground("Lysosomal storage was measured.", Some(&["mesh"]), None);
    assert!(mentions(&plain).is_empty(), "{plain:#}");
}

#[test]
fn a_record_is_followed_by_the_heading_it_is_indexed_under() {
    // MeSH's supplementary record "Breast Cancer, Familial" (C562840) is indexed under Breast
    // Neoplasms: the heading follows the record, said to be broader and by which statement.
    let answer = ground(
        "Women with familial breast cancer were studied.",
        Some(&["mesh"]),
        Some(10),
    );
    let found = mentions(&answer);
    let record = mention_with_text(&found, "familial breast cancer", &answer);
    assert_eq!(first_curie(record), "MESH:C562840", "{record:#}");
    // Breast Neoplasms follows, second. The NCBI corpus also wrote "familial breast cancer"
    // for it, so it is listed as that corpus name; read without the model, the record's own
    // statement stands, with its evidence.
    assert_eq!(curies(record)[1], "MESH:D001943", "{record:#}");
    let plain = ground_unweighed(
        "Women with familial breast cancer were studied.",
        Some(&["mesh"]),
        Some(10),
    );
    let found = mentions(&plain);
    let record = mention_with_text(&found, "familial breast cancer", &plain);
    let heading = candidate(record, "MESH:D001943");
    assert_eq!(heading["match_kind"], "broader_via_mapping", "{record:#}");
    assert_eq!(heading["via"]["identifier"], "MESH:C562840", "{record:#}");
    assert_eq!(heading["via"]["predicate"], "skos:broadMatch", "{record:#}");
    assert_eq!(
        heading["via"]["asserted_by"][0]["source"], "mesh",
        "{record:#}"
    );
}

#[test]
fn a_coordination_lists_the_concept_narrower_than_each_of_its_names_after_them() {
    // Hereditary Breast and Ovarian Cancer Syndrome is a child of both Breast Neoplasms and
    // Ovarian Neoplasms: "breast or ovarian cancer" may name it as a whole ("breast and
    // ovarian cancer" is also a name the NCBI corpus wrote for it, read as that). In a passage
    // that says nothing of what narrows it (heredity, BRCA1), it follows the coordinated
    // reading and comes before the word's own readings.
    let text = "Carriers have a high risk of breast or ovarian cancer and of lung and \
                gastric cancer.";
    let answer = ground(text, Some(&["mesh"]), Some(10));
    let found = mentions(&answer);
    let breast = mention_with_text(&found, "breast", &answer);
    assert_eq!(first_curie(breast), "MESH:D001943", "{breast:#}");
    assert_eq!(curies(breast)[1], "MESH:D061325", "{breast:#}");
    let whole = candidate(breast, "MESH:D061325");
    assert_eq!(whole["match_kind"], "shared_narrower", "{breast:#}");
    assert!(
        whole.get("case_exact").is_none(),
        "no letter case was matched: {whole:#}"
    );
    assert!(curies(breast).contains(&"MESH:D001940"), "{breast:#}");
    // Lung and stomach neoplasms share no child: nothing is listed for the whole.
    let lung = mention_with_text(&found, "lung", &answer);
    let lung_candidates = lung["candidates"].as_array().expect("lung's candidates");
    assert!(!lung_candidates.is_empty(), "{lung:#}");
    assert!(
        lung_candidates
            .iter()
            .all(|c| c["match_kind"] != "shared_narrower"),
        "{lung:#}"
    );
}

#[test]
fn a_coordination_reads_first_as_the_concept_it_names_when_the_passage_says_what_narrows_it() {
    // The syndrome's names (MeSH's and MONDO's, mapped exactly) hold "breast", "ovarian" and
    // "cancer", and two of them "BRCA1": beside it, the coordination reads as the syndrome,
    // for both of its names, each keeping its own reading second.
    let text = "BRCA1 mutation carriers have a high risk of breast or ovarian cancer.";
    let answer = ground_unweighed(text, Some(&["mesh"]), Some(10));
    let found = mentions(&answer);
    let breast = mention_with_text(&found, "breast", &answer);
    assert_eq!(
        curies(breast)[..2],
        ["MESH:D061325", "MESH:D001943"],
        "{breast:#}"
    );
    assert_eq!(
        breast["candidates"][0]["match_kind"], "shared_narrower",
        "{breast:#}"
    );
    let ovarian = mention_with_text(&found, "ovarian cancer", &answer);
    assert_eq!(
        curies(ovarian)[..2],
        ["MESH:D061325", "MESH:D010051"],
        "{ovarian:#}"
    );
    let concepts: Vec<&str> = answer["result"]["concepts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["concept"]["curie"].as_str())
        .collect();
    assert!(concepts.contains(&"MESH:D061325"), "{answer:#}");
    assert!(!concepts.contains(&"MESH:D010051"), "{answer:#}");
}

#[test]
fn a_genetic_or_familial_name_meets_the_hereditary_one() {
    // "genetic" and "inherited" modifiers read as "hereditary" (`modifier_words`): "genetic
    // disorder" meets MONDO's "hereditary disease", mapped exactly to MeSH's Genetic
    // Diseases, Inborn; "inherited predisposition" meets Genetic Predisposition to Disease.
    let text = "Ataxia is a genetic disorder with an inherited predisposition to cancer.";
    let answer = ground(text, Some(&["mesh"]), None);
    let found = mentions(&answer);
    let disorder = mention_with_text(&found, "genetic disorder", &answer);
    assert_eq!(first_curie(disorder), "MESH:D030342", "{disorder:#}");
    assert_eq!(
        disorder["candidates"][0]["match_kind"], "name_variant",
        "{disorder:#}"
    );
    let predisposition = mention_with_text(&found, "inherited predisposition", &answer);
    assert_eq!(
        first_curie(predisposition),
        "MESH:D020022",
        "{predisposition:#}"
    );
}

#[test]
fn an_adjective_is_not_the_field_of_study_it_names() {
    // "-ics" names a field, not a plural: "genetic" is not Genetics, "genomic" not Genomics.
    let text = "A genetic test of genomic DNA in pediatric patients, then a genetics clinic.";
    let answer = ground(text, Some(&["mesh"]), None);
    let found = mentions(&answer);
    for adjective in ["genetic", "genomic", "pediatric"] {
        assert!(
            found.iter().all(|m| m["text"] != adjective),
            "{adjective} is no mention: {answer:#}"
        );
    }
    let field = mention_with_text(&found, "genetics", &answer);
    assert_eq!(first_curie(field), "MESH:D005823", "{field:#}");
}
