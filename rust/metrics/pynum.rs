//! The CPython 3.11 number semantics nltk's BLEU depends on: `math.fsum` (CPython's Shewchuk
//! algorithm, including its error cases), correctly rounded `int / int` and `float(Fraction)`,
//! `math.log` / `math.exp` with their exceptions, and the int / `Fraction` / float mixing rules of
//! `fractions.Fraction` arithmetic (exact while both sides are rational, float as soon as one is).

use std::hint::black_box;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use smallvec::SmallVec;

use crate::error::{Error, PyExc, Result};

/// Counts up to 2^53 convert to f64 exactly, so one f64 division is the correctly rounded quotient.
const EXACT: u64 = 1 << 53;

/// 2^k for -1022 <= k <= 1023.
fn pow2(k: i64) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// `mant * 2^k` exactly, for an integer `mant <= 2^53` whose product is representable (or overflows
/// to infinity, which is what a too-large quotient should become here).
fn scale(mant: f64, k: i64) -> f64 {
    if k < -1022 {
        // Two steps: the first keeps the value normal, the second lands on the exact result.
        mant * pow2(-1022) * pow2(k + 1022)
    } else if k > 1023 {
        mant * pow2(1023) * pow2(k - 1023)
    } else {
        mant * pow2(k)
    }
}

/// The correctly rounded (half-even) `n / d` for `d > 0`; infinity when it exceeds f64's range.
fn round_ratio(n: &BigUint, d: &BigUint) -> f64 {
    if n.is_zero() {
        return 0.0;
    }
    // Shift so that the integer quotient has 56 or 57 bits; the remainder is the sticky bit.
    let shift = 56 - (n.bits() as i64 - d.bits() as i64);
    let (q, r) = if shift >= 0 {
        (n << shift as u64).div_rem(d)
    } else {
        n.div_rem(&(d << shift.unsigned_abs()))
    };
    let q = q.iter_u64_digits().next().unwrap_or(0);
    let sticky = !r.is_zero();
    let qbits = 64 - i64::from(q.leading_zeros());
    let exp = qbits - 1 - shift;
    if exp > 1023 {
        return f64::INFINITY;
    }
    // Bits of precision the result can carry: 53, fewer for subnormals, none below 2^-1075.
    let keep = if exp >= -1022 { 53 } else { exp + 1075 };
    if keep < 0 {
        return 0.0;
    }
    let drop = qbits - keep;
    let mant = q >> drop;
    let rem = q & ((1u64 << drop) - 1);
    let half = 1u64 << (drop - 1);
    let up = rem > half || (rem == half && (sticky || mant & 1 == 1));
    scale((mant + u64::from(up)) as f64, drop - shift)
}

/// Python `n / d` for ints `d != 0`: correctly rounded, signed zero included.
fn int_ratio(n: &BigInt, d: &BigInt) -> f64 {
    let m = round_ratio(n.magnitude(), d.magnitude());
    if (n.sign() == Sign::Minus) != (d.sign() == Sign::Minus) {
        -m
    } else {
        m
    }
}

/// Python `n / d` for counts (`d > 0`).
pub(crate) fn count_ratio(n: u128, d: u128) -> f64 {
    if let (Ok(n), Ok(d)) = (u64::try_from(n), u64::try_from(d)) {
        if n <= EXACT && d <= EXACT {
            // From u64: converting a u128 is a slow library call.
            return n as f64 / d as f64;
        }
    }
    round_ratio(&BigUint::from(n), &BigUint::from(d))
}

/// `float(n)` for a Python int.
pub(crate) fn int_to_f64(n: &BigInt) -> Result<f64> {
    let f = int_ratio(n, &BigInt::from(1u8));
    if f.is_infinite() {
        return Err(Error::reference(
            PyExc::Overflow,
            "int too large to convert to float",
        ));
    }
    Ok(f)
}

