//! nltk 3.10.4 METEOR (`nltk.translate.meteor_score`): `single_meteor_score` and `meteor_score` on
//! token lists, with the default `preprocess=str.lower`, `PorterStemmer()` and WordNet 3.0.
//!
//! Alignment runs three stages (exact words, Porter stems, WordNet synonyms of the stems), each
//! matching the remaining hypothesis words from last to first to the remaining reference word with
//! the largest position; the score is the harmonic mean weighted by `alpha` times one minus the
//! fragmentation penalty `gamma * (chunks / matches) ** beta`, in the reference's operation order.
//!
//! Words and stems are compared as small integer ids. A [`Scorer`] numbers them and remembers the
//! Porter stem of each word and the WordNet synonyms of each stem it has seen: both are pure
//! functions of the word, so remembering them across rows saves the work without changing a score.

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use super::wordnet::{wordnet, WordNet};
use crate::error::{Error, PyExc, Result};
use crate::parallel;
use crate::text::unicode::{for_each_py_word, py_lower};
use crate::text::{long_key, porter, short_key, short_key_at, Tokenizer, Tokens};

/// The weights of `single_meteor_score` (nltk and promptflow defaults: 0.9, 3.0, 0.5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            alpha: 0.9,
            beta: 3.0,
            gamma: 0.5,
        }
    }
}

/// Where stage 2 and 3 keys come from: nltk's defaults, or values the caller computed with its own
/// `stemmer` / `wordnet` objects (one entry per token, in token order).
#[derive(Debug, Clone, Copy)]
pub enum Stems<'a> {
    Porter,
    Given {
        hypothesis: &'a [String],
        reference: &'a [String],
    },
}

#[derive(Debug, Clone, Copy)]
pub enum Synonyms<'a> {
    WordNet,
    /// For each hypothesis token, the synonyms of its stem.
    Given(&'a [Vec<String>]),
}

/// `single_meteor_score(reference, hypothesis, alpha=, beta=, gamma=)` with nltk's default
/// preprocess, stemmer and WordNet.
pub fn single_meteor_score<S: AsRef<str>>(
    reference: &[S],
    hypothesis: &[S],
    params: &Params,
) -> Result<f64> {
    Scorer::default().single(reference, hypothesis, &Options::nltk(params))
}

/// Python's `str.lower()`, without a copy for the (common) words that have no upper-case letter.
pub fn lower(word: &str) -> Cow<'_, str> {
    if needs_lower(word) {
        Cow::Owned(py_lower(word))
    } else {
        Cow::Borrowed(word)
    }
}

/// `meteor_score(references, hypothesis, ...)` with nltk's defaults.
pub fn meteor_score<S: AsRef<str>>(
    references: &[Vec<S>],
    hypothesis: &[S],
    params: &Params,
) -> Result<f64> {
    let mut scorer = Scorer::default();
    let options = Options::nltk(params);
    scorer.number_hypothesis(hypothesis, options.lowercase);
    best(references.iter().map(|r| scorer.against(r, &options)))
}

/// The largest score, kept as Python's `max` keeps it (the first of equal values; a later value
/// replaces it only if greater); an empty sequence is nltk's ValueError.
pub fn best(scores: impl Iterator<Item = Result<f64>>) -> Result<f64> {
    let mut best: Option<f64> = None;
    for s in scores {
        let s = s?;
        if best.is_none_or(|b| s > b) {
            best = Some(s);
        }
    }
    best.ok_or_else(|| Error::reference(PyExc::Value, "max() arg is an empty sequence"))
}

/// promptflow's `MeteorScoreEvaluator` on texts: each text tokenized with `tokenizer`, each row
/// scored against its references with nltk's `meteor_score`, in parallel inside
/// `parallel::with_pool`.
pub fn meteor_batch(
    responses: &[&str],
    references: &[&[&str]],
    params: &Params,
    tokenizer: Tokenizer,
) -> Vec<Result<f64>> {
    let options = Options::nltk(params);
    parallel::map_pairs(responses, references, 1, |response, refs| {
        with_scorer(|scorer| scorer.texts(response, refs, tokenizer, &options))
    })
}

