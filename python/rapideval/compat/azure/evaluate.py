"""azure-ai-evaluation 1.18.10's ``evaluate`` on the run of :func:`rapideval.compat.promptflow.evaluate.evaluate`
(the same rows/metrics shape): azure's keyword names, ``fail_on_evaluator_errors``, its output values (as
pandas types the evaluators' outputs: azure's default batch client keeps them in memory, where promptflow
0.3.5 wrote them to JSON) and its aggregates (``_evaluate._aggregate_metrics``)."""

from __future__ import annotations

import inspect
import numbers
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..._inputs import read_jsonl
from ..promptflow.evaluate import is_number, mean_of, run, to_number
from ._exceptions import ErrorBlame, ErrorCategory, ErrorTarget, EvaluationException, evaluation_error

# azure's EvaluationMetrics of content safety (their ``_score`` columns also get a defect rate) and of labels.
_CONTENT_SAFETY = ("sexual", "self_harm", "hate_unfairness", "violence")
_LABELS = ("protected_material", "fictional_characters", "artwork", "logos_and_brands", "eci", "xpia",
           "code_vulnerability", "ungrounded_attributes")  # fmt: skip
_DEFECT_THRESHOLD = 4  # CONTENT_SAFETY_DEFECT_RATE_THRESHOLD_DEFAULT
_TOKEN_COUNTS = ("_prompt_tokens", "_completion_tokens", "_total_tokens")
# The column mappings azure accepts (``_process_column_mappings``): ``${data.<name>}`` or ``${target.<name>}``.
_REFERENCE = re.compile(r"^\$\{(target|data)\.[a-zA-Z0-9_]+(?:\.[a-zA-Z0-9_]+)*\}$")
_TARGET_OUTPUTS = "__outputs."
_LOGGER = "rapideval.compat.promptflow.evaluate"

__all__ = ["evaluate"]


