# Copied from the azure-ai-evaluation 1.18.10 source distribution (azure_ai_evaluation-1.18.10.tar.gz:
# tests/unittests/test_evaluate.py).
# Copyright (c) Microsoft Corporation; MIT License (../LICENSE); the file has no licence header of its own.
# Only the import lines were changed: azure.ai.evaluation -> rapideval.compat.azure (EvaluationException and its
# enums from rapideval.compat.azure._exceptions, DEFAULT_EVALUATION_RESULTS_FILE_NAME from
# rapideval.compat.azure._constants, where azure keeps them); MISSING_LEGACY_SDK (a skipif condition) from
# ../_stubs.py; the imports of azure's private helpers (list_mean, AzureOpenAILabelGrader, _AggregationType,
# EvaluationRunProperties, PFClient and every name of azure's _evaluate._evaluate, _evaluate._utils and
# _evaluators._eci), used only by tests deselected in tests/peers/README.md, removed.
from typing import List, Dict, Union
import json
import logging
import math
import os
import pathlib
import numpy as np
from unittest.mock import MagicMock, call, patch

from azure.core.credentials import AccessToken, TokenCredential
from azure.core.pipeline import PipelineContext, PipelineRequest
from azure.core.pipeline.policies import BearerTokenCredentialPolicy
from azure.core.rest import HttpRequest
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal
from rapideval.compat.azure import (
    ContentSafetyEvaluator,
    F1ScoreEvaluator,
    GroundednessEvaluator,
    SimilarityEvaluator,
    ProtectedMaterialEvaluator,
    evaluate,
    ViolenceEvaluator,
    FluencyEvaluator,
    SexualEvaluator,
    SelfHarmEvaluator,
    HateUnfairnessEvaluator,
    AzureOpenAIModelConfiguration,
)
from rapideval.compat.azure._constants import DEFAULT_EVALUATION_RESULTS_FILE_NAME
from rapideval.compat.azure._exceptions import ErrorBlame, ErrorCategory, ErrorTarget, EvaluationException
from .._stubs import MISSING_LEGACY_SDK


def _get_file(name):
    """Get the file from the unittest data folder."""
    data_path = os.path.join(pathlib.Path(__file__).parent.resolve(), "data")
    return os.path.join(data_path, name)


@pytest.fixture
def unsupported_file_type():
    return _get_file("unsupported_file_type.txt")


@pytest.fixture
def missing_header_csv_file():
    return _get_file("no_header_evaluate_test_data.csv")


@pytest.fixture
def invalid_jsonl_file():
    return _get_file("invalid_evaluate_test_data.jsonl")


@pytest.fixture
def missing_columns_jsonl_file():
    return _get_file("missing_columns_evaluate_test_data.jsonl")


@pytest.fixture
def evaluate_test_data_jsonl_file():
    return _get_file("evaluate_test_data.jsonl")


@pytest.fixture
def evaluate_test_data_conversion_jsonl_file():
    return _get_file("evaluate_test_data_conversation.jsonl")


@pytest.fixture
def evaluate_test_data_alphanumeric():
    return _get_file("evaluate_test_data_alphanumeric.jsonl")


@pytest.fixture
def evaluate_test_data_for_groundedness():
    return _get_file("evaluate_test_data_for_groundedness.jsonl")


@pytest.fixture
def questions_file():
    return _get_file("questions.jsonl")


@pytest.fixture
def quotation_fix_test_data():
    return _get_file("quotation_fix_test_data.jsonl")


@pytest.fixture
def questions_wrong_file():
    return _get_file("questions_wrong.jsonl")


@pytest.fixture
def questions_answers_file():
    return _get_file("questions_answers.jsonl")


@pytest.fixture
def questions_answers_basic_file():
    return _get_file("questions_answers_basic.jsonl")


@pytest.fixture
def questions_answers_korean_file():
    return _get_file("questions_answers_korean.jsonl")


@pytest.fixture
def restore_env_vars():
    """Fixture to restore environment variables after the test."""
    original_vars = os.environ.copy()
    yield
    os.environ.clear()
    os.environ.update(original_vars)


def _target_fn(query):
    """An example target function."""
    if "LV-426" in query:
        return {"response": "There is nothing good there."}
    if "central heating" in query:
        return {"response": "There is no central heating on the streets today, but it will be, I promise."}
    if "strange" in query:
        return {"response": "The life is strange..."}


def _yeti_evaluator(query, response):
    if "yeti" in query.lower():
        raise ValueError("Do not ask about Yeti!")
    return {"result": len(response)}


def _target_fn2(query):
    response = _target_fn(query)
    response["query"] = f"The query is as follows: {query}"
    return response


def _target_that_fails(query):
    raise Exception("I am failing")


def _new_answer_target():
    return {"response": "new response"}


def _question_override_target(query):
    return {"query": "new query"}


def _question_answer_override_target(query, response):
    return {"query": "new query", "response": "new response"}


