//! Statistics over per-row score columns: NaN-aware mean and standard deviation (as numpy's
//! `nanmean` / `nanstd`), seeded bootstrap distributions of the mean, paired tests between two
//! systems (approximate randomisation as `scipy.stats.permutation_test(permutation_type="samples")`,
//! and the paired bootstrap), and agreement statistics (Pearson, Spearman and Kendall tau-b as
//! `scipy.stats`, Cohen's kappa as scikit-learn).
//!
//! Randomness: resample `r` of a call with seed `s` draws from its own xoshiro256++ stream, seeded
//! through SplitMix64 with `splitmix64(s) + r`, so results depend on (seed, resample index) only,
//! never on the thread count or the machine. Parallel sums use fixed chunks combined in order.
//!
//! Bounds: at most [`MAX_RESAMPLES`] resamples, checked before any work, so a null or bootstrap
//! distribution never exceeds 800 MB; an exact paired test (2^n sign flips) is made only where
//! 2^n is at most the resamples asked for, so within the same bound.

use std::cmp::Ordering;

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};
use rayon::prelude::*;

use crate::error::{zeroed, Error, Result};
use crate::interrupt::charge;
use crate::interrupt::watched;

/// The most resamples a bootstrap or a paired test draws (100 million: 800 MB of float64 means).
pub const MAX_RESAMPLES: usize = 100_000_000;

/// `n_resamples` within `1..=MAX_RESAMPLES`, checked before anything is allocated.
fn check_resamples(n_resamples: usize) -> Result<()> {
    if (1..=MAX_RESAMPLES).contains(&n_resamples) {
        return Ok(());
    }
    Err(Error::InvalidValue(format!(
        "n_resamples must be from 1 to {MAX_RESAMPLES} (MAX_RESAMPLES), got {n_resamples}"
    )))
}

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
    let partial: Vec<f64> = x.par_chunks(SUM_CHUNK).map(watched(chunk_sum)).collect();
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
        .map(watched(|c: &[f64]| c.iter().filter(|v| v.is_nan()).count()))
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

/// Resamples drawn together: they walk the rows in the same order, so each block of rows is
/// fetched from memory once for the whole group rather than once per resample.
const GROUP: usize = 16;

/// Random bits in bulk for a walk: the coin flips of its halvings (a halving of `count` draws takes
/// `count` bits) and the bytes of its full leaves. Four xoshiro256++ lanes stepped together, in
/// AVX2 registers when the CPU has them (the same bits either way), seeded from the walk's stream.
struct Coins {
    /// s[word][lane]
    s: [[u64; 4]; 4],
}

/// Number of ones among the first `bits` bits of the next steps of the four lanes (256 bits per
/// step, lane 0 first).
type BulkHeads = fn(&mut [[u64; 4]; 4], u64) -> u64;
/// The next steps of the four lanes as bytes, one step per 32-byte block (lane 0 first).
type BulkBytes = fn(&mut [[u64; 4]; 4], &mut [[u8; 32]]);

/// The coin builds for this CPU (every build gives the same bits).
#[derive(Clone, Copy)]
struct Bulk {
    heads: BulkHeads,
    bytes: BulkBytes,
}

impl Coins {
    fn new(rng: &mut Xoshiro256PlusPlus) -> Self {
        let mut s = [[0u64; 4]; 4];
        for word in &mut s {
            for lane in word.iter_mut() {
                *lane = rng.next_u64();
            }
        }
        // xoshiro's one forbidden state is all zeros.
        for lane in 0..4 {
            if s.iter().all(|word| word[lane] == 0) {
                s[0][lane] = 1;
            }
        }
        Coins { s }
    }

