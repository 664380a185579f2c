//! nltk BLEU bindings: the drop-in `corpus_bleu` behind `rapideval.compat.nltk` and the batch API
//! behind `rapideval.metrics.bleu`; also the reading of nltk-style token lists, shared with GLEU.

use std::borrow::Cow;
use std::ffi::CString;

use numpy::PyArray1;
use pyo3::exceptions::{PyAssertionError, PyTypeError, PyUserWarning, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyFloat, PyList, PyString, PyTuple};

use super::{
    check_same_length, exception, first_error, for_each_item, gil_disabled, items, pool_for,
    prefetch, raw_str, run_attached, run_rows, to_numpy, Given, RawList, TextRows,
};
use crate::error::{Error, PyExc, Result as KernelResult};
use crate::metrics::bleu::{
    bleu_batch as batch, bleu_tokens_batch, corpus_stats, BleuSettings, CorpusStats, HashToken, Id,
    Method, Param, Segment, Smoothing, Token, TokenTable,
};
use crate::parallel;
use crate::text::{short_key, short_key_ending, Tokenizer};

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
    fn key_error(&self, e: Error) -> PyErr {
        if !matches!(e, Error::Reference(PyExc::Key, _)) {
            return e.into();
        }
        let segment = self.references.iter().position(Vec::is_empty);
        match segment.map(|i| self.first_token(i)) {
            Some(Ok(Some(token))) => match PyTuple::new(token.py(), [token]) {
                Ok(key) => exception(e, Some(key.into_any())),
                Err(err) => err,
            },
            Some(Err(err)) => err,
            _ => e.into(),
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

/// Rows read together (one output buffer each).
const CHUNK_ROWS: usize = 32;

/// Pre-tokenised batch columns as token ids (see `Id`): `responses[i]` is a list of `str` tokens;
/// `references[i]` is one such list, or a list of them (several references) when its first item
/// is a list or tuple (an empty row is one empty reference).
pub(super) struct TokenRows {
    chunks: Vec<Chunk>,
}

/// The ids of `CHUNK_ROWS` rows: per row the response's, then each reference's, back to back.
struct Chunk {
    ids: Vec<Id>,
    /// Number of ids before the end of each list.
    list_ends: Vec<usize>,
    /// Number of lists before the end of each row.
    row_ends: Vec<usize>,
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

impl HashToken for StrToken<'_> {
    /// Only one-byte kinds get a short key: the bytes of a wider kind can equal a narrower one's.
    fn short_key(&self) -> Option<u64> {
        (self.kind == 1).then(|| short_key(self.data)).flatten()
    }
}

/// Why a row could not be read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bad {
    /// Not a list of lists of `str` as documented, or a `str` with a lone surrogate: the row is
    /// checked again on the GIL thread for the error message.
    Invalid,
    /// A legacy string (Python < 3.12) whose characters are not in canonical form yet.
    NotReady,
    /// The row's token table could not be allocated (`MemoryError`).
    Memory,
}

/// The error of a row whose token table could not be allocated.
fn row_memory_error(row: usize) -> PyErr {
    Error::Memory("cannot allocate the token table".to_string())
        .in_row(row)
        .into()
}

/// Reads one token.
///
/// # Safety
/// `obj` is a live object that nothing changes while the result is used (see `RawList`). Only
/// header fields CPython never changes after creation are used (type, kind, length, data), and
/// nothing is written: no reference count, no cached hash or UTF-8.
unsafe fn read_token<'a>(obj: *mut ffi::PyObject) -> Result<StrToken<'a>, Bad> {
    if ffi::PyUnicode_Check(obj) == 0 {
        return Err(Bad::Invalid);
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
        return Err(Bad::Invalid);
    }
    Ok(StrToken {
        kind,
        data: std::slice::from_raw_parts(data.cast::<u8>(), len * kind as usize),
    })
}

/// Reads one token through CPython's API (`PyUnicode_AsUTF8AndSize`, which keeps the UTF-8 text in
/// the object): how tokens are read when `raw_str()` is off. UTF-8 bytes are equal exactly when
/// the strings are (a string with a lone surrogate has none, and is `Bad::Invalid`).
///
/// # Safety
/// This thread holds the GIL, and `obj` is a live object that outlives the result.
unsafe fn api_token<'a>(obj: *mut ffi::PyObject) -> Result<&'a [u8], Bad> {
    if ffi::PyUnicode_Check(obj) == 0 {
        return Err(Bad::Invalid);
    }
    let mut size: ffi::Py_ssize_t = 0;
    let data = ffi::PyUnicode_AsUTF8AndSize(obj, &mut size);
    match usize::try_from(size) {
        Ok(len) if !data.is_null() => Ok(std::slice::from_raw_parts(data.cast::<u8>(), len)),
        _ => {
            ffi::PyErr_Clear();
            Err(Bad::Invalid)
        }
    }
}

/// How `TokenRows` reads a token: from its object's header (`Raw`, on any thread while the GIL
/// thread waits), or through the API (`Api`, on the GIL thread only).
trait Reader {
    type Token<'a>: HashToken + PartialEq + Copy;

    /// # Safety
    /// As for `read_token` (`Raw`) or `api_token` (`Api`).
    unsafe fn read<'a>(obj: *mut ffi::PyObject) -> Result<Self::Token<'a>, Bad>;
}

struct Raw;
struct Api;

impl Reader for Raw {
    type Token<'a> = StrToken<'a>;

    unsafe fn read<'a>(obj: *mut ffi::PyObject) -> Result<StrToken<'a>, Bad> {
        read_token(obj)
    }
}

impl Reader for Api {
    type Token<'a> = &'a [u8];

    unsafe fn read<'a>(obj: *mut ffi::PyObject) -> Result<&'a [u8], Bad> {
        api_token(obj)
    }
}

/// Whether `read_token` and `ascii_short_key` read `obj`, a live `str` whose text is `text`, as
/// that text (the check `super::str_layout_agrees` makes at import).
pub(super) fn str_reads_agree(obj: &Bound<'_, PyAny>, text: &str) -> bool {
    // SAFETY: the GIL is held and `obj` is a live `str` that nothing changes meanwhile.
    let (token, key) = unsafe { (read_token(obj.as_ptr()), ascii_short_key(obj.as_ptr())) };
    let code_points: Vec<u32> = match token {
        Ok(StrToken { kind: 1, data }) => data.iter().map(|&b| u32::from(b)).collect(),
        Ok(StrToken { kind: 2, data }) => data
            .chunks_exact(2)
            .map(|c| u32::from(u16::from_ne_bytes([c[0], c[1]])))
            .collect(),
        Ok(StrToken { kind: 4, data }) => data
            .chunks_exact(4)
            .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
        _ => return false,
    };
    let short_ascii = obj.is_exact_instance_of::<PyString>() && text.is_ascii() && text.len() < 8;
    let key_agrees = match key {
        Some(key) => short_ascii && Some(key) == short_key(text.as_bytes()),
        None => !short_ascii,
    };
    key_agrees && code_points.iter().copied().eq(text.chars().map(u32::from))
}

/// The `short_key` of a token that is a `str` of at most 7 ASCII characters stored in its object
/// (an exact, compact ASCII `str`: most tokens), from one 8-byte load that ends with its last
/// character and so starts in the object's header; `None` for any other token.
///
/// # Safety
/// As for `read_token`, and only where no other thread can be writing to that header (the load
/// also reads header bytes that may change, such as the cached hash, and drops them).
#[inline(always)]
unsafe fn ascii_short_key(obj: *mut ffi::PyObject) -> Option<u64> {
    // Only a compact ASCII string's characters start right after the smaller header (a legacy
    // string's own buffer cannot: that offset lies inside its larger header), which has more
    // than 8 bytes.
    let offset = std::mem::size_of::<ffi::PyASCIIObject>();
    if ffi::Py_TYPE(obj) != std::ptr::addr_of_mut!(ffi::PyUnicode_Type)
        || ffi::PyUnicode_DATA(obj) != obj.cast::<u8>().add(offset).cast()
    {
        return None;
    }
    let len = ffi::PyUnicode_GET_LENGTH(obj) as usize;
    if len >= 8 {
        return None;
    }
    let end = obj.cast::<u8>().add(offset + len);
    let eight = u64::from_le(std::ptr::read_unaligned(end.sub(8).cast::<u64>()));
    Some(short_key_ending(eight, len))
}

/// `id(table, key, same)` for token `obj`, read by `R`: its key, and whether it equals hypothesis
/// token `p` (`hypothesis` is the row's hypothesis; asked only of inexact keys).
///
/// # Safety
/// As for `R::read`. With `whole_objects` (only with `Raw`), no other thread can be writing to a
/// token's header (see `TokenRows::read`), so short ASCII tokens take `ascii_short_key`.
#[inline(always)]
unsafe fn token_id<R: Reader>(
    obj: *mut ffi::PyObject,
    whole_objects: bool,
    hypothesis: RawList,
    table: &mut TokenTable,
    id: impl FnOnce(&mut TokenTable, (u64, bool), &dyn Fn(u32) -> bool) -> Id,
) -> Result<Id, Bad> {
    if let Some(key) = whole_objects.then(|| ascii_short_key(obj)).flatten() {
        return Ok(id(table, (key, true), &|_| false));
    }
    let token = R::read(obj)?;
    let key = table.key_of(&token);
    let same =
        |p: u32| (p as usize) < hypothesis.len && R::read(hypothesis.get(p as usize)) == Ok(token);
    Ok(id(table, key, &same))
}

/// How many tokens ahead of the one being read its object is asked for. Tokens lie scattered over
/// the heap, and the reader's work on a token depends on its object: without the hint the reader
/// waits for the objects that are not in the cache about one at a time. Measured against 8 ahead:
/// 16, 24, 32, 48 ahead 1.08x-1.15x, 1.14x-1.16x, 1.13x, 1.18x on tokens as a tokenizer leaves
/// them, 1.29x, 1.43x, 1.34x, 0.85x on tokens in random heap order.
const PREFETCH_AHEAD: usize = 24;

/// A byte offset into a token object asked for besides its start: a short `str` is a 48-byte
/// block, which straddles two cache lines for half the objects, and its state byte (read first)
/// then lies on the second line.
const TOKEN_SECOND_LINE: usize = 40;

/// How many rows ahead of the one whose lists are found their items are asked for (and twice as
/// many rows ahead, their list objects).
const PREFETCH_ROWS: usize = 4;

/// Asks the cache for the list objects of row `row` of `responses` and `references`, and for the
/// items of their lists of row `row - PREFETCH_ROWS` (the first item of a row of references tells
/// whether it holds several references).
///
/// # Safety
/// As for `RawList::get`; `row` may be past the end.
#[inline(always)]
unsafe fn prefetch_rows(responses: RawList, references: RawList, row: usize) {
    let rows = responses.len.min(references.len);
    if row < rows {
        prefetch(responses.get(row));
        prefetch(references.get(row));
    }
    let Some(row) = row.checked_sub(PREFETCH_ROWS).filter(|&row| row < rows) else {
        return;
    };
    let [response_list, reference_list] =
        [responses.get(row), references.get(row)].map(|o| RawList::of(o));
    for list in [response_list, reference_list].into_iter().flatten() {
        // The first lines; the hardware follows the rest.
        for i in (0..list.len.min(32)).step_by(8) {
            prefetch(list.items.add(i).cast());
        }
    }
    if let Some(references) = reference_list.filter(|list| list.len > 0) {
        prefetch(references.get(0));
    }
}

/// A cursor `PREFETCH_AHEAD` tokens ahead of the reader over a chunk's lists, across the ends of
/// lists and rows: the first tokens of a list are asked for while the previous list is read.
struct Ahead<'a> {
    lists: &'a [RawList],
    list: usize,
    position: usize,
}

