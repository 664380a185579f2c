# Copied from the azure-ai-evaluation 1.18.10 source distribution (azure_ai_evaluation-1.18.10.tar.gz:
# tests/e2etests/test_builtin_evaluators.py), its tests of the evaluators that need no model and no Azure service
# only (BLEU, GLEU, METEOR, ROUGE, F1), the class that holds them cut down to those tests, which are unchanged.
# Copyright (c) Microsoft Corporation; MIT License (../LICENSE); the file has no licence header of its own.
# Imports: azure.ai.evaluation -> rapideval.compat.azure, only the names these tests use; the file's other imports
# (azure.ai.inference, devtools_testutils, azure's private modules) serve only the tests not copied.
import pytest

from rapideval.compat.azure import (
    BleuScoreEvaluator,
    F1ScoreEvaluator,
    GleuScoreEvaluator,
    MeteorScoreEvaluator,
    RougeScoreEvaluator,
    RougeType,
)


@pytest.mark.usefixtures("recording_injection", "recorded_test")
@pytest.mark.localtest
class TestBuiltInEvaluators:
    def test_math_evaluator_bleu_score(self):
        eval_fn = BleuScoreEvaluator()
        score = eval_fn(
            ground_truth="The capital of Japan is Tokyo.",
            response="Tokyo is the capital of Japan.",
        )
        assert score is not None and "bleu_score" in score
        assert 0 <= score["bleu_score"] <= 1

    def test_math_evaluator_gleu_score(self):
        eval_fn = GleuScoreEvaluator()
        score = eval_fn(
            ground_truth="The capital of Japan is Tokyo.",
            response="Tokyo is the capital of Japan.",
        )
        assert score is not None and "gleu_score" in score
        assert 0 <= score["gleu_score"] <= 1

    def test_math_evaluator_meteor_score(self):
        eval_fn = MeteorScoreEvaluator()
        score = eval_fn(
            ground_truth="The capital of Japan is Tokyo.",
            response="Tokyo is the capital of Japan.",
        )
        assert score is not None and "meteor_score" in score
        assert 0 <= score["meteor_score"] <= 1

    @pytest.mark.parametrize(
        "rouge_type",
        [
            (RougeType.ROUGE_1),
            (RougeType.ROUGE_2),
            (RougeType.ROUGE_3),
            (RougeType.ROUGE_4),
            (RougeType.ROUGE_5),
            (RougeType.ROUGE_L),
            # TODO: Enable them in a future PR
            # (RougeType.ROUGE_1.value),
            # (RougeType.ROUGE_2.value),
            # (RougeType.ROUGE_3.value),
            # (RougeType.ROUGE_4.value),
            # (RougeType.ROUGE_5.value),
            # (RougeType.ROUGE_L.value),
        ],
    )
    def test_math_evaluator_rouge_score(self, rouge_type):
        eval_fn = RougeScoreEvaluator(rouge_type)
        score = eval_fn(
            ground_truth="The capital of Japan is Tokyo.",
            response="Tokyo is the capital of Japan.",
        )
        assert score is not None
        assert "rouge_score" in score
        assert "rouge_properties" in score
        properties = score["rouge_properties"]
        assert "rouge_precision" in properties and "rouge_recall" in properties and "rouge_f1_score" in properties
        assert 0 <= properties["rouge_precision"] <= 1
        assert 0 <= properties["rouge_recall"] <= 1
        assert 0 <= properties["rouge_f1_score"] <= 1
        assert 0 <= score["rouge_score"] <= 1

    def test_quality_evaluator_f1_score(self):
        eval_fn = F1ScoreEvaluator()
        score = eval_fn(
            response="The capital of Japan is Tokyo.",
            ground_truth="Tokyo is Japan's capital.",
        )
        assert score is not None
        assert score["f1_score_score"] > 0.0
