"""A ball's rim fit, compiled (numba): the detector's most frequent step, one call for all balls.

Along 48 rays from each centre estimate the picture is sampled every quarter pixel from 0.55 to
1.45 radii; each ray's rim is its sharpest colour change (smoothed along the ray), which fixes the
centre along that ray; the centre is the least-squares solution of the rays, those that disagree
(a neighbour's rim, a shadow, the highlight) dropped in up to three rounds. Written as loops
because it is small work on few balls: as numpy calls it was ~40 of them a fit, each ~5 µs of
overhead for a few thousand samples (0.2 ms a call, a rolling ball's whole cost each frame).

Sampling is OpenCV 5's `remap` with bilinear interpolation (what the fit was first written
with; the same values to the grey level on random positions): black outside the picture, values
rounded to whole grey levels. The smoothing is OpenCV's Gaussian of sigma 1 (9 taps, mirrored at
the ends).
"""
from __future__ import annotations

import math

import numba
import numpy as np

RAYS = 48
MIN_RAYS = 8  # rays that must agree for a fit
KEEP = 0.3  # of the median ray's strength, for a ray to count
OUTLIER = 2.5  # residuals beyond this many medians (and 1 px) drop a ray


def _gaussian9() -> np.ndarray:
    """OpenCV's `getGaussianKernel(9, 1.0)` as float32 (GaussianBlur's kernel for sigma 1)."""
    x = np.arange(9) - 4.0
    k = np.exp(-x * x / 2.0)
    return (k / k.sum()).astype(np.float32)


KERNEL = _gaussian9()


# cache=True: compiled once per machine (into __pycache__ beside this file, or numba's user cache
# where that is read-only), not per run; nogil: the detector's thread lets the others run meanwhile.
@numba.njit(cache=True, nogil=True, inline="always")
def _sample(img, x, y, out, row):
    """Bilinear sample of the 3 channels at (x, y) into out[row], as OpenCV's remap (see the
    module)."""
    h, w = img.shape[0], img.shape[1]
    if 0.0 <= x < w - 1 and 0.0 <= y < h - 1:  # inside: the four pixels there
        x0, y0 = int(x), int(y)  # (floors: not negative)
        fx, fy = x - x0, y - y0
        w00, w01 = (1.0 - fx) * (1.0 - fy), fx * (1.0 - fy)
        w10, w11 = (1.0 - fx) * fy, fx * fy
        for c in range(3):
            v = (w00 * img[y0, x0, c] + w01 * img[y0, x0 + 1, c]
                 + w10 * img[y0 + 1, x0, c] + w11 * img[y0 + 1, x0 + 1, c])
            out[row, c] = int(v + 0.5)  # (rounds: not negative)
        return
    # At or past the picture's edge: the pixels outside are black.
    x0, y0 = int(math.floor(x)), int(math.floor(y))
    fx, fy = x - x0, y - y0
    for c in range(3):
        acc = 0.0
        for dy in range(2):
            yy = y0 + dy
            wy = fy if dy else 1.0 - fy
            if yy < 0 or yy >= h or wy == 0.0:
                continue
            for dx in range(2):
                xx = x0 + dx
                wx = fx if dx else 1.0 - fx
                if xx < 0 or xx >= w or wx == 0.0:
                    continue
                acc += wx * wy * img[yy, xx, c]
        v = math.floor(acc + 0.5)
        out[row, c] = 255.0 if v > 255.0 else v


