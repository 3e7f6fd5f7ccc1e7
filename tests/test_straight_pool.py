"""14.1 continuous (straight pool), WPA section 7, scenario by scenario.

Every expectation comes from the article text (the Finnish WPA edition, translated in the
project's research notes): points, who shoots next, where the cue ball is, and where spotted or
re-racked balls go, computed here from the table geometry (9 ft table 2540 x 1270 mm, ball
57.15 mm, foot spot (1905, 635), head spot (635, 635), centre spot (1270, 635)).
"""
from __future__ import annotations

import itertools
import math
import re

import pytest
from helpers import (
    codes,
    cross,
    decision,
    full_rack,
    header,
    hit,
    off,
    penalised,
    pot,
    rack_spots,
    rail,
    rule,
    rule_one,
    shot,
    stop,
    strike,
)

# --- geometry, from the contract's table frame (not from the engine) ----------------------------
D = 57.15
R = D / 2
L, W = 2540.0, 1270.0
FOOT = (1905.0, 635.0)
HEAD = (635.0, 635.0)
CENTRE = (1270.0, 635.0)
ROW_DX = D * math.sqrt(3) / 2  # distance between rows of frozen balls




def near(p, q, tol=0.06):
    return abs(p[0] - q[0]) <= tol and abs(p[1] - q[1]) <= tol


_T = itertools.count(0.0, 20.0)  # strictly increasing media times: no shot starts before the last stopped


def S(before, events, **kw):
    return shot(before, events, t0=next(_T), **kw)


H = header("straight-pool", target_score=50)
CUE_KITCHEN = (500.0, 635.0)
# A mid-rack position (the foot spot and the long string are clear).
POS = {"cue": (900.0, 400.0), "3": (1500.0, 300.0), "4": (1700.0, 900.0), "6": (1200.0, 1000.0),
       "9": (2200.0, 200.0), "12": (400.0, 1100.0)}


def call(ball, pocket="foot-left"):
    return {"ball": ball, "pocket": pocket}


def opening_break(called="5"):
    """A's legal opening break: the called ball misses, the cue ball and two object balls reach a
    rail after the cue ball hits the rack (7.3) -> B to shoot."""
    before = {"cue": CUE_KITCHEN, **full_rack()}
    ev = [strike(), hit(0.30, "1"), rail(0.70, "6", "left"), rail(0.75, "11", "right"),
          rail(1.10, "cue", "left"), stop(4.0)]
    return S(before, ev, break_=True, called=call(called))


def potting_break(ball="5"):
    """A's opening break pocketing the called ball: A continues (7.3)."""
    before = {"cue": CUE_KITCHEN, **full_rack()}
    ev = [strike(), hit(0.30, "1"), pot(1.0, ball, "foot-left"), stop(4.0)]
    return S(before, ev, break_=True, called=call(ball))


def miss(before=POS, ball="3"):
    """A legal shot: the called ball is hit and reaches a rail, nothing is pocketed."""
    return S(before, [strike(), hit(0.3, ball), rail(0.8, ball, "right"), stop(4.0)], called=call(ball))


def no_rail_foul(before=POS, ball="3"):
    """WPA 3.3: contact, but nothing pocketed and no ball to a rail."""
    return S(before, [strike(), hit(0.3, ball), stop(4.0)], called=call(ball))


def scratch(before=POS, ball="3"):
    return S(before, [strike(), hit(0.3, ball), rail(0.6, ball, "left"), pot(1.2, "cue", "side-left"), stop(4.0)],
             called=call(ball))


# =================================================================================================
# 7.3 The opening break
# =================================================================================================

def test_wpa_7_3_called_ball_pocketed_on_break_scores_and_breaker_continues():
    r = rule_one(H, potting_break("5"))
    assert r["break"] is True
    assert r["legal"] is True and r["fouls"] == []
    assert r["pocketed"] == ["5"] and r["spotted"] == []
    assert r["points"] == 1
    assert r["score"] == {"A": 1, "B": 0}
    assert r["next"]["shooter"] == "A"
    assert r["next"]["cue_ball"] == "in_place"
    assert r["next"]["options"] == []
    assert r["rack_over"] is None


