//! sacrebleu 2.6.0 chrF and chrF++ (`sacrebleu.metrics.chrf.CHRF`), sentence and corpus level.
//!
//! Each segment reduces to integer sufficient statistics, sacrebleu's own layout: for every
//! character order 1..=char_order, then every word order 1..=word_order, the triple
//! `[hypothesis n-grams, reference n-grams, matching n-grams]` (the hypothesis count is 0 when the
//! reference has no n-gram of that order). A corpus is the element-wise sum, and the F-score is
//! computed from (summed) statistics in sacrebleu's float operation order. With several references
//! a segment keeps the statistics of the first reference with the highest F-score.
//!
//! The n-gram counts come from sorting: the n-grams of every order starting at a position are the
//! prefixes of the suffix there, so once the suffixes (cut at the maximum order) of the hypothesis
//! and a reference are sorted together, the occurrences of each n-gram are one run of neighbours,
//! and one pass counts the multiset overlap of all orders at once. Symbols (characters, words) are
//! small integer ids (ASCII characters keep their code, others are renumbered), and a suffix packs
//! into one `u64` key when the ids are narrow enough; otherwise suffixes are sorted as slices.
//! Packed suffixes found identically on both sides are paired off first, which leaves less to
//! sort where the texts share much of their wording ([`IdenticalSuffixes`]); where they share
//! almost nothing, the suffixes whose first two symbols the other side lacks are left out instead
//! ([`SharedBigrams`]). Few distinct symbols are counted in a table instead of sorted, and the
//! words of a reference of at most 64 words are compared with the hypothesis's one by one
//! ([`masked_matches`]): a sentence has too few words to pay for numbering them.

use ahash::RandomState;

use crate::error::{refill, room, Error, Result};
use crate::interrupt::charge;
use crate::metrics::ngrams::MAX_ORDER;
use crate::metrics::no_reference;
use crate::parallel;
use crate::text::short_key;
use crate::text::unicode::{ascii_non_space_mask, is_py_space, py_lower, py_split, AsciiWords};

/// sacrebleu's epsilon for `eps_smoothing`.
const EPS: f64 = 1e-16;

/// The options of `sacrebleu.metrics.CHRF`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChrfConfig {
    pub char_order: usize,
    pub word_order: usize,
    /// `beta ** 2` as Python computes it (`pow`, which need not equal `beta * beta` for a float).
    pub beta_squared: f64,
    pub lowercase: bool,
    /// Keep whitespace inside character n-grams.
    pub whitespace: bool,
    pub eps_smoothing: bool,
}

impl Default for ChrfConfig {
    /// `sacrebleu.CHRF()`'s defaults: chrF (6 character orders, no word orders), beta 2.
    fn default() -> Self {
        ChrfConfig {
            char_order: 6,
            word_order: 0,
            beta_squared: 4.0,
            lowercase: false,
            whitespace: false,
            eps_smoothing: false,
        }
    }
}

impl ChrfConfig {
    /// The configuration, or `Error::InvalidValue` for orders out of range or a `beta ** 2` that
    /// is not finite.
    pub fn checked(self) -> Result<Self> {
        let (char_order, word_order) = (self.char_order, self.word_order);
        if char_order.max(word_order) > MAX_ORDER || char_order + word_order == 0 {
            return Err(Error::InvalidValue(format!(
                "chrF needs char_order + word_order >= 1 and orders of at most {MAX_ORDER}, got \
                 {char_order} and {word_order}"
            )));
        }
        if !self.beta_squared.is_finite() {
            return Err(Error::InvalidValue(format!(
                "beta ** 2 must be finite, got {}",
                self.beta_squared
            )));
        }
        Ok(self)
    }

    /// The length of one statistics vector.
    pub fn stats_len(&self) -> usize {
        3 * (self.char_order + self.word_order)
    }
}

/// `CHRF._compute_f_score` on (summed) statistics: the effective-order average of precision and
/// recall, or with `eps_smoothing` the average of per-order F-scores.
pub fn f_score(cfg: &ChrfConfig, stats: &[u64]) -> f64 {
    let factor = cfg.beta_squared;
    let (mut score, mut avg_prec, mut avg_rec) = (0.0, 0.0, 0.0);
    let mut effective_order = 0u32;
    for triple in stats.chunks_exact(3) {
        let [n_hyp, n_ref, n_match] = [triple[0], triple[1], triple[2]];
        let prec = if n_hyp > 0 {
            n_match as f64 / n_hyp as f64
        } else {
            EPS
        };
        let rec = if n_ref > 0 {
            n_match as f64 / n_ref as f64
        } else {
            EPS
        };
        let denom = factor * prec + rec;
        score += if denom > 0.0 {
            (1.0 + factor) * prec * rec / denom
        } else {
            EPS
        };
        if n_hyp > 0 && n_ref > 0 {
            avg_prec += prec;
            avg_rec += rec;
            effective_order += 1;
        }
    }
    if cfg.eps_smoothing {
        return 100.0 * score / (stats.len() / 3) as f64;
    }
    if effective_order > 0 {
        avg_prec /= f64::from(effective_order);
        avg_rec /= f64::from(effective_order);
    }
    if avg_prec + avg_rec != 0.0 {
        let mut s = (1.0 + factor) * avg_prec * avg_rec;
        s /= factor * avg_prec + avg_rec;
        100.0 * s
    } else {
        0.0
    }
}

/// One suffix in sorted order: the symbols it shares with the previous one, its length (at most the
/// order) and its side (0 for the hypothesis, -1 for the reference).
#[derive(Debug, Clone, Copy)]
struct Step {
    common: i32,
    len: i32,
    side: i32,
}

/// Orders counted together, one lane each (one SSE2 register of `i16`, two of `i32`).
const LANES: usize = 8;

/// The multiset overlap of the n-grams of every order 1..=order of two sequences, from their
/// suffixes in sorted order: the occurrences of one n-gram are a run of neighbours, which ends where
/// a suffix shares fewer than n symbols with the one before it. Within a run, `balance` is the
/// hypothesis count minus the reference count so far, and an occurrence that brings it closer to 0
/// pairs with an earlier one of the other side: that makes `min(hyp, ref)` pairs per run. Lanes
/// are orders, and every operation is lane-wise and branch-free so that it vectorizes; `i16` lanes
/// (twice as many per instruction) whenever the counts cannot overflow them.
fn overlap(steps: impl ExactSizeIterator<Item = Step> + Clone, order: usize, out: &mut Vec<u64>) {
    if steps.len() < i16::MAX as usize {
        overlap_i16(steps, order, out);
    } else {
        overlap_i32(steps, order, out);
    }
}

