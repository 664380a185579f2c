"""The progress bar: on stderr, only when asked for or on a terminal, and only for runs over a second."""

from __future__ import annotations

from rapideval.llm import JudgeRequest, Limits


def _reqs(n: int) -> list[JudgeRequest]:
    return [JudgeRequest(i, "m", [{"role": "user", "content": f"r{i}"}]) for i in range(n)]


def test_bar_shows_after_a_second(serve, client_for, capfd) -> None:
    server = serve(latency=0.4)
    with client_for(server, limits=Limits(rpm=None, tpm=None, concurrency=1)) as judge:
        run = judge.run(_reqs(4), progress=True)
    assert all(r.ok for r in run)
    err = capfd.readouterr().err
    assert "4/4" in err and "req" in err


def test_no_bar_for_short_runs_or_without_a_terminal(serve, client_for, capfd) -> None:
    server = serve()
    with client_for(server) as judge:
        judge.run(_reqs(4), progress=True)  # well under a second
        assert capfd.readouterr().err == ""
    server.latency = 0.3
    with client_for(server, limits=Limits(rpm=None, tpm=None, concurrency=1)) as judge:
        judge.run(_reqs(5))  # stderr is not a terminal under pytest
    assert capfd.readouterr().err == ""