@pytest.mark.usefixtures("mock_model_config")
@pytest.mark.unittest
class TestEvaluate:
    def test_evaluate_evaluators_not_a_dict(self, mock_model_config, questions_file):
        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data=questions_file,
                evaluators=[GroundednessEvaluator(model_config=mock_model_config)],
            )

        assert "The 'evaluators' parameter must be a dictionary." in exc_info.value.args[0]

    def test_evaluate_invalid_data(self, mock_model_config):
        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data=123,
                evaluators={"g": GroundednessEvaluator(model_config=mock_model_config)},
            )

        assert "The 'data' parameter must be a string or a path-like object." in exc_info.value.args[0]

    def test_evaluate_data_not_exist(self, mock_model_config):
        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data="not_exist.jsonl",
                evaluators={"g": GroundednessEvaluator(model_config=mock_model_config)},
            )

        assert "The input data file path 'not_exist.jsonl' does not exist." in exc_info.value.args[0]

    def test_target_not_callable(self, mock_model_config, questions_file):
        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data=questions_file,
                evaluators={"g": GroundednessEvaluator(model_config=mock_model_config)},
                target="not_callable",
            )

        assert "The 'target' parameter must be a callable function." in exc_info.value.args[0]

    def test_evaluate_invalid_jsonl_data(self, mock_model_config, invalid_jsonl_file):
        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data=invalid_jsonl_file,
                evaluators={"g": GroundednessEvaluator(model_config=mock_model_config)},
            )

        assert "Unable to load data from " in exc_info.value.args[0]
        assert "Supported formats are JSONL and CSV. Detailed error:" in exc_info.value.args[0]

    def test_evaluate_missing_required_inputs(self, missing_columns_jsonl_file):
        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data=missing_columns_jsonl_file, evaluators={"g": F1ScoreEvaluator()}, fail_on_evaluator_errors=True
            )
        expected_message = "Either 'conversation' or individual inputs must be provided."
        assert expected_message in exc_info.value.args[0]
        # Same call without failure flag shouldn't produce an exception.
        evaluate(data=missing_columns_jsonl_file, evaluators={"g": F1ScoreEvaluator()})

    def test_evaluate_missing_required_inputs_target(self, questions_wrong_file):
        with pytest.raises(EvaluationException) as exc_info:
            evaluate(data=questions_wrong_file, evaluators={"g": F1ScoreEvaluator()}, target=_target_fn)
        assert "Missing required inputs for target: ['query']." in exc_info.value.args[0]

    def test_target_not_generate_required_columns(self, questions_file):
        with pytest.raises(EvaluationException) as exc_info:
            # target_fn will generate the "response", but not "ground_truth".
            evaluate(
                data=questions_file,
                evaluators={"g": F1ScoreEvaluator()},
                target=_target_fn,
                fail_on_evaluator_errors=True,
            )

        expected_message = "Either 'conversation' or individual inputs must be provided."

        assert expected_message in exc_info.value.args[0]

        # Same call without failure flag shouldn't produce an exception.
        evaluate(data=questions_file, evaluators={"g": F1ScoreEvaluator()}, target=_target_fn)

    def test_target_raises_on_outputs(self):
        """Test we are raising exception if the output is column is present in the input."""
        data = _get_file("questions_answers_outputs.jsonl")
        with pytest.raises(EvaluationException) as cm:
            evaluate(
                data=data,
                target=_target_fn,
                evaluators={"g": F1ScoreEvaluator()},
            )
        assert 'The column cannot start from "__outputs." if target was defined.' in cm.value.args[0]

    @pytest.mark.parametrize(
        "input_file,out_file,expected_columns,fun",
        [
            ("questions.jsonl", "questions_answers.jsonl", {"response"}, _target_fn),
            (
                "questions_ground_truth.jsonl",
                "questions_answers_ground_truth.jsonl",
                {"response", "query"},
                _target_fn2,
            ),
        ],
    )
    @pytest.mark.skip(reason="Breaking CI by crashing pytest somehow")
    def test_apply_target_to_data(self, pf_client, input_file, out_file, expected_columns, fun):
        """Test that target was applied correctly."""
        data = _get_file(input_file)
        expexted_out = _get_file(out_file)
        initial_data = pd.read_json(data, lines=True)
        qa_df, columns, _ = _apply_target_to_data(fun, data, pf_client, initial_data)
        assert columns == expected_columns
        ground_truth = pd.read_json(expexted_out, lines=True)
        assert_frame_equal(qa_df, ground_truth, check_like=True)

    @pytest.mark.skip(reason="Breaking CI by crashing pytest somehow")
    def test_apply_column_mapping(self):
        json_data = [
            {
                "query": "How are you?",
                "ground_truth": "I'm fine",
            }
        ]
        inputs_mapping = {
            "query": "${data.query}",
            "response": "${data.ground_truth}",
        }

        data_df = pd.DataFrame(json_data)
        new_data_df = _apply_column_mapping(data_df, inputs_mapping)

        assert "query" in new_data_df.columns
        assert "response" in new_data_df.columns

        assert new_data_df["query"][0] == "How are you?"
        assert new_data_df["response"][0] == "I'm fine"

    @pytest.mark.parametrize(
        "json_data,inputs_mapping,response",
        [
            (
                [
                    {
                        "query": "How are you?",
                        "__outputs.response": "I'm fine",
                    }
                ],
                {
                    "query": "${data.query}",
                    "response": "${run.outputs.response}",
                },
                "I'm fine",
            ),
            (
                [
                    {
                        "query": "How are you?",
                        "response": "I'm fine",
                        "__outputs.response": "I'm great",
                    }
                ],
                {
                    "query": "${data.query}",
                    "response": "${run.outputs.response}",
                },
                "I'm great",
            ),
            (
                [
                    {
                        "query": "How are you?",
                        "response": "I'm fine",
                        "__outputs.response": "I'm great",
                    }
                ],
                {
                    "query": "${data.query}",
                    "response": "${data.response}",
                },
                "I'm fine",
            ),
            (
                [
                    {
                        "query": "How are you?",
                        "response": "I'm fine",
                        "__outputs.response": "I'm great",
                    }
                ],
                {
                    "query": "${data.query}",
                    "response": "${data.response}",
                    "another_response": "${run.outputs.response}",
                },
                "I'm fine",
            ),
            (
                [
                    {
                        "query": "How are you?",
                        "response": "I'm fine",
                        "__outputs.response": "I'm great",
                    }
                ],
                {
                    "query": "${data.query}",
                    "response": "${run.outputs.response}",
                    "another_response": "${data.response}",
                },
                "I'm great",
            ),
            (
                [
                    {
                        "query": "How are you?",
                        "__outputs.response": "I'm fine",
                        "else": "Another column",
                        "else1": "Another column 1",
                    }
                ],
                {
                    "query": "${data.query}",
                    "response": "${run.outputs.response}",
                    "else1": "${data.else}",
                    "else2": "${data.else1}",
                },
                "I'm fine",
            ),
        ],
    )
    def test_apply_column_mapping_target(self, json_data, inputs_mapping, response):

        data_df = pd.DataFrame(json_data)
        new_data_df = _apply_column_mapping(data_df, inputs_mapping)

        assert "query" in new_data_df.columns
        assert "response" in new_data_df.columns

        assert new_data_df["query"][0] == "How are you?"
        assert new_data_df["response"][0] == response
        if "another_response" in inputs_mapping:
            assert "another_response" in new_data_df.columns
            assert new_data_df["another_response"][0] != response
        if "else" in inputs_mapping:
            assert "else1" in new_data_df.columns
            assert new_data_df["else1"][0] == "Another column"
            assert "else2" in new_data_df.columns
            assert new_data_df["else2"][0] == "Another column 1"

    @pytest.mark.parametrize(
        "column_mapping",
        [
            {"query": "${foo.query}"},
            {"query": "${data.query"},
            {"query": "data.query", "response": "target.response"},
        ],
    )
    def test_evaluate_invalid_column_mapping(self, mock_model_config, evaluate_test_data_jsonl_file, column_mapping):
        # Invalid source reference
        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data=evaluate_test_data_jsonl_file,
                evaluators={"g": GroundednessEvaluator(model_config=mock_model_config)},
                evaluator_config={
                    "g": {
                        "column_mapping": column_mapping,
                    }
                },
            )

        assert (
            "Unexpected references detected in 'column_mapping'. Ensure only ${target.} and ${data.} are used."
            in exc_info.value.args[0]
        )

    def test_evaluate_valid_column_mapping_with_numeric_chars(self, mock_model_config, evaluate_test_data_alphanumeric):
        # Valid column mappings that include numeric characters
        # This test validates the fix for the regex pattern that now accepts numeric characters
        # Previous regex was `re.compile(r"^\$\{(target|data)\.[a-zA-Z_]+\}$")`
        # New regex is `re.compile(r"^\$\{(target|data)\.[a-zA-Z0-9_]+\}$")`

        column_mappings_with_numbers = {
            "response": "${data.response123}",
            "query": "${data.query456}",
            "context": "${data.context789}",
        }  # This should not raise an exception with the updated regex for column mapping format validation
        # The test passes if no exception about "Unexpected references" is raised
        result = evaluate(
            data=evaluate_test_data_alphanumeric,
            evaluators={"g": GroundednessEvaluator(model_config=mock_model_config)},
            evaluator_config={
                "g": {
                    "column_mapping": column_mappings_with_numbers,
                }
            },
            fail_on_evaluator_errors=False,
        )

        # Verify that the test completed without errors related to column mapping format
        # The test data has the fields with numeric characters, so it should work correctly
        assert result is not None
        # Verify we're getting data from the numerically-named fields
        row_result_df = pd.DataFrame(result["rows"])
        assert "inputs.response123" in row_result_df.columns
        assert "inputs.query456" in row_result_df.columns
        assert "inputs.context789" in row_result_df.columns

    def test_evaluate_groundedness_tool_result(self, mock_model_config, evaluate_test_data_for_groundedness):
        # Validates if groundedness evaluator does not add tool_call results to tool call messages

        result = evaluate(
            data=evaluate_test_data_for_groundedness,
            evaluators={"g": GroundednessEvaluator(model_config=mock_model_config)},
            fail_on_evaluator_errors=False,
        )

        # Verify that the test completed without errors related to column mapping format
        # The test data has the fields with numeric characters, so it should work correctly
        assert result is not None
        # Verify we're getting data from the numerically-named fields
        row_result_df = pd.DataFrame(result["rows"])
        assert "inputs.response" in row_result_df.columns
        assert "inputs.query" in row_result_df.columns

        # Break down the assertion for better error handling
        response_data = row_result_df["inputs.response"][0]
        first_message = response_data[0]
        content_data = first_message["content"][0]

        # Now check if "tool_result" is in the keys
        assert "tool_result" not in content_data.keys()

    def test_renaming_column(self):
        """Test that the columns are renamed correctly."""
        df = pd.DataFrame(
            {
                "just_column": ["just_column."],
                "presnt_generated": ["Is present in data set."],
                "__outputs.presnt_generated": ["This was generated by target."],
                "__outputs.generated": ["Generaged by target"],
                "outputs.before": ["Despite prefix this column was before target."],
            }
        )
        df_expected = pd.DataFrame(
            {
                "inputs.just_column": ["just_column."],
                "inputs.presnt_generated": ["Is present in data set."],
                "outputs.presnt_generated": ["This was generated by target."],
                "outputs.generated": ["Generaged by target"],
                "inputs.outputs.before": ["Despite prefix this column was before target."],
            }
        )
        df_actuals = _rename_columns_conditionally(df)
        assert_frame_equal(df_actuals.sort_index(axis=1), df_expected.sort_index(axis=1))

    def test_evaluate_output_dir_not_exist(self, mock_model_config, questions_file):
        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data=questions_file,
                evaluators={"g": GroundednessEvaluator(model_config=mock_model_config)},
                output_path="./not_exist_dir/output.jsonl",
            )

        assert "The output directory './not_exist_dir' does not exist." in exc_info.value.args[0]

    @pytest.mark.parametrize("use_relative_path", [True, False])
    def test_evaluate_output_path(self, evaluate_test_data_jsonl_file, tmpdir, monkeypatch, use_relative_path):
        # output_path is a file
        if use_relative_path:
            output_path = os.path.join(tmpdir, "eval_test_results.jsonl")
        else:
            # A bare relative filename races across pytest-xdist workers sharing the CWD (intermittent
            # FileNotFoundError on cleanup); chdir into the per-test tmpdir to isolate it.
            monkeypatch.chdir(tmpdir)
            output_path = "eval_test_results.jsonl"

        result = evaluate(
            data=evaluate_test_data_jsonl_file,
            evaluators={"g": F1ScoreEvaluator()},
            output_path=output_path,
        )

        assert result is not None
        assert os.path.exists(output_path)
        assert os.path.isfile(output_path)

        with open(output_path, "r") as f:
            content = f.read()
            data_from_file = json.loads(content)
            assert result["metrics"] == data_from_file["metrics"]

        os.remove(output_path)

        # output_path is a directory
        result = evaluate(
            data=evaluate_test_data_jsonl_file,
            evaluators={"g": F1ScoreEvaluator()},
            output_path=os.path.join(tmpdir),
        )

        with open(os.path.join(tmpdir, DEFAULT_EVALUATION_RESULTS_FILE_NAME), "r") as f:
            content = f.read()
            data_from_file = json.loads(content)
            assert result["metrics"] == data_from_file["metrics"]

    def test_evaluate_with_errors(self):
        """Test evaluate_handle_errors"""
        data = _get_file("yeti_questions.jsonl")
        result = evaluate(data=data, evaluators={"yeti": _yeti_evaluator})
        result_df = pd.DataFrame(result["rows"])
        expected = pd.read_json(data, lines=True)
        expected.rename(columns={"query": "inputs.query", "response": "inputs.response"}, inplace=True)

        expected["outputs.yeti.result"] = expected["inputs.response"].str.len()
        expected.at[0, "outputs.yeti.result"] = math.nan
        expected.at[2, "outputs.yeti.result"] = math.nan
        expected.at[3, "outputs.yeti.result"] = math.nan
        assert_frame_equal(expected, result_df)

    @patch("azure.ai.evaluation._evaluate._evaluate._evaluate")
    def test_evaluate_main_entry_guard(self, mock_evaluate, evaluate_test_data_jsonl_file):
        err_msg = (
            "An attempt has been made to start a new process before the\n        "
            "current process has finished its bootstrapping phase."
        )
        mock_evaluate.side_effect = RuntimeError(err_msg)

        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data=evaluate_test_data_jsonl_file,
                evaluators={"f1_score": F1ScoreEvaluator()},
            )

        assert "Please ensure the evaluate API is properly guarded with the '__main__' block" in exc_info.value.args[0]

    @pytest.mark.skipif(MISSING_LEGACY_SDK, reason="This test has a promptflow dependency")
    def test_get_trace_destination(self, mock_validate_trace_destination, mock_project_scope):
        pf_client = PFClient()
        trace_destination_without_override = pf_client._config.get_trace_destination()

        pf_client = PFClient(
            config={
                "trace.destination": (
                    _trace_destination_from_project_scope(mock_project_scope) if mock_project_scope else None
                )
            }
        )

        trace_destination_with_override = pf_client._config.get_trace_destination()

        assert trace_destination_with_override != trace_destination_without_override
        assert trace_destination_with_override == _trace_destination_from_project_scope(mock_project_scope)

    def test_content_safety_aggregation(self):
        data = {
            # 10 zeroes in a list fully written out
            "content_safety.violence_score": [0, 0, 1, 2, 5, 5, 6, 7, np.nan, None],
            "content_safety.sexual_score": [0, 0, 2, 3, 3, 3, 8, 8, np.nan, None],
            "content_safety.self_harm_score": [0, 0, 0, 0, 1, 1, 1, 1, np.nan, None],
            "content_safety.hate_unfairness_score": [0, 0, 1, 1, 2, 2, 3, 5, 6, 7],
            "content_safety.violence": [
                "low",
                "low",
                "low",
                "low",
                "high",
                "high",
                "high",
                "high",
                "high",
                "high",
            ],  # TODO DETERMINE ACTUAL BASED ON SCORES
            "content_safety.sexual": ["low", "low", "low", "low", "low", "low", "high", "high", "high", "high"],
            "content_safety.self_harm": ["low", "low", "low", "low", "low", "low", "low", "low", "high", "high"],
            "content_safety.hate_unfairness": ["low", "low", "low", "low", "low", "low", "low", "low", "low", "high"],
            "content_safety.violence_reason": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"],
            "content_safety.sexual_reason": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"],
            "content_safety.self_harm_reason": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"],
            "content_safety.hate_unfairness_reason": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"],
        }
        data_df = pd.DataFrame(data)
        evaluators = {
            "content_safety": ContentSafetyEvaluator,
        }
        aggregation = _aggregate_metrics(data_df, evaluators)

        assert len(aggregation) == 8  # 4 defect rates + 4 average scores
        assert aggregation["content_safety.violence_defect_rate"] == 0.5
        assert aggregation["content_safety.sexual_defect_rate"] == 0.25
        assert aggregation["content_safety.self_harm_defect_rate"] == 0.0
        assert aggregation["content_safety.hate_unfairness_defect_rate"] == 0.3

        no_results = _aggregate_metrics(pd.DataFrame({"content_safety.violence_score": [np.nan, None]}), evaluators)
        assert len(no_results) == 0

    def test_label_based_aggregation(self):
        data = {
            "eci.eci_label": [True, True, True, np.nan, None],
            "eci.eci_reasoning": ["a", "b", "c", "d", "e"],
            "protected_material.protected_material_label": [False, False, False, False, True],
            "protected_material.protected_material_reasoning": ["f", "g", "h", "i", "j"],
            "unknown.unaccounted_label": [False, False, False, True, True],
            "unknown.unaccounted_reasoning": ["k", "l", "m", "n", "o"],
        }
        data_df = pd.DataFrame(data)
        evaluators = {
            "eci": ECIEvaluator,
            "protected_material": ProtectedMaterialEvaluator,
        }
        aggregation = _aggregate_metrics(data_df, evaluators)
        # ECI and PM labels should be replaced with defect rates, unaccounted should not
        assert len(aggregation) == 3
        assert "eci.eci_label" not in aggregation
        assert "protected_material.protected_material_label" not in aggregation
        assert aggregation["unknown.unaccounted_label"] == 0.4

        assert aggregation["eci.eci_defect_rate"] == 1.0
        assert aggregation["protected_material.protected_material_defect_rate"] == 0.2
        assert "unaccounted_defect_rate" not in aggregation

        no_results = _aggregate_metrics(pd.DataFrame({"eci.eci_label": [np.nan, None]}), evaluators)
        assert len(no_results) == 0

    def test_other_aggregation(self):
        data = {
            "thing.groundedness_pro_label": [True, False, True, False, np.nan, None],
        }
        data_df = pd.DataFrame(data)
        evaluators = {}
        aggregation = _aggregate_metrics(data_df, evaluators)

        assert len(aggregation) == 1
        assert aggregation["thing.groundedness_pro_passing_rate"] == 0.5

        no_results = _aggregate_metrics(pd.DataFrame({"thing.groundedness_pro_label": [np.nan, None]}), {})
        assert len(no_results) == 0

    def test_general_aggregation(self):
        data = {
            "thing.metric": [1, 2, 3, 4, 5, np.nan, None],
            "thing.reasoning": ["a", "b", "c", "d", "e", "f", "g"],
            "other_thing.other_meteric": [-1, -2, -3, -4, -5, np.nan, None],
            "other_thing.other_reasoning": ["f", "g", "h", "i", "j", "i", "j"],
            "final_thing.final_metric": [False, False, False, True, True, True, False],
            "bad_thing.mixed_metric": [0, 1, False, True, 0.5, True, False],
            "bad_thing.boolean_with_nan": [True, False, True, False, True, False, np.nan],
            "bad_thing.boolean_with_none": [True, False, True, False, True, False, None],
        }
        data_df = pd.DataFrame(data)
        evaluators = {}
        aggregation = _aggregate_metrics(data_df, evaluators)

        assert len(aggregation) == 3
        assert aggregation["thing.metric"] == 3
        assert aggregation["other_thing.other_meteric"] == -3
        assert aggregation["final_thing.final_metric"] == 3 / 7.0
        assert "bad_thing.mixed_metric" not in aggregation
        assert "bad_thing.boolean_with_nan" not in aggregation
        assert "bad_thing.boolean_with_none" not in aggregation

    def test_binary_aggregation_skips_unhashable_result_columns(self, caplog):
        """A `_result` column containing list values must not crash binary aggregation."""
        data = {
            # Valid binary pass/fail column - should be aggregated.
            "outputs.good_eval.metric_result": ["pass", "pass", "fail", "pass"],
            # Malformed column whose values are lists (unhashable) - should be skipped
            # with a warning instead of raising TypeError: unhashable type: 'list'.
            "outputs.bad_eval.metric_result": [["a"], ["b"], ["c"], ["d"]],
        }
        data_df = pd.DataFrame(data)

        with caplog.at_level(logging.WARNING, logger="azure.ai.evaluation._evaluate._evaluate"):
            aggregation = _aggregate_metrics(data_df, {})

        assert "good_eval.binary_aggregate" in aggregation
        assert aggregation["good_eval.binary_aggregate"] == 0.75
        assert "bad_eval.binary_aggregate" not in aggregation

        # The malformed column must be reported via a warning so silent drops are
        # caught by this regression test.
        unhashable_warnings = [
            record
            for record in caplog.records
            if record.levelno == logging.WARNING
            and "outputs.bad_eval.metric_result" in record.getMessage()
            and "unhashable" in record.getMessage()
        ]
        assert unhashable_warnings, (
            "Expected a warning mentioning 'outputs.bad_eval.metric_result' and 'unhashable', "
            f"got: {[r.getMessage() for r in caplog.records]}"
        )

    def test_aggregate_label_defect_metrics_with_nan_in_details(self):
        """Test that NaN/None values in details column are properly ignored during aggregation."""
        data = {
            "evaluator.protected_material_label": [True, False, True, False],
            "evaluator.protected_material_details": [
                {"detail1": 1, "detail2": 0},
                np.nan,  # Failed evaluation
                {"detail1": 0, "detail2": 1},
                None,  # Another failure case
            ],
        }
        df = pd.DataFrame(data)

        label_cols, defect_rates = _aggregate_label_defect_metrics(df)

        # Should calculate defect rate for label column (all 4 rows)
        assert "evaluator.protected_material_defect_rate" in defect_rates
        assert defect_rates["evaluator.protected_material_defect_rate"] == 0.5

        # Should calculate defect rates for detail keys (only from 2 valid dict rows)
        assert "evaluator.protected_material_details.detail1_defect_rate" in defect_rates
        assert "evaluator.protected_material_details.detail2_defect_rate" in defect_rates
        assert defect_rates["evaluator.protected_material_details.detail1_defect_rate"] == 0.5
        assert defect_rates["evaluator.protected_material_details.detail2_defect_rate"] == 0.5

    def test_quotation_fix_test_data(self, quotation_fix_test_data):
        from test_evaluators.test_inputs_evaluators import QuotationFixEval

        result = evaluate(
            data=quotation_fix_test_data,
            evaluators={
                "test_evaluator": QuotationFixEval(),
            },
        )

        print(result)
        assert result is not None
        assert result["rows"] is not None
        assert result["rows"][0] is not None
        assert result["rows"][0]["inputs.query"] == '"test"'
        assert result["rows"][0]["inputs.response"] == "test"
        assert result["rows"][0]["inputs.ground_truth"] == '"test"'
        assert result["rows"][0]["outputs.test_evaluator.score"] == 2
        assert result["rows"][0]["outputs.test_evaluator.reason"] == "ne"

        assert result["rows"][1] is not None
        assert result["rows"][1]["inputs.query"] == '"test"'
        assert result["rows"][1]["inputs.response"] == '"test"'
        assert result["rows"][1]["inputs.ground_truth"] == '"test"'
        assert result["rows"][1]["outputs.test_evaluator.score"] == 1
        assert result["rows"][1]["outputs.test_evaluator.reason"] == "eq"

    def test_optional_inputs_with_data(self, questions_file, questions_answers_basic_file):
        from test_evaluators.test_inputs_evaluators import HalfOptionalEval, NoInputEval, NonOptionalEval, OptionalEval

        # All variants work with both keyworded inputs
        results = evaluate(
            data=questions_answers_basic_file,
            evaluators={
                "non": NonOptionalEval(),
                "half": HalfOptionalEval(),
                "opt": OptionalEval(),
                "no": NoInputEval(),
            },
            _use_pf_client=False,
            _use_run_submitter_client=False,
        )  # type: ignore

        first_row = results["rows"][0]
        assert first_row["outputs.non.non_score"] == 0
        assert first_row["outputs.half.half_score"] == 1
        assert first_row["outputs.opt.opt_score"] == 3

        # Variant with no default inputs fails on single input
        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data=questions_file,
                evaluators={
                    "non": NonOptionalEval(),
                },
                _use_pf_client=False,
                _use_run_submitter_client=False,
            )  # type: ignore

        expected_message = "Some evaluators are missing required inputs:\n" "- non: ['response']\n"
        assert expected_message in exc_info.value.args[0]

        # Variants with default answer work when only question is inputted
        only_question_results = evaluate(
            data=questions_file,
            evaluators={"half": HalfOptionalEval(), "opt": OptionalEval(), "no": NoInputEval()},
            _use_pf_client=False,
            _use_run_submitter_client=False,
        )  # type: ignore

        first_row_2 = only_question_results["rows"][0]
        assert first_row_2["outputs.half.half_score"] == 0
        assert first_row_2["outputs.opt.opt_score"] == 1

    @pytest.mark.skip(reason="Breaking CI by crashing pytest somehow")
    def test_optional_inputs_with_target(self, questions_file, questions_answers_basic_file):
        from test_evaluators.test_inputs_evaluators import EchoEval

        # Check that target overrides default inputs
        target_answer_results = evaluate(
            data=questions_file,
            target=_new_answer_target,
            evaluators={"echo": EchoEval()},
            _use_pf_client=False,
            _use_run_submitter_client=False,
        )  # type: ignore

        assert target_answer_results["rows"][0]["outputs.echo.echo_query"] == "How long is flight from Earth to LV-426?"
        assert target_answer_results["rows"][0]["outputs.echo.echo_response"] == "new response"

        # Check that target replaces inputs from data (I.E. if both data and target have same output
        # the target output is sent to the evaluator.)
        question_override_results = evaluate(
            data=questions_answers_basic_file,
            target=_question_override_target,
            evaluators={"echo": EchoEval()},
            _use_pf_client=False,
            _use_run_submitter_client=False,
        )  # type: ignore

        assert question_override_results["rows"][0]["outputs.echo.echo_query"] == "new query"
        assert question_override_results["rows"][0]["outputs.echo.echo_response"] == "There is nothing good there."

        # Check that target can replace default and data inputs at the same time.
        double_override_results = evaluate(
            data=questions_answers_basic_file,
            target=_question_answer_override_target,
            evaluators={"echo": EchoEval()},
            _use_pf_client=False,
            _use_run_submitter_client=False,
        )  # type: ignore
        assert double_override_results["rows"][0]["outputs.echo.echo_query"] == "new query"
        assert double_override_results["rows"][0]["outputs.echo.echo_response"] == "new response"

    def test_conversation_aggregation_types(self, evaluate_test_data_conversion_jsonl_file):
        from test_evaluators.test_inputs_evaluators import CountingEval

        counting_eval = CountingEval()
        evaluators = {"count": counting_eval}
        # test default behavior - mean
        results = evaluate(data=evaluate_test_data_conversion_jsonl_file, evaluators=evaluators)
        assert results["rows"][0]["outputs.count.response"] == 1.5  # average of 1 and 2
        assert results["rows"][1]["outputs.count.response"] == 3.5  # average of 3 and 4

        # test maxing
        counting_eval.reset()
        counting_eval._set_conversation_aggregation_type(_AggregationType.MAX)
        results = evaluate(data=evaluate_test_data_conversion_jsonl_file, evaluators=evaluators)
        assert results["rows"][0]["outputs.count.response"] == 2
        assert results["rows"][1]["outputs.count.response"] == 4

        # test minimizing
        counting_eval.reset()
        counting_eval._set_conversation_aggregation_type(_AggregationType.MIN)
        results = evaluate(data=evaluate_test_data_conversion_jsonl_file, evaluators=evaluators)
        assert results["rows"][0]["outputs.count.response"] == 1
        assert results["rows"][1]["outputs.count.response"] == 3

        # test sum
        counting_eval.reset()
        counting_eval._set_conversation_aggregation_type(_AggregationType.SUM)
        results = evaluate(data=evaluate_test_data_conversion_jsonl_file, evaluators=evaluators)
        assert results["rows"][0]["outputs.count.response"] == 3
        assert results["rows"][1]["outputs.count.response"] == 7

        # test custom aggregator
        def custom_aggregator(values):
            return sum(values) + 1

        counting_eval.reset()
        counting_eval._set_conversation_aggregator(custom_aggregator)
        results = evaluate(data=evaluate_test_data_conversion_jsonl_file, evaluators=evaluators)
        assert results["rows"][0]["outputs.count.response"] == 4
        assert results["rows"][1]["outputs.count.response"] == 8

    def test_default_conversation_aggregation_overrides(self):
        fake_project = {"subscription_id": "123", "resource_group_name": "123", "project_name": "123"}
        eval1 = ViolenceEvaluator(None, fake_project)
        eval2 = SexualEvaluator(None, fake_project)
        eval3 = SelfHarmEvaluator(None, fake_project)
        eval4 = HateUnfairnessEvaluator(None, fake_project)
        eval5 = F1ScoreEvaluator()  # Test default
        assert eval1._conversation_aggregation_function == max
        assert eval2._conversation_aggregation_function == max
        assert eval3._conversation_aggregation_function == max
        assert eval4._conversation_aggregation_function == max
        assert eval5._conversation_aggregation_function == list_mean

    def test_conversation_aggregation_type_returns(self):
        fake_project = {"subscription_id": "123", "resource_group_name": "123", "project_name": "123"}
        eval1 = ViolenceEvaluator(None, fake_project)
        # Test builtins
        assert eval1._get_conversation_aggregator_type() == _AggregationType.MAX
        eval1._set_conversation_aggregation_type(_AggregationType.SUM)
        assert eval1._get_conversation_aggregator_type() == _AggregationType.SUM
        eval1._set_conversation_aggregation_type(_AggregationType.MAX)
        assert eval1._get_conversation_aggregator_type() == _AggregationType.MAX
        eval1._set_conversation_aggregation_type(_AggregationType.MIN)
        assert eval1._get_conversation_aggregator_type() == _AggregationType.MIN

        # test custom
        def custom_aggregator(values):
            return sum(values) + 1

        eval1._set_conversation_aggregator(custom_aggregator)
        assert eval1._get_conversation_aggregator_type() == _AggregationType.CUSTOM

    @pytest.mark.skipif(MISSING_LEGACY_SDK, reason="This test has a promptflow dependency")
    @pytest.mark.parametrize("use_async", ["true", "false"])  # Strings intended
    @pytest.mark.usefixtures("restore_env_vars")
    def test_aggregation_serialization(self, evaluate_test_data_conversion_jsonl_file, use_async):
        # This test exists to ensure that PF doesn't crash when trying to serialize a
        # complex aggregation function.
        from test_evaluators.test_inputs_evaluators import CountingEval

        counting_eval = CountingEval()
        evaluators = {"count": counting_eval}

        def custom_aggregator(values: List[float]) -> float:
            return sum(values) + 1

        os.environ["AI_EVALS_BATCH_USE_ASYNC"] = use_async
        _ = evaluate(data=evaluate_test_data_conversion_jsonl_file, evaluators=evaluators, _use_pf_client=True)
        counting_eval._set_conversation_aggregation_type(_AggregationType.MIN)
        _ = evaluate(data=evaluate_test_data_conversion_jsonl_file, evaluators=evaluators, _use_pf_client=True)
        counting_eval._set_conversation_aggregation_type(_AggregationType.SUM)
        _ = evaluate(data=evaluate_test_data_conversion_jsonl_file, evaluators=evaluators, _use_pf_client=True)
        counting_eval._set_conversation_aggregation_type(_AggregationType.MAX)
        _ = evaluate(data=evaluate_test_data_conversion_jsonl_file, evaluators=evaluators, _use_pf_client=True)
        if use_async == "true":
            counting_eval._set_conversation_aggregator(custom_aggregator)
            _ = evaluate(data=evaluate_test_data_conversion_jsonl_file, evaluators=evaluators, _use_pf_client=True)
        else:
            with pytest.raises(EvaluationException) as exc_info:
                counting_eval._set_conversation_aggregator(custom_aggregator)
                _ = evaluate(data=evaluate_test_data_conversion_jsonl_file, evaluators=evaluators, _use_pf_client=True)
            assert "TestEvaluate.test_aggregation_serialization.<locals>.custom_aggregator" in exc_info.value.args[0]

    def test_unsupported_file_inputs(self, mock_model_config, unsupported_file_type):
        with pytest.raises(EvaluationException) as cm:
            evaluate(
                data=unsupported_file_type,
                evaluators={"groundedness": GroundednessEvaluator(model_config=mock_model_config)},
            )
        assert "Unable to load data from " in cm.value.args[0]
        assert "Supported formats are JSONL and CSV. Detailed error:" in cm.value.args[0]

    def test_malformed_file_inputs(self, model_config, missing_header_csv_file, missing_columns_jsonl_file):
        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data=missing_columns_jsonl_file,
                evaluators={"similarity": SimilarityEvaluator(model_config=model_config)},
                fail_on_evaluator_errors=True,
            )

        assert "Either 'conversation' or individual inputs must be provided." in str(exc_info.value)

        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data=missing_header_csv_file,
                evaluators={"similarity": SimilarityEvaluator(model_config=model_config)},
                fail_on_evaluator_errors=True,
            )

        assert "Either 'conversation' or individual inputs must be provided." in str(exc_info.value)

    def test_target_failure_error_message(self, questions_file):
        with pytest.raises(EvaluationException) as exc_info:
            evaluate(
                data=questions_file,
                evaluators={"f1_score": F1ScoreEvaluator()},
                target=_target_that_fails,
            )

        assert "Evaluation target failed to produce any results. Please check the logs at " in str(exc_info.value)

    def test_evaluate_korean_characters_result(self, questions_answers_korean_file):
        output_path = "eval_test_results_korean.jsonl"

        result = evaluate(
            data=questions_answers_korean_file,
            evaluators={"g": F1ScoreEvaluator()},
            output_path=output_path,
        )

        assert result is not None

        with open(questions_answers_korean_file, "r", encoding="utf-8") as f:
            first_line = f.readline()
            data_from_file = json.loads(first_line)

        assert result["rows"][0]["inputs.query"] == data_from_file["query"]

        os.remove(output_path)

    def test_name_map_conversion(self):
        test_map = {
            "name1": "property1",
            "name2": "property2",
            "name3": "property3",
        }
        map_dump = json.dumps(test_map)

        # Test basic
        result = _convert_name_map_into_property_entries(test_map)
        assert result[EvaluationRunProperties.NAME_MAP_LENGTH] == 1
        assert result[f"{EvaluationRunProperties.NAME_MAP}_0"] == map_dump

        # Test with splits (dump of test map is 66 characters long)
        result = _convert_name_map_into_property_entries(test_map, segment_length=40)
        assert result[EvaluationRunProperties.NAME_MAP_LENGTH] == 2
        combined_strings = (
            result[f"{EvaluationRunProperties.NAME_MAP}_0"] + result[f"{EvaluationRunProperties.NAME_MAP}_1"]
        )
        # breakpoint()
        assert result[f"{EvaluationRunProperties.NAME_MAP}_0"] == map_dump[0:40]
        assert result[f"{EvaluationRunProperties.NAME_MAP}_1"] == map_dump[40:]
        assert combined_strings == map_dump

        # Test with exact split
        result = _convert_name_map_into_property_entries(test_map, segment_length=22)
        assert result[EvaluationRunProperties.NAME_MAP_LENGTH] == 3
        combined_strings = (
            result[f"{EvaluationRunProperties.NAME_MAP}_0"]
            + result[f"{EvaluationRunProperties.NAME_MAP}_1"]
            + result[f"{EvaluationRunProperties.NAME_MAP}_2"]
        )
        assert result[f"{EvaluationRunProperties.NAME_MAP}_0"] == map_dump[0:22]
        assert result[f"{EvaluationRunProperties.NAME_MAP}_1"] == map_dump[22:44]
        assert result[f"{EvaluationRunProperties.NAME_MAP}_2"] == map_dump[44:]
        assert combined_strings == map_dump

        # Test failure case
        result = _convert_name_map_into_property_entries(test_map, segment_length=10, max_segments=1)
        assert result[EvaluationRunProperties.NAME_MAP_LENGTH] == -1
        assert len(result) == 1

    def test_evaluate_evaluator_only_kwargs_param(self, evaluate_test_data_jsonl_file):
        """Validate that an evaluator with only an **kwargs param receives all input in kwargs."""

        def evaluator(**kwargs):
            return locals()

        result = evaluate(data=evaluate_test_data_jsonl_file, evaluators={"test": evaluator})

        assert len(result["rows"]) == 3

        assert {"query", "response", "ground_truth", "context"}.issubset(result["rows"][0]["outputs.test.kwargs"])
        assert {"query", "response", "ground_truth", "context"}.issubset(result["rows"][1]["outputs.test.kwargs"])
        assert {"query", "response", "ground_truth", "context"}.issubset(result["rows"][2]["outputs.test.kwargs"])

    def test_evaluate_evaluator_kwargs_param(self, evaluate_test_data_jsonl_file):
        """Validate that an evaluator with named parameters and **kwargs obeys python function call semantics."""

        def evaluator(query, response, *, bar=None, **kwargs):
            return locals()

        result = evaluate(data=evaluate_test_data_jsonl_file, evaluators={"test": evaluator})

        assert len(result["rows"]) == 3

        row1_kwargs = result["rows"][0]["outputs.test.kwargs"]
        row2_kwargs = result["rows"][1]["outputs.test.kwargs"]
        row3_kwargs = result["rows"][2]["outputs.test.kwargs"]

        assert {"ground_truth", "context"}.issubset(row1_kwargs), "Unnamed parameters should be in kwargs"
        assert {"query", "response", "bar"}.isdisjoint(row1_kwargs), "Named parameters should not be in kwargs"

        assert {"ground_truth", "context"}.issubset(row2_kwargs), "Unnamed parameters should be in kwargs"
        assert {"query", "response", "bar"}.isdisjoint(row2_kwargs), "Named parameters should not be in kwargs"

        assert {"ground_truth", "context"}.issubset(row3_kwargs), "Unnamed parameters should be in kwargs"
        assert {"query", "response", "bar"}.isdisjoint(row3_kwargs), "Named parameters should not be in kwargs"

    def test_evaluate_evaluator_kwargs_param_column_mapping(self, evaluate_test_data_jsonl_file):
        """Validate that an evaluator with kwargs can receive column mapped values."""

        def evaluator(query, response, *, bar=None, **kwargs):
            return locals()

        result = evaluate(
            data=evaluate_test_data_jsonl_file,
            evaluators={"test": evaluator},
            evaluator_config={
                "default": {
                    "column_mapping": {
                        "query": "${data.query}",
                        "response": "${data.response}",
                        "foo": "${data.context}",
                        "bar": "${data.ground_truth}",
                    }
                }
            },
        )

        assert len(result["rows"]) == 3

        row1_kwargs = result["rows"][0]["outputs.test.kwargs"]
        row2_kwargs = result["rows"][1]["outputs.test.kwargs"]
        row3_kwargs = result["rows"][2]["outputs.test.kwargs"]

        assert {"ground_truth", "context"}.issubset(row1_kwargs), "Unnamed parameters should be in kwargs"
        assert "foo" in row1_kwargs, "Making a column mapping to an unnamed parameter should appear in kwargs"
        assert {"query", "response", "bar"}.isdisjoint(row1_kwargs), "Named parameters should not be in kwargs"

        assert {"ground_truth", "context"}.issubset(row2_kwargs), "Unnamed parameters should be in kwargs"
        assert "foo" in row2_kwargs, "Making a column mapping to an unnamed parameter should appear in kwargs"
        assert {"query", "response", "bar"}.isdisjoint(row2_kwargs), "Named parameters should not be in kwargs"

        assert {"ground_truth", "context"}.issubset(row3_kwargs), "Unnamed parameters should be in kwargs"
        assert "foo" in row3_kwargs, "Making a column mapping to an unnamed parameter should appear in kwargs"
        assert {"query", "response", "bar"}.isdisjoint(row3_kwargs), "Named parameters should not be in kwargs"

    def test_convert_results_to_aoai_evaluation_results(self):
        """Test _convert_results_to_aoai_evaluation_results function with test data"""
        import logging

        # Load test data from the JSON file
        parent = pathlib.Path(__file__).parent.resolve()
        test_data_path = os.path.join(parent, "data", "evaluation_util_convert_old_output_test.jsonl")
        test_input_eval_metadata_path = os.path.join(parent, "data", "evaluation_util_convert_eval_meta_data.json")
        test_input_eval_config_path = os.path.join(parent, "data", "evaluation_util_convert_eval_config.json")
        test_input_eval_error_summary_path = os.path.join(parent, "data", "evaluation_util_convert_error_summary.json")
        test_expected_output_path = os.path.join(parent, "data", "evaluation_util_convert_expected_output.json")

        mock_model_config = AzureOpenAIModelConfiguration(
            azure_deployment="test-deployment",
            azure_endpoint="https://test-endpoint.openai.azure.com/",
            api_key="test-api-key",
            api_version="2024-12-01-preview",
        )
        fake_project = {"subscription_id": "123", "resource_group_name": "123", "project_name": "123"}

        evaluators = {
            "labelgrader": AzureOpenAILabelGrader(
                model_config=mock_model_config,
                input=[{"content": "{{item.query}}", "role": "user"}],
                labels=["positive", "negative", "neutral"],
                passing_labels=["neutral"],
                model="gpt-4o-2024-11-20",
                name="labelgrader",
            ),
            "violence": ViolenceEvaluator(None, fake_project),
            "self_harm": SelfHarmEvaluator(None, fake_project),
            "Fluency": FluencyEvaluator(model_config=mock_model_config),
            "ViolenceContentCustomEvaluator": callable(fake_project),
        }

        # Create logger
        logger = logging.getLogger("test_logger")
        # Read and parse the JSONL file (contains multiple JSON objects)
        test_rows = []
        with open(test_data_path, "r") as f:
            for line in f:
                line = line.strip()
                if line:
                    logger.info(line)
                    test_rows.append(json.loads(line))
        test_eval_input_metadata = {}
        with open(test_input_eval_metadata_path, "r") as f:
            test_eval_input_metadata = json.load(f)
        test_eval_input_config = {}
        with open(test_input_eval_config_path, "r") as f:
            test_eval_input_config = json.load(f)
        test_eval_error_summary = {}
        with open(test_input_eval_error_summary_path, "r") as f:
            test_eval_error_summary = json.load(f)

        eval_id = "test_eval_group_123"
        eval_run_id = "test_run_456"
        # Create EvaluationResult structure
        test_results = {"metrics": {"overall_score": 0.75}, "rows": test_rows, "studio_url": "https://test-studio.com"}

        # Test the conversion function
        def run_test():
            _convert_results_to_aoai_evaluation_results(
                results=test_results,
                logger=logger,
                eval_run_id=eval_run_id,
                eval_id=eval_id,
                evaluators=evaluators,
                eval_run_summary=test_eval_error_summary,
                eval_meta_data=test_eval_input_metadata,
                evaluator_config=test_eval_input_config,
            )

        # Run the async function
        run_test()
        converted_results = test_results

        # Verify the structure
        assert "metrics" in converted_results
        assert "rows" in converted_results
        assert "studio_url" in converted_results
        assert "_evaluation_results_list" in converted_results
        assert "_evaluation_summary" in converted_results

        # Normalize timestamp for comparison
        result_list = []
        for item in converted_results["_evaluation_results_list"]:
            item["created_at"] = 1762319309  # Fixed timestamp for testing
            result_list.append(item)
        converted_results["_evaluation_results_list"] = result_list
        converted_results_json = json.loads(f"{json.dumps(converted_results)}")
        expected_results_json = None
        with open(test_expected_output_path, "r") as f:
            expected_results_json = json.load(f)
        assert converted_results_json == expected_results_json

        # Verify metrics preserved
        assert converted_results["metrics"]["overall_score"] == 0.75

        # Verify studio URL preserved
        assert converted_results["studio_url"] == "https://test-studio.com"

        # Verify _evaluation_results_list is same as rows (converted format)
        assert len(converted_results["_evaluation_results_list"]) == len(test_rows)
        assert len(converted_results["_evaluation_results_list"]) == len(converted_results["rows"])

        # Verify conversion structure for each row
        for i, converted_row in enumerate(converted_results["_evaluation_results_list"]):
            # Check RunOutputItem structure
            assert "object" in converted_row
            assert converted_row["object"] == "eval.run.output_item"
            assert "id" in converted_row
            assert "run_id" in converted_row
            assert "eval_id" in converted_row
            assert "created_at" in converted_row
            assert "datasource_item_id" in converted_row
            assert "results" in converted_row
            assert "sample" in converted_row

            # Verify IDs
            assert converted_row["run_id"] == "test_run_456"
            assert converted_row["eval_id"] == "test_eval_group_123"
            assert converted_row["datasource_item_id"] == i

            # Verify results array structure
            assert isinstance(converted_row["results"], list)

            # Check that results contain expected evaluator results
            result_names = [result.get("name") for result in converted_row["results"]]

            # Based on test data, should have violence and labelgrader
            if i < len(test_rows):
                original_row = test_rows[i]
                expected_evaluators = set()
                for key in original_row.keys():
                    if key.startswith("outputs."):
                        parts = key.split(".", 2)
                        if len(parts) >= 2:
                            expected_evaluators.add(parts[1])

                # Verify all expected evaluators are present in results
                for evaluator in expected_evaluators:
                    assert evaluator in result_names

            # Check individual result structure
            for result in converted_row["results"]:
                assert "type" in result
                assert "name" in result
                assert "metric" in result

        # Verify _evaluation_summary structure
        summary = converted_results["_evaluation_summary"]
        assert "result_counts" in summary
        assert "per_model_usage" in summary
        assert "per_testing_criteria_results" in summary

        # Check result counts structure
        result_counts = summary["result_counts"]
        assert "total" in result_counts
        assert "passed" in result_counts
        assert "failed" in result_counts
        assert "errored" in result_counts

        logger.info(result_counts)
        # Verify counts are non-negative integers
        for count_type, count_value in result_counts.items():
            assert isinstance(count_value, int)
            assert count_value >= 0

        # Check per_testing_criteria_results structure
        criteria_results = summary["per_testing_criteria_results"]
        assert isinstance(criteria_results, list)
        logger.info(criteria_results)
        for criteria_result in criteria_results:
            assert "testing_criteria" in criteria_result
            assert "passed" in criteria_result
            assert "failed" in criteria_result
            assert isinstance(criteria_result["passed"], int)
            assert isinstance(criteria_result["failed"], int)

        # Check per_model_usage structure
        model_usage = summary["per_model_usage"]
        assert isinstance(model_usage, list)
        for usage_item in model_usage:
            assert "model_name" in usage_item
            assert "invocation_count" in usage_item
            assert "total_tokens" in usage_item
            assert "prompt_tokens" in usage_item
            assert "completion_tokens" in usage_item
            assert "cached_tokens" in usage_item

        # Test with empty results
        empty_results = {"metrics": {}, "rows": [], "studio_url": None}
        _convert_results_to_aoai_evaluation_results(
            results=empty_results, logger=logger, eval_run_id=eval_run_id, eval_id=eval_id, evaluators=evaluators
        )
        empty_converted = empty_results

        assert len(empty_converted["rows"]) == 0
        assert len(empty_converted["_evaluation_results_list"]) == 0
        assert empty_converted["_evaluation_summary"]["result_counts"]["total"] == 0

        # Test properties passthrough for custom evaluators
        property_results = {
            "metrics": {},
            "rows": [
                {
                    "inputs.query": "test query",
                    "outputs.friendly_eval.score": 4.5,
                    "outputs.friendly_eval.score_threshold": 3,
                    "outputs.friendly_eval.score_result": "Pass",
                    "outputs.friendly_eval.score_reason": "The response was warm",
                    "outputs.friendly_eval.properties": {
                        "explanation": "Detailed reasoning about friendliness",
                        "tone": "warm",
                        "confidence": "high",
                    },
                }
            ],
            "studio_url": None,
        }

        _convert_results_to_aoai_evaluation_results(
            results=property_results,
            logger=logger,
            eval_run_id=eval_run_id,
            eval_id=eval_id,
            evaluators={"friendly_eval": lambda **kwargs: {"score": 1}},
            eval_meta_data={
                "testing_criteria": [
                    {
                        "name": "friendly_eval",
                        "type": "quality",
                        "metrics": ["score"],
                    }
                ]
            },
        )

        property_result = property_results["_evaluation_results_list"][0]["results"][0]
        assert property_result["score"] == 4.5
        assert property_result["label"] == "Pass"
        assert property_result["reason"] == "The response was warm"
        assert property_result["threshold"] == 3
        assert property_result["properties"] == {
            "explanation": "Detailed reasoning about friendliness",
            "tone": "warm",
            "confidence": "high",
        }
        assert "explanation" not in property_result

        # Test that non-dict properties logs a warning and is omitted
        non_dict_property_results = {
            "metrics": {},
            "rows": [
                {
                    "inputs.query": "test query",
                    "outputs.friendly_eval.score": 3.0,
                    "outputs.friendly_eval.score_threshold": 3,
                    "outputs.friendly_eval.score_result": "Pass",
                    "outputs.friendly_eval.score_reason": "Acceptable",
                    "outputs.friendly_eval.properties": "not_a_dict",
                }
            ],
            "studio_url": None,
        }

        with patch.object(logger, "info") as mock_info:
            _convert_results_to_aoai_evaluation_results(
                results=non_dict_property_results,
                logger=logger,
                eval_run_id=eval_run_id,
                eval_id=eval_id,
                evaluators={"friendly_eval": lambda **kwargs: {"score": 1}},
                eval_meta_data={
                    "testing_criteria": [
                        {
                            "name": "friendly_eval",
                            "type": "quality",
                            "metrics": ["score"],
                        }
                    ]
                },
            )

        non_dict_result = non_dict_property_results["_evaluation_results_list"][0]["results"][0]
        assert "properties" not in non_dict_result
        mock_info.assert_any_call(
            "Evaluator '%s' returned 'properties' as %s instead of dict; ignoring.",
            "friendly_eval",
            "str",
        )

    def test_convert_results_skipped_evaluator(self):
        """Test that skipped evaluator status propagates to result_counts and per_testing_criteria."""
        import logging

        logger = logging.getLogger("test_logger")

        # A row where one evaluator completed and another was skipped
        skipped_results = {
            "metrics": {},
            "rows": [
                {
                    "inputs.query": "test query",
                    "outputs.coherence.coherence_score": 4.0,
                    "outputs.coherence.coherence_status": "completed",
                    "outputs.violence.violence_score": math.nan,
                    "outputs.violence.violence_status": "skipped",
                }
            ],
            "studio_url": None,
        }

        _convert_results_to_aoai_evaluation_results(
            results=skipped_results,
            logger=logger,
            eval_run_id="run1",
            eval_id="eval1",
            evaluators={
                "coherence": lambda **kwargs: {"score": 1},
                "violence": lambda **kwargs: {"score": 1},
            },
            eval_meta_data={
                "testing_criteria": [
                    {"name": "coherence", "type": "quality", "metrics": ["score"]},
                    {"name": "violence", "type": "azure_ai_evaluator", "metrics": ["score"]},
                ]
            },
        )

        summary = skipped_results["_evaluation_summary"]

        # Row-level: coherence is score-only (no passed), violence is skipped
        # skipped_count > 0 fires before else clause → row classified as skipped
        assert summary["result_counts"]["total"] == 1
        assert summary["result_counts"]["skipped"] == 1

        # Per-criteria level: violence should show 1 skipped
        per_criteria = {c["testing_criteria"]: c for c in summary["per_testing_criteria_results"]}
        assert per_criteria["violence"]["skipped"] == 1
        assert per_criteria["violence"]["passed"] == 0

        # Verify the skipped evaluator result item has status="skipped"
        row = skipped_results["_evaluation_results_list"][0]
        violence_result = [r for r in row["results"] if r["metric"] == "violence"][0]
        assert violence_result["status"] == "skipped"

    def test_convert_results_skipped_with_label_nulls_passed(self):
        """When a _result key eagerly derives passed=False but _status is skipped,
        the final result must have passed=None — skipped means 'not evaluated'."""
        import logging

        logger = logging.getLogger("test_logger")

        # Simulate an evaluator that returns both _result (which derives passed)
        # and _status="skipped" — e.g. tool_call_accuracy with no tool calls
        results = {
            "metrics": {},
            "rows": [
                {
                    "inputs.query": "test query",
                    "outputs.tool_call_accuracy.tool_call_accuracy_result": None,
                    "outputs.tool_call_accuracy.tool_call_accuracy_status": "skipped",
                }
            ],
            "studio_url": None,
        }

        _convert_results_to_aoai_evaluation_results(
            results=results,
            logger=logger,
            eval_run_id="run1",
            eval_id="eval1",
            evaluators={
                "tool_call_accuracy": lambda **kwargs: {"score": 1},
            },
            eval_meta_data={
                "testing_criteria": [
                    {
                        "name": "tool_call_accuracy",
                        "type": "azure_ai_evaluator",
                        "metrics": ["tool_call_accuracy"],
                    },
                ]
            },
        )

        row = results["_evaluation_results_list"][0]
        tca_result = [r for r in row["results"] if r["name"] == "tool_call_accuracy"][0]
        assert tca_result["status"] == "skipped"
        # The _result branch would have derived passed=False from label=None,
        # but the skipped status fix must null it out
        assert tca_result["passed"] is None

    def test_convert_results_mixed_passed_and_skipped(self):
        """Integration: a row with one passed evaluator and one skipped evaluator.
        Verifies per-result status propagation and that skipped doesn't block the pass."""
        import logging

        logger = logging.getLogger("test_logger")

        results = {
            "metrics": {},
            "rows": [
                {
                    "inputs.query": "test query",
                    "outputs.fluency.fluency_score": 4.0,
                    "outputs.fluency.fluency_result": "pass",
                    "outputs.fluency.fluency_status": "completed",
                    "outputs.tool_call_accuracy.tool_call_accuracy_result": None,
                    "outputs.tool_call_accuracy.tool_call_accuracy_status": "skipped",
                }
            ],
            "studio_url": None,
        }

        _convert_results_to_aoai_evaluation_results(
            results=results,
            logger=logger,
            eval_run_id="run1",
            eval_id="eval1",
            evaluators={
                "fluency": lambda **kwargs: {"score": 4},
                "tool_call_accuracy": lambda **kwargs: {"score": 1},
            },
            eval_meta_data={
                "testing_criteria": [
                    {
                        "name": "fluency",
                        "type": "azure_ai_evaluator",
                        "metrics": ["fluency"],
                    },
                    {
                        "name": "tool_call_accuracy",
                        "type": "azure_ai_evaluator",
                        "metrics": ["tool_call_accuracy"],
                    },
                ]
            },
        )

        row = results["_evaluation_results_list"][0]
        fluency_result = [r for r in row["results"] if r["name"] == "fluency"][0]
        tca_result = [r for r in row["results"] if r["name"] == "tool_call_accuracy"][0]

        # Fluency should be passed/completed
        assert fluency_result["status"] == "completed"
        assert fluency_result["passed"] is True
        assert fluency_result["score"] == 4.0

        # Tool call accuracy should be skipped with passed=None
        assert tca_result["status"] == "skipped"
        assert tca_result["passed"] is None

        # Row-level: should be "passed" in summary (1 pass, 0 fail, 1 skip)
        summary = _calculate_aoai_evaluation_summary(results["_evaluation_results_list"], logger, None)
        assert summary["result_counts"]["passed"] == 1
        assert summary["result_counts"]["skipped"] == 0
        assert summary["result_counts"]["failed"] == 0

    @patch(
        "azure.ai.evaluation._evaluate._evaluate._map_names_to_builtins",
        return_value={},
    )
    @patch("azure.ai.evaluation._evaluate._evaluate._get_evaluation_run_results")
    @patch("azure.ai.evaluation._evaluate._evaluate._begin_aoai_evaluation")
    @patch("azure.ai.evaluation._evaluate._evaluate._preprocess_data")
    def test_evaluate_returns_oai_eval_run_ids(
        self,
        mock_preprocess,
        mock_begin,
        mock_get_results,
        _,
        mock_model_config,
    ):
        df = pd.DataFrame([{"query": "hi"}])
        grader = AzureOpenAILabelGrader(
            model_config=mock_model_config,
            input=[{"content": "{{item.query}}", "role": "user"}],
            labels=["positive", "negative", "neutral"],
            passing_labels=["neutral"],
            model="gpt-4o-2024-11-20",
            name="labelgrader",
        )
        mock_preprocess.return_value = {
            "column_mapping": {},
            "evaluators": {},
            "graders": {"g": grader},
            "input_data_df": df,
            "target_run": None,
            "batch_run_client": None,
            "batch_run_data": None,
        }
        mock_begin.return_value = [
            {
                "client": None,
                "eval_group_id": "grp1",
                "eval_run_id": "run1",
                "grader_name_map": {},
                "expected_rows": len(df),
            }
        ]
        mock_get_results.return_value = (
            pd.DataFrame([{"outputs.g.score": 1}]),
            {"g.pass_rate": 1.0},
        )

        result = evaluate(
            evaluators={"g": grader},
            data="dummy_path",
            azure_ai_project=None,
        )

        assert "oai_eval_run_ids" in result
        assert result["oai_eval_run_ids"] == [{"eval_group_id": "grp1", "eval_run_id": "run1"}]


