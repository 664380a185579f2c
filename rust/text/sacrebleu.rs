//! sacrebleu 2.6.0 tokenizers `13a` (mteval-v13a, stdlib `re`), `intl` (mteval-v14 international,
//! `regex` module classes), `char` and `none`: each maps a line to a space-joined token string.

use super::nist::{pad_chars, split_pairs, PairPad};
use super::unicode::{is_regex_number, is_regex_punct, is_regex_symbol, py_split};
use crate::error::{Error, Result};

/// `Tokenizer13a()(line)`.
pub fn tokenize_13a(line: &str) -> String {
    let mut line = line
        .replace("<skipped>", "")
        .replace("-\n", "")
        .replace('\n', " ");
    if line.contains('&') {
        for (entity, ch) in [
            ("&quot;", "\""),
            ("&amp;", "&"),
            ("&lt;", "<"),
            ("&gt;", ">"),
        ] {
            line = line.replace(entity, ch);
        }
    }
    let line = pad_chars(&format!(" {line} "), is_13a_punct);
    let line = split_pairs(&line, not_ascii_digit, is_period_comma, PairPad::After);
    let line = split_pairs(&line, is_period_comma, not_ascii_digit, PairPad::Before);
    let line = split_pairs(&line, |c| c.is_ascii_digit(), |c| c == '-', PairPad::After);
    join_words(&line)
}

/// `TokenizerV14International()(line)`.
pub fn tokenize_intl(line: &str) -> String {
    let not_number = |c: char| !is_regex_number(c);
    let line = split_pairs(line, not_number, is_regex_punct, PairPad::After);
    let line = split_pairs(&line, is_regex_punct, not_number, PairPad::Before);
    let line = pad_chars(&line, is_regex_symbol);
    join_words(&line)
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

    pub fn apply(self, line: &str) -> String {
        match self {
            SacrebleuTokenizer::None => line.to_string(),
            SacrebleuTokenizer::Thirteen => tokenize_13a(line),
            SacrebleuTokenizer::Intl => tokenize_intl(line),
            SacrebleuTokenizer::Char => tokenize_char(line),
        }
    }
}

/// The 13a punctuation class ``[\{-\~\[-\` -\&\(-\+\:-\@\/]``; `'`, `,`, `-` and `.` are not in it.
fn is_13a_punct(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

fn is_period_comma(c: char) -> bool {
    c == '.' || c == ','
}

/// `[^0-9]`: everything but the ASCII digits (other scripts' digits included).
fn not_ascii_digit(c: char) -> bool {
    !c.is_ascii_digit()
}

/// `" ".join(line.split())`.
fn join_words(line: &str) -> String {
    py_split(line).collect::<Vec<_>>().join(" ")
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
