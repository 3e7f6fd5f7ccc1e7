"""The shipped ball classifier and the detection pipeline: offline, on frames it never saw."""
import json
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.identify import DEFAULT_MODEL, Identifier

ROOT = Path(__file__).resolve().parents[1]
CARD = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("network access attempted")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_the_shipped_model_loads_offline_with_its_classes(no_network):
    ident = Identifier()
    assert sorted(ident.classes) == sorted(["cue", "none"] + [str(n) for n in range(1, 16)])
    assert ident.classes == CARD["classes"]
    probs = ident.probabilities([np.full((32, 32, 3), 120, np.uint8)])
    assert probs.shape == (1, 17) and probs.sum() == pytest.approx(1.0, abs=1e-4)


def held_out_crops(n_clips=2):
    """Labelled crops of resting balls from rendered frames of seeds the model never trained on."""
    pytest.importorskip("pooltool", reason="the synth extra is not installed")
    from synth.clip import Scene, play
    from vision.crops import cut

    crops, labels = [], []
    for seed in range(9500, 9500 + n_clips):
        tl = play("rotation-61", 3, seed)
        scene = Scene(tl, 1920, 1080, seed)
        for t in [s.t0 - 0.3 for s in tl.segments] + [tl.segments[-1].end + 0.5]:
            img, _, truth = scene.frame(float(t))
            for b, (u, v, x, y, h, vis) in truth.items():
                if vis < 0.8:
                    continue
                crop = cut(img, u, v, scene.renderer.ball_pixel((x, y), h)[1])
                if crop is not None:
                    crops.append(crop)
                    labels.append(b)
    return crops, labels


def test_the_classifier_matches_its_model_card_on_held_out_frames(no_network):
    crops, labels = held_out_crops()
    ident = Identifier()
    said = ident.label(ident.probabilities(crops))
    acc = float(np.mean([s == t for s, t in zip(said, labels)]))
    assert len(labels) > 100
    # The card's accuracy is on its validation split (balls and "none" crops, jittered); clean
    # crops of held-out clips must do at least as well, give or take the sample's size.
    assert acc >= CARD["val_top1"] - 0.04


def test_training_crops_of_a_rack_are_every_racked_ball_and_no_other(tmp_path):
    # `cueref train --racks`: a seed's frame of its rack before the break, every ball in it cut
    # once under its own name (the balls frozen together in the middle included), and "none" crops
    # only where no ball is.
    pytest.importorskip("pooltool", reason="the synth extra is not installed")
    from cueref.records import GAMES
    from synth.clip import play
    from vision.crops import build

    seed = 3000
    game = str(np.random.default_rng(seed).choice(GAMES))
    counts = build(tmp_path, range(0), racks=range(seed, seed + 1), val_every=2)
    racked = {b for b in play(game, 1, seed).segments[0].sim.before if b != "cue"}
    cut = {k.split("/")[1]: v for k, v in counts.items() if not k.endswith("/none")}
    assert all(v == 1 for v in cut.values()), counts
    # (The cue ball may be under the cue stick, aimed.)
    assert set(cut) - {"cue"} == racked and len(racked) >= 9, (sorted(cut), sorted(racked))
    assert all(k.startswith("train/") for k in counts)  # one seed: the first of two, not val


