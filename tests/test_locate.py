"""The ball locator's first cut (vision/locate.py): it finds resting balls on rendered frames and
puts their centres where the camera truth says, at the recall and accuracy its docstring states."""
import numpy as np
import pytest

pytest.importorskip("pooltool", reason="the synth extra is not installed (scripts/install-synth.sh)")

from cueref.table import Table  # noqa: E402
from synth.clip import Scene, play  # noqa: E402
from vision.calibrate import auto  # noqa: E402
from vision.locate import Locator  # noqa: E402

T = Table()


def test_locator_finds_resting_balls_and_their_centres():
    tl = play("nine-ball", 4, seed=21)
    # Moments when every ball rests: just before each strike (the cue and hands are there), and the end.
    moments = [s.t0 - 0.3 for s in tl.segments] + [tl.segments[-1].end + 0.5]
    found, total, errs = 0, 0, []
    for seed in (100, 103):
        scene = Scene(tl, 1920, 1080, seed)
        cal = auto(scene.frame(moments[0])[0], T)
        loc = Locator(cal)
        for t in moments:
            img, _, truth = scene.frame(float(t))
            px = np.array([c.px for c in loc.candidates(img)])
            for b, (u, v, x, y, h, vis) in truth.items():
                if vis < 0.5:
                    continue
                total += 1
                r = scene.renderer.ball_pixel((x, y), h)[1]
                d = np.hypot(*(px - (u, v)).T)
                j = int(np.argmin(d))
                if d[j] < 0.6 * r:
                    found += 1
                    errs.append(float(np.hypot(*(cal.to_table(px[j:j + 1])[0] - (x, y)))))
    assert total > 50
    assert found / total >= 0.85  # the docstring has the measured figures of a larger run
    assert np.median(errs) <= 2.0
