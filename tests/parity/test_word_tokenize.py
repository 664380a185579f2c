"""Parity of rapideval.tokenize.word_tokenize / sent_tokenize with nltk 3.10.4 (Punkt english tables +
NLTKWordTokenizer), on the shared strategies and on Punkt-heavy text built from the punkt_tab tables."""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import nltk
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rapideval.tokenize import sent_tokenize, tokenize_batch, word_tokenize
from strategies import (
    FRAGMENTS,
    PROSE,
    any_text,
    ascii_text,
    fragment_text,
    latin1_text,
    prose_mutated,
    prose_text,
    texts,
    word_text,
)

PUNKT_DIR = pathlib.Path(__file__).resolve().parents[2] / "rust" / "data" / "punkt_english"


def _table(name: str) -> list[str]:
    return (PUNKT_DIR / name).read_text(encoding="utf-8").split("\n")[:-1]


ABBREVS = _table("abbrev_types.txt")
STARTERS = _table("sent_starters.txt")
COLLOCATIONS = [tuple(line.split("\t")) for line in _table("collocations.tab")]
ORTHO = [tuple(line.split("\t")) for line in _table("ortho_context.tab")]
# Types whose orthographic flags decide the heuristics: seen lower case only, upper case only, both,
# never mid-sentence upper case, ...
ORTHO_WORDS = sorted({typ for typ, flags in ORTHO if typ.isalpha() and int(flags) in (2, 4, 6, 16, 18, 32, 34, 48, 50, 96, 114)})

numbers = st.one_of(
    st.integers(0, 3000).map(str),
    st.sampled_from(["1,000", "3.14", "-1.5", "2.", "1,000.", "5.", ".5", "12-13", "1990s", "No.", "#1", "10%"]),
)


def _cased(word: str, case: str) -> str:
    return {"lower": word, "title": word[:1].upper() + word[1:], "upper": word.upper()}[case]


cases = st.sampled_from(["lower", "title", "title", "upper"])
abbreviation = st.tuples(st.sampled_from(ABBREVS), cases).map(lambda t: _cased(t[0], t[1]) + ".")
initial = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyzÉéß_1").map(lambda c: c + ".")
starter = st.tuples(st.sampled_from(STARTERS), cases).map(lambda t: _cased(t[0], t[1]))
ortho_word = st.tuples(st.sampled_from(ORTHO_WORDS), cases).map(lambda t: _cased(t[0], t[1]))
collocation = st.tuples(st.sampled_from(COLLOCATIONS), cases, numbers).map(
    lambda t: (t[2] if t[0][0] == "##number##" else _cased(t[0][0], t[1])) + ". " + _cased(t[0][1], t[1])
)
sentence_end = st.sampled_from(
    [".", ".", "?", "!", "!!!", "?!", "...", "..", ". . .", ".\"", ".'", ".)", ".]", ".”", ".’", ".»", ".«",
     "!)", "?\"", ".--", ". --", "'.", "\".", ")."]
)
separator = st.sampled_from([" ", " ", " ", "  ", "\n", "\n\n", "\xa0", "\u2003", "\t", "\r\n", "", " \x1c", "\u3000", "\x85"])
punkt_piece = st.one_of(
    abbreviation, initial, starter, ortho_word, collocation, numbers, sentence_end,
    st.sampled_from(["\"", "'", "(", ")", "“", "”", "‘", "’", "«", "»", "--", ",", ";", ":", "-", "e.g.", "U.S.", "a.m."]),
)
#: Text where Punkt's abbreviation, initial, number, collocation, sentence-starter and orthographic
#: heuristics all fire, with quotes and brackets after periods and odd whitespace between sentences.
punkt_text = st.lists(st.tuples(punkt_piece, separator), max_size=16).map(lambda parts: "".join(a + b for a, b in parts))
#: Real prose with Punkt-heavy pieces spliced in.
punkt_prose = st.tuples(st.sampled_from(PROSE), st.integers(0, 300), punkt_text).map(
    lambda t: t[0][: t[1]] + t[2] + t[0][t[1]:]
)

all_texts = st.one_of(texts, punkt_text, punkt_prose, fragment_text, any_text)


@given(all_texts)
def test_word_tokenize_matches_nltk(text: str) -> None:
    assert word_tokenize(text) == nltk.word_tokenize(text)


@given(all_texts)
def test_sent_tokenize_matches_nltk(text: str) -> None:
    assert sent_tokenize(text) == nltk.sent_tokenize(text)


@given(st.one_of(punkt_text, punkt_prose))
def test_punkt_heavy_text(text: str) -> None:
    assert sent_tokenize(text) == nltk.sent_tokenize(text)
    assert word_tokenize(text) == nltk.word_tokenize(text)


@given(st.one_of(ascii_text, latin1_text, word_text, prose_text, prose_mutated))
def test_plain_and_prose_text(text: str) -> None:
    assert word_tokenize(text) == nltk.word_tokenize(text)


@given(st.lists(all_texts, max_size=8))
def test_tokenize_batch_word(batch: list[str]) -> None:
    assert tokenize_batch(batch, "word") == [nltk.word_tokenize(t) for t in batch]


