//! nltk BLEU bindings: the drop-in `corpus_bleu` behind `rapideval.compat.nltk` and the batch API
//! behind `rapideval.metrics.bleu`; also the reading of nltk-style token lists, shared with GLEU.

use std::borrow::Cow;
use std::ffi::CString;

use numpy::PyArray1;
use pyo3::exceptions::{
    PyAssertionError, PyIndexError, PyKeyError, PyOverflowError, PyTypeError, PyUserWarning,
    PyValueError, PyZeroDivisionError,
};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyBytes, PyFloat, PyList, PyString, PyTuple};

use super::{check_same_length, first_error, items, run_detached, to_numpy, TextRows};
use crate::metrics::bleu::{
    bleu_batch as batch, bleu_tokens_batch, corpus_stats, Method, Param, PyExc, Raised, Segment,
    Smoothing,
};
use crate::text::Tokenizer;

/// Corpora with at least this many segments are counted with the GIL released.
const DETACH_SEGMENTS: usize = 64;

/// The exception nltk raises, with its message.
pub(super) fn raise(e: Raised) -> PyErr {
    match e.exception {
        PyExc::Assertion => PyAssertionError::new_err(e.message),
        PyExc::Index => PyIndexError::new_err(e.message),
        PyExc::Key => PyKeyError::new_err(e.message),
        PyExc::ZeroDivision => PyZeroDivisionError::new_err(e.message),
        PyExc::Overflow => PyOverflowError::new_err(e.message),
        PyExc::Value => PyValueError::new_err(e.message),
    }
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// The items of a sequence as nltk iterates it (a `str` yields its characters).
fn sequence<'py>(
    obj: &Bound<'py, PyAny>,
    place: &dyn Fn() -> String,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if let Ok(list) = obj.cast::<PyList>() {
        return Ok(list.iter().collect());
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return Ok(tuple.iter().collect());
    }
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{}: expected a sequence, got {}",
            place(),
            type_name(obj)
        ))
    })?;
    iter.collect()
}

/// One token, or all the characters of a string used as a token sequence.
enum Piece {
    Whole(usize),
    Chars(usize),
}

/// nltk-style token lists held as Python objects until their bytes are read: every token is a
/// `str`; a `str` where a sequence is expected stands for its characters, as in nltk.
pub(super) struct TokenCorpus<'py> {
    strings: Vec<Bound<'py, PyString>>,
    hypotheses: Vec<Vec<Piece>>,
    references: Vec<Vec<Vec<Piece>>>,
}

impl<'py> TokenCorpus<'py> {
    pub(super) fn new(
        list_of_references: &Bound<'py, PyAny>,
        hypotheses: &Bound<'py, PyAny>,
    ) -> PyResult<Self> {
        let mut corpus = TokenCorpus {
            strings: Vec::new(),
            hypotheses: Vec::new(),
            references: Vec::new(),
        };
        for (i, hyp) in sequence(hypotheses, &|| "hypotheses".to_string())?
            .iter()
            .enumerate()
        {
            let pieces = corpus.tokens(hyp, &|| format!("hypotheses[{i}]"))?;
            corpus.hypotheses.push(pieces);
        }
        for (i, refs) in sequence(list_of_references, &|| "list_of_references".to_string())?
            .iter()
            .enumerate()
        {
            let refs = sequence(refs, &|| format!("list_of_references[{i}]"))?;
            let mut segment = Vec::with_capacity(refs.len());
            for (k, r) in refs.iter().enumerate() {
                segment.push(corpus.tokens(r, &|| format!("list_of_references[{i}][{k}]"))?);
            }
            corpus.references.push(segment);
        }
        Ok(corpus)
    }

    /// The first token of hypothesis `i` as the Python object nltk would hold.
    fn first_token(&self, i: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(piece) = self.hypotheses.get(i).and_then(|h| h.first()) else {
            return Ok(None);
        };
        match *piece {
            Piece::Whole(j) => Ok(self.strings.get(j).map(|s| s.clone().into_any())),
            Piece::Chars(j) => match self.strings.get(j) {
                Some(s) if s.len()? > 0 => s.get_item(0).map(Some),
                _ => Ok(None),
            },
        }
    }

