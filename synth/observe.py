"""A simulated ball detector: observations of a timeline without rendering its pixels.

Tracking is measured on many more shots than the renderer and the real detector can produce in a
test or a benchmark run, so this module turns the ground truth into what `vision.detect` reports,
with the detector's measured kinds of error (issue 4 benchmark, 1080p): centre noise that grows with
motion blur, the blur's centroid lagging the frame time by half an exposure, balls hidden under the
cue, the bridge hand or a placing hand, random misses, "unknown" and wrong labels, and spurious
detections on the bed. `DetectorModel` holds the rates; the real detector can always be swapped in
(`cueref bench track --source vision`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from cueref.observation import Observation
from synth.clip import Timeline, _Orient, _scene_at

BALLS = ["cue"] + [str(n) for n in range(1, 16)]


@dataclass(frozen=True)
class DetectorModel:
    sigma_mm: float = 0.7  # centre noise per axis for a ball at rest
    sigma_per_speed: float = 0.0012  # extra noise per mm/s of speed (blur streaks)
    p_miss: float = 0.01  # a visible ball not reported
    p_unknown: float = 0.02  # reported, classifier unsure
    p_wrong: float = 0.005  # reported with another ball's label
    p_false: float = 0.01  # per frame: a spurious detection somewhere on the bed

    @classmethod
    def perfect(cls) -> "DetectorModel":
        return cls(sigma_mm=0.0, sigma_per_speed=0.0, p_miss=0.0, p_unknown=0.0, p_wrong=0.0, p_false=0.0)


def _hidden(xy, cues, carried: bool, rng) -> bool:
    """The ball's centre is under the stick, the bridge hand or a hand placing it."""
    if carried:
        return rng.random() < 0.5
    p = np.asarray(xy, float)
    for c in cues:
        d = math.radians(c.direction_deg)
        u = np.array([math.cos(d), math.sin(d)])
        tip = np.asarray(c.tip, float)
        s = float(np.dot(tip - p, u))  # distance behind the tip along the stick
        if 0.0 <= s <= 1450.0:
            q0 = p - tip
            off = abs(float(u[0] * q0[1] - u[1] * q0[0]))
            if off < 6.5 + (15.0 - 6.5) * s / 1450.0:
                return True
        hand = tip - 220.0 * u
        q = p - hand
        along, across = float(np.dot(q, u)), float(u[0] * q[1] - u[1] * q[0])
        if (along / 70.0) ** 2 + (across / 45.0) ** 2 <= 1.0:
            return True
    return False


def observe(tl: Timeline, fps: int = 60, seed: int = 0, model: DetectorModel = DetectorModel(),
            ) -> Iterator[tuple[int, float, list[Observation], dict[str, tuple[float, float]]]]:
    """(frame, media time, observations, true centres of the balls on the bed) for every frame."""
    rng = np.random.default_rng(seed + 17)
    orient = _Orient(BALLS + ["left", "right"], np.random.default_rng(seed))
    last: dict = {b: None for b in BALLS + ["left", "right"]}
    table = tl.table
    n = int(math.ceil(tl.duration * fps))
    prev: dict[str, np.ndarray] = {}
    for k in range(n):
        T = k / fps
        balls, cues = _scene_at(tl, T, fps, orient, last)
        seg = max((s for s in tl.segments if s.start <= T), key=lambda s: s.start, default=tl.segments[0])
        obs: list[Observation] = []
        now: dict[str, np.ndarray] = {}
        for b in balls:
            xy = np.asarray(b.xy, float)
            now[b.name] = xy
            # What a camera integrates over the exposure: the blur streak's centroid.
            seen = np.mean(np.asarray(b.blur, float), axis=0) if b.blur else xy
            carried = b.h > table.R + 1.0 and T < seg.t0 and b.name in seg.carry_from
            if not table.on_bed(seen, slack=table.R + 150.0):
                continue
            if _hidden(seen, cues, carried, rng) or rng.random() < model.p_miss:
                continue
            speed = float(np.hypot(*(xy - prev[b.name]))) * fps if b.name in prev else 0.0
            sigma = model.sigma_mm + model.sigma_per_speed * speed
            mm = seen + rng.normal(0.0, sigma, 2) if sigma > 0 else seen
            truth = "cue" if b.name in ("left", "right") else b.name
            label, probs = _label(truth, rng, model)
            obs.append(Observation(k, T, label, probs, (float("nan"), float("nan")),
                                   (float(mm[0]), float(mm[1])), max(sigma, 0.3), extra={"truth": b.name}))
        if rng.random() < model.p_false:
            p = (rng.uniform(0, table.L), rng.uniform(0, table.W))
            other = str(rng.choice(BALLS))
            obs.append(Observation(k, T, "unknown", {other: 0.3}, (float("nan"), float("nan")), p, 1.0,
                                   extra={"truth": None}))
        prev = now
        rng.shuffle(obs)
        truth = {b.name: (float(b.xy[0]), float(b.xy[1])) for b in balls
                 if table.on_bed(b.xy, slack=5.0) and b.h <= table.R + 1.0}
        yield k, T, obs, truth


def _label(truth: str, rng, model: DetectorModel) -> tuple[str, dict[str, float]]:
    r = rng.random()
    if r < model.p_wrong:
        other = str(rng.choice([b for b in BALLS if b != truth]))
        return other, {other: 0.6, truth: 0.3}
    if r < model.p_wrong + model.p_unknown:
        return "unknown", {truth: 0.45, str(rng.choice(BALLS)): 0.3}
    return truth, {truth: 0.97}
