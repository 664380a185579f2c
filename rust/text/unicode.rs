//! Character classes and string operations with the exact semantics of the reference interpreter.
//!
//! Rust's `char` methods follow a different Unicode version than CPython 3.11 (Unicode 14) and the
//! `regex` module (Unicode 17), so tokenizers must use these functions and never `char::is_*`,
//! `str::to_lowercase`, `str::split_whitespace` or `str::trim`.

use super::unicode_tables as t;
use crate::error::{room, Result};

fn in_table(c: char, table: &[(u32, u32)]) -> bool {
    let c = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// `str.isspace()` (Python-whitespace): what `str.split()` and `str.strip()` use.
#[inline]
pub fn is_py_space(c: char) -> bool {
    if c.is_ascii() {
        is_ascii_py_space(c as u8)
    } else {
        in_table(c, t::PY_SPACE)
    }
}

/// [`is_py_space`] of a byte below 128 (false for the others).
#[inline]
pub const fn is_ascii_py_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x1c..=0x1f)
}

/// `str.isupper()` of a single code point.
#[inline]
pub fn is_py_upper(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_uppercase()
    } else {
        in_table(c, t::PY_UPPER)
    }
}

/// `str.islower()` of a single code point.
#[inline]
pub fn is_py_lower(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_lowercase()
    } else {
        in_table(c, t::PY_LOWER)
    }
}

/// stdlib `re` `\w` on a str pattern: `str.isalnum()` or `_`.
#[inline]
pub fn is_re_word(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c == '_'
    } else {
        in_table(c, t::RE_WORD)
    }
}

/// `regex` module `\s` (Unicode White_Space: Python-whitespace minus U+001C..U+001F).
#[inline]
pub fn is_regex_space(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
    } else {
        in_table(c, t::REGEX_SPACE)
    }
}

/// `regex` module `\w`.
#[inline]
pub fn is_regex_word(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c == '_'
    } else {
        in_table(c, t::REGEX_WORD)
    }
}

/// `regex` module `\d` (Decimal_Number).
#[inline]
pub fn is_regex_digit(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_table(c, t::REGEX_DIGIT)
    }
}

/// `regex` module `\p{P}`.
#[inline]
pub fn is_regex_punct(c: char) -> bool {
    in_table(c, t::REGEX_P)
}

/// `regex` module `\p{N}`.
#[inline]
pub fn is_regex_number(c: char) -> bool {
    in_table(c, t::REGEX_N)
}

/// `regex` module `\p{S}`.
#[inline]
pub fn is_regex_symbol(c: char) -> bool {
    in_table(c, t::REGEX_S)
}

/// Member of perluniprops `Number.txt` (NISTTokenizer's NUM; not `\p{N}`: no ASCII digits).
#[inline]
pub fn is_nist_number(c: char) -> bool {
    in_table(c, t::NIST_NUMBER)
}

/// Member of perluniprops `Punctuation.txt` (NISTTokenizer's PUNCT).
#[inline]
pub fn is_nist_punct(c: char) -> bool {
    in_table(c, t::NIST_PUNCT)
}

/// Member of perluniprops `Symbol.txt` (NISTTokenizer's SYM).
#[inline]
pub fn is_nist_symbol(c: char) -> bool {
    in_table(c, t::NIST_SYMBOL)
}

fn push_lower(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
        return;
    }
    match t::PY_LOWER_MAP.binary_search_by_key(&(c as u32), |&(k, _)| k) {
        Ok(i) => out.push_str(t::PY_LOWER_MAP[i].1),
        Err(_) => out.push(c),
    }
}

/// CPython's final-sigma test: a cased letter before (skipping case-ignorables) and none after.
fn is_final_sigma(chars: &[char], i: usize) -> bool {
    let before = chars[..i]
        .iter()
        .rev()
        .find(|&&c| !in_table(c, t::SIGMA_IGNORABLE));
    let after = chars[i + 1..]
        .iter()
        .find(|&&c| !in_table(c, t::SIGMA_IGNORABLE));
    before.is_some_and(|&c| in_table(c, t::SIGMA_CASED))
        && !after.is_some_and(|&c| in_table(c, t::SIGMA_CASED))
}

/// `str.lower()` of CPython 3.11, multi-code-point expansions (`İ`) and final sigma included.
pub fn py_lower(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    if s.is_ascii() {
        out.push_str(s);
        out.make_ascii_lowercase();
        return out;
    }
    if !s.contains('\u{03A3}') {
        for c in s.chars() {
            push_lower(c, &mut out);
        }
        return out;
    }
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '\u{03A3}' && is_final_sigma(&chars, i) {
            out.push('\u{03C2}');
        } else {
            push_lower(c, &mut out);
        }
    }
    out
}

/// `str.split()` with no argument: runs of Python-whitespace, empty pieces dropped.
pub fn py_split(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_py_space).filter(|w| !w.is_empty())
}

/// Bit k set when byte k of `word` (ASCII, at most 8 bytes) is not whitespace. Python's ASCII
/// whitespace is 9..=13 and 28..=32; both ranges are tested on the 8 bytes at once (SWAR: range
/// tests by addition into the high bit of each byte, which no carry crosses below 128).
fn non_space8(word: &[u8]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut buf = [0u8; 8];
    buf.iter_mut().zip(word).for_each(|(b, &w)| *b = w & 0x7f);
    let x = u64::from_le_bytes(buf);
    let at_least = |lo: u8| (x + u64::from(0x80 - lo) * ONES) & HIGH;
    let above = |hi: u8| (x + u64::from(0x7f - hi) * ONES) & HIGH;
    let space = (at_least(9) & !above(13)) | (at_least(28) & !above(32));
    // Gather the high bit of byte k into bit k.
    let kept = (!space & HIGH) >> 7;
    (kept.wrapping_mul(0x0102_0408_1020_4080) >> 56) & !(u64::MAX << word.len().min(8))
}

