# Copied from the azure-ai-evaluation 1.18.10 source distribution (azure_ai_evaluation-1.18.10.tar.gz:
# tests/unittests/test_agent_evaluators.py).
# Copyright (c) Microsoft Corporation; MIT License (../LICENSE); the file has no licence header of its own.
# Only the import lines were changed: azure.ai.evaluation -> rapideval.compat.azure (EvaluationException and its
# enums from rapideval.compat.azure._exceptions, where azure keeps them).
import pytest
from rapideval.compat.azure import evaluate, ToolCallAccuracyEvaluator
from rapideval.compat.azure._exceptions import EvaluationException


@pytest.mark.usefixtures("mock_model_config")
@pytest.mark.unittest
class TestEvaluate:
    def test_tool_call_accuracy_evaluator_missing_inputs(self, mock_model_config):
        tool_call_accuracy = ToolCallAccuracyEvaluator(model_config=mock_model_config)

        # Test with missing tool_calls and response
        with pytest.raises(EvaluationException) as exc_info:
            tool_call_accuracy(
                query="Where is the Eiffel Tower?",
                tool_definitions=[
                    {
                        "name": "fetch_weather",
                        "description": "Fetches the weather information for the specified location.",
                        "parameters": {
                            "type": "object",
                            "properties": {
                                "location": {
                                    "type": "string",
                                    "description": "The location to fetch weather for.",
                                }
                            },
                        },
                    }
                ],
            )
        assert ToolCallAccuracyEvaluator._NO_TOOL_CALLS_MESSAGE in str(exc_info.value)

        # Test with missing tool_definitions
        with pytest.raises(EvaluationException) as exc_info:
            tool_call_accuracy(
                query="Where is the Eiffel Tower?",
                tool_definitions=[],
                tool_calls=[
                    {
                        "type": "tool_call",
                        "name": "fetch_weather",
                        "arguments": {"location": "Tokyo"},
                    }
                ],
            )
        assert ToolCallAccuracyEvaluator._NO_TOOL_DEFINITIONS_MESSAGE in str(exc_info.value)

        # Test with tool call for which definition is not provided
        result = tool_call_accuracy(
            query="Where is the Eiffel Tower?",
            tool_calls=[{"type": "tool_call", "name": "some_other_tool", "tool_call_id": "1", "arguments": {}}],
            tool_definitions=[
                {
                    "name": "fetch_weather",
                    "description": "Fetches the weather information for the specified location.",
                    "parameters": {
                        "type": "object",
                        "properties": {
                            "location": {
                                "type": "string",
                                "description": "The location to fetch weather for.",
                            }
                        },
                    },
                }
            ],
        )
        assert result[ToolCallAccuracyEvaluator._RESULT_KEY] is None
        assert result[f"{ToolCallAccuracyEvaluator._RESULT_KEY}_passed"] is None
        assert result[f"{ToolCallAccuracyEvaluator._RESULT_KEY}_status"] == "skipped"
        assert (
            "not applicable" in result[f"{ToolCallAccuracyEvaluator._RESULT_KEY}_reason"].lower()
            and ToolCallAccuracyEvaluator._TOOL_DEFINITIONS_MISSING_MESSAGE
            in result[f"{ToolCallAccuracyEvaluator._RESULT_KEY}_reason"]
        )
