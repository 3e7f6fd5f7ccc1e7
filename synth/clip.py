"""A clip: a game played by simulated players, rendered as overhead video, with its ground truth.

`play` runs the game: each shot is planned (scenario.py), simulated (physics.py, extras.py),
written as a shot record of the contract, and ruled by the adjudicator, whose state says what the
next shot starts from (spotted balls, ball in hand, a new rack). `render` turns that timeline into
video frames and per-frame truth. `make_clip` does both and writes the files:

    clip.mp4         the video
    game.jsonl       the game log (header, lag, shot and decision records) — from the physics
    rulings.jsonl    the adjudicator's rulings of that log
    truth.json       camera, table, look, fps, and per shot: frames, plan, strike, events
    frames.jsonl     per frame: each ball's pixel centre, table position, height, visibility
"""
from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from adjudicate.engine import new_game, step
from adjudicate.games.base import apply_effect
from adjudicate.racks import rack
from cueref.camera import Camera, overhead, rodrigues
from cueref.records import new_header, parse_entry, parse_header
from cueref.table import RAILS, Table, table_for
from synth import extras
from synth.physics import BallTrack, ShotSim, SimulationFailed, Strike, aim_direction, simulate
from synth.render import BallDraw, CueDraw, Look, Renderer
from synth.scenario import Plan, plan_break, plan_shot
from synth.video import VideoWriter

REACT_S = 1.0  # after everything stops, nobody touches a ball for this long (a "moving" shot aside)
RESOLUTIONS = {"720p": (1280, 720), "1080p": (1920, 1080), "4k": (3840, 2160)}


@dataclass
class Segment:
    start: float  # media time the segment starts (balls at rest, hands may place balls)
    t0: float  # media time of the strike
    sim: ShotSim
    plan: Plan | None
    end: float = 0.0  # media time the motion ends (the next segment may start earlier: "moving")
    cues: list[tuple[str, Strike]] = field(default_factory=list)  # (ball, strike) per cue drawn
    strike_offsets: dict[str, float] = field(default_factory=dict)  # lag: per-ball strike time
    carry_from: dict = field(default_factory=dict)  # ball → where a hand picks it up (mm) or None
    variant: str | None = None  # lags: which disqualification or re-lag the players produce


@dataclass
class Timeline:
    header: dict
    entries: list[dict]
    rulings: list[dict]
    segments: list[Segment]
    table: Table

    @property
    def duration(self) -> float:
        return max(s.end for s in self.segments) + 1.0


def _sim_plan(table: Table, plan: Plan, positions: dict, rng) -> tuple[ShotSim, str]:
    """Simulate a plan with its extras; returns the sim and the kind actually played."""
    kind = plan.kind
    if kind in ("jump_clean", "jump_clipped") and plan.blocker:
        rest = {b: p for b, p in positions.items() if b != plan.blocker}
        sim = simulate(table, rest, plan.strike)
        if extras.add_jump(sim, table, plan.blocker, positions[plan.blocker], kind == "jump_clipped", rng):
            sim.before = dict(positions)
            return sim, kind
        kind = "pot"
    sim = simulate(table, positions, plan.strike)
    if kind == "disturbed" and not extras.add_disturbed(sim, table, rng):
        kind = "pot"
    if kind == "off_table" and not extras.add_off_table(sim, table, rng):
        kind = "pot"
    return sim, kind


