//! Tokenizers and normalisers: pure functions over `&str`, each reproducing one reference exactly.

pub mod nist;
pub mod nltk_word;
pub mod porter;
pub mod punkt;
pub mod rouge_tokenize;
pub mod route;
pub mod sacrebleu;
pub mod squad;
pub mod ter_tokenize;
pub mod unicode;
mod unicode_tables;

use crate::error::{room, Error, Result};

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
        let mut tokens = Tokens::default();
        self.tokenize_into(text, &mut tokens);
        tokens.to_strings()
    }

    /// Tokenizes a response and its references and runs `f` on the token lists; `Error::Memory`
    /// if there is not the memory for them.
    pub fn with_segment<O>(
        self,
        response: &str,
        references: &[&str],
        f: impl FnOnce(&[&str], &[Vec<&str>]) -> Result<O>,
    ) -> Result<O> {
        let tokenize = |text: &str| {
            let mut tokens = Tokens::with_capacity(text.len());
            self.tokenize_into(text, &mut tokens);
            tokens.complete().map(|()| tokens)
        };
        let hypothesis = tokenize(response)?;
        let references = references
            .iter()
            .map(|r| tokenize(r))
            .collect::<Result<Vec<Tokens>>>()?;
        let hypothesis = hypothesis.listed()?;
        let references = references
            .iter()
            .map(Tokens::listed)
            .collect::<Result<Vec<_>>>()?;
        f(&hypothesis, &references)
    }

    /// The tokens of `text`, appended to `out`.
    pub fn tokenize_into(self, text: &str, out: &mut Tokens) {
        match self {
            Tokenizer::Promptflow => route::promptflow_tokenize_into(text, out),
            Tokenizer::Azure => route::azure_tokenize_into(text, out),
            Tokenizer::Word => nltk_word::word_tokenize_into(text, out),
            Tokenizer::NistInternational => nist::international_tokenize_into(text, out),
            Tokenizer::Sacrebleu13a => out.extend_split(&sacrebleu::pad_13a(text)),
            Tokenizer::SacrebleuIntl => out.extend_split(&sacrebleu::pad_intl(text)),
            Tokenizer::Whitespace => out.extend_split(text),
        }
    }
}

/// A token of at most 7 bytes packed in a `u64`: its bytes, little-endian, and its length in the
/// top byte; equal keys are equal tokens. Token lengths vary unpredictably, so the bytes are read
/// by a fixed seven steps, each selecting the byte or a zero without a branch.
pub fn short_key(b: &[u8]) -> Option<u64> {
    static ZERO: u8 = 0;
    let n = b.len();
    if n > 7 {
        return None;
    }
    let mut key = (n as u64) << 56;
    for k in 0..7 {
        key |= u64::from(*b.get(k).unwrap_or(&ZERO)) << (8 * k);
    }
    Some(key)
}

/// The [`short_key`] of the `len` bytes of `text` from `start`. Where `text` has 8 bytes around
/// them (all but the shortest texts), one load and a mask or a shift, whatever the length.
#[inline(always)]
pub fn short_key_at(text: &[u8], start: usize, len: usize) -> Option<u64> {
    if len >= 8 {
        return None;
    }
    let eight = |at: usize| {
        let bytes = text.get(at..at.wrapping_add(8))?;
        <[u8; 8]>::try_from(bytes).ok().map(u64::from_le_bytes)
    };
    match eight(start) {
        Some(x) => Some(x & ((1u64 << (8 * len)) - 1) | (len as u64) << 56),
        // Near the end of the text: the 8 bytes that end with the token.
        None => match eight((start + len).wrapping_sub(8)) {
            Some(x) => Some(short_key_ending(x, len)),
            None => short_key(text.get(start..start.checked_add(len)?)?),
        },
    }
}

/// The [`short_key`] of the last `len` (below 8) of 8 little-endian bytes `x`.
#[inline(always)]
pub fn short_key_ending(x: u64, len: usize) -> u64 {
    x.checked_shr(8 * (8 - len) as u32).unwrap_or(0) | (len as u64) << 56
}

/// The key of a longer token, from its hash: top byte 0xFF, so never a [`short_key`]. Equal keys
/// need a comparison of the tokens.
pub fn long_key(hash: u64) -> u64 {
    hash | 0xFF << 56
}

/// A list of tokens stored back to back in one string: filling it costs no allocation per token.
/// Its room is allocated fallibly: a token that finds no memory is left out and the list marked
/// incomplete (see [`Tokens::complete`]), as a failed allocation would end the process.
#[derive(Debug, Default, Clone)]
pub struct Tokens {
    text: String,
    ends: Vec<usize>,
    incomplete: bool,
}

