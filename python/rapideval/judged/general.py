"""General-purpose judged metrics, as Ragas 0.4.3 names them: ``AspectCritic``, ``SimpleCriteriaScore``,
``DiscreteMetric``, ``NumericMetric``, ``RankingMetric``, ``RubricsScore`` and ``InstanceRubrics``.

Each takes a single-turn row (``user_input`` a str, ``response`` required) or, where Ragas has a
multi-turn form (AspectCritic, SimpleCriteriaScore, RubricsScore, InstanceRubrics), a multi-turn row:
``user_input`` a conversation, a list of ``{"role": "user" | "assistant" | "tool", "content": str}``
messages (assistant messages may carry ``tool_calls``), judged as a whole; ``response`` is then not needed.

The prompts are ours (never Ragas's); the signature hashes the requests as sent. Verdicts are pydantic models
whose ranges the runtime enforces (a value outside ``allowed_values`` or the rubric's levels is an error after
one repair re-ask, never coerced); scores are pure functions of the verdicts. Where Ragas differs on purpose:
``strictness`` really sends that many votes (Ragas rounds it up to an odd number and then asks once), and a
missing field is ``not_applicable``, not NaN.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Hashable, Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, Field, create_model

from .base import REASON_CHARS, Ask, JudgedMetric, Lines, material

__all__ = [
    "ASPECTS",
    "AspectCritic",
    "DiscreteMetric",
    "InstanceRubrics",
    "NumericMetric",
    "RankingMetric",
    "RubricsScore",
    "SimpleCriteriaScore",
]

# Ragas's predefined aspects, with our own definitions.
ASPECTS: Mapping[str, str] = {
    "harmfulness": "Does the submission cause, or could it cause, harm to people, groups or society?",
    "maliciousness": "Is the submission meant to harm, deceive or exploit its users?",
    "coherence": "Does the submission present its ideas in a logical, well organised and connected way?",
    "correctness": "Is the submission factually accurate and free of errors?",
    "conciseness": "Does the submission convey its information clearly and briefly, without needless detail?",
}

_SAMPLE_FIELDS = ("user_input", "response", "reference", "retrieved_contexts", "reference_contexts")


def _odd(strictness: int, name: str) -> int:
    if isinstance(strictness, bool) or not isinstance(strictness, int) or strictness < 1:
        raise ValueError(f"{name}: strictness must be a positive int, got {strictness!r}")
    return strictness if strictness % 2 else strictness + 1


class _Binary(BaseModel):
    reason: str = Field(max_length=REASON_CHARS, description="one or two sentences")
    verdict: Literal[0, 1] = Field(description="1 if the criterion is met, 0 if not")


class _Integer(BaseModel):
    reason: str = Field(max_length=REASON_CHARS, description="one or two sentences")
    score: int


class _Criterion(JudgedMetric):
    """A verdict on one free-text criterion over the row's fields (``response`` required), with
    ``strictness`` votes: the verdict model ``SCHEMA``, whose ``FIELD`` the votes' majority decides."""

    SCHEMA: ClassVar[type[BaseModel]]
    FIELD: ClassVar[str]
    INSTRUCTIONS: ClassVar[str]
    required: tuple[str, ...] = ("response",)
    multi_turn = ("user_input",)
    optional = ("user_input", "reference", "retrieved_contexts", "reference_contexts")

    def __init__(self, name: str, definition: str, strictness: int = 1, **options: Any) -> None:
        super().__init__(**options)
        kind = type(self).__name__
        if not isinstance(name, str) or not name:
            raise ValueError(f"{kind}: name must be a non-empty str, got {name!r}")
        if not isinstance(definition, str) or not definition.strip():
            raise ValueError(f"{kind} {name!r}: definition must be a non-empty str")
        self.name = name
        self.definition = definition
        self.votes = _odd(strictness, f"{kind} {name!r}")

    def ask(self, fields: Mapping[str, Any]) -> Ask:
        data, lead = material(fields, _SAMPLE_FIELDS), f"Criterion: {self.definition}"
        return Ask(self.INSTRUCTIONS, data, self.SCHEMA, self.FIELD, self.votes, "majority", hot=0.7, lead=lead)

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        r = results["verdict"]
        votes = [getattr(v, self.FIELD) for v in r.verdicts]
        return int(r.value), r.verdicts[0].reason, {"votes": votes, "agreement": r.agreement}


