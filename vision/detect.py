"""Frames → ball observations in table millimetres: locate candidates, classify their crops.

An observation is the seam to tracking: frame index, media time, ball id (or "unknown" when the
classifier is not sure), class probabilities, the centre in pixels and on the plane of ball
centres in table mm, and its uncertainty.
"""
from __future__ import annotations

import numpy as np

from cueref.observation import Observation
from vision.calibrate import Calibration
from vision.crops import cut
from vision.identify import Identifier
from vision.locate import Locator

SURE = 0.5  # below this probability a ball is reported as "unknown"
PIXEL_SIGMA = 0.7  # measured centre error (px, 1-sigma) of the locator on rendered 1080p frames


class BallDetector:
    def __init__(self, cal: Calibration, identifier: Identifier | None = None, game: str | None = None):
        """`game` restricts the names to that game's balls (nine-ball has no 10)."""
        self.cal = cal
        self.locator = Locator(cal)
        self.ident = identifier or Identifier()
        allowed = None
        if game is not None:
            from cueref.records import OBJECT_BALLS  # noqa: PLC0415

            allowed = {"cue", "none"} | {str(n) for n in range(1, OBJECT_BALLS[game] + 1)}
        self.mask = np.array([1.0 if allowed is None or c in allowed else 0.0 for c in self.ident.classes],
                             np.float32)
        # Millimetres per pixel near the table's centre, for the uncertainty.
        c = cal.to_pixel([[cal.table.L / 2, cal.table.W / 2], [cal.table.L / 2 + 100.0, cal.table.W / 2]])
        self.mm_per_px = 100.0 / float(np.hypot(*(c[1] - c[0])))

    def observe(self, img: np.ndarray, frame: int = 0, t: float = 0.0) -> list[Observation]:
        # Classify at the coarse centres (cheap, batched) to drop the sure non-balls, refine the
        # rest to a fraction of a pixel, and classify the refined crops.
        cands = self.locator.candidates(img, refine=False)
        coarse = [(c, cut(img, c.px[0], c.px[1], c.radius_px)) for c in cands]
        coarse = [(c, crop) for c, crop in coarse if crop is not None]
        names = self.ident.classes
        none = names.index("none") if "none" in names else None
        p0 = self.ident.probabilities([crop for _, crop in coarse])
        cache: dict = {}
        kept, crops = [], []
        for (c, _), p in zip(coarse, p0):
            if none is not None and p[none] >= 0.9:
                continue
            px = self.locator.refine_point(img, c.px, cache)
            crop = cut(img, px[0], px[1], c.radius_px)
            if crop is not None:
                kept.append(px)
                crops.append(crop)
        probs = self.ident.probabilities(crops) * self.mask
        probs /= np.maximum(probs.sum(axis=1, keepdims=True), 1e-9)
        out: list[Observation] = []
        best: dict[str, int] = {}
        for px, p in zip(kept, probs):
            k = int(np.argmax(p))
            if names[k] == "none":
                continue
            label = names[k] if p[k] >= SURE else "unknown"
            mm = self.cal.to_table([px])[0]
            obs = Observation(frame, t, label, {n: float(v) for n, v in zip(names, p) if n != "none"},
                              px, (float(mm[0]), float(mm[1])), PIXEL_SIGMA * self.mm_per_px)
            # One ball of each number: a second claimant keeps its probabilities but is "unknown".
            if label != "unknown" and label in best:
                j = best[label]
                if out[j].probs[label] < obs.probs[label]:
                    out[j].ball, best[label] = "unknown", len(out)
                else:
                    obs.ball = "unknown"
            elif label != "unknown":
                best[label] = len(out)
            out.append(obs)
        return out
