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
    """Frames → observations. Successive frames of one camera share work: only where the picture
    changed since the observations there were made (`CHANGE` on `Locator.grid`, grown by a ball's
    radius) are balls searched for again; the observations elsewhere are reported again as they
    were. Everything is compared with the picture the observations came from, not the previous
    frame, so a ball creeping a fraction of a pixel a frame is re-found once it has moved enough
    to change a pixel. `temporal=False` (or `reset()` before a frame) treats each frame alone."""

    # Grey levels (0..255) on the change grid, one full-resolution pixel each: above its noise
    # (the benchmark's 1080p60 H.264 at rest: 99.9 % of pixels within 11; one in ~10^5 above 16),
    # below what a ball's rim moving half a pixel changes.
    CHANGE = 24
    REFRESH = 300  # frames: a whole search at least this often (the cloth's colour, slow light drift)

    def __init__(self, cal: Calibration, identifier: Identifier | None = None, game: str | None = None,
                 temporal: bool = True):
        """`game` restricts the names to that game's balls (nine-ball has no 10)."""
        import cv2  # noqa: PLC0415

        from vision.crops import HALF, SIZE  # noqa: PLC0415

        self.cal = cal
        self.locator = Locator(cal)
        self.ident = identifier or Identifier()
        self.temporal = temporal
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
        L, W = cal.table.L, cal.table.W
        pockets = np.array([[0, 0], [L / 2, 0], [L, 0], [0, W], [L / 2, W], [L, W]], float)
        self.pockets_px = cal.to_pixel(pockets)
        self.pocket_zone_px = 3.0 * self.locator.r_full
        yy, xx = np.mgrid[0:SIZE, 0:SIZE] - (SIZE - 1) / 2
        self._disc = np.hypot(xx, yy) <= 0.8 / HALF * SIZE / 2
        rg = int(np.ceil(1.3 * self.locator.r)) + 1
        # A square, not a disc: OpenCV dilates by a rectangle in two cheap 1-D passes (a tenth of
        # the time), and a slightly larger region costs little.
        self._grow = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * rg + 1, 2 * rg + 1))
        self.reset()

    def reset(self) -> None:
        """Forget the previous frames: the next one is searched whole."""
        self._ref: np.ndarray | None = None  # the locating image the entries were found in
        self._entries: list[tuple[tuple[float, float], tuple[float, float], np.ndarray]] = []  # px, mm, probs
        self._since = 0  # frames since the last whole search

    def _lit(self, crop: np.ndarray) -> bool:
        import cv2  # noqa: PLC0415

        L = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)[..., 0][self._disc]
        return np.count_nonzero(L > self.locator.cloth_L + 40.0) > 0.02 * L.size  # its 98th percentile

    def changed(self, grid: np.ndarray) -> np.ndarray | None:
        """Where the change grid (`Locator.grid` of a frame) differs from the one the current
        observations came from, grown by a ball's radius (a uint8 mask); None when a whole search
        is due (the first frame, most of the table changed, `REFRESH`, `temporal=False`)."""
        import cv2  # noqa: PLC0415

        if not (self.temporal and self._ref is not None and self._ref.shape == grid.shape and self._since < self.REFRESH):
            return None
        d0, d1, d2 = cv2.split(cv2.absdiff(grid, self._ref))
        _, changed = cv2.threshold(cv2.max(cv2.max(d0, d1), d2), self.CHANGE, 1, cv2.THRESH_BINARY)
        if cv2.countNonZero(changed) == 0:
            return changed
        region = cv2.dilate(changed, self._grow)
        return None if cv2.countNonZero(region) > 0.4 * region.size else region  # most of the table: whole

    def observe(self, img: np.ndarray, frame: int = 0, t: float = 0.0) -> list[Observation]:
        import cv2  # noqa: PLC0415

        loc = self.locator
        grid = loc.grid(img)
        self._since += 1
        region = self.changed(grid)
        if region is None:
            self._entries = self._find(img, loc._small(img), None)
            self._ref = grid
            self._since = 0
        elif cv2.countNonZero(region):
            entries = self._find(img, None, region)
            sx, sy = np.rint(loc._to_small(np.array([e[0] for e in self._entries]).reshape(-1, 2))).astype(int).T
            h, w = region.shape
            inside = region[np.clip(sy, 0, h - 1), np.clip(sx, 0, w - 1)]
            old = [e for e, gone in zip(self._entries, inside) if not gone]
            if old and entries:  # a ball astride the region's edge: keep the one seen before
                op = np.array([e[0] for e in old])
                entries = [e for e in entries if np.min(np.hypot(*(op - e[0]).T)) > 0.5 * loc.r_full]
            self._entries = old + entries
            cv2.copyTo(grid, region, self._ref)  # in place: no one else holds the reference
        return self._report(frame, t)

    def _find(self, img: np.ndarray, small: np.ndarray | None, region: np.ndarray | None):
        """Locate, refine (vectorised) and classify (one batch) the balls whose centres lie in
        `region` (None: anywhere). `small`: the whole locating image, if made."""
        loc = self.locator
        cands = loc.candidates(img, refine=False, small=small, region=region)
        if not cands:
            return []
        # Classify at the mean-shift centres (about a pixel); fit the rims of the balls only.
        clustered = np.array([c.clustered for c in cands])
        pts = loc.shift_points(img, np.array([c.px for c in cands]), clustered)
        near = np.min(np.hypot(*(pts[:, None, :] - self.pockets_px[None]).transpose(2, 0, 1)), axis=1) < self.pocket_zone_px
        # At a pocket the hole is "not cloth" too and pulls the mean-shift off the ball: fit the
        # rim before looking.
        early = near & ~clustered
        if early.any():
            pts[early] = loc.rim_fit(img, pts[early])
        idx, crops = [], []
        for i, (p, at_pocket) in enumerate(zip(pts, near)):
            crop = cut(img, p[0], p[1], loc.r_full)
            if crop is None or (at_pocket and not self._lit(crop)):
                continue
            idx.append(i)
            crops.append(crop)
        if not idx:
            return []
        probs = self.ident.probabilities(crops) * self.mask
        probs /= np.maximum(probs.sum(axis=1, keepdims=True), 1e-9)
        names = self.ident.classes
        ball = [j for j, k in enumerate(probs.argmax(axis=1)) if names[k] != "none"]
        if not ball:
            return []
        sel = np.array([idx[j] for j in ball])
        fit = sel[~clustered[sel] & ~early[sel]]
        if len(fit):
            pts[fit] = loc.rim_fit(img, pts[fit])
        kept = [(float(pts[i, 0]), float(pts[i, 1])) for i in sel]
        mms = self.cal.to_table(kept)
        return [(kept[k], (float(mm[0]), float(mm[1])), probs[j]) for k, (j, mm) in enumerate(zip(ball, mms))]

    def _report(self, frame: int, t: float) -> list[Observation]:
        names = self.ident.classes
        ents = self._entries
        labels = self._assign(np.array([e[2] for e in ents]).reshape(len(ents), len(names)), names)
        sigma = PIXEL_SIGMA * self.mm_per_px
        return [Observation(frame, t, lab, {n: float(v) for n, v in zip(names, e[2]) if n != "none"}, e[0], e[1], sigma)
                for e, lab in zip(ents, labels) if lab is not None]

    @staticmethod
    def _assign(probs: np.ndarray, names: list[str]) -> list[str | None]:
        """One ball of each number. The surest claim is settled first; each later candidate's
        probabilities are then renormalised over the numbers still free (a stripe seen edge-on
        that looks 45 % like the 9 and 51 % like the 1, beside a sure 1, is the 9). A candidate
        whose belief lies almost all (95 %) on numbers already taken is not reported: a second
        look at a ball, or a look-alike (a pocket's mouth, the cue's ferrule) — unless what it
        looks like is the cue ball: a lag has two. Below SURE a candidate is "unknown", and keeps
        its probabilities."""
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
            if left < 0.05 * mass[i]:
                # Two white balls are a lag (or a ball in hand beside the cue ball): keep the
                # second as "unknown". Of a number there is only one.
                out[i] = "unknown" if names[cols[int(np.argmax(P[i]))]] == "cue" else None
                continue
            j = int(np.argmax(qi))
            if qi[j] / left >= SURE:
                out[i] = names[cols[j]]
                free[j] = False
        return out
