//! nltk 3.10.4 BLEU (`nltk.translate.bleu_score`): `sentence_bleu`, `corpus_bleu` and the eight
//! `SmoothingFunction` methods (Chen & Cherry 2014), bit for bit. Precisions stay nltk's
//! unnormalised count fractions, smoothing repeats its int / Fraction / float arithmetic, the
//! weighted log precisions are summed with `math.fsum`, and nltk's early `return 0` (an int, before
//! any smoothing) stays distinct from a float score.

use num_bigint::BigInt;
use smallvec::{smallvec, SmallVec};

use super::ngrams::{with_ngrams, Ngrams};
pub use super::ngrams::{HashToken, Id, Token, TokenTable};
use super::pynum::{count_ratio, int_to_f64, py_exp, Fsum, Num};
use crate::error::{Error, PyExc, Result};
use crate::parallel;
use crate::text::Tokenizer;

/// One value per n-gram order (or per weight vector), inline up to the usual 4.
pub type Orders<T> = SmallVec<[T; 4]>;

/// `SmoothingFunction().method0` … `method7`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Method0,
    Method1,
    Method2,
    Method3,
    Method4,
    Method5,
    Method6,
    Method7,
}

impl Method {
    pub fn from_name(name: &str) -> Result<Method> {
        Ok(match name {
            "method0" => Method::Method0,
            "method1" => Method::Method1,
            "method2" => Method::Method2,
            "method3" => Method::Method3,
            "method4" => Method::Method4,
            "method5" => Method::Method5,
            "method6" => Method::Method6,
            "method7" => Method::Method7,
            other => {
                return Err(Error::InvalidValue(format!(
                    "unknown smoothing {other:?}; expected method0 … method7"
                )))
            }
        })
    }
}

/// A smoothing parameter as Python holds it: its type decides whether nltk's arithmetic stays
/// exact (int) or turns float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Param {
    Int(i64),
    Float(f64),
}

impl Param {
    fn num(self) -> Num {
        match self {
            Param::Int(i) => Num::int(i),
            Param::Float(x) => Num::Float(x),
        }
    }
}

/// `SmoothingFunction(epsilon, alpha, k).<method>`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Smoothing {
    pub method: Method,
    /// Used by method1 (nltk default 0.1).
    pub epsilon: Param,
    /// Used by method6 (nltk default 5).
    pub alpha: Param,
    /// Used by method4 and method7 (nltk default 5).
    pub k: Param,
}

impl Smoothing {
    /// The method with nltk's default parameters `SmoothingFunction()`.
    pub fn new(method: Method) -> Smoothing {
        Smoothing {
            method,
            epsilon: Param::Float(0.1),
            alpha: Param::Int(5),
            k: Param::Int(5),
        }
    }
}

/// The settings of sentence BLEU: `sentence_bleu(..., weights, smoothing_function, auto_reweigh)`.
#[derive(Debug, Clone, PartialEq)]
pub struct BleuSettings {
    /// One weight per n-gram order (nltk default `(0.25, 0.25, 0.25, 0.25)`).
    pub weights: Vec<f64>,
    pub smoothing: Smoothing,
    /// Uniform weights over the hypothesis length when it is below 4 and the weights are the
    /// default.
    pub auto_reweigh: bool,
}

impl Default for BleuSettings {
    /// nltk's `sentence_bleu` defaults: 4-gram uniform weights, method0, no reweighing.
    fn default() -> Self {
        BleuSettings {
            weights: vec![0.25; 4],
            smoothing: Smoothing::new(Method::Method0),
            auto_reweigh: false,
        }
    }
}

/// A BLEU result: nltk's int `0` (no unigram matches, returned before smoothing) or one float per
/// weight vector.
#[derive(Debug, Clone, PartialEq)]
pub enum Bleu {
    Zero,
    Scores(Orders<f64>),
}

impl Bleu {
    /// The first score as a float (`0.0` for the int-0 result).
    pub fn first(&self) -> f64 {
        match self {
            Bleu::Zero => 0.0,
            Bleu::Scores(s) => s.first().copied().unwrap_or(0.0),
        }
    }
}