/// `math.log(x)` for a float `x`.
pub(crate) fn py_log(x: f64) -> Result<f64> {
    if x.is_finite() && x <= 0.0 {
        return Err(Error::reference(PyExc::Value, "math domain error"));
    }
    Ok(x.ln())
}

/// `math.exp(x)`.
pub(crate) fn py_exp(x: f64) -> Result<f64> {
    let r = x.exp();
    if r.is_infinite() && x.is_finite() {
        return Err(Error::reference(PyExc::Overflow, "math range error"));
    }
    Ok(r)
}

/// `math.fsum` of CPython 3.11, fed one term at a time (the reference sums a lazy generator, so an
/// overflow stops it before later terms are computed).
#[derive(Debug, Default)]
pub(crate) struct Fsum {
    /// The first terms while they are finite and below `MODERATE`: no sum of a few of them can
    /// overflow, so whether they are added now or at the end cannot be seen, and at the end their
    /// exact sum is rounded at once (see `exact_sum`), not accumulated in partials.
    pending: SmallVec<[f64; PENDING]>,
    partials: SmallVec<[f64; 8]>,
    special_sum: f64,
    inf_sum: f64,
}

/// How many terms `Fsum` keeps pending.
const PENDING: usize = 8;

/// Terms below this (in magnitude) are kept pending: `PENDING` of them sum below `f64::MAX`.
const MODERATE: f64 = 1e300;

impl Fsum {
    pub(crate) fn add(&mut self, value: f64) -> Result<()> {
        let deferred = self.partials.is_empty() && self.special_sum == 0.0;
        if deferred && self.pending.len() < PENDING && value.abs() < MODERATE {
            self.pending.push(value);
            return Ok(());
        }
        for x in std::mem::take(&mut self.pending) {
            self.accumulate(x)?;
        }
        self.accumulate(value)
    }

    /// Shewchuk's msum step, as CPython's loop body.
    fn accumulate(&mut self, value: f64) -> Result<()> {
        let mut x = value;
        let mut kept = 0;
        for j in 0..self.partials.len() {
            let mut y = self.partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                self.partials[kept] = lo;
                kept += 1;
            }
            x = hi;
        }
        self.partials.truncate(kept);
        if x != 0.0 {
            if !x.is_finite() {
                // A non-finite partial comes from an overflow or from an inf/nan term.
                if value.is_finite() {
                    return Err(Error::reference(
                        PyExc::Overflow,
                        "intermediate overflow in fsum",
                    ));
                }
                if value.is_infinite() {
                    self.inf_sum += value;
                }
                self.special_sum += value;
                self.partials.clear();
            } else {
                self.partials.push(x);
            }
        }
        Ok(())
    }

    pub(crate) fn finish(&mut self) -> Result<f64> {
        if let Some(sum) = exact_sum(&self.pending) {
            return Ok(sum);
        }
        for x in std::mem::take(&mut self.pending) {
            self.accumulate(x)?;
        }
        if self.special_sum != 0.0 {
            if self.inf_sum.is_nan() {
                return Err(Error::reference(PyExc::Value, "-inf + inf in fsum"));
            }
            return Ok(self.special_sum);
        }
        let p = &self.partials;
        let mut n = p.len();
        let mut hi = 0.0;
        if n > 0 {
            n -= 1;
            hi = p[n];
            let mut lo = 0.0;
            while n > 0 {
                let x = hi;
                n -= 1;
                let y = p[n];
                hi = x + y;
                lo = y - (hi - x);
                if lo != 0.0 {
                    break;
                }
            }
            // Half-even rounding across partials: a lower partial of the same sign as `lo` breaks
            // the tie upward.
            if n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0)) {
                let y = lo * 2.0;
                let x = hi + y;
                if y == x - hi {
                    hi = x;
                }
            }
        }
        Ok(hi)
    }
}

