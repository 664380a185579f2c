"""promptflow-evals 0.3.5 ``evaluate``: every evaluator on every row of a data set, in this process, with
promptflow's inputs, column mappings, target, result keys and aggregates.

Batch protocol
--------------
An evaluator may score all rows in one call by defining the method named :data:`BATCH_METHOD`::

    def rapideval_batch(self, rows: list[dict[str, Any]]) -> list[dict[str, Any] | Exception]

``rows`` holds, per row, the keyword arguments ``evaluator(**row)`` would get (the keywords its
``__call__`` accepts that the row provides, with every required one present; rows missing a required
input are not passed). It returns one item per row, in order: the dict ``evaluator(**row)`` returns, or
the exception it raises (returned, not raised). ``evaluate`` calls it once per evaluator with every row;
should it raise, every row of that evaluator fails with that error. Evaluators without it are called as
``evaluator(**row)`` row after row (a result that is not a dict becomes ``{"output": result}``, as
promptflow does).

Result
------
``{"rows": [...], "metrics": {...}, "studio_url": None, "errors": [...], "counts": {...}}``:

* ``rows``: one dict per data row, in order: ``outputs.<column>`` for the target's outputs, then
  ``inputs.<column>`` for the data's columns (``None`` where a row lacks one; a number column typed as
  pandas types it: float when a value is missing, int when all are whole numbers), then
  ``outputs.<alias>.<key>`` for each evaluator's outputs. A row whose evaluator failed has ``None`` for
  that evaluator's outputs (promptflow: NaN); the run goes on.
* ``metrics``: promptflow's ``_aggregate_metrics``: the mean of each numeric output column as
  ``<alias>.<key>``, skipping rows without a value (``None`` where none has one: promptflow's NaN); the
  ``violence``/``sexual``/``self_harm``/``hate_unfairness`` ``_score`` columns of promptflow's or
  rapideval's content-safety evaluators become ``<alias>.<name>_defect_rate`` (share of values >= 4),
  and the ``protected_material``/``eci``/``xpia`` ``_label`` columns of any evaluator
  ``<alias>.<name>_defect_rate`` (share of true labels), both rounded to 2 decimals as numpy rounds.
* ``studio_url``: always ``None`` (nothing is logged to Azure AI Studio).
* ``errors`` (rapideval's): ``{"row": index, "evaluator": alias, "message": "TypeName: message"}`` for
  each (row, evaluator) that failed, in row order; a missing required input's message names the
  evaluator and the field. ``"evaluator": None`` when the target failed on that row (or lacked an
  input): its target and evaluator outputs are then ``None`` and no evaluator runs on it. Each failing
  evaluator also logs one line (logger ``rapideval.compat.promptflow.evaluate``, level WARNING).
* ``counts`` (rapideval's): for each ``metrics`` key, the number of rows that entered it.

Numbers are promptflow's: its run storage writes each evaluator's (and the target's) outputs as JSON
with 10 decimals (pandas' ``to_json``) and reads them back with pandas' fast float parser and dtype
inference, so ``evaluate``'s values differ from the evaluator's own in the last digits, ints of a column
that also holds floats (or a failed row) become floats, and a float column of whole numbers becomes
ints. :func:`stored_float` reproduces the quantisation bit for bit; means are numpy's pairwise sums, as
pandas'. Where pandas goes further (strings that look like numbers or dates become numbers or dates;
float inputs are parsed with the fast parser), rapideval keeps the values as they are. Evaluators must
be synchronous callables; promptflow's ``__aggregate__`` is not called.
"""

from __future__ import annotations

import inspect
import json
import logging
import math
import numbers
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..._inputs import read_jsonl

__all__ = ["BATCH_METHOD", "evaluate", "run", "stored_columns", "stored_float"]

#: The method an evaluator defines to score every row in one call (see the module docstring).
BATCH_METHOD = "rapideval_batch"

LOGGER = logging.getLogger(__name__)

