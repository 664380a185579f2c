//! Normalized string distances of rapidfuzz 3.14 with default arguments:
//! `rapidfuzz.distance.{Levenshtein, Hamming, Jaro, JaroWinkler}.normalized_distance(a, b)`, which
//! ragas 0.4.3 `NonLLMStringSimilarity` turns into `1 - distance`.
//!
//! Strings are sequences of Unicode code points (Python `str` semantics, non-BMP characters one
//! symbol each), in whichever width the caller holds them: CPython stores a `str` with 1, 2 or 4
//! bytes a code point ([`Text`]), and the kernels read that storage as it is, comparing code points.
//!
//! Invariants: every value is bit-identical to rapidfuzz's. Levenshtein and Hamming are one
//! integer distance divided by the longer length (0.0 for two empty strings); Jaro adds its three
//! ratios in rapidfuzz's order and divides by 3; Jaro-Winkler adds `prefix * 0.1 * (1 - sim)` above
//! 0.7. No input panics; the scratch buffers grow with the longest string seen and are reused.

use crate::error::{Error, Result};
use crate::parallel;

/// One code point as stored: `u8` (Latin-1), `u16` (BMP), `u32` or `char`.
pub trait Symbol: Copy + Send + Sync {
    fn code(self) -> u32;
}

impl Symbol for u8 {
    #[inline(always)]
    fn code(self) -> u32 {
        u32::from(self)
    }
}

impl Symbol for u16 {
    #[inline(always)]
    fn code(self) -> u32 {
        u32::from(self)
    }
}

impl Symbol for u32 {
    #[inline(always)]
    fn code(self) -> u32 {
        self
    }
}

impl Symbol for char {
    #[inline(always)]
    fn code(self) -> u32 {
        u32::from(self)
    }
}

