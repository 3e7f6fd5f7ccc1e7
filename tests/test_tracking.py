"""Tracking and shot reconstruction (tracking/): records rebuilt from observations agree with the
physics that made them — events, first contacts, pockets, positions and, through the adjudicator,
the rulings. Observations come from synth/observe.py (the detector's kinds of error, seeded)."""
import copy
import functools
import json
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from cueref.observation import Observation
from cueref.records import parse_entry, parse_header
from cueref.table import Table
from tracking.events import contact_time
from tracking.kalman import BallFilter
from tracking.paths import Path as BallPath
from tracking.paths import fit_line, kink, rest_fit
from tracking.tracker import Tracker

T = Table()
D = T.ball_diameter_mm
FPS = 60.0


# --- pure parts: no physics needed ----------------------------------------------------------------

def test_the_filter_bounces_a_coasting_ball_off_the_cushion_and_slows_it():
    f = BallFilter((T.L - 100.0, 600.0), 0.5, T, velocity=(2000.0, 0.0), velocity_sigma=1.0)
    for _ in range(6):  # 0.1 s unseen: 200 mm of travel, 100 mm into the foot cushion
        f.predict(1 / FPS)
    x, _ = f.position
    vx, _ = f.velocity
    assert x <= T.L - T.R  # reflected back onto the bed
    assert vx < 0  # going back up the table
    assert abs(vx) < 2000.0  # the cushion and the cloth took speed


def test_the_line_fit_is_weighted_least_squares_with_its_covariance():
    # Against the textbook solution (numpy's lstsq on the weighted design matrix): the position
    # at t_ref, the velocity, and (a, v)'s covariance, inflated by the scatter when the samples
    # do not lie on a line.
    rng = np.random.default_rng(5)
    for n in (2, 3, 5, 9):
        ts = np.sort(rng.uniform(0.0, 0.15, n))
        xy = np.stack([800.0 + 2500.0 * ts, 400.0 - 900.0 * ts], 1) + rng.normal(0, 1.5, (n, 2))
        s = rng.uniform(0.1, 3.0, n)  # below 0.3 mm counts as 0.3
        t_ref = float(ts[-1])
        fit = fit_line(ts, xy, s, t_ref)
        w = 1.0 / np.maximum(s, 0.3) ** 2
        A = np.stack([np.ones(n), ts - t_ref], 1) * np.sqrt(w)[:, None]
        coef, *_ = np.linalg.lstsq(A, xy * np.sqrt(w)[:, None], rcond=None)
        cov = np.linalg.inv(A.T @ A)
        chi2 = float(np.sum((xy * np.sqrt(w)[:, None] - A @ coef) ** 2)) / max(2 * n - 4, 1)
        assert np.allclose(fit.a, coef[0], atol=1e-6) and np.allclose(fit.v, coef[1], atol=1e-4)
        assert np.allclose(fit.cov, cov * max(1.0, chi2), rtol=1e-9)
    # Noise-free samples give the line itself; one time, or one sample, gives no line.
    ts = np.array([0.0, 0.02, 0.05])
    exact = fit_line(ts, np.stack([100.0 + 2000.0 * ts, 50.0 + 10.0 * ts], 1), np.full(3, 0.5), 0.02)
    assert np.allclose(exact.pos(0.05), [200.0, 50.5]) and np.allclose(exact.v, [2000.0, 10.0])
    assert fit_line(np.full(3, 0.1), np.zeros((3, 2)), np.ones(3), 0.1) is None
    assert fit_line(np.array([0.1]), np.zeros((1, 2)), np.ones(1), 0.1) is None


def test_the_filter_update_is_the_kalman_update():
    # One predict and update against the equations written out: x' = x + K(z - Hx),
    # K = P H^T (H P H^T + R)^-1, with the filter's constant-velocity F and Q.
    f = BallFilter((1000.0, 600.0), 2.0, T, velocity=(1500.0, -300.0), velocity_sigma=400.0)
    x0, P0 = f.kf.x.copy(), f.kf.P.copy()
    dt = 1.0 / FPS
    f.predict(dt)
    F, Q = f.kf.F, f.kf.Q
    assert np.allclose(F, [[1, 0, dt, 0], [0, 1, 0, dt], [0, 0, 1, 0], [0, 0, 0, 1]])
    xp = F @ x0
    speed = math.hypot(xp[2], xp[3])
    xp[2:] *= 1.0 - 150.0 * dt / speed  # the cloth's rolling deceleration
    Pp = F @ P0 @ F.T + Q
    z, sigma = np.array([1026.0, 594.0]), 0.8
    f.update(z, sigma)
    H, R = np.eye(2, 4), np.eye(2) * sigma ** 2
    K = Pp @ H.T @ np.linalg.inv(H @ Pp @ H.T + R)
    assert np.allclose(f.kf.x, xp + K @ (z - H @ xp))
    assert np.allclose(f.kf.P, (np.eye(4) - K @ H) @ Pp)


def _obs(frame, name, xy, sigma=0.5, p=0.97):
    return Observation(frame, frame / FPS, name, {name: p} if name != "unknown" else {}, (math.nan, math.nan),
                       (float(xy[0]), float(xy[1])), sigma)


def _seen(rng, k, name, xy, probs):
    """An observation at frame k labelled `name` with the classifier's `probs`, its centre `xy`
    with 0.4 mm of noise per axis (sigma 0.5 mm)."""
    return Observation(k, k / FPS, name, probs, (math.nan, math.nan), tuple(np.add(xy, rng.normal(0, 0.4, 2))), 0.5)


def test_identity_keeps_two_balls_apart_when_their_paths_cross():
    # The 3 and the 7 cross 20 mm apart at 1.5 m/s: nearest-neighbour alone would swap them.
    tr = Tracker(T, FPS)
    rng = np.random.default_rng(1)
    for k in range(40):
        t = k / FPS
        a = (800.0 + 1500.0 * t, 600.0 + 10.0)
        b = (1400.0 - 1500.0 * t, 600.0 - 10.0)
        obs = [_obs(k, "3", np.add(a, rng.normal(0, 0.5, 2))), _obs(k, "7", np.add(b, rng.normal(0, 0.5, 2)))]
        tr.update(k, t, obs)
    named = {t_.label()[0]: t_ for t_ in tr.tracks if t_.confirmed}
    assert set(named) == {"3", "7"}
    assert named["3"].position()[0] > 1400.0 and named["7"].position()[0] < 800.0
    assert len([t_ for t_ in tr.tracks if t_.confirmed]) == 2


def test_a_ball_at_rest_does_not_take_the_sighting_of_another_while_its_own_is_seen_elsewhere():
    # Seed 12007 (ten-ball): the rack was set up in one frame. The 8, at rest 195 mm from where
    # the new rack's 6 appeared, took the 6's sighting (near enough for a struck ball's first
    # step) while the 8 itself was seen in the rack: two tracks named 8, the older kept the name,
    # and the real 8's pocketing on the break went unrecorded (WPA 7.3's pocketed balls).
    tr = Tracker(T, FPS)
    before = {"8": (1960.0, 380.0), "6": (2378.0, 203.0), "2": (1290.0, 125.0)}
    after = {"8": (2052.0, 664.0), "6": (2063.0, 545.0), "2": (2005.0, 720.0)}
    rng = np.random.default_rng(3)
    for k in range(90):
        where = before if k < 60 else after
        tr.update(k, k / FPS, [_obs(k, b, np.add(xy, rng.normal(0, 0.4, 2))) for b, xy in where.items()])
    for name, xy in after.items():
        held = [t_ for t_ in tr.tracks if t_.alive and t_.confirmed and t_.label()[0] == name]
        assert len(held) == 1 and math.dist(held[0].position(), xy) < 5.0, (name, [t_.position() for t_ in held])


def test_a_resting_ball_of_an_uncertain_name_does_not_take_the_cue_ball_arriving_at_the_break():
    # The benchmark's game rendered at a camera's bitrate (CRF 12): the rack's 9 was seen half
    # the time as the 1 (no name sure enough to count), and in the first frame after the break's
    # impact the 9's track took the cue ball's first sighting 160 mm away while the 6, unseen that
    # frame, took the 9: the cue ball's path began in the rack (a wrong-ball and a kitchen foul
    # on a legal break). A resting track does not leave fast as a ball it was never seen as.
    tr = Tracker(T, FPS)
    rng = np.random.default_rng(2)
    nine, six, cue = (1903.0, 634.0), (1954.0, 664.0), (312.0, 694.0)

    seen = functools.partial(_seen, rng)

    for k in range(60):  # at rest before the break
        tr.update(k, k / FPS, [seen(k, "9", nine, {"9": 0.5, "1": 0.45}), seen(k, "6", six, {"6": 0.98}),
                               seen(k, "cue", cue, {"cue": 1.0})])
    for k in range(60, 66):  # struck: the cue ball a blur, unseen
        tr.update(k, k / FPS, [seen(k, "9", nine, {"9": 0.5, "1": 0.45}), seen(k, "6", six, {"6": 0.98})])
    # Impact: the cue ball seen again beside the rack; the 6 not seen this frame.
    k = 66
    tr.update(k, k / FPS, [seen(k, "9", (1904.0, 635.0), {"9": 0.61, "1": 0.35}),
                           seen(k, "cue", (1743.0, 626.0), {"cue": 0.88})])
    for j, x in enumerate((1712.0, 1674.0, 1637.0)):
        k = 67 + j
        tr.update(k, k / FPS, [seen(k, "9", (1904.0, 635.0), {"9": 0.5, "1": 0.45}), seen(k, "6", six, {"6": 0.98}),
                               seen(k, "cue", (x, 626.0 - 20.0 * j), {"cue": 0.97})])
    by_name = {t_.label()[0]: t_ for t_ in tr.tracks if t_.confirmed and t_.alive}
    # The 9 and the 6 stayed where they rest; the cue ball's own track carried on from its spot.
    assert np.hypot(*(np.asarray(by_name["9"].xy[-1]) - nine)) < 5.0
    assert all(np.hypot(*(np.asarray(p) - six)) < 5.0 for p in by_name["6"].xy)
    assert all(np.hypot(*(np.asarray(p) - nine)) < 5.0 for p in by_name["9"].xy)
    assert np.hypot(*(np.asarray(by_name["cue"].xy[0]) - cue)) < 5.0 and by_name["cue"].xy[-1][0] < 1700.0


def test_a_resting_ball_renamed_where_it_lies_does_not_jump_to_a_ball_newly_seen_under_its_old_name():
    # Seed 11003 through the real detector: the racked 13 was read as the 9 for four seconds and
    # the 9 itself, in the middle of the rack, was not seen. As the break's cue ball reached the
    # rack the 9 was found and named, and the 13 read as the 13 on its own spot. The 13's track
    # (named 9) jumped 99 mm to the 9, and the cue ball's track, unseen that frame, took the 13's
    # sighting 113 mm from its prediction: the break was lost ("15 balls moved and the cue ball did
    # not"). A resting track whose spot still holds a sighting stays with it.
    tr = Tracker(T, FPS)
    rng = np.random.default_rng(5)
    thirteen, nine, seven = (1954.0, 664.0), (2053.0, 664.0), (1957.0, 606.0)

    seen = functools.partial(_seen, rng)

    for k in range(120):  # at rest: the 13 read as the 9, the 9 unseen
        tr.update(k, k / FPS, [seen(k, "9", thirteen, {"9": 0.68, "13": 0.3}), seen(k, "7", seven, {"7": 0.97}),
                               seen(k, "cue", (1500.0, 560.0), {"cue": 0.99})])
    for j in range(1, 10):  # the cue ball struck toward the rack at 2.8 m/s
        k = 120 + j
        tr.update(k, k / FPS, [seen(k, "9", thirteen, {"9": 0.68, "13": 0.3}), seen(k, "7", seven, {"7": 0.97}),
                               seen(k, "cue", (1500.0 + 46.0 * j, 560.0), {"cue": 0.95})])
    k = 130  # the cue ball unseen at the rack; the 9 found, the 13 named on its spot
    tr.update(k, k / FPS, [seen(k, "13", (1951.0, 668.0), {"13": 0.71, "9": 0.25}), seen(k, "7", seven, {"7": 0.97}),
                           seen(k, "9", (2054.0, 666.0), {"9": 0.92})])
    k = 131
    tr.update(k, k / FPS, [seen(k, "13", (1946.0, 676.0), {"13": 0.6, "9": 0.3}), seen(k, "7", (1948.0, 610.0), {"7": 0.97}),
                           seen(k, "9", (2055.0, 669.0), {"9": 0.96}), seen(k, "cue", (1976.0, 518.0), {"cue": 0.9})])
    at_13 = [t_ for t_ in tr.tracks if t_.alive and math.dist(t_.xy[0], thirteen) < 5.0]
    assert len(at_13) == 1 and math.dist(at_13[0].xy[-1], (1946.0, 676.0)) < 5.0  # stayed with its ball
    cue = [t_ for t_ in tr.tracks if t_.alive and t_.label()[0] == "cue"]
    assert len(cue) == 1 and math.dist(cue[0].xy[0], (1500.0, 560.0)) < 5.0  # the cue ball's own track...
    assert math.dist(cue[0].xy[-1], (1976.0, 518.0)) < 5.0  # ...went on to it
    assert not any(math.dist(p, (1951.0, 668.0)) < 5.0 for p in cue[0].xy)


def test_a_ball_racked_by_hand_on_a_resting_balls_spot_does_not_keep_that_balls_track_there():
    # Seed 16012 (ten-ball): the last rack's 10 had stopped on the apex spot, and the new rack
    # put the 1 there and the 10 99 mm behind it, in a frame. The 10's track must go with the
    # 10 (surely named) and the 1 start a track of its own: a sighting on a resting ball's
    # spot that surely names another ball is that ball, not this one renamed (unlike seed
    # 11003's unsure 13: `test_a_resting_ball_renamed_where_it_lies_...`).
    tr = Tracker(T, FPS)
    rng = np.random.default_rng(7)
    apex, middle, nine = (1905.0, 635.0), (2004.0, 635.0), (800.0, 300.0)
    for k in range(120):
        where = {"10": apex, "9": nine} if k < 60 else {"1": apex, "10": middle, "9": nine}
        tr.update(k, k / FPS, [_obs(k, b, np.add(xy, rng.normal(0, 0.4, 2))) for b, xy in where.items()])
    held = {t_.label()[0]: t_ for t_ in tr.tracks if t_.alive and t_.confirmed}
    assert math.dist(held["10"].position(), middle) < 5.0 and math.dist(held["10"].xy[0], apex) < 5.0
    assert math.dist(held["1"].position(), apex) < 5.0 and math.dist(held["1"].xy[0], apex) < 5.0


def test_a_break_whose_racked_ball_was_unseen_until_it_is_one_shot_to_the_last_ball_stopping():
    # Seed 11003 through the real detector (straight pool's opening break): the racked 13 read
    # as the 9 for four seconds and the 9, in the middle of the rack, unseen until the break
    # moved the rack. The break was lost (the 13's track jumped to the 9 and the cue ball's took
    # the 13); then, found, it ended 3.6 s before the last ball stopped: the 9, first seen
    # during the shot, was left out of it as a ball appearing mid-shot (the cue ball brought
    # back for ball in hand), and it rolled longest.
    shot, fps, truth = _the_one_shot("unseen-racked-ball-seed11003.json")
    assert first_contact(shot) == truth["first_contact"]
    assert [(e["ball"], e["pocket"]) for e in shot["events"] if e["type"] == "pocket"] == \
        [(b, p) for b, p, _ in truth["pocketed"]]
    (stop,) = [e for e in shot["events"] if e["type"] == "stop"]
    assert abs(shot["t0"] + stop["t"] - truth["stop"]) <= max(3 * stop["t_err"], 2 / fps), (stop, truth["stop"])
    assert "9" in shot["after"]  # the 9 one of the shot's balls


def test_a_break_ball_back_off_a_cushion_beside_a_part_of_its_own_blur_keeps_its_track():
    # Seed 11002's ten-ball break through the real detector: the 4, struck out of the rack at
    # 5 m/s, unseen for three frames, was found 340 mm on; the next frame it was back off the
    # foot cushion, and a part of its own streak, read as the 6, began a track of its own. That
    # young track, 123 mm off, took the 4's next sighting from the 4's own track, 82 mm off (a
    # resting track's cost grows slowly beyond 45 mm: a ball at rest may be struck), and the 4
    # was lost from the shot: its contacts with the 8, the 5, the 2 and the 7, and its cushions.
    shot, fps, truth = _the_one_shot("break-ball-back-off-the-foot-cushion-seed11002.json")
    assert "4" in shot["before"] and "4" in shot["after"]
    cushions = [(e["rail"], shot["t0"] + e["t"]) for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "4"]
    for rail, t in [("foot", 14.1513), ("left", 14.2778), ("left", 15.2727), ("head", 16.4102), ("left", 18.1253)]:
        assert any(r == rail and abs(tc - t) <= 2 / fps for r, tc in cushions), (rail, t, cushions)
    met = {tuple(sorted(e["balls"])) for e in shot["events"] if e["type"] == "collision" and "4" in e["balls"]}
    assert {("2", "4"), ("4", "7"), ("4", "8")} <= met, met


def test_a_struck_ball_unseen_then_found_far_on_named_unsurely_is_the_ball_that_was_struck():
    # Seed 11003 through the real detector: the cue ball met the resting 8 at 3.5 m/s; the 8
    # was unseen for ten frames and found 600 mm on, named 26 %, then 59 %, 72 % sure. Its new
    # track, not yet surely the 8 when confirmed, was left out of the shot as a ball appearing
    # mid-shot: the shot "stopped" 5.4 s early, when the cue ball dropped, without the 8's run
    # and four of its cushions; and, once the 8's run was the 8's, the contact was not found
    # (the 8 seen to start only 0.17 s after the cue ball's bend beside it).
    shot, fps, truth = _the_one_shot("struck-ball-unseen-then-named-seed11003.json")
    hits = [e for e in shot["events"] if e["type"] == "collision"]
    assert [sorted(e["balls"]) for e in hits] == [["8", "cue"]], hits
    assert abs(shot["t0"] + hits[0]["t"] - truth["first_contact_t"]) <= 1 / fps
    assert first_contact(shot) == truth["first_contact"]
    assert [(e["ball"], e["pocket"]) for e in shot["events"] if e["type"] == "pocket"] == \
        [(b, p) for b, p, _ in truth["pocketed"]]
    (stop,) = [e for e in shot["events"] if e["type"] == "stop"]
    assert abs(shot["t0"] + stop["t"] - truth["stop"]) <= max(3 * stop["t_err"], 2 / fps), (stop, truth["stop"])
    # The 8's own run: off the left rail, the head rail and the right, back to the left, and at
    # rest where it stopped (the physics: 1289, 144).
    rails = [e["rail"] for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "8"]
    assert rails[0] == "left" and rails[-1] == "left" and {"head", "right"} <= set(rails), rails
    assert math.dist(shot["after"]["8"], (1289.2, 143.7)) < 5.0


def test_a_struck_ball_whose_blur_was_first_taken_for_another_ball_is_the_ball_that_was_struck():
    # Seed 13001 through the real detector (eight-ball): the cue ball sent the 8 toward the
    # head-left pocket; the 8 was unseen for nine frames, its blur once found as an unnamed
    # ball and then named "8" 19 %, 82 %, 99 % sure. Its new track was the cue ball's by name
    # (64 %) when confirmed and the 8's only 0.2 s later, when adoption had been asked already:
    # the 8's drop (with the foul, WPA 4.8: the game lost) was not in the shot, and the 4 it
    # met was called disturbed.
    shot, fps, truth = _the_one_shot("struck-ball-first-taken-for-the-cue-ball-seed13001.json")
    assert first_contact(shot) == truth["first_contact"]
    _dropped_as_in_the_physics(shot, fps, truth)
    assert not [e for e in shot["events"] if e["type"] == "disturbed"]
    # The physics: the 8 met the 4 at 62.5927 s.
    hits = [shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "collision" and sorted(e["balls"]) == ["4", "8"]]
    assert len(hits) == 1 and abs(hits[0] - 62.5927) <= 1 / fps, hits


def test_a_ball_hanging_in_the_jaws_knocked_in_was_met_by_the_ball_that_knocked_it():
    # Seed 12004 through the real detector (straight pool): the 15 came to rest in the
    # foot-right jaws mid-shot; 1 s later the 12, rolling at 0.3 m/s, knocked it in (the physics:
    # contact at 39.9829 s, the drop at 40.0282 s). The 15 was seen to move 7 mm in two frames and
    # was gone: it was pocketed, but by no ball (it had moved before in the shot, so the rule for
    # a resting ball that vanishes as a ball reaches it did not look at it).
    shot, fps, truth = _the_one_shot("knocked-in-from-the-jaws-seed12004.json")
    assert first_contact(shot) == truth["first_contact"]
    _dropped_as_in_the_physics(shot, fps, truth)
    hits = [e for e in shot["events"] if e["type"] == "collision" and "15" in e["balls"]
            and abs(shot["t0"] + e["t"] - 39.9829) < 0.2]
    assert [sorted(e["balls"]) for e in hits] == [["12", "15"]], hits
    assert abs(shot["t0"] + hits[0]["t"] - 39.9829) <= 2 * hits[0]["t_err"]


def test_a_ball_met_then_unseen_until_far_on_past_a_cushion_was_set_off_not_disturbed():
    # Seed 11001's break through the real detector (nine-ball): the 5, met by the 2, 7 and 9 in
    # the rack at 3.557 s, was seen 18 mm off its rest 10 ms later (taken as still at rest),
    # unseen for 127 ms, and found 700 mm on just past the right cushion. Its first moving
    # samples span that bounce, so no line placed its start: the kink kept its guess, half a frame
    # before the sighting, and with no contact that late the 5 was called disturbed (WPA 3.6, a
    # foul the physics does not have). A contact made while it was unseen set it off.
    shot, fps, truth = _the_one_shot("break-ball-found-past-a-cushion-seed11001.json")
    assert not [e for e in shot["events"] if e["type"] == "disturbed"], shot["events"]
    assert any(e["type"] == "collision" and "5" in e["balls"] and abs(shot["t0"] + e["t"] - 3.557) < 0.02
               for e in shot["events"])


def test_a_ball_the_detector_names_against_the_classifiers_top_name_votes_as_named():
    # Seed 9001 through the real detector: the racked 9, beside the 1, looked 89 % like the 1 and
    # 6 % like the 9, and the detector named it "9" in every frame (one ball of each number: the
    # 1 beside it was surer). Voting the raw probabilities, the 9's track was "1" with 89 % and
    # the break's record had no 9 (the 1 taken, 6 % short of a name); after the 1 was pocketed
    # its old track, lost at rest as the 9 left it at speed, stood on the table as a "1" and
    # every later shot was a foul for missing it (WPA 6.1: the lowest ball first).
    tr = Tracker(T, FPS)
    one, nine = (1806.0, 637.0), (1905.0, 637.0)
    for k in range(180):
        tr.update(k, k / FPS, [Observation(k, k / FPS, "1", {"1": 0.99, "9": 0.01}, (math.nan, math.nan), one, 0.5),
                               Observation(k, k / FPS, "9", {"1": 0.89, "9": 0.06}, (math.nan, math.nan), nine, 0.5)])
    names = {t_.label() for t_ in tr.tracks if t_.confirmed}
    by_place = {tuple(np.round(t_.anchor, -1)): t_.label() for t_ in tr.tracks if t_.confirmed}
    assert by_place[(1810.0, 640.0)][0] == "1" and by_place[(1900.0, 640.0)][0] == "9", names
    assert by_place[(1900.0, 640.0)][1] > 0.9


