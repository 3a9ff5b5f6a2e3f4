//! Places for pooled work per HTTP client (tool calls, resource reads, completion): no client
//! runs more than half of the pool's calls at once, so one client sending long calls side by
//! side never leaves the others waiting. A call over its client's share waits for one of that
//! client's places, up to the call deadline, and is then refused as rate limited.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::MAX_CONCURRENT_CALLS;

/// Pooled calls (tool calls, resource reads, completions) one client may have running at once.
pub const MAX_CALLS_PER_CLIENT: usize = MAX_CONCURRENT_CALLS / 2;
/// Idle clients remembered before they are forgotten.
const MAX_TRACKED_CLIENTS: usize = 10_000;

pub(super) struct ClientPlaces {
    per_client: usize,
    clients: Mutex<HashMap<String, Arc<Semaphore>>>,
}

impl ClientPlaces {
    pub(super) fn new(per_client: usize) -> Self {
        ClientPlaces {
            per_client,
            clients: Mutex::new(HashMap::new()),
        }
    }

    /// One of `client`'s places, held until dropped; `None` when none came free within `wait`.
    pub(super) async fn acquire(
        &self,
        client: &str,
        wait: Duration,
    ) -> Option<OwnedSemaphorePermit> {
        let places = {
            let mut clients = match self.clients.lock() {
                Ok(c) => c,
                Err(poisoned) => poisoned.into_inner(),
            };
            if clients.len() >= MAX_TRACKED_CLIENTS && !clients.contains_key(client) {
                // A client no call holds or waits for is only referenced here.
                clients.retain(|_, places| Arc::strong_count(places) > 1);
            }
            clients
                .entry(client.to_string())
                .or_insert_with(|| Arc::new(Semaphore::new(self.per_client)))
                .clone()
        };
        tokio::time::timeout(wait, places.acquire_owned())
            .await
            .ok()?
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_client_with_every_place_taken_waits_and_others_do_not() {
        let places = ClientPlaces::new(2);
        let short = Duration::from_millis(20);
        let first = places.acquire("a", short).await.expect("a's first place");
        let _second = places.acquire("a", short).await.expect("a's second place");
        assert!(
            places.acquire("a", short).await.is_none(),
            "a third call of a waits, then is refused"
        );
        assert!(
            places.acquire("b", short).await.is_some(),
            "another client has places of its own"
        );
        drop(first);
        assert!(
            places.acquire("a", short).await.is_some(),
            "a place given back is taken"
        );
    }

    #[tokio::test]
    async fn a_waiting_call_gets_the_place_given_back() {
        let places = Arc::new(ClientPlaces::new(1));
        let held = places
            .acquire("a", Duration::from_millis(20))
            .await
            .expect("a's place");
        let waiting = {
            let places = places.clone();
            tokio::spawn(async move { places.acquire("a", Duration::from_secs(10)).await })
        };
        tokio::time::sleep(Duration::from_millis(10)).await;
        drop(held);
        assert!(waiting.await.expect("task").is_some());
    }
}
