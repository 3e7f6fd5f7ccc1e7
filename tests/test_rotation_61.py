"""Vietnamese 15-ball rotation to 61 points (VN 78-94), scenario by scenario.

Expectations come from the article text (translated in the project's research notes, with the
'adjudicator reading' where the text is ambiguous) and from the table geometry: 9 ft table
2540 x 1270 mm, ball 57.15 mm, foot spot (1905, 635), head string x = 635. A re-spotted ball's
centre may not be closer to a cushion nose than a radius, so "against the foot cushion" on the long
string is x = 2540 - 28.575.
"""
from __future__ import annotations

import itertools
import math
import re

import pytest
from helpers import (
    airborne,
    codes,
    cross,
    decision,
    disturbed,
    full_rack,
    header,
    hit,
    off,
    penalised,
    pot,
    rail,
    rule,
    rule_one,
    shot,
    stop,
    strike,
)

D = 57.15
R = D / 2
L, W = 2540.0, 1270.0
FOOT = (1905.0, 635.0)
HEAD_X = 635.0
CUSHION_X = L - R  # a ball frozen to the foot cushion, on the long string
ROW_DX = D * math.sqrt(3) / 2

H = header("rotation-61")
CUE_KITCHEN = (500.0, 635.0)

_T = itertools.count(0.0, 20.0)  # strictly increasing media times


def S(before, events, **kw):
    return shot(before, events, t0=next(_T), **kw)




def near(p, q, tol=0.06):
    return abs(p[0] - q[0]) <= tol and abs(p[1] - q[1]) <= tol


def on_string(p):
    return abs(p[1] - 635.0) <= 0.06


# A mid-rack position: the 3 is the lowest ball, beyond the head string; the foot spot and the
# long string are clear.
POS = {"cue": (900.0, 400.0), "3": (1500.0, 300.0), "5": (1700.0, 900.0), "8": (1200.0, 1000.0),
       "9": (2200.0, 200.0), "12": (1000.0, 700.0)}


def open_break():
    """A's legal break: the 1 first, nothing pocketed, four object balls other than the 1 to a rail
    (VN 81) -> B plays the position (VN 82)."""
    before = {"cue": CUE_KITCHEN, **full_rack()}
    ev = [strike(), hit(0.30, "1"), rail(0.7, "6", "left"), rail(0.75, "10", "right"),
          rail(0.8, "11", "foot"), rail(0.9, "15", "foot"), stop(4.0)]
    return S(before, ev, break_=True)


def miss(before=POS, ball="3"):
    return S(before, [strike(), hit(0.3, ball), rail(0.8, ball, "right"), stop(4.0)])


def no_rail_foul(before=POS, ball="3"):
    return S(before, [strike(), hit(0.3, ball), stop(4.0)])


def scratch(before=POS, ball="3"):
    return S(before, [strike(), hit(0.3, ball), rail(0.6, ball, "left"), pot(1.2, "cue", "side-left"), stop(4.0)])


def _placed(r):
    out = dict(r.get("spotted_at") or {})
    out.update(r["next"].get("spotted_at") or {})
    return out


# =================================================================================================
# VN 78 Object of the game
# =================================================================================================

def test_vn_78_lowest_ball_first_any_ball_pocketed_counts_shooter_continues():
    ev = [strike(), hit(0.3, "3"), hit(0.6, "9", "3"), pot(1.1, "9", "foot-left"), stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev))
    assert r["shooter"] == "B"
    assert r["legal"] is True and r["fouls"] == []
    assert r["points"] == 9 and r["score"] == {"A": 0, "B": 9}
    assert r["spotted"] == []
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_place"
    assert r["next"]["options"] == []


def test_vn_78_balls_need_not_go_down_in_order():
    ev = [strike(), hit(0.3, "3"), pot(0.9, "3", "foot-left"), pot(1.2, "12", "side-right"), stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev))
    assert r["legal"] is True and r["points"] == 15 and r["score"]["B"] == 15
    assert r["next"]["shooter"] == "B"


def test_vn_78_miss_passes_the_turn_with_no_options():
    r = rule_one(H, open_break(), miss())
    assert r["legal"] is True and r["points"] == 0
    assert r["next"]["shooter"] == "A"
    assert r["next"]["cue_ball"] == "in_place"
    assert r["next"]["options"] == []
    assert "decider" not in r["next"]


