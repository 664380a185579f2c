//! The row loops of the text metrics' batch functions. Inside [`with_pool`] a thread's loop shares
//! its rows between that thread and the pool's workers: each takes the next block of rows
//! from a shared counter until none are left. The calling thread starts at once and works
//! throughout, so a worker that wakes late (waking a sleeping thread takes tens of microseconds,
//! more on a virtual machine) costs only the rows it would have done, a worker that has not started
//! when the rows run out is not waited for, and the caller never sleeps through a loop waiting to be
//! woken at its end. Loops nested in a loop's rows, and loops outside
//! `with_pool` (small batches, one-thread pools), run in order on their thread. Each row is
//! computed alone, so where rows run never changes a result. Every loop has a checkpoint before
//! each row (see [`crate::interrupt`]), and the pool's workers share the call of the loop they join.

use std::any::Any;
use std::cell::Cell;
use std::cmp::Reverse;
use std::marker::PhantomData;
use std::ops::Range;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::Thread;
use std::time::{Duration, Instant};

use crate::interrupt::{self, RowGate};

thread_local! {
    /// The pool this thread's next loop shares its rows with (see [`with_pool`]); taken by a loop
    /// while it runs, so that the loops in its rows run in order.
    static POOL: Cell<Option<Arc<Helpers>>> = const { Cell::new(None) };
}

/// Puts back the pool a thread had before, also when a row panics.
struct Restore(Option<Arc<Helpers>>);

impl Drop for Restore {
    fn drop(&mut self) {
        POOL.set(self.0.take());
    }
}

