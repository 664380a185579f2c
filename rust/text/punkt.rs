//! Punkt sentence splitting with nltk's english punkt_tab parameters (inference only).

/// `nltk.sent_tokenize(text)` (english).
pub fn sent_tokenize(text: &str) -> Vec<String> {
    vec![text.to_string()] // TODO(H1): port
}
