//! Bindings of sacrebleu 2.6.0 chrF / chrF++: per-row sentence scores, and one corpus score with its
//! summed statistics.

use numpy::PyArray1;
use pyo3::prelude::*;

use super::TextRows;
use crate::metrics::chrf::{self, ChrfConfig};

/// sacrebleu sentence chrF (0-100) of every row; each reference row is a str or a list of str.
/// `beta_squared` is `beta ** 2` as Python computes it.
#[pyfunction]
#[pyo3(signature = (responses, references, char_order, word_order, beta_squared, lowercase, whitespace, eps_smoothing))]
#[allow(clippy::too_many_arguments)]
fn sacrebleu_sentence_chrf<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    char_order: usize,
    word_order: usize,
    beta_squared: f64,
    lowercase: bool,
    whitespace: bool,
    eps_smoothing: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let cfg = ChrfConfig::new(
        char_order,
        word_order,
        beta_squared,
        lowercase,
        whitespace,
        eps_smoothing,
    )?;
    let rows = TextRows::new(responses, references)?;
    rows.scores(py, |hyps, refs| chrf::sentence_chrf_batch(&cfg, hyps, refs))
}

/// sacrebleu corpus chrF over all rows, as `(score, statistics)` with the statistics summed over
/// rows (`[n_hyp, n_ref, n_match]` per character order, then per word order).
#[pyfunction]
#[pyo3(signature = (responses, references, char_order, word_order, beta_squared, lowercase, whitespace, eps_smoothing))]
#[allow(clippy::too_many_arguments)]
fn sacrebleu_corpus_chrf<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    char_order: usize,
    word_order: usize,
    beta_squared: f64,
    lowercase: bool,
    whitespace: bool,
    eps_smoothing: bool,
) -> PyResult<(f64, Vec<u64>)> {
    let cfg = ChrfConfig::new(
        char_order,
        word_order,
        beta_squared,
        lowercase,
        whitespace,
        eps_smoothing,
    )?;
    let rows = TextRows::new(responses, references)?;
    Ok(rows.run(py, |hyps, refs| chrf::corpus_chrf(&cfg, hyps, refs))??)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sacrebleu_sentence_chrf, m)?)?;
    m.add_function(wrap_pyfunction!(sacrebleu_corpus_chrf, m)?)?;
    Ok(())
}