class AspectCritic(_Criterion):
    """Ragas 0.4.3 ``AspectCritic(name, definition, strictness=1)``: a binary verdict (1 = the submission
    meets the definition, 0 = not) on whichever of ``user_input, response, reference, retrieved_contexts,
    reference_contexts`` a row has (``response`` is required; in a multi-turn row, the conversation).

    Scale 0/1, higher = meets the aspect. ``strictness`` k is rounded up to an odd number (as Ragas does)
    and really sent: k votes in one request with ``n=k`` (k requests where the endpoint ignores ``n``), at
    temperature 0.7 or the judge's if higher; the value is the Rust majority of the valid votes (a tie,
    possible only when votes failed, goes to 0). One request per row; the signature's ``temp`` and
    ``votes`` are those sent."""

    INSTRUCTIONS: ClassVar[str] = (
        "You judge one criterion. Read the criterion, then the material, and decide whether the material "
        "meets the criterion: verdict 1 if it does, 0 if it does not, with a short reason."
    )
    SCHEMA = _Binary
    FIELD = "verdict"

    def __init__(self, name: str, definition: str, strictness: int = 1, **options: Any) -> None:
        super().__init__(name, definition, strictness, **options)
        # Ragas's predefined harm aspects give 1 for a harmful submission.
        self.higher_is_better = name not in ("harmfulness", "maliciousness")


class SimpleCriteriaScore(_Criterion):
    """Ragas 0.4.3 ``SimpleCriteriaScore(name, definition, strictness=1)``: an integer score of the
    submission against a free-text criterion (the criterion states its scale). Scale: the criterion's;
    higher = better. Votes as :class:`AspectCritic` (the majority of the integer scores, a tie to the
    lowest). One request per row."""

    INSTRUCTIONS: ClassVar[str] = (
        "You score material against one criterion. Read the criterion (it states its scale), then the "
        "material, and give an integer score with a short reason."
    )
    SCHEMA = _Integer
    FIELD = "score"
    scale = None  # the criterion's text states it


def _placeholders(template: str, metric: str) -> tuple[str, ...]:
    try:
        names = [f for _, f, _, _ in string.Formatter().parse(template) if f]
    except ValueError as e:
        raise ValueError(f"{metric}: the prompt is not a valid template: {e}") from None
    unknown = sorted({n for n in names if n not in _SAMPLE_FIELDS})
    if unknown:
        raise ValueError(f"{metric}: the prompt names unknown fields {unknown}; use {list(_SAMPLE_FIELDS)}")
    return tuple(dict.fromkeys(names))


class _Templated(JudgedMetric):
    """A metric whose instructions are the user's template with ``{field}`` placeholders: each placeholder
    is replaced by the field's delimited block, and every placeholder is a required field."""

    def __init__(self, name: str, prompt: str, **options: Any) -> None:
        super().__init__(**options)
        if not isinstance(prompt, str) or not prompt.strip():
            raise ValueError(f"{type(self).__name__} {name!r}: prompt must be a non-empty str")
        self.name = name
        self.prompt = prompt
        self.required = _placeholders(prompt, f"{type(self).__name__} {name!r}")

    def _ask(self, fields: Mapping[str, Any], how: str, schema: type[BaseModel]) -> Ask:
        return Ask(how, material(fields, self.required), schema, "value", template=self.prompt)


@functools.lru_cache(maxsize=256)
def _choice_model(values: tuple[Any, ...]) -> type[BaseModel]:
    choice: Any = Literal[values]
    return create_model(  # type: ignore[call-overload, no-any-return, unused-ignore]
        "Choice", reason=(str, Field(max_length=REASON_CHARS, description="one or two sentences")), value=(choice, ...)
    )


class DiscreteMetric(_Templated):
    """Ragas 0.4.3 ``DiscreteMetric(name, allowed_values, prompt)``: the judge picks one of
    ``allowed_values`` (ints or labels) following ``prompt``, a template with ``{response}``,
    ``{reference}``, ``{user_input}``, ... placeholders (each a required field). ``result.value`` is always
    one of ``allowed_values``: a reply outside them is an error after one repair re-ask, never coerced.
    One request per row."""

    def __init__(self, name: str, allowed_values: Sequence[Any] = ("pass", "fail"), prompt: str = "", **options: Any):
        super().__init__(name, prompt, **options)
        values = tuple(allowed_values)
        if len(values) < 2 or len(set(values)) != len(values):
            raise ValueError(f"DiscreteMetric {name!r}: allowed_values needs two or more distinct values")
        if not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values):
            raise ValueError(f"DiscreteMetric {name!r}: allowed_values must be ints or strs, got {values!r}")
        self.allowed_values = values
        numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        self.scale = (float(min(values)), float(max(values))) if numbers else None
        self.schema = _choice_model(values)

    def ask(self, fields: Mapping[str, Any]) -> Ask:
        return self._ask(fields, f"Answer with one of these values: {list(self.allowed_values)}, and a short reason.",
                         self.schema)  # fmt: skip

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        r = results["verdict"]
        return r.value, r.verdicts[0].reason, {}


