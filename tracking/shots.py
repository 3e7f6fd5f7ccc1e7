"""Shot segmentation: tracks → lag and shot records (the contract in ../shared/spec/SHOT-RECORD.md).

A shot runs from balls at rest, through a strike, to everything stopped (WPA 2.19). The
reconstructor watches the tracks frame by frame: an episode of motion opens when a ball leaves its
rest position and closes once every ball has been still for `QUIET_S` (a ball that vanished while
moving closes when its track ends). What the episode was is decided when it closes:

- the lag (WPA 1.2): the table holds two balls behind the head string and both are struck;
- ball in hand placed by a hand (not a shot): one ball moved, the cue ball, and it either appeared
  from nowhere or stopped dead (a rolling ball slows down; a hand puts it down);
- a ball nudged at rest between shots (not a shot): one ball moved and it is not the cue ball;
- a shot: the cue ball started with nothing touching it (the strike).
A shot record gets the events of tracking/events.py, the positions at the strike and at rest, and
its frames as evidence.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from cueref.observation import Observation
from cueref.table import Table
from tracking.events import extract
from tracking.kalman import ROLLING_DECEL
from tracking.paths import Path, fit_line
from tracking.tracker import NAMED_SHARE, NAMES, POCKET_MOUTH_MM, REST_S, Track, Tracker

BORN_SLACK_S = 0.1  # a track born this soon after an episode starts belongs to it
QUIET_S = 0.25  # everything still this long (after each ball's own 0.2 s rest test) ends a shot
JAWS_UNSEEN_S = 0.3  # a ball at rest in the jaws unseen this long before the shot ended, and after, fell in
ABRUPT_STOP_MM_S = 200.0
# Events after which a ball's motion is new (its roll-out is fitted from there): what touches it,
# sets it off or lands it (an airborne ball rolls from its `until`). Not a line crossed.
CONTACTS = ("strike", "collision", "cushion", "airborne", "disturbed")
ROLL_DECEL_RANGE = (40.0, 400.0)  # mm/s²: a ball rolling on cloth (μ_roll 0.004–0.04); more is sliding or checked
# 95 %: what a constant deceleration misses at the end of a roll, and the spin in place after it
# that centres cannot show (generated shots, seeds 7000-7005 and 8000-8005: the roll-out's stop
# within a frame of the physics' in 79 of 103 shots. In 19 of 346 shots of 7000-7019 and
# 8000-8019 a ball spins in place 0.15 s or more after the last one stopped rolling, 15 of them
# the cue ball, whose dots a camera overhead sees turn only near the ball's rim.)
ROLL_MODEL_ERR_S = 0.15
# A cue ball struck again while it still rolls (`_leap`): from under this speed (mm/s) to over that.
LEAP_FROM, LEAP_TO = 300.0, 800.0
MODEL_ERR_FRAMES = 0.2  # timing error of the line model, added to each event's t_err  # a ball still moving this fast one frame before rest was put down by hand


@dataclass
class Episode:
    start_t: float
    start_frame: int
    tracks_at_start: list[Track]
    shots_before: int  # shot records before this episode (lags not counted: a lag may be replayed)


class ShotReconstructor:
    """Feed `push(frame, t, observations)`; it returns the records completed at that frame."""

    def __init__(self, table: Table, fps: float = 60.0, video: str | None = None,
                 centroid_lag_frames: float = 0.4, prior_shots: int = 0):
        """`prior_shots`: shots recorded before the first frame given (a resumed review): a lag
        is only looked for before the first shot."""
        self.table, self.fps, self.video = table, fps, video
        self.prior_shots = prior_shots
        self.tracker = Tracker(table, fps, centroid_lag_frames)
        self.episode: Episode | None = None
        self.quiet_since: float | None = None
        self.records: list[dict] = []
        self.skipped: list[dict] = []  # episodes that were not shots, with why

    # --- stream -------------------------------------------------------------------------------
    def push(self, frame: int, t: float, observations: list[Observation]) -> list[dict]:
        self.tracker.update(frame, t, observations)
        active = [tr for tr in self.tracker.tracks if tr.confirmed and tr.alive and tr.moving]
        if self.episode is not None:
            # A ball that appears during a shot (the cue ball brought back for ball in hand) is
            # not part of it; it opens its own episode once this one closes.
            active = [tr for tr in active if self._belongs(tr, self.episode)]
        if self.episode is not None:
            split = self._new_strike(self.episode, t)
            if split is not None:
                # Struck again before everything had stopped (WPA 3.9): the shot so far ends
                # here and a new one begins with this strike.
                ep = self.episode
                self.quiet_since = None
                rec = self._close(ep, split - 1e-3)
                if rec is not None:
                    self.records.append(rec)
                self.episode = Episode(split, frame, [tr for tr in self.tracker.tracks if tr.confirmed and tr.alive],
                                       self._shots())
                return [rec] if rec is not None else []
        if active:
            if self.episode is None:
                start = min(tr.traw[tr.motions[-1][0]] for tr in active)
                at_start = [tr for tr in self.tracker.tracks if tr.confirmed and tr.alive]
                self.episode = Episode(start, frame, at_start, self._shots())
            self.quiet_since = None
            return []
        if self.episode is None:
            return []
        if self.quiet_since is None:
            self.quiet_since = t
        if t - self.quiet_since < QUIET_S:
            return []
        ep, self.episode, self.quiet_since = self.episode, None, None
        rec = self._close(ep, t)
        if rec is None:
            return []
        if self.records and abs(rec["t0"] - self.records[-1]["t0"]) < 3.0 / self.fps:
            # The same strike again: an episode closed while a ball it moved was out of sight
            # and the motion went on. The record already given stands.
            self.skipped.append({"t": ep.start_t, "why": f"the strike at {rec['t0']:.2f} s was already recorded"})
            return []
        self.records.append(rec)
        return [rec]

    def _belongs(self, tr: Track, ep: Episode) -> bool:
        """Whether a track is one of the episode's balls: born before it or just after it began,
        or born inside a cluster of balls that rested there when it began, touching two or more
        of them (a racked ball the detector had not picked out until the break moved the rack:
        seed 11003's 9, in the middle of a straight-pool rack). Not a ball that appears anywhere
        else during a shot (the cue ball brought back for ball in hand)."""
        return tr.born_t <= ep.start_t + BORN_SLACK_S or self._born_in_cluster(tr, ep)

    def _born_in_cluster(self, tr: Track, ep: Episode) -> bool:
        """First seen touching two or more balls that rested there when the episode began."""
        reach = 1.2 * self.table.ball_diameter_mm
        first = np.asarray(tr.xy[0], float)
        return sum(1 for o in ep.tracks_at_start if o is not tr
                   and float(np.hypot(*(o.anchor_before(ep.start_t) - first))) < reach) >= 2

    def _shots(self) -> int:
        return self.prior_shots + sum(1 for r in self.records if r["kind"] == "shot")

    def _new_strike(self, ep: Episode, t: float) -> float | None:
        """The cue ball, at rest for a while inside this episode, has just started again with no
        moving ball near it, or, still rolling slowly, has just leapt to speed with no ball near
        it (struck again while it rolled: WPA 3.9): the media time of that start, else None."""
        for tr in self.tracker.tracks:
            if not (tr.confirmed and tr.alive and tr.moving):
                continue
            name, share = tr.label()
            if name != "cue" or share < NAMED_SHARE:
                continue
            leap = self._leap(tr, ep, t)
            if leap is not None:
                return leap
            if len(tr.motions) < 2:
                continue
            a, prev = tr.motions[-1][0], tr.motions[-2]
            start = tr.traw[a]
            if prev[1] is None or tr.traw[prev[0]] < ep.start_t - 0.01 or start < t - 2.5 / self.fps:
                continue
            # A strike, not the last millimetres of the roll: it leaves at speed.
            speed = float(np.hypot(*(np.asarray(tr.xy[-1]) - tr.rests[-1]))) / max(tr.traw[-1] - start + 1.0 / self.fps, 1e-3)
            if speed < 150.0:
                continue
            rest = tr.rests[-1]
            # (Moving since before it started: a ball it set off at once is not what hit it;
            # seed 10018's cue ball, struck as the last shot's balls still crept, met the 10 30 mm
            # away 4 ms after the strike.)
            if not self._near(tr, rest, 40.0, moving=True, since=start - 0.5 / self.fps):
                return start - 0.5 / self.fps
        return None

    def _leap(self, tr: Track, ep: Episode, t: float) -> float | None:
        """A rolling cue ball's speed leaping, in the last frames, from a slow roll (under
        `LEAP_FROM`) to `LEAP_TO` or more and three times what it was, with no other ball near
        to have hit it (a kiss, a cushion and friction do not speed a ball up): the media time
        of the leap, else None. Not in the shot's first second (its own strike, the first
        contacts)."""
        n = len(tr.traw)
        if t - ep.start_t < 1.0 or n < 12 or tr.traw[-1] < t - 1e-9 or tr.traw[tr.motions[-1][0]] > tr.traw[-12]:
            return None  # (a roll that began in the last frames is the other test's: a restart)
        traw, xy = np.asarray(tr.traw[-12:]), np.asarray(tr.xy[-12:])
        now = float(np.hypot(*(xy[-1] - xy[-3]))) / max(traw[-1] - traw[-3], 1e-6)
        # Along its path, not from end to end: a ball back from a cushion may end where it was.
        was = float(np.hypot(*np.diff(xy[-12:-3], axis=0).T).sum()) / max(traw[-4] - traw[-12], 1e-6)
        if not (was < LEAP_FROM and now >= LEAP_TO and now >= 3.0 * was):
            return None
        here = xy[-4]
        if self._near(tr, here, 60.0, moving=False):
            return None
        # The roll ends where the leap begins and a new motion starts there, from where the ball
        # was struck: the shot so far and the next are told apart by it, as after a rest.
        tr.restart(n - 3)
        return float(traw[-3]) - 0.5 / self.fps

    def _near(self, tr: Track, at, slack_mm: float, moving: bool, since: float | None = None) -> bool:
        """Another ball (moving, if `moving`; and since before `since`, if given) within a
        diameter and `slack_mm` of `at`: one that could have set `tr` going."""
        reach = self.table.ball_diameter_mm + slack_mm
        return any(o is not tr and o.confirmed and o.alive and (o.moving or not moving)
                   and (since is None or (o.motions and o.traw[o.motions[-1][0]] < since))
                   and float(np.hypot(*(o.position() - at))) < reach for o in self.tracker.tracks)

    def finish(self, t: float) -> list[dict]:
        """End of the video: close an open episode as it stands."""
        if self.episode is None:
            return []
        ep, self.episode = self.episode, None
        rec = self._close(ep, t)
        if rec is not None:
            rec.setdefault("notes", []).append("the video ended before every ball had stopped")
            self.records.append(rec)
            return [rec]
        return []

    # --- one episode ----------------------------------------------------------------------------
    def _close(self, ep: Episode, t_end: float) -> dict | None:
        w0 = ep.start_t - 0.5
        # The balls of this shot: live tracks, tracks that ended in it, and balls at rest that
        # have been out of sight a while (a player over them) unless found pocketed.
        tracks = [tr for tr in self.tracker.tracks if tr.confirmed and tr.hits >= 0 and not tr.gone and
                  (tr.alive or tr.lifted or (tr.ended_t is not None and tr.ended_t >= w0)) and
                  self._belongs(tr, ep)]
        moved = [tr for tr in tracks if any(tr.traw[m[0]] >= w0 for m in tr.motions) or
                 (tr.born_t >= ep.start_t - 0.05 and len(tr.motions))]
        if not moved:
            return None
        # Balls established before the episode (a track born a moment before the strike is the
        # cue or a hand seen as a ball, not a ball on the table).
        on_bed_before = [tr for tr in ep.tracks_at_start if tr.born_t < ep.start_t - 0.5
                         and tr.last_t >= ep.start_t - 0.5]  # and in sight (not a ball taken away)
        if len(on_bed_before) > 2:
            # (Not a pair's old track that followed the hand away: `_lag_balls` swaps it.)
            on_bed_before = [tr for tr in on_bed_before if not self._vanished_on_bed(tr, t_end)]
        lag = (ep.shots_before == 0 and len(on_bed_before) == 2 and
               all(tr.anchor_before(ep.start_t)[0] < self.table.head_string_x + 60.0 for tr in on_bed_before)
               and all(tr in moved for tr in on_bed_before))
        if lag:
            on_bed_before = self._lag_balls(on_bed_before, moved, w0, t_end)
        if lag:
            names = {id(tr): ("left" if tr.anchor_before(ep.start_t)[1] < self.table.W / 2 else "right")
                     for tr in on_bed_before}
            if len(set(names.values())) != 2:
                lag = False
        if lag:
            # Both struck, not set down by hand (a re-lag's balls are placed again). Balls set
            # down and struck without a pause between make one episode: the stroke is the first
            # motion that is not a placing.
            strokes = []
            for tr in on_bed_before:
                ks = [k for k, (a, _) in enumerate(tr.motions) if tr.traw[a] >= w0]
                # (A ball carried by hand is seen to jump or to stop dead; a lag stroke does neither.)
                k = next((k for k in ks if not tr.jumped[k] and not self._abrupt_stop(tr, k, tracks)), None)
                if k is None:
                    self.skipped.append({"t": ep.start_t, "why": "the lag balls were placed by hand: not a lag"})
                    return None
                strokes.append(tr.traw[tr.motions[k][0]])
            w0 = max(w0, min(strokes) - 0.1)
        if not lag:
            names = self._assign_names(tracks, t_end)
        if not lag:
            why = self._not_a_shot(moved, names, ep, w0, tracks)
            if why:
                self.skipped.append({"t": ep.start_t, "why": why})
                return None
        paths = [self._path(tr, names[id(tr)], w0, t_end, ep.start_t) for tr in tracks if id(tr) in names]
        strikers = ("left", "right") if lag else ("cue",)
        t0, events = extract(paths, self.table, self.fps, strikers)
        if t0 is None:
            self.skipped.append({"t": ep.start_t, "why": "balls moved but no strike was seen"})
            return None
        stop, stop_err = t0, 2.0 / self.fps
        touched = {}  # ball → its last contact (after which it only rolls)
        for e in events:
            if e["type"] not in CONTACTS:
                continue  # (crossing a line changes nothing: seed 7000's 6 crossed 80 ms before its rest)
            for b_ in e.get("balls") or ([e["ball"]] if "ball" in e else []):
                touched[b_] = max(touched.get(b_, t0), e.get("until", e["t"]))
        for tr in moved:
            last = [m for m in tr.motions if tr.traw[m[0]] <= t_end]
            if not last:
                continue
            a, b = last[-1]
            if tr.ended_t is not None and tr.ended_t <= t_end + 1e-6:
                stop = max(stop, tr.traw[-1] + 0.5 / self.fps)
            elif b is not None and tr.traw[b] <= t_end:
                since = touched.get(names.get(id(tr)), t0)
                roll = self._roll_out(tr, a, b, since, t_end) or self._roll_out_before_rest(tr, a, b, since)
                if roll is not None and roll[0] > stop:
                    stop, stop_err = roll
                elif tr.traw[b] > stop:
                    stop, stop_err = tr.traw[b], 2.0 / self.fps
            else:
                # Still rolling when the next strike came: it stops about when rolling friction
                # has taken its speed.
                i = int(np.searchsorted(tr.traw, t_end))
                j = max(i - 4, a)
                v = float(np.hypot(*(np.asarray(tr.xy[i - 1]) - np.asarray(tr.xy[j])))) / max(tr.traw[i - 1] - tr.traw[j], 1e-3) \
                    if i - 1 > j else 0.0
                if t_end + v / ROLLING_DECEL > stop:
                    stop, stop_err = t_end + v / ROLLING_DECEL, 2.0 / self.fps
        gone = {e["ball"] for e in events if e["type"] in ("pocket", "off_table")}
        notes = []

        def fell(tr: Track, name: str, pk: str, unseen_s: float) -> None:
            """Pocketed half a frame after its last sighting (`unseen_s`: how long it may have
            been unseen before it dropped)."""
            events.append({"t": tr.last_t + 0.5 / self.fps, "type": "pocket", "ball": name, "pocket": pk,
                           "t_err": max(unseen_s, 0.5 / self.fps) + 0.1})
            gone.add(name)

        for tr in tracks:
            name = names.get(id(tr))
            if name is None or name in gone or tr.ended_t is None or tr.lifted or tr.ended_t > t_end:
                continue
            # Its track was lost while it moved and nothing said where it went: at a pocket it
            # fell in; elsewhere it is still on the table where it was last seen (and said so).
            last = np.asarray(tr.xy[-1])
            pk = self.table.nearest_pocket(tuple(last), 250.0)
            if pk is not None:
                fell(tr, name, pk, tr.ended_t - tr.last_t)
            else:
                notes.append(f"the {name} was lost from sight at {last.round(0).tolist()} mm; assumed to rest there")
        for tr in moved:
            # Crept into a pocket's jaws (so slowly that the rest test had it stopped there, past
            # the nose line) and gone from sight before the shot ended, not seen again: it fell.
            # (One hanging in the jaws stays in sight: not pocketed, WPA 2.2.) Seed 13014: the 11
            # at 40 mm/s into the foot-left corner after a break, vanished 0.8 s before the stop.
            name = names.get(id(tr))
            if name is None or name in gone or tr.moving or (tr.ended_t is not None and not tr.lifted):
                continue
            if not w0 <= tr.last_t < t_end - JAWS_UNSEEN_S:
                continue
            last = np.asarray(tr.xy[-1])
            pk = self.table.nearest_pocket(tuple(last), POCKET_MOUTH_MM)
            if pk is None or self.table.on_bed(tuple(last)):
                continue
            fell(tr, name, pk, 0.0)
        events.sort(key=lambda e: e["t"])
        before, after, pos_err = {}, {}, {}
        for tr in tracks:
            name = names.get(id(tr))
            if name is None:
                continue
            if tr.traw[0] <= t0 + 0.02 and (tr.ended_t is None or tr.ended_t >= t0 or tr.lifted):
                # (A frame's slack: the strike is timed between frames, and may fall just after
                # the striker's first sample off its rest; seed 8019's break: 1.1 ms after it, and
                # the cue ball's "before" was its blur 1.3 m on.)
                p = tr.anchor_before(t0 - 1.0 / self.fps)
                before[name] = [round(float(p[0]), 1), round(float(p[1]), 1)]
                pos_err[name] = round(self._pos_err(tr), 2)
            elif tr.born_t > ep.start_t + BORN_SLACK_S and self._born_in_cluster(tr, ep):
                # Unseen among frozen balls until they moved: it lay about where it was first
                # seen (no surer than the way it had moved by then: its first step's length).
                p = np.asarray(tr.xy[0])
                before[name] = [round(float(p[0]), 1), round(float(p[1]), 1)]
                step = float(np.hypot(*(np.asarray(tr.xy[1]) - p))) if len(tr.xy) > 1 else 0.0
                pos_err[name] = round(max(self._pos_err(tr), step), 2)
            if name in before and name not in gone and (tr.ended_t is None or tr.ended_t > t_end or tr.lifted
                                                          or tr.moving):
                p = self._settled(tr, t_end) if (tr.ended_t is None or tr.lifted) else np.asarray(tr.xy[-1])
                after[name] = [round(float(p[0]), 1), round(float(p[1]), 1)]
        out_events = []
        for e in events:
            e = dict(e)
            e["t"] = round(e["t"] - t0, 4)
            if e["type"] != "strike" and e["t"] < 0:
                if e["t"] < -2 * e.get("t_err", 0.0):
                    continue  # before the strike: the last shot's settling, not this shot's
                e["t"] = 0.0
            if "until" in e:
                e["until"] = round(e["until"] - t0, 4)
            if "t_err" in e:
                # The fits' own error plus what the straight-line model misses (spin curving the
                # path, friction, the blur): a fifth of a frame, measured on generated shots.
                # Reported as a 95 % half-width (two sigmas): the adjudicator calls two contacts
                # simultaneous when they are closer than the sum of theirs (WPA 3.2).
                sigma = math.hypot(e["t_err"], MODEL_ERR_FRAMES / self.fps)
                e["t_err"] = round(max(2.0 * sigma, 0.001), 4)
            if any(b not in before for b in (e.get("balls") or [e["ball"]] if "ball" in e or "balls" in e else [])):
                continue  # a track that is not one of the balls at the strike
            if lag and e["type"] == "cross" and e["line"] == "head_string":
                continue  # a lag is judged by the long string (WPA 1.2); the head string is its start
            out_events.append(e)
        # Nothing happens after everything has stopped (a creeping ball's touch of the cushion at
        # the end of its roll may be timed after the roll-out's estimate).
        stop = max([stop] + [t0 + e["t"] for e in out_events])
        out_events.append({"t": round(stop - t0, 4), "type": "stop", "t_err": round(stop_err, 4)})
        rec = {"kind": "lag" if lag else "shot", "t0": round(t0, 4), "before": before, "after": after,
               "events": out_events, "pos_err": pos_err}
        if notes:
            rec["notes"] = notes
        rec["paths"] = self._trajectories(paths, before, t0, stop)
        for tr in tracks:
            if names.get(id(tr)) in gone:
                tr.gone = True  # not on the table for the shots that follow
        frames = [int(math.floor(t0 * self.fps - 1e-9)), int(math.ceil(stop * self.fps + 1e-9))]
        rec["evidence"] = {"frames": frames} if self.video is None else {"video": self.video, "frames": frames}
        return rec

    @staticmethod
    def _trajectories(paths: list[Path], before: dict, t0: float, stop: float) -> dict:
        """The measured centres of each ball that moved, `[t - t0, x, y]` per frame from the strike
        to the stop (an added field: the evidence a report or a referee draws and checks)."""
        out = {}
        for p in paths:
            if p.name not in before or not p.motions or len(p.traw) == 0:
                continue
            sel = (p.traw >= t0 - 0.02) & (p.traw <= stop + 0.02)
            if sel.sum() < 2:
                continue
            out[p.name] = [[round(float(t - t0), 4), round(float(x), 1), round(float(y), 1)]
                           for t, (x, y) in zip(p.traw[sel], p.xy[sel])]
        return out

    def _assign_names(self, tracks: list[Track], t: float) -> dict[int, str]:
        """Each ball name to at most one track, by the classifier's votes over the whole track;
        between equals, the one seen last (the lag balls taken away lose the name 'cue' to the
        cue ball)."""
        if not tracks:
            return {}
        share = np.array([tr.votes / max(tr.n_votes, 1) for tr in tracks])
        unseen = np.array([min(max(t - tr.last_t, 0.0), 30.0) for tr in tracks])
        cost = -np.log(share * np.exp(-unseen / 5.0)[:, None] + 1e-3)
        rows, cols = linear_sum_assignment(cost)
        names = {}
        for r, c in zip(rows, cols):
            if share[r, c] >= 0.15:
                names[id(tracks[r])] = NAMES[c]
        return names

    def _path(self, tr: Track, name: str, w0: float, w1: float, start: float) -> Path:
        """Ball `tr` from w0 to w1 as `Path`. Its rest is where it lay before the shot: the rest
        its first motion started from; for a ball that never moved far enough to start one, the
        median of its samples from w0 to `start` (the episode's start), if there are three, not
        its anchor, which follows a ball that creeps (a rack ball pushed a few millimetres
        by the break: where it ended, not where it was met)."""
        t, traw, xy, s = (np.asarray(tr.t), np.asarray(tr.traw), np.asarray(tr.xy).reshape(-1, 2),
                          np.asarray(tr.s))
        sel = np.flatnonzero((traw >= w0) & (traw <= w1 + 1e-9))
        if len(sel) == 0:
            return Path(name, np.zeros(0), np.zeros(0), np.zeros((0, 2)), np.zeros(0), tr.anchor.copy(), [],
                        ended=False)
        i0, i1 = int(sel[0]), int(sel[-1])
        motions, rest = [], None
        for k, (a, b) in enumerate(tr.motions):
            if (b is not None and b <= i0) or a > i1:
                continue
            if b is not None and b > i1:
                b = None
            if a < i0:
                a = i0
            elif not motions:
                rest = tr.rests[k]
            motions.append((a - i0, None if b is None else b - i0))
        if not motions:
            before = sel[traw[sel] <= start]
            rest = np.median(xy[before], axis=0) if len(before) >= 3 else tr.anchor.copy()
        ended = tr.ended_t is not None and tr.ended_t <= w1 and not tr.lifted
        vanished = (not motions and tr.last_t > w0 and tr.last_t < w1 - 0.3
                    and (tr.alive or tr.lifted) and not tr.moving)
        return Path(name, t[sel], traw[sel], xy[sel], s[sel], rest, motions, ended=ended, vanished=vanished)

    def _not_a_shot(self, moved: list[Track], names: dict, ep: Episode, w0: float, tracks: list[Track]) -> str | None:
        """Why this episode was not a shot, or None. A shot starts with the cue ball struck; a
        cue ball carried by a hand appears from nowhere, or jumps unseen and comes down within a
        moment, or stops dead with no ball to stop it."""
        cue = next((tr for tr in moved if names.get(id(tr)) == "cue"), None)
        if cue is None:
            return f"{len(moved)} ball(s) moved and the cue ball did not (nudged, re-racked or spotted): not a shot"
        ks = [k for k, (a, _) in enumerate(cue.motions) if cue.traw[a] >= w0]
        if cue.born_t >= ep.start_t - 0.05 or not ks:
            return "the cue ball appeared moving (placed by hand): ball in hand, not a shot"
        k = ks[0]
        a, b = cue.motions[k]
        if cue.jumped[k] and b is not None and cue.traw[b] - cue.traw[a] < 0.3:
            return "the cue ball was moved unseen (by hand): ball in hand, not a shot"
        if self._abrupt_stop(cue, k, tracks):
            return "the cue ball stopped dead with no ball to stop it (put down by hand): ball in hand, not a shot"
        return None

    def _vanished_on_bed(self, tr: Track, t_end: float) -> bool:
        """A track that ended, moving, by `t_end` away from every pocket's mouth and not lifted:
        no ball (a ball leaves the bed only into a pocket or over a rail; a hand or the cue at the
        head rail is seen as one for a moment). Seed 11002 through the real detector: a "5" seen
        at the head rail from the first frame, gone 1 s before the lag, made three balls on the
        bed and no lag."""
        if tr.ended_t is None or tr.ended_t > t_end or tr.lifted:
            return False
        last = tuple(np.asarray(tr.xy[-1], float))
        return self.table.on_bed(last) and self.table.nearest_pocket(last, POCKET_MOUTH_MM) is None

    def _lag_balls(self, pair: list[Track], moved: list[Track], w0: float, t_end: float) -> list[Track]:
        """The two lag balls. A re-lag's ball is picked up from where the last lag left it and
        set down behind the head string: where the hand hid it as it went, its old track may
        follow the hand instead, and the ball set down is a new track. A lag ball is struck to
        the foot cushion (WPA 1.2): a track of the pair that never reaches the foot half gives its
        side to one on the same side that was at rest behind the head string and does."""
        L, W = self.table.length_mm, self.table.W

        def reach(tr: Track) -> float:
            xs = [p[0] for p, t in zip(tr.xy, tr.traw) if w0 <= t <= t_end]
            return max(xs) if xs else -1.0

        out = []
        for tr in pair:
            if reach(tr) >= L / 2:
                out.append(tr)
                continue
            side = tr.anchor_before(w0)[1] < W / 2
            others = [o for o in moved if o not in pair and o.confirmed and o.rests and reach(o) >= L / 2 and
                      (o.rests[0][1] < W / 2) == side and o.rests[0][0] < self.table.head_string_x + 60.0]
            out.append(others[0] if len(others) == 1 else tr)
        return out

    def _roll_out_before_rest(self, tr: Track, a: int, b: int, since: float) -> tuple[float, float] | None:
        """`_roll_out` from the roll before the rest test alone, where that one finds no roll.
        When a ball that rolled to rest stopped, and the 95 % half-width of that time. The rest
        test (the ball still within a few millimetres for 0.2 s) fires while a rolling ball still
        creeps: at a constant rolling deceleration it stops a quarter of a second later and a
        few millimetres on. Its distance d from where it comes to rest then falls as
        d = a/2 (t_stop - t)², so sqrt(d) is a straight line in time that meets zero at t_stop,
        whatever the cloth's friction. Fitted to the last second of the roll after the ball's last
        contact; None where that is not a roll (a ball stopped by a cushion or a ball, or too
        few samples), and the rest test's time stands. WPA 2.19: balls are moving until every
        ball has stopped; what the camera cannot see moving (a creep under the noise) is not
        called (Reg 25)."""
        n = max(3, int(round(REST_S * self.fps)))  # the rest test's window
        rest = np.asarray(tr.xy[b:b + n], float).mean(axis=0)
        k = np.arange(a, b)
        t = np.asarray(tr.t, float)[a:b]
        use = (t >= max(since + 0.05, tr.traw[b] - 1.0))
        k, t = k[use], t[use]
        if len(k) < 8:
            return None
        d = np.hypot(*(np.asarray(tr.xy, float)[k] - rest).T)
        sig = np.asarray(tr.s, float)[k]
        far = d >= 3.0 * sig  # well above the noise
        if far.sum() < 6:
            return None
        t, d, sig = t[far], d[far], sig[far]
        y = np.sqrt(d)
        w = 4.0 * d / sig ** 2  # 1 / var(sqrt(d)): var = sig² / (4 d)
        A = np.stack([np.ones_like(t), t - tr.traw[b]], 1)
        cov = np.linalg.inv(A.T @ (A * w[:, None]))
        c0, c1 = cov @ (A.T @ (w * y))
        if c1 >= 0:
            return None
        decel = 2.0 * c1 * c1
        if not (ROLL_DECEL_RANGE[0] <= decel <= ROLL_DECEL_RANGE[1]):
            return None  # not a roll: sliding to a stop, or checked by something
        res = y - A @ np.array([c0, c1])
        chi2 = float(np.sum(w * res * res)) / max(len(y) - 2, 1)
        cov = cov * max(1.0, chi2)
        ts = -c0 / c1  # relative to the rest test's time
        if not (-0.1 <= ts <= 0.8):
            return None
        g = np.array([-1.0 / c1, c0 / (c1 * c1)])  # d t_stop / d (c0, c1)
        err = 2.0 * math.sqrt(float(g @ cov @ g) + (ROLL_MODEL_ERR_S / 2.0) ** 2)
        return tr.traw[b] + float(ts), max(err, 2.0 / self.fps)

    def _roll_out(self, tr: Track, a: int, b: int, since: float, t_end: float) -> tuple[float, float] | None:
        """When a ball that rolled to rest stopped, and the 95 % half-width of that time. The rest
        test (the ball within a few millimetres for 0.2 s) fires while a rolling ball still
        creeps, a quarter of a second before it stops. Fitted to the samples on both sides of
        the rest test, from a second before it (and after the ball's last contact) up to
        `t_end`: a straight roll at a constant deceleration to a stop, p(t) = p_s +
        c·max(t_s - t, 0)², with p_s and c fitted for each stop time t_s on a 5 ms grid and the
        best t_s kept; its 95 % half-width from the fit's profile (Δχ² of 4, scaled by the fit's
        own χ²) and `ROLL_MODEL_ERR_S`. The place it stops is fitted too: the rest test's mean
        place is short of it, and a fit to that (`_roll_out_before_rest`) stopped the ball 60
        ms early at the median. It needs little of the roll before the test (seed 7001's 5 came
        off the head cushion at 50 mm/s 0.17 s before it, and crept 0.4 s after it). None where
        that is no roll (a deceleration out of `ROLL_DECEL_RANGE`, or a fit no better than a
        ball at rest throughout). WPA 2.19: balls are moving until every ball has stopped; what
        the camera cannot see moving (a creep under the noise, a spin in place) is not called
        (Reg 25)."""
        t_all = np.asarray(tr.t, float)
        tb = tr.traw[b]
        use = np.arange(a, len(t_all))
        keep = (t_all[use] >= max(since + 0.05, tb - 1.0)) & (t_all[use] <= min(t_end, tb + 1.0))
        k = use[keep]
        if len(k) < 12 or not (k < b).any():
            return None
        t = t_all[k] - tb
        w = 1.0 / np.asarray(tr.s, float)[k] ** 2
        xy = np.asarray(tr.xy, float)[k]
        xy = xy - (w @ xy) / w.sum()  # (about the mean: the sums below then stay small)

        # Weighted least squares of [p_s, c] for every t_s on the grid at once (2 x 2 normal
        # equations per t_s and axis).
        grid = np.arange(-0.1, 0.8 + 1e-9, 0.005)
        q = np.maximum(grid[:, None] - t[None, :], 0.0) ** 2  # (grid, samples)
        s0, s1, s2 = w.sum(), q @ w, (q * q) @ w
        sx = w @ xy  # (2,)
        sqx = q @ (w[:, None] * xy)  # (grid, 2)
        det = s0 * s2 - s1 * s1
        ok = det > 1e-9 * max(s0 * float(s2.max()), 1e-30)
        det = np.where(ok, det, 1.0)
        ps = (s2[:, None] * sx[None] - s1[:, None] * sqx) / det[:, None]
        cs = (s0 * sqx - s1[:, None] * sx[None]) / det[:, None]
        chi = float(np.sum(w[:, None] * xy * xy)) - np.sum(ps * sx[None], axis=1) - np.sum(cs * sqx, axis=1)
        chi = np.where(ok, chi, np.inf)
        i = int(np.argmin(chi))
        c = cs[i]
        decel = 2.0 * float(np.hypot(*c))
        at_rest = float(np.sum(w[:, None] * xy * xy))  # every sample at one place (the mean)
        dof = max(len(t) - 5, 1)
        scale = max(1.0, chi[i] / dof)
        if not (ROLL_DECEL_RANGE[0] <= decel <= ROLL_DECEL_RANGE[1]) or at_rest - chi[i] < 25.0 * scale:
            return None
        inside = grid[chi - chi[i] <= 4.0 * scale]
        half = max(inside.max() - grid[i], grid[i] - inside.min(), 0.005)
        err = 2.0 * math.sqrt((half / 2.0) ** 2 + (ROLL_MODEL_ERR_S / 2.0) ** 2)
        return tb + float(grid[i]), max(err, 2.0 / self.fps)

    def _abrupt_stop(self, tr: Track, k: int, tracks: list[Track]) -> bool:
        a, b = tr.motions[k]
        if b is None or b - a < 2:
            return False
        # Speed over the last moving samples (a line fit: two samples' noise alone can look fast).
        lo = max(a, b - 5)
        f = fit_line(np.asarray(tr.t[lo:b]), np.asarray(tr.xy[lo:b]), np.asarray(tr.s[lo:b]), tr.t[b - 1])
        if f is None:
            return False
        v = float(np.hypot(*f.v))
        if v <= max(ABRUPT_STOP_MM_S, 4.0 * math.sqrt(f.cov[1, 1])):
            return False
        p = np.asarray(tr.xy[b - 2:b + 1])
        # Stopped by a cushion (or in a pocket's jaws): not a hand.
        if not self.table.on_bed(tuple(p[-1]), slack=-15.0):
            return False
        # Stopped by a ball (a stun shot, the object ball gone on by the time the cue ball rests):
        # not a hand.
        for i in range(max(b - 3, a), b + 1):
            here, t = np.asarray(tr.xy[i]), tr.traw[i]
            for o in tracks:
                if o is not tr and o.traw and o.traw[0] <= t and (o.ended_t is None or o.ended_t >= t - 0.05):
                    if float(np.hypot(*(o.anchor_before(t) - here))) < self.table.ball_diameter_mm + 15.0:
                        return False
        return True

    @staticmethod
    def _settled(tr: Track, t_end: float) -> np.ndarray:
        """Where a ball rests at the shot's end: the mean of its samples over the last `QUIET_S`
        (all still), when it was at rest through them. The rest test fires while a rolling ball
        still creeps a millimetre or two, and the running rest position keeps that creep (seed
        12000's lag balls, 43.5 and 44.2 mm from the head rail, were measured 45.1 and 43.6)."""
        p = tr.anchor_before(t_end)
        if tr.moving or (tr.motions and tr.motions[-1][1] is None):
            return p
        i = int(np.searchsorted(tr.traw, t_end - QUIET_S, side="right"))
        j = int(np.searchsorted(tr.traw, t_end, side="right"))
        if j - i < 5 or (tr.motions and tr.motions[-1][1] > i):
            return p
        return np.asarray(tr.xy[i:j], float).mean(axis=0)

    @staticmethod
    def _pos_err(tr: Track) -> float:
        return tr.sigma / math.sqrt(max(min(tr.anchor_n, 30), 1)) + 0.3


def reconstruct(frames, table: Table, fps: float, video: str | None = None):
    """Records as they complete from an iterable of (frame, media time, observations); the
    reconstructor is returned by the generator (StopIteration.value) for its skipped episodes."""
    rec = ShotReconstructor(table, fps, video)
    t = 0.0
    for frame, t, obs in frames:
        yield from rec.push(frame, t, obs)
    yield from rec.finish(t)
    return rec


def read_observations(lines, where: str = "observations"):
    """(frame, t, observations) per frame from `cueref detect` JSON Lines, in frame order."""
    import json

    from cueref.records import RecordError

    frame, t, batch = None, 0.0, []
    for n, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"{where} line {n}", f"not JSON: {e.msg}") from None
        if not isinstance(d, dict):
            raise RecordError(f"{where} line {n}", "expected a JSON object (one observation)")
        o = Observation.from_dict(d, f"{where} line {n}")
        if frame is not None and o.frame < frame:
            raise RecordError(f"{where} line {n}", f"frame {o.frame} after frame {frame}: observations must be in "
                                                   "frame order")
        if frame is not None and o.frame != frame:
            yield frame, t, batch
            batch = []
        frame, t = o.frame, o.t
        batch.append(o)
    if frame is not None:
        yield frame, t, batch
