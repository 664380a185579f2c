"""Every batch metric accepts the column types users hold, rejects bad cells by name, and gives results
that do not depend on the number of threads."""

from __future__ import annotations

import os
import select
import signal
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyarrow as pa
import pytest

import rapideval

RESPONSES = ["The cat sat on the mat.", "Paris is the capital of France.", "", "naïve café — “quoted”\n"]
REFERENCES = ["A cat was sitting on the mat.", "The capital of France is Paris.", "empty answer", "naive cafe"]

TEXT_BATCHES = {
    "bleu": rapideval.bleu,
    "bleu_tokens": lambda r, f: rapideval.bleu([x.split() for x in r], [x.split() for x in f], tokenizer=None),
    "gleu": rapideval.gleu,
    "gleu_tokens": lambda r, f: rapideval.gleu([x.split() for x in r], [x.split() for x in f], tokenizer=None),
    "sacrebleu_bleu": rapideval.sacrebleu_bleu,
    "f1": rapideval.f1,
    "exact_match": rapideval.exact_match,
    "rouge": lambda r, f: rapideval.rouge(r, f, rouge_types=("rouge2", "rougeLsum"))["rougeLsum"].fmeasure,
    "meteor": rapideval.meteor,
    "chrf": rapideval.chrf,
    "ter": rapideval.ter,
}

# The column-type, bad-input and thread-count tests below run on these; the other metrics test their
# inputs in their own files.
BATCH = {name: TEXT_BATCHES[name] for name in ("bleu", "gleu", "sacrebleu_bleu", "exact_match")}


@pytest.mark.parametrize("name", sorted(BATCH))
def test_lists_numpy_and_pyarrow_give_the_same_values(name):
    fn = BATCH[name]
    expected = fn(RESPONSES, REFERENCES)
    assert isinstance(expected, np.ndarray) and expected.dtype == np.float64
    for convert in (tuple, np.array, lambda c: np.array(c, dtype=object), pa.array, lambda c: pa.chunked_array([c])):
        got = fn(convert(RESPONSES), convert(REFERENCES))
        assert got.tobytes() == expected.tobytes()


@pytest.mark.parametrize("name", sorted(n for n in TEXT_BATCHES if not n.endswith("_tokens")))
def test_reference_rows_of_other_sequence_types(name):
    """The native layer rejects rows that are not lists, tuples or str; they are made lists only then,
    and the call made again: the values are those of lists."""
    fn = TEXT_BATCHES[name]
    responses = [r or "no answer" for r in RESPONSES]  # F1 rejects an empty response
    rows = [[REFERENCES[0], "the cat"], [REFERENCES[1]], ["empty answer"], ["naive cafe", "café"]]
    expected = fn(responses, rows)
    for convert in (np.array, lambda r: np.array(r, dtype=object), tuple, pa.array):
        assert fn(responses, [convert(r) for r in rows]).tobytes() == expected.tobytes()


class Text(str):
    """A str subclass: CPython stores its characters apart from the object, unlike most strings."""


@pytest.mark.parametrize("name", sorted(n for n in TEXT_BATCHES if not n.endswith("_tokens")))
def test_str_subclasses_score_as_their_str(name):
    fn = TEXT_BATCHES[name]
    responses = [r or "no answer" for r in RESPONSES]  # F1 rejects an empty response
    expected = fn(responses, REFERENCES)
    got = fn([Text(r) for r in responses], [[Text(r)] for r in REFERENCES])
    assert got.tobytes() == expected.tobytes()


@pytest.mark.parametrize("fn", [rapideval.bleu, rapideval.gleu])
def test_token_rows_of_other_sequence_types(fn):
    hypotheses = [r.split() for r in RESPONSES]
    references = [r.split() for r in REFERENCES]
    expected = fn(hypotheses, references, tokenizer=None)
    for convert in (lambda r: np.array(r, dtype=object), pa.array):
        got = fn(hypotheses, [convert(r) for r in references], tokenizer=None)
        assert got.tobytes() == expected.tobytes()


@pytest.mark.parametrize("name", sorted(BATCH))
def test_several_references_per_row(name):
    fn = BATCH[name]
    multi = fn(RESPONSES[:2], [[REFERENCES[0], "the cat"], (REFERENCES[1],)])
    assert multi.shape == (2,)


