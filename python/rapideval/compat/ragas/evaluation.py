"""Ragas 0.4.3 ``evaluate(dataset, metrics, llm=...)`` and its ``EvaluationResult``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...judged.base import MetricResult, SampleMetric, score_rows
from ...llm import JudgeClient
from ...llm.sync import run_sync
from ...sample import V1_NAMES
from ._metric import check_embeddings
from .dataset_schema import EvaluationDataset, lenient_dataset

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


def _as_dataset(dataset: Any, column_map: Mapping[str, str] | None) -> EvaluationDataset:
    """An EvaluationDataset as it is; a Hugging Face ``datasets.Dataset``, a pandas DataFrame or a list of
    dicts with v1 or v2 column names, renamed by ``column_map`` (Ragas's: field name, v2 or v1, -> the
    data's column)."""
    if isinstance(dataset, EvaluationDataset):
        return dataset
    if hasattr(dataset, "to_list"):  # datasets.Dataset
        rows = dataset.to_list()
    elif hasattr(dataset, "to_dict"):  # pandas.DataFrame
        rows = dataset.to_dict(orient="records")
    elif isinstance(dataset, Sequence) and not isinstance(dataset, (str, bytes)):
        rows = list(dataset)
    else:
        raise TypeError(f"evaluate: dataset must be an EvaluationDataset, a datasets.Dataset, a DataFrame or a "
                        f"list of dicts, got {type(dataset).__name__}")  # fmt: skip
    renames = {column: name for name, column in (column_map or {}).items()}
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise TypeError(f"evaluate: row {i}: expected a dict, got {type(row).__name__}")
        fields: dict[str, Any] = {}
        for key, value in row.items():
            column = str(renames.get(key, key))  # column_map's keys may be v2 or v1 names
            name = V1_NAMES.get(column, column)
            if column == "ground_truths" and isinstance(value, (list, tuple)):
                value = "\n".join(str(v) for v in value)
            fields.setdefault(name, value)
        out.append(fields)
    return lenient_dataset(out)


def evaluate(
    dataset: Any,
    metrics: Sequence[SampleMetric] | None = None,
    llm: JudgeClient | None = None,
    embeddings: Any = None,
    column_map: Mapping[str, str] | None = None,
    **options: Any,
) -> EvaluationResult:
    """Ragas 0.4.3 ``evaluate(dataset, metrics=None, llm=None, embeddings=None, column_map=None)``: every
        metric on every row through one judge (``llm``, else the first metric's own, else a judge from the
        environment as Ragas's default), rows in order. ``dataset`` is an EvaluationDataset, a
        ``datasets.Dataset``, a DataFrame or a list of dicts, with Ragas's v2 or v1 column names (``question,
        answer, contexts, ground_truth`` or ``ground_truths``, joined by newlines); ``metrics`` defaults to
        Ragas's ``[answer_relevancy, context_precision, faithfulness, context_recall]``. A bad or empty row is a
        status, never the end of the run. ``embeddings`` may be a JudgeClient: the metrics that embed and have
    no ``embeddings`` of their own embed through it (and it judges when no ``llm`` is given);
        Ragas's other options (``run_config``, ``batch_size``, ...) are accepted and unused: the judge's limits,
        retries and cache apply instead."""
    from .metrics import answer_relevancy, context_precision, context_recall, faithfulness

    data = _as_dataset(dataset, column_map)
    chosen = list(metrics) if metrics is not None else [answer_relevancy, context_precision, faithfulness,
                                                         context_recall]  # fmt: skip
    if not chosen or not all(isinstance(m, SampleMetric) for m in chosen):
        raise TypeError("evaluate: metrics must be a non-empty list of metrics")
    check_embeddings(embeddings)
    judge = llm or embeddings or next((m.judge for m in chosen if m.judge is not None), None)
    rows = [s._fields() for s in data]
    embedders = [m.embedder for m in chosen]
    names = [m.name for m in chosen]
    if judge is None and any(m.uses_judge for m in chosen):

        async def with_default() -> list[list[MetricResult]]:
            async with JudgeClient() as default:  # Ragas's default: OpenAI, configured by the environment
                return await score_rows(chosen, rows, judge=default, embedder=embeddings)

        return EvaluationResult(data, names, run_sync(with_default, embeddings, *embedders))
    clients = (judge, embeddings, *embedders)
    results = run_sync(lambda: score_rows(chosen, rows, judge=judge, embedder=embeddings), *clients)
    return EvaluationResult(data, names, results)
