"""The lag for the break (WPA 1.2)."""
from __future__ import annotations

from adjudicate.facts import clearly_before
from adjudicate.model import LagRuling
from cueref.records import LagRecord
from cueref.table import CORNER_MOUTH_MM, Table


def rule_lag(record: LagRecord, table: Table, players: dict[str, str]) -> LagRuling:
    """Who won the lag, who is disqualified (a)–(e) and why, or why it is lagged again.

    Distances are from each ball's nearest point to the head cushion nose. Two distances closer
    than the balls' combined position uncertainty (`pos_err`) cannot be told apart (1.2 re-lag b)."""
    evs = record.events
    why: list[str] = []
    dq: dict[str, list[str]] = {"left": [], "right": []}
    for ball in ("left", "right"):
        mine = [e for e in evs if e.involves(ball)]
        if any(e.type == "cross" and e.line == "long_string" and e.ball == ball for e in mine):
            dq[ball].append("crossed_long_string")  # (a)
        foot = [e for e in mine if e.type == "cushion" and e.rail == "foot" and e.ball == ball]
        if len(foot) > 1:
            dq[ball].append("foot_rail_twice")  # (b)
        if any(e.type == "pocket" and e.ball == ball for e in mine):
            dq[ball].append("pocketed")  # (c)
        if any(e.type == "off_table" and e.ball == ball for e in mine):
            dq[ball].append("off_table")  # (c)
        if any(e.type == "cushion" and e.rail in ("left", "right") and e.ball == ball for e in mine):
            dq[ball].append("side_rail")  # (d)
        if ball in record.after and _in_head_corner_pocket(record.after[ball], table, record.pos_err.get(ball, 0.0)):
            dq[ball].append("in_corner_pocket")  # (e)
        strikes = [e for e in mine if e.type == "strike" and e.ball == ball]
        # A foul other than 3.9 disqualifies: the ball touched (3.6) or struck twice (3.7).
        if any(e.type == "disturbed" and e.ball == ball for e in mine) or len(strikes) > 1:
            dq[ball].append("foul")

    distance = {b: (_distance(record.after[b], table) if b in record.after else None) for b in ("left", "right")}
    reasons: list[str] = []
    # Re-lag (a): a ball struck after the other ball had already reached the foot cushion.
    for ball, other in (("left", "right"), ("right", "left")):
        strike = next((e for e in evs if e.type == "strike" and e.ball == ball), None)
        foot = next((e for e in evs if e.type == "cushion" and e.ball == other and e.rail == "foot"), None)
        if strike is None:
            reasons.append("late_strike")
            why.append(f"the {ball} ball was never struck")
        elif foot is not None and clearly_before(foot, strike):
            reasons.append("late_strike")
            why.append(f"the {ball} ball was struck {strike.t - foot.t:.2f} s after the {other} ball reached the foot cushion")
    ok = [b for b in ("left", "right") if not dq[b]]
    winner = None
    if not reasons:
        if not ok:
            reasons.append("both_disqualified")
            why.append("both lags are disqualified")
        elif len(ok) == 1:
            winner = ok[0]
            why.append(f"the {_other(winner)} lag is disqualified ({', '.join(dq[_other(winner)])})")
        else:
            dl, dr = distance["left"], distance["right"]
            tol = record.pos_err.get("left", 0.0) + record.pos_err.get("right", 0.0)
            if abs(dl - dr) <= tol:
                reasons.append("too_close")
                why.append(f"the balls rest {abs(dl - dr):.1f} mm apart in distance, within their "
                           f"{tol:.1f} mm combined uncertainty")
            else:
                winner = "left" if dl < dr else "right"
                why.append(f"the {winner} ball stopped {min(dl, dr):.1f} mm from the head cushion, "
                           f"{abs(dl - dr):.1f} mm closer")
    reasons = list(dict.fromkeys(reasons))
    return LagRuling(winner=winner, relag=winner is None, reasons=tuple(reasons),
                     disqualified={k: tuple(dict.fromkeys(v)) for k, v in dq.items()},
                     distance_mm=distance, why=tuple(why), players=players, pending=None)


def _other(b: str) -> str:
    return "right" if b == "left" else "left"


def _distance(p, table: Table) -> float:
    return max(0.0, p[0] - table.R)


def _in_head_corner_pocket(p, table: Table, err: float) -> bool:
    """1.2 (e): resting in a head-end corner pocket deeper than the head cushion's nose line."""
    x, y = p
    near_corner = y < CORNER_MOUTH_MM or y > table.width_mm - CORNER_MOUTH_MM
    return near_corner and x - table.R + err < 0.0