def evaluate(
    *,
    data: Any,
    evaluators: Mapping[str, Callable[..., Any]],
    evaluation_name: str | None = None,
    target: Callable[..., Any] | None = None,
    evaluator_config: Mapping[str, Any] | None = None,
    azure_ai_project: Any = None,
    output_path: str | os.PathLike[str] | None = None,
    fail_on_evaluator_errors: bool = False,
    **kwargs: Any,
) -> dict[str, Any]:
    """azure-ai-evaluation 1.18.10 ``evaluate(*, data, evaluators, evaluation_name=None, target=None,
    evaluator_config=None, azure_ai_project=None, output_path=None, fail_on_evaluator_errors=False)``.

    ``data``: a JSONL file, or a CSV file (a path ending in ``.csv``, every value read as text, as azure
    reads it); rapideval also takes a list of dicts or a pandas DataFrame. ``evaluator_config``:
    ``{alias or "default": {"column_mapping": {input: "${data.<column>}" or "${target.<output>}"}}}``. A
    data column (or target output) feeds the evaluator input of its name, also one with a default value, as
    azure's batch run does. Runs :func:`rapideval.compat.promptflow.evaluate.evaluate` (each evaluator's rows
    in one batch; ``target`` as there) and returns its ``{"rows", "metrics", "studio_url", "errors",
    "counts"}``. ``azure_ai_project`` is not used (nothing is logged).

    Errors are azure's :class:`~rapideval.compat.azure._exceptions.EvaluationException` (each also the
    built-in type rapideval raised before: ``ValueError``, ``TypeError``, ``FileNotFoundError`` for a data
    file that does not exist, ``RuntimeError``), with azure's messages for what azure checks before the run:
    the arguments, the data file (``"Unable to load data from ..."``), the column mappings, the inputs a
    target or a custom evaluator requires from the data (built-in evaluators are not checked ahead, as
    azure's are not: their rows fail one by one), and a target that failed on every row. With
    ``fail_on_evaluator_errors`` a row an evaluator failed on raises (category ``FAILED_EXECUTION``, also a
    ``RuntimeError``) after the run, naming it; otherwise the row's outputs are None.

    ``metrics`` (:func:`_aggregate`): the mean of each numeric output column (bool columns too) except
    ``_threshold``, ``_result``, token-count and label columns; ``<alias>.<harm>_defect_rate`` (share of
    ``<harm>_score`` >= 4, the score's mean kept too) and ``<alias>.<name>_defect_rate`` of the labels
    (the sub-labels of the last ``_details`` column, as azure, as ``<alias>.xpia_details.<sub>_defect_rate``),
    rounded to 2 decimals;
    ``<alias>.binary_aggregate``: the share of rows whose ``_result`` is ``"pass"``, failed rows counted in
    the denominator as azure counts them (an evaluator with several ``_result`` columns: the last one's). A
    metric no row has a value for is left out, as azure leaves out NaN."""
    rows = _validate_and_load(data, target, evaluators, output_path, evaluation_name)
    mappings = _column_mappings(evaluator_config)
    columns = list(dict.fromkeys(key for row in rows for key in row))
    if target is not None:
        _check_target(columns, target)
    else:
        _check_evaluator_inputs(columns, evaluators, mappings)
    if azure_ai_project is not None and not isinstance(azure_ai_project, Mapping):
        azure_ai_project = None  # azure takes a project endpoint URL too; nothing is uploaded either way
    run_evaluators = {
        alias: evaluator if _built_in(evaluator) else _with_kwargs(evaluator, columns, _mapping_of(alias, mappings))
        for alias, evaluator in evaluators.items()
    }
    try:
        result = run(
            data=rows, evaluators=run_evaluators, evaluation_name=evaluation_name, target=target,
            evaluator_config=_inputs_by_name(rows, run_evaluators, mappings, target is None),
            azure_ai_project=azure_ai_project,
            output_path=output_path, store=_columns, aggregate=_aggregate,
        )  # fmt: skip
    except (TypeError, ValueError) as e:  # what the run checks that azure's checks above did not
        if isinstance(e, EvaluationException):
            raise
        raise evaluation_error(type(e), str(e), target=ErrorTarget.EVALUATE) from e
    target_failures = [e for e in result["errors"] if e.get("evaluator") is None]
    if target is not None and rows and len(target_failures) == len(rows):
        raise evaluation_error(
            RuntimeError,
            f"Evaluation target failed to produce any results. Please check the logs at logger {_LOGGER!r} (the "
            f"result's 'errors') for more details about cause of failure. First error: row 0: "
            f"{target_failures[0].get('message')}",
            target=ErrorTarget.EVALUATE,
            category=ErrorCategory.FAILED_EXECUTION,
        )
    failed = [e for e in result["errors"] if e.get("evaluator") is not None]
    if fail_on_evaluator_errors and failed:
        first = failed[0]
        raise evaluation_error(
            RuntimeError,
            f"evaluate: {len(failed)} evaluator error(s); first: evaluator {first['evaluator']!r} on row "
            f"{first['row']}: {first.get('message', first)}",
            target=ErrorTarget.EVAL_RUN,
            category=ErrorCategory.FAILED_EXECUTION,
            blame=ErrorBlame.UNKNOWN,
        )
    return result


def _invalid(message: str, kind: type[Exception] = ValueError, missing: bool = False) -> EvaluationException:
    category = ErrorCategory.MISSING_FIELD if missing else ErrorCategory.INVALID_VALUE
    return evaluation_error(kind, message, target=ErrorTarget.EVALUATE, category=category)


