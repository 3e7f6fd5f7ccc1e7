"""Nine-ball (WPA 5): lowest ball first, any ball counts, the 9 wins; push out; Reg 16."""
from __future__ import annotations

from dataclasses import dataclass

from adjudicate.facts import ShotFacts
from adjudicate.fouls import lowest_ball
from adjudicate.model import Effect, Foul, GameState, Pending
from adjudicate.games.base import IN_PLACE, Game, ball_in_hand_options, settle
from cueref.records import ShotRecord


@dataclass
class Outcome:
    """What the pocketed balls mean for one shot, decided by the game's pocketing rules."""
    win: bool = False
    keep_shooting: bool = False
    spot: tuple[str, ...] = ()
    opponent_chooses: str | None = None  # reason text when the opponent decides who shoots
    notes: tuple[str, ...] = ()


class NineBall(Game):
    name = "nine-ball"
    money = "9"
    kitchen_play = None  # 3.11 is not among the nine-ball fouls (5.7)
    consecutive_rule = "WPA 5.8"
    art = {"break": "WPA 5.3", "push": "WPA 5.4", "spot": "WPA 5.6", "fouls": "WPA 5.7",
           "serious": "WPA 5.8", "continue": "WPA 5.5"}

    def rule(self, st: GameState, shot: ShotRecord, f: ShotFacts):
        is_break = st.phase == "break"
        notes: list[str] = []
        push = shot.declared.push_out
        if push and not st.push_out_allowed:
            notes.append(f"push out declared where none is allowed ({self.art['push']}): ruled as a normal shot")
            push = False
        low = lowest_ball(shot.before)
        fr = self.foul_rules(
            st, shot,
            legal_first=None if push else frozenset({low}),
            legal_first_text=f"the lowest ball on the table was the {low}",
            contact_and_rail=not (push or is_break),  # 3.2 / 3.3 do not apply to a push out (5.4)
        )
        fouls, ext_used, n = self.fouls(st, shot, f, fr)
        notes += n
        three_failed = False
        if is_break:
            fouls += self.waived(shot, self.break_fouls(st, shot, f))
            three_failed = not fouls and self.three_ball_rule_failed(st, shot, f)
        shooter, opp = st.shooter, st.opponent(st.shooter)
        counts = self.count_fouls(st, shooter, bool(fouls))
        if self.consecutive_loss(counts, shooter, bool(fouls)):
            fouls.append(Foul("consecutive_fouls", self.art["serious"], max(x.t or 0.0 for x in fouls),
                              f"{shooter}'s third consecutive foul in this rack loses the rack (WPA 3.13)"))

        out = self.outcome(st, shot, f, fouled=bool(fouls), push=push, is_break=is_break,
                           three_failed=three_failed)
        notes += out.notes
        spotted_at = self.spot(st, dict(shot.after), list(out.spot)) if out.spot else {}

        rack_over = None
        pending = None
        extensions = st.extensions_used | ({shooter} if ext_used else set())
        new = self.advance(st, shot, f, table=self.table_after(shot, spotted_at), fouls_in_row=counts,
                           extensions_used=frozenset(extensions))
        if any(x.code == "consecutive_fouls" for x in fouls):
            rack_over, new = self.end_rack(new, opp, f"{shooter} committed three consecutive fouls ({self.art['serious']})")
            nxt = Effect(new.shooter, new.cue_ball, phase="break")
        elif out.win:
            rack_over, new = self.end_rack(new, shooter, f"{shooter} pocketed the {self.money} on a legal shot")
            nxt = Effect(new.shooter, new.cue_ball, phase="break")
        elif fouls:
            nxt, pending = ball_in_hand_options(new, opp, "cue" in shot.after, f"foul ({self.art['fouls']})")
        elif push:
            nxt = Effect(opp, IN_PLACE, describe=f"{opp} plays from the position the push out left")
            pending = Pending(opp, {"accept_table": nxt,
                                    "pass": Effect(shooter, IN_PLACE, describe=f"{shooter} must shoot again")},
                              default="accept_table", reason=f"after a push out the opponent chooses who shoots ({self.art['push']})")
        elif three_failed:
            # Reg 16 (2)-(4): accept (no push out) or hand back (the breaker may push out).
            nxt = Effect(opp, IN_PLACE, describe=f"{opp} plays the position; no push out (Reg 16 (3))")
            pending = Pending(opp, {"accept_table": nxt,
                                    "pass": Effect(shooter, IN_PLACE, push_out_allowed=True,
                                                   describe=f"{shooter} shoots and may push out (Reg 16 (4))")},
                              default="accept_table", reason="the break failed the three-ball rule (WPA Reg 16)")
        elif out.opponent_chooses:
            nxt = Effect(opp, IN_PLACE, describe=f"{opp} plays the position")
            pending = Pending(opp, {"accept_table": nxt,
                                    "pass": Effect(shooter, IN_PLACE, describe=f"{shooter} shoots again")},
                              default="accept_table", reason=out.opponent_chooses)
        elif out.keep_shooting:
            nxt = Effect(shooter, IN_PLACE, push_out_allowed=is_break)
        else:
            nxt = Effect(opp, IN_PLACE, push_out_allowed=is_break)
        if rack_over is None:
            new = settle(new, nxt, pending)
        ruling = self.ruling(st, shot, f, fouls=fouls, new=new, nxt=nxt, pending=pending, rack_over=rack_over,
                             spotted_at=spotted_at, notes=notes, push_out=push)
        return ruling, new

    # --- pieces ten-ball changes ----------------------------------------------------------------
    def break_fouls(self, st: GameState, shot: ShotRecord, f: ShotFacts) -> list[Foul]:
        """5.3 (b): no object ball pocketed → at least four balls ("vähintään neljän pallon",
        not only object balls) driven to a rail, else a foul."""
        if f.object_pocketed:
            return []
        railed = f.balls_to_rail(objects_only=False)
        if len(railed) >= 4:
            return []
        return [Foul("illegal_break", self.art["break"], f.stop.t if f.stop else None,
                     f"no object ball was pocketed and only {len(railed)} ball(s) were driven to a rail (4 required)")]

    def three_ball_rule_failed(self, st: GameState, shot: ShotRecord, f: ShotFacts) -> bool:
        """Reg 16 (1): at least three balls pocketed or crossing the head string (their centre
        going over it). Only object balls: the cue ball crosses it on every break."""
        if not st.header.rules.three_ball_break:
            return False
        pocketed = set(f.object_pocketed)
        crossed = {e.ball for e in f.crosses if e.line == "head_string" and e.ball != "cue"}
        return len(pocketed | crossed) < 3

    def outcome(self, st, shot, f, *, fouled, push, is_break, three_failed) -> Outcome:
        down = self.money in f.object_pocketed or self.money in f.object_off_table
        win = (not fouled and not push and not three_failed and self.money in f.object_pocketed)
        spot = (self.money,) if down and not win else ()
        notes = ()
        if spot:
            why = ("on a foul" if fouled else "on a push out" if push else
                   "on a break that failed the three-ball rule (Reg 16 (5))" if three_failed else "off the table")
            notes = (f"the {self.money} went down {why}: spotted ({self.art['spot']})",)
        keep = not fouled and not push and not three_failed and bool(f.object_pocketed)
        return Outcome(win=win, keep_shooting=keep, spot=spot, notes=notes)

