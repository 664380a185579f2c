"""rapideval.ray.evaluate on a local Ray cluster that the module starts: the same per-row table, summaries,
failures and worst rows as single-process rapideval.evaluate on the same rows, for deterministic metrics
(batches that do not line up with the summaries' chunks, bad cells in every block) and for a judged metric
against the scripted judge server (two workers, each with its share of the rate limits)."""

from __future__ import annotations

import asyncio
import dataclasses
import pathlib
import sys
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import ray

import rapideval
import rapideval.ray
from rapideval.llm import JudgeClient, Limits
from rapideval.llm.limiter import HEADER_SHARE, RateControl

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "llm"))

from judge_server import JudgeServer, prompt_text  # noqa: E402

# Ray 2.60 warns about its own deprecated settings each time it makes a DataContext.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.data.context")

METRICS = ["bleu", "rougeL", "f1", "ter"]
WORDS = "the a cat dog sat on mat rug capital of France Paris is was it in today London raining".split()
# Limits the endpoint gives all workers together (each gets half), too high to slow this test.
LIMITS = Limits(rpm=60_000, tpm=10_000_000, concurrency=8, timeout=5.0)


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=100 * 2**20, log_to_driver=False)
    yield
    ray.shutdown()


def _rows(n: int) -> list[dict[str, Any]]:
    """Rows with a missing response, a number for a response and a missing reference in every 7 rows."""
    rng = np.random.default_rng(7)
    rows = []
    for i in range(n):
        reference = " ".join(rng.choice(WORDS, rng.integers(3, 12)))
        response = " ".join(w if rng.random() < 0.6 else str(rng.choice(WORDS)) for w in reference.split())
        rows.append({"id": f"q{i}", "user_input": f"question {i}?", "response": response, "reference": reference})
        if i % 7 == 2:
            rows[-1]["response"] = None  # not applicable
        elif i % 7 == 4:
            rows[-1]["response"] = 42  # an error: not text
        elif i % 7 == 6:
            rows[-1]["reference"] = None
    return rows


def _assert_same(got: rapideval.EvaluationResult, expected: rapideval.EvaluationResult) -> None:
    assert got.to_arrow().equals(expected.to_arrow())
    assert got.summary == expected.summary
    assert (got.failures, got.worst, got.signatures, got.n_rows) == (
        expected.failures, expected.worst, expected.signatures, expected.n_rows)


def test_deterministic_metrics_equal_single_process() -> None:
    rows = _rows(300)
    dataset = ray.data.from_items(rows, override_num_blocks=6)
    got = rapideval.ray.evaluate(dataset, METRICS, batch_size=50, chunk_size=64, concurrency=2)
    expected = rapideval.evaluate(rows, METRICS, chunk_size=64)
    _assert_same(got, expected)
    table = got.to_arrow()
    assert table.column("row").to_pylist() == list(range(300))
    assert table.column("id").to_pylist() == [r["id"] for r in rows]
    statuses = table.column("bleu.status").to_pylist()
    assert statuses[2:7] == ["not_applicable", "ok", "error", "ok", "not_applicable"]
    assert table.column("bleu.reason")[296].as_py().startswith("row 296, column 'response'")  # the global row
    summary = got.summary["bleu"]
    assert (summary.n_ok, summary.n_not_applicable, summary.n_error) == (172, 43 + 42, 43)
    assert got.usage == {}


def _answer(body: dict[str, Any], choice: int) -> str:
    """A 1-5 rating that differs from row to row: 1 + (words of the prompt) mod 5."""
    words = len(prompt_text(body).split())
    return f'{{"reason": "{words} words.", "score": {1 + words % 5}}}'


def test_judged_metric_equals_single_process() -> None:
    rows = _rows(40)
    with JudgeServer(answer=_answer) as server:
        config = rapideval.ray.JudgeConfig("judge-model", base_url=server.url, limits=LIMITS, cache=None)
        got = rapideval.ray.evaluate(ray.data.from_items(rows, override_num_blocks=4), ["coherence", "f1"],
                                     judge_config=config, batch_size=8, concurrency=2)
        with JudgeClient("judge-model", base_url=server.url, limits=LIMITS, cache=None) as judge:
            expected = rapideval.evaluate(rows, ["coherence", "f1"], judge=judge)
    _assert_same(got, expected)
    assert len({v for v in got.to_arrow().column("coherence").to_pylist() if v is not None}) > 1
    assert got.summary["coherence"].n_ok == 40 - 6 - 6  # a missing response, a number
    usage, reference = got.usage["judge"], expected.usage["judge"]
    assert usage["model"] == "judge-model"
    assert [usage[k] for k in ("calls", "prompt_tokens", "completion_tokens", "cost_usd")] == \
        [reference[k] for k in ("calls", "prompt_tokens", "completion_tokens", "cost_usd")]
    assert usage["calls"] == 28


def test_rate_limits_are_split_between_workers() -> None:
    shared = Limits(rpm=600, tpm=90_000, concurrency=8, timeout=30.0)
    assert rapideval.ray.split_limits(shared, 3) == dataclasses.replace(shared, share=1 / 3)
    # The share applies to the given ceilings and to the limits the endpoint states, as each worker learns them.
    state = RateControl(rapideval.ray.split_limits(shared, 3)).state()
    assert state.rpm == pytest.approx(200) and state.tpm == pytest.approx(30_000)
    unlimited = dataclasses.replace(shared, rpm=None, tpm=None)
    worker = RateControl(rapideval.ray.split_limits(unlimited, 4))
    asyncio.run(worker.admit(1))
    worker.answered({"x-ratelimit-limit-requests": "4000"}, time.monotonic())  # what the endpoint says to every worker
    assert worker.state().rpm == pytest.approx(HEADER_SHARE * 1000)


def test_bad_arguments_say_what_is_wrong() -> None:
    dataset = ray.data.from_items([{"text": "a", "reference": "a"}])
    with pytest.raises(ValueError, match=r"needs a 'response' column.*\['text', 'reference'\]"):
        rapideval.ray.evaluate(dataset, ["f1"])
    with pytest.raises(ValueError, match="concurrency must be a positive int"):
        rapideval.ray.evaluate(dataset, ["f1"], column_map={"text": "response"}, concurrency=0)
    with pytest.raises(ValueError, match="__rapideval_row"):
        rapideval.ray.evaluate(ray.data.from_items([{"__rapideval_row": 1}]), ["f1"])
