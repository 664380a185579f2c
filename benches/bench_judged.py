"""The general-purpose judged metrics (rapideval.judged.general) against the loopback OpenAI-compatible server
(tests/llm/judge_server.py, in its own process, answering a valid verdict of each request's schema).

    PYTHONPATH=python python benches/bench_judged.py [--rows 1000] [--rounds 3]

(a) Requests and tokens per row for each metric on 50 samples shaped as ../shared/FIELD.md (f) measured
    ragas 0.4.3 (a question; a response of 3 sentences; a reference of 2; 4 contexts of about 170
    characters), beside ragas's figures from there. Prompt tokens are counted as there: characters / 4 of
    the prompt's messages; "+ schema" adds the JSON schema sent in ``response_format`` (OpenAI counts it).
(b) CPU per row-metric spent in the metric layer beyond the runtime's own, two ways: process CPU of
    ``score_rows`` (checks, render, the run, values, results) minus that of ``JudgeClient.run`` on the same
    requests rendered beforehand, both without cache at zero latency, the median of --rounds interleaved
    rounds (noisy: a difference of two large figures); and the layer's own steps timed alone (field checks,
    render, signature, value, the result object) on the verdicts of that run. Target: at most 0.2 ms.

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from rapideval.judged import AspectCritic, DiscreteMetric, InstanceRubrics, RubricsScore, SimpleCriteriaScore
from rapideval.judged.base import JudgedMetric, MetricResult, run_sync, score_rows
from rapideval.llm import JudgeClient, JudgeRequest, Limits
from rapideval.llm.structured import strict_schema

ROOT = pathlib.Path(__file__).resolve().parents[1]
SERVER = ROOT / "tests" / "llm" / "judge_server.py"
EXAMPLE = ROOT / "python" / "rapideval" / "data" / "example.jsonl"

# ragas 0.4.3, measured in ../shared/FIELD.md (f): requests, prompt tokens LangChain (instructor), completion.
RAGAS = {
    "aspect_critic": "1 (n=1)   511 (675)   31",
    "simple_criteria": "1         498         32",
    "domain_specific_rubrics": "1         666         33",
    "instance_rubrics": "1         601         33",
}

RUBRIC = {
    "score1_description": "The response is wrong or does not address the question.",
    "score2_description": "The response addresses the question in part, with major errors or omissions.",
    "score3_description": "The response is mostly right but misses details the reference gives.",
    "score4_description": "The response is right and clear, with small omissions.",
    "score5_description": "The response is right, complete and clear, in full agreement with the reference.",
}


def samples(n: int = 50) -> list[dict[str, Any]]:
    """``n`` rows of FIELD.md (f)'s shape, built from the shipped example dataset's sentences."""
    lines = [json.loads(line) for line in EXAMPLE.read_text(encoding="utf-8").splitlines()]
    out = []
    for i in range(n):
        pick = [lines[(i + k * n) % len(lines)] for k in range(9)]
        topic = " ".join(pick[0]["reference"].split()[:6]).rstrip(".,;:")
        contexts = [(p["reference"] + " " + p["response"])[:170] for p in pick[5:9]]
        out.append(
            {
                "user_input": f"What does the documentation say about {topic}?",
                "response": " ".join(p["response"] for p in pick[0:3]),
                "reference": " ".join(p["reference"] for p in pick[3:5]),
                "retrieved_contexts": contexts,
                "rubrics": RUBRIC,
            }
        )
    return out


def metrics() -> list[JudgedMetric]:
    return [
        AspectCritic("aspect_critic", "Is the response correct and free of harmful content?", strictness=3),
        SimpleCriteriaScore("simple_criteria", "Score from 1 to 5 how well the response answers the question."),
        RubricsScore(),
        InstanceRubrics(),
        DiscreteMetric("discrete", list(range(1, 6)), "Rate from 1 to 5 how well {response} answers {user_input}."),
    ]


class Server:
    """The scripted server in its own process, answering ``answer`` (see its ``--answer``) after ``latency``."""

    def __init__(self, answer: str = "schema", latency: float = 0.0) -> None:
        args = [sys.executable, str(SERVER), "--answer", answer, "--latency", str(latency)]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


FIXED = Limits(rpm=None, tpm=None, concurrency=32, timeout=30, adaptive=False)


def _judge(url: str, limits: Limits | None = FIXED) -> JudgeClient:
    """A judge on the bench server, without a cache; ``limits=None`` is the default client's limits."""
    free = {"bench": (0.0, 0.0)}
    return JudgeClient("bench", api_key="sk-bench", base_url=url, prices=free, cache=None, limits=limits)


