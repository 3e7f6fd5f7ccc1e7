"""Spotting procedures as coordinates: WPA 1.5, VN 86, VN 91."""
import pytest

from adjudicate.spotting import CUE_GAP_MM, spot_vn86, spot_vn91, spot_wpa
from cueref.table import Table

T = Table()
D = T.ball_diameter_mm
FX, FY = T.foot_spot
FOOT_LIMIT = T.length_mm - T.R  # a ball frozen to the foot cushion


def test_wpa_1_5_free_foot_spot():
    assert spot_wpa(T, {"cue": (500, 300)}, ["9"]) == {"9": pytest.approx((FX, FY))}


def test_wpa_1_5_frozen_to_the_blocking_ball_toward_the_foot_cushion():
    got = spot_wpa(T, {"3": (FX, FY)}, ["9"])["9"]
    assert got == pytest.approx((FX + D, FY))


def test_wpa_1_5_blocker_off_the_line_still_gives_a_frozen_ball():
    got = spot_wpa(T, {"3": (FX + 10, FY + 30)}, ["9"])["9"]
    assert got[1] == FY and got[0] > FX
    assert ((got[0] - FX - 10) ** 2 + 30 ** 2) ** 0.5 == pytest.approx(D)


def test_wpa_1_5_never_frozen_to_the_cue_ball():
    got = spot_wpa(T, {"cue": (FX, FY)}, ["9"])["9"]
    assert got == pytest.approx((FX + D + CUE_GAP_MM, FY))


def test_wpa_1_5_no_room_toward_the_foot_goes_toward_the_head():
    # Balls fill the long string from the foot spot to the foot cushion.
    occ = {}
    x, n = FX, 1
    while x <= FOOT_LIMIT + 1e-9:
        occ[str(n)] = (x, FY)
        x += D
        n += 1
    got = spot_wpa(T, occ, ["15"])["15"]
    assert got == pytest.approx((FX - D, FY))


def test_wpa_1_5_several_balls_lowest_nearest_the_foot_spot():
    got = spot_wpa(T, {}, ["7", "3"])
    assert got["3"] == pytest.approx((FX, FY))
    assert got["7"] == pytest.approx((FX + D, FY))


def test_vn_86_nearest_free_point_either_side():
    # A ball sits just toward the foot of the spot: the nearest free point is on the head side.
    occ = {"5": (FX + 10, FY)}
    got = spot_vn86(T, occ, "1")
    assert got == pytest.approx((FX + 10 - D, FY))
    # And just toward the head: the nearest free point is toward the foot.
    got = spot_vn86(T, {"5": (FX - 10, FY)}, "1")
    assert got == pytest.approx((FX - 10 + D, FY))


def test_vn_86_free_foot_spot_and_frozen_to_the_cue_ball_allowed():
    assert spot_vn86(T, {}, "2") == pytest.approx((FX, FY))
    assert spot_vn86(T, {"cue": (FX + 10, FY)}, "2") == pytest.approx((FX + 10 - D, FY))


def test_vn_91_lowest_nearest_the_foot_cushion():
    got = spot_vn91(T, {"1": (FX, FY)}, ["9", "4", "6"])
    assert got["4"] == pytest.approx((FOOT_LIMIT, FY))
    assert got["6"] == pytest.approx((FOOT_LIMIT - D, FY))
    assert got["9"] == pytest.approx((FOOT_LIMIT - 2 * D, FY))


def test_vn_91_no_room_continues_past_the_foot_spot_toward_the_centre():
    # Room between the foot spot ball and the cushion: (FOOT_LIMIT - FX) / D balls.
    room = int((FOOT_LIMIT - (FX + D)) // D) + 1
    balls = [str(n) for n in range(2, 2 + room + 2)]
    got = spot_vn91(T, {"1": (FX, FY)}, balls)
    xs = [got[b][0] for b in balls]
    beyond = [x for x in xs if x < FX]
    assert len(beyond) == 2
    assert beyond == pytest.approx([FX - D, FX - 2 * D])  # still ascending, toward the centre spot
    assert xs[:room] == sorted(xs[:room], reverse=True)
