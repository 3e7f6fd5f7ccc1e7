"""Cushion contacts of one ball's path: where it comes to a cushion nose and turns back.

Called by `tracking/events.py` for each path. A fast bounce is timed where the lines before and
after it meet the rail; a slow one by the V of its distance from the rail (`_vee`); a ball that
starts against a cushion, touches one and stays, touches a jaw on its way into a pocket, or meets
a second cushion in a corner a frame or two after the first, each by its own rule below. One
contact per stay at a rail (`one_per_stay`).
"""
from __future__ import annotations

import math

import numpy as np

from cueref.table import Table
from tracking.paths import POST_GUARD, PRE_GUARD, Fit, Path, kink, samples_over
from tracking.tracker import REST_S


# `_vee`: a bounce under this speed into the rail is timed by its gap to it over VEE_FRAMES
# either side, when the V fits within VEE_CHI2 per sample; its 1-sigma is where the misfit rises
# by VEE_DCHI2.
VEE_MAX_MM_S, VEE_FRAMES, VEE_CHI2, VEE_DCHI2 = 300.0, 6.0, 3.0, 4.0


RAILS = {  # rail: (axis, nose value as a function of the table, inward normal)
    "head": (0, lambda tb: 0.0, np.array([1.0, 0.0])),
    "foot": (0, lambda tb: tb.L, np.array([-1.0, 0.0])),
    "left": (1, lambda tb: 0.0, np.array([0.0, 1.0])),
    "right": (1, lambda tb: tb.W, np.array([0.0, -1.0])),
}


def contacts(p: Path, table: Table, fps: float) -> list[dict]:
    dt = 1.0 / fps
    R = table.R
    out: list[dict] = []
    if len(p.t) < 4 or not p.motions:
        return out
    # Distance of the centre from the nearest cushion's face, per sample (in a pocket's mouth,
    # a jaw's: the nose line is open there).
    u = np.stack([table.cushion_gap(p.xy, r) for r in RAILS], 1) + R
    umin = u.min(axis=1)
    for i in range(1, len(p.t) - 1):
        if not (umin[i] <= umin[i - 1] and umin[i] <= umin[i + 1]):
            continue
        tol = 14.0 + 3.0 * float(p.s[i])
        # A fast ball is sampled tens of millimetres from the cushion it bounces off.
        step = max(float(np.hypot(*(p.xy[i] - p.xy[i - 1]))), float(np.hypot(*(p.xy[i + 1] - p.xy[i]))))
        if umin[i] > R + tol + step or not p.moving_at(float(p.t[i]), dt):
            continue
        t_guess = float(p.t[i])
        t_c, err, pre, post = kink(p, t_guess, fps)
        k = p.motion_at(t_c)
        t_on = p.onsets[k][0] if (k is not None and p.onsets and k in p.onsets) else -math.inf
        if t_on > t_c - (4 + PRE_GUARD) * dt:
            # Set moving just before (a ball hit near a cushion): the kink's line before mixes
            # the rest with the motion; the motion's own line starts at the rest at its onset.
            pre = p.fit_before(t_c, dt) or pre
        if pre is None:
            continue
        if post is None and p.ended and float(p.t[-1]) < t_c + (4 + POST_GUARD) * dt and _passes_into_pocket(p, i, umin, pre, R):
            continue
        moving_before = t_on <= t_c - (4 + PRE_GUARD) * dt
        # Where the lines meet must be at a cushion: moving toward a rail before, and not still
        # going into it after; a jaw counts for the rail whose cushion it ends.
        at = pre.pos(t_c)
        rails = sorted((float(table.cushion_gap(at, r)) + R, r) for r in RAILS)
        best = None
        for dist, r in rails:
            # (Or the sample nearest the rail is at it: at 30 fps a fast ball's bend, fitted over
            # lines that curve as its slide turns to roll after the bounce, may come out a frame
            # or two early, 50 mm short of the rail: seed 7004's cue ball at 2.9 m/s, its
            # sample 3.5 mm from the rail.)
            if dist > R + tol and float(table.cushion_gap(p.xy[i], r)) > tol:
                continue
            # The rail's normal, or in a pocket's mouth the jaw's, turned from it: a ball
            # crossing the mouth comes into the far jaw along the rail (seed 7011's cue ball,
            # 1.0 m/s along the right rail in the side pocket's mouth, turned back off its jaw).
            # The rail's is asked first: a ball running down a jaw's face into the pocket turns
            # off it only against the rail's (seed 8017's cue ball).
            normals = [RAILS[r][2]]
            face = table.cushion_normal(at, r)
            if float(face @ normals[0]) < math.cos(math.radians(10.0)):
                normals.append(face)
            bounce = next(((n, b) for n in normals
                           if (b := _bounce(p, table, r, pre, post, t_c, err, n, dist, dt, moving_before)) is not None), None)
            if bounce is not None:
                best, n_best, (t_c, err) = r, bounce[0], bounce[1]
                break
        # (The same rail twice is one contact: `one_per_stay`. Another rail within a few frames
        # is a corner: seed 7000's 4 meets the foot cushion and the right one 30 ms later;
        # `_corner_bounces`.)
        if best is None:
            continue
        if -float(pre.v @ n_best) < VEE_MAX_MM_S:
            vee = _vee(p, table, best, t_c, dt)
            if vee is not None:
                t_c, err = vee
        out.append({"t": t_c, "type": "cushion", "ball": p.name, "rail": best, "t_err": err})
    out += _bounce_at_start(p, table, fps, out)
    out += _jaw_on_the_way_in(p, table, fps, out)
    out += _rail_touches(p, table, fps, out)
    return out + _corner_bounces(p, u - R, dt, out)