/// Bumped by [`forget_words`]: a scorer that learnt its words under an older value forgets them.
static GENERATION: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// This thread's scorer and the generation it learnt its words in.
    static SCORER: RefCell<(u64, Scorer)> = RefCell::new((u64::MAX, Scorer::default()));
}

/// Makes every thread's scorer forget the words it learnt (their memory is freed when the thread
/// next scores). What a scorer remembers of a string (its lower-case form, Porter stem and WordNet
/// synonyms) is a pure function of the string, whatever the options, so forgetting never changes a
/// score: it only frees memory, or measures the cost of new words.
pub fn forget_words() {
    GENERATION.fetch_add(1, Ordering::Relaxed);
}

/// Runs `f` with this thread's scorer, which remembers the words it met from call to call (until
/// [`forget_words`], or [`Scorer::MAX_WORDS`] words), and keeps its buffers.
pub fn with_scorer<T>(f: impl FnOnce(&mut Scorer) -> T) -> T {
    let generation = GENERATION.load(Ordering::Relaxed);
    SCORER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            if slot.0 != generation {
                slot.1.vocab = Vocabulary::default();
                slot.0 = generation;
            }
            f(&mut slot.1)
        }
        Err(_) => f(&mut Scorer::default()),
    })
}

/// How one hypothesis is compared with one reference.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    pub params: Params,
    /// nltk's default `preprocess=str.lower` (false: the caller already applied its own).
    pub lowercase: bool,
    pub stems: Stems<'a>,
    pub synonyms: Synonyms<'a>,
}

impl Options<'_> {
    /// nltk's defaults: `str.lower`, `PorterStemmer()`, WordNet.
    pub fn nltk(params: &Params) -> Self {
        Options {
            params: *params,
            lowercase: true,
            stems: Stems::Porter,
            synonyms: Synonyms::WordNet,
        }
    }
}

/// The score of an alignment of `matches` matches in `chunks` chunks. A division by zero gives
/// 0.0, as nltk's `except ZeroDivisionError`.
fn score(
    hyp_len: usize,
    ref_len: usize,
    matches: usize,
    chunks: usize,
    params: &Params,
) -> Result<f64> {
    let m = matches as f64;
    if hyp_len == 0 || ref_len == 0 || matches == 0 {
        return Ok(0.0);
    }
    let precision = m / hyp_len as f64;
    let recall = m / ref_len as f64;
    let denominator = params.alpha * precision + (1.0 - params.alpha) * recall;
    if denominator == 0.0 {
        return Ok(0.0);
    }
    let fmean = (precision * recall) / denominator;
    let frag = chunks as f64 / m;
    let powered = frag.powf(params.beta);
    if powered.is_infinite() && params.beta.is_finite() {
        // CPython's float ** float raises OverflowError here (outside nltk's try block), with this
        // message; rapideval raises it as a ValueError.
        return Err(Error::reference(
            PyExc::Value,
            "(34, 'Numerical result out of range')",
        ));
    }
    let penalty = params.gamma * powered;
    Ok((1.0 - penalty) * fmean)
}

/// A key that is never a word, stem or WordNet name id: the keys of matched tokens, which no
/// stage reads, and the synonym key of a stem that is no WordNet lemma name.
const NONE: u32 = u32::MAX;

/// Scores hypotheses against references, remembering what it learns about words. One per thread
/// ([`with_scorer`]); it forgets everything past [`Scorer::MAX_WORDS`] words, so memory stays
/// bounded.
#[derive(Default)]
pub struct Scorer {
    vocab: Vocabulary,
    tokens: Tokens,
    hyp: TokenKeys,
    reference: TokenKeys,
    alignment: Alignment,
    scratch: Scratch,
}

/// Keys and id sets of the synonym stage.
#[derive(Default)]
struct Scratch {
    /// The synonym key of each reference stem.
    synonym_keys: Vec<u32>,
    wanted: Vec<u32>,
    hits: Vec<u32>,
    given_set: Vec<u32>,
}

