//! Statistics over per-row score columns: NaN-aware mean and standard deviation (as numpy's
//! `nanmean` / `nanstd`), seeded bootstrap distributions of the mean, paired tests between two
//! systems (approximate randomisation as `scipy.stats.permutation_test(permutation_type="samples")`,
//! and the paired bootstrap), and agreement statistics (Pearson, Spearman and Kendall tau-b as
//! `scipy.stats`, Cohen's kappa as scikit-learn).
//!
//! Randomness: resample `r` of a call with seed `s` draws from its own xoshiro256++ stream, seeded
//! through SplitMix64 with `splitmix64(s) + r`, so results depend on (seed, resample index) only,
//! never on the thread count or the machine. Parallel sums use fixed chunks combined in order.

use std::cmp::Ordering;

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};
use rayon::prelude::*;

use crate::error::{Error, Result};

/// Values per chunk of a parallel sum (the chunking, not the thread count, fixes the result).
const SUM_CHUNK: usize = 1 << 14;

/// Sum in a fixed order: 4 accumulators within each chunk, chunk sums added left to right.
fn sum_by<F: Fn(f64) -> f64 + Sync>(x: &[f64], f: F) -> f64 {
    let chunk_sum = |c: &[f64]| {
        let (body, tail) = c.as_chunks::<4>();
        let mut acc = [0.0f64; 4];
        for v in body {
            for l in 0..4 {
                acc[l] += f(v[l]);
            }
        }
        tail.iter()
            .fold((acc[0] + acc[1]) + (acc[2] + acc[3]), |s, &v| s + f(v))
    };
    let partial: Vec<f64> = x.par_chunks(SUM_CHUNK).map(chunk_sum).collect();
    partial.iter().sum()
}

/// Mean, standard deviation and counts of a score column, NaN skipped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeanStd {
    pub mean: f64,
    /// sqrt(sum((x - mean)^2) / (count - ddof)); NaN when count <= ddof.
    pub std: f64,
    /// Values that are not NaN.
    pub count: usize,
    pub nan_count: usize,
}

/// numpy's `nanmean(x)` and `nanstd(x, ddof=ddof)` (two passes), with the counts.
pub fn mean_std(x: &[f64], ddof: f64) -> MeanStd {
    let nan_count = x
        .par_chunks(SUM_CHUNK)
        .map(|c| c.iter().filter(|v| v.is_nan()).count())
        .sum();
    let count = x.len() - nan_count;
    let skip_nan = |v: f64| if v.is_nan() { 0.0 } else { v };
    let mean = sum_by(x, skip_nan) / count as f64;
    let ss = sum_by(x, |v| {
        if v.is_nan() {
            0.0
        } else {
            (v - mean) * (v - mean)
        }
    });
    let dof = count as f64 - ddof;
    let std = if dof > 0.0 {
        (ss / dof).sqrt()
    } else {
        f64::NAN
    };
    MeanStd {
        mean,
        std,
        count,
        nan_count,
    }
}

/// The values that are not NaN (borrowed when there is none).
fn without_nan(x: &[f64]) -> std::borrow::Cow<'_, [f64]> {
    if x.iter().any(|v| v.is_nan()) {
        x.iter()
            .copied()
            .filter(|v| !v.is_nan())
            .collect::<Vec<_>>()
            .into()
    } else {
        x.into()
    }
}

/// The random stream of resample `index` of a call seeded with `seed`.
fn stream(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    let base = SplitMix64::seed_from_u64(seed).next_u64();
    Xoshiro256PlusPlus::seed_from_u64(base.wrapping_add(index))
}

// ---- bootstrap -------------------------------------------------------------------------------

/// log2 of the leaf size: below it, draws pick a row with 8 random bits each.
const LEAF_BITS: u32 = 8;
const LEAF: usize = 1 << LEAF_BITS;

/// One bootstrap resample of the mean, drawn exactly as n uniform row indices with replacement but
/// without visiting rows at random: the index range (padded to a power of two) is halved
/// recursively, the number of draws falling in the lower half being Binomial(count, 1/2) (the
/// popcount of `count` random bits); a leaf of 256 rows takes one random byte per draw. Draws that
/// land in the padding are drawn again over the whole range, which keeps every index uniform.
/// Rows are read block by block, so a 1M-row column streams through the cache instead of being
/// read at random.
struct Resample<'a> {
    x: &'a [f64],
    rng: Xoshiro256PlusPlus,
    sum: f64,
}

