"""Judged metrics of a RAG system's retrieval, as Ragas 0.4.3 names them: ``ContextPrecision``
(``LLMContextPrecisionWithReference``), ``ContextUtilization`` (``LLMContextPrecisionWithoutReference``),
``ContextRecall`` (``LLMContextRecall``), ``ContextEntityRecall`` and ``ContextRelevance``.

Each score is a pure function of the verdicts (the ``*_score`` functions), written to give Ragas's value
on the same verdicts. The requests are ours and fewer: context precision judges all contexts of a row in
one request (Ragas: one per context, one after another), with exactly one verdict per context.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, create_model

from .base import ENTITY_CHARS, ITEM_REASON_CHARS, REASON_CHARS, Ask, JudgedMetric, NotApplicable, Stage, material
from .claims import item_chars, list_bound

__all__ = [
    "ContextEntityRecall",
    "ContextPrecision",
    "ContextRecall",
    "ContextRelevance",
    "ContextUtilization",
    "LLMContextPrecisionWithReference",
    "LLMContextPrecisionWithoutReference",
    "LLMContextRecall",
    "average_precision",
    "context_entity_recall_score",
    "context_recall_score",
    "context_relevance_score",
]


def average_precision(verdicts: Sequence[int]) -> float:
    """Ragas's context precision: sum over ranks k of precision@k times the verdict at k, over the number of
    useful contexts plus 1e-10 (so all useful gives 0.99999999995, none gives 0)."""
    verdict_list = [1 if v else 0 for v in verdicts]
    denominator = sum(verdict_list) + 1e-10
    numerator = sum([(sum(verdict_list[: i + 1]) / (i + 1)) * verdict_list[i] for i in range(len(verdict_list))])
    return numerator / denominator


def context_recall_score(attributed: Sequence[int]) -> float:
    """Ragas ``ContextRecall``: the share of the reference's sentences the contexts support."""
    response = [1 if a else 0 for a in attributed]
    return sum(response) / len(response)


def context_entity_recall_score(reference_entities: Sequence[str], context_entities: Sequence[str]) -> float:
    """Ragas ``ContextEntityRecall``: distinct entities found in both, over the reference's entities
    (counted with repeats, plus 1e-8)."""
    return len(set(context_entities).intersection(set(reference_entities))) / (len(reference_entities) + 1e-8)


def context_relevance_score(first: int, second: int) -> float:
    """Ragas ``ContextRelevance``: the mean of two ratings 0/1/2, each divided by 2."""
    return (first / 2 + second / 2) / 2


@functools.lru_cache(maxsize=512)
def _usefulness_model(count: int) -> type[BaseModel]:
    verdict: Any = Annotated[list[Literal[0, 1]], Field(min_length=count, max_length=count)]
    return create_model(
        "Usefulness",
        reason=(str, Field(max_length=REASON_CHARS, description="one or two sentences")),
        verdicts=(verdict, ...),
    )