    /// One step of the four lanes.
    #[inline(always)]
    fn step(s: &mut [[u64; 4]; 4]) -> [u64; 4] {
        let mut out = [0u64; 4];
        for (l, o) in out.iter_mut().enumerate() {
            let [s0, s1, s2, s3] = [s[0][l], s[1][l], s[2][l], s[3][l]];
            *o = s0.wrapping_add(s3).rotate_left(23).wrapping_add(s0);
            let t = s1 << 17;
            let s2 = s2 ^ s0;
            let s3 = s3 ^ s1;
            s[0][l] = s0 ^ s3;
            s[1][l] = s1 ^ s2;
            s[2][l] = s2 ^ t;
            s[3][l] = s3.rotate_left(45);
        }
        out
    }

    /// Masks of the lanes of the last, partial step of `bits` bits.
    fn tail_masks(bits: u64) -> [u64; 4] {
        let rest = bits % 256;
        std::array::from_fn(|l| {
            let take = rest.saturating_sub(64 * l as u64).min(64);
            if take == 64 {
                u64::MAX
            } else {
                (1u64 << take) - 1
            }
        })
    }

    fn heads_scalar(s: &mut [[u64; 4]; 4], bits: u64) -> u64 {
        let ones = |w: [u64; 4], mask: [u64; 4]| -> u64 {
            w.iter()
                .zip(mask)
                .map(|(w, m)| u64::from((w & m).count_ones()))
                .sum()
        };
        let mut total: u64 = (0..bits / 256)
            .map(|_| ones(Self::step(s), [u64::MAX; 4]))
            .sum();
        if !bits.is_multiple_of(256) {
            total += ones(Self::step(s), Self::tail_masks(bits));
        }
        total
    }

    fn bytes_scalar(s: &mut [[u64; 4]; 4], out: &mut [[u8; 32]]) {
        for block in out {
            for (lane, bytes) in Self::step(s).iter().zip(block.as_chunks_mut::<8>().0) {
                *bytes = lane.to_le_bytes();
            }
        }
    }
}

/// One xoshiro256++ step of four lanes held in AVX2 registers: updates the state, yields the outputs.
#[cfg(target_arch = "x86_64")]
macro_rules! step_avx2 {
    ($s0:ident, $s1:ident, $s2:ident, $s3:ident) => {{
        use std::arch::x86_64::*;
        let rotl23 = |x| _mm256_or_si256(_mm256_slli_epi64::<23>(x), _mm256_srli_epi64::<41>(x));
        let out = _mm256_add_epi64(rotl23(_mm256_add_epi64($s0, $s3)), $s0);
        let t = _mm256_slli_epi64::<17>($s1);
        $s2 = _mm256_xor_si256($s2, $s0);
        $s3 = _mm256_xor_si256($s3, $s1);
        $s1 = _mm256_xor_si256($s1, $s2);
        $s0 = _mm256_xor_si256($s0, $s3);
        $s2 = _mm256_xor_si256($s2, t);
        $s3 = _mm256_or_si256(_mm256_slli_epi64::<45>($s3), _mm256_srli_epi64::<19>($s3));
        out
    }};
}

/// `Coins::heads_scalar` in AVX2 registers (ones counted with a nibble table).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn heads_avx2(s: &mut [[u64; 4]; 4], bits: u64) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY (every load and store below): unaligned, of [u64; 4], which has the size of __m256i.
    let [mut s0, mut s1, mut s2, mut s3] =
        s.map(|w| unsafe { _mm256_loadu_si256(w.as_ptr().cast()) });
    let nibbles = _mm256_set1_epi8(0x0f);
    let table = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let zero = _mm256_setzero_si256();
    let count = |v: __m256i| {
        let low = _mm256_shuffle_epi8(table, _mm256_and_si256(v, nibbles));
        let high = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibbles));
        _mm256_sad_epu8(_mm256_add_epi8(low, high), zero)
    };
    let mut total = zero;
    for _ in 0..bits / 256 {
        total = _mm256_add_epi64(total, count(step_avx2!(s0, s1, s2, s3)));
    }
    if !bits.is_multiple_of(256) {
        let tail = unsafe { _mm256_loadu_si256(Coins::tail_masks(bits).as_ptr().cast()) };
        let out = step_avx2!(s0, s1, s2, s3);
        total = _mm256_add_epi64(total, count(_mm256_and_si256(out, tail)));
    }
    for (word, v) in s.iter_mut().zip([s0, s1, s2, s3]) {
        unsafe { _mm256_storeu_si256(word.as_mut_ptr().cast(), v) };
    }
    let mut lanes = [0u64; 4];
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), total) };
    lanes.iter().sum()
}

