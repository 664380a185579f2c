//! N-gram matching between one hypothesis and its references, shared by nltk BLEU and GLEU.
//!
//! The hypothesis' distinct tokens get ids `0..vocabulary` in order of first occurrence; a longer
//! n-gram gets its id from (id of its prefix, id of its last token), so every n-gram costs one
//! integer hash whatever its order and the ids of one order form a contiguous range. Reference
//! n-grams the hypothesis lacks get `ABSENT` (they can never match). All buffers are kept between
//! segments, so a batch allocates only while segments grow.
//!
//! BLEU's clipped counts of a sentence-sized segment (every list at most 256 tokens) skip the
//! n-gram ids: per hypothesis position, bitmasks of where its n-gram occurs in each list are
//! extended one order at a time with a shift and an AND (see `Ngrams::clipped_by_masks`).

use std::cell::RefCell;
use std::hash::Hash;

use crate::error::{refill, room, Result};
use crate::text::{long_key, short_key};

/// Id of a reference token or n-gram that the hypothesis does not contain.
pub(crate) const ABSENT: u32 = u32::MAX;

/// A free slot of the open-addressing tables.
const FREE: u32 = u32::MAX;

/// Buffers above this many elements are freed after use rather than kept for the next segment.
const KEEP: usize = 1 << 16;

/// Hypotheses of up to this many tokens get a token table with room for all of them at once; a
/// longer one's table starts at this size and grows with its vocabulary (a 15-million-token text of
/// 50,000 distinct words needs 4 MiB, not 1 GiB).
const TOKENS_AT_ONCE: usize = 1 << 16;

/// The largest dense (prefix, token) table: clearing it must stay cheaper than hashing.
const DENSE_CELLS: usize = 4096;

/// Segments whose hypothesis and references each fit in this many 64-bit words of positions are
/// matched with position bitmasks (see `Ngrams::clipped_by_masks`).
const MASK_WORDS: usize = 4;

/// log2 of a table size (a power of two) with room for `n` entries at load factor 1/2 or below.
fn table_bits(n: usize) -> u32 {
    (2 * n).max(8).next_power_of_two().trailing_zeros()
}

/// Fibonacci hashing of (id of the prefix, id of the last token) to a slot of a `2^bits` table.
fn slot_of(key: u64, bits: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

/// (id of the prefix, id of the last token) as one table key.
fn key(prefix: u32, token: u32) -> u64 {
    u64::from(prefix) << 32 | u64::from(token)
}

/// The key of `prefix + token`, or `None` when either is `ABSENT` (no such hypothesis n-gram).
fn k_if_present(prefix: u32, token: u32) -> Option<u64> {
    (prefix != ABSENT && token != ABSENT).then(|| key(prefix, token))
}

/// The id stored under `key` in an n-gram table with room for one more entry; `new` (stored)
/// when the key is not there yet.
fn insert_slot(slots: &mut [Slot], key: u64, bits: u32, new: u32) -> u32 {
    let mask = slots.len().wrapping_sub(1);
    let mut slot = slot_of(key, bits);
    loop {
        match slots.get_mut(slot) {
            Some(s) if s.id == FREE => {
                *s = Slot { key, id: new };
                return new;
            }
            Some(s) if s.key == key => return s.id,
            Some(_) => slot = (slot + 1) & mask,
            None => return ABSENT,
        }
    }
}

/// The id stored under `key` in an n-gram table, else `ABSENT`.
fn find(slots: &[Slot], key: Option<u64>, bits: u32, mask: usize) -> u32 {
    let Some(k) = key else {
        return ABSENT;
    };
    let mut slot = slot_of(k, bits);
    loop {
        match slots.get(slot) {
            Some(s) if s.id == FREE => return ABSENT,
            Some(s) if s.key == k => return s.id,
            Some(_) => slot = (slot + 1) & mask,
            None => return ABSENT,
        }
    }
}

#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    id: u32,
}

const FREE_SLOT: Slot = Slot { key: 0, id: FREE };

/// The largest n-gram order a metric accepts (chrF's orders, sacrebleu BLEU's `max_ngram_order`):
/// far beyond any use, it keeps the per-row statistics vectors small.
pub const MAX_ORDER: usize = 1000;

/// A token type n-grams are counted over: any `Eq + Hash` value, numbered by hashing, or `Id`.
pub trait Token: Sized {
    /// Numbers the tokens of a hypothesis and its references into `out`.
    fn number<'a>(
        references: impl Iterator<Item = &'a [Self]> + Clone,
        hypothesis: &[Self],
        out: &mut Numbering,
    ) -> Result<()>
    where
        Self: 'a;

    /// The list as the ids of a numbered segment (`Id`), if it is one.
    fn ids(_list: &[Self]) -> Option<&[Id]> {
        None
    }
}

/// A token numbered by hashing. Most tokens are short: with a [`short_key`] they are numbered
/// without hashing or comparing them.
pub trait HashToken: Eq + Hash {
    /// The token's `short_key`, if it has at most 7 bytes (equal keys mean equal tokens).
    fn short_key(&self) -> Option<u64>;
}

impl HashToken for &str {
    fn short_key(&self) -> Option<u64> {
        short_key(self.as_bytes())
    }
}

impl HashToken for &[u8] {
    fn short_key(&self) -> Option<u64> {
        short_key(self)
    }
}

impl HashToken for String {
    fn short_key(&self) -> Option<u64> {
        short_key(self.as_bytes())
    }
}