impl Resample<'_> {
    #[inline(always)]
    fn binomial_half(&mut self, count: u64) -> u64 {
        let mut lower = 0u64;
        let mut rest = count;
        while rest >= 64 {
            lower += u64::from(self.rng.next_u64().count_ones());
            rest -= 64;
        }
        if rest > 0 {
            lower += u64::from((self.rng.next_u64() & ((1u64 << rest) - 1)).count_ones());
        }
        lower
    }

    /// Places `count` draws in the rows [0, 2^bits) depth first, lower half first; returns the
    /// draws that fell past the last row. (A loop, not recursion, so that it compiles inside the
    /// POPCNT build.)
    #[inline(always)]
    fn place(&mut self, bits: u32, count: u64) -> u64 {
        let mut rejected = 0;
        // (start, bits, count); depth first keeps at most one pending sibling per level.
        let mut stack: Vec<(usize, u32, u64)> = Vec::with_capacity(2 * usize::BITS as usize);
        stack.push((0, bits, count));
        while let Some((start, bits, count)) = stack.pop() {
            if count == 0 {
                continue;
            }
            if start >= self.x.len() {
                rejected += count;
            } else if bits <= LEAF_BITS {
                rejected += self.leaf(start, bits, count);
            } else {
                let lower = self.binomial_half(count);
                stack.push((start + (1usize << (bits - 1)), bits - 1, count - lower));
                stack.push((start, bits - 1, lower));
            }
        }
        rejected
    }

    #[inline(always)]
    fn leaf(&mut self, start: usize, bits: u32, count: u64) -> u64 {
        let end = self.x.len().min(start + (1usize << bits));
        let rows = self.x.get(start..end).unwrap_or(&[]);
        prefetch(self.x.get(end..self.x.len().min(end + LEAF)).unwrap_or(&[]));
        if let Ok(full) = <&[f64; LEAF]>::try_from(rows) {
            self.full_leaf(full, count);
            return 0;
        }
        // A short leaf (the last one, or a column under 256 rows): `bits` random bits per draw,
        // draws past the end rejected.
        let per_word = u64::from(64 / bits.max(1));
        let mask = (1u64 << bits) - 1;
        let (mut left, mut rejected, mut sum) = (count, 0u64, 0.0f64);
        while left > 0 {
            let mut r = self.rng.next_u64();
            for _ in 0..left.min(per_word) {
                match rows.get((r & mask) as usize) {
                    Some(v) => sum += v,
                    None => rejected += 1,
                }
                r >>= bits;
            }
            left -= left.min(per_word);
        }
        self.sum += sum;
        rejected
    }

    #[inline(always)]
    fn full_leaf(&mut self, rows: &[f64; LEAF], count: u64) {
        let mut acc = [0.0f64; 8];
        let mut left = count;
        while left >= 8 {
            let r = self.rng.next_u64().to_le_bytes();
            for l in 0..8 {
                acc[l] += rows[r[l] as usize];
            }
            left -= 8;
        }
        if left > 0 {
            let r = self.rng.next_u64().to_le_bytes();
            for (l, &byte) in r.iter().enumerate().take(left as usize) {
                acc[l] += rows[byte as usize];
            }
        }
        self.sum +=
            ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
    }
}

/// Asks the cache for rows the next leaf will read at random (a hint; never faults).
#[inline(always)]
fn prefetch(rows: &[f64]) {
    #[cfg(target_arch = "x86_64")]
    for line in rows.chunks(8) {
        // SAFETY: prefetching is a hint that never dereferences or faults; the pointer is in bounds.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                line.as_ptr().cast(),
            )
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = rows;
}

#[inline(always)]
fn resample_mean_impl(x: &[f64], seed: u64, index: u64) -> f64 {
    let n = x.len();
    if n <= 1 {
        return x.first().copied().unwrap_or(f64::NAN);
    }
    let bits = usize::BITS - (n - 1).leading_zeros();
    let mut r = Resample {
        x,
        rng: stream(seed, index),
        sum: 0.0,
    };
    let mut pending = n as u64;
    while pending > 0 {
        pending = r.place(bits, pending);
    }
    r.sum / n as f64
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn resample_mean_popcnt(x: &[f64], seed: u64, index: u64) -> f64 {
    resample_mean_impl(x, seed, index)
}

/// The mean of bootstrap resample `index` (n rows drawn with replacement) of `x`.
fn resample_mean(x: &[f64], seed: u64, index: u64) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has POPCNT (checked just above).
        return unsafe { resample_mean_popcnt(x, seed, index) };
    }
    resample_mean_impl(x, seed, index)
}

