"""`cueref <command>`: thin subcommands that parse arguments, call the stages, write JSON."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from cueref.records import GAMES
from cueref.table import TABLES

EXIT_BAD_INPUT = 2


def _adjudicate(args) -> int:
    from adjudicate.engine import new_game, step
    from adjudicate.explain import explain
    from cueref.gamelog import LogError, entries, numbered, read_header
    from cueref.records import RecordError

    name = "<stdin>" if args.log == "-" else args.log
    try:
        f = sys.stdin if args.log == "-" else open(args.log, encoding="utf-8")
    except OSError as e:
        print(f"cueref adjudicate: cannot read {name}: {e.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = sys.stdout
    with f:
        lines = numbered(f)
        try:
            header = read_header(lines)
            state = new_game(header)
            for n, entry in entries(lines, header):
                try:
                    ruling, state = step(state, entry, line=n)
                except RecordError as e:
                    raise LogError(n, e.field, e.message) from None
                if ruling is None:
                    continue
                if args.explain:
                    out.write(explain(ruling, entry) + "\n")
                else:
                    out.write(json.dumps(ruling.to_dict(), ensure_ascii=False) + "\n")
                out.flush()  # what is ruled stays ruled, whatever comes next
        except LogError as e:
            print(f"cueref adjudicate: {name}: {e}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except UnicodeDecodeError as e:
            print(f"cueref adjudicate: {name}: not UTF-8 text ({e.reason} at byte {e.start})", file=sys.stderr)
            return EXIT_BAD_INPUT
    return 0


def _synth(args) -> int:
    import importlib.util

    missing = [m for m in ("pooltool", "imageio_ffmpeg") if importlib.util.find_spec(m) is None]
    if missing:
        print(f"cueref synth: the ground-truth generator needs the synth extra ({', '.join(missing)} missing): "
              "run scripts/install-synth.sh", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.scenarios and args.table != "9ft":
        print("cueref synth: the staged scenarios are laid out on a 9 ft table (--table 9ft)", file=sys.stderr)
        return EXIT_BAD_INPUT
    from cueref.progress import Progress
    from synth.clip import make_clip, make_scenarios

    progress = None if args.quiet else Progress()
    kw = dict(resolution=args.resolution, fps=args.fps, table=args.table, yolo_every=args.yolo_every,
              progress=progress)
    if args.scenarios:
        truth = make_scenarios(args.seed, args.out, **kw)
    else:
        truth = make_clip(args.game, args.shots, args.seed, args.out, lag=args.lag, crf=args.crf, **kw)
    kinds = {}
    for s in truth["shots"]:
        kinds[s["kind"]] = kinds.get(s["kind"], 0) + 1
    print(json.dumps({"out": str(args.out), "frames": truth["frames"], "fps": truth["fps"],
                      "resolution": truth["resolution"], "codec": truth["codec"], "shots": kinds}))
    return 0


def _calibrate(args) -> int:
    from cueref.table import table_for
    from vision.calibrate import CalibrationError, auto

    try:
        _, _, frame = next(_read_frames(args.media, start=args.at))
        cal = auto(frame, table_for(args.table), head=args.head)
    except StopIteration:
        print(f"cueref calibrate: {args.media} has no frame at {args.at:g} s", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (ValueError, CalibrationError) as e:
        print(f"cueref calibrate: {args.media}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.out:
        cal.save(args.out)
    print(json.dumps(cal.to_dict()))
    return 0


def _read_frames(path: Path, every: int = 1, start: float = 0.0):
    """(index, media time, BGR frame) of an image, or of a video from `start` seconds; raises
    ValueError naming the file when it is not one."""
    import cv2

    from cueref.pipeline import IMAGE_SUFFIXES, MediaError, frames_of, video_info

    if path.suffix.lower() in IMAGE_SUFFIXES:
        img = cv2.imread(str(path))
        if img is None:
            raise ValueError(f"cannot read an image from {path}")
        yield 0, 0.0, img
        return
    try:
        fps, _ = video_info(path)
    except MediaError:
        raise ValueError(f"cannot read an image from {path} (missing, or not an image or video)") from None
    n = 0
    for k, t, img in frames_of(path, int(round(start * fps))):
        if k % every == 0:
            n += 1
            yield k, t, img
    if n == 0:
        raise ValueError(f"cannot read an image from {path}: no frame could be decoded (corrupt or empty video)")


def _detect(args) -> int:
    from cueref.pipeline import Observer
    from cueref.table import table_for

    observer = Observer(table_for(args.table), game=args.game, calibration=args.calibration, head=args.head)
    saved = not args.save_calibration
    try:
        for k, t, img in _read_frames(args.media, args.every):
            observations = observer(k, t, img)
            if not saved:
                observer.cal.save(args.save_calibration)
                saved = True
            for obs in observations:
                sys.stdout.write(json.dumps(obs.to_dict()) + "\n")
            sys.stdout.flush()
    except ValueError as e:
        print(f"cueref detect: {args.media}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def _track(args) -> int:
    from cueref.records import RecordError, new_header
    from cueref.table import table_for
    from tracking.shots import read_observations, reconstruct

    table = table_for(args.table)
    name = str(args.media)
    out = sys.stdout
    try:
        if args.media.suffix.lower() in (".jsonl", ".json"):
            fps = args.fps or 60.0
            f = open(args.media, encoding="utf-8")
            frames = read_observations(f, name)
        else:
            from cueref.pipeline import Observer, decoded, observed, video_info

            fps = args.fps or video_info(args.media)[0]
            observer = Observer(table, game=args.game, calibration=args.calibration, head=args.head)
            frames = ((k, t, obs) for k, t, obs, _ in observed(decoded(args.media), observer))
        if args.game:
            out.write(json.dumps(new_header(args.game, table, players=args.players.split(","))) + "\n")
        for rec in reconstruct(frames, table, fps, video=args.media.name):
            out.write(json.dumps(rec) + "\n")
            out.flush()  # a record printed stays printed, whatever comes next
    except RecordError as e:
        print(f"cueref track: {e.field}: {e.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (OSError, ValueError) as e:
        print(f"cueref track: {name}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def _review(args) -> int:
    from cueref.gamelog import LogError
    from cueref.pipeline import MediaError
    from cueref.progress import Progress
    from cueref.review import review
    from cueref.table import table_for

    players = _players(args.players)
    if players is None or (args.breaker and args.breaker not in players):
        print(f"cueref review: --players needs two different names and --breaker one of them "
              f"(got {args.players!r}, {args.breaker!r})", file=sys.stderr)
        return EXIT_BAD_INPUT
    formats = ("html", "csv") if args.format == "all" else (args.format,)
    out = args.out or Path("review") / args.video.stem

    def said(call):
        print(call.text, flush=True)

    try:
        res = review(args.video, args.game, table_for(args.table), out, players=players, breaker=args.breaker,
                     calibration=args.calibration, head=args.head, formats=formats,
                     progress=None if args.quiet else Progress(), on_call=said)
    except (MediaError, LogError, OSError) as e:
        print(f"cueref review: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if res.start_frame:
        print(f"cueref review: resumed after {res.resumed_shots} calls already in {out} (from frame "
              f"{res.start_frame})", file=sys.stderr)
    print(f"cueref review: {len(res.referee.calls)} calls; wrote " + ", ".join(str(p) for p in
          [out / "game.jsonl", out / "rulings.jsonl"] + res.outputs), file=sys.stderr)
    if res.error:
        print(f"cueref review: {res.error}; everything before it is ruled and saved", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def _check(args) -> int:
    from cueref.check import second_opinion
    from cueref.pipeline import MediaError
    from cueref.records import RecordError
    from cueref.review import clock, parse_clock
    from cueref.table import table_for

    players = _players(args.players)
    if players is None:
        print(f"cueref check: --players needs two different names (got {args.players!r})", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        at = None if args.at is None else parse_clock(args.at)
    except ValueError as e:
        print(f"cueref check: --at: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = args.out or Path("check") / f"{args.video.stem}-{(args.at or 'first').replace(':', '.')}"
    try:
        op = second_opinion(args.video, args.game, table_for(args.table), at=at, log=args.log, players=players,
                            calibration=args.calibration, head=args.head, out=out)
    except (MediaError, OSError, ValueError) as e:
        msg = f"{e.field}: {e.message}" if isinstance(e, RecordError) else str(e)
        print(f"cueref check: {msg}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps({"context": op.context, "record": op.record, "ruling": op.ruling,
                          "benefit_of_the_doubt": op.doubts, "evidence": op.evidence}))
        return 0
    print(op.text)
    print(f"  context: {op.context}")
    for d in op.doubts:
        print(f"  benefit of the doubt: {d}")
    for ev in op.evidence:
        e = ev["event"]
        who = ", ".join(e.get("balls") or [e.get("ball", "")])
        where = e.get("rail") or e.get("pocket") or ""
        err = f" ± {e['t_err'] * 1000:.0f}" if e.get("t_err") is not None else ""
        print(f"  {e['type']:<9} {who:<8} {where:<10} {e['t'] * 1000:7.0f}{err} ms  (media {clock(ev['media_s'])}, "
              f"frames {ev['between_frames'][0]}–{ev['between_frames'][1]})")
    print(f"  evidence: {', '.join(str(p) for p in op.outputs)}")
    return 0


def _live(args) -> int:
    import threading

    from cueref.gamelog import LogError
    from cueref.live import LiveReferee, LiveSource, is_loopback, make_server, median
    from cueref.pipeline import MediaError
    from cueref.table import table_for

    players = _players(args.players)
    if players is None or (args.breaker and args.breaker not in players):
        print("cueref live: --players needs two different names and --breaker one of them", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = args.out or Path("live")
    try:
        source = LiveSource(args.source, speed=args.speed, reconnect_s=args.reconnect_s)
        live = LiveReferee(source, args.game, table_for(args.table), out, players=players, breaker=args.breaker,
                           calibration=args.calibration, head=args.head)
        server = make_server(live, args.host, args.port, args.token)
    except (MediaError, LogError, OSError) as e:
        print(f"cueref live: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    host, port = server.server_address[:2]
    q = f"?token={server.token}" if server.token else ""
    print(f"cueref live: overlay http://{host}:{port}/{q} · operator http://{host}:{port}/operator{q} · "
          f"log {live.files.game}", file=sys.stderr, flush=True)
    if not is_loopback(args.host):
        print(f"cueref live: reachable from other machines: operator actions need the token {server.token}",
              file=sys.stderr, flush=True)
    threading.Thread(target=server.serve_forever, name="http", daemon=True).start()
    source.start()
    worker = threading.Thread(target=live.run, name="referee", daemon=True)
    worker.start()
    shown = len(live.referee.calls)
    said = ""
    try:
        while True:
            with live.changed:
                live.changed.wait(timeout=0.5)
            with live.lock:
                calls = live.referee.calls[shown:]
                shown = len(live.referee.calls)
            for c in calls:
                print(c.text, flush=True)
            if source.status.message != said:  # the stream's state: dropped, reconnected, ended
                said = source.status.message
                print(f"cueref live: {said}", file=sys.stderr, flush=True)
            if live.done.is_set() and args.exit_at_end:
                break
    except KeyboardInterrupt:
        pass
    finally:
        source.stop()
        server.shutdown()
    if live.latencies:
        print(f"cueref live: {len(live.latencies)} calls, latency after the balls stopped: median "
              f"{median(live.latencies):.2f} s, max {max(live.latencies):.2f} s", file=sys.stderr)
    if live.error:
        print(f"cueref live: {live.error}", file=sys.stderr)
    if live.error or source.status.lost:
        return EXIT_BAD_INPUT  # the calls made before it are in the log
    return 0


def _players(text: str) -> tuple[str, str] | None:
    names = tuple(x.strip() for x in text.split(","))
    return names if len(names) == 2 and all(names) and names[0] != names[1] else None


def _train(args) -> int:
    try:
        from vision import crops, train
    except ImportError as e:
        print(f"cueref train: needs the synth and train extras ({e.name} is missing)", file=sys.stderr)
        return EXIT_BAD_INPUT
    from cueref.progress import Progress

    data = args.data
    if data is None:
        data = args.workdir / "crops"
        if data.exists():
            import shutil
            shutil.rmtree(data)
        counts = crops.build(data, range(args.seed, args.seed + args.clips), frames_per_seed=args.frames,
                             moving_per_shot=args.moving, racks=range(args.seed + 1000, args.seed + 1000 + args.racks),
                             progress=Progress())
        print(json.dumps({"crops": counts}), file=sys.stderr)
    try:
        meta = train.train(data, args.out, epochs=args.epochs, seed=args.seed, workdir=args.workdir,
                           base=args.base, name=args.name)
    except ImportError as e:
        print(f"cueref train: needs torch and ultralytics (the train extra: {e.name} is missing)", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(meta))
    return 0


def _synth_module(name: str):
    """A benchmark module that needs the synth extra, or None after saying what is missing."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError as e:
        print(f"cueref bench: needs the synth extra ({e.name} is missing): run scripts/install-synth.sh",
              file=sys.stderr)
        return None


