#!/usr/bin/env bash
# Every other supported Python: for each, a fresh virtual environment, kurenai
# built and installed from PROJECT (not editable: compiled by pip, the
# extension required) with the test-core extra, then .ci/wheel_test.py, the core
# tests against the installed build (the list and why it is that list: its
# docstring).  .ci/run calls it after the whole suite on the default Python.
# The oldest and the newest Python run every core test; those between, whose
# builds differ least, the kernels' (wheel_test.py --kernels-only), which keeps
# CI within its time.
#
#   bash .ci/pythons.sh [PROJECT] [VERSION...]   # default: this checkout; 3.9 3.10 3.12 3.13
#
# Each VERSION is found with pyenv (the newest installed 3.X.Y) or as pythonX.Y
# on PATH; a missing one fails (pyproject.toml claims it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
project="$(cd "${1:-$here/..}" && pwd)"
shift || true
versions=("$@")
[ "${#versions[@]}" -gt 0 ] || versions=(3.9 3.10 3.12 3.13)

find_python() {
    local version="$1" exact
    if command -v pyenv >/dev/null; then
        exact="$(pyenv versions --bare | grep -E "^${version//./\\.}\.[0-9]+$" | sort -V | tail -1 || true)"
        if [ -n "$exact" ]; then
            echo "$(pyenv prefix "$exact")/bin/python$version"
            return
        fi
    fi
    command -v "python$version" || { echo "Python $version is not installed" >&2; return 1; }
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
last=$((${#versions[@]} - 1))
for index in "${!versions[@]}"; do
    version="${versions[$index]}"
    subset=()
    if [ "$index" -ne 0 ] && [ "$index" -ne "$last" ]; then subset=(--kernels-only); fi
    python="$(find_python "$version")"
    echo "== Python $version ($python)"
    start=$SECONDS
    "$python" -m venv "$work/venv$version"
    venv_python="$work/venv$version/bin/python"
    # KURENAI_REQUIRE_EXTENSION: a failed compile fails here, never a pure install.
    env -u KURENAI_IMPLEMENTATION KURENAI_REQUIRE_EXTENSION=1 \
        "$venv_python" -m pip install -q --prefer-binary "$project[test-core]"
    env -u KURENAI_IMPLEMENTATION -u PYTHONPATH \
        "$venv_python" "$project/.ci/wheel_test.py" "$project" "${subset[@]}"
    echo "== Python $version: $((SECONDS - start)) s"
done
