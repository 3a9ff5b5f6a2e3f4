//! Wire values in MCP answers (as rust-analyzer's `to_proto`).
//!
//! Every state an answer carries is an enum in the core until a [`Tag`] carries its wire name
//! (`model::wire`, `resolve::wire`: one exhaustive match per enum, the names every adapter
//! writes). A tag's JSON schema lists its enum's names, so the published schemas never drift
//! from the enums (`tests::every_wire_value_appears_in_the_published_schemas` holds them to
//! it). The protocol's own error codes are named here.

use std::borrow::Cow;
use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Serialize, Serializer};

pub use crate::model::WireName;
use crate::model::wire::wire_names;
use crate::resolve::ResolveStep;

/// One value's wire name, typed by the enum it came from so that its schema lists the
/// enum's names. Built only by [`Tag::of`].
pub struct Tag<T: ?Sized>(&'static str, PhantomData<fn() -> T>);

impl<T: WireName + ?Sized> Tag<T> {
    pub fn of(value: &T) -> Self {
        Tag(value.wire_name(), PhantomData)
    }

    pub fn as_str(&self) -> &'static str {
        self.0
    }
}

impl<T: ?Sized> Clone for Tag<T> {
    fn clone(&self) -> Self {
        Tag(self.0, PhantomData)
    }
}

impl<T: ?Sized> std::fmt::Debug for Tag<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl<T: ?Sized> PartialEq<&str> for Tag<T> {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl<T: ?Sized> Serialize for Tag<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl<T: WireName + ?Sized> JsonSchema for Tag<T> {
    fn schema_name() -> Cow<'static, str> {
        T::TITLE.into()
    }

    // Inline: a `$ref` per use costs more than the few names it would share.
    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "enum": T::NAMES })
    }
}

/// Resolution steps as an answer says them: one sentence each.
pub fn steps(steps: &[ResolveStep]) -> Vec<String> {
    steps.iter().map(ToString::to_string).collect()
}

pub use super::tools::ErrorCode;

wire_names!(ErrorCode, "error_code" {
    InvalidArgument => "invalid_argument",
    LimitExceeded => "limit_exceeded",
    MalformedIdentifier => "malformed_identifier",
    UnknownPrefix => "unknown_prefix",
    UnknownSource => "unknown_source",
    UnknownRelease => "unknown_release",
    AmbiguousInput => "ambiguous_input",
    InvalidCursor => "invalid_cursor",
    InvalidQuery => "invalid_query",
    ReadOnlyQuery => "read_only_query",
    Timeout => "timeout",
    RateLimited => "rate_limited",
    QueryFailed => "query_failed",
    IndexDamaged => "index_damaged",
    InternalError => "internal_error",
    Unauthorized => "unauthorized",
    ParseError => "parse_error",
});

#[cfg(test)]
mod tests;
