"""Which ball: a crop classifier (cue, 1–15, or "none") run with onnxruntime — no torch, no network.

The model is an ultralytics YOLO classifier trained on rendered ground truth (`cueref train`),
exported to ONNX and shipped in models/ with its model card. Its input is the crop of crops.py
(32×32 BGR around a candidate), its output one probability per class.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

MODELS = Path(__file__).resolve().parents[1] / "models"
DEFAULT_MODEL = MODELS / "ball-classifier.onnx"
# Asked only about blurred balls (vision/detect.py): trained with motion streaks at 60 and 30 fps
# (`cueref train --moving 4`), which the default model never saw (models/README.md).
BLURRED_MODEL = MODELS / "ball-classifier-blurred.onnx"


class ModelMissing(RuntimeError):
    pass


class Identifier:
    def __init__(self, path: Path = DEFAULT_MODEL):
        import onnxruntime as ort  # noqa: PLC0415

        path = Path(path)
        if not path.exists():
            raise ModelMissing(f"no classifier at {path}: train one with `cueref train` or use the shipped model")
        meta = path.with_suffix(".json")
        info = json.loads(meta.read_text(encoding="utf-8")) if meta.exists() else {}
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.log_severity_level = 3
        self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        self.imgsz = int(info.get("imgsz", inp.shape[-1] if isinstance(inp.shape[-1], int) else 32))
        self.classes: list[str] = info.get("classes") or [str(i) for i in range(self.session.get_outputs()[0].shape[-1])]

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        """(N, classes) probabilities for N BGR crops."""
        if not crops:
            return np.zeros((0, len(self.classes)), np.float32)
        size = (self.imgsz, self.imgsz)
        batch = np.stack([c if c.shape[:2] == size else cv2.resize(c, size, interpolation=cv2.INTER_AREA)
                          for c in crops])
        x = batch[..., ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255.0  # BGR → RGB, NCHW
        out = self.session.run(None, {self.input_name: np.ascontiguousarray(x)})[0]
        out = out.reshape(len(crops), -1)
        # Already probabilities (the shipped models end in a softmax)? (As np.allclose with atol
        # 1e-3, at a tenth of its cost: the detector asks ~1,400 times a minute of video.)
        if out.min() < 0 or float(np.abs(out.sum(axis=1) - 1.0).max()) > 1e-3 + 1e-5:
            e = np.exp(out - out.max(axis=1, keepdims=True))
            out = e / e.sum(axis=1, keepdims=True)
        return out

    def reordered(self, probs: np.ndarray, classes: list[str]) -> np.ndarray:
        """`probs` (N, this model's classes) over `classes` instead (0 for a class it lacks)."""
        out = np.zeros((len(probs), len(classes)), np.float32)
        mine = {c: j for j, c in enumerate(self.classes)}
        for i, c in enumerate(classes):
            if c in mine:
                out[:, i] = probs[:, mine[c]]
        return out

    def label(self, probs: np.ndarray) -> list[str]:
        return [self.classes[i] for i in probs.argmax(axis=1)]


@lru_cache(maxsize=4)
def blurred_identifier(path: Path = BLURRED_MODEL) -> Identifier | None:
    """The blurred balls' classifier (one session per process, shared by every detector), or None
    when it is not there: the detector then asks the default model about every ball."""
    return Identifier(path) if Path(path).exists() else None
