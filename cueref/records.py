"""The interchange contract: game-log entries (header, lag, shot, decision) as typed objects.

`parse_entry` validates one decoded JSON object and says which field is wrong and why
(`RecordError`), so that every reader of a game log — `cueref adjudicate`, the live referee, the
replay of a review — refuses bad input the same way. Fields the contract does not name are
allowed on input (the contract may grow) and ignored unless listed here.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from cueref.table import LINES, POCKETS, RAILS, Point, Table

SCHEMA = "cueref/game-1"
GAMES = ("eight-ball", "nine-ball", "ten-ball", "straight-pool", "rotation-61")
OBJECT_BALLS = {
    "eight-ball": 15, "nine-ball": 9, "ten-ball": 10, "straight-pool": 15, "rotation-61": 15,
}
SHOT_BALLS = ("cue",) + tuple(str(n) for n in range(1, 16))
LAG_BALLS = ("left", "right")
# The contract's foul codes (SHOT-RECORD.md); a referee's override names them.
FOUL_CODES = (
    "cue_ball_pocketed", "cue_ball_off_table", "wrong_ball_first", "no_contact", "no_rail",
    "object_ball_off_table", "ball_disturbed", "double_hit", "balls_moving", "bad_cue_ball_placement",
    "bad_play_from_kitchen", "shot_clock", "illegal_break", "consecutive_fouls", "eight_ball_loss",
)
# The fouls a referee may add to what the camera saw (WPA 3's general list: what a camera can miss).
IMPOSABLE_FOULS = FOUL_CODES[:12]

EVENT_TYPES = (
    "strike", "collision", "cushion", "pocket", "off_table", "cross", "airborne", "disturbed", "stop",
)
CHOICES = (
    "accept_table", "pass", "break", "ball_in_hand_kitchen", "ball_in_hand_anywhere",
    "spot_lowest_ball", "spot_eight", "rerack", "rebreak", "replay",
    "spot_nearest_ball",
)


class RecordError(ValueError):
    """A game-log entry that breaks the contract: `field` is a dotted path into the entry."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Rules:
    three_ball_break: bool = False  # WPA Reg 16, nine-ball only
    shot_clock_s: float | None = None  # WPA 3.14 / Reg 18; None = no clock
    extension_s: float = 25.0  # one per player per rack (Reg 18)
    after_break_s: float | None = None  # the shot after the break: longer, at most 60 s (Reg 18)
    target_score: int | None = None  # straight-pool; rotation-61 is fixed at 61 (VN 79)
    break_order: str = "alternate"  # WPA 1.3 alternate breaks; "winner" = winner breaks


@dataclass(frozen=True)
class Start:
    """A log that begins mid-rack (a staged position, one disputed shot): who is to shoot and how."""
    shooter: str
    cue_ball: str = "in_place"
    push_out_allowed: bool = False
    groups: dict | None = None  # eight-ball: player -> "solids" | "stripes"


@dataclass(frozen=True)
class Header:
    game: str
    players: tuple[str, str]
    breaker: str | None
    table: Table
    rules: Rules
    start: Start | None = None


@dataclass(frozen=True)
class Event:
    t: float
    type: str
    ball: str | None = None
    balls: tuple[str, str] | None = None
    rail: str | None = None
    pocket: str | None = None
    line: str | None = None
    until: float | None = None
    t_err: float = 0.0
    # (Added field) a collision the path shows came after the contact of these two balls, whatever
    # the times' uncertainty: the cue ball reached this ball only off that one.
    follows: tuple[str, str] | None = None

    def involves(self, ball: str) -> bool:
        return self.ball == ball or (self.balls is not None and ball in self.balls)

    def other(self, ball: str) -> str | None:
        """For a collision involving `ball`, the other ball."""
        if self.balls is None or ball not in self.balls:
            return None
        return self.balls[1] if self.balls[0] == ball else self.balls[0]


@dataclass(frozen=True)
class Call:
    ball: str
    pocket: str | None = None


@dataclass(frozen=True)
class Declared:
    break_: bool | None = None
    push_out: bool = False
    safety: bool = False
    called: Call | None = None
    extension: bool = False  # the shooter called their shot-clock extension (Reg 18)


