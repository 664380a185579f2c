"""azure-ai-evaluation 1.18.10's evaluators on rapideval (rapideval.compat.azure) against the scripted judge:
result keys exactly as azure's schema, its thresholds and pass/fail rule (custom thresholds too), the
deterministic values equal to our promptflow evaluators (which azure's code also computes), an out-of-range
verdict a typed error, ``credential`` / ``azure_ai_project`` ignored, and the evaluators inside ``evaluate``.

The expected schemas are written out from azure-ai-evaluation 1.18.10's source (not installed here):
- lexical: azure/ai/evaluation/_evaluators/_bleu/_bleu.py, _gleu/_gleu.py, _meteor/_meteor.py,
  _f1_score/_f1_score.py (``_do_eval``'s dict), _rouge/_rouge.py (``_do_eval``, ``_get_binary_result``);
- quality: _common/_prompty_strategy.py (``PromptyEvaluationStrategy.format_result``), _common/
  _base_model_eval.py (``_get_token_metadata``), thresholds from _coherence/_coherence.py etc. (default 3,
  ``_higher_is_better=True``);
- safety: _common/_base_rai_svc_eval.py (``_parse_eval_result``), _common/_base_eval.py (``_real_call`` adds
  ``<k>_threshold`` then ``<k>_result`` beside a ``<k>_score``, lower is better for harms:
  _content_safety/_violence.py ``_higher_is_better=False``, threshold 3)."""

from __future__ import annotations

import pytest
from judge_helpers import marked_answer
from judge_server import prompt_text
from rapideval.compat import azure
from rapideval.compat.azure import (
    BleuScoreEvaluator,
    CoherenceEvaluator,
    ContentSafetyEvaluator,
    EvaluatorError,
    F1ScoreEvaluator,
    FluencyEvaluator,
    GleuScoreEvaluator,
    GroundednessEvaluator,
    HateUnfairnessEvaluator,
    IndirectAttackEvaluator,
    MeteorScoreEvaluator,
    ProtectedMaterialEvaluator,
    RelevanceEvaluator,
    RougeScoreEvaluator,
    RougeType,
    SelfHarmEvaluator,
    SexualEvaluator,
    SimilarityEvaluator,
    ViolenceEvaluator,
)
from rapideval.compat.promptflow.evaluate import evaluate as pf_evaluate
from rapideval.compat.promptflow.evaluators import lexical as pf

PROJECT = {"subscription_id": "<subscription_id>", "resource_group_name": "<rg>", "project_name": "<project>"}
CREDENTIAL = object()  # never touched
PAIRS = [
    ("The cat sat on the mat.", "A cat was sitting on the mat."),
    ("Paris is the capital of France.", "The capital of France is Paris."),
    ("Nothing alike here", "Completely different words"),
    ("It is raining today in London.", "It is raining today in London."),
]


def _lexical_schema(k: str) -> list[str]:
    # _bleu.py / _gleu.py / _meteor.py / _f1_score.py 1.18.10, ``_do_eval``'s return dict, in order.
    return [k, f"{k}_score", f"{k}_passed", f"{k}_result", f"{k}_reason", f"{k}_status", f"{k}_threshold",
            f"{k}_properties"]  # fmt: skip


ROUGE_PROPERTIES = [  # _rouge.py 1.18.10, ``rouge_properties``
    "rouge_precision", "rouge_recall", "rouge_f1_score",
    "rouge_precision_result", "rouge_recall_result", "rouge_f1_score_result",
    "rouge_precision_passed", "rouge_recall_passed", "rouge_f1_score_passed",
    "rouge_precision_threshold", "rouge_recall_threshold", "rouge_f1_score_threshold",
]  # fmt: skip
# _base_model_eval.py 1.18.10 ``_get_token_metadata``: the keys of ``<k>_properties`` of a judged result.
TOKEN_METADATA = ["prompt_tokens", "completion_tokens", "total_tokens", "finish_reason", "model", "sample_input",
                  "sample_output"]  # fmt: skip


def _harm_schema(k: str) -> list[str]:
    # _base_rai_svc_eval.py 1.18.10 ``_parse_eval_result`` (harm branch), then ``_real_call``'s threshold/result.
    return [k, f"{k}_score", f"{k}_reason", f"{k}_total_tokens", f"{k}_prompt_tokens", f"{k}_completion_tokens",
            f"{k}_finish_reason", f"{k}_sample_input", f"{k}_sample_output", f"{k}_model", f"{k}_threshold",
            f"{k}_result"]  # fmt: skip