/// A string as its code points, in the width CPython stores it (`PyUnicode_KIND`): every code
/// point below 256, below 65,536, or any.
#[derive(Clone, Copy, Debug)]
pub enum Text<'a> {
    Ucs1(&'a [u8]),
    Ucs2(&'a [u16]),
    Ucs4(&'a [u32]),
}

impl Text<'_> {
    pub fn len(&self) -> usize {
        match self {
            Text::Ucs1(s) => s.len(),
            Text::Ucs2(s) => s.len(),
            Text::Ucs4(s) => s.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The distance measures of ragas' `DistanceMeasure`, by their rapidfuzz module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// `rapidfuzz.distance.Levenshtein` (insertions, deletions, substitutions all weigh 1).
    Levenshtein,
    /// `rapidfuzz.distance.Hamming` with `pad=True`: the shorter string padded, each padded place a
    /// mismatch.
    Hamming,
    /// `rapidfuzz.distance.Jaro`.
    Jaro,
    /// `rapidfuzz.distance.JaroWinkler` with `prefix_weight=0.1`.
    JaroWinkler,
}

impl Measure {
    /// Every measure, in the order of ragas' `DistanceMeasure`.
    pub const ALL: [Measure; 4] = [
        Measure::Levenshtein,
        Measure::Hamming,
        Measure::Jaro,
        Measure::JaroWinkler,
    ];

    /// `"levenshtein"`, `"hamming"`, `"jaro"` or `"jaro_winkler"` (ragas' `DistanceMeasure` values).
    pub fn name(self) -> &'static str {
        match self {
            Measure::Levenshtein => "levenshtein",
            Measure::Hamming => "hamming",
            Measure::Jaro => "jaro",
            Measure::JaroWinkler => "jaro_winkler",
        }
    }

    /// The measure of a name (see [`Measure::name`]); anything else is an error naming it.
    pub fn parse(name: &str) -> Result<Measure> {
        Measure::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| {
                Error::InvalidValue(format!(
                    "unknown measure '{name}': expected one of 'levenshtein', 'hamming', 'jaro', \
                     'jaro_winkler'"
                ))
            })
    }
}

/// rapidfuzz's Jaro-Winkler `prefix_weight` default (ragas passes none).
const PREFIX_WEIGHT: f64 = 0.1;

/// rapidfuzz's Jaro-Winkler threshold: the prefix bonus applies above this Jaro similarity.
const WINKLER_THRESHOLD: f64 = 0.7;

/// No code point is this value (they end at 0x10FFFF): an empty slot of [`Masks`]' map.
const EMPTY: u32 = u32::MAX;

/// Where each symbol occurs in a pattern, as `words` 64-bit words of bits per symbol (bit `i % 64`
/// of word `i / 64` for position `i`): code points below 256 in a direct table, the others in a
/// small open-addressing map. Every entry is zero again after [`Masks::clear`].
#[derive(Default)]
struct Masks {
    words: usize,
    /// 256 rows of `words` words.
    low: Vec<u64>,
    /// The map's keys (`EMPTY` or a code point); a power of two long (or empty).
    keys: Vec<u32>,
    /// One row of `words` words per key slot.
    high: Vec<u64>,
    /// The slots in use, to clear.
    used: Vec<usize>,
    /// At least `words` zeros: the row of a symbol the pattern lacks.
    zeros: Vec<u64>,
}

impl Masks {
    /// The masks of `pattern` (every entry zero before).
    fn build<S: Symbol>(&mut self, pattern: &[S]) {
        let words = pattern.len().div_ceil(64).max(1);
        self.words = words;
        if self.low.len() < 256 * words {
            self.low = vec![0; 256 * words];
        }
        if self.zeros.len() < words {
            self.zeros = vec![0; words];
        }
        let high = pattern.iter().filter(|s| s.code() >= 256).count();
        if high > 0 {
            let slots = (2 * high).next_power_of_two().max(16);
            if self.keys.len() < slots || self.high.len() < self.keys.len() * words {
                let slots = slots.max(self.keys.len());
                self.keys = vec![EMPTY; slots];
                self.high = vec![0; slots * words];
            }
        }
        for (i, s) in pattern.iter().enumerate() {
            let bit = 1u64 << (i % 64);
            let c = s.code();
            let row = if c < 256 {
                c as usize * words
            } else {
                self.insert(c) * words
            };
            if let Some(w) = self.low_or_high(c).get_mut(row + i / 64) {
                *w |= bit;
            }
        }
    }

    fn low_or_high(&mut self, c: u32) -> &mut Vec<u64> {
        if c < 256 {
            &mut self.low
        } else {
            &mut self.high
        }
    }

    /// The first slot to probe for `c` in a map of `len` slots (a power of two).
    #[inline(always)]
    fn home(c: u32, len: usize) -> usize {
        // Fibonacci hashing: the top bits of the product spread nearby code points apart.
        let h = u64::from(c).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - len.trailing_zeros().max(1))) as usize & (len - 1)
    }

    /// The slot of `c`, taken if new (the map has room: at most half full).
    fn insert(&mut self, c: u32) -> usize {
        let len = self.keys.len();
        let mut slot = Self::home(c, len);
        for _ in 0..len {
            match self.keys.get(slot).copied() {
                Some(k) if k == c => return slot,
                Some(EMPTY) => {
                    if let Some(k) = self.keys.get_mut(slot) {
                        *k = c;
                    }
                    self.used.push(slot);
                    return slot;
                }
                _ => slot = (slot + 1) & (len - 1),
            }
        }
        // Unreachable: the map is sized to stay at most half full.
        0
    }

    /// The row of `c` (zeros where the pattern lacks it).
    #[inline(always)]
    fn get(&self, c: u32) -> &[u64] {
        let words = self.words;
        if c < 256 {
            let at = c as usize * words;
            return self.low.get(at..at + words).unwrap_or(self.zero_row());
        }
        if self.used.is_empty() {
            return self.zero_row();
        }
        let len = self.keys.len();
        let mut slot = Self::home(c, len);
        loop {
            match self.keys.get(slot).copied() {
                Some(k) if k == c => {
                    let at = slot * words;
                    return self.high.get(at..at + words).unwrap_or(self.zero_row());
                }
                Some(EMPTY) | None => return self.zero_row(),
                _ => slot = (slot + 1) & (len - 1),
            }
        }
    }

    /// The row of a symbol the pattern lacks.
    #[inline(always)]
    fn zero_row(&self) -> &[u64] {
        self.zeros.get(..self.words).unwrap_or(&[])
    }

    /// The one word of `c` (patterns of at most 64 symbols).
    #[inline(always)]
    fn get1(&self, c: u32) -> u64 {
        if c < 256 {
            return self.low.get(c as usize * self.words).copied().unwrap_or(0);
        }
        self.get(c).first().copied().unwrap_or(0)
    }

    /// Every entry of `pattern` back to zero.
    fn clear<S: Symbol>(&mut self, pattern: &[S]) {
        let words = self.words;
        for (i, s) in pattern.iter().enumerate() {
            let c = s.code() as usize;
            if c < 256 {
                if let Some(w) = self.low.get_mut(c * words + i / 64) {
                    *w = 0;
                }
            }
        }
        for slot in self.used.drain(..) {
            if let Some(k) = self.keys.get_mut(slot) {
                *k = EMPTY;
            }
            if let Some(row) = self.high.get_mut(slot * words..slot * words + words) {
                row.fill(0);
            }
        }
    }
}

