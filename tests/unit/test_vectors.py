"""Cosine similarity: parity with numpy (float64 reference on the same values) and scikit-learn, the
documented special values, broadcasting, top-k order, bad input and thread-count invariance."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.metrics.pairwise import cosine_similarity

import rapideval
from rapideval import _core
from rapideval.metrics.vectors import TopK, cosine, cosine_matrix

RTOL = {np.float32: 1e-6, np.float64: 1e-12}


def reference(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row-wise cosine in float64 with the documented rules, and the scale its error is measured on
    (sum |a_i b_i| / (|a| |b|), which is >= |cos|). Rows are divided by their largest component
    first, so that numpy's formula neither overflows nor underflows."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    a, b = np.broadcast_arrays(a, b)
    bad = ~np.isfinite(a).all(axis=-1) | ~np.isfinite(b).all(axis=-1)
    with np.errstate(all="ignore"):
        sa = np.where(bad, 1.0, np.abs(np.where(np.isfinite(a), a, 0)).max(axis=-1, initial=0.0))
        sb = np.where(bad, 1.0, np.abs(np.where(np.isfinite(b), b, 0)).max(axis=-1, initial=0.0))
        zero = ~bad & ((sa == 0) | (sb == 0))
        ua = a / np.where(sa == 0, 1.0, sa)[..., None]
        ub = b / np.where(sb == 0, 1.0, sb)[..., None]
        norm = np.linalg.norm(ua, axis=-1) * np.linalg.norm(ub, axis=-1)
        cos = np.einsum("...i,...i->...", ua, ub) / norm
        scale = np.einsum("...i,...i->...", np.abs(ua), np.abs(ub)) / norm
    cos = np.where(bad, np.nan, np.where(zero, 0.0, cos))
    scale = np.where(bad | zero, 1.0, scale)
    return cos, scale


def assert_close(ours: np.ndarray, ref: np.ndarray, scale: np.ndarray, rtol: float) -> None:
    ours = np.asarray(ours)
    # Below the normal range precision is absolute: float32 results and unit vectors (all pairs) are
    # rounded to subnormal steps of 1.4e-45 (1e-42 allows ~700 of them); float64 cosines below 2^-475
    # are exact to that (products that underflow to 0 are not rescaled).
    atol = 1e-42 if ours.dtype == np.float32 else 2.0**-470
    ours = ours.astype(np.float64)
    assert ours.shape == ref.shape
    assert np.array_equal(np.isnan(ours), np.isnan(ref)), (ours, ref)
    ok = np.isnan(ref) | (np.abs(ours - ref) <= rtol * scale + atol)
    assert ok.all(), (ours[~ok], ref[~ok], scale[~ok])


finite64 = st.floats(allow_nan=False, allow_infinity=False, width=64)
special64 = st.sampled_from([0.0, -0.0, np.nan, np.inf, -np.inf, 1e-310, 1e308, -1e-300, 1.0])
special32 = st.sampled_from([0.0, -0.0, np.nan, np.inf, -np.inf, 1e-45, 3e38, -1e-38, 1.0])
mixed64 = st.one_of(finite64, special64)
mixed32 = st.one_of(st.floats(allow_nan=False, allow_infinity=False, width=32), special32)


@st.composite
def pairs(draw: st.DrawFn, dtype: type, elements: st.SearchStrategy[float]) -> tuple[np.ndarray, np.ndarray]:
    n = draw(st.integers(0, 12))
    d = draw(st.integers(0, 40))
    a = draw(hnp.arrays(dtype, (n, d), elements=elements))
    b = draw(hnp.arrays(dtype, (n, d), elements=elements))
    if n and draw(st.booleans()):
        a[draw(st.integers(0, n - 1))] = 0.0  # a zero row
    return a, b


@given(pairs(np.float64, mixed64))
def test_rows_float64_parity(ab: tuple[np.ndarray, np.ndarray]) -> None:
    a, b = ab
    ours = cosine(a, b)
    assert ours.dtype == np.float64
    assert_close(ours, *reference(a, b), RTOL[np.float64])


@given(pairs(np.float32, mixed32))
def test_rows_float32_parity(ab: tuple[np.ndarray, np.ndarray]) -> None:
    a, b = ab
    ours = cosine(a, b)
    assert ours.dtype == np.float32
    assert_close(ours, *reference(a, b), RTOL[np.float32])


moderate32 = st.one_of(st.just(0.0), st.floats(0.0009765625, 1024.0, width=32), st.floats(-1024.0, -0.0009765625, width=32))


@given(pairs(np.float32, moderate32))
def test_rows_agree_with_numpy_float32_formula(ab: tuple[np.ndarray, np.ndarray]) -> None:
    """Against numpy's own float32 formula, where it is accurate itself (no underflow in its float32
    squares, no cancellation)."""
    a, b = ab
    with np.errstate(all="ignore"):
        ref = np.einsum("ij,ij->i", a, b) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    _, scale = reference(a, b)
    ok = np.isfinite(ref) & (np.abs(ref) > 1e-2)
    ours = cosine(a, b)
    assert np.all(np.abs(ours[ok] - ref[ok]) <= 1e-5 * scale[ok])


@given(st.integers(0, 30), st.integers(1, 30), st.sampled_from([np.float32, np.float64]), st.data())
def test_query_against_many_and_scalar(m: int, d: int, dtype: type, data: st.DataObject) -> None:
    elements = st.floats(-1e6, 1e6, width=32 if dtype is np.float32 else 64)
    q = data.draw(hnp.arrays(dtype, (d,), elements=elements))
    many = data.draw(hnp.arrays(dtype, (m, d), elements=elements))
    ref, scale = reference(q[None, :], many)
    assert_close(cosine(q, many), ref, scale, RTOL[dtype])
    assert_close(cosine(many, q[None, :]), ref, scale, RTOL[dtype])
    if m:
        one = cosine(q, many[0])
        assert isinstance(one, dtype)
        assert_close(np.array([one]), ref[:1], scale[:1], RTOL[dtype])


@st.composite
def matrices(draw: st.DrawFn, dtype: type) -> tuple[np.ndarray, np.ndarray]:
    n, m, d = draw(st.integers(0, 9)), draw(st.integers(0, 11)), draw(st.integers(0, 20))
    elements = mixed32 if dtype is np.float32 else mixed64
    if draw(st.booleans()):  # mostly ordinary values, sometimes anything
        elements = st.floats(-100, 100, width=32 if dtype is np.float32 else 64)
    a = draw(hnp.arrays(dtype, (n, d), elements=elements))
    b = draw(hnp.arrays(dtype, (m, d), elements=elements))
    return a, b


@given(matrices(np.float64) | matrices(np.float32))
def test_matrix_parity(ab: tuple[np.ndarray, np.ndarray]) -> None:
    a, b = ab
    ours = cosine_matrix(a, b)
    assert ours.dtype == a.dtype and ours.shape == (len(a), len(b))
    ref, scale = reference(a[:, None, :], b[None, :, :])
    assert_close(ours, ref, scale, RTOL[a.dtype.type])


@given(matrices(np.float64) | matrices(np.float32), st.integers(1, 14))
def test_top_k_is_the_best_k_in_order(ab: tuple[np.ndarray, np.ndarray], k: int) -> None:
    a, b = ab
    res = cosine_matrix(a, b, top_k=k)
    assert isinstance(res, TopK)
    kept = min(k, len(b))
    assert res.indices.shape == res.scores.shape == (len(a), kept)
    assert res.indices.dtype == np.int64 and res.scores.dtype == a.dtype
    full = cosine_matrix(a, b)
    for i in range(len(a)):
        idx, sc = res.indices[i], res.scores[i]
        assert len(set(idx.tolist())) == kept
        # The scores are the matrix entries (same kernel, so bit for bit), best first, NaN last.
        assert np.array_equal(sc, full[i, idx], equal_nan=True)
        nan = np.isnan(sc)
        assert not np.any(nan[:-1] & ~nan[1:])
        key = np.where(np.isnan(full[i]), -np.inf, full[i])
        chosen = key[idx]
        assert np.all(chosen[:-1] >= chosen[1:])
        # Equal scores in index order; nothing left out beats the last one taken, and a left-out
        # row that ties with it comes later.
        for q in range(kept - 1):
            if chosen[q] == chosen[q + 1]:
                assert idx[q] < idx[q + 1]
        rest = np.setdiff1d(np.arange(len(b)), idx)
        if len(rest) and kept:
            assert np.all(key[rest] <= chosen[-1])
            ties = rest[key[rest] == chosen[-1]]
            assert np.all(ties > idx[chosen == chosen[-1]].max())


def test_top_k_tie_rule_and_nan_last() -> None:
    a = np.array([[1.0, 0.0]], dtype=np.float32)
    b = np.array([[2, 0], [np.nan, 0], [1, 0], [0, 1], [3, 0], [-1, 0]], dtype=np.float32)
    res = cosine_matrix(a, b, top_k=10)
    assert res.indices.tolist() == [[0, 2, 4, 3, 5, 1]]
    assert res.scores[0, :5].tolist() == [1.0, 1.0, 1.0, 0.0, -1.0]
    assert np.isnan(res.scores[0, 5])
    assert cosine_matrix(a, b, top_k=2).indices.tolist() == [[0, 2]]


moderate64 = st.one_of(st.just(0.0), st.floats(2.0**-10, 2.0**10), st.floats(-(2.0**10), -(2.0**-10)))


@given(
    hnp.arrays(np.float64, st.tuples(st.integers(1, 8), st.just(6)), elements=moderate64),
    hnp.arrays(np.float64, st.tuples(st.integers(1, 8), st.just(6)), elements=moderate64),
)
def test_sklearn_cosine_similarity_parity(a: np.ndarray, b: np.ndarray) -> None:
    """Zero rows included: scikit-learn also gives 0.0 there. (Its squared norms underflow for
    components below ~1e-154, hence moderate values.)"""
    ref = cosine_similarity(a, b)
    assert np.allclose(cosine_matrix(a, b), ref, rtol=0, atol=1e-12)
    if len(a) == len(b):
        assert np.allclose(cosine(a, b), np.diag(ref), rtol=0, atol=1e-12)


def test_special_values() -> None:
    z = np.zeros(3)
    v = np.array([1.0, 2.0, 3.0])
    assert cosine(z, v) == 0.0 and cosine(z, z) == 0.0
    assert np.isnan(cosine(np.array([np.nan, 0, 0]), z))
    assert np.isnan(cosine(np.array([np.inf, 0, 0]), z))
    assert np.isnan(cosine(np.array([np.inf, 0, 0]), v))
    assert cosine(np.empty(0), np.empty(0)) == 0.0
    big = np.array([1e300, 1e300])
    assert abs(cosine(big, np.array([1e300, 0.0])) - np.sqrt(0.5)) < 1e-15
    tiny = np.array([1e-310, 1e-310])
    assert abs(cosine(tiny, np.array([1e-310, 0.0])) - np.sqrt(0.5)) < 1e-15
    f32 = np.array([3e38, 3e38], dtype=np.float32)
    assert abs(cosine(f32, np.array([1e-45, 0], dtype=np.float32)) - np.sqrt(0.5)) < 1e-7


def test_empty_inputs() -> None:
    for dtype in (np.float32, np.float64):
        assert cosine(np.empty((0, 4), dtype), np.empty((0, 4), dtype)).shape == (0,)
        assert cosine_matrix(np.empty((0, 4), dtype), np.ones((3, 4), dtype)).shape == (0, 3)
        assert cosine_matrix(np.ones((2, 4), dtype), np.empty((0, 4), dtype)).shape == (2, 0)
        res = cosine_matrix(np.ones((2, 4), dtype), np.empty((0, 4), dtype), top_k=3)
        assert res.indices.shape == (2, 0)
        assert cosine_matrix(np.ones((2, 0), dtype), np.ones((3, 0), dtype)).tolist() == [[0.0] * 3] * 2


def test_dtypes_and_layouts_are_handled() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((6, 10))
    b = rng.standard_normal((6, 10))
    want = cosine(a, b)
    assert np.array_equal(cosine(np.asfortranarray(a), b), want)
    assert np.array_equal(cosine(a[:, ::1], b[::1]), want)
    wide = rng.standard_normal((6, 20))
    assert np.array_equal(cosine(wide[:, ::2], b), cosine(np.ascontiguousarray(wide[:, ::2]), b))
    assert cosine(a.astype(np.float32), b).dtype == np.float64  # mixed: float64
    assert cosine(a.astype(np.int64), b.astype(np.int32)).dtype == np.float64
    assert cosine(a.tolist(), b.tolist()).dtype == np.float64
    assert cosine(a > 0, b > 0).dtype == np.float64


def test_bad_input_is_rejected_clearly() -> None:
    a = np.ones((3, 4))
    with pytest.raises(TypeError, match="a: expected an array of real numbers"):
        cosine(a.astype(complex), a)
    with pytest.raises(TypeError, match="b: expected an array of real numbers"):
        cosine(a, np.array([["x"] * 4] * 3))
    with pytest.raises(ValueError, match="3 dimensions"):
        cosine(np.ones((2, 2, 2)), a)
    with pytest.raises(ValueError, match="4 components .* 5"):
        cosine(a, np.ones((3, 5)))
    with pytest.raises(ValueError, match="a has 3 rows and b has 2"):
        cosine(a, np.ones((2, 4)))
    with pytest.raises(ValueError, match="top_k must be at least 1"):
        cosine_matrix(a, a, top_k=0)
    with pytest.raises(TypeError, match="top_k"):
        cosine_matrix(a, a, top_k=True)
    # The native layer itself: wrong dtype or layout is an error, never a crash.
    with pytest.raises(TypeError, match="float32 or float64"):
        _core.cosine_rows(a.astype(np.int64), a.astype(np.int64))
    with pytest.raises(TypeError, match="float32 or float64"):
        _core.cosine_rows(a.astype(np.float32), a)
    with pytest.raises(ValueError, match="not C-contiguous"):
        _core.cosine_matrix(np.ones((4, 6))[:, ::2], a[:, :3].copy())
    with pytest.raises(TypeError):
        _core.cosine_top_k([[1.0]], [[1.0]], 1)


def test_results_do_not_depend_on_the_thread_count() -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3000, 50)).astype(np.float32)
    b = rng.standard_normal((3000, 50)).astype(np.float32)
    before = rapideval.get_num_threads()
    try:
        rapideval.set_num_threads(1)
        one = (cosine(a, b), cosine_matrix(a[:200], b), cosine_matrix(a[:200], b, top_k=5))
        rapideval.set_num_threads(2)
        two = (cosine(a, b), cosine_matrix(a[:200], b), cosine_matrix(a[:200], b, top_k=5))
    finally:
        rapideval.set_num_threads(before)
    assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])
    assert np.array_equal(one[2].indices, two[2].indices) and np.array_equal(one[2].scores, two[2].scores)


def test_large_dimension_and_row_counts() -> None:
    rng = np.random.default_rng(2)
    a = rng.standard_normal((257, 384)).astype(np.float32)
    b = rng.standard_normal((1001, 384)).astype(np.float32)
    ref, scale = reference(a[:, None, :], b[None, :, :])
    assert_close(cosine_matrix(a, b), ref, scale, 1e-6)
    res = cosine_matrix(a, b, top_k=10)
    order = np.argsort(-ref, axis=1, kind="stable")[:, :10]
    assert (res.indices == order).mean() > 0.99  # near-ties may swap within tolerance


def test_a_misaligned_buffer_scores_as_its_aligned_copy() -> None:
    rng = np.random.default_rng(3)
    values = rng.standard_normal(12)
    raw = np.zeros(values.nbytes + 1, dtype=np.uint8)
    raw[1:] = np.frombuffer(values.tobytes(), dtype=np.uint8)
    misaligned = np.frombuffer(raw[1:].data, dtype=np.float64).reshape(3, 4)
    assert not misaligned.flags["ALIGNED"]
    aligned = values.reshape(3, 4)
    ours = rapideval.cosine(misaligned, misaligned[::-1].copy())
    assert np.array_equal(ours, rapideval.cosine(aligned, aligned[::-1]))
    assert rapideval.mean_std(misaligned.ravel()) == rapideval.mean_std(values)
    assert np.array_equal(rapideval.ordinal_vote(misaligned).mean, rapideval.ordinal_vote(aligned).mean)
