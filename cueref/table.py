"""Table geometry in the contract's table frame (millimetres).

Origin at the head-left corner of the playing surface (cushion noses); x runs from the head cushion
(x = 0) to the foot cushion (x = L), y from the left cushion (y = 0) to the right (y = W).
Every stage (vision, tracking, adjudicate, the renderer) takes its lines, spots and pockets from
here, so that "behind the head string" means one thing everywhere (WPA 2.1, 2.13).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

Point = tuple[float, float]

RAILS = ("head", "foot", "left", "right")
POCKETS = ("head-left", "head-right", "side-left", "side-right", "foot-left", "foot-right")
LINES = ("head_string", "long_string")

# WPA equipment specifications: pocket mouths, cushion nose to cushion nose.
CORNER_MOUTH_MM = 116.0  # 4.5–4.625 in
SIDE_MOUTH_MM = 129.0  # 5–5.125 in
# The mouth angles: between a cushion's nose and the face of its jaw, inside the mouth.
CORNER_MOUTH_ANGLE_DEG = 142.0  # ±1
SIDE_MOUTH_ANGLE_DEG = 104.0  # ±1
JAW_DEPTH_MM = 50.8  # how far a jaw's face runs behind the nose line toward the pocket (the rail's 2 in)
# Where a nose turns into its jaw the rubber is rounded: an arc tangent to both faces. WPA sets no
# radius; these are pooltool's (synth/physics.py builds its table from this module's numbers), so
# that the jaws the tracker measures against are the ground truth's (with sharp tips here, 69
# cushion contacts found where the physics had none, against 64: 7000-10019).
CORNER_TIP_MM = 20.95
SIDE_TIP_MM = 7.95
# The pocket's hole: a ball drops once its centre is over it. Beyond the mouth, along the pocket's
# axis from the corner (or the side pocket's mid-point) of the nose lines, and its radius; a
# standard table's (pooltool's, for these mouths). A ball in the mouth touches a jaw only if
# its line reaches the jaw before the hole.
CORNER_HOLE_MM = (41.7, 62.0)  # (centre beyond the corner, radius)
SIDE_HOLE_MM = (68.5, 64.5)


@dataclass(frozen=True)
class Table:
    length_mm: float = 2540.0
    width_mm: float = 1270.0
    ball_diameter_mm: float = 57.15

    @property
    def L(self) -> float:
        return self.length_mm

    @property
    def W(self) -> float:
        return self.width_mm

    @property
    def R(self) -> float:
        """Ball radius."""
        return self.ball_diameter_mm / 2.0

    @property
    def head_string_x(self) -> float:
        return self.length_mm / 4.0

    @property
    def foot_string_x(self) -> float:
        return 3.0 * self.length_mm / 4.0

    @property
    def long_string_y(self) -> float:
        return self.width_mm / 2.0

    @property
    def head_spot(self) -> Point:
        return (self.head_string_x, self.long_string_y)

    @property
    def foot_spot(self) -> Point:
        return (self.foot_string_x, self.long_string_y)

    @property
    def centre_spot(self) -> Point:
        return (self.length_mm / 2.0, self.long_string_y)

    def in_kitchen(self, p: Point, err: float = 0.0) -> bool:
        """Behind the head string; the string itself is not in the kitchen (WPA 2.1, 3.10).

        With a position uncertainty `err`, True only when the ball is behind the string even at
        the far end of its uncertainty."""
        return p[0] + err < self.head_string_x

    def pocket_centre(self, name: str) -> Point:
        """Where the pocket's mouth meets the cushion-nose rectangle (corner or rail midpoint)."""
        L, W = self.length_mm, self.width_mm
        return {
            "head-left": (0.0, 0.0), "head-right": (0.0, W),
            "side-left": (L / 2, 0.0), "side-right": (L / 2, W),
            "foot-left": (L, 0.0), "foot-right": (L, W),
        }[name]

    def pocket_axis(self, name: str) -> Point:
        """The unit direction from the bed into the pocket: across the rail at a side pocket, along
        the corner's diagonal at a corner."""
        x = {"head": -1.0, "side": 0.0, "foot": 1.0}[name.split("-")[0]]
        y = -1.0 if name.endswith("left") else 1.0
        n = math.hypot(x, y)
        return (x / n, y / n)

    def over_hole(self, p: Point, name: str) -> bool:
        """Whether a centre at p is over pocket `name`'s hole: the ball drops."""
        beyond, radius = SIDE_HOLE_MM if name.startswith("side") else CORNER_HOLE_MM
        (cx, cy), (ax, ay) = self.pocket_centre(name), self.pocket_axis(name)
        return math.hypot(p[0] - cx - beyond * ax, p[1] - cy - beyond * ay) <= radius

    def past_nose_line(self, p: Point, by: float = 0.0) -> bool:
        """A centre beyond a cushion's nose line (by more than `by` mm): in a pocket's mouth, or
        off the table."""
        return p[0] < -by or p[0] > self.length_mm + by or p[1] < -by or p[1] > self.width_mm + by

    def nearest_pocket(self, p: Point, within_mm: float) -> str | None:
        """The pocket whose mouth is nearest p, if within `within_mm` of it."""
        name = min(POCKETS, key=lambda n: distance(p, self.pocket_centre(n)))
        return name if distance(p, self.pocket_centre(name)) <= within_mm else None

    def over_rail(self, p: Point, throat_mm: float = 110.0) -> bool:
        """A centre beyond a cushion's nose line (by over 5 mm) away from every pocket's mouth:
        no ball on the bed or dropping into a pocket is there, only one going over the rail."""
        return self.past_nose_line(p, 5.0) and self.nearest_pocket(p, throat_mm) is None

    @cached_property
    def cushions(self) -> dict[str, list[tuple[Point, Point]]]:
        """Each rail's cushion faces as segments: its nose between the pockets' mouths (a
        corner's mouth spans CORNER_MOUTH_MM between where the two noses' lines meet their jaws', a
        side pocket's SIDE_MOUTH_MM), and the jaws that continue it into the pockets at the mouth
        angles; each nose and jaw stop where the rounded tip between them (`tips`) begins. A
        ball touches a cushion only where one is: in a pocket's mouth the nose line is open."""
        return {rail: segs for rail, (segs, _) in self._outline.items()}

    @cached_property
    def tips(self) -> dict[str, list[tuple[Point, float, Point, Point]]]:
        """Each rail's rounded tips (`CORNER_TIP_MM`, `SIDE_TIP_MM`): (centre, radius, and the
        outward unit normals where the arc meets its nose and its jaw)."""
        return {rail: tips for rail, (_, tips) in self._outline.items()}

    @cached_property
    def _outline(self):
        L, W = self.length_mm, self.width_mm
        a = CORNER_MOUTH_MM / math.sqrt(2.0)  # from the corner, along each nose
        h = SIDE_MOUTH_MM / 2.0  # from the side pocket's centre

        def corner(end: Point, toward: Point, out: Point, angle: float, radius: float):
            """The nose's line meets the jaw's at `end` (the mouth's edge). The jaw turns (180 -
            angle) degrees from the nose's direction (`toward` the pocket) to the rail's outside
            (`out`), JAW_DEPTH_MM deep; the tip's arc is tangent to both, `e` from `end` on each.
            (the nose's end, the jaw's face, the tip)"""
            turn = math.radians(180.0 - angle)
            d = (toward[0] * math.cos(turn) + out[0] * math.sin(turn), toward[1] * math.cos(turn) + out[1] * math.sin(turn))
            k = JAW_DEPTH_MM / math.sin(turn)
            e = radius / math.tan(math.radians(angle) / 2.0)
            nose_end = (end[0] - e * toward[0], end[1] - e * toward[1])
            jaw_start = (end[0] + e * d[0], end[1] + e * d[1])
            centre = (nose_end[0] + radius * out[0], nose_end[1] + radius * out[1])
            u_jaw = ((jaw_start[0] - centre[0]) / radius, (jaw_start[1] - centre[1]) / radius)
            return nose_end, (jaw_start, (end[0] + k * d[0], end[1] + k * d[1])), \
                (centre, radius, (-out[0], -out[1]), u_jaw)

        def rail(noses, out_dir):
            """A rail's faces and tips from its noses: (the end nearer the origin, the other,
            the direction from the second toward the first's pocket, (mouth angle, tip radius)
            at each end)."""
            segs, tips = [], []
            for lo, hi, toward_lo, kinds in noses:
                ends = []
                for end, toward, (angle, radius) in ((lo, toward_lo, kinds[0]), (hi, (-toward_lo[0], -toward_lo[1]), kinds[1])):
                    nose_end, jaw, tip = corner(end, toward, out_dir, angle, radius)
                    ends.append(nose_end)
                    segs.append(jaw)
                    tips.append(tip)
                segs.insert(len(segs) - 2, (ends[0], ends[1]))
            return segs, tips

        cnr, side = (CORNER_MOUTH_ANGLE_DEG, CORNER_TIP_MM), (SIDE_MOUTH_ANGLE_DEG, SIDE_TIP_MM)
        out = {}
        for name, x, o in (("head", 0.0, -1.0), ("foot", L, 1.0)):  # noses along y
            out[name] = rail([((x, a), (x, W - a), (0.0, -1.0), (cnr, cnr))], (o, 0.0))
        for name, y, o in (("left", 0.0, -1.0), ("right", W, 1.0)):  # noses along x, a side pocket mid-way
            out[name] = rail([((a, y), (L / 2 - h, y), (-1.0, 0.0), (cnr, side)),
                              ((L / 2 + h, y), (L - a, y), (-1.0, 0.0), (side, cnr))], (0.0, o))
        return out

    def cushion_gap(self, xy, rail: str) -> np.ndarray:
        """How far balls centred at `xy` (mm, shape (..., 2)) are from touching `rail`'s
        cushion (its nose, a jaw in a pocket's mouth, or the rounded tip between them): the
        centre's distance from the nearest face less a radius; negative when overlapping it."""
        starts, ends, centres, radii, u_nose, u_jaw = self._faces[rail]
        return np.minimum(np.min(segment_distances(xy, starts, ends), axis=-1),
                          np.min(arc_distances(xy, centres, radii, u_nose, u_jaw), axis=-1)) - self.R

    def cushion_normal(self, xy, rail: str, h: float = 0.25) -> np.ndarray:
        """The unit normal, out of the cushion into the bed, of `rail`'s face nearest a centre at
        `xy` (one point): along the nose, the rail's own; in a pocket's mouth, the jaw's (turned
        from the rail's by 180 less the mouth angle: a side pocket's 76 degrees, a corner's 38),
        the direction a ball bouncing off it is pushed. The gradient of `cushion_gap`."""
        x, y = float(xy[0]), float(xy[1])
        pts = np.array([(x + h, y), (x - h, y), (x, y + h), (x, y - h)])
        g = self.cushion_gap(pts, rail)
        v = np.array([g[0] - g[1], g[2] - g[3]])
        n = float(np.hypot(*v))
        return v / n if n > 1e-9 else v

    @cached_property
    def _faces(self) -> dict[str, tuple[np.ndarray, ...]]:
        # `cushions` and `tips` as arrays: the gap of every sample of a path to every face of a
        # rail at once (a shot's event extraction asks for thousands).
        def columns(rows, n):
            return tuple(np.array([r[i] for r in rows], float) for i in range(n))

        return {rail: columns(segs, 2) + columns(self.tips[rail], 4) for rail, segs in self.cushions.items()}

    def on_bed(self, p: Point, slack: float = 0.0) -> bool:
        """Centre within the playing surface a ball can occupy (nose lines minus a radius)."""
        r = self.R - slack
        return r <= p[0] <= self.length_mm - r and r <= p[1] <= self.width_mm - r


