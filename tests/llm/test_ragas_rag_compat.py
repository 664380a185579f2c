"""The Ragas RAG examples (shared/seeds/002 and 004, ragas_rag_seed_examples.py) with only their import lines
changed, against the scripted server, plus what the drop-in adds for them: v1 column names, ``column_map``,
Ragas's default judge from the environment, the module-level metric instances. test_local_judge runs the
same examples on a real model."""

from __future__ import annotations

import asyncio
import math

import pytest
import ragas_rag_seed_examples as examples
from judge_helpers import sentences_answer
from openai import AsyncOpenAI
from rapideval.compat.ragas import evaluate
from rapideval.compat.ragas.llms import llm_factory
from rapideval.compat.ragas.metrics import answer_similarity, context_recall, faithfulness


@pytest.fixture
def environment(serve, monkeypatch, tmp_path):
    server = serve(answer=sentences_answer)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("RAPIDEVAL_JUDGE_CACHE", str(tmp_path / "cache.sqlite3"))
    return server


def test_fiqa_evaluate_example(environment) -> None:
    result = examples.fiqa_evaluate(examples.load_fiqa())
    names = ["context_precision", "faithfulness", "answer_relevancy", "context_recall"]
    assert result.names == names and repr(result).startswith("{'context_precision': ")
    assert result.counts() == {n: {"ok": 3, "not_applicable": 0, "error": 0} for n in names}
    for row in result.scores:
        assert all(isinstance(v, float) and not math.isnan(v) for v in row.values())
        assert 0 <= row["faithfulness"] <= 1 and 0 <= row["context_precision"] <= 1
    frame = result.to_pandas()
    assert list(frame["user_input"])[0].startswith("How to deposit a cheque")  # v1 "question"
    assert frame["reference"][0].startswith("Have the check reissued")  # "ground_truths" joined


def test_noise_sensitivity_examples(environment) -> None:
    relevant, irrelevant, sync = asyncio.run(examples.noise_sensitivity_collections())
    for result in (relevant, irrelevant, sync):
        assert result.status == "ok" and 0.0 <= result.value <= 1.0 and result.metric == "noise_sensitivity"
    assert relevant.value == 0.0  # the scripted judge supports every statement: nothing is incorrect
    evaluator_llm = llm_factory("gpt-4o-mini", client=AsyncOpenAI())

    async def legacy():
        try:
            return await examples.noise_sensitivity_legacy(evaluator_llm)
        finally:
            await evaluator_llm.aclose_connections()

    assert asyncio.run(legacy()) == (0.0, 0.0)  # the second scorer, without llm, judges by the environment


def test_column_map_and_instances(environment) -> None:
    rows = [
        {"q": "Where is the Eiffel Tower?", "a": "It is in Paris. It is tall.", "ctx": ["Paris has a tower."],
         "gt": "The Eiffel Tower is in Paris."},
    ]  # fmt: skip
    column_map = {"user_input": "q", "response": "a", "retrieved_contexts": "ctx", "reference": "gt"}
    result = evaluate(rows, [faithfulness, context_recall, answer_similarity], column_map=column_map)
    assert result.counts()["faithfulness"]["ok"] == 1 and result.scores[0]["context_recall"] == 1.0
    assert -1.0 <= result.scores[0]["answer_similarity"] <= 1.0
    with pytest.raises(TypeError, match="embeddings must be a JudgeClient"):
        evaluate(rows, [faithfulness], column_map=column_map, embeddings=object())
