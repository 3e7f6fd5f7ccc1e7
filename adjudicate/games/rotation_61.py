"""Vietnamese 15-ball rotation to 61 points ("Pool 15 bi xoay vòng", VN 78–94).

Readings of the source where it is ambiguous (see the README):
- VN 81 legal break: the 1 first, and a ball pocketed OR at least four object balls other than the 1
  driven to a rail (the text runs the two together; VN 82 implies legal breaks that pocket nothing).
- VN 89: the "main" (lowest) ball goes to the foot spot only when it was itself pocketed or driven
  off on the foul; the other balls go on the spotting line of VN 91 (lowest nearest the cushion).
- VN 92: a player's consecutive fouls reset when that player completes an inning without a foul.
- Who breaks the next rack is not stated (except the 60–60 replay, VN 79): `rules.break_order`.
"""
from __future__ import annotations

from dataclasses import replace

from adjudicate.facts import ShotFacts, ball_order
from adjudicate.fouls import WPA_ARTICLES, lowest_ball
from adjudicate.games.base import IN_PLACE, KITCHEN, Game, settle
from adjudicate.model import Effect, Foul, GameState, Pending
from adjudicate.spotting import spot_vn86, spot_vn91
from cueref.records import ShotRecord

TARGET = 61  # VN 79

VN_ARTICLES = dict(WPA_ARTICLES)
VN_ARTICLES.update({
    "wrong_ball_first": "VN 83", "no_contact": "VN 83", "no_rail": "VN 84",
    "cue_ball_pocketed": "VN 87", "cue_ball_off_table": "VN 87", "ball_disturbed": "VN 88",
    "bad_play_from_kitchen": "VN 93", "consecutive_fouls": "VN 92", "object_ball_off_table": "VN 89",
})


