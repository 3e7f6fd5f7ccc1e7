"""`cueref live`: the page in a real headless Chromium (a call pushed by the server appears; an
operator's choice reaches the adjudicator), the token, a dropped stream, a camera that never comes
back. The source is the bundled clip played faster than real time (`speed`), as a stream would
deliver it.
"""
from __future__ import annotations

import json
import os
import shutil
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from cueref.live import LiveReferee, LiveSource, make_server
from cueref.table import table_for

ROOT = Path(__file__).resolve().parents[1]
CLIP = ROOT / "datasets" / "sample" / "clip.mp4"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _start(out: Path, speed: float, opener=None, token=None, reconnect_s=30.0, go=True):
    source = LiveSource(str(CLIP), speed=speed, retry_s=0.1, opener=opener, reconnect_s=reconnect_s)
    live = LiveReferee(source, "nine-ball", table_for("9ft"), out)
    server = make_server(live, "127.0.0.1", 0, token)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    if go:
        _go(source, live)
    return source, live, server


def _go(source, live):
    source.start()
    threading.Thread(target=live.run, daemon=True).start()


def _stop(source, live, server):
    source.stop()
    server.shutdown()
    live.done.wait(20)


def _wait(pred, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False


def _post(port, action, body, token=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/{action}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json", **({"X-Cueref-Token": token} if token else {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"), reason="Debian's chromium is not installed "
                    "(scripts/install-browser.sh)")