def _bounce(p: Path, table: Table, r: str, pre: Fit, post: Fit | None, t_c: float, err: float, n: np.ndarray,
            dist: float, dt: float, moving_before: bool) -> tuple[float, float] | None:
    """Whether the bend at t_c (lines `pre` and `post`, `dist` from `r`'s face at the corner) is
    a bounce off `r`'s cushion along the normal `n` (the rail's, or a jaw's): (time, 1-sigma), or
    None."""
    R = table.R
    v_in = -float(pre.v @ n)
    v_out = float(post.v @ n) if post is not None else 0.0
    # The line in must reach the rail where the bend is (within its own sigmas and a frame and a
    # half of travel): one that only wanders near a rail is not a bounce.
    reach = dist - R <= 3.0 * math.sqrt(max(pre.var(t_c), 0.0)) + 1.5 * dt * max(v_in, 0.0) + 2.0
    into = v_in > 60.0 and v_out > -0.2 * v_in and reach and not _short_of_rail(p, table, r, t_c, dt, v_in, v_out)
    if float(n @ RAILS[r][2]) < 0.999:
        # Off a jaw, only a bounce seen leaving it: a slow ball creeping in a mouth turns along
        # the jaws' faces without one (seed 8011's 4, in at 72 mm/s, 7 mm/s back). One into the
        # pocket after may keep little of it (seed 8000's 4: 179 in, 39 out). Timed where the
        # line in meets the jaw's face.
        if not (into and v_in > 100.0 and v_out > max(20.0, 0.1 * v_in)):
            return None
        t_in = _meets_face(pre, table, r, t_c - 3.0 * dt, t_c + 3.0 * dt)
    elif not into:
        # No line in to time it by: the bend is the time.
        return _leaves_rail(pre, post, t_c, dt, n, moving_before)
    else:
        # The centre touches a cushion a radius from its nose: time it by the line coming in
        # (clean of the bounce, and of the friction that bends the line going out), unless that
        # disagrees with the corner (a jaw, not the nose).
        t_in = _at_jaw(pre, table, r, pre.t_ref + (_from_nose(pre.a, table, r) - R) / v_in, dt)
    if abs(t_in - t_c) <= 1.5 * dt:
        return t_in, math.sqrt(pre.var(t_in)) / v_in
    # The bend and the line in disagree: the bend's time, no surer than their difference. (Seed
    # 7000's 7, off the left cushion in a break: a noisy bend 45 ms on, the line in across the
    # bounce, kept its kink's 2 ms sigma and displaced the bounce in `one_per_stay`, 49 ms late.)
    return t_c, max(err, abs(t_in - t_c))


