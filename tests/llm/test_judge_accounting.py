"""Accounting per metric and per row, cost from the price table, the dry run, and the budget cap."""

from __future__ import annotations

from typing import Literal

import pytest
from judge_helpers import Rating
from judge_server import Reply, prompt_text, schema_answer
from pydantic import BaseModel, Field
from rapideval.llm import Budget, JudgeFailure, JudgeRequest, JudgeResult, Limits, Sampling
from rapideval.llm.pricing import PRICES, cost_usd, price_of


def _req(row: int, metric: str, text: str, **kw) -> JudgeRequest:
    return JudgeRequest(row, metric, [{"role": "user", "content": text}], Rating, "score", **kw)


def _server_tokens(text: str, reply: str) -> tuple[int, int]:
    return max(1, len(text) // 4), max(1, len(reply) // 4)  # the server's usage rule


def test_usage_per_metric_and_per_row_with_cost(serve, client_for) -> None:
    seen = []

    def script(rec):
        if prompt_text(rec.body) == "b" * 40:
            seen.append(rec)
            return Reply(status=503) if len(seen) <= 2 else None
        return None

    server = serve(script=script)
    prices = {"judge-model": (1.0, 2.0)}
    texts = {(0, "relevance"): "a" * 20, (0, "coherence"): "b" * 40, (1, "relevance"): "c" * 80}
    with client_for(server, prices=prices) as judge:
        run = judge.run([_req(row, metric, text) for (row, metric), text in texts.items()])
    assert all(r.ok for r in run)
    expected = {}
    for (row, metric), text in texts.items():
        reply = '{"score": %d}' % (1 + len(text.split()) % 5)
        expected[(row, metric)] = _server_tokens(text, reply)
    by_metric = run.by_metric()
    rel = by_metric["relevance"]
    assert (rel.calls, rel.prompt_tokens, rel.completion_tokens) == (2, 5 + 20, 3 + 3)
    assert rel.cost_usd == pytest.approx((25 * 1.0 + 6 * 2.0) / 1e6, rel=1e-12)
    coh = by_metric["coherence"]
    assert (coh.calls, coh.retries, coh.prompt_tokens) == (3, 2, 10)
    by_row = run.by_row()
    assert by_row[0].calls == 4 and by_row[1].calls == 1
    assert run.usage.calls == 5 and run.usage.latency_s > 0
    assert judge.usage.calls == 5


def test_price_table() -> None:
    assert price_of("gpt-4o-mini-2024-07-18", PRICES) == PRICES["gpt-4o-mini"]
    assert price_of("gpt-4o-2024-08-06", PRICES) == PRICES["gpt-4o"]
    assert price_of("my-local-llama", PRICES) is None
    assert cost_usd("my-local-llama", 10, 10, PRICES) is None  # unknown is not free
    assert cost_usd("gpt-4o-mini", 1_000_000, 1_000_000, PRICES) == pytest.approx(0.75)


def test_unknown_price_is_none_not_zero(serve, client_for) -> None:
    with client_for(serve(), model="mystery") as judge:
        result = judge.judge([{"role": "user", "content": "x"}])
    assert result.usage.calls == 1 and result.usage.cost_usd is None


def test_dry_run_renders_and_estimates_without_calling(serve, client_for) -> None:
    server = serve()
    reqs = [_req(i, "relevance", f"q{i} " + "q " * 9) for i in range(4)] + [
        _req(i, "faithfulness", "x" * 400, votes=3, sampling=Sampling(temperature=0.7, max_tokens=100))
        for i in range(2)
    ]
    with client_for(server, model="gpt-4o-mini") as judge:
        judge.judge(reqs[0].messages, schema=Rating, field="score")  # now cached
        assert server.count == 1
        dry = judge.dry_run(reqs)
    assert server.count == 1
    assert [p[:2] for p in dry.prompts] == [(r.row, r.metric) for r in reqs]
    assert dry.prompts[0][2] == reqs[0].messages
    rel, fai = dry.by_metric["relevance"], dry.by_metric["faithfulness"]
    assert (rel.requests, rel.calls, rel.cached) == (4, 3, 1)
    # A Rating reply, {"score": n}, is expected at 8 tokens (2 for the object, 3 for the key, 3 for a number),
    # not at the max_tokens bound.
    assert rel.prompt_tokens == 3 * (21 // 4 + 4) and rel.completion_tokens == 3 * 8
    assert (fai.requests, fai.calls, fai.prompt_tokens, fai.completion_tokens) == (2, 2, 2 * 104, 2 * 3 * 8)
    assert fai.cost_usd == pytest.approx((208 * 0.15 + 48 * 0.60) / 1e6)
    assert dry.total.calls == 5


def test_budget_stops_cleanly_and_says_where(serve, client_for) -> None:
    server = serve()
    reqs = [_req(i, "m", f"row {i}") for i in range(20)]
    with client_for(server, limits=Limits(rpm=None, tpm=None, concurrency=1)) as judge:
        run = judge.run(reqs, budget=Budget(max_calls=5))
    assert server.count == 5
    assert [r.ok for r in run] == [True] * 5 + [False] * 15
    assert all(r.cause == "budget" and r.attempts == 0 for r in run.failures)
    assert run.stopped is not None and "max_calls=5" in run.stopped and "row 5" in run.stopped
    assert "15 request(s) not judged" in run.stopped


class _Padded(BaseModel):
    score: int
    pad: str  # no bound: the request's max_tokens is Sampling's default, 1,024


def test_cost_budget_with_cached_rows_still_served(serve, client_for) -> None:
    # Replies of 1,000 completion tokens; prompts of 50 (server) or 54 (our estimate) tokens.
    server = serve(answer=lambda body, i: '{"score": 3, "pad": "%s"}' % ("x" * 3975))
    reqs = [JudgeRequest(i, "m", [{"role": "user", "content": f"{i} " + "w " * 100}], _Padded) for i in range(10)]
    with client_for(server, model="gpt-4o", limits=Limits(rpm=None, tpm=None, concurrency=1)) as judge:
        judge.run(reqs[:2])
        # A call reserves (54 x $2.50 + 1,024 x $10) / 1e6 = $0.01037 and costs $0.010125: after 2 calls
        # ($0.02025) a third is sent with the 461 completion tokens left, is cut there (finish_reason
        # "length"), and its retry with more does not fit: the run stops; the 2 cached rows cost nothing.
        run = judge.run(reqs, budget=Budget(max_cost_usd=0.025))
    assert [r.ok for r in run] == [True] * 4 + [False] * 6
    assert [r.cached for r in run[:4]] == [True, True, False, False]
    assert server.count == 5 and "max_cost_usd=0.025" in (run.stopped or "")
    assert server.chat_bodies()[-1]["max_tokens"] < 1024 and run.usage.cost_usd <= 0.025


def test_cost_budget_needs_prices(serve, client_for) -> None:
    with client_for(serve(), model="mystery") as judge, pytest.raises(ValueError, match="mystery"):
        judge.run([_req(0, "m", "x")], budget=Budget(max_cost_usd=1.0))


def test_token_budget(serve, client_for) -> None:
    server = serve()
    reqs = [_req(i, "m", f"row {i}", sampling=Sampling(max_tokens=100)) for i in range(10)]
    with client_for(server, limits=Limits(rpm=None, tpm=None, concurrency=1)) as judge:
        run = judge.run(reqs, budget=Budget(max_tokens=350))
    # Each call reserves 105 tokens and settles at ~5: the budget admits calls while real use stays low.
    assert all(isinstance(r, JudgeResult) for r in run) and run.stopped is None
    # A call that reserves more than the whole budget (405 of 350) is sent with the max_tokens that fit.
    with client_for(server, limits=Limits(rpm=None, tpm=None, concurrency=1)) as judge:
        run = judge.run(
            [_req(i, "m", f"other {i}", sampling=Sampling(max_tokens=400)) for i in range(3)],
            budget=Budget(max_tokens=350),
        )
    assert all(isinstance(r, JudgeResult) for r in run) and run.usage.total_tokens <= 350
    assert all(b["max_tokens"] < 350 for b in server.chat_bodies()[-3:])
    # One whose reply's expected length does not fit is not sent.
    with client_for(server, limits=Limits(rpm=None, tpm=None, concurrency=1)) as judge:
        run = judge.run([_req(0, "m", "x" * 2000)], budget=Budget(max_tokens=350))
    assert all(isinstance(r, JudgeFailure) and r.cause == "budget" for r in run)


@pytest.mark.parametrize("concurrency", [1, 4, 32])
@pytest.mark.parametrize("limit", ["cost", "tokens"])
def test_budget_spends_up_to_the_cap_at_any_concurrency_and_never_past_it(serve, client_for, concurrency, limit):
    # Each call costs 1/150 of the cap and holds about 7 times that while in flight (its worst case: a token
    # per prompt byte, max_tokens): the calls in flight must not end the run early.
    server = serve(latency=0.01)
    reqs = [_req(i, "m", f"row {i} " + "word " * 60, sampling=Sampling(max_tokens=20)) for i in range(400)]
    probe = client_for(server, model="gpt-4o-mini", cache=None).judge(reqs[0].messages, schema=Rating, field="score")
    per_call = probe.usage.cost_usd if limit == "cost" else probe.usage.total_tokens
    assert per_call
    cap = 150 * per_call
    budget = Budget(max_cost_usd=cap) if limit == "cost" else Budget(max_tokens=int(cap))
    limits = Limits(rpm=None, tpm=None, concurrency=concurrency)
    with client_for(server, model="gpt-4o-mini", cache=None, limits=limits) as judge:
        run = judge.run(reqs, budget=budget)
    spent = run.usage.cost_usd if limit == "cost" else run.usage.total_tokens
    assert 0.9 * cap <= spent <= cap, (spent, cap)
    judged = sum(r.ok for r in run)
    assert all(r.cause == "budget" for r in run.failures) and judged + len(run.failures) == 400
    assert run.stopped is not None and "spent" in run.stopped and "reserved" in run.stopped


class _Reasoned(BaseModel):
    reason: str = Field(max_length=600)
    verdict: Literal[0, 1]


@pytest.mark.parametrize("concurrency", [1, 4, 32])
def test_budget_reaches_its_cap_when_a_call_holds_a_third_of_it(serve, client_for, concurrency):
    # A short request's worst case (its reply bounded by the schema: a 600-character reason) is about 30
    # times what it really costs, and a third of the cap: near the cap calls go one at a time, each with its
    # max_tokens lowered to what is left (never below the reply's expected length), so the run spends at
    # least 90 % of the cap, never more.
    server = serve(latency=0.01, answer=schema_answer)
    reqs = [_req(i, "m", f"row {i}") for i in range(400)]
    reqs = [JudgeRequest(r.row, r.metric, r.messages, _Reasoned, "verdict") for r in reqs]
    with client_for(server, model="gpt-4o-mini", cache=None) as probe:
        one = probe.judge(reqs[0].messages, schema=_Reasoned, field="verdict")
    assert one.ok and one.usage.cost_usd
    worst = cost_usd("gpt-4o-mini", 100, 700, PRICES)
    assert worst is not None and worst > 20 * one.usage.cost_usd
    cap = 3 * worst
    limits = Limits(rpm=None, tpm=None, concurrency=concurrency)
    with client_for(server, model="gpt-4o-mini", cache=None, limits=limits) as judge:
        run = judge.run(reqs, budget=Budget(max_cost_usd=cap))
    assert run.usage.cost_usd is not None and 0.9 * cap <= run.usage.cost_usd <= cap, (run.usage.cost_usd, cap)
    assert all(r.cause == "budget" for r in run.failures) and run.stopped is not None
    lowered = [b.get("max_tokens") for b in server.chat_bodies()]
    assert min(lowered) < max(lowered)  # the last calls were sent with what was left
