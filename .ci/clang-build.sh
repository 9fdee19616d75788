#!/usr/bin/env bash
# The extension built by clang (macOS's compiler family; Debian's `clang`), with
# setup.py's flags and Python's own (-Wall among them): any compiler warning
# fails.  Then the kernels' tests run on the clang build, against the twins.
#
#   bash .ci/clang-build.sh [PYTHON [PYTEST OPTIONS...]]   # PYTHON: with Cython and the test extra
set -euo pipefail
cd "$(dirname "$0")/.."
python="${1:-python}"
shift || true
command -v clang >/dev/null || { echo "clang is missing: apt-get install clang" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git ls-files -z | xargs -0 cp --parents -t "$work"
cd "$work"
CC=clang KURENAI_REQUIRE_EXTENSION=1 "$python" setup.py build_ext --inplace >build.log 2>&1 \
    || { tail -40 build.log; exit 1; }
grep -q '^clang .*_lcs\.c' build.log || { echo "clang never compiled _lcs.c" >&2; exit 1; }
if grep -E 'warning:' build.log; then
    echo "clang warned" >&2
    exit 1
fi
echo "clang: $(ls kurenai/*.so | wc -l) modules, no warning"
env -u KURENAI_IMPLEMENTATION PYTHONPATH="$work" "$python" -m pytest -q -p no:cacheprovider \
    -m "not slow" "$@" tests/kernel_modules/test_kernels.py tests/kernel_modules/test_variants_kernels.py \
    tests/kernel_modules/test_lcs_threads.py tests/core/test_resample.py
