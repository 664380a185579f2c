"""The default client's adaptive rate control against the loopback server (tests/llm/judge_server.py) in its
own process, enforcing a requests-per-minute limit as OpenAI does (a bucket of one second's requests).

    PYTHONPATH=python python benches/bench_limits.py [ROUNDS]

(a) A server that enforces 300 and 3,000 RPM and states them in x-ratelimit-* headers (latency 50 ms): the
    rate the default client sends at (answered requests per minute from the first to the last), the share
    of its requests answered 429 and the requests that failed. Goal: at least 90 % of the limit, at most
    2 % 429s, none failed.
(b) The same limits enforced without headers: what probing reaches (no goal; figures only).
(c) A server with no limit and no headers (latency 100 ms): the default client's wall time for 1,500
    requests beside an explicitly unlimited client's (``Limits(adaptive=False)``, 64 at once). Goal: within
    1.25x.

Each figure is the median of ROUNDS runs (default 3). Prints figures; asserts nothing.
"""

from __future__ import annotations

import statistics
import sys
import time

from bench_llm import Server

from rapideval.llm import JudgeClient, JudgeRequest, Limits

FREE = {"bench": (0.0, 0.0)}


def _requests(n: int) -> list[JudgeRequest]:
    stamp = time.time_ns()  # no cache, but distinct prompts all the same
    return [JudgeRequest(i, "m", [{"role": "user", "content": f"row {stamp} {i}"}]) for i in range(n)]


def _run(url: str, n: int, limits: Limits | None) -> tuple[float, int]:
    """Wall time of ``n`` requests and the failures."""
    with JudgeClient("bench", api_key="sk-bench", base_url=url, prices=FREE, cache=None, limits=limits) as judge:
        start = time.perf_counter()
        run = judge.run(_requests(n))
        wall = time.perf_counter() - start
    return wall, len(run.failures)


def limited(rpm: int, n: int, silent: bool) -> tuple[float, float, int]:
    """Answered requests per minute, the share answered 429, and the failures, of one run."""
    server = Server(0.05, True, rpm, silent)
    try:
        _, failed = _run(server.url, n, None)
        stats = server.stats()
    finally:
        server.close()
    arrivals = sorted(stats["arrivals"])
    answered = stats["count"] - stats["rate_limited"]
    rate = (answered - 1) / (arrivals[-1] - arrivals[0]) * 60
    return rate, stats["rate_limited"] / stats["count"], failed


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for title, silent in (("(a) limits stated in headers", False), ("(b) limits enforced without headers", True)):
        print(f"{title}, default client, median of {rounds}:")
        for rpm, n in ((300, 100), (3000, 800)):
            runs = [limited(rpm, n, silent) for _ in range(rounds)]
            rate = statistics.median(r[0] for r in runs)
            share = statistics.median(r[1] for r in runs)
            failed = max(r[2] for r in runs)
            each = " / ".join(f"{r[0]:.0f}" for r in runs)
            print(f"    {rpm:>5} RPM, {n} requests: {rate:,.0f} RPM ({rate / rpm:.1%}; runs {each}), "
                  f"{share:.2%} answered 429, {failed} failed")  # fmt: skip
    print(f"(c) no limit, no headers, 1,500 requests at 100 ms, median of {rounds}:")
    server = Server(0.1, False)
    try:
        unlimited = Limits(concurrency=64, adaptive=False)
        walls: dict[str, list[float]] = {"default": [], "unlimited": []}
        for _ in range(rounds):
            for name, limits in (("default", None), ("unlimited", unlimited)):
                wall, failed = _run(server.url, 1500, limits)
                assert not failed
                walls[name].append(wall)
    finally:
        server.close()
    default, free = statistics.median(walls["default"]), statistics.median(walls["unlimited"])
    print(f"    default {default:.2f} s, unlimited {free:.2f} s: {default / free:.2f}x")


if __name__ == "__main__":
    main()
