//! nltk 3.10.4 `word_tokenize`: Punkt english sentences, then `NLTKWordTokenizer` on each.
//!
//! Each substitution of `NLTKWordTokenizer.tokenize` is a hand-written pass that reproduces the
//! reference's global, left-to-right, non-overlapping `sub` exactly (Python `$`, lookarounds, the
//! `regex` module's classes and, for the contractions, stdlib `re`'s case-insensitive `\b`). Every
//! pattern starts with an ASCII character or a fixed UTF-8 sequence, so a pass jumps from one
//! "trigger" byte to the next and only decodes the characters around a hit; a pass none of whose
//! trigger bytes occurs in the text is skipped, and one that finds nothing leaves the text untouched.

use super::punkt;
use super::unicode::{is_py_space, is_re_word, is_regex_digit, is_regex_space, is_regex_word};
use super::Tokens;

/// `nltk.word_tokenize(text)` (language="english", preserve_line=False).
pub fn word_tokenize(text: &str) -> Vec<String> {
    let mut tokens = Tokens::with_capacity(text.len());
    word_tokenize_into(text, &mut tokens);
    tokens.to_strings()
}

/// `word_tokenize(text)`, appended to `out`.
pub fn word_tokenize_into(text: &str, out: &mut Tokens) {
    let mut passes = Passes::default();
    for sentence in punkt::sentences(text) {
        passes.tokenize(sentence, out);
    }
}

/// The bytes a match of a pass can start with (UTF-8 lead bytes for non-ASCII characters).
struct Triggers<const N: usize> {
    bytes: [u8; N],
    table: [bool; 256],
}

const fn triggers<const N: usize>(bytes: &[u8; N]) -> Triggers<N> {
    let mut table = [false; 256];
    let mut i = 0;
    while i < N {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    Triggers {
        bytes: *bytes,
        table,
    }
}

impl<const N: usize> Triggers<N> {
    /// Position of the first trigger byte at or after `from`.
    fn find(&self, b: &[u8], from: usize) -> Option<usize> {
        let mut offset = from;
        if N <= 2 {
            // Rare bytes: skip 16-byte blocks without one (the comparisons vectorize).
            for block in b.get(from..)?.chunks_exact(16) {
                let hit = block.iter().fold(false, |acc, &x| {
                    acc | self.bytes.iter().fold(false, |h, &t| h | (t == x))
                });
                if hit {
                    break;
                }
                offset += 16;
            }
        }
        let k = b
            .get(offset..)?
            .iter()
            .position(|&x| self.table[x as usize])?;
        Some(offset + k)
    }
}

/// Which byte values occur in the text (kept conservatively up to date by `Rewrite::replace`).
type Present = [bool; 256];

/// Builds the result of one replace-all: untouched stretches are copied from `src` in bulk.
struct Rewrite<'a> {
    src: &'a str,
    out: &'a mut String,
    copied: usize,
    present: &'a mut Present,
}

impl Rewrite<'_> {
    /// Replaces `src[start..end]` (which must follow the previous replacement) by `parts`.
    fn replace(&mut self, start: usize, end: usize, parts: &[&str]) {
        self.out
            .push_str(self.src.get(self.copied..start).unwrap_or(""));
        for part in parts {
            self.out.push_str(part);
            for b in part.bytes() {
                self.present[b as usize] = true;
            }
        }
        self.copied = end;
    }

    /// Surrounds `src[start..end]` with spaces (the replacement ` \g<0> `).
    fn pad(&mut self, start: usize, end: usize) {
        let src = self.src;
        self.replace(start, end, &[" ", src.get(start..end).unwrap_or(""), " "]);
    }
}

/// The text being tokenized and a spare buffer the passes alternate with.
struct Passes {
    text: String,
    spare: String,
    present: Present,
}

impl Default for Passes {
    fn default() -> Self {
        Passes {
            text: String::new(),
            spare: String::new(),
            present: [false; 256],
        }
    }
}

impl Passes {
    /// Runs `pass` unless none of its trigger bytes occurs in the text.
    fn apply<const N: usize>(&mut self, triggers: &Triggers<N>, pass: fn(&mut Rewrite)) {
        if !triggers.bytes.iter().any(|&b| self.present[b as usize]) {
            return;
        }
        self.spare.clear();
        let mut rw = Rewrite {
            src: &self.text,
            out: &mut self.spare,
            copied: 0,
            present: &mut self.present,
        };
        pass(&mut rw);
        // Every replacement ends past byte 0, so `copied > 0` means the pass changed the text.
        if rw.copied > 0 {
            let rest = rw.src.get(rw.copied..).unwrap_or("");
            rw.out.push_str(rest);
            std::mem::swap(&mut self.text, &mut self.spare);
        }
    }

