"""rouge-score 0.1.2 ``tokenizers``: the ``Tokenizer`` base class and ``DefaultTokenizer`` (lower-case,
``[a-z0-9]`` runs, optional nltk Porter stemming of tokens longer than 3 characters), in Rust."""

from __future__ import annotations

import abc

from ... import _core

__all__ = ["DefaultTokenizer", "Tokenizer"]


class Tokenizer(abc.ABC):
    """Base class of tokenizers: ``tokenize(text)`` returns a list of tokens."""

    @abc.abstractmethod
    def tokenize(self, text: str) -> list[str]:
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge-score's default tokenizer. ``tokenizer="unicode"`` selects rapideval's Unicode-aware
    extension instead (see :func:`rapideval.metrics.rouge.rouge`)."""

    def __init__(self, use_stemmer: bool = False, tokenizer: str = "default") -> None:
        self._use_stemmer = bool(use_stemmer)
        self._kind = tokenizer

    def tokenize(self, text: str) -> list[str]:
        return _core.rouge_tokenize([text], self._use_stemmer, self._kind)[0]