macro_rules! overlap_lanes {
    ($name:ident, $t:ty) => {
        fn $name(steps: impl Iterator<Item = Step> + Clone, order: usize, out: &mut Vec<u64>) {
            /// `PREFIX[k]`: the first `k` lanes set, the lanes whose order is at most `first + k`.
            const PREFIX: [[$t; LANES]; LANES + 1] = {
                let mut masks = [[0; LANES]; LANES + 1];
                let mut k = 0;
                while k <= LANES {
                    let mut l = 0;
                    while l < k {
                        masks[k][l] = -1;
                        l += 1;
                    }
                    k += 1;
                }
                masks
            };
            const SIDE: [[$t; LANES]; 2] = [[0; LANES], [-1; LANES]];
            let lanes_upto =
                |n: i32, first: usize| &PREFIX[(n - first as i32).clamp(0, LANES as i32) as usize];
            for first in (0..order).step_by(LANES) {
                let mut balance = [0 as $t; LANES];
                let mut pairs = [0 as $t; LANES];
                for s in steps.clone() {
                    let same_run = lanes_upto(s.common, first);
                    let counts = lanes_upto(s.len, first);
                    let side = &SIDE[(s.side & 1) as usize];
                    for l in 0..LANES {
                        let b = balance[l] & same_run[l];
                        // `b` seen from this occurrence's side is negative when the other side leads.
                        let pairs_up = ((b ^ side[l]) - side[l]) >> (<$t>::BITS - 1);
                        pairs[l] -= pairs_up & counts[l];
                        balance[l] = b + ((1 | side[l]) & counts[l]);
                    }
                }
                let take = LANES.min(order - first);
                out.extend(pairs[..take].iter().map(|&p| p as u64));
            }
        }
    };
}

overlap_lanes!(overlap_i16, i16);
overlap_lanes!(overlap_i32, i32);

/// Suffixes packed into one `u64`: up to `order` symbols of `bits` each from the top (0 past the
/// end of the sequence), then the suffix length, then the side bit. Sorting the keys sorts the
/// suffixes lexicographically, and the leading zeros of `a ^ b` give the symbols they share.
struct Packed {
    bits: u32,
    order: usize,
    symbols: u64,
    len_mask: u64,
    /// `2^16 / bits` rounded up: `(lz * per_bit) >> 16 == lz / bits` for every `lz <= 64`.
    per_bit: u32,
}

/// Bits for the length field of a packed key.
fn len_bits(order: usize) -> u32 {
    usize::BITS - order.leading_zeros()
}

impl Packed {
    /// The layout for ids up to `widest`, if `order` of them, a length and a side bit fit.
    fn new(widest: u32, order: usize) -> Option<Packed> {
        let bits = (u32::BITS - widest.leading_zeros()).max(1);
        if order == 0 || bits as usize * order + len_bits(order) as usize + 1 > 64 {
            return None;
        }
        Some(Packed {
            bits,
            order,
            symbols: u64::MAX << (64 - bits * order as u32),
            len_mask: (1 << len_bits(order)) - 1,
            per_bit: (1 << 16) / bits + 1,
        })
    }

    fn push_keys(&self, ids: &[u32], side: u64, keys: &mut Vec<u64>) {
        let mut window = 0u64;
        keys.extend(ids.iter().rev().enumerate().map(|(from_end, &id)| {
            window = (window >> self.bits) | (u64::from(id) << (64 - self.bits));
            let len = (from_end + 1).min(self.order) as u64;
            (window & self.symbols) | (len << 1) | side
        }));
    }

    /// The suffix length of a key.
    fn len_of(&self, key: u64) -> usize {
        ((key >> 1) & self.len_mask) as usize
    }

    /// The steps of sorted keys.
    fn steps<'k>(&'k self, keys: &'k [u64]) -> impl ExactSizeIterator<Item = Step> + Clone + 'k {
        let mut prev = keys.first().copied().unwrap_or(0);
        keys.iter().map(move |&k| {
            let lz = ((prev ^ k) & self.symbols).leading_zeros();
            prev = k;
            Step {
                common: ((lz * self.per_bit) >> 16).min(self.order as u32) as i32,
                len: self.len_of(k) as i32,
                side: -((k & 1) as i32),
            }
        })
    }
}

/// The steps for ids too wide to pack: suffixes sorted as slices.
fn sliced_steps(hyp: &[u32], reference: &[u32], order: usize) -> Result<Vec<Step>> {
    let mut items: Vec<(&[u32], i32)> = Vec::new();
    room(&mut items, hyp.len() + reference.len(), "the suffixes")?;
    let mut steps = Vec::new();
    room(&mut steps, hyp.len() + reference.len(), "the suffixes")?;
    for (ids, side) in [(hyp, 0), (reference, -1)] {
        items.extend((0..ids.len()).map(|i| (&ids[i..ids.len().min(i + order)], side)));
    }
    items.sort_unstable();
    let mut prev: &[u32] = &[];
    steps.extend(items.iter().map(|&(s, side)| {
        let common = prev.iter().zip(s).take_while(|(a, b)| a == b).count();
        prev = s;
        Step {
            common: common as i32,
            len: s.len() as i32,
            side,
        }
    }));
    Ok(steps)
}

/// N-grams are counted in a table, rather than sorted, when every n-gram of the highest order has
/// a key (its ids as digits) below this: few words, or a small alphabet.
const DENSE_KEYS: usize = 1 << 12;

