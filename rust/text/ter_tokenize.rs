//! sacrebleu 2.6.0 `TercomTokenizer` (the TER preprocessing, a port of tercom's Normalizer): optional
//! lower-casing, "western" normalisation (line joins, XML entities, punctuation split off, possessive
//! `'s`, periods and commas split unless next to digits), optional CJK splitting, optional
//! punctuation removal, then whitespace collapsed.

use super::sacrebleu::{join_words, pad_chars, split_pairs, PairPad};
use super::unicode::py_lower;

/// The options of `TercomTokenizer` (and of `sacrebleu.metrics.TER`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TercomOptions {
    pub normalized: bool,
    pub no_punct: bool,
    pub asian_support: bool,
    pub case_sensitive: bool,
}

/// `TercomTokenizer(...)(line)`: the tokens of `line`, space-joined.
pub fn tercom_tokenize(line: &str, opts: TercomOptions) -> String {
    if line.is_empty() {
        return String::new();
    }
    let mut line = if opts.case_sensitive {
        line.to_string()
    } else {
        py_lower(line)
    };
    if opts.normalized {
        line = normalize_western(&line);
        if opts.asian_support {
            line = pad_chars(&line, is_asian_split);
        }
    }
    if opts.no_punct {
        line.retain(|c| !is_removed_punct(c, opts.asian_support));
    }
    join_words(&line)
}

/// `_normalize_general_and_western` (stdlib `re` on a str; `[^0-9]` is everything but ASCII digits).
fn normalize_western(line: &str) -> String {
    let line = line
        .replace("\n-", "")
        .replace('\n', " ")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    let line = pad_chars(&format!(" {line} "), is_tercom_punct);
    // The reference's second possessive rule, `'s$` → ` 's`, never matches: the padded line ends
    // with a space.
    let line = line.replace("'s ", " 's ");
    let not_digit = |c: char| !c.is_ascii_digit();
    let period_comma = |c: char| c == '.' || c == ',';
    let line = split_pairs(&line, not_digit, period_comma, PairPad::After);
    let line = split_pairs(&line, period_comma, not_digit, PairPad::Before);
    split_pairs(&line, |c| c.is_ascii_digit(), |c| c == '-', PairPad::After)
}

/// ``[{-~[-` -&(-+:-@/]``: ASCII punctuation and space except `'`, `,`, `-` and `.`.
fn is_tercom_punct(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

/// `TercomTokenizer.ASIAN_PUNCT`.
fn is_asian_punct(c: char) -> bool {
    matches!(c, '\u{3001}' | '\u{3002}' | '\u{3008}'..='\u{3011}' | '\u{3014}'..='\u{301f}'
        | '\u{ff61}'..='\u{ff65}' | '\u{30fb}')
}

/// `TercomTokenizer.FULL_WIDTH_PUNCT`.
fn is_full_width_punct(c: char) -> bool {
    matches!(
        c,
        '\u{ff0e}'
            | '\u{ff0c}'
            | '\u{ff1f}'
            | '\u{ff1a}'
            | '\u{ff1b}'
            | '\u{ff01}'
            | '\u{ff02}'
            | '\u{ff08}'
            | '\u{ff09}'
    )
}

/// Every character `_normalize_asian` surrounds with spaces: CJK ideographs, strokes, radicals,
/// compatibility blocks, enclosed letters, and the CJK and full-width punctuation. Its passes run
/// one after another, but only the spaces they add matter, so one pass over the union gives the same
/// tokens. Its three Hiragana/Katakana rules are anchored at the start of the line (`^`), where the
/// western normalisation always put a space, so they never match.
fn is_asian_split(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}' | '\u{31c0}'..='\u{31ef}'
        | '\u{2e80}'..='\u{2eff}' | '\u{3300}'..='\u{33ff}' | '\u{f900}'..='\u{faff}'
        | '\u{fe30}'..='\u{fe4f}' | '\u{3200}'..='\u{3f22}')
        || is_asian_punct(c)
        || is_full_width_punct(c)
}

/// `_remove_punct` (and `_remove_asian_punct` with `asian_support`).
fn is_removed_punct(c: char, asian_support: bool) -> bool {
    matches!(c, '.' | ',' | '?' | ':' | ';' | '!' | '"' | '(' | ')')
        || (asian_support && (is_asian_punct(c) || is_full_width_punct(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(s: &str, normalized: bool, no_punct: bool, asian_support: bool) -> String {
        tercom_tokenize(
            s,
            TercomOptions {
                normalized,
                no_punct,
                asian_support,
                case_sensitive: false,
            },
        )
    }

    #[test]
    fn default_only_lowercases_and_collapses_whitespace() {
        assert_eq!(
            tok("  The Cat,\tsat.\n", false, false, false),
            "the cat, sat."
        );
        assert_eq!(tok("", false, false, false), "");
    }

    #[test]
    fn western_normalisation() {
        assert_eq!(
            tok("John's cat, 3.14 and 1,000. A-b 3-4", true, false, false),
            "john 's cat , 3.14 and 1,000 . a-b 3 - 4"
        );
        assert_eq!(tok("&amp;quot; x\n-y", true, false, false), "& quot ; xy");
        assert_eq!(tok("U.S.A.", true, false, false), "u . s . a .");
    }

    #[test]
    fn punctuation_removal_and_asian_support() {
        assert_eq!(tok("a.b, (c)!", false, true, false), "ab c");
        assert_eq!(tok("日本語です。", true, false, true), "日 本 語 です 。");
        assert_eq!(tok("日本語です。", true, true, true), "日 本 語 です");
        assert_eq!(tok("中文，测试。", false, true, true), "中文测试");
    }
}