@dataclass(frozen=True)
class Override:
    """The referee's word on a call, after reconsidering it (WPA 1.11): fouls the camera saw that
    did not happen (`waive`), or one it missed (`foul`), with the reason (added field)."""
    reason: str
    waive: tuple[str, ...] = ()
    foul: str | None = None


@dataclass(frozen=True)
class ShotRecord:
    t0: float
    before: dict[str, Point]
    after: dict[str, Point]
    events: tuple[Event, ...]
    declared: Declared = Declared()
    evidence: dict | None = None
    pos_err: dict[str, float] = field(default_factory=dict)  # mm, per ball (added field)
    override: Override | None = None  # added field
    kind: str = "shot"

    def stop(self) -> Event | None:
        return next((e for e in self.events if e.type == "stop"), None)


@dataclass(frozen=True)
class LagRecord:
    before: dict[str, Point]
    after: dict[str, Point]
    events: tuple[Event, ...]
    players: dict[str, str] | None = None  # lag ball -> player (added field)
    pos_err: dict[str, float] = field(default_factory=dict)
    t0: float | None = None
    kind: str = "lag"


@dataclass(frozen=True)
class Decision:
    choice: str
    player: str | None = None
    kind: str = "decision"


Entry = Header | ShotRecord | LagRecord | Decision


# --- reading helpers ------------------------------------------------------------------------------

def _type_name(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(v), type(v).__name__)


def _number(v: Any, path: str, *, minimum: float | None = None) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise RecordError(path, f"expected a finite number, got {json.dumps(v)}")
    if minimum is not None and v < minimum:
        raise RecordError(path, f"expected a number >= {minimum:g}, got {v!r}")
    return float(v)


def _bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        raise RecordError(path, f"expected true or false, got {json.dumps(v)}")
    return v


def _str(v: Any, path: str, choices: tuple[str, ...] | None = None) -> str:
    if not isinstance(v, str):
        raise RecordError(path, f"expected a string, got {_type_name(v)}")
    if choices is not None and v not in choices:
        raise RecordError(path, f"expected one of {', '.join(choices)}; got {v!r}")
    return v


def _obj(v: Any, path: str) -> dict:
    if not isinstance(v, dict):
        raise RecordError(path, f"expected an object, got {_type_name(v)}")
    return v


def _req(obj: dict, key: str, path: str) -> Any:
    if key not in obj:
        raise RecordError(f"{path}{key}", "missing (required)")
    return obj[key]


def _positions(v: Any, path: str, names: tuple[str, ...], table: Table) -> dict[str, Point]:
    obj = _obj(v, path)
    out: dict[str, Point] = {}
    slack = table.ball_diameter_mm  # a ball in the jaws may sit beyond the nose line
    for name, xy in obj.items():
        p = f"{path}.{name}"
        if name not in names:
            raise RecordError(p, f"unknown ball {name!r}; expected one of {', '.join(names)}")
        if not isinstance(xy, list) or len(xy) != 2:
            raise RecordError(p, f"expected [x, y] in millimetres, got {json.dumps(xy)}")
        x = _number(xy[0], f"{p}[0]")
        y = _number(xy[1], f"{p}[1]")
        if not (-slack <= x <= table.length_mm + slack and -slack <= y <= table.width_mm + slack):
            raise RecordError(
                p, f"[{x:g}, {y:g}] is off the {table.length_mm:g} x {table.width_mm:g} mm table"
            )
        out[name] = (x, y)
    return out


