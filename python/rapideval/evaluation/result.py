"""What :func:`rapideval.evaluate` returns: the per-row table, each metric's summary (mean with a 95 %
interval, counts of ok / not applicable / error rows), the failures with their causes, the judge's usage
and cost, and each metric's signature. Summaries are kept while the rows stream by, so a run of any size
needs memory for one chunk, not for its rows."""

from __future__ import annotations

import heapq
import math
import pathlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ..metrics.stats import bootstrap_ci

__all__ = ["EvaluationResult", "MetricSummary", "Tracker"]

# Up to this many ok values the interval is the percentile bootstrap of the mean (rapideval.bootstrap_ci,
# 10,000 resamples); above, the normal interval mean +- 1.96 sd / sqrt(n), which agrees with it there to
# about 1e-4 and needs no stored values.
BOOTSTRAP_MAX = 100_000
# Rows kept per metric for the report's worst rows, and failures kept in all.
WORST_KEPT = 20
FAILURES_KEPT = 1000


@dataclass(frozen=True)
class MetricSummary:
    """One metric over the run: ``mean`` of its ok values (0-1; None when no row is ok) with the 95 %
    interval ``ci_low``..``ci_high`` (``ci_method``: ``bootstrap`` or ``normal``), ``std``, ``min``,
    ``max``, the counts ``n_ok``, ``n_not_applicable``, ``n_error``, the direction and the signature."""

    metric: str
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    ci_method: str | None
    std: float | None
    min: float | None
    max: float | None
    n_ok: int
    n_not_applicable: int
    n_error: int
    higher_is_better: bool
    signature: str
    errors_by_cause: dict[str, int] = field(default_factory=dict)


class _Stats:
    """A metric's running statistics (Chan's merge of chunk means and squared deviations)."""

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0
        self.min = math.inf
        self.max = -math.inf
        self.values: list[np.ndarray] | None = []  # kept while n <= BOOTSTRAP_MAX
        self.n_not_applicable = 0
        self.n_error = 0
        self.causes: Counter[str] = Counter()
        self.worst: list[tuple[float, int]] = []  # a heap of (badness, row)

    def add(self, values: np.ndarray, rows: np.ndarray, higher_is_better: bool) -> None:
        if values.size == 0:
            return
        n, mean = values.size, float(values.mean())
        delta = mean - self.mean
        total = self.n + n
        self.m2 += float(((values - mean) ** 2).sum()) + delta * delta * self.n * n / total
        self.mean += delta * n / total
        self.n = total
        self.min, self.max = min(self.min, float(values.min())), max(self.max, float(values.max()))
        if self.values is not None:
            self.values.append(values.copy())
            if self.n > BOOTSTRAP_MAX:
                self.values = None
        badness = -values if higher_is_better else values
        k = min(WORST_KEPT, n)
        for i in np.argpartition(-badness, k - 1)[:k]:
            item = (float(badness[i]), -int(rows[i]))  # ties: the earlier row
            if len(self.worst) < WORST_KEPT:
                heapq.heappush(self.worst, item)
            else:
                heapq.heappushpop(self.worst, item)

    def summary(self, name: str, higher_is_better: bool, signature: str) -> MetricSummary:
        if self.n == 0:
            return MetricSummary(name, None, None, None, None, None, None, None, 0, self.n_not_applicable,
                                 self.n_error, higher_is_better, signature, dict(self.causes))  # fmt: skip
        std = math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else 0.0
        if self.values is not None and self.n > 1:
            ci = bootstrap_ci(np.concatenate(self.values), confidence=0.95)
            low, high, method = ci.low, ci.high, "bootstrap"
        else:
            half = 1.959963984540054 * std / math.sqrt(self.n)
            low, high, method = self.mean - half, self.mean + half, "normal"
        return MetricSummary(name, self.mean, float(low), float(high), method, std, self.min, self.max, self.n,
                             self.n_not_applicable, self.n_error, higher_is_better, signature,
                             dict(self.causes))  # fmt: skip


