"""Real endpoints: the circuit breaker (dead, hung and recovering endpoints), the endpoint's identity in cache
keys, results and prices, errors told apart by kind (llama.cpp's schema errors, n above its slots), and usage
that the endpoint reports wrongly."""

from __future__ import annotations

import json
import logging
import threading
import time

import pytest
from judge_helpers import Rating, Verdict
from judge_server import Reply
from rapideval.llm import CircuitBreaker, JudgeFailure, JudgeRequest, JudgeResult, Limits, RetryPolicy, Sampling

ASK = [{"role": "user", "content": "judge it"}]


def _rows(n: int, schema=Rating) -> list[JudgeRequest]:
    return [JudgeRequest(i, "m", [{"role": "user", "content": f"row {i} " + "w " * (i % 7)}], schema) for i in range(n)]


# Circuit breaker ----------------------------------------------------------------------------------------


def test_ten_thousand_rows_against_a_dead_port_end_in_seconds(serve, client_for) -> None:
    server = serve()
    server.__exit__(None, None, None)
    # The default retry policy (6 attempts, back-off up to 30 s) would take minutes per row without the breaker.
    with client_for(server, cache=None, retry=RetryPolicy(), limits=Limits(rpm=None, tpm=None)) as judge:
        started = time.monotonic()
        run = judge.run(_rows(10_000))
        elapsed = time.monotonic() - started
    assert elapsed < 10.0, elapsed
    assert len(run) == 10_000 and all(isinstance(r, JudgeFailure) for r in run)
    causes = {r.cause for r in run}
    assert causes <= {"connection", "endpoint_down"} and "endpoint_down" in causes
    down = [r for r in run if r.cause == "endpoint_down"]
    assert len(down) > 9_900
    assert all("in a row" in r.message and "refused" in r.message.lower() for r in down)
    assert run.usage.calls < 100  # only the calls before the breaker opened reached the network


def test_a_hung_endpoint_ends_the_run_after_one_timeout(serve, client_for) -> None:
    server = serve(script=lambda rec: Reply(delay=3.0))
    limits = Limits(rpm=None, tpm=None, concurrency=8, timeout=0.5)
    with client_for(server, cache=None, retry=RetryPolicy(max_attempts=6, base_delay=0.1), limits=limits) as judge:
        started = time.monotonic()
        run = judge.run(_rows(200))
        elapsed = time.monotonic() - started
    # 8 calls time out together after 0.5 s; the breaker (5 in a row) then fails every other row at once.
    assert elapsed < 2 * (0.5 + 0.1 * 2**5), elapsed
    assert all(isinstance(r, JudgeFailure) and r.cause in ("timeout", "endpoint_down") for r in run)
    assert sum(r.cause == "endpoint_down" for r in run) >= 190
    assert server.count <= 16


def test_the_breaker_counts_only_consecutive_failures(serve, client_for) -> None:
    # Every other call times out: never five in a row, so the breaker stays closed and retries do their job.
    server = serve(script=lambda rec: Reply(delay=1.0) if rec.index % 2 == 0 else None)
    limits = Limits(rpm=None, tpm=None, concurrency=1, timeout=0.3)
    with client_for(server, cache=None, limits=limits) as judge:
        run = judge.run(_rows(6))
    assert all(isinstance(r, JudgeResult) for r in run) and not judge.health.is_open


def test_an_open_breaker_probes_on_the_next_run_and_closes(serve, client_for) -> None:
    down = threading.Event()
    down.set()
    server = serve(script=lambda rec: Reply(status=200, delay=0.6) if down.is_set() else None)
    limits = Limits(rpm=None, tpm=None, concurrency=4, timeout=0.2)
    breaker = CircuitBreaker(failures=3, probe_after=60.0)
    with client_for(server, cache=None, limits=limits, breaker=breaker) as judge:
        first = judge.run(_rows(20))
        assert judge.health.is_open and {r.cause for r in first} <= {"timeout", "endpoint_down"}
        # Within probe_after a single call fails at once...
        started = time.monotonic()
        assert judge.judge(ASK).cause == "endpoint_down" and time.monotonic() - started < 0.1
        down.clear()
        # ...but a new run probes straight away, and the answer closes the breaker.
        second = judge.run(_rows(20))
    assert all(isinstance(r, JudgeResult) for r in second) and not judge.health.is_open


