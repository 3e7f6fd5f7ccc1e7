"""One shot's ball paths → the contract's events, each timed from the raw observations.

A contact is where a path bends: the line fitted to the observations before it and the line fitted
to those after it meet at the contact time (a ball at rest is a line of zero speed). Fitting raw
samples on both sides, not a smoothed track, keeps the corner sharp; the fits' covariances give each
time its uncertainty `t_err`, which the adjudicator uses for the benefit of the doubt (WPA 3.2).

- strike: the cue ball (or a lag ball) leaves its rest position and nothing touched it;
- collision: a ball starts from rest with a moving (or starting) ball within a diameter of it, or
  two moving balls come within a diameter and both change velocity there;
- cushion: a path comes within a radius of a cushion nose, moving toward it, and turns back;
- pocket / off_table: a path that ends near a pocket / beyond a cushion nose;
- cross: a centre crosses the head string or the long string (interpolated between samples);
- airborne: the cue ball's path passes over a resting ball (closer than a diameter) without
  touching it, or while the ball it passes over starts (a clipped jump);
- disturbed: a ball starts from rest with no ball near it.
"""
from __future__ import annotations

import math

import numpy as np

from cueref.table import Table, segment_distances
from tracking.cushions import RAILS, contacts, one_per_stay
from tracking.paths import (LINE_FRAMES, POST_GUARD, PRE_GUARD, STRIKE_MAX_MM_S, Fit, Path, fit_line, kink,
                            lines_meet, rest_fit)


# A ball "disturbed" that ends the shot within this of where it rested did not measurably move:
# its motion was the detector's (a hand or the cue over it, a pocket's shadow on its rim), and
# Reg 25 gives the shooter the benefit of the doubt. A touched ball in the generated shots moves
# 20-60 mm.
DISTURB_MIN_MM = 5.0
# `_unseen_start`: more frames than this with no sighting between a ball's rest and its first
# moving one (a frame or two missed is the kink's to time, which it does better: tracing a slow
# ball's line back over two frames misses its slowing by tens of milliseconds); and
# the most a sliding ball slows meanwhile (μ 0.2 and more: 2 m/s² and more; the line traced back
# may be off by half of it times the gap squared).
UNSEEN_GAP_FRAMES = 3.5
UNSEEN_DECEL_MM_S2 = 5000.0
VANISHED_S = 0.3  # a ball at rest unseen this long before the shot's last sighting is gone (as `Path.vanished`)
# Two moving balls touched when the blow along their line of centres (`_blow`) is this many
# sigmas; the floor (mm/s) covers what a straight line over four frames misses (the slowdown, swerve).
BLOW_SIGMAS = 3.0
BLOW_FLOOR_MM_S = 40.0
# A quiet kiss (two moving balls touching at tens of mm/s, or a ball barely nudged on its way)
# is under BLOW_SIGMAS over four frames: the floor is most of the noise. Over twelve frames each
# side the lines are twice as steady, and a kiss must then look like one between equal balls
# (`_kiss`): closing before, apart after, each pushed away from the other by a like amount.
KISS_FRAMES = 12.0
KISS_FLOOR_MM_S = 15.0
KISS_SIGMAS = 2.5
KISS_CLOSING_MM_S = 20.0
# `_moving_contacts`: where the lines before put two moving balls a diameter apart, a blow this
# clear is their contact though the lines after do not trace back to it (one of them met
# another ball within those lines' frames).
CLEAR_BLOW_SIGMAS = 10.0
# `_overlapped`: a slow pair's blow under BLOW_SIGMAS still met where the lines before would have
# put the centres OVERLAP_SIGMAS inside a diameter, or where that depth and the blow, each in
# sigmas, sum to OVERLAP_SIGMAS x sqrt 2 (for two independent noises, the same odds). On
# 7000-10019 (seed 10014's 8 and 11 at 0.15 m/s, blow 2.0 and depth 2.4 sigmas): 6 more found,
# none extra; the depth alone found 3.
OVERLAP_SIGMAS = 3.0
HARD_FRAMES, HARD_SIGMAS = 2.0, 6.0  # `_hard_blow`: lines of two samples; a blow that clear
PARTED_MM = 15.0  # `_parted`: a pair this far beyond a diameter between two contacts met twice
KISS_LIKE = 0.3  # the smaller push at least this fraction of the larger (spin takes some of one)
# How long before a slow start (under 300 mm/s) the ball that set it off may have touched it: one
# nudged off at 30 mm/s is seen off its rest (5 mm, twice) about 0.2 s late.
SLOW_LOOK_S = 0.25
APPROACH_MAX = 30  # samples of the line from the strike
NEAR_MISS_SIGMAS = 2.0  # a resting ball the cue ball's line misses by less, sideways, may have been grazed
EARLIER_FRAMES = 3  # an onset this much before the striker's first bend is a contact of its own
# Two balls resting this close to touching (mm, centre distance less a diameter, either way)
# that start together pressed on each other: the racks of 9000-9019's breaks, 525 pairs within
# 1 mm, 508 of them met in the physics (`_frozen_pairs`).
FROZEN_GAP_MM = 1.5
# ... and set off this far apart (s): a rack ball pushed off slowly is seen to start frames late
# (9000-10019: 103 of the 108 frozen pairs whose onsets were 1-20 frames apart met at the hit).
FROZEN_LATE_S = 12 / 60


# A resting ball that never started a motion but ends the shot this far off its rest (mm, the
# median of its last NUDGE_SAMPLES samples against its rest) was pushed (`_nudged_by`): by the
# last ball to come within a diameter and NUDGE_TOL_MM of it in the NUDGE_LOOK_S before it was
# first seen off its rest. 1.5 mm is about four sigmas of the difference of two such medians (0.7
# mm a sample); on 7000-10019, 3 mm found 14 such contacts, 2 mm 18, 1.5 mm 22 (1.0 mm the same
# 22), none that were not.
NUDGE_MM = 1.5
NUDGE_SAMPLES = 9
NUDGE_TOL_MM = 4.0
NUDGE_LOOK_S = 0.5
NUDGE_STOPPED_S = 0.1  # the pusher's motion may have ended this long before the touch
# Or pushed into a cushion it rested near and back (seed 14018's 9, 5 mm from the foot cushion,
# grazed by a slow cue ball: 3 mm out, back to 3 mm the other side): the first point of its
# running median this far off its rest, and as far from its end, gives the push.
NUDGE_PEAK_MM = 2.5

# A pair meeting again soon after a contact (`_hit_again`): one of them off a cushion back into the
# other (seed 10000's 9, hit toward the right cushion, back into the cue ball 35 ms later). Within
# AGAIN_S of the first contact, a ball's path bends by AGAIN_SIGMAS of its noise, pushed away from
# the other ball along their line of centres, with no third ball within AGAIN_CROWD_MM of touching
# either (a rack's crowd). On 7000-10019: 6 sigmas found 3, 3.5 nine, 3.0 nine and one more extra.
AGAIN_S = 0.15
AGAIN_CROWD_MM = 15.0
AGAIN_SIGMAS = 3.5
# A ball resting within REBOUND_GAP_MM of a cushion, hit toward it, comes back off it into the
# ball that hit it: that second contact needs REBOUND_SIGMAS of the hitter's bend, not
# AGAIN_SIGMAS (7000-10019: +3 found, none extra; at 2.5 sigmas one fewer). 1.75 rather than 2
# (seed 8016's 1, at 0.2 m/s, bent 1.9 sigmas by the 5 back off the cushion): 3 more found, none
# extra; 1.5 found 2 more and one extra.
REBOUND_GAP_MM = 15.0
REBOUND_SIGMAS = 1.75
# `_rebound_hit`: a ball within this of a cushion, struck into it at this speed or more, comes back
# at `REBOUND_E` of its speed; the striker seen moving away at `REBOUND_AWAY` of its speed into it.
REBOUND_HIT_GAP_MM, REBOUND_MIN_MM_S, REBOUND_E, REBOUND_AWAY = 30.0, 500.0, 0.8, 0.2
# The striker's contacts within two frames of its first are the onsets' guesses (a cluster's balls
# start together) unless the ball was touching it half a frame or more after the first: a second
# ball met on its way. On 9000-10019, 15 such: 12 true; the 3 false ones, and one true one, were
# frozen to two or more balls (a cluster's). Under half a frame, none was true then; one is now,
# its ball resting SECOND_APART_MM beyond touching the first ball (seed 8016's 1, 3 ms after the 5).
SECOND_AFTER_FRAMES = 0.5
SECOND_APART_MM = 20.0
# Two close approaches of one moving pair within this many frames are one meeting unless the pair
# is seen to part between them (`_parted`): two balls running on side by side after a contact
# come near again with a blow on the lines (one's bounce off a cushion). At 3 frames, 7000-10019
# had 6 such extras more (seed 8007's 8 and 4, 57 ms apart) and not one true contact fewer.
SAME_MEETING_FRAMES = 6.0
# `_by_departure`: a ball set off from rest leaves along the line of centres; a sample this far
# from its rest gives the direction within several degrees (a fast ball's blurred centre strays
# sideways by millimetres), where the striker was within several millimetres. The striker's
# path passed that spot this near, any other ball's twice as far; a partner the onsets named
# farther than `DEPARTURE_FAR_MM` from it is replaced.
BOUNCE_MM = 10.0  # `_at_a_cushion`
PUSHED_GAP_MM = 30.0  # `_pushed_into_rail`: a ball resting this near a cushion, hit toward it
DEPARTURE_MIN_MM = 10.0
DEPARTURE_TURN_DEG = 10.0
DEPARTURE_TOL_MM = 15.0
DEPARTURE_FAR_MM = 40.0


def _at_a_cushion(p: Path, a: int, table: Table) -> float:
    """When a ball set off from rest at sample `a` first reached a cushion it rested clear of
    (a sample within `BOUNCE_MM` of touching it, half a frame before): its line from the start
    ends there (seed 8012's 6, sent into the head cushion at 3.1 m/s and back 60 ms later; the
    line across the bounce ran slower and timed its start 12 ms early). math.inf if none."""
    first = math.inf
    for r in RAILS:
        if float(table.cushion_gap(p.rest, r)) <= 2 * BOUNCE_MM:
            continue
        hit = np.flatnonzero(table.cushion_gap(p.xy[a:a + 8], r) < BOUNCE_MM)
        if len(hit):
            i = a + int(hit[0])
            first = min(first, float(p.t[i]) - 0.5 * (float(p.t[i] - p.t[i - 1]) if i > 0 else 0.0))
    return first


def _touch_tol(p: Path, q: Path, t: float) -> float:
    """How far beyond a diameter apart two balls' sampled centres may be and still touch at t
    (mm): a margin for the blur and three sigmas of both centres."""
    return 8.0 + 3.0 * math.hypot(_sig(p, t), _sig(q, t))


def contact_time(fa: Fit, fb: Fit, D: float, t_guess: float, dt: float,
                 entry: bool = False) -> tuple[float, float] | None:
    """When the two fitted centres are a diameter apart (the root nearest the guess; with
    `entry`, the first: a ball coming to a resting one cannot pass through it and out)."""
    da = fa.a - fb.a
    dv = fa.v - fb.v
    a = float(dv @ dv)
    if a < 1e-6:
        return None
    b = 2 * float(da @ dv)
    c = float(da @ da) - D * D
    disc = b * b - 4 * a * c
    if disc < 0:
        tau = -b / (2 * a)  # closest approach: the pair grazes
    else:
        r = math.sqrt(disc)
        roots = [(-b - r) / (2 * a), (-b + r) / (2 * a)]
        tau = roots[0] if entry else min(roots, key=lambda x: abs(fa.t_ref + x - t_guess))
    t = fa.t_ref + tau
    if abs(t - t_guess) > 3 * dt:
        return None
    closing = abs(float((da + dv * tau) @ dv)) / max(D, 1.0) or 1.0
    err = math.sqrt(fa.var(t) + fb.var(t)) / max(closing, 1.0)
    # A pair closing slowly (a graze, two balls rolling side by side) is a diameter apart over
    # a long span; the contact is the root taken, within the window searched (3 frames of the
    # guess), not seconds either side of it (seed 11015: the cue ball and the 12 met at 1.3 s
    # with a t_err of 6.4 s, "simultaneous" with the cue ball's first contact at 0.3 s).
    return t, min(max(err, 0.0005), 3 * dt)


def _velocity_change(path: Path, t: float, fps: float) -> float:
    """|Δv| across time t, in units of its noise (0 when it cannot be told): the line of the motion
    under way before t (from its onset) against the line of the samples just after."""
    dt = 1.0 / fps
    pre = path.fit_before(t, dt)
    if pre is None and path.rest is not None and path.motions and t <= path.t[path.motions[0][0]] + 0.5 * dt:
        pre = rest_fit(path.rest, 0.5, t)
    post = path.fit_after(t, dt)
    if pre is None or post is None:
        return 0.0
    dv = pre.v - post.v
    noise = math.sqrt(pre.cov[1, 1] + post.cov[1, 1]) + 40.0
    return float(np.hypot(*dv)) / noise


