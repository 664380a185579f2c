//! The PyO3 layer: the only place that touches Python. Each `#[pyfunction]` extracts its inputs under
//! the GIL (naming the row and field of any bad value), runs the pure Rust kernel detached (a text
//! batch's rows shared between the calling thread and the pool's helpers, a small batch on the
//! calling thread alone), and maps `crate::error::Error` to Python exceptions here and nowhere else.
//!
//! Every detached run (`run_detached`, `run_rows`) is watched (see `crate::interrupt`): on Python's
//! main thread it polls for signals every few milliseconds, so Ctrl-C stops it with the
//! `KeyboardInterrupt` its handler raised; and a panic in it (a bug) becomes a `RuntimeError`, never
//! PyO3's `PanicException` (sizes from the input are allocated fallibly: `Error::Memory`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::any::Any;
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{
    PyAssertionError, PyImportError, PyIndexError, PyKeyError, PyKeyboardInterrupt, PyMemoryError,
    PyOverflowError, PyRuntimeError, PyTypeError, PyValueError, PyZeroDivisionError,
};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyString, PyTuple};
use rayon::ThreadPool;

use crate::error::{Error, PyExc};
use crate::interrupt::{self, Interrupted, Watch, POLL_EVERY};
use crate::parallel::{self, Helpers};

mod bleu;
mod chrf;
mod f1;
mod gleu;
mod meteor;
mod rouge;
mod sacrebleu;
mod stats;
mod string_distance;
mod ter;
mod text;
mod vectors;
mod votes;

/// The extension's allocator. glibc's malloc hands the memory of a finished batch back to the
/// system (heap trimming, unmapped large blocks), so the next batch faults its pages in again, on
/// the calling thread for its large buffers, while the helpers wait: measured, 800 page faults
/// per 20,000-row ROUGE call, and 2 threads at 1.5-1.7x one thread on several metrics that reach
/// 1.8-2.0x with mimalloc, which keeps freed pages in per-thread heaps for reuse.
///
/// Blocks of `LARGE` bytes or more (a long row's tables) go to the system allocator instead, whose
/// `mmap`ed blocks go back to the system when freed: mimalloc keeps the arena it reserved for one
/// for good, and its pages until a later allocation on that thread purges them (measured: 2.4 GB
/// still resident after a 100 MB row's chrF, against its 0.5 GB before the row).
#[global_allocator]
static ALLOCATOR: Allocator = Allocator;

/// See `ALLOCATOR`. glibc `mmap`s every block from 32 MiB up (its largest dynamic threshold).
const LARGE: usize = 32 << 20;

struct Allocator;

// SAFETY: each block is allocated, resized and freed by one of two allocators, chosen by its size,
// which Rust passes unchanged to `dealloc` and `realloc` (the layout it was allocated with); a block
// that changes sides on `realloc` is copied.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match layout.size() >= LARGE {
            true => System.alloc(layout),
            false => mimalloc::MiMalloc.alloc(layout),
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match layout.size() >= LARGE {
            true => System.alloc_zeroed(layout),
            false => mimalloc::MiMalloc.alloc_zeroed(layout),
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match layout.size() >= LARGE {
            true => System.dealloc(ptr, layout),
            false => mimalloc::MiMalloc.dealloc(ptr, layout),
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        match (layout.size() >= LARGE, new_size >= LARGE) {
            (true, true) => System.realloc(ptr, layout, new_size),
            (false, false) => mimalloc::MiMalloc.realloc(ptr, layout, new_size),
            _ => {
                // SAFETY: the caller guarantees that `new_size`, rounded up to the alignment, does
                // not overflow `isize`.
                let new = Layout::from_size_align_unchecked(new_size, layout.align());
                let moved = self.alloc(new);
                if !moved.is_null() {
                    std::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                    self.dealloc(ptr, layout);
                }
                moved
            }
        }
    }
}

/// mimalloc's `mi_option_arena_reserve` (its position in `mi_option_e`, mimalloc.h v2; the crate
/// names no constant for it): the address space an arena reserves at a time, in KiB.
const ARENA_RESERVE: libmimalloc_sys::mi_option_t = 23;

/// 64 MiB arenas instead of mimalloc's 1 GiB: the reservation is address space, which `ulimit -v`
/// counts; at 1 GiB it took most of a 3 GiB limit at import (measured: 1.2 GB of address space at
/// import, 215 MB with 64 MiB arenas), leaving too little for a long row's tables. mimalloc grows its
/// reservations as arenas accumulate, so large runs make as few mappings as before. A value set in
/// the `MIMALLOC_ARENA_RESERVE` environment variable still wins (this is only the default).
extern "C" fn arena_reserve_default() {
    // SAFETY: sets a plain option value; mimalloc's options may be set before its initialisation.
    unsafe { libmimalloc_sys::mi_option_set_default(ARENA_RESERVE, 64 * 1024) };
}

