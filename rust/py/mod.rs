//! The PyO3 layer: the only place that touches Python. Each `#[pyfunction]` extracts its inputs under
//! the GIL (naming the row and field of any bad value), runs the pure Rust kernel detached on the
//! shared thread pool (a small batch on the calling thread), and maps `crate::error::Error` to
//! Python exceptions here and nowhere else.

use std::sync::{Arc, Mutex, MutexGuard};

use numpy::PyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use rayon::ThreadPool;

use crate::error::Error;

mod bleu;
mod chrf;
mod f1;
mod gleu;
mod meteor;
mod rouge;
mod sacrebleu;
mod stats;
mod ter;
mod text;
mod vectors;
mod votes;

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        PyValueError::new_err(e.to_string())
    }
}

struct Pool {
    pid: u32,
    threads: usize,
    pool: Arc<ThreadPool>,
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

fn build_pool(threads: usize) -> PyResult<Pool> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start {threads} threads: {e}")))?;
    Ok(Pool {
        pid: std::process::id(),
        threads,
        pool: Arc::new(pool),
    })
}

/// The pool batch calls run on. A forked child gets a fresh pool of the same size: the parent's
/// worker threads do not exist there, and waiting on them would hang.
fn pool() -> PyResult<Arc<ThreadPool>> {
    let mut pools = lock_pools()?;
    let pid = std::process::id();
    match pools.first() {
        Some(p) if p.pid == pid => Ok(p.pool.clone()),
        stale => {
            let threads = stale.map_or(0, |p| p.threads);
            pools.clear();
            let fresh = build_pool(threads)?;
            let pool = fresh.pool.clone();
            pools.push(fresh);
            Ok(pool)
        }
    }
}

/// Release the GIL and run `f` on the shared pool. Results never depend on the thread count: every
/// kernel computes each row independently and combines rows in a fixed order.
pub(crate) fn run_detached<T, F>(py: Python<'_>, f: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    let pool = pool()?;
    Ok(py.detach(|| pool.install(f)))
}

/// Batches with fewer rows run on the calling thread (see `crate::parallel`).
const POOL_ROWS: usize = 16;

/// The pool a batch of `rows` rows runs on: `None` for the calling thread, when the batch is
/// small or the pool has one thread.
fn pool_for(rows: usize) -> PyResult<Option<Arc<ThreadPool>>> {
    let pool = pool()?;
    Ok((rows >= POOL_ROWS && pool.current_num_threads() > 1).then_some(pool))
}

/// Release the GIL and run `f`, a batch of `rows` rows whose loops are `crate::parallel`'s: on the
/// shared pool, or on this thread (see `pool_for`).
pub(crate) fn run_rows<T, F>(py: Python<'_>, rows: usize, f: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    Ok(match pool_for(rows)? {
        Some(pool) => py.detach(|| pool.install(f)),
        None => py.detach(f),
    })
}

/// Use `n` worker threads for batch calls (0 = one per core). Text-metric batches of fewer than 16
/// rows, and every batch when `n` is 1, run on the calling thread (the GIL released all the same).
/// The pools of the last few thread counts are kept, so switching back starts no threads.
#[pyfunction]
fn set_num_threads(n: usize) -> PyResult<()> {
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

/// The number of worker threads batch calls use.
#[pyfunction]
fn get_num_threads() -> PyResult<usize> {
    Ok(pool()?.current_num_threads())
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

/// The items of a list or tuple (other sequences are converted by the Python layer first).
pub(crate) fn items<'py>(
    obj: &Bound<'py, PyAny>,
    place: &dyn Fn() -> String,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if let Ok(list) = obj.cast::<PyList>() {
        Ok(list.iter().collect())
    } else if let Ok(tuple) = obj.cast::<PyTuple>() {
        Ok(tuple.iter().collect())
    } else {
        Err(PyTypeError::new_err(format!(
            "{}: expected a list of str, got {}",
            place(),
            type_name(obj)
        )))
    }
}

/// Python objects kept alive while their UTF-8 views are read without the GIL.
pub(crate) struct Texts<'py> {
    objects: Vec<Bound<'py, PyAny>>,
}

