"""(ours) The drop-in's azure behaviour that the copied tests cannot check here, next to azure-ai-evaluation
1.18.10's own where it runs offline: its EvaluationException (message, category, blame, target) for the same
bad calls, each also the built-in type rapideval raised before; ``evaluate``'s column mappings, ``**kwargs``
evaluators and CSV data (the copied tests that check them read data the sdist does not ship); and the agent form
of ``GroundednessEvaluator`` and the quality evaluators' agent messages, against the scripted judge of
tests/llm."""

from __future__ import annotations

import contextlib
import json
import pathlib
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from rapideval.compat import azure as ours
from rapideval.compat.azure._exceptions import ErrorBlame, ErrorCategory, ErrorTarget, EvaluationException
from rapideval.compat.promptflow.base import EvaluatorError
from rapideval.llm import JudgeClient

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "llm"))
from judge_helpers import FAST_RETRY, NO_LIMITS, SECRET, marked_answer  # noqa: E402
from judge_server import JudgeServer, prompt_text  # noqa: E402

CONFIG = {"azure_endpoint": "https://Sanitized.api.cognitive.microsoft.com", "api_key": "k",
          "api_version": "2023-07-01-preview", "azure_deployment": "d"}  # fmt: skip


def _azure() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # azure's imports warn (deprecations in its dependencies)
        import azure.ai.evaluation as theirs
        from azure.ai.evaluation._exceptions import EvaluationException as Theirs

    return theirs, Theirs


def _raised(call: Callable[[], Any], kind: type[BaseException]) -> BaseException:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(kind) as info:
            call()
    return info.value


def _cases(module: Any, data: pathlib.Path) -> dict[str, Callable[[], Any]]:
    """Bad calls, each of which azure answers with an EvaluationException before any request."""
    return {
        "data=123": lambda: module.evaluate(data=123, evaluators={"f1": module.F1ScoreEvaluator()}),
        "missing file": lambda: module.evaluate(data="not_exist.jsonl", evaluators={"f1": module.F1ScoreEvaluator()}),
        "evaluators list": lambda: module.evaluate(data=str(data), evaluators=[module.F1ScoreEvaluator()]),
        "bad mapping": lambda: module.evaluate(data=str(data), evaluators={"f1": module.F1ScoreEvaluator()},
                                               evaluator_config={"f1": {"column_mapping": {"response": "data.r"}}}),
        "target inputs": lambda: module.evaluate(data=str(data), evaluators={"f1": module.F1ScoreEvaluator()},
                                                 target=lambda question: {"response": question}),
        "rouge threshold": lambda: module.RougeScoreEvaluator(module.RougeType.ROUGE_1, recall_threshold=1),
        "safety threshold": lambda: module.ContentSafetyEvaluator(None, None, sexual_threshold="3"),
        "f1 missing": lambda: module.F1ScoreEvaluator()(response="r"),
        "fluency dict": lambda: module.FluencyEvaluator(CONFIG)(response={"a": 1}),
        "coherence missing": lambda: module.CoherenceEvaluator(CONFIG)(query="q"),
        "groundedness missing": lambda: module.GroundednessEvaluator(CONFIG)(response="r"),
        "similarity missing": lambda: module.SimilarityEvaluator(CONFIG)(query="q", response="r"),
        "completeness missing": lambda: module.ResponseCompletenessEvaluator(CONFIG)(response="r"),
        "tool calls missing": lambda: module.ToolCallAccuracyEvaluator(CONFIG)(
            query="q", tool_definitions=[{"name": "f", "parameters": {}}]),
    }  # fmt: skip


# The built-in type each case raised before the drop-in raised azure's EvaluationException (it still is one).
BEFORE = {
    "data=123": ValueError, "missing file": FileNotFoundError, "evaluators list": ValueError,
    "bad mapping": ValueError, "target inputs": ValueError, "rouge threshold": TypeError,
    "safety threshold": TypeError, "f1 missing": ValueError, "fluency dict": TypeError,
    "coherence missing": EvaluatorError, "groundedness missing": EvaluatorError, "similarity missing": EvaluatorError,
    "completeness missing": ValueError, "tool calls missing": ValueError,
}  # fmt: skip