def test_wait_policy_rides_out_an_outage(serve, client_for) -> None:
    down = threading.Event()
    down.set()
    server = serve(script=lambda rec: Reply(delay=0.5) if down.is_set() else None)
    threading.Timer(1.0, down.clear).start()
    limits = Limits(rpm=None, tpm=None, concurrency=4, timeout=0.2)
    breaker = CircuitBreaker(failures=3, on_open="wait", probe_after=0.3, max_wait=20.0)
    retry = RetryPolicy(max_attempts=20, base_delay=0.01, max_delay=0.05)
    with client_for(server, cache=None, limits=limits, breaker=breaker, retry=retry) as judge:
        run = judge.run(_rows(12))
    assert all(isinstance(r, JudgeResult) for r in run), [getattr(r, "message", "") for r in run.failures]


def test_embeddings_go_through_the_breaker(serve, client_for) -> None:
    from rapideval.llm import JudgeError

    server = serve()
    server.__exit__(None, None, None)
    with client_for(server, cache=None, retry=RetryPolicy(), breaker=CircuitBreaker(failures=2)) as judge:
        started = time.monotonic()
        with pytest.raises(JudgeError) as info:
            judge.embed([f"text {i}" for i in range(50)], batch_size=1)
    assert time.monotonic() - started < 5.0
    assert info.value.cause in ("connection", "endpoint_down")


# Identity -----------------------------------------------------------------------------------------------


def test_same_model_on_two_endpoints_never_shares_a_cache_entry(serve, client_for, tmp_path) -> None:
    a = serve(answer=lambda body, i: '{"score": 1}')
    b = serve(answer=lambda body, i: '{"score": 5}')
    cache = tmp_path / "shared.sqlite3"
    with client_for(a, cache=cache, model="gpt-4o-mini") as judge_a:
        ra = judge_a.judge(ASK, schema=Rating, field="score")
    with client_for(b, cache=cache, model="gpt-4o-mini") as judge_b:
        rb = judge_b.judge(ASK, schema=Rating, field="score")
        rb_again = judge_b.judge(ASK, schema=Rating, field="score")
    assert (ra.value, rb.value, rb_again.value) == (1, 5, 5)
    assert not rb.cached and rb_again.cached and (a.count, b.count) == (1, 1)
    assert ra.endpoint == a.url and rb.endpoint == b.url and ra.endpoint != rb.endpoint
    assert judge_a.endpoint == a.url


def test_endpoint_identity_has_no_credentials() -> None:
    from rapideval.llm.transport import endpoint_of

    assert endpoint_of("https://user:sk-secret@example.com:8443/v1/?api-version=1#x") == "https://example.com:8443/v1"
    assert endpoint_of("http://127.0.0.1:8080/v1/") == "http://127.0.0.1:8080/v1"


def test_cost_is_priced_by_the_model_the_endpoint_reports(serve, client_for, caplog) -> None:
    # A local server answers for "gpt-4o-mini" but reports what it really runs.
    local = serve(model="SmolLM2-135M-Instruct")
    with client_for(local, model="gpt-4o-mini") as judge, caplog.at_level(logging.WARNING, "rapideval.llm"):
        result = judge.judge(ASK, schema=Rating, field="score")
        judge.judge([{"role": "user", "content": "again"}], schema=Rating, field="score")
    assert isinstance(result, JudgeResult) and result.model == "SmolLM2-135M-Instruct"
    assert result.usage.cost_usd is None  # not gpt-4o-mini's price
    assert caplog.text.count("has no price") == 1
    snapshot = serve(model="gpt-4o-2024-08-06")
    with client_for(snapshot, model="gpt-4o-mini") as judge:
        result = judge.judge(ASK, schema=Rating, field="score")
    u = result.usage
    assert result.model == "gpt-4o-2024-08-06"
    assert u.cost_usd == pytest.approx((u.prompt_tokens * 2.5 + u.completion_tokens * 10.0) / 1e6)
    cached = client_for(snapshot, model="gpt-4o-mini", cache=judge.cache.path).judge(ASK, schema=Rating, field="score")
    assert cached.cached and cached.model == "gpt-4o-2024-08-06"


# Errors by kind -----------------------------------------------------------------------------------------

LLAMA_SCHEMA_ERRORS = [
    "Unable to generate parser for this template. Automatic parser generation failed: JSON schema error at "
    "#/properties/score: unrecognized type integr",
    'failed to parse grammar: parse: error parsing grammar: expecting name at "::="',
]


@pytest.mark.parametrize("error", LLAMA_SCHEMA_ERRORS, ids=["schema", "grammar"])
def test_llama_cpp_schema_errors_fall_back_once_per_model(serve, client_for, error) -> None:
    def script(rec):
        if (rec.body.get("response_format") or {}).get("type") == "json_schema":
            return Reply(status=400, error=error)
        return None

    server = serve(script=script)
    with client_for(server) as judge:
        run = judge.run(_rows(50))  # 16 at once
        again = judge.run(_rows(60)[50:])
    assert all(isinstance(r, JudgeResult) for r in [*run, *again])
    formats = [(r.body.get("response_format") or {}).get("type") for r in server.requests]
    assert formats.count("json_schema") == 1 and formats.count("json_object") == 60