impl<T: HashToken> Token for T {
    fn number<'a>(
        references: impl Iterator<Item = &'a [T]> + Clone,
        hypothesis: &[T],
        out: &mut Numbering,
    ) -> Result<()>
    where
        T: 'a,
    {
        out.hash(references, hypothesis)
    }
}

/// A token already numbered for its segment (by `number_segment`): the hypothesis' distinct
/// tokens are `0..` in order of first occurrence, a reference token gets the id of the equal
/// hypothesis token, else `ABSENT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Id(u32);

impl Token for Id {
    fn ids(list: &[Id]) -> Option<&[Id]> {
        Some(list)
    }

    fn number<'a>(
        references: impl Iterator<Item = &'a [Id]> + Clone,
        hypothesis: &[Id],
        out: &mut Numbering,
    ) -> Result<()> {
        out.reserve(references.clone(), hypothesis.len())?;
        out.hyp.extend(hypothesis.iter().map(|id| id.0));
        out.vocabulary = out
            .hyp
            .iter()
            .map(|&id| id.saturating_add(1))
            .max()
            .unwrap_or(0);
        out.refs.clear();
        out.ref_starts.clear();
        for reference in references {
            out.ref_starts.push(out.refs.len());
            let vocabulary = out.vocabulary;
            out.refs.extend(
                reference
                    .iter()
                    .map(|id| if id.0 < vocabulary { id.0 } else { ABSENT }),
            );
        }
        out.ref_starts.push(out.refs.len());
        Ok(())
    }
}

/// The ids of a segment's tokens (see `Id`), given each token's key: a `short_key`, exact, or a
/// hash (`long_key`), which needs a comparison of the tokens when it is found. The hypothesis'
/// tokens come first, in order (`hyp_id`), then the references' (`ref_id`).
#[derive(Default)]
pub struct TokenTable {
    hasher: ahash::RandomState,
    /// A token's key, its id and the position of its first occurrence in the hypothesis (`id` is
    /// `FREE` in an empty slot).
    slots: Vec<TokenSlot>,
    bits: u32,
    /// The number of distinct hypothesis tokens so far.
    vocabulary: u32,
}

#[derive(Clone, Copy)]
struct TokenSlot {
    key: u64,
    id: u32,
    first: u32,
}

const FREE_TOKEN: TokenSlot = TokenSlot {
    key: 0,
    id: FREE,
    first: 0,
};

impl TokenTable {
    /// Empties the table for a hypothesis of `hyp_len` tokens.
    pub fn start(&mut self, hyp_len: usize) -> Result<()> {
        // Load 1/4 or below: a probe rarely continues, so its loop exit is predictable.
        self.bits = table_bits(2 * hyp_len.min(TOKENS_AT_ONCE));
        self.vocabulary = 0;
        refill(
            &mut self.slots,
            1 << self.bits,
            FREE_TOKEN,
            "the token table",
        )
    }

    /// Makes room for the next new hypothesis token: called after each `hyp_id`, it doubles the
    /// table when its load passes 1/4 (never for a hypothesis of up to `TOKENS_AT_ONCE` tokens).
    #[inline(always)]
    pub fn make_room(&mut self) -> Result<()> {
        if 4 * (self.vocabulary as usize + 1) <= self.slots.len() {
            return Ok(());
        }
        let mut slots = Vec::new();
        refill(
            &mut slots,
            2 * self.slots.len(),
            FREE_TOKEN,
            "the token table",
        )?;
        let old = std::mem::replace(&mut self.slots, slots);
        self.bits += 1;
        let mask = self.slots.len() - 1;
        for entry in old.into_iter().filter(|e| e.id != FREE) {
            let mut slot = slot_of(entry.key, self.bits);
            while self.slots.get(slot).is_some_and(|s| s.id != FREE) {
                slot = (slot + 1) & mask;
            }
            if let Some(s) = self.slots.get_mut(slot) {
                *s = entry;
            }
        }
        Ok(())
    }

    /// The number of distinct hypothesis tokens so far.
    pub fn vocabulary(&self) -> u32 {
        self.vocabulary
    }

    /// A token's key, and whether equal keys mean equal tokens.
    #[inline(always)]
    pub fn key_of<T: HashToken>(&self, token: &T) -> (u64, bool) {
        match token.short_key() {
            Some(key) => (key, true),
            None => (long_key(self.hasher.hash_one(token)), false),
        }
    }

