"""Where the balls are: candidate ball centres on the bed (a first cut; see "Status" below).

A ball differs from the cloth in colour (chroma) or is brighter than it (white parts, highlights);
a shadow is only darker, so darkness counts little. The per-pixel difference from the cloth is
averaged over a disc of a ball's apparent radius, whose local maxima are the candidates — frozen
balls in a rack included, since their centres are a diameter apart. Each candidate's centre is then
refined at full resolution: a few mean-shift steps of the difference inside the ball's disc, then a
fit of the ball's rim with its known radius. The
crop classifier (to come, vision issue) names each candidate or rejects it (a hand, the cue, chalk).

Status: with the classifier (detect.py), `cueref bench vision` measures at 1080p recall 95.2 %,
precision 96.1 %, centre error median 1.4 mm and p95 6.7 mm, 22 frames per second — short of the
vision floors (99.5 %, 2 mm / 5 mm, 120 fps). The misses are balls inside tight racks (their
disc peaks merge); the time goes to the colour difference at half resolution and the Python
work per candidate. Next: separate rack balls by their rims, vectorise the refinement.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibrate import Calibration


@dataclass
class Candidate:
    px: tuple[float, float]  # full-resolution pixel centre
    score: float  # mean difference from the cloth inside the disc
    radius_px: float


class Locator:
    def __init__(self, cal: Calibration, scale: float = 0.5, min_score: float = 9.0):
        self.cal, self.scale, self.min_score = cal, scale, min_score
        self.refine = True
        cam, t = cal.camera, cal.table
        self.r_full = float(cam.fx * t.R / cam.depth(np.array([[t.L / 2, t.W / 2, t.R]]))[0])
        self.r = self.r_full * scale
        w, h = int(round(cam.width * scale)), int(round(cam.height * scale))
        self.size = (w, h)
        # Where a ball's centre may be: the bed, out to a radius past the nose line (the jaws).
        u, v = np.meshgrid(np.arange(w) / scale, np.arange(h) / scale)
        tab = cal.to_table(np.stack([u.ravel(), v.ravel()], 1)).reshape(h, w, 2)
        self.bed = ((tab[..., 0] > -0.3 * t.R) & (tab[..., 0] < t.L + 0.3 * t.R) &
                    (tab[..., 1] > -0.3 * t.R) & (tab[..., 1] < t.W + 0.3 * t.R))
        rr = int(np.ceil(self.r))
        ys, xs = np.mgrid[-rr:rr + 1, -rr:rr + 1]
        disc = ((xs * xs + ys * ys) <= (0.85 * self.r) ** 2).astype(np.float32)
        self.kernel = disc / disc.sum()
        self.inner = ((tab[..., 0] > 2 * t.R) & (tab[..., 0] < t.L - 2 * t.R) &
                      (tab[..., 1] > 2 * t.R) & (tab[..., 1] < t.W - 2 * t.R)).astype(np.uint8)
        self.edge_ok = ((tab[..., 0] > 0.8 * t.R) & (tab[..., 0] < t.L - 0.8 * t.R) &
                        (tab[..., 1] > 0.8 * t.R) & (tab[..., 1] < t.W - 0.8 * t.R)).astype(np.float32)

    def difference(self, bgr: np.ndarray) -> np.ndarray:
        """Per-pixel difference from the cloth (0..~200), at the image's own resolution."""
        lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
        inner = self.inner if bgr.shape[:2] == self.inner.shape else cv2.resize(
            self.inner, (bgr.shape[1], bgr.shape[0]), interpolation=cv2.INTER_NEAREST)
        sel = lab[inner > 0]
        ref = np.median(sel[:: max(1, len(sel) // 20000)], axis=0)
        # The cloth's brightness varies with the lamp: compare with a smooth local level.
        big = max(3, int(bgr.shape[1] / 24) | 1)
        level = cv2.blur(lab[..., 0], (big, big))
        dl = lab[..., 0] - level
        chroma = np.hypot(lab[..., 1] - ref[1], lab[..., 2] - ref[2])
        score = 2.0 * chroma + np.maximum(dl, 0) + np.maximum(-dl - 6.0, 0) * 0.6
        if bgr.shape[:2] == self.edge_ok.shape:
            # Sharp edges: a ball's rim, highlight, number discs and stripe; a shadow is soft.
            # (Not near the cushions, whose nose is a sharp edge too.)
            gl = cv2.GaussianBlur(lab[..., 0], (0, 0), 0.8)
            grad = cv2.magnitude(cv2.Sobel(gl, cv2.CV_32F, 1, 0), cv2.Sobel(gl, cv2.CV_32F, 0, 1))
            score += 0.3 * grad * self.edge_ok
        return score

    def candidates(self, bgr: np.ndarray, refine: bool | None = None) -> list[Candidate]:
        """Candidate centres, strongest first; refined to full resolution unless refine=False
        (then `refine_point` refines the ones worth it, e.g. after the classifier kept them)."""
        small = cv2.resize(bgr, self.size, interpolation=cv2.INTER_AREA)
        # Saturate: any clearly-not-cloth pixel counts the same, so a dull ball frozen to a bright
        # one still peaks at its own centre.
        diff = np.minimum(self.difference(small), 30.0)
        # The mean over a disc of 0.85 radius: a square box (faster) lets frozen rack balls'
        # peaks merge and loses 2-3 points of recall in racks.
        mean = cv2.filter2D(diff, -1, self.kernel, borderType=cv2.BORDER_REPLICATE)
        k = max(3, int(1.4 * self.r) | 1)
        bed_vals = mean[self.inner > 0][::7]
        med = float(np.median(bed_vals))
        mad = float(np.median(np.abs(bed_vals - med))) * 1.4826
        thresh = max(self.min_score, med + 6.0 * mad)
        peaks = (mean >= cv2.dilate(mean, np.ones((k, k), np.uint8))) & (mean > thresh) & self.bed
        ys, xs = np.nonzero(peaks)
        order = np.argsort(-mean[ys, xs])
        out: list[Candidate] = []
        do_refine = self.refine if refine is None else refine
        pts = np.stack([xs[order], ys[order]], 1) / self.scale
        scores = mean[ys[order], xs[order]]
        alive = np.ones(len(pts), bool)
        lim = (1.3 * self.r_full) ** 2
        for i in range(len(pts)):  # greedy suppression, strongest first
            if not alive[i]:
                continue
            d2 = ((pts[i + 1:] - pts[i]) ** 2).sum(axis=1)
            alive[i + 1:] &= d2 >= lim
            out.append(Candidate((float(pts[i, 0]), float(pts[i, 1])), float(scores[i]), self.r_full))
        if do_refine:
            out = [Candidate(self.refine_point(bgr, c.px), c.score, c.radius_px) for c in out]
        return out

    def refine_point(self, bgr: np.ndarray, px: tuple[float, float], cache: dict | None = None) -> tuple[float, float]:
        """A candidate's centre to a fraction of a pixel: mean-shift, then the rim fit."""
        fd = _LazyDiff(self, bgr) if cache is None else cache.setdefault("fd", _LazyDiff(self, bgr))
        x, y = self._refine(fd, px[0], px[1])
        return self._rim(bgr, x, y)

    def _refine(self, fd: "_LazyDiff", x: float, y: float, iters: int = 3) -> tuple[float, float]:
        """Mean-shift of the difference inside the ball's disc, at full resolution."""
        r = self.r_full
        for _ in range(iters):
            patch, x0, y0 = fd.patch(x, y, int(np.ceil(1.3 * r)))
            if patch is None:
                break
            ys, xs = np.mgrid[0:patch.shape[0], 0:patch.shape[1]]
            xs = xs + x0
            ys = ys + y0
            inside = (xs - x) ** 2 + (ys - y) ** 2 <= (1.05 * r) ** 2
            w = np.where(inside, np.minimum(patch, 80.0), 0.0)
            # Inside the ball the difference is high everywhere; weight it flat so the shading
            # and the highlight do not pull the centre: a binary disc of "not cloth".
            w = (w > 20.0).astype(np.float32) * inside
            s = w.sum()
            if s < 10:
                break
            nx, ny = float((w * xs).sum() / s), float((w * ys).sum() / s)
            if abs(nx - x) < 0.02 and abs(ny - y) < 0.02:
                x, y = nx, ny
                break
            x, y = nx, ny
        return x, y


    def _rim(self, bgr: np.ndarray, x: float, y: float, n: int = 48) -> tuple[float, float]:
        """Fit the ball's rim: along rays from the centre estimate, the sharpest change of colour
        near the known radius; each ray's edge fixes the centre along that ray, and the centre is
        their least-squares solution with the rays that disagree (a neighbour's rim, a shadow)
        dropped. Robust inside a tight rack, where the blob of balls has no single centre."""
        r = self.r_full
        ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
        dirs = np.stack([np.cos(ang), np.sin(ang)], 1)
        ss = np.arange(0.55 * r, 1.45 * r, 0.25)
        xs = (x + dirs[:, 0:1] * ss[None, :]).astype(np.float32)
        ys = (y + dirs[:, 1:2] * ss[None, :]).astype(np.float32)
        prof = cv2.remap(bgr, xs, ys, cv2.INTER_LINEAR).astype(np.float32)  # (n, len(ss), 3)
        g = np.linalg.norm(np.diff(prof, axis=1), axis=2)  # colour change per step
        g = cv2.GaussianBlur(g, (0, 0), sigmaX=1.0, sigmaY=0.01)
        k = np.argmax(g, axis=1)
        s_edge = (ss[k] + ss[np.minimum(k + 1, len(ss) - 1)]) / 2
        strength = g[np.arange(n), k]
        keep = strength > 0.3 * np.median(strength)
        c = np.array([x, y])
        for _ in range(3):
            if keep.sum() < 8:
                return x, y
            A = dirs[keep]
            b = (dirs[keep] * (np.array([x, y]) + dirs[keep] * s_edge[keep, None])).sum(axis=1) - r
            c, *_ = np.linalg.lstsq(A, b, rcond=None)
            res = (dirs * (np.array([x, y]) + dirs * s_edge[:, None] - c)).sum(axis=1) - r
            new_keep = keep & (np.abs(res) < max(1.0, 2.5 * np.median(np.abs(res[keep]))))
            if (new_keep == keep).all():
                break
            keep = new_keep
        if np.hypot(c[0] - x, c[1] - y) > 0.5 * r:
            return x, y  # not a ball's rim: keep the blob estimate
        return float(c[0]), float(c[1])


class _LazyDiff:
    """The full-resolution difference from the cloth, computed only around the candidates."""

    def __init__(self, loc: Locator, bgr: np.ndarray):
        self.loc, self.bgr = loc, bgr
        self.ref = None

    def patch(self, x: float, y: float, half: int):
        h, w = self.bgr.shape[:2]
        x0, y0 = int(round(x)) - half, int(round(y)) - half
        x1, y1 = x0 + 2 * half + 1, y0 + 2 * half + 1
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            return None, x0, y0
        lab = cv2.cvtColor(self.bgr[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
        if self.ref is None:
            small = cv2.resize(self.bgr, self.loc.size, interpolation=cv2.INTER_AREA)
            sl = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)[self.loc.inner > 0]
            self.ref = np.median(sl[:: max(1, len(sl) // 20000)], axis=0)
        ref = self.ref
        chroma = np.hypot(lab[..., 1] - ref[1], lab[..., 2] - ref[2])
        dl = lab[..., 0] - ref[0]
        return 2.0 * chroma + np.maximum(dl, 0) + np.maximum(-dl, 0) * 0.25, x0, y0
