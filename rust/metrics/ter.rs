//! sacrebleu 2.6.0 TER (`sacrebleu.metrics.ter.TER` and `lib_ter.translation_edit_rate`), sentence
//! and corpus level.
//!
//! TER is tercom's greedy search: while some block shift lowers the edit distance, apply the best
//! one; edits = shifts + the final edit distance. The edit distance is sacrebleu's beam version (a
//! band around the length-ratio diagonal, not full Levenshtein), and the shift candidates, their
//! order, the tie-breaking and the global limit of 1000 evaluated candidates are sacrebleu's, so the
//! counts are identical. Speed comes from two exact shortcuts: words are compared as interned ids,
//! and a candidate's edit distance is not recomputed from scratch. A shift only permutes the words
//! of one region `[p, q)`, so the DP rows above `p` are those of the current hypothesis, and every
//! path through the band crosses row `q`, after which the words are unchanged: the distance is
//! `min_j forward'[q][j] + backward[q][j]`, with `backward` the cost-to-go of the current
//! hypothesis. Each candidate costs `O((q - p) * band)` instead of `O(n * band)`.
//!
//! Each segment reduces to `(edits, average reference length)`; a corpus sums them in order.

use ahash::AHashMap;

use crate::error::{Error, PyExc, Result};
use crate::interrupt::charge;
use crate::metrics::no_reference;
use crate::parallel;
use crate::text::ter_tokenize::{tercom_tokenize, TercomOptions};
use crate::text::unicode::{py_rstrip, py_split};

const MAX_SHIFT_SIZE: usize = 10;
const MAX_SHIFT_DIST: usize = 50;
const BEAM_WIDTH: i64 = 25;
const MAX_SHIFT_CANDIDATES: usize = 1000;
/// An unreachable cell. Adding to it saturates, so, as with sacrebleu's `int(1e16)`, an
/// unreachable predecessor never beats the cell's initial value.
const INF: u32 = u32::MAX;
/// sacrebleu's `_INT_INFINITY`, the distance it reports for an unreachable end cell.
const PY_INFINITY: i64 = 10_000_000_000_000_000;

/// An edit operation of the DP trace, rewriting the hypothesis (rows) into the reference (columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Nop,
    Sub,
    /// Consumes a reference word (sacrebleu's `'i'`).
    Ins,
    /// Consumes a hypothesis word (sacrebleu's `'d'`).
    Del,
    /// A cell no path reached (sacrebleu's `'x'`).
    Undef,
}

fn add(cost: u32, step: u32) -> u32 {
    cost.saturating_add(step)
}

fn to_py_distance(cost: u32) -> i64 {
    if cost == INF {
        PY_INFINITY
    } else {
        i64::from(cost)
    }
}

/// The columns `[lo, hi)` each DP row computes, and where the row starts in the flat cell arrays.
struct Band {
    lo: Vec<usize>,
    hi: Vec<usize>,
    start: Vec<usize>,
    cells: usize,
    widest: usize,
}

