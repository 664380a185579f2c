"""``ragas.metrics.collections``: the same classes as :mod:`rapideval.compat.ragas.metrics` (Ragas's
collections API takes ``llm=`` and ``await metric.ascore(**fields)`` as they do), and the names only the
collections API has, with its default metric names."""

from __future__ import annotations

from collections.abc import Mapping

from ....judged import general as _general
from ....llm import JudgeClient
from . import *  # noqa: F403
from . import InstanceRubrics, LLMContextPrecisionWithoutReference, LLMContextPrecisionWithReference, RubricsScore
from . import __all__ as _metrics_all

__all__ = [
    *_metrics_all,
    "ContextPrecisionWithReference",
    "ContextPrecisionWithoutReference",
    "DomainSpecificRubrics",
    "InstanceSpecificRubrics",
    "RubricsScoreWithReference",
    "RubricsScoreWithoutReference",
]


class ContextPrecisionWithReference(LLMContextPrecisionWithReference):
    """Ragas 0.4.3 collections ``ContextPrecisionWithReference(llm)``."""

    name = "context_precision_with_reference"


class ContextPrecisionWithoutReference(LLMContextPrecisionWithoutReference):
    """Ragas 0.4.3 collections ``ContextPrecisionWithoutReference(llm)``."""

    name = "context_precision_without_reference"


class InstanceSpecificRubrics(InstanceRubrics):
    """Ragas 0.4.3 collections ``InstanceSpecificRubrics(llm)``."""

    name = "instance_specific_rubrics"


class DomainSpecificRubrics(RubricsScore):
    """Ragas 0.4.3 collections ``DomainSpecificRubrics(llm, rubrics=None, with_reference=False)``: the
    reference is shown to the judge (and required) only with ``with_reference=True``."""

    def __init__(
        self,
        llm: JudgeClient | None = None,
        rubrics: Mapping[str, str] | None = None,
        with_reference: bool = False,
        name: str | None = None,
    ) -> None:
        _general.RubricsScore.__init__(self, rubrics, name, with_reference, judge=llm)


class RubricsScoreWithReference(DomainSpecificRubrics):
    """Ragas 0.4.3 collections ``RubricsScoreWithReference(llm, rubrics=None)``."""

    name = "rubrics_score_with_reference"

    def __init__(self, llm: JudgeClient | None = None, rubrics: Mapping[str, str] | None = None,
                 name: str | None = None) -> None:  # fmt: skip
        super().__init__(llm, rubrics, True, name)


class RubricsScoreWithoutReference(DomainSpecificRubrics):
    """Ragas 0.4.3 collections ``RubricsScoreWithoutReference(llm, rubrics=None)``."""

    name = "rubrics_score_without_reference"

    def __init__(self, llm: JudgeClient | None = None, rubrics: Mapping[str, str] | None = None,
                 name: str | None = None) -> None:  # fmt: skip
        super().__init__(llm, rubrics, False, name)
