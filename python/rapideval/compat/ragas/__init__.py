"""Drop-in for Ragas 0.4.3's metrics (general-purpose, RAG, non-LLM) and ``evaluate``: change ``ragas`` to
``rapideval.compat.ragas`` in the import lines and the examples run, judged by rapideval's metrics
(:mod:`rapideval.judged`) on its judge runtime.

    from rapideval.compat.ragas.dataset_schema import SingleTurnSample, MultiTurnSample, EvaluationDataset
    from rapideval.compat.ragas.messages import HumanMessage, AIMessage, ToolMessage, ToolCall
    from rapideval.compat.ragas.metrics import AspectCritic, DiscreteMetric, RubricsScore, InstanceRubrics
    from rapideval.compat.ragas.metrics import faithfulness, answer_relevancy, context_precision, context_recall
    from rapideval.compat.ragas.llms import llm_factory
    from rapideval.compat.ragas import evaluate

What differs on purpose: a row with nothing to judge or whose judge failed is never a NaN:
``single_turn_ascore`` / ``ascore`` raise :class:`MetricError` (its ``result`` says why), and
``evaluate`` leaves the row's score ``None`` and counts it apart; ``strictness`` really sends that many
votes. This module maps names and arguments only; the prompts and formulas are rapideval.judged's.
"""

from __future__ import annotations

from .dataset_schema import EvaluationDataset, MultiTurnSample, SingleTurnSample
from .evaluation import EvaluationResult, evaluate
from .metrics import MetricError

__all__ = ["EvaluationDataset", "EvaluationResult", "MetricError", "MultiTurnSample", "SingleTurnSample", "evaluate"]