# =================================================================================================
# VN 79 Scoring, 61 wins, 60-60 replay
# =================================================================================================

def _after_break(gone):
    return {"cue": (900.0, 400.0), **{b: p for b, p in full_rack().items() if b not in gone}}


def test_vn_79_ball_values_and_61_wins_the_rack():
    before = {"cue": CUE_KITCHEN, **full_rack()}
    ev = [strike(), hit(0.3, "1"), pot(1.0, "15", "foot-left"), pot(1.1, "14", "foot-right"),
          pot(1.2, "13", "side-left"), pot(1.3, "12", "side-right"), stop(4.0)]
    brk = S(before, ev, break_=True)
    pos = _after_break({"12", "13", "14", "15"})
    ev2 = [strike(), hit(0.3, "1"), hit(0.5, "7", "1"), pot(1.0, "7", "foot-left"), stop(4.0)]
    rulings, _ = rule(H, brk, S(pos, ev2))
    first, last = rulings
    assert first["points"] == 54 and first["score"] == {"A": 54, "B": 0}
    assert first["rack_over"] is None and first["next"]["shooter"] == "A"
    assert last["points"] == 7 and last["score"] == {"A": 61, "B": 0}
    assert last["rack_over"] is not None and last["rack_over"]["winner"] == "A"
    assert last["racks"] == {"A": 1, "B": 0}
    assert last["next"].get("break") is True


def test_vn_79_sixty_all_after_fifteen_balls_is_replayed_broken_by_last_potter():
    """A breaks (nothing down); B takes 15+14+13+12+6 = 60 and misses; A takes the other ten balls,
    the 11 last, for 60. The rack is a draw and A, who pocketed the last ball, breaks the replay
    (with alternating breaks B would have broken next)."""
    rest = _after_break(set())
    ev_b = [strike(), hit(0.3, "1"), pot(1.0, "15", "foot-left"), pot(1.1, "14", "foot-right"),
            pot(1.2, "13", "side-left"), pot(1.3, "12", "side-right"), pot(1.4, "6", "head-left"), stop(4.0)]
    pos2 = {b: p for b, p in rest.items() if b not in {"15", "14", "13", "12", "6"}}
    pos3 = {"cue": (900.0, 400.0), "11": (1500.0, 300.0)}
    ten = ["1", "2", "3", "4", "5", "7", "8", "9", "10"]
    ev_a = [strike(), hit(0.3, "1")] + [pot(1.0 + 0.1 * i, b, "foot-left" if i % 2 else "foot-right")
                                         for i, b in enumerate(ten)] + [stop(5.0)]
    pos_a = {b: p for b, p in pos2.items() if b in ten or b == "cue"}
    pos_a["11"] = (1500.0, 300.0)
    ev_last = [strike(), hit(0.3, "11"), pot(1.0, "11", "foot-left"), stop(4.0)]
    rulings, st = rule(H, open_break(), S(rest, ev_b), miss(pos2, "1"), S(pos_a, ev_a, after=dict(pos3)),
                       S(pos3, ev_last))
    b60, bmiss, a49, a60 = rulings[1:]
    assert b60["score"] == {"A": 0, "B": 60} and b60["rack_over"] is None
    assert a49["points"] == 49 and a49["score"] == {"A": 49, "B": 60}
    assert a60["score"] == {"A": 60, "B": 60}
    assert a60["rack_over"] is not None and a60["rack_over"]["winner"] is None
    assert a60["racks"] == {"A": 0, "B": 0}
    assert a60["next"]["shooter"] == "A" and a60["next"].get("break") is True
    assert st.breaker == "A" and st.phase == "break"


# =================================================================================================
# VN 81 The break
# =================================================================================================

def test_vn_81_one_first_and_a_ball_pocketed_is_legal_and_scores():
    before = {"cue": CUE_KITCHEN, **full_rack()}
    ev = [strike(), hit(0.3, "1"), pot(1.0, "7", "foot-right"), stop(4.0)]
    r = rule_one(H, S(before, ev, break_=True))
    assert r["break"] is True and r["legal"] is True
    assert r["points"] == 7 and r["score"] == {"A": 7, "B": 0}
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_place"


def test_vn_81_one_first_and_four_other_balls_to_rails_is_legal():
    r = rule_one(H, open_break())
    assert r["legal"] is True and r["fouls"] == []
    assert r["points"] == 0
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_place" and r["next"]["options"] == []


