# Copied from the nltk 3.10.4 source distribution (nltk-3.10.4.tar.gz: nltk/test/unit/test_tokenize.py).
# Copyright (C) 2001-2026 NLTK Project; Apache License, Version 2.0 (nltk's LICENSE.txt).
# The module docstring, the class line and, verbatim, the TestTokenize methods that call
# word_tokenize or sent_tokenize (test_pad_asterisk, test_dash_tokenization, test_pad_dotdot, test_word_tokenize, test_word_tokenize_opening_single_quote_padding, test_sent_tokenize, test_sent_tokenize_curly_quotes_and_guillemets_issue_2333);
# the other tests (tweet, syllable, Stanford, Punkt-internals, detokenizer ...) concern tokenizers rapideval
# does not reproduce. The imports were cut down to what these tests use, from rapideval; nothing else changed.
"""
Unit tests for nltk.tokenize.
See also nltk/test/tokenize.doctest
"""

import pytest

from rapideval.compat.nltk.tokenize import sent_tokenize, word_tokenize


class TestTokenize:
    def test_pad_asterisk(self):
        """
        Test padding of asterisk for word tokenization.
        """
        text = "This is a, *weird sentence with *asterisks in it."
        expected = [
            "This",
            "is",
            "a",
            ",",
            "*",
            "weird",
            "sentence",
            "with",
            "*",
            "asterisks",
            "in",
            "it",
            ".",
        ]
        assert word_tokenize(text) == expected

    def test_dash_tokenization(self):
        """
        Test for em-dashes and en-dashes (Issue #3459)
        """

        # Test case from Issue #3459 (Em-Dash: \u2014)
        s_em = "The food—which was delicious—reminded me of home."
        expected_em = [
            "The",
            "food",
            "—",
            "which",
            "was",
            "delicious",
            "—",
            "reminded",
            "me",
            "of",
            "home",
            ".",
        ]
        assert word_tokenize(s_em) == expected_em

        # Test case for En-Dash (\u2013)
        s_en = "The score was 3–1."
        expected_en = ["The", "score", "was", "3", "–", "1", "."]
        assert word_tokenize(s_en) == expected_en

        # Test case for Horizontal Bar (\u2015)
        s_bar = "He said ― wait for it ― a new thing."
        expected_bar = [
            "He",
            "said",
            "―",
            "wait",
            "for",
            "it",
            "―",
            "a",
            "new",
            "thing",
            ".",
        ]
        assert word_tokenize(s_bar) == expected_bar

        # Test case for Figure Dash (\u2012)
        s_fig = "The number is 12‒34."
        expected_fig = ["The", "number", "is", "12", "‒", "34", "."]
        assert word_tokenize(s_fig) == expected_fig

        # Regression guard for hyphen-minus
        assert word_tokenize("state-of-the-art") == ["state-of-the-art"]

    def test_pad_dotdot(self):
        """
        Test padding of dotdot* for word tokenization.
        """
        text = "Why did dotdot.. not get tokenized but dotdotdot... did? How about manydots....."
        expected = [
            "Why",
            "did",
            "dotdot",
            "..",
            "not",
            "get",
            "tokenized",
            "but",
            "dotdotdot",
            "...",
            "did",
            "?",
            "How",
            "about",
            "manydots",
            ".....",
        ]
        assert word_tokenize(text) == expected

    def test_word_tokenize(self):
        """
        Test word_tokenize function
        """

        sentence = "The 'v', I've been fooled but I'll seek revenge."
        expected = [
            "The",
            "'",
            "v",
            "'",
            ",",
            "I",
            "'ve",
            "been",
            "fooled",
            "but",
            "I",
            "'ll",
            "seek",
            "revenge",
            ".",
        ]
        assert word_tokenize(sentence) == expected

        sentence = "'v' 're'"
        expected = ["'", "v", "'", "'re", "'"]
        assert word_tokenize(sentence) == expected

    def test_word_tokenize_opening_single_quote_padding(self):
        sentence = "'Hard' to tell"
        expected = ["'", "Hard", "'", "to", "tell"]
        assert word_tokenize(sentence) == expected

        sentence = "He said 'hello' to me"
        expected = ["He", "said", "'", "hello", "'", "to", "me"]
        assert word_tokenize(sentence) == expected

        sentence = "It's more'n enough."
        expected = ["It", "'s", "more", "'n", "enough", "."]
        assert word_tokenize(sentence) == expected

        sentence = "It's o'clock already"
        expected = ["It", "'s", "o'clock", "already"]
        assert word_tokenize(sentence) == expected

        sentence = "O'Connor went home"
        expected = ["O'Connor", "went", "home"]
        assert word_tokenize(sentence) == expected

    @pytest.mark.parametrize(
        "sentences, expected",
        [
            (
                "this is a test. . new sentence.",
                ["this is a test.", ".", "new sentence."],
            ),
            ("This. . . That", ["This.", ".", ".", "That"]),
            ("This..... That", ["This..... That"]),
            ("This... That", ["This... That"]),
            ("This.. . That", ["This.. .", "That"]),
            ("This. .. That", ["This.", ".. That"]),
            ("This. ,. That", ["This.", ",.", "That"]),
            ("This!!! That", ["This!!!", "That"]),
            ("This! That", ["This!", "That"]),
            (
                "1. This is R .\n2. This is A .\n3. That's all",
                ["1.", "This is R .", "2.", "This is A .", "3.", "That's all"],
            ),
            (
                "1. This is R .\t2. This is A .\t3. That's all",
                ["1.", "This is R .", "2.", "This is A .", "3.", "That's all"],
            ),
            ("Hello.\tThere", ["Hello.", "There"]),
        ],
    )
    def test_sent_tokenize(self, sentences: str, expected: list[str]):
        assert sent_tokenize(sentences) == expected

    def test_sent_tokenize_curly_quotes_and_guillemets_issue_2333(self):
        # Regression test for https://github.com/nltk/nltk/issues/2333.
        #
        # A sentence-final Unicode curly closing quote or guillemet that
        # directly abuts the period, with no intervening whitespace, used to
        # hide the sentence boundary from Punkt entirely: the period matched
        # neither the "non-word char" branch nor the "whitespace" branch of
        # the period-context regex, so period_context_re() never even
        # yielded a match at that position. NLTKWordTokenizer's
        # STARTING_QUOTES / ENDING_QUOTES (see
        # test_word_tokenize_opening_single_quote_padding above) already
        # special-cased this character set; PunktLanguageVars did not.
        assert sent_tokenize("“First sentence.” Next one.") == [
            "“First sentence.”",
            "Next one.",
        ]
        assert sent_tokenize("He said “this is great.” Then left.") == [
            "He said “this is great.”",
            "Then left.",
        ]
        assert sent_tokenize("She asked, “Are you coming?” He nodded.") == [
            "She asked, “Are you coming?”",
            "He nodded.",
        ]
        assert sent_tokenize("Il a dit «bonjour.» Puis il est parti.") == [
            "Il a dit «bonjour.»",
            "Puis il est parti.",
        ]

        # Regression guards: straight quotes and plain text (no quotes at
        # all) must tokenize exactly as before, unaffected by the new
        # boundary-realignment / non-word-char classes.
        assert sent_tokenize('He said "hi." Then left.') == [
            'He said "hi."',
            "Then left.",
        ]
        assert sent_tokenize("This is one sentence. This is another.") == [
            "This is one sentence.",
            "This is another.",
        ]