class _Recorder:
    """Plays entries into the adjudicator and lays them on the media timeline."""

    def __init__(self, header: dict, table: Table, rng):
        self.header, self.table, self.rng = header, table, rng
        self.hdr = parse_header(header)
        self.state = new_game(self.hdr)
        self.entries: list[dict] = []
        self.rulings: list[dict] = []
        self.segments: list[Segment] = []
        self.t = 1.0
        self.prev_cue = None

    def _rule(self, rec: dict) -> dict | None:
        ruling, self.state = step(self.state, parse_entry(rec, self.hdr))
        self.entries.append(rec)
        if ruling is not None:
            self.rulings.append(ruling.to_dict())
            return self.rulings[-1]
        return None

    def lag(self, variant: str | None = None) -> dict:
        seg, rec = _lag_segment(self.rng, self.table, self.t, variant)
        r = self._rule(rec)
        self.segments.append(seg)
        self.t = seg.end + REACT_S
        return r

    def decide_or_default(self, p_choose: float = 0.3):
        """Open choice: sometimes log a decision, else leave it to the default, which the engine
        carries out when the next shot arrives. Returns the state the next shot starts from."""
        p = self.state.pending
        if p is None:
            return self.state
        if self.rng.random() < p_choose:
            self._rule({"kind": "decision", "choice": str(self.rng.choice(list(p.options))), "player": p.decider})
            return self.state
        return apply_effect(self.state, p.effects[p.default])

    def shoot(self, plan: Plan, positions: dict) -> dict:
        for _ in range(4):
            # pooltool very rarely lets a ball through a cushion (seen once in hundreds of games),
            # or fails one of its own checks: a ball left at rest off the bed is such a glitch;
            # play the shot a little softer.
            try:
                sim, kind = _sim_plan(self.table, plan, dict(positions), self.rng)
            except SimulationFailed as e:
                why = str(e)
            else:
                _settle_into_bed(sim, self.table)
                if all(_at_rest_on_the_table(self.table, p) for p in sim.after.values()):
                    break
                why = f"a ball left off the bed: {sim.after}"
            plan.strike = replace(plan.strike, speed=plan.strike.speed * 0.85)
        else:
            raise PhysicsGlitch(f"the physics failed four times running ({why})")
        plan.kind = kind
        prev = self.segments[-1] if self.segments else None
        quiet = _quiet_tail(prev.sim) if (prev is not None and prev.plan is not None) else 0.0
        if kind == "moving" and plan.cue_at is None and quiet > 0.06:
            # Struck before the last shot stopped (3.9): while its balls only creep or spin, so
            # starting this shot from their resting places is off by under 1.5 mm.
            t0 = prev.end - float(self.rng.uniform(0.03, quiet))
            start = t0
        else:
            if kind == "moving":
                plan.kind = kind = "pot"
            start, t0 = self.t, self.t + float(self.rng.uniform(1.6, 2.6))
        carry = {"cue": self.prev_cue} if plan.cue_at is not None else {}
        seg = Segment(start=start, t0=t0, sim=sim, plan=plan, end=t0 + sim.duration,
                      cues=[("cue", plan.strike)], carry_from=carry)
        rec = {"kind": "shot", "t0": round(t0, 4), "before": {b: list(p) for b, p in sim.before.items()},
               "after": {b: list(p) for b, p in sim.after.items()}, "events": sim.events}
        if plan.declared:
            rec["declared"] = plan.declared
        r = self._rule(rec)
        self.segments.append(seg)
        self.prev_cue = sim.after.get("cue")
        self.t = seg.end + REACT_S
        return r

    def timeline(self) -> Timeline:
        return Timeline(header=self.header, entries=self.entries, rulings=self.rulings, segments=self.segments,
                        table=self.table)


def _settle_into_bed(sim: ShotSim, table: Table) -> None:
    """pooltool can leave a ball resting pressed into a cushion (its centre up to a radius into
    the rubber, a numerical artefact): each sample of a track that overlaps a cushion's face is
    put back against it, along the face's normal, and the rest position with it. A ball in a
    pocket's mouth clear of the jaws stays where the physics has it, resting in the jaws too
    (WPA 2.2). (Clamping every track that ended past a nose line to the bed's rectangle, as
    before, put the jaw contacts of a ball that came to rest in a mouth a radius from the noses'
    lines, 3-22 mm from any cushion: seed 8013's cue ball; 94 of 7000-17019's cushion contacts.)"""
    for b, tr in sim.tracks.items():
        # (On the cloth, on the bed's side of the cushions: a ball in the air over a rail, or off
        # the table, is not pressed into one.)
        resting = (tr.h <= table.R + 0.5) & tr.on_table & ~np.array([table.over_rail(tuple(p)) for p in tr.xy], bool)
        for rail in RAILS:
            gap = table.cushion_gap(tr.xy, rail)
            for i in np.flatnonzero((gap < 0.0) & resting):
                tr.xy[i] = tr.xy[i] - gap[i] * table.cushion_normal(tr.xy[i], rail)
        if b in sim.after:
            sim.after[b] = (float(tr.xy[-1, 0]), float(tr.xy[-1, 1]))