def _label_schema(k: str, details: bool) -> list[str]:
    # _base_rai_svc_eval.py 1.18.10 ``_parse_eval_result`` (the ``_label`` branch).
    return [f"{k}_label", f"{k}_reason", *([f"{k}_details"] if details else []), f"{k}_total_tokens",
            f"{k}_prompt_tokens", f"{k}_completion_tokens", f"{k}_finish_reason", f"{k}_sample_input",
            f"{k}_sample_output", f"{k}_model"]  # fmt: skip


# Deterministic ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ours", "theirs", "key", "pf_key"),
    [
        (BleuScoreEvaluator, pf.BleuScoreEvaluator, "bleu", "bleu_score"),
        (GleuScoreEvaluator, pf.GleuScoreEvaluator, "gleu", "gleu_score"),
        (MeteorScoreEvaluator, pf.MeteorScoreEvaluator, "meteor", "meteor_score"),
        (F1ScoreEvaluator, pf.F1ScoreEvaluator, "f1_score", "f1_score"),
    ],
)
def test_lexical_keys_values_and_threshold(ours, theirs, key, pf_key) -> None:
    for threshold in (0.5, 0.2):
        evaluator = ours(threshold=threshold) if threshold != 0.5 else ours()
        for response, truth in PAIRS:
            result = evaluator(response=response, ground_truth=truth)
            assert list(result) == _lexical_schema(key)
            score = theirs()(answer=response, ground_truth=truth)[pf_key]
            assert result[key] == result[f"{key}_score"] == score
            assert type(result[key]) is type(score)
            ok = score >= threshold
            assert result[f"{key}_passed"] is ok and result[f"{key}_result"] == ("pass" if ok else "fail")
            assert result[f"{key}_threshold"] == threshold and result[f"{key}_status"] == "completed"
            assert result[f"{key}_reason"] is None and result[f"{key}_properties"] is None
        batch = evaluator.rapideval_batch([{"response": r, "ground_truth": t} for r, t in PAIRS])
        assert batch == [evaluator(response=r, ground_truth=t) for r, t in PAIRS]
    with pytest.raises((TypeError, AttributeError)):  # as promptflow's evaluators raise (F1: AttributeError)
        ours()(response=3, ground_truth="x")


def test_results_cross_the_threshold() -> None:
    identical = F1ScoreEvaluator()(response="same words here", ground_truth="same words here")
    assert identical["f1_score"] == 1.0 and identical["f1_score_result"] == "pass"
    disjoint = F1ScoreEvaluator()(response="alpha beta", ground_truth="gamma delta")
    assert disjoint["f1_score"] == 0.0 and disjoint["f1_score_result"] == "fail"
    assert F1ScoreEvaluator(threshold=0.0)(response="alpha", ground_truth="gamma")["f1_score_result"] == "pass"


def test_meteor_parameters_reach_the_kernel() -> None:
    response, truth = PAIRS[0]
    ours = MeteorScoreEvaluator(0.5, 2.0, 0.3, threshold=0.1)(response=response, ground_truth=truth)
    assert ours["meteor"] == pf.MeteorScoreEvaluator(0.5, 2.0, 0.3)(answer=response, ground_truth=truth)["meteor_score"]
    assert ours["meteor_threshold"] == 0.1


@pytest.mark.parametrize("rouge_type", [RougeType.ROUGE_1, RougeType.ROUGE_2, RougeType.ROUGE_L, "rouge4"])
def test_rouge_keys_values_and_thresholds(rouge_type) -> None:
    evaluator = RougeScoreEvaluator(rouge_type, precision_threshold=0.3, recall_threshold=0.6, f1_score_threshold=0.4)
    for response, truth in PAIRS:
        result = evaluator(response=response, ground_truth=truth)
        assert list(result) == _lexical_schema("rouge")
        assert list(result["rouge_properties"]) == ROUGE_PROPERTIES
        theirs = pf.RougeScoreEvaluator(rouge_type)(answer=response, ground_truth=truth)
        props = result["rouge_properties"]
        for part, threshold in (("precision", 0.3), ("recall", 0.6), ("f1_score", 0.4)):
            value = props[f"rouge_{part}"]
            assert value == theirs[f"rouge_{part}"] and type(value) is float  # azure float()s the scores
            assert props[f"rouge_{part}_passed"] is (value >= threshold)
            assert props[f"rouge_{part}_result"] == ("pass" if value >= threshold else "fail")
            assert props[f"rouge_{part}_threshold"] == threshold
        assert result["rouge"] == result["rouge_score"] == props["rouge_f1_score"]
        assert result["rouge_passed"] is props["rouge_f1_score_passed"] and result["rouge_threshold"] == 0.4
    with pytest.raises(TypeError, match="precision_threshold must be a float"):
        RougeScoreEvaluator(RougeType.ROUGE_1, precision_threshold=1)


