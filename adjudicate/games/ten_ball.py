"""Ten-ball (WPA 6): nine-ball's structure with every shot called, no safety, the wrong-pocket
option (6.6), and the 10 spotted until it is the last object ball (6.8)."""
from __future__ import annotations

from adjudicate.games.nine_ball import NineBall, Outcome
from cueref.records import Call


class TenBall(NineBall):
    name = "ten-ball"
    money = "10"
    consecutive_rule = "WPA 6.10"
    art = {"break": "WPA 6.3", "push": "WPA 6.4", "spot": "WPA 6.8", "fouls": "WPA 6.9",
           "serious": "WPA 6.10", "continue": "WPA 6.7", "wrong_pocket": "WPA 6.6", "call": "WPA 6.5"}

    def outcome(self, st, shot, f, *, fouled, push, is_break, three_failed) -> Outcome:
        notes: list[str] = []
        if shot.declared.safety:
            notes.append(f"ten-ball has no safety ({self.art['call']}): the declaration changes nothing")
        call = shot.declared.called
        if call is None and not (is_break or push or fouled) and f.object_pocketed:
            # No call logged: the shot is taken as called the way it went (benefit of the doubt).
            first = f.pocketed[0] if f.pocketed[0].ball != "cue" else next(e for e in f.pocketed if e.ball != "cue")
            call = Call(first.ball, first.pocket)
            notes.append(f"no call logged: taken as the {call.ball} called in the {call.pocket} pocket")
        made = (call is not None and call.ball in f.object_pocketed
                and (call.pocket is None or f.pocket_of(call.ball) == call.pocket))
        only_ten = [b for b in shot.before if b != "cue"] == [self.money]
        live = not fouled and not push
        win = live and not is_break and made and call.ball == self.money and only_ten
        down = self.money in f.object_pocketed or self.money in f.object_off_table
        spot = (self.money,) if down and not win else ()
        if spot:
            notes.append(f"the {self.money} went down before the final shot: spotted ({self.art['spot']})")
        if is_break:
            return Outcome(win=False, keep_shooting=live and bool(f.object_pocketed), spot=spot, notes=tuple(notes))
        chooses = None
        if live and not made and f.object_pocketed:
            what = ("the called ball went into another pocket" if call and call.ball in f.object_pocketed
                    else "a ball other than the called one was pocketed")
            chooses = f"{what}: the opponent chooses who shoots ({self.art['wrong_pocket']})"
        return Outcome(win=win, keep_shooting=live and made, spot=spot, opponent_chooses=chooses,
                       notes=tuple(notes))
