"""Judged metrics of answer quality, as promptflow-evals 0.3.5 measures them: ``Coherence``, ``Fluency``,
``Groundedness``, ``Relevance``, ``Similarity`` and the chat ``Retrieval`` score.

Each is one request per row and a 1-5 integer verdict (higher = better) with a short reason. The verdict
schema allows the levels 1 to 5 only, so a reply of 9, or one that is not JSON, is re-asked once by the
runtime and then an ``error`` result with its cause, never a number (promptflow reads the first digit of
free text and gives NaN when there is none). The prompts are ours, never promptflow's; the signature
hashes the requests as sent.

``user_input`` is the question, or the conversation that leads up to it (a list of messages whose last
user message is the question; the earlier ones say what it refers to). promptflow's ``ChatEvaluator``
judges each turn's question and answer alone, and gives the conversation so far only to ``Retrieval``;
:func:`mean_over_turns` is its per-conversation mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import BaseModel, Field

from .base import REASON_CHARS, Ask, JudgedMetric, MetricResult, material

__all__ = [
    "Coherence",
    "Fluency",
    "Groundedness",
    "Rating",
    "Relevance",
    "Retrieval",
    "Similarity",
    "mean_over_turns",
]


class Rating(BaseModel):
    """The verdict of every metric here: a level of promptflow-evals 0.3.5's 1-5 scale and a short reason,
    the reason first so that the judge explains before it scores."""

    reason: str = Field(max_length=REASON_CHARS, description="one or two sentences on what decided the score")
    score: Literal[1, 2, 3, 4, 5] = Field(description="the level of the scale that fits best")


# How the prompts name each field's block.
_BLOCKS = {
    "user_input": "the question in <user_input> (or the conversation leading up to it, whose last user message "
    "is the question)",
    "response": "the response in <response>",
    "retrieved_contexts": "the retrieved documents in <retrieved_contexts>, one <context> each",
    "reference": "the reference answer in <reference>",
}


def _prompt(task: str, levels: tuple[str, str, str, str, str], fields: Sequence[str]) -> str:
    scale = "\n".join(f"{n}: {text}" for n, text in enumerate(levels, 1))
    given = "; ".join(_BLOCKS[f] for f in fields)
    return (
        f"{task}\n\nYou are given {given}.\n\nScore on this scale:\n{scale}\n\n"
        "Give the score that fits best and a short reason."
    )


class _Rated(JudgedMetric):
    """A 1-5 rating of the row's ``required`` fields, shown in that order: one request, the verdict
    :class:`Rating`, the value its score. A subclass sets ``TASK`` and ``LEVELS``; its ``INSTRUCTIONS`` are
    made of them for its ``required`` fields. One that leaves a field out on request (``with_...=False``)
    drops it from ``required`` and calls :meth:`_instructions`, which makes the instance's instructions for
    the fields shown."""

    TASK: ClassVar[str]
    LEVELS: ClassVar[tuple[str, str, str, str, str]]
    INSTRUCTIONS: str
    scale = (1.0, 5.0)

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        cls.INSTRUCTIONS = _prompt(cls.TASK, cls.LEVELS, cls.required)

    def __init__(self, name: str | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.name = name or self.name

    def _instructions(self, task: str) -> None:
        """This instance's instructions: ``task`` and the levels, for the fields it shows (its ``required``)."""
        self.INSTRUCTIONS = _prompt(task, self.LEVELS, self.required)

    def ask(self, fields: Mapping[str, Any]) -> Ask:
        return Ask(self.INSTRUCTIONS, material(fields, self.required), Rating, "score")

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        r = results["verdict"]
        return int(r.value), r.verdicts[0].reason, {}


class Coherence(_Rated):
    """promptflow-evals 0.3.5 ``CoherenceEvaluator``'s measure: how well the response's sentences hold
    together as a logical, connected whole. Fields ``user_input`` and ``response``. Scale 1-5 integers,
    higher = more coherent. One request per row."""

    name = "coherence"
    required: tuple[str, ...] = ("user_input", "response")
    TASK: ClassVar[str] = (
        "You rate the coherence of a response to a question: whether its sentences follow from one another "
        "and form a logical, connected whole that reads naturally. Judge the organisation of the ideas, not "
        "whether they are true."
    )
    LEVELS = (
        "incoherent: the sentences are unrelated or contradict one another",
        "mostly incoherent: a few sentences connect, but the whole does not hold together",
        "partly coherent: the main line can be followed, with jumps, gaps or stray sentences",
        "mostly coherent: well connected, with small lapses in order or flow",
        "fully coherent: every sentence builds on the others in a clear, logical order",
    )


class Fluency(_Rated):
    """promptflow-evals 0.3.5 ``FluencyEvaluator``'s measure: the quality of the response's language
    (grammar, wording, sentence construction). Fields ``user_input`` and ``response``; with
    ``with_user_input=False`` the response alone (azure-ai-evaluation 1.x's ``FluencyEvaluator``, which rates
    ``response`` only), and the question is never shown. Scale 1-5 integers, higher = more fluent. One
    request per row (the two forms send different requests, so their signatures differ)."""

    name = "fluency"
    required: tuple[str, ...] = ("user_input", "response")
    TASK: ClassVar[str] = (
        "You rate the fluency of a response: the quality of its language sentence by sentence (grammar, choice "
        "of words, construction, ease of reading). Judge the language, not whether the content is correct or "
        "relevant."
    )
    LEVELS = (
        "barely readable: broken grammar and wording throughout",
        "hard to read: frequent errors that obscure the meaning",
        "understandable, with noticeable errors or awkward phrasing",
        "well written, with small slips",
        "fluent: grammatical, idiomatic and easy to read throughout",
    )

    def __init__(self, name: str | None = None, with_user_input: bool = True, **options: Any) -> None:
        super().__init__(name, **options)
        if with_user_input not in (True, False):
            raise ValueError(f"Fluency: with_user_input must be True or False, got {with_user_input!r}")
        self.with_user_input = with_user_input
        if not with_user_input:
            self.required = ("response",)
            self._instructions(self.TASK)


