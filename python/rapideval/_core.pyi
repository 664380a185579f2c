"""Type stubs for the native module ``rapideval._core`` (Rust, PyO3). Keep in sync with rust/py/."""

from collections.abc import Sequence
from typing import Any, final

import numpy as np
import numpy.typing as npt
from numpy.typing import NDArray

__all__ = [
    "MAX_ORDER",
    "MAX_RESAMPLES",
    "MAX_THREADS",
    "BleuSettings",
    "BleuSmoothing",
    "ChrfSettings",
    "MeteorSettings",
    "PairedTestSettings",
    "SacrebleuBleuSettings",
    "TerSettings",
    "bleu_batch",
    "bleu_tokens",
    "bootstrap_means",
    "cohen_kappa",
    "correlation",
    "cosine_matrix",
    "cosine_rows",
    "cosine_top_k",
    "exact_match",
    "f1_score",
    "get_num_threads",
    "gleu_batch",
    "gleu_tokens",
    "majority_vote",
    "mean_std",
    "meteor",
    "meteor_forget_words",
    "meteor_tokens",
    "nltk_corpus_bleu",
    "nltk_corpus_gleu",
    "normalize",
    "ordinal_vote",
    "paired_test",
    "porter_stem",
    "raw_str_reads",
    "release_memory",
    "rouge",
    "rouge_score_ids",
    "rouge_score_multi",
    "rouge_tokenize",
    "sacrebleu_corpus_bleu",
    "sacrebleu_corpus_chrf",
    "sacrebleu_corpus_ter",
    "sacrebleu_sentence_bleu",
    "sacrebleu_sentence_chrf",
    "sacrebleu_sentence_ter",
    "sent_tokenize",
    "set_num_threads",
    "string_distance",
    "string_distance_batch",
    "tokenize",
    "wordnet_license",
    "wordnet_synonyms",
]

# --- limits, threads, memory (rust/py/mod.rs)
MAX_THREADS: int
MAX_RESAMPLES: int
MAX_ORDER: int

def set_num_threads(n: int) -> None: ...
def get_num_threads() -> int: ...
def release_memory() -> None: ...
def raw_str_reads() -> bool: ...

# --- tokenizers (rust/py/text.rs)
def tokenize(texts: Sequence[str], tokenizer: str) -> list[list[str]]: ...
def sent_tokenize(texts: Sequence[str]) -> list[list[str]]: ...
def normalize(texts: Sequence[str], kind: str) -> list[str]: ...

# --- token F1 and exact match (rust/py/f1.rs)
def f1_score(responses: Sequence[str], references: Sequence[Any]) -> npt.NDArray[np.float64]: ...
def exact_match(responses: Sequence[str], references: Sequence[Any], normalize: bool) -> npt.NDArray[np.float64]: ...

# --- sacrebleu 2.6.0 BLEU (rust/py/sacrebleu.rs); each reference row is a str or a list of str
@final
class SacrebleuBleuSettings:
    """The options of ``sacrebleu.BLEU`` (``smooth_value=None``: the method's default)."""

    def __new__(
        cls,
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = 4,
        effective_order: bool = False,
    ) -> SacrebleuBleuSettings: ...

def sacrebleu_sentence_bleu(
    responses: Sequence[str], references: Sequence[Any], settings: SacrebleuBleuSettings
) -> npt.NDArray[np.float64]: ...
def sacrebleu_corpus_bleu(
    responses: Sequence[str], references: Sequence[Any], settings: SacrebleuBleuSettings
) -> tuple[float, list[float], list[float], list[float], float, int, int]: ...

# --- nltk BLEU and GLEU (rust/py/bleu.rs, rust/py/gleu.rs)
@final
class BleuSmoothing:
    """``SmoothingFunction(epsilon, alpha, k).<method>``; only the parameters the method uses are read."""

    def __new__(
        cls, method: str = "method0", *, epsilon: int | float = 0.1, alpha: int | float = 5, k: int | float = 5
    ) -> BleuSmoothing: ...

@final
class BleuSettings:
    """The settings of sentence BLEU (``smoothing=None``: method0)."""

    def __new__(
        cls,
        *,
        weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
        smoothing: BleuSmoothing | None = None,
        auto_reweigh: bool = False,
    ) -> BleuSettings: ...

def nltk_corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[str] | str] | str],
    hypotheses: Sequence[Sequence[str] | str],
    max_order: int,
    weights: list[list[float]],
    smoothing: BleuSmoothing,
) -> list[float] | None: ...
def bleu_batch(
    responses: Sequence[str], references: Sequence[str | Sequence[str]], tokenizer: str, settings: BleuSettings
) -> npt.NDArray[np.float64]: ...
def bleu_tokens(
    responses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str] | Sequence[Sequence[str]]],
    settings: BleuSettings,
) -> npt.NDArray[np.float64]: ...
def nltk_corpus_gleu(
    list_of_references: Sequence[Sequence[Sequence[str] | str] | str],
    hypotheses: Sequence[Sequence[str] | str],
    min_len: int,
    max_len: int,
) -> float: ...
def gleu_batch(
    responses: Sequence[str], references: Sequence[str | Sequence[str]], tokenizer: str, min_len: int, max_len: int
) -> npt.NDArray[np.float64]: ...
def gleu_tokens(
    responses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str] | Sequence[Sequence[str]]],
    min_len: int,
    max_len: int,
) -> npt.NDArray[np.float64]: ...