def test_detect_finds_the_sample_clips_balls(tmp_path):
    pytest.importorskip("pooltool", reason="the synth extra is not installed")
    truth = json.loads((ROOT / "datasets/sample/truth.json").read_text())
    brk = next(s for s in truth["shots"] if s["kind"] == "break")
    frame = brk["frames"][0]
    frames = [json.loads(x) for x in (ROOT / "datasets/sample/frames.jsonl").read_text().splitlines()]
    import cv2

    cap = cv2.VideoCapture(str(ROOT / "datasets/sample/clip.mp4"))
    cap.set(cv2.CAP_PROP_POS_FRAMES, frame)
    ok, img = cap.read()
    assert ok
    cv2.imwrite(str(tmp_path / "frame.png"), img)
    res = subprocess.run([sys.executable, "-m", "cueref", "detect", str(tmp_path / "frame.png")],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert res.returncode == 0, res.stderr
    obs = [json.loads(x) for x in res.stdout.splitlines()]
    true = frames[frame]["balls"]
    found = 0
    for b, (u, v, x, y, h, vis) in true.items():
        near = [o for o in obs if np.hypot(o["mm"][0] - x, o["mm"][1] - y) < 15.0]
        found += bool(near)
    assert found >= 0.8 * len(true)  # the rack and the cue ball before the break (720p): 8 of 10 measured
    res = subprocess.run([sys.executable, "-m", "cueref", "detect", str(tmp_path / "frame.png"), "--game", "nine-ball"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    named = {o["ball"] for o in map(json.loads, res.stdout.splitlines())}
    assert res.returncode == 0 and named <= {"cue", "unknown"} | {str(n) for n in range(1, 10)}
    assert all({"frame", "t", "ball", "probs", "px", "mm", "sigma_mm"} <= set(o) for o in obs)


def test_detect_refuses_what_is_not_a_picture(tmp_path):
    bad = tmp_path / "broken.mp4"
    bad.write_bytes(b"not a video at all")
    res = subprocess.run([sys.executable, "-m", "cueref", "detect", str(bad)], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert res.returncode == 2 and "broken.mp4" in res.stderr


def test_detect_bad_calibration_and_arguments_exit_2(tmp_path):
    import cv2

    img = np.full((360, 640, 3), 90, np.uint8)
    cv2.imwrite(str(tmp_path / "f.png"), img)
    (tmp_path / "bad.json").write_text('{"camera": {"width": "wide"}}')

    def run(*args):
        return subprocess.run([sys.executable, "-m", "cueref", "detect", *map(str, args)], capture_output=True,
                              text=True, cwd=ROOT, timeout=60)

    res = run(tmp_path / "f.png", "--calibration", tmp_path / "bad.json")
    assert res.returncode == 2 and "malformed" in res.stderr
    res = run(tmp_path / "f.png", "--every", "0")
    assert res.returncode == 2 and "--every" in res.stderr
    from cueref.camera import overhead
    from cueref.table import Table
    from vision.calibrate import corners_seen, from_corners

    T = Table()
    cam = overhead(T, 1920, 1080)
    from_corners(corners_seen(cam, T), T, (1920, 1080)).save(tmp_path / "cal1080.json")
    res = run(tmp_path / "f.png", "--calibration", tmp_path / "cal1080.json")  # a 640x360 frame
    assert res.returncode == 2 and "1920x1080" in res.stderr


# --- the detector on rendered still scenes: racks, a ball that moves, one that creeps -----------

def _rotation(rng):
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q


class _Still:
    """One camera and look; frames of balls at given table positions (mm), each ball keeping its
    own random orientation, with fresh sensor noise every frame."""

    def __init__(self, seed, size=(1920, 1080)):
        pytest.importorskip("pooltool", reason="the synth extra is not installed")
        from cueref.table import Table
        from synth.clip import random_camera
        from synth.render import Look, Renderer

        rng = np.random.default_rng(seed)
        self.T = Table()
        self.rend = Renderer(self.T, random_camera(rng, self.T, *size), Look.random(rng), seed=seed)
        self.rot = {b: _rotation(rng) for b in ["cue", "left", "right"] + [str(n) for n in range(1, 16)]}

    def frame(self, pos):
        from synth.render import BallDraw

        return self.rend.render([BallDraw(b, p, self.T.R, self.rot[b]) for b, p in pos.items()])[0]

    def check(self, obs, pos, max_px=1.5, may_miss=0):
        """Every ball (but `may_miss`) found within max_px of its true centre; nothing else
        reported. Returns the number of balls named right and the centre errors (px)."""
        right, errs, used = 0, [], set()
        for b, xy in pos.items():
            (u, v), r = self.rend.ball_pixel(xy, self.T.R)
            d = [float(np.hypot(o.px[0] - u, o.px[1] - v)) for o in obs]
            j = int(np.argmin(d))
            if d[j] > max_px:
                may_miss -= 1
                assert may_miss >= 0, (b, d[j])
                continue
            used.add(j)
            right += obs[j].ball == b
            errs.append(d[j])
        assert len(used) == len(obs), [(o.ball, o.px) for i, o in enumerate(obs) if i not in used]
        return right, errs


def _racked(game, T, rng):
    from adjudicate.racks import rack

    pos = dict(rack(game, T))
    pos["cue"] = (float(rng.uniform(300, 600)), float(rng.uniform(200, 1000)))
    return pos


@pytest.mark.parametrize("game,seed", [("rotation-61", 31), ("eight-ball", 32)])
def test_detector_finds_and_names_every_racked_ball(game, seed):
    from vision.calibrate import auto
    from vision.detect import BallDetector

    still = _Still(seed)
    pos = _racked(game, still.T, np.random.default_rng(seed))
    img = still.frame(pos)
    obs = BallDetector(auto(img, still.T), game=game).observe(img)
    # Measured: centres within 0.5 px (median), the worst 3 px (a blue ball frozen in the rack on
    # blue cloth: its rim barely shows). One ball may be missing: in the first rack the classifier
    # gives the 9 (a stripe, mid-rack) to the 1 and the 5 and hardly to the 9; with both named, it
    # is taken for a second look at one of them and not reported.
    right, errs = still.check(obs, pos, max_px=3.5, may_miss=1)
    assert right >= len(pos) - 1
    assert np.median(errs) <= 1.0


def test_detector_on_successive_frames_is_exact_for_what_moved():
    # Successive frames share work: only where the picture changed are balls searched for again.
    # A ball that jumps must be reported where it is now (and not where it was), one that creeps a
    # fraction of a pixel a frame must not be left behind, and the balls at rest stay as they were.
    from vision.calibrate import auto
    from vision.detect import BallDetector

    still = _Still(33)
    rng = np.random.default_rng(33)
    pos = _racked("nine-ball", still.T, rng)
    pos["cue"] = (500.0, 400.0)
    det = BallDetector(auto(still.frame(pos), still.T), game="nine-ball")
    alone = BallDetector(det.cal, identifier=det.ident, game="nine-ball", temporal=False)
    frames = [dict(pos), dict(pos), {**pos, "cue": (800.0, 900.0)}]  # at rest, at rest, the cue ball jumps
    for k in range(1, 7):  # then creeps 0.4 mm (a quarter of a pixel) a frame
        frames.append({**pos, "cue": (800.0 + 0.4 * k, 900.0)})
    for k, p in enumerate(frames):
        img = still.frame(p)
        obs = det.observe(img, frame=k, t=k / 60)
        assert all(o.frame == k and o.t == k / 60 for o in obs)
        still.check(obs, p, max_px=1.0)
        cue = [o for o in obs if o.ball == "cue"]
        assert len(cue) == 1 and np.hypot(cue[0].mm[0] - p["cue"][0], cue[0].mm[1] - p["cue"][1]) < 2.0, (k, cue)
        assert sorted(o.ball for o in obs) == sorted(o.ball for o in alone.observe(img))


def test_a_whole_search_due_by_time_leaves_the_balls_at_rest_where_they_were():
    # Every `REFRESH` frames the table is searched whole (the cloth's colour, slow light). A ball
    # whose pixels did not change keeps its centre to the bit; only one that moved is found anew.
    # (Re-found, seed 11003's 15, 4, 6 and 7, dark red on red cloth, came back 7-12 mm off the
    # centres they had been found at: moves for the tracker, contacts among balls at rest.)
    from vision.calibrate import auto
    from vision.detect import BallDetector

    still = _Still(34)
    pos = _racked("nine-ball", still.T, np.random.default_rng(34))
    pos["cue"] = (500.0, 400.0)
    det = BallDetector(auto(still.frame(pos), still.T), game="nine-ball")
    det.REFRESH = 3
    first = {o.ball: o.px for o in det.observe(still.frame(pos), frame=0)}
    for k in range(1, 8):  # fresh sensor noise each frame; whole searches at frames 3 and 6
        p = pos if k < 6 else {**pos, "cue": (700.0, 600.0)}
        obs = det.observe(still.frame(p), frame=k)
        still.check(obs, p, max_px=1.5)
        for o in obs:
            if o.ball != "cue" or k < 6:
                assert o.px == first[o.ball], (k, o.ball, o.px, first[o.ball])
    (u, v), _ = still.rend.ball_pixel((700.0, 600.0), still.T.R)
    cue = [o for o in obs if o.ball == "cue"]
    assert len(cue) == 1 and np.hypot(cue[0].px[0] - u, cue[0].px[1] - v) < 1.0


def test_changes_far_apart_are_searched_in_boxes_of_their_own():
    # Two balls moved at opposite ends of the table in one frame: the change is two parts, each
    # searched in its own box (not one box spanning the table), and both balls are found where
    # they are now; the balls between them, untouched, keep their places.
    import cv2

    from vision.calibrate import auto
    from vision.detect import BallDetector

    still = _Still(34)
    pos = {"cue": (400.0, 300.0), "1": (2150.0, 950.0), "2": (1270.0, 640.0), "3": (1300.0, 300.0)}
    det = BallDetector(auto(still.frame(pos), still.T), game="nine-ball")
    det.observe(still.frame(pos), frame=0)
    moved = {**pos, "cue": (520.0, 330.0), "1": (2050.0, 900.0)}
    img = still.frame(moved)
    loc = det.locator
    region = det.changed(loc.grid(img))  # against the frame the observations came from
    assert region is not None and cv2.countNonZero(region) > 0
    boxes = loc.search_boxes(region)
    assert len(boxes) == 2
    area = sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes)
    assert area < 0.15 * loc.size[0] * loc.size[1]
    obs = det.observe(img, frame=1)
    still.check(obs, moved, max_px=1.0)
    assert sorted(o.ball for o in obs) == sorted(moved)
    # Overlapping boxes are merged: one search, not two over the same pixels.
    two = np.zeros_like(region)
    two[50:60, 50:60] = 1
    two[50:60, 64:74] = 1
    assert len(loc.search_boxes(two)) == 1
    assert loc.search_boxes(np.zeros_like(region)) == []


def test_a_frame_after_an_unrelated_one_is_seen_as_if_alone():
    # observe() on a still image must not depend on what it saw before: after a rack, the same
    # camera showing the balls spread out (most of the table changed) and then a few moved.
    from vision.calibrate import auto
    from vision.detect import BallDetector

    still = _Still(35)
    rng = np.random.default_rng(35)
    racked = _racked("nine-ball", still.T, rng)
    spread = {b: (float(rng.uniform(150, 2390)), float(rng.uniform(150, 1120))) for b in racked}
    spread = {b: p for i, (b, p) in enumerate(spread.items())
              if all(np.hypot(p[0] - q[0], p[1] - q[1]) > 80 for q in list(spread.values())[:i])}
    few = {**spread, **{b: (p[0] + 200.0, p[1]) for b, p in list(spread.items())[:3] if p[0] < 2100}}
    first = still.frame(racked)
    det = BallDetector(auto(first, still.T), game="nine-ball")
    det.observe(first)
    for pos in (spread, few):
        img = still.frame(pos)
        seen = det.observe(img)
        alone = BallDetector(det.cal, identifier=det.ident, game="nine-ball", temporal=False).observe(img)
        # Against the truth, as well as a detector that sees the frame alone (a ball at rest keeps
        # the centre measured in an earlier frame's noise: the two differ by up to ~1 px for the 3,
        # red on red cloth). The 8 on red cloth is 3.5 px off either way (its shadow's edge).
        right, errs = still.check(seen, pos, max_px=4.0)
        right_alone, errs_alone = still.check(alone, pos, max_px=4.0)
        assert sorted(o.ball for o in seen) == sorted(o.ball for o in alone)
        assert right == right_alone == len(pos)
        assert np.median(errs) <= np.median(errs_alone) + 0.2


def test_a_lags_two_white_balls_are_both_reported():
    # A lag: two white balls, each the cue ball to the classifier. Both must come out (the second
    # as "unknown"); only numbered balls are one of a kind.
    from vision.calibrate import auto
    from vision.detect import BallDetector

    still = _Still(34)
    pos = {"left": (150.0, 320.0), "right": (150.0, 950.0), "9": (1905.0, 635.0)}
    img = still.frame(pos)
    obs = BallDetector(auto(img, still.T, head="left" if still.rend.cam.project(np.array([[0.0, 635.0, 0.0]]))[0][0] < 960
                            else "right"), game="nine-ball").observe(img)
    assert len(obs) == 3
    assert sorted(o.ball for o in obs) == ["9", "cue", "unknown"]
    for b, xy in pos.items():
        (u, v), r = still.rend.ball_pixel(xy, still.T.R)
        assert min(np.hypot(o.px[0] - u, o.px[1] - v) for o in obs) < 1.5, b


def test_labels_are_one_of_each_number_surest_first():
    from vision.detect import BallDetector

    names = ["cue", "1", "9", "5", "7", "none"]
    probs = np.array([
        [0.00, 0.99, 0.01, 0.00, 0.00, 0.00],  # a sure 1
        [0.00, 0.51, 0.45, 0.00, 0.00, 0.04],  # the 9 seen edge-on: most like the 1, which is taken: the 9
        [0.02, 0.96, 0.00, 0.00, 0.00, 0.02],  # a look-alike of the 1 with no other claim: not reported
        [0.30, 0.00, 0.00, 0.30, 0.30, 0.10],  # the cue ball, the 5 or the 7: "unknown"
        [0.20, 0.50, 0.00, 0.30, 0.00, 0.00],  # the 1 is taken: the 5 (0.3 of the 0.5 left)
    ])
    assert BallDetector._assign(probs, names) == ["1", "9", None, "unknown", "5"]
    # A racked 9 the classifier took for the 1 (seen on the bench): the 1 and the 5 are taken.
    probs = np.array([[0.00, 0.99, 0.00, 0.01, 0.00, 0.00],
                      [0.00, 0.00, 0.00, 0.99, 0.00, 0.01],
                      [0.00, 0.88, 0.06, 0.05, 0.00, 0.01]])
    assert BallDetector._assign(probs, names) == ["1", "5", "9"]
    # Two cue balls (a lag): the second is "unknown", not dropped.
    probs = np.array([[0.99, 0.0, 0.0, 0.0, 0.0, 0.01], [0.98, 0.0, 0.0, 0.0, 0.0, 0.02]])
    assert BallDetector._assign(probs, names) == ["cue", "unknown"]
    # A look-alike of the 1 that is a ball at rest apart from every other (`_apart`): "unknown".
    probs = np.array([[0.00, 0.99, 0.01, 0.00, 0.00, 0.00], [0.02, 0.96, 0.00, 0.00, 0.00, 0.02],
                      [0.00, 0.97, 0.00, 0.00, 0.00, 0.03]])
    assert BallDetector._assign(probs, names, lambda i: i == 1) == ["1", "unknown", None]
    # A ball at rest as it was, surely the 9, keeps its name against a blur elsewhere read as
    # the 9 a little more surely (`held`): the blur is another ball.
    probs = np.array([[0.00, 0.00, 0.999, 0.00, 0.00, 0.001], [0.00, 0.00, 0.998, 0.00, 0.00, 0.002]])
    assert BallDetector._assign(probs, names) == ["9", None]
    assert BallDetector._assign(probs, names, held=np.array([False, True])) == [None, "9"]


def test_a_racked_ball_that_looks_like_its_named_neighbours_is_reported_once_seen_at_rest():
    # The first rack of the test above: at first sight the 9 (a stripe mid-rack) looks like the
    # 1 and the 5, both named, and is not reported (a second look at one, or a look-alike). Seen
    # again where it was, at rest a diameter from every other ball, it is a ball: "unknown".
    # (Left out, seed 11003's racked 12 had its track taken to its neighbour's spot, and back
    # during the break's shot: five contacts before the cue ball reached the rack.)
    from vision.calibrate import auto
    from vision.detect import BallDetector

    still = _Still(31)
    pos = _racked("rotation-61", still.T, np.random.default_rng(31))
    det = BallDetector(auto(still.frame(pos), still.T), game="rotation-61")
    first = det.observe(still.frame(pos), 0, 0.0)
    second = det.observe(still.frame(pos), 1, 1 / 60)
    still.check(first, pos, max_px=3.5, may_miss=1)
    assert len(first) == len(pos) - 1
    right, _ = still.check(second, pos, max_px=3.5)  # every ball, and nothing else
    assert right == len(pos) - 1 and [o.ball for o in second].count("unknown") == 1


def _counting(det):
    """Wrap the detector's classifier: the number of crops it is asked about, so far."""
    asked = [0]
    probabilities = det.ident.probabilities

    def counted(crops):
        asked[0] += len(crops)
        return probabilities(crops)

    det.ident.probabilities = counted
    return asked


def test_a_rolling_ball_keeps_its_name_without_asking_each_frame_through_a_full_hit():
    # The striker (the 3) rolls 14 mm a frame into the 1 and stops dead on a full hit; the 1 goes
    # on along the same line at the same speed. Names carried from frame to frame (`_carried`)
    # must follow the balls through the hit; and while a ball rolls free the classifier is asked
    # about it only now and then (`RECHECK`).
    from vision.calibrate import auto
    from vision.detect import BallDetector

    still = _Still(36)
    T = still.T
    rest = {"cue": (300.0, 300.0), "9": (2200.0, 1000.0)}
    x3, x6, v = 700.0, 1300.0, 14.0
    hit = (x6 - 2 * T.R - x3) / v
    frames = []
    for k in range(70):
        if k <= hit:
            p3, p6 = x3 + v * k, x6
        else:
            p3, p6 = x6 - 2 * T.R, x6 + v * (k - hit)
        frames.append({**rest, "3": (p3, 600.0), "1": (p6, 600.0)})
    det = BallDetector(auto(still.frame(frames[0]), T), game="nine-ball")
    det.observe(still.frame(frames[0]), frame=0)
    asked = _counting(det)
    for k, pos in enumerate(frames[1:], 1):
        obs = det.observe(still.frame(pos), frame=k)
        right, _ = still.check(obs, pos, max_px=1.5)
        assert right == len(pos), (k, [(o.ball, o.px) for o in obs])
    # 69 frames with one or two balls moving (~110 looks): carried, a look every RECHECK frames
    # and around the hit.
    assert asked[0] < 45, asked[0]


def test_lost_balls_are_found_again_frozen_together_far_from_where_they_were():
    # Three balls vanish (a blur too long to see, an arm over them) and turn up frozen together
    # far away: a wide plateau away from every ball seen in the last frame. Such plateaus are
    # not searched (a hand, an arm) unless a ball was lost lately (`LOST`).
    from vision.calibrate import auto
    from vision.detect import BallDetector

    still = _Still(37)
    T = still.T
    D = 2 * T.R + 0.2
    pos = {"cue": (400.0, 300.0), "5": (900.0, 900.0), "6": (1100.0, 300.0), "7": (1300.0, 300.0), "2": (2000.0, 500.0)}
    det = BallDetector(auto(still.frame(pos), T), game="nine-ball")
    det.observe(still.frame(pos), frame=0)
    gone = {b: p for b, p in pos.items() if b not in ("5", "6", "7")}
    assert sorted(o.ball for o in det.observe(still.frame(gone), frame=1)) == ["2", "cue"]
    back = {**gone, "5": (1700.0, 1000.0), "6": (1700.0 + D, 1000.0), "7": (1700.0 + D / 2, 1000.0 - 0.866 * D)}
    obs = det.observe(still.frame(back), frame=2)
    right, _ = still.check(obs, back, max_px=3.5)  # frozen: centred by rim votes (see the racks)
    assert right == len(back)


def test_a_rack_set_by_hand_away_from_every_ball_is_found_once_it_settles():
    # A search of what changed leaves a wide plateau away from every ball seen alone (an arm, a
    # hand), and a rack set after a lag is one: seed 9002 through the real detector had its
    # ten-ball rack unseen for the 2.4 s to the break, whose first contact and pocketed 3 were
    # then lost. Within `SETTLE` frames of such a plateau a whole search is made.
    from vision.calibrate import auto
    from vision.detect import BallDetector

    still = _Still(38)
    T = still.T
    lag = {"cue": (400.0, 300.0)}
    det = BallDetector(auto(still.frame(_racked("nine-ball", T, np.random.default_rng(38))), T), game="nine-ball")
    det.observe(still.frame(lag), frame=0)
    racked = _racked("nine-ball", T, np.random.default_rng(38))
    racked["cue"] = lag["cue"]
    seen = [len(det.observe(still.frame(racked), frame=k)) for k in range(1, det.SETTLE + 2)]
    assert seen[0] == 1  # the rack is a plateau away from the cue ball: left alone at first
    # (One rack ball may go unnamed: see `test_detector_finds_and_names_every_racked_ball`.)
    right, _ = still.check(det.observe(still.frame(racked), frame=det.SETTLE + 2), racked, max_px=3.5, may_miss=1)
    assert right >= len(racked) - 1, seen


def test_a_ball_followed_is_not_found_on_the_cloth_where_it_was_heading():
    # The 3 rolls 14 mm a frame (followed: its rim fitted where its step puts it, no search),
    # then is gone from its line in one frame (kicked by a ball the camera missed, picked up):
    # the cloth where it was heading must not be taken for it; it is found where it is.
    from vision.calibrate import auto
    from vision.detect import BallDetector

    still = _Still(38)
    T = still.T
    rest = {"cue": (300.0, 300.0), "9": (2200.0, 1000.0)}
    frames = [{**rest, "3": (700.0 + 14.0 * k, 600.0)} for k in range(12)]
    frames.append({**rest, "3": (1000.0, 1000.0)})
    det = BallDetector(auto(still.frame(frames[0]), T), game="nine-ball")
    followed = []
    follow = det._follow
    det._follow = lambda *a: followed.append(len(r := follow(*a))) or r
    for k, pos in enumerate(frames):
        obs = det.observe(still.frame(pos), frame=k)
        right, _ = still.check(obs, pos, max_px=1.5)
        assert right == len(pos), (k, [(o.ball, o.px) for o in obs])
    assert sum(followed[:-1]) >= 8 and followed[-1] == 0  # followed while it rolled; not at the end


def test_a_ball_at_rest_beside_a_moving_one_is_not_looked_at_again():
    # The 1 rolls past the 5 at rest, their rims 15 mm apart: the change around the 1 reaches
    # the 5's centre, but the 5's own pixels do not change. It keeps the centre it was found at
    # (a new look would move it by its noise, and that jitter would read as a step); it is found
    # again, right, once it is struck.
    from vision.calibrate import auto
    from vision.detect import BallDetector

    still = _Still(39)
    T = still.T
    rest = {"cue": (300.0, 300.0), "5": (1200.0, 700.0)}
    frames = [{**rest, "1": (900.0 + 14.0 * k, 700.0 - 2 * T.R - 15.0)} for k in range(40)]
    frames.append({**frames[-1], "5": (1200.0, 760.0)})
    det = BallDetector(auto(still.frame(frames[0]), T), game="nine-ball")
    seen5 = []
    for k, pos in enumerate(frames):
        obs = det.observe(still.frame(pos), frame=k)
        right, _ = still.check(obs, pos, max_px=1.5)
        assert right == len(pos), (k, [(o.ball, o.px) for o in obs])
        seen5.append(next(o.px for o in obs if o.ball == "5"))
    assert len(set(seen5[:-1])) == 1  # the same centre, to the last digit, while the 1 passed
    assert seen5[-1] != seen5[0]


def test_fast_balls_blurred_at_30_fps_are_named_by_the_streak_classifier():
    # The bundled sample (720p30) at its shot 2: the cue ball at ~6 m/s cuts the 1, which leaves
    # at ~4.5 m/s; every sighting of either over the next half second is a streak. The default
    # classifier never saw one in training and read the yellow 1 as the cue ball (5 of its 15
    # sightings); a ball whose rim is soft (`SHARP`) is asked again of the classifier trained on
    # streaks (models/ball-classifier-blurred.onnx), whose answer stands. Against the clip's
    # ground truth (its frames.jsonl): measured 14 of 15 each, the rest "unknown".
    from cueref.pipeline import frames_of
    from cueref.table import Table
    from vision.calibrate import auto
    from vision.detect import BallDetector
    from vision.identify import BLURRED_MODEL

    assert BLURRED_MODEL.exists()
    sample = ROOT / "datasets" / "sample"
    truth = {}
    with open(sample / "frames.jsonl", encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if 1045 <= rec["frame"] < 1062:
                truth[rec["frame"]] = rec["balls"]
    det, named = None, {"1": [], "cue": []}
    for k, t, img in frames_of(sample / "clip.mp4", start_frame=1030, stop_frame=1062):
        if det is None:
            det = BallDetector(auto(img, Table()), game="nine-ball")
            assert det.blurred is not None
        for o in det.observe(img, k, t):
            if k in truth:  # the truth's nearest ball (its centre in table mm: fields 2, 3)
                b = min(truth[k], key=lambda n: np.hypot(truth[k][n][2] - o.mm[0], truth[k][n][3] - o.mm[1]))
                if b in named:
                    named[b].append(o.ball)
    for b, labels in named.items():
        assert len(labels) >= 14, (b, labels)
        assert labels.count(b) >= len(labels) - 2, (b, labels)
        assert set(labels) <= {b, "unknown"}, (b, labels)  # never the other ball


def test_rim_votes_pile_up_at_the_centres_of_frozen_balls():
    """The compiled votes (vision/rimvotes.py): three balls frozen in a row on cloth, drawn with
    known centres and radius; the vote image's three highest peaks are those centres (to a pixel)."""
    import cv2

    from vision import rimvotes

    r = 18.0
    img = np.full((120, 200, 3), (40, 120, 30), np.uint8)  # green cloth
    centres = [(50.0, 60.0), (50.0 + 2 * r, 60.0), (50.0 + 4 * r, 60.0)]
    for (x, y), colour in zip(centres, [(0, 200, 230), (200, 40, 40), (240, 240, 240)]):
        cv2.circle(img, (int(x * 16), int(y * 16)), int(r * 16), colour, -1, cv2.LINE_AA, shift=4)
    acc = cv2.GaussianBlur(rimvotes.vote_image(img, r).astype(np.float32), (0, 0), 1.5)
    peaks = []
    for _ in range(3):  # the highest peak, then the next one a radius away from those found
        y, x = np.unravel_index(int(np.argmax(acc)), acc.shape)
        peaks.append((float(x), float(y)))
        cv2.circle(acc, (int(x), int(y)), int(r), 0.0, -1)
    for cx, cy in centres:
        assert min(np.hypot(px - cx, py - cy) for px, py in peaks) <= 1.0
