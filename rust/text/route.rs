//! The tokenizer routing of promptflow-evals 0.3.5 and azure-ai-evaluation (`nltk_tokenize`).

use super::{nist, nltk_word};

/// promptflow-evals 0.3.5 `nltk_tokenize`.
pub fn promptflow_tokenize(text: &str) -> Vec<String> {
    nltk_word::word_tokenize(text) // TODO(H2): routing
}

/// azure-ai-evaluation `nltk_tokenize`.
pub fn azure_tokenize(text: &str) -> Vec<String> {
    nist::international_tokenize(text) // TODO(H2): routing
}
