//! Cosine similarity of dense embedding vectors: row-wise cos(a[i], b[i]) (or one query against many)
//! and all pairs (n x m) with an optional top-k per row, as numpy computes
//! `dot(a, b) / (norm(a) * norm(b))`.
//!
//! Special values (the same in every entry point):
//! - a vector with a NaN or infinite component gives NaN with everything;
//! - otherwise a zero vector gives 0.0 (as scikit-learn's `cosine_similarity`; numpy's formula gives
//!   NaN from 0/0);
//! - no overflow or underflow: float32 input is accumulated in float64 (row-wise) or normalised in
//!   float64 first (all pairs); float64 pairs whose squared norms leave [2^-600, 2^600] or whose dot
//!   product is subnormal are divided by their largest components first. Results are not clamped to
//!   [-1, 1] (neither are numpy's).
//!
//! Accuracy against the exact cosine, relative to sum|a_i b_i| / (|a| |b|) (which bounds |cos|): 1e-12
//! for float64, 1e-6 for float32 at any dimension (row-wise float32 is in fact within 1e-7: it is
//! computed in float64 and rounded once; all pairs sum float32 products in float32 registers for
//! 4096 components at most, then in float64, so the error does not grow with the dimension).
//!
//! Sizes: an output of n x m (or n x k) values is allocated fallibly, a `MemoryError` in Python
//! when it cannot be, and the loops over rows have checkpoints (see `crate::interrupt`).
//!
//! Results never depend on the thread count. Kernels run an AVX2+FMA build when the CPU has it, so
//! two machines may differ by rounding (fused vs separate multiply-add), within the bounds above.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::ops::{Add, Mul};

use rayon::prelude::*;

use crate::error::{zeroed, Error, Result, Zeroed};
use crate::interrupt::{charge, watched};

/// The float types of the embedding arrays (numpy float32 and float64).
pub trait Real:
    Copy + Default + Send + Sync + Zeroed + Add<Output = Self> + Mul<Output = Self> + 'static
{
    /// Steps of `LANES` components an all-pairs accumulator of this type takes before it is added
    /// into float64 (float32 loses a bit of the sum per doubling of its terms).
    const BLOCK: usize;
    fn to_f64(self) -> f64;
    fn from_f64(v: f64) -> Self;
    /// `self * a + b`, fused when the caller's build has FMA.
    fn madd<const FMA: bool>(self, a: Self, b: Self) -> Self;
    /// (a.b, a.a, b.b) in one pass when this CPU has a build for it.
    fn dot_parts_fused(a: &[Self], b: &[Self]) -> Option<[f64; 3]>;
}

/// `Real` for a float type whose fused AVX2 kernel is `$avx2`.
macro_rules! impl_real {
    ($t:ty, $avx2:ident, $block:expr) => {
        impl Real for $t {
            const BLOCK: usize = $block;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn madd<const FMA: bool>(self, a: Self, b: Self) -> Self {
                if FMA {
                    self.mul_add(a, b)
                } else {
                    self * a + b
                }
            }
            fn dot_parts_fused(a: &[Self], b: &[Self]) -> Option<[f64; 3]> {
                #[cfg(target_arch = "x86_64")]
                if has_avx2_fma() {
                    // SAFETY: the CPU has AVX2 and FMA (checked just above).
                    return Some(unsafe { $avx2(a, b) });
                }
                let _ = (a, b);
                None
            }
        }
    };
}

// 512 steps: 4096 components, so embeddings of up to 4096 dimensions (every common size) are summed
// as one block, at the speed and with the bits of the sums before blocks (512 float32 terms a lane:
// at most 5.4e-7 of sum|a_i b_i| measured at 4096 dimensions). Longer rows take the block loop,
// about 10 % slower (128-step blocks cost as much at 1536 and 3072 dimensions), whose float64 sums
// keep the error there at 1e-7 where one float32 sum reached 1.6e-6 at 65,536 dimensions.
impl_real!(f32, dot_parts_f32_avx2, 512);
impl_real!(f64, dot_parts_f64_avx2, usize::MAX);

