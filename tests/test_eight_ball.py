"""Eight-ball (WPA 4, with 3.2 and 3.13 as 4.9 applies them).

Every expectation comes from the article text (the Finnish 2026 edition, /tmp/research/wpa.md), not
from what the engine happens to output. Positions are on the 9 ft table: head string x = 635, foot
spot (1905, 635); the rack's apex (the 1) is on the foot spot with the 8 directly behind it and a
ball of each group in the back corners (4.2).
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

H = header("eight-ball")

# 4.2: rows from the apex toward the foot cushion, left (y small) to right.
_ORDER = ["1", "9", "2", "10", "8", "3", "11", "4", "12", "5", "6", "13", "7", "14", "15"]
RACK = dict(zip(_ORDER, (p for row in rack_positions(Table(), [1, 2, 3, 4, 5]) for p in row)))
BREAK_CUE = (500.0, 640.0)  # in the kitchen (x < 635)

# Where the balls come to rest after the break (those not pocketed / not off the table).
SPREAD = {
    "1": (1300.0, 250.0), "2": (1500.0, 1000.0), "3": (2300.0, 250.0), "4": (1700.0, 350.0),
    "5": (1200.0, 900.0), "6": (2400.0, 130.0), "7": (2100.0, 1050.0), "8": (2000.0, 900.0),
    "9": (1600.0, 760.0), "10": (2350.0, 1000.0), "11": (1400.0, 420.0), "12": (1800.0, 1180.0),
    "13": (2200.0, 450.0), "14": (1100.0, 1100.0), "15": (1900.0, 200.0),
}
CUE_AFTER_BREAK = (1700.0, 600.0)
FOUR_RAILS = ("15", "11", "5", "14")
SPOT = [FOOT_SPOT[0], FOOT_SPOT[1]]
NOT_ANYWHERE = "in_hand_anywhere"


def brk(pocketed=(), rails=FOUR_RAILS, gone_off=(), scratch=None, first="1", extra=(), cue=BREAK_CUE,
        crosses=True):
    """A break from the kitchen into the full rack. `pocketed`: (ball, pocket) pairs; `gone_off`:
    balls that leave the table; `scratch`: the pocket the cue ball drops in."""
    evs = [strike(0.0)]
    if crosses:
        evs.append(cross(0.08))
    evs.append(hit(0.25, first))
    names = ["foot", "left", "right", "foot"]
    for i, b in enumerate(rails):
        evs.append(rail(0.8 + 0.05 * i, b, names[i % 4]))
    for i, (b, pocket) in enumerate(pocketed):
        evs.append(pot(1.3 + 0.1 * i, b, pocket))
    for i, b in enumerate(gone_off):
        evs.append(off(1.6 + 0.1 * i, b))
    if scratch:
        evs.append(pot(2.0, "cue", scratch))
    evs += list(extra) + [stop(6.0)]
    gone = {b for b, _ in pocketed} | set(gone_off) | ({"cue"} if scratch else set())
    before = {**RACK, "cue": cue}
    after = {b: SPREAD[b] for b in RACK if b not in gone}
    if "cue" not in gone:
        after["cue"] = CUE_AFTER_BREAK
    return shot(before, evs, after=after)


def legal_break():
    """A legal break: the 6 in the foot-left corner (the back-left corner ball); A continues."""
    return brk(pocketed=[("6", "foot-left")])


OPEN = {b: p for b, p in SPREAD.items() if b != "6"}
OPEN["cue"] = CUE_AFTER_BREAK


def called(ball, pocket):
    return {"ball": ball, "pocket": pocket}


class Table8:
    """Follows the balls through a log so that each shot starts where the last one left them."""

    def __init__(self, position):
        self.pos = dict(position)

    def shot(self, events, cue_to=None, place=None, **declared):
        before = {**self.pos, **(place or {})}
        s = shot(before, events, moved={"cue": cue_to} if cue_to else None, **declared)
        self.pos = {k: tuple(v) for k, v in s["after"].items()}
        return s

    def pot(self, ball, pocket, cue_to, first=None):
        evs = [strike(), hit(0.3, first or ball), pot(1.2, ball, pocket), stop(4.0)]
        return self.shot(evs, cue_to=cue_to, called=called(ball, pocket))


def a_has_solids():
    """Break (6 down), then A calls and makes the 3 in the foot-left corner: A solids, B stripes.
    A is still at the table with the cue ball at (2000, 500)."""
    t = Table8(OPEN)
    return t, [legal_break(), t.pot("3", "foot-left", cue_to=(2000.0, 500.0))]


def a_on_the_eight():
    """A runs the rest of the solids (4, 1, 5, 2, 7); only the 8 and the stripes remain, cue at (2150, 800)."""
    t, log = a_has_solids()
    log += [t.pot("4", "side-left", cue_to=(1500.0, 600.0)),
            t.pot("1", "side-left", cue_to=(1150.0, 600.0)),
            t.pot("5", "side-right", cue_to=(1150.0, 850.0)),
            t.pot("2", "foot-right", cue_to=(1700.0, 900.0)),
            t.pot("7", "foot-right", cue_to=(2150.0, 800.0))]
    return t, log


def test_scaffolding_a_has_solids_and_clears_them():
    rulings, st = rule(H, *a_on_the_eight()[1])
    assert all(r["legal"] for r in rulings)
    assert all(r["next"]["shooter"] == "A" for r in rulings)
    assert st.groups == {"A": "solids", "B": "stripes"}


# --- 4.3 the break ------------------------------------------------------------------------------

@pytest.mark.parametrize("first", ["1", "9", "10"])
def test_wpa_4_3_b_no_call_and_any_ball_first_on_the_break(first):
    # No call is declared and the cue ball meets the apex, a second-row or a third-row ball first.
    r = rule_one(H, brk(pocketed=[("6", "foot-left")], first=first))
    assert r["break"] is True
    assert r["legal"] is True and r["fouls"] == []


def test_wpa_4_3_c_ball_pocketed_breaker_continues_table_open():
    t = Table8(OPEN)
    # After the break A first hits a stripe (13) and combines it into the called solid 3: on an
    # open table that is legal, and the called ball decides the groups.
    combo = t.shot([strike(), hit(0.3, "13"), hit(0.5, "3", "13"), pot(1.2, "3", "foot-left"), stop(4.0)],
                   cue_to=(2000.0, 500.0), called=called("3", "foot-left"))
    rulings, st = rule(H, legal_break(), combo)
    r0, r1 = rulings
    assert r0["legal"] and r0["pocketed"] == ["6"]
    assert r0["next"]["shooter"] == "A" and r0["next"]["cue_ball"] == "in_place" and r0["next"]["options"] == []
    assert r1["shooter"] == "A" and r1["legal"] and r1["fouls"] == []
    assert st.groups == {"A": "solids", "B": "stripes"}


def test_wpa_4_3_d_four_object_balls_to_rails_is_a_legal_break():
    r = rule_one(H, brk(rails=("15", "11", "5", "14")))
    assert r["legal"] is True and r["fouls"] == []
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_place"


@pytest.mark.parametrize("rails", [("15", "11", "5"), ("15", "11", "5", "cue")], ids=["three", "three_and_cue"])
def test_wpa_4_3_d_illegal_break_opponent_options(rails):
    # Nothing pocketed and three object balls to a rail (the cue ball does not count: "four object balls").
    r = rule_one(H, brk(rails=rails))
    assert r["legal"] is False
    assert codes(r) == ["illegal_break"]
    assert r["fouls"][0]["rule"] == "WPA 4.3" and "4.3 d" in r["fouls"][0]["why"]
    assert r["rack_over"] is None
    nxt = r["next"]
    assert nxt["decider"] == "B"
    assert set(nxt["options"]) == {"accept_table", "rerack", "rebreak"}
    eff = nxt["effects"]
    assert eff["accept_table"]["shooter"] == "B" and eff["accept_table"]["cue_ball"] == "in_place"
    assert eff["rerack"]["shooter"] == "B" and eff["rerack"].get("break") is True and eff["rerack"].get("rerack") is True
    assert eff["rebreak"]["shooter"] == "A" and eff["rebreak"].get("break") is True and eff["rebreak"].get("rerack") is True
    # No ball in hand at all on an illegal break.
    assert all(e["cue_ball"] != NOT_ANYWHERE for e in eff.values())


@pytest.mark.parametrize("choice, shooter, is_break", [
    ("accept_table", "B", False),  # 1) B plays the position
    ("rerack", "B", True),  # 2) re-rack, B breaks
    ("rebreak", "A", True),  # 3) re-rack, the original breaker breaks again
])
def test_wpa_4_3_d_illegal_break_choice_takes_effect(choice, shooter, is_break):
    illegal = brk(rails=("15", "11", "5"))
    if is_break:
        follow = brk(pocketed=[("6", "foot-left")])
    else:
        pos = {b: SPREAD[b] for b in RACK}
        pos["cue"] = CUE_AFTER_BREAK
        follow = shot(pos, [strike(), hit(0.3, "4"), rail(0.8, "4", "left"), stop(4.0)])
    rulings, _ = rule(H, illegal, decision(choice, "B"), follow)
    last = rulings[-1]
    assert last["shooter"] == shooter
    assert last["break"] is is_break
    assert last["legal"] is True


def test_wpa_4_3_e_eight_on_a_legal_break_breaker_chooses():
    r = rule_one(H, brk(pocketed=[("8", "side-left")]))
    assert r["legal"] is True and r["fouls"] == []  # "not a foul"
    assert r["rack_over"] is None
    nxt = r["next"]
    assert nxt["decider"] == "A"
    assert set(nxt["options"]) == {"spot_eight", "rebreak"}
    spot8, again = nxt["effects"]["spot_eight"], nxt["effects"]["rebreak"]
    assert spot8["shooter"] == "A" and spot8["cue_ball"] == "in_place"
    assert spot8["spotted_at"] == {"8": SPOT}
    assert again["shooter"] == "A" and again.get("break") is True


def test_wpa_4_3_e_spot_eight_continues_and_rebreak_breaks_again():
    eight_break = brk(pocketed=[("8", "side-left")])
    # 1) spot the 8 and continue: A shoots again from the position, the 8 is back on the foot spot.
    pos = {b: SPREAD[b] for b in RACK if b != "8"}
    pos.update({"8": FOOT_SPOT, "cue": CUE_AFTER_BREAK})
    follow = shot(pos, [strike(), hit(0.3, "4"), rail(0.8, "4", "left"), stop(4.0)])
    rulings, st = rule(H, eight_break, decision("spot_eight", "A"))
    assert st.shooter == "A" and st.cue_ball == "in_place" and tuple(st.table["8"]) == FOOT_SPOT
    rulings, _ = rule(H, eight_break, decision("spot_eight", "A"), follow)
    assert rulings[-1]["shooter"] == "A" and rulings[-1]["break"] is False
    # 2) break again.
    rulings, _ = rule(H, eight_break, decision("rebreak", "A"), legal_break())
    assert rulings[-1]["shooter"] == "A" and rulings[-1]["break"] is True


def test_wpa_4_3_f_eight_and_cue_ball_opponent_chooses():
    r = rule_one(H, brk(pocketed=[("8", "side-left")], scratch="foot-right"))
    assert "cue_ball_pocketed" in codes(r)
    assert "eight_ball_loss" not in codes(r)  # 4.8 does not apply on the break
    assert r["rack_over"] is None
    nxt = r["next"]
    assert nxt["decider"] == "B"
    assert set(nxt["options"]) == {"spot_eight", "rerack"}
    spot8, rerack = nxt["effects"]["spot_eight"], nxt["effects"]["rerack"]
    assert spot8["shooter"] == "B" and spot8["cue_ball"] == "in_hand_kitchen"
    assert spot8["spotted_at"] == {"8": SPOT}
    assert rerack["shooter"] == "B" and rerack.get("break") is True and rerack.get("rerack") is True


def test_wpa_4_3_f_spot_eight_is_ball_in_hand_behind_the_head_string():
    scratch_eight = brk(pocketed=[("8", "side-left")], scratch="foot-right")
    _, st = rule(H, scratch_eight, decision("spot_eight", "B"))
    assert st.shooter == "B" and st.cue_ball == "in_hand_kitchen" and tuple(st.table["8"]) == FOOT_SPOT
    pos = {b: SPREAD[b] for b in RACK if b != "8"}
    pos["8"] = FOOT_SPOT
    # B puts the cue ball in front of the head string: a 3.10 foul, so the hand was the kitchen.
    bad = shot({**pos, "cue": (800.0, 640.0)}, [strike(), hit(0.4, "11"), rail(0.9, "11", "left"), stop(4.0)])
    r = rule(H, scratch_eight, decision("spot_eight", "B"), bad)[0][-1]
    assert r["shooter"] == "B" and codes(r) == ["bad_cue_ball_placement"]
    # From the kitchen the same shot is legal.
    good = shot({**pos, "cue": (500.0, 640.0)},
                [strike(), cross(0.1), hit(0.4, "11"), rail(0.9, "11", "left"), stop(4.0)])
    r = rule(H, scratch_eight, decision("spot_eight", "B"), good)[0][-1]
    assert r["shooter"] == "B" and r["legal"] is True


def test_wpa_4_3_f_rerack_opponent_breaks():
    scratch_eight = brk(pocketed=[("8", "side-left")], scratch="foot-right")
    rulings, _ = rule(H, scratch_eight, decision("rerack", "B"), legal_break())
    assert rulings[-1]["shooter"] == "B" and rulings[-1]["break"] is True


def test_wpa_4_3_g_object_ball_off_the_table_on_the_break():
    r, st = rule(H, brk(pocketed=[("6", "foot-left")], gone_off=["12"]))
    r = r[-1]
    assert r["legal"] is False
    f = penalised(r)
    assert f["code"] == "object_ball_off_table" and f["rule"] == "WPA 4.3" and "4.3 g" in f["why"]
    assert r["spotted"] == []  # the 12 counts as pocketed: it stays out
    assert "12" not in st.table and "6" not in st.table
    nxt = r["next"]
    assert nxt["shooter"] == "B" and nxt["decider"] == "B"
    assert set(nxt["options"]) == {"accept_table", "ball_in_hand_kitchen"}
    assert nxt["effects"]["accept_table"]["cue_ball"] == "in_place"
    assert nxt["effects"]["ball_in_hand_kitchen"]["cue_ball"] == "in_hand_kitchen"


def test_wpa_4_3_g_eight_off_the_table_on_the_break_is_spotted():
    rulings, st = rule(H, brk(gone_off=["8"]))
    r = rulings[-1]
    assert "eight_ball_loss" not in codes(r) and r["rack_over"] is None
    assert penalised(r)["code"] == "object_ball_off_table" and penalised(r)["rule"] == "WPA 4.3"
    assert r["spotted"] == ["8"] and r["spotted_at"] == {"8": SPOT}
    assert tuple(st.table["8"]) == FOOT_SPOT
    assert r["next"]["decider"] == "B"
    assert set(r["next"]["options"]) == {"accept_table", "ball_in_hand_kitchen"}


def test_wpa_4_3_g_cue_ball_off_the_table_on_the_break():
    r = rule_one(H, brk(pocketed=[("6", "foot-left")], gone_off=["cue"]))
    assert codes(r) == ["cue_ball_off_table"]
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_kitchen"


BREAK_FOULS = {
    # (h) fouls other than (d)-(g): a scratch, a double hit, a cue ball placed on the head string side.
    "scratch": dict(pocketed=[("6", "foot-left")], scratch="side-left"),
    "double_hit": dict(pocketed=[("6", "foot-left")], extra=[strike(0.02)]),
    "placement": dict(pocketed=[("6", "foot-left")], cue=(700.0, 640.0), crosses=False),
}
BREAK_FOUL_CODES = {"scratch": "cue_ball_pocketed", "double_hit": "double_hit", "placement": "bad_cue_ball_placement"}


@pytest.mark.parametrize("kind", list(BREAK_FOULS))
def test_wpa_4_3_h_other_break_fouls_accept_table_or_kitchen(kind):
    r = rule_one(H, brk(**BREAK_FOULS[kind]))
    assert r["legal"] is False and codes(r) == [BREAK_FOUL_CODES[kind]]
    assert r["rack_over"] is None
    nxt = r["next"]
    assert nxt["shooter"] == "B"
    if kind == "scratch":
        # The cue ball is in a pocket: there is no position to accept, only the kitchen hand.
        assert nxt["cue_ball"] == "in_hand_kitchen" and nxt["options"] == []
    else:  # the cue ball is on the table: B accepts the position or takes the kitchen hand
        assert nxt["decider"] == "B"
        assert set(nxt["options"]) == {"accept_table", "ball_in_hand_kitchen"}
        assert nxt["effects"]["accept_table"]["shooter"] == "B"
        assert nxt["effects"]["accept_table"]["cue_ball"] == "in_place"
        assert nxt["effects"]["ball_in_hand_kitchen"]["cue_ball"] == "in_hand_kitchen"


@pytest.mark.parametrize("kind", list(BREAK_FOULS) + ["off_table", "eight_and_cue"])
def test_wpa_4_3_ball_in_hand_after_a_break_foul_is_never_anywhere(kind):
    args = dict(BREAK_FOULS, off_table=dict(pocketed=[("6", "foot-left")], gone_off=["12"]),
                eight_and_cue=dict(pocketed=[("8", "side-left")], scratch="foot-right"))[kind]
    r = rule_one(H, brk(**args))
    assert r["legal"] is False
    assert r["next"]["cue_ball"] != NOT_ANYWHERE
    assert "ball_in_hand_anywhere" not in r["next"]["options"]
    assert all(e["cue_ball"] != NOT_ANYWHERE for e in r["next"].get("effects", {}).values())


def test_wpa_4_3_h_scratch_kitchen_hand_is_enforced():
    scratch = brk(**BREAK_FOULS["scratch"])
    pos = {b: SPREAD[b] for b in RACK if b != "6"}
    bad = shot({**pos, "cue": (900.0, 640.0)}, [strike(), hit(0.4, "11"), rail(0.9, "11", "left"), stop(4.0)])
    r = rule(H, scratch, bad)[0][-1]
    assert r["shooter"] == "B" and codes(r) == ["bad_cue_ball_placement"]


# --- 4.4 open table -----------------------------------------------------------------------------

def test_wpa_4_4_open_table_eight_first_is_a_foul():
    t = Table8(OPEN)
    eight_first = t.shot([strike(), hit(0.4, "8"), rail(0.9, "8", "right"), stop(4.0)], cue_to=(1800.0, 700.0))
    r = rule(H, legal_break(), eight_first)[0][-1]
    assert r["legal"] is False
    f = penalised(r)
    assert f["code"] == "wrong_ball_first"
    assert f["rule"] == "WPA 4.4"
    assert r["rack_over"] is None  # a plain foul, not a loss: the 8 did not go down
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_anywhere"


def test_wpa_4_4_group_set_by_the_called_ball():
    t = Table8(OPEN)
    # A calls the 13 (a stripe) and makes it: A takes the stripes.
    make13 = t.shot([strike(), hit(0.3, "13"), pot(1.0, "13", "foot-left"), stop(4.0)],
                    cue_to=(1850.0, 450.0), called=called("13", "foot-left"))
    rulings, st = rule(H, legal_break(), make13)
    assert rulings[-1]["legal"] and rulings[-1]["next"]["shooter"] == "A"
    assert st.groups == {"A": "stripes", "B": "solids"}
    # Now the group counts: A hitting a solid (the 4) first is a foul.
    solid_first = t.shot([strike(), hit(0.3, "4"), rail(0.8, "4", "left"), stop(4.0)], cue_to=(1750.0, 500.0))
    r = rule(H, legal_break(), make13, solid_first)[0][-1]
    assert codes(r) == ["wrong_ball_first"]


def test_wpa_4_4_failed_call_leaves_table_open_and_turn_passes():
    t = Table8(OPEN)
    # A calls the 3 in the foot-left corner via the 13: the 3 misses, the 13 drops instead.
    miss = t.shot([strike(), hit(0.3, "13"), hit(0.5, "3", "13"), rail(1.0, "3", "foot"), pot(1.1, "13", "foot-left"),
                   stop(4.0)], cue_to=(1900.0, 500.0), called=called("3", "foot-left"))
    rulings, st = rule(H, legal_break(), miss)
    r = rulings[-1]
    assert r["legal"] is True and r["pocketed"] == ["13"]
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_place"
    assert st.groups is None
    # Still open for B: B may take the stripes with a called stripe.
    b11 = t.shot([strike(), hit(0.3, "11"), pot(1.3, "11", "head-left"), stop(4.0)],
                 cue_to=(1200.0, 500.0), called=called("11", "head-left"))
    rulings, st = rule(H, legal_break(), miss, b11)
    assert rulings[-1]["shooter"] == "B" and rulings[-1]["legal"] is True
    assert rulings[-1]["next"]["shooter"] == "B"
    assert st.groups == {"B": "stripes", "A": "solids"}


# --- 4.5 continuing, 4.6 safety, 4.7 spotting ----------------------------------------------------

def test_wpa_4_5_called_ball_made_shooter_continues():
    t, log = a_has_solids()
    s = t.pot("4", "side-left", cue_to=(1500.0, 600.0))
    r = rule(H, *log, s)[0][-1]
    assert r["legal"] is True and r["pocketed"] == ["4"]
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_place" and r["next"]["options"] == []


@pytest.mark.parametrize("events", [
    # the called 4 misses and stays on the table
    [strike(), hit(0.3, "4"), rail(0.9, "4", "left"), stop(4.0)],
    # the called 4 drops, but in another pocket than the one called
    [strike(), hit(0.3, "4"), rail(0.7, "4", "left"), pot(1.5, "4", "head-left"), stop(4.0)],
], ids=["missed", "wrong_pocket"])
def test_wpa_4_5_called_ball_not_made_turn_passes(events):
    t, log = a_has_solids()
    s = t.shot(events, cue_to=(1800.0, 450.0), called=called("4", "side-left"))
    rulings, st = rule(H, *log, s)
    r = rulings[-1]
    assert r["legal"] is True and r["fouls"] == []
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_place"
    assert r["spotted"] == []


@pytest.mark.parametrize("pocket_it, call", [(False, None), (True, None), (True, called("4", "side-left"))],
                         ids=["nothing_down", "ball_down", "ball_down_as_called"])
def test_wpa_4_6_safety_passes_turn_pocketed_balls_stay_down(pocket_it, call):
    t, log = a_has_solids()
    evs = [strike(), hit(0.3, "4"), rail(0.9, "4", "left")]
    if pocket_it:
        evs.append(pot(1.4, "4", "side-left"))
    kw = {"called": call} if call else {}
    s = t.shot(evs + [stop(4.0)], cue_to=(1950.0, 420.0), safety=True, **kw)
    rulings, st = rule(H, *log, s)
    r = rulings[-1]
    assert r["legal"] is True and r["fouls"] == []
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_place" and r["next"]["options"] == []
    assert r["spotted"] == []
    assert ("4" in st.table) is (not pocket_it)
    assert r["pocketed"] == (["4"] if pocket_it else [])


@pytest.mark.parametrize("events, ball", [
    # wrong ball first (a stripe), which drops: a foul, and the 13 stays down
    ([strike(), hit(0.3, "13"), pot(1.0, "13", "foot-left"), stop(4.0)], "13"),
    # an own ball driven off the table: 3.5, not spotted in eight-ball
    ([strike(), hit(0.3, "4"), off(0.8, "4"), stop(4.0)], "4"),
], ids=["foul_pocket", "off_table"])
def test_wpa_4_7_no_ball_but_the_eight_is_spotted(events, ball):
    t, log = a_has_solids()
    s = t.shot(events, cue_to=(1800.0, 500.0))
    rulings, st = rule(H, *log, s)
    r = rulings[-1]
    assert r["legal"] is False
    assert r["spotted"] == [] and r["spotted_at"] == {}
    assert ball not in st.table
    assert r["rack_over"] is None


# --- 4.8 loss of game ------------------------------------------------------------------------------

def _loss(r, rule_text="WPA 4.8"):
    assert r["legal"] is False
    f = penalised(r)
    assert f["code"] == "eight_ball_loss" and f["rule"] == rule_text
    assert r["rack_over"] is not None and r["rack_over"]["winner"] == "B"
    assert r["score"] == {"A": 0, "B": 1}
    # A new rack; A broke this one, so B breaks the next (1.3 alternate breaks).
    assert r["next"].get("break") is True and r["next"]["shooter"] == "B"


def test_wpa_4_8_a_foul_while_pocketing_the_eight_loses():
    t, log = a_on_the_eight()
    s = t.shot([strike(), hit(0.3, "8"), pot(1.2, "8", "side-right"), pot(2.0, "cue", "foot-right"), stop(4.0)],
               called=called("8", "side-right"))
    r = rule(H, *log, s)[0][-1]
    assert "cue_ball_pocketed" in codes(r)
    _loss(r)


@pytest.mark.parametrize("call", [called("7", "foot-right"), called("8", "side-right"), None],
                         ids=["seven_called", "eight_called", "no_call"])
def test_wpa_4_8_b_eight_before_group_cleared_loses(call):
    t, log = a_has_solids()
    # A plays the 7 (own group, legal first contact); the 7 knocks the 8 into the side. Even with
    # the 8 called in that very pocket, it went down before the solids were cleared.
    kw = {"called": call} if call else {}
    s = t.shot([strike(), hit(0.3, "7"), hit(0.6, "8", "7"), rail(0.9, "7", "right"), pot(1.4, "8", "side-right"),
                stop(4.0)], cue_to=(2050.0, 700.0), **kw)
    r = rule(H, *log, s)[0][-1]
    _loss(r)


def test_wpa_4_8_c_eight_in_uncalled_pocket_loses():
    t, log = a_on_the_eight()
    s = t.shot([strike(), hit(0.3, "8"), rail(0.8, "8", "right"), pot(1.3, "8", "side-right"), stop(4.0)],
               called=called("8", "side-left"))
    r = rule(H, *log, s)[0][-1]
    _loss(r)


@pytest.mark.parametrize("on_eight", [True, False])
def test_wpa_4_8_d_eight_off_the_table_loses(on_eight):
    t, log = a_on_the_eight() if on_eight else a_has_solids()
    first = "8" if on_eight else "7"
    evs = [strike(), hit(0.3, first)] + ([] if on_eight else [hit(0.6, "8", "7")]) + [off(1.0, "8"), stop(4.0)]
    s = t.shot(evs, called=called(first, "side-right"))
    r = rule(H, *log, s)[0][-1]
    _loss(r)


def test_wpa_4_8_c_eight_pocketed_on_a_called_safety_loses():
    # A, on the 8, calls a safety (4.6): no ball and no pocket is called. The 8 drops anyway: it
    # went into a pocket that was not called (4.8 c), and 4.7 never spots it during play.
    t, log = a_on_the_eight()
    s = t.shot([strike(), hit(0.3, "8"), rail(0.8, "8", "right"), pot(1.3, "8", "side-right"), stop(4.0)],
               cue_to=(2100.0, 700.0), safety=True)
    r = rule(H, *log, s)[0][-1]
    _loss(r)


def test_wpa_4_8_eight_in_the_called_pocket_wins():
    t, log = a_on_the_eight()
    s = t.shot([strike(), hit(0.3, "8"), pot(1.2, "8", "side-right"), stop(4.0)], cue_to=(1900.0, 850.0),
               called=called("8", "side-right"))
    r = rule(H, *log, s)[0][-1]
    assert r["legal"] is True and r["fouls"] == []
    assert r["rack_over"] is not None and r["rack_over"]["winner"] == "A"
    assert r["score"] == {"A": 1, "B": 0}


@pytest.mark.parametrize("args", [
    dict(pocketed=[("8", "side-left")]),
    dict(pocketed=[("8", "side-left")], scratch="foot-right"),
    dict(gone_off=["8"]),
    dict(pocketed=[("8", "side-left")], gone_off=["cue"]),
], ids=["eight", "eight_and_scratch", "eight_off", "eight_and_cue_off"])
def test_wpa_4_8_losses_do_not_apply_on_the_break(args):
    r = rule_one(H, brk(**args))
    assert "eight_ball_loss" not in codes(r)
    assert r["rack_over"] is None
    assert r["score"] == {"A": 0, "B": 0}


# --- 4.9 fouls, 3.2 and 3.13 in eight-ball ---------------------------------------------------------

@pytest.mark.parametrize("events, code, cue_on", [
    ([strike(), hit(0.3, "4"), rail(0.8, "4", "left"), pot(1.6, "cue", "side-left"), stop(4.0)], "cue_ball_pocketed", False),
    ([strike(), hit(0.3, "4"), stop(4.0)], "no_rail", True),
], ids=["scratch", "no_rail"])
def test_wpa_4_9_foul_gives_ball_in_hand_anywhere(events, code, cue_on):
    t, log = a_has_solids()
    s = t.shot(events, cue_to=(1760.0, 400.0) if cue_on else None)
    r = rule(H, *log, s)[0][-1]
    assert r["legal"] is False and codes(r) == [code]
    assert r["rack_over"] is None
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_anywhere"
    if cue_on:
        assert r["next"]["default"] == "ball_in_hand_anywhere"
        assert r["next"]["effects"]["ball_in_hand_anywhere"]["cue_ball"] == "in_hand_anywhere"


def test_wpa_4_9_ball_in_hand_anywhere_is_not_restricted_to_the_kitchen():
    t, log = a_has_solids()
    scratch = t.shot([strike(), hit(0.3, "4"), rail(0.8, "4", "left"), pot(1.6, "cue", "side-left"), stop(4.0)])
    # B places the cue ball well in front of the head string and plays a stripe.
    b_shot = t.shot([strike(), hit(0.3, "13"), rail(0.8, "13", "left"), stop(4.0)], cue_to=(2000.0, 560.0),
                    place={"cue": (1900.0, 640.0)})
    r = rule(H, *log, scratch, b_shot)[0][-1]
    assert r["shooter"] == "B" and r["legal"] is True and r["fouls"] == []


def test_wpa_3_2_eight_ball_own_group_first():
    t, log = a_has_solids()
    s = t.shot([strike(), hit(0.3, "13"), rail(0.8, "13", "left"), stop(4.0)], cue_to=(1800.0, 500.0))
    r = rule(H, *log, s)[0][-1]
    f = penalised(r)
    assert f["code"] == "wrong_ball_first" and f["rule"] == "WPA 3.2"
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_anywhere"


def test_wpa_3_2_eight_ball_group_cleared_the_eight_first():
    t, log = a_on_the_eight()
    s = t.shot([strike(), hit(0.3, "10"), rail(0.8, "10", "right"), stop(4.0)], cue_to=(2200.0, 850.0))
    r = rule(H, *log, s)[0][-1]
    assert codes(r) == ["wrong_ball_first"] and r["fouls"][0]["rule"] == "WPA 3.2"
    assert r["rack_over"] is None


def test_wpa_3_13_three_fouls_in_a_row_do_not_lose_in_eight_ball():
    t, log = a_has_solids()
    # Each player in turn misses everything with ball in hand: A fouls three times in a row.
    fouls = []
    for i, cue in enumerate([(2000.0, 500.0), (1000.0, 300.0), (1000.0, 300.0), (1000.0, 300.0), (1000.0, 300.0)]):
        fouls.append(t.shot([strike(), rail(0.8, "cue", "left"), stop(3.0)], cue_to=(1000.0, 100.0), place={"cue": cue}))
    rulings, st = rule(H, *log, *fouls)
    shooters = [r["shooter"] for r in rulings[-5:]]
    assert shooters == ["A", "B", "A", "B", "A"]
    r = rulings[-1]
    assert codes(r) == ["no_contact"]
    assert "consecutive_fouls" not in codes(r)
    assert r["rack_over"] is None and r["score"] == {"A": 0, "B": 0}
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_anywhere"
    assert all("warning" not in x["next"] for x in rulings)  # no three-foul warning in eight-ball


def test_wpa_4_3_d_with_a_foul_the_foul_carries_the_penalty_and_its_options():
    # Two object balls to a rail only (4.3 d) AND the 3 off the table (4.3 g): a foul.
    r = rule_one(H, brk(rails=("15", "11"), gone_off=("3",)))
    assert set(codes(r)) == {"illegal_break", "object_ball_off_table"}
    assert penalised(r)["code"] == "object_ball_off_table"
    assert set(r["next"]["options"]) == {"accept_table", "ball_in_hand_kitchen"}
