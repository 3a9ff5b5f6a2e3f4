//! The one integration-test binary: modules by subject, real data where it matters.

mod support;
mod tidy;

mod bad_inputs;
mod build_safety;
mod clients;
mod eval_grounding;
mod fixtures;
mod genes_mesh;
mod grounding;
mod hpo;
mod identifiers;
mod index_check;
mod lean_answers;
mod live_reload;
mod map_cli;
mod mappings;
mod mcp;
// Shared with the service test binary; each uses its own part.
#[allow(dead_code)]
mod process;
mod query_tools;
mod real_owl;
mod real_skos;
mod shared_server;
mod sparql;
mod stdio_framing;
