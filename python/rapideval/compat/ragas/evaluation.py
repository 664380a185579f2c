"""Ragas 0.4.3 ``evaluate(dataset, metrics, llm=...)`` and its ``EvaluationResult``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...judged.base import JudgedMetric, MetricResult, run_sync, score_rows
from ...llm import JudgeClient
from .dataset_schema import EvaluationDataset

__all__ = ["EvaluationResult", "evaluate"]


class EvaluationResult:
    """Ragas 0.4.3 ``EvaluationResult``: prints as ``{'instance_rubrics': 0.5000}`` (the mean of the ``ok``
    rows); ``scores`` is a list of per-row dicts (``None`` where a row has no value), ``to_pandas()`` the
    inputs and scores, ``result[name]`` one metric's values. ``results`` keeps every row's
    :class:`~rapideval.judged.MetricResult` (status, reason, cause, usage); ``counts()`` the statuses."""

    def __init__(self, dataset: EvaluationDataset, names: Sequence[str], results: list[list[MetricResult]]) -> None:
        self.dataset = dataset
        self.names = list(names)
        self.results = results
        self.scores = [{n: r.value for n, r in zip(self.names, row, strict=True)} for row in results]

    def __getitem__(self, name: str) -> list[Any]:
        return [row[name] for row in self.scores]

    def means(self) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        for j, name in enumerate(self.names):
            values = [float(row[j].value) for row in self.results if row[j].status == "ok"]
            out[name] = sum(values) / len(values) if values else None
        return out

    def counts(self) -> dict[str, dict[str, int]]:
        """``{metric: {"ok": n, "not_applicable": n, "error": n}}``."""
        out = {name: {"ok": 0, "not_applicable": 0, "error": 0} for name in self.names}
        for row in self.results:
            for name, r in zip(self.names, row, strict=True):
                out[name][r.status] += 1
        return out

    def __repr__(self) -> str:
        parts = [f"{name!r}: {'None' if m is None else f'{m:.4f}'}" for name, m in self.means().items()]
        return "{" + ", ".join(parts) + "}"

    def to_pandas(self) -> Any:
        frame = self.dataset.to_pandas()
        for name in self.names:
            frame[name] = self[name]
        return frame


def evaluate(
    dataset: EvaluationDataset, metrics: Sequence[JudgedMetric], llm: JudgeClient | None = None, **options: Any
) -> EvaluationResult:
    """Ragas 0.4.3 ``evaluate(dataset, metrics, llm=...)``: every metric on every row through one judge run
    (``llm``, else the first metric's own), rows in order. A bad or empty row is a status, never the end of
    the run. Ragas's other options (``run_config``, ``batch_size``, ...) are accepted and unused: the judge's
    limits, retries and cache apply instead."""
    if not isinstance(dataset, EvaluationDataset):
        raise TypeError(f"evaluate: dataset must be an EvaluationDataset, got {type(dataset).__name__}")
    if not metrics or not all(isinstance(m, JudgedMetric) for m in metrics):
        raise TypeError("evaluate: metrics must be a non-empty list of metrics")
    judge = llm or next((m.judge for m in metrics if m.judge is not None), None)
    if judge is None and any(m.uses_judge for m in metrics):
        raise ValueError("evaluate: no judge: pass llm=llm_factory(...) or give the metrics an llm")
    rows = [s.to_dict() for s in dataset]
    results = run_sync(lambda: score_rows(list(metrics), rows, judge=judge), judge)
    return EvaluationResult(dataset, [m.name for m in metrics], results)