def test_a_second_white_ball_the_detector_numbers_still_votes_for_the_cue_ball():
    # A lag's two white balls (or a ball in hand beside the cue ball): the detector names the
    # surer one "cue" and may number the other by what little is left of its probabilities
    # (here the 3's 6 %). Its votes stay the classifier's: moving the cue ball's share to the 3
    # lost seed 11000's lag through the real detector (one white ball left, and no lag).
    tr = Tracker(T, FPS)
    left, right = (300.0, 400.0), (300.0, 870.0)
    for k in range(60):
        tr.update(k, k / FPS, [Observation(k, k / FPS, "cue", {"cue": 0.97}, (math.nan, math.nan), left, 0.5),
                               Observation(k, k / FPS, "3", {"cue": 0.9, "3": 0.06, "9": 0.04}, (math.nan, math.nan),
                                           right, 0.5)])
    labels = sorted(t_.label()[0] for t_ in tr.tracks if t_.confirmed)
    assert labels == ["cue", "cue"], labels


def test_a_track_that_follows_another_ball_after_a_rerack_takes_its_name():
    # Re-racking: the 4 rested 20 s where the 3 is then set down (hands hide the spot for a
    # second), and the 4 goes to the other end. The track that waited there follows the 3 now:
    # after seconds of seeing a 3 it is the 3, whatever it saw for a rack before (seed 7001's
    # nine-ball break put the 4 in the wrong pocket: the 3's track kept the name 4). And a ball
    # hidden as long but seen again only a moment (the 7 in the jaws) keeps its own name.
    tr = Tracker(T, FPS)
    rng = np.random.default_rng(4)
    spot, far = (1000.0, 600.0), (2000.0, 700.0)
    n_before, n_hand, n_after = int(20 * FPS), int(1 * FPS), int(2.5 * FPS)
    for k in range(n_before + n_hand + n_after):
        if k < n_before:
            obs = [_obs(k, "4", np.add(spot, rng.normal(0, 0.5, 2)))]
        elif k < n_before + n_hand:
            obs = []
        else:
            obs = [_obs(k, "3", np.add((1004.0, 603.0), rng.normal(0, 0.5, 2))),
                   _obs(k, "4", np.add(far, rng.normal(0, 0.5, 2)))]
        tr.update(k, k / FPS, obs)
    live = [t_ for t_ in tr.tracks if t_.confirmed and t_.last_frame == n_before + n_hand + n_after - 1]
    by_place = {("spot" if np.hypot(*(t_.position() - spot)) < 20 else "far"): t_.label()[0] for t_ in live}
    assert by_place == {"spot": "3", "far": "4"}, by_place

    tr = Tracker(T, FPS)
    for k in range(n_before + n_hand + 6):
        if n_before <= k < n_before + n_hand:
            continue
        # Seen again half a diameter nearer the pocket, and sure of nothing for those frames.
        at, name = (spot, "7") if k < n_before else ((1010.0, 600.0), "unknown")
        tr.update(k, k / FPS, [_obs(k, name, np.add(at, rng.normal(0, 0.5, 2)))])
    assert [t_.label()[0] for t_ in tr.tracks if t_.confirmed] == ["7"]


def test_a_fast_start_seen_as_a_streak_twice_stays_the_same_ball():
    # A cue ball struck at 5 m/s is a blur streak in its first frame: the detector may find it
    # twice, the named head 77 mm from the rest spot and an unnamed tail 22 mm from it. The tail
    # must not hold the resting track back while the ball itself goes to a new track (which
    # then loses the name "cue" to the old track standing still: a scratch missed, the old
    # track later taking another ball's place).
    tr = Tracker(T, FPS)
    rest = np.array([575.0, 655.0])
    v = np.array([85.0, 20.0])  # mm per frame
    for k in range(70):
        if k < 60:
            obs = [_obs(k, "cue", rest)]
        elif k == 60:
            obs = [_obs(k, "cue", rest + (75.0, 18.0), p=0.55), _obs(k, "unknown", rest + (21.0, 7.0))]
        else:
            obs = [_obs(k, "cue", rest + (75.0, 18.0) + v * (k - 60))]
        obs.append(_obs(k, "5", (517.0, 465.0)))
        tr.update(k, k / FPS, obs)
    cue = [t_ for t_ in tr.tracks if t_.confirmed and t_.label()[0] == "cue"]
    assert len(cue) == 1, [(t_.id, t_.born_t) for t_ in cue]
    assert cue[0].born_t == 0.0 and cue[0].moving
    assert np.hypot(*(cue[0].position() - (rest + (75.0, 18.0) + v * 9))) < 30.0


def _cut(x_rest: float, x_one: float, y0: float, off: float, v0: float, t_s: float):
    """A cue ball struck at `t_s` from (x_rest, y0) along +x at `v0` mm/s into the 1 at rest at
    (x_one, y0 + off): ideal elastic stun contact. (rest, the 1, the cue ball's centre at
    contact, the contact time, the 1's and the cue ball's velocities after it.)"""
    D = T.ball_diameter_mm
    rest, one = np.array([x_rest, y0]), np.array([x_one, y0 + off])
    c = np.array([one[0] - math.sqrt(D * D - off ** 2), y0])
    t_c = t_s + (c[0] - rest[0]) / v0
    n = (one - c) / D
    v_one = (v0 * n[0]) * n
    return rest, one, c, t_c, v_one, np.array([v0, 0.0]) - v_one


def _slowing(p0, v, tau: float, slow: float):
    """Where a ball leaving p0 at v is after tau, slowing to rest exponentially (a stand-in for
    the cloth)."""
    return p0 + v * slow * (1.0 - math.exp(-tau / slow))


def test_a_break_cue_ball_unseen_until_after_its_first_contact_still_names_and_times_it():
    # A cue ball struck at 10 m/s is a streak the detector does not take for a ball: it is seen at
    # rest, then only after it has met the 1 (10 mm off centre; ideal elastic stun contact, then
    # both slow to rest, the 1 into the foot cushion's reach). The first contact is where its
    # first sightings' line, followed back, comes a diameter from the 1 that starts then; the
    # strike is when it vanished.
    from tracking.shots import ShotReconstructor

    t_s = 1.0
    rest, one, c, t_c, v_one, v_cue = _cut(400.0, 1800.0, 635.0, 10.0, 10000.0, t_s)
    after = _slowing

    rec = ShotReconstructor(T, FPS)
    rng = np.random.default_rng(8)
    first_seen = None
    for k in range(int(5 * FPS)):
        t = k / FPS
        obs = [_obs(k, "9", np.add((2200.0, 1000.0), rng.normal(0, 0.5, 2)))]
        one_at = one if t <= t_c else after(one, v_one, t - t_c, 0.07)
        obs.append(_obs(k, "1", np.add(one_at, rng.normal(0, 0.5, 2))))
        if t <= t_s:
            obs.append(_obs(k, "cue", np.add(rest, rng.normal(0, 0.5, 2))))
        elif t > t_c:
            first_seen = first_seen or t
            obs.append(_obs(k, "cue", np.add(after(c, v_cue, t - t_c, 0.3), rng.normal(0, 0.5, 2))))
        rec.push(k, t, obs)
    rec.finish(5.0)
    assert first_seen - t_s > 7.5 / FPS  # unseen for 8 frames
    shots = [r for r in rec.records if r["kind"] == "shot"]
    assert len(shots) == 1
    r = shots[0]
    assert abs(r["t0"] - t_s) <= 1.0 / FPS  # struck as it vanished
    hits = sorted((e["t"], sorted(e["balls"]), e["t_err"]) for e in r["events"] if e["type"] == "collision")
    assert hits and hits[0][1] == ["1", "cue"], hits
    assert abs(r["t0"] + hits[0][0] - t_c) <= hits[0][2] + 1.0 / FPS, (r["t0"] + hits[0][0], t_c)


def test_at_30_fps_a_cue_ball_unseen_through_a_thin_hit_names_and_times_its_first_contact():
    # The bundled sample's shot 2, at 30 fps: the cue ball at 6 m/s is unseen from its strike
    # until after it has cut the 1 thinly (40 mm off centre), and then named surely only now and
    # then (a blur: "cue" at 0.7-0.9). Its first sightings are 110-130 mm apart: a track born
    # on them must follow them (each is past the start gate from the first), so that its line,
    # followed back, finds the 1; the 1 is not "disturbed".
    from tracking.shots import ShotReconstructor

    fps, t_s = 30.0, 1.0
    rest, one, c, t_c, v_one, v_cue = _cut(700.0, 1500.0, 400.0, 40.0, 6000.0, t_s)
    after = _slowing

    rec = ShotReconstructor(T, fps)
    rng = np.random.default_rng(9)
    seen = 0
    for k in range(int(5 * fps)):
        t = k / fps
        obs = [Observation(k, t, "9", {"9": 0.97}, (math.nan, math.nan),
                           tuple(np.add((2200.0, 1000.0), rng.normal(0, 0.5, 2))), 0.5)]
        one_at = one if t <= t_c else after(one, v_one, t - t_c, 0.15)
        obs.append(Observation(k, t, "1", {"1": 0.97}, (math.nan, math.nan),
                               tuple(np.add(one_at, rng.normal(0, 0.5, 2))), 0.5))
        if t <= t_s:
            obs.append(Observation(k, t, "cue", {"cue": 0.97}, (math.nan, math.nan),
                                   tuple(np.add(rest, rng.normal(0, 0.5, 2))), 0.5))
        elif t > t_c + 1.0 / fps:
            p = 0.7 + 0.2 * (seen % 2) if seen < 6 else 0.97
            seen += 1
            obs.append(Observation(k, t, "cue", {"cue": p}, (math.nan, math.nan),
                                   tuple(np.add(after(c, v_cue, t - t_c, 0.3), rng.normal(0, 0.5, 2))), 0.5))
        rec.push(k, t, obs)
    rec.finish(5.0)
    shots = [r for r in rec.records if r["kind"] == "shot"]
    assert len(shots) == 1
    r = shots[0]
    assert not [e for e in r["events"] if e["type"] == "disturbed"], r["events"]
    hits = sorted((e["t"], sorted(e["balls"]), e["t_err"]) for e in r["events"] if e["type"] == "collision")
    assert hits and hits[0][1] == ["1", "cue"], hits
    assert abs(r["t0"] + hits[0][0] - t_c) <= hits[0][2] + 1.0 / fps, (r["t0"] + hits[0][0], t_c)


def test_a_break_cue_ball_found_again_at_the_rack_is_the_cue_ball_not_a_lag_ball_picked_up():
    # After a lag, one white ball is picked up (unseen from then on) and the cue ball set down for
    # the break. Struck at 12 m/s it is unseen for 7 frames and seen again, blurred (85 % sure),
    # at the rack 1.43 m away: that is the cue ball's track going on (nothing struck moves faster
    # than 15 m/s), not the lag ball's, unseen for 2 s (the benchmark clip's break lost its cue
    # ball so, when 10 m/s was the limit).
    tr = Tracker(T, FPS)
    rng = np.random.default_rng(2)
    lag_ball, cue, far = (60.0, 323.0), (313.0, 694.0), (1745.0, 628.0)
    n0, gap = int(3 * FPS), 7
    for k in range(n0 + gap + 12):
        obs = []
        if k < n0 - 2 * FPS:
            obs.append(_obs(k, "cue", np.add(lag_ball, rng.normal(0, 0.5, 2))))
        if k < n0:
            obs.append(_obs(k, "cue", np.add(cue, rng.normal(0, 0.5, 2))))
        elif k >= n0 + gap:
            at = np.add(far, (k - n0 - gap) * np.array([-34.0, -20.0]))  # drawn back off the rack
            obs.append(_obs(k, "cue", np.add(at, rng.normal(0, 0.5, 2)), p=0.85))
        tr.update(k, k / FPS, obs)
    moving = [t_ for t_ in tr.tracks if t_.confirmed and t_.alive and t_.moving]
    assert len(moving) == 1, [(t_.id, t_.anchor) for t_ in moving]
    assert np.hypot(*(moving[0].rests[-1] - cue)) < 3.0  # it left the cue ball's rest


def test_a_resting_ball_hidden_for_seconds_is_kept():
    tr = Tracker(T, FPS)
    for k in range(300):  # 5 s; the 9 hidden from 1 s to 4.5 s (a player stands over it)
        obs = [_obs(k, "cue", (500.0, 500.0))]
        if k < 60 or k > 270:
            obs.append(_obs(k, "9", (1900.0, 700.0)))
        tr.update(k, k / FPS, obs)
    nine = [t_ for t_ in tr.tracks if t_.label()[0] == "9" and t_.confirmed]
    assert len(nine) == 1 and nine[0].alive and not nine[0].motions


def test_a_ball_set_moving_through_a_frozen_one_was_hit_not_disturbed():
    # WPA 3.6 is for a ball moved with no contact to explain it. The cue ball (a stun shot) hits
    # the 3, frozen in line to the 5: the blow goes through the 3, which stays put, and the 5
    # rolls on to the foot cushion and back a little (ideal elastic balls, rolling friction
    # 150 mm/s²). Contacts: cue-3, then 3-5; nothing disturbed.
    from tracking.shots import ShotReconstructor

    D, y, a = T.ball_diameter_mm, 635.0, 150.0
    x3, x5, cue0, v0, t_s = 1500.0, 1500.0 + T.ball_diameter_mm, 1300.0, 600.0, 1.0
    d_c = x3 - D - cue0
    tau_c = (v0 - math.sqrt(v0 * v0 - 2 * a * d_c)) / a  # strike to contact
    v_c = v0 - a * tau_c
    x_max = T.length_mm - T.R

    def five(tau):  # after the contact: rolls on, off the foot cushion, stops
        tau = min(tau, v_c / a)
        x = x5 + v_c * tau - 0.5 * a * tau * tau
        return 2 * x_max - x if x > x_max else x

    rec = ShotReconstructor(T, FPS)
    rng = np.random.default_rng(5)
    for k in range(int(9 * FPS)):
        t = k / FPS
        tau = t - t_s
        cue = cue0 if tau <= 0 else (cue0 + v0 * min(tau, tau_c) - 0.5 * a * min(tau, tau_c) ** 2)
        x_5 = x5 if tau <= tau_c else five(tau - tau_c)
        obs = [_obs(k, n, np.add(xy, rng.normal(0, 0.5, 2))) for n, xy in
               (("cue", (cue, y)), ("3", (x3, y)), ("5", (x_5, y)), ("9", (2200.0, 1000.0)))]
        rec.push(k, t, obs)
    rec.finish(9.0)
    assert len(rec.records) == 1
    ev = rec.records[0]["events"]
    hits = [(e["t"], sorted(e["balls"])) for e in ev if e["type"] == "collision"]
    assert [b for _, b in hits] == [["3", "cue"], ["3", "5"]], hits
    assert abs(hits[0][0] - tau_c) < 1.5 / FPS
    assert not [e for e in ev if e["type"] == "disturbed"]
    assert any(e["type"] == "cushion" and e["ball"] == "5" and e["rail"] == "foot" for e in ev)


def _observed(seen, seconds: float, seed: int, sigma: float = 0.5):
    """A shot reconstructed from noisy observations (`sigma` mm per axis) of the balls `seen(t)`
    returns at each frame time, as (name, centre) pairs: the reconstructor, finished."""
    from tracking.shots import ShotReconstructor

    rec = ShotReconstructor(T, FPS)
    rng = np.random.default_rng(seed)
    for k in range(int(seconds * FPS)):
        t = k / FPS
        rec.push(k, t, [_obs(k, n, np.add(xy, rng.normal(0, sigma, 2)), sigma=sigma) for n, xy in seen(t)])
    rec.finish(seconds)
    return rec


def test_a_ball_knocked_in_through_a_frozen_one_is_pocketed_though_seen_moving_only_once():
    # Seed 14014 (pooltool): the 6 rests by the foot-right pocket, the 2 a few millimetres off it
    # on the line to the pocket. The cue ball meets the 2 full; the 2 passes the blow on and
    # hardly moves, and the 6 is seen once off its spot and is gone into the pocket a frame later.
    # No ball was moving near the 6 itself: it was taken for hidden (by the cue, a player), still
    # on the table. Here: a stun shot at 1 m/s; the 2 creeps 4 mm; the 6 drops.
    pocket = np.array(T.pocket_centre("foot-right"), float)
    six = np.array([2505.3, 1241.4])
    n = (pocket - six) / np.hypot(*(pocket - six))
    two = six - (D + 4.0) * n
    hit = two - D * n  # the cue ball's centre at the contact
    v, t_s, t_c = 1000.0, 1.0, 1.3 + 0.37 / FPS
    cue0 = hit - v * (t_c - t_s) * n

    def cue(t):
        return cue0 if t <= t_s else (hit if t >= t_c else cue0 + v * (t - t_s) * n)

    def two_at(t):
        return two + min(max(t - t_c, 0.0) / 0.004, 1.0) * 4.0 * n

    def six_at(t):
        return six + max(t - t_c - 0.004, 0.0) * v * n

    def seen(t):  # the 6 seen until into the jaws and down, out of sight
        balls = [("cue", cue(t)), ("2", two_at(t)), ("9", (1200.0, 500.0))]
        return balls + ([("6", six_at(t))] if np.hypot(*(six_at(t) - six)) < 20.0 else [])

    rec = _observed(seen, 4.0, 14014)
    shots = [r for r in rec.records if r["kind"] == "shot"]
    assert len(shots) == 1
    ev = shots[0]["events"]
    pockets = [(e["ball"], e["pocket"]) for e in ev if e["type"] == "pocket"]
    assert pockets == [("6", "foot-right")], ev
    hits = {tuple(sorted(e["balls"])) for e in ev if e["type"] == "collision"}
    assert ("2", "6") in hits and ("2", "cue") in hits, hits


def test_a_ball_that_rolls_to_rest_is_recorded_where_it_stopped_not_where_it_was_still_creeping():
    # The rest test (still within a few millimetres for 0.2 s) fires while a rolling ball creeps
    # on; the rest position running from there kept the creep: seed 12000's lag balls, 43.5 and
    # 44.2 mm from the head rail (a re-lag: too close to call, WPA 1.2), were recorded 45.1 and
    # 43.6 mm from it, and the lag given. Here: the 3, hit full by a stun shot, rolls 1.2 m at
    # 150 mm/s² to a stop; recorded within half a millimetre of where it stopped (before: 1.1-1.6).
    a, v3, y = 150.0, 600.0, 635.0
    x3, cue0, v0, t_s = 800.0, 500.0, 800.0, 1.0
    t_c = t_s + (x3 - D - cue0) / v0
    stop3 = x3 + v3 * v3 / (2 * a)
    def seen(t):
        cue = cue0 if t <= t_s else min(cue0 + v0 * (t - t_s), x3 - D)
        tau = min(max(t - t_c, 0.0), v3 / a)
        return [("cue", (cue, y)), ("3", (x3 + v3 * tau - 0.5 * a * tau * tau, y)), ("9", (2200.0, 1000.0))]

    for seed in range(5):
        rec = _observed(seen, 8.0, seed, sigma=0.7)
        shot = next(r for r in rec.records if r["kind"] == "shot")
        assert abs(shot["after"]["3"][0] - stop3) <= 0.5, (seed, shot["after"]["3"], stop3)
        assert abs(shot["after"]["cue"][0] - (x3 - D)) <= 0.5


def test_a_ball_seen_over_the_rail_then_gone_by_a_corner_left_the_table_not_into_the_pocket():
    # Seed 11007 (pooltool, a ball sent off the table): the 1 flies over the foot rail 150 mm from
    # the foot-left corner and is last seen 129 mm from that pocket's mouth: taken for pocketed
    # (a legal shot, the 1 down) instead of off the table (WPA 3.13: a foul). A ball dropping into
    # a pocket is never seen beyond a nose line away from the pocket's mouth.
    one, to = np.array([2300.0, 400.0]), np.array([2660.0, 55.0])
    u = (to - one) / np.hypot(*(to - one))
    v0, t_s, v1 = 1500.0, 1.0, 2000.0  # the cue ball's speed, its strike, the 1's speed
    hit = one - D * u
    cue0 = hit - u * 400.0
    t_c = t_s + 400.0 / v0
    def seen(t):
        cue = cue0 if t <= t_s else (hit if t >= t_c else cue0 + u * v0 * (t - t_s))
        x1 = one + u * v1 * max(t - t_c, 0.0)
        return [("cue", cue), ("9", (800.0, 900.0))] + ([("1", x1)] if x1[0] < to[0] else [])

    rec = _observed(seen, 6.0, 11007)
    shot = next(r for r in rec.records if r["kind"] == "shot")
    gone = [(e["type"], e["ball"]) for e in shot["events"] if e["type"] in ("pocket", "off_table")]
    assert gone == [("off_table", "1")], shot["events"]


def test_a_ball_rolling_past_a_side_pocket_off_the_cushion_unseen_in_front_of_its_mouth_is_not_pocketed():
    # Seed 11001 through the real detector: the black 8 rolled past the right side pocket 20 mm
    # off the cushion at 0.25 m/s, parallel to it, and was not seen for 0.5 s in front of the
    # pocket's dark mouth (a candidate there must show a lit part). Unseen longer than a rattle
    # "in the mouth, heading in", it was called pocketed. It could not drop: its centre never
    # neared the nose line, and it moved along the rail, not toward it (WPA 2.2 needs a ball in).
    W, mid = T.width_mm, T.length_mm / 2
    y = W - T.R - 20.0
    cue0, eight0 = np.array([700.0, y]), np.array([1000.0, y])
    t_s, v0 = 1.0, 1000.0
    t_c = t_s + (eight0[0] - T.ball_diameter_mm - cue0[0]) / v0
    v1, dec = 470.0, 235.0  # the 8 rolls 470 mm, to x = 1470, past the mouth at x = 1270

    def seen(t):
        balls = [("9", (1500.0, 300.0))]
        cue = cue0 + (min(t, t_c) - t_s) * v0 * np.array([1.0, 0.0]) if t > t_s else cue0
        tau = min(max(t - t_c, 0.0), v1 / dec)
        x8 = eight0[0] + v1 * tau - 0.5 * dec * tau * tau
        hidden = mid - 70.0 <= x8 <= mid + 60.0
        return balls + [("cue", cue)] + ([] if hidden else [("8", (x8, y))])

    rec = _observed(seen, 6.0, 11001)
    shots = [r for r in rec.records if r["kind"] == "shot"]
    assert len(shots) == 1, (rec.records, rec.skipped)
    assert not [e for e in shots[0]["events"] if e["type"] == "pocket"], shots[0]["events"]
    assert math.dist(shots[0]["after"]["8"], (1470.0, y)) < 5.0


def test_a_scratch_is_a_shot_though_a_hand_lifts_the_cue_ball_out_of_the_pocket_at_once():
    # Seed 16003 (pooltool): the cue ball, struck straight into the head-right pocket, was seen
    # again 0.5 s later 120 mm from it (a hand taking it out) and carried across the table for
    # ball in hand. The track followed the hand: its motion "stopped dead" where the ball was
    # set down, and the shot was dropped as a placing (a scratch, WPA 3.1, never ruled). A
    # ball unseen in a pocket's mouth for longer than a rattle has dropped (2.2).
    cue0, mouth = np.array([596.0, 824.0]), np.array([45.0, 1241.0])
    u = (mouth - cue0) / np.hypot(*(mouth - cue0))
    t_s, v0 = 1.0, 3300.0
    t_in = t_s + np.hypot(*(mouth - cue0)) / v0
    spot = np.array([580.0, 65.0])

    def seen(t):
        balls = [("9", (1500.0, 600.0)), ("5", (1900.0, 300.0))]
        if t <= t_in:
            return balls + [("cue", cue0 if t <= t_s else cue0 + u * v0 * (t - t_s))]
        if t_in + 0.45 <= t < t_in + 0.5:  # out of the pocket in a hand
            return balls + [("cue", (121.0, 1259.0))]
        if t_in + 1.0 <= t < t_in + 1.8:  # carried to its spot, then set down
            f = (t - t_in - 1.0) / 0.8
            return balls + [("cue", (200.0, 350.0) + f * (spot - (200.0, 350.0)))]
        if t >= t_in + 1.8:
            return balls + [("cue", spot)]
        return balls

    rec = _observed(seen, 6.0, 16003)
    shots = [r for r in rec.records if r["kind"] == "shot"]
    assert len(shots) == 1 and abs(shots[0]["t0"] - t_s) < 2 / FPS, (rec.records, rec.skipped)
    assert [(e["ball"], e["pocket"]) for e in shots[0]["events"] if e["type"] == "pocket"] == [("cue", "head-right")]


