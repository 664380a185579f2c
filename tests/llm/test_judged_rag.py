"""The RAG judged metrics against the scripted server: statements asked once per row across metrics, one
request for all contexts, votes through n, embeddings through the judge, statuses where there is nothing
to judge or the judge miscounts. The server answers a valid verdict of each request's schema (every
verdict 1; the sentences of a text as its statements) unless a test scripts otherwise."""

from __future__ import annotations

import json
import re

from judge_helpers import faults, sentences_answer
from judge_server import schema_answer
from rapideval.judged import (
    AnswerCorrectness,
    ContextEntityRecall,
    ContextPrecision,
    ContextRecall,
    ContextRelevance,
    ContextUtilization,
    FactualCorrectness,
    Faithfulness,
    NoiseSensitivity,
    ResponseRelevancy,
    SemanticSimilarity,
    score_rows,
)
from rapideval.llm.sync import run_sync

CONTEXTS = ["Paris is the capital of France.", "The Eiffel Tower is 330 m tall.", "Lyon is in France."]


def _row(i: int) -> dict:
    return {
        "user_input": f"Where is the Eiffel Tower? ({i})",
        "response": f"The Eiffel Tower is in Paris. It was built in 1889. ({i})",
        "reference": f"The Eiffel Tower stands in Paris, France. ({i})",
        "retrieved_contexts": CONTEXTS,
    }


def _user(body) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def _statement_requests(server) -> list[str]:
    """The texts whose statements were asked for."""
    texts = []
    for rec in server.requests:
        if rec.path.endswith("/chat/completions") and "break a text into statements" in json.dumps(rec.body):
            texts.append(re.search(r"<text>\n(.*)\n</text>", _user(rec.body), re.S).group(1))
    return texts


def test_statements_asked_once_per_row_across_metrics(serve, client_for) -> None:
    server = serve(answer=sentences_answer)
    judge = client_for(server)
    metrics = [Faithfulness(), NoiseSensitivity(), FactualCorrectness(), AnswerCorrectness()]
    rows = [_row(i) for i in range(100)]
    results = run_sync(lambda: score_rows(metrics, rows, judge=judge), judge)
    assert all(r.status == "ok" for row in results for r in row), [r.reason for row in results for r in row][:4]
    asked = _statement_requests(server)
    for row in rows:  # each text of each row: exactly once, whichever metrics need it
        assert asked.count(row["response"]) == 1 and asked.count(row["reference"]) == 1
    assert len(asked) == 200
    chats = [r for r in server.requests if r.path.endswith("/chat/completions")]
    # Per row: 2 statements + Faithfulness 1 + NoiseSensitivity 2 matrices + response-vs-reference support
    # (shared by NoiseSensitivity and FactualCorrectness) + FactualCorrectness reference-vs-response + the
    # AnswerCorrectness classification = 8, where Ragas makes 2 + 11 + 4 + 3 = 20 with 3 contexts.
    assert len(chats) == 800
    calls = server.count
    again = run_sync(lambda: score_rows(metrics, rows, judge=judge), judge)
    assert server.count == calls  # the rerun reads everything from the cache
    assert [[r.value for r in row] for row in again] == [[r.value for r in row] for row in results]
    # Every verdict 1 and two statements per text: faithful, no noise, fully correct.
    assert [r.value for r in results[0][:3]] == [1.0, 0.0, 1.0]
    assert 0.75 <= results[0][3].value <= 1.0


def test_context_precision_one_request_for_all_contexts(serve, client_for) -> None:
    server = serve(answer=lambda body, i: json.dumps({"reason": "r", "verdicts": [1, 0, 1]}))
    judge = client_for(server)
    precision = ContextPrecision().score(**_row(0), judge=judge)
    assert server.count == 1 and _user(server.requests[0].body).count("<context>") == 3
    # Ragas's average precision: (1/1 * 1 + 2/3 * 1) / (2 + 1e-10)
    assert precision.value == (1.0 + 2 / 3) / (2 + 1e-10) and precision.details["verdicts"] == [1, 0, 1]
    utilization = ContextUtilization().score(**_row(0), judge=judge)
    assert utilization.status == "ok" and "<response>" in _user(server.requests[1].body)
    assert utilization.signature.startswith("context_utilization|prompt:")


def test_a_miscounted_verdict_list_is_an_error_never_a_shorter_denominator(serve, client_for) -> None:
    server = serve(answer=lambda body, i: json.dumps({"reason": "r", "verdicts": [1, 1]}))
    result = ContextPrecision().score(**_row(0), judge=client_for(server))
    assert result.status == "error" and result.cause == "invalid_output" and result.value is None
    assert server.count == 2  # one repair re-ask


