"""The incoming player's choices: only what a ruling offered, by whom it names; defaults when none
is logged (SHOT-RECORD.md `decision`)."""
import pytest
from helpers import (
    FOOT_SPOT,
    broken,
    decision,
    header,
    hit,
    play,
    pot,
    rail,
    rule,
    shot,
    stop,
    strike,
)

from cueref.records import RecordError

POS = {"cue": (1000.0, 400.0), "1": (1500.0, 300.0), "2": (1600.0, 1000.0), "5": (1700.0, 400.0)}
FOUL = shot(POS, [strike(), hit(0.4, "5"), rail(0.9, "5", "foot"), stop(3.0)])  # the 1 is the lowest
LEGAL = shot(POS, [strike(), hit(0.4, "1"), rail(0.9, "1", "foot"), stop(3.0)])


def test_a_decision_nobody_was_offered_is_refused():
    with pytest.raises(RecordError, match="no choice is open") as e:
        play(header(), POS, LEGAL, decision("pass"))
    assert e.value.field == "choice"


def test_an_option_not_offered_is_refused_and_names_the_options():
    with pytest.raises(RecordError, match="ball_in_hand_anywhere, accept_table") as e:
        play(header(), POS, FOUL, decision("spot_lowest_ball"))
    assert e.value.field == "choice"


def test_the_choice_belongs_to_the_named_decider():
    with pytest.raises(RecordError, match="B's to make") as e:
        play(header(), POS, FOUL, decision("accept_table", "A"))
    assert e.value.field == "player"


def test_without_a_decision_the_default_applies_and_is_noted():
    rs = play(header("rotation-61"), POS, FOUL, LEGAL)
    assert rs[0]["next"]["default"] == "accept_table"
    assert rs[1]["shooter"] == "B" and "B took the default, accept_table" in rs[1]["notes"][0]


def test_vn_86_spot_lowest_ball_decision_moves_the_ball_and_the_cue_ball_to_the_kitchen():
    rs, st = rule(header("rotation-61"), broken(POS, "6"), FOUL, decision("spot_lowest_ball", "B"))
    assert st.table["1"] == pytest.approx(FOOT_SPOT) and st.cue_ball == "in_hand_kitchen" and st.shooter == "B"
    eff = rs[-1]["next"]["effects"]["spot_lowest_ball"]
    assert eff["spotted_at"] == {"1": [1905.0, 635.0]} and eff["cue_ball"] == "in_hand_kitchen"


def test_wpa_4_3_d_rerack_gives_the_break_to_the_opponent_and_rebreak_to_the_breaker():
    rack = {str(n): (1905.0 + 30 * (n % 5), 500.0 + 20 * n) for n in range(1, 16)}
    weak = shot({"cue": (300.0, 600.0), **rack}, [strike(), hit(0.4, "1"), rail(1.0, "2", "foot"), stop(4.0)])
    brk = shot({"cue": (300.0, 600.0), **rack}, [strike(), hit(0.4, "1"), pot(1.0, "2"), stop(4.0)])
    rs, st = rule(header("eight-ball"), weak, decision("rerack", "B"), brk)
    assert rs[1]["shooter"] == "B" and rs[1]["break"] is True
    rs, st = rule(header("eight-ball"), weak, decision("rebreak", "B"), brk)
    assert rs[1]["shooter"] == "A" and rs[1]["break"] is True


def test_a_second_decision_for_the_same_choice_is_refused():
    with pytest.raises(RecordError, match="no choice is open"):
        play(header(), POS, FOUL, decision("accept_table"), decision("ball_in_hand_anywhere"))


def test_continuity_a_ball_that_reappears_or_vanishes_is_warned_about():
    from helpers import pot
    pots_1 = shot(POS, [strike(), hit(0.4, "1"), pot(1.0, "1", "foot-left"), stop(3.0)])
    again = shot(POS, [strike(), hit(0.4, "1"), rail(0.9, "1", "foot"), stop(3.0)])  # the 1 is back
    r = play(header(), POS, pots_1, again)[-1]
    assert r["warnings"] == ["ball(s) 1 are in 'before' but left the table earlier and were not spotted"]
    lost = shot({k: v for k, v in POS.items() if k != "5"}, [strike(), hit(0.4, "1"), rail(0.9, "1", "foot"), stop(3.0)])
    r = play(header(), POS, LEGAL, lost)[-1]
    assert r["warnings"] == ["ball(s) 5 were on the table but are missing from 'before'"]
    assert "warnings" not in play(header(), POS, LEGAL, LEGAL)[-1]
