"""What every side-by-side bench shares: the real prose pairs, median timing, and value agreement."""

from __future__ import annotations

import json
import statistics
import time
from importlib import resources
from typing import Any, Callable

import numpy as np


def load_pairs(n: int) -> tuple[list[str], list[str]]:
    """The example dataset shipped with rapideval (documentation prose and rewrites), tiled to n rows."""
    with resources.as_file(resources.files("rapideval") / "data" / "example.jsonl") as p:
        rows = [json.loads(line) for line in open(p, encoding="utf8")]
    rows = (rows * (n // len(rows) + 1))[:n]
    return [r["response"] for r in rows], [r["reference"] for r in rows]


def median_time(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Median wall time of `repeats` calls, and the last call's result."""
    times, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def agreement(ours: np.ndarray, ref: list[float]) -> str:
    """How many values are bit-identical to the reference's, and the largest difference."""
    ref_arr = np.asarray(ref, dtype=np.float64)
    same = int(np.sum(ours.view(np.int64) == ref_arr.view(np.int64)))
    return f"{same}/{len(ref_arr)} bit-identical, max|diff| {float(np.max(np.abs(ours - ref_arr))):.2e}"