/// Run when the extension is loaded, before its first allocation (PyO3's module initialisation).
#[used]
#[unsafe(link_section = ".init_array")]
static SET_ARENA_RESERVE: extern "C" fn() = arena_reserve_default;

/// The one mapping of the crate's `Error` to Python exceptions: `ValueError` for a value out of
/// range, the reference library's own class with its message where the reference raises, and
/// `MemoryError` for a buffer too large to allocate. `key` is the object nltk's `KeyError` holds
/// (see `bleu::TokenCorpus::key_error`): a `KeyError` with it is `KeyError(key)`.
pub(crate) fn exception(e: Error, key: Option<Bound<'_, PyAny>>) -> PyErr {
    match e {
        Error::InvalidValue(m) => PyValueError::new_err(m),
        Error::Memory(m) => PyMemoryError::new_err(m),
        Error::Reference(class, m) => match class {
            PyExc::Assertion => PyAssertionError::new_err(m),
            PyExc::Index => PyIndexError::new_err(m),
            PyExc::Key => match key {
                Some(key) => PyKeyError::new_err((key.unbind(),)),
                None => PyKeyError::new_err(m),
            },
            PyExc::ZeroDivision => PyZeroDivisionError::new_err(m),
            PyExc::Overflow => PyOverflowError::new_err(m),
            PyExc::Value => PyValueError::new_err(m),
        },
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        exception(e, None)
    }
}

/// An argument of a settings constructor as given (any object, `None` included), or `Absent`:
/// the constructor reads it itself (only where it is used, or with `bounded`), and takes its
/// default when it is absent.
pub(crate) enum Given<'py> {
    Absent,
    Object(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Given<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Given::Object(obj.to_owned()))
    }
}

/// The most threads `set_num_threads` starts: far above any core count, far below what would
/// exhaust a process's address space with thread stacks.
const MAX_THREADS: usize = 1024;

/// An int argument `name` from `min` to `max`, or a ValueError naming both (a TypeError for what
/// is not an int; a bool is not taken for one). Ints too large for 64 bits get the same ValueError.
pub(crate) fn bounded(
    obj: &Bound<'_, PyAny>,
    name: &str,
    min: usize,
    max: usize,
) -> PyResult<usize> {
    if !obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, got {}",
            type_name(obj)
        )));
    }
    match obj
        .extract::<u64>()
        .ok()
        .and_then(|v| usize::try_from(v).ok())
    {
        Some(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(PyValueError::new_err(format!(
            "{name} must be an int from {min} to {max}, got {}",
            obj.str().map(|s| s.to_string()).unwrap_or_default()
        ))),
    }
}

/// The exception a signal handler raised while a call was detached, kept for the call to raise.
type Raised = Arc<Mutex<Option<PyErr>>>;

/// Whether this is Python's main thread, the only one that runs signal handlers (remembered per
/// thread; a child forked from another thread keeps that thread's answer, and is not interrupted).
fn is_main_thread(py: Python<'_>) -> bool {
    thread_local! {
        static MAIN: Cell<Option<bool>> = const { Cell::new(None) };
    }
    MAIN.get().unwrap_or_else(|| {
        let main = py
            .import("threading")
            .and_then(|t| {
                Ok(t.call_method0("current_thread")?
                    .is(&t.call_method0("main_thread")?))
            })
            .unwrap_or(false);
        MAIN.set(Some(main));
        main
    })
}

/// The watch of a call made on this thread: on the main thread it polls `PyErr_CheckSignals`,
/// holding the GIL only for that moment, and keeps the exception a handler raised.
fn watch(py: Python<'_>) -> (Arc<Watch>, Raised) {
    let raised = Raised::default();
    let poll = is_main_thread(py).then(|| {
        let raised = raised.clone();
        Box::new(move || {
            Python::attach(|py| match py.check_signals() {
                Ok(()) => false,
                Err(e) => {
                    if let Ok(mut slot) = raised.lock() {
                        *slot = Some(e);
                    }
                    true
                }
            })
        }) as interrupt::Poll
    });
    (Watch::new(poll), raised)
}