    /// nltk's `KeyError((first_token,))` for a hypothesis without references, if that is what
    /// `corpus_bleu` raised.
    fn key_error(&self, e: Raised) -> PyErr {
        if e.exception != PyExc::Key {
            return raise(e);
        }
        let segment = self.references.iter().position(Vec::is_empty);
        match segment.map(|i| self.first_token(i)) {
            Some(Ok(Some(token))) => match PyTuple::new(token.py(), [token]) {
                Ok(key) => PyKeyError::new_err((key.unbind(),)),
                Err(err) => err,
            },
            Some(Err(err)) => err,
            _ => raise(e),
        }
    }

    fn tokens(
        &mut self,
        obj: &Bound<'py, PyAny>,
        place: &dyn Fn() -> String,
    ) -> PyResult<Vec<Piece>> {
        if let Ok(s) = obj.cast::<PyString>() {
            self.strings.push(s.clone());
            return Ok(vec![Piece::Chars(self.strings.len() - 1)]);
        }
        let items = sequence(obj, place)?;
        let mut pieces = Vec::with_capacity(items.len());
        for (j, item) in items.into_iter().enumerate() {
            let s = item.cast_into::<PyString>().map_err(|e| {
                PyTypeError::new_err(format!(
                    "{}[{j}]: expected a str token, got {}",
                    place(),
                    type_name(e.into_inner().as_any())
                ))
            })?;
            self.strings.push(s);
            pieces.push(Piece::Whole(self.strings.len() - 1));
        }
        Ok(pieces)
    }

    /// Run `f` on the tokens as byte strings (UTF-8; strings with lone surrogates are encoded with
    /// `surrogatepass`, so distinct Python strings stay distinct).
    pub(super) fn with_tokens<R>(
        &self,
        f: impl FnOnce(&[Vec<Vec<&[u8]>>], &[Vec<&[u8]>]) -> PyResult<R>,
    ) -> PyResult<R> {
        let bytes: Vec<Cow<'_, [u8]>> = self
            .strings
            .iter()
            .map(|s| match s.to_str() {
                Ok(text) => Ok(Cow::Borrowed(text.as_bytes())),
                Err(_) => Ok(Cow::Owned(
                    s.call_method1("encode", ("utf-8", "surrogatepass"))?
                        .cast_into::<PyBytes>()?
                        .as_bytes()
                        .to_vec(),
                )),
            })
            .collect::<PyResult<_>>()?;
        let expand = |pieces: &[Piece]| -> Vec<&[u8]> {
            let mut out = Vec::with_capacity(pieces.len());
            for piece in pieces {
                match *piece {
                    Piece::Whole(i) => out.extend(bytes.get(i).map(|b| b.as_ref())),
                    Piece::Chars(i) => {
                        push_chars(bytes.get(i).map_or(&[], |b| b.as_ref()), &mut out)
                    }
                }
            }
            out
        };
        let hypotheses: Vec<Vec<&[u8]>> = self.hypotheses.iter().map(|h| expand(h)).collect();
        let references: Vec<Vec<Vec<&[u8]>>> = self
            .references
            .iter()
            .map(|refs| refs.iter().map(|r| expand(r)).collect())
            .collect();
        f(&references, &hypotheses)
    }
}

/// Pre-tokenised batch columns, copied out of Python: `responses[i]` is a list of `str` tokens;
/// `references[i]` is one such list, or a list of them (several references) when its first item
/// is a list or tuple (an empty row is one empty reference).
pub(super) struct TokenRows {
    /// Every token list back to back: per row the response, then its references. The strings
    /// stay owned by Python (kept alive here), so nothing is copied.
    tokens: Vec<PyBackedStr>,
    /// Number of tokens before the end of each list.
    list_ends: Vec<usize>,
    /// Index of each row's first list (the response), plus the end.
    row_starts: Vec<usize>,
}