@pytest.mark.unittest
class TestTagsInLoggingFunctions:
    """Test tag functionality in logging utility functions."""

    @patch("azure.ai.evaluation._evaluate._utils.LiteMLClient")
    @patch("azure.ai.evaluation._evaluate._eval_run.EvalRun")
    @patch("tempfile.TemporaryDirectory")
    def test_log_metrics_and_instance_results_with_tags(self, mock_tempdir, mock_eval_run, mock_lite_ml_client):
        """Test that tags are properly passed to EvalRun in MLflow logging path."""
        from azure.ai.evaluation._evaluate._utils import _log_metrics_and_instance_results

        # Mock tempfile directory
        mock_tempdir.return_value.__enter__.return_value = "/tmp/mock_tempdir"
        mock_tempdir.return_value.__exit__.return_value = None

        # Mock the management client and workspace info
        mock_client_instance = mock_lite_ml_client.return_value
        mock_workspace_info = type("MockWorkspaceInfo", (), {"ml_flow_tracking_uri": "https://test-tracking-uri"})()
        mock_client_instance.workspace_get_info.return_value = mock_workspace_info

        # Mock EvalRun class attribute
        mock_eval_run.EVALUATION_ARTIFACT = "evaluation_artifact.jsonl"

        # Mock EvalRun context manager
        mock_eval_run_instance = mock_eval_run.return_value.__enter__.return_value
        mock_eval_run_instance.log_artifact = lambda *args, **kwargs: None
        mock_eval_run_instance.write_properties_to_run_history = lambda *args, **kwargs: None
        mock_eval_run_instance.log_metric = lambda *args, **kwargs: None
        mock_eval_run_instance.info = type("MockInfo", (), {"run_id": "test-run-id"})()

        # Mock the file operations
        import builtins

        original_open = builtins.open

        def mock_open(*args, **kwargs):
            if args[0].startswith("/tmp/mock_tempdir"):
                # Return a mock file object that does nothing
                from unittest.mock import MagicMock

                mock_file = MagicMock()
                mock_file.write = lambda x: None
                mock_file.__enter__ = lambda self: mock_file
                mock_file.__exit__ = lambda self, *args: None
                return mock_file
            return original_open(*args, **kwargs)

        with patch("builtins.open", side_effect=mock_open):
            # Test data
            metrics = {"accuracy": 0.8, "f1_score": 0.7}
            instance_results = pd.DataFrame([{"input": "test", "output": "result"}])
            tags = {"experiment": "test-exp", "version": "1.0", "custom_tag": "value"}
            trace_destination = "azureml://subscriptions/test-sub/resourceGroups/test-rg/providers/Microsoft.MachineLearningServices/workspaces/test-ws"

            # Call the function
            result = _log_metrics_and_instance_results(
                metrics=metrics,
                instance_results=instance_results,
                trace_destination=trace_destination,
                run=None,
                evaluation_name="test-evaluation",
                name_map={},
                tags=tags,
            )

            # Verify that EvalRun was called with the correct tags
            mock_eval_run.assert_called_once()
            call_args = mock_eval_run.call_args
            assert call_args[1]["tags"] == tags
            assert call_args[1]["run_name"] == "test-evaluation"

    @patch("azure.ai.evaluation._evaluate._utils.LiteMLClient")
    @patch("azure.ai.evaluation._evaluate._eval_run.EvalRun")
    @patch("tempfile.TemporaryDirectory")
    def test_log_metrics_and_instance_results_with_none_tags(self, mock_tempdir, mock_eval_run, mock_lite_ml_client):
        """Test that None tags are handled properly in MLflow logging path."""
        from azure.ai.evaluation._evaluate._utils import _log_metrics_and_instance_results

        # Mock tempfile directory
        mock_tempdir.return_value.__enter__.return_value = "/tmp/mock_tempdir"
        mock_tempdir.return_value.__exit__.return_value = None

        # Mock the management client and workspace info
        mock_client_instance = mock_lite_ml_client.return_value
        mock_workspace_info = type("MockWorkspaceInfo", (), {"ml_flow_tracking_uri": "https://test-tracking-uri"})()
        mock_client_instance.workspace_get_info.return_value = mock_workspace_info

        # Mock EvalRun class attribute
        mock_eval_run.EVALUATION_ARTIFACT = "evaluation_artifact.jsonl"

        # Mock EvalRun context manager
        mock_eval_run_instance = mock_eval_run.return_value.__enter__.return_value
        mock_eval_run_instance.log_artifact = lambda *args, **kwargs: None
        mock_eval_run_instance.write_properties_to_run_history = lambda *args, **kwargs: None
        mock_eval_run_instance.log_metric = lambda *args, **kwargs: None
        mock_eval_run_instance.info = type("MockInfo", (), {"run_id": "test-run-id"})()

        # Mock the file operations
        import builtins

        original_open = builtins.open

        def mock_open(*args, **kwargs):
            if args[0].startswith("/tmp/mock_tempdir"):
                # Return a mock file object that does nothing
                from unittest.mock import MagicMock

                mock_file = MagicMock()
                mock_file.write = lambda x: None
                mock_file.__enter__ = lambda self: mock_file
                mock_file.__exit__ = lambda self, *args: None
                return mock_file
            return original_open(*args, **kwargs)

        with patch("builtins.open", side_effect=mock_open):
            # Test data
            metrics = {"accuracy": 0.8}
            instance_results = pd.DataFrame([{"input": "test", "output": "result"}])
            trace_destination = "azureml://subscriptions/test-sub/resourceGroups/test-rg/providers/Microsoft.MachineLearningServices/workspaces/test-ws"

            # Call the function with None tags
            result = _log_metrics_and_instance_results(
                metrics=metrics,
                instance_results=instance_results,
                trace_destination=trace_destination,
                run=None,
                evaluation_name="test-evaluation",
                name_map={},
                tags=None,
            )

            # Verify that EvalRun was called with None tags
            mock_eval_run.assert_called_once()
            call_args = mock_eval_run.call_args
            assert call_args[1]["tags"] is None

    def test_log_metrics_and_instance_results_no_trace_destination(self):
        """Test that function returns None when no trace destination is provided."""
        from azure.ai.evaluation._evaluate._utils import _log_metrics_and_instance_results

        # Test data
        metrics = {"accuracy": 0.8}
        instance_results = pd.DataFrame([{"input": "test", "output": "result"}])
        tags = {"test": "tag"}

        # Call the function with no trace destination
        result = _log_metrics_and_instance_results(
            metrics=metrics,
            instance_results=instance_results,
            trace_destination=None,
            run=None,
            evaluation_name="test-evaluation",
            name_map={},
            tags=tags,
        )

        # Should return None and not raise any exceptions
        assert result is None

    @patch("azure.ai.evaluation._azure._token_manager.AzureMLTokenManager")
    @patch("azure.ai.evaluation._common.EvaluationServiceOneDPClient")
    def test_log_metrics_and_instance_results_onedp_with_tags(self, mock_client_class, mock_token_manager):
        """Test that tags are properly passed to OneDP logging path."""
        from azure.ai.evaluation._evaluate._utils import _log_metrics_and_instance_results_onedp

        # Mock the client and its methods
        mock_client = mock_client_class.return_value

        # Mock create_evaluation_result
        mock_create_result = type("MockCreateResult", (), {"id": "test-result-id"})()
        mock_client.create_evaluation_result.return_value = mock_create_result

        # Mock start_evaluation_run
        mock_start_result = type("MockStartResult", (), {"id": "test-run-id"})()
        mock_client.start_evaluation_run.return_value = mock_start_result

        # Mock update_evaluation_run
        mock_update_result = type(
            "MockUpdateResult", (), {"properties": {"AiStudioEvaluationUri": "https://test-uri"}}
        )()
        mock_client.update_evaluation_run.return_value = mock_update_result

        # Test data
        metrics = {"accuracy": 0.8, "f1_score": 0.7}
        instance_results = pd.DataFrame([{"input": "test", "output": "result"}])
        tags = {"experiment": "test-exp", "version": "1.0", "model": "gpt-4"}
        project_url = "https://test-project.cognitiveservices.azure.com/api/projects/test-project"

        # Call the function
        result = _log_metrics_and_instance_results_onedp(
            metrics=metrics,
            instance_results=instance_results,
            project_url=project_url,
            evaluation_name="test-evaluation",
            name_map={},
            tags=tags,
        )

        # Verify that start_evaluation_run was called with tags
        mock_client.start_evaluation_run.assert_called_once()
        call_args = mock_client.start_evaluation_run.call_args
        eval_upload = call_args[1]["evaluation"]
        assert eval_upload.tags == tags

        # Verify return value
        assert result == "https://test-uri"

    @patch("azure.ai.evaluation._azure._token_manager.AzureMLTokenManager")
    @patch("azure.ai.evaluation._common.EvaluationServiceOneDPClient")
    def test_log_metrics_and_instance_results_onedp_with_none_tags(self, mock_client_class, mock_token_manager):
        """Test that None tags are handled properly in OneDP logging path."""
        from azure.ai.evaluation._evaluate._utils import _log_metrics_and_instance_results_onedp

        # Mock the client and its methods
        mock_client = mock_client_class.return_value

        # Mock create_evaluation_result
        mock_create_result = type("MockCreateResult", (), {"id": "test-result-id"})()
        mock_client.create_evaluation_result.return_value = mock_create_result

        # Mock start_evaluation_run
        mock_start_result = type("MockStartResult", (), {"id": "test-run-id"})()
        mock_client.start_evaluation_run.return_value = mock_start_result

        # Mock update_evaluation_run
        mock_update_result = type(
            "MockUpdateResult", (), {"properties": {"AiStudioEvaluationUri": "https://test-uri"}}
        )()
        mock_client.update_evaluation_run.return_value = mock_update_result

        # Test data
        metrics = {"accuracy": 0.8}
        instance_results = pd.DataFrame([{"input": "test", "output": "result"}])
        project_url = "https://test-project.cognitiveservices.azure.com/api/projects/test-project"

        # Call the function with None tags
        result = _log_metrics_and_instance_results_onedp(
            metrics=metrics,
            instance_results=instance_results,
            project_url=project_url,
            evaluation_name="test-evaluation",
            name_map={},
            tags=None,
        )

        # Verify that start_evaluation_run was called with None tags
        mock_client.start_evaluation_run.assert_called_once()
        call_args = mock_client.start_evaluation_run.call_args
        eval_upload = call_args[1]["evaluation"]
        assert eval_upload.tags is None

        # Verify return value
        assert result == "https://test-uri"

    @patch("azure.ai.evaluation._azure._token_manager.AzureMLTokenManager")
    @patch("azure.ai.evaluation._common.EvaluationServiceOneDPClient")
    def test_log_metrics_and_instance_results_onedp_with_empty_tags(self, mock_client_class, mock_token_manager):
        """Test that empty tags dictionary is handled properly in OneDP logging path."""
        from azure.ai.evaluation._evaluate._utils import _log_metrics_and_instance_results_onedp

        # Mock the client and its methods
        mock_client = mock_client_class.return_value

        # Mock create_evaluation_result
        mock_create_result = type("MockCreateResult", (), {"id": "test-result-id"})()
        mock_client.create_evaluation_result.return_value = mock_create_result

        # Mock start_evaluation_run
        mock_start_result = type("MockStartResult", (), {"id": "test-run-id"})()
        mock_client.start_evaluation_run.return_value = mock_start_result

        # Mock update_evaluation_run
        mock_update_result = type(
            "MockUpdateResult", (), {"properties": {"AiStudioEvaluationUri": "https://test-uri"}}
        )()
        mock_client.update_evaluation_run.return_value = mock_update_result

        # Test data
        metrics = {"accuracy": 0.8}
        instance_results = pd.DataFrame([{"input": "test", "output": "result"}])
        project_url = "https://test-project.cognitiveservices.azure.com/api/projects/test-project"
        empty_tags = {}

        # Call the function with empty tags
        result = _log_metrics_and_instance_results_onedp(
            metrics=metrics,
            instance_results=instance_results,
            project_url=project_url,
            evaluation_name="test-evaluation",
            name_map={},
            tags=empty_tags,
        )

        # Verify that start_evaluation_run was called with empty tags
        mock_client.start_evaluation_run.assert_called_once()
        call_args = mock_client.start_evaluation_run.call_args
        eval_upload = call_args[1]["evaluation"]
        assert eval_upload.tags == {}

    @patch("azure.ai.evaluation._azure._token_manager.AzureMLTokenManager")
    @patch("azure.ai.evaluation._common.EvaluationServiceOneDPClient")
    def test_log_metrics_and_instance_results_onedp_no_redundant_tags(self, mock_client_class, mock_token_manager):
        """Test that tags are properly included in properties for sync_evals."""
        from azure.ai.evaluation._evaluate._utils import _log_metrics_and_instance_results_onedp

        # Mock the client and its methods
        mock_client = mock_client_class.return_value

        # Mock create_evaluation_result
        mock_create_result = type("MockCreateResult", (), {"id": "test-result-id"})()
        mock_client.create_evaluation_result.return_value = mock_create_result

        # Mock start_evaluation_run
        mock_start_result = type("MockStartResult", (), {"id": "test-run-id"})()
        mock_client.start_evaluation_run.return_value = mock_start_result

        # Mock update_evaluation_run
        mock_update_result = type(
            "MockUpdateResult", (), {"properties": {"AiStudioEvaluationUri": "https://test-uri"}}
        )()
        mock_client.update_evaluation_run.return_value = mock_update_result

        # Mock data for the test
        metrics = {"accuracy": 0.95}
        instance_results = pd.DataFrame([{"input": "test", "output": "result"}])
        tags = {"tag1": "value1", "tag2": "value2"}

        # Call the function under test
        _log_metrics_and_instance_results_onedp(
            metrics=metrics,
            instance_results=instance_results,
            project_url="https://test-project.cognitiveservices.azure.com/api/projects/test-project",
            evaluation_name="test-evaluation",
            name_map={},
            tags=tags,
        )

        # Verify that start_evaluation_run was called with tags
        mock_client.start_evaluation_run.assert_called_once()
        call_args = mock_client.start_evaluation_run.call_args
        eval_upload = call_args[1]["evaluation"]
        assert eval_upload.tags == tags


