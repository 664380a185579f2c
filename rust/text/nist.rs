//! nltk `NISTTokenizer().international_tokenize` (lowercase=False, split_non_ascii=True).

/// `NISTTokenizer().international_tokenize(text)`.
pub fn international_tokenize(text: &str) -> Vec<String> {
    super::unicode::py_split(text).map(str::to_string).collect() // TODO(H2): port
}
