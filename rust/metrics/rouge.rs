//! rouge-score 0.1.2 `RougeScorer(rouge_types, use_stemmer, split_summaries).score(target,
//! prediction)` and `score_multi`: ROUGE-N (`rouge1` … `rouge9`, clipped n-gram overlap), ROUGE-L
//! (longest common subsequence) and ROUGE-Lsum (union LCS over newline-separated sentences, each
//! reference token counted at most as often as it occurs on both sides), as precision, recall and
//! F1 `2*p*r/(p+r)`.
//!
//! Tokens are interned to integers per call; every count is exact and each float comes from the
//! same single division or expression as in the reference.

use std::cell::RefCell;
use std::ops::Range;

use crate::error::{Error, PyExc, Result};
use crate::interrupt::charge;
use crate::parallel;
use crate::text::punkt;
use crate::text::rouge_tokenize::{RougeTokenizer, TokenArena};

/// One score. `int_zero` marks the results rouge-score returns as the ints `(0, 0, 0)` (ROUGE-L
/// and ROUGE-Lsum when a side has no tokens) rather than floats.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Score {
    pub precision: f64,
    pub recall: f64,
    pub fmeasure: f64,
    pub int_zero: bool,
}

const INT_ZERO: Score = Score {
    precision: 0.0,
    recall: 0.0,
    fmeasure: 0.0,
    int_zero: true,
};

impl Score {
    fn new(precision: f64, recall: f64) -> Score {
        // scoring.fmeasure: 2 * precision * recall / (precision + recall), else 0.0
        let fmeasure = if precision + recall > 0.0 {
            2.0 * precision * recall / (precision + recall)
        } else {
            0.0
        };
        Score {
            precision,
            recall,
            fmeasure,
            int_zero: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RougeType {
    /// `rouge1` … `rouge9`.
    N(usize),
    /// `rougeL`.
    L,
    /// `rougeLsum`.
    Lsum,
}

impl RougeType {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "rougeL" => Ok(RougeType::L),
            "rougeLsum" => Ok(RougeType::Lsum),
            _ => match name.strip_prefix("rouge").map(str::as_bytes) {
                Some(&[d @ b'1'..=b'9']) => Ok(RougeType::N(usize::from(d - b'0'))),
                Some(b"0") => Err(Error::InvalidValue(format!(
                    "rougen requires positive n: {name}"
                ))),
                _ => Err(Error::InvalidValue(format!("Invalid rouge type: {name}"))),
            },
        }
    }
}

/// The `RougeScorer` settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub use_stemmer: bool,
    /// Sentences for ROUGE-Lsum from Punkt (`nltk.sent_tokenize`) instead of newlines.
    pub split_summaries: bool,
    pub tokenizer: RougeTokenizer,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            use_stemmer: false,
            split_summaries: false,
            tokenizer: RougeTokenizer::Default,
        }
    }
}

/// Where one text's tokens are in the arena of a call: the whole text, and its sentences (for
/// ROUGE-Lsum).
struct Spans {
    text: Range<usize>,
    sentences: Vec<Range<usize>>,
}

fn add_text(arena: &mut TokenArena, text: &str, types: &[RougeType], opts: &Options) -> Spans {
    let stem = opts.use_stemmer;
    let start = arena.len();
    let mut spans = Spans {
        text: start..start,
        sentences: Vec::new(),
    };
    let mut push = |sentence: &str, arena: &mut TokenArena| {
        if !sentence.is_empty() {
            let start = arena.len();
            opts.tokenizer.push_tokens(sentence, stem, arena);
            spans.sentences.push(start..arena.len());
        }
    };
    let lsum = types.contains(&RougeType::Lsum);
    if lsum && !opts.split_summaries {
        // A newline ends a token and no token holds one, so the text's tokens are its lines'
        // tokens one after the other: tokenized once, line by line.
        text.split('\n').for_each(|line| push(line, arena));
        spans.text = start..arena.len();
        return spans;
    }
    if types.iter().any(|t| *t != RougeType::Lsum) {
        opts.tokenizer.push_tokens(text, stem, arena);
        spans.text = start..arena.len();
    }
    if lsum {
        punkt::sent_tokenize(text)
            .iter()
            .for_each(|s| push(s, arena));
    }
    spans
}

/// Buffers a thread reuses from one pair to the next, so that scoring a pair allocates almost
/// nothing.
#[derive(Default)]
struct Workspace {
    arena: TokenArena,
    /// The targets of the current row.
    targets: Vec<Spans>,
    interner: Interner,
    ids: Vec<u32>,
    /// The scores of a target after the first one.
    other: Vec<Score>,
    kernels: Kernels,
}