def _corner_bounces(p: Path, gaps: np.ndarray, dt: float, found: list[dict]) -> list[dict]:
    """Bounces the lines missed, each seen by three samples alone. In a corner a ball meets two
    cushions a frame or two apart (seed 7000's 4: the foot, the right 30 ms on, a ball 20 ms
    after that): the lines fitted about the second reach back over the first and place that one
    again, and a sample nearer the other rail may hide the second from the nearest-rail minima
    above. Per rail, each closest approach is asked of `_three_sample_bounce`."""
    out = []
    for j, rail in enumerate(RAILS):
        g = gaps[:, j]
        others = np.delete(gaps, j, axis=1).min(axis=1)
        for i in np.flatnonzero((g[1:-1] < g[:-2]) & (g[1:-1] < g[2:])) + 1:
            corner = (np.abs(p.t - p.t[i]) <= 3.0 * dt) & (others < 14.0 + 3.0 * p.s)
            if not corner.any():
                continue  # no other rail within three frames: the lines above see this one
            three = _three_sample_bounce(p, int(i), g, dt)
            # A rail already met within six frames: that contact seen again, or in a pocket's
            # mouth the jaws' angles making a turn off the other rail look like one off this one
            # (seed 9012's 2, into the foot and the right: a "foot" 7 ms after the right).
            if three is None or any(e["rail"] == rail and abs(e["t"] - three[0]) <= 6.0 * dt for e in found):
                continue
            out.append({"t": three[0], "type": "cushion", "ball": p.name, "rail": rail, "t_err": three[1]})
    return out


def _three_sample_bounce(p: Path, i: int, g: np.ndarray, dt: float) -> tuple[float, float] | None:
    """A fast bounce off a rail at sample i seen by three samples alone (a frame either side;
    `g`: each sample's gap to that rail): the gap falls to sample i and rises after it, each step
    well over the noise and a good part of the frame's travel (a ball running along a rail, its
    gap wavering with the noise, does not bounce). Timed from the step on the side that holds
    the contact: touching (gap 0) at the contact, the ball comes in at one speed and leaves no
    faster (a cushion takes speed, never gives it). (time, 1-sigma), or None."""
    if i < 1 or i + 1 >= len(p.t) or p.t[i] - p.t[i - 1] > 1.5 * dt or p.t[i + 1] - p.t[i] > 1.5 * dt:
        return None
    g0, g1, g2 = (float(g[j]) for j in (i - 1, i, i + 1))
    s = float(max(p.s[i - 1], p.s[i], p.s[i + 1]))
    t0, t1, t2 = (float(p.t[j]) for j in (i - 1, i, i + 1))
    d0, d2 = float(np.hypot(*(p.xy[i] - p.xy[i - 1]))), float(np.hypot(*(p.xy[i + 1] - p.xy[i])))
    if not (-s < g1 < 14.0 + 3.0 * s and g0 - g1 > max(3.0 * s, 6.0, 0.25 * d0)
            and g2 - g1 > max(3.0 * s, 6.0, 0.25 * d2)):
        return None
    g1 = max(g1, 0.0)
    best = None
    # The contact after sample i: in at (g0 - g1) per frame, out from it to sample i + 1.
    a = (g0 - g1) / (t1 - t0)
    tc = t1 + g1 / a
    if tc < t2 and g2 / (t2 - tc) <= a:
        best = tc
    # Or before it: out at (g2 - g1) per frame, in from sample i - 1. (Both, with sample i at
    # the rail: the one nearer it.)
    c = (g2 - g1) / (t2 - t1)
    tc2 = t1 - g1 / c
    if tc2 > t0 and g0 / (tc2 - t0) >= c and (best is None or c > a):
        best = tc2
    if best is None:
        return None
    return best, max(math.sqrt(2.0) * s / min(a, c), 0.25 * dt)


def _vee(p: Path, table: Table, rail: str, t_c: float, dt: float, span: float = 2.0) -> tuple[float, float] | None:
    """A slow ball's bounce timed by its distance from the rail over `VEE_FRAMES` either side:
    in, a line down to touching (gap 0) at the contact; out, a line up from it — a V whose point
    is known to be at the rail, so only its time and the two slopes are fitted (weighted least
    squares over a grid of times, 1-sigma where the misfit rises by `VEE_DCHI2`). At a few tens of
    mm/s a frame's travel is the noise's size: the lines' own crossing, each fitted from four
    samples, came out 20-60 ms early (the timing tail of the cushions: 130 of 185 contacts over a
    frame off, 7000-10019, were under 300 mm/s). (time, 1-sigma) within `span` frames of t_c (or,
    where the best is at the window's edge, of that edge, twice at most), or None where the V does
    not fit (another contact near, a ball along the rail)."""
    for _ in range(3):
        fit = _vee_fit(p, table, rail, t_c, dt, span)
        if fit is None or not fit[2]:
            return None if fit is None else fit[:2]
        # The best at the window's edge: the point is beyond it (seed 7014's 13: a noise minimum
        # 50 ms before its bounce off the head cushion gave the V's point two frames on, the
        # edge, with a sigma of a tenth of a frame; it was 18 ms early).
        t_c = fit[0]
    return fit[:2]


