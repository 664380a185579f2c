"""Signatures tell the truth: for every judged metric and options drawn by hypothesis, two configurations (the
metric's options, the judge's model, temperature and embedding model) give the same request part of the
signature exactly when they send the same requests, compared on the scripted server's log; the options that
change only the value (weights, thresholds, modes read after the verdicts) change the signature's ``options``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from judge_helpers import FAST_RETRY, NO_LIMITS, SECRET
from judge_server import JudgeServer, schema_answer
from rapideval import judged as j
from rapideval.judged import parse_signature
from rapideval.llm import JudgeClient, Sampling

RUBRIC = {f"score{n}_description": f"level {n} of the rubric" for n in (1, 2, 3)}
ROWS: list[dict[str, Any]] = [
    {
        "user_input": "What is the capital of France?",
        "response": "Paris is the capital of France. It lies on the Seine.",
        "reference": "The capital of France is Paris.",
        "retrieved_contexts": ["Paris is the capital and largest city of France.", "The Seine flows through Paris."],
        "reference_contexts": ["Paris is the capital of France."],
        "rubrics": RUBRIC,
    },
    {"user_input": "Name a prime number.", "response": "Seven."},
    {
        "user_input": [
            {"role": "user", "content": "Book a table for two."},
            {"role": "assistant", "content": "Done: a table for two at eight."},
        ],
        "rubrics": RUBRIC,
    },
    {
        "user_input": "Book a table for two at eight.",
        "response": "Booked: a table for two at eight.",
        "tool_calls": [{"name": "book_table", "arguments": {"people": 2, "time": "20:00"}}],
        "tool_definitions": [{"name": "book_table", "description": "Books a table.",
                              "parameters": {"people": "int", "time": "str"}}],
    },
]

# Per metric: its constructor and a strategy of its options (small sets, so that equal draws are frequent).
TEXTS = st.sampled_from(["Is the response correct?", "Is the response polite?"])
METRICS: dict[str, tuple[Callable[..., Any], st.SearchStrategy[dict[str, Any]]]] = {
    "AspectCritic": (j.AspectCritic, st.fixed_dictionaries(
        {"name": st.sampled_from(["a", "b"]), "definition": TEXTS, "strictness": st.integers(1, 3)})),
    "SimpleCriteriaScore": (j.SimpleCriteriaScore, st.fixed_dictionaries(
        {"name": st.just("s"), "definition": TEXTS, "strictness": st.integers(1, 2)})),
    "DiscreteMetric": (j.DiscreteMetric, st.fixed_dictionaries(
        {"name": st.just("d"), "allowed_values": st.sampled_from([("pass", "fail"), ("yes", "no")]),
         "prompt": st.sampled_from(["Is {response} right?", "Does {response} answer {user_input}?"])})),
    "NumericMetric": (j.NumericMetric, st.fixed_dictionaries(
        {"name": st.just("n"), "allowed_values": st.sampled_from([(0, 1), (0, 10)]),
         "prompt": st.just("Rate {response}.")})),
    "RankingMetric": (j.RankingMetric, st.fixed_dictionaries(
        {"name": st.just("r"), "allowed_values": st.sampled_from([2, 3]),
         "prompt": st.just("Rank the contexts {retrieved_contexts}.")})),
    "RubricsScore": (j.RubricsScore, st.fixed_dictionaries(
        {"rubrics": st.sampled_from([None, RUBRIC]), "with_reference": st.sampled_from([None, True, False])})),
    "InstanceRubrics": (j.InstanceRubrics, st.just({})),
    "Faithfulness": (j.Faithfulness, st.just({})),
    "ResponseRelevancy": (j.ResponseRelevancy, st.fixed_dictionaries({"strictness": st.integers(1, 3)})),
    "SemanticSimilarity": (j.SemanticSimilarity, st.fixed_dictionaries({"threshold": st.sampled_from([None, 0.5])})),
    "AnswerCorrectness": (j.AnswerCorrectness, st.fixed_dictionaries(
        {"weights": st.sampled_from([(0.75, 0.25), (1.0, 0.0), (0.5, 0.5)]), "beta": st.sampled_from([1.0, 2.0])})),
    "FactualCorrectness": (j.FactualCorrectness, st.fixed_dictionaries(
        {"mode": st.sampled_from(["precision", "recall", "f1"]), "beta": st.sampled_from([1.0, 2.0]),
         "atomicity": st.sampled_from(["low", "high"]), "coverage": st.sampled_from(["low", "high"])})),
    "NoiseSensitivity": (j.NoiseSensitivity, st.fixed_dictionaries({"mode": st.sampled_from(["relevant", "irrelevant"])})),
    "ContextPrecision": (j.ContextPrecision, st.just({})),
    "ContextUtilization": (j.ContextUtilization, st.just({})),
    "ContextRecall": (j.ContextRecall, st.just({})),
    "ContextEntityRecall": (j.ContextEntityRecall, st.just({})),
    "ContextRelevance": (j.ContextRelevance, st.just({})),
    "Coherence": (j.Coherence, st.just({})),
    "Fluency": (j.Fluency, st.fixed_dictionaries({"with_user_input": st.booleans()})),
    "Groundedness": (j.Groundedness, st.just({})),
    "Relevance": (j.Relevance, st.fixed_dictionaries({"with_retrieved_contexts": st.booleans()})),
    "Similarity": (j.Similarity, st.just({})),
    "Retrieval": (j.Retrieval, st.just({})),
    "Violence": (j.Violence, st.just({})),
    "IndirectAttack": (j.IndirectAttack, st.just({})),
    "ProtectedMaterial": (j.ProtectedMaterial, st.just({})),
    "ResponseCompleteness": (j.ResponseCompleteness, st.just({})),
    "IntentResolution": (j.IntentResolution, st.just({})),
    "TaskAdherence": (j.TaskAdherence, st.just({})),
    "ToolCallAccuracy": (j.ToolCallAccuracy, st.just({})),
}  # fmt: skip
JUDGES = st.fixed_dictionaries({
    "model": st.sampled_from(["judge-a", "judge-b"]),
    "temperature": st.sampled_from([0.0, 0.5, 0.8]),
    "embedding_model": st.sampled_from(["embed-a", "embed-b"]),
})  # fmt: skip


@pytest.fixture(scope="module")
def server() -> Iterator[JudgeServer]:
    with JudgeServer(answer=schema_answer) as s:
        yield s


def _run(server: JudgeServer, kind: str, options: dict[str, Any], judge: dict[str, Any]) -> tuple[str, list[str]]:
    """The metric's signature and the bodies it sent for ROWS (sorted: the order of concurrent requests varies)."""
    make, _ = METRICS[kind]
    seen = len(server.requests)
    sampling = Sampling(temperature=judge["temperature"])
    with JudgeClient(judge["model"], api_key=SECRET, base_url=server.url, cache=None, limits=NO_LIMITS,
                     retry=FAST_RETRY, sampling=sampling, embedding_model=judge["embedding_model"]) as client:  # fmt: skip
        metric = make(**options)
        results = metric.batch_score([dict(r) for r in ROWS], judge=client)
        signature = metric.signature(client)
    # The scripted server's replies may be out of a metric's range (a 3 for a 0-1 number): an error after a
    # repair re-ask, which both configurations send alike. Nothing else may fail.
    assert all(r.cause in (None, "invalid_output") for r in results), [(r.reason, r.cause) for r in results]
    assert {r.signature for r in results} == {signature}
    sent = [json.dumps(r.body, sort_keys=True) for r in server.requests[seen:]]
    return signature, sorted(sent)


