"""What Hugging Face evaluate 0.4.6 computes for ``evaluate.load(name).compute(...)``, for the metrics of
``rapideval.compat.hf_evaluate``, built on the libraries the metric scripts wrap.

No installable package ships the metric scripts in a form that runs offline: the ``evaluate`` wheel and
sdist hold only the library (the scripts live in the ``evaluate-metric`` spaces of the Hugging Face hub),
and running a script needs ``evaluate`` and ``datasets`` besides. So each ``_compute`` below is the
script's, line for line, on top of the library it calls: nltk 3.10.4 (``meteor``), rouge-score 0.1.2
(``rouge``), sacrebleu 2.6.0 (``sacrebleu``, ``chrf``, ``ter``), numpy (``exact_match``). Two scripts carry
their own code, copied here: ``bleu`` (its ``tokenizer_13a.py``, from sacrebleu, and ``nmt_bleu.py``,
tensorflow/nmt's ``compute_bleu``; both Apache-2.0) and ``squad`` (``compute_score.py``, the official
SQuAD v1.1 evaluation script). What evaluate adds around ``_compute`` is reproduced too: the module's seed
(read from numpy's generator when the module is made) and ``temp_seed`` around ``_compute`` (from
``datasets.utils.py_utils``), which ROUGE's bootstrap depends on.
"""

from __future__ import annotations

import math
import re
import string
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from nltk import word_tokenize
from nltk.translate import meteor_score
from rouge_score import rouge_scorer, scoring
from sacrebleu import corpus_bleu as scb_corpus_bleu
from sacrebleu.metrics import CHRF, TER


def module_seed() -> Any:
    """``EvaluationModule.__init__`` with ``seed=None``."""
    _, seed, pos, *_ = np.random.get_state()
    return seed[pos] if pos < 624 else seed[0]


@contextmanager
def temp_seed(seed: Any) -> Iterator[None]:
    """``datasets.utils.py_utils.temp_seed`` (numpy part; evaluate does not ask for torch or tf)."""
    np_state = np.random.get_state()
    np.random.seed(seed)
    try:
        yield
    finally:
        np.random.set_state(np_state)


# --- bleu: metrics/bleu/tokenizer_13a.py (from sacrebleu) ---------------------------------------------


