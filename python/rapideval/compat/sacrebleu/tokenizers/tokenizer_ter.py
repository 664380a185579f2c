"""``sacrebleu.tokenizers.tokenizer_ter.TercomTokenizer`` of sacrebleu 2.6.0, in Python: identical
strings for every input and option (lower-casing unless ``case_sensitive``, tercom's western and
``asian_support`` normalisation, punctuation removal, whitespace squashed).

rapideval's TER kernel has its own Rust port of this tokenizer, which the TER scores use; it is not
callable on its own, so this class repeats sacrebleu's regular expressions (stdlib ``re``) in
sacrebleu's order. Port of sacrebleu's ``tokenizer_ter.py`` (Copyright 2020 Memsource, Apache-2.0).
"""

from __future__ import annotations

import re

from .tokenizer_base import BaseTokenizer

__all__ = ["TercomTokenizer"]

_ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"

# (pattern, replacement) in the order sacrebleu applies them.
_GENERAL_AND_WESTERN = [
    (re.compile(r"\n-"), ""),
    (re.compile(r"\n"), " "),
    (re.compile(r"&quot;"), '"'),
    (re.compile(r"&amp;"), "&"),
    (re.compile(r"&lt;"), "<"),
    (re.compile(r"&gt;"), ">"),
]
_WESTERN = [
    (re.compile(r"([{-~[-` -&(-+:-@/])"), r" \1 "),
    (re.compile(r"'s "), r" 's "),
    (re.compile(r"'s$"), r" 's"),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]
_ASIAN = [
    (re.compile(r"([\u4e00-\u9fff\u3400-\u4dbf])"), r" \1 "),
    (re.compile(r"([\u31c0-\u31ef\u2e80-\u2eff])"), r" \1 "),
    (re.compile(r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])"), r" \1 "),
    (re.compile(r"([\u3200-\u3f22])"), r" \1 "),
    # sacrebleu's kana rules (their `^` inside the group only matches at the start: kept as they are).
    (re.compile(r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])"), r"\1 \2 "),
    (re.compile(r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])"), r"\1 \2 "),
    (re.compile(r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])"), r"\1 \2 "),
    (re.compile(_ASIAN_PUNCT), r" \1 "),
    (re.compile(_FULL_WIDTH_PUNCT), r" \1 "),
]
_PUNCT = re.compile(r"[\.,\?:;!\"\(\)]")
_ASIAN_PUNCT_RE = [re.compile(_ASIAN_PUNCT), re.compile(_FULL_WIDTH_PUNCT)]


def _apply(rules: list[tuple[re.Pattern[str], str]], sent: str) -> str:
    for pattern, repl in rules:
        sent = pattern.sub(repl, sent)
    return sent


class TercomTokenizer(BaseTokenizer):
    """sacrebleu 2.6.0 ``TercomTokenizer(normalized=False, no_punct=False, asian_support=False,
    case_sensitive=False)``: ``tokenizer(sentence)`` returns the tokenized sentence (one string, single
    spaces), equal to sacrebleu's for every input; ``signature()`` is ``tercom``."""

    ASIAN_PUNCT = _ASIAN_PUNCT
    FULL_WIDTH_PUNCT = _FULL_WIDTH_PUNCT

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> None:
        self._normalized = normalized
        self._no_punct = no_punct
        self._asian_support = asian_support
        self._case_sensitive = case_sensitive

    def __call__(self, sent: str) -> str:
        if not sent:
            return ""
        if not self._case_sensitive:
            sent = sent.lower()
        if self._normalized:
            sent = _apply(_GENERAL_AND_WESTERN, sent)
            sent = _apply(_WESTERN, f" {sent} ")
            if self._asian_support:
                sent = _apply(_ASIAN, sent)
        if self._no_punct:
            sent = _PUNCT.sub("", sent)
            if self._asian_support:
                for pattern in _ASIAN_PUNCT_RE:
                    sent = pattern.sub("", sent)
        return " ".join(sent.split())

    def signature(self) -> str:
        return "tercom"