def test_wpa_7_3_cue_ball_and_two_balls_to_rails_is_a_legal_break_turn_passes():
    r = rule_one(H, opening_break("5"))
    assert r["break"] is True
    assert r["legal"] is True and r["fouls"] == []
    assert r["points"] == 0 and r["score"] == {"A": 0, "B": 0}
    assert r["next"]["shooter"] == "B"
    assert r["next"]["cue_ball"] == "in_place"
    assert r["next"]["options"] == []


def test_wpa_7_3_uncalled_ball_pocketed_on_break_counts_as_rail_and_is_spotted():
    """2.7: a pocketed ball counts as having hit a cushion, so the 9 (pocketed, uncalled) plus the
    6 make the two balls; the break is legal. 7.6: the uncalled 9 is spotted: the foot spot and the
    long string up to the back of the rack are blocked, so it goes frozen behind the rack's middle
    back ball (1.5: between the foot spot and the foot cushion, as close to the foot spot as
    possible)."""
    before = {"cue": CUE_KITCHEN, **full_rack()}
    ev = [strike(), hit(0.30, "1"), rail(0.70, "6", "left"), pot(0.9, "9", "foot-right"),
          rail(1.10, "cue", "left"), stop(4.0)]
    r = rule_one(H, S(before, ev, break_=True, called=call("5")))
    assert r["legal"] is True and r["fouls"] == []
    assert r["points"] == 0 and r["score"] == {"A": 0, "B": 0}
    assert r["spotted"] == ["9"]
    assert near(r["spotted_at"]["9"], (FOOT[0] + 4 * ROW_DX + D, 635.0))
    assert r["next"]["shooter"] == "B"


BREAKING_FOULS = {
    # only one object ball reaches a rail after the cue ball hits the rack
    "one_object_ball": [strike(), hit(0.30, "1"), rail(0.70, "6", "left"), rail(1.10, "cue", "left"), stop(4.0)],
    # two object balls, but the cue ball never reaches a rail
    "cue_ball_no_rail": [strike(), hit(0.30, "1"), rail(0.70, "6", "left"), rail(0.75, "11", "right"), stop(4.0)],
    # the cue ball's only rail is before it hits the rack: it does not count
    "cue_rail_before_rack": [strike(), rail(0.15, "cue", "left"), hit(0.50, "1"), rail(0.90, "6", "left"),
                             rail(0.95, "11", "right"), stop(4.0)],
    # nothing reaches a rail at all
    "soft_break": [strike(), hit(0.30, "1"), stop(3.0)],
}


@pytest.mark.parametrize("events", BREAKING_FOULS.values(), ids=BREAKING_FOULS.keys())
def test_wpa_7_3_breaking_foul_minus_two_and_rebreak_option(events):
    before = {"cue": CUE_KITCHEN, **full_rack()}
    r = rule_one(H, S(before, events, break_=True, called=call("5")))
    assert r["legal"] is False
    assert "illegal_break" in codes(r)
    assert penalised(r)["code"] == "illegal_break" and penalised(r)["rule"] == "WPA 7.3"
    assert r["points"] == -2
    assert r["score"] == {"A": -2, "B": 0}
    nxt = r["next"]
    assert nxt["decider"] == "B"
    assert set(nxt["options"]) == {"accept_table", "rebreak"}
    assert nxt["effects"]["accept_table"]["shooter"] == "B"
    assert nxt["effects"]["accept_table"]["cue_ball"] == "in_place"
    rb = nxt["effects"]["rebreak"]
    assert rb["shooter"] == "A" and rb.get("break") is True and rb.get("rerack") is True
    assert rb["cue_ball"] == "in_hand_kitchen"


def test_wpa_7_3_rebreak_decision_reracks_with_the_same_breaker_minus_two_each_time():
    bad = BREAKING_FOULS["one_object_ball"]
    before = {"cue": CUE_KITCHEN, **full_rack()}
    rulings, st = rule(H, S(before, bad, break_=True, called=call("5")), decision("rebreak", player="B"))
    # the rack is made again and A breaks again under 7.3
    assert st.phase == "break" and st.shooter == "A" and st.breaker == "A"
    assert st.cue_ball == "in_hand_kitchen"
    rulings, st = rule(H, S(before, bad, break_=True, called=call("5")), decision("rebreak", player="B"),
                       S(before, bad, break_=True, called=call("5")), decision("accept_table", player="B"),
                       miss(POS))
    first, second, third = rulings
    assert second["shooter"] == "A" and second["break"] is True
    assert second["points"] == -2 and second["score"] == {"A": -4, "B": 0}
    # accepted: B plays the position as the break left it
    assert third["shooter"] == "B" and third["break"] is False