/// Runs `f` on this thread; the loops it runs share their rows with every worker of `pool`.
pub fn with_pool<T>(pool: Arc<Helpers>, f: impl FnOnce() -> T) -> T {
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
    let mut parts = blocks(len, min_len, 0, init, |scratch, rows| {
        let mut out = Vec::with_capacity(rows.len());
        let mut gate = RowGate::new();
        out.extend(rows.filter_map(|i| {
            gate.row();
            f(scratch, i)
        }));
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
/// thread, or blocks shared with the pool of [`with_pool`] if this thread has one, of at least
/// `min_len` rows (but the last) after the first `one_by_one` rows, which are taken one at a time.
fn blocks<S, B: Send>(
    len: usize,
    min_len: usize,
    one_by_one: usize,
    init: impl Fn() -> S + Sync,
    block: impl Fn(&mut S, Range<usize>) -> B + Sync,
) -> Vec<B> {
    let pool = POOL.take();
    let _restore = Restore(pool.clone());
    match pool {
        Some(pool) => shared(&pool, len, min_len, one_by_one, init, block),
        None => vec![block(&mut init(), 0..len)],
    }
}

/// [`blocks`] by this thread and `helpers`.
fn shared<S, B: Send>(
    helpers: &Helpers,
    len: usize,
    min_len: usize,
    one_by_one: usize,
    init: impl Fn() -> S + Sync,
    block: impl Fn(&mut S, Range<usize>) -> B + Sync,
) -> Vec<B> {
    let threads = helpers.threads() + 1;
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, B)>> = Mutex::new(Vec::new());
    let work = || {
        let mut scratch = None;
        let mut parts = Vec::new();
        while let Some(rows) = claim(&next, len, min_len, one_by_one, threads) {
            let scratch = scratch.get_or_insert_with(&init);
            parts.push((rows.start, block(scratch, rows)));
        }
        // Only `extend` runs under the lock, and it cannot panic midway: no poison to fear.
        done.lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .extend(parts);
    };
    let watch = interrupt::current();
    let joined = || interrupt::within(&watch, work);
    let offer = helpers.offer(&joined);
    work();
    offer.finish();
    let mut parts = done
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    parts.sort_unstable_by_key(|&(start, _)| start);
    parts.into_iter().map(|(_, part)| part).collect()
}

/// Threads that join the loops of a calling thread (see [`with_pool`]). Between loops a helper
/// spins for [`HELPER_SPIN`] before it sleeps, so that calls made one after another (a Python loop
/// over batches) find it awake: waking a sleeping thread takes 30-100 us on a virtual machine,
/// which is the time of 500 rows of some metrics. A loop is offered to every helper at once; the
/// caller withdraws it when its rows run out and waits only for the helpers that joined, so a short
/// loop never waits for a helper to wake and find nothing left. One loop is on offer at a time: a
/// second calling thread meanwhile runs its rows alone (both cores are busy then anyway).
pub struct Helpers {
    shared: Arc<Shared>,
    threads: usize,
}

struct Shared {
    /// The loop's number, read by spinning helpers; changed only under `slot`'s lock.
    offered: AtomicU64,
    /// Helpers running the offered loop; each joins under `slot`'s lock.
    inside: AtomicUsize,
    stop: AtomicBool,
    slot: Mutex<Slot>,
    wake: Condvar,
}

#[derive(Default)]
struct Slot {
    /// The loop on offer; taken away when the caller withdraws it.
    work: Option<WorkPtr>,
    caller: Option<Thread>,
    sleeping: usize,
    panic: Option<Box<dyn Any + Send>>,
}

/// A loop, its lifetime erased: called only by helpers that joined it, which the caller waits
/// for before the loop goes out of scope (see [`Offer`]).
#[derive(Clone, Copy)]
struct WorkPtr(*const (dyn Fn() + Sync));

// SAFETY: the loop is `Sync`, and called only while its caller waits (see `WorkPtr`).
unsafe impl Send for WorkPtr {}

/// How long a helper spins for the next loop before it sleeps.
const HELPER_SPIN: Duration = Duration::from_micros(200);

/// How long the caller spins for a helper still on its last block before it sleeps: blocks shrink
/// as the rows run out, so the wait is short, and being woken would cost more.
const CALLER_SPIN: Duration = Duration::from_micros(50);

/// Spins until `done()` or for `time`; whether `done()`. After the first microseconds it yields
/// the core between checks, so that on a machine with more busy threads than cores (several
/// processes, each with helpers) a thread with work to do is not kept off it.
fn spin(time: Duration, done: impl Fn() -> bool) -> bool {
    const ALONE: Duration = Duration::from_micros(20);
    let start = Instant::now();
    let mut spins = 0u32;
    while !done() {
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(64) {
            let spent = start.elapsed();
            if spent >= time {
                return false;
            }
            if spent >= ALONE {
                std::thread::yield_now();
            }
        }
        std::hint::spin_loop();
    }
    true
}

/// The stack of each pool thread (the kernels' and the helpers'). The kernels loop rather than
/// recurse: the parity and hostile-input suites pass with 192 KiB stacks. Rust's default of 2 MiB
/// is address space, which `ulimit -v` counts: 2,047 threads (1,024 of each pool) took 4 GiB.
pub const THREAD_STACK: usize = 1 << 20;

/// Address space a started thread may take besides its stack: glibc gives each of the first
/// `ARENAS_PER_CORE` threads per core a malloc arena of 64 MiB (address space, not memory) at its
/// first `malloc`, which a Rust thread makes to register its thread-local destructors.
const ARENA: u64 = 64 << 20;
const ARENAS_PER_CORE: u64 = 8;

/// Whether the address-space limit (`ulimit -v`, read from /proc/self/limits) leaves room to start
/// the threads of `workers` workers: the kernels' pool of `workers` threads and `workers - 1`
/// helpers. `Err` says why not and about how many workers would fit. Without a limit (or on a
/// system without /proc) there is always room. A thread that cannot get the memory to register its
/// destructors ends the process (glibc: "failed to register TLS destructor"), so the room is
/// checked before any is started, and each registers them as it starts (`settle_thread`).
pub fn room_for_workers(workers: usize) -> Result<(), String> {
    let Some(limit) = address_space_limit() else {
        return Ok(());
    };
    let used = address_space_used().unwrap_or(0);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let need = |workers: u64| {
        let threads = (2 * workers).saturating_sub(1);
        threads * (THREAD_STACK as u64 + (64 << 10)) + threads.min(ARENAS_PER_CORE * cores) * ARENA
    };
    let room = limit.saturating_sub(used);
    if need(workers as u64) <= room {
        return Ok(());
    }
    let fit = (1..workers as u64)
        .rev()
        .find(|&n| need(n) <= room)
        .unwrap_or(1);
    Err(format!(
        "the address-space limit (ulimit -v: {} MiB, {} MiB of it in use) leaves room for about {fit}",
        limit >> 20,
        used >> 20
    ))
}

/// The soft `RLIMIT_AS` in bytes, if there is one.
fn address_space_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line.get("Max address space".len()..)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// This process's address space in bytes (`VmSize`).
fn address_space_used() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmSize:"))?;
    let kib: u64 = line
        .get("VmSize:".len()..)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kib << 10)
}

