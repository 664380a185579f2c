//! The Porter stemmer of nltk 3.10.4, `PorterStemmer()` in its default NLTK_EXTENSIONS mode:
//! `stem(word)` lower-cases (Python `str.lower`), returns the irregular-pool entry if any, returns
//! words of at most two code points unchanged, and otherwise applies steps 1a to 5b.
//!
//! Letters are code points; only `a e i o u` are vowels, `y` is a vowel after a consonant, and every
//! other code point (digits, `é`, ...) is a consonant. ASCII words run on bytes, others on chars,
//! through the same generic code.

use std::cell::RefCell;

use super::unicode::py_lower;

/// `PorterStemmer().stem(word)` of nltk 3.10.4.
pub fn stem(word: &str) -> String {
    let mut out = String::new();
    stem_into(word, &mut out);
    out
}

thread_local! {
    /// The letters of the ASCII word being stemmed, reused from word to word.
    static ASCII_WORD: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Appends `PorterStemmer().stem(word)` to `out`.
pub fn stem_into(word: &str, out: &mut String) {
    if word.is_ascii() {
        let mut stem_ascii = |w: &mut Vec<u8>| {
            w.clear();
            w.extend(word.bytes().map(|b| b.to_ascii_lowercase()));
            stem_lowered(w, word.len());
            out.extend(w.iter().map(|&b| char::from(b)));
        };
        ASCII_WORD.with(|cell| match cell.try_borrow_mut() {
            Ok(mut w) => stem_ascii(&mut w),
            Err(_) => stem_ascii(&mut Vec::new()),
        });
    } else {
        let mut w: Vec<char> = py_lower(word).chars().collect();
        stem_lowered(&mut w, word.chars().count());
        out.extend(w);
    }
}

/// NLTK_EXTENSIONS' pool of irregular forms.
const IRREGULAR: [(&str, &str); 16] = [
    ("skies", "sky"),
    ("sky", "sky"),
    ("dying", "die"),
    ("lying", "lie"),
    ("tying", "tie"),
    ("news", "news"),
    ("innings", "inning"),
    ("inning", "inning"),
    ("outings", "outing"),
    ("outing", "outing"),
    ("cannings", "canning"),
    ("canning", "canning"),
    ("howe", "howe"),
    ("proceed", "proceed"),
    ("exceed", "exceed"),
    ("succeed", "succeed"),
];

/// `stem` after lower-casing; `original_len` is the code-point length of the word before it.
fn stem_lowered<T: Letter>(w: &mut Vec<T>, original_len: usize) {
    if let Some(&(_, base)) = IRREGULAR
        .iter()
        .find(|(form, _)| form.len() == w.len() && ends_with(w, form))
    {
        w.clear();
        push_str(w, base);
    } else if original_len > 2 {
        steps(w);
    }
}

/// A code point of the word being stemmed: `u8` for ASCII words, `char` otherwise.
trait Letter: Copy + PartialEq + From<u8> {
    fn ascii(self) -> Option<u8>;
}

impl Letter for u8 {
    fn ascii(self) -> Option<u8> {
        self.is_ascii().then_some(self)
    }
}

impl Letter for char {
    fn ascii(self) -> Option<u8> {
        u8::try_from(self).ok().filter(u8::is_ascii)
    }
}

fn is<T: Letter>(c: T, b: u8) -> bool {
    c == T::from(b)
}

fn is_vowel_letter<T: Letter>(c: T) -> bool {
    is(c, b'a') || is(c, b'e') || is(c, b'i') || is(c, b'o') || is(c, b'u')
}

/// Compared from the last letter, where most rules fail.
fn ends_with<T: Letter>(w: &[T], suffix: &str) -> bool {
    let s = suffix.as_bytes();
    w.len() >= s.len() && w.iter().rev().zip(s.iter().rev()).all(|(&c, &b)| is(c, b))
}

fn push_str<T: Letter>(w: &mut Vec<T>, s: &str) {
    w.extend(s.bytes().map(T::from));
}

/// Replace the last `cut` letters by `add`.
fn replace<T: Letter>(w: &mut Vec<T>, cut: usize, add: &str) {
    w.truncate(w.len().saturating_sub(cut));
    push_str(w, add);
}

/// Consonant flag of every position, left to right (a `y` is a consonant at the start or after a
/// vowel).
fn consonant_flags<T: Letter>(w: &[T]) -> impl Iterator<Item = bool> + '_ {
    let mut prev = false;
    w.iter().enumerate().map(move |(i, &c)| {
        let cons = if is_vowel_letter(c) {
            false
        } else if is(c, b'y') {
            i == 0 || !prev
        } else {
            true
        };
        prev = cons;
        cons
    })
}

fn is_consonant<T: Letter>(w: &[T], i: usize) -> bool {
    consonant_flags(&w[..=i]).last().unwrap_or(true)
}