impl<'a> Ahead<'a> {
    /// # Safety
    /// As for `RawList::get`, for every list.
    unsafe fn new(lists: &'a [RawList]) -> Self {
        let mut ahead = Ahead {
            lists,
            list: 0,
            position: 0,
        };
        for _ in 0..PREFETCH_AHEAD {
            ahead.next();
        }
        ahead
    }

    /// Asks for the token at the cursor and moves the cursor to the next one.
    ///
    /// # Safety
    /// As for `new`.
    #[inline(always)]
    unsafe fn next(&mut self) {
        while let Some(&list) = self.lists.get(self.list) {
            if self.position < list.len {
                let token = list.get(self.position);
                prefetch(token);
                prefetch(token.cast::<u8>().wrapping_add(TOKEN_SECOND_LINE).cast());
                self.position += 1;
                return;
            }
            self.list += 1;
            self.position = 0;
        }
    }
}

/// Reusable buffers of a reader.
#[derive(Default)]
struct Scratch {
    /// The token lists of the chunk being read: each row's hypothesis, then its references.
    lists: Vec<RawList>,
    table: TokenTable,
    /// The ids and lists of the reader's previous chunk: room reserved for the next one.
    last_ids: usize,
    last_lists: usize,
}

/// What a row of references holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// One token list, or a list of token lists (the batch functions).
    OneOrSeveral,
    /// A non-empty list of token lists (nltk's `list_of_references`).
    Corpus,
}

