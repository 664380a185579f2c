//! The WordNet 3.0 synonyms nltk 3.10.4's METEOR sees: for a word w, the lemma names without "_" of
//! every synset of `wordnet.synsets(w)` (parts of speech n, v, a, r; morphy with the exception lists
//! and one application of the detachment rules).
//!
//! The data is `rust/data/wordnet/synonyms.txt`, built from the WordNet 3.0 files by
//! `tools/build_wordnet_table.py` (format documented there; licence in `rust/data/wordnet/LICENSE`),
//! compiled into the module and parsed once, on first use.

use std::sync::LazyLock;

use super::meteor::lower;
use crate::error::{Error, Result};

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
    /// Every lemma name, index lemma and exception form, by its string.
    strings: Strings,
    forms: Vec<Form>,
    /// The name ids of the forms, per part of speech.
    ids: Vec<u32>,
    /// Per part of speech, the range in `bases` of an exception form's base forms.
    exceptions: Vec<[Option<(u32, u32)>; 4]>,
    /// The forms of the exception lists' base forms (those that are index lemmas).
    bases: Vec<u32>,
}

/// A value that is no id.
const NONE: u32 = u32::MAX;

/// What WordNet has on one form: its names (from `start` in `ids`, part of speech `p` ending at
/// `start + ends[p]`), and its exception bases if it is in an exception list.
#[derive(Clone, Copy)]
struct Form {
    start: u32,
    ends: [u16; 4],
    /// Index in `exceptions`, or `NONE`.
    exceptions: u32,
}

/// An open-addressing table from the strings WordNet knows to their name id and form. An entry
/// keeps the first 16 bytes of its string, so a look-up reads one cache line of the (large,
/// rarely cached) table, and the table text only for longer strings.
///
/// Most strings METEOR asks about are not in WordNet (stems such as "gener", morphy's
/// candidates): a Bloom filter thirty times smaller than the table answers most of those.
struct Strings {
    entries: Vec<Entry>,
    /// Two bits per string, in the 64-bit word its hash picks.
    filter: Vec<u64>,
    hasher: ahash::RandomState,
    /// The table text, which every string is a slice of.
    text: &'static str,
}

#[derive(Clone, Copy)]
#[repr(align(32))]
struct Entry {
    /// The first 16 bytes of the string, little-endian, zero past its end.
    head: u128,
    /// Where the string is in the table text (read for strings longer than `head`).
    offset: u32,
    /// `u32::MAX` for a free entry.
    len: u32,
    name: u32,
    form: u32,
}

impl Default for Entry {
    fn default() -> Self {
        Entry {
            head: 0,
            offset: 0,
            len: u32::MAX,
            name: NONE,
            form: NONE,
        }
    }
}

fn head(s: &str) -> u128 {
    let mut head = [0; 16];
    let n = s.len().min(16);
    if let (Some(to), Some(from)) = (head.get_mut(..n), s.as_bytes().get(..n)) {
        to.copy_from_slice(from);
    }
    u128::from_le_bytes(head)
}

/// The filter word and bits of a hash.
fn filter_bits(hash: u64, words: usize) -> (usize, u64) {
    let word = (hash >> 32) as usize & words.wrapping_sub(1);
    (word, 1 << (hash & 63) | 1 << (hash >> 6 & 63))
}

impl Strings {
    /// Room for `count` strings (fewer in practice: names and lemmas overlap), kept small so
    /// that fewer look-ups miss the cache.
    fn with_room(text: &'static str, count: usize) -> Strings {
        let size = (count + count / 4).next_power_of_two();
        Strings {
            entries: vec![Entry::default(); size],
            filter: vec![0; (size / 8).max(1)],
            hasher: ahash::RandomState::new(),
            text,
        }
    }

    /// The position of `s`'s entry, or of the free entry where it belongs (`hash` is its hash).
    fn position(&self, s: &str, hash: u64) -> usize {
        let mask = self.entries.len().wrapping_sub(1);
        let mut i = hash as usize & mask;
        let head = head(s);
        while let Some(e) = self.entries.get(i) {
            let found = e.len as usize == s.len()
                && e.head == head
                && (s.len() <= 16
                    || self
                        .text
                        .get(e.offset as usize..)
                        .is_some_and(|t| t.starts_with(s)));
            if found || e.len == u32::MAX {
                break;
            }
            i = (i + 1) & mask;
        }
        i
    }

    fn get(&self, s: &str) -> Option<&Entry> {
        let hash = self.hasher.hash_one(s);
        let (word, bits) = filter_bits(hash, self.filter.len());
        if self.filter.get(word).is_none_or(|&w| w & bits != bits) {
            return None;
        }
        self.entries
            .get(self.position(s, hash))
            .filter(|e| e.len != u32::MAX)
    }

