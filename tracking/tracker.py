"""Observations → ball tracks: association, rest and motion, coasting, identity.

Each frame the tracks predict where their ball is (a resting ball stays at its rest position, a
moving one is carried by its Kalman filter), and observations are assigned to tracks by the
Hungarian method on a cost that adds distance and identity: a "7" seen near the track that has been
the 7 all along costs less than the same spot claimed by the 3. A track keeps every raw observation
it was given (events are timed from those, not from the smoothed filter, which rounds corners).

A track is at rest or moving. It starts moving when two observations in a row leave its rest
position by more than the noise allows, and stops when its last observations (0.2 s) stay within a
few millimetres. A resting track is never dropped for being unseen (a player may stand over it for
a minute); a moving one that stays unseen is ended where it was last seen (a pocket, over a rail,
or lost) and the shot reconstruction decides which.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment

from cueref.observation import Observation
from cueref.table import Table
from tracking.kalman import BallFilter
from tracking.paths import STRIKE_MAX_MM_S

NAMES = ["cue"] + [str(n) for n in range(1, 16)]
_INDEX = {n: i for i, n in enumerate(NAMES)}
GATE_MM = 90.0  # a ball hit at ~4 m/s moves ~70 mm in one 60 fps frame (scaled with the frame's length)
START_GATE_MM = 200.0
STREAK_DIAMETERS = 1.05  # an unnamed detection this near a named one is its streak (see _one_per_ball)
REST_MATCH_MM = 10.0  # ... unless a ball rests this near it
POCKET_MOUTH_MM = 130.0  # last seen this near a pocket's centre, heading in: it went in
POCKET_GATE_MM = 150.0  # ... and is seen again only in the jaws, if at all
SIDE_BAND_MM = 5.0  # a ball this near touching the cushion line may run along it into a side pocket
SIDE_ANGLE = math.sin(math.radians(5.0))  # ... or one heading toward the rail by this much
COAST_S = 0.5
DROPPED_S = 0.3  # unseen this long after going into a pocket's mouth, a ball has dropped
UNMATCHED_COST = 10.0  # per side; a pair costs (distance / 30 mm)² plus the identity term
MISMATCH_COST = 12.0  # an observation labelled as another ball than the track's
NAMED_SHARE = 0.6  # a track's name is sure past this share of its votes (once it has CONFIRM_VOTES)
# A resting track without a sure name takes a far observation (a strike's first sample) only of a
# name it has been seen as: not one named this surely that had under this share of its votes.
FOREIGN_P, FOREIGN_SHARE, CONFIRM_VOTES = 0.6, 0.05, 5
LIFTED_S = 2.0  # a resting track unseen this long is marked lifted (kept for its name, revived on sight)
REST_S = 0.2  # a ball whose observations stay still this long is at rest
CONFIRM_HITS = 3  # a new track needs this many observations within CONFIRM_FRAMES
CONFIRM_FRAMES = 6
TELEPORT_MM_S = 12000.0  # seen to move faster than any shot: a ball moved by hand (or a mix-up), not rolled
# `STRIKE_MAX_MM_S` (tracking.paths) is only for finding an unseen ball again: a hand's move seen
# from frame to frame is told by TELEPORT_MM_S (at 15 m/s there, the sample clip's hands setting up
# the second lag, seen at 30 fps, made a lag of their own).
RESCUE_P = 0.95  # a label this sure may move a track across the table
HIDDEN_RENAME_S = 0.5  # unseen this long at rest, a track's ball may have been swapped by hand
RENAME_KEEP_VOTES = 30  # then its old votes count as this many (half a second's at 60 fps)
ADOPT_S = 0.5  # a new track may be found to be a lost ball (`_adopt`) this long after its birth


@dataclass
class Track:
    id: int
    born_t: float
    anchor: np.ndarray  # rest position (mm): meaningful while at rest
    sigma: float
    filt: BallFilter | None = None  # while moving
    votes: np.ndarray = field(default_factory=lambda: np.zeros(len(NAMES)))
    n_votes: int = 0
    hits: int = 1
    confirmed: bool = False
    last_frame: int = 0
    last_t: float = 0.0
    moving: bool = False
    ended_t: float | None = None  # a moving track that vanished
    lifted: bool = False  # unseen at rest for LIFTED_S: a hidden ball, or one taken off the table
    gone: bool = False  # the shot reconstruction found it pocketed or off the table
    dropped: bool = False  # ended unseen in a pocket's mouth (`DROPPED_S`): not revived
    jumped: list = field(default_factory=list)  # per motion: it began unseen (a hand, or hidden)
    anchor_n: int = 1
    # Raw history: corrected time, frame, centre, sigma.
    t: list = field(default_factory=list)
    traw: list = field(default_factory=list)  # the frame's media time
    frame: list = field(default_factory=list)
    xy: list = field(default_factory=list)
    s: list = field(default_factory=list)
    motions: list = field(default_factory=list)  # [start index, stop index or None]
    rests: list = field(default_factory=list)  # the rest position each motion started from
    _pending: int = 0
    _adopt_by: float | None = None  # until when it may still be found to be a lost ball's (`_adopt`)
    _adopt_tried: str | None = None  # the sure name it was last asked about

    @property
    def alive(self) -> bool:
        return self.ended_t is None

    def label(self) -> tuple[str | None, float]:
        """The name the observations vote for, and its share of the votes."""
        if self.n_votes == 0 or self.votes.sum() <= 0:
            return None, 0.0
        k = int(np.argmax(self.votes))
        return NAMES[k], float(self.votes[k] / max(self.n_votes, 1))

    def position(self) -> np.ndarray:
        if self.moving and self.filt is not None:
            return self.filt.position
        return self.anchor

    def add_sample(self, t: float, traw: float, frame: int, xy, sigma: float) -> None:
        """One raw observation: corrected time, the frame's media time, frame, centre, sigma."""
        self.t.append(t)
        self.traw.append(traw)
        self.frame.append(frame)
        self.xy.append(xy)
        self.s.append(sigma)

    def restart(self, k: int) -> None:
        """Its current motion ends at sample `k` and a new one starts there, from where it was at
        sample k - 1 (a rolling ball struck again: see `ShotReconstructor._leap`)."""
        self.motions[-1][1] = k
        self.motions.append([k, None])
        self.rests.append(np.asarray(self.xy[k - 1], float).copy())
        self.jumped.append(False)

    def anchor_before(self, t: float) -> np.ndarray:
        """Where the ball rested at media time t (its rest before the first motion after t)."""
        for k, (a, _) in enumerate(self.motions):
            if self.traw[a] >= t - 1e-9:
                return self.rests[k]
        if self.moving or (self.motions and self.motions[-1][1] is not None and self.traw[self.motions[-1][1]] > t):
            i = int(np.clip(np.searchsorted(self.traw, t), 0, len(self.traw) - 1))
            return np.asarray(self.xy[i])
        return self.anchor


