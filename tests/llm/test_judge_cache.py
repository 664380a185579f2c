"""The SQLite cache: reruns make no calls for what succeeded, failures are retried, keys cover what
determines a reply, and a kill -9 loses only the calls in flight."""

from __future__ import annotations

import os
import pathlib
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
import rapideval
from judge_helpers import Rating
from judge_server import Reply, prompt_text
from rapideval.llm import JudgeCache, JudgeRequest, Sampling

HERE = pathlib.Path(__file__).resolve().parent


def _rows(n: int) -> list[JudgeRequest]:
    return [
        JudgeRequest(i, "m", [{"role": "user", "content": f"row {i} " + "w " * i}], Rating, "score") for i in range(n)
    ]


def test_rerun_makes_no_calls_for_what_succeeded(serve, client_for, tmp_path) -> None:
    server = serve(
        script=lambda rec: Reply(status=400) if prompt_text(rec.body).startswith("row 3 ") and rec.index < 8 else None
    )
    path = tmp_path / "c.sqlite3"
    with client_for(server, cache=path) as judge:
        first = judge.run(_rows(8))
    assert [r.ok for r in first] == [True, True, True, False, True, True, True, True]
    assert server.count == 8
    with client_for(server, cache=path) as judge:
        second = judge.run(_rows(8))
    # Only the failed row is asked again; the others come from the cache with the same values.
    assert server.count == 9 and prompt_text(server.requests[-1].body).startswith("row 3 ")
    assert all(r.ok for r in second)
    assert [r.cached for r in second] == [True, True, True, False, True, True, True, True]
    assert [r.value for r in second] == [1 + (2 + i) % 5 for i in range(8)]
    assert second.usage.cache_hits == 7 and second.usage.calls == 1


def test_key_covers_model_messages_sampling_schema_and_votes(serve, client_for) -> None:
    server = serve()
    ask = [{"role": "user", "content": "same"}]
    with client_for(server) as judge:
        judge.judge(ask, schema=Rating)
        judge.judge(ask, schema=Rating)  # hit
        judge.judge(ask, schema=Rating, sampling=Sampling(temperature=0.5))
        judge.judge(ask, schema=Rating, model="other-model")
        judge.judge(ask)  # no schema
        judge.judge(ask, schema=Rating, field="score", votes=2, sampling=Sampling(temperature=0.5))
        judge.judge([{"role": "user", "content": "different"}], schema=Rating)
        judge.judge(ask, schema=Rating)  # hit
    assert server.count == 6


def test_cache_can_be_disabled(serve, client_for, tmp_path) -> None:
    server = serve()
    with client_for(server, cache=None) as judge:
        judge.judge([{"role": "user", "content": "a"}])
        judge.judge([{"role": "user", "content": "a"}])
    assert server.count == 2 and judge.cache is None
    assert not list(tmp_path.iterdir())


def test_wal_mode_and_a_changed_schema_validation(serve, client_for, tmp_path) -> None:
    path = tmp_path / "c.sqlite3"
    server = serve(answer=lambda body, i: '{"score": 4}')
    with client_for(server, cache=path) as judge:
        judge.judge([{"role": "user", "content": "a"}], schema=Rating)
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT count(*) FROM chat").fetchone()[0] == 1
    finally:
        db.close()
    cache = JudgeCache(path)
    assert len(cache) == 1
    cache.close()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["kill-9", "ctrl-c"])
