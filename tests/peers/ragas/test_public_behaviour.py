"""(Ours.) The public behaviour of rapideval.compat.ragas next to ragas 0.4.3's own, where the copied tests
cannot check it: the look-alike ``MetricResult``, the samples' and datasets' methods and validation errors,
and the error a dataset of mixed samples raises (whose text names each library's own classes)."""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import pydantic
import pytest
import ragas.dataset_schema as theirs
import ragas.messages as their_messages
from ragas.metrics import MetricResult as TheirResult

import rapideval.compat.ragas.dataset_schema as ours
import rapideval.compat.ragas.messages as our_messages
from rapideval.compat.ragas.metrics import MetricResult as OurResult
from rapideval.compat.ragas.metrics import collections as our_collections


def outcome(call: Any) -> Any:
    """The value of ``call()``, or the kind of exception it raised."""
    try:
        return call()
    except Exception as e:  # noqa: BLE001 - the kind is the outcome
        return type(e).__name__


VALUES: list[Any] = [0.5, 1, "pass", ["a", "b"], None]


@pytest.mark.parametrize("value", VALUES, ids=repr)
@pytest.mark.parametrize("reason", [None, "", "because"])
def test_metric_result_behaves_as_ragas_s(value: Any, reason: Any) -> None:
    mine, their = OurResult(value, reason), TheirResult(value, reason)
    assert repr(mine) == repr(their) and str(mine) == str(their)
    assert mine.value == their.value and mine.reason == their.reason and mine.traces == their.traces is None
    assert mine.to_dict() == their.to_dict() and mine.__json__() == their.__json__()
    checks = [
        lambda r: float(r),
        lambda r: int(r),
        lambda r: r + 1,
        lambda r: 1 + r,
        lambda r: r - 1,
        lambda r: 2 - r,
        lambda r: r * 2,
        lambda r: 2 * r,
        lambda r: r / 2,
        lambda r: 1 / r,
        lambda r: r == value,
        lambda r: r != value,
        lambda r: r < 1,
        lambda r: r >= 0,
        lambda r: len(r),
        lambda r: list(r),
        lambda r: r[0],
        lambda r: r.upper(),
        lambda r: r.real,
        lambda r: r.no_such_attribute,
        lambda r: bool(r),
    ]
    for check in checks:
        assert outcome(lambda: _plain(check(mine))) == outcome(lambda: _plain(check(their)))
    assert (mine == OurResult(value)) is (their == TheirResult(value))


def _plain(out: Any) -> Any:
    return ("result", out.value, out.reason) if isinstance(out, (OurResult, TheirResult)) else out


def test_metric_result_traces_and_pydantic_fields() -> None:
    assert OurResult(1.0, traces={"input": {"q": 1}}).traces == {"input": {"q": 1}}
    with pytest.raises(ValueError, match="'input' and 'output'"):
        OurResult(1.0, traces={"prompt": "x"})
    with pytest.raises(ValueError):
        TheirResult(1.0, traces={"prompt": "x"})

    class Row(pydantic.BaseModel):
        score: OurResult

    row = Row(score=0.25)
    assert isinstance(row.score, OurResult) and row.score == 0.25
    # model_dump() gives rapideval's fields (the result is a dataclass), where Ragas keeps the object.
    assert row.model_dump()["score"]["value"] == 0.25
    assert json.loads(row.model_dump_json()) == {"score": {"value": 0.25, "reason": None}}


def test_collections_results_are_metric_results_with_ragas_s_reason() -> None:
    metric = our_collections.BleuScore()
    result = asyncio.run(metric.ascore(reference="The cat sat on the mat.", response="The cat sat on a mat."))
    assert isinstance(result, OurResult) and result.reason is None and result.status == "ok"
    assert 0 < float(result) < 1
    batch = metric.batch_score([{"reference": "a b c d", "response": "a b c d"}, {"reference": "", "response": "x"}])
    assert [type(r) for r in batch] == [OurResult, OurResult]
    assert batch[0] == pytest.approx(1.0) and batch[1].status == "not_applicable" and batch[1].value is None
    assert batch[1].reason == "'reference' is empty"
    with pytest.raises(ValueError, match="modern InstructorLLM"):
        our_collections.Faithfulness(llm=None)  # type: ignore[arg-type]


SINGLE = [
    {"user_input": "Q", "response": "A"},
    {"retrieved_contexts": ["c1", "c2"], "retrieved_context_ids": ["d1", 2], "reference": "R"},
    {"user_input": "Q", "persona_name": "P", "query_style": "FORMAL", "query_length": "SHORT", "extra": 1},
    {"rubrics": {"score1_description": "bad"}, "multi_responses": ["a", "b"]},
]