/// The sum of `terms`, correctly rounded (half to even), as CPython's `fsum` gives it: the terms
/// are integers times a power of two, so when their exponents lie close enough together the sum
/// is one exact integer, rounded once. `None` where they do not, or where the result could leave
/// the range of normal floats (the caller then sums by partials).
fn exact_sum(terms: &[f64]) -> Option<f64> {
    // (sign, significand, exponent) of each nonzero term: |x| = significand * 2^exponent.
    let parts = |x: f64| {
        let bits = x.to_bits();
        let biased = ((bits >> 52) & 0x7FF) as i32;
        let fraction = bits & ((1 << 52) - 1);
        let significand = if biased == 0 {
            fraction
        } else {
            fraction | 1 << 52
        };
        (x < 0.0, significand, biased.max(1) - 1075)
    };
    let nonzero = || terms.iter().filter(|&&x| x != 0.0).map(|&x| parts(x));
    let low = nonzero().map(|(_, _, e)| e).min()?;
    let high = nonzero().map(|(_, _, e)| e).max()?;
    // Terms below 2^1000 and at most PENDING of them: 53 + 60 + 4 bits fit an i128; the range
    // keeps both the integer's scaling and the rounded result among normal floats.
    if high - low > 60 || low < -1000 || terms.len() > PENDING {
        return None;
    }
    let total: i128 = nonzero()
        .map(|(negative, significand, e)| {
            let v = i128::from(significand) << (e - low);
            if negative {
                -v
            } else {
                v
            }
        })
        .sum();
    let magnitude = total.unsigned_abs();
    let bits = 128 - magnitude.leading_zeros() as i32;
    let drop = (bits - 53).max(0);
    let mut kept = (magnitude >> drop) as u64;
    if drop > 0 {
        let rest = magnitude & ((1u128 << drop) - 1);
        let half = 1u128 << (drop - 1);
        if rest > half || (rest == half && kept & 1 == 1) {
            kept += 1;
        }
    }
    // `kept` (53 bits, or a carry into 2^53) is exact as a float, and so is its product with a
    // normal power of two when that product is finite: it is at least 2^-1000, a normal float.
    let exponent = low + drop;
    if exponent > 1023 {
        return None;
    }
    let power = f64::from_bits(((exponent + 1023) as u64) << 52);
    let value = kept as f64 * power;
    if !value.is_finite() {
        return None;
    }
    Some(if total < 0 { -value } else { value })
}

/// A Python number as nltk's smoothing code sees it: an `int`, a `Fraction` (kept as the raw count
/// pair while untouched, as nltk's unnormalised `Fraction`), or a `float`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Num {
    Int(BigInt),
    Ratio(u64, u64),
    Frac(BigRational),
    Float(f64),
}

fn quotient_too_large() -> Error {
    Error::reference(
        PyExc::Overflow,
        "integer division result too large for a float",
    )
}

impl Num {
    pub(crate) fn int(v: impl Into<BigInt>) -> Num {
        Num::Int(v.into())
    }

    /// `float(x)`.
    pub(crate) fn to_f64(&self) -> Result<f64> {
        match self {
            Num::Int(n) => int_to_f64(n),
            Num::Ratio(a, b) => Ok(count_ratio(u128::from(*a), u128::from(*b))),
            Num::Frac(q) => {
                let f = int_ratio(q.numer(), q.denom());
                if f.is_infinite() {
                    return Err(quotient_too_large());
                }
                Ok(f)
            }
            Num::Float(x) => Ok(*x),
        }
    }

    /// The exact value, unless this is a float.
    fn exact(&self) -> Option<BigRational> {
        match self {
            Num::Int(n) => Some(BigRational::from_integer(n.clone())),
            Num::Ratio(a, b) => Some(BigRational::new(BigInt::from(*a), BigInt::from(*b))),
            Num::Frac(q) => Some(q.clone()),
            Num::Float(_) => None,
        }
    }

    /// `x == 0`.
    pub(crate) fn is_zero(&self) -> bool {
        match self {
            Num::Int(n) => n.is_zero(),
            Num::Ratio(a, _) => *a == 0,
            Num::Frac(q) => q.is_zero(),
            Num::Float(x) => *x == 0.0,
        }
    }

