//! sacrebleu 2.6.0 BLEU (`sacrebleu.metrics.bleu.BLEU`), sentence and corpus level.
//!
//! Each segment reduces to integer sufficient statistics `[hyp_len, ref_len, correct_1..N,
//! total_1..N]` (sacrebleu's own layout); a corpus is the element-wise sum of its segments, and the
//! score is computed from summed statistics with sacrebleu's exact float operation order, so
//! corpus, sentence and resampled scores all come from the same two functions.

use crate::error::{Error, PyExc, Result};
use crate::metrics::ngrams::{with_ngrams, MAX_ORDER};
use crate::metrics::no_reference;
use crate::parallel;
use crate::text::sacrebleu::SacrebleuTokenizer;
use crate::text::unicode::{py_lower, py_rstrip, py_words};

/// sacrebleu's `my_log(0.0)`.
const LOG_ZERO: f64 = -9999999999.0;

/// `BLEU(smooth_method=..., smooth_value=...)`; the values are already resolved to sacrebleu's
/// defaults (floor 0.1, add-k 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Smoothing {
    None,
    Floor(f64),
    AddK(f64),
    Exp,
}

impl Smoothing {
    /// sacrebleu's method name and optional value (`None` falls back to the method's default).
    pub fn from_name(method: &str, value: Option<f64>) -> Result<Self> {
        Ok(match method {
            "none" => Smoothing::None,
            "floor" => Smoothing::Floor(value.unwrap_or(0.1)),
            "add-k" => Smoothing::AddK(value.unwrap_or(1.0)),
            "exp" => Smoothing::Exp,
            other => {
                return Err(Error::InvalidValue(format!(
                    "unknown smooth_method {other:?}; expected one of none, floor, add-k, exp"
                )))
            }
        })
    }
}

/// The options of `sacrebleu.BLEU` this port supports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BleuConfig {
    pub tokenizer: SacrebleuTokenizer,
    pub lowercase: bool,
    pub smoothing: Smoothing,
    pub max_ngram_order: usize,
    pub effective_order: bool,
}

impl Default for BleuConfig {
    /// `sacrebleu.BLEU()`'s defaults: 13a, mixed case, exp smoothing, 4-grams, no effective order.
    fn default() -> Self {
        BleuConfig {
            tokenizer: SacrebleuTokenizer::Thirteen,
            lowercase: false,
            smoothing: Smoothing::Exp,
            max_ngram_order: 4,
            effective_order: false,
        }
    }
}

impl BleuConfig {
    /// The configuration, or `Error::InvalidValue` for a `max_ngram_order` outside 1..=MAX_ORDER.
    pub fn checked(self) -> Result<Self> {
        if !(1..=MAX_ORDER).contains(&self.max_ngram_order) {
            return Err(Error::InvalidValue(format!(
                "max_ngram_order must be from 1 to {MAX_ORDER}, got {}",
                self.max_ngram_order
            )));
        }
        Ok(self)
    }

    /// The length of one statistics vector.
    pub fn stats_len(&self) -> usize {
        2 + 2 * self.max_ngram_order
    }

    /// `BLEU._preprocess_segment`: optional `lower()`, then the tokenizer on `rstrip()`; its tokens
    /// are the whitespace-separated words of the result.
    fn preprocess(&self, sentence: &str) -> String {
        if self.lowercase {
            self.tokenizer.tokens_text(py_rstrip(&py_lower(sentence)))
        } else {
            self.tokenizer.tokens_text(py_rstrip(sentence))
        }
    }
}

/// `BLEUScore`: the score (0-100) and the values it was computed from. `counts`/`totals` are
/// floats because add-k smoothing adds its value to them, as sacrebleu does in place.
#[derive(Debug, Clone, PartialEq)]
pub struct BleuScore {
    pub score: f64,
    pub counts: Vec<f64>,
    pub totals: Vec<f64>,
    pub precisions: Vec<f64>,
    pub bp: f64,
    pub sys_len: i64,
    pub ref_len: i64,
}

/// `BLEU._get_closest_ref_len`: the reference length closest to `hyp_len`, the shorter on ties;
/// -1 when there is no reference.
fn closest_ref_len(hyp_len: i64, ref_lens: &[i64]) -> i64 {
    let mut best: Option<(i64, i64)> = None;
    for &len in ref_lens {
        let diff = (hyp_len - len).abs();
        match best {
            Some((d, l)) if diff > d || (diff == d && len >= l) => {}
            _ => best = Some((diff, len)),
        }
    }
    best.map_or(-1, |(_, len)| len)
}

