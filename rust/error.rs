//! The one error type of the crate; the PyO3 layer maps it to Python exceptions in one place.

use std::fmt;

/// The class of the exception a reference library raises (the message is the error's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PyExc {
    Assertion,
    Index,
    Key,
    ZeroDivision,
    Overflow,
    Value,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A value is outside what the metric accepts (maps to `ValueError`).
    InvalidValue(String),
    /// The reference library raises here (e.g. nltk BLEU method6 with zero trigram precision): the
    /// class of its exception and its exact message.
    Reference(PyExc, String),
    /// A buffer whose size comes from the input could not be allocated (maps to `MemoryError`).
    Memory(String),
}

impl Error {
    /// The reference's `exception(message)`.
    pub(crate) fn reference(exception: PyExc, message: impl Into<String>) -> Error {
        Error::Reference(exception, message.into())
    }

    /// This error as the error of row `row` of a batch: its message after `row {row}: `, a
    /// `MemoryError` still, any other error a `ValueError` (a batch raises no reference-specific
    /// class: every row's failure reads the same).
    pub fn in_row(self, row: usize) -> Error {
        match self {
            Error::Memory(m) => Error::Memory(format!("row {row}: {m}")),
            e => Error::InvalidValue(format!("row {row}: {e}")),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidValue(m) | Error::Reference(_, m) | Error::Memory(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// `len` copies of `value`, or `Error::Memory` naming `what`: a buffer whose size comes from the
/// input is allocated fallibly, as a failed allocation would end the process.
pub fn filled<T: Clone>(len: usize, value: T, what: &str) -> Result<Vec<T>> {
    let mut out = with_room(len, what)?;
    out.resize(len, value);
    Ok(out)
}

/// A number type whose value zero is all zero bits.
///
/// # Safety
/// An all-zero bit pattern must be a valid value of the type.
pub unsafe trait Zeroed: Copy {}

// SAFETY (all): zero bits are the number 0 (or 0.0).
unsafe impl Zeroed for f32 {}
unsafe impl Zeroed for f64 {}
unsafe impl Zeroed for i64 {}
unsafe impl Zeroed for u64 {}

/// `len` zeros, or `Error::Memory` naming `what` (see [`filled`]). The memory comes zeroed from the
/// allocator (fresh pages are zero already), not written: a large buffer costs nothing until used.
pub fn zeroed<T: Zeroed>(len: usize, what: &str) -> Result<Vec<T>> {
    let too_large = || {
        Error::Memory(format!(
            "cannot allocate {what} ({len} values of {} bytes)",
            std::mem::size_of::<T>()
        ))
    };
    let layout = std::alloc::Layout::array::<T>(len).map_err(|_| too_large())?;
    if layout.size() == 0 {
        return Ok(vec![]);
    }
    // SAFETY: the layout has a non-zero size.
    let data = unsafe { std::alloc::alloc_zeroed(layout) };
    if data.is_null() {
        return Err(too_large());
    }
    // SAFETY: `data` was allocated by the global allocator with the layout of `len` values of `T`,
    // all of them initialised (zero bits are a `T`, see `Zeroed`).
    Ok(unsafe { Vec::from_raw_parts(data.cast::<T>(), len, len) })
}

/// An empty vector with room for `len` items, or `Error::Memory` naming `what` (see [`filled`]).
pub fn with_room<T>(len: usize, what: &str) -> Result<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(len).map_err(|_| {
        Error::Memory(format!(
            "cannot allocate {what} ({len} values of {} bytes)",
            std::mem::size_of::<T>()
        ))
    })?;
    Ok(out)
}

/// Makes `v` hold `len` copies of `value` (its old items dropped), reusing its buffer when it is
/// large enough; `Error::Memory` naming `what` when a larger one cannot be allocated.
pub fn refill<T: Clone>(v: &mut Vec<T>, len: usize, value: T, what: &str) -> Result<()> {
    v.clear();
    room(v, len, what)?;
    v.resize(len, value);
    Ok(())
}

/// Makes room in `v` for `more` items beyond its length (see [`refill`]).
pub fn room<T>(v: &mut Vec<T>, more: usize, what: &str) -> Result<()> {
    v.try_reserve(more).map_err(|_| {
        Error::Memory(format!(
            "cannot allocate {what} ({} values of {} bytes)",
            v.len().saturating_add(more),
            std::mem::size_of::<T>()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_that_cannot_be_allocated_are_errors() {
        assert_eq!(filled(3, 7u8, "x"), Ok(vec![7, 7, 7]));
        let huge = filled(usize::MAX / 2, 0u64, "the null distribution");
        assert!(matches!(huge, Err(Error::Memory(m)) if m.starts_with("cannot allocate the null")));
        assert!(with_room::<u64>(1 << 62, "x").is_err());
        assert_eq!(zeroed::<f64>(3, "x"), Ok(vec![0.0; 3]));
        assert_eq!(zeroed::<i64>(0, "x"), Ok(vec![]));
        assert!(matches!(
            zeroed::<f32>(usize::MAX / 2, "x"),
            Err(Error::Memory(_))
        ));
        assert!(matches!(zeroed::<f32>(1 << 60, "x"), Err(Error::Memory(_))));
        let mut v = vec![1u32; 4];
        assert_eq!(refill(&mut v, 2, 9, "x"), Ok(()));
        assert_eq!(v, [9, 9]);
        assert!(
            matches!(refill(&mut v, usize::MAX / 8, 0, "the table"), Err(Error::Memory(m)) if m.contains("the table"))
        );
        assert!(room(&mut v, usize::MAX / 8, "x").is_err());
    }
}
