"""Statistics: mean/std against numpy, bootstrap intervals against scipy.stats.bootstrap fed our
distribution, the resampling itself (exact row draws, uniform indices, seeding, thread count),
paired tests against scipy.stats.permutation_test, correlations against scipy.stats and Cohen's kappa
against scikit-learn."""

from __future__ import annotations

import math
import warnings
from types import SimpleNamespace

import numpy as np
import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.metrics import cohen_kappa_score

import rapideval
from rapideval.metrics.stats import bootstrap_ci, cohen_kappa, correlation, mean_std, paired_test

# Squared deviations of values beyond 1e150 overflow in numpy's two-pass std as in ours, but which
# rows overflow then depends on the last bit of the mean.
anything = st.one_of(st.floats(-1e150, 1e150), st.sampled_from([np.nan, np.inf, -np.inf]))
scores = st.one_of(st.floats(0, 1), st.integers(0, 5).map(float), st.just(np.nan))


def same(a: float, b: float, rtol: float, scale: float = 0.0) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= rtol * max(abs(b), scale)


@given(hnp.arrays(np.float64, st.integers(0, 300), elements=anything), st.sampled_from([0, 1]))
def test_mean_std_matches_numpy(x: np.ndarray, ddof: int) -> None:
    res = mean_std(x, ddof=ddof)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        mean, std = np.nanmean(x), np.nanstd(x, ddof=ddof)
        finite = x[np.isfinite(x)]
        scale = float(np.abs(finite).mean()) if len(finite) else 0.0
    assert res.count == int((~np.isnan(x)).sum()) and res.nan_count == int(np.isnan(x).sum())
    assert same(res.mean, float(mean), 1e-12, scale), (res.mean, mean)
    assert same(res.std, float(std), 1e-10, scale), (res.std, std)


def scipy_interval(x: np.ndarray, dist: np.ndarray, method: str, confidence: float) -> tuple[float, float, float]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # DegenerateDataWarning on constant data
        res = scipy.stats.bootstrap((x,), np.mean, n_resamples=0, confidence_level=confidence, method=method,
                                    bootstrap_result=SimpleNamespace(bootstrap_distribution=dist))
    return float(res.confidence_interval.low), float(res.confidence_interval.high), float(res.standard_error)


@given(hnp.arrays(np.float64, st.integers(1, 120), elements=scores), st.sampled_from(["percentile", "basic", "bca"]),
       st.sampled_from([0.9, 0.95, 0.99]), st.integers(0, 2**64 - 1))
def test_bootstrap_interval_matches_scipy(x: np.ndarray, method: str, confidence: float, seed: int) -> None:
    res = bootstrap_ci(x, method=method, confidence=confidence, n_resamples=500, seed=seed)
    kept = x[~np.isnan(x)]
    assert res.n == len(kept) and len(res.distribution) == (500 if len(kept) else 0)
    if not len(kept):
        assert math.isnan(res.low) and math.isnan(res.estimate)
        return
    assert res.estimate == float(np.mean(kept))
    if len(kept) < 2:  # scipy needs two observations; BCa is undefined for one
        assert (res.low == res.high == kept[0]) or (method == "bca" and math.isnan(res.low))
        return
    low, high, se = scipy_interval(kept, res.distribution, method, confidence)
    # BCa: scipy's jackknife acceleration carries cancellation noise; the rest is computed alike.
    tol = 1e-9 if method == "bca" else 1e-12
    scale = float(np.abs(kept).max())
    assert same(res.low, low, tol, scale) and same(res.high, high, tol, scale), (res.low, res.high, low, high)
    assert same(res.standard_error, se, 1e-9, scale)


@given(hnp.arrays(np.float64, st.integers(1, 300), elements=st.integers(-5, 5).map(float)), st.integers(0, 1000))
def test_each_resample_is_n_rows_of_the_column(x: np.ndarray, seed: int) -> None:
    dist = bootstrap_ci(x, n_resamples=50, seed=seed).distribution
    totals = dist * len(x)
    assert np.allclose(totals, np.round(totals), atol=1e-9)
    assert np.all((dist >= x.min()) & (dist <= x.max()))


