"""The review report: one self-contained HTML page from a review folder's files.

A timeline of racks and shots; per shot the verdict, the article, the reasons, a trajectory
picture (the table to scale, each moving ball's measured path, the contact and cushion points),
the key frames of the first contact and the score. Everything comes from `game.jsonl`,
`rulings.jsonl` and `keyframes/`, so a report can be rebuilt from a folder at any time, and
nothing is fetched when it is opened (no scripts, fonts or images from elsewhere).
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from cueref.records import first_contact_event
from cueref.table import POCKETS, Table

# Ball colours (the usual set; 9–15 are the stripes of 1–7).
COLOURS = {"cue": "#f4f1e6", "1": "#f2c300", "2": "#1f4fd1", "3": "#d7261e", "4": "#5b2a86", "5": "#f26a1b",
           "6": "#11803d", "7": "#7a1e1e", "8": "#111111", "left": "#f4f1e6", "right": "#ffd9a0"}
for _n in range(9, 16):
    COLOURS[str(_n)] = COLOURS[str(_n - 8)]

CSS = """
body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:0;background:#f5f6f4;color:#1c1c1c}
header{background:#17352a;color:#fff;padding:14px 22px}header h1{margin:0;font-size:20px}
.score{font-size:18px;margin-top:4px}.meta{opacity:.8;font-size:12px}
main{padding:12px 22px;max-width:1180px}nav{margin:8px 0 16px}nav a{margin-right:10px}
.rack{margin:18px 0 6px;font-size:17px;border-bottom:2px solid #17352a}
.shot{background:#fff;border:1px solid #d9ddd6;border-left:6px solid #2e8b57;border-radius:4px;margin:10px 0;padding:10px 12px;display:grid;grid-template-columns:1fr 430px;gap:12px}
.shot.foul{border-left-color:#c62828}.shot.lag{border-left-color:#666}
.verdict{font-weight:600}.foul .verdict{color:#b71c1c}.legal .verdict{color:#1b5e20}
.why{margin:4px 0}.small{font-size:12px;color:#555}table.ev{border-collapse:collapse;font-size:12px;margin-top:6px}
table.ev td,table.ev th{border-bottom:1px solid #eee;padding:1px 6px;text-align:left}
img.kf{max-width:100%;border:1px solid #ccc;margin-top:6px}svg{width:430px;height:auto}
"""


def write_report(folder: Path) -> Path:
    folder = Path(folder)
    lines = [json.loads(x) for x in (folder / "game.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    header, entries = lines[0], lines[1:]
    rulings = [json.loads(x) for x in (folder / "rulings.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    table = Table(header["table"]["length_mm"], header["table"]["width_mm"], header["table"]["ball_diameter_mm"])
    out = folder / "report.html"
    out.write_text(render(header, entries, rulings, table, folder), encoding="utf-8")
    return out


def render(header: dict, entries: list[dict], rulings: list[dict], table: Table, folder: Path) -> str:
    # (log line number − 1, entry) of each lag and shot: the key frames are named by it.
    ruled = [(i + 1, e) for i, e in enumerate(entries) if e.get("kind") in ("lag", "shot")]
    players = header["players"]
    last = rulings[-1] if rulings else None
    score = last.get("score") if last and "score" in last else {p: 0 for p in players}
    title = f"{header['game']} · {' vs '.join(players)}"
    parts = [f"<!doctype html><html lang=en><head><meta charset=utf-8><title>cueref review · {_e(title)}</title>"
             f"<style>{CSS}</style></head><body><header><h1>cueref review · {_e(title)}</h1>"
             f"<div class=score>{' – '.join(f'{_e(p)} {score.get(p, 0)}' for p in players)}</div>"
             f"<div class=meta>{_e(header.get('video', ''))} · {len(rulings)} calls · "
             f"score counts {'points' if header['game'] in ('straight-pool', 'rotation-61') else 'racks won'}"
             "</div></header><main>"]
    nav, body, rack = [], [], None
    for i, ((entry_no, entry), r) in enumerate(zip(ruled, rulings)):
        anchor = f"e{i + 1}"
        if r.get("lag"):
            label = "lag"
        else:
            if r.get("rack") != rack:
                rack = r.get("rack")
                body.append(f"<div class=rack id=rack{rack}>Rack {rack}</div>")
            label = f"{r['shot']}{'F' if not r['legal'] else ''}"
        nav.append(f"<a href=#{anchor} title='{_e(_verdict(r))}'>{_e(label)}</a>")
        body.append(card(anchor, entry, r, table, folder, entry_no))
    parts.append("<nav><b>Timeline</b> " + " ".join(nav) + "</nav>")
    parts += body
    parts.append("</main></body></html>")
    return "\n".join(parts)


def _verdict(r: dict) -> str:
    if r.get("lag"):
        return "re-lag" if r.get("relag") else f"{r.get('winner_player')} wins the lag"
    if r["legal"]:
        return "legal"
    pen = next(f for f in r["fouls"] if f.get("penalised"))
    return f"foul: {pen['code'].replace('_', ' ')} ({pen['rule']})"


def card(anchor: str, e: dict, r: dict, table: Table, folder: Path, entry_no: int) -> str:
    from cueref.review import clock, lag_why

    t0 = float(e.get("t0") or 0.0)
    frames = (e.get("evidence") or {}).get("frames")
    if r.get("lag"):
        cls, head = "lag", f"Lag · {clock(t0)}"
        why = [lag_why(r)] + [f"{b} disqualified: {', '.join(v)}" for b, v in (r.get("disqualified") or {}).items() if v]
        nxt = r.get("next") or {}
        if nxt.get("options"):
            why.append(f"{nxt.get('decider')} chooses from {', '.join(nxt['options'])}")
        rule = "WPA 1.2"
    else:
        cls = "legal" if r["legal"] else "foul"
        tags = [t for t, on in (("break", r.get("break")), ("push out", r.get("push_out"))) if on]
        head = f"Shot {r['shot']} · rack {r.get('rack')} · {clock(t0)} · {_e(r['shooter'])}" + \
            (f" · {', '.join(tags)}" if tags else "")
        why = [f"{f['code'].replace('_', ' ')} ({f['rule']}){'' if f.get('penalised') else ' — not penalised'}: "
               f"{f['why']}" for f in r["fouls"]]
        pen = next((f for f in r["fouls"] if f.get("penalised")), None)
        rule = pen["rule"] if pen else ""
        if r.get("pocketed"):
            why.append("pocketed: " + ", ".join(r["pocketed"]))
        nxt = r["next"]
        why.append(f"next: {nxt['shooter']} ({nxt['cue_ball'].replace('_', ' ')})"
                   + (f"; {nxt.get('decider')} chooses from {', '.join(nxt['options'])}" if nxt.get("options") else ""))
        why.append("score " + " – ".join(f"{p} {s}" for p, s in r["score"].items()))
        if r.get("rack_over"):
            ro = r["rack_over"]
            why.append(f"rack over: {ro['winner'] or 'replayed'} — {ro['reason']}")
    for n in r.get("notes", []) + r.get("warnings", []) + e.get("notes", []):
        why.append(f"note: {n}")
    kf = folder / "keyframes" / f"{entry_no:04d}-contact.jpg"
    contact = first_contact_event(e)
    pic = ""
    if kf.exists():
        pic = (f"<img class=kf src='keyframes/{kf.name}' alt='frames around the first contact'>"
               f"<div class=small>first contact {contact['t'] * 1000:.0f} ± {contact.get('t_err', 0) * 1000:.0f} ms "
               f"after the strike (frames around it)</div>" if contact else "")
    return (f"<section class='shot {cls}' id={anchor}><div><div class=small>{head}</div>"
            f"<div class=verdict>{_e(_verdict(r))}</div>"
            + "".join(f"<div class=why>{_e(w)}</div>" for w in why if w)
            + (f"<div class=small>rule cited: {_e(rule)}</div>" if rule else "")
            + _events_table(e)
            + (f"<div class=small>frames {frames[0]}–{frames[1]}</div>" if frames else "")
            + f"</div><div>{trajectory_svg(e, table)}{pic}</div></section>")


def _events_table(e: dict) -> str:
    rows = []
    for x in e.get("events", []):
        what = x["type"]
        who = ", ".join(x.get("balls") or ([x["ball"]] if "ball" in x else []))
        extra = x.get("rail") or x.get("pocket") or x.get("line") or ""
        err = f" ± {x['t_err'] * 1000:.0f}" if x.get("t_err") is not None else ""
        rows.append(f"<tr><td>{x['t'] * 1000:.0f}{err} ms</td><td>{_e(what)}</td><td>{_e(who)}</td><td>{_e(extra)}</td></tr>")
    if not rows:
        return ""
    return (f"<details{' open' if len(rows) <= 12 else ''}><summary class=small>{len(rows)} events (time after the "
            "strike ± its 95 % uncertainty)</summary><table class=ev><tr><th>time</th><th>event</th><th>balls</th>"
            "<th></th></tr>" + "".join(rows) + "</table></details>")


def position_at(path: list, t: float):
    """A measured path's centre at time t (linear between samples), or None outside it."""
    if not path or t < path[0][0] - 0.05 or t > path[-1][0] + 0.05:
        return None
    for a, b in zip(path, path[1:]):
        if a[0] <= t <= b[0]:
            f = (t - a[0]) / max(b[0] - a[0], 1e-9)
            return a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2])
    p = path[0] if t < path[0][0] else path[-1]
    return p[1], p[2]


def trajectory_svg(e: dict, table: Table) -> str:
    """The table to scale (mm, head cushion at the left), each moving ball's measured path, where
    it started and stopped, the contacts (rings) and the cushion contacts (squares)."""
    L, W, R = table.L, table.W, table.R
    m = 90.0  # rail width drawn
    s = []
    s.append(f"<svg viewBox='{-m} {-m} {L + 2 * m} {W + 2 * m}' "
             f"role=img aria-label='trajectories'>")
    s.append(f"<rect x={-m} y={-m} width={L + 2 * m} height={W + 2 * m} rx=40 fill='#5a3a22'/>")
    s.append(f"<rect x=0 y=0 width={L} height={W} fill='#1f6f4a'/>")
    for name in POCKETS:
        x, y = table.pocket_centre(name)
        s.append(f"<circle cx={x:.0f} cy={y:.0f} r=58 fill='#111'/>")
    s.append(f"<line x1={L / 4:.0f} y1=0 x2={L / 4:.0f} y2={W} stroke='#ffffff55' stroke-width=4 stroke-dasharray='12 12'/>")
    paths = e.get("paths") or {}
    for ball, p in paths.items():
        pts = " ".join(f"{x:.0f},{y:.0f}" for _, x, y in p)
        s.append(f"<polyline points='{pts}' fill=none stroke='{COLOURS.get(ball, '#ccc')}' stroke-width=9 "
                 f"stroke-linejoin=round stroke-opacity=.9><title>{_e(ball)}</title></polyline>")
    for ball, (x, y) in (e.get("before") or {}).items():
        moved = ball in paths
        s.append(f"<circle cx={x:.0f} cy={y:.0f} r={R:.1f} fill='{COLOURS.get(ball, '#ccc')}' "
                 f"fill-opacity={'.35' if moved else '1'} stroke='#000' stroke-width=3><title>{_e(ball)}</title></circle>")
        if ball not in ("cue",):
            s.append(f"<text x={x:.0f} y={y + 10:.0f} font-size=30 text-anchor=middle fill='#fff' "
                     f"stroke='#000' stroke-width=1>{_e(ball)}</text>")
    for ball, (x, y) in (e.get("after") or {}).items():
        if ball in paths:
            s.append(f"<circle cx={x:.0f} cy={y:.0f} r={R:.1f} fill='{COLOURS.get(ball, '#ccc')}' stroke='#fff' "
                     f"stroke-width=5><title>{_e(ball)} at rest</title></circle>")
    for x in e.get("events", []):
        if x["type"] == "collision":
            a, b = x["balls"]
            pa, pb = position_at(paths.get(a), x["t"]), position_at(paths.get(b), x["t"])
            pa = pa or (e.get("before") or {}).get(a)
            pb = pb or (e.get("before") or {}).get(b)
            if pa and pb:
                cx, cy = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
                s.append(f"<circle cx={cx:.0f} cy={cy:.0f} r=22 fill=none stroke='#ff2d55' stroke-width=7>"
                         f"<title>{_e(a)}–{_e(b)} at {x['t'] * 1000:.0f} ms</title></circle>")
        elif x["type"] == "cushion":
            p = position_at(paths.get(x["ball"]), x["t"])
            if p:
                s.append(f"<rect x={p[0] - 16:.0f} y={p[1] - 16:.0f} width=32 height=32 fill='#ffd400' stroke='#000' "
                         f"stroke-width=3><title>{_e(x['ball'])} to the {_e(x['rail'])} rail at {x['t'] * 1000:.0f} ms"
                         f"</title></rect>")
    s.append("</svg>")
    return "".join(s)


def _e(text) -> str:
    return html.escape(str(text), quote=True)
