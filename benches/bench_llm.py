"""The judge runtime against the loopback OpenAI-compatible server (tests/llm/judge_server.py) in its own process.

    PYTHONPATH=python python benches/bench_llm.py [--seconds 30] [--calls 3000]

(a) Rate: with 20 ms of server latency and a limit of 1,200 requests per minute, the requests that reach
    the server in the first --seconds after the first one, as a share of the limit (target 95 to 101%).
(b) Overhead: process CPU time per judge call (structured output, schema validation) with a zero-latency
    server, for the runtime with and without its SQLite cache, and for the bare openai client doing the
    same calls (``chat.completions.create`` and pydantic validation of the reply), and the difference.
    Target: the runtime adds at most 0.5 ms of CPU per call.

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pathlib
import subprocess
import sys
import tempfile
import time
import urllib.request

import openai
from pydantic import BaseModel, Field

from rapideval.llm import JudgeClient, JudgeRequest, Limits

SERVER = pathlib.Path(__file__).resolve().parents[1] / "tests" / "llm" / "judge_server.py"


class Rating(BaseModel):
    score: int = Field(ge=1, le=5)


class Server:
    """The scripted server in its own process; ``rpm`` enforces a rate limit, stated in x-ratelimit-* headers
    unless ``silent``."""

    def __init__(self, latency: float, record: bool, rpm: float | None = None, silent: bool = False) -> None:
        args = [sys.executable, str(SERVER), "--latency", str(latency)] + (["--record"] if record else [])
        args += (["--rpm", str(rpm)] if rpm else []) + (["--silent-limits"] if silent else [])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()

    def stats(self) -> dict:
        with urllib.request.urlopen(self.url.removesuffix("/v1") + "/stats") as r:
            return json.load(r)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def _requests(n: int, tag: str) -> list[JudgeRequest]:
    return [
        JudgeRequest(i, "m", [{"role": "user", "content": f"{tag} {i} rate this"}], Rating, "score") for i in range(n)
    ]


def _judge(server: Server, limits: Limits, cache: pathlib.Path | None) -> JudgeClient:
    free = {"bench": (0.0, 0.0)}  # priced, so that the runtime does not warn about a model without a price
    return JudgeClient("bench", api_key="sk-bench", base_url=server.url, prices=free, cache=cache, limits=limits)


def bench_rate(seconds: float) -> None:
    rpm = 1200
    server = Server(latency=0.02, record=True)
    try:
        n = int(seconds * rpm / 60 * 1.1) + 10  # enough to keep the limiter busy past the window
        limits = Limits(rpm=rpm, tpm=None, concurrency=32, timeout=10)
        with _judge(server, limits, None) as judge:
            run = judge.run(_requests(n, "rate"), progress=False)
        arrivals = sorted(server.stats()["arrivals"])
    finally:
        server.close()
    failed = sum(1 for r in run if not r.ok)
    in_window = sum(1 for t in arrivals if t < arrivals[0] + seconds)
    achieved = in_window / seconds * 60
    print(
        f"(a) rate: {in_window} requests in the first {seconds:g} s = {achieved:.1f}/min "
        f"= {100 * achieved / rpm:.2f}% of {rpm}/min (20 ms latency, {len(arrivals)} sent, {failed} failed)"
    )


async def _bare(url: str, n: int, concurrency: int) -> None:
    client = openai.AsyncOpenAI(api_key="sk-bench", base_url=url, max_retries=0)
    fmt = {
        "type": "json_schema",
        "json_schema": {"name": "Rating", "schema": Rating.model_json_schema(), "strict": True},
    }
    sem = asyncio.Semaphore(concurrency)

    async def one(i: int) -> None:
        async with sem:
            reply = await client.chat.completions.create(
                model="bench",
                messages=[{"role": "user", "content": f"bare {i} rate this"}],
                temperature=0.0,
                max_tokens=1024,
                response_format=fmt,  # type: ignore[arg-type]
            )
        Rating.model_validate_json(reply.choices[0].message.content or "")

    await asyncio.gather(*(one(i) for i in range(n)))
    await client.close()


def _cpu_per_call(fn, calls: int) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) / calls * 1e3


def bench_overhead(calls: int) -> None:
    concurrency = 32
    server = Server(latency=0.0, record=False)
    limits = Limits(rpm=None, tpm=None, concurrency=concurrency, timeout=10)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            # Warm up imports, pydantic schemas and connections.
            with _judge(server, limits, None) as judge:
                judge.run(_requests(200, "warm"), progress=False)
            asyncio.run(_bare(server.url, 200, concurrency))

            bare = _cpu_per_call(lambda: asyncio.run(_bare(server.url, calls, concurrency)), calls)
            with _judge(server, limits, None) as judge:
                ours = _cpu_per_call(lambda: judge.run(_requests(calls, "nocache"), progress=False), calls)
            path = pathlib.Path(tmp) / "bench.sqlite3"
            with _judge(server, limits, path) as judge:
                cached = _cpu_per_call(lambda: judge.run(_requests(calls, "cache"), progress=False), calls)
                hits = _cpu_per_call(lambda: judge.run(_requests(calls, "cache"), progress=False), calls)
    finally:
        server.close()
    print(f"(b) CPU per call over {calls} calls, concurrency {concurrency}, zero-latency server in another process:")
    print(f"    bare openai client (create + pydantic)   {bare:.3f} ms")
    print(f"    JudgeClient, no cache                    {ours:.3f} ms   runtime overhead {ours - bare:+.3f} ms")
    print(f"    JudgeClient, SQLite cache (misses)       {cached:.3f} ms   runtime overhead {cached - bare:+.3f} ms")
    print(f"    JudgeClient, rerun (all cache hits)      {hits:.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--calls", type=int, default=3000)
    args = parser.parse_args()
    bench_overhead(args.calls)
    bench_rate(args.seconds)


if __name__ == "__main__":
    main()
