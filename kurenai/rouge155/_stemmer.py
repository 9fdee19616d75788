"""ROUGE-1.5.5's stemmer (``-m``): a WordNet 2.0 exception lookup, then its Porter.

The script's ``MorphStem`` looks a token up in the WordNet exception table
first (``aardwolves`` -> ``aardwolf``) and only otherwise runs its own Perl
Porter stemmer (Martin Porter's 1980 algorithm as published in Perl, with
the script author's 2004 rewrite of step 4: ``-ement`` joins the main list,
and ``-ment`` and ``-ent`` are then tried, one after the other, on what is
left).  That Porter differs from NLTK's, which rouge-score uses (NLTK's
extensions, other step 1c/4/5 rules), so it is
ported here rule for rule: each Perl regular expression below is the
script's own, and Python's ``re`` gives the same leftmost match for these
constructs (character classes, ``?``, ``*``, alternation in order, ``$``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["PerlStemmer", "porter_stem"]

# The script's building blocks, verbatim: consonant, vowel, their runs, and
# the measure tests ("[C](VC){m}[V]" with m > 0, m == 1, m > 1).
_c = "[^aeiou]"
_v = "[aeiouy]"
_C = f"{_c}[^aeiouy]*"
_V = f"{_v}[aeiou]*"
_MGR0 = re.compile(f"^({_C})?{_V}{_C}")
_MEQ1 = re.compile(f"^({_C})?{_V}{_C}({_V})?$")
_MGR1 = re.compile(f"^({_C})?{_V}{_C}{_V}{_C}")
_VOWEL_IN_STEM = re.compile(f"^({_C})?{_v}")
_CVC = re.compile(f"^{_C}{_v}[^aeiouwxy]$")

_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
    "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous",
    "ization": "ize", "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive",
    "fulness": "ful", "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble",
    "logi": "log",
}  # fmt: skip
_STEP3 = {
    "icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "",
    "ness": "",
}  # fmt: skip
# The alternations in the script's order (it matters: Perl and Python take
# the first alternative that matches at the leftmost position).
_STEP2_RE = re.compile(
    "(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism"
    "|iveness|fulness|ousness|aliti|iviti|biliti|logi)$"
)
_STEP3_RE = re.compile("(icate|ative|alize|iciti|ical|ful|ness)$")
_STEP4_RE = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")

_1A_PLURAL = re.compile("(ss|i)es$")
_1A_S = re.compile("([^s])s$")
_EED = re.compile("eed$")
_ED_ING = re.compile("(ed|ing)$")
_AT_BL_IZ = re.compile("(at|bl|iz)$")
_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_Y_END = re.compile("y$")
_MENT = re.compile("ment$")
_ENT = re.compile("ent$")
_SION_TION = re.compile("(s|t)(ion)$")
_E_END = re.compile("e$")
_LL_END = re.compile("ll$")


def porter_stem(word: str) -> str:
    """The script's ``stem``: Porter's algorithm exactly as its Perl runs it.

    The script's step 4 tries ``-ment`` and then ``-ent`` on what the
    previous test left, so ``agreement`` loses ``-ent`` (NLTK keeps it whole):

    >>> [porter_stem(w) for w in ["caresses", "agreement", "running", "happy", "yelling"]]
    ['caress', 'agreem', 'run', 'happi', 'yell']
    """
    w = word
    if len(w) < 3:
        return w
    first_y = w[0] == "y"
    if first_y:  # an initial y is a consonant: no pattern may read it as a vowel
        w = "Y" + w[1:]
    w = _step1(w)
    w = _step2_3(w)
    w = _step4(w)
    w = _step5(w)
    if first_y:
        w = w[0].lower() + w[1:]
    return w


def _step1(w: str) -> str:
    found = _1A_PLURAL.search(w)
    if found:
        w = w[: found.start()] + found.group(1)
    else:
        found = _1A_S.search(w)
        if found:
            w = w[: found.start()] + found.group(1)
    found = _EED.search(w)
    if found:
        if _MGR0.search(w[: found.start()]):
            w = w[:-1]
    else:
        found = _ED_ING.search(w)
        if found:
            stem = w[: found.start()]
            if _VOWEL_IN_STEM.search(stem):
                w = stem
                if _AT_BL_IZ.search(w):
                    w += "e"
                elif _DOUBLE.search(w):
                    w = w[:-1]
                elif _CVC.search(w):
                    w += "e"
    found = _Y_END.search(w)
    if found:
        stem = w[: found.start()]
        if _VOWEL_IN_STEM.search(stem):
            w = stem + "i"
    return w


def _step2_3(w: str) -> str:
    for pattern, table in ((_STEP2_RE, _STEP2), (_STEP3_RE, _STEP3)):
        found = pattern.search(w)
        if found:
            stem = w[: found.start()]
            if _MGR0.search(stem):
                w = stem + table[found.group(1)]
    return w


def _step4(w: str) -> str:
    # Three tests in sequence, each on the word the previous one left.
    for pattern in (_STEP4_RE, _MENT):
        found = pattern.search(w)
        if found and _MGR1.search(w[: found.start()]):
            w = w[: found.start()]
    found = _ENT.search(w)
    if found:
        if _MGR1.search(w[: found.start()]):
            w = w[: found.start()]
    else:
        found = _SION_TION.search(w)
        if found:
            stem = w[: found.start()] + found.group(1)
            if _MGR1.search(stem):
                w = stem
    return w


def _step5(w: str) -> str:
    found = _E_END.search(w)
    if found:
        stem = w[: found.start()]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC.search(stem)):
            w = stem
    if _LL_END.search(w) and _MGR1.search(w):
        w = w[:-1]
    return w


class PerlStemmer:
    """``MorphStem`` with a cache: the exception table's entry, else Porter.

    ``exceptions`` maps a word to its WordNet 2.0 base form (see
    ``kurenai.rouge155._data.exceptions``).  The script only calls it on
    tokens longer than 3 characters; :meth:`__call__` takes any token.

    >>> PerlStemmer({"mice": "mouse"})("mice"), PerlStemmer({})("mice")
    ('mouse', 'mice')
    """

    def __init__(self, exceptions: Mapping[str, str]) -> None:
        self._exceptions = exceptions
        self._memo: dict[str, str] = {}

    def __call__(self, token: str) -> str:
        try:
            return self._memo[token]
        except KeyError:
            pass
        stem = self._exceptions.get(token)
        if stem is None:
            stem = porter_stem(token)
        self._memo[token] = stem
        return stem