    /// The slot of the token whose key is `(key, exact)`, or the free slot where it belongs;
    /// `same(p)` says whether the token equals the hypothesis token at `p` (asked only of inexact
    /// keys).
    #[inline(always)]
    fn probe(&self, (key, exact): (u64, bool), same: impl Fn(u32) -> bool) -> Option<usize> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut slot = slot_of(key, self.bits);
        loop {
            let entry = self.slots.get(slot)?;
            let equal = entry.key == key;
            // `|` and `&`: whether the token is new is data, not a pattern, so no branch on it.
            if (entry.id == FREE) | (equal & exact) || (equal && same(entry.first)) {
                return Some(slot);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The id of hypothesis token `position` (the next one), whose key is `key` (`same` as for
    /// `probe`).
    #[inline(always)]
    pub fn hyp_id(&mut self, position: u32, key: (u64, bool), same: impl Fn(u32) -> bool) -> Id {
        let vocabulary = self.vocabulary;
        let slot = self.probe(key, same);
        let Some(entry) = slot.and_then(|slot| self.slots.get_mut(slot)) else {
            return Id(ABSENT);
        };
        let free = entry.id == FREE;
        let id = if free { vocabulary } else { entry.id };
        let first = if free { position } else { entry.first };
        *entry = TokenSlot {
            key: key.0,
            id,
            first,
        };
        self.vocabulary += u32::from(free);
        Id(id)
    }

    /// The id of a reference token whose key is `key` (`ABSENT` if the hypothesis lacks it; `same`
    /// as for `probe`).
    #[inline(always)]
    pub fn ref_id(&self, key: (u64, bool), same: impl Fn(u32) -> bool) -> Id {
        // A free slot's id is FREE, which is ABSENT.
        let slot = self.probe(key, same);
        Id(slot
            .and_then(|slot| self.slots.get(slot))
            .map_or(ABSENT, |entry| entry.id))
    }
}

/// A segment's tokens as ids (see `Id`): the hypothesis' and all references' back to back
/// (`ref_starts` has one start per reference plus the end).
#[derive(Default)]
pub struct Numbering {
    table: TokenTable,
    hyp: Vec<u32>,
    refs: Vec<u32>,
    ref_starts: Vec<usize>,
    /// The number of distinct hypothesis tokens.
    vocabulary: u32,
}

impl Numbering {
    /// Empties the lists, with room for a segment of these references and a hypothesis of
    /// `hyp_len` tokens (an error if there is not the memory for them).
    fn reserve<'a, T: 'a>(
        &mut self,
        references: impl Iterator<Item = &'a [T]>,
        hyp_len: usize,
    ) -> Result<()> {
        self.hyp.clear();
        self.refs.clear();
        self.ref_starts.clear();
        let (mut count, mut tokens) = (1usize, 0usize);
        for reference in references {
            count += 1;
            tokens = tokens.saturating_add(reference.len());
        }
        room(&mut self.hyp, hyp_len, "the hypothesis' token ids")?;
        room(&mut self.refs, tokens, "the references' token ids")?;
        room(&mut self.ref_starts, count, "the references' starts")
    }

    /// Numbers the tokens through a hash table of the hypothesis' tokens.
    fn hash<'a, T: HashToken + 'a>(
        &mut self,
        references: impl Iterator<Item = &'a [T]> + Clone,
        hypothesis: &[T],
    ) -> Result<()> {
        self.reserve(references.clone(), hypothesis.len())?;
        let table = &mut self.table;
        table.start(hypothesis.len())?;
        let same = |p: u32, token: &T| hypothesis.get(p as usize) == Some(token);
        for (i, token) in hypothesis.iter().enumerate() {
            let key = table.key_of(token);
            self.hyp
                .push(table.hyp_id(i as u32, key, |p| same(p, token)).0);
            table.make_room()?;
        }
        self.vocabulary = table.vocabulary();
        for reference in references {
            self.ref_starts.push(self.refs.len());
            for token in reference {
                self.refs
                    .push(table.ref_id(table.key_of(token), |p| same(p, token)).0);
            }
        }
        self.ref_starts.push(self.refs.len());
        Ok(())
    }
}

thread_local! {
    static NGRAMS: RefCell<Ngrams> = RefCell::new(Ngrams::default());
}

/// Runs `f` with this thread's n-gram buffers (fresh ones if they are in use).
pub(crate) fn with_ngrams<O>(f: impl FnOnce(&mut Ngrams) -> O) -> O {
    NGRAMS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut ngrams) => {
            let out = f(&mut ngrams);
            let largest = [
                ngrams.slots.len(),
                ngrams.numbering.refs.capacity(),
                ngrams.token_masks.capacity(),
                ngrams.gram_masks.capacity(),
            ];
            if largest.into_iter().max().unwrap_or(0) > KEEP {
                *ngrams = Ngrams::default();
            }
            out
        }
        Err(_) => f(&mut Ngrams::default()),
    })
}

/// Reusable buffers for the n-grams of one segment at a time.
///
/// For each order it keeps the ids of the hypothesis and reference n-grams by start position, the
/// hypothesis count of each n-gram, and per reference the matches `Σ min(hypothesis count,
/// reference count)`. Only n-grams that can still match get ids: a hypothesis n-gram whose prefix
/// occurs in no reference cannot occur in one either, so it is marked `ABSENT` instead of stored.
pub(crate) struct Ngrams {
    numbering: Numbering,
    /// N-gram table of `2^bits` slots, and the dense alternative for one order (by prefix id minus
    /// the order's first id, times the vocabulary, plus token id).
    slots: Vec<Slot>,
    dense: Vec<u32>,
    bits: u32,
    grams: usize,
    /// Whether `slots` still holds another segment's n-grams, and the size to clear it to.
    stale: bool,
    expected_grams: usize,
    /// Ids of the current order's n-grams by start position (each reference keeps its start).
    hyp: Vec<u32>,
    refs: Vec<u32>,
    order: usize,
    /// The number of distinct hypothesis tokens, the ids handed out so far, and the first id of the
    /// current order.
    vocabulary: u32,
    next_id: u32,
    lo: u32,
    /// By id minus `lo`: the hypothesis count, and the largest `min(hypothesis count, reference
    /// count)` over the references (`used` is the same for one reference).
    hyp_counts: Vec<u32>,
    best: Vec<u32>,
    used: Vec<u32>,
    /// This order's matches with each reference.
    matches: Vec<u64>,
    /// Bitmask kernel: by list (the hypothesis, then each reference) and token id, the positions
    /// of the token in the list; by list and hypothesis position, where the current order's
    /// n-gram starting there occurs in the list.
    token_masks: Vec<u64>,
    gram_masks: Vec<u64>,
    one_word: Box<OneWordMasks>,
}

