"""Nine-ball (WPA 5, Reg 16)."""
from helpers import (
    FOOT_SPOT,
    broken,
    codes,
    cross,
    decision,
    header,
    hit,
    penalised,
    play,
    play_one,
    pot,
    rail,
    rule,
    rule_one,
    shot,
    stop,
    strike,
)

RACK = {"1": (1848.0, 635.0), "2": (1877.0, 606.0), "3": (1877.0, 664.0), "4": (1905.0, 578.0),
        "9": FOOT_SPOT, "5": (1905.0, 692.0), "6": (1934.0, 606.0), "7": (1934.0, 664.0), "8": (1962.0, 635.0)}
START = {"cue": (300.0, 600.0), **RACK}
MID = {"cue": (1000.0, 400.0), "3": (1700.0, 400.0), "5": (1700.0, 900.0), "9": FOOT_SPOT}


def brk(events, moved=None, **kw):
    return shot(START, [strike(), hit(0.4, "1")] + events + [stop(5.0)], moved=moved or {"cue": (1200.0, 600.0)}, **kw)


def test_wpa_5_3_legal_break_four_balls_to_rails():
    r = rule_one(header(), brk([rail(0.9, "2", "foot"), rail(1.0, "4", "left"), rail(1.1, "5", "right"),
                                rail(1.2, "cue", "left")]))
    assert r["legal"] and r["break"] and r["next"]["shooter"] == "B"
    assert r["next"]["push_out_allowed"] is True  # 5.4: the shot after a legal break


def test_wpa_5_3_fewer_than_four_balls_to_rails_is_a_foul():
    r = rule_one(header(), brk([rail(0.9, "2", "foot"), rail(1.0, "4", "left"), rail(1.2, "cue", "left")]))
    f = penalised(r)
    assert f["code"] == "illegal_break" and f["rule"] == "WPA 5.3"
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_anywhere"  # 5.7
    assert not r["next"].get("push_out_allowed")  # 5.4: only after a break without a foul


def test_wpa_5_3_pocketing_a_ball_is_enough():
    r = rule_one(header(), brk([pot(1.0, "2", "foot-left")]))
    assert r["legal"] and r["next"]["shooter"] == "A" and r["pocketed"] == ["2"]


def test_wpa_5_7_break_must_hit_the_one_first():
    s = shot(START, [strike(), hit(0.4, "2"), pot(1.0, "4", "foot-left"), stop(5.0)], moved={"cue": (1200.0, 600.0)})
    r = rule_one(header(), s)
    assert codes(r) == ["wrong_ball_first"]


def test_wpa_5_5_nine_on_the_break_wins():
    r = rule_one(header(), brk([pot(1.0, "9", "foot-right")]))
    assert r["legal"] and r["rack_over"] == {"winner": "A", "reason": "A pocketed the 9 on a legal shot"}
    assert r["score"] == {"A": 1, "B": 0}
    assert r["next"]["shooter"] == "B" and r["next"]["break"] is True  # 1.3 alternate breaks


def test_wpa_5_5_combination_on_the_nine_wins_at_any_time():
    r = play_one(header(), MID, shot(MID, [strike(), hit(0.4, "3"), hit(0.9, "9", "3"), pot(1.4, "9", "foot-left"), stop(4)]))
    assert r["legal"] and r["rack_over"]["winner"] == "A"


def test_wpa_5_5_pocketing_any_ball_continues_missing_passes():
    r = play_one(header(), MID, shot(MID, [strike(), hit(0.4, "3"), hit(0.8, "5", "3"), pot(1.4, "5", "side-right"), stop(4)]))
    assert r["legal"] and r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_place"
    r = play_one(header(), MID, shot(MID, [strike(), hit(0.4, "3"), rail(0.9, "3", "foot"), stop(4)]))
    assert r["legal"] and r["next"]["shooter"] == "B" and r["next"]["options"] == []


def test_wpa_5_6_nine_pocketed_on_a_foul_is_spotted_and_no_other_ball():
    evs = [strike(), hit(0.4, "5"), pot(1.0, "5", "side-right"), hit(1.2, "9", "5"), pot(1.6, "9", "foot-left"), stop(4)]
    r = play_one(header(), MID, shot(MID, evs))
    assert codes(r) == ["wrong_ball_first"] and r["rack_over"] is None
    assert r["spotted"] == ["9"] and r["spotted_at"]["9"] == [1905.0, 635.0]
    assert "5" in r["pocketed"] and "5" not in r["spotted"]


def test_wpa_5_6_nine_off_the_table_is_spotted():
    evs = [strike(), hit(0.4, "3"), hit(0.8, "9", "3"), {"t": 1.2, "type": "off_table", "ball": "9"}, stop(4)]
    r = play_one(header(), MID, shot(MID, evs))
    assert codes(r) == ["object_ball_off_table"] and r["spotted"] == ["9"]


