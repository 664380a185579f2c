//! nltk 3.10.4 GLEU (`nltk.translate.gleu_score`): `sentence_gleu` and `corpus_gleu`, bit for bit.
//! Per segment, the reference with the best `tp / max(|hyp grams|, |ref grams|)` (the first on
//! ties) adds its counts to the corpus totals; grams are nltk's `everygrams(seq, min_len, max_len)`
//! including its behaviour for unusual lengths (`max_len=-1`, `min_len <= 0`).

use super::bleu::Segment;
use super::ngrams::{with_ngrams, Ngrams, Token, ABSENT};
use super::pynum::count_ratio;
use crate::error::{room, Error, PyExc, Result};
use crate::parallel;
use crate::text::Tokenizer;

/// nltk.util.MAX_EVERYGRAMS_DEFAULT_LEN: the longest sequence `everygrams` accepts with `max_len=-1`.
const MAX_EVERYGRAMS_DEFAULT_LEN: usize = 256;

/// How many times `everygrams` yields the prefix of length `j` of a window of length `h`: it yields
/// `window[:L]` for every `L` in `range(min_len, h + 1)`, and Python slicing maps negative `L` to
/// `h + L` (clamped at 0).
fn multiplicity(j: usize, h: usize, min_len: i64) -> u128 {
    let (j, h, min_len) = (j as i128, h as i128, i128::from(min_len));
    if j == 0 {
        let at_zero = i128::from(min_len <= 0);
        let below = (-h - min_len + 1).max(0);
        (at_zero + below) as u128
    } else {
        u128::from(j >= min_len) + u128::from(j < h && j - h >= min_len)
    }
}

/// The windows nltk `everygrams(seq, min_len, max_len)` takes its grams from (each gram is a prefix
/// of a window, counted `multiplicity` times), or the error it raises.
fn everygram_windows(seq: &[u32], max_len: i64) -> Result<impl Iterator<Item = &[u32]>> {
    let max_len = if max_len == -1 {
        if seq.len() > MAX_EVERYGRAMS_DEFAULT_LEN {
            let n = seq.len();
            return Err(Error::reference(
                PyExc::Value,
                format!(
                    "everygrams() called with the default max_len on a sequence of {n} items: \
                     enumerating every n-gram of every length up to {n} yields O(n**2) tuples \
                     (O(n**3) elements) and can exhaust memory (CWE-770). Pass an explicit \
                     max_len (e.g. max_len=min_len), or raise \
                     nltk.util.MAX_EVERYGRAMS_DEFAULT_LEN."
                ),
            ));
        }
        seq.len()
    } else {
        usize::try_from(max_len).map_err(|_| {
            Error::reference(
                PyExc::Value,
                "Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.",
            )
        })?
    };
    Ok((0..seq.len())
        .map(move |start| &seq[start..seq.len().min(start.saturating_add(max_len))])
        .take_while(|w| !w.is_empty()))
}

/// Gram counts of one sequence: by gram id, plus the empty gram (`min_len <= 0`) apart.
#[derive(Default)]
struct GramCounts {
    by_id: Vec<u128>,
    empty: u128,
    total: u128,
}

impl GramCounts {
    /// Count the everygrams of `seq`; `id(prefix_id, token)` gives the id of a gram one token
    /// longer than its prefix (`ABSENT` for a gram the hypothesis does not have).
    fn count(
        &mut self,
        seq: &[u32],
        min_len: i64,
        max_len: i64,
        mut id: impl FnMut(u32, u32) -> Result<u32>,
    ) -> Result<()> {
        for window in everygram_windows(seq, max_len)? {
            let h = window.len();
            let mut gram = ABSENT;
            for j in 0..=h {
                if j == 1 {
                    gram = window[0];
                } else if j > 1 {
                    gram = id(gram, window[j - 1])?;
                }
                let m = multiplicity(j, h, min_len);
                if m == 0 {
                    continue;
                }
                self.total += m;
                if j == 0 {
                    self.empty += m;
                } else if gram != ABSENT {
                    let i = gram as usize;
                    if i >= self.by_id.len() {
                        let more = i + 1 - self.by_id.len();
                        room(&mut self.by_id, more, "the n-gram counts")?;
                        self.by_id.resize(i + 1, 0);
                    }
                    self.by_id[i] += m;
                }
            }
        }
        Ok(())
    }

    /// Size of the multiset intersection with `other`.
    fn overlap(&self, other: &GramCounts) -> u128 {
        let by_id: u128 = self
            .by_id
            .iter()
            .zip(&other.by_id)
            .map(|(a, b)| *a.min(b))
            .sum();
        by_id + self.empty.min(other.empty)
    }
}