def _bench(args) -> int:
    result = None
    if args.target == "synth":
        bench = _synth_module("synth.bench")
        if bench is None:
            return EXIT_BAD_INPUT
        result = bench.run(frames=args.frames, repeats=args.repeats)
        print(bench.table(result))
    elif args.target == "vision":
        from vision import bench as vbench

        result = vbench.run(clips=args.clips, cameras=args.cameras)
        print(vbench.table(result))
    elif args.target == "track":
        tbench = _synth_module("tracking.bench")
        if tbench is None:
            return EXIT_BAD_INPUT
        from cueref.progress import Progress

        progress = Progress()
        seed = args.seed if args.seed is not None else tbench.HELD_OUT
        if args.ranges > 1:
            result = tbench.run_ranges(args.ranges, clips=args.clips, shots=args.shots, source=args.source,
                                       seed=seed, jobs=args.jobs, fps=args.fps,
                                       progress=lambda i, n: progress("ranges", i, n))
            print(tbench.ranges_table(result))
        else:
            result = tbench.run(clips=args.clips, shots=args.shots, source=args.source, seed=seed, fps=args.fps,
                                progress=lambda i, n: progress("games", i, n))
            print(tbench.table(result))
        if args.misses:
            errors = [e for r in result.get("ranges", [result]) for e in r["event_errors"]]
            with open(args.misses, "w") as f:
                for e in errors:
                    f.write(json.dumps(e) + "\n")
            print(f"{len(errors)} errors (events missed, extra, late; first contacts wrong) written to {args.misses}")
    elif args.target in ("review", "live"):
        from cueref import bench as pbench
        from cueref.pipeline import MediaError
        from cueref.table import table_for

        # The review: every video given, or both generated ones (the low bitrate that decodes
        # fastest, and a camera's that decodes as the floor's premise says); live: the first.
        videos = args.video or _bench_videos(2 if args.target == "review" else 1)
        if videos is None:
            return EXIT_BAD_INPUT
        try:
            rv = [pbench.run_review(v, args.game, table_for(args.table), args.repeats)
                  for v in videos] if args.target == "review" else None
            lv = pbench.run_live(videos[0], args.game, table_for(args.table)) if args.target == "live" or args.with_live else None
        except MediaError as e:
            print(f"cueref bench: {e}", file=sys.stderr)
            return EXIT_BAD_INPUT
        result = {"review": rv, "live": lv}
        print(pbench.table(rv, lv))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


