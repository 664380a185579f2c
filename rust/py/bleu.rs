//! nltk BLEU bindings: the drop-in `corpus_bleu` behind `rapideval.compat.nltk` and the batch API
//! behind `rapideval.metrics.bleu`; also the reading of nltk-style token lists, shared with GLEU.

use std::borrow::Cow;
use std::ffi::CString;

use numpy::PyArray1;
use pyo3::exceptions::{
    PyAssertionError, PyIndexError, PyKeyError, PyOverflowError, PyTypeError, PyUserWarning,
    PyValueError, PyZeroDivisionError,
};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyFloat, PyList, PyString, PyTuple};
use rayon::prelude::*;

use super::{check_same_length, first_error, items, run_detached, to_numpy, References, Texts};
use crate::metrics::bleu::{
    bleu_batch as batch, bleu_tokens_batch, corpus_stats, number_segment, Id, Method, Param, PyExc,
    Raised, Segment, Smoothing,
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

/// Batches with at least this many rows read their tokens in parallel.
const PARALLEL_ROWS: usize = 64;

/// Pre-tokenised batch columns as token ids (see `Id`): `responses[i]` is a list of `str` tokens;
/// `references[i]` is one such list, or a list of them (several references) when its first item
/// is a list or tuple (an empty row is one empty reference).
pub(super) struct TokenRows {
    /// The ids of every token list back to back: per row the response, then its references.
    ids: Vec<Id>,
    /// Number of tokens before each list, plus the total.
    list_starts: Vec<usize>,
    /// Index of each row's first list (the response), plus the end.
    row_starts: Vec<usize>,
}

/// The token lists of the rows as Python objects (lists or tuples of tokens), read in one pass
/// over the rows that touches no token.
struct Lists<'py> {
    objects: Vec<Bound<'py, PyAny>>,
    list_starts: Vec<usize>,
    row_starts: Vec<usize>,
    /// Per row: whether its references came as a list of token lists.
    nested: Vec<bool>,
}

impl<'py> Lists<'py> {
    /// Where list `list` of row `row` came from, for error messages.
    fn place(&self, row: usize, list: usize) -> String {
        let k = list - self.row_starts.get(row).copied().unwrap_or(0);
        match (k, self.nested.get(row)) {
            (0, _) => format!("responses[{row}]"),
            (_, Some(true)) => format!("references[{row}][{}]", k - 1),
            _ => format!("references[{row}]"),
        }
    }

    fn push(&mut self, list: &Bound<'py, PyAny>, place: &dyn Fn() -> String) -> PyResult<()> {
        if list.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "{}: expected a list of str tokens, got a str (tokenize it, or pass a tokenizer)",
                place()
            )));
        }
        let (object, len) = if let Ok(tuple) = list.cast::<PyTuple>() {
            (tuple.clone().into_any(), tuple.len())
        } else if let Ok(l) = list.cast::<PyList>() {
            if gil_disabled(list.py()) {
                // Without a GIL other threads may change the list: read a snapshot of it.
                let tuple = l.to_tuple();
                let len = tuple.len();
                (tuple.into_any(), len)
            } else {
                (l.clone().into_any(), l.len())
            }
        } else {
            return Err(PyTypeError::new_err(format!(
                "{}: expected a list of str, got {}",
                place(),
                type_name(list)
            )));
        };
        self.objects.push(object);
        let start = self.list_starts.last().copied().unwrap_or(0);
        self.list_starts.push(start + len);
        Ok(())
    }

    /// The lists of one row: its response, then its references.
    fn push_row(
        &mut self,
        row: usize,
        response: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
    ) -> PyResult<()> {
        self.push(response, &|| format!("responses[{row}]"))?;
        let place = || format!("references[{row}]");
        let first = match refs.cast::<PyList>() {
            Ok(list) => list.iter().next(),
            Err(_) => refs.cast::<PyTuple>().ok().and_then(|t| t.iter().next()),
        };
        let nested =
            first.is_some_and(|r| r.is_instance_of::<PyList>() || r.is_instance_of::<PyTuple>());
        self.nested.push(nested);
        if nested {
            for_each_item(refs, &place, |k, r| {
                self.push(&r, &|| format!("references[{row}][{k}]"))
            })
        } else {
            self.push(refs, &place)
        }
    }
}

