"""A ball's samples through one shot, and the straight lines fitted to them.

The measuring tools of event extraction (`tracking/events.py`, `tracking/cushions.py`): a `Path`
is one ball's raw samples (never a smoothed track: smoothing rounds the corners that time a
contact); `fit_line` is the weighted line through samples with its covariance, so every time read
off a line has an uncertainty; `kink` times where a path bends (a start from rest, a contact) as
the meeting of the lines before and after it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


# A sample's exposure (its blur streak) ends at its frame time and its time stamp is the
# streak's centre (tracker.centroid_lag_frames, 0.4 of a frame before the frame time): with the
# shutter open the whole frame, a sample is clean of a contact at t* only if its time is before
# t* - 0.4 frame or after t* + 0.6 frame. Fits on each side of a contact use clean samples only.
PRE_GUARD = 0.45
POST_GUARD = 0.65


# The fastest a struck ball leaves: a break's cue ball, up to ~13 m/s (the fastest recorded
# ~14.6). Farther in a frame is not a ball moving (the tracker's search for a ball it lost; the
# events' test of a motion that leapt: `events._leapt`).
STRIKE_MAX_MM_S = 15000.0

LINE_FRAMES = 4.6  # frames of samples in a ball's line before a time (`Path.fit_before`)


def samples_over(fps: float, frames_at_60: int, least: int = 3) -> int:
    """How many samples span what `frames_at_60` frames span at 60 fps (at least `least`): an
    average over samples is over time, and at 30 fps five samples are a sixth of a second, over
    which a slow ball touching a cushion is averaged out of the touch."""
    return max(least, int(round(frames_at_60 * fps / 60.0)))


@dataclass
class Path:
    """One ball through one shot: samples (corrected time, raw frame time, centre, sigma), its
    rest position before the shot (None if it was not on the bed), the sample index at which each
    motion starts and stops, and how the track ended (None: still on the bed)."""
    name: str
    t: np.ndarray
    traw: np.ndarray
    xy: np.ndarray
    s: np.ndarray
    rest: np.ndarray | None
    motions: list  # [(start index, stop index or None)]
    ended: bool = False
    vanished: bool = False  # at rest, then unseen from the middle of the shot on (hit into a pocket unseen?)
    onsets: dict = None  # motion index → (onset time, its sigma), filled by extract()

    def rest_of(self, k: int) -> np.ndarray | None:
        """Where motion k started from: the rest before the shot, or the median of the samples
        at rest since the motion before. (Not the last sample before it: a ball nudged off slowly
        is seen to move late, millimetres on; seed 9004's 1, 5 mm on when it was.)"""
        a = self.motions[k][0]
        if k == 0:
            return self.rest
        if a == 0:
            return None
        b = self.motions[k - 1][1]
        return self.xy[a - 1] if b is None or b >= a else np.median(self.xy[b:a], axis=0)

    def start_of(self, k: int, t_on: float) -> np.ndarray | None:
        """Where motion k started, at its onset t_on: where it rested, else where it was then."""
        pos = self.rest_of(k)
        return pos if pos is not None else self.at(t_on)

    def first_onset(self) -> tuple[float, float] | None:
        """(time, sigma) of its earliest onset, or None before extract() timed any."""
        return min(self.onsets.values()) if self.onsets else None

    def motion_at(self, t: float, slack: float = 0.0) -> int | None:
        """The motion under way at time t (from its onset when known), or None."""
        for k, (a, b) in enumerate(self.motions):
            start = self.onsets[k][0] if self.onsets and k in self.onsets else self.t[a]
            end = self.t[b] + slack if b is not None else math.inf
            if start - slack <= t <= end:
                return k
        return None

    def fit_before(self, t: float, dt: float, frames: float = LINE_FRAMES) -> Fit | None:
        """The straight line of the ball's motion just before t: samples of the motion under way
        only, plus its rest position at its onset when that is within the window."""
        k = self.motion_at(t - 0.3 * dt)
        if k is None:
            return None
        a = self.motions[k][0]
        sel = (self.t < t - PRE_GUARD * dt) & (self.t >= t - frames * dt)
        sel[:a] = False
        ts, xy, s = self.t[sel], self.xy[sel], self.s[sel]
        if self.onsets and k in self.onsets and (k > 0 or self.rest is not None):
            t_on, e_on = self.onsets[k]
            if t_on >= t - frames * dt:
                rest = self.rest_of(k)
                if rest is not None:
                    ts = np.concatenate([[t_on], ts])
                    xy = np.concatenate([[rest], xy])
                    s = np.concatenate([[max(0.3, float(np.median(self.s)) * 0.5)], s])
        return fit_line(ts, xy, s, t)

    def at(self, t: float) -> np.ndarray | None:
        """Centre at time t: the rest position before the first motion, interpolated after."""
        if not self.motions:
            return self.rest
        if self.motions and self.rest is not None and t <= self.t[self.motions[0][0]]:
            return self.rest
        if len(self.t) == 0 or t < self.t[0] - 1e-9:
            return self.rest
        if self.ended and t > self.t[-1] + 0.05:
            return None
        return np.array([np.interp(t, self.t, self.xy[:, 0]), np.interp(t, self.t, self.xy[:, 1])])

    def moving_at(self, t: float, slack: float = 0.0) -> bool:
        return self.motion_at(t, slack) is not None

    def fit_after(self, t: float, dt: float, frames: float = 4.0) -> Fit | None:
        """The straight line of the samples just after t, clean of a contact at t."""
        sel = (self.t > t + POST_GUARD * dt) & (self.t <= t + (frames + POST_GUARD) * dt)
        return fit_line(self.t[sel], self.xy[sel], self.s[sel], t)


@dataclass
class Fit:
    """Weighted straight-line fit of positions against time about t_ref."""
    t_ref: float
    a: np.ndarray  # position at t_ref
    v: np.ndarray
    cov: np.ndarray  # 2x2 covariance of (a, v) per axis (same for x and y)

    def pos(self, t: float) -> np.ndarray:
        return self.a + self.v * (t - self.t_ref)

    def var(self, t: float) -> float:
        d = t - self.t_ref
        return float(self.cov[0, 0] + 2 * d * self.cov[0, 1] + d * d * self.cov[1, 1])

    def nearest(self, pos) -> float | None:
        """When the line passes closest to `pos` (unbounded); None for a line standing still."""
        vv = float(self.v @ self.v)
        return self.t_ref + float((np.asarray(pos, float) - self.a) @ self.v) / vv if vv > 0 else None


def fit_line(t: np.ndarray, xy: np.ndarray, s: np.ndarray, t_ref: float) -> Fit | None:
    """Weighted least squares of x and y against time (weights 1 / s², s at least 0.3 mm),
    about `t_ref`; None for fewer than two samples or all at one time. The 2 x 2 normal
    equations are solved in closed form over the samples as floats: a fit takes a few samples
    (a window of frames) and is made thousands of times a shot, where numpy's per-call cost
    was four times the arithmetic (43 against 10 us for five samples)."""
    n = len(t)
    if n < 2:
        return None
    tl, sl, pl = t.tolist(), s.tolist(), xy.tolist()
    sw = su = suu = bx0 = by0 = bx1 = by1 = 0.0
    for ti, si, (x, y) in zip(tl, sl, pl):
        u = ti - t_ref
        w = 1.0 / max(si, 0.3) ** 2
        wu = w * u
        sw += w
        su += wu
        suu += wu * u
        bx0 += w * x
        by0 += w * y
        bx1 += wu * x
        by1 += wu * y
    det = sw * suu - su * su
    if not det > 0.0 or max(tl) <= min(tl):
        return None
    ax, ay = (suu * bx0 - su * bx1) / det, (suu * by0 - su * by1) / det
    vx, vy = (sw * bx1 - su * bx0) / det, (sw * by1 - su * by0) / det
    chi2 = 0.0
    for ti, si, (x, y) in zip(tl, sl, pl):
        u = ti - t_ref
        chi2 += ((x - ax - vx * u) ** 2 + (y - ay - vy * u) ** 2) / max(si, 0.3) ** 2
    # Inflate by the scatter when the model does not fit (a curve, an unseen contact).
    k = max(1.0, chi2 / max(2 * n - 4, 1)) / det
    return Fit(t_ref, np.array([ax, ay]), np.array([vx, vy]), np.array([[suu * k, -su * k], [-su * k, sw * k]]))


def rest_fit(p: np.ndarray, sigma: float, t_ref: float) -> Fit:
    return Fit(t_ref, np.asarray(p, float), np.zeros(2), np.array([[sigma ** 2, 0.0], [0.0, 1e-6]]))


def kink(path: Path, t_guess: float, fps: float, window: int = 4, rest_before: bool = False,
         until: float = math.inf) -> tuple[float, float, Fit | None, Fit | None]:
    """Where the lines before and after a bend meet: (time, 1-sigma, fit before, fit after).
    The line after takes no sample from `until` on (the next contact's)."""
    dt = 1.0 / fps
    t_star, err, pre, post = t_guess, 0.5 * dt, None, None
    for _ in range(2):
        sel_post = (path.t > t_star + POST_GUARD * dt) & (path.t <= t_star + (window + POST_GUARD) * dt) & \
            (path.t < until)
        if rest_before and path.rest is not None:
            pre = rest_fit(path.rest, _rest_sigma(path), t_star)
        else:
            sel_pre = (path.t < t_star - PRE_GUARD * dt) & (path.t >= t_star - (window + PRE_GUARD) * dt)
            pre = fit_line(path.t[sel_pre], path.xy[sel_pre], path.s[sel_pre], t_star)
        post = fit_line(path.t[sel_post], path.xy[sel_post], path.s[sel_post], t_star)
        if pre is None or post is None:
            return t_star, err, pre, post
        meet = lines_meet(pre, post)
        if meet is None:
            return t_star, err, pre, post
        t_new, speed = meet
        if abs(t_new - t_guess) > 2.5 * dt:
            t_new = t_guess
        t_star = t_new
        err = math.sqrt(pre.var(t_star) + post.var(t_star)) / speed
    # A bend too slight to place (a graze, a creep) is somewhere in the window searched: not
    # seconds either side of it (which would make it simultaneous with everything).
    return t_star, min(max(err, 0.0005), 2.5 * dt), pre, post


def lines_meet(pre: Fit, post: Fit) -> tuple[float, float] | None:
    """Where a path's lines before and after a bend (fitted about one time) meet: (time, |Δv|),
    or None when they are parallel (no bend to place)."""
    da, dv = pre.a - post.a, pre.v - post.v
    nv = float(dv @ dv)
    if nv < 1e-6:
        return None
    return pre.t_ref - float(da @ dv) / nv, math.sqrt(nv)


def _rest_sigma(path: Path) -> float:
    if not path.motions:
        return 0.5
    k = path.motions[0][0]
    s = path.s[:k] if k > 0 else path.s[:1]
    n = max(len(s), 1)
    return float(np.median(s) / math.sqrt(n)) if len(s) else 0.5
