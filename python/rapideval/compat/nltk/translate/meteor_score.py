"""Drop-in for nltk 3.10.4 ``nltk.translate.meteor_score``: ``meteor_score`` and
``single_meteor_score`` on token lists (same arguments, same floats bit for bit), and the alignment
helpers ``exact_match``, ``stem_match``, ``wordnetsyn_match`` and ``align_words`` (same lists of
``(hypothesis index, reference index)`` pairs and the same unmatched ``(index, word)`` lists).

The scores run entirely in Rust with the defaults (``preprocess=str.lower``, ``PorterStemmer()``,
``nltk.corpus.wordnet``) and the WordNet 3.0 table shipped inside rapideval (no NLTK data needed).
``stemmer=None`` and ``wordnet=None`` mean those defaults; nltk's own ``PorterStemmer()`` and
``nltk.corpus.wordnet`` are recognised as them. Any other ``preprocess``, ``stemmer`` (an object with
``stem(word)``) or ``wordnet`` (an object with ``synsets(word)``) is called from Python with the same
inputs nltk gives it and the rest runs in Rust.

The alignment helpers return the alignment itself, which the METEOR kernel builds and keeps to
itself; so the matching (three stages, each pairing a hypothesis word, last first, with the latest
unused reference word of the same form) is nltk's code here, while the Porter stems and the WordNet
synonyms of the default stemmer and WordNet come from the kernels.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from .... import _core

__all__ = [
    "align_words",
    "exact_match",
    "meteor_score",
    "single_meteor_score",
    "stem_match",
    "wordnetsyn_match",
]

Enums = list[tuple[int, str]]
Matches = list[tuple[int, int]]


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


# ---------------------------------------------------------------- alignment (nltk's code, see the module docstring)


def _generate_enums(
    hypothesis: Iterable[str], reference: Iterable[str], preprocess: Callable[[str], str] = str.lower
) -> tuple[Enums, Enums]:
    """nltk's ``_generate_enums``: ``(index, preprocess(word))`` lists of both sides."""
    if isinstance(hypothesis, str):
        raise TypeError(f'"hypothesis" expects pre-tokenized hypothesis (Iterable[str]): {hypothesis}')
    if isinstance(reference, str):
        raise TypeError(f'"reference" expects pre-tokenized reference (Iterable[str]): {reference}')
    enum_hypothesis_list = list(enumerate(map(preprocess, hypothesis)))
    enum_reference_list = list(enumerate(map(preprocess, reference)))
    return enum_hypothesis_list, enum_reference_list


def _match_enums(enum_hypothesis_list: Enums, enum_reference_list: Enums) -> tuple[Matches, Enums, Enums]:
    """nltk's ``_match_enums``: from the last hypothesis word back, each is paired with the latest
    unused reference word equal to it. Returns the pairs (in that order) and both unmatched lists."""
    word_match = []
    ref_positions: defaultdict[Any, list[int]] = defaultdict(list)
    for j, (_, ref_word) in enumerate(enum_reference_list):
        ref_positions[ref_word].append(j)
    matched_hyp_idx = set()
    matched_ref_idx = set()
    for i in range(len(enum_hypothesis_list))[::-1]:
        positions = ref_positions.get(enum_hypothesis_list[i][1])
        if positions:
            j = positions.pop()
            matched_hyp_idx.add(i)
            matched_ref_idx.add(j)
            word_match.append((enum_hypothesis_list[i][0], enum_reference_list[j][0]))
    enum_hypothesis_list = [pair for i, pair in enumerate(enum_hypothesis_list) if i not in matched_hyp_idx]
    enum_reference_list = [pair for j, pair in enumerate(enum_reference_list) if j not in matched_ref_idx]
    return word_match, enum_hypothesis_list, enum_reference_list


def _stems(words: list[str], stemmer: Any) -> list[str]:
    """``stemmer.stem(word)`` of every word; the Porter kernel for nltk's default stemmer."""
    if _is_default_stemmer(stemmer):
        return _core.porter_stem(words)
    return [stemmer.stem(word) for word in words]