def _at_rest_on_the_table(table: Table, p) -> bool:
    """A ball left at rest on the bed, or in a pocket's mouth (hanging in the jaws): not through
    a cushion."""
    return not table.over_rail(p) and all(float(table.cushion_gap(p, r)) >= -1.0 for r in RAILS)


def play_staged(stage, seed: int, table: Table | None = None) -> Timeline:
    """One staged scenario (synth/staged.py) as a short game."""
    table = table or table_for("9ft")
    rng = np.random.default_rng(seed)
    header = game_header(stage.game, table, breaker=None if (stage.lag or stage.start) else "A")
    if stage.start:
        header["start"] = stage.start
    rec = _Recorder(header, table, rng)
    if stage.lag:
        rec.lag(stage.lag)
    for positions, plan in stage.shots:
        if positions is None:
            # The next shot from where the last one is leaving the balls.
            positions = dict(rec.state.table)
            if plan.target in positions:
                plan.strike = Strike(plan.strike.speed, aim_direction(positions["cue"], positions[plan.target]))
        if plan.declared.get("break") is None and rec.state.phase == "break":
            plan.declared = {**plan.declared, "break": True}
        rec.shoot(plan, dict(positions))
    return rec.timeline()


def game_header(game: str, table: Table, players=("A", "B"), breaker: str | None = "A") -> dict:
    return new_header(game, table, players, breaker)


class PhysicsGlitch(RuntimeError):
    """pooltool left a ball at rest off the bed (through a cushion), or failed one of its own
    checks, however the shot was softened."""


REPLANS = 3  # other shots tried from the same table after a glitch


def play(game: str, shots: int, seed: int, table: Table | None = None, lag: bool = False,
         players=("A", "B"), progress: Callable[[int], None] | None = None, kinds: dict | None = None) -> Timeline:
    """A game from the break (or the lag): `shots` shots planned from the referee's state."""
    table = table or table_for("9ft")
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    rec = _Recorder(game_header(game, table, players, None if lag else players[0]), table, rng)
    if lag:
        rec.lag()
        while rec.state.phase == "lag":  # a re-lag: lag again (cleanly) until someone wins
            rec.lag("clean")
    for i in range(shots):
        state = rec.decide_or_default()
        if state.phase == "break":
            balls = ({b: p for b, p in state.table.items() if b != "cue"} if state.table
                     else rack(game, table, prng))
        else:
            balls = dict(state.table)
            if state.cue_ball != "in_place":
                balls.pop("cue", None)
        for attempt in range(REPLANS + 1):
            plan = plan_break(rng, state, balls) if state.phase == "break" else plan_shot(rng, state, balls, kinds)
            positions = dict(balls)
            if plan.cue_at is not None:
                positions["cue"] = plan.cue_at
            try:
                rec.shoot(plan, positions)
                break
            except PhysicsGlitch:
                # The same shot played softer kept losing a ball through a cushion (seed 11000's
                # eight-ball game): another shot from the same table. The games of other seeds,
                # which never come here, are unchanged.
                if attempt == REPLANS:
                    raise
        if progress:
            progress(i + 1)
    return rec.timeline()


