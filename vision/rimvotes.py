"""Frozen balls' centres by rim votes, compiled (numba): the voting step of `Locator._rim_votes`.

Every edge pixel above a threshold votes a ball's radius along its gradient, both ways, weighted
by its strength. As numpy calls it was a dozen passes over the box's edge pixels (~0.2 ms a box,
a rack's box searched every frame of a break); here one pass, the same votes to the bit: the
arithmetic is numpy's, float32 where numpy's was (the gradient's length and direction, the step
along it) and float64 where it was (the weights, the sums, in the same order).
"""
from __future__ import annotations

import math

import numba
import numpy as np


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
