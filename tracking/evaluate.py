"""Reconstructed records against ground truth: events, first contacts, pockets, rulings, tracks.

Pure comparison functions plus a `Tally` that adds clips up; `tracking/bench.py` drives them over
generated clips and prints the table. Matching rules, so the figures mean what they say:
- a reconstructed record matches the truth record whose strike is within 0.3 s of its own;
- events match within a record by type and balls (and rail, pocket or line) within 0.1 s, nearest
  first; timing error is |t_ours - t_truth|; "within one frame" is |error| <= 1/fps;
- the first contact is the cue ball's first collision partner (None: it hit nothing); it is right
  when the ball is the same;
- rulings agree when legality, the set of foul codes, the pocketed balls, the next shooter and the
  cue-ball state match (for a lag: the winner and whether it is re-lagged). The operator's
  `declared` entries and the players' decisions are taken from the truth: a camera cannot see them.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from adjudicate.engine import new_game, step
from cueref.records import RecordError, first_contact_event, parse_entry, parse_header

EVENT_TYPES = ("strike", "collision", "cushion", "pocket", "off_table", "cross", "airborne", "disturbed", "stop")
MATCH_S = 0.3
EVENT_WINDOW_S = 0.1


def _key(e: dict):
    t = e["type"]
    if t == "collision":
        return (t, tuple(sorted(e["balls"])))
    if t == "cushion":
        return (t, e["ball"], e["rail"])
    if t == "pocket":
        return (t, e["ball"], e["pocket"])
    if t == "cross":
        return (t, e["ball"], e["line"])
    return (t, e.get("ball"))


def match_records(truth: list[dict], ours: list[dict]) -> tuple[dict[int, int], list[int]]:
    """truth index → our index, and our unmatched indices."""
    pairs = sorted(((abs(o["t0"] - t["t0"]), i, j) for i, t in enumerate(truth) for j, o in enumerate(ours)
                    if abs(o["t0"] - t["t0"]) <= MATCH_S and o["kind"] == t["kind"]))
    m: dict[int, int] = {}
    used: set[int] = set()
    for _, i, j in pairs:
        if i not in m and j not in used:
            m[i] = j
            used.add(j)
    return m, [j for j in range(len(ours)) if j not in used]


def match_events(truth: list[dict], ours: list[dict]) -> tuple[list[tuple[dict, dict]], list[dict], list[dict]]:
    """(matched pairs, missed truth events, extra events of ours)."""
    T = [e for e in truth if e["type"] in EVENT_TYPES]
    O = [e for e in ours if e["type"] in EVENT_TYPES]
    cands = sorted(((abs(o["t"] - t["t"]), i, j) for i, t in enumerate(T) for j, o in enumerate(O)
                    if _key(t) == _key(o) and abs(o["t"] - t["t"]) <= EVENT_WINDOW_S))
    ti, oj, pairs = set(), set(), []
    for _, i, j in cands:
        if i not in ti and j not in oj:
            ti.add(i)
            oj.add(j)
            pairs.append((T[i], O[j]))
    return pairs, [T[i] for i in range(len(T)) if i not in ti], [O[j] for j in range(len(O)) if j not in oj]


def first_contact(rec: dict) -> str | None:
    """The ball of the cue ball's first contact (`first_contact_event`: as the adjudicator reads it)."""
    e = first_contact_event(rec)
    return next(b for b in e["balls"] if b != "cue") if e is not None else None


def said_tie(truth: dict, ours: dict) -> bool:
    """Our first contact is not the truth's, but the record says the truth's first ball was met
    too close to ours to be told apart (their times within the sum of their `t_err`: the
    contract's simultaneous, WPA 3.2), and in the truth the two were indeed that close."""
    hits = [e for e in ours["events"] if e["type"] == "collision" and "cue" in e["balls"]]
    f = first_contact_event(ours)
    if f is None:
        return False
    other = {id(e): next(b for b in e["balls"] if b != "cue") for e in hits}
    t_first = first_contact(truth)
    tie = next((e for e in hits if other[id(e)] == t_first and abs(e["t"] - f["t"]) <= e.get("t_err", 0.0) + f.get("t_err", 0.0)), None)
    if tie is None:
        return False
    true_t = {}
    for e in truth["events"]:
        if e["type"] == "collision" and "cue" in e["balls"]:
            b = next(x for x in e["balls"] if x != "cue")
            true_t.setdefault(b, e["t"])
    a, b = true_t.get(t_first), true_t.get(other[id(f)])
    return a is not None and b is not None and abs(a - b) <= tie.get("t_err", 0.0) + f.get("t_err", 0.0)