def _vee_fit(p: Path, table: Table, rail: str, t_c: float, dt: float, span: float) -> tuple[float, float, bool] | None:
    """`_vee`'s fit over one window: (time, 1-sigma, whether the time is at the window's edge)."""
    sel = np.abs(p.t - t_c) <= (VEE_FRAMES + span - 2.0) * dt + 1e-9
    if sel.sum() < 6:
        return None
    ts, g, w = p.t[sel], table.cushion_gap(p.xy[sel], rail), 1.0 / p.s[sel] ** 2
    grid = np.arange(t_c - span * dt, t_c + span * dt + 1e-9, dt / 40)
    # Every candidate time at once (as `_rail_arrival`): (candidates, samples).
    x = grid[:, None] - ts[None, :]
    pre = x > 0
    x1, x2 = np.where(pre, x, 0.0), np.where(pre, 0.0, -x)  # time to the point, in and out
    a = (w * x1 * g).sum(axis=1) / np.maximum((w * x1 * x1).sum(axis=1), 1e-12)
    c = (w * x2 * g).sum(axis=1) / np.maximum((w * x2 * x2).sum(axis=1), 1e-12)
    chi = (w * np.where(pre, g - a[:, None] * x1, g - c[:, None] * x2) ** 2).sum(axis=1)
    n_pre = pre.sum(axis=1)
    chi = np.where((n_pre >= 3) & (len(ts) - n_pre >= 3) & (a > 0) & (c > 0), chi, np.inf)
    j = int(np.argmin(chi))
    if not np.isfinite(chi[j]) or chi[j] > VEE_CHI2 * (len(ts) - 3):
        return None
    # 1-sigma where the misfit rises by VEE_DCHI2: by 1, the interval held the physics' contact
    # for 28 % of these bounces on 9000-9019 and 12000-12019 (68 % for a true sigma), 57 % within
    # two: the V is the model of a ball that slows, and slides off the cushion, not the ball (its
    # way out curves). By 4: 61 % and 96 %.
    within = grid[chi <= chi[j] + VEE_DCHI2]
    return float(grid[j]), max(0.5 * float(within[-1] - within[0]), 0.0005), j in (0, len(grid) - 1)


def _jaw_on_the_way_in(p: Path, table: Table, fps: float, found: list[dict]) -> list[dict]:
    """A ball that drops into a pocket a frame after it was last seen may touch a jaw on the way,
    with no sample after the touch to show it. Its last line, followed on, shows it: it reaches
    into a jaw's face (by more than the line's sigma there, at least 1.5 mm: the simulator's
    jaws are this table's to half a millimetre) before its centre is over the pocket's hole.
    Timed where the line meets the jaw. Seed 8002's 2 reaches 5 mm into the head jaw; seed
    10010's 5, 2.6 mm into the left one (sigma 2.4). (3 mm while the jaws differed by up to 6:
    seed 7017's cue ball, which touched none, reached 2.7 mm into a sharp tip.)"""
    dt = 1.0 / fps
    if not p.ended or len(p.t) < 3 or not p.moving_at(float(p.t[-1])):
        return []
    t_last = float(p.t[-1])
    pk = table.nearest_pocket(tuple(p.xy[-1]), 130.0)
    if pk is None or any(e["t"] >= t_last - 3 * dt for e in found):
        return []
    line = p.fit_before(t_last + 1.5 * dt, dt)
    if line is None or float(np.hypot(*line.v)) < 100.0:
        return []
    sig = math.sqrt(max(line.var(t_last + dt), 0.0))
    ts = t_last + np.linspace(0.0, 1.0, 21) * dt
    pos = line.a + np.outer(ts - line.t_ref, line.v)
    over = np.array([table.over_hole(tuple(x), pk) for x in pos])
    until = int(np.argmax(over)) if over.any() else len(ts)
    if until == 0:
        return []
    gaps = np.stack([table.cushion_gap(pos[:until], r) for r in RAILS], 1)
    k = np.unravel_index(int(np.argmin(gaps)), gaps.shape)
    if float(gaps[k]) > -max(1.5, sig):
        return []
    r = list(RAILS)[k[1]]
    j = int(np.argmax(gaps[:, k[1]] <= 0.0))
    return [{"t": float(ts[j]), "type": "cushion", "ball": p.name, "rail": r, "t_err": 0.5 * dt}]