/// The text of a panic's payload.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    match (
        payload.downcast_ref::<&str>(),
        payload.downcast_ref::<String>(),
    ) {
        (Some(s), _) => (*s).to_string(),
        (_, Some(s)) => s.clone(),
        _ => "a panic without a message".to_string(),
    }
}

/// What a detached call ended with, as Python sees it: the exception a signal handler raised
/// meanwhile, if one did (the call's value, made or not, is dropped: a stopped call's parts may be
/// missing, see `interrupt::watched`); else its value, or its panic (a bug) as a `RuntimeError`.
fn settle<T>(outcome: std::thread::Result<T>, raised: &Raised) -> PyResult<T> {
    if let Some(e) = raised.lock().ok().and_then(|mut slot| slot.take()) {
        return Err(e);
    }
    outcome.map_err(|payload| {
        if payload.is::<Interrupted>() {
            return PyKeyboardInterrupt::new_err(());
        }
        PyRuntimeError::new_err(format!(
            "rapideval internal error (please report it): {}",
            panic_message(payload.as_ref())
        ))
    })
}

struct Pool {
    pid: u32,
    threads: usize,
    /// Runs the numeric kernels (`run_detached`), the calling thread waiting.
    kernels: Arc<ThreadPool>,
    /// Share the rows of text batches with the calling thread (`run_rows`): one thread fewer, so
    /// that no idle worker competes with the caller for a core. `None` for one thread.
    helpers: Option<Arc<Helpers>>,
}

/// The pool in use, then the pools of other thread counts used before, most recent first: going
/// back to one of those starts no threads, and finds them warm.
static POOLS: Mutex<Vec<Pool>> = Mutex::new(Vec::new());

/// Pools kept, the one in use included.
const KEPT_POOLS: usize = 4;

fn lock_pools() -> PyResult<MutexGuard<'static, Vec<Pool>>> {
    POOLS
        .lock()
        .map_err(|_| PyValueError::new_err("thread pool lock poisoned"))
}

/// The pools of `threads` threads (0: one per core), or an error naming why they cannot start; a
/// failed start leaves no thread behind (see `Helpers::new`, `start_kernels`).
fn build_pool(threads: usize) -> PyResult<Pool> {
    let workers = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let cannot = |e: &dyn std::fmt::Display| {
        let count = match threads {
            0 => format!("{workers} threads (one per core)"),
            _ => format!("{workers} threads"),
        };
        PyValueError::new_err(format!("set_num_threads: cannot start {count}: {e}"))
    };
    parallel::room_for_workers(workers).map_err(|e| cannot(&e))?;
    let kernels = start_kernels(workers).map_err(|e| cannot(&e))?;
    let helpers = if workers > 1 {
        let helpers = Helpers::new(workers - 1).map_err(|e| cannot(&e))?;
        Some(Arc::new(helpers))
    } else {
        None
    };
    Ok(Pool {
        pid: std::process::id(),
        threads,
        kernels,
        helpers,
    })
}

/// The kernels' pool of `threads` threads, or the error of the first that could not start, once
/// those started are gone (rayon stops them; they are waited for here).
fn start_kernels(threads: usize) -> Result<Arc<ThreadPool>, rayon::ThreadPoolBuildError> {
    let mut started = Vec::new();
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .spawn_handler(|thread| {
            let mut builder = std::thread::Builder::new().stack_size(parallel::THREAD_STACK);
            if let Some(name) = thread.name() {
                builder = builder.name(name.to_owned());
            }
            started.push(builder.spawn(move || {
                parallel::settle_thread();
                thread.run()
            })?);
            Ok(())
        })
        .build();
    if built.is_err() {
        for handle in started {
            let _ = handle.join();
        }
    }
    built.map(Arc::new)
}

/// The pools batch calls run on: the kernels' pool and the row helpers' pool. A forked child gets
/// fresh pools of the same size: the parent's worker threads do not exist there, and waiting on
/// them would hang.
fn pool() -> PyResult<(Arc<ThreadPool>, Option<Arc<Helpers>>)> {
    let mut pools = lock_pools()?;
    let pid = std::process::id();
    match pools.first() {
        Some(p) if p.pid == pid => Ok((p.kernels.clone(), p.helpers.clone())),
        stale => {
            let threads = stale.map_or(0, |p| p.threads);
            pools.clear();
            let fresh = build_pool(threads)?;
            let current = (fresh.kernels.clone(), fresh.helpers.clone());
            pools.push(fresh);
            Ok(current)
        }
    }
}

