//! ROUGE bindings: the batch function over columns, the per-call scorer behind the rouge-score
//! drop-in, its tokenizer, and the Porter stemmer.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::{as_text, run_rows, to_numpy, TextRows, Texts};
use crate::metrics::rouge::{self as kernel, Options, RougeType, Score};
use crate::parallel;
use crate::text::porter;
use crate::text::rouge_tokenize::RougeTokenizer;

fn parse_types(names: &[String]) -> PyResult<Vec<RougeType>> {
    Ok(names
        .iter()
        .map(|n| RougeType::from_name(n))
        .collect::<crate::error::Result<_>>()?)
}

fn options(use_stemmer: bool, split_summaries: bool, tokenizer: &str) -> PyResult<Options> {
    Ok(Options {
        use_stemmer,
        split_summaries,
        tokenizer: RougeTokenizer::from_name(tokenizer)?,
    })
}

/// Score tuples `(precision, recall, fmeasure, int_zero)` in `rouge_types` order.
type ScoreTuple = (f64, f64, f64, bool);

fn tuples(scores: Vec<Score>) -> Vec<ScoreTuple> {
    scores
        .into_iter()
        .map(|s| (s.precision, s.recall, s.fmeasure, s.int_zero))
        .collect()
}

/// ROUGE of every row: `{type: (precision, recall, fmeasure)}` as float64 arrays.
#[pyfunction]
#[pyo3(signature = (responses, references, rouge_types, use_stemmer=false, split_summaries=false, tokenizer="default"))]
fn rouge<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    rouge_types: Vec<String>,
    use_stemmer: bool,
    split_summaries: bool,
    tokenizer: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let types = parse_types(&rouge_types)?;
    let opts = options(use_stemmer, split_summaries, tokenizer)?;
    let columns = TextRows::new(responses, references)?
        .run(py, |hyps, refs| {
            kernel::score_columns(hyps, refs, &types, &opts)
        })?
        .map_err(|(row, e)| e.in_row(row))?;
    let out = PyDict::new(py);
    let mut columns = columns.into_iter();
    for name in &rouge_types {
        let mut next = || to_numpy(py, columns.next().unwrap_or_default());
        out.set_item(name, (next(), next(), next()))?;
    }
    Ok(out)
}

/// `RougeScorer(rouge_types, use_stemmer, split_summaries).score_multi(targets, prediction)`.
#[pyfunction]
#[pyo3(signature = (targets, prediction, rouge_types, use_stemmer=false, split_summaries=false, tokenizer="default"))]
fn rouge_score_multi<'py>(
    py: Python<'py>,
    targets: &Bound<'py, PyAny>,
    prediction: &Bound<'py, PyAny>,
    rouge_types: Vec<String>,
    use_stemmer: bool,
    split_summaries: bool,
    tokenizer: &str,
) -> PyResult<Vec<ScoreTuple>> {
    let types = parse_types(&rouge_types)?;
    let opts = options(use_stemmer, split_summaries, tokenizer)?;
    let targets = Texts::new(targets, "targets")?;
    let targets = targets.strs();
    let prediction = as_text(prediction, &|| "prediction".to_string())?;
    let scores = py.detach(|| kernel::score_multi(targets, prediction, &types, &opts))?;
    Ok(tuples(scores))
}

/// The scores of token-id lists (texts tokenized by a user-supplied tokenizer).
#[pyfunction]
fn rouge_score_ids(
    target: Vec<u32>,
    prediction: Vec<u32>,
    target_sentences: Vec<Vec<u32>>,
    prediction_sentences: Vec<Vec<u32>>,
    rouge_types: Vec<String>,
) -> PyResult<Vec<ScoreTuple>> {
    let types = parse_types(&rouge_types)?;
    let t_sents: Vec<&[u32]> = target_sentences.iter().map(Vec::as_slice).collect();
    let p_sents: Vec<&[u32]> = prediction_sentences.iter().map(Vec::as_slice).collect();
    Ok(tuples(kernel::score_ids(
        &target,
        &prediction,
        &t_sents,
        &p_sents,
        &types,
    )))
}

/// rouge-score's tokens of every text.
#[pyfunction]
#[pyo3(signature = (texts, use_stemmer=false, tokenizer="default"))]
fn rouge_tokenize<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    use_stemmer: bool,
    tokenizer: &str,
) -> PyResult<Bound<'py, PyList>> {
    let kind = RougeTokenizer::from_name(tokenizer)?;
    let texts = Texts::new(texts, "texts")?;
    let strs = texts.strs();
    let tokens: Vec<Vec<String>> = run_rows(py, strs.len(), || {
        parallel::map(strs, 1, |t| kind.tokenize(t, use_stemmer))
    })?;
    PyList::new(py, tokens)
}

/// `PorterStemmer().stem(word)` (nltk NLTK_EXTENSIONS) of every word.
#[pyfunction]
fn porter_stem<'py>(py: Python<'py>, words: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let words = Texts::new(words, "words")?;
    let strs = words.strs();
    let stems: Vec<String> = run_rows(py, strs.len(), || {
        parallel::map(strs, 64, |w| porter::stem(w))
    })?;
    PyList::new(py, stems)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rouge, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_score_multi, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_score_ids, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(porter_stem, m)?)?;
    Ok(())
}
