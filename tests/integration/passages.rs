//! `ground_passage` on the default index: abbreviations the passage defines are grounded
//! through their long form, the longest name wins its place with shorter ones kept as
//! alternatives, spans are character offsets, and bad input gets its specific error. How names
//! are read (coordinations, classes, eponyms, headings) is in `passages_readings`.

use ontoresolve::model::WireName;
use serde_json::{Value, json};

use ontoresolve::mcp::dto::PassageArgs;
use ontoresolve::mcp::tools;

use crate::support::{default_index, default_index_unweighed};

pub(crate) fn ground(text: &str, sources: Option<&[&str]>, limit: Option<u32>) -> Value {
    ground_on(default_index(), text, sources, limit)
}

/// [`ground`] on the default index read without its confidence model: every span is a
/// mention and no corpus name stands in, for tests of how names are read.
pub(crate) fn ground_unweighed(text: &str, sources: Option<&[&str]>, limit: Option<u32>) -> Value {
    ground_on(default_index_unweighed(), text, sources, limit)
}

fn ground_on(
    r: &ontoresolve::resolve::Resolver,
    text: &str,
    sources: Option<&[&str]>,
    limit: Option<u32>,
) -> Value {
    let answer = tools::ground_passage(
        r,
        &PassageArgs {
            text: text.into(),
            sources: sources.map(|s| s.iter().map(|x| x.to_string()).collect()),
            limit,
            groups: None,
        },
    )
    .expect("answers");
    serde_json::to_value(&answer).expect("json")
}

/// Every span the passage read, in text order: its mentions and the spans the model doubts
/// (`uncertain`), which are read alike. These tests are of readings; `confidence.rs` tests
/// which spans are mentions.
pub(crate) fn mentions(answer: &Value) -> Vec<Value> {
    let mut all: Vec<Value> = ["mentions", "uncertain"]
        .iter()
        .flat_map(|k| answer["result"][*k].as_array().cloned().unwrap_or_default())
        .collect();
    all.sort_by_key(|m| (m["start"].as_u64(), m["end"].as_u64()));
    all
}

pub(crate) fn first_curie(mention: &Value) -> &str {
    mention["candidates"][0]["concept"]["curie"]
        .as_str()
        .unwrap_or("")
}

pub(crate) fn curies(mention: &Value) -> Vec<&str> {
    mention["candidates"]
        .as_array()
        .map(|c| {
            c.iter()
                .filter_map(|x| x["concept"]["curie"].as_str())
                .collect()
        })
        .unwrap_or_default()
}

/// The mention whose text is `text`, failing with the whole answer when there is none.
pub(crate) fn mention_with_text<'a>(found: &'a [Value], text: &str, answer: &Value) -> &'a Value {
    found
        .iter()
        .find(|m| m["text"] == text)
        .unwrap_or_else(|| panic!("{text} is a mention: {answer:#}"))
}

/// The candidate of `mention` whose CURIE is `curie`, failing with the mention.
pub(crate) fn candidate<'a>(mention: &'a Value, curie: &str) -> &'a Value {
    mention["candidates"]
        .as_array()
        .and_then(|c| c.iter().find(|x| x["concept"]["curie"] == curie))
        .unwrap_or_else(|| panic!("{curie} is a candidate: {mention:#}"))
}

/// The text a mention's character span covers.
pub(crate) fn spanned(text: &str, start: &Value, end: &Value) -> String {
    let (start, end) = (
        start.as_u64().unwrap_or(0) as usize,
        end.as_u64().unwrap_or(0) as usize,
    );
    text.chars().skip(start).take(end - start).collect()
}

