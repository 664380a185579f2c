"""Cosine similarity of embeddings (semantic similarity, answer relevancy), computed in Rust.

Matches numpy's ``dot(a, b) / (norm(a) * norm(b))`` (to 1e-6 relative for float32 input, 1e-12 for
float64), with these rules for special values:

- a vector holding NaN or +-inf has cosine NaN with every vector;
- otherwise a zero vector has cosine 0.0 with every vector (as scikit-learn's ``cosine_similarity``;
  numpy's formula gives NaN from 0/0), and so do vectors of length 0;
- no overflow or underflow: float32 input is accumulated in float64, float64 vectors with huge or
  tiny components are rescaled; results are not clamped to [-1, 1].

float32 arrays are read in place and give float32 results; any other real dtype (or a float32 array
paired with a float64 one) is computed in float64. Non-contiguous arrays are copied once. The GIL is
released and all threads of :func:`rapideval.set_num_threads` are used; results never depend on the
thread count.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _core

__all__ = ["TopK", "cosine", "cosine_matrix"]


class TopK(NamedTuple):
    """The ``k`` most similar rows of ``b`` for every row of ``a``, best first."""

    indices: np.ndarray
    """int64, shape (n, k): row numbers in ``b``."""
    scores: np.ndarray
    """Cosine similarities, shape (n, k), in the dtype of the computation."""


def _real_array(x: Any, name: str) -> np.ndarray:
    arr = np.asarray(x)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected an array of real numbers, got dtype {arr.dtype}")
    if arr.ndim not in (1, 2):
        raise ValueError(f"{name}: expected a vector or a 2-D array of row vectors, got {arr.ndim} dimensions")
    return arr


def _pair(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """Both sides as C-contiguous 2-D arrays of one float dtype (float32 only if both are)."""
    x, y = _real_array(a, "a"), _real_array(b, "b")
    dtype = np.float32 if x.dtype == np.float32 and y.dtype == np.float32 else np.float64
    x = np.require(x, dtype, ["C_CONTIGUOUS", "ALIGNED"])  # a misaligned buffer is copied too
    y = np.require(y, dtype, ["C_CONTIGUOUS", "ALIGNED"])
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"vectors of a have {x.shape[-1]} components but vectors of b have {y.shape[-1]}")
    return (x[None, :] if x.ndim == 1 else x), (y[None, :] if y.ndim == 1 else y)


def cosine(a: Any, b: Any) -> Any:
    """Cosine similarity, row by row.

    ``a`` and ``b`` of shape (n, d) give the n values ``cos(a[i], b[i])``; a vector of shape (d,)
    (or an array of one row) against an (m, d) array gives its m similarities to every row (one query
    against many); two vectors give one scalar (``numpy.float32`` or ``numpy.float64``).
    """
    both_vectors = np.ndim(a) == 1 and np.ndim(b) == 1
    x, y = _pair(a, b)
    out = _core.cosine_rows(x, y)
    return out[0] if both_vectors else out


def cosine_matrix(a: Any, b: Any, top_k: int | None = None) -> Any:
    """All pairs: the (n, m) matrix of ``cos(a[i], b[j])``, or with ``top_k`` the best matches.

    With ``top_k=k`` returns :class:`TopK`: for every row of ``a`` the ``min(k, m)`` rows of ``b`` with
    the highest cosine, best first; equal scores are ordered by lower index, NaN scores come last. The
    full matrix is never stored. float32 input is normalised in float64 and multiplied in float32, the
    products summed in float32 for at most 4096 components and then in float64 (1e-6 relative to the
    exact value at any dimension), float64 in float64.
    """
    x, y = _pair(a, b)
    if top_k is None:
        return _core.cosine_matrix(x, y)
    if isinstance(top_k, bool) or not isinstance(top_k, (int, np.integer)):
        raise TypeError(f"top_k: expected an int or None, got {type(top_k).__name__}")
    if top_k < 1:
        raise ValueError(f"top_k must be at least 1, got {top_k}")
    # At most the rows of b are kept: a larger k (any int) asks for all of them.
    indices, scores = _core.cosine_top_k(x, y, min(int(top_k), max(len(y), 1)))
    return TopK(indices, scores)