def _kitchen_options(r):
    assert r["next"]["shooter"] == "B"
    assert r["next"]["cue_ball"] == "in_hand_kitchen"
    assert "accept_table" not in r["next"]["options"]


def test_vn_81_failed_break_cue_ball_in_hand_behind_head_string_per_87():
    """The 1 and only three other balls reach a rail: the 1 does not count toward the four."""
    before = {"cue": CUE_KITCHEN, **full_rack()}
    ev = [strike(), hit(0.30, "1"), rail(0.6, "1", "left"), rail(0.7, "6", "left"), rail(0.75, "10", "right"),
          rail(0.8, "11", "foot"), stop(4.0)]
    r = rule_one(H, S(before, ev, break_=True))
    assert r["legal"] is False
    assert penalised(r)["code"] == "illegal_break" and penalised(r)["rule"] == "VN 81"
    assert r["points"] == 0 and r["score"] == {"A": 0, "B": 0}
    _kitchen_options(r)
    # 87: the 1 is beyond the head string, so it may stay or be spotted
    assert set(r["next"]["options"]) == {"ball_in_hand_kitchen", "spot_lowest_ball"}


def test_vn_81_break_must_contact_the_one_first():
    before = {"cue": CUE_KITCHEN, **full_rack()}
    ev = [strike(), hit(0.30, "2"), pot(1.0, "7", "foot-right"), rail(0.7, "6", "left"), rail(0.75, "10", "right"),
          rail(0.8, "11", "foot"), rail(0.9, "15", "foot"), stop(4.0)]
    r = rule_one(H, S(before, ev, break_=True))
    assert r["legal"] is False
    f = next(x for x in r["fouls"] if x["code"] == "wrong_ball_first")
    assert f["rule"] == "VN 83"
    assert r["points"] == 0 and r["score"] == {"A": 0, "B": 0}
    assert r["spotted"] == ["7"] and near(r["spotted_at"]["7"], (CUSHION_X, 635.0))  # 85, 91
    _kitchen_options(r)


def test_vn_81_scratch_on_break_is_a_foul_and_pocketed_ball_does_not_score():
    before = {"cue": CUE_KITCHEN, **full_rack()}
    ev = [strike(), hit(0.30, "1"), pot(1.0, "7", "foot-right"), pot(1.5, "cue", "side-left"), stop(4.0)]
    r = rule_one(H, S(before, ev, break_=True))
    assert r["legal"] is False
    assert penalised(r)["code"] == "cue_ball_pocketed" and penalised(r)["rule"] == "VN 87"
    assert r["points"] == 0 and r["score"] == {"A": 0, "B": 0}
    assert r["spotted"] == ["7"] and near(r["spotted_at"]["7"], (CUSHION_X, 635.0))
    _kitchen_options(r)


def test_vn_81_object_ball_off_table_on_break_is_a_foul_with_the_85_choice():
    before = {"cue": CUE_KITCHEN, **full_rack()}
    ev = [strike(), hit(0.30, "1"), pot(1.0, "7", "foot-right"), off(1.1, "9"), stop(4.0)]
    r = rule_one(H, S(before, ev, break_=True))
    assert r["legal"] is False
    assert r["points"] == 0 and r["score"] == {"A": 0, "B": 0}
    assert sorted(r["spotted"], key=int) == ["7", "9"]
    assert r["next"]["shooter"] == "B"
    assert "accept_table" in r["next"]["options"]


# =================================================================================================
# VN 83 / 84 Illegal contact, no rail
# =================================================================================================

def test_vn_83_first_contact_not_the_lowest_ball_is_a_foul():
    ev = [strike(), hit(0.3, "5"), pot(0.9, "5", "foot-right"), stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev))
    assert r["legal"] is False
    assert penalised(r)["code"] == "wrong_ball_first" and penalised(r)["rule"] == "VN 83"
    assert r["points"] == 0 and r["score"] == {"A": 0, "B": 0}
    assert r["next"]["shooter"] == "A"


def test_vn_83_no_contact_at_all_is_a_foul():
    ev = [strike(), rail(0.6, "cue", "right"), stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev))
    assert r["legal"] is False
    assert penalised(r)["rule"] in ("VN 83", "VN 84")
    assert r["next"]["shooter"] == "A"


