//! rouge-score 0.1.2 `DefaultTokenizer(use_stemmer)`: Python `str.lower()`, every run of characters
//! outside `[a-z0-9]` becomes a separator, tokens longer than 3 characters are Porter-stemmed
//! (nltk NLTK_EXTENSIONS) when stemming is on.
//!
//! Also an opt-in extension, [`RougeTokenizer::Unicode`], for text the default tokenizer reduces to
//! nothing (Cyrillic, Greek, CJK, accented words split at every accent): see its doc.

use std::borrow::Cow;

use super::unicode::{is_regex_word, py_lower};
use super::{porter, short_key_at};
use crate::error::{Error, Result};

/// How ROUGE turns a text into tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RougeTokenizer {
    /// rouge-score's tokenizer, exactly (the default).
    Default,
    /// rapideval extension, not in rouge-score: after Python `str.lower()`, a token is a maximal run
    /// of word characters of the `regex` module (`\w`: letters, marks, decimal digits; Unicode 17)
    /// other than `_`, except that each Han ideograph, Hiragana or Katakana character is a token of
    /// its own (those scripts do not separate words by spaces). On ASCII text it gives exactly the
    /// default tokens. Stemming applies as in the default (tokens longer than 3 code points).
    Unicode,
}

impl RougeTokenizer {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "default" | "rouge_score" => Ok(RougeTokenizer::Default),
            "unicode" => Ok(RougeTokenizer::Unicode),
            other => Err(Error::InvalidValue(format!(
                "unknown ROUGE tokenizer {other:?}; expected \"default\" (rouge-score) or \"unicode\""
            ))),
        }
    }

    /// Appends the tokens of `text` to `out`.
    pub fn push_tokens(self, text: &str, stem: bool, out: &mut TokenArena) {
        match self {
            RougeTokenizer::Default => push_default(text, stem, out),
            RougeTokenizer::Unicode => push_unicode(text, stem, out),
        }
    }

    /// The tokens of `text` as rouge-score's `tokenize(text, stemmer)` returns them.
    pub fn tokenize(self, text: &str, stem: bool) -> Vec<String> {
        let mut arena = TokenArena::default();
        self.push_tokens(text, stem, &mut arena);
        arena.iter().map(str::to_string).collect()
    }
}

/// The tokens of one or more texts: lower-cased copies of the texts (and the stems of their
/// tokens) in one string, and the byte span of each token in it. Few allocations per text.
#[derive(Debug, Default)]
pub struct TokenArena {
    text: String,
    spans: Vec<(usize, usize)>,
}

impl TokenArena {
    /// Removes all tokens, keeping the memory.
    pub fn clear(&mut self) {
        self.text.clear();
        self.spans.clear();
    }

    /// The bytes the arena can hold without reallocating.
    pub fn capacity(&self) -> usize {
        self.text.capacity()
    }

    /// Token `i` (empty if out of range).
    pub fn get(&self, i: usize) -> &str {
        self.spans
            .get(i)
            .and_then(|&(start, end)| self.text.get(start..end))
            .unwrap_or("")
    }

    /// The [`short_key`](crate::text::short_key) of token `i`, if it has at most 7 bytes.
    pub fn short_key(&self, i: usize) -> Option<u64> {
        let &(start, end) = self.spans.get(i)?;
        short_key_at(self.text.as_bytes(), start, end.checked_sub(start)?)
    }

    /// The number of tokens.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The tokens in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.spans
            .iter()
            .map(|&(start, end)| self.text.get(start..end).unwrap_or(""))
    }

    /// Appends `lower`, ASCII-lower-cased, whose tokens will be added as spans; returns its offset.
    fn push_text(&mut self, lower: &str) -> usize {
        let base = self.text.len();
        self.text.push_str(lower);
        self.text[base..].make_ascii_lowercase();
        base
    }

    /// Adds the token `base + start .. base + end` of a text pushed with `push_text`.
    fn add_span(&mut self, base: usize, start: usize, end: usize) {
        if end > start {
            self.spans.push((base + start, base + end));
        }
    }

    /// Adds the Porter stem of `token` (`len` code points) when it is longer than 3 code points,
    /// else the token ASCII-lower-cased.
    fn push_stemmed(&mut self, token: &str, len: usize) {
        let start = self.text.len();
        if len > 3 {
            porter::stem_into(token, &mut self.text);
        } else {
            self.text.push_str(token);
            self.text[start..].make_ascii_lowercase();
        }
        // rouge-score drops empty tokens.
        if self.text.len() > start {
            self.spans.push((start, self.text.len()));
        }
    }
}

fn push_default(text: &str, stem: bool, out: &mut TokenArena) {
    // After `str.lower()` only ASCII `[a-z0-9]` can be in a token, so tokens are runs of ASCII
    // letters and digits (ASCII text is lower-cased by the arena, without a lowered copy here).
    let lower = if text.is_ascii() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(py_lower(text))
    };
    let base = if stem { 0 } else { out.push_text(&lower) };
    alnum_runs(lower.as_bytes(), |start, end| {
        if stem {
            out.push_stemmed(&lower[start..end], end - start);
        } else {
            out.add_span(base, start, end);
        }
    });
}

