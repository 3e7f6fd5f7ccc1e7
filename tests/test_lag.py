"""The lag for the break (WPA 1.2): disqualifications (a)–(e), fouls, re-lags, the winner's choice."""
import pytest
from helpers import header, hit, lag, pot, rail, rule, shot, stop, strike

STRIKES = [strike(0.0, "left"), strike(0.05, "right")]


def lag_with(events, after=None, pos_err=None):
    return lag(events=STRIKES + events, after=after, pos_err=pos_err)


def rule_lag(*entries, h=None):
    rs, st = rule(h or header(breaker=None), *entries)
    return rs[0], st


def test_wpa_1_2_closest_to_the_head_cushion_wins():
    evs = [rail(1.9, "left", "foot"), rail(1.95, "right", "foot")]
    r, st = rule_lag(lag_with(evs, after={"left": [95.0, 410.0], "right": [140.0, 860.0]}))
    assert r["lag"] is True and r["winner"] == "left" and r["relag"] is False
    # Distance from the ball's nearest point to the head cushion nose: x − radius.
    assert r["distance_mm"]["left"] == pytest.approx(95.0 - 57.15 / 2, abs=0.05)
    assert r["distance_mm"]["right"] == pytest.approx(140.0 - 57.15 / 2, abs=0.05)
    assert r["winner_player"] == "A"
    # 1.2: the winner chooses who breaks; by default the winner breaks.
    assert r["next"]["decider"] == "A" and r["next"]["options"] == ["break", "pass"]
    assert st.shooter == "A" and st.phase == "break"


@pytest.mark.parametrize("events,code", [
    ([{"t": 1.0, "type": "cross", "ball": "left", "line": "long_string"}], "crossed_long_string"),  # (a)
    ([rail(1.9, "left", "foot"), rail(3.5, "left", "foot")], "foot_rail_twice"),  # (b)
    ([rail(1.9, "left", "left")], "side_rail"),  # (d)
])
def test_wpa_1_2_a_b_d_disqualify_the_lag(events, code):
    r, _ = rule_lag(lag_with(events + [rail(1.95, "right", "foot")]))
    assert code in r["disqualified"]["left"] and r["winner"] == "right"
    assert r["disqualified"]["right"] == []


@pytest.mark.parametrize("kind,code", [("pocket", "pocketed"), ("off_table", "off_table")])
def test_wpa_1_2_c_pocketed_or_off_the_table(kind, code):
    ev = {"t": 3.0, "type": kind, "ball": "left"}
    if kind == "pocket":
        ev["pocket"] = "head-left"
    r, _ = rule_lag(lag_with([rail(1.9, "left", "foot"), ev, rail(1.95, "right", "foot")],
                             after={"right": [140.0, 860.0]}))
    assert r["disqualified"]["left"] == [code] and r["winner"] == "right"
    assert r["distance_mm"]["left"] is None


def test_wpa_1_2_e_resting_in_the_head_corner_pocket_past_the_nose_line():
    # Closer than the other ball, but its nearest point is past the head cushion's nose line.
    after = {"left": [20.0, 40.0], "right": [140.0, 860.0]}
    r, _ = rule_lag(lag_with([rail(1.9, "left", "foot"), rail(1.95, "right", "foot")], after=after))
    assert r["disqualified"]["left"] == ["in_corner_pocket"] and r["winner"] == "right"


def test_wpa_1_2_a_foul_disqualifies():
    r, _ = rule_lag(lag_with([rail(1.9, "left", "foot"), rail(1.95, "right", "foot"),
                              {"t": 2.5, "type": "disturbed", "ball": "right"}]))
    assert r["disqualified"]["right"] == ["foul"] and r["winner"] == "left"


def test_wpa_1_2_relag_a_late_strike():
    events = [strike(0.0, "left"), rail(1.9, "left", "foot"), strike(2.2, "right"), rail(4.0, "right", "foot")]
    r, st = rule_lag(lag(events=events))
    assert r["relag"] is True and r["winner"] is None and r["relag_reasons"] == ["late_strike"]
    assert st.phase == "lag"


def test_wpa_1_2_relag_b_too_close_to_tell_given_position_uncertainty():
    evs = [rail(1.9, "left", "foot"), rail(1.95, "right", "foot")]
    after = {"left": [100.0, 410.0], "right": [101.5, 860.0]}
    r, _ = rule_lag(lag_with(evs, after=after, pos_err={"left": 1.0, "right": 1.0}))
    assert r["relag"] and r["relag_reasons"] == ["too_close"]
    # The same 1.5 mm with a ±0.5 mm measurement each can be told apart.
    r, _ = rule_lag(lag_with(evs, after=after, pos_err={"left": 0.5, "right": 0.5}))
    assert r["winner"] == "left"


def test_wpa_1_2_relag_c_both_disqualified():
    evs = [rail(1.9, "left", "left"), rail(1.95, "right", "right")]
    r, _ = rule_lag(lag_with(evs))
    assert r["relag"] and r["relag_reasons"] == ["both_disqualified"]


def test_a_shot_cannot_follow_a_relag():
    from cueref.records import RecordError
    events = [strike(0.0, "left"), rail(1.9, "left", "foot"), strike(2.2, "right")]
    brk = shot({"cue": (300.0, 600.0), "1": (1905.0, 635.0)}, [strike(), hit(0.4, "1"), stop(3)])
    with pytest.raises(RecordError, match="lag") as e:
        rule(header(breaker=None), lag(events=events), brk)
    assert e.value.field == "kind"


def test_wpa_1_2_winner_passes_the_break():
    evs = [rail(1.9, "left", "foot"), rail(1.95, "right", "foot")]
    brk = shot({"cue": (300.0, 600.0), "1": (1905.0, 635.0), "2": (1960.0, 610.0)},
               [strike(), hit(0.4, "1"), pot(1.0, "2"), stop(3)])
    rs, _ = rule(header(breaker=None), lag_with(evs), {"kind": "decision", "choice": "pass"}, brk)
    assert rs[1]["shooter"] == "B" and rs[1]["break"] is True
    rs, _ = rule(header(breaker=None), lag_with(evs), brk)
    assert rs[1]["shooter"] == "A"  # the default: the winner breaks


def test_lag_players_can_be_named_per_ball():
    evs = [rail(1.9, "left", "foot"), rail(1.95, "right", "foot")]
    lg = lag_with(evs)
    lg["players"] = {"left": "B", "right": "A"}
    r, st = rule_lag(lg)
    assert r["winner"] == "left" and r["winner_player"] == "B" and st.shooter == "B"