def test_vn_84_no_pocket_and_no_rail_after_contact_is_a_foul():
    r = rule_one(H, open_break(), no_rail_foul())
    assert r["legal"] is False
    assert penalised(r)["code"] == "no_rail" and penalised(r)["rule"] == "VN 84"


def test_vn_84_rail_before_contact_does_not_count():
    ev = [strike(), rail(0.2, "cue", "left"), hit(0.6, "3"), stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev))
    assert r["legal"] is False
    assert penalised(r)["code"] == "no_rail" and penalised(r)["rule"] == "VN 84"


def test_vn_84_cue_ball_to_a_rail_after_contact_is_enough():
    ev = [strike(), hit(0.3, "3"), rail(0.8, "cue", "left"), stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev))
    assert r["legal"] is True and r["fouls"] == []
    assert r["next"]["shooter"] == "A"


# =================================================================================================
# VN 85 Foul: the incoming player's choice
# =================================================================================================

def test_vn_85_foul_options_and_pocketed_balls_score_nothing_and_are_respotted():
    ev = [strike(), hit(0.3, "5"), hit(0.6, "9", "5"), pot(1.0, "9", "foot-left"), stop(4.0)]  # 5 first: foul
    r = rule_one(H, open_break(), S(POS, ev))
    assert r["legal"] is False
    assert r["points"] == 0 and r["score"] == {"A": 0, "B": 0}
    assert r["spotted"] == ["9"]
    assert near(r["spotted_at"]["9"], (CUSHION_X, 635.0))  # not the lowest: VN 91 line
    nxt = r["next"]
    assert nxt["shooter"] == "A" and nxt["decider"] == "A"
    assert set(nxt["options"]) == {"accept_table", "ball_in_hand_kitchen", "spot_lowest_ball"}
    eff = nxt["effects"]
    assert eff["accept_table"]["shooter"] == "A" and eff["accept_table"]["cue_ball"] == "in_place"
    assert eff["ball_in_hand_kitchen"]["cue_ball"] == "in_hand_kitchen"
    assert "spotted_at" not in eff["ball_in_hand_kitchen"]  # object balls where they are
    assert eff["spot_lowest_ball"]["cue_ball"] == "in_hand_kitchen"
    assert near(eff["spot_lowest_ball"]["spotted_at"]["3"], FOOT)


def test_vn_85_accept_table_incoming_player_plays_cue_ball_where_it_lies():
    rulings, st = rule(H, open_break(), no_rail_foul(), decision("accept_table", player="A"))
    assert st.shooter == "A" and st.cue_ball == "in_place"
    rulings, _ = rule(H, open_break(), no_rail_foul(), decision("accept_table", player="A"), miss())
    assert rulings[-1]["shooter"] == "A" and rulings[-1]["legal"] is True


# =================================================================================================
# VN 86 Spotting the lowest ball
# =================================================================================================

def _foul_leaving(after, spotted_choice=True):
    """B fouls (no rail) leaving `after`; A chooses to spot the lowest ball."""
    before = dict(POS)
    before.update({k: v for k, v in after.items() if k != "cue"})
    entries = [open_break(), S(before, [strike(), hit(0.3, "3"), stop(4.0)], after=after)]
    if spotted_choice:
        entries.append(decision("spot_lowest_ball", player="A"))
    return rule(H, *entries)


def test_vn_86_lowest_ball_spotted_on_free_foot_spot_cue_ball_in_hand_kitchen():
    rulings, st = _foul_leaving(dict(POS))
    eff = rulings[-1]["next"]["effects"]["spot_lowest_ball"]
    assert near(eff["spotted_at"]["3"], FOOT)
    assert st.shooter == "A" and st.cue_ball == "in_hand_kitchen"
    assert near(st.table["3"], FOOT)


