"""Ground truth (synth/): the physics, the staged scenarios, the renderer and the committed sample
agree with each other and with the camera model; a seed reproduces its clip."""
import json
import math
import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pooltool", reason="the synth extra is not installed (scripts/install-synth.sh)")

from adjudicate.engine import new_game, step  # noqa: E402
from cueref.camera import Camera, overhead  # noqa: E402
from cueref.records import parse_entry, parse_header  # noqa: E402
from cueref.table import Table  # noqa: E402
from synth.clip import make_clip, play, play_staged  # noqa: E402
from synth.physics import Strike, aim_direction, simulate  # noqa: E402
from synth.render import BallDraw, Look, Renderer  # noqa: E402
from synth.staged import stages  # noqa: E402

T = Table()
D = T.ball_diameter_mm
SAMPLE = Path(__file__).resolve().parents[1] / "datasets" / "sample"


def test_physics_events_agree_with_the_trajectories():
    pos = {"cue": (800.0, 500.0), "3": (1500.0, 620.0), "9": (2200.0, 1000.0)}
    sim = simulate(T, pos, Strike(3.0, aim_direction(pos["cue"], pos["3"]) + 2.0))
    kinds = {e["type"] for e in sim.events}
    assert {"strike", "collision", "cushion", "stop"} <= kinds
    for e in sim.events:
        if e["type"] == "collision":
            a, b = (sim.tracks[x].at(e["t"]) for x in e["balls"])
            assert math.dist(a, b) == pytest.approx(D, abs=1.5)  # the balls touch at the event time
        elif e["type"] == "cushion":
            x, y = sim.tracks[e["ball"]].at(e["t"])
            gap = {"head": x, "foot": T.length_mm - x, "left": y, "right": T.width_mm - y}[e["rail"]]
            assert gap == pytest.approx(T.R, abs=6.0)  # the centre a radius from that rail
    assert sim.events[-1]["type"] == "stop" and sim.events[-1]["t"] == pytest.approx(sim.duration, abs=1e-3)
    for b, tr in sim.tracks.items():
        if b in sim.after:
            assert tuple(tr.xy[-1]) == pytest.approx(sim.after[b])
            assert np.linalg.norm(tr.xy[-1] - tr.xy[-5]) < 0.5  # at rest at the end
    assert sim.before == pos


def _surface_gap(a, b) -> tuple[np.ndarray, np.ndarray]:
    """Two balls' physics tracks: the times of the first's samples and the gap between their
    surfaces there (mm)."""
    other = np.stack([np.interp(a.t, b.t, b.xy[:, i]) for i in (0, 1)], 1)
    return a.t, np.hypot(*(a.xy - other).T) - D


def test_two_balls_that_never_part_meet_once_in_the_truth():
    # Seed 17008's straight-pool opening break: the 4 and the 7, frozen in the rack, are set off
    # together and stay in touch to the end; pooltool resolves that as 249 collisions 5 ms apart.
    # A camera and a referee see one contact: between two contacts of a pair the balls part.
    x = [1905.0, 1954.4933518262806, 2003.9867036525613, 2053.480055478842, 2102.9734073051227]
    rack = {"9": (x[0], 635.0), "13": (x[1], 606.425), "2": (x[1], 663.575), "10": (x[2], 577.85), "8": (x[2], 635.0),
            "1": (x[2], 692.15), "12": (x[3], 549.275), "5": (x[3], 606.425), "11": (x[3], 663.575),
            "4": (x[3], 720.725), "3": (x[4], 520.7), "15": (x[4], 577.85), "6": (x[4], 635.0), "14": (x[4], 692.15),
            "7": (x[4], 749.3), "cue": (498.1469209336423, 625.4633899082469)}
    sim = simulate(T, rack, Strike(2.220977364521629, -3.9810685112104034, side=-0.09323671774554196))
    t, gap = _surface_gap(sim.tracks["4"], sim.tracks["7"])
    assert t[gap < 0.01].max() - t[gap < 0.01].min() > 1.0  # in touch for more than a second
    met = [e["t"] for e in sim.events if e["type"] == "collision" and sorted(e["balls"]) == ["4", "7"]]
    assert len(met) == 1
    last: dict = {}
    for e in sim.events:
        if e["type"] != "collision":
            continue
        pair = tuple(sorted(e["balls"]))
        if pair in last:
            t, gap = _surface_gap(*(sim.tracks[x] for x in pair))
            between = (t > last[pair]) & (t < e["t"])
            assert gap[between].max(initial=0.0) > 0.01, f"{pair} met at {last[pair]} and {e['t']} without parting"
        last[pair] = e["t"]


