"""``sacrebleu.tokenizers`` of sacrebleu 2.6.0, as far as rapideval offers them on their own:
``BaseTokenizer``, ``tokenizer_ter.TercomTokenizer`` and ``tokenizer_zh.TokenizerZh`` (the ``13a``,
``intl``, ``char`` and ``none`` tokenizers run inside the BLEU kernel; ``rapideval.tokenize`` has
``sacrebleu_13a`` and ``sacrebleu_intl``)."""

from __future__ import annotations

from .tokenizer_base import BaseTokenizer
from .tokenizer_ter import TercomTokenizer
from .tokenizer_zh import TokenizerZh

__all__ = ["BaseTokenizer", "TercomTokenizer", "TokenizerZh"]
