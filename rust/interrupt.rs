//! Stopping a long call before it ends. The PyO3 layer runs every detached call under a [`Watch`]:
//! the thread that made the call from Python polls for signals at its checkpoints (at most once per
//! [`POLL_EVERY`]), and once the call is stopped, every thread working for it leaves at its next
//! checkpoint by unwinding with an [`Interrupted`] payload, which the PyO3 layer catches and turns
//! into the exception the signal handler raised (`KeyboardInterrupt` for Ctrl-C).
//!
//! Why unwinding: a checkpoint deep in a kernel (a pass over the LCS table of a 10 MB text) must
//! abandon the whole call, and every kernel already lets a panic in a row reach the caller with the
//! pools usable afterwards; `resume_unwind` runs no panic hook, so nothing is printed. Checkpoints
//! sit between rows, and inside the kernels whose single rows can be long (ROUGE's LCS tables,
//! TER's edit table and shift search, the bootstrap's walks, cosine tiles), never while state kept
//! across calls is half updated. The string distances have none inside a pair: any checkpoint in
//! their loops, even in a separate build for long pairs, cost sentence pairs 5 to 8 %, and a pair
//! of 300,000 characters takes 4 s (Levenshtein) at most.
//!
//! Cost: outside a call a checkpoint is one thread-local load; inside, also one atomic load, and
//! on the calling thread one look at the clock per [`CLOCK_WORK`] units of work charged (a unit is
//! roughly a nanosecond of kernel work; a row is charged [`ROW_WORK`]). The row loops use a
//! [`RowGate`], which reads the thread-local state once per block of rows.

use std::cell::Cell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The unwinding payload of a stopped call.
pub struct Interrupted;

/// How often the calling thread polls for signals while its call runs.
pub const POLL_EVERY: Duration = Duration::from_millis(10);

/// Work charged between two looks at the clock on the calling thread.
const CLOCK_WORK: u64 = 1 << 15;

/// The work charged by a checkpoint between rows.
pub const ROW_WORK: u64 = 256;

/// Asks whether the call must stop (a signal handler raised); run only on the calling thread.
pub type Poll = Box<dyn Fn() -> bool + Send + Sync>;

/// The state of one call, shared by every thread that works for it.
pub struct Watch {
    stopped: AtomicBool,
    poll: Option<Poll>,
}

/// What a thread is doing for a call: the call's watch (null outside calls), whether this thread
/// made the call (and so polls), and its work and clock since it last polled.
#[derive(Clone, Copy)]
struct Here {
    watch: *const Watch,
    caller: bool,
    work: u64,
    polled: Option<Instant>,
}

const OUTSIDE: Here = Here {
    watch: std::ptr::null(),
    caller: false,
    work: 0,
    polled: None,
};

thread_local! {
    /// Set only inside `Watch::run` and `within`, whose borrow of the watch's `Arc` keeps it alive.
    static HERE: Cell<Here> = const { Cell::new(OUTSIDE) };
}

/// Puts back what a thread was doing before, also when it unwinds.
struct Restore(Here);

impl Drop for Restore {
    fn drop(&mut self) {
        HERE.set(self.0);
    }
}

/// This thread works for the call of `watch` until the result drops (which it must before the
/// borrow of `watch` ends: see `HERE`).
fn enter(watch: &Arc<Watch>, caller: bool) -> Restore {
    let here = Here {
        watch: Arc::as_ptr(watch),
        caller,
        work: 0,
        polled: caller.then(Instant::now),
    };
    Restore(HERE.replace(here))
}

impl Watch {
    /// A call's watch; `poll` is asked on the calling thread whether to stop (`None`: never).
    pub fn new(poll: Option<Poll>) -> Arc<Watch> {
        Arc::new(Watch {
            stopped: AtomicBool::new(false),
            poll,
        })
    }

    /// Runs `f` on this thread, the calling one, which polls at its checkpoints.
    pub fn run<T>(self: &Arc<Self>, f: impl FnOnce() -> T) -> T {
        let _restore = enter(self, true);
        f()
    }

