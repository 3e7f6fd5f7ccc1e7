"""Table calibration (vision/calibrate.py) against cameras whose truth is known."""
import json

import numpy as np
import pytest

from adjudicate.racks import rack
from cueref.camera import overhead
from cueref.table import Table
from vision.calibrate import CORNERS, Calibration, CalibrationError, auto, corners_seen, from_corners

T = Table()
GRID = np.stack([g.ravel() for g in np.meshgrid(np.linspace(50, T.L - 50, 12), np.linspace(50, T.W - 50, 6))], 1)


def errors_mm(cal, cam, height):
    px = cam.project(np.hstack([GRID, np.full((len(GRID), 1), height)]))
    return np.hypot(*(cal.to_table(px, height=height) - GRID).T)


def nose_corners(cam):
    return corners_seen(cam, T)


def test_from_corners_recovers_the_homography_exactly():
    cam = overhead(T, 1920, 1080, tilt_deg=(3.0, -2.0), roll_deg=1.0)
    cal = from_corners(nose_corners(cam), T, (1920, 1080))
    assert np.max(errors_mm(cal, cam, 0.0)) < 0.25  # the cloth plane, through the fitted camera
    # Tilted 3.6°: the focal length is observable, so a ball's centre (28.6 mm up) is right too.
    assert cal.camera.fx == pytest.approx(cam.fx, rel=0.05)
    assert np.max(errors_mm(cal, cam, T.R)) < 0.5


def test_from_corners_with_a_straight_down_camera_uses_the_height_prior():
    cam = overhead(T, 1920, 1080, height_mm=3000.0)
    cal = from_corners(nose_corners(cam), T, (1920, 1080), camera_height_mm=3000.0)
    assert np.max(errors_mm(cal, cam, 0.0)) < 0.25
    assert np.max(errors_mm(cal, cam, T.R)) < 0.3


def rendered(seed, size=(1920, 1080)):
    pytest.importorskip("cv2")
    from synth.clip import racked_still

    return racked_still(seed, T, *size)


@pytest.mark.parametrize("seed", [
    0, 3, 7, 11,
    13003,  # a rail the cloth's colour (the coarse edge is the rail's) and faint noses 75 px inside it
    13038,  # the same, the nose 84 px inside the rail's outer edge
    13085,  # a tilted side where a short partial line lay 9 px "inside" the nose by its mean alone
    13148,  # grey cloth on a grey floor: the cloth's colour runs out of the picture on every side
])
def test_auto_finds_the_table_in_a_rendered_frame(seed):
    img, cam = rendered(seed)
    cal = auto(img, T)
    truth = nose_corners(cam)
    for c in CORNERS:  # the nose corners, head and sides named right, to a fraction of a pixel
        assert np.hypot(*np.subtract(cal.corners_px[c], truth[c])) < 0.6, c
    assert np.median(errors_mm(cal, cam, 0.0)) < 1.0  # the cloth plane
    assert np.median(errors_mm(cal, cam, T.R)) < 2.0  # ball centres, parallax corrected
    assert cal.residual_px < 0.5


def test_auto_head_override_and_failure_on_a_picture_without_a_table(tmp_path):
    img, cam = rendered(3)
    flipped = auto(img, T, head="right" if cam.project(np.array([[0, 635, 0]]))[0][0] < 960 else "left")
    assert np.hypot(*np.subtract(flipped.corners_px["head-left"], nose_corners(cam)["foot-right"])) < 1.0
    with pytest.raises(CalibrationError):
        auto(np.full((720, 1280, 3), 40, np.uint8), T)


def test_save_load_and_a_manual_corner_file(tmp_path):
    cam = overhead(T, 1280, 720, tilt_deg=(2.0, 2.0))
    cal = from_corners(nose_corners(cam), T, (1280, 720))
    cal.save(tmp_path / "c.json")
    back = Calibration.load(tmp_path / "c.json")
    assert np.allclose(back.to_table([[640.0, 360.0]]), cal.to_table([[640.0, 360.0]]))
    manual = {"table": {"length_mm": 2540, "width_mm": 1270}, "image_size": [1280, 720],
              "corners_px": {k: list(v) for k, v in nose_corners(cam).items()}}
    (tmp_path / "m.json").write_text(json.dumps(manual))
    m = Calibration.load(tmp_path / "m.json")
    assert np.max(errors_mm(m, cam, 0.0)) < 0.25
    del manual["corners_px"]["foot-left"]
    (tmp_path / "bad.json").write_text(json.dumps(manual))
    with pytest.raises(CalibrationError, match="foot-left"):
        Calibration.load(tmp_path / "bad.json")


