"""Parity of rapideval's ROUGE with rouge-score 0.1.2 (compat ``RougeScorer.score`` / ``score_multi``,
its tokenizer, the batch API) and with promptflow-evals 0.3.5 ``RougeScoreEvaluator``: floats bit for
bit, rouge-score's int zeros, its exceptions."""

from __future__ import annotations

import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from promptflow.evals.evaluators import RougeScoreEvaluator, RougeType
from rouge_score import rouge_scorer as ref
from rouge_score import scoring as ref_scoring
from rouge_score import tokenize as ref_tokenize
from rouge_score import tokenizers as ref_tokenizers

from rapideval import _core
from rapideval.compat.rouge_score import rouge_scorer as ours
from rapideval.compat.rouge_score import scoring as ours_scoring
from rapideval.compat.rouge_score import tokenizers as ours_tokenizers
from rapideval.metrics.rouge import rouge
from strategies import FRAGMENTS, PROSE, WORDS, ascii_text, overlapping_pairs, prose_text, texts

ALL_TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rouge9", "rougeL", "rougeLsum"]
STEM_WORDS = ["running", "runs", "ran", "happily", "happiness", "generalizations", "general", "relational",
              "conditional", "ponies", "caresses", "agreed", "hopping", "controlling", "skies", "dying"]
#: Texts with repeated words, several lines (ROUGE-Lsum sentences), stemmable words.
lines_text = st.lists(
    st.lists(st.sampled_from(WORDS[:15] + STEM_WORDS + ["", ".", "!"]), max_size=10).map(" ".join),
    max_size=5,
).map("\n".join)
rouge_texts = st.one_of(texts, lines_text, lines_text)
rouge_pairs = st.one_of(overlapping_pairs, st.tuples(rouge_texts, rouge_texts), st.tuples(lines_text, lines_text))
TRICKY = [
    "can't", "won't", "'tis", "gonna", "cannot", "I'm", '"Hi," he said.', "“smart” ‘q’", "1,000,000.", "3.14",
    "$3.88 (10%)", "http://a.com/x?y=1&z=2", "user@example.com", "U.S.A.", "U.S.A. is big.", "e.g. this",
    "Mr. Smith", "A. B. Smith", "No. 5", "well--known e-mail", "a…b", "...", "!!!", "", " ", "\n", "café naïve",
    "İstanbul", "straße", "\u212a", "x y", "Go home. Now. Fast", "line1\nline2 can't", "tab\there", "日本語です。",
    "Привет, мир!", "😀!", "x² ½", "&amp; &lt;", "<skipped>", "fs\x1cgs", "running happily", "generalizations",
    "a_b", "\u0130\u0130\u0130\u0130", "\n\n\n", " \n \n", "ΣΑΣ", "the the the the",
]


def _value(x):
    """A score component as (type, exact value): int zeros and floats are different outcomes."""
    if isinstance(x, float):
        return ("float", "nan" if math.isnan(x) else x.hex())
    return (type(x).__name__, x)


def _scores(result):
    return [(k, type(s).__name__, tuple(_value(v) for v in s)) for k, s in result.items()]


def _outcome(fn, *args):
    try:
        return ("ok", _scores(fn(*args)))
    except Exception as e:  # noqa: BLE001 - the exception is the compared outcome
        return ("raise", type(e).__name__, str(e))


def scorers(types, **kwargs):
    return ref.RougeScorer(types, **kwargs), ours.RougeScorer(types, **kwargs)


REF_PLAIN, OURS_PLAIN = scorers(ALL_TYPES)
REF_STEM, OURS_STEM = scorers(ALL_TYPES, use_stemmer=True)


@given(rouge_pairs)
def test_score_matches_rouge_score(pair):
    target, prediction = pair
    assert _scores(OURS_PLAIN.score(target, prediction)) == _scores(REF_PLAIN.score(target, prediction))


#: Texts over few distinct words (bigrams counted in a table) or many (sorted), with long words.
vocabulary_text = st.lists(
    st.one_of(st.sampled_from(WORDS[:8] + STEM_WORDS), st.from_regex(r"[A-Za-z0-9]{1,14}", fullmatch=True)),
    max_size=150,
).map(" ".join)