    /// Polls now (on the calling thread), and stops the call if asked to; whether it is stopped.
    pub fn poll(&self) -> bool {
        if !self.is_stopped() && self.poll.as_ref().is_some_and(|poll| poll()) {
            self.stopped.store(true, Ordering::Release);
        }
        self.is_stopped()
    }

    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }
}

/// The watch of the call this thread works for, to hand to the threads that share its work.
pub fn current() -> Option<Arc<Watch>> {
    let watch = HERE.get().watch;
    if watch.is_null() {
        return None;
    }
    // SAFETY: `watch` comes from `Arc::as_ptr` of an `Arc` borrowed for as long as it is set (see
    // `HERE`); one more strong count for the `Arc` made here.
    unsafe {
        Arc::increment_strong_count(watch);
        Some(Arc::from_raw(watch))
    }
}

/// Runs `f` for the call of `watch` (from [`current`]) on a thread that shares its work: its
/// checkpoints stop when the call is stopped. On the calling thread itself nothing changes.
pub fn within<T>(watch: &Option<Arc<Watch>>, f: impl FnOnce() -> T) -> T {
    match watch {
        Some(w) if !std::ptr::eq(HERE.get().watch, Arc::as_ptr(w)) => {
            let _restore = enter(w, false);
            f()
        }
        _ => f(),
    }
}

/// `f` as a task of a rayon loop of the current call, run within the call (see [`within`]). Once
/// the call is stopped a task returns `B::default()`, before it starts or from its next checkpoint:
/// a task that unwound instead would make rayon split what is left of the loop into ever smaller
/// tasks, each unwinding in turn (measured: 0.1 to 1 s to stop a bootstrap). The caller of a
/// stopped call drops its value (see the PyO3 layer's `settle`).
pub fn watched<A, B: Default>(f: impl Fn(A) -> B + Send + Sync) -> impl Fn(A) -> B + Send + Sync {
    let watch = current();
    move |a| match &watch {
        Some(w) if w.is_stopped() => B::default(),
        Some(_) => within(&watch, || match catch_unwind(AssertUnwindSafe(|| f(a))) {
            Ok(b) => b,
            Err(payload) if payload.is::<Interrupted>() => B::default(),
            Err(payload) => resume_unwind(payload),
        }),
        None => f(a),
    }
}

/// A checkpoint between rows.
#[inline(always)]
pub fn checkpoint() {
    charge(ROW_WORK);
}

/// Rows charged at once by a [`RowGate`].
const GATE_ROWS: u32 = 64;

/// Checkpoints between the rows of a loop at a fraction of [`checkpoint`]'s cost: the thread's
/// state is read once, by `new`, and each row costs a load of the call's flag and a count (a string
/// distance row takes 100 ns); every [`GATE_ROWS`] rows, a [`charge`] (the clock, and polls).
pub struct RowGate {
    /// The watch of the call the loop runs for (null outside calls): the loop runs within the call,
    /// so the watch outlives the gate (see `HERE`).
    watch: *const Watch,
    rows: u32,
}

impl RowGate {
    pub fn new() -> Self {
        RowGate {
            watch: HERE.get().watch,
            rows: 0,
        }
    }

    /// The checkpoint before a row.
    #[inline(always)]
    pub fn row(&mut self) {
        if self.watch.is_null() {
            return;
        }
        // SAFETY: see `watch`.
        if unsafe { (*self.watch).is_stopped() } {
            resume_unwind(Box::new(Interrupted));
        }
        self.rows += 1;
        if self.rows == GATE_ROWS {
            self.rows = 0;
            charge(ROW_WORK * u64::from(GATE_ROWS));
        }
    }
}

impl Default for RowGate {
    fn default() -> Self {
        Self::new()
    }
}

/// A checkpoint after `work` units of work: leaves the call (unwinding) if it is stopped; on the
/// calling thread, polls if [`POLL_EVERY`] has passed.
#[inline(always)]
pub fn charge(work: u64) {
    let here = HERE.get();
    if here.watch.is_null() {
        return;
    }
    // SAFETY: the watch lives while `HERE` points to it (see `HERE`).
    let watch = unsafe { &*here.watch };
    if watch.is_stopped() {
        resume_unwind(Box::new(Interrupted));
    }
    if here.caller {
        on_caller(here, watch, work);
    }
}

