//! The tool catalogue as clients see it. Every tool's schemas are read by the model on every
//! turn, so output schemas are sent compact: types, enums and structure, without per-field
//! prose, number formats, `required` lists or the envelope's fields besides `result` (the same
//! in every tool, and described once in the instructions). The answers themselves are unchanged
//! and still conform. A test keeps the whole `tools/list` under 26 KB.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool};
use serde_json::{Value, json};

/// Keys that carry prose or precision a model does not need to read an answer.
const DROPPED_KEYS: [&str; 7] = [
    "$schema",
    "description",
    "title",
    "format",
    "minimum",
    "maximum",
    "required",
];

/// Applies `edit` to every schema object under `value`. The members of `properties` and
/// `$defs` maps are names, not keywords: the maps are walked into, never edited themselves.
fn each_schema(value: &mut Value, edit: &impl Fn(&mut JsonObject)) {
    match value {
        Value::Object(map) => {
            edit(map);
            for (key, child) in map.iter_mut() {
                match (key.as_str(), child) {
                    ("properties" | "$defs", Value::Object(named)) => {
                        named.values_mut().for_each(|s| each_schema(s, edit));
                    }
                    (_, child) => each_schema(child, edit),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|s| each_schema(s, edit)),
        _ => {}
    }
}

fn compact(value: &mut Value) {
    each_schema(value, &|map| {
        for key in DROPPED_KEYS {
            map.remove(key);
        }
        never_null(map);
        // An enum of strings says its type already.
        let strings = map
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| values.iter().all(Value::is_string));
        if strings && map.get("type") == Some(&json!("string")) {
            map.remove("type");
        }
    });
}

/// Answers leave absent fields out and never send null (`skip_serializing_if` on every
/// `Option` of a DTO): `["string", "null"]` is sent as `"string"`, and `anyOf` a reference or
/// null as the reference.
fn never_null(map: &mut JsonObject) {
    if let Some(Value::Array(types)) = map.get("type") {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if let [one] = kept.as_slice() {
            map.insert("type".into(), one.clone());
        }
    }
    if let Some(Value::Array(options)) = map.get("anyOf") {
        let kept: Vec<&Value> = options
            .iter()
            .filter(|o| o.get("type") != Some(&json!("null")))
            .collect();
        if let [Value::Object(only)] = kept.as_slice() {
            let only = only.clone();
            map.remove("anyOf");
            map.extend(only);
        }
    }
}

/// An output schema as sent: compact, with the envelope's own fields left out (an object
/// schema allows them, and the instructions describe them once): only `result` is spelled out.
pub fn compact_output_schema(schema: &JsonObject) -> JsonObject {
    let mut value = Value::Object(schema.clone());
    compact(&mut value);
    if let Some(properties) = value.get_mut("properties").and_then(Value::as_object_mut)
        && properties.contains_key("result")
    {
        properties.retain(|name, _| name == "result");
    }
    if let Some(defs) = value.get_mut("$defs").and_then(Value::as_object_mut) {
        for unused in ["QueryEcho", "SourceRelease"] {
            let still_used = defs
                .iter()
                .filter(|(name, _)| name.as_str() != unused)
                .any(|(_, def)| def.to_string().contains(&format!("#/$defs/{unused}\"")));
            if !still_used {
                defs.remove(unused);
            }
        }
    }
    // Below the root, `properties` says an object already and `items` an array (the root
    // keeps its type: MCP requires an object there).
    let implied = |map: &mut JsonObject| {
        let implied = match map.get("type").and_then(Value::as_str) {
            Some("object") => map.contains_key("properties"),
            Some("array") => map.contains_key("items"),
            _ => false,
        };
        if implied {
            map.remove("type");
        }
    };
    if let Some(defs) = value.get_mut("$defs").and_then(Value::as_object_mut) {
        defs.values_mut().for_each(|def| each_schema(def, &implied));
    }
    if let Some(properties) = value.get_mut("properties").and_then(Value::as_object_mut) {
        properties
            .values_mut()
            .for_each(|property| each_schema(property, &implied));
    }
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// An input schema as sent: its descriptions kept (they say how to call), its `$schema`,
/// title, number formats and null defaults dropped.
pub fn compact_input_schema(schema: &JsonObject) -> JsonObject {
    let mut value = Value::Object(schema.clone());
    each_schema(&mut value, &|map| {
        for key in ["$schema", "title", "format", "minimum"] {
            map.remove(key);
        }
        if map.get("default") == Some(&Value::Null) {
            map.remove("default");
        }
        // An absent argument is left out, never sent as null.
        never_null(map);
    });
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// The tools as `tools/list` sends them.
pub fn compact_tools(tools: Vec<Tool>) -> Vec<Tool> {
    tools
        .into_iter()
        .map(|mut tool| {
            tool.input_schema = Arc::new(compact_input_schema(&tool.input_schema));
            if let Some(schema) = tool.output_schema.take() {
                tool.output_schema = Some(Arc::new(compact_output_schema(&schema)));
            }
            tool
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_formats_nulls_and_the_envelope_go_and_types_and_enums_stay() {
        let schema = json!({
            "type": "object",
            "description": "an envelope",
            "required": ["query", "total"],
            "properties": {
                "query": { "$ref": "#/$defs/QueryEcho", "description": "what was asked" },
                "total": { "type": "integer", "format": "uint64", "minimum": 0 },
                "result": { "$ref": "#/$defs/Answer" }
            },
            "$defs": {
                "QueryEcho": { "type": "object", "properties": { "input": {} } },
                "Answer": { "type": "object", "properties": {
                    "kind": { "type": "string", "enum": ["a", "b"] },
                    "count": { "type": "integer", "format": "uint64", "minimum": 0 },
                    "title": { "type": "string", "description": "a field named like a keyword" },
                    "label": { "type": ["string", "null"] },
                    "via": { "anyOf": [{ "$ref": "#/$defs/Answer" }, { "type": "null" }] },
                    "tags": { "type": "array", "items": { "type": "string" } }
                } }
            }
        });
        let Value::Object(schema) = schema else {
            unreachable!()
        };
        let compacted = Value::Object(compact_output_schema(&schema));
        assert_eq!(
            compacted,
            json!({
                "type": "object",
                "properties": { "result": { "$ref": "#/$defs/Answer" } },
                "$defs": {
                    "Answer": { "properties": {
                        "kind": { "enum": ["a", "b"] },
                        "count": { "type": "integer" },
                        "title": { "type": "string" },
                        "label": { "type": "string" },
                        "via": { "$ref": "#/$defs/Answer" },
                        "tags": { "items": { "type": "string" } }
                    } }
                }
            })
        );
    }
}
