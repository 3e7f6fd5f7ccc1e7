#!/usr/bin/env bash
# Debian's Chromium for the live page's browser tests (tests/test_live.py drives it with
# playwright). Playwright's own browser download is not used: nothing is fetched but the package.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "install-browser: needs root for apt-get (or install Debian's chromium package yourself)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