/// Appends the token lists of a row (its response and references objects) to `lists`: the
/// hypothesis', then each reference's; on an error, some of them.
///
/// # Safety
/// `response` and `refs` are live objects that nothing changes meanwhile, nor any object they
/// hold (see `RawList`).
unsafe fn row_lists(
    response: *mut ffi::PyObject,
    refs: *mut ffi::PyObject,
    shape: Shape,
    lists: &mut Vec<RawList>,
) -> Result<(), Bad> {
    let hypothesis = RawList::of(response).ok_or(Bad::Invalid)?;
    let outer = RawList::of(refs).ok_or(Bad::Invalid)?;
    let nested = outer.len > 0 && RawList::of(outer.get(0)).is_some();
    if !nested && shape == Shape::Corpus {
        return Err(Bad::Invalid);
    }
    lists.push(hypothesis);
    if nested {
        for k in 0..outer.len {
            lists.push(RawList::of(outer.get(k)).ok_or(Bad::Invalid)?);
        }
    } else {
        lists.push(outer);
    }
    Ok(())
}

/// Appends to `ids` the ids of the tokens of rows whose lists (each row's hypothesis', then its
/// references') are `lists`, each row's ending before the matching item of `row_ends`; the index
/// of the first row with a token that cannot be read, and why, if one has.
///
/// # Safety
/// Every list is live, and nothing changes it or its tokens meanwhile (see `RawList`); as for
/// `R::read`.
unsafe fn read_ids<R: Reader>(
    lists: &[RawList],
    row_ends: &[usize],
    whole_objects: bool,
    table: &mut TokenTable,
    ids: &mut Vec<Id>,
) -> Result<(), (usize, Bad)> {
    let mut ahead = Ahead::new(lists);
    let mut start = 0;
    for (row, &end) in row_ends.iter().enumerate() {
        let Some((&hypothesis, references)) = lists.get(start..end).and_then(<[_]>::split_first)
        else {
            return Err((row, Bad::Invalid));
        };
        start = end;
        table
            .start(hypothesis.len)
            .map_err(|_| (row, Bad::Memory))?;
        // The hypothesis' tokens are numbered, the references' only looked up: a loop each.
        for i in 0..hypothesis.len {
            ahead.next();
            let hyp_id =
                |t: &mut TokenTable, key, same: &dyn Fn(u32) -> bool| t.hyp_id(i as u32, key, same);
            let id = token_id::<R>(hypothesis.get(i), whole_objects, hypothesis, table, hyp_id);
            ids.push(id.map_err(|bad| (row, bad))?);
            table.make_room().map_err(|_| (row, Bad::Memory))?;
        }
        for list in references {
            for i in 0..list.len {
                ahead.next();
                let ref_id =
                    |t: &mut TokenTable, key, same: &dyn Fn(u32) -> bool| t.ref_id(key, same);
                let id = token_id::<R>(list.get(i), whole_objects, hypothesis, table, ref_id);
                ids.push(id.map_err(|bad| (row, bad))?);
            }
        }
    }
    Ok(())
}

