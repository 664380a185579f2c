"""The RAG judged metrics (rapideval.judged.rag and .retrieval) against the loopback OpenAI-compatible server
(tests/llm/judge_server.py in its own process; a text's statements are its sentences, every other verdict is
valid), on the 50 samples of benches/bench_judged.py (the shape of ../shared/FIELD.md (f)).

    PYTHONPATH=python python benches/bench_rag.py

(a) Requests and tokens per row of each metric alone (chat requests, embedding requests, prompt tokens as
    characters / 4 of the messages, completion tokens), beside ragas 0.4.3's from FIELD.md (f).
(b) The same for the seed-002 suite (context_precision, faithfulness, answer_relevancy, context_recall) and
    with answer_correctness and noise_sensitivity added, scored together (shared requests sent once), and
    the wall time of 50 rows against a server with 200 ms latency (default limits: 32 at once), beside
    ragas's 7.98 + 2 requests, 7,459 prompt tokens, 30 s and 21.94 + 4 requests, 19,563 tokens, 41 s.

Prints figures; asserts nothing.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Sequence

from bench_judged import Server, _judge, samples

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


def _score(url: str, metrics: Sequence[JudgedMetric], rows: list[dict]) -> tuple[list, tuple[float, ...], float]:
    before = _stats(url)
    with _judge(url) as judge:
        start = time.perf_counter()
        results = run_sync(lambda: score_rows(metrics, rows, judge=judge), judge)
        wall = time.perf_counter() - start
    after = _stats(url)
    per_row = tuple((a - b) / len(rows) for a, b in zip(after, before, strict=True))
    return results, per_row, wall


def main() -> None:
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
        print("(b) suites, scored together, 50 rows, server latency 200 ms:")
        suites = {
            "seed-002 suite (4 metrics)": (SEED_002, "7.98 + 2, 7,459, 30 s"),
            "+ answer_correctness, noise_sensitivity": (
                (*SEED_002, "answer_correctness", "noise_sensitivity"), "21.94 + 4, 19,563, 41 s"),
        }  # fmt: skip
        for title, (names, ragas) in suites.items():
            chosen = [m for m in all_metrics() if m.name in names]
            _, (chat, embed, prompt, _completion), wall = _score(slow.url, chosen, rows)
            print(f"    {title:42} {chat:.2f} + {embed:.2f} requests, {prompt:,.0f} prompt tokens, {wall:.1f} s"
                  f"   ragas: {ragas}")  # fmt: skip
    finally:
        slow.close()


if __name__ == "__main__":
    main()