@pytest.mark.parametrize("fields", SINGLE)
def test_single_turn_samples_are_ragas_s(fields: dict[str, Any]) -> None:
    mine, their = ours.SingleTurnSample(**fields), theirs.SingleTurnSample(**fields)
    assert mine.to_dict() == their.to_dict() and mine.get_features() == their.get_features()
    assert mine.to_string() == their.to_string() and mine.model_dump() == their.model_dump()
    data = [fields, fields]
    mine_ds, their_ds = ours.EvaluationDataset.from_list(data), theirs.EvaluationDataset.from_list(data)
    assert mine_ds.to_list() == their_ds.to_list() and repr(mine_ds) == repr(their_ds)
    assert mine_ds.features() == their_ds.features() and len(mine_ds[1:]) == len(their_ds[1:]) == 1
    assert mine_ds.to_pandas().equals(their_ds.to_pandas())


def conversation(messages: Any) -> list[Any]:
    return [
        {"content": "Hi"},
        messages.AIMessage(content="Let me check.", tool_calls=[messages.ToolCall(name="weather", args={"c": "P"})]),
        messages.ToolMessage(content="18 C"),
        {"type": "ai", "content": "It is 18 C."},
    ]


def test_multi_turn_samples_are_ragas_s(tmp_path: Any) -> None:
    mine = ours.MultiTurnSample(user_input=conversation(our_messages), reference="r", response="ignored")
    their = theirs.MultiTurnSample(user_input=conversation(their_messages), reference="r", response="ignored")
    assert mine.to_dict() == their.to_dict() and mine.to_messages() == their.to_messages()
    assert mine.pretty_repr() == their.pretty_repr()
    mine_ds, their_ds = ours.EvaluationDataset([mine]), theirs.EvaluationDataset([their])
    assert mine_ds.to_list() == their_ds.to_list() and mine_ds.is_multi_turn() and their_ds.is_multi_turn()
    mine_ds.to_jsonl(tmp_path / "mine.jsonl")
    their_ds.to_jsonl(tmp_path / "theirs.jsonl")
    assert (tmp_path / "mine.jsonl").read_text() == (tmp_path / "theirs.jsonl").read_text()
    assert ours.EvaluationDataset.from_jsonl(tmp_path / "theirs.jsonl") == mine_ds
    mine_ds.to_csv(tmp_path / "mine.csv")
    their_ds.to_csv(tmp_path / "theirs.csv")
    assert (tmp_path / "mine.csv").read_text() == (tmp_path / "theirs.csv").read_text()


INVALID: list[tuple[str, Any]] = [
    ("single", {"response": 3}),
    ("single", {"retrieved_contexts": "not a list"}),
    ("single", {"rubrics": ["a"]}),
    ("multi", {"user_input": ["just text"]}),
    ("multi", {"user_input": [{"type": "tool", "content": "no call before"}]}),
    ("multi", {"user_input": [{"type": "ai", "content": "no calls"}, {"type": "tool", "content": "t"}]}),
    ("multi", {"user_input": [{"type": "ai", "content": "c", "tool_calls": [{"name": "f", "args": {}}]},
                              {"type": "human", "content": "h"}, {"type": "tool", "content": "t"}]}),
    ("multi", {"user_input": "not a list"}),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "fields"), INVALID)
def test_invalid_samples_raise_validation_error_as_ragas_does(kind: str, fields: dict[str, Any]) -> None:
    name = "SingleTurnSample" if kind == "single" else "MultiTurnSample"
    with pytest.raises(pydantic.ValidationError):
        getattr(theirs, name)(**fields)
    with pytest.raises(pydantic.ValidationError):
        getattr(ours, name)(**fields)


def test_a_dataset_holds_one_kind_of_sample() -> None:
    single = ours.SingleTurnSample(user_input="What is X", response="Y")
    multi = ours.MultiTurnSample(user_input=[{"content": "What is X"}])
    with pytest.raises(ValueError) as info:
        ours.EvaluationDataset(samples=[single, multi])
    assert isinstance(info.value, TypeError)  # also a TypeError, as rapideval raised before
    their_single = theirs.SingleTurnSample(user_input="What is X", response="Y")
    their_multi = theirs.MultiTurnSample(user_input=[{"content": "What is X"}])
    with pytest.raises(ValueError) as their_info:
        theirs.EvaluationDataset(samples=[their_single, their_multi])
    # The same words, each naming its own library's classes.
    assert str(info.value).startswith(str(their_info.value).replace("ragas.", "rapideval.compat.ragas."))
    with pytest.raises(IndexError):
        ours.EvaluationDataset([]).get_sample_type()
    assert math.isclose(len(ours.EvaluationDataset([single] * 3)[::2]), 2)