/// m: the number of vowel-consonant transitions.
fn measure<T: Letter>(w: &[T]) -> usize {
    let mut m = 0;
    let mut prev_vowel = false;
    for cons in consonant_flags(w) {
        if cons && prev_vowel {
            m += 1;
        }
        prev_vowel = !cons;
    }
    m
}

fn contains_vowel<T: Letter>(w: &[T]) -> bool {
    consonant_flags(w).any(|cons| !cons)
}

/// *d: ends with two equal letters, the last a consonant.
fn ends_double_consonant<T: Letter>(w: &[T]) -> bool {
    let n = w.len();
    n >= 2 && w[n - 1] == w[n - 2] && is_consonant(w, n - 1)
}

/// *o: consonant-vowel-consonant with the last not w, x or y; or (NLTK extension) a two-letter
/// vowel-consonant word.
fn ends_cvc<T: Letter>(w: &[T]) -> bool {
    let n = w.len();
    if n >= 3 {
        let last = w[n - 1];
        let cvc = is_consonant(w, n - 3) && !is_consonant(w, n - 2) && is_consonant(w, n - 1);
        if cvc && !is(last, b'w') && !is(last, b'x') && !is(last, b'y') {
            return true;
        }
    }
    n == 2 && !is_consonant(w, 0) && is_consonant(w, 1)
}

/// A rule's condition on the stem left after removing the suffix (`w` is the whole word).
type Condition<T> = fn(stem: &[T], w: &[T]) -> bool;

fn m_gt_0<T: Letter>(stem: &[T], _: &[T]) -> bool {
    measure(stem) > 0
}

fn m_gt_1<T: Letter>(stem: &[T], _: &[T]) -> bool {
    measure(stem) > 1
}

/// nltk's `_apply_rule_list`: the first rule whose suffix ends the word decides; if its condition
/// fails the word is left unchanged.
fn apply_rules<T: Letter>(w: &mut Vec<T>, rules: &[(&str, &str, Condition<T>)]) {
    for &(suffix, replacement, condition) in rules {
        if ends_with(w, suffix) {
            if condition(&w[..w.len() - suffix.len()], w) {
                replace(w, suffix.len(), replacement);
            }
            return;
        }
    }
}

fn steps<T: Letter>(w: &mut Vec<T>) {
    step1a(w);
    step1b(w);
    step1c(w);
    step2(w);
    step3(w);
    step4(w);
    step5a(w);
    step5b(w);
}

fn always<T: Letter>(_: &[T], _: &[T]) -> bool {
    true
}

fn step1a<T: Letter>(w: &mut Vec<T>) {
    if ends_with(w, "ies") && w.len() == 4 {
        replace(w, 3, "ie");
        return;
    }
    apply_rules(
        w,
        &[
            ("sses", "ss", always),
            ("ies", "i", always),
            ("ss", "ss", always),
            ("s", "", always),
        ],
    );
}

fn step1b<T: Letter>(w: &mut Vec<T>) {
    if ends_with(w, "ied") {
        let add = if w.len() == 4 { "ie" } else { "i" };
        replace(w, 3, add);
        return;
    }
    if ends_with(w, "eed") {
        if measure(&w[..w.len() - 3]) > 0 {
            replace(w, 3, "ee");
        }
        return;
    }
    let cut = if ends_with(w, "ed") {
        2
    } else if ends_with(w, "ing") {
        3
    } else {
        return;
    };
    if !contains_vowel(&w[..w.len() - cut]) {
        return;
    }
    w.truncate(w.len() - cut);
    for (suffix, replacement) in [("at", "ate"), ("bl", "ble"), ("iz", "ize")] {
        if ends_with(w, suffix) {
            replace(w, 2, replacement);
            return;
        }
    }
    let n = w.len();
    if ends_double_consonant(w) {
        let last = w[n - 1];
        if !is(last, b'l') && !is(last, b's') && !is(last, b'z') {
            w.pop();
        }
        return;
    }
    // nltk matches its "*d" pseudo-rule as a literal suffix too: "*d" becomes "d".
    if ends_with(w, "*d") {
        w.remove(n - 2);
        return;
    }
    if measure(w) == 1 && ends_cvc(w) {
        push_str(w, "e");
    }
}

fn step1c<T: Letter>(w: &mut Vec<T>) {
    let n = w.len();
    if ends_with(w, "y") && n - 1 > 1 && is_consonant(w, n - 2) {
        replace(w, 1, "i");
    }
}

fn logi_condition<T: Letter>(_: &[T], w: &[T]) -> bool {
    measure(&w[..w.len() - 3]) > 0
}

fn ion_condition<T: Letter>(stem: &[T], _: &[T]) -> bool {
    measure(stem) > 1 && stem.last().is_some_and(|&c| is(c, b's') || is(c, b't'))
}