class TestUpdateMetricValueTokenCoercion:
    """Tests for token count coercion in _update_metric_value.

    The PR fix ensures that *_total_tokens, *_prompt_tokens, and
    *_completion_tokens values are coerced to int via int(float(value)),
    and None/NaN values are mapped to None.
    """

    _TOKEN_SUFFIXES = ["_total_tokens", "_prompt_tokens", "_completion_tokens"]

    @staticmethod
    def _call(metric_key, metric_value):
        metric_dict = {}
        _update_metric_value(
            criteria_type="azure_ai_evaluator",
            metric_dict=metric_dict,
            metric_key=metric_key,
            metric="test_metric",
            metric_value=metric_value,
            logger=logging.getLogger("test"),
        )
        return metric_dict

    # --- int pass-through ---
    @pytest.mark.parametrize("suffix", _TOKEN_SUFFIXES)
    def test_int_value_passthrough(self, suffix):
        result = self._call(f"evaluator{suffix}", 42)
        token_key = suffix.lstrip("_")
        assert result["sample"]["usage"][token_key] == 42

    # --- string-to-int ---
    @pytest.mark.parametrize("suffix", _TOKEN_SUFFIXES)
    def test_string_int_coerced(self, suffix):
        result = self._call(f"evaluator{suffix}", "123")
        token_key = suffix.lstrip("_")
        assert result["sample"]["usage"][token_key] == 123

    # --- float string to int ---
    @pytest.mark.parametrize("suffix", _TOKEN_SUFFIXES)
    def test_float_string_coerced(self, suffix):
        result = self._call(f"evaluator{suffix}", "123.0")
        token_key = suffix.lstrip("_")
        assert result["sample"]["usage"][token_key] == 123

    # --- float to int ---
    @pytest.mark.parametrize("suffix", _TOKEN_SUFFIXES)
    def test_float_value_coerced(self, suffix):
        result = self._call(f"evaluator{suffix}", 99.0)
        token_key = suffix.lstrip("_")
        assert result["sample"]["usage"][token_key] == 99

    # --- None maps to None ---
    @pytest.mark.parametrize("suffix", _TOKEN_SUFFIXES)
    def test_none_maps_to_none(self, suffix):
        result = self._call(f"evaluator{suffix}", None)
        token_key = suffix.lstrip("_")
        assert result["sample"]["usage"][token_key] is None

    # --- NaN maps to None ---
    @pytest.mark.parametrize("suffix", _TOKEN_SUFFIXES)
    def test_nan_maps_to_none(self, suffix):
        result = self._call(f"evaluator{suffix}", float("nan"))
        token_key = suffix.lstrip("_")
        assert result["sample"]["usage"][token_key] is None

    # --- NaN string maps to None ---
    @pytest.mark.parametrize("suffix", _TOKEN_SUFFIXES)
    def test_nan_string_maps_to_none(self, suffix):
        result = self._call(f"evaluator{suffix}", "nan")
        token_key = suffix.lstrip("_")
        assert result["sample"]["usage"][token_key] is None


