//! `find_concepts` over in-process MCP, under both protocol revisions: exact matches first,
//! identifiers in any spelling, near spellings, obsolete terms hidden and counted, source
//! filters, limits and input errors.

use serde_json::json;

use crate::mcp_harness::{both, call, error_code, structured};

#[tokio::test]
async fn find_concepts_ranks_exact_first_and_falls_back_to_near_spellings() {
    both(async |revision, client| {
        let r = call(
            client,
            "find_concepts",
            json!({ "text": "Abnormality of body height" }),
        )
        .await;
        let v = structured(&r);
        let first = &v["result"]["candidates"][0];
        assert_eq!(first["concept"]["curie"], "HP:0000002", "{revision:?}");
        assert_eq!(first["match_kind"], "label");
        assert!(
            v["query"]["defaults_applied"]
                .as_array()
                .is_some_and(|d| d.contains(&json!("limit=10")))
        );

        // An identifier in any registry spelling is an identifier match.
        let r = call(client, "find_concepts", json!({ "text": "HPO:0000118" })).await;
        let v = structured(&r);
        let first = &v["result"]["candidates"][0];
        assert_eq!(first["concept"]["curie"], "HP:0000118", "{v}");
        assert_eq!(first["match_kind"], "identifier");

        let r = call(
            client,
            "find_concepts",
            json!({ "text": "Phenotypic abnormallity" }),
        )
        .await;
        let v = structured(&r);
        let first = &v["result"]["candidates"][0];
        assert_eq!(first["concept"]["curie"], "HP:0000118");
        assert_eq!(first["match_kind"], "near_spelling");
        assert_eq!(first["distance"], 1);

        let r = call(
            client,
            "find_concepts",
            json!({ "text": "obsolete Clitoromegaly" }),
        )
        .await;
        let v = structured(&r);
        assert!(
            v["result"]["obsolete_hidden"]
                .as_u64()
                .is_some_and(|n| n >= 1),
            "{v}"
        );
        // Listed on request, an obsolete concept says what replaces it.
        let r = call(
            client,
            "find_concepts",
            json!({ "text": "obsolete Clitoromegaly", "include_obsolete": true }),
        )
        .await;
        let v = structured(&r);
        let first = &v["result"]["candidates"][0];
        assert_eq!(first["concept"]["curie"], "HP:0000057", "{v}");
        assert_eq!(first["concept"]["status"], "obsolete", "{v}");
        assert_eq!(first["replaced_by"], json!(["HP:0008665"]), "{v}");

        let r = call(
            client,
            "find_concepts",
            json!({ "text": "x", "limit": 1000 }),
        )
        .await;
        assert_eq!(error_code(&r), "limit_exceeded");

        let r = call(
            client,
            "find_concepts",
            json!({ "text": "height", "sources": ["nope"] }),
        )
        .await;
        assert_eq!(error_code(&r), "unknown_source");

        for args in [
            json!({ "text": "height", "limit": "5" }),
            json!({ "text": "height", "source": ["hp"] }),
            json!({}),
        ] {
            let r = call(client, "find_concepts", args.clone()).await;
            assert_eq!(error_code(&r), "invalid_argument", "{args}");
        }
        let r = call(client, "get_concept", json!({})).await;
        assert_eq!(error_code(&r), "invalid_argument");

        // An exact match outside the chosen sources does not stop the search.
        let r = call(
            client,
            "find_concepts",
            json!({ "text": "Abnormality of body height", "sources": ["hem"] }),
        )
        .await;
        let v = structured(&r);
        let stages = v["result"]["stages_tried"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(stages.contains(&json!("full_text")), "{v}");
        assert!(
            v["result"]["candidates"]
                .as_array()
                .is_some_and(|c| c.iter().all(|c| c["concept"]["source"] == "hem"))
        );

        let r = call(
            client,
            "find_concepts",
            json!({ "text": "height", "limit": 2, "sources": ["hp"] }),
        )
        .await;
        let v = structured(&r);
        assert_eq!(v["returned"], 2);
        assert!(
            v["total"].as_u64().is_some_and(|t| t > 2) && v["truncated"] == true,
            "{v}"
        );

        let r = call(
            client,
            "find_concepts",
            json!({ "text": "qqqqzzzzxxxx wwwwvvvv" }),
        )
        .await;
        let v = structured(&r);
        assert_eq!(v["total"], 0);
        assert!(v["suggestion"].as_str().is_some());
    })
    .await;
}
