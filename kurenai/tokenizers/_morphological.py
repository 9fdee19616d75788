"""Morphological tokenizers: MeCab, Sudachi (Japanese), jieba (Chinese), Kiwi (Korean).

Each wraps an optional package (``pip install -e '.[ja]' in a kurenai checkout``, ``[zh]``,
``[ko]``).  Constructing one only checks that the package is installed, and
raises ImportError naming the pip command if not; the package is imported and
its dictionary or model loaded on the first ``tokenize`` call, so ``import
kurenai`` stays light.  A loaded dictionary or model serves every instance
with the same loading options in the process (``_LOADED``: Kiwi's model
alone takes seconds to load), so a new scorer does not load it again.

An instance may be shared by threads: an analyser that is thread-safe (jieba's,
Kiwi's) serves them all; one that is not (MeCab's tagger, Sudachi's tokenizer)
is lent to one call at a time from a pool of at most ``POOL_MAX``, whatever the
number of threads that ever call (``AnalyserPool``): each fugashi tagger maps MeCab's
dictionary anew and never unmaps it, so one per thread would grow the address
space with every short-lived thread.  MeCab's pool is the process's, shared by
every copy of the tokenizer with the same ``tagger_args`` (``shared_taggers``).
It pickles at any time: the loaded resources are left out and load again on
first use after unpickling (in a Spark or multiprocessing worker).

Every adapter lowercases the analyser's words, drops those with no letter,
number or mark (punctuation, symbols, emoji, spaces) and, with
``use_stemmer=True``, Porter-stems ASCII words of 4+ characters as rouge-score
does, keeping every other word as it is (``5.00``, ``gpt-4``: the stemmer
never drops a word); the Japanese adapters also replace each word by its
dictionary form (``走っ`` -> ``走る``).  None of them is line-separable: an analyser's reading
of a line can depend on its neighbours.

Untrusted input stays in each analyser's linear range: a long text, or a long
run without whitespace or punctuation, reaches the analyser in pieces
(``kurenai.tokenizers._analyser_calls``); ``tokenize_within`` stops after the
piece that passes a ``max_tokens`` limit.  The words kept from the
analyser's output are chosen in ``kurenai.tokenizers._analysed_words``.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import re
import threading
import warnings
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any, Callable, ClassVar

from kurenai._data.extras import pip_install
from kurenai.tokenizers._analysed_words import _jieba_words, _kept_within, _kept_words
from kurenai.tokenizers._analyser_calls import (
    MECAB_PIECE,
    RUN_BOUND,
    SUDACHI_PIECE,
    _natural_pieces,
    _pieces,
    _runs_cut,
)
from kurenai.tokenizers._analyser_pool import POOL_MAX, Analyse, AnalyserPool
from kurenai.tokenizers._mecab_taggers import (
    mecab_base_form,
    mecab_surface,
    mecab_tagger,
    shared_taggers,
)
from kurenai.tokenizers._private_cache import private_cache_dir
from kurenai.tokenizers._protocol import distribution_version, own_name, signature_text
from kurenai.tokenizers._stemming import Stemmer, porter_stemmer, stem_signature, stemmed
from kurenai.tokenizers._unicode import make_normalizer

__all__ = ["JiebaTokenizer", "KiwiTokenizer", "MeCabTokenizer", "SudachiTokenizer"]

_SURROGATE = re.compile("[\ud800-\udfff]")
# The post-stem filter of the analysers' words: the Unicode tokenizers'.
_FILTER = "unicode"
# Attributes rebuilt on demand, never pickled (locks, loaded analysers).
_RUNTIME_STATE = ("_lock", "_resource", "_shared", "_pool")
# Loaded resources shared by every instance of a class with the same
# ``_load_key``, newest last: at most _LOADED_MAX of them stay cached (an
# instance keeps its own alive while it lives).  No analyser is changed
# after loading (kurenai adds no user words), so sharing one is as safe as
# an instance sharing it between its threads.
_LOADED: OrderedDict[tuple[type, Hashable], Any] = OrderedDict()
_LOADED_MAX = 8
_LOADED_LOCK = threading.Lock()


def _import_quietly(module: str) -> ModuleType:
    # Old releases of the analysers warn on import (pkg_resources, escapes);
    # a user's `-W error` must not turn that into a failed tokenizer.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return importlib.import_module(module)


class MorphologicalTokenizer:
    """Base of the adapters: lazy loading, normalisation, filtering, stemming.

    A subclass loads its heavy resource in ``_load`` (once per instance) and
    makes ``text -> words`` from it in ``_analyser``: once, or up to
    ``POOL_MAX`` times, each lent to one call at a time, if ``thread_safe`` is
    false.
    """

    line_separable = False
    thread_safe: ClassVar[bool] = True  # may one analyser serve every thread?
    lemmatizes: ClassVar[bool] = False  # does use_stemmer also take dictionary forms?
    # Tokenizes on one core however many threads call it: score_batch(n_jobs)
    # spreads it over processes instead (kurenai._core.processes).
    holds_gil: ClassVar[bool] = True
    name: ClassVar[str]
    extra: ClassVar[str]
    requirements: tuple[tuple[str, str], ...]  # (module, pip package)

    def __init__(self, use_stemmer: bool = False, normalize: str | None = None) -> None:
        self._check_installed()
        self.use_stemmer = use_stemmer
        self.normalize = normalize.upper() if isinstance(normalize, str) else normalize
        self._normalizer = make_normalizer(normalize)
        self.stemmer: Stemmer | None = porter_stemmer(use_stemmer, _FILTER)
        self._reset()

    def _reset(self) -> None:
        """Forget what was loaded: it loads again on first use."""
        self._lock = threading.Lock()
        self._resource: Any = None
        self._shared: Analyse | None = None
        self._pool: AnalyserPool | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in _RUNTIME_STATE}

    def __setstate__(self, state: dict[str, Any]) -> None:
        if "stemmer" not in state:  # pickled by kurenai 0.2.0, which kept ``_porter``
            state = {k: v for k, v in state.items() if k != "_porter"}
            state["stemmer"] = porter_stemmer(state.get("use_stemmer", False), _FILTER)
        self.__dict__.update(state)
        self._reset()

    def signature_parts(self) -> dict[str, str]:
        """Its name, stemming, options and the installed version of each
        package it needs (the analyser and its dictionary or model)."""
        stem = stem_signature(self.use_stemmer)
        if self.use_stemmer and self.lemmatizes:
            stem = f"lemma+{stem}"
        parts = {"name": own_name(self), "stem": stem}
        parts.update((pkg, distribution_version(pkg)) for _, pkg in self.requirements)
        if self.normalize is not None:
            parts["normalize"] = self.normalize
        parts.update((key, signature_text(value)) for key, value in self._options().items())
        return parts

    def _options(self) -> dict[str, object]:
        """The options that change the analyser's words, for the signature."""
        return {}

    def load(self) -> None:
        """Load the analyser now (its package, dictionary or model) instead of
        at the first ``tokenize``: to time it apart, or to fail early."""
        with self._analyse():
            pass

    def _check_installed(self) -> None:
        missing = [pkg for module, pkg in self.requirements if not _installed(module)]
        if missing:
            raise ImportError(
                f"the {self.name!r} tokenizer needs {' and '.join(missing)}: "
                f"{pip_install(self.extra)}"
            )

    def tokenize(self, text: str) -> list[str]:
        """The analyser's words of ``text``, lowercased, without punctuation."""
        text = self._prepared(text)
        if not text:
            return []
        calls = self._calls(text)
        with self._analyse() as analyse:
            if len(calls) == 1:
                words = analyse(text)
            else:
                words = [w for call in calls for w in analyse(call)]
            return stemmed(_kept_words(words), self.stemmer)

    def tokenize_within(self, text: str, limit: int) -> list[str] | None:
        """``tokenize(text)``, or None if it has more than ``limit`` words:
        the analyser then stops after the call (a piece of at most
        ``MECAB_PIECE``, ``SUDACHI_PIECE`` or, in a long unbroken run,
        ``RUN_BOUND`` code points) that passes the limit."""
        text = self._prepared(text)
        if not text:
            return []
        with self._analyse() as analyse:
            words = (word for call in self._calls(text) for word in analyse(call))
            return _kept_within(words, self.stemmer, limit)

    def _prepared(self, text: str) -> str:
        """``text`` as the analyser takes it; empty when it has no word."""
        if self._normalizer is not None:
            text = self._normalizer(text)
        if not text or text.isspace():
            return ""
        if not text.isascii():
            # The analysers take UTF-8 or UTF-16, where a lone surrogate (no
            # character, so no word) cannot be encoded: it separates, as a space.
            text = _SURROGATE.sub(" ", text)
        return text

    @contextmanager
    def _analyse(self) -> Iterator[Analyse]:
        """An analyser for this call: the shared one, or one lent by the pool."""
        if self._shared is None and self._pool is None:
            self._start()
        if self._shared is not None:
            yield self._shared
            return
        assert self._pool is not None
        with self._pool.lend() as analyse:
            yield analyse

    def _calls(self, text: str) -> list[str]:
        """``text`` cut into the analyser's calls: inside every run longer
        than ``RUN_BOUND`` (``_runs_cut``), then into the ``_sized`` pieces
        the analyser accepts (at whitespace or punctuation: a longer run
        without either is already cut)."""
        if len(text) <= RUN_BOUND:
            return [text]
        return [piece for part in _runs_cut(text) for piece in self._sized(part)]

    def _sized(self, text: str) -> list[str]:
        """``text`` in pieces the analyser takes in one call: by default at most
        ``MECAB_PIECE`` code points each, cut at a line break, else at
        whitespace or punctuation (``_natural_pieces``), so that a size limit
        stops the analyser after a piece; a text that short is one call."""
        return [text] if len(text) <= MECAB_PIECE else _natural_pieces(text, MECAB_PIECE)

    def _start(self) -> None:
        """Load the shared resource; make the one analyser, or the pool."""
        with self._lock:  # two threads starting together load once
            if self._shared is not None or self._pool is not None:
                return
            if self._resource is None:
                self._resource = self._shared_resource()
            resource = self._resource
            if self.thread_safe:
                self._shared = self._analyser(resource)
            else:
                pool = AnalyserPool(lambda: self._analyser(resource), POOL_MAX)
                pool.put(pool.make())  # the first one now: load() fails early
                self._pool = pool

    def _shared_resource(self) -> Any:
        """The process's loaded resource for this class and ``_load_key``,
        loaded now if no instance loaded it yet (one load at a time: two
        scorers starting together load once)."""
        key = (type(self), self._load_key())
        with _LOADED_LOCK:
            resource = _LOADED.get(key)
            if resource is None:
                resource = self._load()
            _LOADED[key] = resource
            _LOADED.move_to_end(key)
            while len(_LOADED) > _LOADED_MAX:
                _LOADED.popitem(last=False)
            return resource

    def _load_key(self) -> Hashable:
        """What ``_load`` depends on: instances with equal keys share it."""
        return ()

    def _load(self) -> Any:
        """Import the package and load its dictionary or model (not None)."""
        raise NotImplementedError

    def _analyser(self, resource: Any) -> Analyse:
        """``text -> words`` (surface or lemma) over the loaded resource."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(use_stemmer={self.use_stemmer}, normalize={self.normalize!r})"
        )


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


class MeCabTokenizer(MorphologicalTokenizer):
    """Japanese words from MeCab, through fugashi with the UniDic-lite dictionary.

    ``tagger_args`` is passed to ``fugashi.Tagger`` (e.g. ``"-d /path/to/dic"``).
    With ``use_stemmer``, a word becomes its written base form (UniDic
    ``orthBase``), or stays as it is when the dictionary has none.

    MeCab crashes the process on one very long call, so a text of more than
    ``MECAB_PIECE`` (10,000) code points is analysed in pieces of at most that
    many, each ending after its last whitespace or punctuation character (see
    ``_natural_pieces``; jieba and Kiwi get the same pieces).  A text that
    short, the everyday case, is one call with the tokens of fugashi alone.
    A cut can change a token next to it: MeCab reads a word with its
    neighbours' context, which a piece does not see past its ends.  Like
    every adapter, it also cuts a run of more than ``RUN_BOUND`` (1,024) code
    points without whitespace or punctuation every ``RUN_BOUND`` code points,
    inside what MeCab would take as one word: its time on such a run grows
    with the run's square.
    """

    name = "mecab"
    extra = "ja"
    # A tagger keeps its lattice between calls, so each call borrows one from
    # the process's pool for these options (``shared_taggers``): the analyser
    # made from the pool serves every thread, and every copy of the scorer
    # (unpickled in workers) shares the pool, so MeCab's dictionary is mapped
    # at most ``POOL_MAX`` times per process, not once per copy.
    thread_safe = True
    lemmatizes = True
    requirements = (("fugashi", "fugashi"), ("unidic_lite", "unidic-lite"))

    def __init__(
        self, use_stemmer: bool = False, normalize: str | None = None, tagger_args: str = ""
    ) -> None:
        super().__init__(use_stemmer=use_stemmer, normalize=normalize)
        self.tagger_args = tagger_args

    def _options(self) -> dict[str, object]:
        return {"tagger_args": self.tagger_args} if self.tagger_args else {}

    def _load_key(self) -> Hashable:
        return self.tagger_args

    def _load(self) -> Any:
        fugashi = _import_quietly("fugashi")
        args = self.tagger_args
        return shared_taggers("unidic-lite", args, lambda: mecab_tagger(fugashi, args))

    def _analyser(self, taggers: AnalyserPool) -> Analyse:
        word_of: Callable[[Any], str] = mecab_base_form if self.use_stemmer else mecab_surface

        def analyse(piece: str) -> list[str]:
            with taggers.lend() as tagger:  # its nodes are read before it is lent again
                return [word_of(word) for word in tagger(piece)]

        return analyse


class SudachiTokenizer(MorphologicalTokenizer):
    """Japanese words from Sudachi (SudachiPy with the ``core`` dictionary).

    ``mode`` is Sudachi's split mode: ``"A"`` (default: short units, like
    UniDic's), ``"B"`` (middle) or ``"C"`` (named entities and compounds kept
    whole: ``選挙管理委員会``).  ``dict`` names another installed dictionary
    package (``"small"``, ``"full"``).  With ``use_stemmer``, a word becomes its
    dictionary form.
    """

    name = "sudachi"
    extra = "ja"
    thread_safe = False  # "A Tokenizer instance cannot be used concurrently"
    lemmatizes = True
    requirements = (("sudachipy", "sudachipy"), ("sudachidict_core", "sudachidict-core"))

    def __init__(
        self,
        use_stemmer: bool = False,
        normalize: str | None = None,
        mode: str = "A",
        dict: str = "core",
    ) -> None:
        if mode not in ("A", "B", "C"):
            raise ValueError(f"Sudachi split mode must be 'A', 'B' or 'C', got {mode!r}")
        if dict != "core":
            self.requirements = (
                ("sudachipy", "sudachipy"),
                (f"sudachidict_{dict}", f"sudachidict-{dict}"),
            )
        super().__init__(use_stemmer=use_stemmer, normalize=normalize)
        self.mode = mode
        self.dict = dict

    def _options(self) -> dict[str, object]:
        return {"mode": self.mode}

    def _load_key(self) -> Hashable:
        return self.dict

    def _load(self) -> Any:
        sudachipy = _import_quietly("sudachipy")
        return sudachipy, sudachipy.Dictionary(dict=self.dict)

    def _analyser(self, loaded: Any) -> Analyse:
        sudachipy, dictionary = loaded
        mode = getattr(sudachipy.SplitMode, self.mode)
        make = getattr(dictionary, "tokenizer", None)  # SudachiPy >= 0.6.8
        tokenizer = make(mode=mode) if make is not None else dictionary.create(mode)
        lemma = self.use_stemmer

        def analyse(piece: str) -> list[str]:
            morphemes = tokenizer.tokenize(piece)
            return [m.dictionary_form() if lemma else m.surface() for m in morphemes]

        return analyse

    def _sized(self, text: str) -> list[str]:
        return _pieces(text, SUDACHI_PIECE)


class JiebaTokenizer(MorphologicalTokenizer):
    """Chinese words from jieba.

    Each instance has its own ``jieba.Tokenizer``; its dictionary is built (or
    read from jieba's cache in ``cache_dir``) on first use.  The default cache
    directory is private to the user (``$XDG_CACHE_HOME/kurenai``, mode 0700),
    never the shared temporary directory, where another user could plant a
    cache.  ``hmm`` enables jieba's HMM for unknown words.
    Loading lowers the ``jieba`` logger to WARNING, silencing its progress lines.
    """

    name = "jieba"
    extra = "zh"
    requirements = (("jieba", "jieba"),)

    def __init__(
        self,
        use_stemmer: bool = False,
        normalize: str | None = None,
        hmm: bool = True,
        cache_dir: str | None = None,
    ) -> None:
        super().__init__(use_stemmer=use_stemmer, normalize=normalize)
        self.hmm = hmm
        self.cache_dir = cache_dir

    def _options(self) -> dict[str, object]:
        return {"hmm": self.hmm}

    def _load_key(self) -> Hashable:
        return self._cache_dir()

    def _cache_dir(self) -> str:
        return self.cache_dir or private_cache_dir()

    def _load(self) -> Any:
        jieba = _import_quietly("jieba")
        logging.getLogger("jieba").setLevel(logging.WARNING)
        tokenizer = jieba.Tokenizer()
        tokenizer.tmp_dir = self._cache_dir()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tokenizer.initialize()
        return tokenizer

    def _analyser(self, tokenizer: Any) -> Analyse:
        hmm = self.hmm
        return lambda text: _jieba_words(tokenizer.tokenize(text, HMM=hmm))


class KiwiTokenizer(MorphologicalTokenizer):
    """Korean morphemes from Kiwi (kiwipiepy).

    ``kiwi_options`` are passed to ``kiwipiepy.Kiwi`` (e.g. ``num_workers``,
    ``model_type``).  The morphemes are already uninflected stems and endings
    (``했다`` -> ``하``, ``었``, ``다``); the stemmer only Porter-stems ASCII words.
    """

    name = "kiwi"
    extra = "ko"
    requirements = (("kiwipiepy", "kiwipiepy"),)

    def __init__(
        self, use_stemmer: bool = False, normalize: str | None = None, **kiwi_options: Any
    ) -> None:
        super().__init__(use_stemmer=use_stemmer, normalize=normalize)
        self.kiwi_options = kiwi_options

    def _options(self) -> dict[str, object]:
        # The model ships apart from the analyser, in its own package.
        return {"kiwipiepy-model": distribution_version("kiwipiepy-model"), **self.kiwi_options}

    def _load_key(self) -> Hashable:
        # By value (repr: an option may be unhashable); an option object
        # without a value repr only shares with itself.
        return repr(sorted(self.kiwi_options.items()))

    def _load(self) -> Any:
        kiwi = _import_quietly("kiwipiepy").Kiwi(**self.kiwi_options)
        # Kiwi builds most of its model at its first analysis (seconds): done
        # here, it is part of loading, which the command line times apart
        # from scoring, rather than of the first record's tokenizing.
        kiwi.tokenize("")
        return kiwi

    def _analyser(self, kiwi: Any) -> Analyse:
        return lambda text: [token.form for token in kiwi.tokenize(text)]