/// Matching n-grams of orders 1..=order between `seqs[0]` (the hypothesis) and each later sequence
/// (ids from 1 to `widest`), appended to `out` reference by reference. Every buffer sized by the
/// sequences gets its room first: a segment too large for the memory at hand is an error.
fn order_matches(
    seqs: &[Vec<u32>],
    widest: u32,
    order: usize,
    counting: &mut Counting,
    out: &mut Vec<u64>,
) -> Result<()> {
    let Counting {
        keys,
        counts,
        identical,
        bigrams,
    } = counting;
    out.clear();
    let Some((hyp, refs)) = seqs.split_first().filter(|_| order > 0) else {
        return Ok(());
    };
    room(out, refs.len().saturating_mul(order), "the matches")?;
    let base = widest as usize + 1;
    if let Some(space) = base.checked_pow(order as u32).filter(|&s| s <= DENSE_KEYS) {
        // The table is all zeros between uses: each use puts back the entries it changed.
        if counts.len() < space {
            counts.resize(space, 0);
        }
        // Keys of order n lie in [base^(n-1), base^n) (ids start from 1), so one table holds
        // every order, and one pass per side counts them all.
        for reference in refs {
            for_each_digit_key(reference, order, base, |_, k| {
                if let Some(c) = counts.get_mut(k) {
                    *c += 1;
                }
            });
            let first = out.len();
            out.resize(first + order, 0);
            let matches = &mut out[first..];
            for_each_digit_key(hyp, order, base, |n, k| {
                if let (Some(c), Some(m)) = (counts.get_mut(k), matches.get_mut(n)) {
                    let hit = u32::from(*c > 0);
                    *c -= hit;
                    *m += u64::from(hit);
                }
            });
            for_each_digit_key(reference, order, base, |_, k| {
                if let Some(c) = counts.get_mut(k) {
                    *c = 0;
                }
            });
        }
        return Ok(());
    }
    let Some(packed) = Packed::new(widest, order) else {
        for reference in refs {
            overlap(sliced_steps(hyp, reference, order)?.into_iter(), order, out);
        }
        return Ok(());
    };
    let [hyp_keys, ref_keys, rest] = keys;
    let longest = refs.iter().map(Vec::len).max().unwrap_or(0);
    let sizes = [hyp.len(), longest, hyp.len() + longest];
    for (buffer, len) in [&mut *hyp_keys, &mut *ref_keys, &mut *rest]
        .into_iter()
        .zip(sizes)
    {
        buffer.clear();
        room(buffer, len, "the suffix keys")?;
    }
    packed.push_keys(hyp, 0, hyp_keys);
    // Checkpoints between the steps of a long segment: a 100 MB one takes seconds.
    charge(hyp.len() as u64);
    for (k, reference) in refs.iter().enumerate() {
        let paired_off = reference.len() <= MAX_PAIRED_LEN && !identical.backoff.skip(k);
        if paired_off {
            ref_keys.clear();
            packed.push_keys(reference, 1, ref_keys);
            identical.pair_off(hyp_keys, ref_keys, order, rest, k)?;
        } else {
            rest.clear();
            rest.extend_from_slice(hyp_keys);
            packed.push_keys(reference, 1, rest);
        }
        let order_one = match order > 1 && identical.shares_little(k) {
            true => Some(bigrams.keep_shared(&packed, widest, rest)?),
            false => None,
        };
        charge(rest.len() as u64);
        sort_with_checkpoints(rest);
        let first = out.len();
        overlap(packed.steps(rest), order, out);
        charge(rest.len() as u64);
        if let (Some(m), Some(order_one)) = (out.get_mut(first), order_one) {
            *m = order_one;
        }
        // A pair of identical suffixes of length `len` is one match of every order up to `len`.
        if paired_off {
            for (m, p) in out.iter_mut().skip(first).zip(&identical.paired) {
                *m += p;
            }
        }
    }
    Ok(())
}

/// Keys sorted as `sort_unstable` sorts them, with checkpoints: a long list is sorted in blocks of
/// `SORT_BLOCK` keys, which are then merged pairwise through a buffer (equal keys are equal, so the
/// order is the same). Short lists, all of a sentence's, are sorted in one call.
fn sort_with_checkpoints(keys: &mut Vec<u64>) {
    const SORT_BLOCK: usize = 1 << 20;
    if keys.len() <= SORT_BLOCK {
        keys.sort_unstable();
        return;
    }
    for block in keys.chunks_mut(SORT_BLOCK) {
        block.sort_unstable();
        charge(20 * block.len() as u64);
    }
    let mut merged = Vec::new();
    if room(&mut merged, keys.len(), "the sorted keys").is_err() {
        // No room for the merge buffer: one sort of the whole list, as before (without checkpoints).
        keys.sort_unstable();
        return;
    }
    merged.resize(keys.len(), 0);
    let (mut from, mut to) = (keys, &mut merged);
    let mut width = SORT_BLOCK;
    let mut swapped = false;
    while width < from.len() {
        for (pair, out) in from.chunks(2 * width).zip(to.chunks_mut(2 * width)) {
            let (a, b) = pair.split_at(width.min(pair.len()));
            merge(a, b, out);
            charge(pair.len() as u64);
        }
        std::mem::swap(&mut from, &mut to);
        swapped = !swapped;
        width *= 2;
    }
    if swapped {
        to.copy_from_slice(from);
    }
}

/// `a` and `b` (each sorted) merged into `out` (as long as both).
fn merge(a: &[u64], b: &[u64], out: &mut [u64]) {
    let (mut a, mut b) = (a.iter().peekable(), b.iter().peekable());
    for slot in out.iter_mut() {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x <= y => a.next(),
            (Some(_), None) => a.next(),
            _ => b.next(),
        };
        *slot = next.copied().unwrap_or(0);
    }
}

/// Buffers for counting n-gram matches.
#[derive(Default)]
struct Counting {
    /// Packed suffix keys: the hypothesis's, a reference's, and those left to sort.
    keys: [Vec<u64>; 3],
    /// The dense table of n-gram counts (all zeros between uses).
    counts: Vec<u32>,
    identical: IdenticalSuffixes,
    bigrams: SharedBigrams,
}

/// Only suffixes whose first two symbols occur at the start of a suffix of the other side can
/// match at orders 2 and up, so the others are left out of the sort, and the matches of order 1
/// are counted from the first symbols instead. Between unrelated sentences of prose about two
/// thirds of the suffixes go; where the texts share more, most stay and the filter costs more than
/// it saves, so it runs only where almost no suffix paired off
/// ([`IdenticalSuffixes::shares_little`]).
#[derive(Default)]
struct SharedBigrams {
    /// Per side: a bit per hash of the first two symbols of its suffixes (a false positive only
    /// keeps a suffix that cannot match), and the count of each first symbol.
    present: [Vec<u64>; 2],
    firsts: [Vec<u32>; 2],
}

