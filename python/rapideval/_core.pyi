"""Type stubs for the native module ``rapideval._core`` (Rust, PyO3). Keep in sync with rust/py/."""

from typing import Any, Sequence

# --- threads (rust/py/mod.rs)
def set_num_threads(n: int) -> None: ...
def get_num_threads() -> int: ...

# --- tokenizers (rust/py/text.rs)
def tokenize(texts: Sequence[str], tokenizer: str) -> list[list[str]]: ...
def sent_tokenize(texts: Sequence[str]) -> list[list[str]]: ...
def normalize(texts: Sequence[str], kind: str) -> list[str]: ...

# --- token F1 and exact match (rust/py/f1.rs)
def f1_score(responses: Sequence[str], references: Sequence[str]) -> Any: ...  # numpy float64 array
def exact_match(responses: Sequence[str], references: Sequence[str], normalize: bool) -> Any: ...

# --- sacrebleu 2.6.0 BLEU (rust/py/sacrebleu.rs); each reference row is a str or a list of str
def sacrebleu_sentence_bleu(
    responses: Sequence[str],
    references: Sequence[Any],
    tokenize: str,
    lowercase: bool,
    smooth_method: str,
    smooth_value: float | None,
    max_ngram_order: int,
    effective_order: bool,
) -> Any: ...  # numpy float64 array
def sacrebleu_corpus_bleu(
    responses: Sequence[str],
    references: Sequence[Any],
    tokenize: str,
    lowercase: bool,
    smooth_method: str,
    smooth_value: float | None,
    max_ngram_order: int,
    effective_order: bool,
) -> tuple[float, list[float], list[float], list[float], float, int, int]: ...
# --- nltk BLEU and GLEU (rust/py/bleu.rs, rust/py/gleu.rs)
def nltk_corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[str] | str] | str],
    hypotheses: Sequence[Sequence[str] | str],
    max_order: int,
    weights: list[list[float]],
    method: str,
    epsilon: int | float,
    alpha: int | float,
    k: int | float,
) -> list[float] | None: ...
def bleu_batch(
    responses: Sequence[str],
    references: Sequence[str | Sequence[str]],
    tokenizer: str,
    weights: list[float],
    method: str,
    epsilon: int | float,
    alpha: int | float,
    k: int | float,
    auto_reweigh: bool,
) -> Any: ...
def nltk_corpus_gleu(
    list_of_references: Sequence[Sequence[Sequence[str] | str] | str],
    hypotheses: Sequence[Sequence[str] | str],
    min_len: int,
    max_len: int,
) -> float: ...
def gleu_batch(
    responses: Sequence[str], references: Sequence[str | Sequence[str]], tokenizer: str, min_len: int, max_len: int
) -> Any: ...
