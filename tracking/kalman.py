"""One ball's motion filter: a filterpy Kalman filter in table millimetres.

State [x, y, vx, vy]: constant velocity with white-noise acceleration (spin curves the path and the
cloth slows the ball), plus two pieces of pool physics in the prediction so that a ball coasting
behind a cue or an arm is looked for in the right place: rolling friction takes speed off, and a
predicted path through a cushion nose is reflected back onto the bed.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from filterpy.common import Q_discrete_white_noise
from filterpy.kalman import KalmanFilter

from cueref.table import Table

ACCEL_NOISE = 4000.0  # mm/s² (1-sigma): spin, sliding friction, small contacts
ROLLING_DECEL = 150.0  # mm/s²: a rolling ball on cloth (μ ≈ 0.015)
CUSHION_RESTITUTION = 0.75  # normal speed kept after a cushion


class BallFilter:
    def __init__(self, xy, sigma_mm: float, table: Table, velocity=(0.0, 0.0), velocity_sigma: float = 1500.0):
        kf = KalmanFilter(dim_x=4, dim_z=2)
        kf.x = np.array([xy[0], xy[1], velocity[0], velocity[1]], float)
        kf.P = np.diag([sigma_mm ** 2, sigma_mm ** 2, velocity_sigma ** 2, velocity_sigma ** 2])
        kf.H = np.array([[1.0, 0, 0, 0], [0, 1.0, 0, 0]])
        kf.inv = _inv2  # filterpy's hook for the inverse of S (2 x 2 here)
        self.kf = kf
        self.table = table
        self._dt = None

    @property
    def position(self) -> np.ndarray:
        return self.kf.x[:2]

    @property
    def velocity(self) -> np.ndarray:
        return self.kf.x[2:]

    def position_sigma(self) -> float:
        return math.sqrt(max(self.kf.P[0, 0], self.kf.P[1, 1]))

    def predict(self, dt: float) -> None:
        if dt <= 0:
            return
        if dt != self._dt:
            self.kf.F, self.kf.Q = _motion(round(dt, 9))
            self._dt = dt
        self.kf.predict()
        x = self.kf.x
        speed = math.hypot(x[2], x[3])
        if speed > 0:
            k = max(0.0, 1.0 - ROLLING_DECEL * dt / speed)
            x[2] *= k
            x[3] *= k
        # A cushion nose reflects the predicted centre back onto the bed (R from the nose).
        R, L, W = self.table.R, self.table.L, self.table.W
        for axis, lo, hi in ((0, R, L - R), (1, R, W - R)):
            if x[axis] < lo:
                x[axis] = 2 * lo - x[axis]
                x[axis + 2] = -CUSHION_RESTITUTION * x[axis + 2]
            elif x[axis] > hi:
                x[axis] = 2 * hi - x[axis]
                x[axis + 2] = -CUSHION_RESTITUTION * x[axis + 2]

    def update(self, xy, sigma_mm: float) -> None:
        self.kf.update(np.asarray(xy, float), R=np.eye(2) * sigma_mm ** 2)


@lru_cache(maxsize=64)
def _motion(dt: float) -> tuple[np.ndarray, np.ndarray]:
    """The constant-velocity transition and its process noise over `dt` (rounded to the
    nanosecond: successive frames' media times differ by the same interval but for the last
    bits, and each distinct value would cost a new Q). Shared by every filter, read-only."""
    F = np.array([[1, 0, dt, 0], [0, 1, 0, dt], [0, 0, 1, 0], [0, 0, 0, 1]], float)
    Q = Q_discrete_white_noise(dim=2, dt=dt, var=ACCEL_NOISE ** 2, block_size=2, order_by_dim=False)
    F.setflags(write=False)
    Q.setflags(write=False)
    return F, Q


def _inv2(S: np.ndarray) -> np.ndarray:
    """The inverse of a 2 x 2 matrix in closed form (numpy's general path costs ten times more)."""
    a, b, c, d = S[0, 0], S[0, 1], S[1, 0], S[1, 1]
    det = a * d - b * c
    return np.array([[d, -b], [-c, a]]) / det