class _Identities:
    """The identity terms of one frame's assignment, over its live tracks and observations: each
    track's sure name (over `NAMED_SHARE` of its votes, with `CONFIRM_VOTES` of them) and each
    observation's label with its probability, as indices into NAMES (-1: none)."""

    def __init__(self, tracks: list[Track], obs: list[Observation]):
        # Each track's `label()`, for all of them in one array operation.
        self.votes = np.array([tr.votes for tr in tracks]).reshape(len(tracks), len(NAMES))
        self.n_votes = np.array([tr.n_votes for tr in tracks], int)
        best = self.votes.argmax(axis=1)
        share = self.votes[np.arange(len(tracks)), best] / np.maximum(self.n_votes, 1)
        share[(self.n_votes == 0) | (self.votes.sum(axis=1) <= 0)] = 0.0  # no name
        counted = self.n_votes >= CONFIRM_VOTES
        self.name = np.where(counted & (share > NAMED_SHARE), best, -1)
        self.unsure = counted & (share <= NAMED_SHARE)
        self.ball = np.array([_INDEX.get(o.ball, -1) for o in obs])
        self.p = np.array([o.probs.get(o.ball, 0.0) for o in obs])
        self.moving = np.array([tr.moving for tr in tracks], bool)

    def cost(self) -> np.ndarray:
        """Of each pair: an observation labelled as the track's name lowers it, as another ball
        raises it (`MISMATCH_COST`), each by how sure the label is (a blurred ball's is a weak
        claim); nothing for a track with no sure name or an observation with no ball's label."""
        sure = np.clip((self.p - 0.5) / 0.5, 0.0, 1.0)
        same = self.name[:, None] == self.ball[None, :]
        both = (self.name >= 0)[:, None] & (self.ball >= 0)[None, :]
        return np.where(both, np.where(same, -sure, MISMATCH_COST * sure), 0.0)

    def foreign(self) -> np.ndarray:
        """(tracks, observations): the observation surely names a ball (`FOREIGN_P`) that a track
        without a sure name of its own, seen a while (`CONFIRM_VOTES`), has almost never been
        seen as (under `FOREIGN_SHARE` of its votes). (Not for a named track: its own first
        blurred sample after a strike may be named wrong, and the identity term weighs that;
        refusing it cost seed 10016's break its cue ball's start.)"""
        out = np.zeros((len(self.name), len(self.ball)), bool)
        rows = np.flatnonzero(self.unsure)
        cols = np.flatnonzero((self.ball >= 0) & (self.p >= FOREIGN_P))
        if len(rows) and len(cols):
            votes = self.votes[np.ix_(rows, self.ball[cols])]
            out[np.ix_(rows, cols)] = votes < FOREIGN_SHARE * self.n_votes[rows, None]
        return out

    def seen_elsewhere(self) -> np.ndarray:
        """(tracks, observations): a track with a sure name, and an observation that surely names
        another ball (`FOREIGN_P`) while one of this frame's surely names the track's own
        (`RESCUE_P`): its ball is there, not here. (A rack set up in one frame: seed 12007's
        resting 8 took the new rack's 6, 195 mm away, while the 8 itself lay in the rack; the
        real 8 was then left without its name and its pocketing unseen.)"""
        seen = np.zeros(len(NAMES), bool)
        seen[self.ball[(self.ball >= 0) & (self.p >= RESCUE_P)]] = True
        rows = (self.name >= 0) & seen[self.name]
        other = (self.ball >= 0) & (self.p >= FOREIGN_P)
        return rows[:, None] & other[None, :] & (self.name[:, None] != self.ball[None, :])

    def set_down(self, on_table: np.ndarray) -> np.ndarray:
        """(tracks, observations): a track at rest with a sure name, and an observation that
        surely names (`FOREIGN_P`) another ball on the table (`on_table`, per name: a track of
        its own, not pocketed), seen nowhere else this frame: that ball, set down there by a
        hand. (A re-rack beside a ball: seed 10016's cue ball, its track left at rest while the
        ball was lifted for ball in hand, took the 2 and then the 5 racked 62 mm from its spot,
        and the break's strike was lost.) A ball struck from rest whose first blurred sighting
        is named as another ball still takes it: that ball is seen in its own place, or is not on
        the table (seed 9006's 8, its second sighting named the 7, pocketed long before)."""
        sure = (self.ball >= 0) & (self.p >= FOREIGN_P)
        sure[sure] &= on_table[self.ball[sure]]
        count = np.bincount(self.ball[sure], minlength=len(NAMES))
        alone = sure & (count[np.maximum(self.ball, 0)] == 1)
        rows = (self.name >= 0) & ~self.moving
        return rows[:, None] & alone[None, :] & (self.name[:, None] != self.ball[None, :])

    def moving_elsewhere(self) -> np.ndarray:
        """(tracks, observations): a track with a sure name (kept from far sightings when at
        rest), and an observation that surely names (`FOREIGN_P`) another ball, a ball whose own
        track is rolling: the sighting is of that ball, off its track's prediction (a break's
        cue ball turned back by the rack: seed 12011's resting 2, itself unseen that frame, took
        the cue ball 189 mm away, the cue ball's track lost it, and the 1 then took the cue
        ball's next sighting)."""
        rolling = np.zeros(len(NAMES), bool)
        rolling[self.name[(self.name >= 0) & self.moving]] = True
        other = (self.ball >= 0) & (self.p >= FOREIGN_P)
        other[other] &= rolling[self.ball[other]]
        return (self.name >= 0)[:, None] & other[None, :] & (self.name[:, None] != self.ball[None, :])