/// The buffers of the ROUGE-N and ROUGE-L kernels.
#[derive(Default)]
struct Kernels {
    counts: Vec<u32>,
    keys: (Vec<u64>, Vec<u64>),
    distinct: Vec<u64>,
    slot: Vec<u8>,
    masks: Vec<u64>,
    carries: Vec<bool>,
    lsum: Lsum,
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::new(Workspace::default());
}

/// Runs `f` with this thread's workspace, emptied; buffers grown past 16 MB by a huge text are
/// dropped afterwards rather than kept for the life of the thread.
fn with_workspace<T>(f: impl FnOnce(&mut Workspace) -> T) -> T {
    WORKSPACE.with(|cell| match cell.try_borrow_mut() {
        Ok(mut ws) => {
            ws.arena.clear();
            let out = f(&mut ws);
            if ws.arena.capacity() > 1 << 24 {
                *ws = Workspace::default();
            }
            out
        }
        Err(_) => f(&mut Workspace::default()),
    })
}

/// Dense token ids: equal exactly for equal tokens, numbered `0..distinct` in order of first
/// appearance. An open-addressing table keyed by the token itself when it has at most 7 bytes
/// (`TokenArena::short_key`), else by a hash checked against the token.
#[derive(Default)]
struct Interner {
    table: Vec<Slot>,
    hasher: ahash::RandomState,
}

#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    /// The first token with this key (`u32::MAX`: empty slot).
    token: u32,
    id: u32,
}

const EMPTY: Slot = Slot {
    key: 0,
    token: u32::MAX,
    id: 0,
};

impl Interner {
    /// Fills `ids` with one id per token of `arena`; returns the number of distinct tokens.
    fn intern(&mut self, arena: &TokenArena, ids: &mut Vec<u32>) -> usize {
        let size = (2 * arena.len()).next_power_of_two().max(16);
        let shift = 64 - size.trailing_zeros();
        self.table.clear();
        self.table.resize(size, EMPTY);
        ids.clear();
        let mut distinct = 0u32;
        for i in 0..arena.len() {
            let short = arena.short_key(i);
            let exact = short.is_some();
            let key = short.unwrap_or_else(|| 1 << 63 | self.hasher.hash_one(arena.get(i)));
            let mut h = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize;
            // Probe to the token's slot or the first empty one. A short token is its key, so that
            // needs no byte comparison, and whether the token is new is a select, not a branch.
            while let Some(slot) = self.table.get(h) {
                let empty = slot.token == u32::MAX;
                if (empty | (slot.key == key))
                    && (exact || empty || arena.get(slot.token as usize) == arena.get(i))
                {
                    break;
                }
                h = (h + 1) & (size - 1);
            }
            if let Some(slot) = self.table.get_mut(h) {
                let new = slot.token == u32::MAX;
                let id = if new { distinct } else { slot.id };
                distinct += u32::from(new);
                *slot = Slot {
                    key,
                    token: if new { i as u32 } else { slot.token },
                    id,
                };
                ids.push(id);
            }
        }
        distinct as usize
    }
}

/// The ids of a text's spans: the whole text and its sentences.
fn span_ids<'a>(ids: &'a [u32], spans: &Spans) -> (&'a [u32], Vec<&'a [u32]>) {
    let get = |r: &Range<usize>| ids.get(r.clone()).unwrap_or(&[]);
    (get(&spans.text), spans.sentences.iter().map(get).collect())
}

/// `RougeScorer(types, ...).score(target, prediction)`, one score per type.
pub fn score(target: &str, prediction: &str, types: &[RougeType], opts: &Options) -> Vec<Score> {
    let mut out = vec![INT_ZERO; types.len()];
    with_workspace(|ws| {
        let t = add_text(&mut ws.arena, target, types, opts);
        let p = add_text(&mut ws.arena, prediction, types, opts);
        let vocab = ws.interner.intern(&ws.arena, &mut ws.ids);
        let (t_ids, t_sents) = span_ids(&ws.ids, &t);
        let (p_ids, p_sents) = span_ids(&ws.ids, &p);
        let target = Ids {
            tokens: t_ids,
            sentences: &t_sents,
        };
        let prediction = Ids {
            tokens: p_ids,
            sentences: &p_sents,
        };
        score_dense(target, prediction, types, vocab, &mut ws.kernels, &mut out);
    });
    out
}

/// `RougeScorer(types, ...).score_multi(targets, prediction)`: for each type, the score of the
/// first target with the largest F1 (`np.argmax`).
pub fn score_multi<S: AsRef<str>>(
    targets: &[S],
    prediction: &str,
    types: &[RougeType],
    opts: &Options,
) -> Result<Vec<Score>> {
    let mut out = vec![INT_ZERO; types.len()];
    score_multi_into(targets, prediction, types, opts, &mut out)?;
    Ok(out)
}