/// Release the GIL and run `f` on the kernels' pool, this thread polling for signals meanwhile (see
/// `watch`). Results never depend on the thread count: every kernel computes each row
/// independently and combines rows in a fixed order.
pub(crate) fn run_detached<T, F>(py: Python<'_>, f: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    let (kernels, _) = pool()?;
    let (watch, raised) = watch(py);
    let outcome = py.detach(|| {
        let mut outcome: std::thread::Result<T> = Err(Box::new("a kernel job ended unrun"));
        let done = AtomicBool::new(false);
        let slot = Unshared(&mut outcome as *mut std::thread::Result<T>);
        let finished = Unshared(&done as *const AtomicBool);
        let caller = std::thread::current();
        let call = Some(watch.clone());
        let job = move || {
            let result = catch_unwind(AssertUnwindSafe(|| interrupt::within(&call, f)));
            // SAFETY: the caller waits for `done` before `outcome` and `done` go out of scope, and
            // nothing else reads or writes `outcome` meanwhile; `done` is the job's last access to
            // the caller's stack (`caller` and `call` are the job's own).
            unsafe {
                slot.get().write(result);
                (*finished.get()).store(true, Ordering::Release);
            }
            caller.unpark();
        };
        let job: Box<dyn FnOnce() + Send + '_> = Box::new(job);
        // SAFETY: only the lifetime changes: the job's borrows (`f`'s, and the two pointers) stay
        // valid until it sets `done`, which this thread waits for below, unwinding included (the
        // loop cannot unwind).
        let job: Box<dyn FnOnce() + Send + 'static> = unsafe { std::mem::transmute(job) };
        // Not `install` (which blocks this thread) nor a scope (which blocks it twice): this thread
        // parks, and wakes every `POLL_EVERY` to poll for signals.
        kernels.spawn(job);
        while !done.load(Ordering::Acquire) {
            std::thread::park_timeout(POLL_EVERY);
            if !done.load(Ordering::Acquire) {
                // Nothing may unwind out of this loop while the job runs (see above).
                drop(catch_unwind(AssertUnwindSafe(|| watch.poll())));
            }
        }
        outcome
    });
    settle(outcome, &raised)
}

/// A pointer handed to the job of `run_detached`, which it alone uses until it is done.
struct Unshared<P>(P);

impl<P: Copy> Unshared<P> {
    /// The pointer (a method, so that a closure captures the whole `Unshared`, which is `Send`).
    fn get(&self) -> P {
        self.0
    }
}

// SAFETY: see `run_detached`: the pointee is used by one thread at a time, the caller waiting.
unsafe impl<P> Send for Unshared<P> {}

/// Batches with fewer rows run on the calling thread (see `crate::parallel`).
const POOL_ROWS: usize = 16;

/// The helpers a batch of `rows` rows shares its rows with: `None` for the calling thread alone,
/// when the batch is small or there is one thread.
fn pool_for(rows: usize) -> PyResult<Option<Arc<Helpers>>> {
    let (_, helpers) = pool()?;
    Ok(helpers.filter(|_| rows >= POOL_ROWS))
}

/// Release the GIL and run `f`, a batch of `rows` rows whose loops are `crate::parallel`'s, on this
/// thread: the loops share their rows with the pool's workers, or run here alone (see `pool_for`).
/// The call is watched from this thread, which polls at the loops' checkpoints (see `watch`).
pub(crate) fn run_rows<T, F>(py: Python<'_>, rows: usize, f: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    let helpers = pool_for(rows)?;
    let (watch, raised) = watch(py);
    let outcome = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            watch.run(|| match helpers {
                Some(pool) => parallel::with_pool(pool, f),
                None => f(),
            })
        }))
    });
    settle(outcome, &raised)
}

/// Runs `f` holding the GIL (it reads Python objects from the pool's threads meanwhile: see
/// `TokenRows`), with a panic mapped as `run_rows` maps it. Not watched: a signal handler run by a
/// poll could change the lists being read.
pub(crate) fn run_attached<T>(f: impl FnOnce() -> T) -> PyResult<T> {
    settle(catch_unwind(AssertUnwindSafe(f)), &Raised::default())
}

/// `set_num_threads(n: int) -> None` (rapideval's own; no reference library has it).
/// Use `n` threads for batch calls (0 = one per core, at most `MAX_THREADS`, 1024): a text-metric batch
/// runs on the calling thread and `n - 1` of the pool's workers; one of fewer than 16 rows, and
/// every batch when `n` is 1, on the calling thread alone (the GIL released all the same).
/// The pools of the last few thread counts are kept, so switching back starts no threads.
#[pyfunction]
fn set_num_threads(n: &Bound<'_, PyAny>) -> PyResult<()> {
    let n = bounded(n, "set_num_threads: n", 0, MAX_THREADS)?;
    let mut pools = lock_pools()?;
    let pid = std::process::id();
    pools.retain(|p| p.pid == pid);
    let chosen = match pools.iter().position(|p| p.threads == n) {
        Some(i) => pools.remove(i),
        None => build_pool(n)?,
    };
    pools.insert(0, chosen);
    pools.truncate(KEPT_POOLS);
    Ok(())
}

