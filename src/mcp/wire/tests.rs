//! The wire names against the published schemas and the core's own names.

use std::collections::BTreeSet;

use serde_json::Value;

use super::*;
use crate::mcp::OntoServer;
use crate::model::{
    ConceptKind, ConceptStatus, EvidenceOrigin, LabelKind, LinkKind, SemanticGroup,
};
use crate::resolve::diff::ChangeKind;
use crate::resolve::mapping::{Cardinality, Conflict, ObjectStatus, RankTier};
use crate::resolve::query::{QueryDataset, QueryForm, TermKind};
use crate::resolve::{HeldAs, MatchKind, Outcome, ReleaseOrigin, Stage};

/// Every value listed in an `enum` anywhere in the tools' output schemas, as sent.
fn published_enum_values() -> BTreeSet<String> {
    fn walk(value: &Value, out: &mut BTreeSet<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::Array(values)) = map.get("enum") {
                    out.extend(values.iter().filter_map(Value::as_str).map(String::from));
                }
                map.values().for_each(|v| walk(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let tools = crate::mcp::catalogue::compact_tools(OntoServer::tool_router().list_all());
    let mut out = BTreeSet::new();
    for tool in tools {
        if let Some(schema) = &tool.output_schema {
            walk(&Value::Object((**schema).clone()), &mut out);
        }
    }
    out
}

fn missing<T: WireName>(published: &BTreeSet<String>) -> Vec<String> {
    T::NAMES
        .iter()
        .filter(|name| !published.contains(**name))
        .map(|name| format!("{}: {name}", T::TITLE))
        .collect()
}

#[test]
fn every_wire_value_appears_in_the_published_schemas() {
    let published = published_enum_values();
    let mut absent = Vec::new();
    absent.extend(missing::<MatchKind>(&published));
    absent.extend(missing::<Stage>(&published));
    absent.extend(missing::<SemanticGroup>(&published));
    absent.extend(missing::<ConceptStatus>(&published));
    absent.extend(missing::<ConceptKind>(&published));
    absent.extend(missing::<LabelKind>(&published));
    absent.extend(missing::<LinkKind>(&published));
    absent.extend(missing::<Outcome>(&published));
    absent.extend(missing::<RankTier>(&published));
    absent.extend(missing::<Cardinality>(&published));
    absent.extend(missing::<Conflict>(&published));
    absent.extend(missing::<EvidenceOrigin>(&published));
    absent.extend(missing::<ObjectStatus>(&published));
    absent.extend(missing::<TermKind>(&published));
    absent.extend(missing::<QueryForm>(&published));
    absent.extend(missing::<QueryDataset>(&published));
    absent.extend(missing::<ReleaseOrigin>(&published));
    absent.extend(missing::<HeldAs>(&published));
    absent.extend(missing::<ChangeKind>(&published));
    assert!(
        absent.is_empty(),
        "wire values no output schema lists:\n{}",
        absent.join("\n")
    );
}

#[test]
fn every_error_code_is_in_the_tool_reference() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tools.md");
    let reference = std::fs::read_to_string(path).unwrap_or_default();
    let undocumented: Vec<&str> = ErrorCode::ALL
        .iter()
        .map(|c| c.wire_name())
        .filter(|name| !reference.contains(&format!("`{name}`")))
        .collect();
    assert!(
        undocumented.is_empty(),
        "error codes docs/tools.md does not list: {undocumented:?}"
    );
}

#[test]
fn every_value_of_the_listed_enums_has_a_distinct_name() {
    fn distinct<T: WireName>(values: &[T]) {
        let names: BTreeSet<&str> = values.iter().map(|v| v.wire_name()).collect();
        assert_eq!(names.len(), values.len(), "{}", T::TITLE);
        assert_eq!(names.len(), T::NAMES.len(), "{}", T::TITLE);
    }
    distinct(&MatchKind::ALL);
    distinct(&Stage::ALL);
    distinct(&RankTier::ALL);
    distinct(&LabelKind::ALL);
    distinct(&ErrorCode::ALL);
    distinct(&ChangeKind::ALL);
}