# WPA equipment specifications (±3 mm): playing surface, nose to nose.
TABLES: dict[str, Table] = {
    "9ft": Table(2540.0, 1270.0),
    "8ft": Table(2340.0, 1170.0),
    "7ft": Table(1980.0, 990.0),
}


def table_for(size: str) -> Table:
    try:
        return TABLES[size]
    except KeyError:
        raise ValueError(f"unknown table size {size!r}; expected one of {', '.join(TABLES)}") from None


def distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def rack_positions(table: Table, rows: list[int]) -> list[list[Point]]:
    """Frozen-ball positions of a rack whose apex ball sits on the foot spot.

    `rows` gives the number of balls per row from the apex toward the foot cushion:
    [1, 2, 3, 4, 5] is the 15-ball triangle, [1, 2, 3, 2, 1] the nine-ball diamond,
    [1, 2, 3, 4] the ten-ball triangle. Returns the positions row by row, left to right in y.
    """
    d = table.ball_diameter_mm
    dx = d * math.sqrt(3.0) / 2.0
    fx, fy = table.foot_spot
    out = []
    for i, n in enumerate(rows):
        x = fx + i * dx
        out.append([(x, fy + (j - (n - 1) / 2.0) * d) for j in range(n)])
    return out


def triangle_outline(table: Table, rows: int = 5) -> tuple[Point, Point, Point]:
    """The inside of a rack template holding `rows` rows of frozen balls, apex on the foot spot.

    Its sides touch the outer balls; used to tell whether a ball is "inside the rack" (WPA 7.8).
    """
    r = table.R
    d = table.ball_diameter_mm
    dx = d * math.sqrt(3.0) / 2.0
    fx, fy = table.foot_spot
    # Centres of the three corner balls, then push each side outward by one radius.
    apex = (fx, fy)
    back_x = fx + (rows - 1) * dx
    half = (rows - 1) * d / 2.0
    # The outline's corners lie 2r (= r / sin 30°) from the corner-ball centres along the bisectors.
    k = 2.0 * r
    a = (apex[0] - k, apex[1])
    b = (back_x + k * math.cos(math.radians(60)), fy - half - k * math.sin(math.radians(60)))
    c = (back_x + k * math.cos(math.radians(60)), fy + half + k * math.sin(math.radians(60)))
    return a, b, c


