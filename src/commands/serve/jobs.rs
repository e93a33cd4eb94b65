//! The searches the server runs: at most one permit a search thread (the cores by default),
//! a bounded queue for the rest, one search a page (a page's new search cancels its old one),
//! and every search cancelled when its client goes or the server stops.
//!
//! A search's stop flag ([`Cancel`]) comes from a pool and goes back to it, lowered, when the
//! search ends: a flag costs a leaked byte, so they are reused rather than made a request.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use crate::solve::Cancel;

/// Requests that may wait for a permit, a permit: past them the server answers 503.
const QUEUE_PER_PERMIT: usize = 16;

/// Why a search was not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The queue is full: try again later.
    Busy,
    /// Its page asked for another search, or the client went, while it waited.
    Cancelled,
    /// The server is stopping.
    Stopping,
}

/// One search, admitted or waiting.
struct Running {
    cancel: Cancel,
    /// Raised once the search has ended: the flag may then belong to another search.
    ended: Mutex<bool>,
    /// Wakes the search while it waits for a permit, to give up.
    woken: Notify,
}

impl Running {
    /// Stops the search, if it has not ended; says whether it had not.
    fn raise(&self) -> bool {
        let ended = self.ended.lock().unwrap_or_else(PoisonError::into_inner);
        if !*ended {
            self.cancel.set(true);
            self.woken.notify_one();
        }
        !*ended
    }
}

/// Every search of the server.
pub(crate) struct Jobs {
    permits: Arc<Semaphore>,
    total: u32,
    waiting: AtomicUsize,
    queue: usize,
    flags: Mutex<Vec<Cancel>>,
    /// Every search not ended, by number: what [`Jobs::stop`] cancels.
    all: Mutex<HashMap<u64, Arc<Running>>>,
    /// Each page's search, by the page's id.
    pages: Mutex<HashMap<String, u64>>,
    next: AtomicU64,
    stopping: AtomicBool,
}

/// An admitted search: its permits and its flag, given back when it is dropped.
pub(crate) struct Ticket {
    jobs: Arc<Jobs>,
    number: u64,
    page: Option<String>,
    running: Arc<Running>,
    _permit: Option<OwnedSemaphorePermit>,
}

impl Ticket {
    /// The flag the search must watch.
    pub fn cancel(&self) -> Cancel {
        self.running.cancel
    }

    /// A guard for the request that waits on the search: dropped before the search ends (the
    /// client went), it cancels it.
    pub fn watch(&self) -> Watch {
        Watch(self.running.clone())
    }

    /// Cancels the search once `limit` has passed, if it still runs; the flag returned is
    /// raised when it did.
    pub fn deadline(&self, limit: std::time::Duration) -> Arc<AtomicBool> {
        let running = self.running.clone();
        let expired = Arc::new(AtomicBool::new(false));
        let flag = expired.clone();
        tokio::spawn(async move {
            tokio::time::sleep(limit).await;
            if running.raise() {
                flag.store(true, Ordering::Relaxed);
            }
        });
        expired
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        {
            let mut ended = self
                .running
                .ended
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            *ended = true;
        }
        self.jobs.forget(self.number, self.page.as_deref());
        let flag = self.running.cancel;
        flag.set(false);
        lock(&self.jobs.flags).push(flag);
    }
}

/// Cancels its search when dropped, unless the search has ended.
pub(crate) struct Watch(Arc<Running>);

impl Drop for Watch {
    fn drop(&mut self) {
        self.0.raise();
    }
}

