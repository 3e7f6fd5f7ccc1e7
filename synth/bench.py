"""Benchmark of the ground-truth generator: physics per shot, and frames per second rendered
(image, occluder mask and per-ball truth) and encoded at 720p, 1080p and 4K, all measured in one
run (medians of repeats)."""
from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from synth.clip import RESOLUTIONS, Scene, play
from synth.video import VideoWriter


def run(resolutions=("720p", "1080p", "4k"), frames: int = 120, repeats: int = 3, seed: int = 1) -> dict:
    rows = []
    t = time.perf_counter()
    tl = play("nine-ball", 1, seed)  # warms pooltool's compiled code
    warm = time.perf_counter() - t
    shot_times = []
    for i in range(repeats):
        t = time.perf_counter()
        tl = play("nine-ball", 4, seed + i)
        shot_times.append((time.perf_counter() - t) / 4)
    fps_media = 60
    for res in resolutions:
        w, h = RESOLUTIONS[res]
        # Frames from the busiest part of the clip: the break and the shot after it.
        seg = tl.segments[0]
        times = [seg.t0 - 0.5 + k / fps_media for k in range(frames)]
        render_fps, encode_fps = [], []
        for _ in range(repeats):
            scene = Scene(tl, w, h, seed, fps_media)
            t = time.perf_counter()
            imgs = [scene.frame(T)[0] for T in times]
            render_fps.append(frames / (time.perf_counter() - t))
            with tempfile.TemporaryDirectory() as d:
                t = time.perf_counter()
                with VideoWriter(Path(d) / "b.mp4", fps_media, (w, h)) as vw:
                    for img in imgs:
                        vw.write(img)
                encode_fps.append(frames / (time.perf_counter() - t))
        rows.append({"resolution": res, "render_fps": round(statistics.median(render_fps), 1),
                     "encode_fps": round(statistics.median(encode_fps), 1),
                     "render_and_encode_fps": round(1 / (1 / statistics.median(render_fps)
                                                         + 1 / statistics.median(encode_fps)), 1)})
    return {"benchmark": "synth", "frames_per_measure": frames, "repeats": repeats,
            "physics_first_call_s": round(warm, 2), "physics_s_per_shot_median": round(statistics.median(shot_times), 3),
            "rows": rows}


def table(result: dict) -> str:
    lines = [f"physics: {result['physics_s_per_shot_median']:.3f} s per shot (median of {result['repeats']}; "
             f"first call incl. compile/cache load {result['physics_first_call_s']:.1f} s)",
             f"{'resolution':>10} {'render fps':>11} {'encode fps':>11} {'both fps':>9}"]
    for r in result["rows"]:
        lines.append(f"{r['resolution']:>10} {r['render_fps']:>11.1f} {r['encode_fps']:>11.1f} {r['render_and_encode_fps']:>9.1f}")
    return "\n".join(lines)