/// Whether the AVX2+FMA builds of the kernels can run here (the check is a cached atomic load).
#[cfg(target_arch = "x86_64")]
fn has_avx2_fma() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
}

/// `fma` is native on aarch64; elsewhere `mul_add` may be a slow library call, so only x86-64 with
/// detected FMA and aarch64 fuse.
const NATIVE_FMA: bool = cfg!(target_arch = "aarch64");

/// Squared norms outside this range may have overflowed or lost digits to underflow (float64 only;
/// float32 squares always fit a float64). Inside it, products that underflow are below 2^-475 of
/// |a| |b|.
const SAFE_MIN: f64 = f64::from_bits((1023 - 600) << 52);
const SAFE_MAX: f64 = f64::from_bits((1023 + 600) << 52);
/// A dot product this small has lost digits to subnormal arithmetic.
const DOT_MIN: f64 = f64::from_bits((1023 - 1000) << 52);

/// Lanes of the row-wise accumulators: two AVX2 registers of float64 per sum.
const ROW_LANES: usize = 8;

/// a.b accumulated in float64 lanes. One accumulator array, summed in lane order at the end: the
/// shape LLVM turns into AVX2 FMAs (other reduction orders make it fall back to 128-bit vectors).
#[inline(always)]
fn dot<T: Real, const FMA: bool>(a: &[T], b: &[T]) -> f64 {
    let (ca, ra) = a.as_chunks::<ROW_LANES>();
    let (cb, rb) = b.as_chunks::<ROW_LANES>();
    let mut acc = [0.0f64; ROW_LANES];
    for (x, y) in ca.iter().zip(cb) {
        for l in 0..ROW_LANES {
            acc[l] = x[l].to_f64().madd::<FMA>(y[l].to_f64(), acc[l]);
        }
    }
    let mut tail = 0.0f64;
    for (x, y) in ra.iter().zip(rb) {
        tail = x.to_f64().madd::<FMA>(y.to_f64(), tail);
    }
    acc.iter().sum::<f64>() + tail
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline(never)]
fn dot_avx2<T: Real>(a: &[T], b: &[T]) -> f64 {
    dot::<T, true>(a, b)
}

fn dot_dispatch<T: Real>(a: &[T], b: &[T]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2_fma() {
        // SAFETY: the CPU has AVX2 and FMA (checked just above).
        return unsafe { dot_avx2(a, b) };
    }
    dot::<T, NATIVE_FMA>(a, b)
}

/// (a.b, a.a, b.b) in one pass of AVX2 registers: the lanes, fused multiply-adds and final order of
/// three `dot::<T, true>`, so the same bits with a third of the loads and conversions. (LLVM does
/// not vectorise three accumulators in one loop well, hence intrinsics.) `$widen` turns eight
/// values into two registers of float64.
#[cfg(target_arch = "x86_64")]
macro_rules! dot_parts_avx2 {
    ($name:ident, $t:ty, $widen:expr) => {
        #[target_feature(enable = "avx2,fma")]
        fn $name(a: &[$t], b: &[$t]) -> [f64; 3] {
            use std::arch::x86_64::*;
            let (ca, ra) = a.as_chunks::<ROW_LANES>();
            let (cb, rb) = b.as_chunks::<ROW_LANES>();
            let zero = _mm256_setzero_pd();
            let (mut ab, mut aa, mut bb) = ([zero; 2], [zero; 2], [zero; 2]);
            for (x, y) in ca.iter().zip(cb) {
                let (x, y): ([__m256d; 2], [__m256d; 2]) = ($widen(x), $widen(y));
                for h in 0..2 {
                    ab[h] = _mm256_fmadd_pd(x[h], y[h], ab[h]);
                    aa[h] = _mm256_fmadd_pd(x[h], x[h], aa[h]);
                    bb[h] = _mm256_fmadd_pd(y[h], y[h], bb[h]);
                }
            }
            let finish = |acc: [__m256d; 2], ta: &[$t], tb: &[$t]| {
                let mut lanes = [[0.0f64; 4]; 2];
                for (lane, v) in lanes.iter_mut().zip(acc) {
                    // SAFETY: an unaligned store into [f64; 4], which has the size of __m256d.
                    unsafe { _mm256_storeu_pd(lane.as_mut_ptr(), v) };
                }
                let tail = ta
                    .iter()
                    .zip(tb)
                    .fold(0.0f64, |t, (x, y)| (*x as f64).mul_add(*y as f64, t));
                lanes.as_flattened().iter().sum::<f64>() + tail
            };
            [finish(ab, ra, rb), finish(aa, ra, ra), finish(bb, rb, rb)]
        }
    };
}

