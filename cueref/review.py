"""`cueref review`: a recorded match → game log, rulings, report.

Frames are decoded in a thread ahead of the detector (cueref/pipeline.py); tracking cuts the
shots; each record is ruled as it completes and both files are synced to disk at once, so an
interrupted review keeps every shot it finished. Run again with the same `--out`, it reads the
log, skips the video up to the end of the last shot it holds and goes on from there (the
calibration saved on the first run is reused: a mid-game frame may not show which end is the
head). The report is written from the folder's files at the end (cueref/report.py).
"""
from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cueref.keyframes import CueCrops
from cueref.pipeline import (REVIEW_RING, MediaError, Observer, ReconstructorProcess, decoded, observed_threaded,
                             video_info)
from cueref.records import new_header
from cueref.referee import GameFiles, Referee
from cueref.table import Table


@dataclass
class Review:
    """What a review did: calls made this run, where it started, frames processed."""
    referee: Referee
    start_frame: int = 0
    frames: int = 0
    resumed_shots: int = 0
    seconds: float = 0.0
    error: str | None = None
    outputs: list[Path] = field(default_factory=list)


def resume_frame(ref: Referee, fps: float) -> int:
    """The first frame after the last lag or shot in the log (0 for a new log)."""
    end = 0
    for e in ref.entries:
        frames = (e.get("evidence") or {}).get("frames")
        if frames:
            end = max(end, int(frames[1]) + 1)
        elif "t0" in e:
            end = max(end, int(math.ceil(e["t0"] * fps)) + 1)
    return end


def review(video: Path, game: str, table: Table, out: Path, players=("A", "B"), breaker: str | None = None,
           calibration: Path | None = None, head: str = "auto", formats=("html",), progress=None,
           on_call=None, stop_after_frames: int | None = None) -> Review:
    """Review `video` into `out`. `on_call(call)` is told of each call as it is made;
    `progress(stage, done, total)` of the frames."""
    import time

    fps, count = video_info(video)
    files = GameFiles(out)
    header = new_header(game, table, players=players, breaker=breaker)
    header["video"] = video.name
    ref = files.load(header)
    start = resume_frame(ref, fps)
    result = Review(ref, start_frame=start, resumed_shots=len(ref.calls))
    cal_file = out / "calibration.json"
    if calibration is None and cal_file.exists() and start > 0:
        calibration = cal_file
    observer = Observer(table, game=game, calibration=calibration, head=head)
    (out / "keyframes").mkdir(exist_ok=True)
    prior = sum(1 for e in ref.entries if e.get("kind") == "shot")
    recon = ReconstructorProcess(table, fps, video=video.name, prior_shots=prior)
    crops = None
    t_start = time.perf_counter()
    t = start / fps
    stop = None if stop_after_frames is None else start + stop_after_frames

    def take(records):
        for rec in records:
            calls = files.rule(ref, rec)
            if not calls:
                print(f"cueref review: a {rec['kind']} at {rec['t0']:.2f} s was not ruled: {ref.rejected[-1]['why']}",
                      file=sys.stderr)
                continue
            img = crops.contact_strip(rec) if crops is not None else None
            if img is not None:
                import cv2
                cv2.imwrite(str(out / "keyframes" / f"{calls[-1].entry + 1:04d}-contact.jpg"), img,
                            [cv2.IMWRITE_JPEG_QUALITY, 88])
            for c in calls if on_call is not None else ():
                on_call(c)

    with recon:
        try:
            for k, t, obs, img in observed_threaded(decoded(video, start, stop, ring=REVIEW_RING), observer):
                if crops is None:
                    crops = CueCrops(observer.ball_radius_px, fps)
                    if not cal_file.exists():
                        observer.cal.save(cal_file)
                crops.add(k, img, obs)
                take(recon.push(k, t, obs))
                result.frames += 1
                if progress is not None and count:
                    progress("review", k + 1, count)
        except MediaError as e:
            result.error = str(e)
        take(recon.finish(t) if stop is None or result.error else recon.drain())
    result.seconds = time.perf_counter() - t_start
    if "html" in formats:
        from cueref.report import write_report

        result.outputs.append(write_report(out))
    if "csv" in formats:
        result.outputs.append(write_csv(ref, out / "rulings.csv", fps))
    (out / "review.json").write_text(json.dumps({
        "video": str(video), "fps": fps, "frames": count, "start_frame": start, "frames_processed": result.frames,
        "seconds": round(result.seconds, 2), "calls": len(ref.calls), "rejected": ref.rejected, "notes": ref.notes,
        "error": result.error}, indent=1) + "\n", encoding="utf-8")
    return result


CSV_COLUMNS = ("entry", "kind", "shot", "rack", "time", "media_s", "shooter", "verdict", "foul", "rule", "why",
               "pocketed", "next_shooter", "cue_ball", "score", "frames")


def write_csv(ref: Referee, path: Path, fps: float) -> Path:
    """One row per lag and shot, for spreadsheets."""
    import csv

    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(CSV_COLUMNS)
        for c in ref.calls:
            r, e = c.ruling, ref.entries[c.entry]
            t0 = float(e.get("t0") or 0.0)
            if r.get("lag"):
                verdict = "re-lag" if r.get("relag") else f"{r.get('winner_player')} wins"
                row = [c.entry + 1, "lag", "", "", clock(t0), round(t0, 3), "", verdict, "", "WPA 1.2",
                       lag_why(r), "", (r.get("next") or {}).get("shooter", ""), "", ""]
            else:
                pen = next((x for x in r["fouls"] if x.get("penalised")), None)
                score = " ".join(f"{p}:{v}" for p, v in r["score"].items())
                row = [c.entry + 1, "shot", r["shot"], r.get("rack", ""), clock(t0), round(t0, 3), r["shooter"],
                       "legal" if r["legal"] else "foul", pen["code"] if pen else "", pen["rule"] if pen else "",
                       pen["why"] if pen else "", " ".join(r["pocketed"]), r["next"]["shooter"],
                       r["next"]["cue_ball"], score]
            row.append("-".join(str(x) for x in (e.get("evidence") or {}).get("frames", [])))
            w.writerow(row)
    return path


def lag_why(r: dict) -> str:
    why = r.get("why", "")
    return "; ".join(why) if isinstance(why, list) else str(why)


def clock(t: float) -> str:
    """Media time as m:ss.s (h:mm:ss past an hour)."""
    t = max(t, 0.0)
    h, rem = divmod(t, 3600)
    m, s = divmod(rem, 60)
    return f"{int(h)}:{int(m):02d}:{s:04.1f}" if h else f"{int(m)}:{s:04.1f}"


def parse_clock(text: str) -> float:
    """'12:31', '1:02:03.5' or '751.2' → seconds."""
    parts = text.strip().split(":")
    try:
        nums = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"expected a time like 12:31 or 751.5, got {text!r}") from None
    if len(nums) > 3 or any(n < 0 for n in nums) or any(n >= 60 for n in nums[1:]):
        raise ValueError(f"expected a time like 12:31 or 751.5, got {text!r}")
    t = 0.0
    for n in nums:
        t = t * 60 + n
    return t
