"""Domain objects of the rules engine: fouls, rulings, the incoming player's options, game state.

All frozen: a ruling never changes after it is made, and a new state is a new object, so the
same function serves a replayed log, the live referee and a second opinion.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from cueref.records import Header
from cueref.table import Point

# Which foul is "the most serious" (WPA 3: only one foul of a shot is penalised). Game-ending
# outcomes first, then the break, then cue-ball fouls (in 14.1 and VN they change where the cue
# ball goes), then the rest in the order they happened.
SEVERITY = {
    "eight_ball_loss": 100,
    "consecutive_fouls": 90,
    "illegal_break": 50,
    "cue_ball_pocketed": 40,
    "cue_ball_off_table": 40,
    "object_ball_off_table": 20,
}


@dataclass(frozen=True)
class Foul:
    code: str
    rule: str
    t: float | None
    why: str
    penalised: bool = False

    def to_dict(self) -> dict:
        d = {"code": self.code, "rule": self.rule, "t": _r(self.t, 3), "why": self.why}
        d["penalised"] = self.penalised
        return d


def mark_penalised(fouls: list[Foul], demote: frozenset = frozenset()) -> list[Foul]:
    """Flag the single foul that carries the penalty (the most serious, then the earliest);
    codes in `demote` rank below every other (an eight-ball illegal break is not a foul, 4.3 d)."""
    if not fouls:
        return []
    order = sorted(range(len(fouls)), key=lambda i: (-(0 if fouls[i].code in demote else SEVERITY.get(fouls[i].code, 10)),
                                                      fouls[i].t if fouls[i].t is not None else 1e9, i))
    top = order[0]
    return [replace(f, penalised=(i == top)) for i, f in enumerate(fouls)]


@dataclass(frozen=True)
class Effect:
    """What one choice of the incoming player (or the default) does to the game."""
    shooter: str
    cue_ball: str  # in_place | in_hand_anywhere | in_hand_kitchen
    phase: str = "play"  # "break" when the choice leads to a (re-)break
    place: Mapping[str, Point] = field(default_factory=dict)  # balls moved to these points
    push_out_allowed: bool = False
    rerack: bool = False  # re-rack all balls of the rack before the break
    forgive: str | None = None  # this player's last foul is withdrawn (VN 93 replay)
    describe: str = ""

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"shooter": self.shooter, "cue_ball": self.cue_ball}
        if self.phase == "break":
            d["break"] = True
        if self.rerack:
            d["rerack"] = True
        if self.place:
            d["spotted_at"] = {k: _pt(v) for k, v in self.place.items()}
        if self.push_out_allowed:
            d["push_out_allowed"] = True
        if self.describe:
            d["what"] = self.describe
        return d


@dataclass(frozen=True)
class Pending:
    """A choice the rules give someone before the next shot, with what each option does."""
    decider: str
    effects: Mapping[str, Effect]
    default: str
    reason: str = ""

    @property
    def options(self) -> tuple[str, ...]:
        return tuple(self.effects)


@dataclass(frozen=True)
class Ruling:
    shot: int
    rack: int
    shooter: str
    legal: bool
    fouls: tuple[Foul, ...]
    pocketed: tuple[str, ...]
    off_table: tuple[str, ...]
    spotted: tuple[str, ...]
    spotted_at: Mapping[str, Point]
    score: Mapping[str, int]
    racks: Mapping[str, int]
    next: Effect
    pending: Pending | None
    rack_over: dict | None
    is_break: bool = False
    push_out: bool = False
    points: int = 0  # points this shot changed the shooter's score by (14.1, rotation-61)
    reracked: tuple[str, ...] = ()
    warning: str | None = None
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()  # the record disagrees with the game so far (engine._check_balls)
    line: int | None = None

    def to_dict(self) -> dict:
        # `next` is what happens unless someone chooses otherwise: the only outcome, or the default.
        nxt: dict[str, Any] = self.next.to_dict()
        nxt["options"] = list(self.pending.options) if self.pending else []
        if self.pending:
            nxt["decider"] = self.pending.decider
            nxt["default"] = self.pending.default
            nxt["effects"] = {k: v.to_dict() for k, v in self.pending.effects.items()}
        if self.warning:
            nxt["warning"] = self.warning
        d: dict[str, Any] = {
            "shot": self.shot, "shooter": self.shooter, "legal": self.legal,
            "fouls": [f.to_dict() for f in self.fouls],
            "pocketed": list(self.pocketed), "spotted": list(self.spotted),
            "score": dict(self.score), "next": nxt, "rack_over": self.rack_over,
            # fields added to the contract:
            "rack": self.rack, "break": self.is_break, "push_out": self.push_out,
            "off_table": list(self.off_table),
            "spotted_at": {k: _pt(v) for k, v in self.spotted_at.items()},
            "racks": dict(self.racks), "points": self.points,
        }
        if self.reracked:
            d["reracked"] = list(self.reracked)
        if self.notes:
            d["notes"] = list(self.notes)
        if self.warnings:
            d["warnings"] = list(self.warnings)
        if self.line is not None:
            d["line"] = self.line
        return d


@dataclass(frozen=True)
class LagRuling:
    winner: str | None
    relag: bool
    reasons: tuple[str, ...]
    disqualified: Mapping[str, tuple[str, ...]]
    distance_mm: Mapping[str, float | None]
    why: tuple[str, ...]
    players: Mapping[str, str]
    pending: Pending | None
    line: int | None = None

    def to_dict(self) -> dict:
        d: dict[str, Any] = {
            "lag": True, "winner": self.winner, "relag": self.relag,
            "disqualified": {k: list(v) for k, v in self.disqualified.items()},
            "distance_mm": {k: _r(v, 1) for k, v in self.distance_mm.items()},
            # added fields:
            "relag_reasons": list(self.reasons),
            "winner_player": self.players.get(self.winner) if self.winner else None,
            "players": dict(self.players),
            "why": list(self.why),
        }
        if self.pending:
            d["next"] = {"decider": self.pending.decider, "options": list(self.pending.options),
                         "default": self.pending.default,
                         "effects": {k: v.to_dict() for k, v in self.pending.effects.items()}}
        if self.line is not None:
            d["line"] = self.line
        return d


@dataclass(frozen=True)
class GameState:
    header: Header
    phase: str  # "lag" (a lag must decide the breaker), "break", "play"
    shooter: str | None
    breaker: str | None  # who broke (or breaks) the current rack
    rack: int = 1
    shots: int = 0
    shots_in_rack: int = 0
    cue_ball: str = "in_hand_kitchen"
    table: Mapping[str, Point] = field(default_factory=dict)  # after the last shot, spots applied
    score: Mapping[str, int] = field(default_factory=dict)
    racks: Mapping[str, int] = field(default_factory=dict)
    fouls_in_row: Mapping[str, int] = field(default_factory=dict)
    pending: Pending | None = None
    last_stop: tuple[float, float] | None = None  # media time and its uncertainty
    extensions_used: frozenset = frozenset()
    push_out_allowed: bool = False
    after_break: bool = False  # the previous shot was the break (Reg 18 shot clock)
    groups: Mapping[str, str] | None = None  # eight-ball: player -> "solids" | "stripes"
    last_pocketer: str | None = None  # rotation-61: who pocketed the last ball (VN 79)
    lags: int = 0

    @property
    def players(self) -> tuple[str, str]:
        return self.header.players

    def opponent(self, player: str) -> str:
        a, b = self.header.players
        return b if player == a else a


def _r(v: float | None, nd: int) -> float | None:
    return None if v is None else round(float(v), nd)


def _pt(p: Point) -> list[float]:
    return [round(float(p[0]), 1), round(float(p[1]), 1)]
