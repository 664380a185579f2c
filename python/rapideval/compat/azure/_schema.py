"""azure-ai-evaluation 1.18.10's result fields, shared by this package's evaluators: the pass/fail rule and
the token metadata it adds to a judged result. Names and rules only: scores come from the metric layer."""

from __future__ import annotations

from typing import Any

from ...judged.base import MetricResult
from ...llm import JudgeClient
from ._constants import EVALUATION_PASS_FAIL_MAPPING as _PASS_FAIL

__all__ = ["passed", "rai_metadata", "token_metadata", "verdict"]


def passed(score: float, threshold: float, higher_is_better: bool) -> bool:
    """azure's rule (``_base_eval.EvaluatorBase._real_call``, ``_prompty_strategy``): ``score >= threshold``
    when higher is better, else ``score <= threshold``."""
    return score >= threshold if higher_is_better else score <= threshold


def verdict(ok: bool) -> str:
    """``"pass"`` or ``"fail"``."""
    return _PASS_FAIL[ok]


def token_metadata(result: MetricResult, judge: JudgeClient) -> dict[str, Any]:
    """azure's ``ModelEvaluatorBase._get_token_metadata`` keys, filled from the row's usage and the judge."""
    usage = result.usage
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "total_tokens": usage.prompt_tokens + usage.completion_tokens,
        "finish_reason": "",
        "model": judge.model,
        "sample_input": "",
        "sample_output": "",
    }


def rai_metadata(key: str, result: MetricResult, judge: JudgeClient) -> dict[str, Any]:
    """The ``<key>_total_tokens`` ... ``<key>_model`` fields of azure's ``RaiServiceEvaluatorBase.
    _parse_eval_result`` (the service gives the token counts as text, the other four empty)."""
    usage = result.usage
    return {
        f"{key}_total_tokens": str(usage.prompt_tokens + usage.completion_tokens),
        f"{key}_prompt_tokens": str(usage.prompt_tokens),
        f"{key}_completion_tokens": str(usage.completion_tokens),
        f"{key}_finish_reason": "",
        f"{key}_sample_input": "",
        f"{key}_sample_output": "",
        f"{key}_model": "",
    }