def _event(v: Any, path: str, names: tuple[str, ...], before: dict[str, Point]) -> Event:
    e = _obj(v, path)
    kind = _str(_req(e, "type", path + "."), f"{path}.type", EVENT_TYPES)
    t = _number(_req(e, "t", path + "."), f"{path}.t", minimum=0.0 if kind != "strike" else None)
    t_err = _number(e.get("t_err", 0.0), f"{path}.t_err", minimum=0.0)

    def ball_field(key: str = "ball") -> str:
        b = _str(_req(e, key, path + "."), f"{path}.{key}", names)
        if b not in before:
            raise RecordError(f"{path}.{key}", f"ball {b!r} is not on the table (absent from 'before')")
        return b

    kw: dict[str, Any] = {}
    if kind in ("strike", "cushion", "pocket", "off_table", "cross", "airborne", "disturbed"):
        kw["ball"] = ball_field()
    if kind == "collision":
        pair = _req(e, "balls", path + ".")
        if not isinstance(pair, list) or len(pair) != 2:
            raise RecordError(f"{path}.balls", f"expected a list of two balls, got {json.dumps(pair)}")
        a = _str(pair[0], f"{path}.balls[0]", names)
        b = _str(pair[1], f"{path}.balls[1]", names)
        if a == b:
            raise RecordError(f"{path}.balls", f"a ball cannot collide with itself ({a!r})")
        for i, x in enumerate((a, b)):
            if x not in before:
                raise RecordError(f"{path}.balls[{i}]", f"ball {x!r} is not on the table (absent from 'before')")
        kw["balls"] = (a, b)
        if "follows" in e:
            f = e["follows"]
            if not isinstance(f, list) or len(f) != 2 or f[0] == f[1]:
                raise RecordError(f"{path}.follows", f"expected a list of two balls, got {json.dumps(f)}")
            for i, x in enumerate(f):
                _str(x, f"{path}.follows[{i}]", names)
                if x not in before:
                    raise RecordError(f"{path}.follows[{i}]", f"ball {x!r} is not on the table (absent from 'before')")
            kw["follows"] = (f[0], f[1])
    if kind == "cushion":
        kw["rail"] = _str(_req(e, "rail", path + "."), f"{path}.rail", RAILS)
    if kind == "pocket":
        kw["pocket"] = _str(_req(e, "pocket", path + "."), f"{path}.pocket", POCKETS)
    if kind == "cross":
        kw["line"] = _str(_req(e, "line", path + "."), f"{path}.line", LINES)
    if kind == "airborne":
        kw["until"] = _number(_req(e, "until", path + "."), f"{path}.until")
        if kw["until"] < t:
            raise RecordError(f"{path}.until", f"ends ({kw['until']:g}) before it starts ({t:g})")
    return Event(t=t, type=kind, t_err=t_err, **kw)


def _events(v: Any, names, before, after) -> tuple[Event, ...]:
    if not isinstance(v, list):
        raise RecordError("events", f"expected a list, got {_type_name(v)}")
    evs = [_event(x, f"events[{i}]", names, before) for i, x in enumerate(v)]
    gone: dict[str, int] = {}
    for i, e in enumerate(evs):
        if e.type in ("pocket", "off_table"):
            if e.ball in gone:
                raise RecordError(f"events[{i}]", f"ball {e.ball!r} already left the table (events[{gone[e.ball]}])")
            gone[e.ball] = i
            if e.ball in after:
                raise RecordError(f"events[{i}]", f"ball {e.ball!r} is {e.type.replace('_', ' ')} but still in 'after'")
    for b in before:
        if b not in after and b not in gone:
            raise RecordError("after", f"ball {b!r} is missing from 'after' and no pocket or off_table event says where it went")
    for b in after:
        if b not in before:
            raise RecordError(f"after.{b}", f"ball {b!r} is in 'after' but not in 'before'")
    # Stable sort by time: readers may rely on chronological order.
    return tuple(sorted(evs, key=lambda e: e.t))


def _pos_err(v: Any, names, path="pos_err") -> dict[str, float]:
    if v is None:
        return {}
    obj = _obj(v, path)
    out = {}
    for k, x in obj.items():
        _str(k, f"{path}.{k}", names)
        out[k] = _number(x, f"{path}.{k}", minimum=0.0)
    return out


# --- entries --------------------------------------------------------------------------------------

def first_contact_event(rec: dict) -> dict | None:
    """The cue ball's first contact of a shot record as decoded JSON (a lag has none): its
    earliest collision that does not `follow` another of its collisions in the record. A
    contact the path shows came after another is not first however close their times; the
    adjudicator reads a shot the same way (`adjudicate/facts.py`), and so must the report's key
    frames and the benchmark."""
    if rec.get("kind", "shot") != "shot":
        return None
    hits = [e for e in rec.get("events", []) if e["type"] == "collision" and "cue" in e["balls"]]
    pairs = {frozenset(e["balls"]) for e in hits}
    first = [e for e in hits if not e.get("follows") or frozenset(e["follows"]) not in pairs] or hits
    return min(first, key=lambda e: e["t"]) if first else None


