//! nltk GLEU bindings: the drop-in `corpus_gleu` behind `rapideval.compat.nltk` and the batch API
//! behind `rapideval.metrics.gleu`.

use numpy::PyArray1;
use pyo3::prelude::*;

use super::bleu::{TokenCorpus, TokenRows};
use super::{first_error, run_rows, to_numpy, TextRows};
use crate::metrics::gleu::{corpus_gleu, gleu_batch as batch, gleu_of_segments, gleu_tokens_batch};
use crate::text::Tokenizer;

/// nltk `corpus_gleu(list_of_references, hypotheses, min_len, max_len)`; raises what nltk raises.
#[pyfunction]
fn nltk_corpus_gleu(
    py: Python<'_>,
    list_of_references: &Bound<'_, PyAny>,
    hypotheses: &Bound<'_, PyAny>,
    min_len: i64,
    max_len: i64,
) -> PyResult<f64> {
    let score = match TokenRows::nltk_corpus(list_of_references, hypotheses)? {
        Some(rows) => rows.with_segments(|segments| {
            run_rows(py, segments.len(), || {
                gleu_of_segments(segments, min_len, max_len)
            })
        })?,
        None => {
            let corpus = TokenCorpus::new(list_of_references, hypotheses)?;
            corpus.with_tokens(|references, hypotheses| {
                run_rows(py, hypotheses.len(), || {
                    corpus_gleu(references, hypotheses, min_len, max_len)
                })
            })?
        }
    };
    Ok(score?)
}

/// Sentence GLEU per row after tokenizing (promptflow-evals `GleuScoreEvaluator` with the
/// promptflow tokenizer and the defaults), as a float64 array.
#[pyfunction]
fn gleu_batch<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenizer: &str,
    min_len: i64,
    max_len: i64,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let tokenizer = Tokenizer::from_name(tokenizer)?;
    let rows = TextRows::new(responses, references)?;
    rows.scores(py, |responses, references| {
        batch(responses, references, tokenizer, min_len, max_len)
    })
}

/// Sentence GLEU per row of pre-tokenised responses and references (see `TokenRows`).
#[pyfunction]
fn gleu_tokens<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    min_len: i64,
    max_len: i64,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let rows = TokenRows::new(responses, references)?;
    let scores = run_rows(py, rows.len(), || {
        rows.map_chunks(|segments| gleu_tokens_batch(segments, min_len, max_len))
    })?;
    Ok(to_numpy(py, first_error(scores)?))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(gleu_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(nltk_corpus_gleu, m)?)?;
    m.add_function(wrap_pyfunction!(gleu_batch, m)?)?;
    Ok(())
}