def _lag_segment(rng, table: Table, t: float, variant: str | None = None) -> tuple[Segment, dict]:
    """Two balls struck from behind the head string toward the foot cushion (WPA 1.2), each in
    its own half. Variants exercise the disqualifications and re-lags."""
    variant = variant or str(rng.choice(["clean", "clean", "late", "cross", "side", "strong", "close"]))
    W = table.width_mm
    sims, strikes, offsets = {}, [], {}
    for ball, y in (("left", W * 0.27), ("right", W * 0.73)):
        start = (table.head_string_x - float(rng.uniform(40, 120)), y + float(rng.uniform(-40, 40)))
        speed = float(rng.uniform(1.17, 1.27))  # to the foot cushion and back near the head (9 ft)
        angle = float(rng.normal(0, 0.3))
        if variant == "cross" and ball == "left":
            angle = 9.0
        if variant == "side" and ball == "right":
            angle = 5.0
        if variant == "strong" and ball == "left":
            speed = 2.7  # foot cushion, head cushion, foot cushion again: 1.2 (b)
        if variant == "close":
            speed = 1.22
            angle = 0.0
            start = (table.head_string_x - 80.0, y)
        if variant == "both":
            angle = -6.0 if ball == "left" else 6.0  # each into its own side cushion: both out (1.2 d)
        if variant == "pocketed" and ball == "left":
            target = (table.length_mm, 0.0)  # straight into the foot-left corner pocket
            angle = math.degrees(math.atan2(target[1] - start[1], target[0] - start[0]))
            speed = 1.8
        if variant == "off" and ball == "left":
            speed = 2.7
        s = Strike(speed, angle)
        sims[ball] = simulate(table, {"cue": start}, s)
        if variant == "off" and ball == "left" and not extras.add_off_table_any(sims[ball], table, rng):
            raise RuntimeError("the off-table lag did not leave the table")
        strikes.append((ball, s))
        offsets[ball] = 0.0
    if variant == "late":
        foot = next(e["t"] for e in sims["left"].events if e["type"] == "cushion")
        offsets["right"] = foot + float(rng.uniform(0.1, 0.4))
    else:
        offsets["right"] = float(rng.uniform(0.0, 0.06))
        # The two balls are simulated apart: where their paths cross (a lag into the other
        # half), strike the right one a little later so that they do not pass through each other.
        for _ in range(12):
            if _lag_clearance(sims, offsets) >= table.ball_diameter_mm + 2.0:
                break
            offsets["right"] += 0.08
        else:
            raise RuntimeError(f"lag variant {variant!r}: the balls' paths cannot be kept apart")
    events = []
    tracks = {}
    for ball, sim in sims.items():
        off = offsets[ball]
        for e in sim.events:
            e = dict(e)
            if e["type"] == "stop":
                continue
            e["t"] = round(e["t"] + off, 4)
            if "ball" in e:
                e["ball"] = ball
            if e["type"] == "cross" and e.get("line") == "head_string":
                continue  # the lag has no use for it
            events.append(e)
        tr = sim.tracks["cue"]
        tracks[ball] = BallTrack(t=tr.t + off, xy=tr.xy, h=tr.h, w=tr.w, on_table=tr.on_table,
                                 gone_at=None if tr.gone_at is None else tr.gone_at + off, gone_how=tr.gone_how)
    duration = max(s.duration + offsets[b] for b, s in sims.items())
    if variant == "foul":
        # The right-hand player's tip touches his ball twice (3.7): a foul disqualifies the lag.
        events.append({"t": round(offsets["right"] + 0.02, 4), "type": "strike", "ball": "right"})
    events.append({"t": round(duration, 4), "type": "stop"})
    events.sort(key=lambda e: e["t"])
    before = {b: sims[b].before["cue"] for b in sims}
    after = {b: sims[b].after["cue"] for b in sims if "cue" in sims[b].after}
    sim = ShotSim(duration=duration, events=events, tracks=tracks, before=before, after=after)
    t0 = t + 1.5
    seg = Segment(start=t, t0=t0, sim=sim, plan=None, end=t0 + duration, cues=strikes, strike_offsets=offsets,
                  variant=variant)
    rec = {"kind": "lag", "t0": round(t0, 4), "before": {b: list(p) for b, p in before.items()},
           "after": {b: list(p) for b, p in after.items()}, "events": events,
           "pos_err": {"left": 0.5, "right": 0.5}}
    return seg, rec


def _quiet_tail(sim: ShotSim, tol_mm: float = 1.5) -> float:
    """How long before a shot's stop every ball is already within `tol_mm` of where it stops."""
    latest = 0.0
    for b, tr in sim.tracks.items():
        if tr.gone_at is not None:
            latest = max(latest, tr.gone_at)
            continue
        d = np.hypot(*(tr.xy - tr.xy[-1]).T)
        moving = np.flatnonzero(d > tol_mm)
        if len(moving):
            latest = max(latest, float(tr.t[moving[-1]]))
    return max(0.0, sim.duration - latest)


