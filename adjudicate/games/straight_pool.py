"""14.1 continuous (WPA 7): called balls for points, fouls cost points, re-racks of 14 (7.8)."""
from __future__ import annotations

from dataclasses import replace

from adjudicate.facts import ShotFacts
from adjudicate.fouls import kitchen_second_paragraph
from adjudicate.games.base import IN_PLACE, KITCHEN, Game, settle
from adjudicate.model import Effect, Foul, GameState, Pending
from cueref.records import ShotRecord
from cueref.table import circle_overlaps_triangle, distance, rack_positions, triangle_outline

DEFAULT_TARGET = 100  # the rules leave the target to the tournament (WPA 7, Reg 1)


class StraightPool(Game):
    name = "straight-pool"
    scored_by_racks = False
    consecutive_limit = 3
    consecutive_rule = "WPA 7.11"

    def target(self, st: GameState) -> int:
        return st.header.rules.target_score or DEFAULT_TARGET

    def rule(self, st: GameState, shot: ShotRecord, f: ShotFacts):
        is_break = st.phase == "break"
        shooter, opp = st.shooter, st.opponent(st.shooter)
        # 7.9: 3.2 is not a 14.1 foul — any ball may be hit first.
        fr = self.foul_rules(st, shot, legal_first=None, contact_and_rail=not is_break)
        fouls, ext_used, notes = self.fouls(st, shot, f, fr)
        safety = shot.declared.safety
        # On the opening break only a logged call counts: 7.3's rail requirement is the test.
        call = shot.declared.called if (safety or is_break) else self.assumed_call(shot, f, None, notes)
        made = self.called_made(call, f)
        breaking_foul = False
        if is_break and not made:
            # 7.3: after the cue ball hits the rack, the cue ball and two more balls to a rail.
            first = f.first_event
            railed = f.balls_to_rail(after=first, objects_only=False) if first else set()
            cue_railed = "cue" in railed
            others = len(railed - {"cue"})
            if first is None or not cue_railed or others < 2:
                breaking_foul = True
                fouls.append(Foul("illegal_break", "WPA 7.3", f.stop.t if f.stop else None,
                                  f"the called ball was not pocketed and after the first contact "
                                  f"{'the cue ball and ' if cue_railed else 'not the cue ball, '}"
                                  f"{others} object ball(s) reached a rail (cue ball and 2 required)"))
        normal_fouls = [x for x in fouls if x.code != "illegal_break"]
        # 7.11: only normal fouls count toward three in a row; a breaking foul takes precedence (7.10).
        counts = dict(st.fouls_in_row) if breaking_foul else self.count_fouls(st, shooter, bool(normal_fouls))
        third = not breaking_foul and self.consecutive_loss(counts, shooter, bool(normal_fouls))
        if third:
            fouls.append(Foul("consecutive_fouls", "WPA 7.11", max(x.t or 0.0 for x in normal_fouls),
                              f"{shooter}'s third consecutive foul: -1 and a further -15, all 15 balls re-racked, "
                              f"{shooter} breaks (WPA 7.11)"))
            counts[shooter] = 0

        points = 0
        if breaking_foul:
            points = -2  # 7.10
        elif normal_fouls:
            points = -16 if third else -1  # 7.9, 7.11
        elif made and not safety:
            points = len(f.object_pocketed)  # 7.7: the called ball and every other ball pocketed
        score = dict(st.score)
        score[shooter] = score.get(shooter, 0) + points

        # 7.6: balls pocketed on a foul, a safety or uncalled, and balls off the table, are spotted.
        scoring = made and not safety and not fouls
        to_spot = [] if scoring else list(f.object_pocketed)
        to_spot += [b for b in f.object_off_table]
        left = {b: p for b, p in shot.after.items() if b != "cue"}
        spotted_at = self.spot(st, dict(shot.after), to_spot) if to_spot else {}
        left.update(spotted_at)
        extensions = st.extensions_used | ({shooter} if ext_used else set())
        new = self.advance(st, shot, f, table=self.table_after(shot, spotted_at), fouls_in_row=counts,
                           score=score, extensions_used=frozenset(extensions))
        pending = None
        rack_over = None
        reracked: tuple[str, ...] = ()
        if score[shooter] >= self.target(st):
            rack_over, new = self.end_rack(new, shooter, f"{shooter} reached {score[shooter]} of {self.target(st)} points (WPA 7)")
            return self.ruling(st, shot, f, fouls=fouls, new=new, nxt=Effect(new.shooter, KITCHEN, phase="break"),
                               rack_over=rack_over, spotted_at=spotted_at, points=points, notes=notes,
                               score=score), new
        if third:
            nxt = Effect(shooter, KITCHEN, phase="break", rerack=True,
                         describe=f"all 15 balls re-racked; {shooter} breaks under 7.3")
        elif breaking_foul:
            cue = KITCHEN if f.cue_pocketed or f.cue_off_table else IN_PLACE
            accept = Effect(opp, cue, describe="play the position")
            pending = Pending(opp, {"accept_table": accept,
                                    "rebreak": Effect(shooter, KITCHEN, phase="break", rerack=True,
                                                      describe=f"re-rack; {shooter} breaks again (-2 each time)")},
                              default="accept_table", reason="breaking foul (WPA 7.3, 7.10)")
            nxt = accept
        elif normal_fouls:
            # 7.9: cue ball stays where it is, except 3.1 and 3.11 (ball in hand behind the head string).
            kitchen = (any(x.code in ("cue_ball_pocketed", "cue_ball_off_table") for x in normal_fouls)
                       or st.cue_ball == KITCHEN and kitchen_second_paragraph(shot, f, st.header.table))
            nxt = Effect(opp, KITCHEN if kitchen else IN_PLACE)
        elif scoring:
            nxt = Effect(shooter, IN_PLACE)
            if len(left) <= 1:
                # 7.8: fourteen balls down, re-rack them (all 15 if the last went too) and play on.
                nxt, new, reracked, more = self._rerack(new, shot, left, shooter)
                notes += more
                # 7.4: play stops while the rack is made; the shot clock starts again after it.
                new = replace(new, last_stop=None)
        else:
            if safety:
                notes.append("called safety: the turn passes, pocketed balls are spotted (WPA 7.5)")
            nxt = Effect(opp, IN_PLACE)
        new = settle(new, nxt, pending)
        return self.ruling(st, shot, f, fouls=fouls, new=new, nxt=nxt, pending=pending, rack_over=rack_over,
                           spotted_at=spotted_at, points=points, notes=notes, reracked=reracked, score=score), new

    def _rerack(self, st: GameState, shot: ShotRecord, left: dict, shooter: str):
        """WPA 7.8: fourteen balls are down; re-rack. A ball is inside the rack when any part of it,
        seen from above, is over the outline."""
        table = st.header.table
        tri = triangle_outline(table, 5)
        cue = shot.after.get("cue")
        cue_in = cue is not None and circle_overlaps_triangle(cue, table.R, tri)
        spots = [p for row in rack_positions(table, [1, 2, 3, 4, 5]) for p in row]
        fifteenth = next(iter(left), None)
        fif_in = fifteenth is not None and circle_overlaps_triangle(left[fifteenth], table.R, tri)
        cue_ball = IN_PLACE
        if fifteenth is None or fif_in and cue_in:
            racked = [str(n) for n in range(1, 16)]
            place = dict(zip(racked, spots))
            if fifteenth is None:
                note = "7.8 (a): the fifteenth ball went down with the fourteenth; all 15 re-racked"
            else:
                note = f"7.8 (b): the cue ball and the {fifteenth} lay in the rack; all 15 re-racked"
            if cue_in:
                cue_ball = KITCHEN  # (b); (a) with the cue ball in the rack is read the same way
        else:
            racked = [str(n) for n in range(1, 16) if str(n) != fifteenth]
            place = dict(zip(racked, spots[1:]))  # 7.2: a 14-ball rack leaves the apex empty
            note = f"7.8: 14 balls re-racked, apex empty; the {fifteenth} stays"
            if fif_in:
                # (c) the fifteenth goes to the head spot, or the centre spot if the cue ball blocks it.
                spot = table.head_spot if distance(cue, table.head_spot) >= table.ball_diameter_mm else table.centre_spot
                place[fifteenth] = spot
                note = f"7.8 (c): the {fifteenth} lay in the rack and goes to the {_spot_name(table, spot)}"
            elif cue_in:
                # (d) the cue ball in the rack: in hand in the kitchen if the fifteenth is on or beyond
                # the head string, else on the head spot (centre spot if occupied).
                if not table.in_kitchen(left[fifteenth]):
                    cue_ball = KITCHEN
                    note = "7.8 (d): the cue ball lay in the rack; cue ball in hand behind the head string"
                else:
                    spot = (table.head_spot if distance(left[fifteenth], table.head_spot) >= table.ball_diameter_mm
                            else table.centre_spot)
                    place["cue"] = spot
                    note = f"7.8 (d): the cue ball lay in the rack and goes to the {_spot_name(table, spot)}"
        nxt = Effect(shooter, cue_ball, place=place, describe="re-racked; the shooter continues, any ball may be hit first")
        return nxt, st, tuple(racked), [note]


def _spot_name(table, p) -> str:
    return "head spot" if p == table.head_spot else "centre spot"