class LLMContextPrecisionWithReference(JudgedMetric):
    """Ragas 0.4.3 ``LLMContextPrecisionWithReference()`` (``ContextPrecision``, named
    ``context_precision``): whether the useful contexts come first. Fields ``user_input``,
    ``retrieved_contexts`` and ``reference``. One request gives a verdict per context, in order (1 =
    useful to reach the reference answer); :func:`average_precision`. Scale 0-1, higher = better ranked.
    Requests per row: 1 (Ragas: 1 per context)."""

    name = "llm_context_precision_with_reference"
    required: tuple[str, ...] = ("user_input", "retrieved_contexts", "reference")
    ANSWER: ClassVar[str] = "reference"
    INSTRUCTIONS: ClassVar[str] = (
        "You judge retrieved contexts for a question. For each context, in order, give verdict 1 if it is "
        "useful to arrive at the given answer (it holds information the answer uses), else 0. Give exactly "
        "one verdict per context."
    )

    def __init__(self, name: str | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.name = name or self.name

    def ask(self, fields: Mapping[str, Any]) -> Ask:
        data = material(fields, ["user_input", self.ANSWER, "retrieved_contexts"])
        return Ask(self.INSTRUCTIONS, data, _usefulness_model(len(fields["retrieved_contexts"])))

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        verdict = results["verdict"].verdicts[0]
        verdicts = list(verdict.verdicts)
        return average_precision(verdicts), verdict.reason, {"verdicts": verdicts}


class ContextPrecision(LLMContextPrecisionWithReference):
    __doc__ = LLMContextPrecisionWithReference.__doc__
    name = "context_precision"


class LLMContextPrecisionWithoutReference(LLMContextPrecisionWithReference):
    """Ragas 0.4.3 ``LLMContextPrecisionWithoutReference()`` (``ContextUtilization``, named
    ``context_utilization``): :class:`LLMContextPrecisionWithReference` judged against the ``response``
    instead of a reference. Requests per row: 1."""

    name = "llm_context_precision_without_reference"
    required: tuple[str, ...] = ("user_input", "retrieved_contexts", "response")
    ANSWER: ClassVar[str] = "response"


class ContextUtilization(LLMContextPrecisionWithoutReference):
    __doc__ = LLMContextPrecisionWithoutReference.__doc__
    name = "context_utilization"


@functools.lru_cache(maxsize=128)
def _attribution_model(bound: int, chars: int) -> type[BaseModel]:
    sentence = create_model(
        "Sentence",
        sentence=(str, Field(max_length=chars)),
        reason=(str, Field(max_length=ITEM_REASON_CHARS, description="one short sentence")),
        attributed=(Literal[0, 1], Field(description="1 if the contexts support the sentence, else 0")),
    )
    sentences: Any = Annotated[list[sentence], Field(min_length=1, max_length=bound)]  # type: ignore[valid-type]
    return create_model("Attribution", sentences=(sentences, ...))


class LLMContextRecall(JudgedMetric):
    """Ragas 0.4.3 ``LLMContextRecall()`` (``ContextRecall``, named ``context_recall``): how much of the
    reference answer the contexts support. Fields ``user_input``, ``retrieved_contexts`` and
    ``reference``. One request lists the reference's sentences with, for each, whether the contexts
    support it; :func:`context_recall_score`. Scale 0-1, higher = better recall. Requests per row: 1."""

    name = "context_recall"
    required: tuple[str, ...] = ("user_input", "retrieved_contexts", "reference")
    INSTRUCTIONS: ClassVar[str] = (
        "You check a reference answer against retrieved contexts. Split the reference into its sentences "
        "and, for each, give attributed 1 if the contexts support it, else 0, with a short reason."
    )

    def __init__(self, name: str | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.name = name or self.name

    def ask(self, fields: Mapping[str, Any]) -> Ask:
        reference = fields["reference"]
        schema = _attribution_model(list_bound(reference), item_chars(reference))
        return Ask(self.INSTRUCTIONS, material(fields, ["user_input", "reference", "retrieved_contexts"]), schema)

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        sentences = results["verdict"].verdicts[0].sentences
        attributed = [s.attributed for s in sentences]
        reason = f"{sum(attributed)} of {len(attributed)} reference sentences supported by the contexts"
        return context_recall_score(attributed), reason, {"sentences": [s.sentence for s in sentences],
                                                          "attributed": attributed}  # fmt: skip


ContextRecall = LLMContextRecall


@functools.lru_cache(maxsize=128)
def _entities_model(bound: int) -> type[BaseModel]:
    entity = Annotated[str, Field(max_length=ENTITY_CHARS)]
    entities: Any = Annotated[list[entity], Field(max_length=bound)]
    return create_model("Entities", entities=(entities, ...))


ENTITIES_PROMPT = (
    "You list the named entities of a text (people, places, organisations, products, dates, numbers, "
    "events), each once, written as in the text."
)


class ContextEntityRecall(JudgedMetric):
    """Ragas 0.4.3 ``ContextEntityRecall()``: the share of the reference's entities found in the
    contexts. Fields ``reference`` and ``retrieved_contexts``. Two requests list the entities of the
    reference and of the contexts; :func:`context_entity_recall_score` on exact strings. Scale 0-1, higher
    = better. Not applicable when the reference has no entity (Ragas: 0). Stages ``reference_entities`` and
    ``context_entities``, together: 2 requests per row."""

    name = "context_entity_recall"
    required: tuple[str, ...] = ("reference", "retrieved_contexts")

    def __init__(self, name: str | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.name = name or self.name

    def stages(self) -> tuple[Stage, ...]:
        def entities(name: str) -> Any:
            def build(fields: Mapping[str, Any], earlier: Mapping[str, Any]) -> Ask:
                value = fields[name]
                text = value if isinstance(value, str) else "\n".join(value)
                return Ask(ENTITIES_PROMPT, {name: value}, _entities_model(2 * list_bound(text)), label="entities")

            return build

        return (Stage("reference_entities", entities("reference")),
                Stage("context_entities", entities("retrieved_contexts")))  # fmt: skip

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        wanted = results["reference_entities"].verdicts[0].entities
        found = results["context_entities"].verdicts[0].entities
        if not wanted:
            raise NotApplicable("the reference names no entity")
        score = context_entity_recall_score(wanted, found)
        return score, f"reference entities: {wanted}", {"reference_entities": wanted, "context_entities": found}


class _Rating(BaseModel):
    rating: Literal[0, 1, 2] = Field(description="0 not relevant, 1 partly relevant, 2 relevant")


RELEVANCE_PROMPTS = (
    "You rate how relevant retrieved contexts are to a question: 0 if they hold nothing that helps answer "
    "it, 1 if they hold part of what is needed, 2 if they hold what is needed.",
    "Read the question, then the contexts. Could someone answer the question from these contexts? Rate 2 "
    "for yes, 1 for in part, 0 for no.",
)


class ContextRelevance(JudgedMetric):
    """Ragas 0.4.3 ``ContextRelevance()`` (named ``nv_context_relevance``): two ratings 0/1/2 of the
    contexts' relevance to ``user_input``, from two differently worded requests as Ragas does;
    :func:`context_relevance_score`. Scale 0-1 in steps of 0.25, higher = more relevant. Stages ``first``
    and ``second``, together: 2 requests per row."""

    name = "nv_context_relevance"
    required: tuple[str, ...] = ("user_input", "retrieved_contexts")

    def __init__(self, name: str | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.name = name or self.name

    def stages(self) -> tuple[Stage, ...]:
        def rating(instructions: str) -> Any:
            return lambda fields, earlier: Ask(
                instructions, material(fields, ["user_input", "retrieved_contexts"]), _Rating, "rating"
            )

        return tuple(Stage(n, rating(p)) for n, p in zip(("first", "second"), RELEVANCE_PROMPTS, strict=True))

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        first, second = results["first"].value, results["second"].value
        return context_relevance_score(first, second), f"ratings {first} and {second}", {"ratings": [first, second]}
