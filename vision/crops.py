"""Ball crops: the classifier's input, cut the same way for training and at run time.

A crop is the square of half-size 1.25 ball radii around a centre, resized to 32×32. Training
crops come from rendered ground truth (synth/): every ball at least 80 % visible, plus "none"
crops at the locator's candidates that match no ball (a hand, the cue, a shadow's edge) so the
classifier can reject them. Layout as ultralytics' classifier wants it: ROOT/{train,val}/CLASS/*.png.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

CLASSES = ["cue"] + [str(n) for n in range(1, 16)] + ["none"]
SIZE = 32
HALF = 1.25  # crop half-size in ball radii


def cut(img: np.ndarray, u: float, v: float, r: float) -> np.ndarray | None:
    """The crop around (u, v) for a ball of apparent radius r (px), or None at the image edge."""
    s = HALF * r
    src = np.float32([[u - s, v - s], [u + s, v - s], [u - s, v + s]])
    dst = np.float32([[0, 0], [SIZE, 0], [0, SIZE]])
    if u - s < 0 or v - s < 0 or u + s >= img.shape[1] or v + s >= img.shape[0]:
        return None
    M = cv2.getAffineTransform(src, dst)
    # warpAffine has no area averaging: shrink a large crop with resize first, then place it.
    if s > SIZE:
        x0, y0 = int(np.floor(u - s)), int(np.floor(v - s))
        x1, y1 = int(np.ceil(u + s)) + 1, int(np.ceil(v + s)) + 1
        patch = img[y0:y1, x0:x1]
        f = SIZE / (2 * s)
        small = cv2.resize(patch, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        M = np.float32([[1, 0, -(u - s - x0) * f], [0, 1, -(v - s - y0) * f]])
        return cv2.warpAffine(small, M, (SIZE, SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.warpAffine(img, M, (SIZE, SIZE), flags=cv2.INTER_LINEAR)


def build(root: Path, seeds: range, *, frames_per_seed: int = 10, moving_per_shot: int = 0, val_every: int = 5,
          negatives_per_frame: int = 4, resolutions=((1920, 1080), (1280, 720)), rates=(60, 30),
          racks: range = range(0), progress=None) -> dict[str, int]:
    """Render games from `seeds` and write labelled crops; every `val_every`-th seed goes to val.

    Each clip gives `frames_per_seed` frames spread over its three shots (mostly balls at rest)
    and `moving_per_shot` frames in each shot's first half second, of which only the moving
    balls are cropped: a fast ball is a streak, its colour thinned by the cloth showing through
    (a yellow 1 rolling at 2 m/s at 30 fps reads as the cue ball to a classifier that saw only
    sharp balls), cropped at the streak's middle as the locator finds it. Clips alternate the
    resolutions and, every other pair, the frame `rates` (the exposure: a 30 fps frame's streak
    is twice a 60 fps one's). `negatives_per_frame` "none" crops a frame (twice that in the moving
    frames) at the locator's candidates off every ball's streak.

    `moving_per_shot=0` is the shipped model's recipe (models/README.md): frames spread over the
    shots only, at the first rate, each ball cropped at the truth's centre (the end of its
    exposure); the streaks, the other rates and the moving frames come with `moving_per_shot`.

    `racks`: more seeds, each a frame of its game's rack only, before the break: a ball frozen
    among six others shows only a little of its colour between theirs, and a clip of the spread
    frames has one such frame (a racked stripe in the middle was read as "none" or as its
    neighbour: models/README.md)."""
    from cueref.records import GAMES
    from cueref.table import Table
    from synth.clip import Scene, play
    from vision.calibrate import CalibrationError, auto
    from vision.locate import Locator

    T = Table()
    counts: dict[str, int] = {}
    streaked = moving_per_shot > 0
    rates_here = rates if streaked else rates[:1]
    todo = [(seed, False) for seed in seeds] + [(seed, True) for seed in racks]
    for k, (seed, rack) in enumerate(todo):
        split = "val" if k % val_every == val_every - 1 else "train"
        rng = np.random.default_rng(seed)
        game = str(rng.choice(GAMES))
        tl = play(game, 1 if rack else 3, seed)
        w, h = resolutions[k % len(resolutions)]
        fps = rates_here[(k // len(resolutions)) % len(rates_here)]
        scene = Scene(tl, w, h, seed, fps)
        start, end = tl.segments[0].t0 - 1.0, tl.segments[-1].end
        spread = [(float(t), False) for t in np.linspace(start, end, frames_per_seed)]
        moving = [(float(s.t0 + u), True) for s in tl.segments for u in rng.uniform(0.03, 0.5, moving_per_shot)]
        if rack:
            spread, moving = [(float(tl.segments[0].t0 - rng.uniform(0.2, 1.0)), False)], []
        loc = None
        for j, (t, only_moving) in enumerate(sorted(spread + moving)):
            img, _, truth = scene.frame(t)
            streaks = scene.streaks() if streaked else {b: np.array([v[:2]]) for b, v in truth.items()}
            centres = []
            for b, (u, v, x, y, hgt, vis) in truth.items():
                r = scene.renderer.ball_pixel((x, y), hgt)[1]
                centres.append((streaks[b], r))
                if b not in CLASSES or vis < 0.8 or (only_moving and len(streaks[b]) < 2):
                    continue
                c = streaks[b].mean(axis=0)
                jitter = rng.normal(0, 0.15 * r, 2)  # the locator is not exact: train for it
                crop = cut(img, c[0] + jitter[0], c[1] + jitter[1], r * rng.uniform(0.93, 1.07))
                if crop is not None:
                    _save(root, split, b, f"s{seed}_f{j}_{b}", crop, counts)
            if loc is None:
                try:
                    loc = Locator(auto(img, T))
                except CalibrationError:
                    loc = False
            if loc:
                # Not "none": a candidate anywhere along a ball's streak (a blurred ball's parts).
                stray = [cnd for cnd in loc.candidates(img)
                         if all(streak_gap(cnd.px, s) > 0.7 * r for s, r in centres)]
                # Twice as many in the moving frames: the arm, the bridge hand and the cue stick
                # are there, as long as a streak and as bright as a blurred cue ball.
                for i in rng.permutation(len(stray))[:negatives_per_frame * (2 if only_moving else 1)]:
                    cnd = stray[i]
                    crop = cut(img, cnd.px[0], cnd.px[1], cnd.radius_px)
                    if crop is not None:
                        _save(root, split, "none", f"s{seed}_f{j}_n{int(cnd.px[0])}_{int(cnd.px[1])}", crop, counts)
        if progress:
            progress("crops", k + 1, len(todo))
    return counts


def streak_gap(p: tuple[float, float], streak: np.ndarray) -> float:
    """Pixels from `p` to a streak (its samples joined by segments; one row: a point)."""
    from cueref.table import segment_distances

    if len(streak) == 1:
        return float(np.hypot(*(np.asarray(p, float) - streak[0])))
    return float(segment_distances(p, streak[:-1], streak[1:]).min())


def _save(root: Path, split: str, cls: str, name: str, crop: np.ndarray, counts: dict) -> None:
    d = root / split / cls
    d.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(d / f"{name}.png"), crop)
    counts[f"{split}/{cls}"] = counts.get(f"{split}/{cls}", 0) + 1
