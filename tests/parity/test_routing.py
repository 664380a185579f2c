"""Parity of rapideval's tokenizer routing with promptflow-evals 0.3.5 ``nltk_tokenize`` and with
azure-ai-evaluation's rule (REFERENCE.md 1.1, 1.1b).

azure-ai-evaluation is not installed; its rule is ``nltk.word_tokenize`` when ``text.isascii()``
else ``NISTTokenizer().international_tokenize``, which is what it is compared with here."""

from __future__ import annotations

import pathlib
import sys

import nltk
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.tokenize.nist import NISTTokenizer
from promptflow.evals._common.utils import nltk_tokenize

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from strategies import texts  # noqa: E402

from rapideval import tokenize  # noqa: E402

NIST = NISTTokenizer()


def azure_reference(text: str) -> list[str]:
    return nltk.word_tokenize(text) if text.isascii() else NIST.international_tokenize(text)


def is_promptflow_word_routed(text: str) -> bool:
    return all("\u0020" <= c <= "\u007e" or "\u00a0" <= c <= "\u00ff" for c in text)


#: Characters that send the whole text to NIST: controls for promptflow, anything non-ASCII for azure.
NIST_TRIGGERS = ["\n", "\t", "\r", "\x0b", "\x1c", "\x7f", "\x85", "\x9f", "…", "—", "“", "日", "😀", "İ", "\u2028"]
AZURE_TRIGGERS = ["é", "\xa0", "ß", "½", "…", "日", "😀", "\x85"]


def with_trigger(triggers: list[str]) -> st.SearchStrategy[str]:
    return st.tuples(texts, st.integers(0, 60), st.sampled_from(triggers)).map(
        lambda t: t[0][: t[1]] + t[2] + t[0][t[1]:]
    )


@given(with_trigger(NIST_TRIGGERS))
def test_promptflow_nist_branch(text: str) -> None:
    assert not is_promptflow_word_routed(text)
    assert tokenize.promptflow(text) == nltk_tokenize(text)


@given(with_trigger(AZURE_TRIGGERS))
def test_azure_nist_branch(text: str) -> None:
    assert not text.isascii()
    assert tokenize.azure(text) == azure_reference(text)


@given(texts)
def test_promptflow_matches_reference(text: str) -> None:
    assert tokenize.promptflow(text) == nltk_tokenize(text)


@given(texts)
def test_azure_matches_reference(text: str) -> None:
    assert tokenize.azure(text) == azure_reference(text)


@pytest.mark.parametrize(
    ("text", "promptflow", "azure"),
    [
        ("line1\nline2 can't", ["line1", "line2", "can", "'", "t"], ["line1", "line2", "ca", "n't"]),
        ("a…b", ["a", "…", "b"], ["a", "…", "b"]),
        ("café", ["café"], ["caf", "é"]),
        ("İstanbul", ["İ", "stanbul"], ["İ", "stanbul"]),
        ("tab\there", ["tab", "here"], ["tab", "here"]),
        ("日本語です。", ["日本語です", "。"], ["日本語です", "。"]),
        ("", [], []),
    ],
)
def test_tricky_inputs(text: str, promptflow: list[str], azure: list[str]) -> None:
    assert nltk_tokenize(text) == promptflow
    assert azure_reference(text) == azure
    assert tokenize.promptflow(text) == promptflow
    assert tokenize.azure(text) == azure