def _at_jaw(line: Fit, table: Table, rail: str, t_nose: float, dt: float) -> float:
    """When a ball coming in along `line` touches `rail`'s cushion: `t_nose`, when it comes a
    radius from the nose line, unless the nose is open there (a pocket's mouth): then when it
    meets the jaw, up to three frames on (seed 7014's 1, into the head jaw of a corner pocket
    at 1.2 m/s, its centre 19 mm past the nose line when it touched: timed 21 ms early)."""
    if float(table.cushion_gap(line.pos(t_nose), rail)) <= 1.0:
        return t_nose
    if float(table.cushion_gap(line.pos(t_nose + 3.0 * dt), rail)) > 0.0:
        return t_nose  # (not a jaw it was heading into)
    return _meets_face(line, table, rail, t_nose, t_nose + 3.0 * dt)


def _meets_face(line: Fit, table: Table, rail: str, lo: float, hi: float) -> float:
    """When a ball coming in along `line` first touches `rail`'s cushion between lo and hi (the
    gap from its nearest face falls to zero), or lo and hi's middle where it is not clear at lo
    and touching at hi."""
    if float(table.cushion_gap(line.pos(lo), rail)) <= 0.0 or float(table.cushion_gap(line.pos(hi), rail)) > 0.0:
        return 0.5 * (lo + hi)
    for _ in range(20):
        mid = 0.5 * (lo + hi)
        if float(table.cushion_gap(line.pos(mid), rail)) > 0.0:
            lo = mid
        else:
            hi = mid
    return hi


def _from_nose(pos: np.ndarray, table: Table, rail: str) -> float:
    """How far a point is from a rail's nose line, inward (negative past it: a line traced back
    through a bounce, beyond the cushion it came off, is there before the bounce)."""
    ax, nose, n = RAILS[rail]
    return (float(pos[ax]) - nose(table)) * float(n[ax])


def _short_of_rail(p: Path, table: Table, rail: str, t_c: float, dt: float, v_in: float, v_out: float) -> bool:
    """The samples around a bend at `rail` all stayed clear of its nose by more than their noise
    (3 sigmas) and the travel of a frame toward or away from it (the nearest sample to a
    bounce is at most half a frame from it): the ball turned short of the cushion (a swerve, a
    slow ball stopping a few millimetres off it) and touched nothing. Seed 7015: the 9, at
    60 mm/s, stops 5 mm from the foot cushion (sigma 0.7 mm). Not near a pocket, where the
    jaws' faces are known less well (seed 13015's 4 bounced off a jaw 8 mm from ours)."""
    near = np.abs(p.t - t_c) <= 2.5 * dt
    if np.count_nonzero(near) < 2:
        return False
    here = p.at(t_c)
    if table.nearest_pocket(here if here is not None else p.xy[near][0], 200.0):
        return False
    gap = float(np.min(table.cushion_gap(p.xy[near], rail)))
    return gap > 3.0 * float(np.median(p.s[near])) + max(v_in, v_out, 0.0) * dt + 2.0


def _passes_into_pocket(p: Path, i: int, umin: np.ndarray, pre: Fit, R: float) -> bool:
    """A path that ends (in a pocket) right after its closest approach to a cushion at sample i,
    with no line after to show a bounce: it went in clean, unless its centre came within noise
    of a cushion's face (3 sigmas, at least 3 mm) or its last samples left the line it came in
    on (3 sigmas). Seed 7011: the 3 passes 10 mm from the side pocket's jaw and drops two frames
    later; a contact was recorded 36 ms before the pocket. (Seed 13015's 4 bounces off the head
    jaw, turned back in its last two sightings: a contact.)"""
    sig = max(3.0, 3.0 * float(p.s[i]))
    if float(umin[i:].min()) - R <= sig:
        return False
    for j in range(i + 1, len(p.t)):
        off = float(np.hypot(*(p.xy[j] - pre.pos(float(p.t[j])))))
        if off > 3.0 * math.sqrt(float(p.s[j]) ** 2 + max(pre.var(float(p.t[j])), 0.0)):
            return False
    return True


