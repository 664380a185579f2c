"""Drop-in for nltk 3.10.4 ``nltk.translate.meteor_score``: ``meteor_score`` and
``single_meteor_score`` on token lists, same arguments, same floats bit for bit.

The defaults (``preprocess=str.lower``, ``PorterStemmer()``, ``nltk.corpus.wordnet``) run entirely in
Rust with the WordNet 3.0 table shipped inside rapideval (no NLTK data needed). ``stemmer=None`` and
``wordnet=None`` mean those defaults; nltk's own ``PorterStemmer()`` and ``nltk.corpus.wordnet`` are
recognised as them. Any other ``preprocess``, ``stemmer`` (an object with ``stem(word)``) or
``wordnet`` (an object with ``synsets(word)``) is called from Python with the same inputs nltk gives it
and the rest runs in Rust.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Iterable

from .. import _core

__all__ = ["meteor_score", "single_meteor_score"]


def _is_default_stemmer(stemmer: Any) -> bool:
    cls = type(stemmer)
    return stemmer is None or (
        cls.__module__ == "nltk.stem.porter"
        and cls.__name__ == "PorterStemmer"
        and getattr(stemmer, "mode", None) == "NLTK_EXTENSIONS"
    )


def _is_default_wordnet(wordnet: Any) -> bool:
    if wordnet is None:
        return True
    corpus = sys.modules.get("nltk.corpus")
    return corpus is not None and wordnet is getattr(corpus, "wordnet", None)


def _tokens(tokens: Iterable[str], name: str) -> list[str]:
    if isinstance(tokens, str):
        raise TypeError(f'"{name}" expects pre-tokenized {name} (Iterable[str]): {tokens}')
    return list(tokens)


def meteor_score(
    references: Iterable[Iterable[str]],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: Any = None,
    wordnet: Any = None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """nltk's ``meteor_score``: the best ``single_meteor_score`` of ``hypothesis`` over ``references``
    (each a token list). Raises ``ValueError`` for an empty ``references``, ``TypeError`` when the
    hypothesis or a reference is a ``str``."""
    references = list(references)
    if not references:
        raise ValueError("max() arg is an empty sequence")
    hypothesis = _tokens(hypothesis, "hypothesis")
    refs = [_tokens(r, "reference") for r in references]
    return _meteor(refs, hypothesis, preprocess, stemmer, wordnet, alpha, beta, gamma)


def single_meteor_score(
    reference: Iterable[str],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: Any = None,
    wordnet: Any = None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """nltk's ``single_meteor_score`` of a hypothesis token list against one reference token list:
    exact, Porter-stem and WordNet-synonym alignment, weighted harmonic mean, fragmentation penalty.
    Returns 0.0 when there is nothing to match."""
    hypothesis = _tokens(hypothesis, "hypothesis")
    reference = _tokens(reference, "reference")
    return _meteor([reference], hypothesis, preprocess, stemmer, wordnet, alpha, beta, gamma)


def _meteor(refs: list[list[str]], hyp: list[str], preprocess: Callable[[str], str], stemmer: Any,
            wordnet: Any, alpha: float, beta: float, gamma: float) -> float:
    alpha, beta, gamma = float(alpha), float(beta), float(gamma)
    default_stemmer, default_wordnet = _is_default_stemmer(stemmer), _is_default_wordnet(wordnet)
    if preprocess is str.lower and default_stemmer and default_wordnet:
        return _core.meteor_tokens(refs, hyp, alpha, beta, gamma)
    hyp = [preprocess(w) for w in hyp]
    refs = [[preprocess(w) for w in r] for r in refs]
    hyp_stems = ref_stems = synonyms = None
    if not default_stemmer:
        hyp_stems = [stemmer.stem(w) for w in hyp]
        ref_stems = [[stemmer.stem(w) for w in r] for r in refs]
    if not default_wordnet:
        stems = _core.porter_stem(hyp) if default_stemmer else hyp_stems
        synonyms = [_synonyms(wordnet, s) for s in stems]
    return _core.meteor_tokens(refs, hyp, alpha, beta, gamma, False, hyp_stems, ref_stems, synonyms)


def _synonyms(wordnet: Any, stem: str) -> list[str]:
    """What nltk's third stage gathers for one stem: lemma names without "_" of its synsets."""
    return sorted({
        lemma.name() for synset in wordnet.synsets(stem) for lemma in synset.lemmas() if lemma.name().find("_") < 0
    })
