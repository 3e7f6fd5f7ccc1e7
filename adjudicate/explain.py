"""One readable line per ruling: who shot, what happened, the call and the article."""
from __future__ import annotations

from adjudicate.facts import read_shot
from adjudicate.model import LagRuling, Ruling
from cueref.records import LagRecord, ShotRecord

_CUE = {"in_place": "cue ball in place", "in_hand_anywhere": "ball in hand anywhere",
        "in_hand_kitchen": "ball in hand behind the head string"}


def explain(ruling: Ruling | LagRuling, record: ShotRecord | LagRecord) -> str:
    if isinstance(ruling, LagRuling):
        return _lag(ruling)
    r = ruling
    what = []
    first = read_shot(record).first  # (a contact that `follows` another is not first)
    if first:
        what.append(f"cue ball hit the {first[0].other('cue')} first")
    else:
        what.append("cue ball hit nothing")
    pots = [f"{e.ball}→{e.pocket}" for e in record.events if e.type == "pocket"]
    if pots:
        what.append("pocketed " + ", ".join(pots))
    if r.off_table:
        what.append("off the table: " + ", ".join(r.off_table))
    tag = ", break" if r.is_break else ", push out" if r.push_out else ""
    head = f"shot {r.shot} (rack {r.rack}{tag}) · {r.shooter}: " + "; ".join(what)
    if r.legal:
        verdict = "LEGAL"
    else:
        pen = next(f for f in r.fouls if f.penalised)
        verdict = f"FOUL {pen.code.replace('_', ' ')} ({pen.rule}): {pen.why}"
        others = [f"{f.code.replace('_', ' ')} ({f.rule})" for f in r.fouls if not f.penalised]
        if others:
            verdict += " [also: " + ", ".join(others) + "]"
    tail = []
    if r.spotted:
        tail.append("spotted " + ", ".join(r.spotted))
    if r.points:
        tail.append(f"{r.points:+d} pts")
    if r.rack_over:
        w = r.rack_over["winner"]
        tail.append(f"RACK OVER: {w} wins — {r.rack_over['reason']}" if w else f"RACK REPLAYED — {r.rack_over['reason']}")
        tail.append(f"{r.next.shooter} breaks next")
    else:
        nxt = f"{r.next.shooter} to shoot, {_CUE[r.next.cue_ball]}"
        if r.pending:
            nxt += f" ({r.pending.decider} may choose: {', '.join(r.pending.options)}; default {r.pending.default})"
        tail.append(nxt)
    score = " – ".join(f"{p} {s}" for p, s in r.score.items())
    tail.append(f"score {score}")
    if r.warning:
        tail.append("WARNING: " + r.warning)
    return f"{head} | {verdict} | " + " · ".join(tail)


def _lag(r: LagRuling) -> str:
    dist = ", ".join(f"{b} ({r.players[b]}) {'—' if d is None else f'{d:.1f} mm'}" for b, d in r.distance_mm.items())
    dq = "; ".join(f"{b} disqualified: {', '.join(v)} (WPA 1.2)" for b, v in r.disqualified.items() if v)
    if r.relag:
        verdict = f"RE-LAG ({', '.join(r.reasons)}, WPA 1.2): " + "; ".join(r.why)
    else:
        who = r.players[r.winner]
        verdict = f"{who} wins the lag ({r.winner} ball): " + "; ".join(r.why)
        if r.pending:
            verdict += f" · {who} chooses who breaks (default: {who} breaks)"
    return f"lag · {dist}" + (f" · {dq}" if dq else "") + f" | {verdict}"
