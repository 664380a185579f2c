//! Bindings of the rapidfuzz string distances (`crate::metrics::string_distance`). A `str` is read
//! as CPython stores it, 1, 2 or 4 bytes a code point, without a copy or a UTF-8 encoding (where
//! `raw_str` allows; else through the API): the kernels compare code points, as rapidfuzz does, so
//! a string with a lone surrogate is scored as rapidfuzz scores it.

use std::cell::RefCell;

use numpy::PyArray1;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use super::{check_same_length, for_each_item, raw_str, run_rows, to_numpy};

use crate::metrics::string_distance::{self as kernels, Measure, Scratch, Text};

/// `str` objects read once under the GIL as their code points. A reference to every object is
/// held, so its storage stays valid with the GIL released.
struct CodePoints<'py> {
    objects: Vec<Bound<'py, PyAny>>,
    /// Code points of strings read through UTF-8 (see `push`), which own them here: each inner
    /// vector's buffer stays where it is while this lives.
    decoded: Vec<Vec<u32>>,
    /// The code points of each object. Never handed out for longer than `&self`: `'static` stands
    /// for "as long as `objects` and `decoded`", which nothing changes before they drop.
    texts: Vec<Text<'static>>,
}

impl<'py> CodePoints<'py> {
    fn with_capacity(n: usize) -> Self {
        CodePoints {
            objects: Vec::with_capacity(n),
            decoded: Vec::new(),
            texts: Vec::with_capacity(n),
        }
    }

    /// A list or tuple of `str` named `field`; errors name `field[row]`.
    fn column(obj: &Bound<'py, PyAny>, field: &str) -> PyResult<Self> {
        let rows = match (obj.cast::<PyList>(), obj.cast::<PyTuple>()) {
            (Ok(list), _) => list.len(),
            (_, Ok(tuple)) => tuple.len(),
            _ => 0,
        };
        let mut column = CodePoints::with_capacity(rows);
        for_each_item(obj, &|| field.to_string(), |row, item| {
            column.push(item, &|| format!("{field}[{row}]"))
        })?;
        Ok(column)
    }

    /// Adds a `str` (or raises the error of `place`).
    fn push(&mut self, item: Bound<'py, PyAny>, place: &dyn Fn() -> String) -> PyResult<()> {
        if !item.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "{}: expected str, got {}",
                place(),
                item.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_else(|_| "?".to_string())
            )));
        }
        // SAFETY: the GIL is held, `item` is a live `str`, and `self.objects` keeps it alive (and,
        // a `str` being immutable once shared, unchanged) as long as the slice is handed out.
        let text = match raw_str()
            .then(|| unsafe { stored(item.as_ptr()) })
            .flatten()
        {
            Some(text) => text,
            None => {
                let utf8 = item.cast::<PyString>()?.to_str().ok();
                match utf8.filter(|s| s.is_ascii()) {
                    // SAFETY: as above; the UTF-8 text lives as long as the object.
                    Some(s) => Text::Ucs1(unsafe { extend(s.as_bytes()) }),
                    None => {
                        let codes = code_points(&item)?;
                        // SAFETY: the buffer of `codes` is owned by `self.decoded` from here on
                        // and never moved or changed: moving the `Vec` does not move its buffer.
                        let text = Text::Ucs4(unsafe { extend(&codes) });
                        self.decoded.push(codes);
                        text
                    }
                }
            }
        };
        self.texts.push(text);
        self.objects.push(item);
        Ok(())
    }

    fn texts(&self) -> &[Text<'_>] {
        &self.texts
    }
}

/// The code points of a `str` (lone surrogates included), through CPython's API.
fn code_points(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    // SAFETY: the GIL is held and `obj` is a live `str`; the copy is freed here, once read.
    unsafe {
        let len = usize::try_from(ffi::PyUnicode_GetLength(obj.as_ptr())).unwrap_or(0);
        let copy = ffi::PyUnicode_AsUCS4Copy(obj.as_ptr());
        if copy.is_null() {
            return Err(PyErr::fetch(obj.py()));
        }
        let codes = std::slice::from_raw_parts(copy, len).to_vec();
        ffi::PyMem_Free(copy.cast());
        Ok(codes)
    }
}

/// A slice's lifetime widened to `'static`.
///
/// # Safety
/// The caller keeps the memory alive and unchanged while the slice is used (see `CodePoints`).
unsafe fn extend<T>(s: &[T]) -> &'static [T] {
    std::slice::from_raw_parts(s.as_ptr(), s.len())
}