# The word_tokenize column of TRICKY.md.
TRICKY = [
    ("can't", ["ca", "n't"]),
    ("won't", ["wo", "n't"]),
    ("'tis", ["'", "tis"]),
    ("gonna", ["gon", "na"]),
    ("cannot", ["can", "not"]),
    ("I'm", ["I", "'m"]),
    ('"Hi," he said.', ["``", "Hi", ",", "''", "he", "said", "."]),
    ("“smart” ‘q’", ["“", "smart", "”", "‘", "q", "’"]),
    ("1,000,000.", ["1,000,000", "."]),
    ("3.14", ["3.14"]),
    ("$3.88 (10%)", ["$", "3.88", "(", "10", "%", ")"]),
    ("http://a.com/x?y=1&z=2", ["http", ":", "//a.com/x", "?", "y=1", "&", "z=2"]),
    ("user@example.com", ["user", "@", "example.com"]),
    ("U.S.A.", ["U.S.A", "."]),
    ("U.S.A. is big.", ["U.S.A.", "is", "big", "."]),
    ("e.g. this", ["e.g", ".", "this"]),
    ("Mr. Smith", ["Mr.", "Smith"]),
    ("A. B. Smith", ["A", ".", "B.", "Smith"]),
    ("No. 5", ["No", ".", "5"]),
    ("well--known e-mail", ["well", "--", "known", "e-mail"]),
    ("a…b", ["a…b"]),
    ("...", ["..."]),
    ("!!!", ["!", "!", "!"]),
    ("", []),
    ("café naïve", ["café", "naïve"]),
    ("İstanbul", ["İstanbul"]),
    ("straße", ["straße"]),
    ("\u212a", ["\u212a"]),
    ("x y", ["x", "y"]),
    ("Go home.\xa0Now. Fast", ["Go", "home.", "Now", ".", "Fast"]),
    ("line1\nline2 can't", ["line1", "line2", "ca", "n't"]),
    ("tab\there", ["tab", "here"]),
    ("日本語です。", ["日本語です。"]),
    ("Привет, мир!", ["Привет", ",", "мир", "!"]),
    ("😀!", ["😀", "!"]),
    ("x² ½", ["x²", "½"]),
    ("&amp; &lt;", ["&", "amp", ";", "&", "lt", ";"]),
    ("<skipped>", ["<", "skipped", ">"]),
    ("fs\x1cgs", ["fs", "gs"]),
    ("running happily", ["running", "happily"]),
    ("generalizations", ["generalizations"]),
]


@pytest.mark.parametrize(("text", "expected"), TRICKY)
def test_tricky_inputs(text: str, expected: list[str]) -> None:
    assert nltk.word_tokenize(text) == expected
    assert word_tokenize(text) == expected


@pytest.mark.parametrize(
    "text",
    [" Hello. World", "Go home.\xa0Now. Fast", "(Sent1.) Sent2.", "Very bad acting!!! I promise.", "Hello. \x1c",
     'He said "Stop." Then left.', "He left.” She stayed.", "a.\n\nb. c", "J. S. Bach was here. The end."],
)
def test_sentence_examples(text: str) -> None:
    assert sent_tokenize(text) == nltk.sent_tokenize(text)


@pytest.mark.parametrize("fragment", FRAGMENTS)
def test_every_fragment(fragment: str) -> None:
    for text in (fragment, f"x {fragment} y.", f"{fragment}. The {fragment}"):
        assert word_tokenize(text) == nltk.word_tokenize(text)
        assert sent_tokenize(text) == nltk.sent_tokenize(text)


def test_long_text_matches_and_is_fast() -> None:
    text = " ".join(PROSE) * 3
    text = text[:60_000]
    assert word_tokenize(text) == nltk.word_tokenize(text)
    assert sent_tokenize(text) == nltk.sent_tokenize(text)


@pytest.mark.parametrize(
    "text",
    ["a" * 1_000_000, "x. " * 333_333, "!)" * 500_000, ". " * 500_000, "'" * 1_000_000, "\xa0." * 500_000,
     "can't " * 166_666, ("Mr. Smith said \"no\". " * 50_000)],
)
def test_one_megabyte_inputs(text: str) -> None:
    """Inputs that are slow for backtracking regexes: every character still lands in a token or a
    sentence (nltk itself may hit its 5 s regex timeout here, so it is not the oracle)."""
    squeezed = "".join(text.split())
    assert "".join("".join(s.split()) for s in sent_tokenize(text)) == squeezed
    if '"' not in text:  # word_tokenize rewrites double quotes as `` and ''
        assert "".join(word_tokenize(text)) == squeezed


@pytest.mark.parametrize("bad", [None, 1, 2.5, b"bytes", ["a"]])
def test_non_str_input_is_a_type_error(bad: object) -> None:
    with pytest.raises(TypeError):
        word_tokenize(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        sent_tokenize(bad)  # type: ignore[arg-type]


def test_batch_errors_name_the_row() -> None:
    with pytest.raises(TypeError, match=r"texts\[1\]"):
        tokenize_batch(["ok", None], "word")
    with pytest.raises(ValueError, match=r"texts\[0\]"):
        tokenize_batch(["\ud800"], "word")
    with pytest.raises(ValueError, match=r"texts\[0\]"):
        sent_tokenize("\ud800")