    /// The entry of `s`, a slice of the table text, added if new.
    fn entry(&mut self, s: &'static str) -> Option<&mut Entry> {
        let hash = self.hasher.hash_one(s);
        let (word, bits) = filter_bits(hash, self.filter.len());
        *self.filter.get_mut(word)? |= bits;
        let i = self.position(s, hash);
        let offset = (s.as_ptr() as usize).checked_sub(self.text.as_ptr() as usize)?;
        let offset = u32::try_from(offset).ok()?;
        let len = u32::try_from(s.len()).ok()?;
        let e = self.entries.get_mut(i)?;
        if e.len == u32::MAX {
            *e = Entry {
                head: head(s),
                offset,
                len,
                ..Entry::default()
            };
        }
        Some(e)
    }
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
    let index = section(&mut lines, "index")?;
    let exception_lines = section(&mut lines, "exceptions")?;
    let count = names.len() + index.len() + exception_lines.len();
    let mut strings = Strings::with_room(table, count);
    for (i, &name) in names.iter().enumerate() {
        strings.entry(name)?.name = i as u32;
    }
    let mut forms = Vec::with_capacity(index.len());
    let mut ids = Vec::new();
    for line in index {
        let mut fields = line.split('\t');
        let lemma = fields.next()?;
        let start = ids.len() as u32;
        let mut ends = [0u16; 4];
        for end in &mut ends {
            let mut id = 0u32;
            for delta in fields.next()?.split(',').filter(|d| !d.is_empty()) {
                id = id.checked_add(u32::from_str_radix(delta, 36).ok()?)?;
                if id as usize >= names.len() {
                    return None;
                }
                ids.push(id);
            }
            *end = u16::try_from(ids.len() - start as usize).ok()?;
        }
        let entry = strings.entry(lemma)?;
        entry.form = forms.len() as u32;
        forms.push(Form {
            start,
            ends,
            exceptions: NONE,
        });
    }
    let mut exceptions: Vec<[Option<(u32, u32)>; 4]> = Vec::new();
    let mut bases = Vec::new();
    for line in exception_lines {
        let mut fields = line.split('\t');
        let pos = fields.next()?;
        let p = POS
            .iter()
            .position(|&c| pos.len() == 1 && pos.starts_with(c))?;
        let form = fields.next()?;
        let start = bases.len() as u32;
        // A base that is no index lemma has no names: leaving it out changes no union.
        for base in fields.next()?.split(',').filter(|b| !b.is_empty()) {
            if let Some(e) = strings.get(base).filter(|e| e.form != NONE) {
                bases.push(e.form);
            }
        }
        let range = Some((start, bases.len() as u32));
        let entry = strings.entry(form)?;
        if entry.form == NONE {
            entry.form = forms.len() as u32;
            forms.push(Form {
                start: 0,
                ends: [0; 4],
                exceptions: NONE,
            });
        }
        let form = forms.get_mut(entry.form as usize)?;
        if form.exceptions == NONE {
            form.exceptions = exceptions.len() as u32;
            exceptions.push([None; 4]);
        }
        *exceptions.get_mut(form.exceptions as usize)?.get_mut(p)? = range;
    }
    Some(WordNet {
        names,
        strings,
        forms,
        ids,
        exceptions,
        bases,
    })
}

/// `word.strip_suffix(suffix)` for a rule's short ASCII suffix, compared inline: the library's
/// comparison calls `memcmp`, which costs more than these few bytes, once per rule and new word.
fn strip_rule_suffix<'a>(word: &'a str, suffix: &str) -> Option<&'a str> {
    let cut = word.len().checked_sub(suffix.len())?;
    let tail = word.as_bytes().get(cut..)?;
    if tail.iter().zip(suffix.bytes()).all(|(&a, b)| a == b) {
        word.get(..cut)
    } else {
        None
    }
}

impl WordNet {
    /// The id of a lemma name (case-sensitive), if some synset has it.
    pub fn name_id(&self, name: &str) -> Option<u32> {
        self.strings
            .get(name)
            .map(|e| e.name)
            .filter(|&id| id != NONE)
    }

    pub fn name(&self, id: u32) -> &'static str {
        self.names.get(id as usize).copied().unwrap_or("")
    }

    fn form(&self, word: &str) -> Option<&Form> {
        self.forms.get(self.strings.get(word)?.form as usize)
    }

    /// The name ids of a form for the part of speech `p`.
    fn form_ids(&self, form: Option<&Form>, p: usize) -> &[u32] {
        let Some(form) = form else {
            return &[];
        };
        let start = match p.checked_sub(1) {
            Some(q) => form.ends.get(q).copied().unwrap_or(0),
            None => 0,
        };
        let end = form.ends.get(p).copied().unwrap_or(0);
        let base = form.start as usize;
        self.ids
            .get(base + usize::from(start)..base + usize::from(end))
            .unwrap_or(&[])
    }

    /// Appends the ids of the lemma names without "_" of `wordnet.synsets(word)`, sorted, without
    /// repeats.
    pub fn extend_synonym_ids(&self, word: &str, out: &mut Vec<u32>) {
        let start = out.len();
        let word = lower(word);
        let form = self.form(&word);
        let exceptions = form.and_then(|f| self.exceptions.get(f.exceptions as usize));
        let mut candidate = String::new();
        for (p, rules) in RULES.iter().enumerate() {
            // morphy: the word itself, then its exception bases or else each rule applied once.
            out.extend_from_slice(self.form_ids(form, p));
            match exceptions.and_then(|e| e.get(p).copied().flatten()) {
                Some((start, end)) => {
                    for &base in self.bases.get(start as usize..end as usize).unwrap_or(&[]) {
                        out.extend_from_slice(self.form_ids(self.forms.get(base as usize), p));
                    }
                }
                None => {
                    for (old, new) in rules.iter() {
                        if let Some(stem) = strip_rule_suffix(&word, old) {
                            candidate.clear();
                            candidate.push_str(stem);
                            candidate.push_str(new);
                            out.extend_from_slice(self.form_ids(self.form(&candidate), p));
                        }
                    }
                }
            }
        }
        if let Some(added) = out.get_mut(start..) {
            added.sort_unstable();
        }
        // `Vec::dedup` would also compare with the ids before `start`.
        let mut kept = start;
        for i in start..out.len() {
            let id = out[i];
            if kept == start || out[kept - 1] != id {
                out[kept] = id;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Ids of the lemma names without "_" of `wordnet.synsets(word)`, sorted, without repeats.
    pub fn synonym_ids(&self, word: &str) -> Vec<u32> {
        let mut out = Vec::new();
        self.extend_synonym_ids(word, &mut out);
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