@given(vocabulary_text, vocabulary_text, st.booleans())
def test_vocabulary_sizes_match_rouge_score(target, prediction, stem):
    r, o = (REF_STEM, OURS_STEM) if stem else (REF_PLAIN, OURS_PLAIN)
    assert _outcome(o.score, target, prediction) == _outcome(r.score, target, prediction)
    batch = rouge([prediction], [target], ALL_TYPES, stem)
    want = r.score(target, prediction)
    for t in ALL_TYPES:
        assert [float(a[0]).hex() for a in batch[t]] == [float(v).hex() for v in want[t]]


@given(rouge_pairs)
def test_score_with_stemmer_matches_rouge_score(pair):
    target, prediction = pair
    assert _scores(OURS_STEM.score(target, prediction)) == _scores(REF_STEM.score(target, prediction))


@given(st.lists(rouge_texts, min_size=0, max_size=4), rouge_texts, st.booleans())
def test_score_multi_matches_rouge_score(targets, prediction, stem):
    r, o = (REF_STEM, OURS_STEM) if stem else (REF_PLAIN, OURS_PLAIN)
    assert _outcome(o.score_multi, targets, prediction) == _outcome(r.score_multi, targets, prediction)


@given(rouge_texts, st.booleans())
def test_tokenizer_matches_rouge_score(text, stem):
    stemmer = ref_tokenizers.DefaultTokenizer(True)._stemmer if stem else None
    want = ref_tokenize.tokenize(text, stemmer)
    assert _core.rouge_tokenize([text], stem)[0] == want
    assert ours_tokenizers.DefaultTokenizer(stem).tokenize(text) == want


@given(st.lists(st.tuples(rouge_texts, st.lists(rouge_texts, min_size=1, max_size=3)), max_size=40), st.booleans())
def test_batch_matches_score_multi(rows, stem):
    responses = [r for r, _ in rows]
    references = [refs if len(refs) > 1 else refs[0] for _, refs in rows]
    scorer = REF_STEM if stem else REF_PLAIN
    got = rouge(responses, references, ALL_TYPES, use_stemmer=stem)
    for t in ALL_TYPES:
        want = [scorer.score_multi(refs, resp)[t] for resp, (_, refs) in zip(responses, rows)]
        for k, field in enumerate(("precision", "recall", "fmeasure")):
            column = np.array([float(w[k]) for w in want], dtype=np.float64)
            assert np.array_equal(getattr(got[t], field).view(np.int64), column.view(np.int64))


@given(overlapping_pairs, st.sampled_from(list(RougeType)))
def test_promptflow_rouge_evaluator(pair, rouge_type):
    answer, ground_truth = pair
    want = RougeScoreEvaluator(rouge_type)(answer=answer, ground_truth=ground_truth)
    got = rouge([answer], [ground_truth], [rouge_type.value])[rouge_type.value]
    assert [float(want["rouge_precision"]), float(want["rouge_recall"]), float(want["rouge_f1_score"])] == [
        got.precision[0], got.recall[0], got.fmeasure[0]]


@given(st.lists(prose_text, max_size=6).map(" ".join), st.lists(prose_text, max_size=6).map(" ".join))
def test_split_summaries_uses_punkt(target, prediction):
    r, o = scorers(["rougeLsum", "rouge1"], split_summaries=True)
    assert _scores(o.score(target, prediction)) == _scores(r.score(target, prediction))


class WhitespaceTokenizer(ref_tokenizers.Tokenizer):
    def tokenize(self, text):
        return text.split()


@given(rouge_pairs)
def test_custom_tokenizer_object(pair):
    target, prediction = pair
    for types in (ALL_TYPES, ["rougeLsum"]):
        r, o = scorers(types, tokenizer=WhitespaceTokenizer())
        assert _scores(o.score(target, prediction)) == _scores(r.score(target, prediction))
    r, o = scorers(ALL_TYPES, tokenizer=ref_tokenizers.DefaultTokenizer(True))
    assert _scores(o.score(target, prediction)) == _scores(r.score(target, prediction))