/// The buffers of one thread's rows, reused from row to row.
#[derive(Default)]
pub struct Scratch {
    masks: Masks,
    /// Levenshtein: the vertical deltas (+1 bits, -1 bits) of each word of the pattern.
    vectors: Vec<(u64, u64)>,
    /// Levenshtein: the value of the bottom row of each word of the pattern.
    scores: Vec<usize>,
    /// Jaro: the matched positions of the second string.
    flags: Vec<u64>,
    /// Jaro: the matched code points of the first string, in order.
    matched: Vec<u32>,
}

impl Scratch {
    pub fn new() -> Self {
        Scratch::default()
    }
}

#[inline(always)]
fn same<A: Symbol, B: Symbol>(a: A, b: B) -> bool {
    a.code() == b.code()
}

/// `d / max(len_a, len_b)`, 0.0 for two empty strings: rapidfuzz's `_normalized_distance` of an
/// integer distance (with the default `score_cutoff` of 1.0, which keeps every value).
fn normalized(distance: usize, len_a: usize, len_b: usize) -> f64 {
    let maximum = len_a.max(len_b);
    if maximum == 0 {
        0.0
    } else {
        distance as f64 / maximum as f64
    }
}

/// The Levenshtein distance (unit weights).
fn levenshtein<A: Symbol, B: Symbol>(scratch: &mut Scratch, a: &[A], b: &[B]) -> usize {
    // A common prefix and suffix never change the distance.
    let prefix = a.iter().zip(b).take_while(|(x, y)| same(**x, **y)).count();
    let (a, b) = (
        a.get(prefix..).unwrap_or(&[]),
        b.get(prefix..).unwrap_or(&[]),
    );
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| same(**x, **y))
        .count();
    let a = a.get(..a.len() - suffix).unwrap_or(&[]);
    let b = b.get(..b.len() - suffix).unwrap_or(&[]);
    let (short, long) = (a.len().min(b.len()), a.len().max(b.len()));
    if short == 0 {
        return long;
    }
    // The pattern takes one word per 64 symbols, and the other string is read once. A long
    // pattern is tried on bands first (see `levenshtein_pattern`): there the longer string is the
    // pattern, for fewer columns. Otherwise the words times the columns decide.
    let pattern_is_a = if band_guesses(long.div_ceil(64)) {
        a.len() >= b.len()
    } else {
        a.len().div_ceil(64) * b.len() <= b.len().div_ceil(64) * a.len()
    };
    if pattern_is_a {
        levenshtein_pattern(scratch, a, b)
    } else {
        levenshtein_pattern(scratch, b, a)
    }
}

/// The Levenshtein distance of a non-empty `pattern` against a non-empty `text`, by Hyyrö's
/// bit-parallel algorithm (2003): the vertical deltas of a column as bits, one word per 64
/// symbols of the pattern (rapidfuzz's `levenshtein_hyrroe2003` family).
fn levenshtein_pattern<P: Symbol, T: Symbol>(
    scratch: &mut Scratch,
    pattern: &[P],
    text: &[T],
) -> usize {
    let m = pattern.len();
    scratch.masks.build(pattern);
    let Scratch {
        masks,
        vectors,
        scores,
        ..
    } = scratch;
    let dist = if m <= 64 {
        levenshtein_word(masks, m, text)
    } else {
        // Ukkonen's cut-off on growing guesses (as rapidfuzz's `score_hint`, from 31): a guess at
        // least the distance gives the distance, a smaller one fails, often early.
        let longest = m.max(text.len());
        let mut guess = FIRST_GUESS;
        loop {
            if guess >= longest || !band_worth(guess, masks.words) {
                break levenshtein_blocks(masks, vectors, m, text);
            }
            if let Some(d) = levenshtein_band(masks, vectors, scores, m, text, guess) {
                break d;
            }
            guess = guess.saturating_mul(2);
        }
    };
    masks.clear(pattern);
    dist
}

/// The first distance a long pattern's band is sized for.
const FIRST_GUESS: usize = 31;

/// Whether the band of a guess `k` (k + 1 diagonals, so up to k / 64 + 2 words a column) is worth
/// trying before all `words` words: when it takes at most a third of them. A guess below the
/// distance fails and its work is lost; on sentence pairs (150 to 300 symbols, distances of
/// 10 % to 60 %) bands of 3 to 5 words lose more than they win.
fn band_worth(k: usize, words: usize) -> bool {
    3 * (k / 64 + 2) <= words
}

/// Whether a pattern of `words` words is tried on bands at all.
fn band_guesses(words: usize) -> bool {
    band_worth(FIRST_GUESS, words)
}

