"""promptflow's calling convention on rapideval's judged metrics: an evaluator object called with keywords
(``evaluator(question=..., answer=...)``) returning a dict of output keys, and the batch method
``rapideval_batch`` by which :func:`rapideval.compat.promptflow.evaluate.evaluate` scores all rows in one
run of the judge."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...judged.base import MetricResult, SampleMetric, score_rows
from ...llm.sync import run_sync
from ...sample import V1_NAMES
from ._model_config import judge_for

__all__ = ["EvaluatorError", "JudgedEvaluator"]

# promptflow's call keywords (Ragas's v1 names) -> rapideval's field names.
FIELDS = {k: V1_NAMES[k] for k in ("question", "answer", "ground_truth")}


class EvaluatorError(ValueError):
    """A row an evaluator could not score, where promptflow gives NaN (or raises): nothing to judge
    (``not_applicable``) or the judge failed (``error``). ``results`` are the rows'
    :class:`~rapideval.judged.MetricResult` s, each with its status, reason and cause."""

    def __init__(self, evaluator: str, results: Sequence[MetricResult]) -> None:
        failed = [r for r in results if r.status != "ok"]
        parts = [f"{r.metric}: {r.status}{f' ({r.cause})' if r.cause else ''}: {r.reason}" for r in failed]
        super().__init__(f"{evaluator}: " + "; ".join(parts))
        self.results = list(results)


class JudgedEvaluator:
    """Base of the promptflow evaluators on judged metrics. A subclass sets ``metrics`` (built with no judge:
    the evaluator's judge is passed at each call) in its constructor and implements :meth:`outputs`;
    :meth:`fields` maps its call keywords to rapideval's fields (``question`` -> ``user_input``, ``answer``
    -> ``response``, ``ground_truth`` -> ``reference``, ``context`` -> ``retrieved_contexts`` as one
    context). ``model_config`` picks the judge (see :func:`~._model_config.judge_for`)."""

    metrics: Sequence[SampleMetric] = ()

    def __init__(self, model_config: Any = None) -> None:
        self.judge = judge_for(model_config, type(self).__name__)

    def fields(self, kwargs: Mapping[str, Any]) -> dict[str, Any]:
        """The row's fields from the call's keywords (a ``str`` context is one retrieved context)."""
        out: dict[str, Any] = {}
        for key, value in kwargs.items():
            if key == "context":
                out["retrieved_contexts"] = [value] if isinstance(value, str) else value
            else:
                out[FIELDS.get(key, key)] = value
        return out

    def outputs(self, results: Sequence[MetricResult]) -> dict[str, Any]:
        """promptflow's output dict from the ``ok`` results of one row (one per metric, in order)."""
        raise NotImplementedError

    def _fields(self, kwargs: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The rows of fields to score for one call's keywords (one, or a conversation's turns); a
        ValueError or TypeError for keywords that cannot be judged at all."""
        return [self.fields(kwargs)]

    def _combine(self, results: Sequence[Sequence[MetricResult]]) -> dict[str, Any] | EvaluatorError:
        """One call's output from the results of its rows of fields (one list of results per row)."""
        flat = [r for row in results for r in row]
        if any(r.status != "ok" for r in flat):
            return EvaluatorError(type(self).__name__, flat)
        return self.outputs(flat)

    async def _ascore(self, calls: Sequence[Mapping[str, Any]], strict: bool) -> list[dict[str, Any] | Exception]:
        """Every call's rows of fields in one run of the judge; with ``strict`` a call that cannot be judged
        raises, otherwise its item is the exception."""
        items: list[dict[str, Any]] = []
        spans: list[tuple[int, int] | Exception] = []
        for kwargs in calls:
            try:
                if not isinstance(kwargs, Mapping):
                    raise TypeError(f"{type(self).__name__}: a row is a dict of keywords, got {type(kwargs).__name__}")
                rows = self._fields(kwargs)
            except (TypeError, ValueError) as e:
                if strict:
                    raise
                spans.append(e)
                continue
            spans.append((len(items), len(items) + len(rows)))
            items.extend(rows)
        scored = await score_rows(self.metrics, items, judge=self.judge, strict=strict) if items else []
        return [span if isinstance(span, Exception) else self._combine(scored[span[0] : span[1]]) for span in spans]

    def __call__(self, **kwargs: Any) -> dict[str, Any]:
        """Score one row: promptflow's output dict, or :class:`EvaluatorError` where promptflow gives NaN
        (another exception where the row is malformed, as promptflow's ValueError). A keyword of the wrong
        type raises TypeError naming it. Works inside a running event loop too."""
        (row,) = run_sync(lambda: self._ascore([kwargs], strict=True), self.judge)
        if isinstance(row, Exception):
            raise row
        result: dict[str, Any] = row
        return result

    def rapideval_batch(self, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any] | Exception]:
        """Every row (its call keywords) in one run of the judge (the batch hook of ``evaluate`` and of the
        azure facade, which shares this base): an output dict per row, or the row's
        :class:`EvaluatorError` (a malformed row's result has cause ``invalid_input``)."""
        return run_sync(lambda: self._ascore(rows, strict=False), self.judge)