impl<'py> Texts<'py> {
    /// A list of `str` named `field`; every element checked, errors name `field[row]`.
    pub(crate) fn new(obj: &Bound<'py, PyAny>, field: &str) -> PyResult<Self> {
        let objects = items(obj, &|| field.to_string())?;
        for (row, o) in objects.iter().enumerate() {
            as_text(o, &|| format!("{field}[{row}]"))?;
        }
        Ok(Texts { objects })
    }

    pub(crate) fn len(&self) -> usize {
        self.objects.len()
    }

    /// The validated strings (`new` already checked that each one is a valid `str`).
    pub(crate) fn strs(&self) -> PyResult<Vec<&str>> {
        self.objects
            .iter()
            .enumerate()
            .map(|(row, o)| as_text(o, &|| format!("row {row}")))
            .collect()
    }
}

/// References per row: each row is one `str` or a list/tuple of `str` (several references).
pub(crate) struct References<'py> {
    /// Every reference back to back; row `i` holds `objects[starts[i]..starts[i + 1]]`.
    objects: Vec<Bound<'py, PyAny>>,
    starts: Vec<usize>,
}

impl<'py> References<'py> {
    pub(crate) fn new(obj: &Bound<'py, PyAny>, field: &str) -> PyResult<Self> {
        let outer = items(obj, &|| field.to_string())?;
        let mut refs = References {
            objects: Vec::with_capacity(outer.len()),
            starts: Vec::with_capacity(outer.len() + 1),
        };
        for (row, item) in outer.into_iter().enumerate() {
            refs.starts.push(refs.objects.len());
            if item.cast::<PyString>().is_ok() {
                as_text(&item, &|| format!("{field}[{row}]"))?;
                refs.objects.push(item);
                continue;
            }
            for (k, r) in items(&item, &|| format!("{field}[{row}]"))?
                .into_iter()
                .enumerate()
            {
                as_text(&r, &|| format!("{field}[{row}][{k}]"))?;
                refs.objects.push(r);
            }
        }
        refs.starts.push(refs.objects.len());
        Ok(refs)
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    pub(crate) fn strs(&self) -> PyResult<Vec<Vec<&str>>> {
        let flat = self.flat()?;
        Ok(self
            .row_slices(&flat)
            .into_iter()
            .map(<[&str]>::to_vec)
            .collect())
    }

    /// Runs `f` on the references of every row, without an allocation per row.
    pub(crate) fn with_rows<R>(&self, f: impl FnOnce(&[&[&str]]) -> R) -> PyResult<R> {
        let flat = self.flat()?;
        Ok(f(&self.row_slices(&flat)))
    }

    fn flat(&self) -> PyResult<Vec<&str>> {
        self.objects
            .iter()
            .enumerate()
            .map(|(i, o)| as_text(o, &|| format!("reference {i}")))
            .collect()
    }

    fn row_slices<'a, 's>(&self, flat: &'a [&'s str]) -> Vec<&'a [&'s str]> {
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
        let responses = self.responses.strs()?;
        self.references
            .with_rows(|references| run_rows(py, responses.len(), || f(&responses, references)))?
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

/// The first failing row of a batch, as a Python `ValueError` naming it.
pub(crate) fn first_error<T>(results: Vec<crate::error::Result<T>>) -> PyResult<Vec<T>> {
    results
        .into_iter()
        .enumerate()
        .map(|(row, r)| r.map_err(|e| PyValueError::new_err(format!("row {row}: {e}"))))
        .collect()
}

#[pymodule]
#[pyo3(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(get_num_threads, m)?)?;
    text::register(m)?;
    bleu::register(m)?;
    gleu::register(m)?;
    f1::register(m)?;
    sacrebleu::register(m)?;
    vectors::register(m)?;
    votes::register(m)?;
    stats::register(m)?;
    rouge::register(m)?;
    meteor::register(m)?;
    chrf::register(m)?;
    ter::register(m)?;
    Ok(())
}
