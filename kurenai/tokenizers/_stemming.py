"""Stemming, memoized: rouge-score's Porter, and the Snowball stemmers by name.

rouge-score stems with NLTK's ``PorterStemmer()`` in its default
``NLTK_EXTENSIONS`` mode, at ~12 us a token; kurenai's compiled copy of it
(``kurenai._fused.porter_stem``, held to NLTK's in the tests) stems an ASCII
token in well under a microsecond, and real text repeats its words, so each
distinct token is stemmed once per stemmer.  NLTK is imported only where it
must serve: a token that is not ASCII, or the pure-Python implementation
(importing NLTK costs about a second).

The stemmer registry names the others: each language of Snowball through
PyStemmer (libstemmer's C; the ``stem`` extra), ``"german"``, ``"russian"``...,
and NLTK's pure-Python Snowball as ``"nltk-german"``...  (its stems can differ
from libstemmer's).  Which tokens each stemmer sees is
``kurenai._data.rules.STEM_RULES``.  A tokenizer's ``use_stemmer`` is True
(Porter), False, or one of these names.
"""

from __future__ import annotations

import functools
import re
import sys
import threading
from typing import Any, Callable, Optional, Union

from kurenai._data.extras import pip_install
from kurenai._data.rules import STEM_RULES, StemRule, is_stemmable, keeps_stem, stem_rule
from kurenai._data.spelling import did_you_mean
from kurenai.tokenizers._protocol import distribution_version

__all__ = [
    "MAX_CACHED",
    "MAX_CACHED_CHARS",
    "STEMMER_EXTRA",
    "CachedPorterStemmer",
    "CachedStemmer",
    "NamedStemmer",
    "Stemmer",
    "StemmerChoice",
    "available_stemmers",
    "is_stemmable",
    "make_stemmer",
    "porter_stem",
    "porter_stemmer",
    "stem_signature",
    "stemmed",
]

# Bounds the memo on endless streams of new tokens; 2**20 short strings is
# tens of MiB at most.
MAX_CACHED = 1 << 20
# ... and on long ones: the characters of the keys and values it holds
# (2**25: 32 Mi characters, 32 to 128 MiB of text by the widest character;
# a pathological stream of 100,000-character tokens reaches it in ~300
# entries).  A token longer than that on its own is stemmed, never memoized.
MAX_CACHED_CHARS = 1 << 25

# What a tokenizer declares as its ``stemmer``: token -> stem, or None when
# the tokenizer drops the stemmed token.
Stemmer = Callable[[str], Optional[str]]
# What a tokenizer's use_stemmer says: no, Porter (True), or a stemmer's name.
StemmerChoice = Union[bool, str]

# The extra that installs PyStemmer, named by its ImportError.
STEMMER_EXTRA = "stem"

# NLTK's Snowball languages (nltk.stem.SnowballStemmer.languages, less its
# Porter), without importing NLTK to list them.
_NLTK_SNOWBALL = (
    "arabic", "danish", "dutch", "english", "finnish", "french", "german", "hungarian",
    "italian", "norwegian", "portuguese", "romanian", "russian", "spanish", "swedish",
)  # fmt: skip


class CachedStemmer:
    """``stem(token)``: the stem of a token its ``rule`` stems, other tokens unchanged.

    ``stem_or_drop(token)`` also applies ``keep``, the tokenizer's post-stem
    filter (``kurenai._data.rules.keeps_stem``) to what the stemmer made: a
    stem that fails it gives None; a token the rule does not stem is returned
    unchanged, whatever it holds.
    Each has its own memo; a tokenizer uses one of them.  Subclasses give
    ``_stem_word``; the compiled scan reads ``rule`` and ``memo``.
    """

    # Characters held by each memo (class defaults: a stemmer pickled before
    # they were counted starts from zero).
    _cache_chars = 0
    _kept_chars = 0
    name: str = "porter"
    rule: StemRule = STEM_RULES["porter"]

    def __init__(self, keep: Callable[[str], bool] | None = None) -> None:
        self._cache: dict[str, str] = {}
        self._kept: dict[str, str | None] = {}
        self._keep = keep

    def _stem_word(self, token: str) -> str:
        raise NotImplementedError

    def stem(self, token: str) -> str:
        cached = self._cache.get(token)
        if cached is not None:
            return cached
        result = self._stem_word(token) if self.rule.stemmable(token) else token
        size = len(token) + len(result)
        if len(self._cache) >= MAX_CACHED or self._cache_chars + size > MAX_CACHED_CHARS:
            self._cache.clear()
            self._cache_chars = 0
        if size <= MAX_CACHED_CHARS:
            self._cache[token] = result
            self._cache_chars += size
        return result

    def __getstate__(self) -> dict[str, object]:
        # Pickled without the memos: they refill, and a tokenizer pickles to
        # the same bytes however much it has stemmed (the worker processes of
        # kurenai._core.processes key their loaded plans on those bytes).
        state = {**self.__dict__, "_cache": {}, "_kept": {}}
        state.pop("_cache_chars", None)  # the empty memos' counts: the class's zeros
        state.pop("_kept_chars", None)
        return state

    @property
    def memo(self) -> dict[str, str | None]:
        """What ``stem_or_drop`` returned for each token it has seen: the
        compiled scan reads a hit here instead of calling the method."""
        return self._kept

    def stem_or_drop(self, token: str) -> str | None:
        # The compiled scan calls this once per distinct stemmable token of a
        # pair: a hit is one dict lookup.
        try:
            return self._kept[token]
        except KeyError:
            pass
        if self.rule.stemmable(token):
            stem = self._stem_word(token)
            kept = stem if self._keep is None or self._keep(stem) else None
        else:
            # The filter judges what the stemmer made, never a token it left
            # alone: an analyser's "5.00", "gpt-4" or "c++" stays, as without
            # the stemmer (and as the compiled scan, which asks for stemmable
            # tokens only).
            kept = token
        size = len(token) + (0 if kept is None else len(kept))
        if len(self._kept) >= MAX_CACHED or self._kept_chars + size > MAX_CACHED_CHARS:
            self._kept.clear()  # the same dict: the compiled scan holds it
            self._kept_chars = 0
        if size <= MAX_CACHED_CHARS:
            self._kept[token] = kept
            self._kept_chars += size
        return kept