/// [`score_multi`] into `out` (one score per type).
fn score_multi_into<S: AsRef<str>>(
    targets: &[S],
    prediction: &str,
    types: &[RougeType],
    opts: &Options,
    out: &mut [Score],
) -> Result<()> {
    if targets.is_empty() {
        return Err(Error::reference(
            PyExc::Value,
            "attempt to get argmax of an empty sequence",
        ));
    }
    with_workspace(|ws| {
        let p = add_text(&mut ws.arena, prediction, types, opts);
        ws.targets.clear();
        for t in targets {
            let spans = add_text(&mut ws.arena, t.as_ref(), types, opts);
            ws.targets.push(spans);
        }
        let vocab = ws.interner.intern(&ws.arena, &mut ws.ids);
        let (p_ids, p_sents) = span_ids(&ws.ids, &p);
        let prediction = Ids {
            tokens: p_ids,
            sentences: &p_sents,
        };
        ws.other.clear();
        ws.other.resize(types.len(), INT_ZERO);
        for (i, t) in ws.targets.iter().enumerate() {
            let (t_ids, t_sents) = span_ids(&ws.ids, t);
            let target = Ids {
                tokens: t_ids,
                sentences: &t_sents,
            };
            let k = &mut ws.kernels;
            if i == 0 {
                score_dense(target, prediction, types, vocab, k, out);
                continue;
            }
            let other = &mut ws.other;
            score_dense(target, prediction, types, vocab, k, other);
            for (b, s) in out.iter_mut().zip(other.iter()) {
                if s.fmeasure > b.fmeasure {
                    *b = *s;
                }
            }
        }
    });
    Ok(())
}

/// [`score_multi`] of every row (prediction, its targets), in parallel inside
/// `parallel::with_pool`, as columns: the precision, recall and fmeasure of each type in turn. A
/// failing row gives the first one's index and error.
pub fn score_columns<S: AsRef<str> + Sync, R: AsRef<[S]> + Sync>(
    predictions: &[&str],
    targets: &[R],
    types: &[RougeType],
    opts: &Options,
) -> std::result::Result<Vec<Vec<f64>>, (usize, Error)> {
    let width = 3 * types.len();
    let init = || vec![INT_ZERO; types.len()];
    parallel::columns_of_pairs(predictions, targets, width, 1, init, |scores, p, t, row| {
        scores.fill(INT_ZERO);
        score_multi_into(t.as_ref(), p, types, opts, scores)?;
        for (values, s) in row.chunks_exact_mut(3).zip(scores.iter()) {
            values.copy_from_slice(&[s.precision, s.recall, s.fmeasure]);
        }
        Ok(())
    })
}

/// The scores of already tokenized texts (token ids; sentences for ROUGE-Lsum), one per type.
pub fn score_ids(
    target: &[u32],
    prediction: &[u32],
    target_sentences: &[&[u32]],
    prediction_sentences: &[&[u32]],
    types: &[RougeType],
) -> Vec<Score> {
    let mut kernels = Kernels::default();
    // The kernels index tables by id: renumber ids that are not already small.
    let all = || {
        [target, prediction]
            .into_iter()
            .chain(target_sentences.iter().copied())
            .chain(prediction_sentences.iter().copied())
    };
    let total: usize = all().map(<[u32]>::len).sum();
    let vocab = all().flatten().map(|&x| x as usize + 1).max().unwrap_or(0);
    let mut out = vec![INT_ZERO; types.len()];
    if vocab <= total + 1 {
        let t = Ids {
            tokens: target,
            sentences: target_sentences,
        };
        let p = Ids {
            tokens: prediction,
            sentences: prediction_sentences,
        };
        score_dense(t, p, types, vocab, &mut kernels, &mut out);
        return out;
    }
    let mut distinct: Vec<u32> = all().flatten().copied().collect();
    distinct.sort_unstable();
    distinct.dedup();
    let dense = |s: &[u32]| -> Vec<u32> {
        s.iter()
            .map(|x| distinct.binary_search(x).unwrap_or(0) as u32)
            .collect()
    };
    let (t, p) = (dense(target), dense(prediction));
    let ts: Vec<Vec<u32>> = target_sentences.iter().map(|s| dense(s)).collect();
    let ps: Vec<Vec<u32>> = prediction_sentences.iter().map(|s| dense(s)).collect();
    let ts: Vec<&[u32]> = ts.iter().map(Vec::as_slice).collect();
    let ps: Vec<&[u32]> = ps.iter().map(Vec::as_slice).collect();
    let t = Ids {
        tokens: &t,
        sentences: &ts,
    };
    let p = Ids {
        tokens: &p,
        sentences: &ps,
    };
    score_dense(t, p, types, distinct.len(), &mut kernels, &mut out);
    out
}

