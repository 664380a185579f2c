"""Drop-in replacements for ``nltk`` 3.10.4, under nltk's own module paths:

* ``rapideval.compat.nltk.translate`` (``bleu``, ``gleu``, ``meteor``) and its modules
  ``translate.bleu_score`` (``sentence_bleu``, ``corpus_bleu``, ``SmoothingFunction``,
  ``modified_precision``, ``closest_ref_length``, ``brevity_penalty``), ``translate.gleu_score``
  (``sentence_gleu``, ``corpus_gleu``) and ``translate.meteor_score`` (``meteor_score``,
  ``single_meteor_score``, ``align_words``, ``exact_match``, ``stem_match``, ``wordnetsyn_match``);
* ``rapideval.compat.nltk.tokenize`` (``word_tokenize``, ``sent_tokenize``);
* and, as before, the main functions directly here: ``word_tokenize``, ``sent_tokenize``,
  ``sentence_bleu``, ``corpus_bleu``, ``SmoothingFunction``, ``sentence_gleu``, ``corpus_gleu``,
  ``meteor_score``, ``single_meteor_score``.

Change ``from nltk.translate.bleu_score import sentence_bleu, SmoothingFunction`` to
``from rapideval.compat.nltk.translate.bleu_score import sentence_bleu, SmoothingFunction``: same
signatures, same return values bit for bit, same types, same warnings and exceptions. What each
module does differently (always raising rather than computing something else) is in its docstring.
"""

from __future__ import annotations

from . import tokenize, translate
from .tokenize import sent_tokenize, word_tokenize
from .translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
from .translate.gleu_score import corpus_gleu, sentence_gleu
from .translate.meteor_score import meteor_score, single_meteor_score

__all__ = [
    "SmoothingFunction",
    "corpus_bleu",
    "corpus_gleu",
    "meteor_score",
    "sent_tokenize",
    "sentence_bleu",
    "sentence_gleu",
    "single_meteor_score",
    "tokenize",
    "translate",
    "word_tokenize",
]