# --- vectors (rust/py/vectors.rs): a and b are C-contiguous 2-D arrays of one dtype, float32 or float64
def cosine_rows(a: NDArray[np.floating], b: NDArray[np.floating]) -> NDArray[np.floating]: ...
def cosine_matrix(a: NDArray[np.floating], b: NDArray[np.floating]) -> NDArray[np.floating]: ...
def cosine_top_k(
    a: NDArray[np.floating], b: NDArray[np.floating], k: int
) -> tuple[NDArray[np.int64], NDArray[np.floating]]: ...

# --- votes (rust/py/votes.rs)
def majority_vote(
    codes: NDArray[np.int64], tie: str
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.float64], NDArray[np.bool_]]: ...
def ordinal_vote(scores: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64]]: ...

# --- stats (rust/py/stats.rs): float64 columns, label codes as int64
def mean_std(x: NDArray[np.float64], ddof: float) -> tuple[float, float, int, int]: ...
def bootstrap_means(x: NDArray[np.float64], n_resamples: int, seed: int) -> NDArray[np.float64]: ...

@final
class PairedTestSettings:
    """``method`` "permutation" or "bootstrap"; ``alternative`` "two-sided", "less" or "greater"."""

    def __new__(
        cls, *, method: str = "permutation", alternative: str = "two-sided", n_resamples: int = 10_000, seed: int = 0
    ) -> PairedTestSettings: ...

def paired_test(
    a: NDArray[np.float64], b: NDArray[np.float64], settings: PairedTestSettings
) -> tuple[float, float, int, int, bool]: ...
def correlation(x: NDArray[np.float64], y: NDArray[np.float64], method: str, omit_nan: bool) -> float: ...
def cohen_kappa(a: NDArray[np.int64], b: NDArray[np.int64], n_labels: int, weights: str | None) -> float: ...

# --- rapidfuzz 3.14 normalized string distances (rust/py/string_distance.rs); measure is "levenshtein",
# "hamming", "jaro" or "jaro_winkler"; a and b of string_distance_batch are lists or tuples of equal length
def string_distance(a: str, b: str, measure: str) -> float: ...
def string_distance_batch(a: Sequence[str], b: Sequence[str], measure: str) -> npt.NDArray[np.float64]: ...

# --- ROUGE and the Porter stemmer (rust/py/rouge.rs)
def rouge(
    responses: Sequence[str],
    references: Sequence[Any],
    rouge_types: Sequence[str],
    use_stemmer: bool = False,
    split_summaries: bool = False,
    tokenizer: str = "default",
) -> dict[str, tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]]: ...
def rouge_score_multi(
    targets: Sequence[str],
    prediction: str,
    rouge_types: Sequence[str],
    use_stemmer: bool = False,
    split_summaries: bool = False,
    tokenizer: str = "default",
) -> list[tuple[float, float, float, bool]]: ...
def rouge_score_ids(
    target: Sequence[int],
    prediction: Sequence[int],
    target_sentences: Sequence[Sequence[int]],
    prediction_sentences: Sequence[Sequence[int]],
    rouge_types: Sequence[str],
) -> list[tuple[float, float, float, bool]]: ...
def rouge_tokenize(texts: Sequence[str], use_stemmer: bool = False, tokenizer: str = "default") -> list[list[str]]: ...
def porter_stem(words: Sequence[str]) -> list[str]: ...

# --- METEOR and WordNet (rust/py/meteor.rs)
@final
class MeteorSettings:
    """The weights of nltk's ``single_meteor_score``."""

    def __new__(cls, *, alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5) -> MeteorSettings: ...

def meteor(
    responses: Sequence[str], references: Sequence[Any], settings: MeteorSettings, tokenizer: str = "promptflow"
) -> npt.NDArray[np.float64]: ...
def meteor_tokens(
    references: Sequence[Sequence[str]],
    hypothesis: Sequence[str],
    settings: MeteorSettings,
    *,
    lowercase: bool = True,
    hypothesis_stems: Sequence[str] | None = None,
    reference_stems: Sequence[Sequence[str]] | None = None,
    hypothesis_synonyms: Sequence[Sequence[str]] | None = None,
) -> float: ...
def meteor_forget_words() -> None: ...
def wordnet_synonyms(words: Sequence[str]) -> list[list[str]]: ...
def wordnet_license() -> str: ...

# --- sacrebleu 2.6.0 chrF / chrF++ (rust/py/chrf.rs)
@final
class ChrfSettings:
    """The options of ``sacrebleu.CHRF``; ``beta_squared`` is Python's ``beta ** 2``."""

    def __new__(
        cls,
        *,
        char_order: int = 6,
        word_order: int = 0,
        beta_squared: float = 4.0,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
    ) -> ChrfSettings: ...

def sacrebleu_sentence_chrf(
    responses: Sequence[str], references: Sequence[Any], settings: ChrfSettings
) -> npt.NDArray[np.float64]: ...
def sacrebleu_corpus_chrf(
    responses: Sequence[str], references: Sequence[Any], settings: ChrfSettings
) -> tuple[float, list[int]]: ...

# --- sacrebleu 2.6.0 TER (rust/py/ter.rs)
@final
class TerSettings:
    """The options of ``sacrebleu.TER``."""

    def __new__(
        cls,
        *,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> TerSettings: ...

def sacrebleu_sentence_ter(
    responses: Sequence[str], references: Sequence[Any], settings: TerSettings
) -> npt.NDArray[np.float64]: ...
def sacrebleu_corpus_ter(
    responses: Sequence[str], references: Sequence[Any], settings: TerSettings
) -> tuple[float, int, float]: ...
