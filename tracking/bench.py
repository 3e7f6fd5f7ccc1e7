"""Tracking and shot reconstruction measured on generated games (seeds no training uses):
events per type (precision, recall, timing), first contacts, pockets, rulings agreement and
CLEAR-MOT tracking figures, with the time spent tracking per frame. Prints a table, returns JSON.

Sources of observations:
- `sim`: the simulated detector (synth/observe.py) with the real detector's kinds of error; fast
  enough for many games;
- `perfect`: exact centres and labels (what tracking alone loses);
- `vision`: frames rendered and run through the real detector (vision/), slow: use few clips.
"""
from __future__ import annotations

import time

import numpy as np

from cueref import blas_kernels
from cueref.records import GAMES
from tracking.evaluate import EVENT_TYPES, Tally

# The default range. The event extraction was developed looking at 7000-7019 and 8000-8019:
# figures on them flatter it; `--seed` runs an unseen range (9000 on was first run unseen).
HELD_OUT = 7000


def _observations(tl, source: str, seed: int, fps: int, resolution: str):
    from synth.observe import DetectorModel, observe  # noqa: PLC0415

    if source in ("sim", "perfect"):
        model = DetectorModel() if source == "sim" else DetectorModel.perfect()
        yield from observe(tl, fps, seed, model)
        return
    from synth.clip import RESOLUTIONS, Scene  # noqa: PLC0415
    from vision.calibrate import auto  # noqa: PLC0415
    from vision.detect import BallDetector  # noqa: PLC0415

    w, h = RESOLUTIONS[resolution]
    scene = Scene(tl, w, h, seed, fps)
    first = tl.segments[0].t0 - 0.5
    # A second scene for the calibration frame: a scene's frames must be asked for in time order.
    cal = auto(Scene(tl, w, h, seed, fps).frame(first)[0], tl.table)
    det = BallDetector(cal, game=tl.header["game"])
    n = int(np.ceil(tl.duration * fps))
    for k in range(n):
        T = k / fps
        img, _, truth = scene.frame(T)
        obs = det.observe(img, k, T)
        yield k, T, obs, {b: (v[2], v[3]) for b, v in truth.items() if v[4] <= tl.table.R + 1.0}


def _physics(tl, t: float, balls: list) -> dict:
    """Each ball's velocity (mm/s) in the physics 1-4 ms before and after media time t: what an
    event error is read with (a touch that changed a velocity by a few mm/s cannot be seen)."""
    seg = max((g for g in tl.segments if g.t0 <= t + 1e-9), key=lambda g: g.t0, default=None)
    out = {}
    for b in balls:
        tr = seg.sim.tracks.get(b) if seg is not None and b is not None else None
        if tr is None:
            continue
        r = t - seg.t0
        xy = np.array([tr.at(r + d) for d in (-0.004, -0.001, 0.001, 0.004)])
        out[b] = {"v_in": np.round((xy[1] - xy[0]) / 0.003, 1).tolist(),
                  "v_out": np.round((xy[3] - xy[2]) / 0.003, 1).tolist()}
    return out


SPIN_S = 0.15  # a spin in place this long after the last roll ends is counted apart (`_stops`)


def _spin_tail(tl, t0: float) -> float:
    """How long the physics' stop of the shot struck at media time `t0` comes after its last ball
    stopped rolling: a ball spinning in place (WPA 2.19: the shot is not over), which a camera
    of centres cannot see; the cue ball's dots turn in sight only near its rim. (Not
    `synth.clip._quiet_tail` with a small tolerance: it ends a ball at its `gone_at`, and a ball
    sent off the table moves on to the physics' stop: seeds 8012, 9002 and 9019 would count
    2.4, 2.2 and 1.4 s of spin that is a ball on the floor.)"""
    seg = min(tl.segments, key=lambda g: abs(g.t0 - t0))
    moved = 0.0
    for tr in seg.sim.tracks.values():
        if len(tr.t) < 3:
            continue
        v = np.hypot(*np.gradient(tr.xy, tr.t, axis=0).T)
        on = np.nonzero(v > 1.0)[0]  # mm/s
        if len(on):
            moved = max(moved, float(tr.t[on[-1]]))
    return max(0.0, seg.sim.duration - moved)