impl Band {
    /// `BeamEditDistance._edit_distance`'s beam: row `i` spans `floor(i * ratio) ± beam_width`,
    /// the beam widening when the lengths differ a lot; row 0 and the last row reach the right end.
    fn new(n_hyp: usize, n_ref: usize) -> Band {
        let ratio = if n_hyp > 0 {
            n_ref as f64 / n_hyp as f64
        } else {
            1.0
        };
        let beam = if (BEAM_WIDTH as f64) < ratio / 2.0 {
            (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64
        } else {
            BEAM_WIDTH
        };
        let width = n_ref as i64 + 1;
        let mut band = Band {
            lo: Vec::with_capacity(n_hyp + 1),
            hi: Vec::with_capacity(n_hyp + 1),
            start: Vec::with_capacity(n_hyp + 1),
            cells: 0,
            widest: 0,
        };
        for i in 0..=n_hyp {
            let (lo, hi) = if i == 0 {
                (0, width)
            } else {
                let diagonal = (i as f64 * ratio).floor() as i64;
                let hi = if i == n_hyp {
                    width
                } else {
                    width.min(diagonal + beam)
                };
                ((diagonal - beam).max(0), hi)
            };
            let (lo, hi) = (lo as usize, hi.max(lo) as usize);
            band.lo.push(lo);
            band.hi.push(hi);
            band.start.push(band.cells);
            band.cells += hi - lo;
            band.widest = band.widest.max(hi - lo);
        }
        band
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.start[i]..self.start[i] + self.hi[i] - self.lo[i]
    }

    fn contains(&self, i: usize, j: usize) -> bool {
        self.lo[i] <= j && j < self.hi[i]
    }
}

/// DP row `i` (hypothesis word `word`) from row `i - 1`. Out-of-band cells are unreachable; ties
/// prefer the diagonal, then the deletion, then the insertion, as sacrebleu's strict `>` over
/// `(sub, del, ins)` does. Column 0 is always a deletion.
fn step(
    band: &Band,
    reference: &[u32],
    i: usize,
    word: u32,
    prev: &[u32],
    cur: &mut [u32],
    ops: &mut [Op],
) {
    let (plo, phi) = (band.lo[i - 1], band.hi[i - 1]);
    let at_prev = |j: usize| {
        if plo <= j && j < phi {
            prev[j - plo]
        } else {
            INF
        }
    };
    let lo = band.lo[i];
    for k in 0..cur.len() {
        let j = lo + k;
        if j == 0 {
            cur[k] = add(at_prev(0), 1);
            ops[k] = Op::Del;
            continue;
        }
        let (sub_cost, sub_op) = if reference.get(j - 1) == Some(&word) {
            (0, Op::Nop)
        } else {
            (1, Op::Sub)
        };
        let left = if k > 0 { add(cur[k - 1], 1) } else { INF };
        let (mut best, mut best_op) = (INF, Op::Undef);
        for (cost, op) in [
            (add(at_prev(j - 1), sub_cost), sub_op),
            (add(at_prev(j), 1), Op::Del),
            (left, Op::Ins),
        ] {
            if cost < best {
                best = cost;
                best_op = op;
            }
        }
        cur[k] = best;
        ops[k] = best_op;
    }
}

/// Where a shift of `words[start..start + length]` to before index `target` puts things
/// (`_perform_shift`): the result equals `words` outside `[p, q)`, with `p = min(start, target)`,
/// and is the concatenation of the two returned ranges of `words` inside it.
fn shift_pieces(
    n: usize,
    start: usize,
    length: usize,
    target: usize,
) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
    let block = start..start + length;
    if target < start {
        (block, target..start)
    } else if target > start + length {
        (start + length..target, block)
    } else {
        (start + length..n.min(length + target), block)
    }
}

fn perform_shift(words: &[u32], start: usize, length: usize, target: usize) -> Vec<u32> {
    let (a, b) = shift_pieces(words.len(), start, length, target);
    let p = start.min(target);
    let q = p + a.len() + b.len();
    let mut out = Vec::with_capacity(words.len());
    out.extend_from_slice(&words[..p]);
    out.extend_from_slice(&words[a]);
    out.extend_from_slice(&words[b]);
    out.extend_from_slice(&words[q..]);
    out
}

/// `trace_to_alignment` of the flipped trace: for each reference position the hypothesis position
/// aligned to it (-1 before the first), and prefix sums of the error flags of both sides.
struct Alignment {
    align: Vec<i64>,
    hyp_err: Vec<u32>,
    ref_err: Vec<u32>,
}

impl Alignment {
    fn new(trace: &[Op], n_hyp: usize, n_ref: usize) -> Alignment {
        let mut al = Alignment {
            align: Vec::with_capacity(n_ref),
            hyp_err: Vec::with_capacity(n_hyp + 1),
            ref_err: Vec::with_capacity(n_ref + 1),
        };
        al.hyp_err.push(0);
        al.ref_err.push(0);
        let mut pos_hyp: i64 = -1;
        for &op in trace {
            let (hyp, reference) = match op {
                Op::Nop => (Some(0), Some(0)),
                Op::Sub => (Some(1), Some(1)),
                Op::Del => (Some(1), None),
                Op::Ins => (None, Some(1)),
                Op::Undef => (None, None),
            };
            if let Some(e) = hyp {
                pos_hyp += 1;
                al.hyp_err.push(al.hyp_err.last().copied().unwrap_or(0) + e);
            }
            if let Some(e) = reference {
                al.align.push(pos_hyp);
                al.ref_err.push(al.ref_err.last().copied().unwrap_or(0) + e);
            }
        }
        al
    }