@pytest.mark.parametrize("blocker, expected_x", [
    ((1920.0, 635.0), 1920.0 - D),                                  # head side is nearer
    ((1890.0, 635.0), 1890.0 + D),                                  # foot side is nearer
    ((1915.0, 675.0), 1915.0 - math.sqrt(D * D - 40.0 ** 2)),       # a ball near the string also blocks
], ids=["head_side", "foot_side", "off_string_blocker"])
def test_vn_86_lowest_ball_spotted_nearest_free_point(blocker, expected_x):
    after = dict(POS, **{"9": blocker})
    rulings, st = _foul_leaving(after)
    eff = rulings[-1]["next"]["effects"]["spot_lowest_ball"]
    p = eff["spotted_at"]["3"]
    assert near(p, (expected_x, 635.0), tol=0.1)
    # frozen to the blocker
    assert math.dist(p, blocker) == pytest.approx(D, abs=0.1)
    assert near(st.table["3"], (expected_x, 635.0), tol=0.1)


def test_vn_86_cue_ball_in_hand_does_not_block_the_foot_spot():
    after = dict(POS, cue=FOOT)
    rulings, st = _foul_leaving(after)
    eff = rulings[-1]["next"]["effects"]["spot_lowest_ball"]
    assert near(eff["spotted_at"]["3"], FOOT)


# =================================================================================================
# VN 87 Cue ball pocketed or off the table
# =================================================================================================

@pytest.mark.parametrize("how", ["pocket", "off_table"])
def test_vn_87_scratch_no_accept_table_lowest_may_stay_or_be_spotted(how):
    gone = pot(1.2, "cue", "side-left") if how == "pocket" else off(1.2, "cue")
    ev = [strike(), hit(0.3, "3"), rail(0.6, "3", "left"), gone, stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev))
    assert r["legal"] is False
    assert penalised(r)["code"] in ("cue_ball_pocketed", "cue_ball_off_table")
    assert penalised(r)["rule"] == "VN 87"
    assert r["next"]["shooter"] == "A"
    assert r["next"]["cue_ball"] == "in_hand_kitchen"
    assert set(r["next"]["options"]) == {"ball_in_hand_kitchen", "spot_lowest_ball"}
    eff = r["next"]["effects"]
    assert eff["ball_in_hand_kitchen"]["cue_ball"] == "in_hand_kitchen" and "spotted_at" not in eff["ball_in_hand_kitchen"]
    assert near(eff["spot_lowest_ball"]["spotted_at"]["3"], FOOT)


def _scratch_with_lowest_in_kitchen(*decisions):
    """B, playing the 3 (the lowest, lying behind the head string), scratches."""
    pos = dict(POS, **{"3": (400.0, 300.0)})
    ev = [strike(), hit(0.3, "3"), rail(0.6, "3", "head"), pot(1.2, "cue", "side-left"), stop(4.0)]
    return rule(H, open_break(), S(pos, ev), *decisions)


def test_vn_87_lowest_ball_behind_head_string_must_be_spotted():
    rulings, st = _scratch_with_lowest_in_kitchen()
    r = rulings[-1]
    assert r["legal"] is False and penalised(r)["rule"] == "VN 87"
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_hand_kitchen"
    # no choice but the spot: either offered alone or carried out at once
    assert set(r["next"]["options"]) <= {"spot_lowest_ball"}
    if r["next"]["options"]:
        rulings, st = _scratch_with_lowest_in_kitchen(decision("spot_lowest_ball"))
    assert near(st.table["3"], FOOT)
    assert st.shooter == "A" and st.cue_ball == "in_hand_kitchen"


def test_vn_87_forced_spot_is_reported_in_the_ruling():
    rulings, _ = _scratch_with_lowest_in_kitchen()
    r = rulings[-1]
    placed = _placed(r)
    for e in (r["next"].get("effects") or {}).values():
        placed.update(e.get("spotted_at") or {})
    assert "3" in placed and near(placed["3"], FOOT)


# =================================================================================================
# VN 88 Jump or swerve disturbing a ball
# =================================================================================================

def test_vn_88_ball_disturbed_during_a_jump_is_a_foul():
    ev = [strike(), airborne(0.05, 0.4), disturbed(0.2, "12"), hit(0.6, "3"), rail(1.0, "3", "right"), stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev, moved={"12": (1010.0, 705.0)}))
    assert r["legal"] is False
    f = penalised(r)
    assert f["code"] == "ball_disturbed" and f["rule"] == "VN 88"
    assert r["next"]["shooter"] == "A"
    assert set(r["next"]["options"]) == {"accept_table", "ball_in_hand_kitchen", "spot_lowest_ball"}


# =================================================================================================
# VN 89 / 91 Balls pocketed or off the table on a foul
# =================================================================================================