/// One hypothesis with its references (`R`: a `Vec<T>` or a slice of `T`).
#[derive(Debug)]
pub struct Segment<'a, T, R = Vec<T>> {
    pub references: &'a [R],
    pub hypothesis: &'a [T],
}

impl<T, R> Clone for Segment<'_, T, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, R> Copy for Segment<'_, T, R> {}

impl<'a, T> Segment<'a, T> {
    /// nltk's `list_of_references` and `hypotheses` as segments (as far as the shorter goes).
    pub fn corpus(list_of_references: &'a [Vec<Vec<T>>], hypotheses: &'a [Vec<T>]) -> Vec<Self> {
        list_of_references
            .iter()
            .zip(hypotheses)
            .map(|(references, hypothesis)| Segment {
                references,
                hypothesis,
            })
            .collect()
    }
}

/// The reference length closest to the hypothesis length, the shorter one on ties.
fn closest_ref_length<T, R: AsRef<[T]>>(references: &[R], hyp_len: usize) -> usize {
    references
        .iter()
        .map(|r| r.as_ref().len())
        .min_by_key(|&r| (r.abs_diff(hyp_len), r))
        .unwrap_or(0)
}

/// Summed counts of segments.
struct Totals {
    numerators: Orders<u64>,
    denominators: Orders<u64>,
    hyp_len: u64,
    ref_len: u64,
}

impl Totals {
    fn new(max_order: usize) -> Totals {
        // Up to 4 orders from a zeroed array: `smallvec![0; n]` calls memset, whose wide stores
        // the 8-byte reads that follow wait for.
        let zeros = || match max_order {
            0..=4 => Orders::from_buf_and_len([0; 4], max_order),
            _ => smallvec![0; max_order],
        };
        Totals {
            numerators: zeros(),
            denominators: zeros(),
            hyp_len: 0,
            ref_len: 0,
        }
    }

    fn add<T: Token, R: AsRef<[T]>>(
        &mut self,
        ngrams: &mut Ngrams,
        s: &Segment<'_, T, R>,
    ) -> Result<()> {
        let max_order = self.numerators.len();
        ngrams.clipped_counts(s.references, s.hypothesis, max_order, |n, a, b| {
            if let (Some(num), Some(den)) = (
                self.numerators.get_mut(n - 1),
                self.denominators.get_mut(n - 1),
            ) {
                *num += a;
                *den += b;
            }
        })?;
        let hyp_len = s.hypothesis.len();
        self.hyp_len += hyp_len as u64;
        self.ref_len += closest_ref_length(s.references, hyp_len) as u64;
        Ok(())
    }

    fn merge(mut self, other: Totals) -> Totals {
        for (a, b) in self.numerators.iter_mut().zip(&other.numerators) {
            *a += b;
        }
        for (a, b) in self.denominators.iter_mut().zip(&other.denominators) {
            *a += b;
        }
        self.hyp_len += other.hyp_len;
        self.ref_len += other.ref_len;
        self
    }
}

/// The corpus totals `corpus_bleu` computes before smoothing, and what nltk's smoothing functions
/// see of the last segment (they read the last loop values of `references` and `hypothesis`).
pub struct CorpusStats {
    numerators: Orders<u64>,
    denominators: Orders<u64>,
    hyp_len: u64,
    ref_len: u64,
    last_hyp_len: usize,
    /// The last segment's 5-gram precision, which methods 5 and 7 use whatever the order.
    last_fivegram: (u64, u64),
}

/// The precisions after smoothing (ints, Fractions or floats, as in nltk).
pub struct Precisions(Orders<Num>);