    /// Whether any of `len` positions from `start` is an error (`err` is a prefix-sum table).
    fn any_error(err: &[u32], start: usize, len: usize) -> bool {
        match (err.get(start), err.get(start + len)) {
            (Some(a), Some(b)) => b > a,
            _ => false,
        }
    }

    fn target(&self, ref_pos: usize) -> i64 {
        self.align.get(ref_pos).map_or(-1, |&h| h + 1)
    }
}

/// The beam edit distance against one reference for hypotheses of one length: the forward table
/// (costs and operations) and the backward cost-to-go of the current hypothesis, and scratch rows
/// for evaluating shifted variants of it.
struct BeamEditDistance<'a> {
    reference: &'a [u32],
    band: Band,
    forward: Vec<u32>,
    ops: Vec<Op>,
    backward: Vec<u32>,
    rows: [Vec<u32>; 2],
    row_ops: Vec<Op>,
}

/// One shift: `(gain, length, -start, -target)` order the candidates, as in sacrebleu.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Shift {
    gain: i64,
    length: usize,
    start: std::cmp::Reverse<usize>,
    target: std::cmp::Reverse<usize>,
}

impl<'a> BeamEditDistance<'a> {
    fn new(n_hyp: usize, reference: &'a [u32]) -> Self {
        let band = Band::new(n_hyp, reference.len());
        let (cells, widest) = (band.cells, band.widest);
        BeamEditDistance {
            reference,
            band,
            forward: vec![INF; cells],
            ops: vec![Op::Undef; cells],
            backward: vec![INF; cells],
            rows: [vec![INF; widest], vec![INF; widest]],
            row_ops: vec![Op::Undef; widest],
        }
    }

    fn cell(&self, i: usize, j: usize) -> Option<usize> {
        self.band
            .contains(i, j)
            .then(|| self.band.start[i] + j - self.band.lo[i])
    }

    /// Fill both tables for `words`; returns the edit distance (sacrebleu's `cached_ed(words)[0]`).
    fn compute(&mut self, words: &[u32]) -> i64 {
        let n = words.len();
        let n_ref = self.reference.len();
        for (j, (cost, op)) in self.forward[self.band.range(0)]
            .iter_mut()
            .zip(&mut self.ops[self.band.range(0)])
            .enumerate()
        {
            *cost = j as u32;
            *op = Op::Ins;
        }
        for (i, &word) in (1..=n).zip(words) {
            let (before, rest) = self.forward.split_at_mut(self.band.start[i]);
            let width = self.band.hi[i] - self.band.lo[i];
            if i % 64 == 0 {
                charge((64 * width) as u64);
            }
            step(
                &self.band,
                self.reference,
                i,
                word,
                &before[self.band.range(i - 1)],
                &mut rest[..width],
                &mut self.ops[self.band.range(i)],
            );
        }
        for i in (0..=n).rev() {
            for j in (self.band.lo[i]..self.band.hi[i]).rev() {
                let mut best = if i == n && j == n_ref { 0 } else { INF };
                if i < n {
                    if let (Some(c), Some(&r)) = (self.cell(i + 1, j + 1), self.reference.get(j)) {
                        best = best.min(add(self.backward[c], u32::from(words[i] != r)));
                    }
                    if let Some(c) = self.cell(i + 1, j) {
                        best = best.min(add(self.backward[c], 1));
                    }
                }
                if let Some(c) = self.cell(i, j + 1) {
                    best = best.min(add(self.backward[c], 1));
                }
                if let Some(c) = self.cell(i, j) {
                    self.backward[c] = best;
                }
            }
        }
        to_py_distance(self.cell(n, n_ref).map_or(INF, |c| self.forward[c]))
    }

    /// The operations of the best path, first to last; sacrebleu raises on an unreachable cell.
    fn trace(&self, n: usize) -> Result<Vec<Op>> {
        let (mut i, mut j) = (n, self.reference.len());
        let mut trace = Vec::with_capacity(n + j);
        let broken = || Error::reference(PyExc::Value, "unknown operation 'x'");
        while i > 0 || j > 0 {
            let op = self.cell(i, j).map_or(Op::Undef, |c| self.ops[c]);
            let (di, dj) = match op {
                Op::Nop | Op::Sub => (1, 1),
                Op::Ins => (0, 1),
                Op::Del => (1, 0),
                Op::Undef => return Err(broken()),
            };
            i = i.checked_sub(di).ok_or_else(broken)?;
            j = j.checked_sub(dj).ok_or_else(broken)?;
            trace.push(op);
        }
        trace.reverse();
        Ok(trace)
    }