/// `Coins::bytes_scalar` in AVX2 registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn bytes_avx2(s: &mut [[u64; 4]; 4], out: &mut [[u8; 32]]) {
    use std::arch::x86_64::*;
    // SAFETY (every load and store below): unaligned, of [u64; 4] or [u8; 32], which have the size
    // of __m256i.
    let [mut s0, mut s1, mut s2, mut s3] =
        s.map(|w| unsafe { _mm256_loadu_si256(w.as_ptr().cast()) });
    for block in out.iter_mut() {
        let v = step_avx2!(s0, s1, s2, s3);
        unsafe { _mm256_storeu_si256(block.as_mut_ptr().cast(), v) };
    }
    for (word, v) in s.iter_mut().zip([s0, s1, s2, s3]) {
        unsafe { _mm256_storeu_si256(word.as_mut_ptr().cast(), v) };
    }
}

/// The coin builds for this CPU.
fn bulk() -> Bulk {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY (both): the CPU has AVX2 (checked just above).
        return Bulk {
            heads: |s, bits| unsafe { heads_avx2(s, bits) },
            bytes: |s, out| unsafe { bytes_avx2(s, out) },
        };
    }
    Bulk {
        heads: Coins::heads_scalar,
        bytes: Coins::bytes_scalar,
    }
}

/// One bootstrap resample of the mean, drawn exactly as n uniform row indices with replacement but
/// without visiting rows at random: the index range (padded to a power of two) is halved
/// recursively, the number of draws falling in the lower half being Binomial(count, 1/2) (the
/// ones among `count` random bits, see `Coins`); a leaf of 256 rows takes one random byte per draw. Draws that
/// land in the padding are drawn again over the whole range (another round), which keeps every
/// index uniform. The walk is depth first, lower half first, so leaves come in address order and
/// the walks of a group can share each block of rows.
struct Walk {
    rng: Xoshiro256PlusPlus,
    coins: Coins,
    bulk: Bulk,
    /// Subtrees still to place: (first row, log2 of the size, draws).
    stack: Vec<(usize, u32, u64)>,
    /// Draws of this round that fell past the last row.
    rejected: u64,
    sum: f64,
}

impl Walk {
    fn new(seed: u64, index: u64, bits: u32, draws: u64, bulk: Bulk) -> Self {
        let mut stack = Vec::with_capacity(2 * usize::BITS as usize);
        stack.push((0, bits, draws));
        let mut rng = stream(seed, index);
        Walk {
            coins: Coins::new(&mut rng),
            rng,
            bulk,
            stack,
            rejected: 0,
            sum: 0.0,
        }
    }

    /// Splits subtrees until the next leaf that receives draws: (first row, bits, draws); None when
    /// the round is over.
    #[inline(always)]
    fn next_leaf(&mut self, n: usize) -> Option<(usize, u32, u64)> {
        while let Some((start, bits, count)) = self.stack.pop() {
            if count == 0 {
                continue;
            }
            if start >= n {
                self.rejected += count;
            } else if bits <= LEAF_BITS {
                return Some((start, bits, count));
            } else {
                let lower = (self.bulk.heads)(&mut self.coins.s, count);
                self.stack
                    .push((start + (1usize << (bits - 1)), bits - 1, count - lower));
                self.stack.push((start, bits - 1, lower));
            }
        }
        None
    }

    /// Queues the rejected draws for another round over the whole range; false when there are none.
    fn next_round(&mut self, bits: u32) -> bool {
        let again = std::mem::take(&mut self.rejected);
        if again > 0 {
            self.stack.push((0, bits, again));
        }
        again > 0
    }

