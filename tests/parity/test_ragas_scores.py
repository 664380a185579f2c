"""Scoring parity of the LLM-judged RAG metrics (rapideval.judged.rag / .retrieval) with ragas 0.4.3's own
scoring code, on the same verdicts.

No LLM is involved: for every metric, verdict sets are generated with a fixed seed (numpy Generator) plus
edge cases (no statements, no contexts where the function accepts it, all 1, all 0, exactly one item or
context, ties), and each set goes both to our pure ``*_score`` function (and, where the verdicts map through
it, to the metric's ``value`` on stand-in judge results) and to the ragas method that turns verdicts into the
score, wrapped in ragas's own pydantic types where that method takes them:

========================  ============================================================================
ours                      ragas 0.4.3
========================  ============================================================================
faithfulness_score        Faithfulness()._compute_score(NLIStatementOutput([StatementFaithfulnessAnswer]))
average_precision         LLMContextPrecisionWithReference()._calculate_average_precision([Verification])
context_recall_score      LLMContextRecall()._compute_score([ContextRecallClassification])
context_entity_recall_..  ContextEntityRecall()._compute_score(reference_entities, context_entities)
context_relevance_score   ContextRelevance().average_scores(process_score(r0), process_score(r1))
answer_relevancy_score    ResponseRelevancy(embeddings=fixed vectors)._calculate_score([ResponseRelevanceOutput])
semantic_similarity_...   SemanticSimilarity(embeddings=fixed vectors, threshold=t)._ascore(row)
answer_correctness_score  AnswerCorrectness()._compute_statement_presence(ClassificationWithReason) and the
                          final combination of AnswerCorrectness._ascore (copied verbatim: it needs an LLM)
factual_correctness_...   FactualCorrectness(mode, beta)._single_turn_ascore with the instance's
                          decompose_and_verify_claims replaced by the generated verdict arrays
noise_sensitivity_score   NoiseSensitivity(mode)._compute_score({retrieved2ground_truth, ...})
========================  ============================================================================

Comparisons are exact (``==``) where both sides do the same float operations in the same order. The two
embedding metrics compare within 1e-12: our cosine is a Rust kernel whose summation order differs from
numpy's ``dot`` / ``norm``. Where ragas gives NaN (nothing to score: no statements), our metrics give
``not_applicable`` and our pure function would divide by zero: there the test asserts ragas's NaN and the
metric's NotApplicable, skips our function, and counts the case.

Importing ragas's metric modules by path (as here) raises no warning under pytest's ``filterwarnings =
["error"]``, so nothing is filtered module-wide; the two places where ragas itself warns (numpy's empty mean,
a zero norm) silence that one RuntimeWarning locally. Run with ``-s`` to see the counts per test.
"""

from __future__ import annotations

import asyncio
import math
import warnings
from collections import Counter
from types import SimpleNamespace
from typing import Any, cast

import numpy as np
import pytest
from ragas.dataset_schema import SingleTurnSample as RagasSample
from ragas.metrics._answer_correctness import AnswerCorrectness as RagasAnswerCorrectness
from ragas.metrics._answer_correctness import ClassificationWithReason, StatementsWithReason
from ragas.metrics._answer_relevance import ResponseRelevanceOutput
from ragas.metrics._answer_relevance import ResponseRelevancy as RagasResponseRelevancy
from ragas.metrics._answer_similarity import SemanticSimilarity as RagasSemanticSimilarity
from ragas.metrics._context_entities_recall import ContextEntityRecall as RagasContextEntityRecall
from ragas.metrics._context_precision import LLMContextPrecisionWithReference as RagasContextPrecision
from ragas.metrics._context_precision import Verification
from ragas.metrics._context_recall import ContextRecallClassification
from ragas.metrics._context_recall import LLMContextRecall as RagasContextRecall
from ragas.metrics._factual_correctness import FactualCorrectness as RagasFactualCorrectness
from ragas.metrics._faithfulness import Faithfulness as RagasFaithfulness
from ragas.metrics._faithfulness import NLIStatementOutput, StatementFaithfulnessAnswer
from ragas.metrics._noise_sensitivity import NoiseSensitivity as RagasNoiseSensitivity
from ragas.metrics._nv_metrics import ContextRelevance as RagasContextRelevance
from rapideval.judged.base import NotApplicable
from rapideval.judged.rag import (
    AnswerCorrectness,
    FactualCorrectness,
    Faithfulness,
    NoiseSensitivity,
    ResponseRelevancy,
    SemanticSimilarity,
    answer_correctness_score,
    answer_relevancy_score,
    factual_correctness_score,
    faithfulness_score,
    noise_sensitivity_score,
    semantic_similarity_score,
)
from rapideval.judged.retrieval import (
    ContextEntityRecall,
    ContextPrecision,
    ContextRecall,
    ContextRelevance,
    average_precision,
    context_entity_recall_score,
    context_recall_score,
    context_relevance_score,
)