class CachedPorterStemmer(CachedStemmer):
    """rouge-score's Porter stemmer (NLTK's), memoized: ASCII words longer than 3.

    >>> stemmer = CachedPorterStemmer(keep=str.isalpha)
    >>> stemmer.stem("running"), stemmer.stem_or_drop("running"), stemmer.stem_or_drop("1990s")
    ('run', 'run', None)
    >>> stemmer.stem_or_drop("5.00"), stemmer.stem_or_drop("c++")
    ('5.00', 'c++')

    ``rule`` replaces rouge-score's (ASCII words longer than 3) for a dialect
    that gives Porter other tokens (torchmetrics': any token longer than 3).
    """

    def __init__(
        self, keep: Callable[[str], bool] | None = None, rule: StemRule | None = None
    ) -> None:
        super().__init__(keep)
        if rule is not None:
            self.rule = rule

    def _stem_word(self, token: str) -> str:
        return porter_stem(token)


class NamedStemmer(CachedStemmer):
    """A stemmer of the registry other than Porter, memoized, by ``name``.

    >>> NamedStemmer("german").stem("häuser"), NamedStemmer("nltk-german").stem("häuser")
    ('haus', 'haus')

    Pickled by name (PyStemmer's objects do not pickle): it loads again.
    """

    def __init__(self, name: str, keep: Callable[[str], bool] | None = None) -> None:
        if name not in available_stemmers() or name == "porter":
            raise ValueError(_unknown(name))
        super().__init__(keep)
        self.name = name
        self.rule = stem_rule(name)
        self._word = _load_named(name)
        self._lock = threading.Lock()

    def _stem_word(self, token: str) -> str:
        # A libstemmer (or NLTK) stemmer has state: one word at a time, even
        # where threads run Python at once (a memo hit never gets here).
        with self._lock:
            return self._word(token)

    def __getstate__(self) -> dict[str, object]:
        state = super().__getstate__()
        state.pop("_word", None)
        state.pop("_lock", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._word = _load_named(self.name)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def available_stemmers() -> list[str]:
    """The stemmer names ``use_stemmer=`` takes: ``porter`` (rouge-score's),
    each Snowball language through PyStemmer, and ``nltk-<language>`` for
    NLTK's Snowball."""
    return sorted([*STEM_RULES, *(f"nltk-{lang}" for lang in _NLTK_SNOWBALL)])


def make_stemmer(name: str, keep: Callable[[str], bool] | None = None) -> CachedStemmer:
    """The memoized stemmer named ``name`` (see :func:`available_stemmers`);
    a ValueError listing the names for another."""
    if name == "porter":
        return CachedPorterStemmer(keep=keep)
    return NamedStemmer(name, keep=keep)


def porter_stemmer(use_stemmer: StemmerChoice, scan_mode: str) -> Stemmer | None:
    """The stemming ``use_stemmer`` asks for (True: rouge-score's Porter; a
    str: that stemmer of the registry) followed by the post-stem filter of
    ``scan_mode`` (``kurenai._data.rules.SCANS``), or None without stemming."""
    if isinstance(use_stemmer, str):
        return make_stemmer(use_stemmer, keep=keeps_stem(scan_mode)).stem_or_drop
    if not use_stemmer:
        return None
    return CachedPorterStemmer(keep=keeps_stem(scan_mode)).stem_or_drop


def stemmed(tokens: list[str], stemmer: Stemmer | None) -> list[str]:
    """``tokens`` through ``stemmer``, less the ones it drops: the one
    stem-then-filter step of every tokenizer here.

    >>> stemmed(["cats", "dogs"], porter_stemmer(True, "rouge-score"))
    ['cat', 'dog']
    """
    if stemmer is None:
        return tokens
    return [s for s in map(stemmer, tokens) if s is not None]


def stem_signature(use_stemmer: StemmerChoice) -> str:
    """How a tokenizer here stems, for the signature: ``no``, or the
    stemmer's name with its package's version (Porter's rules have changed
    between NLTK releases): ``porter(nltk=3.9.1)``, ``german(pystemmer=3.1.0)``."""
    if isinstance(use_stemmer, str) and use_stemmer != "porter":
        if use_stemmer.startswith("nltk-"):
            return f"{use_stemmer}(nltk={distribution_version('nltk')})"
        return f"{use_stemmer}(pystemmer={distribution_version('PyStemmer')})"
    return f"porter(nltk={distribution_version('nltk')})" if use_stemmer else "no"


def _unknown(name: object) -> str:
    names = available_stemmers()
    return f"unknown stemmer {name!r}{did_you_mean(name, names)}; available: {', '.join(names)}"


# NLTK stemmers that keep a flag from one word to the next (its Arabic one
# never resets ``suffixes_verb_step1_success``): dropped before each word, so
# that a word's stem is a fresh stemmer's, whatever was stemmed before (the
# memo, and the compiled scan's order, need a function of the word).
_NLTK_STATE = {"arabic": ("suffixes_verb_step1_success",)}


def _load_named(name: str) -> Callable[[str], str]:
    if name.startswith("nltk-"):
        from nltk.stem.snowball import SnowballStemmer

        language = name[len("nltk-") :]
        inner = SnowballStemmer(language).stemmer
        flags = _NLTK_STATE.get(language, ())

        def stem(word: str) -> str:
            for flag in flags:
                inner.__dict__.pop(flag, None)  # back to the class's initial value
            return inner.stem(word)  # type: ignore[no-any-return]

        return stem if flags else inner.stem
    try:
        import Stemmer as pystemmer
    except ImportError as error:
        raise ImportError(
            f"the {name} stemmer needs PyStemmer (the {STEMMER_EXTRA} extra): "
            f"{pip_install(STEMMER_EXTRA)} (or use_stemmer='nltk-{name}', "
            "NLTK's slower Snowball, where NLTK has it)"
        ) from error
    stemmer = pystemmer.Stemmer(name)
    stemmer.maxCacheSize = 0  # memoized here already
    stem_word: Callable[[str], str] = stemmer.stemWord

    def stem_or_keep(word: str) -> str:
        try:
            return stem_word(word)
        except UnicodeEncodeError:  # a lone surrogate has no UTF-8: left as it is
            return word

    return stem_or_keep


def porter_stem(word: str) -> str:
    """rouge-score's stem of ``word``: NLTK's ``PorterStemmer().stem``, by
    kurenai's compiled copy where it serves (the compiled implementation,
    an ASCII word), by NLTK otherwise.

    >>> porter_stem("Generalizations"), porter_stem("skies"), porter_stem("naïvely")
    ('gener', 'sky', 'naïv')
    """
    compiled = _compiled_porter()
    if compiled is not None and type(word) is str:
        stem = compiled(word)
        if stem is not None:
            return stem
    return _nltk_porter()(word)


@functools.lru_cache(maxsize=1)
def compiled_porter_agrees() -> bool:
    """Whether the installed NLTK stems as kurenai's compiled Porter does.

    The compiled copy is NLTK 3.10's.  Earlier releases look NLTK's irregular
    forms up before lowercasing (``SKY`` stems to ``ski``, not ``sky``), so
    with them every word goes to NLTK itself.  Read from the package metadata:
    NLTK is not imported to tell."""
    found = re.match(r"(\d+)\.(\d+)", distribution_version("nltk"))
    return found is not None and (int(found.group(1)), int(found.group(2))) >= (3, 10)


def _compiled_porter() -> Callable[[str], str | None] | None:
    # The kernel row's choice (kurenai._backend.fused, which
    # ``import kurenai`` loads), read rather than imported: the tokenizers sit
    # below the kernels.  None under the pure-Python implementation.
    if not compiled_porter_agrees():
        return None
    backend = sys.modules.get("kurenai._backend")
    return getattr(getattr(backend, "fused", None), "porter_stem", None)


_NLTK_PORTER: list[Callable[[str], str]] = []


def _nltk_porter() -> Callable[[str], str]:
    if not _NLTK_PORTER:
        try:
            from nltk.stem.porter import PorterStemmer
        except ImportError as error:  # pragma: no cover - nltk comes with rouge-score
            raise ImportError(
                "use_stemmer=True needs NLTK's Porter stemmer: pip install nltk"
            ) from error
        _NLTK_PORTER.append(PorterStemmer().stem)
    return _NLTK_PORTER[0]
