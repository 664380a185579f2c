//! nltk 3.10.4 METEOR (`nltk.translate.meteor_score`): `single_meteor_score` and `meteor_score` on
//! token lists, with the default `preprocess=str.lower`, `PorterStemmer()` and WordNet 3.0.
//!
//! Alignment runs three stages (exact words, Porter stems, WordNet synonyms of the stems), each
//! matching the remaining hypothesis words from last to first to the remaining reference word with
//! the largest position; the score is the harmonic mean weighted by `alpha` times one minus the
//! fragmentation penalty `gamma * (chunks / matches) ** beta`, in the reference's operation order.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use super::wordnet::wordnet;
use crate::error::{Error, Result};
use crate::text::unicode::py_lower;
use crate::text::{porter, Tokenizer};

type Map<K, V> = HashMap<K, V, ahash::RandomState>;
type Set<T> = HashSet<T, ahash::RandomState>;

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
    let hyp: Vec<Cow<str>> = hypothesis.iter().map(|w| lower(w.as_ref())).collect();
    let refs: Vec<Cow<str>> = reference.iter().map(|w| lower(w.as_ref())).collect();
    let matches = align(&hyp, &refs, Stems::Porter, Synonyms::WordNet)?;
    score(hyp.len(), refs.len(), &matches, params)
}

/// Python's `str.lower()`, without a copy for the (common) words that have no upper-case letter.
pub fn lower(word: &str) -> Cow<'_, str> {
    if word
        .bytes()
        .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
    {
        Cow::Owned(py_lower(word))
    } else {
        Cow::Borrowed(word)
    }
}

/// `meteor_score(references, hypothesis, ...)`: the largest `single_meteor_score`, kept as Python's
/// `max` keeps it (the first of equal values; a later value replaces it only if greater).
pub fn meteor_score<S: AsRef<str>>(
    references: &[Vec<S>],
    hypothesis: &[S],
    params: &Params,
) -> Result<f64> {
    let mut best: Option<f64> = None;
    for reference in references {
        let s = single_meteor_score(reference, hypothesis, params)?;
        if best.is_none_or(|b| s > b) {
            best = Some(s);
        }
    }
    best.ok_or_else(|| Error::Reference("max() arg is an empty sequence".to_string()))
}

/// promptflow's `MeteorScoreEvaluator` on texts: each text tokenized with `tokenizer`, each row
/// scored against its references with [`meteor_score`], in parallel on the current rayon pool.
pub fn meteor_batch<S: AsRef<str> + Sync>(
    responses: &[&str],
    references: &[Vec<S>],
    params: &Params,
    tokenizer: Tokenizer,
) -> Vec<Result<f64>> {
    responses
        .par_iter()
        .zip(references.par_iter())
        .map(|(response, refs)| {
            let hyp = tokenizer.tokenize(response);
            let refs: Vec<Vec<String>> = refs
                .iter()
                .map(|r| tokenizer.tokenize(r.as_ref()))
                .collect();
            meteor_score(&refs, &hyp, params)
        })
        .collect()
}

/// The score of an alignment of `matches` (hypothesis index, reference index) pairs sorted by
/// hypothesis index. A division by zero gives 0.0, as nltk's `except ZeroDivisionError`.
pub fn score(
    hyp_len: usize,
    ref_len: usize,
    matches: &[(usize, usize)],
    params: &Params,
) -> Result<f64> {
    let m = matches.len() as f64;
    if hyp_len == 0 || ref_len == 0 || matches.is_empty() {
        return Ok(0.0);
    }
    let precision = m / hyp_len as f64;
    let recall = m / ref_len as f64;
    let denominator = params.alpha * precision + (1.0 - params.alpha) * recall;
    if denominator == 0.0 {
        return Ok(0.0);
    }
    let fmean = (precision * recall) / denominator;
    let frag = chunks(matches) as f64 / m;
    let powered = frag.powf(params.beta);
    if powered.is_infinite() && params.beta.is_finite() {
        // CPython's float ** float raises OverflowError here (outside nltk's try block).
        return Err(Error::Reference(
            "(34, 'Numerical result out of range')".to_string(),
        ));
    }
    let penalty = params.gamma * powered;
    Ok((1.0 - penalty) * fmean)
}

