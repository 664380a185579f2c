//! Punkt sentence splitting as nltk 3.10.4 `PunktTokenizer("english").tokenize` (inference only, with
//! the english punkt_tab parameters and boundary realignment), i.e. `nltk.sent_tokenize(text)`.
//!
//! Everything works on byte offsets into the original text; the reference works on code-point offsets,
//! which select the same slices. Regex classes follow the `regex` module (`\s`, `\w`, `\d`).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use super::unicode::{
    is_py_lower, is_py_upper, is_regex_digit, is_regex_space, is_regex_word, py_lower, py_rstrip,
    py_strip,
};

type Set<T> = HashSet<T, ahash::RandomState>;

/// The english punkt_tab tables.
struct Params {
    abbrev_types: Set<&'static str>,
    sent_starters: Set<&'static str>,
    collocations: Set<(&'static str, &'static str)>,
    ortho_context: HashMap<&'static str, u32, ahash::RandomState>,
}

// Orthographic context flags (word seen upper/lower case at the beginning, middle or unknown position
// of a sentence).
const BEG_UC: u32 = 2;
const MID_UC: u32 = 4;
const UNK_UC: u32 = 8;
const BEG_LC: u32 = 16;
const MID_LC: u32 = 32;
const UNK_LC: u32 = 64;
const UC: u32 = BEG_UC | MID_UC | UNK_UC;
const LC: u32 = BEG_LC | MID_LC | UNK_LC;

/// Lines of a punkt_tab file: nltk removes only the trailing "\n" of each line.
fn lines(data: &'static str) -> impl Iterator<Item = &'static str> {
    data.split_terminator('\n')
}

static PARAMS: LazyLock<Params> = LazyLock::new(|| Params {
    abbrev_types: lines(include_str!("../data/punkt_english/abbrev_types.txt")).collect(),
    sent_starters: lines(include_str!("../data/punkt_english/sent_starters.txt")).collect(),
    collocations: lines(include_str!("../data/punkt_english/collocations.tab"))
        .filter_map(|l| l.split_once('\t'))
        .collect(),
    ortho_context: lines(include_str!("../data/punkt_english/ortho_context.tab"))
        .filter_map(|l| {
            let (typ, flags) = l.split_once('\t')?;
            Some((typ, flags.parse().ok()?))
        })
        .collect(),
});

/// `nltk.sent_tokenize(text)` (english).
pub fn sent_tokenize(text: &str) -> Vec<String> {
    sentences(text).into_iter().map(str::to_string).collect()
}

/// The sentences of `text` as slices of it, exactly as `sent_tokenize` returns them.
pub fn sentences(text: &str) -> Vec<&str> {
    realign_boundaries(text, &slices_from_text(text))
        .into_iter()
        // A realigned slice can only be reversed in theory; Python would give "" for it.
        .map(|(start, end)| text.get(start..end).unwrap_or(""))
        .collect()
}

// ---------------------------------------------------------------------------------------------------
// Character classes of the Punkt regexes.

/// `_re_non_word_chars`: characters that cannot appear within words.
fn is_non_word(c: char) -> bool {
    matches!(
        c,
        ')' | '"'
            | ';'
            | '}'
            | ']'
            | '*'
            | ':'
            | '@'
            | '\''
            | '('
            | '{'
            | '['
            | '\u{2018}'
            | '\u{2019}'
            | '\u{201C}'
            | '\u{201D}'
            | '\u{AB}'
            | '\u{BB}'
            | '?'
            | '!'
    )
}

/// `_re_word_start`: characters that may start a word token.
fn is_word_start(c: char) -> bool {
    !matches!(
        c,
        '(' | '"'
            | '`'
            | '{'
            | '['
            | ':'
            | ';'
            | '&'
            | '#'
            | '*'
            | '@'
            | ')'
            | '}'
            | ']'
            | '-'
            | ','
    )
}

/// Closing punctuation moved onto the previous sentence by the boundary realignment.
fn is_closer(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | ')'
            | ']'
            | '}'
            | '\u{2018}'
            | '\u{2019}'
            | '\u{201C}'
            | '\u{201D}'
            | '\u{AB}'
            | '\u{BB}'
    )
}