impl Default for Ngrams {
    fn default() -> Self {
        Ngrams {
            numbering: Numbering::default(),
            slots: Vec::new(),
            dense: Vec::new(),
            bits: 0,
            grams: 0,
            stale: true,
            expected_grams: 0,
            hyp: Vec::new(),
            refs: Vec::new(),
            order: 0,
            vocabulary: 0,
            next_id: 0,
            lo: 0,
            hyp_counts: Vec::new(),
            best: Vec::new(),
            used: Vec::new(),
            matches: Vec::new(),
            token_masks: Vec::new(),
            gram_masks: Vec::new(),
            one_word: Box::default(),
        }
    }
}

impl Ngrams {
    /// Numbers the tokens of a segment (see `Token`); the current order becomes 1.
    /// `expected_grams` sizes the n-gram table (it grows when needed).
    pub(crate) fn start<T: Token, R: AsRef<[T]>>(
        &mut self,
        references: &[R],
        hypothesis: &[T],
        expected_grams: usize,
    ) -> Result<()> {
        self.number(references, hypothesis)?;
        self.start_numbered(expected_grams)
    }

    fn number<T: Token, R: AsRef<[T]>>(
        &mut self,
        references: &[R],
        hypothesis: &[T],
    ) -> Result<()> {
        T::number(
            references.iter().map(AsRef::as_ref),
            hypothesis,
            &mut self.numbering,
        )
    }

    /// `start` once the segment is numbered. Every buffer a segment fills gets its room here, so
    /// that a segment too large for the memory at hand is an error before any work, not an abort.
    fn start_numbered(&mut self, expected_grams: usize) -> Result<()> {
        let numbering = &self.numbering;
        let (hyp_len, refs_len) = (numbering.hyp.len(), numbering.refs.len());
        refill(
            &mut self.hyp_counts,
            numbering.vocabulary as usize,
            0,
            "the n-gram counts",
        )?;
        // `advance` pushes a count per new n-gram, and `match_references` sizes these by this
        // order's n-grams: never more than the hypothesis' tokens.
        room(&mut self.hyp_counts, hyp_len, "the n-gram counts")?;
        for (buffer, what) in [
            (&mut self.best, "the n-gram matches"),
            (&mut self.used, "the n-gram matches"),
        ] {
            buffer.clear();
            room(buffer, hyp_len, what)?;
        }
        for (buffer, len) in [(&mut self.hyp, hyp_len), (&mut self.refs, refs_len)] {
            buffer.clear();
            room(buffer, len, "the n-gram ids")?;
        }
        room(&mut self.matches, numbering.ref_starts.len(), "the matches")?;
        for &id in &numbering.hyp {
            if let Some(c) = self.hyp_counts.get_mut(id as usize) {
                *c += 1;
            }
        }
        // Cleared when first used: most segments only need the dense tables.
        self.stale = true;
        self.expected_grams = expected_grams;
        self.vocabulary = numbering.vocabulary;
        self.next_id = self.vocabulary;
        self.lo = 0;
        self.order = 1;
        self.hyp.extend_from_slice(&numbering.hyp);
        self.refs.extend_from_slice(&numbering.refs);
        self.match_references();
        Ok(())
    }

    /// nltk `modified_precision(references, hypothesis, n)` for n = 1..=max_order, each as its raw
    /// (numerator, denominator) passed to `each(n, numerator, denominator)`: hypothesis n-gram
    /// counts clipped by their maximum count in any one reference.
    pub(crate) fn clipped_counts<T: Token, R: AsRef<[T]>>(
        &mut self,
        references: &[R],
        hypothesis: &[T],
        max_order: usize,
        mut each: impl FnMut(usize, u64, u64),
    ) -> Result<()> {
        let longest = references
            .iter()
            .map(|r| r.as_ref().len())
            .fold(hypothesis.len(), usize::max);
        let words = longest.div_ceil(64);
        // One reference and one word of positions: the stack kernel, on the ids as they are if the
        // segment is numbered already.
        let one_word = references.len() == 1 && words <= 1;
        if let (true, [reference]) = (one_word, references) {
            if let (Some(hyp), Some(reference)) = (T::ids(hypothesis), T::ids(reference.as_ref())) {
                clipped_in_one_word(
                    &mut self.one_word,
                    hyp,
                    reference,
                    |id| id.0,
                    max_order,
                    each,
                );
                return Ok(());
            }
        }
        self.number(references, hypothesis)?;
        if one_word {
            let numbering = &self.numbering;
            clipped_in_one_word(
                &mut self.one_word,
                &numbering.hyp,
                &numbering.refs,
                |id| id,
                max_order,
                each,
            );
            return Ok(());
        }
        // Masks take (1 + references) * hypothesis length * words: many long references hash.
        let masks = (1 + references.len()) * hypothesis.len() * words;
        match words {
            _ if 2 * masks > KEEP => {}
            0 | 1 => {
                self.clipped_by_masks::<1>(max_order, each);
                return Ok(());
            }
            2 => {
                self.clipped_by_masks::<2>(max_order, each);
                return Ok(());
            }
            words if words <= MASK_WORDS => {
                self.clipped_by_masks::<MASK_WORDS>(max_order, each);
                return Ok(());
            }
            _ => {}
        }
        self.start_numbered(hypothesis.len() * max_order.saturating_sub(1))?;
        for n in 1..=max_order {
            if n > 1 {
                self.advance()?;
            }
            if self.hyp.is_empty() {
                no_matches(n, max_order, hypothesis.len(), each);
                return Ok(());
            }
            each(n, self.clipped_matches(), self.hyp.len() as u64);
        }
        Ok(())
    }