class Tracker:
    """Feed `update(frame, t, observations)` in frame order; read `tracks`."""

    def __init__(self, table: Table, fps: float = 60.0, centroid_lag_frames: float = 0.4):
        """`centroid_lag_frames`: a moving ball's blur streak is centred this far before the frame
        time (the shutter is open over the frame before it); observation times are corrected."""
        self.table = table
        self.fps = fps
        self.lag = centroid_lag_frames / fps
        # A moving ball's gate allows for its motion changing within a frame (GATE_MM: a 60 fps
        # frame's worth); a longer frame allows more. (The resting ball's START_GATE_MM is not
        # scaled: at 30 fps a resting track would take another ball's blurred sighting from
        # 400 mm away, the sample clip's break. `cueref bench track --fps 30`, seeds 7000-7009:
        # sightings under another ball's name 370 -> 18 ball-frames, rulings chained 88.4 -> 94.2 %.)
        self.gate_mm = GATE_MM * 60.0 / fps
        self.tracks: list[Track] = []
        self._next = 0
        self.last_t: float | None = None
        self._vectors: dict[int, tuple[dict, str, np.ndarray]] = {}  # see `_vector`

    # --- per frame ---------------------------------------------------------------------------
    def update(self, frame: int, t: float, observations: list[Observation]) -> None:
        if not math.isfinite(t) or (self.last_t is not None and t <= self.last_t):
            raise ValueError(f"frame {frame}: media time {t} does not come after {self.last_t} "
                             "(frames must be fed in time order)")
        observations = [o for o in observations
                        if math.isfinite(o.mm[0]) and math.isfinite(o.mm[1]) and math.isfinite(o.sigma_mm)]
        dt = 0.0 if self.last_t is None else t - self.last_t
        self.last_t = t
        live = [tr for tr in self.tracks if tr.alive]
        for tr in live:
            if tr.moving and tr.filt is not None:
                tr.filt.predict(dt)
        resting = [tr.anchor for tr in live if not tr.moving]
        obs = self._one_per_ball([o for o in observations if self.table.on_bed(o.mm, slack=self.table.R + 200.0)],
                                 resting)
        matched_tr: set[int] = set()
        matched_ob: set[int] = set()
        if live and obs:
            # A ball gone into a pocket is looked for where it went in, not where the filter
            # would have it bounce off the cushion line on past the mouth.
            P = np.array([tr.xy[-1] if self._in_jaws(tr, t) else tr.position() for tr in live])
            O = np.array([o.mm for o in obs])
            d = np.hypot(P[:, None, 0] - O[None, :, 0], P[:, None, 1] - O[None, :, 1])
            ids = _Identities(live, obs)
            # A resting track whose last sighting left its rest (one more and it starts, `_assign`)
            # may be a ball struck or first seen rolling: its next sighting is as far again on
            # (at 30 fps a ball at 3.5 m/s is 240 mm from its first sighting by the third, past
            # the start gate). Led on only to a sighting unnamed or named as itself: in a
            # break, a rack ball's first step, led on, reaches other balls' sightings.
            for i, tr in enumerate(live):
                if not tr.moving and tr._pending == 1 and tr.last_frame == frame - 1:
                    ahead = 2.0 * np.asarray(tr.xy[-1]) - tr.anchor
                    own = (ids.ball < 0) | (ids.ball == ids.name[i]) | (len(tr.t) == 2)
                    d[i] = np.where(own, np.minimum(d[i], np.hypot(ahead[0] - O[:, 0], ahead[1] - O[:, 1])), d[i])
            gate = np.array([self._gate(tr, t) for tr in live])
            cost = (d / 30.0) ** 2
            # A resting ball may leave fast (the break: 170 mm in a frame): beyond 45 mm its
            # cost grows slowly, so the first sample of a start is not handed to a new track.
            resting = np.array([not tr.moving for tr in live])
            far = resting[:, None] & (d > 45.0)
            # (A ball seen at rest a while: a young track, a sighting or two, is as likely a
            # blur's part or a ball passing by, and its cost grows as a moving one's. Seed
            # 11002's break through the real detector: a track born of a streak's part, 123 mm
            # off, took the 4 coming back off the foot cushion from the 4's own track, 82 mm off,
            # and the 4 was lost from the shot.)
            cheap = far & np.array([tr.confirmed for tr in live])[:, None]
            cost[cheap] = 2.25 + (d[cheap] - 45.0) / 25.0
            cost += ids.cost()
            cost[d > gate[:, None]] = 1e6
            # A ball at rest does not leave fast and turn into another ball: beyond 45 mm a track
            # with no sure name needs one it has been seen as. (The benchmark's game at a
            # camera's bitrate: the break's 9, seen half the time as the 1, took the cue ball
            # arriving 160 mm away, and then the 6, unseen that frame, took the 9.) Nor does one
            # with a sure name while its own ball is seen elsewhere.
            far &= cost < 1e5
            if far.any():
                cost[far & (ids.foreign() | ids.seen_elsewhere() | ids.moving_elsewhere()
                            | ids.set_down(self._on_table()))] = 1e6
                # Nor while a sighting still lies on its spot that is not surely another ball
                # (`_spot_taken`): that is the ball, under another name. (Seed 11003 through the
                # real detector: a racked 13 read as the 9 for four seconds, the 9 itself unseen;
                # as the break reached the rack the 9 was found and named, the 13's track jumped
                # 99 mm to it, and the cue ball's track, unseen that frame, took the 13: the
                # break was lost as "15 balls moved and the cue ball did not".)
                cost[far & self._spot_taken(live, O, ids)[:, None]] = 1e6
            # Either side may stay unmatched at a price (a track unseen, a new track born), so
            # that no pair is forced together just to complete the assignment.
            nt, no = cost.shape
            full = np.full((nt + no, no + nt), 1e6)
            full[:nt, :no] = cost
            full[:nt, no:][np.eye(nt, dtype=bool)] = UNMATCHED_COST
            full[nt:, :no][np.eye(no, dtype=bool)] = UNMATCHED_COST
            full[nt:, no:] = 0.0
            rows, cols = linear_sum_assignment(full)
            pairs = {int(r): int(c) for r, c in zip(rows, cols) if r < nt and c < no and cost[r, c] < 1e5}
            pairs = self._own_sightings_first(pairs, ids, d, gate)
            for r, c in pairs.items():
                self._assign(live[r], obs[c], frame, t)
                matched_tr.add(r)
                matched_ob.add(c)
        # Identity before position: a ball the classifier is sure of, seen where no track expects
        # it, is the known ball of that name that was not seen this frame (carried by a hand,
        # out from under the cue or a player, or a track that ended too soon).
        rescued = set()
        for i, o in enumerate(obs):
            if i in matched_ob:
                continue
            tr = self._rescue(o, [tr for k, tr in enumerate(live) if k not in matched_tr and tr.confirmed])
            if tr is not None:
                self._continue(tr, o, frame, t)
                rescued.add(id(tr))
                matched_tr.add(live.index(tr) if tr in live else -1)
            elif not self._streak_of_moving(o, [obs[c] for c in matched_ob], [live[r] for r in matched_tr if r >= 0]):
                self._birth(o, frame, t)
        for i, tr in enumerate(live):
            if i in matched_tr or id(tr) in rescued:
                continue
            if not tr.confirmed and frame - tr.frame[0] >= CONFIRM_FRAMES:
                tr.ended_t = tr.last_t
                tr.hits = -1  # never confirmed: a spurious detection
            elif tr.moving and t - tr.last_t > COAST_S:
                tr.ended_t = tr.last_t
            elif tr.moving and t - tr.last_t > DROPPED_S and self._into_pocket(tr):
                # Gone into a pocket's mouth and not seen since: it dropped (WPA 2.2: it stays
                # pocketed). A ball of its name seen later is a hand taking it out (seed 16003: the
                # cue ball scratched, lifted out of the pocket 0.5 s later and carried to its
                # spot for ball in hand; the track followed the hand and the shot was lost as
                # a placing).
                tr.ended_t = tr.last_t
                tr.dropped = True
            elif not tr.moving and t - tr.last_t > LIFTED_S:
                # Long unseen at rest: taken off the table (the lag balls, a rack being reset), or
                # hidden by a player; seen again at the same spot, the track carries on.
                tr.ended_t = tr.last_t
                tr.lifted = True
        self.tracks = [tr for tr in self.tracks if tr.hits >= 0]

    @staticmethod
    def _spot_taken(live: list[Track], O: np.ndarray, ids: _Identities) -> np.ndarray:
        """Per live track: at rest, with a sighting this frame within `REST_MATCH_MM` of its
        anchor that is not surely another ball: not named another ball at `RESCUE_P` (a ball set
        there by hand: seed 16012's rack, the 1 racked on the spot where the last rack's 10 had
        stopped, its track then sent to the 10 racked 99 mm away), nor at `FOREIGN_P` a ball
        whose own track is rolling (the cue ball stunned onto the spot of the ball it hit)."""
        rolling = np.zeros(len(NAMES), bool)
        rolling[ids.name[(ids.name >= 0) & ids.moving]] = True
        other = (ids.ball[None, :] >= 0) & (ids.ball[None, :] != ids.name[:, None])
        arriving = (ids.ball >= 0) & (ids.p >= FOREIGN_P)
        arriving[arriving] &= rolling[ids.ball[arriving]]
        sure = other & ((ids.p >= RESCUE_P)[None, :] | arriving[None, :])
        A = np.array([tr.anchor for tr in live], float).reshape(-1, 2)
        near = np.hypot(A[:, None, 0] - O[None, :, 0], A[:, None, 1] - O[None, :, 1]) <= REST_MATCH_MM
        return ~ids.moving & (near & ~sure).any(axis=1)

    def _on_table(self) -> np.ndarray:
        """Per name (NAMES), whether a track surely of that name is on the table: seen, or
        resting unseen, or lifted from it (not pocketed)."""
        out = np.zeros(len(NAMES), bool)
        for tr in self.tracks:
            if (tr.alive or tr.lifted) and not (tr.gone or tr.dropped) and tr.n_votes >= CONFIRM_VOTES:
                name, share = tr.label()
                if share > NAMED_SHARE and name in _INDEX:
                    out[_INDEX[name]] = True
        return out

    @staticmethod
    def _own_sightings_first(pairs: dict[int, int], ids: _Identities, d: np.ndarray, gate: np.ndarray) -> dict[int, int]:
        """A rolling track with a sure name, given a sighting not surely its own, takes instead
        one left over that surely names it (`RESCUE_P`) within its gate: a ball turned back by a
        collision is seen off its prediction, where an unnamed detection (a rack ball's streak)
        may lie. (Seed 10016's break: the cue ball off the 1, 190 mm behind its prediction, and
        an unnamed detection beside the prediction; the sighting named "cue" went to an old
        track of that name, lifted from the table before the break.)"""
        taken = set(pairs.values())
        for r, c in list(pairs.items()):
            name = ids.name[r]
            if name < 0 or not ids.moving[r] or (ids.ball[c] == name and ids.p[c] >= RESCUE_P):
                continue
            own = [j for j in range(len(ids.ball)) if j not in taken and ids.ball[j] == name
                   and ids.p[j] >= RESCUE_P and d[r, j] <= gate[r]]
            if own:
                j = min(own, key=lambda j: d[r, j])
                taken.discard(c)
                taken.add(j)
                pairs[r] = j
        return pairs

    def _streak_of_moving(self, o: Observation, assigned: list[Observation], tracks: list[Track]) -> bool:
        """An unlabelled detection beside a fast ball's own (a blur streak seen twice) is not a
        new ball."""
        if o.ball in _INDEX and o.probs.get(o.ball, 0.0) >= 0.5:
            return False
        movers = [np.asarray(tr.xy[-1]) for tr in tracks if tr.moving or tr._pending]
        return any(math.hypot(o.mm[0] - m[0], o.mm[1] - m[1]) < 1.8 * self.table.ball_diameter_mm for m in movers)

    def _one_per_ball(self, obs: list[Observation], resting: list | None = None) -> list[Observation]:
        """Two balls' centres are never closer than a diameter: of two observations closer than
        0.9 of one (a blur streak seen as two balls), keep the surer."""
        if len(obs) < 2:
            return obs
        ranked = sorted(obs, key=lambda o: (o.ball in _INDEX, o.probs.get(o.ball, 0.0)), reverse=True)
        kept: list[Observation] = []
        D = self.table.ball_diameter_mm
        for o in ranked:
            # An unnamed detection hardly more than a diameter from a named one, and not where a
            # ball rests (a frozen neighbour the classifier could not name), is the named ball's
            # blur streak seen twice (a fast start): a resting track must not take its tail and
            # let the ball itself go to a new track.
            streak = o.ball not in _INDEX and not any(
                math.hypot(o.mm[0] - a[0], o.mm[1] - a[1]) <= REST_MATCH_MM for a in (resting or ()))
            if all(math.hypot(o.mm[0] - k.mm[0], o.mm[1] - k.mm[1]) >=
                   (STREAK_DIAMETERS * D if streak and k.ball in _INDEX else 0.9 * D) for k in kept):
                kept.append(o)
        return kept

    def _gate(self, tr: Track, t: float) -> float:
        unseen = max(t - tr.last_t, 0.0)
        if tr.moving and tr.filt is not None:
            if self._in_jaws(tr, t):
                return POCKET_GATE_MM  # gone in, or rattling in the jaws: not anywhere else
            # A collision may stop the ball dead: allow for its whole predicted step.
            step = float(np.hypot(*tr.filt.velocity)) / self.fps
            return (self.gate_mm + step + 3.0 * tr.filt.position_sigma()
                    + 4000.0 * max(unseen - 1.5 / self.fps, 0.0))
        # A resting ball may be struck: a break sends the cue ball 10 m/s (170 mm a frame).
        return START_GATE_MM

    def _in_jaws(self, tr: Track, t: float) -> bool:
        """Moving, unseen since it went into a pocket's mouth."""
        return tr.moving and t - tr.last_t > 1.5 / self.fps and self._into_pocket(tr)

    def _into_pocket(self, tr: Track) -> bool:
        """Last seen moving in a pocket's mouth, heading in (WPA 2.2: a ball that drops stays
        pocketed; one that rattles out is seen again in the jaws)."""
        last = np.asarray(tr.xy[-1], float)
        pk = self.table.nearest_pocket((float(last[0]), float(last[1])), POCKET_MOUTH_MM)
        if pk is None or len(tr.xy) < 2:
            return False
        # Its way in from its last two sightings (the filter would have it bounce off the
        # cushion line, which a pocket's mouth interrupts).
        step = last - np.asarray(tr.xy[-2], float)
        to = np.asarray(self.table.pocket_centre(pk), float) - last
        if float(to @ step) > 0.0 and (not pk.startswith("side") or self._toward_side_mouth(tr, pk, last)):
            return True
        # Past the nose line it may be beyond the mouth's centre already: deeper is in (seed
        # 13012: the cue ball crept past the side pocket's centre, fell, and its track was then
        # handed a false sighting 0.9 m away, a "strike" in the middle of the shot).
        return self.table.past_nose_line((float(last[0]), float(last[1]))) and \
            float(np.asarray(self.table.pocket_axis(pk)) @ step) > 0.0

    def _toward_side_mouth(self, tr: Track, pk: str, last: np.ndarray) -> bool:
        """A ball by a side pocket can drop only running along the cushion (its centre within
        `SIDE_BAND_MM` of touching it) or moving toward the rail (by `SIDE_ANGLE` of its heading
        or more, from the filter's velocity: the last two sightings' step across the rail is
        their noise at a slow roll). One passing further out, parallel to the rail or away from it,
        does not (seed 11001 through the real detector: the black 8, 20 mm off the cushion at
        0.25 m/s, unseen for 0.5 s in front of the side pocket's dark mouth, was called pocketed)."""
        axis = np.asarray(self.table.pocket_axis(pk))
        depth = float(axis @ (last - np.asarray(self.table.pocket_centre(pk), float)))
        if depth > -(self.table.R + SIDE_BAND_MM):
            return True
        v = tr.filt.velocity if tr.filt is not None else last - np.asarray(tr.xy[-2], float)
        return float(axis @ v) > SIDE_ANGLE * float(np.hypot(*v))

    def _assign(self, tr: Track, o: Observation, frame: int, t: float) -> None:
        xy = np.asarray(o.mm, float)
        sigma = max(o.sigma_mm, 0.3)
        if not tr.moving and t - tr.last_t > HIDDEN_RENAME_S:
            self._forget_name(tr)  # hidden at rest (hands): the ball seen there now may be another
        tc = t - (self.lag if tr.moving else 0.0)
        tr.add_sample(tc, t, frame, xy, sigma)
        tr.hits += 1
        tr.last_frame, tr.last_t = frame, t
        self._vote(tr, o)
        if not tr.confirmed and tr.hits >= CONFIRM_HITS:
            tr.confirmed = True
            tr._adopt_by = tr.born_t + ADOPT_S
        if tr._adopt_by is not None:
            # A known ball lost a moment ago? Asked when confirmed, and again while it is young
            # whenever its sure name is another than the one asked about (seed 11003 through the
            # real detector: the 8, hit at 3.5 m/s, unseen for ten frames, was found 600 mm on
            # named 26 %, 59 %, 72 % sure; its new track was not the 8's when confirmed, and the
            # 8's 5 s of rolling and four cushions were left out of the shot as a ball appearing
            # mid-shot. Seed 13001's 8, hit toward the head-left pocket: its blur first taken for
            # the cue ball, its track "cue" when confirmed and "8" 0.2 s later; the 8's drop was
            # lost and the 4 it met called disturbed).
            name, share = tr.label()
            if t > tr._adopt_by:
                tr._adopt_by = None
            elif share >= NAMED_SHARE and name != tr._adopt_tried:
                tr._adopt_tried = name
                if self._adopt(tr, t):
                    return
        if tr.moving:
            tr.filt.update(xy, sigma)
            self._maybe_stop(tr)
        else:
            dev = float(np.hypot(*(xy - tr.anchor)))
            if dev > max(5.0, 4.0 * sigma):
                tr._pending += 1
                # Two in a row: one far sample may be another ball's or a spurious detection
                # (a ball hit into a pocket and seen moving once is found when it vanishes).
                if tr._pending >= 2:
                    self._start(tr, tr._pending)
            else:
                tr._pending = 0
                n = min(tr.anchor_n, 30)
                tr.anchor = (tr.anchor * n + xy) / (n + 1)
                tr.anchor_n += 1
                tr.sigma = sigma

    @staticmethod
    def _forget_name(tr: Track) -> None:
        """After a hand may have swapped the ball under a track (a re-rack sets the 3 where the 4
        waited), its old votes count as half a second's: thousands, from a rack's worth of rest,
        would outweigh seconds of a sure other name; a few keep its name if it is the same ball
        and is seen only a moment more (the 7 hidden in the jaws, then knocked in)."""
        if tr.n_votes > RENAME_KEEP_VOTES:
            tr.votes *= RENAME_KEEP_VOTES / tr.n_votes
            tr.n_votes = RENAME_KEEP_VOTES

    def _vote(self, tr: Track, o: Observation) -> None:
        if not o.probs:
            return
        tr.votes += self._vector(o.probs, o.ball)
        tr.n_votes += 1

    def _vector(self, probs: dict, ball: str = "unknown") -> np.ndarray:
        """An observation's probabilities as a vector over NAMES (others dropped). Where the
        detector named the ball against the classifier's likeliest name (one ball of each number
        in a frame: a likelier name was a surer ball's), the likelier names' share goes to the
        name it gave: seed 9001's 9, racked beside the 1, looked 89 % like the 1 and 6 % like
        the 9 for the rack's three seconds, and was named "9" in every frame; voting the raw
        probabilities left its track with no name at the break (its 9 under the 15 % a name
        needs), and after the 1 was pocketed its old track, lost at rest when the 9 left it
        at speed, became a "1" on the table. Not where the likelier name is the cue ball's: a
        second white ball (a lag's, or one in hand beside the cue ball) is numbered by what
        little is left of its probabilities, and voted so it was no longer a lag ball (seed
        11000 through the real detector: the lag lost). A ball unchanged between frames comes
        with the very same dict (the detector's): its vector is made once."""
        hit = self._vectors.get(id(probs))
        if hit is not None and hit[0] is probs and hit[1] == ball:
            return hit[2]
        vec = np.array([probs.get(n, 0.0) for n in NAMES], float)
        k = _INDEX.get(ball)
        if k is not None and vec[k] < vec.max() and vec[_INDEX["cue"]] <= vec[k]:
            above = vec > vec[k]
            vec[k] += vec[above].sum()
            vec[above] = 0.0
        if len(self._vectors) > 256:  # (the dicts held here keep their ids from being reused meanwhile)
            self._vectors.clear()
        self._vectors[id(probs)] = (probs, ball, vec)
        return vec

    def _start(self, tr: Track, n: int = 2) -> None:
        """The last n observations left the rest position: the ball has been moving since the
        first of them. Their times were recorded as at rest; correct them for the blur lag."""
        i0 = len(tr.t) - n
        for k in range(i0, len(tr.t)):
            tr.t[k] -= self.lag
        if n >= 2 and self._creeping_on(tr, i0):
            # Not a new start: the ball had only slowed below the rest test and rolls on the way
            # it was going (the last few millimetres of a roll).
            tr.motions[-1][1] = None
            v = (tr.xy[-1] - tr.xy[i0]) / max(tr.t[-1] - tr.t[i0], 1e-3)
            tr.filt = BallFilter(tr.xy[-1], tr.s[-1], self.table, velocity=v, velocity_sigma=300.0)
            tr.moving = True
            tr._pending = 0
            return
        if n >= 2:
            v = (tr.xy[-1] - tr.xy[i0]) / max(tr.t[-1] - tr.t[i0], 1e-3)
            tr.filt = BallFilter(tr.xy[i0], tr.s[i0], self.table, velocity=v, velocity_sigma=800.0)
            tr.filt.predict(tr.t[-1] - tr.t[i0])
            tr.filt.update(tr.xy[-1], tr.s[-1])
        else:
            v = (tr.xy[-1] - tr.anchor) / max(tr.traw[-1] - tr.traw[-2], 1.0 / self.fps) if len(tr.traw) > 1 \
                else np.zeros(2)
            tr.filt = BallFilter(tr.xy[-1], tr.s[-1], self.table, velocity=v, velocity_sigma=1500.0)
        tr.moving = True
        tr._pending = 0
        tr.motions.append([i0, None])
        tr.rests.append(tr.anchor.copy())
        tr.jumped.append(False)

    def _creeping_on(self, tr: Track, i0: int) -> bool:
        if not tr.motions or tr.motions[-1][1] is None:
            return False
        a, b = tr.motions[-1]
        if tr.traw[i0] - tr.traw[b] > 1.5 or b - a < 2:
            return False
        before = np.asarray(tr.xy[b]) - np.asarray(tr.xy[max(a, b - 6)])
        now = np.asarray(tr.xy[-1]) - np.asarray(tr.xy[b])
        nb, nn = float(np.hypot(*before)), float(np.hypot(*now))
        return nb > 1.0 and nn < 12.0 and float(before @ now) > 0.7 * nb * nn

    def _maybe_stop(self, tr: Track) -> None:
        n = max(3, int(round(REST_S * self.fps)))
        if len(tr.t) - tr.motions[-1][0] < n + 2:
            return
        # Two samples d apart put one at least d / 2 from any centre: a ball still rolling is
        # told without the spread (exactly the test below, at a fraction of its cost).
        first, last = tr.xy[-n], tr.xy[-1]
        if math.hypot(last[0] - first[0], last[1] - first[1]) > 2.0 * max(2.5, 3.0 * max(tr.s[-n:])):
            return
        pts = np.asarray(tr.xy[-n:])
        c = pts.mean(axis=0)
        spread = float(np.max(np.hypot(*(pts - c).T)))
        if spread <= max(2.5, 3.0 * float(np.median(tr.s[-n:]))):
            tr.moving = False
            tr.filt = None
            tr.anchor, tr.anchor_n = c, n
            tr.motions[-1][1] = len(tr.t) - n
            # Samples at rest carry no blur lag.
            for k in range(len(tr.t) - n, len(tr.t)):
                tr.t[k] = tr.traw[k]

    def _birth(self, o: Observation, frame: int, t: float) -> None:
        tr = Track(id=self._next, born_t=t, anchor=np.asarray(o.mm, float), sigma=max(o.sigma_mm, 0.3),
                   last_frame=frame, last_t=t)
        self._next += 1
        tr.add_sample(t, t, frame, np.asarray(o.mm, float), tr.sigma)
        self._vote(tr, o)
        self.tracks.append(tr)

    def _adopt(self, new: Track, t: float) -> bool:
        """A new track that is a known ball lost a moment ago (its first sighting was labelled
        "unknown", so identity could not claim it) continues the old track."""
        name, share = new.label()
        if name is None or share < NAMED_SHARE:
            return False
        p = np.asarray(new.xy[0])
        best = None
        for old in self.tracks:
            if old is new or not old.confirmed or old.gone or old.dropped or old.last_frame >= new.frame[0]:
                continue
            # (A resting ball still in sight was excluded above: seen since the new track began.)
            if not old.alive and (old.lifted or t - old.ended_t > 3.0):
                continue
            oname, oshare = old.label()
            if oname != name or oshare < NAMED_SHARE:
                continue
            # No struck ball goes faster than STRIKE_MAX_MM_S (a break's cue ball, unseen on its
            # way, reaches the rack 1.4 m off in 7 frames at 60 fps: 12 m/s).
            if float(np.hypot(*(p - np.asarray(old.xy[-1])))) > GATE_MM + STRIKE_MAX_MM_S * (new.traw[0] - old.last_t):
                continue
            if best is None or old.last_t > best.last_t:
                best = old
        if best is None:
            return False
        for k in range(len(new.t)):
            best.add_sample(new.traw[k] - self.lag, new.traw[k], new.frame[k], new.xy[k], new.s[k])
        best.votes += new.votes
        best.n_votes += new.n_votes
        best.hits += new.hits
        best.last_frame, best.last_t = new.last_frame, new.last_t
        best.ended_t = None
        if not best.moving:
            # It left its rest position out of sight (under the cue, a hand, a player).
            best.motions.append([len(best.t) - len(new.t), None])
            best.rests.append(best.anchor.copy())
            best.jumped.append(new.traw[0] - best.traw[-len(new.t) - 1] > 2.5 / self.fps)
        best.moving = True
        v = (new.xy[-1] - new.xy[0]) / max(new.traw[-1] - new.traw[0], 1.0 / self.fps)
        best.filt = BallFilter(new.xy[-1], new.s[-1], self.table, velocity=v, velocity_sigma=800.0)
        new.hits, new.ended_t = -1, t
        return True

    def _rescue(self, o: Observation, unmatched: list[Track]) -> Track | None:
        if o.ball not in _INDEX or o.probs.get(o.ball, 0.0) < RESCUE_P:
            return None
        cands = []
        for tr in unmatched + [tr for tr in self.tracks if not tr.alive and tr.hits >= 0 and tr.confirmed]:
            name, share = tr.label()
            if name != o.ball or share < NAMED_SHARE:
                continue
            if tr.gone or tr.dropped or (not tr.alive and not tr.lifted and (self.last_t - tr.ended_t) > 3.0):
                continue  # pocketed, or ended long ago: a ball of that name now is another story
            if self._in_jaws(tr, self.last_t) and \
                    float(np.hypot(o.mm[0] - tr.xy[-1][0], o.mm[1] - tr.xy[-1][1])) > POCKET_GATE_MM:
                continue  # it went into a pocket: a ball of its name elsewhere is a false sighting
            cands.append(tr)
        if not cands:
            return None
        p = np.asarray(o.mm, float)

        def rank(tr: Track):
            # A ball lost a moment ago while moving, within reach, before a resting one out of
            # sight, before one lifted long ago (the lag balls taken away): then the nearest.
            d = float(np.hypot(*(np.asarray(tr.xy[-1]) - p)))
            reachable = d <= GATE_MM + 5000.0 * max(self.last_t - tr.last_t, 1.0 / self.fps)
            tier = 0 if (tr.alive and tr.moving and reachable) else (1 if tr.alive else 2)
            return (tier, d)
        return min(cands, key=rank)

    def _continue(self, tr: Track, o: Observation, frame: int, t: float) -> None:
        """Attach an observation far from where the track expected it."""
        xy = np.asarray(o.mm, float)
        gap = t - tr.last_t
        v = (xy - np.asarray(tr.xy[-1])) / max(gap, 1.0 / self.fps)  # from where it was last seen
        tr.ended_t, tr.lifted = None, False
        was_moving = tr.moving
        if float(np.hypot(*(xy - tr.position()))) <= max(5.0, 4.0 * o.sigma_mm) and not tr.moving:
            self._assign(tr, o, frame, t)  # back where it rested
            return
        if not tr.moving:
            # It left its rest position unseen: it has been moving since this observation.
            tr.motions.append([len(tr.t), None])
            tr.rests.append(tr.anchor.copy())
            tr.moving = True
            # Unseen for a few frames before: it was moved where the camera could not see
            # (a hand, or under the cue); one missed frame is just a fast start.
            tr.jumped.append(gap > 2.5 / self.fps or float(np.hypot(*v)) > TELEPORT_MM_S)
            if gap > HIDDEN_RENAME_S or float(np.hypot(*v)) > TELEPORT_MM_S:
                self._forget_name(tr)  # moved by a hand (or a mix-up), not hit while hidden
        tr.add_sample(t - self.lag, t, frame, xy, max(o.sigma_mm, 0.3))
        tr.hits += 1
        tr.last_frame, tr.last_t = frame, t
        self._vote(tr, o)
        # Its speed is kept unless a hand moved it (faster than any roll). A ball already rolling
        # keeps up to a struck ball's fastest (a hard break's cue ball, its blur's centre stepping
        # up to 15 m/s: restarted at rest each frame, it lagged and other tracks took its sightings).
        limit = STRIKE_MAX_MM_S if was_moving else TELEPORT_MM_S
        fast = gap < 0.1 and float(np.hypot(*v)) <= limit
        tr.filt = BallFilter(xy, max(o.sigma_mm, 0.3), self.table, velocity=v if fast else (0.0, 0.0),
                             velocity_sigma=1500.0)
        tr._pending = 0
        self._maybe_stop(tr)