/// The bootstrap distribution of the mean: `n_resamples` means of rows drawn with replacement from
/// the non-NaN values of `x` (empty when none is left).
pub fn bootstrap_means(x: &[f64], n_resamples: usize, seed: u64) -> Vec<f64> {
    let x = without_nan(x);
    if x.is_empty() {
        return Vec::new();
    }
    (0..n_resamples as u64)
        .into_par_iter()
        .map(|r| resample_mean(&x, seed, r))
        .collect()
}

// ---- paired tests ----------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairedMethod {
    /// Approximate randomisation: each pair's scores swapped with probability 1/2 (the sign of the
    /// difference flipped); all 2^n swaps when that is at most `n_resamples`.
    Permutation,
    /// Paired bootstrap: rows resampled with replacement, the distribution shifted to mean zero.
    Bootstrap,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alternative {
    TwoSided,
    Less,
    Greater,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedTest {
    /// mean(a - b) over the pairs without NaN.
    pub statistic: f64,
    pub p_value: f64,
    pub n: usize,
    /// Null samples drawn (2^n when exact).
    pub n_resamples: usize,
    pub exact: bool,
}

/// mean(±d) with the signs of the set bits of `flips` (word w covers rows 64w..64w+63) flipped.
#[inline(always)]
fn signed_mean(d: &[f64], flips: impl Iterator<Item = u64>) -> f64 {
    let (blocks, tail) = d.as_chunks::<64>();
    let mut acc = [0.0f64; 8];
    let mut words = flips;
    for block in blocks {
        let bits = words.next().unwrap_or(0);
        for (g, group) in block.as_chunks::<8>().0.iter().enumerate() {
            for l in 0..8 {
                let sign = ((bits >> (g * 8 + l)) & 1) << 63;
                acc[l] += f64::from_bits(group[l].to_bits() ^ sign);
            }
        }
    }
    let bits = words.next().unwrap_or(0);
    let mut sum = acc.iter().sum::<f64>();
    for (j, v) in tail.iter().enumerate() {
        sum += f64::from_bits(v.to_bits() ^ (((bits >> j) & 1) << 63));
    }
    sum / d.len() as f64
}

/// p-value of `observed` against a null distribution, as scipy's permutation_test: values within
/// 100 eps |observed| of it count as equal; randomised tests add 1 to both counts; two-sided is
/// twice the smaller one-sided p-value, at most 1.
fn p_value(null: &[f64], observed: f64, alternative: Alternative, exact: bool) -> f64 {
    let gamma = (f64::EPSILON * 100.0 * observed).abs();
    let adjust = if exact { 0.0 } else { 1.0 };
    let total = null.len() as f64 + adjust;
    let less = (null.iter().filter(|&&v| v <= observed + gamma).count() as f64 + adjust) / total;
    let greater = (null.iter().filter(|&&v| v >= observed - gamma).count() as f64 + adjust) / total;
    let p = match alternative {
        Alternative::Less => less,
        Alternative::Greater => greater,
        Alternative::TwoSided => 2.0 * less.min(greater),
    };
    p.clamp(0.0, 1.0)
}

/// Tests whether system a scores higher or lower than system b on the same rows. Pairs where either
/// score is NaN are dropped.
pub fn paired_test(
    a: &[f64],
    b: &[f64],
    method: PairedMethod,
    alternative: Alternative,
    n_resamples: usize,
    seed: u64,
) -> Result<PairedTest> {
    if a.len() != b.len() {
        return Err(Error::InvalidValue(format!(
            "a has {} rows but b has {}",
            a.len(),
            b.len()
        )));
    }
    if n_resamples == 0 {
        return Err(Error::InvalidValue("n_resamples must be at least 1".into()));
    }
    let d: Vec<f64> = a
        .iter()
        .zip(b)
        .filter(|(x, y)| !x.is_nan() && !y.is_nan())
        .map(|(x, y)| x - y)
        .collect();
    let n = d.len();
    if n == 0 {
        return Ok(PairedTest {
            statistic: f64::NAN,
            p_value: f64::NAN,
            n,
            n_resamples: 0,
            exact: false,
        });
    }
    let observed = signed_mean(&d, std::iter::empty());
    let exact = method == PairedMethod::Permutation
        && u32::try_from(n).is_ok_and(|n| n < 64 && (1u64 << n) <= n_resamples as u64);
    let null: Vec<f64> = match method {
        PairedMethod::Permutation if exact => (0..1u64 << n)
            .into_par_iter()
            .map(|mask| signed_mean(&d, std::iter::once(mask)))
            .collect(),
        PairedMethod::Permutation => (0..n_resamples as u64)
            .into_par_iter()
            .map(|r| {
                let mut rng = stream(seed, r);
                signed_mean(&d, std::iter::from_fn(move || Some(rng.next_u64())))
            })
            .collect(),
        PairedMethod::Bootstrap => (0..n_resamples as u64)
            .into_par_iter()
            .map(|r| resample_mean(&d, seed, r) - observed)
            .collect(),
    };
    Ok(PairedTest {
        statistic: observed,
        p_value: p_value(&null, observed, alternative, exact),
        n,
        n_resamples: null.len(),
        exact,
    })
}

// ---- agreement -------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Correlation {
    Pearson,
    Spearman,
    /// Kendall's tau-b (ties adjusted).
    Kendall,
}

