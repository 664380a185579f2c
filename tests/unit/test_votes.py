"""Votes: majority against scipy.stats.mode (smallest label wins ties) and a plain-Python count, the
earliest-judge tie rule, agreement, missing votes, and ordinal mean/median against numpy."""

from __future__ import annotations

import warnings
from collections import Counter

import numpy as np
import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from rapideval.metrics.votes import majority_vote, ordinal_vote

shapes = st.tuples(st.integers(0, 30), st.integers(1, 9))


@given(hnp.arrays(np.int64, shapes, elements=st.integers(-3, 4)))
def test_majority_matches_scipy_mode(votes: np.ndarray) -> None:
    res = majority_vote(votes)
    mode = scipy.stats.mode(votes, axis=1)
    assert np.array_equal(res.winner, mode.mode)
    assert np.array_equal(res.count, mode.count)
    assert np.array_equal(res.agreement, mode.count / votes.shape[1])


@given(hnp.arrays(np.bool_, shapes))
def test_binary_verdicts(votes: np.ndarray) -> None:
    res = majority_vote(votes)
    passes = votes.sum(axis=1)
    fails = votes.shape[1] - passes
    assert res.winner.dtype == np.bool_
    assert np.array_equal(res.winner, passes > fails)  # a tie goes to False, the lower label
    assert np.array_equal(res.count, np.maximum(passes, fails))
    assert np.array_equal(res.tied, passes == fails)


def python_vote(row: list, tie: str) -> tuple[object, int, float, bool]:
    cast = [v for v in row if not (v is None or (isinstance(v, float) and v != v))]
    if not cast:
        return None, 0, float("nan"), False
    counts = Counter(cast)
    best = max(counts.values())
    top = [v for v in counts if counts[v] == best]
    winner = min(top) if tie == "lowest" else next(v for v in cast if counts[v] == best)
    return winner, best, best / len(cast), len(top) > 1


labels = st.one_of(st.none(), st.sampled_from(["pass", "fail", "unsure", "n/a"]))


@given(st.integers(0, 12).flatmap(lambda k: st.lists(st.lists(labels, min_size=k, max_size=k), max_size=20)),
       st.sampled_from(["lowest", "first"]))
def test_categorical_with_abstentions(rows: list[list], tie: str) -> None:
    if not rows or not rows[0]:
        return
    votes = np.array(rows, dtype=object)
    res = majority_vote(votes, tie=tie)
    for i, row in enumerate(rows):
        winner, count, agreement, tied = python_vote(row, tie)
        assert res.winner[i] == winner
        assert res.count[i] == count
        assert res.tied[i] == tied
        assert (np.isnan(agreement) and np.isnan(res.agreement[i])) or res.agreement[i] == agreement


@given(hnp.arrays(np.float64, shapes, elements=st.sampled_from([0.0, 1.0, 2.5, np.nan])), st.sampled_from(["lowest", "first"]))
def test_float_labels_nan_abstains(votes: np.ndarray, tie: str) -> None:
    res = majority_vote(votes, tie=tie)
    assert res.winner.dtype == np.float64
    for i, row in enumerate(votes.tolist()):
        winner, count, _, tied = python_vote(row, tie)
        assert (winner is None and np.isnan(res.winner[i])) or res.winner[i] == winner
        assert res.count[i] == count and res.tied[i] == tied


def test_tie_rules() -> None:
    votes = [["b", "a", "a", "b", "c"], ["c", "c", "a", "a", "b"]]
    assert majority_vote(votes).winner.tolist() == ["a", "a"]
    assert majority_vote(votes, tie="first").winner.tolist() == ["b", "c"]
    assert majority_vote(votes).tied.tolist() == [True, True]
    with pytest.raises(ValueError, match="unknown tie rule"):
        majority_vote(votes, tie="random")


def test_bad_votes() -> None:
    with pytest.raises(ValueError, match="2-D"):
        majority_vote([1, 0, 1])
    with pytest.raises(TypeError, match="comparable"):
        majority_vote(np.array([[1, "a"], [2, "b"]], dtype=object))
    with pytest.raises(TypeError, match="numbers"):
        ordinal_vote([["x", "y"]])
    assert majority_vote(np.empty((0, 3))).winner.shape == (0,)


@given(hnp.arrays(np.float64, shapes, elements=st.one_of(st.integers(1, 5).map(float), st.just(np.nan),
                                                       st.floats(-1e6, 1e6))))
def test_ordinal_matches_numpy(scores: np.ndarray) -> None:
    res = ordinal_vote(scores)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows
        mean = np.nanmean(scores, axis=1)
        median = np.nanmedian(scores, axis=1)
        scale = np.nanmean(np.abs(scores), axis=1)  # summation order is free: error relative to it
    assert np.array_equal(res.count, (~np.isnan(scores)).sum(axis=1))
    assert np.array_equal(np.isnan(res.mean), np.isnan(mean))
    ok = np.isnan(mean) | (np.abs(res.mean - mean) <= 1e-12 * scale)
    assert ok.all(), (res.mean[~ok], mean[~ok])
    assert np.array_equal(res.median, median, equal_nan=True)


def test_ordinal_accepts_none() -> None:
    res = ordinal_vote([[1, None, 4], [None, None, None]])
    assert res.mean[0] == 2.5 and res.median[0] == 2.5 and res.count.tolist() == [2, 0]
    assert np.isnan(res.mean[1]) and np.isnan(res.median[1])