@pytest.fixture
def data_file(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "data.jsonl"
    rows = [{"query": "Q?", "response": "Tokyo is the capital.", "ground_truth": "The capital is Tokyo."}] * 2
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", list(BEFORE))
def test_errors_are_azures(case: str, data_file: pathlib.Path) -> None:
    theirs_module, Theirs = _azure()
    theirs = _raised(_cases(theirs_module, data_file)[case], Theirs)
    mine = _raised(_cases(ours, data_file)[case], EvaluationException)
    assert isinstance(mine, BEFORE[case]), case
    assert mine.args[0] == theirs.args[0], case
    assert (mine.category.name, mine.blame.name, mine.target.name) == (
        theirs.category.name, theirs.blame.name, theirs.target.name), case  # fmt: skip
    assert str(mine) == mine.args[0] and str(theirs).endswith(mine.args[0])  # azure's str() adds "(UserError) "


def test_exception_attributes() -> None:
    e = EvaluationException("boom", target=ErrorTarget.EVALUATE, category=ErrorCategory.INVALID_VALUE,
                            blame=ErrorBlame.USER_ERROR, tsg_link="https://aka.ms/x")  # fmt: skip
    assert e.args == ("boom",) and e.message == "boom" and e.internal_message is None
    assert str(e) == "boom\nVisit https://aka.ms/x to troubleshoot this issue."
    assert str(EvaluationException("boom")) == "boom" and EvaluationException("boom").blame is ErrorBlame.UNKNOWN
    _, Theirs = _azure()
    assert str(Theirs("boom")) == "(InternalError) boom"  # azure's str() adds whose error it is


def test_fail_on_evaluator_errors_is_an_evaluation_exception(data_file: pathlib.Path) -> None:
    def broken(response: str) -> dict[str, Any]:
        raise ValueError("no")

    with pytest.raises(RuntimeError) as raised:
        ours.evaluate(data=str(data_file), evaluators={"b": broken}, fail_on_evaluator_errors=True)
    assert isinstance(raised.value, EvaluationException) and raised.value.category == ErrorCategory.FAILED_EXECUTION
    assert "ValueError: no" in raised.value.args[0]


def test_kwargs_mappings_and_csv(tmp_path: pathlib.Path) -> None:
    def everything(**kwargs: Any) -> dict[str, Any]:
        return {"kwargs": kwargs}

    def named(query: str, *, bar: Any = None, **kwargs: Any) -> dict[str, Any]:
        return {"query": query, "bar": bar, "kwargs": kwargs}

    csv = tmp_path / "data.csv"
    csv.write_text('query,response,context\nQ1?,"A, one",c1\nQ2?,,c2\n', encoding="utf-8")
    mapping = {"default": {"column_mapping": {"query": "${data.query}", "bar": "${data.context}",
                                              "foo": "${data.response}"}}}  # fmt: skip
    theirs_module, _ = _azure()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = theirs_module.evaluate(data=str(csv), evaluators={"all": everything, "named": named},
                                        evaluator_config=mapping)  # fmt: skip
    mine = ours.evaluate(data=str(csv), evaluators={"all": everything, "named": named}, evaluator_config=mapping)
    for row, reference in zip(mine["rows"], theirs["rows"], strict=True):
        assert row["inputs.query"] == reference["inputs.query"]
        assert row["outputs.named.query"] == reference["outputs.named.query"]
        assert row["outputs.named.bar"] == reference["outputs.named.bar"]
        for key in ("outputs.all.kwargs", "outputs.named.kwargs"):
            # azure passes a missing CSV value as NaN, the drop-in as None: compare the rest
            present = {k: v for k, v in reference[key].items() if v == v}
            assert {k: v for k, v in row[key].items() if v is not None} == present, key


@contextlib.contextmanager
def _judge(tmp_path: pathlib.Path) -> Iterator[tuple[JudgeServer, JudgeClient]]:
    with JudgeServer(answer=marked_answer) as server:
        client = JudgeClient("judge-model", api_key=SECRET, base_url=server.url, cache=tmp_path / "cache.sqlite3",
                             limits=NO_LIMITS, retry=FAST_RETRY)  # fmt: skip
        try:
            yield server, client
        finally:
            client.close()


RUN = [
    {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "file_search",
                                       "arguments": {"q": "glasses"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": [
        {"file_name": "product_info_1.md", "content": [{"type": "text", "text": "SmartView Glasses, by Contoso."}]},
    ]}]},
    {"role": "assistant", "content": [{"type": "text", "text": "Contoso makes the SmartView Glasses. [score=5]"}]},
]  # fmt: skip


def test_groundedness_of_an_agent_response(tmp_path: pathlib.Path) -> None:
    with _judge(tmp_path) as (server, judge):
        groundedness = ours.GroundednessEvaluator(judge)
        result = groundedness(query="Which glasses?", response=RUN)
        assert result["groundedness"] == 5.0 and result["groundedness_result"] == "pass"
        text = prompt_text(server.requests[-1].body)
        assert "product_info_1.md:\nSmartView Glasses, by Contoso." in text
        assert "Contoso makes the SmartView Glasses." in text and "tool result" not in text
        pending = groundedness(query="Which glasses?", response=RUN[:1])
        assert pending["groundedness_result"] == "not_applicable" and pending["groundedness_status"] == "skipped"
        assert pending["groundedness_reason"].startswith("Not applicable: Intermediate response.")
        no_tool = groundedness(query="Which glasses?", response=RUN[2:])
        assert no_tool["groundedness"] is None and "No valid context provided" in no_tool["groundedness_reason"]
        # A text response with a query and no context grounds in itself, as azure's rule has it.
        assert groundedness(query="Q?", response="Paris. [score=4]")["groundedness"] == 4.0
        assert "Paris. [score=4]" in prompt_text(server.requests[-1].body)
        count = server.count
        batch = groundedness.rapideval_batch([{"query": "Q?", "response": RUN[:1]}, {"response": "r"}])
        assert batch[0]["groundedness_status"] == "skipped" and isinstance(batch[1], EvaluatorError)
        assert server.count == count


def test_quality_evaluators_read_agent_messages(tmp_path: pathlib.Path) -> None:
    with _judge(tmp_path) as (server, judge):
        fluency = ours.FluencyEvaluator(judge)(response=RUN)
        assert fluency["fluency"] == 5.0
        text = prompt_text(server.requests[-1].body)
        assert "Contoso makes the SmartView Glasses." in text and "file_search" in text
        relevance = ours.RelevanceEvaluator(judge)
        assert relevance(query=[{"role": "user", "content": "Which glasses?"}], response=RUN)["relevance"] == 5.0
        assert relevance(query="Which glasses?", response=RUN[:1])["relevance_result"] == "not_applicable"
