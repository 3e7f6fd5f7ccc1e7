#!/usr/bin/env bash
# Install cueref with the ground-truth generator (synth/): its requirements from the [synth]
# extra, then pooltool-billiards 0.6.0 without its dependency pins (it asks for a panda3d
# development build that PyPI does not have; panda3d 1.10 from the extra runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-synth}"
python3 -m pip install --quiet --disable-pip-version-check -e ".[${extras}]"
python3 -m pip install --quiet --disable-pip-version-check --no-deps "pooltool-billiards==0.6.0"