impl TokenRows {
    pub(super) fn new(
        responses: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let columns = [(responses, "responses"), (references, "references")];
        for (column, name) in columns {
            if !(column.is_instance_of::<PyList>() || column.is_instance_of::<PyTuple>()) {
                return Err(PyTypeError::new_err(format!(
                    "{name}: expected a list of str, got {}",
                    type_name(column)
                )));
            }
        }
        let rows = responses.len()?;
        check_same_length(("responses", rows), ("references", references.len()?))?;
        let mut read = Self::read(responses, references, Shape::OneOrSeveral)?;
        if let Err((first, Bad::NotReady)) = read {
            // Readying a legacy string may allocate: done here, on the GIL thread, by reading
            // every row from the first one that needs it (which also finds the first error).
            for row in first..rows {
                check_row(row, &responses.get_item(row)?, &references.get_item(row)?)?;
            }
            read = Self::read(responses, references, Shape::OneOrSeveral)?;
        }
        read.or_else(|(row, bad)| {
            if bad == Bad::Memory {
                return Err(row_memory_error(row));
            }
            check_row(row, &responses.get_item(row)?, &references.get_item(row)?)?;
            Err(PyValueError::new_err(format!(
                "row {row}: the tokens changed while they were read"
            )))
        })
    }

    /// nltk `corpus_bleu`'s arguments as rows, if they are lists (or tuples) of the same length
    /// whose every hypothesis is a list of ready `str` tokens without lone surrogates, and whose
    /// every row of references a non-empty list of such lists; `None` otherwise (the caller then
    /// reads them as nltk iterates them).
    pub(super) fn nltk_corpus(
        list_of_references: &Bound<'_, PyAny>,
        hypotheses: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Self>> {
        let plain =
            |c: &Bound<'_, PyAny>| c.is_instance_of::<PyList>() || c.is_instance_of::<PyTuple>();
        if !(plain(list_of_references) && plain(hypotheses))
            || list_of_references.len()? != hypotheses.len()?
        {
            return Ok(None);
        }
        match Self::read(hypotheses, list_of_references, Shape::Corpus)? {
            Err((row, Bad::Memory)) => Err(row_memory_error(row)),
            read => Ok(read.ok()),
        }
    }

    /// Reads every row of two lists (or tuples) of the same length; the first row that cannot be
    /// read, and why, if one cannot.
    fn read(
        responses: &Bound<'_, PyAny>,
        references: &Bound<'_, PyAny>,
        shape: Shape,
    ) -> PyResult<Result<Self, (usize, Bad)>> {
        // Without a GIL other threads may change lists: read a snapshot of every list instead.
        let snapshots = if gil_disabled(responses.py()) {
            Some((snapshot(responses, 3)?, snapshot(references, 4)?))
        } else {
            None
        };
        // Tokens are read from their headers where the running interpreter's layout allows it
        // (`raw_str`), shared with the pool's workers; else through the API on this thread.
        let raw = raw_str();
        // With the GIL held here no thread writes to a token's header while it is read.
        let whole_objects = raw && snapshots.is_none();
        let (responses_read, references_read) = match &snapshots {
            Some((r, f)) => (r, f),
            None => (responses, references),
        };
        // SAFETY: both are lists or tuples (checked by the callers).
        let (raw_responses, raw_references) = unsafe {
            (
                RawList::of(responses_read.as_ptr()),
                RawList::of(references_read.as_ptr()),
            )
        };
        let (Some(raw_responses), Some(raw_references)) = (raw_responses, raw_references) else {
            return Err(PyTypeError::new_err("responses: expected a list of str"));
        };
        let rows = raw_responses.len.min(raw_references.len);
        let chunk_indices: Vec<usize> = (0..rows.div_ceil(CHUNK_ROWS)).collect();
        let read = || -> Vec<(Chunk, Option<(usize, Bad)>)> {
            let read_chunk = |scratch: &mut Scratch, &c: &usize| {
                let mut chunk = Chunk {
                    ids: Vec::with_capacity(scratch.last_ids),
                    list_ends: Vec::with_capacity(scratch.last_lists),
                    row_ends: Vec::with_capacity(CHUNK_ROWS),
                };
                let first = c * CHUNK_ROWS;
                let end = rows.min(first + CHUNK_ROWS);
                // The lists of every row first, then their tokens in one pass: the tokens of the
                // next lists are asked for while a list is read (see `Ahead`).
                let lists = &mut scratch.lists;
                lists.clear();
                let mut bad_row = None;
                for row in first..end {
                    // SAFETY: this thread holds the GIL until every row is read, so no Python
                    // code runs: every list and token stays alive and unchanged (without a GIL,
                    // `raw_*` point into the snapshot tuples, which nothing can change and which
                    // live until then). The readers never take the GIL, and no job on the pool
                    // does, so this thread waiting for them holding it cannot deadlock.
                    let read = unsafe {
                        prefetch_rows(raw_responses, raw_references, row + 2 * PREFETCH_ROWS);
                        row_lists(
                            raw_responses.get(row),
                            raw_references.get(row),
                            shape,
                            lists,
                        )
                    };
                    if let Err(bad) = read {
                        lists.truncate(chunk.list_ends.len());
                        bad_row = Some((row, bad));
                        break;
                    }
                    for list in lists.get(chunk.list_ends.len()..).unwrap_or(&[]) {
                        let end = chunk.list_ends.last().copied().unwrap_or(0) + list.len;
                        chunk.list_ends.push(end);
                    }
                    chunk.row_ends.push(chunk.list_ends.len());
                }
                let (table, ids) = (&mut scratch.table, &mut chunk.ids);
                // SAFETY: as above; without `raw` the rows are read on this thread, which holds
                // the GIL (see below).
                let read = unsafe {
                    if raw {
                        read_ids::<Raw>(lists, &chunk.row_ends, whole_objects, table, ids)
                    } else {
                        read_ids::<Api>(lists, &chunk.row_ends, false, table, ids)
                    }
                };
                if let Err((row, bad)) = read {
                    return (chunk, Some((first + row, bad)));
                }
                if bad_row.is_some() {
                    return (chunk, bad_row);
                }
                // Capped: one huge chunk must not make every later one reserve as much.
                scratch.last_ids = chunk.ids.len().min(1 << 16);
                scratch.last_lists = chunk.list_ends.len().min(1 << 12);
                (chunk, None)
            };
            parallel::map_init(&chunk_indices, 1, Scratch::default, read_chunk)
        };
        // Shared with the pool's workers (see `run_rows`), or on this thread alone.
        let read_rows = match pool_for(rows)?.filter(|_| raw) {
            Some(pool) => run_attached(|| parallel::with_pool(pool, read))?,
            None => run_attached(read)?,
        };
        if let Some(&bad) = read_rows.iter().find_map(|(_, bad)| bad.as_ref()) {
            return Ok(Err(bad));
        }
        Ok(Ok(TokenRows {
            chunks: read_rows.into_iter().map(|(chunk, _)| chunk).collect(),
        }))
    }

    /// The number of rows.
    pub(super) fn len(&self) -> usize {
        self.chunks.iter().map(|c| c.row_ends.len()).sum()
    }

    /// Runs `f` on the segments (one per row) of each chunk (in parallel inside
    /// `parallel::with_pool`), and concatenates what it returns.
    pub(super) fn map_chunks<O: Send>(
        &self,
        f: impl Fn(&[Segment<'_, Id, &[Id]>]) -> Vec<O> + Sync,
    ) -> Vec<O> {
        let per_chunk: Vec<Vec<O>> = parallel::map(&self.chunks, 1, |chunk| {
            let lists: Vec<&[Id]> = chunk.lists().collect();
            f(&segments(&lists, chunk.row_ends.iter().copied()))
        });
        per_chunk.into_iter().flatten().collect()
    }

    /// Runs `f` on the segments of all rows.
    pub(super) fn with_segments<R>(&self, f: impl FnOnce(&[Segment<'_, Id, &[Id]>]) -> R) -> R {
        let lists: Vec<&[Id]> = self.chunks.iter().flat_map(Chunk::lists).collect();
        let mut lists_before = 0;
        let row_ends = self.chunks.iter().flat_map(|chunk| {
            let base = lists_before;
            lists_before += chunk.list_ends.len();
            chunk.row_ends.iter().map(move |&end| base + end)
        });
        f(&segments(&lists, row_ends))
    }
}

impl Chunk {
    /// Its token lists, in order.
    fn lists(&self) -> impl Iterator<Item = &[Id]> {
        let mut start = 0;
        self.list_ends.iter().map(move |&end| {
            let list = self.ids.get(start..end).unwrap_or(&[]);
            start = end;
            list
        })
    }
}

/// The segments of rows whose token lists (the hypothesis', then each reference's) are `lists`,
/// each row's ending before the matching item of `row_ends`.
fn segments<'a>(
    lists: &'a [&'a [Id]],
    row_ends: impl Iterator<Item = usize>,
) -> Vec<Segment<'a, Id, &'a [Id]>> {
    let mut start = 0;
    row_ends
        .map(|end| {
            let segment = Segment {
                hypothesis: lists.get(start).copied().unwrap_or(&[]),
                references: lists.get(start + 1..end).unwrap_or(&[]),
            };
            start = end;
            segment
        })
        .collect()
}

/// `obj` with its lists made tuples, `depth` levels down (tokens, the last level, stay as they
/// are).
fn snapshot<'py>(obj: &Bound<'py, PyAny>, depth: usize) -> PyResult<Bound<'py, PyAny>> {
    if depth <= 1 || !(obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) {
        return Ok(obj.clone());
    }
    let items = items(obj, &String::new)?
        .iter()
        .map(|item| snapshot(item, depth - 1))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(obj.py(), items)?.into_any())
}