/// The statistics of one segment against its references (`_extract_reference_info` and
/// `_compute_segment_statistics`): hypothesis n-gram counts clipped by their maximum count in any
/// one reference. A segment without references is sacrebleu's error case unless the hypothesis is
/// empty.
pub fn segment_stats(cfg: &BleuConfig, hypothesis: &str, references: &[&str]) -> Result<Vec<i64>> {
    let order = cfg.max_ngram_order;
    let ref_lines: Vec<String> = references.iter().map(|r| cfg.preprocess(r)).collect();
    let ref_tokens = ref_lines
        .iter()
        .map(|r| py_words(r))
        .collect::<Result<Vec<Vec<&str>>>>()?;
    let ref_lens: Vec<i64> = ref_tokens.iter().map(|t| t.len() as i64).collect();
    let hyp_line = cfg.preprocess(hypothesis);
    let hyp_tokens = py_words(&hyp_line)?;
    let hyp_len = hyp_tokens.len() as i64;
    if references.is_empty() && hyp_len > 0 && order > 0 {
        return Err(no_reference());
    }
    let mut correct = vec![0i64; order];
    with_ngrams(|ngrams| {
        ngrams.clipped_counts(&ref_tokens, &hyp_tokens, order, |n, matches, _| {
            if let Some(c) = correct.get_mut(n - 1) {
                *c = matches as i64;
            }
        })
    })?;
    let mut stats = Vec::with_capacity(cfg.stats_len());
    stats.push(hyp_len);
    stats.push(closest_ref_len(hyp_len, &ref_lens));
    stats.extend(correct);
    stats.extend((0..order as i64).map(|n| (hyp_len - n).max(0)));
    Ok(stats)
}

/// `sacrebleu.utils.my_log`; `math.log` of a negative number is Python's domain error.
fn my_log(p: f64) -> Result<f64> {
    if p == 0.0 {
        Ok(LOG_ZERO)
    } else if p < 0.0 {
        Err(Error::reference(PyExc::Value, "math domain error"))
    } else {
        Ok(p.ln())
    }
}

/// `BLEU.compute_bleu` on (summed) statistics, in sacrebleu's operation order.
pub fn compute_bleu(cfg: &BleuConfig, stats: &[i64]) -> Result<BleuScore> {
    let order = cfg.max_ngram_order;
    let wrong_length = || {
        Error::InvalidValue(format!(
            "BLEU statistics have {} values, expected {} for max_ngram_order {order}",
            stats.len(),
            cfg.stats_len()
        ))
    };
    let [sys_len, ref_len, ngram_stats @ ..] = stats else {
        return Err(wrong_length());
    };
    if ngram_stats.len() != 2 * order {
        return Err(wrong_length());
    }
    let (sys_len, ref_len) = (*sys_len, *ref_len);
    let (correct, total) = ngram_stats.split_at(order);

    let mut bp = 1.0;
    if sys_len < ref_len {
        bp = if sys_len > 0 {
            (1.0 - ref_len as f64 / sys_len as f64).exp()
        } else {
            0.0
        };
    }
    let mut counts: Vec<f64> = correct.iter().map(|&c| c as f64).collect();
    let mut totals: Vec<f64> = total.iter().map(|&t| t as f64).collect();
    let mut precisions = vec![0.0; order];
    let mut result = BleuScore {
        score: 0.0,
        counts: Vec::new(),
        totals: Vec::new(),
        precisions: Vec::new(),
        bp,
        sys_len,
        ref_len,
    };
    if correct.iter().all(|&c| c == 0) {
        result.counts = counts;
        result.totals = totals;
        result.precisions = precisions;
        return Ok(result);
    }

    let mut smooth_mteval = 1.0;
    let mut eff_order = order;
    for n in 0..order {
        if let (Smoothing::AddK(k), true) = (cfg.smoothing, n > 0) {
            counts[n] += k;
            totals[n] += k;
        }
        if totals[n] == 0.0 {
            break;
        }
        if cfg.effective_order {
            eff_order = n + 1;
        }
        if counts[n] == 0.0 {
            match cfg.smoothing {
                Smoothing::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[n] = 100.0 / (smooth_mteval * totals[n]);
                }
                Smoothing::Floor(value) => precisions[n] = 100.0 * value / totals[n],
                Smoothing::AddK(_) | Smoothing::None => {}
            }
        } else {
            precisions[n] = 100.0 * counts[n] / totals[n];
        }
    }

    let mut log_sum = 0.0;
    for &p in &precisions[..eff_order] {
        log_sum += my_log(p)?;
    }
    result.score = bp * (log_sum / eff_order as f64).exp();
    result.counts = counts;
    result.totals = totals;
    result.precisions = precisions;
    Ok(result)
}

