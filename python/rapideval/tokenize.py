"""Tokenizers, bit-exact ports of the ones the reference metrics use.

Each function takes one ``str`` and returns what the reference returns for it. Batch forms over many
texts are in :func:`tokenize_batch`.
"""

from __future__ import annotations

from typing import Any

from . import _core
from ._inputs import as_list

__all__ = [
    "azure",
    "nist_international",
    "promptflow",
    "sacrebleu_13a",
    "sacrebleu_intl",
    "sent_tokenize",
    "squad_normalize",
    "tokenize_batch",
    "word_tokenize",
]


def _one(text: str, tokenizer: str) -> list[str]:
    return _core.tokenize([text], tokenizer)[0]


def word_tokenize(text: str) -> list[str]:
    """``nltk.word_tokenize(text)`` of nltk 3.10.4 (Punkt english + NLTKWordTokenizer), bit-exact."""
    return _one(text, "word")


def sent_tokenize(text: str) -> list[str]:
    """``nltk.sent_tokenize(text)`` of nltk 3.10.4 (Punkt with the english punkt_tab tables)."""
    return _core.sent_tokenize([text])[0]


def nist_international(text: str) -> list[str]:
    """``NISTTokenizer().international_tokenize(text)`` of nltk 3.10.4 (perluniprops classes)."""
    return _one(text, "nist_international")


def promptflow(text: str) -> list[str]:
    """promptflow-evals 0.3.5 ``nltk_tokenize``: word_tokenize when every character is printable
    Latin-1 (U+0020-U+007E, U+00A0-U+00FF), else the NIST international tokenizer."""
    return _one(text, "promptflow")


def azure(text: str) -> list[str]:
    """azure-ai-evaluation ``nltk_tokenize``: word_tokenize when ``text.isascii()``, else NIST."""
    return _one(text, "azure")


def sacrebleu_13a(text: str) -> str:
    """sacrebleu 2.6.0 ``Tokenizer13a()(text)``: the tokenized line as one string."""
    return _core.normalize([text], "sacrebleu_13a")[0]


def sacrebleu_intl(text: str) -> str:
    """sacrebleu 2.6.0 ``TokenizerV14International()(text)``: the tokenized line as one string."""
    return _core.normalize([text], "sacrebleu_intl")[0]


def squad_normalize(text: str) -> str:
    """promptflow-evals 0.3.5 F1 normalisation: lower, drop ASCII punctuation, drop a/an/the, squash
    whitespace."""
    return _core.normalize([text], "squad_normalize")[0]


def tokenize_batch(texts: Any, tokenizer: str = "promptflow") -> list[list[str]]:
    """Tokens of every text, in parallel with the GIL released. ``tokenizer`` is one of
    ``promptflow``, ``azure``, ``word``, ``nist_international``, ``sacrebleu_13a``, ``sacrebleu_intl``,
    ``whitespace``."""
    return _core.tokenize(as_list(texts, "texts"), tokenizer)