/// The error of row `row`, read with the Python API as documented on `TokenRows`. Also puts
/// legacy strings in canonical form.
fn check_row(row: usize, response: &Bound<'_, PyAny>, refs: &Bound<'_, PyAny>) -> PyResult<()> {
    check_list(response, &|| format!("responses[{row}]"))?;
    let place = || format!("references[{row}]");
    let first = match refs.cast::<PyList>() {
        Ok(list) => list.iter().next(),
        Err(_) => refs.cast::<PyTuple>().ok().and_then(|t| t.iter().next()),
    };
    if first.is_some_and(|r| r.is_instance_of::<PyList>() || r.is_instance_of::<PyTuple>()) {
        for_each_item(refs, &place, |k, r| {
            check_list(&r, &|| format!("references[{row}][{k}]"))
        })
    } else {
        check_list(refs, &place)
    }
}

fn check_list(list: &Bound<'_, PyAny>, place: &dyn Fn() -> String) -> PyResult<()> {
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
        token.to_str().map_err(|_| {
            PyValueError::new_err(format!(
                "{}[{j}]: string is not valid Unicode (lone surrogate)",
                place()
            ))
        })?;
        Ok(())
    })
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

/// `BleuSmoothing(method="method0", *, epsilon=0.1, alpha=5, k=5)`: nltk's
/// `SmoothingFunction(epsilon, alpha, k).<method>`. Only the parameters the method uses are read
/// (any value is accepted for the others, as in nltk); each is an int or a float, whose type
/// decides whether nltk's arithmetic stays exact.
#[pyclass(frozen, name = "BleuSmoothing", module = "rapideval._core")]
pub(super) struct PyBleuSmoothing(Smoothing);