def _requests_part(signature: str) -> dict[str, str]:
    parts = parse_signature(signature)
    return {k: v for k, v in parts.items() if k not in ("name", "options", "rapideval")}


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_equal_signatures_exactly_when_equal_requests(server: JudgeServer, data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(sorted(METRICS)), label="metric")
    options = data.draw(st.lists(METRICS[kind][1], min_size=2, max_size=2), label="options")
    judges = data.draw(st.lists(JUDGES, min_size=2, max_size=2), label="judges")
    (sig_a, sent_a), (sig_b, sent_b) = (_run(server, kind, o, g) for o, g in zip(options, judges, strict=True))
    event(f"the same requests: {sent_a == sent_b}")
    assert (sent_a == sent_b) == (_requests_part(sig_a) == _requests_part(sig_b)), (sig_a, sig_b)
    if sent_a == sent_b and options[0] == options[1]:
        assert sig_a == sig_b


def _temp_and_votes(server: JudgeServer, metric: Any, temperature: float) -> tuple[dict[str, str], list[Any]]:
    seen = len(server.requests)
    with JudgeClient("judge-a", api_key=SECRET, base_url=server.url, cache=None, limits=NO_LIMITS, retry=FAST_RETRY,
                     sampling=Sampling(temperature=temperature)) as client:  # fmt: skip
        result = metric.score(**ROWS[0], judge=client)
    sent = [(r.body.get("temperature"), r.body.get("n", 1)) for r in server.requests[seen:] if "messages" in r.body]
    return parse_signature(result.signature), sent


def test_votes_state_the_temperature_they_are_sent_at(server: JudgeServer) -> None:
    """Before: AspectCritic(strictness=3) stated temp:0.0 and sent 0.7; ResponseRelevancy stated 0.0 and sent 0.3."""
    parts, sent = _temp_and_votes(server, j.AspectCritic("a", "Is it right?", strictness=3), 0.0)
    assert sent == [(0.7, 3)] and (parts["temp"], parts["votes"]) == ("0.7", "3")
    parts, sent = _temp_and_votes(server, j.ResponseRelevancy(strictness=3), 0.0)
    assert sent == [(0.3, 3)] and (parts["temp"], parts["votes"]) == ("0.3", "3")
    parts, sent = _temp_and_votes(server, j.AspectCritic("a", "Is it right?", strictness=3), 0.9)
    assert sent == [(0.9, 3)] and parts["temp"] == "0.9"
    parts, _ = _temp_and_votes(server, j.Faithfulness(), 0.0)
    assert (parts["temp"], parts["votes"]) == ("0.0", "1")


def test_signature_format_parses_back() -> None:
    judge = JudgeClient("m", base_url="http://127.0.0.1:9/v1", api_key=SECRET, cache=None)
    parts = parse_signature(j.AnswerCorrectness().signature(judge))
    assert list(parts) == ["name", "prompt", "model", "endpoint", "embed", "temp", "votes", "options", "rapideval"]
    assert parts["name"] == "answer_correctness" and parts["model"] == "m" and parts["embed"] == judge.embedding_model
    assert list(parse_signature(j.ExactMatch().signature())) == ["name", "options", "rapideval"]
    for bad in ("", "bleu", "x|prompt:1", "x|colour:red|rapideval:1", "x|rapideval:1|rapideval:2"):
        with pytest.raises(ValueError, match="not a rapideval signature"):
            parse_signature(bad)