@pytest.mark.unittest
class TestBuildInternalLogAttributesThreshold:
    """Tests for _build_internal_log_attributes threshold handling."""

    def test_threshold_zero_is_included(self):
        """Threshold of 0 should be logged, not silently dropped."""
        event_data = {"threshold": 0, "name": "my_grader"}
        attrs = _build_internal_log_attributes(event_data, "score", None, {})
        assert "gen_ai.evaluation.threshold" in attrs
        assert attrs["gen_ai.evaluation.threshold"] == "0"

    def test_threshold_zero_float_is_included(self):
        """Threshold of 0.0 should be logged."""
        event_data = {"threshold": 0.0, "name": "my_grader"}
        attrs = _build_internal_log_attributes(event_data, "score", None, {})
        assert attrs["gen_ai.evaluation.threshold"] == "0.0"

    def test_threshold_none_is_excluded(self):
        """No threshold key when threshold is None."""
        event_data = {"threshold": None, "name": "my_grader"}
        attrs = _build_internal_log_attributes(event_data, "score", None, {})
        assert "gen_ai.evaluation.threshold" not in attrs

    def test_threshold_missing_is_excluded(self):
        """No threshold key when threshold is absent from event_data."""
        event_data = {"name": "my_grader"}
        attrs = _build_internal_log_attributes(event_data, "score", None, {})
        assert "gen_ai.evaluation.threshold" not in attrs

    def test_threshold_positive_value(self):
        """Normal positive threshold is included."""
        event_data = {"threshold": 3.5, "name": "my_grader"}
        attrs = _build_internal_log_attributes(event_data, "score", None, {})
        assert attrs["gen_ai.evaluation.threshold"] == "3.5"


@pytest.mark.unittest
class TestBuildInternalLogAttributesOutcome:
    """Tests for service-owned evaluation outcome telemetry."""

    @pytest.mark.parametrize(
        "status,passed,expected",
        [
            (
                "completed",
                True,
                {
                    "gen_ai.evaluation.status": "completed",
                    "gen_ai.evaluation.passed": "true",
                },
            ),
            (
                "completed",
                False,
                {
                    "gen_ai.evaluation.status": "completed",
                    "gen_ai.evaluation.passed": "false",
                },
            ),
            ("error", None, {"gen_ai.evaluation.status": "error"}),
            ("skipped", None, {"gen_ai.evaluation.status": "skipped"}),
        ],
    )
    def test_status_and_passed_are_included(self, status, passed, expected):
        """Canonical output-item outcome fields should be queryable."""
        attrs = _build_internal_log_attributes(
            {"status": status, "passed": passed},
            "score",
            None,
            {},
        )

        for key, value in expected.items():
            assert attrs[key] == value
        if passed is None:
            assert "gen_ai.evaluation.passed" not in attrs

    def test_invalid_or_missing_values_are_excluded(self):
        """Unknown value types should not become misleading telemetry."""
        attrs = _build_internal_log_attributes(
            {"status": 42, "passed": "true"},
            "score",
            None,
            {},
        )

        assert "gen_ai.evaluation.status" not in attrs
        assert "gen_ai.evaluation.passed" not in attrs


@pytest.mark.unittest
class TestExtractTestingCriteriaMetadataPassThreshold:
    """Tests for pass_threshold propagation in _extract_testing_criteria_metadata."""

    def test_pass_threshold_propagated_from_config(self):
        """pass_threshold from evaluator_config should appear in metadata."""
        evaluators = {"my_grader": lambda **kwargs: {"score": 1}}
        evaluator_config = {
            "my_grader": {
                "_pass_threshold": 0.8,
                "_evaluator_definition": {"metrics": {"score": {"type": "numeric"}}},
            }
        }
        metadata = _extract_testing_criteria_metadata(
            evaluators, None, evaluator_config, logging.getLogger(), None, None
        )
        assert metadata["my_grader"]["pass_threshold"] == 0.8

    def test_pass_threshold_zero_propagated(self):
        """pass_threshold of 0 should be propagated, not dropped."""
        evaluators = {"my_grader": lambda **kwargs: {"score": 1}}
        evaluator_config = {
            "my_grader": {
                "_pass_threshold": 0,
                "_evaluator_definition": {"metrics": {"score": {"type": "numeric"}}},
            }
        }
        metadata = _extract_testing_criteria_metadata(
            evaluators, None, evaluator_config, logging.getLogger(), None, None
        )
        assert metadata["my_grader"]["pass_threshold"] == 0

    def test_pass_threshold_absent_not_added(self):
        """When no _pass_threshold in config, metadata should not have pass_threshold."""
        evaluators = {"my_grader": lambda **kwargs: {"score": 1}}
        evaluator_config = {
            "my_grader": {
                "_evaluator_definition": {"metrics": {"score": {"type": "numeric"}}},
            }
        }
        metadata = _extract_testing_criteria_metadata(
            evaluators, None, evaluator_config, logging.getLogger(), None, None
        )
        assert "pass_threshold" not in metadata["my_grader"]


@pytest.mark.unittest
class TestProcessCriteriaMetricsThresholdInjection:
    """Tests for threshold injection in _process_criteria_metrics."""

    def test_threshold_injected_when_missing(self):
        """Metrics without a threshold should get it from pass_threshold in metadata."""
        metrics = {"score": 4.5, "score_reason": "Good"}
        testing_criteria_metadata = {
            "coherence": {
                "metrics": ["score"],
                "type": "quality",
                "is_inverse": False,
                "pass_threshold": 3.0,
            }
        }
        results, _ = _process_criteria_metrics(
            "coherence", metrics, testing_criteria_metadata, logging.getLogger(), None, None
        )
        assert len(results) > 0
        assert results[0]["threshold"] == 3.0

    def test_threshold_not_overwritten_when_present(self):
        """Metrics that already have a threshold should not be overwritten."""
        metrics = {"score": 4.5, "score_reason": "Good", "score_threshold": 5.0}
        testing_criteria_metadata = {
            "coherence": {
                "metrics": ["score"],
                "type": "quality",
                "is_inverse": False,
                "pass_threshold": 3.0,
            }
        }
        results, _ = _process_criteria_metrics(
            "coherence", metrics, testing_criteria_metadata, logging.getLogger(), None, None
        )
        assert len(results) > 0
        assert results[0]["threshold"] == 5.0

    def test_threshold_zero_injected(self):
        """pass_threshold of 0 should be injected, not skipped."""
        metrics = {"score": 4.5, "score_reason": "Good"}
        testing_criteria_metadata = {
            "coherence": {
                "metrics": ["score"],
                "type": "quality",
                "is_inverse": False,
                "pass_threshold": 0,
            }
        }
        results, _ = _process_criteria_metrics(
            "coherence", metrics, testing_criteria_metadata, logging.getLogger(), None, None
        )
        assert len(results) > 0
        assert results[0]["threshold"] == 0

    def test_no_injection_without_pass_threshold(self):
        """Without pass_threshold in metadata, threshold should remain None."""
        metrics = {"score": 4.5, "score_reason": "Good"}
        testing_criteria_metadata = {
            "coherence": {
                "metrics": ["score"],
                "type": "quality",
                "is_inverse": False,
            }
        }
        results, _ = _process_criteria_metrics(
            "coherence", metrics, testing_criteria_metadata, logging.getLogger(), None, None
        )
        assert len(results) > 0
        assert results[0].get("threshold") is None

    def test_nan_threshold_gets_injected(self):
        """NaN threshold should be replaced by pass_threshold from config."""
        metrics = {"score": 4.5, "score_reason": "Good", "score_threshold": float("nan")}
        testing_criteria_metadata = {
            "coherence": {
                "metrics": ["score"],
                "type": "quality",
                "is_inverse": False,
                "pass_threshold": 3.0,
            }
        }
        results, _ = _process_criteria_metrics(
            "coherence", metrics, testing_criteria_metadata, logging.getLogger(), None, None
        )
        assert len(results) > 0
        assert results[0]["threshold"] == 3.0


try:
    # These tests exercise the OpenTelemetry Events API (opentelemetry._events /
    # opentelemetry.sdk._events, added in 1.26). Guard on those submodules, not just the top-level
    # package: the sk_ CI leg pins an older opentelemetry (via semantic-kernel) that lacks them.
    import opentelemetry._events  # noqa: F401
    from opentelemetry.sdk._events import EventLoggerProvider  # noqa: F401

    MISSING_OPENTELEMETRY = False
except ImportError:
    MISSING_OPENTELEMETRY = True


