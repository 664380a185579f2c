# Copied from the azure-ai-evaluation 1.18.10 source distribution (azure_ai_evaluation-1.18.10.tar.gz:
# tests/unittests/test_content_safety_defect_rate.py).
# Copyright (c) Microsoft Corporation; MIT License (../LICENSE); the file has no licence header of its own.
# Only the import lines were changed: azure.ai.evaluation -> rapideval.compat.azure (EvaluationException and its
# enums from rapideval.compat.azure._exceptions); azure's private _aggregate_metrics, used only by the test
# deselected in tests/peers/README.md, removed.
import os
import pathlib

import pandas as pd
import pytest

from rapideval.compat.azure import ContentSafetyEvaluator
from rapideval.compat.azure._exceptions import EvaluationException, ErrorBlame, ErrorCategory, ErrorTarget


def _get_file(name):
    """Get the file from the unittest data folder."""
    data_path = os.path.join(pathlib.Path(__file__).parent.resolve(), "data")
    return os.path.join(data_path, name)


@pytest.mark.unittest
class TestContentSafetyDefectRate:
    def test_content_safety_defect_rate(self):
        file_path = _get_file("validate_defect_rate_test_data.jsonl")
        df = pd.read_json(file_path, lines=True, orient="records")
        df = df.fillna("n/a")
        metrics = _aggregate_metrics(df, {"content_safety": ContentSafetyEvaluator})

        assert metrics["content_safety.hate_unfairness_defect_rate"] == 0.33

    @pytest.mark.parametrize(
        "kwargs",
        [
            {"violence_threshold": 0.5},
            {"sexual_threshold": "3"},
            {"self_harm_threshold": None},
            {"hate_unfairness_threshold": [3]},
        ],
    )
    def test_invalid_threshold_type_error_metadata(self, kwargs):
        """Test that a non-int threshold raises EvaluationException with correct metadata."""
        with pytest.raises(EvaluationException) as exc_info:
            ContentSafetyEvaluator(credential=None, azure_ai_project=None, **kwargs)  # type: ignore

        exc = exc_info.value
        assert exc.blame == ErrorBlame.USER_ERROR
        assert exc.category == ErrorCategory.INVALID_VALUE
        assert exc.target == ErrorTarget.CONTENT_SAFETY_CHAT_EVALUATOR
