//! `resolve_identifier` and `get_concept` over in-process MCP, under both protocol revisions:
//! every spelling and outcome, the errors and what they suggest, hierarchy and provenance.

use serde_json::{Value, json};

use crate::mcp_harness::{both, call, error_code, structured};

#[tokio::test]
async fn resolve_identifier_in_every_spelling_and_outcome() {
    both(async |revision, client| {
        for spelling in [
            "HP:0000118",
            "hp:0000118",
            "HP_0000118",
            "http://purl.obolibrary.org/obo/HP_0000118",
        ] {
            let r = call(
                client,
                "resolve_identifier",
                json!({ "identifier": spelling }),
            )
            .await;
            assert_eq!(r.is_error, Some(false), "{revision:?} {spelling}");
            let v = structured(&r);
            assert_eq!(v["result"]["outcome"], "found", "{spelling}");
            assert_eq!(v["query"]["normalized"], "HP:0000118", "{spelling}");
            assert_eq!(
                v["result"]["concepts"][0]["label"],
                "Phenotypic abnormality"
            );
            assert_eq!(
                v["sources"],
                json!([
                    { "id": "hp", "release": "2025-01-16" },
                    { "id": "bioregistry", "release": "0.15.6" }
                ]),
                "the source release and the registry release that normalized it"
            );
            assert_eq!(v["total"], 1);
            assert!(v["index"].as_str().is_some_and(|s| s.len() == 16));
            // The text block is the same JSON.
            let text = r.content[0].as_text().expect("text block").text.clone();
            assert_eq!(&serde_json::from_str::<Value>(&text).expect("json text"), v);
        }
        let r = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "HP:0000057" }),
        )
        .await;
        let v = structured(&r);
        assert_eq!(v["result"]["outcome"], "obsolete");
        assert_eq!(
            v["result"]["replacements"][0]["hops"][0]["curie"],
            "HP:0008665"
        );
        assert_ne!(v["result"]["replacements"][0]["hops"][0]["obsolete"], true);
        assert_eq!(v["result"]["replacements"][0]["ends_at"], "HP:0008665");

        let r = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "HP:9999999" }),
        )
        .await;
        assert_eq!(r.is_error, Some(false));
        let v = structured(&r);
        assert_eq!(v["result"]["outcome"], "not_in_loaded_sources");
        assert_eq!(v["total"], 0);
        // No concepts: the empty list is left out.
        assert!(v["result"].get("concepts").is_none(), "{v}");

        for (input, code) in [
            ("XYZ:1", "unknown_prefix"),
            ("XYZ_1", "unknown_prefix"),
            ("http://example.org/efo/EFO_0000400", "unknown_prefix"),
            ("HP:12", "malformed_identifier"),
            ("HP:abc def", "malformed_identifier"),
            ("not an identifier", "malformed_identifier"),
        ] {
            let r = call(client, "resolve_identifier", json!({ "identifier": input })).await;
            assert_eq!(error_code(&r), code, "{revision:?} {input}");
        }
        let r = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "HP:12" }),
        )
        .await;
        let text = r.content[0]
            .as_text()
            .map(|t| t.text.clone())
            .unwrap_or_default();
        let error: Value = serde_json::from_str(&text).expect("error json");
        assert_eq!(error["error"]["expected"], "^\\d{7}$", "{text}");
        assert_eq!(error["error"]["example"], "HP:0011140", "{text}");

        // A known prefix absent from the loaded sources names the registry's
        // resolver; an unknown prefix names the closest known ones.
        let r = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "EntrezGene:7157" }),
        )
        .await;
        let v = structured(&r);
        assert_eq!(v["result"]["outcome"], "not_in_loaded_sources");
        assert_eq!(v["query"]["normalized"], "NCBIGene:7157");
        assert_eq!(
            v["result"]["resolver_url"],
            "https://bioregistry.io/ncbigene:7157"
        );
        assert_eq!(
            v["result"]["prefix"]["resource"],
            "ontoresolve://prefix/NCBIGene"
        );
        assert!(
            v["query"]["steps"].as_array().is_some_and(|s| s
                .iter()
                .any(|x| x.as_str().is_some_and(|x| x.contains("EntrezGene")))),
            "{v}"
        );
        let r = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "GO:0008150" }),
        )
        .await;
        let v = structured(&r);
        assert_eq!(v["result"]["outcome"], "not_in_loaded_sources");
        assert!(
            v["result"]["prefix"]["downloads"]
                .as_array()
                .is_some_and(|d| d
                    .iter()
                    .any(|x| x == "http://purl.obolibrary.org/obo/go.obo")),
            "where a source for GO would come from: {v}"
        );
        let r = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "MESG:D009203" }),
        )
        .await;
        let text = r.content[0]
            .as_text()
            .map(|t| t.text.clone())
            .unwrap_or_default();
        let error: Value = serde_json::from_str(&text).expect("error json");
        assert!(
            error["error"]["suggestions"]
                .as_array()
                .is_some_and(|s| s.iter().any(|x| x == "MESH")),
            "{text}"
        );

        let r = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "0000118" }),
        )
        .await;
        let v = structured(&r);
        assert_eq!(
            v["result"]["outcome"], "ambiguous_input",
            "a bare local id is never resolved silently"
        );
        assert_eq!(v["result"]["concepts"][0]["curie"], "HP:0000118");
        assert_eq!(v["result"]["readings"][0]["curie"], "HP:0000118");

        let r = call(
            client,
            "resolve_identifier",
            json!({ "identifier": "heo:anything" }),
        )
        .await;
        let v = structured(&r);
        assert_eq!(v["result"]["outcome"], "not_in_loaded_sources");
        assert!(
            v["result"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("not loaded")),
            "{v}"
        );
    })
    .await;
}

#[tokio::test]
async fn get_concept_gives_hierarchy_and_provenance() {
    both(async |_, client| {
        let v =
            structured(&call(client, "get_concept", json!({ "identifier": "HP:0000118" })).await)
                .clone();
        let d = &v["result"];
        assert_eq!(d["release"], "2025-01-16");
        assert_eq!(d["parents"][0]["curie"], "HP:0000001");
        assert!(d["children_total"].as_u64().is_some_and(|n| n > 20));
        assert!(
            d["graph"]
                .as_str()
                .is_some_and(|g| g.starts_with("urn:ontoresolve:graph:hp:"))
        );
    })
    .await;
}
