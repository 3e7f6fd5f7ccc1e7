"""Benchmark of vision on held-out synthetic frames (seeds never used in training): detection
precision and recall, identification accuracy and confusion, centre error, calibration error and
frames per second, at 720p and 1080p, measured in one run.

Also each of `racks` games' rack before its break, seen alone: the balls frozen together, a
stripe in the middle showing little of its colour between its neighbours.

Two ways: single images (`frames` per clip spread over it, each seen alone: the detector is reset
before each), and a stream (the first `stream_s` seconds of the first `stream_clips` clips, every
frame at 60 fps: aiming, a break or shot, balls rolling and coming to rest), where the detector
shares work between successive frames; its frames per second are all frames over all the time.
The streams also give the balls blurred over a radius or more, matched along their streaks (at
60 fps and again at 30, whose exposure is twice as long): how many were found and named right.

And the automatic calibration over `cameras` random cameras and looks (seeds from 20000, a racked
table each): how often it fails, and its worst corner's error against the true nose corners."""
from __future__ import annotations

import statistics
import time
from collections import Counter

import numpy as np

HELD_OUT = 9000  # training uses seeds from 2000 (cueref train --seed); these are never used there


def _match(obs, truth, scene, T, errs, confusion=None):
    """Match observations to the rendered truth: (tp, fn, fp, right)."""
    tp = fn = right = 0
    used = set()
    for b, (u, v, x, y, hgt, vis) in truth.items():
        if b in ("left", "right"):
            continue
        r = scene.renderer.ball_pixel((x, y), hgt)[1]
        best = None
        for i, o in enumerate(obs):
            d = float(np.hypot(o.px[0] - u, o.px[1] - v))
            if i not in used and d < 0.6 * r and (best is None or d < best[0]):
                best = (d, i)
        if best is None:
            if vis >= 0.5:  # the floors count balls at least half visible
                fn += 1
            continue
        used.add(best[1])
        o = obs[best[1]]
        tp += 1
        if hgt <= T.R + 0.5:
            errs.append(float(np.hypot(o.mm[0] - x, o.mm[1] - y)))
        right += o.ball == b
        if o.ball != b and confusion is not None:
            confusion[(b, o.ball)] += 1
    return tp, fn, len(obs) - len(used), right


def _match_fast(obs, streaks, truth, scene):
    """The balls of a frame blurred over a radius or more (`Scene.streaks`): (how many, found:
    an observation within 0.6 radius of the streak, named: found with the ball's own name). The
    truth's centre is the end of the exposure, half a streak from where a locator finds a blurred
    ball, so `_match` counts these as missed; here they are matched along their streak."""
    from vision.crops import streak_gap

    n = found = named = 0
    for b, (u, v, x, y, hgt, vis) in truth.items():
        st = streaks.get(b)
        if b in ("left", "right") or st is None or len(st) < 2 or vis < 0.5:
            continue
        r = scene.renderer.ball_pixel((x, y), hgt)[1]
        if float(np.hypot(*(st[-1] - st[0]))) < r:
            continue
        n += 1
        gaps = [(streak_gap(o.px, st), o) for o in obs]
        near = [(g, o) for g, o in gaps if g < 0.6 * r]
        if near:
            found += 1
            named += min(near, key=lambda go: go[0])[1].ball == b
    return n, found, named


RACKS_SEED = HELD_OUT + 100  # the racks' own held-out seeds (after the clips')
CAMERAS_SEED = 20000  # the calibration survey's cameras (auto was tuned on 0-199 and 13000-13299)


def _racks(tls: list, w: int, h: int) -> dict:
    """Each game's rack alone, before its break (`tls`: (seed, game, timeline)): balls frozen
    among others, a stripe in the middle showing little of its colour. Recall, precision and
    identities over their balls, and how many racks came out whole (every ball found and named,
    nothing else)."""
    from cueref.table import Table
    from synth.clip import Scene
    from vision.calibrate import CalibrationError, auto
    from vision.detect import BallDetector

    T = Table()
    tp = fn = fp = right = whole = 0
    confusion: Counter = Counter()
    for s, game, tl in tls:
        scene = Scene(tl, w, h, s)
        t = tl.segments[0].t0 - 0.3
        try:
            cal = auto(scene.frame(t - 0.2)[0], T)
        except CalibrationError:
            fn += 15
            continue
        img, _, truth = scene.frame(t)
        a, b, c, d = _match(BallDetector(cal, game=game).observe(img), truth, scene, T, [], confusion)
        tp, fn, fp, right = tp + a, fn + b, fp + c, right + d
        whole += b == 0 and c == 0 and a == d
    return {"frames": len(tls), "balls": tp + fn, "recall": round(tp / (tp + fn), 4) if tp + fn else None,
            "precision": round(tp / (tp + fp), 4) if tp + fp else None,
            "id_accuracy": round(right / tp, 4) if tp else None, "whole": whole,
            "confusions": {f"{a}->{b}": v for (a, b), v in confusion.most_common(6)}}