def _stops(tl, ours: list[dict]) -> dict:
    """Each found record's stop against the physics': within its own t_err or not and, of those
    not, how many came after a spin in place of `SPIN_S` or more."""
    from tracking.evaluate import match_records  # noqa: PLC0415

    truth = [e for e in tl.entries if e.get("kind") in ("shot", "lag")]
    m, _ = match_records(truth, ours)
    out = {"found": 0, "within_t_err": 0, "outside_spin": 0}
    for i, j in m.items():
        ts = next((e["t"] for e in truth[i]["events"] if e["type"] == "stop"), None)
        st = next((e for e in ours[j]["events"] if e["type"] == "stop"), None)
        if ts is None or st is None:
            continue
        out["found"] += 1
        if abs(ours[j]["t0"] + st["t"] - truth[i]["t0"] - ts) <= st.get("t_err", 0.0):
            out["within_t_err"] += 1
        elif _spin_tail(tl, truth[i]["t0"]) >= SPIN_S:
            out["outside_spin"] += 1
    return out


def run(clips: int = 10, shots: int = 8, fps: int = 60, source: str = "sim", seed: int = HELD_OUT,
        resolution: str = "1080p", progress=None) -> dict:
    from synth.clip import PhysicsGlitch, play  # noqa: PLC0415
    from tracking.shots import ShotReconstructor  # noqa: PLC0415

    tally = Tally(fps=fps)
    stops = {"found": 0, "within_t_err": 0, "outside_spin": 0}
    shots_total = 0
    skipped = []
    for c in range(clips):
        s = seed + c
        game = GAMES[c % len(GAMES)]
        try:
            tl = play(game, shots, s, lag=(c % 2 == 0))
        except PhysicsGlitch as e:
            # The physics could not play this game (a ball through a cushion however the shot
            # was softened or replanned: seed 16009): no truth to measure against. Said, not
            # counted; the other games go on.
            skipped.append({"seed": s, "game": game, "why": str(e)[:120]})
            if progress:
                progress(c + 1, clips)
            continue
        rec = ShotReconstructor(tl.table, fps)
        t_track = 0.0
        T = 0.0
        for k, T, obs, truth in _observations(tl, source, s, fps, resolution):
            t = time.perf_counter()
            rec.push(k, T, obs)
            t_track += time.perf_counter() - t
            # What the tracker reports at this frame: confirmed tracks seen in the last 0.1 s
            # (a coasting or hidden track is not a detection), named as a record names them, one
            # ball of each number (`_assign_names`: a ball the detector calls "unknown" because
            # it looks like a ball already named must not count as a second of that number).
            live = [tr for tr in rec.tracker.tracks if tr.confirmed and tr.alive and T - tr.last_t <= 0.1]
            names = rec._assign_names(live, T)
            tally.add_frame(truth, [(names.get(id(tr)), tr.position()) for tr in live])
        t = time.perf_counter()
        rec.finish(T)
        t_track += time.perf_counter() - t
        tally.track_s += t_track
        listed = len(tally.errors)
        tally.add_clip(tl.header, tl.entries, rec.records, tl.rulings, label=f"{game} seed {s}")
        for k, v in _stops(tl, rec.records).items():
            stops[k] += v
        for e in tally.errors[listed:]:
            e["seed"] = s
            if e["type"] != "first_contact":
                e["physics"] = _physics(tl, e["t"], e.get("balls") or [e.get("ball")])
        shots_total += len(tl.entries)
        if progress:
            progress(c + 1, clips)
    out = tally.summary()
    out.update({"benchmark": "track", "source": source, "clips": clips - len(skipped), "shots_per_clip": shots,
                "fps": fps, "seeds": [seed, seed + clips - 1], "skipped": skipped, "blas": blas_kernels(),
                "stops": stops})
    return out


