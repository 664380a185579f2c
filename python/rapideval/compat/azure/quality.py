"""azure-ai-evaluation 1.18.10's LLM-judged quality evaluators: ``CoherenceEvaluator``, ``FluencyEvaluator``,
``GroundednessEvaluator``, ``RelevanceEvaluator``, ``SimilarityEvaluator``, with azure's constructors
(``model_config``, ``threshold=3``, ``credential`` ignored), call keywords (``query``, ``response``,
``context``, ``ground_truth``) and result keys, on the metrics of :mod:`rapideval.judged.quality` through the
promptflow evaluators' machinery (:mod:`rapideval.compat.promptflow.evaluators.quality`).

Result (azure's ``PromptyEvaluationStrategy.format_result``): ``{k: float, k_score: float, k_passed: bool,
k_result: "pass"|"fail", k_reason: str, k_status: "completed", k_threshold, k_properties: {prompt_tokens,
completion_tokens, total_tokens, finish_reason, model, sample_input, sample_output}}``; pass when
``score >= threshold``. azure 1.18.10 no longer adds the ``gpt_<k>`` aliases to these. Where azure gives NaN
(no score in the reply) or a score it never range-checks (a 9), a call raises
:class:`~rapideval.compat.promptflow.base.EvaluatorError` and ``rapideval_batch`` gives the row an
exception item.

Coherence, Fluency, Groundedness and Relevance also take ``conversation={"messages": [...], "context": ...}``
instead of the single-turn keywords (:class:`~._conversation.AzureConversation`): one request per turn and
azure's per-turn mean (``<k>_passed`` becomes the share of turns passed, the texts are the last turn's),
with ``evaluation_per_turn``; ``eval_last_turn=True`` judges the last turn only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from ...judged.base import MetricResult
from ...judged.quality import Coherence, Fluency, Groundedness, Relevance, Similarity
from ..promptflow.evaluators.quality import JudgedQualityEvaluator
from ._conversation import AzureConversation
from ._schema import passed, token_metadata, verdict

__all__ = [
    "CoherenceEvaluator",
    "FluencyEvaluator",
    "GroundednessEvaluator",
    "RelevanceEvaluator",
    "SimilarityEvaluator",
]


class _AzureQuality(JudgedQualityEvaluator):
    """A promptflow quality evaluator under azure's constructor, keywords and result keys."""

    def __init__(
        self, model_config: Any = None, *, threshold: float = 3, credential: Any = None, eval_last_turn: bool = False,
        **kwargs: Any
    ) -> None:  # fmt: skip
        super().__init__(model_config)
        self.eval_last_turn = eval_last_turn
        self._threshold = threshold
        self._higher_is_better = True
        self.credential = credential  # accepted for azure's signature; never used

    def fields(self, kwargs: Mapping[str, Any]) -> dict[str, Any]:
        out = super().fields(kwargs)
        if "query" in out:
            out["user_input"] = out.pop("query")
        return out

    def outputs(self, results: Sequence[MetricResult]) -> dict[str, Any]:
        (r,) = results
        score = float(r.value)
        ok = passed(score, self._threshold, self._higher_is_better)
        k = r.metric
        return {k: score, f"{k}_score": score, f"{k}_passed": ok, f"{k}_result": verdict(ok), f"{k}_reason": r.reason,
                f"{k}_status": "completed", f"{k}_threshold": self._threshold,
                f"{k}_properties": token_metadata(r, self.judge)}  # fmt: skip


class _AzureChatQuality(AzureConversation, _AzureQuality):
    """An azure quality evaluator that also takes ``conversation=``."""


class CoherenceEvaluator(_AzureChatQuality):
    """azure-ai-evaluation 1.18.10 ``CoherenceEvaluator(model_config, *, threshold=3, credential=None)``:
    :class:`~rapideval.judged.quality.Coherence` of ``response`` to ``query``, scale 1.0-5.0, pass when
    ``coherence >= threshold``. Keys ``coherence``, ``coherence_score``, ``coherence_passed``,
    ``coherence_result``, ``coherence_reason``, ``coherence_status``, ``coherence_threshold``,
    ``coherence_properties``. One judge request per row, or per turn of ``conversation=``."""

    METRICS = (Coherence,)

    def __call__(
        self, *, query: str | None = None, response: str | None = None, conversation: Any = None, **kwargs: Any
    ) -> dict[str, Any]:
        return super().__call__(query=query, response=response, conversation=conversation, **kwargs)