impl Tokens {
    /// Room for the tokens of a text of `len` bytes (about one token per four bytes of prose).
    pub fn with_capacity(len: usize) -> Tokens {
        let mut tokens = Tokens::default();
        tokens.incomplete = tokens.text.try_reserve(len + len / 8).is_err()
            || tokens.ends.try_reserve(len / 4 + 1).is_err();
        tokens
    }

    #[inline]
    pub fn push(&mut self, token: &str) {
        if self.text.try_reserve(token.len()).is_err() || self.ends.try_reserve(1).is_err() {
            self.incomplete = true;
            return;
        }
        self.text.push_str(token);
        self.ends.push(self.text.len());
    }

    /// Marks the list as lacking tokens that found no memory.
    pub fn mark_incomplete(&mut self) {
        self.incomplete = true;
    }

    /// `Error::Memory` if a token found no memory (the list then lacks it).
    pub fn complete(&self) -> Result<()> {
        match self.incomplete {
            true => Err(Error::Memory(
                "cannot allocate the tokens of the text (not enough memory)".to_string(),
            )),
            false => Ok(()),
        }
    }

    /// Appends the words of `s` (`s.split()`).
    pub fn extend_split(&mut self, s: &str) {
        unicode::for_each_py_word(s, |word| self.push(word));
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let token = self.text.get(start..end).unwrap_or("");
            start = end;
            token
        })
    }

    /// Token `i` ("" past the end).
    pub fn get(&self, i: usize) -> &str {
        let start = match i.checked_sub(1) {
            Some(previous) => self.ends.get(previous).copied().unwrap_or(0),
            None => 0,
        };
        let end = self.ends.get(i).copied().unwrap_or(start);
        self.text.get(start..end).unwrap_or("")
    }

    /// The tokens as a list of `&str`, or `Error::Memory`.
    pub fn listed(&self) -> Result<Vec<&str>> {
        let mut list = Vec::new();
        room(&mut list, self.len(), "the tokens")?;
        list.extend(self.iter());
        Ok(list)
    }

    pub fn to_strings(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn short_keys_in_place_are_the_tokens_short_keys() {
        for a in 0..=255u8 {
            for b in [0u8, b'A', b'a', 0x7f, 0x80, 0xff] {
                for token in [
                    &[][..],
                    &[a],
                    &[a, b],
                    &[b, a, b'x'],
                    &[b'x', b, a, b'Q', a, b, a],
                ] {
                    let n = token.len();
                    // The token alone, then with text after it, before it, around it: every way
                    // of reading it (from its start, ending with it, neither).
                    for (before, after) in [(0, 0), (0, 9), (9, 0), (3, 3), (1, 1)] {
                        let mut text = vec![b'_'; before];
                        text.extend_from_slice(token);
                        text.extend(std::iter::repeat_n(b'_', after));
                        assert_eq!(short_key_at(&text, before, n), short_key(token));
                    }
                }
            }
        }
        assert_eq!(short_key_at(b"abcdefghij", 1, 8), None);
        assert_eq!(short_key_at(b"abc", 2, 2), None);
    }

    #[test]
    fn short_keys_are_distinct_exactly_for_distinct_tokens() {
        // Every byte string of up to 7 bytes over an alphabet with zero and 0xFF bytes (a zero
        // byte must not look like a shorter token), plus a longer one that gets no key.
        let alphabet = [0u8, 1, b'a', 0xFF];
        let mut seen: HashMap<u64, Vec<u8>> = HashMap::new();
        let mut tokens: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..7 {
            let longer: Vec<Vec<u8>> = tokens
                .iter()
                .filter(|t| t.len() == tokens.last().map_or(0, Vec::len))
                .flat_map(|t| {
                    alphabet.iter().map(move |&b| {
                        let mut u = t.clone();
                        u.push(b);
                        u
                    })
                })
                .collect();
            tokens.extend(longer);
        }
        for token in &tokens {
            let key = short_key(token).expect("at most 7 bytes");
            assert_eq!(key >> 56, token.len() as u64);
            if let Some(other) = seen.insert(key, token.clone()) {
                panic!("{token:?} and {other:?} share a key");
            }
        }
        assert_eq!(seen.len(), (0..=7).map(|n| 4usize.pow(n)).sum::<usize>());
        assert_eq!(short_key(b"eight by"), None);
    }
}