/// A text as token ids: all its tokens, and each of its sentences (for ROUGE-Lsum).
#[derive(Clone, Copy)]
struct Ids<'a> {
    tokens: &'a [u32],
    sentences: &'a [&'a [u32]],
}

/// [`score_ids`] for ids below `vocab`, into `out` (one score per type).
fn score_dense(
    target: Ids<'_>,
    prediction: Ids<'_>,
    types: &[RougeType],
    vocab: usize,
    k: &mut Kernels,
    out: &mut [Score],
) {
    let (t, p) = (target.tokens, prediction.tokens);
    for (score, rouge_type) in out.iter_mut().zip(types) {
        *score = match *rouge_type {
            RougeType::N(n) => rouge_n(t, p, n, vocab, k),
            RougeType::L => rouge_l(t, p, vocab, k),
            RougeType::Lsum => {
                rouge_lsum(target.sentences, prediction.sentences, vocab, &mut k.lsum)
            }
        };
    }
}

/// Bigram keys `a * vocab + b` are counted in a table when there are at most this many.
const DENSE_BIGRAMS: usize = 1 << 12;

/// ROUGE-N: the clipped count of common n-grams over the n-gram counts of each side (at least 1).
fn rouge_n(target: &[u32], prediction: &[u32], n: usize, vocab: usize, k: &mut Kernels) -> Score {
    let n = n.max(1);
    let bigram = |w: &[u32]| w[0] as usize * vocab + w[1] as usize;
    let overlap = if n == 1 {
        let (t, p) = (target.iter(), prediction.iter());
        let id = |&x: &u32| x as usize;
        clipped_overlap(t.map(id), p.map(id), vocab, &mut k.counts)
    } else if n == 2 && vocab * vocab <= DENSE_BIGRAMS {
        let (t, p) = (target.windows(2), prediction.windows(2));
        clipped_overlap(t.map(bigram), p.map(bigram), vocab * vocab, &mut k.counts)
    } else {
        ngram_keys(target, prediction, n, k);
        let (t, p) = &mut k.keys;
        t.sort_unstable();
        p.sort_unstable();
        sorted_overlap(t, p)
    };
    let count = |s: &[u32]| (s.len() + 1).saturating_sub(n).max(1) as f64;
    Score::new(
        overlap as f64 / count(prediction),
        overlap as f64 / count(target),
    )
}

/// Σ min(count in `t`, count in `p`) over keys below `space`, with a count per key.
fn clipped_overlap(
    t: impl Iterator<Item = usize>,
    p: impl Iterator<Item = usize>,
    space: usize,
    counts: &mut Vec<u32>,
) -> usize {
    counts.clear();
    counts.resize(space, 0);
    for x in t {
        if let Some(c) = counts.get_mut(x) {
            *c += 1;
        }
    }
    let mut hits = 0;
    for x in p {
        if let Some(c) = counts.get_mut(x) {
            // Branch-free: a hit is as likely as a miss.
            let hit = u32::from(*c > 0);
            *c -= hit;
            hits += hit as usize;
        }
    }
    hits
}

/// Σ min(count in `t`, count in `p`) over the values of two sorted lists: a merge that pairs
/// equal values one to one, without branches.
fn sorted_overlap(t: &[u64], p: &[u64]) -> usize {
    let (mut i, mut j, mut overlap) = (0, 0, 0usize);
    while let (Some(&a), Some(&b)) = (t.get(i), p.get(j)) {
        overlap += usize::from(a == b);
        i += usize::from(a <= b);
        j += usize::from(b <= a);
    }
    overlap
}

/// Fills `k.keys` with one key per n-gram (n >= 2) of each sequence, equal exactly when the n-grams
/// are equal: a bigram is its two ids; each further step renumbers the keys densely so they fit 32
/// bits and appends the next token's id in the low 32 bits.
fn ngram_keys(a: &[u32], b: &[u32], n: usize, k: &mut Kernels) {
    let (ka, kb) = &mut k.keys;
    for (keys, seq) in [(&mut *ka, a), (&mut *kb, b)] {
        keys.clear();
        keys.extend(
            seq.windows(2)
                .map(|w| u64::from(w[0]) << 32 | u64::from(w[1])),
        );
    }
    for step in 2..n {
        // Replace the keys by their ranks among all distinct keys.
        let all = &mut k.distinct;
        all.clear();
        all.extend(ka.iter().chain(kb.iter()));
        all.sort_unstable();
        all.dedup();
        for (keys, seq) in [(&mut *ka, a), (&mut *kb, b)] {
            let next = seq.get(step..).unwrap_or(&[]);
            keys.truncate(next.len());
            for (key, &x) in keys.iter_mut().zip(next) {
                *key = (all.binary_search(key).unwrap_or(0) as u64) << 32 | u64::from(x);
            }
        }
    }
}