    /// `NLTKWordTokenizer().tokenize(sentence)`, appended to `tokens`.
    fn tokenize(&mut self, sentence: &str, tokens: &mut Tokens) {
        self.text.clear();
        self.spare.clear();
        // Room for the passes' copies of the sentence: without it the tokens are incomplete (an
        // error for the row), as a failed allocation would end the process.
        let room = 2 * sentence.len() + 16;
        if self.text.try_reserve(room).is_err() || self.spare.try_reserve(room).is_err() {
            tokens.mark_incomplete();
            return;
        }
        self.text.push_str(sentence);
        self.present = [false; 256];
        for b in sentence.bytes() {
            self.present[b as usize] = true;
        }
        // STARTING_QUOTES
        self.apply(&OPENING_QUOTES, opening_quotes);
        self.apply(&DOUBLE_QUOTE, leading_double_quote);
        self.apply(&BACKTICK, double_backticks);
        self.apply(&QUOTES, quote_after_opener);
        self.apply(&APOSTROPHE, opening_apostrophe);
        // PUNCTUATION
        self.apply(&PERIOD, |rw| final_period(rw, is_p1_closer, " . "));
        self.apply(&COLON_COMMA, colon_comma_before_non_digit);
        self.apply(&COLON_COMMA, colon_comma_at_end);
        self.apply(&PERIOD, ellipses);
        self.apply(&SYMBOLS_DASHES, symbols_and_dashes);
        self.apply(&PERIOD, |rw| final_period(rw, is_p7_closer, " ."));
        self.apply(&QUESTION_EXCLAMATION, |rw| {
            pad_matches(rw, &QUESTION_EXCLAMATION, |_, _| Some(1))
        });
        self.apply(&APOSTROPHE, closing_apostrophe);
        // PUNCTUATION's `[*]`, PARENS_BRACKETS, DOUBLE_DASHES
        self.apply(&STAR_BRACKETS_DASH, star_brackets_double_dash);
        // " " + text + " "
        self.spare.clear();
        self.spare.push(' ');
        self.spare.push_str(&self.text);
        self.spare.push(' ');
        std::mem::swap(&mut self.text, &mut self.spare);
        self.present[b' ' as usize] = true;
        // ENDING_QUOTES
        self.apply(&ENDING_QUOTES, ending_quotes);
        // `\s+` → ` `. Among the later patterns only those with a literal space care about
        // whitespace, and they see a run of spaces like one space: with no other whitespace in
        // the text, collapsing could not change the tokens.
        self.apply(&OTHER_WHITESPACE, collapse_whitespace);
        self.apply(&APOSTROPHE, clitic_s_m_d);
        self.apply(&APOSTROPHE, clitic_ll_re_ve_nt);
        // CONTRACTIONS2, CONTRACTIONS3
        self.apply(&CONTRACTION_STARTS, macintyre_contractions);
        self.apply(&APOSTROPHE, tis_twas);
        tokens.extend_split(&self.text);
    }
}

const OPENING_QUOTES: Triggers<3> = triggers(b"`\xC2\xE2");
const DOUBLE_QUOTE: Triggers<1> = triggers(b"\"");
const BACKTICK: Triggers<1> = triggers(b"`");
const QUOTES: Triggers<2> = triggers(b"\"'");
const APOSTROPHE: Triggers<1> = triggers(b"'");
const PERIOD: Triggers<1> = triggers(b".");
const COLON_COMMA: Triggers<2> = triggers(b":,");
const SYMBOLS_DASHES: Triggers<7> = triggers(b";@#$%&\xE2");
const QUESTION_EXCLAMATION: Triggers<2> = triggers(b"?!");
const STAR_BRACKETS_DASH: Triggers<10> = triggers(b"*[](){}<>-");
const ENDING_QUOTES: Triggers<4> = triggers(b"\"'\xC2\xE2");
// ASCII whitespace and the lead bytes of U+0085, U+00A0, U+1680, U+2000..U+205F and U+3000.
const WHITESPACE: Triggers<10> = triggers(b" \t\n\x0b\x0c\r\xC2\xE1\xE2\xE3");
// The same without the space.
const OTHER_WHITESPACE: Triggers<9> = triggers(b"\t\n\x0b\x0c\r\xC2\xE1\xE2\xE3");
const CONTRACTION_STARTS: Triggers<12> = triggers(b"cdglmwCDGLMW");