/// The number of threads batch calls use (see `set_num_threads`).
#[pyfunction]
fn get_num_threads() -> PyResult<usize> {
    Ok(pool()?.0.current_num_threads())
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// A borrowed `str`, or a clear error naming where it came from (`field[row]`).
pub(crate) fn as_text<'a>(
    obj: &'a Bound<'_, PyAny>,
    place: &dyn Fn() -> String,
) -> PyResult<&'a str> {
    let s = obj.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!("{}: expected str, got {}", place(), type_name(obj)))
    })?;
    s.to_str().map_err(|_| {
        PyValueError::new_err(format!(
            "{}: string is not valid Unicode (lone surrogate)",
            place()
        ))
    })
}

/// `f(index, item)` for each item of a list or tuple, in order (other sequences are converted by
/// the Python layer first).
pub(crate) fn for_each_item<'py>(
    obj: &Bound<'py, PyAny>,
    place: &dyn Fn() -> String,
    mut f: impl FnMut(usize, Bound<'py, PyAny>) -> PyResult<()>,
) -> PyResult<()> {
    // Strings made one by one (a dataset read from a file) lie apart in memory, so reading each
    // one's header waits on memory: measured 44-87 ns a string over 40,000 distinct strings, the
    // largest part of what a batch does on one thread before its rows are shared. The item
    // `READ_AHEAD` places on is asked for while this one is read; the list's items are read again
    // at each step, as the iterator reads them, in case reading an item changed the list.
    let ahead = |i: usize| {
        // SAFETY: `obj` is live, and a list is read ahead only while the GIL keeps other threads
        // from changing it (see below); only its type and items array are read.
        if let Some(raw) = unsafe { RawList::of(obj.as_ptr()) } {
            let next = i + READ_AHEAD;
            if next < raw.len {
                // SAFETY: `next` is below the list's length, read just now.
                prefetch(unsafe { raw.get(next) });
            }
        }
    };
    if let Ok(list) = obj.cast::<PyList>() {
        // Without a GIL another thread may resize the list while its items array is read.
        let read_ahead = !gil_disabled(obj.py());
        list.iter().enumerate().try_for_each(|(i, item)| {
            if read_ahead {
                ahead(i);
            }
            f(i, item)
        })
    } else if let Ok(tuple) = obj.cast::<PyTuple>() {
        tuple.iter().enumerate().try_for_each(|(i, item)| {
            ahead(i);
            f(i, item)
        })
    } else {
        Err(PyTypeError::new_err(format!(
            "{}: expected a list of str, got {}",
            place(),
            type_name(obj)
        )))
    }
}

/// The items of a list or tuple as raw pointers, to be read off the GIL thread.
#[derive(Clone, Copy)]
pub(crate) struct RawList {
    pub(crate) items: *const *mut ffi::PyObject,
    pub(crate) len: usize,
}

// SAFETY: a `RawList` is only read (by `TokenRows::new`'s readers, or ahead of `for_each_item`)
// while the thread that made it keeps holding the GIL (or, without a GIL, keeps the snapshot tuples
// alive): the items, and the objects they point to, stay alive and unchanged, and the readers only
// read immutable data.
unsafe impl Send for RawList {}
unsafe impl Sync for RawList {}

impl RawList {
    /// The items of `obj` if it is a list or a tuple (or a subclass: their layout is the same).
    ///
    /// # Safety
    /// `obj` is a live object that nothing changes meanwhile; only its type and its items array
    /// are read.
    pub(crate) unsafe fn of(obj: *mut ffi::PyObject) -> Option<RawList> {
        if ffi::PyList_Check(obj) != 0 {
            Some(RawList {
                items: (*obj.cast::<ffi::PyListObject>()).ob_item.cast_const(),
                len: ffi::PyList_GET_SIZE(obj) as usize,
            })
        } else if ffi::PyTuple_Check(obj) != 0 {
            Some(RawList {
                items: (*obj.cast::<ffi::PyTupleObject>()).ob_item.as_ptr(),
                len: ffi::PyTuple_GET_SIZE(obj) as usize,
            })
        } else {
            None
        }
    }

