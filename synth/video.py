"""Writing H.264 video, as broadcast and club cameras produce it.

OpenCV's pip wheels carry no H.264 encoder, so frames go to the ffmpeg binary that the
`imageio-ffmpeg` package ships (libx264), raw BGR over a pipe. Without it, OpenCV's MPEG-4 Part 2
writer is the fallback (bigger files, other compression artefacts).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import cv2
import numpy as np


class VideoWriter:
    def __init__(self, path: Path, fps: int, size: tuple[int, int], crf: int = 23, preset: str = "veryfast"):
        self.path, self.size = Path(path), size
        self.proc = None
        self.cv = None
        try:
            import imageio_ffmpeg  # noqa: PLC0415

            exe = imageio_ffmpeg.get_ffmpeg_exe()
        except Exception:  # noqa: BLE001 — any failure to find the binary means: fall back
            exe = None
        if exe:
            w, h = size
            cmd = [exe, "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgr24",
                   "-s", f"{w}x{h}", "-r", str(fps), "-i", "-", "-c:v", "libx264", "-preset", preset,
                   "-crf", str(crf), "-pix_fmt", "yuv420p", "-threads", "2", str(self.path)]
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
            self.codec = "h264"
        else:
            self.cv = cv2.VideoWriter(str(self.path), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
            if not self.cv.isOpened():
                raise RuntimeError(f"cannot write video {self.path}: no H.264 (imageio-ffmpeg) and no OpenCV writer")
            self.codec = "mpeg4"

    def write(self, img: np.ndarray) -> None:
        if self.proc is not None:
            self.proc.stdin.write(np.ascontiguousarray(img).tobytes())
        else:
            self.cv.write(img)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()
            err = self.proc.stderr.read().decode(errors="replace")
            if self.proc.wait() != 0:
                raise RuntimeError(f"ffmpeg failed writing {self.path}: {err.strip()[-500:]}")
            self.proc = None
        if self.cv is not None:
            self.cv.release()
            self.cv = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
