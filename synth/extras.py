"""What pooltool does not model, added with simple, documented physics.

- Jump (2.9): the cue ball leaves the bed on a parabola over a blocking ball and lands beyond it.
  pooltool simulates the shot without the blocker; the jump is kept only if no other ball's path
  goes through the blocker's spot. Clean: no contact. Clipped: the cue ball grazes the blocker in
  the air (a collision at the pass) and the blocker slides a few centimetres.
- Disturbed ball (3.6, VN 88): a ball no contact reaches slides 20–60 mm, decelerating uniformly
  over 0.25 s, as if brushed by a hand or the cue.
- Ball off the table (2.6, 3.5): a ball that meets a cushion fast keeps its incoming velocity,
  rises over the rail on a parabola and is gone once past the rail's outer edge.
Each function edits a `ShotSim` in place and returns True, or returns False (leaving it
unchanged) when the shot offers no physically consistent way to do it.
"""
from __future__ import annotations

import math

import numpy as np

from cueref.table import Table
from synth.physics import BallTrack, ShotSim

G = 9810.0  # mm/s²
RAIL_OUTER_MM = 130.0


def _speed(tr: BallTrack, i: int) -> np.ndarray:
    j = max(i - 1, 0)
    k = min(i + 1, len(tr.t) - 1)
    dt = tr.t[k] - tr.t[j]
    return (tr.xy[k] - tr.xy[j]) / dt if dt > 0 else np.zeros(2)


def _clear_of(sim: ShotSim, point, radius: float, skip: set[str], window=None) -> bool:
    for b, tr in sim.tracks.items():
        if b in skip:
            continue
        d = np.hypot(tr.xy[:, 0] - point[0], tr.xy[:, 1] - point[1])
        sel = tr.on_table.copy()
        if window is not None:
            sel &= (tr.t >= window[0]) & (tr.t <= window[1])
        if np.any(d[sel] < radius):
            return False
    return True


def add_jump(sim: ShotSim, table: Table, blocker: str, blocker_at, clipped: bool, rng) -> bool:
    """`sim` was simulated without `blocker` (resting at `blocker_at`); make the cue ball fly over it.

    The flight starts at the strike and is a parabola whose top is over the blocker; it is kept
    only if, in 3-D, the cue ball clears the blocker (clean) or grazes it (clipped) and nothing
    else happens to the cue ball in the air (no other contact, no cushion)."""
    cue = sim.tracks["cue"]
    D = table.ball_diameter_mm
    d = np.hypot(cue.xy[:, 0] - blocker_at[0], cue.xy[:, 1] - blocker_at[1])
    i = int(np.argmin(d))
    if d[i] > D * 0.9 or i == 0:
        return False
    t_up = 0.005
    t_pass = float(cue.t[i])
    t_land = t_up + 2 * (t_pass - t_up)
    if t_pass > 0.3:
        return False  # a jump clears a ball close to the cue ball, not one far down the table
    # Nobody else may pass through the blocker's spot, and the cue ball meets nothing in the air.
    if not _clear_of(sim, blocker_at, D, skip={"cue", blocker}):
        return False
    if any(t_up < e["t"] <= t_land and (e.get("ball") == "cue" or "cue" in (e.get("balls") or []))
           and e["type"] in ("collision", "cushion", "pocket") for e in sim.events):
        return False
    # Height at the pass: clean clears the blocker's top (centre-to-centre ≥ D, with 5 mm to spare);
    # clipped passes 8 mm lower than contact, so the balls touch.
    horiz = float(d[i])
    need = math.sqrt(max(D * D - horiz * horiz, 0.0))
    peak = table.R + need + (5.0 if not clipped else -8.0)
    s = np.clip((cue.t - t_up) / (t_land - t_up), 0, 1)
    flying = (cue.t >= t_up) & (cue.t <= t_land)
    cue.h = table.R + (peak - table.R) * 4 * s * (1 - s) * flying
    sep = np.sqrt((cue.xy[:, 0] - blocker_at[0]) ** 2 + (cue.xy[:, 1] - blocker_at[1]) ** 2
                  + (cue.h - table.R) ** 2)
    if not clipped and sep.min() < D + 1.0:
        return False
    n = len(cue.t)
    bt = BallTrack(t=cue.t.copy(), xy=np.tile(np.asarray(blocker_at, float), (n, 1)), h=np.full(n, table.R),
                   w=np.zeros((n, 3)), on_table=np.ones(n, bool))
    events = list(sim.events)
    events.append({"t": round(t_up, 4), "type": "airborne", "ball": "cue", "until": round(t_land, 4)})
    if clipped:
        t_touch = float(cue.t[int(np.argmin(sep))])
        events.append({"t": round(t_touch, 4), "type": "collision", "balls": ["cue", blocker], "t_err": 0.002})
        direction = _speed(cue, i)
        direction = direction / (np.linalg.norm(direction) or 1.0)
        _slide(bt, t_touch, direction * float(rng.uniform(30, 70)), 0.4)
        # The blocker's new spot must stay clear of the cue ball after it lands.
        if not _clear_of_track(cue, tuple(bt.xy[-1]), D, after=t_land):
            return False
    elif not _clear_of_track(cue, blocker_at, D, after=t_land):
        return False
    sim.tracks[blocker] = bt
    sim.before[blocker] = tuple(blocker_at)
    sim.after[blocker] = tuple(map(float, bt.xy[-1]))
    sim.events = sorted(events, key=lambda e: e["t"])
    return True