@pytest.mark.parametrize("name", sorted(BATCH))
@pytest.mark.parametrize(
    "responses, references, error, message",
    [
        (["a", None], ["a", "b"], TypeError, r"responses\[1\].*NoneType"),
        (["a", "b"], ["a", 7], TypeError, r"references\[1\].*int"),
        (["a", "\ud800"], ["a", "b"], ValueError, r"responses\[1\].*surrogate"),
        (["a"], ["a", "b"], ValueError, r"rows"),
        ("a string", ["a"], TypeError, r"responses"),
        (["a"], [["ok", 3]], TypeError, r"references\[0\]\[1\]"),
    ],
)
def test_bad_input_names_the_row_and_field(name, responses, references, error, message):
    with pytest.raises(error, match=message):
        BATCH[name](responses, references)


@pytest.mark.parametrize("name", sorted(BATCH))
def test_results_do_not_depend_on_thread_count(name):
    fn = BATCH[name]
    responses = RESPONSES * 300
    references = REFERENCES * 300
    before = rapideval.get_num_threads()
    try:
        rapideval.set_num_threads(1)
        one = fn(responses, references)
        rapideval.set_num_threads(4)
        four = fn(responses, references)
    finally:
        rapideval.set_num_threads(before)
    assert one.tobytes() == four.tobytes()


def test_huge_strings_do_not_crash():
    big = ("The quick brown fox jumps over the lazy dog. " * 25_000)[:1_000_000]
    for fn in BATCH.values():
        assert fn([big], [big]).shape == (1,)


@pytest.mark.parametrize("name", sorted(TEXT_BATCHES))
def test_calling_thread_and_pool_give_the_same_values(name):
    # Batches under 16 rows, and all batches on one thread, run on the calling thread; the others on
    # the pool. Every path must give the same bytes.
    fn = TEXT_BATCHES[name]
    # No empty cell: F1 raises on one.
    responses = [r or "an answer" for r in RESPONSES] * 20
    references = REFERENCES * 20
    before = rapideval.get_num_threads()
    try:
        rapideval.set_num_threads(4)
        pooled = fn(responses, references)
        in_small_batches = np.concatenate([fn(responses[i : i + 5], references[i : i + 5]) for i in range(0, 80, 5)])
        rapideval.set_num_threads(1)
        one_thread = fn(responses, references)
    finally:
        rapideval.set_num_threads(before)
    assert pooled.shape == (80,)
    assert pooled.tobytes() == in_small_batches.tobytes() == one_thread.tobytes()


def test_python_threads_share_the_workers_and_keep_their_rows():
    # Each calling thread shares its batch's rows with the same worker threads; concurrent calls
    # must neither mix their rows nor wait on each other forever.
    responses = [r or "an answer" for r in RESPONSES] * 40
    references = REFERENCES * 40
    before = rapideval.get_num_threads()
    try:
        rapideval.set_num_threads(2)
        expected = {name: fn(responses, references).tobytes() for name, fn in TEXT_BATCHES.items()}
        with ThreadPoolExecutor(max_workers=4) as executor:
            futures = [
                (name, executor.submit(fn, responses, references))
                for _ in range(3)
                for name, fn in TEXT_BATCHES.items()
            ]
            got = [(name, future.result(timeout=120).tobytes()) for name, future in futures]
    finally:
        rapideval.set_num_threads(before)
    assert all(values == expected[name] for name, values in got)


def test_a_forked_child_scores_on_a_pool_of_its_own():
    # The parent's worker threads do not exist in a forked child: waiting on them would hang.
    before = rapideval.get_num_threads()
    try:
        rapideval.set_num_threads(3)
        expected = rapideval.chrf(RESPONSES * 10, REFERENCES * 10)
        read_end, write_end = os.pipe()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # Python 3.12+: fork of a threaded process
            pid = os.fork()
        if pid == 0:
            try:
                got = rapideval.chrf(RESPONSES * 10, REFERENCES * 10)
                os.write(write_end, f"{rapideval.get_num_threads()} {got.tobytes() == expected.tobytes()}".encode())
            finally:
                os._exit(0)
        os.close(write_end)
        ready, _, _ = select.select([read_end], [], [], 60)
        answer = os.read(read_end, 100).decode() if ready else "no answer in 60 s"
        if not ready:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    finally:
        rapideval.set_num_threads(before)
    assert answer == "3 True"


@pytest.mark.parametrize("row", [{"a cat": 1}, {"a cat"}], ids=["dict", "set"])
def test_a_mapping_or_set_is_not_read_as_references(row) -> None:
    for kernel in (rapideval.bleu, rapideval.gleu, rapideval.sacrebleu_bleu, rapideval.chrf, rapideval.ter,
                   rapideval.meteor, rapideval.rouge):  # fmt: skip
        with pytest.raises(TypeError, match=r"references\[0\]: expected a str or a list of str"):
            kernel(["a cat"], [row])