@pytest.mark.parametrize("text", TRICKY)
@pytest.mark.parametrize("other", ["", "the cat sat on the mat", "can t 1 000 000 stanbul", "a\nb\n\nc"])
def test_tricky_inputs(text, other):
    for r, o in ((REF_PLAIN, OURS_PLAIN), (REF_STEM, OURS_STEM)):
        assert _scores(o.score(text, other)) == _scores(r.score(text, other))
        assert _scores(o.score(other, text)) == _scores(r.score(other, text))
    assert _core.rouge_tokenize([text], True)[0] == ref_tokenize.tokenize(text, ref_tokenizers.DefaultTokenizer(True)._stemmer)


@pytest.mark.parametrize("types", [["rouge0"], ["rouge10"], ["rougeX"], ["rouge1", "bleu"], ["rouge-1"], [],
                                   ["rouge1\n"], ("rougeL", "rougeL"), "rouge1"])
def test_rouge_type_errors_and_quirks(types):
    r, o = scorers(types)
    assert _outcome(o.score, "a b c", "a b") == _outcome(r.score, "a b c", "a b")
    assert _outcome(o.score_multi, [], "a b") == _outcome(r.score_multi, [], "a b")
    assert _outcome(o.score_multi, "ab", "a b") == _outcome(r.score_multi, "ab", "a b")


def test_bootstrap_aggregator_same_intervals_for_same_seed():
    rows = [("the cat sat", "the cat sat down"), ("a b c d", "a c"), ("x", "y"), ("", "q"), (PROSE[0], PROSE[1])]
    results = []
    for r_mod, s_mod in ((ref, ref_scoring), (ours, ours_scoring)):
        scorer, agg = r_mod.RougeScorer(["rouge1", "rougeL"]), s_mod.BootstrapAggregator(n_samples=200)
        for t, p in rows:
            agg.add_scores(scorer.score(t, p))
        np.random.seed(1234)
        results.append({k: [tuple(x) for x in v] for k, v in agg.aggregate().items()})
    assert results[0] == results[1]
    for bad in ({"confidence_interval": 1.5}, {"n_samples": 0}):
        with pytest.raises(ValueError):
            ours_scoring.BootstrapAggregator(**bad)
    assert ours_scoring.fmeasure(0, 0) == ref_scoring.fmeasure(0, 0) and ours_scoring.fmeasure(0.5, 0.25) == ref_scoring.fmeasure(0.5, 0.25)


@given(ascii_text)
def test_unicode_tokenizer_equals_default_on_ascii(text):
    assert _core.rouge_tokenize([text], False, "unicode") == _core.rouge_tokenize([text], False)


def test_unicode_tokenizer_scores_non_latin_text():
    pairs = [("Привет, мир!", "Привет мир"), ("日本語です。", "日本語"), ("Ελληνικά κείμενα", "ελληνικά")]
    for target, prediction in pairs:
        assert rouge([prediction], [target], ["rouge1"])["rouge1"].fmeasure[0] == 0.0
        assert rouge([prediction], [target], ["rouge1"], tokenizer="unicode")["rouge1"].fmeasure[0] > 0.0
    assert _core.rouge_tokenize(["Привет, мир! 日本"], False, "unicode") == [["привет", "мир", "日", "本"]]
    with pytest.raises(ValueError, match="tokenizer"):
        rouge(["a"], ["a"], tokenizer="nope")


def test_bad_inputs_name_the_row():
    with pytest.raises(TypeError, match=r"responses\[1\]"):
        rouge(["a", None], ["a", "b"])
    with pytest.raises(TypeError, match=r"references\[0\]"):
        rouge(["a"], [3])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\]"):
        rouge(["a"], [["a", 3]])
    with pytest.raises(ValueError, match=r"responses\[0\]"):
        rouge(["\ud800"], ["a"])
    with pytest.raises(ValueError, match="rows"):
        rouge(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="row 0"):
        rouge(["a"], [[]])
    with pytest.raises(ValueError, match="Invalid rouge type"):
        rouge(["a"], ["a"], ["rougeX"])
    with pytest.raises(TypeError):
        rouge("abc", ["a"])


def test_huge_text():
    big = "The quick brown fox jumps over the lazy dog. " * 23_000  # ~1 MB
    for stem in (False, True):
        r, o = scorers(["rouge1", "rouge2", "rougeL"], use_stemmer=stem)
        assert _scores(o.score("the lazy dog jumps", big)) == _scores(r.score("the lazy dog jumps", big))