Row = dict[str, Any]

_REFERENCE = re.compile(r"^\${([^{}]+)}$")
_UNEXPECTED_REFERENCE = re.compile(r"\${(?!target\.|data\.).+?}")  # promptflow's check
_CONTENT_SAFETY = ("sexual", "self_harm", "hate_unfairness", "violence")
_CONTENT_SAFETY_MODULES = (
    "promptflow.evals.evaluators.",
    "rapideval.compat.promptflow.evaluators.",
    "rapideval.compat.azure.",
)
_LABELS = ("protected_material", "eci", "xpia")
_DEFECT_THRESHOLD = 4
_RESULTS_FILE = "evaluation_results.json"


# ---------------------------------------------------------------- promptflow's storage of numbers

#: pandas' ujson decoder multiplies the fraction digits by these (``g_pow10`` in ultrajsondec.c).
_INVERSE_POWERS = [1.0, 0.1, 0.01, 0.001, 0.0001, 0.00001, 0.000001, 0.0000001, 0.00000001, 0.000000001,
                   0.0000000001, 0.00000000001, 0.000000000001, 0.0000000000001, 0.00000000000001,
                   0.000000000000001]  # fmt: skip


def _decode(text: str) -> float:
    """pandas' ujson ``decode_numeric`` with ``precise_float=False`` (``read_json``'s default): the
    fraction's digits (at most 15) as a double times a power of 0.1, then the exponent by ``pow``."""
    sign = -1.0 if text.startswith("-") else 1.0
    mantissa, _, exponent = text.lstrip("-").partition("e")
    whole, _, digits = mantissa.partition(".")
    digits = digits[:15]
    frac = 0.0
    for d in digits:
        frac = frac * 10.0 + (ord(d) - 48)
    value = (float(int(whole)) + frac * _INVERSE_POWERS[len(digits)]) * sign
    if exponent:
        power = 0.0
        for d in exponent.lstrip("+-"):
            power = power * 10.0 + (ord(d) - 48)
        value *= math.pow(10.0, -power if exponent.startswith("-") else power)
    return value


def stored_float(value: float) -> float | None:
    """``value`` as promptflow-evals 0.3.5's ``evaluate`` reports an evaluator's float output, bit for bit:
    written by pandas ``to_json`` (ujson ``Buffer_AppendDoubleUnchecked``, 10 decimals rounded its own
    way, ``%.10g`` outside [1e-15, 1e16)) and read back by ``read_json`` (:func:`_decode`). NaN and
    infinities, which pandas writes as ``null``, are None."""
    if not math.isfinite(value):
        return None
    magnitude = abs(value)
    if magnitude > 1e16 - 1 or (magnitude != 0.0 and magnitude < 1e-15):
        return _decode(f"{value:.10g}")
    whole = int(magnitude)
    tmp = (magnitude - whole) * 1e10
    frac = int(tmp)
    diff = tmp - frac
    if diff > 0.5 or (diff == 0.5 and (frac == 0 or frac & 1)):
        frac += 1
    if frac >= 10_000_000_000:
        frac, whole = 0, whole + 1
    # The decoder reads the written digits (trailing zeros dropped) as an integer, exactly: frac < 2**53.
    digits = 10
    while frac and frac % 10 == 0:
        frac //= 10
        digits -= 1
    return (float(whole) + frac * _INVERSE_POWERS[digits]) * (-1.0 if value < 0 else 1.0)


def is_number(value: Any) -> bool:
    """A number pandas puts in a numeric column (numpy's included), not a bool."""
    return type(value) in (float, int) or (isinstance(value, numbers.Real) and not isinstance(value, bool))


def _whole_numbers_as_int(values: list[float | None]) -> list[Any]:
    """A float64 column as pandas' ``read_json`` returns it: int64 when every value is a whole number (none
    missing), else as it is."""
    if all(v is not None and v.is_integer() and abs(v) < 2**63 for v in values):
        return [int(v) for v in values]  # type: ignore[arg-type]
    return values