def one_per_stay(events: list[dict], by: dict[str, Path], table: Table, dt: float) -> list[dict]:
    """One cushion contact per stay at a rail. Two of one ball at one rail, its centre never clear
    of that rail between them (`_stayed`), are one contact found twice: a slow bounce's two noise
    minima (seed 7003, the cue ball at 75 mm/s, 55 ms apart), or a ball pushed into the rail and
    the bend after it (seed 7005, the 4, 21 ms apart). The better timed one (the smaller t_err)
    is kept. A ball cannot meet a rail again without leaving it first; one that rattles in a
    corner leaves each rail for the other."""
    drop: set[int] = set()
    groups: dict[tuple[str, str], list[dict]] = {}
    for e in events:
        if e["type"] == "cushion":
            groups.setdefault((e["ball"], e["rail"]), []).append(e)
    for (ball, rail), es in groups.items():
        p = by.get(ball)
        if p is None or len(es) < 2:
            continue
        es.sort(key=lambda e: e["t"])
        keep = es[0]
        for e in es[1:]:
            if not _stayed(p, table, rail, keep["t"], e["t"]) or not _one_face(p, table, rail, keep["t"], e["t"], dt):
                keep = e
                continue
            worse = e if e["t_err"] >= keep["t_err"] else keep
            drop.add(id(worse))
            keep = keep if worse is e else e
    return [e for e in events if id(e) not in drop]


def _one_face(p: Path, table: Table, rail: str, t1: float, t2: float, dt: float) -> bool:
    """Whether contacts at t1 and t2 were with one face of `rail`'s cushion (their normals within
    20 degrees). A ball in a pocket's mouth goes from one jaw to the other, each `rail`'s, in a
    few frames without leaving the rail: seed 7011's cue ball, off the side pocket's near jaw
    and its far one 69 ms apart. Where each met it: its line in at that time (a fast ball's
    samples are a frame's travel either side), which must be at the face (8 mm): a bend found in
    passing, 15 mm from a jaw's tip, is not a second face met (seed 7005's 9)."""
    at = []
    for t in (t1, t2):
        line = p.fit_before(t, dt)
        x = line.pos(t) if line is not None else p.at(t)
        if x is None or float(table.cushion_gap(x, rail)) > 8.0:
            return True
        at.append(x)
    return float(table.cushion_normal(at[0], rail) @ table.cushion_normal(at[1], rail)) > math.cos(math.radians(20.0))


def _stayed(p: Path, table: Table, rail: str, t1: float, t2: float, n: int = 5) -> bool:
    """Whether the ball's centre stayed at `rail` from t1 to t2: its distance from the nose,
    averaged over `n` samples, never more than a radius plus 3 of the average's sigmas (at least
    3 mm) between them. (A single sample is not enough: a ball leaving a rail at a glancing
    angle, 2 mm out, is one sigma from 3 mm; seed 11014's 10 was found touching it again.)"""
    between = (p.t > min(t1, t2)) & (p.t < max(t1, t2))
    if np.count_nonzero(between) < n:
        return True
    gap = np.convolve(table.cushion_gap(p.xy[between], rail), np.ones(n) / n, mode="valid")
    sig = np.convolve(p.s[between], np.ones(n) / n, mode="valid") / math.sqrt(n)
    return not bool((gap > np.maximum(3.0, 3.0 * sig)).any())


def _leaves_rail(pre: Fit, post: Fit | None, t_c: float, dt: float, n: np.ndarray,
                 moving_before: bool) -> tuple[float, float] | None:
    """A ball travelling along a cushion, pressed to it (coming in at a few mm/s: no line in to
    see), that bounces off it: the bend at the rail is the contact, (time, 1-sigma) where the
    lines before and after meet across the rail. It must have been travelling (a ball at rest
    there, hit away, is `_pushed_into_rail`'s), not been leaving the rail before, and leave it
    now clearly: the change of its speed across the rail 3 sigmas of the two lines' velocities
    (a bend of the noise along a rail is not a bounce). Seed 8008: the 2, 0.37 s along the left
    cushion at 300 mm/s, comes off it at 170 mm/s, pooltool's second contact, seen before only
    as a touch 0.2 s early."""
    if post is None or not moving_before or float(np.hypot(*pre.v)) < 100.0:
        return None
    v_in, v_out = -float(pre.v @ n), float(post.v @ n)
    sigma = math.sqrt(float(pre.cov[1, 1] + post.cov[1, 1]))
    if not (v_out > 60.0 and v_in > -0.2 * v_out and v_in + v_out > 3.0 * sigma):
        return None
    # Across the rail the lines are u_pre(t) = -v_in (t - t_pre) + u0 and u_post(t) = v_out (...):
    # where they meet is the bounce; a bend found frames away from it is another candidate's.
    t_x = post.t_ref + float((pre.pos(post.t_ref) - post.a) @ n) / (v_in + v_out)
    if abs(t_x - t_c) > 1.5 * dt:
        return None
    return t_x, max(math.sqrt(pre.var(t_x) + post.var(t_x)) / (v_in + v_out), 0.0005)


