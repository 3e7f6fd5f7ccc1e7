"""A pinhole camera with radial-tangential lens distortion, posed over the table.

Points are (x, y, h) in the table frame: millimetres, x along the table from the head cushion, y
across from the left cushion, h the height above the cloth (a ball's centre is at h = R). With x
toward the foot and y toward the right cushion, "up" makes a left-handed frame, so the camera
works in the right-handed world (x, y, -h): z points down into the cloth. The renderer projects
with it and the truth files record it, so vision can be measured against the exact camera.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from functools import cached_property

import numpy as np

from cueref.table import Table


@dataclass(frozen=True)
class Camera:
    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    k1: float
    k2: float
    p1: float
    p2: float
    rvec: tuple[float, float, float]  # Rodrigues rotation, table frame → camera frame
    tvec: tuple[float, float, float]  # mm

    def to_dict(self) -> dict:
        d = asdict(self)
        d["rvec"], d["tvec"] = list(self.rvec), list(self.tvec)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Camera":
        return cls(**{**d, "rvec": tuple(d["rvec"]), "tvec": tuple(d["tvec"])})

    @cached_property  # (frozen: the pose never changes; every pixel → table conversion uses it)
    def R(self) -> np.ndarray:
        R = rodrigues(np.asarray(self.rvec, float))
        R.setflags(write=False)
        return R

    @property
    def K(self) -> np.ndarray:
        return np.array([[self.fx, 0, self.cx], [0, self.fy, self.cy], [0, 0, 1.0]])

    @property
    def dist(self) -> np.ndarray:
        return np.array([self.k1, self.k2, self.p1, self.p2, 0.0])

    def to_camera(self, pts: np.ndarray) -> np.ndarray:
        """(N, 3) table points (x, y, height) → camera frame."""
        world = np.asarray(pts, float) * np.array([1.0, 1.0, -1.0])
        return world @ self.R.T + np.asarray(self.tvec, float)

    def project(self, pts: np.ndarray) -> np.ndarray:
        """(N, 3) table-frame points (mm) → (N, 2) distorted pixel coordinates."""
        pc = self.to_camera(np.atleast_2d(pts))
        x = pc[:, 0] / pc[:, 2]
        y = pc[:, 1] / pc[:, 2]
        xd, yd = self._distort(x, y)
        return np.stack([self.fx * xd + self.cx, self.fy * yd + self.cy], axis=1)

    def depth(self, pts: np.ndarray) -> np.ndarray:
        return self.to_camera(np.atleast_2d(pts))[:, 2]

    def _distort(self, x, y):
        r2 = x * x + y * y
        radial = 1 + self.k1 * r2 + self.k2 * r2 * r2
        xd = x * radial + 2 * self.p1 * x * y + self.p2 * (r2 + 2 * x * x)
        yd = y * radial + self.p1 * (r2 + 2 * y * y) + 2 * self.p2 * x * y
        return xd, yd

    def undistort(self, px: np.ndarray, iters: int = 20) -> np.ndarray:
        """(N, 2) pixels → (N, 2) ideal normalised image coordinates: the fixed-point iteration
        x = (x_d - tangential(x)) / radial(x), run by OpenCV (`undistortPointsIter`, the same
        model and iteration) until the point reprojects within 1e-9 px or `iters` rounds. The
        detector converts a few centres a frame: in numpy the rounds' small-array calls cost
        ~0.1 ms a call, in OpenCV a few microseconds."""
        import cv2  # noqa: PLC0415

        px = np.atleast_2d(np.asarray(px, float))
        if len(px) == 0:
            return np.zeros((0, 2))
        if self.k1 == self.k2 == self.p1 == self.p2 == 0.0:
            return np.stack([(px[:, 0] - self.cx) / self.fx, (px[:, 1] - self.cy) / self.fy], axis=1)
        crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, iters, 1e-9)
        src = px.reshape(-1, 1, 2)
        if hasattr(cv2, "undistortPointsIter"):  # OpenCV 4's name for the variant with criteria
            out = cv2.undistortPointsIter(src, self._K, self._dist, None, None, crit)
        else:
            out = cv2.undistortPoints(src, self._K, self._dist, criteria=crit)
        return out.reshape(-1, 2)

    @cached_property
    def _K(self) -> np.ndarray:
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])

    @cached_property
    def _dist(self) -> np.ndarray:
        return np.array([self.k1, self.k2, self.p1, self.p2], float)

    def to_table(self, px: np.ndarray, height: float = 0.0) -> np.ndarray:
        """(N, 2) pixels → (N, 2) table points on the plane `height` mm above the cloth."""
        n = self.undistort(px)
        rays = np.concatenate([n, np.ones((len(n), 1))], axis=1) @ self.R  # camera → world
        centre = -np.asarray(self.tvec, float) @ self.R  # camera centre in the world frame
        s = (-height - centre[2]) / rays[:, 2]
        return centre[:2] + s[:, None] * rays[:, :2]

    @property
    def centre(self) -> np.ndarray:
        """The camera's optical centre as (x, y, height) in mm."""
        c = -np.asarray(self.tvec, float) @ self.R
        return c * np.array([1.0, 1.0, -1.0])