def new_header(game: str, table: Table, players=("A", "B"), breaker: str | None = None) -> dict:
    """A game log's header line (the breaker left out: the lag, or the first shot, decides)."""
    header = {"schema": SCHEMA, "game": game, "players": list(players),
              "table": {"length_mm": table.length_mm, "width_mm": table.width_mm,
                        "ball_diameter_mm": table.ball_diameter_mm}, "rules": {}}
    if game == "straight-pool":
        header["rules"]["target_score"] = 25
    if breaker:
        header["breaker"] = breaker
    return header


def parse_header(obj: Any) -> Header:
    h = _obj(obj, "header")
    schema = _req(h, "schema", "")
    if schema != SCHEMA:
        raise RecordError("schema", f"expected {SCHEMA!r}, got {json.dumps(schema)}")
    game = _str(_req(h, "game", ""), "game", GAMES)
    players = _req(h, "players", "")
    if (not isinstance(players, list) or len(players) != 2
            or not all(isinstance(p, str) and p for p in players) or players[0] == players[1]):
        raise RecordError("players", f"expected two different player names, got {json.dumps(players)}")
    breaker = h.get("breaker")
    if breaker is not None:
        _str(breaker, "breaker", tuple(players))
    t = _obj(h.get("table", {}), "table")
    table = Table(
        _number(t.get("length_mm", 2540.0), "table.length_mm", minimum=500.0),
        _number(t.get("width_mm", 1270.0), "table.width_mm", minimum=250.0),
        _number(t.get("ball_diameter_mm", 57.15), "table.ball_diameter_mm", minimum=10.0),
    )
    if table.width_mm >= table.length_mm:
        raise RecordError("table.width_mm", "expected the width to be less than the length")
    r = _obj(h.get("rules", {}) or {}, "rules")
    clock = r.get("shot_clock_s")
    target = r.get("target_score")
    if target is not None:
        target = _number(target, "rules.target_score", minimum=1)
        if target != int(target):
            raise RecordError("rules.target_score", f"expected a whole number, got {target!r}")
        target = int(target)
    rules = Rules(
        three_ball_break=_bool(r.get("three_ball_break", False), "rules.three_ball_break"),
        shot_clock_s=None if clock is None else _number(clock, "rules.shot_clock_s", minimum=1.0),
        extension_s=_number(r.get("extension_s", 25.0), "rules.extension_s", minimum=0.0),
        after_break_s=None if r.get("after_break_s") is None else _number(r["after_break_s"], "rules.after_break_s", minimum=1.0),
        target_score=target,
        break_order=_str(r.get("break_order", "alternate"), "rules.break_order", ("alternate", "winner")),
    )
    if rules.after_break_s is not None and rules.after_break_s > 60:
        raise RecordError("rules.after_break_s", f"the shot after the break may not be given more than 60 s (WPA Reg 18), got {rules.after_break_s:g}")
    if rules.three_ball_break and game != "nine-ball":
        raise RecordError("rules.three_ball_break", "the three-ball break rule (WPA Reg 16) is a nine-ball rule")
    start = None
    if h.get("start") is not None:
        s = _obj(h["start"], "start")
        groups = s.get("groups")
        if groups is not None:
            g = _obj(groups, "start.groups")
            if game != "eight-ball" or set(g) != set(players) or sorted(g.values()) != ["solids", "stripes"]:
                raise RecordError("start.groups", "eight-ball only: {player: 'solids' | 'stripes'} for both players")
            groups = dict(g)
        start = Start(shooter=_str(_req(s, "shooter", "start."), "start.shooter", tuple(players)),
                      cue_ball=_str(s.get("cue_ball", "in_place"), "start.cue_ball",
                                    ("in_place", "in_hand_anywhere", "in_hand_kitchen")),
                      push_out_allowed=_bool(s.get("push_out_allowed", False), "start.push_out_allowed"),
                      groups=groups)
    return Header(game=game, players=(players[0], players[1]), breaker=breaker, table=table, rules=rules,
                  start=start)