@numba.njit(cache=True, nogil=True)
def _median(vals, n):
    """The median of vals[:n] (the mean of the middle two for an even n), sorting a copy."""
    s = np.sort(vals[:n].copy())
    return (s[(n - 1) // 2] + s[n // 2]) / 2.0


@numba.njit(cache=True, nogil=True)
def fit(img, pts, dirs, ss, r, kernel):
    """For each centre estimate of `pts` (N, 2, pixels): the fitted centre (the estimate where
    the fit failed or strayed past half a radius), the share of rays that agree and the median
    ray's colour change at its edge (both 0 where it failed). `dirs` (n, 2) the rays, `ss` the
    distances sampled along them, `r` the ball's radius (pixels)."""
    N, n, m = pts.shape[0], dirs.shape[0], ss.shape[0]
    out = pts.copy()
    share = np.zeros(N)
    edges = np.zeros(N)
    prof = np.empty((m, 3))
    g = np.empty(m - 1, np.float32)
    gb = np.empty(m - 1, np.float32)
    s_edge = np.empty(n)
    strength = np.empty(n)
    keep = np.empty(n, np.bool_)
    new_keep = np.empty(n, np.bool_)
    b = np.empty(n)
    ares = np.empty(n)
    half = kernel.shape[0] // 2
    for i in range(N):
        p0, p1 = pts[i, 0], pts[i, 1]
        for j in range(n):
            d0, d1 = dirs[j, 0], dirs[j, 1]
            for s in range(m):
                # (float32 positions, as the maps handed to remap were)
                _sample(img, np.float64(np.float32(p0 + d0 * ss[s])), np.float64(np.float32(p1 + d1 * ss[s])), prof, s)
            for s in range(m - 1):
                a0 = prof[s + 1, 0] - prof[s, 0]
                a1 = prof[s + 1, 1] - prof[s, 1]
                a2 = prof[s + 1, 2] - prof[s, 2]
                g[s] = np.float32(math.sqrt(a0 * a0 + a1 * a1 + a2 * a2))
            L = m - 1
            best, kbest = np.float32(-1.0), 0
            for s in range(L):
                acc = np.float32(0.0)
                if half <= s < L - half:
                    for t in range(2 * half + 1):
                        acc += kernel[t] * g[s - half + t]
                else:  # mirrored past the ends (OpenCV's default border)
                    for t in range(-half, half + 1):
                        q = s + t
                        while q < 0 or q >= L:  # (more than once only on a profile shorter than the kernel)
                            q = 0 if L == 1 else (-q if q < 0 else 2 * L - 2 - q)
                        acc += kernel[t + half] * g[q]
                gb[s] = acc
                if acc > best:
                    best, kbest = acc, s
            s_edge[j] = (ss[kbest] + ss[min(kbest + 1, m - 1)]) / 2.0
            strength[j] = gb[kbest]
        edge = _median(strength, n)
        for j in range(n):
            keep[j] = strength[j] > KEEP * edge
            # Each ray: dir . c = dir . (p + dir * s_edge) - r  (a line the centre c lies on).
            b[j] = dirs[j, 0] * p0 + dirs[j, 1] * p1 + s_edge[j] - r
        valid = True
        c0, c1 = p0, p1
        for _ in range(3):
            cnt = 0
            for j in range(n):
                cnt += keep[j]
            valid = valid and cnt >= MIN_RAYS
            m00 = m01 = m11 = v0 = v1 = 0.0
            for j in range(n):
                if keep[j]:
                    d0, d1 = dirs[j, 0], dirs[j, 1]
                    m00 += d0 * d0
                    m01 += d0 * d1
                    m11 += d1 * d1
                    v0 += b[j] * d0
                    v1 += b[j] * d1
            det = m00 * m11 - m01 * m01
            if valid and abs(det) > 1e-6:
                c0 = (m11 * v0 - m01 * v1) / det
                c1 = (m00 * v1 - m01 * v0) / det
            else:
                c0, c1 = p0, p1
            k = 0
            for j in range(n):
                a = abs(dirs[j, 0] * c0 + dirs[j, 1] * c1 - b[j])
                ares[j] = a
                if keep[j]:
                    strength[k] = a  # (reused: the kept rays' residuals)
                    k += 1
            med = _median(strength, k) if k > 0 else 0.0
            lim = max(1.0, OUTLIER * med)
            same = True
            for j in range(n):
                new_keep[j] = keep[j] and ares[j] < lim
                same = same and new_keep[j] == keep[j]
            if same:
                break
            keep[:] = new_keep
        cnt = 0
        for j in range(n):
            cnt += keep[j]
        valid = valid and cnt >= MIN_RAYS
        if valid and math.hypot(c0 - p0, c1 - p1) <= 0.5 * r:
            out[i, 0], out[i, 1] = c0, c1
            share[i] = cnt / n
            edges[i] = edge
    return out, share, edges


def warm() -> None:
    """Load the compiled fit (compile it, the first time on a machine: seconds) now rather than at
    the first ball followed: the live referee calls this before its camera starts, since a stall
    on its first frames would make the camera's queue drop frames."""
    ang = np.linspace(0, 2 * np.pi, RAYS, endpoint=False)
    fit(np.zeros((40, 40, 3), np.uint8), np.full((1, 2), 20.0), np.stack([np.cos(ang), np.sin(ang)], 1),
        np.arange(5.5, 14.5, 0.25), 10.0, KERNEL)