/// ROUGE-L: the LCS length over each side's length; ints (0, 0, 0) when a side is empty.
fn rouge_l(target: &[u32], prediction: &[u32], vocab: usize, k: &mut Kernels) -> Score {
    if target.is_empty() || prediction.is_empty() {
        return INT_ZERO;
    }
    let lcs = lcs_length(target, prediction, vocab, k);
    Score::new(
        lcs as f64 / prediction.len() as f64,
        lcs as f64 / target.len() as f64,
    )
}

/// The length of the longest common subsequence, bit-parallel (Hyyrö 2004): one bit per position of
/// `b` in a word `v` per 64 positions, one pass over `a` per block of 64 positions of `b`; bit j of
/// `v` ends 0 where the LCS gains a token at position j. Blocks are processed one after the other,
/// keeping each row's carry, so memory stays O(len(a) + vocab).
fn lcs_length(a: &[u32], b: &[u32], vocab: usize, k: &mut Kernels) -> usize {
    // The block's distinct tokens: their slot (u8::MAX: absent) and, per slot, the position mask.
    let Kernels {
        slot,
        masks,
        carries,
        ..
    } = k;
    slot.clear();
    slot.resize(vocab, u8::MAX);
    carries.clear();
    carries.resize(a.len(), false);
    let mut lcs = 0;
    for block in b.chunks(64) {
        if a.len() > CHARGE_FROM {
            charge(a.len() as u64);
        }
        masks.clear();
        for (k, &x) in block.iter().enumerate() {
            if let Some(s) = slot.get_mut(x as usize) {
                if *s == u8::MAX {
                    *s = masks.len() as u8;
                    masks.push(0);
                }
                if let Some(m) = masks.get_mut(*s as usize) {
                    *m |= 1 << k;
                }
            }
        }
        let mut v = u64::MAX;
        for (&x, carry) in a.iter().zip(carries.iter_mut()) {
            let m = match slot.get(x as usize) {
                Some(&s) if s != u8::MAX => masks.get(s as usize).copied().unwrap_or(0),
                _ => 0,
            };
            v = lcs_step(v, m, carry);
        }
        let valid = u64::MAX >> (64 - block.len());
        lcs += block.len() - (v & valid).count_ones() as usize;
        for &x in block {
            if let Some(s) = slot.get_mut(x as usize) {
                *s = u8::MAX;
            }
        }
    }
    lcs
}

/// A pass over the LCS table at least this long (in steps) is a checkpoint (see
/// `crate::interrupt`): a ROUGE-L of two 10 MB texts is 30,000 passes of 2 million steps.
const CHARGE_FROM: usize = 1024;

/// The table rows of `LcsMarker` kept at once, in words: a larger table is kept only every K rows
/// and recomputed a segment of K rows at a time while it is walked (memory O(sqrt(rows) * words)).
const KEPT_ROW_WORDS: usize = 1 << 20;

/// Marks the tokens of a reference sentence on one LCS with a candidate sentence, as rouge-score's
/// `lcs_ind` finds it: the LCS table walked back from its end (`_backtrack_norec`: equal tokens
/// take the diagonal, else a tie moves up, to the previous reference token).
///
/// The table is bit-parallel (see `lcs_length`): row i (after the first i reference tokens) has one
/// bit per candidate position, 0 where the LCS length grows by one, so that an entry is the number
/// of zero bits before its column. Rows are kept for the walk, every K-th one only when all of them
/// would not fit in `KEPT_ROW_WORDS`; a segment between two kept rows is then recomputed when the
/// walk enters it.
#[derive(Default)]
struct LcsMarker {
    candidate: Vec<u32>,
    /// By token id, its index among the candidate's distinct tokens (`u32::MAX`: not in it).
    slot: Vec<u32>,
    /// Per distinct candidate token, the bit mask of its positions (`words` words).
    masks: Vec<u64>,
    /// Rows 0, K, 2K, ... (`words` words each).
    kept: Vec<u64>,
    /// The rows of the segment being walked, and per row the zero bits before each word.
    rows: Vec<u64>,
    zeros_before: Vec<u32>,
}