def test_wpa_5_4_push_out_ignores_3_2_and_3_3_and_opponent_chooses():
    # B shoots the shot after A's legal break that pocketed nothing.
    rails4 = [rail(0.9, "2", "foot"), rail(1.0, "4", "left"), rail(1.1, "5", "right"), rail(1.2, "cue", "left")]
    after = {k: v for k, v in START.items()}
    after["cue"] = (1200.0, 600.0)
    push = shot(after, [strike(), rail(0.8, "cue", "left"), stop(3)], push_out=True)  # hits nothing: fine on a push
    rs, st = rule(header(), brk(rails4), push)
    assert rs[1]["legal"] and rs[1]["push_out"] is True and rs[1]["shooter"] == "B"
    assert rs[1]["next"]["decider"] == "A" and rs[1]["next"]["options"] == ["accept_table", "pass"]
    # A passes: B must shoot again.
    nxt = shot(after, [strike(), hit(0.5, "1"), rail(1.0, "1", "foot"), stop(3)])
    rs, _ = rule(header(), brk(rails4), push, decision("pass", "A"), nxt)
    assert rs[2]["shooter"] == "B"
    rs, _ = rule(header(), brk(rails4), push, nxt)
    assert rs[2]["shooter"] == "A" and "default" in rs[2]["notes"][0]


def test_wpa_5_4_push_out_only_right_after_the_break():
    late = shot(MID, [strike(), rail(0.8, "cue", "left"), stop(3)], push_out=True)
    r = play(header(), MID, shot(MID, [strike(), hit(0.4, "3"), pot(1.0, "3"), stop(3)], moved={"cue": (1100.0, 400.0)}),
             late)[-1]
    assert not r["push_out"] and codes(r) == ["no_contact"]


def test_wpa_5_6_nine_pocketed_on_a_push_out_is_spotted():
    rails4 = [rail(0.9, "2", "foot"), rail(1.0, "4", "left"), rail(1.1, "5", "right"), rail(1.2, "cue", "left")]
    after = dict(START, cue=(1200.0, 600.0))
    push = shot(after, [strike(), hit(0.5, "9"), pot(1.0, "9", "foot-left"), stop(3)], push_out=True)
    rs, _ = rule(header(), brk(rails4), push)
    assert rs[1]["legal"] and rs[1]["rack_over"] is None and rs[1]["spotted"] == ["9"]


def test_reg_16_three_ball_rule_not_met_incoming_player_chooses():
    h = header(three_ball_break=True)
    # One ball pocketed, one crosses the head string: two, not three.
    r = rule_one(h, brk([pot(1.0, "2", "foot-left"), cross(1.5, "4", "head_string")]))
    assert r["legal"] and not r["fouls"]
    assert r["next"]["decider"] == "B" and r["next"]["options"] == ["accept_table", "pass"]
    assert r["next"]["effects"]["pass"]["push_out_allowed"] is True  # Reg 16 (4)
    assert "push_out_allowed" not in r["next"]["effects"]["accept_table"]  # Reg 16 (3)


def test_reg_16_three_balls_met_by_combination():
    h = header(three_ball_break=True)
    r = rule_one(h, brk([pot(1.0, "2", "foot-left"), cross(1.5, "4", "head_string"), cross(1.6, "5", "head_string")]))
    assert r["legal"] and r["next"]["shooter"] == "A" and r["next"]["options"] == []


def test_reg_16_5_nine_on_a_break_failing_the_rule_is_spotted():
    h = header(three_ball_break=True)
    spread = {"cue": (1200.0, 600.0), "1": (1500.0, 300.0), "2": (1600.0, 1000.0), "3": (2300.0, 200.0),
              "4": (2200.0, 300.0), "5": (2100.0, 1000.0), "6": (1700.0, 150.0), "7": (1400.0, 700.0),
              "8": (1500.0, 900.0)}
    r = rule_one(h, brk([pot(1.0, "9", "foot-left")], moved=spread))
    assert r["rack_over"] is None and r["spotted"] == ["9"] and r["spotted_at"]["9"] == [1905.0, 635.0]
    # With the rack balls still around the foot spot, 1.5: frozen behind the nearest, toward the foot cushion.
    r = rule_one(h, brk([pot(1.0, "9", "foot-left")]))
    assert r["spotted_at"]["9"] == [round(1962.0 + 57.15, 1), 635.0]


def test_wpa_5_8_three_fouls_only_within_one_rack():
    h = header()
    foul = lambda: shot(MID, [strike(), hit(0.4, "5"), rail(0.9, "5", "foot"), stop(3)])
    legal = lambda: shot(MID, [strike(), hit(0.4, "3"), rail(0.9, "3", "foot"), stop(3)])
    win = shot(MID, [strike(), hit(0.4, "3"), hit(0.9, "9", "3"), pot(1.3, "9", "foot-left"), stop(3)])
    # A fouls twice (B legal in between), then B wins the rack; in rack 2 A's count starts again.
    rs = play(h, MID, foul(), legal(), foul(), win)
    assert rs[-1]["rack_over"]["winner"] == "B"
    rack2 = dict(START)
    brk2 = shot(rack2, [strike(), hit(0.4, "1"), pot(1.0, "2", "foot-left"), stop(4)], moved={"cue": MID["cue"]})
    rs2, st = rule(h, broken(MID), foul(), legal(), foul(), win, brk2)
    assert st.fouls_in_row["A"] == 0 and rs2[-1]["rack"] == 2



def test_wpa_1_3_breaks_alternate_unless_the_winner_breaks():
    win = brk([pot(1.0, "9", "foot-right")])
    r = rule(header(), win)[0][0]
    assert r["next"]["shooter"] == "B" and r["next"]["break"] is True and r["next"]["cue_ball"] == "in_hand_kitchen"
    r = rule(header(break_order="winner"), win)[0][0]
    assert r["next"]["shooter"] == "A" and r["next"]["break"] is True
