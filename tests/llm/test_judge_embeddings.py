"""Embeddings through the judge client: batched, cached, rate-limited, float32 (n, d)."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
from judge_server import Reply, default_embedding
from rapideval.llm import JudgeError, Limits, RetryPolicy


def test_embeddings_are_float32_in_order_batched_and_cached(serve, client_for) -> None:
    server = serve()
    texts = [f"text {i}" for i in range(10)] + ["text 3"]
    with client_for(server) as judge:
        vectors = judge.embed(texts, batch_size=4)
        assert server.count == 3  # 10 distinct texts in batches of 4
        again = judge.embed(texts[:5] + ["new"], batch_size=4)
    assert vectors.dtype == np.float32 and vectors.shape == (11, 8)
    np.testing.assert_array_equal(vectors, np.array([default_embedding(t) for t in texts], dtype=np.float32))
    np.testing.assert_array_equal(again[:5], vectors[:5])
    assert server.count == 4 and server.requests[-1].body["input"] == ["new"]
    assert server.requests[0].body["encoding_format"] == "base64"
    assert server.requests[0].body["model"] == "text-embedding-3-small"


def test_float_lists_from_servers_that_ignore_base64(serve, client_for) -> None:
    server = serve()
    original = server._embeddings

    def as_floats(body):
        return original({**body, "encoding_format": "float"})

    server._embeddings = as_floats
    with client_for(server, cache=None) as judge:
        vectors = judge.embed(["a", "b"], dimensions=8, model="emb")
    assert vectors.dtype == np.float32 and vectors.shape == (2, 8)
    assert server.requests[0].body["dimensions"] == 8 and server.requests[0].body["model"] == "emb"


def test_embeddings_retry_and_rate_limit(serve, client_for) -> None:
    server = serve(script=lambda rec: Reply(status=503) if rec.index == 0 else None)
    with client_for(server, limits=Limits(rpm=1200, tpm=None, concurrency=4)) as judge:
        vectors = judge.embed([f"t{i}" for i in range(6)], batch_size=1)
    assert vectors.shape == (6, 8) and server.count == 7
    arrivals = sorted(r.t for r in server.requests)
    # 20 per second after a burst of 2: 0.25 s (unlimited: ~0.01 s); the margin absorbs connection set-up.
    assert arrivals[-1] - arrivals[0] >= (7 - 2) * 0.05 * 0.6


def test_failed_batch_raises_after_the_others_are_cached(serve, client_for) -> None:
    server = serve(script=lambda rec: Reply(status=400) if "bad" in rec.body["input"] else None)
    with client_for(server, retry=RetryPolicy(max_attempts=2, base_delay=0.001, max_delay=0.002)) as judge:
        with pytest.raises(JudgeError, match="bad_request") as info:
            judge.embed(["good 1", "bad", "good 2"], batch_size=1)
        assert info.value.cause == "bad_request" and info.value.attempts == 1
        judge.embed(["good 1", "good 2"])
    assert server.count == 3  # the good ones were cached


def test_empty_and_bad_inputs(serve, client_for) -> None:
    with client_for(serve()) as judge:
        assert judge.embed([]).shape == (0, 8)  # the model's width, learned from one cached call
        assert judge.embed([], dimensions=4).shape == (0, 4)
        with pytest.raises(TypeError, match=r"texts\[1\]"):
            judge.embed(["a", None])  # type: ignore[list-item]

        async def main():
            async with judge:
                return await judge.aembed(["x"])

        assert asyncio.run(main()).shape == (1, 8)