class FluencyEvaluator(_AzureChatQuality):
    """azure-ai-evaluation 1.18.10 ``FluencyEvaluator(model_config, *, credential=None, threshold=3)``:
    :class:`~rapideval.judged.quality.Fluency`, scale 1.0-5.0, pass when ``fluency >= threshold``. Keys
    ``fluency``, ``fluency_score``, ``fluency_passed``, ``fluency_result``, ``fluency_reason``,
    ``fluency_status``, ``fluency_threshold``, ``fluency_properties``. ``response`` alone is judged
    (``Fluency(with_user_input=False)``), as azure. One judge request per row, or per turn of
    ``conversation=``."""

    METRICS = (partial(Fluency, with_user_input=False),)

    def __call__(self, *, response: str | None = None, conversation: Any = None, **kwargs: Any) -> dict[str, Any]:
        return super().__call__(response=response, conversation=conversation, **kwargs)


class GroundednessEvaluator(_AzureChatQuality):
    """azure-ai-evaluation 1.18.10 ``GroundednessEvaluator(model_config, *, threshold=3, credential=None)``:
    :class:`~rapideval.judged.quality.Groundedness` of ``response`` in ``context`` (a str is one document;
    ``query`` optional and not shown to the judge), scale 1.0-5.0, pass when ``groundedness >= threshold``.
    Keys ``groundedness``, ``groundedness_score``, ``groundedness_passed``, ``groundedness_result``,
    ``groundedness_reason``, ``groundedness_status``, ``groundedness_threshold``, ``groundedness_properties``.
    One judge request per row, or per turn of ``conversation=`` (the turn's documents: the conversation's
    ``context``, the user message's and the assistant's)."""

    METRICS = (Groundedness,)

    def __call__(
        self, *, response: str | None = None, context: str | None = None, query: str | None = None,
        conversation: Any = None, **kwargs: Any
    ) -> dict[str, Any]:  # fmt: skip
        return super().__call__(response=response, context=context, query=query, conversation=conversation,
                                **kwargs)  # fmt: skip


class RelevanceEvaluator(_AzureChatQuality):
    """azure-ai-evaluation 1.18.10 ``RelevanceEvaluator(model_config, *, credential=None, threshold=3)``:
    :class:`~rapideval.judged.quality.Relevance`, scale 1.0-5.0, pass when ``relevance >= threshold``. Keys
    ``relevance``, ``relevance_score``, ``relevance_passed``, ``relevance_result``, ``relevance_reason``,
    ``relevance_status``, ``relevance_threshold``, ``relevance_properties``. ``query`` and ``response`` are
    judged without documents (``Relevance(with_retrieved_contexts=False)``), as azure. One judge request per
    row, or per turn of ``conversation=``."""

    METRICS = (partial(Relevance, with_retrieved_contexts=False),)

    def __call__(
        self, *, query: str | None = None, response: str | None = None, conversation: Any = None, **kwargs: Any
    ) -> dict[str, Any]:
        return super().__call__(query=query, response=response, conversation=conversation, **kwargs)


class SimilarityEvaluator(_AzureQuality):
    """azure-ai-evaluation 1.18.10 ``SimilarityEvaluator(model_config, *, threshold=3, credential=None)``:
    :class:`~rapideval.judged.quality.Similarity` of ``response`` to ``ground_truth`` for ``query``, scale
    1.0-5.0, pass when ``similarity >= threshold``. Keys ``similarity``, ``similarity_score``,
    ``similarity_passed``, ``similarity_result``, ``similarity_reason``, ``similarity_status``,
    ``similarity_threshold``, ``similarity_properties``. One judge request per row."""

    METRICS = (Similarity,)

    def __call__(  # type: ignore[override]
        self, *, query: str, response: str, ground_truth: str, **kwargs: Any
    ) -> dict[str, Any]:
        return super().__call__(query=query, response=response, ground_truth=ground_truth, **kwargs)
