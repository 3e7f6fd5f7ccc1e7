"""Training the ball classifier with ultralytics, offline, on the CPU; exporting it to ONNX.

Needs the `train` extra's torch and ultralytics (see the README: a CPU torch from this machine's
disk and torchvision from the same place). Offline by construction: the network is never asked —
YOLO_OFFLINE, no hub, no telemetry (sync off), no auto-install, a local font for ultralytics'
plots, and the model built from its .yaml (a .pt name would download weights).
"""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

MODELS = Path(__file__).resolve().parents[1] / "models"


def _offline(workdir: Path) -> None:
    cfg = workdir / "ultralytics-config"
    (cfg / "Ultralytics").mkdir(parents=True, exist_ok=True)
    os.environ.update({"YOLO_OFFLINE": "True", "YOLO_CONFIG_DIR": str(cfg), "YOLO_AUTOINSTALL": "False",
                       "HF_HUB_OFFLINE": "1", "WANDB_MODE": "disabled"})
    for font in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",):
        if Path(font).exists():
            for name in ("Arial.ttf", "Arial.Unicode.ttf"):
                dst = cfg / "Ultralytics" / name
                if not dst.exists():
                    shutil.copy(font, dst)


def train(data: Path, out: Path = MODELS, *, epochs: int = 40, imgsz: int = 32, batch: int = 256,
          seed: int = 0, workdir: Path | None = None, name: str = "ball-classifier",
          base: str = "yolov8n-cls.yaml") -> dict:
    """Train a classifier on an ultralytics classification folder (train/ and val/ of class
    folders) and write `name`.onnx with `name`.json (classes, settings, measured accuracy) to `out`.
    `base` may be a previous .pt to fine-tune from (on frames of your own table)."""
    workdir = Path(workdir or out / ".train")
    workdir.mkdir(parents=True, exist_ok=True)
    _offline(workdir)
    from ultralytics import YOLO, settings  # noqa: PLC0415

    settings.update({k: False for k in ("sync", "hub", "wandb", "mlflow", "tensorboard", "clearml", "comet",
                                          "dvc", "neptune", "raytune") if k in settings})
    t0 = time.time()
    model = YOLO(base, task="classify")
    # pretrained=False makes ultralytics reset every layer after loading the weights: right for a
    # .yaml (nothing to download), but a .pt to fine-tune from must keep its weights.
    model.train(data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, workers=2, device="cpu", amp=False,
                plots=False, seed=seed, deterministic=True, project=str(workdir.resolve()), name="run", exist_ok=True,
                pretrained=str(base).endswith(".pt"), verbose=False, fliplr=0.0, hsv_h=0.0, hsv_s=0.3, hsv_v=0.3,
                erasing=0.0)
    metrics = model.val(data=str(data), imgsz=imgsz, batch=batch, device="cpu", plots=False, verbose=False,
                        project=str(workdir.resolve()), name="val", exist_ok=True)
    top1 = float(metrics.top1)
    onnx = Path(model.export(format="onnx", imgsz=imgsz, dynamic=True, simplify=False))
    out.mkdir(parents=True, exist_ok=True)
    dst = out / f"{name}.onnx"
    shutil.copy(onnx, dst)
    names = model.names
    meta = {"classes": [names[i] for i in range(len(names))], "imgsz": imgsz, "epochs": epochs, "batch": batch,
            "seed": seed, "base": base, "val_top1": round(top1, 4), "train_seconds": round(time.time() - t0, 1),
            "data": str(data)}
    dst.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    pt = workdir / "run" / "weights" / "best.pt"
    if pt.exists():
        shutil.copy(pt, out / f"{name}.pt")
    return meta
