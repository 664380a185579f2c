"""Sentence GLEU per row: by default promptflow-evals 0.3.5 ``GleuScoreEvaluator``, i.e. nltk 3.10.4
``sentence_gleu([nltk_tokenize(ground_truth)], nltk_tokenize(answer))``, bit for bit."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .. import _core
from .._inputs import score_rows

__all__ = ["gleu"]


def gleu(
    responses: Any,
    references: Any,
    *,
    tokenizer: str | None = "promptflow",
    min_len: int = 1,
    max_len: int = 4,
) -> np.ndarray:
    """nltk 3.10.4 ``sentence_gleu`` of each response against its reference(s) with n-gram orders
    ``min_len`` to ``max_len``, after tokenizing both with ``tokenizer`` (default ``promptflow``:
    promptflow-evals 0.3.5 ``nltk_tokenize``).

    With the defaults this equals promptflow-evals 0.3.5 ``GleuScoreEvaluator()(answer=response,
    ground_truth=reference)["gleu_score"]`` bit for bit.

    ``references``: one ``str`` per row, or a list of ``str`` per row (several references).

    ``tokenizer=None`` scores pre-tokenised input, as ``nltk.translate.gleu_score.sentence_gleu``
    per row: each response is a list (or tuple) of ``str`` tokens; each reference row is either
    one token list (its first item is a ``str``; ``[]`` is one empty reference) or a list of token
    lists (its first item is a list or tuple: several references).
    Columns may be lists, tuples, numpy or pyarrow arrays. Runs on all cores with the GIL released
    (with ``tokenizer=None`` the token lists are first read on all cores while the GIL is held, so no
    Python code can change them meanwhile); the result does not depend on the thread count. Returns a
    float64 array, one score per row.
    """
    lengths = (_order(min_len), _order(max_len))
    if tokenizer is None:
        return score_rows(_core.gleu_tokens, responses, references, *lengths)
    return score_rows(_core.gleu_batch, responses, references, tokenizer, *lengths)


def _order(n: Any) -> int:
    """An n-gram length as the kernel's 64-bit int: beyond that range every length is past every
    sentence's (or, negative, before its start), so the value is clamped without changing a score."""
    return max(-(2**63), min(operator.index(n), 2**63 - 1))
