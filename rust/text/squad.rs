//! SQuAD answer normalisation as promptflow-evals 0.3.5's F1ScoreEvaluator does it.

/// promptflow `normalize_text`.
pub fn normalize_answer(text: &str) -> String {
    text.to_string() // TODO(H2): port
}
