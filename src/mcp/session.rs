//! What a 2025-11-25 session asked for beyond the stateless revision: a log level
//! (`logging/setLevel`) and resource subscriptions (`resources/subscribe`). Both are gone in
//! 2026-07-28, where change notifications flow on `subscriptions/listen`. When a new build is
//! served, the session hears `resources/updated` for every URI it subscribed to (a release may
//! change any concept, and a URI absent today may exist in the next build), and, at level
//! `info` or below, a log message naming the build.
// rmcp marks the logging types deprecated (SEP-2577); the legacy revision still has them.
#![allow(deprecated)]

use crate::mcp::tools::ErrorCode;
use crate::model::WireName;
use std::collections::BTreeSet;
use std::sync::Mutex;

use rmcp::model::{
    LoggingLevel, LoggingMessageNotificationParam, ResourceUpdatedNotificationParam,
};
use rmcp::service::Peer;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::json;

use crate::resolve::MAX_IDENTIFIER_BYTES;

/// At most this many subscribed URIs per session.
pub const MAX_SUBSCRIPTIONS: usize = 1_000;

/// The logger name on messages the server sends.
const LOGGER: &str = "ontoresolve";

/// One session's wishes. A new one per session: the HTTP service makes a server per session.
#[derive(Debug, Default)]
pub struct Session {
    /// The least severe level the client wants; `None` until it sets one (then nothing is sent).
    level: Mutex<Option<LoggingLevel>>,
    subscribed: Mutex<BTreeSet<String>>,
}

/// Severity as a rank, least severe first.
fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

impl Session {
    pub fn set_level(&self, level: LoggingLevel) {
        *self.level.lock().unwrap_or_else(|e| e.into_inner()) = Some(level);
    }

    fn wants(&self, level: LoggingLevel) -> bool {
        self.level
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some_and(|wanted| rank(level) >= rank(wanted))
    }

    /// Subscribes to a URI, which need not exist yet: the next build may add it.
    pub fn subscribe(&self, uri: &str) -> Result<(), McpError> {
        if uri.is_empty() || uri.len() > MAX_IDENTIFIER_BYTES {
            return Err(McpError::invalid_params(
                format!("a subscribed URI has 1 to {MAX_IDENTIFIER_BYTES} bytes"),
                Some(json!({ "code": ErrorCode::LimitExceeded.wire_name() })),
            ));
        }
        let mut subscribed = self.subscribed.lock().unwrap_or_else(|e| e.into_inner());
        if subscribed.len() >= MAX_SUBSCRIPTIONS && !subscribed.contains(uri) {
            return Err(McpError::invalid_params(
                format!("a session may subscribe to at most {MAX_SUBSCRIPTIONS} URIs"),
                Some(
                    json!({ "code": ErrorCode::LimitExceeded.wire_name(), "max": MAX_SUBSCRIPTIONS }),
                ),
            ));
        }
        subscribed.insert(uri.to_string());
        Ok(())
    }

    pub fn unsubscribe(&self, uri: &str) {
        self.subscribed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(uri);
    }

    fn subscribed(&self) -> Vec<String> {
        self.subscribed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect()
    }

    /// Tells the session of a new build: its subscriptions updated, and a log message when it
    /// wants `info`. An error means the session is gone.
    pub async fn announce_build(&self, peer: &Peer<RoleServer>, build_id: &str) -> Result<(), ()> {
        for uri in self.subscribed() {
            peer.notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                .await
                .map_err(drop)?;
        }
        if self.wants(LoggingLevel::Info) {
            let message = LoggingMessageNotificationParam::new(
                LoggingLevel::Info,
                json!({ "event": "build_switched", "build": build_id }),
            )
            .with_logger(LOGGER);
            peer.notify_logging_message(message).await.map_err(drop)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_logs_nothing_until_it_sets_a_level_then_that_level_and_above() {
        let s = Session::default();
        assert!(!s.wants(LoggingLevel::Emergency));
        s.set_level(LoggingLevel::Warning);
        assert!(!s.wants(LoggingLevel::Info));
        assert!(s.wants(LoggingLevel::Warning) && s.wants(LoggingLevel::Error));
        s.set_level(LoggingLevel::Debug);
        assert!(s.wants(LoggingLevel::Info));
    }

    #[test]
    fn subscriptions_are_bounded_in_number_and_length_and_can_be_dropped() {
        let s = Session::default();
        for n in 0..MAX_SUBSCRIPTIONS {
            s.subscribe(&format!("ontoresolve://concept/HP:{n:07}"))
                .expect("within the cap");
        }
        assert!(
            s.subscribe("ontoresolve://concept/HP:0000001").is_ok(),
            "again is fine"
        );
        assert!(s.subscribe("test://one-too-many").is_err());
        s.unsubscribe("ontoresolve://concept/HP:0000000");
        assert!(s.subscribe("test://watched-resource").is_ok());
        assert!(s.subscribe("").is_err());
        assert!(s.subscribe(&"x".repeat(MAX_IDENTIFIER_BYTES + 1)).is_err());
        assert_eq!(s.subscribed().len(), MAX_SUBSCRIPTIONS);
    }
}