class Tracker:
    """The summaries, worst rows and failures of a run, fed one chunk at a time (:meth:`add`)."""

    def __init__(self, metrics: Sequence[str], directions: Mapping[str, bool]) -> None:
        self.metrics = list(metrics)
        self.directions = dict(directions)
        self.stats = {m: _Stats() for m in metrics}
        self.failures: list[dict[str, Any]] = []
        self.n_rows = 0

    def add(self, table: Any) -> None:
        """A chunk's rows of the output table (a pyarrow Table with ``row`` and the metric columns)."""
        import pyarrow.compute as pc

        rows = table.column("row").to_numpy()
        self.n_rows += table.num_rows
        for m in self.metrics:
            stats = self.stats[m]
            status = table.column(f"{m}.status")
            ok = pc.equal(status, "ok").to_numpy(zero_copy_only=False)
            values = table.column(m).to_numpy(zero_copy_only=False)
            stats.add(values[ok].astype(np.float64), rows[ok], self.directions[m])
            failed = np.flatnonzero(~ok)
            if not failed.size:
                continue
            picked = table.select([f"{m}.status", f"{m}.cause", f"{m}.reason"]).take(failed).to_pylist()
            for i, row in zip(failed, picked, strict=True):
                status_i, cause, reason = row[f"{m}.status"], row[f"{m}.cause"], row[f"{m}.reason"]
                if status_i == "error":
                    stats.n_error += 1
                    stats.causes[cause or "error"] += 1
                else:
                    stats.n_not_applicable += 1
                if len(self.failures) < FAILURES_KEPT:
                    self.failures.append({"row": int(rows[i]), "metric": m, "status": status_i, "cause": cause,
                                          "reason": reason})  # fmt: skip

    def summaries(self, signatures: Mapping[str, str]) -> dict[str, MetricSummary]:
        return {m: self.stats[m].summary(m, self.directions[m], signatures[m]) for m in self.metrics}

    def worst(self) -> dict[str, list[int]]:
        """Each metric's worst rows (lowest scores, or highest where lower is better), worst first."""
        return {m: [-row for _, row in sorted(self.stats[m].worst, reverse=True)] for m in self.metrics}


class EvaluationResult:
    """The result of :func:`rapideval.evaluate`.

    ``summary``: ``{metric: MetricSummary}``; ``failures``: the first 1,000 rows that were not ok, each
    ``{"row", "metric", "status", "cause", "reason"}`` (``summary[m].errors_by_cause`` counts them all);
    ``worst``: each metric's 20 worst rows; ``usage``: the judge's calls, tokens and cost;
    ``signatures``: each metric's signature; ``n_rows``; ``output``: the file the rows were written to (or
    None). The per-row table (``row``, the id columns, then per metric ``<m>`` (0-1, null unless ok),
    ``<m>.status``, ``<m>.reason``, ``<m>.cause``) is :meth:`to_arrow`, :meth:`to_pandas`, :meth:`to_polars`."""

    def __init__(self, *, summary: Mapping[str, MetricSummary], failures: list[dict[str, Any]],
                 worst: Mapping[str, list[int]], usage: Mapping[str, Any], signatures: Mapping[str, str],
                 n_rows: int, output: pathlib.Path | None, table: Any = None) -> None:  # fmt: skip
        self.summary = dict(summary)
        self.failures = failures
        self.worst = dict(worst)
        self.usage = dict(usage)
        self.signatures = dict(signatures)
        self.n_rows = n_rows
        self.output = output
        self._table = table

    def to_arrow(self) -> Any:
        """The per-row table as a pyarrow Table (read from ``output`` when the rows were streamed there)."""
        if self._table is not None:
            return self._table
        from .store import read_table

        assert self.output is not None
        return read_table(self.output)

    def to_pandas(self) -> Any:
        return self.to_arrow().to_pandas()

    def to_polars(self) -> Any:
        import polars as pl

        return pl.from_arrow(self.to_arrow())

    def metadata(self) -> dict[str, Any]:
        """Everything but the rows, as JSON-ready data (what :meth:`save` stores beside them)."""
        return {"n_rows": self.n_rows, "summary": {m: asdict(s) for m, s in self.summary.items()},
                "failures": self.failures, "worst": self.worst, "usage": self.usage,
                "signatures": self.signatures}  # fmt: skip

    def save(self, path: str | pathlib.Path) -> pathlib.Path:
        """Write the rows to ``path`` (``.parquet`` or ``.jsonl``) with the summary: in the Parquet file's
        metadata, or beside a JSON Lines file as ``<path>.summary.json``."""
        from .store import write_table

        return write_table(pathlib.Path(path), self.to_arrow(), self.metadata())

    @classmethod
    def load(cls, path: str | pathlib.Path) -> EvaluationResult:
        """A saved (or streamed) result: the rows stay in the file until asked for."""
        from .store import read_metadata

        path = pathlib.Path(path)
        meta = read_metadata(path)
        summary = {m: MetricSummary(**s) for m, s in meta["summary"].items()}
        return cls(summary=summary, failures=meta["failures"], worst=meta["worst"], usage=meta["usage"],
                   signatures=meta["signatures"], n_rows=meta["n_rows"], output=path)  # fmt: skip

    def table(self) -> str:
        """The summary as a text table, one line per metric."""
        head = f"{'metric':<24} {'mean':>7} {'95% CI':>17} {'ok':>9} {'n/a':>7} {'error':>7}"
        lines = [head, "-" * len(head)]
        for s in self.summary.values():
            arrow = "" if s.higher_is_better else " (lower is better)"
            mean = "-" if s.mean is None else f"{s.mean:.4f}"
            ci = "-" if s.ci_low is None else f"[{s.ci_low:.4f}, {s.ci_high:.4f}]"
            lines.append(f"{s.metric:<24} {mean:>7} {ci:>17} {s.n_ok:>9} {s.n_not_applicable:>7} "
                         f"{s.n_error:>7}{arrow}")  # fmt: skip
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"EvaluationResult({self.n_rows} rows, metrics {list(self.summary)})"