def extract(paths: list[Path], table: Table, fps: float, strikers: tuple[str, ...] = ("cue",),
            ) -> tuple[float | None, list[dict]]:
    """Events with absolute media times: (strike time or None, events)."""
    D = table.ball_diameter_mm
    dt = 1.0 / fps
    by = {p.name: p for p in paths}
    events: list[dict] = []

    # --- onsets: every start from rest ---------------------------------------------------------
    # The strikers' last: a striker's line after its strike is clean only until another ball
    # starts (nothing else set it moving: the striker had met it by then).
    onsets = []
    todo = [(p, k) for p in paths for k in range(len(p.motions))]
    todo.sort(key=lambda pk: pk[0].name in strikers and pk[1] == 0)
    for p, k in todo:
        a = p.motions[k][0]
        if a == 0 and p.rest is None:
            continue  # it appeared moving: no onset seen
        flight = _unseen_flight(p, D, dt) if k == 0 and p.name in strikers else None
        unseen = _unseen_start(p, a, dt) if k == 0 and p.rest is not None and p.name not in strikers else None
        if flight is not None:
            # Struck as it vanished: its streak was not seen as a ball (a break).
            t_on, err = flight[0] + 0.5 * dt, 0.5 * dt
        elif unseen is not None:
            t_on, err = unseen
        elif k == 0 and p.rest is not None:
            t_guess = p.t[a] - 0.5 * dt
            until = _at_a_cushion(p, a, table)
            if p.name in strikers:
                until = min(until, min((t for t, _, q, _ in onsets if q is not p and t > t_guess), default=math.inf) - \
                    PRE_GUARD * dt)
            t_on, err, _, post = kink(p, t_guess, fps, rest_before=True, until=until)
            if post is None and until < math.inf:  # under two samples before it: the whole window
                t_on, err, _, _ = kink(p, t_guess, fps, rest_before=True)
            if t_on > p.t[a] + (1.0 - PRE_GUARD) * dt:
                # Seen off its rest at t[a], it had started before that sample's exposure ended
                # (a line after that bends within its window): somewhere in the frame before.
                t_on, err = float(p.t[a]) - 0.3 * dt, 0.5 * dt
            if p.name in strikers:
                # Nor after a ball whose spot it had reached by its first sample off its rest: it
                # set that ball off, so it started between its last sample at rest and that
                # ball's onset (seed 16011's cue ball, stunned into the 3 31 mm away 6 ms after
                # the strike, seen moving only at rest again on the 3's spot).
                reached = [t for t, _, q, _ in onsets if q is not p and t < t_on and q.rest is not None
                           and float(np.hypot(*(p.xy[a] - q.rest))) <= D + 3.0 * float(p.s[a]) + 3.0]
                if reached:
                    t_q = min(reached)
                    still = p.t[:a][p.t[:a] < t_q]
                    t_rest = float(still[-1]) if len(still) else t_q - dt
                    t_on, err = 0.5 * (t_rest + t_q), max(0.5 * (t_q - t_rest), 0.25 * dt)
        else:
            t_on, err, _, _ = kink(p, p.t[a] - 0.5 * dt, fps)
        onsets.append((t_on, err, p, k))
    onsets.sort(key=lambda o: o[0])
    for p in paths:
        p.onsets = {k: (t_on, err) for t_on, err, q, k in onsets if q is p}

    # The strike first, then the striker's first contact from its own path; no object ball can
    # have started before that contact, so onsets a few frames early (a slow ball in a cluster,
    # timed from a noisy line) are moved up to it.
    first_contacts = {}
    for t_on, err, p, k in onsets:
        if p.name in strikers and p.name not in first_contacts and k == 0:
            pos = p.rest if p.rest is not None else p.at(t_on)
            if not _partners(p, pos, t_on, onsets, paths, D, dt, window=1.5, slack=0.0, causes=True, striker=True):
                first_contacts[p.name] = (t_on, _first_contact(p, t_on, paths, D, fps))
    fc_times = [fc[1] for _, fc in first_contacts.values() if fc is not None]
    passed: set[str] = set()  # balls starting just before that contact as a striker passed them
    if fc_times:
        t_fc = min(fc_times)
        moved_up = []
        for t_on, err, p, k in onsets:
            if p.name not in strikers and t_fc - 4 * dt <= t_on < t_fc:
                if _striker_near(p, k, t_on, paths, strikers, D, dt):
                    passed.add(p.name)
                else:
                    t_on = t_fc
            moved_up.append((t_on, err, p, k))
        onsets = sorted(moved_up, key=lambda o: o[0])
        for p in paths:
            p.onsets = {k: (t_on, err) for t_on, err, q, k in onsets if q is p}

    strikes: dict[str, tuple[float, float]] = {}
    pairs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    # Blows that may have pushed a ball into a cushion (ball, where it was, by whom, when at its
    # onset): judged once every blow's time is final (below).
    pushed: list[tuple[Path, np.ndarray, Path, float]] = []

    def add_collision(x: str, y: str, t: float, err: float):
        key = tuple(sorted((x, y)))
        for t2, _ in pairs.get(key, []):
            if abs(t2 - t) < 3 * dt and not (x in by and y in by and _parted(by[x], by[y], t2, t, D, dt)):
                return
        pairs.setdefault(key, []).append((t, err))
        events.append({"t": t, "type": "collision", "balls": [x, y], "t_err": err})

    for t_on, err, p, k in onsets:
        pos = p.start_of(k, t_on)
        first = p.name in strikers and p.name not in strikes and k == 0
        partners = _partners(p, pos, t_on, onsets, paths, D, dt, window=1.5, slack=0.0, causes=True, striker=first,
                             met=pairs)
        if not first:
            partners = _by_departure(p, k, pos, t_on, onsets, paths, D, dt, partners, pairs)
        if not partners and not first:
            # A ball deep in a cluster creeps off late: look a little wider before calling it
            # disturbed.
            partners = _partners(p, pos, t_on, onsets, paths, D, dt, window=6.0, slack=10.0, recent=True)
        if not partners and not first:
            # Hit through a ball frozen to it, which passed the blow on and hardly moved.
            chain = _through_frozen(p, pos, t_on, onsets, paths, D, dt)
            if chain is not None:
                q, r = chain
                add_collision(q.name, r.name, t_on - 0.5 * dt, max(err, dt))
                add_collision(r.name, p.name, t_on, max(err, dt))
                continue
        if not partners and not first and _slow_start(p, k, dt):
            # A ball nudged off slowly is seen to move frames late: by then the ball that
            # touched it may have stopped, or left (seed 12007: the 1 into the 6 beside the foot
            # cushion, the 6 seen moving 95 ms later with the 1 already 170 mm away). The last
            # ball to come a diameter from it in that time touched it.
            came = [(hit, q) for q in paths if q is not p
                    for hit in [_arrival(q, pos, t_on, D, dt, look=SLOW_LOOK_S)] if hit is not None]
            if came:
                partners = [(max(came, key=lambda c: c[0][0])[1], [])]
        if not partners:
            if p.name in strikers and p.name not in strikes:
                strikes[p.name] = (t_on, err)
                events.append({"t": t_on, "type": "strike", "ball": p.name, "t_err": err})
            elif _partners(p, pos, t_on, onsets, paths, D, dt, window=10.0, slack=45.0, recent=True):
                continue  # a ball was near and moving: a contact we cannot time, not a foul
            elif k > 0 and _creeps_on(p, k, t_on, dt):
                continue  # it had only slowed below the rest test: the same roll going on
            elif strikes and t_on >= min(v[0] for v in strikes.values()) - dt:
                # Before the strike a ball still settling belongs to the last shot.
                # Where it ends the shot (a ball seen to leap and come back to its spot was
                # mis-measured for a while, not moved).
                end = p.xy[-1] if not p.ended else p.xy[p.motions[k][1] if p.motions[k][1] is not None else -1]
                if float(np.hypot(*(np.asarray(end) - np.asarray(pos)))) >= DISTURB_MIN_MM and \
                        _travels(p, k) and not _leapt(p, k, pos, dt):
                    events.append({"t": t_on, "type": "disturbed", "ball": p.name, "t_err": err})
            continue
        for q, q_on in partners:
            t_c, e_c = t_on, err
            if not q_on and not (p.name in strikes and abs(strikes[p.name][0] - t_on) < dt):
                # The partner was moving: its line before the contact meets this ball's rest spot.
                # A ball nudged off slowly is seen to move late (tens of millimetres a second take
                # frames to show): the partner's arrival a diameter from it times the contact.
                arrived = _arrival(q, pos, t_on, D, dt, since=_last_contact(q, p, t_on, pairs, dt, frames=math.inf)) \
                    if _slow_start(p, k, dt) else None
                fq = q.fit_before(t_on, dt)
                est = contact_time(fq, rest_fit(pos, _sig(p, t_on) / 2, t_on), D, t_on, dt) if fq is not None else None
                if arrived is not None and (est is None or arrived[1] <= est[1]):
                    t_c, e_c = arrived
                elif arrived is not None and arrived[1] <= dt:
                    # The line's meeting with the rest spot, within three frames of the onset,
                    # surer than an arrival sure within a frame: it stands (seed 9018's 4, off the
                    # 1 into the 5: its arrival, on a line still bending off the 1, 46 ms early).
                    # (An arrival unsure by over a frame is weighed with the onset below: seed
                    # 10008's 10, by the cushion, met by the 6 again 45 ms later; the 6's last
                    # arrival, between the two contacts, was 78 ms unsure.)
                    t_c, e_c = est
                elif est is not None:
                    w1, w2 = 1 / err ** 2, 1 / est[1] ** 2
                    t_c = (t_on * w1 + est[0] * w2) / (w1 + w2)
                    e_c = math.sqrt(1 / (w1 + w2))
            add_collision(q.name, p.name, t_c, e_c)
            pushed.append((p, pos, q, t_c))

    # --- the cue ball's first contact, from its own path ---------------------------------------
    # Onsets can blame the wrong ball when contacts follow each other within a frame (the cue ball
    # into a cluster, the break); the cue ball's path bends first where it meets the ball that
    # was a diameter from that point.
    first_of: dict[str, tuple] = {}
    for name in strikers:
        if name in strikes and name in by:
            fc = first_contacts.get(name, (None, None))[1]
            if fc is None:
                continue
            other, t_c, e_c, touching = fc
            if t_c - strikes[name][0] >= 3 * dt:  # a path long enough to show the approach
                first_of[name] = fc
            # Nothing touched the striker before its first contact; only balls within that
            # contact's uncertainty touched it together (a split hit). Its other contacts that
            # close in time are the onsets' guesses: the first contact's own timing replaces them.
            keep = []
            for e in events:
                partner = next(b for b in e["balls"] if b != name) if e["type"] == "collision" and name in e["balls"] \
                    else None
                if partner not in (None, other) and (
                        e["t"] < t_c - EARLIER_FRAMES * dt or (partner in passed and e["t"] < t_c - 0.5 * dt)):
                    # A ball set moving as the striker passed it, clearly before the bend its path
                    # shows: a thin cut that hardly bends a fast ball. The path missed it; the
                    # onset stands (and is the first contact). Within a few frames of the bend,
                    # when the striker passed it then (`_striker_near`: seed 8019's cue ball,
                    # cutting the 6 at 4 m/s 10 ms before it meets the 10, blurred 7.5 mm between).
                    keep.append(e)
                    continue
                # (The first ball's own, within the three frames `add_collision` takes for one
                # meeting: an onset 34 ms late, the ball into a cushion before its second
                # sample, would stand in for the line's time; seed 10017's 2.)
                if e["type"] == "collision" and name in e["balls"] and e["t"] < t_c + (
                        3 if other in e["balls"] else 2) * dt:
                    partner = next(b for b in e["balls"] if b != name)
                    pairs[tuple(sorted(e["balls"]))] = [x for x in pairs[tuple(sorted(e["balls"]))]
                                                        if abs(x[0] - e["t"]) > 1e-9]
                    if partner == other:
                        continue
                    if partner not in touching:
                        # A ball the striker met half a frame or more after its first, touching it
                        # then, is a second contact (seed 9012: the cue ball off the 3 into the 4
                        # 16 ms later; seed 9013's 14 and 2, frozen together, both met); not one
                        # frozen to two or more (a rack's, set off through them: seed 10013's 7,
                        # between the 15 and the 11) unless a sample shows the striker into it
                        # (seed 15008's 5, frozen to the 11 and 6 mm from the 2).
                        # Sooner, when the first ball could not have set it off: its rest was
                        # clear of that ball's (seed 8016: the cue ball between the 5 and the 1,
                        # 54 mm apart, met them 3 ms apart); after an approach the path shows,
                        # not from touching at the strike (seed 8010: the cue ball, 0.2 mm from
                        # the 1 and 16 mm from the 2, met the 2 first, 4 ms after the strike).
                        q, o = by.get(partner), by.get(other)
                        apart = q is not None and q.rest is not None and o is not None and o.rest is not None \
                            and float(np.hypot(*(q.rest - o.rest))) - D > SECOND_APART_MM \
                            and t_c - strikes[name][0] >= 3 * dt
                        if q is None or q.rest is None or (e["t"] - t_c < SECOND_AFTER_FRAMES * dt and not apart) or \
                                not _touching(by[name], q, max(e["t"], t_c), D, dt) or \
                                (sum(_frozen(r, q.rest, e["t"], D) for r in paths if r is not q and r.name != name) >= 2
                                 and not _seen_touching(by[name], q, e["t"] - dt, e["t"] + 2 * dt, D)):
                            continue
                        # (Its path reached q off `other`: after it, whatever the times' doubt.)
                        e = dict(e, follows=[name, other])
                        pairs.setdefault(tuple(sorted(e["balls"])), []).append((e["t"], e["t_err"]))
                        keep.append(e)
                        continue
                    t_line, e_line = touching[partner] if isinstance(touching, dict) else (t_c + 1e-4, e_c)
                    e = dict(e, t=max(t_line, t_c + 1e-4), t_err=max(e_line, e_c))
                    pairs.setdefault(tuple(sorted(e["balls"])), []).append((e["t"], e["t_err"]))
                keep.append(e)
            events[:] = keep
            add_collision(name, other, t_c, e_c)

    # --- frozen balls set off together: the blow passed between them (a rack) ----------------
    # (After the striker's first contact: the onsets' guesses at what the striker met are gone.)
    for p, q, t_c, e_c in _frozen_pairs(paths, [e for e in events if e["type"] == "collision"], strikers, D, dt):
        # Timed at the blow: the same contact found at the later one's late onset is this one.
        key = tuple(sorted((p.name, q.name)))
        late = {t2 for t2, _ in pairs.get(key, []) if t_c + 3 * dt <= t2 <= t_c + FROZEN_LATE_S + 0.01 * dt}
        if late:
            pairs[key] = [x for x in pairs[key] if x[0] not in late]
            events[:] = [e for e in events if not (e["type"] == "collision" and tuple(sorted(e["balls"])) == key
                                                   and e["t"] in late)]
        add_collision(p.name, q.name, t_c, e_c)

    # --- a resting ball that vanished as a ball reached it: hit into a pocket between frames ---
    seen_until = max((float(q.traw[-1]) for q in paths if len(q.traw)), default=-math.inf)
    for p in paths:
        if p.vanished and not p.motions and p.rest is not None and len(p.traw):
            b, pos = 0, p.rest
        else:
            # Or one that came to rest in a pocket's jaws during the shot and vanished from there
            # (seed 12004 through the real detector: the 15, hanging in the foot-right jaws, hit
            # in by the 12 at 0.3 m/s; it moved 7 mm in two frames, then dropped).
            b = p.motions[-1][1] if p.motions and not p.ended else None
            if b is None or len(p.traw) - b < 3 or p.traw[-1] > seen_until - VANISHED_S:
                continue
            pos = np.median(p.xy[b:], axis=0)
            if table.nearest_pocket(tuple(pos), 130.0) is None:
                continue
        off = np.hypot(*(p.xy - pos).T) > np.maximum(5.0, 3.0 * p.s)
        off[:b] = True
        if off.all():
            continue
        # Last seen at rest; or seen once on its way, the frame after. (A sample far off later on
        # is another ball's, or a false detection, handed to its track: seed 10010's 4, in the
        # head-left jaws, hit in and "seen" 1.3 s later 130 mm away.)
        i = int(np.flatnonzero(~off)[-1])
        t_v = float(p.traw[i]) + 0.5 * dt
        if i + 1 < len(p.traw) and p.traw[i + 1] - p.traw[i] < 2.5 * dt:
            i += 1
            t_v = float(p.traw[i]) - 0.5 * dt
        # (A ball that met another just before is judged by its path since: seed 7015's cue ball,
        # into the 15, whose line before "reached" the 12 behind it, which the 15 sent in.)
        partners = _partners(p, pos, t_v, onsets, paths, D, dt, window=3.0, slack=10.0, met=pairs)
        if partners:
            for q, q_on in partners:
                # (Not before the partner itself started, when it was set off then.)
                add_collision(q.name, p.name, max([t_v - 0.5 * dt] + [o[0] for o in q_on]), dt)
        else:
            # Hit through a ball frozen to it, which passed the blow on and hardly moved (seed
            # 14014: the cue ball into the 2, the 6 beside it at the corner gone in a frame).
            chain = _through_frozen(p, pos, t_v, onsets, paths, D, dt) if b == 0 else None
            struck = _struck_into(p, t_v, strikes, by, paths, D, dt) if chain is None and b == 0 else None
            if chain is not None:
                q, r = chain
                add_collision(q.name, r.name, t_v - dt, dt)
                add_collision(r.name, p.name, t_v - 0.5 * dt, dt)
            elif struck is not None:
                # (Before it was seen off its spot, if it was.)
                t_c = min(struck[1], float(p.traw[i]) if off[i] else math.inf)
                add_collision(struck[0], p.name, t_c, struck[2])
                t_v = max(t_v, t_c + 0.5 * dt)
            else:
                continue  # only hidden (a player, the cue): it is still there
        pk = table.nearest_pocket(tuple(p.xy[i]), 130.0)
        if pk is not None:
            events.append({"t": t_v, "type": "pocket", "ball": p.name, "pocket": pk, "t_err": 0.5 * dt})

    # --- moving balls meeting: both bend where they come within a diameter ----------------------
    for i, p in enumerate(paths):
        for q in paths[i + 1:]:
            for t_c, e_c in _moving_contacts(p, q, D, fps):
                if not _through_a_ball(p, q, t_c, paths, D, dt) and not _before_first(p.name, q.name, t_c, first_of, dt):
                    add_collision(p.name, q.name, t_c, e_c)

    # --- a resting ball nudged a few millimetres, never seen to start: the ball that came to it --
    met = {b for e in events if e["type"] == "collision" for b in e["balls"]}
    for p in paths:
        if p.rest is None or p.motions or p.vanished or p.ended or p.name in strikers or p.name in met:
            continue
        hit = _nudged_by(p, paths, D, dt)
        if hit is not None:
            add_collision(hit[0].name, p.name, hit[1], hit[2])

    # --- a pair meeting again: one of them back off a cushion into the other ----------------------
    for e in [e for e in events if e["type"] == "collision"]:
        x, y = e["balls"]
        key = tuple(sorted((x, y)))
        pairs.setdefault(key, [])
        if x not in by or y not in by or any(e["t"] < t2 <= e["t"] + AGAIN_S + dt for t2, _ in pairs[key]):
            continue  # (its second contact is found)
        hit = _hit_again(by[x], by[y], e["t"], paths, table, D, dt, e["t_err"])
        if hit is None:
            # Or back within a frame and a half: too soon for a path to bend twice.
            back = _rebound_hit(by[x], by[y], e["t"], table, D, dt) or _rebound_hit(by[y], by[x], e["t"], table, D, dt)
            if back is not None:
                events.append({"t": back[0], "type": "collision", "balls": [x, y], "t_err": back[1]})
                pairs[key].append(back)
            continue
        if any(abs(t2 - hit[0]) <= dt for t2, _ in pairs[key]):
            continue
        if not hit[2] or not _touching(by[x], by[y], e["t"], D, dt):
            # The path did not bend at the first, or the pair was not within touching then: the
            # first was this contact, timed early.
            pairs[key] = [c for c in pairs[key] if c[0] != e["t"]]
            e["t"], e["t_err"] = hit[0], hit[1]
        else:
            events.append({"t": hit[0], "type": "collision", "balls": [x, y], "t_err": hit[1]})
        pairs[key].append(hit[:2])

    # --- cushions, pockets, off the table, line crossings ---------------------------------------
    for p in paths:
        events += contacts(p, table, fps)
        if p.ended and len(p.t):
            last = p.xy[-1]
            t_end = float(p.traw[-1]) + 0.5 * dt
            pk = table.nearest_pocket(tuple(last), 130.0)
            # Seen over a rail, away from the pockets' mouths, it flew off the table, though it
            # vanished near a corner (seed 11007: the 1 over the foot rail 150 mm from the corner).
            over = any(table.over_rail((float(x), float(y))) for x, y in p.xy)
            if pk is not None and not over:
                events.append({"t": t_end, "type": "pocket", "ball": p.name, "pocket": pk, "t_err": 0.5 * dt})
            elif over or not table.on_bed(tuple(last), slack=15.0):
                events.append({"t": t_end, "type": "off_table", "ball": p.name, "t_err": 0.5 * dt})
        events += _crossings(p, table)

    # --- jumps: the cue ball over a resting ball --------------------------------------------------
    cue = by.get("cue")
    if cue is not None and "cue" in strikes:
        for q in paths:
            if q is cue or q.rest is None:
                continue
            sel = cue.t >= strikes["cue"][0]
            if not sel.any():
                continue
            d = np.hypot(*(cue.xy[sel] - q.rest).T)
            gone_at = float(q.traw[-1]) + dt if (q.vanished or q.ended) and len(q.traw) else math.inf
            still = np.array([not q.moving_at(float(x), dt) and (q.motions == [] or x < q.t[q.motions[0][0]] + dt)
                              and x < gone_at for x in cue.t[sel]])
            over = (d < D - max(10.0, 4.0 * float(np.median(cue.s[sel])))) & still
            if over.any():
                ts = cue.t[sel][over]
                events.append({"t": float(ts[0] - dt), "type": "airborne", "ball": "cue",
                               "until": float(ts[-1] + dt), "t_err": dt})
    # A start no contact explained at its onset, but a contact found from the paths (two moving
    # balls meeting) within two frames of it: that contact set it moving (WPA 3.6 is for motion
    # no contact explains).
    # So did a contact with a ball that then vanished from its rest and was next seen far on,
    # made while it was unseen (`_set_moving`'s flight: seed 11001's 5, met in the break, seen
    # 18 mm off its rest, unseen for 127 ms and found 700 mm on past a cushion; its start, from
    # lines spanning that bounce, was only guessed, half a frame before the sighting).
    hits = [(e["t"], e["balls"]) for e in events if e["type"] == "collision"]
    events[:] = [e for e in events if e["type"] != "disturbed" or not any(
        e["ball"] in balls and (abs(t - e["t"]) <= 2 * dt + e["t_err"] or _met_unseen(by[e["ball"]], t, D, dt))
        for t, balls in hits)]
    # A ball pushed into a cushion meets it after the blow, as finally timed (the striker's first
    # contact, from its own path, re-times its blows: seed 9012's 2 was recorded at the right
    # cushion 3.6 ms before the cue ball met it); a blow dropped since pushed nothing.
    for p, pos, q, t_on in pushed:
        blows = [(t, e) for t, e in pairs.get(tuple(sorted((p.name, q.name))), []) if abs(t - t_on) < 3 * dt]
        if blows:
            t_c, e_c = min(blows, key=lambda b: abs(b[0] - t_on))
            cush = _pushed_into_rail(p, pos, q, t_c, e_c, table, dt)
            if cush is not None:
                events.append(cush)
    events[:] = one_per_stay(events, by, table, dt)
    t0 = min((v[0] for v in strikes.values()), default=None)
    events.sort(key=lambda e: e["t"])
    return t0, events