#[test]
fn a_defined_abbreviation_is_grounded_through_its_long_form_at_every_use() {
    let text = "Huntington disease (HD) is a neurodegenerative disorder. The mutation causes \
                chorea in HD patients.";
    let answer = ground(text, Some(&["mesh"]), None);
    let hd: Vec<Value> = mentions(&answer)
        .into_iter()
        .filter(|m| m["text"] == "HD")
        .collect();
    assert_eq!(hd.len(), 2, "{answer:#}");
    for m in &hd {
        assert_eq!(first_curie(m), "MESH:D006816", "{m:#}");
        let of = &m["abbreviation_of"];
        assert_eq!(of["long_form"], "Huntington disease", "{m:#}");
        assert_eq!(
            spanned(text, &of["start"], &of["end"]),
            "Huntington disease"
        );
        assert_eq!(spanned(text, &m["start"], &m["end"]), "HD");
    }
    let long = mentions(&answer)
        .into_iter()
        .find(|m| m["text"] == "Huntington disease")
        .expect("the long form is a mention too");
    assert_eq!(first_curie(&long), "MESH:D006816");
    assert_eq!(
        answer["result"]["abbreviations"][0],
        json!({ "short_form": "HD", "long_form": "Huntington disease" })
    );
    let top = &answer["result"]["concepts"][0];
    assert_eq!(top["concept"]["curie"], "MESH:D006816");
    assert_eq!(top["mentions"], 3);
}

#[test]
fn an_abbreviation_inside_a_name_grounds_to_the_disease_and_still_lists_the_gene() {
    let text = "Germline mutations in the von Hippel-Lindau (VHL) disease tumour suppressor \
                gene predispose to renal carcinoma. Loss of VHL was seen in most tumours.";
    let answer = ground(text, None, Some(10));
    let vhl: Vec<Value> = mentions(&answer)
        .into_iter()
        .filter(|m| m["text"].as_str().is_some_and(|t| t.contains("VHL")))
        .collect();
    assert_eq!(vhl.len(), 2, "the definition and the later use: {answer:#}");
    for m in &vhl {
        let listed = curies(m);
        let disease = listed.iter().position(|c| *c == "MESH:D006623");
        let gene = listed.iter().position(|c| *c == "HGNC:12687");
        assert!(
            disease.is_some() && gene.is_some() && disease < gene,
            "the disease first, the gene still listed: {listed:?}"
        );
        assert_eq!(m["abbreviation_of"]["long_form"], "von Hippel-Lindau");
    }
}

#[test]
fn the_longest_name_wins_and_shorter_names_inside_it_are_alternatives() {
    let text = "Women with hereditary breast cancer were compared.";
    let answer = ground(text, None, None);
    let found = mentions(&answer);
    let long = found
        .iter()
        .find(|m| m["text"] == "hereditary breast cancer")
        .unwrap_or_else(|| panic!("the longest name is the mention: {answer:#}"));
    let alternatives: Vec<&str> = long["alternatives"]
        .as_array()
        .map(|a| a.iter().filter_map(|x| x["text"].as_str()).collect())
        .unwrap_or_default();
    assert!(alternatives.contains(&"breast cancer"), "{long:#}");
    assert!(
        !found.iter().any(|m| m["text"] == "breast cancer"),
        "a name inside the mention is an alternative, not a second mention"
    );
    assert!(
        !found.iter().any(|m| m["text"] == "Women"),
        "generic words are not grounded alone: {answer:#}"
    );
}

#[test]
fn spans_count_characters_in_unicode_text_and_markup_is_read_around() {
    let text = "<p>Ein Fall von <b>Huntington’s disease</b> — und Mukoviszidose.</p> \
                Cystic fibrosis (CF) in ünïcödé text; CF again.";
    let answer = ground(text, Some(&["mesh"]), None);
    for m in mentions(&answer) {
        assert_eq!(
            spanned(text, &m["start"], &m["end"]),
            m["text"].as_str().unwrap_or(""),
            "{m:#}"
        );
    }
    let cf: Vec<Value> = mentions(&answer)
        .into_iter()
        .filter(|m| m["text"] == "CF")
        .collect();
    assert_eq!(cf.len(), 2, "{answer:#}");
    assert!(cf.iter().all(|m| first_curie(m) == "MESH:D003550"));
    assert!(
        !mentions(&answer)
            .iter()
            .any(|m| m["text"] == "p" || m["text"] == "b"),
        "tags are not names"
    );
}

#[test]
fn a_twenty_kilobyte_passage_is_grounded_whole() {
    let sentence = "Patients with cystic fibrosis and Huntington disease were seen. ";
    let text: String = sentence.repeat(20 * 1024 / sentence.len());
    assert!(text.len() <= 20 * 1024);
    let answer = ground(&text, Some(&["mesh"]), Some(1));
    let found = mentions(&answer);
    let copies = 20 * 1024 / sentence.len();
    assert_eq!(found.len(), 2 * copies, "every mention of every copy");
    let last = found.last().expect("mentions");
    assert_eq!(
        spanned(&text, &last["start"], &last["end"]),
        "Huntington disease"
    );
}

