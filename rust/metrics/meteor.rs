//! nltk 3.10.4 METEOR (`nltk.translate.meteor_score`): `single_meteor_score` and `meteor_score` on
//! token lists, with the default `preprocess=str.lower`, `PorterStemmer()` and WordNet 3.0.
//!
//! Alignment runs three stages (exact words, Porter stems, WordNet synonyms of the stems), each
//! matching the remaining hypothesis words from last to first to the remaining reference word with
//! the largest position; the score is the harmonic mean weighted by `alpha` times one minus the
//! fragmentation penalty `gamma * (chunks / matches) ** beta`, in the reference's operation order.

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
    let hyp: Vec<String> = hypothesis.iter().map(|w| py_lower(w.as_ref())).collect();
    let refs: Vec<String> = reference.iter().map(|w| py_lower(w.as_ref())).collect();
    let matches = align(&hyp, &refs, Stems::Porter, Synonyms::WordNet)?;
    score(hyp.len(), refs.len(), &matches, params)
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
pub fn align(
    hyp: &[String],
    refs: &[String],
    stems: Stems<'_>,
    synonyms: Synonyms<'_>,
) -> Result<Vec<(usize, usize)>> {
    let mut matches = Vec::new();
    let h: Items = hyp.iter().map(String::as_str).enumerate().collect();
    let r: Items = refs.iter().map(String::as_str).enumerate().collect();
    let (h, r) = exact_stage(h, r, &mut matches);

    let (h_stems, r_stems): (Vec<String>, Vec<String>) = match stems {
        Stems::Porter => (
            h.iter().map(|&(_, w)| porter::stem(w)).collect(),
            r.iter().map(|&(_, w)| porter::stem(w)).collect(),
        ),
        Stems::Given {
            hypothesis,
            reference,
        } => (given(hypothesis, &h)?, given(reference, &r)?),
    };
    let h: Items = h
        .iter()
        .zip(&h_stems)
        .map(|(&(i, _), s)| (i, s.as_str()))
        .collect();
    let r: Items = r
        .iter()
        .zip(&r_stems)
        .map(|(&(j, _), s)| (j, s.as_str()))
        .collect();
    let (h, r) = exact_stage(h, r, &mut matches);

    match synonyms {
        Synonyms::WordNet => {
            let wn = wordnet()?;
            let ref_ids: Vec<Option<u32>> = r.iter().map(|&(_, s)| wn.name_id(s)).collect();
            let ref_ids = &ref_ids;
            synonym_stage(&h, &r, &mut matches, |_, stem| {
                let syn = wn.synonym_ids(stem);
                move |k: usize| {
                    ref_ids
                        .get(k)
                        .copied()
                        .flatten()
                        .is_some_and(|id| syn.binary_search(&id).is_ok())
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

fn given(values: &[String], items: &Items<'_>) -> Result<Vec<String>> {
    items
        .iter()
        .map(|&(i, _)| {
            values
                .get(i)
                .cloned()
                .ok_or_else(|| Error::InvalidValue("one stem per token is needed".to_string()))
        })
        .collect()
}

/// nltk's `_match_enums`: from the last hypothesis item to the first, match the remaining
/// reference item with the same key and the largest position. Returns the leftovers.
fn exact_stage<'a>(
    hyp: Items<'a>,
    refs: Items<'a>,
    matches: &mut Vec<(usize, usize)>,
) -> (Items<'a>, Items<'a>) {
    let mut positions: Map<&str, Vec<usize>> = Map::default();
    for (k, &(_, key)) in refs.iter().enumerate() {
        positions.entry(key).or_default().push(k);
    }
    let mut hyp_used = vec![false; hyp.len()];
    let mut ref_used = vec![false; refs.len()];
    for (k, &(i, key)) in hyp.iter().enumerate().rev() {
        if let Some(k_ref) = positions.get_mut(key).and_then(Vec::pop) {
            hyp_used[k] = true;
            ref_used[k_ref] = true;
            matches.push((i, refs[k_ref].0));
        }
    }
    (leftovers(hyp, &hyp_used), leftovers(refs, &ref_used))
}

fn leftovers<'a>(items: Items<'a>, used: &[bool]) -> Items<'a> {
    items
        .into_iter()
        .zip(used)
        .filter(|(_, &u)| !u)
        .map(|(item, _)| item)
        .collect()
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
            .find(|&k| !ref_used[k] && (refs[k].1 == stem || is_synonym(k)));
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