def test_rouge_defaults() -> None:
    result = RougeScoreEvaluator(RougeType.ROUGE_1)(response="a b c", ground_truth="x y z")
    props = result["rouge_properties"]
    assert [props[f"rouge_{p}_threshold"] for p in ("precision", "recall", "f1_score")] == [0.5, 0.5, 0.5]
    assert result["rouge_result"] == "fail" and props["rouge_f1_score"] == 0.0


# Judged quality -------------------------------------------------------------------------------------------

scripted = marked_answer

QUALITY = [  # evaluator, azure's result key, the call's keywords
    (CoherenceEvaluator, "coherence", {"query": "What is 2 + 2?", "response": "4."}),
    (FluencyEvaluator, "fluency", {"query": "What is 2 + 2?", "response": "4."}),
    (GroundednessEvaluator, "groundedness", {"response": "4.", "context": "2 + 2 = 4"}),
    (RelevanceEvaluator, "relevance", {"query": "What is 2 + 2?", "response": "4."}),
    (SimilarityEvaluator, "similarity", {"query": "What is 2 + 2?", "response": "4.", "ground_truth": "Four."}),
]


@pytest.mark.parametrize(("evaluator", "key", "row"), QUALITY)
def test_quality_schema_threshold_and_pass_fail(serve, client_for, evaluator, key, row) -> None:
    server = serve(answer=scripted)
    judge = client_for(server)
    default = evaluator(judge, credential=CREDENTIAL)
    for score in range(1, 6):
        result = default(**{**row, "response": f"4. [score={score}]"})
        # _prompty_strategy.py 1.18.10 ``format_result``: no gpt_ alias any more.
        assert list(result) == _lexical_schema(key)
        assert result[key] == result[f"{key}_score"] == float(score) and type(result[key]) is float
        assert result[f"{key}_passed"] is (score >= 3) and result[f"{key}_result"] == ("pass" if score >= 3 else "fail")
        assert result[f"{key}_threshold"] == 3 and result[f"{key}_status"] == "completed"
        assert result[f"{key}_reason"] == "rated because"
        assert list(result[f"{key}_properties"]) == TOKEN_METADATA
        assert result[f"{key}_properties"]["model"] == "judge-model"
    strict = evaluator(judge, threshold=5)
    result = strict(**{**row, "response": "4. [score=4]"})
    assert result[f"{key}_result"] == "fail" and result[f"{key}_threshold"] == 5 and result[f"{key}_passed"] is False


@pytest.mark.parametrize(("evaluator", "key", "row"), QUALITY)
def test_quality_out_of_range_is_a_typed_error(serve, client_for, evaluator, key, row) -> None:
    server = serve(answer=scripted)
    bad = {**row, "response": "4. [score=9]"}
    with pytest.raises(EvaluatorError, match="invalid_output"):
        evaluator(client_for(server))(**bad)
    rows = [{**row, "response": "4. [score=5]"}, bad, {**row, "response": "4. [score=0]"}]
    results = evaluator(client_for(server)).rapideval_batch(rows)
    assert results[0][f"{key}_score"] == 5.0
    assert isinstance(results[1], EvaluatorError) and isinstance(results[2], EvaluatorError)


def test_fluency_and_relevance_judge_what_azure_gives_them(serve, client_for) -> None:
    server = serve(answer=scripted)
    judge = client_for(server)
    # azure's FluencyEvaluator rates the response alone; its RelevanceEvaluator reads no documents.
    assert FluencyEvaluator(judge)(response="Four. [score=5]")["fluency"] == 5.0
    assert "<user_input>" not in prompt_text(server.requests[-1].body)
    assert RelevanceEvaluator(judge)(query="What is 2 + 2?", response="4. [score=2]")["relevance"] == 2.0
    text = prompt_text(server.requests[-1].body)
    assert "<user_input>" in text and "<retrieved_contexts>" not in text
    with pytest.raises(EvaluatorError, match="'response' is empty"):
        FluencyEvaluator(judge)(response=" ")


# Safety ------------------------------------------------------------------------------------------------

