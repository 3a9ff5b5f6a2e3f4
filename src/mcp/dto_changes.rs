//! Wire shapes of `what_changed`: KGCL change records in OAK's field names.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::wire::Tag;
use crate::resolve::diff::ChangeKind;

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangesArgs {
    /// One term's changes (any spelling resolve_identifier reads).
    #[serde(default)]
    pub identifier: Option<String>,
    /// A whole source's changes, paged (a source id).
    #[serde(default)]
    pub source: Option<String>,
    /// The earlier release. Default: the one before `to`.
    #[serde(default)]
    pub from: Option<String>,
    /// The later release. Default: the current one.
    #[serde(default)]
    pub to: Option<String>,
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One change, typed with its KGCL class.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ChangeDto {
    #[serde(rename = "type")]
    pub kind: Tag<ChangeKind>,
    pub about_node: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_value: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub has_direct_replacement: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub consider: Vec<String>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Changes {
    pub source: String,
    pub from: String,
    pub to: String,
    /// Changes per type, over every page.
    pub summary: BTreeMap<String, u64>,
    pub changes: Vec<ChangeDto>,
}