fn first_char(s: &str) -> Option<char> {
    s.chars().next()
}

/// Length of the `(?:\.\s){2,}\.` match at the start of `s` (spaced ellipsis), if any.
fn spaced_ellipsis_len(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut end = 0; // end of the pairs ". " matched so far
    let mut last_pair = 0; // start of the last pair
    let mut pairs = 0;
    while bytes.get(end) == Some(&b'.') {
        match s.get(end + 1..).and_then(first_char) {
            Some(c) if is_regex_space(c) => {
                last_pair = end;
                end += 1 + c.len_utf8();
                pairs += 1;
            }
            _ => break,
        }
    }
    if pairs >= 2 && bytes.get(end) == Some(&b'.') {
        Some(end + 1)
    } else if pairs >= 3 {
        // Backtrack one pair: its period closes the match.
        Some(last_pair + 1)
    } else {
        None
    }
}

fn run_len(s: &str, b: u8) -> usize {
    s.bytes().take_while(|&x| x == b).count()
}

/// Length of the `_re_multi_char_punct` match (`--+`, `..+`, `. . .`) at the start of `s`, if any.
fn multi_char_len(s: &str) -> Option<usize> {
    if s.starts_with("--") {
        Some(run_len(s, b'-'))
    } else if s.starts_with("..") {
        Some(run_len(s, b'.'))
    } else {
        spaced_ellipsis_len(s)
    }
}

/// Whether `_re_multi_char_punct` matches at the start of `s` (as a lookahead: `. . .` suffices
/// for the spaced form, so this looks at five characters at most).
fn starts_multi_char(s: &str) -> bool {
    if s.starts_with("--") || s.starts_with("..") {
        return true;
    }
    let mut chars = s.chars();
    (0..2).all(|_| chars.next() == Some('.') && chars.next().is_some_and(is_regex_space))
        && chars.next() == Some('.')
}

/// The word tokenizer's end-of-word lookahead at the start of `rest` (`$` is the end of the line).
fn word_ends_before(rest: &str) -> bool {
    let Some(c) = first_char(rest) else {
        return true;
    };
    if is_regex_space(c) || is_non_word(c) || starts_multi_char(rest) {
        return true;
    }
    if c != ',' {
        return false;
    }
    let after = rest.get(1..).unwrap_or("");
    match first_char(after) {
        None => true,
        Some(d) => is_regex_space(d) || is_non_word(d) || starts_multi_char(after),
    }
}

/// `PunktLanguageVars.word_tokenize` over one line (`findall` of `_word_tokenize_fmt`).
struct LineWords<'a> {
    line: &'a str,
    pos: usize,
}

impl<'a> Iterator for LineWords<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        loop {
            let rest = self.line.get(self.pos..)?;
            let c = first_char(rest)?;
            if is_regex_space(c) {
                self.pos += c.len_utf8();
                continue;
            }
            let len = match multi_char_len(rest) {
                Some(len) => len,
                None if is_word_start(c) => {
                    // Lazy `\S+?`: the first position after at least one character where a word
                    // may end; it never passes whitespace, which always ends a word.
                    let mut len = c.len_utf8();
                    while let Some(rest_after) = rest.get(len..) {
                        if word_ends_before(rest_after) {
                            break;
                        }
                        len += first_char(rest_after).map_or(1, char::len_utf8);
                    }
                    len
                }
                None => c.len_utf8(),
            };
            self.pos += len;
            return rest.get(..len);
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Token annotation.

/// A Punkt token with its first-pass annotation.
struct Token<'a> {
    tok: &'a str,
    sentbreak: bool,
    abbr: bool,
    ellipsis: bool,
}

