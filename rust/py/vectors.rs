//! Cosine bindings: two 2-D numpy arrays of one dtype (float32 or float64), read in place without
//! copying, the GIL released while the kernel runs; numpy arrays of the same dtype out.

use numpy::{Element, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use super::run_detached;
use crate::metrics::vectors::{self, Real, Rows};

/// Both arrays, borrowed read-only, in their common float type.
enum Pair<'py> {
    F32(PyReadonlyArray2<'py, f32>, PyReadonlyArray2<'py, f32>),
    F64(PyReadonlyArray2<'py, f64>, PyReadonlyArray2<'py, f64>),
}

fn borrow<'py, T: Element>(obj: &Bound<'py, PyAny>) -> Option<PyResult<PyReadonlyArray2<'py, T>>> {
    let arr = obj.cast::<PyArray2<T>>().ok()?;
    Some(
        arr.try_readonly()
            .map_err(|e| PyValueError::new_err(format!("cannot read the array: {e}"))),
    )
}

impl<'py> Pair<'py> {
    fn new(a: &Bound<'py, PyAny>, b: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let (Some(x), Some(y)) = (borrow::<f32>(a), borrow::<f32>(b)) {
            return Ok(Pair::F32(x?, y?));
        }
        if let (Some(x), Some(y)) = (borrow::<f64>(a), borrow::<f64>(b)) {
            return Ok(Pair::F64(x?, y?));
        }
        Err(PyTypeError::new_err(format!(
            "a and b must be 2-D numpy arrays of one dtype, float32 or float64; got {} and {}",
            describe(a),
            describe(b)
        )))
    }
}

fn describe(obj: &Bound<'_, PyAny>) -> String {
    let attr = |name: &str| {
        obj.getattr(name)
            .and_then(|v| v.str().map(|s| s.to_string()))
            .ok()
    };
    match (attr("dtype"), attr("ndim")) {
        (Some(dtype), Some(ndim)) => format!("{ndim}-D {dtype}"),
        _ => obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into()),
    }
}

/// The rows of a C-contiguous array, or a ValueError naming it.
fn rows<'a, T: Element + Real>(
    arr: &'a PyReadonlyArray2<'_, T>,
    name: &str,
) -> PyResult<Rows<'a, T>> {
    let shape = arr.shape();
    let (n, d) = (
        shape.first().copied().unwrap_or(0),
        shape.get(1).copied().unwrap_or(0),
    );
    let data = arr.as_slice().map_err(|_| {
        PyValueError::new_err(format!(
            "{name} is not C-contiguous; pass numpy.ascontiguousarray({name})"
        ))
    })?;
    Ok(Rows::new(data, n, d)?)
}

fn rows_impl<'py, T: Element + Real>(
    py: Python<'py>,
    a: &PyReadonlyArray2<'py, T>,
    b: &PyReadonlyArray2<'py, T>,
) -> PyResult<Bound<'py, PyAny>> {
    let (a, b) = (rows(a, "a")?, rows(b, "b")?);
    let out = run_detached(py, || vectors::cosine_rows(a, b))??;
    Ok(PyArray1::from_vec(py, out).into_any())
}

fn matrix_impl<'py, T: Element + Real>(
    py: Python<'py>,
    a: &PyReadonlyArray2<'py, T>,
    b: &PyReadonlyArray2<'py, T>,
) -> PyResult<Bound<'py, PyAny>> {
    let (a, b) = (rows(a, "a")?, rows(b, "b")?);
    let (n, m) = (a.rows(), b.rows());
    let out = run_detached(py, || vectors::cosine_matrix(a, b))??;
    Ok(PyArray1::from_vec(py, out).reshape([n, m])?.into_any())
}

fn top_k_impl<'py, T: Element + Real>(
    py: Python<'py>,
    a: &PyReadonlyArray2<'py, T>,
    b: &PyReadonlyArray2<'py, T>,
    k: usize,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let (a, b) = (rows(a, "a")?, rows(b, "b")?);
    let (n, kept) = (a.rows(), k.min(b.rows()));
    let (indices, scores) = run_detached(py, || vectors::cosine_top_k(a, b, k))??;
    Ok((
        PyArray1::from_vec(py, indices)
            .reshape([n, kept])?
            .into_any(),
        PyArray1::from_vec(py, scores)
            .reshape([n, kept])?
            .into_any(),
    ))
}

/// cos(a[i], b[i]) per row; a one-row side is paired with every row of the other.
#[pyfunction]
fn cosine_rows<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    match Pair::new(a, b)? {
        Pair::F32(x, y) => rows_impl(py, &x, &y),
        Pair::F64(x, y) => rows_impl(py, &x, &y),
    }
}

/// The n x m matrix of cos(a[i], b[j]).
#[pyfunction]
fn cosine_matrix<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    match Pair::new(a, b)? {
        Pair::F32(x, y) => matrix_impl(py, &x, &y),
        Pair::F64(x, y) => matrix_impl(py, &x, &y),
    }
}

/// Indices and scores of the `k` most similar rows of b for each row of a.
#[pyfunction]
fn cosine_top_k<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    k: usize,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    match Pair::new(a, b)? {
        Pair::F32(x, y) => top_k_impl(py, &x, &y, k),
        Pair::F64(x, y) => top_k_impl(py, &x, &y, k),
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cosine_rows, m)?)?;
    m.add_function(wrap_pyfunction!(cosine_matrix, m)?)?;
    m.add_function(wrap_pyfunction!(cosine_top_k, m)?)?;
    Ok(())
}
