//! The row loops of the text metrics' batch functions. Inside [`with_pool`] a thread's loop shares
//! its rows between that thread and the pool's workers: each takes the next block of rows
//! from a shared counter until none are left. The calling thread starts at once and works
//! throughout, so a worker that wakes late (waking a sleeping thread takes tens of microseconds,
//! more on a virtual machine) costs only the rows it would have done, and the caller never sleeps
//! through a loop waiting to be woken at its end. Loops nested in a loop's rows, and loops outside
//! `with_pool` (small batches, one-thread pools), run in order on their thread. Each row is
//! computed alone, so where rows run never changes a result.

use std::cell::Cell;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

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
    let pool = POOL.take();
    let _restore = Restore(pool.clone());
    match pool {
        Some(pool) => shared(&pool, len, min_len, init, f),
        None => {
            let mut scratch = init();
            let mut out = Vec::with_capacity(len);
            out.extend((0..len).filter_map(|i| f(&mut scratch, i)));
            out
        }
    }
}

/// [`map_indices`] by this thread and `pool`'s workers.
fn shared<S, O: Send>(
    pool: &ThreadPool,
    len: usize,
    min_len: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize) -> Option<O> + Sync,
) -> Vec<O> {
    let workers = pool.current_num_threads();
    let threads = workers + 1;
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, Vec<O>)>> = Mutex::new(Vec::new());
    let work = || {
        let mut scratch = None;
        let mut blocks = Vec::new();
        while let Some(rows) = claim(&next, len, min_len, threads) {
            let scratch = scratch.get_or_insert_with(&init);
            let start = rows.start;
            blocks.push((
                start,
                rows.filter_map(|i| f(scratch, i)).collect::<Vec<O>>(),
            ));
        }
        // Only `extend` runs under the lock, and it cannot panic midway: no poison to fear.
        done.lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .extend(blocks);
    };
    pool.in_place_scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| work());
        }
        work();
    });
    let mut blocks = done
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    blocks.sort_unstable_by_key(|&(start, _)| start);
    blocks.into_iter().flat_map(|(_, rows)| rows).collect()
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