    /// `x > 0`.
    pub(crate) fn is_positive(&self) -> bool {
        match self {
            Num::Int(n) => n.is_positive(),
            Num::Ratio(a, _) => *a > 0,
            Num::Frac(q) => q.is_positive(),
            Num::Float(x) => *x > 0.0,
        }
    }

    /// The sign Python prints in `Fraction(n, 0)` when this value is divided by a zero.
    fn zero_division_sign(&self) -> i8 {
        if self.is_zero() {
            0
        } else if self.is_positive() {
            1
        } else {
            -1
        }
    }

    pub(crate) fn add(&self, other: &Num) -> Result<Num> {
        if let (Num::Int(a), Num::Int(b)) = (self, other) {
            return Ok(Num::Int(a + b));
        }
        match (self.exact(), other.exact()) {
            (Some(a), Some(b)) => Ok(Num::Frac(a + b)),
            _ => Ok(Num::Float(self.to_f64()? + other.to_f64()?)),
        }
    }

    pub(crate) fn mul(&self, other: &Num) -> Result<Num> {
        if let (Num::Int(a), Num::Int(b)) = (self, other) {
            return Ok(Num::Int(a * b));
        }
        match (self.exact(), other.exact()) {
            (Some(a), Some(b)) => Ok(Num::Frac(a * b)),
            _ => Ok(Num::Float(self.to_f64()? * other.to_f64()?)),
        }
    }

    /// `self / other` (true division).
    pub(crate) fn div(&self, other: &Num) -> Result<Num> {
        if let (Num::Int(a), Num::Int(b)) = (self, other) {
            if b.is_zero() {
                return Err(Error::reference(PyExc::ZeroDivision, "division by zero"));
            }
            let f = int_ratio(a, b);
            if f.is_infinite() {
                return Err(quotient_too_large());
            }
            return Ok(Num::Float(f));
        }
        match (self.exact(), other.exact()) {
            (Some(_), Some(b)) if b.is_zero() => Err(Error::reference(
                PyExc::ZeroDivision,
                format!("Fraction({}, 0)", self.zero_division_sign()),
            )),
            (Some(a), Some(b)) => Ok(Num::Frac(a / b)),
            _ => {
                let (x, y) = (self.to_f64()?, other.to_f64()?);
                if y == 0.0 {
                    return Err(Error::reference(
                        PyExc::ZeroDivision,
                        "float division by zero",
                    ));
                }
                Ok(Num::Float(x / y))
            }
        }
    }

    /// `x ** 2`: exact for int and Fraction, C `pow(x, 2.0)` for a float.
    pub(crate) fn squared(&self) -> Result<Num> {
        match self {
            Num::Float(x) => {
                // black_box keeps LLVM from rewriting pow(x, 2.0) as x * x.
                let r = x.powf(black_box(2.0));
                if r.is_infinite() && x.is_finite() {
                    return Err(Error::reference(
                        PyExc::Overflow,
                        "(34, 'Numerical result out of range')",
                    ));
                }
                Ok(Num::Float(r))
            }
            Num::Int(n) => Ok(Num::Int(n * n)),
            Num::Ratio(a, b) => {
                let (a, b) = (BigInt::from(*a), BigInt::from(*b));
                Ok(Num::Frac(BigRational::new(&a * &a, &b * &b)))
            }
            Num::Frac(q) => Ok(Num::Frac(q * q)),
        }
    }

    /// `math.log(x)` for `x > 0`.
    pub(crate) fn log(&self) -> Result<f64> {
        py_log(self.to_f64()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::FromPrimitive;

    /// A small deterministic generator (xorshift) so the tests need no extra crate.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn float(&mut self) -> f64 {
            loop {
                let f = f64::from_bits(self.next());
                if f.is_finite() {
                    return f;
                }
            }
        }
    }

    fn exact(x: f64) -> BigRational {
        BigRational::from_f64(x).expect("finite")
    }