/// The `(n_match, n_all)` one segment adds to the corpus totals, if any reference has grams: the
/// counts of the reference with the best `n_match / n_all` (the first on ties).
fn segment_counts<T: Token, R: AsRef<[T]>>(
    ngrams: &mut Ngrams,
    references: &[R],
    hypothesis: &[T],
    min_len: i64,
    max_len: i64,
) -> Result<Option<(u128, u128)>> {
    let per_reference = match (usize::try_from(min_len), usize::try_from(max_len)) {
        (Ok(min_len), Ok(max_len)) if min_len >= 1 => {
            plain_counts(ngrams, references, hypothesis, min_len, max_len)?
        }
        _ => everygram_counts(ngrams, references, hypothesis, min_len, max_len)?,
    };
    let mut best: Option<(u128, u128, f64)> = None;
    for (tp, n_all) in per_reference {
        if n_all > 0 {
            let ratio = count_ratio(tp, n_all);
            if best.is_none_or(|(_, _, r)| ratio > r) {
                best = Some((tp, n_all, ratio));
            }
        }
    }
    Ok(best.map(|(tp, n_all, _)| (tp, n_all)))
}

/// `(matches, max(hypothesis grams, reference grams))` per reference when `min_len >= 1`: the
/// grams are then every n-gram of each order `min_len..=max_len`, each counted once.
fn plain_counts<T: Token, R: AsRef<[T]>>(
    ngrams: &mut Ngrams,
    references: &[R],
    hypothesis: &[T],
    min_len: usize,
    max_len: usize,
) -> Result<Vec<(u128, u128)>> {
    // Σ over n in min_len..=min(max_len, len) of (len - n + 1).
    let grams = |len: usize| -> u128 {
        let (a, b) = (min_len as u128, max_len.min(len) as u128);
        if a > b {
            return 0;
        }
        let terms = b - a + 1;
        terms * (len as u128 + 1) - (a + b) * terms / 2
    };
    let top = max_len.min(hypothesis.len());
    let mut matches = vec![0u128; references.len()];
    if top >= min_len {
        ngrams.start(references, hypothesis, hypothesis.len() * (top - 1))?;
        for n in 1..=top {
            if n > 1 {
                ngrams.advance()?;
            }
            if n >= min_len {
                ngrams.add_matches(&mut matches);
            }
        }
    }
    let hyp_grams = grams(hypothesis.len());
    Ok(references
        .iter()
        .zip(matches)
        .map(|(r, tp)| (tp, hyp_grams.max(grams(r.as_ref().len()))))
        .collect())
}

/// `plain_counts` for any `min_len` and `max_len`, following `everygrams` literally.
fn everygram_counts<T: Token, R: AsRef<[T]>>(
    ngrams: &mut Ngrams,
    references: &[R],
    hypothesis: &[T],
    min_len: i64,
    max_len: i64,
) -> Result<Vec<(u128, u128)>> {
    ngrams.start(references, hypothesis, hypothesis.len() * 3)?;
    let mut hyp_tokens = Vec::new();
    room(
        &mut hyp_tokens,
        hypothesis.len(),
        "the hypothesis' token ids",
    )?;
    hyp_tokens.extend_from_slice(ngrams.hyp_tokens());
    let mut hyp = GramCounts::default();
    hyp.count(&hyp_tokens, min_len, max_len, |p, t| ngrams.insert(p, t))?;
    (0..ngrams.references())
        .map(|r| {
            let mut counts = GramCounts::default();
            let tokens = ngrams.ref_tokens(r);
            counts.count(tokens, min_len, max_len, |p, t| Ok(ngrams.get(p, t)))?;
            Ok((hyp.overlap(&counts), hyp.total.max(counts.total)))
        })
        .collect()
}

/// nltk `corpus_gleu` of the segments.
pub fn gleu_of_segments<T: Token + Sync, R: AsRef<[T]> + Sync>(
    segments: &[Segment<'_, T, R>],
    min_len: i64,
    max_len: i64,
) -> Result<f64> {
    let counts = |ngrams: &mut Ngrams, s: &Segment<'_, T, R>| {
        segment_counts(ngrams, s.references, s.hypothesis, min_len, max_len)
    };
    let per_segment = parallel::map(segments, 16, |s| with_ngrams(|ngrams| counts(ngrams, s)));
    let (mut n_match, mut n_all) = (0u128, 0u128);
    for counts in per_segment {
        if let Some((tp, all)) = counts? {
            n_match += tp;
            n_all += all;
        }
    }
    Ok(if n_all == 0 {
        0.0
    } else {
        count_ratio(n_match, n_all)
    })
}

/// nltk `corpus_gleu(list_of_references, hypotheses, min_len, max_len)`.
pub fn corpus_gleu<T: Token + Sync>(
    list_of_references: &[Vec<Vec<T>>],
    hypotheses: &[Vec<T>],
    min_len: i64,
    max_len: i64,
) -> Result<f64> {
    if list_of_references.len() != hypotheses.len() {
        return Err(Error::reference(
            PyExc::Assertion,
            "The number of hypotheses and their reference(s) should be the same",
        ));
    }
    gleu_of_segments(
        &Segment::corpus(list_of_references, hypotheses),
        min_len,
        max_len,
    )
}

