//! The MCP handshake and tool catalogue under both protocol revisions: server info,
//! instructions, the tools and their schemas, the catalogue's size and the names it mentions;
//! and the SPARQL every answer's envelope carries, which re-runs to the same answer.

use ontoresolve::model::WireName;
use rmcp::model::ProtocolVersion;
use serde_json::{Value, json};

use crate::mcp_harness::{Revision, both, call, connect, prompt_text, resolver, structured};

#[tokio::test]
async fn handshake_names_the_server_and_carries_instructions() {
    both(async |revision, client| {
        let info = client.peer_info().expect("server info");
        assert_eq!(
            info.server_info.as_ref().map(|i| i.name.as_str()),
            Some("ontoresolve"),
            "{revision:?}"
        );
        let expected = match revision {
            Revision::Modern => ProtocolVersion::V_2026_07_28,
            Revision::Legacy => ProtocolVersion::V_2025_11_25,
        };
        assert_eq!(info.protocol_version, expected);
        let text = info.instructions.clone().unwrap_or_default();
        let scope = text.find("SCOPE").expect("scope");
        let guide = text.find("TOOL GUIDE").expect("guide");
        let licences = text.find("LICENCES AND ATTRIBUTION").expect("licences");
        assert!(
            scope < guide && guide < licences,
            "{revision:?}: sections in order"
        );
        assert!(text.contains("hp (Human Phenotype Ontology), release 2025-01-16"));
        let tools = client.list_tools(None).await.expect("tools/list");
        let names: Vec<&str> = tools.tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "describe_schema",
                "find_concepts",
                "get_concept",
                "ground_passage",
                "list_sources",
                "map_identifier",
                "map_identifiers",
                "resolve_identifier",
                "sparql_query",
                "what_changed"
            ]
        );
        for tool in &tools.tools {
            assert!(
                tool.output_schema.is_some(),
                "{} has an outputSchema",
                tool.name
            );
            let annotations = tool.annotations.as_ref().expect("annotations");
            assert_eq!(annotations.read_only_hint, Some(true));
            // A cursor is pagination, not a filter: it does not count against the cap.
            let params = tool
                .input_schema
                .get("properties")
                .and_then(Value::as_object)
                .map_or(0, |p| p.keys().filter(|k| *k != "cursor").count());
            assert!(params <= 4, "{} takes {params} parameters", tool.name);
            // Loaded sources are named once, in the instructions, not in every description.
            assert!(!tool.description.as_deref().unwrap_or("").is_empty());
        }
        // The output schema lists every value of the enumerated fields, from the core's enums.
        let find = tools
            .tools
            .iter()
            .find(|t| t.name == "find_concepts")
            .expect("find_concepts");
        let schema = serde_json::to_string(&find.output_schema).expect("schema");
        for kind in ontoresolve::resolve::MatchKind::ALL {
            assert!(
                schema.contains(&format!("\"{}\"", kind.wire_name())),
                "{revision:?}: match_kind {} missing from the schema",
                kind.wire_name()
            );
        }
        for kind in ["supplementary_record", "qualifier", "gene", "withdrawn"] {
            assert!(schema.contains(kind), "{kind} missing from the schema");
        }
    })
    .await;
}

