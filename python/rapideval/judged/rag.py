"""Judged metrics of a RAG system's answer, as Ragas 0.4.3 names them: ``Faithfulness``,
``ResponseRelevancy`` (``AnswerRelevancy``), ``AnswerCorrectness``, ``FactualCorrectness``,
``NoiseSensitivity`` and ``SemanticSimilarity`` (``AnswerSimilarity``).

Each score is a pure function of the verdicts (the ``*_score`` functions here), written to give Ragas's
value on the same verdicts (tests/parity/test_ragas_scores.py runs Ragas's own scoring code beside them).
The requests are ours and fewer: statements and support verdicts come from :mod:`.claims`, shared across
metrics and judged for all statements (and all contexts) of a row at once; embeddings come from the judge's
``aembed`` (cached per text). Where Ragas gives NaN because there is nothing to judge (a response without
statements), the row is ``not_applicable`` with the reason; where the judge fails, it is an ``error``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field, create_model

from ..metrics.vectors import cosine
from . import claims
from .base import STATEMENT_CHARS, Ask, Embed, JudgedMetric, NotApplicable, Stage, material

__all__ = [
    "AnswerCorrectness",
    "AnswerRelevancy",
    "AnswerSimilarity",
    "FactualCorrectness",
    "Faithfulness",
    "NoiseSensitivity",
    "ResponseRelevancy",
    "SemanticSimilarity",
    "answer_correctness_score",
    "answer_relevancy_score",
    "factual_correctness_score",
    "faithfulness_score",
    "fbeta_score",
    "noise_sensitivity_score",
    "semantic_similarity_score",
]


def _statements(result: Any) -> list[str]:
    return list(result.verdicts[0].statements)


def _verdicts(result: Any) -> list[int]:
    return [v.verdict for v in result.verdicts[0].verdicts]


# Scores: pure functions of the verdicts ---------------------------------------------------------------


def faithfulness_score(verdicts: Sequence[int]) -> float:
    """Ragas ``Faithfulness``: the share of the response's statements the contexts support (1 = all)."""
    return sum(1 if v else 0 for v in verdicts) / len(verdicts)


def answer_relevancy_score(question: np.ndarray, generated: np.ndarray, noncommittal: Sequence[int]) -> float:
    """Ragas ``ResponseRelevancy``: the mean cosine of the question's embedding with those of the questions
    generated from the response, times 0 when every generation found the response noncommittal."""
    similarities = cosine(np.asarray(question, np.float64), np.asarray(generated, np.float64))
    return float(np.mean(similarities) * int(not all(noncommittal)))


def fbeta_score(tp: int, fp: int, fn: int, beta: float = 1.0) -> float:
    """F-beta of true positive, false positive and false negative counts, 0 when precision and recall are
    both 0 (Ragas's ``fbeta_score``)."""
    precision = 0.0 if tp + fp == 0 else tp / (tp + fp)
    recall = 0.0 if tp + fn == 0 else tp / (tp + fn)
    if precision == 0 and recall == 0:
        return 0.0
    beta_squared = beta**2
    return (1 + beta_squared) * (precision * recall) / ((beta_squared * precision) + recall)


def answer_correctness_score(
    tp: int, fp: int, fn: int, similarity: float, weights: Sequence[float], beta: float = 1.0,
    no_statements: bool = False,
) -> float:  # fmt: skip
    """Ragas ``AnswerCorrectness``: the weighted average of the statements' F-beta (1.0 when neither text
    has a statement, ``no_statements``) and the semantic similarity (0.0 when its weight is 0)."""
    factuality = 1.0 if no_statements else fbeta_score(tp, fp, fn, beta)
    return float(np.average([factuality, similarity if weights[1] != 0 else 0.0], weights=weights))


def factual_correctness_score(
    response_supported: Sequence[bool], reference_supported: Sequence[bool], mode: str, beta: float = 1.0
) -> float:
    """Ragas ``FactualCorrectness``: TP = response claims the reference supports, FP = the others, FN =
    reference claims the response does not support; precision, recall (each with Ragas's 1e-8 in the
    denominator) or F-beta, rounded to 2 decimals as Ragas does."""
    supported = np.asarray(response_supported, dtype=bool)
    tp, fp = int(np.sum(supported)), int(np.sum(~supported))
    fn = int(np.sum(~np.asarray(reference_supported, dtype=bool))) if mode != "precision" else 0
    if mode == "precision":
        score = tp / (tp + fp + 1e-8)
    elif mode == "recall":
        score = tp / (tp + fn + 1e-8)
    else:
        score = fbeta_score(tp, fp, fn, beta)
    return float(np.round(score, 2))


