"""The examples of Ragas's general-purpose metrics page, as shared/seeds/000 (Chinese) and 001 (Korean) give
them (the two pages hold the same code), each wrapped in a function whose arguments are the notebook's
globals (``evaluator_llm``) and whose return value is what the page prints. Only the import lines differ:
``ragas`` is ``rapideval.compat.ragas``. The tests run them on the scripted server and on the local judge."""
# ruff: noqa: E501, I001

from __future__ import annotations


async def aspect_critic(evaluator_llm):
    from rapideval.compat.ragas.dataset_schema import SingleTurnSample
    from rapideval.compat.ragas.metrics import AspectCritic

    sample = SingleTurnSample(
        user_input="Where is the Eiffel Tower located?",
        response="The Eiffel Tower is located in Paris.",
    )

    scorer =  AspectCritic(
            name="maliciousness",
            definition="Is the submission intended to harm, deceive, or exploit users?",
            llm=evaluator_llm

        )
    return await scorer.single_turn_ascore(sample)


async def discrete_metrics():
    """The three DiscreteMetric examples (clarity 0-10, quality 1-5, similarity 0-5), in the page's order."""
    from openai import AsyncOpenAI
    from rapideval.compat.ragas.llms import llm_factory
    from rapideval.compat.ragas.metrics import DiscreteMetric
    from rapideval.compat.ragas.dataset_schema import SingleTurnSample

    # Setup
    client = AsyncOpenAI()
    llm = llm_factory("gpt-4o-mini", client=client)

    # Create clarity scorer (0-10 scale)
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
        response="Machine learning is a subset of artificial intelligence that enables systems to learn from data."
    )

    result = await clarity_metric.ascore(response=sample.response, llm=llm)
    clarity = result

    # Create quality scorer with custom range (1-5)
    quality_metric = DiscreteMetric(
        name="quality",
        allowed_values=list(range(1, 6)),  # 1 to 5
        prompt="""Rate the quality of the response:
1 = Poor quality
2 = Below average
3 = Average
4 = Good
5 = Excellent

Response: {response}

Respond with only the number (1-5).""",
    )

    result = await quality_metric.ascore(response=sample.response, llm=llm)
    quality = result

    # Create similarity scorer
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
        reference="The Eiffel Tower is located in Egypt"
    )

    result = await similarity_metric.ascore(
        response=sample.response,
        reference=sample.reference,
        llm=llm
    )
    return llm, clarity, quality, result


async def rubrics_score(evaluator_llm):
    from rapideval.compat.ragas.dataset_schema import SingleTurnSample
    from rapideval.compat.ragas.metrics import RubricsScore

    sample = SingleTurnSample(
        response="The Earth is flat and does not orbit the Sun.",
        reference="Scientific consensus, supported by centuries of evidence, confirms that the Earth is a spherical planet that orbits the Sun. This has been demonstrated through astronomical observations, satellite imagery, and gravity measurements.",
    )

    rubrics = {
        "score1_description": "The response is entirely incorrect and fails to address any aspect of the reference.",
        "score2_description": "The response contains partial accuracy but includes major errors or significant omissions that affect its relevance to the reference.",
        "score3_description": "The response is mostly accurate but lacks clarity, thoroughness, or minor details needed to fully address the reference.",
        "score4_description": "The response is accurate and clear, with only minor omissions or slight inaccuracies in addressing the reference.",
        "score5_description": "The response is completely accurate, clear, and thoroughly addresses the reference without any errors or omissions.",
    }


    scorer = RubricsScore(rubrics=rubrics, llm=evaluator_llm)
    return await scorer.single_turn_ascore(sample)


def instance_rubrics(evaluator_llm):
    """Sync, as on the page: ``evaluate`` runs its own loop."""
    from rapideval.compat.ragas import evaluate
    from rapideval.compat.ragas.dataset_schema import EvaluationDataset
    from rapideval.compat.ragas.metrics import InstanceRubrics

    dataset = [
        # Relevance to Query
        {
            "user_query": "How do I handle exceptions in Python?",
            "response": "To handle exceptions in Python, use the `try` and `except` blocks to catch and handle errors.",
            "reference": "Proper error handling in Python involves using `try`, `except`, and optionally `else` and `finally` blocks to handle specific exceptions or perform cleanup tasks.",
            "rubrics": {
                "score0_description": "The response is off-topic or irrelevant to the user query.",
                "score1_description": "The response is fully relevant and focused on the user query.",
            },
        },
        # Code Efficiency
        {
            "user_query": "How can I create a list of squares for numbers 1 through 5 in Python?",
            "response": """
                # Using a for loop
                squares = []
                for i in range(1, 6):
                    squares.append(i ** 2)
                print(squares)
                    """,
            "reference": """
                # Using a list comprehension
                squares = [i ** 2 for i in range(1, 6)]
                print(squares)
                    """,
            "rubrics": {
                "score0_description": "The code is inefficient and has obvious performance issues (e.g., unnecessary loops or redundant calculations).",
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

    return result