/// Pads every match of `matcher` (replacement ` \g<0> `), scanning left to right without overlaps;
/// `matcher` gives the byte length of the match at a trigger byte, if any.
fn pad_matches<const N: usize>(
    rw: &mut Rewrite,
    t: &Triggers<N>,
    matcher: impl Fn(&[u8], usize) -> Option<usize>,
) {
    let b = rw.src.as_bytes();
    let mut i = 0;
    while let Some(k) = t.find(b, i) {
        match matcher(b, k) {
            Some(n) => {
                rw.pad(k, k + n);
                i = k + n;
            }
            None => i = k + 1,
        }
    }
}

fn char_before(s: &str, i: usize) -> Option<char> {
    s.get(..i)?.chars().next_back()
}

fn char_at(s: &str, i: usize) -> Option<char> {
    s.get(i..)?.chars().next()
}

fn run_of(b: &[u8], i: usize, byte: u8) -> usize {
    b.get(i..)
        .map_or(0, |rest| rest.iter().take_while(|&&x| x == byte).count())
}

// ---------------------------------------------------------------------------------------------------
// STARTING_QUOTES

/// `([«“‘„]|[`]+)` → ` \1 `
fn opening_quotes(rw: &mut Rewrite) {
    let t = &OPENING_QUOTES;
    pad_matches(rw, t, |b, i| match b.get(i..)? {
        [b'`', ..] => Some(run_of(b, i, b'`')),
        [0xC2, 0xAB, ..] => Some(2),
        [0xE2, 0x80, 0x9C | 0x98 | 0x9E, ..] => Some(3),
        _ => None,
    });
}

/// `^"` → ``` `` ```
fn leading_double_quote(rw: &mut Rewrite) {
    if rw.src.starts_with('"') {
        rw.replace(0, 1, &["``"]);
    }
}

/// ``(``)`` → ` \1 `
fn double_backticks(rw: &mut Rewrite) {
    let t = &BACKTICK;
    pad_matches(rw, t, |b, i| b.get(i..)?.starts_with(b"``").then_some(2));
}

/// `([ \(\[{<])(\"|\'{2})` → ``\1 `` ``. Quotes are not openers, so the opener before a quote never
/// belongs to the previous match.
fn quote_after_opener(rw: &mut Rewrite) {
    let t = &QUOTES;
    let b = rw.src.as_bytes();
    let mut i = 0;
    while let Some(k) = t.find(b, i) {
        let opener = k > 0 && matches!(b[k - 1], b' ' | b'(' | b'[' | b'{' | b'<');
        let quotes = match b.get(k..) {
            Some([b'"', ..]) => 1,
            Some([b'\'', b'\'', ..]) => 2,
            _ => 0,
        };
        if opener && quotes > 0 {
            rw.replace(k, k + quotes, &[" `` "]);
            i = k + quotes;
        } else {
            i = k + 1;
        }
    }
}

/// Case-insensitive equality of `c` with the lower-case ASCII pattern character `p`, as stdlib `re`
/// matches it: besides the two ASCII cases, `s` also matches U+017F (long s) and `i` matches U+0130
/// and U+0131. (The `regex` module agrees on every letter used with `(?i)` here except `i`, which
/// only the stdlib `re` patterns contain.)
fn ci_eq(c: char, p: u8) -> bool {
    if c.is_ascii() {
        return c.to_ascii_lowercase() == p as char;
    }
    matches!((p, c), (b's', '\u{17F}') | (b'i', '\u{130}' | '\u{131}'))
}

/// Byte length of the case-insensitive match of `pattern` at the start of `s`.
fn match_ci(s: &str, pattern: &str) -> Option<usize> {
    let mut len = 0;
    for p in pattern.bytes() {
        let c = char_at(s, len)?;
        if !ci_eq(c, p) {
            return None;
        }
        len += c.len_utf8();
    }
    Some(len)
}