// SAFETY (both): unaligned loads of eight values, which have the size of the registers loaded.
#[cfg(target_arch = "x86_64")]
dot_parts_avx2!(dot_parts_f32_avx2, f32, |v: &[f32; 8]| unsafe {
    let x = _mm256_loadu_ps(v.as_ptr());
    [
        _mm256_cvtps_pd(_mm256_castps256_ps128(x)),
        _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(x)),
    ]
});
#[cfg(target_arch = "x86_64")]
dot_parts_avx2!(dot_parts_f64_avx2, f64, |v: &[f64; 8]| unsafe {
    [
        _mm256_loadu_pd(v.as_ptr()),
        _mm256_loadu_pd(v.as_ptr().add(4)),
    ]
});

/// (a.b, a.a, b.b) in float64.
fn dot_parts<T: Real>(a: &[T], b: &[T]) -> [f64; 3] {
    T::dot_parts_fused(a, b)
        .unwrap_or_else(|| [dot_dispatch(a, b), dot_dispatch(a, a), dot_dispatch(b, b)])
}

fn has_non_finite<T: Real>(v: &[T]) -> bool {
    v.iter().any(|x| !x.to_f64().is_finite())
}

/// Largest |component| (the vector is finite).
fn max_abs<T: Real>(v: &[T]) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.to_f64().abs()))
}

/// The cosine when the fast sums are not trustworthy: special values first, then the sums of the
/// vectors divided by their largest components.
fn cosine_rescaled<T: Real>(a: &[T], b: &[T]) -> f64 {
    if has_non_finite(a) || has_non_finite(b) {
        return f64::NAN;
    }
    let (sa, sb) = (max_abs(a), max_abs(b));
    if sa == 0.0 || sb == 0.0 {
        return 0.0;
    }
    let a: Vec<f64> = a.iter().map(|x| x.to_f64() / sa).collect();
    let b: Vec<f64> = b.iter().map(|x| x.to_f64() / sb).collect();
    let [ab, aa, bb] = dot_parts(&a, &b);
    ab / (aa.sqrt() * bb.sqrt())
}

/// The cosine of two vectors of equal length (see the module doc for special values).
pub fn cosine<T: Real>(a: &[T], b: &[T]) -> f64 {
    let [ab, aa, bb] = dot_parts(a, b);
    let safe = |v: f64| (SAFE_MIN..=SAFE_MAX).contains(&v);
    if safe(aa) && safe(bb) && (ab == 0.0 || ab.abs() >= DOT_MIN) {
        ab / (aa.sqrt() * bb.sqrt())
    } else {
        cosine_rescaled(a, b)
    }
}

/// Rows of a row-major matrix (`rows` x `dim`) that are read without copying.
#[derive(Clone, Copy)]
pub struct Rows<'a, T> {
    data: &'a [T],
    rows: usize,
    dim: usize,
}

impl<'a, T: Real> Rows<'a, T> {
    /// A view of `data` as `rows` x `dim`; `data` must hold exactly that many values.
    pub fn new(data: &'a [T], rows: usize, dim: usize) -> Result<Self> {
        if rows.checked_mul(dim) != Some(data.len()) {
            return Err(Error::InvalidValue(format!(
                "array of {} values is not {rows} x {dim}",
                data.len()
            )));
        }
        Ok(Rows { data, rows, dim })
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    fn row(&self, i: usize) -> &'a [T] {
        let start = i * self.dim;
        self.data.get(start..start + self.dim).unwrap_or(&[])
    }

    /// Row `i`, or the only row of a single-row side (broadcast).
    fn row_or_only(&self, i: usize) -> &'a [T] {
        self.row(if self.rows == 1 { 0 } else { i })
    }
}