def test_vn_89_lowest_ball_pocketed_on_foul_goes_to_foot_spot_cue_ball_stays_or_kitchen():
    ev = [strike(), hit(0.3, "5"), hit(0.5, "3", "5"), pot(1.0, "3", "foot-left"), stop(4.0)]  # 5 first: foul
    r = rule_one(H, open_break(), S(POS, ev))
    assert r["legal"] is False and penalised(r)["rule"] == "VN 83"
    assert r["points"] == 0 and r["score"] == {"A": 0, "B": 0}
    assert r["spotted"] == ["3"] and near(r["spotted_at"]["3"], FOOT)
    assert set(r["next"]["options"]) == {"accept_table", "ball_in_hand_kitchen"}
    assert r["next"]["effects"]["accept_table"]["cue_ball"] == "in_place"
    assert r["next"]["effects"]["ball_in_hand_kitchen"]["cue_ball"] == "in_hand_kitchen"


def test_vn_89_lowest_to_foot_spot_others_on_the_91_line():
    ev = [strike(), hit(0.3, "5"), pot(0.8, "9", "foot-left"), hit(0.5, "3", "5"), pot(1.0, "3", "foot-left"),
          pot(1.2, "12", "side-left"), stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev))
    assert sorted(r["spotted"], key=int) == ["3", "9", "12"]
    assert near(r["spotted_at"]["3"], FOOT)
    assert near(r["spotted_at"]["9"], (CUSHION_X, 635.0))
    p12 = r["spotted_at"]["12"]
    assert on_string(p12) and FOOT[0] + D <= p12[0] <= CUSHION_X - D + 0.06


def test_vn_89_lowest_pocketed_with_a_scratch_only_kitchen():
    ev = [strike(), hit(0.3, "3"), pot(0.8, "3", "foot-left"), pot(1.2, "cue", "side-left"), stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev))
    assert r["legal"] is False
    assert r["points"] == 0
    assert near(r["spotted_at"]["3"], FOOT)
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_hand_kitchen"
    assert "accept_table" not in r["next"]["options"]
    assert "spot_lowest_ball" not in r["next"]["options"]


def test_vn_89_foot_spot_blocked_lowest_goes_to_nearest_free_point_per_86():
    pos = dict(POS, **{"9": (1920.0, 635.0)})
    ev = [strike(), hit(0.3, "5"), hit(0.5, "3", "5"), pot(1.0, "3", "foot-left"), stop(4.0)]
    r = rule_one(H, open_break(), S(pos, ev))
    assert near(r["spotted_at"]["3"], (1920.0 - D, 635.0), tol=0.1)


def test_vn_89_object_ball_off_the_table_is_a_foul_cited_vn_89():
    ev = [strike(), hit(0.3, "3"), off(0.8, "3"), stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev))
    assert r["legal"] is False
    assert penalised(r)["code"] == "object_ball_off_table"
    assert penalised(r)["rule"] == "VN 89"


def test_vn_89_object_ball_off_the_table_is_respotted():
    ev = [strike(), hit(0.3, "3"), off(0.8, "3"), off(0.9, "9"), stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev))
    assert r["legal"] is False and r["points"] == 0
    assert near(r["spotted_at"]["3"], FOOT)          # the lowest (main) ball
    assert near(r["spotted_at"]["9"], (CUSHION_X, 635.0))
    assert set(r["next"]["options"]) == {"accept_table", "ball_in_hand_kitchen"}


def test_vn_91_several_balls_ascending_lowest_nearest_foot_cushion():
    ev = [strike(), hit(0.3, "5"), pot(0.8, "12", "foot-left"), pot(0.9, "9", "foot-right"),
          pot(1.0, "8", "side-left"), stop(4.0)]
    r = rule_one(H, open_break(), S(POS, ev))
    sp = r["spotted_at"]
    assert sorted(sp, key=int) == ["8", "9", "12"]
    assert all(on_string(p) for p in sp.values())
    assert near(sp["8"], (CUSHION_X, 635.0))        # the lowest against the foot cushion
    assert sp["8"][0] > sp["9"][0] > sp["12"][0]      # ascending toward the foot spot
    assert all(FOOT[0] <= p[0] for p in sp.values())  # between the foot spot and the foot cushion
    xs = sorted(p[0] for p in sp.values())
    assert all(b - a >= D - 0.1 for a, b in zip(xs, xs[1:]))  # no overlap
    assert "3" not in sp                              # the lowest stayed on the table