/// Sum the n-gram statistics of a corpus for orders `1..=max_order` (plus what `smoothing` needs
/// of the last segment), raising what nltk raises before smoothing.
pub fn corpus_stats<T: Token + Sync, R: AsRef<[T]> + Sync>(
    segments: &[Segment<'_, T, R>],
    max_order: usize,
    smoothing: &Smoothing,
) -> Result<CorpusStats> {
    if let Some(s) = segments.iter().find(|s| s.references.is_empty()) {
        // nltk looks up the hypothesis' first unigram among no reference counts before it takes
        // the min() over no reference lengths.
        return Err(if max_order > 0 && !s.hypothesis.is_empty() {
            Error::reference(
                PyExc::Key,
                "the first token of a hypothesis without references",
            )
        } else {
            Error::reference(PyExc::Value, "min() arg is an empty sequence")
        });
    }
    if segments.is_empty() && max_order > 0 {
        return Err(Error::reference(PyExc::ZeroDivision, "Fraction(0, 0)"));
    }
    let count = |s: &Segment<'_, T, R>| {
        with_ngrams(|ngrams| {
            let mut t = Totals::new(max_order);
            t.add(ngrams, s).map(|()| t)
        })
    };
    let totals = match segments {
        // A sentence: no list of one.
        [s] => count(s)?,
        // Integer sums: the order they are added in cannot change them.
        _ => parallel::map(segments, 16, count)
            .into_iter()
            .try_fold(Totals::new(max_order), |sum, t| {
                Ok::<_, Error>(sum.merge(t?))
            })?,
    };
    let last = segments.last();
    let mut last_fivegram = (0, 1);
    if let (Some(s), Method::Method5 | Method::Method7) = (last, smoothing.method) {
        with_ngrams(|ngrams| {
            ngrams.clipped_counts(s.references, s.hypothesis, 5, |n, a, b| {
                if n == 5 {
                    last_fivegram = (a, b);
                }
            })
        })?;
    }
    Ok(CorpusStats {
        numerators: totals.numerators,
        denominators: totals.denominators,
        hyp_len: totals.hyp_len,
        ref_len: totals.ref_len,
        last_hyp_len: last.map_or(0, |s| s.hypothesis.len()),
        last_fivegram,
    })
}

/// `float(2**inc * k)` as Python computes it.
fn scaled_k(k: Param, inc: u32) -> Result<f64> {
    match k {
        Param::Float(kf) => {
            if inc > 1023 {
                return Err(Error::reference(
                    PyExc::Overflow,
                    "int too large to convert to float",
                ));
            }
            Ok(f64::from_bits((u64::from(inc) + 1023) << 52) * kf)
        }
        Param::Int(ki) => match 1i64.checked_shl(inc).and_then(|p| ki.checked_mul(p)) {
            Some(v) if inc < 63 => Ok(v as f64),
            _ => int_to_f64(&(BigInt::from(ki) << inc)),
        },
    }
}

impl CorpusStats {
    /// nltk returns int `0` here, before smoothing: no unigram matched (or no order was asked).
    pub fn is_zero(&self) -> bool {
        self.numerators.first().is_none_or(|&n| n == 0)
    }

    /// Total hypothesis length (nltk's `hyp_lengths`).
    pub fn hyp_len(&self) -> u64 {
        self.hyp_len
    }

    /// The n-gram orders (1-based) without any match: method0 warns once for each.
    pub fn zero_orders(&self) -> Vec<usize> {
        self.numerators
            .iter()
            .enumerate()
            .filter(|(_, &n)| n == 0)
            .map(|(i, _)| i + 1)
            .collect()
    }

    /// Apply the smoothing function to the corpus precisions.
    pub fn smooth(&self, smoothing: &Smoothing) -> Result<Precisions> {
        let mut p: Orders<Num> = self
            .numerators
            .iter()
            .zip(&self.denominators)
            .map(|(&a, &b)| Num::Ratio(a, b))
            .collect();
        match smoothing.method {
            Method::Method0 => {
                for (pi, &a) in p.iter_mut().zip(&self.numerators) {
                    if a == 0 {
                        *pi = Num::Float(f64::MIN_POSITIVE);
                    }
                }
            }
            Method::Method1 => {
                let epsilon = smoothing.epsilon.num();
                for (pi, (&a, &b)) in p.iter_mut().zip(self.counts()) {
                    if a == 0 {
                        *pi = Num::int(0).add(&epsilon)?.div(&Num::int(b))?;
                    }
                }
            }
            Method::Method2 => {
                // Counts are bounded by the tokens in memory, so `+ 1` cannot overflow.
                for (pi, (&a, &b)) in p.iter_mut().zip(self.counts()).skip(1) {
                    *pi = Num::Ratio(a.saturating_add(1), b.saturating_add(1));
                }
            }
            Method::Method3 => {
                let mut inc = 1u32;
                for (pi, (&a, &b)) in p.iter_mut().zip(self.counts()) {
                    if a == 0 {
                        *pi = Num::int(1).div(&Num::Int(BigInt::from(b) << inc))?;
                        inc += 1;
                    }
                }
            }
            Method::Method4 => self.method4(&mut p, smoothing.k)?,
            Method::Method5 => self.method5(&mut p)?,
            Method::Method6 => self.method6(&mut p, smoothing.alpha)?,
            Method::Method7 => {
                self.method4(&mut p, smoothing.k)?;
                self.method5(&mut p)?;
            }
        }
        Ok(Precisions(p))
    }