/// One column of one word: the word's vertical deltas `v` (+1 bits, -1 bits) move to the next
/// column, given the mask of the column's symbol and the horizontal delta entering at the word's
/// top row (`hp_in` for +1, `hn_in` for -1, one bit each). Returns the horizontal deltas of the
/// word's rows (+1 bits, -1 bits) in this column.
#[inline(always)]
fn step(v: &mut (u64, u64), pm: u64, hp_in: u64, hn_in: u64) -> (u64, u64) {
    let (vp, vn) = *v;
    let x = pm | hn_in;
    let d0 = ((x & vp).wrapping_add(vp) ^ vp) | x | vn;
    let hp = vn | !(d0 | vp);
    let hn = d0 & vp;
    let hp_shifted = (hp << 1) | hp_in;
    let hn_shifted = (hn << 1) | hn_in;
    *v = (hn_shifted | !(d0 | hp_shifted), hp_shifted & d0);
    (hp, hn)
}

/// `value` moved by the horizontal delta of row `bottom` (one bit of `hp` or `hn`).
#[inline(always)]
fn moved(value: usize, hp: u64, hn: u64, bottom: u64) -> usize {
    value
        .wrapping_add(usize::from(hp & bottom != 0))
        .wrapping_sub(usize::from(hn & bottom != 0))
}

/// One word: patterns of 1 to 64 symbols.
fn levenshtein_word<T: Symbol>(masks: &Masks, m: usize, text: &[T]) -> usize {
    let mut v = (!0u64, 0u64);
    let last = 1u64 << ((m - 1) % 64);
    let mut dist = m;
    for &c in text {
        // The top row of the matrix grows by one a column.
        let (hp, hn) = step(&mut v, masks.get1(c.code()), 1, 0);
        dist = moved(dist, hp, hn, last);
    }
    dist
}

/// Every word of a pattern of more than 64 symbols, each passing the horizontal delta of its
/// bottom row to the next.
fn levenshtein_blocks<T: Symbol>(
    masks: &Masks,
    vectors: &mut Vec<(u64, u64)>,
    m: usize,
    text: &[T],
) -> usize {
    vectors.clear();
    vectors.resize(masks.words, (!0, 0));
    let last = 1u64 << ((m - 1) % 64);
    let mut dist = m;
    for &c in text {
        let (mut hp_in, mut hn_in) = (1u64, 0u64);
        let (mut hp, mut hn) = (0u64, 0u64);
        for (v, &pm) in vectors.iter_mut().zip(masks.get(c.code())) {
            (hp, hn) = step(v, pm, hp_in, hn_in);
            hp_in = hp >> 63;
            hn_in = hn >> 63;
        }
        dist = moved(dist, hp, hn, last);
    }
    dist
}

/// The distance of a pattern of more than 64 symbols if it is at most `k`, else `None`, computing
/// only the words that meet the band of diagonals a path of cost `k` or less can use (Ukkonen), and
/// stopping once no cell of a column can be on such a path.
///
/// Why this is exact: values only grow along a path, so every cell of a best path of cost at most
/// `k` holds at most `k`, and lies in the band. The words outside the band are never computed:
/// the word below the band joins it with every row one more than the row above (`D[i+1] <= D[i] +
/// 1`), and the row above the band is taken to grow by one a column (`D[j+1] <= D[j] + 1`). Both
/// are upper bounds, the recurrence keeps upper bounds upper bounds, and it gives the exact value
/// of every cell whose best predecessor is exact: so every cell of a best path is exact, and a
/// word none of whose cells can be on one (its least value plus the distance left to the end,
/// above `k`) is left out from then on, the path only going down.
fn levenshtein_band<T: Symbol>(
    masks: &Masks,
    vectors: &mut Vec<(u64, u64)>,
    scores: &mut Vec<usize>,
    m: usize,
    text: &[T],
    k: usize,
) -> Option<usize> {
    let (n, words) = (text.len(), masks.words);
    let diff = m.abs_diff(n);
    if diff > k || words == 0 {
        return None;
    }
    // A cell (i, j) of a path of cost <= k to (m, n): -above <= i - j <= below.
    let extra = (k - diff) / 2;
    let (below, above) = if m >= n {
        (diff + extra, extra)
    } else {
        (extra, diff + extra)
    };
    let rows_in = |word: usize| if word + 1 == words { m - 64 * word } else { 64 };
    // The least cost of a path to (m, n) through a cell of `word` in column j, given the value
    // `score` of its bottom row: a cell i rows up holds at least `score - i`, and the path has
    // at least |(m - i) - (n - j)| steps left. Signed: the terms cancel.
    let m_minus_n = m as isize - n as isize;
    let least_cost = |word: usize, score: usize, j: usize| -> isize {
        let first = (64 * word + 1) as isize;
        let last = (64 * word + rows_in(word)) as isize;
        // The row of the diagonal that ends at (m, n).
        let diagonal = j as isize + m_minus_n;
        let least = if first >= diagonal {
            first + (first - diagonal)
        } else {
            diagonal
        };
        score as isize - last + least
    };
    let k_signed = k as isize;
    vectors.clear();
    vectors.resize(words, (!0, 0));
    // The value of each word's bottom row; word 0 starts at column 0 (row i holds i).
    scores.clear();
    scores.resize(words, 0);
    let mut started = 0;
    if let Some(first) = scores.first_mut() {
        *first = rows_in(0);
    }
    let mut top = 0;
    for (j, &c) in (1usize..).zip(text) {
        // The band's rows (0-based) in column j, and their words.
        top = top.max((j - 1).saturating_sub(above) / 64);
        let bottom = (j + below - 1).min(m - 1) / 64;
        while started < bottom {
            // A word joining the band: one more a row than the bottom of the word above, in
            // the previous column.
            started += 1;
            let above_score = scores.get(started - 1).copied().unwrap_or(0);
            if let (Some(v), Some(score)) = (vectors.get_mut(started), scores.get_mut(started)) {
                *v = (!0, 0);
                *score = above_score + rows_in(started);
            }
        }
        let row = masks.get(c.code());
        let (mut hp_in, mut hn_in) = (1u64, 0u64);
        let mut first_needed = None;
        for word in top..=bottom {
            let (Some(v), Some(&pm), Some(score)) =
                (vectors.get_mut(word), row.get(word), scores.get_mut(word))
            else {
                break;
            };
            let (hp, hn) = step(v, pm, hp_in, hn_in);
            *score = moved(*score, hp, hn, 1u64 << (rows_in(word) - 1));
            hp_in = hp >> 63;
            hn_in = hn >> 63;
            if first_needed.is_none() && least_cost(word, *score, j) <= k_signed {
                first_needed = Some(word);
            }
        }
        match first_needed {
            // The words above the first that a path of cost <= k can use are done with.
            Some(word) => top = word,
            // No path of cost <= k passes this column.
            None => return None,
        }
    }
    scores.last().copied().filter(|&d| d <= k)
}