/// `BLEU(...).sentence_score(hypothesis, references)`.
pub fn sentence_bleu(cfg: &BleuConfig, hypothesis: &str, references: &[&str]) -> Result<BleuScore> {
    compute_bleu(cfg, &segment_stats(cfg, hypothesis, references)?)
}

/// The statistics of every segment, in parallel (`references[i]` holds segment i's references).
pub fn corpus_stats<'a, R: AsRef<[&'a str]> + Sync>(
    cfg: &BleuConfig,
    hypotheses: &[&str],
    references: &[R],
) -> Vec<Result<Vec<i64>>> {
    parallel::map_pairs(hypotheses, references, 1, |h, r| {
        segment_stats(cfg, h, r.as_ref())
    })
}

/// The element-wise sum of segment statistics (sacrebleu's `sum_of_lists`).
pub fn sum_stats(cfg: &BleuConfig, segments: &[Vec<i64>]) -> Vec<i64> {
    let mut sum = vec![0i64; cfg.stats_len()];
    for segment in segments {
        for (s, v) in sum.iter_mut().zip(segment) {
            *s += v;
        }
    }
    sum
}

/// `BLEU(...).corpus_score(hypotheses, references)` with references given per segment.
pub fn corpus_bleu<'a, R: AsRef<[&'a str]> + Sync>(
    cfg: &BleuConfig,
    hypotheses: &[&str],
    references: &[R],
) -> Result<BleuScore> {
    if hypotheses.is_empty() {
        return Err(Error::InvalidValue(
            "corpus BLEU needs at least one segment".to_string(),
        ));
    }
    let segments = corpus_stats(cfg, hypotheses, references)
        .into_iter()
        .enumerate()
        .map(|(row, s)| s.map_err(|e| e.in_row(row)))
        .collect::<Result<Vec<_>>>()?;
    compute_bleu(cfg, &sum_stats(cfg, &segments))
}

/// Sentence BLEU of each segment in parallel (`references[i]` holds segment i's references).
pub fn sentence_bleu_batch<'a, R: AsRef<[&'a str]> + Sync>(
    cfg: &BleuConfig,
    hypotheses: &[&str],
    references: &[R],
) -> Vec<Result<f64>> {
    parallel::map_pairs(hypotheses, references, 1, |h, r| {
        sentence_bleu(cfg, h, r.as_ref()).map(|s| s.score)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(smoothing: Smoothing, effective_order: bool) -> Result<BleuConfig> {
        BleuConfig {
            smoothing,
            effective_order,
            ..BleuConfig::default()
        }
        .checked()
    }

    #[test]
    fn identical_sentence_is_exp_log_100() -> Result<()> {
        let s = sentence_bleu(
            &cfg(Smoothing::Exp, true)?,
            "the cat sat on the mat",
            &["the cat sat on the mat"],
        )?;
        assert_eq!(s.score, 100.00000000000004);
        assert_eq!(s.counts, [6.0, 5.0, 4.0, 3.0]);
        Ok(())
    }

    #[test]
    fn clipping_and_closest_length() -> Result<()> {
        let c = cfg(Smoothing::Exp, false)?;
        let stats = segment_stats(
            &c,
            "the the the the the the the",
            &["the cat sat on the mat", "a b"],
        )?;
        assert_eq!(stats, [7, 6, 2, 0, 0, 0, 7, 6, 5, 4]);
        assert_eq!(closest_ref_len(5, &[4, 6, 7]), 4);
        assert_eq!(closest_ref_len(5, &[]), -1);
        Ok(())
    }

    #[test]
    fn empty_inputs_score_zero() -> Result<()> {
        let c = cfg(Smoothing::Exp, true)?;
        assert_eq!(sentence_bleu(&c, "", &[""])?.score, 0.0);
        assert_eq!(sentence_bleu(&c, "", &[])?.ref_len, -1);
        assert!(sentence_bleu(&c, "x", &[]).is_err());
        Ok(())
    }
}