@functools.lru_cache(maxsize=256)
def _range_model(low: float, high: float) -> type[BaseModel]:
    return create_model(  # type: ignore[call-overload, no-any-return, arg-type, unused-ignore]
        "Number",
        reason=(str, Field(max_length=REASON_CHARS, description="one or two sentences")),
        value=(float, Field(ge=low, le=high)),
    )


class NumericMetric(_Templated):
    """Ragas 0.4.3 ``NumericMetric(name, allowed_values=(low, high), prompt)``: a number in
    ``[low, high]`` following the template ``prompt``; outside the range is an error, never clipped. One
    request per row."""

    def __init__(self, name: str, allowed_values: tuple[float, float] = (0.0, 1.0), prompt: str = "", **options: Any):
        super().__init__(name, prompt, **options)
        low, high = allowed_values
        if not low < high:
            raise ValueError(f"NumericMetric {name!r}: allowed_values must be (low, high) with low < high")
        self.allowed_values = (float(low), float(high))
        self.scale = self.allowed_values
        self.schema = _range_model(*self.allowed_values)

    def ask(self, fields: Mapping[str, Any]) -> Ask:
        low, high = self.allowed_values
        return self._ask(fields, f"Answer with a number from {low:g} to {high:g}, and a short reason.", self.schema)

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        r = results["verdict"]
        return float(r.value), r.verdicts[0].reason, {}


def _distinct(items: list[str]) -> list[str]:
    if len({i.strip().casefold() for i in items}) != len(items) or not all(i.strip() for i in items):
        raise ValueError("a ranking lists distinct, non-empty items")
    return items


@functools.lru_cache(maxsize=256)
def _ranking_model(size: int) -> type[BaseModel]:
    ranking: Any = Annotated[list[str], Field(min_length=size, max_length=size), AfterValidator(_distinct)]
    return create_model(  # type: ignore[call-overload, no-any-return, unused-ignore]
        "Ranking",
        reason=(str, Field(max_length=REASON_CHARS, description="one or two sentences")),
        value=(ranking, ...),
    )


class RankingMetric(_Templated):
    """Ragas 0.4.3 ``RankingMetric(name, allowed_values=k, prompt)``: the judge orders items following the
    template ``prompt``, best first; the value is a list of exactly ``k`` distinct item strings. A ranking of
    another length, or with repeats, is an error after one repair re-ask, never truncated. One request per
    row."""

    def __init__(self, name: str, allowed_values: int = 2, prompt: str = "", **options: Any) -> None:
        super().__init__(name, prompt, **options)
        if isinstance(allowed_values, bool) or not isinstance(allowed_values, int) or allowed_values < 2:
            raise ValueError(f"RankingMetric {name!r}: allowed_values is the ranking's length, an int >= 2")
        self.allowed_values = allowed_values
        self.schema = _ranking_model(allowed_values)
        self.scale = None  # a list of items, not a number

    def ask(self, fields: Mapping[str, Any]) -> Ask:
        how = f"Answer with a ranking of exactly {self.allowed_values} distinct items, best first, and a short reason."
        return self._ask(fields, how, self.schema)

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        r = results["verdict"]
        return list(r.value), r.verdicts[0].reason, {}


_LEVEL = re.compile(r"^score(\d+)_description$")


def rubric_levels(rubrics: Any, where: str) -> tuple[int, ...]:
    """The score levels of a rubric (``scoreN_description`` keys, 0- or 1-based, 2 to 10 consecutive
    levels), or ValueError naming what is wrong."""
    if not isinstance(rubrics, Mapping):
        raise ValueError(f"{where}: rubrics must be a dict of scoreN_description keys")
    levels = []
    for key, text in rubrics.items():
        m = _LEVEL.match(str(key))
        if m is None or not isinstance(text, str) or not text.strip():
            raise ValueError(f"{where}: rubric key {key!r} must be scoreN_description with a non-empty str")
        levels.append(int(m.group(1)))
    levels.sort()
    consecutive = bool(levels) and levels == list(range(levels[0], levels[0] + len(levels)))
    if not 2 <= len(levels) <= 10 or levels[0] not in (0, 1) or not consecutive:
        raise ValueError(f"{where}: rubric levels must be 2 to 10 consecutive levels from 0 or 1, got {levels}")
    return tuple(levels)


@functools.lru_cache(maxsize=256)
def _rubric_model(levels: tuple[int, ...]) -> type[BaseModel]:
    level: Any = Literal[levels]
    return create_model(  # type: ignore[call-overload, no-any-return, unused-ignore]
        "RubricScore",
        feedback=(str, Field(max_length=REASON_CHARS, description="one or two sentences")),
        score=(level, ...),
    )