/// Counts a request among those waiting while it lives.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Jobs {
    /// Room for `searches` search threads at once.
    pub fn new(searches: usize) -> Jobs {
        let total = searches.clamp(1, Semaphore::MAX_PERMITS) as u32;
        Jobs {
            permits: Arc::new(Semaphore::new(total as usize)),
            total,
            waiting: AtomicUsize::new(0),
            queue: total as usize * QUEUE_PER_PERMIT,
            flags: Mutex::new(Vec::new()),
            all: Mutex::new(HashMap::new()),
            pages: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
            stopping: AtomicBool::new(false),
        }
    }

    /// Most threads one search may have: all the permits.
    pub fn total(&self) -> usize {
        self.total as usize
    }

    /// How many searches have not ended (running or waiting).
    pub fn live(&self) -> usize {
        lock(&self.all).len()
    }

    /// Waits for `threads` permits for a search from `page` (0: a quick command, which needs
    /// no permit but is still cancelled with its page). A page's earlier search is cancelled.
    pub async fn admit(
        self: &Arc<Self>,
        page: Option<&str>,
        threads: usize,
    ) -> Result<Ticket, Refusal> {
        if self.stopping.load(Ordering::Relaxed) {
            return Err(Refusal::Stopping);
        }
        if self.waiting.fetch_add(1, Ordering::Relaxed) >= self.queue {
            self.waiting.fetch_sub(1, Ordering::Relaxed);
            return Err(Refusal::Busy);
        }
        let _waiting = Waiting(&self.waiting);
        let mut ticket = self.register(page);
        if threads > 0 {
            let want = (threads as u32).min(self.total);
            let acquire = self.permits.clone().acquire_many_owned(want);
            let running = ticket.running.clone();
            let woken = running.woken.notified();
            tokio::select! {
                permit = acquire => ticket._permit = permit.ok(),
                () = woken => return Err(Refusal::Cancelled),
            }
        }
        if ticket.cancel().is_set() {
            return Err(if self.stopping.load(Ordering::Relaxed) {
                Refusal::Stopping
            } else {
                Refusal::Cancelled
            });
        }
        Ok(ticket)
    }

    /// A ticket without permits yet, its page's earlier search cancelled.
    fn register(self: &Arc<Self>, page: Option<&str>) -> Ticket {
        let flag = lock(&self.flags).pop().unwrap_or_default();
        let running = Arc::new(Running {
            cancel: flag,
            ended: Mutex::new(false),
            woken: Notify::new(),
        });
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        lock(&self.all).insert(number, running.clone());
        if let Some(page) = page {
            let old = lock(&self.pages).insert(page.to_string(), number);
            if let Some(old) = old.and_then(|n| lock(&self.all).get(&n).cloned()) {
                old.raise();
            }
        }
        Ticket {
            jobs: self.clone(),
            number,
            page: page.map(str::to_string),
            running,
            _permit: None,
        }
    }

    /// A search has ended: it is no longer its page's.
    fn forget(&self, number: u64, page: Option<&str>) {
        lock(&self.all).remove(&number);
        if let Some(page) = page {
            let mut pages = lock(&self.pages);
            if pages.get(page) == Some(&number) {
                pages.remove(page);
            }
        }
    }

    /// The server is stopping: every search is cancelled and no new one starts.
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::Relaxed);
        let all: Vec<Arc<Running>> = lock(&self.all).values().cloned().collect();
        for r in all {
            r.raise();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block<T>(f: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn a_pages_new_search_cancels_its_old_one_and_flags_are_reused() {
        block(async {
            let jobs = Arc::new(Jobs::new(2));
            let first = jobs.admit(Some("p"), 1).await.unwrap();
            let other = jobs.admit(Some("q"), 1).await.unwrap();
            assert!(!first.cancel().is_set());
            // The page's second search waits for a permit; asking for it cancels the first.
            let second = jobs.admit(Some("p"), 1);
            tokio::pin!(second);
            assert!(futures_poll_once(second.as_mut()).await.is_none());
            assert!(first.cancel().is_set());
            assert!(!other.cancel().is_set());
            let raised = first.cancel();
            drop(first);
            let second = second.await.unwrap();
            assert!(!second.cancel().is_set());
            let third = jobs.admit(None, 0).await.unwrap();
            assert_eq!(
                third.cancel(),
                raised,
                "an ended search's flag is reused, lowered"
            );
            assert!(!third.cancel().is_set());
            drop(third);
            assert_eq!(jobs.live(), 2);
            jobs.stop();
            assert!(second.cancel().is_set() && other.cancel().is_set());
            assert_eq!(jobs.admit(None, 1).await.err(), Some(Refusal::Stopping));
        });
    }

    #[test]
    fn a_full_queue_is_refused() {
        block(async {
            let jobs = Arc::new(Jobs::new(1));
            let _running = jobs.admit(None, 1).await.unwrap();
            let mut waiting = Vec::new();
            for _ in 0..QUEUE_PER_PERMIT {
                let mut f = Box::pin(jobs.admit(None, 1));
                assert!(futures_poll_once(f.as_mut()).await.is_none());
                waiting.push(f);
            }
            assert_eq!(jobs.admit(None, 1).await.err(), Some(Refusal::Busy));
            drop(waiting);
            let mut f = Box::pin(jobs.admit(None, 1));
            assert!(futures_poll_once(f.as_mut()).await.is_none(), "room again");
        });
    }

    /// Polls a future once: its output if it is ready.
    async fn futures_poll_once<F: std::future::Future + ?Sized>(
        f: std::pin::Pin<&mut F>,
    ) -> Option<F::Output> {
        let mut f = Some(f);
        std::future::poll_fn(move |cx| {
            let f = f.take().expect("polled once");
            std::task::Poll::Ready(match f.poll(cx) {
                std::task::Poll::Ready(v) => Some(v),
                std::task::Poll::Pending => None,
            })
        })
        .await
    }
}