/// Calls `f(start, end)` for each maximal run of ASCII letters and digits, in order. Works on
/// 64-byte blocks: a bit mask of the letters and digits, whose changes (set bits of
/// `mask ^ (mask << 1)`) are the run boundaries; this avoids a mispredicted branch per boundary.
fn alnum_runs(bytes: &[u8], mut f: impl FnMut(usize, usize)) {
    let mut start = 0;
    let mut in_run = false;
    for (block, chunk) in bytes.chunks(64).enumerate() {
        let mask = chunk
            .chunks(8)
            .enumerate()
            .fold(0u64, |m, (k, word)| m | alnum8(word) << (8 * k));
        let mut changes =
            (mask ^ (mask << 1 | u64::from(in_run))) & (u64::MAX >> (64 - chunk.len()));
        while changes != 0 {
            let k = changes.trailing_zeros() as usize;
            if mask >> k & 1 == 1 {
                start = block * 64 + k;
            } else {
                f(start, block * 64 + k);
            }
            changes &= changes - 1;
        }
        in_run = mask >> (chunk.len() - 1) & 1 == 1;
    }
    if in_run {
        f(start, bytes.len());
    }
}

/// Bit k set when byte k of `word` (at most 8 bytes) is an ASCII letter or digit, computed on the
/// 8 bytes at once (SWAR): per-byte range tests by addition into the high bit of each byte.
fn alnum8(word: &[u8]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let x = match <[u8; 8]>::try_from(word) {
        Ok(eight) => u64::from_le_bytes(eight),
        Err(_) => {
            let mut buf = [0u8; 8];
            buf.iter_mut().zip(word).for_each(|(b, &w)| *b = w);
            u64::from_le_bytes(buf)
        }
    };
    let low7 = x & !HIGH;
    // High bit of each byte set where the (7-bit) byte is >= lo, resp. > hi: no carry crosses bytes.
    let at_least = |v: u64, lo: u8| (v + u64::from(0x80 - lo) * ONES) & HIGH;
    let above = |v: u64, hi: u8| (v + u64::from(0x7f - hi) * ONES) & HIGH;
    let folded = low7 | (0x20 * ONES); // A-Z to a-z
    let digit = at_least(low7, b'0') & !above(low7, b'9');
    let letter = at_least(folded, b'a') & !above(folded, b'z');
    let flags = (digit | letter) & !x & HIGH;
    // Gather the high bit of byte k into bit k.
    ((flags >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) & !(u64::MAX << word.len().min(8))
}

/// Scripts written without spaces between words: one token per character.
fn is_single_char_token(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FDF      // CJK and Kangxi radicals
        | 0x3005..=0x3007    // 々 〆 〇
        | 0x3021..=0x3029    // Hangzhou numerals
        | 0x3038..=0x303C
        | 0x3040..=0x30FF    // Hiragana, Katakana
        | 0x31F0..=0x31FF    // Katakana phonetic extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF66..=0xFF9F    // halfwidth Katakana
        | 0x20000..=0x3FFFF) // CJK extensions B and later
}

fn push_unicode(text: &str, stem: bool, out: &mut TokenArena) {
    let lower = py_lower(text);
    let base = if stem { 0 } else { out.push_text(&lower) };
    let mut add = |s: usize, e: usize, len: usize| {
        if stem {
            out.push_stemmed(&lower[s..e], len);
        } else {
            out.add_span(base, s, e);
        }
    };
    let (mut start, mut len) = (0, 0);
    for (i, c) in lower.char_indices() {
        let single = is_single_char_token(c);
        if single || !is_regex_word(c) || c == '_' {
            if len > 0 {
                add(start, i, len);
            }
            start = i + c.len_utf8();
            len = 0;
            if single && is_regex_word(c) {
                add(i, start, 1);
            }
        } else {
            len += 1;
        }
    }
    if len > 0 {
        add(start, lower.len(), len);
    }
}

#[cfg(test)]
mod tests {
    use super::RougeTokenizer::{Default, Unicode};

    #[test]
    fn default_tokens() {
        assert_eq!(Default.tokenize("can't", false), ["can", "t"]);
        assert_eq!(Default.tokenize("İstanbul", false), ["i", "stanbul"]);
        assert_eq!(Default.tokenize("café naïve", true), ["caf", "na", "ve"]);
        assert_eq!(
            Default.tokenize("Привет, мир!", false),
            Vec::<String>::new()
        );
        assert_eq!(Default.tokenize("<skipped>", true), ["skip"]);
        assert_eq!(
            Default.tokenize("running happily", true),
            ["run", "happili"]
        );
        assert_eq!(Default.tokenize("\u{212a}", false), ["k"]);
    }

    #[test]
    fn swar_mask_equals_bytewise_test() {
        let bytes: Vec<u8> = (0..=255u8)
            .chain(b"aZ09 _-x\x80\xffq".iter().copied())
            .collect();
        for start in 0..bytes.len() {
            for len in 0..=8 {
                let Some(word) = bytes.get(start..start + len) else {
                    continue;
                };
                let want = word.iter().enumerate().fold(0u64, |m, (k, b)| {
                    m | u64::from(b.is_ascii_alphanumeric()) << k
                });
                assert_eq!(super::alnum8(word), want, "{word:?}");
            }
        }
    }

    #[test]
    fn unicode_tokens() {
        assert_eq!(Unicode.tokenize("Привет, мир!", false), ["привет", "мир"]);
        assert_eq!(
            Unicode.tokenize("日本語です。", false),
            ["日", "本", "語", "で", "す"]
        );
        assert_eq!(
            Unicode.tokenize("café_naïve x²", false),
            ["café", "naïve", "x"]
        );
        assert_eq!(Unicode.tokenize("Running fast", true), ["run", "fast"]);
    }
}
