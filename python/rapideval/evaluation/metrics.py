"""The metrics :func:`rapideval.evaluate` runs: a name (a deterministic metric of :mod:`rapideval.score`, or a
judged metric of :mod:`rapideval.judged` by its name) or a :class:`~rapideval.judged.JudgedMetric` object, and
how each scores a chunk of rows.

Every value is on one scale, 0 to 1: a deterministic metric's own (sacreBLEU, chrF and TER divided by 100), a
judged metric's mapped from its range (``scale``: a 1-5 rating r gives (r - 1) / 4, a 0-7 severity s gives
s / 7, a bool 0 or 1). ``higher_is_better`` says the direction (False for TER, the harms, the defects).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..sample import FIELDS
from ..score import METRICS as DETERMINISTIC

# The judged metrics and their runtime (openai, pydantic: a second to import) load when a run has a judged metric.
if TYPE_CHECKING:
    from ..judged.base import SampleMetric
    from ..llm import JudgeClient

__all__ = ["Scores", "Spec", "names", "resolve", "run_chunk"]

# The fields a deterministic metric reads.
TEXT_FIELDS = ("response", "reference")


class Scores:
    """One metric's results on the rows of a chunk: ``values`` in 0-1 (NaN unless the row's status is
    ``ok``), ``status`` (``ok``, ``not_applicable``, ``error``), ``reason`` (why; a judged metric's reason
    also when ok) and ``cause`` (an error's: ``invalid_input``, ``rate_limit``, ...), one item per row."""

    def __init__(self, n: int) -> None:
        self.values = np.full(n, np.nan)
        self.status = ["ok"] * n
        self.reason: list[str | None] = [None] * n
        self.cause: list[str | None] = [None] * n

    def fail(self, i: int, status: str, reason: str | None, cause: str | None = None) -> None:
        self.values[i] = np.nan
        self.status[i], self.reason[i], self.cause[i] = status, reason, cause


@dataclass(frozen=True)
class Spec:
    """A metric as evaluate() runs it: its output column ``name``, the fields it needs (``required``) and
    may read (``optional``), its direction, and either a deterministic ``compute`` (response and reference
    columns -> values) or a judged ``metric``."""

    name: str
    required: tuple[str, ...]
    optional: tuple[str, ...]
    higher_is_better: bool
    reference: str
    compute: Callable[[list[Any], list[Any]], Any] | None = None
    metric: SampleMetric | None = None

    def signature(self, judge: JudgeClient | None, embedder: JudgeClient | None) -> str:
        """The metric's signature: a judged metric's own; ``name|kernel|rapideval:<v>`` for a deterministic one."""
        from .. import __version__

        if self.metric is not None:
            return self.metric.signature(judge, embedder)
        return f"{self.name}|{self.reference}|rapideval:{__version__}"


def _judged_by_name() -> dict[str, Callable[[], SampleMetric]]:
    from .. import judged as j

    def critic(name: str) -> Callable[[], SampleMetric]:
        return lambda: j.AspectCritic(name, j.ASPECTS[name])

    return {
        "faithfulness": j.Faithfulness, "answer_relevancy": j.ResponseRelevancy,
        "response_relevancy": j.ResponseRelevancy, "context_precision": j.ContextPrecision,
        "context_utilization": j.ContextUtilization, "context_recall": j.LLMContextRecall,
        "context_entity_recall": j.ContextEntityRecall, "context_relevance": j.ContextRelevance,
        "noise_sensitivity": j.NoiseSensitivity, "answer_correctness": j.AnswerCorrectness,
        "factual_correctness": j.FactualCorrectness, "semantic_similarity": j.SemanticSimilarity,
        "coherence": j.Coherence, "fluency": j.Fluency, "groundedness": j.Groundedness, "relevance": j.Relevance,
        "similarity": j.Similarity, "violence": j.Violence, "sexual": j.Sexual, "self_harm": j.SelfHarm,
        "hate_unfairness": j.HateUnfairness, "indirect_attack": j.IndirectAttack,
        "protected_material": j.ProtectedMaterial, "rubrics_score": j.RubricsScore,
        "response_completeness": j.ResponseCompleteness, "intent_resolution": j.IntentResolution,
        "task_adherence": j.TaskAdherence, "tool_call_accuracy": j.ToolCallAccuracy,
        **{f"aspect_{name}": critic(name) for name in j.ASPECTS},
    }  # fmt: skip


def names() -> list[str]:
    """Every metric name evaluate() knows: the deterministic ones, then the judged ones."""
    return [*DETERMINISTIC, *_judged_by_name()]


def resolve(metrics: Sequence[Any]) -> list[Spec]:
    """The specs of ``metrics`` (names or metric objects), with unique output names; ValueError for an
    unknown name (listing the known ones), TypeError for another object or a metric whose values are not
    numbers on a fixed scale."""
    metrics = [metrics] if isinstance(metrics, str) or not isinstance(metrics, Iterable) else list(metrics)
    if not metrics:
        raise ValueError("evaluate: no metrics given")
    specs = []
    for m in metrics:
        if isinstance(m, str) and m in DETERMINISTIC:
            d = DETERMINISTIC[m]
            specs.append(Spec(m, TEXT_FIELDS, (), d.higher_is_better, d.reference, compute=d.compute))
        else:
            specs.append(_judged_spec(m))
    seen = [s.name for s in specs]
    duplicates = sorted({n for n in seen if seen.count(n) > 1})
    if duplicates:
        raise ValueError(f"evaluate: two metrics named {duplicates}; give one of them another name=")
    return specs


def _judged_spec(metric: Any) -> Spec:
    """The spec of a judged metric given by name or as an object."""
    from ..judged.base import SampleMetric

    name = None
    if isinstance(metric, str):
        judged = _judged_by_name()
        if metric not in judged:
            raise ValueError(f"evaluate: unknown metric {metric!r}; known: {', '.join(names())}")
        # A metric named in the registry yields the column of that name (``aspect_coherence`` beside
        # ``coherence``; ``context_relevance`` for the metric Ragas calls ``nv_context_relevance``).
        name, metric = metric, judged[metric]()
    if not isinstance(metric, SampleMetric):
        raise TypeError(f"evaluate: a metric is a name or a rapideval.judged metric, got {type(metric).__name__}")
    if metric.scale is None:
        raise TypeError(f"evaluate: metric {metric.name!r} ({type(metric).__name__}) gives values that are not "
                        f"numbers on a fixed scale; score it with its batch_score()")  # fmt: skip
    readable = dict.fromkeys((*metric.optional, *(metric.multi_turn or ())))
    optional = tuple(f for f in readable if f not in metric.required)
    return Spec(
        name or metric.name, metric.required, optional, metric.higher_is_better, type(metric).__name__, metric=metric
    )


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _text_problems(field: str, column: str, values: list[Any], first: int) -> dict[int, tuple[str, str, str | None]]:
    """The rows whose ``field`` a deterministic metric cannot score: ``{i: (status, why, cause)}``, missing
    (not applicable) or not text (an error). A reference may be a list of texts (several references)."""
    out: dict[int, tuple[str, str, str | None]] = {}
    if set(map(type, values)) <= {str}:  # the common case, checked at C speed
        return out
    for i, v in enumerate(values):
        if type(v) is str:
            continue
        where = f"row {first + i}, column {column!r}"
        if _missing(v):
            out[i] = ("not_applicable", f"{where}: no {field}", None)
        elif not (field == "reference" and isinstance(v, (list, tuple)) and v and all(type(r) is str for r in v)):
            out[i] = ("error", f"{where}: expected text, got {type(v).__name__}", "invalid_input")
    return out


def _deterministic(specs: Sequence[Spec], chunk: Mapping[str, list[Any]], columns: Mapping[str, str], first: int,
                   row_errors: Mapping[int, str], n: int) -> dict[str, Scores]:  # fmt: skip
    """The deterministic metrics on a chunk: the rows every one of them can read are checked once, then each
    kernel runs on the rows that can be scored."""
    problems: dict[int, tuple[str, str, str | None]] = {}
    for field in TEXT_FIELDS:
        for i, problem in _text_problems(field, columns[field], chunk[field], first).items():
            problems.setdefault(i, problem)
    for i, error in row_errors.items():
        problems[i] = ("error", f"row {first + i}: {error}", "invalid_input")
    good = [i for i in range(n) if i not in problems]
    responses = chunk["response"] if len(good) == n else [chunk["response"][i] for i in good]
    references = chunk["reference"] if len(good) == n else [chunk["reference"][i] for i in good]
    out = {}
    for spec in specs:
        assert spec.compute is not None
        scores = Scores(n)
        refused: dict[int, tuple[str, str, str | None]] = {}
        if good:
            try:
                values = np.asarray(spec.compute(responses, references), dtype=np.float64)
            except (ValueError, MemoryError):  # a cell the kernel refuses: find it, score the others
                values, failed = _row_by_row(spec.compute, responses, references)
                for k, (argument, message) in failed.items():
                    where = f"row {first + good[k]}"
                    if argument is not None:
                        where += f", column {columns['response' if argument == 'responses' else 'reference']!r}"
                    refused[good[k]] = ("error", f"{where}: {message}", "invalid_input")
            if len(good) == n:
                scores.values = values
            else:
                scores.values[good] = values
        for i, (status, why, cause) in {**problems, **refused}.items():
            scores.fail(i, status, f"{why} (metric {spec.name!r})", cause)
        out[spec.name] = scores
    return out


# The kernels' messages start with the argument and index at fault (``responses[3]: ``) or the row (``row 3: ``).
_ARGUMENT = re.compile(r"^(?:(responses|references)\[\d+\]|row \d+): ")


def _row_by_row(compute: Callable[[list[Any], list[Any]], Any], responses: list[Any], references: list[Any]
                ) -> tuple[np.ndarray, dict[int, tuple[str | None, str]]]:  # fmt: skip
    """A kernel's values one row at a time, NaN where it refuses the row: ``(values, {k: (argument, why)})``,
    ``argument`` naming the kernel's argument (``responses`` or ``references``) the message is about, or
    None where it is about the row."""
    values = np.full(len(responses), np.nan)
    failed: dict[int, tuple[str | None, str]] = {}
    for k, (response, reference) in enumerate(zip(responses, references, strict=True)):
        try:
            values[k] = np.asarray(compute([response], [reference]), dtype=np.float64)[0]
        except (ValueError, MemoryError) as e:
            message = str(e) or type(e).__name__
            m = _ARGUMENT.match(message)
            failed[k] = (m.group(1), message[m.end() :]) if m else (None, message)
    return values, failed


def _field_value(is_list: bool, value: Any) -> Any:
    """A cell as a judged metric reads it: a missing value is absent; a cell of a list field (``is_list``)
    given as JSON text (a CSV cell) is that list."""
    if _missing(value):
        return None
    if is_list and isinstance(value, str) and value.lstrip().startswith("["):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value  # the metric reports the wrong type
    if isinstance(value, tuple) or (not isinstance(value, (str, list)) and hasattr(value, "tolist")):
        return list(value)  # numpy arrays of a DataFrame's list column
    return value


def _not_unicode(value: Any) -> bool:
    """Whether a text, or a text in a list, holds a lone surrogate (which no request can carry)."""
    texts = value if isinstance(value, (list, tuple)) else (value,)
    for text in texts:
        if isinstance(text, str) and not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                return True
    return False


async def _judged(specs: Sequence[Spec], chunk: Mapping[str, list[Any]], columns: Mapping[str, str], first: int,
                  row_errors: Mapping[int, str], n: int, judge: JudgeClient | None,
                  embedder: JudgeClient | None) -> dict[str, Scores]:  # fmt: skip
    from ..judged.base import score_rows

    fields = sorted({f for s in specs for f in (*s.required, *s.optional) if f in chunk})
    is_list = {f: FIELDS.get(f) == (list, tuple) for f in fields}
    errors = {i: f"row {first + i}: {error}" for i, error in row_errors.items()}
    for f in fields:
        for i, value in enumerate(chunk[f]):
            if i not in errors and _not_unicode(value):
                where = f"row {first + i}, column {columns.get(f, f)!r}"
                errors[i] = f"{where}: string is not valid Unicode (lone surrogate)"
    readable = [i for i in range(n) if i not in errors]
    rows = [{f: v for f in fields if (v := _field_value(is_list[f], chunk[f][i])) is not None} for i in readable]
    metrics = [s.metric for s in specs]
    scored = await score_rows(metrics, rows, judge=judge, ids=[first + i for i in readable],  # type: ignore[arg-type]
                              embedder=embedder)  # fmt: skip
    out = {s.name: Scores(n) for s in specs}
    for i, error in errors.items():
        for scores in out.values():
            scores.fail(i, "error", error, "invalid_input")
    for i, results in zip(readable, scored, strict=True):
        for spec, result in zip(specs, results, strict=True):
            scores = out[spec.name]
            if result.status != "ok":
                scores.fail(i, result.status, result.reason or None, result.cause)
                continue
            assert spec.metric is not None and spec.metric.scale is not None
            low, high = spec.metric.scale
            scores.values[i] = (float(result.value) - low) / (high - low)
            scores.reason[i] = result.reason or None
    return out


def run_chunk(specs: Sequence[Spec], chunk: Mapping[str, list[Any]], columns: Mapping[str, str], first: int,
              row_errors: Mapping[int, str], n: int, judge: JudgeClient | None,
              embedder: JudgeClient | None) -> dict[str, Scores]:  # fmt: skip
    """Every metric on the ``n`` rows of ``chunk`` (``{field: values}``; ``columns`` names each field's data
    column for messages): ``{metric: Scores}``, in the order of ``specs``. The judged metrics share one run of
    the judge."""
    deterministic = [s for s in specs if s.compute is not None]
    out = _deterministic(deterministic, chunk, columns, first, row_errors, n) if deterministic else {}
    judged = [s for s in specs if s.metric is not None]
    if judged:
        from ..llm.sync import run_sync

        out.update(
            run_sync(lambda: _judged(judged, chunk, columns, first, row_errors, n, judge, embedder), judge, embedder)
        )
    return {s.name: out[s.name] for s in specs}
