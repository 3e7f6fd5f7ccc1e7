"""The general fouls of WPA 3, in the games that apply them, with the benefit of the doubt (Reg 25)."""
import pytest
from helpers import (
    FOOT_SPOT,
    airborne,
    codes,
    cross,
    disturbed,
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

# A mid-rack nine-ball position: the 3 is the lowest ball.
MID = {"cue": (1000.0, 400.0), "3": (1700.0, 400.0), "5": (1700.0, 900.0), "9": FOOT_SPOT}


def test_wpa_3_1_cue_ball_pocketed():
    r = play_one(header(), MID, *[shot(MID, [strike(), hit(0.3, "3"), rail(0.7, "3", "foot"), pot(1.5, "cue", "side-left"), stop(3)])])
    assert codes(r) == ["cue_ball_pocketed"] and r["fouls"][0]["rule"] == "WPA 3.1"
    assert r["next"]["shooter"] == "B" and r["next"]["cue_ball"] == "in_hand_anywhere"
    assert r["next"]["options"] == []  # no cue ball to accept where it lies


def test_wpa_3_1_cue_ball_off_the_table():
    r = play_one(header(), MID, shot(MID, [strike(), hit(0.3, "3"), rail(0.7, "3", "foot"), {"t": 1.0, "type": "off_table", "ball": "cue"}, stop(3)]))
    assert codes(r) == ["cue_ball_off_table"]


def test_wpa_3_2_wrong_ball_first():
    r = play_one(header(), MID, shot(MID, [strike(), hit(0.4, "5"), rail(0.8, "5", "foot"), stop(3)]))
    f = penalised(r)
    assert f["code"] == "wrong_ball_first" and f["rule"] == "WPA 3.2" and f["t"] == pytest.approx(0.4)
    assert "the 3" in f["why"]


def test_wpa_3_2_simultaneous_contacts_go_to_the_shooter():
    # The 5 and the 3 touched 6 ms apart, each timed to ±5 ms: which was first cannot be told.
    evs = [strike(), hit(0.400, "5", err=0.005), hit(0.406, "3", err=0.005), rail(0.9, "3", "foot"), stop(3)]
    r = play_one(header(), MID, shot(MID, evs))
    assert r["legal"] and codes(r) == []
    # 12 ms apart with the same uncertainty: the 5 was first.
    evs = [strike(), hit(0.400, "5", err=0.005), hit(0.412, "3", err=0.005), rail(0.9, "3", "foot"), stop(3)]
    assert codes(play_one(header(), MID, shot(MID, evs))) == ["wrong_ball_first"]


def test_wpa_3_2_a_contact_the_path_shows_came_second_is_not_first_however_close_in_time():
    # Reg 25 gives the shooter the benefit of the doubt; the order of two contacts 3 ms apart is
    # not in doubt when the cue ball could reach the 3 only off the 5 (`follows`, an added field:
    # the 3 was not on its path from the strike). The times alone would say "simultaneous".
    evs = [strike(), hit(0.400, "5", err=0.012), dict(hit(0.403, "3", err=0.009), follows=["cue", "5"]),
           rail(0.9, "3", "foot"), stop(3)]
    f = penalised(play_one(header(), MID, shot(MID, evs)))
    assert f["code"] == "wrong_ball_first" and f["rule"] == "WPA 3.2"
    # Following a contact the record does not hold says nothing: the doubt stands.
    evs[2] = dict(hit(0.403, "3", err=0.009), follows=["cue", "9"])
    assert play_one(header(), MID, shot(MID, evs))["legal"]


def test_wpa_3_3_no_contact():
    r = play_one(header(), MID, shot(MID, [strike(), rail(0.8, "cue", "foot"), stop(3)]))
    assert codes(r) == ["no_contact"] and r["fouls"][0]["rule"] == "WPA 3.3"


def test_wpa_3_3_no_rail_after_contact():
    r = play_one(header(), MID, shot(MID, [strike(), hit(0.4, "3"), stop(3)]))
    assert codes(r) == ["no_rail"]


def test_wpa_3_3_a_rail_before_the_contact_does_not_count():
    r = play_one(header(), MID, shot(MID, [strike(), rail(0.2, "cue", "left"), hit(0.6, "3"), stop(3)]))
    assert codes(r) == ["no_rail"]


def test_wpa_3_3_contact_and_rail_together_ball_deemed_first():
    r = play_one(header(), MID, shot(MID, [strike(), rail(0.398, "cue", "left", err=0.004), hit(0.402, "3", err=0.004), stop(3)]))
    assert r["legal"]


@pytest.mark.parametrize("after_contact", [
    pytest.param(rail(0.9, "cue", "right"), id="cue-ball-to-rail"),
    pytest.param(rail(0.9, "5", "foot"), id="another-ball-to-rail"),
    pytest.param(pot(1.0, "3", "foot-left"), id="pocketed-ball"),
])
def test_wpa_3_3_and_2_7_any_ball_to_a_rail_or_pocketed(after_contact):
    r = play_one(header(), MID, shot(MID, [strike(), hit(0.4, "3"), after_contact, stop(3)]))
    assert r["legal"]


def test_wpa_2_7_ball_off_the_table_counts_as_a_rail_but_is_a_3_5_foul():
    r = play_one(header(), MID, shot(MID, [strike(), hit(0.4, "3"), {"t": 0.9, "type": "off_table", "ball": "5"}, stop(3)]))
    assert codes(r) == ["object_ball_off_table"] and r["fouls"][0]["rule"] == "WPA 3.5"


def test_wpa_3_6_ball_disturbed_without_contact():
    r = play_one(header(), MID, shot(MID, [strike(), hit(0.4, "3"), rail(0.8, "3", "foot"), disturbed(1.5, "5"), stop(3)],
                                moved={"5": (1720.0, 900.0)}))
    assert codes(r) == ["ball_disturbed"] and r["fouls"][0]["rule"] == "WPA 3.6"


def test_wpa_3_6_blocking_ball_moved_during_a_jump():
    evs = [strike(), airborne(0.05, 0.30), disturbed(0.20, "5"), hit(0.5, "3"), rail(0.9, "3", "foot"), stop(3)]
    r = play_one(header(), MID, shot(MID, evs, moved={"5": (1705.0, 900.0)}))
    assert codes(r) == ["ball_disturbed"] and "jump" in r["fouls"][0]["why"]


def test_wpa_2_9_a_clean_jump_is_legal():
    evs = [strike(), airborne(0.05, 0.30), hit(0.5, "3"), rail(0.9, "3", "foot"), stop(3)]
    assert play_one(header(), MID, shot(MID, evs))["legal"]


def test_wpa_3_7_double_hit():
    r = play_one(header(), MID, shot(MID, [strike(), strike(0.02), hit(0.3, "3"), rail(0.8, "3", "foot"), stop(3)]))
    assert codes(r) == ["double_hit"] and r["fouls"][0]["rule"] == "WPA 3.7"


def test_wpa_3_9_shooting_while_balls_still_move():
    h = header()
    s1 = shot(MID, [strike(), hit(0.4, "3"), rail(0.8, "3", "foot"), stop(6.0)], t0=100.0)  # stops at 106.0
    s2 = shot(MID, [strike(), hit(0.4, "3"), rail(0.8, "3", "foot"), stop(3.0)], t0=105.0)
    rs = play(h, MID, s1, s2)
    assert codes(rs[1]) == ["balls_moving"] and rs[1]["fouls"][0]["rule"] == "WPA 3.9"
    # Struck within the stop time's uncertainty: not a foul (Reg 25).
    s1u = shot(MID, [strike(), hit(0.4, "3"), rail(0.8, "3", "foot"), stop(6.0, err=0.2)], t0=100.0)
    s2u = shot(MID, [strike(), hit(0.4, "3"), rail(0.8, "3", "foot"), stop(3.0)], t0=105.9)
    assert play(h, MID, s1u, s2u)[1]["legal"]


def test_wpa_3_10_bad_cue_ball_placement_on_the_head_string():
    rack = {"1": (1905.0, 635.0), "2": (1955.0, 610.0), "9": (2005.0, 635.0)}
    brk = shot({"cue": (635.0, 400.0), **rack}, [strike(), hit(0.5, "1"), pot(1.0, "2"), stop(4)])
    r = rule_one(header(), brk)
    assert codes(r) == ["bad_cue_ball_placement"] and r["fouls"][0]["rule"] == "WPA 3.10"
    brk_ok = shot({"cue": (634.0, 400.0), **rack}, [strike(), hit(0.5, "1"), pot(1.0, "2"), stop(4)])
    assert rule_one(header(), brk_ok)["legal"]


def test_wpa_3_11_first_contact_behind_the_head_string_without_crossing():
    # Eight-ball applies 3.11 (4.9); after a foul break the cue ball is in hand in the kitchen.
    h = header("eight-ball")
    rack = {str(n): (1905.0 + n, 100.0 + 70 * n) for n in range(1, 16)}
    foul_break = shot({"cue": (300.0, 600.0), **rack},
                      [strike(), hit(0.5, "1"), rail(0.9, "1", "foot"), pot(1.5, "cue", "foot-left"), stop(4)])
    pos = {**rack, "cue": (200.0, 600.0), "3": (500.0, 600.0)}  # the 3 lies behind the head string
    bad = shot(pos, [strike(), hit(0.3, "3"), rail(0.7, "3", "left"), stop(3)], t0=20)
    rs, _ = rule(h, foul_break, bad)
    assert codes(rs[1]) == ["bad_play_from_kitchen"] and rs[1]["fouls"][0]["rule"] == "WPA 3.11"
    # Crossing the head string first (a bank off the foot rail back to the 3) is legal.
    good = shot(pos, [strike(), cross(0.3), rail(1.0, "cue", "foot"), cross(1.6), hit(2.0, "3"), rail(2.4, "3", "left"), stop(4)], t0=20)
    rs, _ = rule(h, foul_break, good)
    assert rs[1]["legal"]


def test_wpa_1_6_ball_on_the_head_string_is_playable_from_the_kitchen():
    h = header("eight-ball")
    rack = {str(n): (1905.0 + n, 100.0 + 70 * n) for n in range(1, 16)}
    foul_break = shot({"cue": (300.0, 600.0), **rack}, [strike(), hit(0.5, "1"), rail(0.9, "1", "foot"), pot(1.5, "cue"), stop(4)])
    pos = {**rack, "cue": (200.0, 600.0), "3": (635.0, 600.0)}  # centre exactly on the head string
    s = shot(pos, [strike(), hit(0.3, "3"), rail(0.7, "3", "left"), stop(3)], t0=20)
    rs, _ = rule(h, foul_break, s)
    assert rs[1]["legal"]


def test_wpa_3_14_reg_18_shot_clock_with_one_extension_per_rack():
    h = header(shot_clock_s=35)
    s1 = shot(MID, [strike(), hit(0.4, "3"), rail(0.8, "3", "foot"), stop(5.0)], t0=100.0)  # stops at 105
    slow = shot(MID, [strike(), hit(0.4, "3"), rail(0.8, "3", "foot"), stop(5.0)], t0=105.0 + 50.0)  # 50 s: extension
    s3 = shot(MID, [strike(), hit(0.4, "3"), rail(0.8, "3", "foot"), stop(5.0)], t0=160.0 + 30.0)
    slow_again = shot(MID, [strike(), hit(0.4, "3"), rail(0.8, "3", "foot"), stop(5.0)], t0=195.0 + 50.0)
    rs = play(h, MID, s1, slow, s3, slow_again)
    assert rs[1]["legal"] and any("extension" in n for n in rs[1]["notes"])
    assert rs[1]["shooter"] == "B" and rs[3]["shooter"] == "B"
    assert codes(rs[3]) == ["shot_clock"] and rs[3]["fouls"][0]["rule"] == "WPA 3.14"


def test_reg_18_shot_after_the_break_may_have_longer():
    h = header(shot_clock_s=35, after_break_s=60)
    brk = shot({"cue": (300.0, 600.0), "1": (1500.0, 500.0), "3": (1700.0, 400.0), "9": FOOT_SPOT},
               [strike(), hit(0.3, "1"), pot(0.9, "1"), stop(4.0)], t0=10.0, moved={"cue": MID["cue"]})
    after = {"cue": MID["cue"], "3": (1700.0, 400.0), "9": FOOT_SPOT}
    s = shot(after, [strike(), hit(0.4, "3"), rail(0.8, "3", "foot"), stop(5.0)], t0=14.0 + 55.0)
    rs, _ = rule(h, brk, s)
    assert rs[1]["legal"] and not rs[1].get("notes")  # 55 s is within 60 s, no extension needed


def test_wpa_3_only_the_most_serious_foul_is_penalised_all_are_reported():
    evs = [strike(), hit(0.4, "5"), pot(1.2, "cue", "foot-right"), disturbed(1.5, "9"), stop(3)]
    r = play_one(header(), MID, shot(MID, evs, moved={"9": (1910.0, 640.0)}))
    assert set(codes(r)) == {"wrong_ball_first", "cue_ball_pocketed", "ball_disturbed"}
    assert [f["penalised"] for f in r["fouls"]].count(True) == 1
    assert penalised(r)["code"] == "cue_ball_pocketed"


def test_wpa_3_13_warning_then_third_foul_loses_the_rack():
    h = header()
    def miss(_):
        return shot(MID, [strike(), hit(0.4, "3"), stop(3.0)])  # no rail: a foul each time

    def legal(_):
        return shot(MID, [strike(), hit(0.4, "3"), rail(0.8, "3", "foot"), stop(3.0)])

    # A fouls, B plays legally (misses), A fouls, B misses, A fouls a third time.
    rs = play(h, MID, miss(0), legal(10), miss(20), legal(30), miss(40))
    assert codes(rs[0]) == ["no_rail"] and rs[0]["next"].get("warning") is None
    assert "2 consecutive fouls" in rs[3]["next"]["warning"]  # A arrives at the table on two fouls
    assert "consecutive_fouls" in codes(rs[4]) and rs[4]["rack_over"]["winner"] == "B"
    assert penalised(rs[4])["rule"] == "WPA 5.8"
    # A legal shot in between resets the count.
    rs = play(h, MID, miss(0), legal(10), legal(20), legal(30), miss(40), legal(50), miss(60))
    assert rs[-1]["rack_over"] is None


def test_wpa_1_6_every_object_ball_behind_the_head_string_nearest_may_be_spotted():
    # 14.1: B scratches; A gets ball in hand behind the head string (7.9) with the 4 and the 7 both
    # behind it too: A may have the one nearest the string (the 7) spotted on the foot spot.
    h = header("straight-pool", target_score=100)

    def opening(pos):  # A breaks, the called 9 drops, A continues and then misses
        brk = shot({"cue": (300.0, 600.0), "9": (2300.0, 200.0), **{b: p for b, p in pos.items() if b != "cue"}},
                   [strike(), cross(0.1), hit(0.3, "9"), pot(0.9, "9"), stop(4.0)], after=pos,
                   called={"ball": "9", "pocket": "foot-left"})
        miss = shot(pos, [strike(), hit(0.4, "4"), rail(0.8, "4", "head"), stop(3)])
        return brk, miss

    pos = {"cue": (1500.0, 600.0), "4": (300.0, 300.0), "7": (500.0, 900.0)}
    scratch = shot(pos, [strike(), hit(0.4, "4"), rail(0.8, "4", "head"), pot(1.5, "cue", "head-left"), stop(3)])
    r = rule(h, *opening(pos), scratch)[0][-1]
    assert r["shooter"] == "B" and codes(r) == ["cue_ball_pocketed"]
    assert r["next"]["shooter"] == "A" and r["next"]["cue_ball"] == "in_hand_kitchen"
    assert r["next"]["options"] == ["ball_in_hand_kitchen", "spot_nearest_ball"]
    assert r["next"]["effects"]["spot_nearest_ball"]["spotted_at"] == {"7": [1905.0, 635.0]}
    # With a ball on the head string (playable from the kitchen, 1.6), nothing is offered.
    pos2 = {"cue": (1500.0, 600.0), "4": (300.0, 300.0), "7": (635.0, 900.0)}
    scratch2 = shot(pos2, [strike(), hit(0.4, "4"), rail(0.8, "4", "head"), pot(1.5, "cue", "head-left"), stop(3)])
    r = rule(h, *opening(pos2), scratch2)[0][-1]
    assert codes(r) == ["cue_ball_pocketed"] and r["next"]["options"] == []


def test_reg_18_extension_after_the_break_stops_at_60_s():
    # A 45 s clock: 45 + 25 would be 70 s, but the shot after the break may not go past 60 s.
    h = header(shot_clock_s=45)
    brk = shot({"cue": (300.0, 600.0), "1": (1500.0, 500.0), "3": (1700.0, 400.0), "9": FOOT_SPOT},
               [strike(), hit(0.3, "1"), pot(0.9, "1"), stop(4.0)], t0=10.0, moved={"cue": MID["cue"]})
    after = {"cue": MID["cue"], "3": (1700.0, 400.0), "9": FOOT_SPOT}
    at = lambda secs: shot(after, [strike(), hit(0.4, "3"), rail(0.8, "3", "foot"), stop(5.0)], t0=14.0 + secs)
    assert rule(h, brk, at(58.0))[0][1]["legal"]
    r = rule(h, brk, at(65.0))[0][1]
    assert codes(r) == ["shot_clock"] and "60 s" in r["fouls"][0]["why"]
