"""Parity of rapideval's sacrebleu tokenizers with sacrebleu 2.6.0 ``Tokenizer13a``,
``TokenizerV14International`` and ``TokenizerChar`` (REFERENCE.md 8)."""

from __future__ import annotations

import pathlib
import re
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from strategies import texts  # noqa: E402

from rapideval import _core, tokenize  # noqa: E402

T13A = Tokenizer13a()
INTL = TokenizerV14International()

#: Characters on the edges of the 13a classes and of \p{P} / \p{S} / \p{N}.
EDGES = list("0123456789.,-'\"&;{}|~[]\\^_` !#$%()*+:<=>?@/") + [
    "&quot;", "&amp;", "&lt;", "&gt;", "&amp;lt;", "<skipped>", "-\n", "\n", "\t", "\r", "\x1c", "\xa0",
    "\u0660", "\u00b2", "\u00bd", "\u2160", "\u3002", "\uff0c", "\u2026", "\u2014", "\u00a7", "\u20ac",
    "\u00a9", "\U0001f600", "\u02c6", "\u0301", "a", "Z", "é", "日",
]
edge_text = st.lists(st.sampled_from(EDGES), max_size=24).map("".join)


@given(st.one_of(texts, edge_text))
def test_13a_matches_sacrebleu(text: str) -> None:
    assert tokenize.sacrebleu_13a(text) == T13A(text)


@given(st.one_of(texts, edge_text))
def test_intl_matches_sacrebleu(text: str) -> None:
    assert tokenize.sacrebleu_intl(text) == INTL(text)


@given(st.lists(st.one_of(texts, edge_text), max_size=8))
def test_token_lists_match_sacrebleu(batch: list[str]) -> None:
    assert tokenize.tokenize_batch(batch, "sacrebleu_13a") == [T13A(t).split() for t in batch]
    assert tokenize.tokenize_batch(batch, "sacrebleu_intl") == [INTL(t).split() for t in batch]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("can't", "can't"),
        ('"Hi," he said.', '" Hi , " he said .'),
        ("“smart” ‘q’", "“smart” ‘q’"),
        ("1,000,000.", "1,000,000 ."),
        ("$3.88 (10%)", "$ 3.88 ( 10 % )"),
        ("http://a.com/x?y=1&z=2", "http : / / a . com / x ? y = 1 & z = 2"),
        ("U.S.A. is big.", "U . S . A . is big ."),
        ("well--known e-mail", "well--known e-mail"),
        ("...", ". . ."),
        ("&amp; &lt;", "& <"),
        ("<skipped>", ""),
        ("line1\nline2 can't", "line1 line2 can't"),
        ("Привет, мир!", "Привет , мир !"),
        ("😀!", "😀 !"),
        ("", ""),
    ],
)
def test_13a_tricky_inputs(text: str, expected: str) -> None:
    assert T13A(text) == expected
    assert tokenize.sacrebleu_13a(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("in 2024.", "in 2024."), ("in 2024. Then", "in 2024 . Then"), ("a…b 3,5 x$y", "a … b 3,5 x $ y")],
)
def test_intl_tricky_inputs(text: str, expected: str) -> None:
    assert INTL(text) == expected
    assert tokenize.sacrebleu_intl(text) == expected


def test_huge_text() -> None:
    text = "Hello, world! 3.14 can't “quoted” 日本語。 &amp; x-\n" * 22_000
    assert len(text) > 1_000_000
    assert tokenize.sacrebleu_13a(text) == T13A(text)
    assert tokenize.sacrebleu_intl(text) == INTL(text)


@pytest.mark.parametrize("kind", ["sacrebleu_13a", "sacrebleu_intl"])
@pytest.mark.parametrize(
    ("texts_in", "error", "where"),
    [(["ok", None], TypeError, "texts[1]"), ([1], TypeError, "texts[0]"), (["\udfff"], ValueError, "texts[0]")],
)
def test_bad_input(kind: str, texts_in: object, error: type, where: str) -> None:
    with pytest.raises(error, match=re.escape(where)):
        _core.normalize(texts_in, kind)


def test_unknown_kind() -> None:
    with pytest.raises(ValueError, match="unknown"):
        _core.normalize(["x"], "sacrebleu_zh")