def pockets(rec: dict) -> set[tuple[str, str]]:
    return {(e["ball"], e["pocket"]) for e in rec["events"] if e["type"] == "pocket"}


def ruling_key(r: dict | None):
    if r is None:
        return None
    if r.get("lag"):
        return ("lag", r.get("winner"), r.get("relag"))
    nxt = r.get("next") or {}
    return (r.get("legal"), tuple(sorted(f["code"] for f in r.get("fouls", []))), tuple(sorted(r.get("pocketed", []))),
            nxt.get("shooter"), nxt.get("cue_ball"))


def rule_each(header: dict, truth_entries: list[dict], ours: dict[int, dict]) -> dict[int, dict | None]:
    """Each reconstructed record ruled from the true game state before it (one shot's error does
    not carry into the next): record index → ruling (None where refused)."""
    hdr = parse_header(header)
    state = new_game(hdr)
    out: dict[int, dict | None] = {}
    i = -1
    for e in truth_entries:
        if e["kind"] != "decision":
            i += 1
            if i in ours:
                try:
                    r, _ = step(state, parse_entry(ours[i], hdr))
                    out[i] = r.to_dict() if r is not None else None
                except RecordError:
                    out[i] = None
        try:
            _, state = step(state, parse_entry(e, hdr))
        except RecordError:
            pass
    return out


def rule_log(header: dict, entries: list[dict]) -> list[dict | None]:
    """Rulings for each lag/shot entry (None where the adjudicator refused it); decisions that no
    longer fit the reconstructed game are skipped."""
    hdr = parse_header(header)
    state = new_game(hdr)
    out: list[dict | None] = []
    for e in entries:
        is_record = e["kind"] != "decision"
        try:
            ruling, state = step(state, parse_entry(e, hdr))
            if is_record:
                out.append(ruling.to_dict() if ruling is not None else None)
        except RecordError:
            if is_record:
                out.append(None)
    return out