/// Rows computed per rayon task (results do not depend on it).
const ROW_CHUNK: usize = 1024;

/// cos(a[i], b[i]) for every row; a side with a single row is paired with every row of the other
/// (one query against many). Returned in the input precision.
pub fn cosine_rows<T: Real>(a: Rows<'_, T>, b: Rows<'_, T>) -> Result<Vec<T>> {
    if a.dim != b.dim {
        return Err(Error::InvalidValue(format!(
            "vectors of a have {} components but vectors of b have {}",
            a.dim, b.dim
        )));
    }
    let n = match (a.rows, b.rows) {
        (x, y) if x == y => x,
        (1, y) => y,
        (x, 1) => x,
        (x, y) => {
            return Err(Error::InvalidValue(format!(
                "a has {x} rows and b has {y}: expected the same number, or one row on one side"
            )))
        }
    };
    let mut out = zeroed(n, "the cosines")?;
    out.par_chunks_mut(ROW_CHUNK)
        .enumerate()
        .for_each(watched(|(c, chunk): (usize, &mut [T])| {
            for (k, slot) in chunk.iter_mut().enumerate() {
                let i = c * ROW_CHUNK + k;
                *slot = T::from_f64(cosine(a.row_or_only(i), b.row_or_only(i)));
            }
        }));
    Ok(out)
}

// ---- all pairs -------------------------------------------------------------------------------

/// Micro-tile of the all-pairs kernel: MR rows of a against NR rows of b, W lanes per accumulator
/// (9 accumulators + 6 loaded vectors fit the 16 AVX2 registers).
const MR: usize = 3;
const NR: usize = 3;
/// Lanes per accumulator (one or two AVX2 registers); rows are padded to a multiple of it.
const LANES: usize = 8;
/// Rows of a per rayon task: their unit rows stay in L2 while every row of b passes by.
const A_BLOCK: usize = 48;

/// Unit rows (each row divided by its largest component, then by the norm of that, in float64),
/// padded with zero rows to a multiple of MR and with zeros to a multiple of LANES components. Rows
/// with a NaN or infinite component become NaN rows; zero rows stay zero.
struct Packed<T> {
    data: Vec<T>,
    rows: usize,
    stride: usize,
}

impl<T: Real> Packed<T> {
    fn new(m: Rows<'_, T>) -> Result<Self> {
        let stride = m.dim.div_ceil(LANES) * LANES;
        let rows = m.rows.div_ceil(MR) * MR;
        let len = rows.saturating_mul(stride);
        let mut data = zeroed(len, "the normalised rows")?;
        data.par_chunks_mut(stride.max(1))
            .take(m.rows)
            .enumerate()
            .for_each(watched(|(i, out): (usize, &mut [T])| {
                unit_row(m.row(i), out)
            }));
        Ok(Packed { data, rows, stride })
    }

    fn row(&self, i: usize) -> &[T] {
        let start = i * self.stride;
        self.data.get(start..start + self.stride).unwrap_or(&[])
    }
}

fn unit_row<T: Real>(row: &[T], out: &mut [T]) {
    if has_non_finite(row) {
        out.iter_mut().for_each(|o| *o = T::from_f64(f64::NAN));
        return;
    }
    let s = max_abs(row);
    if s == 0.0 {
        return;
    }
    let scaled: Vec<f64> = row.iter().map(|x| x.to_f64() / s).collect();
    let norm = dot_dispatch(&scaled, &scaled).sqrt();
    for (o, x) in out.iter_mut().zip(&scaled) {
        *o = T::from_f64(x / norm);
    }
}