/// Comparison where -0.0 == 0.0 (the inputs hold no NaN).
fn cmp_f64(a: f64, b: f64) -> Ordering {
    a.partial_cmp(&b).unwrap_or(Ordering::Equal)
}

/// The correlation of x and y (scipy.stats `pearsonr`, `spearmanr`, `kendalltau` statistics). NaN
/// when fewer than 2 pairs, when either side is constant, or (without `omit_nan`) when any value is
/// NaN; with `omit_nan` pairs holding a NaN are dropped first.
pub fn correlation(x: &[f64], y: &[f64], method: Correlation, omit_nan: bool) -> Result<f64> {
    if x.len() != y.len() {
        return Err(Error::InvalidValue(format!(
            "x has {} rows but y has {}",
            x.len(),
            y.len()
        )));
    }
    let (x, y): (Vec<f64>, Vec<f64>) = if omit_nan {
        x.iter()
            .zip(y)
            .filter(|(a, b)| !a.is_nan() && !b.is_nan())
            .map(|(a, b)| (*a, *b))
            .unzip()
    } else if x.iter().chain(y).any(|v| v.is_nan()) {
        return Ok(f64::NAN);
    } else {
        (x.to_vec(), y.to_vec())
    };
    Ok(match method {
        Correlation::Pearson => pearson(&x, &y),
        Correlation::Spearman => pearson(&average_ranks(&x), &average_ranks(&y)),
        Correlation::Kendall => kendall_tau_b(&x, &y),
    })
}

/// Pearson's r as scipy computes it: centred, each side scaled by its largest deviation before its
/// norm is taken (no overflow), clipped to [-1, 1]; exactly ±1 for two points.
fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len();
    let constant = |v: &[f64]| v.iter().all(|&a| Some(a) == v.first().copied());
    if n < 2 || constant(x) || constant(y) {
        return f64::NAN;
    }
    if let ([x0, x1], [y0, y1]) = (x, y) {
        let sign = |v: f64| {
            if v > 0.0 {
                1.0
            } else if v < 0.0 {
                -1.0
            } else {
                0.0
            }
        };
        return sign(x1 - x0) * sign(y1 - y0);
    }
    let unit = |v: &[f64]| -> Vec<f64> {
        let mean = sum_by(v, |a| a) / n as f64;
        let centred: Vec<f64> = v.iter().map(|a| a - mean).collect();
        let max = centred.iter().fold(0.0f64, |m, a| m.max(a.abs()));
        let norm = max * sum_by(&centred, |a| (a / max) * (a / max)).sqrt();
        centred.iter().map(|a| a / norm).collect()
    };
    let (ux, uy) = (unit(x), unit(y));
    let r: f64 = ux.iter().zip(&uy).map(|(a, b)| a * b).sum();
    if r.is_nan() {
        r
    } else {
        r.clamp(-1.0, 1.0)
    }
}

