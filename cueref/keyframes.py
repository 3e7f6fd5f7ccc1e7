"""Key frames: the pictures around a contact, cropped, as evidence beside a call.

A review cannot keep a match's frames, and a shot's record is complete only seconds after its
first contact. `CueCrops` keeps, for the last `keep_s` seconds, a small crop around the cue ball
of every frame (a 1080p crop is ~100 kB; 20 s at 60 fps is ~120 MB at most), which is where a
shot's first contact happens. `strip()` lays crops side by side with their frame numbers.
"""
from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np

from cueref.records import first_contact_event


def crop(img: np.ndarray, centre_px, half: int, out: np.ndarray | None = None) -> np.ndarray:
    """A (2·half)² window of `img` centred on `centre_px`, padded black past the edges; written
    into `out` (of that shape) when given."""
    h, w = img.shape[:2]
    cx, cy = int(round(centre_px[0])), int(round(centre_px[1]))
    if out is None:
        out = np.empty((2 * half, 2 * half, 3), np.uint8)
    x0, y0 = cx - half, cy - half
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + 2 * half, w), min(y0 + 2 * half, h)
    if (xa, ya, xb, yb) != (x0, y0, x0 + 2 * half, y0 + 2 * half):
        out[:] = 0  # (only a window past the picture's edge has anything to pad)
    if xa < xb and ya < yb:
        out[ya - y0:yb - y0, xa - x0:xb - x0] = img[ya:yb, xa:xb]
    return out


def strip(crops: list[tuple[str, np.ndarray]], height: int = 200) -> np.ndarray:
    """Crops side by side, each scaled to `height` and captioned."""
    import cv2

    tiles = []
    for caption, c in crops:
        s = height / c.shape[0]
        tile = cv2.resize(c, (int(round(c.shape[1] * s)), height), interpolation=cv2.INTER_CUBIC)
        cv2.rectangle(tile, (0, 0), (tile.shape[1], 18), (0, 0, 0), -1)
        cv2.putText(tile, caption, (4, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (255, 255, 255), 1, cv2.LINE_AA)
        tiles.append(tile)
        tiles.append(np.full((height, 3, 3), 255, np.uint8))
    return np.hstack(tiles[:-1]) if tiles else np.zeros((height, height, 3), np.uint8)


class CueCrops:
    """Per frame, a crop around the cue ball (the surest 'cue' observation), for `keep_s`."""

    def __init__(self, ball_radius_px: float, fps: float, keep_s: float = 20.0):
        self.half = int(math.ceil(5.0 * ball_radius_px))
        self.keep = max(1, int(keep_s * fps))
        self.fps = fps
        self.crops: OrderedDict[int, np.ndarray] = OrderedDict()
        self.seen: set[int] = set()  # the frames whose crop is centred on a cue ball seen there
        self._last = None

    def add(self, k: int, img: np.ndarray, observations) -> None:
        cues = [o for o in observations if o.ball == "cue"]
        if cues:
            best = max(cues, key=lambda o: o.probs.get("cue", 0.0))
            self._last = best.px
            self.seen.add(k)
        if self._last is None:
            return
        # The oldest crop's array takes the new one once `keep` are held: a new ~100 kB array a
        # frame (zeroed, then filled) cost the review's thread ~0.15 ms a frame at 1080p.
        reuse = None
        while len(self.crops) >= self.keep:
            old, reuse = self.crops.popitem(last=False)
            self.seen.discard(old)
        self.crops[k] = crop(img, self._last, self.half, reuse)

    def contact_strip(self, rec: dict) -> np.ndarray | None:
        """The frames before, at and after the first contact of a shot, or None (no contact, or
        its frames already dropped)."""
        e = first_contact_event(rec)
        if e is None:
            return None
        tc = rec["t0"] + e["t"]
        k = int(math.floor(tc * self.fps))
        # The contact falls between frames k and k + 1: two frames either side; those where the
        # cue ball was not seen (a break's streak) left for the next in which it is, not a crop
        # of where it last rested.
        want = [j for j in (k - 1, k, k + 1, k + 2) if j in self.seen]
        later = (j for j in range(k + 3, k + 3 + int(self.fps)) if j in self.seen)
        want += [j for _, j in zip(range(4 - len(want)), later)]
        picked = [(f"frame {j}", self.crops[j]) for j in want if j in self.crops]
        if not picked:
            return None
        return strip(picked)