class Groundedness(_Rated):
    """promptflow-evals 0.3.5 ``GroundednessEvaluator``'s measure: how far the response's claims follow
    from the retrieved contexts (judged by the contexts alone, not by outside knowledge). Fields
    ``response`` and ``retrieved_contexts``. Scale 1-5 integers, higher = better grounded. One request per
    row."""

    name = "groundedness"
    required: tuple[str, ...] = ("response", "retrieved_contexts")
    TASK: ClassVar[str] = (
        "You rate whether a response is grounded in the given documents: whether what it states follows "
        "from what the documents state. Use only the documents, never your own knowledge: a true statement "
        "the documents do not support is not grounded."
    )
    LEVELS = (
        "the response contradicts the documents, or none of it can be found in them",
        "most of what the response states is not supported by the documents",
        "some statements are supported; others are not, or cannot be checked against the documents",
        "nearly everything follows from the documents, with small unsupported details",
        "everything the response states follows from the documents",
    )


class Relevance(_Rated):
    """promptflow-evals 0.3.5 ``RelevanceEvaluator``'s measure: how well the response addresses the main
    points of the question, given the retrieved contexts. Fields ``user_input``, ``response`` and
    ``retrieved_contexts``; with ``with_retrieved_contexts=False`` the question and response alone
    (azure-ai-evaluation 1.x's ``RelevanceEvaluator``, which reads no documents), and documents are never
    shown. Scale 1-5 integers, higher = more relevant. One request per row.
    The two forms send different requests, so their signatures differ."""

    name = "relevance"
    required: tuple[str, ...] = ("user_input", "response", "retrieved_contexts")
    TASK: ClassVar[str] = (
        "You rate the relevance of a response to a question, given the documents it could draw on: whether "
        "it addresses the main points of the question, with what the documents provide, and keeps to them."
    )
    # Without documents: the same measure of the question and response alone.
    TASK_WITHOUT_CONTEXTS: ClassVar[str] = (
        "You rate the relevance of a response to a question: whether it addresses the main points of the "
        "question, and keeps to them."
    )
    LEVELS = (
        "unrelated to the question",
        "touches the question but misses its main points",
        "partly answers: some main points are addressed, others are missing or off the subject",
        "addresses the main points, with small gaps or some unneeded content",
        "addresses all the main points of the question, and only those",
    )

    def __init__(self, name: str | None = None, with_retrieved_contexts: bool = True, **options: Any) -> None:
        super().__init__(name, **options)
        if with_retrieved_contexts not in (True, False):
            raise ValueError(
                f"Relevance: with_retrieved_contexts must be True or False, got {with_retrieved_contexts!r}"
            )
        self.with_retrieved_contexts = with_retrieved_contexts
        if not with_retrieved_contexts:
            self.required = ("user_input", "response")
            self._instructions(self.TASK_WITHOUT_CONTEXTS)


class Similarity(_Rated):
    """promptflow-evals 0.3.5 ``SimilarityEvaluator``'s measure: how close the response is in meaning to
    the reference answer to the question. Fields ``user_input``, ``response`` and ``reference``. Scale 1-5
    integers, higher = closer. One request per row."""

    name = "similarity"
    required: tuple[str, ...] = ("user_input", "response", "reference")
    TASK: ClassVar[str] = (
        "You rate how similar in meaning a response is to a reference answer to the same question: whether "
        "it gives the same information and conclusions, whatever the wording."
    )
    LEVELS = (
        "not similar: different or contradicting information",
        "mostly different, with a little shared information",
        "somewhat similar: shares some key information, misses or changes the rest",
        "mostly similar: the same key information, with small differences",
        "equivalent in meaning to the reference",
    )


class Retrieval(_Rated):
    """promptflow-evals 0.3.5 ``RetrievalChatEvaluator``'s per-turn measure (``gpt_retrieval``): how useful
    the retrieved documents are for answering the question, read in the light of the conversation so far.
    Fields ``user_input`` (the question, or the conversation up to it) and ``retrieved_contexts``. Scale 1-5
    integers, higher = more relevant documents. One request per row (per turn of a chat, as promptflow)."""

    name = "retrieval"
    required: tuple[str, ...] = ("user_input", "retrieved_contexts")
    TASK: ClassVar[str] = (
        "You rate the documents a search returned for a question: how useful they are, alone or together, "
        "as the source of an answer to it. Where the question is unclear, the conversation before it says "
        "what it means. Consider each document, then the set as a whole."
    )
    LEVELS = (
        "none of the documents is relevant to the question",
        "the documents touch the subject but do not help to answer the question",
        "some documents are relevant but leave important parts of the question unanswered",
        "the documents cover most of what the question needs",
        "one document, or several together, answer the question fully",
    )


def mean_over_turns(results: Sequence[MetricResult]) -> float | None:
    """promptflow-evals 0.3.5 ``ChatEvaluator``'s per-conversation score: the mean (``np.mean``, as its
    ``np.nanmean``) of the values of the turns that scored (``ok``); None when no turn did. A turn that
    failed is left out of the mean, as promptflow leaves out its NaN."""
    values = [r.value for r in results if r.status == "ok"]
    return float(np.mean(values)) if values else None
