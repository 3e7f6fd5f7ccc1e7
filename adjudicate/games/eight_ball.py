"""Eight-ball (WPA 4): groups, called shots, the break's options (4.3) and the losses of 4.8."""
from __future__ import annotations

from dataclasses import replace

from adjudicate.facts import ShotFacts
from adjudicate.games.base import IN_PLACE, KITCHEN, Game, ball_in_hand_options, settle
from adjudicate.model import Effect, Foul, GameState, Pending
from cueref.records import ShotRecord

SOLIDS = frozenset(str(n) for n in range(1, 8))
STRIPES = frozenset(str(n) for n in range(9, 16))
GROUP_BALLS = {"solids": SOLIDS, "stripes": STRIPES}


def group_of(ball: str) -> str | None:
    return "solids" if ball in SOLIDS else "stripes" if ball in STRIPES else None


class EightBall(Game):
    name = "eight-ball"
    consecutive_limit = None  # 3.13 does not apply in eight-ball (3.13, 4.9)

    def rule(self, st: GameState, shot: ShotRecord, f: ShotFacts):
        if st.phase == "break":
            return self._break(st, shot, f)
        shooter, opp = st.shooter, st.opponent(st.shooter)
        on_table = {b for b in shot.before if b != "cue"}
        own = (st.groups or {}).get(shooter)
        legal = self.legal_balls(st, shooter, on_table)
        on_eight = "8" in legal
        if own is None:
            text = "on an open table the 8 may not be hit first (WPA 4.4)"
        else:
            text = ("the shooter's group is cleared: the 8 must be hit first" if on_eight
                    else f"the shooter's group is the {own}")
        fr = self.foul_rules(st, shot, legal_first=frozenset(legal), legal_first_text=text)
        fouls, ext_used, notes = self.fouls(st, shot, f, fr)
        if own is None:
            # On an open table the only wrong first ball is the 8: 4.4 says so.
            fouls = [replace(x, rule="WPA 4.4") if x.code == "wrong_ball_first" else x for x in fouls]

        pocketed = list(f.object_pocketed)
        call = None if shot.declared.safety else self.assumed_call(shot, f, legal, notes)
        made = self.called_made(call, f) and call.ball in legal

        # 4.8 loss of game (never on the break).
        loss = None
        eight_in = "8" in pocketed
        if "8" in f.object_off_table:
            loss = "drove the 8 off the table (WPA 4.8 d)"
        elif eight_in and fouls:
            loss = "fouled while pocketing the 8 (WPA 4.8 a)"
        elif eight_in and not on_eight:
            loss = "pocketed the 8 before clearing the group (WPA 4.8 b)"
        elif eight_in and (shot.declared.safety or call is not None and (
                call.ball != "8" or (call.pocket and f.pocket_of("8") != call.pocket))):
            # A called safety calls no pocket: an 8 that drops on it went in uncalled.
            loss = f"pocketed the 8 in the {f.pocket_of('8')} pocket, which was not called (WPA 4.8 c)"
        if loss:
            fouls.append(Foul("eight_ball_loss", "WPA 4.8", next(e.t for e in f.pocketed + f.off_table if e.ball == "8"),
                              f"{shooter} {loss}"))
        extensions = st.extensions_used | ({shooter} if ext_used else set())
        groups = st.groups
        if own is None and made and not fouls and not shot.declared.safety and call.ball != "8":
            g = group_of(call.ball)
            groups = {shooter: g, opp: "stripes" if g == "solids" else "solids"}
            notes.append(f"{shooter} takes the {g} (WPA 4.4)")
        new = self.advance(st, shot, f, table=self.table_after(shot, {}),
                           extensions_used=frozenset(extensions), groups=groups)
        pending = None
        rack_over = None
        if loss:
            rack_over, new = self.end_rack(new, opp, f"{shooter} {loss}")
            nxt = Effect(new.shooter, new.cue_ball, phase="break")
        elif eight_in and made and not fouls:
            rack_over, new = self.end_rack(new, shooter, f"{shooter} pocketed the 8 in the called pocket (WPA 4.5)")
            nxt = Effect(new.shooter, new.cue_ball, phase="break")
        elif fouls:
            nxt, pending = ball_in_hand_options(new, opp, "cue" in shot.after, "foul (WPA 4.9)")
        elif made and not shot.declared.safety:
            nxt = Effect(shooter, IN_PLACE)
        else:
            if shot.declared.safety:
                notes.append("called safety: the turn passes, pocketed balls stay down (WPA 4.6)")
            nxt = Effect(opp, IN_PLACE)
        if rack_over is None:
            new = settle(new, nxt, pending)
        return self.ruling(st, shot, f, fouls=fouls, new=new, nxt=nxt, pending=pending,
                           rack_over=rack_over, notes=notes), new

    def legal_balls(self, st: GameState, player: str, on_table: set[str]) -> set[str]:
        """4.4 / 4.9: on an open table anything but the 8 — unless a whole group is already down,
        when the shooter may take that group and play the 8; else the shooter's group, then the 8."""
        own = (st.groups or {}).get(player)
        if own is None:
            empty_group = any(not (balls & on_table) for balls in GROUP_BALLS.values())
            return (on_table - {"8"}) | ({"8"} & on_table if empty_group else set())
        left = GROUP_BALLS[own] & on_table
        return set(left) if left else {"8"} & on_table

    def _break(self, st: GameState, shot: ShotRecord, f: ShotFacts):
        """4.3: no call, any ball first; then the options of (d)–(h)."""
        shooter, opp = st.shooter, st.opponent(st.shooter)
        fr = self.foul_rules(st, shot, legal_first=None, contact_and_rail=False)
        fouls, ext_used, notes = self.fouls(st, shot, f, fr)
        # 4.3 (g): any ball off the table on the break is a foul; those balls stay out, the 8 is spotted.
        fouls = [replace(x, rule="WPA 4.3", why=x.why + " on the break (4.3 g)") if x.code == "object_ball_off_table" else x
                 for x in fouls]
        cue_on = "cue" in shot.after
        eight_down = "8" in f.object_pocketed or "8" in f.object_off_table
        illegal = False
        if not f.object_pocketed:
            railed = f.balls_to_rail(objects_only=True)
            if len(railed) < 4:
                illegal = True
                fouls.append(Foul("illegal_break", "WPA 4.3", f.stop.t if f.stop else None,
                                  f"no ball was pocketed and only {len(railed)} object ball(s) were driven to a rail "
                                  "(4 required): an illegal break, not a foul (4.3 d)"))
        real_fouls = [x for x in fouls if x.code != "illegal_break"]
        spotted_at = {}
        occupied = dict(shot.after)
        eight_spot = self.spot(st, occupied, ["8"])
        new = self.advance(st, shot, f, table=self.table_after(shot, {}), groups=None,
                           extensions_used=st.extensions_used | ({shooter} if ext_used else set()))
        rerack_opp = Effect(opp, KITCHEN, phase="break", rerack=True, describe=f"re-rack; {opp} breaks")
        pending: Pending
        if eight_down and f.cue_pocketed:
            # (f) 8 and cue ball pocketed: opponent spots the 8 and has ball in hand in the kitchen, or breaks.
            spot8 = Effect(opp, KITCHEN, place=eight_spot, describe="spot the 8; cue ball in hand behind the head string")
            pending = Pending(opp, {"spot_eight": spot8, "rerack": rerack_opp}, default="spot_eight",
                              reason="the 8 and the cue ball were pocketed on the break (WPA 4.3 f)")
        elif real_fouls:
            # (g)/(h) (and, not covered by the text, the 8 down with another foul: spotted).
            if eight_down:
                spotted_at = eight_spot
                notes.append("the 8 went down on a foul break: spotted (WPA 4.3 g, 4.7)")
            options = {"ball_in_hand_kitchen": Effect(opp, KITCHEN, describe="cue ball in hand behind the head string")}
            if cue_on:
                options = {"accept_table": Effect(opp, IN_PLACE, describe="play the position"), **options}
            art = "g" if f.off_table else "h"
            pending = Pending(opp, options, default=next(iter(options)), reason=f"foul on the break (WPA 4.3 {art})")
        elif eight_down:
            # (e) the 8 on a legal break: the breaker spots it and continues, or breaks again.
            pending = Pending(shooter, {
                "spot_eight": Effect(shooter, IN_PLACE, place=eight_spot, describe="spot the 8 and continue"),
                "rebreak": Effect(shooter, KITCHEN, phase="break", rerack=True, describe=f"re-rack; {shooter} breaks again"),
            }, default="spot_eight", reason="the 8 was pocketed on a legal break (WPA 4.3 e)")
        elif illegal:
            pending = Pending(opp, {
                "accept_table": Effect(opp, IN_PLACE, describe="play the position"),
                "rerack": rerack_opp,
                "rebreak": Effect(shooter, KITCHEN, phase="break", rerack=True, describe=f"re-rack; {shooter} breaks again"),
            }, default="accept_table", reason="illegal break (WPA 4.3 d)")
        else:
            # (c) a ball pocketed without a foul: the breaker continues, the table open.
            nxt = Effect(shooter if f.object_pocketed else opp, IN_PLACE)
            new = settle(new, nxt, None)
            return self.ruling(st, shot, f, fouls=fouls, new=new, nxt=nxt, notes=notes), new
        new = settle(new, pending.effects[pending.default], pending)
        new = replace(new, table={**new.table, **spotted_at})
        # With a foul as well, the foul's options apply and it carries the penalty (4.3 d is no foul).
        return self.ruling(st, shot, f, fouls=fouls, new=new, nxt=pending.effects[pending.default],
                           pending=pending, spotted_at=spotted_at, notes=notes,
                           demote=frozenset({"illegal_break"}) if real_fouls else frozenset()), new
