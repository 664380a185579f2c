//! SQuAD answer normalisation as promptflow-evals 0.3.5's `F1ScoreEvaluator` does it:
//! `lower()`, drop ASCII `string.punctuation`, replace the words a/an/the by a space
//! (stdlib `re` `\b(a|an|the)\b`), then `" ".join(s.split())`.

use super::unicode::{is_re_word, py_lower, py_split};

/// promptflow `normalize_text`.
pub fn normalize_answer(text: &str) -> String {
    let lowered = py_lower(text);
    let no_punct: String = lowered
        .chars()
        .filter(|c| !c.is_ascii_punctuation())
        .collect();
    let no_articles = remove_articles(&no_punct);
    py_split(&no_articles).collect::<Vec<_>>().join(" ")
}

/// `re.sub(r"\b(a|an|the)\b", " ", s)`. Both `\b` anchor on `re`-word characters, so a match is
/// a whole maximal run of word characters that reads exactly `a`, `an` or `the`.
fn remove_articles(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find(is_re_word) {
        let (gap, from_word) = rest.split_at(start);
        out.push_str(gap);
        let end = from_word
            .find(|c: char| !is_re_word(c))
            .unwrap_or(from_word.len());
        let (word, tail) = from_word.split_at(end);
        if matches!(word, "a" | "an" | "the") {
            out.push(' ');
        } else {
            out.push_str(word);
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tricky_inputs() {
        assert_eq!(normalize_answer("A. B. Smith"), "b smith");
        assert_eq!(normalize_answer("e.g."), "eg");
        assert_eq!(normalize_answer("U.S.A."), "usa");
        assert_eq!(normalize_answer("can't"), "cant");
        assert_eq!(normalize_answer("3.14"), "314");
        assert_eq!(normalize_answer("“smart” ‘q’"), "“smart” ‘q’");
        assert_eq!(normalize_answer("a…b"), "…b");
        assert_eq!(normalize_answer("İstanbul"), "i\u{307}stanbul");
        assert_eq!(normalize_answer("The an² anthem a"), "an² anthem");
        assert_eq!(normalize_answer("!!! the ..."), "");
    }
}
