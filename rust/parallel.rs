//! The row loops of the text metrics' batch functions. Inside [`with_pool`] a thread's loop shares
//! its rows between that thread and the pool's workers: each takes the next block of rows
//! from a shared counter until none are left. The calling thread starts at once and works
//! throughout, so a worker that wakes late (waking a sleeping thread takes tens of microseconds,
//! more on a virtual machine) costs only the rows it would have done, a worker that has not started
//! when the rows run out is not waited for, and the caller never sleeps through a loop waiting to be
//! woken at its end. Loops nested in a loop's rows, and loops outside
//! `with_pool` (small batches, one-thread pools), run in order on their thread. Each row is
//! computed alone, so where rows run never changes a result.

use std::any::Any;
use std::cell::Cell;
use std::marker::PhantomData;
use std::ops::Range;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::Thread;
use std::time::{Duration, Instant};

use rayon::ThreadPool;

thread_local! {
    /// The pool this thread's next loop shares its rows with (see [`with_pool`]); taken by a loop
    /// while it runs, so that the loops in its rows run in order.
    static POOL: Cell<Option<Arc<ThreadPool>>> = const { Cell::new(None) };
}

/// Puts back the pool a thread had before, also when a row panics.
struct Restore(Option<Arc<ThreadPool>>);

impl Drop for Restore {
    fn drop(&mut self) {
        POOL.set(self.0.take());
    }
}

/// Runs `f` on this thread; the loops it runs share their rows with every worker of `pool`.
pub fn with_pool<T>(pool: Arc<ThreadPool>, f: impl FnOnce() -> T) -> T {
    let _restore = Restore(POOL.replace(Some(pool)));
    f()
}

/// `f(scratch, item)` of every item, in order. `init` makes the scratch of each thread that takes
/// rows; a block of rows has at least `min_len` of them (but the last).
pub fn map_init<T: Sync, S, O: Send>(
    items: &[T],
    min_len: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> O + Sync,
) -> Vec<O> {
    map_indices(items.len(), min_len, init, |scratch, i| {
        items.get(i).map(|item| f(scratch, item))
    })
}

/// `f(scratch, i)` for `i` in `0..len`, in order (`None`s dropped: `f` returns one only for an
/// index out of range, which it is never given), shared with the pool of [`with_pool`] if this
/// thread has one.
fn map_indices<S, O: Send>(
    len: usize,
    min_len: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize) -> Option<O> + Sync,
) -> Vec<O> {
    let mut parts = blocks(len, min_len, init, |scratch, rows| {
        let mut out = Vec::with_capacity(rows.len());
        out.extend(rows.filter_map(|i| f(scratch, i)));
        out
    });
    if parts.len() == 1 {
        return parts.pop().unwrap_or_default();
    }
    // Sized once: a growing vector would copy the rows again at every doubling.
    let mut out = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for rows in parts {
        out.extend(rows);
    }
    out
}

/// `block(scratch, rows)` of blocks of rows that cover `0..len`, in row order: one block on this
/// thread, or blocks shared with the pool of [`with_pool`] if this thread has one.
fn blocks<S, B: Send>(
    len: usize,
    min_len: usize,
    init: impl Fn() -> S + Sync,
    block: impl Fn(&mut S, Range<usize>) -> B + Sync,
) -> Vec<B> {
    let pool = POOL.take();
    let _restore = Restore(pool.clone());
    match pool {
        Some(pool) => shared(&pool, len, min_len, init, block),
        None => vec![block(&mut init(), 0..len)],
    }
}