def rodrigues(r: np.ndarray) -> np.ndarray:
    theta = float(np.linalg.norm(r))
    if theta < 1e-12:
        return np.eye(3)
    k = r / theta
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(theta) * K + (1 - math.cos(theta)) * (K @ K)


def rotation_to_rvec(R: np.ndarray) -> np.ndarray:
    """Rodrigues vector of a rotation matrix (OpenCV's, which handles the 180° case)."""
    import cv2  # noqa: PLC0415

    rvec, _ = cv2.Rodrigues(np.asarray(R, dtype=np.float64))
    return rvec.ravel()


def overhead(table: Table, width: int, height: int, *, tilt_deg: tuple[float, float] = (0.0, 0.0),
             roll_deg: float = 0.0, head_left: bool = True, margin_mm: float = 220.0,
             k1: float = 0.0, k2: float = 0.0, p1: float = 0.0, p2: float = 0.0,
             height_mm: float = 3000.0, offset_px: tuple[float, float] = (0.0, 0.0)) -> Camera:
    """A camera above the table centre looking down, the table's length across the image.

    `tilt_deg` leans the optical axis a few degrees off vertical (about the table's x and y
    axes), `roll_deg` turns the picture, `head_left` puts the head cushion on the image's left.
    The focal length makes the table plus `margin_mm` on every side fill the frame."""
    L, W = table.length_mm, table.width_mm
    # Rows: the camera's axes in the world (x, y, -h). Looking straight down with the head on the
    # left, image right is +x and image down is +y (the right cushion at the bottom).
    if head_left:
        base = np.eye(3)
    else:
        base = np.array([[-1.0, 0, 0], [0, -1.0, 0], [0, 0, 1.0]])
    tx, ty = (math.radians(a) for a in tilt_deg)
    tilt = rodrigues(np.array([tx, ty, 0.0]))
    roll = rodrigues(np.array([0.0, 0.0, math.radians(roll_deg)]))
    R = roll @ base @ tilt
    target = np.array([L / 2, W / 2, 0.0])
    # Camera centre: above the target, back along the (tilted) optical axis.
    axis = R[2]  # camera z axis in the world frame
    C = target - axis * height_mm
    t = -R @ C
    f = min(width / (L + 2 * margin_mm), height / (W + 2 * margin_mm)) * height_mm
    return Camera(width=width, height=height, fx=f, fy=f, cx=width / 2 + offset_px[0], cy=height / 2 + offset_px[1],
                  k1=k1, k2=k2, p1=p1, p2=p2, rvec=tuple(float(v) for v in rotation_to_rvec(R)),
                  tvec=tuple(float(v) for v in t))