#[inline(never)]
fn on_caller(mut here: Here, watch: &Watch, work: u64) {
    here.work = here.work.saturating_add(work);
    if here.work >= CLOCK_WORK {
        here.work = 0;
        let now = Instant::now();
        if here
            .polled
            .is_none_or(|t| now.duration_since(t) >= POLL_EVERY)
        {
            here.polled = Some(now);
            HERE.set(here);
            if watch.poll() {
                resume_unwind(Box::new(Interrupted));
            }
            return;
        }
    }
    HERE.set(here);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn a_stopped_call_unwinds_at_its_next_checkpoint_on_every_thread() {
        let polls = Arc::new(AtomicUsize::new(0));
        let counter = polls.clone();
        // Asks to stop at the third poll.
        let watch = Watch::new(Some(Box::new(move || {
            counter.fetch_add(1, Ordering::Relaxed) >= 2
        })));
        let rows = AtomicUsize::new(0);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            watch.run(|| loop {
                rows.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_micros(200));
                charge(CLOCK_WORK);
            })
        }));
        let payload = outcome.err().map(|p| p.is::<Interrupted>());
        assert_eq!(payload, Some(true));
        assert_eq!(polls.load(Ordering::Relaxed), 3);
        assert!(rows.load(Ordering::Relaxed) >= 3);
        // Outside the call nothing stops; a thread sharing the stopped call's work leaves.
        checkpoint();
        let shared = Some(watch.clone());
        let helper = std::thread::spawn(move || {
            catch_unwind(AssertUnwindSafe(|| within(&shared, checkpoint))).is_err()
        });
        assert_eq!(helper.join().ok(), Some(true));
        assert!(current().is_none());
        // Tasks of a rayon loop of the stopped call return their default at once, and so does a
        // task that was stopped inside: none unwinds into rayon.
        let ran = AtomicUsize::new(0);
        let task = watch.run(|| {
            watched(|x: u64| {
                ran.fetch_add(1, Ordering::Relaxed);
                x + 1
            })
        });
        assert_eq!(task(1), 0);
        assert_eq!(ran.load(Ordering::Relaxed), 0);
        let running = Watch::new(None);
        let task = running.run(|| {
            watched(|x: u64| {
                running.stopped.store(true, Ordering::Release);
                checkpoint();
                x + 1
            })
        });
        let on_another_thread = std::thread::scope(|s| s.spawn(|| task(1)).join().ok());
        assert_eq!(on_another_thread, Some(0));
    }

    #[test]
    fn a_row_gate_passes_outside_calls_and_stops_a_stopped_one() {
        let mut outside = RowGate::new();
        for _ in 0..1000 {
            outside.row();
        }
        let watch = Watch::new(None);
        let rows = AtomicUsize::new(0);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            watch.run(|| {
                let mut gate = RowGate::new();
                for row in 0..1000 {
                    if row == 100 {
                        watch.stopped.store(true, Ordering::Release);
                    }
                    gate.row();
                    rows.fetch_add(1, Ordering::Relaxed);
                }
            })
        }));
        assert!(outcome.is_err_and(|p| p.is::<Interrupted>()));
        assert_eq!(rows.load(Ordering::Relaxed), 100);
    }

    #[test]
    fn without_a_poll_a_call_runs_to_its_end_and_restores_the_thread() {
        let watch = Watch::new(None);
        let inner = watch.run(|| {
            let seen = current().map(|w| Arc::ptr_eq(&w, &watch));
            for _ in 0..1000 {
                charge(CLOCK_WORK);
            }
            // A task of this call on this thread keeps it the calling thread.
            let task = watched(|x: u32| x + 1);
            (seen, task(1))
        });
        assert_eq!(inner, (Some(true), 2));
        assert!(!watch.is_stopped());
        assert!(HERE.get().watch.is_null());
    }
}