/// 1-based ranks, ties given their average rank (scipy's `rankdata(method="average")`).
fn average_ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&i, &j| cmp_f64(v[i], v[j]));
    let mut ranks = vec![0.0; v.len()];
    let mut start = 0;
    while start < order.len() {
        let first = v[order[start]];
        let end = start
            + order[start..]
                .iter()
                .take_while(|&&i| v[i] == first)
                .count();
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}

/// Sum of c (c - 1) / 2 over runs of equal consecutive items.
fn tied_pairs<T>(items: &[T], same: impl Fn(&T, &T) -> bool) -> u64 {
    let mut total = 0u64;
    let mut run = 1u64;
    for w in items.windows(2) {
        if same(&w[0], &w[1]) {
            run += 1;
        } else {
            total += run * (run - 1) / 2;
            run = 1;
        }
    }
    if !items.is_empty() {
        total += run * (run - 1) / 2;
    }
    total
}

/// Pairs i < j with v[i] > v[j], counted by merge sort (sorts `v`).
fn inversions(v: &mut [f64], buf: &mut Vec<f64>) -> u64 {
    let n = v.len();
    if n < 2 {
        return 0;
    }
    let (left, right) = v.split_at_mut(n / 2);
    let mut count = inversions(left, buf) + inversions(right, buf);
    buf.clear();
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        if right[j] < left[i] {
            count += (left.len() - i) as u64;
            buf.push(right[j]);
            j += 1;
        } else {
            buf.push(left[i]);
            i += 1;
        }
    }
    buf.extend_from_slice(&left[i..]);
    buf.extend_from_slice(&right[j..]);
    v.copy_from_slice(buf);
    count
}

