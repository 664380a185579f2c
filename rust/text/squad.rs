//! SQuAD answer normalisation as promptflow-evals 0.3.5's `F1ScoreEvaluator` does it:
//! `lower()`, drop ASCII `string.punctuation`, replace the words a/an/the by a space
//! (stdlib `re` `\b(a|an|the)\b`), then `" ".join(s.split())`.

use std::borrow::Cow;

use super::unicode::{is_py_space, is_re_word, py_lower};

/// What `normalize_answer` does with an ASCII character (after lower-casing).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ascii {
    /// `string.punctuation`: deleted.
    Punct,
    /// A letter or digit: part of a word run.
    Word,
    /// Python whitespace: separates words.
    Space,
    /// A control character: kept, but not part of a word run.
    Other,
}

const ASCII: [Ascii; 128] = {
    let mut t = [Ascii::Other; 128];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        t[i] = if b.is_ascii_punctuation() {
            Ascii::Punct
        } else if b.is_ascii_alphanumeric() {
            Ascii::Word
        } else if matches!(b, b'\t'..=b'\r' | b'\x1c'..=b' ') {
            Ascii::Space
        } else {
            Ascii::Other
        };
        i += 1;
    }
    t
};

/// promptflow `normalize_text`, in one pass over the lower-cased text: ASCII punctuation is
/// skipped, each maximal run of `re` word characters is kept unless it reads `a`, `an` or `the`
/// (then it counts as a space), and whitespace runs become single spaces between words.
pub fn normalize_answer(text: &str) -> String {
    // ASCII is lower-cased on the fly (lower-casing lowered text changes nothing).
    let lowered = if text.is_ascii() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(py_lower(text))
    };
    let bytes = lowered.as_bytes();
    // Whole UTF-8 sequences of the input and ASCII only, so the result stays valid UTF-8.
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    // Whether a space is due before the next kept character (never at the start).
    let mut gap = false;
    // The current word run: the length of `out` before it (and its space), and its start.
    let mut run: Option<(usize, usize)> = None;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let (class, len) = match ASCII.get(b as usize) {
            Some(&class) => (class, 1),
            None => {
                let c = lowered.get(i..).and_then(|s| s.chars().next());
                let c = c.unwrap_or_default();
                let class = if is_re_word(c) {
                    Ascii::Word
                } else if is_py_space(c) {
                    Ascii::Space
                } else {
                    Ascii::Other
                };
                (class, c.len_utf8())
            }
        };
        let piece = bytes.get(i..i + len).unwrap_or(&[]);
        i += len;
        if class == Ascii::Punct {
            continue;
        }
        if class == Ascii::Word {
            if run.is_none() {
                run = Some((out.len(), out.len() + usize::from(gap)));
            }
            if len == 1 {
                if std::mem::take(&mut gap) {
                    out.push(b' ');
                }
                // The rest of an ASCII stretch of the run (punctuation inside is deleted).
                out.push(b.to_ascii_lowercase());
                while let Some(&b) = bytes.get(i) {
                    match ASCII.get(b as usize) {
                        Some(Ascii::Word) => out.push(b.to_ascii_lowercase()),
                        Some(Ascii::Punct) => {}
                        _ => break,
                    }
                    i += 1;
                }
                continue;
            }
        } else if let Some((before, start)) = run.take() {
            if matches!(out.get(start..), Some(b"a" | b"an" | b"the")) {
                out.truncate(before);
                gap = !out.is_empty();
            }
        }
        if class == Ascii::Space {
            gap = !out.is_empty();
            continue;
        }
        if std::mem::take(&mut gap) {
            out.push(b' ');
        }
        match piece {
            [b] => out.push(b.to_ascii_lowercase()),
            _ => out.extend_from_slice(piece),
        }
    }
    if let Some((before, start)) = run {
        if matches!(out.get(start..), Some(b"a" | b"an" | b"the")) {
            out.truncate(before);
        }
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tricky_inputs() {
        assert_eq!(normalize_answer("A. B. Smith"), "b smith");
        assert_eq!(normalize_answer("e.g."), "eg");
        assert_eq!(normalize_answer("U.S.A."), "usa");
        assert_eq!(normalize_answer("can't"), "cant");
        assert_eq!(normalize_answer("3.14"), "314");
        assert_eq!(normalize_answer("“smart” ‘q’"), "“smart” ‘q’");
        assert_eq!(normalize_answer("a…b"), "…b");
        assert_eq!(normalize_answer("İstanbul"), "i\u{307}stanbul");
        assert_eq!(normalize_answer("The an² anthem a"), "an² anthem");
        assert_eq!(normalize_answer("!!! the ..."), "");
        assert_eq!(
            normalize_answer("t.h.e an.d a1 \x01the\x01 x\x1fy"),
            "and a1 \x01 \x01 x y"
        );
        assert_eq!(normalize_answer("  A  b\tTHE\n"), "b");
    }
}