# =================================================================================================
# 7.5 Safety
# =================================================================================================

def test_wpa_7_5_called_safety_passes_the_turn_and_pocketed_balls_are_spotted():
    ev = [strike(), hit(0.3, "3"), pot(0.9, "3", "side-left"), rail(1.2, "cue", "right"), stop(4.0)]
    r = rule_one(H, opening_break(), S(POS, ev, safety=True))
    assert r["shooter"] == "B"
    assert r["legal"] is True and r["fouls"] == []
    assert r["points"] == 0 and r["score"] == {"A": 0, "B": 0}
    assert r["spotted"] == ["3"]
    assert near(r["spotted_at"]["3"], FOOT)  # 1.5: the foot spot is free
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_place"


def test_wpa_7_5_safety_without_pocket_passes_the_turn():
    ev = [strike(), hit(0.3, "3"), rail(1.2, "3", "right"), stop(4.0)]
    r = rule_one(H, opening_break(), S(POS, ev, safety=True))
    assert r["legal"] is True and r["points"] == 0 and r["spotted"] == []
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_place"


# =================================================================================================
# 7.6 Spotting balls (placement per 1.5)
# =================================================================================================

def test_wpa_7_6_ball_pocketed_on_a_foul_is_spotted_on_the_foot_spot():
    ev = [strike(), hit(0.3, "3"), pot(0.9, "3", "foot-left"), pot(1.5, "cue", "side-left"), stop(4.0)]
    r = rule_one(H, opening_break(), S(POS, ev, called=call("3")))
    assert r["legal"] is False and "cue_ball_pocketed" in codes(r)
    assert r["points"] == -1 and r["score"] == {"A": 0, "B": -1}
    assert r["spotted"] == ["3"] and near(r["spotted_at"]["3"], FOOT)


def test_wpa_7_6_uncalled_ball_is_spotted_no_point_turn_passes():
    """Called the 3, pocketed the 6 only: the 6 is spotted (7.6) and the inning ends (7.4)."""
    ev = [strike(), hit(0.3, "6"), pot(0.9, "6", "head-right"), stop(4.0)]
    r = rule_one(H, opening_break(), S(POS, ev, called=call("3")))
    assert r["legal"] is True and r["fouls"] == []
    assert r["points"] == 0 and r["score"] == {"A": 0, "B": 0}
    assert r["spotted"] == ["6"] and near(r["spotted_at"]["6"], FOOT)
    assert r["next"]["shooter"] == "A"


def test_wpa_7_6_called_ball_in_another_pocket_is_spotted():
    ev = [strike(), hit(0.3, "3"), pot(0.9, "3", "side-left"), stop(4.0)]
    r = rule_one(H, opening_break(), S(POS, ev, called=call("3", "foot-left")))
    assert r["points"] == 0 and r["spotted"] == ["3"] and near(r["spotted_at"]["3"], FOOT)
    assert r["next"]["shooter"] == "A"


def test_wpa_7_6_ball_off_the_table_is_a_foul_and_is_spotted():
    ev = [strike(), hit(0.3, "3"), off(0.7, "3"), stop(4.0)]
    r = rule_one(H, opening_break(), S(POS, ev, called=call("3")))
    assert r["legal"] is False
    f = penalised(r)
    assert f["code"] == "object_ball_off_table" and f["rule"] == "WPA 3.5"
    assert r["points"] == -1
    assert r["spotted"] == ["3"] and near(r["spotted_at"]["3"], FOOT)  # 7.9: lifted onto the foot spot
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_place"


def test_wpa_7_6_foot_spot_blocked_ball_frozen_behind_it_toward_foot_cushion():
    pos = dict(POS, **{"9": FOOT})
    ev = [strike(), hit(0.3, "6"), pot(0.9, "6", "head-right"), stop(4.0)]
    r = rule_one(H, opening_break(), S(pos, ev, called=call("3")))
    assert near(r["spotted_at"]["6"], (FOOT[0] + D, 635.0))