def test_vn_91_no_room_at_foot_end_continues_past_foot_spot_toward_centre():
    line = {str(n): (FOOT[0] + k * D, 635.0) for k, n in enumerate(range(5, 16))}  # 11 balls fill it
    pos = {"cue": (900.0, 400.0), "1": (1000.0, 300.0), "2": (1500.0, 1000.0), "3": (1200.0, 200.0),
           "4": (1300.0, 1100.0), **line}
    ev = [strike(), hit(0.3, "2"), pot(0.8, "4", "side-right"), hit(0.4, "3", "2"), pot(1.0, "3", "side-left"),
          stop(4.0)]
    r = rule_one(H, open_break(), S(pos, ev))
    assert r["legal"] is False
    sp = r["spotted_at"]
    assert near(sp["3"], (FOOT[0] - D, 635.0))
    assert near(sp["4"], (FOOT[0] - 2 * D, 635.0))


# =================================================================================================
# VN 92 Four consecutive fouls
# =================================================================================================

def _b_fouls(n, legal_after=None):
    entries = [open_break()]
    for i in range(n):
        if legal_after is not None and i == legal_after:
            entries += [miss(), miss()]  # B's legal inning, then A's
        entries += [no_rail_foul(), decision("accept_table", player="A"), miss()]
    return entries


def test_vn_92_four_consecutive_fouls_lose_the_rack_warning_after_third():
    entries = _b_fouls(3) + [no_rail_foul()]
    rulings, st = rule(H, *entries)
    shots = rulings[1:]  # B foul, A miss, B foul, A miss, B foul, A miss, B foul
    assert [r["shooter"] for r in shots] == ["B", "A"] * 3 + ["B"]
    fourth = shots[-1]
    f = next(x for x in fourth["fouls"] if x["code"] == "consecutive_fouls")
    assert f["rule"] == "VN 92"
    assert fourth["rack_over"] is not None and fourth["rack_over"]["winner"] == "A"
    assert fourth["racks"] == {"A": 1, "B": 0}
    assert fourth["next"].get("break") is True
    # the warning comes between the third and the fourth foul, not before
    warned = [r for r in shots[4:6] if re.search(r"\bB\b", r["next"].get("warning") or "")]
    assert warned
    assert not any(r["next"].get("warning") for r in shots[:4])
    # three fouls do not lose the rack
    assert all(r["rack_over"] is None for r in shots[:-1])


def test_vn_92_an_inning_without_a_foul_breaks_the_sequence():
    entries = _b_fouls(4, legal_after=3)
    rulings, st = rule(H, *entries)
    assert all(r["rack_over"] is None for r in rulings)
    assert all("consecutive_fouls" not in codes(r) for r in rulings)
    assert st.fouls_in_row["B"] == 1


# =================================================================================================
# VN 93 Playing from the kitchen
# =================================================================================================

def _a_in_kitchen(pos_for_a, events, **kw):
    """B fouls (no rail); A chooses ball in hand behind the head string and plays `events`."""
    return rule(H, open_break(), no_rail_foul(), decision("ball_in_hand_kitchen", player="A"),
                S(pos_for_a, events, **kw))


def test_vn_93_cushion_before_leaving_the_kitchen_is_a_foul():
    pos = dict(POS, cue=(300.0, 200.0))
    ev = [strike(), rail(0.2, "cue", "left"), cross(0.5), hit(1.0, "3"), rail(1.5, "3", "right"), stop(4.0)]
    rulings, _ = _a_in_kitchen(pos, ev)
    r = rulings[-1]
    assert r["shooter"] == "A" and r["legal"] is False
    f = penalised(r)
    assert f["code"] == "bad_play_from_kitchen" and f["rule"] == "VN 93"
    assert "replay" not in r["next"]["options"]
    assert set(r["next"]["options"]) == {"accept_table", "ball_in_hand_kitchen", "spot_lowest_ball"}