thread_local! {
    /// Touched by `settle_thread`: any thread-local with a destructor makes the thread register them.
    static SETTLED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Registers this thread's thread-local destructors now, at its start, while the room checked by
/// `room_for_workers` is there (see there).
pub fn settle_thread() {
    SETTLED.with(|s| drop(s.borrow()));
}

impl Helpers {
    /// Starts `threads` helper threads. If one cannot start, those started are stopped and waited
    /// for before the error returns: a failed start leaves no thread behind.
    pub fn new(threads: usize) -> std::io::Result<Self> {
        let shared = Arc::new(Shared {
            offered: AtomicU64::new(0),
            inside: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            slot: Mutex::new(Slot::default()),
            wake: Condvar::new(),
        });
        let helpers = Helpers { shared, threads };
        let mut started = Vec::new();
        for k in 0..threads {
            let shared = helpers.shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("rapideval-rows-{k}"))
                .stack_size(THREAD_STACK)
                .spawn(move || {
                    settle_thread();
                    shared.serve()
                });
            match spawned {
                Ok(handle) => started.push(handle),
                Err(e) => {
                    // Dropping the helpers stops them (see `Drop`).
                    drop(helpers);
                    for handle in started {
                        let _ = handle.join();
                    }
                    return Err(e);
                }
            }
        }
        Ok(helpers)
    }

    /// The helper threads (the caller not counted).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `f` once on each helper thread, trying for up to a second: a helper joins an offer
    /// once, and only one made after it started, so the offer is made again until every helper
    /// has run `f` (none does while another thread's loop is on offer).
    pub fn on_each(&self, f: &(dyn Fn() + Sync)) {
        let ran: Mutex<Vec<std::thread::ThreadId>> = Mutex::new(Vec::new());
        let count = || ran.lock().map_or(0, |ran| ran.len());
        let work = || {
            let here = std::thread::current().id();
            let first = ran.lock().is_ok_and(|ran| !ran.contains(&here));
            if first {
                f();
                if let Ok(mut ran) = ran.lock() {
                    ran.push(here);
                }
            }
        };
        let start = Instant::now();
        while count() < self.threads && start.elapsed() < Duration::from_secs(1) {
            let offer = self.offer(&work);
            spin(Duration::from_millis(5), || count() >= self.threads);
            offer.finish();
        }
    }

    /// Offers `work` to the helpers, unless another thread's loop is on offer.
    fn offer<'a>(&'a self, work: &'a (dyn Fn() + Sync + 'a)) -> Offer<'a> {
        let mut slot = self.shared.lock();
        if slot.work.is_some() {
            return Offer { shared: None };
        }
        // SAFETY: only the lifetime changes; `Offer` (also when dropped by unwinding) waits for
        // every helper that joined before `work` goes out of scope.
        let work: *const (dyn Fn() + Sync + 'static) = unsafe { std::mem::transmute(work) };
        slot.work = Some(WorkPtr(work));
        slot.caller = Some(std::thread::current());
        self.shared.offered.fetch_add(1, Ordering::Release);
        let sleeping = slot.sleeping;
        drop(slot);
        if sleeping > 0 {
            self.shared.wake.notify_all();
        }
        Offer {
            shared: Some(&self.shared),
        }
    }
}

