//! MCP resources and completion in-process, under both protocol revisions: reading concepts and
//! prefix records, listing with cursors (and refusing foreign ones), not-found errors per
//! revision, and completion of templates and prompt arguments.

use rmcp::ServiceError;
use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, PaginatedRequestParams, ReadResourceRequestParams,
    Reference,
};
use serde_json::{Value, json};

use crate::mcp_harness::{Revision, both, call, error_code};

#[tokio::test]
async fn resources_read_list_and_not_found_per_revision() {
    both(async |revision, client| {
        let read = client
            .read_resource(ReadResourceRequestParams::new(
                "http://purl.obolibrary.org/obo/HP_0000118",
            ))
            .await
            .expect("resources/read");
        let value = serde_json::to_value(&read).expect("json");
        let contents = value["contents"].as_array().expect("contents");
        let mimes: Vec<&str> = contents
            .iter()
            .filter_map(|c| c["mimeType"].as_str())
            .collect();
        assert_eq!(mimes, ["application/json", "text/turtle"], "{revision:?}");
        let json_body: Value =
            serde_json::from_str(contents[0]["text"].as_str().unwrap_or("")).expect("json body");
        assert_eq!(json_body["concept"]["label"], "Phenotypic abnormality");
        assert!(
            contents[1]["text"]
                .as_str()
                .is_some_and(|t| t.contains("Phenotypic abnormality"))
        );

        // A prefix's registry record, under any spelling.
        for uri in [
            "ontoresolve://prefix/mesh",
            "ontoresolve://prefix/MSH",
            "ontoresolve://prefix/HP",
        ] {
            let read = client
                .read_resource(ReadResourceRequestParams::new(uri))
                .await
                .expect("prefix read");
            let value = serde_json::to_value(&read).expect("json");
            let body: Value =
                serde_json::from_str(value["contents"][0]["text"].as_str().unwrap_or(""))
                    .expect("prefix json");
            assert!(body["record"]["pattern"].is_string(), "{uri} {body}");
            assert!(body["example_curie"].is_string(), "{uri} {body}");
            assert!(
                body["resolver_url_format"]
                    .as_str()
                    .is_some_and(|f| f.ends_with(":{local}")),
                "{uri} {body}"
            );
            if uri.ends_with("HP") {
                assert_eq!(body["loaded_sources"][0]["id"], "hp");
                assert_eq!(
                    body["example_iri"],
                    "http://purl.obolibrary.org/obo/HP_0011140"
                );
            } else {
                // The catalogue's spelling of a loaded prefix is the preferred one.
                assert_eq!(body["prefix"], "MESH");
                assert_eq!(body["loaded_sources"][0]["id"], "mesh");
            }
        }

        for uri in [
            "ontoresolve://concept/HP:0000118",
            "ontoresolve://concept/HP%3A0000118",
        ] {
            let by_curie = client
                .read_resource(ReadResourceRequestParams::new(uri))
                .await
                .expect("template read");
            assert!(
                serde_json::to_string(&by_curie)
                    .unwrap_or_default()
                    .contains("Phenotypic abnormality"),
                "{uri}"
            );
        }

        let list = client.list_resources(None).await.expect("resources/list");
        let uris: Vec<&str> = list.resources.iter().map(|r| r.uri.as_str()).collect();
        assert_eq!(
            &uris[..2],
            ["ontoresolve://source/hp", "ontoresolve://source/hem"]
        );
        assert!(
            uris.contains(&"http://purl.obolibrary.org/obo/HP_0000001"),
            "HP's root is a top concept"
        );
        if revision == Revision::Modern {
            let raw = serde_json::to_value(&list).expect("json");
            assert_eq!(raw["cacheScope"], "public");
            assert_eq!(raw["ttlMs"], ontoresolve::mcp::CACHE_TTL_MS);
        }

        // Sources and top concepts may span pages; following the cursors lists them all once.
        let mut all: Vec<String> = uris.iter().map(|u| u.to_string()).collect();
        let mut cursor = list.next_cursor.clone();
        while let Some(c) = cursor {
            let page = client
                .list_resources(Some(PaginatedRequestParams::default().with_cursor(Some(c))))
                .await
                .expect("next page");
            all.extend(page.resources.iter().map(|r| r.uri.clone()));
            cursor = page.next_cursor;
        }
        let distinct: std::collections::HashSet<&String> = all.iter().collect();
        assert_eq!(distinct.len(), all.len(), "no resource listed twice");
        assert!(all.iter().any(|u| u == "ontoresolve://source/hgnc"));
        let bad = client
            .list_resources(Some(
                PaginatedRequestParams::default().with_cursor(Some("offset:99999".into())),
            ))
            .await
            .expect_err("a cursor past the end is refused");
        let ServiceError::McpError(e) = bad else {
            panic!("not a protocol error: {bad:?}")
        };
        assert_eq!(e.code.0, -32602);
        assert_eq!(
            e.data.as_ref().map(|d| d["code"].clone()),
            Some(json!("invalid_cursor"))
        );
        // A cursor of another build is refused, not read as an offset into this one.
        let foreign = ontoresolve::mcp::cursor::encode("another-build", "resources/list", 1);
        let bad = client
            .list_resources(Some(
                PaginatedRequestParams::default().with_cursor(Some(foreign)),
            ))
            .await
            .expect_err("a cursor from another build is refused");
        let ServiceError::McpError(e) = bad else {
            panic!("not a protocol error: {bad:?}")
        };
        assert_eq!(e.code.0, -32602);
        assert!(e.message.contains("another build"), "{}", e.message);
        assert_eq!(
            e.data.as_ref().map(|d| d["code"].clone()),
            Some(json!("invalid_cursor"))
        );
        let foreign = ontoresolve::mcp::cursor::encode("another-build", "anything", 50);
        let answer = call(
            client,
            "map_identifier",
            json!({ "identifier": "MONDO:0005148", "cursor": foreign }),
        )
        .await;
        assert_eq!(error_code(&answer), "invalid_cursor");

        let err = client
            .read_resource(ReadResourceRequestParams::new("http://example.org/nothing"))
            .await
            .expect_err("unknown resource");
        let ServiceError::McpError(e) = err else {
            panic!("not a protocol error: {err:?}")
        };
        let expected = match revision {
            Revision::Modern => -32602,
            Revision::Legacy => -32002,
        };
        assert_eq!(e.code.0, expected, "{revision:?}");
        assert_eq!(
            e.data
                .as_ref()
                .and_then(|d| d.get("uri"))
                .and_then(Value::as_str),
            Some("http://example.org/nothing")
        );
    })
    .await;
}

