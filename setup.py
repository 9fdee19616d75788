"""Builds kurenai's compiled modules: ``kurenai._lcs``, ``_fastpath`` and ``_variants``.

All metadata lives in pyproject.toml.  If the C++ compiler fails, kurenai
installs as pure Python (and warns at import), unless KURENAI_REQUIRE_EXTENSION
or CI is set, where a missing extension must fail the build instead.
"""

import os
import platform
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# -ffp-contract=off: no fused multiply-add, so C arithmetic rounds like Python's.
COMPILE_ARGS = [] if sys.platform == "win32" else ["-O3", "-ffp-contract=off"]


def _cpu_has_popcnt():
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            return " popcnt" in cpuinfo.read()
    except OSError:
        return False


# The LCS path reads table cells as bit counts; without this flag x86-64 counts
# bits in a library call.  Set KURENAI_PORTABLE=1 to build for any x86-64 CPU.
if (
    platform.machine().lower() in ("x86_64", "amd64")
    and sys.platform != "win32"
    and not os.environ.get("KURENAI_PORTABLE")
    and _cpu_has_popcnt()
):
    COMPILE_ARGS.append("-mpopcnt")


def _extensions():
    from Cython.Build import cythonize

    extensions = [
        Extension(
            f"kurenai.{name}",
            [f"kurenai/{name}.pyx"],
            language="c++",
            extra_compile_args=COMPILE_ARGS,
        )
        for name in ("_lcs", "_fastpath", "_variants")
    ]
    return cythonize(extensions, compiler_directives={"language_level": "3"})


def _must_compile():
    return any(os.environ.get(name) for name in ("KURENAI_REQUIRE_EXTENSION", "CI"))


class OptionalBuildExt(build_ext):
    """Turns a failed compile into a loud warning and a pure-Python install."""

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
            f"{frame}\nWARNING: kurenai's C++ extension could not be built ({error}).\n"
            f"kurenai will run in pure Python, correctly but much more slowly.\n{frame}",
            file=sys.stderr,
        )


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
