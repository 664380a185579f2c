"""How sure a score is: NaN-aware mean and standard deviation, bootstrap confidence intervals, paired
significance tests between two systems on the same rows (for any per-row metric), and agreement
statistics between a judge and human labels. Resampling and sums run in Rust, in parallel, with
results that depend only on the seed (never on the thread count or the machine).

NaN policy: NaN scores are skipped (and counted) by :func:`mean_std` and :func:`bootstrap_ci`;
:func:`paired_test` and :func:`cohen_kappa` drop the rows where either side is missing (NaN or
``None``); :func:`correlation` follows ``nan_policy``.

Input policy (every numeric kernel, as :func:`rapideval.cosine`): scores are real numbers; complex
numbers are a ``TypeError`` (numpy would silently keep their real part). Labels (:func:`cohen_kappa`,
:func:`rapideval.majority_vote`) are all numbers or all strings: a mix is a ``TypeError``.

Limits: ``n_resamples`` is at most ``MAX_RESAMPLES`` (100,000,000: 800 MB of resample means), checked
before any work; a larger value is a ``ValueError`` naming the limit.
"""

from __future__ import annotations

import math
import statistics
from typing import Any, NamedTuple

import numpy as np

from .. import _core
from ._labels import as_labels

#: The most resamples :func:`bootstrap_ci` and :func:`paired_test` draw.
MAX_RESAMPLES: int = _core.MAX_RESAMPLES

__all__ = [
    "MAX_RESAMPLES",
    "BootstrapCI",
    "MeanStd",
    "PairedTest",
    "bootstrap_ci",
    "cohen_kappa",
    "correlation",
    "mean_std",
    "paired_test",
]


class MeanStd(NamedTuple):
    mean: float
    """``numpy.nanmean``: NaN when no value is left."""
    std: float
    """``numpy.nanstd(ddof=ddof)``: NaN when ``count <= ddof``."""
    count: int  # type: ignore[assignment]  # a field named as tuple.count, by design
    """Values that are not NaN."""
    nan_count: int


class BootstrapCI(NamedTuple):
    low: float
    high: float
    estimate: float
    """The mean of the non-NaN scores (``numpy.mean``)."""
    standard_error: float
    """Standard deviation (ddof=1) of the bootstrap distribution."""
    n: int
    """Scores used (NaN dropped)."""
    distribution: np.ndarray
    """The ``n_resamples`` resample means."""


class PairedTest(NamedTuple):
    statistic: float
    """mean(a - b) over the rows where neither is missing."""
    p_value: float
    n: int
    """Rows used."""
    n_resamples: int
    """Null samples drawn (2**n for an exact test)."""
    exact: bool
    """All 2**n swaps were enumerated (permutation method, 2**n <= n_resamples)."""


def _column(x: Any, name: str) -> np.ndarray:
    """A C-contiguous 1-D float64 array; ``None`` becomes NaN; complex numbers are a TypeError."""
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name}: expected a column of numbers, got {type(x).__name__}")
    try:
        arr = np.asarray(x)
    except ValueError:  # rows of different lengths
        raise TypeError(f"{name}: expected numbers (None or NaN for a missing score)") from None
    values = arr.ravel()
    if arr.dtype.kind == "c" or (
        arr.dtype.kind == "O" and any(isinstance(v, (complex, np.complexfloating)) for v in values)
    ):
        raise TypeError(f"{name}: expected real numbers, got complex ones (take their .real to score them)")
    try:
        if arr.dtype.kind == "O":
            arr = np.array([math.nan if v is None else v for v in values], dtype=np.float64).reshape(arr.shape)
        else:
            arr = arr.astype(np.float64, copy=False)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected numbers (None or NaN for a missing score)") from None
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D column, got {arr.ndim} dimensions")
    return np.require(arr, None, ["C_CONTIGUOUS", "ALIGNED"])  # a misaligned buffer is copied too


def _check_resamples(n_resamples: int, seed: int) -> None:
    """The types of ``n_resamples`` and ``seed``, and the seed's range (the kernel checks that
    ``n_resamples`` is from 1 to ``MAX_RESAMPLES``)."""
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)):
        raise ValueError(f"n_resamples must be an int from 1 to {MAX_RESAMPLES}, got {n_resamples!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int in [0, 2**64), got {seed!r}")