class Rotation61(Game):
    name = "rotation-61"
    articles = VN_ARTICLES
    scored_by_racks = False
    consecutive_limit = 4  # VN 92
    consecutive_rule = "VN 92"
    kitchen_play = "vn"
    nearest_ball_spot = False  # VN 86 is this game's version of WPA 1.6

    def rule(self, st: GameState, shot: ShotRecord, f: ShotFacts):
        table = st.header.table
        is_break = st.phase == "break"
        shooter, opp = st.shooter, st.opponent(st.shooter)
        low = lowest_ball(shot.before)
        fr = self.foul_rules(st, shot, legal_first=frozenset({low}),
                             legal_first_text=f"the lowest ball on the table was the {low}",
                             contact_and_rail=not is_break)
        fouls, ext_used, notes = self.fouls(st, shot, f, fr)
        if is_break:
            fouls = [replace(x, rule="VN 81") if x.code == "object_ball_off_table" else x for x in fouls]
            fouls += self.waived(shot, self._break_fouls(shot, f, low))
        counts = self.count_fouls(st, shooter, bool(fouls))
        if self.consecutive_loss(counts, shooter, bool(fouls)):
            fouls.append(Foul("consecutive_fouls", "VN 92", max(x.t or 0.0 for x in fouls),
                              f"{shooter}'s fourth consecutive foul in this rack loses the rack"))
        score = dict(st.score)
        points = 0
        occupied = dict(shot.after)
        spotted_at: dict = {}
        if fouls:
            # VN 85/89/91: nothing scores; the balls that went down come back. The main (lowest)
            # ball goes to the foot spot (86) if it went down; the others on the VN 91 line.
            down = sorted(set(f.object_pocketed) | set(f.object_off_table), key=ball_order)
            if low in down:
                spotted_at[low] = spot_vn86(table, occupied, low)
                occupied[low] = spotted_at[low]
            rest = [b for b in down if b != low]
            if rest:
                spotted_at.update(spot_vn91(table, occupied, rest))
        else:
            points = sum(int(b) for b in f.object_pocketed)  # VN 79: a ball scores its number
            score[shooter] = score.get(shooter, 0) + points
        if points:
            last_pocketer = shooter
        else:
            last_pocketer = st.last_pocketer
        extensions = st.extensions_used | ({shooter} if ext_used else set())
        new = self.advance(st, shot, f, table=self.table_after(shot, spotted_at), fouls_in_row=counts,
                           score=score, extensions_used=frozenset(extensions), last_pocketer=last_pocketer)
        remaining = [b for b in new.table if b != "cue"]
        pending = None
        rack_over = None
        if any(x.code == "consecutive_fouls" for x in fouls):
            rack_over, new = self.end_rack(new, opp, f"{shooter} committed four consecutive fouls (VN 92)")
            nxt = Effect(new.shooter, KITCHEN, phase="break")
        elif score[shooter] >= TARGET:
            rack_over, new = self.end_rack(new, shooter, f"{shooter} reached {score[shooter]} points (VN 79)")
            nxt = Effect(new.shooter, KITCHEN, phase="break")
        elif not remaining and all(v == 60 for v in score.values()):
            # VN 79: 60–60 with all 15 down: the rack is replayed, broken by who pocketed the last ball.
            rack_over, new = self.end_rack(new, None, "60–60 after all 15 balls: the rack is replayed (VN 79)",
                                           breaker=last_pocketer or shooter)
            nxt = Effect(new.shooter, KITCHEN, phase="break")
        elif fouls:
            pending = self._options(new, shot, f, fouls, opp, low, spotted_at, is_break)
            nxt = pending.effects[pending.default]
        elif points:
            nxt = Effect(shooter, IN_PLACE)
        else:
            nxt = Effect(opp, IN_PLACE)  # a miss: the next player plays the position (VN 78)
        if rack_over is None:
            new = settle(new, nxt, pending)
        ruling = self.ruling(st, shot, f, fouls=fouls, new=new, nxt=nxt, pending=pending, rack_over=rack_over,
                             spotted_at=spotted_at, points=points, notes=notes, score=score)
        return ruling, new

    def _break_fouls(self, shot: ShotRecord, f: ShotFacts, low: str) -> list[Foul]:
        """VN 81: the 1 first (the general 83 check names it), and a ball pocketed or at least four
        other object balls to a rail."""
        if f.object_pocketed:
            return []
        railed = f.balls_to_rail(objects_only=True) - {low}
        if len(railed) >= 4:
            return []
        return [Foul("illegal_break", "VN 81", f.stop.t if f.stop else None,
                     f"no ball was pocketed and only {len(railed)} object ball(s) other than the {low} reached a rail "
                     "(4 required)")]

    def _options(self, st: GameState, shot: ShotRecord, f: ShotFacts, fouls, incoming: str, low: str,
                 spotted_at: dict, is_break: bool) -> Pending:
        """The incoming player's choices after a foul (VN 85, 87, 89, 93, summary)."""
        table = st.header.table
        scratch = bool(f.cue_pocketed or f.cue_off_table)
        kitchen = Effect(incoming, KITCHEN, describe="cue ball in hand behind the head string, balls as they lie")
        # The cue ball is in hand with this option, so it blocks nothing (VN 86).
        free = {b: p for b, p in st.table.items() if b != "cue"}
        spot_low = Effect(incoming, KITCHEN, place={low: spot_vn86(table, free, low)},
                          describe=f"the {low} to the foot spot (VN 86); cue ball in hand behind the head string")
        accept = Effect(incoming, IN_PLACE, describe="play the position as left")
        if low in spotted_at:
            # VN 89: the main ball went down and is already on the foot spot.
            opts = {"ball_in_hand_kitchen": kitchen} if scratch else {"accept_table": accept, "ball_in_hand_kitchen": kitchen}
            reason = f"the {low} went down on the foul and is spotted (VN 89)"
        elif scratch or (is_break and any(x.code != "object_ball_off_table" for x in fouls)):
            # VN 87 (and 81 for a failed break): the cue ball in the kitchen; the lowest stays only
            # if it is on or beyond the head string.
            if table.in_kitchen(st.table[low]):
                opts = {"spot_lowest_ball": spot_low}
                reason = f"cue ball in hand and the {low} behind the head string: it must be spotted (VN 87)"
            else:
                opts = {"ball_in_hand_kitchen": kitchen, "spot_lowest_ball": spot_low}
                reason = "after the foul the cue ball is in hand behind the head string (VN 87)"
        else:
            opts = {"accept_table": accept, "ball_in_hand_kitchen": kitchen, "spot_lowest_ball": spot_low}
            reason = "foul: the incoming player chooses (VN 85)"
        bad_kitchen = next((x for x in fouls if x.code == "bad_play_from_kitchen"), None)
        if bad_kitchen and f.first_event is not None and not f.crossed("cue", "head_string"):
            # VN 93: a ball behind the line touched and the cue ball never crossed: foul, or the
            # balls are restored and the offender plays again.
            opts["replay"] = Effect(st.shooter, KITCHEN, place=dict(shot.before), forgive=st.shooter,
                                    describe=f"balls restored; {st.shooter} plays again, no foul counted (VN 93)")
        return Pending(incoming, opts, default=next(iter(opts)), reason=reason)