def test_cli_calibrates_the_sample_clip_like_its_truth(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    from cueref.camera import Camera

    root = Path(__file__).resolve().parents[1]
    shots = json.loads((root / "datasets/sample/truth.json").read_text())["shots"]
    brk = next(s for s in shots if s["kind"] == "break")  # the rack is on the table: it shows the foot
    res = subprocess.run([sys.executable, "-m", "cueref", "calibrate", "datasets/sample/clip.mp4", "--at",
                          str(brk["t0"] - 0.5), "--out", str(tmp_path / "c.json")],
                         capture_output=True, text=True, cwd=root, timeout=120)
    assert res.returncode == 0, res.stderr
    cal = Calibration.load(tmp_path / "c.json")
    truth = Camera.from_dict(json.loads((root / "datasets/sample/truth.json").read_text())["camera"])
    assert np.median(errors_mm(cal, truth, T.R)) < 2.5
    bad = subprocess.run([sys.executable, "-m", "cueref", "calibrate", "README.md"], capture_output=True, text=True,
                         cwd=root, timeout=60)
    assert bad.returncode == 2 and "cannot read an image" in bad.stderr


def test_auto_tells_the_head_from_a_lag_and_from_a_rack():
    from pathlib import Path

    import cv2

    from cueref.camera import Camera

    root = Path(__file__).resolve().parents[1] / "datasets" / "sample"
    truth = json.loads((root / "truth.json").read_text())
    cam = Camera.from_dict(truth["camera"])
    brk = next(s for s in truth["shots"] if s["kind"] == "break")
    cap = cv2.VideoCapture(str(root / "clip.mp4"))
    for frame in (0, brk["frames"][0]):  # the lag balls waiting behind the head string; the rack
        cap.set(cv2.CAP_PROP_POS_FRAMES, frame)
        ok, img = cap.read()
        assert ok
        cal = auto(img, T)
        assert np.hypot(*np.subtract(cal.corners_px["head-left"], nose_corners(cam)["head-left"])) < 1.0, frame


def test_a_bumped_camera_is_noticed_and_recalibrated():
    pytest.importorskip("cv2")
    from cueref.camera import overhead
    from synth.render import BallDraw, Look, Renderer
    from vision.calibrate import drift_px, recheck

    kw = dict(tilt_deg=(2.5, -1.5), roll_deg=1.2, head_left=False, margin_mm=240.0, k1=-0.04, height_mm=3100.0)
    look = Look.random(np.random.default_rng(5))
    balls = [BallDraw(b, p, T.R, np.eye(3)) for b, p in rack("nine-ball", T).items()]
    balls.append(BallDraw("cue", (30.0, 640.0), T.R, np.eye(3)))  # against the head cushion
    cam = overhead(T, 1920, 1080, **kw)
    cal = auto(Renderer(T, cam, look, seed=1).render(balls)[0], T)
    # The same camera a moment later (new sensor noise): still where the calibration says.
    again = Renderer(T, cam, look, seed=2).render(balls)[0]
    assert drift_px(cal, again) < 1.0
    assert recheck(cal, again) is cal
    # Knocked: 3 px across and a quarter of a degree turned.
    bumped_cam = overhead(T, 1920, 1080, **{**kw, "roll_deg": 1.45, "offset_px": (3.0, 0.0)})
    bumped = Renderer(T, bumped_cam, look, seed=3).render(balls)[0]
    assert drift_px(cal, bumped) > 2.0
    new = recheck(cal, bumped)
    assert new is not cal
    truth = nose_corners(bumped_cam)
    for c in CORNERS:  # the new camera's corners, named as before
        assert np.hypot(*np.subtract(new.corners_px[c], truth[c])) < 0.6, c


@pytest.mark.parametrize("k1, k2, p1, p2", [(0.0, 0.0, 0.0, 0.0), (-0.08, 0.02, 0.0, 0.0), (-0.06, 0.01, 3e-4, -7e-4)])
def test_pixels_to_table_inverts_the_projection_with_lens_distortion(k1, k2, p1, p2):
    """A point of the table projected through a distorting lens and taken back to the table
    lands where it was (the undistortion iterates to a fraction of a micrometre), at the cloth
    and at a ball's centre height, to the corners of the picture."""
    cam = overhead(T, 1920, 1080, tilt_deg=(2.0, -1.0), roll_deg=0.8, k1=k1, k2=k2, p1=p1, p2=p2)
    for height in (0.0, T.R):
        px = cam.project(np.hstack([GRID, np.full((len(GRID), 1), height)]))
        assert np.abs(cam.to_table(px, height=height) - GRID).max() < 1e-6
    assert cam.undistort(np.zeros((0, 2))).shape == (0, 2)
