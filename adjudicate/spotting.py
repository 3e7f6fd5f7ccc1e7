"""Where spotted balls go, as coordinates on the long string (WPA 1.5, VN 86, VN 91).

Every procedure works on the same picture: the long string y = W/2 and, on it, the intervals that
the balls already on the table block. A spotted ball may be frozen to an object ball but never to
the cue ball (WPA 1.5), so the cue ball blocks a little more.
"""
from __future__ import annotations

import math

from adjudicate.facts import ball_order
from cueref.table import Point, Table

CUE_GAP_MM = 2.0  # "never frozen to the cue ball": the gap left between them (WPA 1.5)
_EPS = 1e-6


class NoRoom(RuntimeError):
    """No free point on the long string (the table is impossibly crowded)."""


def _blocked(table: Table, occupied: dict[str, Point], cue_gap: float = 0.0) -> list[tuple[float, float]]:
    y = table.long_string_y
    out = []
    for name, (bx, by) in occupied.items():
        clear = table.ball_diameter_mm + (cue_gap if name == "cue" else 0.0)
        dy = abs(by - y)
        if dy < clear:
            half = math.sqrt(clear * clear - dy * dy)
            out.append((bx - half, bx + half))
    return out


def _free_from(start: float, lo: float, hi: float, blocked, direction: int) -> float | None:
    """First free x from `start` moving in `direction` (+1 toward the foot, -1 toward the head)."""
    x = start
    moved = True
    while moved:
        moved = False
        for a, b in blocked:
            if a + _EPS < x < b - _EPS:
                x = b if direction > 0 else a
                moved = True
    return x if lo - _EPS <= x <= hi + _EPS else None


def _limits(table: Table) -> tuple[float, float]:
    # A spotted ball sits on the bed, not in the cushion: centre at least a radius from the nose.
    return table.R, table.length_mm - table.R


def spot_wpa(table: Table, occupied: dict[str, Point], balls: list[str]) -> dict[str, Point]:
    """WPA 1.5: each ball on the long string as close to the foot spot as possible between the
    foot spot and the foot cushion, frozen to a blocking ball (never to the cue ball); with no
    room there, on the extension toward the head, as close to the foot spot as possible.
    Several balls go in numerical order, so the lowest ends nearest the foot spot."""
    lo, hi = _limits(table)
    fx, y = table.foot_spot
    occ = dict(occupied)
    out: dict[str, Point] = {}
    for ball in sorted(balls, key=ball_order):
        blocked = _blocked(table, occ, CUE_GAP_MM)
        x = _free_from(fx, fx, hi, blocked, +1)
        if x is None:
            x = _free_from(fx, lo, fx, blocked, -1)
        if x is None:
            raise NoRoom(f"no room on the long string to spot ball {ball}")
        out[ball] = occ[ball] = (x, y)
    return out


def spot_vn86(table: Table, occupied: dict[str, Point], ball: str) -> Point:
    """VN 86: the lowest ball on the foot spot; if balls block it, on the long string at the
    nearest point to the foot spot reachable without moving a ball (frozen to the blocker)."""
    lo, hi = _limits(table)
    fx, y = table.foot_spot
    blocked = _blocked(table, {k: v for k, v in occupied.items() if k != ball})
    toward_foot = _free_from(fx, lo, hi, blocked, +1)
    toward_head = _free_from(fx, lo, hi, blocked, -1)
    cands = [x for x in (toward_foot, toward_head) if x is not None]
    if not cands:
        raise NoRoom(f"no room on the long string to spot ball {ball}")
    return (min(cands, key=lambda x: (abs(x - fx), -x)), y)


def spot_vn91(table: Table, occupied: dict[str, Point], balls: list[str]) -> dict[str, Point]:
    """VN 91: several balls on the long string between the foot spot and the foot cushion in
    ascending order, the lowest nearest the foot cushion; when there is no more room there,
    continue from the foot spot toward the centre spot, still ascending."""
    lo, hi = _limits(table)
    fx, y = table.foot_spot
    occ = dict(occupied)
    out: dict[str, Point] = {}
    for ball in sorted(balls, key=ball_order):
        blocked = _blocked(table, occ)
        x = _free_from(hi, fx, hi, blocked, -1)  # from the cushion toward the foot spot
        if x is None:
            x = _free_from(fx, lo, fx, blocked, -1)  # then past the foot spot toward the head
        if x is None:
            raise NoRoom(f"no room on the long string to spot ball {ball}")
        out[ball] = occ[ball] = (x, y)
    return out

