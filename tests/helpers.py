"""Builders for game logs in the contract's JSON, so scenario tests read like the rule they test.

Positions are table millimetres on a 9 ft table (2540 x 1270): head string x = 635, foot spot
(1905, 635), head spot (635, 635). Nothing here rules anything: the tests compare the engine's
rulings with what the articles say.
"""
from __future__ import annotations

import json

from adjudicate.engine import new_game, step
from cueref.records import parse_entry, parse_header

L, W = 2540.0, 1270.0
D = 57.15
ROW_DX = D * 3 ** 0.5 / 2  # distance between rows of frozen balls
HEAD_X = L / 4
FOOT_SPOT = (3 * L / 4, W / 2)
HEAD_SPOT = (L / 4, W / 2)


def strike(t=0.0, ball="cue", err=None):
    return _e(t, "strike", err, ball=ball)


def hit(t, a, b="cue", err=None):
    """A collision; hit(t, "3") is the cue ball contacting the 3."""
    return _e(t, "collision", err, balls=[b, a] if b == "cue" else [a, b])


def rail(t, ball, rail_name, err=None):
    return _e(t, "cushion", err, ball=ball, rail=rail_name)


def pot(t, ball, pocket="foot-left", err=None):
    return _e(t, "pocket", err, ball=ball, pocket=pocket)


def off(t, ball, err=None):
    return _e(t, "off_table", err, ball=ball)


def cross(t, ball="cue", line="head_string", err=None):
    return _e(t, "cross", err, ball=ball, line=line)


def airborne(t, until, ball="cue"):
    return _e(t, "airborne", None, ball=ball, until=until)


def disturbed(t, ball):
    return _e(t, "disturbed", None, ball=ball)


def stop(t=4.0, err=None):
    return _e(t, "stop", err)


def _e(t, kind, err, **kw):
    d = {"t": t, "type": kind, **kw}
    if err is not None:
        d["t_err"] = err
    return d


def header(game="nine-ball", players=("A", "B"), breaker="A", **rules):
    h = {"schema": "cueref/game-1", "game": game, "players": list(players),
         "table": {"length_mm": L, "width_mm": W, "ball_diameter_mm": 57.15}, "rules": rules}
    if breaker is not None:
        h["breaker"] = breaker
    return h


def shot(before, events, after=None, t0=None, moved=None, pos_err=None, **declared):
    """A shot record. `after` defaults to `before` minus the balls pocketed or sent off the table,
    with `moved` giving new resting places. Without `t0`, `rule` strikes it 1 s after the previous
    shot stopped."""
    if after is None:
        gone = {e["ball"] for e in events if e["type"] in ("pocket", "off_table")}
        after = {b: p for b, p in before.items() if b not in gone}
        after.update(moved or {})
    d = {"kind": "shot", "t0": t0, "before": {k: list(v) for k, v in before.items()},
         "after": {k: list(v) for k, v in after.items()}, "events": events}
    if "break_" in declared:
        declared["break"] = declared.pop("break_")
    if declared:
        d["declared"] = declared
    if pos_err:
        d["pos_err"] = pos_err
    return d


def decision(choice, player=None):
    d = {"kind": "decision", "choice": choice}
    if player:
        d["player"] = player
    return d


def lag(before=None, after=None, events=(), pos_err=None):
    d = {"kind": "lag", "before": before or {"left": [300.0, 400.0], "right": [300.0, 870.0]},
         "after": after or {"left": [95.0, 410.0], "right": [140.0, 860.0]}, "events": list(events)}
    if pos_err:
        d["pos_err"] = pos_err
    return d


def rule(h, *entries):
    """Rule a log through the JSON contract (each entry validated as a reader would); returns the
    rulings as contract dicts, and the final state."""
    hdr = parse_header(json.loads(json.dumps(h)))
    st = new_game(hdr)
    out = []
    clock = 0.0
    for i, e in enumerate(entries, start=2):
        if e.get("kind") == "shot":
            if e.get("t0") is None:
                e = {**e, "t0": clock}
            end = max((ev["t"] for ev in e["events"]), default=0.0)
            clock = e["t0"] + end + 1.0
        r, st = step(st, parse_entry(json.loads(json.dumps(e)), hdr), line=i)
        if r is not None:
            out.append(r.to_dict())
    return out, st


def rule_one(h, *entries):
    """The last ruling of a log."""
    return rule(h, *entries)[0][-1]


def codes(ruling):
    return [f["code"] for f in ruling["fouls"]]


def penalised(ruling):
    return next((f for f in ruling["fouls"] if f["penalised"]), None)


# A few standard positions: a nine-ball rack (apex 1 on... the 9 on the foot spot, WPA 5.2).
def nine_rack():
    from cueref.table import Table, rack_positions
    rows = rack_positions(Table(), [1, 2, 3, 2, 1])
    pts = [p for row in rows for p in row]
    # 1 at the apex, 9 in the middle (the foot spot is the apex here; close enough for tests).
    order = ["1", "2", "3", "4", "9", "5", "6", "7", "8"]
    return dict(zip(order, pts))


def broken(position, extra="8", pocket="foot-left", t0=None):
    """A legal break that pockets `extra` (called, for 14.1) and leaves `position`; the breaker,
    A by default, continues."""
    before = {**{k: v for k, v in position.items() if k != "cue"}, extra: (2300.0, 200.0), "cue": (300.0, 600.0)}
    objs = sorted((b for b in before if b != "cue"), key=int)
    evs = [strike(), hit(0.3, objs[0]), pot(0.9, extra, pocket), stop(4.0)]
    return shot(before, evs, after=dict(position), t0=t0, called={"ball": extra, "pocket": pocket})


def play(h, position, *entries, extra="8"):
    """Rule `entries` after a legal break by A that left `position`; returns their rulings."""
    return rule(h, broken(position, extra), *entries)[0][1:]


def play_one(h, position, *entries, extra="8"):
    return play(h, position, *entries, extra=extra)[-1]


def rack_spots() -> list[tuple[float, float]]:
    """The 15 frozen-ball positions of a triangle with its apex on the foot spot, row by row —
    computed here from the geometry, not by the engine."""
    out = []
    for i, n in enumerate([1, 2, 3, 4, 5]):
        for j in range(n):
            out.append((FOOT_SPOT[0] + i * ROW_DX, FOOT_SPOT[1] + (j - (n - 1) / 2) * D))
    return out


def full_rack() -> dict[str, tuple[float, float]]:
    """Balls 1–15 in order on `rack_spots` (the 1 at the apex: VN 80)."""
    return {str(n): p for n, p in zip(range(1, 16), rack_spots())}