impl LcsMarker {
    /// Makes `c` (token ids below `vocab`) the candidate sentence of the next `mark` calls.
    fn set_candidate(&mut self, c: &[u32], vocab: usize) {
        for &x in &self.candidate {
            if let Some(s) = self.slot.get_mut(x as usize) {
                *s = u32::MAX;
            }
        }
        self.candidate.clear();
        self.candidate.extend_from_slice(c);
        if self.slot.len() < vocab {
            self.slot.resize(vocab, u32::MAX);
        }
        let words = c.len().div_ceil(64);
        self.masks.clear();
        let mut distinct = 0;
        for (j, &x) in c.iter().enumerate() {
            let Some(s) = self.slot.get_mut(x as usize) else {
                continue;
            };
            if *s == u32::MAX {
                *s = distinct;
                distinct += 1;
                self.masks.resize(self.masks.len() + words, 0);
            }
            if let Some(m) = self.masks.get_mut(*s as usize * words + j / 64) {
                *m |= 1 << (j % 64);
            }
        }
    }

    /// Sets `marked[i]` for the positions i of `r` on the LCS with the candidate.
    fn mark(&mut self, r: &[u32], marked: &mut [bool]) {
        let words = self.candidate.len().div_ceil(64);
        let segment = if (r.len() + 1) * words <= KEPT_ROW_WORDS {
            r.len()
        } else {
            ((r.len() as f64).sqrt() as usize).max(1)
        };
        self.mark_by_segments(r, segment, marked);
    }

    /// `mark`, keeping every `segment`-th row of the table.
    fn mark_by_segments(&mut self, r: &[u32], segment: usize, marked: &mut [bool]) {
        let c = self.candidate.as_slice();
        if r.is_empty() || c.is_empty() || segment == 0 {
            return;
        }
        let words = c.len().div_ceil(64);
        let Self {
            slot,
            masks,
            kept,
            rows,
            zeros_before,
            ..
        } = self;
        let (slot, masks) = (&*slot, &*masks);
        // Rows 0, K, 2K, ... up to the start of the last segment (row 0: all ones, no LCS yet).
        kept.clear();
        kept.resize(words, u64::MAX);
        rows.clear();
        rows.resize(words, u64::MAX);
        let last_kept = (r.len() - 1) / segment * segment;
        for (i, &x) in r.iter().enumerate().take(last_kept) {
            advance(slot, masks, rows, x);
            if (i + 1) % segment == 0 {
                kept.extend_from_slice(rows);
            }
        }
        let (mut i, mut j) = (r.len(), c.len());
        // The table entry at (i, j), carried from segment to segment.
        let mut here = None;
        while i > 0 && j > 0 {
            // The segment's rows from its kept first row up to row i.
            let start = (i - 1) / segment * segment;
            let first = start / segment * words;
            rows.clear();
            rows.extend_from_slice(kept.get(first..first + words).unwrap_or(&[]));
            for &x in r.get(start..i).unwrap_or(&[]) {
                let from = rows.len() - words;
                rows.extend_from_within(from..);
                advance(
                    slot,
                    masks,
                    rows.get_mut(from + words..).unwrap_or(&mut []),
                    x,
                );
            }
            zeros_before.clear();
            if words > 1 {
                for row in rows.chunks_exact(words) {
                    let mut zeros = 0;
                    zeros_before.push(0);
                    for &v in row {
                        zeros += (!v).count_ones();
                        zeros_before.push(zeros);
                    }
                }
            }
            let word = |row: usize, j: usize| rows.get(row * words + j / 64).copied();
            // The entry of the segment's row `row` at column `j`: the zero bits before j.
            let entry = |row: usize, j: usize| {
                let bits = j % 64;
                let partial = match word(row, j) {
                    Some(v) if bits > 0 => (!v & ((1 << bits) - 1)).count_ones(),
                    _ => 0,
                };
                let before = match words {
                    1 => word(row, 0).filter(|_| j >= 64).map(|v| (!v).count_ones()),
                    _ => zeros_before.get(row * (words + 1) + j / 64).copied(),
                };
                before.unwrap_or(0) + partial
            };
            let mut t = here.unwrap_or_else(|| entry(i - start, j));
            while i > start && j > 0 {
                if r.get(i - 1) == c.get(j - 1) {
                    if let Some(m) = marked.get_mut(i - 1) {
                        *m = true;
                    }
                    i -= 1;
                    j -= 1;
                    t = t.saturating_sub(1);
                    continue;
                }
                // Entry (i, j - 1) is one less where the row's bit j - 1 is 0.
                let zero = word(i - start, j - 1).map_or(0, |v| !v >> ((j - 1) % 64) & 1);
                let left = t.saturating_sub(zero as u32);
                let up = entry(i - 1 - start, j);
                if left > up {
                    j -= 1;
                    t = left;
                } else {
                    i -= 1;
                    t = up;
                }
            }
            here = Some(t);
        }
    }
}