#[tokio::test]
async fn an_identifiers_mappings_that_cannot_be_read_say_why_per_revision() {
    both(async |revision, client| {
        let err = client
            .read_resource(ReadResourceRequestParams::new(
                "ontoresolve://mappings/NOSUCHPREFIX:1",
            ))
            .await
            .expect_err("an unknown prefix");
        let ServiceError::McpError(e) = err else {
            panic!("not a protocol error: {err:?}")
        };
        let not_found = match revision {
            Revision::Modern => -32602,
            Revision::Legacy => -32002,
        };
        assert_eq!(e.code.0, not_found, "{revision:?}");
        let data = e.data.unwrap_or_default();
        assert_eq!(data["code"], "unknown_prefix", "{data}");
        assert_eq!(data["uri"], "ontoresolve://mappings/NOSUCHPREFIX:1");
        assert!(e.message.contains("NOSUCHPREFIX"), "{}", e.message);
    })
    .await;
}

#[tokio::test]
async fn completion_of_the_curie_template() {
    both(async |_, client| {
        let result = client
            .complete(CompleteRequestParams::new(
                Reference::for_resource(ontoresolve::mcp::CONCEPT_TEMPLATE),
                ArgumentInfo::new("curie", "hp:000011"),
            ))
            .await
            .expect("completion/complete");
        let values = result.completion.values;
        assert!(values.contains(&"HP:0000118".to_string()), "{values:?}");
        assert!(values.len() <= 100);

        // Prefixes complete from the registry, in their preferred spelling.
        let result = client
            .complete(CompleteRequestParams::new(
                Reference::for_resource(ontoresolve::mcp::PREFIX_TEMPLATE),
                ArgumentInfo::new("prefix", "ncbig"),
            ))
            .await
            .expect("completion/complete");
        let values = result.completion.values;
        assert!(values.contains(&"NCBIGene".to_string()), "{values:?}");

        // Prompt arguments: source ids, and the last item of an identifier list.
        let complete_prompt = async |prompt: &str, argument: &str, value: &str| {
            client
                .complete(CompleteRequestParams::new(
                    Reference::for_prompt(prompt),
                    ArgumentInfo::new(argument, value),
                ))
                .await
                .expect("completion/complete")
                .completion
                .values
        };
        let values = complete_prompt("ground_mention", "source", "mo").await;
        assert_eq!(values, ["mondo"]);
        let values = complete_prompt(
            "map_identifier_list",
            "identifiers",
            "MONDO:0005148, hp:000011",
        )
        .await;
        assert!(
            values.contains(&"MONDO:0005148, HP:0000118".to_string()),
            "{values:?}"
        );
        let values = complete_prompt("map_identifier_list", "targets", "MESH, ncbig").await;
        assert!(values.contains(&"MESH, NCBIGene".to_string()), "{values:?}");
    })
    .await;
}