/// The values in both sorted slices, appended to `out`.
fn sorted_intersection(a: &[u32], b: &[u32], out: &mut Vec<u32>) {
    let (mut i, mut j) = (0, 0);
    while let (Some(&x), Some(&y)) = (a.get(i), b.get(j)) {
        if x == y {
            out.push(x);
        }
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
}

#[derive(Clone, Copy)]
enum SynonymSource<'a> {
    WordNet(&'static WordNet),
    Given(&'a [Vec<String>]),
}

/// Which token list of a comparison.
#[derive(Clone, Copy)]
enum Side {
    Hypothesis,
    Reference,
}

/// Word and stem numbering and what is known of each.
///
/// Words and stems share one numbering: Porter leaves most words unchanged, and a stem equal to a
/// word then costs no second entry. Each stage compares ids of one kind only, so sharing the ids
/// changes no match.
#[derive(Default)]
struct Vocabulary {
    /// The tokens that `str.lower` may change (with an ASCII capital or a non-ASCII byte), as they
    /// were, and the word id of each: a token seen before costs one look-up, whatever its case.
    /// Other tokens are their own word.
    cased: Numbering,
    cased_words: Vec<u32>,
    strings: Numbering,
    /// What is known of each string id.
    info: Vec<Info>,
    synonym_ids: Vec<u32>,
    stem_buffer: String,
}

/// A value of [`Info`] not computed yet (never an id: the vocabulary is forgotten long before).
const UNSET: u32 = u32::MAX - 1;

/// What is known of a word or stem: filled the first time a row needs it.
#[derive(Clone, Copy)]
struct Info {
    /// The Porter stem id of the word.
    stem: u32,
    /// The WordNet lemma-name id of the stem (`NONE` if it is no name).
    name: u32,
    /// The range in `synonym_ids` of the stem's WordNet synonym ids (sorted).
    synonyms: (u32, u32),
}

impl Default for Info {
    fn default() -> Self {
        Info {
            stem: UNSET,
            name: UNSET,
            synonyms: (UNSET, UNSET),
        }
    }
}

/// Ids `0..` for strings, in order of first appearance, and the string of each id.
///
/// An open-addressing table of `u64` keys: a string of at most 7 bytes is its own key
/// ([`short_key`]), so most words are found without hashing or comparing a string; a longer one is
/// keyed by its hash ([`long_key`]) and checked against its text. A slot is in use when it carries
/// the table's current stamp, so emptying the table is a new stamp, not a rewrite.
#[derive(Default)]
struct Numbering {
    slots: Vec<Slot>,
    stamp: u32,
    texts: Tokens,
    hasher: ahash::RandomState,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    id: u32,
    stamp: u32,
}

impl Numbering {
    #[inline(always)]
    fn key(&self, s: &str) -> u64 {
        short_key(s.as_bytes()).unwrap_or_else(|| long_key(self.hasher.hash_one(s)))
    }

    fn len(&self) -> usize {
        self.texts.len()
    }

    fn text(&self, id: u32) -> &str {
        self.texts.get(id as usize)
    }

    fn home(key: u64, mask: usize) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
    }

    /// The slot holding `s`, or the free slot where it belongs (past the end if there are no
    /// slots).
    #[inline(always)]
    fn slot(&self, s: &str, key: u64) -> usize {
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = Self::home(key, mask);
        while let Some(slot) = self.slots.get(i) {
            let free = slot.stamp != self.stamp;
            if free || (slot.key == key && (s.len() < 8 || self.text(slot.id) == s)) {
                break;
            }
            i = (i + 1) & mask;
        }
        i
    }

    fn get(&self, s: &str) -> Option<u32> {
        let slot = self.slots.get(self.slot(s, self.key(s)))?;
        (slot.stamp == self.stamp).then_some(slot.id)
    }

    /// The id of a string of at most 7 bytes, if it has one, from its `short_key`.
    #[inline(always)]
    fn find_short(&self, key: u64) -> Option<u32> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = Self::home(key, mask);
        while let Some(slot) = self.slots.get(i) {
            if slot.stamp != self.stamp {
                return None;
            }
            if slot.key == key {
                return Some(slot.id);
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// The id of `s`, and whether it is new. Inlined: the caller's loop over tokens then runs
    /// without calls for the words it knows, which are most of them.
    #[inline(always)]
    fn id(&mut self, s: &str) -> (u32, bool) {
        let key = self.key(s);
        let slot = self.slots.get(self.slot(s, key));
        match slot {
            Some(slot) if slot.stamp == self.stamp => (slot.id, false),
            _ => (self.insert(s, key), true),
        }
    }

    /// Numbers a new string.
    #[cold]
    #[inline(never)]
    fn insert(&mut self, s: &str, key: u64) -> u32 {
        if 2 * (self.texts.len() + 1) > self.slots.len() {
            self.grow();
        }
        let i = self.slot(s, key);
        let id = self.texts.len() as u32;
        let stamp = self.stamp;
        match self.slots.get_mut(i) {
            Some(slot) => {
                *slot = Slot { key, id, stamp };
                self.texts.push(s);
                id
            }
            None => NONE,
        }
    }

    fn clear(&mut self) {
        if self.slots.len() > 1 << 16 {
            self.slots = Vec::new();
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Stamp 0 marks never-used slots: after a wrap every slot is emptied for real.
            self.slots.fill(Slot::default());
            self.stamp = 1;
        }
        self.texts.clear();
    }

    fn grow(&mut self) {
        if self.stamp == 0 {
            self.stamp = 1;
        }
        let size = (2 * self.slots.len()).max(1024);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        let mask = size - 1;
        for slot in old.into_iter().filter(|s| s.stamp == self.stamp) {
            let mut i = Self::home(slot.key, mask);
            while self.slots.get(i).is_some_and(|s| s.stamp == self.stamp) {
                i = (i + 1) & mask;
            }
            if let Some(free) = self.slots.get_mut(i) {
                *free = slot;
            }
        }
    }
}

/// The keys of one token list at each stage.
#[derive(Default)]
struct TokenKeys {
    words: Vec<u32>,
    stems: Vec<u32>,
}

impl Scorer {
    const MAX_WORDS: usize = 1 << 18;

    /// `single_meteor_score(reference, hypothesis)` under `options`.
    pub fn single<S: AsRef<str>, T: AsRef<str>>(
        &mut self,
        reference: &[S],
        hypothesis: &[T],
        options: &Options<'_>,
    ) -> Result<f64> {
        self.number_hypothesis(hypothesis, options.lowercase);
        self.against(reference, options)
    }

    /// Numbers the hypothesis that the next [`Scorer::against`] calls compare (after `str.lower`
    /// if `lowercase`, which those calls' options must repeat).
    pub fn number_hypothesis<T: AsRef<str>>(&mut self, hypothesis: &[T], lowercase: bool) {
        self.forget_if_large();
        let words = hypothesis.iter().map(AsRef::as_ref);
        self.vocab
            .number_words(words, lowercase, &mut self.hyp.words);
    }

    /// `single_meteor_score(reference, hypothesis)` of the numbered hypothesis.
    pub fn against<S: AsRef<str>>(
        &mut self,
        reference: &[S],
        options: &Options<'_>,
    ) -> Result<f64> {
        let words = reference.iter().map(AsRef::as_ref);
        self.vocab
            .number_words(words, options.lowercase, &mut self.reference.words);
        self.align(options)
    }

    /// `meteor_score` of a response against its references, all tokenized with `tokenizer`.
    pub fn texts(
        &mut self,
        response: &str,
        references: &[&str],
        tokenizer: Tokenizer,
        options: &Options<'_>,
    ) -> Result<f64> {
        self.forget_if_large();
        self.number_text(response, tokenizer, options.lowercase, Side::Hypothesis);
        best(references.iter().map(|reference| {
            self.number_text(reference, tokenizer, options.lowercase, Side::Reference);
            self.align(options)
        }))
    }

    /// Numbers the words of a text into the hypothesis or the reference.
    fn number_text(&mut self, text: &str, tokenizer: Tokenizer, lowercase: bool, side: Side) {
        let ids = match side {
            Side::Hypothesis => &mut self.hyp.words,
            Side::Reference => &mut self.reference.words,
        };
        if tokenizer == Tokenizer::Whitespace {
            // The words are slices of the text: nothing to copy.
            ids.clear();
            let vocab = &mut self.vocab;
            let bytes = text.as_bytes();
            for_each_py_word(text, |word| {
                let start = (word.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
                let key = short_key_at(bytes, start, word.len());
                ids.push(vocab.number_word_at(word, key, lowercase));
            });
        } else {
            self.tokens.clear();
            tokenizer.tokenize_into(text, &mut self.tokens);
            self.vocab.number_words(self.tokens.iter(), lowercase, ids);
        }
    }

    fn forget_if_large(&mut self) {
        if self.vocab.cased.len().max(self.vocab.strings.len()) > Self::MAX_WORDS {
            self.vocab.clear();
        }
    }

    /// The score of the numbered hypothesis against the numbered reference.
    fn align(&mut self, options: &Options<'_>) -> Result<f64> {
        let Scorer {
            vocab,
            hyp,
            reference: refs,
            alignment: used,
            scratch:
                Scratch {
                    synonym_keys,
                    wanted,
                    hits,
                    given_set,
                },
            ..
        } = self;
        used.reset(hyp.words.len(), refs.words.len());
        used.exact_stage(&hyp.words, &refs.words, vocab.strings.len());

        match options.stems {
            Stems::Porter => {
                vocab.porter_stems(&hyp.words, used.hyp_used(), &mut hyp.stems);
                vocab.porter_stems(&refs.words, used.refs.iter().copied(), &mut refs.stems);
            }
            Stems::Given {
                hypothesis: hyp_stems,
                reference: ref_stems,
            } => {
                vocab.given_stems(hyp_stems, used.hyp_used(), &mut hyp.stems)?;
                vocab.given_stems(ref_stems, used.refs.iter().copied(), &mut refs.stems)?;
            }
        }
        used.exact_stage(&hyp.stems, &refs.stems, vocab.strings.len());

        // nltk's `_enum_wordnetsyn_match`: from the last unmatched hypothesis stem to the first,
        // match the unmatched reference stem with the largest position that equals the stem or is
        // one of its synonyms. A reference stem's synonym key is its WordNet name id, or with the
        // caller's synonyms, its stem id. "Equals the stem" never holds here: stage 2 matched
        // every hypothesis stem that had an equal unmatched reference stem.
        let source = match options.synonyms {
            Synonyms::WordNet => SynonymSource::WordNet(wordnet()?),
            Synonyms::Given(per_token) if per_token.len() < hyp.words.len() => {
                return Err(Error::InvalidValue(
                    "one synonym list per hypothesis token is needed".to_string(),
                ))
            }
            Synonyms::Given(per_token) => SynonymSource::Given(per_token),
        };
        synonym_keys.clear();
        // Once every hypothesis token is matched no key is read: WordNet need not be asked.
        if used.matches < hyp.stems.len() {
            for (&stem, &u) in refs.stems.iter().zip(&used.refs) {
                synonym_keys.push(match source {
                    _ if u => NONE,
                    SynonymSource::WordNet(wn) => vocab.name_id(wn, stem),
                    SynonymSource::Given(_) => stem,
                });
            }
        }
        // Only the synonyms that are keys of unmatched references matter: usually none.
        wanted.clear();
        wanted.extend(synonym_keys.iter().filter(|&&k| k != NONE));
        wanted.sort_unstable();
        wanted.dedup();
        for i in (0..hyp.stems.len()).rev() {
            if used.hyp[i] != NONE || wanted.is_empty() {
                continue;
            }
            let synonyms: &[u32] = match source {
                SynonymSource::WordNet(wn) => vocab.synonyms(wn, hyp.stems[i]),
                SynonymSource::Given(per_token) => {
                    given_set.clear();
                    let given = per_token.get(i).map_or(&[][..], Vec::as_slice);
                    given_set.extend(given.iter().filter_map(|s| vocab.strings.get(s)));
                    given_set.sort_unstable();
                    given_set
                }
            };
            hits.clear();
            sorted_intersection(synonyms, wanted, hits);
            if hits.is_empty() {
                continue;
            }
            let found = (0..refs.stems.len())
                .rev()
                .find(|&j| !used.refs[j] && hits.contains(&synonym_keys[j]));
            if let Some(j) = found {
                used.mark(i, j);
            }
        }
        score(
            hyp.words.len(),
            refs.words.len(),
            used.matches,
            used.chunks(),
            &options.params,
        )
    }
}

impl Vocabulary {
    /// Forgets every word; keeps the buffers (but not large tables).
    fn clear(&mut self) {
        self.cased.clear();
        self.cased_words.clear();
        self.strings.clear();
        self.info.clear();
        self.synonym_ids.clear();
    }

    /// The word id of every token (after `str.lower` if `lowercase`), into `ids`.
    fn number_words<'t>(
        &mut self,
        tokens: impl Iterator<Item = &'t str>,
        lowercase: bool,
        ids: &mut Vec<u32>,
    ) {
        ids.clear();
        tokens.for_each(|token| ids.push(self.number_word(token, lowercase)));
    }

    /// The word id of a token (after `str.lower` if `lowercase`).
    #[inline(always)]
    fn number_word(&mut self, token: &str, lowercase: bool) -> u32 {
        if !lowercase || !needs_lower(token) {
            return self.string_id(token);
        }
        self.cased_word(token)
    }

    /// [`Vocabulary::number_word`] of a token with its [`short_key`], if it has one: a known
    /// lower-case token is then found with no branch per byte or per length and no call, so that
    /// the tokenizer's loop can take it in.
    #[inline(always)]
    fn number_word_at(&mut self, token: &str, key: Option<u64>, lowercase: bool) -> u32 {
        let key = key.filter(|&key| !lowercase || !packed_needs_lower(key));
        match key.and_then(|key| self.strings.find_short(key)) {
            Some(id) => id,
            None => self.number_new_or_long(token, lowercase),
        }
    }

    /// Out of line, so that the inlined path stays small.
    #[inline(never)]
    fn number_new_or_long(&mut self, token: &str, lowercase: bool) -> u32 {
        self.number_word(token, lowercase)
    }

    /// The word id of a token that `str.lower` may change.
    #[inline(never)]
    fn cased_word(&mut self, token: &str) -> u32 {
        match self.cased.id(token) {
            (t, false) => self.cased_words.get(t as usize).copied().unwrap_or(NONE),
            (_, true) => {
                let word = self.string_id(&py_lower(token));
                self.cased_words.push(word);
                word
            }
        }
    }

    #[inline(always)]
    fn string_id(&mut self, s: &str) -> u32 {
        let (id, new) = self.strings.id(s);
        if new {
            self.info.push(Info::default());
        }
        id
    }

    fn info(&mut self, id: u32) -> Option<&mut Info> {
        self.info.get_mut(id as usize)
    }

    /// The Porter stem id of every word not `used` (`NONE` for the others).
    fn porter_stems(
        &mut self,
        words: &[u32],
        used: impl Iterator<Item = bool>,
        stems: &mut Vec<u32>,
    ) {
        stems.clear();
        for (&word, u) in words.iter().zip(used) {
            let known = match self.info(word) {
                _ if u => NONE,
                Some(info) if info.stem != UNSET => info.stem,
                _ => {
                    let mut buffer = std::mem::take(&mut self.stem_buffer);
                    buffer.clear();
                    let text = self.strings.text(word);
                    porter::stem_into(text, &mut buffer);
                    let stem = if buffer == text {
                        word
                    } else {
                        self.string_id(&buffer)
                    };
                    self.stem_buffer = buffer;
                    if let Some(info) = self.info(word) {
                        info.stem = stem;
                    }
                    stem
                }
            };
            stems.push(known);
        }
    }

    /// The caller's stems (one per token) as stem ids, `NONE` for `used` tokens.
    fn given_stems(
        &mut self,
        values: &[String],
        used: impl ExactSizeIterator<Item = bool>,
        stems: &mut Vec<u32>,
    ) -> Result<()> {
        if values.len() < used.len() {
            return Err(Error::InvalidValue(
                "one stem per token is needed".to_string(),
            ));
        }
        stems.clear();
        for (value, u) in values.iter().zip(used) {
            stems.push(if u { NONE } else { self.string_id(value) });
        }
        Ok(())
    }

    /// The WordNet lemma-name id of a stem (`NONE` if no synset has that name).
    fn name_id(&mut self, wn: &WordNet, stem: u32) -> u32 {
        let Some(info) = self.info.get_mut(stem as usize) else {
            return NONE;
        };
        if info.name == UNSET {
            info.name = wn.name_id(self.strings.text(stem)).unwrap_or(NONE);
        }
        info.name
    }

    /// The sorted ids of the lemma names without "_" of `wordnet.synsets(stem)`.
    fn synonyms(&mut self, wn: &WordNet, stem: u32) -> &[u32] {
        let Some(info) = self.info.get_mut(stem as usize) else {
            return &[];
        };
        if info.synonyms.0 == UNSET {
            let start = self.synonym_ids.len() as u32;
            wn.extend_synonym_ids(self.strings.text(stem), &mut self.synonym_ids);
            info.synonyms = (start, self.synonym_ids.len() as u32);
        }
        let (start, end) = info.synonyms;
        self.synonym_ids
            .get(start as usize..end as usize)
            .unwrap_or(&[])
    }
}

/// [`needs_lower`] of a word from its [`short_key`] (or of any bytes packed little-endian in
/// `x`, with bytes below `A` past them): a byte is flagged by its high bit if it is not ASCII, or
/// if adding 0x3F carries into the high bit (at least `A`) while adding 0x25 does not (at most
/// `Z`).
fn packed_needs_lower(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x80 * ONES;
    let ascii = x & !HIGH;
    let at_least_a = ascii + 0x3F * ONES;
    let past_z = ascii + 0x25 * ONES;
    (at_least_a & !past_z | x) & HIGH != 0
}

/// Whether `str.lower` may change a token (an ASCII capital, or any non-ASCII letter).
fn needs_lower(token: &str) -> bool {
    token
        .bytes()
        .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
}

/// The matches so far.
#[derive(Default)]
struct Alignment {
    /// The reference position matched to each hypothesis position (`NONE`: unmatched), which
    /// also lists the matches in hypothesis order without a sort.
    hyp: Vec<u32>,
    refs: Vec<bool>,
    matches: usize,
    top: Vec<u32>,
    below: Vec<u32>,
}

impl Alignment {
    fn reset(&mut self, hyp_len: usize, ref_len: usize) {
        self.hyp.clear();
        self.hyp.resize(hyp_len, NONE);
        self.refs.clear();
        self.refs.resize(ref_len, false);
        self.matches = 0;
    }

    fn hyp_used(&self) -> impl ExactSizeIterator<Item = bool> + '_ {
        self.hyp.iter().map(|&j| j != NONE)
    }

    fn mark(&mut self, i: usize, j: usize) {
        self.hyp[i] = j as u32;
        self.refs[j] = true;
        self.matches += 1;
    }

    /// nltk's `_count_chunks`: runs of matches adjacent on both sides.
    fn chunks(&self) -> usize {
        let joined = self
            .hyp
            .windows(2)
            .filter(|w| w[0] != NONE && w[1] == w[0] + 1)
            .count();
        self.matches - joined
    }

    /// nltk's `_match_enums`: from the last unmatched hypothesis item to the first, match the
    /// unmatched reference item with the same key and the largest position. Keys are below
    /// `key_count` (or `NONE`, for matched items).
    ///
    /// nltk rebuilds the lists of unmatched items after each stage; marking matched positions
    /// instead is equivalent, because the lists keep their order: the largest remaining position
    /// in a list is the largest unmatched original index.
    fn exact_stage(&mut self, hyp: &[u32], refs: &[u32], key_count: usize) {
        // A stack of unmatched reference positions per key: `top[key]` is the last one and
        // `below[j]` the one under position j.
        if self.top.len() < key_count {
            self.top.resize(key_count, NONE);
        }
        self.below.clear();
        for (j, &key) in refs.iter().enumerate() {
            let mut under = NONE;
            if !self.refs[j] {
                if let Some(top) = self.top.get_mut(key as usize) {
                    under = std::mem::replace(top, j as u32);
                }
            }
            self.below.push(under);
        }
        for i in (0..hyp.len()).rev() {
            if self.hyp[i] != NONE {
                continue;
            }
            let Some(top) = self.top.get_mut(hyp[i] as usize) else {
                continue;
            };
            if *top != NONE {
                let j = *top as usize;
                *top = self.below.get(j).copied().unwrap_or(NONE);
                self.mark(i, j);
            }
        }
        for &key in refs {
            if let Some(top) = self.top.get_mut(key as usize) {
                *top = NONE;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<&str> {
        s.split(' ').filter(|t| !t.is_empty()).collect()
    }

    #[test]
    fn nltk_doctests() {
        let h1 = toks("It is a guide to action which ensures that the military always obeys the commands of the party");
        let r1 = toks("It is a guide to action that ensures that the military will forever heed Party commands");
        let p = Params::default();
        let s = single_meteor_score(&r1, &h1, &p).unwrap();
        assert_eq!((s * 10000.0).round() / 10000.0, 0.6944);
        assert_eq!(
            single_meteor_score(&toks("this is a cat"), &toks("non matching hypothesis"), &p)
                .unwrap(),
            0.0
        );
        assert_eq!(single_meteor_score(&["a"], &["a"], &p).unwrap(), 0.5);
        let six = toks("a b c d e f");
        assert_eq!(
            single_meteor_score(&six, &six, &p).unwrap(),
            0.9976851851851852
        );
        assert_eq!(single_meteor_score::<&str>(&[], &["a"], &p).unwrap(), 0.0);
        assert!(meteor_score::<&str>(&[], &["a"], &p).is_err());
    }

    #[test]
    fn short_keys_flag_capitals_and_non_ascii() {
        let flagged = |b: &[u8]| b.iter().any(|c| c.is_ascii_uppercase() || !c.is_ascii());
        for a in 0..=255u8 {
            for b in [0u8, b'@', b'A', b'Z', b'[', b'a', b'z', 0x7f, 0x80, 0xff] {
                for word in [
                    &[a][..],
                    &[a, b],
                    &[b, a, b'x'],
                    &[b'x', b'y', b'z', b, a, b'Q', a],
                ] {
                    let key = short_key(word).expect("a short word");
                    assert_eq!(packed_needs_lower(key), flagged(word), "{word:?}");
                }
            }
        }
    }

    #[test]
    fn synonyms_need_unchanged_stems() {
        let p = Params::default();
        assert!(single_meteor_score(&["quick"], &["fast"], &p).unwrap() > 0.0);
        assert_eq!(single_meteor_score(&["large"], &["big"], &p).unwrap(), 0.0);
    }

    #[test]
    fn case_variants_and_repeats_match_as_nltk_lowers_them() {
        let p = Params::default();
        let mut scorer = Scorer::default();
        let o = Options::nltk(&p);
        let hyp = [
            "The",
            "CAT",
            "cat",
            "Ünïcode",
            "ΣΑΣ",
            "a-very-long-token",
            "A-VERY-LONG-TOKEN",
        ];
        let reference = [
            "the",
            "cat",
            "Cat",
            "ünïcode",
            "σας",
            "a-very-long-token",
            "a-very-long-token",
        ];
        for _ in 0..2 {
            let s = scorer.single(&reference, &hyp, &o).unwrap();
            assert_eq!(s, Scorer::default().single(&reference, &hyp, &o).unwrap());
            assert!(s > 0.9, "{s}");
        }
    }
}