    /// The edit distance of `words` shifted (`start`, `length`, `target`), from the tables of
    /// `words`: forward rows over the changed region only, then the cheapest crossing of its last
    /// row with the backward table.
    fn shifted_distance(
        &mut self,
        words: &[u32],
        start: usize,
        length: usize,
        target: usize,
    ) -> i64 {
        let (a, b) = shift_pieces(words.len(), start, length, target);
        let p = start.min(target);
        let q = p + a.len() + b.len();
        let [mut prev, mut cur] = std::mem::take(&mut self.rows);
        for (k, &word) in words[a].iter().chain(&words[b]).enumerate() {
            let i = p + k + 1;
            let width = self.band.hi[i] - self.band.lo[i];
            let above = if k == 0 {
                &self.forward[self.band.range(p)]
            } else {
                &prev[..self.band.hi[i - 1] - self.band.lo[i - 1]]
            };
            step(
                &self.band,
                self.reference,
                i,
                word,
                above,
                &mut cur[..width],
                &mut self.row_ops[..width],
            );
            std::mem::swap(&mut prev, &mut cur);
        }
        let last = if q == p {
            &self.forward[self.band.range(q)]
        } else {
            &prev[..self.band.hi[q] - self.band.lo[q]]
        };
        let best = last
            .iter()
            .zip(&self.backward[self.band.range(q)])
            .filter(|&(&f, &b)| f != INF && b != INF)
            .map(|(&f, &b)| add(f, b))
            .min()
            .unwrap_or(INF);
        self.rows = [prev, cur];
        to_py_distance(best)
    }

