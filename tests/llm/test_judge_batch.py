"""Batch mode: requests answered through the scripted server's files and batches endpoints, lines that fail
(retried in the next batch, or typed failures), answers that need a repair (online), resuming after kill -9,
the batch price, Azure's layout, and an endpoint without the Batch API."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pytest
import rapideval
from judge_helpers import FAST_RETRY, NO_LIMITS, SECRET, Rating
from judge_server import JudgeServer, Recorded, Reply
from rapideval.llm import BatchMode, Budget, JudgeClient, JudgeFailure, JudgeRequest, JudgeResult

HERE = pathlib.Path(__file__).resolve().parent
FAST = BatchMode(poll_interval=0.02)


def _requests(count: int, votes: int = 1) -> list[JudgeRequest]:
    return [
        JudgeRequest(i, "coherence", [{"role": "user", "content": f"row {i} " + "word " * (i % 7)}], Rating, "score",
                     votes=votes)  # fmt: skip
        for i in range(count)
    ]


def _row(rec: Recorded) -> int:
    first = next(m["content"] for m in rec.body["messages"] if m["role"] == "user")  # a repair re-ask adds more
    return int(first.split()[1])


def _lines(server: JudgeServer) -> list[Recorded]:
    return [r for r in server.requests if "x-batch-id" in r.headers]


def _online(server: JudgeServer) -> list[Recorded]:
    return [r for r in server.requests if "x-batch-id" not in r.headers and r.path.endswith("/chat/completions")]


def test_two_thousand_requests_with_failing_lines_match_an_online_run(serve, client_for) -> None:
    """5 % of the lines fail: 4 % with a 500 in the first batch (sent again in the next one), 1 % with a 400
    (typed failures); 0.5 % answer invalid output (repaired online). Values equal an online run's."""
    first_batch: dict[int, str] = {}

    def script(rec: Recorded) -> Reply | None:
        row = _row(rec)
        if row % 100 == 1:
            return Reply(status=400, error="this request is refused")
        batch = rec.headers.get("x-batch-id")
        if batch is not None and row % 25 == 2 and first_batch.setdefault(row, batch) == batch:
            return Reply(status=500)
        if row % 200 == 3 and len(rec.body["messages"]) == 1:
            return Reply(contents=['{"score": "high"}'])  # invalid: the repair re-ask gets the right one
        return None

    server = serve(script=script)
    reqs = _requests(2000)
    with client_for(server, batch=FAST) as judge:
        run = judge.run(reqs)
    assert server.totals["batches"] == 2  # the first, and the next one for the 500s
    assert len(_lines(server)) == 2000 + 80  # every request once, the 80 that failed with a 500 twice
    online = _online(server)
    assert len(online) == 10  # the repair re-asks of the 10 invalid answers, nothing else
    failures = [r for r in run if isinstance(r, JudgeFailure)]
    assert [f.row for f in failures] == [i for i in range(2000) if i % 100 == 1]
    assert all(f.cause == "bad_request" and "refused" in f.message for f in failures)
    assert all(isinstance(r, JudgeResult) for r in run if r.row % 100 != 1)

    with client_for(server) as judge:  # online, its own cache: the same answers
        again = judge.run(reqs)
    assert [getattr(r, "value", None) for r in again] == [getattr(r, "value", None) for r in run]
    assert [type(r) for r in again] == [type(r) for r in run]


def test_votes_ride_as_n_and_cost_is_the_batch_price(serve, client_for) -> None:
    server = serve()
    prices = {"judge-model": (1.0, 2.0)}
    with client_for(server, batch=FAST, prices=prices) as judge:
        run = judge.run(_requests(20, votes=3))
    assert all(r.ok for r in run) and all(len(r.verdicts) == 3 for r in run)
    assert [r.body.get("n") for r in _lines(server)] == [3] * 20 and not _online(server)
    usage = run.usage
    full = (usage.prompt_tokens * 1.0 + usage.completion_tokens * 2.0) / 1e6
    assert usage.calls == 20 and usage.cost_usd == pytest.approx(full / 2, rel=1e-12)


def test_budget_holds_batch_lines_to_the_cap(serve, client_for) -> None:
    server = serve()
    with client_for(server, batch=FAST, prices={"judge-model": (1.0, 2.0)}) as judge:
        run = judge.run(_requests(200), budget=Budget(max_calls=50))
    assert len(_lines(server)) == 50
    assert sum(r.ok for r in run) == 50 and {r.cause for r in run if not r.ok} == {"budget"}