/// [`blocks`] by this thread and `pool`'s workers.
fn shared<S, B: Send>(
    pool: &ThreadPool,
    len: usize,
    min_len: usize,
    init: impl Fn() -> S + Sync,
    block: impl Fn(&mut S, Range<usize>) -> B + Sync,
) -> Vec<B> {
    let workers = pool.current_num_threads();
    let threads = workers + 1;
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, B)>> = Mutex::new(Vec::new());
    let work = || {
        let mut scratch = None;
        let mut parts = Vec::new();
        while let Some(rows) = claim(&next, len, min_len, threads) {
            let scratch = scratch.get_or_insert_with(&init);
            parts.push((rows.start, block(scratch, rows)));
        }
        // Only `extend` runs under the lock, and it cannot panic midway: no poison to fear.
        done.lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .extend(parts);
    };
    let helpers = HandOff::start(pool, workers, &work);
    work();
    helpers.finish();
    let mut parts = done
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    parts.sort_unstable_by_key(|&(start, _)| start);
    parts.into_iter().map(|(_, part)| part).collect()
}

/// The jobs that let a pool's workers join a loop on the calling thread. The caller waits only for
/// the workers that started: a job no worker has taken by the time the caller runs out of rows is
/// called off, so a short loop does not wait for a sleeping worker to wake and find nothing left
/// (on this kind of host that wake takes 50-100 us, as long as a loop of 64 chrF rows).
struct HandOff<'a> {
    jobs: Vec<Arc<Job>>,
    /// The loop the jobs run: the jobs point to it, so it must outlive them.
    _work: PhantomData<&'a (dyn Fn() + Sync)>,
}

/// A job's life: `WAITING` until a worker starts it (`RUNNING`, then `FINISHED`) or the caller
/// calls it off (`CALLED_OFF`); whoever moves it out of `WAITING` first decides.
const WAITING: u8 = 0;
const RUNNING: u8 = 1;
const FINISHED: u8 = 2;
const CALLED_OFF: u8 = 3;

struct Job {
    state: AtomicU8,
    /// The loop, with its lifetime erased; read only between `WAITING -> RUNNING` and
    /// `FINISHED`, while the caller waits in [`HandOff::finish`].
    work: *const (dyn Fn() + Sync),
    caller: Thread,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

// SAFETY: `work` is a `Sync` closure, only called while the `HandOff` that owns it waits (see
// `Job::run`); the other fields are `Send` and `Sync`.
unsafe impl Send for Job {}
unsafe impl Sync for Job {}

impl Job {
    fn run(&self) {
        if self
            .state
            .compare_exchange(WAITING, RUNNING, Ordering::Acquire, Ordering::Acquire)
            .is_err()
        {
            return;
        }
        // SAFETY: the job is running, so the caller's `HandOff` waits for `FINISHED` before the
        // loop it points to goes out of scope.
        let work = unsafe { &*self.work };
        if let Err(payload) = catch_unwind(AssertUnwindSafe(work)) {
            *self.panic.lock().unwrap_or_else(|p| p.into_inner()) = Some(payload);
        }
        let caller = self.caller.clone();
        self.state.store(FINISHED, Ordering::Release);
        caller.unpark();
    }
}

impl<'a> HandOff<'a> {
    /// Queues `work` for `workers` of `pool`'s workers.
    fn start(pool: &ThreadPool, workers: usize, work: &'a (dyn Fn() + Sync + 'a)) -> Self {
        // SAFETY: only the lifetime changes; `finish` (also run on unwinding, by `Drop`) outlives
        // every call of the loop through this pointer.
        let work: *const (dyn Fn() + Sync + 'static) = unsafe { std::mem::transmute(work) };
        let jobs: Vec<Arc<Job>> = (0..workers)
            .map(|_| {
                Arc::new(Job {
                    state: AtomicU8::new(WAITING),
                    work,
                    caller: std::thread::current(),
                    panic: Mutex::new(None),
                })
            })
            .collect();
        for job in &jobs {
            let job = job.clone();
            pool.spawn(move || job.run());
        }
        HandOff {
            jobs,
            _work: PhantomData,
        }
    }

    /// Calls off the jobs no worker has started, waits for the others, and panics again with a
    /// worker's panic.
    fn finish(mut self) {
        let payload = self.wait();
        if let Some(payload) = payload {
            resume_unwind(payload);
        }
    }

    fn wait(&mut self) -> Option<Box<dyn Any + Send>> {
        let mut payload = None;
        for job in self.jobs.drain(..) {
            if job
                .state
                .compare_exchange(WAITING, CALLED_OFF, Ordering::Acquire, Ordering::Acquire)
                .is_ok()
            {
                continue;
            }
            // A running worker is at most one block of rows from the end (blocks shrink as the
            // rows run out), so the caller spins a while before sleeping: being woken would cost
            // more than that block.
            let spin_until = Instant::now() + SPIN;
            let mut spins = 0u32;
            while job.state.load(Ordering::Acquire) != FINISHED {
                if spins < 64 || Instant::now() < spin_until {
                    spins = spins.saturating_add(1);
                    std::hint::spin_loop();
                } else {
                    std::thread::park_timeout(Duration::from_millis(1));
                }
            }
            payload = payload.or(job.panic.lock().unwrap_or_else(|p| p.into_inner()).take());
        }
        payload
    }
}

/// How long the caller spins for a worker still on its last block before it sleeps.
const SPIN: Duration = Duration::from_micros(50);

impl Drop for HandOff<'_> {
    fn drop(&mut self) {
        // Reached with jobs left only when the caller's own rows panicked: the loop's borrows
        // must outlive the workers all the same.
        self.wait();
    }
}

