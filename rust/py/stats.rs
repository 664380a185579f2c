//! Statistics bindings: float64 (and int64 label code) numpy columns in, read in place.

use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::{bounded, run_detached, Given};
use crate::metrics::stats::{
    self, Alternative, Correlation, KappaWeights, PairedMethod, PairedTestSettings, MAX_RESAMPLES,
};

fn column<'a, T: numpy::Element>(
    arr: &'a PyReadonlyArray1<'_, T>,
    name: &str,
) -> PyResult<&'a [T]> {
    arr.as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name} is not contiguous")))
}

fn unknown(what: &str, got: &str, expected: &str) -> PyErr {
    PyValueError::new_err(format!("unknown {what} {got:?}; expected {expected}"))
}

/// (mean, std, count, nan_count) of a column, NaN skipped.
#[pyfunction]
fn mean_std(
    py: Python<'_>,
    x: PyReadonlyArray1<'_, f64>,
    ddof: f64,
) -> PyResult<(f64, f64, usize, usize)> {
    let x = column(&x, "scores")?;
    let m = run_detached(py, || stats::mean_std(x, ddof))?;
    Ok((m.mean, m.std, m.count, m.nan_count))
}

/// `n_resamples`, from 1 to `MAX_RESAMPLES`.
fn resamples(n: &Bound<'_, PyAny>) -> PyResult<usize> {
    bounded(n, "n_resamples", 1, MAX_RESAMPLES)
}

/// The bootstrap distribution of the mean of the non-NaN values.
#[pyfunction]
fn bootstrap_means<'py>(
    py: Python<'py>,
    x: PyReadonlyArray1<'py, f64>,
    n_resamples: &Bound<'py, PyAny>,
    seed: u64,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let n_resamples = resamples(n_resamples)?;
    let x = column(&x, "scores")?;
    let means = run_detached(py, || stats::bootstrap_means(x, n_resamples, seed))??;
    Ok(PyArray1::from_vec(py, means))
}

/// `PairedTestSettings(*, method="permutation", alternative="two-sided", n_resamples=10000,
/// seed=0)`: `method` `"permutation"` or `"bootstrap"`, `alternative` `"two-sided"`, `"less"` or
/// `"greater"`, `n_resamples` an int from 1 to `MAX_RESAMPLES`.
#[pyclass(frozen, name = "PairedTestSettings", module = "rapideval._core")]
struct PyPairedTestSettings(PairedTestSettings);

#[pymethods]
impl PyPairedTestSettings {
    #[new]
    #[pyo3(signature = (*, method = "permutation", alternative = "two-sided", n_resamples = Given::Absent, seed = 0))]
    #[pyo3(
        text_signature = "(*, method='permutation', alternative='two-sided', n_resamples=10000, seed=0)"
    )]
    fn new(method: &str, alternative: &str, n_resamples: Given<'_>, seed: u64) -> PyResult<Self> {
        let n_resamples = match n_resamples {
            Given::Absent => PairedTestSettings::default().n_resamples,
            Given::Object(n) => resamples(&n)?,
        };
        let method = match method {
            "permutation" => PairedMethod::Permutation,
            "bootstrap" => PairedMethod::Bootstrap,
            other => return Err(unknown("method", other, "'permutation' or 'bootstrap'")),
        };
        let alternative = match alternative {
            "two-sided" => Alternative::TwoSided,
            "less" => Alternative::Less,
            "greater" => Alternative::Greater,
            other => {
                return Err(unknown(
                    "alternative",
                    other,
                    "'two-sided', 'less' or 'greater'",
                ))
            }
        };
        Ok(PyPairedTestSettings(PairedTestSettings {
            method,
            alternative,
            n_resamples,
            seed,
        }))
    }
}

/// (statistic, p_value, n, n_resamples, exact) of a paired test of a against b.
#[pyfunction]
fn paired_test(
    py: Python<'_>,
    a: PyReadonlyArray1<'_, f64>,
    b: PyReadonlyArray1<'_, f64>,
    settings: &Bound<'_, PyPairedTestSettings>,
) -> PyResult<(f64, f64, usize, usize, bool)> {
    let settings = &settings.get().0;
    let (a, b) = (column(&a, "a")?, column(&b, "b")?);
    let t = run_detached(py, || stats::paired_test(a, b, settings))??;
    Ok((t.statistic, t.p_value, t.n, t.n_resamples, t.exact))
}

/// Pearson, Spearman or Kendall tau-b correlation of two columns.
#[pyfunction]
fn correlation(
    py: Python<'_>,
    x: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
    method: &str,
    omit_nan: bool,
) -> PyResult<f64> {
    let method = match method {
        "pearson" => Correlation::Pearson,
        "spearman" => Correlation::Spearman,
        "kendall" => Correlation::Kendall,
        other => {
            return Err(unknown(
                "method",
                other,
                "'pearson', 'spearman' or 'kendall'",
            ))
        }
    };
    let (x, y) = (column(&x, "x")?, column(&y, "y")?);
    Ok(run_detached(py, || {
        stats::correlation(x, y, method, omit_nan)
    })??)
}

/// Cohen's kappa of two columns of label codes (positions in the sorted labels).
#[pyfunction]
fn cohen_kappa(
    py: Python<'_>,
    a: PyReadonlyArray1<'_, i64>,
    b: PyReadonlyArray1<'_, i64>,
    n_labels: usize,
    weights: Option<&str>,
) -> PyResult<f64> {
    let weights = match weights {
        None => KappaWeights::Unweighted,
        Some("linear") => KappaWeights::Linear,
        Some("quadratic") => KappaWeights::Quadratic,
        Some(other) => return Err(unknown("weights", other, "None, 'linear' or 'quadratic'")),
    };
    let code = |v: &[i64], name: &str| -> PyResult<Vec<usize>> {
        v.iter()
            .enumerate()
            .map(|(row, &c)| {
                usize::try_from(c).map_err(|_| {
                    PyValueError::new_err(format!("{name}[{row}]: negative label code {c}"))
                })
            })
            .collect()
    };
    let (a, b) = (code(column(&a, "a")?, "a")?, code(column(&b, "b")?, "b")?);
    Ok(run_detached(py, || {
        stats::cohen_kappa(&a, &b, n_labels, weights)
    })??)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mean_std, m)?)?;
    m.add_function(wrap_pyfunction!(bootstrap_means, m)?)?;
    m.add_class::<PyPairedTestSettings>()?;
    m.add_function(wrap_pyfunction!(paired_test, m)?)?;
    m.add_function(wrap_pyfunction!(correlation, m)?)?;
    m.add_function(wrap_pyfunction!(cohen_kappa, m)?)?;
    Ok(())
}
