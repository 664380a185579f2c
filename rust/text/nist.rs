//! nltk 3.10.4 `NISTTokenizer().international_tokenize` (lowercase=False, split_non_ascii=True),
//! the tokenizer of the mteval-v14 `--international-tokenization` mode.
//!
//! Its NUM / PUNCT / SYM classes are the literal perluniprops sets (see `unicode::is_nist_*`), not
//! Unicode categories: NUM holds every ASCII letter and ASCII punctuation but no ASCII digit.

use super::unicode::{is_nist_number, is_nist_punct, is_nist_symbol, py_split};

/// `NISTTokenizer().international_tokenize(text)`.
pub fn international_tokenize(text: &str) -> Vec<String> {
    let text = text.replace("<skipped>", "").replace('\u{2028}', " ");
    let text = xml_unescape(&text);
    let text = pad_ascii_runs(&text);
    let text = split_pairs(&text, is_nist_number, is_nist_punct, PairPad::After);
    let text = split_pairs(&text, is_nist_punct, is_nist_number, PairPad::Before);
    let text = pad_chars(&text, is_nist_symbol);
    py_split(&text).map(str::to_string).collect()
}

/// `nltk.tokenize.util.xml_unescape`: `xml.sax.saxutils.unescape` with Moses' extra entities;
/// `&amp;` last, so `&amp;lt;` becomes `&lt;`, not `<`.
fn xml_unescape(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut s = text.to_string();
    for (entity, ch) in [
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&apos;", "'"),
        ("&quot;", "\""),
        ("&#124;", "|"),
        ("&#91;", "["),
        ("&#93;", "]"),
        ("&amp;", "&"),
    ] {
        s = s.replace(entity, ch);
    }
    s
}

/// `([\x00-\x7f]+)` → ` \1 `: each maximal run of ASCII code points gets a space on both sides.
fn pad_ascii_runs(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut in_ascii = false;
    for c in text.chars() {
        if c.is_ascii() != in_ascii {
            out.push(' ');
            in_ascii = c.is_ascii();
        }
        out.push(c);
    }
    if in_ascii {
        out.push(' ');
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(s: &str) -> Vec<String> {
        international_tokenize(s)
    }

    #[test]
    fn tricky_inputs() {
        assert_eq!(tok("can't"), ["can", "'", "t"]);
        assert_eq!(tok("1,000,000."), ["1,000,000."]);
        assert_eq!(tok("$3.88 (10%)"), ["$", "3.88", "(10%", ")"]);
        assert_eq!(tok("U.S.A."), ["U", ".", "S", ".", "A", "."]);
        assert_eq!(tok("café naïve"), ["caf", "é", "na", "ï", "ve"]);
        assert_eq!(tok("İstanbul"), ["İ", "stanbul"]);
        assert_eq!(tok("日本語です。"), ["日本語です", "。"]);
        assert_eq!(tok("&amp; &lt;"), ["&", "<"]);
        assert_eq!(tok("<skipped>"), Vec::<String>::new());
        assert_eq!(tok("x² ½"), ["x", "²", "½"]);
        assert_eq!(tok("well--known"), ["well", "-", "-", "known"]);
        assert_eq!(
            tok("this is a foo\u{2604}sentence."),
            ["this", "is", "a", "foo", "\u{2604}", "sentence", "."]
        );
    }

    #[test]
    fn ampersand_is_unescaped_last() {
        assert_eq!(tok("&amp;lt;"), ["&", "lt", ";"]);
    }
}