@pytest.mark.unittest
@pytest.mark.skipif(MISSING_OPENTELEMETRY, reason="This test requires the opentelemetry package")
class TestLogEventsTokenUsage:
    """Tests for token usage attributes in _log_events_to_app_insights."""

    def _make_mock_event_logger(self):
        """Create a mock event logger that captures emitted events."""
        emitted = []

        class FakeEventLogger:
            def emit(self, event):
                emitted.append(event)

        return FakeEventLogger(), emitted

    def test_token_usage_emitted_in_internal_properties(self):
        """prompt_tokens and completion_tokens from sample.usage should appear inside internal_properties."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [
            {
                "metric": "coherence",
                "score": 4.5,
                "sample": {
                    "usage": {
                        "prompt_tokens": 100,
                        "completion_tokens": 50,
                    }
                },
            }
        ]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        attrs = emitted[0].attributes
        internal_props = json.loads(attrs["internal_properties"])
        assert internal_props["gen_ai.evaluation.usage.input_tokens"] == "100"
        assert internal_props["gen_ai.evaluation.usage.output_tokens"] == "50"
        # Should NOT be in standard attributes
        assert "gen_ai.evaluation.usage.input_tokens" not in attrs
        assert "gen_ai.evaluation.usage.output_tokens" not in attrs

    def test_status_and_passed_emitted_in_internal_properties(self):
        """Evaluation outcome should be present on the exported event."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [
            {
                "metric": "coherence",
                "status": "completed",
                "passed": False,
            }
        ]

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config={"connection_string": "fake"},
        )

        assert len(emitted) == 1
        attributes = emitted[0].attributes
        internal_properties = json.loads(attributes["internal_properties"])
        assert internal_properties["gen_ai.evaluation.status"] == "completed"
        assert internal_properties["gen_ai.evaluation.passed"] == "false"
        assert "gen_ai.evaluation.status" not in attributes
        assert "gen_ai.evaluation.passed" not in attributes

    def test_token_usage_not_in_standard_attributes(self):
        """Token usage should be in internal_properties, not in standard attributes."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [
            {
                "metric": "coherence",
                "score": 4.5,
                "sample": {
                    "usage": {
                        "prompt_tokens": 100,
                        "completion_tokens": 50,
                    }
                },
            }
        ]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        attrs = emitted[0].attributes
        assert "gen_ai.evaluation.usage.input_tokens" not in attrs
        assert "gen_ai.evaluation.usage.output_tokens" not in attrs
        internal_props = json.loads(attrs["internal_properties"])
        assert internal_props["gen_ai.evaluation.usage.input_tokens"] == "100"
        assert internal_props["gen_ai.evaluation.usage.output_tokens"] == "50"

    def test_token_usage_absent_when_no_sample(self):
        """No token usage attributes when sample is missing."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [{"metric": "coherence", "score": 4.5}]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        attrs = emitted[0].attributes
        internal_props = json.loads(attrs["internal_properties"])
        assert "gen_ai.evaluation.usage.input_tokens" not in internal_props
        assert "gen_ai.evaluation.usage.output_tokens" not in internal_props

    def test_token_usage_absent_when_usage_empty(self):
        """No token usage attributes when sample.usage is empty dict."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [{"metric": "coherence", "score": 4.5, "sample": {"usage": {}}}]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        attrs = emitted[0].attributes
        internal_props = json.loads(attrs["internal_properties"])
        assert "gen_ai.evaluation.usage.input_tokens" not in internal_props
        assert "gen_ai.evaluation.usage.output_tokens" not in internal_props

    def test_token_usage_absent_when_sample_not_dict(self):
        """When sample is not a dict (e.g. NaN), the event fails to log entirely."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [{"metric": "coherence", "score": 4.5, "sample": float("nan")}]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        # sample=NaN causes the event to fail; no event is emitted
        assert len(emitted) == 0

    def test_token_usage_zero_values_emitted(self):
        """Token usage of 0 should be emitted, not dropped."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [
            {
                "metric": "coherence",
                "score": 4.5,
                "sample": {
                    "usage": {
                        "prompt_tokens": 0,
                        "completion_tokens": 0,
                    }
                },
            }
        ]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        attrs = emitted[0].attributes
        internal_props = json.loads(attrs["internal_properties"])
        assert internal_props["gen_ai.evaluation.usage.input_tokens"] == "0"
        assert internal_props["gen_ai.evaluation.usage.output_tokens"] == "0"

    def test_token_usage_partial_only_prompt(self):
        """Only prompt_tokens present should emit only input_tokens."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [
            {
                "metric": "coherence",
                "score": 4.5,
                "sample": {
                    "usage": {
                        "prompt_tokens": 42,
                    }
                },
            }
        ]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        attrs = emitted[0].attributes
        internal_props = json.loads(attrs["internal_properties"])
        assert internal_props["gen_ai.evaluation.usage.input_tokens"] == "42"
        assert "gen_ai.evaluation.usage.output_tokens" not in internal_props


@pytest.mark.unittest
@pytest.mark.skipif(MISSING_OPENTELEMETRY, reason="This test requires the opentelemetry package")
class TestLogEventsProperties:
    """Tests for evaluator ``properties`` forwarding in _log_events_to_app_insights."""

    def _make_mock_event_logger(self):
        emitted = []

        class FakeEventLogger:
            def emit(self, event):
                emitted.append(event)

        return FakeEventLogger(), emitted

    def test_rubric_dimension_scores_forwarded_as_json(self):
        """Rubric ``dimension_scores`` should be forwarded as a JSON attribute."""
        event_logger, emitted = self._make_mock_event_logger()
        dimension_scores = [
            {"id": "resolution_progress", "score": 0.8, "applicable": True, "weight": 10, "reason": "ok"},
            {"id": "general_quality", "score": 0.5, "applicable": True, "weight": 5, "reason": "fine"},
        ]
        events = [
            {
                "metric": "custom-rubric",
                "score": 0.7,
                "properties": {"dimension_scores": dimension_scores},
            }
        ]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        attrs = emitted[0].attributes
        internal_props = json.loads(attrs["internal_properties"])
        assert "gen_ai.evaluation.properties" in internal_props
        payload = json.loads(internal_props["gen_ai.evaluation.properties"])
        assert payload == {"dimension_scores": dimension_scores}

    def test_redteam_keys_excluded_from_generic_properties(self):
        """Dedicated red-team keys should keep their own attributes and NOT appear in the JSON blob."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [
            {
                "metric": "redteam",
                "properties": {
                    "attack_success": True,
                    "attack_technique": "jailbreak",
                    "attack_complexity": "easy",
                    "attack_success_threshold": 0.5,
                    "extra_metric": 42,
                },
            }
        ]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        internal_props = json.loads(emitted[0].attributes["internal_properties"])
        # Dedicated red-team attributes stay as before
        assert internal_props["gen_ai.redteam.attack.success"] == "True"
        assert internal_props["gen_ai.redteam.attack.technique"] == "jailbreak"
        assert internal_props["gen_ai.redteam.attack.complexity"] == "easy"
        assert internal_props["gen_ai.redteam.attack.success_threshold"] == "0.5"
        # Generic forwarder carries only the non-dedicated keys
        payload = json.loads(internal_props["gen_ai.evaluation.properties"])
        assert payload == {"extra_metric": 42}

    def test_no_generic_attribute_when_only_redteam_keys_present(self):
        """When properties contains only dedicated red-team keys, no generic JSON attribute is emitted."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [
            {
                "metric": "redteam",
                "properties": {
                    "attack_success": True,
                    "attack_technique": "jailbreak",
                },
            }
        ]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        internal_props = json.loads(emitted[0].attributes["internal_properties"])
        assert "gen_ai.evaluation.properties" not in internal_props

    def test_no_generic_attribute_when_properties_absent(self):
        """No ``gen_ai.evaluation.properties`` attribute when event has no ``properties`` key."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [{"metric": "coherence", "score": 4.5}]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        internal_props = json.loads(emitted[0].attributes["internal_properties"])
        assert "gen_ai.evaluation.properties" not in internal_props

    def test_non_dict_properties_does_not_emit_generic_attribute(self):
        """Non-dict ``properties`` (e.g. a string) should be skipped without raising."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [{"metric": "coherence", "score": 4.5, "properties": "not a dict"}]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        internal_props = json.loads(emitted[0].attributes["internal_properties"])
        assert "gen_ai.evaluation.properties" not in internal_props

    @pytest.mark.parametrize("bad_properties", [None, 42, "not a dict", ["attack_success"], ("attack_success",)])
    def test_unexpected_properties_shape_does_not_crash(self, bad_properties):
        """Non-dict ``properties`` shapes must not crash the red-team or generic forwarders."""
        event_logger, emitted = self._make_mock_event_logger()
        events = [{"metric": "redteam", "properties": bad_properties}]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        internal_props = json.loads(emitted[0].attributes["internal_properties"])
        # No red-team or generic attributes should be derived from a non-dict payload.
        assert "gen_ai.evaluation.properties" not in internal_props
        assert not any(k.startswith("gen_ai.redteam.") for k in internal_props)

    def test_oversized_properties_payload_emits_valid_json_truncation_marker(self):
        """Oversized properties payloads are replaced with a valid JSON truncation marker."""
        event_logger, emitted = self._make_mock_event_logger()
        big_value = "x" * 20000  # well over the 7500 char cap
        events = [
            {
                "metric": "rubric",
                "properties": {"big": big_value},
            }
        ]
        app_insights_config = {"connection_string": "fake"}

        _log_events_to_app_insights(
            event_logger=event_logger,
            events=events,
            log_attributes={},
            app_insights_config=app_insights_config,
        )

        assert len(emitted) == 1
        internal_props = json.loads(emitted[0].attributes["internal_properties"])
        assert "gen_ai.evaluation.properties" in internal_props
        # The emitted value must remain valid, parseable JSON.
        marker = json.loads(internal_props["gen_ai.evaluation.properties"])
        assert marker["truncated"] is True
        assert marker["original_size_bytes"] > 7500
        # Marker itself must be well under the cap.
        assert len(internal_props["gen_ai.evaluation.properties"]) <= 7500


class TestAdjustForInverseMetric:
    """Tests for _adjust_for_inverse_metric handling of boolean labels."""

    def test_boolean_true_returns_fail(self):
        """Boolean True (violation detected) should map to fail."""
        score, label, passed = _adjust_for_inverse_metric(True)
        assert score == 0.0
        assert label == "fail"
        assert passed is False

    def test_boolean_false_returns_pass(self):
        """Boolean False (no violation) should map to pass."""
        score, label, passed = _adjust_for_inverse_metric(False)
        assert score == 1.0
        assert label == "pass"
        assert passed is True

    def test_none_returns_pass(self):
        """None label should default to pass (no violation detected)."""
        score, label, passed = _adjust_for_inverse_metric(None)
        assert score == 1.0
        assert label == "pass"
        assert passed is True


class TestIsInverseMetric:
    """Tests for _is_inverse_metric identifying decrease boolean metrics."""

    def test_hardcoded_inverse_metric(self):
        """Metrics in the hardcoded inverse lists should return True."""
        logger = logging.getLogger("test")
        # indirect_attack maps to metric names like "xpia"
        assert _is_inverse_metric("xpia", [], logger, None, None) is True

    def test_explicitly_configured_inverse_metric(self):
        """Metrics in the explicit inverse_metric list should return True."""
        logger = logging.getLogger("test")
        assert _is_inverse_metric("deflection_rate", ["deflection_rate"], logger, None, None) is True

    def test_non_inverse_metric(self):
        """Regular metrics should return False."""
        logger = logging.getLogger("test")
        assert _is_inverse_metric("coherence", [], logger, None, None) is False

    def test_deflection_rate_not_in_hardcoded_list(self):
        """deflection_rate is not in the hardcoded list (only in dynamic config)."""
        logger = logging.getLogger("test")
        assert _is_inverse_metric("deflection_rate", [], logger, None, None) is False


class TestCreateResultObjectInverseMetric:
    """Integration tests for _create_result_object with is_inverse=True.

    Verifies that inverse adjustment is skipped for string labels (from
    code-based evaluators like deflection_rate that already compute
    direction-aware pass/fail) and applied for boolean labels (from
    safety evaluators).
    """

    def test_inverse_metric_string_fail_label_preserved(self):
        """deflection_rate: score=1, label='fail' should be preserved (not adjusted)."""
        logger = logging.getLogger("test")
        metric_values = {
            "score": 1,
            "label": "fail",
            "reason": "AI deflected the query",
            "threshold": 0,
            "passed": False,
        }
        result = _create_result_object(
            criteria_name="deflection_rate",
            metric="deflection_rate",
            metric_values=metric_values,
            criteria_type="azure_ai_evaluator",
            is_inverse=True,
            logger=logger,
            eval_id=None,
            eval_run_id=None,
        )
        assert result["label"] == "fail"
        assert result["passed"] is False
        assert result["score"] == 1

    def test_inverse_metric_string_pass_label_preserved(self):
        """deflection_rate: score=0, label='pass' should be preserved (not adjusted)."""
        logger = logging.getLogger("test")
        metric_values = {
            "score": 0,
            "label": "pass",
            "reason": "AI resolved the query",
            "threshold": 0,
            "passed": True,
        }
        result = _create_result_object(
            criteria_name="deflection_rate",
            metric="deflection_rate",
            metric_values=metric_values,
            criteria_type="azure_ai_evaluator",
            is_inverse=True,
            logger=logger,
            eval_id=None,
            eval_run_id=None,
        )
        assert result["label"] == "pass"
        assert result["passed"] is True
        assert result["score"] == 0

    def test_inverse_metric_boolean_true_label_adjusted(self):
        """Safety evaluator: boolean True with is_inverse=True should be adjusted."""
        logger = logging.getLogger("test")
        metric_values = {
            "score": True,
            "label": True,
        }
        result = _create_result_object(
            criteria_name="indirect_attack",
            metric="xpia",
            metric_values=metric_values,
            criteria_type="azure_ai_evaluator",
            is_inverse=True,
            logger=logger,
            eval_id=None,
            eval_run_id=None,
        )
        assert result["label"] == "fail"
        assert result["passed"] is False
        assert result["score"] == 0.0

    def test_non_inverse_metric_preserves_values(self):
        """Non-inverse metric should not modify label/score."""
        logger = logging.getLogger("test")
        metric_values = {
            "score": 4,
            "label": "pass",
            "passed": True,
        }
        result = _create_result_object(
            criteria_name="coherence",
            metric="coherence",
            metric_values=metric_values,
            criteria_type="azure_ai_evaluator",
            is_inverse=False,
            logger=logger,
            eval_id=None,
            eval_run_id=None,
        )
        assert result["label"] == "pass"
        assert result["passed"] is True
        assert result["score"] == 4


@pytest.mark.unittest
class TestUpdateMetricValueStatusAndProperties:
    """Tests for _status and _properties suffix routing in _update_metric_value."""

    @staticmethod
    def _call(metric_key, metric_value):
        metric_dict = {}
        _update_metric_value(
            criteria_type="azure_ai_evaluator",
            metric_dict=metric_dict,
            metric_key=metric_key,
            metric="test_metric",
            metric_value=metric_value,
            logger=logging.getLogger("test"),
        )
        return metric_dict

    def test_status_suffix_routed(self):
        result = self._call("fluency_status", "skipped")
        assert result["status"] == "skipped"

    def test_bare_status_routed(self):
        result = self._call("status", "completed")
        assert result["status"] == "completed"

    def test_properties_suffix_routed(self):
        props = {"detail": "some info"}
        result = self._call("fluency_properties", props)
        assert result["properties"] == props

    def test_bare_properties_routed(self):
        props = {"key": "value"}
        result = self._call("properties", props)
        assert result["properties"] == props

    def test_properties_non_dict_ignored(self):
        result = self._call("fluency_properties", "not-a-dict")
        assert "properties" not in result

    def test_status_not_treated_as_score(self):
        """_status suffix must NOT fall through to the score fallback."""
        result = self._call("fluency_status", "completed")
        assert "score" not in result
        assert result.get("status") == "completed"

    def test_properties_not_treated_as_score(self):
        """_properties suffix must NOT fall through to the score fallback."""
        result = self._call("fluency_properties", {"a": 1})
        assert "score" not in result
        assert result.get("properties") == {"a": 1}

    def test_label_none_sets_passed_false(self):
        """When _label/_result value is None, passed must be set to False (preserves original behavior)."""
        result = self._call("fluency_label", None)
        assert result.get("label") is None
        assert result.get("passed") is False

    def test_label_pass_sets_passed_true(self):
        """When _label value is 'Pass', passed must be True."""
        result = self._call("fluency_label", "Pass")
        assert result.get("label") == "Pass"
        assert result.get("passed") is True

    def test_label_fail_sets_passed_false(self):
        """When _label value is 'Fail', passed must be False."""
        result = self._call("fluency_label", "Fail")
        assert result.get("label") == "Fail"
        assert result.get("passed") is False


