"""``sacrebleu.tokenizers.tokenizer_base`` of sacrebleu 2.6.0."""

from __future__ import annotations

__all__ = ["BaseTokenizer"]


class BaseTokenizer:
    """sacrebleu 2.6.0 ``BaseTokenizer``: ``signature()`` (the name printed in signatures) and
    ``__call__(line)`` (the tokenized line, one string)."""

    def signature(self) -> str:
        raise NotImplementedError()

    def __call__(self, line: str) -> str:
        raise NotImplementedError()
