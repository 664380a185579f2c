"""Drop-in for nltk 3.10.4 ``nltk.translate.gleu_score``: ``sentence_gleu`` and ``corpus_gleu`` on
token lists, same arguments, same floats bit for bit, both computed by the Rust kernel."""

from __future__ import annotations

import operator
import sys
from collections.abc import Sequence

from .... import _core

__all__ = ["corpus_gleu", "sentence_gleu"]


def sentence_gleu(
    references: Sequence[Sequence[str]], hypothesis: Sequence[str], min_len: int = 1, max_len: int = 4
) -> float:
    """``nltk.translate.gleu_score.sentence_gleu`` of nltk 3.10.4, bit for bit."""
    return corpus_gleu([references], [hypothesis], min_len=min_len, max_len=max_len)


def corpus_gleu(
    list_of_references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    min_len: int = 1,
    max_len: int = 4,
) -> float:
    """``nltk.translate.gleu_score.corpus_gleu`` of nltk 3.10.4, bit for bit: per segment the
    reference with the best ``matches / max(hyp grams, ref grams)`` (n-grams of orders ``min_len``
    to ``max_len``) adds its counts; the score is the ratio of the corpus totals."""
    assert len(list_of_references) == len(hypotheses), (
        "The number of hypotheses and their reference(s) should be the same"
    )
    return _core.nltk_corpus_gleu(
        list_of_references,
        hypotheses,
        operator.index(min_len),
        sys.maxsize if max_len is None else operator.index(max_len),
    )
