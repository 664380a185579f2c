"""The examples of the Ragas general-purpose metrics page (shared/seeds/000, 001) with only their import lines
changed (``ragas`` -> ``rapideval.compat.ragas``), against the scripted server: the documented types and
ranges. The judge there answers each request with a valid verdict of its schema."""

from __future__ import annotations

import asyncio

import pytest
from judge_helpers import schema_answer
from judge_server import Reply
from openai import AsyncOpenAI
from rapideval.compat.ragas import MetricError, evaluate
from rapideval.compat.ragas.dataset_schema import EvaluationDataset, SingleTurnSample
from rapideval.compat.ragas.llms import llm_factory
from rapideval.compat.ragas.metrics import AspectCritic, DiscreteMetric, InstanceRubrics, RubricsScore


def run(judge, example):
    """``asyncio.run`` of a seed example, closing the judge's connections of that loop at its end (a
    notebook's loop outlives them; a test's does not)."""

    async def main():
        try:
            return await example()
        finally:
            await judge.aclose_connections()

    return asyncio.run(main())


@pytest.fixture
def evaluator_llm(serve, monkeypatch, tmp_path):
    server = serve(answer=schema_answer)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("RAPIDEVAL_JUDGE_CACHE", str(tmp_path / "cache.sqlite3"))
    return llm_factory("gpt-4o-mini", client=AsyncOpenAI())


def test_aspect_critic_example(evaluator_llm) -> None:
    async def example():
        sample = SingleTurnSample(
            user_input="Where is the Eiffel Tower located?",
            response="The Eiffel Tower is located in Paris.",
        )

        scorer = AspectCritic(
            name="maliciousness",
            definition="Is the submission intended to harm, deceive, or exploit users?",
            llm=evaluator_llm,
        )
        return await scorer.single_turn_ascore(sample)

    assert run(evaluator_llm, example) in (0, 1)


def test_discrete_metric_examples(evaluator_llm) -> None:
    llm = llm_factory("gpt-4o-mini", client=AsyncOpenAI())

    async def example():
        clarity_metric = DiscreteMetric(
            name="clarity",
            allowed_values=list(range(0, 11)),  # 0 to 10
            prompt="""Rate the clarity of the response on a scale of 0-10.
0 = Very unclear, confusing
5 = Moderately clear
10 = Perfectly clear and easy to understand

Response: {response}

Respond with only the number (0-10).""",
        )
        sample = SingleTurnSample(
            user_input="Explain machine learning",
            response="Machine learning is a subset of artificial intelligence that enables systems to learn from data.",
        )
        clarity = await clarity_metric.ascore(response=sample.response, llm=llm)
        similarity_metric = DiscreteMetric(
            name="similarity",
            allowed_values=list(range(0, 6)),  # 0 to 5
            prompt="""Rate the similarity between response and reference on a scale of 0-5:
0 = Completely different
3 = Somewhat similar
5 = Identical meaning

Reference: {reference}
Response: {response}

Respond with only the number (0-5).""",
        )
        sample = SingleTurnSample(
            user_input="Where is the Eiffel Tower located?",
            response="The Eiffel Tower is located in Paris.",
            reference="The Eiffel Tower is located in Egypt",
        )
        similarity = await similarity_metric.ascore(response=sample.response, reference=sample.reference, llm=llm)
        return clarity, similarity

    clarity, similarity = run(llm, example)
    assert clarity.value in range(0, 11) and isinstance(clarity.reason, str)
    assert similarity.value in range(0, 6)


def test_rubrics_score_example(evaluator_llm) -> None:
    async def example():
        sample = SingleTurnSample(
            response="The Earth is flat and does not orbit the Sun.",
            reference="Scientific consensus, supported by centuries of evidence, confirms that the Earth is a "
            "spherical planet that orbits the Sun.",
        )
        rubrics = {f"score{n}_description": f"Level {n} of accuracy against the reference." for n in range(1, 6)}
        scorer = RubricsScore(rubrics=rubrics, llm=evaluator_llm)
        return await scorer.single_turn_ascore(sample)

    assert run(evaluator_llm, example) in range(1, 6)


def test_instance_rubrics_example(evaluator_llm) -> None:
    dataset = [
        {
            "user_query": "How do I handle exceptions in Python?",
            "response": "To handle exceptions in Python, use the `try` and `except` blocks to catch and handle errors.",
            "reference": "Proper error handling in Python involves using `try`, `except`, and optionally `else` and "
            "`finally` blocks to handle specific exceptions or perform cleanup tasks.",
            "rubrics": {
                "score0_description": "The response is off-topic or irrelevant to the user query.",
                "score1_description": "The response is fully relevant and focused on the user query.",
            },
        },
        {
            "user_query": "How can I create a list of squares for numbers 1 through 5 in Python?",
            "response": "squares = []\nfor i in range(1, 6):\n    squares.append(i ** 2)\nprint(squares)",
            "reference": "squares = [i ** 2 for i in range(1, 6)]\nprint(squares)",
            "rubrics": {
                "score0_description": "The code is inefficient and has obvious performance issues.",
                "score1_description": "The code is efficient, optimized, and performs well even with larger inputs.",
            },
        },
    ]

    evaluation_dataset = EvaluationDataset.from_list(dataset)

    result = evaluate(
        dataset=evaluation_dataset,
        metrics=[InstanceRubrics(llm=evaluator_llm)],
        llm=evaluator_llm,
    )
    assert repr(result) == "{'instance_rubrics': 1.0000}"  # the test judge answers the last level
    assert result.scores == [{"instance_rubrics": 1}, {"instance_rubrics": 1}]
    assert list(result.to_pandas()["instance_rubrics"]) == [1, 1]
    assert result.counts() == {"instance_rubrics": {"ok": 2, "not_applicable": 0, "error": 0}}


def test_nothing_to_judge_and_judge_failures_are_not_nan(serve, evaluator_llm) -> None:
    critic = AspectCritic("maliciousness", "Is it meant to harm?", llm=evaluator_llm)
    with pytest.raises(MetricError, match="not_applicable") as info:
        run(evaluator_llm, lambda: critic.single_turn_ascore(SingleTurnSample(user_input="no response")))
    assert info.value.result.value is None
    dataset = EvaluationDataset.from_list([{"response": "fine"}, {"user_input": "no response"}])
    result = evaluate(dataset, [critic])
    assert result.scores[1] == {"maliciousness": None}
    assert result.counts()["maliciousness"] == {"ok": 1, "not_applicable": 1, "error": 0}
    down = serve(script=lambda rec: Reply(status=401))
    failing = llm_factory("m", client=AsyncOpenAI(base_url=down.url))
    broken = AspectCritic("maliciousness", "Is it meant to harm?", llm=failing)
    with pytest.raises(MetricError, match=r"error \(auth\)"):
        broken.single_turn_score(SingleTurnSample(response="x"))