def test_kill_half_way_then_rerun_from_the_cache(serve, tmp_path, sig) -> None:
    rows, concurrency = 120, 4
    server = serve(latency=0.02)
    path = tmp_path / "c.sqlite3"
    cmd = [sys.executable, str(HERE / "evaluate_rows.py"), server.url, str(path), str(rows), str(concurrency)]
    # The child imports the same rapideval as this process (an installed wheel in CI, python/ in development).
    env = {**os.environ, "PYTHONPATH": str(pathlib.Path(rapideval.__file__).resolve().parents[1])}
    stderr = tmp_path / "child.stderr"
    with open(stderr, "wb") as err:
        child = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 30
        done = 0
        while done < rows // 2 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.005)
            if path.exists():
                db = sqlite3.connect(path, timeout=5)
                try:
                    done = db.execute("SELECT count(*) FROM chat").fetchone()[0]
                except sqlite3.OperationalError:
                    done = 0  # the child is still creating the tables
                finally:
                    db.close()
        assert child.poll() is None, f"the evaluation ended before the signal: {stderr.read_text()}"
        child.send_signal(sig)
    finally:
        child.wait()
    # Ctrl-C: asyncio.run cancels the tasks in flight and the interpreter exits by SIGINT.
    assert child.returncode == -sig
    first_run = {prompt_text(r.body) for r in server.requests}
    db = sqlite3.connect(path)
    try:
        cached = db.execute("SELECT count(*) FROM chat").fetchone()[0]
    finally:
        db.close()
    assert rows // 2 <= cached < rows
    # What the server answered but the child did not store is at most what was in flight.
    assert len(first_run) - cached <= concurrency

    seen = server.count
    rerun = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    second_run = [prompt_text(r.body) for r in server.requests[seen:]]
    lines = rerun.stdout.split()
    assert len(lines) == rows and all(line.endswith(("cached", "fresh")) for line in lines)
    from_cache = [line.split(":")[0] for line in lines if line.endswith("cached")]
    assert len(from_cache) == cached
    # Every finished result came from the cache: no row was asked twice, and only the rest were asked.
    assert len(second_run) == len(set(second_run)) == rows - cached
    assert not set(second_run) & {f"row {i}" for i in from_cache}
    assert all(line.split(":")[1] == "ok" for line in lines)


def _unusable_files(path: pathlib.Path) -> list[pathlib.Path]:
    return sorted(path.parent.glob(path.name + ".unusable-*"))


@pytest.mark.parametrize("content", [b"not a database at all\n" * 100, b""], ids=["garbage", "empty"])
def test_a_file_that_is_not_a_cache_is_moved_aside(serve, client_for, tmp_path, caplog, content) -> None:
    path = tmp_path / "cache.sqlite3"
    path.write_bytes(content)
    server = serve()
    with client_for(server, cache=path) as judge:
        run = judge.run(_rows(5))
        again = judge.run(_rows(5))
    assert all(r.ok for r in run) and all(r.cached for r in again)  # a fresh cache took its place
    moved = _unusable_files(path)
    if content:
        assert [m.read_bytes() for m in moved] == [content]  # kept, byte for byte
        assert "moved to" in caplog.text and str(path) in caplog.text


def test_a_corrupt_cache_is_moved_aside_and_the_run_goes_on(serve, client_for, tmp_path, caplog) -> None:
    path = tmp_path / "cache.sqlite3"
    server = serve()
    with client_for(server, cache=path) as judge:
        assert all(r.ok for r in judge.run(_rows(200)))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] + b"\xff" * 4096 + data[len(data) // 2 + 4096 :])
    with client_for(server, cache=path) as judge:
        run = judge.run(_rows(200))
    assert all(r.ok for r in run)
    assert "judge cache" in caplog.text


def test_a_foreign_sqlite_database_is_never_written_to(serve, client_for, tmp_path) -> None:
    path = tmp_path / "app.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE users (name TEXT)")
        db.execute("INSERT INTO users VALUES ('ada')")
    before = path.read_bytes()
    server = serve()
    with client_for(server, cache=path) as judge:
        assert all(r.ok for r in judge.run(_rows(3)))
    assert [m.read_bytes() for m in _unusable_files(path)] == [before]


def test_a_path_that_cannot_be_a_cache_means_no_cache_said_once(serve, client_for, tmp_path, caplog) -> None:
    path = tmp_path / "a-directory"
    path.mkdir()
    server = serve()
    with client_for(server, cache=path) as judge:
        run = judge.run(_rows(5))
        again = judge.run(_rows(5))
    assert all(r.ok for r in run) and not any(r.cached for r in again)
    assert caplog.text.count("running without a cache") == 1
    assert path.is_dir() and not any(path.iterdir())
