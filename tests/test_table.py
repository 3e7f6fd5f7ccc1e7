"""Table geometry (WPA 2.1, 2.13; equipment specifications): the contract's table frame."""
import math

import pytest

from cueref.table import (
    TABLES,
    Table,
    circle_overlaps_triangle,
    rack_positions,
    table_for,
    triangle_outline,
)


@pytest.mark.parametrize("size,length,width", [("9ft", 2540, 1270), ("8ft", 2340, 1170), ("7ft", 1980, 990)])
def test_wpa_equipment_table_sizes_and_strings(size, length, width):
    t = table_for(size)
    assert (t.length_mm, t.width_mm, t.ball_diameter_mm) == (length, width, 57.15)
    # WPA 2.1: head string a quarter of the length from the head cushion, foot string a quarter from the foot.
    assert t.head_string_x == pytest.approx(length / 4)
    assert t.foot_string_x == pytest.approx(3 * length / 4)
    assert t.foot_spot == pytest.approx((3 * length / 4, width / 2))
    assert t.head_spot == pytest.approx((length / 4, width / 2))
    assert t.centre_spot == pytest.approx((length / 2, width / 2))


def test_unknown_table_size_is_refused():
    with pytest.raises(ValueError, match="10ft"):
        table_for("10ft")


def test_wpa_2_1_kitchen_excludes_the_head_string():
    t = Table()
    assert t.in_kitchen((634.9, 300))
    assert not t.in_kitchen((635.0, 300))  # on the string: not behind it (2.1, 2.13 centre on the line)
    assert not t.in_kitchen((700.0, 300))
    # With a 1 mm position uncertainty a ball 0.5 mm behind the string is not surely behind it.
    assert not t.in_kitchen((634.5, 300), err=1.0)


def test_pockets_sit_on_the_corners_and_side_rail_midpoints():
    t = TABLES["9ft"]
    assert t.pocket_centre("head-left") == (0.0, 0.0)
    assert t.pocket_centre("foot-right") == (2540.0, 1270.0)
    assert t.pocket_centre("side-left") == (1270.0, 0.0)
    assert t.pocket_centre("side-right") == (1270.0, 1270.0)


@pytest.mark.parametrize("rows", [[1, 2, 3, 4, 5], [1, 2, 3, 2, 1], [1, 2, 3, 4]])
def test_racks_are_frozen_with_the_apex_on_the_foot_spot(rows):
    t = Table()
    pos = rack_positions(t, rows)
    assert pos[0][0] == pytest.approx(t.foot_spot)
    flat = [p for r in pos for p in r]
    assert len(flat) == sum(rows)
    d = t.ball_diameter_mm
    for i, a in enumerate(flat):
        nearest = min(math.dist(a, b) for j, b in enumerate(flat) if j != i)
        assert nearest == pytest.approx(d)  # every ball touches a neighbour, none overlap
        assert all(math.dist(a, b) >= d - 1e-6 for j, b in enumerate(flat) if j != i)
    assert all(p[0] >= t.foot_spot[0] - 1e-9 for p in flat)  # the rack runs toward the foot cushion


def test_wpa_7_8_rack_outline_touches_the_outer_balls():
    t = Table()
    tri = triangle_outline(t, 5)
    flat = [p for r in rack_positions(t, [1, 2, 3, 4, 5]) for p in r]
    for p in flat:
        assert circle_overlaps_triangle(p, t.R, tri)
    # A ball one diameter clear of the apex ball, toward the head, is outside the outline;
    # half a radius in, any part over the line counts as inside (7.8).
    fx, fy = t.foot_spot
    assert not circle_overlaps_triangle((fx - 2 * t.R - t.ball_diameter_mm - 1, fy), t.R, tri)
    assert circle_overlaps_triangle((fx - 2 * t.R - t.R + 1, fy), t.R, tri)


def test_a_centre_beyond_a_nose_line_is_over_the_rail_unless_it_is_in_a_pockets_mouth():
    t = TABLES["9ft"]
    assert t.over_rail((2564.9, 146.6))  # seed 11007's 1, over the foot rail 150 mm from the corner
    assert t.over_rail((1270.0, 1450.0)) and t.over_rail((1000.0, -40.0))  # over a side rail, off the mouth
    assert not t.over_rail((2550.0, 30.0))  # dropping into the foot-left corner
    assert not t.over_rail((1270.0, -40.0))  # into the side pocket
    assert not t.over_rail((2511.0, 1241.0)) and not t.over_rail((1270.0, 635.0))  # on the bed