/// The Hamming distance with rapidfuzz's default `pad=True`: the mismatches of the common length
/// plus the difference of the lengths.
fn hamming<A: Symbol, B: Symbol>(a: &[A], b: &[B]) -> usize {
    // Counted 255 places at a time in a byte, which the compiler keeps in vector lanes.
    let mut matches = 0;
    for (a, b) in a.chunks(255).zip(b.chunks(255)) {
        let chunk: u8 = a
            .iter()
            .zip(b)
            .fold(0u8, |n, (x, y)| n.wrapping_add(u8::from(same(*x, *y))));
        matches += usize::from(chunk);
    }
    a.len().max(b.len()) - matches
}

/// rapidfuzz's `jaro_calculate_similarity`, in its order of operations.
fn jaro_formula(len_a: usize, len_b: usize, common: usize, transpositions: usize) -> f64 {
    let transpositions = transpositions / 2;
    let common_f = common as f64;
    let mut sim = 0.0;
    sim += common_f / len_a as f64;
    sim += common_f / len_b as f64;
    sim += common.saturating_sub(transpositions) as f64 / common_f;
    sim / 3.0
}

/// The Jaro similarity of rapidfuzz (its pure-Python `Jaro_py.similarity` step by step, with the
/// search for a match done on bit masks): each symbol of `a` in turn takes the first free equal
/// symbol of `b` within `bound` places; half the out-of-order matches are transpositions.
fn jaro<A: Symbol, B: Symbol>(scratch: &mut Scratch, a: &[A], b: &[B]) -> f64 {
    let (len_a, len_b) = (a.len(), b.len());
    if len_a == 0 && len_b == 0 {
        return 1.0;
    }
    if len_a == 0 || len_b == 0 {
        return 0.0;
    }
    if let ([x], [y]) = (a, b) {
        return if same(*x, *y) { 1.0 } else { 0.0 };
    }
    // The parts of the longer string that no window reaches are dropped (`_jaro_bounds`).
    let (bound, a, b) = if len_b > len_a {
        let bound = (len_b / 2).saturating_sub(1);
        (bound, a, b.get(..len_b.min(len_a + bound)).unwrap_or(b))
    } else {
        let bound = (len_a / 2).saturating_sub(1);
        (bound, a.get(..len_a.min(len_b + bound)).unwrap_or(a), b)
    };
    let Scratch {
        masks,
        flags,
        matched,
        ..
    } = scratch;
    masks.build(b);
    flags.clear();
    flags.resize(masks.words, 0);
    matched.clear();
    let hi_max = b.len() - 1;
    for (i, s) in a.iter().enumerate() {
        let low = i.saturating_sub(bound);
        let hi = (i + bound).min(hi_max);
        if low > hi {
            continue;
        }
        let c = s.code();
        let row = masks.get(c);
        let (first, last) = (low / 64, hi / 64);
        for w in first..=last {
            let (Some(&pm), Some(flag)) = (row.get(w), flags.get_mut(w)) else {
                break;
            };
            let mut candidates = pm & !*flag;
            if w == first {
                candidates &= !0u64 << (low % 64);
            }
            if w == last {
                candidates &= !0u64 >> (63 - hi % 64);
            }
            if candidates != 0 {
                *flag |= candidates & candidates.wrapping_neg();
                matched.push(c);
                break;
            }
        }
    }
    masks.clear(b);
    let common = matched.len();
    if common == 0 {
        return 0.0;
    }
    // The k-th match of `a` against the k-th match of `b`, both in string order.
    let mut transpositions = 0;
    let mut next = matched.iter();
    for (w, &flag) in flags.iter().enumerate() {
        let mut bits = flag;
        while bits != 0 {
            let j = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if let (Some(&x), Some(y)) = (next.next(), b.get(j)) {
                transpositions += usize::from(x != y.code());
            }
        }
    }
    jaro_formula(len_a, len_b, common, transpositions)
}