N = 600  # generated verdict sets per metric (per mode), before the edge cases
MIN_COMPARED = 500  # sets per metric (per mode) that must be compared with ragas's value
EMBEDDING_TOL = 1e-12  # absolute; our cosine is a Rust kernel, ragas's numpy dot / norm: summation order differs


def _report(name: str, counts: Counter) -> None:
    """One line per test (shown with ``-s`` or ``-rP``): what was compared, exactly or within tolerance."""
    print(f"\n{name}: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))


# Stand-ins for the judge results our metrics' ``value`` reads --------------------------------------------


def _statements(items: list[str]) -> Any:
    return SimpleNamespace(verdicts=[SimpleNamespace(statements=list(items))])


def _support(verdicts: list[int]) -> Any:
    return SimpleNamespace(verdicts=[SimpleNamespace(verdicts=[SimpleNamespace(verdict=int(v)) for v in verdicts])])


def _matrix(statements_by_context: np.ndarray) -> Any:
    """A support_by_context reply: contexts x statements (the metric transposes it)."""
    return SimpleNamespace(verdicts=[SimpleNamespace(contexts=np.asarray(statements_by_context, int).T.tolist())])


# Generators ----------------------------------------------------------------------------------------------


def _bits(rng: np.random.Generator, n: int) -> list[int]:
    """n verdicts 0/1 with a random share of 1s (so all-0 and all-1 sets come up as well as mixed ones)."""
    p = rng.choice([0.0, 1.0, rng.uniform()], p=[0.1, 0.1, 0.8])
    return (rng.random(n) < p).astype(int).tolist()


VERDICT_EDGES: list[list[int]] = [
    [], [0], [1], [0, 0], [1, 1], [0, 1], [1, 0], [1, 0, 1], [0, 1, 0], [0, 0, 1], [1, 1, 0],
    [1] * 5, [0] * 5, [1] * 20, [0] * 20, [1, 0] * 10, [0, 1] * 10, [1] * 19 + [0], [0] * 19 + [1],
]  # fmt: skip


def _verdict_sets(seed: int, max_len: int = 20) -> tuple[list[list[int]], int]:
    """Edge cases then N random sets of length 0..max_len; also returns the number of edge cases."""
    rng = np.random.default_rng(seed)
    drawn = [_bits(rng, int(rng.integers(0, max_len + 1))) for _ in range(N)]
    return VERDICT_EDGES + drawn, len(VERDICT_EDGES)


def _shape_counts(sets: list[list[int]]) -> Counter:
    return Counter(
        "empty" if not s else "single" if len(s) == 1 else "all_1" if all(s) else "all_0" if not any(s) else "mixed"
        for s in sets
    )


# Faithfulness, context precision, context recall ------------------------------------------------------


def test_faithfulness_matches_ragas_compute_score():
    ragas = RagasFaithfulness()
    metric = Faithfulness()
    sets, edges = _verdict_sets(101)
    counts = Counter(edge_cases=edges, **{f"shape_{k}": v for k, v in _shape_counts(sets).items()})
    for verdicts in sets:
        statements = [f"statement {i}" for i in range(len(verdicts))]
        theirs = ragas._compute_score(
            NLIStatementOutput(
                statements=[
                    StatementFaithfulnessAnswer(statement=s, reason="r", verdict=v)
                    for s, v in zip(statements, verdicts)
                ]
            )
        )
        if not verdicts:  # ragas: NaN (no statements); ours: not_applicable, the pure function is not called
            assert math.isnan(theirs)
            with pytest.raises(NotApplicable):
                metric.value({}, {"statements": _statements([])})
            counts["nan_not_applicable_skipped"] += 1
            continue
        assert faithfulness_score(verdicts) == theirs, verdicts
        assert metric.value({}, {"statements": _statements(statements), "support": _support(verdicts)})[0] == theirs, verdicts
        counts["exact"] += 1
    _report("faithfulness", counts)
    assert counts["exact"] >= MIN_COMPARED and counts["nan_not_applicable_skipped"] >= 1


def test_context_precision_matches_ragas_average_precision():
    ragas = RagasContextPrecision()
    metric = ContextPrecision()
    sets, edges = _verdict_sets(102)
    counts = Counter(edge_cases=edges, **{f"shape_{k}": v for k, v in _shape_counts(sets).items()})
    for verdicts in sets:
        theirs = ragas._calculate_average_precision([Verification(reason="r", verdict=v) for v in verdicts])
        # No contexts: ragas gives 0 / (0 + 1e-10) = 0.0 and so does ours (no NaN here).
        assert average_precision(verdicts) == theirs, verdicts
        result = SimpleNamespace(verdicts=[SimpleNamespace(reason="r", verdicts=verdicts)])
        assert metric.value({}, {"verdict": result})[0] == theirs, verdicts
        counts["exact"] += 1
    _report("context_precision", counts)
    assert counts["exact"] >= MIN_COMPARED


def test_context_recall_matches_ragas_compute_score():
    ragas = RagasContextRecall()
    metric = ContextRecall()
    sets, edges = _verdict_sets(103)
    counts = Counter(edge_cases=edges, **{f"shape_{k}": v for k, v in _shape_counts(sets).items()})
    for attributed in sets:
        sentences = [f"sentence {i}" for i in range(len(attributed))]
        theirs = ragas._compute_score(
            [ContextRecallClassification(statement=s, reason="r", attributed=a) for s, a in zip(sentences, attributed)]
        )
        if not attributed:  # ragas: NaN; ours: the reply schema needs at least one sentence (min_length=1)
            assert math.isnan(theirs)
            counts["nan_skipped"] += 1
            continue
        assert context_recall_score(attributed) == theirs, attributed
        reply = SimpleNamespace(
            verdicts=[SimpleNamespace(sentences=[SimpleNamespace(sentence=s, attributed=a)
                                                 for s, a in zip(sentences, attributed)])]  # fmt: skip
        )
        assert metric.value({}, {"verdict": reply})[0] == theirs, attributed
        counts["exact"] += 1
    _report("context_recall", counts)
    assert counts["exact"] >= MIN_COMPARED and counts["nan_skipped"] >= 1


# Context entity recall, context relevance ---------------------------------------------------------------

ENTITIES = ["Paris", "France", "Eiffel Tower", "1889", "Gustave Eiffel", "paris", "330 m", "Lyon", "Seine", "2024"]


def test_context_entity_recall_matches_ragas_compute_score():
    ragas = RagasContextEntityRecall()
    metric = ContextEntityRecall()
    rng = np.random.default_rng(104)
    edges = [
        ([], []), ([], ["Paris"]), (["Paris"], []), (["Paris"], ["Paris"]), (["Paris"], ["paris"]),
        (["Paris", "Paris", "Paris"], ["Paris"]), (["Paris"], ["Paris", "Paris"]), (ENTITIES, ENTITIES),
        (ENTITIES, ENTITIES[::-1]), (ENTITIES * 2, ENTITIES[:1]), (["Paris", "France"], ["Lyon", "Seine"]),
    ]  # fmt: skip
    drawn = []
    for _ in range(N):
        vocabulary = ENTITIES[: int(rng.integers(1, len(ENTITIES) + 1))]  # small vocabularies: many repeats
        wanted = [str(e) for e in rng.choice(vocabulary, size=int(rng.integers(0, 16)))]
        found = [str(e) for e in rng.choice(vocabulary, size=int(rng.integers(0, 16)))]
        drawn.append((wanted, found))
    counts = Counter(edge_cases=len(edges))
    for wanted, found in edges + drawn:
        theirs = ragas._compute_score(wanted, found)
        assert context_entity_recall_score(wanted, found) == theirs, (wanted, found)
        counts["exact"] += 1
        counts["with_repeats"] += len(set(wanted)) < len(wanted)
        replies = {name: SimpleNamespace(verdicts=[SimpleNamespace(entities=e)])
                   for name, e in (("reference_entities", wanted), ("context_entities", found))}  # fmt: skip
        if not wanted:  # ragas: 0 / 1e-8 = 0.0 (compared above); ours: not_applicable
            assert theirs == 0.0
            with pytest.raises(NotApplicable):
                metric.value({}, replies)
            counts["empty_reference_not_applicable"] += 1
        else:
            assert metric.value({}, replies)[0] == theirs, (wanted, found)
    _report("context_entity_recall", counts)
    assert counts["exact"] >= MIN_COMPARED and counts["empty_reference_not_applicable"] >= 1


def test_context_relevance_matches_ragas_average_scores():
    ragas = RagasContextRelevance()
    metric = ContextRelevance()
    rng = np.random.default_rng(105)
    pairs = [(a, b) for a in (0, 1, 2) for b in (0, 1, 2)] * 20 + [tuple(p) for p in rng.integers(0, 3, (N, 2))]
    counts = Counter(all_pairs=9)
    seen = set()
    for r0, r1 in pairs:
        r0, r1 = int(r0), int(r1)
        score0, score1 = ragas.process_score(str(r0)), ragas.process_score(str(r1))
        assert (score0, score1) == (r0 / 2, r1 / 2)
        theirs = ragas.average_scores(score0, score1)
        assert context_relevance_score(r0, r1) == theirs, (r0, r1)
        replies = {"first": SimpleNamespace(value=r0), "second": SimpleNamespace(value=r1)}
        assert metric.value({}, replies)[0] == theirs, (r0, r1)
        counts["exact"] += 1
        counts["ties"] += r0 == r1
        seen.add((r0, r1))
    _report("context_relevance", counts)
    assert len(seen) == 9 and counts["exact"] >= MIN_COMPARED


# Embedding metrics ----------------------------------------------------------------------------------------


class _FixedEmbeddings:
    """Embeddings that return given float64 vectors: ``embed_query`` / ``embed_documents`` (what
    ResponseRelevancy calls) and async ``aembed_text`` by text (what SemanticSimilarity calls)."""

    def __init__(self, query: np.ndarray | None = None, documents: np.ndarray | None = None,
                 by_text: dict[str, np.ndarray] | None = None) -> None:  # fmt: skip
        self.query: Any = query
        self.documents: Any = documents
        self.by_text = by_text or {}

    def embed_query(self, text: str) -> list[float]:
        return self.query.tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        assert len(texts) == len(self.documents)
        return self.documents.tolist()

    async def aembed_text(self, text: str) -> list[float]:
        return self.by_text[text].tolist()


def _scaled_normal(rng: np.random.Generator, shape: Any) -> np.ndarray:
    return rng.normal(size=shape) * 10.0 ** rng.uniform(-3, 3)


def test_answer_relevancy_matches_ragas_calculate_score():
    rng = np.random.default_rng(106)
    cases: list[tuple[np.ndarray, np.ndarray, list[int]]] = []
    q = np.array([1.0, 2.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.5])
    cases += [
        (q, q[None, :], [0]), (q, q[None, :], [1]), (q, -q[None, :], [0]), (q, np.stack([q, -q]), [0, 1]),
        (q, np.stack([q, q, q]), [1, 1, 1]), (q, np.stack([q, 2 * q, 0.5 * q]), [0, 0, 0]),
        (q, np.stack([np.roll(q, 1), np.roll(q, 2)]), [1, 0]),
    ]  # fmt: skip
    edges = len(cases)
    for _ in range(N):
        d, n = int(rng.integers(8, 65)), int(rng.integers(1, 7))
        question = _scaled_normal(rng, d)
        generated = question * rng.uniform(-2, 2, (n, 1)) + _scaled_normal(rng, (n, d))
        cases.append((question, generated, _bits(rng, n)))
    counts = Counter(edge_cases=edges)
    for question, generated, noncommittal in cases:
        ragas = RagasResponseRelevancy(embeddings=_FixedEmbeddings(query=question, documents=generated))
        answers = [ResponseRelevanceOutput(question=f"q{i}?", noncommittal=v) for i, v in enumerate(noncommittal)]
        theirs = ragas._calculate_score(answers, {"user_input": "the question"})
        ours = answer_relevancy_score(question, generated, noncommittal)
        assert abs(ours - theirs) <= EMBEDDING_TOL, (ours, theirs)
        generations = SimpleNamespace(verdicts=[SimpleNamespace(question=a.question, noncommittal=a.noncommittal)
                                                for a in answers])  # fmt: skip
        assert ResponseRelevancy().value({}, {"questions": generations, "embeddings": np.vstack([question, generated])})[0] == ours
        counts["within_1e-12"] += 1
        counts["bit_identical"] += ours == theirs
        counts["all_noncommittal"] += all(noncommittal)
        counts["single_generation"] += len(noncommittal) == 1
    _report("answer_relevancy", counts)
    assert counts["within_1e-12"] >= MIN_COMPARED


def _similarity_cases(seed: int) -> tuple[list[tuple[np.ndarray, np.ndarray]], int]:
    rng = np.random.default_rng(seed)
    a = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    edges = [
        (a, a), (a, -a), (a, 3 * a), (np.array([1.0, 0.0]), np.array([0.0, 1.0])),
        (np.array([1.0, 0.0]), np.array([4.0, 3.0])),  # cosine 0.8 exactly: at the 0.8 threshold
        (np.array([1.0, 1.0, 0.0]), np.array([1.0, 0.0, 1.0])),  # cosine 0.5 up to rounding: at the 0.5 threshold
        (np.array([3.0, 4.0]), np.array([4.0, 3.0])), (np.array([1e-150, 1e-150]), np.array([1e-150, 2e-150])),
    ]  # fmt: skip
    drawn = []
    for _ in range(N):
        d = int(rng.integers(8, 65))
        first = _scaled_normal(rng, d)
        second = first * rng.uniform(-3, 3) + _scaled_normal(rng, d) * (np.linalg.norm(first) / math.sqrt(d))
        drawn.append((first, second))
    return edges + drawn, len(edges)


@pytest.mark.parametrize("threshold", [None, 0.5, 0.8, 0.0])
def test_semantic_similarity_matches_ragas_ascore(threshold):
    cases, edges = _similarity_cases(107)
    counts = Counter(edge_cases=edges)
    metric = SemanticSimilarity(threshold=threshold)

    async def theirs_all() -> list[tuple[float, float]]:
        out = []
        for first, second in cases:
            embeddings: Any = _FixedEmbeddings(by_text={"the reference": first, "the response": second})
            row = {"reference": "the reference", "response": "the response"}
            raw = await RagasSemanticSimilarity(embeddings=embeddings)._ascore(row, callbacks=None)
            thresholded = RagasSemanticSimilarity(embeddings=embeddings, threshold=threshold)
            scored = await thresholded._ascore(row, callbacks=None)
            out.append((raw, scored))
        return out

    for (first, second), (raw, theirs) in zip(cases, asyncio.run(theirs_all())):
        cosine = semantic_similarity_score(first, second, None)
        assert abs(cosine - raw) <= EMBEDDING_TOL, (cosine, raw)
        ours = semantic_similarity_score(first, second, threshold)
        assert metric.value({}, {"embeddings": np.vstack([first, second])})[0] == ours
        if not threshold:  # None, and 0.0, which ragas and we both treat as no threshold (``if threshold``)
            assert abs(ours - theirs) <= EMBEDDING_TOL, (ours, theirs)
            counts["within_1e-12"] += 1
            counts["bit_identical"] += ours == theirs
        elif abs(cosine - threshold) <= EMBEDDING_TOL:  # rounding decides the side: not comparable
            counts["skipped_at_threshold"] += 1
        else:
            assert ours == theirs, (ours, theirs, cosine, threshold)
            counts["exact"] += 1
            counts[f"thresholded_{int(theirs)}"] += 1
    _report(f"semantic_similarity threshold={threshold}", counts)
    assert counts["within_1e-12"] + counts["exact"] >= MIN_COMPARED
    if threshold in (0.5, 0.8):
        assert counts["skipped_at_threshold"] >= 1 and counts["thresholded_0"] >= 50 and counts["thresholded_1"] >= 50


def test_zero_or_tiny_embedding_is_a_documented_difference():
    """A zero vector, or one whose squared norm underflows (no real embedding model returns either):
    ragas's numpy norm is 0 and its x/0 gives NaN or inf; our cosine gives 0.0 for a zero vector (as
    scikit-learn's cosine_similarity) and rescales tiny vectors (rapideval.metrics.vectors)."""
    other = np.arange(1.0, 9.0)
    row = {"reference": "the reference", "response": "the response"}
    for vector, ours in [(np.zeros(8), 0.0), (other * 1e-300, 1.0)]:
        embeddings = _FixedEmbeddings(by_text={"the reference": vector, "the response": other})
        with np.errstate(all="ignore"):
            theirs = asyncio.run(RagasSemanticSimilarity(embeddings=embeddings)._ascore(row, callbacks=None))
        assert not math.isfinite(theirs)
        assert semantic_similarity_score(vector, other, None) == pytest.approx(ours, abs=EMBEDDING_TOL)


# Answer correctness -----------------------------------------------------------------------------------------


def _ragas_answer_correctness(ragas: RagasAnswerCorrectness, tp: int, fp: int, fn: int, response_statements: int,
                              reference_statements: int, similarity: float) -> float:  # fmt: skip
    """The end of ragas 0.4.3 AnswerCorrectness._ascore (ragas/metrics/_answer_correctness.py lines 236-269),
    verbatim but for the LLM calls: the classifier's reply is the given TP/FP/FN, the similarity is given."""
    statements = {"response": [f"r{i}" for i in range(response_statements)],
                  "reference": [f"g{i}" for i in range(reference_statements)]}  # fmt: skip
    item = StatementsWithReason(statement="s", reason="r")
    answers = ClassificationWithReason(TP=[item] * tp, FP=[item] * fp, FN=[item] * fn)
    # ---- from ragas (line 236) ----
    if not all([val == [] for val in statements.values()]):
        f1_score = ragas._compute_statement_presence(answers)
    else:
        f1_score = 1.0

    if ragas.weights[1] == 0:
        similarity_score = 0.0
    else:
        similarity_score = similarity

    score = np.average(
        [f1_score, similarity_score],
        weights=ragas.weights,
    )

    return float(score)
    # ---- end (line 269) ----


def test_answer_correctness_matches_ragas():
    rng = np.random.default_rng(108)
    fixed_weights = [[1.0, 0.0], [0.0, 1.0], [0.75, 0.25], [0.5, 0.5], [3.0, 1.0]]
    cases = []
    # Edges: no statements at all, one statement, all TP, all FP, all FN, ties (precision == recall).
    for tp, fp, fn in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (5, 0, 0), (0, 5, 0), (0, 0, 5), (0, 3, 3),
                       (2, 2, 2), (3, 1, 1), (1, 3, 3), (4, 2, 0), (4, 0, 2)]:  # fmt: skip
        for weights in fixed_weights:
            for beta in (0.5, 1.0, 2.0):
                cases.append((tp, fp, fn, weights, beta, float(rng.uniform(-1, 1))))
    edges = len(cases)
    for _ in range(N):
        tp, fp, fn = (int(x) for x in rng.integers(0, 11, 3) * (rng.random(3) < 0.8))
        if rng.random() < 0.4:
            weights = fixed_weights[int(rng.integers(len(fixed_weights)))]
        else:
            weights = [float(w) for w in rng.uniform(0, 1, 2)]
        beta = float(rng.choice([0.5, 1.0, 2.0]))
        similarity = float(rng.choice([0.0, 1.0, rng.uniform(-1, 1)], p=[0.1, 0.1, 0.8]))
        cases.append((tp, fp, fn, weights, beta, similarity))
    counts = Counter(edge_cases=edges)
    instances: dict[tuple, RagasAnswerCorrectness] = {}
    for tp, fp, fn, weights, beta, similarity in cases:
        key = (tuple(weights), beta)
        if key not in instances:
            instances[key] = RagasAnswerCorrectness(weights=list(weights), beta=beta)
        # ragas's classifier: TP and FP are the response's statements, TP and FN come from the reference's.
        theirs = _ragas_answer_correctness(instances[key], tp, fp, fn, tp + fp, tp + fn, similarity)
        ours = answer_correctness_score(tp, fp, fn, similarity, weights, beta, no_statements=tp + fp + fn == 0)
        assert ours == theirs, (tp, fp, fn, weights, beta, similarity)
        counts["exact"] += 1
        counts["no_statements"] += tp + fp + fn == 0
        counts["similarity_weight_0"] += weights[1] == 0
        counts[f"beta_{beta}"] += 1
    _report("answer_correctness", counts)
    assert counts["exact"] >= MIN_COMPARED and counts["similarity_weight_0"] >= 50


