#!/usr/bin/env bash
# The compiled modules on aarch64, from an x86-64 Debian machine: cross-compiled
# with Debian's aarch64-linux-gnu-gcc (the flags of setup.py, warnings as
# failures) against the Python of a Debian arm64 root, then run under qemu-user
# with that root's Python 3.11: the kernels' tests, compiled against the pure
# twins, on an ARM CPU (no POPCNT, no AVX2, no x86 cpuid: the portable paths).
#
#   bash .ci/aarch64-kernels.sh [ROOT]     # ROOT: the arm64 root (made if missing)
#
# Needs: apt-get install gcc-aarch64-linux-gnu qemu-user debootstrap; Cython on
# this machine's Python (the test extra).  The root is Debian bookworm's arm64
# packages, unpacked (debootstrap --foreign, then dpkg -x): python3, its
# headers, NumPy, NLTK, absl, pytest and hypothesis; rouge-score (pure Python,
# not in Debian) is copied from this machine's Python.  Debian's hypothesis
# (6.67) lacks strategies tests/test_exactness.py uses: it is left out.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout="$PWD"
root="${1:-${TMPDIR:-/tmp}/kurenai-arm64-root}"
shift || true
packages=python3,libpython3.11-dev,python3-numpy,python3-pytest,python3-hypothesis,python3-nltk,python3-absl
if [ ! -x "$root/usr/bin/python3.11" ]; then
    debootstrap --foreign --arch=arm64 --variant=minbase --include="$packages" bookworm "$root"
    for deb in "$root"/var/cache/apt/archives/*.deb; do dpkg -x "$deb" "$root"; done
fi
# The links update-alternatives would make (NumPy loads libblas.so.3, liblapack.so.3).
for lib in blas lapack; do
    ln -sf "$lib/lib$lib.so.3" "$root/usr/lib/aarch64-linux-gnu/lib$lib.so.3"
done
python_arm=("qemu-aarch64" "-L" "$root" "$root/usr/bin/python3.11")

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git ls-files -z | xargs -0 cp --parents -t "$work"
cd "$work"

# 1. Cython's C (the same on every architecture), as setup.py makes it, then
# the cross compiler with setup.py's flags and those of Python's own build.
python -c 'from Cython.Build import cythonize
cythonize(["kurenai/*.pyx"], compiler_directives={"language_level": "3"}, quiet=True)'
suffix=".cpython-311-aarch64-linux-gnu.so"
for name in _lcs _fused _resample _variants _perl _records; do
    aarch64-linux-gnu-gcc -shared -fPIC -O3 -ffp-contract=off -g0 -pthread -Wall \
        -fwrapv -DNDEBUG -fno-strict-overflow -Wsign-compare \
        -I "$root/usr/include/python3.11" -idirafter "$root/usr/include" \
        -I kurenai -o "kurenai/$name$suffix" "kurenai/$name.c" 2>"$name.log" \
        || { cat "$name.log"; exit 1; }
    if [ -s "$name.log" ]; then cat "$name.log"; echo "aarch64: $name warned" >&2; exit 1; fi
done
file kurenai/_lcs"$suffix"

# 2. Under emulation: the modules load, say how they count bits, and the kernels'
# tests pass, compiled against their pure twins.
site="$(python -c 'import rouge_score, os; print(os.path.dirname(os.path.dirname(rouge_score.__file__)))')"
mkdir -p pure && cp -r "$site/rouge_score" pure/
export PYTHONPATH="$work:$work/pure"
"${python_arm[@]}" -c "import platform, kurenai, kurenai._lcs as l; \
print(platform.machine(), kurenai.IMPLEMENTATION, l.POPCOUNT)"
KURENAI_IMPLEMENTATION=compiled "${python_arm[@]}" -m pytest -q -p no:cacheprovider \
    -m "not slow" -x "$@" tests/kernel_modules/test_kernels.py tests/kernel_modules/test_variants_kernels.py \
    tests/kernel_modules/test_lcs_threads.py tests/kernel_modules/test_fused.py tests/core/test_resample.py
echo "aarch64: the kernels pass under qemu ($checkout)"
