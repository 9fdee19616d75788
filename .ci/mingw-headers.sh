#!/usr/bin/env bash
# The nearest check of Windows on Linux: MinGW-w64's GCC (Debian's
# gcc-mingw-w64-x86-64) compiles every C header of the kernels
# (kurenai/_kernels/*.h) and the C written inline in the .pyx/.pxd files,
# with Windows' own system headers, warnings as errors, two ways:
#   - as MinGW builds them: GCC on _WIN32, so no POSIX threads (the LCS lanes run
#     serially) but the GCC builtins (POPCNT and AVX2 chosen at run time);
#   - the portable path MSVC takes: __GNUC__ and __clang__ undefined after the
#     system headers, _MSC_VER defined, __forceinline as MSVC's keyword (inline);
#   - any other C compiler: neither GCC's nor MSVC's macros, nor __forceinline.
# Not checked here: Cython's generated C against a Windows Python's headers
# (Windows' pyconfig.h is not in Debian), nor MSVC itself; the wheels workflow
# builds and tests on Windows.  The headers that include Python.h use only
# Py_ssize_t of it, which a stub defines as Windows does (a pointer-sized int).
#
#   bash .ci/mingw-headers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cc=x86_64-w64-mingw32-gcc
command -v "$cc" >/dev/null || { echo "$cc is missing: apt-get install gcc-mingw-w64-x86-64" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/stub"
printf "#include <stddef.h>\ntypedef ptrdiff_t Py_ssize_t;\n" >"$work/stub/Python.h"
# The inline C of `cdef extern from *` blocks that does not use the C-API.
python3 - "$work" kurenai/_records.pyx kurenai/_kernels/_fused_stems.pxd <<'PY'
import re, sys
from pathlib import Path
for source in sys.argv[2:]:
    text = Path(source).read_text(encoding="utf-8")
    blocks = re.findall(r'cdef extern from \*:\n\s+"""(.*?)"""', text, re.S)
    Path(sys.argv[1], Path(source).stem + "_inline.h").write_text("\n".join(blocks))
PY
checked=0
for header in kurenai/_kernels/*.h "$work"/*_inline.h; do
    for mode in gnu msvc c99; do
        unit="$work/unit.c"
        {
            printf '#include <stdint.h>\n#include <stddef.h>\n#include <stdlib.h>\n'
            printf '#include <string.h>\n#include <stdio.h>\n'
            if [ "$mode" != gnu ]; then
                printf '#undef __GNUC__\n#undef __clang__\n#undef __forceinline\n'
            fi
            if [ "$mode" = msvc ]; then
                printf '#define __forceinline inline\n#define _MSC_VER 1930\n'
            fi
            printf '#include "%s"\n' "$(realpath "$header")"
            printf 'int kurenai_unit_%s;\n' "$mode"
        } >"$unit"
        "$cc" -std=c11 -O2 -Wall -Wextra -Werror -Wno-unused-function -Wno-unused-variable -I "$work/stub" \
            -c "$unit" -o "$work/unit.o" || { echo "mingw: $header ($mode) failed" >&2; exit 1; }
        checked=$((checked + 1))
    done
done
echo "mingw: $checked compilations, no warning"
