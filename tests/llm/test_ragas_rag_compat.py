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


def test_column_map_with_v1_names(environment) -> None:
    rows = [{"q": "Where is the Eiffel Tower?", "a": "It is in Paris.", "ctx": ["Paris has a tower."],
             "gts": ["The Eiffel Tower is in Paris.", "It is tall."]}]  # fmt: skip
    column_map = {"question": "q", "answer": "a", "contexts": "ctx", "ground_truths": "gts"}
    result = evaluate(rows, [faithfulness, context_recall], column_map=column_map)
    assert result.counts()["faithfulness"]["ok"] == 1 and result.counts()["context_recall"]["ok"] == 1
    assert result.dataset[0].reference == "The Eiffel Tower is in Paris.\nIt is tall."


def test_embeddings_through_their_own_client(serve, environment, tmp_path) -> None:
    from rapideval.compat.ragas.metrics import AnswerCorrectness, ResponseRelevancy

    embedder_server = serve(answer=sentences_answer)
    row = {"user_input": "Where is the Eiffel Tower?", "response": "It is in Paris.",
           "reference": "The Eiffel Tower is in Paris."}  # fmt: skip
    with (
        llm_factory("gpt-4o-mini", base_url=embedder_server.url, api_key="sk-test", embedding_model="embed-other",
                    cache=tmp_path / "e.sqlite3") as embedder,
        llm_factory("gpt-4o-mini", cache=tmp_path / "j.sqlite3") as judge,
    ):  # fmt: skip
        result = evaluate([row], [ResponseRelevancy(), answer_similarity], llm=judge, embeddings=embedder)
        assert all(r.status == "ok" for r in result.results[0])
        assert "|embed:embed-other|" in result.results[0][0].signature
        paths = lambda server: {r.path.rsplit("/", 1)[-1] for r in server.requests}  # noqa: E731
        assert paths(embedder_server) == {"embeddings"} and paths(environment) == {"completions"}
        # A metric's own embeddings come before evaluate's; without either, the judge embeds.
        own = AnswerCorrectness(embeddings=embedder)
        assert own.embeddings is embedder and "|embed:embed-other|" in own.score(**row, llm=judge).signature
        assert "|embed:text-embedding-3-small|" in AnswerCorrectness().score(**row, llm=judge).signature
        with pytest.raises(TypeError, match="embeddings must be a JudgeClient"):
            own.embeddings = "text-embedding-3-small"


def test_collections_only_names(environment) -> None:
    from judge_server import prompt_text
    from rapideval.compat.ragas.metrics import collections as c

    row = {"user_input": "Where is the Eiffel Tower?", "response": "It is in Paris.",
           "reference": "The Eiffel Tower is in Paris, France.",
           "retrieved_contexts": ["Paris has a tower."]}  # fmt: skip
    with llm_factory("gpt-4o-mini") as llm:
        with_reference = c.RubricsScoreWithReference(llm=llm)
        assert with_reference.name == "rubrics_score_with_reference"
        assert with_reference.score(**row).status == "ok"
        assert "Paris, France" in prompt_text(environment.requests[-1].body)
        no_reference = {k: v for k, v in row.items() if k != "reference"}
        assert with_reference.score(**no_reference).status == "not_applicable"
        without = c.RubricsScoreWithoutReference(llm=llm)
        assert without.score(**row).status == "ok"
        assert "Paris, France" not in prompt_text(environment.requests[-1].body)
        assert c.DomainSpecificRubrics(llm=llm).with_reference is False
        for metric in (c.ContextPrecisionWithReference(llm=llm), c.ContextPrecisionWithoutReference(llm=llm)):
            assert metric.name.startswith("context_precision_with") and metric.score(**row).status == "ok"
        rubrics = {"score1_description": "wrong", "score2_description": "right"}
        instance = c.InstanceSpecificRubrics(llm=llm).score(**row, rubrics=rubrics)
        assert instance.metric == "instance_specific_rubrics" and instance.value in (1, 2)