def test_wpa_7_6_never_frozen_to_the_cue_ball_small_gap():
    pos = dict(POS, cue=(FOOT[0] - 300, 635.0))
    ev = [strike(), hit(0.3, "6"), pot(0.9, "6", "head-right"), stop(4.0)]
    after = {"cue": FOOT, "3": POS["3"], "4": POS["4"], "9": POS["9"], "12": POS["12"]}
    r = rule_one(H, opening_break(), S(pos, ev, after=after, called=call("3")))
    x, y = r["spotted_at"]["6"]
    assert y == pytest.approx(635.0, abs=0.06)
    assert D < x - FOOT[0] <= D + 6.0  # a small gap to the cue ball, on the foot-cushion side


def test_wpa_7_6_no_room_toward_foot_cushion_goes_above_the_foot_spot():
    # eleven balls frozen in a line from the foot spot to the foot cushion leave no room there
    line = {str(n): (FOOT[0] + k * D, 635.0) for k, n in enumerate(range(1, 12))}
    pos = {"cue": (900.0, 400.0), **line, "12": (1300.0, 300.0)}
    ev = [strike(), hit(0.3, "12"), pot(0.9, "12", "side-left"), stop(4.0)]
    r = rule_one(H, opening_break(), S(pos, ev, called=call("1")))
    assert near(r["spotted_at"]["12"], (FOOT[0] - D, 635.0))


def test_wpa_7_6_two_balls_spotted_one_on_the_foot_spot_one_frozen_behind():
    ev = [strike(), hit(0.3, "3"), pot(0.9, "3", "side-left"), pot(1.1, "4", "side-right"), stop(4.0)]
    r = rule_one(H, opening_break(), S(POS, ev, safety=True))
    assert sorted(r["spotted"]) == ["3", "4"]
    xs = sorted(p[0] for p in r["spotted_at"].values())
    assert xs == pytest.approx([FOOT[0], FOOT[0] + D], abs=0.06)
    assert all(p[1] == pytest.approx(635.0, abs=0.06) for p in r["spotted_at"].values())


def test_wpa_7_6_fifteenth_ball_with_untouched_fourteen_rack_goes_on_the_foot_spot():
    fourteen = {str(n): p for n, p in zip(range(1, 15), rack_spots()[1:])}
    pos = {"cue": (700.0, 300.0), **fourteen, "15": (1300.0, 900.0)}
    ev = [strike(), hit(0.3, "15"), pot(0.9, "15", "side-right"), stop(4.0)]
    r = rule_one(H, opening_break(), S(pos, ev, called=call("15", "foot-right")))
    assert r["points"] == 0 and r["spotted"] == ["15"]
    assert near(r["spotted_at"]["15"], FOOT)


# =================================================================================================
# 7.7 Points
# =================================================================================================

def test_wpa_7_7_called_ball_plus_one_point_per_other_ball_pocketed():
    ev = [strike(), hit(0.3, "3"), pot(0.9, "3", "foot-left"), pot(1.0, "6", "head-right"),
          pot(1.4, "9", "foot-right"), stop(4.0)]
    rulings, _ = rule(H, potting_break("5"), S(POS, ev, called=call("3", "foot-left")))
    r = rulings[-1]
    assert r["legal"] is True
    assert r["points"] == 3
    assert r["score"] == {"A": 4, "B": 0}
    assert r["spotted"] == []  # the other balls of a scoring shot stay down
    assert r["next"]["shooter"] == "A"


def test_wpa_7_7_fouls_deduct_points_and_a_score_can_go_negative():
    rulings, _ = rule(H, opening_break(), no_rail_foul(), miss(), no_rail_foul())
    assert [r["points"] for r in rulings] == [0, -1, 0, -1]
    assert rulings[1]["score"] == {"A": 0, "B": -1}
    assert rulings[-1]["score"] == {"A": 0, "B": -2}


# =================================================================================================
# 7.8 Re-racking after the fourteenth ball
# =================================================================================================

def _rerack(cue, fifteen, *, pot_15=False):
    """A (after a potting break) pockets the called 14, the second-to-last ball."""
    before = {"cue": (800.0, 300.0), "14": (2300.0, 200.0), "15": fifteen}
    ev = [strike(), hit(0.3, "14"), pot(0.9, "14", "foot-left")]
    if pot_15:
        ev.append(pot(1.1, "15", "foot-right"))
    ev.append(stop(4.0))
    after = {"cue": cue} if pot_15 else {"cue": cue, "15": fifteen}
    rulings, st = rule(H, potting_break("5"), S(before, ev, after=after, called=call("14", "foot-left")))
    return rulings[-1], st