def _cameras(n: int, seed: int = CAMERAS_SEED, size=(1920, 1080)) -> dict:
    """`auto` on `n` random cameras and looks (cloth, rail and floor colours, lighting, lens), each
    a racked table with the cue ball: how often it fails or is off, and the worst corner's error
    against the true nose corners (px)."""
    from cueref.table import Table
    from synth.clip import racked_still
    from vision.calibrate import CORNERS, CalibrationError, auto, corners_seen

    T = Table()
    errs, times, failed = [], [], []
    for s in range(seed, seed + n):
        img, cam = racked_still(s, T, *size)
        t0 = time.perf_counter()
        try:
            cal = auto(img, T)
        except CalibrationError as e:
            failed.append({"seed": s, "error": str(e)})
            continue
        times.append(time.perf_counter() - t0)
        truth = corners_seen(cam, T)
        errs.append((max(float(np.hypot(*np.subtract(cal.corners_px[c], truth[c]))) for c in CORNERS), s))
    e = np.array([x for x, _ in errs])
    return {"cameras": n, "seeds": [seed, seed + n - 1], "failed": failed,
            "corner_err_median_px": round(float(np.median(e)), 3) if len(e) else None,
            "corner_err_p95_px": round(float(np.percentile(e, 95)), 3) if len(e) else None,
            "over_1px": int((e > 1).sum()), "over_3px": int((e > 3).sum()),
            "worst": [{"seed": s, "px": round(x, 2)} for x, s in sorted(errs)[-3:]],
            "seconds_median": round(statistics.median(times), 3) if times else None}


def run(resolutions=("720p", "1080p"), clips: int = 6, frames: int = 8, seed: int = HELD_OUT,
        stream_clips: int = 2, stream_s: float = 10.0, stream_rates=(60, 30), racks: int = 20,
        cameras: int = 100) -> dict:
    from cueref.records import GAMES
    from cueref.table import Table
    from synth.clip import RESOLUTIONS, Scene, play
    from vision.calibrate import CalibrationError, auto
    from vision.detect import BallDetector

    T = Table()
    rows = []
    rack_games = []
    for k in range(racks):
        s = RACKS_SEED + k
        game = str(np.random.default_rng(s).choice(GAMES))
        rack_games.append((s, game, play(game, 1, s)))
    for res in resolutions:
        w, h = RESOLUTIONS[res]
        tp = fn = fp = 0
        right = 0
        confusion: Counter = Counter()
        errs, cal_err, times = [], [], []
        s_tp = s_fn = s_fp = s_right = s_n = 0
        s_time, s_errs = 0.0, []
        fast = {fps: [0, 0, 0] for fps in stream_rates}  # blurred balls: how many, found, named
        for k in range(clips):
            s = seed + k
            rng = np.random.default_rng(s)
            game = str(rng.choice(GAMES))
            tl = play(game, 3, s)
            scene = Scene(tl, w, h, s)
            cam = scene.camera
            t_first = tl.segments[0].t0 - 0.5
            try:
                cal = auto(scene.frame(t_first)[0], T)
            except CalibrationError:
                fn += 16 * frames
                continue
            grid = np.stack([g.ravel() for g in np.meshgrid(np.linspace(100, T.L - 100, 8),
                                                            np.linspace(100, T.W - 100, 4))], 1)
            px = cam.project(np.hstack([grid, np.full((len(grid), 1), T.R)]))
            cal_err.append(float(np.median(np.hypot(*(cal.to_table(px) - grid).T))))
            det = BallDetector(cal, game=game)
            for t in np.linspace(t_first, tl.segments[-1].end, frames):
                img, _, truth = scene.frame(float(t))
                det.reset()  # each image alone
                t0 = time.perf_counter()
                obs = det.observe(img)
                times.append(time.perf_counter() - t0)
                a, b, c, d = _match(obs, truth, scene, T, errs, confusion)
                tp, fn, fp, right = tp + a, fn + b, fp + c, right + d
            for fps in stream_rates if k < stream_clips else ():
                # The first rate's stream is the one of the table's figures; every rate's gives
                # the blurred balls' (a 30 fps frame's exposure is twice a 60 fps one's).
                stream = Scene(tl, w, h, s, fps=fps)
                det.reset()
                for j in range(int(stream_s * fps)):
                    img, _, truth = stream.frame(j / fps)
                    t0 = time.perf_counter()
                    obs = det.observe(img, j, j / fps)
                    dt = time.perf_counter() - t0
                    fast[fps] = [a + b for a, b in zip(fast[fps], _match_fast(obs, stream.streaks(), truth, stream))]
                    if fps != stream_rates[0]:
                        continue
                    s_time += dt
                    a, b, c, d = _match(obs, truth, stream, T, s_errs)
                    s_tp, s_fn, s_fp, s_right, s_n = s_tp + a, s_fn + b, s_fp + c, s_right + d, s_n + 1
        n = tp + fn
        rows.append({
            "resolution": res, "balls": n, "recall": round(tp / n, 4) if n else None,
            "precision": round(tp / (tp + fp), 4) if tp + fp else None,
            "id_accuracy": round(right / tp, 4) if tp else None,
            "centre_err_median_mm": round(float(np.median(errs)), 2) if errs else None,
            "centre_err_p95_mm": round(float(np.percentile(errs, 95)), 2) if errs else None,
            "calibration_err_median_mm": round(statistics.median(cal_err), 2) if cal_err else None,
            "fps": round(1.0 / statistics.median(times), 1) if times else None,
            "confusions": {f"{a}->{b}": v for (a, b), v in confusion.most_common(8)},
            "stream": {
                "frames": s_n,
                "recall": round(s_tp / (s_tp + s_fn), 4) if s_tp + s_fn else None,
                "precision": round(s_tp / (s_tp + s_fp), 4) if s_tp + s_fp else None,
                "id_accuracy": round(s_right / s_tp, 4) if s_tp else None,
                "centre_err_median_mm": round(float(np.median(s_errs)), 2) if s_errs else None,
                "centre_err_p95_mm": round(float(np.percentile(s_errs, 95)), 2) if s_errs else None,
                "fps": round(s_n / s_time, 1) if s_time else None,
                "blurred": {str(fps): {"balls": n_, "found": round(f_ / n_, 4) if n_ else None,
                                       "named": round(i_ / f_, 4) if f_ else None}
                            for fps, (n_, f_, i_) in fast.items()},
            },
            "racks": _racks(rack_games, w, h) if rack_games else None,
        })
    return {"benchmark": "vision", "held_out_seeds": [seed, seed + clips - 1], "frames_per_clip": frames,
            "racks": {"seeds": [RACKS_SEED, RACKS_SEED + racks - 1], "count": racks},
            "stream": {"clips": min(stream_clips, clips), "seconds": stream_s, "fps": 60}, "rows": rows,
            "calibration": _cameras(cameras) if cameras else None}


