//! nltk 3.10.4 `word_tokenize`: Punkt english sentences, then `NLTKWordTokenizer` on each.

/// `nltk.word_tokenize(text)` (language="english", preserve_line=False).
pub fn word_tokenize(text: &str) -> Vec<String> {
    super::unicode::py_split(text).map(str::to_string).collect() // TODO(H1): port
}
