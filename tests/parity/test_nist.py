"""Parity of rapideval's NIST international tokenizer with nltk 3.10.4
``NISTTokenizer().international_tokenize`` (REFERENCE.md 1.5)."""

from __future__ import annotations

import pathlib
import re
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.tokenize.nist import NISTTokenizer

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from strategies import texts  # noqa: E402

from rapideval import _core, tokenize  # noqa: E402

NIST = NISTTokenizer()

#: Characters where the perluniprops sets disagree with Unicode categories, plus separators.
CLASS_EDGES = list("09aZ.,'-$%&()<>|`~^_;:!?/\\") + [
    "\u00a0", "\u2028", "\u3000", "\u00b2", "\u00bd", "\u0660", "\u0969", "\u2153", "\u2460", "\u2604",
    "\u00a7", "\u00b6", "\u2018", "\u201c", "\u2026", "\u3002", "\uff0c", "\u20ac", "\u00a9", "\U0001f600",
    "\u0301", "\u0130", "\u00e9", "\u4e2d", "<skipped>", "&amp;", "&lt;", "&gt;", "&apos;", "&quot;", "&#124;",
    "&#91;", "&#93;", "&amp;lt;", " ", "\n", "\t", "\x1c", "\x00", "\x7f", "\x85",
]
class_edge_text = st.lists(st.sampled_from(CLASS_EDGES), max_size=20).map("".join)


@given(st.one_of(texts, class_edge_text))
def test_international_tokenize_matches_nltk(text: str) -> None:
    assert tokenize.nist_international(text) == NIST.international_tokenize(text)


@given(st.lists(st.one_of(texts, class_edge_text), max_size=8))
def test_batch_matches_nltk(batch: list[str]) -> None:
    assert tokenize.tokenize_batch(batch, "nist_international") == [NIST.international_tokenize(t) for t in batch]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("can't", ["can", "'", "t"]),
        ("1,000,000.", ["1,000,000."]),
        ("3.14", ["3.14"]),
        ("$3.88 (10%)", ["$", "3.88", "(10%", ")"]),
        ("http://a.com/x?y=1&z=2",
         ["http", ":", "/", "/", "a", ".", "com", "/", "x", "?", "y", "=", "1", "&", "z", "=", "2"]),
        ("U.S.A. is big.", ["U", ".", "S", ".", "A", ".", "is", "big", "."]),
        ("well--known e-mail", ["well", "-", "-", "known", "e", "-", "mail"]),
        ("a…b", ["a", "…", "b"]),
        ("...", [".", ".", "."]),
        ("", []),
        ("café naïve", ["caf", "é", "na", "ï", "ve"]),
        ("İstanbul", ["İ", "stanbul"]),
        ("straße", ["stra", "ß", "e"]),
        ("日本語です。", ["日本語です", "。"]),
        ("Привет, мир!", ["Привет", ",", "мир", "!"]),
        ("😀!", ["😀", "!"]),
        ("x² ½", ["x", "²", "½"]),
        ("&amp; &lt;", ["&", "<"]),
        ("<skipped>", []),
        ("fs\x1cgs", ["fs", "gs"]),
        ('"Hi," he said.', ['"', "Hi", ",", '"', "he", "said", "."]),
    ],
)
def test_tricky_inputs(text: str, expected: list[str]) -> None:
    assert NIST.international_tokenize(text) == expected
    assert tokenize.nist_international(text) == expected


def test_huge_text() -> None:
    # nltk's 5 s regex timeout can fire on this size; rapideval has no timeout, so compare with a
    # repetition of the reference's tokens of one block.
    block = "Hello, wörld! 3.14 can't “quoted” 日本語。 "
    text = block * 26_000
    assert len(text) > 1_000_000
    assert tokenize.nist_international(text) == NIST.international_tokenize(block) * 26_000


@pytest.mark.parametrize(
    ("texts_in", "error", "where"),
    [
        (["ok", None], TypeError, "texts[1]"),
        (["ok", 3], TypeError, "texts[1]"),
        (["ok", "bad\ud800"], ValueError, "texts[1]"),
        ("not a list", TypeError, "texts"),
    ],
)
def test_bad_input(texts_in: object, error: type, where: str) -> None:
    with pytest.raises(error, match=re.escape(where)):
        _core.tokenize(texts_in, "nist_international")