/// Dot products of MR rows of a with NR rows of b (all `stride` long, a multiple of LANES). Rows of
/// at most `T::BLOCK` steps are summed in `T`'s lanes; longer ones a block of steps at a time, each
/// block's lanes added into float64 lanes, so that float32 sums do not lose precision with the
/// dimension (a separate path, so that short rows keep the speed and bits of one block).
#[inline(always)]
fn tile<T: Real, const FMA: bool>(a: [&[T]; MR], b: [&[T]; NR]) -> [[T; NR]; MR] {
    let a = a.map(|r| r.as_chunks::<LANES>().0);
    let b = b.map(|r| r.as_chunks::<LANES>().0);
    let len = a.iter().chain(b.iter()).map(|r| r.len()).min().unwrap_or(0);
    if len <= T::BLOCK {
        return block_sums::<T, FMA>(a, b).map(|row| row.map(lane_sum));
    }
    let mut total = [[[0.0f64; LANES]; NR]; MR];
    for start in (0..len).step_by(T::BLOCK) {
        let steps = start..len.min(start + T::BLOCK);
        let acc = block_sums::<T, FMA>(
            a.map(|r| r.get(steps.clone()).unwrap_or(&[])),
            b.map(|r| r.get(steps.clone()).unwrap_or(&[])),
        );
        for i in 0..MR {
            for j in 0..NR {
                for l in 0..LANES {
                    total[i][j][l] += acc[i][j][l].to_f64();
                }
            }
        }
    }
    total.map(|row| row.map(|lanes| T::from_f64(lane_sum(lanes))))
}

/// The lanes of the dot products of MR rows of a with NR rows of b, over their common length.
#[inline(always)]
fn block_sums<T: Real, const FMA: bool>(
    a: [&[[T; LANES]]; MR],
    b: [&[[T; LANES]]; NR],
) -> [[[T; LANES]; NR]; MR] {
    let mut acc = [[[T::default(); LANES]; NR]; MR];
    let len = a.iter().chain(b.iter()).map(|r| r.len()).min().unwrap_or(0);
    // Cut every row to the common length so that the loop below needs no bounds checks.
    let a = a.map(|r| r.split_at(len).0);
    let b = b.map(|r| r.split_at(len).0);
    for k in 0..len {
        for i in 0..MR {
            for j in 0..NR {
                for l in 0..LANES {
                    acc[i][j][l] = a[i][k][l].madd::<FMA>(b[j][k][l], acc[i][j][l]);
                }
            }
        }
    }
    acc
}

/// The sum of the lanes of an accumulator, halves added pairwise.
#[inline(always)]
fn lane_sum<U: Copy + Add<Output = U>>(lanes: [U; LANES]) -> U {
    let mut v = lanes;
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for l in 0..width {
            v[l] = v[l] + v[l + width];
        }
    }
    v[0]
}