/// nltk `sentence_gleu(references, hypothesis, min_len, max_len)`.
pub fn sentence_gleu<T: Token + Sync, R: AsRef<[T]> + Sync>(
    references: &[R],
    hypothesis: &[T],
    min_len: i64,
    max_len: i64,
) -> Result<f64> {
    let segment = Segment {
        references,
        hypothesis,
    };
    gleu_of_segments(&[segment], min_len, max_len)
}

/// Sentence GLEU of one response against its references after tokenizing both; with the
/// promptflow tokenizer and the defaults (1, 4) this is promptflow-evals 0.3.5
/// `GleuScoreEvaluator`.
pub fn gleu_text(
    response: &str,
    references: &[&str],
    tokenizer: Tokenizer,
    min_len: i64,
    max_len: i64,
) -> Result<f64> {
    tokenizer.with_segment(response, references, |hypothesis, references| {
        sentence_gleu(references, hypothesis, min_len, max_len)
    })
}

/// `gleu_text` for every row, in parallel (rows are independent).
pub fn gleu_batch<'a, R: AsRef<[&'a str]> + Sync>(
    responses: &[&str],
    references: &[R],
    tokenizer: Tokenizer,
    min_len: i64,
    max_len: i64,
) -> Vec<Result<f64>> {
    parallel::map_pairs(responses, references, 8, |response, refs| {
        gleu_text(response, refs.as_ref(), tokenizer, min_len, max_len)
    })
}

/// `sentence_gleu` for every row of pre-tokenised responses and references, in parallel.
pub fn gleu_tokens_batch<T: Token + Sync, R: AsRef<[T]> + Sync>(
    rows: &[Segment<'_, T, R>],
    min_len: i64,
    max_len: i64,
) -> Vec<Result<f64>> {
    parallel::map(rows, 16, |s| {
        sentence_gleu(s.references, s.hypothesis, min_len, max_len)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<&str> {
        s.split(' ').filter(|t| !t.is_empty()).collect()
    }

    fn gleu(refs: &[&str], hyp: &str, min_len: i64, max_len: i64) -> f64 {
        let refs: Vec<Vec<&str>> = refs.iter().map(|r| toks(r)).collect();
        sentence_gleu(&refs, &toks(hyp), min_len, max_len).unwrap()
    }

    /// Grams of `everygrams` by brute force over `range(min_len, len(window) + 1)`.
    fn brute(seq: &[u32], min_len: i64, max_len: usize) -> Vec<Vec<u32>> {
        let mut out = vec![];
        for start in 0..seq.len() {
            let w = &seq[start..seq.len().min(start + max_len)];
            if w.is_empty() {
                break;
            }
            let h = w.len() as i64;
            for l in min_len..=h {
                let end = if l >= 0 { l.min(h) } else { (h + l).max(0) };
                out.push(w[..end as usize].to_vec());
            }
        }
        out.sort();
        out
    }

    #[test]
    fn everygram_multiplicities_match_slicing() {
        let seq = [1, 2, 3, 4, 5, 6, 7];
        for min_len in -12..=9 {
            for max_len in 0..=9 {
                let mut got = vec![];
                for window in everygram_windows(&seq, max_len as i64).unwrap() {
                    for j in 0..=window.len() {
                        for _ in 0..multiplicity(j, window.len(), min_len) {
                            got.push(window[..j].to_vec());
                        }
                    }
                }
                got.sort();
                assert_eq!(got, brute(&seq, min_len, max_len), "{min_len} {max_len}");
            }
        }
    }

    #[test]
    fn nltk_docstring_values() {
        let hyp1 = "It is a guide to action which ensures that the military always obeys the commands of the party";
        let ref1a = "It is a guide to action that ensures that the military will forever heed Party commands";
        assert_eq!(gleu(&[ref1a], hyp1, 1, 4), 0.4393939393939394);
        assert_eq!(gleu(&["the cat"], "", 1, 4), 0.0);
        assert_eq!(gleu(&[""], "", 1, 4), 0.0);
    }

    #[test]
    fn errors() {
        let refs = vec![toks("a b")];
        let long: Vec<String> = (0..300).map(|i| i.to_string()).collect();
        let e = sentence_gleu(std::slice::from_ref(&long), &long, 1, -1).unwrap_err();
        assert!(e.to_string().contains("sequence of 300 items"));
        let e = sentence_gleu(&refs, &toks("a"), 1, -2).unwrap_err();
        assert!(matches!(e, Error::Reference(PyExc::Value, _)));
    }
}