def test_a_pocketed_ball_leaves_the_table():
    pos = {"cue": (1500.0, 400.0), "3": (2300.0, 1030.0)}
    aim = aim_direction(pos["cue"], (2300.0 - D * 0.7, 1030.0 - D * 0.7))
    sim = simulate(T, pos, Strike(2.5, aim))
    pk = [e for e in sim.events if e["type"] == "pocket"]
    assert pk and pk[0]["ball"] == "3" and pk[0]["pocket"] == "foot-right"
    assert "3" not in sim.after
    tr = sim.tracks["3"]
    assert not tr.on_table[tr.t > pk[0]["t"] + 0.01].any()


@pytest.mark.parametrize("stage", stages(T), ids=lambda s: s.name)
def test_every_staged_scenario_produces_what_it_stages(stage):
    tl = play_staged(stage, seed=1)
    rulings, entries = tl.rulings, tl.entries
    events = [e for r in entries if r["kind"] in ("shot", "lag") for e in r["events"]]
    kind, _, what = stage.expect.partition(":")
    last = rulings[-1]
    if kind == "break":
        # The break from the game's full rack: ruled as a break, and the cue ball reached the rack.
        brk = entries[-1]
        assert last["break"] is True and len([b for b in brk["before"] if b != "cue"]) >= 9
        assert any(e["type"] == "collision" and "cue" in e["balls"] for e in events)
        assert sum(1 for b in brk["before"] if b != "cue" and brk["before"][b] != brk["after"].get(b)) >= 4
    elif kind == "event":
        assert any(e["type"] == what for e in events)
    elif kind == "foul":
        assert what in [f["code"] for f in last["fouls"]]
    elif kind == "legal":
        assert last["legal"] is True
    elif kind == "push_out":
        assert last["push_out"] is True and last["legal"] is True
    elif kind == "lag":
        lag = rulings[0]
        if what == "winner":
            assert lag["winner"] in ("left", "right")
        elif what in ("late_strike", "too_close", "both_disqualified"):
            assert what in lag["relag_reasons"]
        else:
            assert any(what in v for v in lag["disqualified"].values())
    assert all("warnings" not in r for r in rulings)


def test_staged_jumps_fly_over_the_blocker():
    st = {s.name: s for s in stages(T)}
    clean = play_staged(st["jump-clean"], seed=1)
    seg = clean.segments[0]
    air = next(e for e in seg.sim.events if e["type"] == "airborne")
    cue = seg.sim.tracks["cue"]
    mid = (air["t"] + air["until"]) / 2
    assert np.interp(mid, cue.t, cue.h) > 2 * T.R  # the cue ball's centre above a ball's top... nearly
    assert not any(e["type"] == "collision" and "5" in e["balls"] for e in seg.sim.events)
    clipped = play_staged(st["jump-clipped"], seed=1).segments[0]
    touch = next(e for e in clipped.sim.events if e["type"] == "collision" and "5" in e["balls"])
    assert air["t"] <= touch["t"] <= air["until"]


@pytest.mark.parametrize("game", ["eight-ball", "nine-ball", "ten-ball", "straight-pool", "rotation-61"])
def test_every_game_plays_from_its_rack_and_the_log_replays_to_the_same_rulings(game):
    tl = play(game, 5, seed=11)
    hdr = parse_header(tl.header)
    st = new_game(hdr)
    again = []
    for e in tl.entries:
        r, st = step(st, parse_entry(json.loads(json.dumps(e)), hdr))
        if r is not None:
            again.append(r.to_dict())
    assert again == tl.rulings
    assert all("warnings" not in r for r in again)  # each shot starts where the referee says
    brk = next(e for e in tl.entries if e["kind"] == "shot")
    assert len([b for b in brk["before"] if b != "cue"]) == {"nine-ball": 9, "ten-ball": 10}.get(game, 15)