def table(result: dict) -> str:
    head = f"{'res':>6} {'balls':>6} {'recall':>7} {'prec':>7} {'id acc':>7} {'err med':>8} {'err p95':>8} {'calib':>6} {'fps':>6}"
    lines = [head]
    for r in result["rows"]:
        lines.append(f"{r['resolution']:>6} {r['balls']:>6} {r['recall']:>7} {r['precision']:>7} {r['id_accuracy']:>7} "
                     f"{r['centre_err_median_mm']:>8} {r['centre_err_p95_mm']:>8} {r['calibration_err_median_mm']:>6} {r['fps']:>6}")
        st = r.get("stream") or {}
        if st.get("frames"):
            lines.append(f"{r['resolution'] + ' stream':>13} {st['recall']:>7} {st['precision']:>7} {st['id_accuracy']:>7} "
                         f"{st['centre_err_median_mm']:>8} {st['centre_err_p95_mm']:>8} {'':>6} {st['fps']:>6}"
                         f"   ({st['frames']} successive frames)")
        for fps, bl in (st.get("blurred") or {}).items():
            if bl["balls"]:
                lines.append(f"{r['resolution'] + ' blurred':>13} {fps} fps stream: {bl['balls']} balls blurred over a radius or "
                             f"more, found {bl['found']}, named right {bl['named']} of those found")
        rk = r.get("racks")
        if rk and rk["balls"]:
            lines.append(f"{r['resolution'] + ' racks':>13} {rk['recall']:>7} {rk['precision']:>7} {rk['id_accuracy']:>7}"
                         f"   ({rk['frames']} racks before the break, each alone: {rk['balls']} balls, "
                         f"{rk['whole']} racks whole)" + (("; confused " + ", ".join(f"{k} x{v}" for k, v in
                                                                                     rk["confusions"].items()))
                                                         if rk["confusions"] else ""))
        if r["confusions"]:
            lines.append("        most confused (truth->said): " + ", ".join(f"{k} x{v}" for k, v in r["confusions"].items()))
    c = result.get("calibration")
    if c:
        lines.append(f"calibration, {c['cameras']} random cameras and looks at 1080p (seeds {c['seeds'][0]}-{c['seeds'][1]}): "
                     f"{len(c['failed'])} failed, worst corner's error median {c['corner_err_median_px']} px, "
                     f"p95 {c['corner_err_p95_px']} px, {c['over_1px']} over 1 px, {c['over_3px']} over 3 px; "
                     f"auto {c['seconds_median']} s median")
    return "\n".join(lines)
