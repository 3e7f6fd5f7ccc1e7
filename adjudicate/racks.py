"""Where each game racks its balls (WPA 4.2, 5.2, 6.2, 7.2; VN 80), as table coordinates.

Frozen balls, apex toward the head. The rules fix a few balls and leave the rest random ("no
system"), so the random ones are drawn from the caller's generator.
"""
from __future__ import annotations

import random

from cueref.table import Point, Table, rack_positions


def rack(game: str, table: Table, rng: random.Random | None = None) -> dict[str, Point]:
    rng = rng or random.Random(0)
    if game == "nine-ball":
        # 5.2: a diamond, the 1 at the apex, the 9 in the middle and on the foot spot.
        rows = rack_positions(table, [1, 2, 3, 2, 1])
        dx = rows[2][1][0] - table.foot_spot[0]
        rows = [[(x - dx, y) for x, y in row] for row in rows]
        pts = [p for row in rows for p in row]
        others = [str(n) for n in range(2, 9)]
        rng.shuffle(others)
        order = ["1"] + others[:3] + ["9"] + others[3:]
        return dict(zip(order, pts))
    if game == "ten-ball":
        # 6.2: a triangle, the 1 at the apex on the foot spot, the 10 in the middle (third row).
        pts = [p for row in rack_positions(table, [1, 2, 3, 4]) for p in row]
        others = [str(n) for n in range(2, 10)]
        rng.shuffle(others)
        order = ["1"] + others[:3] + ["10"] + others[3:]
        return dict(zip(order, pts))
    pts = [p for row in rack_positions(table, [1, 2, 3, 4, 5]) for p in row]
    if game == "eight-ball":
        # 4.2: the 8 behind the apex ball in the middle, a solid and a stripe in the back corners.
        solids = [str(n) for n in range(1, 8)]
        stripes = [str(n) for n in range(9, 16)]
        rng.shuffle(solids)
        rng.shuffle(stripes)
        corners = [solids.pop(), stripes.pop()]
        rng.shuffle(corners)
        rest = solids + stripes
        rng.shuffle(rest)
        order = [None] * 15
        order[4] = "8"
        order[10], order[14] = corners
        for i in range(15):
            if order[i] is None:
                order[i] = rest.pop()
        return dict(zip(order, pts))
    if game == "rotation-61":
        # VN 80: the 1 at the apex on the foot spot, the others in order.
        return {str(n + 1): pts[n] for n in range(15)}
    # 7.2 (straight pool): a 15-ball triangle, apex on the foot spot, no fixed order.
    order = [str(n) for n in range(1, 16)]
    rng.shuffle(order)
    return dict(zip(order, pts))