impl TokenRows {
    pub(super) fn new(
        responses: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let responses = items(responses, &|| "responses".to_string())?;
        let references = items(references, &|| "references".to_string())?;
        check_same_length(
            ("responses", responses.len()),
            ("references", references.len()),
        )?;
        // About as many reference tokens as response tokens: one allocation, not a growing copy.
        let response_tokens: usize = responses.iter().map(|r| r.len().unwrap_or(0)).sum();
        let mut rows = TokenRows {
            tokens: Vec::with_capacity(2 * response_tokens),
            list_ends: Vec::with_capacity(2 * responses.len()),
            row_starts: Vec::with_capacity(responses.len() + 1),
        };
        for (row, (response, refs)) in responses.iter().zip(&references).enumerate() {
            rows.row_starts.push(rows.list_ends.len());
            rows.push_list(response, &|| format!("responses[{row}]"))?;
            let place = || format!("references[{row}]");
            let first = match refs.cast::<PyList>() {
                Ok(list) => list.iter().next(),
                Err(_) => refs.cast::<PyTuple>().ok().and_then(|t| t.iter().next()),
            };
            if first.is_some_and(|r| r.is_instance_of::<PyList>() || r.is_instance_of::<PyTuple>())
            {
                for_each_item(refs, &place, |k, r| {
                    rows.push_list(&r, &|| format!("references[{row}][{k}]"))
                })?;
            } else {
                rows.push_list(refs, &place)?;
            }
        }
        rows.row_starts.push(rows.list_ends.len());
        Ok(rows)
    }

    fn push_list(&mut self, list: &Bound<'_, PyAny>, place: &dyn Fn() -> String) -> PyResult<()> {
        if list.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "{}: expected a list of str tokens, got a str (tokenize it, or pass a tokenizer)",
                place()
            )));
        }
        for_each_item(list, place, |j, token| {
            let token = token.cast_into::<PyString>().map_err(|e| {
                PyTypeError::new_err(format!(
                    "{}[{j}]: expected str, got {}",
                    place(),
                    type_name(e.into_inner().as_any())
                ))
            })?;
            self.tokens.push(PyBackedStr::try_from(token).map_err(|_| {
                PyValueError::new_err(format!(
                    "{}[{j}]: string is not valid Unicode (lone surrogate)",
                    place()
                ))
            })?);
            Ok(())
        })?;
        self.list_ends.push(self.tokens.len());
        Ok(())
    }

    /// Runs `f` on one segment per row.
    pub(super) fn with_segments<O>(
        &self,
        f: impl FnOnce(&[Segment<'_, PyBackedStr, &[PyBackedStr]>]) -> O,
    ) -> O {
        let mut start = 0;
        let lists: Vec<&[PyBackedStr]> = self
            .list_ends
            .iter()
            .map(|&end| {
                let list = self.tokens.get(start..end).unwrap_or(&[]);
                start = end;
                list
            })
            .collect();
        let segments: Vec<Segment<'_, PyBackedStr, &[PyBackedStr]>> = self
            .row_starts
            .windows(2)
            .map(|w| Segment {
                hypothesis: lists.get(w[0]).copied().unwrap_or(&[]),
                references: lists.get(w[0] + 1..w[1]).unwrap_or(&[]),
            })
            .collect();
        f(&segments)
    }
}

/// Calls `f(index, item)` for each item of a list or tuple.
fn for_each_item<'py>(
    obj: &Bound<'py, PyAny>,
    place: &dyn Fn() -> String,
    mut f: impl FnMut(usize, Bound<'py, PyAny>) -> PyResult<()>,
) -> PyResult<()> {
    if let Ok(list) = obj.cast::<PyList>() {
        list.iter().enumerate().try_for_each(|(i, item)| f(i, item))
    } else if let Ok(tuple) = obj.cast::<PyTuple>() {
        tuple
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| f(i, item))
    } else {
        Err(PyTypeError::new_err(format!(
            "{}: expected a list of str, got {}",
            place(),
            type_name(obj)
        )))
    }
}

/// Split UTF-8 (or surrogatepass) bytes into one slice per code point.
fn push_chars<'b>(bytes: &'b [u8], out: &mut Vec<&'b [u8]>) {
    let mut i = 0;
    while let Some(&lead) = bytes.get(i) {
        let width = match lead {
            0x00..=0x7F => 1,
            0x80..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        let end = (i + width).min(bytes.len());
        out.push(&bytes[i..end]);
        i = end;
    }
}

fn param(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Param> {
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Ok(Param::Float(f.value()));
    }
    obj.extract::<i64>().map(Param::Int).map_err(|_| {
        PyTypeError::new_err(format!(
            "SmoothingFunction.{name} must be an int (64-bit) or a float, got {}",
            type_name(obj)
        ))
    })
}