def _validate_and_load(
    data: Any, target: Any, evaluators: Any, output_path: Any, evaluation_name: Any
) -> list[dict[str, Any]]:
    """azure's ``_validate_and_load_data``: its checks, in its order, then the data's rows."""
    if data is None:
        raise _invalid("The 'data' parameter is required for evaluation.")
    is_path = isinstance(data, (str, os.PathLike))
    is_frame = hasattr(data, "to_dict") and hasattr(data, "columns")
    if not (is_path or is_frame or (isinstance(data, Sequence) and not isinstance(data, (str, bytes)))):
        raise _invalid("The 'data' parameter must be a string or a path-like object.")
    if is_path and not os.path.exists(data):
        raise _invalid(f"The input data file path '{data}' does not exist.", FileNotFoundError)
    if target is not None and not callable(target):
        raise _invalid("The 'target' parameter must be a callable function.")
    if not evaluators:
        raise _invalid("The 'evaluators' parameter is required and cannot be None or empty.")
    if not isinstance(evaluators, Mapping):
        raise _invalid("The 'evaluators' parameter must be a dictionary.")
    if output_path is not None:
        if not isinstance(output_path, (str, os.PathLike)):
            raise _invalid("The 'output_path' parameter must be a string or a path-like object.")
        directory = output_path if os.path.isdir(output_path) else os.path.dirname(output_path)
        if directory and not os.path.exists(directory):
            raise _invalid(f"The output directory '{directory}' does not exist. Please create the directory manually.")
    if evaluation_name is not None and (not isinstance(evaluation_name, str) or not evaluation_name.strip()):
        raise _invalid("The 'evaluation_name' parameter must be a non-empty string.")
    if not is_path:
        rows = data.to_dict(orient="records") if is_frame else list(data)
    else:
        try:
            rows = _read_csv(data) if os.fspath(data).lower().endswith(".csv") else read_jsonl(data)
        except Exception as e:
            raise _invalid(f"Unable to load data from '{data}'. Supported formats are JSONL and CSV. Detailed "
                           f"error: {e}.") from e  # fmt: skip
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            where = f"Unable to load data from '{data}'. Supported formats are JSONL and CSV. Detailed error: "
            raise _invalid(f"{where if is_path else ''}data row {i} is a {type(row).__name__}, not an object.")
    return [dict(row) for row in rows]


def _read_csv(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """A CSV file's rows as azure reads them (``pandas.read_csv(path, dtype=str)``: the first line names the
    columns, every value is text, an empty one missing)."""
    import pandas as pd  # azure-ai-evaluation's own dependency

    frame = pd.read_csv(path, dtype=str)
    return [{k: (None if isinstance(v, float) else v) for k, v in r.items()} for r in frame.to_dict("records")]


def _column_mappings(evaluator_config: Mapping[str, Any] | None) -> dict[str, dict[str, str]]:
    """``{alias or "default": {input: reference}}`` from azure's ``{alias: {"column_mapping": {...}}}`` (or
    promptflow's flat ``{alias: {...}}``); a reference that is not ``${data.<name>}`` or ``${target.<name>}``
    raises azure's error."""
    out: dict[str, dict[str, str]] = {}
    for alias, config in (evaluator_config or {}).items():
        if not isinstance(config, Mapping):
            raise _invalid(f"evaluate: evaluator_config[{alias!r}] must be a dict, got {type(config).__name__}")
        mapping = config.get("column_mapping", config)
        if mapping is None:
            continue
        if not isinstance(mapping, Mapping):
            raise _invalid(f"evaluate: the column_mapping of {alias!r} must be a dict, got {type(mapping).__name__}")
        for value in mapping.values():
            if not isinstance(value, str) or not _REFERENCE.search(value):
                raise _invalid("Unexpected references detected in 'column_mapping'. Ensure only ${target.} and "
                               "${data.} are used.")  # fmt: skip
        out[str(alias)] = dict(mapping)
    return out


def _mapping_of(alias: str, mappings: Mapping[str, Mapping[str, str]]) -> Mapping[str, str]:
    """An evaluator's column mapping: its own, else the default one."""
    return mappings.get(alias, mappings.get("default", {}))


def _required(function: Callable[..., Any]) -> list[str]:
    """The parameters azure requires of a target or custom evaluator: those without a default (but
    ``*args``, ``**kwargs`` and ``self``)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in parameters if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            and p.name not in ("kwargs", "args", "self")]  # fmt: skip


def _check_target(columns: Sequence[str], target: Callable[..., Any]) -> None:
    """azure's ``_validate_columns_for_target``."""
    if any(c.startswith(_TARGET_OUTPUTS) for c in columns):
        raise _invalid(f'The column cannot start from "{_TARGET_OUTPUTS}" if target was defined.')
    missing = [name for name in _required(target) if name not in columns]
    if missing:
        raise _invalid(f"Missing required inputs for target: {missing}.", missing=True)


def _built_in(evaluator: Any) -> bool:
    """One of this facade's evaluators, whose inputs azure does not check ahead (their rows fail one by one)."""
    return type(evaluator).__module__.startswith(__name__.rpartition(".")[0] + ".")


def _check_evaluator_inputs(
    columns: Sequence[str], evaluators: Mapping[str, Any], mappings: Mapping[str, Mapping[str, str]]
) -> None:
    """azure's ``_validate_columns_for_evaluators`` without a target: the custom evaluators' required inputs
    that neither a data column nor the evaluator's column mapping provides."""
    missing_by_alias: dict[str, list[str]] = {}
    for alias, evaluator in evaluators.items():
        if _built_in(evaluator):
            continue
        mapping = _mapping_of(alias, mappings)
        mapped = {name for name, ref in mapping.items() if ref.startswith("${data.") and ref[7:-1] in columns}
        missing = [name for name in _required(evaluator) if name not in mapped and name not in columns]
        if missing:
            missing_by_alias[alias] = missing
    if missing_by_alias:
        lines = "".join(f"- {alias}: {missing}\n" for alias, missing in missing_by_alias.items())
        raise _invalid(f"Some evaluators are missing required inputs:\n{lines}\nTo resolve this issue:\n- Ensure "
                       f"the data contains required inputs.\n- Check that the column mapping is correctly "
                       f"configured.", missing=True)  # fmt: skip


class _KeywordsToo:
    """A custom evaluator that takes ``**kwargs``, called as azure's batch run calls it: each data column (or
    mapped input) that no named parameter takes goes into its ``kwargs`` (the promptflow run passes the named
    parameters only). Its signature names them all, keyword-only with default None (filled where a row has
    them)."""

    def __init__(self, evaluator: Callable[..., Any], signature: inspect.Signature, names: Sequence[str]) -> None:
        self._evaluator = evaluator
        parameters = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        taken = {p.name for p in parameters}
        extra = [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=None) for n in dict.fromkeys(names)
                 if n not in taken and n.isidentifier()]  # fmt: skip
        self.__signature__ = signature.replace(parameters=[*parameters, *extra])

    def __call__(self, **kwargs: Any) -> Any:
        return self._evaluator(**kwargs)


