"""Sentence BLEU per row: by default promptflow-evals 0.3.5 ``BleuScoreEvaluator``, i.e. nltk 3.10.4
``sentence_bleu([nltk_tokenize(ground_truth)], nltk_tokenize(answer),
smoothing_function=SmoothingFunction().method4)``, bit for bit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _core
from .._inputs import score_rows
from ..compat.nltk import _smoothing

__all__ = ["bleu"]


def bleu(
    responses: Any,
    references: Any,
    *,
    tokenizer: str | None = "promptflow",
    smoothing: Any = "method4",
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
    auto_reweigh: bool = False,
) -> np.ndarray:
    """nltk 3.10.4 ``sentence_bleu`` of each response against its reference(s), after tokenizing
    both with ``tokenizer`` (default ``promptflow``: promptflow-evals 0.3.5 ``nltk_tokenize``).

    With the defaults this equals promptflow-evals 0.3.5 ``BleuScoreEvaluator()(answer=response,
    ground_truth=reference)["bleu_score"]`` bit for bit (nltk's int ``0`` becomes ``0.0``).

    ``references``: one ``str`` per row, or a list of ``str`` per row (several references).

    ``tokenizer=None`` scores pre-tokenised input, as ``nltk.translate.bleu_score.sentence_bleu``
    per row: each response is a list (or tuple) of ``str`` tokens; each reference row is either
    one token list (its first item is a ``str``; ``[]`` is one empty reference) or a list of token
    lists (its first item is a list or tuple: several references).
    ``smoothing``: ``"method0"`` … ``"method7"`` with nltk's default parameters, or
    ``rapideval.compat.nltk.SmoothingFunction(epsilon, alpha, k).methodN``. method0 does not warn
    here. ``auto_reweigh`` applies to weights equal to ``(0.25, 0.25, 0.25, 0.25)``.
    Columns may be lists, tuples, numpy or pyarrow arrays. Runs on all cores with the GIL released
    (with ``tokenizer=None`` the token lists are first read on all cores while the GIL is held, so no
    Python code can change them meanwhile); the result does not depend on the thread count. Returns a
    float64 array, one score per row.
    Raises ``ValueError`` naming the row where nltk raises (an empty reference list, method6
    without trigram matches) and ``TypeError`` for a non-``str`` value.
    """
    if isinstance(smoothing, str):
        method, epsilon, alpha, k = smoothing, 0.1, 5, 5
    else:
        method, epsilon, alpha, k = _smoothing(smoothing)
    weights = [float(w) for w in weights]
    if tokenizer is None:
        return score_rows(
            _core.bleu_tokens,
            responses,
            references,
            weights,
            method,
            epsilon,
            alpha,
            k,
            bool(auto_reweigh),
        )
    return score_rows(
        _core.bleu_batch,
        responses,
        references,
        tokenizer,
        weights,
        method,
        epsilon,
        alpha,
        k,
        bool(auto_reweigh),
    )