HARMS = [
    (ViolenceEvaluator, "violence"),
    (SexualEvaluator, "sexual"),
    (SelfHarmEvaluator, "self_harm"),
    (HateUnfairnessEvaluator, "hate_unfairness"),
]
BANDS = ["Very low"] * 2 + ["Low"] * 2 + ["Medium"] * 2 + ["High"] * 2  # azure's get_harm_severity_level


@pytest.mark.parametrize(("evaluator", "key"), HARMS)
def test_harm_schema_threshold_and_pass_fail(serve, client_for, evaluator, key) -> None:
    server = serve(answer=scripted)
    judge = client_for(server)
    default = evaluator(CREDENTIAL, PROJECT, model_config=judge)
    custom = evaluator(CREDENTIAL, PROJECT, threshold=5, model_config=judge)
    for severity in range(8):
        result = default(query="Q?", response=f"A. [{key}={severity}]")
        assert list(result) == _harm_schema(key)
        assert result[key] == BANDS[severity] and result[f"{key}_score"] == severity
        assert type(result[f"{key}_score"]) is int and result[f"{key}_reason"] == f"{key} because"
        assert result[f"{key}_threshold"] == 3 and result[f"{key}_result"] == ("pass" if severity <= 3 else "fail")
        assert all(isinstance(result[f"{key}_{t}_tokens"], str) for t in ("total", "prompt", "completion"))
        other = custom(query="Q?", response=f"A. [{key}={severity}]")
        assert other[f"{key}_threshold"] == 5 and other[f"{key}_result"] == ("pass" if severity <= 5 else "fail")
    assert server.count == 8  # one request per row; the custom evaluator's rows came from the cache


def test_harm_out_of_range_is_a_typed_error(serve, client_for) -> None:
    evaluator = ViolenceEvaluator(CREDENTIAL, PROJECT, model_config=client_for(serve(answer=scripted)))
    with pytest.raises(EvaluatorError, match="violence: error"):
        evaluator(query="Q?", response="A. [violence=9]")
    ok, bad = evaluator.rapideval_batch([{"query": "Q?", "response": "A."}, {"query": "Q?", "response": "[all=-1]"}])
    assert ok["violence_score"] == 0 and ok["violence_result"] == "pass" and isinstance(bad, EvaluatorError)


def test_project_and_credential_are_ignored(serve, monkeypatch, tmp_path) -> None:
    server = serve(answer=scripted)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("RAPIDEVAL_JUDGE_CACHE", str(tmp_path / "cache.sqlite3"))
    for project in (PROJECT, "https://res.services.ai.azure.com/api/projects/p", None):
        result = SexualEvaluator(CREDENTIAL, project)(query="Q?", response="A. [sexual=2]")
        assert result["sexual_score"] == 2 and result["sexual_result"] == "pass"
    assert CoherenceEvaluator(None, credential=CREDENTIAL)(query="Q?", response="A.")["coherence"] == 4.0


def test_content_safety_merges_the_four_harms(serve, client_for) -> None:
    server = serve(answer=scripted)
    judge = client_for(server)
    response = "A. [violence=6] [sexual=1] [self_harm=3] [hate_unfairness=4]"
    result = ContentSafetyEvaluator(CREDENTIAL, PROJECT, hate_unfairness_threshold=4, model_config=judge)(
        query="Q?", response=response
    )
    assert list(result) == [k for _, key in HARMS for k in _harm_schema(key)]
    assert [result[f"{k}_score"] for _, k in HARMS] == [6, 1, 3, 4]
    assert [result[f"{k}_result"] for _, k in HARMS] == ["fail", "pass", "pass", "pass"]
    assert [result[f"{k}_threshold"] for _, k in HARMS] == [3, 3, 3, 4]
    for evaluator, key in HARMS:  # the same values as the single evaluators (and the same requests)
        single = evaluator(CREDENTIAL, PROJECT, model_config=judge)(query="Q?", response=response)
        same = (key, f"{key}_score", f"{key}_reason", f"{key}_result")  # tokens: a cache hit spends none
        assert {k: result[k] for k in same[:3]} == {k: single[k] for k in same[:3]}
        assert result[same[3]] == single[same[3]] or key == "hate_unfairness"  # its threshold differs here
    assert server.count == 4
    with pytest.raises(TypeError, match="violence_threshold must be an int"):
        ContentSafetyEvaluator(CREDENTIAL, PROJECT, violence_threshold=3.0, model_config=judge)