/// Kendall's tau-b in O(n log n) (Knight's algorithm, as scipy).
fn kendall_tau_b(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as u64;
    if n < 2 {
        return f64::NAN;
    }
    let mut pairs: Vec<(f64, f64)> = x.iter().copied().zip(y.iter().copied()).collect();
    pairs.sort_by(|a, b| cmp_f64(a.0, b.0).then(cmp_f64(a.1, b.1)));
    let x_ties = tied_pairs(&pairs, |a, b| a.0 == b.0);
    let joint_ties = tied_pairs(&pairs, |a, b| a.0 == b.0 && a.1 == b.1);
    let mut ys: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let mut buf = Vec::with_capacity(ys.len());
    let discordant = inversions(&mut ys, &mut buf);
    let y_ties = tied_pairs(&ys, |a, b| a == b);
    let total = n * (n - 1) / 2;
    if x_ties == total || y_ties == total {
        return f64::NAN;
    }
    let con_minus_dis =
        total as f64 - x_ties as f64 - y_ties as f64 + joint_ties as f64 - 2.0 * discordant as f64;
    let tau = con_minus_dis / ((total - x_ties) as f64).sqrt() / ((total - y_ties) as f64).sqrt();
    tau.clamp(-1.0, 1.0)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KappaWeights {
    /// Any disagreement costs 1.
    Unweighted,
    /// |i - j| between label positions.
    Linear,
    /// (i - j)^2 between label positions.
    Quadratic,
}

/// Cohen's kappa of two raters' label codes (0..n_labels, codes being positions in the sorted
/// labels), as scikit-learn's `cohen_kappa_score`; NaN where it is undefined (no pair, or expected
/// disagreement 0).
pub fn cohen_kappa(
    a: &[usize],
    b: &[usize],
    n_labels: usize,
    weights: KappaWeights,
) -> Result<f64> {
    if a.len() != b.len() {
        return Err(Error::InvalidValue(format!(
            "a has {} rows but b has {}",
            a.len(),
            b.len()
        )));
    }
    let mut confusion = vec![0u64; n_labels * n_labels];
    for (row, (&i, &j)) in a.iter().zip(b).enumerate() {
        let cell = (i < n_labels && j < n_labels)
            .then(|| confusion.get_mut(i * n_labels + j))
            .flatten()
            .ok_or_else(|| {
                Error::InvalidValue(format!("row {row}: label code outside 0..{n_labels}"))
            })?;
        *cell += 1;
    }
    let cell = |i: usize, j: usize| confusion[i * n_labels + j] as f64;
    let col: Vec<f64> = (0..n_labels)
        .map(|j| (0..n_labels).map(|i| cell(i, j)).sum())
        .collect();
    let row: Vec<f64> = (0..n_labels)
        .map(|i| (0..n_labels).map(|j| cell(i, j)).sum())
        .collect();
    let total: f64 = col.iter().sum();
    if total == 0.0 {
        return Ok(f64::NAN);
    }
    let weight = |i: usize, j: usize| {
        let d = i.abs_diff(j) as f64;
        match weights {
            KappaWeights::Unweighted => f64::from(u8::from(i != j)),
            KappaWeights::Linear => d,
            KappaWeights::Quadratic => d * d,
        }
    };
    let (mut observed, mut expected) = (0.0, 0.0);
    for (i, c) in col.iter().enumerate() {
        for (j, r) in row.iter().enumerate() {
            observed += weight(i, j) * cell(i, j);
            // scikit-learn's expected matrix is outer(column sums, row sums) / total.
            expected += weight(i, j) * (c * r / total);
        }
    }
    if expected == 0.0 {
        return Ok(f64::NAN);
    }
    Ok(1.0 - observed / expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_std_skips_nan() {
        let m = mean_std(&[1.0, f64::NAN, 3.0], 0.0);
        assert_eq!((m.mean, m.std, m.count, m.nan_count), (2.0, 1.0, 2, 1));
        let m = mean_std(&[1.0, 3.0], 1.0);
        assert_eq!(m.std, 2.0f64.sqrt());
        let m = mean_std(&[f64::NAN], 0.0);
        assert!(m.mean.is_nan() && m.std.is_nan() && m.count == 0);
    }

    #[test]
    fn bootstrap_is_seeded_and_draws_rows() {
        for n in [1usize, 2, 3, 255, 256, 257, 1000, 5000] {
            let x: Vec<f64> = (0..n).map(|i| i as f64).collect();
            let a = bootstrap_means(&x, 50, 7);
            assert_eq!(a, bootstrap_means(&x, 50, 7));
            if n > 1 {
                assert_ne!(a, bootstrap_means(&x, 50, 8));
            }
            for m in &a {
                // Every resample holds exactly n rows of integer value.
                let total = m * n as f64;
                assert!((total - total.round()).abs() < 1e-6, "{n} {m}");
                assert!(*m >= 0.0 && *m <= (n - 1) as f64);
            }
        }
    }

    #[test]
    fn bootstrap_distribution_has_the_right_spread() {
        let n = 3000;
        let x: Vec<f64> = (0..n)
            .map(|i| ((i * 7919) % 1000) as f64 / 1000.0)
            .collect();
        let means = bootstrap_means(&x, 4000, 1);
        let m = mean_std(&x, 0.0);
        let d = mean_std(&means, 1.0);
        assert!((d.mean - m.mean).abs() < 4.0 * m.std / (n as f64).sqrt() / 40.0);
        let want = m.std / (n as f64).sqrt();
        assert!((d.std / want - 1.0).abs() < 0.05, "{} vs {}", d.std, want);
    }

    #[test]
    fn exact_permutation_counts() {
        // d = [1, 1, 1]: of the 8 sign patterns only the identity reaches the mean 1.
        let t = paired_test(
            &[2.0, 2.0, 2.0],
            &[1.0, 1.0, 1.0],
            PairedMethod::Permutation,
            Alternative::Greater,
            1000,
            0,
        )
        .unwrap();
        assert!(t.exact);
        assert_eq!((t.statistic, t.p_value, t.n_resamples), (1.0, 0.125, 8));
    }

    #[test]
    fn kendall_and_ranks() {
        assert_eq!(
            average_ranks(&[3.0, 1.0, 3.0, 2.0]),
            vec![3.5, 1.0, 3.5, 2.0]
        );
        let mut v = vec![3.0, 1.0, 2.0];
        assert_eq!(inversions(&mut v, &mut Vec::new()), 2);
        assert_eq!(kendall_tau_b(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]), 1.0);
        assert_eq!(kendall_tau_b(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), -1.0);
        assert!(kendall_tau_b(&[1.0, 1.0], &[1.0, 2.0]).is_nan());
    }

    #[test]
    fn kappa_matches_hand_computation() {
        // sklearn's docstring example: 0.6875.
        let a = [0, 2, 0, 1, 2];
        let b = [0, 2, 0, 1, 0];
        let k = cohen_kappa(&a, &b, 3, KappaWeights::Unweighted).unwrap();
        assert!((k - 0.6875).abs() < 1e-15);
        assert!(cohen_kappa(&[0], &[5], 3, KappaWeights::Linear).is_err());
    }
}