def _numeric_column(values: list[Any], to_float: Callable[[float], float | None]) -> list[Any] | None:
    """A column of numbers (None where missing) typed as pandas types it after a JSON round trip: ints
    throughout stay ints; otherwise float64 (``to_float`` of each number), whole numbers then int64. None
    when the column holds anything else."""
    if not all(v is None or is_number(v) for v in values):
        return None
    if all(isinstance(v, numbers.Integral) for v in values):
        return values
    return _whole_numbers_as_int([None if v is None else to_float(float(v)) for v in values])


def _input_column(values: list[Any]) -> list[Any]:
    """A data column as promptflow's ``pandas.read_json`` types it: a number column with a missing value
    is float, one of whole numbers int (NaN from a DataFrame is None); other values as they are."""
    typed = _numeric_column(values, lambda v: None if math.isnan(v) else v)
    return values if typed is None else typed


def stored_columns(outputs: list[Row | None]) -> list[tuple[str, list[Any], bool]]:
    """One evaluator's (or the target's) outputs, one dict per row (None where it failed), as promptflow's
    run storage returns them: ``(key, values, numeric)`` per output key, in the order first seen."""
    failed = [o is None for o in outputs]
    present = [o for o in outputs if o is not None]
    return [(key, *_stored_column([None if o is None else o.get(key) for o in outputs], failed))
            for key in _columns(present)]  # fmt: skip


def _stored_column(values: list[Any], failed: list[bool]) -> tuple[list[Any], bool]:
    """One evaluator output column as promptflow's storage returns it, and whether pandas types it as
    numeric. ``values``: one per row (None where the row failed or lacks the key)."""
    present = [v for v, f in zip(values, failed, strict=True) if not f]
    if present and all(isinstance(v, bool) for v in present):
        # A bool column stays bool; a failed row turns it into objects, which are not averaged.
        return values, not any(failed)
    typed = _numeric_column(values, stored_float)
    if typed is None:
        return [stored_float(v) if isinstance(v, float) else v for v in values], False
    return typed, True


# ---------------------------------------------------------------- inputs


def _load_rows(data: Any) -> list[Row]:
    """The data's rows: a JSONL path (promptflow's only form), or rapideval's list of dicts or DataFrame."""
    if data is None:
        raise ValueError("data must be provided for evaluation.")
    if isinstance(data, (str, os.PathLike)):
        rows = read_jsonl(data)
    elif hasattr(data, "to_dict") and hasattr(data, "columns"):  # pandas.DataFrame
        rows = data.to_dict(orient="records")
    elif isinstance(data, Sequence):
        rows = list(data)
    else:
        raise ValueError(f"evaluate: data must be a JSONL path, a list of dicts or a pandas DataFrame, "
                         f"got {type(data).__name__}")  # fmt: skip
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise ValueError(f"evaluate: data row {i} is a {type(row).__name__}, not an object")
    return [dict(row) for row in rows]


def _columns(rows: list[Row]) -> list[str]:
    """Every key of the rows, in the order first seen (pandas' columns of a list of records)."""
    return list(dict.fromkeys(key for row in rows for key in row))