impl Drop for Helpers {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        self.shared.offered.fetch_add(1, Ordering::Release);
        // Taken only to order the stop before a sleeping helper's last check: in a forked child a
        // helper of the parent (a thread that does not exist there) may hold it forever, so it is
        // only tried, and a helper that misses this wake-up finds the stop within a second.
        drop(self.shared.slot.try_lock());
        self.shared.wake.notify_all();
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Slot> {
        self.slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A helper thread: joins each loop offered until the helpers are dropped.
    fn serve(&self) {
        let mut seen = self.offered.load(Ordering::Acquire);
        while !self.stop.load(Ordering::Acquire) {
            if !spin(HELPER_SPIN, || self.offered.load(Ordering::Acquire) != seen) {
                let mut slot = self.lock();
                slot.sleeping += 1;
                while self.offered.load(Ordering::Acquire) == seen {
                    slot = match self.wake.wait_timeout(slot, Duration::from_secs(1)) {
                        Ok((slot, _)) => slot,
                        Err(poisoned) => poisoned.into_inner().0,
                    };
                }
                slot.sleeping -= 1;
            }
            let slot = self.lock();
            seen = self.offered.load(Ordering::Acquire);
            let Some(WorkPtr(work)) = slot.work else {
                continue;
            };
            self.inside.fetch_add(1, Ordering::AcqRel);
            let caller = slot.caller.clone();
            drop(slot);
            // SAFETY: this helper joined under the lock while the loop was on offer, so its caller
            // waits for `inside` to drop before the loop goes out of scope.
            let outcome = catch_unwind(AssertUnwindSafe(|| unsafe { (*work)() }));
            if let Err(payload) = outcome {
                self.lock().panic.get_or_insert(payload);
            }
            if self.inside.fetch_sub(1, Ordering::AcqRel) == 1 {
                if let Some(caller) = caller {
                    caller.unpark();
                }
            }
        }
    }
}

/// A loop on offer to the helpers (none if another was): [`Offer::finish`] withdraws it.
struct Offer<'a> {
    shared: Option<&'a Arc<Shared>>,
}

impl Offer<'_> {
    /// Withdraws the loop, waits for the helpers that joined it, and panics again with a helper's
    /// panic.
    fn finish(mut self) {
        if let Some(payload) = self.withdraw() {
            resume_unwind(payload);
        }
    }

    fn withdraw(&mut self) -> Option<Box<dyn Any + Send>> {
        let shared = self.shared.take()?;
        shared.lock().work = None;
        let out = || shared.inside.load(Ordering::Acquire) == 0;
        if !spin(CALLER_SPIN, out) {
            while !out() {
                std::thread::park_timeout(Duration::from_millis(1));
            }
        }
        shared.lock().panic.take()
    }
}

