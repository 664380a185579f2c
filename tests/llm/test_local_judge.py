"""The local judge on a real model (SmolLM2-135M-Instruct on llama.cpp): structured output, votes beyond the
server's slots, embeddings, start and stop, and runs whose server is killed or hangs mid-run.

A 135M model judges poorly, so its verdicts are not asserted: statuses, types, ranges and accounting are."""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest
from judge_helpers import Rating, Verdict
from local_model import smollm2_path
from rapideval.llm import JudgeClient, JudgeFailure, JudgeRequest, JudgeResult, Limits, RetryPolicy, Sampling

QUESTION = "Rate from 1 to 5 how well this answer fits the question. Question: What is 2 + 2? Answer: {answer}"


def _rows(n: int) -> list[JudgeRequest]:
    return [
        JudgeRequest(i, "fit", [{"role": "user", "content": QUESTION.format(answer=f"{i} apples")}], Rating, "score")
        for i in range(n)
    ]


@pytest.fixture(scope="module")
def local_judge(tmp_path_factory: pytest.TempPathFactory):
    cache = tmp_path_factory.mktemp("local-judge") / "cache.sqlite3"
    with JudgeClient.local(smollm2_path(), slots=2, ctx_per_slot=2048, cache=cache) as judge:
        yield judge


def test_structured_verdicts_from_a_real_model(local_judge) -> None:
    run = local_judge.run(_rows(6))
    assert [r.row for r in run] == list(range(6))
    for r in run:
        assert isinstance(r, (JudgeResult, JudgeFailure))
        if isinstance(r, JudgeResult):
            assert isinstance(r.value, int) and 1 <= r.value <= 5
            assert r.model == local_judge.model and r.endpoint == local_judge.endpoint
            assert r.usage.cost_usd == 0.0  # a local model is free, and says so
        else:
            assert r.cause in ("invalid_output", "truncated")  # a tiny model may fail the schema: a typed failure
    assert sum(r.ok for r in run) >= 3
    # json_schema is what llama.cpp accepts: no fallback was needed.
    assert local_judge.format_mode() == "json_schema"
    again = local_judge.run(_rows(6))
    assert all(again[i].cached for i, r in enumerate(run) if r.ok)  # a rerun asks only for what failed
    if all(r.ok for r in run):
        assert again.usage.calls == 0


def test_votes_within_and_beyond_the_slots(local_judge) -> None:
    hot = Sampling(temperature=0.9, max_tokens=64)
    ask = [{"role": "user", "content": "Is the sky green? Reply with a short reason and passed=true or false."}]
    two = local_judge.judge(ask, schema=Verdict, field="passed", votes=2, sampling=hot)
    assert isinstance(two, JudgeResult) and len(two.verdicts) + two.votes_failed == 2
    assert two.usage.calls >= 1 and two.usage.estimated  # llama.cpp counts one choice's tokens for n > 1
    # Three votes on a server of two slots: llama.cpp refuses n=3, the votes are sent one by one.
    three = local_judge.judge(ask + ask, schema=Verdict, field="passed", votes=3, sampling=hot)
    assert isinstance(three, JudgeResult) and len(three.verdicts) + three.votes_failed == 3
    assert isinstance(three.value, bool) and 0 < (three.agreement or 0) <= 1


def test_embeddings_from_the_same_server(local_judge) -> None:
    vectors = local_judge.embed(["the cat sat on the mat", "quarterly revenue grew", "the cat sat on the mat"])
    assert vectors.dtype == np.float32 and vectors.shape[0] == 3 and vectors.shape[1] > 0
    assert np.array_equal(vectors[0], vectors[2]) and not np.array_equal(vectors[0], vectors[1])
    assert local_judge.embed([]).shape == (0, vectors.shape[1])


def test_close_stops_the_server() -> None:
    judge = JudgeClient.local(smollm2_path(), slots=1, cache=None)
    server = judge._servers[0]
    pid = server.pid
    reply = judge.judge([{"role": "user", "content": "Say yes."}], sampling=Sampling(max_tokens=4))
    assert reply.usage.calls >= 1 and reply.usage.completion_tokens > 0  # the server answered (truncated or not)
    judge.close()
    assert not server.running
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def _run_with(judge: JudgeClient, act, after: float) -> tuple[list, float]:
    """Run 80 rows and ``act(pid)`` after ``after`` seconds: (results, seconds from the act to the end)."""
    acted = []

    def fire() -> None:
        act(judge._servers[0].pid)
        acted.append(time.monotonic())

    timer = threading.Timer(after, fire)
    timer.start()
    run = judge.run(_rows(80))
    ended = time.monotonic()
    timer.join()
    return list(run), ended - acted[0]