def _enum_stem_match(
    enum_hypothesis_list: Enums, enum_reference_list: Enums, stemmer: Any = None
) -> tuple[Matches, Enums, Enums]:
    """nltk's ``_enum_stem_match``: :func:`_match_enums` on the stems (``stemmer=None``: nltk's
    ``PorterStemmer()``); the unmatched lists hold stems."""
    hyp_stems = _stems([word for _, word in enum_hypothesis_list], stemmer)
    ref_stems = _stems([word for _, word in enum_reference_list], stemmer)
    stemmed_hyp = [(pair[0], stem) for pair, stem in zip(enum_hypothesis_list, hyp_stems, strict=True)]
    stemmed_ref = [(pair[0], stem) for pair, stem in zip(enum_reference_list, ref_stems, strict=True)]
    return _match_enums(stemmed_hyp, stemmed_ref)


def _synonym_sets(words: list[str], wordnet: Any) -> list[set[str]]:
    """Per word, the lemma names without ``_`` of ``wordnet.synsets(word)`` plus the word itself;
    the WordNet 3.0 kernel for nltk's default ``wordnet``."""
    if _is_default_wordnet(wordnet):
        return [set(names).union({word}) for word, names in zip(words, _core.wordnet_synonyms(words), strict=True)]
    return [set(_synonyms(wordnet, word)).union({word}) for word in words]


def _enum_wordnetsyn_match(
    enum_hypothesis_list: Enums, enum_reference_list: Enums, wordnet: Any = None
) -> tuple[Matches, Enums, Enums]:
    """nltk's ``_enum_wordnetsyn_match``: from the last hypothesis word back, each is paired with the
    latest unused reference word among its WordNet synonyms (and itself)."""
    word_match = []
    ref_positions: defaultdict[Any, list[int]] = defaultdict(list)
    for j, (_, ref_word) in enumerate(enum_reference_list):
        ref_positions[ref_word].append(j)
    # nltk looks the words up from the last to the first: so does a user's wordnet here.
    order = range(len(enum_hypothesis_list))[::-1]
    synonyms = _synonym_sets([enum_hypothesis_list[i][1] for i in order], wordnet)
    matched_hyp_idx = set()
    matched_ref_idx = set()
    for i, hypothesis_syns in zip(order, synonyms, strict=True):
        best_j = -1
        best_word = None
        for syn in hypothesis_syns:
            positions = ref_positions.get(syn)
            if positions and positions[-1] > best_j:
                best_j = positions[-1]
                best_word = syn
        if best_word is not None:
            ref_positions[best_word].pop()
            matched_hyp_idx.add(i)
            matched_ref_idx.add(best_j)
            word_match.append((enum_hypothesis_list[i][0], enum_reference_list[best_j][0]))
    enum_hypothesis_list = [pair for i, pair in enumerate(enum_hypothesis_list) if i not in matched_hyp_idx]
    enum_reference_list = [pair for j, pair in enumerate(enum_reference_list) if j not in matched_ref_idx]
    return word_match, enum_hypothesis_list, enum_reference_list


def _enum_align_words(
    enum_hypothesis_list: Enums, enum_reference_list: Enums, stemmer: Any = None, wordnet: Any = None
) -> tuple[Matches, Enums, Enums]:
    """nltk's ``_enum_align_words``: exact, then stem, then WordNet-synonym matching; the pairs
    sorted by hypothesis index, and what is left unmatched (stems)."""
    exact_matches, enum_hypothesis_list, enum_reference_list = _match_enums(enum_hypothesis_list, enum_reference_list)
    stem_matches, enum_hypothesis_list, enum_reference_list = _enum_stem_match(
        enum_hypothesis_list, enum_reference_list, stemmer=stemmer
    )
    wns_matches, enum_hypothesis_list, enum_reference_list = _enum_wordnetsyn_match(
        enum_hypothesis_list, enum_reference_list, wordnet=wordnet
    )
    return (
        sorted(exact_matches + stem_matches + wns_matches, key=lambda wordpair: wordpair[0]),
        enum_hypothesis_list,
        enum_reference_list,
    )


def exact_match(hypothesis: Iterable[str], reference: Iterable[str]) -> tuple[Matches, Enums, Enums]:
    """nltk's ``exact_match``: pairs ``(hypothesis index, reference index)`` of equal lower-cased
    words (from the last hypothesis word back), the unmatched ``(index, word)`` of each side."""
    enum_hypothesis_list, enum_reference_list = _generate_enums(hypothesis, reference)
    return _match_enums(enum_hypothesis_list, enum_reference_list)