impl Drop for Offer<'_> {
    fn drop(&mut self) {
        // Reached with the loop still on offer only when the caller's own rows panicked: the
        // loop's borrows must outlive the helpers all the same.
        self.withdraw();
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
    let written = blocks(len, min_len, 0, init, |(scratch, row), rows| {
        let mut written = 0;
        let mut gate = RowGate::new();
        for i in rows {
            let (Some(x), Some(y)) = (a.get(i), b.get(i)) else {
                break;
            };
            gate.row();
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

/// The sums of rows of `width` counts over every pair: `f(scratch, a[i], b[i])` gives the counts
/// of row `i`, for every `i` below both lengths, in parallel as [`map_init`]. Each thread adds up
/// its own blocks, so no row is kept (counts add up exactly in any order). A failing row gives the
/// error of the first one, with its index.
pub fn sum_pairs<A: Sync, B: Sync, S, E: Send>(
    a: &[A],
    b: &[B],
    width: usize,
    min_len: usize,
    init: impl Fn() -> S + Sync,
    f: impl for<'s> Fn(&'s mut S, &A, &B) -> Result<&'s [u64], E> + Sync,
) -> Result<Vec<u64>, (usize, E)> {
    let len = a.len().min(b.len());
    let sums = blocks(len, min_len, 0, init, |scratch, rows| {
        let mut sums = vec![0u64; width];
        let mut gate = RowGate::new();
        for i in rows {
            let (Some(x), Some(y)) = (a.get(i), b.get(i)) else {
                break;
            };
            gate.row();
            let counts = f(scratch, x, y).map_err(|e| (i, e))?;
            for (sum, &count) in sums.iter_mut().zip(counts) {
                *sum += count;
            }
        }
        Ok(sums)
    });
    let mut total = vec![0u64; width];
    for block in sums {
        for (sum, count) in total.iter_mut().zip(block?) {
            *sum += count;
        }
    }
    Ok(total)
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

/// The next block of rows, if any are left: one row below `one_by_one`, then an eighth of each
/// thread's share of the rows left (at least `min_len`), so blocks shrink as the end nears and the
/// threads finish together.
fn claim(
    next: &AtomicUsize,
    len: usize,
    min_len: usize,
    one_by_one: usize,
    threads: usize,
) -> Option<Range<usize>> {
    let mut start = next.load(Ordering::Relaxed);
    loop {
        if start >= len {
            return None;
        }
        let size = if start < one_by_one {
            1
        } else {
            ((len - start) / (8 * threads)).max(min_len).max(1)
        };
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

/// `f(a[i], b[i])` for every `i` below both lengths, in order (as [`map_pairs`]), for rows whose
/// cost varies by orders of magnitude: one TER row whose words were moved around can cost as much
/// as hundreds of others, and if it starts late it keeps one thread busy after the others have run
/// out. Shared with a pool, heavy rows by `weight` go first, one at a time (see [`heaviest_first`]).
pub fn map_pairs_heaviest_first<A: Sync, B: Sync, O: Send>(
    a: &[A],
    b: &[B],
    weight: impl Fn(&A, &B) -> u64,
    f: impl Fn(&A, &B) -> O + Sync,
) -> Vec<O> {
    let threads = sharing_threads();
    if threads < 2 {
        return map_pairs(a, b, 1, f);
    }
    let weights: Vec<u64> = a.iter().zip(b).map(|(x, y)| weight(x, y)).collect();
    let (order, heavy) = heaviest_first(&weights, threads);
    if heavy == 0 {
        return map_pairs(a, b, 1, f);
    }
    let parts = blocks(
        order.len(),
        1,
        heavy,
        || (),
        |(), positions| {
            let rows = order.get(positions).unwrap_or_default();
            let mut gate = RowGate::new();
            let mut pair = |i: usize| {
                gate.row();
                Some((i, f(a.get(i)?, b.get(i)?)))
            };
            rows.iter().filter_map(|&i| pair(i)).collect::<Vec<_>>()
        },
    );
    let mut out: Vec<Option<O>> = std::iter::repeat_with(|| None).take(order.len()).collect();
    for (i, value) in parts.into_iter().flatten() {
        if let Some(slot) = out.get_mut(i) {
            *slot = Some(value);
        }
    }
    out.into_iter().flatten().collect()
}

/// The order `threads` threads take rows of these `weights` in, and how many heavy rows lead it:
/// the rows of a weight over 1/128 of a thread's share of the total, heaviest first, then the
/// others in row order. The margin is wide because a weight (TER's: the lengths) can miss a row's
/// cost tenfold; among many rows of like weight none is heavy, and the order stays as it is.
fn heaviest_first(weights: &[u64], threads: usize) -> (Vec<usize>, usize) {
    let total: u128 = weights.iter().map(|&w| u128::from(w)).sum();
    let heavy_above = total / (128 * threads.max(1) as u128);
    let is_heavy = |i: &usize| {
        weights
            .get(*i)
            .is_some_and(|&w| u128::from(w) > heavy_above)
    };
    let mut order: Vec<usize> = (0..weights.len()).filter(is_heavy).collect();
    order.sort_by_key(|&i| Reverse(weights.get(i).copied()));
    let heavy = order.len();
    order.extend((0..weights.len()).filter(|i| !is_heavy(i)));
    (order, heavy)
}

/// How many threads take the rows of this thread's loops: itself and its pool's (see
/// [`with_pool`]).
fn sharing_threads() -> usize {
    let pool = POOL.take();
    let threads = pool.as_ref().map_or(0, |helpers| helpers.threads()) + 1;
    POOL.set(pool);
    threads
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_and_calling_thread_give_the_same_rows() {
        let a: Vec<u64> = (0..1000).collect();
        let b: Vec<u64> = (0..1000).map(|x| x * 7 % 13).collect();
        let pool = Helpers::new(3).expect("test helpers");
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
    fn columns_and_sums_cover_every_row_and_the_first_failing_row_is_reported() {
        let a: Vec<u64> = (0..3000).collect();
        let b: Vec<u64> = (0..3000).map(|x| x % 7).collect();
        // Row x is [1, x, x * y], or an error from row `fail` on where y is 0.
        let row = |fail: u64, x: u64, y: u64| {
            if x >= fail && y == 0 {
                Err(x)
            } else {
                Ok([1, x, x * y])
            }
        };
        let both = |fail: u64| {
            let columns = columns_of_pairs(
                &a,
                &b,
                2,
                4,
                || (),
                |(), &x, &y, out| {
                    row(fail, x, y).map(|[_, x, xy]| out.copy_from_slice(&[x as f64, xy as f64]))
                },
            );
            let sums = sum_pairs(
                &a,
                &b,
                3,
                4,
                || [0u64; 3],
                |scratch, &x, &y| {
                    *scratch = row(fail, x, y)?;
                    Ok::<_, u64>(&scratch[..])
                },
            );
            (columns, sums)
        };
        let pool = || Arc::new(Helpers::new(3).expect("test helpers"));
        for fail in [u64::MAX, 1000] {
            let calling = both(fail);
            assert_eq!(calling, with_pool(pool(), || both(fail)));
            match calling {
                (Ok(columns), Ok(sums)) => {
                    assert_eq!(columns.len(), 2);
                    assert!(columns[0].iter().copied().eq((0..3000).map(|x| x as f64)));
                    assert_eq!(columns[1].get(13), Some(&(13.0 * 6.0)));
                    let products: u64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
                    assert_eq!(sums, [3000, 2999 * 3000 / 2, products]);
                }
                (columns, sums) => {
                    assert_eq!(columns, Err((1001, 1001)));
                    assert_eq!(sums, Err((1001, 1001)));
                }
            }
        }
    }

    #[test]
    fn a_panicking_row_reaches_the_caller_and_the_pool_goes_on() {
        let pool = Arc::new(Helpers::new(2).expect("test helpers"));
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
    fn a_second_caller_runs_alone_while_a_loop_is_on_offer_and_dropped_helpers_stop() {
        let pool = Arc::new(Helpers::new(1).expect("test helpers"));
        let stopped = Arc::downgrade(&pool.shared);
        // Thread B's loop stays on offer (and its helper inside it) until released.
        let released = Arc::new(AtomicBool::new(false));
        let b = {
            let (pool, released) = (pool.clone(), released.clone());
            std::thread::spawn(move || {
                with_pool(pool, || {
                    map(&[0u64; 64], 1, |_| {
                        while !released.load(Ordering::Acquire) {
                            std::thread::sleep(Duration::from_millis(1));
                        }
                    })
                    .len()
                })
            })
        };
        while pool.shared.lock().work.is_none() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let here = std::thread::current().id();
        let rows: Vec<u64> = (0..100).collect();
        let on_caller = with_pool(pool.clone(), || {
            map(&rows, 1, |_| std::thread::current().id() == here)
        });
        assert!(on_caller.iter().all(|&here| here));
        released.store(true, Ordering::Release);
        assert_eq!(b.join().ok(), Some(64));
        let again = with_pool(pool.clone(), || map(&rows, 1, |&x| x + 1));
        assert!(again.iter().copied().eq(1..101));
        drop(pool);
        let start = Instant::now();
        while stopped.upgrade().is_some() {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "a helper outlived its pool"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn on_each_runs_once_on_every_helper() {
        let pool = Helpers::new(3).expect("test helpers");
        let threads = Mutex::new(Vec::new());
        pool.on_each(&|| {
            threads
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(std::thread::current().id())
        });
        let ran = threads.into_inner().unwrap_or_else(|p| p.into_inner());
        let mut distinct = ran.clone();
        distinct.sort_unstable_by_key(|id| format!("{id:?}"));
        distinct.dedup();
        assert_eq!((ran.len(), distinct.len()), (3, 3), "once on each helper");
        assert!(!ran.contains(&std::thread::current().id()));
    }

    #[test]
    fn heavy_rows_go_first_and_results_stay_in_row_order() {
        let mut weights = vec![10u64; 1000];
        for (i, w) in [(3, 500), (998, 900), (500, 700), (999, 10_000)] {
            if let Some(slot) = weights.get_mut(i) {
                *slot = w;
            }
        }
        // The total is 22,060: a weight over 22,060 / 256 = 86 is heavy on two threads.
        let (order, heavy) = heaviest_first(&weights, 2);
        assert_eq!(heavy, 4);
        assert_eq!(order.get(..4), Some(&[999, 998, 500, 3][..]));
        let light: Vec<usize> = (0..1000)
            .filter(|i| ![3, 500, 998, 999].contains(i))
            .collect();
        assert_eq!(order.get(4..), Some(&light[..]));
        assert_eq!(
            heaviest_first(&[7; 1000], 2).1,
            0,
            "no row of like rows is heavy"
        );
        assert_eq!(heaviest_first(&[], 2), (vec![], 0));

        let rows: Vec<u64> = (0..1000).collect();
        let expected: Vec<u64> = rows.iter().map(|&x| x * 3 + weights[x as usize]).collect();
        let run = || map_pairs_heaviest_first(&rows, &weights, |_, &w| w, |&x, &w| x * 3 + w);
        assert_eq!(run(), expected);
        let pool = Arc::new(Helpers::new(3).expect("test helpers"));
        assert_eq!(with_pool(pool, run), expected);
    }

    #[test]
    fn blocks_cover_every_row_once_and_shrink() {
        let cases = [
            (0, 1, 0, 2),
            (1, 16, 0, 2),
            (5000, 8, 0, 2),
            (777, 1, 0, 3),
            (300, 4, 40, 2),
        ];
        for (len, min_len, one_by_one, threads) in cases {
            let next = AtomicUsize::new(0);
            let blocks: Vec<Range<usize>> =
                std::iter::from_fn(|| claim(&next, len, min_len, one_by_one, threads)).collect();
            let mut expected_start = 0;
            for (k, block) in blocks.iter().enumerate() {
                assert_eq!(block.start, expected_start);
                let last = k + 1 == blocks.len();
                if block.start < one_by_one {
                    assert_eq!(block.len(), 1);
                } else {
                    assert!(block.len() >= min_len.min(len) || last);
                }
                expected_start = block.end;
            }
            assert_eq!(expected_start, len);
            let sizes: Vec<usize> = blocks.iter().skip(one_by_one).map(Range::len).collect();
            assert!(sizes.windows(2).all(|w| w[0] >= w[1]) || sizes.len() < 2);
            assert!(sizes.first().is_none_or(|&first| first > 1) || len < 100);
        }
    }
}