def test_cached_requests_are_not_batched(serve, client_for, tmp_path) -> None:
    server = serve()
    cache = tmp_path / "shared.sqlite3"
    with client_for(server, batch=FAST, cache=cache) as judge:
        judge.run(_requests(10))
    with client_for(server, batch=FAST, cache=cache) as judge:
        run = judge.run(_requests(15))
    assert len(_lines(server)) == 15 and server.totals["batches"] == 2
    assert sum(r.cached for r in run) == 10


CHILD = textwrap.dedent(
    """
    import json, sys
    sys.path.insert(0, sys.argv[1])
    from judge_helpers import FAST_RETRY, NO_LIMITS, Rating
    from rapideval.llm import BatchMode, JudgeClient, JudgeRequest

    reqs = [JudgeRequest(i, "coherence", [{"role": "user", "content": f"row {i} " + "word " * (i % 7)}], Rating,
                         "score") for i in range(int(sys.argv[4]))]
    with JudgeClient("judge-model", api_key="sk-test", base_url=sys.argv[2], cache=sys.argv[3], limits=NO_LIMITS,
                     retry=FAST_RETRY, batch=BatchMode(poll_interval=0.05)) as judge:
        run = judge.run(reqs)
    print(json.dumps([r.value if r.ok else r.cause for r in run]))
    """
)


def _child(server: JudgeServer, cache: pathlib.Path, count: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(pathlib.Path(rapideval.__file__).resolve().parents[1])}  # as installed
    cmd = [sys.executable, "-c", CHILD, str(HERE), server.url, str(cache), str(count)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _kill_when(proc: subprocess.Popen[str], ready, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the child never submitted its batch"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()


@pytest.mark.parametrize("when", ["after_submission", "before_the_batch_id_came_back"])
def test_kill_9_then_the_same_call_resumes_without_paying_again(serve, tmp_path, when) -> None:
    """Killed once its batch exists (its id recorded, or not yet known to it: the batch is found by its
    file), the same call resumes that batch: no second submission, every request answered."""
    create_delay = 30.0 if when == "before_the_batch_id_came_back" else 0.0
    server = serve(batch_delay=1.5, create_delay=create_delay)
    cache = tmp_path / "cache.sqlite3"
    proc = _child(server, cache, 300)
    _kill_when(proc, lambda: server.totals["batches"] >= 1)
    server.create_delay = 0.0
    proc = _child(server, cache, 300)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    values = json.loads(out)
    assert server.totals["batches"] == 1 and server.totals["files"] == 1  # one upload
    assert len(_lines(server)) == 300 and not _online(server)
    assert values == [1 + len((f"row {i} " + "word " * (i % 7)).split()) % 5 for i in range(300)]


def test_azure_layout(serve) -> None:
    server = serve()
    endpoint = server.url.removesuffix("/v1")
    judge = JudgeClient.azure("my-batch-deployment", endpoint=endpoint, api_version="2024-10-21", api_key=SECRET,
                              cache=None, limits=NO_LIMITS, retry=FAST_RETRY, batch=FAST)  # fmt: skip
    with judge:
        run = judge.run(_requests(5))
    assert all(r.ok for r in run)
    paths = {r.path for r in _lines(server)}
    assert paths == {"/chat/completions"}  # Azure's batch lines name the operation without /v1
    assert {r.body["model"] for r in _lines(server)} == {"my-batch-deployment"}


def test_an_endpoint_without_the_batch_api_fails_each_request_with_a_clear_cause(serve, client_for) -> None:
    server = serve(batch_api=False)
    with client_for(server, batch=FAST) as judge:
        run = judge.run(_requests(3))
    assert [r.cause for r in run] == ["bad_request"] * 3
    assert "no Batch API" in run.results[0].message and not _online(server)


def test_batch_mode_from_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("RAPIDEVAL_JUDGE_BATCH", "1")
    assert JudgeClient("m", base_url="http://127.0.0.1:9/v1", cache=None).batch == BatchMode()
    monkeypatch.setenv("RAPIDEVAL_JUDGE_BATCH", "0")
    assert JudgeClient("m", base_url="http://127.0.0.1:9/v1", cache=None).batch is None
    with pytest.raises(ValueError, match="rounds"):
        BatchMode(rounds=0)