def test_n_above_the_slots_falls_back_to_single_votes(serve, client_for) -> None:
    def script(rec):
        if (rec.body.get("n") or 1) > 2:
            return Reply(status=400, error="Field 'n': Value must be between 1 <= value <= 2, but got 5")
        return None

    server = serve(script=script, answer=lambda body, i: json.dumps({"reason": "r", "passed": True}))
    hot = Sampling(temperature=0.8)
    with client_for(server) as judge:
        first = judge.judge(ASK, schema=Verdict, field="passed", votes=5, sampling=hot)
        second = judge.judge(ASK + ASK, schema=Verdict, field="passed", votes=5, sampling=hot)
    assert isinstance(first, JudgeResult) and len(first.verdicts) == 5 and first.value is True
    assert isinstance(second, JudgeResult) and len(second.verdicts) == 5
    ns = [r.body.get("n") for r in server.requests]
    assert ns == [5, None, None, None, None, None] + [None] * 5


def test_llama_cpp_usage_of_one_choice_is_corrected_and_marked(serve, client_for) -> None:
    contents = ['{"score": 2}', '{"score": 4, "note": "longer reply"}', '{"score": 3}']
    server = serve(one_choice_usage=True, script=lambda rec: Reply(contents=contents))
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Rating, field="score", votes=3, sampling=Sampling(temperature=0.7))
    reported = max(1, len(contents[0]) // 4)
    expected = reported + sum(round(reported * len(c) / len(contents[0])) for c in contents[1:])
    assert result.usage.completion_tokens == expected and result.usage.estimated
    plain = serve(script=lambda rec: Reply(contents=contents))
    with client_for(plain) as judge:
        result = judge.judge(ASK, schema=Rating, field="score", votes=3, sampling=Sampling(temperature=0.7))
    assert result.usage.completion_tokens == sum(max(1, len(c) // 4) for c in contents)
    assert not result.usage.estimated


def test_missing_usage_is_estimated_and_marked(serve, client_for) -> None:
    body = json.dumps({"choices": [{"index": 0, "message": {"content": '{"score": 3}'}, "finish_reason": "stop"}]})
    server = serve(script=lambda rec: Reply(raw_body=body.encode()))
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Rating, field="score")
    assert result.value == 3 and result.usage.estimated and result.usage.completion_tokens > 0


# Smaller items ------------------------------------------------------------------------------------------


def test_votes_at_temperature_zero_warn_once(serve, client_for, caplog) -> None:
    server = serve(answer=lambda body, i: json.dumps({"reason": "r", "passed": True}))
    with client_for(server) as judge, caplog.at_level(logging.WARNING, "rapideval.llm"):
        judge.judge(ASK, schema=Verdict, field="passed", votes=3)
        judge.judge(ASK + ASK, schema=Verdict, field="passed", votes=3)
        judge.judge(ASK, schema=Verdict, field="passed", votes=3, sampling=Sampling(temperature=0.7))
    assert caplog.text.count("temperature 0") == 1


def test_a_truncated_repair_says_so(serve, client_for) -> None:
    def script(rec):
        if rec.index == 0:
            return Reply(contents=['{"score": 9}'])
        return Reply(contents=['{"score": {"inner": 1}, "pad": "'], finish_reason="length")

    server = serve(script=script)
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Rating, field="score")
    assert isinstance(result, JudgeFailure) and result.cause == "truncated"
    assert "cut off" in result.message and "less than or equal to 5" in result.message
    assert "too" not in result.message and "inner" not in result.message


def test_fully_cached_embeddings_count_cache_hits(serve, client_for) -> None:
    server = serve()
    with client_for(server) as judge:
        judge.embed(["a", "b", "c"])
        before = judge.usage
        judge.embed(["a", "b", "c"])
    assert judge.usage.cache_hits - before.cache_hits == 3 and judge.usage.calls == before.calls


def test_cli_judge_check_against_an_endpoint(serve, monkeypatch, capsys) -> None:
    from rapideval import cli

    server = serve(model="gpt-4o-mini-2024-07-18", answer=lambda body, i: '{"score": 4}')
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert cli.main(["judge", "--base-url", server.url, "--model", "gpt-4o-mini"]) == 0
    out = capsys.readouterr().out
    assert "model      gpt-4o-mini-2024-07-18 (asked for gpt-4o-mini)" in out
    assert "votes      one request; verdicts [4, 4]" in out and "embeddings 8 dimensions" in out
    assert cli.main(["judge", "--judge", "somewhere"]) == 2
    assert "--judge must be" in capsys.readouterr().err
