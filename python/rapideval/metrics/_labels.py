"""Labels as numpy arrays, for the kernels that count them (:func:`rapideval.cohen_kappa`,
:func:`rapideval.majority_vote`): one policy for both."""

from __future__ import annotations

from typing import Any

import numpy as np


def as_labels(x: Any, name: str) -> np.ndarray:
    """``x`` as a numpy array of labels. numpy makes a mix of numbers and strings all strings
    (``[1, "a"]`` becomes ``["1", "a"]``, so that ``1`` and ``"1"`` would be one label): labels of
    mixed kinds are a ``TypeError`` instead, as labels numpy cannot order are (``None`` and NaN, which
    mark a missing label, are not counted as a kind)."""
    arr = np.asarray(x)
    if arr.dtype.kind in "US" and not isinstance(x, np.ndarray):
        values = np.asarray(x, dtype=object).ravel()
        kinds = {_kind(v) for v in values if v is not None}
        if len(kinds) > 1:
            raise TypeError(
                f"{name}: labels of mixed types ({', '.join(sorted(kinds))}); "
                "pass labels that are all strings or all numbers"
            )
    return arr


def _kind(v: Any) -> str:
    return "str" if isinstance(v, str) else "bytes" if isinstance(v, bytes) else type(v).__name__