/// `^-?[\.,]?\d[\d,\.-]*\.?$`
fn is_number(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    let s = s
        .strip_prefix('.')
        .or_else(|| s.strip_prefix(','))
        .unwrap_or(s);
    let mut chars = s.chars();
    chars.next().is_some_and(is_regex_digit)
        && chars.all(|c| is_regex_digit(c) || matches!(c, ',' | '.' | '-'))
}

/// `PunktToken.type`: the lower-cased token, numbers replaced by `##number##`.
fn token_type(tok: &str) -> Cow<'static, str> {
    let lower = py_lower(tok);
    if is_number(&lower) {
        Cow::Borrowed("##number##")
    } else {
        Cow::Owned(lower)
    }
}

/// `type_no_period`: the type without a final period, unless the type is just ".".
fn without_period(typ: &str) -> &str {
    match typ.strip_suffix('.') {
        Some(rest) if !rest.is_empty() => rest,
        _ => typ,
    }
}

/// `[^\W\d]\.$` matched at the start: one letter (or `_`, mark, …) and a period.
fn is_initial(tok: &str) -> bool {
    let mut chars = tok.chars();
    matches!(
        (chars.next(), chars.next(), chars.next()),
        (Some(c), Some('.'), None) if is_regex_word(c) && !is_regex_digit(c)
    )
}

fn first_pass<'a>(tok: &'a str, params: &Params) -> Token<'a> {
    let mut token = Token {
        tok,
        sentbreak: false,
        abbr: false,
        ellipsis: false,
    };
    if matches!(tok, "." | "?" | "!") {
        token.sentbreak = true;
    } else if tok.len() >= 2 && tok.bytes().all(|b| b == b'.') {
        token.ellipsis = true;
    } else if let Some(base) = tok.strip_suffix('.') {
        if !base.ends_with('.') {
            let base = py_lower(base);
            let last_part = base.rsplit('-').next().unwrap_or(&base);
            if params.abbrev_types.contains(base.as_str())
                || params.abbrev_types.contains(last_part)
            {
                token.abbr = true;
            } else {
                token.sentbreak = true;
            }
        }
    }
    token
}

#[derive(PartialEq)]
enum Ortho {
    SentStarter,
    NotSentStarter,
    Unknown,
}

/// `_ortho_heuristic`: does `tok` (whose `type_no_sentperiod` is `typ`) start a sentence?
fn ortho_heuristic(tok: &str, typ: &str, params: &Params) -> Ortho {
    if matches!(tok, ";" | ":" | "," | "." | "!" | "?") {
        return Ortho::NotSentStarter;
    }
    let context = params.ortho_context.get(typ).copied().unwrap_or(0);
    let first = first_char(tok);
    if first.is_some_and(is_py_upper) && context & LC != 0 && context & MID_UC == 0 {
        return Ortho::SentStarter;
    }
    if first.is_some_and(is_py_lower) && (context & UC != 0 || context & BEG_LC == 0) {
        return Ortho::NotSentStarter;
    }
    Ortho::Unknown
}

/// `_second_pass_annotation` of `t1` given its (first-pass) successor `t2`; only `sentbreak` of `t1`
/// matters afterwards.
fn second_pass(t1: &mut Token, t2: &Token, params: &Params) {
    if !t1.tok.ends_with('.') {
        return;
    }
    let type1 = token_type(t1.tok);
    let typ = without_period(&type1);
    let type2 = token_type(t2.tok);
    let next_typ = if t2.sentbreak {
        without_period(&type2)
    } else {
        &type2
    };
    let initial = is_initial(t1.tok);
    let collocations: &Set<(&str, &str)> = &params.collocations;
    if collocations.contains(&(typ, next_typ)) {
        t1.sentbreak = false;
        t1.abbr = true;
        return;
    }
    let t2_upper = first_char(t2.tok).is_some_and(is_py_upper);
    if (t1.abbr || t1.ellipsis) && !initial {
        if ortho_heuristic(t2.tok, next_typ, params) == Ortho::SentStarter {
            t1.sentbreak = true;
            return;
        }
        if t2_upper && params.sent_starters.contains(next_typ) {
            t1.sentbreak = true;
            return;
        }
    }
    if initial || typ == "##number##" {
        let ortho = ortho_heuristic(t2.tok, next_typ, params);
        let always_upper = || params.ortho_context.get(next_typ).copied().unwrap_or(0) & LC == 0;
        if ortho == Ortho::NotSentStarter
            || (ortho == Ortho::Unknown && initial && t2_upper && always_upper())
        {
            t1.sentbreak = false;
            t1.abbr = true;
        }
    }
}