def point_in_triangle(p: Point, tri: tuple[Point, Point, Point]) -> bool:
    (ax, ay), (bx, by), (cx, cy) = tri

    def side(x1, y1, x2, y2):
        return (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1)

    s1, s2, s3 = side(ax, ay, bx, by), side(bx, by, cx, cy), side(cx, cy, ax, ay)
    neg = s1 < 0 or s2 < 0 or s3 < 0
    pos = s1 > 0 or s2 > 0 or s3 > 0
    return not (neg and pos)


def circle_overlaps_triangle(p: Point, radius: float, tri: tuple[Point, Point, Point]) -> bool:
    """True when a ball of `radius` centred at p has any part inside the triangle."""
    if point_in_triangle(p, tri):
        return True
    for i in range(3):
        if _segment_distance(p, tri[i], tri[(i + 1) % 3]) < radius:
            return True
    return False


def segment_distances(p, a, b) -> np.ndarray:
    """Distances of the points `p` (shape (..., 2)) from the segment a-b, or from each segment
    a[i]-b[i] when a and b are arrays of shape (S, 2) (then of shape (..., S))."""
    p, a = np.asarray(p, float), np.asarray(a, float)
    v = np.asarray(b, float) - a
    rel = p[..., None, :] - a if a.ndim == 2 else p - a
    n2 = np.einsum("...j,...j->...", v, v)
    t = np.clip(np.einsum("...j,...j->...", rel, v) / np.where(n2 > 0, n2, 1.0), 0.0, 1.0)
    off = rel - t[..., None] * v
    return np.sqrt(np.einsum("...j,...j->...", off, off))


def arc_distances(p, centres, radii, u1, u2) -> np.ndarray:
    """Distances of the points `p` (shape (..., 2)) from each arc (shape (..., A)): the circle of
    `radii` about `centres`, between the outward unit normals u1 and u2 (under 180 degrees
    apart); infinite where a point's nearest point of the circle is off its arc (the arc's ends
    are then nearer, and they are the ends of segments)."""
    v = np.asarray(p, float)[..., None, :] - centres
    turn = np.sign(_cross(u1, u2))
    inside = (_cross(u1, v) * turn >= 0.0) & (_cross(v, u2) * turn >= 0.0)
    return np.where(inside, np.sqrt(np.einsum("...j,...j->...", v, v)) - radii, np.inf)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    return float(segment_distances(p, a, b))
