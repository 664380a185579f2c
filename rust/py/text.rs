//! Tokenizer bindings: a list of texts in, one list of tokens (or one string) per text out.

use pyo3::prelude::*;
use pyo3::types::PyList;

use super::{run_rows, Texts};
use crate::parallel;
use crate::text::{punkt, sacrebleu, squad, Tokenizer, Tokens};

/// Tokens of every text with the named tokenizer.
#[pyfunction]
fn tokenize<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    tokenizer: &str,
) -> PyResult<Bound<'py, PyList>> {
    let kind = Tokenizer::from_name(tokenizer)?;
    let texts = Texts::new(texts, "texts")?;
    let strs = texts.strs();
    let tokens: Vec<Tokens> = run_rows(py, strs.len(), || {
        parallel::map(strs, 1, |t| {
            let mut tokens = Tokens::with_capacity(t.len());
            kind.tokenize_into(t, &mut tokens);
            tokens
        })
    })?;
    for (row, t) in tokens.iter().enumerate() {
        t.complete().map_err(|e| e.in_row(row))?;
    }
    let lists = tokens
        .iter()
        .map(|t| PyList::new(py, t.iter()))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, lists)
}

/// Sentences of every text (Punkt english, as `nltk.sent_tokenize`).
#[pyfunction]
fn sent_tokenize<'py>(py: Python<'py>, texts: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let texts = Texts::new(texts, "texts")?;
    let strs = texts.strs();
    let sentences: Vec<Vec<String>> = run_rows(py, strs.len(), || {
        parallel::map(strs, 1, |t| punkt::sent_tokenize(t))
    })?;
    PyList::new(py, sentences)
}

/// One transformed string per text: `sacrebleu_13a`, `sacrebleu_intl` or `squad_normalize`.
#[pyfunction]
fn normalize<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    kind: &str,
) -> PyResult<Bound<'py, PyList>> {
    let f: fn(&str) -> String = match kind {
        "sacrebleu_13a" => sacrebleu::tokenize_13a,
        "sacrebleu_intl" => sacrebleu::tokenize_intl,
        "squad_normalize" => squad::normalize_answer,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "unknown normalisation {other:?}; expected sacrebleu_13a, sacrebleu_intl or squad_normalize"
            )))
        }
    };
    let texts = Texts::new(texts, "texts")?;
    let strs = texts.strs();
    let out: Vec<String> = run_rows(py, strs.len(), || parallel::map(strs, 1, |t| f(t)))?;
    PyList::new(py, out)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(sent_tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    Ok(())
}