#[pymethods]
impl PyBleuSmoothing {
    #[new]
    #[pyo3(signature = (method = "method0", *, epsilon = Given::Absent, alpha = Given::Absent, k = Given::Absent))]
    #[pyo3(text_signature = "(method='method0', *, epsilon=0.1, alpha=5, k=5)")]
    fn new(method: &str, epsilon: Given<'_>, alpha: Given<'_>, k: Given<'_>) -> PyResult<Self> {
        let method = Method::from_name(method)?;
        let mut s = Smoothing::new(method);
        let read = |given: Given<'_>, name: &str, default: Param| match given {
            Given::Absent => Ok(default),
            Given::Object(obj) => param(&obj, name),
        };
        match method {
            Method::Method1 => s.epsilon = read(epsilon, "epsilon", s.epsilon)?,
            Method::Method4 | Method::Method7 => s.k = read(k, "k", s.k)?,
            Method::Method6 => s.alpha = read(alpha, "alpha", s.alpha)?,
            _ => {}
        }
        Ok(PyBleuSmoothing(s))
    }
}

/// `BleuSettings(*, weights=(0.25, 0.25, 0.25, 0.25), smoothing=None, auto_reweigh=False)`: the
/// settings of sentence BLEU (`bleu_batch`, `bleu_tokens`); `weights` a sequence of floats (one
/// per n-gram order), `smoothing` a `BleuSmoothing` (`None`: method0).
#[pyclass(frozen, name = "BleuSettings", module = "rapideval._core")]
pub(super) struct PyBleuSettings(BleuSettings);