#[test]
fn empty_text_too_long_text_and_an_unknown_source_get_their_specific_errors() {
    let r = default_index();
    let args = |text: String, sources: Option<Vec<String>>, limit: Option<u32>| PassageArgs {
        text,
        sources,
        limit,
        groups: None,
    };
    let code = |a: PassageArgs| match tools::ground_passage(r, &a) {
        Ok(_) => "ok".to_string(),
        Err(e) => {
            let json = e.to_json(&json!({ "text": a.text }));
            assert!(json.to_string().len() <= 2048, "error answer over 2 KB");
            e.code.wire_name().to_string()
        }
    };
    assert_eq!(code(args("  ".into(), None, None)), "invalid_argument");
    assert_eq!(code(args("x".repeat(30_000), None, None)), "limit_exceeded");
    assert_eq!(code(args("HD".into(), None, Some(11))), "invalid_argument");
    assert_eq!(
        code(args("HD".into(), Some(vec!["nosuch".into()]), None)),
        "unknown_source"
    );
    let nothing = ground("qwxz plorf zzgl.", None, None);
    assert_eq!(nothing["total"], 0);
    assert!(
        nothing["suggestion"].as_str().is_some(),
        "an empty answer says why"
    );
}

#[test]
fn an_ordinary_word_is_not_read_as_the_abbreviation_spelled_with_its_letters() {
    // MeSH lists "GAVE" (gastric antral vascular ectasia) as an entry term; "gave" is a verb.
    let text = "The mutation gave rise to cancer in three families.";
    let answer = ground(text, Some(&["mesh"]), None);
    let found = mentions(&answer);
    let texts: Vec<String> = found
        .iter()
        .map(|m| spanned(text, &m["start"], &m["end"]))
        .collect();
    assert!(!texts.iter().any(|t| t == "gave"), "{texts:?}");
    let cancer = found
        .iter()
        .find(|m| spanned(text, &m["start"], &m["end"]) == "cancer")
        .unwrap_or_else(|| panic!("cancer is a mention: {texts:?}"));
    assert_eq!(first_curie(cancer), "MESH:D009369", "{cancer}");
    let gave = ground("GAVE was seen at endoscopy.", Some(&["mesh"]), None);
    assert_eq!(
        first_curie(&mentions(&gave)[0]),
        "MESH:D020252",
        "written in capitals it is the abbreviation: {gave}"
    );
}

#[test]
fn a_longer_name_that_starts_with_a_defined_abbreviation_wins_its_place() {
    let text = "Glucose-6-phosphate dehydrogenase (G6PD) is an enzyme of red cells. \
                G6PD deficiency causes hemolysis.";
    let answer = ground(text, Some(&["mesh"]), None);
    let found = mentions(&answer);
    let deficiency = found
        .iter()
        .find(|m| spanned(text, &m["start"], &m["end"]) == "G6PD deficiency")
        .unwrap_or_else(|| panic!("'G6PD deficiency' is one mention: {answer}"));
    assert_eq!(first_curie(deficiency), "MESH:D005955", "{deficiency}");
    assert!(
        deficiency["abbreviation_of"].is_null(),
        "read as the name it is: {deficiency}"
    );
}

#[test]
fn each_part_of_a_composite_abbreviation_is_grounded_through_its_part_of_the_long_form() {
    let text = "Hereditary hyperparathyroidism-jaw tumor syndrome (HPT-JT) is dominant. \
                HPT was seen in four and JT in two of the carriers.";
    let answer = ground(text, Some(&["mesh"]), None);
    let found = mentions(&answer);
    let used = |t: &str| {
        found
            .iter()
            .find(|m| m["text"] == t && m.get("abbreviation_of").is_some())
            .unwrap_or_else(|| panic!("{t} is a defined abbreviation's use: {answer:#}"))
    };
    assert_eq!(first_curie(used("HPT")), "MESH:D006961");
    assert_eq!(first_curie(used("JT")), "MESH:D007573");
}