def test_answer_correctness_metric_maps_verdicts_as_ragas():
    """AnswerCorrectness.value: the statements and the classifier's verdicts → TP / FP / FN → the score, as
    ragas on the same classification (similarity weight 0, so no embeddings are needed)."""
    rng = np.random.default_rng(109)
    counts = Counter()
    for _ in range(N):
        found, wanted = int(rng.integers(0, 8)), int(rng.integers(0, 8))
        supported = _bits(rng, found)
        # An empty response covers nothing (its judge slip is test_answer_correctness_empty_response_...).
        covered = _bits(rng, wanted) if found else [0] * wanted
        beta = float(rng.choice([0.5, 1.0, 2.0]))
        metric = AnswerCorrectness(weights=[1.0, 0.0], beta=beta)
        results = {"response_statements": _statements([f"r{i}" for i in range(found)]),
                   "reference_statements": _statements([f"g{i}" for i in range(wanted)])}  # fmt: skip
        if found or wanted:
            results["classified"] = SimpleNamespace(verdicts=[SimpleNamespace(response_statements=supported,
                                                                              reference_statements=covered)])  # fmt: skip
        ours, _, details = metric.value({}, results)
        tp, fp, fn = sum(supported), found - sum(supported), wanted - sum(covered)
        assert (details["tp"], details["fp"], details["fn"]) == (tp, fp, fn)
        ragas = RagasAnswerCorrectness(weights=[1.0, 0.0], beta=beta)
        assert ours == _ragas_answer_correctness(ragas, tp, fp, fn, found, wanted, 0.0), (supported, covered)
        counts["exact"] += 1
        counts["no_statements"] += found + wanted == 0
    _report("answer_correctness (metric)", counts)
    assert counts["exact"] >= MIN_COMPARED and counts["no_statements"] >= 1


