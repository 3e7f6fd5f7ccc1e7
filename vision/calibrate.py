"""Table calibration: pixels ↔ table millimetres, from the picture itself or from four corners.

The playing surface is the cloth inside the cushion noses. `auto` finds it from the cloth colour,
then locates each cushion nose line to sub-pixel precision (the brightness edge between cushion and
bed, searched inward from the rail), straightens those lines to estimate the lens's radial
distortion, and intersects them into the four nose corners. The homography from the table plane to
the undistorted image gives the camera's pose — and its focal length when the view is tilted enough
to observe it; otherwise a camera height prior (3 m) stands in. With the full camera a ball's centre
is found on the plane R above the cloth, not on the cloth (the parallax reaches ~1 cm at the image
edges). `from_corners` does the same from four clicked corners (a config file for a camera the
automatic path cannot read). `drift_px` / `recheck` test cheaply that the cushions are still where
a calibration says (a bumped camera) and recalibrate when they are not.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from cueref.camera import Camera, rotation_to_rvec
from cueref.table import Table

CORNERS = ("head-left", "foot-left", "foot-right", "head-right")
DEFAULT_HEIGHT_MM = 3000.0


def corner_points(table: Table) -> np.ndarray:
    """The four nose corners on the table (mm, the cloth's plane), in the order of `CORNERS`."""
    return np.array([[0.0, 0.0], [table.L, 0.0], [table.L, table.W], [0.0, table.W]])


def corners_seen(camera: Camera, table: Table) -> dict[str, tuple[float, float]]:
    """Where `camera` sees the four nose corners (px), by name: a known camera's truth."""
    pts = np.hstack([corner_points(table), np.zeros((4, 1))])
    return {c: tuple(float(v) for v in p) for c, p in zip(CORNERS, camera.project(pts))}


class CalibrationError(RuntimeError):
    """The picture does not show a table this module can find (say why)."""


@dataclass
class Calibration:
    camera: Camera
    table: Table
    method: str  # "auto" or "corners"
    residual_px: float  # RMS distance of the nose-line points from their fitted lines
    corners_px: dict[str, tuple[float, float]]

    def to_table(self, px, height: float | None = None) -> np.ndarray:
        """Pixels → table mm on the plane `height` above the cloth (default: a ball's centre)."""
        return self.camera.to_table(np.atleast_2d(px), self.table.R if height is None else height)

    def to_pixel(self, xy, height: float | None = None) -> np.ndarray:
        xy = np.atleast_2d(np.asarray(xy, float))
        h = np.full((len(xy), 1), self.table.R if height is None else height)
        return self.camera.project(np.hstack([xy, h]))

    def to_dict(self) -> dict:
        return {"schema": "cueref/calibration-1", "method": self.method, "residual_px": round(self.residual_px, 3),
                "table": {"length_mm": self.table.length_mm, "width_mm": self.table.width_mm,
                          "ball_diameter_mm": self.table.ball_diameter_mm},
                "corners_px": {k: [round(v[0], 2), round(v[1], 2)] for k, v in self.corners_px.items()},
                "camera": self.camera.to_dict()}

    def save(self, path: Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> "Calibration":
        """A saved calibration, or a manual one: {"table": ..., "image_size": [w, h],
        "corners_px": {"head-left": [u, v], ...}} (optionally "k1", "camera_height_mm")."""
        try:
            d = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise CalibrationError(f"cannot read calibration {path}: {e}") from None
        try:
            return cls._from_dict(d, path)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise CalibrationError(f"calibration {path} is malformed ({type(e).__name__}: {e})") from None

    @classmethod
    def _from_dict(cls, d: dict, path) -> "Calibration":
        if not isinstance(d, dict):
            raise TypeError("expected a JSON object")
        t = d.get("table", {})
        table = Table(float(t.get("length_mm", 2540.0)), float(t.get("width_mm", 1270.0)),
                      float(t.get("ball_diameter_mm", 57.15)))
        if "camera" in d:
            return cls(Camera.from_dict(d["camera"]), table, d.get("method", "auto"), float(d.get("residual_px", 0.0)),
                       {k: tuple(v) for k, v in d.get("corners_px", {}).items()})
        missing = [c for c in CORNERS if c not in d.get("corners_px", {})]
        if missing or "image_size" not in d:
            raise CalibrationError(f"calibration {path}: needs 'image_size' and 'corners_px' for "
                                   f"{', '.join(CORNERS)} (missing: {', '.join(missing) or 'image_size'})")
        return from_corners({k: tuple(v) for k, v in d["corners_px"].items()}, table, tuple(d["image_size"]),
                            k1=float(d.get("k1", 0.0)), camera_height_mm=float(d.get("camera_height_mm", DEFAULT_HEIGHT_MM)))


# --- from four corners ---------------------------------------------------------------------------

def from_corners(corners_px: dict[str, tuple[float, float]], table: Table, image_size: tuple[int, int], *,
                 k1: float = 0.0, camera_height_mm: float = DEFAULT_HEIGHT_MM, residual_px: float = 0.0,
                 method: str = "corners") -> Calibration:
    """The camera from the four nose corners in the (distorted) image and a radial coefficient k1
    (normalised by the image width, about the image centre)."""
    w, h = image_size
    cx, cy = w / 2.0, h / 2.0
    f0 = float(w)
    src = np.array([_undistort_px((corners_px[c][0], corners_px[c][1]), k1, cx, cy, f0) for c in CORNERS])
    H = cv2.getPerspectiveTransform(corner_points(table).astype(np.float32), src.astype(np.float32)).astype(float)
    cam = camera_from_homography(H, w, h, k1_px=k1, f0=f0, height_prior=camera_height_mm)
    return Calibration(cam, table, method, residual_px, dict(corners_px))


def camera_from_homography(H: np.ndarray, w: int, h: int, *, k1_px: float = 0.0, f0: float | None = None,
                           height_prior: float = DEFAULT_HEIGHT_MM) -> Camera:
    """Decompose H (table plane → undistorted pixels) with square pixels and the principal point at
    the image centre. The focal length comes from the two plane constraints when the view is
    tilted enough; near straight down it is unobservable and the camera height prior fixes it."""
    cx, cy = w / 2.0, h / 2.0
    T = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1.0]])
    Hc = T @ H
    h1, h2 = Hc[:, 0], Hc[:, 1]
    f = None
    den = h1[2] * h2[2]
    cands = []
    if abs(den) > 1e-12:
        f2 = -(h1[0] * h2[0] + h1[1] * h2[1]) / den
        if f2 > 0:
            cands.append(math.sqrt(f2))
    den2 = h1[2] ** 2 - h2[2] ** 2
    if abs(den2) > 1e-12:
        f2 = (h2[0] ** 2 + h2[1] ** 2 - h1[0] ** 2 - h1[1] ** 2) / den2
        if f2 > 0:
            cands.append(math.sqrt(f2))
    plausible = [c for c in cands if 0.5 * w < c < 4.0 * w]
    # Scale of the table in the image (px per mm near the centre), for the height prior.
    scale = math.sqrt(abs(np.linalg.det(Hc[:2, :2]))) / abs(Hc[2, 2]) if Hc[2, 2] else None
    tilt_ok = max(abs(h1[2]), abs(h2[2])) * 1000.0 / max(abs(Hc[2, 2]), 1e-12) > 0.03
    if plausible and tilt_ok:
        f = float(np.median(plausible))
    elif scale:
        f = scale * height_prior
    else:
        raise CalibrationError("cannot recover the camera from the table corners")
    K_inv = np.diag([1 / f, 1 / f, 1.0])
    B = K_inv @ Hc
    lam = 1.0 / np.linalg.norm(B[:, 0])
    if B[2, 2] * lam < 0:
        lam = -lam
    r1, r2, t = lam * B[:, 0], lam * B[:, 1], lam * B[:, 2]
    R = np.stack([r1, r2, np.cross(r1, r2)], axis=1)
    U, _, Vt = np.linalg.svd(R)
    R = U @ Vt
    if np.linalg.det(R) < 0:
        R[:, 2] *= -1
    f0 = f0 or float(w)
    k1 = k1_px * (f / f0) ** 2  # the same distortion, in this focal length's normalisation
    return Camera(width=w, height=h, fx=f, fy=f, cx=cx, cy=cy, k1=k1, k2=0.0, p1=0.0, p2=0.0,
                  rvec=tuple(float(v) for v in rotation_to_rvec(R)), tvec=tuple(float(v) for v in t))