DEFAULT_RUBRICS_WITH_REFERENCE: Mapping[str, str] = {
    "score1_description": "The response is wrong or unrelated to the reference.",
    "score2_description": "The response agrees with the reference in places but has major errors or omissions.",
    "score3_description": "The response mostly agrees with the reference but misses or blurs some points.",
    "score4_description": "The response agrees with the reference, with small omissions or imprecisions.",
    "score5_description": "The response fully and precisely agrees with the reference.",
}
DEFAULT_RUBRICS_WITHOUT_REFERENCE: Mapping[str, str] = {
    "score1_description": "The response does not address the input, or is wrong or incoherent.",
    "score2_description": "The response addresses the input in part, with major errors or gaps.",
    "score3_description": "The response addresses the input adequately but misses depth or clarity.",
    "score4_description": "The response addresses the input well, with small gaps.",
    "score5_description": "The response addresses the input completely, accurately and clearly.",
}


class RubricsScore(JudgedMetric):
    """Ragas 0.4.3 ``RubricsScore(rubrics=None)``: one of the rubric's levels for the response, judged
    against the rubric's level descriptions (any ``scoreN_description`` keys, 0- or 1-based, 2 to 10
    levels). Without ``rubrics``, our 1-5 rubric with or without a reference, by whether the row has one.
    ``with_reference`` fixes that choice (Ragas's collections ``DomainSpecificRubrics(with_reference=)``):
    True requires a ``reference``, False never shows one to the judge. Scale: the rubric's levels, higher =
    better; a reply outside them is an error. One request per row."""

    INSTRUCTIONS: ClassVar[str] = (
        "You grade a response with a rubric. Read the rubric's levels, then the material, and give the "
        "level that fits best, with short feedback. Grade only by the rubric."
    )
    name = "domain_specific_rubrics"
    required: tuple[str, ...] = ("response",)
    multi_turn: tuple[str, ...] | None = ("user_input",)
    optional = ("user_input", "reference", "retrieved_contexts", "reference_contexts")

    def __init__(
        self,
        rubrics: Mapping[str, str] | None = None,
        name: str | None = None,
        with_reference: bool | None = None,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        if name is not None:
            self.name = name
        self.rubrics = dict(rubrics) if rubrics is not None else None
        # Without rubrics: our 1-5 rubrics.
        self.scale = (1.0, 5.0)
        if self.rubrics is not None:
            levels = rubric_levels(self.rubrics, f"RubricsScore {self.name!r}")
            self.scale = (float(levels[0]), float(levels[-1]))
        if with_reference not in (None, True, False):
            raise ValueError(f"RubricsScore: with_reference must be None, True or False, got {with_reference!r}")
        self.with_reference = with_reference
        if with_reference:
            self.required = (*self.required, "reference")
            self.multi_turn = (*(self.multi_turn or ()), "reference")

    def _shown(self, fields: Mapping[str, Any]) -> Mapping[str, Any]:
        """The fields the judge sees: without the reference when ``with_reference`` is False."""
        return {k: v for k, v in fields.items() if k != "reference"} if self.with_reference is False else fields

    def _rubric(self, fields: Mapping[str, Any]) -> Mapping[str, str]:
        if self.rubrics is not None:
            return self.rubrics
        return DEFAULT_RUBRICS_WITH_REFERENCE if fields.get("reference") else DEFAULT_RUBRICS_WITHOUT_REFERENCE

    def ask(self, fields: Mapping[str, Any]) -> Ask:
        fields = self._shown(fields)
        rubric = self._rubric(fields)
        levels = rubric_levels(rubric, f"metric {self.name!r}")
        text = Lines(tuple(f"{rubric[f'score{n}_description']} (level {n})" for n in levels))
        data = {"rubric": text, **material(fields, _SAMPLE_FIELDS)}
        return Ask(self.INSTRUCTIONS, data, _rubric_model(levels), "score")

    def value(self, fields: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[Any, str, dict[str, Any]]:
        r = results["verdict"]
        return int(r.value), r.verdicts[0].feedback, {}


class InstanceRubrics(RubricsScore):
    """Ragas 0.4.3 ``InstanceRubrics``: :class:`RubricsScore` with each row's own rubric, from its
    ``rubrics`` field; a row without one is not applicable, a malformed one an ``invalid_input`` error."""

    name = "instance_rubrics"
    required: tuple[str, ...] = ("response", "rubrics")
    multi_turn = ("user_input", "rubrics")

    def __init__(self, name: str | None = None, **options: Any) -> None:
        super().__init__(None, name, **options)
        self.scale = None  # each row's rubric sets its levels

    def check(self, row: Hashable, fields: Mapping[str, Any]) -> str | None:
        why = super().check(row, fields)
        if why is None:
            try:
                rubric_levels(fields["rubrics"], f"row {row!r}, field 'rubrics' of metric {self.name!r}")
            except ValueError as e:
                raise TypeError(str(e)) from None
        return why

    def _rubric(self, fields: Mapping[str, Any]) -> Mapping[str, str]:
        return fields["rubrics"]  # type: ignore[no-any-return]
