//! Bindings of sacrebleu 2.6.0 BLEU: per-row sentence scores, and one corpus score with its parts.

use numpy::PyArray1;
use pyo3::prelude::*;

use super::{bounded, TextRows};
use crate::metrics::sacrebleu_bleu::{self as bleu, BleuConfig, Smoothing};
use crate::metrics::MAX_ORDER;
use crate::text::sacrebleu::SacrebleuTokenizer;

/// `(score, counts, totals, precisions, bp, sys_len, ref_len)` of sacrebleu's `BLEUScore`.
type ScoreTuple = (f64, Vec<f64>, Vec<f64>, Vec<f64>, f64, i64, i64);

fn config(
    tokenize: &str,
    lowercase: bool,
    smooth_method: &str,
    smooth_value: Option<f64>,
    max_ngram_order: &Bound<'_, PyAny>,
    effective_order: bool,
) -> PyResult<BleuConfig> {
    let max_ngram_order = bounded(max_ngram_order, "max_ngram_order", 1, MAX_ORDER)?;
    Ok(BleuConfig::new(
        SacrebleuTokenizer::from_name(tokenize)?,
        lowercase,
        Smoothing::from_name(smooth_method, smooth_value)?,
        max_ngram_order,
        effective_order,
    )?)
}

/// sacrebleu sentence BLEU (0-100) of every row; each reference row is a str or a list of str.
#[pyfunction]
#[pyo3(signature = (responses, references, tokenize, lowercase, smooth_method, smooth_value, max_ngram_order, effective_order))]
#[allow(clippy::too_many_arguments)]
fn sacrebleu_sentence_bleu<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenize: &str,
    lowercase: bool,
    smooth_method: &str,
    smooth_value: Option<f64>,
    max_ngram_order: &Bound<'py, PyAny>,
    effective_order: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let cfg = config(
        tokenize,
        lowercase,
        smooth_method,
        smooth_value,
        max_ngram_order,
        effective_order,
    )?;
    let rows = TextRows::new(responses, references)?;
    rows.scores(py, |hyps, refs| bleu::sentence_bleu_batch(&cfg, hyps, refs))
}

/// sacrebleu corpus BLEU over all rows, as `(score, counts, totals, precisions, bp, sys_len,
/// ref_len)`; each reference row is a str or a list of str.
#[pyfunction]
#[pyo3(signature = (responses, references, tokenize, lowercase, smooth_method, smooth_value, max_ngram_order, effective_order))]
#[allow(clippy::too_many_arguments)]
fn sacrebleu_corpus_bleu<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenize: &str,
    lowercase: bool,
    smooth_method: &str,
    smooth_value: Option<f64>,
    max_ngram_order: &Bound<'py, PyAny>,
    effective_order: bool,
) -> PyResult<ScoreTuple> {
    let cfg = config(
        tokenize,
        lowercase,
        smooth_method,
        smooth_value,
        max_ngram_order,
        effective_order,
    )?;
    let rows = TextRows::new(responses, references)?;
    let s = rows.run(py, |hyps, refs| bleu::corpus_bleu(&cfg, hyps, refs))??;
    Ok((
        s.score,
        s.counts,
        s.totals,
        s.precisions,
        s.bp,
        s.sys_len,
        s.ref_len,
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sacrebleu_sentence_bleu, m)?)?;
    m.add_function(wrap_pyfunction!(sacrebleu_corpus_bleu, m)?)?;
    Ok(())
}
