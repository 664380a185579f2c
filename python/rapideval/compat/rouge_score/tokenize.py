"""rouge-score 0.1.2 ``tokenize``: ``tokenize(text, stemmer)`` (lower-case, runs of ``[a-z0-9]``,
optional stemming of tokens longer than 3 characters) and the module's regex constants.

The tokens come from the Rust tokenizer, stemmed there too when ``stemmer`` is nltk's
``PorterStemmer()`` (NLTK_EXTENSIONS mode, what rouge-score's ``DefaultTokenizer`` uses). Any other
truthy ``stemmer`` gets ``stemmer.stem(token)`` called from Python for each token longer than 3
characters, in order, as rouge-score does, and its results are filtered with ``VALID_TOKEN_RE``.

``text`` is a ``str`` or UTF-8 ``bytes`` (rouge-score lower-cases bytes in ASCII only, then decodes
them); other types raise ``TypeError``.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from ... import _core

__all__ = [
    "NON_ALPHANUM_PATTERN",
    "NON_ALPHANUM_RE",
    "SPACES_PATTERN",
    "SPACES_RE",
    "VALID_TOKEN_PATTERN",
    "VALID_TOKEN_RE",
    "tokenize",
]

NON_ALPHANUM_PATTERN = r"[^a-z0-9]+"
NON_ALPHANUM_RE = re.compile(NON_ALPHANUM_PATTERN)
SPACES_PATTERN = r"\s+"
SPACES_RE = re.compile(SPACES_PATTERN)
VALID_TOKEN_PATTERN = r"^[a-z0-9]+$"
VALID_TOKEN_RE = re.compile(VALID_TOKEN_PATTERN)

_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _is_nltk_porter(stemmer: Any) -> bool:
    """Whether ``stemmer`` is nltk's ``PorterStemmer()`` itself (not a subclass), in its default
    mode: the stemmer the Rust kernel reproduces."""
    porter = sys.modules.get("nltk.stem.porter")
    cls = getattr(porter, "PorterStemmer", None)
    return cls is not None and type(stemmer) is cls and getattr(stemmer, "mode", None) == "NLTK_EXTENSIONS"


def _ensure_str(value: Any) -> str:
    """``six.ensure_str``: bytes decoded as UTF-8, str kept, anything else a ``TypeError``."""
    if type(value) is str:
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "strict")
    if not isinstance(value, str):
        raise TypeError(f"not expecting type '{type(value)}'")
    return value


def tokenize(text: str | bytes, stemmer: Any) -> list[str]:
    """rouge-score's ``tokenize(text, stemmer)``: the lower-cased ``[a-z0-9]+`` runs of ``text``;
    when ``stemmer`` is truthy, each token longer than 3 characters replaced by
    ``stemmer.stem(token)``, and tokens that are then not ``[a-z0-9]+`` dropped."""
    if isinstance(text, bytes):
        # rouge-score lower-cases bytes in ASCII only, so no non-ASCII character can turn into a
        # token character (as "İ".lower() would): they are separators, like any non-[a-z0-9].
        text = _NON_ASCII.sub(" ", text.decode("utf-8", "strict"))
    elif not isinstance(text, str):
        raise TypeError(f"tokenize expects a str (or UTF-8 bytes), got {type(text).__name__}")
    if not stemmer:
        return _core.rouge_tokenize([text], False)[0]
    if _is_nltk_porter(stemmer):
        return _core.rouge_tokenize([text], True)[0]
    tokens = [_ensure_str(stemmer.stem(x)) if len(x) > 3 else x for x in _core.rouge_tokenize([text], False)[0]]
    return [x for x in tokens if VALID_TOKEN_RE.match(x)]