/// nltk's `_count_chunks`: runs of matches adjacent on both sides.
fn chunks(matches: &[(usize, usize)]) -> usize {
    1 + matches
        .windows(2)
        .filter(|w| !(w[1].0 == w[0].0 + 1 && w[1].1 == w[0].1 + 1))
        .count()
}

/// A stage's leftover tokens: (original index, key).
type Items<'a> = Vec<(usize, &'a str)>;

/// `_enum_align_words` on preprocessed tokens: all matched (hypothesis, reference) index pairs,
/// sorted by hypothesis index.
pub fn align<H: AsRef<str>, R: AsRef<str>>(
    hyp: &[H],
    refs: &[R],
    stems: Stems<'_>,
    synonyms: Synonyms<'_>,
) -> Result<Vec<(usize, usize)>> {
    let mut matches = Vec::new();
    let h: Items = hyp.iter().map(AsRef::as_ref).enumerate().collect();
    let r: Items = refs.iter().map(AsRef::as_ref).enumerate().collect();
    let (h, r) = exact_stage(h, r, &mut matches);

    let (h_stems, r_stems) = match stems {
        Stems::Porter => (porter_stems(&h), porter_stems(&r)),
        Stems::Given {
            hypothesis,
            reference,
        } => (given(hypothesis, &h)?, given(reference, &r)?),
    };
    let h: Items = h
        .iter()
        .zip(h_stems.iter())
        .map(|(&(i, _), s)| (i, s))
        .collect();
    let r: Items = r
        .iter()
        .zip(r_stems.iter())
        .map(|(&(j, _), s)| (j, s))
        .collect();
    let (h, r) = exact_stage(h, r, &mut matches);

    match synonyms {
        Synonyms::WordNet => {
            let wn = wordnet()?;
            let ref_ids: Vec<Option<u32>> = r.iter().map(|&(_, s)| wn.name_id(s)).collect();
            let mut wanted: Vec<u32> = ref_ids.iter().flatten().copied().collect();
            wanted.sort_unstable();
            wanted.dedup();
            let (ref_ids, wanted) = (&ref_ids, &wanted);
            synonym_stage(&h, &r, &mut matches, |_, stem| {
                // Only the synonyms that are remaining reference stems matter.
                let mut hits = Vec::new();
                if !wanted.is_empty() {
                    wn.for_each_synonym_id(stem, |id| {
                        if wanted.binary_search(&id).is_ok() {
                            hits.push(id);
                        }
                    });
                }
                move |k: usize| {
                    ref_ids
                        .get(k)
                        .copied()
                        .flatten()
                        .is_some_and(|id| hits.contains(&id))
                }
            });
        }
        Synonyms::Given(per_token) => {
            let sets = h
                .iter()
                .map(|&(i, _)| {
                    let set: Set<&str> = per_token.get(i)?.iter().map(String::as_str).collect();
                    Some(set)
                })
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    Error::InvalidValue(
                        "one synonym list per hypothesis token is needed".to_string(),
                    )
                })?;
            let (sets, r) = (&sets, &r);
            synonym_stage(&h, r, &mut matches, |k_hyp, _| {
                move |k: usize| match (sets.get(k_hyp), r.get(k)) {
                    (Some(set), Some(&(_, s))) => set.contains(s),
                    _ => false,
                }
            });
        }
    }
    matches.sort_unstable();
    Ok(matches)
}

/// Strings stored back to back: one allocation for all the stems of a side.
#[derive(Default)]
struct Packed {
    text: String,
    ends: Vec<usize>,
}

impl Packed {
    /// Room for about the stems of `items`.
    fn with_capacity(items: &Items<'_>) -> Self {
        Packed {
            text: String::with_capacity(items.iter().map(|(_, w)| w.len()).sum()),
            ends: Vec::with_capacity(items.len()),
        }
    }

    fn push(&mut self, f: impl FnOnce(&mut String)) {
        f(&mut self.text);
        self.ends.push(self.text.len());
    }

    fn iter(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| self.text.get(start..end).unwrap_or(""))
    }
}

