"""What the five games share: rack bookkeeping, consecutive fouls, spotting, ruling assembly.

A game module subclasses `Game` and implements `rule(state, shot, facts) -> (Ruling, state)`;
everything it needs that another game also needs is a method here.
"""
from __future__ import annotations

from dataclasses import replace

from adjudicate.facts import ShotFacts
from adjudicate.fouls import WPA_ARTICLES, FoulRules, general_fouls, shot_clock_foul
from adjudicate.model import Effect, Foul, GameState, Pending, Ruling, mark_penalised
from adjudicate.spotting import spot_wpa
from cueref.records import Call, ShotRecord
from cueref.table import Point

KITCHEN, ANYWHERE, IN_PLACE = "in_hand_kitchen", "in_hand_anywhere", "in_place"


class Game:
    name = ""
    articles: dict[str, str] = WPA_ARTICLES
    scored_by_racks = True  # score = racks won (WPA 1.3); else points within a rack/game
    consecutive_limit: int | None = 3  # WPA 3.13; None where the game has no such loss
    consecutive_rule = "WPA 3.13"
    kitchen_play: str | None = "wpa"  # WPA 3.11 applies (not listed in nine- and ten-ball)

    nearest_ball_spot = True  # WPA 1.6 (the Vietnamese rules have their own, VN 86)

    # --- the game's own rules -------------------------------------------------------------------
    def rule(self, st: GameState, shot: ShotRecord, f: ShotFacts) -> tuple[Ruling, GameState]:
        raise NotImplementedError

    def legal_balls(self, st: GameState, player: str, on_table: set[str]) -> set[str]:
        """The object balls `player` may play (WPA 1.6 "legal object ball"); any by default."""
        return set(on_table)

    # --- shared machinery ------------------------------------------------------------------------
    def offer_nearest_ball_spot(self, new: GameState, nxt: Effect, pending: Pending | None) -> Pending | None:
        """WPA 1.6: with ball in hand behind the head string and every object ball behind it too,
        the player may have the legal ball nearest the head string spotted (1.5). Returns the
        choice to offer, or None when 1.6 does not arise."""
        if not self.nearest_ball_spot or nxt.cue_ball != KITCHEN or nxt.phase == "break":
            return None
        table = {**new.table, **nxt.place}
        objs = {b for b in table if b != "cue"}
        hs = new.header.table
        if not objs or any(not hs.in_kitchen(table[b]) for b in objs):
            return None
        legal = self.legal_balls(new, nxt.shooter, objs)
        if not legal:
            return None
        # Nearest the head string; between equals the player may choose (we take the lowest).
        ball = min(legal, key=lambda b: (-table[b][0], int(b)))
        occupied = {b: p for b, p in table.items() if b not in ("cue", ball)}
        spot = self.spot(new, occupied, [ball])
        eff = Effect(nxt.shooter, KITCHEN, place={**nxt.place, **spot},
                     describe=f"the {ball} spotted on the foot spot (WPA 1.6); cue ball in hand behind the head string")
        if pending is not None:
            return Pending(pending.decider, {**pending.effects, "spot_nearest_ball": eff}, pending.default,
                           pending.reason)
        return Pending(nxt.shooter, {"ball_in_hand_kitchen": nxt, "spot_nearest_ball": eff},
                       default="ball_in_hand_kitchen", reason="every object ball is behind the head string (WPA 1.6)")


    def start_rack(self, st: GameState, breaker: str) -> GameState:
        """State at the start of a rack: breaker to break from the kitchen, counters cleared."""
        zero = {p: 0 for p in st.players}
        return replace(
            st, phase="break", shooter=breaker, breaker=breaker, shots_in_rack=0,
            cue_ball=KITCHEN, table={}, fouls_in_row=zero, pending=None,
            extensions_used=frozenset(), push_out_allowed=False, after_break=False, groups=None,
            last_pocketer=None, last_stop=None,
            score=dict(st.racks) if self.scored_by_racks else zero,
        )

    def fouls(self, st: GameState, shot: ShotRecord, f: ShotFacts, fr: FoulRules) -> tuple[list[Foul], bool, list[str]]:
        """General fouls plus the shot clock. Returns (fouls, extension used, notes)."""
        out = general_fouls(st, shot, f, fr)
        clock, used, note = shot_clock_foul(st, shot, fr.articles)
        if clock:
            out.append(clock)
        notes = [note] if note else []
        ov = shot.override
        if ov is not None:
            # WPA 1.11: the referee's reconsidered decision is final; the camera's call yields.
            out = self.waived(shot, out)
            if ov.foul is not None and all(x.code != ov.foul for x in out):
                out.append(Foul(ov.foul, fr.articles.get(ov.foul, "WPA 1.11"), None,
                                f"called by the referee: {ov.reason}"))
            notes.append(f"referee override (WPA 1.11): {ov.reason}")
        return out, used, notes

    @staticmethod
    def waived(shot: ShotRecord, fouls: list[Foul]) -> list[Foul]:
        """The fouls left once those the referee overruled are taken out."""
        ov = shot.override
        return fouls if ov is None else [x for x in fouls if x.code not in ov.waive]

    def foul_rules(self, st: GameState, shot: ShotRecord, **kw) -> FoulRules:
        return FoulRules(articles=dict(self.articles), kitchen=(st.cue_ball == KITCHEN),
                         kitchen_play=self.kitchen_play, **kw)

    def count_fouls(self, st: GameState, shooter: str, fouled: bool) -> dict[str, int]:
        counts = dict(st.fouls_in_row)
        counts[shooter] = counts.get(shooter, 0) + 1 if fouled else 0
        return counts

    def consecutive_warning(self, counts: dict[str, int], incoming: str) -> str | None:
        """The warning a player gets on arriving at the table one foul short of the loss."""
        if self.consecutive_limit and counts.get(incoming, 0) == self.consecutive_limit - 1:
            return (f"{incoming} is on {self.consecutive_limit - 1} consecutive fouls: another foul "
                    f"loses the rack ({self.consecutive_rule})")
        return None

    def spot(self, st: GameState, occupied: dict[str, Point], balls: list[str]) -> dict[str, Point]:
        return spot_wpa(st.header.table, occupied, balls)

    def next_breaker(self, st: GameState, winner: str | None) -> str:
        if st.header.rules.break_order == "winner" and winner:
            return winner
        return st.opponent(st.breaker)  # WPA 1.3: breaks alternate

    def end_rack(self, st: GameState, winner: str | None, reason: str,
                 breaker: str | None = None) -> tuple[dict, GameState]:
        racks = dict(st.racks)
        if winner:
            racks[winner] = racks.get(winner, 0) + 1
        nb = breaker or self.next_breaker(st, winner)
        new = self.start_rack(replace(st, racks=racks, rack=st.rack + 1), nb)
        return {"winner": winner, "reason": reason}, new

    @staticmethod
    def assumed_call(shot: ShotRecord, f: ShotFacts, eligible, notes: list[str]) -> Call | None:
        """The call, or without a logged one, the shot taken as called the way it went: the first
        eligible object ball pocketed, in the pocket it entered (the benefit of the doubt)."""
        if shot.declared.called is not None:
            return shot.declared.called
        first = next((e for e in f.pocketed if e.ball != "cue" and (eligible is None or e.ball in eligible)), None)
        if first is None:
            return None
        notes.append(f"no call logged: taken as the {first.ball} called in the {first.pocket} pocket")
        return Call(first.ball, first.pocket)

    @staticmethod
    def called_made(call: Call | None, f: ShotFacts) -> bool:
        return (call is not None and call.ball in f.object_pocketed
                and (call.pocket is None or f.pocket_of(call.ball) == call.pocket))

    def consecutive_loss(self, counts: dict[str, int], shooter: str, fouled: bool) -> bool:
        return bool(fouled and self.consecutive_limit and counts.get(shooter, 0) >= self.consecutive_limit)

    def ruling(self, st: GameState, shot: ShotRecord, f: ShotFacts, *, fouls: list[Foul],
               new: GameState, nxt: Effect, pending: Pending | None = None,
               rack_over: dict | None = None, spotted_at: dict | None = None, points: int = 0,
               notes: list[str] = (), push_out: bool = False,
               reracked: tuple[str, ...] = (), score=None, demote: frozenset = frozenset()) -> Ruling:
        fouls = mark_penalised(fouls, demote)
        pending = real_choice(pending)
        spotted_at = spotted_at or {}
        # 3.13 / Reg 8: the player arriving at the table one foul short of the loss is warned.
        warning = None if rack_over else self.consecutive_warning(new.fouls_in_row, nxt.shooter)
        return Ruling(
            shot=st.shots + 1, rack=st.rack, shooter=st.shooter, legal=not fouls,
            fouls=tuple(fouls), pocketed=f.object_pocketed, off_table=f.object_off_table,
            spotted=tuple(spotted_at), spotted_at=spotted_at,
            score=dict(score if score is not None else (new.racks if self.scored_by_racks else new.score)),
            racks=dict(new.racks), next=nxt, pending=pending, rack_over=rack_over,
            is_break=st.phase == "break", push_out=push_out, points=points, reracked=reracked,
            warning=warning, notes=tuple(n for n in notes if n),
        )

    @staticmethod
    def table_after(shot: ShotRecord, spotted_at: dict[str, Point]) -> dict[str, Point]:
        t = dict(shot.after)
        t.update(spotted_at)
        return t

    def advance(self, st: GameState, shot: ShotRecord, f: ShotFacts, **changes) -> GameState:
        """The state after a shot that did not end the rack."""
        stop = f.stop
        last_stop = (shot.t0 + stop.t, stop.t_err) if stop else None
        base = dict(shots=st.shots + 1, shots_in_rack=st.shots_in_rack + 1, last_stop=last_stop,
                    after_break=st.phase == "break", phase="play")
        base.update(changes)
        return replace(st, **base)