/// The smoothing `method` with the parameters it uses read from Python (the others are unused, as
/// in nltk, so any value is accepted for them).
pub(super) fn smoothing(
    method: &str,
    epsilon: &Bound<'_, PyAny>,
    alpha: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
) -> PyResult<Smoothing> {
    let method = Method::from_name(method)?;
    let mut s = Smoothing::new(method);
    match method {
        Method::Method1 => s.epsilon = param(epsilon, "epsilon")?,
        Method::Method4 | Method::Method7 => s.k = param(k, "k")?,
        Method::Method6 => s.alpha = param(alpha, "alpha")?,
        _ => {}
    }
    Ok(s)
}

fn zero_order_warning(py: Python<'_>, order: usize) -> PyResult<()> {
    let message = format!(
        "\nThe hypothesis contains 0 counts of {order}-gram overlaps.\n\
         Therefore the BLEU score evaluates to 0, independently of\n\
         how many N-gram overlaps of lower order it contains.\n\
         Consider using lower n-gram order or use SmoothingFunction()"
    );
    let message = CString::new(message).map_err(|e| PyValueError::new_err(e.to_string()))?;
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 1)
}

/// nltk `corpus_bleu` on already-normalised weights (`auto_reweigh` is applied by the caller):
/// `None` for nltk's int `0`, else one float per weight vector. Raises what nltk raises, and
/// emits method0's `UserWarning`s.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn nltk_corpus_bleu(
    py: Python<'_>,
    list_of_references: &Bound<'_, PyAny>,
    hypotheses: &Bound<'_, PyAny>,
    max_order: usize,
    weights: Vec<Vec<f64>>,
    method: &str,
    epsilon: &Bound<'_, PyAny>,
    alpha: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
) -> PyResult<Option<Vec<f64>>> {
    let smoothing = smoothing(method, epsilon, alpha, k)?;
    let corpus = TokenCorpus::new(list_of_references, hypotheses)?;
    corpus.with_tokens(|references, hypotheses| {
        if references.len() != hypotheses.len() {
            return Err(PyAssertionError::new_err(
                "The number of hypotheses and their reference(s) should be the same ",
            ));
        }
        let segments: Vec<Segment<'_, &[u8]>> = references
            .iter()
            .zip(hypotheses)
            .map(|(references, hypothesis)| Segment {
                references,
                hypothesis,
            })
            .collect();
        let stats = if segments.len() >= DETACH_SEGMENTS {
            run_detached(py, || corpus_stats(&segments, max_order, &smoothing))?
        } else {
            corpus_stats(&segments, max_order, &smoothing)
        }
        .map_err(|e| corpus.key_error(e))?;
        if stats.is_zero() {
            return Ok(None);
        }
        if smoothing.method == Method::Method0 {
            for order in stats.zero_orders() {
                zero_order_warning(py, order)?;
            }
        }
        let precisions = stats.smooth(&smoothing).map_err(raise)?;
        weights
            .iter()
            .map(|w| stats.score(&precisions, w).map_err(raise))
            .collect::<PyResult<Vec<f64>>>()
            .map(Some)
    })
}

/// Sentence BLEU per row after tokenizing (promptflow-evals `BleuScoreEvaluator` with the
/// promptflow tokenizer and method4), as a float64 array.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn bleu_batch<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenizer: &str,
    weights: Vec<f64>,
    method: &str,
    epsilon: &Bound<'py, PyAny>,
    alpha: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    auto_reweigh: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let tokenizer = Tokenizer::from_name(tokenizer)?;
    let smoothing = smoothing(method, epsilon, alpha, k)?;
    let rows = TextRows::new(responses, references)?;
    rows.scores(py, |responses, references| {
        batch(
            responses,
            references,
            tokenizer,
            &weights,
            &smoothing,
            auto_reweigh,
        )
    })
}

/// Sentence BLEU per row of pre-tokenised responses and references (see `TokenRows`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn bleu_tokens<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    weights: Vec<f64>,
    method: &str,
    epsilon: &Bound<'py, PyAny>,
    alpha: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    auto_reweigh: bool,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let smoothing = smoothing(method, epsilon, alpha, k)?;
    let rows = TokenRows::new(responses, references)?;
    let scores = run_detached(py, || {
        rows.with_segments(|segments| {
            bleu_tokens_batch(segments, &weights, &smoothing, auto_reweigh)
        })
    })?;
    Ok(to_numpy(py, first_error(scores)?))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(nltk_corpus_bleu, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_batch, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_tokens, m)?)?;
    Ok(())
}