def _mappings(evaluator_config: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """``{alias or "default": {input: "${data.col}" | "${target.col}" | literal}}``: promptflow 0.3.5's
    flat form, or ``{alias: {"column_mapping": {...}}}`` (later promptflow and azure-ai-evaluation)."""
    out: dict[str, dict[str, Any]] = {}
    for alias, config in (evaluator_config or {}).items():
        if not isinstance(config, Mapping):
            raise TypeError(f"evaluate: evaluator_config[{alias!r}] must be a dict, got {type(config).__name__}")
        if set(config) == {"column_mapping"} and isinstance(config["column_mapping"], Mapping):
            config = config["column_mapping"]
        for name, value in config.items():
            if not isinstance(value, str):
                raise TypeError(f"evaluate: evaluator_config[{alias!r}][{name!r}] must be a str such as "
                                f"'${{data.column}}', got {type(value).__name__}")  # fmt: skip
            if _UNEXPECTED_REFERENCE.search(value):
                raise ValueError("Unexpected references detected in 'evaluator_config'. "
                                 "Ensure only ${target.} and ${data.} are used.")  # fmt: skip
        out[alias] = dict(config)
    return out


class _Missing(Exception):
    """A required input the row does not provide."""


def _source(reference: str) -> tuple[str, str]:
    """Where a mapping entry takes its value: ``("data", column)``, ``("target", column)`` or
    ``("literal", reference)`` (promptflow passes any other string as it is)."""
    match = _REFERENCE.match(reference)
    if match is None:
        return "literal", reference
    kind, _, column = match.group(1).partition(".")
    return kind, column


class _Inputs:
    """Which keywords an evaluator (or the target) takes from a row: the parameters of its signature,
    through its column mapping, else the data column of the same name. As promptflow's batch engine, a
    parameter with a non-None default is filled only through the mapping."""

    def __init__(self, function: Callable[..., Any], mapping: Mapping[str, Any], who: str) -> None:
        self.who = who
        self.params: list[tuple[str, bool, str, str]] = []  # (name, required, source kind, column or literal)
        for p in inspect.signature(function).parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            required = p.default is p.empty
            if p.name in mapping or required or p.default is None:
                self.params.append((p.name, required, *_source(mapping.get(p.name, f"${{data.{p.name}}}"))))

    def check_columns(self, columns: Sequence[str], target_columns: Sequence[str]) -> None:
        """promptflow's up-front check: a required input that no row can provide is a ValueError."""
        missing = [name for name, required, kind, column in self.params if required and kind != "literal"
                   and column not in (columns if kind == "data" else target_columns)]  # fmt: skip
        if missing:
            raise ValueError(f"Missing required inputs for {self.who} : {missing}.")

    def of(self, row: Row, target_row: Row) -> Row:
        """The keywords for one row; raises _Missing for a required input the row lacks."""
        out: Row = {}
        for name, required, kind, column in self.params:
            if kind == "literal":
                out[name] = column
                continue
            values = row if kind == "data" else target_row
            if column in values:
                out[name] = values[column]
            elif required:
                where = "column" if kind == "data" else "target output"
                raise _Missing(f"{self.who} needs {name!r}, but this row has no {where} {column!r}")
        return out


# ---------------------------------------------------------------- running


def _message(error: BaseException) -> str:
    """An error entry's message: the exception's type and text (a missing input's text alone)."""
    return str(error) if isinstance(error, _Missing) else f"{type(error).__name__}: {error}"


def _call_rows(function: Callable[..., Any], kwargs: list[Row]) -> list[Any]:
    """``function(**k)`` for each row: its result or the exception it raised."""
    out: list[Any] = []
    for k in kwargs:
        try:
            out.append(function(**k))
        except Exception as e:
            out.append(e)
    return out


def _run_evaluator(evaluator: Callable[..., Any], kwargs: list[Row]) -> list[Row | Exception]:
    """Every row's output dict or exception: one batch call when the evaluator has one, else row by row."""
    batch = getattr(evaluator, BATCH_METHOD, None)
    if callable(batch):
        try:
            results = list(batch(kwargs))
        except Exception as e:
            return [e] * len(kwargs)
        if len(results) != len(kwargs):
            error = RuntimeError(f"{BATCH_METHOD} returned {len(results)} results for {len(kwargs)} rows")
            return [error] * len(kwargs)
    else:
        results = _call_rows(evaluator, kwargs)
    return [r if isinstance(r, (dict, Exception)) else {"output": r} for r in results]


def _score_alias(
    alias: str, evaluator: Callable[..., Any], inputs: _Inputs, rows: list[Row], target_rows: list[Row | None]
) -> tuple[list[Row | None], list[Row]]:
    """One evaluator on every row: its outputs (None where it failed) and its error entries, by row. Rows
    the target failed on are skipped (their error is the target's)."""
    outputs: list[Row | None] = [None] * len(rows)
    errors: list[Row] = []
    scored: list[int] = []
    kwargs: list[Row] = []
    for i, (row, target_row) in enumerate(zip(rows, target_rows, strict=True)):
        if target_row is not None:
            try:
                kwargs.append(inputs.of(row, target_row))
                scored.append(i)
            except _Missing as e:
                errors.append({"row": i, "evaluator": alias, "message": _message(e)})
    for i, result in zip(scored, _run_evaluator(evaluator, kwargs), strict=True):
        if isinstance(result, Exception):
            errors.append({"row": i, "evaluator": alias, "message": _message(result)})
        else:
            outputs[i] = result
    errors.sort(key=lambda e: e["row"])
    return outputs, errors


def _log_failures(alias: str, errors: list[Row], n_rows: int) -> None:
    if errors:
        first = errors[0]
        LOGGER.warning("evaluate: %s failed on %d of %d rows (first: row %d: %s); see the result's 'errors'",
                       alias, len(errors), n_rows, first["row"], first["message"])  # fmt: skip


# ---------------------------------------------------------------- aggregation


def mean_of(values: list[Any]) -> float | None:
    """pandas' ``nanmean``: missing values count as 0 in numpy's pairwise sum, divided by the others' count."""
    count = sum(v is not None for v in values)
    if not count:
        return None
    total = np.sum(np.array([0.0 if v is None else v for v in values], dtype=np.float64))
    return float(total / count)


def to_number(value: Any) -> float | None:
    """``pandas.to_numeric(..., errors="coerce")`` of one value."""
    if isinstance(value, numbers.Real):
        return None if math.isnan(value) else float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _rate(hits: float, count: int) -> float | None:
    # round() of a numpy float rounds as numpy does, which promptflow's defect rates go through.
    return float(round(np.float64(hits) / count, 2)) if count else None


def _is_content_safety(evaluator: Any, key: str) -> bool:
    module = inspect.getmodule(evaluator)
    return (module is not None and module.__name__.startswith(_CONTENT_SAFETY_MODULES) and key.endswith("_score")
            and key.replace("_score", "") in _CONTENT_SAFETY)  # fmt: skip


def _aggregate(
    columns: list[tuple[str, str, list[Any], bool]], evaluators: Mapping[str, Any], n_rows: int
) -> tuple[dict[str, Any], dict[str, int]]:
    """promptflow's ``_aggregate_metrics`` over (alias, key, values, numeric) columns: metrics and counts."""
    means: dict[str, float | None] = {}
    safety: dict[str, float | None] = {}
    labels: dict[str, float | None] = {}
    counts: dict[str, int] = {}
    for alias, key, values, numeric in columns:
        if _is_content_safety(evaluators[alias], key):
            found = [n for n in map(to_number, values) if n is not None]
            name = f"{alias}.{key}".replace("_score", "_defect_rate")  # promptflow renames the whole column
            safety[name] = _rate(sum(n >= _DEFECT_THRESHOLD for n in found), len(found))
            counts[name] = len(found)
        elif key.endswith("_label") and key.replace("_label", "").lower() in _LABELS:
            found = [n for n in map(to_number, values) if n is not None]
            name = f"{alias}.{key}".replace("_label", "_defect_rate")
            labels[name] = _rate(sum(found), len(found))
            counts[name] = len(found)
        elif numeric:
            name = f"{alias}.{key}"
            means[name] = mean_of(values)
            counts[name] = sum(v is not None for v in values)
    return {**means, **safety, **labels}, {name: counts[name] for name in (*means, *safety, *labels)}


# ---------------------------------------------------------------- evaluate


def _write_output(output_path: str | os.PathLike[str], result: Row) -> None:
    """promptflow's ``_write_output``: into ``evaluation_results.json`` when the path is a directory."""
    path = os.path.join(output_path, _RESULTS_FILE) if os.path.isdir(output_path) else output_path
    with open(path, "w", encoding="utf-8") as f:
        json.dump(result, f)


def _map_target_outputs(mappings: dict[str, dict[str, Any]], target_columns: list[str]) -> None:
    """As promptflow: each target output feeds the evaluator input of its name (in every mapping and the
    default one), unless the mapping already sets that input or already uses that output."""
    mappings.setdefault("default", {})
    for mapping in mappings.values():
        used = set(mapping.values())
        for column in target_columns:
            if column not in mapping and f"${{target.{column}}}" not in used:
                mapping[column] = f"${{target.{column}}}"


def _check_arguments(
    target: Any, evaluators: Any, output_path: Any, azure_ai_project: Any, evaluation_name: Any
) -> None:
    """promptflow's argument checks (its messages), widened where rapideval takes more."""
    if target is not None and not callable(target):
        raise ValueError("target must be a callable function.")
    if not isinstance(evaluators, Mapping):
        raise ValueError("evaluators must be a dictionary.")
    for alias, evaluator in evaluators.items():
        if not callable(evaluator):
            raise TypeError(f"evaluate: evaluators[{alias!r}] must be callable, got {type(evaluator).__name__}")
    if output_path is not None and not isinstance(output_path, (str, os.PathLike)):
        raise ValueError("output_path must be a string.")
    if azure_ai_project is not None and not isinstance(azure_ai_project, Mapping):
        raise ValueError("azure_ai_project must be a Dict.")
    if evaluation_name is not None and not isinstance(evaluation_name, str):
        raise ValueError("evaluation_name must be a string.")


def _run_target(target: Callable[..., Any], rows: list[Row], columns: list[str], errors: list[Row]) -> list[Row | None]:
    """The target's outputs for each row (None where it failed or lacked an input, with an error entry)."""
    inputs = _Inputs(target, {}, "target")
    inputs.check_columns(columns, [])
    outputs: list[Row | None] = []
    for i, row in enumerate(rows):
        try:
            result = target(**inputs.of(row, {}))
        except Exception as e:
            errors.append({"row": i, "evaluator": None, "message": _message(e)})
            outputs.append(None)
            continue
        outputs.append(dict(result) if isinstance(result, Mapping) else {"output": result})
    return outputs


def evaluate(
    *,
    evaluation_name: str | None = None,
    target: Callable[..., Any] | None = None,
    data: Any = None,
    evaluators: Mapping[str, Callable[..., Any]] | None = None,
    evaluator_config: Mapping[str, Any] | None = None,
    azure_ai_project: Mapping[str, Any] | None = None,
    output_path: str | os.PathLike[str] | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """promptflow-evals 0.3.5 ``evaluate(*, evaluation_name=None, target=None, data=None, evaluators=None,
    evaluator_config=None, azure_ai_project=None, output_path=None, **kwargs)``.

    ``data``: a JSONL path (as promptflow), or a list of dicts or a pandas DataFrame. ``evaluators``:
    ``{alias: callable}``. ``evaluator_config``: ``{alias or "default": {input: "${data.col}"}}`` (promptflow
    0.3.5's form) or ``{alias or "default": {"column_mapping": {...}}}``; ``${target.col}`` names a target
    output; any other string is passed as it is. ``target``: called on every row first (with the data
    columns its signature names); its outputs feed the evaluators' inputs of the same name unless mapped
    otherwise, as promptflow does. ``output_path``: a directory (``evaluation_results.json`` in it) or a
    file, written with the result. ``azure_ai_project`` is checked and not used (nothing is uploaded;
    ``studio_url`` is None); ``evaluation_name`` and promptflow's private ``kwargs`` are accepted.

    Returns ``{"rows", "metrics", "studio_url", "errors", "counts"}`` (see the module docstring): rows in
    order, promptflow's keys and numbers; a row an evaluator fails on gets ``None`` outputs and an
    ``errors`` entry, and the run goes on. Raises ``ValueError`` as promptflow does for bad arguments, an
    unreadable data file and a required input no row provides."""
    return run(data=data, evaluators=evaluators, evaluation_name=evaluation_name, target=target,
               evaluator_config=evaluator_config, azure_ai_project=azure_ai_project, output_path=output_path,
               store=stored_columns, aggregate=_aggregate)  # fmt: skip


#: One evaluator's outputs as the library's storage returns them (see :func:`stored_columns`).
Store = Callable[[list[Row | None]], list[tuple[str, list[Any], bool]]]
#: The library's aggregates of the output columns ``(alias, key, values, numeric)``: ``(metrics, counts)``.
Aggregate = Callable[
    [list[tuple[str, str, list[Any], bool]], Mapping[str, Any], int], tuple[dict[str, Any], dict[str, int]]
]


def run(
    *,
    data: Any,
    evaluators: Mapping[str, Callable[..., Any]] | None,
    evaluation_name: str | None,
    target: Callable[..., Any] | None,
    evaluator_config: Mapping[str, Any] | None,
    azure_ai_project: Mapping[str, Any] | None,
    output_path: str | os.PathLike[str] | None,
    store: Store,
    aggregate: Aggregate,
) -> dict[str, Any]:
    """:func:`evaluate`'s run with the storage of output columns and the aggregates as arguments, which
    azure-ai-evaluation's ``evaluate`` (:mod:`rapideval.compat.azure.evaluate`) does its own way."""
    evaluators = evaluators or {}
    _check_arguments(target, evaluators, output_path, azure_ai_project, evaluation_name)
    if azure_ai_project is not None:
        LOGGER.warning("evaluate: azure_ai_project is not used: nothing is logged to Azure AI Studio")
    rows = _load_rows(data)
    columns = _columns(rows)
    mappings = _mappings(evaluator_config)
    errors: list[Row] = []

    target_rows: list[Row | None] = [{} for _ in rows]
    target_columns: list[str] = []
    if target is not None:
        target_rows = _run_target(target, rows, columns, errors)
        target_columns = _columns([r for r in target_rows if r is not None])
        _map_target_outputs(mappings, target_columns)

    alias_outputs: dict[str, list[Row | None]] = {}
    for alias, evaluator in evaluators.items():
        inputs = _Inputs(evaluator, mappings.get(alias, mappings.get("default", {})), f"evaluator {alias}")
        inputs.check_columns(columns, target_columns)
        alias_outputs[alias], alias_errors = _score_alias(alias, evaluator, inputs, rows, target_rows)
        _log_failures(alias, alias_errors, len(rows))
        errors.extend(alias_errors)
    errors.sort(key=lambda e: (e["row"], e["evaluator"] is not None))  # by row; the target's error first

    output_columns = [(alias, *column) for alias, outputs in alias_outputs.items() for column in store(outputs)]
    # The target's outputs go through the run storage as the evaluators' do.
    stored_target = {key: values for key, values, _ in store(target_rows)}
    input_columns = {c: _input_column([row.get(c) for row in rows]) for c in columns}
    result_rows = []
    for i in range(len(rows)):
        out: Row = {f"outputs.{c}": values[i] for c, values in stored_target.items()}
        out.update({f"inputs.{c}": values[i] for c, values in input_columns.items()})
        out.update({f"outputs.{alias}.{key}": values[i] for alias, key, values, _ in output_columns})
        result_rows.append(out)
    metrics, counts = aggregate(output_columns, evaluators, len(rows))
    result = {"rows": result_rows, "metrics": metrics, "studio_url": None, "errors": errors, "counts": counts}
    if output_path is not None:
        _write_output(output_path, result)
    return result