def _lag_clearance(sims: dict, offsets: dict) -> float:
    """The closest the two lag balls come to each other (mm), with the right one's strike delayed."""
    a, b = sims["left"].tracks["cue"], sims["right"].tracks["cue"]
    t = np.arange(0.0, max(a.t[-1], b.t[-1] + offsets["right"]), 0.004)
    pa = np.stack([np.interp(t, a.t, a.xy[:, k]) for k in (0, 1)], 1)
    tb = t - offsets["right"]
    pb = np.stack([np.interp(tb, b.t, b.xy[:, k]) for k in (0, 1)], 1)
    on = np.interp(t, a.t, a.on_table.astype(float)) > 0.5
    on &= np.interp(tb, b.t, b.on_table.astype(float)) > 0.5
    d = np.hypot(*(pa - pb).T)
    return float(d[on].min()) if on.any() else float("inf")


# --- rendering ---------------------------------------------------------------------------------

def random_camera(rng, table: Table, width: int, height: int) -> Camera:
    return overhead(table, width, height, tilt_deg=(float(rng.uniform(-4, 4)), float(rng.uniform(-4, 4))),
                    roll_deg=float(rng.uniform(-2.5, 2.5)), head_left=bool(rng.random() < 0.5),
                    margin_mm=float(rng.uniform(160, 320)), k1=float(rng.uniform(-0.08, 0.02)),
                    k2=float(rng.uniform(-0.01, 0.02)), p1=float(rng.uniform(-0.001, 0.001)),
                    p2=float(rng.uniform(-0.001, 0.001)), height_mm=float(rng.uniform(2600, 3600)),
                    offset_px=(float(rng.uniform(-20, 20)), float(rng.uniform(-15, 15))))


def racked_still(seed: int, table: Table, width: int = 1920, height: int = 1080) -> tuple[np.ndarray, Camera]:
    """A nine-ball rack and the cue ball under a random camera and look (the seed draws both):
    the frame a calibration is tested on, and the camera that truly took it."""
    rng = np.random.default_rng(seed)
    cam = random_camera(rng, table, width, height)
    balls = [BallDraw(b, p, table.R, np.eye(3)) for b, p in rack("nine-ball", table).items()]
    balls.append(BallDraw("cue", (400.0, 600.0), table.R, np.eye(3)))
    return Renderer(table, cam, Look.random(rng), seed=seed).render(balls)[0], cam


class _Orient:
    """Each ball's orientation, integrated from its angular velocity (rolling turns the numbers)."""

    def __init__(self, names, rng):
        self.R = {b: rodrigues(rng.normal(0, 2.0, 3)) for b in names}

    def advance(self, ball: str, tr: BallTrack, t_from: float, t_to: float):
        if t_to <= t_from:
            return
        sel = (tr.t > t_from) & (tr.t <= t_to)
        if not sel.any():
            return
        dt = np.diff(np.concatenate([[t_from], tr.t[sel]]))
        rv = (tr.w[sel] * dt[:, None]).sum(axis=0)
        self.R[ball] = rodrigues(rv) @ self.R[ball]


class Scene:
    """A timeline as one camera sees it. `frame(T)` gives the image, the occluder mask (cue,
    hands, arm) and each ball's truth; the camera, lens and look are drawn from the seed.

    The one place frames are made: clips, benchmarks and training crops all draw through it.
    Frames must be asked for in time order (balls turn as they roll)."""

    def __init__(self, tl: Timeline, width: int, height: int, seed: int, fps: int = 60):
        rng = np.random.default_rng(seed + 1)
        self.tl, self.fps = tl, fps
        self.camera = random_camera(rng, tl.table, width, height)
        self.look = Look.random(rng)
        self.renderer = Renderer(tl.table, self.camera, self.look, seed=seed)
        names = ["cue"] + [str(n) for n in range(1, 16)] + ["left", "right"]
        self._orient = _Orient(names, rng)
        self._last = {b: None for b in names}
        self.drawn: list[BallDraw] = []  # the balls of the last frame

    def frame(self, T: float) -> tuple[np.ndarray, np.ndarray, dict]:
        balls, cues = _scene_at(self.tl, T, self.fps, self._orient, self._last)
        img, occ = self.renderer.render(balls, cues[0] if cues else None)
        for extra in cues[1:]:
            self.renderer._cue(img, occ, extra, True)
        self.drawn = balls
        return img, occ, _truth(self.renderer, balls, occ)

    def streaks(self) -> dict[str, np.ndarray]:
        """Per ball of the last frame, the pixel centres of its exposure's sub-frame samples
        (one row for a ball at rest): a moving ball is a streak whose middle, not the truth's
        end-of-exposure centre, is where a locator finds it."""
        return {b.name: np.array([self.renderer.ball_pixel(xy, b.h)[0] for xy in (b.blur or [b.xy])])
                for b in self.drawn}