def test_vn_93_ball_behind_line_contacted_first_then_crossing_is_a_foul_no_replay():
    pos = dict(POS, cue=(300.0, 640.0), **{"3": (500.0, 640.0)})  # the lowest, behind the head string
    ev = [strike(), hit(0.2, "3"), cross(0.6), rail(0.9, "3", "right"), rail(1.3, "cue", "foot"), stop(4.0)]
    rulings, _ = _a_in_kitchen(pos, ev)
    r = rulings[-1]
    assert r["legal"] is False
    assert penalised(r)["code"] == "bad_play_from_kitchen" and penalised(r)["rule"] == "VN 93"
    assert r["next"]["shooter"] == "B"
    assert "replay" not in r["next"]["options"]


def _never_crossed():
    pos = dict(POS, cue=(300.0, 640.0), **{"3": (500.0, 640.0)})
    ev = [strike(), hit(0.2, "3"), rail(0.9, "3", "right"), stop(4.0)]
    return pos, ev, lambda: S(pos, ev, moved={"cue": (450.0, 640.0), "3": (560.0, 1241.0)})


def test_vn_93_ball_behind_line_contacted_and_cue_ball_never_crosses_foul_or_replay():
    pos, ev, sh = _never_crossed()
    rulings, _ = rule(H, open_break(), no_rail_foul(), decision("ball_in_hand_kitchen", player="A"), sh())
    r = rulings[-1]
    assert r["legal"] is False
    assert penalised(r)["code"] == "bad_play_from_kitchen" and penalised(r)["rule"] == "VN 93"
    nxt = r["next"]
    assert nxt["decider"] == "B"
    assert "replay" in nxt["options"]
    assert "ball_in_hand_kitchen" in nxt["options"]
    rp = nxt["effects"]["replay"]
    assert rp["shooter"] == "A"                 # the offender plays again
    assert rp["cue_ball"] == "in_hand_kitchen"
    # choosing the replay: A shoots again
    rulings, st = rule(H, open_break(), no_rail_foul(), decision("ball_in_hand_kitchen", player="A"),
                       sh(), decision("replay", player="B"))
    assert st.shooter == "A" and st.cue_ball == "in_hand_kitchen"


def test_vn_93_replay_restores_the_touched_ball():
    pos, ev, sh = _never_crossed()
    rulings, st = rule(H, open_break(), no_rail_foul(), decision("ball_in_hand_kitchen", player="A"), sh(),
                       decision("replay", player="B"))
    rp = rulings[-1]["next"]["effects"]["replay"]
    assert near(rp.get("spotted_at", {}).get("3", (0, 0)), (500.0, 640.0))
    assert near(st.table["3"], (500.0, 640.0))


def test_vn_93_ball_on_the_head_string_may_be_contacted_before_crossing():
    pos = dict(POS, cue=(570.0, 640.0), **{"3": (HEAD_X, 640.0)})  # the 3 right on the line
    ev = [strike(), hit(0.1, "3"), cross(0.3), rail(0.9, "3", "right"), stop(4.0)]
    rulings, _ = _a_in_kitchen(pos, ev)
    r = rulings[-1]
    assert "bad_play_from_kitchen" not in codes(r)
    assert r["legal"] is True


def test_vn_93_replay_withdraws_the_foul_from_the_vn_92_count():
    pos, ev, sh = _never_crossed()
    _, st = rule(H, open_break(), no_rail_foul(), decision("ball_in_hand_kitchen", player="A"), sh())
    assert st.fouls_in_row["A"] == 1
    _, st = rule(H, open_break(), no_rail_foul(), decision("ball_in_hand_kitchen", player="A"), sh(),
                 decision("replay", player="B"))
    assert st.fouls_in_row["A"] == 0  # replayed, not a foul


def test_vn_79_an_empty_table_is_a_draw_only_at_sixty_all():
    # The camera lost balls: the last ball seen drops with the score nowhere near 60–60.
    rack15 = full_rack()
    after_break = {b: p for b, p in rack15.items() if b != "15"}
    after_break["cue"] = (1000.0, 640.0)
    brk = S({**rack15, "cue": (500.0, 640.0)}, [strike(), cross(0.1), hit(0.3, "1"), pot(0.9, "15"), stop(4.0)],
            after=after_break)
    last = S({"cue": (1000.0, 640.0), "2": after_break["2"]}, [strike(), hit(0.3, "2"), pot(0.9, "2"), stop(3.0)])
    r = rule(H, brk, last)[0][-1]
    assert r["score"]["A"] == 17
    assert r["rack_over"] is None and r["warnings"]  # no draw at 17–0; the gap is reported
