"""rapideval.evaluate with judged metrics beside deterministic ones, against the scripted judge: one run of the
judge per chunk, values on 0-1 (a 1-5 rating r is (r - 1) / 4, a 0-7 severity s is s / 7), a failed verdict an
error row with its cause, the run going on, and a resumed or repeated run asking nothing again."""

from __future__ import annotations

import pytest
from judge_helpers import marked_answer

import rapideval
from rapideval.judged import Coherence

ROWS = [
    {"id": "a", "question": "What is 2 + 2?", "answer": "4. [score=5] [violence=0]", "ground_truth": "4."},
    {"id": "b", "question": "What is 3 + 3?", "answer": "6. [score=2] [violence=7]", "ground_truth": "6."},
    {"id": "c", "question": "What is 4 + 4?", "answer": "8. [score=9]", "ground_truth": "8."},  # out of range
    {"id": "d", "question": None, "answer": "10. [score=4]", "ground_truth": "10."},  # no question
]


def test_judged_and_deterministic_metrics_in_one_run(serve, client_for, tmp_path) -> None:
    server = serve(answer=marked_answer)
    judge = client_for(server)
    output = tmp_path / "out.parquet"
    result = rapideval.evaluate(ROWS, ["f1", "coherence", "violence"], judge=judge, output=output)
    table = result.to_arrow().to_pylist()
    assert [r["coherence"] for r in table] == [1.0, 0.25, None, None]
    assert [r["coherence.status"] for r in table] == ["ok", "ok", "error", "not_applicable"]
    assert table[2]["coherence.cause"] == "invalid_output" and "no 'user_input'" in table[3]["coherence.reason"]
    assert table[0]["coherence.reason"] == "rated because"  # the judge's reason, kept when ok
    assert [r["violence"] for r in table[:2]] == [0.0, 1.0]
    # The v1 columns are read as the response and the reference.
    f1 = rapideval.f1([r["answer"] for r in ROWS], [r["ground_truth"] for r in ROWS])
    assert [r["f1"] for r in table] == f1.tolist()
    assert [r["id"] for r in table] == ["a", "b", "c", "d"]
    assert result.summary["violence"].higher_is_better is False
    assert result.summary["coherence"].errors_by_cause == {"invalid_output": 1}
    assert result.signatures["coherence"].startswith("coherence|prompt:") and "|model:judge-model|" in \
        result.signatures["coherence"]
    assert result.usage["judge"]["calls"] == server.count > 0
    asked = server.count
    # The same call reads the finished output back; a new output is scored from the judge's cache, but for the
    # failed verdict, asked again (with its repair re-ask).
    again = rapideval.evaluate(ROWS, ["f1", "coherence", "violence"], judge=judge, output=output)
    assert again.summary == result.summary and server.count == asked
    other = rapideval.evaluate(ROWS, ["coherence", "violence"], judge=judge, output=tmp_path / "other.jsonl")
    assert other.to_arrow().column("coherence").to_pylist() == [1.0, 0.25, None, None] and server.count == asked + 2


def test_metric_objects_and_names(serve, client_for) -> None:
    judge = client_for(serve(answer=marked_answer))
    rows = [{"user_input": "Q?", "response": "A. [score=3]"}]
    result = rapideval.evaluate(rows, [Coherence(name="coherence_v2"), "aspect_harmfulness"], judge=judge)
    assert result.to_arrow().column("coherence_v2").to_pylist() == [0.5]
    assert result.summary["aspect_harmfulness"].higher_is_better is False
    with pytest.raises(ValueError, match="two metrics named \\['coherence'\\]"):
        rapideval.evaluate(rows, ["coherence", Coherence()], judge=judge)


def test_a_lone_surrogate_in_a_judged_field_is_that_row_s_error_and_nothing_is_sent_for_it(serve, client_for) -> None:
    server = serve(answer=marked_answer)
    rows = [{"id": "a", "question": "What is 2 + 2?", "answer": "4. [score=5]", "ground_truth": "4."},
            {"id": "b", "question": "What \ud800 is 3 + 3?", "answer": "6. [score=2]", "ground_truth": "6."},
            {"id": "c", "question": "What is 4 + 4?", "answer": "8. \udfff [score=3]", "ground_truth": "8."}]
    table = rapideval.evaluate(rows, ["coherence", "f1"], judge=client_for(server)).to_arrow().to_pylist()
    assert [r["coherence.status"] for r in table] == ["ok", "error", "error"]
    assert [r["coherence.cause"] for r in table] == [None, "invalid_input", "invalid_input"]
    assert table[1]["coherence.reason"] == "row 1, column 'question': string is not valid Unicode (lone surrogate)"
    assert table[2]["coherence.reason"] == "row 2, column 'answer': string is not valid Unicode (lone surrogate)"
    assert [r["f1.status"] for r in table] == ["ok", "ok", "error"]
    assert server.count == 1, "only the readable row is judged"


def test_every_registry_name_is_the_column_it_yields(serve, client_for) -> None:
    import json

    def answer(body, choice):
        if body["response_format"]["json_schema"]["name"] == "_Binary":
            return json.dumps({"reason": "meets it", "verdict": 1})
        return marked_answer(body, choice)

    server = serve(answer=answer)
    rows = [{"id": "a", "question": "What is 2 + 2?", "answer": "4. [score=5]", "ground_truth": "4."}]
    result = rapideval.evaluate(rows, ["coherence", "aspect_coherence"], judge=client_for(server))
    table = result.to_arrow().to_pylist()
    assert (table[0]["coherence"], table[0]["aspect_coherence"]) == (1.0, 1.0)
    assert set(result.summary) == {"coherence", "aspect_coherence"}
    ter = rapideval.evaluate([{"response": "a b", "reference": "a c"}], ["ter", "bleu"])
    assert (ter.summary["ter"].higher_is_better, ter.summary["bleu"].higher_is_better) == (False, True)