def test_a_ball_pressed_into_a_cushion_is_set_against_it_and_one_in_the_jaws_left_there():
    # pooltool may leave a ball resting a few millimetres into a cushion's rubber: it is put back
    # against the face. A ball that goes into a corner pocket's mouth, off its jaws, and comes to
    # rest hanging in them (WPA 2.2) keeps its path and its place: its contacts there are at the
    # jaws (seed 8013's cue ball had its whole track moved onto the bed's rectangle, its jaw
    # contacts a radius from the noses' lines, 6-21 mm from any cushion). A ball over a rail in
    # the air is not touched.
    from synth.clip import _at_rest_on_the_table, _settle_into_bed
    from synth.physics import BallTrack, ShotSim

    R = T.R
    t = np.arange(5) * 0.01
    pressed = np.array([[900.0, 200.0], [900.0, 120.0], [900.0, 40.0], [900.0, R - 4.0], [900.0, R - 4.0]])
    jaws = np.array([[2400.0, 1100.0], [2480.0, 1180.0], [2518.7, 1206.6], [2538.0, 1231.8], [2525.3, 1224.3]])
    flying = np.array([[1500.0, 1150.0], [1500.0, 1230.0], [1500.0, 1265.0], [1500.0, 1300.0], [1500.0, 1340.0]])
    tracks = {"1": BallTrack(t, pressed.copy(), np.full(5, R), np.zeros((5, 3)), np.ones(5, bool)),
              "2": BallTrack(t, jaws.copy(), np.full(5, R), np.zeros((5, 3)), np.ones(5, bool)),
              "3": BallTrack(t, flying.copy(), np.array([R, R + 40, R + 60, R + 40, R]), np.zeros((5, 3)), np.ones(5, bool))}
    sim = ShotSim(0.04, [], tracks, {}, {"1": tuple(pressed[-1]), "2": tuple(jaws[-1]), "3": tuple(flying[-1])})
    _settle_into_bed(sim, T)
    assert sim.after["1"] == pytest.approx((900.0, R)) and tracks["1"].xy[3] == pytest.approx((900.0, R))
    assert tracks["1"].xy[:3] == pytest.approx(pressed[:3])
    # (Its samples touching the jaws, rounded here to 0.1 mm, are at most that far in.)
    assert tracks["2"].xy == pytest.approx(jaws, abs=0.05) and sim.after["2"] == pytest.approx(tuple(jaws[-1]))
    assert _at_rest_on_the_table(T, sim.after["2"]) and not T.on_bed(sim.after["2"], slack=1.0)
    assert (tracks["3"].xy[1:4] == flying[1:4]).all()
    assert not _at_rest_on_the_table(T, (1500.0, 1340.0)) and not _at_rest_on_the_table(T, (5336.8, 1192.5))


def test_a_shot_the_physics_keeps_losing_a_ball_on_is_replaced_by_another(monkeypatch):
    # Seed 11000's eight-ball game: pooltool left a ball at rest 2.8 m off the table however the
    # shot was softened, and the whole benchmark died. Such a shot is replaced by another from the
    # same table; a game that never meets one is the same as before.
    import synth.clip as clip

    before = play("nine-ball", 3, seed=5)
    real = clip._settle_into_bed
    calls = {"n": 0}

    def glitch(sim, table):  # the first shot's four tries all lose the 1 through a cushion
        real(sim, table)
        calls["n"] += 1
        if calls["n"] <= 4 and "1" in sim.after:
            sim.after["1"] = (5336.8, 1192.5)

    monkeypatch.setattr(clip, "_settle_into_bed", glitch)
    tl = play("nine-ball", 3, seed=5)
    assert calls["n"] > 4 and len([e for e in tl.entries if e["kind"] == "shot"]) == 3
    assert all(T.on_bed(p, slack=1.0) for e in tl.entries if e["kind"] == "shot" for p in e["before"].values())
    assert json.dumps(tl.entries) != json.dumps(before.entries)  # another first shot was played
    monkeypatch.setattr(clip, "_settle_into_bed", real)
    assert json.dumps(play("nine-ball", 3, seed=5).entries) == json.dumps(before.entries)
    calls["n"] = 0
    monkeypatch.setattr(clip, "_settle_into_bed", glitch)
    monkeypatch.setattr(clip, "REPLANS", 0)
    with pytest.raises(clip.PhysicsGlitch, match="failed four times running .a ball left off the bed"):
        play("nine-ball", 3, seed=5)