    /// # Safety
    /// As for `of`; `i < self.len`.
    pub(crate) unsafe fn get(self, i: usize) -> *mut ffi::PyObject {
        *self.items.add(i)
    }
}

/// Asks the cache for the memory at `object` (a hint; never faults).
#[inline(always)]
pub(crate) fn prefetch(object: *const ffi::PyObject) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(object.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = object;
}

/// Whether other threads run Python code while this one holds its thread state (a free-threaded
/// build with the GIL disabled). Once enabled the GIL stays enabled, so "disabled" may be stale
/// but never unsafe.
pub(crate) fn gil_disabled(py: Python<'_>) -> bool {
    static DISABLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *DISABLED.get_or_init(|| {
        py.import("sys")
            .and_then(|sys| sys.getattr("_is_gil_enabled"))
            .and_then(|enabled| enabled.call0())
            .and_then(|enabled| enabled.is_truthy())
            .map(|enabled| !enabled)
            .unwrap_or(false)
    })
}

/// How many items ahead `for_each_item` asks for the next string.
const READ_AHEAD: usize = 8;

/// The number of items of a list or tuple (0 for other objects, which [`for_each_item`] rejects).
fn sequence_len(obj: &Bound<'_, PyAny>) -> usize {
    match (obj.cast::<PyList>(), obj.cast::<PyTuple>()) {
        (Ok(list), _) => list.len(),
        (_, Ok(tuple)) => tuple.len(),
        _ => 0,
    }
}

/// The items of a list or tuple (see [`for_each_item`]).
pub(crate) fn items<'py>(
    obj: &Bound<'py, PyAny>,
    place: &dyn Fn() -> String,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let mut out = Vec::new();
    for_each_item(obj, place, |_, item| {
        out.push(item);
        Ok(())
    })?;
    Ok(out)
}

/// Whether `str` objects are read from CPython's object headers (`compact_ascii` here,
/// `bleu::read_token`, `string_distance::stored`): set at import, when the running interpreter's
/// strings read so agree with what its API returns (see `str_layout_agrees`), unless the
/// environment variable `RAPIDEVAL_STR_API` is set; otherwise every `str` is read through the API.
static RAW_STR: AtomicBool = AtomicBool::new(false);

/// See `RAW_STR`.
pub(crate) fn raw_str() -> bool {
    RAW_STR.load(Ordering::Relaxed)
}

/// Strings of every storage CPython has (empty, ASCII short and long, Latin-1, UCS-2, UCS-4, and
/// a `str` subclass), each read by every header reader and compared with its text from the API.
fn str_layout_agrees(py: Python<'_>) -> PyResult<bool> {
    let texts = [
        "",
        "a",
        "abcdefg",
        "abcdefgh",
        "the quick brown fox jumps over the lazy dog",
        "é",
        "naïve café",
        "€",
        "a€b ∑",
        "😀",
        "x😀y€é",
    ];
    let subclass = py.eval(c"type('S', (str,), {})", None, None)?;
    let mut agree = true;
    for text in texts {
        let exact = PyString::new(py, text).into_any();
        let derived = subclass.call1((text,))?;
        for obj in [exact, derived] {
            // SAFETY: the GIL is held and `obj` is a live `str`.
            let ascii = unsafe { compact_ascii(obj.as_ptr()) };
            agree &= ascii.is_none_or(|a| a == text);
            agree &= bleu::str_reads_agree(&obj, text);
            agree &= string_distance::str_reads_agree(&obj, text);
        }
    }
    Ok(agree)
}

/// The text of an exact or subclassed `str` stored as compact ASCII (most strings), read from the
/// object without a call; `None` for any other object, which `as_text` then reads or rejects.
///
/// # Safety
/// The GIL is held and `obj` is a live object.
#[cfg(not(Py_3_14))]
#[inline(always)]
unsafe fn compact_ascii<'a>(obj: *mut pyo3::ffi::PyObject) -> Option<&'a str> {
    use pyo3::ffi;
    if ffi::PyUnicode_Check(obj) == 0 || ffi::PyUnicode_IS_COMPACT_ASCII(obj) == 0 {
        return None;
    }
    let len = ffi::PyUnicode_GET_LENGTH(obj) as usize;
    let bytes = std::slice::from_raw_parts(ffi::PyUnicode_DATA(obj).cast::<u8>(), len);
    // An ASCII string's characters are its UTF-8 bytes.
    Some(std::str::from_utf8_unchecked(bytes))
}