    /// `f` is the nearest double to `q` (ties to even), checked with exact arithmetic.
    fn is_correctly_rounded(q: &BigRational, f: f64) -> bool {
        let err = (q - exact(f)).abs();
        let up = f64::from_bits(f.to_bits() + 1);
        let down = if f == 0.0 {
            -f64::from_bits(1)
        } else {
            f64::from_bits(f.to_bits() - 1)
        };
        [up, down].iter().all(|&g| {
            if !g.is_finite() {
                return true;
            }
            let other = (q - exact(g)).abs();
            err < other || (err == other && f.to_bits() & 1 == 0)
        })
    }

    #[test]
    fn ratios_are_correctly_rounded() {
        let mut rng = Rng(0x9e3779b97f4a7c15);
        for i in 0..20_000 {
            let n = BigUint::from(rng.next()) << (rng.next() % 200) as usize;
            let d = (BigUint::from(rng.next() | 1) << (rng.next() % 200) as usize)
                * BigUint::from(1 + rng.next() % 1000);
            let (n, d) = if i % 2 == 0 { (n, d) } else { (d, n) };
            let f = round_ratio(&n, &d);
            let q = BigRational::new(BigInt::from(n), BigInt::from(d));
            assert!(is_correctly_rounded(&q, f), "{q} -> {f:e}");
        }
    }

    #[test]
    fn subnormal_and_extreme_ratios() {
        let one = BigUint::from(1u8);
        for k in [1070u64, 1073, 1074, 1075, 1076, 1100, 1020, 1022, 1023] {
            for m in [1u64, 2, 3, 5, 7, (1 << 53) - 1, (1 << 53) + 1] {
                let d = BigUint::from(m) << k;
                let f = round_ratio(&one, &d);
                let q = BigRational::new(BigInt::from(1), BigInt::from(d.clone()));
                assert!(is_correctly_rounded(&q, f), "1/({m}<<{k}) -> {f:e}");
                let f = round_ratio(&d, &one);
                if k + 64 < 1024 {
                    assert_eq!(f, (m as f64) * 2f64.powi(k as i32));
                } else if k > 1030 {
                    assert!(f.is_infinite());
                }
            }
        }
        // The halfway point below the smallest subnormal rounds to even (zero).
        assert_eq!(round_ratio(&one, &(BigUint::from(1u8) << 1075u64)), 0.0);
        assert_eq!(
            round_ratio(&BigUint::from(3u8), &(BigUint::from(1u8) << 1076u64)),
            f64::from_bits(1)
        );
    }

    fn exact_sum_rounded(xs: &[f64]) -> f64 {
        let s: BigRational = xs.iter().map(|&x| exact(x)).sum();
        let f = int_ratio(s.numer(), s.denom());
        f
    }

    /// The `Fsum` of `xs`, each term given to it by `add`.
    fn sum_by(xs: &[f64], add: fn(&mut Fsum, f64) -> Result<()>) -> Result<f64> {
        let mut s = Fsum::default();
        for &x in xs {
            add(&mut s, x)?;
        }
        s.finish()
    }

    fn fsum(xs: &[f64]) -> Result<f64> {
        sum_by(xs, Fsum::add)
    }

    #[test]
    fn fsum_is_the_correctly_rounded_sum() {
        let mut rng = Rng(12345);
        for _ in 0..20_000 {
            let n = (rng.next() % 8) as usize;
            let xs: Vec<f64> = (0..n)
                .map(|_| {
                    let base = rng.float();
                    let e = (rng.next() % 120) as i32 - 60;
                    (base / base.abs().max(1e-300)) * 2f64.powi(e) * (1.0 + (rng.next() % 7) as f64)
                })
                .collect();
            let got = fsum(&xs).expect("finite");
            let want = exact_sum_rounded(&xs);
            assert!(
                got == want || (got == 0.0 && want == 0.0),
                "{xs:?}: {got:e} vs {want:e}"
            );
        }
        assert_eq!(fsum(&[1e-16, 1.0, 1e16]), Ok(10000000000000002.0));
        assert_eq!(fsum(&[]), Ok(0.0));
    }