def test_answer_correctness_empty_response_with_covered_reference():
    """Found by this file (now fixed): the response has no statement, the reference has two, and the classifier's
    reference verdicts say both are covered (a judge slip: an empty response states nothing). Ours: 1.0;
    ragas on the same classification (TP = FP = FN = [] with reference statements present): 0.0."""
    classified = SimpleNamespace(verdicts=[SimpleNamespace(response_statements=[], reference_statements=[1, 1])])
    results = {"response_statements": _statements([]), "reference_statements": _statements(["g0", "g1"]),
               "classified": classified}  # fmt: skip
    ours = AnswerCorrectness(weights=[1.0, 0.0]).value({}, results)[0]
    ragas = RagasAnswerCorrectness(weights=[1.0, 0.0], beta=1.0)
    assert ours == _ragas_answer_correctness(ragas, 0, 0, 0, 0, 2, 0.0) == 0.0


# Factual correctness --------------------------------------------------------------------------------------


def _patched_factual_correctness(mode: Any, beta: float) -> tuple[RagasFactualCorrectness, dict[str, Any]]:
    """A ragas FactualCorrectness whose decompose_and_verify_claims (replaced on the instance) returns the
    verdicts in ``state``. ragas calls it as (reference, response) → the claims of ``response`` verified
    against ``reference``; _single_turn_ascore calls (sample.reference, sample.response) first (the
    response's claims against the reference) and, unless mode is precision, (sample.response,
    sample.reference) second (the reference's claims against the response)."""
    ragas = RagasFactualCorrectness(mode=mode, beta=beta)
    ragas.llm = cast(Any, object())  # _single_turn_ascore asserts an LLM is set; the replaced method never uses it
    state: dict[str, Any] = {"calls": []}

    async def decompose_and_verify_claims(reference: str, response: str, callbacks: Any) -> np.ndarray:
        state["calls"].append((reference, response))
        if (reference, response) == ("y", "x"):  # response "x"'s claims verified against reference "y"
            return state["response_supported"]
        assert (reference, response) == ("x", "y")  # reference "y"'s claims verified against response "x"
        return state["reference_supported"]

    ragas.decompose_and_verify_claims = decompose_and_verify_claims  # type: ignore[method-assign]
    return ragas, state


