//! sacrebleu 2.6.0 tokenizers `13a` (mteval-v13a, stdlib `re`), `intl` (mteval-v14 international,
//! `regex` module classes), `char` and `none`: each maps a line to a space-joined token string.

use std::borrow::Cow;

use super::unicode::{for_each_py_word, is_regex_number, is_regex_punct, is_regex_symbol};
use crate::error::{Error, Result};

/// `Tokenizer13a()(line)`.
pub fn tokenize_13a(line: &str) -> String {
    join_words(&pad_13a(line))
}

/// `Tokenizer13a()(line)` before its final `" ".join(line.split())`: the same tokens, split on
/// whitespace.
///
/// Its patterns only look at ASCII bytes (`[^0-9]` is any other byte), so the passes run over
/// UTF-8 bytes; `.`, `,` and `-` never occur inside a multi-byte character.
pub fn pad_13a(line: &str) -> String {
    let mut line = Cow::Borrowed(line);
    if line.contains("<skipped>") {
        line = Cow::Owned(line.replace("<skipped>", ""));
    }
    if line.contains('\n') {
        line = Cow::Owned(line.replace("-\n", "").replace('\n', " "));
    }
    if line.contains('&') {
        for (entity, ch) in [
            ("&quot;", "\""),
            ("&amp;", "&"),
            ("&lt;", "<"),
            ("&gt;", ">"),
        ] {
            if line.contains(entity) {
                line = Cow::Owned(line.replace(entity, ch));
            }
        }
    }
    // f" {line} " with the 13a punctuation padded, ` \1 `. Spaces are left unpadded: the pair
    // patterns below treat a run of spaces like one space, and the result is split on whitespace.
    let mut text = Vec::with_capacity(2 * line.len() + 2);
    text.push(b' ');
    let bytes = line.as_bytes();
    let mut copied = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if PADDED_13A[usize::from(b)] {
            text.extend_from_slice(bytes.get(copied..i).unwrap_or_default());
            text.extend_from_slice(&[b' ', b, b' ']);
            copied = i + 1;
        }
    }
    text.extend_from_slice(bytes.get(copied..).unwrap_or_default());
    text.push(b' ');
    let mut spare = Vec::with_capacity(text.len() + 16);
    let has = |text: &[u8], f: fn(&u8) -> bool| text.iter().any(f);
    if has(&text, |b| matches!(b, b'.' | b',')) {
        split_before_period_comma(&text, &mut spare);
        std::mem::swap(&mut text, &mut spare);
        spare.clear();
        split_after_period_comma(&text, &mut spare);
        std::mem::swap(&mut text, &mut spare);
        spare.clear();
    }
    if has(&text, |&b| b == b'-') {
        split_dash_after_digit(&text, &mut spare);
        std::mem::swap(&mut text, &mut spare);
    }
    // Only ASCII bytes were inserted, next to ASCII bytes: the text is still UTF-8.
    String::from_utf8(text).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn is_period_comma(b: u8) -> bool {
    b == b'.' || b == b','
}

/// Position of the first byte at or after `from` that satisfies `f`.
fn find(text: &[u8], from: usize, f: impl Fn(u8) -> bool) -> Option<usize> {
    Some(from + text.get(from..)?.iter().position(|&b| f(b))?)
}

/// `([^0-9])([\.,])` → `\1 \2 `. Every match ends at a period or comma, so the scan jumps to them.
fn split_before_period_comma(text: &[u8], out: &mut Vec<u8>) {
    let (mut at, mut copied) = (0, 0);
    while let Some(k) = find(text, at + 1, is_period_comma) {
        if text[k - 1].is_ascii_digit() {
            // No match ends here; the next one may start at this period or comma.
            at = k;
            continue;
        }
        out.extend_from_slice(&text[copied..k]);
        out.extend_from_slice(&[b' ', text[k], b' ']);
        copied = k + 1;
        at = k + 1;
    }
    out.extend_from_slice(&text[copied..]);
}

/// `([\.,])([^0-9])` → ` \1 \2`.
fn split_after_period_comma(text: &[u8], out: &mut Vec<u8>) {
    let (mut at, mut copied) = (0, 0);
    while let Some(k) = find(text, at, is_period_comma) {
        match text.get(k + 1) {
            Some(&next) if !next.is_ascii_digit() => {
                out.extend_from_slice(&text[copied..k]);
                out.extend_from_slice(&[b' ', text[k], b' ', next]);
                copied = k + 2;
                at = k + 2;
            }
            _ => at = k + 1,
        }
    }
    out.extend_from_slice(&text[copied..]);
}

/// `([0-9])(-)` → `\1 \2 `.
fn split_dash_after_digit(text: &[u8], out: &mut Vec<u8>) {
    let (mut at, mut copied) = (0, 0);
    while let Some(k) = find(text, at + 1, |b| b == b'-') {
        if text[k - 1].is_ascii_digit() {
            out.extend_from_slice(&text[copied..k]);
            out.extend_from_slice(b" - ");
            copied = k + 1;
        }
        at = k;
    }
    out.extend_from_slice(&text[copied..]);
}

/// `TokenizerV14International()(line)`.
pub fn tokenize_intl(line: &str) -> String {
    join_words(&pad_intl(line))
}

