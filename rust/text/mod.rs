//! Tokenizers and normalisers: pure functions over `&str`, each reproducing one reference exactly.

pub mod nist;
pub mod nltk_word;
pub mod punkt;
pub mod route;
pub mod sacrebleu;
pub mod squad;
pub mod ter_tokenize;
pub mod unicode;
mod unicode_tables;

use crate::error::{Error, Result};

/// The tokenizers a metric can be asked to use, by the names the Python API takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tokenizer {
    /// promptflow-evals 0.3.5 `nltk_tokenize`: word_tokenize for Latin-1 printable text, else NIST.
    Promptflow,
    /// azure-ai-evaluation `nltk_tokenize`: word_tokenize for ASCII text, else NIST.
    Azure,
    /// nltk 3.10.4 `word_tokenize` (Punkt english + NLTKWordTokenizer).
    Word,
    /// nltk `NISTTokenizer().international_tokenize`.
    NistInternational,
    /// sacrebleu 2.6.0 `13a`, split on whitespace.
    Sacrebleu13a,
    /// sacrebleu 2.6.0 `intl`, split on whitespace.
    SacrebleuIntl,
    /// Python `str.split()`.
    Whitespace,
}

impl Tokenizer {
    pub fn from_name(name: &str) -> Result<Self> {
        Ok(match name {
            "promptflow" => Tokenizer::Promptflow,
            "azure" => Tokenizer::Azure,
            "word" | "nltk" => Tokenizer::Word,
            "nist" | "nist_international" => Tokenizer::NistInternational,
            "13a" | "sacrebleu_13a" => Tokenizer::Sacrebleu13a,
            "intl" | "sacrebleu_intl" => Tokenizer::SacrebleuIntl,
            "whitespace" | "split" => Tokenizer::Whitespace,
            other => {
                return Err(Error::InvalidValue(format!(
                    "unknown tokenizer {other:?}; expected one of promptflow, azure, word, \
                     nist_international, sacrebleu_13a, sacrebleu_intl, whitespace"
                )))
            }
        })
    }

    pub fn tokenize(self, text: &str) -> Vec<String> {
        match self {
            Tokenizer::Promptflow => route::promptflow_tokenize(text),
            Tokenizer::Azure => route::azure_tokenize(text),
            Tokenizer::Word => nltk_word::word_tokenize(text),
            Tokenizer::NistInternational => nist::international_tokenize(text),
            Tokenizer::Sacrebleu13a => split_owned(&sacrebleu::tokenize_13a(text)),
            Tokenizer::SacrebleuIntl => split_owned(&sacrebleu::tokenize_intl(text)),
            Tokenizer::Whitespace => split_owned(text),
        }
    }
}

fn split_owned(s: &str) -> Vec<String> {
    unicode::py_split(s).map(str::to_string).collect()
}
