"""ROUGE-1.5.5.pl's command line: Perl's ``getopts`` and the script's checks.

``getopts('ahHb:c:de:f:l:mMn:p:st:r:2:3:w:uUvxz:')`` reads single-letter
options up to the first argument that is not one (or ``--``); flags may be
bundled (``-amd``), a value may be attached (``-n4``) or follow (``-n 4``,
even when it looks like an option: ``-2 -1``).  An unknown letter is
reported (``Unknown option: q``) and skipped, as Perl does.  The values the
report prints (``-c``, ``-w``, ``-2``) keep their spelling.

kurenai adds long options, which the script has none of: ``--tokenizer``,
and ``--help``.  A request for help (``-h``, ``-H``, ``--help``) prints the
usage on stdout and exits 0; the script's ``die $usage`` (stderr, 255) is
kept for a command line without a configuration file.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import NamedTuple

from kurenai._data.spelling import did_you_mean

__all__ = ["Options", "OptionsError", "UsageRequest", "parse_command_line"]

_WITH_VALUE = set("bceflnptr23wz")
_FLAGS = set("ahHdmMsuUvx")
_LONG = ("--tokenizer", "--help")  # kurenai's; the script has none
# Options of the script that kurenai does not reproduce, and why.
_UNSUPPORTED = {
    "3": "Basic Elements (-3) are not supported: they need the BE breaker's SIMPLE files",
    "M": "-M (stem the models only) is not supported",
    "v": "-v (the script's debugging output) is not supported",
}


class OptionsError(ValueError):
    """A command line the script (or kurenai) refuses; exits with 255 as Perl's die."""


class UsageRequest(Exception):
    """``-h`` / ``-H`` / ``--help`` (``asked``: the usage on stdout, exit 0) or
    no configuration (the usage on stderr, exit 255, as the script dies)."""

    def __init__(self, asked: bool) -> None:
        super().__init__(asked)
        self.asked = asked


class Options(NamedTuple):
    """What a run of the script computes and prints."""

    config: str = ""
    system_id: str | None = None
    all_systems: bool = False  # -a
    confidence: str = "95"  # -c, as printed
    per_eval: bool = False  # -d
    data_dir: str | None = None  # -e
    scoring: str = "A"  # -f: B is best model, anything else averages
    words: int = 0  # -l
    size: int = 0  # -b
    stem: bool = False  # -m
    max_n: int | None = None  # -n
    alpha: float = 0.5  # -p
    remove_stopwords: bool = False  # -s
    counting: int | None = None  # -t: None (0), 1 or 2
    resamples: int = 1000  # -r
    gap: str | None = None  # -2, as printed
    su_only: bool = False  # -u
    s_and_su: bool = False  # -U
    weight: str | None = None  # -w, as printed
    no_lcs: bool = False  # -x
    file_list: str | None = None  # -z format
    tokenizer: str | None = None  # --tokenizer (kurenai extension)
    warnings: tuple[str, ...] = ()


# The largest -n and -r: -n 30 prints ROUGE-1 to ROUGE-30, as the script
# does; -n 10**12 or -r 10**12 would never end (the script's loops) or take
# terabytes (the bootstrap's sums), and are refused in one line.
MAX_N = 1_000
MAX_RESAMPLES = 10_000_000


def _getopts(argv: list[str]) -> tuple[dict[str, str], list[str], list[str], dict[str, str]]:
    """(options, arguments, warnings, long options) as Getopt::Std leaves them."""
    found: dict[str, str] = {}
    long: dict[str, str] = {}
    warnings: list[str] = []
    args = list(argv)
    while args and args[0].startswith("-") and len(args[0]) > 1:
        arg = args.pop(0)
        if arg == "--":
            break
        if arg.startswith("--"):
            name, _, value = arg[2:].partition("=")
            if name == "help":
                long[name] = "1"
                continue
            if name != "tokenizer":
                meant = did_you_mean(f"--{name}", _LONG)
                raise OptionsError(
                    f"unknown option --{name}{meant} (the long options are {', '.join(_LONG)})"
                )
            if not value:
                if not args:
                    raise OptionsError("--tokenizer needs a tokenizer name")
                value = args.pop(0)
            long[name] = value
            continue
        rest = arg[1:]
        while rest:
            letter, rest = rest[0], rest[1:]
            if letter in _WITH_VALUE:
                if not rest:
                    if not args:
                        raise OptionsError(f"-{letter} needs a value")
                    rest = args.pop(0)
                found[letter] = rest
                rest = ""
            elif letter in _FLAGS:
                found[letter] = "1"
            else:
                warnings.append(f"Unknown option: {letter}")
    return found, args, warnings, long


