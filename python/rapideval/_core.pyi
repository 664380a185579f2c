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

# --- sacrebleu 2.6.0 chrF / chrF++ (rust/py/chrf.rs); beta_squared is Python's beta ** 2
def sacrebleu_sentence_chrf(
    responses: Sequence[str],
    references: Sequence[Any],
    char_order: int,
    word_order: int,
    beta_squared: float,
    lowercase: bool,
    whitespace: bool,
    eps_smoothing: bool,
) -> Any: ...  # numpy float64 array
def sacrebleu_corpus_chrf(
    responses: Sequence[str],
    references: Sequence[Any],
    char_order: int,
    word_order: int,
    beta_squared: float,
    lowercase: bool,
    whitespace: bool,
    eps_smoothing: bool,
) -> tuple[float, list[int]]: ...

# --- sacrebleu 2.6.0 TER (rust/py/ter.rs)
def sacrebleu_sentence_ter(
    responses: Sequence[str],
    references: Sequence[Any],
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
) -> Any: ...  # numpy float64 array
def sacrebleu_corpus_ter(
    responses: Sequence[str],
    references: Sequence[Any],
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
) -> tuple[float, int, float]: ...