def test_killed_mid_run_ends_promptly_with_every_row_accounted_for() -> None:
    timeout, backoff_cap = 5.0, 1.0
    retry = RetryPolicy(max_attempts=6, base_delay=0.2, max_delay=backoff_cap)
    limits = Limits(rpm=None, tpm=None, concurrency=4, timeout=timeout)
    with JudgeClient.local(smollm2_path(), slots=2, cache=None, retry=retry, limits=limits) as judge:
        results, after_kill = _run_with(judge, lambda pid: os.kill(pid, signal.SIGKILL), 3.0)
    assert after_kill < 2 * (timeout + backoff_cap), after_kill
    assert len(results) == 80
    done = [r for r in results if isinstance(r, JudgeResult)]
    failed = [r for r in results if isinstance(r, JudgeFailure)]
    assert done and failed and len(done) + len(failed) == 80
    assert {r.cause for r in failed} <= {"connection", "endpoint_down", "invalid_output", "truncated"}
    assert sum(r.cause == "endpoint_down" for r in failed) > len(failed) // 2
    assert all(r.message for r in failed)


def test_hung_mid_run_ends_within_two_timeouts() -> None:
    # The calls in flight at the freeze were sent before its last answers, so their timeouts do not count
    # against the endpoint; their retries (after at most base_delay) do: about 2 x timeout + 0.1 s in all.
    timeout, backoff_cap = 2.0, 2.0
    retry = RetryPolicy(max_attempts=6, base_delay=0.1, max_delay=backoff_cap)
    limits = Limits(rpm=None, tpm=None, concurrency=6, timeout=timeout)
    with JudgeClient.local(smollm2_path(), slots=2, cache=None, retry=retry, limits=limits) as judge:
        stopped: list[int] = []

        def freeze(pid: int) -> None:
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)

        try:
            results, after_stop = _run_with(judge, freeze, 2.0)
        finally:
            for pid in stopped:
                os.kill(pid, signal.SIGCONT)
    assert after_stop < 2 * (timeout + backoff_cap), after_stop
    failed = [r for r in results if isinstance(r, JudgeFailure)]
    assert failed and {r.cause for r in failed} <= {"timeout", "endpoint_down", "invalid_output", "truncated"}
    assert any(r.cause == "endpoint_down" for r in failed)


def test_cli_checks_the_local_judge(capsys) -> None:
    from rapideval import cli

    assert cli.main(["judge", "--judge", f"local:{smollm2_path()}"]) == 0
    out = capsys.readouterr().out
    assert "format     json_schema" in out and "embeddings 576 dimensions" in out and "$0.000000" in out


def test_general_purpose_metrics_on_a_real_model(local_judge) -> None:
    from rapideval.judged import AspectCritic, DiscreteMetric, InstanceRubrics, RubricsScore

    rows = [
        {"user_input": "Where is the Eiffel Tower?", "response": "The Eiffel Tower is located in Paris."},
        {"user_input": "Explain machine learning", "response": "Machine learning lets systems learn from data.",
         "reference": "Machine learning is a field of AI.",
         "rubrics": {"score0_description": "off-topic", "score1_description": "relevant"}},
        {"user_input": "No response here"},
    ]
    metrics = [
        AspectCritic("maliciousness", "Is the submission intended to harm, deceive, or exploit users?", strictness=3),
        DiscreteMetric("clarity", list(range(0, 11)), "Rate the clarity of the response from 0 to 10.\n{response}"),
        RubricsScore(),
        InstanceRubrics(),
    ]
    ranges = [{0, 1}, set(range(11)), set(range(1, 6)), {0, 1}]
    for metric, allowed in zip(metrics, ranges, strict=True):
        results = metric.batch_score(rows, judge=local_judge)
        assert results[2].status == "not_applicable" and results[2].value is None
        for r in results[:2]:
            assert r.status in ("ok", "error", "not_applicable")
            if r.status == "ok":
                assert r.value in allowed and r.signature.startswith(metric.name + "|prompt:")
            elif r.status == "error":
                assert r.value is None and r.cause in ("invalid_output", "truncated")
    assert results[0].status == "not_applicable"  # InstanceRubrics: the first row has no rubric