def ball_in_hand_options(st: GameState, incoming: str, cue_on_table: bool, why: str) -> tuple[Effect, Pending | None]:
    """After a foul with ball in hand anywhere: the incoming player places the cue ball (or, when
    it is still on the table, may leave it where it lies)."""
    bih = Effect(incoming, ANYWHERE, describe="cue ball in hand anywhere on the table")
    if not cue_on_table:
        return bih, None
    return bih, Pending(incoming, {"ball_in_hand_anywhere": bih,
                                   "accept_table": Effect(incoming, IN_PLACE, describe="play the cue ball where it lies")},
                        default="ball_in_hand_anywhere", reason=why)


def apply_effect(st: GameState, eff: Effect) -> GameState:
    """The state once a choice (or the default) is carried out."""
    table = dict(st.table)
    table.update(eff.place)
    changes = dict(shooter=eff.shooter, cue_ball=eff.cue_ball, push_out_allowed=eff.push_out_allowed,
                   pending=None, table=table)
    if eff.forgive:
        counts = dict(st.fouls_in_row)
        counts[eff.forgive] = max(0, counts.get(eff.forgive, 0) - 1)
        changes["fouls_in_row"] = counts
    if eff.phase == "break":
        # A re-break (re-racked or not) starts the rack again with the chosen breaker.
        changes.update(phase="break", breaker=eff.shooter, cue_ball=KITCHEN, shots_in_rack=0,
                       groups=None, last_stop=None, after_break=False)
        if eff.rerack:
            changes["table"] = {}
    return replace(st, **changes)


def settle(st: GameState, nxt: Effect, pending: Pending | None) -> GameState:
    """After a shot that did not end the rack: carry out the only outcome, or leave the choice
    open (the state stays as the shot left it until a decision, or the default when the next
    shot arrives, is carried out)."""
    pending = real_choice(pending)
    return apply_effect(st, nxt) if pending is None else replace(st, pending=pending)


def real_choice(pending: Pending | None) -> Pending | None:
    """A 'choice' of one option is no choice: it is carried out, not offered."""
    return pending if pending is not None and len(pending.effects) > 1 else None