/// `TokenizerV14International()(line)` before its final `" ".join(line.split())`.
pub fn pad_intl(line: &str) -> String {
    let not_number = |c: char| !is_regex_number(c);
    let line = split_pairs(line, not_number, is_regex_punct, PairPad::After);
    let line = split_pairs(&line, is_regex_punct, not_number, PairPad::Before);
    pad_chars(&line, is_regex_symbol)
}

/// `TokenizerChar()(line)`: every code point (whitespace included) joined by one space.
pub fn tokenize_char(line: &str) -> String {
    let mut out = String::with_capacity(line.len() * 2);
    for (i, c) in line.chars().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// Where a two-character substitution puts its spaces.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum PairPad {
    /// `(A)(B)` → `\1 \2 `
    After,
    /// `(A)(B)` → ` \1 \2`
    Before,
}

/// A regex substitution of the pattern `(A)(B)` (one code point each): matches are found left to
/// right without overlap, so after a match the scan resumes behind its second character.
pub(crate) fn split_pairs(
    text: &str,
    first: fn(char) -> bool,
    second: fn(char) -> bool,
    pad: PairPad,
) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut chars = text.chars().peekable();
    while let Some(a) = chars.next() {
        match chars.peek() {
            Some(&b) if first(a) && second(b) => {
                chars.next();
                if pad == PairPad::Before {
                    out.push(' ');
                }
                out.push(a);
                out.push(' ');
                out.push(b);
                if pad == PairPad::After {
                    out.push(' ');
                }
            }
            _ => out.push(a),
        }
    }
    out
}

/// A regex substitution `(C)` → ` \1 ` for a one-code-point class `C`.
pub(crate) fn pad_chars(text: &str, class: fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if class(c) {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// The tokenizers sacrebleu's BLEU accepts here, by their sacrebleu names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SacrebleuTokenizer {
    None,
    Thirteen,
    Intl,
    Char,
}

impl SacrebleuTokenizer {
    pub fn from_name(name: &str) -> Result<Self> {
        Ok(match name {
            "none" => SacrebleuTokenizer::None,
            "13a" => SacrebleuTokenizer::Thirteen,
            "intl" => SacrebleuTokenizer::Intl,
            "char" => SacrebleuTokenizer::Char,
            other => {
                return Err(Error::InvalidValue(format!(
                    "unknown sacrebleu tokenizer {other:?}; expected one of 13a, intl, char, none"
                )))
            }
        })
    }

    /// The name sacrebleu prints in its signature (`tok:13a`).
    pub fn name(self) -> &'static str {
        match self {
            SacrebleuTokenizer::None => "none",
            SacrebleuTokenizer::Thirteen => "13a",
            SacrebleuTokenizer::Intl => "intl",
            SacrebleuTokenizer::Char => "char",
        }
    }

    /// A text whose whitespace-separated words are the tokenizer's tokens of `line` (the
    /// tokenizer's output, perhaps before its final join).
    pub fn tokens_text(self, line: &str) -> String {
        match self {
            SacrebleuTokenizer::None => line.to_string(),
            SacrebleuTokenizer::Thirteen => pad_13a(line),
            SacrebleuTokenizer::Intl => pad_intl(line),
            SacrebleuTokenizer::Char => tokenize_char(line),
        }
    }
}

/// The 13a punctuation class ``[\{-\~\[-\` -\&\(-\+\:-\@\/]``; `'`, `,`, `-` and `.` are not in it.
const fn is_13a_punct(b: u8) -> bool {
    matches!(b, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/')
}

/// The bytes 13a pads with spaces: its punctuation class but the space itself (padding a space
/// changes no token), by byte value.
const PADDED_13A: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = b != b' ' as usize && is_13a_punct(b as u8);
        b += 1;
    }
    table
};

/// `" ".join(line.split())`.
pub(super) fn join_words(line: &str) -> String {
    let mut out = String::new();
    for_each_py_word(line, |word| {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirteen_a_tricky_inputs() {
        assert_eq!(tokenize_13a("can't"), "can't");
        assert_eq!(tokenize_13a("1,000,000."), "1,000,000 .");
        assert_eq!(tokenize_13a("$3.88 (10%)"), "$ 3.88 ( 10 % )");
        assert_eq!(tokenize_13a("U.S.A. is big."), "U . S . A . is big .");
        assert_eq!(tokenize_13a("&amp; &lt;"), "& <");
        assert_eq!(tokenize_13a("<skipped>"), "");
        assert_eq!(
            tokenize_13a("well--known e-mail 3-4"),
            "well--known e-mail 3 - 4"
        );
        assert_eq!(tokenize_13a("line1\nline2 can't"), "line1 line2 can't");
    }

    #[test]
    fn intl_keeps_a_final_period_after_a_number() {
        assert_eq!(tokenize_intl("in 2024."), "in 2024.");
        assert_eq!(tokenize_intl("in 2024. Then"), "in 2024 . Then");
        assert_eq!(tokenize_intl("Привет, мир!"), "Привет , мир !");
        assert_eq!(tokenize_intl("😀!"), "😀 !");
    }

    #[test]
    fn char_keeps_whitespace_as_tokens() {
        assert_eq!(tokenize_char("a b"), "a   b");
        assert_eq!(tokenize_char(""), "");
    }
}
