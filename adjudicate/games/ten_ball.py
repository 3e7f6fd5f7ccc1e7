"""Ten-ball (WPA 6): nine-ball's structure with every shot called, no safety, the wrong-pocket
option (6.6), and the 10 spotted until it is the last object ball (6.8)."""
from __future__ import annotations

from adjudicate.games.nine_ball import NineBall, Outcome


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
        call = None if (is_break or push or fouled) else self.assumed_call(shot, f, None, notes)
        made = self.called_made(call, f)
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
