"""rapideval.compat.azure against azure-ai-evaluation 1.18.10's own code: its ``evaluate`` run for real (in
process, offline) with its deterministic evaluators gives the same rows and metrics as ours; its aggregation
(``_aggregate_metrics``) of our judged evaluators' rows gives our metrics; its per-turn aggregation
(``EvaluatorBase._aggregate_results``) of turn outputs gives ours."""

from __future__ import annotations

import json
import math
import random
import types
import warnings
from typing import Any

import nltk
import numpy as np
import pandas as pd
import pytest
from judge_helpers import marked_answer

from rapideval.compat import azure
from rapideval.compat.azure._conversation import aggregate_turns, mean

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # azure's imports warn (deprecations in its dependencies)
    import azure.ai.evaluation as real
    from azure.ai.evaluation._common.math import list_mean
    from azure.ai.evaluation._evaluate._evaluate import _aggregate_metrics
    from azure.ai.evaluation._evaluators._common._base_eval import EvaluatorBase

WORDS = "the a cat dog sat on mat rug capital of France Paris is was it in today London raining".split()


def _pairs(n: int, seed: int) -> list[dict[str, str]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        truth = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12)))
        response = " ".join(w if rng.random() < 0.6 else rng.choice(WORDS) for w in truth.split())
        rows.append({"response": response + rng.choice(["", ".", "!"]), "ground_truth": truth})
    return rows


def _evaluators(module: Any) -> dict[str, Any]:
    return {
        "bleu": module.BleuScoreEvaluator(threshold=0.3),
        "gleu": module.GleuScoreEvaluator(),
        "meteor": module.MeteorScoreEvaluator(alpha=0.8),
        "f1": module.F1ScoreEvaluator(threshold=0.6),
        "rouge": module.RougeScoreEvaluator(module.RougeType.ROUGE_L, f1_score_threshold=0.4),
    }


def _same(ours: Any, theirs: Any) -> bool:
    """Equal values, NaN (azure's missing value) as None, floats bit for bit."""
    if isinstance(theirs, float) and math.isnan(theirs):
        theirs = None
    if isinstance(theirs, np.floating):  # a numpy result of azure's: the same double
        theirs = float(theirs)
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return ours.keys() == theirs.keys() and all(_same(ours[k], theirs[k]) for k in ours)
    return type(ours) is type(theirs) and ours == theirs


@pytest.mark.filterwarnings("ignore")  # azure's run emits warnings of its dependencies
def test_evaluate_equals_azures_on_deterministic_evaluators(tmp_path, capsys, monkeypatch) -> None:
    # azure tries to download NLTK's old 'punkt' package on every call; nltk 3.10 reads 'punkt_tab' (present),
    # and offline each attempt waits on the network.
    monkeypatch.setattr(nltk, "download", lambda *args, **kwargs: False)
    rows = _pairs(120, seed=7) + [
        # azure tokenizes any non-ASCII text with NIST's tokenizer (promptflow 0.3.5 keeps Latin-1 for nltk's)
        {"response": "日本語です。", "ground_truth": "日本語"},
        {"response": "Ça va très bien, merci !", "ground_truth": "Très bien, merci."},
    ]
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    ours = azure.evaluate(data=str(path), evaluators=_evaluators(azure))
    theirs = real.evaluate(data=str(path), evaluators=_evaluators(real))
    capsys.readouterr()  # azure prints its run summaries
    assert len(ours["rows"]) == len(theirs["rows"]) == 122
    for mine, reference in zip(ours["rows"], theirs["rows"], strict=True):
        assert list(mine) == list(reference)
        assert all(_same(mine[k], reference[k]) for k in mine), mine
    assert list(ours["metrics"]) == list(theirs["metrics"])
    assert all(_same(ours["metrics"][k], theirs["metrics"][k]) for k in ours["metrics"])
    assert ours["metrics"]["bleu.binary_aggregate"] == theirs["metrics"]["bleu.binary_aggregate"] > 0


def _frame(result: dict[str, Any]) -> pd.DataFrame:
    """Our rows' output columns as azure's DataFrame of evaluator results holds them (None: NaN)."""
    return pd.DataFrame([{k: v for k, v in row.items() if k.startswith("outputs.")} for row in result["rows"]])


def test_azures_aggregation_of_judged_rows_equals_ours(serve, client_for) -> None:
    judge = client_for(serve(answer=marked_answer))
    turns = {"messages": [
        {"role": "user", "content": "Q1"}, {"role": "assistant", "content": "A [score=2] [ig]"},
        {"role": "user", "content": "Q2"}, {"role": "assistant", "content": "B [violence=5]"},
    ]}  # fmt: skip
    data = [
        {"query": "Q?", "response": "Fine. [score=5]"},
        {"query": "Q?", "response": "Harsh. [score=2] [violence=4] [all=1] [mc] [verbatim]"},
        {"query": "Q?", "response": "Bad verdict [score=9] [violence=9]"},  # errors: no outputs
        {"query": "Q?", "response": "Meh. [score=3] [hate_unfairness=6] [intr]"},
        {"conversation": turns},
    ]
    evaluators = {
        "coherence": azure.CoherenceEvaluator(judge),
        "fluency": azure.FluencyEvaluator(judge, threshold=4),
        "safety": azure.ContentSafetyEvaluator(None, None, model_config=judge),
        "violence": azure.ViolenceEvaluator(None, None, model_config=judge),
        "xpia": azure.IndirectAttackEvaluator(None, None, model_config=judge),
        "protected": azure.ProtectedMaterialEvaluator(None, None, model_config=judge),
    }
    ours = azure.evaluate(data=data, evaluators=evaluators)
    assert [e["evaluator"] for e in ours["errors"]] == ["coherence", "fluency", "safety", "violence"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = _aggregate_metrics(_frame(ours), evaluators)
    assert list(ours["metrics"]) == list(theirs)
    assert all(_same(ours["metrics"][k], theirs[k]) for k in theirs), (ours["metrics"], theirs)
    # Three passes (the conversation's last turn among them) of five rows: azure counts the failed row.
    assert ours["metrics"]["coherence.binary_aggregate"] == 0.6
    assert ours["rows"][4]["outputs.coherence.evaluation_per_turn.coherence"] == [2.0, 4.0]


@pytest.mark.parametrize("aggregate", ["mean", "max"])
def test_turns_aggregate_as_azures(serve, client_for, aggregate) -> None:
    judge = client_for(serve(answer=marked_answer))
    if aggregate == "mean":
        evaluator, theirs_fn = azure.CoherenceEvaluator(judge), list_mean
    else:
        evaluator, theirs_fn = azure.ContentSafetyEvaluator(None, None, model_config=judge), max
    per_turn = [evaluator(query=f"Q{i}", response=f"A [score={s}] [all={v}] [mc]")
                for i, (s, v) in enumerate([(5, 1), (2, 6), (3, 2)])]  # fmt: skip
    reference = EvaluatorBase._aggregate_results(types.SimpleNamespace(_conversation_aggregation_function=theirs_fn),
                                                 per_turn)  # fmt: skip
    ours = aggregate_turns(per_turn, mean if aggregate == "mean" else max)
    assert list(ours) == list(reference) and all(_same(ours[k], reference[k]) for k in ours)