/// The Jaro-Winkler similarity of rapidfuzz: above 0.7, the Jaro similarity gains
/// `prefix * 0.1 * (1 - sim)` for a common prefix of up to 4 symbols.
fn jaro_winkler<A: Symbol, B: Symbol>(scratch: &mut Scratch, a: &[A], b: &[B]) -> f64 {
    let prefix = a
        .iter()
        .zip(b)
        .take(4)
        .take_while(|(x, y)| same(**x, **y))
        .count();
    let mut sim = jaro(scratch, a, b);
    if sim > WINKLER_THRESHOLD {
        sim += prefix as f64 * PREFIX_WEIGHT * (1.0 - sim);
        sim = sim.min(1.0);
    }
    sim
}

fn distance_of<A: Symbol, B: Symbol>(
    scratch: &mut Scratch,
    measure: Measure,
    a: &[A],
    b: &[B],
) -> f64 {
    match measure {
        Measure::Levenshtein => normalized(levenshtein(scratch, a, b), a.len(), b.len()),
        Measure::Hamming => normalized(hamming(a, b), a.len(), b.len()),
        Measure::Jaro => 1.0 - jaro(scratch, a, b),
        Measure::JaroWinkler => 1.0 - jaro_winkler(scratch, a, b),
    }
}

/// `rapidfuzz.distance.<measure>.normalized_distance(a, b)` (default arguments), reusing
/// `scratch`'s buffers: 0.0 for identical strings, up to 1.0.
pub fn normalized_distance_with(scratch: &mut Scratch, measure: Measure, a: Text, b: Text) -> f64 {
    use Text::{Ucs1, Ucs2, Ucs4};
    match (a, b) {
        (Ucs1(a), Ucs1(b)) => distance_of(scratch, measure, a, b),
        (Ucs1(a), Ucs2(b)) => distance_of(scratch, measure, a, b),
        (Ucs1(a), Ucs4(b)) => distance_of(scratch, measure, a, b),
        (Ucs2(a), Ucs1(b)) => distance_of(scratch, measure, a, b),
        (Ucs2(a), Ucs2(b)) => distance_of(scratch, measure, a, b),
        (Ucs2(a), Ucs4(b)) => distance_of(scratch, measure, a, b),
        (Ucs4(a), Ucs1(b)) => distance_of(scratch, measure, a, b),
        (Ucs4(a), Ucs2(b)) => distance_of(scratch, measure, a, b),
        (Ucs4(a), Ucs4(b)) => distance_of(scratch, measure, a, b),
    }
}

/// `rapidfuzz.distance.<measure>.normalized_distance(a, b)` (default arguments).
pub fn normalized_distance(measure: Measure, a: Text, b: Text) -> f64 {
    normalized_distance_with(&mut Scratch::new(), measure, a, b)
}

/// [`normalized_distance`] of two Rust strings (compared by code point).
pub fn normalized_distance_str(measure: Measure, a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    distance_of(&mut Scratch::new(), measure, &a, &b)
}