impl SharedBigrams {
    /// Keeps the keys (side bit 0 or 1) of suffixes of length 2 or more whose first two symbols
    /// the other side has; returns the matches of order 1 among all of them (ids up to `widest`).
    fn keep_shared(&mut self, packed: &Packed, widest: u32, keys: &mut Vec<u64>) -> Result<u64> {
        let size = (16 * keys.len()).next_power_of_two().max(64);
        let shift = u64::BITS - size.trailing_zeros();
        let first_of = |key: u64| (key >> (u64::BITS - packed.bits)) as usize;
        let bigram_bit = |key: u64| {
            let bigram = key >> (u64::BITS - 2 * packed.bits);
            (bigram.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
        };
        for (present, firsts) in self.present.iter_mut().zip(&mut self.firsts) {
            refill(present, size / 64, 0, "the shared bigrams")?;
            firsts.clear();
            firsts.resize(widest as usize + 1, 0);
        }
        for (at, &key) in keys.iter().enumerate() {
            if at % CHARGE_KEYS == CHARGE_KEYS - 1 {
                charge(4 * CHARGE_KEYS as u64);
            }
            let side = (key & 1) as usize;
            if let Some(count) = self.firsts[side].get_mut(first_of(key)) {
                *count += 1;
            }
            let bit = bigram_bit(key);
            if let Some(word) = self.present[side].get_mut(bit / 64) {
                *word |= 1 << (bit % 64);
            }
        }
        let [hyp_firsts, ref_firsts] = &self.firsts;
        let order_one = hyp_firsts
            .iter()
            .zip(ref_firsts)
            .map(|(&h, &r)| u64::from(h.min(r)))
            .sum();
        // Every key is written and the end moves past the ones kept, so that no branch depends
        // on whether a key is kept.
        let mut end = 0;
        for at in 0..keys.len() {
            if at % CHARGE_KEYS == CHARGE_KEYS - 1 {
                charge(4 * CHARGE_KEYS as u64);
            }
            let Some(&key) = keys.get(at) else {
                break;
            };
            let other = &self.present[1 - (key & 1) as usize];
            let bit = bigram_bit(key);
            let shared = other
                .get(bit / 64)
                .is_some_and(|word| word >> (bit % 64) & 1 == 1);
            if let Some(slot) = keys.get_mut(end) {
                *slot = key;
            }
            end += usize::from(shared & (packed.len_of(key) > 1));
        }
        keys.truncate(end);
        Ok(order_one)
    }
}

/// Pairs of identical packed suffixes, one of the hypothesis and one of a reference, set aside
/// before sorting: taking one occurrence of the same n-gram from both sides lowers
/// `min(hyp count, ref count)` by exactly one, so each pair is one match of every order up to its
/// length, and only the unpaired suffixes need sorting. Text shared by the two sides is shared in
/// runs, so the suffix after a paired one is tried first against the suffix after its partner,
/// and a hash table of the reference's suffixes finds a partner where a run starts. Pairing need
/// not be complete: what it misses is counted by the sort.
#[derive(Default)]
struct IdenticalSuffixes {
    /// Open addressing over reference keys: key, position, stamp (the slot is empty unless its
    /// stamp is the current one).
    slots: Vec<(u64, u32, u32)>,
    stamp: u32,
    used: Vec<bool>,
    /// Pairs by order: `paired[n - 1]` pairs of suffixes of length n or more.
    paired: Vec<u64>,
    /// Where less than 40 % of the suffixes pair (texts that share little), pairing costs more
    /// than it saves.
    backoff: Backoff,
    /// Per reference number: whether less than 10 % of the suffixes paired the last time pairing
    /// ran.
    little_shared: Vec<bool>,
}

/// The longest reference whose suffixes are paired off (the table takes 64 bytes per suffix).
const MAX_PAIRED_LEN: usize = 1 << 16;

/// A step that saves time only on some texts, skipped where it did not pay: after a segment where
/// it did not, for the next 1, 2, 4, ... up to [`MAX_BACKOFF`] segments of the same reference
/// number, until it pays again. Counts never depend on it; only the time does.
#[derive(Default)]
struct Backoff {
    /// Per reference number: segments left to skip, and how many to skip after the next one
    /// where the step does not pay.
    skips: Vec<(u32, u32)>,
}

/// The most segments a step is skipped in after one where it did not pay.
const MAX_BACKOFF: u32 = 32;

impl Backoff {
    /// Whether to skip the step for this segment's reference number `reference`.
    fn skip(&mut self, reference: usize) -> bool {
        if self.skips.len() <= reference {
            self.skips.resize(reference + 1, (0, 0));
        }
        self.skips.get_mut(reference).is_some_and(|(skip, _)| {
            *skip = skip.saturating_sub(1);
            *skip > 0
        })
    }

    /// Whether the step paid for this segment's reference number `reference`.
    fn record(&mut self, reference: usize, paid: bool) {
        if let Some((skip, backoff)) = self.skips.get_mut(reference) {
            if paid {
                *backoff = 0;
            } else {
                *backoff = (2 * *backoff).clamp(1, MAX_BACKOFF);
                // `skip` counts this segment too: it is decremented first.
                *skip = *backoff + 1;
            }
        }
    }
}

impl IdenticalSuffixes {
    /// Whether the texts of reference number `reference` shared almost nothing the last time
    /// pairing ran (in this segment, or one before if it was skipped).
    fn shares_little(&self, reference: usize) -> bool {
        self.little_shared.get(reference).copied().unwrap_or(false)
    }

