"""Side-by-side speed of rapideval and the reference libraries on real prose pairs, in one run.

    python benches/bench_text.py [--pairs 2000] [--repeats 5]

For each task it prints pairs per second for rapideval on one thread and on all threads, for each
reference implementation that is installed (nltk, promptflow-evals, sacrebleu, bleuscore, fast-bleu), the
ratio rapideval(1 thread) / reference, and whether the values agree with the exact reference (rows that
are bit-identical, max |difference|); other rapideval entry points for the same task (the
one-call-per-pair compat drop-in) get a line with their own ratio to the exact reference. Every
implementation is timed once per round (a call shorter than 0.2 s made again until 0.2 s have passed),
--repeats rounds that alternate the order of the implementations: rates are medians over the rounds,
ratios the medians of the ratios within each round (the machine's speed drifts less within a round).
The all-threads rate and its ratio to one thread come from 3 x --repeats further rounds of just those
two calls and of one-thread calls made at once from as many Python threads as the pool has (a 2-thread
call waits for its slower thread, so it is the noisiest figure; the calls at once share nothing but the
machine, so their ratio is what this machine gives independent copies of the work then; in brackets,
the same ratios between each call's fastest round).
Speed is measured here and never asserted in tests.

Pairs: --pairs distinct rows of real prose, each joining two rows of the example dataset shipped with
rapideval (documentation sentences and rewrites of them; see ``_common.load_pairs``).
``--json PATH`` also writes every figure, with the machine, date and library versions, for
tools/bench_table.py.
"""

from __future__ import annotations

import argparse
import os
import statistics
from collections import Counter
from typing import Callable

import numpy as np
import rapideval
from _common import (PAIRS_SOURCE, Report, add_report_arguments, agreement, interleaved, load_pairs, median_ratio,
                     thread_scaling, warm)
from rapideval.compat import nltk as compat_nltk
from rapideval.metrics.bleu import bleu
from rapideval.metrics.f1 import f1
from rapideval.metrics.gleu import gleu
from rapideval.metrics.sacrebleu import sacrebleu_bleu


def squad_f1_python(prediction: str, ground_truth: str) -> float:
    """The SQuAD v1.1 token F1 in plain Python, as promptflow-evals 0.3.5 computes it."""
    import re
    import string

    def normalize(s: str) -> str:
        s = s.lower()
        s = "".join(ch for ch in s if ch not in set(string.punctuation))
        s = re.sub(r"\b(a|an|the)\b", " ", s)
        return " ".join(s.split())

    p, g = normalize(prediction).split(), normalize(ground_truth).split()
    common = sum((Counter(p) & Counter(g)).values())
    if common == 0:
        return 0.0
    precision, recall = 1.0 * common / len(p), 1.0 * common / len(g)
    return (2.0 * precision * recall) / (precision + recall)


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, float, str, str]] = []

    def add(self, task: str, impl: str, pairs_per_s: float, ratio: str, values: str) -> None:
        self.rows.append((task, impl, pairs_per_s, ratio, values))
        print(f"  {impl:<34} {pairs_per_s:>12,.0f} pairs/s  {ratio:>12}  {values}", flush=True)


