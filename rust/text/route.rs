//! The tokenizer routing of promptflow-evals 0.3.5 and azure-ai-evaluation (`nltk_tokenize`):
//! the whole string goes either to `word_tokenize` or to the NIST international tokenizer.

use super::{nist, nltk_word, Tokenizer, Tokens};

/// promptflow-evals 0.3.5 `nltk_tokenize`: `word_tokenize` when every code point is printable
/// Latin-1 (U+0020..U+007E or U+00A0..U+00FF), so one control character or one code point above
/// U+00FF sends the whole text to NIST.
pub fn promptflow_tokenize(text: &str) -> Vec<String> {
    Tokenizer::Promptflow.tokenize(text)
}

pub(crate) fn promptflow_tokenize_into(text: &str, out: &mut Tokens) {
    if text
        .chars()
        .all(|c| matches!(c, '\u{20}'..='\u{7e}' | '\u{a0}'..='\u{ff}'))
    {
        nltk_word::word_tokenize_into(text, out)
    } else {
        nist::international_tokenize_into(text, out)
    }
}

/// azure-ai-evaluation `nltk_tokenize`: `word_tokenize` when `text.isascii()` (control characters
/// included), else NIST.
pub fn azure_tokenize(text: &str) -> Vec<String> {
    Tokenizer::Azure.tokenize(text)
}

pub(crate) fn azure_tokenize_into(text: &str, out: &mut Tokens) {
    if text.is_ascii() {
        nltk_word::word_tokenize_into(text, out)
    } else {
        nist::international_tokenize_into(text, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_non_latin1_route_to_nist() {
        assert_eq!(
            promptflow_tokenize("line1\nline2 can't"),
            ["line1", "line2", "can", "'", "t"]
        );
        assert_eq!(promptflow_tokenize("a…b"), ["a", "…", "b"]);
        assert_eq!(azure_tokenize("café"), ["caf", "é"]);
    }
}
