#!/usr/bin/env bash
# Everything the tests need: the package with its test and ground-truth extras
# (scripts/install-synth.sh) and Debian's Chromium for the live page's browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-browser.sh
bash scripts/install-synth.sh test,synth