/// The code points of `obj`, a `str`, in CPython's own storage; `None` where it cannot be read so
/// (then `push` reads the UTF-8 text, which raises for a string that has none).
///
/// # Safety
/// The GIL is held and `obj` is a live `str` that outlives the slice and nothing changes.
#[cfg(not(any(Py_3_14, PyPy, GraalPy)))]
unsafe fn stored(obj: *mut ffi::PyObject) -> Option<Text<'static>> {
    // Before 3.12 a string made by the legacy API may not be ready: made so here.
    if ffi::PyUnicode_READY(obj) != 0 {
        ffi::PyErr_Clear();
        return None;
    }
    let len = usize::try_from(ffi::PyUnicode_GET_LENGTH(obj)).ok()?;
    if len == 0 {
        return Some(Text::Ucs1(&[]));
    }
    let data = ffi::PyUnicode_DATA(obj);
    if data.is_null() {
        return None;
    }
    Some(match ffi::PyUnicode_KIND(obj) {
        ffi::PyUnicode_1BYTE_KIND => Text::Ucs1(std::slice::from_raw_parts(data.cast(), len)),
        ffi::PyUnicode_2BYTE_KIND => Text::Ucs2(std::slice::from_raw_parts(data.cast(), len)),
        ffi::PyUnicode_4BYTE_KIND => Text::Ucs4(std::slice::from_raw_parts(data.cast(), len)),
        _ => return None,
    })
}

/// From Python 3.14 PyO3 binds CPython's storage accessors as calls whose presence this crate
/// does not rely on: every string is read through its UTF-8 text.
#[cfg(any(Py_3_14, PyPy, GraalPy))]
unsafe fn stored(_obj: *mut ffi::PyObject) -> Option<Text<'static>> {
    None
}

/// Whether `stored` reads `obj`, a live `str` whose text is `text`, as that text, or declines to
/// (the check `super::str_layout_agrees` makes at import).
pub(super) fn str_reads_agree(obj: &Bound<'_, PyAny>, text: &str) -> bool {
    // SAFETY: the GIL is held and `obj` is a live `str` that nothing changes meanwhile.
    let code_points: Vec<u32> = match unsafe { stored(obj.as_ptr()) } {
        None => return true,
        Some(Text::Ucs1(s)) => s.iter().map(|&c| u32::from(c)).collect(),
        Some(Text::Ucs2(s)) => s.iter().map(|&c| u32::from(c)).collect(),
        Some(Text::Ucs4(s)) => s.to_vec(),
    };
    code_points.iter().copied().eq(text.chars().map(u32::from))
}

/// One `str` argument named `field`.
fn one<'py>(obj: &Bound<'py, PyAny>, field: &str) -> PyResult<CodePoints<'py>> {
    let mut text = CodePoints::with_capacity(1);
    text.push(obj.clone(), &|| field.to_string())?;
    Ok(text)
}

thread_local! {
    /// The buffers of one-pair calls, kept from call to call (a pattern's table is 2 KiB).
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::new());
}

/// `rapidfuzz.distance.<measure>.normalized_distance(a, b)` of rapidfuzz 3.14 (default
/// arguments); `measure` is "levenshtein", "hamming", "jaro" or "jaro_winkler". A pair longer
/// than `KEEP_SCRATCH_UP_TO` runs detached (the GIL released, a panic mapped), as a batch of one
/// row; it is not interrupted inside (see `crate::interrupt`).
#[pyfunction]
fn string_distance(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    measure: &str,
) -> PyResult<f64> {
    let measure = Measure::parse(measure)?;
    let (a, b) = (one(a, "a")?, one(b, "b")?);
    let (Some(&x), Some(&y)) = (a.texts().first(), b.texts().first()) else {
        return Ok(0.0);
    };
    if x.len().max(y.len()) > KEEP_SCRATCH_UP_TO {
        return run_rows(py, 1, || kernels::normalized_distance(measure, x, y));
    }
    Ok(SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => kernels::normalized_distance_with(&mut scratch, measure, x, y),
        Err(_) => kernels::normalized_distance(measure, x, y),
    }))
}

/// The longest string whose buffers a thread keeps for the next one-pair call (64 words: 128 KiB of
/// pattern table).
const KEEP_SCRATCH_UP_TO: usize = 4096;

/// `string_distance` of every row of two equally long lists of `str`, as a float64 array.
#[pyfunction]
fn string_distance_batch<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    measure: &str,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let measure = Measure::parse(measure)?;
    let a = CodePoints::column(a, "a")?;
    let b = CodePoints::column(b, "b")?;
    let (a, b) = (a.texts(), b.texts());
    check_same_length(("a", a.len()), ("b", b.len()))?;
    let distances = run_rows(py, a.len(), || {
        kernels::normalized_distance_batch(measure, a, b)
    })?;
    Ok(to_numpy(py, distances))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(string_distance, m)?)?;
    m.add_function(wrap_pyfunction!(string_distance_batch, m)?)?;
    Ok(())
}
