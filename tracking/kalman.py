"""One ball's motion filter: a filterpy Kalman filter in table millimetres.

State [x, y, vx, vy]: constant velocity with white-noise acceleration (spin curves the path and the
cloth slows the ball), plus two pieces of pool physics in the prediction so that a ball coasting
behind a cue or an arm is looked for in the right place: rolling friction takes speed off, and a
predicted path through a cushion nose is reflected back onto the bed.
"""
from __future__ import annotations

import math

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
            self.kf.F = np.array([[1, 0, dt, 0], [0, 1, 0, dt], [0, 0, 1, 0], [0, 0, 0, 1]], float)
            self.kf.Q = Q_discrete_white_noise(dim=2, dt=dt, var=ACCEL_NOISE ** 2, block_size=2,
                                               order_by_dim=False)
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