@pytest.mark.parametrize("size", ["9ft", "7ft"])
def test_cushion_noses_end_at_the_wpa_pocket_mouths_and_the_jaws_at_their_angles(size):
    # WPA equipment specifications: corner mouth 116 mm and side mouth 129 mm, nose to nose; mouth
    # angles 142 and 104 degrees between a nose and its jaw's face.
    t = table_for(size)
    L, W = t.L, t.W
    head, left = t.cushions["head"], t.cushions["left"]
    nose_ends = {p for seg in head[:1] for p in seg} | {p for seg in left for p in seg if p[1] == 0.0}
    # The head-left corner's mouth: the head nose's and the left nose's ends nearest the corner.
    a = min((p for p in nose_ends if p[0] == 0.0), key=lambda p: p[1])
    b = min((p for p in nose_ends if p[1] == 0.0), key=lambda p: p[0])
    assert math.dist(a, b) == pytest.approx(116.0)
    # The side pocket's mouth on the left rail: the two nose ends either side of L/2.
    side = sorted(p[0] for p in nose_ends if p[1] == 0.0 and abs(p[0] - L / 2) < 100)
    assert side[1] - side[0] == pytest.approx(129.0)
    assert side[0] + side[1] == pytest.approx(L)

    def angle(nose, jaw):  # inside the mouth, between the nose (pointing away) and the jaw's face
        (p, q), (r, s) = nose, jaw
        end = r
        u = (p[0] - end[0], p[1] - end[1]) if math.dist(q, end) < 1e-9 else (q[0] - end[0], q[1] - end[1])
        v = (s[0] - end[0], s[1] - end[1])
        return math.degrees(math.acos((u[0] * v[0] + u[1] * v[1]) / (math.hypot(*u) * math.hypot(*v))))

    corner_jaw = next(j for j in head[1:] if j[0] == a)
    assert angle(head[0], corner_jaw) == pytest.approx(142.0)
    side_nose = next(s for s in left if s[1] == (side[0], 0.0))
    side_jaw = next(j for j in left if j[0] == (side[0], 0.0) and j[1][1] < 0)
    assert angle(side_nose, side_jaw) == pytest.approx(104.0)
    # Every face is behind or on its nose line: nothing of a cushion sticks out into the bed.
    assert all(x <= 0.0 for seg in head for x, _ in seg)
    assert all(y >= W for seg in t.cushions["right"] for _, y in seg)


def test_a_ball_touches_a_cushion_only_where_there_is_one():
    t = table_for("9ft")
    R = t.R
    # Along the head rail, a radius out: touching; two radii out: a radius short.
    assert t.cushion_gap([R, 600.0], "head") == pytest.approx(0.0)
    assert t.cushion_gap([2 * R, 600.0], "head") == pytest.approx(R)
    # In the corner pocket's mouth on its way in, a radius from the (open) nose lines of both
    # rails: it touches neither cushion; 40 mm into the side pocket's mouth, neither.
    g = t.cushion_gap([[R, 45.0], [45.0, R]], "head")
    assert (g > 5.0).all()
    assert t.cushion_gap([t.L / 2, R], "left") > 5.0
    # Off-centre in a corner's mouth against the head cushion's jaw (it leaves the nose's end,
    # 116/sqrt(2) mm from the corner, turned 38 degrees from the nose into the rail): touching it,
    # and not the left cushion across the mouth.
    c, s = math.cos(math.radians(38.0)), math.sin(math.radians(38.0))
    p = (0.0 - 25.0 * s + R * c, 116.0 / math.sqrt(2.0) - 25.0 * c - R * s)
    assert t.cushion_gap(p, "head") == pytest.approx(0.0, abs=1e-9)
    assert t.cushion_gap(p, "left") > 5.0


def test_each_pocket_axis_leads_from_the_bed_into_that_pocket():
    # Across the rail at a side pocket, along the corner's diagonal at a corner: a point a little
    # way along it from the mouth's centre is past the nose line and nearer that pocket than any.
    t = TABLES["9ft"]
    for name in ("head-left", "head-right", "side-left", "side-right", "foot-left", "foot-right"):
        ax = t.pocket_axis(name)
        assert math.hypot(*ax) == pytest.approx(1.0)
        cx, cy = t.pocket_centre(name)
        inside, deeper = (cx - 40.0 * ax[0], cy - 40.0 * ax[1]), (cx + 20.0 * ax[0], cy + 20.0 * ax[1])
        assert not t.past_nose_line(inside) and t.past_nose_line(deeper)
        assert t.nearest_pocket(deeper, 130.0) == name
    # Past a nose line by more than a margin: over the rail, or deep in a pocket.
    assert not t.past_nose_line((100.0, -4.0), 5.0) and t.past_nose_line((100.0, -6.0), 5.0)