def _racked_positions(st, balls):
    return sorted((round(st.table[b][0], 1), round(st.table[b][1], 1)) for b in balls)


def _spots(ps):
    return sorted((round(x, 1), round(y, 1)) for x, y in ps)


def test_wpa_7_8_fourteen_balls_reracked_apex_empty_fifteenth_stays():
    r, st = _rerack(cue=(800.0, 300.0), fifteen=(1300.0, 1000.0))
    assert r["legal"] is True and r["points"] == 1 and r["score"] == {"A": 2, "B": 0}
    assert sorted(r["reracked"], key=int) == [str(n) for n in range(1, 15)]
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_place"
    assert _racked_positions(st, [str(n) for n in range(1, 15)]) == _spots(rack_spots()[1:])
    assert all(not near(p, FOOT, 1.0) for b, p in st.table.items())  # 7.2: the apex is left empty
    assert near(st.table["15"], (1300.0, 1000.0))


def test_wpa_7_8_a_fifteenth_pocketed_with_the_fourteenth_all_fifteen_reracked():
    r, st = _rerack(cue=(800.0, 300.0), fifteen=(1300.0, 1000.0), pot_15=True)
    assert r["points"] == 2 and r["score"] == {"A": 3, "B": 0}
    assert sorted(r["reracked"], key=int) == [str(n) for n in range(1, 16)]
    assert r["next"]["shooter"] == "A"
    assert _racked_positions(st, [str(n) for n in range(1, 16)]) == _spots(rack_spots())


def test_wpa_7_8_b_cue_ball_and_fifteenth_inside_rack_all_fifteen_and_ball_in_hand_kitchen():
    r, st = _rerack(cue=(2000.0, 600.0), fifteen=(2080.0, 700.0))
    assert sorted(r["reracked"], key=int) == [str(n) for n in range(1, 16)]
    assert r["next"]["shooter"] == "A"
    assert r["next"]["cue_ball"] == "in_hand_kitchen"
    assert _racked_positions(st, [str(n) for n in range(1, 16)]) == _spots(rack_spots())


@pytest.mark.parametrize("fifteen, cue, where", [
    ((2000.0, 640.0), (800.0, 300.0), HEAD),              # centre inside the outline
    ((FOOT[0] - 2 * R - 27.0, 635.0), (800.0, 300.0), HEAD),  # centre outside, but part of it over the line
    ((2000.0, 640.0), (HEAD[0] + 20.0, 650.0), CENTRE),   # the cue ball blocks the head spot
], ids=["inside", "over_the_line", "head_spot_blocked"])
def test_wpa_7_8_c_only_fifteenth_inside_rack_goes_to_head_spot(fifteen, cue, where):
    r, st = _rerack(cue=cue, fifteen=fifteen)
    assert sorted(r["reracked"], key=int) == [str(n) for n in range(1, 15)]
    assert _racked_positions(st, [str(n) for n in range(1, 15)]) == _spots(rack_spots()[1:])
    assert near(st.table["15"], where)
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_place"


def test_wpa_7_8_fifteenth_just_clear_of_the_outline_is_not_inside_the_rack():
    fifteen = (FOOT[0] - 2 * R - 33.0, 635.0)  # 33 mm in front of the apex corner: more than a radius
    r, st = _rerack(cue=(800.0, 300.0), fifteen=fifteen)
    assert near(st.table["15"], fifteen)
    assert sorted(r["reracked"], key=int) == [str(n) for n in range(1, 15)]


@pytest.mark.parametrize("fifteen, cue", [
    ((1500.0, 300.0), (2000.0, 635.0)),
    ((HEAD[0], 300.0), (2000.0, 635.0)),                # on the head string counts as beyond it
    ((1500.0, 300.0), (FOOT[0] - 2 * R - 27.0, 635.0)),  # the cue ball only partly over the outline
], ids=["beyond", "on_head_string", "cue_over_the_line"])
def test_wpa_7_8_d_only_cue_ball_inside_fifteenth_on_or_beyond_head_string_ball_in_hand_kitchen(fifteen, cue):
    r, st = _rerack(cue=cue, fifteen=fifteen)
    assert sorted(r["reracked"], key=int) == [str(n) for n in range(1, 15)]
    assert r["next"]["shooter"] == "A"
    assert r["next"]["cue_ball"] == "in_hand_kitchen"
    assert near(st.table["15"], fifteen)