def test_a_shot_pooltool_fails_its_own_check_on_is_played_again_softer(monkeypatch):
    # Seed 10009's sixth shot, on the table with WPA's mouth angles: pooltool's compliant cushion
    # model failed its assertion that the ball comes into the cushion, and `cueref bench track
    # --ranges 4` died after seven minutes. The shot is played again softer, as for a ball lost
    # through a cushion; four failures replan it.
    import pooltool as pt

    import synth.clip as clip

    real = pt.simulate
    speeds = []

    def failing(system, *a, **kw):
        speeds.append(system.cue.V0)
        if len(speeds) == 1:
            raise AssertionError
        return real(system, *a, **kw)

    monkeypatch.setattr(pt, "simulate", failing)
    tl = play("nine-ball", 2, seed=5)
    assert len([e for e in tl.entries if e["kind"] == "shot"]) == 2
    assert speeds[1] == pytest.approx(0.85 * speeds[0])

    def always(system, *a, **kw):
        raise AssertionError

    monkeypatch.setattr(pt, "simulate", always)
    monkeypatch.setattr(clip, "REPLANS", 0)
    with pytest.raises(clip.PhysicsGlitch, match="failed four times running .pooltool failed on its own check"):
        play("nine-ball", 2, seed=5)


def test_the_tracking_benchmark_skips_a_game_the_physics_cannot_play_and_says_so(monkeypatch):
    # Seed 16009's rotation game: every replanned third shot lost the 10 through a cushion, and
    # `cueref bench track --seed 16000` died with a traceback after nine games. The game is left
    # out and named; the others are measured as before.
    import synth.clip as clip
    from tracking import bench

    real = clip.play

    def play(game, shots, seed, **kw):
        if seed == 500:
            raise clip.PhysicsGlitch("the physics left a ball off the bed four times running: {'10': (16633.1, -2434.5)}")
        return real(game, shots, seed, **kw)

    monkeypatch.setattr(clip, "play", play)
    r = bench.run(clips=2, shots=1, seed=500)
    assert r["clips"] == 1 and [k["seed"] for k in r["skipped"]] == [500]
    assert r["records"]["truth"] >= 1 and r["records"]["found"] == r["records"]["truth"]  # seed 501 measured
    assert "seed 500 (eight-ball) skipped: the physics left a ball off the bed" in bench.table(r)


def test_the_ground_truth_runs_the_same_blas_kernels_on_every_x86_machine():
    # OpenBLAS picks its kernels by CPU, and pooltool's games follow their rounding: the same
    # seeds gave 5,046 collisions on one machine and 5,040 on another (7000-10019). Importing the
    # generator pins the AVX2 ones ("Haswell") where nothing chose; a choice made is kept.
    if platform.machine().lower() not in ("x86_64", "amd64"):
        pytest.skip("the kernels are pinned on x86-64 only")
    code = "import synth.clip, cueref; print(cueref.blas_kernels())"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    got = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1]).stdout.strip()
    if got == "None":
        pytest.skip("numpy does not bundle OpenBLAS here")
    assert got == "Haswell"
    env["OPENBLAS_CORETYPE"] = "Sandybridge"
    assert subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[1]).stdout.strip() == "Sandybridge"


def test_a_seed_reproduces_the_game_and_another_seed_does_not():
    a = play("nine-ball", 4, seed=5)
    b = play("nine-ball", 4, seed=5)
    c = play("nine-ball", 4, seed=6)
    assert json.dumps(a.entries) == json.dumps(b.entries)
    assert json.dumps(a.entries) != json.dumps(c.entries)


