//! MCP prompts in-process, under both protocol revisions: the list, what each prompt walks the
//! agent through, and the arguments they refuse.

use rmcp::ServiceError;
use rmcp::model::GetPromptRequestParams;
use serde_json::json;

use crate::mcp_harness::{both, prompt_text};

#[tokio::test]
async fn prompts_carry_grounding_through_mappings_and_explain_them() {
    both(async |revision, client| {
        let prompts = client.list_prompts(None).await.expect("prompts/list");
        let names: Vec<&str> = prompts.prompts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            ["ground_mention", "map_identifier_list", "explain_mapping"],
            "{revision:?}"
        );
        let ground = prompt_text(
            client,
            "ground_mention",
            json!({ "mention": "short stature" }),
        )
        .await;
        for step in [
            "short stature",
            "find_concepts",
            "get_concept",
            "map_identifier",
            "never invent",
        ] {
            assert!(ground.contains(step), "{step}: {ground}");
        }
        let list = prompt_text(
            client,
            "map_identifier_list",
            json!({ "identifiers": "MONDO:0005148, DOID:9352\nHP:0004322", "targets": "MESH" }),
        )
        .await;
        assert!(
            list.contains("Map these 3 identifiers") && list.contains("map_identifiers"),
            "{list}"
        );
        let explain = prompt_text(
            client,
            "explain_mapping",
            json!({ "subject": "MONDO:0005148", "object": "DOID:9352" }),
        )
        .await;
        assert!(
            explain.contains("every hop") && explain.contains("sparql_query"),
            "{explain}"
        );
        for (name, args) in [
            ("ground_mention", json!({})),
            ("explain_mapping", json!({ "subject": "MONDO:0005148" })),
            (
                "map_identifier_list",
                json!({ "identifiers": "x".repeat(30_000) }),
            ),
            ("no_such_prompt", json!({})),
        ] {
            let refused = client
                .get_prompt(
                    GetPromptRequestParams::new(name)
                        .with_arguments(args.as_object().cloned().unwrap_or_default()),
                )
                .await
                .expect_err("refused");
            let ServiceError::McpError(e) = refused else {
                panic!("not a protocol error: {refused:?}")
            };
            assert_eq!(e.code.0, -32602, "{name}");
        }
    })
    .await;
}
