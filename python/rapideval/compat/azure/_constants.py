"""azure-ai-evaluation 1.18.10's ``azure.ai.evaluation._constants`` names that describe public behaviour: the
``<k>_result`` texts of a passed and a failed row, and the file ``evaluate(output_path=<a directory>)`` writes."""

from __future__ import annotations

__all__ = ["DEFAULT_EVALUATION_RESULTS_FILE_NAME", "EVALUATION_PASS_FAIL_MAPPING"]

#: The file ``evaluate`` writes into an ``output_path`` that is a directory (as the promptflow run does).
DEFAULT_EVALUATION_RESULTS_FILE_NAME = "evaluation_results.json"

#: A row's ``<k>_result`` by whether it passed its threshold.
EVALUATION_PASS_FAIL_MAPPING = {True: "pass", False: "fail"}