def bench_task(table: Table, report: Report, task: str, n_ref: int, repeats: int,
               ours: Callable[[], np.ndarray], references: dict[str, tuple[str, Callable[[int], list[float]]]],
               exact: str, variants: dict[str, Callable[[], np.ndarray]] | None = None) -> None:
    """Time `ours` on one thread, each reference (name: (library, call)), and `variants` (other
    rapideval entry points for the same task, on one thread), in `repeats` interleaved rounds, then
    `ours` on one and on all threads and as one-thread calls at once in 3 x `repeats` rounds (see
    `thread_scaling`); ratios are medians of the rounds' ratios. The exact reference comes first in
    the report's record."""
    print(f"\n{task}")
    calls = {"ours": (warm(1, ours), ours)}
    calls.update({name: (warm(1, run), run) for name, run in (variants or {}).items()})
    one_thread = lambda: rapideval.set_num_threads(1)  # noqa: E731
    calls.update({name: (one_thread, lambda run=run: run(n_ref)) for name, (_, run) in references.items()})
    times, out = interleaved(calls, repeats)
    values = out["ours"]
    scaling = thread_scaling(ours, 3 * repeats)
    rapideval.set_num_threads(0)
    assert np.array_equal(values.view(np.int64), ours().view(np.int64)), "thread count changed results"
    for name in variants or {}:
        assert np.array_equal(values.view(np.int64), out[name].view(np.int64)), f"{name} disagrees"
    n = len(values)
    t1 = statistics.median(times["ours"])
    table.add(task, "rapideval (1 thread)", n / t1, "", "")
    for label, rate, ratio, note in scaling.rows(n):
        table.add(task, label, rate, ratio, note)
    record: dict = {"task": task, "pairs": n, "rapideval": {"pairs_per_s": n / t1, **scaling.as_dict(n)},
                    "references": [], "variants": []}
    for name in sorted(references, key=lambda name: name != exact):
        rate = n_ref / statistics.median(times[name])
        agree = agreement(values[:n_ref], out[name]) if name == exact else "(different definition)"
        ratio = median_ratio(times["ours"], n, times[name], n_ref)
        table.add(task, name, rate, f"{ratio:,.1f}x", agree)
        record["references"].append(report.reference(name, references[name][0], pairs=n_ref, pairs_per_s=rate,
                                                      speedup_per_core=ratio, agreement=agree))
    for name in variants or {}:
        ratio = median_ratio(times[name], n, times[exact], n_ref)
        table.add(task, f"{name} (1 thread)", n / statistics.median(times[name]), f"{ratio:,.1f}x",
                  "(same values as rapideval)")
        record["variants"].append({"name": name, "pairs_per_s": n / statistics.median(times[name]),
                                   "speedup_per_core": ratio})
    report.add(record)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5000, help="rows scored by rapideval")
    parser.add_argument("--reference-pairs", type=int, default=1000, help="rows scored by the slow references")
    parser.add_argument("--repeats", type=int, default=5)
    add_report_arguments(parser)
    args = parser.parse_args()
    os.environ.setdefault("NLTK_DATA", os.path.join(os.path.dirname(__file__), "..", ".nltk_data"))

    import sacrebleu
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
    from nltk.translate.gleu_score import sentence_gleu

    hyps, refs = load_pairs(args.pairs)
    m = min(args.reference_pairs, args.pairs)  # the references score the first pairs
    print(f"{args.pairs} pairs (references timed on {m}); {args.repeats} interleaved rounds; {os.cpu_count()} cores")
    table = Table()
    report = Report("bench_text", {"pairs": args.pairs, "reference_pairs": m, "repeats": args.repeats,
                                   "pairs_source": PAIRS_SOURCE},
                    ["nltk", "promptflow-evals", "sacrebleu", "bleuscore", "fast-bleu"])
    tokenize = _promptflow_tokenizer()
    hyp_tok = [tokenize(h) for h in hyps]
    ref_tok = [tokenize(r) for r in refs]
    method4 = SmoothingFunction().method4

    others: dict[str, tuple[str, Callable[[int], list[float]]]] = {
        "nltk (promptflow tokenize + method4)": ("nltk", lambda k: [
            sentence_bleu([tokenize(refs[i])], tokenize(hyps[i]), smoothing_function=method4) for i in range(k)
        ]),
    }
    try:
        import bleuscore

        others["bleuscore (per pair, smooth)"] = ("bleuscore", lambda k: [
            bleuscore.compute(references=[[refs[i]]], predictions=[hyps[i]], smooth=True)["bleu"] for i in range(k)
        ])
    except ImportError:
        print("(bleuscore not installed: pip install bleuscore)")
    try:
        import fast_bleu

        others["fast-bleu (per pair, on tokens)"] = ("fast-bleu", lambda k: [
            fast_bleu.BLEU([ref_tok[i]], {"b": (0.25,) * 4}).get_score([hyp_tok[i]])["b"][0] for i in range(k)
        ])
    except ImportError:
        print("(fast-bleu not installed: pip install fast-bleu)")
    bench_task(table, report, "promptflow BLEU: tokenize + nltk method4", m, args.repeats,
               lambda: bleu(hyps, refs), others, exact="nltk (promptflow tokenize + method4)")

    def compat_loop() -> np.ndarray:
        sm = compat_nltk.SmoothingFunction().method4
        return np.array([compat_nltk.sentence_bleu([r], h, smoothing_function=sm) for h, r in zip(hyp_tok, ref_tok)], dtype=np.float64)

    bench_task(table, report, "nltk sentence_bleu on tokens (method4)", m, args.repeats,
               lambda: bleu(hyp_tok, ref_tok, tokenizer=None),
               {"nltk sentence_bleu": ("nltk", lambda k: [sentence_bleu([ref_tok[i]], hyp_tok[i], smoothing_function=method4)
                                                         for i in range(k)])},
               exact="nltk sentence_bleu",
               variants={"rapideval.compat.nltk.sentence_bleu, one call per pair": compat_loop})

    bench_task(table, report, "promptflow GLEU: tokenize + nltk sentence_gleu", m, args.repeats, lambda: gleu(hyps, refs),
               {"nltk (promptflow tokenize + gleu)": ("nltk", lambda k: [sentence_gleu([tokenize(refs[i])], tokenize(hyps[i]))
                                                                        for i in range(k)])},
               exact="nltk (promptflow tokenize + gleu)")

    bench_task(table, report, "SQuAD token F1", m, args.repeats, lambda: f1(hyps, refs),
               {"promptflow-evals' F1 code in pure Python": ("promptflow-evals",
                                                             lambda k: [squad_f1_python(hyps[i], refs[i]) for i in range(k)])},
               exact="promptflow-evals' F1 code in pure Python")

    bench_task(table, report, "sacrebleu sentence_bleu (13a, exp, effective order)", m, args.repeats,
               lambda: sacrebleu_bleu(hyps, refs),
               {"sacrebleu": ("sacrebleu", lambda k: [sacrebleu.sentence_bleu(hyps[i], [refs[i]]).score / 100 for i in range(k)])},
               exact="sacrebleu")
    report.write(args.json, args.note)


def _promptflow_tokenizer() -> Callable[[str], list[str]]:
    try:
        from promptflow.evals._common.utils import nltk_tokenize

        return nltk_tokenize
    except ImportError:
        from nltk import word_tokenize
        from nltk.tokenize.nist import NISTTokenizer

        nist = NISTTokenizer()

        def tokenize(text: str) -> list[str]:
            if all("\u0020" <= c <= "\u007e" or "\u00a0" <= c <= "\u00ff" for c in text):
                return word_tokenize(text)
            return nist.international_tokenize(text)

        return tokenize


if __name__ == "__main__":
    main()