def test_a_ball_knocked_in_from_the_jaws_is_pocketed_though_a_false_sighting_follows_later():
    # Seed 10010 (pooltool): the 4 rests in the head-left jaws and the 7 knocks it in, unseen
    # between frames. 1.3 s later a detection 130 mm away is handed to its track once: taken for
    # its last sighting, with no ball near it then, the 4 was "only hidden" and not pocketed.
    rec, fps, truth = _replay("jaws-seed10010.json")
    shot = next(r for r in rec.records if r["kind"] == "shot")
    assert abs(shot["t0"] - truth["t0"]) < 2 / fps
    pocketed = sorted([e["ball"], e["pocket"]] for e in shot["events"] if e["type"] == "pocket")
    assert pocketed == sorted(truth["pocketed"])
    hit = [e for e in shot["events"] if e["type"] == "collision" and sorted(e["balls"]) == sorted(truth["hit"])]
    assert hit and abs(hit[0]["t"] - truth["hit_t"]) <= 1 / fps


def test_a_ball_that_creeps_to_the_cushion_at_the_end_of_its_roll_touched_it():
    # Seed 12002 (pooltool): the 1, hit up the table, rolls to the right cushion at 20-50 mm/s and
    # stops against it. The rest test had it still 0.2 s before it got there (it creeps under
    # the test's few millimetres), so the touch was not looked for: a no-rail foul ruled on a
    # legal shot (WPA 3.3). Here: the 1 slows at 150 mm/s² and reaches the nose at 25 mm/s.
    a, x, t_s = 150.0, 860.0, 1.0
    y_f = T.W - T.R + 2.0  # where it would have stopped with no cushion
    v1 = math.sqrt(2 * a * 300.0)
    y1 = y_f - 300.0
    cue0, v0 = y1 - D - 300.0, 1000.0
    t_c = t_s + 300.0 / v0
    t_touch = t_c + (v1 - math.sqrt(v1 * v1 - 2 * a * (T.W - T.R - y1))) / a
    def seen(t):
        cue = cue0 if t <= t_s else min(cue0 + v0 * (t - t_s), y1 - D)
        tau = max(t - t_c, 0.0)
        y = min(y1 + v1 * tau - 0.5 * a * tau * tau, T.W - T.R) if tau < v1 / a else T.W - T.R
        return [("cue", (x, cue)), ("1", (x, y)), ("9", (2200.0, 300.0))]

    found = 0
    for seed in range(10):
        rec = _observed(seen, 7.0, seed, sigma=0.7)
        shot = next(r for r in rec.records if r["kind"] == "shot")
        rails = [e for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "1"]
        found += len(rails) == 1 and rails[0]["rail"] == "right" and abs(shot["t0"] + rails[0]["t"] - t_touch) < 0.1
        stop = next(e for e in shot["events"] if e["type"] == "stop")
        assert all(e["t"] <= stop["t"] for e in shot["events"])
    assert found >= 9, found


def test_a_relag_uses_the_ball_set_down_not_a_hand_its_old_track_followed():
    # WPA 1.2, a re-lag: both balls are picked up from where the last lag left them and set down
    # behind the head string. A hand near the right ball's old spot is seen as a white "ball"
    # moving off (the old track follows the hand, then loses it after the strike); the ball set
    # down is a new track. (As on the benchmark's recorder-grade clip.) The lag is that ball's: struck to the foot cushion and back
    # (rolling friction 150 mm/s²), it rests 35 mm from the head cushion.
    from tracking.shots import ShotReconstructor

    a, x_max, t_s = 150.0, T.length_mm - T.R, 3.0

    def lag_x(x0, x_end, tau):  # struck at tau = 0: to the foot cushion and back to x_end
        dist = (x_max - x0) + (x_max - x_end)
        v0 = math.sqrt(2 * a * dist)
        tau = min(max(tau, 0.0), v0 / a)
        x = x0 + v0 * tau - 0.5 * a * tau * tau
        return 2 * x_max - x if x > x_max else x

    rec = ShotReconstructor(T, FPS)
    rng = np.random.default_rng(9)
    left0, right_old, left1, right1 = (76.0, 343.0), (75.0, 926.0), (519.0, 344.0), (517.0, 907.0)
    for k in range(int(14 * FPS)):
        t = k / FPS
        obs = []
        if t < 1.0:  # where the last lag left them; then both are picked up
            obs += [("cue", left0), ("cue", right_old)]
        if t >= 1.5:  # set down again
            obs += [("cue", (lag_x(left1[0], 60.0, t - t_s), left1[1])),
                    ("unknown", (lag_x(right1[0], 35.0, t - t_s), right1[1]))]
        if 2.0 <= t < 3.3:  # the hand, seen as a white ball, off from the right ball's old spot
            obs.append(("cue", (94.0 + 52.0 * (t - 2.0), 889.0)))
        rec.push(k, t, [_obs(k, n, np.add(xy, rng.normal(0, 0.5, 2))) for n, xy in obs])
    rec.finish(14.0)
    lags = [r for r in rec.records if r["kind"] == "lag"]
    assert len(lags) == 1 and abs(lags[0]["t0"] - t_s) < 2.0 / FPS, [(r["kind"], r["t0"]) for r in rec.records]
    lag = lags[0]
    assert math.dist(lag["before"]["right"], right1) < 5.0 and math.dist(lag["before"]["left"], left1) < 5.0
    assert math.dist(lag["after"]["right"], (35.0, 907.0)) < 10.0, lag["after"]
    assert math.dist(lag["after"]["left"], (60.0, 344.0)) < 10.0, lag["after"]


def test_frames_out_of_order_and_unreadable_numbers_are_refused_or_dropped():
    tr = Tracker(T, FPS)
    tr.update(0, 0.0, [_obs(0, "cue", (500.0, 500.0))])
    with pytest.raises(ValueError, match="time order"):
        tr.update(1, 0.0, [])
    bad = _obs(2, "3", (float("nan"), 500.0))
    tr.update(2, 2 / FPS, [bad, _obs(2, "cue", (500.0, 500.0))])  # the NaN one is dropped, not a crash
    assert all(math.isfinite(v) for t_ in tr.tracks for xy in t_.xy for v in xy)
    with pytest.raises(Exception, match="finite"):
        Observation.from_dict({"frame": 3, "t": 0.05, "mm": [float("nan"), 1.0]})


def test_no_observations_no_records():
    from tracking.shots import ShotReconstructor, reconstruct

    assert list(reconstruct(iter([]), T, FPS)) == []
    rec = ShotReconstructor(T, FPS)
    for k in range(120):  # two seconds of balls at rest: nothing happens
        assert rec.push(k, k / FPS, [_obs(k, "cue", (500.0, 500.0)), _obs(k, "9", (1900.0, 700.0))]) == []
    assert rec.finish(2.0) == [] and not rec.records


def test_a_bend_is_timed_where_the_lines_meet():
    # A ball at 1 m/s turns 90 degrees at t = 0.1234 s (between frames); samples every frame.
    t = np.arange(0, 0.3, 1 / FPS)
    t_star = 0.1234
    xy = np.where(t[:, None] < t_star, np.stack([1000 + 1000 * t, np.full_like(t, 500.0)], 1),
                  np.stack([np.full_like(t, 1000 + 1000 * t_star), 500.0 + 1000 * (t - t_star)], 1))
    p = BallPath("cue", t, t, xy, np.full(len(t), 0.5), None, [(0, None)])
    t_c, err, _, _ = kink(p, 0.13, FPS)
    assert abs(t_c - t_star) < 0.001
    assert err < 0.005


def test_contact_time_is_when_the_centres_are_a_diameter_apart():
    ball = rest_fit(np.array([1500.0, 600.0]), 0.3, 0.0)
    line = fit_line(np.array([0.0, 0.01, 0.02]), np.array([[1000.0, 600.0], [1020.0, 600.0], [1040.0, 600.0]]),
                    np.full(3, 0.3), 0.0)
    hit = contact_time(line, ball, D, 0.2, 1 / FPS)
    assert hit is not None
    assert hit[0] == pytest.approx((500.0 - D) / 2000.0, abs=1e-6)


def test_a_contact_closing_slowly_is_uncertain_within_the_window_searched_not_for_seconds():
    # Seed 11015: the cue ball catches the 12 rolling almost alongside it, closing at a few
    # mm/s. The root taken is within three frames of the guess (else none), but its uncertainty
    # was the centres' sigma over that speed: 6.4 s, "simultaneous" with the cue ball's first
    # contact a second before it, which hid a wrong-ball foul (WPA 3.2, 4.4). Bounded by the
    # window, it is still a sure first contact's rival only within 3 frames.
    dt = 1 / FPS
    ts = np.array([0.0, dt, 2 * dt, 3 * dt])
    twelve = fit_line(ts, np.stack([1000.0 + 1500.0 * ts, np.full(4, 600.0)], 1), np.full(4, 2.0), 0.0)
    cue = fit_line(ts, np.stack([1000.0 + 1500.0 * ts, 600.0 - D - 0.5 + 3.0 * ts], 1), np.full(4, 2.0), 0.0)
    hit = contact_time(cue, twelve, D, 0.15, dt)
    assert hit is not None
    assert abs(hit[0] - 0.5 / 3.0) < 1e-6  # the gap of 0.5 mm closed at 3 mm/s
    assert hit[1] <= 3 * dt


def test_an_approach_passes_a_ball_by_only_when_clearly_more_than_a_diameter_off():
    # A rack's side ball that the long line from the strike grazes is not the first contact when
    # the approach just before clearly passes it by (seed 7018's straight-pool break named the 4
    # for the 5 it hit). Clearly: the gap beyond a diameter exceeds twice the approach's own
    # sideways uncertainty; within it the ball may have been touched.
    from tracking.events import _passes_by

    D, dt = T.ball_diameter_mm, 1.0 / FPS
    t_close = (1500.0 - 500.0) / 3000.0  # 3 m/s along y = 600 from x = 500: beside x = 1500
    ts = t_close - np.arange(6, 0, -1) * dt  # the six frames before
    for sigma, gap, passes in ((0.5, 6.0, True), (0.5, 1.5, False), (4.0, 6.0, False), (4.0, 30.0, True)):
        rng = np.random.default_rng(3)
        xy = np.stack([500.0 + 3000.0 * ts, np.full(6, 600.0)], 1) + rng.normal(0, sigma, (6, 2))
        fit = fit_line(ts, xy, np.full(6, sigma), float(ts[-1]))
        ball = (1500.0, 600.0 + D + gap)  # beside the line at its closest, gap mm beyond touching
        assert _passes_by(fit, ball, D, t_close, dt) is passes, (sigma, gap)
    # A ball straight ahead is met, not passed by; no fit, no verdict.
    fit = fit_line(ts, np.stack([500.0 + 3000.0 * ts, np.full(6, 600.0)], 1), np.full(6, 0.5), float(ts[-1]))
    assert not _passes_by(fit, (1500.0 + D, 600.0), D, t_close, dt)
    assert not _passes_by(None, (1500.0, 600.0), D, 0.3, dt)


def test_observations_read_back_and_bad_lines_are_named(tmp_path):
    from cueref.records import RecordError
    from tracking.shots import read_observations

    good = [_obs(0, "cue", (500.0, 500.0)).to_dict(), _obs(0, "3", (900.0, 500.0)).to_dict(),
            _obs(1, "cue", (501.0, 500.0)).to_dict()]
    frames = list(read_observations([json.dumps(d) for d in good]))
    assert [f for f, _, _ in frames] == [0, 1] and len(frames[0][2]) == 2
    with pytest.raises(RecordError, match="line 2"):
        list(read_observations([json.dumps(good[0]), "{not json"]))
    with pytest.raises(RecordError, match="line 2"):
        list(read_observations([json.dumps(good[0]), json.dumps({"frame": 1, "t": 0.1})]))


# --- against the physics ---------------------------------------------------------------------------

pooltool = pytest.importorskip("pooltool", reason="the synth extra is not installed (scripts/install-synth.sh)")

from adjudicate.engine import new_game, step  # noqa: E402
from synth.clip import play, play_staged  # noqa: E402
from synth.observe import DetectorModel, observe  # noqa: E402
from synth.staged import stages  # noqa: E402
from tracking.evaluate import (_rel, _with_declared, first_contact, match_events, match_records,  # noqa: E402
                               pockets, rule_each, ruling_key)
from tracking.shots import ShotReconstructor  # noqa: E402


def _reconstruct(tl, seed, model=None, drop=None):
    rec = ShotReconstructor(tl.table, FPS)
    t = 0.0
    for k, t, obs, _ in observe(tl, int(FPS), seed, model or DetectorModel()):
        if drop:
            obs = [o for o in obs if not drop(t, o)]
        rec.push(k, t, obs)
    rec.finish(t)
    return rec


def _check_each(tl, rec, agree=1.0):
    """Every true record found, valid under the contract, and (at least the share `agree` of
    them) ruled as the truth is when ruled from the true state before it. Returns the matches."""
    truth = [e for e in tl.entries if e["kind"] != "decision"]
    m, extra = match_records(truth, rec.records)
    assert len(m) == len(truth), f"records missed: {[t['t0'] for i, t in enumerate(truth) if i not in m]}"
    assert not extra, f"records that are not shots: {[rec.records[j]['t0'] for j in extra]}"
    hdr = parse_header(tl.header)
    for r in rec.records:
        parse_entry(r, hdr)  # the contract, exactly
    each = rule_each(tl.header, tl.entries, {i: _with_declared(rec.records[j], truth[i]) for i, j in m.items()})
    wrong = [(i, truth[i]["t0"], ruling_key(tl.rulings[i]), ruling_key(each[i])) for i in range(len(truth))
             if ruling_key(each[i]) != ruling_key(tl.rulings[i])]
    assert len(wrong) <= (1.0 - agree) * len(truth) + 1e-9, wrong  # (1 - 0.8) * 5 is 0.999…
    return truth, m


def _first_contacts(rec, within=0.002):
    """The balls the cue ball met first (more than one when they are hit within 2 ms)."""
    hits = sorted((e["t"], next(b for b in e["balls"] if b != "cue")) for e in rec["events"]
                  if e["type"] == "collision" and "cue" in e["balls"])
    return {b for t, b in hits if t - hits[0][0] <= within} if hits else {None}


# The scenarios staged for their fouls and events (synth/staged.py). Known limits, not hidden:
# a lag's double hit by the tip ("lag-foul") moves no ball differently and is not seen; the staged
# wrong-ball-first shot's frozen pair makes pooltool jump both balls 270 mm in one frame.
UNSEEN = {"lag-foul"}


@pytest.mark.parametrize("stage", [s for s in stages(T) if s.name not in UNSEEN], ids=lambda s: s.name)
def test_each_staged_scenario_is_reconstructed_and_ruled_as_the_physics_was(stage):
    i = [s.name for s in stages(T)].index(stage.name)
    tl = play_staged(stage, 100 + i, T)
    model = DetectorModel.perfect() if stage.name == "wrong-ball-first" else DetectorModel()
    rec = _reconstruct(tl, 100 + i, model)
    truth, m = _check_each(tl, rec)
    for idx, t in enumerate(truth):
        o = rec.records[m[idx]]
        if t["kind"] == "shot":
            assert first_contact(o) in _first_contacts(t)
            assert pockets(o) == pockets(t)
        assert abs(o["t0"] - t["t0"]) < 0.01  # the strike within 10 ms


def test_near_simultaneous_first_contacts_give_the_shooter_the_doubt():
    stage = next(s for s in stages(T) if s.name == "simultaneous-first-contact")
    tl = play_staged(stage, 7, T)
    rec = _reconstruct(tl, 7)
    shot = rec.records[-1]
    cue_hits = sorted((e for e in shot["events"] if e["type"] == "collision" and "cue" in e["balls"]),
                      key=lambda e: e["t"])
    # The cue ball meets the frozen 3 and 5 together: both contacts reported, closer in time
    # than their combined uncertainty (simultaneous, WPA 3.2), and the shot is ruled legal.
    a, b = cue_hits[0], cue_hits[1]
    assert {x for e in (a, b) for x in e["balls"]} - {"cue"} == {"3", "5"}
    assert abs(a["t"] - b["t"]) <= a["t_err"] + b["t_err"]
    true_t = next(e["t"] for e in [x for x in tl.entries if x["kind"] == "shot"][-1]["events"]
                  if e["type"] == "collision") + [x for x in tl.entries if x["kind"] == "shot"][-1]["t0"]
    for e in (a, b):
        assert e["t_err"] < 1.0 / FPS  # under a frame
        assert abs(shot["t0"] + e["t"] - true_t) <= e["t_err"] + 0.002  # and it covers the truth
    hdr = parse_header(tl.header)
    ruling, _ = step(new_game(hdr), parse_entry(_with_declared(shot, [e for e in tl.entries if e["kind"] == "shot"][-1]), hdr))
    assert ruling.legal


def test_a_jump_over_a_ball_is_not_a_contact_and_a_clipped_one_is():
    for name, touched in (("jump-clean", False), ("jump-clipped", True)):
        stage = next(s for s in stages(T) if s.name == name)
        tl = play_staged(stage, 11, T)
        shot = _reconstruct(tl, 11).records[-1]
        hit_blocker = any(e["type"] == "collision" and set(e["balls"]) == {"cue", "5"} for e in shot["events"])
        assert hit_blocker == touched, name


def test_occlusion_at_the_moment_of_contact_keeps_the_first_contact():
    # The cue ball is unseen for the four frames around its first contact.
    stage = next(s for s in stages(T) if s.name == "wrong-ball-first")
    tl = play_staged(stage, 3, T)
    true_shot = [e for e in tl.entries if e["kind"] == "shot"][-1]
    t_hit = true_shot["t0"] + next(e["t"] for e in true_shot["events"] if e["type"] == "collision")
    rec = _reconstruct(tl, 3, DetectorModel.perfect(),
                       drop=lambda t, o: o.extra.get("truth") == "cue" and abs(t - t_hit) < 2.5 / FPS)
    assert first_contact(rec.records[-1]) == first_contact(true_shot)


def test_a_ball_hidden_by_a_player_through_the_shot_stays_on_the_table():
    stage = next(s for s in stages(T) if s.name == "no-rail")
    tl = play_staged(stage, 4, T)
    shot_t0 = [e for e in tl.entries if e["kind"] == "shot"][-1]["t0"]
    # The 9 is out of sight from 3 s before the strike to the end of the clip.
    rec = _reconstruct(tl, 4, DetectorModel.perfect(),
                       drop=lambda t, o: o.extra.get("truth") == "9" and t > shot_t0 - 3.0)
    shot = rec.records[-1]
    assert "9" in shot["before"] and "9" in shot["after"]
    truth_before = [e for e in tl.entries if e["kind"] == "shot"][-1]["before"]["9"]
    assert math.dist(shot["before"]["9"], truth_before) < 2.0


def test_a_ball_placed_by_hand_is_not_a_shot_and_its_place_is_recorded():
    stage = next(s for s in stages(T) if s.name == "kitchen-placement")
    tl = play_staged(stage, 5, T)
    rec = _reconstruct(tl, 5)
    truth, m = _check_each(tl, rec)
    assert len(rec.records) == 1
    placed = truth[0]["before"]["cue"]
    assert math.dist(rec.records[0]["before"]["cue"], placed) < 3.0  # where the hand put it


# Seeds below the benchmark's held-out range (7000 on).
@pytest.mark.parametrize("game,seed", [("nine-ball", 6010), ("eight-ball", 6011), ("rotation-61", 6012)])
def test_a_played_game_is_reconstructed_event_by_event(game, seed):
    tl = play(game, 5, seed, lag=game == "nine-ball")
    rec = _reconstruct(tl, seed)
    truth, m = _check_each(tl, rec, agree=0.8)  # the benchmark measures the rate on many games
    found, lost, wrong, late = {}, {}, {}, []
    for i, t in enumerate(truth):
        if t.get("declared", {}).get("break"):
            continue  # a rack's frozen balls touch within a millisecond: counted in the benchmark
        pairs, missed, extra = match_events(_rel(t), _rel(rec.records[m[i]]))
        for a, b in pairs:
            found[a["type"]] = found.get(a["type"], 0) + 1
            if a["type"] in ("collision", "cushion", "pocket", "strike"):
                late.append(abs(a["t"] - b["t"]) > 1.0 / FPS)
        for e in missed:
            lost[e["type"]] = lost.get(e["type"], 0) + 1
        for e in extra:
            wrong[e["type"]] = wrong.get(e["type"], 0) + 1
    assert np.mean(late) <= 0.1  # timed within a frame, nine in ten
    # Reduced floors for a test: a regression to a broken detector fails them; the benchmark
    # measures the real rates on many games (README: collisions ~85 % recall outside breaks,
    # the misses being slow late kisses and cluster contacts).
    for kind in ("collision", "cushion", "pocket"):
        n = found.get(kind, 0) + lost.get(kind, 0)
        assert n > 0 or kind == "pocket", kind
        assert found.get(kind, 0) >= 0.7 * n, (kind, found, lost)
        assert wrong.get(kind, 0) <= 0.15 * max(n, 1), (kind, wrong)


def test_the_benchmark_lists_each_event_missed_extra_or_late_and_each_wrong_first_contact_with_its_shot():
    # `Tally.errors` (`cueref bench track --misses`): the truth of a played game against a copy
    # of it with four known faults: one collision 30 ms late (over a frame), one cushion
    # contact gone, one collision that never happened, and in another shot a first contact with
    # a ball never met. Those are listed, and nothing else.
    from tracking.evaluate import Tally

    tl = play("nine-ball", 3, 6010)
    truth = [e for e in tl.entries if e["kind"] != "decision"]
    ours = copy.deepcopy(truth)
    shot_i = next(i for i, r in enumerate(ours) if r["kind"] == "shot" and not r.get("declared", {}).get("break")
                  and any(e["type"] == "collision" for e in r["events"])
                  and any(e["type"] == "cushion" for e in r["events"]))
    shot = ours[shot_i]
    hit = next(e for e in shot["events"] if e["type"] == "collision")
    hit["t"] += 0.030
    rail = next(e for e in shot["events"] if e["type"] == "cushion")
    shot["events"].remove(rail)
    shot["events"].append({"t": hit["t"] + 0.5, "type": "collision", "balls": ["cue", "9"], "t_err": 0.004})
    # And in another shot a ball the cue ball met first that it never met: a wrong first contact.
    other_i = next(i for i, r in enumerate(ours) if r["kind"] == "shot" and i != shot_i
                   and any(e["type"] == "collision" and "cue" in e["balls"] for e in r["events"]))
    first = min((e for e in ours[other_i]["events"] if e["type"] == "collision" and "cue" in e["balls"]),
                key=lambda e: e["t"])
    true_first = next(b for b in first["balls"] if b != "cue")
    wrong = next(b for b in ("9", "8", "7") if b != true_first)
    ours[other_i]["events"].append({"t": first["t"] - 0.1, "type": "collision", "balls": ["cue", wrong],
                                    "t_err": 0.004})
    tally = Tally(fps=FPS)
    tally.add_clip(tl.header, tl.entries, ours, tl.rulings, label="nine-ball seed 6010")
    got = sorted((e["what"], e["type"], e["record"]) for e in tally.errors)
    assert got == sorted([("late", "collision", shot_i), ("missed", "cushion", shot_i),
                          ("extra", "collision", shot_i), ("extra", "collision", other_i),
                          ("wrong", "first_contact", other_i)]), tally.errors
    fc = next(e for e in tally.errors if e["type"] == "first_contact")
    assert (fc["truth"], fc["ours"], fc["said_tie"]) == (true_first, wrong, False)
    late = next(e for e in tally.errors if e["what"] == "late")
    assert late["balls"] == hit["balls"] and abs(late["dt_ms"] - 30.0) < 0.01
    assert abs(late["t"] - (shot["t0"] + hit["t"] - 0.030)) < 1e-9  # the truth's time, on the media clock
    missed = next(e for e in tally.errors if e["what"] == "missed")
    assert (missed["ball"], missed["rail"]) == (rail["ball"], rail["rail"])