@pytest.mark.unittest
class TestCreateResultObjectStatus:
    """Tests for status field behavior in _create_result_object."""

    @staticmethod
    def _call(metric_values, is_inverse=False):
        return _create_result_object(
            criteria_name="test_criteria",
            metric="score",
            metric_values=metric_values,
            criteria_type="azure_ai_evaluator",
            is_inverse=is_inverse,
            logger=logging.getLogger("test"),
            eval_id=None,
            eval_run_id=None,
        )

    def test_status_completed_when_passed_true(self):
        result = self._call({"score": 4.0, "passed": True})
        assert result["status"] == "completed"

    def test_status_completed_when_passed_false(self):
        result = self._call({"score": 1.0, "passed": False})
        assert result["status"] == "completed"

    def test_status_error_when_passed_none(self):
        result = self._call({"score": None, "passed": None})
        assert result["status"] == "error"
        assert result["passed"] is None

    def test_evaluator_status_takes_priority(self):
        result = self._call({"score": None, "passed": None, "status": "skipped"})
        assert result["status"] == "skipped"
        assert result["passed"] is None

    def test_skipped_status_nulls_derived_passed(self):
        """When _result/_label eagerly derived passed=False but status is skipped,
        passed must be nulled — skipped means 'not evaluated', not 'failed'."""
        result = self._call({"score": None, "passed": False, "status": "skipped"})
        assert result["status"] == "skipped"
        assert result["passed"] is None

    def test_skipped_status_nulls_derived_passed_true(self):
        """Even if passed was True, skipped status should still null it out."""
        result = self._call({"score": 5.0, "passed": True, "status": "skipped"})
        assert result["status"] == "skipped"
        assert result["passed"] is None

    def test_nan_score_becomes_none(self):
        result = self._call({"score": float("nan"), "passed": None})
        assert result["score"] is None
        assert result["passed"] is None
        assert result["status"] == "error"

    def test_status_always_present(self):
        result = self._call({"score": 3.5, "passed": True})
        assert "status" in result
        assert result["passed"] is True

    def test_status_error_from_error_summary(self):
        """Error result dicts (from _add_error_summaries path) should have status=error."""
        error_result = {
            "type": "quality",
            "name": "coherence",
            "metric": "score",
            "score": None,
            "label": None,
            "reason": None,
            "threshold": None,
            "passed": None,
            "status": "error",
            "sample": {"error": {"code": "TIMEOUT", "message": "Timed out"}},
        }
        assert error_result["status"] == "error"

    def test_status_empty_string_falls_back_to_passed(self):
        """Empty string is not a valid status — should infer from passed."""
        result = self._call({"score": 3.0, "passed": True, "status": ""})
        assert result["status"] == "completed"

    def test_status_invalid_value_falls_back_to_passed(self):
        """Unrecognized status value should infer from passed."""
        result = self._call({"score": 2.0, "passed": False, "status": "unknown"})
        assert result["status"] == "completed"

    def test_status_explicit_none_falls_back_to_passed(self):
        """Explicitly provided status=None should infer from passed."""
        result = self._call({"score": 5.0, "passed": True, "status": None})
        assert result["status"] == "completed"

    def test_status_completed_preserved_when_passed_is_none(self):
        """Explicit 'completed' status should not be overridden even if passed=None."""
        result = self._call({"score": None, "passed": None, "status": "completed"})
        assert result["status"] == "completed"

    def test_status_fallback_passed_false_is_completed(self):
        """passed=False with no status should infer 'completed' (evaluated but failed)."""
        result = self._call({"score": 1.0, "passed": False})
        assert result["status"] == "completed"
        assert result["passed"] is False

    def test_status_completed_for_score_only_evaluator(self):
        """Score-only evaluator (valid score, no passed) should get status='completed'."""
        result = self._call({"score": 0.85, "passed": None})
        assert result["status"] == "completed"
        assert result["passed"] is None
        assert result["score"] == 0.85

    def test_status_error_when_nan_score_and_no_passed(self):
        """NaN score with no passed is a genuine failure — status='error'."""
        result = self._call({"score": float("nan"), "passed": None})
        assert result["status"] == "error"
        assert result["score"] is None

    def test_status_completed_for_score_only_no_explicit_status(self):
        """Score-only evaluator without explicit status or passed should infer 'completed'."""
        result = self._call({"score": 3.5})
        assert result["status"] == "completed"

    def test_error_status_with_sample_error_preserved(self):
        """Explicit status='error' with sample.error should preserve status and keep passed=None."""
        result = self._call(
            {
                "score": None,
                "passed": None,
                "status": "error",
                "sample": {"error": {"code": "FAILED_EXECUTION", "message": "No tool calls found"}},
            }
        )
        assert result["status"] == "error"
        assert result["passed"] is None
        assert result["score"] is None
        assert result["sample"] == {"error": {"code": "FAILED_EXECUTION", "message": "No tool calls found"}}

    def test_skipped_inverse_metric_nulls_passed(self):
        """Inverse metric (e.g. indirect_attack) with status=skipped must have passed=None.

        Regression: _adjust_for_inverse_metric returns a boolean passed value which
        would overwrite the None set for skipped evaluations if not guarded."""
        # label=True would produce passed=False via inverse adjustment; label=None would produce passed=True
        for label in (True, False, None):
            result = self._call({"score": None, "label": label, "status": "skipped"}, is_inverse=True)
            assert result["status"] == "skipped"
            assert result["passed"] is None, f"passed should be None for skipped inverse metric with label={label}"


@pytest.mark.unittest
class TestCalculateAoaiEvaluationSummary:
    """Tests for row classification and skipped/errored counting in _calculate_aoai_evaluation_summary."""

    @staticmethod
    def _make_row(results, row_id="1"):
        return {
            "object": "eval.run.output_item",
            "id": row_id,
            "results": results,
        }

    @staticmethod
    def _make_result(name="fluency", passed=True, status="completed", score=4.0, sample=None):
        r = {
            "type": "azure_ai_evaluator",
            "name": name,
            "metric": "score",
            "score": score,
            "passed": passed,
            "status": status,
        }
        if sample is not None:
            r["sample"] = sample
        return r

    def test_passed_row(self):
        rows = [self._make_row([self._make_result(passed=True)])]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        assert summary["result_counts"]["passed"] == 1
        assert summary["result_counts"]["failed"] == 0

    def test_failed_row(self):
        rows = [self._make_row([self._make_result(passed=False)])]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        assert summary["result_counts"]["failed"] == 1
        assert summary["result_counts"]["passed"] == 0

    def test_skipped_row(self):
        rows = [self._make_row([self._make_result(passed=None, status="skipped", score=None)])]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        assert summary["result_counts"]["skipped"] == 1
        assert summary["result_counts"]["passed"] == 0
        assert summary["result_counts"]["failed"] == 0
        assert summary["result_counts"]["errored"] == 0

    def test_errored_row(self):
        rows = [
            self._make_row(
                [
                    self._make_result(
                        passed=None, status="error", score=None, sample={"error": {"code": "PARSE", "message": "bad"}}
                    )
                ]
            )
        ]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        assert summary["result_counts"]["errored"] == 1

    def test_mutually_exclusive_classification(self):
        """A row should only be counted in ONE bucket (no double-counting)."""
        rows = [
            self._make_row(
                [
                    self._make_result(name="fluency", passed=False),
                    self._make_result(
                        name="coherence",
                        passed=None,
                        status="error",
                        score=None,
                        sample={"error": {"code": "E", "message": "m"}},
                    ),
                ]
            )
        ]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        counts = summary["result_counts"]
        assert counts["total"] == 1
        classified = counts["passed"] + counts["failed"] + counts["errored"] + counts["skipped"]
        assert classified == 1

    def test_per_testing_criteria_has_skipped_errored(self):
        rows = [
            self._make_row([self._make_result(name="fluency", passed=True)], "1"),
            self._make_row([self._make_result(name="fluency", passed=None, status="skipped", score=None)], "2"),
            self._make_row(
                [
                    self._make_result(
                        name="fluency",
                        passed=None,
                        status="error",
                        score=None,
                        sample={"error": {"code": "E", "message": "m"}},
                    )
                ],
                "3",
            ),
        ]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        criteria = {c["testing_criteria"]: c for c in summary["per_testing_criteria_results"]}
        assert "fluency" in criteria
        assert criteria["fluency"]["passed"] == 1
        assert criteria["fluency"]["skipped"] == 1
        assert criteria["fluency"]["errored"] == 1

    def test_result_counts_has_skipped_key(self):
        rows = [self._make_row([self._make_result()])]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        assert "skipped" in summary["result_counts"]

    def test_mixed_rows(self):
        rows = [
            self._make_row([self._make_result(passed=True)], "1"),
            self._make_row([self._make_result(passed=False)], "2"),
            self._make_row([self._make_result(passed=None, status="skipped", score=None)], "3"),
            self._make_row(
                [
                    self._make_result(
                        passed=None, status="error", score=None, sample={"error": {"code": "E", "message": "m"}}
                    )
                ],
                "4",
            ),
        ]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        c = summary["result_counts"]
        assert c["total"] == 4
        assert c["passed"] == 1
        assert c["failed"] == 1
        assert c["skipped"] == 1
        assert c["errored"] == 1

    def test_score_only_row_classified_as_errored(self):
        """Score-only evaluator (passed=None, status='completed') → errored (threshold should have set pass/fail)."""
        rows = [self._make_row([self._make_result(name="similarity", passed=None, status="completed", score=0.85)])]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        c = summary["result_counts"]
        assert c["total"] == 1
        assert c["passed"] == 0
        assert c["errored"] == 1

    def test_pass_plus_error_classified_as_passed(self):
        """A row with 1 pass + 1 error is 'passed' — errors are non-executions, not failures."""
        rows = [
            self._make_row(
                [
                    self._make_result(name="fluency", passed=True),
                    self._make_result(
                        name="coherence",
                        passed=None,
                        status="error",
                        score=None,
                        sample={"error": {"code": "E", "message": "m"}},
                    ),
                ]
            )
        ]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        c = summary["result_counts"]
        assert c["total"] == 1
        # Errors are non-executions; the one executed test passed → row is passed
        assert c["passed"] == 1
        assert c["errored"] == 0

    def test_empty_results_list_classified_as_errored(self):
        """A row with an empty results list should be classified as errored, not passed."""
        rows = [self._make_row([])]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        c = summary["result_counts"]
        assert c["total"] == 1
        assert c["passed"] == 0
        assert c["errored"] == 1

    def test_fail_plus_error_classified_as_failed(self):
        """A row with 1 fail + 1 error is 'failed' — fail takes priority over error."""
        rows = [
            self._make_row(
                [
                    self._make_result(name="fluency", passed=False),
                    self._make_result(
                        name="coherence",
                        passed=None,
                        status="error",
                        score=None,
                        sample={"error": {"code": "E", "message": "m"}},
                    ),
                ]
            )
        ]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        c = summary["result_counts"]
        assert c["total"] == 1
        assert c["failed"] == 1
        assert c["passed"] == 0
        assert c["errored"] == 0

    def test_pass_plus_skip_classified_as_passed(self):
        """A row with 1 pass + 1 skip is 'passed' — skips are non-executions."""
        rows = [
            self._make_row(
                [
                    self._make_result(name="fluency", passed=True),
                    self._make_result(name="coherence", passed=None, status="skipped", score=None),
                ]
            )
        ]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        c = summary["result_counts"]
        assert c["total"] == 1
        assert c["passed"] == 1
        assert c["failed"] == 0
        assert c["skipped"] == 0

    def test_error_plus_skip_classified_as_errored(self):
        """A row with only errors and skips (no pass/fail) is 'errored' — error > skip."""
        rows = [
            self._make_row(
                [
                    self._make_result(
                        name="fluency",
                        passed=None,
                        status="error",
                        score=None,
                        sample={"error": {"code": "E", "message": "m"}},
                    ),
                    self._make_result(name="coherence", passed=None, status="skipped", score=None),
                ]
            )
        ]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        c = summary["result_counts"]
        assert c["total"] == 1
        assert c["errored"] == 1
        assert c["skipped"] == 0
        assert c["passed"] == 0

    def test_total_equals_sum_of_buckets(self):
        """Invariant: total must always equal the sum of all classification buckets."""
        rows = [
            self._make_row([self._make_result(passed=True)], "1"),
            self._make_row([self._make_result(passed=False)], "2"),
            self._make_row([self._make_result(passed=None, status="skipped", score=None)], "3"),
            self._make_row(
                [
                    self._make_result(
                        passed=None, status="error", score=None, sample={"error": {"code": "E", "message": "m"}}
                    )
                ],
                "4",
            ),
            self._make_row([self._make_result(name="sim", passed=None, status="completed", score=0.9)], "5"),
            self._make_row([], "6"),  # empty results
        ]
        summary = _calculate_aoai_evaluation_summary(rows, logging.getLogger("test"), None)
        c = summary["result_counts"]
        bucket_sum = c["passed"] + c["failed"] + c["errored"] + c["skipped"]
        assert c["total"] == bucket_sum, f"total={c['total']} != sum={bucket_sum}: {c}"


@pytest.mark.unittest
class TestGetMetricFromCriteria:
    """Tests for metric resolution in _get_metric_from_criteria."""

    def test_direct_match(self):
        assert _get_metric_from_criteria("tc", "f1_score", ["f1_score"]) == "f1_score"

    def test_f1_result_resolves_to_f1_score(self):
        """f1_result should resolve to f1_score via f1 special case."""
        assert _get_metric_from_criteria("tc", "f1_result", ["f1_score"]) == "f1_score"

    def test_f1_threshold_resolves_to_f1_score(self):
        assert _get_metric_from_criteria("tc", "f1_threshold", ["f1_score"]) == "f1_score"

    def test_f1_status_resolves_to_f1_score(self):
        assert _get_metric_from_criteria("tc", "f1_status", ["f1_score"]) == "f1_score"

    def test_f1_properties_resolves_to_f1_score(self):
        assert _get_metric_from_criteria("tc", "f1_properties", ["f1_score"]) == "f1_score"

    def test_coherence_reason_prefix_match(self):
        assert _get_metric_from_criteria("tc", "coherence_reason", ["coherence"]) == "coherence"

    def test_xpia_prefix_match_single_metric(self):
        """XPIA sub-metric variants match via prefix fallback."""
        assert (
            _get_metric_from_criteria("tc", "xpia_manipulated_content_result", ["xpia_manipulated_content"])
            == "xpia_manipulated_content"
        )

    def test_xpia_prefix_ordering_uses_longest_match(self):
        """With full indirect_attack metric list, longer metric names match before shorter ones."""
        full_list = ["xpia", "xpia_manipulated_content", "xpia_intrusion", "xpia_information_gathering"]
        assert (
            _get_metric_from_criteria("indirect_attack", "xpia_manipulated_content_result", full_list)
            == "xpia_manipulated_content"
        )
        assert _get_metric_from_criteria("indirect_attack", "xpia_intrusion_reason", full_list) == "xpia_intrusion"
        assert _get_metric_from_criteria("indirect_attack", "xpia_result", full_list) == "xpia"

    def test_xpia_direct_match_in_full_list(self):
        """XPIA sub-metric names that are in the list should direct-match."""
        full_list = ["xpia", "xpia_manipulated_content", "xpia_intrusion", "xpia_information_gathering"]
        assert (
            _get_metric_from_criteria("indirect_attack", "xpia_manipulated_content", full_list)
            == "xpia_manipulated_content"
        )
        assert _get_metric_from_criteria("indirect_attack", "xpia", full_list) == "xpia"

    def test_fallback_to_criteria_name(self):
        assert _get_metric_from_criteria("my_criteria", "unknown_key", ["f1_score"]) == "my_criteria"


@pytest.mark.unittest
class TestUpdateMetricValuePreservesExplicitPassed:
    """Tests that _update_metric_value preserves an explicit ``passed`` value when
    processing ``_result`` / ``result`` / ``_label`` keys.

    The fix gates the ``passed`` derivation for ``azure_ai_evaluator`` criteria
    behind ``"passed" not in metric_dict`` so a previously set explicit value
    (e.g. from an earlier ``metric_key == "passed"`` iteration) is not overwritten.
    """

    @staticmethod
    def _call(metric_dict, metric_key, metric_value, criteria_type="azure_ai_evaluator"):
        return _update_metric_value(
            criteria_type=criteria_type,
            metric_dict=metric_dict,
            metric_key=metric_key,
            metric="test_metric",
            metric_value=metric_value,
            logger=logging.getLogger("test"),
        )

    # --- guard preserves explicit value ---
    @pytest.mark.parametrize("label_key", ["test_metric_result", "result", "test_metric_label"])
    def test_explicit_passed_true_preserved_when_label_says_fail(self, label_key):
        """Explicit passed=True must NOT be overwritten by a 'Fail' label."""
        metric_dict = {"passed": True}
        result_name, _, _, derived_passed = self._call(metric_dict, label_key, "Fail")
        assert metric_dict["passed"] is True
        assert metric_dict["label"] == "Fail"
        assert result_name == "label"
        assert derived_passed is None  # guard fired; no derived value returned

    @pytest.mark.parametrize("label_key", ["test_metric_result", "result", "test_metric_label"])
    def test_explicit_passed_false_preserved_when_label_says_pass(self, label_key):
        """Explicit passed=False must NOT be overwritten by a 'Pass' label."""
        metric_dict = {"passed": False}
        _, _, _, derived_passed = self._call(metric_dict, label_key, "Pass")
        assert metric_dict["passed"] is False
        assert metric_dict["label"] == "Pass"
        assert derived_passed is None

    def test_explicit_passed_none_preserved_when_label_present(self):
        """Even an explicit passed=None must be preserved (key already in dict)."""
        metric_dict = {"passed": None}
        _, _, _, derived_passed = self._call(metric_dict, "test_metric_result", "Pass")
        assert metric_dict["passed"] is None
        assert metric_dict["label"] == "Pass"
        assert derived_passed is None

    # --- derivation still happens when no explicit passed ---
    @pytest.mark.parametrize(
        "label_value,expected_passed",
        [
            ("Pass", True),
            ("pass", True),
            ("True", True),
            ("true", True),
            ("Fail", False),
            ("fail", False),
            ("False", False),
            (None, False),
        ],
    )
    def test_passed_derived_when_not_present(self, label_value, expected_passed):
        """Without an existing passed key, original derivation logic still applies."""
        metric_dict = {}
        _, _, _, derived_passed = self._call(metric_dict, "test_metric_result", label_value)
        assert metric_dict["passed"] is expected_passed
        assert derived_passed is expected_passed

    # --- non azure_ai_evaluator criteria never derive passed ---
    def test_non_azure_ai_evaluator_does_not_derive_passed(self):
        """Other criteria types must not derive passed from label, regardless of guard."""
        metric_dict = {}
        _, _, _, derived_passed = self._call(metric_dict, "test_metric_result", "Pass", criteria_type="python_grader")
        assert "passed" not in metric_dict
        assert derived_passed is None

    def test_non_azure_ai_evaluator_preserves_explicit_passed(self):
        """Other criteria types must also preserve explicit passed (no derivation path runs)."""
        metric_dict = {"passed": True}
        _, _, _, derived_passed = self._call(metric_dict, "test_metric_result", "Fail", criteria_type="python_grader")
        assert metric_dict["passed"] is True
        assert metric_dict["label"] == "Fail"
        assert derived_passed is None

    # --- explicit passed wins regardless of iteration order via _extract_metric_values ---
    def test_extract_metric_values_passed_before_result(self):
        """When 'passed' key precedes '_result', explicit value wins (already worked, regression check)."""
        metrics = {
            "passed": True,
            "test_metric_result": "Fail",
        }
        result = _extract_metric_values(
            criteria_name="test_metric",
            criteria_type="azure_ai_evaluator",
            metrics=metrics,
            expected_metrics=["test_metric"],
            logger=logging.getLogger("test"),
        )
        assert result["test_metric"]["passed"] is True
        assert result["test_metric"]["label"] == "Fail"

    def test_extract_metric_values_result_before_passed(self):
        """When '_result' precedes 'passed', explicit value still wins (unchanged branch)."""
        metrics = {
            "test_metric_result": "Fail",
            "passed": True,
        }
        result = _extract_metric_values(
            criteria_name="test_metric",
            criteria_type="azure_ai_evaluator",
            metrics=metrics,
            expected_metrics=["test_metric"],
            logger=logging.getLogger("test"),
        )
        assert result["test_metric"]["passed"] is True
        assert result["test_metric"]["label"] == "Fail"

    # --- end-to-end through _process_criteria_metrics (one level up) ---
    def test_process_criteria_metrics_preserves_explicit_passed(self):
        """End-to-end: explicit passed must survive through the full result-object pipeline."""
        metrics = {
            "passed": True,
            "test_metric_result": "Fail",
            "test_metric_score": 0.2,
            "test_metric_reason": "Did not meet bar",
        }
        testing_criteria_metadata = {
            "test_metric": {
                "metrics": ["test_metric"],
                "type": "azure_ai_evaluator",
                "is_inverse": False,
            }
        }
        results, _ = _process_criteria_metrics(
            criteria_name="test_metric",
            metrics=metrics,
            testing_criteria_metadata=testing_criteria_metadata,
            logger=logging.getLogger("test"),
            eval_id=None,
            eval_run_id=None,
        )
        assert len(results) == 1
        # Explicit passed=True wins despite label="Fail" and low score
        assert results[0]["passed"] is True
        assert results[0]["label"] == "Fail"
        assert results[0]["score"] == 0.2

    def test_process_criteria_metrics_derives_passed_when_absent(self):
        """End-to-end regression: when no explicit passed is provided, derivation still happens."""
        metrics = {
            "test_metric_result": "Pass",
            "test_metric_score": 0.9,
        }
        testing_criteria_metadata = {
            "test_metric": {
                "metrics": ["test_metric"],
                "type": "azure_ai_evaluator",
                "is_inverse": False,
            }
        }
        results, _ = _process_criteria_metrics(
            criteria_name="test_metric",
            metrics=metrics,
            testing_criteria_metadata=testing_criteria_metadata,
            logger=logging.getLogger("test"),
            eval_id=None,
            eval_run_id=None,
        )
        assert len(results) == 1
        assert results[0]["passed"] is True
        assert results[0]["label"] == "Pass"