    /// Pairs hypothesis keys (side bit 0) with identical reference keys (side bit 1), both pushed
    /// from the end of their sequence; the unpaired keys of both sides go to `rest`, and the
    /// matches the pairs make per order to `self.paired`.
    fn pair_off(
        &mut self,
        hyp_keys: &[u64],
        ref_keys: &[u64],
        order: usize,
        rest: &mut Vec<u64>,
        reference: usize,
    ) -> Result<()> {
        // At most a quarter of the slots used: most probes end at the first slot.
        let size = (4 * ref_keys.len()).next_power_of_two().max(16);
        let stamp = next_stamp(&mut self.slots, &mut self.stamp, size)?;
        // The product's top bits depend on every bit of the key.
        let shift = u64::BITS - size.trailing_zeros();
        let home = |key: u64| (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize;
        for (at_ref, &key) in ref_keys.iter().enumerate() {
            let mut at = home(key);
            while let Some(slot) = self.slots.get_mut(at) {
                if slot.2 != stamp {
                    *slot = (key, at_ref as u32, stamp);
                    break;
                }
                if slot.0 == key {
                    break;
                }
                at = (at + 1) & (size - 1);
            }
        }
        self.used.clear();
        self.used.resize(ref_keys.len(), false);
        self.paired.clear();
        self.paired.resize(order, 0);
        rest.clear();
        let mut full = 0;
        let mut next = usize::MAX;
        for (at_hyp, &key) in hyp_keys.iter().enumerate() {
            if at_hyp % CHARGE_KEYS == CHARGE_KEYS - 1 {
                charge(4 * CHARGE_KEYS as u64);
            }
            let wanted = key | 1;
            let follows = ref_keys.get(next) == Some(&wanted)
                && self.used.get(next).is_some_and(|used| !used);
            let partner = if follows {
                Some(next)
            } else {
                let mut at = home(wanted);
                loop {
                    match self.slots.get(at) {
                        Some(&(k, pos, st)) if st == stamp => {
                            if k == wanted {
                                break Some(pos as usize)
                                    .filter(|&p| self.used.get(p).is_some_and(|used| !used));
                            }
                            at = (at + 1) & (size - 1);
                        }
                        _ => break None,
                    }
                }
            };
            match partner {
                Some(p) => {
                    if let Some(used) = self.used.get_mut(p) {
                        *used = true;
                    }
                    next = p + 1;
                    // Keys are pushed from the end: only the first `order - 1` are shorter.
                    if at_hyp + 1 < order {
                        for m in self.paired.iter_mut().take(at_hyp + 1) {
                            *m += 1;
                        }
                    } else {
                        full += 1;
                    }
                }
                None => {
                    rest.push(key);
                    next = usize::MAX;
                }
            }
        }
        for m in &mut self.paired {
            *m += full;
        }
        rest.extend(
            ref_keys
                .iter()
                .zip(&self.used)
                .filter(|(_, used)| !**used)
                .map(|(k, _)| *k),
        );
        // Every pair is a match of order 1.
        let pairs = self.paired.first().copied().unwrap_or(0) as usize;
        let suffixes = hyp_keys.len() + ref_keys.len();
        self.backoff.record(reference, 5 * pairs >= suffixes);
        if self.little_shared.len() <= reference {
            self.little_shared.resize(reference + 1, false);
        }
        if let Some(little) = self.little_shared.get_mut(reference) {
            *little = 20 * pairs < suffixes;
        }
        Ok(())
    }
}

/// Calls `f(n - 1, key)` for every n-gram of `seq` of order n up to `order`, where the key is its
/// ids as digits in base `base`.
#[inline(always)]
fn for_each_digit_key(seq: &[u32], order: usize, base: usize, mut f: impl FnMut(usize, usize)) {
    for start in 0..seq.len() {
        let mut key = 0;
        for (n, &id) in seq.iter().skip(start).take(order).enumerate() {
            key = key * base + id as usize;
            f(n, key);
        }
    }
}

/// Matching n-grams of orders 1..=order between `seqs[0]` (the hypothesis) and each later sequence
/// of at most 64 symbols, appended to `out` reference by reference, by comparing symbols directly:
/// bit j of `equal[i]` says whether reference symbol j equals hypothesis symbol i, so the
/// reference n-grams equal to the hypothesis n-gram at i are the bits set in every
/// `equal[i + k] >> k`, k < n. Each hypothesis n-gram takes the first of them not yet taken: that
/// makes `min(hyp count, ref count)` pairs per n-gram, since the n-grams equal to one are the same
/// positions for each of its occurrences, and those of different n-grams are disjoint.
fn masked_matches(
    seqs: &[Vec<u64>],
    order: usize,
    equal: &mut Vec<u64>,
    out: &mut Vec<u64>,
) -> Result<()> {
    out.clear();
    let Some((hyp, refs)) = seqs.split_first().filter(|_| order > 0) else {
        return Ok(());
    };
    room(out, refs.len().saturating_mul(order), "the matches")?;
    for reference in refs {
        equal.clear();
        room(equal, hyp.len(), "the word matches")?;
        equal.extend(hyp.iter().map(|&h| {
            reference
                .iter()
                .enumerate()
                .fold(0u64, |bits, (j, &r)| bits | u64::from(r == h) << (j % 64))
        }));
        for n in 1..=order {
            let mut taken = 0u64;
            let mut matches = 0;
            for at in equal.windows(n) {
                let found = at
                    .iter()
                    .enumerate()
                    .fold(!taken, |bits, (k, &e)| bits & e >> k);
                let first = found & found.wrapping_neg();
                taken |= first;
                matches += u64::from(first != 0);
            }
            out.push(matches);
        }
    }
    Ok(())
}

/// Word ids from 1 in the order of the words' keys, for [`order_matches`]; returns the widest id.
fn renumber_words(words: &[Vec<u64>], keys: &mut Vec<u64>, ids: &mut Vec<Vec<u32>>) -> Result<u32> {
    keys.clear();
    room(keys, words.iter().map(Vec::len).sum(), "the word keys")?;
    keys.extend(words.iter().flatten());
    sort_with_checkpoints(keys);
    keys.dedup();
    reset(ids, words.len());
    for (line, line_ids) in words.iter().zip(ids.iter_mut()) {
        room(line_ids, line.len(), "the word ids")?;
        line_ids.extend(
            line.iter()
                .map(|k| keys.binary_search(k).map_or(0, |rank| rank as u32 + 1)),
        );
    }
    Ok(keys.len() as u32)
}

/// Renumber the ids of non-ASCII characters (code point + 1 > 128) to 129, 130, ... in code point
/// order, so that the ids of a segment stay narrow enough to pack; returns the widest id.
fn renumber_non_ascii(seqs: &mut [Vec<u32>], alphabet: &mut Vec<u32>) -> u32 {
    alphabet.clear();
    alphabet.extend(seqs.iter().flatten().filter(|&&id| id > 128));
    alphabet.sort_unstable();
    alphabet.dedup();
    if !alphabet.is_empty() {
        for id in seqs.iter_mut().flatten().filter(|id| **id > 128) {
            *id = alphabet
                .binary_search(id)
                .map_or(0, |rank| rank as u32 + 129);
        }
    }
    128 + alphabet.len() as u32
}

/// An ASCII line, read in blocks of 64 bytes: its character ids (code point + 1, without
/// whitespace unless `whitespace`) appended to `chars`, and, when `split`, each word of
/// `str.split()` passed to `word`. A bit mask of the non-space bytes of a block drives both: every
/// byte is written and the end moves past the ones kept, and the mask's changes are the word
/// boundaries, so that no branch depends on a byte.
fn scan_ascii<'a>(
    line: &'a str,
    whitespace: bool,
    chars: &mut Vec<u32>,
    split: bool,
    mut word: impl FnMut(&'a str),
) {
    let bytes = line.as_bytes();
    let first = chars.len();
    chars.resize(first + bytes.len(), 0);
    let mut end = first;
    let mut words = AsciiWords::default();
    for (block, chunk) in bytes.chunks(64).enumerate() {
        if block % CHARGE_BLOCKS == CHARGE_BLOCKS - 1 {
            charge(64 * CHARGE_BLOCKS as u64);
        }
        let mask = ascii_non_space_mask(chunk);
        let kept = if whitespace { u64::MAX } else { mask };
        for (k, &b) in chunk.iter().enumerate() {
            if let Some(slot) = chars.get_mut(end) {
                *slot = u32::from(b) + 1;
            }
            end += (kept >> k & 1) as usize;
        }
        if split {
            words.block(line, block, chunk.len(), mask, &mut word);
        }
    }
    chars.truncate(end);
    if split {
        words.finish(line, word);
    }
}

/// Keys of a long loop between checkpoints.
const CHARGE_KEYS: usize = 1 << 16;

/// Blocks of 64 bytes scanned between checkpoints (see `crate::interrupt`): 256 KiB, a fraction of
/// a millisecond.
const CHARGE_BLOCKS: usize = 4096;

/// `CHRF._remove_punctuation` of one word: one ASCII punctuation mark split off its end, or else
/// off its start, when it is longer than one character.
fn for_each_token<'a>(word: &'a str, mut f: impl FnMut(&'a str)) {
    // A mark is one byte, and a word with a one-byte end and more has more than one character.
    let cut = match word.as_bytes() {
        [.., last] if word.len() > 1 && last.is_ascii_punctuation() => word.len() - 1,
        [first, ..] if word.len() > 1 && first.is_ascii_punctuation() => 1,
        _ => return f(word),
    };
    let (a, b) = word.split_at_checked(cut).unwrap_or((word, ""));
    f(a);
    f(b);
}

/// `[n_hyp, n_ref, n_match]` of order `n` from the sequence lengths and the match count.
fn triple(hyp_len: usize, ref_len: usize, n: usize, matches: u64) -> [u64; 3] {
    let count = |len: usize| (len + 1).saturating_sub(n) as u64;
    let n_ref = count(ref_len);
    [if n_ref > 0 { count(hyp_len) } else { 0 }, n_ref, matches]
}

/// Buffers one worker reuses from segment to segment.
#[derive(Default)]
pub struct Scratch {
    /// Character ids and word keys ([`LongWords::key`]), per line (the hypothesis first).
    chars: Vec<Vec<u32>>,
    words: Vec<Vec<u64>>,
    /// Word ids where the word keys are renumbered ([`renumber_words`]), and the keys in order.
    word_ids: Vec<Vec<u32>>,
    word_keys: Vec<u64>,
    /// Per hypothesis word, the reference words equal to it ([`masked_matches`]).
    equal: Vec<u64>,
    char_matches: Vec<u64>,
    word_matches: Vec<u64>,
    alphabet: Vec<u32>,
    counting: Counting,
    long_words: LongWords,
    lowered: Vec<String>,
    stats: Vec<u64>,
    best: Vec<u64>,
}

/// The top byte of the key of a word longer than 7 bytes: never a [`short_key`]'s length.
const LONG_WORD: u64 = 0xFF << 56;

/// Ids for the words of one segment longer than 7 bytes (equal words, equal ids): an
/// open-addressing table of their hashes reused from segment to segment, whose slots are emptied
/// by moving to a new stamp rather than by rewriting them; equal hashes are compared by the words'
/// bytes, kept in `bytes` at `long[slot.long]`.
#[derive(Default)]
struct LongWords {
    hasher: RandomState,
    slots: Vec<Slot>,
    /// Slots in use: the first `mask + 1`.
    mask: usize,
    stamp: u32,
    bytes: Vec<u8>,
    long: Vec<std::ops::Range<usize>>,
}

/// A long word's hash and id (its place in `long`), valid while `stamp` is the table's.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    hash: u64,
    stamp: u32,
    long: u32,
}

impl LongWords {
    /// Empty the table, sized for at most `words` distinct words (at most half the slots used).
    fn reset(&mut self, words: usize) -> Result<()> {
        let size = (2 * words + 2).next_power_of_two();
        next_stamp(&mut self.slots, &mut self.stamp, size)?;
        self.mask = size - 1;
        self.bytes.clear();
        self.long.clear();
        Ok(())
    }