/// From Python 3.14 PyO3 binds no test of a `str`'s storage (CPython's layout of it may change):
/// every string is read by `as_text`.
#[cfg(Py_3_14)]
#[inline(always)]
unsafe fn compact_ascii<'a>(_obj: *mut pyo3::ffi::PyObject) -> Option<&'a str> {
    None
}

/// `str` objects read once under the GIL, each in one pass over the input (serial work, done before
/// any row is shared with the pool's workers). A reference to every object is held, so
/// its UTF-8 text stays valid with the GIL released, whatever other threads do to the lists it
/// came from.
pub(crate) struct Texts<'py> {
    objects: Vec<Bound<'py, PyAny>>,
    /// The text of each object. Never handed out for longer than `&self`: `'static` stands for
    /// "as long as `objects`", which nothing changes before it drops.
    strs: Vec<&'static str>,
}

impl<'py> Texts<'py> {
    fn with_capacity(n: usize) -> Self {
        Texts {
            objects: Vec::with_capacity(n),
            strs: Vec::with_capacity(n),
        }
    }

    /// A list of `str` named `field`; errors name `field[row]`.
    pub(crate) fn new(obj: &Bound<'py, PyAny>, field: &str) -> PyResult<Self> {
        let mut texts = Texts::with_capacity(sequence_len(obj));
        for_each_item(obj, &|| field.to_string(), |row, item| {
            texts.push(item, &|| format!("{field}[{row}]"))
        })?;
        Ok(texts)
    }

    /// Adds a `str` (or raises the error of `place`).
    fn push(&mut self, item: Bound<'py, PyAny>, place: &dyn Fn() -> String) -> PyResult<()> {
        // SAFETY: the GIL is held and `item` is a live object.
        let ascii = raw_str().then(|| unsafe { compact_ascii(item.as_ptr()) });
        let text: *const str = match ascii.flatten() {
            Some(text) => text,
            None => as_text(&item, place)?,
        };
        // SAFETY: the text is the object's own UTF-8 buffer (inline, or cached in the object by
        // `PyUnicode_AsUTF8AndSize`), which lives as long as the object; `objects` holds a
        // reference to it until `self` drops, and `strs` only lends it for as long as `&self`.
        self.strs.push(unsafe { &*text });
        self.objects.push(item);
        Ok(())
    }

    pub(crate) fn len(&self) -> usize {
        self.strs.len()
    }

    /// The strings, in order.
    pub(crate) fn strs(&self) -> &[&str] {
        &self.strs
    }
}

/// References per row: each row is one `str` or a list/tuple of `str` (several references).
pub(crate) struct References<'py> {
    /// Every reference back to back; row `i` holds `texts[starts[i]..starts[i + 1]]`.
    texts: Texts<'py>,
    starts: Vec<usize>,
}

impl<'py> References<'py> {
    pub(crate) fn new(obj: &Bound<'py, PyAny>, field: &str) -> PyResult<Self> {
        let rows = sequence_len(obj);
        let mut refs = References {
            texts: Texts::with_capacity(rows),
            starts: Vec::with_capacity(rows + 1),
        };
        for_each_item(obj, &|| field.to_string(), |row, item| {
            refs.starts.push(refs.texts.len());
            if item.is_instance_of::<PyString>() {
                return refs.texts.push(item, &|| format!("{field}[{row}]"));
            }
            if !(item.is_instance_of::<PyList>() || item.is_instance_of::<PyTuple>()) {
                return Err(PyTypeError::new_err(format!(
                    "{field}[{row}]: expected a str or a list of str, got {}",
                    type_name(&item)
                )));
            }
            for_each_item(&item, &|| format!("{field}[{row}]"), |k, r| {
                refs.texts.push(r, &|| format!("{field}[{row}][{k}]"))
            })
        })?;
        refs.starts.push(refs.texts.len());
        Ok(refs)
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The references of each row.
    pub(crate) fn rows(&self) -> Vec<&[&str]> {
        let flat = self.texts.strs();
        self.starts
            .windows(2)
            .map(|w| flat.get(w[0]..w[1]).unwrap_or(&[]))
            .collect()
    }
}

/// Both columns must have one entry per row.
pub(crate) fn check_same_length(a: (&str, usize), b: (&str, usize)) -> PyResult<()> {
    if a.1 != b.1 {
        return Err(PyValueError::new_err(format!(
            "{} has {} rows but {} has {}",
            a.0, a.1, b.0, b.1
        )));
    }
    Ok(())
}

/// The two columns of a batch metric, validated: one response per row and its reference(s).
pub(crate) struct TextRows<'py> {
    responses: Texts<'py>,
    references: References<'py>,
}