def parse_command_line(argv: Sequence[str]) -> Options:
    """The script's command line, checked as the script checks it."""
    found, args, warnings, long = _getopts(list(argv))
    asked = "h" in found or "H" in found or "help" in long
    if asked or not args:
        raise UsageRequest(asked)
    for letter, why in _UNSUPPORTED.items():
        if letter in found:
            raise OptionsError(why)
    system_id: str | None = None
    if len(args) >= 2:
        system_id = args[1]
    elif "z" in found:
        system_id = "X"
    elif "a" not in found:
        raise OptionsError(
            "Please specify a system ID to evaluate or use option '-a' to evaluate all "
            "systems. For more information, use option '-h'."
        )
    if "l" in found and "b" in found:
        raise OptionsError("Please specify length limit in words or bytes but not both.")
    confidence = found.get("c", "95")
    if not 0 <= _number(confidence, "c") <= 100:
        raise OptionsError(
            "Confidence interval should be within 0 and 100. Use option -h for more details."
        )
    if "w" in found and not _number(found["w"], "w") > 0:
        raise OptionsError("ROUGE-W weight factor must greater than 0.")
    alpha = _number(found.get("p", "0.5"), "p")
    if not 0 <= alpha <= 1:
        raise OptionsError(
            "Relative importance of ROUGE recall and precision has to be between 0 and 1 "
            "inclusively."
        )
    resamples = _integer(found.get("r", "1000"), "r")
    if resamples < 1:
        raise OptionsError("-r must be at least 1 (the script divides by it)")
    _at_most(resamples, MAX_RESAMPLES, "r", "bootstrap samples")
    counting = _integer(found["t"], "t") if "t" in found else None
    if "2" in found:
        _integer(found["2"], "2")
    return Options(
        config=args[0],
        system_id=system_id,
        all_systems="a" in found and "z" not in found,
        confidence=confidence,
        per_eval="d" in found,
        data_dir=found.get("e"),
        scoring=found.get("f", "A"),
        words=_integer(found["l"], "l") if "l" in found else 0,
        size=_integer(found["b"], "b") if "b" in found else 0,
        stem="m" in found,
        max_n=_at_most(_integer(found["n"], "n"), MAX_N, "n", "ROUGE-N orders")
        if "n" in found
        else None,
        alpha=alpha,
        remove_stopwords="s" in found,
        counting=counting if counting in (1, 2) else None,
        resamples=resamples,
        gap=found.get("2"),
        su_only="u" in found,
        s_and_su="U" in found,
        weight=found.get("w"),
        no_lcs="x" in found,
        file_list=found.get("z"),
        tokenizer=long.get("tokenizer"),
        warnings=tuple(warnings),
    )


def _number(value: str, letter: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise OptionsError(f"-{letter} takes a number, got {value!r}") from None


def _at_most(value: int, maximum: int, letter: str, what: str) -> int:
    """``value``, unless it is beyond what any run can hold: one line, not a
    MemoryError (the script would try, and run for ever)."""
    if value > maximum:
        raise OptionsError(f"-{letter} {value} is too large (at most {maximum:,} {what})")
    return value


def _integer(value: str, letter: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise OptionsError(f"-{letter} takes an integer, got {value!r}") from None


USAGE = """\
usage: {prog} [-a] [-c cf] [-d] [-e ROUGE_EVAL_HOME] [-h] [-H]
         [-b n-bytes|-l n-words] [-m] [-n max-ngram] [-s] [-r number-of-samples]
         [-2 max-gap-length] [-u] [-U] [-w weight] [-x] [-f A|B] [-p alpha]
         [-t 0|1|2] [-z SEE|SPL|ISI] [--tokenizer NAME] [--help]
         <ROUGE-eval-config-file> [<systemID>]

ROUGE-1.5.5.pl's command line, computed by kurenai (no Perl): the same report, byte for byte.
  -a  evaluate every system in the configuration (else name one: <systemID>)
  -c  confidence interval CF% (0-100, default 95)      -d  print every evaluation's scores
  -e  the data directory (smart_common_words.txt, WordNet-2.0-Exceptions/)
  -b / -l  use only the first n bytes / words of every summary
  -m  stem (WordNet exceptions, then Porter)           -s  remove SMART stopwords
  -n  ROUGE-N up to max-ngram                          -x  no ROUGE-L
  -w  ROUGE-W with this weight                         -2  ROUGE-S with this gap (< 0: none)
  -u  ROUGE-SU instead of ROUGE-S   -U  both           -f  A: average models, B: best model
  -p  alpha of the F-measure (0-1, default 0.5)        -r  bootstrap samples (default 1000)
  -t  0: average the evaluations' scores, 1: pool their counts, 2: print the pooled counts
  -z  the configuration is a list of "peer model1 model2 ..." lines in this format
  --tokenizer NAME  kurenai extension: count the words of kurenai's tokenizer NAME
                    (e.g. char, unicode, mecab) instead of the script's ASCII words
  -h, -H, --help  print this usage and exit
Not supported: -3 (Basic Elements), -M, -v.
"""


def usage(prog: str) -> str:
    """The usage text (stderr, as the script's ``die $usage``)."""
    return USAGE.format(prog=prog)


if __name__ == "__main__":  # pragma: no cover
    sys.stderr.write(usage("rouge155"))