# The generated benchmark videos: one 1080p60 nine-ball game (seed 7100, a lag and four shots)
# encoded at two qualities. CRF 18 (~20 Mbit/s) keeps the sensor noise, as a camera's recorder
# keeps it, and decodes here at 180-285 fps; CRF 17 (~45 Mbit/s, a camera's own recording
# bitrate) decodes at ~120-150 fps, the footage the review floor's premise describes (issue 6).
# (The default CRF 23 makes a 0.4 Mbit/s file that decodes ~4x faster still.)
BENCH_VIDEOS = ((Path("out/bench/1080p60/clip.mp4"), 18), (Path("out/bench/1080p60-crf17/clip.mp4"), 17))


def _bench_videos(n: int = 2) -> list[Path] | None:
    """The first `n` of `BENCH_VIDEOS`, each made once and kept in out/bench/ (the synth extra
    makes them); None after saying what is missing."""
    out = []
    for video, crf in BENCH_VIDEOS[:n]:
        if not video.exists():
            if _synth_module("synth.clip") is None:
                return None
            from synth.clip import make_clip

            print(f"cueref bench: generating a benchmark clip once (a 1080p60 nine-ball game, seed 7100, "
                  f"CRF {crf}): {video}", file=sys.stderr)
            make_clip("nine-ball", 4, 7100, video.parent, lag=True, resolution="1080p", fps=60, crf=crf)
        out.append(video)
    return out


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {n}")
    return n


