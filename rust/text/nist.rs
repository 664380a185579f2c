//! nltk 3.10.4 `NISTTokenizer().international_tokenize` (lowercase=False, split_non_ascii=True),
//! the tokenizer of the mteval-v14 `--international-tokenization` mode.
//!
//! Its NUM / PUNCT / SYM classes are the literal perluniprops sets (see `unicode::is_nist_*`), not
//! Unicode categories: NUM holds every ASCII letter and ASCII punctuation but no ASCII digit.

use std::borrow::Cow;

use super::unicode::{is_nist_number, is_nist_punct, is_nist_symbol, is_py_space};
use super::Tokens;

/// `NISTTokenizer().international_tokenize(text)`.
pub fn international_tokenize(text: &str) -> Vec<String> {
    let mut tokens = Tokens::with_capacity(text.len());
    international_tokenize_into(text, &mut tokens);
    tokens.to_strings()
}

// Per code point flags: its classes, and whether a substitution put a space before it.
const NUM: u8 = 1;
const PUNCT: u8 = 2;
const SYMBOL: u8 = 4;
const SPACE: u8 = 8;
const ASCII: u8 = 16;
const GAP: u8 = 32;

/// The flags of the ASCII code points. In ASCII the perluniprops sets are: NUM every printable
/// character but the space and the digits, PUNCT ``!"#%&'()*,-./:;?@[\]_{}``, SYMBOL ``$+<=>^`|~``
/// (checked against the tables in the tests).
const ASCII_FLAGS: [u8; 128] = {
    let mut t = [ASCII; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c > b' ' && c < 0x7f && !c.is_ascii_digit() {
            t[b] |= NUM;
        }
        if matches!(c, b'!'..=b'#' | b'%'..=b'*' | b','..=b'/' | b':' | b';' | b'?' | b'@')
            || matches!(c, b'['..=b']' | b'_' | b'{' | b'}')
        {
            t[b] |= PUNCT;
        }
        if matches!(c, b'$' | b'+' | b'<'..=b'>' | b'^' | b'`' | b'|' | b'~') {
            t[b] |= SYMBOL;
        }
        if matches!(c, b'\t'..=b'\r' | b'\x1c'..=b' ') {
            t[b] |= SPACE;
        }
        b += 1;
    }
    t
};

fn class_flags(c: char) -> u8 {
    if let Some(&f) = ASCII_FLAGS.get(c as usize) {
        return f;
    }
    let mut f = 0;
    if is_nist_number(c) {
        f |= NUM;
    }
    if is_nist_punct(c) {
        f |= PUNCT;
    }
    if is_nist_symbol(c) {
        f |= SYMBOL;
    }
    if is_py_space(c) {
        f |= SPACE;
    }
    f
}

/// `international_tokenize(text)`, appended to `out`.
///
/// The reference pads ASCII runs (` \1 `), then splits `(NUM)(PUNCT)` pairs (`\1 \2 `), then
/// `(PUNCT)(NUM)` pairs (` \1 \2`), then pads symbols, and splits on whitespace. A space is in none
/// of the classes, so an inserted space only matters as a token boundary and as the end of
/// adjacency for the pair patterns: each code point carries a `GAP` flag for "a space was inserted
/// before it", and the passes run over the flags.
pub fn international_tokenize_into(text: &str, out: &mut Tokens) {
    let text = unescape(text);
    let mut flags: Vec<u8> = Vec::with_capacity(text.len());
    let mut previous = ASCII;
    for c in text.chars() {
        let mut f = class_flags(c);
        if (f ^ previous) & ASCII != 0 {
            f |= GAP;
        }
        previous = f;
        flags.push(f);
    }
    // `([NUM])([PUNCT])` → `\1 \2 `, then `([PUNCT])([NUM])` → ` \1 \2`, leftmost matches first.
    split_pairs(&mut flags, NUM, PUNCT, [1, 2]);
    split_pairs(&mut flags, PUNCT, NUM, [0, 1]);
    let mut start = None;
    let mut after_symbol = false;
    for ((i, _), f) in text.char_indices().zip(flags) {
        let boundary = f & (GAP | SPACE | SYMBOL) != 0 || after_symbol;
        after_symbol = f & SYMBOL != 0;
        if let (true, Some(s)) = (boundary, start) {
            out.push(text.get(s..i).unwrap_or(""));
            start = None;
        }
        if start.is_none() && f & SPACE == 0 {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(text.get(s..).unwrap_or(""));
    }
}

/// A regex substitution `(A)(B)` over adjacent code points (no space between them), matches taken
/// left to right without overlap; a match at `i` inserts spaces before the code points at `i +
/// offset` for each of the two `gaps` offsets.
fn split_pairs(flags: &mut [u8], first: u8, second: u8, gaps: [usize; 2]) {
    let mut i = 0;
    while let (Some(&a), Some(&b)) = (flags.get(i), flags.get(i + 1)) {
        if a & first != 0 && b & second != 0 && b & GAP == 0 {
            for offset in gaps {
                if let Some(f) = flags.get_mut(i + offset) {
                    *f |= GAP;
                }
            }
            i += 2;
        } else {
            i += 1;
        }
    }
}

/// `<skipped>` removed, U+2028 made a space, then `nltk.tokenize.util.xml_unescape`
/// (`xml.sax.saxutils.unescape` with Moses' extra entities; `&amp;` last, so `&amp;lt;` becomes
/// `&lt;`, not `<`).
fn unescape(text: &str) -> Cow<'_, str> {
    let mut text = Cow::Borrowed(text);
    if text.contains("<skipped>") {
        text = Cow::Owned(text.replace("<skipped>", ""));
    }
    if text.contains('\u{2028}') {
        text = Cow::Owned(text.replace('\u{2028}', " "));
    }
    if text.contains('&') {
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
            if text.contains(entity) {
                text = Cow::Owned(text.replace(entity, ch));
            }
        }
    }
    text
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
    fn ascii_flags_match_the_tables() {
        for b in 0u8..128 {
            let c = char::from(b);
            let f = ASCII_FLAGS[b as usize];
            assert_eq!(f & NUM != 0, is_nist_number(c), "{c:?}");
            assert_eq!(f & PUNCT != 0, is_nist_punct(c), "{c:?}");
            assert_eq!(f & SYMBOL != 0, is_nist_symbol(c), "{c:?}");
            assert_eq!(f & SPACE != 0, is_py_space(c), "{c:?}");
        }
    }

    #[test]
    fn ampersand_is_unescaped_last() {
        assert_eq!(tok("&amp;lt;"), ["&", "lt", ";"]);
    }
}