/// Bit k set when byte k of `block` (ASCII, at most 64 bytes) is not whitespace.
pub fn ascii_non_space_mask(block: &[u8]) -> u64 {
    block
        .chunks(8)
        .enumerate()
        .fold(0u64, |m, (k, w)| m | non_space8(w) << (8 * k))
}

/// The words of `s.split()`, or `Error::Memory` if there is not the memory for their list (a
/// word and the space after it take two bytes or more, so the list never grows past its room).
pub fn py_words(s: &str) -> Result<Vec<&str>> {
    let mut words = Vec::new();
    room(&mut words, s.len() / 2 + 1, "the words")?;
    for_each_py_word(s, |word| words.push(word));
    Ok(words)
}

/// Calls `f` with each word of `s.split()`, in order. ASCII text is read in blocks of 64 bytes
/// (see [`AsciiWords`]); other text through [`py_split`].
pub fn for_each_py_word<'a>(s: &'a str, mut f: impl FnMut(&'a str)) {
    if !s.is_ascii() {
        return py_split(s).for_each(f);
    }
    let mut words = AsciiWords::default();
    for (block, chunk) in s.as_bytes().chunks(64).enumerate() {
        words.block(s, block, chunk.len(), ascii_non_space_mask(chunk), &mut f);
    }
    words.finish(s, f);
}

/// The words of `str.split()` of an ASCII line, from the non-space masks of its 64-byte blocks
/// taken in order: the changes of a mask are the word boundaries, so that no branch depends on a
/// byte (a byte loop would mispredict its exit at the end of almost every word).
#[derive(Default)]
pub struct AsciiWords {
    start: usize,
    in_word: bool,
}

impl AsciiWords {
    /// Block `block` (`len` bytes, non-space `mask`) of `line`: calls `f` with each word it ends.
    pub fn block<'a>(
        &mut self,
        line: &'a str,
        block: usize,
        len: usize,
        mask: u64,
        mut f: impl FnMut(&'a str),
    ) {
        let len = len.clamp(1, 64);
        let all = u64::MAX >> (64 - len);
        let mut changes = (mask ^ (mask << 1 | u64::from(self.in_word))) & all;
        while changes != 0 {
            let at = block * 64 + changes.trailing_zeros() as usize;
            if mask >> (at % 64) & 1 == 1 {
                self.start = at;
            } else {
                f(line.get(self.start..at).unwrap_or(""));
            }
            changes &= changes - 1;
        }
        self.in_word = mask >> (len - 1) & 1 == 1;
    }

    /// The line's last word, if the line ends inside one.
    pub fn finish<'a>(self, line: &'a str, f: impl FnOnce(&'a str)) {
        if self.in_word {
            f(line.get(self.start..).unwrap_or(""));
        }
    }
}

/// `str.strip()` with no argument.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// `str.rstrip()` with no argument.
pub fn py_rstrip(s: &str) -> &str {
    s.trim_end_matches(is_py_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_matches_cpython_examples() {
        assert_eq!(py_lower("İstanbul"), "i\u{307}stanbul");
        assert_eq!(py_lower("\u{212A}"), "k");
        assert_eq!(py_lower("ΟΔΟΣ"), "οδος");
        assert_eq!(py_lower("ΟΔΟΣ Α"), "οδος α");
        assert_eq!(py_lower("Σ"), "σ");
        assert_eq!(py_lower("ΑΣΑ"), "ασα");
        assert_eq!(py_lower("straße"), "straße");
    }

    #[test]
    fn whitespace_flavours_differ_on_information_separators() {
        assert!(is_py_space('\x1c') && !is_regex_space('\x1c'));
        assert!(is_py_space('\u{a0}') && is_regex_space('\u{a0}'));
        assert_eq!(
            py_split(" a\u{3000}b\x1fc ").collect::<Vec<_>>(),
            ["a", "b", "c"]
        );
    }

    #[test]
    fn ascii_whitespace_mask_equals_the_byte_test() {
        let bytes: Vec<u8> = (0..128u8).chain(*b"a b\tc\x1c").collect();
        for word in bytes.windows(8).chain(bytes.chunks(3)) {
            let want = word
                .iter()
                .enumerate()
                .fold(0u64, |m, (k, &b)| m | u64::from(!is_ascii_py_space(b)) << k);
            assert_eq!(non_space8(word), want, "{word:?}");
        }
    }

    #[test]
    fn block_split_agrees_with_a_char_by_char_split() {
        let reference = |s: &str| -> Vec<String> {
            s.split(is_py_space)
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect()
        };
        let pieces = [
            "a", "bc", " ", "  ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1f", "\x00", "\x01",
            "\x1b", "!", "~", "\x7f", "é", "\u{a0}", "\u{3000}", "\u{2028}", "word", "x",
        ];
        let mut state = 12345u64;
        for _ in 0..20000 {
            let mut text = String::new();
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let n = (state >> 33) % 200;
            for _ in 0..n {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let plain = (state >> 60) < 14;
                let k = (state >> 33) as usize % if plain { 6 } else { pieces.len() };
                text.push_str(pieces[if plain { [0, 1, 2, 2, 21, 22][k] } else { k }]);
            }
            let mut each = Vec::new();
            for_each_py_word(&text, |w| each.push(w));
            assert_eq!(each, reference(&text), "{text:?}");
        }
    }

    #[test]
    fn word_flavours_differ_on_superscripts() {
        assert!(is_re_word('²') && !is_regex_word('²'));
        assert!(!is_nist_number('1') && is_nist_number('a'));
    }
}