def mean_std(scores: Any, *, ddof: float = 0) -> MeanStd:
    """Mean and standard deviation of a score column with NaN skipped, as ``numpy.nanmean`` and
    ``numpy.nanstd(ddof=ddof)``, with the number of values used and skipped."""
    mean, std, count, nan_count = _core.mean_std(_column(scores, "scores"), float(ddof))
    return MeanStd(mean, std, count, nan_count)


def _ndtri(p: float) -> float:
    if p <= 0.0:
        return -math.inf if p == 0.0 else math.nan
    if p >= 1.0:
        return math.inf if p == 1.0 else math.nan
    return statistics.NormalDist().inv_cdf(p)


def _ndtr(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def bootstrap_ci(
    scores: Any,
    *,
    confidence: float = 0.95,
    n_resamples: int = 10_000,
    method: str = "percentile",
    seed: int = 0,
) -> BootstrapCI:
    """Bootstrap confidence interval for the mean of a score column (NaN skipped).

    Resample ``r`` draws the n rows with replacement from a random stream seeded with ``(seed, r)``;
    the interval is then computed from the resample means exactly as ``scipy.stats.bootstrap`` does
    for ``statistic=numpy.mean``: ``"percentile"`` (quantiles ``(1 - confidence) / 2`` and
    ``(1 + confidence) / 2`` of the distribution, linear interpolation), ``"basic"`` (the percentile
    interval reflected about the estimate) or ``"bca"`` (bias-corrected and accelerated, with the
    jackknife acceleration). Passing the returned distribution to scipy (``bootstrap_result=``) gives
    the same interval.
    """
    if method not in ("percentile", "basic", "bca"):
        raise ValueError(f"unknown method {method!r}; expected 'percentile', 'basic' or 'bca'")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    _check_resamples(n_resamples, seed)
    x = _column(scores, "scores")
    dist = _core.bootstrap_means(x, int(n_resamples), int(seed))
    kept = x[~np.isnan(x)]
    n = len(kept)
    if n == 0:
        return BootstrapCI(math.nan, math.nan, math.nan, math.nan, 0, dist)
    # Infinite scores make infinite means, and inf - inf in the interval: NaN, as numpy's own, unwarned.
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        low, high, estimate, standard_error = _interval(dist, kept, confidence, method)
    return BootstrapCI(low, high, estimate, standard_error, n, dist)


def _interval(dist: np.ndarray, kept: np.ndarray, confidence: float, method: str) -> tuple[float, float, float, float]:
    """(low, high, estimate, standard error) of a bootstrap distribution, as ``scipy.stats.bootstrap``."""
    # numpy's mean, as scipy's statistic: BCa counts the resample means below it, and with discrete
    # scores many resample means equal it up to the last bit.
    estimate = float(np.mean(kept))
    alpha = (1.0 - confidence) / 2.0
    levels = [alpha, 1.0 - alpha]
    if method == "bca":
        below = np.count_nonzero(dist < estimate) + np.count_nonzero(dist <= estimate)
        z0 = _ndtri(below / (2 * len(dist)))
        u = kept - estimate
        accel = float(np.sum(u**3) / (6.0 * np.sum(u**2) ** 1.5))
        levels = [_ndtr(z0 + (z0 + z) / (1.0 - accel * (z0 + z))) for z in (_ndtri(alpha), -_ndtri(alpha))]
    if any(math.isnan(level) for level in levels):
        low = high = math.nan
    else:
        low, high = (float(v) for v in np.quantile(dist, levels))
    if method == "basic":
        low, high = 2.0 * estimate - high, 2.0 * estimate - low
    standard_error = float(np.std(dist, ddof=1)) if len(dist) > 1 else math.nan
    return low, high, estimate, standard_error


def paired_test(
    a: Any,
    b: Any,
    *,
    method: str = "permutation",
    alternative: str = "two-sided",
    n_resamples: int = 10_000,
    seed: int = 0,
) -> PairedTest:
    """Is system ``a`` better than system ``b`` on the same rows, or is the difference noise?

    ``a`` and ``b`` are per-row scores of any metric; the statistic is mean(a - b).

    ``method="permutation"`` (approximate randomisation): each row's two scores are swapped with
    probability 1/2; when ``2**n <= n_resamples`` all 2**n swaps are enumerated instead (an exact
    test), as ``scipy.stats.permutation_test(..., permutation_type="samples")`` does.
    ``method="bootstrap"`` (paired bootstrap): rows are resampled with replacement and the resample
    means shifted by the observed mean, which gives the null distribution.

    p-values, as scipy's ``permutation_test``: ``greater`` = (#{null >= observed} + 1) / (R + 1),
    ``less`` = (#{null <= observed} + 1) / (R + 1) (without the +1 for an exact test; null values within
    100 machine epsilons of the observed value count as equal); ``two-sided`` = min(1, 2 * min(less,
    greater)).
    """
    _check_resamples(n_resamples, seed)
    x, y = _column(a, "a"), _column(b, "b")
    if len(x) != len(y):
        raise ValueError(f"a has {len(x)} rows but b has {len(y)}")
    settings = _core.PairedTestSettings(
        method=method, alternative=alternative, n_resamples=int(n_resamples), seed=int(seed)
    )
    statistic, p_value, n, used, exact = _core.paired_test(x, y, settings)
    return PairedTest(statistic, p_value, n, used, exact)


def correlation(x: Any, y: Any, *, method: str = "pearson", nan_policy: str = "propagate") -> float:
    """Agreement between two score columns (e.g. a judge and human ratings).

    ``method`` is ``"pearson"``, ``"spearman"`` (ties get their average rank) or ``"kendall"`` (tau-b);
    the values are those of ``scipy.stats.pearsonr``, ``spearmanr`` and ``kendalltau`` (statistic only).
    NaN when fewer than 2 pairs remain or either column is constant. ``nan_policy``: ``"propagate"``
    (any NaN gives NaN), ``"omit"`` (pairs with a NaN or None are dropped) or ``"raise"``.
    """
    if nan_policy not in ("propagate", "omit", "raise"):
        raise ValueError(f"unknown nan_policy {nan_policy!r}; expected 'propagate', 'omit' or 'raise'")
    u, v = _column(x, "x"), _column(y, "y")
    if len(u) != len(v):
        raise ValueError(f"x has {len(u)} rows but y has {len(v)}")
    if nan_policy == "raise" and (np.isnan(u).any() or np.isnan(v).any()):
        raise ValueError("x or y contains NaN")
    return _core.correlation(u, v, method, nan_policy == "omit")


def _labels(x: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    arr = as_labels(x, name)
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D column of labels, got {arr.ndim} dimensions")
    if arr.dtype.kind == "f":
        return arr, np.isnan(arr)
    if arr.dtype.kind == "O":
        missing = np.array([v is None or (isinstance(v, float) and v != v) for v in arr], dtype=bool)
        return arr, missing
    return arr, np.zeros(len(arr), dtype=bool)


def cohen_kappa(a: Any, b: Any, *, weights: str | None = None) -> float:
    """Cohen's kappa between two raters' labels, as ``sklearn.metrics.cohen_kappa_score``.

    Labels are any comparable values, all numbers or all strings (a mix is a ``TypeError``, as in
    :func:`rapideval.majority_vote`); rows where either label is missing (None or NaN) are dropped.
    ``weights``: None (every disagreement costs 1), ``"linear"`` or ``"quadratic"`` (by the distance
    between the labels' positions in sorted order). NaN where kappa is undefined (no rows, or a single
    label in common so that no disagreement is expected).
    """
    (x, mx), (y, my) = _labels(a, "a"), _labels(b, "b")
    if len(x) != len(y):
        raise ValueError(f"a has {len(x)} rows but b has {len(y)}")
    keep = ~(mx | my)
    try:
        labels, codes = np.unique(np.concatenate([x[keep], y[keep]]), return_inverse=True)
    except TypeError as e:
        raise TypeError(f"labels must be mutually comparable ({e})") from None
    codes = codes.reshape(-1).astype(np.int64)
    half = int(keep.sum())
    return _core.cohen_kappa(
        np.ascontiguousarray(codes[:half]), np.ascontiguousarray(codes[half:]), len(labels), weights
    )