def render(tl: Timeline, out_dir: Path, *, resolution: str = "1080p", fps: int = 60, seed: int = 0,
           progress: Callable[[int, int], None] | None = None, yolo_every: int = 0, crf: int = 23) -> dict:
    """`crf`: the H.264 quality (23, the default, smooths the sensor noise away: a small file;
    12 keeps it, as a camera's recorder does: a decoder's real load)."""
    width, height = RESOLUTIONS[resolution]
    scene = Scene(tl, width, height, seed, fps)
    out_dir.mkdir(parents=True, exist_ok=True)
    n_frames = int(math.ceil(tl.duration * fps))
    yolo = _Yolo(out_dir / "yolo") if yolo_every else None
    writer = VideoWriter(out_dir / "clip.mp4", fps, (width, height), crf=crf)
    frames_f = open(out_dir / "frames.jsonl", "w", encoding="utf-8")
    try:
        for k in range(n_frames):
            T = k / fps
            img, _, truth = scene.frame(T)
            writer.write(img)
            frames_f.write(json.dumps({"frame": k, "t": round(T, 4), "balls": truth}) + "\n")
            if yolo and k % yolo_every == 0:
                yolo.add(k, img, truth, scene.renderer)
            if progress:
                progress(k + 1, n_frames)
    finally:
        writer.close()
        frames_f.close()
    look = scene.look
    return {"camera": scene.camera.to_dict(), "codec": writer.codec,
            "look": {"cloth": look.cloth_name, "noise": look.noise, "vignette": look.vignette,
                     "gradient": look.gradient},
            "fps": fps, "resolution": [width, height], "frames": n_frames}


def _scene_at(tl: Timeline, T: float, fps: int, orient: _Orient, last_t: dict):
    """The balls and cues to draw at media time T."""
    segs = tl.segments
    idx = 0
    for i, s in enumerate(segs):
        if s.start <= T:
            idx = i
    seg = segs[idx]
    nxt = segs[idx + 1] if idx + 1 < len(segs) else None
    table = tl.table
    balls: list[BallDraw] = []
    cues: list[CueDraw] = []
    tau = T - seg.t0
    if tau < 0:
        # Before the strike: the balls rest where the shot starts; a hand carries the cue ball in.
        for b, p in seg.sim.before.items():
            xy, h = p, table.R
            if b in seg.carry_from and T - seg.start < 0.8:
                src = seg.carry_from[b]
                f = (T - seg.start) / 0.8
                if src is None:
                    src = (p[0] - 400.0, p[1] + 300.0)
                xy = (src[0] + (p[0] - src[0]) * f, src[1] + (p[1] - src[1]) * f)
                h = table.R + 60.0 * math.sin(math.pi * f)
            balls.append(BallDraw(b, xy, h, orient.R[b]))
        for ball, strike in seg.cues:
            off = seg.strike_offsets.get(ball, 0.0)
            cues.append(_cue_pose(table, seg.sim.before[ball], strike, tau - off))
    else:
        for b, tr in seg.sim.tracks.items():
            tt = min(tau, tr.t[-1])
            # Gone from the pocket or off the table event on (compared on the media clock: an
            # event time rounded past the track's last sample must still hide the ball).
            if tr.gone_at is not None and tau >= tr.gone_at - 1e-6:
                continue
            lt = last_t.get(b)
            orient.advance(b, tr, lt if lt is not None and lt <= tt else max(tt - 1.0 / fps, 0.0), tt)
            last_t[b] = tt
            xy = tr.at(tt)
            h = float(np.interp(tt, tr.t, tr.h))
            blur = []
            # Exposure: one frame time. Sub-samples every ~6 mm of travel, 2 to 8 of them.
            travel = float(np.hypot(*(np.array(tr.at(tt)) - np.array(tr.at(max(tt - 1.0 / fps, 0.0))))))
            if travel > 4.0:
                k = int(min(8, max(2, travel / 6.0)))
                blur = [tr.at(max(tt - j / (fps * k), 0.0)) for j in range(k)]
            balls.append(BallDraw(b, xy, h, orient.R[b], blur=blur))
        for ball, strike in seg.cues:
            off = seg.strike_offsets.get(ball, 0.0)
            if tau - off < 0.35:
                cues.append(_cue_pose(table, seg.sim.before[ball], strike, tau - off))
        if nxt is not None and T >= nxt.start:
            pass
    for b in list(last_t):
        if tau < 0:
            last_t[b] = None
    return balls, cues


