"""Ten-ball (WPA 6, with 3.2, 3.11 and 3.13 as 6.9 and 6.10 apply them).

Every expectation comes from the article text (the Finnish 2026 edition, /tmp/research/wpa.md), not
from what the engine happens to output. Positions are on the 9 ft table: head string x = 635, foot
spot (1905, 635); the 1 is at the apex on the foot spot and the 10 in the middle of the rack (6.2).
"""
import pytest
from helpers import (
    FOOT_SPOT,
    codes,
    cross,
    decision,
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

from cueref.table import Table, rack_positions

H = header("ten-ball")

_ORDER = ["1", "2", "3", "4", "10", "5", "6", "7", "8", "9"]
RACK = dict(zip(_ORDER, (p for row in rack_positions(Table(), [1, 2, 3, 4]) for p in row)))
BREAK_CUE = (500.0, 600.0)  # in the kitchen

# Where the balls rest after the break; the cue ball stops above the 1, which sits by the side pocket.
SPREAD = {
    "1": (1300.0, 250.0), "2": (1500.0, 1000.0), "3": (2300.0, 250.0), "4": (1700.0, 350.0),
    "5": (1200.0, 900.0), "6": (2400.0, 130.0), "7": (2100.0, 1050.0), "8": (2000.0, 900.0),
    "9": (1600.0, 760.0), "10": (2200.0, 450.0),
}
CUE_AFTER_BREAK = (1350.0, 700.0)
FOUR_RAILS = ("2", "6", "7", "9")
SPOT = [FOOT_SPOT[0], FOOT_SPOT[1]]


def called(ball, pocket):
    return {"ball": ball, "pocket": pocket}


def brk(pocketed=(), rails=FOUR_RAILS, scratch=None, extra=(), spread=SPREAD, cue_after=CUE_AFTER_BREAK,
        first="1", crosses=True):
    """A break from the kitchen; `pocketed` holds (ball, pocket) pairs."""
    evs = [strike(0.0)] + ([cross(0.08)] if crosses else [])
    if first:
        evs.append(hit(0.25, first))
    names = ["foot", "left", "right", "foot"]
    evs += [rail(0.8 + 0.05 * i, b, names[i % 4]) for i, b in enumerate(rails)]
    evs += [pot(1.3 + 0.1 * i, b, p) for i, (b, p) in enumerate(pocketed)]
    if scratch:
        evs.append(pot(2.0, "cue", scratch))
    evs += list(extra) + [stop(6.0)]
    gone = {b for b, _ in pocketed} | ({"cue"} if scratch else set())
    after = {b: spread[b] for b in RACK if b not in gone}
    if "cue" not in gone:
        after["cue"] = cue_after
    return shot({**RACK, "cue": BREAK_CUE}, evs, after=after)


class Tab:
    """Follows the balls through a log so that each shot starts where the last one left them."""

    def __init__(self, position):
        self.pos = dict(position)

    def shot(self, events, cue_to=None, place=None, moved=None, **declared):
        before = {**self.pos, **(place or {})}
        s = shot(before, events, moved={**({"cue": cue_to} if cue_to else {}), **(moved or {})}, **declared)
        self.pos = {k: tuple(v) for k, v in s["after"].items()}
        return s

    def pot(self, ball, pocket, cue_to, first=None):
        return self.shot([strike(), hit(0.3, first or ball), pot(1.2, ball, pocket), stop(4.0)],
                         cue_to=cue_to, called=called(ball, pocket))

    def miss(self, ball, cue_to=None, place=None):
        """A legal shot at `ball` that pockets nothing."""
        return self.shot([strike(), hit(0.3, ball), rail(0.9, ball, "left"), stop(4.0)], cue_to=cue_to, place=place,
                         called=called(ball, "side-left"))

    def whiff(self, place):
        """Ball in hand at `place`, and the cue ball touches no ball: a foul (3.2/3.3)."""
        return self.shot([strike(), rail(0.8, "cue", "left"), stop(3.0)], cue_to=(place[0], 100.0), place={"cue": place})


def after_break():
    """A legal break by A that pockets nothing; B is to shoot from CUE_AFTER_BREAK (push out allowed)."""
    return Tab({**SPREAD, "cue": CUE_AFTER_BREAK}), brk()


# --- 6.3 the break -----------------------------------------------------------------------------

def test_wpa_6_3_legal_break_four_balls_to_rails():
    r = rule_one(H, brk(rails=("2", "6", "7", "9")))
    assert r["break"] is True and r["legal"] is True and r["fouls"] == []
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_place"


def test_wpa_6_3_fewer_than_four_balls_to_rails_is_a_foul():
    r = rule_one(H, brk(rails=("2", "6", "7")))
    assert r["legal"] is False
    f = penalised(r)
    assert f["code"] == "illegal_break" and f["rule"] == "WPA 6.3"
    assert r["rack_over"] is None
    # 6.9: ball in hand anywhere for the opponent, not a re-rack or a kitchen hand.
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_anywhere"
    assert "rerack" not in r["next"]["options"] and "ball_in_hand_kitchen" not in r["next"]["options"]
    # 6.4: no push out after a break with a foul.
    assert not r["next"].get("push_out_allowed")


def test_wpa_6_3_a_pocketed_object_ball_makes_the_break_legal_without_rails():
    r = rule_one(H, brk(pocketed=[("2", "foot-right")], rails=()))
    assert r["legal"] is True and "illegal_break" not in codes(r)


def test_wpa_6_3_break_from_the_kitchen_3_10_applies():
    # 6.3 a: ball in hand behind the head string; shooting from in front of it is 3.10.
    s = brk()
    s["before"]["cue"] = [700.0, 600.0]
    s["events"] = [e for e in s["events"] if e["type"] != "cross"]
    r = rule_one(H, s)
    assert "bad_cue_ball_placement" in codes(r)


# --- 6.4 push out ------------------------------------------------------------------------------

@pytest.mark.parametrize("choice, next_shooter", [("accept_table", "A"), ("pass", "B")])
def test_wpa_6_4_push_out_after_the_break_opponent_chooses(choice, next_shooter):
    t, b = after_break()
    # B pushes out: the cue ball rolls to a new spot touching no ball and no rail (3.2, 3.3 off).
    push = t.shot([strike(), stop(3.0)], cue_to=(1000.0, 1000.0), push_out=True)
    rulings, _ = rule(H, b, push)
    r0, r = rulings
    assert r0["next"].get("push_out_allowed") is True
    assert r["push_out"] is True and r["legal"] is True and r["fouls"] == []
    nxt = r["next"]
    assert nxt["decider"] == "A" and set(nxt["options"]) == {"accept_table", "pass"}
    assert nxt["effects"]["accept_table"]["shooter"] == "A" and nxt["effects"]["pass"]["shooter"] == "B"
    follow = t.miss("1", cue_to=(1100.0, 900.0))
    rulings, _ = rule(H, b, push, decision(choice, "A"), follow)
    assert rulings[-1]["shooter"] == next_shooter and rulings[-1]["push_out"] is False


def test_wpa_6_4_push_out_only_on_the_shot_after_the_break():
    t, b = after_break()
    miss = t.miss("1", cue_to=(1100.0, 600.0))  # B: a legal miss, A to shoot
    late_push = t.shot([strike(), stop(3.0)], cue_to=(1000.0, 1000.0), push_out=True)
    r = rule(H, b, miss, late_push)[0][-1]
    assert r["shooter"] == "A" and r["push_out"] is False
    assert r["legal"] is False and codes(r) == ["no_contact"]
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_anywhere"


def test_wpa_6_4_push_out_with_a_foul_is_a_foul():
    t, b = after_break()
    # 6.4: the opponent chooses only "if no foul happens on the push out"; the cue ball drops here.
    push = t.shot([strike(), pot(1.0, "cue", "head-right"), stop(3.0)], push_out=True)
    r = rule(H, b, push)[0][-1]
    assert r["legal"] is False and codes(r) == ["cue_ball_pocketed"]
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_hand_anywhere"
    assert "pass" not in r["next"]["options"]


def test_wpa_6_4_no_push_out_after_a_foul_on_the_break():
    t = Tab({**SPREAD, "cue": CUE_AFTER_BREAK})
    push = t.shot([strike(), stop(3.0)], cue_to=(1000.0, 1000.0), push_out=True)
    r = rule(H, brk(rails=("2", "6", "7")), push)[0][-1]
    assert r["push_out"] is False and r["legal"] is False  # ruled as a normal shot: 3.2 applies


# --- 6.5 no safety ------------------------------------------------------------------------------

SCENARIOS = {
    # B calls the 1 in the side-left pocket and makes it: B continues.
    "made": ([strike(), hit(0.3, "1"), pot(1.0, "1", "side-left"), stop(4.0)], "B", []),
    # the 1 misses: the turn passes, no options.
    "missed": ([strike(), hit(0.3, "1"), rail(0.9, "1", "left"), stop(4.0)], "A", []),
    # the 1 misses and the 4 drops: 6.6, A chooses.
    "wrong_ball": ([strike(), hit(0.3, "1"), rail(0.8, "1", "left"), hit(0.9, "4"), pot(1.6, "4", "side-left"), stop(4.0)],
                   "A", ["accept_table", "pass"]),
}


@pytest.mark.parametrize("safety", [False, True], ids=["plain", "safety_declared"])
@pytest.mark.parametrize("what", list(SCENARIOS))
def test_wpa_6_5_no_safety_in_ten_ball(what, safety):
    events, shooter, options = SCENARIOS[what]
    t, b = after_break()
    kw = {"safety": True} if safety else {}
    s = t.shot(events, cue_to=(1250.0, 450.0), called=called("1", "side-left"), **kw)
    r = rule(H, b, s)[0][-1]
    assert r["legal"] is True and r["fouls"] == []
    assert r["next"]["shooter"] == shooter and r["next"]["cue_ball"] == "in_place"
    assert sorted(r["next"]["options"]) == sorted(options)


# --- 6.6 incorrectly pocketed balls -----------------------------------------------------------

WRONG = {
    # the called 1 goes into the side pocket, not the called corner
    "wrong_pocket": ([strike(), hit(0.3, "1"), pot(1.0, "1", "side-left"), stop(4.0)], called("1", "head-left"), "1"),
    # the called 1 misses; the cue ball sends the 4 in
    "wrong_ball": ([strike(), hit(0.3, "1"), rail(0.8, "1", "left"), hit(0.9, "4"), pot(1.6, "4", "side-left"), stop(4.0)],
                   called("1", "side-left"), "4"),
}


@pytest.mark.parametrize("what", list(WRONG))
def test_wpa_6_6_wrong_pocket_opponent_chooses(what):
    events, call, ball = WRONG[what]
    t, b = after_break()
    s = t.shot(events, cue_to=(1250.0, 450.0), called=call)
    rulings, st = rule(H, b, s)
    r = rulings[-1]
    assert r["legal"] is True and r["fouls"] == []
    assert r["pocketed"] == [ball] and r["spotted"] == []
    assert ball not in st.table  # 6.8: no ball but the 10 is ever spotted
    nxt = r["next"]
    assert nxt["decider"] == "A"
    assert set(nxt["options"]) == {"accept_table", "pass"}
    assert nxt["effects"]["accept_table"]["shooter"] == "A" and nxt["effects"]["accept_table"]["cue_ball"] == "in_place"
    assert nxt["effects"]["pass"]["shooter"] == "B" and nxt["effects"]["pass"]["cue_ball"] == "in_place"


@pytest.mark.parametrize("choice, next_shooter", [("accept_table", "A"), ("pass", "B")])
def test_wpa_6_6_opponents_choice_decides_who_shoots(choice, next_shooter):
    events, call, _ = WRONG["wrong_pocket"]
    t, b = after_break()
    s = t.shot(events, cue_to=(1250.0, 450.0), called=call)
    # The 1 is down: whoever shoots plays the 2, now the lowest ball.
    follow = t.shot([strike(), hit(0.3, "2"), rail(0.9, "2", "right"), stop(4.0)], cue_to=(1400.0, 800.0),
                    called=called("2", "side-right"))
    rulings, _ = rule(H, b, s, decision(choice, "A"), follow)
    r = rulings[-1]
    assert r["shooter"] == next_shooter and r["legal"] is True


def test_wpa_6_6_foul_is_a_foul_not_a_choice():
    t, b = after_break()
    # The called 1 goes in the wrong pocket and the cue ball follows it: 6.6 needs "no foul".
    s = t.shot([strike(), hit(0.3, "1"), pot(1.0, "1", "side-left"), pot(1.5, "cue", "side-left"), stop(4.0)],
               called=called("1", "head-left"))
    r = rule(H, b, s)[0][-1]
    assert codes(r) == ["cue_ball_pocketed"]
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_hand_anywhere"
    assert "pass" not in r["next"]["options"]


# --- 6.7 continuing the inning --------------------------------------------------------------------

def test_wpa_6_7_called_ball_made_others_stay_down_shooter_continues():
    t, b = after_break()
    s = t.shot([strike(), hit(0.3, "1"), pot(1.0, "1", "side-left"), hit(0.6, "4"), pot(1.5, "4", "side-left"), stop(4.0)],
               cue_to=(1600.0, 450.0), called=called("1", "side-left"))
    rulings, st = rule(H, b, s)
    r = rulings[-1]
    assert r["legal"] is True and r["fouls"] == []
    assert sorted(r["pocketed"]) == ["1", "4"] and r["spotted"] == []
    assert "1" not in st.table and "4" not in st.table
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_place" and r["next"]["options"] == []


def test_wpa_6_7_missed_called_ball_turn_changes_position_stays():
    t, b = after_break()
    s = t.miss("1", cue_to=(1250.0, 450.0))
    rulings, st = rule(H, b, s)
    r = rulings[-1]
    assert r["legal"] is True and r["pocketed"] == []
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_place" and r["next"]["options"] == []


# --- 6.8 spotting the 10 ----------------------------------------------------------------------------

# A break by A that pockets the 1, 2 and 4 and leaves the 3 (lowest) just short of the 10.
COMBO_SPREAD = {"3": (2000.0, 400.0), "10": (2150.0, 300.0), "5": (1200.0, 900.0), "6": (1000.0, 1100.0),
                "7": (2100.0, 1050.0), "8": (1600.0, 1000.0), "9": (1500.0, 250.0)}
COMBO_CUE = (1500.0, 600.0)


def combo_break():
    return brk(pocketed=[("1", "foot-left"), ("2", "foot-right"), ("4", "foot-left")], rails=(),
               spread=COMBO_SPREAD, cue_after=COMBO_CUE)


def test_wpa_6_8_ten_on_the_break_is_spotted():
    rulings, st = rule(H, brk(pocketed=[("10", "foot-right"), ("2", "foot-left")]))
    r = rulings[-1]
    assert r["legal"] is True and r["rack_over"] is None
    assert r["spotted"] == ["10"] and r["spotted_at"] == {"10": SPOT}
    assert tuple(st.table["10"]) == FOOT_SPOT
    assert r["score"] == {"A": 0, "B": 0}


def test_wpa_6_8_ten_called_and_made_early_on_a_combination_is_spotted():
    t = Tab({**COMBO_SPREAD, "cue": COMBO_CUE})
    s = t.shot([strike(), hit(0.3, "3"), hit(0.5, "10", "3"), rail(0.8, "3", "left"), pot(1.2, "10", "foot-left"), stop(4.0)],
               cue_to=(1800.0, 560.0), moved={"3": (2050.0, 520.0)}, called=called("10", "foot-left"))
    rulings, st = rule(H, combo_break(), s)
    r = rulings[-1]
    assert r["legal"] is True and r["rack_over"] is None
    assert r["spotted"] == ["10"] and r["spotted_at"] == {"10": SPOT}
    assert tuple(st.table["10"]) == FOOT_SPOT
    # 6.7: the called ball was made with a legal shot: A continues.
    assert r["next"]["shooter"] == "A" and r["next"]["options"] == []
    assert r["score"] == {"A": 0, "B": 0}


def test_wpa_6_8_ten_dropped_with_the_called_ball_is_spotted():
    t = Tab({**COMBO_SPREAD, "cue": COMBO_CUE})
    s = t.shot([strike(), hit(0.3, "3"), hit(0.5, "10", "3"), pot(1.0, "10", "foot-left"), pot(1.4, "3", "foot-left"),
                stop(4.0)], cue_to=(1800.0, 560.0), called=called("3", "foot-left"))
    rulings, st = rule(H, combo_break(), s)
    r = rulings[-1]
    assert r["legal"] is True and r["rack_over"] is None
    assert r["spotted"] == ["10"] and "3" not in st.table and tuple(st.table["10"]) == FOOT_SPOT
    assert r["next"]["shooter"] == "A"


@pytest.mark.parametrize("events, code", [
    # the 3 drives the 10 off the table (3.5)
    ([strike(), hit(0.3, "3"), hit(0.5, "10", "3"), rail(0.8, "3", "left"), off(1.0, "10"), stop(4.0)], "object_ball_off_table"),
    # the 10 is pocketed and the cue ball follows it in (3.1)
    ([strike(), hit(0.3, "3"), hit(0.5, "10", "3"), pot(1.0, "10", "foot-left"), pot(1.6, "cue", "foot-left"), stop(4.0)],
     "cue_ball_pocketed"),
    # the 10 is hit first (3.2) and pocketed
    ([strike(), hit(0.3, "10"), pot(1.0, "10", "foot-left"), stop(4.0)], "wrong_ball_first"),
], ids=["off_table", "scratch", "wrong_ball_first"])
def test_wpa_6_8_ten_pocketed_or_off_on_a_foul_is_spotted(events, code):
    t = Tab({**COMBO_SPREAD, "cue": COMBO_CUE})
    s = t.shot(events, cue_to=(1800.0, 560.0) if code != "cue_ball_pocketed" else None, called=called("10", "foot-left"))
    rulings, st = rule(H, combo_break(), s)
    r = rulings[-1]
    assert code in codes(r) and r["rack_over"] is None
    assert r["spotted"] == ["10"] and r["spotted_at"] == {"10": SPOT}
    assert tuple(st.table["10"]) == FOOT_SPOT
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_anywhere"


def test_wpa_6_8_ten_pocketed_on_a_push_out_is_spotted():
    t, b = after_break()
    push = t.shot([strike(), hit(0.4, "10"), pot(1.2, "10", "foot-left"), stop(4.0)], cue_to=(1800.0, 500.0), push_out=True)
    rulings, st = rule(H, b, push)
    r = rulings[-1]
    assert r["push_out"] is True and r["legal"] is True and r["rack_over"] is None
    assert r["spotted"] == ["10"] and r["spotted_at"] == {"10": SPOT}
    assert tuple(st.table["10"]) == FOOT_SPOT
    assert r["next"]["decider"] == "A" and set(r["next"]["options"]) == {"accept_table", "pass"}


def run_to_the_ten():
    """A breaks (the 2, 5 and 7 drop) and runs the 1, 3, 4, 6, 8, 9: the 10 is the only object ball."""
    t = Tab({b: p for b, p in SPREAD.items() if b not in ("2", "5", "7")})
    t.pos["cue"] = CUE_AFTER_BREAK
    log = [brk(pocketed=[("2", "foot-left"), ("5", "foot-right"), ("7", "foot-right")], rails=())]
    log += [t.pot("1", "side-left", cue_to=(1500.0, 450.0)),
            t.pot("3", "foot-left", cue_to=(1900.0, 420.0)),
            t.pot("4", "side-left", cue_to=(1600.0, 500.0)),
            t.pot("6", "foot-left", cue_to=(2300.0, 600.0)),
            t.pot("8", "side-right", cue_to=(1800.0, 800.0)),
            t.pot("9", "head-right", cue_to=(1700.0, 600.0))]
    return t, log


def test_scaffolding_run_to_the_ten():
    rulings, st = rule(H, *run_to_the_ten()[1])
    assert all(r["legal"] and r["next"]["shooter"] == "A" for r in rulings)
    assert sorted(b for b in st.table if b != "cue") == ["10"]


def test_wpa_6_8_ten_wins_only_as_the_last_object_ball():
    t, log = run_to_the_ten()
    s = t.pot("10", "foot-left", cue_to=(2000.0, 500.0))
    r = rule(H, *log, s)[0][-1]
    assert r["legal"] is True and r["spotted"] == []
    assert r["rack_over"] is not None and r["rack_over"]["winner"] == "A"
    assert r["score"] == {"A": 1, "B": 0}
    assert r["next"].get("break") is True and r["next"]["shooter"] == "B"  # 1.3 alternate breaks


def test_wpa_6_8_last_ten_in_the_wrong_pocket_is_spotted_not_a_win():
    t, log = run_to_the_ten()
    s = t.shot([strike(), hit(0.3, "10"), pot(1.2, "10", "foot-left"), stop(4.0)], cue_to=(2000.0, 500.0),
               called=called("10", "side-left"))
    rulings, st = rule(H, *log, s)
    r = rulings[-1]
    assert r["rack_over"] is None and r["score"] == {"A": 0, "B": 0}
    assert r["spotted"] == ["10"] and tuple(st.table["10"]) == FOOT_SPOT
    assert r["next"]["decider"] == "B" and set(r["next"]["options"]) == {"accept_table", "pass"}  # 6.6


def test_wpa_6_8_last_ten_pocketed_on_a_foul_is_spotted_not_a_win():
    t, log = run_to_the_ten()
    s = t.shot([strike(), hit(0.3, "10"), pot(1.2, "10", "foot-left"), pot(1.9, "cue", "foot-left"), stop(4.0)],
               called=called("10", "foot-left"))
    rulings, st = rule(H, *log, s)
    r = rulings[-1]
    assert codes(r) == ["cue_ball_pocketed"]
    assert r["rack_over"] is None and r["score"] == {"A": 0, "B": 0}
    assert r["spotted"] == ["10"] and tuple(st.table["10"]) == FOOT_SPOT
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_anywhere"


# --- 6.9 fouls ------------------------------------------------------------------------------------

def test_wpa_6_9_lowest_ball_first_else_ball_in_hand_anywhere():
    t, b = after_break()
    # B hits the 4 first; the 1 is the lowest ball on the table.
    s = t.shot([strike(), hit(0.3, "4"), rail(0.8, "4", "left"), stop(4.0)], cue_to=(1500.0, 500.0))
    r = rule(H, b, s)[0][-1]
    assert r["legal"] is False
    f = penalised(r)
    assert f["code"] == "wrong_ball_first" and "3.2" in f["rule"]
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_hand_anywhere"
    assert r["next"]["default"] == "ball_in_hand_anywhere"
    # Ball in hand anywhere: A may place the cue ball in front of the head string.
    a = t.shot([strike(), hit(0.3, "1"), rail(0.9, "1", "left"), stop(4.0)], place={"cue": (1100.0, 500.0)},
               called=called("1", "side-left"))
    r = rule(H, b, s, a)[0][-1]
    assert r["shooter"] == "A" and r["legal"] is True and r["fouls"] == []


def test_wpa_6_9_lowest_ball_first_after_the_one_is_gone():
    t = Tab({**COMBO_SPREAD, "cue": COMBO_CUE})  # the 1, 2 and 4 went down on the break
    legal = t.shot([strike(), hit(0.3, "3"), rail(0.8, "3", "left"), stop(4.0)], cue_to=(1700.0, 500.0),
                   called=called("3", "foot-left"))
    assert rule(H, combo_break(), legal)[0][-1]["legal"] is True
    t = Tab({**COMBO_SPREAD, "cue": COMBO_CUE})
    wrong = t.shot([strike(), hit(0.3, "9"), rail(0.8, "9", "left"), stop(4.0)], cue_to=(1700.0, 500.0),
                   called=called("9", "side-left"))
    assert codes(rule(H, combo_break(), wrong)[0][-1]) == ["wrong_ball_first"]


# --- 6.10 three consecutive fouls; 3.11 ----------------------------------------------------------

def _three_fouls(legal_in_between):
    t = Tab({**SPREAD, "cue": CUE_AFTER_BREAK})
    log = [brk(rails=("2", "6", "7"))]  # A: foul 1 (6.3)
    log.append(t.miss("1", cue_to=(1250.0, 500.0), place={"cue": (1250.0, 600.0)}))  # B: legal, A to shoot
    log.append(t.whiff((1000.0, 300.0)))  # A: foul 2
    log.append(t.miss("1", cue_to=(1250.0, 500.0), place={"cue": (1250.0, 600.0)}))  # B: legal
    if legal_in_between:
        log.append(t.miss("1", cue_to=(1250.0, 500.0)))  # A: a legal shot ends the run
        log.append(t.miss("1", cue_to=(1250.0, 500.0)))  # B: legal
    log.append(t.whiff((1000.0, 300.0)))  # A: another foul
    return log


def test_wpa_6_10_three_consecutive_fouls_lose_the_rack():
    rulings, st = rule(H, *_three_fouls(False))
    assert [r["shooter"] for r in rulings] == ["A", "B", "A", "B", "A"]
    # A arrives at the table on two fouls and is warned (3.13).
    assert "A" in rulings[3]["next"].get("warning", "")
    r = rulings[-1]
    assert "consecutive_fouls" in codes(r)
    assert penalised(r)["code"] == "consecutive_fouls" and penalised(r)["rule"] == "WPA 6.10"
    assert r["rack_over"] is not None and r["rack_over"]["winner"] == "B"
    assert r["score"] == {"A": 0, "B": 1}
    assert r["next"].get("break") is True and r["next"]["shooter"] == "B"  # 1.3 alternate breaks


def test_wpa_6_10_a_legal_shot_in_between_resets_the_count():
    rulings, st = rule(H, *_three_fouls(True))
    r = rulings[-1]
    assert r["shooter"] == "A" and r["legal"] is False
    assert "consecutive_fouls" not in codes(r)
    assert r["rack_over"] is None and r["score"] == {"A": 0, "B": 0}
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_anywhere"


def test_wpa_3_11_is_not_a_ten_ball_foul():
    # A mis-hit break: the cue ball dribbles, never crosses the head string and touches no ball.
    # 3.11 (second paragraph) is not among the ten-ball fouls (6.9); the shot is still a foul (3.2, 6.3).
    s = shot({**RACK, "cue": BREAK_CUE}, [strike(), stop(2.0)], moved={"cue": (560.0, 610.0)})
    r = rule_one(H, s)
    assert "bad_play_from_kitchen" not in codes(r)
    assert r["legal"] is False
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_anywhere"