def _media_args(p: argparse.ArgumentParser) -> None:
    """The picture and the table it shows, as calibrate and detect take them."""
    p.add_argument("media", type=Path, metavar="IMAGE_OR_VIDEO",
                   help="an image, a video, or (track) the JSON Lines `cueref detect` wrote")
    p.add_argument("--table", choices=list(TABLES), default="9ft")
    p.add_argument("--head", choices=["auto", "left", "right", "top", "bottom"], default="auto",
                   help="the image side the head cushion is on (auto: away from a rack, or where a few balls "
                        "wait by the head string; else the image's left/top end)")


def _match_args(p: argparse.ArgumentParser, breaker: bool = True) -> None:
    """What review, check and live need to know of the match and the camera."""
    p.add_argument("--game", choices=GAMES, required=True)
    p.add_argument("--table", choices=list(TABLES), default="9ft")
    p.add_argument("--players", default="A,B", help="the two players, comma-separated (the lag's left ball first)")
    if breaker:
        p.add_argument("--breaker", help="who breaks when no lag is seen (default: the first player)")
    p.add_argument("--calibration", type=Path, help="a saved or manual calibration instead of finding the table")
    p.add_argument("--head", choices=["auto", "left", "right", "top", "bottom"], default="auto",
                   help="the image side the head cushion is on (auto: found from the first frame)")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cueref", description="A computer-vision referee for pool.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    a = sub.add_parser(
        "adjudicate", help="rule every lag and shot of a game log (JSON Lines)",
        description="Rule every lag and shot of a game log (the cueref/game-1 contract): one ruling "
                    "per line on stdout, in order. Bad input: exit status 2 with the line and field; "
                    "rulings already printed stay printed.")
    a.add_argument("log", metavar="GAME.jsonl", help="the game log; '-' reads standard input")
    a.add_argument("--explain", action="store_true", help="print one readable line per lag or shot instead of JSON")
    a.set_defaults(func=_adjudicate)

    g = sub.add_parser(
        "synth", help="generate ground truth: physics-simulated shots rendered as overhead video",
        description="Play a game with simulated players (pooltool physics), render it as an overhead "
                    "camera sees it, and write the video with its ground truth: clip.mp4, game.jsonl "
                    "(shot records from the physics), rulings.jsonl (the adjudicator's), truth.json "
                    "(camera, shots), frames.jsonl (per-frame ball centres, pixels and mm, visibility) "
                    "and, with --yolo-every, a YOLO dataset. The same seed gives the same clip.")
    g.add_argument("--game", choices=GAMES,
                   default="nine-ball")
    g.add_argument("--shots", type=int, default=10, help="shots to play (after the lag, if any)")
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--out", type=Path, required=True, help="folder to write the clip into")
    g.add_argument("--resolution", choices=["720p", "1080p", "4k"], default="1080p")
    g.add_argument("--fps", type=int, choices=[30, 60, 120], default=60)
    g.add_argument("--table", choices=list(TABLES), default="9ft")
    g.add_argument("--lag", action="store_true", help="start with a lag for the break (WPA 1.2)")
    g.add_argument("--scenarios", action="store_true",
                   help="instead of a game: one staged shot of every scenario type (fouls, jumps, lags...)")
    g.add_argument("--yolo-every", type=int, default=0, metavar="N",
                   help="export every Nth frame as a YOLO image + labels, and ball crops")
    g.add_argument("--crf", type=int, default=23, help="H.264 quality: 23 smooths the sensor noise away (small "
                                                       "files); 18 keeps it, ~20 Mbit/s at 1080p60, as a camera's "
                                                       "recorder does")
    g.add_argument("--quiet", action="store_true", help="no progress bar")
    g.set_defaults(func=_synth)

    c = sub.add_parser("calibrate", help="find the table in an image or a video's first frame",
                       description="Calibrate the camera from the picture: the cushion nose lines, the lens's "
                                   "radial distortion, the camera pose; prints the calibration as JSON and "
                                   "saves it with --out (for --calibration elsewhere).")
    _media_args(c)
    c.add_argument("--at", type=float, default=0.0, metavar="SECONDS",
                   help="for a video: calibrate on the frame at this time (a frame with the rack tells the head)")
    c.add_argument("--out", type=Path, help="save the calibration here")
    c.set_defaults(func=_calibrate)

    d = sub.add_parser("detect", help="ball observations (JSON Lines) from an image or a video",
                       description="Find the table, then every ball on the bed: one JSON line per ball per frame "
                                   "with the frame, the ball (or 'unknown'), class probabilities, the centre in "
                                   "pixels and in table mm, and its uncertainty.")
    _media_args(d)
    d.add_argument("--calibration", type=Path, help="a saved or manual calibration instead of finding the table")
    d.add_argument("--save-calibration", type=Path, help="save the calibration found")
    d.add_argument("--every", type=_positive, default=1, metavar="N", help="every Nth frame of a video")
    d.add_argument("--game", choices=GAMES,
                   help="only name the balls this game has")
    d.set_defaults(func=_detect)

    k = sub.add_parser("track", help="lag and shot records (JSON Lines) from a video or saved observations",
                       description="Track the balls (Kalman filters, Hungarian association by position and "
                                   "identity), cut the video into lags and shots, and print each record of the "
                                   "cueref/game-1 contract as it completes: events timed from the raw "
                                   "observations with their uncertainty, positions at the strike and at rest, "
                                   "the frames as evidence. With --game a header line comes first, so the "
                                   "output is a game log for `cueref adjudicate`.")
    _media_args(k)
    k.add_argument("--calibration", type=Path, help="a saved or manual calibration instead of finding the table")
    k.add_argument("--game", choices=GAMES, help="print a game-log header for this game first "
                                                 "(and name only its balls)")
    k.add_argument("--players", default="A,B", help="with --game: the players, comma-separated")
    k.add_argument("--fps", type=float, help="frames per second (default: the video's; 60 for observations)")
    k.set_defaults(func=_track)

    r = sub.add_parser("review", help="review a recorded match: game log, rulings, HTML report (CSV too)",
                       description="Process a recorded match faster than real time: vision, tracking and the "
                                   "adjudicator. Prints each call as it is made and writes DIR/game.jsonl (the lag "
                                   "and shot records), DIR/rulings.jsonl, DIR/report.html (timeline, verdicts with "
                                   "their articles, trajectory pictures, key frames of each first contact, the "
                                   "score) and, with --format csv, DIR/rulings.csv. Run again with the same --out "
                                   "after an interruption: finished shots are kept and the video resumes after "
                                   "the last one.")
    r.add_argument("video", type=Path, metavar="VIDEO")
    _match_args(r)
    r.add_argument("--out", type=Path, metavar="DIR", help="output folder (default: review/<video name>)")
    r.add_argument("--format", choices=["html", "csv", "all"], default="html",
                   help="the report: HTML (default), CSV for spreadsheets, or both")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.set_defaults(func=_review)

    ch = sub.add_parser("check", help="a referee's second opinion on one shot, with its evidence",
                        description="Reconstruct the shot under way at --at (or the next one; without --at the "
                                    "first shot in the video), rule it, and show the evidence: each contact's "
                                    "measured time with its uncertainty, the frames either side of it cropped "
                                    "around where it happened, the trajectories, and the benefit of the doubt "
                                    "(WPA Reg 25, 3.2) where the measurements cannot separate two events. "
                                    "Writes DIR/check.html, DIR/check.json and DIR/frames/.")
    ch.add_argument("video", type=Path, metavar="VIDEO")
    _match_args(ch, breaker=False)
    ch.add_argument("--at", metavar="TIME", help="media time of the shot: 12:31, 1:02:03 or seconds")
    ch.add_argument("--log", type=Path, help="the game log so far (a review's game.jsonl): who shoots, the "
                                             "legal ball, ball in hand; its folder's calibration is used too")
    ch.add_argument("--out", type=Path, metavar="DIR", help="evidence folder (default: check/<video>-<time>)")
    ch.add_argument("--json", action="store_true", help="print the opinion as one JSON object")
    ch.set_defaults(func=_check)

    lv = sub.add_parser("live", help="live referee: calls as the balls stop, a web overlay and operator controls",
                        description="Referee a live table: frames from a camera, a stream or a file (played at its "
                                    "own pace), a call within a second of the balls stopping, every call synced to "
                                    "OUT/game.jsonl and OUT/rulings.jsonl (restart with the same --out to carry on "
                                    "the game). Serves the scoreboard and last call at / (a browser source for "
                                    "streaming software) and operator controls at /operator: called ball and "
                                    "pocket, push out, safety, extension, the incoming player's choices, an "
                                    "override with a reason. Reconnects when the stream drops.")
    lv.add_argument("--source", required=True, help="camera index (0), a stream URL (rtsp://…, http://…) or a video file")
    _match_args(lv)
    lv.add_argument("--out", type=Path, help="folder for the game log (default: ./live)")
    lv.add_argument("--host", default="127.0.0.1", help="address to serve on (default localhost only)")
    lv.add_argument("--port", type=int, default=8080, help="port (0: any free one)")
    lv.add_argument("--token", help="operator token (made up and printed when --host is not loopback)")
    lv.add_argument("--speed", type=float, default=1.0, help="a file source: play at this multiple of real time")
    lv.add_argument("--reconnect-s", type=float, default=300.0, help="give up after this long without a picture")
    lv.add_argument("--exit-at-end", action="store_true", help="stop when the source ends (a file), instead of "
                                                                "serving the page until Ctrl-C")
    lv.set_defaults(func=_live)

    tr = sub.add_parser("train", help="train the ball classifier (ultralytics) and export it to ONNX",
                        description="Render labelled ball crops from synthetic clips (or use --data, a folder "
                                    "of train/ and val/ class folders, e.g. crops of your own table), train an "
                                    "ultralytics classifier on the CPU, export ONNX with its card data to models/.")
    tr.add_argument("--data", type=Path, help="an existing classification dataset instead of rendering one")
    tr.add_argument("--clips", type=int, default=80, help="synthetic clips to cut crops from")
    tr.add_argument("--frames", type=int, default=10, help="frames per clip, spread over its shots")
    tr.add_argument("--moving", type=int, default=0,
                    help="frames per shot in its first half second, cropping the moving (blurred) balls only, "
                         "with half the clips at 30 fps and every crop at its streak's middle (0: the shipped "
                         "model's recipe; see models/README.md)")
    tr.add_argument("--racks", type=int, default=0,
                    help="more clips cropped at their rack only, before the break (seeds from --seed + 1000; "
                         "0: the shipped model's recipe; tried with 160, see models/README.md)")
    tr.add_argument("--epochs", type=_positive, default=40)
    tr.add_argument("--seed", type=int, default=2000, help="first clip seed (held-out evaluation uses others)")
    tr.add_argument("--base", default="yolov8n-cls.yaml",
                    help="architecture .yaml (from scratch) or a .pt to fine-tune, e.g. models/ball-classifier.pt")
    tr.add_argument("--out", type=Path, default=Path("models"))
    tr.add_argument("--name", default="ball-classifier",
                    help="the model's file name in --out (ball-classifier-blurred: the blurred balls' "
                         "classifier, trained with --moving 4; see models/README.md)")
    tr.add_argument("--workdir", type=Path, default=Path("out/train"))
    tr.set_defaults(func=_train)

    b = sub.add_parser("bench", help="measure speed: prints a table, optionally writes JSON",
                       description="Benchmarks (not tests): each prints a table of medians measured in one run.")
    b.add_argument("target", choices=["synth", "vision", "track", "review", "live"],
                   help="synth: physics per shot, render/encode fps; vision: detection, identification, "
                        "centre error, calibration and fps on held-out synthetic frames; track: events, "
                        "first contacts, pockets, rulings and tracking on held-out generated games; review: "
                        "review throughput against decoding the same video alone; live: call latency at real time")
    b.add_argument("--source", choices=["sim", "perfect", "vision"], default="sim",
                   help="track: observations from the simulated detector, exact ones, or rendered frames "
                        "through the real detector (slow)")
    b.add_argument("--shots", type=int, default=8, help="track: shots per game")
    b.add_argument("--fps", type=int, default=60, choices=[30, 60],
                   help="track: the camera's frame rate (the floors are set at 60; a stream is often 30)")
    b.add_argument("--clips", type=int, default=6, help="vision: held-out clips")
    b.add_argument("--cameras", type=int, default=100,
                   help="vision: random cameras and looks the automatic calibration is surveyed on (0: none)")
    b.add_argument("--frames", type=int, default=120)
    b.add_argument("--seed", type=int, help="track: the first game's seed (default 7000; the events were "
                                            "developed on 7000-7019 and 8000-8019: other ranges are unseen)")
    b.add_argument("--ranges", type=int, default=1,
                   help="track: seed ranges to run (--seed, --seed + 1000, ...), one row each and totals")
    b.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                   help="track --ranges: ranges run at once, each in a process of its own")
    b.add_argument("--misses", type=Path,
                   help="track: write every missed, extra and late event (JSON Lines: the clip, the seed, "
                        "the record, whether a break, the event, the physics' velocities around it) and every "
                        "wrong first contact here")
    b.add_argument("--repeats", type=int, default=3)
    b.add_argument("--video", type=Path, action="append",
                   help="review, live: the video, or videos (repeated; default: a generated 1080p60 game at "
                        "two bitrates, the second decoding as the review floor's premise says; live: the first)")
    b.add_argument("--game", choices=GAMES, default="nine-ball", help="review, live: its game")
    b.add_argument("--table", choices=list(TABLES), default="9ft")
    b.add_argument("--with-live", action="store_true", help="review: also measure live latency (real time)")
    b.add_argument("--json", type=Path, help="also write the result here")
    b.set_defaults(func=_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as Unix tools do.
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
