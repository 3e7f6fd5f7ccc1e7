"""What the simulated players try: where the cue ball goes, which ball and pocket they aim at,
how hard — and, drawn from the seed, the fouls a camera must catch.

A plan only says what the player does; pooltool decides what happens and the adjudicator rules
it, so a "wrong ball first" plan may end legal and a plain shot may scratch, as at a real table.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from adjudicate.facts import ball_order
from adjudicate.model import GameState
from cueref.table import POCKETS, Point, Table, distance
from synth.physics import Strike, aim_direction

# Shot kinds and how often they are drawn (mid-rack).
KINDS = {
    "pot": 0.50, "wrong_ball_first": 0.07, "no_contact": 0.03, "soft": 0.06, "scratch": 0.05,
    "jump_clean": 0.05, "jump_clipped": 0.04, "disturbed": 0.05, "off_table": 0.05, "moving": 0.04,
    "kitchen_placement": 0.03, "safety": 0.03,
}


@dataclass
class Plan:
    kind: str
    strike: Strike
    cue_at: Point | None = None  # where a hand places the cue ball first (ball in hand)
    target: str | None = None
    pocket: str | None = None
    declared: dict = field(default_factory=dict)
    blocker: str | None = None  # the ball a jump passes over


def legal_targets(state: GameState, balls: dict[str, Point]) -> list[str]:
    from adjudicate.games import GAMES

    objs = {b for b in balls if b != "cue"}
    game = state.header.game
    if state.phase == "break" or game == "straight-pool":
        return sorted(objs, key=ball_order)
    if game == "eight-ball":
        return sorted(GAMES[game].legal_balls(state, state.shooter, objs), key=ball_order) or sorted(objs, key=ball_order)
    return [min(objs, key=ball_order)] if objs else []


def free(table: Table, balls: dict[str, Point], p: Point, clearance: float | None = None) -> bool:
    c = clearance or table.ball_diameter_mm + 2
    return table.on_bed(p) and all(distance(p, q) >= c for b, q in balls.items() if b != "cue")


def random_free(rng: np.random.Generator, table: Table, balls: dict[str, Point], kitchen: bool) -> Point:
    hi = table.head_string_x - table.R - 5 if kitchen else table.length_mm - table.R - 5
    for _ in range(200):
        p = (float(rng.uniform(table.R + 5, hi)), float(rng.uniform(table.R + 5, table.width_mm - table.R - 5)))
        if free(table, balls, p):
            return p
    raise RuntimeError("no free place for the cue ball")


def ghost(table: Table, ball: Point, pocket: str) -> tuple[Point, float]:
    """Where the cue ball's centre must be at contact to send `ball` to `pocket`, and the distance."""
    pc = table.pocket_centre(pocket)
    d = distance(ball, pc)
    ux, uy = (pc[0] - ball[0]) / d, (pc[1] - ball[1]) / d
    return (ball[0] - ux * table.ball_diameter_mm, ball[1] - uy * table.ball_diameter_mm), d


def cut_angle(cue: Point, gh: Point, ball: Point, pocket_pt: Point) -> float:
    a = math.atan2(gh[1] - cue[1], gh[0] - cue[0])
    b = math.atan2(pocket_pt[1] - ball[1], pocket_pt[0] - ball[0])
    return abs((a - b + math.pi) % (2 * math.pi) - math.pi)


def plan_break(rng: np.random.Generator, state: GameState, balls: dict[str, Point]) -> Plan:
    t = state.header.table
    cue = (float(rng.uniform(t.head_string_x - 380, t.head_string_x - 60)),
           float(rng.uniform(t.width_mm * 0.3, t.width_mm * 0.7)))
    objs = sorted((b for b in balls if b != "cue"), key=lambda b: balls[b][0])
    apex = objs[0]
    game = state.header.game
    if game == "straight-pool":
        # A safe opening break: clip a back corner of the rack softly and call a safety-like shot.
        corner = max(objs, key=lambda b: (balls[b][0], abs(balls[b][1] - t.long_string_y)))
        direction = aim_direction(cue, balls[corner]) + float(rng.uniform(-1.0, 1.0))
        return Plan("break", Strike(float(rng.uniform(2.2, 3.5)), direction, side=float(rng.uniform(-0.3, 0.3))),
                    cue_at=cue, target=corner, declared={"break": True, "called": {"ball": corner, "pocket": "foot-right"}})
    direction = aim_direction(cue, balls[apex]) + float(rng.normal(0, 0.4))
    return Plan("break", Strike(float(rng.uniform(6.5, 9.0)), direction, vertical=float(rng.uniform(-0.2, 0.1))),
                cue_at=cue, target=apex, declared={"break": True})