/// Whether other threads run Python code while this one holds its thread state (a free-threaded
/// build with the GIL disabled). Once enabled the GIL stays enabled, so "disabled" may be stale
/// but never unsafe.
fn gil_disabled(py: Python<'_>) -> bool {
    static DISABLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *DISABLED.get_or_init(|| {
        py.import("sys")
            .and_then(|sys| sys.getattr("_is_gil_enabled"))
            .and_then(|enabled| enabled.call0())
            .and_then(|enabled| enabled.is_truthy())
            .map(|enabled| !enabled)
            .unwrap_or(false)
    })
}

/// The items of a token list (a list, or a tuple) as raw pointers, to be read off the GIL thread.
#[derive(Clone, Copy)]
struct RawList {
    items: *const *mut ffi::PyObject,
    len: usize,
}

// SAFETY: a `RawList` is only read by `read_rows`, while the thread that made it keeps holding the
// GIL (or, without a GIL, while it keeps the snapshot tuple alive): the items and the strings they
// point to stay alive and unchanged, and the readers only read immutable object data.
unsafe impl Send for RawList {}
unsafe impl Sync for RawList {}

impl RawList {
    fn new(object: &Bound<'_, PyAny>) -> RawList {
        let ptr = object.as_ptr();
        // SAFETY: `object` is a list or a tuple (`Lists::push`), so its layout is the one read.
        let items = unsafe {
            if ffi::PyList_Check(ptr) != 0 {
                (*ptr.cast::<ffi::PyListObject>()).ob_item.cast_const()
            } else {
                (*ptr.cast::<ffi::PyTupleObject>()).ob_item.as_ptr()
            }
        };
        let len = object.len().unwrap_or(0);
        RawList { items, len }
    }
}

/// A `str` token as CPython stores it: its kind (bytes per character) and its characters. A `str`
/// always has the narrowest kind its characters fit, so equal strings have equal kind and data (as
/// `str.__eq__` compares them), and distinct strings differ, lone surrogates included.
#[derive(Clone, Copy, PartialEq, Eq)]
struct StrToken<'a> {
    kind: u32,
    data: &'a [u8],
}

impl std::hash::Hash for StrToken<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write(self.data);
    }
}

/// Why a token could not be read.
#[derive(Clone, Copy)]
enum Bad {
    NotStr,
    LoneSurrogate,
    /// A legacy string (Python < 3.12) whose characters are not in canonical form yet.
    NotReady,
}

/// A bad token: list `list` (counted from the row's first), item `item`.
#[derive(Clone, Copy)]
struct BadToken {
    list: usize,
    item: usize,
    bad: Bad,
}

/// Reads one token.
///
/// # Safety
/// `obj` is a live object that nothing changes while the result is used (see `RawList`). Only
/// header fields CPython never changes after creation are read (type, kind, length, data), and
/// nothing is written: no reference count, no cached hash or UTF-8.
unsafe fn read_token<'a>(obj: *mut ffi::PyObject) -> Result<StrToken<'a>, Bad> {
    if ffi::PyUnicode_Check(obj) == 0 {
        return Err(Bad::NotStr);
    }
    #[allow(deprecated)]
    if ffi::PyUnicode_IS_READY(obj) == 0 {
        return Err(Bad::NotReady);
    }
    let kind = ffi::PyUnicode_KIND(obj);
    let len = ffi::PyUnicode_GET_LENGTH(obj) as usize;
    let data = ffi::PyUnicode_DATA(obj);
    let surrogate = |c: u32| (0xD800..=0xDFFF).contains(&c);
    let lone = match kind {
        2 => std::slice::from_raw_parts(data.cast::<u16>(), len)
            .iter()
            .any(|&c| surrogate(u32::from(c))),
        4 => std::slice::from_raw_parts(data.cast::<u32>(), len)
            .iter()
            .any(|&c| surrogate(c)),
        _ => false,
    };
    if lone {
        return Err(Bad::LoneSurrogate);
    }
    Ok(StrToken {
        kind,
        data: std::slice::from_raw_parts(data.cast::<u8>(), len * kind as usize),
    })
}