#[pymethods]
impl PyBleuSettings {
    #[new]
    #[pyo3(signature = (*, weights = Given::Absent, smoothing = None, auto_reweigh = false))]
    #[pyo3(
        text_signature = "(*, weights=(0.25, 0.25, 0.25, 0.25), smoothing=None, auto_reweigh=False)"
    )]
    fn new(
        weights: Given<'_>,
        smoothing: Option<&Bound<'_, PyBleuSmoothing>>,
        auto_reweigh: bool,
    ) -> PyResult<Self> {
        let defaults = BleuSettings::default();
        let weights = match weights {
            Given::Absent => defaults.weights,
            Given::Object(w) => w.extract::<Vec<f64>>().map_err(|_| not_weights(&w))?,
        };
        Ok(PyBleuSettings(BleuSettings {
            weights,
            smoothing: smoothing.map_or(defaults.smoothing, |s| s.get().0),
            auto_reweigh,
        }))
    }
}

fn not_weights(obj: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "BleuSettings: weights must be a sequence of floats, got {}",
        type_name(obj)
    ))
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
fn nltk_corpus_bleu(
    py: Python<'_>,
    list_of_references: &Bound<'_, PyAny>,
    hypotheses: &Bound<'_, PyAny>,
    max_order: usize,
    weights: Vec<Vec<f64>>,
    smoothing: &Bound<'_, PyBleuSmoothing>,
) -> PyResult<Option<Vec<f64>>> {
    let smoothing = smoothing.get().0;
    let stats = match TokenRows::nltk_corpus(list_of_references, hypotheses)? {
        Some(rows) => {
            rows.with_segments(|segments| count_corpus(py, segments, max_order, &smoothing))??
        }
        None => {
            let corpus = TokenCorpus::new(list_of_references, hypotheses)?;
            corpus.with_tokens(|references, hypotheses| {
                if references.len() != hypotheses.len() {
                    return Err(PyAssertionError::new_err(
                        "The number of hypotheses and their reference(s) should be the same ",
                    ));
                }
                let segments = Segment::corpus(references, hypotheses);
                count_corpus(py, &segments, max_order, &smoothing)?.map_err(|e| corpus.key_error(e))
            })?
        }
    };
    if stats.is_zero() {
        return Ok(None);
    }
    if smoothing.method == Method::Method0 {
        for order in stats.zero_orders() {
            zero_order_warning(py, order)?;
        }
    }
    let precisions = stats.smooth(&smoothing)?;
    let scores = weights
        .iter()
        .map(|w| stats.score(&precisions, w))
        .collect::<KernelResult<Vec<f64>>>()?;
    Ok(Some(scores))
}

