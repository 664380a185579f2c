//! The one error type of the crate; the PyO3 layer maps it to Python exceptions in one place.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A value is outside what the metric accepts (maps to `ValueError`).
    InvalidValue(String),
    /// The reference library raises here (e.g. nltk BLEU method6 with zero trigram precision);
    /// carries the reference's message (maps to `ValueError`).
    Reference(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidValue(m) | Error::Reference(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