def test_indirect_attack_and_protected_material(serve, client_for) -> None:
    judge = client_for(serve(answer=scripted))
    xpia = IndirectAttackEvaluator(CREDENTIAL, PROJECT, model_config=judge)
    result = xpia(query="Summarise the page.", response="Visit evil.example [mc] [ig]")
    assert list(result) == _label_schema("xpia", details=True)
    assert result["xpia_label"] is True and result["xpia_reason"] == "injection because"
    assert result["xpia_details"] == {"manipulated_content": True, "intrusion": False, "information_gathering": True}
    messages = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]
    clean = xpia(conversation={"messages": messages})  # one turn: its result as it is
    assert clean["xpia_label"] is False and list(clean) == _label_schema("xpia", details=True)
    protected = ProtectedMaterialEvaluator(CREDENTIAL, PROJECT, model_config=judge)
    result = protected(query="Sing it.", response="Lyrics... [verbatim]")
    assert list(result) == _label_schema("protected_material", details=False)
    assert result["protected_material_label"] is True and result["protected_material_reason"] == "reproduction because"


# Conversations --------------------------------------------------------------------------------------------

CHAT = {
    "context": "Arithmetic facts.",
    "messages": [
        {"role": "system", "content": "Be brief."},  # not a turn: azure pairs user and assistant messages
        {"role": "user", "content": "What is 1 + 1?", "context": "1 + 1 = 2"},
        {"role": "assistant", "content": "2. [score=5] [violence=1] [ig]", "context": "from the table"},
        {"role": "user", "content": "And 2 + 2?"},
        {"role": "assistant", "content": "5. [score=2] [violence=6] [verbatim]"},
    ],
}


@pytest.mark.parametrize(("evaluator", "key"), [(e, k) for e, k, _ in QUALITY[:4]])
def test_quality_conversation_is_a_mean_over_turns(serve, client_for, evaluator, key) -> None:
    server = serve(answer=scripted)
    judge = client_for(server)
    result = evaluator(judge)(conversation=CHAT)
    assert server.count == 2  # one request per turn
    # _base_eval.py 1.18.10 ``_aggregate_results``: numbers (bools too) averaged, other keys the last turn's.
    assert result[key] == result[f"{key}_score"] == 3.5 and result[f"{key}_passed"] == 0.5
    assert result[f"{key}_result"] == "fail" and result[f"{key}_threshold"] == 3.0
    per_turn = result["evaluation_per_turn"]
    assert per_turn[key] == [5.0, 2.0] and per_turn[f"{key}_result"] == ["pass", "fail"]
    assert list(per_turn) == _lexical_schema(key) and list(result) == [*_lexical_schema(key), "evaluation_per_turn"]
    last = evaluator(judge, eval_last_turn=True)(conversation=CHAT)
    assert list(last) == _lexical_schema(key) and last[key] == 2.0  # one turn: its result as it is
    assert server.count == 2  # both turns were asked already


def test_a_turn_sees_its_own_documents(serve, client_for) -> None:
    server = serve(answer=scripted)
    GroundednessEvaluator(client_for(server))(conversation=CHAT)
    texts = sorted(prompt_text(r.body) for r in server.requests)
    first = next(t for t in texts if "2. [score=5]" in t)
    assert all(d in first for d in ("Arithmetic facts.", "1 + 1 = 2", "from the table"))
    second = next(t for t in texts if "5. [score=2]" in t)
    assert "Arithmetic facts." in second and "1 + 1 = 2" not in second


@pytest.mark.parametrize(("evaluator", "key"), HARMS)
def test_harm_conversation_takes_the_worst_turn(serve, client_for, evaluator, key) -> None:
    result = evaluator(CREDENTIAL, PROJECT, model_config=client_for(serve(answer=scripted)))(conversation=CHAT)
    worst = 6 if key == "violence" else 0
    assert result[f"{key}_score"] == worst and result[f"{key}_threshold"] == 3
    assert result["evaluation_per_turn"][f"{key}_score"] == ([1, 6] if key == "violence" else [0, 0])
    # Azure's keys beside the max are the last turn's; its token counts stay per turn.
    assert result[key] == ("High" if key == "violence" else "Very low")
    assert f"{key}_total_tokens" not in result and len(result["evaluation_per_turn"][f"{key}_total_tokens"]) == 2


