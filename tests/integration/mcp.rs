//! The MCP surface in-process, over `tokio::io::duplex`, under both protocol revisions.

use std::sync::Arc;

use ontoresolve::mcp::OntoServer;
use ontoresolve::resolve::Resolver;
use rmcp::model::*;
use rmcp::service::RunningService;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceError, ServiceExt};
use serde_json::{Value, json};

/// The index of the bundled catalogue, built once per test run and shared.
fn resolver() -> Arc<Resolver> {
    static R: std::sync::OnceLock<Arc<Resolver>> = std::sync::OnceLock::new();
    R.get_or_init(|| Arc::new(Resolver::open(&crate::support::default_index_dir()).expect("open")))
        .clone()
}

#[derive(Clone, Copy, Debug)]
enum Revision {
    Modern,
    Legacy,
}

async fn connect(revision: Revision) -> RunningService<RoleClient, ClientConfig> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let server = OntoServer::new(resolver());
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = match revision {
        Revision::Modern => ClientConfig::default()
            .serve_with_lifecycle(
                client_io,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("discover"),
        Revision::Legacy => {
            let mut config = ClientConfig::default();
            config.protocol_version = ProtocolVersion::V_2025_11_25;
            config.serve(client_io).await.expect("initialize")
        }
    };
    client
        .set_response_cache_config(rmcp::ClientCacheConfig::disabled())
        .await;
    client
}

async fn call(
    client: &RunningService<RoleClient, ClientConfig>,
    tool: &str,
    args: Value,
) -> CallToolResult {
    let args = args.as_object().cloned().unwrap_or_default();
    let response = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .expect("tools/call");
    let value = serde_json::to_value(&response).expect("serialize");
    serde_json::from_value(value).expect("a complete tool result")
}

fn structured(result: &CallToolResult) -> &Value {
    result
        .structured_content
        .as_ref()
        .expect("structuredContent")
}

/// The code of an input error: isError, no structuredContent, the error as JSON text.
fn error_code(result: &CallToolResult) -> String {
    assert_eq!(result.is_error, Some(true), "an input error");
    assert!(
        result.structured_content.is_none(),
        "errors carry no structuredContent"
    );
    let text = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default();
    let v: Value = serde_json::from_str(&text).expect("error JSON");
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    assert!(
        v["error"]["next_step"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    v["error"]["code"].as_str().unwrap_or_default().to_string()
}

async fn both(check: impl AsyncFn(Revision, &RunningService<RoleClient, ClientConfig>)) {
    for revision in [Revision::Modern, Revision::Legacy] {
        let client = connect(revision).await;
        check(revision, &client).await;
        let _ = client.cancel().await;
    }
}

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
                "list_sources",
                "map_identifier",
                "map_identifiers",
                "resolve_identifier",
                "sparql_query"
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
                schema.contains(&format!("\"{}\"", kind.as_str())),
                "{revision:?}: match_kind {} missing from the schema",
                kind.as_str()
            );
        }
        for kind in ["supplementary_record", "qualifier", "gene", "withdrawn"] {
            assert!(schema.contains(kind), "{kind} missing from the schema");
        }
    })
    .await;
}

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

        // Issue 4: a known prefix absent from the loaded sources names the registry's
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

        // Issue 4: an identifier in any registry spelling is an identifier match.
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
    for source in v["result"]["sources"].as_array().expect("sources") {
        let graph = format!("<{}>", source["graph"].as_str().unwrap_or_default());
        let triples = rows
            .iter()
            .find(|row| row.iter().any(|(k, v)| k == "graph" && *v == graph))
            .and_then(|row| row.iter().find(|(k, _)| k == "triples"))
            .and_then(|(_, v)| v.split('"').nth(1)?.parse::<u64>().ok());
        assert_eq!(triples, source["triples"].as_u64(), "{graph}");
    }
    let _ = client.cancel().await;
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

        // Issue 4: a prefix's registry record, under any spelling.
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

impl PartialEq for Revision {
    fn eq(&self, other: &Self) -> bool {
        matches!(
            (self, other),
            (Revision::Modern, Revision::Modern) | (Revision::Legacy, Revision::Legacy)
        )
    }
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

        // Issue 4: prefixes complete from the registry, in their preferred spelling.
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

async fn prompt_text(
    client: &RunningService<RoleClient, ClientConfig>,
    name: &str,
    arguments: Value,
) -> String {
    let prompt = client
        .get_prompt(
            GetPromptRequestParams::new(name)
                .with_arguments(arguments.as_object().cloned().unwrap_or_default()),
        )
        .await
        .expect("prompts/get");
    serde_json::to_string(&prompt).expect("json")
}

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

/// Every tool's schemas are read by the model on every turn: the whole `tools/list` stays
/// under 24 KB, every tool or prompt the instructions, descriptions and prompts name exists,
/// and the instructions name every tool.
#[tokio::test]
async fn the_tool_catalogue_stays_small_and_names_only_what_exists() {
    let client = connect(Revision::Modern).await;
    let tools = client.list_tools(None).await.expect("tools/list");
    let bytes = serde_json::to_vec(&tools).expect("json").len();
    assert!(bytes <= 24 * 1024, "tools/list is {bytes} bytes");
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
