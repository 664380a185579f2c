"""Is one system better than another on the same rows? :func:`compare` pairs the rows of two result files and
runs a paired test per metric on the rows both scored (``rapideval.paired_test``: a permutation test of the
mean difference, 10,000 resamples)."""

from __future__ import annotations

import pathlib
from typing import Any

import numpy as np

from ..metrics.stats import paired_test
from .store import read_table

__all__ = ["compare"]


def _metrics(table: Any) -> list[str]:
    return [c[: -len(".status")] for c in table.column_names if c.endswith(".status")]


def compare(a: str | pathlib.Path, b: str | pathlib.Path, *, key: str = "row") -> dict[str, Any]:
    """Paired comparison of the result files ``a`` and ``b`` (from :func:`rapideval.evaluate` with
    ``output=``, or :meth:`~rapideval.EvaluationResult.save`), their rows paired by ``key``: for each metric
    both have, ``{"mean_a", "mean_b", "difference" (mean of a - b), "p_value" (two-sided), "n" (rows ok in
    both)}``. A metric no row pairs has n = 0 and None elsewhere. ValueError when ``key`` is not a column of
    both, or is not unique."""
    tables = [read_table(pathlib.Path(p)) for p in (a, b)]
    for path, table in zip((a, b), tables, strict=True):
        if key not in table.column_names:
            raise ValueError(f"compare: {path} has no column {key!r}; its columns: {table.column_names}")
    keys_a, keys_b = (t.column(key).to_pylist() for t in tables)
    for path, keys in ((a, keys_a), (b, keys_b)):
        if len(set(keys)) != len(keys):
            raise ValueError(f"compare: the {key!r} column of {path} has repeated values; pair by a unique column")
    position_b = {k: i for i, k in enumerate(keys_b)}
    pairs = np.array([(i, position_b[k]) for i, k in enumerate(keys_a) if k in position_b], dtype=np.int64)
    pairs = pairs.reshape(-1, 2)
    shared = [m for m in _metrics(tables[0]) if m in set(_metrics(tables[1]))]
    out: dict[str, Any] = {}
    for m in shared:
        values = []
        for table, rows in zip(tables, (pairs[:, 0], pairs[:, 1]), strict=True):
            status = np.asarray(table.column(f"{m}.status").to_pylist(), dtype=object)[rows]
            score = table.column(m).to_numpy(zero_copy_only=False).astype(np.float64)[rows]
            values.append(np.where(status == "ok", score, np.nan))
        both = ~np.isnan(values[0]) & ~np.isnan(values[1])
        va, vb = values[0][both], values[1][both]
        if va.size == 0:
            out[m] = {"mean_a": None, "mean_b": None, "difference": None, "p_value": None, "n": 0}
            continue
        test = paired_test(va, vb) if va.size > 1 else None
        out[m] = {"mean_a": float(va.mean()), "mean_b": float(vb.mean()), "difference": float((va - vb).mean()),
                  "p_value": float(test.p_value) if test is not None else 1.0, "n": int(va.size)}  # fmt: skip
    return {"method": "permutation", "key": key, "n_paired": len(pairs), "metrics": out}