#[test]
fn an_abbreviation_whose_letters_spell_less_than_the_name_is_grounded_through_the_whole_name() {
    let text =
        "Amyloidosis in familial Mediterranean fever (MEF). Eight MEF patients were studied.";
    let answer = ground(text, Some(&["mesh"]), None);
    let found = mentions(&answer);
    let uses: Vec<&Value> = found.iter().filter(|m| m["text"] == "MEF").collect();
    assert_eq!(uses.len(), 2, "{answer:#}");
    for used in uses {
        assert_eq!(first_curie(used), "MESH:D010505", "{used:#}");
        let long = &used["abbreviation_of"];
        assert_eq!(long["long_form"], "familial Mediterranean fever");
        assert_eq!(
            spanned(text, &long["start"], &long["end"]),
            "familial Mediterranean fever",
            "{used:#}"
        );
    }
}

#[test]
fn an_ordinary_word_is_not_a_mixed_case_abbreviation_spelled_with_its_letters() {
    let answer = ground(
        "The same mutation was found in SAMe-treated cells.",
        None,
        None,
    );
    let found = mentions(&answer);
    assert!(found.iter().all(|m| m["text"] != "same"), "{answer:#}");
    // Written as the abbreviation, it is one.
    let same = mention_with_text(&found, "SAMe", &answer);
    assert_eq!(first_curie(same), "MESH:D012436", "{same:#}");
    // A word written in mixed case is read as written.
    let apob = ground("Patients had high apoB levels.", Some(&["mesh"]), None);
    let found = mentions(&apob);
    let written = mention_with_text(&found, "apoB", &apob);
    assert_eq!(first_curie(written), "MESH:D001055", "{written:#}");
}

#[test]
fn a_short_form_whose_long_form_names_nothing_keeps_only_readings_that_could_be_it() {
    // The passage says HD is heteroduplex and WASP the WAS protein: Huntington disease and
    // wasps are not what the letters mean here, and their uses are left unread, counted.
    let text = "Heteroduplex (HD) analysis showed HD bands. The WAS protein (WASP) binds actin.";
    let answer = ground(text, Some(&["mesh"]), None);
    let found = mentions(&answer);
    assert!(
        found
            .iter()
            .all(|m| m["text"] != "HD" && m["text"] != "WASP"),
        "{answer:#}"
    );
    let abbreviations = &answer["result"]["abbreviations"];
    assert_eq!(abbreviations[0]["short_form"], "HD", "{answer:#}");
    assert_eq!(abbreviations[0]["unread_uses"], 2, "{answer:#}");
    // A reading that shares a word with the long form may be it: the gene LPP is the
    // "LIM domain containing preferred translocation partner in lipoma".
    let text = "The lipoma preferred partner (LPP) gene fuses with HMGIC. LPP is expressed.";
    let answer = ground(text, None, None);
    let found = mentions(&answer);
    let uses: Vec<&Value> = found.iter().filter(|m| m["text"] == "LPP").collect();
    assert_eq!(uses.len(), 2, "{answer:#}");
    assert!(
        uses.iter().all(|m| first_curie(m) == "HGNC:6679"),
        "{answer:#}"
    );
}

#[test]
fn a_class_of_chemicals_such_as_the_drug_or_placebo_is_not_grounded_as_one() {
    let answer = ground(
        "Patients received the drug or placebo for 12 weeks, and other drugs were stopped.",
        Some(&["mesh"]),
        None,
    );
    let result = &answer["result"];
    assert!(
        result["mentions"].as_array().is_none_or(Vec::is_empty),
        "no mention: {result}"
    );
    let skipped: Vec<&str> = result["generic_skipped"]
        .as_array()
        .expect("the generic names are counted as skipped")
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    for word in ["drug", "placebo", "drugs"] {
        assert!(skipped.contains(&word), "{word} not among {skipped:?}");
    }
    // Inside a longer name they still count.
    let answer = ground("He had a drug hypersensitivity.", Some(&["mesh"]), None);
    let mentions = answer["result"]["mentions"].as_array().expect("a mention");
    assert!(
        mentions.iter().any(|m| m["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("drug hypersensitivity"))),
        "{answer}"
    );
}