    /// `clipped_counts` for a numbered segment whose lists have at most `64 * W` tokens, by
    /// position bitmasks: the n-gram starting at hypothesis position i occurs at position j of a
    /// list when its first token does and the (n-1)-gram starting at i + 1 occurs at j + 1. Its
    /// count in a list is then a popcount, and it is counted once, at its first occurrence.
    fn clipped_by_masks<const W: usize>(
        &mut self,
        max_order: usize,
        each: impl FnMut(usize, u64, u64),
    ) {
        let numbering = &self.numbering;
        let hyp = numbering.hyp.as_slice();
        let vocabulary = numbering.vocabulary as usize;
        let lists = 1 + self.references();
        self.token_masks.clear();
        self.token_masks.resize(lists * vocabulary * W, 0);
        let (token_masks, _) = self.token_masks.as_chunks_mut::<W>();
        let list_tokens = std::iter::once(hyp).chain(
            numbering
                .ref_starts
                .windows(2)
                .map(|w| numbering.refs.get(w[0]..w[1]).unwrap_or(&[])),
        );
        for (positions, tokens) in token_masks
            .chunks_exact_mut(vocabulary.max(1))
            .zip(list_tokens)
        {
            for (p, &token) in tokens.iter().enumerate() {
                // Reference tokens the hypothesis lacks are ABSENT: no mask.
                if let Some(word) = positions
                    .get_mut(token as usize)
                    .and_then(|m| m.get_mut(p / 64))
                {
                    *word |= 1 << (p % 64);
                }
            }
        }
        let len = hyp.len();
        // By list: where the token at each hypothesis position occurs (`first`), and where the
        // current order's n-gram starting there occurs (`grams`).
        self.gram_masks.clear();
        self.gram_masks.resize(2 * lists * len * W, 0);
        let (gram_masks, _) = self.gram_masks.as_chunks_mut::<W>();
        let (first, grams) = gram_masks.split_at_mut(lists * len);
        let step = len.max(1);
        for (at, positions) in first
            .chunks_exact_mut(step)
            .zip(token_masks.chunks_exact(vocabulary.max(1)))
        {
            for (f, &token) in at.iter_mut().zip(hyp) {
                *f = positions.get(token as usize).copied().unwrap_or([0; W]);
            }
        }
        grams.copy_from_slice(first);
        let single = lists == 2;
        by_order(len, max_order, each, |n, count| {
            if n > 1 {
                for (at, grams) in first.chunks_exact(step).zip(grams.chunks_exact_mut(step)) {
                    for i in 0..count {
                        if let (Some(&f), Some(&next)) = (at.get(i), grams.get(i + 1)) {
                            if let Some(g) = grams.get_mut(i) {
                                *g = and_shifted(f, next);
                            }
                        }
                    }
                }
            }
            let (own, references) = grams.split_at(step.min(grams.len()));
            let mut clipped = 0;
            for (i, in_hyp) in own.iter().take(count).enumerate() {
                if only_at(in_hyp, i) {
                    // Most n-grams occur once in the hypothesis: clipped to 1 if in a reference.
                    let in_refs = if single {
                        references.get(i).is_some_and(|r| r.iter().any(|&w| w != 0))
                    } else {
                        let at_i = references.iter().skip(i).step_by(step);
                        at_i.flatten().any(|&w| w != 0)
                    };
                    clipped += u64::from(in_refs);
                    continue;
                }
                if !first_at(in_hyp, i) {
                    continue;
                }
                let in_refs = if single {
                    references.get(i).map_or(0, popcount)
                } else {
                    let at_i = references.iter().skip(i).step_by(step);
                    at_i.map(popcount).max().unwrap_or(0)
                };
                clipped += u64::from(popcount(in_hyp).min(in_refs));
            }
            clipped
        });
    }

    /// Makes the hash table hold this segment's n-grams only, with room for `more` new ones.
    fn reserve_grams(&mut self, more: usize) -> Result<()> {
        if self.stale {
            // The table grows when needed: an estimate for long inputs must not allocate up front.
            let expected = self.expected_grams.min(KEEP / 2).max(more);
            self.reset_grams(table_bits(expected))?;
            self.stale = false;
        } else if 2 * (self.grams + more) > self.slots.len() {
            self.grow(self.grams + more)?;
        }
        Ok(())
    }

    fn reset_grams(&mut self, bits: u32) -> Result<()> {
        self.bits = bits;
        self.grams = 0;
        refill(&mut self.slots, 1 << bits, FREE_SLOT, "the n-gram table")
    }

    /// The hypothesis' token ids.
    pub(crate) fn hyp_tokens(&self) -> &[u32] {
        &self.numbering.hyp
    }

    /// The number of references.
    pub(crate) fn references(&self) -> usize {
        self.numbering.ref_starts.len().saturating_sub(1)
    }

