"""Ragas 0.4.3's RAG answer metrics with Ragas's constructors, on :mod:`rapideval.judged.rag`, and the
module-level instances Ragas users import (``faithfulness``, ``answer_relevancy``, ...). ``embeddings``
may be a JudgeClient, which then embeds (and judges, when no ``llm`` is given); without it the judge embeds
through its own endpoint."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from ....judged import rag as _rag
from ....llm import JudgeClient
from .._metric import RagasMetric, check_embeddings

__all__ = [
    "AnswerCorrectness",
    "AnswerRelevancy",
    "AnswerSimilarity",
    "FactualCorrectness",
    "Faithfulness",
    "NoiseSensitivity",
    "ResponseRelevancy",
    "SemanticSimilarity",
    "answer_correctness",
    "answer_relevancy",
    "answer_similarity",
    "faithfulness",
    "noise_sensitivity",
]


def _clients(llm: JudgeClient | None, embeddings: Any) -> dict[str, JudgeClient | None]:
    """The metric's judge and embedder from Ragas's ``llm`` and ``embeddings``."""
    check_embeddings(embeddings)
    return {"judge": llm or embeddings, "embedder": embeddings}


class Faithfulness(RagasMetric, _rag.Faithfulness):
    """Ragas 0.4.3 ``Faithfulness(llm=None)``."""

    def __init__(self, llm: JudgeClient | None = None, name: str | None = None) -> None:
        super().__init__(name, judge=llm)


class ResponseRelevancy(RagasMetric, _rag.ResponseRelevancy):
    """Ragas 0.4.3 ``ResponseRelevancy(llm=None, embeddings=None, strictness=3)``."""

    def __init__(
        self, llm: JudgeClient | None = None, embeddings: Any = None, strictness: int = 3, name: str | None = None
    ) -> None:
        super().__init__(strictness, name, **_clients(llm, embeddings))


AnswerRelevancy = ResponseRelevancy


class SemanticSimilarity(RagasMetric, _rag.SemanticSimilarity):
    """Ragas 0.4.3 ``SemanticSimilarity(embeddings=None, threshold=None)``."""

    def __init__(self, embeddings: Any = None, threshold: float | None = None, name: str | None = None) -> None:
        super().__init__(threshold, name, **_clients(None, embeddings))


class AnswerSimilarity(SemanticSimilarity):
    """Ragas 0.4.3 ``AnswerSimilarity`` (named ``answer_similarity``)."""

    name = "answer_similarity"


class AnswerCorrectness(RagasMetric, _rag.AnswerCorrectness):
    """Ragas 0.4.3 ``AnswerCorrectness(llm=None, embeddings=None, weights=[0.75, 0.25], beta=1.0)``."""

    def __init__(
        self,
        llm: JudgeClient | None = None,
        embeddings: Any = None,
        weights: Sequence[float] = (0.75, 0.25),
        beta: float = 1.0,
        threshold: float | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(weights, beta, threshold, name, **_clients(llm, embeddings))


class FactualCorrectness(RagasMetric, _rag.FactualCorrectness):
    """Ragas 0.4.3 ``FactualCorrectness(llm=None, mode="f1", beta=1.0, atomicity="low", coverage="low")``."""

    def __init__(
        self,
        llm: JudgeClient | None = None,
        mode: Literal["precision", "recall", "f1"] = "f1",
        beta: float = 1.0,
        atomicity: Literal["low", "high"] = "low",
        coverage: Literal["low", "high"] = "low",
        name: str | None = None,
    ) -> None:
        super().__init__(mode, beta, atomicity, coverage, name, judge=llm)


class NoiseSensitivity(RagasMetric, _rag.NoiseSensitivity):
    """Ragas 0.4.3 ``NoiseSensitivity(llm=None, mode="relevant")`` (legacy and collections)."""

    def __init__(
        self, llm: JudgeClient | None = None, mode: Literal["relevant", "irrelevant"] = "relevant",
        name: str | None = None,
    ) -> None:  # fmt: skip
        super().__init__(mode, name, judge=llm)


faithfulness = Faithfulness()
answer_relevancy = AnswerRelevancy()
answer_similarity = AnswerSimilarity()
answer_correctness = AnswerCorrectness()
noise_sensitivity = NoiseSensitivity()