@pytest.mark.parametrize("mode", ["precision", "recall", "f1"])
def test_factual_correctness_matches_ragas_single_turn_ascore(mode):
    rng = np.random.default_rng({"precision": 110, "recall": 111, "f1": 112}[mode])
    edges = [
        ([], []), ([], [1]), ([1], []), ([0], []), ([], [0]), ([1], [1]), ([0], [0]), ([1], [0]), ([0], [1]),
        ([1] * 6, [1] * 6), ([0] * 6, [0] * 6), ([1, 0], [1, 0]), ([1, 1, 0, 0], [1, 0]), ([1] * 12, []),
        ([], [1] * 12), ([1, 0, 1], [1, 1, 0]), ([1, 1, 1], [0, 0, 0]),
    ]  # fmt: skip
    cases = [(s, c, beta) for s, c in edges for beta in (0.5, 1.0, 2.0)]
    n_edges = len(cases)
    for _ in range(N):
        supported, covered = _bits(rng, int(rng.integers(0, 13))), _bits(rng, int(rng.integers(0, 13)))
        cases.append((supported, covered, float(rng.choice([0.5, 1.0, 2.0]))))
    instances = {beta: _patched_factual_correctness(mode, beta) for beta in (0.5, 1.0, 2.0)}
    sample = RagasSample(response="x", reference="y")

    async def theirs_all() -> list[float]:
        out = []
        for supported, covered, beta in cases:
            ragas, state = instances[beta]
            state.update(calls=[], response_supported=np.array(supported, dtype=bool),
                         reference_supported=np.array(covered, dtype=bool))  # fmt: skip
            out.append(await ragas._single_turn_ascore(sample, callbacks=None))
            assert state["calls"] == ([("y", "x")] if mode == "precision" else [("y", "x"), ("x", "y")])
        return out

    counts = Counter(edge_cases=n_edges)
    for (supported, covered, beta), theirs in zip(cases, asyncio.run(theirs_all())):
        ours = factual_correctness_score([bool(v) for v in supported], [bool(v) for v in covered], mode, beta)
        assert ours == theirs, (supported, covered, mode, beta)
        counts["exact"] += 1
        # The metric: the claims it asks for (the reference's only for recall and f1), then their verdicts.
        both = mode != "precision"
        found = [f"claim {i}" for i in range(len(supported))]
        wanted = [f"reference claim {i}" for i in range(len(covered))] if both else []
        results = {"response_claims": _statements(found), "reference_claims": _statements(wanted)}
        results |= ({"supported": _support(supported)} if found else {}) | ({"covered": _support(covered)} if wanted else {})
        metric = FactualCorrectness(mode=mode, beta=beta)
        if not found and (mode == "precision" or not wanted) or mode == "recall" and not wanted:
            # No claims for this mode: ragas gives a number (compared above), our metric not_applicable.
            with pytest.raises(NotApplicable):
                metric.value({}, results)
            counts[f"not_applicable_ragas_{float(theirs)}"] += 1
        else:
            assert metric.value({}, results)[0] == theirs, (supported, covered, mode, beta)
            counts["metric_exact"] += 1
    _report(f"factual_correctness mode={mode}", counts)
    assert counts["exact"] >= MIN_COMPARED and counts["metric_exact"] >= MIN_COMPARED * 0.8