    /// The token ids of reference `r`.
    pub(crate) fn ref_tokens(&self, r: usize) -> &[u32] {
        match (
            self.numbering.ref_starts.get(r),
            self.numbering.ref_starts.get(r + 1),
        ) {
            (Some(&s), Some(&e)) => self.numbering.refs.get(s..e).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The id of `prefix + token` for the hypothesis, a new one for an n-gram not seen yet.
    pub(crate) fn insert(&mut self, prefix: u32, token: u32) -> Result<u32> {
        self.reserve_grams(1)?;
        let new = self.next_id;
        let id = insert_slot(&mut self.slots, key(prefix, token), self.bits, new);
        if id == new {
            self.grams += 1;
            self.next_id += 1;
        }
        Ok(id)
    }

    /// The id of `prefix + token` if the hypothesis has that n-gram, else `ABSENT`.
    pub(crate) fn get(&self, prefix: u32, token: u32) -> u32 {
        if self.stale {
            return ABSENT;
        }
        find(
            &self.slots,
            k_if_present(prefix, token),
            self.bits,
            self.slots.len().wrapping_sub(1),
        )
    }

    /// Makes room for `grams` n-grams (the table as it was if there is not the memory).
    fn grow(&mut self, grams: usize) -> Result<()> {
        let bits = table_bits(grams).max(self.bits + 1);
        let mut slots = Vec::new();
        refill(&mut slots, 1 << bits, FREE_SLOT, "the n-gram table")?;
        let old = std::mem::replace(&mut self.slots, slots);
        self.bits = bits;
        self.grams = 0;
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|s| s.id != FREE) {
            let mut slot = slot_of(s.key, self.bits);
            while self.slots[slot].id != FREE {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = s;
            self.grams += 1;
        }
        Ok(())
    }

    /// Moves to the next order: the n-grams one token longer, and their matches.
    pub(crate) fn advance(&mut self) -> Result<()> {
        let n = self.order;
        self.order = n + 1;
        let lo = self.lo;
        let prefixes = (self.next_id - lo) as usize;
        let width = self.vocabulary as usize;
        self.lo = self.next_id;
        let count = self.hyp.len().saturating_sub(1);
        self.hyp.truncate(count);
        // (prefix, token) pairs index a dense table when there are few of them.
        let dense = prefixes * width <= DENSE_CELLS;
        let cell = move |prefix: u32, token: u32| -> Option<usize> {
            let p = prefix.checked_sub(lo)? as usize;
            (p < prefixes && (token as usize) < width).then_some(p * width + token as usize)
        };
        // Room for the n-grams whose prefix some reference has: only those get an id. Counted
        // first in a long hypothesis, whose table would otherwise be sized by its length.
        let live = |hyp: &[u32], best: &[u32]| {
            let live = |id: &&u32| {
                best.get(id.wrapping_sub(lo) as usize)
                    .is_some_and(|&b| b > 0)
            };
            hyp.iter().take(count).filter(live).count()
        };
        if dense {
            self.dense.clear();
            self.dense.resize(prefixes * width, FREE);
        } else if count > KEEP {
            self.reserve_grams(live(&self.hyp, &self.best))?;
        } else {
            self.reserve_grams(count)?;
        }
        let (bits, mask) = (self.bits, self.slots.len().wrapping_sub(1));
        self.hyp_counts.clear();
        let next_tokens = self.numbering.hyp.get(n..).unwrap_or(&[]);
        for (id, &token) in self.hyp.iter_mut().zip(next_tokens) {
            // A prefix no reference has: no longer n-gram with it can match.
            if self
                .best
                .get(id.wrapping_sub(lo) as usize)
                .is_none_or(|&b| b == 0)
            {
                *id = ABSENT;
                continue;
            }
            let new = self.next_id;
            *id = if dense {
                match cell(*id, token).and_then(|c| self.dense.get_mut(c)) {
                    Some(c) if *c == FREE => {
                        *c = new;
                        new
                    }
                    Some(c) => *c,
                    None => ABSENT,
                }
            } else {
                let id = insert_slot(&mut self.slots, key(*id, token), bits, new);
                self.grams += usize::from(id == new);
                id
            };
            if *id == new {
                self.next_id += 1;
                self.hyp_counts.push(0);
            }
            if let Some(c) = self.hyp_counts.get_mut(id.wrapping_sub(self.lo) as usize) {
                *c += 1;
            }
        }
        for w in self.numbering.ref_starts.windows(2) {
            let (start, end) = (w[0], w[1]);
            // This order's n-grams of the reference start at `start..end - n`.
            let len = (end - start).saturating_sub(n);
            let ids = self.refs.get_mut(start..start + len).unwrap_or(&mut []);
            let next_tokens = self.numbering.refs.get(start + n..).unwrap_or(&[]);
            for (id, &token) in ids.iter_mut().zip(next_tokens) {
                *id = if dense {
                    cell(*id, token)
                        .and_then(|c| self.dense.get(c).copied())
                        .filter(|&c| c != FREE)
                        .unwrap_or(ABSENT)
                } else {
                    find(&self.slots, k_if_present(*id, token), bits, mask)
                };
            }
        }
        self.match_references();
        Ok(())
    }

    /// Matches each reference's current-order n-grams against the hypothesis counts.
    fn match_references(&mut self) {
        let size = (self.next_id - self.lo) as usize;
        let lo = self.lo;
        let single = self.references() == 1;
        self.matches.clear();
        self.best.clear();
        self.best.resize(size, 0);
        for w in self.numbering.ref_starts.windows(2) {
            let (start, end) = (w[0], w[1]);
            let len = (end - start).saturating_sub(self.order - 1);
            let used = if single {
                &mut self.best
            } else {
                self.used.clear();
                self.used.resize(size, 0);
                &mut self.used
            };
            let mut matches = 0;
            for &id in self.refs.get(start..start + len).unwrap_or(&[]) {
                let j = id.wrapping_sub(lo) as usize;
                if let (Some(u), Some(&h)) = (used.get_mut(j), self.hyp_counts.get(j)) {
                    if *u < h {
                        *u += 1;
                        matches += 1;
                    }
                }
            }
            self.matches.push(matches);
            if !single {
                for (b, &u) in self.best.iter_mut().zip(&self.used) {
                    *b = (*b).max(u);
                }
            }
        }
    }

    /// nltk `modified_precision` numerator of the current order: each hypothesis n-gram count
    /// clipped by its largest count in any one reference.
    fn clipped_matches(&self) -> u64 {
        match self.matches.as_slice() {
            [one] => *one,
            _ => self.best.iter().map(|&b| u64::from(b)).sum(),
        }
    }

    /// Adds to `out[r]` the current order's matches with each reference r (multiset intersection
    /// of the n-grams).
    pub(crate) fn add_matches(&self, out: &mut [u128]) {
        for (total, &m) in out.iter_mut().zip(&self.matches) {
            *total += u128::from(m);
        }
    }
}

/// `Ngrams::clipped_by_masks` for the most common segments, numbered: one reference, and lists
/// of at most 64 tokens, so that each mask is one word, and all masks fit in a few fixed arrays.
fn clipped_in_one_word<T: Copy>(
    masks: &mut OneWordMasks,
    hyp: &[T],
    reference: &[T],
    id: impl Fn(T) -> u32,
    max_order: usize,
    each: impl FnMut(usize, u64, u64),
) {
    let len = hyp.len().min(64);
    // Hypothesis ids are `0..vocabulary` (below 64, as the hypothesis has at most 64 tokens);
    // only those entries are cleared, and any larger id counts as absent from the hypothesis.
    let vocabulary = hyp
        .iter()
        .map(|&t| id(t) as usize + 1)
        .max()
        .unwrap_or(0)
        .min(64);
    // By token id: its positions in each list.
    for (list, tokens) in masks.positions.iter_mut().zip([hyp, reference]) {
        let list = &mut list[..vocabulary];
        list.fill(0);
        for (p, &token) in tokens.iter().enumerate() {
            // Reference tokens the hypothesis lacks are ABSENT: no mask.
            if let Some(mask) = list.get_mut(id(token) as usize) {
                *mask |= 1 << (p % 64);
            }
        }
    }
    // By hypothesis position: where its token occurs in the hypothesis (`first_in_hyp`) and in
    // the reference; `in_hyp` and `in_ref` become where the current order's n-gram starting
    // there occurs. Entry `len` stays empty: position i + 1 is read for every i below `len`.
    let OneWordMasks {
        positions: [hyp_positions, ref_positions],
        first_in_hyp,
        first_in_ref,
        in_hyp,
        in_ref,
    } = masks;
    for (i, &token) in hyp.iter().take(len).enumerate() {
        first_in_hyp[i] = hyp_positions.get(id(token) as usize).copied().unwrap_or(0);
        first_in_ref[i] = ref_positions.get(id(token) as usize).copied().unwrap_or(0);
        in_hyp[i] = first_in_hyp[i];
        in_ref[i] = first_in_ref[i];
    }
    (in_hyp[len], in_ref[len]) = (0, 0);
    // The clipped count of the n-gram at position i, where it occurs in each list: counted once, at
    // its first occurrence. Without branches (whether a token repeats is data, and at order 1 it
    // often does): counting bits is one instruction (see .cargo/config.toml).
    let clipped_at = |i: usize, hyp: u64, reference: u64| {
        let first = hyp & ((1u64 << i) - 1) == 0;
        u64::from(first) * u64::from(hyp.count_ones().min(reference.count_ones()))
    };
    by_order(len, max_order, each, |n, count| {
        let count = count.min(64);
        let mut clipped = 0;
        for i in 0..count {
            if n > 1 {
                // One order up, in place: the first token's positions that the shorter n-gram at
                // i + 1 (not updated yet) follows.
                in_hyp[i] = first_in_hyp[i] & in_hyp[i + 1] >> 1;
                in_ref[i] = first_in_ref[i] & in_ref[i + 1] >> 1;
            }
            clipped += clipped_at(i, in_hyp[i], in_ref[i]);
        }
        clipped
    });
}

/// The masks of `clipped_in_one_word`, kept from segment to segment so that a segment clears and
/// copies only the entries it uses, not 3 KB of arrays.
pub(crate) struct OneWordMasks {
    positions: [[u64; 64]; 2],
    first_in_hyp: [u64; 64],
    first_in_ref: [u64; 64],
    in_hyp: [u64; 65],
    in_ref: [u64; 65],
}

impl Default for OneWordMasks {
    fn default() -> Self {
        OneWordMasks {
            positions: [[0; 64]; 2],
            first_in_hyp: [0; 64],
            first_in_ref: [0; 64],
            in_hyp: [0; 65],
            in_ref: [0; 65],
        }
    }
}

/// `each(n, clipped_of(n, count), count)` for the orders n = 1..=max_order of a hypothesis of `len`
/// tokens (`count`: its number of n-grams), in order: `clipped_of` is called for each order in
/// turn until an order has no n-gram, or none that matches (no longer one can then match).
fn by_order(
    len: usize,
    max_order: usize,
    mut each: impl FnMut(usize, u64, u64),
    mut clipped_of: impl FnMut(usize, usize) -> u64,
) {
    for n in 1..=max_order {
        let count = len.saturating_sub(n - 1);
        if count == 0 {
            no_matches(n, max_order, len, each);
            return;
        }
        let clipped = clipped_of(n, count);
        each(n, clipped, count as u64);
        if clipped == 0 {
            no_matches(n + 1, max_order, len, each);
            return;
        }
    }
}

/// `each(m, 0, count)` for the orders `n..=max_order`, none of whose n-grams of a hypothesis of
/// `len` tokens occurs in a reference: `count` is nltk's `max(1, number of n-grams)`.
fn no_matches(n: usize, max_order: usize, len: usize, mut each: impl FnMut(usize, u64, u64)) {
    for m in n..=max_order {
        each(m, 0, len.saturating_sub(m - 1).max(1) as u64);
    }
}

/// `first & (next >> 1)` over `64 * W`-bit position sets: where an n-gram whose first token occurs
/// at `first` and whose rest occurs at `next` (one position later) occurs.
fn and_shifted<const W: usize>(first: [u64; W], next: [u64; W]) -> [u64; W] {
    let mut out = first;
    for (k, (o, &w)) in out.iter_mut().zip(&next).enumerate() {
        let carry = next.get(k + 1).map_or(0, |w| w << 63);
        *o &= w >> 1 | carry;
    }
    out
}

/// Whether no position below `i` is in `set`.
fn first_at<const W: usize>(set: &[u64; W], i: usize) -> bool {
    let (word, bit) = (i / 64, i % 64);
    set.iter().take(word).all(|&w| w == 0)
        && set.get(word).is_none_or(|&w| w & ((1u64 << bit) - 1) == 0)
}

/// Whether `set` is exactly position `i`.
fn only_at<const W: usize>(set: &[u64; W], i: usize) -> bool {
    let (word, bit) = (i / 64, i % 64);
    set.iter()
        .enumerate()
        .all(|(k, &w)| w == if k == word { 1 << bit } else { 0 })
}

fn popcount<const W: usize>(set: &[u64; W]) -> u32 {
    set.iter().map(|w| w.count_ones()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Clipped counts by brute force over explicit n-gram lists.
    fn brute(refs: &[Vec<u16>], hyp: &[u16], n: usize) -> u64 {
        let grams = |s: &[u16]| -> Vec<Vec<u16>> { s.windows(n).map(<[u16]>::to_vec).collect() };
        let hyp_grams = grams(hyp);
        let mut distinct = hyp_grams.clone();
        distinct.sort();
        distinct.dedup();
        distinct
            .iter()
            .map(|g| {
                let count = hyp_grams.iter().filter(|h| *h == g).count();
                let best = refs
                    .iter()
                    .map(|r| grams(r).iter().filter(|h| *h == g).count())
                    .max()
                    .unwrap_or(0);
                count.min(best) as u64
            })
            .sum()
    }

    /// Random segments over `alphabet` tokens of up to `len` tokens, checked for orders 1..=6.
    fn check_random_segments(alphabet: u64, len: u64, cases: usize) {
        let mut ngrams = Ngrams::default();
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        let mut seq = |len: u64| -> Vec<u16> {
            let n = next() % len;
            // Skewed towards small tokens, so that long n-grams repeat.
            (0..n)
                .map(|_| (next() % alphabet % (1 + next() % alphabet)) as u16)
                .collect()
        };
        for _ in 0..cases {
            let hyp = seq(len);
            let refs: Vec<Vec<u16>> = (0..1 + hyp.len() % 3).map(|_| seq(len)).collect();
            // Odd tokens longer than 7 bytes: both the short-key and the hashed numbering run.
            let text = |s: &[u16]| -> Vec<String> {
                s.iter()
                    .map(|&t| {
                        if t % 2 == 0 {
                            format!("t{t}")
                        } else {
                            format!("long token {t}")
                        }
                    })
                    .collect()
            };
            let text_refs: Vec<Vec<String>> = refs.iter().map(|r| text(r)).collect();
            let mut counts = Vec::new();
            ngrams.clipped_counts(&text_refs, &text(&hyp), 6, |n, clipped, total| {
                counts.push((n, clipped, total))
            });
            let expected: Vec<(usize, u64, u64)> = (1..=6)
                .map(|n| match hyp.len().checked_sub(n - 1).filter(|&c| c > 0) {
                    Some(c) => (n, brute(&refs, &hyp, n), c as u64),
                    None => (n, 0, 1),
                })
                .collect();
            assert_eq!(counts, expected);
            ngrams.start(&text_refs, &text(&hyp), 0);
            for n in 1..=6 {
                if n > 1 {
                    ngrams.advance();
                }
                assert_eq!(ngrams.clipped_matches(), brute(&refs, &hyp, n));
                let mut per_ref = vec![0u128; refs.len()];
                ngrams.add_matches(&mut per_ref);
                for (r, &m) in refs.iter().zip(&per_ref) {
                    assert_eq!(m, u128::from(brute(std::slice::from_ref(r), &hyp, n)));
                }
            }
        }
    }

    #[test]
    fn clipped_matches_agree_with_brute_force() {
        // Few distinct tokens: the dense (prefix, token) tables.
        check_random_segments(3, 12, 300);
        // Many: the hash table; lists of up to 64, 128, 256 tokens and longer ones for
        // `clipped_counts`.
        check_random_segments(400, 300, 60);
        check_random_segments(5, 140, 200);
    }
}