    #[inline(always)]
    fn leaf(&mut self, x: &[f64], start: usize, bits: u32, count: u64) {
        let end = x.len().min(start + (1usize << bits));
        let rows = x.get(start..end).unwrap_or(&[]);
        if let Ok(full) = <&[f64; LEAF]>::try_from(rows) {
            self.full_leaf(full, count);
            return;
        }
        // A short leaf (the last one, or a column under 256 rows): `bits` random bits per draw,
        // draws past the end rejected.
        let per_word = u64::from(64 / bits.max(1));
        let mask = (1u64 << bits) - 1;
        let (mut left, mut sum) = (count, 0.0f64);
        while left > 0 {
            let mut r = self.rng.next_u64();
            for _ in 0..left.min(per_word) {
                match rows.get((r & mask) as usize) {
                    Some(v) => sum += v,
                    None => self.rejected += 1,
                }
                r >>= bits;
            }
            left -= left.min(per_word);
        }
        self.sum += sum;
    }

    #[inline(always)]
    fn full_leaf(&mut self, rows: &[f64; LEAF], count: u64) {
        let mut acc = [0.0f64; 8];
        let mut bytes = [[0u8; 32]; LEAF / 32];
        let mut left = count as usize;
        while left > 0 {
            let take = left.min(LEAF);
            let blocks = bytes.get_mut(..take.div_ceil(32)).unwrap_or_default();
            (self.bulk.bytes)(&mut self.coins.s, blocks);
            let draws = bytes.as_flattened().get(..take).unwrap_or_default();
            let (groups, tail) = draws.as_chunks::<8>();
            for group in groups {
                for l in 0..8 {
                    acc[l] += rows[group[l] as usize];
                }
            }
            for (l, &b) in tail.iter().enumerate() {
                acc[l] += rows[b as usize];
            }
            left -= take;
        }
        self.sum +=
            ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
    }
}

/// Asks the cache for rows that are about to be read at random (a hint; never faults).
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