# Noise sensitivity -----------------------------------------------------------------------------------------


def _bool_matrix(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    p = rng.choice([0.0, 1.0, rng.uniform()], p=[0.1, 0.1, 0.8])
    return rng.random(shape) < p


def _noise_cases(seed: int) -> tuple[list[tuple[np.ndarray, np.ndarray, np.ndarray]], int]:
    """(reference x contexts, response x contexts, response supported by the reference) with >= 1 of each."""
    rng = np.random.default_rng(seed)
    t, f = np.array([[True]]), np.array([[False]])
    cases = [(g, a, s[0]) for g in (t, f) for a in (t, f) for s in (t, f)]  # all 1 x 1 x 1 cases
    for n_gt, n_ans, n_ctx in [(3, 4, 5), (1, 6, 1), (6, 1, 1), (2, 2, 6)]:
        for value in (True, False):
            full = np.full((n_gt, n_ctx), value), np.full((n_ans, n_ctx), value), np.full(n_ans, value)
            cases += [full, (full[0], full[1], ~full[2]), (~full[0], full[1], full[2])]
    edges = len(cases)
    for _ in range(N):
        n_gt, n_ans, n_ctx = (int(x) for x in rng.integers(1, [7, 9, 7]))
        cases.append((_bool_matrix(rng, (n_gt, n_ctx)), _bool_matrix(rng, (n_ans, n_ctx)),
                      _bool_matrix(rng, (1, n_ans))[0]))  # fmt: skip
    return cases, edges


def _ragas_noise(mode: Any, gt: np.ndarray, ans: np.ndarray, supported: np.ndarray) -> float:
    ragas = RagasNoiseSensitivity(mode=mode)
    return ragas._compute_score(
        {"retrieved2ground_truth": gt, "retrieved2answer": ans, "ground_truth2answer": np.array([supported])}
    )


def _noise_results(gt: np.ndarray | None, ans: np.ndarray, supported: np.ndarray) -> dict[str, Any]:
    """Stand-in results of NoiseSensitivity's stages: reference and response statements, the reference's
    contexts x statements matrix (when it has statements), the response's, the response's support."""
    n_gt = 0 if gt is None else gt.shape[0]
    results = {"reference_statements": _statements([f"g{i}" for i in range(n_gt)]),
               "response_statements": _statements([f"a{i}" for i in range(ans.shape[0])])}  # fmt: skip
    if gt is not None and n_gt:
        results["reference_by_context"] = _matrix(gt)
    results |= {"response_by_context": _matrix(ans), "supported": _support([int(v) for v in supported])}
    return results


@pytest.mark.parametrize("mode", ["relevant", "irrelevant"])
def test_noise_sensitivity_matches_ragas_compute_score(mode):
    cases, edges = _noise_cases({"relevant": 113, "irrelevant": 114}[mode])
    metric = NoiseSensitivity(mode=mode)
    counts = Counter(edge_cases=edges)
    for gt, ans, supported in cases:
        theirs = _ragas_noise(mode, gt, ans, supported)
        assert noise_sensitivity_score(gt, ans, supported.tolist(), mode) == theirs, (gt, ans, supported)
        fields = {"retrieved_contexts": [f"c{i}" for i in range(gt.shape[1])]}
        assert metric.value(fields, _noise_results(gt, ans, supported))[0] == theirs
        counts["exact"] += 1
        counts["single_context"] += gt.shape[1] == 1
        counts[f"score_{'0' if theirs == 0 else '1' if theirs == 1 else 'between'}"] += 1
    # No response statements: ragas's mean of nothing is NaN; our metric is not_applicable (ours not called).
    for n_gt, n_ctx in [(1, 1), (2, 3), (4, 1)]:
        gt, ans = np.ones((n_gt, n_ctx), bool), np.zeros((0, n_ctx), bool)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)  # numpy: "Mean of empty slice"
            assert math.isnan(_ragas_noise(mode, gt, ans, np.zeros(0, bool)))
        with pytest.raises(NotApplicable):
            metric.value({"retrieved_contexts": [f"c{i}" for i in range(n_ctx)]}, _noise_results(gt, ans, []))
        counts["nan_not_applicable_skipped"] += 1
    _report(f"noise_sensitivity mode={mode}", counts)
    assert counts["exact"] >= MIN_COMPARED and 0 < counts["score_between"] and counts["score_0"] and counts["score_1"]