def stem_match(
    hypothesis: Iterable[str], reference: Iterable[str], stemmer: Any = None
) -> tuple[Matches, Enums, Enums]:
    """nltk's ``stem_match``: :func:`exact_match` on the stems of the lower-cased words
    (``stemmer=None``: nltk's ``PorterStemmer()``)."""
    enum_hypothesis_list, enum_reference_list = _generate_enums(hypothesis, reference)
    return _enum_stem_match(enum_hypothesis_list, enum_reference_list, stemmer=stemmer)


def wordnetsyn_match(
    hypothesis: Iterable[str], reference: Iterable[str], wordnet: Any = None
) -> tuple[Matches, Enums, Enums]:
    """nltk's ``wordnetsyn_match``: a hypothesis word matches a reference word that is one of its
    WordNet synonyms or itself (``wordnet=None``: ``nltk.corpus.wordnet``, WordNet 3.0)."""
    enum_hypothesis_list, enum_reference_list = _generate_enums(hypothesis, reference)
    return _enum_wordnetsyn_match(enum_hypothesis_list, enum_reference_list, wordnet=wordnet)


def align_words(
    hypothesis: Iterable[str], reference: Iterable[str], stemmer: Any = None, wordnet: Any = None
) -> tuple[Matches, Enums, Enums]:
    """nltk's ``align_words``: METEOR's alignment (exact, stem, WordNet synonym), the pairs sorted by
    hypothesis index, the unmatched ``(index, stem)`` lists of each side."""
    enum_hypothesis_list, enum_reference_list = _generate_enums(hypothesis, reference)
    return _enum_align_words(enum_hypothesis_list, enum_reference_list, stemmer=stemmer, wordnet=wordnet)


def _count_chunks(matches: list[tuple[int, int]]) -> int:
    """nltk's ``_count_chunks``: the fewest runs of pairs adjacent on both sides (1 for no pair).
    The kernel counts them for its own alignment only, so this is nltk's code."""
    i = 0
    chunks = 1
    while i < len(matches) - 1:
        if (matches[i + 1][0] == matches[i][0] + 1) and (matches[i + 1][1] == matches[i][1] + 1):
            i += 1
            continue
        i += 1
        chunks += 1
    return chunks


# ---------------------------------------------------------------- scores (Rust)


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


def _meteor(
    refs: list[list[str]],
    hyp: list[str],
    preprocess: Callable[[str], str],
    stemmer: Any,
    wordnet: Any,
    alpha: float,
    beta: float,
    gamma: float,
) -> float:
    settings = _core.MeteorSettings(alpha=float(alpha), beta=float(beta), gamma=float(gamma))
    default_stemmer, default_wordnet = _is_default_stemmer(stemmer), _is_default_wordnet(wordnet)
    if preprocess is str.lower and default_stemmer and default_wordnet:
        return _core.meteor_tokens(refs, hyp, settings)
    hyp = [preprocess(w) for w in hyp]
    refs = [[preprocess(w) for w in r] for r in refs]
    hyp_stems: list[str] | None = None
    ref_stems: list[list[str]] | None = None
    synonyms: list[list[str]] | None = None
    if not default_stemmer:
        hyp_stems = [stemmer.stem(w) for w in hyp]
        ref_stems = [[stemmer.stem(w) for w in r] for r in refs]
    if not default_wordnet:
        stems = _core.porter_stem(hyp) if hyp_stems is None else hyp_stems
        synonyms = [_synonyms(wordnet, s) for s in stems]
    return _core.meteor_tokens(
        refs,
        hyp,
        settings,
        lowercase=False,
        hypothesis_stems=hyp_stems,
        reference_stems=ref_stems,
        hypothesis_synonyms=synonyms,
    )


def _synonyms(wordnet: Any, stem: str) -> list[str]:
    """What nltk's third stage gathers for one stem: lemma names without "_" of its synsets."""
    return sorted(
        {lemma.name() for synset in wordnet.synsets(stem) for lemma in synset.lemmas() if lemma.name().find("_") < 0}
    )
