"""Builds kurenai's compiled modules: ``kurenai._lcs``, ``_fused``, ``_resample``,
``_variants``, ``_perl``, ``_records``, ``_punkt`` and ``_pairs``.

All metadata lives in pyproject.toml.  If the C compiler fails, kurenai
installs as pure Python (and warns at import), unless KURENAI_REQUIRE_EXTENSION,
CI or CIBUILDWHEEL (set by cibuildwheel) is set, where a missing extension must
fail the build instead: a wheel is never pure Python.
KURENAI_IMPLEMENTATION=python (or an interpreter other than CPython) installs
pure Python without compiling; together with KURENAI_REQUIRE_EXTENSION or
CIBUILDWHEEL it is a contradiction, and the build stops.
"""

import os
import platform
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# -ffp-contract=off: no fused multiply-add, so C arithmetic rounds like Python's.
# -g0: no debug info in release builds (Python's own CFLAGS add -g).  No -march
# or -mpopcnt: the built module must run on any CPU of its architecture, and
# kurenai/_kernels/_popcount.h picks the POPCNT instruction at run time instead.
COMPILE_ARGS = [] if sys.platform == "win32" else ["-O3", "-ffp-contract=off", "-g0"]
# POSIX threads for one long pair's LCS (kurenai/_kernels/_lcs_threads.h; serial on Windows).
THREAD_ARGS = [] if sys.platform == "win32" else ["-pthread"]


def _extensions():
    from Cython.Build import cythonize

    extensions = [
        Extension(
            f"kurenai.{name}",
            [f"kurenai/{name}.pyx"],
            extra_compile_args=COMPILE_ARGS + THREAD_ARGS,
            extra_link_args=THREAD_ARGS,
        )
        for name in (
            "_lcs",
            "_fused",
            "_resample",
            "_variants",
            "_perl",
            "_records",
            "_punkt",
            "_pairs",
        )
    ]
    return cythonize(extensions, compiler_directives={"language_level": "3"})


# A wheel for others (cibuildwheel sets CIBUILDWHEEL=1) is never pure Python.
WHEEL_BUILD = ("KURENAI_REQUIRE_EXTENSION", "CIBUILDWHEEL")


def _set(names):
    return any(os.environ.get(name) for name in names)


def _must_compile():
    return _set((*WHEEL_BUILD, "CI"))


class OptionalBuildExt(build_ext):
    """Turns a failed compile into a loud warning and a pure-Python install."""

    def finalize_options(self):
        # The eight modules compile on every core unless -j says otherwise.
        super().finalize_options()
        if self.parallel is None:
            self.parallel = True

    def run(self):
        try:
            super().run()
        except Exception as error:
            self._fallback(error)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as error:
            self._fallback(error)

    def _fallback(self, error):
        if _must_compile():
            raise error
        frame = "=" * 74
        print(
            f"{frame}\nWARNING: kurenai's C extension could not be built ({error}).\n"
            f"kurenai will run in pure Python, correctly but much more slowly.\n{frame}",
            file=sys.stderr,
        )


def _wants_extension():
    # A pure-Python install when asked for, and on interpreters other than CPython.
    pure = os.environ.get("KURENAI_IMPLEMENTATION", "").strip().lower() == "python"
    cpython = platform.python_implementation() == "CPython"
    if (pure or not cpython) and _set(WHEEL_BUILD):
        why = "KURENAI_IMPLEMENTATION=python" if pure else platform.python_implementation()
        sys.exit(
            f"kurenai: the extension is required (KURENAI_REQUIRE_EXTENSION or CIBUILDWHEEL) "
            f"but {why} would install pure Python"
        )
    return not pure and cpython


setup(
    ext_modules=_extensions() if _wants_extension() else [],
    cmdclass={"build_ext": OptionalBuildExt},
)