def test_rendered_centres_land_where_the_camera_projects_them():
    cam = overhead(T, 1280, 720, tilt_deg=(3.0, -2.0), roll_deg=1.5, k1=-0.06, k2=0.01)
    look = Look.random(np.random.default_rng(0))
    look.noise = 0.0
    look.light_dir = (0.0, 0.0, 1.0)  # light straight down: shading and shadow centred on the ball
    rend = Renderer(T, cam, look, seed=0)
    rend._noise = [(np.zeros_like(rend.background), np.zeros_like(rend.background))]
    rend.shadows = False  # a shadow lies on the cloth, displaced by parallax: measure the ball alone
    empty, _ = rend.render([])
    for xy in [(300.0, 200.0), (1270.0, 635.0), (2300.0, 1100.0)]:
        img, _ = rend.render([BallDraw("3", xy, T.R, np.eye(3))])
        diff = np.abs(img.astype(int) - empty.astype(int)).sum(axis=2)
        c, r = rend.ball_pixel(xy, T.R)
        ys, xs = np.mgrid[0:img.shape[0], 0:img.shape[1]]
        near = (xs - c[0]) ** 2 + (ys - c[1]) ** 2 <= (r * 0.9) ** 2
        assert diff[near].mean() > 40  # the ball is drawn there
        drawn = (diff > 25) & ((xs - c[0]) ** 2 + (ys - c[1]) ** 2 <= (r * 1.3) ** 2)  # the ball, not its shadow
        cx, cy = xs[drawn].mean(), ys[drawn].mean()
        assert math.hypot(cx - c[0], cy - c[1]) < 0.5  # its centre where the camera projects it


def test_a_moving_balls_streak_is_its_travel_over_one_exposure_ending_at_the_truth():
    from synth.clip import Scene

    tl = play("nine-ball", 1, 9601)
    seg = tl.segments[0]
    for fps in (60, 30):
        scene = Scene(tl, 1280, 720, 9601, fps)
        t = seg.t0 + 0.1
        _, _, truth = scene.frame(t)
        streaks = scene.streaks()
        assert set(streaks) == set(truth)
        cue = seg.sim.tracks["cue"]
        tau = t - seg.t0
        travel_mm = math.hypot(*np.subtract(cue.at(tau), cue.at(tau - 1.0 / fps)))
        st = streaks["cue"]
        assert travel_mm > 30.0 and len(st) >= 2  # moving: a streak, not a point
        r = scene.renderer.ball_pixel(cue.at(tau), T.R)[1]
        assert np.hypot(*(st[0] - truth["cue"][:2])) < 0.02  # it ends where the truth's centre is
        # It spans the exposure (one frame) but the last sub-sample's share of it.
        length_mm = math.hypot(*np.subtract(st[0], st[-1])) * T.R / r
        assert length_mm == pytest.approx(travel_mm * (len(st) - 1) / len(st), rel=0.05)
        resting = [b for b, tr in seg.sim.tracks.items() if b != "cue" and math.hypot(
            *np.subtract(tr.at(tau), tr.at(max(tau - 1.0 / fps, 0.0)))) < 1.0]
        assert resting and all(len(streaks[b]) == 1 for b in resting)