/// The last letter, if ASCII: rules are grouped by the last letter of their suffix (keeping their
/// order), since only a rule whose suffix ends with the word's last letter can apply.
fn last_ascii<T: Letter>(w: &[T]) -> Option<u8> {
    w.last().and_then(|&c| c.ascii())
}

fn step2<T: Letter>(w: &mut Vec<T>) {
    if ends_with(w, "alli") && measure(&w[..w.len() - 4]) > 0 {
        replace(w, 4, "al");
        return step2(w);
    }
    let rules: &[(&str, &str, Condition<T>)] = match last_ascii(w) {
        Some(b'l') => &[("ational", "ate", m_gt_0), ("tional", "tion", m_gt_0)],
        Some(b'i') => &[
            ("enci", "ence", m_gt_0),
            ("anci", "ance", m_gt_0),
            ("bli", "ble", m_gt_0),
            ("alli", "al", m_gt_0),
            ("entli", "ent", m_gt_0),
            ("eli", "e", m_gt_0),
            ("ousli", "ous", m_gt_0),
            ("aliti", "al", m_gt_0),
            ("iviti", "ive", m_gt_0),
            ("biliti", "ble", m_gt_0),
            ("fulli", "ful", m_gt_0),
            ("logi", "log", logi_condition),
        ],
        Some(b'r') => &[("izer", "ize", m_gt_0), ("ator", "ate", m_gt_0)],
        Some(b'n') => &[("ization", "ize", m_gt_0), ("ation", "ate", m_gt_0)],
        Some(b'm') => &[("alism", "al", m_gt_0)],
        Some(b's') => &[
            ("iveness", "ive", m_gt_0),
            ("fulness", "ful", m_gt_0),
            ("ousness", "ous", m_gt_0),
        ],
        _ => &[],
    };
    apply_rules(w, rules);
}

fn step3<T: Letter>(w: &mut Vec<T>) {
    let rules: &[(&str, &str, Condition<T>)] = match last_ascii(w) {
        Some(b'e') => &[
            ("icate", "ic", m_gt_0),
            ("ative", "", m_gt_0),
            ("alize", "al", m_gt_0),
        ],
        Some(b'i') => &[("iciti", "ic", m_gt_0)],
        Some(b'l') => &[("ical", "ic", m_gt_0), ("ful", "", m_gt_0)],
        Some(b's') => &[("ness", "", m_gt_0)],
        _ => &[],
    };
    apply_rules(w, rules);
}

fn step4<T: Letter>(w: &mut Vec<T>) {
    let rules: &[(&str, &str, Condition<T>)] = match last_ascii(w) {
        Some(b'l') => &[("al", "", m_gt_1)],
        Some(b'e') => &[
            ("ance", "", m_gt_1),
            ("ence", "", m_gt_1),
            ("able", "", m_gt_1),
            ("ible", "", m_gt_1),
            ("ate", "", m_gt_1),
            ("ive", "", m_gt_1),
            ("ize", "", m_gt_1),
        ],
        Some(b'r') => &[("er", "", m_gt_1)],
        Some(b'c') => &[("ic", "", m_gt_1)],
        Some(b't') => &[
            ("ant", "", m_gt_1),
            ("ement", "", m_gt_1),
            ("ment", "", m_gt_1),
            ("ent", "", m_gt_1),
        ],
        Some(b'n') => &[("ion", "", ion_condition)],
        Some(b'u') => &[("ou", "", m_gt_1)],
        Some(b'm') => &[("ism", "", m_gt_1)],
        Some(b'i') => &[("iti", "", m_gt_1)],
        Some(b's') => &[("ous", "", m_gt_1)],
        _ => &[],
    };
    apply_rules(w, rules);
}

fn step5a<T: Letter>(w: &mut Vec<T>) {
    if ends_with(w, "e") {
        let stem = &w[..w.len() - 1];
        let m = measure(stem);
        if m > 1 || (m == 1 && !ends_cvc(stem)) {
            w.pop();
        }
    }
}

fn step5b<T: Letter>(w: &mut Vec<T>) {
    if ends_with(w, "ll") && measure(&w[..w.len() - 1]) > 1 {
        w.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn examples() {
        for (word, want) in [
            ("running", "run"),
            ("happily", "happili"),
            ("generalizations", "gener"),
            ("relational", "relat"),
            ("conditional", "condit"),
            ("dies", "die"),
            ("was", "wa"),
            ("its", "it"),
            ("ties", "tie"),
            ("skies", "sky"),
            ("Dying", "die"),
            ("caresses", "caress"),
            ("hopping", "hop"),
            ("falling", "fall"),
            ("filing", "file"),
            ("enjoy", "enjoy"),
            ("radicalli", "radic"),
            ("analogi", "analog"),
            ("controll", "control"),
            ("ba*ding", "bad"),
            ("a", "a"),
            ("İs", "i̇s"),
            ("yyyy", "yyyi"),
            ("café", "café"),
        ] {
            assert_eq!(stem(word), want, "{word}");
        }
    }
}
