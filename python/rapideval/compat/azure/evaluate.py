"""azure-ai-evaluation 1.18.10's ``evaluate`` on :func:`rapideval.compat.promptflow.evaluate.evaluate`, which
has the same rows/metrics shape: azure's keyword names, and ``fail_on_evaluator_errors``."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from ..promptflow.evaluate import evaluate as _pf_evaluate

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

    Runs :func:`rapideval.compat.promptflow.evaluate.evaluate` (each evaluator's rows in one batch; see it
    for ``data``, ``evaluator_config`` with ``column_mapping`` and ``target``) and returns its
    ``{"rows", "metrics", "studio_url", "errors", "counts"}``. ``azure_ai_project`` is not used (nothing is
    logged). With ``fail_on_evaluator_errors`` a row an evaluator failed on raises ``RuntimeError`` naming
    it, after the run, as azure raises; otherwise the row's outputs are None. azure's
    ``<alias>.binary_aggregate`` metric is not computed."""
    if azure_ai_project is not None and not isinstance(azure_ai_project, Mapping):
        azure_ai_project = None  # azure takes a project endpoint URL too; nothing is uploaded either way
    result = _pf_evaluate(
        data=data, evaluators=evaluators, evaluation_name=evaluation_name, target=target,
        evaluator_config=evaluator_config, azure_ai_project=azure_ai_project, output_path=output_path, **kwargs,
    )  # fmt: skip
    failed = [e for e in result["errors"] if e.get("evaluator") is not None]
    if fail_on_evaluator_errors and failed:
        first = failed[0]
        raise RuntimeError(f"evaluate: {len(failed)} evaluator error(s); first: evaluator {first['evaluator']!r} "
                           f"on row {first['row']}: {first.get('message', first)}")  # fmt: skip
    return result
