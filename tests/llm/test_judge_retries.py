"""Retries: transient errors only, with backoff; everything else fails the row at once; a final failure is
a typed record and the run goes on."""

from __future__ import annotations

import time

import pytest
from judge_helpers import Rating
from judge_server import Reply, prompt_text
from pydantic import BaseModel, field_validator
from rapideval.llm import JudgeFailure, JudgeRequest, JudgeResult, Limits, RetryPolicy

ASK = [{"role": "user", "content": "one two three"}]


@pytest.mark.parametrize(
    "reply",
    [
        Reply(status=500),
        Reply(status=502),
        Reply(status=503),
        Reply(status=429),  # no Retry-After: backoff of this task only
        Reply(status=408),
        Reply(delay=2.5),  # hangs past the 1 s timeout (a healthy reply on a busy CI machine takes < 0.3 s)
    ],
    ids=["500", "502", "503", "429", "408", "hang"],
)
def test_transient_errors_are_retried(serve, client_for, reply) -> None:
    server = serve(script=lambda rec: reply if rec.index < 2 else None)
    with client_for(server, limits=Limits(rpm=None, tpm=None, timeout=1.0)) as judge:
        result = judge.judge(ASK, schema=Rating, field="score")
    assert isinstance(result, JudgeResult) and result.value == 4
    assert result.usage.calls == 3 and result.usage.retries == 2 and server.count == 3


@pytest.mark.parametrize(
    ("status", "cause"),
    [(400, "bad_request"), (401, "auth"), (403, "auth"), (404, "bad_request"), (422, "bad_request")],
)
def test_other_errors_fail_the_row_at_once(serve, client_for, status, cause) -> None:
    server = serve(script=lambda rec: Reply(status=status) if rec.index > 0 else None)
    with client_for(server) as judge:
        judge.judge([{"role": "user", "content": "first"}], schema=Rating)  # the model's format is known
        result = judge.judge(ASK, schema=Rating)
    assert isinstance(result, JudgeFailure) and result.cause == cause and result.attempts == 1
    assert server.count == 2 and str(status) in result.message


@pytest.mark.parametrize("status", [501, 505])
def test_permanent_server_errors_are_not_retried(serve, client_for, status) -> None:
    server = serve(script=lambda rec: Reply(status=status, error="Not Implemented"))
    with client_for(server) as judge:
        run = judge.run([JudgeRequest(i, "m", [{"role": "user", "content": f"row {i}"}]) for i in range(3)])
    assert all(isinstance(r, JudgeFailure) and r.cause == "server_error" and r.attempts == 1 for r in run)
    assert server.count == 3 and all(str(status) in r.message for r in run.failures)


def test_malformed_response_body_is_a_typed_failure(serve, client_for) -> None:
    server = serve(script=lambda rec: Reply(raw_body=b'{"choices": [{"message": '))
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Rating)
    assert isinstance(result, JudgeFailure) and result.cause == "invalid_response" and result.attempts == 1


def test_exhausted_retries_end_as_a_failure_and_the_run_goes_on(serve, client_for) -> None:
    server = serve(script=lambda rec: Reply(status=503) if "bad" in prompt_text(rec.body) else None)
    retry = RetryPolicy(max_attempts=5, base_delay=0.01, max_delay=0.02)
    with client_for(server, retry=retry) as judge:
        started = time.monotonic()
        run = judge.run(
            [
                JudgeRequest("a", "m", ASK, Rating, "score"),
                JudgeRequest("b", "m", [{"role": "user", "content": "bad"}], Rating, "score"),
                JudgeRequest("c", "m", [{"role": "user", "content": "x y"}], Rating, "score"),
            ]
        )
        elapsed = time.monotonic() - started
    a, b, c = run.results
    assert (a.value, c.value) == (4, 3)
    assert isinstance(b, JudgeFailure) and (b.row, b.metric, b.cause, b.attempts) == ("b", "m", "server_error", 5)
    assert b.usage.retries == 4 and b.usage.calls == 5
    assert run.failures == [b] and run.stopped is None
    # Full jitter under max_delay=0.02 waits at most 4 x 0.02 s; the bound leaves room for a busy machine's
    # replies, and the default back-off (up to 0.5, 1, 2, 4 s) usually exceeds it if the policy were ignored.
    assert elapsed < 5.0


def test_timeouts_exhausted(serve, client_for) -> None:
    server = serve(script=lambda rec: Reply(delay=0.6))
    retry = RetryPolicy(max_attempts=2, base_delay=0.001, max_delay=0.002)
    with client_for(server, retry=retry, limits=Limits(rpm=None, tpm=None, timeout=0.2)) as judge:
        result = judge.judge(ASK)
    assert isinstance(result, JudgeFailure) and result.cause == "timeout" and result.attempts == 2


def test_connection_refused(client_for, serve) -> None:
    server = serve()
    server.__exit__(None, None, None)  # nothing listens on its port any more
    retry = RetryPolicy(max_attempts=2, base_delay=0.001, max_delay=0.002)
    with client_for(server, retry=retry) as judge:
        result = judge.judge(ASK)
    assert isinstance(result, JudgeFailure) and result.cause == "connection" and result.attempts == 2
    # openai says only "Connection error."; the reason underneath is kept.
    assert "Connection error." in result.message and "refused" in result.message.lower()


def test_a_bug_in_a_validator_is_a_typed_failure_and_the_run_goes_on(serve, client_for, caplog) -> None:
    class Fragile(BaseModel):
        score: int

        @field_validator("score")
        @classmethod
        def explode(cls, v: int) -> int:
            if v == 3:
                raise RuntimeError("validator bug")  # not a ValueError: pydantic lets it through
            return v

    server = serve()
    with client_for(server) as judge:
        run = judge.run(
            [JudgeRequest(i, "m", [{"role": "user", "content": "w " * i}], Fragile, "score") for i in (1, 2)]
        )
    ok, bug = run.results
    assert isinstance(ok, JudgeResult) and ok.value == 2
    assert isinstance(bug, JudgeFailure) and bug.cause == "error" and "RuntimeError: validator bug" in bug.message
    assert "failed unexpectedly" in caplog.text
