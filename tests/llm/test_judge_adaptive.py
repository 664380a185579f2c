"""Adaptive rate control (rapideval.llm.limiter): the default client paces at the rate an endpoint states in
its x-ratelimit-* headers, probes one that states none, sends unpaced to one with no limit, and keeps the
user's Limits as ceilings. Rates are read from the client's own state, which is deterministic; the rates
reached against the clock are figures of benches/bench_limits.py."""

from __future__ import annotations

import asyncio
import time

import pytest
from judge_server import Recorded, Reply
from rapideval.llm import JudgeRequest, Limits, RetryPolicy
from rapideval.llm.limiter import HEADER_SHARE, RateControl, stated_limits

DEFAULT = Limits(timeout=5.0)


def _requests(n: int, tag: str = "row") -> list[JudgeRequest]:
    return [JudgeRequest(i, "m", [{"role": "user", "content": f"{tag} {i}"}]) for i in range(n)]


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("20ms", 0.02), ("1s", 1.0), ("1.5s", 1.5), ("6m0s", 360.0), ("1h2m3.5s", 3723.5), ("0.25", 0.25), ("7", 7.0)],
)
def test_reset_durations_are_read_in_openai_format(text: str, seconds: float) -> None:
    assert stated_limits({"x-ratelimit-reset-requests": text}).reset_requests_s == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["", "soon", "5 s", "-3", "1x", "nan", "inf", "ms"])
def test_unreadable_headers_are_ignored(text: str) -> None:
    stated = stated_limits({"x-ratelimit-limit-requests": text, "x-ratelimit-reset-requests": text})
    assert stated.rpm is None and stated.reset_requests_s is None


def test_limits_are_validated() -> None:
    with pytest.raises(ValueError, match="share"):
        Limits(share=0)
    with pytest.raises(ValueError, match="share"):
        Limits(share=1.5)
    with pytest.raises(TypeError, match="adaptive"):
        Limits(adaptive="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize(("rpm", "n"), [(300, 60), (3000, 400)])
def test_stated_limits_are_reached_without_429s(serve, client_for, rpm: int, n: int) -> None:
    server = serve(rpm=rpm, latency=0.05)
    with client_for(server, limits=DEFAULT) as judge:
        run = judge.run(_requests(n))
    assert all(r.ok for r in run)
    state = run.rates["judge-model"]
    assert state.source == "headers" and state.rpm == pytest.approx(HEADER_SHARE * rpm)
    assert server.totals["rate_limited"] <= 0.02 * server.count
    ok = sorted(r.t for r in server.requests)
    print(f"{rpm} RPM: {(len(ok) - 1) / (ok[-1] - ok[0]) * 60:.0f} RPM sent, {server.totals['rate_limited']} 429s")


def test_an_endpoint_that_states_no_limit_is_probed(serve, client_for) -> None:
    server = serve(rpm=600, state_limits=False, latency=0.02)
    retry = RetryPolicy(max_attempts=8, base_delay=0.05, max_delay=1.0)
    with client_for(server, limits=DEFAULT, retry=retry) as judge:
        run = judge.run(_requests(120))
    assert all(r.ok for r in run)
    state = run.rates["judge-model"]
    assert state.source == "probed" and state.rate_limited == server.totals["rate_limited"] > 0
    # Once probed, the pace holds: 429s are a small share of the requests, not one per request.
    assert server.totals["rate_limited"] < 0.25 * server.count


def test_an_endpoint_without_limits_is_not_paced(serve, client_for) -> None:
    server = serve()
    limits = Limits(concurrency=8)
    with client_for(server, limits=limits) as judge:
        run = judge.run(_requests(60))
    assert all(r.ok for r in run)
    assert run.rates["judge-model"].as_dict() == {
        "rpm": None, "tpm": None, "concurrency": 8, "source": "none", "rate_limited": 0
    }  # fmt: skip


def test_the_window_starts_at_one_request(serve, client_for) -> None:
    # The first request goes out alone, so that its answer's headers are known before a burst is sent.
    server = serve(latency=0.2)
    with client_for(server, limits=DEFAULT) as judge:
        judge.run(_requests(3))
    arrivals = sorted(r.t for r in server.requests)
    assert arrivals[1] - arrivals[0] >= 0.15


def test_given_limits_are_ceilings(serve, client_for) -> None:
    server = serve(rpm=6000)
    with client_for(server, limits=Limits(rpm=600, tpm=None, concurrency=4)) as judge:
        run = judge.run(_requests(5))
    state = run.rates["judge-model"]
    assert state.source == "ceiling" and state.rpm == pytest.approx(600)


def test_fixed_limits_learn_nothing(serve, client_for) -> None:
    server = serve(rpm=6000)
    with client_for(server, limits=Limits(rpm=None, tpm=None, concurrency=4, adaptive=False)) as judge:
        run = judge.run(_requests(5))
    assert run.rates["judge-model"].as_dict() == {
        "rpm": None, "tpm": None, "concurrency": 4, "source": "none", "rate_limited": 0
    }  # fmt: skip


def test_nothing_remaining_pauses_until_the_reset(serve, client_for) -> None:
    def script(rec: Recorded) -> Reply | None:
        if rec.index == 0:
            return Reply(headers={"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "400ms"})
        return None

    server = serve(script=script)
    with client_for(server, limits=DEFAULT) as judge:
        assert all(r.ok for r in judge.run(_requests(3)))
    arrivals = sorted(r.t for r in server.requests)
    assert arrivals[1] - arrivals[0] >= 0.35


def test_a_window_place_handed_to_a_cancelled_call_is_not_lost() -> None:
    control = RateControl(Limits(concurrency=1, adaptive=False))

    async def main() -> None:
        await control.admit(1)
        waiter = asyncio.ensure_future(control.admit(1))
        await asyncio.sleep(0.01)
        control.released()  # the place goes to the waiter...
        waiter.cancel()  # ...which is cancelled before it wakes
        await asyncio.gather(waiter, return_exceptions=True)
        started = time.monotonic()
        await asyncio.wait_for(control.admit(1), 1.0)  # the place came back
        assert time.monotonic() - started < 0.5
        control.released()

    asyncio.run(main())