    fn counts(&self) -> impl Iterator<Item = (&u64, &u64)> {
        self.numerators.iter().zip(&self.denominators)
    }

    /// Zero orders get `1 / (2**inc * k / ln(L)) / denominator`, L = corpus hypothesis length; no
    /// smoothing at all when L is 1.
    fn method4(&self, p: &mut [Num], k: Param) -> Result<()> {
        let len = if self.hyp_len > 0 {
            self.hyp_len
        } else {
            self.last_hyp_len as u64
        };
        if len <= 1 {
            return Ok(());
        }
        let ln = (len as f64).ln();
        let mut inc = 1u32;
        for (pi, (&a, &b)) in p.iter_mut().zip(self.counts()) {
            if a == 0 {
                let t = scaled_k(k, inc)? / ln;
                if t == 0.0 {
                    return Err(Error::reference(
                        PyExc::ZeroDivision,
                        "float division by zero",
                    ));
                }
                *pi = Num::Float((1.0 / t) / b as f64);
                inc += 1;
            }
        }
        Ok(())
    }

    /// Each order becomes the mean of the previous smoothed value and the original values of this
    /// and the next order (order N+1 is the last segment's 5-gram precision, whatever N is).
    fn method5(&self, p: &mut [Num]) -> Result<()> {
        let Some(first) = p.first() else {
            return Ok(());
        };
        let (a5, b5) = self.last_fivegram;
        let mut next: Vec<Num> = p.iter().skip(1).cloned().collect();
        next.push(Num::Ratio(a5, b5));
        let mut m = first.add(&Num::int(1))?;
        for (pi, following) in p.iter_mut().zip(&next) {
            m = m.add(pi)?.add(following)?.div(&Num::int(3))?;
            *pi = m.clone();
        }
        Ok(())
    }

    /// Interpolates each order from 3 on with the prior `p[n-1]^2 / p[n-2]`, in place.
    fn method6(&self, p: &mut [Num], alpha: Param) -> Result<()> {
        if p.len() < 3 {
            return Err(Error::reference(PyExc::Index, "list index out of range"));
        }
        if self.numerators.get(2) == Some(&0) {
            return Err(Error::reference(
                PyExc::Assertion,
                "This smoothing method requires non-zero precision for bigrams.",
            ));
        }
        let hyp_len = self.last_hyp_len;
        let alpha = alpha.num();
        for i in 2..p.len() {
            let pi0 = if p[i - 2].is_zero() {
                Num::int(0)
            } else {
                p[i - 1].squared()?.div(&p[i - 2])?
            };
            let matches = Num::int(self.numerators[i]);
            let ngrams = Num::int(hyp_len.saturating_sub(i));
            p[i] = matches.add(&alpha.mul(&pi0)?)?.div(&ngrams.add(&alpha)?)?;
        }
        Ok(())
    }

    fn brevity_penalty(&self) -> f64 {
        if self.hyp_len > self.ref_len {
            1.0
        } else {
            (1.0 - count_ratio(u128::from(self.ref_len), u128::from(self.hyp_len))).exp()
        }
    }

