"""Ragas's calling conventions on rapideval's metrics (``llm=``, ``single_turn_ascore``,
``multi_turn_ascore``, ``ascore(..., llm=)``) and :class:`MetricError`, where Ragas would give NaN."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...judged import base as _base
from ...judged.base import SampleMetric
from ...llm import Budget, JudgeClient
from ...llm.sync import run_sync
from ._result import MetricResult
from .dataset_schema import MultiTurnSample, SingleTurnSample

__all__ = ["MetricError", "MetricResult", "RagasMetric", "check_embeddings"]


def check_embeddings(embeddings: Any) -> None:
    """Ragas's ``embeddings=``: None or a JudgeClient, which embeds through its endpoint."""
    if embeddings is not None and not isinstance(embeddings, JudgeClient):
        raise TypeError(
            f"embeddings must be a JudgeClient (llm_factory(...) with embedding_model=...), got "
            f"{type(embeddings).__name__}: rapideval embeds through a judge's endpoint"
        )


class MetricError(ValueError):
    """A row without a value: nothing to judge (``not_applicable``) or the judge failed (``error``); Ragas
    would give NaN. ``result`` is the :class:`~rapideval.judged.MetricResult` with the reason and cause."""

    def __init__(self, result: _base.MetricResult) -> None:
        cause = f" ({result.cause})" if result.cause else ""
        super().__init__(f"{result.metric}: {result.status}{cause}: {result.reason}")
        self.result = result


class RagasMetric(SampleMetric):
    """Ragas's calling conventions on a judged metric: ``llm`` is the judge."""

    @property
    def llm(self) -> JudgeClient | None:
        """Ragas's ``metric.llm``: the judge (settable, as ``harmfulness.llm = evaluator_llm``)."""
        return self.judge

    @llm.setter
    def llm(self, judge: JudgeClient | None) -> None:
        if judge is not None and not isinstance(judge, JudgeClient):
            raise TypeError(f"{self.name}: llm must be a JudgeClient (llm_factory(...)), got {type(judge).__name__}")
        self.judge = judge

    @property
    def embeddings(self) -> JudgeClient | None:
        """Ragas's ``metric.embeddings``: the client the metric embeds through (None: its judge)."""
        return self.embedder

    @embeddings.setter
    def embeddings(self, embedder: JudgeClient | None) -> None:
        check_embeddings(embedder)
        self.embedder = embedder

    async def ascore(
        self, *, llm: JudgeClient | None = None, judge: JudgeClient | None = None, **fields: Any
    ) -> MetricResult:
        """Ragas collections ``await metric.ascore(response=..., llm=llm)``: a Ragas ``MetricResult``
        (``.value``, ``.reason``, compares and converts as its value), also rapideval's result (``.status``:
        ``value`` is None unless it is ``"ok"``). Without any llm, Ragas's default: a judge from the
        environment (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``RAPIDEVAL_JUDGE_MODEL``), opened for this call."""
        chosen = llm or judge or self.judge
        if chosen is None and self.uses_judge:
            async with JudgeClient() as default:
                return MetricResult.of(await super().ascore(judge=default, **fields))
        return MetricResult.of(await super().ascore(judge=chosen, **fields))

    def score(self, *, llm: JudgeClient | None = None, judge: JudgeClient | None = None, **fields: Any) -> MetricResult:
        """Sync :meth:`ascore`; also inside a running event loop."""
        chosen = llm or judge or self.judge
        scored = run_sync(lambda: self.ascore(judge=chosen, **fields), chosen, self.embedder)
        return scored

    async def abatch_score(
        self,
        rows: Iterable[Mapping[str, Any]],
        *,
        llm: JudgeClient | None = None,
        judge: JudgeClient | None = None,
        budget: Budget | None = None,
    ) -> list[Any]:  # each a MetricResult of this module (list is invariant)
        """Ragas collections ``await metric.abatch_score([{...}, ...])``: a ``MetricResult`` per row, in order;
        a malformed row is an ``error`` result (cause ``invalid_input``), not an exception. Without any llm, a
        judge from the environment, as :meth:`ascore`."""
        items, chosen = list(rows), llm or judge or self.judge
        if chosen is None and self.uses_judge:
            async with JudgeClient() as default:
                return [MetricResult.of(r) for r in await super().abatch_score(items, judge=default, budget=budget)]
        return [MetricResult.of(r) for r in await super().abatch_score(items, judge=chosen, budget=budget)]

    def batch_score(
        self,
        rows: Iterable[Mapping[str, Any]],
        *,
        llm: JudgeClient | None = None,
        judge: JudgeClient | None = None,
        budget: Budget | None = None,
    ) -> list[Any]:  # each a MetricResult of this module (list is invariant)
        """Sync :meth:`abatch_score`; also inside a running event loop."""
        items, chosen = list(rows), llm or judge or self.judge
        scored = run_sync(lambda: self.abatch_score(items, judge=chosen, budget=budget), chosen, self.embedder)
        return scored

    async def single_turn_ascore(self, sample: SingleTurnSample, callbacks: Any = None, timeout: Any = None) -> Any:
        """Ragas legacy ``await metric.single_turn_ascore(sample)``: the value, or :class:`MetricError`."""
        if not isinstance(sample, SingleTurnSample):
            raise TypeError(f"{self.name}: expected a SingleTurnSample, got {type(sample).__name__}")
        return _value(await self.ascore(**sample._fields()))

    def single_turn_score(self, sample: SingleTurnSample, callbacks: Any = None, timeout: Any = None) -> Any:
        return run_sync(lambda: self.single_turn_ascore(sample), self.judge, self.embedder)

    async def multi_turn_ascore(self, sample: MultiTurnSample, callbacks: Any = None, timeout: Any = None) -> Any:
        """Ragas legacy ``await metric.multi_turn_ascore(sample)``: the value, or :class:`MetricError`."""
        if not isinstance(sample, MultiTurnSample):
            raise TypeError(f"{self.name}: expected a MultiTurnSample, got {type(sample).__name__}")
        return _value(await self.ascore(**sample._fields()))

    def multi_turn_score(self, sample: MultiTurnSample, callbacks: Any = None, timeout: Any = None) -> Any:
        return run_sync(lambda: self.multi_turn_ascore(sample), self.judge, self.embedder)

    # Ragas's legacy metrics score through these (``metric._single_turn_ascore(sample, callbacks)``), and code
    # written against them calls them too.
    async def _single_turn_ascore(self, sample: SingleTurnSample, callbacks: Any = None) -> Any:
        return await self.single_turn_ascore(sample)

    async def _multi_turn_ascore(self, sample: MultiTurnSample, callbacks: Any = None) -> Any:
        return await self.multi_turn_ascore(sample)


def _value(result: MetricResult) -> Any:
    if result.status != "ok":
        raise MetricError(result)
    return result.value