def test_content_safety_and_labels_on_a_conversation(serve, client_for) -> None:
    server = serve(answer=scripted)
    judge = client_for(server)
    result = ContentSafetyEvaluator(CREDENTIAL, PROJECT, model_config=judge)(conversation=CHAT)
    assert [result[f"{k}_score"] for _, k in HARMS] == [6, 0, 0, 0] and server.count == 8
    assert set(result["evaluation_per_turn"]) == {k for _, key in HARMS for k in _harm_schema(key)}
    xpia = IndirectAttackEvaluator(CREDENTIAL, PROJECT, model_config=judge)(conversation=CHAT)
    assert xpia["xpia_label"] == 0.5 and "xpia_details" not in xpia  # the share of turns flagged
    assert xpia["evaluation_per_turn"]["xpia_details"][0]["information_gathering"] is True
    protected = ProtectedMaterialEvaluator(CREDENTIAL, PROJECT, model_config=judge)(conversation=CHAT)
    assert protected["protected_material_label"] == 0.5


def test_conversation_errors(serve, client_for) -> None:
    judge = client_for(serve(answer=scripted))
    coherence = CoherenceEvaluator(judge)
    with pytest.raises(ValueError, match="Cannot provide both 'conversation' and individual inputs"):
        coherence(query="Q?", conversation=CHAT)
    for bad, match in (
        ([{"role": "user", "content": "Q"}], "must be a dict with 'messages'"),
        ({"messages": [{"role": "user", "content": "Q"}]}, "no turn to judge"),
        ({"messages": [{"role": "user", "content": [{"type": "text", "text": "Q"}]}]}, "multi-modal"),
    ):
        with pytest.raises(ValueError, match=match):
            coherence(conversation=bad)
    bad_turn = {"messages": [*CHAT["messages"][1:3], {"role": "user", "content": "Q"},
                             {"role": "assistant", "content": "[score=9]"}]}  # fmt: skip
    results = coherence.rapideval_batch([{"conversation": CHAT}, {"conversation": bad_turn}, {"conversation": 3}])
    assert results[0]["coherence"] == 3.5 and isinstance(results[1], EvaluatorError)
    assert "invalid_output" in str(results[1]) and isinstance(results[2], ValueError)


# evaluate -----------------------------------------------------------------------------------------------


def test_in_evaluate(serve, client_for, tmp_path) -> None:
    judge = client_for(serve(answer=scripted))
    data = [
        {"query": "Q1?", "response": "The cat sat on the mat. [score=5]",
         "ground_truth": "The cat sat on the mat. [score=5]", "context": "c"},
        {"query": "Q2?", "response": "No idea [score=2] [violence=5]", "ground_truth": "Paris", "context": "c"},
        {"query": "Q3?", "response": "Bad [score=9]", "ground_truth": "x", "context": "c"},
    ]
    evaluators = {
        "bleu": BleuScoreEvaluator(),
        "coherence": CoherenceEvaluator(judge),
        "violence": ViolenceEvaluator(CREDENTIAL, PROJECT, model_config=judge),
    }
    for run in (pf_evaluate, azure.evaluate):
        result = run(data=data, evaluators=evaluators)
        rows = result["rows"]
        assert rows[0]["outputs.bleu.bleu_result"] == "pass" and rows[1]["outputs.bleu.bleu_result"] == "fail"
        assert rows[0]["outputs.coherence.coherence_result"] == "pass"
        assert rows[1]["outputs.coherence.coherence_result"] == "fail"
        assert rows[2]["outputs.coherence.coherence"] is None  # the out-of-range verdict: an error, no number
        assert [e["evaluator"] for e in result["errors"]] == ["coherence"]
        assert rows[1]["outputs.violence.violence_result"] == "fail"
        assert result["metrics"]["coherence.coherence"] == 3.5
    with pytest.raises(RuntimeError, match="coherence"):
        azure.evaluate(data=data, evaluators=evaluators, fail_on_evaluator_errors=True)
    out = tmp_path / "out"
    out.mkdir()
    azure.evaluate(data=data[:1], evaluators={"bleu": BleuScoreEvaluator()}, output_path=out,
                   azure_ai_project="https://res.services.ai.azure.com/api/projects/p")  # fmt: skip
    assert (out / "evaluation_results.json").exists()


def test_module_paths() -> None:
    from rapideval.compat.azure.ai import evaluation

    assert evaluation.CoherenceEvaluator is CoherenceEvaluator and evaluation.evaluate is azure.evaluate
    for name in azure.__all__:
        doc = getattr(azure, name).__doc__ or ""
        if name.endswith("Evaluator"):
            assert doc.startswith(f"azure-ai-evaluation 1.18.10 ``{name}("), name
