"""Structured output: strict schema, format fallback (remembered), tolerant extraction, one repair re-ask,
a larger max_tokens on truncation, and out-of-range values as errors."""

from __future__ import annotations

import json

import pytest
from judge_helpers import Rating, Verdict
from judge_server import Reply, prompt_text
from pydantic import BaseModel
from rapideval.llm import JudgeFailure, JudgeResult
from rapideval.llm.structured import OutputError, extract_json, parse_output, strict_schema

ASK = [{"role": "user", "content": "rate this answer"}]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"score": 3}', {"score": 3}),
        ('  \n{"score": 3}\n', {"score": 3}),
        ('Sure! ```json\n{"score": 4}\n``` Hope this helps.', {"score": 4}),
        ('```\n{"score": 2}\n```', {"score": 2}),
        (
            'The verdict is {"reason": "a } in {text}", "passed": true} and more {',
            {"reason": "a } in {text}", "passed": True},
        ),
        ('{broken {"score": 5}', {"score": 5}),
        ('```json\n{oops}\n``` then {"score": 1}', {"score": 1}),
    ],
)
def test_extract_json_finds_the_first_object(text: str, expected: dict) -> None:
    assert extract_json(text) == expected


@pytest.mark.parametrize("text", ["no json here", "{unclosed", "", "```json\n{]\n```"])
def test_extract_json_without_an_object_raises(text: str) -> None:
    with pytest.raises(OutputError):
        extract_json(text)


def test_parse_output_enforces_ranges_and_types() -> None:
    assert parse_output('{"score": 5}', Rating) == Rating(score=5)
    for bad in ('{"score": 9}', '{"score": 0}', '{"score": "high"}', "{}", "[1]", None):
        with pytest.raises(OutputError):
            parse_output(bad, Rating)


def test_strict_schema_closes_every_object() -> None:
    class Claim(BaseModel):
        text: str
        supported: bool = False

    class Claims(BaseModel):
        claims: list[Claim]
        note: str | None = None

    schema = strict_schema(Claims)
    assert schema["additionalProperties"] is False and schema["required"] == ["claims", "note"]
    claim = schema["$defs"]["Claim"]
    assert claim["additionalProperties"] is False and claim["required"] == ["text", "supported"]
    assert "default" not in json.dumps(schema)
    # The cached schema is not the pydantic one mutated.
    assert "additionalProperties" not in Claims.model_json_schema()


def test_json_schema_response_format_reaches_the_server(serve, client_for) -> None:
    server = serve()
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Rating, field="score")
    assert isinstance(result, JudgeResult) and result.value == 1 + len(["rate", "this", "answer"]) % 5
    fmt = server.requests[0].body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"]["properties"]["score"] == {
        "maximum": 5,
        "minimum": 1,
        "title": "Score",
        "type": "integer",
    }


def test_fallback_to_json_object_then_text_is_remembered(serve, client_for) -> None:
    # The endpoint rejects both structured modes; its replies wrap the JSON in prose and fences.
    server = serve(
        reject_formats=("json_schema", "json_object"),
        answer=lambda body, i: f'Here you go:\n```json\n{{"score": {len(prompt_text(body))}}}\n```',
    )
    with client_for(server) as judge:
        prompts = [[{"role": "user", "content": "x" * n}] for n in (1, 2, 3)]
        results = [judge.judge(p, schema=Rating, field="score") for p in prompts]
    assert [r.value for r in results] == [1, 2, 3]
    formats = [(r.body.get("response_format") or {}).get("type") for r in server.requests]
    # One rejection per mode, then text mode straight away for every later call.
    assert formats == ["json_schema", "json_object", None, None, None]
    text_mode = server.requests[2].body["messages"]
    assert text_mode[-1]["role"] == "system" and '"score"' in text_mode[-1]["content"]


def test_fallback_stops_at_json_object_when_it_works(serve, client_for) -> None:
    server = serve(reject_formats=("json_schema",))
    with client_for(server) as judge:
        judge.judge(ASK, schema=Rating)
        judge.judge(ASK + [{"role": "user", "content": "again"}], schema=Rating)
    formats = [(r.body.get("response_format") or {}).get("type") for r in server.requests]
    assert formats == ["json_schema", "json_object", "json_object"]


def test_one_repair_re_ask_with_the_validation_error(serve, client_for) -> None:
    def script(rec):
        return Reply(contents=['{"score": 3'] if rec.index == 0 else ['{"score": 2}'])

    server = serve(script=script)
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Rating, field="score")
    assert isinstance(result, JudgeResult) and result.value == 2 and result.usage.calls == 2
    repair = server.requests[1].body["messages"]
    assert repair[-2] == {"role": "assistant", "content": '{"score": 3'}
    assert "no JSON object" in repair[-1]["content"]


def test_out_of_range_is_an_error_not_a_pass(serve, client_for) -> None:
    server = serve(script=lambda rec: Reply(contents=['{"score": 9}']))
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Rating, field="score")
    assert isinstance(result, JudgeFailure) and result.cause == "invalid_output"
    assert result.attempts == 2 and server.count == 2  # the re-ask is bounded to one
    assert "less than or equal to 5" in server.requests[1].body["messages"][-1]["content"]
    assert not hasattr(result, "value")


def test_repaired_out_of_range_value(serve, client_for) -> None:
    server = serve(script=lambda rec: Reply(contents=['{"score": 0}' if rec.index == 0 else '{"score": 1}']))
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Rating, field="score")
    assert isinstance(result, JudgeResult) and result.value == 1


def test_truncated_output_is_retried_once_with_twice_the_max_tokens(serve, client_for) -> None:
    def script(rec):
        if rec.index == 0:
            return Reply(contents=['{"reason": "the answer is'], finish_reason="length")
        return Reply(contents=['{"reason": "complete", "passed": true}'])

    server = serve(script=script)
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Verdict, field="passed")
    assert isinstance(result, JudgeResult) and result.value is True
    assert [r.body["max_tokens"] for r in server.requests] == [1024, 2048]


def test_truncated_twice_is_a_typed_failure(serve, client_for) -> None:
    server = serve(script=lambda rec: Reply(contents=['{"reason": "'], finish_reason="length"))
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Verdict)
    assert isinstance(result, JudgeFailure) and result.cause == "truncated" and result.attempts == 2


def test_content_filter_is_a_typed_failure(serve, client_for) -> None:
    server = serve(script=lambda rec: Reply(contents=[""], finish_reason="content_filter"))
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Rating)
    assert isinstance(result, JudgeFailure) and result.cause == "content_filter" and server.count == 1


def test_plain_text_replies_without_a_schema(serve, client_for) -> None:
    server = serve(answer=lambda body, i: prompt_text(body).upper())
    with client_for(server) as judge:
        result = judge.judge([{"role": "user", "content": "hello"}])
    assert isinstance(result, JudgeResult) and result.value == "HELLO" and result.verdicts == ("HELLO",)
    assert "response_format" not in server.requests[0].body