@pytest.mark.parametrize("fifteen, where", [((300.0, 300.0), HEAD), ((HEAD[0] - 30.0, 640.0), CENTRE)],
                         ids=["head_spot", "head_spot_occupied"])
def test_wpa_7_8_d_only_cue_ball_inside_fifteenth_behind_head_string_cue_on_head_spot(fifteen, where):
    r, st = _rerack(cue=(2000.0, 635.0), fifteen=fifteen)
    assert r["next"]["shooter"] == "A"
    assert r["next"]["cue_ball"] != "in_hand_kitchen"
    assert near(st.table["cue"], where)
    assert near(st.table["15"], fifteen)


def _placed(r):
    out = dict(r.get("spotted_at") or {})
    out.update(r["next"].get("spotted_at") or {})
    return out


@pytest.mark.parametrize("fifteen, cue, ball, where", [
    ((2000.0, 640.0), (800.0, 300.0), "15", HEAD),   # (c)
    ((300.0, 300.0), (2000.0, 635.0), "cue", HEAD),  # (d)
], ids=["c_fifteenth", "d_cue_ball"])
def test_wpa_7_8_ruling_reports_where_the_rerack_places_balls(fifteen, cue, ball, where):
    r, _ = _rerack(cue=cue, fifteen=fifteen)
    placed = _placed(r)
    assert ball in placed and near(placed[ball], where)


# =================================================================================================
# 7.9 Normal fouls
# =================================================================================================

def test_wpa_7_9_normal_foul_minus_one_cue_ball_stays_in_place():
    r = rule_one(H, opening_break(), no_rail_foul())
    assert r["legal"] is False
    assert penalised(r)["code"] == "no_rail" and penalised(r)["rule"] == "WPA 3.3"
    assert r["points"] == -1 and r["score"] == {"A": 0, "B": -1}
    assert r["next"]["shooter"] == "A"
    assert r["next"]["cue_ball"] == "in_place"
    assert r["next"]["options"] == []


@pytest.mark.parametrize("where", ["pocket", "off_table"])
def test_wpa_7_9_after_3_1_ball_in_hand_behind_head_string(where):
    gone = pot(1.2, "cue", "side-left") if where == "pocket" else off(1.2, "cue")
    ev = [strike(), hit(0.3, "3"), rail(0.6, "3", "left"), gone, stop(4.0)]
    r = rule_one(H, opening_break(), S(POS, ev, called=call("3")))
    assert r["legal"] is False
    assert penalised(r)["code"] in ("cue_ball_pocketed", "cue_ball_off_table")
    assert penalised(r)["rule"] == "WPA 3.1"
    assert r["points"] == -1
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_hand_kitchen"


def test_wpa_7_9_called_ball_pocketed_with_a_scratch_is_spotted_and_costs_one():
    ev = [strike(), hit(0.3, "3"), pot(0.9, "3", "foot-left"), pot(1.5, "cue", "side-left"), stop(4.0)]
    r = rule_one(H, opening_break(), S(POS, ev, called=call("3", "foot-left")))
    assert r["points"] == -1 and r["spotted"] == ["3"]
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_hand_kitchen"


def _kitchen_pos():
    """B scratches (A gets ball in hand behind the head string); A then plays from (300, 640)."""
    return dict(POS, cue=(300.0, 640.0))


def test_wpa_7_9_after_3_11_second_paragraph_ball_in_hand_behind_head_string():
    """From the kitchen the cue ball neither crosses the head string nor hits a ball on or in front
    of it (3.11, 2nd paragraph): 7.9 gives the opponent ball in hand behind the head string."""
    ev = [strike(), rail(0.5, "cue", "head"), stop(3.0)]
    rulings, _ = rule(H, opening_break(), scratch(), S(_kitchen_pos(), ev))
    r = rulings[-1]
    assert r["shooter"] == "A"
    assert r["legal"] is False
    assert "bad_play_from_kitchen" in codes(r)
    assert next(f for f in r["fouls"] if f["code"] == "bad_play_from_kitchen")["rule"] == "WPA 3.11"
    assert r["points"] == -1 and r["score"] == {"A": -1, "B": -1}
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_kitchen"