/// Turns LCS table row i (`row`) into row i + 1, for reference token `x` (see `LcsMarker`).
fn advance(slot: &[u32], masks: &[u64], row: &mut [u64], x: u32) {
    let Some(&s) = slot.get(x as usize).filter(|&&s| s != u32::MAX) else {
        // A token the candidate lacks leaves the row as it is.
        return;
    };
    let words = row.len();
    if words > CHARGE_FROM / 64 {
        charge(words as u64);
    }
    let masks = masks
        .get(s as usize * words..(s as usize + 1) * words)
        .unwrap_or(&[]);
    let mut carry = false;
    for (v, &m) in row.iter_mut().zip(masks) {
        *v = lcs_step(*v, m, &mut carry);
    }
}

/// One word of Hyyrö's bit-parallel LCS row update: `v` (bit 0 where the LCS grows) after a token
/// whose positions in this word are `m`; `carry` runs from the lower word to the next one.
#[inline(always)]
fn lcs_step(v: u64, m: u64, carry: &mut bool) -> u64 {
    let (sum, c1) = v.overflowing_add(v & m);
    let (sum, c2) = sum.overflowing_add(u64::from(*carry));
    *carry = c1 || c2;
    sum | (v & !m)
}

/// ROUGE-Lsum (`_summary_level_lcs`); ints (0, 0, 0) when a side has no sentence or no token.
fn rouge_lsum(target: &[&[u32]], prediction: &[&[u32]], vocab: usize, k: &mut Lsum) -> Score {
    let m: usize = target.iter().map(|s| s.len()).sum();
    let n: usize = prediction.iter().map(|s| s.len()).sum();
    if m == 0 || n == 0 {
        return INT_ZERO;
    }
    // Token counts of each side (target, prediction); a hit uses up one of each.
    let counts = &mut k.counts;
    counts.clear();
    counts.resize(vocab, [0, 0]);
    for (side, sentences) in [target, prediction].into_iter().enumerate() {
        for &t in sentences.iter().copied().flatten() {
            if let Some(c) = counts.get_mut(t as usize).and_then(|c| c.get_mut(side)) {
                *c += 1;
            }
        }
    }
    // By target token, whether it is on its sentence's LCS with some prediction sentence (each
    // prediction sentence's masks built once, for every target sentence).
    let marked = &mut k.marked;
    marked.clear();
    marked.resize(m, false);
    for &c in prediction {
        k.marker.set_candidate(c, vocab);
        let mut start = 0;
        for &r in target {
            if let Some(marks) = marked.get_mut(start..start + r.len()) {
                k.marker.mark(r, marks);
            }
            start += r.len();
        }
    }
    // rouge-score's hits: sentence by sentence, position by position, each using up one count of
    // each side.
    let mut hits = 0usize;
    let tokens = target.iter().copied().flatten();
    for (&t, _) in tokens.zip(marked.iter()).filter(|(_, &m)| m) {
        if let Some(c) = counts.get_mut(t as usize).filter(|c| c[0] > 0 && c[1] > 0) {
            hits += 1;
            c[0] -= 1;
            c[1] -= 1;
        }
    }
    Score::new(hits as f64 / n as f64, hits as f64 / m as f64)
}

/// The buffers of `rouge_lsum`.
#[derive(Default)]
struct Lsum {
    marker: LcsMarker,
    /// By token id, its count in the target and in the prediction.
    counts: Vec<[usize; 2]>,
    /// By target token, whether it is on an LCS of its sentence with some prediction sentence.
    marked: Vec<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn one(target: &str, prediction: &str, t: &str) -> Result<Score> {
        let types = [RougeType::from_name(t)?];
        Ok(score(target, prediction, &types, &Options::default())[0])
    }

    #[test]
    fn basic() -> Result<()> {
        let s = one(
            "The quick brown fox jumps over the lazy dog",
            "The quick brown dog jumps on the log.",
            "rouge1",
        )?;
        assert_eq!((s.precision, s.recall), (6.0 / 8.0, 6.0 / 9.0));
        assert_eq!(one("", "", "rougeL")?, INT_ZERO);
        assert!(!one("", "", "rouge2")?.int_zero);
        assert_eq!(one("a b\n\nc", "a c", "rougeLsum")?.recall, 2.0 / 3.0);
        assert!(RougeType::from_name("rouge0").is_err());
        assert!(RougeType::from_name("rouge10").is_err());
        Ok(())
    }

    /// Pseudo-random sequences over a small alphabet (deterministic LCG).
    fn sequences() -> Vec<Vec<u32>> {
        let mut state = 12345u64;
        (0..400)
            .map(|i| {
                let len = (i * 7) % 150;
                let alphabet = 1 + (i % 9) as u64;
                (0..len)
                    .map(|_| {
                        state = state
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        ((state >> 33) % alphabet) as u32 * 1_000_003
                    })
                    .collect()
            })
            .collect()
    }