/// Rows of `width` floats, returned as `width` columns: `f(scratch, a[i], b[i], row)` writes the
/// values of row `i` into `row`, for every `i` below both lengths, in parallel as [`map_init`]. The
/// thread of a row stores it in the columns, so they need no joining after the loop. A failing
/// row gives the error of the first one, with its index.
pub fn columns_of_pairs<A: Sync, B: Sync, S, E: Send>(
    a: &[A],
    b: &[B],
    width: usize,
    min_len: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &A, &B, &mut [f64]) -> Result<(), E> + Sync,
) -> Result<Vec<Vec<f64>>, (usize, E)> {
    let len = a.len().min(b.len());
    // Unwritten memory: the threads that write the rows also fault its pages in.
    let mut columns: Vec<Vec<f64>> = (0..width).map(|_| Vec::with_capacity(len)).collect();
    let out = ColumnWriter::new(&mut columns, len);
    let init = || (init(), vec![0.0; width]);
    let written = blocks(len, min_len, init, |(scratch, row), rows| {
        let mut written = 0;
        for i in rows {
            let (Some(x), Some(y)) = (a.get(i), b.get(i)) else {
                break;
            };
            f(scratch, x, y, row).map_err(|e| (i, e))?;
            // SAFETY: `blocks` gives each row to one block, so only this thread writes row i.
            written += usize::from(unsafe { out.write(i, row) });
        }
        Ok(written)
    });
    let written = written.into_iter().sum::<Result<usize, _>>()?;
    if written == len {
        for column in &mut columns {
            // SAFETY: `len` writes of whole rows below `len`, each row in one block only: every
            // row of every column is initialised.
            unsafe { column.set_len(len) };
        }
    }
    Ok(columns)
}

/// Writes rows into columns of equal length from several threads at once.
struct ColumnWriter<'a> {
    columns: Vec<*mut f64>,
    len: usize,
    _columns: PhantomData<&'a mut [f64]>,
}

// SAFETY: the writer only writes, and `write`'s contract keeps two threads off the same row.
unsafe impl Sync for ColumnWriter<'_> {}

impl<'a> ColumnWriter<'a> {
    /// A writer of rows `0..len` of `columns`, each with room for `len` values.
    fn new(columns: &'a mut [Vec<f64>], len: usize) -> Self {
        let room = columns.iter().map(Vec::capacity).min().unwrap_or(0);
        ColumnWriter {
            columns: columns.iter_mut().map(|c| c.as_mut_ptr()).collect(),
            len: len.min(room),
            _columns: PhantomData,
        }
    }