/// `text_contains_sentbreak`: some token other than the last is a sentence break after both passes.
fn contains_sentbreak(context: &str, params: &Params) -> bool {
    let mut previous: Option<Token> = None;
    for line in context.split('\n') {
        if py_strip(line).is_empty() {
            continue;
        }
        for word in (LineWords { line, pos: 0 }) {
            let token = first_pass(word, params);
            if let Some(mut t1) = previous.take() {
                second_pass(&mut t1, &token, params);
                if t1.sentbreak {
                    return true;
                }
            }
            previous = Some(token);
        }
    }
    false
}

// ---------------------------------------------------------------------------------------------------
// Sentence slices.

/// A match of `period_context_re`: a sentence-end character followed by punctuation or by
/// whitespace and a token.
struct Candidate {
    /// Byte offset of the `.`, `?` or `!` (the match is this one character).
    start: usize,
    /// End of the `after_tok` lookahead group.
    after_end: usize,
    /// Start of `next_tok` when the whitespace branch matched.
    next_tok: Option<usize>,
}

fn candidates(text: &str) -> impl Iterator<Item = Candidate> + '_ {
    text.bytes()
        .enumerate()
        .filter(|&(_, b)| matches!(b, b'.' | b'?' | b'!'))
        .filter_map(move |(start, _)| {
            let after = start + 1;
            let c = text.get(after..).and_then(first_char)?;
            if is_non_word(c) {
                return Some(Candidate {
                    start,
                    after_end: after + c.len_utf8(),
                    next_tok: None,
                });
            }
            if !is_regex_space(c) {
                return None;
            }
            let rest = text.get(after..)?;
            let next_tok = after + rest.find(|c: char| !is_regex_space(c))?;
            let tok_len = text
                .get(next_tok..)?
                .find(is_regex_space)
                .unwrap_or(text.len() - next_tok);
            Some(Candidate {
                start,
                after_end: next_tok + tok_len,
                next_tok: Some(next_tok),
            })
        })
}