@pytest.mark.parametrize("n", [1, 2, 7, 255, 256, 257, 300, 1000, 4097])
def test_every_row_is_drawn_uniformly(n: int) -> None:
    """One-hot columns: the count of the hot row is Binomial(n, 1/n) (mean 1, variance 1 - 1/n) for
    the first, last and a middle row, padding rejection included."""
    r = 20_000
    for hot in {0, n // 2, n - 1}:
        x = np.zeros(n)
        x[hot] = 1.0
        counts = bootstrap_ci(x, n_resamples=r, seed=hot).distribution * n
        assert abs(counts.mean() - 1.0) < 5 / math.sqrt(r), (n, hot, counts.mean())
        if n > 1:
            assert abs(counts.var() - (1 - 1 / n)) < 0.1, (n, hot, counts.var())


def test_bootstrap_spread_and_seeding() -> None:
    x = np.random.default_rng(0).random(20_000)
    a = bootstrap_ci(x, n_resamples=2000, seed=5)
    assert abs(a.standard_error / (x.std() / math.sqrt(len(x))) - 1) < 0.06
    assert a.low < x.mean() < a.high
    b = bootstrap_ci(x, n_resamples=2000, seed=5)
    assert np.array_equal(a.distribution, b.distribution)
    assert not np.array_equal(a.distribution, bootstrap_ci(x, n_resamples=2000, seed=6).distribution)
    # The first resamples do not depend on how many are drawn.
    assert np.array_equal(bootstrap_ci(x, n_resamples=10, seed=5).distribution, a.distribution[:10])


def test_results_do_not_depend_on_the_thread_count() -> None:
    rng = np.random.default_rng(3)
    x, y = rng.random(70_000), rng.random(70_000)
    before = rapideval.get_num_threads()
    out = []
    try:
        for threads in (1, 2):
            rapideval.set_num_threads(threads)
            out.append((bootstrap_ci(x, n_resamples=200, seed=1).distribution, mean_std(x),
                        paired_test(x, y, n_resamples=300), paired_test(x, y, method="bootstrap", n_resamples=300)))
    finally:
        rapideval.set_num_threads(before)
    assert np.array_equal(out[0][0], out[1][0])
    assert out[0][1:] == out[1][1:]


def test_nan_and_empty_columns() -> None:
    res = bootstrap_ci([1.0, np.nan, 3.0, None], n_resamples=100)
    assert res.n == 2 and res.estimate == 2.0 and set(res.distribution) <= {1.0, 2.0, 3.0}
    empty = bootstrap_ci([], n_resamples=10)
    assert empty.n == 0 and math.isnan(empty.low) and len(empty.distribution) == 0
    one = bootstrap_ci([4.0], n_resamples=10)
    assert one.low == one.high == 4.0
    constant = bootstrap_ci([2.0] * 10, method="bca", n_resamples=10)
    assert math.isnan(constant.low)  # BCa is undefined for a degenerate distribution (scipy: NaN too)
    assert mean_std([]).count == 0 and math.isnan(mean_std([]).mean)


dyadic = st.integers(-8, 8).map(lambda v: v / 4)


@given(st.integers(2, 10).flatmap(lambda n: st.tuples(st.lists(dyadic, min_size=n, max_size=n),
                                                    st.lists(dyadic, min_size=n, max_size=n))),
       st.sampled_from(["two-sided", "less", "greater"]))
def test_exact_permutation_test_matches_scipy(ab: tuple[list, list], alternative: str) -> None:
    """Dyadic scores make every sum exact, so p-values compare exactly (the statistic, mean(a - b)
    against scipy's mean(a) - mean(b), only to rounding)."""
    a, b = np.array(ab[0]), np.array(ab[1])
    ours = paired_test(a, b, alternative=alternative, n_resamples=10_000)
    ref = scipy.stats.permutation_test((a, b), lambda x, y, axis: np.mean(x, axis=axis) - np.mean(y, axis=axis),
                                       permutation_type="samples", vectorized=True, n_resamples=10_000,
                                       alternative=alternative)
    assert ours.exact and ours.n_resamples == 2 ** len(a)
    assert abs(ours.statistic - ref.statistic) <= 1e-15
    assert ours.p_value == ref.pvalue


def exact_p(d: np.ndarray, alternative: str) -> float:
    n = len(d)
    signs = 1 - 2 * ((np.arange(2**n)[:, None] >> np.arange(n)) & 1)
    null = (signs * d).mean(axis=1)
    obs = d.mean()
    less, greater = np.mean(null <= obs + 1e-12), np.mean(null >= obs - 1e-12)
    return {"less": less, "greater": greater, "two-sided": min(1.0, 2 * min(less, greater))}[alternative]


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("n", [14, 17])
def test_randomised_permutation_test_approximates_the_exact_one(n: int, alternative: str) -> None:
    rng = np.random.default_rng(n)
    a, b = rng.random(n), rng.random(n) + 0.15
    res = paired_test(a, b, alternative=alternative, n_resamples=4000, seed=n)
    assert not res.exact and res.n_resamples == 4000
    p = exact_p(a - b, alternative)
    assert abs(res.p_value - p) < 4 * math.sqrt(p * (1 - p) / 4000) + 2 / 4000, (res.p_value, p)


def test_paired_bootstrap() -> None:
    rng = np.random.default_rng(9)
    a = rng.random(400)
    b = a - 0.05 + rng.normal(0, 0.05, 400)
    res = paired_test(a, b, method="bootstrap", alternative="greater", n_resamples=5000)
    assert res.statistic == pytest.approx(np.mean(a - b)) and res.p_value == 1 / 5001
    assert paired_test(a, b, method="bootstrap", alternative="less").p_value > 0.99
    same_system = paired_test(a, a.copy(), method="bootstrap")
    assert same_system.statistic == 0.0 and same_system.p_value == 1.0
    noise = paired_test(a, a + rng.normal(0, 0.05, 400), method="bootstrap", n_resamples=2000)
    assert 0.0 < noise.p_value <= 1.0


def test_paired_test_drops_missing_rows_and_checks_input() -> None:
    res = paired_test([1.0, np.nan, 3.0, 4.0], [0.5, 2.0, None, 3.0])
    assert res.n == 2 and res.statistic == 0.75
    with pytest.raises(ValueError, match="a has 2 rows but b has 3"):
        paired_test([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="n_resamples"):
        paired_test([1, 2], [1, 2], n_resamples=0)
    with pytest.raises(ValueError, match="unknown method"):
        paired_test([1, 2], [1, 2], method="t-test")
    with pytest.raises(ValueError, match="unknown alternative"):
        paired_test([1, 2], [1, 2], alternative="bigger")
    with pytest.raises(TypeError, match="numbers"):
        paired_test(["a", "b"], [1, 2])
    with pytest.raises(ValueError, match="1-D"):
        paired_test([[1.0]], [[2.0]])
    assert math.isnan(paired_test([np.nan], [1.0]).p_value)


def scipy_correlation(x: np.ndarray, y: np.ndarray, method: str) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant input
        if method == "pearson":
            return float(scipy.stats.pearsonr(x, y).statistic)
        if method == "spearman":
            return float(scipy.stats.spearmanr(x, y).statistic)
        return float(scipy.stats.kendalltau(x, y).statistic)


values = st.one_of(st.integers(-3, 3).map(float), st.floats(-1e6, 1e6))


@given(st.integers(2, 60).flatmap(lambda n: st.tuples(hnp.arrays(np.float64, n, elements=values),
                                                     hnp.arrays(np.float64, n, elements=values))),
       st.sampled_from(["pearson", "spearman", "kendall"]))
def test_correlation_matches_scipy(xy: tuple[np.ndarray, np.ndarray], method: str) -> None:
    x, y = xy
    ours = correlation(x, y, method=method)
    ref = scipy_correlation(x, y, method)
    assert same(ours, ref, 0, 1e-12) or abs(ours - ref) <= 1e-12, (ours, ref)


@given(st.integers(0, 40).flatmap(lambda n: st.tuples(hnp.arrays(np.float64, n, elements=st.one_of(values, st.just(np.nan))),
                                                     hnp.arrays(np.float64, n, elements=st.one_of(values, st.just(np.nan))))),
       st.sampled_from(["pearson", "spearman", "kendall"]))
def test_correlation_nan_policy(xy: tuple[np.ndarray, np.ndarray], method: str) -> None:
    x, y = xy
    keep = ~(np.isnan(x) | np.isnan(y))
    omitted = correlation(x, y, method=method, nan_policy="omit")
    if keep.sum() < 2:
        assert math.isnan(omitted)
    else:
        ref = scipy_correlation(x[keep], y[keep], method)
        assert (math.isnan(omitted) and math.isnan(ref)) or abs(omitted - ref) <= 1e-12
    if not keep.all():
        assert math.isnan(correlation(x, y, method=method))
        with pytest.raises(ValueError, match="NaN"):
            correlation(x, y, method=method, nan_policy="raise")


def test_correlation_edge_cases() -> None:
    assert correlation([1, 2], [3, 1]) == -1.0
    assert math.isnan(correlation([1.0], [2.0]))
    assert math.isnan(correlation([1, 1, 1], [1, 2, 3], method="spearman"))
    assert correlation([1e200, -1e200, 3e199], [1, -1, 0.3]) == pytest.approx(1.0)
    assert correlation([1, 2, None, 4], [1, 2, 3, 5], nan_policy="omit") == pytest.approx(
        scipy.stats.pearsonr([1, 2, 4], [1, 2, 5]).statistic, abs=1e-15)
    with pytest.raises(ValueError, match="unknown method"):
        correlation([1, 2], [1, 2], method="cosine")
    with pytest.raises(ValueError, match="nan_policy"):
        correlation([1, 2], [1, 2], nan_policy="drop")
    with pytest.raises(ValueError, match="x has 2 rows but y has 1"):
        correlation([1, 2], [1])


kappa_labels = st.one_of(st.integers(0, 4), st.sampled_from(["bad", "fair", "good"]).map(lambda s: s))


@given(st.integers(1, 50).flatmap(lambda n: st.tuples(st.lists(st.integers(0, 4), min_size=n, max_size=n),
                                                     st.lists(st.integers(0, 4), min_size=n, max_size=n))),
       st.sampled_from([None, "linear", "quadratic"]))
def test_cohen_kappa_matches_sklearn(ab: tuple[list, list], weights: str | None) -> None:
    a, b = ab
    ours = cohen_kappa(a, b, weights=weights)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined kappa
        ref = cohen_kappa_score(a, b, weights=weights)
    assert (math.isnan(ours) and math.isnan(ref)) or abs(ours - ref) <= 1e-12, (ours, ref)


@given(st.lists(st.tuples(st.sampled_from(["bad", "fair", "good", None]), st.sampled_from(["bad", "fair", "good", None])),
                min_size=1, max_size=40))
def test_cohen_kappa_string_labels_and_missing(pairs: list[tuple]) -> None:
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    ours = cohen_kappa(a, b)
    kept = [(x, y) for x, y in pairs if x is not None and y is not None]
    if not kept:
        assert math.isnan(ours)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = cohen_kappa_score([p[0] for p in kept], [p[1] for p in kept])
    assert (math.isnan(ours) and math.isnan(ref)) or abs(ours - ref) <= 1e-12


def test_cohen_kappa_many_distinct_labels() -> None:
    # 20,000 distinct labels: a dense confusion matrix would take 3.2 GB.
    rng = np.random.default_rng(3)
    a = rng.permutation(20_000)
    b = a.copy()
    b[:1000] = b[1000:2000]
    ref = cohen_kappa_score(a[:3000], b[:3000], weights="linear")
    assert abs(cohen_kappa(a[:3000], b[:3000], weights="linear") - ref) <= 1e-12
    assert cohen_kappa(a, a) == 1.0
    n = len(a)
    p_observed = np.mean(a == b)
    p_expected = np.sum(np.bincount(a, minlength=n) * np.bincount(b, minlength=n)) / n**2
    assert abs(cohen_kappa(a, b) - (p_observed - p_expected) / (1 - p_expected)) <= 1e-12


def test_cohen_kappa_bad_input() -> None:
    with pytest.raises(ValueError, match="a has 2 rows but b has 1"):
        cohen_kappa([1, 2], [1])
    with pytest.raises(ValueError, match="unknown weights"):
        cohen_kappa([1, 2], [1, 2], weights="cubic")
    with pytest.raises(TypeError, match="comparable"):
        cohen_kappa(np.array([1, "a"], dtype=object), np.array([2, "b"], dtype=object))
