"""Judges ``rows`` prompts against a server and prints ``row:ok|failed:cached|fresh`` per row (used by the
kill -9 test: ``python evaluate_rows.py URL CACHE ROWS CONCURRENCY``)."""

from __future__ import annotations

import signal
import sys

from rapideval.llm import JudgeClient, JudgeRequest, Limits, RetryPolicy


def main() -> None:
    # As in a terminal: a shell that starts jobs in the background (CI) makes them ignore SIGINT.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    url, cache, rows, concurrency = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    requests = [JudgeRequest(i, "m", [{"role": "user", "content": f"row {i}"}]) for i in range(rows)]
    limits = Limits(rpm=None, tpm=None, concurrency=concurrency, timeout=5)
    with JudgeClient(
        "m", api_key="sk-x", base_url=url, cache=cache, limits=limits, retry=RetryPolicy(base_delay=0.01)
    ) as judge:
        run = judge.run(requests, progress=False)
    for r in run:
        print(f"{r.row}:{'ok' if r.ok else 'failed'}:{'cached' if r.ok and r.cached else 'fresh'}")


if __name__ == "__main__":
    main()