@pytest.mark.unittest
class TestEvaluationPerTurnNotRoutedToScalar:
    """Tests for the root-cause fix: per-turn breakdown columns (``evaluation_per_turn.*``)
    must NOT be suffix-routed into scalar AOAI result fields.

    Multi-turn (conversation-level) evaluators such as retrieval aggregate per-turn results,
    producing both a top-level scalar metric (e.g. ``retrieval_total_tokens``) and a flattened
    per-turn breakdown column (``evaluation_per_turn.retrieval_total_tokens``) whose value is a
    *list*. The latter ends with ``_total_tokens`` and previously got routed into the scalar
    ``sample.usage.total_tokens`` slot, double-writing over the real scalar and crashing the
    converter with ``TypeError: float() argument must be a string or a real number, not 'list'``.
    """

    @staticmethod
    def _extract(metrics):
        return _extract_metric_values(
            criteria_name="retrieval",
            criteria_type="azure_ai_evaluator",
            metrics=metrics,
            expected_metrics=["retrieval"],
            logger=logging.getLogger("test"),
        )

    def test_per_turn_token_list_does_not_reach_usage(self):
        """The per-turn token list must be dropped from scalar routing (no crash, no list in usage)."""
        metrics = {
            "score": 4.0,
            "retrieval_total_tokens": 300,
            "evaluation_per_turn.retrieval_total_tokens": [100, 200],
        }
        result = self._extract(metrics)
        usage = result["retrieval"]["sample"]["usage"]
        # Scalar top-level value populates usage; per-turn list is not present anywhere in usage.
        assert usage["total_tokens"] == 300
        assert [100, 200] not in usage.values()

    def test_scalar_token_survives_regardless_of_order(self):
        """Whichever order the columns iterate, the scalar (not the per-turn list) wins usage."""
        metrics = {
            "evaluation_per_turn.retrieval_total_tokens": [100, 200],
            "retrieval_total_tokens": 300,
        }
        result = self._extract(metrics)
        assert result["retrieval"]["sample"]["usage"]["total_tokens"] == 300

    def test_per_turn_prompt_and_completion_tokens_skipped(self):
        """All *_tokens per-turn breakdowns are skipped, only scalars reach usage."""
        metrics = {
            "retrieval_prompt_tokens": 12,
            "retrieval_completion_tokens": 8,
            "evaluation_per_turn.retrieval_prompt_tokens": [5, 7],
            "evaluation_per_turn.retrieval_completion_tokens": [3, 5],
        }
        result = self._extract(metrics)
        usage = result["retrieval"]["sample"]["usage"]
        assert usage["prompt_tokens"] == 12
        assert usage["completion_tokens"] == 8

    def test_per_turn_score_does_not_clobber_scalar_score(self):
        """A per-turn score list must not overwrite the scalar score."""
        metrics = {
            "score": 4.0,
            "evaluation_per_turn.retrieval_score": [3, 5],
        }
        result = self._extract(metrics)
        assert result["retrieval"]["score"] == 4.0

    def test_per_turn_columns_absent_when_no_scalar(self):
        """With only per-turn columns present, nothing is routed (no spurious scalar metric)."""
        metrics = {
            "evaluation_per_turn.retrieval_total_tokens": [100, 200],
        }
        result = self._extract(metrics)
        # No usable scalar metric was produced from the per-turn-only input.
        assert "retrieval" not in result or "sample" not in result.get("retrieval", {})


@pytest.mark.skipif(MISSING_OPENTELEMETRY, reason="This test requires the opentelemetry package")
class TestEmitEvalResultShutdown:
    """Tests that emit_eval_result_events_to_app_insights shuts down the LoggerProvider."""

    @patch.dict("sys.modules", {"azure.monitor.opentelemetry.exporter": MagicMock()})
    @patch("opentelemetry.sdk._logs.LoggerProvider")
    def test_shutdown_called_on_success(self, mock_lp_cls):
        """logger_provider.shutdown() must be called after successful export."""
        mock_lp = mock_lp_cls.return_value
        mock_lp.force_flush.return_value = True
        results = [
            {
                "results": [{"metric": "coherence", "score": 4.5}],
                "datasource_item": {},
            }
        ]
        config = {"connection_string": "InstrumentationKey=fake-key"}

        emit_eval_result_events_to_app_insights(config, results)
        mock_lp.shutdown.assert_called_once()

    @patch.dict("sys.modules", {"azure.monitor.opentelemetry.exporter": MagicMock()})
    @patch("opentelemetry.sdk._logs.LoggerProvider")
    def test_shutdown_called_on_exception(self, mock_lp_cls):
        """logger_provider.shutdown() must be called even when an exception occurs."""
        mock_lp = mock_lp_cls.return_value
        mock_lp.force_flush.side_effect = RuntimeError("boom")
        results = [
            {
                "results": [{"metric": "coherence", "score": 4.5}],
                "datasource_item": {},
            }
        ]
        config = {"connection_string": "InstrumentationKey=fake-key"}

        # Should not raise — the exception is caught internally
        emit_eval_result_events_to_app_insights(config, results)
        mock_lp.shutdown.assert_called_once()

    @patch.dict("sys.modules", {"azure.monitor.opentelemetry.exporter": MagicMock()})
    @patch("opentelemetry.sdk._logs.LoggerProvider")
    def test_shutdown_called_on_flush_timeout(self, mock_lp_cls):
        """logger_provider.shutdown() must be called even when flush times out."""
        mock_lp = mock_lp_cls.return_value
        mock_lp.force_flush.return_value = False  # Simulates timeout
        results = [
            {
                "results": [{"metric": "coherence", "score": 4.5}],
                "datasource_item": {},
            }
        ]
        config = {"connection_string": "InstrumentationKey=fake-key"}

        emit_eval_result_events_to_app_insights(config, results)
        mock_lp.shutdown.assert_called_once()

    @patch.dict("sys.modules", {"azure.monitor.opentelemetry.exporter": MagicMock()})
    @patch("opentelemetry.sdk._logs.LoggerProvider")
    def test_no_shutdown_when_results_empty(self, mock_lp_cls):
        """When results list is empty, no LoggerProvider is created so no shutdown."""
        config = {"connection_string": "InstrumentationKey=fake-key"}

        emit_eval_result_events_to_app_insights(config, [])
        mock_lp_cls.assert_not_called()


@pytest.mark.skipif(MISSING_OPENTELEMETRY, reason="This test requires the opentelemetry package")
class TestAppInsightsAuthentication:
    """Tests for Application Insights exporter authentication configuration."""

    _RESULTS = [
        {
            "results": [{"metric": "coherence", "score": 4.5}],
            "datasource_item": {},
        }
    ]

    @patch("opentelemetry.sdk._logs.LoggerProvider")
    def test_project_managed_identity_credential_and_scope_are_passed_to_exporter(self, mock_lp_cls, caplog):
        mock_lp_cls.return_value.force_flush.return_value = True
        credential = MagicMock(spec=TokenCredential)
        exporter_module = MagicMock()
        config = {
            "connection_string": "InstrumentationKey=fake-key",
            "credential_type": "ProjectManagedIdentity",
            "credential": credential,
        }

        with caplog.at_level(logging.INFO), patch.dict(
            "sys.modules", {"azure.monitor.opentelemetry.exporter": exporter_module}
        ):
            emit_eval_result_events_to_app_insights(config, self._RESULTS)

        exporter_options = exporter_module.AzureMonitorLogExporter.call_args.kwargs
        assert exporter_options["connection_string"] == "InstrumentationKey=fake-key"
        assert exporter_options["credential_scopes"] == ["https://monitor.azure.com/.default"]
        assert exporter_options["credential"] is not credential
        assert "token" not in config
        assert "Successfully logged 1 evaluation results to App Insights" in caplog.text

    def test_exporter_credential_refresh_uses_monitor_scope(self):
        credential = MagicMock(spec=TokenCredential)
        credential.get_token.side_effect = [
            AccessToken("token-1", 0),
            AccessToken("token-2", 0),
        ]
        exporter_options = _get_app_insights_exporter_options(
            {
                "connection_string": "InstrumentationKey=fake-key",
                "credential_type": "ProjectManagedIdentity",
                "credential": credential,
            }
        )
        policy = BearerTokenCredentialPolicy(
            exporter_options["credential"],
            "https://monitor.azure.com//.default",
        )
        request = PipelineRequest(
            HttpRequest("POST", "https://example.test"),
            PipelineContext(None),
        )

        policy.on_request(request)
        policy.on_request(request)

        assert credential.get_token.call_args_list == [
            call("https://monitor.azure.com/.default"),
            call("https://monitor.azure.com/.default"),
        ]

    @patch("opentelemetry.sdk._logs.LoggerProvider")
    def test_project_managed_identity_exporter_failure_is_logged(self, mock_lp_cls, caplog):
        credential = MagicMock(spec=TokenCredential)
        exporter_module = MagicMock()
        exporter_module.AzureMonitorLogExporter.side_effect = RuntimeError("authentication failed")

        with caplog.at_level(logging.ERROR), patch.dict(
            "sys.modules", {"azure.monitor.opentelemetry.exporter": exporter_module}
        ):
            emit_eval_result_events_to_app_insights(
                {
                    "connection_string": "InstrumentationKey=fake-key",
                    "credential_type": "ProjectManagedIdentity",
                    "credential": credential,
                },
                self._RESULTS,
            )

        assert "Failed to emit evaluation results to App Insights: authentication failed" in caplog.text
        mock_lp_cls.return_value.shutdown.assert_called_once()

    @patch("opentelemetry.sdk._logs.LoggerProvider")
    def test_project_managed_identity_batch_export_failure_is_logged(self, mock_lp_cls, caplog):
        from opentelemetry.sdk._logs.export import LogExportResult

        mock_lp_cls.return_value.force_flush.return_value = True
        credential = MagicMock(spec=TokenCredential)
        exporter = MagicMock()
        exporter.export.return_value = LogExportResult.FAILURE
        exporter_module = MagicMock()
        exporter_module.AzureMonitorLogExporter.return_value = exporter

        def create_processor(tracked_exporter, **_kwargs):
            tracked_exporter.export([])
            return MagicMock()

        with patch.dict("sys.modules", {"azure.monitor.opentelemetry.exporter": exporter_module}), patch(
            "opentelemetry.sdk._logs.export.BatchLogRecordProcessor",
            side_effect=create_processor,
        ), caplog.at_level(logging.ERROR):
            emit_eval_result_events_to_app_insights(
                {
                    "connection_string": "InstrumentationKey=fake-key",
                    "credential_type": "ProjectManagedIdentity",
                    "credential": credential,
                },
                self._RESULTS,
            )

        assert "Failed to export evaluation results to App Insights." in caplog.text
        assert "Successfully logged" not in caplog.text
        exporter.export.assert_called_once_with([])
        mock_lp_cls.return_value.force_flush.assert_called_once()
        mock_lp_cls.return_value.shutdown.assert_called_once()

    @patch("opentelemetry.sdk._logs.LoggerProvider")
    def test_project_managed_identity_flush_timeout_is_logged(self, mock_lp_cls, caplog):
        mock_lp_cls.return_value.force_flush.return_value = False
        credential = MagicMock(spec=TokenCredential)
        exporter_module = MagicMock()

        with caplog.at_level(logging.WARNING), patch.dict(
            "sys.modules", {"azure.monitor.opentelemetry.exporter": exporter_module}
        ):
            emit_eval_result_events_to_app_insights(
                {
                    "connection_string": "InstrumentationKey=fake-key",
                    "credential_type": "ProjectManagedIdentity",
                    "credential": credential,
                },
                self._RESULTS,
            )

        assert "App Insights force_flush timed out after 60000ms" in caplog.text
        mock_lp_cls.return_value.shutdown.assert_called_once()

    @patch("azure.identity.DefaultAzureCredential")
    def test_entra_authentication_requires_credential_without_fallback(self, mock_default_credential):
        environment = {
            "APPLICATIONINSIGHTS_CONNECTION_STRING": "InstrumentationKey=environment-key",
            "AZURE_CLIENT_ID": "environment-client-id",
        }
        with patch.dict(os.environ, environment, clear=False):
            original_environment = os.environ.copy()
            with pytest.raises(
                ValueError,
                match="ProjectManagedIdentity authentication requires a TokenCredential",
            ):
                emit_eval_result_events_to_app_insights(
                    {
                        "connection_string": "InstrumentationKey=fake-key",
                        "credential_type": "ProjectManagedIdentity",
                    },
                    self._RESULTS,
                )
            assert os.environ == original_environment
        mock_default_credential.assert_not_called()

    def test_unknown_credential_type_does_not_fall_back_to_api_key(self):
        with pytest.raises(EvaluationException, match="Unsupported App Insights credential type") as exc_info:
            emit_eval_result_events_to_app_insights(
                {
                    "connection_string": "InstrumentationKey=fake-key",
                    "credential_type": "FutureCredential",
                },
                self._RESULTS,
            )
        assert exc_info.value.target == ErrorTarget.EVALUATE
        assert exc_info.value.category == ErrorCategory.INVALID_VALUE
        assert exc_info.value.blame == ErrorBlame.SYSTEM_ERROR

    @patch("opentelemetry.sdk._logs.LoggerProvider")
    def test_missing_credential_type_configuration_remains_compatible(self, mock_lp_cls):
        mock_lp_cls.return_value.force_flush.return_value = True
        exporter_module = MagicMock()
        config = {"connection_string": "InstrumentationKey=fake-key"}

        with patch.dict("sys.modules", {"azure.monitor.opentelemetry.exporter": exporter_module}):
            emit_eval_result_events_to_app_insights(config, self._RESULTS)

        exporter_module.AzureMonitorLogExporter.assert_called_once_with(connection_string="InstrumentationKey=fake-key")

    @patch("opentelemetry.sdk._logs.LoggerProvider")
    def test_api_key_configuration_disables_environment_fallback(self, mock_lp_cls):
        mock_lp_cls.return_value.force_flush.return_value = True
        exporter_module = MagicMock()
        config = {
            "connection_string": "InstrumentationKey=fake-key",
            "credential_type": "ApiKey",
        }

        with patch.dict(
            os.environ,
            {"APPLICATIONINSIGHTS_AUTHENTICATION_STRING": "Authorization=AAD"},
            clear=False,
        ), patch.dict("sys.modules", {"azure.monitor.opentelemetry.exporter": exporter_module}):
            emit_eval_result_events_to_app_insights(config, self._RESULTS)

        exporter_module.AzureMonitorLogExporter.assert_called_once_with(
            connection_string="InstrumentationKey=fake-key",
            credential=None,
        )
