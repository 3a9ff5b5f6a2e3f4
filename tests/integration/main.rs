//! The one integration-test binary: modules by subject, real data where it matters.

// Shared with the service test binary and the MCP bench; each uses its own part.
#[allow(dead_code)]
mod http_client;
// The in-process MCP client the `mcp_*` modules share.
mod mcp_harness;
mod support;
mod tidy;

mod add;
mod annotate;
mod bad_inputs;
mod build_safety;
mod carried_build;
mod cli_output;
mod clients;
mod confidence;
mod eval_grounding;
mod fixtures;
mod genes_mesh;
mod grounding;
mod hpo;
mod identifiers;
mod index_check;
mod index_formats;
mod lean_answers;
mod live_reload;
mod map_cli;
mod mapping_hub;
mod mappings;
mod mcp_find;
mod mcp_identifier;
mod mcp_prompts;
mod mcp_protocol;
mod mcp_resources;
mod ols4_testcases;
mod ols_api;
mod pages;
mod passages;
mod passages_readings;
// Shared with the service test binary; each uses its own part.
#[allow(dead_code)]
mod process;
mod query_tools;
mod real_owl;
mod real_skos;
mod releases;
mod shared_server;
mod sparql;
mod sparql_reruns;
mod stdio_framing;