/// Scores of the NR rows `b` against the a rows [a0, a1) into `out` (one entry per a row).
#[inline(always)]
fn strip<T: Real, const FMA: bool>(
    a: &Packed<T>,
    a_rows: (usize, usize),
    b: [&[T]; NR],
    out: &mut Vec<[T; NR]>,
) {
    out.clear();
    for i0 in (a_rows.0..a_rows.1).step_by(MR) {
        let ai: [&[T]; MR] = std::array::from_fn(|i| a.row(i0 + i));
        out.extend(tile::<T, FMA>(ai, b));
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline(never)]
fn strip_avx2<T: Real>(
    a: &Packed<T>,
    a_rows: (usize, usize),
    b: [&[T]; NR],
    out: &mut Vec<[T; NR]>,
) {
    strip::<T, true>(a, a_rows, b, out)
}

type StripFn<T> = fn(&Packed<T>, (usize, usize), [&[T]; NR], &mut Vec<[T; NR]>);

/// The strip kernel built for this CPU.
fn strip_kernel<T: Real>() -> StripFn<T> {
    #[cfg(target_arch = "x86_64")]
    if has_avx2_fma() {
        // SAFETY: the CPU has AVX2 and FMA (checked just above).
        return |a, rows, b, out| unsafe { strip_avx2(a, rows, b, out) };
    }
    strip::<T, NATIVE_FMA>
}

/// Scores of the a rows [a0, a1) against every row of b, block by block in a fixed order, handed
/// to `sink(i, j, score)` with global row indices (padding rows skipped).
fn sweep<T: Real>(
    a: &Packed<T>,
    a_rows: (usize, usize),
    b: &Packed<T>,
    real: (usize, usize),
    sink: &mut impl FnMut(usize, usize, T),
) {
    let kernel = strip_kernel::<T>();
    let mut scores = Vec::with_capacity(a_rows.1 - a_rows.0);
    for j0 in (0..b.rows).step_by(NR) {
        charge(((a_rows.1 - a_rows.0) * b.stride) as u64);
        let bj: [&[T]; NR] = std::array::from_fn(|j| b.row(j0 + j));
        kernel(a, a_rows, bj, &mut scores);
        for (i, row) in (a_rows.0..real.0).zip(&scores) {
            for (j, &s) in (j0..real.1).zip(row) {
                sink(i, j, s);
            }
        }
    }
}

fn check_dims<T>(a: &Rows<'_, T>, b: &Rows<'_, T>) -> Result<()> {
    if a.dim != b.dim {
        return Err(Error::InvalidValue(format!(
            "vectors of a have {} components but vectors of b have {}",
            a.dim, b.dim
        )));
    }
    Ok(())
}

/// The n x m matrix of cos(a[i], b[j]), row-major, in the input precision.
pub fn cosine_matrix<T: Real>(a: Rows<'_, T>, b: Rows<'_, T>) -> Result<Vec<T>> {
    check_dims(&a, &b)?;
    let (n, m) = (a.rows, b.rows);
    let mut out = zeroed(n.saturating_mul(m), "the cosine matrix")?;
    if n == 0 || m == 0 {
        return Ok(out);
    }
    let (pa, pb) = (Packed::new(a)?, Packed::new(b)?);
    out.par_chunks_mut(A_BLOCK * m)
        .enumerate()
        .for_each(watched(|(c, chunk): (usize, &mut [T])| {
            let a0 = c * A_BLOCK;
            let a1 = (a0 + A_BLOCK).min(pa.rows);
            sweep(&pa, (a0, a1), &pb, (n, m), &mut |i, j, s| {
                if let Some(slot) = chunk.get_mut((i - a0) * m + j) {
                    *slot = s;
                }
            });
        }));
    Ok(out)
}

/// A candidate of a top-k list, ordered so that the greatest is the worst: lower score, then
/// higher index; NaN ranks below every number.
#[derive(Clone, Copy)]
struct Candidate {
    score: f64,
    index: usize,
}

impl Candidate {
    fn rank(&self, other: &Self) -> Ordering {
        let by_score = match (self.score.is_nan(), other.score.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => other
                .score
                .partial_cmp(&self.score)
                .unwrap_or(Ordering::Equal),
        };
        by_score.then(self.index.cmp(&other.index))
    }
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.rank(other) == Ordering::Equal
    }
}
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank(other)
    }
}

/// The k best candidates seen so far (a max-heap on "worse").
struct TopK {
    k: usize,
    heap: BinaryHeap<Candidate>,
}

impl TopK {
    fn new(k: usize) -> Self {
        TopK {
            k,
            heap: BinaryHeap::with_capacity(k + 1),
        }
    }

    #[inline(always)]
    fn offer(&mut self, score: f64, index: usize) {
        let c = Candidate { score, index };
        if self.heap.len() < self.k {
            self.heap.push(c);
        } else if let Some(mut worst) = self.heap.peek_mut() {
            if c < *worst {
                *worst = c;
            }
        }
    }

    /// Best first.
    fn into_sorted(self) -> Vec<Candidate> {
        self.heap.into_sorted_vec()
    }
}