    /// `_shift`: the best shift of `words` (tables already computed, distance `distance`), counting
    /// evaluated candidates in `checked` and stopping once it reaches the limit.
    fn best_shift(
        &mut self,
        words: &[u32],
        distance: i64,
        al: &Alignment,
        checked: &mut usize,
    ) -> Option<Shift> {
        let reference = self.reference;
        let (n_hyp, n_ref) = (words.len(), reference.len());
        let mut best: Option<Shift> = None;
        for start_h in 0..n_hyp {
            if start_h % 64 == 0 {
                charge((64 * (2 * MAX_SHIFT_DIST + 1)) as u64);
            }
            let r_from = start_h.saturating_sub(MAX_SHIFT_DIST);
            let r_to = n_ref.min(start_h + MAX_SHIFT_DIST + 1);
            for start_r in r_from..r_to {
                let mut length = 0;
                while length < MAX_SHIFT_SIZE
                    && words.get(start_h + length) == reference.get(start_r + length)
                {
                    length += 1;
                    if self.try_block(
                        words,
                        distance,
                        al,
                        (start_h, start_r, length),
                        checked,
                        &mut best,
                    ) && *checked >= MAX_SHIFT_CANDIDATES
                    {
                        return best;
                    }
                    if start_h + length == n_hyp || start_r + length == n_ref {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The candidates of one matching block `(start_h, start_r, length)`; false when the block is
    /// skipped (no error on either side, or it already sits where the reference wants it).
    fn try_block(
        &mut self,
        words: &[u32],
        distance: i64,
        al: &Alignment,
        (start_h, start_r, length): (usize, usize, usize),
        checked: &mut usize,
        best: &mut Option<Shift>,
    ) -> bool {
        if !Alignment::any_error(&al.hyp_err, start_h, length)
            || !Alignment::any_error(&al.ref_err, start_r, length)
        {
            return false;
        }
        let aligned = al.target(start_r) - 1;
        if start_h as i64 <= aligned && aligned < (start_h + length) as i64 {
            return false;
        }
        let mut prev_target = -1;
        for offset in 0..=length {
            // offset 0 is sacrebleu's -1: before the block's first reference word.
            let target = match (start_r + offset).checked_sub(1) {
                None => 0,
                Some(r) => al.target(r),
            };
            if target == prev_target {
                continue;
            }
            prev_target = target;
            let target = target.max(0) as usize;
            charge(words.len() as u64);
            let shifted = self.shifted_distance(words, start_h, length, target);
            *checked += 1;
            let candidate = Shift {
                gain: distance - shifted,
                length,
                start: std::cmp::Reverse(start_h),
                target: std::cmp::Reverse(target),
            };
            if best.is_none_or(|b| candidate > b) {
                *best = Some(candidate);
            }
        }
        true
    }
}

/// `translation_edit_rate(words_hyp, words_ref)`: (edits, reference length).
pub fn translation_edit_rate(hyp: &[u32], reference: &[u32]) -> Result<(i64, usize)> {
    if reference.is_empty() {
        return Ok((hyp.len() as i64, 0));
    }
    let mut ed = BeamEditDistance::new(hyp.len(), reference);
    let mut words = hyp.to_vec();
    let mut shifts = 0;
    let mut checked = 0;
    loop {
        let distance = ed.compute(&words);
        let al = Alignment::new(&ed.trace(words.len())?, words.len(), reference.len());
        match ed.best_shift(&words, distance, &al, &mut checked) {
            Some(s) if checked < MAX_SHIFT_CANDIDATES && s.gain > 0 => {
                shifts += 1;
                words = perform_shift(&words, s.start.0, s.length, s.target.0);
            }
            _ => return Ok((shifts + distance, reference.len())),
        }
    }
}

/// A TER segment's sufficient statistics: the fewest edits over its references and their average
/// length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TerStats {
    pub edits: i64,
    pub ref_length: f64,
}

/// `TERScore`: the score (0-100), the edits and the reference length it came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TerScore {
    pub score: f64,
    pub num_edits: i64,
    pub ref_length: f64,
}

/// `TER._preprocess_segment`: the tokenizer on the right-stripped line.
fn preprocess(opts: TercomOptions, line: &str) -> String {
    tercom_tokenize(py_rstrip(line), opts)
}

/// The statistics of one segment (`_extract_reference_info` and `_compute_segment_statistics`).
pub fn segment_stats(
    opts: TercomOptions,
    hypothesis: &str,
    references: &[&str],
) -> Result<TerStats> {
    if references.is_empty() {
        return Err(no_reference());
    }
    let hyp_line = preprocess(opts, hypothesis);
    // sacrebleu preprocesses each reference twice: once when caching, once when extracting.
    let ref_lines: Vec<String> = references
        .iter()
        .map(|r| preprocess(opts, &preprocess(opts, r)))
        .collect();
    let mut vocab: AHashMap<&str, u32> = AHashMap::new();
    let hyp = intern(&mut vocab, &hyp_line);
    let mut best = i64::MAX;
    let mut total_len = 0usize;
    for line in &ref_lines {
        let (edits, len) = translation_edit_rate(&hyp, &intern(&mut vocab, line))?;
        total_len += len;
        best = best.min(edits);
    }
    Ok(TerStats {
        edits: best,
        ref_length: total_len as f64 / references.len() as f64,
    })
}

/// The words of `line` as ids, equal words getting equal ids.
fn intern<'a>(vocab: &mut AHashMap<&'a str, u32>, line: &'a str) -> Vec<u32> {
    py_split(line)
        .map(|w| {
            let next = vocab.len() as u32;
            *vocab.entry(w).or_insert(next)
        })
        .collect()
}

/// `TER._compute_score_from_stats` on (summed) statistics.
pub fn compute_ter(stats: TerStats) -> TerScore {
    let rate = if stats.ref_length > 0.0 {
        stats.edits as f64 / stats.ref_length
    } else if stats.edits > 0 {
        1.0
    } else {
        0.0
    };
    TerScore {
        score: 100.0 * rate,
        num_edits: stats.edits,
        ref_length: stats.ref_length,
    }
}

/// How much a segment's TER may cost, for the order rows are taken in: its shift search grows
/// with the hypothesis times each reference (see [`parallel::map_pairs_heaviest_first`]).
fn weight<'a, R: AsRef<[&'a str]>>(hypothesis: &&str, references: &R) -> u64 {
    let hypothesis = hypothesis.len() as u64;
    references
        .as_ref()
        .iter()
        .map(|r| hypothesis.saturating_mul(r.len() as u64))
        .fold(0, u64::saturating_add)
}

/// `TER(...).sentence_score(hypothesis, references)`.
pub fn sentence_ter(
    opts: TercomOptions,
    hypothesis: &str,
    references: &[&str],
) -> Result<TerScore> {
    Ok(compute_ter(segment_stats(opts, hypothesis, references)?))
}

/// Sentence TER of each segment in parallel (`references[i]` holds segment i's references).
pub fn sentence_ter_batch<'a, R: AsRef<[&'a str]> + Sync>(
    opts: TercomOptions,
    hypotheses: &[&str],
    references: &[R],
) -> Vec<Result<f64>> {
    parallel::map_pairs_heaviest_first(hypotheses, references, weight, |h, r| {
        sentence_ter(opts, h, r.as_ref()).map(|s| s.score)
    })
}