def _with_kwargs(evaluator: Any, columns: Sequence[str], mapping: Mapping[str, str]) -> Any:
    """``evaluator``, or, when its signature takes ``**kwargs``, the evaluator as :class:`_KeywordsToo`."""
    try:
        signature = inspect.signature(evaluator)
    except (TypeError, ValueError):
        return evaluator
    if not any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
        return evaluator
    return _KeywordsToo(evaluator, signature, [*columns, *mapping])


def _inputs_by_name(
    rows: Sequence[Mapping[str, Any]],
    evaluators: Mapping[str, Any],
    mappings: Mapping[str, Mapping[str, str]],
    by_name: bool,
) -> dict[str, dict[str, str]]:
    """Each evaluator's column mapping for the run: its own (else the default one), and, with ``by_name`` (no
    target, whose outputs take precedence), as azure's batch run passes every column an evaluator's signature
    names, ``${data.<name>}`` for each parameter with a default that a data column of its name provides (the
    promptflow run fills those only through a mapping)."""
    columns = {key for row in rows for key in row}
    out: dict[str, dict[str, str]] = {}
    for alias, evaluator in evaluators.items():
        mapping = dict(_mapping_of(alias, mappings))
        try:
            parameters = list(inspect.signature(evaluator).parameters.values()) if by_name else []
        except (TypeError, ValueError):
            parameters = []
        for p in parameters:
            if p.default not in (p.empty, None) and p.name in columns and p.name not in mapping:
                mapping[p.name] = f"${{data.{p.name}}}"
        out[alias] = mapping
    return out