def test_the_committed_sample_is_self_consistent():
    truth = json.loads((SAMPLE / "truth.json").read_text())
    cam = Camera.from_dict(truth["camera"])
    frames = [json.loads(x) for x in (SAMPLE / "frames.jsonl").read_text().splitlines()]
    assert len(frames) == truth["frames"]
    # Pixel centres are the camera's projection of the table positions.
    for fr in frames[:: max(1, len(frames) // 50)]:
        for u, v, x, y, h, vis in fr["balls"].values():
            assert tuple(cam.project(np.array([[x, y, h]]))[0]) == pytest.approx((u, v), abs=0.02)
            assert 0.0 <= vis <= 1.0
    # The shot records agree with the trajectories: before = the frame at the strike, and a
    # pocketed ball is gone from every frame after its pocket time.
    log = [json.loads(x) for x in (SAMPLE / "game.jsonl").read_text().splitlines()]
    fps = truth["fps"]
    kinds = [s["kind"] for s in truth["shots"] if not s["kind"].startswith("lag")]
    for rec, kind in zip((e for e in log[1:] if e["kind"] == "shot"), kinds):
        f0 = rec["evidence"]["frames"][0]
        assert frames[f0]["t"] <= rec["t0"] < frames[f0]["t"] + 1.0 / fps  # the last frame before the strike
        at = frames[f0]["balls"]
        for b, p in rec["before"].items():
            if kind != "moving":  # a shot struck while balls still roll starts from moving balls
                assert math.dist(p, at[b][2:4]) < 0.5
        for e in rec["events"]:
            if e["type"] == "pocket":
                k = int(math.ceil((rec["t0"] + e["t"]) * fps)) + 1
                end = rec["evidence"]["frames"][1]
                assert all(e["ball"] not in frames[j]["balls"] for j in range(k, min(end, len(frames))))
        end = min(rec["evidence"]["frames"][1], len(frames) - 1)
        for b, p in rec["after"].items():
            assert math.dist(p, frames[end]["balls"][b][2:4]) < 1.0
    # The expected rulings are the adjudicator's rulings of the log.
    hdr = parse_header(log[0])
    st = new_game(hdr)
    rulings = [json.loads(x) for x in (SAMPLE / "rulings.jsonl").read_text().splitlines()]
    got = []
    for e in log[1:]:
        r, st = step(st, parse_entry(e, hdr))
        if r is not None:
            got.append(r.to_dict())
    assert got == rulings


def test_make_clip_writes_a_decodable_video_and_yolo_labels_and_a_seed_reproduces_it(tmp_path):
    import cv2

    truth = make_clip("ten-ball", 1, seed=3, out=tmp_path, resolution="720p", fps=30, yolo_every=20)
    again = make_clip("ten-ball", 1, seed=3, out=tmp_path / "again", resolution="720p", fps=30)
    assert again == truth
    assert (tmp_path / "frames.jsonl").read_text() == (tmp_path / "again" / "frames.jsonl").read_text()
    assert (tmp_path / "game.jsonl").read_text() == (tmp_path / "again" / "game.jsonl").read_text()
    cap = cv2.VideoCapture(str(tmp_path / "clip.mp4"))
    n = 0
    while True:
        ok, img = cap.read()
        if not ok:
            break
        n += 1
        assert img.shape == (720, 1280, 3)
    assert abs(n - truth["frames"]) <= 1
    labels = sorted((tmp_path / "yolo" / "labels").glob("*.txt"))
    assert labels and (tmp_path / "yolo" / "data.yaml").exists()
    rows = [ln.split() for p in labels for ln in p.read_text().splitlines()]
    assert rows and all(0 <= int(r[0]) <= 15 and all(0 < float(v) < 1 for v in r[1:]) for r in rows)
    assert any((tmp_path / "yolo" / "crops").iterdir())


FORCED = {"jump_clean": 0.2, "jump_clipped": 0.2, "off_table": 0.2, "disturbed": 0.2, "moving": 0.2}


# (Seed 100's game, on the table with WPA's mouth angles, realised none of them: each of its
# four shots fell back to a pot; seed 104's none once balls may rest in the jaws.)
@pytest.mark.parametrize("seed", [101, 102, 103, 105])
def test_the_truth_stays_physical_when_the_extras_are_forced(seed):
    """Balls never pass through each other (in 3-D, away from a recorded contact), stay on or
    above the cloth, and never move faster than a break; lags never cross through each other."""
    tl = play("nine-ball", 6, seed=seed, lag=True, kinds=FORCED)
    for seg in tl.segments:
        sim = seg.sim
        t = np.arange(0.0, sim.duration, 0.002)
        pos = {}
        for b, tr in sim.tracks.items():
            on = np.interp(t, tr.t, tr.on_table.astype(float)) > 0.999
            if tr.gone_at is not None:
                on &= t < tr.gone_at
            pos[b] = (np.interp(t, tr.t, tr.xy[:, 0]), np.interp(t, tr.t, tr.xy[:, 1]), np.interp(t, tr.t, tr.h), on)
            h = pos[b][2][on]
            assert h.size == 0 or h.min() >= T.R - 0.5, (seg.plan.kind if seg.plan else "lag", b)
            step = np.hypot(np.diff(pos[b][0]), np.diff(pos[b][1]))[on[1:] & on[:-1]]
            assert step.size == 0 or step.max() / 0.002 < 14000.0, b  # mm/s: faster than any break
        contacts = {}
        for e in sim.events:
            if e["type"] == "collision":
                contacts.setdefault(tuple(sorted(e["balls"])), []).append(e["t"])
        names = sorted(pos)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                xa, ya, ha, oa = pos[a]
                xb, yb, hb, ob = pos[b]
                both = oa & ob
                for tc in contacts.get((a, b), []):
                    both &= np.abs(t - tc) > 0.01
                d = np.sqrt((xa - xb) ** 2 + (ya - yb) ** 2 + (ha - hb) ** 2)[both]
                assert d.size == 0 or d.min() >= D - 1.0, (seg.plan.kind if seg.plan else "lag", a, b, float(d.min()))
    realised = {s.plan.kind for s in tl.segments if s.plan}
    assert realised & set(FORCED)  # the extras were exercised, not all dropped
