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
pub fn meteor_batch<S: AsRef<str> + Sync, R: AsRef<[S]> + Sync>(
    responses: &[&str],
    references: &[R],
    params: &Params,
    tokenizer: Tokenizer,
) -> Vec<Result<f64>> {
    responses
        .par_iter()
        .zip(references.par_iter())
        .map(|(response, refs)| {
            let hyp = tokenizer.tokenize(response);
            let refs: Vec<Vec<String>> = refs
                .as_ref()
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

/// `_enum_align_words` on preprocessed tokens: all matched (hypothesis, reference) index pairs,
/// sorted by hypothesis index.
///
/// nltk rebuilds the lists of unmatched items after each stage; marking matched positions instead
/// is equivalent, because the lists keep their order: the largest remaining position in a list is
/// the largest unmatched original index.
pub fn align<H: AsRef<str>, R: AsRef<str>>(
    hyp: &[H],
    refs: &[R],
    stems: Stems<'_>,
    synonyms: Synonyms<'_>,
) -> Result<Vec<(usize, usize)>> {
    let hyp: Vec<&str> = hyp.iter().map(AsRef::as_ref).collect();
    let refs: Vec<&str> = refs.iter().map(AsRef::as_ref).collect();
    let mut used = Used {
        hyp: vec![false; hyp.len()],
        refs: vec![false; refs.len()],
        matches: Vec::new(),
    };
    used.exact_stage(&hyp, &refs);

    // Stage 2 and 3 keys: the stems of the words still unmatched ("" for the others, never read).
    let (h_stems, r_stems) = match stems {
        Stems::Porter => (
            Packed::new(&hyp, &used.hyp, porter::stem_into),
            Packed::new(&refs, &used.refs, porter::stem_into),
        ),
        Stems::Given {
            hypothesis,
            reference,
        } => (given(hypothesis, &used.hyp)?, given(reference, &used.refs)?),
    };
    let h_keys: Vec<&str> = h_stems.iter().collect();
    let r_keys: Vec<&str> = r_stems.iter().collect();
    used.exact_stage(&h_keys, &r_keys);

    match synonyms {
        Synonyms::WordNet => {
            let wn = wordnet()?;
            let ref_ids: Vec<Option<u32>> = r_keys
                .iter()
                .zip(&used.refs)
                .map(|(s, &u)| if u { None } else { wn.name_id(s) })
                .collect();
            let mut wanted: Vec<u32> = ref_ids.iter().flatten().copied().collect();
            wanted.sort_unstable();
            wanted.dedup();
            let (ref_ids, wanted) = (&ref_ids, &wanted);
            used.synonym_stage(&h_keys, &r_keys, |_, stem| {
                // Only the synonyms that are unmatched reference stems matter.
                let mut hits = Vec::new();
                if !wanted.is_empty() {
                    wn.for_each_synonym_id(stem, |id| {
                        if wanted.binary_search(&id).is_ok() {
                            hits.push(id);
                        }
                    });
                }
                move |j: usize| {
                    ref_ids
                        .get(j)
                        .copied()
                        .flatten()
                        .is_some_and(|id| hits.contains(&id))
                }
            });
        }
        Synonyms::Given(per_token) => {
            if per_token.len() < hyp.len() {
                return Err(Error::InvalidValue(
                    "one synonym list per hypothesis token is needed".to_string(),
                ));
            }
            let r_keys = &r_keys;
            used.synonym_stage(&h_keys, r_keys, |i, _| {
                let set: Set<&str> = per_token
                    .get(i)
                    .map(|s| s.iter().map(String::as_str).collect())
                    .unwrap_or_default();
                move |j: usize| r_keys.get(j).is_some_and(|s| set.contains(s))
            });
        }
    }
    let mut matches = used.matches;
    matches.sort_unstable();
    Ok(matches)
}

/// Strings stored back to back, one per token: one allocation for all the stems of a side.
struct Packed {
    text: String,
    ends: Vec<usize>,
}

impl Packed {
    /// `f(word, buffer)` appends the value of each word not `used`; used words get "".
    fn new(words: &[&str], used: &[bool], mut f: impl FnMut(&str, &mut String)) -> Self {
        let mut out = Packed {
            text: String::with_capacity(words.iter().map(|w| w.len()).sum()),
            ends: Vec::with_capacity(words.len()),
        };
        for (w, &u) in words.iter().zip(used) {
            if !u {
                f(w, &mut out.text);
            }
            out.ends.push(out.text.len());
        }
        out
    }

    fn iter(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| self.text.get(start..end).unwrap_or(""))
    }
}

/// The caller's stems (one per token), as stage keys.
fn given(values: &[String], used: &[bool]) -> Result<Packed> {
    if values.len() < used.len() {
        return Err(Error::InvalidValue(
            "one stem per token is needed".to_string(),
        ));
    }
    let words: Vec<&str> = values.iter().map(String::as_str).collect();
    Ok(Packed::new(&words, used, |w, buf| buf.push_str(w)))
}

/// The tokens matched so far on each side, and the matches.
struct Used {
    hyp: Vec<bool>,
    refs: Vec<bool>,
    matches: Vec<(usize, usize)>,
}

impl Used {
    fn mark(&mut self, i: usize, j: usize) {
        self.hyp[i] = true;
        self.refs[j] = true;
        self.matches.push((i, j));
    }

    /// nltk's `_match_enums`: from the last unmatched hypothesis item to the first, match the
    /// unmatched reference item with the same key and the largest position.
    fn exact_stage(&mut self, hyp: &[&str], refs: &[&str]) {
        if hyp.len() * refs.len() <= 4096 {
            // Short sentences: scanning the references beats hashing them.
            for i in (0..hyp.len()).rev() {
                if self.hyp[i] {
                    continue;
                }
                let found = (0..refs.len())
                    .rev()
                    .find(|&j| !self.refs[j] && same(refs[j], hyp[i]));
                if let Some(j) = found {
                    self.mark(i, j);
                }
            }
            return;
        }
        // For each key, its last unmatched reference position; `below[j]`: the previous unmatched
        // position with the same key as position j (a stack per key, no allocation per key).
        let mut last: Map<&str, usize> =
            Map::with_capacity_and_hasher(refs.len(), Default::default());
        let mut below = vec![usize::MAX; refs.len()];
        for (j, &key) in refs.iter().enumerate() {
            if !self.refs[j] {
                if let Some(prev) = last.insert(key, j) {
                    below[j] = prev;
                }
            }
        }
        for i in (0..hyp.len()).rev() {
            if self.hyp[i] {
                continue;
            }
            if let Some(top) = last.get_mut(hyp[i]) {
                if *top != usize::MAX {
                    let j = *top;
                    *top = below[j];
                    self.mark(i, j);
                }
            }
        }
    }

    /// nltk's `_enum_wordnetsyn_match`: from the last unmatched hypothesis stem to the first, match
    /// the unmatched reference stem with the largest position that equals the stem or is one of its
    /// synonyms. `synonyms_of(i, stem)` returns the membership test of the stem's synonyms, by
    /// reference position.
    fn synonym_stage<F, P>(&mut self, hyp: &[&str], refs: &[&str], mut synonyms_of: F)
    where
        F: FnMut(usize, &str) -> P,
        P: Fn(usize) -> bool,
    {
        for i in (0..hyp.len()).rev() {
            if self.hyp[i] {
                continue;
            }
            let is_synonym = synonyms_of(i, hyp[i]);
            let best = (0..refs.len())
                .rev()
                .find(|&j| !self.refs[j] && (same(refs[j], hyp[i]) || is_synonym(j)));
            if let Some(j) = best {
                self.mark(i, j);
            }
        }
    }
}

/// String equality, rejecting most unequal words before calling memcmp.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
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
