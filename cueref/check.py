"""`cueref check`: a referee's second opinion on one shot.

The shot at (or next after) a media time is reconstructed from the video, ruled in its game's
context (the game log so far when one is given, else a stated assumption) and shown with its
evidence: each contact's measured time and uncertainty, the frames either side of it (cropped
around where it happened), the trajectories — and where the measurements cannot separate two
events, the benefit of the doubt the rules give the shooter (WPA Reg 25, 3.2, 3.3), said in words.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from adjudicate.facts import read_shot, simultaneous
from cueref.keyframes import crop, strip
from cueref.pipeline import MediaError, Observer, decoded, observed, video_info
from cueref.records import Event, ShotRecord, new_header, parse_entry, parse_header
from cueref.referee import Referee
from cueref.report import card, position_at
from cueref.review import clock
from cueref.table import Table

LOOKBACK_S = 12.0  # start this long before --at: the balls at rest before the strike, seen a while
MAX_SHOT_S = 90.0
SHOWN = ("collision", "cushion", "pocket", "off_table", "strike", "disturbed")


@dataclass
class Opinion:
    record: dict
    ruling: dict
    text: str
    context: str
    doubts: list[str]
    evidence: list[dict] = field(default_factory=list)  # per event: time, err, frames, picture
    outputs: list[Path] = field(default_factory=list)


def find_shot(video: Path, table: Table, game: str, at: float | None, observer: Observer, fps: float):
    """The lag or shot record under way at `at` (or the first one after it; the first in the
    video without `at`)."""
    from tracking.shots import ShotReconstructor

    k0 = 0 if at is None else max(0, int((at - LOOKBACK_S) * fps))
    k1 = None if at is None else int((at + MAX_SHOT_S) * fps)
    recon = ShotReconstructor(table, fps, video=video.name)
    t = k0 / fps

    def match(rec):
        stop = next((e["t"] for e in rec["events"] if e["type"] == "stop"), 0.0)
        return at is None or rec["t0"] + stop >= at - 0.5

    for k, t, obs, _ in observed(decoded(video, k0, k1), observer):
        for rec in recon.push(k, t, obs):
            if match(rec):
                return rec
    for rec in recon.finish(t):
        if match(rec):
            return rec
    where = "in the video" if at is None else f"at or after {clock(at)}"
    raise MediaError(f"{video}: no shot found {where}")


def context_referee(game: str, table: Table, players, log: Path | None, before_t: float) -> tuple[Referee, str]:
    """A referee holding the game up to a shot: the log's entries before it, or a stated
    assumption when there is no log."""
    if log is None:
        header = new_header(game, table, players=players)
        header["start"] = {"shooter": players[0], "cue_ball": "in_place"}
        return Referee(header), (f"no game log given: assumed mid-rack, {players[0]} to shoot, cue ball in place"
                                 + (", open table" if game == "eight-ball" else ""))
    lines = [json.loads(x) for x in Path(log).read_text(encoding="utf-8").splitlines() if x.strip()]
    parse_header(lines[0])
    ref = Referee(lines[0])
    taken = 0
    for e in lines[1:]:
        if e.get("kind") in ("lag", "shot") and e["t0"] >= before_t - 0.5:
            break
        ref.take(e)
        taken += 1
    return ref, f"the game so far from {log} ({taken} entries before this shot)"


def doubts(rec: dict, header) -> list[str]:
    """Where the measurements cannot order two events, the reading the rules prescribe."""
    entry = parse_entry(rec, header)
    if not isinstance(entry, ShotRecord):
        return []
    facts = read_shot(entry)
    out = []
    # The contacts that may have been first: the adjudicator's (a contact the path shows came
    # after another, `follows`, is not one of them).
    first = facts.first
    if len(first) >= 2:
        a = first[0]
        for b in first[1:]:
            if a.other("cue") != b.other("cue"):
                out.append(
                    f"the cue ball's contacts with the {a.other('cue')} ({_ms(a)}) and the {b.other('cue')} "
                    f"({_ms(b)}) are closer than their uncertainty: which came first cannot be told, so the "
                    "ruling takes the one in the shooter's favour as first (WPA 3.2; Reg 25: when the referee "
                    "cannot decide whether a foul happened, the shot is legal)")
    if first:
        a = first[0]
        for c in facts.cushions:
            if c.t <= a.t + a.t_err + c.t_err and simultaneous(a, c):
                out.append(
                    f"the {c.ball} reached the {c.rail} rail ({_ms(c)}) at a time the first contact ({_ms(a)}) "
                    "cannot be told from: the contact is deemed first and the rail after it (WPA 3.3)")
    return out


def _ms(e: Event) -> str:
    return f"{e.t * 1000:.0f} ± {e.t_err * 1000:.0f} ms"


def event_place(rec: dict, e: dict):
    """Where an event happened on the table (mm), from the measured paths."""
    paths, before = rec.get("paths") or {}, rec.get("before") or {}
    if e["type"] == "collision":
        a, b = e["balls"]
        pa = position_at(paths.get(a), e["t"]) or before.get(a)
        pb = position_at(paths.get(b), e["t"]) or before.get(b)
        if pa and pb:
            return (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
        return pa or pb
    if "ball" in e:
        return position_at(paths.get(e["ball"]), e["t"]) or before.get(e["ball"])
    return None


def second_opinion(video: Path, game: str, table: Table, at: float | None = None, log: Path | None = None,
                   players=("A", "B"), calibration: Path | None = None, head: str = "auto",
                   out: Path | None = None) -> Opinion:
    fps, _ = video_info(video)
    if calibration is None and log is not None and (Path(log).parent / "calibration.json").exists():
        calibration = Path(log).parent / "calibration.json"
    observer = Observer(table, game=game, calibration=calibration, head=head)
    rec = find_shot(video, table, game, at, observer, fps)
    ref, context = context_referee(game, table, players, log, rec["t0"])
    call = ref.add_record(rec)
    if call is None:
        raise MediaError(f"the {rec['kind']} at {clock(rec['t0'])} cannot be ruled here: {ref.rejected[-1]['why']}")
    said = doubts(rec, ref.parsed) if rec["kind"] == "shot" else []
    op = Opinion(rec, call.ruling, call.text, context, said)
    shown = [e for e in rec["events"] if e["type"] in SHOWN][:12]
    for e in shown:
        tm = rec["t0"] + e["t"]
        k = int(math.floor(tm * fps))
        op.evidence.append({"event": e, "media_s": round(tm, 4), "between_frames": [k, k + 1],
                            "place_mm": event_place(rec, e)})
    if out is not None:
        _write(op, out, video, fps, observer, table)
    return op


def _write(op: Opinion, out: Path, video: Path, fps: float, observer: Observer, table: Table) -> None:
    """Frames around each event (a second pass over the shot's frames), check.json, check.html."""
    import cv2

    out.mkdir(parents=True, exist_ok=True)
    (out / "frames").mkdir(exist_ok=True)
    want: dict[int, list[int]] = {}
    for i, ev in enumerate(op.evidence):
        k = ev["between_frames"][0]
        for j in (k - 1, k, k + 1, k + 2):
            want.setdefault(j, []).append(i)
    got: dict[int, dict[int, object]] = {i: {} for i in range(len(op.evidence))}
    half = int(math.ceil(6.0 * observer.ball_radius_px))
    if want:
        for k, _, img in decoded(video, max(min(want), 0), max(want) + 1):
            for i in want.get(k, []):
                place = op.evidence[i]["place_mm"]
                if place is not None:
                    px = observer.cal.to_pixel([list(place)])[0]
                    got[i][k] = crop(img, px, half)
    for i, ev in enumerate(op.evidence):
        if got[i]:
            name = f"frames/{i + 1:02d}-{ev['event']['type']}.jpg"
            cv2.imwrite(str(out / name), strip([(f"frame {k}", c) for k, c in sorted(got[i].items())]),
                        [cv2.IMWRITE_JPEG_QUALITY, 88])
            ev["picture"] = name
    doc = {"video": str(video), "context": op.context, "record": op.record, "ruling": op.ruling,
           "benefit_of_the_doubt": op.doubts, "evidence": op.evidence}
    (out / "check.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    shot_card = card("shot", op.record, op.ruling, table, out, 0)
    rows = []
    for ev in op.evidence:
        e = ev["event"]
        who = ", ".join(e.get("balls") or [e.get("ball", "")])
        err = f" ± {e['t_err'] * 1000:.0f}" if e.get("t_err") is not None else ""
        pic = f"<br><img src='{ev['picture']}' style='max-width:100%'>" if ev.get("picture") else ""
        rows.append(f"<tr><td>{e['type']} {who} {e.get('rail') or e.get('pocket') or ''}</td>"
                    f"<td>{e['t'] * 1000:.0f}{err} ms after the strike (media {clock(ev['media_s'])}), between frames "
                    f"{ev['between_frames'][0]} and {ev['between_frames'][1]}{pic}</td></tr>")
    from html import escape

    page = (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>cueref check</title>"
            f"<style>{_css()}</style></head><body><header><h1>cueref check · {escape(video.name)} · "
            f"{clock(op.record['t0'])}</h1><div class=meta>{escape(op.context)}</div></header><main>{shot_card}"
            + "".join(f"<p class=doubt><b>Benefit of the doubt:</b> {escape(d)}</p>" for d in op.doubts)
            + "<h2>Evidence</h2><table class=ev>" + "".join(rows) + "</table></main></body></html>")
    (out / "check.html").write_text(page, encoding="utf-8")
    op.outputs += [out / "check.json", out / "check.html"]


def _css() -> str:
    from cueref.report import CSS

    return CSS + ".doubt{background:#fff8e1;border:1px solid #f0c36d;padding:8px;border-radius:4px}"