    #[test]
    fn pending_terms_round_as_partials_do() {
        // Integers times nearby powers of two, with halfway cases: 2^53 + k plus halves and
        // quarters of the last place, and terms that cancel.
        let mut rng = Rng(99);
        for case in 0..50_000 {
            let n = 1 + (rng.next() % 12) as usize;
            let xs: Vec<f64> = (0..n)
                .map(|_| {
                    let sign = if rng.next().is_multiple_of(3) {
                        -1.0
                    } else {
                        1.0
                    };
                    let e = (rng.next() % 70) as i32 - 35 + if case % 7 == 0 { -990 } else { 0 };
                    let m = match rng.next() % 4 {
                        0 => (1u64 << 53) + rng.next() % 8,
                        1 => 1 + rng.next() % 4,
                        _ => rng.next() >> 11,
                    };
                    sign * m as f64 * 2f64.powi(e)
                })
                .collect();
            let got = fsum(&xs).expect("finite");
            assert_eq!(
                got.to_bits(),
                // By partials alone, no term kept pending.
                sum_by(&xs, Fsum::accumulate).expect("finite").to_bits(),
                "{xs:?}"
            );
            let want = exact_sum_rounded(&xs);
            assert!(got == want || (got == 0.0 && want == 0.0), "{xs:?}");
        }
        // Exactly halfway between two floats: to the even one.
        assert_eq!(fsum(&[9007199254740992.0, 1.0]), Ok(9007199254740992.0));
        assert_eq!(fsum(&[9007199254740994.0, 1.0]), Ok(9007199254740996.0));
        assert_eq!(fsum(&[9007199254740994.0, -1.0]), Ok(9007199254740992.0));
        assert_eq!(fsum(&[1.0, -1.0]).map(f64::to_bits), Ok(0));
    }

    #[test]
    fn fsum_special_values() {
        assert_eq!(
            fsum(&[f64::MAX, f64::MAX]),
            Err(Error::reference(
                PyExc::Overflow,
                "intermediate overflow in fsum"
            ))
        );
        assert!(matches!(
            fsum(&[f64::INFINITY, f64::NEG_INFINITY]),
            Err(Error::Reference(PyExc::Value, _))
        ));
        assert_eq!(fsum(&[f64::INFINITY, 1.0]), Ok(f64::INFINITY));
        assert!(fsum(&[f64::NAN, 1.0]).expect("nan").is_nan());
    }

    #[test]
    fn mixed_arithmetic_follows_python() {
        let third = Num::Ratio(1, 3);
        assert_eq!(
            third.add(&Num::int(1)).unwrap(),
            Num::Frac(BigRational::new(4.into(), 3.into()))
        );
        assert_eq!(
            third.add(&Num::Float(0.5)).unwrap(),
            Num::Float(1.0 / 3.0 + 0.5)
        );
        assert_eq!(
            Num::int(1).div(&Num::int(3)).unwrap(),
            Num::Float(1.0 / 3.0)
        );
        assert_eq!(
            Num::int(0)
                .div(&Num::int(-3))
                .unwrap()
                .to_f64()
                .unwrap()
                .to_bits(),
            (-0.0f64).to_bits()
        );
        assert_eq!(
            third.div(&Num::int(0)).unwrap_err().to_string(),
            "Fraction(1, 0)"
        );
        assert_eq!(
            Num::int(2).div(&Num::int(0)).unwrap_err().to_string(),
            "division by zero"
        );
        assert_eq!(
            Num::Float(2.0).div(&Num::int(0)).unwrap_err().to_string(),
            "float division by zero"
        );
        assert_eq!(
            Num::Ratio(2, 3).squared().unwrap(),
            Num::Frac(BigRational::new(4.into(), 9.into()))
        );
    }
}
