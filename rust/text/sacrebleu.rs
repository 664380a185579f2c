//! sacrebleu 2.6.0 tokenizers `13a` and `intl`.

/// `Tokenizer13a()(line)`.
pub fn tokenize_13a(line: &str) -> String {
    line.to_string() // TODO(H2): port
}

/// `TokenizerV14International()(line)`.
pub fn tokenize_intl(line: &str) -> String {
    line.to_string() // TODO(H2): port
}