def test_the_page_shows_each_call_and_the_operators_choice_reaches_the_adjudicator(tmp_path):
    """B wins the lag (WPA 1.2) and, on the operator page, passes the break to A: the break is
    ruled as A's, the decision is in the log, and the overlay shows the calls as they come."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM, "CI must have Chromium (scripts/install-browser.sh)"
    token = "s3cret"
    source, live, server = _start(tmp_path / "live", speed=2.5, token=token, go=False)
    port = server.server_address[1]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"])
            operator = browser.new_page()
            overlay = browser.new_page()
            operator.goto(f"http://127.0.0.1:{port}/operator?token={token}")
            overlay.goto(f"http://127.0.0.1:{port}/")
            _go(source, live)  # the camera starts once the browser is up (2 cores: it would slow the start)
            operator.wait_for_selector("#call:has-text('wins the lag')", timeout=60_000)
            assert "B wins the lag" in overlay.inner_text("#call") or \
                overlay.wait_for_selector("#call:has-text('B wins the lag')", timeout=5_000)
            operator.click("button[data-choice=pass]")
            operator.wait_for_selector("#feedback:has-text('decide: done')", timeout=10_000)
            overlay.wait_for_selector("#call:has-text('rack 1, break')", timeout=60_000)
            call = overlay.inner_text("#call")
            assert "shot 1 (rack 1, break) · A:" in call
            assert overlay.is_hidden("#operator") and operator.is_visible("#operator")
            # The scoreboard follows: A is at the table after the break or B after a foul.
            assert overlay.inner_text("#p0 .name") == "A" and overlay.inner_text("#p1 .name") == "B"
            browser.close()
    finally:
        _stop(source, live, server)
    log = [json.loads(x) for x in (tmp_path / "live" / "game.jsonl").read_text().splitlines()]
    kinds = [e.get("kind") for e in log[1:]]
    assert kinds[:4] == ["lag", "lag", "decision", "shot"], source.status
    assert source.status.skipped == 0  # every frame was processed
    assert log[3] == {"kind": "decision", "choice": "pass", "player": "B"}
    rulings = [json.loads(x) for x in (tmp_path / "live" / "rulings.jsonl").read_text().splitlines()]
    assert rulings[2]["shooter"] == "A" and rulings[2]["break"]


def test_control_actions_need_the_token_and_bad_requests_say_why(tmp_path):
    source = LiveSource(str(CLIP))
    live = LiveReferee(source, "nine-ball", table_for("9ft"), tmp_path / "l")
    server = make_server(live, "127.0.0.1", 0, "tok")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        assert _post(port, "declare", {"safety": True})[0] == 403
        assert _post(port, "declare", {"safety": True}, "wrong")[0] == 403
        code, st = _post(port, "declare", {"safety": True}, "tok")
        assert code == 200 and st["declared"] == {"safety": True}
        code, err = _post(port, "decide", {"choice": "pass"}, "tok")
        assert code == 409 and "no choice is open" in err["error"]
        code, err = _post(port, "declare", {"called": {"ball": "12"}}, "tok")
        assert code == 409 and "declared.called.ball" in err["error"]  # nine-ball has no 12
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/declare", data=b"[1,", headers={"X-Cueref-Token": "tok"})
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req, timeout=10)
        assert e.value.code == 400
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as r:
            assert json.loads(r.read())["declared"] == {"safety": True}  # reading needs no token
        # The referee overrides a call (WPA 1.11): it reaches the adjudicator through the log.
        truth = [json.loads(x) for x in (ROOT / "datasets/sample/game.jsonl").read_text().splitlines()][1:]
        _post(port, "declare", {"safety": None}, "tok")
        live._take([e for e in truth if e["kind"] != "decision"][:3])  # two lags, B's break
        assert live.state()["last_call"]["ruling"]["legal"]
        code, st = _post(port, "override", {"foul": "double_hit", "reason": "the tip touched twice"}, "tok")
        assert code == 200 and not st["last_call"]["ruling"]["legal"]
        foul = st["last_call"]["ruling"]["fouls"][0]
        assert foul["code"] == "double_hit" and foul["rule"] == "WPA 3.7" and "touched twice" in foul["why"]
        saved = [json.loads(x) for x in (tmp_path / "l" / "game.jsonl").read_text().splitlines()]
        assert saved[-1]["override"] == {"foul": "double_hit", "reason": "the tip touched twice"}
        code, err = _post(port, "override", {"foul": "double_hit", "reason": " "}, "tok")
        assert code == 409 and "reason" in err["error"]
    finally:
        server.shutdown()
    # Reachable from other machines: a token is always set.
    exposed = make_server(live, "0.0.0.0", 0, None)
    try:
        assert exposed.token and len(exposed.token) >= 12
    finally:
        exposed.server_close()
    loopback = make_server(live, "127.0.0.1", 0, None)
    try:
        assert loopback.token is None
    finally:
        loopback.server_close()


class _Flaky:
    """A capture whose stream drops once at a given frame."""

    def __init__(self, cap, fail_at):
        self.cap, self.fail_at, self.n = cap, fail_at, 0

    def read(self):
        if self.fail_at is not None and self.n >= self.fail_at:
            return False, None
        self.n += 1
        return self.cap.read()

    def __getattr__(self, name):
        return getattr(self.cap, name)


def test_a_dropped_stream_is_reconnected_and_the_game_goes_on(tmp_path):
    import cv2

    opens = []

    def opener(src):
        opens.append(time.monotonic())
        # The stream drops at 23 s, after the lags and before the break (24.9 s).
        return _Flaky(cv2.VideoCapture(src), 690 if len(opens) == 1 else None)

    # 3× real time: the live floor (a call within 1 s) is for real time; at 4× a slow CI machine
    # processed the 720p clip barely faster than it came (1.02 s once, 0.2–0.4 s here).
    source, live, server = _start(tmp_path / "live", speed=3.0, opener=opener)
    try:
        assert _wait(lambda: any(c.ruling.get("break") for c in live.referee.calls), 60)
    finally:
        _stop(source, live, server)
    st = source.status
    assert len(opens) == 2 and st.drops == 1 and st.skipped > 0
    assert "reconnected" in st.message or st.message == "end of the video"
    rulings = [json.loads(x) for x in (tmp_path / "live" / "rulings.jsonl").read_text().splitlines()]
    assert [r.get("lag") for r in rulings[:2]] == [True, True] and rulings[2]["break"]
    assert rulings[1]["winner_player"] == "B"
    # Calls within a second of the balls stopping (WPA 2.19's end of the shot), measured.
    assert live.latencies and 0.0 < min(live.latencies) and max(live.latencies) <= 1.0


def test_a_camera_that_never_comes_back_stops_with_the_game_saved(tmp_path):
    import cv2

    opens = []

    def opener(src):
        opens.append(1)
        # Lost for good during the second lag (13.5 s on): that lag is not ruled on half of it.
        return _Flaky(cv2.VideoCapture(src), 450) if len(opens) == 1 else None

    source, live, server = _start(tmp_path / "live", speed=6.0, opener=opener, reconnect_s=0.5)
    try:
        assert live.done.wait(60)
    finally:
        _stop(source, live, server)
    assert "no picture for 0.5 s" in source.status.message and "lost during a shot" in live.error
    rulings = (tmp_path / "live" / "rulings.jsonl").read_text().splitlines()
    assert len(rulings) == 1 and json.loads(rulings[0])["relag"]  # the first lag, ruled before the drop


class _EndsAt(_Flaky):
    """A recording that ends at a given frame (as if the file were that long)."""

    def get(self, prop):
        import cv2

        return float(self.fail_at) if prop == cv2.CAP_PROP_FRAME_COUNT else self.cap.get(prop)


def test_a_shot_cut_off_by_the_end_of_the_video_is_ruled_but_has_no_latency(tmp_path):
    import cv2

    # The recording ends at 25.3 s, during the break (struck at 24.9 s): the break is ruled as it
    # stands, but no ball was seen to stop, so there is no "after the balls stopped" to time.
    source, live, server = _start(tmp_path / "live", speed=6.0, opener=lambda src: _EndsAt(cv2.VideoCapture(src), 760))
    try:
        assert live.done.wait(60)
    finally:
        _stop(source, live, server)
    assert source.status.message == "end of the video" and live.error is None
    rulings = [json.loads(x) for x in (tmp_path / "live" / "rulings.jsonl").read_text().splitlines()]
    assert [r.get("lag") for r in rulings[:2]] == [True, True] and rulings[2]["break"] and len(rulings) == 3
    assert len(live.latencies) == 2 and all(0.0 < x <= 1.0 for x in live.latencies)
    assert live.state()["last_call"]["latency_s"] is None


def test_the_page_fetches_nothing_from_elsewhere():
    from cueref.live import PAGE

    text = PAGE.read_text()
    assert "http://" not in text and "https://" not in text and "@import" not in text and "src=" not in text


def test_a_real_http_stream_that_drops_is_reopened_and_frames_keep_coming(tmp_path):
    """Over the network, as a camera's stream arrives: MPEG-TS over HTTP from a local server that
    cuts the connection part way; the source reopens the URL and the pictures go on. When the
    server has nothing more, the source gives up after --reconnect-s and says so."""
    ffmpeg = pytest.importorskip("imageio_ffmpeg", reason="the synth extra's ffmpeg makes the stream").get_ffmpeg_exe()
    import subprocess
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    ts = tmp_path / "live.ts"
    subprocess.run([ffmpeg, "-y", "-loglevel", "error", "-t", "8", "-i", str(CLIP), "-c:v", "libx264", "-preset",
                    "ultrafast", "-g", "15", "-f", "mpegts", str(ts)], check=True)
    data = ts.read_bytes()
    cut = (len(data) * 45 // 100) // 188 * 188  # whole transport packets
    served = []

    class Stream(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            served.append(self.path)
            if len(served) > 2:
                self.send_error(404)  # the camera is gone
                return
            self.send_response(200)
            self.send_header("Content-Type", "video/mp2t")
            self.end_headers()
            part = data[:cut] if len(served) == 1 else data[cut:]
            try:
                self.wfile.write(part)  # then the connection closes: the stream dropped
            except (BrokenPipeError, ConnectionResetError):
                pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Stream)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        src = LiveSource(f"http://127.0.0.1:{srv.server_address[1]}/live.ts", retry_s=0.2, reconnect_s=1.0)
        assert not src.is_file
        src.start()
        frames = [k for k, t, img in src.frames()]
    finally:
        srv.shutdown()
    assert len(served) >= 3 and src.status.drops >= 1
    assert frames == list(range(len(frames))) and len(frames) > 150  # both halves arrived, numbered on
    assert src.status.lost and "no picture for 1 s" in src.status.message
