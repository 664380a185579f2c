//! The WordNet 3.0 synonyms nltk 3.10.4's METEOR sees: for a word w, the lemma names without "_" of
//! every synset of `wordnet.synsets(w)` (parts of speech n, v, a, r; morphy with the exception lists
//! and one application of the detachment rules).
//!
//! The data is `rust/data/wordnet/synonyms.txt`, built from the WordNet 3.0 files by
//! `tools/build_wordnet_table.py` (format documented there; licence in `rust/data/wordnet/LICENSE`),
//! compiled into the module and parsed once, on first use.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::error::{Error, Result};
use crate::text::unicode::py_lower;

type Map<K, V> = HashMap<K, V, ahash::RandomState>;

/// The WordNet licence, which must accompany the table.
pub const LICENSE: &str = include_str!("../data/wordnet/LICENSE");

const TABLE: &str = include_str!("../data/wordnet/synonyms.txt");

/// Parts of speech in the order `wordnet.synsets` visits them.
const POS: [char; 4] = ['n', 'v', 'a', 'r'];

/// nltk's `MORPHOLOGICAL_SUBSTITUTIONS` for n, v, a, r.
const RULES: [&[(&str, &str)]; 4] = [
    &[
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ],
    &[
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ],
    &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    &[],
];

pub struct WordNet {
    names: Vec<&'static str>,
    name_ids: Map<&'static str, u32>,
    /// Index lemma -> for each part of speech, the range of its name ids in `ids`.
    index: Map<&'static str, [(u32, u32); 4]>,
    ids: Vec<u32>,
    exceptions: [Map<&'static str, Vec<&'static str>>; 4],
}

static WORDNET: LazyLock<Option<WordNet>> = LazyLock::new(|| parse(TABLE));

/// The table, parsed on the first call.
pub fn wordnet() -> Result<&'static WordNet> {
    WORDNET
        .as_ref()
        .ok_or_else(|| Error::InvalidValue("the bundled WordNet table is corrupt".to_string()))
}

/// `<label> <count>` and the next `count` lines.
fn section<'a>(lines: &mut impl Iterator<Item = &'a str>, label: &str) -> Option<Vec<&'a str>> {
    let count: usize = lines
        .next()?
        .strip_prefix(label)?
        .trim_start_matches(' ')
        .parse()
        .ok()?;
    let body: Vec<&str> = lines.take(count).collect();
    (body.len() == count).then_some(body)
}

fn parse(table: &'static str) -> Option<WordNet> {
    let mut lines = table.split_terminator('\n');
    lines
        .next()?
        .strip_prefix("rapideval-wordnet-synonyms 1 ")?;
    let names = section(&mut lines, "names")?;
    let name_ids = names
        .iter()
        .enumerate()
        .map(|(i, &n)| (n, i as u32))
        .collect();
    let mut index = Map::default();
    let mut ids = Vec::new();
    for line in section(&mut lines, "index")? {
        let mut fields = line.split('\t');
        let lemma = fields.next()?;
        let mut ranges = [(0, 0); 4];
        for range in &mut ranges {
            let start = ids.len() as u32;
            let mut id = 0u32;
            for delta in fields.next()?.split(',').filter(|d| !d.is_empty()) {
                id = id.checked_add(u32::from_str_radix(delta, 36).ok()?)?;
                if id as usize >= names.len() {
                    return None;
                }
                ids.push(id);
            }
            *range = (start, ids.len() as u32);
        }
        index.insert(lemma, ranges);
    }
    let mut exceptions: [Map<&str, Vec<&str>>; 4] = Default::default();
    for line in section(&mut lines, "exceptions")? {
        let mut fields = line.split('\t');
        let pos = fields.next()?;
        let p = POS
            .iter()
            .position(|&c| pos.len() == 1 && pos.starts_with(c))?;
        let form = fields.next()?;
        let bases = fields
            .next()?
            .split(',')
            .filter(|b| !b.is_empty())
            .collect();
        exceptions[p].insert(form, bases);
    }
    Some(WordNet {
        names,
        name_ids,
        index,
        ids,
        exceptions,
    })
}

impl WordNet {
    /// The id of a lemma name (case-sensitive), if some synset has it.
    pub fn name_id(&self, name: &str) -> Option<u32> {
        self.name_ids.get(name).copied()
    }

    pub fn name(&self, id: u32) -> &'static str {
        self.names.get(id as usize).copied().unwrap_or("")
    }

    /// Ids of the lemma names without "_" of `wordnet.synsets(word)`, sorted, without repeats.
    pub fn synonym_ids(&self, word: &str) -> Vec<u32> {
        let word = py_lower(word);
        let mut out = Vec::new();
        for (p, rules) in RULES.iter().enumerate() {
            let mut add = |form: &str| {
                if let Some(&(start, end)) = self.index.get(form).and_then(|r| r.get(p)) {
                    out.extend_from_slice(
                        self.ids.get(start as usize..end as usize).unwrap_or(&[]),
                    );
                }
            };
            add(&word);
            match self.exceptions[p].get(word.as_str()) {
                Some(bases) => bases.iter().for_each(|b| add(b)),
                None => {
                    for (old, new) in rules.iter() {
                        if let Some(stem) = word.strip_suffix(old) {
                            add(&format!("{stem}{new}"));
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The lemma names of [`WordNet::synonym_ids`], sorted by code point.
    pub fn synonyms(&self, word: &str) -> Vec<&'static str> {
        self.synonym_ids(word)
            .into_iter()
            .map(|i| self.name(i))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::wordnet;

    #[test]
    fn loads_and_finds_synonyms() {
        let wn = wordnet().unwrap();
        assert!(wn.synonyms("quick").contains(&"fast"));
        assert!(wn.synonyms("dogs").contains(&"dog"));
        assert!(!wn.synonyms("dogs").contains(&"domestic_dog"));
        assert!(wn.synonyms("ran").contains(&"run"));
        assert!(wn.synonyms("Japan").contains(&"Japan"));
        assert!(wn.synonyms("xyzzy").is_empty());
    }
}