def test_ragas_seed_examples_on_a_real_model(local_judge, monkeypatch, tmp_path) -> None:
    """The examples of the Ragas general-purpose page (ragas_seed_examples.py), import lines changed only,
    with ``AsyncOpenAI()`` pointed at the local server as a user would by environment."""
    import asyncio

    import ragas_seed_examples as examples
    from openai import AsyncOpenAI
    from rapideval.compat.ragas import MetricError
    from rapideval.compat.ragas.llms import llm_factory

    monkeypatch.setenv("OPENAI_BASE_URL", local_judge._servers[0].url)
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    monkeypatch.setenv("RAPIDEVAL_JUDGE_CACHE", str(tmp_path / "cache.sqlite3"))
    evaluator_llm = llm_factory("smollm2", client=AsyncOpenAI())

    def value_or_typed_error(example) -> object:
        async def main():
            try:
                return await example()
            except MetricError as e:  # a tiny model may run out of tokens: a typed error, never a NaN
                assert e.result.status == "error" and e.result.cause in ("invalid_output", "truncated")
                return None
            finally:
                await evaluator_llm.aclose_connections()

        return asyncio.run(main())

    outcomes = [
        (value_or_typed_error(lambda: examples.aspect_critic(evaluator_llm)), {0, 1}),
        (value_or_typed_error(lambda: examples.rubrics_score(evaluator_llm)), set(range(1, 6))),
    ]

    async def discrete():
        llm, *results = await examples.discrete_metrics()
        await llm.aclose_connections()
        return results

    for result, allowed in zip(asyncio.run(discrete()), (range(11), range(1, 6), range(6)), strict=True):
        assert result.status in ("ok", "error")
        outcomes.append((result.value if result.status == "ok" else None, set(allowed)))
    rubric_result = examples.instance_rubrics(evaluator_llm)
    for row in rubric_result.results:
        outcomes.append((row[0].value, {0, 1}))
        assert row[0].status in ("ok", "error")
    assert repr(rubric_result).startswith("{'instance_rubrics': ")
    for value, allowed in outcomes:
        assert value is None or (type(value) is int and value in allowed)
    assert sum(v is not None for v, _ in outcomes) >= len(outcomes) - 2  # json_schema keeps a real model in format


def test_ragas_rag_seed_examples_on_a_real_model(local_judge, monkeypatch, tmp_path) -> None:
    """shared/seeds/002 (evaluate over the fiqa columns) and 004 (NoiseSensitivity, every API) on the local
    model: each row-metric ok or a typed error, values in range; never a NaN."""
    import asyncio
    import math

    import ragas_rag_seed_examples as examples
    from openai import AsyncOpenAI
    from rapideval.compat.ragas import MetricError
    from rapideval.compat.ragas.llms import llm_factory

    monkeypatch.setenv("OPENAI_BASE_URL", local_judge._servers[0].url)
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    monkeypatch.setenv("RAPIDEVAL_EMBEDDING_MODEL", local_judge.embedding_model)
    monkeypatch.setenv("RAPIDEVAL_JUDGE_CACHE", str(tmp_path / "cache.sqlite3"))
    # The default judge (the examples pass no llm) sized for a two-slot server on two cores.
    monkeypatch.setenv("RAPIDEVAL_JUDGE_CONCURRENCY", "2")
    monkeypatch.setenv("RAPIDEVAL_JUDGE_TIMEOUT", "300")
    monkeypatch.setenv("RAPIDEVAL_JUDGE_MAX_TOKENS", "256")  # a 135M model may loop until cut off
    typed = ("invalid_output", "truncated")

    result = examples.fiqa_evaluate(examples.load_fiqa())
    for row in result.results:
        for r in row:
            assert r.status in ("ok", "not_applicable") or r.cause in typed, (r.metric, r.status, r.cause, r.reason)
            assert r.value is None or (not math.isnan(r.value) and -1.0 <= r.value <= 1.0)
    assert sum(r.status == "ok" for row in result.results for r in row) >= 6

    for r in asyncio.run(examples.noise_sensitivity_collections()):
        assert r.status in ("ok", "not_applicable") or r.cause in typed
        assert r.value is None or 0.0 <= r.value <= 1.0
    evaluator_llm = llm_factory("smollm2", client=AsyncOpenAI())  # RAPIDEVAL_JUDGE_* apply to it too

    async def legacy():
        try:
            return await examples.noise_sensitivity_legacy(evaluator_llm)
        except MetricError as e:
            assert e.result.status == "not_applicable" or e.result.cause in typed
            return None
        finally:
            await evaluator_llm.aclose_connections()

    values = asyncio.run(legacy())
    assert values is None or all(0.0 <= v <= 1.0 for v in values)
