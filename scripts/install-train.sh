#!/usr/bin/env bash
# Install what `cueref train` needs on top of the project: torch and torchvision (this machine
# keeps torch 2.14.1 + torchvision 0.29.1 wheels on disk; pip takes them from there), then
# ultralytics without its dependency pins (they would pull several GB of CUDA packages) and the
# few packages it imports. Training runs on the CPU; inference needs none of this (onnxruntime).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check "torch==2.14.1" "torchvision==0.29.1"
python3 -m pip install --quiet --disable-pip-version-check --no-deps "ultralytics==8.4.190" "ultralytics-platform"
python3 -m pip install --quiet --disable-pip-version-check matplotlib pyyaml requests scipy psutil polars \
    ultralytics-thop onnx onnxslim