def test_a_shot_stops_when_its_last_roll_ends_not_when_the_creep_is_lost_in_the_noise():
    # WPA 2.19 / 3.9: a shot ends when every ball has stopped. A rolling ball's last millimetres
    # are under the detector's noise: the rest test fires about 0.3 s before the physics stops
    # it. The stop is put where the roll's constant deceleration ends it. Truth: the physics'
    # end of the shot (spin in place included, which a camera of centres cannot see: a few
    # hundredths of a second at the median, the odd long spin).
    tl = play("nine-ball", 6, 6013)
    rec = _reconstruct(tl, 6013)
    truth = [e for e in tl.entries if e["kind"] == "shot"]
    m, _ = match_records(truth, rec.records)
    late = []
    for i, j in m.items():
        stop_true = truth[i]["t0"] + next(e["t"] for e in truth[i]["events"] if e["type"] == "stop")
        ours = next(e for e in rec.records[j]["events"] if e["type"] == "stop")
        late.append(stop_true - (rec.records[j]["t0"] + ours["t"]))
        assert ours["t_err"] >= round(2.0 / FPS, 4)
    assert len(late) >= 5
    assert -0.1 < float(np.median(late)) < 0.12, late  # the rest test alone: 0.27-0.34 s


def test_cueref_track_reads_observations_and_writes_a_game_log(tmp_path):
    stage = next(s for s in stages(T) if s.name == "no-rail")
    tl = play_staged(stage, 9, T)
    path = tmp_path / "obs.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for _, _, obs, _ in observe(tl, 60, 9):
            for o in obs:
                f.write(json.dumps(o.to_dict()) + "\n")
    out = subprocess.run([sys.executable, "-m", "cueref", "track", str(path), "--game", "nine-ball"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert lines[0]["schema"] == "cueref/game-1"
    shots = [x for x in lines[1:] if x["kind"] == "shot"]
    assert len(shots) == 1 and first_contact(shots[0]) == "3"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(path.read_text().splitlines()[0] + "\n{\"frame\": 1}\n")
    out = subprocess.run([sys.executable, "-m", "cueref", "track", str(bad)], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 2 and "line 2" in out.stderr


def test_the_sample_clip_end_to_end_video_to_records_against_its_truth():
    # The README's front door: the bundled 720p30 clip through vision and tracking: every lag
    # and shot found, both lags ruled as the physics was, every first contact, the scratches'
    # pockets, and no ball disturbed that the physics did not disturb.
    from pathlib import Path

    sample = Path(__file__).resolve().parents[1] / "datasets" / "sample"
    out = subprocess.run([sys.executable, "-m", "cueref", "track", str(sample / "clip.mp4"), "--game", "nine-ball"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    ours = lines[1:]
    truth_lines = [json.loads(x) for x in (sample / "game.jsonl").read_text().splitlines()]
    truth = [e for e in truth_lines[1:] if e["kind"] != "decision"]
    m, extra = match_records(truth, ours)
    assert len(m) == len(truth) and not extra
    truth_rulings = [json.loads(x) for x in (sample / "rulings.jsonl").read_text().splitlines()]
    hdr = parse_header(lines[0])
    state = new_game(hdr)
    for i, t in enumerate(truth):
        if t["kind"] != "lag":
            break
        ruling, state = step(state, parse_entry(ours[m[i]], hdr))
        assert ruling_key(ruling.to_dict()) == ruling_key(truth_rulings[i])
    for i, t in enumerate(truth):
        if any(e["type"] == "pocket" and e["ball"] == "cue" for e in t["events"]):
            assert pockets(ours[m[i]]) >= {p for p in pockets(t) if p[0] == "cue"}
    # The cue ball's first contacts as the truth's: the break (its cue ball unseen until it has
    # met the 1), shot 2's thin hit on the 1 (the cue ball unseen from its strike to after the
    # contact, the 1 a streak at 4.5 m/s) and shot 4's (a short approach, one frame long).
    shots = [i for i, t in enumerate(truth) if t["kind"] == "shot"]
    for i in shots:
        assert first_contact(ours[m[i]]) == first_contact(truth[i]), (truth[i]["t0"], first_contact(ours[m[i]]))
    # No ball is "disturbed" where the physics moved none without a contact (WPA 3.6): on the
    # break a rack ball starts a frame before the contact seen from two moving paths.
    for i, t in enumerate(truth):
        if not any(e["type"] == "disturbed" for e in t["events"]):
            assert not [e for e in ours[m[i]]["events"] if e["type"] == "disturbed"], (i, t["t0"])


def _kiss(rng, closing: float, gap: float = 0.0, sigma: float = 1.5, sliding=(200.0, 400.0)):
    """Two balls rolling at 0.5-0.9 m/s that meet at t_c (between frames) with their centres
    closing at `closing` mm/s along the line of centres n, and sliding past each other across
    it at `sliding` mm/s: ideal equal smooth balls exchange the closing component (each one's
    velocity changes by `closing` along n). With `gap` > 0 they pass that far beyond a
    diameter instead, untouched. Samples with `sigma` mm of noise."""
    D = T.ball_diameter_mm
    th = rng.uniform(0, 2 * math.pi)
    n, tang = np.array([math.cos(th), math.sin(th)]), np.array([-math.sin(th), math.cos(th)])
    v_b = rng.uniform(500, 900) * np.array([math.cos(th + 2.0), math.sin(th + 2.0)])
    w = tang * rng.uniform(*sliding) - (closing if gap == 0 else 0.0) * n  # relative velocity a - b
    t_c = 0.5 + rng.uniform(0, 1 / FPS)
    p_a = np.array([1270.0, 635.0])
    p_b = p_a - (D + gap) * n
    t = np.arange(0, 1.0, 1 / FPS)
    tau = (t - t_c)[:, None]
    v_a = v_b + w
    if gap == 0:
        xa = np.where(tau < 0, p_a + v_a * tau, p_a + (v_a + closing * n) * tau)
        xb = np.where(tau < 0, p_b + v_b * tau, p_b + (v_b - closing * n) * tau)
    else:
        xa, xb = p_a + v_a * tau, p_b + v_b * tau
    paths = [BallPath(name, t, t, x + rng.normal(0, sigma, x.shape), np.full(len(t), sigma), None, [(0, None)])
             for name, x in (("3", xa), ("5", xb))]
    return paths, t_c


def test_two_moving_balls_that_kiss_are_found_and_two_that_pass_close_are_not():
    # A kiss between moving balls changes each one's speed by ~250 mm/s: under 3 sigmas of |dv|
    # of either ball alone from four noisy frames, but the blow along the line of centres is the
    # same on both and adds up. A pass 12 mm wide of touching (within the distance test's
    # tolerance) changes nothing and is not a contact.
    from tracking.events import _moving_contacts

    D = T.ball_diameter_mm
    found, timed, false = 0, 0, 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        (a, b), t_c = _kiss(rng, closing=250.0)
        hits = _moving_contacts(a, b, D, FPS)
        found += bool(hits)
        timed += any(abs(t - t_c) <= 1 / FPS for t, _ in hits)
        (a, b), _ = _kiss(rng, closing=0.0, gap=12.0)
        false += bool(_moving_contacts(a, b, D, FPS))
    assert found >= 38, found
    assert timed >= 36, (timed, found)  # within a frame; a slow closing is timed less surely
    assert false == 0, false


def test_two_fast_balls_that_meet_between_frames_are_found_and_two_that_pass_close_are_not():
    # Seed 9006 (pooltool): the 9 at 2.7 m/s met the 7 rolling the other way at 1.9 m/s, their
    # centres 75.5 mm apart at the nearest sample: they had met between two frames, with 45 mm
    # of relative travel per frame. Past the distance test's tolerance, it was missed. Sliding
    # past each other at 2-2.8 m/s, the sampled closest approach is up to half a frame's
    # relative travel beyond a diameter; the lines before and after must then meet there. Two
    # such balls passing 6 mm wide of touching, both lines straight through, are no contact.
    from tracking.events import _moving_contacts

    D = T.ball_diameter_mm
    found, timed, far, false = 0, 0, 0, 0
    for seed in range(40):
        rng = np.random.default_rng(900 + seed)
        (a, b), t_c = _kiss(rng, closing=1500.0, sliding=(2000.0, 2800.0))
        far += bool(np.min(np.hypot(*(a.xy - b.xy).T)) > D + 8.0 + 3.0 * math.hypot(1.5, 1.5))
        hits = _moving_contacts(a, b, D, FPS)
        found += bool(hits)
        timed += any(abs(t - t_c) <= 1 / FPS for t, _ in hits)
        (a, b), _ = _kiss(rng, closing=0.0, gap=6.0, sliding=(2000.0, 2800.0))
        false += bool(_moving_contacts(a, b, D, FPS))
    assert far >= 5, far  # the case at issue: sampled more than the tolerance beyond a diameter
    assert found == 40, found
    assert timed >= 38, (timed, found)
    assert false == 0, false


def test_a_quiet_kiss_between_moving_balls_is_found_and_one_ball_bending_alone_is_not():
    # Balls closing at 70 mm/s along their line of centres: a blow of ~2 sigmas over four frames
    # each side, found over twelve (KISS_FRAMES) as a meeting of equal balls: closing before,
    # apart after, both pushed away from each other. The same approach where only one ball's
    # line bends (a swerve, a curve from spin; the other rolls on untouched) is no contact.
    # (Only after a contact do two balls part with like changes along the line of centres.)
    from tracking.events import _moving_contacts

    D = T.ball_diameter_mm
    found, timed, alone = 0, 0, 0
    for seed in range(40):
        rng = np.random.default_rng(500 + seed)
        (a, b), t_c = _kiss(rng, closing=70.0)
        hits = _moving_contacts(a, b, D, FPS)
        found += bool(hits)
        timed += any(abs(t - t_c) <= 2 / FPS for t, _ in hits)
        # b rolls on along its line before (its samples past t_c continued straight), and a
        # turns away on its own twice as hard, so that they part as after the kiss.
        pre = b.t < t_c
        v = np.polyfit(b.t[pre], b.xy[pre], 1)
        b_on = np.polyval(v[:, 0], b.t), np.polyval(v[:, 1], b.t)
        b.xy[~pre] = np.stack(b_on, 1)[~pre] + rng.normal(0, 1.5, (int((~pre).sum()), 2))
        n = (a.xy[pre][-1] - b.xy[pre][-1]) / np.hypot(*(a.xy[pre][-1] - b.xy[pre][-1]))
        a.xy[~pre] += 70.0 * (a.t[~pre] - t_c)[:, None] * n
        alone += bool(_moving_contacts(a, b, D, FPS))
    assert found >= 32, found  # 0 of 40 before the kiss test
    assert timed >= 0.8 * found, (timed, found)
    assert alone == 0, alone


def _paths_of(rng, t, balls, fast_sigma):
    """Noisy paths (straight-line physics given per ball as (name, rest, position(t), onset,
    fast(t)) ), each motion starting at its first sample after its onset."""
    paths = []
    for name, rest, at, t_on, fast in balls:
        xy = np.array([at(x) for x in t])
        s = np.array([fast_sigma if fast(x) else 2.0 for x in t])
        xy = xy + rng.normal(0, 1, xy.shape) * s[:, None]
        a = int(np.argmax(t > t_on + 0.2 / FPS))
        paths.append(BallPath(name, t, t, xy, s, np.array(rest, float), [(a, None)]))
    return paths


def test_a_break_cue_ball_blurred_on_its_way_is_aimed_by_its_line_before_any_ball_starts():
    # Seed 8001's nine-ball break: the cue ball at 12 m/s, a 16 mm blur a sample, cuts the 1 (33 mm
    # off its centre); the 2, frozen behind it, lies straight on the cue ball's line. The line
    # from the strike must end before the rack starts (nothing else moves a ball: the cue ball
    # had met one by then), and where it bends sideways, not where its speed seems to change
    # (a four-frame test reached past the contact and left the rest and one sample to aim it:
    # the 2, in 7 of 30).
    from tracking.events import _first_contact

    right = 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        one, cue0, speed, off = np.array([1806.0, 635.0]), np.array([433.0, 617.0]), 12000.0, 33.0
        d = one - cue0
        ang = math.atan2(d[1], d[0]) - math.asin(off / float(np.hypot(*d)))
        u = np.array([math.cos(ang), math.sin(ang)])
        s_hit = float(d @ u) - math.sqrt(D * D - off * off)
        t_c, hit = s_hit / speed, cue0 + u * s_hit
        n = (one - hit) / D
        v = u * speed
        v_cue, v_one = v - (v @ n) * n, (v @ n) * n  # ideal equal balls: the normal part passes on
        two = cue0 + u * (float(d @ u) + 49.0) + np.array([-u[1], u[0]]) * 5.0
        t = np.arange(-10, 30) / FPS + rng.uniform(0, 1 / FPS) - 0.4 / FPS
        paths = _paths_of(rng, t, [
            ("cue", cue0, lambda x: cue0 if x <= 0 else (cue0 + v * x if x < t_c else hit + v_cue * (x - t_c)), 0.0,
             lambda x: 0 < x < t_c),
            ("1", one, lambda x: one if x < t_c else one + v_one * (x - t_c), t_c, lambda x: False),
            ("2", two, lambda x: two if x < t_c else two + 0.3 * v_one * (x - t_c), t_c, lambda x: False)], 16.0)
        for p in paths:
            p.onsets = {0: (0.0 if p.name == "cue" else t_c, 0.003)}
        hit_ = _first_contact(paths[0], 0.0, paths, D, FPS)
        right += hit_ is not None and hit_[0] == "1"
    assert right >= 28, right


def _replay(name: str):
    """A generated game's observations as the benchmark made them (`tests/data/NAME`: one label
    each, the probability `p`, the centre's sigma: the file's, or each row's own) through the
    shot reconstructor: (the reconstructor, its fps, the file's truth)."""
    from tracking.shots import ShotReconstructor

    fps, frames, truth = _fixture(name)
    rec = ShotReconstructor(T, fps)
    for k in sorted(frames):
        rec.push(k, k / fps, frames[k])
    rec.finish(max(frames) / fps)
    return rec, fps, truth


def _the_one_shot(name: str):
    """`_replay` of a fixture that holds one shot: (its record, fps, the file's truth), the record
    found and starting at the truth's strike."""
    rec, fps, truth = _replay(name)
    shots = [r for r in rec.records if r["kind"] == "shot"]
    assert len(shots) == 1 and abs(shots[0]["t0"] - truth["t0"]) < 2 / fps, [(r["kind"], r["t0"]) for r in rec.records]
    return shots[0], fps, truth


def _dropped_as_in_the_physics(shot: dict, fps: float, truth: dict) -> None:
    """The shot's one pocketed ball is the physics' one (`truth["pocketed"]`): the ball, the
    pocket, and the time within twice its `t_err` (or a frame)."""
    ((ball, pocket, t_drop),) = truth["pocketed"]
    (drop,) = [e for e in shot["events"] if e["type"] == "pocket"]
    assert (drop["ball"], drop["pocket"]) == (ball, pocket)
    assert abs(shot["t0"] + drop["t"] - t_drop) <= max(2 * drop["t_err"], 1 / fps)


def _fixture(name: str):
    """`tests/data/NAME`'s (fps, {frame: observations}, truth). A row is [frame, ball, x mm, y mm]
    and, optionally, its sigma (mm) and its top probabilities (a dict)."""
    data = json.loads((pathlib.Path(__file__).parent / "data" / name).read_text())
    fps = data["fps"]
    frames: dict[int, list] = {}
    key = next(k for k in data if k.startswith("rows"))
    for k, ball, x, y, *rest in data[key]:
        # (Each row's own sigma and top probabilities where the file has them.)
        probs = rest[1] if len(rest) > 1 else {ball: data["p"]}
        frames.setdefault(k, []).append(Observation(k, k / fps, ball, probs, (math.nan, math.nan), (x, y),
                                                    rest[0] if rest else data["sigma_mm"]))
    return fps, frames, data["truth"]


def test_the_reconstructor_in_a_process_of_its_own_gives_the_same_records():
    # The review tracks in a process of its own (cueref/pipeline.py): the same records as the
    # reconstructor in this process, in the same order, whether the last frames are drained
    # (an interrupted review) or finished (the end of the video); an error there is raised here.
    from cueref.pipeline import ReconstructorProcess
    from tracking.shots import ShotReconstructor

    for name in ("clean-pot-seed7011.json", "hard-break-seed12005.json"):
        fps, frames, truth = _fixture(name)
        here = ShotReconstructor(T, fps)
        with ReconstructorProcess(T, fps) as there:
            a, b = [], []
            for k in sorted(frames):
                a += here.push(k, k / fps, frames[k])
                b += there.push(k, k / fps, frames[k])
            assert b == a[:len(b)]  # what has come back so far, in order
            b += there.drain()
            assert b == a
            a += here.finish(max(frames) / fps)
            b += there.finish(max(frames) / fps)
        assert b == a and any(r["kind"] == "shot" for r in a)
        assert any(r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps for r in a)  # the fixture's strike
    with ReconstructorProcess(T, 60.0) as there:
        there.push(5, 5 / 60, [])
        with pytest.raises(ValueError, match="frame 4: media time"):
            there.push(4, 4 / 60, [])  # out of order: the tracker's own error
            there.drain()


def test_a_tracking_process_that_cannot_start_is_said_in_words(tmp_path):
    # Python's spawn and forkserver import the main script again in a new process: a script that
    # starts the reconstructor at its top level, with no `if __name__ == "__main__":`, kills it there.
    # The review's side says so, not a bare "connection reset".
    script = tmp_path / "unguarded.py"
    script.write_text("import sys\n"
                      f"sys.path.insert(0, {str(pathlib.Path(__file__).resolve().parents[1])!r})\n"
                      "from cueref.pipeline import ReconstructorProcess\n"
                      "from cueref.table import Table\n"
                      "with ReconstructorProcess(Table(), 60.0) as p:\n"
                      "    for k in range(400):\n"
                      "        p.push(k, k / 60, [])\n"
                      "    p.drain()\n")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("RuntimeError: the tracking process ended unexpectedly (exit code 1)"), r.stderr[-2000:]
    assert 'if __name__ == "__main__":' in last


def test_a_tracking_process_that_fails_to_start_raises_at_the_first_batch(monkeypatch):
    # The process is started from a thread (the fork server's imports overlap the review's
    # start): what stopped it reaches the review at its first batch, and closing does not hang.
    import multiprocessing

    import cueref.pipeline as pipeline

    class NoProcesses:
        Pipe = staticmethod(multiprocessing.Pipe)

        class Process:
            def __init__(self, **kw):
                pass

            def start(self):
                raise OSError("no more processes")

            def is_alive(self):
                return False

    monkeypatch.setattr(pipeline, "_tracking_context", lambda: NoProcesses)
    with pipeline.ReconstructorProcess(T, 60.0) as there:
        for k in range(pipeline.ReconstructorProcess.BATCH - 1):
            assert there.push(k, k / 60, []) == []  # (no batch sent yet)
        with pytest.raises(OSError, match="no more processes"):
            there.push(7, 7 / 60, [])


def test_a_review_process_starts_no_blas_threads():
    # cueref sets OPENBLAS_NUM_THREADS=1 before numpy loads (cueref/__init__.py): its stages are
    # the parallelism, and OpenBLAS's idle threads spin on the cores they share. Linux: the
    # threads are counted in /proc.
    if not pathlib.Path("/proc/self/task").exists():
        pytest.skip("no /proc")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    count = "import os, numpy, scipy.linalg; numpy.ones((64, 64)) @ numpy.ones((64, 64)); print(len(os.listdir('/proc/self/task')))"
    plain = subprocess.run([sys.executable, "-c", count], capture_output=True, text=True, env=env, check=True)
    ours = subprocess.run([sys.executable, "-c", "import cueref; " + count], capture_output=True, text=True, env=env,
                          check=True, cwd=pathlib.Path(__file__).resolve().parents[1])
    assert int(ours.stdout) == 1
    if (os.cpu_count() or 1) > 1:
        assert int(plain.stdout) > 1  # the control: without cueref's setting the threads are there


def _each_contact_once(name: str):
    """A replayed fixture's shot (`truth["t0"]`), checked: each of the truth's contacts (`[a, b,
    t]`) found once within 0.1 s of it, and that one within a frame. Returns (the shot's
    collisions as (sorted balls, media time), the truth)."""
    rec, fps, truth = _replay(name)
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    hits = [(sorted(e["balls"]), shot["t0"] + e["t"]) for e in shot["events"] if e["type"] == "collision"]
    for a, b, t in truth["contacts"]:
        near = [h for balls, h in hits if balls == sorted([a, b]) and abs(h - t) < 0.1]
        assert len(near) == 1 and abs(near[0] - t) <= 1 / fps, (a, b, t, hits)
    return hits, truth


def _replay_first_contact(name: str):
    """A replayed fixture's shot, checked against the truth's strike (within two frames), first
    contact and its time (within a frame): (the shot, its first cue-ball collision, fps, truth)."""
    rec, fps, truth = _replay(name)
    shot = next(r for r in rec.records if r["kind"] == "shot")
    assert abs(shot["t0"] - truth["t0"]) < 2 / fps
    assert first_contact(shot) == truth["first_contact"]
    hit = next(e for e in shot["events"] if e["type"] == "collision" and "cue" in e["balls"])
    assert abs(hit["t"] - truth["first_contact_t"]) <= 1 / fps
    return shot, hit, fps, truth


@pytest.mark.parametrize("seed", [10011, 10015])
def test_a_break_cue_ball_is_not_said_to_meet_the_rack_balls_behind_the_one_it_hit(seed):
    # Two breaks simulated by pooltool, observed as the benchmark does (1.6 s around the strike):
    # the cue ball at 10 m/s meets the apex ball nearly full, and the balls frozen behind it are
    # set off in the same instant. The cue ball's samples, 170 mm apart and blurred, "pass" them
    # a diameter off: before, a contact with one of them was recorded 0.3-3 ms before the real
    # one, and it named the first contact (seed 10011: the 8 for the 1; seed 10015: the 15 for
    # the 9, the cue ball's four-frame line 2 degrees off). The cue ball reaches them only
    # through the apex ball, and its path from the strike meets the apex ball first.
    rec, fps, truth = _replay(f"break-seed{seed}.json")
    shot = next(r for r in rec.records if r["kind"] == "shot")
    cue_hits = sorted((e for e in shot["events"] if e["type"] == "collision" and "cue" in e["balls"]), key=lambda e: e["t"])
    assert sorted(cue_hits[0]["balls"]) == sorted(["cue", truth["first_contact"]]), cue_hits[:3]
    assert abs(cue_hits[0]["t"] - truth["t_after_strike"]) <= 1 / fps
    # (Seed 10015's record also has the cue ball touching the 15 within a frame after the 9, said
    # together with it: the physics' cue-15 contact comes 98 ms later. Not this test's matter.)


def test_a_strike_with_a_contact_a_frame_or_two_later_is_timed_before_that_contact():
    # Seed 8019: a cue ball at 6 m/s meets a ball 163 mm away, 27 ms after the strike, and leaves
    # sideways at 1 m/s. The line after the strike must not take samples past the other ball's
    # start (the strike came out 37 ms late, after the cue ball was seen moving, and the first
    # contact was lost); nor can it end after the first sample that shows the cue ball moving.
    from tracking.events import extract

    within, right = 0, 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        cue0, ball = np.array([2488.0, 990.0]), np.array([2482.0, 770.0])
        u = (ball - cue0) / np.hypot(*(ball - cue0))
        speed = 6000.0
        t_c = (float(np.hypot(*(ball - cue0))) - D) / speed
        hit = cue0 + u * speed * t_c
        t_s = rng.uniform(0, 1 / FPS)  # the strike, somewhere in a frame
        t = np.arange(-10, 40) / FPS - 0.4 / FPS
        side = np.array([-u[1], u[0]]) * 1000.0
        paths = _paths_of(rng, t, [
            ("cue", cue0, lambda x: cue0 if x <= t_s else (cue0 + u * speed * (x - t_s) if x < t_s + t_c
                                                           else hit + side * (x - t_s - t_c)), t_s,
             lambda x: t_s < x < t_s + t_c),
            ("15", ball, lambda x: ball if x < t_s + t_c else ball + u * 0.9 * speed * (x - t_s - t_c), t_s + t_c,
             lambda x: False)], 7.0)
        t0, evs = extract(paths, T, FPS)
        within += t0 is not None and abs(t0 - t_s) <= 1 / FPS
        first = next((e for e in evs if e["type"] == "collision"), None)
        right += first is not None and sorted(first["balls"]) == ["15", "cue"]
    assert within >= 24, within
    assert right >= 28, right


@pytest.mark.parametrize("fps", [60.0, 30.0])
def test_a_ball_hit_next_to_a_cushion_bounces_off_it_before_a_line_in_can_be_fitted(fps):
    # Seed 8000: the 3, resting 40 mm from the right cushion, is hit toward it at 3 m/s and
    # bounces (restitution 0.8) 17 ms later: one sample, if any, between the contact and the
    # bounce. The line out, traced back to a radius from the nose, times it (found in 1 of 30
    # before: the line in mixed the rest with the motion, and the onset, fitted across the
    # bounce, came after it). At 30 fps the first sample is mostly after the bounce, up to a
    # frame's travel (100 mm) off the rail: it was found when that sample was still within
    # 15 mm of it (seed 7003's 6, at 30 fps, was not), and the line traced back was measured
    # from the nose as a distance, not inward (a line traced back beyond the nose came out
    # 56 ms early).
    from tracking.events import extract

    found, timed = 0, 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        three, u, speed = np.array([1540.0, T.W - T.R - 40.0]), np.array([0.6, 0.8]), 3000.0
        cue0, hit = three - u * 400.0, three - u * D
        t_c = 0.3 + rng.uniform(0, 1 / fps)  # the cue ball meets the 3
        v_cue = u * (400.0 - D) / t_c
        t_w = t_c + 40.0 / (speed * u[1])  # the 3 meets the cushion
        at_w, v_out = three + u * speed * (t_w - t_c), np.array([speed * u[0], -0.8 * speed * u[1]])
        t = np.arange(-10, 50) / fps - 0.4 / fps
        paths = _paths_of(rng, t, [
            ("cue", cue0, lambda x: cue0 if x <= 0 else (cue0 + v_cue * x if x < t_c else hit), 0.0, lambda x: False),
            ("3", three, lambda x: three if x < t_c else (three + u * speed * (x - t_c) if x < t_w
                                                          else at_w + v_out * (x - t_w)), t_c, lambda x: x > t_c)],
            3.5)
        _, evs = extract(paths, T, fps)
        hits = [e for e in evs if e["type"] == "cushion" and e["ball"] == "3" and e["rail"] == "right"]
        found += bool(hits)
        timed += any(abs(e["t"] - t_w) <= 1 / fps for e in hits)
    assert found >= 28, found
    assert timed >= found - 2, (timed, found)


def test_a_ball_travelling_pressed_to_a_cushion_is_timed_where_it_bounces_off():
    # Seed 8008: the 2 travels 0.37 s along the left cushion at 300 mm/s, pressed to it (its
    # centre creeping into it at 14 mm/s, as pooltool has it), then comes off at 170 mm/s: the
    # physics' contact is that bounce. There is no line in to time it by (its speed into the rail
    # is noise): the bend at the rail is the contact, where the lines before and after meet
    # across the rail (before: 5 of 30 within a frame; a touch put 0.2 s early instead).
    from tracking.events import extract

    def run(bounce: bool, seed: int):
        rng = np.random.default_rng(seed)
        t_b = 0.4 + rng.uniform(0, 1 / FPS)
        # (On the left cushion's nose past the side pocket: its whole path is where the cushion is.)
        start, v_along, v_off = np.array([1900.0, T.R]), np.array([-300.0, -14.0]), np.array([-140.0, 170.0])
        at_b = start + v_along * t_b

        def two(x):
            return start + v_along * x if (x < t_b or not bounce) else at_b + v_off * (x - t_b)
        t = np.arange(0, 50) / FPS + rng.uniform(0, 1 / FPS)
        paths = _paths_of(rng, t, [("2", start, two, -1.0, lambda x: False)], 2.0)
        paths[0].xy = np.array([two(x) for x in t]) + rng.normal(0, 1.5, (len(t), 2))  # a sim's noise
        paths[0].s[:] = 1.5
        paths[0].rest, paths[0].motions = None, [(0, None)]
        _, evs = extract(paths, T, FPS, strikers=())
        return t_b, [e for e in evs if e["type"] == "cushion" and e["ball"] == "2" and 0.1 < e["t"] < 0.75]

    timed = 0
    for seed in range(30):
        t_b, hits = run(True, seed)
        timed += any(abs(e["t"] - t_b) <= 1 / FPS for e in hits)
        assert all(e["rail"] == "left" for e in hits), hits
    assert timed >= 18, timed  # 5 of 30 before
    # Going on along the cushion: a bend of the noise taken for a ball coming in at 60 mm/s
    # (the older test, `v_in > 60`) makes a false contact in 13 of 30, as before this rule; the
    # bend rule adds none.
    assert sum(bool(run(False, seed)[1]) for seed in range(30)) <= 13


@pytest.mark.parametrize("v_in,slowdown,kept,floor", [(80.0, 40.0, 0.4, 24), (150.0, 100.0, 0.4, 28),
                                                     (80.0, 40.0, 0.0, 24)])
def test_a_ball_nudged_off_slowly_is_timed_by_its_partners_arrival_not_its_late_start(v_in, slowdown, kept, floor):
    # Seed 8000: the 9, rolling in at 80-150 mm/s and slowing, nudges the 10 (60 % of its speed
    # along the line of centres; both then roll to a stop). The 10 takes frames to show it moved
    # (a tracker sees it go past ~4 mm: 60-90 ms late); the contact is when the 9 came a diameter
    # from where the 10 rested (before: 85-98 ms late at 80 mm/s, none of 30 within a frame).
    # Seed 9003: the 7 meets the 2 full (`kept` 0: it stops dead, the 2 takes all its speed) and
    # has stopped by the time the 2 is seen to move; the 7 had been moving a frame or two before
    # that: a contact, not nothing (before: no event in 30 of 30).
    from tracking.events import extract

    within = 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        ten, u = np.array([2214.0, 443.0]), np.array([-0.8, -0.6])
        t_c = 1.0 + rng.uniform(0, 1 / FPS)
        hit9 = ten - u * D
        stop9, stop10 = kept * v_in / slowdown, (1.0 - kept) * v_in / (2.0 * slowdown)

        def nine(x):
            if x < t_c:
                tau = t_c - x
                return hit9 - u * (v_in * tau + 0.5 * slowdown * tau * tau)
            tau = min(x - t_c, stop9)
            return hit9 + u * (kept * v_in * tau - 0.5 * slowdown * tau * tau)

        def tenf(x):
            tau = min(max(x - t_c, 0.0), stop10)
            return ten + u * ((1.0 - kept) * v_in * tau - slowdown * tau * tau)

        t = np.arange(0, 2.0, 1 / FPS) - 0.4 / FPS
        xy9, xy10 = np.array([nine(x) for x in t]), np.array([tenf(x) for x in t])
        seen = int(np.argmax(np.hypot(*(xy10 - ten).T) > 4.0))
        paths = [BallPath("9", t, t, xy9 + rng.normal(0, 0.7, xy9.shape), np.full(len(t), 0.7), None,
                          [(0, int(np.argmax(t > t_c + stop9)))]),
                 BallPath("10", t, t, xy10 + rng.normal(0, 0.7, xy10.shape), np.full(len(t), 0.7), ten.copy(),
                          [(seen, int(np.argmax(t > t_c + stop10)))])]
        _, evs = extract(paths, T, FPS, strikers=())
        assert not [e for e in evs if e["type"] == "disturbed"]
        hits = [e for e in evs if e["type"] == "collision" and sorted(e["balls"]) == ["10", "9"]]
        within += bool(hits) and abs(hits[0]["t"] - t_c) <= 1 / FPS
    assert within >= floor, within


def test_a_ball_slid_a_little_with_nothing_near_it_was_disturbed():
    # Seed 9013 (pooltool, the generator's disturbed ball): the 13, touched by nothing, slides 20
    # mm in a quarter second, slowing, while the cue ball rolls elsewhere. Its steps are a
    # millimetre or so a frame: the rest test took most of the slide for jitter, the motion left
    # was six frames with two steps over 1.5 mm, "not travelling", and the foul (WPA 3.6) went
    # unrecorded. Its rest before and after are 14 mm apart, no step over 6 mm.
    rec, fps, truth = _replay("slide-seed9013.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    got = [[e["ball"], shot["t0"] + e["t"]] for e in shot["events"] if e["type"] == "disturbed"]
    assert [b for b, _ in got] == [b for b, _ in truth["disturbed"]], got
    assert all(abs(t - w) < 0.15 for (_, t), (_, w) in zip(got, truth["disturbed"]))


def test_a_track_handed_a_sighting_farther_than_any_ball_goes_in_a_frame_is_not_a_disturbed_ball():
    # Seed 12001's break through the real detector: the 7's track, on a rack ball after the 7
    # had left unseen, was handed a sure "7" 1.9 m away the next frame and called disturbed (a
    # foul, WPA 3.6, on two balls' sightings mixed up). The same ball sliding off its rest at
    # 0.4 m/s with nothing near it is disturbed.
    from tracking.events import extract

    t = np.arange(0, 3.0, 1 / FPS) - 0.4 / FPS
    cue = np.array([[600.0 + (1500.0 * max(x - 0.5, 0.0) - 300.0 * max(x - 0.5, 0.0) ** 2) if x < 3.0 else 0.0, 300.0]
                    for x in t])
    a = int(np.argmax(t > 1.0))
    rest = np.array([1800.0, 900.0])
    called = {}
    for how, first, speed in (("leap", np.array([400.0, 1000.0]), 3000.0), ("slide", rest, 400.0)):
        rng = np.random.default_rng(0)
        seven = np.repeat(rest[None], len(t), 0)
        seven[a:] = first + np.array([0.0, 1.0]) * (speed * (t[a:] - t[a]) - 0.5 * 1500.0 * (t[a:] - t[a]) ** 2)[:, None] \
            .clip(max=speed * speed / 3000.0)
        paths = [BallPath("cue", t, t, cue + rng.normal(0, 0.7, cue.shape), np.full(len(t), 0.7), np.array([600.0, 300.0]),
                          [(int(np.argmax(t > 0.5)), None)]),
                 BallPath("7", t, t, seven + rng.normal(0, 0.7, seven.shape), np.full(len(t), 0.7), rest.copy(),
                          [(a, None)])]
        _, evs = extract(paths, T, FPS)
        called[how] = [e["ball"] for e in evs if e["type"] == "disturbed"]
    assert called == {"leap": [], "slide": ["7"]}, called


def test_a_ball_nudged_off_slowly_by_one_that_bounced_away_was_hit_not_disturbed():
    # Seed 12007 (pooltool): the 1 at 1.5 m/s meets the 6, which rests 13 mm off the foot
    # cushion: the 6 goes into the cushion and comes back at 90 mm/s, the 1 rebounds. The 6 is
    # seen off its spot 95 ms later, when the 1 is 170 mm away: no ball near it then, so
    # "disturbed" (WPA 3.6: a foul). The last ball to come a diameter from it in the quarter
    # second before a slow start set it off.
    from tracking.events import extract

    right = 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        six = np.array([2498.5, 169.1])
        t_c = 1.0 + rng.uniform(0, 1 / FPS)
        hit1 = six - np.array([D, 0.0])
        v_in, v_out = np.array([1500.0, -300.0]), np.array([-1200.0, -450.0])

        def one(x):
            return hit1 + v_in * (x - t_c) if x < t_c else hit1 + v_out * (x - t_c)

        def sixf(x):  # into the cushion 13 mm and back, then rolling back slowly
            tau = x - t_c
            if tau <= 0:
                return six
            if tau < 0.03:
                return six + np.array([13.0 * math.sin(math.pi * tau / 0.03), 0.0])
            return six - np.array([90.0 * min(tau - 0.03, 0.5) - 45.0 * min(tau - 0.03, 0.5) ** 2, 0.0])

        t = np.arange(0, 2.0, 1 / FPS) - 0.4 / FPS
        xy1, xy6 = np.array([one(x) for x in t]), np.array([sixf(x) for x in t])
        seen = int(np.argmax(t > t_c + 0.095))
        paths = [BallPath("1", t, t, xy1 + rng.normal(0, 1.0, xy1.shape), np.full(len(t), 1.0), None, [(0, None)]),
                 BallPath("6", t, t, xy6 + rng.normal(0, 0.7, xy6.shape), np.full(len(t), 0.7), six.copy(),
                          [(seen, int(np.argmax(t > t_c + 0.55)))])]
        _, evs = extract(paths, T, FPS, strikers=())
        assert not [e for e in evs if e["type"] == "disturbed"]
        hits = [e for e in evs if e["type"] == "collision" and sorted(e["balls"]) == ["1", "6"]]
        right += bool(hits) and abs(hits[0]["t"] - t_c) <= 1 / FPS
    assert right >= 27, right


def test_a_ball_set_off_between_two_moving_balls_was_hit_by_the_one_it_leaves_along_the_line_from():
    # Equal balls push each other along their line of centres: the 5, hit nearly full by the 3
    # (20 degrees of cut, 1.2 m/s), leaves along the line from the 3's centre; the 7 rolls past
    # 2 mm clear of touching at that moment. The 3's line before the contact runs well inside a
    # diameter of the 5's spot and the 7's passes at about one, so the nearest-to-a-diameter test
    # alone named the 7 (in 30 of 30).
    from tracking.events import extract

    right = 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        five = np.array([1500.0, 700.0])
        th = rng.uniform(0, 2 * math.pi)
        n = np.array([math.cos(th), math.sin(th)])  # from the 3's centre to the 5's at contact
        cut = math.radians(20.0)
        v3 = 1200.0 * np.array([math.cos(th + cut), math.sin(th + cut)])
        t_c = 0.5 + rng.uniform(0, 1 / FPS)
        c3 = five - D * n
        v5 = (v3 @ n) * n
        v3_out = v3 - v5
        side = np.array([-n[1], n[0]])
        c7 = five + (D + 2.0) * side  # beside the 5 at t_c, rolling along n (tangent to it)
        v7 = 700.0 * n
        t = np.arange(0, 1.2, 1 / FPS) - 0.4 / FPS
        paths = _paths_of(rng, t, [
            ("3", c3 - v3 * 0.5, lambda x: c3 + v3 * (x - t_c) if x < t_c else c3 + v3_out * (x - t_c), -1.0,
             lambda x: False),
            ("7", c7 - v7 * 0.5, lambda x: c7 + v7 * (x - t_c), -1.0, lambda x: False),
            ("5", five, lambda x: five if x < t_c else five + v5 * (x - t_c), t_c, lambda x: False)], 2.0)
        for p in paths[:2]:
            p.rest, p.motions = None, [(0, None)]
        _, evs = extract(paths, T, FPS, strikers=())
        hits = {tuple(sorted(e["balls"])) for e in evs if e["type"] == "collision" and "5" in e["balls"]}
        right += hits == {("3", "5")}
    assert right >= 28, right


def test_a_cue_ball_struck_again_while_it_still_rolls_starts_a_new_shot():
    # Seed 10016 (the generated game's observations, as the benchmark makes them): a shot at
    # 32.21 s; its cue ball still rolls (~50 mm/s) when it is struck again at 36.77 s, and meets
    # the 2. The strike is the cue ball leaping to speed with no ball near it; the shot so far
    # ends there, and its balls stopped after the new strike (WPA 3.9: balls still moving). The
    # old code made one record of both shots, and no ruling for the second.
    rec, fps, truth = _replay("restrike-seed10016.json")
    shots = [r for r in rec.records if r["kind"] == "shot"]
    assert [round(r["t0"], 2) for r in shots] == [round(t, 2) for t in truth["shots_t0"]]
    assert abs(shots[1]["t0"] - truth["shots_t0"][1]) < 1 / fps
    assert first_contact(shots[1]) == truth["second_first_contact"]
    stop = next(e for e in shots[0]["events"] if e["type"] == "stop")
    assert shots[0]["t0"] + stop["t"] - stop["t_err"] > shots[1]["t0"]  # still moving at the strike
    assert abs(shots[0]["t0"] + stop["t"] - truth["first_stop"]) < 0.1


def test_a_ball_the_cue_ball_passes_close_and_comes_back_to_hit_was_hit_the_second_time():
    # Seed 12014 (pooltool): the cue ball passes 2 mm clear of the 5, comes off the right cushion
    # and hits it 0.4 s later, slowly. The 5's contact was timed at the cue ball's first arrival
    # within a diameter (the pass), before the cushion: a rail after contact where there was none
    # (WPA 3.3), the shot ruled legal.
    shot, hit, fps, truth = _replay_first_contact("pass-then-hit-seed12014.json")
    ball, rail, t_rail = truth["rail_before"]
    assert any(e["type"] == "cushion" and e["ball"] == ball and e["rail"] == rail and e["t"] < hit["t"]
               and abs(e["t"] - t_rail) <= 1 / fps for e in shot["events"])


def test_a_thin_cut_the_fast_cue_ball_hardly_bends_at_is_its_first_contact_not_a_disturbed_ball():
    # Seed 12009 (pooltool): the cue ball at 5 m/s, already curving, clips the 11 and meets the 8
    # 50 ms later, where its path bends. The 11 is seen moving three frames before that bend; its
    # start was taken for a slow ball's early one and moved up to the 8's contact, when the cue
    # ball was 170 mm away: "disturbed" (WPA 3.6), and a wrong first contact. The cue ball passed
    # within a diameter of the 11 as it started: that start stands.
    shot, hit, fps, truth = _replay_first_contact("thin-cut-seed12009.json")
    assert not [e for e in shot["events"] if e["type"] == "disturbed"]
    assert any(e["type"] == "collision" and sorted(e["balls"]) == sorted(["cue", truth["then"]]) for e in shot["events"])


def test_a_ball_next_to_the_cue_ball_struck_into_a_pocket_before_either_is_seen_moving_was_hit():
    # Seed 9018 (pooltool): the 4 rests 31 mm from the cue ball, by the foot-right pocket; the
    # cue ball at 5 m/s meets it 6 ms after the strike and it is gone 7 ms later, seen once 10 mm
    # off its spot. No ball was moving near it before it vanished (the cue ball had just been
    # struck): it was "only hidden", and the shot a no-contact foul (WPA 3.4) instead of the 4
    # pocketed. The striker's first step, on a line meeting the 4 first, hit it.
    shot, hit, fps, truth = _replay_first_contact("struck-in-seed9018.json")
    pockets = [(e["ball"], e["pocket"], e["t"]) for e in shot["events"] if e["type"] == "pocket"]
    assert [[b, pk] for b, pk, _ in pockets] == truth["pocketed"] and pockets[0][2] >= hit["t"]


def test_a_break_timed_just_after_the_cue_balls_first_sample_off_its_spot_keeps_its_spot_as_before():
    # Seed 8019 (pooltool): the break's strike is timed 1.1 ms after the frame in which the cue
    # ball was first seen off its spot; the shot's "before" took the cue ball's position at the
    # strike from that motion, a blur 1.3 m up the table, not its rest: a ball-in-hand placement
    # foul in front of the head string (WPA 3.10) ruled on a legal break from the kitchen.
    rec, fps, truth = _replay("break-strike-seed8019.json")
    shot = next(r for r in rec.records if r["kind"] == "shot")
    assert abs(shot["t0"] - truth["t0"]) < 2 / fps
    assert math.dist(shot["before"]["cue"], truth["cue_before"]) < 3.0
    assert T.in_kitchen(shot["before"]["cue"], shot["pos_err"]["cue"])


def test_a_ball_touching_a_cushion_hit_toward_it_slides_along_it_and_is_driven_to_the_rail():
    # Seed 9012 (pooltool): the cue ball meets the 2, which lies touching the right cushion (0.7
    # mm off it), pushing it into the cushion; the 2 slides along it for 475 mm, measured a few
    # mm/s into it or out of it (noise). It bounced off the cushion within the frame of the
    # collision: there is no line in to see. WPA 2.7: a ball is not frozen unless declared, so it
    # was driven to a rail.
    rec, fps, truth = _replay("rail-slide-seed9012.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    hit = next(e for e in shot["events"] if e["type"] == "collision")
    assert sorted(hit["balls"]) == sorted(truth["collision"])
    assert abs(shot["t0"] + hit["t"] - truth["t_collision"]) <= 1 / fps
    ball, rail, t = truth["cushion"]
    rails = [e for e in shot["events"] if e["type"] == "cushion" and e["ball"] == ball]
    assert rails and rails[0]["rail"] == rail
    assert hit["t"] <= rails[0]["t"] and abs(shot["t0"] + rails[0]["t"] - t) <= 2 / fps


def test_a_ball_in_a_side_pockets_mouth_has_no_cushion_to_be_driven_to():
    # Seed 13004 (pooltool): a slow cue ball meets the 2, which rests in the left side pocket's
    # mouth, 26 mm short of the cushion's end (WPA: a 129 mm mouth), its centre a radius from the
    # nose line. The 2 rolls 6 mm toward the cushion's end and back. pooltool records a contact
    # with that cushion's rounded tip, its centre 45.2 mm from the tip's (tip radius plus a ball's
    # radius: 36.6 mm): a root of its contact equation, not a touch. The line of the noses is open
    # in a mouth; a ball can only meet a cushion where there is one (before, the nose line was
    # taken to go on through the mouth, and this was a cushion contact).
    rec, fps, truth = _replay("rail-slide-seed13004.json")
    shot = next(r for r in rec.records if r["kind"] == "shot")
    assert abs(shot["t0"] - truth["t0"]) < 2 / fps
    hit = next(e for e in shot["events"] if e["type"] == "collision")
    assert sorted(hit["balls"]) == sorted(truth["collision"])
    assert abs(hit["t"] - truth["t_collision"]) <= 1 / fps
    assert T.cushion_gap(shot["before"]["2"], "left") > 5.0
    assert not [e for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "2"]


def test_a_ball_that_creeps_into_the_jaws_stops_and_is_gone_before_the_shot_ends_fell_in():
    # Seed 13014 (pooltool): after a break the 11 creeps into the foot-left corner at 40 mm/s, so
    # slowly that the rest test has it stopped in the jaws, past the nose line; it drops there and
    # is not seen again, while other balls roll on for 0.8 s. Not pocketed, it was "at rest,
    # hidden". Here: the cue ball, cut off the 3, rolls into the foot-right jaws, stops and
    # drops a quarter second later, the 3 rolling on for half a second more: a scratch. A ball
    # hanging in the jaws in sight is not pocketed (WPA 2.2).
    from tracking.shots import ShotReconstructor

    rng = np.random.default_rng(13014)
    d_c = np.array([328.0, 358.0]) / math.hypot(328.0, 358.0)  # the cue ball's way after the hit
    u = np.array([-d_c[1], d_c[0]])  # the 3's, square to it (a stun shot)
    C = np.array([2200.0, 900.0])  # the cue ball's centre at the contact
    P3 = C + D * u
    v3, a3, a_c = 400.0, 200.0, 600.0
    b = math.sqrt(2 * a_c * float(np.hypot(*(np.array([2528.0, 1258.0]) - C))))  # stops in the jaws
    v_in = v3 * u + b * d_c
    t_s, t_c = 1.0, 1.4
    jaws, drop = b / a_c, b / a_c + 0.25

    def cue(t):
        if t < t_s:
            return C - v_in * (t_c - t_s)
        if t < t_c:
            return C - v_in * (t_c - t)
        tau = min(t - t_c, jaws)
        return C + d_c * (b * tau - 0.5 * a_c * tau * tau)

    def three(t):
        tau = min(max(t - t_c, 0.0), v3 / a3)
        return P3 + u * (v3 * tau - 0.5 * a3 * tau * tau)

    for hang in (False, True):
        rec = ShotReconstructor(T, FPS)
        n = int((t_c + v3 / a3 + 1.5) * FPS)
        for k in range(n):
            t = k / FPS
            obs = [_obs(k, "3", three(t) + rng.normal(0, 0.5, 2)), _obs(k, "9", (600.0, 300.0) + rng.normal(0, 0.5, 2))]
            if hang or t < t_c + drop:
                obs.append(_obs(k, "cue", cue(t) + rng.normal(0, 0.5, 2)))
            rec.push(k, t, obs)
        rec.finish(n / FPS)
        shot = next(r for r in rec.records if r["kind"] == "shot")
        pockets = [e for e in shot["events"] if e["type"] == "pocket"]
        if hang:  # in sight in the jaws to the end: on the table
            assert pockets == [] and "cue" in shot["after"]
        else:
            assert [(e["ball"], e["pocket"]) for e in pockets] == [("cue", "foot-right")]
            assert abs(shot["t0"] + pockets[0]["t"] - (t_c + drop)) < 0.15
            assert "cue" not in shot["after"]


def test_a_ball_drifting_along_a_cushion_short_of_it_is_not_said_to_touch_it():
    # Seed 13005 (pooltool): the 2 rolls along the foot cushion at ~100 mm/s, drifting toward it
    # and stopping 8 mm short. A line over four noisy frames swings by tens of mm/s: one
    # "coming in" at 65 mm/s, 11 mm from the rail, had been taken for a bounce (a rail the shot
    # did not have: a no-rail foul ruled legal). The line in must reach the rail at the bend,
    # within its own sigmas: that removes some (32 of 40 noisy runs had one before); a line over
    # four frames of 1.5 mm noise still reaches it in the others.
    from tracking.events import extract

    def run(seed: int, gap_end: float):
        rng = np.random.default_rng(seed)
        x_stop = T.L - T.R - gap_end
        start = np.array([x_stop - 13.0, 700.0])

        def two(x):
            tau = min(max(x, 0.0), 1.2)
            s = 1.0 - (1.0 - tau / 1.2) ** 2  # slowing to a stop at 1.2 s
            return start + np.array([13.0, 130.0]) * s
        t = np.arange(0, 90) / FPS + rng.uniform(0, 1 / FPS)
        paths = _paths_of(rng, t, [("2", start, two, -1.0, lambda x: False)], 1.5)
        paths[0].xy = np.array([two(x) for x in t]) + rng.normal(0, 1.5, (len(t), 2))
        paths[0].s[:] = 1.5
        paths[0].rest, paths[0].motions = None, [(0, None)]
        _, evs = extract(paths, T, FPS, strikers=())
        return [e for e in evs if e["type"] == "cushion" and e["ball"] == "2"]

    assert sum(bool(run(seed, 8.0)) for seed in range(40)) <= 24


def _cushions_of(name: str, ball: str, rail: str):
    """A replayed fixture's shot (its strike within two frames of the truth's) and its cushion
    contacts of `ball` at `rail`, in time order, on the media clock."""
    rec, fps, truth = _replay(name)
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    return sorted(shot["t0"] + e["t"] for e in shot["events"]
                  if e["type"] == "cushion" and e["ball"] == ball and e["rail"] == rail), truth


def test_a_slow_bounce_off_a_cushion_is_one_contact():
    # Seed 7003 (pooltool): the cue ball comes to the foot cushion at 75 mm/s at a glancing angle
    # and leaves it at a few millimetres a frame; the nose distance's noise made two minima 55 ms
    # apart, and both were recorded. A ball cannot meet a rail again without leaving it first.
    times, truth = _cushions_of("slow-bounce-seed7003.json", "cue", "foot")
    _, _, t = truth["cushion"]  # the one contact the physics has (ball, rail, time)
    assert len(times) == 1, times
    assert abs(times[0] - t) <= 0.05


def test_a_ball_that_curves_back_to_the_cushion_it_left_meets_it_twice():
    # Seed 7003: the 7 meets the foot cushion, comes off it 9 mm and, its spin taking it back,
    # meets it again 0.26 s later at 100 mm/s along it. The second contact was dropped as the
    # first one seen again (any contact at that rail within 0.3 s).
    times, truth = _cushions_of("back-to-rail-seed7003.json", "7", "foot")
    want = [t for _, _, t in truth["cushions"]]
    assert len(times) == 2, times
    assert all(abs(a - b) <= 0.05 for a, b in zip(times, want)), (times, want)


def test_a_ball_creeping_to_a_cushion_is_timed_where_it_arrives():
    # Seed 8015: the 2 creeps to the right cushion at 16 mm/s, slowing, and stops against it. Its
    # average comes within noise of the nose 0.13 s before it touches; the contact was timed
    # there (a line fitted before it reaches the nose sooner still). The corner where its
    # distance from the nose stops falling times it.
    times, truth = _cushions_of("creep-to-rail-seed8015.json", "2", "right")
    _, _, t = truth["cushion"]  # the one contact the physics has (ball, rail, time)
    assert len(times) == 1, times
    assert abs(times[0] - t) <= 0.05, (times, t)


@pytest.mark.parametrize("ball, rail", [("1", "right"), ("4", "foot")])
def test_a_ball_resting_near_a_cushion_hit_into_it_meets_it(ball, rail):
    # Seed 7006: the cue ball drives the 1, resting 14 mm from the right cushion, into it; the 1
    # meets it 12 ms later and is seen off it a frame after. Then the 1 drives the 4, resting
    # 16 mm from the foot cushion, into that. Each is first seen off its rest under 10 mm nearer
    # the cushion (the 1: 5.7 mm, its blurred centre), which a bounce from rest needed: neither
    # contact was found.
    times, truth = _cushions_of("hit-off-rail-seed7006.json", ball, rail)
    t = next(t for b, r, t in truth["cushions"] if (b, r) == (ball, rail))
    assert any(abs(x - t) <= 0.05 for x in times), (times, t)


def test_a_ball_rolling_into_a_corner_pocket_along_a_rail_does_not_touch_that_rail():
    # Seed 7018 (pooltool): the 11 rolls to the foot-right pocket close along the right cushion's
    # line, its centre a radius from that line in the pocket's mouth, and drops in touching no jaw.
    # The nose is open there (WPA: a 116 mm corner mouth), but the line went on to the corner, and
    # a slow touch of the right cushion was recorded 45 ms before the pocket.
    rec, fps, truth = _replay("into-corner-seed7018.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    ball, pocket, t_pocket = truth["pocket"]
    drop = [e for e in shot["events"] if e["type"] == "pocket" and e["ball"] == ball]
    assert [e["pocket"] for e in drop] == [pocket]
    assert abs(shot["t0"] + drop[0]["t"] - t_pocket) <= 0.05
    cushions = [(e["rail"], shot["t0"] + e["t"]) for e in shot["events"] if e["type"] == "cushion" and e["ball"] == ball]
    want = truth["cushions_of_11"]
    assert [r for r, _ in cushions] == [r for r, _ in want], cushions
    assert all(abs(t - w) <= 0.05 for (_, t), (_, w) in zip(cushions, want))


def test_a_ball_passing_a_jaw_into_a_pocket_with_no_bounce_seen_touched_no_cushion():
    # Seed 7011 (pooltool): the 3 comes off the foot and right cushions and drops into the left
    # side pocket. Its centre passes 10 mm (~5 sigmas) from the jaw at the mouth and it is seen
    # twice more, on the line it came in on, before it vanishes: there is no line after to show a
    # bounce, and a "contact" with the left cushion was recorded 36 ms before the pocket.
    rec, fps, truth = _replay("clean-pot-seed7011.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    assert [[e["ball"], e["pocket"]] for e in shot["events"] if e["type"] == "pocket"] == [p[:2] for p in truth["pocketed"]]
    cushions = [(e["rail"], shot["t0"] + e["t"]) for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "3"]
    want = truth["cushions_of_3"]
    assert [r for r, _ in cushions] == [r for r, _ in want], cushions
    assert all(abs(t - w) <= 1 / fps for (_, t), (_, w) in zip(cushions, want))


def test_a_ball_that_touches_a_jaw_as_it_drops_unseen_after_the_touch_met_that_cushion():
    # Seed 8002 (pooltool): the 2, at 1.2 m/s into the head-right pocket, touches the head
    # cushion's jaw 29 ms before it drops, and is not seen after the touch: no bend to find. Its
    # last line, followed on, reaches the jaw 5 mm deep before its centre is over the hole.
    rec, fps, truth = _replay("jaw-on-the-way-in-seed8002.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    assert [[e["ball"], e["pocket"]] for e in shot["events"] if e["type"] == "pocket"] == [p[:2] for p in truth["pocketed"]]
    _finds_the_true_cushions(shot, truth)
    twos = [(e["rail"], shot["t0"] + e["t"]) for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "2"]
    (_, rail, t), = [c for c in truth["cushions"] if c[0] == "2"]
    assert [r for r, _ in twos] == [rail] and abs(twos[0][1] - t) <= 1 / fps, twos


def test_a_slow_bounce_is_timed_at_its_point_with_a_sigma_that_holds_the_physics_contact():
    # Seed 7014 (pooltool): the 13, at 95 mm/s into the head cushion, comes off it at 40 mm/s.
    # A minimum of its noisy distance from the rail 50 ms before was a candidate too; the V of
    # its distance fitted about that one had its point at its window's edge, two frames on,
    # with a sigma of a tenth of a frame, and that contact, 18.5 ms early, was the one kept.
    rec, fps, truth = _replay("slow-bounce-off-the-head-cushion-seed7014.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    got = [(e["rail"], shot["t0"] + e["t"], e["t_err"]) for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "13"]
    want = [(r, t) for b, r, t in truth["cushions"] if b == "13"]
    assert [r for r, _, _ in got] == [r for r, _ in want], got
    (_, t, err), (_, w) = got[-1], want[-1]
    assert abs(t - w) <= 1 / fps and abs(t - w) <= 2 * err, (t, err, w)


def test_a_bend_whose_line_in_reaches_back_across_the_bounce_does_not_displace_it():
    # Seed 7000's break (pooltool): the 7, out of the rack at 0.6 m/s, bounces off the left
    # cushion. A bend of its noisy path 45 ms later, fitted with a line in across the bounce (which
    # meets the rail at the bounce), kept its kink's 2 ms sigma, and as the better timed of the
    # two the one contact of that stay was put there, 49 ms late.
    rec, fps, truth = _replay("break-ball-bend-after-its-cushion-seed7000.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    got = [shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "7"]
    (w,) = [t for b, r, t in truth["cushions"] if b == "7"]
    assert len(got) == 1 and abs(got[0] - w) <= 1 / fps, (got, w)


def test_a_ball_across_a_side_pockets_mouth_meets_both_jaws():
    # Seed 7011 (pooltool): the cue ball, 1.0 m/s along the right rail into the side pocket's
    # mouth, bounces off the near jaw and 69 ms later off the far one, and rolls back up the
    # table. The far jaw turns it back along the rail (its face 76 degrees from the nose line):
    # against the rail's own normal it was moving away from the rail, and the two contacts, one
    # rail's without leaving it, were one stay. Both are found, each within a frame.
    rec, fps, truth = _replay("side-pocket-both-jaws-seed7011.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    got = [(e["rail"], shot["t0"] + e["t"]) for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "cue"]
    want = [(r, t) for b, r, t in truth["cushions"] if b == "cue"]
    assert [r for r, _ in got] == [r for r, _ in want], got
    assert all(abs(t - w) <= 1 / fps for (_, t), (_, w) in zip(got, want)), (got, want)


def test_a_thin_cut_unseen_at_the_contact_is_the_first_contact_by_the_struck_balls_departure():
    # Seed 10005 (pooltool): the cue ball at 2.9 m/s thinly cuts the 1 24 ms after the strike,
    # unseen in that frame, and meets the 6 27 ms later. Its path from its rest to its next
    # sighting (cutting the corner of its own deflection) passes 9.6 mm too far from the 1 for a
    # touch; the 1's onset was moved up to the contact with the 6, and the first contact was the
    # 6. The 1 left the way a ball struck from where the cue ball's path passed (11.6 mm off)
    # leaves: that is the striker near it.
    rec, fps, truth = _replay("thin-cut-unseen-seed10005.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    hits = sorted((shot["t0"] + e["t"], sorted(e["balls"]), e["t_err"]) for e in shot["events"]
                  if e["type"] == "collision" and "cue" in e["balls"])
    (t1, first, err), (t2, second, _) = hits[:2]
    assert first == ["1", "cue"] and abs(t1 - 47.4682) <= max(err, 1 / fps), hits
    assert second == ["6", "cue"] and abs(t2 - 47.4960) <= 1 / fps, hits


def _cue_hits(shot: dict) -> list[tuple[float, list[str], float]]:
    """A shot's collisions of the cue ball: (absolute time, its two balls sorted, sigma), in time."""
    return sorted((shot["t0"] + e["t"], sorted(e["balls"]), e["t_err"]) for e in shot["events"]
                  if e["type"] == "collision" and "cue" in e["balls"])


# First contacts the benchmark's new games (seeds 7000-17019 on the tracker's own table) had
# wrong, each a different way: pooltool's games, observed as the benchmark does. Each fixture
# names what happens in its `source`; each failed before its rule.
@pytest.mark.parametrize("name, never", [
    # The cue ball into the 15, which sends the 12 resting 6 mm behind it into the foot-left
    # pocket between two frames: the cue ball's line before the contact, followed on, "reached"
    # the 12's spot; judged by its path since it met the 15, the 15 sent the 12 in.
    ("behind-the-struck-ball-seed7015.json", ["12", "cue"]),
    # The cue ball grazes the 1 (seen 5 mm off while the 5, 10 mm beside it, had not moved),
    # then meets the 5 18 ms later: the onsets are under a frame apart; the 5 was the first.
    ("graze-then-cluster-seed15008.json", None),
    # The cue ball struck past the 1, 30 mm away: its own blurred start passed for the 1
    # handing a blow on to a ball frozen to it.
    ("struck-past-a-ball-seed13017.json", ["1", "cue"]),
    # A graze of the 12 34 ms before the cue ball meets the 9: the 12 seen off its spot with
    # the 9 nowhere near it.
    ("graze-before-a-full-hit-seed14013.json", None),
    # A slow cue ball grazes the 9, resting 5 mm from the foot cushion: 3 mm out to the cushion
    # and back 3 mm beyond its spot, never seen to start; the nudge is its way out.
    ("nudged-into-a-cushion-seed14018.json", None),
    # Struck into the 3 31 mm away, the cue ball met it 6 ms after the strike and stopped on its
    # spot: its onset came out after the 3's, and the contact was before the strike.
    ("stun-after-a-short-strike-seed16011.json", None),
    # The cue ball along the left cushion, blurred 7 mm, stunned into the 2; the 1, frozen
    # beside the 2, moved only 0.6 s later: not met (the two were said met together).
    ("stun-beside-a-frozen-pair-seed10001.json", ["1", "cue"]),
    # The cue ball at 4 m/s thinly cuts the 6, then meets the 10 10 ms later, its one sample
    # between blurred 7.5 mm: the 6's onset, under three frames before the bend at the 10, was
    # dropped as the onsets' guess at the contact the path times.
    ("thin-cut-then-full-seed8019.json", None),
    # The cue ball's line from its rest and one blurred sample passes between the 3 and the 10:
    # it meets the 10 and grazes the 3. The 3 starts at once, the 10 only 58 ms later, when the
    # cue ball comes back off the cushion into it: the 3 was met first (the 10 was said first).
    ("line-between-two-balls-seed11005.json", None),
    # After three cushions the cue ball meets the 13, then the 8 (6 mm from it) 14.5 ms later:
    # the line before its bend meets both at once; their own starts, 10 ms apart and each
    # timed to 2 ms, tell them apart (they were said met together, the 8 first).
    ("two-balls-met-at-once-by-the-line-seed14004.json", None),
])
def test_first_contacts_of_the_new_games(name, never):
    shot, hit, fps, truth = _replay_first_contact(name)
    hits = _cue_hits(shot)
    assert hits[0][0] > shot["t0"], hits  # after the strike
    if never is not None:
        assert never not in [b for _, b, _ in hits], hits


def test_a_ball_sent_in_by_the_struck_ball_is_met_by_it_and_after_it():
    # Seed 7015: the 12, hit in between two frames, was met by the 15, not before the cue ball
    # met the 15.
    rec, fps, truth = _replay("behind-the-struck-ball-seed7015.json")
    shot = next(r for r in rec.records if r["kind"] == "shot")
    (t_true,) = [t for balls, t in truth["collisions"] if balls == ["12", "15"]]
    sent = [shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "collision" and sorted(e["balls"]) == ["12", "15"]]
    assert len(sent) == 1 and abs(sent[0] - t_true) <= 1 / fps, sent
    assert sent[0] >= _cue_hits(shot)[0][0]


def test_a_ball_frozen_to_a_cushion_hit_into_it_is_met_once():
    # Seed 8011 (pooltool): the cue ball met the 3, resting 0.5 mm off the left cushion, which
    # took the blow with it; the physics has one contact. The cue ball came away off the line of
    # centres, which between two balls alone means a second contact (the 3 back off the
    # cushion into it: `_rebound_hit`), so one was added 0.5 ms after the first.
    rec, fps, truth = _replay("hit-into-a-cushion-it-touches-seed8011.json")
    shot = next(r for r in rec.records if r["kind"] == "shot")
    got = sorted((sorted(e["balls"]), shot["t0"] + e["t"]) for e in shot["events"] if e["type"] == "collision")
    want = sorted(truth["collisions"])
    assert [b for b, _ in got] == [b for b, _ in want], got
    assert all(abs(t - t_true) <= 1 / fps for (_, t), (_, t_true) in zip(got, want)), (got, want)


def test_a_ball_frozen_to_two_that_the_cue_ball_runs_into_is_its_second_contact():
    # Seed 15008: after grazing the 1, the cue ball met the 5, frozen to the 11 and 6 mm from the
    # 2 (a cluster's ball, whose contact would be taken for one set off through them), its
    # sample 6 mm into the 5's.
    rec, fps, truth = _replay("graze-then-cluster-seed15008.json")
    shot = next(r for r in rec.records if r["kind"] == "shot")
    (t_true,) = [t for balls, t in truth["collisions"] if balls == ["5", "cue"]]
    assert [abs(t - t_true) <= 1 / fps for t, b, _ in _cue_hits(shot) if b == ["5", "cue"]] == [True], _cue_hits(shot)


def test_a_strike_while_the_last_shots_balls_creep_opens_a_shot_though_it_meets_a_ball_at_once():
    # Seed 10018 (pooltool): the cue ball is struck at 38.5214 s while the last shot's balls
    # still creep (its stop is at 38.593 s: WPA 3.9's balls still moving), and meets the 10,
    # resting 30 mm away, 4 ms later. By the cue ball's first moving frame the 10 was moving
    # beside it and was taken for the ball that set it off, so the strike went into the last
    # shot. Only a ball moving since before the cue ball started can have set it off.
    rec, fps, truth = _replay("struck-while-creeping-seed10018.json")
    shots = [r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps]
    assert len(shots) == 1, ([(r["kind"], r["t0"]) for r in rec.records], rec.skipped)
    assert first_contact(shots[0]) == truth["first_contact"]


def test_a_ball_racked_beside_a_lifted_cue_ball_is_not_taken_for_it():
    # Seed 10016 (pooltool): after a foul the cue ball rests at (1832, 549); it is lifted for ball
    # in hand while the nine balls are racked, the 2 (in the racking frame) 66 mm and the 5 62 mm
    # from its spot. The cue ball's resting track took them, and in the benchmark's game the
    # break's strike was then "balls moved but no strike was seen": the whole shot lost. A ball
    # at rest does not turn into another ball that is seen nowhere else.
    rec, fps, truth = _replay("rerack-beside-cue-seed10016.json")
    for tr in rec.tracker.tracks:
        xy = np.asarray(tr.xy).reshape(-1, 2)
        at_cue_spot = np.hypot(*(xy - (1832.3, 548.6)).T) < 5.0
        at_rack = np.hypot(*(xy - (1855.5, 606.4)).T) < 5.0
        assert not (at_cue_spot.any() and at_rack.any()), tr.label()
    shots = [r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps]
    assert len(shots) == 1, [(r["kind"], r["t0"]) for r in rec.records]
    first = min((e for e in shots[0]["events"] if e["type"] == "collision" and "cue" in e["balls"]), key=lambda e: e["t"])
    assert sorted(first["balls"]) == ["1", "cue"] and abs(shots[0]["t0"] + first["t"] - (truth["t0"] + 0.1087)) <= 1 / fps
    assert math.dist(shots[0]["before"]["cue"], (416.0, 447.6)) < 5.0


def test_a_ball_struck_from_rest_takes_its_sighting_named_as_a_ball_not_on_the_table():
    # Seed 9006 (pooltool): the cue ball strikes the 8 at 4 m/s; the 8's second sighting, 250 mm
    # on, is named the 7 (pocketed long before; here never seen). That is the 8 on its way, not
    # a ball set down by a hand (see above): the 8's start, its contacts and the first contact
    # stand.
    rec, fps, truth = _replay("mislabelled-start-seed9006.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    hits = sorted((e["t"] + shot["t0"], sorted(e["balls"])) for e in shot["events"] if e["type"] == "collision")
    assert hits[0][1] == ["8", "cue"] and abs(hits[0][0] - 66.2503) <= 1 / fps, hits
    assert any(b == ["5", "8"] and abs(t - 66.5879) <= 1 / fps for t, b in hits), hits


def test_a_ball_whose_last_line_reaches_a_jaw_by_more_than_its_noise_touched_it():
    # Seed 10010 (pooltool, on the table as `Table` models it): the 5, off the head-left pocket's
    # head jaw at 0.44 m/s, touches the left jaw 4.6 ms before it drops. Its last line comes 2.6
    # mm into that jaw's face, its sigma there 2.4 mm: under the 3 mm asked while this table's
    # jaws were the simulator's only to a few millimetres.
    rec, fps, truth = _replay("jaw-line-seed10010.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    fives = [(e["rail"], shot["t0"] + e["t"]) for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "5"]
    (_, rail, t), = [c for c in truth["cushions"] if c[0] == "5" and c[2] > 15.8]
    assert any(r == rail and abs(x - t) <= 1 / fps for r, x in fives), fives
    assert [[e["ball"], e["pocket"]] for e in shot["events"] if e["type"] == "pocket" and e["ball"] == "5"] == \
        [p[:2] for p in truth["pocketed"] if p[0] == "5"]


def test_a_ball_dropping_past_a_jaw_within_its_noise_touched_no_cushion():
    # Seed 7017 (pooltool, on its own default jaws then): the cue ball drops into the foot-right
    # pocket touching nothing; its last line, followed on, comes 2.7 mm into the foot jaw's face
    # as this table had it (sharp tips), less than the line's own noise.
    rec, fps, truth = _replay("near-jaw-seed7017.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    assert [[e["ball"], e["pocket"]] for e in shot["events"] if e["type"] == "pocket"] == [p[:2] for p in truth["pocketed"]]
    assert truth["cushions"] == []
    assert [e for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "cue"] == []


def _finds_the_true_cushions(shot: dict, truth: dict) -> None:
    """Every cushion contact of the fixture's truth (other balls' included) found, same ball and
    rail within 50 ms: a rule that drops contacts must not drop real ones."""
    ours = [(e["ball"], e["rail"], shot["t0"] + e["t"]) for e in shot["events"] if e["type"] == "cushion"]
    for ball, rail, t in truth["cushions"]:
        assert any(b == ball and r == rail and abs(x - t) <= 0.05 for b, r, x in ours), (ball, rail, t, ours)


def test_a_slow_ball_that_stops_short_of_a_cushion_did_not_touch_it():
    # Seed 7015 (pooltool): the 9, knocked on by the cue ball and the 15, rolls at 60 mm/s toward
    # the foot cushion and stops 5 mm from it, its centre seen to 0.7 mm. The line in "reached"
    # the rail within its own wide sigmas and bent as the ball stopped: a foot-cushion contact
    # was recorded. The samples around the bend never came within noise of the nose.
    rec, fps, truth = _replay("short-of-rail-seed7015.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    assert truth["cushions_of_9"] == []
    assert [e for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "9"] == []
    _finds_the_true_cushions(shot, truth)


def test_a_ball_flying_off_the_table_over_a_rail_did_not_touch_its_cushion():
    # Seed 8010 (pooltool): the 5, hit by the cue ball, leaves the table over the left rail. Its
    # centre, seen beyond the nose, averaged within a radius of it for a few frames on the way
    # out: a slow touch of the left cushion was recorded beside the ball off the table.
    rec, fps, truth = _replay("over-rail-seed8010.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    assert [e["ball"] for e in shot["events"] if e["type"] == "off_table"] == truth["off_table"] == ["5"]
    assert [e for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "5"] == truth["cushions_of_5"] == []
    _finds_the_true_cushions(shot, truth)


def test_a_ball_that_crept_past_a_side_pockets_centre_and_vanished_dropped_though_a_ghost_follows():
    # Seed 13012 (pooltool): the cue ball creeps into the right side pocket's mouth, past the
    # mouth's centre on the nose line (its last sightings head deeper in, not toward that point),
    # and drops. Half a second later a one-frame false detection 0.9 m away was handed to its
    # track: a second "strike" in the middle of the shot, the scratch lost (WPA 6.3 / 8.6).
    rec, fps, truth = _replay("pocket-creep-seed13012.json")
    shots = [r for r in rec.records if r["kind"] == "shot"]
    assert len(shots) == 1 and abs(shots[0]["t0"] - truth["t0"]) < 2 / fps, [(r["t0"], r["events"][-1]) for r in shots]
    assert [[e["ball"], e["pocket"]] for e in shots[0]["events"] if e["type"] == "pocket"] == truth["pocketed"]
    stop = next(e for e in shots[0]["events"] if e["type"] == "stop")
    assert abs(shots[0]["t0"] + stop["t"] - truth["stop"]) <= 0.5


def test_bench_track_over_several_seed_ranges_sums_them(tmp_path):
    # `cueref bench track --ranges N`: seed ranges --seed, --seed + 1000, ..., one row each, and
    # the counts over all of them are the sums of the ranges' own (each range is the same
    # benchmark as `--seed S` alone: its games are played from their seeds).
    from tracking.bench import run

    out = tmp_path / "r.json"
    res = subprocess.run([sys.executable, "-m", "cueref", "bench", "track", "--ranges", "2", "--clips", "1",
                          "--shots", "2", "--seed", "7000", "--source", "perfect", "--jobs", "2", "--json", str(out),
                          "--misses", str(tmp_path / "m.jsonl")],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    r = json.loads(out.read_text())
    # `--misses`: every event the figures count as missed or extra, one line each, with its seed.
    listed = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text().splitlines()]
    for t in ("collision", "cushion"):
        tot = r["total"][t]
        assert sum(e["what"] == "missed" and e["type"] == t for e in listed) == tot["truth"] - tot["found"]
        assert sum(e["what"] == "extra" and e["type"] == t for e in listed) == tot["extra"]
    assert {e["seed"] for e in listed} <= {7000, 8000}
    assert r["seeds"] == [7000, 8000] and [x["seeds"] for x in r["ranges"]] == [[7000, 7000], [8000, 8000]]
    for key in ("first_contact", "pockets", "rulings_agree_each", "rulings_agree"):
        assert r["total"][key]["total"] == sum(x[key]["total"] for x in r["ranges"]) > 0
        assert r["total"][key]["right"] == sum(x[key]["right"] for x in r["ranges"])
    for t in ("collision", "cushion"):
        assert r["total"][t]["truth"] == sum(x["events"][t]["truth"] for x in r["ranges"]) > 0
    alone = run(clips=1, shots=2, source="perfect", seed=8000)
    assert r["ranges"][1]["events"] == alone["events"] and r["ranges"][1]["rulings_agree"] == alone["rulings_agree"]
    assert "7000-7000" in res.stdout and "8000-8000" in res.stdout and "all 2 ranges" in res.stdout


def test_a_rack_ball_grazed_first_and_seen_moving_late_is_the_first_contact():
    # Seed 10013, straight pool's opening break (pooltool, observed as the benchmark does): the
    # cue ball at 3.4 m/s grazes the 13 and meets the 8 5.7 ms later. The 13 creeps off at
    # ~50 mm/s and is seen moving 0.1 s later; timed from that start, the cue ball's path before
    # it was the one after the contacts, which "passed it by", and the 8 was taken for the first
    # contact. The cue ball's path reached the 13 first: it is timed there.
    shot, hit, fps, truth = _replay_first_contact("graze-break-seed10013.json")
    assert shot["t0"] + hit["t"] < truth["t0"] + truth["then_t"] + 0.5 / fps


def test_a_ball_off_a_short_unsure_line_but_set_moving_first_is_a_graze_not_a_miss():
    # Seed 17016 (nine-ball): the cue ball meets the 9 two frames after the strike, then the 1
    # 34 ms later. The line from the rest and the one sample before the 9 starts passes it 20 mm
    # clear (a sigma of 31 mm sideways), and the 1 lay on it: the 1 was taken for the first
    # contact. The 9 moved first, a frame and more before the 1: within the line's uncertainty
    # it was grazed, and the record says so (timed within a frame, with a t_err that covers it).
    shot, hit, fps, truth = _replay_first_contact("early-graze-seed17016.json")
    assert abs(shot["t0"] + hit["t"] - truth["t0"] - truth["first_contact_t"]) <= hit["t_err"]


@pytest.mark.parametrize("seed", [12005, 12011])
def test_a_hard_break_keeps_its_cue_ball_track_and_the_rack_balls_their_names(seed):
    # Two pooltool breaks at 12-14 m/s (observed as the benchmark does). Seed 12005 (eight-ball):
    # the cue ball's blurred sightings step 200-250 mm a frame, over TELEPORT_MM_S; its track was
    # restarted at rest each frame, lagged, and a false sighting ahead took it: the break was
    # lost (no record at all). Seed 12011 (nine-ball): the cue ball turned back off the 1 and the
    # resting 2, unseen that frame, took its sighting 189 mm away (a sure "cue"), so the 1 then
    # took the cue ball's next one and the break's first contact came out as the 6.
    _replay_first_contact(f"hard-break-seed{seed}.json")


@pytest.mark.parametrize("name, count, least, timed", [("rack-seed9009.json", 29, 27, 0.9),
                                                       ("late-rack-seed9013.json", 29, 27, 0.85),
                                                       ("unblamed-rack-seed10016.json", 16, 15, 0.9)])
def test_a_rack_broken_sets_its_frozen_balls_off_against_each_other(name, count, least, timed):
    # Seed 9009 (pooltool, ten-ball): the cue ball into the apex 1; the physics has 28 contacts
    # between frozen rack balls in that instant, every ball of the rack set off in the same
    # frame. The onsets blame each ball on the nearest one already moving; its frozen neighbours,
    # which started with it, pushed it too (97 % of the frozen pairs of 9000-9019's breaks met).
    # The old code found 22 of the 29.
    # Seed 9013 (straight pool): the same instant, 29 contacts, but balls pushed off slowly are
    # seen to start 1-6 frames late (the 7 and the 2), and the 9, in the middle, does not move
    # at all; the physics has it meeting all six balls around it. Found before: 15 of the 29.
    # Seed 10016 (nine-ball): the rack's balls start in the frame the cue ball meets the 1, and
    # the onsets name no ball that met any of them; the blow came into their cluster by the 1.
    # Found before: 7 of the 16.
    rec, fps, truth = _replay(name)
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    t1 = min(c[2] for c in truth["collisions"])
    want = {frozenset(c[:2]): c[2] for c in truth["collisions"] if c[2] - t1 < 0.03}
    ours = {}
    for e in shot["events"]:
        if e["type"] == "collision" and abs(shot["t0"] + e["t"] - t1) < 0.05:
            ours.setdefault(frozenset(e["balls"]), shot["t0"] + e["t"])
    found = [k for k in want if k in ours]
    assert len(want) == count and len(found) >= least, sorted(map(sorted, set(want) - set(ours)))
    assert sum(abs(ours[k] - want[k]) <= 1 / fps for k in found) >= timed * len(found)
    assert len(set(ours) - set(want)) <= 2, sorted(map(sorted, set(ours) - set(want)))


def test_frozen_balls_pushed_off_slowly_met_when_the_blow_reached_the_rack_not_when_seen_moving():
    # Seed 10018 (pooltool, straight pool): the 5, 7 and 10, frozen together at the back of the
    # rack, are pushed off slowly and seen to start about 7 frames after the hit; the physics
    # has them meeting at the hit, with the rest of the rack. Their contacts were timed at their
    # own onsets, 7 frames late (past the 0.1 s within which the benchmark matches an event):
    # a miss and an extra each. Timed when the blow reached their cluster, each once.
    rec, fps, truth = _replay("slow-rack-back-seed10018.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    want = {frozenset(c[:2]): c[2] for c in truth["collisions"]}
    for pair in (("10", "5"), ("10", "7"), ("5", "7")):
        times = [shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "collision" and set(e["balls"]) == set(pair)]
        assert len(times) == 1 and abs(times[0] - want[frozenset(pair)]) <= 1 / fps, (pair, times, want[frozenset(pair)])


def test_a_ball_driven_between_two_frozen_balls_did_not_make_them_meet():
    # Seed 10013 (pooltool): the 3, set off by the 2, met the 9 and then the 14, frozen together,
    # 14 ms apart: it drove them apart, and the physics has no 9-14 contact, though the two
    # started in the same frame, touching. A ball rolling in met both: a split, not a push
    # passed between them (`_frozen_pairs`).
    rec, fps, truth = _replay("split-frozen-seed10013.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    pairs = [sorted(e["balls"]) for e in shot["events"] if e["type"] == "collision"]
    assert ["3", "9"] in pairs and ["14", "3"] in pairs, pairs
    assert ["14", "9"] not in pairs, pairs


def test_a_ball_that_creeps_to_the_cushion_after_a_short_roll_touched_it():
    # Seed 9001 (pooltool): the 9, set off by the 7, rolls 0.16 s, and the rest test stops it;
    # it creeps on at 20 mm/s and touches the left cushion 0.16 s later. The touch was looked
    # for only where the roll was under way 0.23 s before the ball came within noise of the
    # nose, which a roll that short was not: the contact was missed.
    times, truth = _cushions_of("short-roll-to-rail-seed9001.json", "9", "left")
    _, _, t = truth["cushion"]  # the one contact the physics has (ball, rail, time)
    assert len(times) == 1, times
    assert abs(times[0] - t) <= 0.05, (times, t)


def test_a_ball_that_rebounds_off_a_cushion_into_the_cue_ball_meets_it_twice():
    # Seed 7007 (pooltool): the cue ball hits the 1, which rebounds off the right cushion 21 ms
    # later and meets the cue ball again 56 ms after the first contact, each ball's velocity
    # changing by ~2.1 m/s. Before, the second contact was lost twice over: the four-frame line
    # before it spans the first contact and the cushion, whose scatter hid the blow, and a pair's
    # contacts within three frames of each other were taken for one. The pair parted 80 mm
    # beyond a diameter in between.
    rec, fps, truth = _replay("rebound-seed7007.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    met = sorted(shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "collision" and sorted(e["balls"]) == ["1", "cue"])
    want = [t for a, b, t in truth["collisions"]]
    assert len(met) == 2, met
    assert all(abs(m - w) <= 1 / fps for m, w in zip(met, want)), (met, want)
    # The cushion between them is still found, once.
    cush = [shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "1"]
    assert len([c for c in cush if abs(c - truth["cushion"][2]) <= 2 / fps]) == 1, cush


def test_rack_balls_pushed_a_few_millimetres_are_met_where_they_lay():
    # Seed 10018's straight-pool opening break (pooltool): the rack's 8, 1, 11 and 10 are pushed
    # 6.9, 3.6, 1.3 and 0.8 mm by the blow, too little to start a motion: the tracker's rest
    # position follows them, and the shot's paths took that for where they lay, so the 8 was
    # 5.6 mm from a neighbour it was frozen to and its contacts at the blow were not recognised.
    # Where a ball lay is its rest before the shot. The six pairs below are frozen and met at the
    # blow in the physics; on these 2 s of observations the 8's two and the 1 with the 4 were
    # missed before (on the whole game, where the anchors crept on longer, all six).
    rec, fps, truth = _replay("rack-creep-seed10018.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    met = {tuple(sorted(e["balls"])): shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "collision"}
    for pair in truth["pairs"]:
        assert tuple(sorted(pair)) in met, (pair, sorted(met))
        assert abs(met[tuple(sorted(pair))] - truth["blow"]) <= 0.1, (pair, met[tuple(sorted(pair))])


def test_rack_balls_that_did_not_move_met_each_other_at_the_blow():
    # The same break (seed 10018, pooltool): the 10, 11, 8 and 1 never start a motion (pushed
    # 0.8-6.9 mm), wedged among balls the blow set off; the 12, frozen only to four of them, is
    # pushed 13 mm and seen to start 0.12 s after the blow. The physics has the 10 with the 11,
    # the 8 with the 1, the 11 with the 1 and the 12 with each of the four, all frozen together,
    # meeting at the blow, as it has 54 of the 55 frozen pairs with a ball moved under 20 mm in
    # 40 games' breaks. Before, a pair of two unmoved balls was never recorded, and the 12's
    # contacts were missed or timed at its own late start.
    rec, fps, truth = _replay("rack-creep-seed10018.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    met = {tuple(sorted(e["balls"])): shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "collision"}
    for pair in (("10", "11"), ("1", "8"), ("1", "11"), ("10", "12"), ("11", "12"), ("12", "8"), ("1", "12")):
        assert pair in met, (pair, sorted(met))
        assert abs(met[pair] - truth["blow"]) <= 1 / fps, (pair, met[pair] - truth["blow"])


def test_a_rack_ball_pushed_off_slowly_met_its_frozen_neighbours_at_the_blow():
    # Seed 10003's straight-pool opening break (pooltool): the 9, in the middle of the rack, is
    # pushed 25 mm and is seen to start 0.24 s after the blow, later than a frozen neighbour set
    # off with it can be (`FROZEN_LATE_S`); the balls frozen around it start with the blow. The
    # physics has it meeting all six at the blow; before, the five whose onsets named another
    # ball were missed.
    rec, fps, truth = _replay("late-ball-seed10003.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    met = {tuple(sorted(e["balls"])): shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "collision"}
    for pair in truth["pairs"]:
        key = tuple(sorted(pair))
        assert key in met, (pair, sorted(met))
        assert abs(met[key] - truth["blow"]) <= 0.1, (pair, met[key] - truth["blow"])
    # The five timed at the blow, within a frame of it.
    assert sum(abs(met[tuple(sorted(p))] - truth["blow"]) <= 1 / fps for p in truth["pairs"]) >= 5


def _both_within_a_frame(name: str) -> None:
    """The fixture's two contacts (its truth's "first" and "second": ball, ball, time) each
    found within a frame of the physics' time, and within the uncertainty the record states."""
    rec, fps, truth = _replay(name)
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    met = {tuple(sorted(e["balls"])): (shot["t0"] + e["t"], e["t_err"]) for e in shot["events"]
           if e["type"] == "collision"}
    for a, b, t in (truth["first"], truth["second"]):
        got, err = met[tuple(sorted((a, b)))]
        assert abs(got - t) <= 1 / fps, ((a, b), got - t)
        assert abs(got - t) <= err, ((a, b), got - t, err)


def test_a_slow_start_is_timed_by_the_line_to_its_rest_when_that_is_surer_than_the_arrival():
    # Pooltool, seed 9018 (straight pool), shot 3: the 4 off the 1 (31.230 s) into the resting 5
    # (31.327 s), which leaves at 70 mm/s and is seen moving frames late. The 4's arrival a
    # diameter from the 5 (from its line since the 1, still bending off that contact) said
    # 31.281 s, 46 ms early, and stood; the 4's line just before the 5's onset meets the 5's rest
    # at 31.329 s, surer by its own sigma (4 ms against the arrival's 8), and now stands.
    _both_within_a_frame("arrival-and-line-seed9018.json")


def test_a_ball_met_after_another_contact_is_timed_by_its_line_since_that_contact():
    # Pooltool, seed 7013 (straight pool), shot 6: the cue ball off the 10 (56.237 s) rolls on
    # into the 13 (56.360 s), which sets off slowly, so the cue ball's arrival a diameter from
    # the 13 times the contact (`_arrival`). Its line over the 8-16 frames before spanned the
    # contact with the 10 and met the 13's rest 44 ms early (beyond a frame); the line of its
    # samples since that contact is within a frame, and within the uncertainty it states.
    _both_within_a_frame("line-since-contact-seed7013.json")


@pytest.mark.parametrize("name", ["nudge-seed10003.json", "nudge-stop-seed9015.json",
                                  "nudge-creep-seed16000.json", "nudge-small-seed9015.json"])
def test_a_resting_ball_pushed_a_few_millimetres_was_met_by_the_ball_that_came_to_it(name):
    # Pooltool: a ball at rest pushed a few millimetres, too little or too slowly to be seen to
    # start a motion; the ball that pushed it came within a diameter just before. Seed 10003: the
    # 13, creeping at about 60 mm/s, runs into the 2 and pushes it 6 mm (8 sigmas of a sample).
    # Seed 9015: the 15 rolls slowly into the 12 beside the head cushion, pushes it 3.1 mm and
    # stops against it (it must be moving the frame before it touched, not as it touched). Seed
    # 16000: the 10 creeps into the 5 and pushes it 2.6 mm; the rest test calls the 10 stopped
    # 50 ms before it touched (`NUDGE_STOPPED_S`). Seed 9015, later: the 7, rolling to a stop,
    # pushes the resting 2 1.75 mm (under the 2 mm `NUDGE_MM` was; the end of a ball's rest is
    # the median of 9 samples, ~0.4 mm of noise). The physics has each pair meeting; before,
    # nothing was recorded.
    rec, fps, truth = _replay(name)
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    hits = [shot["t0"] + e["t"] for e in shot["events"]
            if e["type"] == "collision" and sorted(e["balls"]) == sorted(truth["pair"])]
    assert len(hits) == 1, [(e["t"], e.get("balls")) for e in shot["events"] if e["type"] == "collision"]
    assert abs(hits[0] - truth["contact"]) <= 0.1, hits[0] - truth["contact"]
    # Nor is it also said to have been disturbed: a contact moved it.
    assert not any(e["type"] == "disturbed" and e["ball"] in truth["moved_mm"] for e in shot["events"])


@pytest.mark.parametrize("name", ["rebound-seed10000.json", "early-contact-seed7007.json"])
def test_a_pair_meeting_again_within_frames_is_counted_as_often_as_it_met(name):
    # Pooltool, seed 10000: the cue ball at 2.8 m/s hits the 9 toward the right cushion; the 9
    # bounces off it 13 ms later and runs back into the cue ball 35 ms after the first contact,
    # sending the cue ball, nearly stopped, off at 1.2 m/s. The four-frame lines of the pair span
    # the 9's bounce; only the cue ball's path is clean, and it bends away from the 9 along their
    # line of centres. Before, the second contact was not recorded. Seed 7007, the other way: the
    # 1 and the 8 meet once, and a contact found 75 ms early (the pair not yet touching, the 1's
    # path straight there) is that one, re-timed from the 1's bend, not a second.
    rec, fps, truth = _replay(name)
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    hits = sorted(shot["t0"] + e["t"] for e in shot["events"]
                  if e["type"] == "collision" and sorted(e["balls"]) == sorted(truth["pair"]))
    assert len(hits) == len(truth["contacts"]), hits
    for ours, t in zip(hits, truth["contacts"]):
        assert abs(ours - t) <= 1 / fps, (ours, t)


@pytest.mark.parametrize("name", ["second-ball-seed9012.json", "second-ball-seed9013.json"])
def test_a_second_ball_the_cue_ball_meets_within_two_frames_of_its_first_is_a_contact_too(name):
    # Pooltool: seed 9012's cue ball glances off the 3 into the 4 16 ms later; seed 9013's meets
    # the 4, then the 14 and the 2 (frozen together) 10 and 14 ms after. A striker contact within
    # two frames of its first was taken for the onsets' guess of a cluster set off together, and
    # dropped unless its partner was touching the first one: the second contacts were lost.
    rec, fps, truth = _replay(name)
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    hits = sorted((e for e in shot["events"] if e["type"] == "collision" and "cue" in e["balls"]), key=lambda e: e["t"])
    found = []
    for ball, t in truth["contacts"]:
        near = [e for e in hits if ball in e["balls"] and abs(shot["t0"] + e["t"] - t) <= 1 / fps]  # t: from t0
        assert len(near) == 1, (ball, t, [(e["balls"], round(e["t"], 4)) for e in hits])
        found.append(shot["t0"] + near[0]["t"])
    # In order where the physics has them over half a frame apart (9013's 14 and 2: 3 ms).
    for (_, t1), (_, t2), f1, f2 in zip(truth["contacts"], truth["contacts"][1:], found, found[1:]):
        assert t2 - t1 < 0.5 / fps or f1 < f2, (truth["contacts"], found)


def test_a_rack_ball_frozen_between_two_others_is_not_a_second_ball_the_break_cue_ball_met():
    # Pooltool seed 10013, a straight-pool break: the cue ball meets the 9 and nothing else for
    # over a second; the 7, frozen between the 15 and the 11, is set off through them in the same
    # instant. Its onset, 16 ms after the first contact and a diameter from the cue ball, looks
    # like a second ball met on the way; a ball frozen to two others is a rack's, not one.
    rec, fps, truth = _replay("break-seed10013.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    hits = sorted((e for e in shot["events"] if e["type"] == "collision" and "cue" in e["balls"]), key=lambda e: e["t"])
    assert sorted(hits[0]["balls"]) == ["9", "cue"], hits[:3]
    assert abs(shot["t0"] + hits[0]["t"] - truth["first_contact_t"]) <= 1 / fps
    assert not [e for e in hits if "7" in e["balls"]], [(e["balls"], e["t"]) for e in hits]
    # (The record also has the cue ball meeting the 15 16 ms after the 9, as it had before the
    # second-contact rule: the physics has no such contact. Not this test's matter.)


def test_a_ball_set_off_slowly_after_resting_mid_shot_is_timed_from_where_it_rested():
    # Pooltool seed 9004: the 1, at rest since early in the shot, is met by the 7 rolling at 75
    # mm/s (closing at 60) 5.2 s after the strike and set off at 30 mm/s; it is seen moving only
    # 0.3 s later, 5 mm on. The contact is timed by the 7's arrival a diameter from where the 1
    # rested: before, that was taken as where the 1 was when seen moving, 5 mm on, and the
    # contact came out 148 ms late; and the 7's line, fitted where it first came near (0.1 s
    # short of the crossing) put it 40 ms early. The 7's samples by the contact lie ~1.2 mm
    # nearer than the truth (20 ms at its closing speed): within a frame and a half.
    rec, fps, truth = _replay("slow-arrival-seed9004.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    a, b, t = truth["contact"]
    hits = [shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "collision" and sorted(e["balls"]) == [a, b]]
    assert len(hits) == 1, hits
    assert abs(hits[0] - t) <= 1.5 / fps, (hits, t)


def test_a_ball_met_again_off_the_cushion_beside_it_keeps_the_first_contacts_time():
    # Pooltool seed 10008: the 6 meets the 10, resting 10 mm from the left cushion; the 10
    # bounces off it and meets the 6 again 45 ms later. The 10 is seen to start slowly (its line
    # after is the bounce), so its contact was timed by the 6's last arrival a diameter from
    # its rest: the second approach, 16 ms after the first contact (t_err 78 ms). The 6's line
    # meeting the rest spot, within three frames of the onset and surer, times it.
    rec, fps, truth = _replay("again-by-rail-seed10008.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    (a, b, t1), _ = truth["contacts"]
    hits = [shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "collision" and sorted(e["balls"]) == sorted([a, b])]
    assert any(abs(h - t1) <= 1 / fps for h in hits), (hits, t1)
    # (The second contact: the rebound test below.)


@pytest.mark.parametrize("name", ["corner-foot-then-right-seed7000.json", "corner-head-then-left-seed8017.json"])
def test_a_corner_two_cushions_a_frame_or_two_apart_are_two_contacts(name):
    # Pooltool seed 7000: the 4, at 3 m/s, meets the foot cushion and the right one 30 ms later,
    # then the 5 20 ms after that; seed 8017: the 4 meets the head cushion and the left one 28
    # ms later. Between the two contacts lies one sample, so the lines fitted about the sample
    # at the second cushion reach back over the first and placed that one again (one contact
    # per stay kept it once): the second was lost. Its three samples alone show it: the gap to
    # that rail falls to the middle one and rises after it, each step well over the noise.
    shot, fps, truth = _the_one_shot(name)
    got = [(e["rail"], shot["t0"] + e["t"]) for e in shot["events"] if e["type"] == "cushion" and e["ball"] == "4"]
    want = [(rail, t) for ball, rail, t in truth["cushions"] if ball == "4"]
    assert len(want) >= 2
    for rail, t in want:
        assert any(r == rail and abs(t_got - t) <= 1 / fps for r, t_got in got), (rail, t, got)
    assert len(got) == len(want), (got, want)


@pytest.mark.parametrize("name", ["rebound-seed7016.json", "again-by-rail-seed10008.json"])
def test_a_ball_driven_into_the_cushion_it_rested_by_meets_its_hitter_again_on_the_rebound(name):
    # Pooltool seed 7016: the 4, rolling at 350 mm/s, meets the 6 resting 2 mm from the foot
    # cushion; the 6 bounces off it and meets the 4 again 57 ms later, pushing it back at 150
    # mm/s. The 6 is seen moving only 95 ms after the first contact, and the 4's line between
    # the contacts has three samples: its bend, 2.8 sigmas, was not taken (3.5 are asked of a
    # second contact in general). Its line now starts where it was at the first contact, and a
    # rebound off the cushion the other ball rested by is expected: 2 sigmas. Seed 10008: the
    # 6 into the 10, 10 mm from the left cushion, and again 45 ms later (2.4 sigmas).
    rec, fps, truth = _replay(name)
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    (a, b, _), _ = truth["contacts"]
    hits = sorted(shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "collision" and sorted(e["balls"]) == sorted([a, b]))
    assert len(hits) == 2, hits
    for h, (_, _, t) in zip(hits, truth["contacts"]):
        assert abs(h - t) <= 1 / fps, (hits, truth["contacts"])


def test_two_balls_running_on_side_by_side_after_a_contact_met_once():
    # Pooltool seed 8007's break: the 8 and the 4 meet at 4.2845 s and both run on into the foot
    # cushion close together. Their centres came near a diameter apart twice, 57 ms apart, each
    # approach with a blow of its own on the lines (the second the 4's bounce off the cushion):
    # approaches three frames apart were taken as two meetings without asking whether the pair
    # had parted between them; now that is asked of any within six frames (`_parted`).
    rec, fps, truth = _replay("side-by-side-seed8007.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    a, b, t = truth["contact"]
    hits = [shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "collision"
            and sorted(e["balls"]) == sorted([a, b]) and shot["t0"] + e["t"] > 4.0]
    assert len(hits) == 1, hits
    assert abs(hits[0] - t) <= 1 / fps, (hits, t)


@pytest.mark.parametrize("name", ["through-contact-seed10003.json", "through-contact-seed9000.json"])
def test_a_ball_set_off_by_one_that_had_just_met_another_was_hit_by_that_one(name):
    # Pooltool seeds 10003 and 9000: the cue ball meets a ball (the 4; the 8, at 5.5 m/s) and
    # that ball meets the next (the 14; the 2) 38 and 28 ms later. The cue ball's line before
    # its contact, extrapolated over the frames after it, "reached" the next ball's spot as well
    # (the ball it hit had stood between), and the next ball's start was blamed on the cue ball
    # and then dropped as a guess at the cue ball's first contact: the contact was missed. A
    # ball's line is now taken only from its samples after its last contact (`_approach`'s
    # `since`).
    rec, fps, truth = _replay(name)
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    hits = [(sorted(e["balls"]), shot["t0"] + e["t"]) for e in shot["events"] if e["type"] == "collision"]
    for a, b, t in truth["contacts"]:
        assert any(balls == sorted([a, b]) and abs(h - t) <= 1 / fps for balls, h in hits), (a, b, t, hits)
    # And nothing else met the second ball then.
    second = truth["contacts"][1]
    assert not [h for balls, h in hits if second[0] in balls and sorted([second[0], second[1]]) != balls
                and abs(h - second[2]) < 0.1], hits


def test_two_moving_balls_meeting_just_before_one_meets_a_third_is_a_contact():
    # Pooltool seed 7006: the 1, rolling at 2.6 m/s, meets the moving cue ball at 63.0177 s, and
    # the cue ball meets the 7 23 ms later (the frame between, the cue ball is not seen). Both
    # lines before the first contact put the centres a diameter apart then, with a blow of over
    # twenty sigmas on them; but the cue ball's line after spans its second contact too, so the
    # lines after did not trace back to the first, and the contact was dropped. A blow beyond
    # doubt (`CLEAR_BLOW_SIGMAS`) where the lines before meet is a contact.
    hits, truth = _each_contact_once("clear-blow-seed7006.json")


@pytest.mark.parametrize("name", ["departure-seed7003a.json", "departure-seed7003b.json"])
def test_a_ball_set_off_along_the_line_from_the_one_that_had_just_been_hit_was_hit_by_it(name):
    # Pooltool seed 7003, twice: the cue ball meets a ball (the 2 nearly full; the 10 at 5.8
    # m/s) and that ball meets the next (the 3, 31 mm on; the 5) 7 and 5 ms later, within the
    # frame. Before, the 3's start was blamed on the cue ball (its line, extrapolated on through
    # the 2, "reached" the 3) and the 5's on nothing: both contacts were missed. A ball struck
    # from rest leaves along the line of centres, so the striker's centre was a diameter behind
    # it against the way it left; the 2's and the 10's paths pass there, the cue ball's not
    # (`_by_departure`).
    hits, truth = _each_contact_once(name)
    # And the cue ball did not meet the second ball then.
    x, _, t2 = truth["contacts"][1]
    assert not [h for balls, h in hits if balls == sorted([x, "cue"]) and abs(h - t2) < 0.1], hits


def test_a_ball_that_passed_the_blow_on_was_set_off_by_another_not_by_the_ball_it_pushed():
    # Pooltool seed 8013: the 12, at 3 m/s, meets the 1, which rests 2 mm from the 2 and passes
    # the blow on to it 0.8 ms later; the 1 hardly moves, so the 2 is seen to start first, and
    # its start was rightly laid to the 1. The 1's own start was then laid to the 2 too (moving
    # by then, a diameter off): 12-1 was missed. One meeting of a pair is one blow, one way:
    # a ball already met as the one p set off at this onset is not what set p off.
    hits, truth = _each_contact_once("passed-on-seed8013.json")


def test_a_ball_into_a_pockets_jaw_touches_it_where_the_jaw_is_not_at_the_nose_line():
    # Pooltool seed 7014: the 1 runs at 1.2 m/s into the head cushion's jaw at a corner pocket's
    # mouth and touches it with its centre 19 mm past the head nose line. The contact was timed
    # where its line in came a radius from the nose line, 21 ms (1.3 frames) early; the nose is
    # open there, and the line in is now followed on to the jaw (`_at_jaw`).
    times, truth = _cushions_of("jaw-touch-seed7014.json", "1", "head")
    _, _, t = truth["cushion"]
    assert len(times) == 1, times
    assert abs(times[0] - t) <= 1 / 60, (times, t)


def _pair_met_twice(name: str, a: str, b: str):
    """A replayed fixture's shot (`truth["t0"]`), checked: the pair a-b met exactly as often as
    the truth's contacts (`[a, b, t]`, in time order; two, unless it lists more), each within a
    frame of the truth's."""
    rec, fps, truth = _replay(name)
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    hits = sorted(shot["t0"] + e["t"] for e in shot["events"] if e["type"] == "collision"
                  and sorted(e["balls"]) == sorted([a, b]))
    assert len(hits) == len(truth["contacts"]), hits
    for h, (_, _, t) in zip(hits, truth["contacts"]):
        assert abs(h - t) <= 1 / fps, (hits, truth["contacts"])


def test_a_ball_struck_into_the_cushion_it_rested_by_and_back_within_a_frame_met_the_striker_twice():
    # Pooltool seed 7014: the cue ball, at 3.8 m/s, meets the 1 resting 20 mm off the head
    # cushion; the 1 meets the cushion 6 ms later and comes back into the cue ball 13 ms after
    # the first contact, and the cue ball leaves at 2.5 m/s the way it came. No path bends twice
    # in under a frame; but one contact between equal balls leaves the striker moving, if at all,
    # on towards the other ball along their line of centres, never back (`_rebound_hit`).
    _pair_met_twice("rebound-within-a-frame-seed7014.json", "1", "cue")


def test_a_ball_driven_into_a_cushion_as_it_rolled_and_back_into_its_striker_met_it_twice():
    # Pooltool seed 7015: the cue ball, at 0.4 m/s, meets the 12 (rolling at 0.4 m/s) 20 mm off
    # the left cushion; the 12 meets the cushion 35 ms later and comes back into the cue ball 81
    # ms after the first contact. The cue ball's bend at the second (along their line of centres,
    # 0.3 m/s against 0.1 m/s of noise) is short of the 3.5 sigmas asked of a bend with no cause;
    # a ball driven back off a cushion along that line is one (`_hit_again`'s rebound), as for a
    # ball that rested by the cushion.
    _pair_met_twice("rebound-moving-seed7015.json", "12", "cue")


def test_a_ball_set_off_into_a_cushion_and_back_into_its_slow_striker_met_it_twice():
    # Pooltool seed 8016, shot 6: the 1, at 0.2 m/s, meets the resting 5 (70.722 s); the 5
    # meets the right cushion 41 ms later and comes back into the 1 at 70.827 s, turning it 88
    # degrees. At these speeds the 1's bend along their line of centres (149 mm/s) is under two
    # sigmas of its noise (78 mm/s, most of it the 40 mm/s floor for lines that curve): now
    # 1.75 are asked of a rebound off the cushion its partner was driven into.
    _pair_met_twice("again-off-rail-seed8016.json", "1", "5")


def test_two_slow_balls_whose_lines_would_overlap_met_though_their_blow_is_faint():
    # Pooltool seed 10014, shot 6: the 8 and the 11 roll on together at 0.1-0.2 m/s and meet
    # three times in 0.27 s. At the third (61.5175 s) the blow along their line of centres is
    # 2.0 sigmas of its noise, under the 3 asked of it, so it was missed; but their lines before
    # would have taken the centres 2.4 sigmas inside a diameter of each other, which balls cannot
    # do. Two independent figures of 2.0 and 2.4 sigmas are as unlikely from noise as one of
    # 3.1: the contact stands (`_overlapped`).
    _pair_met_twice("kiss-thrice-seed10014.json", "8", "11")


def test_a_ball_the_striker_met_just_after_its_first_well_clear_of_that_one_is_a_second_contact():
    # Pooltool seed 8016: the cue ball, at 3.2 m/s, passes between the 5 and the 1, resting 54 mm
    # apart, and meets the 5, then the 1 3 ms later. The striker's contacts within half a frame
    # of its first are taken for the onsets' guesses (a cluster's balls start together), and the
    # 1 was dropped; the 5 could not have set off a ball resting 54 mm beyond touching it, so the
    # cue ball did. The first contact stays the 5 (its line reached the 5 first), and the record
    # says the 1 came after it (`follows`): 3 ms apart, the times alone cannot order them.
    hits, truth = _each_contact_once("split-apart-seed8016.json")
    rec, fps, _ = _replay("split-apart-seed8016.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    assert first_contact(shot) == truth["first_contact"]
    second = next(e for e in shot["events"] if e["type"] == "collision" and sorted(e["balls"]) == ["1", "cue"])
    assert sorted(second["follows"]) == ["5", "cue"]


def test_a_ball_sent_into_a_cushion_is_timed_off_its_rest_by_its_line_before_the_bounce():
    # Pooltool seed 8012: the 1, just hit by the cue ball, sends the 6 (resting 37 mm from it)
    # into the head cushion at 3.1 m/s; the 6 meets the cushion 61 ms later and the 1 again 92 ms
    # later. Its line from the rest took samples across the bounce, ran slower, and timed its
    # start 12 ms early, before the 1 had moved: the 1-6 blow was laid to the cue ball and lost.
    # The line from the rest ends where the ball first reaches a cushion (`_at_a_cushion`).
    rec, fps, truth = _replay("cushion-bounce-start-seed8012.json")
    shot = next(r for r in rec.records if r["kind"] == "shot" and abs(r["t0"] - truth["t0"]) < 2 / fps)
    hits = [(sorted(e["balls"]), shot["t0"] + e["t"]) for e in shot["events"] if e["type"] == "collision"]
    assert len(hits) == len(truth["contacts"]), hits
    for a, b, t in truth["contacts"]:
        near = sorted((abs(h - t), h) for balls, h in hits if balls == sorted([a, b]))
        assert near and near[0][0] <= 1 / fps, (a, b, t, hits)


def _slow_bounce(rng, lo: float, hi: float, sigma: float = 1.0):
    """A ball rolling into the left cushion at `lo`-`hi` mm/s (across it; along it up to 300 mm/s
    either way), off it at 0.5-0.8 of that, slowing at 150 mm/s², seen at 60 fps with `sigma` mm
    of noise: (its path, the contact time)."""
    vn, vt, e = rng.uniform(lo, hi), rng.uniform(-300, 300), rng.uniform(0.5, 0.8)
    t_c = 0.5 + rng.uniform(0, 1 / FPS)
    t = np.arange(0, 1.0, 1 / FPS)
    tau = t - t_c
    s_in, s_out, dec = math.hypot(vn, vt), math.hypot(e * vn, vt), 150.0
    y = np.where(tau < 0, T.R - vn * tau - 0.5 * dec * vn / s_in * tau ** 2,
                 T.R + e * vn * tau - 0.5 * dec * e * vn / s_out * tau ** 2)
    x = 700.0 + vt * tau - 0.5 * dec * vt * np.abs(tau) * tau / np.where(tau < 0, s_in, s_out)
    keep = y < T.R + 150
    xy = np.stack([x, y], 1)[keep] + rng.normal(0, sigma, (int(keep.sum()), 2))
    return BallPath("3", t[keep], t[keep], xy, np.full(int(keep.sum()), sigma), None, [(0, None)]), t_c


@pytest.mark.parametrize("lo,hi,within,median", [(20, 100, 150, 0.010), (10, 50, 90, 0.025)])
def test_a_slow_bounce_off_a_cushion_is_timed_by_its_distance_from_the_rail_either_side(lo, hi, within, median):
    # At tens of mm/s into the cushion a frame's travel is about the noise (1 mm). Timed by the
    # lines in and out, four samples each (20-100 mm/s), or by the line in and where the ball's
    # averaged distance settles (the touch of a ball under 60 mm/s, `_rail_touches`), 200 such
    # bounces came out 12 ms from the contact at the median (124 within a frame) and 42 ms (49).
    # The ball touches the cushion a radius from its nose, so its distance from the rail is a V
    # with its point at zero: fitted over six frames either side, 7 ms (159) and 16 ms (101).
    from tracking.cushions import contacts

    errs = []
    for seed in range(200):
        p, t_c = _slow_bounce(np.random.default_rng(seed), lo, hi)
        found = [c["t"] for c in contacts(p, T, FPS) if c["rail"] == "left"]
        errs.append(min((abs(t - t_c) for t in found), default=math.inf))
    errs = np.array(errs)
    assert np.isfinite(errs).sum() >= (190 if lo >= 20 else 150)
    assert (errs <= 1 / FPS).sum() >= within, (errs <= 1 / FPS).sum()
    assert np.median(errs) < median, np.median(errs)


@pytest.mark.parametrize("name,ball,rail,t", [("pushed-off-cushion-seed9010.json", "12", "head", 35.4736),
                                              ("rebound-within-a-frame-seed7014.json", "1", "head", 37.0545)])
def test_a_ball_resting_near_a_cushion_hit_into_it_and_seen_first_coming_back_met_it(name, ball, rail, t):
    # Pooltool seeds 9010 and 7014: a ball resting 19-20 mm off the head cushion, hit toward it
    # at 3.6-3.8 m/s, meets the cushion 5-6 ms after the blow and is first seen coming away from
    # it. Only balls resting within 10 mm were looked at; no ball fits between a ball and a
    # cushion 30 mm away, so only the cushion turned it back.
    times, truth = _cushions_of(name, ball, rail)
    near = [x for x in times if abs(x - t) < 0.1]
    assert len(near) == 1 and abs(near[0] - t) <= 1 / 60, (times, t)


def test_the_first_contact_keeps_the_lines_time_when_the_ball_hit_goes_straight_into_a_cushion():
    # Pooltool seed 10017: the cue ball meets the 2, resting 38 mm off the left cushion, which
    # meets the cushion 13 ms later, before its second sample. The 2's start, from a line across
    # the bounce, was timed 34 ms late, two frames and a millisecond after the cue ball's line
    # met it: just outside the two frames in which the onsets' guesses give way to the line, and
    # inside the three in which one pair's contacts are one meeting; it stood in for the line's.
    _replay_first_contact("into-cushion-first-contact-seed10017.json")


@pytest.mark.parametrize("name", ["roll-out-past-a-line-seed7000.json", "creep-off-a-cushion-seed7001.json"])
def test_a_shot_stops_where_its_last_roll_ends_after_a_line_or_a_cushion_late_in_it(name):
    # WPA 2.19 / 3.9 (the next shot's balls-moving foul is judged against this stop and its
    # t_err). Rendered 1080p60 frames through the real detector (tests/data/NAME). Seed 7000's
    # 6 crosses the head string 80 ms before its rest test: the crossing was taken for a
    # contact, after which too little roll was left to fit, and the stop fell back to the rest
    # test, 0.39 s before the physics' with a t_err of two frames. Seed 7001's 5 comes off the
    # head cushion at ~50 mm/s 0.17 s before its rest test and creeps 0.4 s more: 0.42 s early,
    # the same two frames. Truth: the physics' end of the shot.
    rec, fps, truth = _replay(name)
    shot = min(rec.records, key=lambda r: abs(r["t0"] - truth["t0"]))
    assert abs(shot["t0"] - truth["t0"]) < 1.0 / fps
    stop = next(e for e in shot["events"] if e["type"] == "stop")
    assert abs(shot["t0"] + stop["t"] - truth["stop"]) <= stop["t_err"], (shot["t0"] + stop["t"], stop)
    assert stop["t_err"] <= 0.3  # still a measurement: not widened to cover anything


def test_the_benchmark_counts_a_stop_after_a_spin_in_place_apart():
    # WPA 2.19: a shot ends when every ball has stopped moving and spinning. A stun shot with
    # side (pooltool): the 1 is pocketed, the cue ball stops dead and spins in place ~5 s; the
    # same shot without side stops when the roll does. The benchmark's `_stops` counts a record
    # whose stop misses the physics' by more than its t_err, and those of them after such a spin.
    from types import SimpleNamespace

    from synth.physics import Strike, simulate
    from tracking.bench import SPIN_S, _spin_tail, _stops

    L, W = T.length_mm, T.width_mm
    at = {"cue": (L - 450.0, W - 450.0), "1": (L - 300.0, W - 300.0)}
    tails = {}
    for side in (0.0, 0.6):
        sim = simulate(T, at, Strike(1.5, 45.0, side=side, vertical=-0.2))
        assert any(e["type"] == "pocket" and e["ball"] == "1" for e in sim.events)
        tl = SimpleNamespace(segments=[SimpleNamespace(t0=2.0, sim=sim)],
                             entries=[{"kind": "shot", "t0": 2.0, "events": sim.events}])
        tails[side] = _spin_tail(tl, 2.0)
        if side:
            stop = sim.duration
            ours = [{"kind": "shot", "t0": 2.0, "events": [{"t": stop - tails[side] + 0.01, "type": "stop", "t_err": 0.15}]},
                    {"kind": "shot", "t0": 20.0, "events": [{"t": 1.0, "type": "stop", "t_err": 0.15}]}]
            tl.entries.append({"kind": "shot", "t0": 20.0, "events": [{"t": 1.1, "type": "stop"}]})
            tl.segments.append(SimpleNamespace(t0=20.0, sim=SimpleNamespace(duration=1.1, tracks={})))
            assert _stops(tl, ours) == {"found": 2, "within_t_err": 1, "outside_spin": 1}
    assert tails[0.0] < 0.05 and tails[0.6] > 4.0 > SPIN_S, tails


def test_a_ball_that_left_its_rest_unseen_is_timed_back_along_its_line_not_called_disturbed():
    # Rendered 1080p60 frames through the real detector (tests/data/unseen-start-seed7000.json):
    # the cue ball hits the 3 at 53.96 s (the physics); the 3 leaves at 4.1 m/s and its streak
    # is not found for six frames. Its onset was timed at its first sighting, 0.1 s after the
    # contact, which then explained nothing: the 3 was called disturbed (WPA 3.6, a foul). Its
    # line traced back passes its rest spot at the contact.
    rec, fps, truth = _replay("unseen-start-seed7000.json")
    shot = min(rec.records, key=lambda r: abs(r["t0"] - truth["t0"]))
    assert not [e for e in shot["events"] if e["type"] == "disturbed"], shot["events"]
    hit = next(e for e in shot["events"] if e["type"] == "collision" and sorted(e["balls"]) == ["3", "cue"])
    assert abs(shot["t0"] + hit["t"] - truth["contact"]) <= max(hit["t_err"], 1.0 / fps)


def test_a_lag_is_a_lag_though_a_false_ball_was_seen_at_the_head_rail_before_it():
    # Rendered 1080p60 frames through the real detector (tests/data/lag-past-a-false-ball-
    # seed11002.json): a "5" is seen at the head rail from the first frame (a hand or the cue),
    # "moves" and is gone a second before the two lag balls are struck. It counted as a third
    # ball on the bed, so the lag (WPA 1.2: two balls behind the head string, both struck) was
    # taken for a shot, and the game's every ruling after it was lost.
    rec, fps, truth = _replay("lag-past-a-false-ball-seed11002.json")
    first = rec.records[0]
    assert first["kind"] == truth["kind"] == "lag" and abs(first["t0"] - truth["t0"]) < 0.05, first["kind"]
