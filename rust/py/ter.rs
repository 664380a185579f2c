//! Bindings of sacrebleu 2.6.0 TER: per-row sentence scores, and one corpus score with its parts.

use numpy::PyArray1;
use pyo3::prelude::*;

use super::TextRows;
use crate::metrics::ter;
use crate::text::ter_tokenize::TercomOptions;

/// `TerSettings(*, normalized=False, no_punct=False, asian_support=False, case_sensitive=False)`:
/// the options of `sacrebleu.TER`.
#[pyclass(frozen, name = "TerSettings", module = "rapideval._core")]
pub(super) struct PyTerSettings(TercomOptions);

#[pymethods]
impl PyTerSettings {
    #[new]
    #[pyo3(signature = (*, normalized = false, no_punct = false, asian_support = false, case_sensitive = false))]
    fn new(normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool) -> Self {
        PyTerSettings(TercomOptions {
            normalized,
            no_punct,
            asian_support,
            case_sensitive,
        })
    }
}

/// sacrebleu sentence TER (0-100) of every row; each reference row is a str or a list of str.
#[pyfunction]
fn sacrebleu_sentence_ter<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    settings: &Bound<'py, PyTerSettings>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let opts = settings.get().0;
    let rows = TextRows::new(responses, references)?;
    rows.scores(py, |hyps, refs| ter::sentence_ter_batch(opts, hyps, refs))
}

/// sacrebleu corpus TER over all rows, as `(score, num_edits, ref_length)`.
#[pyfunction]
fn sacrebleu_corpus_ter<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    settings: &Bound<'py, PyTerSettings>,
) -> PyResult<(f64, i64, f64)> {
    let opts = settings.get().0;
    let rows = TextRows::new(responses, references)?;
    let s = rows.run(py, |hyps, refs| ter::corpus_ter(opts, hyps, refs))??;
    Ok((s.score, s.num_edits, s.ref_length))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTerSettings>()?;
    m.add_function(wrap_pyfunction!(sacrebleu_sentence_ter, m)?)?;
    m.add_function(wrap_pyfunction!(sacrebleu_corpus_ter, m)?)?;
    Ok(())
}
