"""Votes: k verdicts through n=k in one request where the endpoint honours n, else k requests (remembered),
combined by the Rust vote kernel."""

from __future__ import annotations

import itertools
import json
import statistics
import threading

from judge_helpers import Rating, Verdict
from judge_server import Reply
from rapideval.llm import JudgeFailure, JudgeRequest, JudgeResult, Sampling

ASK = [{"role": "user", "content": "judge it"}]
HOT = Sampling(temperature=0.8)


def _verdict(passed: bool) -> str:
    return json.dumps({"reason": "r", "passed": passed})


def test_votes_in_one_request_with_n(serve, client_for) -> None:
    # Choice i passes unless i is a multiple of 3: votes F T T F T -> True, 3 of 5.
    server = serve(answer=lambda body, i: _verdict(i % 3 != 0))
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Verdict, field="passed", votes=5, sampling=HOT)
    assert isinstance(result, JudgeResult)
    assert result.value is True and result.agreement == 0.6 and len(result.verdicts) == 5
    assert server.count == 1 and server.requests[0].body["n"] == 5


def test_numeric_votes_mean_and_median(serve, client_for) -> None:
    scores = [5, 1, 2, 2, 4]
    server = serve(answer=lambda body, i: json.dumps({"score": scores[i]}))
    with client_for(server) as judge:
        mean = judge.judge(ASK, schema=Rating, field="score", votes=5, sampling=HOT)
        median = judge.judge(ASK, schema=Rating, field="score", votes=5, sampling=HOT, combine="median")
        majority = judge.judge(ASK, schema=Rating, field="score", votes=5, sampling=HOT, combine="majority")
    assert mean.value == statistics.mean(scores) and mean.agreement is None
    assert median.value == statistics.median(scores)
    assert majority.value == 2 and majority.agreement == 0.4


def test_votes_fall_back_to_separate_requests_and_remember(serve, client_for) -> None:
    counter = itertools.count()
    lock = threading.Lock()

    def answer(body, i):
        with lock:
            k = next(counter)
        return _verdict(k % 4 != 1)  # the 2nd reply fails: T F T T T

    server = serve(honour_n=False, answer=answer)
    with client_for(server, cache=None) as judge:
        first = judge.judge(ASK, schema=Verdict, field="passed", votes=5, sampling=HOT)
        second = judge.judge(ASK, schema=Verdict, field="passed", votes=3, sampling=HOT)
    assert isinstance(first, JudgeResult) and first.value is True and first.agreement == 0.8
    ns = [r.body.get("n") for r in server.requests]
    # One n=5 request that returned 1 choice, then 4 single ones; later calls skip n altogether.
    assert ns == [5, None, None, None, None, None, None, None]
    assert second.usage.calls == 3 and len(second.verdicts) == 3


def test_a_failed_vote_is_left_out(serve, client_for) -> None:
    def script(rec):
        if rec.body.get("n") == 3:
            return Reply(contents=[_verdict(True), "not json", _verdict(False)])
        return Reply(contents=["still not json"])  # the repair of the bad vote

    server = serve(script=script)
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Verdict, field="passed", votes=3, sampling=HOT, combine="majority")
    assert isinstance(result, JudgeResult) and result.votes_failed == 1 and len(result.verdicts) == 2
    # A 1-1 tie: the kernel's "lowest" rule picks False.
    assert result.value is False and result.agreement == 0.5


def test_all_votes_failed_is_a_failure(serve, client_for) -> None:
    server = serve(script=lambda rec: Reply(contents=["nope"] * (rec.body.get("n") or 1)))
    with client_for(server) as judge:
        result = judge.judge(ASK, schema=Verdict, field="passed", votes=2, sampling=HOT)
    assert isinstance(result, JudgeFailure) and result.cause == "invalid_output"
    assert result.attempts == 3  # the n=2 call and one repair per vote


def test_text_votes_by_majority(serve, client_for) -> None:
    server = serve(answer=lambda body, i: ["yes", "no", "yes"][i])
    with client_for(server) as judge:
        run = judge.run([JudgeRequest(0, "m", ASK, votes=3, sampling=HOT)])
    assert run[0].value == "yes" and abs(run[0].agreement - 2 / 3) < 1e-15
