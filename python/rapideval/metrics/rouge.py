"""ROUGE per row: rouge-score 0.1.2 ``RougeScorer(rouge_types, use_stemmer).score_multi(references,
response)``, bit for bit, as precision / recall / F-measure arrays per ROUGE type."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .. import _core
from .._inputs import score_rows

__all__ = ["RougeArrays", "rouge", "rouge_type_name"]

_NGRAM_TYPE = re.compile(r"rouge[0-9]$")


def rouge_type_name(rouge_type: Any) -> str:
    """rouge-score 0.1.2's check of a ROUGE type: the plain name the kernel takes (``rouge1`` ...
    ``rouge9``, ``rougeL``, ``rougeLsum``; a str Enum member by its value, as rouge-score compares it), or
    rouge-score's ValueError for an unknown type."""
    if rouge_type == "rougeL" or rouge_type == "rougeLsum":
        # Not str(rouge_type): that of a str Enum member (promptflow's RougeType.ROUGE_L) is the member's name.
        return "rougeL" if rouge_type == "rougeL" else "rougeLsum"
    if isinstance(rouge_type, str) and _NGRAM_TYPE.match(rouge_type):
        n = int(rouge_type[5:])
        if n <= 0:
            raise ValueError(f"rougen requires positive n: {rouge_type}")
        return f"rouge{n}"
    raise ValueError(f"Invalid rouge type: {rouge_type}")


class RougeArrays(NamedTuple):
    """One ROUGE type over all rows: float64 arrays, one value per row."""

    precision: np.ndarray
    recall: np.ndarray
    fmeasure: np.ndarray


def rouge(
    responses: Any,
    references: Any,
    rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeL"),
    use_stemmer: bool = False,
    *,
    split_summaries: bool = False,
    tokenizer: str = "default",
) -> dict[str, RougeArrays]:
    """ROUGE of each response (prediction) against its reference(s) (targets), as rouge-score 0.1.2
    computes it: ``RougeScorer(rouge_types, use_stemmer, split_summaries).score_multi(refs, response)``
    (with one reference this is ``.score(ref, response)``; with several, per type the scores of the
    first reference with the largest F-measure).

    ``rouge_types``: ``rouge1`` … ``rouge9``, ``rougeL``, ``rougeLsum`` (sentences split on newlines,
    or with Punkt when ``split_summaries``). promptflow-evals 0.3.5 ``RougeScoreEvaluator(t)`` is
    ``rouge(..., rouge_types=[t])`` with ``rouge_precision``/``rouge_recall``/``rouge_f1_score`` =
    ``precision``/``recall``/``fmeasure``.

    ``tokenizer``: ``"default"`` is rouge-score's (lower-case, keep ``[a-z0-9]`` runs, so non-Latin
    text has no tokens and scores 0). ``"unicode"`` is a rapideval extension that rouge-score does not
    have: tokens are runs of Unicode letters, marks and digits (after ``str.lower()``) and each
    Chinese/Japanese ideograph or kana is a token; on ASCII text it equals the default.

    ``references``: one ``str`` per row, or a list of ``str`` per row. Columns may be lists, tuples,
    numpy or pyarrow arrays. Runs on all cores with the GIL released; the result does not depend on
    the thread count. rouge-score's int zeros (ROUGE-L with an empty side) become ``0.0``. Raises
    ``ValueError`` for an unknown type or a row without references, ``TypeError`` for a non-``str``.
    """
    if isinstance(rouge_types, str):
        types = [rouge_types]
    else:
        try:
            types = list(rouge_types)
        except TypeError:
            raise TypeError(
                f"rouge_types: expected a ROUGE type or a sequence of them (rouge1 ... rouge9, "
                f"rougeL, rougeLsum), got {type(rouge_types).__name__}"
            ) from None
    out = score_rows(
        _core.rouge,
        responses,
        references,
        types,
        bool(use_stemmer),
        bool(split_summaries),
        tokenizer,
    )
    return {t: RougeArrays(*out[t]) for t in types}