    /// `bp * exp(fsum(w_i * log(p_i) for p_i > 0))` for one weight vector.
    pub fn score(&self, precisions: &Precisions, weights: &[f64]) -> Result<f64> {
        let mut sum = Fsum::default();
        for (w, p) in weights.iter().zip(&precisions.0) {
            if p.is_positive() {
                sum.add(w * p.log()?)?;
            }
        }
        Ok(self.brevity_penalty() * py_exp(sum.finish()?)?)
    }

    /// `auto_reweigh`: uniform weights over the hypothesis length when it is below 4 and the
    /// weights are the default `(0.25, 0.25, 0.25, 0.25)`.
    fn reweigh(&self, weights: &[f64]) -> Vec<f64> {
        if self.hyp_len < 4 && weights == [0.25; 4] {
            vec![1.0 / self.hyp_len as f64; self.hyp_len as usize]
        } else {
            weights.to_vec()
        }
    }
}

fn bleu_of_segments<T: Token + Sync, R: AsRef<[T]> + Sync, W: AsRef<[f64]>>(
    segments: &[Segment<'_, T, R>],
    weights: &[W],
    smoothing: &Smoothing,
    auto_reweigh: bool,
) -> Result<Bleu> {
    let max_order = weights.iter().map(|w| w.as_ref().len()).max().unwrap_or(0);
    let stats = corpus_stats(segments, max_order, smoothing)?;
    if stats.is_zero() {
        return Ok(Bleu::Zero);
    }
    let precisions = stats.smooth(smoothing)?;
    weights
        .iter()
        .map(|w| {
            if auto_reweigh {
                stats.score(&precisions, &stats.reweigh(w.as_ref()))
            } else {
                stats.score(&precisions, w.as_ref())
            }
        })
        .collect::<Result<Orders<f64>>>()
        .map(Bleu::Scores)
}

/// nltk `corpus_bleu(list_of_references, hypotheses, weights, smoothing_function, auto_reweigh)`
/// with one score per weight vector. Tokens compare by equality (case-sensitive).
pub fn corpus_bleu<T: Token + Sync>(
    list_of_references: &[Vec<Vec<T>>],
    hypotheses: &[Vec<T>],
    weights: &[Vec<f64>],
    smoothing: &Smoothing,
    auto_reweigh: bool,
) -> Result<Bleu> {
    if list_of_references.len() != hypotheses.len() {
        return Err(Error::reference(
            PyExc::Assertion,
            "The number of hypotheses and their reference(s) should be the same ",
        ));
    }
    bleu_of_segments(
        &Segment::corpus(list_of_references, hypotheses),
        weights,
        smoothing,
        auto_reweigh,
    )
}

/// nltk `sentence_bleu(references, hypothesis, weights, smoothing_function, auto_reweigh)`.
pub fn sentence_bleu<T: Token + Sync, R: AsRef<[T]> + Sync>(
    references: &[R],
    hypothesis: &[T],
    settings: &BleuSettings,
) -> Result<Bleu> {
    let segment = Segment {
        references,
        hypothesis,
    };
    bleu_of_segments(
        &[segment],
        &[&settings.weights],
        &settings.smoothing,
        settings.auto_reweigh,
    )
}

/// `sentence_bleu` of a response against its references as a float (nltk's int `0` becomes
/// `0.0`); an empty reference list is an error.
pub fn bleu_tokens<T: Token + Sync, R: AsRef<[T]> + Sync>(
    response: &[T],
    references: &[R],
    settings: &BleuSettings,
) -> Result<f64> {
    if references.is_empty() {
        return Err(Error::InvalidValue(
            "no reference (nltk raises ValueError: min() arg is an empty sequence)".to_string(),
        ));
    }
    Ok(sentence_bleu(references, response, settings)?.first())
}

/// Sentence BLEU of one response against its references after tokenizing both; with the
/// promptflow tokenizer and method4 this is promptflow-evals 0.3.5 `BleuScoreEvaluator` (nltk's
/// int `0` becomes `0.0`).
pub fn bleu_text(
    response: &str,
    references: &[&str],
    tokenizer: Tokenizer,
    settings: &BleuSettings,
) -> Result<f64> {
    tokenizer.with_segment(response, references, |hypothesis, references| {
        bleu_tokens(hypothesis, references, settings)
    })
}

/// `bleu_text` for every row, in parallel (rows are independent, so the thread count never changes
/// a result). `responses` and `references` have one entry per row.
pub fn bleu_batch<'a, R: AsRef<[&'a str]> + Sync>(
    responses: &[&str],
    references: &[R],
    tokenizer: Tokenizer,
    settings: &BleuSettings,
) -> Vec<Result<f64>> {
    parallel::map_pairs(responses, references, 8, |response, refs| {
        bleu_text(response, refs.as_ref(), tokenizer, settings)
    })
}