def _cue_pose(table: Table, ball_at, strike: Strike, tau: float) -> CueDraw:
    """The stick over the last 1.2 s before the strike: practice strokes, the back swing, the
    strike at tau = 0 and the follow-through."""
    d = math.radians(strike.direction_deg)
    ux, uy = math.cos(d), math.sin(d)
    if tau < -1.2:
        gap = 260.0
    elif tau < -0.45:
        gap = 70.0 + 45.0 * (1 - math.cos((tau + 1.2) / 0.75 * 4 * math.pi)) / 2
    elif tau < 0:
        gap = table.R + (150.0 - table.R) * (-tau / 0.45)
    else:
        gap = table.R - min(tau, 0.15) * 900.0 + max(0.0, tau - 0.15) * 1200.0
    tip = (ball_at[0] - ux * gap, ball_at[1] - uy * gap)
    return CueDraw(tip=tip, direction_deg=strike.direction_deg, height=table.R + 8.0)


def _truth(rend: Renderer, balls: list[BallDraw], occ: np.ndarray) -> dict:
    """Per ball: [u, v, x, y, h, visible fraction] (pixels, mm, mm, mm, 0..1)."""
    out = {}
    H, W = occ.shape
    for b in balls:
        c, r = rend.ball_pixel(b.xy, b.h)
        x0, x1 = int(math.floor(c[0] - r)), int(math.ceil(c[0] + r)) + 1
        y0, y1 = int(math.floor(c[1] - r)), int(math.ceil(c[1] + r)) + 1
        ys, xs = np.mgrid[y0:y1, x0:x1]
        disc = (xs - c[0]) ** 2 + (ys - c[1]) ** 2 <= r * r
        total = int(disc.sum()) or 1
        inside = disc & (xs >= 0) & (xs < W) & (ys >= 0) & (ys < H)
        seen = inside.copy()
        if inside.any():
            seen[inside] &= occ[ys[inside], xs[inside]] == 0
        out[b.name] = [round(float(c[0]), 2), round(float(c[1]), 2), round(b.xy[0], 2), round(b.xy[1], 2),
                       round(b.h, 2), round(seen.sum() / total, 3)]
    return out