@pytest.mark.parametrize("mode", ["relevant", "irrelevant"])
def test_noise_sensitivity_reference_without_statements_differs_from_ragas(mode):
    """A reference without statements: ragas's _compute_score raises (np.max over an empty axis); our metric
    counts no context as relevant, i.e. scores with an all-False 1 x contexts reference matrix: 0.0 in
    "relevant" mode, the share of incorrect statements supported by some context in "irrelevant" mode."""
    rng = np.random.default_rng({"relevant": 115, "irrelevant": 116}[mode])
    metric = NoiseSensitivity(mode=mode)
    for _ in range(50):
        n_ans, n_ctx = int(rng.integers(1, 9)), int(rng.integers(1, 7))
        ans, supported = _bool_matrix(rng, (n_ans, n_ctx)), _bool_matrix(rng, (1, n_ans))[0]
        with pytest.raises(ValueError, match="zero-size array"):
            _ragas_noise(mode, np.zeros((0, n_ctx), bool), ans, supported)
        ours = noise_sensitivity_score(np.zeros((1, n_ctx), bool), ans, supported.tolist(), mode)
        fields = {"retrieved_contexts": [f"c{i}" for i in range(n_ctx)]}
        assert metric.value(fields, _noise_results(None, ans, supported))[0] == ours
        expected = 0.0 if mode == "relevant" else float(np.mean(ans.any(axis=1) & ~supported))
        assert ours == expected
