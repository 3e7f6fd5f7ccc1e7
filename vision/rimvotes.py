"""Frozen balls' centres by rim votes, compiled (numba): the voting step of `Locator._rim_votes`.

Every edge pixel above a threshold votes a ball's radius along its gradient, both ways, weighted
by its strength (`vote_image`). As numpy calls it was a dozen passes over the box's edge pixels (~0.2 ms a box,
a rack's box searched every frame of a break); here one pass, the same votes to the bit: the
arithmetic is numpy's, float32 where numpy's was (the gradient's length and direction, the step
along it) and float64 where it was (the weights, the sums, in the same order).
"""
from __future__ import annotations

import math

import cv2
import numba
import numpy as np

# Every edge above a fixed threshold (squared gradient: a step of ~10 grey levels) votes, weighted
# up to the box's upper quartile of edges: a threshold relative to the box would let a box full
# of balls drop the faint rims (a purple ball against blue cloth).
THRESHOLD2 = 1600.0


def vote_image(patch: np.ndarray, r: float) -> np.ndarray:
    """The (h, w) float64 votes of a BGR picture `patch` (a box around frozen balls) for the
    centres of balls of radius `r` (pixels): its edges, smoothed (sigma 1), each in the channel
    that changes most, vote along their gradient (`votes`)."""
    c = cv2.GaussianBlur(patch, (0, 0), 1.0)
    gx, gy = cv2.Sobel(c, cv2.CV_32F, 1, 0), cv2.Sobel(c, cv2.CV_32F, 0, 1)
    m2 = cv2.split(cv2.multiply(gx, gx) + cv2.multiply(gy, gy))
    top = cv2.max(cv2.max(m2[0], m2[1]), m2[2])  # the channel that changes most
    sub = top[::3, ::3].ravel()
    q = max(THRESHOLD2, float(np.partition(sub, int(0.75 * (len(sub) - 1)))[int(0.75 * (len(sub) - 1))]))
    return votes(m2[0], m2[1], m2[2], top, gx, gy, THRESHOLD2, q, r).reshape(top.shape)


@numba.njit(cache=True, nogil=True)
def votes(m0, m1, m2, top, gx, gy, thr2, q, r):
    """The vote image (h * w float64, row-major) of a box: `m0..m2` each channel's squared
    gradient, `top` their maximum, `gx`, `gy` the (h, w, 3) gradients, `thr2` the least squared
    gradient that votes, `q` the squared gradient whose weight is 1 (weights grow to it), `r` the
    radius (pixels)."""
    h, w = top.shape
    plus = np.zeros(h * w)
    minus = np.zeros(h * w)
    half_q = 2.0 * math.sqrt(q)
    rr = np.float32(r)  # (numpy: a Python float times a float32 array is float32)
    for y in range(h):
        for x in range(w):
            t = top[y, x]
            if not t > thr2:
                continue
            # The channel that changes most (the first, on a tie: numpy's argmax).
            c, best = 0, m0[y, x]
            if m1[y, x] > best:
                c, best = 1, m1[y, x]
            if m2[y, x] > best:
                c = 2
            g = np.float32(math.sqrt(t))
            ux = np.float32(gx[y, x, c] / g)
            uy = np.float32(gy[y, x, c] / g)
            wt = min(g / half_q, 1.0)
            for sgn in (1, -1):
                s = np.float32(rr if sgn > 0 else -rr)
                vx = int(np.rint(x + np.float64(np.float32(s * ux))))
                vy = int(np.rint(y + np.float64(np.float32(s * uy))))
                if 0 <= vx < w and 0 <= vy < h:
                    if sgn > 0:
                        plus[vy * w + vx] += wt
                    else:
                        minus[vy * w + vx] += wt
    return plus + minus


def warm() -> None:
    """Load (the first time on a machine: compile) the votes now, not at the first cluster."""
    z = np.zeros((4, 4), np.float32)
    votes(z, z, z, z, np.zeros((4, 4, 3), np.float32), np.zeros((4, 4, 3), np.float32), 1600.0, 1600.0, 5.0)