def _declared(v: Any, names) -> Declared:
    if v is None:
        return Declared()
    d = _obj(v, "declared")
    called = None
    if d.get("called") is not None:
        c = _obj(d["called"], "declared.called")
        ball = _str(_req(c, "ball", "declared.called."), "declared.called.ball", names)
        if ball == "cue":
            raise RecordError("declared.called.ball", "the cue ball cannot be called")
        pocket = c.get("pocket")
        if pocket is not None:
            pocket = _str(pocket, "declared.called.pocket", POCKETS)
        called = Call(ball, pocket)
    brk = d.get("break")
    return Declared(
        break_=None if brk is None else _bool(brk, "declared.break"),
        push_out=_bool(d.get("push_out", False), "declared.push_out"),
        safety=_bool(d.get("safety", False), "declared.safety"),
        called=called,
        extension=_bool(d.get("extension", False), "declared.extension"),
    )


def parse_shot(obj: dict, header: Header) -> ShotRecord:
    n = OBJECT_BALLS[header.game]
    names = ("cue",) + tuple(str(i) for i in range(1, n + 1))
    t0 = _number(_req(obj, "t0", ""), "t0", minimum=0.0)
    before = _positions(_req(obj, "before", ""), "before", names, header.table)
    if "cue" not in before:
        raise RecordError("before.cue", "the cue ball must be on the table when a shot is struck")
    after = _positions(_req(obj, "after", ""), "after", names, header.table)
    events = _events(_req(obj, "events", ""), names, before, after)
    declared = _declared(obj.get("declared"), names)
    evidence = obj.get("evidence")
    if evidence is not None:
        _obj(evidence, "evidence")
    return ShotRecord(t0=t0, before=before, after=after, events=events, declared=declared,
                      evidence=evidence, pos_err=_pos_err(obj.get("pos_err"), names),
                      override=_override(obj.get("override")))


def _override(v: Any) -> Override | None:
    if v is None:
        return None
    o = _obj(v, "override")
    reason = _str(_req(o, "reason", "override."), "override.reason")
    if not reason.strip():
        raise RecordError("override.reason", "an override needs a reason")
    waive = o.get("waive", [])
    if not isinstance(waive, list):
        raise RecordError("override.waive", f"expected a list of foul codes, got {_type_name(waive)}")
    waived = tuple(_str(c, f"override.waive[{i}]", FOUL_CODES) for i, c in enumerate(waive))
    foul = o.get("foul")
    if foul is not None:
        foul = _str(foul, "override.foul", IMPOSABLE_FOULS)
    if not waived and foul is None:
        raise RecordError("override", "an override waives a foul ('waive') or adds one ('foul')")
    return Override(reason, waived, foul)


def parse_lag(obj: dict, header: Header) -> LagRecord:
    before = _positions(_req(obj, "before", ""), "before", LAG_BALLS, header.table)
    for b in LAG_BALLS:
        if b not in before:
            raise RecordError(f"before.{b}", "a lag needs both balls, 'left' and 'right'")
    after = _positions(_req(obj, "after", ""), "after", LAG_BALLS, header.table)
    events = _events(_req(obj, "events", ""), LAG_BALLS, before, after)
    players = obj.get("players")
    if players is not None:
        p = _obj(players, "players")
        if set(p) != set(LAG_BALLS) or sorted(p.values()) != sorted(header.players):
            raise RecordError("players", f"expected {{'left': player, 'right': player}} naming {', '.join(header.players)} once each")
        players = dict(p)
    t0 = obj.get("t0")
    return LagRecord(before=before, after=after, events=events, players=players,
                     pos_err=_pos_err(obj.get("pos_err"), LAG_BALLS),
                     t0=None if t0 is None else _number(t0, "t0", minimum=0.0))


def parse_decision(obj: dict, header: Header) -> Decision:
    choice = _str(_req(obj, "choice", ""), "choice", CHOICES)
    player = obj.get("player")
    if player is not None:
        _str(player, "player", header.players)
    return Decision(choice=choice, player=player)


def parse_entry(obj: Any, header: Header) -> ShotRecord | LagRecord | Decision:
    o = _obj(obj, "entry")
    kind = _str(_req(o, "kind", ""), "kind", ("shot", "lag", "decision"))
    return {"shot": parse_shot, "lag": parse_lag, "decision": parse_decision}[kind](o, header)


def decode_line(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError("", f"not valid JSON ({exc.msg} at column {exc.colno})") from None