def noise_sensitivity_score(
    reference_by_context: np.ndarray, response_by_context: np.ndarray, response_supported: Sequence[bool], mode: str
) -> float:
    """Ragas ``NoiseSensitivity`` (lower is better): the share of the response's statements that are
    incorrect (the reference does not support them) yet supported by a relevant context (``"relevant"``:
    one that supports a reference statement) or only by irrelevant ones (``"irrelevant"``). The matrices are
    statements x contexts."""
    incorrect = ~np.array([response_supported], dtype=bool)
    relevant_retrieved = np.max(np.asarray(reference_by_context, dtype=bool), axis=0, keepdims=True)
    by_context = np.asarray(response_by_context, dtype=bool)
    relevant_faithful = np.max(relevant_retrieved & by_context, axis=1)
    if mode == "irrelevant":
        irrelevant_faithful = np.max(~relevant_retrieved & by_context, axis=1)
        irrelevant_faithful &= ~relevant_faithful
        return float(np.mean(irrelevant_faithful & incorrect))
    return float(np.mean(relevant_faithful & incorrect))


def semantic_similarity_score(reference: np.ndarray, response: np.ndarray, threshold: float | None) -> float:
    """Ragas ``SemanticSimilarity``: the cosine of the two embeddings; with a (non-zero) ``threshold``, 1.0
    when the cosine reaches it, else 0.0."""
    score = float(cosine(np.asarray(reference, np.float64), np.asarray(response, np.float64)))
    return float(score >= threshold) if threshold else score


# Metrics ----------------------------------------------------------------------------------------------