class _Yolo:
    """YOLO-format export: images + labels (16 classes: 0 = cue, n = ball n) and 32x32 crops."""

    def __init__(self, root: Path):
        self.root = root
        for sub in ("images", "labels", "crops"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        (root / "data.yaml").write_text(
            f"path: {root.resolve()}\ntrain: images\nval: images\nnames:\n" +
            "".join(f"  {i}: {'cue' if i == 0 else i}\n" for i in range(16)), encoding="utf-8")

    def add(self, k: int, img: np.ndarray, truth: dict, rend: Renderer):
        H, W = img.shape[:2]
        lines = []
        name = f"f{k:06d}"
        for b, (u, v, x, y, h, vis) in truth.items():
            if b in ("left", "right") or vis < 0.3:
                continue
            cls = 0 if b == "cue" else int(b)
            _, r = rend.ball_pixel((x, y), h)
            lines.append(f"{cls} {u / W:.6f} {v / H:.6f} {2 * r / W:.6f} {2 * r / H:.6f}")
            if vis >= 0.8:
                s = int(round(r * 1.25))
                ui, vi = int(round(u)), int(round(v))
                if s < ui < W - s and s < vi < H - s:
                    crop = cv2.resize(img[vi - s:vi + s, ui - s:ui + s], (32, 32), interpolation=cv2.INTER_AREA)
                    d = self.root / "crops" / ("cue" if cls == 0 else str(cls))
                    d.mkdir(exist_ok=True)
                    cv2.imwrite(str(d / f"{name}.png"), crop)
        cv2.imwrite(str(self.root / "images" / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 85])
        (self.root / "labels" / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")


def make_scenarios(seed: int, out: Path, *, resolution: str = "1080p", fps: int = 60, table: str = "9ft",
                   yolo_every: int = 0, progress=None, only: list[str] | None = None) -> dict:
    """Every staged scenario as its own short clip in out/<name>/; returns a summary truth."""
    from synth.staged import stages  # noqa: PLC0415

    out = Path(out)
    chosen = [s for s in stages(table_for(table)) if not only or s.name in only]
    shots, frames = [], 0
    for i, st in enumerate(chosen):
        tl = play_staged(st, seed + i, table_for(table))
        meta = _write(tl, out / st.name, st.game, seed + i, resolution, fps, yolo_every, None)
        frames += meta["frames"]
        shots.append({"kind": st.name, "expect": st.expect})
        if progress:
            progress("scenarios", i + 1, len(chosen))
    summary = {"schema": "cueref/scenarios-1", "seed": seed, "frames": frames, "fps": fps,
               "resolution": list(RESOLUTIONS[resolution]), "codec": meta["codec"] if chosen else None,
               "shots": shots}
    (out / "scenarios.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary


def make_clip(game: str, shots: int, seed: int, out: Path, *, resolution: str = "1080p", fps: int = 60,
              table: str = "9ft", lag: bool = False, yolo_every: int = 0, kinds: dict | None = None,
              progress: Callable[[str, int, int], None] | None = None, crf: int = 23) -> dict:
    """Play, render and write one clip; returns the truth summary."""
    out = Path(out)
    tl = play(game, shots, seed, table_for(table), lag=lag, kinds=kinds,
              progress=(lambda i: progress("simulate", i, shots)) if progress else None)
    return _write(tl, out, game, seed, resolution, fps, yolo_every, progress, crf)


def _frames(s: Segment, fps: int) -> list[int]:
    return [int(math.floor(s.t0 * fps - 1e-9)), int(math.ceil(s.end * fps + 1e-9))]


def _write(tl: Timeline, out: Path, game: str, seed: int, resolution: str, fps: int, yolo_every: int,
           progress, crf: int = 23) -> dict:
    meta = render(tl, out, resolution=resolution, fps=fps, seed=seed, yolo_every=yolo_every,
                  progress=(lambda i, n: progress("render", i, n)) if progress else None, crf=crf)
    # Evidence: where each record is in the video.
    # Evidence: where each record is in the video, from the last frame before the strike to the
    # first frame after everything stopped.
    for e, s in zip([e for e in tl.entries if e["kind"] != "decision"], tl.segments):
        e["evidence"] = {"video": "clip.mp4", "frames": _frames(s, fps)}
    with open(out / "game.jsonl", "w", encoding="utf-8") as f:
        f.write(json.dumps(tl.header) + "\n")
        for e in tl.entries:
            f.write(json.dumps(e) + "\n")
    with open(out / "rulings.jsonl", "w", encoding="utf-8") as f:
        for r in tl.rulings:
            f.write(json.dumps(r) + "\n")
    truth = {"schema": "cueref/truth-1", "game": game, "seed": seed, "table": tl.header["table"], **meta,
             "shots": [{"kind": s.plan.kind if s.plan else f"lag-{s.variant}", "t0": round(s.t0, 4), "end": round(s.end, 4),
                        "frames": _frames(s, fps),
                        "strike": s.plan.strike.to_dict() if s.plan else None,
                        "target": s.plan.target if s.plan else None} for s in tl.segments]}
    (out / "truth.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")
    return truth