@dataclass
class Tally:
    fps: float = 60.0
    records_truth: int = 0
    records_found: int = 0
    records_extra: int = 0
    tp: dict = field(default_factory=lambda: defaultdict(int))
    fn: dict = field(default_factory=lambda: defaultdict(int))
    fp: dict = field(default_factory=lambda: defaultdict(int))
    timing: dict = field(default_factory=lambda: defaultdict(list))  # type → |Δt|
    within_err: dict = field(default_factory=lambda: defaultdict(int))  # |Δt| <= t_err
    first_contact_right: int = 0
    first_contact_total: int = 0
    first_contact_tie: int = 0  # wrong, but said simultaneous with the truth's, which was that close
    pockets_right: int = 0
    pockets_total: int = 0
    pockets_extra: int = 0
    rulings_agree: int = 0
    rulings_total: int = 0
    rulings_each_agree: int = 0
    breaks: dict = field(default_factory=lambda: {"tp": defaultdict(int), "fn": defaultdict(int), "fp": defaultdict(int)})
    disagreements: list = field(default_factory=list)
    # Every event not matched, or matched more than a frame off, one dict each (`_listed`): what a
    # change to the event rules is looked for in, and checked against, shot by shot.
    errors: list = field(default_factory=list)
    # Tracking (per frame, per ball): CLEAR-MOT counts with ball names as identities.
    gt: int = 0
    misses: int = 0
    false_pos: int = 0
    id_switches: int = 0
    id_tp: int = 0
    track_s: float = 0.0
    frames: int = 0

    def add_clip(self, header: dict, truth_entries: list[dict], ours: list[dict], truth_rulings: list[dict],
                 label: str = "") -> None:
        truth = [e for e in truth_entries if e["kind"] != "decision"]
        m, extra = match_records(truth, ours)
        self.records_truth += len(truth)
        self.records_found += len(m)
        self.records_extra += len(extra)
        for i, t in enumerate(truth):
            brk = bool(t.get("declared", {}).get("break"))
            if i not in m:
                for e in t["events"]:
                    if e["type"] in EVENT_TYPES:
                        self.fn[e["type"]] += 1
                self.errors += [_listed(label, i, t, brk, "missed", e) for e in _rel(t) if e["type"] in EVENT_TYPES]
                continue
            o = ours[m[i]]
            pairs, missed, extra_e = match_events(_rel(t), _rel(o))
            self.errors += [_listed(label, i, t, brk, "missed", e) for e in missed]
            self.errors += [_listed(label, i, t, brk, "extra", e) for e in extra_e]
            self.errors += [_listed(label, i, t, brk, "late", a, b) for a, b in pairs
                            if abs(a["t"] - b["t"]) > 1.0 / self.fps + 1e-9]
            if brk:
                # Breaks counted apart too: a rack's frozen balls touch within a millisecond.
                for a, _ in pairs:
                    self.breaks["tp"][a["type"]] += 1
                for e in missed:
                    self.breaks["fn"][e["type"]] += 1
                for e in extra_e:
                    self.breaks["fp"][e["type"]] += 1
            for a, b in pairs:
                self.tp[a["type"]] += 1
                dt = abs(a["t"] - b["t"])
                self.timing[a["type"]].append(dt)
                if dt <= b.get("t_err", 0.0) + 1e-9:  # t_err is a 95 % half-width
                    self.within_err[a["type"]] += 1
            for e in missed:
                self.fn[e["type"]] += 1
            for e in extra_e:
                self.fp[e["type"]] += 1
            if t["kind"] == "shot":
                self.first_contact_total += 1
                right = first_contact(t) == first_contact(o)
                self.first_contact_right += int(right)
                self.first_contact_tie += int(not right and said_tie(t, o))
                if not right:
                    self.errors.append({"clip": label, "record": i, "kind": "shot", "break": brk, "what": "wrong",
                                        "type": "first_contact", "t": t["t0"], "truth": first_contact(t),
                                        "ours": first_contact(o), "said_tie": said_tie(t, o)})
                tp, op = pockets(t), pockets(o)
                self.pockets_total += len(tp)
                self.pockets_right += len(tp & op)
                self.pockets_extra += len(op - tp)
        for j in extra:
            for e in ours[j]["events"]:
                if e["type"] in EVENT_TYPES:
                    self.fp[e["type"]] += 1
            self.errors += [_listed(label, None, ours[j], False, "extra", e) for e in _rel(ours[j])
                            if e["type"] in EVENT_TYPES]
        # Rulings: the truth log with each record replaced by its reconstruction.
        log = []
        for e in truth_entries:
            if e["kind"] == "decision":
                log.append(e)
                continue
            i = truth.index(e)
            if i in m:
                rec = dict(ours[m[i]])
                if "declared" in e:
                    rec["declared"] = e["declared"]
                log.append(rec)
        each = rule_each(header, truth_entries, {i: _with_declared(ours[j], truth[i]) for i, j in m.items()})
        for i, r in each.items():
            if ruling_key(r) == ruling_key(truth_rulings[i] if i < len(truth_rulings) else None):
                self.rulings_each_agree += 1
            else:
                self.disagreements.append((label, truth[i]["t0"], "alone: " + f"{ruling_key(truth_rulings[i])} vs {ruling_key(r)}"))
        ours_r = rule_log(header, log)
        k = 0
        for i, t in enumerate(truth):
            self.rulings_total += 1
            if i not in m:
                self.disagreements.append((label, t["t0"], "record not found"))
                continue
            r = ours_r[k]
            k += 1
            if ruling_key(r) == ruling_key(truth_rulings[i] if i < len(truth_rulings) else None):
                self.rulings_agree += 1
            else:
                self.disagreements.append((label, t["t0"], f"{ruling_key(truth_rulings[i])} vs {ruling_key(r)}"))

    def add_frame(self, truth: dict[str, tuple[float, float]], tracks: list[tuple[str | None, np.ndarray]],
                  radius: float = 30.0) -> None:
        """One frame: truth ball centres vs (name, position) of the live confirmed tracks."""
        self.frames += 1
        names = [b for b in truth if b not in ("left", "right")]
        self.gt += len(names)
        if not names:
            self.false_pos += len(tracks)
            return
        if not tracks:
            self.misses += len(names)
            return
        P = np.array([truth[b] for b in names])
        Q = np.array([p for _, p in tracks])
        d = np.hypot(P[:, None, 0] - Q[None, :, 0], P[:, None, 1] - Q[None, :, 1])
        used_t, used_q = set(), set()
        for i, b in enumerate(names):  # same name and near: an identity match
            for j, (n, _) in enumerate(tracks):
                if n == b and d[i, j] <= radius and j not in used_q:
                    used_t.add(i)
                    used_q.add(j)
                    self.id_tp += 1
                    break
        for i in range(len(names)):
            if i in used_t:
                continue
            j = int(np.argmin(np.where([k in used_q for k in range(len(tracks))], np.inf, d[i])))
            if j not in used_q and d[i, j] <= radius:
                used_q.add(j)
                self.id_switches += 1  # a track is there, under another name (counted per frame)
            else:
                self.misses += 1
        self.false_pos += len(tracks) - len(used_q)

    # --- summary ---------------------------------------------------------------------------------
    def summary(self) -> dict:
        ev = {}
        for t in EVENT_TYPES:
            tp, fn, fp = self.tp[t], self.fn[t], self.fp[t]
            errs = np.array(self.timing[t]) if self.timing[t] else np.zeros(0)
            ev[t] = {"truth": tp + fn, "found": tp, "extra": fp,
                     "recall": tp / (tp + fn) if tp + fn else None,
                     "precision": tp / (tp + fp) if tp + fp else None,
                     "median_ms": float(np.median(errs) * 1000) if len(errs) else None,
                     "p95_ms": float(np.percentile(errs, 95) * 1000) if len(errs) else None,
                     "within_frame": float(np.mean(errs <= 1.0 / self.fps + 1e-9)) if len(errs) else None,
                     "within_t_err": self.within_err[t] / tp if tp else None}
        gt = max(self.gt, 1)
        return {
            "records": {"truth": self.records_truth, "found": self.records_found, "extra": self.records_extra},
            "events": ev,
            "first_contact": _ratio(self.first_contact_right, self.first_contact_total),
            "first_contact_or_said_tie": _ratio(self.first_contact_right + self.first_contact_tie,
                                                self.first_contact_total),
            "pockets": _ratio(self.pockets_right, self.pockets_total) | {"extra": self.pockets_extra},
            "rulings_agree": _ratio(self.rulings_agree, self.rulings_total),
            "rulings_agree_each": _ratio(self.rulings_each_agree, self.rulings_total),
            "events_without_breaks": {t: _pr(self.tp[t] - self.breaks["tp"][t], self.fn[t] - self.breaks["fn"][t],
                                             self.fp[t] - self.breaks["fp"][t]) for t in EVENT_TYPES},
            "tracking": {"frames": self.frames, "mota": 1 - (self.misses + self.false_pos + self.id_switches) / gt,
                         "idf1": 2 * self.id_tp / max(2 * self.id_tp + (self.gt - self.id_tp) +
                                                      (self.id_tp + self.false_pos + self.id_switches - self.id_tp), 1),
                         "misses": self.misses, "false_positives": self.false_pos, "id_switches": self.id_switches,
                         "ms_per_frame": self.track_s / max(self.frames, 1) * 1000},
            "disagreements": [list(d) for d in self.disagreements],
            "event_errors": list(self.errors),
        }