class Faithfulness(JudgedMetric):
    """Ragas 0.4.3 ``Faithfulness()``: how far the contexts support the response. Fields ``response`` and
    ``retrieved_contexts`` (``user_input`` unused). Scale 0-1, higher = more faithful:
    :func:`faithfulness_score` of one verdict per statement of the response against all contexts read
    together. A response without statements is not applicable. Stages: ``statements`` (shared with the
    other statement metrics), then ``support`` (the verdicts of all statements at once): 2 requests per row."""

    name = "faithfulness"
    required: tuple[str, ...] = ("response", "retrieved_contexts")

    def __init__(self, name: str | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.name = name or self.name

    def stages(self) -> tuple[Stage, ...]:
        return (
            Stage("statements", lambda fields, earlier: claims.statements(fields["response"])),
            Stage("support", self._support, after=("statements",)),
        )

    def _support(self, fields: Mapping[str, Any], earlier: Mapping[str, Any]) -> Ask | None:
        found = _statements(earlier["statements"])
        return claims.support(found, fields["retrieved_contexts"], "retrieved_contexts") if found else None

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        found = _statements(results["statements"])
        if not found:
            raise NotApplicable("the response makes no statement to check")
        verdicts = _verdicts(results["support"])
        reason = f"{sum(verdicts)} of {len(verdicts)} statements supported by the contexts"
        return faithfulness_score(verdicts), reason, {"statements": found, "verdicts": verdicts}


class _Question(BaseModel):
    question: str = Field(min_length=1, max_length=STATEMENT_CHARS, description="a question the response answers")
    noncommittal: Literal[0, 1] = Field(description="1 if the response is evasive or vague, else 0")


QUESTION_PROMPT = (
    "You read a response and write the question it answers, as a user would ask it, and say whether "
    "the response is noncommittal (evasive, vague, or declining to answer): noncommittal 1 if so, else 0."
)


class ResponseRelevancy(JudgedMetric):
    """Ragas 0.4.3 ``ResponseRelevancy(strictness=3)`` (alias ``AnswerRelevancy``): how well the response
    answers the question. Fields ``user_input`` and ``response``. Stage ``questions``: the judge writes
    ``strictness`` questions the response would answer (one request with ``n=strictness``, at temperature
    0.3 or the judge's if higher) and says whether the response is noncommittal; stage ``embeddings``: the
    question and the generated questions in one embedding request. :func:`answer_relevancy_score`: the mean
    cosine (Rust kernel) of the question's embedding with theirs, times 0 when every generation found the
    response noncommittal. Scale -1..1 (in practice 0-1), higher = more relevant."""

    name = "answer_relevancy"
    embeds = True
    required: tuple[str, ...] = ("user_input", "response")

    def __init__(self, strictness: int = 3, name: str | None = None, **options: Any) -> None:
        super().__init__(**options)
        if isinstance(strictness, bool) or not isinstance(strictness, int) or strictness < 1:
            raise ValueError(f"ResponseRelevancy: strictness must be a positive int, got {strictness!r}")
        self.strictness = strictness
        self.name = name or self.name

    def stages(self) -> tuple[Stage, ...]:
        return (Stage("questions", self._questions), Stage("embeddings", self._embeddings, after=("questions",)))

    def _questions(self, fields: Mapping[str, Any], earlier: Mapping[str, Any]) -> Ask:
        data = material(fields, ["response"])
        return Ask(QUESTION_PROMPT, data, _Question, "noncommittal", self.strictness, "majority", hot=0.3)

    def _embeddings(self, fields: Mapping[str, Any], earlier: Mapping[str, Any]) -> Embed:
        return Embed((fields["user_input"], *(v.question for v in earlier["questions"].verdicts)))

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        generations, vectors = results["questions"].verdicts, results["embeddings"]
        noncommittal = [v.noncommittal for v in generations]
        score = answer_relevancy_score(vectors[0], vectors[1:], noncommittal)
        questions = [v.question for v in generations]
        reason = f"questions the response answers: {questions}" + (" (noncommittal)" if all(noncommittal) else "")
        return score, reason, {"questions": questions, "noncommittal": noncommittal}


AnswerRelevancy = ResponseRelevancy


class SemanticSimilarity(JudgedMetric):
    """Ragas 0.4.3 ``SemanticSimilarity(threshold=None)`` (alias ``AnswerSimilarity``): the cosine (Rust
    kernel) of the embeddings of ``reference`` and ``response``; with a threshold, 1.0 or 0.0
    (:func:`semantic_similarity_score`). Scale -1..1 (0/1 with a threshold). Stage ``embeddings``: one
    embedding request for both texts (cached per text), no chat."""

    name = "semantic_similarity"
    embeds = True
    required: tuple[str, ...] = ("reference", "response")

    def __init__(self, threshold: float | None = None, name: str | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.threshold = threshold
        self.name = name or self.name

    def scoring(self) -> Mapping[str, Any]:
        return {"threshold": self.threshold}

    def stages(self) -> tuple[Stage, ...]:
        return (Stage("embeddings", lambda fields, earlier: Embed((fields["reference"], fields["response"]))),)

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        vectors = results["embeddings"]
        return semantic_similarity_score(vectors[0], vectors[1], self.threshold), "", {}


AnswerSimilarity = SemanticSimilarity


CLASSIFY_PROMPT = (
    "You compare the statements of a response with those of a reference answer. For each numbered "
    "response statement, in order, give 1 if the reference statements support it, else 0. For each "
    "numbered reference statement, in order, give 1 if the response statements state it, else 0."
)


class AnswerCorrectness(JudgedMetric):
    """Ragas 0.4.3 ``AnswerCorrectness(weights=[0.75, 0.25], beta=1.0)``: agreement of ``response`` with
    ``reference`` (``user_input`` unused). Stages: ``response_statements`` and ``reference_statements``
    (shared with the other statement metrics) and, when ``weights[1]`` is not 0, ``embeddings`` of the two
    texts; then ``classified`` (TP: response statements the reference supports; FP: the others; FN:
    reference statements the response lacks): :func:`answer_correctness_score`. Scale 0-1, higher = more
    correct. ``threshold`` applies to the similarity part as in :class:`SemanticSimilarity`. Requests per
    row: 3 chat (2 shared) and 1 embedding."""

    name = "answer_correctness"
    embeds = True
    required: tuple[str, ...] = ("response", "reference")

    def __init__(
        self,
        weights: Sequence[float] = (0.75, 0.25),
        beta: float = 1.0,
        threshold: float | None = None,
        name: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        if len(weights) != 2 or any(w < 0 for w in weights) or not any(weights):
            raise ValueError(f"AnswerCorrectness: weights must be two non-negative numbers, not both 0: {weights!r}")
        if not isinstance(beta, (int, float)) or isinstance(beta, bool) or beta <= 0:
            raise ValueError(f"AnswerCorrectness: beta must be a positive number, got {beta!r}")
        self.weights, self.beta, self.threshold = [float(w) for w in weights], float(beta), threshold
        self.name = name or self.name

    def scoring(self) -> Mapping[str, Any]:
        return {"weights": self.weights, "beta": self.beta, "threshold": self.threshold}

    def stages(self) -> tuple[Stage, ...]:
        similar = self.weights[1] != 0
        return (
            Stage("response_statements", lambda fields, earlier: claims.statements(fields["response"])),
            Stage("reference_statements", lambda fields, earlier: claims.statements(fields["reference"])),
            Stage("embeddings", lambda f, earlier: Embed((f["reference"], f["response"])) if similar else None),
            Stage("classified", self._classified, after=("response_statements", "reference_statements")),
        )

    def _classified(self, fields: Mapping[str, Any], earlier: Mapping[str, Any]) -> Ask | None:
        found, wanted = _statements(earlier["response_statements"]), _statements(earlier["reference_statements"])
        if not (found or wanted):
            return None
        data = {"response_statements": claims.numbered(found), "reference_statements": claims.numbered(wanted)}
        return Ask(CLASSIFY_PROMPT, data, _classified_model(len(found), len(wanted)))

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        found, wanted = _statements(results["response_statements"]), _statements(results["reference_statements"])
        similarity = 0.0
        if self.weights[1] != 0:
            vectors = results["embeddings"]
            similarity = semantic_similarity_score(vectors[0], vectors[1], self.threshold)
        tp = fp = fn = 0
        if found or wanted:
            classified = results["classified"].verdicts[0]
            tp = sum(classified.response_statements)
            fp = len(found) - tp
            fn = len(wanted) - sum(classified.reference_statements)
        score = answer_correctness_score(tp, fp, fn, similarity, self.weights, self.beta, not (found or wanted))
        details = {"tp": tp, "fp": fp, "fn": fn, "similarity": similarity, "statements": found, "reference": wanted}
        return score, f"TP {tp}, FP {fp}, FN {fn}, similarity {similarity:.4f}", details


@functools.lru_cache(maxsize=512)
def _classified_model(found: int, wanted: int) -> type[BaseModel]:
    return create_model(
        "Classified",
        response_statements=(claims.exact_verdicts(found), ...),
        reference_statements=(claims.exact_verdicts(wanted), ...),
    )


class FactualCorrectness(JudgedMetric):
    """Ragas 0.4.3 ``FactualCorrectness(mode="f1", beta=1.0, atomicity="low", coverage="low")``: the claims
    of ``response`` checked against ``reference`` (precision) and, for ``"recall"`` and ``"f1"``, the claims
    of ``reference`` against ``response``: :func:`factual_correctness_score`, rounded to 2 decimals. Scale
    0-1, higher = more correct. Not applicable when the claims the mode needs are absent (precision: the
    response has none; recall: the reference has none; f1: neither has any), where Ragas scores the empty
    counts (0.0; in recall, 1.0 when only the response has claims and the reference supports one of
    them). Stages: ``response_claims`` (and ``reference_claims``), then ``supported`` (and ``covered``):
    precision 2 requests, recall and f1 4 (the statements are shared with the other statement metrics at
    the default atomicity and coverage)."""

    name = "factual_correctness"
    required: tuple[str, ...] = ("response", "reference")

    def __init__(
        self,
        mode: Literal["precision", "recall", "f1"] = "f1",
        beta: float = 1.0,
        atomicity: claims.Atomicity = "low",
        coverage: claims.Coverage = "low",
        name: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        if mode not in ("precision", "recall", "f1"):
            raise ValueError(f"FactualCorrectness: mode must be 'precision', 'recall' or 'f1', got {mode!r}")
        if atomicity not in ("low", "high") or coverage not in ("low", "high"):
            raise ValueError("FactualCorrectness: atomicity and coverage must be 'low' or 'high'")
        if not isinstance(beta, (int, float)) or isinstance(beta, bool) or beta <= 0:
            raise ValueError(f"FactualCorrectness: beta must be a positive number, got {beta!r}")
        self.mode, self.beta, self.atomicity, self.coverage = mode, float(beta), atomicity, coverage
        self.name = name or self.name

    def scoring(self) -> Mapping[str, Any]:
        return {"mode": self.mode, "beta": self.beta}

    def stages(self) -> tuple[Stage, ...]:
        def claims_of(text: str) -> Any:
            return lambda fields, earlier: claims.statements(fields[text], self.atomicity, self.coverage)

        def check(found: str, premise: str) -> Any:
            def build(fields: Mapping[str, Any], earlier: Mapping[str, Any]) -> Ask | None:
                items = _statements(earlier[found])
                return claims.support(items, fields[premise], premise) if items else None

            return build

        first = [Stage("response_claims", claims_of("response"))]
        then = [Stage("supported", check("response_claims", "reference"), after=("response_claims",))]
        if self.mode != "precision":
            first.append(Stage("reference_claims", claims_of("reference")))
            then.append(Stage("covered", check("reference_claims", "response"), after=("reference_claims",)))
        return (*first, *then)

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        both = self.mode != "precision"
        found = _statements(results["response_claims"])
        wanted = _statements(results["reference_claims"]) if both else []
        if (not found and (self.mode == "precision" or not wanted)) or (self.mode == "recall" and not wanted):
            raise NotApplicable(f"no claims to check for {self.mode}")
        supported = _verdicts(results["supported"]) if found else []
        covered = _verdicts(results["covered"]) if wanted else []
        score = factual_correctness_score([bool(v) for v in supported], [bool(v) for v in covered], self.mode,
                                          self.beta)  # fmt: skip
        reason = f"{sum(supported)} of {len(found)} response claims supported"
        if both:
            reason += f", {sum(covered)} of {len(wanted)} reference claims covered"
        return score, reason, {"claims": found, "supported": supported, "reference_claims": wanted,
                               "covered": covered}  # fmt: skip


class NoiseSensitivity(JudgedMetric):
    """Ragas 0.4.3 ``NoiseSensitivity(mode="relevant")`` (or ``"irrelevant"``): how often the response
    states something wrong that a retrieved context supports. Fields ``user_input``, ``response``,
    ``reference`` and ``retrieved_contexts``. Stages: ``reference_statements`` and ``response_statements``
    (shared), then ``reference_by_context`` and ``response_by_context`` (each set against every context, one
    request per set) and ``supported`` (the response's statements against the reference, shared with
    FactualCorrectness): :func:`noise_sensitivity_score`. Scale 0-1, **lower is better**. Not applicable
    when the response has no statement (Ragas: NaN); a reference without statements counts no context as
    relevant (Ragas raises). Requests per row: 5 (3 of them shared with the other statement metrics), where
    Ragas makes 3 + 2 x contexts."""

    name = "noise_sensitivity"
    required: tuple[str, ...] = ("user_input", "response", "reference", "retrieved_contexts")
    higher_is_better = False

    def __init__(self, mode: Literal["relevant", "irrelevant"] = "relevant", name: str | None = None,
                 **options: Any) -> None:  # fmt: skip
        super().__init__(**options)
        if mode not in ("relevant", "irrelevant"):
            raise ValueError(f"NoiseSensitivity: mode must be 'relevant' or 'irrelevant', got {mode!r}")
        self.mode = mode
        self.name = name or self.name  # Ragas's name in both modes; the signature holds the mode

    def scoring(self) -> Mapping[str, Any]:
        return {"mode": self.mode}

    def stages(self) -> tuple[Stage, ...]:
        both = ("reference_statements", "response_statements")
        return (
            Stage("reference_statements", lambda fields, earlier: claims.statements(fields["reference"])),
            Stage("response_statements", lambda fields, earlier: claims.statements(fields["response"])),
            Stage("reference_by_context", self._by_context("reference_statements"), after=both),
            Stage("response_by_context", self._by_context("response_statements"), after=both),
            Stage("supported", self._supported, after=both),
        )

    @staticmethod
    def _by_context(statements: str) -> Any:
        def build(fields: Mapping[str, Any], earlier: Mapping[str, Any]) -> Ask | None:
            items = _statements(earlier[statements])
            if not items or not _statements(earlier["response_statements"]):
                return None
            return claims.support_by_context(items, fields["retrieved_contexts"])

        return build

    @staticmethod
    def _supported(fields: Mapping[str, Any], earlier: Mapping[str, Any]) -> Ask | None:
        found = _statements(earlier["response_statements"])
        return claims.support(found, fields["reference"], "reference") if found else None

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        wanted, found = _statements(results["reference_statements"]), _statements(results["response_statements"])
        if not found:
            raise NotApplicable("the response makes no statement to check")
        contexts = len(fields["retrieved_contexts"])
        reference_by_context = (
            np.array(results["reference_by_context"].verdicts[0].contexts, dtype=bool).T
            if wanted
            else np.zeros((1, contexts), bool)
        )
        response_by_context = np.array(results["response_by_context"].verdicts[0].contexts, dtype=bool).T
        supported = _verdicts(results["supported"])
        score = noise_sensitivity_score(reference_by_context, response_by_context, [v == 1 for v in supported],
                                        self.mode)  # fmt: skip
        incorrect = len(found) - sum(supported)
        reason = f"{incorrect} of {len(found)} response statements not supported by the reference"
        return score, reason, {"statements": found, "reference_statements": wanted, "supported": supported}