fn porter_stems(items: &Items<'_>) -> Packed {
    let mut out = Packed::with_capacity(items);
    for &(_, w) in items {
        out.push(|buf| porter::stem_into(w, buf));
    }
    out
}

/// The caller's stems of the leftover items (one per original token).
fn given(values: &[String], items: &Items<'_>) -> Result<Packed> {
    let mut out = Packed::with_capacity(items);
    for &(i, _) in items {
        let value = values
            .get(i)
            .ok_or_else(|| Error::InvalidValue("one stem per token is needed".to_string()))?;
        out.push(|buf| buf.push_str(value));
    }
    Ok(out)
}

/// nltk's `_match_enums`: from the last hypothesis item to the first, match the remaining
/// reference item with the same key and the largest position. Returns the leftovers.
fn exact_stage<'a>(
    hyp: Items<'a>,
    refs: Items<'a>,
    matches: &mut Vec<(usize, usize)>,
) -> (Items<'a>, Items<'a>) {
    let mut hyp_used = vec![false; hyp.len()];
    let mut ref_used = vec![false; refs.len()];
    if hyp.len() * refs.len() <= 4096 {
        // Short sentences: scanning the references beats hashing them.
        for (k, &(i, key)) in hyp.iter().enumerate().rev() {
            let found = (0..refs.len())
                .rev()
                .find(|&j| !ref_used[j] && same(refs[j].1, key));
            if let Some(j) = found {
                hyp_used[k] = true;
                ref_used[j] = true;
                matches.push((i, refs[j].0));
            }
        }
    } else {
        // For each key, its last remaining reference position; `below[j]`: the previous position
        // with the same key as position j (a stack per key, without an allocation per key).
        let mut last: Map<&str, usize> =
            Map::with_capacity_and_hasher(refs.len(), Default::default());
        let mut below = vec![usize::MAX; refs.len()];
        for (j, &(_, key)) in refs.iter().enumerate() {
            if let Some(prev) = last.insert(key, j) {
                below[j] = prev;
            }
        }
        for (k, &(i, key)) in hyp.iter().enumerate().rev() {
            match last.get_mut(key) {
                Some(top) if *top != usize::MAX => {
                    let j = *top;
                    *top = below[j];
                    hyp_used[k] = true;
                    ref_used[j] = true;
                    matches.push((i, refs[j].0));
                }
                _ => {}
            }
        }
    }
    (leftovers(hyp, &hyp_used), leftovers(refs, &ref_used))
}

/// String equality, rejecting most unequal words before calling memcmp.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

fn leftovers<'a>(items: Items<'a>, used: &[bool]) -> Items<'a> {
    let mut out = Vec::with_capacity(items.len());
    out.extend(
        items
            .into_iter()
            .zip(used)
            .filter(|(_, &u)| !u)
            .map(|(item, _)| item),
    );
    out
}

/// nltk's `_enum_wordnetsyn_match`: from the last hypothesis stem to the first, match the remaining
/// reference stem with the largest position that equals the stem or is one of its synonyms.
/// `synonyms_of(k, stem)` (k: position in `hyp`) returns the membership test of the stem's synonyms,
/// by position in `refs`.
fn synonym_stage<F, P>(
    hyp: &Items<'_>,
    refs: &Items<'_>,
    matches: &mut Vec<(usize, usize)>,
    mut synonyms_of: F,
) where
    F: FnMut(usize, &str) -> P,
    P: Fn(usize) -> bool,
{
    let mut ref_used = vec![false; refs.len()];
    for (k_hyp, &(i, stem)) in hyp.iter().enumerate().rev() {
        let is_synonym = synonyms_of(k_hyp, stem);
        let best = (0..refs.len())
            .rev()
            .find(|&k| !ref_used[k] && (same(refs[k].1, stem) || is_synonym(k)));
        if let Some(k) = best {
            ref_used[k] = true;
            matches.push((i, refs[k].0));
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
    fn synonyms_need_unchanged_stems() {
        let p = Params::default();
        assert!(single_meteor_score(&["quick"], &["fast"], &p).unwrap() > 0.0);
        assert_eq!(single_meteor_score(&["large"], &["big"], &p).unwrap(), 0.0);
    }
}