def test_nothing_to_judge_is_not_applicable(serve, client_for) -> None:
    def answer(body, i):
        if "break a text into statements" in json.dumps(body):
            return json.dumps({"statements": []})
        return schema_answer(body, i)

    server = serve(answer=answer)
    judge = client_for(server)
    row = {**_row(0), "response": "I cannot say."}
    for metric in (Faithfulness(), NoiseSensitivity("irrelevant"), FactualCorrectness(mode="precision")):
        result = metric.score(**row, judge=judge)
        assert result.status == "not_applicable" and result.value is None, (metric.name, result.reason)
    assert AnswerCorrectness(weights=[1.0, 0.0]).score(**row, judge=judge).value == 1.0  # Ragas: no statements
    empty = Faithfulness().score(response="x", retrieved_contexts=[], judge=judge)
    assert empty.status == "not_applicable" and empty.reason == "'retrieved_contexts' is empty"


def test_response_relevancy_votes_and_embeddings(serve, client_for) -> None:
    server = serve(answer=lambda body, i: json.dumps({"question": f"Where is it {i}?", "noncommittal": 0}))
    judge = client_for(server)
    result = ResponseRelevancy(strictness=3).score(**_row(0), judge=judge)
    chats = [r for r in server.requests if r.path.endswith("/chat/completions")]
    embeds = [r for r in server.requests if r.path.endswith("/embeddings")]
    assert len(chats) == 1 and chats[0].body["n"] == 3 and chats[0].body["temperature"] >= 0.3
    assert len(embeds) == 1 and embeds[0].body["input"][0] == _row(0)["user_input"]
    assert result.status == "ok" and -1.0 <= result.value <= 1.0 and len(result.details["questions"]) == 3


def test_semantic_similarity_and_retrieval_metrics(serve, client_for) -> None:
    server = serve(answer=schema_answer)
    judge = client_for(server)
    same = SemanticSimilarity().score(reference="Paris.", response="Paris.", judge=judge)
    assert abs(same.value - 1.0) < 1e-12  # not clamped, as Ragas's cosine is not
    assert SemanticSimilarity(threshold=0.5).score(reference="Paris.", response="Paris.", judge=judge).value == 1.0
    assert ContextRecall().score(**_row(0), judge=judge).value == 1.0
    assert ContextRelevance().score(**_row(0), judge=judge).value == 1.0
    entity = ContextEntityRecall().score(**_row(0), judge=judge)
    assert entity.status == "ok" and entity.value == 2 / (2 + 1e-8)


def test_seed_suite_under_faults_then_rerun(serve, client_for, tmp_path) -> None:
    """The seed-002 suite (context precision, faithfulness, answer relevancy, context recall) over many rows
    against 20 % 429, 5 % 5xx and 5 % malformed replies: no row lost, every row ok or an error with a cause,
    and the rerun asks only for what failed. 1,000 rows here; RAPIDEVAL_FAULT_ROWS=10000 for the full run."""
    import os
    from collections import Counter

    from rapideval.llm import Limits, RetryPolicy

    n = int(os.environ.get("RAPIDEVAL_FAULT_ROWS", "1000"))
    server = serve(script=faults(31), answer=sentences_answer, record=False)
    rows = [_row(i) for i in range(n)]
    metrics = [ContextPrecision(), Faithfulness(), ResponseRelevancy(), ContextRecall()]
    limits = Limits(rpm=None, tpm=None, concurrency=64, timeout=10.0)
    retry = RetryPolicy(max_attempts=6, base_delay=0.002, max_delay=0.01, max_retry_after=0.01)
    cache = tmp_path / "c.sqlite3"
    with client_for(server, cache=cache, limits=limits, retry=retry) as judge:
        first = run_sync(lambda: score_rows(metrics, rows, judge=judge), judge)
    assert len(first) == n and all([r.row for r in row] == [i] * 4 for i, row in enumerate(first))  # none lost
    cells = [r for row in first for r in row]
    assert all(r.status == "ok" or (r.status == "error" and r.cause and r.reason) for r in cells)
    assert sum(r.status == "ok" for r in cells) >= 0.98 * len(cells)
    failed = sum(r.status != "ok" for r in cells)
    calls_before = server.count
    with client_for(server, cache=cache, limits=limits, retry=retry) as judge:
        again = run_sync(lambda: score_rows(metrics, rows, judge=judge), judge)
    # Only what failed is asked again: at most a failed cell's stages (2), each with its retries and one
    # re-ask; an embedding batch may hold many rows' texts, but all of them were cached or failed together.
    assert server.count - calls_before <= 2 * 14 * failed + 10
    for before, after in zip(first, again, strict=True):
        for b, a in zip(before, after, strict=True):
            if b.status == "ok":
                assert a.value == b.value and a.usage.calls == 0
    print(f"\n{n} rows x 4 metrics: {len(cells) - failed} ok, {failed} errors "
          f"{dict(Counter(r.cause for r in cells if r.cause))}; the rerun made {server.count - calls_before} calls")