/// `corpus_stats` of the segments, with the GIL released (see `run_rows`).
fn count_corpus<T: Token + Sync, R: AsRef<[T]> + Sync>(
    py: Python<'_>,
    segments: &[Segment<'_, T, R>],
    max_order: usize,
    smoothing: &Smoothing,
) -> PyResult<KernelResult<CorpusStats>> {
    run_rows(py, segments.len(), || {
        corpus_stats(segments, max_order, smoothing)
    })
}

/// Sentence BLEU per row after tokenizing (promptflow-evals `BleuScoreEvaluator` with the
/// promptflow tokenizer and method4), as a float64 array.
#[pyfunction]
fn bleu_batch<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenizer: &str,
    settings: &Bound<'py, PyBleuSettings>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let tokenizer = Tokenizer::from_name(tokenizer)?;
    let settings = &settings.get().0;
    let rows = TextRows::new(responses, references)?;
    rows.scores(py, |responses, references| {
        batch(responses, references, tokenizer, settings)
    })
}

/// Sentence BLEU per row of pre-tokenised responses and references (see `TokenRows`).
#[pyfunction]
fn bleu_tokens<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    settings: &Bound<'py, PyBleuSettings>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let settings = &settings.get().0;
    let rows = TokenRows::new(responses, references)?;
    let scores = run_rows(py, rows.len(), || {
        rows.map_chunks(|segments| bleu_tokens_batch(segments, settings))
    })?;
    Ok(to_numpy(py, first_error(scores)?))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBleuSmoothing>()?;
    m.add_class::<PyBleuSettings>()?;
    m.add_function(wrap_pyfunction!(nltk_corpus_bleu, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_batch, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_tokens, m)?)?;
    Ok(())
}