class TokenizerRegexp:
    def __init__(self):
        self._re = [
            # language-dependent part (assuming Western languages)
            (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
            # tokenize period and comma unless preceded by a digit
            (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
            # tokenize period and comma unless followed by a digit
            (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
            # tokenize dash when preceded by a digit
            (re.compile(r"([0-9])(-)"), r"\1 \2 "),
        ]

    def __call__(self, line):
        for _re, repl in self._re:
            line = _re.sub(repl, line)
        return line.split()


class Tokenizer13a:
    def __init__(self):
        self._post_tokenizer = TokenizerRegexp()

    def __call__(self, line):
        line = line.replace("<skipped>", "")
        line = line.replace("-\n", "")
        line = line.replace("\n", " ")
        if "&" in line:
            line = line.replace("&quot;", '"')
            line = line.replace("&amp;", "&")
            line = line.replace("&lt;", "<")
            line = line.replace("&gt;", ">")
        return self._post_tokenizer(f" {line} ")


# --- bleu: metrics/bleu/nmt_bleu.py (tensorflow/nmt/scripts/bleu.py) -----------------------------------


def _get_ngrams(segment, max_order):
    ngram_counts = Counter()
    for order in range(1, max_order + 1):
        for i in range(0, len(segment) - order + 1):
            ngram = tuple(segment[i : i + order])
            ngram_counts[ngram] += 1
    return ngram_counts


def compute_bleu(reference_corpus, translation_corpus, max_order=4, smooth=False):
    matches_by_order = [0] * max_order
    possible_matches_by_order = [0] * max_order
    reference_length = 0
    translation_length = 0
    for references, translation in zip(reference_corpus, translation_corpus):
        reference_length += min(len(r) for r in references)
        translation_length += len(translation)

        merged_ref_ngram_counts = Counter()
        for reference in references:
            merged_ref_ngram_counts |= _get_ngrams(reference, max_order)
        translation_ngram_counts = _get_ngrams(translation, max_order)
        overlap = translation_ngram_counts & merged_ref_ngram_counts
        for ngram in overlap:
            matches_by_order[len(ngram) - 1] += overlap[ngram]
        for order in range(1, max_order + 1):
            possible_matches = len(translation) - order + 1
            if possible_matches > 0:
                possible_matches_by_order[order - 1] += possible_matches

    precisions = [0] * max_order
    for i in range(0, max_order):
        if smooth:
            precisions[i] = (matches_by_order[i] + 1.0) / (possible_matches_by_order[i] + 1.0)
        else:
            if possible_matches_by_order[i] > 0:
                precisions[i] = float(matches_by_order[i]) / possible_matches_by_order[i]
            else:
                precisions[i] = 0.0

    if min(precisions) > 0:
        p_log_sum = sum((1.0 / max_order) * math.log(p) for p in precisions)
        geo_mean = math.exp(p_log_sum)
    else:
        geo_mean = 0

    if reference_length == 0 or translation_length == 0:
        ratio = 0.0
        bp = 0.0
    else:
        ratio = float(translation_length) / reference_length
        bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)

    bleu = geo_mean * bp

    return (bleu, precisions, bp, ratio, translation_length, reference_length)


# --- the scripts' _compute --------------------------------------------------------------------------


def bleu(predictions, references, tokenizer=Tokenizer13a(), max_order=4, smooth=False):  # noqa: B008 (the script's)
    """metrics/bleu/bleu.py"""
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    references = [[tokenizer(r) for r in ref] for ref in references]
    predictions = [tokenizer(p) for p in predictions]
    score = compute_bleu(
        reference_corpus=references, translation_corpus=predictions, max_order=max_order, smooth=smooth
    )
    (bleu, precisions, bp, ratio, translation_length, reference_length) = score
    return {
        "bleu": bleu,
        "precisions": precisions,
        "brevity_penalty": bp,
        "length_ratio": ratio,
        "translation_length": translation_length,
        "reference_length": reference_length,
    }


def sacrebleu(predictions, references, smooth_method="exp", smooth_value=None, force=False, lowercase=False,
              tokenize=None, use_effective_order=False):  # fmt: skip
    """metrics/sacrebleu/sacrebleu.py"""
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    references_per_prediction = len(references[0])
    if any(len(refs) != references_per_prediction for refs in references):
        raise ValueError("Sacrebleu requires the same number of references for each prediction")
    transformed_references = [[refs[i] for refs in references] for i in range(references_per_prediction)]
    output = scb_corpus_bleu(
        predictions,
        transformed_references,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        force=force,
        lowercase=lowercase,
        use_effective_order=use_effective_order,
        **(dict(tokenize=tokenize) if tokenize else {}),
    )
    return {
        "score": output.score,
        "counts": output.counts,
        "totals": output.totals,
        "precisions": output.precisions,
        "bp": output.bp,
        "sys_len": output.sys_len,
        "ref_len": output.ref_len,
    }


class _RougeTokenizer:
    """metrics/rouge/rouge.py ``Tokenizer``."""

    def __init__(self, tokenizer_func):
        self.tokenizer_func = tokenizer_func

    def tokenize(self, text):
        return self.tokenizer_func(text)


def rouge(predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False, tokenizer=None):
    """metrics/rouge/rouge.py"""
    if rouge_types is None:
        rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

    multi_ref = isinstance(references[0], list)

    if tokenizer is not None:
        tokenizer = _RougeTokenizer(tokenizer)

    scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
    if use_aggregator:
        aggregator = scoring.BootstrapAggregator()
    else:
        scores = []

    for ref, pred in zip(references, predictions):
        if multi_ref:
            score = scorer.score_multi(ref, pred)
        else:
            score = scorer.score(ref, pred)
        if use_aggregator:
            aggregator.add_scores(score)
        else:
            scores.append(score)

    if use_aggregator:
        result = aggregator.aggregate()
        for key in result:
            result[key] = result[key].mid.fmeasure
    else:
        result = {}
        for key in scores[0]:
            result[key] = list(score[key].fmeasure for score in scores)
    return result


def meteor(predictions, references, alpha=0.9, beta=3, gamma=0.5):
    """metrics/meteor/meteor.py (the nltk >= 3.6.5 branch)"""
    multiple_refs = isinstance(references[0], list)
    if multiple_refs:
        scores = [
            meteor_score.meteor_score(
                [word_tokenize(ref) for ref in refs], word_tokenize(pred), alpha=alpha, beta=beta, gamma=gamma
            )
            for refs, pred in zip(references, predictions)
        ]
    else:
        scores = [
            meteor_score.single_meteor_score(
                word_tokenize(ref), word_tokenize(pred), alpha=alpha, beta=beta, gamma=gamma
            )
            for ref, pred in zip(references, predictions)
        ]
    return {"meteor": np.mean(scores)}


def chrf(predictions, references, char_order=CHRF.CHAR_ORDER, word_order=CHRF.WORD_ORDER, beta=CHRF.BETA,
         lowercase=False, whitespace=False, eps_smoothing=False):  # fmt: skip
    """metrics/chrf/chrf.py"""
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    references_per_prediction = len(references[0])
    if any(len(refs) != references_per_prediction for refs in references):
        raise ValueError(
            "ChrF, as implemented by sacrebleu, requires the same number of references for each prediction"
        )
    transformed_references = [[refs[i] for refs in references] for i in range(references_per_prediction)]
    sb_chrf = CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    output = sb_chrf.corpus_score(predictions, transformed_references)
    return {
        "score": output.score,
        "char_order": output.char_order,
        "word_order": output.word_order,
        "beta": output.beta,
    }


def ter(predictions, references, normalized=False, ignore_punct=False, support_zh_ja_chars=False, case_sensitive=False):
    """metrics/ter/ter.py"""
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    references_per_prediction = len(references[0])
    if any(len(refs) != references_per_prediction for refs in references):
        raise ValueError("Sacrebleu requires the same number of references for each prediction")
    transformed_references = [[refs[i] for refs in references] for i in range(references_per_prediction)]
    sb_ter = TER(normalized=normalized, no_punct=ignore_punct, asian_support=support_zh_ja_chars,
                 case_sensitive=case_sensitive)  # fmt: skip
    output = sb_ter.corpus_score(predictions, transformed_references)
    return {"score": output.score, "num_edits": output.num_edits, "ref_length": output.ref_length}


def exact_match(predictions, references, regexes_to_ignore=None, ignore_case=False, ignore_punctuation=False,
                ignore_numbers=False):  # fmt: skip
    """metrics/exact_match/exact_match.py"""
    if regexes_to_ignore is not None:
        for s in regexes_to_ignore:
            predictions = np.array([re.sub(s, "", x) for x in predictions])
            references = np.array([re.sub(s, "", x) for x in references])
    else:
        predictions = np.asarray(predictions)
        references = np.asarray(references)

    if ignore_case:
        predictions = np.char.lower(predictions)
        references = np.char.lower(references)

    if ignore_punctuation:
        repl_table = string.punctuation.maketrans("", "", string.punctuation)
        predictions = np.char.translate(predictions, table=repl_table)
        references = np.char.translate(references, table=repl_table)

    if ignore_numbers:
        repl_table = string.digits.maketrans("", "", string.digits)
        predictions = np.char.translate(predictions, table=repl_table)
        references = np.char.translate(references, table=repl_table)

    score_list = predictions == references
    return {"exact_match": np.mean(score_list)}


# --- squad: metrics/squad/compute_score.py (official SQuAD v1.1 evaluation script) -------------------


def normalize_answer(s):
    """Lower text and remove punctuation, articles and extra whitespace."""

    def remove_articles(text):
        return re.sub(r"\b(a|an|the)\b", " ", text)

    def white_space_fix(text):
        return " ".join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    def lower(text):
        return text.lower()

    return white_space_fix(remove_articles(remove_punc(lower(s))))


def f1_score(prediction, ground_truth):
    prediction_tokens = normalize_answer(prediction).split()
    ground_truth_tokens = normalize_answer(ground_truth).split()
    common = Counter(prediction_tokens) & Counter(ground_truth_tokens)
    num_same = sum(common.values())
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(prediction_tokens)
    recall = 1.0 * num_same / len(ground_truth_tokens)
    f1 = (2 * precision * recall) / (precision + recall)
    return f1


def exact_match_score(prediction, ground_truth):
    return normalize_answer(prediction) == normalize_answer(ground_truth)


def metric_max_over_ground_truths(metric_fn, prediction, ground_truths):
    scores_for_ground_truths = []
    for ground_truth in ground_truths:
        score = metric_fn(prediction, ground_truth)
        scores_for_ground_truths.append(score)
    return max(scores_for_ground_truths)


def compute_score(dataset, predictions):
    f1 = exact_match = total = 0
    for article in dataset:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                total += 1
                if qa["id"] not in predictions:
                    message = "Unanswered question " + qa["id"] + " will receive score 0."
                    print(message, file=sys.stderr)
                    continue
                ground_truths = list(map(lambda x: x["text"], qa["answers"]))
                prediction = predictions[qa["id"]]
                exact_match += metric_max_over_ground_truths(exact_match_score, prediction, ground_truths)
                f1 += metric_max_over_ground_truths(f1_score, prediction, ground_truths)

    exact_match = 100.0 * exact_match / total
    f1 = 100.0 * f1 / total

    return {"exact_match": exact_match, "f1": f1}


def squad(predictions, references):
    """metrics/squad/squad.py (references' ``answers`` as evaluate hands them over: a dict of lists)."""
    pred_dict = {prediction["id"]: prediction["prediction_text"] for prediction in predictions}
    dataset = [
        {
            "paragraphs": [
                {
                    "qas": [
                        {
                            "answers": [{"text": answer_text} for answer_text in ref["answers"]["text"]],
                            "id": ref["id"],
                        }
                        for ref in references
                    ]
                }
            ]
        }
    ]
    score = compute_score(dataset=dataset, predictions=pred_dict)
    return score


COMPUTE = {
    "bleu": bleu,
    "sacrebleu": sacrebleu,
    "rouge": rouge,
    "meteor": meteor,
    "chrf": chrf,
    "ter": ter,
    "exact_match": exact_match,
    "squad": squad,
}


def reference_compute(name: str, seed: Any, predictions: Any, references: Any, **kwargs: Any) -> dict:
    """``evaluate.load(name, seed=seed).compute(predictions=..., references=..., **kwargs)``."""
    with temp_seed(seed):
        return COMPUTE[name](predictions, references, **kwargs)
