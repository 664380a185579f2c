"""promptflow-evals 0.3.5's LLM-judged quality evaluators: ``CoherenceEvaluator``, ``FluencyEvaluator``,
``GroundednessEvaluator``, ``RelevanceEvaluator``, ``SimilarityEvaluator``, the composites ``QAEvaluator`` and
``ChatEvaluator``, with promptflow's constructors, call keywords and output keys, on the metrics of
:mod:`rapideval.judged.quality` (the prompts and the per-conversation mean live there).

Scores are floats 1.0-5.0 as promptflow gives them. Where promptflow gives NaN (no digit in the judge's
reply) or a number it never checked (a 9), a call raises :class:`~..base.EvaluatorError`, and
``rapideval_batch`` gives that row an exception item while the other rows go on.
"""

from __future__ import annotations

import inspect
import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from ....judged.base import JudgedMetric, MetricResult, score_rows
from ....judged.quality import Coherence, Fluency, Groundedness, Relevance, Retrieval, Similarity, mean_over_turns
from ..base import EvaluatorError, JudgedEvaluator
from .lexical import F1ScoreEvaluator

__all__ = [
    "ChatEvaluator",
    "CoherenceEvaluator",
    "FluencyEvaluator",
    "GroundednessEvaluator",
    "QAEvaluator",
    "RelevanceEvaluator",
    "SimilarityEvaluator",
]

# promptflow's output key of each metric (by the metric's name).
_KEYS: Mapping[str, str] = {
    "coherence": "gpt_coherence",
    "fluency": "gpt_fluency",
    "groundedness": "gpt_groundedness",
    "relevance": "gpt_relevance",
    "similarity": "gpt_similarity",
    "retrieval": "gpt_retrieval",
}