def test_wpa_7_9_after_3_11_first_paragraph_cue_ball_stays_in_place():
    pos = dict(_kitchen_pos(), **{"12": (520.0, 700.0)})  # the 12 is behind the head string
    ev = [strike(), hit(0.2, "12"), cross(0.5), rail(0.9, "12", "right"), rail(1.3, "cue", "foot"), stop(4.0)]
    rulings, _ = rule(H, opening_break(), scratch(), S(pos, ev, called=call("3")))
    r = rulings[-1]
    assert "bad_play_from_kitchen" in codes(r)
    assert r["points"] == -1
    assert r["next"]["shooter"] == "B"
    assert r["next"]["cue_ball"] == "in_place"


def test_wpa_7_9_3_10_cue_ball_placed_on_head_string_foul_cue_ball_stays():
    pos = dict(POS, cue=(HEAD[0] + 5.0, 640.0))  # placed in front of the head string
    ev = [strike(), hit(0.3, "3"), rail(0.8, "3", "right"), stop(4.0)]
    rulings, _ = rule(H, opening_break(), scratch(), S(pos, ev, called=call("3")))
    r = rulings[-1]
    assert penalised(r)["code"] == "bad_cue_ball_placement" and penalised(r)["rule"] == "WPA 3.10"
    assert r["points"] == -1
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_place"


def test_wpa_7_9_3_2_does_not_apply_any_ball_may_be_hit_first():
    # the 9 hit first although lower balls are on the table; the called 9 is made
    ev = [strike(), hit(0.3, "9"), pot(0.9, "9", "foot-left"), stop(4.0)]
    r = rule_one(H, opening_break(), S(POS, ev, called=call("9", "foot-left")))
    assert "wrong_ball_first" not in codes(r)
    assert r["legal"] is True and r["points"] == 1
    assert r["next"]["shooter"] == "B"


# =================================================================================================
# 7.10 Breaking foul + normal foul on one shot
# =================================================================================================

def test_wpa_7_10_normal_and_breaking_foul_on_one_shot_is_a_breaking_foul_only():
    before = {"cue": CUE_KITCHEN, **full_rack()}
    # one object ball to a rail (the cue ball's pocket counts as its rail, 2.7), and a scratch (3.1)
    ev = [strike(), hit(0.30, "1"), rail(0.70, "6", "left"), pot(1.2, "cue", "head-left"), stop(4.0)]
    r = rule_one(H, S(before, ev, break_=True, called=call("5")))
    assert set(codes(r)) >= {"illegal_break", "cue_ball_pocketed"}
    assert penalised(r)["code"] == "illegal_break"
    assert r["points"] == -2  # not -3
    assert r["score"] == {"A": -2, "B": 0}
    assert set(r["next"]["options"]) == {"accept_table", "rebreak"}
    # if the table is accepted, the scratch (3.1) still gives ball in hand behind the head string
    assert r["next"]["effects"]["accept_table"]["cue_ball"] == "in_hand_kitchen"


# =================================================================================================
# 7.11 Three consecutive fouls; the target score
# =================================================================================================

def test_wpa_7_11_third_consecutive_foul_minus_sixteen_and_offender_breaks_full_rerack():
    rulings, st = rule(H, opening_break(), no_rail_foul(), miss(), no_rail_foul(), miss(), no_rail_foul())
    third = rulings[-1]
    assert third["shooter"] == "B"
    f = next(x for x in third["fouls"] if x["code"] == "consecutive_fouls")
    assert f["rule"] == "WPA 7.11" and f["penalised"] is True
    assert third["points"] == -16
    assert third["score"] == {"A": 0, "B": -18}
    assert third["next"]["shooter"] == "B"
    assert third["next"].get("break") is True
    assert third["next"]["cue_ball"] == "in_hand_kitchen"
    assert st.fouls_in_row["B"] == 0
    # B breaks a full 15-ball rack (7.3), and the count starts again: the next foul is -1
    brk = {"cue": CUE_KITCHEN, **full_rack()}
    ev = [strike(), hit(0.30, "1"), rail(0.70, "6", "left"), rail(0.75, "11", "right"),
          rail(1.10, "cue", "left"), stop(4.0)]
    rulings, _ = rule(H, opening_break(), no_rail_foul(), miss(), no_rail_foul(), miss(), no_rail_foul(),
                      S(brk, ev, break_=True, called=call("5")), miss(), no_rail_foul())
    rebreak, _, after = rulings[-3:]
    assert rebreak["shooter"] == "B" and rebreak["break"] is True and rebreak["legal"] is True
    assert after["shooter"] == "B" and after["points"] == -1
    assert "consecutive_fouls" not in codes(after)


