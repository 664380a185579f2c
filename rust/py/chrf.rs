//! Bindings of sacrebleu 2.6.0 chrF / chrF++: per-row sentence scores, and one corpus score with its
//! summed statistics.

use numpy::PyArray1;
use pyo3::prelude::*;

use super::{bounded, Given, TextRows};
use crate::metrics::chrf::{self, ChrfConfig};
use crate::metrics::MAX_ORDER;

/// `ChrfSettings(*, char_order=6, word_order=0, beta_squared=4.0, lowercase=False,
/// whitespace=False, eps_smoothing=False)`: the options of `sacrebleu.CHRF`, with `beta_squared`
/// `beta ** 2` as Python computes it (orders up to `MAX_ORDER`, not both 0; a finite
/// `beta_squared`).
#[pyclass(frozen, name = "ChrfSettings", module = "rapideval._core")]
pub(super) struct PyChrfSettings(ChrfConfig);

#[pymethods]
impl PyChrfSettings {
    #[new]
    #[pyo3(signature = (*, char_order = Given::Absent, word_order = Given::Absent, beta_squared = 4.0, lowercase = false, whitespace = false, eps_smoothing = false))]
    #[pyo3(
        text_signature = "(*, char_order=6, word_order=0, beta_squared=4.0, lowercase=False, whitespace=False, eps_smoothing=False)"
    )]
    fn new(
        char_order: Given<'_>,
        word_order: Given<'_>,
        beta_squared: f64,
        lowercase: bool,
        whitespace: bool,
        eps_smoothing: bool,
    ) -> PyResult<Self> {
        let defaults = ChrfConfig::default();
        let order = |given: Given<'_>, name: &str, default: usize| match given {
            Given::Absent => Ok(default),
            Given::Object(n) => bounded(&n, name, 0, MAX_ORDER),
        };
        let config = ChrfConfig {
            char_order: order(char_order, "char_order", defaults.char_order)?,
            word_order: order(word_order, "word_order", defaults.word_order)?,
            beta_squared,
            lowercase,
            whitespace,
            eps_smoothing,
        };
        Ok(PyChrfSettings(config.checked()?))
    }
}

/// sacrebleu sentence chrF (0-100) of every row; each reference row is a str or a list of str.
#[pyfunction]
fn sacrebleu_sentence_chrf<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    settings: &Bound<'py, PyChrfSettings>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let cfg = &settings.get().0;
    let rows = TextRows::new(responses, references)?;
    rows.scores(py, |hyps, refs| chrf::sentence_chrf_batch(cfg, hyps, refs))
}

/// sacrebleu corpus chrF over all rows, as `(score, statistics)` with the statistics summed over
/// rows (`[n_hyp, n_ref, n_match]` per character order, then per word order).
#[pyfunction]
fn sacrebleu_corpus_chrf<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    settings: &Bound<'py, PyChrfSettings>,
) -> PyResult<(f64, Vec<u64>)> {
    let cfg = &settings.get().0;
    let rows = TextRows::new(responses, references)?;
    Ok(rows.run(py, |hyps, refs| chrf::corpus_chrf(cfg, hyps, refs))??)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyChrfSettings>()?;
    m.add_function(wrap_pyfunction!(sacrebleu_sentence_chrf, m)?)?;
    m.add_function(wrap_pyfunction!(sacrebleu_corpus_chrf, m)?)?;
    Ok(())
}
