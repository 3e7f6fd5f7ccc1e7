"""Where the rule sets differ (RULES.md §10): one shot, five games, five rulings."""
import pytest
from helpers import (
    codes,
    header,
    hit,
    penalised,
    play,
    play_one,
    pot,
    rail,
    shot,
    stop,
    strike,
)

GAMES = ["eight-ball", "nine-ball", "ten-ball", "straight-pool", "rotation-61"]
POS = {"cue": (1000.0, 400.0), "1": (1500.0, 300.0), "2": (1600.0, 1000.0), "3": (2300.0, 900.0),
       "5": (1700.0, 400.0), "9": (1905.0, 635.0)}


def h(game):
    return header(game, target_score=100) if game == "straight-pool" else header(game)


# The cue ball contacts the 5 (not the lowest ball) and pockets it in the foot-left corner.
FIVE_FIRST = shot(POS, [strike(), hit(0.4, "5"), pot(1.1, "5", "foot-left"), stop(3.0)])


@pytest.mark.parametrize("game,legal,next_shooter,cue_ball,points", [
    ("eight-ball", True, "A", "in_place", 0),        # open table: any ball but the 8 (4.4)
    ("nine-ball", False, "B", "in_hand_anywhere", 0),  # lowest ball first (5.7 / 3.2)
    ("ten-ball", False, "B", "in_hand_anywhere", 0),   # lowest ball first (6.9 / 3.2)
    ("straight-pool", True, "A", "in_place", 1),       # 3.2 does not apply (7.9); one point (7.7)
    ("rotation-61", False, "B", "in_place", 0),        # lowest ball first (VN 83); the choice is B's (VN 85)
])
def test_first_contact_rule_differs(game, legal, next_shooter, cue_ball, points):
    r = play_one(h(game), POS, FIVE_FIRST, extra="6")
    assert r["legal"] is legal
    assert r["next"]["shooter"] == next_shooter and r["next"]["cue_ball"] == cue_ball
    assert r["points"] == points
    if not legal:
        assert codes(r) == ["wrong_ball_first"]
        assert penalised(r)["rule"] == {"nine-ball": "WPA 3.2", "ten-ball": "WPA 3.2", "rotation-61": "VN 83"}[game]


NO_RAIL = shot(POS, [strike(), hit(0.4, "1"), stop(3.0)])


@pytest.mark.parametrize("game,cue_ball,points,options", [
    ("eight-ball", "in_hand_anywhere", 0, ["ball_in_hand_anywhere", "accept_table"]),  # 4.9
    ("nine-ball", "in_hand_anywhere", 0, ["ball_in_hand_anywhere", "accept_table"]),   # 5.7
    ("ten-ball", "in_hand_anywhere", 0, ["ball_in_hand_anywhere", "accept_table"]),    # 6.9
    ("straight-pool", "in_place", -1, []),                                             # 7.9: −1, cue ball stays
    ("rotation-61", "in_place", 0, ["accept_table", "ball_in_hand_kitchen", "spot_lowest_ball"]),  # VN 85
])
def test_after_a_foul_differs(game, cue_ball, points, options):
    r = play_one(h(game), POS, NO_RAIL, extra="6")
    assert codes(r) == ["no_rail"] and r["next"]["shooter"] == "B"
    assert r["next"]["cue_ball"] == cue_ball and r["points"] == points and r["next"]["options"] == options


@pytest.mark.parametrize("game,lost_after", [
    ("eight-ball", None), ("nine-ball", 3), ("ten-ball", 3), ("straight-pool", None), ("rotation-61", 4)])
def test_consecutive_foul_loss_differs(game, lost_after):
    # A fouls (no rail), B misses legally, again and again.
    legal_miss = shot(POS, [strike(), hit(0.4, "1"), rail(0.9, "1", "foot"), stop(3.0)])
    seq = []
    for _ in range(4):
        seq += [NO_RAIL, legal_miss]
    rs = play(h(game), POS, *seq, extra="6")
    a_shots = rs[0::2]
    over = [i for i, r in enumerate(a_shots, start=1) if r["rack_over"]]
    if lost_after is None:
        assert over == []
    else:
        assert over[0] == lost_after and a_shots[lost_after - 1]["rack_over"]["winner"] == "B"
    if game == "straight-pool":
        third = a_shots[2]
        assert "consecutive_fouls" in codes(third) and third["points"] == -16  # 7.11
        assert third["next"]["shooter"] == "A" and third["next"]["break"] is True


NINE_ON_FOUL = shot(POS, [strike(), hit(0.4, "5"), hit(0.8, "9", "5"), pot(1.3, "9", "foot-right"), stop(3.0)])


@pytest.mark.parametrize("game,spotted", [
    ("eight-ball", []),        # only the 8, and only on the break (4.7)
    ("nine-ball", ["9"]),      # the 9 (5.6)
    ("ten-ball", []),          # only the 10 (6.8)
    ("straight-pool", []),     # 3.2 doesn't apply: the 9 pocketed uncalled-but-taken-as-called scores
    ("rotation-61", ["9"]),    # every ball pocketed on a foul (VN 85, 91)
])
def test_balls_spotted_differ(game, spotted):
    r = play_one(h(game), POS, NINE_ON_FOUL, extra="6")
    assert r["spotted"] == spotted


def test_scoring_differs():
    pot_two = shot(POS, [strike(), hit(0.4, "1"), hit(0.7, "2", "1"), pot(1.0, "1", "foot-left"), pot(1.5, "2", "side-right"), stop(3)])
    got = {g: play_one(h(g), POS, pot_two, extra="6") for g in GAMES}
    assert got["straight-pool"]["points"] == 2 and got["straight-pool"]["score"]["A"] == 3  # 1 on the break + 2
    assert got["rotation-61"]["points"] == 3 and got["rotation-61"]["score"]["A"] == 6 + 3  # VN 79: ball numbers
    for g in ("eight-ball", "nine-ball", "ten-ball"):
        assert got[g]["score"] == {"A": 0, "B": 0} and got[g]["points"] == 0  # racks won