/// `bleu_tokens` for every row of pre-tokenised responses and references, in parallel.
pub fn bleu_tokens_batch<T: Token + Sync, R: AsRef<[T]> + Sync>(
    rows: &[Segment<'_, T, R>],
    settings: &BleuSettings,
) -> Vec<Result<f64>> {
    parallel::map(rows, 16, |s| {
        bleu_tokens(s.hypothesis, s.references, settings)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<&str> {
        s.split(' ').filter(|t| !t.is_empty()).collect()
    }

    fn sentence(refs: &[&str], hyp: &str, method: Method) -> Result<Bleu> {
        let refs: Vec<Vec<&str>> = refs.iter().map(|r| toks(r)).collect();
        let settings = BleuSettings {
            smoothing: Smoothing::new(method),
            ..BleuSettings::default()
        };
        sentence_bleu(&refs, &toks(hyp), &settings)
    }

    const HYP1: &str = "It is a guide to action which ensures that the military always obeys the commands of the party";
    const REF1: &str =
        "It is a guide to action that ensures that the military will forever heed Party commands";

    #[test]
    fn nltk_docstring_values() {
        // nltk 3.10.4's SmoothingFunction doctest example, full reprs from the real library.
        let want = [
            (Method::Method0, 0.41180376356915777),
            (Method::Method1, 0.41180376356915777),
            (Method::Method2, 0.4452945001507636),
            (Method::Method3, 0.41180376356915777),
            (Method::Method4, 0.41180376356915777),
            (Method::Method5, 0.4905328138015114),
            (Method::Method6, 0.41358958106633686),
            (Method::Method7, 0.4905328138015114),
        ];
        for (method, value) in want {
            assert_eq!(
                sentence(&[REF1], HYP1, method),
                Ok(Bleu::Scores(smallvec![value])),
                "{method:?}"
            );
        }
    }

    #[test]
    fn int_zero_before_smoothing() {
        assert_eq!(sentence(&["a b"], "c d", Method::Method4), Ok(Bleu::Zero));
        assert_eq!(sentence(&["a b"], "", Method::Method6), Ok(Bleu::Zero));
    }

    #[test]
    fn method4_one_token() {
        assert_eq!(
            sentence(&["a"], "a", Method::Method4),
            Ok(Bleu::Scores(smallvec![1.0]))
        );
        assert_eq!(
            sentence(&["a b c d e"], "a", Method::Method4),
            Ok(Bleu::Scores(smallvec![0.01831563888873418]))
        );
    }

    #[test]
    fn method6_raises() {
        let e = sentence(&["a b c"], "a b", Method::Method6).unwrap_err();
        assert!(matches!(e, Error::Reference(PyExc::Assertion, _)));
    }

    #[test]
    fn empty_references_and_corpus() {
        let none: Vec<Vec<&str>> = vec![];
        let unigrams = BleuSettings {
            weights: vec![1.0],
            ..BleuSettings::default()
        };
        let e = sentence_bleu(&none, &toks(""), &unigrams).unwrap_err();
        assert_eq!(
            e,
            Error::reference(PyExc::Value, "min() arg is an empty sequence")
        );
        let e = sentence_bleu(&none, &toks("a"), &unigrams).unwrap_err();
        assert!(matches!(e, Error::Reference(PyExc::Key, _)));
        let e = corpus_bleu::<&str>(
            &[],
            &[],
            &[vec![1.0]],
            &Smoothing::new(Method::Method0),
            false,
        )
        .unwrap_err();
        assert_eq!(e, Error::reference(PyExc::ZeroDivision, "Fraction(0, 0)"));
    }
}