/// `(?i)(?<!\w)(\')(?!(?:re|ve|ll|m|t|s|d|n)\b)(?=\w)` → `\1 `: an opening apostrophe glued to a
/// word that does not start like a contraction suffix.
fn opening_apostrophe(rw: &mut Rewrite) {
    let t = &APOSTROPHE;
    let src = rw.src;
    let mut i = 0;
    while let Some(k) = t.find(src.as_bytes(), i) {
        i = k + 1;
        if char_before(src, k).is_some_and(is_regex_word) {
            continue;
        }
        let rest = src.get(k + 1..).unwrap_or("");
        if !char_at(rest, 0).is_some_and(is_regex_word) {
            continue;
        }
        let suffix = ["re", "ve", "ll", "m", "t", "s", "d", "n"]
            .iter()
            .any(|suffix| {
                match_ci(rest, suffix).is_some_and(|n| !char_at(rest, n).is_some_and(is_regex_word))
            });
        if !suffix {
            rw.replace(k, k + 1, &["' "]);
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// PUNCTUATION

/// The closing characters P1 allows between the final period and the trailing whitespace.
fn is_p1_closer(c: char) -> bool {
    matches!(
        c,
        ']' | ')' | '}' | '>' | '"' | '\'' | '\u{BB}' | '\u{201D}' | '\u{2019}' | ' '
    )
}

/// The closing characters P7 allows.
fn is_p7_closer(c: char) -> bool {
    matches!(c, ']' | ')' | '}' | '>' | '"' | '\'')
}

/// `([^\.])(\.)([closers]*)\s*$` → `\1 \2 \3 ` (P1, `sep` " . ") or `\1 \2\3 ` (P7, `sep` " .").
///
/// The match runs to the end of the string (`\s*` also eats a final "\n"), so its period is the last
/// one of the string; the closer run is maximal (possessive in P1; in P7 giving closers back cannot
/// help since none is whitespace) and must be followed by whitespace only.
fn final_period(rw: &mut Rewrite, is_closer: fn(char) -> bool, sep: &str) {
    let src = rw.src;
    let Some(dot) = src.rfind('.') else {
        return;
    };
    if char_before(src, dot).is_none_or(|c| c == '.') {
        return;
    }
    let after = src.get(dot + 1..).unwrap_or("");
    let closers = after.find(|c| !is_closer(c)).unwrap_or(after.len());
    let (run, rest) = after.split_at(closers);
    if rest.chars().all(is_regex_space) {
        rw.replace(dot, src.len(), &[sep, run, " "]);
    }
}

/// `([:,])([^\d])` → ` \1 \2`
fn colon_comma_before_non_digit(rw: &mut Rewrite) {
    let t = &COLON_COMMA;
    let src = rw.src;
    let mut i = 0;
    while let Some(k) = t.find(src.as_bytes(), i) {
        match char_at(src, k + 1).filter(|&c| !is_regex_digit(c)) {
            Some(next) => {
                rw.pad(k, k + 1);
                i = k + 1 + next.len_utf8();
            }
            None => i = k + 1,
        }
    }
}

/// `([:,])$` → ` \1 ` (`$`: the end, or just before a final "\n").
fn colon_comma_at_end(rw: &mut Rewrite) {
    let b = rw.src.as_bytes();
    let end = match b {
        [.., b':' | b','] => b.len(),
        [.., b':' | b',', b'\n'] => b.len() - 1,
        _ => return,
    };
    rw.pad(end - 1, end);
}

/// `\.{2,}` → ` \g<0> `
fn ellipses(rw: &mut Rewrite) {
    let t = &PERIOD;
    pad_matches(rw, t, |b, i| Some(run_of(b, i, b'.')).filter(|&n| n >= 2));
}

/// `[;@#$%&]` → ` \g<0> ` then `[\u2012-\u2015]` → ` \g<0> ` (figure dash to horizontal bar,
/// E2 80 92..95), in one scan: both pad single characters of disjoint sets.
fn symbols_and_dashes(rw: &mut Rewrite) {
    let t = &SYMBOLS_DASHES;
    pad_matches(rw, t, |b, i| match b.get(i..)? {
        [0xE2, 0x80, 0x92..=0x95, ..] => Some(3),
        [0xE2, ..] => None,
        _ => Some(1),
    });
}

/// `([^'])' ` → `\1 ' `
fn closing_apostrophe(rw: &mut Rewrite) {
    let t = &APOSTROPHE;
    let src = rw.src;
    let b = src.as_bytes();
    let mut match_end = 0;
    let mut i = 0;
    while let Some(k) = t.find(b, i) {
        i = k + 1;
        if b.get(k + 1) != Some(&b' ') {
            continue;
        }
        if let Some(c) = char_before(src, k) {
            if c != '\'' && k - c.len_utf8() >= match_end {
                rw.replace(k, k + 2, &[" ' "]);
                match_end = k + 2;
                i = match_end;
            }
        }
    }
}

/// `[*]`, then `[\]\[\(\)\{\}\<\>]`, then `--`, each → ` \g<0> `, in one scan: padding a star or a
/// bracket never changes how the dashes pair up.
fn star_brackets_double_dash(rw: &mut Rewrite) {
    let t = &STAR_BRACKETS_DASH;
    pad_matches(rw, t, |b, i| match b.get(i..)? {
        [b'-', b'-', ..] => Some(2),
        [b'-', ..] => None,
        _ => Some(1),
    });
}

// ---------------------------------------------------------------------------------------------------
// ENDING_QUOTES

/// `([»”’])` → ` \1 `, then `''` → ` '' `, then `"` → ` '' `, in one scan: the first adds no `'`,
/// the second no `"`, and the `''` the third creates are not looked at again.
fn ending_quotes(rw: &mut Rewrite) {
    let t = &ENDING_QUOTES;
    let b = rw.src.as_bytes();
    let mut i = 0;
    while let Some(k) = t.find(b, i) {
        i = k + 1;
        match b.get(k..) {
            Some([b'"', ..]) => rw.replace(k, k + 1, &[" '' "]),
            Some([b'\'', b'\'', ..]) => {
                rw.pad(k, k + 2);
                i = k + 2;
            }
            Some([0xC2, 0xBB, ..]) => {
                rw.pad(k, k + 2);
                i = k + 2;
            }
            Some([0xE2, 0x80, 0x9D | 0x99, ..]) => {
                rw.pad(k, k + 3);
                i = k + 3;
            }
            _ => {}
        }
    }
}

/// Byte length of the `regex` `\s` character at byte `i` of `s` (0 if there is none).
fn space_len(s: &str, i: usize) -> usize {
    match s.as_bytes().get(i) {
        Some(&x) if x.is_ascii() => WHITESPACE.table[x as usize] as usize,
        Some(&x) if WHITESPACE.table[x as usize] => match char_at(s, i) {
            Some(c) if is_regex_space(c) => c.len_utf8(),
            _ => 0,
        },
        _ => 0,
    }
}

/// `\s+` → ` ` (`regex` `\s`: U+001C..U+001F are left alone).
fn collapse_whitespace(rw: &mut Rewrite) {
    let src = rw.src;
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !WHITESPACE.table[b[i] as usize] {
            i += 1;
            continue;
        }
        let start = i;
        loop {
            match space_len(src, i) {
                0 => break,
                n => i += n,
            }
        }
        if i == start {
            // The lead byte of a non-space character.
            i += 1;
        } else if src.get(start..i) != Some(" ") {
            rw.replace(start, i, &[" "]);
        }
    }
}

/// The character before byte `i` when a match may start there: it exists, is not `'` or a space,
/// and does not overlap the previous match.
fn clitic_host(src: &str, i: usize, match_end: usize) -> bool {
    char_before(src, i).is_some_and(|c| c != '\'' && c != ' ' && i - c.len_utf8() >= match_end)
}

/// `([^' ])('[sS]|'[mM]|'[dD]|') ` → `\1 \2 `
fn clitic_s_m_d(rw: &mut Rewrite) {
    let t = &APOSTROPHE;
    let src = rw.src;
    let b = src.as_bytes();
    let mut match_end = 0;
    let mut i = 0;
    while let Some(k) = t.find(b, i) {
        i = k + 1;
        let len = match b.get(k + 1..) {
            Some([b's' | b'S' | b'm' | b'M' | b'd' | b'D', b' ', ..]) => 2,
            Some([b' ', ..]) => 1,
            _ => continue,
        };
        if clitic_host(src, k, match_end) {
            let clitic = src.get(k..k + len).unwrap_or("");
            rw.replace(k, k + len + 1, &[" ", clitic, " "]);
            match_end = k + len + 1;
            i = match_end;
        }
    }
}

/// `([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ` → `\1 \2 `
fn clitic_ll_re_ve_nt(rw: &mut Rewrite) {
    let t = &APOSTROPHE;
    const CLITICS: [&[u8]; 8] = [
        b"'ll", b"'LL", b"'re", b"'RE", b"'ve", b"'VE", b"n't", b"N'T",
    ];
    let src = rw.src;
    let b = src.as_bytes();
    let mut match_end = 0;
    let mut i = 0;
    while let Some(k) = t.find(b, i) {
        i = k + 1;
        // The clitic starts at the apostrophe or, for n't, one byte before it.
        let is_clitic = |s: usize| {
            b.get(s..s + 4)
                .is_some_and(|w| w[3] == b' ' && CLITICS.iter().any(|c| w.starts_with(c)))
        };
        let starts = [k.checked_sub(1), Some(k)];
        let Some(start) = starts.into_iter().flatten().find(|&s| is_clitic(s)) else {
            continue;
        };
        if clitic_host(src, start, match_end) {
            let clitic = src.get(start..start + 3).unwrap_or("");
            rw.replace(start, start + 4, &[" ", clitic, " "]);
            match_end = start + 4;
            i = match_end;
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// CONTRACTIONS2 / CONTRACTIONS3 (stdlib `re`, case-insensitive, `\b` on `re`'s `\w`)

/// What must follow a contraction.
enum After {
    /// `\b` after a letter: a non-word character or the end.
    Boundary,
    /// `(?=\s)`
    Space,
}

const CONTRACTIONS: [(&str, &str, After); 8] = [
    ("can", "not", After::Boundary),
    ("d", "'ye", After::Boundary),
    ("gim", "me", After::Boundary),
    ("gon", "na", After::Boundary),
    ("got", "ta", After::Boundary),
    ("lem", "me", After::Boundary),
    ("more", "'n", After::Boundary),
    ("wan", "na", After::Space),
];

/// Byte lengths of the two groups of `first`+`second` matched at the start of `s`, followed by `after`.
fn match_groups(s: &str, first: &str, second: &str, after: &After) -> Option<(usize, usize)> {
    let n1 = match_ci(s, first)?;
    let n2 = match_ci(s.get(n1..)?, second)?;
    let next = char_at(s, n1 + n2);
    let ok = match after {
        After::Boundary => !next.is_some_and(is_re_word),
        After::Space => next.is_some_and(is_py_space),
    };
    ok.then_some((n1, n2))
}

/// The eight CONTRACTIONS2 substitutions `\b(can)(not)\b` … `\b(wan)(na)(?=\s)` → ` \1 \2 `, in one
/// scan. Applying them one after another gives the same result: each match is a whole `re` word,
/// no word matches two patterns, and the spaces a replacement adds sit between a word character and
/// a non-word character, where there was a boundary already. (No first letter of a pattern has a
/// non-ASCII case variant, so ASCII triggers find every match.)
fn macintyre_contractions(rw: &mut Rewrite) {
    let t = &CONTRACTION_STARTS;
    let src = rw.src;
    let mut i = 0;
    while let Some(k) = t.find(src.as_bytes(), i) {
        i = k + 1;
        // `\b` before a letter: the previous character is not a word character.
        if k > 0 && src.as_bytes()[k - 1].is_ascii_alphanumeric()
            || char_before(src, k).is_some_and(is_re_word)
        {
            continue;
        }
        let rest = src.get(k..).unwrap_or("");
        let letter = src.as_bytes()[k].to_ascii_lowercase();
        let hit = CONTRACTIONS
            .iter()
            .filter(|(first, _, _)| first.as_bytes().first() == Some(&letter))
            .find_map(|(first, second, after)| match_groups(rest, first, second, after));
        if let Some((n1, n2)) = hit {
            let (g1, g2) = (&rest[..n1], &rest[n1..n1 + n2]);
            rw.replace(k, k + n1 + n2, &[" ", g1, " ", g2, " "]);
            i = k + n1 + n2;
        }
    }
}

/// `(?i) ('t)(is)\b` and `(?i) ('t)(was)\b` → ` \1 \2 `, in one scan (their matches cannot overlap
/// or create one another).
fn tis_twas(rw: &mut Rewrite) {
    let t = &APOSTROPHE;
    let src = rw.src;
    let b = src.as_bytes();
    let mut i = 0;
    while let Some(k) = t.find(b, i) {
        i = k + 1;
        if k == 0 || b[k - 1] != b' ' {
            continue;
        }
        let rest = src.get(k..).unwrap_or("");
        let hit = ["is", "was"]
            .iter()
            .find_map(|word| match_groups(rest, "'t", word, &After::Boundary));
        if let Some((n1, n2)) = hit {
            let (g1, g2) = (&rest[..n1], &rest[n1..n1 + n2]);
            rw.replace(k - 1, k + n1 + n2, &[" ", g1, " ", g2, " "]);
            i = k + n1 + n2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        word_tokenize(s)
    }

    /// The word_tokenize column of TRICKY.md (a backtick is shown there as `ˋ`).
    #[test]
    fn tricky_examples() {
        let cases: &[(&str, &[&str])] = &[
            ("can't", &["ca", "n't"]),
            ("won't", &["wo", "n't"]),
            ("'tis", &["'", "tis"]),
            ("gonna", &["gon", "na"]),
            ("cannot", &["can", "not"]),
            ("I'm", &["I", "'m"]),
            (
                "\"Hi,\" he said.",
                &["``", "Hi", ",", "''", "he", "said", "."],
            ),
            ("“smart” ‘q’", &["“", "smart", "”", "‘", "q", "’"]),
            ("1,000,000.", &["1,000,000", "."]),
            ("3.14", &["3.14"]),
            ("$3.88 (10%)", &["$", "3.88", "(", "10", "%", ")"]),
            (
                "http://a.com/x?y=1&z=2",
                &["http", ":", "//a.com/x", "?", "y=1", "&", "z=2"],
            ),
            ("user@example.com", &["user", "@", "example.com"]),
            ("U.S.A.", &["U.S.A", "."]),
            ("U.S.A. is big.", &["U.S.A.", "is", "big", "."]),
            ("e.g. this", &["e.g", ".", "this"]),
            ("Mr. Smith", &["Mr.", "Smith"]),
            ("A. B. Smith", &["A", ".", "B.", "Smith"]),
            ("No. 5", &["No", ".", "5"]),
            ("well--known e-mail", &["well", "--", "known", "e-mail"]),
            ("a…b", &["a…b"]),
            ("...", &["..."]),
            ("!!!", &["!", "!", "!"]),
            ("", &[]),
            ("café naïve", &["café", "naïve"]),
            ("İstanbul", &["İstanbul"]),
            ("straße", &["straße"]),
            ("\u{212A}", &["\u{212A}"]),
            ("x y", &["x", "y"]),
            (
                "Go home.\u{a0}Now. Fast",
                &["Go", "home.", "Now", ".", "Fast"],
            ),
            (
                "Go home. Now. Fast",
                &["Go", "home", ".", "Now", ".", "Fast"],
            ),
            ("line1\nline2 can't", &["line1", "line2", "ca", "n't"]),
            ("tab\there", &["tab", "here"]),
            ("日本語です。", &["日本語です。"]),
            ("Привет, мир!", &["Привет", ",", "мир", "!"]),
            ("😀!", &["😀", "!"]),
            ("x² ½", &["x²", "½"]),
            ("&amp; &lt;", &["&", "amp", ";", "&", "lt", ";"]),
            ("<skipped>", &["<", "skipped", ">"]),
            ("fs\u{1c}gs", &["fs", "gs"]),
            ("running happily", &["running", "happily"]),
            ("generalizations", &["generalizations"]),
        ];
        for (input, expected) in cases {
            assert_eq!(toks(input), *expected, "input {input:?}");
        }
    }

    #[test]
    fn whitespace_triggers_cover_every_regex_space() {
        for c in (0..=0x10FFFF)
            .filter_map(char::from_u32)
            .filter(|&c| is_regex_space(c))
        {
            let mut buf = [0; 4];
            let lead = c.encode_utf8(&mut buf).as_bytes()[0];
            assert!(WHITESPACE.table[lead as usize], "{c:?}");
        }
    }

    #[test]
    fn reference_examples() {
        assert_eq!(
            toks("He said \"hi\"."),
            ["He", "said", "``", "hi", "''", "."]
        );
        assert_eq!(toks("'hello'"), ["'", "hello", "'"]);
        assert_eq!(toks("Chris' book"), ["Chris", "'", "book"]);
        assert_eq!(toks("3-4"), ["3-4"]);
        assert_eq!(toks("'90s"), ["'", "90s"]);
        assert_eq!(
            toks("d'ye more'n wanna "),
            ["d", "'ye", "more", "'n", "wan", "na"]
        );
    }
}