def _columns(outputs: list[dict[str, Any] | None]) -> list[tuple[str, list[Any], bool]]:
    """One evaluator's outputs as azure keeps them: ``(key, values, numeric)`` per key in the order first
    seen, typed as pandas types a column (numbers with a float or a missing value among them are floats),
    ``evaluation_per_turn`` flattened to ``evaluation_per_turn.<key>`` columns
    (``_flatten_evaluation_per_turn_columns``); numeric as pandas types the column: numbers, or bools with no
    failed row (a failed row makes a bool column objects)."""
    flat = [None if o is None else _flatten(o) for o in outputs]
    keys = list(dict.fromkeys(k for o in flat if o is not None for k in o))
    failed = any(o is None for o in flat)
    columns = []
    for key in keys:
        values = [None if o is None else o.get(key) for o in flat]
        present = [v for v, o in zip(values, flat, strict=True) if o is not None]
        if present and all(isinstance(v, bool) for v in present):
            columns.append((key, values, not failed))
        elif not all(v is None or is_number(v) for v in values):
            columns.append((key, values, False))
        elif all(isinstance(v, numbers.Integral) for v in values):
            columns.append((key, values, True))
        else:  # pandas makes a column of ints and floats (or a missing value) float64
            columns.append((key, [None if v is None else float(v) for v in values], True))
    return columns


def _flatten(output: dict[str, Any]) -> dict[str, Any]:
    per_turn = output.get("evaluation_per_turn")
    if not isinstance(per_turn, Mapping):
        return output
    rest = {k: v for k, v in output.items() if k != "evaluation_per_turn"}
    return {**rest, **{f"evaluation_per_turn.{k}": v for k, v in per_turn.items()}}


def _rate(flags: list[float]) -> float | None:
    """azure's ``round(list_mean_nan_safe(...), 2)`` of a column: Python's mean and round; None when nothing
    to count."""
    return round(sum(flags) / len(flags), 2) if flags else None


def _numpy_rate(flags: list[float]) -> float | None:
    """The same of a ``_details`` sub-label, whose values azure reads as a numpy array: numpy's division and
    rounding."""
    return float(round(np.float64(sum(flags)) / len(flags), 2)) if flags else None


def _aggregate(
    columns: list[tuple[str, str, list[Any], bool]], evaluators: Mapping[str, Any], n_rows: int
) -> tuple[dict[str, Any], dict[str, int]]:
    """azure-ai-evaluation 1.18.10 ``_aggregate_metrics`` over (alias, key, values, numeric) columns."""
    means: dict[str, Any] = {}
    safety: dict[str, Any] = {}
    labels: dict[str, Any] = {}
    details: dict[str, Any] = {}
    binary: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for alias, key, values, numeric in columns:
        name = f"{alias}.{key}"
        if key.endswith("_result"):
            if all(isinstance(v, (str, type(None))) for v in values):  # azure skips unhashable columns
                binary[f"{alias}.binary_aggregate"] = round(values.count("pass") / n_rows, 2) if n_rows else 0.0
                counts[f"{alias}.binary_aggregate"] = n_rows
            continue
        if key.endswith("_score") and key[: -len("_score")] in _CONTENT_SAFETY:
            found = [n for n in map(to_number, values) if n is not None]
            safety[name.replace("_score", "_defect_rate")] = _rate([float(n >= _DEFECT_THRESHOLD) for n in found])
            counts[name.replace("_score", "_defect_rate")] = len(found)
        elif key.endswith("_label") and key[: -len("_label")].lower() in _LABELS:
            found = [n for n in map(to_number, values) if n is not None]
            labels[name.replace("_label", "_defect_rate")] = _rate(found)
            counts[name.replace("_label", "_defect_rate")] = len(found)
            continue
        elif key.endswith("_details") and key[: -len("_details")].lower() in _LABELS:
            details = {}  # azure keeps the last details column only
            flags: dict[str, list[Any]] = {}
            for row in values:
                if isinstance(row, Mapping):
                    for sub, flag in row.items():
                        flags.setdefault(sub, []).append(flag)
            for sub, found in flags.items():
                numbers = [n for n in map(to_number, found) if n is not None]
                details[f"{name}.{sub}_defect_rate"] = _numpy_rate(numbers)
                counts[f"{name}.{sub}_defect_rate"] = len(found)
            continue
        if numeric and not key.endswith(("_threshold", *_TOKEN_COUNTS)):
            means[name] = mean_of([None if v is None else float(v) for v in values])
            counts[name] = sum(v is not None for v in values)
    metrics = {k: v for k, v in {**means, **safety, **labels, **details, **binary}.items() if v is not None}
    return metrics, {k: counts[k] for k in metrics}
