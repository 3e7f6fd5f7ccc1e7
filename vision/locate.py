"""Where the balls are: candidate ball centres on the bed.

The work is done on the bed's bounding box at a scale where a ball's radius is about 6 pixels
(1/2 at 720p, 1/3 at 1080p). A ball differs from the cloth in colour (chroma) or is brighter than it
(white parts, highlights); a shadow is only darker, so darkness counts little. The per-pixel
difference from the cloth, saturated, is averaged over a disc of 0.85 ball radii (three box
filters): a lone ball's mean is a plateau, one candidate at its centroid. Frozen balls (a rack, a
cluster) merge into one wider plateau; there every sharp edge pixel votes a ball's radius along its
gradient, both ways, and the votes pile up at each ball's centre however tight the cluster. A lone
ball's centre is then refined at full resolution: a mean-shift of "not cloth" inside its disc, then
a fit of its rim with the known radius (all candidates at once); a clustered ball keeps its vote's
sub-pixel peak (its neighbours' rims would lead a rim fit astray). The crop classifier
(identify.py, via detect.py) names each candidate or rejects it (a hand, the cue, chalk).

Measured by `cueref bench vision --clips 6` with the classifier: see models/README.md.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import rimfit, rimvotes
from vision.calibrate import Calibration


@dataclass
class Candidate:
    px: tuple[float, float]  # full-resolution pixel centre
    score: float  # mean difference from the cloth inside the disc
    radius_px: float
    clustered: bool = False  # found among frozen balls (by the rim votes), not as a lone plateau


class Locator:
    def __init__(self, cal: Calibration, scale: float | None = None, min_score: float = 15.0):
        """`scale`: of the locating image; by default a whole fraction that makes a ball's radius
        about 6 pixels there (1/2 at 720p, 1/3 at 1080p)."""
        self.cal, self.min_score = cal, min_score
        self.refine = True
        cam, t = cal.camera, cal.table
        self.r_full = float(cam.fx * t.R / cam.depth(np.array([[t.L / 2, t.W / 2, t.R]]))[0])
        if scale is None:
            scale = 1.0 / max(1, int(round(self.r_full / 6.0)))
        self.scale = scale
        self.r = self.r_full * scale
        step = int(round(1 / scale))
        # Work only on the bed's bounding box (with a margin for the filters and the rim rays),
        # cut on a grid of `step` so the half-resolution pixels line up with the full image's.
        corners = cal.to_pixel([[-0.3 * t.R, -0.3 * t.R], [t.L + 0.3 * t.R, -0.3 * t.R], [t.L / 2, -0.3 * t.R],
                                [t.L + 0.3 * t.R, t.W + 0.3 * t.R], [-0.3 * t.R, t.W + 0.3 * t.R],
                                [t.L / 2, t.W + 0.3 * t.R], [-0.3 * t.R, t.W / 2], [t.L + 0.3 * t.R, t.W / 2]])
        m = 2.0 * self.r_full + 4
        x0 = max(0, int(np.floor((corners[:, 0].min() - m) / step)) * step)
        y0 = max(0, int(np.floor((corners[:, 1].min() - m) / step)) * step)
        x1 = min(cam.width // step * step, int(np.ceil((corners[:, 0].max() + m) / step)) * step)
        y1 = min(cam.height // step * step, int(np.ceil((corners[:, 1].max() + m) / step)) * step)
        self.roi = (x0, y0, x1, y1)
        w, h = (x1 - x0) // step, (y1 - y0) // step
        self.size = (w, h)
        self.grid_size = ((w + 1) // 2, (h + 1) // 2)  # of `grid`
        # Where in the full image a locating pixel's centre lies (see `_small`).
        self._step = step
        self._c0 = step / 2.0 if step % 2 == 1 and step > 1 else (step - 1) / 2.0
        # Where a ball's centre may be: the bed, out to a radius past the nose line (the jaws).
        u, v = np.meshgrid(np.arange(w) * step + self._c0 + x0, np.arange(h) * step + self._c0 + y0)
        tab = cal.to_table(np.stack([u.ravel(), v.ravel()], 1)).reshape(h, w, 2)
        self.bed = ((tab[..., 0] > -0.3 * t.R) & (tab[..., 0] < t.L + 0.3 * t.R) &
                    (tab[..., 1] > -0.3 * t.R) & (tab[..., 1] < t.W + 0.3 * t.R))
        # The disc of 0.85 radius as a plus of two boxes (three box filters, whatever the size):
        # half-sizes rho x c and c x rho with c = 0.54 rho have the disc's area.
        rho = 0.85 * self.r
        a, c = max(1, int(round(rho))), max(1, int(round(0.54 * rho)))
        self._plus = ((2 * a + 1, 2 * c + 1), (2 * c + 1, 2 * a + 1), (2 * c + 1, 2 * c + 1))
        self._plus_area = float(2 * (2 * a + 1) * (2 * c + 1) - (2 * c + 1) ** 2)
        self.inner = ((tab[..., 0] > 2 * t.R) & (tab[..., 0] < t.L - 2 * t.R) &
                      (tab[..., 1] > 2 * t.R) & (tab[..., 1] < t.W - 2 * t.R)).astype(np.uint8)
        self.edge_ok = ((tab[..., 0] > 0.8 * t.R) & (tab[..., 0] < t.L - 0.8 * t.R) &
                        (tab[..., 1] > 0.8 * t.R) & (tab[..., 1] < t.W - 0.8 * t.R)).astype(np.float32)
        # A fixed sample of the inner bed: the cloth's reference colour and the score's noise level.
        iy, ix = np.nonzero(self.inner)
        pick = np.random.default_rng(0).permutation(len(iy))[:3000]
        self.sample = (iy[pick], ix[pick])
        self.big = max(3, int(cam.width * scale / 24) | 1)
        L, W = t.L, t.W
        pockets = cal.to_pixel(np.array([[0, 0], [L / 2, 0], [L, 0], [0, W], [L / 2, W], [L, W]], float))
        self._pockets_small = (pockets - np.array([x0, y0], float) - self._c0) / step
        self._pocket_zone_small = 3.0 * self.r
        self._cloth: tuple[float, float, float] | None = None  # L, a, b of the cloth, last measured
        self._thresh: float | None = None
        self.skipped = 0  # wide plateaus a search of what changed left alone (see `_search`)
        self._last = None
        # The mean-shift's patch offsets (half resolution) and the rim fit's rays (full resolution).
        hs = int(np.ceil(1.3 * self.r))
        oy, ox = np.mgrid[-hs:hs + 1, -hs:hs + 1]
        self._off = (oy.ravel(), ox.ravel())
        ang = np.linspace(0, 2 * np.pi, rimfit.RAYS, endpoint=False)
        self._dirs = np.stack([np.cos(ang), np.sin(ang)], 1)
        self._ss = np.arange(0.55 * self.r_full, 1.45 * self.r_full, 0.25)

    def _small(self, bgr: np.ndarray, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
        """The bed's box at the locating scale, or the part `box` (x0, y0, x1, y1, locating
        pixels) of it: the same pixels as the whole image's there."""
        x0, y0 = self.roi[:2]
        bx0, by0, bx1, by1 = box or (0, 0, self.size[0], self.size[1])
        step = self._step
        if step % 2 == 1 and step > 1:
            # Each pixel the mean of the 2 x 2 full pixels at its block's centre (bilinear
            # sampling half a pixel off the grid): a quarter of the noise for a fifth of the time of
            # INTER_AREA's general path.
            M = np.float32([[step, 0, self._c0 + x0 + bx0 * step], [0, step, self._c0 + y0 + by0 * step]])
            return cv2.warpAffine(bgr, M, (bx1 - bx0, by1 - by0), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
        return cv2.resize(bgr[y0 + by0 * step:y0 + by1 * step, x0 + bx0 * step:x0 + bx1 * step],
                          (bx1 - bx0, by1 - by0), interpolation=cv2.INTER_AREA)

    def grid(self, bgr: np.ndarray) -> np.ndarray:
        """The bed's box sampled one full-resolution pixel per 2 x 2 locating pixels (no
        averaging; every sixth pixel of every sixth row at 1080p): where the picture changed is
        found on this, at a fifth of `_small`'s cost (0.14 against 0.74 ms at 1080p; reading every
        third row was 0.43, a frame's rows costing what memory does). Its noise is the sensor's
        own, about twice the locating image's; a ball's radius spans three of its pixels."""
        x0, y0, x1, y1 = self.roi
        return cv2.resize(bgr[y0 + self._step:y1:2 * self._step, x0:x1], self.grid_size, interpolation=cv2.INTER_NEAREST)

    def search_boxes(self, region: np.ndarray) -> list[tuple[int, int, int, int]]:
        """The parts of the locating image a search of `region` (a uint8 mask) works on: each
        separate part of it (a moving ball, an arm) boxed with a margin (see `margin`), boxes
        that overlap merged. Empty when the region is."""
        # (The outer contours' boxes: a twentieth of the time of connectedComponentsWithStats.)
        contours = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
        m, (W, H) = self.margin(), self.size
        boxes = [[max(0, x - m), max(0, y - m), min(W, x + w + m), min(H, y + h + m)]
                 for x, y, w, h in map(cv2.boundingRect, contours)]
        merged = True
        while merged and len(boxes) > 1:
            merged = False
            for i in range(len(boxes)):
                for j in range(i + 1, len(boxes)):
                    a, b = boxes[i], boxes[j]
                    if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                        boxes[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                        del boxes[j]
                        merged = True
                        break
                if merged:
                    break
        return [tuple(b) for b in boxes]

    def difference(self, small: np.ndarray, box: tuple[int, int, int, int] | None = None,
                   inner: tuple[int, int, int, int] | None = None) -> np.ndarray:
        """Per-pixel difference from the cloth (0..~200) of the bed's box at the locating scale
        (`_small` of a frame), or of its part `box` (x0, y0, x1, y1), `small` being then that
        part's image. The cloth's colour and the noise level are measured on the whole box; a
        part reuses the last ones (there must be some). `inner` (inside `box`): the difference
        of that part only, its brightness level still taken from the whole of `box` (see
        `_inner`); `self._L` is then that part's brightness too."""
        bx0, by0, bx1, by1 = box or (0, 0, self.size[0], self.size[1])
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
        if box is None:
            ref = np.median(lab[self.sample], axis=0)
            self._cloth = (float(ref[0]), float(ref[1]), float(ref[2]))
        elif self._cloth is None:
            raise ValueError("a part of the bed searched before the whole of it: the cloth's colour is unknown")
        self.cloth_L, ref_a, ref_b = self._cloth
        L = lab[..., 0].astype(np.float32)
        # The cloth's brightness varies with the lamp: compare with a smooth local level.
        level = cv2.blur(L, (self.big, self.big))
        ix0, iy0, ix1, iy1 = inner or (bx0, by0, bx1, by1)
        part = np.s_[iy0 - by0:iy1 - by0, ix0 - bx0:ix1 - bx0]
        L, level, lab = L[part], level[part], lab[part]
        self._L = L
        dl = L - level
        a, b = cv2.split(lab[..., 1:].astype(np.float32))
        chroma = cv2.magnitude(a - ref_a, b - ref_b)
        # 2 chroma + brightness above the level + 0.6 x darkness beyond a shadow's 6.
        score = cv2.addWeighted(chroma, 2.0, cv2.max(dl, 0.0), 1.0, 0.0)
        score += 0.6 * cv2.max(-6.0 - dl, 0.0)
        # Sharp edges: a ball's rim, highlight, number discs and stripe; a shadow is soft.
        # (Not near the cushions, whose nose is a sharp edge too.)
        gl = cv2.GaussianBlur(L, (0, 0), 0.8)
        grad = cv2.magnitude(cv2.Sobel(gl, cv2.CV_32F, 1, 0), cv2.Sobel(gl, cv2.CV_32F, 0, 1))
        score += 0.3 * grad * self.edge_ok[iy0:iy1, ix0:ix1]
        return score

    # The edge filters' reach (locating pixels): the Gaussian's 7 taps at sigma 0.8, then Sobel's 3.
    EDGE_REACH = 4

    def _inner(self, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        """The part of a search box (`search_boxes`) whose difference is computed: the box less
        the brightness level's reach (`big` / 2) but the edge filters', on each side that is not
        the locating image's edge. Within the level's reach of a box's edge the difference is the
        blur's border anyway, and nothing reads it there (`margin`); the pixels beyond get the
        values the whole box would give them (to float32 rounding), for about half the work on a
        ball's box (the benchmark clip's 3,374 frames: the same observations to the micropixel)."""
        cut = max(0, self.big // 2 - self.EDGE_REACH)
        x0, y0, x1, y1 = box
        W, H = self.size
        return (x0 + cut if x0 > 0 else x0, y0 + cut if y0 > 0 else y0,
                x1 - cut if x1 < W else x1, y1 - cut if y1 < H else y1)

    def margin(self) -> int:
        """How far (locating pixels) a change reaches into the score, its disc mean and peaks."""
        return self.big // 2 + int(np.ceil(2.2 * self.r)) + 3

    def candidates(self, bgr: np.ndarray, refine: bool | None = None, small: np.ndarray | None = None,
                   region: np.ndarray | None = None, balls: np.ndarray | None = None) -> list[Candidate]:
        """Candidate centres, strongest first; refined to a fraction of a full-resolution pixel
        unless refine=False. `region` (a mask at the locating scale, e.g. where the picture
        changed; bool or uint8) limits the search to the candidates whose centre lies in it: the
        work is done on the boxes of its parts (`search_boxes`), with the cloth colour and
        noise level of the last whole search. `small`: the whole locating image (`_small`), if made
        already (otherwise only the boxes' parts of it are made)."""
        boxes: list = [None]
        if region is not None and self._cloth is not None and self._thresh is not None:
            region = region.view(np.uint8) if region.dtype == bool else region
            boxes = self.search_boxes(region)
            if not boxes:
                self._last = None
                return []
        else:
            region = None
        if boxes == [None]:
            parts = [self._search(bgr, self._small(bgr) if small is None else small, None, None, None)]
            canvas = None
        else:
            # The boxes' scores side by side on one canvas the size of the locating image (the
            # mean-shift reads a ball's surroundings, always inside its box). Only the boxes'
            # parts of the locating image are made, unless it was made whole already.
            canvas = np.empty((self.size[1], self.size[0]), np.float32)
            parts = [self._search(bgr, self._small(bgr, box) if small is None else small[box[1]:box[3], box[0]:box[2]],
                                  box, region, canvas, balls) for box in boxes]
        pts = np.concatenate([q[0] for q in parts])
        scores = np.concatenate([q[1] for q in parts])
        clustered = np.concatenate([q[2] for q in parts])
        area = np.concatenate([q[3] for q in parts])
        if canvas is not None:
            self._last = (bgr, canvas, np.zeros(2))  # refine_points reuses it for the same frame
        order = np.lexsort((-area, -np.round(scores, 3)))
        pts, scores, clustered = pts[order], scores[order], clustered[order]
        keep = _suppress(pts, 1.3 * self.r_full)
        pts, scores, clustered = pts[keep], scores[keep], clustered[keep]
        do_refine = self.refine if refine is None else refine
        if do_refine and len(pts):
            pts = self.refine_points(bgr, pts, clustered)
        return [Candidate((float(p[0]), float(p[1])), float(s), self.r_full, bool(c))
                for p, s, c in zip(pts, scores, clustered)]

    def _search(self, bgr: np.ndarray, small: np.ndarray, box: tuple[int, int, int, int] | None,
                region: np.ndarray | None, canvas: np.ndarray | None, balls: np.ndarray | None = None):
        """The candidates of one box (None: the whole bed) as arrays: full-resolution centres,
        scores, clustered, plateau areas (unsorted, not suppressed). `small`: the box's part of
        the locating image."""
        inner = None if box is None else self._inner(box)
        bx0, by0, bx1, by1 = inner or (0, 0, self.size[0], self.size[1])
        off = np.array([bx0, by0], float)
        score = self.difference(small, box, inner)
        if canvas is None:
            self._last = (bgr, score, off)  # refine_points reuses it for the same frame
        else:
            canvas[by0:by1, bx0:bx1] = score
        # Saturate: any clearly-not-cloth pixel counts the same, so a dull ball frozen to a bright
        # one still peaks at its own centre.
        diff = np.minimum(score, 30.0)
        # The mean over a disc of 0.85 radius (frozen balls' plateaus merge: see below).
        mean = self._disc_mean(diff)
        k = max(3, int(1.4 * self.r) | 1)
        if box is None:
            bed_vals = mean[self.sample]
            med = float(np.median(bed_vals))
            mad = float(np.median(np.abs(bed_vals - med))) * 1.4826
            self._thresh = max(self.min_score, med + 6.0 * mad)
        thresh = self._thresh
        where = self.bed[by0:by1, bx0:bx1]
        if region is not None:
            where = where & (region[by0:by1, bx0:bx1] > 0)
        peaks = (mean >= cv2.dilate(mean, np.ones((k, k), np.uint8))) & (mean > thresh) & where
        # A ball's saturated disc mean is a plateau (every centre whose 0.85 r disc lies inside the
        # ball): one candidate per plateau, at its centroid.
        cent, stats = _components(peaks)
        # A plateau wider than a lone ball's is frozen balls whose discs merged (a rack, a
        # cluster): there, each ball's centre is where its rim's edges point (`_rim_votes`).
        extent = np.maximum(stats[:, 2], stats[:, 3])
        merged = extent > 1.0 * self.r
        # An empty pocket's hole is such a plateau in every frame: skip it when nothing in it is lit
        # (a ball in the jaws shows a highlight or a white part).
        # In a search of what changed, one away from every ball seen before is a hand or an arm
        # (its rim votes would make a dozen candidates for the classifier to turn down): balls
        # arrive at a cluster rolling, seen on the way. (A whole search votes everywhere.)
        for i in np.nonzero(merged)[0]:
            x, y, w_, h_ = stats[i]
            if balls is not None and region is not None:
                lo = self._to_full(np.array([x, y], float) + off) - 2.0 * self.r_full
                hi = self._to_full(np.array([x + w_ - 1, y + h_ - 1], float) + off) + 2.0 * self.r_full
                if not ((balls >= lo) & (balls <= hi)).all(axis=1).any():
                    merged[i] = False
                    stats[i, 2:] = 0
                    self.skipped += 1
                    continue
            if self._pocket_near(cent[i] + off):
                q = int(np.ceil(self.r))
                patch = self._L[max(0, y - q):y + h_ + q, max(0, x - q):x + w_ + q]
                if patch.size and float(patch.max()) <= self.cloth_L + 40.0:
                    merged[i] = False
                    stats[i, 2:] = 0  # and no candidate of its own (below)
        lone = ~merged & (stats[:, 2] > 0)
        merged_idx = np.nonzero(merged)[0]
        pts = self._to_full(cent[lone] + off)
        clustered = np.zeros(len(pts), bool)
        # Ties (saturated means) go to the wider plateau: a lone ball's, not the blip of a single
        # pixel where two frozen balls touch; a rim vote's peak counts as wide.
        area = (stats[lone, 2] * stats[lone, 3]).astype(float)
        extra = [self._rim_votes(bgr, self._to_full(np.array([[s[0], s[1]], [s[0] + s[2] - 1, s[1] + s[3] - 1]], float) + off))
                 for s in stats[merged_idx]]
        if extra:
            pts = np.concatenate([pts] + extra)
            clustered = np.concatenate([clustered, np.ones(len(pts) - len(clustered), bool)])
            area = np.concatenate([area, np.full(len(pts) - len(area), np.inf)])
        ci = np.rint(self._to_small(pts) - off).astype(int)
        inb = (ci[:, 0] >= 0) & (ci[:, 0] < mean.shape[1]) & (ci[:, 1] >= 0) & (ci[:, 1] < mean.shape[0])
        ci = np.clip(ci, 0, [mean.shape[1] - 1, mean.shape[0] - 1])
        scores = mean[ci[:, 1], ci[:, 0]]
        ok = (scores > thresh) & inb & where[ci[:, 1], ci[:, 0]]
        pts, scores, clustered, area = pts[ok], scores[ok], clustered[ok], area[ok]
        return pts, scores, clustered, area

    def refine_points(self, bgr: np.ndarray, pts: np.ndarray, clustered: np.ndarray | None = None) -> np.ndarray:
        """Candidate centres (N, 2) to a fraction of a pixel: mean-shift, then the rim fit. Not
        for `clustered` ones: among frozen balls "not cloth" is everywhere (the mean-shift drifts
        to the cluster's centre) and a neighbour's rim is as sharp as the ball's own (the rim fit
        strays, up to 8 mm); their rim votes are better already (1.6 mm median on the bench's
        racks, against 2.5)."""
        pts = np.asarray(pts, float)
        lone = np.ones(len(pts), bool) if clustered is None else ~np.asarray(clustered, bool)
        pts = self.shift_points(bgr, pts, ~lone)
        if lone.any():
            pts[lone] = self.rim_fit(bgr, pts[lone])
        return pts

    def shift_points(self, bgr: np.ndarray, pts: np.ndarray, clustered: np.ndarray | None = None) -> np.ndarray:
        """The first half of `refine_points`: the mean-shift of the lone candidates (to about a
        pixel), for a classifier to look at before the rim fit (which only balls need)."""
        pts = np.array(pts, float)
        lone = np.ones(len(pts), bool) if clustered is None else ~np.asarray(clustered, bool)
        # The score of `candidates` just before, for this picture; once only (a decoder reusing
        # its arrays hands the same array back with a later frame in it).
        last, self._last = self._last, None
        if lone.any():
            if last is not None and last[0] is bgr:
                score, off = last[1], last[2]
            else:
                score, off = self.difference(self._small(bgr)), np.zeros(2)
            pts[lone] = self._mean_shift(score, pts[lone], off)
        return pts

    def refine_point(self, bgr: np.ndarray, px: tuple[float, float], cache: dict | None = None) -> tuple[float, float]:
        """One candidate's centre to a fraction of a pixel: mean-shift, then the rim fit."""
        p = self.refine_points(bgr, np.array([px], float))[0]
        return float(p[0]), float(p[1])

    def _mean_shift(self, score: np.ndarray, pts: np.ndarray, off=(0.0, 0.0), iters: int = 3) -> np.ndarray:
        """Mean-shift of "not cloth" inside each ball's disc (all candidates at once): inside the
        ball the difference is high everywhere; weighted flat, the shading and the highlight do
        not pull the centre. `score` covers the locating image from `off` on."""
        h, w = score.shape
        off = np.asarray(off, float)
        p = self._to_small(pts) - off
        r = 1.05 * self.r
        oy, ox = self._off
        for _ in range(iters):
            cx, cy = np.rint(p[:, 0]).astype(int), np.rint(p[:, 1]).astype(int)
            yy = np.clip(cy[:, None] + oy[None, :], 0, h - 1)
            xx = np.clip(cx[:, None] + ox[None, :], 0, w - 1)
            inside = (xx - p[:, 0:1]) ** 2 + (yy - p[:, 1:2]) ** 2 <= r * r
            wgt = ((score[yy, xx] > 20.0) & inside).astype(np.float64)
            s = wgt.sum(axis=1)
            ok = s >= 10 * self.scale * self.scale
            s = np.maximum(s, 1e-9)
            nx, ny = (wgt * xx).sum(axis=1) / s, (wgt * yy).sum(axis=1) / s
            new = np.where(ok[:, None], np.stack([nx, ny], 1), p)
            done = np.abs(new - p).max() < 0.02
            p = new
            if done:
                break
        return self._to_full(p + off)

    def _rim_votes(self, bgr: np.ndarray, box: np.ndarray) -> np.ndarray:
        """Ball centres among frozen balls: every sharp edge pixel votes a known radius along its
        gradient, both ways (a rim is a colour edge across the radius: the ball against the cloth,
        a neighbour, or its own shaded limb); the votes pile up at the centres, one sharp peak per
        ball however tight the cluster."""
        r = self.r_full
        m = int(np.ceil(1.6 * r))
        h_img, w_img = bgr.shape[:2]
        x0, y0 = max(0, int(box[0, 0]) - m), max(0, int(box[0, 1]) - m)
        x1, y1 = min(w_img, int(box[1, 0]) + m + 1), min(h_img, int(box[1, 1]) + m + 1)
        acc = cv2.GaussianBlur(rimvotes.vote_image(bgr[y0:y1, x0:x1], r).astype(np.float32), (0, 0), 1.5)
        k = max(3, int(0.8 * r) | 1)
        pk = (acc >= cv2.dilate(acc, np.ones((k, k), np.uint8))) & (acc > 0.2 * acc.max())
        pk[0, :] = pk[-1, :] = False
        pk[:, 0] = pk[:, -1] = False
        py, px = np.nonzero(pk)
        order = np.argsort(-acc[py, px], kind="stable")
        py, px = py[order], px[order]
        # To a fraction of a pixel: the vertex of a parabola through the peak and its neighbours.
        c = acc[py, px]
        l, r_, u, d = acc[py, px - 1], acc[py, px + 1], acc[py - 1, px], acc[py + 1, px]
        dx = np.clip(0.5 * (l - r_) / np.minimum(l - 2 * c + r_, -1e-9), -0.5, 0.5)
        dy = np.clip(0.5 * (u - d) / np.minimum(u - 2 * c + d, -1e-9), -0.5, 0.5)
        return np.stack([px + dx + x0, py + dy + y0], 1)

    def _pocket_near(self, p_small: np.ndarray) -> bool:
        return bool(np.min(np.hypot(*(self._pockets_small - p_small).T)) < self._pocket_zone_small)

    def _disc_mean(self, diff: np.ndarray) -> np.ndarray:
        b = cv2.BORDER_REPLICATE
        s = (cv2.boxFilter(diff, -1, self._plus[0], normalize=False, borderType=b) +
             cv2.boxFilter(diff, -1, self._plus[1], normalize=False, borderType=b) -
             cv2.boxFilter(diff, -1, self._plus[2], normalize=False, borderType=b))
        return s * (1.0 / self._plus_area)

    def _to_full(self, p: np.ndarray) -> np.ndarray:
        return p * self._step + self._c0 + np.array(self.roi[:2], float)

    def _to_small(self, p: np.ndarray) -> np.ndarray:
        return (p - np.array(self.roi[:2], float) - self._c0) / self._step

    def rim_fit(self, bgr: np.ndarray, pts: np.ndarray, agreeing: bool = False):
        """Fit each ball's rim (all candidates at once, `rimfit.fit`): along rays from the centre
        estimate, the sharpest change of colour near the known radius; each ray's edge fixes the
        centre along that ray, and the centre is their least-squares solution with the rays that
        disagree (a neighbour's rim, a shadow) dropped. Robust inside a tight rack, where the blob
        of balls has no single centre. `agreeing`: also return, for each, the share of its rays
        that agree and the median ray's colour change at its edge (per 0.25 px, grey levels:
        empty cloth 2-3, a sharp ball 10-35, a blurred one 4-6; both 0 where the fit failed and
        the estimate is kept)."""
        pts = np.ascontiguousarray(pts, dtype=float).reshape(-1, 2)
        if len(pts) == 0:
            return (pts, np.zeros(0), np.zeros(0)) if agreeing else pts
        if bgr.dtype != np.uint8 or bgr.ndim != 3 or bgr.shape[2] != 3:
            raise ValueError(f"rim fit: a BGR picture of bytes is needed, not {bgr.dtype} {bgr.shape}")
        out, share, edge = rimfit.fit(bgr, pts, self._dirs, self._ss, self.r_full, rimfit.KERNEL)
        return (out, share, edge) if agreeing else out


def _components(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Centroids (x, y) and boxes (x, y, w, h) of a sparse mask's 8-connected components, in
    raster order of their first pixel."""
    n, _, stats, cent = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if n <= 1:
        return np.zeros((0, 2)), np.zeros((0, 4), int)
    return cent[1:], stats[1:, :4].astype(int)


def _suppress(pts: np.ndarray, dist: float) -> np.ndarray:
    """Greedy non-maximum suppression of points sorted strongest first: indices kept."""
    if len(pts) == 0:
        return np.zeros(0, int)
    d2 = ((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2)
    close = d2 < dist * dist
    alive = np.ones(len(pts), bool)
    for i in range(len(pts)):
        if alive[i]:
            alive[i + 1:] &= ~close[i, i + 1:]
    return np.nonzero(alive)[0]