/// For every row of a, the `k` rows of b with the highest cosine (best first; equal scores by lower
/// index; NaN scores last). `k` larger than the rows of b gives all of them. Returns the row-major
/// n x min(k, m) indices and scores.
pub fn cosine_top_k<T: Real>(
    a: Rows<'_, T>,
    b: Rows<'_, T>,
    k: usize,
) -> Result<(Vec<i64>, Vec<T>)> {
    check_dims(&a, &b)?;
    if k == 0 {
        return Err(Error::InvalidValue("top_k must be at least 1".into()));
    }
    let (n, m) = (a.rows, b.rows);
    let k = k.min(m);
    let mut indices = zeroed(n.saturating_mul(k), "the top-k indices")?;
    let mut scores = zeroed(n.saturating_mul(k), "the top-k scores")?;
    if n == 0 || k == 0 {
        return Ok((indices, scores));
    }
    let (pa, pb) = (Packed::new(a)?, Packed::new(b)?);
    indices
        .par_chunks_mut(A_BLOCK * k)
        .zip(scores.par_chunks_mut(A_BLOCK * k))
        .enumerate()
        .for_each(watched(
            |(c, (idx_out, score_out)): (usize, (&mut [i64], &mut [T]))| {
                let a0 = c * A_BLOCK;
                let a1 = (a0 + A_BLOCK).min(pa.rows);
                let mut best: Vec<TopK> = (a0..a1).map(|_| TopK::new(k)).collect();
                sweep(&pa, (a0, a1), &pb, (n, m), &mut |i, j, s: T| {
                    if let Some(t) = best.get_mut(i - a0) {
                        t.offer(s.to_f64(), j);
                    }
                });
                for (r, t) in best.into_iter().enumerate() {
                    for (q, cand) in t.into_sorted().into_iter().enumerate() {
                        if let (Some(io), Some(so)) =
                            (idx_out.get_mut(r * k + q), score_out.get_mut(r * k + q))
                        {
                            *io = cand.index as i64;
                            *so = T::from_f64(cand.score);
                        }
                    }
                }
            },
        ));
    Ok((indices, scores))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(a: &[f64], b: &[f64]) -> f64 {
        let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
        let na: f64 = a.iter().map(|x| x * x).sum::<f64>().sqrt();
        let nb: f64 = b.iter().map(|x| x * x).sum::<f64>().sqrt();
        dot / (na * nb)
    }

    #[test]
    fn matches_the_formula() {
        let a: Vec<f64> = (0..37).map(|i| (i as f64 * 0.37).sin()).collect();
        let b: Vec<f64> = (0..37).map(|i| (i as f64 * 0.11).cos()).collect();
        assert!((cosine(&a, &b) - naive(&a, &b)).abs() < 1e-15);
    }

    #[test]
    fn fused_pass_gives_the_bits_of_three_dots() {
        let a: Vec<f32> = (0..397)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) / 7.0)
            .collect();
        let b: Vec<f32> = (0..397)
            .map(|i| ((i * 53 % 89) as f32 - 44.0) / 3.0)
            .collect();
        if let Some(parts) = f32::dot_parts_fused(&a, &b) {
            let three = [
                dot::<f32, true>(&a, &b),
                dot::<f32, true>(&a, &a),
                dot::<f32, true>(&b, &b),
            ];
            assert_eq!(parts, three);
        }
        let (a, b): (Vec<f64>, Vec<f64>) = (
            a.iter().map(|&x| x as f64 * 1.1).collect(),
            b.iter().map(|&x| x as f64).collect(),
        );
        if let Some(parts) = f64::dot_parts_fused(&a, &b) {
            let three = [
                dot::<f64, true>(&a, &b),
                dot::<f64, true>(&a, &a),
                dot::<f64, true>(&b, &b),
            ];
            assert_eq!(parts, three);
        }
    }

    #[test]
    fn special_values() {
        assert_eq!(cosine(&[0.0f64, 0.0], &[1.0, 2.0]), 0.0);
        assert_eq!(cosine::<f64>(&[], &[]), 0.0);
        assert!(cosine(&[f64::NAN, 1.0], &[0.0, 0.0]).is_nan());
        assert!(cosine(&[f64::INFINITY, 1.0], &[0.0, 0.0]).is_nan());
        assert!(cosine(&[1.0f32, f32::NEG_INFINITY], &[1.0, 2.0]).is_nan());
        // Squares that overflow or underflow float64 are rescaled.
        assert!((cosine(&[1e300, 1e300], &[1e300, 0.0]) - 0.5f64.sqrt()).abs() < 1e-15);
        assert!((cosine(&[1e-300, 1e-300], &[1e-300, 0.0]) - 0.5f64.sqrt()).abs() < 1e-15);
        assert!((cosine(&[3e-320, 0.0], &[1.0, 1.0]) - 0.5f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn rows_broadcast_and_shape_errors() {
        let a = [1.0f32, 0.0, 0.0, 1.0];
        let q = [1.0f32, 1.0];
        let out = cosine_rows(Rows::new(&q, 1, 2).unwrap(), Rows::new(&a, 2, 2).unwrap()).unwrap();
        assert_eq!(out, vec![0.5f32.sqrt(), 0.5f32.sqrt()]);
        assert!(Rows::new(&a, 3, 2).is_err());
        let three = [0.0f32; 6];
        assert!(cosine_rows(
            Rows::new(&three, 3, 2).unwrap(),
            Rows::new(&a, 2, 2).unwrap()
        )
        .is_err());
        assert!(cosine_rows(Rows::new(&a, 1, 4).unwrap(), Rows::new(&a, 2, 2).unwrap()).is_err());
    }

    #[test]
    fn float32_matrix_precision_does_not_decay_with_the_dimension() {
        // A row of 3,000,000 positive float32 values against itself and against a shifted copy:
        // summed in float32 lanes alone, the cosine of a row with itself drifted by 1e-4 and more.
        let d = 3_000_000;
        let a: Vec<f32> = (0..d)
            .map(|i| 0.5 + ((i * 7919) % 1000) as f32 / 1000.0)
            .collect();
        let b: Vec<f32> = (0..d).map(|i| a[(i + 1) % d]).collect();
        let (ra, rb) = (Rows::new(&a, 1, d).unwrap(), Rows::new(&b, 1, d).unwrap());
        let m = cosine_matrix(ra, rb).unwrap();
        let same = cosine_matrix(ra, ra).unwrap();
        assert!((same[0] - 1.0).abs() < 1e-6, "{}", same[0]);
        let exact = cosine(&a, &b);
        assert!(
            (f64::from(m[0]) - exact).abs() < 1e-6,
            "{} vs {exact}",
            m[0]
        );
    }

    #[test]
    fn matrix_and_top_k_agree_with_row_wise() {
        let (n, m, d) = (7, 11, 13);
        let a: Vec<f64> = (0..n * d).map(|i| ((i * 31 % 17) as f64) - 8.0).collect();
        let mut b: Vec<f64> = (0..m * d).map(|i| ((i * 7 % 23) as f64) - 11.0).collect();
        b[..d].iter_mut().for_each(|x| *x = 0.0);
        let (ra, rb) = (Rows::new(&a, n, d).unwrap(), Rows::new(&b, m, d).unwrap());
        let full = cosine_matrix(ra, rb).unwrap();
        for i in 0..n {
            for j in 0..m {
                let want = cosine(ra.row(i), rb.row(j));
                assert!((full[i * m + j] - want).abs() < 1e-14, "{i} {j}");
            }
        }
        let (idx, sc) = cosine_top_k(ra, rb, 4).unwrap();
        for i in 0..n {
            let mut order: Vec<usize> = (0..m).collect();
            order.sort_by(|&x, &y| full[i * m + y].total_cmp(&full[i * m + x]).then(x.cmp(&y)));
            for q in 0..4 {
                assert_eq!(sc[i * 4 + q], full[i * m + idx[i * 4 + q] as usize]);
                assert!((sc[i * 4 + q] - full[i * m + order[q]]).abs() < 1e-14);
            }
        }
        let (idx, _) = cosine_top_k(ra, rb, 100).unwrap();
        assert_eq!(idx.len(), n * m);
        assert!(cosine_top_k(ra, rb, 0).is_err());
    }

    #[test]
    fn top_k_ties_and_nan() {
        let a = [1.0f32, 0.0];
        let b = [2.0f32, 0.0, f32::NAN, 0.0, 1.0, 0.0, 0.0, 1.0, 3.0, 0.0];
        let (idx, sc) = cosine_top_k(
            Rows::new(&a, 1, 2).unwrap(),
            Rows::new(&b, 5, 2).unwrap(),
            5,
        )
        .unwrap();
        assert_eq!(idx, vec![0, 2, 4, 3, 1]);
        assert_eq!(&sc[..3], &[1.0, 1.0, 1.0]);
        assert_eq!(sc[3], 0.0);
        assert!(sc[4].is_nan());
    }
}
