"""Requests several RAG metrics share: the statements of a text, and whether a premise supports each
statement (one request for all statements, and one for all statements against every context).

A request depends only on the texts it reads (never on the metric or the question), so Faithfulness,
NoiseSensitivity, FactualCorrectness and AnswerCorrectness ask for a row's statements once per evaluation
(:func:`~rapideval.judged.base.score_rows` sends equal requests once) and a rerun reads them from the cache.
Verdict lists have exactly one entry per statement (per context): a reply with a missing or extra verdict is
re-asked once, then an error, never a shorter denominator.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, create_model

from .base import ITEM_REASON_CHARS, STATEMENT_CHARS, Ask, Lines

__all__ = ["exact_verdicts", "item_chars", "list_bound", "numbered", "statements", "support", "support_by_context"]

Atomicity = Literal["low", "high"]
Coverage = Literal["low", "high"]


def list_bound(text: str) -> int:
    """The most items a list drawn from ``text`` may hold (statements, sentences, entities): one per 30
    characters (a short clause), at least 4, at most 100. A bound in the schema stops a judge that repeats
    itself, where a grammar-constrained model would otherwise write until ``max_tokens``."""
    return max(4, min(100, len(text) // 30 + 2))


def item_chars(text: str) -> int:
    """The longest item drawn from ``text`` (a statement, a sentence): the text itself with its references
    spelled out (60 characters more), at most :data:`STATEMENT_CHARS`. With :func:`list_bound` this keeps a
    reply's worst case a few times the text, so it ends within a small local server's context."""
    return min(STATEMENT_CHARS, len(text) + 60)


@functools.lru_cache(maxsize=128)
def _statements_model(bound: int, chars: int) -> type[BaseModel]:
    statement = Annotated[str, Field(max_length=chars)]
    statements: Any = Annotated[list[statement], Field(max_length=bound)]
    return create_model(
        "Statements", statements=(statements, Field(description="standalone statements; empty if none"))
    )


STATEMENTS_PROMPT = (
    "You break a text into statements. Each statement is one claim the text makes, written as a full "
    "sentence that can be understood alone: replace pronouns and references with what they stand for. Keep "
    "the text's meaning; add nothing. A text that states nothing (a refusal, a question) has no statements."
)
_ATOMICITY = {"low": "", "high": " Split every claim into its smallest facts: one fact per statement."}
_COVERAGE = {"low": "", "high": " Cover every detail of the text, including numbers, dates and qualifiers."}


def statements(text: str, atomicity: Atomicity = "low", coverage: Coverage = "low") -> Ask:
    """The request for the statements of ``text`` (reply: ``statements``, a list of str). ``atomicity`` and
    ``coverage`` ``"high"`` ask for finer and fuller statements (FactualCorrectness's options)."""
    instructions = f"{STATEMENTS_PROMPT}{_ATOMICITY[atomicity]}{_COVERAGE[coverage]}"
    schema = _statements_model(list_bound(text), item_chars(text))
    return Ask(instructions, {"text": text}, schema, label="statements")


class _Verdict(BaseModel):
    reason: str = Field(max_length=ITEM_REASON_CHARS, description="one short sentence")
    verdict: Literal[0, 1] = Field(description="1 if the premise supports the statement, else 0")


@functools.lru_cache(maxsize=512)
def _verdicts_model(count: int) -> type[BaseModel]:
    verdicts: Any = Annotated[list[_Verdict], Field(min_length=count, max_length=count)]
    return create_model("Verdicts", verdicts=(verdicts, ...))


SUPPORT_PROMPT = (
    "You check statements against a premise, the first block. For each numbered statement, in order, give "
    "verdict 1 if the premise supports it (it states it, or it follows directly from it) and 0 if the "
    "premise contradicts it or does not say, with a short reason. Judge by the premise alone, not by what "
    "you know. Give exactly one verdict per statement."
)


def numbered(claims: Sequence[str]) -> Lines:
    """The claims numbered from 1, one line each (they come from untrusted text: a line break in a claim
    cannot start a line that reads as another item)."""
    return Lines(tuple(f"{k + 1}. {s}" for k, s in enumerate(claims)))


def support(claims: Sequence[str], premise: str | Sequence[str], name: str) -> Ask:
    """Whether ``premise`` (a text, or contexts read together) supports each of ``claims``: a reply with
    ``verdicts``, one ``{reason, verdict}`` per claim, in order. ``name`` labels the premise's block
    (``reference``, ``response``, ``retrieved_contexts``)."""
    data = {name: premise, "statements": numbered(claims)}
    return Ask(SUPPORT_PROMPT, data, _verdicts_model(len(claims)), label="support")


def exact_verdicts(count: int) -> Any:
    """The type of a list of exactly ``count`` 0/1 verdicts."""
    return Annotated[list[Literal[0, 1]], Field(min_length=count, max_length=count)]


@functools.lru_cache(maxsize=512)
def _matrix_model(contexts: int, count: int) -> type[BaseModel]:
    per_context = exact_verdicts(count)
    bounds = Field(min_length=contexts, max_length=contexts)
    rows: Any = Annotated[list[per_context], bounds]  # type: ignore[valid-type]
    return create_model("SupportByContext", contexts=(rows, ...))


MATRIX_PROMPT = (
    "You check statements against each context separately. For each context, in order, give a "
    "list with one verdict per numbered statement, in order: 1 if that context alone supports the statement "
    "(it states it, or it follows directly from it), 0 if not. Judge by the context alone. "
)


def support_by_context(claims: Sequence[str], contexts: Sequence[str]) -> Ask:
    """Whether each context, on its own, supports each claim: a reply with ``contexts``, one list of 0/1
    verdicts per context, one verdict per claim (a contexts x claims matrix in one request)."""
    data = {"retrieved_contexts": contexts, "statements": numbered(claims)}
    return Ask(MATRIX_PROMPT, data, _matrix_model(len(contexts), len(claims)), label="support_by_context")