def _bounce_at_start(p: Path, table: Table, fps: float, found: list[dict]) -> list[dict]:
    """A ball set moving near a cushion (hit with it 40 mm away at 3 m/s) bounces off it a frame
    later, before a line in can be fitted (and its onset, fitted across the bounce, is late). Seen
    as: from its rest, its first samples reach a radius of the nose and the line after them leaves
    the rail. That line, traced back to a radius from the nose, times the bounce."""
    dt = 1.0 / fps
    R = table.R
    out: list[dict] = []
    for k, (a, _) in enumerate(p.motions):
        rest = p.rest_of(k)
        if rest is None:
            continue
        for j in range(a, min(a + 3, len(p.t))):
            tol = 14.0 + 3.0 * float(p.s[j])
            # The first sample may be a frame's travel off the rail already, the bounce between
            # the onset and it (at 30 fps: seed 7003's 6, struck 44 mm from the left cushion,
            # first seen 28 mm off it and leaving at 2 m/s). When is still checked: the line
            # after, traced back to the rail, must reach it before that sample.
            step = float(np.hypot(*(p.xy[j + 1] - p.xy[j]))) if j + 1 < len(p.t) else 0.0
            for r, (_, _, n) in RAILS.items():
                u_j = float(table.cushion_gap(p.xy[j], r)) + R
                # Not at this rail, or did not come to it from its rest (5 mm nearer: seed 7006's
                # 1, resting 14 mm out, is first seen 5.7 mm nearer, its blurred centre).
                if u_j > R + tol + step or float(table.cushion_gap(rest, r)) + R < u_j + 5.0:
                    continue
                post = p.fit_after(float(p.t[j]) - POST_GUARD * dt + 1e-6, dt)
                if post is None:
                    continue
                v_out = float(post.v @ n)
                if v_out < 60.0:
                    continue
                t_back = post.t_ref + (R - _from_nose(post.a, table, r)) / v_out
                if not float(p.t[a]) - 1.5 * dt <= t_back <= float(p.t[j]) + 0.5 * dt:
                    continue
                if any(e["rail"] == r and abs(e["t"] - t_back) < 3 * dt for e in found + out):
                    continue
                err = max(math.sqrt(max(post.var(t_back), 0.0)) / v_out, 0.5 * dt)
                if u_j > R + tol and err > dt:
                    continue  # (a frame's travel off, and traced back from a line too loose to time it)
                out.append({"t": t_back, "type": "cushion", "ball": p.name, "rail": r, "t_err": err})
            if out:
                break
    return out


def _rail_touches(p: Path, table: Table, fps: float, found: list[dict]) -> list[dict]:
    """A slow ball that comes to the cushion and rolls along it touches it without a bounce to
    see: its centre, averaged over a few frames, settles a radius from the nose after coming
    from farther out."""
    dt = 1.0 / fps
    R = table.R
    out: list[dict] = []
    if len(p.t) < 8:
        return out
    n = samples_over(fps, 5)
    kernel = np.ones(n) / n
    for r, (_, _, normal) in RAILS.items():
        u = table.cushion_gap(p.xy, r) + R  # (in a pocket's mouth, from a jaw)
        um = np.convolve(u, kernel, mode="valid")  # um[i] averages samples i .. i+n-1
        sig = float(np.median(p.s)) / math.sqrt(n)
        near = um <= R + max(2.0, 3.0 * sig)
        for i in np.flatnonzero(near[1:] & ~near[:-1]) + 1:
            j = i + n // 2
            t = float(p.t[j])
            # (Or in the rest test's window after it: a creeping ball is "still" while it
            # creeps the last millimetres to the nose; seed 12002's 1, at 20-50 mm/s. A roll
            # that ended in that window, however short: seed 9001's 9, a 0.16 s roll, creeping
            # on at 20 mm/s to touch the left cushion 0.16 s after the rest test stopped it.)
            if p.motion_at(t) is None and not _stopped_within(p, t, REST_S + 2 * dt):
                continue
            back = (p.t >= t - 0.5) & (p.t < t)
            if not back.any() or float(u[back].max()) < R + 8.0:
                continue  # it did not come from farther out
            if _over_rail(p, u - R, t):
                continue
            # (Found already: unless it left the rail since, seed 7003's 7 curving back to the
            # foot cushion 0.26 s after it came off it.)
            if any(e["rail"] == r and abs(e["t"] - t) < 0.3 and _stayed(p, table, r, e["t"], t) for e in found + out):
                continue
            fit = p.fit_before(t, dt, frames=10)
            t_c, err = t, 2 * dt
            if fit is not None:
                v_in = -float(fit.v @ normal)
                if v_in > 5.0:
                    t_in = fit.t_ref + (_from_nose(fit.a, table, r) - R) / v_in
                    if t - 0.5 <= t_in <= t + 3 * dt:
                        t_c, err = t_in, max(math.sqrt(fit.var(t_in)) / v_in, dt)
            # A creeping ball arrives later than a line or its first near average says (a ball
            # coming in at speed keeps the line's time).
            arrived = _rail_arrival(p, u - R, t, dt)
            if arrived is not None and arrived[0] > t_c + 3 * dt:
                t_c, err = arrived
            # One that comes off again bounced: the V of its distance from the rail times it.
            vee = _vee(p, table, r, t_c, dt, span=4.0)
            if vee is not None:
                t_c, err = vee[0], max(vee[1], 0.5 * err)
            out.append({"t": t_c, "type": "cushion", "ball": p.name, "rail": r, "t_err": err})
    return out


