"""Construction from the environment, Azure, per-call parameter isolation, event loops, secrets."""

from __future__ import annotations

import asyncio
import logging
import pathlib
import sqlite3

import openai
import pytest
from judge_helpers import FAST_RETRY, NO_LIMITS, SECRET, Rating
from judge_server import Reply, prompt_text
from rapideval.llm import JudgeClient, JudgeFailure, JudgeRequest, JudgeResult, Sampling
from rapideval.llm.structured import reply_token_bound

ASK = [{"role": "user", "content": "is this fine"}]


def test_no_argument_construction_honours_the_environment(serve, monkeypatch, tmp_path) -> None:
    server = serve()
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("RAPIDEVAL_JUDGE_MODEL", "env-model")
    monkeypatch.setenv("RAPIDEVAL_JUDGE_CONCURRENCY", "3")
    monkeypatch.setenv("RAPIDEVAL_JUDGE_TIMEOUT", "7.5")
    monkeypatch.setenv("RAPIDEVAL_JUDGE_MAX_TOKENS", "200")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("RAPIDEVAL_JUDGE_CACHE", raising=False)
    with JudgeClient() as judge:
        assert judge.model == "env-model"
        assert (judge.limits.concurrency, judge.limits.timeout, judge.sampling.max_tokens) == (3, 7.5, 200)
        result = judge.judge(ASK, schema=Rating)
        free = judge.judge(ASK)
    assert isinstance(result, JudgeResult) and isinstance(free, JudgeResult)
    rec = server.requests[0]
    assert rec.body["model"] == "env-model" and rec.headers["authorization"] == f"Bearer {SECRET}"
    # The environment's max_tokens caps what the schema bounds (Rating's reply: 55 tokens) and is sent as
    # it is where nothing bounds the reply.
    assert rec.body["max_tokens"] == 55 and server.requests[1].body["max_tokens"] == 200
    monkeypatch.setenv("RAPIDEVAL_JUDGE_MAX_TOKENS", "lots")
    with pytest.raises(ValueError, match="RAPIDEVAL_JUDGE_MAX_TOKENS='lots': expected a whole number"):
        JudgeClient()
    assert judge.cache is not None and judge.cache.path == tmp_path / "xdg" / "rapideval" / "judge.sqlite3"
    assert judge.cache.path.exists()


