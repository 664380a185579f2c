"""Votes of a judge ensemble: the majority verdict per row and how unanimous it was, and the mean and
median of ordinal scores, computed in Rust over a (rows x judges) matrix.

Missing votes (a judge that abstained or failed) are ``None`` or NaN; they are skipped, and a row
without any vote has no winner (NaN for float labels, ``None`` otherwise).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _core
from ._labels import as_labels

__all__ = ["MajorityVote", "OrdinalVote", "majority_vote", "ordinal_vote"]


class MajorityVote(NamedTuple):
    winner: np.ndarray
    """The winning label per row, in the labels' dtype (object when some row has no vote)."""
    count: np.ndarray  # type: ignore[assignment]  # a field named as tuple.count, by design
    """int64: votes for the winner."""
    agreement: np.ndarray
    """float64: count / votes cast (1.0 = unanimous); NaN for a row without votes."""
    tied: np.ndarray
    """bool: another label had as many votes as the winner (the tie rule chose)."""


class OrdinalVote(NamedTuple):
    mean: np.ndarray
    """float64: ``numpy.nanmean`` of each row."""
    median: np.ndarray
    """float64: ``numpy.nanmedian`` of each row (mean of the two middle scores for an even count)."""
    count: np.ndarray  # type: ignore[assignment]  # a field named as tuple.count, by design
    """int64: scores that are not NaN."""


def _matrix(votes: Any, name: str) -> np.ndarray:
    arr = as_labels(votes, name)
    if arr.ndim != 2:
        raise ValueError(f"{name}: expected a 2-D (rows x judges) matrix, got {arr.ndim} dimensions")
    return arr


def _missing(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "f":
        return np.asarray(np.isnan(arr))
    if arr.dtype.kind == "O":
        is_missing = np.frompyfunc(lambda v: v is None or (isinstance(v, float) and v != v), 1, 1)
        return np.asarray(is_missing(arr), dtype=bool)
    return np.zeros(arr.shape, dtype=bool)


def majority_vote(votes: Any, *, tie: str = "lowest") -> MajorityVote:
    """The most frequent label of each row of a (rows x judges) matrix.

    Labels are any comparable values (bools for pass/fail verdicts, ints, strings), all numbers or all
    strings (a mix is a ``TypeError``, as in :func:`rapideval.cohen_kappa`). ``tie`` decides
    between equally frequent labels: ``"lowest"`` takes the smallest label (as ``scipy.stats.mode``;
    ``False`` before ``True``), ``"first"`` the label of the earliest judge (lowest column) among them.
    ``agreement`` is the share of cast votes that went to the winner.
    """
    arr = _matrix(votes, "votes")
    missing = _missing(arr)
    present = arr[~missing]
    try:
        labels, inverse = np.unique(present, return_inverse=True)
    except TypeError as e:
        raise TypeError(f"votes: labels must be mutually comparable ({e})") from None
    codes = np.full(arr.shape, -1, dtype=np.int64)
    codes[~missing] = inverse.reshape(-1)
    winner_code, count, _valid, agreement, tied = _core.majority_vote(np.ascontiguousarray(codes), tie)
    has_winner = winner_code >= 0
    if has_winner.all():
        winner = labels[winner_code]
    elif labels.dtype.kind == "f":
        winner = np.full(len(winner_code), np.nan, dtype=labels.dtype)
        winner[has_winner] = labels[winner_code[has_winner]]
    else:
        winner = np.full(len(winner_code), None, dtype=object)
        winner[has_winner] = labels[winner_code[has_winner]]
    return MajorityVote(winner, count, agreement, tied)


def ordinal_vote(scores: Any) -> OrdinalVote:
    """Mean, median and count of the non-NaN scores of each row (e.g. 1-5 ratings of several judges)."""
    arr = _matrix(scores, "scores")
    if arr.dtype.kind == "O":
        try:
            arr = np.where(_missing(arr), np.nan, arr).astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError("scores: expected numbers (None or NaN for a missing score)") from None
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"scores: expected numbers, got dtype {arr.dtype}")
    mean, median, count = _core.ordinal_vote(np.require(arr, np.float64, ["C_CONTIGUOUS", "ALIGNED"]))
    return OrdinalVote(mean, median, count)