    /// The key of a word, equal for equal words only: its [`short_key`] (its bytes and length)
    /// where it has at most 7 bytes, else its id here after `LONG_WORD`.
    fn key(&mut self, word: &str) -> u64 {
        let bytes = word.as_bytes();
        short_key(bytes).unwrap_or_else(|| LONG_WORD | u64::from(self.id(bytes)))
    }

    fn id(&mut self, bytes: &[u8]) -> u32 {
        let hash = self.hasher.hash_one(bytes);
        let mut at = hash as usize & self.mask;
        loop {
            match self.slots.get_mut(at) {
                Some(slot) if slot.stamp != self.stamp => {
                    let start = self.bytes.len();
                    self.bytes.extend_from_slice(bytes);
                    *slot = Slot {
                        hash,
                        stamp: self.stamp,
                        long: self.long.len() as u32,
                    };
                    self.long.push(start..self.bytes.len());
                    return slot.long;
                }
                Some(slot)
                    if slot.hash == hash
                        && self
                            .long
                            .get(slot.long as usize)
                            .and_then(|r| self.bytes.get(r.clone()))
                            == Some(bytes) =>
                {
                    return slot.long;
                }
                Some(_) => at = (at + 1) & self.mask,
                None => return u32::MAX,
            }
        }
    }
}

/// Empties a table whose slots are in use only while their stamp is the table's: moves to a new
/// stamp (rewriting every slot only when the stamps run out) with at least `size` slots, and
/// returns it.
fn next_stamp<T: Clone + Default>(slots: &mut Vec<T>, stamp: &mut u32, size: usize) -> Result<u32> {
    if slots.len() < size || *stamp == u32::MAX {
        let len = size.max(slots.len());
        refill(slots, len, T::default(), "a hash table")?;
        *stamp = 0;
    }
    *stamp += 1;
    Ok(*stamp)
}

/// Empty `n` reusable rows.
fn reset<T>(rows: &mut Vec<Vec<T>>, n: usize) {
    if rows.len() < n {
        rows.resize_with(n, Vec::new);
    }
    for row in rows.iter_mut().take(n) {
        row.clear();
    }
}

/// The statistics of one segment against its references (`_compute_segment_statistics`).
pub fn segment_stats(cfg: &ChrfConfig, hypothesis: &str, references: &[&str]) -> Result<Vec<u64>> {
    segment_stats_with(cfg, &mut Scratch::default(), hypothesis, references).map(<[u64]>::to_vec)
}

/// [`segment_stats`] with reused buffers; the statistics live in `scratch`.
pub fn segment_stats_with<'s>(
    cfg: &ChrfConfig,
    scratch: &'s mut Scratch,
    hypothesis: &str,
    references: &[&str],
) -> Result<&'s [u64]> {
    if references.is_empty() {
        return Err(no_reference());
    }
    let mut lowered = std::mem::take(&mut scratch.lowered);
    lowered.clear();
    if cfg.lowercase {
        lowered.extend(
            std::iter::once(hypothesis)
                .chain(references.iter().copied())
                .map(py_lower),
        );
    }
    let line = |k: usize| -> &str {
        match (cfg.lowercase, k) {
            (true, _) => lowered.get(k).map_or("", String::as_str),
            (false, 0) => hypothesis,
            (false, _) => references.get(k - 1).copied().unwrap_or(""),
        }
    };
    let n_lines = references.len() + 1;
    reset(&mut scratch.chars, n_lines);
    reset(&mut scratch.words, n_lines);
    if cfg.word_order > 0 {
        // A long word has 8 bytes or more.
        let bytes: usize = (0..n_lines).map(|k| line(k).len()).sum();
        scratch.long_words.reset(bytes / 8)?;
    }
    let mut all_ascii = true;
    let mut words_short = false;
    for (k, (chars, words)) in scratch
        .chars
        .iter_mut()
        .zip(&mut scratch.words)
        .enumerate()
        .take(n_lines)
    {
        let text = line(k);
        let ascii = text.is_ascii();
        all_ascii &= ascii;
        // A character takes a byte or more. Words take room as they come (prose has about one per
        // six bytes), marking the segment too large where there is none.
        room(chars, text.len(), "the characters")?;
        let long_words = &mut scratch.long_words;
        let mut word = |w| {
            for_each_token(w, |t| {
                if words.len() == words.capacity() && room(words, words.len().max(64), "").is_err()
                {
                    words_short = true;
                    return;
                }
                words.push(long_words.key(t));
            })
        };
        if ascii {
            scan_ascii(text, cfg.whitespace, chars, cfg.word_order > 0, word);
        } else {
            if cfg.char_order > 0 {
                let kept = text.chars().filter(|&c| cfg.whitespace || !is_py_space(c));
                chars.extend(kept.map(|c| c as u32 + 1));
            }
            if cfg.word_order > 0 {
                py_split(text).for_each(&mut word);
            }
        }
    }
    scratch.lowered = lowered;
    if words_short {
        return Err(Error::Memory(
            "cannot allocate the words (not enough memory)".to_string(),
        ));
    }
    let (chars, words) = (&mut scratch.chars[..n_lines], &scratch.words[..n_lines]);
    let widest = if all_ascii {
        128
    } else {
        renumber_non_ascii(chars, &mut scratch.alphabet)
    };
    order_matches(
        chars,
        widest,
        cfg.char_order,
        &mut scratch.counting,
        &mut scratch.char_matches,
    )?;
    if words.iter().skip(1).all(|w| w.len() <= 64) {
        masked_matches(
            words,
            cfg.word_order,
            &mut scratch.equal,
            &mut scratch.word_matches,
        )?;
    } else {
        let widest = renumber_words(words, &mut scratch.word_keys, &mut scratch.word_ids)?;
        order_matches(
            &scratch.word_ids[..n_lines],
            widest,
            cfg.word_order,
            &mut scratch.counting,
            &mut scratch.word_matches,
        )?;
    }

    let mut best_f = -1.0;
    for k in 1..n_lines {
        scratch.stats.clear();
        for ((hyp_len, ref_len), matches, order) in [
            (
                (chars[0].len(), chars[k].len()),
                &scratch.char_matches,
                cfg.char_order,
            ),
            (
                (words[0].len(), words[k].len()),
                &scratch.word_matches,
                cfg.word_order,
            ),
        ] {
            let per_ref = matches.chunks_exact(order.max(1)).nth(k - 1).unwrap_or(&[]);
            for (n, &m) in per_ref.iter().enumerate() {
                scratch.stats.extend(triple(hyp_len, ref_len, n + 1, m));
            }
        }
        // With one reference there is nothing to choose.
        let f = if n_lines > 2 {
            f_score(cfg, &scratch.stats)
        } else {
            0.0
        };
        if f > best_f {
            best_f = f;
            std::mem::swap(&mut scratch.best, &mut scratch.stats);
        }
    }
    Ok(&scratch.best)
}

