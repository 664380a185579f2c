//! Bindings of sacrebleu 2.6.0 BLEU: per-row sentence scores, and one corpus score with its parts.

use numpy::PyArray1;
use pyo3::prelude::*;

use super::{bounded, Given, TextRows};
use crate::metrics::sacrebleu_bleu::{self as bleu, BleuConfig, Smoothing};
use crate::metrics::MAX_ORDER;
use crate::text::sacrebleu::SacrebleuTokenizer;

/// `(score, counts, totals, precisions, bp, sys_len, ref_len)` of sacrebleu's `BLEUScore`.
type ScoreTuple = (f64, Vec<f64>, Vec<f64>, Vec<f64>, f64, i64, i64);

/// `SacrebleuBleuSettings(*, tokenize="13a", lowercase=False, smooth_method="exp",
/// smooth_value=None, max_ngram_order=4, effective_order=False)`: the options of `sacrebleu.BLEU`
/// (`smooth_value=None`: the method's default; `max_ngram_order` an int from 1 to `MAX_ORDER`).
#[pyclass(frozen, name = "SacrebleuBleuSettings", module = "rapideval._core")]
pub(super) struct PySacrebleuBleuSettings(BleuConfig);

#[pymethods]
impl PySacrebleuBleuSettings {
    #[new]
    #[pyo3(signature = (*, tokenize = "13a", lowercase = false, smooth_method = "exp", smooth_value = None, max_ngram_order = Given::Absent, effective_order = false))]
    #[pyo3(
        text_signature = "(*, tokenize='13a', lowercase=False, smooth_method='exp', smooth_value=None, max_ngram_order=4, effective_order=False)"
    )]
    fn new(
        tokenize: &str,
        lowercase: bool,
        smooth_method: &str,
        smooth_value: Option<f64>,
        max_ngram_order: Given<'_>,
        effective_order: bool,
    ) -> PyResult<Self> {
        let defaults = BleuConfig::default();
        let max_ngram_order = match max_ngram_order {
            Given::Absent => defaults.max_ngram_order,
            Given::Object(n) => bounded(&n, "max_ngram_order", 1, MAX_ORDER)?,
        };
        let config = BleuConfig {
            tokenizer: SacrebleuTokenizer::from_name(tokenize)?,
            lowercase,
            smoothing: Smoothing::from_name(smooth_method, smooth_value)?,
            max_ngram_order,
            effective_order,
        };
        Ok(PySacrebleuBleuSettings(config.checked()?))
    }
}

/// sacrebleu sentence BLEU (0-100) of every row; each reference row is a str or a list of str.
#[pyfunction]
fn sacrebleu_sentence_bleu<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    settings: &Bound<'py, PySacrebleuBleuSettings>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let cfg = &settings.get().0;
    let rows = TextRows::new(responses, references)?;
    rows.scores(py, |hyps, refs| bleu::sentence_bleu_batch(cfg, hyps, refs))
}

/// sacrebleu corpus BLEU over all rows, as `(score, counts, totals, precisions, bp, sys_len,
/// ref_len)`; each reference row is a str or a list of str.
#[pyfunction]
fn sacrebleu_corpus_bleu<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    settings: &Bound<'py, PySacrebleuBleuSettings>,
) -> PyResult<ScoreTuple> {
    let cfg = &settings.get().0;
    let rows = TextRows::new(responses, references)?;
    let s = rows.run(py, |hyps, refs| bleu::corpus_bleu(cfg, hyps, refs))??;
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
    m.add_class::<PySacrebleuBleuSettings>()?;
    m.add_function(wrap_pyfunction!(sacrebleu_sentence_bleu, m)?)?;
    m.add_function(wrap_pyfunction!(sacrebleu_corpus_bleu, m)?)?;
    Ok(())
}
