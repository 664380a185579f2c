"""Ragas 0.4.3's deterministic metrics with Ragas's constructors and calls (``single_turn_ascore(sample)``,
``ascore(reference=..., response=...)``), on :mod:`rapideval.judged.nonllm`: ``ExactMatch``,
``StringPresence``, ``NonLLMStringSimilarity``, ``DistanceMeasure``, ``BleuScore``, ``RougeScore``,
``ChrfScore`` (collections' ``CHRFScore``), ``NonLLMContextPrecisionWithReference``,
``NonLLMContextRecall``, ``IDBasedContextPrecision`` and ``IDBasedContextRecall``.

The constructors take Ragas's arguments (the fields of its legacy dataclasses, in the order of its
collections classes; ``kwargs`` of BleuScore and ChrfScore are sacrebleu's ``corpus_bleu`` /
``corpus_chrf`` keywords). None needs an llm, and ``evaluate`` runs them without one. Where the numbers
differ from Ragas's on purpose (BleuScore scores the whole text unless ``ragas_compatible=True``; empty
texts, context lists and ID lists are not applicable, so ``single_turn_ascore`` raises
:class:`MetricError` where Ragas gives NaN, 0.0 or raises), see :mod:`rapideval.judged.nonllm`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from ....judged import nonllm as _nonllm
from ....judged.nonllm import DistanceMeasure
from .._metric import MetricError, RagasMetric

__all__ = [
    "BleuScore",
    "CHRFScore",
    "ChrfScore",
    "DistanceMeasure",
    "ExactMatch",
    "IDBasedContextPrecision",
    "IDBasedContextRecall",
    "MetricError",
    "NonLLMContextPrecisionWithReference",
    "NonLLMContextRecall",
    "NonLLMStringSimilarity",
    "RougeScore",
    "StringPresence",
]


def _keywords(metric: str, kwargs: Mapping[str, Any] | None, allowed: tuple[str, ...]) -> dict[str, Any]:
    """Ragas's ``kwargs`` dict, checked against the sacrebleu function's keywords (Ragas fails at the first
    row with sacrebleu's TypeError; this fails when the metric is built)."""
    if kwargs is None:
        return {}
    if not isinstance(kwargs, Mapping):
        raise TypeError(f"{metric}: kwargs must be a dict, got {type(kwargs).__name__}")
    unknown = sorted(set(kwargs) - set(allowed))
    if unknown:
        raise TypeError(f"{metric}: unknown sacrebleu keywords {unknown}; expected some of {list(allowed)}")
    return dict(kwargs)


class ExactMatch(RagasMetric, _nonllm.ExactMatch):
    """Ragas 0.4.3 ``ExactMatch(name="exact_match")``; see :class:`rapideval.judged.nonllm.ExactMatch`."""

    def __init__(self, name: str = "exact_match") -> None:
        super().__init__(name)


class StringPresence(RagasMetric, _nonllm.StringPresence):
    """Ragas 0.4.3 ``StringPresence(name="string_present")``."""

    def __init__(self, name: str = "string_present") -> None:
        super().__init__(name)


class NonLLMStringSimilarity(RagasMetric, _nonllm.NonLLMStringSimilarity):
    """Ragas 0.4.3 ``NonLLMStringSimilarity(name="non_llm_string_similarity",
    distance_measure=DistanceMeasure.LEVENSHTEIN)``."""

    def __init__(
        self,
        name: str = "non_llm_string_similarity",
        distance_measure: DistanceMeasure = DistanceMeasure.LEVENSHTEIN,
    ) -> None:
        super().__init__(distance_measure, name=name)


class BleuScore(RagasMetric, _nonllm.BleuScore):
    """Ragas 0.4.3 ``BleuScore(name="bleu_score", kwargs=None)``: ``kwargs`` are ``sacrebleu.corpus_bleu``'s
    (``tokenize``, ``lowercase``, ``smooth_method``, ``smooth_value``, ``use_effective_order``; ``force`` only
    silences sacrebleu's warning and is accepted). The value is BLEU of the whole texts; with
    ``ragas_compatible=True`` (rapideval's keyword) Ragas 0.4.3's value, which scores only the first
    sentence (ragas issue #2888)."""

    def __init__(
        self, name: str = "bleu_score", kwargs: Mapping[str, Any] | None = None, ragas_compatible: bool = False
    ) -> None:
        options = _keywords("BleuScore", kwargs, _nonllm.BLEU_KWARGS)
        self.kwargs = dict(options)
        options.pop("force", None)
        super().__init__(**options, ragas_compatible=ragas_compatible, name=name)


class RougeScore(RagasMetric, _nonllm.RougeScore):
    """Ragas 0.4.3 ``RougeScore(name="rouge_score", rouge_type="rougeL", mode="fmeasure")``."""

    def __init__(
        self,
        name: str = "rouge_score",
        rouge_type: str = "rougeL",
        mode: Literal["fmeasure", "precision", "recall"] = "fmeasure",
    ) -> None:
        super().__init__(rouge_type, mode, name=name)


class ChrfScore(RagasMetric, _nonllm.ChrfScore):
    """Ragas 0.4.3 ``ChrfScore(name="chrf_score", kwargs=None)`` (collections: ``CHRFScore``): ``kwargs``
    are ``sacrebleu.corpus_chrf``'s (``char_order``, ``word_order``, ``beta``, ``remove_whitespace``,
    ``eps_smoothing``)."""

    def __init__(self, name: str = "chrf_score", kwargs: Mapping[str, Any] | None = None) -> None:
        options = _keywords("ChrfScore", kwargs, _nonllm.CHRF_KWARGS)
        self.kwargs = dict(options)
        super().__init__(**options, name=name)


CHRFScore = ChrfScore


class NonLLMContextPrecisionWithReference(RagasMetric, _nonllm.NonLLMContextPrecisionWithReference):
    """Ragas 0.4.3 ``NonLLMContextPrecisionWithReference(name="non_llm_context_precision_with_reference",
    distance_measure=NonLLMStringSimilarity(), threshold=0.5)``: ``distance_measure`` is a
    :class:`NonLLMStringSimilarity` (its measure is used) or a :class:`DistanceMeasure`."""

    def __init__(
        self,
        name: str = "non_llm_context_precision_with_reference",
        distance_measure: Any = DistanceMeasure.LEVENSHTEIN,
        threshold: float = 0.5,
    ) -> None:
        super().__init__(threshold=threshold, distance_measure=distance_measure, name=name)


class NonLLMContextRecall(RagasMetric, _nonllm.NonLLMContextRecall):
    """Ragas 0.4.3 ``NonLLMContextRecall(name="non_llm_context_recall", threshold=0.5)``; the measure is
    ``_distance_measure`` (Ragas's dataclass field: a :class:`NonLLMStringSimilarity`), ``distance_measure``,
    or set afterwards as in Ragas: ``metric.distance_measure = DistanceMeasure.JARO``."""

    def __init__(
        self,
        name: str = "non_llm_context_recall",
        threshold: float = 0.5,
        *,
        distance_measure: Any = None,
        _distance_measure: Any = None,
    ) -> None:
        measure = distance_measure if distance_measure is not None else _distance_measure
        if measure is None:
            measure = DistanceMeasure.LEVENSHTEIN
        super().__init__(threshold=threshold, distance_measure=measure, name=name)


class IDBasedContextPrecision(RagasMetric, _nonllm.IDBasedContextPrecision):
    """Ragas 0.4.3 ``IDBasedContextPrecision(name="id_based_context_precision")``."""

    def __init__(self, name: str = "id_based_context_precision") -> None:
        super().__init__(name)


class IDBasedContextRecall(RagasMetric, _nonllm.IDBasedContextRecall):
    """Ragas 0.4.3 ``IDBasedContextRecall(name="id_based_context_recall")``."""

    def __init__(self, name: str = "id_based_context_recall") -> None:
        super().__init__(name)