/// `CHRF(...).sentence_score(hypothesis, references).score`.
pub fn sentence_chrf(cfg: &ChrfConfig, hypothesis: &str, references: &[&str]) -> Result<f64> {
    Ok(f_score(cfg, &segment_stats(cfg, hypothesis, references)?))
}

/// Sentence chrF of each segment in parallel (`references[i]` holds segment i's references).
pub fn sentence_chrf_batch<'a, R: AsRef<[&'a str]> + Sync>(
    cfg: &ChrfConfig,
    hypotheses: &[&str],
    references: &[R],
) -> Vec<Result<f64>> {
    parallel::map_pairs_init(
        hypotheses,
        references,
        1,
        Scratch::default,
        |scratch, h, r| {
            Ok(f_score(
                cfg,
                segment_stats_with(cfg, scratch, h, r.as_ref())?,
            ))
        },
    )
}

/// `CHRF(...).corpus_score(hypotheses, references)` with references given per segment: the score
/// and the summed statistics.
pub fn corpus_chrf<'a, R: AsRef<[&'a str]> + Sync>(
    cfg: &ChrfConfig,
    hypotheses: &[&str],
    references: &[R],
) -> Result<(f64, Vec<u64>)> {
    if hypotheses.is_empty() {
        return Err(Error::InvalidValue(
            "corpus chrF needs at least one segment".to_string(),
        ));
    }
    let total = parallel::sum_pairs(
        hypotheses,
        references,
        cfg.stats_len(),
        1,
        Scratch::default,
        |scratch, h, r| segment_stats_with(cfg, scratch, h, r.as_ref()),
    )
    .map_err(|(row, e)| e.in_row(row))?;
    Ok((f_score(cfg, &total), total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::unicode::is_ascii_py_space;

    fn cfg(word_order: usize) -> Result<ChrfConfig> {
        ChrfConfig {
            word_order,
            ..ChrfConfig::default()
        }
        .checked()
    }

    /// Counting by hash maps, the obvious way.
    fn naive(hyp: &[u32], reference: &[u32], order: usize) -> Vec<u64> {
        (1..=order)
            .map(|n| {
                let mut counts: ahash::AHashMap<&[u32], i64> = ahash::AHashMap::new();
                for g in reference.windows(n) {
                    *counts.entry(g).or_insert(0) += 1;
                }
                hyp.windows(n)
                    .filter(|g| match counts.get_mut(g) {
                        Some(c) if *c > 0 => {
                            *c -= 1;
                            true
                        }
                        _ => false,
                    })
                    .count() as u64
            })
            .collect()
    }

    #[test]
    fn packed_and_sliced_counts_match_naive_counts() -> Result<()> {
        let mut seed = 7u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for round in 0..200 {
            let alphabet = [2, 3, 5, 40, 70_000][round % 5];
            let hyp: Vec<u32> = (0..next(40)).map(|_| next(alphabet) as u32 + 1).collect();
            let mut reference: Vec<u32> =
                (0..next(40)).map(|_| next(alphabet) as u32 + 1).collect();
            if round % 2 == 1 {
                // Runs of the hypothesis in the reference, as a rewrite has them.
                let from = next(hyp.len() as u64 + 1) as usize;
                let to = from + next((hyp.len() - from) as u64 + 1) as usize;
                let at = next(reference.len() as u64 + 1) as usize;
                reference.splice(at..at, hyp[from..to].iter().copied());
            }
            for order in [1, 2, 6, 9] {
                let expected = naive(&hyp, &reference, order);
                let seqs = [hyp.clone(), reference.clone()];
                let widest = hyp.iter().chain(&reference).max().copied().unwrap_or(0);
                let mut out = Vec::new();
                // Suffixes paired off before sorting, and all of them sorted.
                let mut pairing = Counting::default();
                order_matches(&seqs, widest, order, &mut pairing, &mut out)?;
                assert_eq!(out, expected);
                let mut sorting = Counting::default();
                sorting.identical.backoff.skips = vec![(u32::MAX, 0)];
                order_matches(&seqs, widest, order, &mut sorting, &mut out)?;
                assert_eq!(out, expected);
                if reference.len() <= 64 {
                    let keys = seqs.map(|ids| ids.iter().map(|&id| u64::from(id)).collect());
                    masked_matches(&keys, order, &mut Vec::new(), &mut out)?;
                    assert_eq!(out, expected);
                }
                out.clear();
                overlap(
                    sliced_steps(&hyp, &reference, order)?.into_iter(),
                    order,
                    &mut out,
                );
                assert_eq!(out, expected);
            }
        }
        Ok(())
    }

    #[test]
    fn a_long_list_is_sorted_in_blocks_as_one_sort_sorts_it() {
        let mut seed = 7u64;
        for len in [10, (1 << 20) + 1, 3 * (1 << 20) + 12_345, 4 << 20] {
            let keys: Vec<u64> = (0..len)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (seed >> 40) % 1000
                })
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            let mut sorted = keys;
            sort_with_checkpoints(&mut sorted);
            assert_eq!(sorted, expected);
        }
    }

    #[test]
    fn word_keys_and_renumbered_ids_are_equal_exactly_for_equal_words() -> Result<()> {
        let words = [
            "a",
            "ab",
            "abcdefg",
            "abcdefgh",
            "abcdefgh",
            "abcdefghi",
            "a\0",
            "abcdefgh\0",
        ];
        let mut long_words = LongWords::default();
        long_words.reset(64)?;
        let keys: Vec<u64> = words.iter().map(|w| long_words.key(w)).collect();
        let mut ids = Vec::new();
        let widest = renumber_words(std::slice::from_ref(&keys), &mut Vec::new(), &mut ids)?;
        assert_eq!(widest, 7);
        for (a, (ka, ia)) in words.iter().zip(keys.iter().zip(&ids[0])) {
            assert!(*ia >= 1 && *ia <= widest);
            for (b, (kb, ib)) in words.iter().zip(keys.iter().zip(&ids[0])) {
                assert_eq!(a == b, ka == kb, "{a:?} {b:?}");
                assert_eq!(a == b, ia == ib, "{a:?} {b:?}");
            }
        }
        Ok(())
    }

    #[test]
    fn punctuation_is_split_off_one_end() {
        let mut words = Vec::new();
        let line = " (hi) 'x'\t a. .b ,\x1f ab";
        let mut chars = Vec::new();
        scan_ascii(line, false, &mut chars, true, |w| {
            for_each_token(w, |t| words.push(t))
        });
        let kept = line.bytes().filter(|&b| !is_ascii_py_space(b));
        assert_eq!(chars, kept.map(|b| u32::from(b) + 1).collect::<Vec<_>>());
        assert_eq!(
            words,
            ["(hi", ")", "'x", "'", "a", ".", ".", "b", ",", "ab"]
        );
    }

    #[test]
    fn identical_and_disjoint_segments() -> Result<()> {
        let c = cfg(0)?;
        assert_eq!(sentence_chrf(&c, "the cat", &["the cat"])?, 100.0);
        assert_eq!(sentence_chrf(&c, "abc", &["xyz"])?, 0.0);
        let stats = segment_stats(&c, "ab", &["a b c"])?;
        assert_eq!(stats[..6], [2, 3, 2, 1, 2, 1]);
        assert_eq!(stats[6..9], [0, 1, 0]);
        assert_eq!(stats[9..], [0; 9]);
        Ok(())
    }

    #[test]
    fn best_reference_wins_and_first_wins_ties() -> Result<()> {
        let c = cfg(2)?;
        let one = segment_stats(&c, "a cat sat", &["a dog", "a cat sat", "a cat sat"])?;
        assert_eq!(one, segment_stats(&c, "a cat sat", &["a cat sat"])?);
        assert!(segment_stats(&c, "x", &[]).is_err());
        Ok(())
    }
}