    /// Sets row `i` of every column to `values`; false (and nothing written) for a row past the
    /// end or too few values.
    ///
    /// # Safety
    /// No other thread may write row `i` while this writer lives.
    unsafe fn write(&self, i: usize, values: &[f64]) -> bool {
        if i >= self.len || values.len() < self.columns.len() {
            return false;
        }
        for (&column, &v) in self.columns.iter().zip(values) {
            // SAFETY: `i` is below every column's capacity, and this thread alone writes row `i`
            // (the caller's contract); the columns stay borrowed while the writer lives.
            unsafe { column.add(i).write(v) };
        }
        true
    }
}

/// The next block of rows, if any are left: an eighth of each thread's share of the rows left (at
/// least `min_len`), so blocks shrink as the end nears and the threads finish together.
fn claim(next: &AtomicUsize, len: usize, min_len: usize, threads: usize) -> Option<Range<usize>> {
    let mut start = next.load(Ordering::Relaxed);
    loop {
        if start >= len {
            return None;
        }
        let size = ((len - start) / (8 * threads)).max(min_len).max(1);
        let end = len.min(start.saturating_add(size));
        match next.compare_exchange_weak(start, end, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return Some(start..end),
            Err(now) => start = now,
        }
    }
}

/// `f(item)` of every item, in order (see [`map_init`]).
pub fn map<T: Sync, O: Send>(items: &[T], min_len: usize, f: impl Fn(&T) -> O + Sync) -> Vec<O> {
    map_init(items, min_len, || (), |(), item| f(item))
}

/// `f(scratch, a[i], b[i])` for every `i` below both lengths, in order (see [`map_init`]).
pub fn map_pairs_init<A: Sync, B: Sync, S, O: Send>(
    a: &[A],
    b: &[B],
    min_len: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &A, &B) -> O + Sync,
) -> Vec<O> {
    map_indices(a.len().min(b.len()), min_len, init, |scratch, i| {
        Some(f(scratch, a.get(i)?, b.get(i)?))
    })
}

