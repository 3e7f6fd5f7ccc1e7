"""Table geometry (WPA 2.1, 2.13; equipment specifications): the contract's table frame."""
import math

import numpy as np
import pytest

from cueref.table import (
    RAILS,
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


def _meet(s1, s2):
    """Where the lines through segments s1 and s2 cross."""
    (p, q), (r, s) = s1, s2
    d1, d2 = (q[0] - p[0], q[1] - p[1]), (s[0] - r[0], s[1] - r[1])
    den = d1[0] * d2[1] - d1[1] * d2[0]
    k = ((r[0] - p[0]) * d2[1] - (r[1] - p[1]) * d2[0]) / den
    return (p[0] + k * d1[0], p[1] + k * d1[1])


def _line_distance(c, seg):
    (p, q) = seg
    return abs((q[0] - p[0]) * (c[1] - p[1]) - (q[1] - p[1]) * (c[0] - p[0])) / math.dist(p, q)


@pytest.mark.parametrize("size", ["9ft", "7ft"])
def test_cushion_noses_meet_their_jaws_at_the_wpa_pocket_mouths_and_angles_with_rounded_tips(size):
    # WPA equipment specifications: corner mouth 116 mm and side mouth 129 mm, nose to nose (where
    # each nose's line meets its jaw's); mouth angles 142 and 104 degrees between a nose and its
    # jaw's face. The rubber between them is rounded: an arc tangent to both.
    t = table_for(size)
    L, W = t.L, t.W
    head, left = t.cushions["head"], t.cushions["left"]
    head_nose, head_jaw = head[0], min(head[1:], key=lambda s: s[0][1])  # the head-left corner's jaw
    left_nose, left_jaw = left[0], left[1]
    a, b = _meet(head_nose, head_jaw), _meet(left_nose, left_jaw)
    assert a == pytest.approx((0.0, 116.0 / math.sqrt(2.0))) and b == pytest.approx((116.0 / math.sqrt(2.0), 0.0))
    assert math.dist(a, b) == pytest.approx(116.0)
    # The side pocket's mouth on the left rail: the jaws either side of L/2.
    side_jaws = [s for s in left if s[1][1] < 0 and abs(s[0][0] - L / 2) < 100]
    noses = [s for s in left if s[0][1] == s[1][1] == 0.0]
    m = sorted(_meet(noses[0], j)[0] for j in side_jaws)
    assert m[1] - m[0] == pytest.approx(129.0) and m[0] + m[1] == pytest.approx(L)

    def angle(nose, jaw):  # inside the mouth, between the nose (pointing away) and the jaw's face
        end = _meet(nose, jaw)
        far = max(nose, key=lambda p: math.dist(p, end))
        deep = max(jaw, key=lambda p: math.dist(p, end))
        u, v = (far[0] - end[0], far[1] - end[1]), (deep[0] - end[0], deep[1] - end[1])
        return math.degrees(math.acos((u[0] * v[0] + u[1] * v[1]) / (math.hypot(*u) * math.hypot(*v))))

    assert angle(head_nose, head_jaw) == pytest.approx(142.0)
    side_jaw = min(side_jaws, key=lambda s: s[0][0])
    assert angle(noses[0], side_jaw) == pytest.approx(104.0)
    # The tips: each arc's centre a radius from both its nose's line and its jaw's, and the
    # faces stop where the arc meets them (the nose's end a radius along the normal from it).
    tip = min(t.tips["head"], key=lambda tp: tp[0][1])
    centre, radius = tip[0], tip[1]
    assert radius == pytest.approx(20.95)
    assert _line_distance(centre, head_nose) == pytest.approx(radius)
    assert _line_distance(centre, head_jaw) == pytest.approx(radius)
    assert math.dist(centre, head_nose[0]) == pytest.approx(radius)
    assert math.dist(centre, head_jaw[0]) == pytest.approx(radius)
    side_tip = min(t.tips["left"], key=lambda tp: abs(tp[0][0] - (L / 2 - 70)))
    assert side_tip[1] == pytest.approx(7.95)
    assert _line_distance(side_tip[0], side_jaw) == pytest.approx(7.95)
    # Every face is behind or on its nose line: nothing of a cushion sticks out into the bed.
    assert all(x <= 0.0 for seg in head for x, _ in seg)
    assert all(y >= W for seg in t.cushions["right"] for _, y in seg)


def test_a_ball_passing_a_rounded_tip_is_measured_from_the_arc():
    # Across the head-left corner's head tip (centre 20.95 mm behind the nose, 89.24 mm from the
    # corner): a centre straight out from the arc, at 45 degrees between the nose and the jaw,
    # is its radius plus the gap from it; a sharp corner (the mouth's point, at 82 mm) would be
    # nearer.
    t = table_for("9ft")
    (cx, cy), r, _, _ = min(t.tips["head"], key=lambda tp: tp[0][1])
    u = (math.cos(math.radians(-30.0)), math.sin(math.radians(-30.0)))  # between the nose's normal and the jaw's
    p = (cx + (r + t.R + 3.0) * u[0], cy + (r + t.R + 3.0) * u[1])
    assert t.cushion_gap(p, "head") == pytest.approx(3.0)
    assert math.dist(p, (0.0, 116.0 / math.sqrt(2.0))) - t.R < 3.0


def _face_distance(p, face) -> float:
    """A point's distance from one of pooltool's faces: (rail, "line", p1, p2) or (rail, "arc",
    centre, radius; the whole circle: the points asked are in front of its arc)."""
    _, kind, a, b = face
    if kind == "arc":
        return float(np.hypot(*(p - a)) - b)
    v = b - a
    return float(np.hypot(*(p - a - np.clip((p - a) @ v / (v @ v), 0.0, 1.0) * v)))


def test_the_tables_cushions_are_the_simulators():
    # The ground truth's physics (pooltool) is built from this module's numbers: within the bed and
    # the pockets' mouths, each rail's nearest face is the same distance away in both, to half a
    # millimetre (pooltool turns a side jaw 13.6 degrees where WPA's 104 asks 14: 0.4 mm at its
    # far end).
    pytest.importorskip("pooltool")
    from synth.physics import from_pt, pt_table

    rng = np.random.default_rng(3)
    for size in ("9ft", "7ft"):
        t = table_for(size)
        pt_t, rails = pt_table(t)
        faces = [(rails[k], "line", np.array(from_pt(g.p1[:2])), np.array(from_pt(g.p2[:2])))
                 for k, g in pt_t.cushion_segments.linear.items()]
        faces += [(rails[k], "arc", np.array(from_pt(g.center[:2])), g.radius * 1000.0)
                  for k, g in pt_t.cushion_segments.circular.items()]
        for pk in ("head-left", "side-left", "foot-right", "side-right"):
            c, ax = np.array(t.pocket_centre(pk)), np.array(t.pocket_axis(pk))
            perp = np.array([-ax[1], ax[0]])
            pts = c - ax * rng.uniform(-60.0, 200.0, (400, 1)) + perp * rng.uniform(-150.0, 150.0, (400, 1))
            on_bed = (pts[:, 0] >= 0) & (pts[:, 0] <= t.L) & (pts[:, 1] >= 0) & (pts[:, 1] <= t.W)
            in_mouth = np.abs((pts - c) @ perp) < 30.0
            for p in pts[on_bed | in_mouth]:
                for rail in RAILS:
                    theirs = min(_face_distance(p, f) for f in faces if f[0] == rail)
                    if theirs < 60.0:
                        assert float(t.cushion_gap(p, rail)) + t.R == pytest.approx(theirs, abs=0.5), (size, pk, rail, p)


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


def test_a_cushions_normal_is_its_noses_or_in_a_mouth_its_jaws():
    t = table_for("9ft")
    R = t.R
    # Along the noses: each rail's inward normal.
    assert t.cushion_normal((R + 3.0, 600.0), "head") == pytest.approx((1.0, 0.0))
    assert t.cushion_normal((900.0, t.W - R - 3.0), "right") == pytest.approx((0.0, -1.0))
    # Against the head cushion's jaw in a corner's mouth (turned 38 degrees from the nose into
    # the rail, as above): perpendicular to that face, toward the ball.
    c, s = math.cos(math.radians(38.0)), math.sin(math.radians(38.0))
    p = (0.0 - 25.0 * s + R * c, 116.0 / math.sqrt(2.0) - 25.0 * c - R * s)
    assert t.cushion_normal(p, "head") == pytest.approx((c, -s), abs=1e-6)
    # The side pocket's far jaw on the right rail (mouth angle 104 degrees: the face turns 76 from
    # the nose toward the pocket, into the rail): a ball crossing the mouth along the rail is
    # turned back by it, nearly along the rail.
    c, s = math.cos(math.radians(76.0)), math.sin(math.radians(76.0))
    edge = (t.L / 2 + 129.0 / 2, t.W)
    p = (edge[0] - 25.0 * c - R * s, edge[1] + 25.0 * s - R * c)
    assert t.cushion_gap(p, "right") == pytest.approx(0.0, abs=1e-9)
    assert t.cushion_normal(p, "right") == pytest.approx((-s, -c), abs=1e-6)


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
