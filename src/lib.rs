//! ontoresolve: ontology and identifier resolution for AI agents.
//!
//! Data flows one way. Offline: `ontologies/sources.toml` → [`ingest`] → [`model`] → [`build`]
//! → [`store`] + [`index`] under `index/`. Online: `index/` → [`resolve`] → the adapters:
//! [`mcp`], [`pages`] and the OLS API ([`ols`]).

pub mod acquire;
pub mod build;
pub mod catalog;
pub mod index;
pub mod ingest;
pub mod mcp;
pub mod model;
pub mod ols;
pub mod pages;
pub mod registry;
pub mod resolve;
pub mod store;
#[cfg(test)]
mod test_data;
