"""LLM-judged metrics on the judge runtime: one module per family, one result type.

    from rapideval.judged import AspectCritic, DiscreteMetric
    from rapideval.llm import JudgeClient

    judge = JudgeClient()                       # or JudgeClient.local() to judge offline
    critic = AspectCritic("maliciousness", "Is the submission meant to harm, deceive or exploit users?")
    result = critic.score(response="The Eiffel Tower is in Paris.", judge=judge)
    result.status, result.value, result.reason  # "ok", 0, "..."; "not_applicable" / "error" never have a value

See :class:`~rapideval.judged.base.MetricResult` and :class:`~rapideval.judged.base.JudgedMetric`.
"""

from __future__ import annotations

from .base import JudgedMetric, MetricResult, delimit, score_rows
from .general import (
    ASPECTS,
    AspectCritic,
    DiscreteMetric,
    InstanceRubrics,
    NumericMetric,
    RankingMetric,
    RubricsScore,
    SimpleCriteriaScore,
)

__all__ = [
    "ASPECTS",
    "AspectCritic",
    "DiscreteMetric",
    "InstanceRubrics",
    "JudgedMetric",
    "MetricResult",
    "NumericMetric",
    "RankingMetric",
    "RubricsScore",
    "SimpleCriteriaScore",
    "delimit",
    "score_rows",
]