def _listed(label: str, index: int | None, rec: dict, brk: bool, what: str, e: dict, ours: dict | None = None) -> dict:
    """One event error: the clip, the truth record's index (None: a record of ours matching none),
    its kind and whether it is a break, what ("missed", "extra", "late"), the event (on the media
    clock) and, when late, our time and the error in ms (ours minus the truth's)."""
    out = {"clip": label, "record": index, "kind": rec["kind"], "break": brk, "what": what,
           **{k: v for k, v in e.items() if k != "t_err"}}
    if "t_err" in e:
        out["t_err"] = e["t_err"]
    if ours is not None:
        out.update(t_ours=ours["t"], dt_ms=round(1000.0 * (ours["t"] - e["t"]), 2), t_err=ours.get("t_err"))
    return out


def _pr(tp: int, fn: int, fp: int) -> dict:
    return {"truth": tp + fn, "recall": tp / (tp + fn) if tp + fn else None,
            "precision": tp / (tp + fp) if tp + fp else None}


def _with_declared(rec: dict, truth: dict) -> dict:
    rec = dict(rec)
    if "declared" in truth:
        rec["declared"] = truth["declared"]
    return rec


def _ratio(a: int, b: int) -> dict:
    return {"right": a, "total": b, "rate": a / b if b else None}


def _rel(rec: dict) -> list[dict]:
    """Events on the media clock (t0 + t): an error in the strike time shows in every event."""
    return [dict(e, t=e["t"] + rec["t0"]) for e in rec["events"] if not math.isnan(e["t"])]
