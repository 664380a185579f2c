//! Bindings of the SQuAD token F1 (promptflow F1ScoreEvaluator) and exact match.

use numpy::PyArray1;
use pyo3::prelude::*;

use super::TextRows;
use crate::metrics::f1;

/// promptflow-evals 0.3.5 `F1ScoreEvaluator` score of every row (the best over several references).
#[pyfunction]
fn f1_score<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let rows = TextRows::new(responses, references)?;
    rows.scores(py, |answers, truths| f1::f1_score_batch(answers, truths))
}

/// Exact match of every row: SQuAD-normalised with `normalize`, else plain string equality.
#[pyfunction]
fn exact_match<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    normalize: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let rows = TextRows::new(responses, references)?;
    rows.scores(py, |answers, truths| {
        f1::exact_match_batch(answers, truths, normalize)
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(f1_score, m)?)?;
    m.add_function(wrap_pyfunction!(exact_match, m)?)?;
    Ok(())
}