/// Every tool's schemas are read by the model on every turn: the whole `tools/list` stays
/// under 26 KB (24 KB before ground_passage), every tool or prompt the instructions, descriptions and prompts name exists,
/// and the instructions name every tool.
#[tokio::test]
async fn the_tool_catalogue_stays_small_and_names_only_what_exists() {
    let client = connect(Revision::Modern).await;
    let tools = client.list_tools(None).await.expect("tools/list");
    let bytes = serde_json::to_vec(&tools).expect("json").len();
    assert!(bytes <= 26 * 1024, "tools/list is {bytes} bytes");
    let prompts = client.list_prompts(None).await.expect("prompts/list");
    let mut known: Vec<String> = tools.tools.iter().map(|t| t.name.to_string()).collect();
    known.extend(prompts.prompts.iter().map(|p| p.name.clone()));
    let mut texts: Vec<String> = tools
        .tools
        .iter()
        .map(|t| t.description.as_deref().unwrap_or_default().to_string())
        .collect();
    texts.push(
        client
            .peer_info()
            .and_then(|i| i.instructions.clone())
            .unwrap_or_default(),
    );
    texts.push(prompt_text(&client, "ground_mention", json!({ "mention": "x" })).await);
    texts.push(
        prompt_text(
            &client,
            "map_identifier_list",
            json!({ "identifiers": "x" }),
        )
        .await,
    );
    texts.push(
        prompt_text(
            &client,
            "explain_mapping",
            json!({ "subject": "x", "object": "y" }),
        )
        .await,
    );
    let named = regex::Regex::new(
        r"\b(?:resolve|find|map|get|list|describe|sparql|ground|explain|search|lookup)_[a-z_]*[a-z]\b",
    )
    .expect("regex");
    let mut mentioned = 0;
    for text in &texts {
        for m in named.find_iter(text) {
            mentioned += 1;
            assert!(
                known.iter().any(|k| k == m.as_str()),
                "{} is named but is no tool or prompt",
                m.as_str()
            );
        }
    }
    assert!(mentioned > 10, "the check saw {mentioned} names");
    // The instructions' tool guide says when to call each tool: none is left for the agent to
    // discover by reading schemas.
    let instructions = &texts[tools.tools.len()];
    for tool in &tools.tools {
        assert!(
            instructions.contains(tool.name.as_ref()),
            "the tool guide never names {}",
            tool.name
        );
    }
    let _ = client.cancel().await;
}

#[tokio::test]
async fn sparql_in_the_envelope_reproduces_the_answer() {
    let r = resolver();
    let store = r.store().expect("store");
    let client = connect(Revision::Modern).await;
    let v = structured(
        &call(
            &client,
            "resolve_identifier",
            json!({ "identifier": "HP:0000118" }),
        )
        .await,
    )
    .clone();
    let rows = store
        .select(v["sparql"].as_str().expect("sparql"))
        .expect("runs");
    let labels: Vec<&str> = rows
        .iter()
        .flat_map(|row| row.iter())
        .filter(|(k, _)| k == "label")
        .map(|(_, v)| v.as_str())
        .collect();
    assert_eq!(labels, ["\"Phenotypic abnormality\""]);

    let v = structured(
        &call(
            &client,
            "find_concepts",
            json!({ "text": "ABNORMALITY of body-height" }),
        )
        .await,
    )
    .clone();
    let rows = store
        .select(v["sparql"].as_str().expect("sparql"))
        .expect("runs");
    let mut from_sparql: Vec<String> = rows
        .iter()
        .flat_map(|row| row.iter())
        .filter(|(k, _)| k == "concept")
        .map(|(_, v)| v.trim_matches(|c| c == '<' || c == '>').to_string())
        .collect();
    from_sparql.sort();
    from_sparql.dedup();
    let mut from_tool: Vec<String> = v["result"]["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| crate::support::concept_iri(&r, &c["concept"]))
        .collect();
    from_tool.sort();
    assert_eq!(
        from_sparql, from_tool,
        "the same concepts (ranking is the tool's)"
    );

    let v = structured(&call(&client, "list_sources", json!({})).await).clone();
    assert_eq!(v["result"]["registry"]["release"], "0.15.6");
    assert!(
        v["result"]["registry"]["prefixes"]
            .as_u64()
            .is_some_and(|n| n > 2_400)
    );
    let rows = store
        .select(v["sparql"].as_str().expect("sparql"))
        .expect("runs");
    // Each listed source's graph, named and found holding triples (the counts are the
    // build's: counting every triple again would not fit a query's deadline).
    for source in v["result"]["sources"].as_array().expect("sources") {
        let graph = format!("<{}>", source["graph"].as_str().unwrap_or_default());
        assert!(source["triples"].as_u64().is_some_and(|n| n > 0), "{graph}");
        assert!(
            rows.iter()
                .any(|row| row.iter().any(|(k, v)| k == "graph" && *v == graph)),
            "{graph}"
        );
    }
    let _ = client.cancel().await;
}