/// [`normalized_distance`] of `a[i]` and `b[i]` for every row, in parallel (see
/// `crate::parallel`), in row order.
pub fn normalized_distance_batch(measure: Measure, a: &[Text], b: &[Text]) -> Vec<f64> {
    parallel::map_pairs_init(a, b, 32, Scratch::new, |scratch, x, y| {
        normalized_distance_with(scratch, measure, *x, *y)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook dynamic programme.
    fn levenshtein_dp(a: &[u32], b: &[u32]) -> usize {
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, &x) in a.iter().enumerate() {
            let mut diagonal = row[0];
            row[0] = i + 1;
            for (j, &y) in b.iter().enumerate() {
                let up = row[j + 1];
                row[j + 1] = (diagonal + usize::from(x != y)).min(up + 1).min(row[j] + 1);
                diagonal = up;
            }
        }
        row[b.len()]
    }

    /// rapidfuzz's pure-Python `Jaro_py.similarity`, line by line.
    fn jaro_reference(s1: &[u32], s2: &[u32]) -> f64 {
        let (pattern_len, text_len) = (s1.len(), s2.len());
        if pattern_len == 0 && text_len == 0 {
            return 1.0;
        }
        if pattern_len == 0 || text_len == 0 {
            return 0.0;
        }
        if pattern_len == 1 && text_len == 1 {
            return f64::from(u8::from(s1[0] == s2[0]));
        }
        let (mut s1, mut s2) = (s1, s2);
        let bound;
        if text_len > pattern_len {
            bound = text_len / 2 - 1;
            if text_len > pattern_len + bound {
                s2 = &s2[..pattern_len + bound];
            }
        } else {
            bound = pattern_len / 2 - 1;
            if pattern_len > text_len + bound {
                s1 = &s1[..text_len + bound];
            }
        }
        let mut s1_flags = vec![false; pattern_len];
        let mut s2_flags = vec![false; text_len];
        let mut common = 0;
        for (i, &ch) in s1.iter().enumerate() {
            let low = i.saturating_sub(bound);
            let hi = (i + bound).min(text_len - 1);
            for j in low..=hi {
                if !s2_flags[j] && s2[j] == ch {
                    s1_flags[i] = true;
                    s2_flags[j] = true;
                    common += 1;
                    break;
                }
            }
        }
        if common == 0 {
            return 0.0;
        }
        let (mut k, mut trans) = (0, 0);
        for (i, &f) in s1_flags.iter().enumerate() {
            if f {
                let mut j = k;
                while j < text_len {
                    if s2_flags[j] {
                        k = j + 1;
                        break;
                    }
                    j += 1;
                }
                if s1[i] != s2[j] {
                    trans += 1;
                }
            }
        }
        jaro_formula(pattern_len, text_len, common, trans)
    }

    /// A seeded stream of small strings over a few symbols, some of them above 255 and above
    /// 65,535, of lengths up to `max_len`.
    fn strings(seed: u64, count: usize, max_len: usize) -> Vec<Vec<u32>> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize
        };
        let alphabet = [97, 98, 99, 0xE9, 0x4E2D, 0x1F600, 100, 101];
        (0..count)
            .map(|_| {
                let len = next() % (max_len + 1);
                let size = 2 + next() % 7;
                (0..len).map(|_| alphabet[next() % size]).collect()
            })
            .collect()
    }

    fn distance_u32(measure: Measure, a: &[u32], b: &[u32]) -> f64 {
        normalized_distance(measure, Text::Ucs4(a), Text::Ucs4(b))
    }

    #[test]
    fn levenshtein_equals_the_dynamic_programme() {
        let mut scratch = Scratch::new();
        for max_len in [5, 70, 200] {
            let xs = strings(max_len as u64, 400, max_len);
            for pair in xs.chunks(2) {
                let (a, b) = (&pair[0], &pair[1]);
                assert_eq!(levenshtein(&mut scratch, a, b), levenshtein_dp(a, b));
            }
        }
    }

    /// `s` with `edits` symbols changed, dropped or added at seeded places.
    fn mutated(s: &[u32], seed: u64, edits: usize) -> Vec<u32> {
        let mut out = s.to_vec();
        let mut state = seed;
        for _ in 0..edits {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let r = (state >> 33) as usize;
            let at = r % (out.len() + 1);
            match r % 3 {
                0 if at < out.len() => out[at] = 0x1F600 + (r % 5) as u32,
                1 if at < out.len() => {
                    out.remove(at);
                }
                _ => out.insert(at, 97 + (r % 4) as u32),
            }
        }
        out
    }

    #[test]
    fn the_band_gives_the_distance_within_k_and_none_beyond() {
        let mut scratch = Scratch::new();
        let xs = strings(5, 120, 400);
        for (n, x) in xs.iter().enumerate().filter(|(_, x)| x.len() > 64) {
            for edits in [0, 3, 20, 60, 200] {
                let y = mutated(x, n as u64 * 31 + edits as u64, edits);
                let expected = levenshtein_dp(x, &y);
                assert_eq!(levenshtein(&mut scratch, x, &y), expected);
                assert_eq!(levenshtein(&mut scratch, &y, x), expected);
                let Scratch {
                    masks,
                    vectors,
                    scores,
                    ..
                } = &mut scratch;
                masks.build(x);
                for k in [0, 1, 5, 31, 62, expected.saturating_sub(1), expected, 500] {
                    let band = levenshtein_band(masks, vectors, scores, x.len(), &y, k);
                    assert_eq!(band, (expected <= k).then_some(expected), "k {k}");
                }
                masks.clear(x);
            }
        }
    }

    #[test]
    fn jaro_equals_the_python_fallback() {
        let mut scratch = Scratch::new();
        for max_len in [4, 12, 80, 300] {
            let xs = strings(max_len as u64 + 7, 600, max_len);
            for pair in xs.chunks(2) {
                let (a, b) = (&pair[0], &pair[1]);
                let ours = jaro(&mut scratch, a, b);
                assert_eq!(
                    ours.to_bits(),
                    jaro_reference(a, b).to_bits(),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn widths_do_not_change_values() {
        let xs = strings(3, 200, 90);
        for pair in xs.chunks(2) {
            let (a, b) = (&pair[0], &pair[1]);
            let narrow: Option<Vec<u16>> = a.iter().map(|&c| u16::try_from(c).ok()).collect();
            for m in Measure::ALL {
                let wide = distance_u32(m, a, b);
                if let Some(narrow) = &narrow {
                    let mixed = normalized_distance(m, Text::Ucs2(narrow), Text::Ucs4(b));
                    assert_eq!(wide.to_bits(), mixed.to_bits());
                }
            }
        }
    }

    #[test]
    fn known_values_of_rapidfuzz() {
        let d = normalized_distance_str;
        // rapidfuzz 3.14.6, e.g. Levenshtein.normalized_distance("kitten", "sitting") == 3 / 7.
        assert_eq!(d(Measure::Levenshtein, "kitten", "sitting"), 3.0 / 7.0);
        assert_eq!(d(Measure::Hamming, "abc", "abcdef"), 0.5);
        assert_eq!(d(Measure::Hamming, "a\u{1F600}", "a\u{1F601}"), 0.5);
        assert_eq!(d(Measure::Jaro, "ab", "ba"), 1.0);
        assert_eq!(
            d(Measure::Jaro, "a\u{1F600}", "a\u{1F601}"),
            0.333_333_333_333_333_37
        );
        assert_eq!(
            d(Measure::Jaro, "MARTHA", "MARHTA"),
            1.0 - (1.0 + 1.0 + 5.0 / 6.0) / 3.0
        );
        let jw = 1.0 - d(Measure::JaroWinkler, "MARTHA", "MARHTA");
        assert!((jw - 0.961_111_111_111_111).abs() < 1e-12);
        for m in Measure::ALL {
            assert_eq!(d(m, "", ""), 0.0);
            assert_eq!(d(m, "a", ""), 1.0);
            assert_eq!(d(m, "", "ab"), 1.0);
            assert_eq!(d(m, "same \u{1F600}", "same \u{1F600}"), 0.0);
        }
    }

    #[test]
    fn the_batch_equals_one_pair_at_a_time_and_measures_parse() {
        let xs = strings(11, 300, 150);
        let texts: Vec<Text> = xs.iter().map(|x| Text::Ucs4(x)).collect();
        let (a, b) = texts.split_at(150);
        for m in Measure::ALL {
            assert_eq!(Measure::parse(m.name()), Ok(m));
            let batch = normalized_distance_batch(m, a, b);
            let one: Vec<f64> = a
                .iter()
                .zip(b)
                .map(|(x, y)| normalized_distance(m, *x, *y))
                .collect();
            assert_eq!(batch, one);
        }
        assert!(Measure::parse("Levenshtein").is_err());
    }

    #[test]
    fn many_distinct_high_symbols_fit_the_map() {
        let a: Vec<u32> = (0..500).map(|i| 0x4E00 + i * 7).collect();
        let b: Vec<u32> = (0..480).map(|i| 0x4E00 + i * 7 + (i % 3)).collect();
        let mut scratch = Scratch::new();
        assert_eq!(levenshtein(&mut scratch, &a, &b), levenshtein_dp(&a, &b));
        assert_eq!(
            jaro(&mut scratch, &a, &b).to_bits(),
            jaro_reference(&a, &b).to_bits()
        );
        // The masks are clean again: a short pattern after a long one.
        assert_eq!(levenshtein(&mut scratch, &a[..3], &b[..5]), 4);
        assert_eq!(levenshtein(&mut scratch, &[1u8, 2, 3], &[3u8, 2, 1]), 2);
    }
}