def _nudged_by(p: Path, paths: list[Path], D: float, dt: float) -> tuple[Path, float, float] | None:
    """(q, t, t_err): the moving ball q that touched resting ball p, which never started a
    motion yet ends the shot `NUDGE_MM` or more off its rest (the median of its last
    `NUDGE_SAMPLES` samples), pushed away from q: the last ball to come within a diameter
    (and `NUDGE_TOL_MM`) of p's rest before p was first seen off it, timed when it first came
    within two sigmas of touching, else at its closest approach; t_err half the time from then
    until p was seen off its rest (a slow push is not sharp). None if there is none (a ball
    that crept off its spot by itself, or was mismeasured). Seed 10003's 13, creeping at
    60 mm/s into the 2 and pushing it 6 mm. Or pushed out and back off a cushion
    (`NUDGE_PEAK_MM`)."""
    if len(p.t) < 2 * NUDGE_SAMPLES:
        return None
    end = np.median(p.xy[-NUDGE_SAMPLES:], axis=0)
    shift = end - p.rest
    size = float(np.hypot(*shift))
    hit = None
    if size >= NUDGE_MM:
        # First seen off its rest: the first sample from which the running median of the rest
        # stays more than half the shift along it.
        along = (p.xy - p.rest) @ (shift / size)
        k = NUDGE_SAMPLES // 2
        med = np.array([np.median(along[max(0, i - k):i + k + 1]) for i in range(len(along))])
        stays = np.flatnonzero(~(med > 0.5 * size))
        i0 = int(stays[-1]) + 1 if len(stays) else 0
        if i0 < len(p.t):
            hit = _pusher(p, shift, float(p.t[i0]), paths, D, dt)
    if hit is None:
        # Out to a cushion and back: the running median's first point that far off.
        run = np.median(np.lib.stride_tricks.sliding_window_view(p.xy, NUDGE_SAMPLES, axis=0), axis=-1)
        far = np.hypot(*(run - p.rest).T)
        out = np.flatnonzero(far >= NUDGE_PEAK_MM)
        if len(out) and float(np.hypot(*(run[out[0]] - end))) >= NUDGE_PEAK_MM:
            i0 = int(out[0])
            # (Off its rest from the first sample of that window more than half way out.)
            half = np.flatnonzero(np.hypot(*(p.xy[i0:i0 + NUDGE_SAMPLES] - p.rest).T) > 0.5 * far[i0])
            hit = _pusher(p, run[i0] - p.rest, float(p.t[i0 + (int(half[0]) if len(half) else NUDGE_SAMPLES // 2)]),
                          paths, D, dt)
    return hit


def _pusher(p: Path, shift: np.ndarray, t_off: float, paths: list[Path], D: float,
            dt: float) -> tuple[Path, float, float] | None:
    """`_nudged_by`'s pusher of resting ball p, seen `shift` off its rest from t_off."""
    best = None
    for q in paths:
        if q is p or not q.motions or len(q.t) < 3:
            continue
        sel = (q.t <= t_off + dt) & (q.t >= t_off - NUDGE_LOOK_S)
        if sel.sum() < 2:
            continue
        d = np.hypot(*(q.xy[sel] - p.rest).T)
        # When it first came within two sigmas of touching (a slow push goes on after), else its
        # closest approach; moving then or up to `NUDGE_STOPPED_S` before: it may stop against
        # the ball, and the rest test calls a creeping ball stopped a few frames early (seed
        # 16000's 10, its roll ended 50 ms before it touched the 5).
        touch = np.flatnonzero(d <= D + 2.0 * q.s[sel])
        j = int(touch[0]) if len(touch) else int(np.argmin(d))
        t_c = float(q.t[sel][j])
        if d[j] > D + NUDGE_TOL_MM + 3.0 * float(q.s[sel][j]) or not q.moving_at(t_c, NUDGE_STOPPED_S):
            continue
        if float((p.rest - q.xy[sel][j]) @ shift) <= 0.0:
            continue  # pushed towards it: not by it
        if best is None or t_c > best[1]:
            best = (q, t_c, max(dt, float(t_off - t_c) / 2.0))
    return best


def _hit_again(a: Path, b: Path, t1: float, paths: list[Path], table: Table, D: float, dt: float,
               t1_err: float = 0.0) -> tuple[float, float, bool] | None:
    """A second contact of a pair that met at t1, within `AGAIN_S`: (time, 1-sigma, whether the
    ball's path bent at t1 too) or None. The pair-wise tests (`_moving_contacts`) fit both balls
    over frames either side; here one ball has just bounced off a cushion, so only the other's
    path is clean. A ball's path bends between two samples: its lines before (two samples or
    more, after t1) and after (three) differ by `AGAIN_SIGMAS` of their noise, along the line of
    centres away from the other ball (an impulse between balls lies on that line, a cushion's on
    the rail's normal: not along it at a cushion), the two within touching then and no third
    ball near either. `REBOUND_SIGMAS` where the other ball rested by a cushion and the first
    contact drove it in (t1_err: the first contact's, for where the line after it starts)."""
    best = None
    for z, w in ((a, b), (b, a)):
        if not z.motions or not w.motions:
            continue
        idx = np.flatnonzero((z.t > t1 + 0.3 * dt) & (z.t < t1 + AGAIN_S))
        if len(idx) < 2:
            continue
        # The sampled gap, to skip the fits where the pair is far apart (most of them).
        span = np.append(idx, min(int(idx[-1]) + 1, len(z.t) - 1))
        rel = _relative(z, w, z.t[span])
        gap = np.hypot(*rel.T) - D
        step = np.hypot(*np.diff(rel, axis=0).T)
        # Where z was at t1, from its line before (a contact changes a velocity, not a position):
        # the line after t1 starts there (two or three samples alone are too loose a line to
        # tell a second blow from their noise; seed 7016's 4, met again 62 ms after by the 6
        # back off the cushion it rested at).
        fb1 = z.fit_before(t1, dt)
        anchor = None
        if fb1 is not None:
            anchor = (fb1.pos(t1), math.sqrt(fb1.var(t1) + (float(np.hypot(*fb1.v)) * t1_err) ** 2))
        w_hit = bool(w.motions) and w.rest is not None and float(w.t[w.motions[0][0]]) > t1 - dt
        w_t1 = w.at(t1)
        for j in range(1, len(idx)):
            i = idx[j]
            if i + 3 >= len(z.t) or z.t[i + 3] > z.t[i] + 3.6 * dt:
                continue
            if min(gap[j], gap[j + 1]) > 60.0 + step[j]:
                continue
            if anchor is not None:
                pre = fit_line(np.append(t1, z.t[idx[:j + 1]]), np.vstack([anchor[0], z.xy[idx[:j + 1]]]),
                               np.append(anchor[1], z.s[idx[:j + 1]]), float(z.t[i]))
            else:
                pre = fit_line(z.t[idx[:j + 1]], z.xy[idx[:j + 1]], z.s[idx[:j + 1]], float(z.t[i]))
            post = fit_line(z.t[i + 1:i + 4], z.xy[i + 1:i + 4], z.s[i + 1:i + 4], float(z.t[i]))
            if pre is None or post is None:
                continue
            meet = lines_meet(pre, post)
            if meet is None:
                continue
            # Where the two lines meet (the bend), within the gap between the samples.
            t_k, speed = min(max(meet[0], float(z.t[i])), float(z.t[i + 1])), meet[1]
            dv = post.v - pre.v
            # (w was set off by the first contact though seen moving only later: a slow start.)
            if t_k - t1 < dt or not (w.moving_at(t_k, dt) or (w_hit and float(w.t[w.motions[0][0]]) > t_k)):
                continue
            zp, wp = pre.pos(t_k), w.at(t_k)
            if wp is None:
                continue
            n = zp - wp
            d = float(np.hypot(*n))
            tol = _touch_tol(z, w, t_k) + 0.5 * speed * dt
            if d > D + tol or d < 1e-6:
                continue
            n /= d
            noise = math.sqrt(pre.cov[1, 1] + post.cov[1, 1]) + BLOW_FLOOR_MM_S
            along = float(dv @ n)
            # w set off by the first contact from its rest by a cushion, z on the line back from
            # it: w's rebound into z is the expected course, and takes a weaker bend to show.
            # So is a moving w driven into a cushion by the first contact and back off it (seed
            # 7015's 12, met by the cue ball 20 mm off the left cushion, back into it 81 ms later).
            # (Not a sign that the first contact was real, as w's start from rest is.)
            from_rest = w_hit and any(float(table.cushion_gap(w.rest, r)) < REBOUND_GAP_MM and float(n @ nr) > 0.7
                                      for r, (_, _, nr) in RAILS.items())
            rebound = from_rest or (w_t1 is not None and len(w_near := w.xy[(w.t > t1) & (w.t < t_k)]) > 0 and any(
                float(n @ nr) > 0.7 and float(table.cushion_gap(w_t1, r)) < REBOUND_HIT_GAP_MM
                and float(np.min(table.cushion_gap(w_near, r))) < REBOUND_GAP_MM for r, (_, _, nr) in RAILS.items()))
            sigmas = REBOUND_SIGMAS if rebound else AGAIN_SIGMAS
            if along < sigmas * noise or float(np.hypot(*(dv - along * n))) > 0.5 * along + 3.0 * noise:
                continue
            if any(float(table.cushion_gap(zp, r)) < 10.0 and abs(float(n @ nr)) > 0.5
                   for r, (_, _, nr) in RAILS.items()):
                continue  # a bounce off the cushion it was at
            if any(c is not z and c is not w and (cp := c.at(t_k)) is not None
                   and min(float(np.hypot(*(zp - cp))), float(np.hypot(*(wp - cp)))) < D + tol + AGAIN_CROWD_MM
                   for c in paths):
                continue  # a third ball near either: a crowd (a rack), its contacts blur the lines
            err = math.sqrt(pre.var(t_k) + post.var(t_k)) / speed
            score = along / noise
            if best is None or score > best[2]:
                # Did its path bend at t1 too (or start there)? If not, t1 was this contact's,
                # timed early.
                bent = fb1 is None or float(np.hypot(*(pre.v - fb1.v))) >= BLOW_SIGMAS * (
                    math.sqrt(fb1.cov[1, 1] + pre.cov[1, 1]) + BLOW_FLOOR_MM_S)
                # (A rebound follows a first contact that drove w into its cushion: that one was
                # real, though z's few samples between may hardly show it bend.)
                best = (t_k, min(max(err, 0.25 * dt), 0.5 * dt), score, bent or from_rest)
    return None if best is None else (best[0], best[1], best[3])


def _rebound_hit(z: Path, w: Path, t1: float, table: Table, D: float, dt: float) -> tuple[float, float] | None:
    """A second contact within a frame and a half of the first, too soon to bend a path twice: z
    drove w, resting by a cushion, into it, and w came straight back into z (seed 7014's cue ball
    into the 1, 20 mm off the head cushion: the cushion 6 ms after, the cue ball met again 13 ms
    after). Between equal balls one contact leaves the striker a little of its speed along the
    line of centres, towards the other ball, never away from it: a striker moving away along
    that line once w is back (`REBOUND_AWAY` of its speed into w, and `BLOW_SIGMAS` of the
    noise) was hit again. (time, 1-sigma) or None. The time from the cushion's distance: w
    leaves at about z's speed along the line and comes back at `REBOUND_E` of it."""
    if w.rest is None or not w.motions:
        return None
    w_on = w.onsets[0][0] if w.onsets and 0 in w.onsets else float(w.t[w.motions[0][0]]) - 0.5 * dt
    if not t1 - 0.5 * dt <= w_on <= t1 + 1.5 * dt:
        return None  # not set off by this contact
    fb = z.fit_before(t1, dt)
    if fb is None:
        return None
    n = w.rest - fb.pos(t1)
    d = float(np.hypot(*n))
    if d < 1e-6:
        return None
    n = n / d
    v0n = float(fb.v @ n)
    if v0n < REBOUND_MIN_MM_S:
        return None
    for rail, (_, _, nr) in RAILS.items():
        into = -float(n @ nr)  # the share of the line of centres that points into this rail
        gap = float(table.cushion_gap(w.rest, rail))
        # (Frozen to the cushion, `FROZEN_GAP_MM`, it takes the blow with the cushion in one
        # contact: of the 17 second contacts this rule found on the eleven ranges, the 3 from
        # balls 0.3-0.6 mm off a cushion, 0.1-0.4 ms after the first, were not the physics';
        # of the 14 from balls 2 mm and more off, 12 were.)
        if into < 0.7 or gap > REBOUND_HIT_GAP_MM or gap <= FROZEN_GAP_MM:
            continue
        u = v0n * into
        t2 = t1 + max(gap, 0.0) / u * (1.0 + 1.0 / REBOUND_E)
        if t2 - t1 > 1.5 * dt:
            return None  # (later, each path bends apart: `_hit_again`)
        after = z.fit_after(t2, dt)
        if after is None:
            return None
        sel = (z.t >= t1) & (z.t <= t2 + (4.0 + POST_GUARD) * dt)
        if sel.sum() < 2:
            return None
        reach = 10.0 + float(np.max(np.hypot(*np.diff(z.xy[sel], axis=0).T)))
        if any(float(np.min(table.cushion_gap(z.xy[sel], r))) < reach for r in RAILS):
            return None  # z itself at a cushion (a fast ball is sampled a step from it): its own bounce
        v1n = float(after.v @ n)
        noise = math.sqrt(fb.cov[1, 1] + after.cov[1, 1]) + BLOW_FLOOR_MM_S
        if -v1n > max(BLOW_SIGMAS * noise, REBOUND_AWAY * v0n):
            return t2, max(0.25 * dt, 0.3 * (t2 - t1))
        return None
    return None


def _touching(p: Path, q: Path, t: float, D: float, dt: float) -> bool:
    """The pair's sampled centres within a diameter of touching at t (the samples either side,
    interpolated, with the noise and half the pair's step over a frame: fast balls meet between
    samples)."""
    ts = np.array([t - dt, t, t + dt])
    rel = _relative(p, q, ts)
    d = float(np.hypot(*rel[1]))
    half = 0.5 * max(float(np.hypot(*(rel[1] - rel[0]))), float(np.hypot(*(rel[2] - rel[1]))))
    return d <= D + _touch_tol(p, q, t) + half


def _striker_near(p: Path, k: int, t_on: float, paths: list[Path], strikers, D: float, dt: float) -> bool:
    """Whether a moving striker came within a diameter (and tolerance) of where p started, about
    when it started: a thin cut it passed on its way to the contact its path shows (seed 12009:
    the cue ball at 5 m/s clips the 11, 50 ms before it meets the 8 its path bends at). Not a ball
    in a cluster (a rack): one frozen to another is set off through it, the usual way."""
    pos = p.start_of(k, t_on)
    if pos is None or any(_frozen(r, pos, t_on, D) for r in paths if r is not p):
        return False
    # Or it passed where its centre had to be for p to leave the way it did (`_departure`): a
    # striker unseen at the contact, its path between the samples either side cutting the corner
    # of its own deflection (seed 10005's cue ball at 2.9 m/s, thinly cutting the 1: its line 9.6
    # mm too far, the departure's spot 11.6 mm from its path).
    spot = _departure(p, k, pos, D) if p.rest is not None else None
    for s in paths:
        if s is p or s.name not in strikers or s.motion_at(t_on - 0.3 * dt) is None:
            continue
        dist = _approach(s, pos, t_on, dt)
        near = dist is not None and dist <= D + 6.0 + 3.0 * math.hypot(_sig(p, t_on), _sig(s, t_on))
        if not near and spot is not None:
            near = _passed_spot(s, spot, t_on, dt)
        if near and not _screened(s, pos, t_on, paths, p, D, dt):  # (not a rack's ball behind the one it hit)
            return True
    return False


def _passed_spot(s: Path, spot: np.ndarray, t_on: float, dt: float) -> bool:
    """Whether striker s's path passed within `DEPARTURE_TOL_MM` of `spot` about t_on: where a
    ball's departure puts the centre of the ball that set it off (`_departure`)."""
    d = _near_then(s, spot, t_on, dt, None)
    return d is not None and d <= DEPARTURE_TOL_MM


def _first_contact(cue: Path, t_strike: float, paths: list[Path], D: float, fps: float):
    """(ball, time, sigma, balls touched together) of the striker's first contact: the first
    resting ball its straight line from the strike reaches, while its path is still that line;
    else the ball a diameter from its first bend."""
    hit = _first_touching(cue, t_strike, paths, D, fps)
    if hit is None:
        hit = _first_unseen(cue, paths, D, fps)
    if hit is None:
        hit = _first_in_line(cue, t_strike, paths, D, fps)
    return hit if hit is not None else _first_bend_contact(cue, t_strike, paths, D, fps)


def _first_touching(cue: Path, t_strike: float, paths: list[Path], D: float, fps: float):
    """A ball (nearly) frozen to the cue ball that starts within a few frames of the strike was
    its first contact: too soon after the strike for the cue ball's line to show it."""
    dt = 1.0 / fps
    if cue.rest is None:
        return None
    near = []
    for q in paths:
        if q is cue or q.rest is None or not q.onsets:
            continue
        gap = float(np.hypot(*(q.rest - cue.rest))) - D
        t_on = q.first_onset()[0]
        if gap <= 10.0 and t_strike - dt <= t_on <= t_strike + 4 * dt:
            near.append((t_on, q.name, q.onsets[min(q.onsets)][1]))
    if not near:
        return None
    near.sort()
    t_hit, name, err = near[0]
    return name, max(t_hit, t_strike + 1e-4), err, {name: (max(t_hit, t_strike + 1e-4), err)}


def _unseen_start(p: Path, a: int, dt: float) -> tuple[float, float] | None:
    """The onset of a ball that left its rest unseen (more than `UNSEEN_GAP_FRAMES` with no
    sighting between its last at rest and its first moving: a fast ball's streak the detector
    did not find): where the line of its first moving samples, traced back, passes its rest
    spot, with its 1-sigma (the sliding friction's slowing over the gap allowed for). None
    without such a gap, or where the line does not come back to the rest spot within its
    noise and that slowing, or cannot place the onset within a frame (a slow ball, a hand
    over it for a while): the kink's time stands. (Seed 7000 through the real detector: the
    3, hit at 4.1 m/s and unseen for six frames, was timed at its first sighting, 0.1 s after
    the cue ball met it, and called disturbed.)"""
    if a < 1 or p.t[a] - p.t[a - 1] <= UNSEEN_GAP_FRAMES * dt:
        return None
    t_last, t_first = float(p.t[a - 1]), float(p.t[a])
    b = p.motions[0][1] if p.motions[0][1] is not None else len(p.t)
    n = min(4, b - a)
    f = fit_line(p.t[a:a + n], p.xy[a:a + n], p.s[a:a + n], t_first) if n >= 3 else None
    t_n = f.nearest(p.rest) if f is not None else None
    if t_n is None or not t_last - 0.5 * dt <= t_n <= t_first:
        return None
    sig = math.sqrt(max(f.var(t_n), 0.0)) + 3.0 * float(p.s[a])
    slack = 0.5 * UNSEEN_DECEL_MM_S2 * (t_first - t_n) ** 2  # mm the line may be off by the slowing
    if float(np.hypot(*(f.pos(t_n) - p.rest))) > 3.0 * sig + slack:
        return None
    err = math.hypot(sig, slack) / max(float(np.hypot(*f.v)), 1.0)
    return (t_n, max(err, 0.25 * dt)) if err <= dt else None


def _unseen_flight(p: Path, D: float, dt: float) -> tuple[float, float] | None:
    """(last seen at rest, first seen moving) when a ball left its rest unseen for over two
    frames and was next seen two diameters or more away; else None."""
    if p.rest is None or not p.motions:
        return None
    a = p.motions[0][0]
    if a == 0:
        return None
    t_rest, t_seen = float(p.t[a - 1]), float(p.t[a])
    if t_seen - t_rest < 2.5 * dt or float(np.hypot(*(p.xy[a] - p.rest))) < 2 * D:
        return None
    return t_rest, t_seen


def _first_unseen(cue: Path, paths: list[Path], D: float, fps: float):
    """A striker unseen from its rest to after its first contact (a break: a cue ball at 8-13 m/s
    is a streak the detector does not take for a ball): it went straight from its rest to the
    contact, and left it on the line its first sightings show. The contact is where that line,
    followed back, first comes a diameter from a ball that starts then, with nothing on the
    straight way from the rest to it."""
    dt = 1.0 / fps
    flight = _unseen_flight(cue, D, dt)
    if flight is None:
        return None  # seen on its way: its own line tells
    t_rest, t_seen = flight
    post = cue.fit_after(t_seen - 0.5 * dt, dt)
    if post is None or float(np.hypot(*post.v)) < 100.0:
        return None
    found = []
    for q in paths:
        if q is cue or q.rest is None or (q.motions and q.t[q.motions[0][0]] < t_rest):
            continue
        # The line followed back: when it is a diameter from q nearest its first sighting (or,
        # if it only grazes q, at its closest).
        hit = contact_time(post, rest_fit(q.rest, _sig(q, t_seen), t_seen), D, t_seen, dt)
        if hit is None or not t_rest < hit[0] <= t_seen + 0.5 * dt:  # (good to a fraction of a frame)
            continue
        t_c = hit[0]
        sd = math.sqrt(max(post.var(t_c), 0.0))
        if abs(float(np.hypot(*(post.pos(t_c) - q.rest))) - D) > 2 * sd + 3.0:
            continue
        if not _set_moving(q, t_c, paths, D, dt, within=6, by=cue):
            continue
        # Nothing in the way from the rest to the contact (a rack's inner ball is behind its apex).
        at = post.pos(t_c)
        way = at - cue.rest
        L2 = max(float(way @ way), 1e-9)
        blocked = False
        for r in paths:
            if r is q or r is cue or r.rest is None or (r.motions and r.t[r.motions[0][0]] < t_rest):
                continue
            u = min(max(float((r.rest - cue.rest) @ way) / L2, 0.0), 1.0)
            if u < 1.0 and float(np.hypot(*(cue.rest + u * way - r.rest))) < D - 2.0:
                blocked = True
                break
        if not blocked:
            found.append((t_c, q.name, max(0.5 * dt, hit[1])))
    if not found:
        return None
    # Followed back from where it was first seen, the first ball the line meets is the one it
    # left: further back the line is not its path (a break's cue ball drawn back off the 1
    # would otherwise "meet" the rack's inner balls behind it).
    found.sort(reverse=True)
    t_hit, name, err = found[0]
    together = {n: (t, e) for t, n, e in found if t_hit - t <= 2 * math.hypot(err, e)}
    return name, min(t_hit, t_seen - 1e-4), err, together


def _first_in_line(cue: Path, t_strike: float, paths: list[Path], D: float, fps: float):
    dt = 1.0 / fps
    k = cue.motion_at(t_strike + dt)
    if k is None or cue.rest is None:
        return None
    a, b = cue.motions[k]
    end = b if b is not None else len(cue.t)
    # The line: the rest position at the strike and the samples until the path first bends:
    # until a sample lies off the line through the rest and the samples before it. Off sideways
    # only: which ball the line reaches is its direction's question, and a change of speed
    # (a full hit, the strike's time a little off) does not turn it. (A velocity-change test
    # over four frames reaches past the contact of a 13 m/s break's cue ball, and left the
    # rest and one blurred sample to aim the line.)
    # Nor past the first start of another ball: nothing else set one moving, so the cue ball
    # had met a ball by then (its exposure, reaching PRE_GUARD of a frame past its time stamp,
    # may show the turn).
    starts = [t_on for q in paths if q is not cue and q.rest is not None and q.onsets
              for t_on, _ in q.onsets.values() if t_on > t_strike]
    t_cap = min(starts, default=math.inf) - PRE_GUARD * dt
    last = min(a + APPROACH_MAX, end)
    for i in range(a + 1, min(a + APPROACH_MAX, end)):
        if cue.t[i] >= t_cap or _off_line(cue, t_strike, a, i):
            last = i
            break
    if last - a < 1:
        return None
    # The rest and one sample make a line too (a short approach at 30 fps bends at its second
    # sample), but its time leans on the strike's: no surer than a frame.
    floor = dt if last - a < 2 else 0.0
    line = _strike_line(cue, t_strike, a, last)
    if line is None or float(np.hypot(*line.v)) < 50.0:
        return None
    hits = []
    for q in paths:
        if q is cue or q.rest is None or (q.motions and q.t[q.motions[0][0]] < t_strike):
            continue
        da, dv = line.a - q.rest, line.v
        A, B, C = float(dv @ dv), 2 * float(da @ dv), float(da @ da) - D * D
        disc = B * B - 4 * A * C
        if disc < 0:
            # A near miss by the line, within its sideways uncertainty, may be a graze (a line
            # from the rest and a sample or two is a few degrees off: seed 17016's cue ball met
            # the 9, 20 mm off its line of 31 mm sigma, two frames after the strike).
            graze = _graze(line, q.rest, D)
            if graze is None or graze[0] <= t_strike:
                continue
            hits.append((graze[0], q.name, graze[1], q, True))
            continue
        tau = (-B - math.sqrt(disc)) / (2 * A)
        if tau <= 0:
            continue
        t_hit = t_strike + tau
        err = math.sqrt(line.var(t_hit)) / max(abs(float((da + dv * tau) @ dv)) / D, 1.0)
        hits.append((t_hit, q.name, max(err, 0.0005), q, False))
    if not hits:
        return None
    # A near miss is taken for a graze only when its ball was set moving a frame before any
    # ball the line meets (in a rack the balls beside the one hit start with it).
    # Or when it comes first on the line and was seen off its spot while no ball the line meets
    # had come near it (seed 15008's 1, 5 mm off with the 5, 10 mm beside it, still at rest: the
    # cue ball grazed the 1, then met the 5 18 ms later; their onsets are under a frame apart).
    met_q = [h[3] for h in hits if not h[4]]
    met = [q.first_onset()[0] for q in met_q if q.onsets]
    t_met = min((h[0] for h in hits if not h[4]), default=math.inf)
    hits = [h for h in hits if not h[4] or (h[3].onsets and met and h[3].first_onset()[0] < min(met) - dt)
            or (h[0] < t_met and _moved_first(h[3], met_q, D))]
    if not hits:
        return None
    hits.sort(key=lambda h: h[0])
    t_hit, name, err, q, _ = hits[0]
    # Still on the line up to there (no cushion, no curve first), and the ball it meets moves.
    sel = (cue.t > t_strike) & (cue.t < t_hit - PRE_GUARD * dt)
    sel[:a] = False
    sel[end:] = False
    if sel.any():
        # Off the line sideways (the cloth only slows it along the line).
        u = line.v / float(np.hypot(*line.v))
        rel = cue.xy[sel] - line.a
        dev = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
        if float(dev.max()) > 4.0 * float(np.median(cue.s[sel])) + 3.0:
            return None
    # The line from the strike tells which ball; its time runs early on a long shot (the cloth
    # slows the ball), so time the contact with the line just before it.
    # The line's order is the geometry's: a ball half a diameter or more further along it is
    # not met first, whatever its own start says (a rack's inner balls start with its apex).
    # Only balls about as far along as the first are told apart by their own timing.
    speed = float(np.hypot(*line.v))
    refined = []
    for h_t, h_name, h_err, h_q, grazed in hits:
        if (h_t - t_hit) * speed >= 0.5 * D:
            break
        # When the ball it meets starts moving is when it was hit (the line's time is early);
        # but no later than the cue ball's path reached it: a ball grazed (a rack's, tens of
        # mm/s) is seen to move frames late, and the cue ball's path by then is the one after
        # the contact.
        starts = [t_on for t_on, _ in (h_q.onsets or {}).values() if t_on >= h_t - 2 * dt]
        guess = min(starts) if starts else h_t
        reached = _reaches(cue, h_q.rest, t_strike, guess, D, dt)
        if reached is not None and reached < guess:
            guess = reached
        local = cue.fit_before(guess, dt)
        if _passes_by(local, h_q.rest, D, guess, dt):
            continue  # the long line grazed it; the approach just before passes it by
        if grazed:
            # A graze closes hardly at all: timed where the path, within its uncertainty,
            # can have touched it; and by the ball's own start when that agrees (one sent off
            # at once: seed 10012's 3, 10 ms apart; not a rack ball creeping off late).
            est = _graze(local, h_q.rest, D) if local is not None else None
            t_g, e_g = est if est is not None else (h_t, h_err)
            e_g = max(e_g, floor)
            on = h_q.first_onset()
            if on is not None and abs(on[0] - t_g) <= 2 * math.hypot(e_g, on[1]):
                w1, w2 = 1 / e_g ** 2, 1 / max(on[1], 0.0005) ** 2
                t_g, e_g = (t_g * w1 + on[0] * w2) / (w1 + w2), math.sqrt(1 / (w1 + w2))
            refined.append((t_g, h_name, e_g, h_q))
            continue
        est = contact_time(local, rest_fit(h_q.rest, _sig(h_q, guess), guess), D, guess, dt,
                           entry=True) if local is not None else None
        good = est is not None and est[1] < max(h_err, dt)
        refined.append((est[0], h_name, max(est[1], floor), h_q) if good else (h_t, h_name, max(h_err, floor), h_q))
    # A ball seen to start only well after the line met it was not met then when another ball the
    # line meets had clearly started before it: the line, a few degrees unsure, passed between
    # the two, and the first to move is the one met (seed 11005: the cue ball's line from its rest
    # and one blurred sample met the 10 and grazed the 3 on its other side; the 3 started at its
    # graze's time, the 10 58 ms later, when the cue ball came back off the cushion into it).
    # Not a ball frozen to another: a rack's, grazed, creeps off and is seen moving late (seed
    # 10013's 13, 0.1 s after the cue ball grazed it and met the 8).
    late = {h[1] for h in refined if _started_after(h[3], h[0], h[2])
            and not any(_frozen_to(h[3], r, D) for r in paths if r is not h[3])}
    refined = [h for h in refined if h[1] not in late
               or not any(_started_before(g[3], h[3], dt) for g in refined if g[1] not in late)]
    if not refined:
        return None  # the path's bend will tell
    refined.sort(key=lambda h: h[0])
    t_hit, name, err, q = refined[0]
    # The ball it meets is set moving (a slow one, deep in a rack, a few frames later), or
    # passes the blow on to one frozen to it.
    if not _set_moving(q, t_hit, paths, D, dt, within=8, by=cue):
        return None
    # Balls met together within the time's uncertainty (a split hit, WPA 3.2's benefit of the doubt).
    together = {h[1]: (h[0], h[2]) for h in refined if h[0] - t_hit <= 2 * math.hypot(err, h[2])}
    return name, t_hit, err, together


def _seen_touching(p: Path, q: Path, t0: float, t1: float, D: float) -> bool:
    """Whether a sample of p between t0 and t1 puts its centre a diameter less its sigma or
    nearer q's then: the two touching, beyond p's noise."""
    sel = (p.t >= t0) & (p.t <= t1)
    for t, xy, s in zip(p.t[sel], p.xy[sel], p.s[sel]):
        x = q.at(float(t))
        if x is not None and float(np.hypot(*(xy - x))) <= D - float(s):
            return True
    return False


def _started_after(q: Path, t: float, err: float) -> bool:
    """Whether ball q was seen to start clearly (two sigmas of both) after time t, of sigma err."""
    on = q.first_onset()
    return on is not None and on[0] - t > 2 * math.hypot(err, on[1])


def _started_before(g: Path, h: Path, floor: float) -> bool:
    """Whether ball g was seen to start clearly before ball h: by two sigmas of both onsets, and
    `floor` seconds at least."""
    on_g, on_h = g.first_onset(), h.first_onset()
    return on_g is not None and on_h is not None and \
        on_g[0] < on_h[0] - max(2 * math.hypot(on_g[1], on_h[1]), floor)


def _moved_first(g: Path, others: list[Path], D: float) -> bool:
    """Whether resting ball g was seen clearly off its spot (its first sample 5 mm and three
    sigma off) before any of `others` had come within a diameter (and three sigma) of that spot:
    none of them can have set it moving."""
    if g.rest is None or not g.motions or not others:
        return False
    off = np.hypot(*(g.xy - g.rest).T) > np.maximum(5.0, 3.0 * g.s)
    off[:g.motions[0][0]] = False
    if not off.any():
        return False
    t_off = float(g.t[int(np.argmax(off))])
    for m in others:
        if m.rest is None:
            return False
        sel = m.t <= t_off + 1e-9
        xy = np.vstack([m.rest.reshape(1, 2), m.xy[sel]])
        s = np.concatenate([[0.0], m.s[sel]])
        if (np.hypot(*(xy - g.rest).T) - D <= 3.0 * s + 1.0).any():
            return False
    return True


def _graze(fit: Fit, rest, D: float) -> tuple[float, float] | None:
    """A fitted path that misses a resting ball's reach by less than NEAR_MISS_SIGMAS of its
    sideways uncertainty may have grazed it: (when, sigma). The path the samples allow that
    touches it comes up to `reach` before the line's closest point (a deeper one, earlier),
    so the contact lies within that span, timed at its middle."""
    v2 = float(fit.v @ fit.v)
    if v2 < 1e-6:
        return None
    rel = np.asarray(rest, float) - fit.a
    tau = float(rel @ fit.v) / v2
    t_cl = fit.t_ref + tau
    gap = float(np.hypot(*(fit.pos(t_cl) - rest))) - D
    sd = math.sqrt(max(fit.var(t_cl), 0.0))
    if gap > NEAR_MISS_SIGMAS * sd:
        return None
    closest = min(max(D + gap - NEAR_MISS_SIGMAS * sd, 0.0), D)
    reach = math.sqrt(D * D - closest * closest)
    speed = math.sqrt(v2)
    return t_cl - 0.5 * reach / speed, max(math.hypot(sd, 0.5 * reach) / speed, 0.0005)


def _reaches(p: Path, pos, t_from: float, t_to: float, D: float, dt: float) -> float | None:
    """The first sample time in (t_from, t_to] by which moving ball p had come a diameter from
    the point `pos`, within their noise: by the sample itself, or by its line just before it
    followed on (a fast ball's samples, a frame apart, step over the contact: then the sample
    after the line's closest point)."""
    pos = np.asarray(pos, float)
    idx = np.flatnonzero((p.t > t_from) & (p.t <= t_to))
    for n, i in enumerate(idx):
        t_i = float(p.t[i])
        if p.motion_at(t_i) is None:
            continue
        reach = D + 3.0 + 3.0 * float(p.s[i])
        if float(np.hypot(*(p.xy[i] - pos))) <= reach:
            return t_i
        near = _line_nearest(p, pos, t_i, dt)
        if near is not None and near[0] <= reach:
            x = near[1]
            return t_i if x <= t_i else (float(p.t[idx[n + 1]]) if n + 1 < len(idx) else t_i + dt)
    return None


def _strike_line(cue: Path, t_strike: float, a: int, end: int) -> Fit | None:
    """The line of the cue ball from its rest at the strike through its samples a..end-1."""
    ts = np.concatenate([[t_strike], cue.t[a:end]])
    xy = np.concatenate([[cue.rest], cue.xy[a:end]])
    s = np.concatenate([[0.5], cue.s[a:end]])
    return fit_line(ts, xy, s, t_strike)


def _on_line(line: Fit, point, min_speed: float) -> tuple[float, float, np.ndarray] | None:
    """Where `point` lies from a fitted line's reference position: (along it, sideways of it
    (signed), its unit direction); None when the line moves slower than `min_speed` (mm/s)."""
    speed = float(np.hypot(*line.v))
    if speed < min_speed:
        return None
    u = line.v / speed
    rel = np.asarray(point, float) - line.a
    return float(rel @ u), float(rel[0] * u[1] - rel[1] * u[0]), u


def _off_line(cue: Path, t_strike: float, a: int, i: int) -> bool:
    """Whether sample i of the cue ball lies off the line through its rest and samples a..i-1,
    sideways, by more than three sigmas of both (and 3 mm)."""
    line = _strike_line(cue, t_strike, a, i)
    where = _on_line(line, cue.xy[i], 50.0) if line is not None else None
    if where is None:
        return False
    dev = abs(where[1])
    # The line's uncertainty at the sample's time (it grows with the time from the sure rest:
    # the direction is what is unsure), and the sample's own.
    t_i = float(cue.t[i])
    return dev > 3.0 * math.hypot(float(cue.s[i]), math.sqrt(max(line.var(t_i), 0.0))) + 3.0


def _passes_by(fit: Fit | None, rest, D: float, t: float, dt: float) -> bool:
    """Whether a fitted approach clearly misses a resting ball: its closest approach (within
    three frames of `t`) is further than a diameter by over twice its sideways uncertainty."""
    if fit is None or rest is None:
        return False
    v2 = float(fit.v @ fit.v)
    if v2 < 1e-6:
        return False
    tc = min(max(fit.nearest(rest), t - 3 * dt), t + 3 * dt)
    gap = float(np.hypot(*(fit.pos(tc) - rest))) - D
    return gap > 2.0 * math.sqrt(max(fit.var(tc), 0.0)) + 2.0


def _first_bend_contact(cue: Path, t_strike: float, paths: list[Path], D: float, fps: float):
    dt = 1.0 / fps
    k = cue.motion_at(t_strike + dt)
    if k is None:
        return None
    a, b = cue.motions[k]
    by = {q.name: q for q in paths}
    idx = range(a + 2, (b if b is not None else len(cue.t)) - 1)
    for i in idx:
        t = float(cue.t[i])
        if _velocity_change(cue, t - 0.5 * dt, fps) < 4.0:
            continue
        t_c, err, pre, post = kink(cue, t - 0.5 * dt, fps)
        if pre is None:
            return None
        # The balls the line before the bend reaches a diameter from, near the bend's time
        # (a fast ball's bend time is uncertain by more than its travel allows for a distance
        # test at one instant).
        near = []
        for q in paths:
            if q is cue:
                continue
            fq = q.fit_before(t_c, dt) if q.motion_at(t_c - dt) is not None else None
            if fq is None:
                qp = q.at(t_c)
                if qp is None:
                    continue
                fq = rest_fit(qp, _sig(q, t_c), t_c)
            hit = contact_time(pre, fq, D, t_c, dt)
            if hit is None or float(np.hypot(*(pre.pos(hit[0]) - fq.pos(hit[0])))) > D + 3.0:
                continue
            # A ball touched is set moving (or was moving): one the cue ball passes over in the
            # air stays put.
            if _set_moving(q, hit[0], paths, D, dt, within=3, by=cue):
                near.append((hit[0], q.name, hit[1]))
        if not near:
            continue  # a cushion or a curve, not a ball: the first contact is further on
        if len(near) > 1:
            # A ball set moving only by passing the blow on to another of these was not met when
            # that other left the way the cue ball's path sends it: its departure puts the cue
            # ball's centre on the path (seed 10001's cue ball, its line before 19 mm unsure,
            # stunned on the 2; the 1, frozen beside the 2, moved only 0.6 s later).
            def left_by_cue(h) -> bool:
                q = by[h[1]]
                on = q.first_onset()
                if q.rest is None or on is None or abs(on[0] - h[0]) > 3 * dt:
                    return False
                spot = _departure(q, 0, q.rest, D)
                return spot is not None and _passed_spot(cue, spot, on[0], dt)
            if any(left_by_cue(h) for h in near):
                near = [h for h in near if by[h[1]].motion_at(h[0] + 3 * dt) is not None] or near
        near.sort()
        first = near[0]
        together = [h for h in near if h[0] - first[0] <= max(2 * first[2], 0.5 * dt)]
        if len(together) > 1:
            # Balls the line before the bend meets together are told apart by their own starts,
            # where each started within a few frames of it and they are clearly apart: past
            # the first contact the path is no longer that line (seed 14004: the cue ball into
            # the 13 and the 8, 6 mm apart, the line meeting both at once; the 13 started 10 ms
            # before the 8, each timed to 2 ms). Not a frozen ball's: the blow passes through a
            # rack in an instant, and its balls' starts are in no order (seed 10011's break: the
            # 8 "started" 3 ms before the 1 it stood behind).
            ons = [by[h[1]].first_onset() for h in together]
            if all(on is not None and abs(on[0] - h[0]) <= 3 * dt for h, on in zip(together, ons)) and not any(
                    _frozen_to(by[h[1]], r, D) for h in together for r in paths if r is not by[h[1]]):
                first = min(together, key=lambda h: by[h[1]].first_onset()[0])
                together = [h for h in together if not _started_before(by[first[1]], by[h[1]], 0.5 * dt)]
        return first[1], first[0], first[2], {h[1] for h in together}
    return None


def _pushed_into_rail(p: Path, pos, q: Path, t_c: float, e_c: float, table: Table, dt: float) -> dict | None:
    """A ball resting at a cushion, hit toward it, bounces off it within a frame: seen only as a
    ball that leaves away from the rail it was pushed into, or, touching it, slides along it (not
    into it by more than three sigmas of its velocity across the rail: a slow ball's measured
    sliding has a few mm/s of noise either way). Seed 13004: the 2, touching the left cushion,
    hit toward it by a slow cue ball, slides along it at 56 mm/s, measured 12 mm/s into it; WPA
    2.7, a ball is not frozen unless declared: driven to the rail, the shot legal."""
    qp = q.at(t_c - dt)
    if qp is None:
        return None
    push = np.asarray(pos, float) - qp
    push /= max(float(np.hypot(*push)), 1e-9)
    post = p.fit_after(t_c, dt)
    if post is None:
        return None
    for r, (_, _, n) in RAILS.items():
        gap = float(table.cushion_gap(pos, r))
        if gap > PUSHED_GAP_MM:
            continue
        if gap > 10.0:
            # Farther off, and seen first coming away from it, clearly (three sigmas of its
            # velocity across the rail): pushed toward the rail, nothing but the cushion turned
            # it back (no ball fits between). Timed where its line back meets the rail, within
            # the frame after the blow (seed 9010's 12, 19 mm off the head cushion, hit at 3.6
            # m/s: the cushion 5 ms after the blow, the cue ball met again 8 ms after that).
            away = float(post.v @ n)
            if float(push @ n) >= -0.2 or away <= 3.0 * math.sqrt(max(float(post.cov[1, 1]), 0.0)) + BLOW_FLOOR_MM_S:
                continue
            t_back = post.t_ref - float(table.cushion_gap(post.a, r)) / away
            t_b = min(max(t_back, t_c + 1e-4), t_c + dt)
            return {"t": t_b, "type": "cushion", "ball": p.name, "rail": r, "t_err": max(e_c, 0.5 * dt)}
        # Touching it (within 3 sigmas of its centre): it cannot go on into the rail.
        touching = gap <= 3.0 * _sig(p, t_c)
        slack = 3.0 * math.sqrt(max(float(post.cov[1, 1]), 0.0)) if touching else 0.0
        if float(push @ n) < -0.2 and float(post.v @ n) > -0.2 * float(np.hypot(*post.v)) - slack:
            return {"t": t_c + 0.5 * e_c, "type": "cushion", "ball": p.name, "rail": r, "t_err": max(e_c, 0.5 * dt)}
    return None


def _travels(p: Path, k: int) -> bool:
    """Motion k is a ball travelling (its centre steps on over several frames), not one jump of
    the measurement (a re-fit of a ball half hidden by an arm, or at a pocket's dark mouth) that
    then sits still: a touched ball slides for a fifth of a second or more."""
    a, b = p.motions[k]
    end = b + 1 if b is not None else len(p.xy)
    xy = p.xy[a:end]
    if len(xy) < 2:
        return False
    steps = np.hypot(*np.diff(xy, axis=0).T)
    if int(np.count_nonzero(steps > 1.5)) >= 3:
        return True
    # A slow slide (seed 9013's 13, nudged 20 mm in a quarter second) steps a millimetre or so a
    # frame, and the rest test takes much of it for jitter: the motion is a few frames of it.
    # Where it rested before and after differ by more than twice any one step into, through and
    # out of them: the move was spread over frames, not one jump.
    before, after = p.xy[max(a - 3, 0):a], p.xy[end:end + 3]
    if len(before) == 0 or len(after) == 0:
        return False
    span = p.xy[a - 1:min(end + 1, len(p.xy))]
    net = float(np.hypot(*(np.median(after, axis=0) - np.median(before, axis=0))))
    return net >= DISTURB_MIN_MM and float(np.hypot(*np.diff(span, axis=0).T).max()) <= 0.5 * net


def _leapt(p: Path, k: int, pos, dt: float) -> bool:
    """Motion k's first sample is farther from where the ball rested than any ball goes in the
    time since its last sample at rest (`STRIKE_MAX_MM_S`): two balls' sightings mixed up, not a ball
    moved (seed 12001's break through the real detector: the 7's track, on a rack ball the 7 had
    left unseen, was handed a sure "7" 1.9 m away the next frame and called disturbed)."""
    a = p.motions[k][0]
    if a == 0 or pos is None:
        return False
    return float(np.hypot(*(p.xy[a] - np.asarray(pos)))) > STRIKE_MAX_MM_S * max(float(p.t[a] - p.t[a - 1]), dt)


def _creeps_on(p: Path, k: int, t_on: float, dt: float) -> bool:
    """A restart soon after the ball's last motion ended, slowly: the end of a roll the rest test
    cut short, not a ball set moving."""
    a_prev, b_prev = p.motions[k - 1]
    if b_prev is None or t_on - p.t[b_prev] > 1.5:
        return False
    a = p.motions[k][0]
    post = fit_line(p.t[a:a + 5], p.xy[a:a + 5], p.s[a:a + 5], t_on)
    return post is not None and float(np.hypot(*post.v)) < 300.0


def _partners(p: Path, pos, t_on: float, onsets, paths: list[Path], D: float, dt: float, window: float,
              slack: float, causes: bool = False, recent: bool = False, striker: bool = False,
              met: dict[tuple[str, str], list[tuple[float, float]]] | None = None) -> list:
    """The balls that can have set p moving at t_on: within a diameter (plus tolerance) of it and
    moving then, or starting with it (a frozen neighbour). With `causes`, balls already moving
    (or started clearly earlier) come first: a frozen neighbour starting at the same instant was
    pushed by the same blow. The one nearest a diameter away touched it; a second counts only if
    it too is touching. `met`: the contacts found so far (`extract`'s pairs: (time, sigma) by
    pair): a ball that met one other than p within its line's window before t_on is judged by
    its path since that contact (`_approach`'s `since`)."""
    moving, starting = [], []
    in_rack = None  # frozen to two or more balls (asked only when a pair met already)
    for q in paths:
        if q is p:
            continue
        if any(abs(x - t_on) <= window * dt for x, _ in (met or {}).get(tuple(sorted((p.name, q.name))), ())):
            # Met already at this onset, p setting q off: the blow went the one way; what set p
            # off is another ball (seed 8013's 12 into the 1, which passed it on to the 2 it
            # rested 2 mm from, the 2 seen to start first). Not in a rack, where the blows among
            # balls frozen together go every way at once.
            if in_rack is None:
                in_rack = sum(_frozen_to(r, p, D) for r in paths if r is not p) >= 2
            if not in_rack:
                continue
        since = _last_contact(q, p, t_on, met, dt)
        dist = _approach(q, pos, t_on, dt, since)
        if dist is None:
            continue
        tol = 6.0 + slack + 3.0 * math.hypot(_sig(p, t_on), _sig(q, t_on))
        if dist > D + tol:
            continue
        q_on = [o for o in onsets if o[2] is q and abs(o[0] - t_on) <= window * dt]
        before = q.motion_at(t_on - 0.3 * dt) is not None and not [o for o in q_on if o[0] > t_on - 0.3 * dt]
        if recent and not before:
            # Moving at some time in the window before (a slow start is timed late).
            before = any(q.motion_at(x) is not None for x in np.linspace(t_on - window * dt, t_on, 6))
        if before:
            if not _screened(q, pos, t_on, paths, p, D, dt):
                moving.append((abs(dist - D), q, q_on))
        elif q_on:
            starting.append((abs(dist - D), q, q_on))
    if striker:
        group = moving  # a cue ball frozen to a ball starts them both: its own start is the strike
    else:
        group = (moving or starting) if causes else moving + starting
    group.sort(key=lambda x: x[0])
    picked = [(q, q_on) for gap, q, q_on in group if gap == group[0][0] or gap <= 3.0]
    if len(picked) == 1 and len(moving) > 1 and group is moving:
        # Several moving balls near it: equal balls push each other along their line of
        # centres, so the one it set off away from hit it.
        post = p.fit_after(t_on, dt)
        speed = float(np.hypot(*post.v)) if post is not None else 0.0
        if speed > 100.0:
            def along(q):
                qp = q.at(t_on - 0.5 * dt)
                if qp is None:
                    return -1.0
                n = np.asarray(pos, float) - qp
                return float(n @ post.v) / max(float(np.hypot(*n)) * speed, 1e-9)
            best = max(group, key=lambda x: along(x[1]))
            if along(best[1]) > 0.9 and along(group[0][1]) < 0.7:
                return [(best[1], best[2])]
    return picked


def _last_contact(q: Path, p: Path, t_on: float, met: dict | None, dt: float, at_onset: bool = False,
                  frames: float = LINE_FRAMES) -> float | None:
    """The time of q's last contact with a ball other than p (`met`: the contacts found so far)
    within its line's window (`frames`) before t_on (`at_onset`: or at it), or None: from then
    on q is judged by its path since, not by its line through that contact (`_approach`)."""
    lo = t_on - frames * dt
    return max((x for pair, ts in (met or {}).items() if q.name in pair and p.name not in pair
                for x, _ in ts if lo < x < t_on or (at_onset and x == t_on)), default=None)


def _departure(p: Path, k: int, pos, D: float) -> np.ndarray | None:
    """Where the centre of the ball that set p off from `pos` (motion k) was at that contact:
    struck from rest, a ball leaves along the line of centres, so a diameter back from `pos`
    against the way it left: towards its first sample of the motion `DEPARTURE_MIN_MM` or more
    from there; or the next, farther, when the two agree within `DEPARTURE_TURN_DEG` (a blurred
    ball's centre strays sideways by millimetres). (The first sample of the motion, not the
    first after its onset, which may be timed late: seed 7013's 2, struck into the head cushion
    20 mm away, onset 10 ms late, its sample after that beyond the bounce. The first only, when
    the next disagrees: seed 10008's 7, met by the 3 and by the cue ball 6 ms later.) None when
    no sample is that far within four."""
    pos = np.asarray(pos, float)
    a = p.motions[k][0]
    xy = p.xy[a:a + 4]
    d = np.hypot(*(xy - pos).T)
    far = np.nonzero(d >= DEPARTURE_MIN_MM)[0]
    if len(far) == 0:
        return None
    i = int(far[0])
    u = (xy[i] - pos) / d[i]
    if i + 1 < len(xy) and d[i + 1] > d[i]:
        u2 = (xy[i + 1] - pos) / d[i + 1]
        if float(u @ u2) >= math.cos(math.radians(DEPARTURE_TURN_DEG)):
            u = u2
    return pos - D * u


def _near_then(q: Path, c: np.ndarray, t_on: float, dt: float, since: float | None) -> float | None:
    """How close ball q came to the point c within 1.5 frames of t_on (None: q not moving then):
    its samples then (from its rest, if it started then); its line before, or, `since` a contact
    of its own in the line's window, its path from there (see `_approach`); and its line after,
    followed back (a contact between two samples is a corner that they cut)."""
    lo, hi = t_on - 1.5 * dt, t_on + 1.5 * dt
    k = q.motion_at(t_on, slack=1.5 * dt)
    if k is None:
        return None
    segs = []
    fb = q.fit_before(since if since is not None else t_on, dt)
    if since is not None and fb is not None:
        sel = (q.t > since) & (q.t <= hi + dt)
        poly = np.vstack([fb.pos(since).reshape(1, 2), q.xy[sel]])
    else:
        sel = (q.t >= lo - dt) & (q.t <= hi + dt)
        poly = q.xy[sel]
        start = q.onsets.get(k) if q.onsets else None
        if start is not None and start[0] >= lo - dt and q.rest_of(k) is not None:
            poly = np.vstack([q.rest_of(k).reshape(1, 2), poly])
        if fb is not None:
            segs.append((fb.pos(lo), fb.pos(hi)))
    fa = q.fit_after(t_on, dt)
    if fa is not None:
        segs.append((fa.pos(lo), fa.pos(hi)))
    if len(poly) >= 2:
        segs.append((poly[:-1], poly[1:]))
    elif len(poly):
        segs.append((poly[0], poly[0]))
    if not segs:
        return None
    return min(float(np.min(segment_distances(c, a, b))) for a, b in segs)


def _by_departure(p: Path, k: int, pos, t_on: float, onsets, paths: list[Path], D: float, dt: float,
                  partners: list, met: dict[tuple[str, str], list[tuple[float, float]]]) -> list:
    """`partners` (from `_partners`) checked against the way p left: the ball whose path passed
    where the striker's centre had to be (`_departure`) within `DEPARTURE_TOL_MM`, and no other
    within twice that, set p off. It replaces no partner, or a single one that was nowhere near
    that spot (`DEPARTURE_FAR_MM`): contacts a few milliseconds apart, where the onsets blame the
    ball whose line ran on through the one it had hit (seed 7003's cue ball into the 2, which met
    the 3 7 ms later: the cue ball's line "reached" the 3; its 10, set off by the cue ball at 5.8
    m/s into the 5 5 ms later, the corner between two samples)."""
    if len(partners) > 1:
        return partners
    c = _departure(p, k, pos, D)
    if c is None:
        return partners
    near = []
    for q in paths:
        if q is p:
            continue
        # (With a contact of q's timed at p's onset too: both onsets moved up to the first contact.)
        since = _last_contact(q, p, t_on, met, dt, at_onset=True)
        d = _near_then(q, c, t_on, dt, since)
        if d is not None:
            near.append((d, q))
    near.sort(key=lambda x: x[0])
    if not near or near[0][0] > DEPARTURE_TOL_MM or (len(near) > 1 and near[1][0] <= 2 * DEPARTURE_TOL_MM):
        return partners
    best = near[0][1]
    if partners:
        named = partners[0][0]
        if named is best or any(r is named and d <= DEPARTURE_FAR_MM for d, r in near):
            return partners
    return [(best, [o for o in onsets if o[2] is best and abs(o[0] - t_on) <= 1.5 * dt])]


def _screened(q: Path, pos, t_on: float, paths: list[Path], p: Path, D: float, dt: float) -> bool:
    """Whether moving ball q, coming along its line, would have met another ball resting in its
    way before it could reach `pos` (p's spot) a diameter off: that ball stands between (a rack's
    ball behind the one the cue ball hits), and q cannot have touched p first. Seed 10011's
    break: the cue ball's line passes the 8 a diameter off, but only through the 1 frozen in
    front of it."""
    f = q.fit_before(t_on, dt)
    where = _on_line(f, pos, 300.0) if f is not None else None
    if where is None or abs(where[1]) >= D:
        return False
    along_p, side_p, u = where
    # q's centre when it touches p, coming along its line.
    x = f.a + u * (along_p - math.sqrt(D * D - side_p * side_p))
    return _inside_a_resting_ball(x, math.sqrt(max(f.var(t_on), 0.0)), t_on, paths, (q, p), D, dt)


def _before_first(x: str, y: str, t: float, first_of: dict, dt: float) -> bool:
    """Whether a meeting of x and y at t is a striker's, before its first contact as its path
    shows it (`first_of`: where the path is three frames or more long), with a ball not touched
    in that contact: the path's first contact rules there, as it does over the onsets' guesses
    (seed 10015's break: the cue ball, its blurred line 2 degrees off, "met" the 15 and the 3
    frozen behind the 9 it hit full, 3 ms before it)."""
    for name, other in ((x, y), (y, x)):
        fc = first_of.get(name)
        if fc is not None and t < fc[1] and other != fc[0] and other not in fc[3]:
            return True
    return False


def _through_a_ball(p: Path, q: Path, t_c: float, paths: list[Path], D: float, dt: float) -> bool:
    """Whether one of two balls "meeting" at t_c was at rest until then and the other's line
    would reach it only through a ball resting in the way (`_screened`): a break's cue ball
    "meets" a rack ball behind the one it hit, its samples 170 mm apart cutting the corner."""
    for a, b in ((p, q), (q, p)):
        if b.rest is None or not b.motions or abs(float(b.t[b.motions[0][0]]) - t_c) > 2 * dt:
            continue
        if a.motion_at(t_c - 0.3 * dt) is not None and _screened(a, b.rest, t_c, paths, b, D, dt):
            return True
    return False


def _inside_a_resting_ball(x: np.ndarray, sig: float, t: float, paths: list[Path], skip, D: float, dt: float) -> bool:
    """Whether a ball's centre at `x` (1-sigma `sig`) at time t would lie deep inside a ball
    resting there until then: within 0.3 diameters of its centre (and by 5 mm and twice the
    uncertainties inside it). No ball gets there: coming at it that full (a cut under 17
    degrees), a ball hands on over 90 % of its speed and leaves at over 73 degrees. One cut
    thinner is deflected and may touch another next (seed 8003's cue ball, 33-41 mm from the
    centre of the 12 it clipped, met the 8 a frame later; seed 7013's, 25 mm from the 2's, its
    onset timed 10 ms late, met the 13 12 ms after the 2); and a ball set off before t is
    no longer where it rested."""
    for r in paths:
        if r in skip or r.rest is None:
            continue
        if r.motions:
            start = r.onsets[0][0] if r.onsets and 0 in r.onsets else float(r.t[r.motions[0][0]]) - 0.5 * dt
            if start < t - 0.5 * dt:
                continue  # set off before then: what hit it may have been deflected on since
        if float(np.hypot(*(x - r.rest))) < min(0.3 * D, D - 5.0 - 2.0 * (sig + _sig(r, t))):
            return True
    return False


def _frozen_pairs(paths: list[Path], hits: list[dict], strikers, D: float, dt: float):
    """(p, q, t, sigma) for each two balls resting frozen together (`FROZEN_GAP_MM`) that were set
    off from rest together (`FROZEN_LATE_S`), a ball of their cluster (`_clusters`) met by a ball
    as the first started (`hits`: the collisions found so far): the blow passed between them
    (timed by `_at_the_blow`). (Their cluster's: seed 10016's rack balls started in the frame the
    cue ball met the 1, and the onsets named no ball that met them.)
    At a break every ball of the rack is set off at once, and the onsets blame each one on the
    nearest ball already moving, not on its frozen neighbours, which the physics counts as
    contacts too (9000-9019: 97 % of the frozen pairs); one pushed off slowly is seen to start
    frames late.
    Not a striker's (its start is the strike), nor a pair that a ball not frozen to them met
    both of before both were off (it drove them apart: seed 10013's 3 into the 9, then the 14
    frozen beside it). And a ball that did not move, among frozen balls set off so: see below."""
    by = {p.name: p for p in paths}
    rest = [p for p in paths if p.rest is not None and p.name not in strikers and p.onsets and 0 in p.onsets]
    # (Balls that did not move join clusters too: the blow passes through them.)
    cluster = _clusters([p for p in paths if p.rest is not None and p.name not in strikers], D)
    out = []
    for i, p in enumerate(rest):
        for q in rest[i + 1:]:
            (tp, ep), (tq, eq) = p.onsets[0], q.onsets[0]
            if abs(tp - tq) > FROZEN_LATE_S + 0.01 * dt or not _frozen_to(p, q, D):
                continue
            (t, e_t), late = min((tp, ep), (tq, eq)), max(tp, tq)
            if not any(abs(e["t"] - t) <= 3 * dt and cluster[p.name] & set(e["balls"]) for e in hits):
                continue  # nothing met their cluster: started together by a hand, not a blow
            met = {}  # ball: which of p, q it met from then until both were off
            for e in hits:
                if t - 3 * dt <= e["t"] <= late + 3 * dt and {p.name, q.name} & set(e["balls"]):
                    for b in e["balls"]:
                        if b not in (p.name, q.name):
                            met.setdefault(b, set()).update(set(e["balls"]) & {p.name, q.name})
            if any(len(both) == 2 and not all(_frozen_to(by.get(b), x, D) for x in (p, q)) for b, both in met.items()):
                continue
            # The blow passes between frozen balls at once; the later one's onset is late when it
            # was only pushed off slowly: the contact is the earlier one's.
            out.append((p, q, t, max(e_t if late - t > 1.01 * dt else max(ep, eq), 0.5 * dt)))
    # A ball that did not move with the blow, wedged among frozen balls two or more of which were
    # set off by it (as above: together, and met by a ball then): the blow went through it, and
    # it met each of them (seed 9013's 9, in the middle of a straight-pool rack, met all six
    # around it). Not moving with it: not at all, or only pushed off slowly, seen to start more
    # than `FROZEN_LATE_S` later (seed 10003's 9, 25 mm in 0.24 s). Two such balls frozen
    # together met as well (seed 10018's 10 and 11, pushed a millimetre each): of the frozen
    # pairs of 9000-9019's and 10000-10019's breaks with a ball that moved under 20 mm, the
    # physics has 54 of 55 meeting at the blow.
    paired = {frozenset((p.name, q.name)) for p, q, _, _ in out}
    set_off = {name for pair in paired for name in pair}
    wedged = {}  # ball: (the first onset of the set-off balls around it, its sigma)
    for r in paths:
        if r.rest is None or r.vanished or r.name in strikers or r.name in set_off:
            continue
        around = [q for q in rest if q.name in set_off and _frozen_to(r, q, D)]
        if len(around) < 2:
            continue
        t, e_t = min(q.onsets[0] for q in around)
        if max(q.onsets[0][0] for q in around) - t > FROZEN_LATE_S + 0.01 * dt:
            continue
        if r.motions and r.first_onset() is not None and r.first_onset()[0] <= t + FROZEN_LATE_S + 0.01 * dt:
            continue  # it moved with the blow: its pairs were judged above
        wedged[r.name] = (t, e_t)
        # ... and every ball frozen to it that moved, whenever it was seen to start (seed
        # 10018's 12, frozen only to unmoved balls, pushed 13 mm and seen 0.12 s after the blow).
        for q in [q for q in rest if q is not r and _frozen_to(r, q, D)]:
            if frozenset((r.name, q.name)) not in paired:
                paired.add(frozenset((r.name, q.name)))
                out.append((r, q, t, max(e_t, 0.5 * dt)))
    by_w = [by[name] for name in wedged]
    for i, r in enumerate(by_w):
        for q in by_w[i + 1:]:
            if frozenset((r.name, q.name)) not in paired and _frozen_to(r, q, D):
                t, e_t = min(wedged[r.name], wedged[q.name])
                out.append((r, q, t, max(e_t, 0.5 * dt)))
    return _at_the_blow(out, rest, cluster, dt)


def _clusters(balls: list[Path], D: float) -> dict[str, set[str]]:
    """Each ball's cluster: the balls frozen to it, and to those (`_frozen_to`), as one set."""
    cluster = {p.name: {p.name} for p in balls}
    for i, p in enumerate(balls):
        for q in balls[i + 1:]:
            if cluster[p.name] is not cluster[q.name] and _frozen_to(p, q, D):
                merged = cluster[p.name] | cluster[q.name]
                for name in merged:
                    cluster[name] = merged
    return cluster


def _at_the_blow(pairs: list, rest: list[Path], cluster: dict[str, set[str]], dt: float) -> list:
    """The frozen pairs' contacts (`_frozen_pairs`) timed when the blow reached their cluster
    (`cluster`: `_clusters` of the balls at rest before the shot, those that did not move
    included): the earliest onset among the balls frozen to them, and to those, that were set
    off (`rest`; within `FROZEN_LATE_S` before the pair's own). The blow crosses a
    rack in a millisecond, but two balls at its back may both be pushed off slowly and be seen to
    start frames late (seed 10018's 5, 7, 10 and 12, 7 frames after the hit)."""
    first = {}  # cluster: (onset, sigma) of its earliest
    for p in rest:
        key = frozenset(cluster[p.name])
        first[key] = min(first.get(key, p.onsets[0]), p.onsets[0])
    out = []
    for p, q, t, e in pairs:
        key = frozenset(cluster[p.name])  # (q's too: frozen to p)
        if key not in first:
            out.append((p, q, t, e))
            continue
        t0, e0 = first[key]
        out.append((p, q, t0, max(e0, 0.5 * dt)) if t - FROZEN_LATE_S - 0.01 * dt <= t0 < t else (p, q, t, e))
    return out


def _frozen_to(p: Path | None, q: Path, D: float) -> bool:
    """Two balls rested frozen together (`FROZEN_GAP_MM`)."""
    return p is not None and q.rest is not None and _frozen(p, q.rest, 0.0, D, FROZEN_GAP_MM)


def _frozen(r: Path, pos, t: float, D: float, within: float | None = None) -> bool:
    """Ball r rests touching `pos` (a ball's centre), or a few millimetres off (`within`, by
    default 6 mm and 3 of its sigmas at t)."""
    tol = 6.0 + 3.0 * _sig(r, t) if within is None else within
    return r.rest is not None and abs(float(np.hypot(*(r.rest - np.asarray(pos)))) - D) <= tol


def _set_moving(q: Path, t_hit: float, paths: list[Path], D: float, dt: float, within: int,
                by: Path | None = None) -> bool:
    """Whether ball q, met at t_hit (by ball `by`, if known), was set moving: moving three frames
    on, or started within `within` frames (a slow ball deep in a rack starts late), or passed the
    blow on to a ball frozen to it, or vanished from its rest then to be seen far on (a fast ball
    whose streak the detector did not take for a ball: seed 11003's 8 through the real detector,
    unseen for ten frames and found 600 mm on). A ball the cue ball passes over in the air
    stays put."""
    if _met_unseen(q, t_hit, D, dt):
        return True
    return q.motion_at(t_hit + 3 * dt) is not None or any(
        t_hit - 2 * dt <= t_on <= t_hit + within * dt for t_on, _ in (q.onsets or {}).values()) or \
        _passed_on(q, t_hit, paths, D, dt, by)


def _met_unseen(q: Path, t_hit: float, D: float, dt: float) -> bool:
    """Met at t_hit while unseen between its rest and a sighting far on (`_unseen_flight`)."""
    flight = _unseen_flight(q, D, dt)
    return flight is not None and flight[0] - 2 * dt <= t_hit <= flight[1]


def _passed_on(q: Path, t_hit: float, paths: list[Path], D: float, dt: float, by: Path | None = None) -> bool:
    """Resting ball q, struck at t_hit, passed the blow on: a ball frozen to it started then. Not
    to the ball that struck it, whose own start, its blurred sigma wide, can pass for one (seed
    13017's cue ball, 30 mm from the 1 it went by)."""
    if q.rest is None:
        return False
    return any(r is not q and r is not by and r.onsets and _frozen(r, q.rest, t_hit, D) and
               any(t_hit - 2 * dt <= t_on <= t_hit + 4 * dt for t_on, _ in r.onsets.values()) for r in paths)


def _through_frozen(p: Path, pos, t_on: float, onsets, paths: list[Path], D: float, dt: float):
    """(q, r): a ball r at rest frozen to p (touching, or a few millimetres off) that moving ball q
    reached as p started: the blow went through r (a ball pushed on through a frozen one moves
    little or not at all). None if there is none."""
    others = [x for x in paths if x is not p]
    for r in others:
        if not _frozen(r, pos, t_on, D) or r.moving_at(t_on - 2 * dt):
            continue
        hit = _partners(r, r.rest, t_on, onsets, others, D, dt, window=3.0, slack=6.0, recent=True)
        if hit:
            return hit[0][0], r
    return None


def _struck_into(p: Path, t_v: float, strikes: dict, by: dict, paths: list[Path], D: float, dt: float):
    """(striker, contact time, sigma) when a striker, struck within a few frames of resting ball
    p vanishing (at t_v), set off on a line that meets p first: a ball a few centimetres from the
    cue ball, hit and gone into a pocket before either is seen to move (seed 9018: the 4, 31 mm
    from the cue ball, in the foot-right pocket 13 ms after the strike); else None."""
    for name, (t_s, _) in strikes.items():
        s = by.get(name)
        if s is None or s.rest is None or not s.motions or not t_v - 3 * dt <= t_s <= t_v + dt:
            continue
        a = s.motions[0][0]
        step = s.xy[a] - s.rest
        if float(np.hypot(*step)) < 3.0 * float(s.s[a]) + 3.0:
            continue  # its first sighting on the move says little of its direction
        u = step / float(np.hypot(*step))
        speed = float(np.hypot(*step)) / max(float(s.t[a]) - t_s, 0.5 * dt)

        def meets(r: Path) -> float | None:
            rel = r.rest - s.rest
            along, side = float(rel @ u), float(rel[0] * u[1] - rel[1] * u[0])
            tol = D + 3.0 * math.hypot(float(s.s[a]), _sig(r, t_v))
            return along - math.sqrt(max(D * D - side * side, 0.0)) if along > 0 and abs(side) <= tol else None

        met = [(m, r) for r in paths if r is not s and r.rest is not None for m in [meets(r)] if m is not None]
        if met:
            way, first = min(met, key=lambda x: x[0])
            if first is p:
                return name, t_s + max(way, 0.0) / speed, dt
    return None


def _arrival(q: Path, pos, t_on: float, D: float, dt: float, look: float = 0.5,
             since: float | None = None) -> tuple[float, float] | None:
    """When moving ball q came a diameter from `pos`, in the `look` seconds before t_on: from the
    first sample of its last run within a diameter (and tolerance), the line of its samples
    before that, followed on to where it is a diameter from `pos` (or closest to it). (Its last
    run: one that passed by close and came back, off a cushion, touched it the second time; seed
    12014's cue ball, 2 mm clear of the 5, hit it 0.4 s later.) `since`: q's last contact with
    another ball before; the line is of the samples clear of it only (`POST_GUARD`)."""
    sel = np.flatnonzero((q.t >= t_on - look) & (q.t <= t_on))
    # (Within a diameter by its samples or by its line between them, `_approach`: a fast ball's
    # samples, a frame apart, may all be a few millimetres further off than the contact.)
    def near_at(i: int) -> bool:
        d = _approach(q, pos, float(q.t[i]), dt)
        return d is not None and d <= D + 3.0 + 3.0 * float(q.s[i]) and q.motion_at(float(q.t[i])) is not None

    near = [near_at(i) for i in sel]
    if not any(near):
        return None
    k = len(near) - 1 - near[::-1].index(True)
    while k > 0 and near[k - 1]:
        k -= 1
    i = sel[k]
    t_i = float(q.t[i])

    def frames_back(t: float, frames: float) -> float:
        # (A line across q's contact before bends there: seed 7013's cue ball off the 10 into
        # the 13 0.12 s later, its line over both, 44 ms early. Three samples at least, or the
        # line as before: seed 9018's cue ball met the 6 two frames after the 8.)
        if since is None:
            return frames
        clear = (t - since) / dt - POST_GUARD
        n = int(np.count_nonzero((q.t > since + POST_GUARD * dt) & (q.t < t - PRE_GUARD * dt)))
        return min(frames, clear) if n >= 3 else frames

    f = q.fit_before(t_i + dt, dt, frames=frames_back(t_i + dt, 8.0))
    if f is None:
        return t_i - 0.5 * dt, dt

    def crossing(f: Fit) -> tuple[float, np.ndarray, np.ndarray, float] | None:
        da, v = f.a - np.asarray(pos, float), f.v
        A, B, C = float(v @ v), 2.0 * float(da @ v), float(da @ da) - D * D
        if A < 1e-6:
            return None
        disc = B * B - 4 * A * C
        tau = (-B - math.sqrt(disc)) / (2 * A) if disc >= 0 else -B / (2 * A)
        return min(max(f.t_ref + tau, t_i - 2 * dt), t_on), da, v, A

    hit = crossing(f)
    if hit is None:
        return t_i - 0.5 * dt, dt
    # The line taken up to the crossing it gives, while that is later than its samples: a slow
    # ball's line, followed on from where the run began, is millimetres off by the crossing
    # (seed 9004's 7 at 75 mm/s, closing at 60: 40 ms early from 8 frames 0.1 s before it).
    t_end = t_i + dt
    for _ in range(3):
        if hit[0] <= t_end + 0.5 * dt:
            break
        t_end = hit[0]
        f2 = q.fit_before(t_end, dt, frames=frames_back(t_end, 16.0))
        hit2 = crossing(f2) if f2 is not None else None
        if hit2 is None:
            break
        f, hit = f2, hit2
    t_hit, da, v, A = hit
    # (A graze closes hardly at all: its time is as unsure as the position along the line.)
    closing = max(abs(float((da + v * (t_hit - f.t_ref)) @ v)) / D, 0.2 * math.sqrt(A), 1.0)
    # ... but no more than the span it is taken within (seed 12008: 0.74 s for a contact that
    # lies in a 0.1 s window between q's arrival and p's start).
    err = min(math.sqrt(max(f.var(t_hit), 0.0)) / closing, max(t_on - (t_i - 2 * dt), dt))
    return t_hit, max(err, 0.5 * dt)


def _slow_start(p: Path, k: int, dt: float) -> bool:
    """Whether motion k of p set off slowly (under 300 mm/s over its first frames)."""
    a = p.motions[k][0]
    f = p.fit_after(float(p.t[a]) - dt, dt)
    return f is not None and float(np.hypot(*f.v)) < 300.0


def _approach(q: Path, pos: np.ndarray, t: float, dt: float, since: float | None = None) -> float | None:
    """How close ball q came to the point `pos` around time t (within 1.5 frames): its line
    before t extrapolated (interpolating across a fast contact would cut the corner). `since`:
    q met another ball then, within the line's window: if q was moving before that contact, its
    line through it heads where q no longer went (seed 10003's cue ball, into the 4, "reached"
    the 14 beyond it, which the 4 then hit): q's own path from that contact (where its line
    before put it then, and its samples after, to 1.5 frames after t) instead. (A ball set off
    by that contact has a line that starts there.)"""
    qp = q.at(t)
    if qp is None:
        return None
    best = float(np.hypot(*(qp - pos)))
    fb = q.fit_before(since, dt) if since is not None else None
    if fb is not None:
        sel = (q.t > since) & (q.t <= t + 1.5 * dt)
        pts = np.vstack([fb.pos(since).reshape(1, 2), q.xy[sel]])
        if len(pts) >= 2:
            return min(best, float(np.min(segment_distances(pos, pts[:-1], pts[1:]))))
        return best
    near = _line_nearest(q, pos, t, dt)
    return min(best, near[0]) if near is not None else best


def _line_nearest(q: Path, pos, t: float, dt: float) -> tuple[float, float] | None:
    """(distance, time) of the closest point to `pos` of moving ball q's line before t, within
    1.5 frames of t (a fast ball covers a diameter in a frame: its samples step over the
    closest point); None when q is not moving then."""
    f = q.fit_before(t, dt) if q.motion_at(t - 0.3 * dt) is not None else None
    if f is None:
        return None
    x = f.nearest(pos)
    x = min(max(t if x is None else x, t - 1.5 * dt), t + 1.5 * dt)
    return float(np.hypot(*(f.pos(x) - pos))), x


def _sig(p: Path, t: float) -> float:
    if len(p.t) == 0:
        return 1.0
    i = min(int(np.searchsorted(p.t, t)), len(p.t) - 1)  # (searchsorted is never below 0)
    return float(p.s[i])


def _moving_contacts(p: Path, q: Path, D: float, fps: float) -> list[tuple[float, float]]:
    """Where two moving balls touched: their centres come within a diameter (sampled) and the
    meeting changed their motion. Timed by both sides: when the lines before put the centres a
    diameter apart, and when the lines after did, weighted by their uncertainties. Noise makes
    several close approaches of one meeting: the one with the clearest blow is it."""
    dt = 1.0 / fps
    if not p.motions or not q.motions or len(p.t) < 3 or len(q.t) < 3:
        return []
    lo, hi = max(p.t[0], q.t[0]), min(p.t[-1], q.t[-1])
    if hi <= lo:
        return []
    grid = p.t[(p.t >= lo) & (p.t <= hi)]
    if len(grid) < 3:
        return []
    rel = _relative(p, q, grid)
    d = np.hypot(*rel.T)
    # How far the two closed or parted over a frame: fast balls meet between the samples, the
    # sampled closest approach up to half of that beyond a diameter.
    step = np.hypot(*np.diff(rel, axis=0).T)
    cands = []
    for i in range(1, len(d) - 1):
        if not (d[i] <= d[i - 1] and d[i] <= d[i + 1]):
            continue
        t = float(grid[i])
        tol = _touch_tol(p, q, t)
        between = d[i] > D + tol  # met between the samples, if at all: the lines must show it
        if d[i] > D + tol + 0.5 * max(step[i - 1], step[i]):
            continue
        if not (p.moving_at(t, dt) and q.moving_at(t, dt)):
            continue
        fp = p.fit_before(t, dt)
        fq = q.fit_before(t, dt)
        est = contact_time(fp, fq, D, t, dt) if (fp is not None and fq is not None) else None
        if between and (est is None or float(np.hypot(*(fp.pos(est[0]) - fq.pos(est[0])))) > D + tol):
            hard = _hard_blow(p, q, t, D, dt, tol)
            if hard is not None:
                cands.append(hard)
            continue
        t_c = est[0] if est is not None else t - 0.5 * dt
        # Over four frames each side (contacts crowd a cluster) or, where the lines before put
        # the centres a diameter apart, eight (a quiet kiss: half the noise).
        blow = _blow(p, q, t_c, dt)
        if est is not None:
            blow = max(blow, _blow(p, q, t_c, dt, 8.0))
        # Either ball's velocity clearly changed (in a cluster, where other contacts within the
        # frame blur the line of centres), or the blow along that line is clear (a kiss).
        # Or, where the lines before meet, a quiet kiss over longer lines.
        # Or where the lines before would have taken the centres inside a diameter (`_overlapped`).
        faint = blow < BLOW_SIGMAS and (_velocity_change(p, t, fps) < 4.0 or _velocity_change(q, t, fps) < 4.0)
        if faint and (est is None or (_kiss(p, q, t_c, dt) < KISS_SIGMAS and not _overlapped(p, q, t_c, D, dt, blow))):
            hard = _hard_blow(p, q, t, D, dt, tol if between else None)
            if hard is not None:
                cands.append(hard)
            continue
        if est is None:
            cands.append((t - 0.5 * dt, 0.5 * dt, blow))
            continue
        gp, gq = p.fit_after(t_c, dt), q.fit_after(t_c, dt)
        back = contact_time(gp, gq, D, t_c, dt) if (gp is not None and gq is not None) else None
        if between and (back is None or abs(back[0] - est[0]) > 1.5 * dt
                        or float(np.hypot(*(gp.pos(back[0]) - gq.pos(back[0])))) > D + tol):
            # The lines after must part from a diameter apart, about then; unless the lines before
            # meet at a diameter and the blow is beyond doubt (seed 7006's cue ball, off the 1
            # into the 7 23 ms later: its line after spans both contacts).
            if blow >= CLEAR_BLOW_SIGMAS:
                cands.append((est[0], est[1], blow))
            continue
        if back is not None and abs(back[0] - est[0]) < 3 * max(math.hypot(back[1], est[1]), dt):
            w1, w2 = 1 / est[1] ** 2, 1 / back[1] ** 2
            est = ((est[0] * w1 + back[0] * w2) / (w1 + w2), math.sqrt(1 / (w1 + w2)))
        cands.append((est[0], est[1], blow))
    out: list[tuple[float, float, float]] = []
    for c in sorted(cands, key=lambda c: -c[2]):
        if all(abs(c[0] - o[0]) >= SAME_MEETING_FRAMES * dt or _parted(p, q, o[0], c[0], D, dt) for o in out):
            out.append(c)
    return sorted((t, e) for t, e, _ in out)


def _overlapped(p: Path, q: Path, t: float, D: float, dt: float, blow: float) -> bool:
    """Two moving balls' lines before t would have taken their centres `OVERLAP_SIGMAS` inside
    a diameter of each other (in sigmas of the lines' positions, at their closest approach within
    three frames of t) had they not met: balls cannot pass through each other. Or that depth and
    the blow at t (`_blow`, in sigmas) sum to as unlikely a figure for noise."""
    fp, fq = p.fit_before(t, dt), q.fit_before(t, dt)
    if fp is None or fq is None:
        return False
    rel = Fit(t, fp.pos(t) - fq.pos(t), fp.v - fq.v, fp.cov + fq.cov)  # p's line less q's
    if float(rel.v @ rel.v) < 1e-6:
        return False
    tc = min(max(rel.nearest((0.0, 0.0)), t), t + 3.0 * dt)
    depth = (D - float(np.hypot(*rel.pos(tc)))) / max(math.sqrt(fp.var(tc) + fq.var(tc)), 0.3)
    return depth >= OVERLAP_SIGMAS or depth + blow >= OVERLAP_SIGMAS * math.sqrt(2.0)


def _relative(p: Path, q: Path, ts: np.ndarray) -> np.ndarray:
    """p's centre less q's at the times `ts` (each interpolated between its samples)."""
    return (np.stack([np.interp(ts, p.t, p.xy[:, 0]), np.interp(ts, p.t, p.xy[:, 1])], 1)
            - np.stack([np.interp(ts, q.t, q.xy[:, 0]), np.interp(ts, q.t, q.xy[:, 1])], 1))


def _parted(p: Path, q: Path, t1: float, t2: float, D: float, dt: float) -> bool:
    """Between two contacts of one pair, the sampled centres moved clearly more than a diameter
    apart (`PARTED_MM` and three sigmas beyond), having been within `PARTED_MM` of touching at
    the first and come back so by the later one: two meetings, not the noise of one, nor one timed late while the pair
    parted (a ball off the other into a cushion and back into it within three frames)."""
    lo, hi = min(t1, t2), max(t1, t2)
    sel = (p.t >= lo - dt) & (p.t <= hi + 1.5 * dt)
    if sel.sum() < 3 or len(q.t) < 2 or not (q.t[0] <= lo and q.t[-1] >= hi):
        return False
    ts = p.t[sel]
    rel = _relative(p, q, ts)
    d = np.hypot(*rel.T)
    sig = np.hypot(p.s[sel], np.interp(ts, q.t, q.s))
    # Fast balls meet between the samples: the sampled gap near a contact is up to half the
    # pair's step beyond a diameter (as `_moving_contacts` allows).
    half = 0.5 * np.concatenate([[0.0], np.hypot(*np.diff(rel, axis=0).T)])
    near = d < D + PARTED_MM + np.maximum(half, np.concatenate([half[1:], [0.0]]))
    inner = np.flatnonzero((ts > lo) & (ts < hi))
    if not len(inner) or not near[ts <= lo + dt].any():
        return False  # not near touching at the first: a contact timed elsewhere, not a meeting
    k = int(inner[np.argmax(d[inner])])
    return bool(d[k] > D + PARTED_MM + 3.0 * sig[k] + 2.0 * half[k] and near[k + 1:].any())


def _hard_blow(p: Path, q: Path, t: float, D: float, dt: float, between: float | None = None,
               ) -> tuple[float, float, float] | None:
    """A hard blow between the samples next to t (the pair's sampled closest approach), seen on
    lines of two samples each side: (contact time, its 1-sigma, blow in sigmas), or None. Where a
    ball met a cushion or another ball a frame or two before (the same pair again after a
    rebound: seed 7007's 1, off the cue ball into the cushion and back into it 56 ms later),
    the four-frame line before spans that bend too and its scatter hides the blow. `between`
    (a tolerance, mm): the sampled centres stayed over a diameter apart, so the lines after
    must trace back to a diameter apart within a frame."""
    best, fits = None, None
    for t_e in (t - 0.5 * dt, t + 0.5 * dt):
        around = _fits_around(p, q, t_e, dt, HARD_FRAMES)
        if around is None:
            continue
        jp, jq, noise = _pushes(around, BLOW_FLOOR_MM_S)
        b = (jp + jq) / noise
        # Each ball pushed away from the other, alike: equal balls meeting, not one ball's own
        # bend beside another (a strike, a cushion).
        if b >= HARD_SIGMAS and (best is None or b > best[2]) and _alike(jp, jq):
            best, fits = (t_e, 0.5 * dt, b), around
    if best is None:
        return None
    gp, gq = fits[2], fits[3]  # the lines after
    back = contact_time(gp, gq, D, best[0], dt)
    if back is not None and abs(back[0] - best[0]) <= dt and (
            between is None or float(np.hypot(*(gp.pos(back[0]) - gq.pos(back[0])))) <= D + between):
        return back[0], max(back[1], 0.25 * dt), best[2]
    return None if between is not None else best


def _fits_around(p: Path, q: Path, t: float, dt: float, frames: float):
    """Both balls' line fits over `frames` before t (and the blurred frame at it) and after it,
    and the unit line of centres at t (from q to p): (fp, fq, gp, gq, n), or None where a fit is
    missing or the centres meet."""
    fp, fq = p.fit_before(t, dt, frames + 0.6), q.fit_before(t, dt, frames + 0.6)
    gp, gq = p.fit_after(t, dt, frames), q.fit_after(t, dt, frames)
    if fp is None or fq is None or gp is None or gq is None:
        return None
    n = fp.pos(t) - fq.pos(t)
    d = float(np.hypot(*n))
    if d < 1e-6:
        return None
    return fp, fq, gp, gq, n / d


def _pushes(around, floor: float) -> tuple[float, float, float]:
    """From `_fits_around`'s fits: the change of each ball's velocity along the line of centres,
    away from the other (p's, q's), and the noise of their sum (plus `floor`, mm/s)."""
    fp, fq, gp, gq, n = around
    jp, jq = float((gp.v - fp.v) @ n), -float((gq.v - fq.v) @ n)
    return jp, jq, math.sqrt(fp.cov[1, 1] + fq.cov[1, 1] + gp.cov[1, 1] + gq.cov[1, 1]) + floor


def _alike(jp: float, jq: float) -> bool:
    """Both pushes away from each other, the smaller at least KISS_LIKE of the larger (between
    equal balls the impulse is the same on both)."""
    return min(jp, jq) > KISS_LIKE * max(jp, jq)


def _blow(p: Path, q: Path, t: float, dt: float, frames: float = 4.0) -> float:
    """The blow two moving balls gave each other at t, in units of its noise: the change of
    each one's velocity along the line of centres, away from the other. Between equal balls the
    impulse lies on that line and is the same on both, so the two changes add up; the rolling
    slowdown, spin and a near miss do not push the balls apart. (A kiss that changes each ball's
    velocity by 250 mm/s is 2-3 sigmas of either ball's |dv| alone; summed along the line, ~5.)"""
    around = _fits_around(p, q, t, dt, frames)
    if around is None:
        return 0.0
    jp, jq, noise = _pushes(around, BLOW_FLOOR_MM_S)
    return (jp + jq) / noise


def _kiss(p: Path, q: Path, t: float, dt: float) -> float:
    """The blow at t over KISS_FRAMES each side, in units of its noise (see `_blow`), or 0 where
    the motions do not look like two equal balls meeting: they must close along the line of
    centres before (KISS_CLOSING_MM_S), separate after, and each be pushed away from the other,
    the smaller push at least KISS_LIKE of the larger. On 60 simulated games (the development
    seeds) the kisses this passes and the four-frame blow does not were 30 of the truth's
    collisions and 4 that were not."""
    around = _fits_around(p, q, t, dt, KISS_FRAMES)
    if around is None:
        return 0.0
    fp, fq, gp, gq, n = around
    jp, jq, noise = _pushes(around, KISS_FLOOR_MM_S)
    closing, parting = -float((fp.v - fq.v) @ n), float((gp.v - gq.v) @ n)
    if not _alike(jp, jq) or closing < KISS_CLOSING_MM_S or parting <= 0.0:
        return 0.0
    return (jp + jq) / noise


def _crossings(p: Path, table: Table) -> list[dict]:
    out: list[dict] = []
    if not p.motions or len(p.t) < 2:
        return out
    t = p.t
    xy = p.xy
    if p.rest is not None:
        t = np.concatenate([[t[p.motions[0][0]] - 1e-3], t[p.motions[0][0]:]])
        xy = np.concatenate([[p.rest], xy[p.motions[0][0]:]])
    for line, ax, value in (("head_string", 0, table.head_string_x), ("long_string", 1, table.long_string_y)):
        v = xy[:, ax] - value
        # Past the line by more than the noise before a crossing counts (a ball rolling along
        # a line is not crossing it back and forth).
        h = max(3.0, 3.0 * float(np.median(p.s)))
        side = 0
        last_i = None
        for i in range(len(v)):
            s = 1 if v[i] > h else (-1 if v[i] < -h else 0)
            if s == 0:
                continue
            if side != 0 and s != side and last_i is not None:
                # Interpolate the zero crossing between the last sample on the old side and this one.
                j = last_i
                k = j + int(np.argmax(np.sign(v[j:i + 1]) != np.sign(v[j]))) if np.any(np.sign(v[j:i + 1]) != np.sign(v[j])) else i
                k = max(k, j + 1)
                f = v[k - 1] / (v[k - 1] - v[k]) if v[k - 1] != v[k] else 0.5
                tc = float(t[k - 1] + f * (t[k] - t[k - 1]))
                out.append({"t": tc, "type": "cross", "ball": p.name, "line": line,
                            "t_err": float(t[k] - t[k - 1]) / 2})
            side = s
            last_i = i
    return out