def _stopped_within(p: Path, t: float, within: float) -> bool:
    """A motion of p ended (at its stop sample, where `motion_at` ends it) in the `within` seconds
    up to t."""
    return any(b is not None and t - within <= float(p.t[b]) <= t for _, b in p.motions)


def _over_rail(p: Path, gap: np.ndarray, t: float, within: float = 0.2) -> bool:
    """The centre went 6 mm and 3 sigmas past the cushion's nose within `within`
    of t: no ball on the bed is there, so the ball was in the air over the rail, leaving the
    table, not settling against the cushion. Seed 8010: the 5, off the table, was said to touch
    the left cushion as it flew over it."""
    near = np.abs(p.t - t) <= within
    return bool(near.any() and (gap[near] < -(6.0 + 3.0 * p.s[near])).any())


def _rail_arrival(p: Path, gap: np.ndarray, t: float, dt: float, look: float = 0.4) -> tuple[float, float] | None:
    """When a slow ball coming to a cushion got there, from its gaps to the cushion (mm, per
    sample) within `look` of t (the frame its average came within noise of the cushion): the
    corner t_c of gap = g + v f + c f^2 before it (f = t_c - t: arriving at v, slowing) and
    gap = g after, fitted over t_c (quarter-frame steps) with (g, v, c) by weighted least
    squares, v and c not negative; (t_c, 1-sigma from where chi-square rises by 1, scaled by the
    fit's own scatter), or None. A creeping ball comes within noise of the cushion well before it
    touches it: seed 8015's 2, at 16 mm/s and slowing, is within 2 mm 0.13 s before its contact."""
    sel = (p.t >= t - look) & (p.t <= t + look)
    ts, g, w = p.t[sel], gap[sel], 1.0 / np.maximum(p.s[sel], 0.3) ** 2
    if len(ts) < 8:
        return None
    cand = np.arange(ts[0] + 2 * dt, ts[-1] - 2 * dt, 0.25 * dt)
    if not len(cand):
        return None
    f = np.maximum(cand[:, None] - ts[None, :], 0.0)  # (candidates, samples)
    basis = np.stack([np.ones_like(f), f, f * f], axis=2)  # (candidates, samples, 3)
    N = np.einsum("csi,s,csj->cij", basis, w, basis)
    rhs = np.einsum("csi,s,s->ci", basis, w, g)
    ok = np.abs(np.linalg.det(N)) > 1e-9
    N[~ok] = np.eye(3)
    coef = np.linalg.solve(N, rhs[..., None])[..., 0]
    chi2 = (w * (g[None, :] - np.einsum("csi,ci->cs", basis, coef)) ** 2).sum(axis=1)
    # Coming to it: 0.1 s before the corner at least half a millimetre farther out.
    came = coef[:, 1] * 0.1 + coef[:, 2] * 0.01 >= 0.5
    chi2 = np.where(ok & (coef[:, 1] >= 0.0) & (coef[:, 2] >= 0.0) & came, chi2, np.inf)
    i = int(np.argmin(chi2))
    if not math.isfinite(chi2[i]):
        return None
    scale = max(1.0, float(chi2[i]) / max(len(ts) - 4, 1))
    within = cand[chi2 <= chi2[i] + scale]
    return float(cand[i]), max(0.5 * float(within[-1] - within[0]), 0.5 * dt)
