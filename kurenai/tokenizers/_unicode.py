"""Dictionary-free tokenizers for raw text in any script: ``unicode`` and ``char``.

Both lowercase, drop punctuation, symbols (emoji included), spaces and control
characters by Unicode category, and keep letters (``L*``), numbers (``N*``) and
combining marks (``M*``).  A combining mark belongs to the character before it:
it stays inside its word (``naïve`` written with U+0308 is one token), and it is
dropped with that character when the character is dropped (the U+FE0F after an
emoji).  Optional Unicode normalisation runs first (``normalize="NFKC"`` turns
full-width ``ＡＢＣ１２３`` into ``abc123``).

Both are line-separable: no token spans a newline, and neither lowercasing nor
normalisation looks across one.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Callable, ClassVar, Literal, cast

from kurenai._data.rules import (
    ALONE,
    CLASS_TABLE_SIZE,
    DIRECT_PLANES_END,
    MARK,
    PLANE_14,
    PLANE_14_SIZE,
    WORD,
)
from kurenai.tokenizers._protocol import Tokenizer, own_name
from kurenai.tokenizers._stemming import (
    Stemmer,
    StemmerChoice,
    porter_stemmer,
    stem_signature,
    stemmed,
)

__all__ = [
    "NORMALIZATION_FORMS",
    "CharTokenizer",
    "NormalizingTokenizer",
    "UnicodeTokenizer",
    "is_marks",
    "is_spaced_word",
    "make_normalizer",
    "normalizing",
    "with_normalization",
]

NORMALIZATION_FORMS = ("NFC", "NFKC", "NFD", "NFKD")
_Form = Literal["NFC", "NFKC", "NFD", "NFKD"]

# Scripts written without spaces between words, where each letter is a token.
_UNSPACED_PLANES_0_1 = (
    "\u0e00-\u0eff"  # Thai, Lao
    "\u1000-\u109f\ua9e0-\ua9ff\uaa60-\uaa7f"  # Myanmar
    "\u1780-\u17ff\u19e0-\u19ff"  # Khmer
    "\u1950-\u19df\u1a20-\u1aaf\uaa80-\uaadf"  # Tai Le, New Tai Lue, Tai Tham, Tai Viet
    "\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3031-\u3035\u3038-\u303c"  # CJK marks
    "\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f"  # kana, half-width katakana
    "\u3100-\u312f\u31a0-\u31bf"  # Bopomofo
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
    "\U0001b000-\U0001b2ff"  # kana supplements, Nushu
)
_PLANES_2_3 = "\U00020000-\U0003ffff"  # nothing but CJK ideographs
_UNSPACED_RANGES = _UNSPACED_PLANES_0_1 + _PLANES_2_3

# Letters and numbers: ``re``'s Unicode ``\w`` is exactly str.isalnum() plus "_".
_ALNUM = r"[^\W_]"


def class_of(code_points: list[int]) -> str:
    """A regex character class matching exactly ``code_points`` (sorted)."""
    ranges: list[str] = []
    start = previous = code_points[0]
    for code in [*code_points[1:], -1]:
        if code != previous + 1:
            ranges.append(re.escape(chr(start)) + "-" + re.escape(chr(previous)))
            start = code
        previous = code
    return "[" + "".join(ranges) + "]"


@functools.cache
def _mark_class() -> str:
    """A regex class of every combining mark (category M*), built once (~10 ms)."""
    # Marks live in planes 0-1 and in plane 14's variation selectors.
    code_points = [*range(0x20000), *range(0xE0000, 0xE1000)]
    return class_of([c for c in code_points if unicodedata.category(chr(c))[0] == "M"])


@functools.cache
def _word_pattern() -> re.Pattern[str]:
    """A run of letters, numbers and marks that starts with a letter or number."""
    return re.compile(rf"{_ALNUM}(?:{_ALNUM}|{_mark_class()})*")


@functools.cache
def _char_pattern() -> re.Pattern[str]:
    """A letter of an unspaced script with its marks, or a run of other ones.

    Explicit classes, built once (~70 ms), make this one ``findall`` five
    times faster than lookaheads or a substitution pass.
    """
    unspaced = re.compile(f"[{_UNSPACED_RANGES}]").match
    alone: list[int] = []
    joined: list[int] = []
    for code in range(0x20000):  # planes 2 and 3 are all unspaced
        char = chr(code)
        if char.isalnum():
            (alone if unspaced(char) and not char.isdecimal() else joined).append(code)
    letter = f"(?:{class_of(alone)}|(?=[^\\W_])[{_PLANES_2_3}])"
    word, mark = class_of(joined), _mark_class()
    return re.compile(f"{letter}{mark}*|{word}(?:{word}|{mark})*")


@functools.cache
def char_classes() -> bytes:
    """The flags of every code point, as the compiled scanner reads them.

    Flags and layout are ``kurenai._data.rules``'s (``ALONE``, ``WORD``, ``MARK``;
    planes 0-3 directly, then the start of plane 14).  It encodes exactly the
    classes of :func:`_char_pattern` and :func:`_word_pattern` (a test holds
    the two to each other).
    """
    unspaced = re.compile(f"[{_UNSPACED_RANGES}]").match
    flags = bytearray(CLASS_TABLE_SIZE)
    for code in range(DIRECT_PLANES_END):
        char = chr(code)
        if char.isalnum():
            if code >= 0x20000 or (unspaced(char) and not char.isdecimal()):
                flags[code] = ALONE
            else:
                flags[code] = WORD
    marks = re.compile(_mark_class()).match
    for code in [*range(0x20000), *range(PLANE_14, PLANE_14 + PLANE_14_SIZE)]:
        if marks(chr(code)):
            flags[code if code < 0x20000 else DIRECT_PLANES_END + code - PLANE_14] |= MARK
    return bytes(flags)


@functools.cache
def _marks_pattern() -> re.Pattern[str]:
    return re.compile(f"{_mark_class()}+")


@functools.cache
def _spaced_word_pattern() -> re.Pattern[str]:
    return re.compile(rf"(?:(?![{_UNSPACED_RANGES}]){_ALNUM}|{_mark_class()})+")


def is_marks(token: str) -> bool:
    """Whether ``token`` is made only of combining marks."""
    return _marks_pattern().fullmatch(token) is not None


def is_spaced_word(token: str) -> bool:
    """Whether ``token`` is letters, numbers and marks of scripts that use spaces.

    >>> is_spaced_word("naïve"), is_spaced_word("漢字"), is_spaced_word("c++")
    (True, False, False)
    """
    return _spaced_word_pattern().fullmatch(token) is not None


def make_normalizer(form: str | None) -> Callable[[str], str] | None:
    """``unicodedata.normalize`` bound to ``form`` (None: no normalisation).

    >>> make_normalizer("NFKC")("ＡＢＣ１２３")
    'ABC123'

    Raises ValueError for a form other than NFC, NFKC, NFD or NFKD.
    """
    if form is None:
        return None
    upper = form.upper() if isinstance(form, str) else form
    if upper not in NORMALIZATION_FORMS:
        raise ValueError(
            f"normalize must be None or one of {', '.join(NORMALIZATION_FORMS)}, got {form!r}"
        )
    return functools.partial(unicodedata.normalize, cast(_Form, upper))


class _RegexTokenizer:
    """Shared construction, stemming and repr of the two tokenizers below."""

    line_separable = True
    name: ClassVar[str]
    scan_mode: str | None = None

    def __init__(self, use_stemmer: StemmerChoice = False, normalize: str | None = None) -> None:
        self.use_stemmer = use_stemmer
        self.normalize = normalize.upper() if isinstance(normalize, str) else normalize
        self._normalizer = make_normalizer(normalize)
        self.stemmer: Stemmer | None = porter_stemmer(use_stemmer, self.name)
        self._find_words = _word_pattern().findall
        if self._normalizer is not None:
            # The compiled scan does not normalise: stay on the Python path.
            self.scan_mode = None

    def _prepared(self, text: str) -> str:
        if self._normalizer is not None:
            text = self._normalizer(text)
        return text.lower()

    def signature_parts(self) -> dict[str, str]:
        """Its name, stemming and normalisation, for the reproducibility signature."""
        parts = {"name": own_name(self), "stem": stem_signature(self.use_stemmer)}
        if self.normalize is not None:
            parts["normalize"] = self.normalize
        return parts

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(use_stemmer={self.use_stemmer}, normalize={self.normalize!r})"
        )


class UnicodeTokenizer(_RegexTokenizer):
    """rouge-score's ``DefaultTokenizer`` with "alphanumeric" meaning any script.

    Lowercases; every character that is not a letter, number or combining mark
    separates words; with the stemmer, ASCII ``[a-z0-9]`` tokens longer than 3
    characters are Porter-stemmed as rouge-score stems them.  On ASCII text the
    tokens are exactly rouge-score's.

    >>> UnicodeTokenizer().tokenize("Don't panic: Cristóbal naïve 東京タワー 42")
    ['don', 't', 'panic', 'cristóbal', 'naïve', '東京タワー', '42']
    >>> UnicodeTokenizer(use_stemmer=True, normalize="NFKC").tokenize("Running ＡＢＣ１２３")
    ['run', 'abc123']
    """

    name = "unicode"
    scan_mode: str | None = name  # the compiled scan of that name

    def tokenize(self, text: str) -> list[str]:
        """The words of ``text``."""
        return stemmed(self._find_words(self._prepared(text)), self.stemmer)


class CharTokenizer(_RegexTokenizer):
    """A character-aware tokenizer for unspaced scripts that needs no dictionary.

    Each CJK ideograph, kana, Bopomofo letter and letter of Thai, Lao, Khmer,
    Myanmar and the Tai scripts is its own token (with its combining marks);
    runs of other letters, numbers and marks (Latin, Hangul, Cyrillic, Arabic,
    digits of any script...) stay words.  Otherwise as :class:`UnicodeTokenizer`.

    >>> CharTokenizer().tokenize("今日はGPT-4で、한국어 Café!")
    ['今', '日', 'は', 'gpt', '4', 'で', '한국어', 'café']
    """

    name = "char"
    scan_mode: str | None = name

    def __init__(self, use_stemmer: StemmerChoice = False, normalize: str | None = None) -> None:
        super().__init__(use_stemmer=use_stemmer, normalize=normalize)
        self._find_words = _char_pattern().findall

    def tokenize(self, text: str) -> list[str]:
        """The words and unspaced-script characters of ``text``."""
        return stemmed(self._find_words(self._prepared(text)), self.stemmer)


class NormalizingTokenizer:
    """Normalises text (NFC, NFKC, NFD or NFKD), then calls another tokenizer.

    >>> from kurenai.tokenizers import AllCharacterSupportTokenizer
    >>> normalizing(AllCharacterSupportTokenizer(), "NFKC").tokenize("ＡＢＣ　１２３")
    ['abc', '123']
    """

    line_separable = False

    def __init__(self, tokenizer: Tokenizer, form: str) -> None:
        normalizer = make_normalizer(form)
        assert normalizer is not None
        self.tokenizer = tokenizer
        self.form = form.upper()
        self._normalize = normalizer

    def tokenize(self, text: str) -> list[str]:
        """``tokenizer.tokenize`` of the normalised ``text``."""
        return self.tokenizer.tokenize(self._normalize(text))

    def signature_parts(self) -> dict[str, str]:
        """The wrapped tokenizer's parts, and the normalisation form."""
        parts = getattr(self.tokenizer, "signature_parts", None)
        inner = parts() if callable(parts) else {"name": own_name(self.tokenizer)}
        return {**inner, "normalize": self.form}

    def load(self) -> None:
        """Load the wrapped tokenizer's resources now, if it has any to load."""
        load = getattr(self.tokenizer, "load", None)
        if callable(load):
            load()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.tokenizer!r}, {self.form!r})"


class _LineSeparableNormalizingTokenizer(NormalizingTokenizer):
    # Normalisation never composes or reorders across a newline.
    line_separable = True


def normalizing(tokenizer: Tokenizer, form: str) -> NormalizingTokenizer:
    """``tokenizer`` behind ``form`` normalisation, line-separable if it was."""
    if getattr(type(tokenizer), "line_separable", False) is True:
        return _LineSeparableNormalizingTokenizer(tokenizer, form)
    return NormalizingTokenizer(tokenizer, form)


def with_normalization(factory: Callable[..., Tokenizer]) -> Callable[..., Tokenizer]:
    """A registry factory that adds a ``normalize=`` option to ``factory``."""

    def make(
        use_stemmer: StemmerChoice = False, normalize: str | None = None, **options: object
    ) -> Tokenizer:
        tokenizer = factory(use_stemmer=use_stemmer, **options)
        return tokenizer if normalize is None else normalizing(tokenizer, normalize)

    make.__doc__ = f"``{factory.__name__}(use_stemmer, ...)``, optionally normalising first."
    return make
