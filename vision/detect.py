"""Frames → ball observations in table millimetres: locate candidates, classify their crops.

An observation is the seam to tracking: frame index, media time, ball id (or "unknown" when the
classifier is not sure), class probabilities, the centre in pixels and on the plane of ball
centres in table mm, and its uncertainty.
"""
from __future__ import annotations

import cv2
import numpy as np

from cueref.observation import Observation
from vision.calibrate import Calibration
from vision.crops import HALF, SIZE, cut
from vision.identify import Identifier
from vision.locate import Candidate, Locator

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
        # The pockets' mouths: a dark hole the locator takes for a ball (and the classifier, too,
        # for the 8). A candidate there must show a lit part (a highlight, the number's disc).
        L, W, R = cal.table.L, cal.table.W, cal.table.R
        self.pockets = np.array([[0, 0], [L / 2, 0], [L, 0], [0, W], [L / 2, W], [L, W]], float)
        self.pocket_zone = 3.0 * R
        yy, xx = np.mgrid[0:SIZE, 0:SIZE] - (SIZE - 1) / 2
        self._disc = np.hypot(xx, yy) <= 0.8 / HALF * SIZE / 2

    def _lit(self, crop: np.ndarray) -> bool:
        L = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)[..., 0][self._disc]
        return float(np.percentile(L, 98)) > self.locator.cloth_L + 40.0

    def observe(self, img: np.ndarray, frame: int = 0, t: float = 0.0) -> list[Observation]:
        # Locate and refine every candidate (vectorised), classify their crops in one batch.
        loc = self.locator
        cands = loc.candidates(img, refine=False)
        names = self.ident.classes
        none = names.index("none") if "none" in names else None
        if cands:
            pts = loc.refine_points(img, np.array([c.px for c in cands]))
            cands = [Candidate((float(p[0]), float(p[1])), c.score, c.radius_px) for p, c in zip(pts, cands)]
        kept, crops = [], []
        near = np.zeros(len(cands), bool)
        if cands:
            mm = self.cal.to_table([c.px for c in cands])
            near = np.min(np.hypot(*(mm[:, None, :] - self.pockets[None]).transpose(2, 0, 1)), axis=1) < self.pocket_zone
        for c, at_pocket in zip(cands, near):
            crop = cut(img, c.px[0], c.px[1], c.radius_px)
            if crop is not None and at_pocket and not self._lit(crop):
                continue
            if crop is not None:
                kept.append(c.px)
                crops.append(crop)
        probs = self.ident.probabilities(crops) * self.mask
        probs /= np.maximum(probs.sum(axis=1, keepdims=True), 1e-9)
        ks = probs.argmax(axis=1) if len(probs) else np.zeros(0, int)
        balls = [i for i, k in enumerate(ks) if names[k] != "none"]
        labels = self._assign(probs[balls], names)
        keep = [(i, lab) for i, lab in zip(balls, labels) if lab is not None]
        mms = self.cal.to_table([kept[i] for i, _ in keep]) if keep else []
        sigma = PIXEL_SIGMA * self.mm_per_px
        return [Observation(frame, t, lab, {n: float(v) for n, v in zip(names, probs[i]) if n != "none"},
                            kept[i], (float(mm[0]), float(mm[1])), sigma) for (i, lab), mm in zip(keep, mms)]

    @staticmethod
    def _assign(probs: np.ndarray, names: list[str]) -> list[str | None]:
        """One ball of each number. The surest claim is settled first; each later candidate's
        probabilities are then renormalised over the numbers still free (a stripe seen edge-on
        that looks 45 % like the 9 and 51 % like the 1, beside a sure 1, is the 9). A candidate
        whose belief lies almost all (90 %) on numbers already taken is not reported: a second
        look at a ball, or a look-alike (a pocket's mouth, the cue's ferrule). Below SURE a
        candidate is "unknown", and keeps its probabilities."""
        n = len(probs)
        out: list[str | None] = ["unknown"] * n
        if n == 0:
            return out
        cols = [j for j, c in enumerate(names) if c != "none"]
        P = probs[:, cols].astype(float)
        mass = np.maximum(P.sum(axis=1), 1e-9)
        free = np.ones(len(cols), bool)
        todo = list(range(n))
        while todo:
            q = P[todo] * free
            i_rel = int(np.argmax(q.max(axis=1)))
            i = todo.pop(i_rel)
            qi = q[i_rel]
            left = qi.sum()
            if left < 0.1 * mass[i]:
                out[i] = None
                continue
            j = int(np.argmax(qi))
            if qi[j] / left >= SURE:
                out[i] = names[cols[j]]
                free[j] = False
        return out
