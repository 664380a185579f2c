//! The row loops of the text metrics' batch functions. Called on a thread of a rayon pool they run
//! in parallel on that pool; called on any other thread, in order on that thread. The PyO3 layer
//! runs small batches, and every batch of a one-thread pool, on the calling thread: waking a pool
//! thread takes tens of microseconds, and that thread then works with cold caches, which costs a
//! small batch more than its rows do. Each row is computed alone, so where rows run never changes
//! a result.

use rayon::prelude::*;

/// Whether this thread is a worker of a rayon pool, which the loops then run on.
pub fn on_pool() -> bool {
    rayon::current_thread_index().is_some()
}

/// `f(scratch, item)` of every item, in order. `init` makes the scratch of each thread (of each
/// task on a pool, whose tasks take at least `min_len` items).
pub fn map_init<T: Sync, S, O: Send>(
    items: &[T],
    min_len: usize,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &T) -> O + Sync + Send,
) -> Vec<O> {
    if on_pool() {
        items
            .par_iter()
            .with_min_len(min_len)
            .map_init(init, f)
            .collect()
    } else {
        let mut scratch = init();
        items.iter().map(|item| f(&mut scratch, item)).collect()
    }
}

/// `f(item)` of every item, in order (see [`map_init`]).
pub fn map<T: Sync, O: Send>(
    items: &[T],
    min_len: usize,
    f: impl Fn(&T) -> O + Sync + Send,
) -> Vec<O> {
    map_init(items, min_len, || (), |(), item| f(item))
}

/// `f(scratch, a[i], b[i])` for every `i` below both lengths, in order (see [`map_init`]).
pub fn map_pairs_init<A: Sync, B: Sync, S, O: Send>(
    a: &[A],
    b: &[B],
    min_len: usize,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &A, &B) -> O + Sync + Send,
) -> Vec<O> {
    if on_pool() {
        a.par_iter()
            .zip(b)
            .with_min_len(min_len)
            .map_init(init, |scratch, (x, y)| f(scratch, x, y))
            .collect()
    } else {
        let mut scratch = init();
        a.iter()
            .zip(b)
            .map(|(x, y)| f(&mut scratch, x, y))
            .collect()
    }
}

/// `f(a[i], b[i])` for every `i` below both lengths, in order (see [`map_init`]).
pub fn map_pairs<A: Sync, B: Sync, O: Send>(
    a: &[A],
    b: &[B],
    min_len: usize,
    f: impl Fn(&A, &B) -> O + Sync + Send,
) -> Vec<O> {
    map_pairs_init(a, b, min_len, || (), |(), x, y| f(x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_and_calling_thread_give_the_same_rows() {
        let a: Vec<u64> = (0..1000).collect();
        let b: Vec<u64> = (0..1000).map(|x| x * 7 % 13).collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .expect("a test pool");
        let run = || {
            (
                on_pool(),
                map(&a, 4, |x| x * 3),
                map_pairs_init(&a, &b, 4, Vec::<u64>::new, |seen, x, y| {
                    seen.push(*x);
                    x * y
                }),
                map_pairs(&a, &b, 1, |x, y| x + y),
            )
        };
        let (calling, pooled) = (run(), pool.install(run));
        assert!(!calling.0 && pooled.0);
        assert_eq!(calling.1, pooled.1);
        assert_eq!(calling.2, pooled.2);
        assert_eq!(calling.3, pooled.3);
        assert_eq!(calling.2.len(), 1000);
        assert_eq!(calling.3.get(1), Some(&8));
    }
}
