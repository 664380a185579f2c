//! promptflow-evals 0.3.5 `F1ScoreEvaluator` (SQuAD-style token F1) and exact match, either on
//! SQuAD-normalised text or raw as ragas' `ExactMatch` (`float(reference == response)`).

use ahash::AHashMap;

use crate::error::{Error, Result};
use crate::parallel;
use crate::text::squad::normalize_answer;
use crate::text::unicode::py_strip;

/// promptflow's `_AsyncF1ScoreEvaluator.__call__`: the F1 of the normalised whitespace tokens.
/// An empty, all-whitespace or literal `"None"` input is the reference's `ValueError`.
pub fn f1_score(answer: &str, ground_truth: &str) -> Result<f64> {
    if !is_present(answer) || !is_present(ground_truth) {
        return Err(Error::InvalidValue(
            "Both 'answer' and 'ground_truth' must be non-empty strings.".to_string(),
        ));
    }
    let prediction = normalize_answer(answer);
    let reference = normalize_answer(ground_truth);
    let prediction = words(&prediction);
    let reference = words(&reference);
    let common = common_count(&prediction, &reference);
    if common == 0 {
        return Ok(0.0);
    }
    let precision = common as f64 / prediction.len() as f64;
    let recall = common as f64 / reference.len() as f64;
    Ok((2.0 * precision * recall) / (precision + recall))
}

/// Exact match: with `normalize`, 1.0 when both SQuAD-normalise to the same string; without,
/// ragas `ExactMatch` (`float(reference == response)`).
pub fn exact_match(answer: &str, ground_truth: &str, normalize: bool) -> f64 {
    let same = if normalize {
        normalize_answer(answer) == normalize_answer(ground_truth)
    } else {
        answer == ground_truth
    };
    if same {
        1.0
    } else {
        0.0
    }
}

/// The best `f1_score` of each answer over its references (SQuAD's
/// `metric_max_over_ground_truths`; with one reference, exactly promptflow's score), in parallel.
pub fn f1_score_batch<'a, R: AsRef<[&'a str]> + Sync>(
    answers: &[&str],
    references: &[R],
) -> Vec<Result<f64>> {
    parallel::map_pairs(answers, references, 16, |a, refs| {
        best_over_references(refs.as_ref(), |g| f1_score(a, g))
    })
}

/// The best `exact_match` of each answer over its references, in parallel.
pub fn exact_match_batch<'a, R: AsRef<[&'a str]> + Sync>(
    answers: &[&str],
    references: &[R],
    normalize: bool,
) -> Vec<Result<f64>> {
    parallel::map_pairs(answers, references, 16, |a, refs| {
        best_over_references(refs.as_ref(), |g| Ok(exact_match(a, g, normalize)))
    })
}

fn best_over_references(refs: &[&str], score: impl Fn(&str) -> Result<f64>) -> Result<f64> {
    let mut best: Option<f64> = None;
    for r in refs {
        let s = score(r)?;
        best = Some(best.map_or(s, |b| b.max(s)));
    }
    best.ok_or_else(|| Error::InvalidValue("a row needs at least one reference".to_string()))
}

/// The words of a normalised text (words joined by single spaces).
fn words(normalized: &str) -> Vec<&str> {
    let mut words = Vec::with_capacity(normalized.len() / 4 + 1);
    let mut start = 0;
    for (i, b) in normalized.bytes().enumerate() {
        if b == b' ' {
            words.extend(normalized.get(start..i));
            start = i + 1;
        }
    }
    words.extend(normalized.get(start..).filter(|w| !w.is_empty()));
    words
}

/// `s and s.strip() and s != "None"`.
fn is_present(s: &str) -> bool {
    !py_strip(s).is_empty() && s != "None"
}

/// `sum((Counter(a) & Counter(b)).values())`: the size of the multiset intersection.
fn common_count(a: &[&str], b: &[&str]) -> usize {
    let mut counts: AHashMap<&str, usize> = AHashMap::with_capacity(a.len());
    for &w in a {
        *counts.entry(w).or_insert(0) += 1;
    }
    let mut common = 0;
    for w in b {
        if let Some(c) = counts.get_mut(w) {
            if *c > 0 {
                *c -= 1;
                common += 1;
            }
        }
    }
    common
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_what_promptflow_rejects() {
        for bad in ["", " \n", "\u{3000}", "None"] {
            assert!(f1_score(bad, "x").is_err());
            assert!(f1_score("x", bad).is_err());
        }
        assert!(f1_score("none", "x").is_ok());
    }

    #[test]
    fn scores() -> Result<()> {
        assert_eq!(f1_score("the cat sat", "a cat sat down")?, 0.8);
        assert_eq!(f1_score("...", "x")?, 0.0);
        assert_eq!(f1_score("x x z", "q")?, 0.0);
        let p = 2.0 / 3.0;
        assert_eq!(f1_score("x x y", "x y y")?, (2.0 * p * p) / (p + p));
        assert_eq!(exact_match("The Cat!", "cat", true), 1.0);
        assert_eq!(exact_match("The Cat!", "cat", false), 0.0);
        Ok(())
    }
}