/// Reads the tokens of one row's lists and numbers them into `out` (see `Id`).
///
/// # Safety
/// As for `read_token`, for every item of `lists`.
unsafe fn number_row<'a>(
    lists: &[RawList],
    out: &mut [Id],
    tokens: &mut Vec<StrToken<'a>>,
) -> Result<(), BadToken> {
    tokens.clear();
    for (list, raw) in lists.iter().enumerate() {
        for item in 0..raw.len {
            let token =
                read_token(*raw.items.add(item)).map_err(|bad| BadToken { list, item, bad })?;
            tokens.push(token);
        }
    }
    let hyp_len = lists.first().map_or(0, |l| l.len);
    let (hypothesis, mut rest) = tokens.split_at(hyp_len.min(tokens.len()));
    let references = lists.iter().skip(1).map(|l| {
        let (reference, tail) = rest.split_at(l.len.min(rest.len()));
        rest = tail;
        reference
    });
    number_segment(references, hypothesis, out);
    Ok(())
}

impl TokenRows {
    pub(super) fn new(
        responses: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let py = responses.py();
        let responses = items(responses, &|| "responses".to_string())?;
        let references = items(references, &|| "references".to_string())?;
        check_same_length(
            ("responses", responses.len()),
            ("references", references.len()),
        )?;
        let mut lists = Lists {
            objects: Vec::with_capacity(2 * responses.len()),
            list_starts: Vec::with_capacity(2 * responses.len() + 1),
            row_starts: Vec::with_capacity(responses.len() + 1),
            nested: Vec::with_capacity(responses.len()),
        };
        lists.list_starts.push(0);
        // Rows before a malformed one are still read: a bad token there is reported first.
        let mut malformed = None;
        for (row, (response, refs)) in responses.iter().zip(&references).enumerate() {
            let start = lists.objects.len();
            lists.row_starts.push(start);
            if let Err(e) = lists.push_row(row, response, refs) {
                lists.row_starts.pop();
                lists.nested.truncate(row);
                lists.objects.truncate(start);
                lists.list_starts.truncate(start + 1);
                malformed = Some(e);
                break;
            }
        }
        lists.row_starts.push(lists.objects.len());
        let raw: Vec<RawList> = lists.objects.iter().map(RawList::new).collect();
        let total = lists.list_starts.last().copied().unwrap_or(0);
        let mut ids = vec![Id::ZERO; total];
        let mut outs: Vec<&mut [Id]> = Vec::with_capacity(lists.nested.len());
        let mut rest = ids.as_mut_slice();
        for w in lists.row_starts.windows(2) {
            let len = lists.list_starts.get(w[1]).unwrap_or(&0)
                - lists.list_starts.get(w[0]).unwrap_or(&0);
            let (out, tail) = rest.split_at_mut(len.min(rest.len()));
            outs.push(out);
            rest = tail;
        }
        let row_lists = |r: usize| -> &[RawList] {
            match (lists.row_starts.get(r), lists.row_starts.get(r + 1)) {
                (Some(&start), Some(&end)) => raw.get(start..end).unwrap_or(&[]),
                _ => &[],
            }
        };
        // SAFETY: this thread holds the GIL until the rows are read, so no Python code runs and
        // every list and token stays alive and unchanged (or `raw` points into snapshot tuples
        // kept alive by `lists`, see `Lists::push`); `read_token` reads immutable data only. The
        // workers never take the GIL, and no job on the pool does, so waiting here cannot
        // deadlock.
        let read = |(r, out): (usize, &mut &mut [Id]), tokens: &mut Vec<StrToken<'_>>| unsafe {
            number_row(row_lists(r), out, tokens)
        };
        let mut results: Vec<Result<(), BadToken>> = if outs.len() >= PARALLEL_ROWS {
            super::pool()?.install(|| {
                outs.par_iter_mut()
                    .enumerate()
                    .with_min_len(16)
                    .map_init(Vec::new, |tokens, row| read(row, tokens))
                    .collect()
            })
        } else {
            let mut tokens = Vec::new();
            outs.iter_mut()
                .enumerate()
                .map(|row| read(row, &mut tokens))
                .collect()
        };
        for (r, result) in results.iter_mut().enumerate() {
            if let Err(BadToken {
                bad: Bad::NotReady, ..
            }) = result
            {
                ready_strings(py, row_lists(r))?;
                if let Some(out) = outs.get_mut(r) {
                    // SAFETY: as above, on this thread.
                    *result = unsafe { number_row(row_lists(r), out, &mut Vec::new()) };
                }
            }
        }
        if let Some((row, e)) = results
            .iter()
            .enumerate()
            .find_map(|(r, result)| result.err().map(|e| (r, e)))
        {
            let list = lists.row_starts.get(row).copied().unwrap_or(0) + e.list;
            let place = lists.place(row, list);
            return Err(match e.bad {
                Bad::LoneSurrogate => PyValueError::new_err(format!(
                    "{place}[{}]: string is not valid Unicode (lone surrogate)",
                    e.item
                )),
                _ => {
                    let item = match lists.objects.get(list) {
                        Some(object) => object.get_item(e.item)?,
                        None => py.None().into_bound(py),
                    };
                    PyTypeError::new_err(format!(
                        "{place}[{}]: expected str, got {}",
                        e.item,
                        type_name(&item)
                    ))
                }
            });
        }
        if let Some(e) = malformed {
            return Err(e);
        }
        Ok(TokenRows {
            ids,
            list_starts: lists.list_starts,
            row_starts: lists.row_starts,
        })
    }

    /// Runs `f` on one segment per row.
    pub(super) fn with_segments<O>(&self, f: impl FnOnce(&[Segment<'_, Id, &[Id]>]) -> O) -> O {
        let lists: Vec<&[Id]> = self
            .list_starts
            .windows(2)
            .map(|w| self.ids.get(w[0]..w[1]).unwrap_or(&[]))
            .collect();
        let segments: Vec<Segment<'_, Id, &[Id]>> = self
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

/// Puts legacy strings (Python < 3.12) in canonical form.
fn ready_strings(py: Python<'_>, lists: &[RawList]) -> PyResult<()> {
    for raw in lists {
        for item in 0..raw.len {
            // SAFETY: on the GIL thread; the items are alive (see `RawList`).
            unsafe {
                let obj = *raw.items.add(item);
                #[allow(deprecated)]
                if ffi::PyUnicode_Check(obj) != 0 && ffi::PyUnicode_READY(obj) != 0 {
                    return Err(PyErr::fetch(py));
                }
            }
        }
    }
    Ok(())
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
    let responses = Texts::new(responses, "responses")?;
    let references = References::new(references, "references")?;
    check_same_length(
        ("responses", responses.len()),
        ("references", references.len()),
    )?;
    let responses = responses.strs()?;
    let scores = references.with_rows(|references| {
        run_detached(py, || {
            batch(
                &responses,
                references,
                tokenizer,
                &weights,
                &smoothing,
                auto_reweigh,
            )
        })
    })??;
    Ok(to_numpy(py, first_error(scores)?))
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