/// `f(a[i], b[i])` for every `i` below both lengths, in order (see [`map_init`]).
pub fn map_pairs<A: Sync, B: Sync, O: Send>(
    a: &[A],
    b: &[B],
    min_len: usize,
    f: impl Fn(&A, &B) -> O + Sync,
) -> Vec<O> {
    map_pairs_init(a, b, min_len, || (), |(), x, y| f(x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_and_calling_thread_give_the_same_rows() {
        let a: Vec<u64> = (0..1000).collect();
        let b: Vec<u64> = (0..1000).map(|x| x * 7 % 13).collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .expect("a test pool");
        let run = || {
            (
                map(&a, 4, |x| x * 3),
                map_pairs_init(&a, &b, 4, Vec::<u64>::new, |seen, x, y| {
                    seen.push(*x);
                    x * y
                }),
                map_pairs(a.get(..10).unwrap_or(&[]), &b, 1, |x, y| x + y),
                // A loop in a row runs in order, on the thread of the row.
                map(&a, 1, |&x| {
                    let here = std::thread::current().id();
                    map(&[x, x + 1], 1, |_| std::thread::current().id() == here)
                }),
            )
        };
        let calling = run();
        let shared = with_pool(Arc::new(pool), run);
        assert_eq!(calling, shared);
        assert_eq!(calling.0.len(), 1000);
        assert_eq!(calling.2.len(), 10);
        assert_eq!(calling.2.get(1), Some(&8));
        assert!(shared.3.iter().flatten().all(|&same| same));
        assert!(
            POOL.take().is_none(),
            "with_pool puts back what the thread had"
        );
    }

    #[test]
    fn columns_are_the_rows_and_the_first_failing_row_is_reported() {
        let a: Vec<u64> = (0..3000).collect();
        let b: Vec<u64> = (0..3000).map(|x| x % 7).collect();
        let rows = |fail: u64| {
            columns_of_pairs(
                &a,
                &b,
                2,
                4,
                || 0u64,
                |seen, &x, &y, row| {
                    *seen += 1;
                    if x >= fail && y == 0 {
                        return Err(x);
                    }
                    row.copy_from_slice(&[x as f64, (x * y) as f64]);
                    Ok(())
                },
            )
        };
        let pool = || {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build();
            Arc::new(pool.expect("a test pool"))
        };
        for fail in [u64::MAX, 1000] {
            let calling = rows(fail);
            assert_eq!(calling, with_pool(pool(), || rows(fail)));
            match calling {
                Ok(columns) => {
                    assert_eq!(columns.len(), 2);
                    assert!(columns[0].iter().copied().eq((0..3000).map(|x| x as f64)));
                    assert_eq!(columns[1].get(13), Some(&(13.0 * 6.0)));
                }
                Err(first) => assert_eq!(first, (1001, 1001)),
            }
        }
    }

    #[test]
    fn a_panicking_row_reaches_the_caller_and_the_pool_goes_on() {
        let pool = Arc::new(
            rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .expect("a test pool"),
        );
        let rows: Vec<u64> = (0..5000).collect();
        let caller = std::thread::current().id();
        let on_caller = |_: &u64| std::thread::current().id() == caller;
        // A panic in the caller's first row, and in every row a worker takes (rows slow enough
        // that the workers wake before the caller is through them).
        let first_row = |&x: &u64| assert!(x != 0, "row {x}");
        let workers_rows = |x: &u64| {
            std::thread::sleep(std::time::Duration::from_micros(20));
            assert!(on_caller(x), "a worker's row");
        };
        for row in [&first_row as &(dyn Fn(&u64) + Sync), &workers_rows] {
            let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                with_pool(pool.clone(), || map(&rows, 1, row))
            }));
            assert!(outcome.is_err());
        }
        let fine = with_pool(pool, || map(&rows, 1, |&x| x * 2));
        assert!(fine.iter().copied().eq((0..5000).map(|x| x * 2)));
    }

    #[test]
    fn jobs_no_worker_took_are_called_off() {
        let pool = Arc::new(
            rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .expect("a test pool"),
        );
        // The one worker is busy until the caller has done every row, so its job is called off:
        // the loop returns without it, and the worker later finds nothing to do.
        let (release, wait) = std::sync::mpsc::channel::<()>();
        pool.spawn(move || {
            let _ = wait.recv();
        });
        let here = std::thread::current().id();
        let rows: Vec<u64> = (0..100).collect();
        let threads = with_pool(pool.clone(), || {
            map(&rows, 1, |_| std::thread::current().id() == here)
        });
        assert!(threads.iter().all(|&on_caller| on_caller));
        release.send(()).expect("the worker waits");
        let again = with_pool(pool, || map(&rows, 1, |&x| x + 1));
        assert!(again.iter().copied().eq(1..101));
    }

    #[test]
    fn blocks_cover_every_row_once_and_shrink() {
        for (len, min_len, threads) in [(0, 1, 2), (1, 16, 2), (5000, 8, 2), (777, 1, 3)] {
            let next = AtomicUsize::new(0);
            let blocks: Vec<Range<usize>> =
                std::iter::from_fn(|| claim(&next, len, min_len, threads)).collect();
            let mut expected_start = 0;
            for (k, block) in blocks.iter().enumerate() {
                assert_eq!(block.start, expected_start);
                let last = k + 1 == blocks.len();
                assert!(block.len() >= min_len.min(len) || last);
                expected_start = block.end;
            }
            assert_eq!(expected_start, len);
            let sizes: Vec<usize> = blocks.iter().map(Range::len).collect();
            assert!(sizes.windows(2).all(|w| w[0] >= w[1]) || sizes.len() < 2);
        }
    }
}