def _stops_line(st: dict | None) -> list[str]:
    if not st or not st["found"]:
        return []
    out = st["found"] - st["within_t_err"]
    return [f"stops: {st['within_t_err']:,} of {st['found']:,} within their t_err of the physics' stop; of the "
            f"{out:,} others, {st['outside_spin']:,} came after a ball spun in place {SPIN_S} s or more past the "
            f"last roll's end (WPA 2.19; unseen by a camera of centres)"]


def _kernels(r: dict) -> str:
    """Which OpenBLAS kernels generated the games (see `cueref.blas_kernels`): other kernels, other
    games from the same seeds."""
    return f" (ground truth on OpenBLAS's {r['blas']} kernels)" if r.get("blas") else ""


def table(r: dict) -> str:
    def pct(x):
        return "   -  " if x is None else f"{100 * x:6.2f}"

    def ms(x):
        return "   - " if x is None else f"{x:5.1f}"

    rec = r["records"]
    lines = [f"source {r['source']}, {r['clips']} clips at {r['fps']} fps{_kernels(r)}: records {rec['found']}/{rec['truth']} "
             f"found, {rec['extra']} extra"
             + "".join(f"; seed {k['seed']} ({k['game']}) skipped: {k['why']}" for k in r.get("skipped", ())),
             f"{'event':>10} {'truth':>6} {'recall':>7} {'prec':>7} {'med ms':>7} {'p95 ms':>7} {'≤1 frame':>9} {'≤ t_err':>9}"
             f"   | {'':>10} {'truth':>5} {'recall':>7} {'prec':>7}"]
    for t in EVENT_TYPES:
        e, nb = r["events"][t], r["events_without_breaks"][t]
        lines.append(f"{t:>10} {e['truth']:>6} {pct(e['recall']):>7} {pct(e['precision']):>7} {ms(e['median_ms']):>7} "
                     f"{ms(e['p95_ms']):>7} {pct(e['within_frame']):>9} {pct(e['within_t_err']):>9}"
                     f"   | no breaks: {nb['truth']:>5} {pct(nb['recall']):>7} {pct(nb['precision']):>7}")
    fc, pk, ru, tr = r["first_contact"], r["pockets"], r["rulings_agree"], r["tracking"]
    ft = r.get("first_contact_or_said_tie") or fc
    lines.append(f"first contact right {pct(fc['rate'])} % ({fc['right']}/{fc['total']}; {pct(ft['rate'])} % counting "
                 f"near-ties said simultaneous, as close in the truth); pockets right "
                 f"{pct(pk['rate'])} % ({pk['right']}/{pk['total']}, {pk['extra']} extra); rulings agree "
                 f"{pct(ru['rate'])} % ({ru['right']}/{ru['total']}) as a chained game, "
                 f"{pct(r['rulings_agree_each']['rate'])} % each from the true state")
    lines.append(f"tracking: MOTA {pct(tr['mota'])} %, IDF1 {pct(tr['idf1'])} % over {tr['frames']} frames "
                 f"(per ball-frame: misses {tr['misses']}, false {tr['false_positives']}, under another name "
                 f"{tr['id_switches']}); "
                 f"{tr['ms_per_frame']:.3f} ms per frame tracking + events")
    lines += _stops_line(r.get("stops"))
    return "\n".join(lines)


def _one_range(job: tuple) -> dict:
    clips, shots, source, seed, fps = job
    return run(clips=clips, shots=shots, source=source, seed=seed, fps=fps)