def test_defaults_without_model_env(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("RAPIDEVAL_JUDGE_MODEL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("RAPIDEVAL_JUDGE_CACHE", str(tmp_path / "c.sqlite3"))
    with JudgeClient() as judge:
        assert judge.model == "gpt-4o-mini"
        assert judge.cache is not None and judge.cache.path == tmp_path / "c.sqlite3"


def test_missing_key_fails_at_the_first_call_not_in_a_dry_run(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    judge = JudgeClient(cache=None)
    requests = [JudgeRequest(0, "m", ASK)]
    assert judge.dry_run(requests).total.requests == 1  # nothing is sent, so no key is needed
    with pytest.raises(openai.OpenAIError, match="api_key"):
        judge.run(requests)


def test_local_server_without_a_key(serve, monkeypatch) -> None:
    server = serve()
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with JudgeClient("llama", base_url=server.url, cache=None, limits=NO_LIMITS) as judge:
        assert isinstance(judge.judge(ASK), JudgeResult)


def test_azure_deployment_routes_and_key_header(serve, tmp_path) -> None:
    server = serve()
    root = server.url.removesuffix("/v1")
    with JudgeClient.azure(
        "my-deployment", endpoint=root, api_version="2024-10-21", api_key=SECRET, cache=tmp_path / "c.sqlite3"
    ) as judge:
        result = judge.judge(ASK, schema=Rating, field="score")
        vectors = judge.embed(["a", "b"], model="emb-deployment")
    assert isinstance(result, JudgeResult) and vectors.shape == (2, 8)
    chat, emb = server.requests
    assert chat.path == "/openai/deployments/my-deployment/chat/completions"
    assert emb.path == "/openai/deployments/emb-deployment/embeddings"
    assert chat.headers["api-key"] == SECRET and "authorization" not in chat.headers


def test_a_client_instance_is_used_without_its_retries(serve, tmp_path) -> None:
    server = serve(script=lambda rec: Reply(status=400))
    mine = openai.AsyncOpenAI(api_key=SECRET, base_url=server.url)  # max_retries=2 by default

    async def main() -> JudgeFailure | JudgeResult:
        judge = JudgeClient("m", client=mine, cache=None, limits=NO_LIMITS, retry=FAST_RETRY)
        try:
            return await judge.ajudge(ASK)
        finally:
            await judge.aclose()
            await mine.close()

    result = asyncio.run(main())
    assert isinstance(result, JudgeFailure) and result.cause == "bad_request" and server.count == 1


def test_hundred_concurrent_calls_keep_their_own_parameters(serve, client_for) -> None:
    server = serve(latency=0.01)
    cases = [(round(0.02 * i, 2), 1 + i % 4) for i in range(100)]

    async def main() -> list:
        async with client_for(server, cache=None) as judge:
            return await asyncio.gather(
                *(
                    judge.ajudge(
                        [{"role": "user", "content": f"case {i}"}],
                        schema=Rating,
                        field="score",
                        votes=n,
                        sampling=Sampling(temperature=t, seed=i),
                        row=i,
                    )
                    for i, (t, n) in enumerate(cases)
                )
            )

    results = asyncio.run(main())
    assert all(isinstance(r, JudgeResult) for r in results)
    assert server.count == 100
    for rec in server.requests:
        i = int(prompt_text(rec.body).split()[1])
        t, n = cases[i]
        assert rec.body["temperature"] == t and rec.body["seed"] == i
        assert rec.body.get("n", 1) == n
        assert rec.body["model"] == "judge-model" and rec.body["max_tokens"] == reply_token_bound(Rating)


def test_per_request_sampling_does_not_touch_the_client(serve, client_for) -> None:
    server = serve()
    with client_for(server, sampling=Sampling(temperature=0.0, max_tokens=64)) as judge:
        judge.run(
            [
                JudgeRequest(0, "a", ASK, sampling=Sampling(temperature=1.0, max_tokens=8, extra={"top_k": 5})),
                JudgeRequest(1, "a", [{"role": "user", "content": "other"}]),
            ]
        )
        assert judge.sampling == Sampling(temperature=0.0, max_tokens=64)
    first, second = sorted(server.requests, key=lambda r: prompt_text(r.body))
    assert (first.body["temperature"], first.body["max_tokens"], first.body["top_k"]) == (1.0, 8, 5)
    assert (second.body["temperature"], second.body["max_tokens"]) == (0.0, 64) and "top_k" not in second.body


def test_max_completion_tokens_for_reasoning_models(serve, client_for) -> None:
    server = serve()
    with client_for(
        server, sampling=Sampling(temperature=None, max_tokens=300, max_tokens_param="max_completion_tokens")
    ) as judge:
        judge.judge(ASK)
    body = server.requests[0].body
    assert body["max_completion_tokens"] == 300 and "max_tokens" not in body and "temperature" not in body


def test_sync_methods_run_one_loop_after_another(serve, client_for) -> None:
    server = serve()
    with client_for(server) as judge:
        for i in range(3):
            assert isinstance(judge.judge([{"role": "user", "content": f"loop {i}"}]), JudgeResult)
            assert judge.embed([f"t{i}"]).shape == (1, 8)


def test_invalid_requests_are_rejected_early() -> None:
    with pytest.raises(TypeError, match=r"messages\[0\]"):
        JudgeRequest(3, "m", [{"content": "no role"}])
    with pytest.raises(ValueError, match="field"):
        JudgeRequest(3, "m", ASK, schema=Rating, votes=3)
    with pytest.raises(ValueError, match="'nope'"):
        JudgeRequest(3, "m", ASK, schema=Rating, field="nope")
    with pytest.raises(ValueError, match="temperature"):
        Sampling(temperature=3)
    with pytest.raises(ValueError, match="runtime owns"):
        Sampling(extra={"n": 3})


def test_api_key_never_in_cache_logs_results_or_reprs(serve, client_for, caplog, tmp_path) -> None:
    def script(rec):
        # An endpoint that echoes the credential back in its error message.
        if "fail" in prompt_text(rec.body):
            return Reply(status=401, error=f"bad key {rec.headers['authorization']}")
        if "flaky" in prompt_text(rec.body) and rec.index < 3:
            return Reply(status=500, error=f"oops {rec.headers['authorization']}")
        return None

    server = serve(script=script)
    caplog.set_level(logging.DEBUG)
    with client_for(server, cache=tmp_path / "secret.sqlite3") as judge:
        run = judge.run(
            [
                JudgeRequest(0, "m", [{"role": "user", "content": "fail"}], Rating),
                JudgeRequest(1, "m", [{"role": "user", "content": "flaky"}], Rating),
                JudgeRequest(2, "m", ASK, Rating),
            ]
        )
        judge.embed(["some text"])
        texts = [repr(judge), repr(run), str(run.results), repr(judge.cache), caplog.text, repr(vars(judge))]
    assert run.results[0].cause == "auth" and "***" in run.results[0].message
    assert run.results[1].ok and run.results[1].usage.retries >= 1
    assert server.requests[0].headers["authorization"] == f"Bearer {SECRET}"  # it was sent
    for text in texts:
        assert SECRET not in text
    for path in pathlib.Path(tmp_path).glob("secret.sqlite3*"):
        assert SECRET.encode() not in path.read_bytes()
    with sqlite3.connect(tmp_path / "secret.sqlite3") as db:
        dump = "\n".join(db.iterdump())
    db.close()
    assert SECRET not in dump and "sk-" not in dump


def test_sync_calls_inside_a_running_loop_run_on_a_worker_thread(serve, client_for) -> None:
    """The one sync-over-async policy (rapideval.llm.sync.run_sync): ``run`` and ``judge`` called from a
    running loop (a notebook cell) give what they give outside one."""
    server = serve()
    client = client_for(server)
    outside = client.run([JudgeRequest(0, "m", ASK)]).results[0]

    async def notebook():
        return client.run([JudgeRequest(0, "m", ASK)]).results[0], client.judge(ASK, row=1, metric="m")

    inside, judged = asyncio.run(notebook())
    assert isinstance(outside, JudgeResult) and isinstance(inside, JudgeResult) and isinstance(judged, JudgeResult)
    assert inside.value == outside.value == judged.value