/// The means of resamples `first`, `first + 1`, ... (one per slot of `out`) of `x`, walked together.
#[inline(always)]
fn group_means_impl(x: &[f64], seed: u64, first: u64, out: &mut [f64]) {
    let n = x.len();
    if n <= 1 {
        out.fill(x.first().copied().unwrap_or(f64::NAN));
        return;
    }
    let bits = usize::BITS - (n - 1).leading_zeros();
    let bulk = bulk();
    let mut walks: Vec<Walk> = (0..out.len() as u64)
        .map(|g| Walk::new(seed, first + g, bits, n as u64, bulk))
        .collect();
    loop {
        let mut next: Vec<Option<(usize, u32, u64)>> =
            walks.iter_mut().map(|w| w.next_leaf(n)).collect();
        // Leaves in address order, each block handed to every walk that has draws in it.
        while let Some(start) = next.iter().flatten().map(|leaf| leaf.0).min() {
            charge(LEAF as u64);
            prefetch(
                x.get((start + LEAF).min(n)..n.min(start + 2 * LEAF))
                    .unwrap_or(&[]),
            );
            for (walk, slot) in walks.iter_mut().zip(next.iter_mut()) {
                if let Some((at, leaf_bits, count)) = *slot {
                    if at == start {
                        walk.leaf(x, at, leaf_bits, count);
                        *slot = walk.next_leaf(n);
                    }
                }
            }
        }
        let rounds_left = walks
            .iter_mut()
            .map(|w| w.next_round(bits))
            .fold(false, |any, again| any | again);
        if !rounds_left {
            break;
        }
    }
    for (o, w) in out.iter_mut().zip(&walks) {
        *o = w.sum / n as f64;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn group_means_popcnt(x: &[f64], seed: u64, first: u64, out: &mut [f64]) {
    group_means_impl(x, seed, first, out)
}

/// The means of resamples `first`, `first + 1`, ... of `x` (n rows drawn with replacement each).
fn group_means(x: &[f64], seed: u64, first: u64, out: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has POPCNT (checked just above).
        return unsafe { group_means_popcnt(x, seed, first, out) };
    }
    group_means_impl(x, seed, first, out)
}

/// `n_resamples` bootstrap means of `x` (x holds no NaN; `n_resamples` checked).
fn resample_means(x: &[f64], n_resamples: usize, seed: u64) -> Result<Vec<f64>> {
    let mut out = zeroed(n_resamples, "the bootstrap distribution")?;
    out.par_chunks_mut(GROUP)
        .enumerate()
        .for_each(watched(|(g, chunk): (usize, &mut [f64])| {
            group_means(x, seed, (g * GROUP) as u64, chunk)
        }));
    Ok(out)
}

/// The bootstrap distribution of the mean: `n_resamples` (at most [`MAX_RESAMPLES`]) means of rows
/// drawn with replacement from the non-NaN values of `x` (empty when none is left). Resample `r`
/// depends on (seed, r) only.
pub fn bootstrap_means(x: &[f64], n_resamples: usize, seed: u64) -> Result<Vec<f64>> {
    check_resamples(n_resamples)?;
    let x = without_nan(x);
    if x.is_empty() {
        return Ok(Vec::new());
    }
    resample_means(&x, n_resamples, seed)
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

/// The settings of a paired test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairedTestSettings {
    pub method: PairedMethod,
    pub alternative: Alternative,
    /// Null samples drawn, from 1 to `MAX_RESAMPLES` (a permutation test enumerates all 2^n swaps
    /// instead when there are at most this many).
    pub n_resamples: usize,
    /// Seeds the resampling streams.
    pub seed: u64,
}

impl Default for PairedTestSettings {
    /// A two-sided permutation test of 10,000 resamples, seed 0.
    fn default() -> Self {
        PairedTestSettings {
            method: PairedMethod::Permutation,
            alternative: Alternative::TwoSided,
            n_resamples: 10_000,
            seed: 0,
        }
    }
}

/// Null samples drawn per rayon task of a permutation test (results do not depend on it).
const NULL_CHUNK: usize = 256;

/// Work (values) from which a single resample or count is a checkpoint (see `crate::interrupt`).
const CHARGE_FROM: usize = 4096;

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
    let (mut at_most, mut at_least) = (0usize, 0usize);
    for part in null.chunks(1 << 16) {
        charge(part.len() as u64);
        at_most += part.iter().filter(|&&v| v <= observed + gamma).count();
        at_least += part.iter().filter(|&&v| v >= observed - gamma).count();
    }
    let less = (at_most as f64 + adjust) / total;
    let greater = (at_least as f64 + adjust) / total;
    let p = match alternative {
        Alternative::Less => less,
        Alternative::Greater => greater,
        Alternative::TwoSided => 2.0 * less.min(greater),
    };
    p.clamp(0.0, 1.0)
}