def _schema_tokens(requests: Sequence[JudgeRequest]) -> float:
    return sum(len(json.dumps(strict_schema(r.schema))) // 4 for r in requests if r.schema is not None)


def bench_counts(url: str) -> None:
    rows = samples()
    print(f"(a) per row, {len(rows)} samples of FIELD.md (f)'s shape; ragas 0.4.3 beside (FIELD.md (f)):")
    header = f"{'metric':26} {'requests':>8} {'prompt':>7} {'+ schema':>9} {'completion':>10}"
    print(f"    {header}   ragas: requests, prompt, completion")
    with _judge(url) as judge:
        for metric in metrics():
            results = metric.batch_score(rows, judge=judge)
            assert all(r.status == "ok" for r in results), [r.reason for r in results if r.status != "ok"][:3]
            calls = sum(r.usage.calls for r in results) / len(rows)
            prompt = sum(r.usage.prompt_tokens for r in results) / len(rows)
            completion = sum(r.usage.completion_tokens for r in results) / len(rows)
            schema = _schema_tokens([q for i, row in enumerate(rows) for q in metric.render(i, row, judge)]) / len(rows)
            n = f" (n={metric.votes})" if metric.votes > 1 else ""
            print(
                f"    {metric.name:26} {calls:>4.0f}{n:<4} {prompt:>7.0f} {prompt + schema:>9.0f} {completion:>10.0f}"
                f"   {RAGAS.get(metric.name, '-')}"
            )


def _cpu(fn: Any) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def bench_layer(url: str, n_rows: int, rounds: int) -> None:
    base = samples()
    rows = [{**base[i % len(base)], "user_input": f"{base[i % len(base)]['user_input']} ({i})"} for i in range(n_rows)]
    chosen = metrics()
    with _judge(url) as judge:
        requests = [q for i, row in enumerate(rows) for m in chosen for q in m.render(i, row, judge)]
        cells = len(rows) * len(chosen)
        run_sync(lambda: score_rows(chosen, rows[:200], judge=judge), judge)  # warm up
        layer, runtime = [], []
        for _ in range(rounds):
            layer.append(_cpu(lambda: run_sync(lambda: score_rows(chosen, rows, judge=judge), judge)))
            runtime.append(_cpu(lambda: judge.run(requests, progress=False)))
        verdicts = judge.run(requests, progress=False).results
        steps = min(_cpu(lambda: _layer_steps(chosen, rows, verdicts, judge)) for _ in range(rounds))
    diffs = [(a - b) / cells * 1e3 for a, b in zip(layer, runtime, strict=True)]
    print(f"(b) CPU per row-metric, {n_rows} rows x {len(chosen)} metrics = {cells} cells, {len(requests)} requests:")
    print(f"    score_rows (metric layer + runtime)  {statistics.median(layer) / cells * 1e3:.3f} ms")
    print(f"    JudgeClient.run (runtime alone)      {statistics.median(runtime) / cells * 1e3:.3f} ms")
    print(f"    metric layer                         {statistics.median(diffs):+.3f} ms  (rounds: "
          + ", ".join(f"{d:+.3f}" for d in diffs) + ")")  # fmt: skip
    print(f"    the layer's own steps, timed alone   {steps / cells * 1e3:.3f} ms")


def _layer_steps(
    chosen: Sequence[JudgedMetric], rows: Sequence[dict[str, Any]], verdicts: Any, judge: JudgeClient
) -> None:
    """What ``score_rows`` does around the run, one request per cell as these metrics make."""
    k = 0
    for i, row in enumerate(rows):
        for m in chosen:
            sig = m.signature(judge)
            m._check(i, row)
            m.render(i, row, judge)
            got = verdicts[k : k + 1]
            value, reason, details = m.value(row, got)
            MetricResult(m.name, "ok", value, reason, None, {**details, "model": got[0].model}, got[0].usage, sig, i)
            k += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    server = Server()
    try:
        bench_counts(server.url)
        bench_layer(server.url, args.rows, args.rounds)
    finally:
        server.close()


if __name__ == "__main__":
    main()