def _text(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    return str(value) if isinstance(value, (int, float)) else value


class JudgedQualityEvaluator(JudgedEvaluator):
    """Metrics of :mod:`rapideval.judged.quality` (``METRICS``) under promptflow's keywords and keys. A row's
    fields come only from the keyword-only parameters of the subclass's ``__call__`` (``KEYWORDS``, the
    inputs promptflow's ``evaluate`` reads from a signature); other keywords are ignored, as promptflow's
    prompts ignore them. A number is judged as its text, as promptflow ``str()``s its inputs (a number column
    of a JSONL file, say), except a float NaN (pandas's missing value), which is missing."""

    # The metrics, each made with no arguments (a class, or a partial that fixes its options).
    METRICS: ClassVar[tuple[Callable[[], JudgedMetric], ...]]
    KEYWORDS: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        parameters = inspect.signature(cls.__call__).parameters.values()
        cls.KEYWORDS = tuple(p.name for p in parameters if p.kind is p.KEYWORD_ONLY)

    def __init__(self, model_config: Any = None) -> None:
        super().__init__(model_config)
        self.metrics = tuple(metric() for metric in self.METRICS)

    def fields(self, kwargs: Mapping[str, Any]) -> dict[str, Any]:
        return super().fields({k: _text(v) for k, v in kwargs.items() if k in self.KEYWORDS})

    def outputs(self, results: Sequence[MetricResult]) -> dict[str, Any]:
        return {_KEYS[r.metric]: float(r.value) for r in results}


class CoherenceEvaluator(JudgedQualityEvaluator):
    """promptflow-evals 0.3.5 ``CoherenceEvaluator(model_config)``: ``{"gpt_coherence": float}``, 1.0-5.0, from
    :class:`~rapideval.judged.quality.Coherence` on ``question`` and ``answer``. One request per row."""

    METRICS = (Coherence,)

    def __call__(self, *, question: str, answer: str, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        return super().__call__(question=question, answer=answer, **kwargs)


class FluencyEvaluator(JudgedQualityEvaluator):
    """promptflow-evals 0.3.5 ``FluencyEvaluator(model_config)``: ``{"gpt_fluency": float}``, 1.0-5.0, from
    :class:`~rapideval.judged.quality.Fluency` on ``question`` and ``answer``. One request per row."""

    METRICS = (Fluency,)

    def __call__(self, *, question: str, answer: str, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        return super().__call__(question=question, answer=answer, **kwargs)


class GroundednessEvaluator(JudgedQualityEvaluator):
    """promptflow-evals 0.3.5 ``GroundednessEvaluator(model_config)``: ``{"gpt_groundedness": float}``,
    1.0-5.0, from :class:`~rapideval.judged.quality.Groundedness` on ``answer`` and ``context`` (a str is
    one document). One request per row."""

    METRICS = (Groundedness,)

    def __call__(self, *, answer: str, context: str, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        return super().__call__(answer=answer, context=context, **kwargs)


class RelevanceEvaluator(JudgedQualityEvaluator):
    """promptflow-evals 0.3.5 ``RelevanceEvaluator(model_config)``: ``{"gpt_relevance": float}``, 1.0-5.0,
    from :class:`~rapideval.judged.quality.Relevance` on ``question``, ``answer`` and ``context``. One request
    per row."""

    METRICS = (Relevance,)

    def __call__(  # type: ignore[override]
        self, *, question: str, answer: str, context: str, **kwargs: Any
    ) -> dict[str, Any]:
        return super().__call__(question=question, answer=answer, context=context, **kwargs)


class SimilarityEvaluator(JudgedQualityEvaluator):
    """promptflow-evals 0.3.5 ``SimilarityEvaluator(model_config)``: ``{"gpt_similarity": float}``, 1.0-5.0,
    from :class:`~rapideval.judged.quality.Similarity` on ``question``, ``answer`` and ``ground_truth``. One
    request per row."""

    METRICS = (Similarity,)

    def __call__(  # type: ignore[override]
        self, *, question: str, answer: str, ground_truth: str, **kwargs: Any
    ) -> dict[str, Any]:
        return super().__call__(question=question, answer=answer, ground_truth=ground_truth, **kwargs)


class QAEvaluator(JudgedQualityEvaluator):
    """promptflow-evals 0.3.5 ``QAEvaluator(model_config, parallel=True)``: ``gpt_groundedness``,
    ``gpt_relevance``, ``gpt_coherence``, ``gpt_fluency``, ``gpt_similarity`` (floats 1.0-5.0) and the
    deterministic ``f1_score`` of :class:`~.lexical.F1ScoreEvaluator`, on ``question``, ``answer``,
    ``context`` and ``ground_truth``. Five requests per row, all rows' in one run of the judge. A row any
    metric fails on raises :class:`EvaluatorError`; F1's own errors (a ``"None"`` text, a non-str) are
    raised as promptflow raises them. ``parallel`` is accepted for promptflow's signature: every request runs
    concurrently anyway."""

    METRICS = (Groundedness, Relevance, Coherence, Fluency, Similarity)

    def __init__(self, model_config: Any = None, parallel: bool = True) -> None:
        super().__init__(model_config)
        self._f1 = F1ScoreEvaluator()

    def __call__(  # type: ignore[override]
        self, *, question: str, answer: str, context: str, ground_truth: str, **kwargs: Any
    ) -> dict[str, Any]:
        return super().__call__(question=question, answer=answer, context=context, ground_truth=ground_truth,
                                **kwargs)  # fmt: skip

    async def _ascore(self, rows: Sequence[Mapping[str, Any]], strict: bool) -> list[dict[str, Any] | Exception]:
        scored = await super()._ascore(rows, strict)
        # F1 on the rows the judge scored (they have both texts), in one call of its kernel.
        done = [(i, r) for i, r in enumerate(scored) if not isinstance(r, Exception)]
        texts = [{"answer": rows[i]["answer"], "ground_truth": rows[i]["ground_truth"]} for i, _ in done]
        for (i, judged), f1 in zip(done, self._f1.rapideval_batch(texts), strict=True):
            scored[i] = f1 if isinstance(f1, Exception) else {**judged, **f1}
        return scored


def _check_conversation(conversation: Any) -> None:
    """promptflow's ``ChatEvaluator`` rules, as ValueError naming the turn: a non-empty list of dicts with
    ``role`` and a str ``content``, user and assistant in turn from a user, ending with an assistant; an
    assistant's optional ``context`` a dict with a ``citations`` list of dicts."""
    if not isinstance(conversation, list) or not conversation:
        raise ValueError("'conversation' must be a non-empty list of dictionaries.")
    for n, turn in enumerate(conversation, 1):
        expected = "user" if n % 2 else "assistant"
        if not isinstance(turn, dict) or "role" not in turn or "content" not in turn:
            raise ValueError(f"Each turn in 'conversation' must be a dictionary with 'role' and 'content' keys. "
                             f"Turn number: {n}")  # fmt: skip
        if turn["role"] != expected:
            raise ValueError(f"Expected role {expected} but got {turn['role']}. Turn number: {n}")
        if not isinstance(turn["content"], str):
            raise ValueError(f"Content in each turn must be a string. Turn number: {n}")
        if expected == "assistant" and "context" in turn:
            context = turn["context"]
            citations = context.get("citations") if isinstance(context, dict) else None
            if not isinstance(citations, list) or not all(isinstance(c, dict) for c in citations):
                raise ValueError(f"Context in each assistant's turn must be a dictionary with a 'citations' list "
                                 f"of dictionaries. Turn number: {n}")  # fmt: skip
    if len(conversation) % 2:
        raise ValueError("The conversation must end with an assistant's turn.")


class ChatEvaluator(JudgedEvaluator):
    """promptflow-evals 0.3.5 ``ChatEvaluator(model_config, eval_last_turn=False, parallel=True)`` on
    ``conversation=[{"role": "user", "content": ...}, {"role": "assistant", "content": ..., "context":
    {"citations": [{"id": ..., "content": ...}]}}, ...]``.

    Each turn (a question and its answer; with ``eval_last_turn`` the last one only) is judged for
    coherence and fluency (:mod:`rapideval.judged.quality`, the question and answer alone, as promptflow)
    and, where every assistant turn has ``context.citations`` (as promptflow decides), for groundedness and
    relevance (the citations as documents, one each, as JSON) and retrieval (the conversation up to the
    question and the citations; the turn's answer is not shown, as the documents are judged for the
    question). Requests: at most 5 per turn (2 without citations), every turn and conversation of a call or
    a batch in one run of the judge.

    Output, as promptflow's: ``gpt_coherence``, ``gpt_fluency`` (and ``gpt_groundedness``,
    ``gpt_relevance``, ``gpt_retrieval``) the mean over the turns (:func:`~rapideval.judged.quality.
    mean_over_turns`), and ``evaluation_per_turn`` = ``{key: {"score": [one float per turn]}}``. A turn a
    metric fails on (the judge failed, an invalid verdict, nothing to judge such as an empty answer or
    citation list) keeps its place in the list as None, where promptflow drops it, and is left out of the
    mean, where promptflow leaves out its NaN; the other turns keep their scores. A metric no turn scored
    raises :class:`EvaluatorError` carrying every turn's result. A malformed conversation raises
    promptflow's ValueError. ``parallel`` is accepted for promptflow's signature: every request runs
    concurrently anyway."""

    # The positions in ``metrics`` run on a turn without citations, on one with them, and on its history.
    PLAIN, RAG, HISTORY = (0, 1), (0, 1, 2, 3), (4,)

    def __init__(self, model_config: Any = None, eval_last_turn: bool = False, parallel: bool = True) -> None:
        super().__init__(model_config)
        self.eval_last_turn = eval_last_turn
        self.metrics = (Coherence(), Fluency(), Groundedness(), Relevance(), Retrieval())

    def __call__(  # type: ignore[override]
        self, *, conversation: list[dict[str, Any]], **kwargs: Any
    ) -> dict[str, Any]:
        return super().__call__(conversation=conversation)

    def _turns(self, conversation: Any) -> list[tuple[int, dict[str, Any], tuple[int, ...]]]:
        """The per-turn rows of a conversation: (turn, fields, the positions in ``metrics`` to run on them)."""
        _check_conversation(conversation)
        chosen = conversation[-2:] if self.eval_last_turn else conversation
        rag = all("context" in m for m in chosen[1::2])
        rows: list[tuple[int, dict[str, Any], tuple[int, ...]]] = []
        for turn, t in enumerate(range(0, len(chosen), 2)):
            question, answer = chosen[t]["content"], chosen[t + 1]["content"]
            if not rag:
                rows.append((turn, {"user_input": question, "response": answer}, self.PLAIN))
                continue
            documents = [json.dumps(c, ensure_ascii=False) for c in chosen[t + 1]["context"]["citations"]]
            history = [{"role": m["role"], "content": m["content"]} for m in chosen[: t + 1]]
            rows.append((turn, {"user_input": question, "response": answer, "retrieved_contexts": documents},
                         self.RAG))  # fmt: skip
            rows.append((turn, {"user_input": history, "retrieved_contexts": documents}, self.HISTORY))
        return rows

    def _output(self, results: Sequence[MetricResult]) -> dict[str, Any] | EvaluatorError:
        """promptflow's output of one conversation from its turns' results (in turn order)."""
        by_metric: dict[str, list[MetricResult]] = {}
        for r in results:
            by_metric.setdefault(r.metric, []).append(r)
        means = {name: mean_over_turns(turns) for name, turns in by_metric.items()}
        if any(mean is None for mean in means.values()):
            return EvaluatorError(type(self).__name__, results)
        per_turn = {_KEYS[name]: {"score": [float(r.value) if r.status == "ok" else None for r in turns]}
                    for name, turns in by_metric.items()}  # fmt: skip
        return dict(sorted({**{_KEYS[n]: m for n, m in means.items()}, "evaluation_per_turn": per_turn}.items()))

    async def _ascore(self, rows: Sequence[Mapping[str, Any]], strict: bool) -> list[dict[str, Any] | Exception]:
        malformed: dict[int, Exception] = {}
        items: list[dict[str, Any]] = []
        select: list[tuple[int, ...]] = []
        ids: list[tuple[int, int]] = []  # (conversation, turn) of each per-turn row
        for c, row in enumerate(rows):
            try:
                turns = self._turns(row.get("conversation"))
            except (TypeError, ValueError) as e:  # json.dumps raises TypeError for a citation it cannot write
                malformed[c] = e
                continue
            for turn, fields, metrics in turns:
                ids.append((c, turn))
                items.append(fields)
                select.append(metrics)
        scored = await score_rows(self.metrics, items, judge=self.judge, ids=ids, strict=strict, select=select)
        grouped: dict[int, list[MetricResult]] = {}
        for (c, _), results in zip(ids, scored, strict=True):
            grouped.setdefault(c, []).extend(results)
        return [malformed[c] if c in malformed else self._output(grouped[c]) for c in range(len(rows))]
