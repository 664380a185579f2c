//! Vote bindings: a 2-D numpy matrix (rows x voters) in, one numpy array per outcome out.

use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::run_detached;
use crate::metrics::votes::{self, Tie};

type Array<'py, T> = Bound<'py, PyArray1<T>>;

/// The values and (rows, k) shape of a C-contiguous matrix, or a ValueError naming it.
fn matrix<'a, T: numpy::Element>(
    arr: &'a PyReadonlyArray2<'_, T>,
    name: &str,
) -> PyResult<(&'a [T], usize, usize)> {
    let shape = arr.shape();
    let (rows, k) = (
        shape.first().copied().unwrap_or(0),
        shape.get(1).copied().unwrap_or(0),
    );
    let data = arr
        .as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name} is not C-contiguous")))?;
    Ok((data, rows, k))
}

/// Majority label per row of int64 label codes (negative = abstain): (winner, count, valid,
/// agreement, tied).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn majority_vote<'py>(
    py: Python<'py>,
    codes: PyReadonlyArray2<'py, i64>,
    tie: &str,
) -> PyResult<(
    Array<'py, i64>,
    Array<'py, i64>,
    Array<'py, i64>,
    Array<'py, f64>,
    Array<'py, bool>,
)> {
    let tie = match tie {
        "lowest" => Tie::Lowest,
        "first" => Tie::First,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown tie rule {other:?}; expected 'lowest' or 'first'"
            )))
        }
    };
    let (data, rows, k) = matrix(&codes, "votes")?;
    let v = run_detached(py, || votes::majority_vote(data, rows, k, tie))??;
    let count = |f: fn(&votes::Vote) -> usize| v.iter().map(|x| f(x) as i64).collect::<Vec<_>>();
    Ok((
        PyArray1::from_vec(py, v.iter().map(|x| x.winner).collect()),
        PyArray1::from_vec(py, count(|x| x.count)),
        PyArray1::from_vec(py, count(|x| x.valid)),
        PyArray1::from_vec(py, v.iter().map(|x| x.agreement).collect()),
        PyArray1::from_vec(py, v.iter().map(|x| x.tied).collect()),
    ))
}

/// Mean, median and count of the non-NaN scores of each row.
#[pyfunction]
fn ordinal_vote<'py>(
    py: Python<'py>,
    scores: PyReadonlyArray2<'py, f64>,
) -> PyResult<(Array<'py, f64>, Array<'py, f64>, Array<'py, i64>)> {
    let (data, rows, k) = matrix(&scores, "scores")?;
    let o = run_detached(py, || votes::ordinal_vote(data, rows, k))??;
    Ok((
        PyArray1::from_vec(py, o.iter().map(|x| x.mean).collect()),
        PyArray1::from_vec(py, o.iter().map(|x| x.median).collect()),
        PyArray1::from_vec(py, o.iter().map(|x| x.count as i64).collect()),
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(majority_vote, m)?)?;
    m.add_function(wrap_pyfunction!(ordinal_vote, m)?)?;
    Ok(())
}
