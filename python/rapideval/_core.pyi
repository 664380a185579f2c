"""Type stubs for the native module ``rapideval._core`` (Rust, PyO3). Keep in sync with rust/py/."""

from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

# --- threads (rust/py/mod.rs)
def set_num_threads(n: int) -> None: ...
def get_num_threads() -> int: ...

# --- tokenizers (rust/py/text.rs)
def tokenize(texts: Sequence[str], tokenizer: str) -> list[list[str]]: ...
def sent_tokenize(texts: Sequence[str]) -> list[list[str]]: ...
def normalize(texts: Sequence[str], kind: str) -> list[str]: ...

# --- ROUGE and the Porter stemmer (rust/py/rouge.rs); __all__ += porter_stem, rouge, rouge_score_ids,
# rouge_score_multi, rouge_tokenize
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

# --- METEOR and WordNet (rust/py/meteor.rs); __all__ += meteor, meteor_tokens, wordnet_license,
# wordnet_synonyms
def meteor(
    responses: Sequence[str],
    references: Sequence[Any],
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
    tokenizer: str = "promptflow",
) -> npt.NDArray[np.float64]: ...
def meteor_tokens(
    references: Sequence[Sequence[str]],
    hypothesis: Sequence[str],
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
    lowercase: bool = True,
    hypothesis_stems: Sequence[str] | None = None,
    reference_stems: Sequence[Sequence[str]] | None = None,
    hypothesis_synonyms: Sequence[Sequence[str]] | None = None,
) -> float: ...
def wordnet_synonyms(words: Sequence[str]) -> list[list[str]]: ...
def wordnet_license() -> str: ...