def _clear_of_track(tr: BallTrack, point, radius, after: float) -> bool:
    sel = tr.t >= after
    d = np.hypot(tr.xy[sel, 0] - point[0], tr.xy[sel, 1] - point[1])
    return not np.any(d < radius)


def _slide(tr: BallTrack, t0: float, disp: np.ndarray, dur: float) -> None:
    """Move a resting ball by `disp` (mm) from time t0, decelerating uniformly over `dur` s."""
    s = np.clip((tr.t - t0) / dur, 0, 1)
    frac = 1 - (1 - s) ** 2
    start = tr.xy[np.searchsorted(tr.t, t0)].copy()
    tr.xy = tr.xy.copy()
    moving = tr.t >= t0
    tr.xy[moving] = start + frac[moving, None] * disp[None, :]


def add_disturbed(sim: ShotSim, table: Table, rng) -> bool:
    """A ball that nothing touches in this shot slides a little, with no contact to explain it."""
    touched = set()
    for e in sim.events:
        touched.update([e.get("ball")] if e.get("ball") else [])
        touched.update(e.get("balls") or [])
    idle = [b for b in sim.tracks if b not in touched and b != "cue"]
    rng.shuffle(idle)
    for b in idle:
        tr = sim.tracks[b]
        t0 = float(rng.uniform(0.2, max(0.3, sim.duration * 0.6)))
        ang = float(rng.uniform(0, 2 * math.pi))
        disp = np.array([math.cos(ang), math.sin(ang)]) * float(rng.uniform(20, 60))
        end = np.asarray(sim.after[b]) + disp
        if not table.on_bed(tuple(end)):
            continue
        # The new resting place must stay clear of every other ball's path after t0.
        ok = all(_clear_of_track(o, end, table.ball_diameter_mm + 1, after=t0) and
                 _clear_of_track(o, tuple((np.asarray(sim.after[b]) + end) / 2), table.ball_diameter_mm + 1, after=t0)
                 for k, o in sim.tracks.items() if k != b)
        if not ok:
            continue
        _slide(tr, t0, disp, 0.25)
        sim.after[b] = tuple(map(float, tr.xy[-1]))
        sim.events.append({"t": round(t0, 4), "type": "disturbed", "ball": b})
        sim.events.sort(key=lambda e: e["t"])
        return True
    return False


def add_off_table(sim: ShotSim, table: Table, rng) -> bool:
    """An object ball that hits a cushion fast, and that nothing touches afterwards, jumps the rail."""
    return _off_table(sim, table, rng, objects_only=True)


def add_off_table_any(sim: ShotSim, table: Table, rng) -> bool:
    """The same for any ball, the cue ball included (a lag ball is simulated as pooltool's cue ball)."""
    return _off_table(sim, table, rng, objects_only=False)


def _off_table(sim: ShotSim, table: Table, rng, objects_only: bool) -> bool:
    cands = []
    for idx, e in enumerate(sim.events):
        if e["type"] != "cushion" or (objects_only and e["ball"] == "cue"):
            continue
        b, t = e["ball"], e["t"]
        later = [x for x in sim.events[idx + 1:] if x["type"] in ("collision", "pocket") and
                 (x.get("ball") == b or b in (x.get("balls") or []))]
        if later:
            continue
        tr = sim.tracks[b]
        i = max(int(np.searchsorted(tr.t, t)) - 3, 0)
        v = _speed(tr, i)
        if np.linalg.norm(v) > 1200.0:
            cands.append((b, t, i, v))
    if not cands:
        return False
    b, t, i, v = cands[int(rng.integers(len(cands)))]
    tr = sim.tracks[b]
    # Work on copies: the sim changes only if the ball really clears the rail.
    start = tr.xy[i].copy()
    t_start = float(tr.t[i])
    after = tr.t > t_start
    dt = tr.t[after] - t_start
    xy = tr.xy.copy()
    xy[after] = start + dt[:, None] * v[None, :]
    vz = 1400.0  # mm/s upward: enough to clear the rail cap
    h = tr.h.copy()
    h[after] = table.R + vz * dt - 0.5 * G * dt * dt
    outside = ((xy[:, 0] < -RAIL_OUTER_MM) | (xy[:, 0] > table.length_mm + RAIL_OUTER_MM) |
               (xy[:, 1] < -RAIL_OUTER_MM) | (xy[:, 1] > table.width_mm + RAIL_OUTER_MM))
    gone = int(np.argmax(outside & after))
    if not outside[gone] or h[gone] < table.R + 10.0 or np.any(h[after][: max(gone - int(np.argmax(after)), 0)] < table.R):
        return False  # it would not clear the rail: no ball off the table on this shot
    t_gone = float(tr.t[gone])
    on = tr.on_table.copy()
    on[gone:] = False
    h[gone:] = h[gone - 1]
    tr.xy, tr.h, tr.on_table = xy, h, on
    tr.gone_at, tr.gone_how = t_gone, "off_table"
    sim.events = [e for e in sim.events if not (e["t"] >= t - 1e-9 and
                                                  (e.get("ball") == b or b in (e.get("balls") or []))
                                                  and e["type"] != "stop")]
    sim.events.append({"t": round(t_gone, 4), "type": "off_table", "ball": b})
    sim.events.sort(key=lambda e: e["t"])
    sim.after.pop(b, None)
    return True