/// `TER(...).corpus_score(hypotheses, references)` with references given per segment: segment
/// statistics in parallel, summed in order.
pub fn corpus_ter<'a, R: AsRef<[&'a str]> + Sync>(
    opts: TercomOptions,
    hypotheses: &[&str],
    references: &[R],
) -> Result<TerScore> {
    if hypotheses.is_empty() {
        return Err(Error::InvalidValue(
            "corpus TER needs at least one segment".to_string(),
        ));
    }
    let segments: Vec<Result<TerStats>> =
        parallel::map_pairs_heaviest_first(hypotheses, references, weight, |h, r| {
            segment_stats(opts, h, r.as_ref())
        });
    let mut total = TerStats {
        edits: 0,
        ref_length: 0.0,
    };
    for (row, s) in segments.into_iter().enumerate() {
        let s = s.map_err(|e| e.in_row(row))?;
        total.edits += s.edits;
        total.ref_length += s.ref_length;
    }
    Ok(compute_ter(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(s: &str) -> Vec<u32> {
        s.split(' ')
            .filter(|w| !w.is_empty())
            .map(|w| w.bytes().fold(0u32, |h, b| h * 131 + u32::from(b)))
            .collect()
    }

    fn ter(hyp: &str, reference: &str) -> Result<(i64, usize)> {
        translation_edit_rate(&ids(hyp), &ids(reference))
    }

    #[test]
    fn plain_edits_and_shifts() -> Result<()> {
        assert_eq!(ter("a b c", "a b c")?, (0, 3));
        assert_eq!(ter("", "a b c")?, (3, 3));
        assert_eq!(ter("a b c", "")?, (3, 0));
        assert_eq!(ter("a b x", "a b c")?, (1, 3));
        // One shift moves "c d" to the front.
        assert_eq!(ter("a b c d", "c d a b")?, (1, 4));
        Ok(())
    }

    /// The candidate distance from the tables equals a full recomputation of the shifted words.
    #[test]
    fn shifted_distance_matches_full_recomputation() {
        let hyp = ids(&"w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 ".repeat(9));
        let mut reference = ids(&"w3 w4 w1 w2 w9 w5 w6 w10 w7 w8 ".repeat(7));
        reference.extend(ids("w1 w2 w1"));
        let mut ed = BeamEditDistance::new(hyp.len(), &reference);
        let distance = ed.compute(&hyp);
        let mut fresh = BeamEditDistance::new(hyp.len(), &reference);
        for (start, length, target) in
            [(0, 3, 5), (10, 10, 0), (40, 2, 41), (80, 9, 90), (3, 4, 89)]
        {
            let quick = ed.shifted_distance(&hyp, start, length, target);
            let full = fresh.compute(&perform_shift(&hyp, start, length, target));
            assert_eq!(quick, full, "shift {start} {length} {target}");
        }
        assert_eq!(ed.shifted_distance(&hyp, 5, 2, 5), distance);
    }

    #[test]
    fn scores_from_stats() {
        let s = compute_ter(TerStats {
            edits: 1,
            ref_length: 3.0,
        });
        assert_eq!(s.score, 100.0 * (1.0 / 3.0));
        let empty_ref = TerStats {
            edits: 2,
            ref_length: 0.0,
        };
        assert_eq!(compute_ter(empty_ref).score, 100.0);
    }

    #[test]
    fn tokenizes_references_and_picks_the_best() -> Result<()> {
        let opts = TercomOptions::default();
        let s = segment_stats(opts, "The cat sat", &["the cat sat", "a b"])?;
        assert_eq!(
            s,
            TerStats {
                edits: 0,
                ref_length: 2.5
            }
        );
        assert!(segment_stats(opts, "x", &[]).is_err());
        Ok(())
    }
}