/// Tests whether system a scores higher or lower than system b on the same rows. Pairs where either
/// score is NaN are dropped.
pub fn paired_test(a: &[f64], b: &[f64], settings: &PairedTestSettings) -> Result<PairedTest> {
    let PairedTestSettings {
        method,
        alternative,
        n_resamples,
        seed,
    } = *settings;
    if a.len() != b.len() {
        return Err(Error::InvalidValue(format!(
            "a has {} rows but b has {}",
            a.len(),
            b.len()
        )));
    }
    check_resamples(n_resamples)?;
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
    // 2^n at most `n_resamples`, itself at most MAX_RESAMPLES: the enumeration is bounded too.
    let exact = method == PairedMethod::Permutation
        && u32::try_from(n).is_ok_and(|n| n < 64 && (1u64 << n) <= n_resamples as u64);
    let null: Vec<f64> = match method {
        PairedMethod::Permutation => {
            let draws = if exact { 1usize << n } else { n_resamples };
            let mut null = zeroed(draws, "the null distribution")?;
            null.par_chunks_mut(NULL_CHUNK)
                .enumerate()
                .for_each(watched(|(c, chunk): (usize, &mut [f64])| {
                    for (k, slot) in chunk.iter_mut().enumerate() {
                        if d.len() >= CHARGE_FROM {
                            charge(d.len() as u64);
                        }
                        let r = (c * NULL_CHUNK + k) as u64;
                        *slot = if exact {
                            signed_mean(&d, std::iter::once(r))
                        } else {
                            let mut rng = stream(seed, r);
                            signed_mean(&d, std::iter::from_fn(move || Some(rng.next_u64())))
                        };
                    }
                }));
            null
        }
        PairedMethod::Bootstrap => {
            let mut null = resample_means(&d, n_resamples, seed)?;
            null.iter_mut().for_each(|m| *m -= observed);
            null
        }
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
/// labels), as scikit-learn's `cohen_kappa_score` (which sums floats; here only the last division
/// rounds); NaN where it is undefined (no pair, or expected disagreement 0). Time O(rows +
/// n_labels), memory O(n_labels).
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
    // Integer counts, without the n_labels^2 confusion matrix (labels may be 50,000 distinct
    // scores): the observed and expected disagreements are exact integers (times the total, for
    // the expected one), and only their ratio is rounded.
    if n_labels > a.len() + b.len() {
        return Err(Error::InvalidValue(format!(
            "{n_labels} labels for {} rows: each label must occur",
            a.len()
        )));
    }
    let (mut by_a, mut by_b) = (vec![0u128; n_labels], vec![0u128; n_labels]);
    let mut observed = 0u128;
    for (row, (&i, &j)) in a.iter().zip(b).enumerate() {
        let (Some(x), Some(y)) = (by_a.get_mut(i), by_b.get_mut(j)) else {
            return Err(Error::InvalidValue(format!(
                "row {row}: label code outside 0..{n_labels}"
            )));
        };
        *x += 1;
        *y += 1;
        let d = i.abs_diff(j) as u128;
        observed += match weights {
            KappaWeights::Unweighted => u128::from(i != j),
            KappaWeights::Linear => d,
            KappaWeights::Quadratic => d * d,
        };
    }
    let total = a.len() as u128;
    if total == 0 {
        return Ok(f64::NAN);
    }
    // sum over i, j of weight(i, j) * by_a[i] * by_b[j] (scikit-learn's expected matrix times the
    // total): sums of counts, positions and squared positions.
    let moments = |counts: &[u128]| {
        counts
            .iter()
            .enumerate()
            .fold([0i128; 3], |[n, s, q], (k, &c)| {
                let (k, c) = (k as i128, c as i128);
                [n + c, s + k * c, q + k * k * c]
            })
    };
    let expected = match weights {
        KappaWeights::Unweighted => {
            let same: u128 = by_a.iter().zip(&by_b).map(|(x, y)| x * y).sum();
            total * total - same
        }
        KappaWeights::Linear => {
            // For each i, sum over j of |i - j| * by_b[j], from the counts below and above i.
            let [count_b, sum_b, _] = moments(&by_b);
            let (mut below, mut below_sum) = (0i128, 0i128);
            let mut sum = 0i128;
            for (i, (&x, &y)) in by_a.iter().zip(&by_b).enumerate() {
                let i = i as i128;
                let (above, above_sum) = (count_b - below, sum_b - below_sum);
                sum += x as i128 * (i * below - below_sum + above_sum - i * above);
                below += y as i128;
                below_sum += i * y as i128;
            }
            sum as u128
        }
        KappaWeights::Quadratic => {
            let ([na, sa, qa], [nb, sb, qb]) = (moments(&by_a), moments(&by_b));
            (qa * nb + na * qb - 2 * sa * sb) as u128
        }
    };
    if expected == 0 {
        return Ok(f64::NAN);
    }
    Ok(1.0 - (observed * total) as f64 / expected as f64)
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
            let a = bootstrap_means(&x, 50, 7).unwrap();
            assert_eq!(Ok(&a), bootstrap_means(&x, 50, 7).as_ref());
            if n > 1 {
                assert_ne!(Ok(&a), bootstrap_means(&x, 50, 8).as_ref());
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
        let means = bootstrap_means(&x, 4000, 1).unwrap();
        let m = mean_std(&x, 0.0);
        let d = mean_std(&means, 1.0);
        assert!((d.mean - m.mean).abs() < 4.0 * m.std / (n as f64).sqrt() / 40.0);
        let want = m.std / (n as f64).sqrt();
        assert!((d.std / want - 1.0).abs() < 0.05, "{} vs {}", d.std, want);
    }

    #[test]
    fn coin_lanes_are_xoshiro_and_both_builds_agree() {
        let mut rng = stream(3, 4);
        let coins = Coins::new(&mut rng);
        let mut seed = [0u8; 32];
        for (w, chunk) in seed.chunks_exact_mut(8).enumerate() {
            chunk.copy_from_slice(&coins.s[w][2].to_le_bytes());
        }
        let mut lane = Xoshiro256PlusPlus::from_seed(seed);
        let mut s = coins.s;
        for _ in 0..5 {
            assert_eq!(Coins::step(&mut s)[2], lane.next_u64());
        }
        for bits in [0, 1, 63, 64, 65, 255, 256, 257, 37 * 256 + 200] {
            let (mut a, mut b) = (coins.s, coins.s);
            let ones = Coins::heads_scalar(&mut a, bits);
            assert_eq!((ones, a), ((bulk().heads)(&mut b, bits), b), "{bits}");
            assert!(ones <= bits);
        }
        let mut a = coins.s;
        let ones = Coins::heads_scalar(&mut a, 37 * 256);
        assert!((ones as f64 / (37.0 * 256.0) - 0.5).abs() < 0.05);
        // The bits of a partial step are the first bits of a full one.
        let (mut a, mut b) = (coins.s, coins.s);
        let first = Coins::step(&mut a)[0] & 0x7f;
        assert_eq!(
            Coins::heads_scalar(&mut b, 7),
            u64::from(first.count_ones())
        );
    }

    #[test]
    fn exact_permutation_counts() {
        // d = [1, 1, 1]: of the 8 sign patterns only the identity reaches the mean 1.
        let settings = PairedTestSettings {
            alternative: Alternative::Greater,
            n_resamples: 1000,
            ..PairedTestSettings::default()
        };
        let t = paired_test(&[2.0, 2.0, 2.0], &[1.0, 1.0, 1.0], &settings).unwrap();
        assert!(t.exact);
        assert_eq!((t.statistic, t.p_value, t.n_resamples), (1.0, 0.125, 8));
    }

    #[test]
    fn resamples_are_bounded_before_any_work() {
        let x: Vec<f64> = (0..60).map(f64::from).collect();
        let zeros = vec![0.0; 60];
        for n in [0, MAX_RESAMPLES + 1, 1 << 62] {
            let err = Err(Error::InvalidValue(format!(
                "n_resamples must be from 1 to {MAX_RESAMPLES} (MAX_RESAMPLES), got {n}"
            )));
            assert_eq!(bootstrap_means(&x, n, 0), err);
            let settings = PairedTestSettings {
                n_resamples: n,
                ..PairedTestSettings::default()
            };
            let test = paired_test(&x, &zeros, &settings);
            assert_eq!(test.map(|t| t.n_resamples), err.map(|_: Vec<f64>| 0));
        }
        // 33 rows and 2^33 resamples asked for: past the bound, so neither enumerated nor drawn.
        let settings = PairedTestSettings {
            n_resamples: 1 << 33,
            ..PairedTestSettings::default()
        };
        let t = paired_test(&x[..33], &zeros[..33], &settings);
        assert!(t.is_err());
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