def run_ranges(ranges: int, clips: int = 20, shots: int = 8, source: str = "sim", seed: int = HELD_OUT,
               jobs: int = 1, progress=None, fps: int = 60) -> dict:
    """`run` over `ranges` seed ranges (seed, seed + 1000, ...), `jobs` at a time in processes of
    their own: each range's result and the counts summed over them. A change to the events is
    judged on many ranges at once: one range's figures move by a contact or two either way."""
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

    seeds = [seed + 1000 * i for i in range(ranges)]
    todo = [(clips, shots, source, s, fps) for s in seeds]
    results = []
    if jobs <= 1:
        for i, job in enumerate(todo):
            results.append(_one_range(job))
            if progress:
                progress(i + 1, len(todo))
    else:
        with ProcessPoolExecutor(jobs) as pool:
            for i, res in enumerate(pool.map(_one_range, todo)):
                results.append(res)
                if progress:
                    progress(i + 1, len(todo))

    def total(get) -> dict:
        keys = ("right", "total") if "right" in get(results[0]) else ("found", "truth", "extra")
        return {k: sum(int(get(r)[k]) for r in results) for k in keys}

    sums = {"first_contact": total(lambda r: r["first_contact"]), "pockets": total(lambda r: r["pockets"]),
            "rulings_agree_each": total(lambda r: r["rulings_agree_each"]),
            "rulings_agree": total(lambda r: r["rulings_agree"])}
    for t in ("collision", "cushion"):
        sums[t] = total(lambda r, t=t: r["events"][t])
    sums["stops"] = {k: sum(r["stops"][k] for r in results) for k in results[0]["stops"]}
    return {"benchmark": "track-ranges", "source": source, "clips": clips, "shots_per_clip": shots, "fps": fps,
            "seeds": seeds, "ranges": results, "total": sums, "blas": results[0].get("blas")}


def ranges_table(r: dict) -> str:
    """One row per range (no-break recall / precision for collisions and cushions), then the
    counts over all of them."""
    def pct(x):
        return "  -  " if x is None else f"{100 * x:5.1f}"

    def rp(e):
        return f"{pct(e['recall'])} / {pct(e['precision'])}"

    lines = [f"source {r['source']}, {r['clips']} games of {r['shots_per_clip']} shots per range at {r.get('fps', 60)} fps"
             f"{_kernels(r)}",
             f"{'seeds':>12} {'first contact':>14} {'pockets':>8} {'collisions R/P':>15} {'cushions R/P':>15}"
             f" {'rulings each':>13} {'chained':>8}   (collisions and cushions without breaks, %)"]
    for s, x in zip(r["seeds"], r["ranges"]):
        nb = x["events_without_breaks"]
        seeds = f"{s}-{s + r['clips'] - 1}"
        fc, pk, each = (f"{x[k]['right']}/{x[k]['total']}" for k in ("first_contact", "pockets", "rulings_agree_each"))
        lines.append(f"{seeds:>12} {fc:>14} {pk:>8} {rp(nb['collision']):>15} {rp(nb['cushion']):>15} "
                     f"{each:>13} {x['rulings_agree']['right']:>8}")
    t = r["total"]

    def frac(d):
        return f"{d['right']:,} of {d['total']:,} ({100 * d['right'] / max(d['total'], 1):.1f} %)"

    def found(d):
        return (f"{d['found']:,} of {d['truth']:,} found ({100 * d['found'] / max(d['truth'], 1):.2f} %), "
                f"{d['extra']:,} extra (precision {100 * d['found'] / max(d['found'] + d['extra'], 1):.2f} %)")

    lines.append(f"all {len(r['seeds'])} ranges: first contact {frac(t['first_contact'])}; pockets "
                 f"{frac(t['pockets'])}; rulings each {frac(t['rulings_agree_each'])}, chained "
                 f"{frac(t['rulings_agree'])}")
    lines.append(f"  collisions (all): {found(t['collision'])}")
    lines.append(f"  cushions (all): {found(t['cushion'])}")
    lines += ["  " + x for x in _stops_line(t.get("stops"))]
    return "\n".join(lines)
