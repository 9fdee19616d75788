#!/usr/bin/env bash
# The report's browser tests (tests/report/test_browser.py) drive Debian's Chromium
# through its own chromedriver: install both, once. Idempotent: a machine that has
# them already is left alone (no apt-get update either).
set -euo pipefail
if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium chromium-driver
chromium --version
chromedriver --version
