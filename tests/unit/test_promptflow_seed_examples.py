"""The usage examples of promptflow.evals.evaluators' reference (seed document 003) for the five
deterministic evaluators, verbatim apart from the import lines: each returns exactly the documented
output keys, with promptflow-evals 0.3.5's own values."""

from __future__ import annotations

from typing import Any

import promptflow.evals.evaluators as pf


def same_as_promptflow(result: dict[str, Any], documented: dict[str, float], reference: Any, **inputs: str) -> None:
    assert list(result) == list(documented)
    assert all(type(v) is float for v in result.values())
    assert result == reference(**inputs)


def test_bleu_score_evaluator() -> None:
    from rapideval.compat.promptflow.evaluators import BleuScoreEvaluator

    eval_fn = BleuScoreEvaluator()
    result = eval_fn(
        answer="Tokyo is the capital of Japan.",
        ground_truth="The capital of Japan is Tokyo.")

    same_as_promptflow(result, {"bleu_score": 0.22}, pf.BleuScoreEvaluator(),
                       answer="Tokyo is the capital of Japan.", ground_truth="The capital of Japan is Tokyo.")


def test_f1_score_evaluator() -> None:
    from rapideval.compat.promptflow.evaluators import F1ScoreEvaluator

    eval_fn = F1ScoreEvaluator()
    result = eval_fn(
        answer="The capital of Japan is Tokyo.",
        ground_truth="Tokyo is Japan's capital, known for its blend of traditional culture                 and technological advancements.")  # noqa: E501 - verbatim

    same_as_promptflow(result, {"f1_score": 0.42}, pf.F1ScoreEvaluator(), answer="The capital of Japan is Tokyo.",
                       ground_truth="Tokyo is Japan's capital, known for its blend of traditional culture"
                                    "                 and technological advancements.")  # fmt: skip


def test_gleu_score_evaluator() -> None:
    from rapideval.compat.promptflow.evaluators import GleuScoreEvaluator

    eval_fn = GleuScoreEvaluator()
    result = eval_fn(
        answer="Tokyo is the capital of Japan.",
        ground_truth="The capital of Japan is Tokyo.")

    same_as_promptflow(result, {"gleu_score": 0.41}, pf.GleuScoreEvaluator(),
                       answer="Tokyo is the capital of Japan.", ground_truth="The capital of Japan is Tokyo.")


def test_meteor_score_evaluator() -> None:
    from rapideval.compat.promptflow.evaluators import MeteorScoreEvaluator

    eval_fn = MeteorScoreEvaluator(
        alpha=0.9,
        beta=3.0,
        gamma=0.5
    )
    result = eval_fn(
        answer="Tokyo is the capital of Japan.",
        ground_truth="The capital of Japan is Tokyo.")

    same_as_promptflow(result, {"meteor_score": 0.62}, pf.MeteorScoreEvaluator(alpha=0.9, beta=3.0, gamma=0.5),
                       answer="Tokyo is the capital of Japan.", ground_truth="The capital of Japan is Tokyo.")


def test_rouge_score_evaluator() -> None:
    from rapideval.compat.promptflow.evaluators import RougeScoreEvaluator, RougeType

    eval_fn = RougeScoreEvaluator(rouge_type=RougeType.ROUGE_1)
    result = eval_fn(
        answer="Tokyo is the capital of Japan.",
        ground_truth="The capital of Japan is Tokyo.")

    same_as_promptflow(result, {"rouge_precision": 1.0, "rouge_recall": 1.0, "rouge_f1_score": 1.0},
                       pf.RougeScoreEvaluator(rouge_type=pf.RougeType.ROUGE_1),
                       answer="Tokyo is the capital of Japan.", ground_truth="The capital of Japan is Tokyo.")