def _undistort_px(p, k1: float, cx: float, cy: float, f0: float, iters: int = 10):
    xd, yd = (p[0] - cx) / f0, (p[1] - cy) / f0
    x, y = xd, yd
    for _ in range(iters):
        r2 = x * x + y * y
        x, y = xd / (1 + k1 * r2), yd / (1 + k1 * r2)
    return (x * f0 + cx, y * f0 + cy)


def _undistort_many(pts: np.ndarray, k1: float, cx: float, cy: float, f0: float) -> np.ndarray:
    xd = (pts[:, 0] - cx) / f0
    yd = (pts[:, 1] - cy) / f0
    x, y = xd.copy(), yd.copy()
    for _ in range(10):
        r2 = x * x + y * y
        x, y = xd / (1 + k1 * r2), yd / (1 + k1 * r2)
    return np.stack([x * f0 + cx, y * f0 + cy], axis=1)


# --- automatic -----------------------------------------------------------------------------------

def auto(image: np.ndarray, table: Table, head: str = "auto") -> Calibration:
    """Calibrate from one frame. `head`: 'auto' (the end away from a rack, or the end where a few
    balls wait near the string — a lag, the cue ball in the kitchen — else the image's left or top
    end), or the image side the head cushion is on: 'left', 'right', 'top', 'bottom'."""
    h, w = image.shape[:2]
    quad = _cloth_quad(image)
    sides = _nose_points(image, quad)
    cx, cy, f0 = w / 2.0, h / 2.0, float(w)
    k1 = _straighten(sides, cx, cy, f0)
    lines = [_fit_line(_undistort_many(p, k1, cx, cy, f0)) for p in sides]
    res = [_line_residuals(_undistort_many(p, k1, cx, cy, f0), ln) for p, ln in zip(sides, lines)]
    residual = float(np.sqrt(np.mean(np.concatenate(res) ** 2)))
    corners = [_intersect(lines[i], lines[(i + 1) % 4]) for i in range(4)]  # undistorted px
    named = _name_corners(corners, image, head, quad)
    # Back to distorted pixels for the record (and `from_corners` undistorts them again).
    distorted = {k: _distort_px(v, k1, cx, cy, f0) for k, v in named.items()}
    return from_corners(distorted, table, (w, h), k1=k1, residual_px=residual, method="auto")


