"""The RAG judged metrics (rapideval.judged.rag and .retrieval) against the loopback OpenAI-compatible server
(tests/llm/judge_server.py in its own process; a text's statements are its sentences, every other verdict is
valid), on the 50 samples of benches/bench_judged.py (the shape of ../shared/FIELD.md (f)).

    PYTHONPATH=python python benches/bench_rag.py [ROUNDS]

(a) Requests and tokens per row of each metric alone (chat requests, embedding requests, prompt tokens as
    characters / 4 of the messages, completion tokens), beside ragas 0.4.3's from FIELD.md (f).
(b) The same for the seed-002 suite (context_precision, faithfulness, answer_relevancy, context_recall) and
    with answer_correctness and noise_sensitivity added, scored together (shared requests sent once), and
    the wall time of 50 rows against a server with 200 ms latency, with the default client (adaptive limits;
    median of --rounds runs), beside ragas's 7.98 + 2 requests, 7,459 prompt tokens and 21.94 + 4 requests,
    19,563 tokens (FIELD.md (f)), and the wall times ragas 0.4.3 took with its default settings on the same
    server and rows (30.5 s and 48.2 s, measured for issue 40).

Prints figures; asserts nothing.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import urllib.request
from collections.abc import Sequence

from bench_judged import FIXED, Server, _judge, samples

from rapideval.judged import (
    AnswerCorrectness,
    ContextEntityRecall,
    ContextPrecision,
    ContextRecall,
    ContextRelevance,
    ContextUtilization,
    FactualCorrectness,
    Faithfulness,
    NoiseSensitivity,
    ResponseRelevancy,
    SemanticSimilarity,
)
from rapideval.judged.base import JudgedMetric, run_sync, score_rows
from rapideval.llm import Limits

# ragas 0.4.3 per sample (FIELD.md (f)): LLM requests, embedding requests, prompt tokens (LangChain wrapper).
RAGAS = {
    "faithfulness": (2, 0, 1592),
    "answer_relevancy": (1, 2, 388),
    "context_precision": (3.98, 0, 4315),
    "context_utilization": (3.98, 0, 4366),
    "context_recall": (1, 0, 1164),
    "context_entity_recall": (2, 0, 1545),
    "noise_sensitivity": (10.96, 0, 9767),
    "answer_correctness": (3, 2, 2337),
    "factual_correctness": (4, 0, 2758),
    "semantic_similarity": (0, 2, 0),
}
SEED_002 = ("context_precision", "faithfulness", "answer_relevancy", "context_recall")


def all_metrics() -> list[JudgedMetric]:
    return [
        Faithfulness(), ResponseRelevancy(), ContextPrecision(), ContextUtilization(), ContextRecall(),
        ContextEntityRecall(), ContextRelevance(), NoiseSensitivity(), AnswerCorrectness(), FactualCorrectness(),
        SemanticSimilarity(),
    ]  # fmt: skip


def _stats(url: str) -> tuple[int, int, int, int]:
    """Chat requests, embedding requests, prompt tokens (characters / 4), completion tokens so far."""
    with urllib.request.urlopen(url.removesuffix("/v1") + "/stats") as r:
        s = json.load(r)
    return s["chat"], s["embeddings"], s["prompt_tokens"], s["completion_tokens"]


def _score(
    url: str, metrics: Sequence[JudgedMetric], rows: list[dict], limits: Limits | None = FIXED
) -> tuple[list, tuple[float, ...], float]:
    before = _stats(url)
    with _judge(url, limits) as judge:
        start = time.perf_counter()
        results = run_sync(lambda: score_rows(metrics, rows, judge=judge), judge)
        wall = time.perf_counter() - start
    after = _stats(url)
    per_row = tuple((a - b) / len(rows) for a, b in zip(after, before, strict=True))
    return results, per_row, wall


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rows = samples()
    server = Server(answer="sentences")
    try:
        print(f"(a) per row, each metric alone, {len(rows)} samples; ragas 0.4.3 beside (FIELD.md (f)):")
        print(f"    {'metric':24} {'chat':>5} {'embed':>5} {'prompt':>7} {'completion':>10}   ragas: chat, embed, prompt")
        for metric in all_metrics():
            results, (chat, embed, prompt, completion), _ = _score(server.url, [metric], rows)
            bad = [r[0].reason for r in results if r[0].status != "ok"]
            assert not bad, bad[:3]
            ragas = RAGAS.get(metric.name)
            theirs = f"{ragas[0]:g}, {ragas[1]}, {ragas[2]:,}" if ragas else "-"
            print(f"    {metric.name:24} {chat:>5.2f} {embed:>5.2f} {prompt:>7.0f} {completion:>10.0f}   {theirs}")
    finally:
        server.close()
    slow = Server(answer="sentences", latency=0.2)
    try:
        print(f"(b) suites, scored together, 50 rows, server latency 200 ms, default client, median of {rounds}:")
        suites = {
            "seed-002 suite (4 metrics)": (SEED_002, "7.98 + 2, 7,459, 30.5 s", 30.5),
            "+ answer_correctness, noise_sensitivity": (
                (*SEED_002, "answer_correctness", "noise_sensitivity"), "21.94 + 4, 19,563, 48.2 s", 48.2),
        }  # fmt: skip
        for title, (names, ragas, ragas_wall) in suites.items():
            chosen = [m for m in all_metrics() if m.name in names]
            walls = []
            for _ in range(rounds):
                _, (chat, embed, prompt, _completion), wall = _score(slow.url, chosen, rows, limits=None)
                walls.append(wall)
            wall = statistics.median(walls)
            runs = " / ".join(f"{w:.1f}" for w in walls)
            print(f"    {title:42} {chat:.2f} + {embed:.2f} requests, {prompt:,.0f} prompt tokens, {wall:.1f} s"
                  f" ({runs}; {ragas_wall / wall:.1f}x faster)   ragas: {ragas}")  # fmt: skip
    finally:
        slow.close()


if __name__ == "__main__":
    main()