    /// rouge-score's `lcs_ind` as it computes it: the whole table, then `_backtrack_norec`.
    fn lcs_positions_by_table(r: &[u32], c: &[u32]) -> Vec<bool> {
        let w = c.len() + 1;
        let mut table = vec![0u32; (r.len() + 1) * w];
        for (i, &x) in r.iter().enumerate() {
            for (j, &y) in c.iter().enumerate() {
                table[(i + 1) * w + j + 1] = if x == y {
                    table[i * w + j] + 1
                } else {
                    table[i * w + j + 1].max(table[(i + 1) * w + j])
                };
            }
        }
        let mut marked = vec![false; r.len()];
        let (mut i, mut j) = (r.len(), c.len());
        while i > 0 && j > 0 {
            if r[i - 1] == c[j - 1] {
                marked[i - 1] = true;
                i -= 1;
                j -= 1;
            } else if table[i * w + j - 1] > table[(i - 1) * w + j] {
                j -= 1;
            } else {
                i -= 1;
            }
        }
        marked
    }

    /// The sequences as ids `0..vocab`.
    fn dense(seqs: [&[u32]; 2]) -> ([Vec<u32>; 2], usize) {
        let mut all: Vec<u32> = seqs.iter().flat_map(|s| s.iter()).copied().collect();
        all.sort_unstable();
        all.dedup();
        let ids = |s: &[u32]| -> Vec<u32> {
            s.iter()
                .map(|x| all.binary_search(x).unwrap() as u32)
                .collect()
        };
        ([ids(seqs[0]), ids(seqs[1])], all.len())
    }

    #[test]
    fn bit_parallel_lcs_equals_the_dp_table() {
        let seqs = sequences();
        let marker = &mut LcsMarker::default();
        for pair in seqs.windows(2) {
            let ([a, b], vocab) = dense([&pair[0], &pair[1]]);
            let want = lcs_positions_by_table(&a, &b);
            // Every segment length: all rows kept, a few, and one row at a time.
            for segment in [a.len().max(1), 1, 2, 7, 64] {
                let mut marked = vec![false; a.len()];
                marker.set_candidate(&b, vocab);
                marker.mark_by_segments(&a, segment, &mut marked);
                assert_eq!(marked, want, "segment {segment}");
            }
            let lcs = want.iter().filter(|&&m| m).count();
            let k = &mut Kernels::default();
            assert_eq!(lcs_length(&a, &b, vocab, k), lcs);
            assert_eq!(lcs_length(&b, &a, vocab, k), lcs);
        }
    }

    #[test]
    fn long_sentences_keep_few_table_rows() {
        // 3,000 x 3,000 tokens, walked in segments of 54 rows (about the square root), as
        // `mark` walks a table too large to keep, and with every row kept.
        let seqs = sequences();
        let long = |k: usize| -> Vec<u32> {
            seqs.iter()
                .skip(k)
                .step_by(3)
                .flatten()
                .copied()
                .take(3000)
                .collect()
        };
        let ([a, b], vocab) = dense([&long(0), &long(1)]);
        let want = lcs_positions_by_table(&a, &b);
        let marker = &mut LcsMarker::default();
        let mut marked = vec![false; a.len()];
        marker.set_candidate(&b, vocab);
        marker.mark_by_segments(&a, 54, &mut marked);
        assert_eq!(marked, want);
        marked.fill(false);
        marker.mark(&a, &mut marked);
        assert_eq!(marked, want);
    }

    #[test]
    fn ngram_overlap_equals_counting_windows() {
        let seqs = sequences();
        for pair in seqs.windows(2) {
            let (t, p) = (&pair[0], &pair[1]);
            for n in 1..=9 {
                fn count(s: &[u32], n: usize) -> HashMap<&[u32], usize> {
                    let mut m = HashMap::new();
                    s.windows(n).for_each(|w| *m.entry(w).or_default() += 1);
                    m
                }
                let (ct, cp) = (count(t, n), count(p, n));
                let overlap: usize = ct
                    .iter()
                    .map(|(g, c)| (*c).min(cp.get(g).copied().unwrap_or(0)))
                    .sum();
                let want = Score::new(
                    overlap as f64 / p.len().saturating_sub(n - 1).max(1) as f64,
                    overlap as f64 / t.len().saturating_sub(n - 1).max(1) as f64,
                );
                let types = [RougeType::N(n)];
                assert_eq!(score_ids(t, p, &[], &[], &types)[0], want);
            }
        }
    }
}
