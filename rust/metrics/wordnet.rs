//! The WordNet 3.0 synonyms nltk 3.10.4's METEOR sees: for a word w, the lemma names without "_" of
//! every synset of `wordnet.synsets(w)` (parts of speech n, v, a, r; morphy with the exception lists
//! and one application of the detachment rules).
//!
//! The data is `rust/data/wordnet/synonyms.txt`, built from the WordNet 3.0 files by
//! `tools/build_wordnet_table.py` (format documented there; licence in `rust/data/wordnet/LICENSE`),
//! compiled into the module and parsed once, on first use.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::meteor::lower;
use crate::error::{Error, Result};

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
    /// Every index lemma and exception form.
    forms: Map<&'static str, Form>,
    ids: Vec<u32>,
    bases: Vec<&'static str>,
}

/// What WordNet has on one form, per part of speech: the range in `ids` of the names of its
/// synsets, and the range in `bases` of its base forms if it is in the exception list.
#[derive(Debug, Default, Clone, Copy)]
struct Form {
    names: [(u32, u32); 4],
    exceptions: [Option<(u32, u32)>; 4],
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
    let mut forms: Map<&str, Form> = Map::default();
    let mut ids = Vec::new();
    for line in section(&mut lines, "index")? {
        let mut fields = line.split('\t');
        let form = forms.entry(fields.next()?).or_default();
        for range in &mut form.names {
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
    }
    let mut bases = Vec::new();
    for line in section(&mut lines, "exceptions")? {
        let mut fields = line.split('\t');
        let pos = fields.next()?;
        let p = POS
            .iter()
            .position(|&c| pos.len() == 1 && pos.starts_with(c))?;
        let form = forms.entry(fields.next()?).or_default();
        let start = bases.len() as u32;
        bases.extend(fields.next()?.split(',').filter(|b| !b.is_empty()));
        *form.exceptions.get_mut(p)? = Some((start, bases.len() as u32));
    }
    Some(WordNet {
        names,
        name_ids,
        forms,
        ids,
        bases,
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

    /// Calls `f` with the id of every lemma name without "_" of `wordnet.synsets(word)` (repeats
    /// included).
    pub fn for_each_synonym_id(&self, word: &str, mut f: impl FnMut(u32)) {
        let word = lower(word);
        let entry = self.forms.get(&*word);
        let mut add = |form: Option<&Form>, p: usize| {
            if let Some(&(start, end)) = form.and_then(|form| form.names.get(p)) {
                let ids = self.ids.get(start as usize..end as usize).unwrap_or(&[]);
                ids.iter().for_each(|&id| f(id));
            }
        };
        let mut candidate = String::new();
        for (p, rules) in RULES.iter().enumerate() {
            // morphy: the word itself, then its exception bases or else each rule applied once.
            add(entry, p);
            match entry.and_then(|form| form.exceptions.get(p).copied().flatten()) {
                Some((start, end)) => {
                    for base in self.bases.get(start as usize..end as usize).unwrap_or(&[]) {
                        add(self.forms.get(base), p);
                    }
                }
                None => {
                    for (old, new) in rules.iter() {
                        if let Some(stem) = word.strip_suffix(old) {
                            candidate.clear();
                            candidate.push_str(stem);
                            candidate.push_str(new);
                            add(self.forms.get(candidate.as_str()), p);
                        }
                    }
                }
            }
        }
    }

    /// Ids of the lemma names without "_" of `wordnet.synsets(word)`, sorted, without repeats.
    pub fn synonym_ids(&self, word: &str) -> Vec<u32> {
        let mut out = Vec::new();
        self.for_each_synonym_id(word, |id| out.push(id));
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