/// `_slices_from_text`, with `_match_potential_end_contexts` inlined: each candidate's context is the
/// word before it (found by an ASCII-only whitespace scan), the end character and `after_tok`; a
/// candidate whose word overlaps the next one's is dropped.
fn slices_from_text(text: &str) -> Vec<(usize, usize)> {
    let params = &*PARAMS;
    let mut slices = Vec::new();
    let mut last_break = 0;
    let mut check = |m: &Candidate, word_start: usize| {
        let context = text.get(word_start..m.after_end).unwrap_or("");
        if contains_sentbreak(context, params) {
            slices.push((last_break, m.start + 1));
            last_break = m.next_tok.unwrap_or(m.start + 1);
        }
    };
    let mut previous: Option<(Candidate, (usize, usize))> = None;
    let mut prev_slice = (0, 0);
    for m in candidates(text) {
        let before = text.get(prev_slice.1..m.start).unwrap_or("");
        let last_space = before
            .bytes()
            .rposition(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c'));
        let word_start = match last_space {
            Some(i) if i != 0 => prev_slice.1 + i + 1,
            _ => prev_slice.0,
        };
        if let Some((pm, slice)) = previous.take() {
            if slice.1 <= word_start {
                check(&pm, slice.0);
            }
        }
        prev_slice = (word_start, m.start);
        previous = Some((m, prev_slice));
    }
    if let Some((pm, slice)) = previous {
        check(&pm, slice.0);
    }
    slices.push((last_break, py_rstrip(text).len()));
    slices
}

/// `re_boundary_realignment.match(text[start:end])`: closing punctuation at the start of the next
/// sentence. Returns (length of the punctuation, end of the match), both relative to `start`.
fn realignment(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let s = text.get(start..end)?;
    let mut len = 0;
    loop {
        let c = s.get(len..).and_then(first_char)?;
        if !is_closer(c) {
            return None;
        }
        len += c.len_utf8();
        let rest = s.get(len..)?;
        match first_char(rest) {
            Some(c) if is_regex_space(c) => {
                let spaces = rest
                    .find(|c: char| !is_regex_space(c))
                    .unwrap_or(rest.len());
                return Some((len, len + spaces));
            }
            None => return Some((len, len)),
            Some(_) if rest.starts_with("--") => return Some((len, len)),
            Some(_) => {}
        }
    }
}

/// `_realign_boundaries`: moves closing quotes and brackets after a sentence end onto that sentence.
fn realign_boundaries(text: &str, slices: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(slices.len());
    let mut realign = 0;
    for (i, &(start, end)) in slices.iter().enumerate() {
        let start = start + realign;
        let Some(&(next_start, next_end)) = slices.get(i + 1) else {
            if start < end {
                out.push((start, end));
            }
            continue;
        };
        match realignment(text, next_start, next_end) {
            Some((len, match_end)) => {
                out.push((start, next_start + len));
                realign = match_end;
            }
            None => {
                realign = 0;
                if start < end {
                    out.push((start, end));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_load_completely() {
        let p = &*PARAMS;
        assert_eq!(p.abbrev_types.len(), 156);
        assert_eq!(p.sent_starters.len(), 39);
        assert_eq!(p.collocations.len(), 37);
        assert_eq!(p.ortho_context.len(), 20366);
        assert!(p.abbrev_types.contains("u.s.a"));
        assert!(!p.abbrev_types.contains("e.g"));
    }

    #[test]
    fn punkt_word_tokens() {
        let words = |s| LineWords { line: s, pos: 0 }.collect::<Vec<_>>();
        assert_eq!(words("Hello, world."), ["Hello", ",", "world."]);
        assert_eq!(words("a . . . b"), ["a", ". . .", "b"]);
        assert_eq!(words("x--y...z"), ["x", "--", "y", "...", "z"]);
        assert_eq!(words("(Sent1.) (x)"), ["(", "Sent1.", ")", "(", "x", ")"]);
        assert_eq!(words("1,000 a, b"), ["1,000", "a", ",", "b"]);
    }

    #[test]
    fn sentences_of_examples() {
        assert_eq!(sent_tokenize(""), Vec::<String>::new());
        assert_eq!(sent_tokenize(" \n "), Vec::<String>::new());
        assert_eq!(sent_tokenize(" Hello. World"), [" Hello.", "World"]);
        assert_eq!(
            sent_tokenize("Go home. Now. Fast"),
            ["Go home.", "Now.", "Fast"]
        );
        assert_eq!(
            sent_tokenize("Go home.\u{a0}Now. Fast"),
            ["Go home.\u{a0}Now.", "Fast"]
        );
        assert_eq!(sent_tokenize("U.S.A. is big."), ["U.S.A. is big."]);
        assert_eq!(sent_tokenize("e.g. this"), ["e.g.", "this"]);
        assert_eq!(sent_tokenize("A. B. Smith"), ["A.", "B. Smith"]);
        assert_eq!(sent_tokenize("(Sent1.) Sent2."), ["(Sent1.)", "Sent2."]);
        assert_eq!(
            sent_tokenize("Very bad acting!!! I promise."),
            ["Very bad acting!!!", "I promise."]
        );
    }
}
