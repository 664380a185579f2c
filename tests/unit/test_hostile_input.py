"""Hostile input against every public kernel: shapes, dtypes, layouts, sizes, parameters and strings drawn
by hypothesis, and the cases of issue 34. Whatever the input, a call returns a value or raises one of the
documented exceptions (TypeError, ValueError, MemoryError) with a message; never PyO3's PanicException
(a BaseException that ``except Exception`` misses), never a value where an error is documented, and a
size taken from a parameter is bounded before any memory is allocated (checked under an address-space
limit)."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rapideval
from rapideval import _core
from rapideval.compat import sacrebleu
from rapideval.metrics.string_distance import normalized_distances

#: What a kernel may raise for bad input.
DOCUMENTED = (TypeError, ValueError, MemoryError)

FEW = settings(max_examples=300, deadline=None)


def outcome(call):
    """The value of ``call()``, or its exception if it is a documented one (anything else fails)."""
    try:
        return call()
    except BaseException as e:  # noqa: BLE001 - a PanicException is a BaseException
        assert isinstance(e, DOCUMENTED), f"{type(e).__module__}.{type(e).__name__}: {e}"
        assert str(e), f"{type(e).__name__} without a message"
        return e


# ---- numbers -------------------------------------------------------------------------------------------

REAL_DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int8, np.uint16, np.bool_]
SPECIAL = [0.0, -0.0, 1.0, -1.0, math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324, 1e-300]

floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True, width=64), st.sampled_from(SPECIAL))


@st.composite
def real_arrays(draw, ndim=1, max_rows=12):
    """Real arrays of any dtype, made strided or Fortran-ordered at random."""
    shape = tuple(draw(st.integers(0, max_rows)) for _ in range(ndim))
    dtype = draw(st.sampled_from(REAL_DTYPES))
    values = draw(st.lists(floats, min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    with np.errstate(all="ignore"):
        arr = np.array(values, dtype=np.float64).reshape(shape).astype(dtype)
    layout = draw(st.sampled_from(["c", "fortran", "strided"]))
    if layout == "fortran":
        arr = np.asfortranarray(arr)
    elif layout == "strided" and arr.size:
        arr = np.repeat(arr, 2, axis=-1)[..., ::2]
    return arr


columns = st.one_of(
    real_arrays(),
    st.lists(st.one_of(floats, st.none(), st.integers(-(2**70), 2**70), st.booleans()), max_size=12),
)


resamples = st.one_of(st.integers(-3, 300), st.sampled_from([_core.MAX_RESAMPLES + 1, 2**62, 2**64, 2**70]))


@FEW
@given(columns, columns, resamples, st.sampled_from(["permutation", "bootstrap"]))
def test_statistics_of_any_column_return_values_or_documented_errors(x, y, n, method):
    for call in (
        lambda: rapideval.mean_std(x),
        lambda: rapideval.bootstrap_ci(x, n_resamples=n),
        lambda: rapideval.paired_test(x, x, method=method, n_resamples=n),
        lambda: rapideval.paired_test(x, y, n_resamples=n),
        lambda: rapideval.correlation(x, y, method="kendall", nan_policy="omit"),
        lambda: rapideval.correlation(x, x),
        lambda: rapideval.cohen_kappa(x, y, weights="quadratic"),
    ):
        outcome(call)
    if not 1 <= n <= _core.MAX_RESAMPLES:
        with pytest.raises(ValueError, match="n_resamples"):
            rapideval.bootstrap_ci(x, n_resamples=n)


@FEW
@given(real_arrays(ndim=2, max_rows=6), real_arrays(ndim=2, max_rows=6), st.integers(-1, 2**70))
def test_vectors_and_votes_of_any_matrix_return_values_or_documented_errors(a, b, k):
    for call in (
        lambda: rapideval.cosine(a, b),
        lambda: rapideval.cosine_matrix(a, b),
        lambda: rapideval.cosine_matrix(a, b, top_k=k),
        lambda: rapideval.majority_vote(a),
        lambda: rapideval.ordinal_vote(a),
    ):
        outcome(call)


@pytest.mark.parametrize(
    "call",
    [
        lambda z: rapideval.mean_std(z),
        lambda z: rapideval.bootstrap_ci(z, n_resamples=10),
        lambda z: rapideval.paired_test(z, np.zeros(len(z)), n_resamples=10),
        lambda z: rapideval.correlation(z, np.arange(len(z))),
        lambda z: rapideval.cosine(z, z),
        lambda z: rapideval.cosine_matrix(z[None, :], z[None, :]),
        lambda z: rapideval.ordinal_vote(z[None, :]),
    ],
)
@pytest.mark.parametrize("column", [np.array([1 + 2j, 3.0]), [1 + 2j, 3.0], [1j, None], [np.complex64(1), 2.0]])
def test_complex_numbers_are_a_type_error_in_every_numeric_kernel(call, column):
    with pytest.raises(TypeError):
        call(np.asarray(column) if isinstance(column, np.ndarray) else column)


@pytest.mark.parametrize("call", [rapideval.cohen_kappa, lambda a, b: rapideval.majority_vote([a, b])])
@pytest.mark.parametrize("labels", [[1, "a"], [1.5, "x"], [True, "yes"], [b"a", "a"]])
def test_labels_of_mixed_types_are_a_type_error(call, labels):
    with pytest.raises(TypeError, match="mixed types"):
        call(labels, labels)


def test_labels_of_one_kind_still_count():
    assert rapideval.cohen_kappa(["a", "b", None], ["a", "b", "b"]) == 1.0
    assert rapideval.cohen_kappa([1, 2.5, 1], [1, 2.5, 2.5]) == pytest.approx(0.4)
    assert list(rapideval.majority_vote([["x", "y", "x"], ["y", None, "y"]]).winner) == ["x", "y"]


# ---- parameters ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "call, name",
    [
        (lambda v: rapideval.set_num_threads(v), "n"),
        (lambda v: rapideval.sacrebleu_bleu(["a b"], ["a b"], max_ngram_order=v), "max_ngram_order"),
        (lambda v: rapideval.bootstrap_ci([0.1, 0.5], n_resamples=v), "n_resamples"),
        (lambda v: rapideval.paired_test([0.1, 0.5], [0.2, 0.1], n_resamples=v), "n_resamples"),
    ],
)
@pytest.mark.parametrize("value", [-1, -(2**70), 2**62, 2**70, 10**9 + 7])
def test_counts_out_of_range_name_the_parameter_and_the_limit(call, name, value):
    before = rapideval.get_num_threads()
    with pytest.raises(ValueError, match=rf"{name} must be an int from \d+ to \d+, got {value}"):
        call(value)
    assert rapideval.get_num_threads() == before


@pytest.mark.parametrize("value", [True, 1.5, "2", None])
def test_counts_of_other_types_are_type_or_value_errors(value):
    for call in (lambda: rapideval.set_num_threads(value),
                 lambda: rapideval.sacrebleu_bleu(["a"], ["a"], max_ngram_order=value)):
        assert isinstance(outcome(call), DOCUMENTED)


def test_limits_are_exported():
    assert (_core.MAX_THREADS, _core.MAX_RESAMPLES, _core.MAX_ORDER) == (1024, 100_000_000, 1000)
    assert rapideval.metrics.stats.MAX_RESAMPLES == _core.MAX_RESAMPLES


# ---- text ----------------------------------------------------------------------------------------------

HARD = ["", "\x00", "a\x00b", "\u202eevil\u202c text", "👩‍👩‍👧‍👦 family", "日本語のテキスト", "\ud800", "x\udfff y",
        "\U0010ffff", "a" * 5000, " ".join(["word"] * 3000), "\r\n\t\x0b\x0c", "ﷺ", "e\u0301"]

hard_text = st.one_of(st.sampled_from(HARD), st.text(max_size=30))
cells = st.one_of(hard_text, st.lists(hard_text, max_size=3), st.none(), st.integers(), st.binary(max_size=3))

TEXT_METRICS = {
    "bleu": rapideval.bleu,
    "gleu": rapideval.gleu,
    "rouge": lambda r, f: rapideval.rouge(r, f, ["rouge2", "rougeL", "rougeLsum"])["rougeL"].fmeasure,
    "meteor": rapideval.meteor,
    "chrf": rapideval.chrf,
    "ter": rapideval.ter,
    "f1": rapideval.f1,
    "exact_match": rapideval.exact_match,
    "sacrebleu_bleu": rapideval.sacrebleu_bleu,
}

#: The string distances compare code points, as rapidfuzz does: they score lone surrogates as it does.
DISTANCES = {"jaro_winkler": lambda r, f: normalized_distances(r, f, "jaro_winkler")}


def has_lone_surrogate(value) -> bool:
    texts = value if isinstance(value, list) else [value]
    return any(isinstance(t, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in t) for t in texts)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(hard_text, cells), min_size=1, max_size=4))
def test_text_metrics_of_any_rows_return_values_or_documented_errors(rows):
    responses = [r for r, _ in rows]
    references = [f for _, f in rows]
    for name, metric in {**TEXT_METRICS, **DISTANCES}.items():
        got = outcome(lambda: metric(responses, references))
        if name in TEXT_METRICS and any(map(has_lone_surrogate, responses)) and not isinstance(got, BaseException):
            pytest.fail(f"{name} scored a lone surrogate")
        if isinstance(got, np.ndarray):
            assert len(got) == len(rows)


@pytest.mark.parametrize("name", sorted(TEXT_METRICS))
def test_lone_surrogates_are_a_value_error_naming_the_row(name):
    with pytest.raises(ValueError, match=r"responses\[1\]: string is not valid Unicode \(lone surrogate\)"):
        TEXT_METRICS[name](["ok", "bad \ud83d"], ["ok", "fine"])


@pytest.mark.parametrize("measure", ["levenshtein", "hamming", "jaro", "jaro_winkler"])
def test_string_distances_score_lone_surrogates_as_rapidfuzz(measure):
    from rapidfuzz import distance

    a, b = ["x\ud800y", "\udfff", "ab"], ["xy", "\udfff\ud800", "a\udc00b"]
    want = [getattr(distance, measure.title().replace("_", "")).normalized_distance(x, y) for x, y in zip(a, b)]
    assert normalized_distances(a, b, measure).tolist() == want


def test_messages_name_what_was_passed():
    with pytest.raises(TypeError, match=r"references\[1\]: expected a str or a list of str, got NoneType"):
        rapideval.bleu(["a", "b"], ["a", None])
    with pytest.raises(ValueError, match=r"row 0: a segment has no reference \(its list of references is empty"):
        rapideval.sacrebleu_bleu(["a"], [[]])
    with pytest.raises(ValueError, match=r"^hypothesis: string is not valid Unicode"):
        sacrebleu.sentence_bleu("a \ud800", ["a"])
    with pytest.raises(ValueError, match=r"^hypotheses\[1\]: string is not valid Unicode"):
        sacrebleu.corpus_chrf(["a", "b \udc00"], [["a", "b"]])
    with pytest.raises(ValueError, match=r"^references\[0\]\[1\]: string is not valid Unicode"):
        sacrebleu.corpus_ter(["a", "b"], [["a", "b \udc00"]])
    with pytest.raises(ValueError, match=r"set_num_threads: n must be an int from 0 to 1024, got -1"):
        rapideval.set_num_threads(-1)
    with pytest.raises(TypeError, match=r"rouge_types: expected a ROUGE type or a sequence of them"):
        rapideval.rouge(["a"], ["a"], None)


# ---- the cases of issue 34, and an address-space limit ---------------------------------------------------

#: Each case, run in a child whose address space is limited to 3 GB (as `ulimit -v` does): the error
#: type and message it raises. Without the bounds these allocated tens of GB, or ended the process.
LIMITED_CASES = {
    "paired_test(np.arange(60.0), np.zeros(60), n_resamples=2**62)": "ValueError: n_resamples must be an int",
    "paired_test(np.arange(33.0), np.zeros(33), n_resamples=2**33)": "ValueError: n_resamples must be an int",
    "bootstrap_ci([0.1, 0.5, 0.9], n_resamples=10**12)": "ValueError: n_resamples must be an int",
    "sacrebleu_bleu(['a b'], ['a b'], max_ngram_order=10**9)": "ValueError: max_ngram_order must be an int",
    "set_num_threads(100000)": "ValueError: set_num_threads: n must be an int from 0 to 1024",
    # Sizes that pass every bound but cannot be allocated: a MemoryError, not an abort.
    "cosine_matrix(np.zeros((10**6, 0), np.float32), np.zeros((10**6, 0), np.float32))":
        "MemoryError: cannot allocate the cosine matrix",
    "majority_vote(np.zeros((10**11, 0), np.int64))": "MemoryError: cannot allocate the votes",
}

LIMITED_CHILD = textwrap.dedent(
    """
    import resource, sys
    import numpy as np
    import rapideval
    from rapideval import bootstrap_ci, cosine_matrix, majority_vote, paired_test, sacrebleu_bleu, set_num_threads
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    for case in sys.argv[1:]:
        try:
            eval(case)
            print("returned")
        except BaseException as e:
            print(f"{type(e).__name__}: {e}")
    print(rapideval.paired_test(np.arange(33.0), np.zeros(33), n_resamples=1000).n_resamples)
    """
)


def test_the_issue_cases_raise_clear_errors_under_an_address_space_limit():
    done = subprocess.run([sys.executable, "-c", LIMITED_CHILD, *LIMITED_CASES], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for (case, expected), line in zip(LIMITED_CASES.items(), lines):
        assert line.startswith(expected), (case, line)
    assert lines[-1] == "1000", "the child scores after the errors"


def test_a_paired_test_enumerates_exactly_only_within_the_resamples():
    exact = rapideval.paired_test(np.arange(10.0), np.zeros(10), n_resamples=1024)
    drawn = rapideval.paired_test(np.arange(11.0), np.zeros(11), n_resamples=1024)
    assert (exact.exact, exact.n_resamples, drawn.exact, drawn.n_resamples) == (True, 1024, False, 1024)


def test_the_str_reading_fallback_gives_the_same_values():
    """RAPIDEVAL_STR_API makes every kernel read str objects through CPython's API instead of their
    headers: the same values, and the same errors."""
    code = textwrap.dedent(
        """
        import json, sys
        import rapideval
        from rapideval import _core
        from rapideval.metrics.string_distance import normalized_distances
        class S(str):
            pass
        hyps = ["the cat sat", "naïve café ∑ 😀", S("a b a b"), "", "日本 語"]
        refs = [["the cat sat down", "a cat"], "cafe ∑", [S("b a b"), "a"], "x", "日本"]
        tokens = lambda rows: [r.split() if isinstance(r, str) else [x.split() for x in r] for r in rows]
        out = {
            "raw": _core.raw_str_reads(),
            "bleu": rapideval.bleu(tokens(hyps), tokens(refs), tokenizer=None).tolist(),
            "gleu": rapideval.gleu(tokens(hyps), tokens(refs), tokenizer=None).tolist(),
            "rouge": rapideval.rouge(hyps, refs)["rougeL"].fmeasure.tolist(),
            "jaro": normalized_distances(hyps, [r if isinstance(r, str) else r[0] for r in refs], "jaro").tolist(),
            "surrogates": normalized_distances(["a\\ud800b", "\\udfff"], ["ab", "\\udfff\\ud800"]).tolist(),
        }
        try:
            rapideval.bleu([["a", "b\\ud800"]], [["a"]], tokenizer=None)
        except ValueError as e:
            out["error"] = str(e)
        print(json.dumps(out))
        """
    )
    results = []
    for forced in (False, True):
        env = {k: v for k, v in os.environ.items() if k != "RAPIDEVAL_STR_API"}
        if forced:
            env["RAPIDEVAL_STR_API"] = "1"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 0, done.stderr
        results.append(__import__("json").loads(done.stdout))
    header, api = results
    assert api.pop("raw") is False
    header.pop("raw")
    assert header == api
    assert api["error"].startswith("responses[0][1]: string is not valid Unicode")
