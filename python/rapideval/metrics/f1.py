"""Token F1 and exact match over columns of responses and references.

``f1`` matches promptflow-evals 0.3.5 ``F1ScoreEvaluator`` (SQuAD-style normalisation, whitespace
tokens) bit for bit; ``exact_match`` compares SQuAD-normalised strings, or raw strings as ragas'
``ExactMatch`` does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from .._inputs import score_rows

__all__ = ["exact_match", "f1"]


def f1(responses: Any, references: Any) -> np.ndarray:
    """``F1ScoreEvaluator()(answer=response, ground_truth=reference)["f1_score"]`` of promptflow-evals
    0.3.5 for every row, as a float64 array.

    The text is lower-cased, ASCII punctuation is deleted, the words a/an/the are removed and the
    whitespace-separated tokens are compared as multisets. Like the reference, a response or
    reference that is empty, only whitespace, or the literal string ``"None"`` raises ``ValueError``
    (naming the row). A row may hold several references (a list of str): its score is the best
    over them, as SQuAD's ``metric_max_over_ground_truths``.
    """
    return score_rows(_core.f1_score, responses, references)


def exact_match(responses: Any, references: Any, *, normalize: bool = True) -> np.ndarray:
    """1.0 where a response matches its reference, else 0.0, for every row.

    ``normalize=True`` compares the SQuAD-normalised strings (promptflow-evals 0.3.5 F1
    normalisation: lower, drop ASCII punctuation and a/an/the, squash whitespace);
    ``normalize=False`` is ragas ``ExactMatch``: ``float(reference == response)``. With several references
    per row, 1.0 when any of them matches.
    """
    return score_rows(_core.exact_match, responses, references, normalize)
