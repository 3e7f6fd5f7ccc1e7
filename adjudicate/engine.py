"""The pure core: (state, entry) → (ruling, new state). No I/O, no globals that change.

    state = new_game(header)
    for entry in entries:
        ruling, state = step(state, entry)

Review, live and second opinion all call `step`; `cueref adjudicate` is a loop around it.
An entry that cannot be ruled in the current state (a decision nobody was offered, a shot
before the lag that must decide the breaker) raises `RecordError` naming the field.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Iterator

from adjudicate.facts import read_shot
from adjudicate.games import GAMES
from adjudicate.games.base import KITCHEN, apply_effect
from adjudicate.lag import rule_lag
from adjudicate.model import Effect, GameState, LagRuling, Pending, Ruling
from cueref.records import OBJECT_BALLS, Decision, Header, LagRecord, RecordError, ShotRecord


def new_game(header: Header) -> GameState:
    game = GAMES[header.game]
    zero = {p: 0 for p in header.players}
    st = GameState(header=header, phase="lag", shooter=None, breaker=None, score=zero, racks=dict(zero),
                   fouls_in_row=dict(zero))
    if header.start is not None:
        # A log that begins mid-rack: nothing is known of the table until the first shot.
        s = header.start
        st = game.start_rack(st, header.breaker or s.shooter)
        return replace(st, phase="play", shooter=s.shooter, cue_ball=s.cue_ball,
                       push_out_allowed=s.push_out_allowed, groups=s.groups)
    if header.breaker is None:
        return st  # a lag must decide who breaks
    return game.start_rack(st, header.breaker)


def step(state: GameState, entry: ShotRecord | LagRecord | Decision, line: int | None = None):
    """Rule one game-log entry. Returns (ruling or None for a decision, new state)."""
    if isinstance(entry, Decision):
        return None, decide(state, entry)
    if isinstance(entry, LagRecord):
        return _lag(state, entry, line)
    return _shot(state, entry, line)


def decide(state: GameState, d: Decision) -> GameState:
    p = state.pending
    if p is None:
        raise RecordError("choice", f"no choice is open here: the last ruling offered none (got {d.choice!r})")
    if d.choice not in p.effects:
        raise RecordError("choice", f"{d.choice!r} is not an option here; the options are {', '.join(p.options)}")
    if d.player is not None and d.player != p.decider:
        raise RecordError("player", f"the choice is {p.decider}'s to make, not {d.player}'s")
    return apply_effect(state, p.effects[d.choice])


def _lag(state: GameState, lag: LagRecord, line: int | None):
    if state.shots > 0:
        raise RecordError("kind", "a lag is only allowed before the first shot of the game")
    players = lag.players or {"left": state.players[0], "right": state.players[1]}
    ruling = rule_lag(lag, state.header.table, players)
    lags = state.lags + 1
    if ruling.winner is None:
        if state.header.breaker is not None:
            # The header names the breaker: a lag in the log is ruled, and a re-lag leaves the
            # break to the one named (a camera that missed the replayed lag).
            return replace(ruling, line=line), replace(state, lags=lags, pending=None)
        return replace(ruling, line=line), replace(state, phase="lag", lags=lags, pending=None)
    win = players[ruling.winner]
    lose = state.opponent(win)
    effects = {"break": Effect(win, KITCHEN, phase="break", describe=f"{win} breaks"),
               "pass": Effect(lose, KITCHEN, phase="break", describe=f"{lose} breaks")}
    pending = Pending(win, effects, default="break", reason="the lag winner chooses who breaks (WPA 1.2)")
    game = GAMES[state.header.game]
    new = replace(game.start_rack(state, win), lags=lags, pending=pending)
    return replace(ruling, pending=pending, line=line), new


def _shot(state: GameState, shot: ShotRecord, line: int | None):
    notes = []
    if state.phase == "lag":
        what = "the last lag must be replayed" if state.lags else "the header names no breaker"
        raise RecordError("kind", f"expected a lag record: {what}")
    if state.pending is not None:
        p = state.pending
        notes.append(f"no decision logged: {p.decider} took the default, {p.default}")
        state = apply_effect(state, p.effects[p.default])
    warnings = _check_balls(state, shot)
    if shot.declared.break_ is not None and shot.declared.break_ != (state.phase == "break"):
        expected = "a break" if state.phase == "break" else "not a break"
        raise RecordError("declared.break", f"this shot is {expected} by the game so far "
                                            f"(rack {state.rack}, shot {state.shots_in_rack + 1} of the rack)")
    game = GAMES[state.header.game]
    ruling, new = game.rule(state, shot, read_shot(shot))
    if ruling.rack_over is None:
        offer = game.offer_nearest_ball_spot(new, ruling.next, ruling.pending)
        if offer is not None:
            ruling, new = replace(ruling, pending=offer), replace(new, pending=offer)
    if notes or warnings:
        ruling = replace(ruling, notes=tuple(notes) + ruling.notes, warnings=tuple(warnings))
    return replace(ruling, line=line), new


def _check_balls(state: GameState, shot: ShotRecord) -> list[str]:
    """Continuity between shots: a break starts from the full rack, every other shot from the
    last shot's `after` with the spotted balls back. The record is what the camera saw, so it is
    ruled as it stands; a ball that reappears or vanishes between shots is reported in the
    ruling's `warnings` (a tracking fault, or a ball moved off camera) rather than stopping a
    live game."""
    got = {b for b in shot.before if b != "cue"}
    if state.phase == "break" and not state.table:
        full = {str(n) for n in range(1, OBJECT_BALLS[state.header.game] + 1)}
        missing = sorted(full - got, key=int)
        return [f"the break starts without ball(s) {', '.join(missing)} of the full rack"] if missing else []
    if not state.table:
        return []  # a log that starts mid-rack: the first shot tells what is on the table
    expected = {b for b in state.table if b != "cue"}
    out = []
    back = sorted(got - expected, key=int)
    if back:
        out.append(f"ball(s) {', '.join(back)} are in 'before' but left the table earlier and were not spotted")
    gone = sorted(expected - got, key=int)
    if gone:
        out.append(f"ball(s) {', '.join(gone)} were on the table but are missing from 'before'")
    return out


def run(header: Header, entries: Iterable) -> Iterator[Ruling | LagRuling]:
    """Rule a whole log body (already parsed); yields one ruling per lag or shot."""
    st = new_game(header)
    for entry in entries:
        ruling, st = step(st, entry)
        if ruling is not None:
            yield ruling
