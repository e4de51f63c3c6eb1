// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/src/runtime/join.rs (hand-written, copied verbatim).
// codegen: copy; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! What the runtime needs of async Rust, written for any executor: running futures
//! concurrently in one task ([`try_join_all`]), turning a panic into a value
//! ([`CatchUnwind`]), and taking turns ([`TurnLock`]).

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

/// A boxed future that can move between threads.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Runs `futures` concurrently in the task that awaits it: their values in their order, or
/// the first error, at which the others are dropped (cancelled).
pub(crate) fn try_join_all<T, E, F: Future<Output = Result<T, E>>>(
    futures: Vec<F>,
) -> TryJoinAll<F, T> {
    let slots = futures
        .into_iter()
        .map(|f| Slot::Running(Box::pin(f)))
        .collect();
    TryJoinAll { slots }
}

enum Slot<F, T> {
    Running(Pin<Box<F>>),
    Done(T),
    Taken,
}

pub(crate) struct TryJoinAll<F, T> {
    slots: Vec<Slot<F, T>>,
}

// The futures are boxed: moving a TryJoinAll moves no future.
impl<F, T> Unpin for TryJoinAll<F, T> {}

impl<T, E, F: Future<Output = Result<T, E>>> Future for TryJoinAll<F, T> {
    type Output = Result<Vec<T>, E>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut all = true;
        for slot in &mut self.slots {
            if let Slot::Running(future) = slot {
                match future.as_mut().poll(cx) {
                    Poll::Ready(Ok(value)) => *slot = Slot::Done(value),
                    Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                    Poll::Pending => all = false,
                }
            }
        }
        if !all {
            return Poll::Pending;
        }
        let values = self
            .slots
            .iter_mut()
            .map(|slot| match std::mem::replace(slot, Slot::Taken) {
                Slot::Done(value) => value,
                _ => unreachable!("every slot is done"),
            })
            .collect();
        Poll::Ready(Ok(values))
    }
}

/// A future whose panic, in any of its polls, becomes its output (`Err` with the panic's
/// payload) instead of unwinding through the caller.
pub(crate) struct CatchUnwind<F> {
    future: Pin<Box<F>>,
}

impl<F> CatchUnwind<F> {
    pub(crate) fn new(future: F) -> CatchUnwind<F> {
        CatchUnwind {
            future: Box::pin(future),
        }
    }
}

impl<F: Future> Future for CatchUnwind<F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let future = self.future.as_mut();
        match catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
}

/// The text of a panic's payload (what `panic!` was given), or `"panic"` for any other.
pub(crate) fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "panic".to_owned()
    }
}

/// A lock taken in turn by the futures of one [`try_join_all`]: one holder at a time, the
/// others woken when it is let go (`wait_for` is asked one question at a time).
#[derive(Default)]
pub(crate) struct TurnLock {
    state: Mutex<(bool, Vec<Waker>)>,
}

impl TurnLock {
    /// Waits for the lock; it is held until the guard is dropped.
    pub(crate) fn lock(&self) -> TurnLockFuture<'_> {
        TurnLockFuture { lock: self }
    }
}

pub(crate) struct TurnLockFuture<'a> {
    lock: &'a TurnLock,
}

impl<'a> Future for TurnLockFuture<'a> {
    type Output = TurnGuard<'a>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<TurnGuard<'a>> {
        let lock = self.lock;
        let mut state = lock.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.0 {
            state.1.push(cx.waker().clone());
            return Poll::Pending;
        }
        state.0 = true;
        Poll::Ready(TurnGuard { lock })
    }
}

pub(crate) struct TurnGuard<'a> {
    lock: &'a TurnLock,
}

impl Drop for TurnGuard<'_> {
    fn drop(&mut self) {
        let wakers = {
            let mut state = self
                .lock
                .state
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            state.0 = false;
            std::mem::take(&mut state.1)
        };
        for waker in wakers {
            waker.wake();
        }
    }
}