def test_wpa_7_11_player_warned_arriving_with_two_consecutive_fouls():
    rulings, _ = rule(H, opening_break(), no_rail_foul(), miss(), no_rail_foul(), miss())
    assert rulings[-1]["next"]["shooter"] == "B"
    assert re.search(r"\bB\b", rulings[-1]["next"].get("warning") or "")
    assert rulings[2]["next"].get("warning") is None  # one foul only: no warning yet


def test_wpa_7_11_a_legal_shot_between_fouls_resets_the_count():
    rulings, _ = rule(H, opening_break(), no_rail_foul(), miss(), miss(POS, "3"), miss(), no_rail_foul(), miss(),
                      no_rail_foul())
    last = rulings[-1]
    assert "consecutive_fouls" not in codes(last)
    assert last["points"] == -1 and last["score"]["B"] == -3


def test_wpa_7_11_breaking_fouls_do_not_count_toward_three():
    before = {"cue": CUE_KITCHEN, **full_rack()}
    bad = BREAKING_FOULS["one_object_ball"]
    scratch_bad = [strike(), hit(0.30, "1"), rail(0.70, "6", "left"), pot(1.2, "cue", "head-left"), stop(4.0)]
    rulings, st = rule(
        H,
        S(before, bad, break_=True, called=call("5")), decision("rebreak"),
        S(before, scratch_bad, break_=True, called=call("5")), decision("rebreak"),  # 7.10: a breaking foul
        S(before, bad, break_=True, called=call("5")), decision("accept_table"),
        miss(), no_rail_foul(),
    )
    assert [r["points"] for r in rulings[:3]] == [-2, -2, -2]
    assert all("consecutive_fouls" not in codes(r) for r in rulings)
    assert rulings[3]["shooter"] == "B"
    assert rulings[4]["shooter"] == "A" and rulings[4]["points"] == -1  # A's first normal foul
    assert rulings[4]["score"] == {"A": -7, "B": 0}
    assert st.fouls_in_row["A"] == 1


def test_wpa_7_win_on_reaching_the_target_score():
    h = header("straight-pool", target_score=3)
    ev1 = [strike(), hit(0.3, "3"), pot(0.9, "3", "foot-left"), stop(4.0)]
    ev2 = [strike(), hit(0.3, "4"), pot(0.9, "4", "foot-right"), stop(4.0)]
    p2 = {k: v for k, v in POS.items() if k != "3"}
    rulings, _ = rule(h, potting_break("5"), S(POS, ev1, called=call("3", "foot-left")),
                      S(p2, ev2, called=call("4", "foot-right")))
    assert rulings[1]["rack_over"] is None and rulings[1]["score"] == {"A": 2, "B": 0}
    last = rulings[-1]
    assert last["score"] == {"A": 3, "B": 0}
    assert last["rack_over"] is not None and last["rack_over"]["winner"] == "A"


def test_wpa_7_4_the_shot_clock_restarts_after_the_rerack():
    # With a 35 s clock, the shot after a 14-ball re-rack is not timed from the last ball's stop.
    h = header("straight-pool", target_score=100, shot_clock_s=35)
    one_left = {"cue": (900.0, 500.0), "7": (1500.0, 300.0), "12": (800.0, 1000.0)}
    brk = shot({**full_rack(), "cue": (500.0, 640.0)}, [strike(), cross(0.1), hit(0.3, "1"),
               *[pot(0.8 + 0.01 * i, b, "foot-left") for i, b in enumerate(b for b in full_rack() if b not in ("7", "12"))],
               stop(4.0)], after=one_left, t0=0.0, called={"ball": "1", "pocket": "foot-left"})
    pot7 = shot(one_left, [strike(), hit(0.3, "7"), pot(0.9, "7", "side-left"), stop(3.0)], t0=10.0,
                after={"cue": (1000.0, 450.0), "12": (800.0, 1000.0)}, called={"ball": "7", "pocket": "side-left"})
    rs, st = rule(h, brk, pot7)
    assert rs[-1]["reracked"]
    racked = {b: tuple(p) for b, p in st.table.items()}
    later = shot(racked, [strike(), hit(0.3, "12"), rail(0.9, "12", "left"), stop(3.0)], t0=13.0 + 66.0)
    r = rule(h, brk, pot7, later)[0][-1]
    assert "shot_clock" not in codes(r)