def plan_shot(rng: np.random.Generator, state: GameState, balls: dict[str, Point], kinds=None) -> Plan:
    """A mid-rack shot from `balls` (the table the referee holds; the cue ball may be in hand)."""
    t = state.header.table
    kinds = kinds or KINDS
    names = list(kinds)
    kind = str(rng.choice(names, p=np.array([kinds[k] for k in names]) / sum(kinds.values())))
    in_hand = state.cue_ball != "in_place" or "cue" not in balls
    kitchen = state.cue_ball == "in_hand_kitchen"
    targets = legal_targets(state, balls)
    if not targets:
        targets = [b for b in balls if b != "cue"]
    target = str(rng.choice(targets))
    pocket = str(rng.choice(POCKETS))
    gh, _ = ghost(t, balls[target], pocket)
    cue = balls.get("cue")
    placed_in_front = False
    if in_hand:
        cue = _place_for(rng, t, balls, gh, balls[target], kitchen)
        if kind == "kitchen_placement" and kitchen:
            # 3.10: placed on or just in front of the head string.
            for _ in range(50):
                p = (t.head_string_x + float(rng.uniform(0, 60)), float(rng.uniform(150, t.width_mm - 150)))
                if free(t, balls, p):
                    cue, placed_in_front = p, True
                    break
    if kind == "kitchen_placement" and not placed_in_front:
        kind = "pot"  # no ball in hand behind the head string this time: a plain shot
    declared: dict = {}
    game = state.header.game
    if game in ("eight-ball", "ten-ball", "straight-pool"):
        declared["called"] = {"ball": target, "pocket": pocket}
    speed = float(rng.uniform(1.6, 4.2))
    direction = aim_direction(cue, gh) + float(rng.normal(0, 0.35))
    side, vertical = float(rng.uniform(-0.3, 0.3)), float(rng.uniform(-0.4, 0.4))
    blocker = None
    if kind == "wrong_ball_first":
        others = [b for b in balls if b not in ("cue", target) and b not in targets]
        if others:
            o = str(rng.choice(others))
            direction = aim_direction(cue, balls[o]) + float(rng.normal(0, 1.0))
            target = o
        else:
            kind = "pot"
    elif kind == "no_contact":
        # Away from every ball, gently, toward the nearest rail.
        direction = _clear_direction(rng, cue, balls) or direction
        speed = float(rng.uniform(0.6, 1.2))
    elif kind == "soft":
        speed = float(rng.uniform(0.35, 0.7))  # may fail to bring any ball to a rail (3.3)
        vertical = 0.0
    elif kind == "scratch":
        # Roll the cue ball straight at a pocket.
        pk = min(POCKETS, key=lambda p: distance(cue, t.pocket_centre(p)))
        direction = aim_direction(cue, t.pocket_centre(pk))
        speed = float(rng.uniform(1.5, 3.0))
    elif kind == "safety":
        if game in ("eight-ball", "straight-pool"):
            declared = {"safety": True}
        speed = float(rng.uniform(0.9, 1.8))
    elif kind in ("jump_clean", "jump_clipped"):
        blocker = _blocker(rng, t, balls, target, cue)
        if blocker is None:
            kind = "pot"
        else:
            direction = aim_direction(cue, balls[target]) + float(rng.normal(0, 0.3))
            speed = float(rng.uniform(2.5, 4.0))
    if game == "nine-ball" or game == "ten-ball":
        if state.push_out_allowed and rng.random() < 0.25:
            declared["push_out"] = True
            declared.pop("called", None)
    return Plan(kind, Strike(speed, direction, side=side, vertical=vertical), cue_at=cue if in_hand else None,
                target=target, pocket=pocket, declared=declared, blocker=blocker)


def _place_for(rng, t: Table, balls, gh: Point, ball: Point, kitchen: bool) -> Point:
    """Ball in hand: behind the ghost ball on the line from the object ball, at a comfortable
    distance, when that spot is free (and in the kitchen when it must be)."""
    ux, uy = gh[0] - ball[0], gh[1] - ball[1]
    n = math.hypot(ux, uy) or 1.0
    for _ in range(30):
        d = float(rng.uniform(200, 700))
        ang = float(rng.normal(0, 0.25))
        ca, sa = math.cos(ang), math.sin(ang)
        vx, vy = (ux * ca - uy * sa) / n, (ux * sa + uy * ca) / n
        p = (gh[0] + vx * d, gh[1] + vy * d)
        if free(t, balls, p) and (not kitchen or t.in_kitchen(p, err=t.R)):
            return p
    return random_free(rng, t, balls, kitchen)


def _clear_direction(rng, cue: Point, balls) -> float | None:
    for _ in range(60):
        a = float(rng.uniform(-180, 180))
        ok = True
        for b, p in balls.items():
            if b == "cue":
                continue
            ang = abs((aim_direction(cue, p) - a + 180) % 360 - 180)
            if ang < 35:
                ok = False
                break
        if ok:
            return a
    return None


def _blocker(rng, t: Table, balls, target: str, cue: Point) -> str | None:
    """A ball near the line from the cue ball to the target, to jump over."""
    tp = balls[target]
    d = distance(cue, tp)
    best = None
    for b, p in balls.items():
        if b in ("cue", target):
            continue
        # Distance of p from the segment cue→target.
        ux, uy = (tp[0] - cue[0]) / d, (tp[1] - cue[1]) / d
        s = (p[0] - cue[0]) * ux + (p[1] - cue[1]) * uy
        if not (150 < s < d - 150):
            continue
        off = abs(-(p[0] - cue[0]) * uy + (p[1] - cue[1]) * ux)
        if off < t.ball_diameter_mm * 0.9 and (best is None or off < best[0]):
            best = (off, b)
    return best[1] if best else None
