"""Issue 5 acceptance: 2,000 judge calls against a faulty endpoint (20% 429, 5% 5xx, 5% malformed JSON,
2% hangs past the timeout): every row ends as a value or a typed failure, and a rerun makes no call for
the rows that succeeded."""

from __future__ import annotations

import json
import math
import random
import threading
import time

from judge_helpers import Rating
from judge_server import Reply
from rapideval.llm import JudgeFailure, JudgeRequest, JudgeResult, Limits, RetryPolicy

ROWS = 2000
# A hang outlasts the client's timeout; the timeout is far above a normal reply's latency even on a busy
# CI machine (where replies took up to 0.27 s, so a 0.3 s timeout failed healthy calls).
TIMEOUT = 1.5
HANG = 2.5


def _faulty():
    rng = random.Random(5)
    lock = threading.Lock()
    tally = {"429": 0, "5xx": 0, "malformed": 0, "hang": 0, "ok": 0}

    def script(rec):
        with lock:
            x = rng.random()
            kind = (
                "429" if x < 0.20 else "5xx" if x < 0.25 else "malformed" if x < 0.30 else "hang" if x < 0.32 else "ok"
            )
            tally[kind] += 1
        if kind == "429":
            return Reply(status=429, headers={"retry-after-ms": "5"})
        if kind == "5xx":
            return Reply(status=500 if x < 0.225 else 503)
        if kind == "malformed":
            return Reply(contents=['{"score": 3, "reason": "unfinished'])
        if kind == "hang":
            return Reply(delay=HANG)
        return None

    return script, tally


def _expected(i: int) -> int:
    return 1 + len(_prompt(i).split()) % 5


def _answer(body, choice):
    # Scored from the first user message, so a repair re-ask is answered for the same row.
    first = next(m["content"] for m in body["messages"] if m["role"] == "user")
    return json.dumps({"score": 1 + len(first.split()) % 5})


def _prompt(i: int) -> str:
    return f"row {i}" + " w" * (i % 7)


def test_two_thousand_calls_with_faults_then_rerun(serve, client_for, tmp_path) -> None:
    script, tally = _faulty()
    server = serve(script=script, answer=_answer)
    path = tmp_path / "c.sqlite3"
    limits = Limits(rpm=None, tpm=None, concurrency=64, timeout=TIMEOUT)
    retry = RetryPolicy(max_attempts=6, base_delay=0.005, max_delay=0.05, max_retry_after=0.05)
    reqs = [JudgeRequest(i, "score", [{"role": "user", "content": _prompt(i)}], Rating, "score") for i in range(ROWS)]
    started = time.monotonic()
    with client_for(server, cache=path, limits=limits, retry=retry) as judge:
        run = judge.run(reqs)
    elapsed = time.monotonic() - started

    assert len(run) == ROWS and [r.row for r in run] == list(range(ROWS))  # 0 rows lost, in order
    ok = [r for r in run if isinstance(r, JudgeResult)]
    failed = [r for r in run if isinstance(r, JudgeFailure)]
    assert len(ok) + len(failed) == ROWS
    for r in ok:
        assert r.value == _expected(r.row) and not (isinstance(r.value, float) and math.isnan(r.value))
    for f in failed:
        assert f.cause in ("rate_limit", "server_error", "timeout", "invalid_output") and f.attempts >= 1
    assert len(ok) >= 0.99 * ROWS
    # The faults were really there, and retries and repairs covered them.
    assert tally["429"] > 300 and tally["5xx"] > 60 and tally["malformed"] > 60 and tally["hang"] > 20
    assert run.usage.retries >= tally["429"] + tally["5xx"] + tally["hang"] - 10 * len(failed)
    # Calls that timed out before the server read them count on our side only.
    assert server.count <= run.usage.calls
    print(
        f"\n{ROWS} rows, {server.count} calls, {elapsed:.1f} s; faults {tally}; failures",
        [(f.cause, f.attempts) for f in failed],
    )

    seen = server.count
    with client_for(server, cache=path, limits=limits, retry=retry) as judge:
        rerun = judge.run(reqs)
    asked = {r.body["messages"][0]["content"] for r in server.requests[seen:]}
    assert asked <= {_prompt(f.row) for f in failed}  # 0 new calls for the rows that succeeded
    assert all(r.cached for r in rerun if r.row in {o.row for o in ok})
    assert [r.value for r in rerun if r.ok and r.cached] == [r.value for r in ok]