impl<'py> TextRows<'py> {
    pub(crate) fn new(
        responses: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
    ) -> PyResult<Self> {
        let responses = Texts::new(responses, "responses")?;
        let references = References::new(references, "references")?;
        check_same_length(
            ("responses", responses.len()),
            ("references", references.len()),
        )?;
        Ok(TextRows {
            responses,
            references,
        })
    }

    /// Runs `f(responses, references of each row)` with the GIL released (see `run_rows`).
    pub(crate) fn run<O: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&[&str], &[&[&str]]) -> O + Send,
    ) -> PyResult<O> {
        let responses = self.responses.strs();
        let references = self.references.rows();
        run_rows(py, responses.len(), || f(responses, &references))
    }

    /// The per-row scores `f` computes, as a float64 array; the first failing row raises.
    pub(crate) fn scores(
        &self,
        py: Python<'py>,
        f: impl FnOnce(&[&str], &[&[&str]]) -> Vec<crate::error::Result<f64>> + Send,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(to_numpy(py, first_error(self.run(py, f)?)?))
    }
}

/// A batch result as a numpy float64 array (no per-element Python objects).
pub(crate) fn to_numpy(py: Python<'_>, values: Vec<f64>) -> Bound<'_, PyArray1<f64>> {
    PyArray1::from_vec(py, values)
}

/// The first failing row of a batch, as a Python exception naming it (see `Error::in_row`).
pub(crate) fn first_error<T>(results: Vec<crate::error::Result<T>>) -> PyResult<Vec<T>> {
    results
        .into_iter()
        .enumerate()
        .map(|(row, r)| r.map_err(|e| PyErr::from(e.in_row(row))))
        .collect()
}

/// Loads numpy's C API (and rust-numpy's borrow checking) now, at import: loaded by the first call
/// that returns an array instead, it would run Python code there, and a `KeyboardInterrupt` pending
/// from a signal during the call would make rust-numpy panic.
fn load_numpy(py: Python<'_>) -> PyResult<()> {
    let load = || PyArray1::<f64>::zeros(py, 0, false).readonly().len();
    catch_unwind(AssertUnwindSafe(load))
        .map(drop)
        .map_err(|payload| {
            PyImportError::new_err(format!(
                "numpy's C API could not be loaded: {}",
                panic_message(payload.as_ref())
            ))
        })
}

unsafe extern "C" {
    /// mimalloc's `mi_collect` (linked from the allocator's C library).
    fn mi_collect(force: bool);
}

/// `release_memory() -> None`: gives back to the system the memory rapideval's allocator (mimalloc)
/// keeps for reuse after a call: `mi_collect(true)` on the calling thread and every pool thread. No
/// reference library has it, and it changes no result; call it after a large batch whose inputs and
/// results are freed (the next call then faults its pages in again).
#[pyfunction]
fn release_memory(py: Python<'_>) -> PyResult<()> {
    // SAFETY: `mi_collect` only frees what its thread's heap holds free; callable on any thread.
    let collect = || unsafe { mi_collect(true) };
    let (kernels, helpers) = pool()?;
    py.detach(|| {
        kernels.broadcast(|_| collect());
        if let Some(helpers) = helpers {
            helpers.on_each(&collect);
        }
        collect();
    });
    Ok(())
}

/// Whether `str` objects are read from their headers (see `RAW_STR`), for tests.
#[pyfunction]
fn raw_str_reads() -> bool {
    raw_str()
}

#[pymodule]
#[pyo3(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    load_numpy(py)?;
    let forced_api = std::env::var_os("RAPIDEVAL_STR_API").is_some();
    RAW_STR.store(!forced_api && str_layout_agrees(py)?, Ordering::Relaxed);
    m.add("MAX_THREADS", MAX_THREADS)?;
    m.add("MAX_RESAMPLES", crate::metrics::stats::MAX_RESAMPLES)?;
    m.add("MAX_ORDER", crate::metrics::MAX_ORDER)?;
    m.add_function(wrap_pyfunction!(set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(get_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(release_memory, m)?)?;
    m.add_function(wrap_pyfunction!(raw_str_reads, m)?)?;
    text::register(m)?;
    bleu::register(m)?;
    gleu::register(m)?;
    f1::register(m)?;
    sacrebleu::register(m)?;
    vectors::register(m)?;
    votes::register(m)?;
    stats::register(m)?;
    string_distance::register(m)?;
    rouge::register(m)?;
    meteor::register(m)?;
    chrf::register(m)?;
    ter::register(m)?;
    Ok(())
}