def drift_px(cal: Calibration, image: np.ndarray, per_side: int = 24, reach: float = 6.0) -> float | None:
    """How far the cushion nose lines in `image` lie from where `cal` puts them (px): the worst
    offset at either end of any side (a straight line fitted to the offsets along it). A cheap test (~1 ms) that the camera has not been bumped since it was
    calibrated. Along each nose line (its pockets left out) the brightness profile across the line
    is read `reach` px either way; its sharpest change is the nose edge. Profiles without a clear
    edge (a ball or a hand over the cushion) are dropped; None when a side has too few left."""
    t = cal.table
    L, W = t.L, t.W
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    f = np.linspace(0.08, 0.92, per_side)
    sides = [  # points on the nose line (mm) and the inward normal (mm)
        (np.stack([L * f, np.zeros_like(f)], 1), (0.0, 1.0)),
        (np.stack([L * f, np.full_like(f, W)], 1), (0.0, -1.0)),
        (np.stack([np.zeros_like(f), W * f], 1), (1.0, 0.0)),
        (np.stack([np.full_like(f, L), W * f], 1), (-1.0, 0.0)),
    ]
    ss = np.arange(-reach, reach + 0.25, 0.5)
    worst = 0.0
    for k, (pts, nrm) in enumerate(sides):
        if k < 2:  # the long cushions: not at the side pockets
            pts = pts[np.abs(pts[:, 0] - L / 2) > 0.08 * L]
        p0 = cal.to_pixel(pts, height=0.0)
        p1 = cal.to_pixel(pts + 10.0 * np.array(nrm), height=0.0)
        n = (p1 - p0) / np.linalg.norm(p1 - p0, axis=1, keepdims=True)
        xs = (p0[:, 0:1] + n[:, 0:1] * ss[None]).astype(np.float32)
        ys = (p0[:, 1:2] + n[:, 1:2] * ss[None]).astype(np.float32)
        prof = cv2.remap(gray, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        prof = cv2.GaussianBlur(prof, (0, 0), sigmaX=1.0, sigmaY=0.01)
        g = np.abs(np.diff(prof, axis=1))
        j = np.argmax(g, axis=1)
        strength = g[np.arange(len(g)), j]
        ok = (strength > 0.5 * np.median(strength)) & (j > 0) & (j < g.shape[1] - 1)
        if ok.sum() < max(4, len(g) // 3):
            return None
        jj = j[ok]
        rows = np.nonzero(ok)[0]
        a, b, c = g[rows, jj - 1], g[rows, jj], g[rows, jj + 1]
        sub = np.clip(0.5 * (a - c) / np.minimum(a - 2 * b + c, -1e-9), -0.5, 0.5)
        edge = (ss[jj] + ss[jj + 1]) / 2 + sub * 0.5  # the step between samples jj and jj + 1
        # The offsets along the side as a straight line (a turned camera tilts it), robustly.
        pos = np.linspace(0.0, 1.0, len(g))[rows]
        keep = np.abs(edge - np.median(edge)) <= max(0.5, 3.0 * float(np.median(np.abs(edge - np.median(edge)))))
        A = np.stack([np.ones(keep.sum()), pos[keep]], 1)
        (a0, a1), *_ = np.linalg.lstsq(A, edge[keep], rcond=None)
        worst = max(worst, abs(float(a0)), abs(float(a0 + a1)))
    return worst


def recheck(cal: Calibration, image: np.ndarray, tol_px: float = 1.25) -> Calibration:
    """`cal` while the cushions are where it says (within `tol_px`; an undisturbed camera
    measures up to 0.7 px on rendered 1080p frames, a 1 px shift or a 0.1 degree turn 1.0-1.8);
    otherwise (a bumped camera) a fresh automatic calibration from `image`, with the head at the
    same end of the picture. Meant for now and then (between shots), not every frame: `auto`
    takes a few tenths of a second (0.16 s median on 1080p frames here)."""
    d = drift_px(cal, image)
    if d is not None and d <= tol_px:
        return cal
    c = cal.corners_px
    if not all(k in c for k in CORNERS):
        c = {k: tuple(v) for k, v in zip(CORNERS, cal.to_pixel(corner_points(cal.table), height=0.0))}
    head_mid = (np.array(c["head-left"]) + np.array(c["head-right"])) / 2
    foot_mid = (np.array(c["foot-left"]) + np.array(c["foot-right"])) / 2
    dx, dy = head_mid - foot_mid
    head = ("left" if dx < 0 else "right") if abs(dx) >= abs(dy) else ("top" if dy < 0 else "bottom")
    return auto(image, cal.table, head=head)


def _distort_px(p, k1, cx, cy, f0):
    x, y = (p[0] - cx) / f0, (p[1] - cy) / f0
    r2 = x * x + y * y
    return (x * (1 + k1 * r2) * f0 + cx, y * (1 + k1 * r2) * f0 + cy)


def _cloth_quad(image: np.ndarray) -> np.ndarray:
    """The cloth (bed and cushions) as a coarse quadrilateral, corners in order around it."""
    h, w = image.shape[:2]
    s = 640.0 / w
    small = cv2.resize(image, (640, int(round(h * s))), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    sh, sw = lab.shape[:2]
    centre = lab[int(sh * 0.3):int(sh * 0.7), int(sw * 0.3):int(sw * 0.7)].reshape(-1, 3)
    med = np.median(centre, axis=0)
    chroma = np.hypot(lab[..., 1] - med[1], lab[..., 2] - med[2])
    # Loose bounds first (a shaded corner, the darker cushions); tighter ones when the loose region
    # runs out of the picture on all sides: a rail and a floor near the cloth's colour (grey cloth
    # on a grey floor) join it, and only brightness or a finer shade tells them apart.
    for max_chroma, min_light in ((14, 0.45), (8, 0.6), (5, 0.7)):
        mask = ((chroma < max_chroma) & (lab[..., 0] > min_light * med[0])
                & (lab[..., 0] < 1.6 * med[0] + 20)).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        if n < 2:
            raise CalibrationError("no cloth-coloured region found in the picture")
        big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        if stats[big, cv2.CC_STAT_AREA] < 0.15 * sh * sw:
            raise CalibrationError("the cloth covers too little of the picture to be a table seen from above")
        x, y, bw, bh = stats[big, :4]
        if bw < 0.98 * sw or bh < 0.98 * sh:
            break
    else:
        raise CalibrationError("the cloth colour fills the whole picture: the table's edges are not in view")
    region = (labels == big).astype(np.uint8) * 255
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    quad = None
    for eps in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(float)
            break
    if quad is None:
        rect = cv2.minAreaRect(hull)
        quad = cv2.boxPoints(rect).astype(float)
    return quad / s


def _nose_points(image: np.ndarray, quad: np.ndarray, n: int = 80) -> list[np.ndarray]:
    """For each side of the coarse quad, points of the cushion nose, located to a fraction of a
    pixel. Across the coarse edge every strong brightness step is a candidate (the rail's edge,
    the nose, a ball); the candidates that line up form lines, and the nose is the innermost line
    with wide support (the bed inside it is flat). Profiles are averaged over a few pixels along
    the side to beat sensor noise."""
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.2)
    centre = quad.mean(axis=0)
    short = min(np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4))
    step = 0.5
    # Deeper inward than out: where the rail is the cloth's colour the coarse edge is the rail's
    # outer edge, and the nose lies a rail and a cushion (up to ~0.15 of the short side) inside it.
    ss = np.arange(-0.09 * short, 0.18 * short, step)
    sides = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = (b - a) / np.linalg.norm(b - a)
        nrm = np.array([-d[1], d[0]])
        if np.dot(centre - (a + b) / 2, nrm) < 0:
            nrm = -nrm  # inward
        long_side = np.linalg.norm(b - a) > 1.5 * short
        cands = []  # (profile index, point, depth inward)
        fs = [f for f in np.linspace(0.1, 0.9, n) if not (long_side and abs(f - 0.5) < 0.07)]
        for idx, f in enumerate(fs):
            p0 = a + f * (b - a)
            offs = np.arange(-3, 4)[:, None] * d  # parallel profiles, averaged
            xs = (p0[0] + offs[:, 0:1] + ss[None, :] * nrm[0]).astype(np.float32)
            ys = (p0[1] + offs[:, 1:2] + ss[None, :] * nrm[1]).astype(np.float32)
            # Replicated, not black, past the picture's edge: a false step there set the 5 %-of-
            # the-strongest threshold above a faint nose (seed 13003's foot).
            prof = cv2.remap(grey, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).mean(axis=0)
            g = np.abs(np.gradient(prof))
            inner = g[len(g) * 3 // 4:]
            noise = 1.4826 * float(np.median(np.abs(inner - np.median(inner)))) + float(np.median(inner))
            # 2.5x the noise, not more: a cushion lit like the bed steps only ~6 grey levels at its
            # nose; stray peaks this lets in do not line up along the side, so form no line.
            for k in range(1, len(g) - 1):
                if g[k] >= g[k - 1] and g[k] > g[k + 1] and g[k] >= max(2.5 * noise, 0.5, 0.05 * g.max()):
                    y0, y1, y2 = g[k - 1], g[k], g[k + 1]
                    den = y0 - 2 * y1 + y2
                    off = 0.5 * (y0 - y2) / den if den != 0 else 0.0
                    depth = ss[k] + off * step
                    cands.append((idx, p0 + depth * nrm, depth))
        lines = _line_clusters(cands, len(fs), nrm)
        if not lines:
            raise CalibrationError("could not find the cushion nose along one side of the table")
        # Innermost by each line's depth on the normal through the side's middle: a short line's
        # mean depth is off by the side's tilt times how far along it lies (seed 13085).
        mid = (a + b) / 2
        sides.append(max(lines, key=lambda pts: float(_intersect((mid, nrm), _fit_line(pts)) @ nrm)))
    return sides


def _line_clusters(cands, n_profiles: int, nrm) -> list[np.ndarray]:
    """Straight lines through the candidates (RANSAC), each seen by at least 30 % of the profiles;
    up to six (the floor's edge, the rail's, diamonds, the cushion's back, the nose)."""
    pts = np.array([c[1] for c in cands]) if cands else np.zeros((0, 2))
    prof = np.array([c[0] for c in cands])
    rng = np.random.default_rng(0)
    out = []
    alive = np.ones(len(pts), bool)
    for _ in range(6):
        idx = np.flatnonzero(alive)
        if len(idx) < 8:
            break
        best = None
        for _ in range(200):
            i, j = rng.choice(idx, 2, replace=False)
            if prof[i] == prof[j]:
                continue
            d = pts[j] - pts[i]
            dn = np.linalg.norm(d)
            if dn < 1e-6:
                continue
            nn = np.array([-d[1], d[0]]) / dn
            r = np.abs((pts[idx] - pts[i]) @ nn)
            inl = idx[r < 1.0]
            support = len(set(prof[inl]))
            if best is None or support > best[0]:
                best = (support, inl)
        if best is None or best[0] < 0.3 * n_profiles:
            break
        # One point per profile: the one nearest the line.
        inl = best[1]
        line = _fit_line(pts[inl])
        chosen = {}
        for k in inl:
            r = abs(_line_residuals(pts[k:k + 1], line)[0])
            if prof[k] not in chosen or r < chosen[prof[k]][0]:
                chosen[prof[k]] = (r, k)
        keep = np.array([k for _, k in chosen.values()])
        out.append(_robust(pts[keep]))
        alive[best[1]] = False
    return out


def _robust(pts: np.ndarray) -> np.ndarray:
    """Drop points far from the side's line (a ball against the cushion, a hand, a pocket jaw)."""
    for _ in range(3):
        ln = _fit_line(pts)
        r = np.abs(_line_residuals(pts, ln))
        keep = r < max(3.0 * np.median(r) + 0.3, 1.0)
        if keep.all():
            break
        pts = pts[keep]
    return pts


def _fit_line(pts: np.ndarray):
    """Total least squares: (point, unit direction)."""
    c = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - c)
    return c, vt[0]


def _line_residuals(pts, ln) -> np.ndarray:
    c, d = ln
    n = np.array([-d[1], d[0]])
    return (pts - c) @ n


def _intersect(l1, l2):
    (p, d), (q, e) = l1, l2
    A = np.array([d, -e]).T
    t = np.linalg.solve(A, q - p)
    return p + t[0] * d


def _straighten(sides, cx, cy, f0) -> float:
    """The radial distortion coefficient that makes the four nose lines straightest."""
    def cost(k):
        return sum(float(np.sum(_line_residuals(q, _fit_line(q)) ** 2))
                   for q in (_undistort_many(p, k, cx, cy, f0) for p in sides))

    lo, hi = -0.6, 0.4
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = cost(a), cost(b)
    for _ in range(60):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = cost(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = cost(b)
    return (lo + hi) / 2


def _name_corners(corners, image, head: str, quad) -> dict[str, tuple[float, float]]:
    """Which corner is which: the two short sides are the ends; the head end is chosen by `head`;
    the left cushion is on the left looking from the head to the foot (a camera above the table
    sees it unmirrored)."""
    c = np.array(corners)
    lengths = [np.linalg.norm(c[i] - c[(i + 1) % 4]) for i in range(4)]
    # Ends = the two shorter opposite sides.
    ends = (0, 2) if lengths[0] + lengths[2] < lengths[1] + lengths[3] else (1, 3)
    mids = {e: (c[e] + c[(e + 1) % 4]) / 2 for e in ends}
    centre = c.mean(axis=0)
    head_end = _choose_head(image, mids, centre, head, corners)
    foot_end = ends[1] if head_end == ends[0] else ends[0]
    d = mids[foot_end] - mids[head_end]  # head → foot, in the image
    left_dir = np.array([d[1], -d[0]])  # image y points down: this is the shooter's left
    hc = [c[head_end], c[(head_end + 1) % 4]]
    fc = [c[foot_end], c[(foot_end + 1) % 4]]
    hl, hr = sorted(hc, key=lambda p: -np.dot(p - centre, left_dir))
    fl, fr = sorted(fc, key=lambda p: -np.dot(p - centre, left_dir))
    return {"head-left": tuple(hl), "foot-left": tuple(fl), "foot-right": tuple(fr), "head-right": tuple(hr)}


def _choose_head(image, mids: dict, centre, head: str, corners=None) -> int:
    ends = list(mids)
    if head in ("left", "right", "top", "bottom"):
        axis, sign = {"left": (0, -1), "right": (0, 1), "top": (1, -1), "bottom": (1, 1)}[head]
        return max(ends, key=lambda e: sign * mids[e][axis])
    # 'auto': a rack (many balls close together around a spot) marks the foot; failing that, a few
    # balls alone in the band around one end's string (a lag, the cue ball in the kitchen) mark
    # the head; failing that, the image's left or top end.
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    sat = hsv[..., 1].astype(np.float32)
    val = hsv[..., 2].astype(np.float32)
    busy = ((np.abs(sat - np.median(sat)) > 60) | (np.abs(val - np.median(val)) > 70)).astype(np.uint8)
    a, b = ends
    spot = {}
    for e in ends:
        p = centre + 0.5 * (mids[e] - centre)  # that end's spot
        r = 0.18 * np.linalg.norm(mids[e] - centre)
        x0, x1 = int(max(p[0] - r, 0)), int(min(p[0] + r, image.shape[1]))
        y0, y1 = int(max(p[1] - r, 0)), int(min(p[1] + r, image.shape[0]))
        spot[e] = float(busy[y0:y1, x0:x1].mean()) if x1 > x0 and y1 > y0 else 0.0
    rack = max(ends, key=lambda e: spot[e])
    if spot[rack] > 0.02 and spot[rack] > 3.0 * min(spot.values()) + 1e-6:
        return b if rack == a else a
    if corners is not None:
        c = np.array(corners, np.float32)
        src = np.float32([c[a], c[(a + 1) % 4], c[b], c[(b + 1) % 4]])
        dst = np.float32([[0, 0], [0, 200], [400, 200], [400, 0]])
        flat = cv2.warpPerspective(busy, cv2.getPerspectiveTransform(src, dst), (400, 200), flags=cv2.INTER_NEAREST)
        band = {a: float(flat[10:190, 48:152].mean()), b: float(flat[10:190, 248:352].mean())}
        few = max(ends, key=lambda e: band[e])
        if band[few] > 0.003 and band[few] > 3.0 * min(band.values()) + 1e-6:
            return few
    horizontal = abs(mids[a][0] - mids[b][0]) >= abs(mids[a][1] - mids[b][1])
    axis = 0 if horizontal else 1
    return min(ends, key=lambda e: mids[e][axis])
