"""`cueref live`: a live referee at a streamed table.

Three parts, each usable alone:
- `LiveSource`: frames from a camera index, a stream URL (rtsp://, http://) or a file played at
  its own pace (× `speed`). When the stream drops it says so and reopens it, again and again,
  until `reconnect_s` passes without a frame; a file is reopened at the frame its clock has
  reached, as a camera would be.
- `LiveReferee`: frames → observations → records → rulings, in a thread; every call is synced to
  `game.jsonl` / `rulings.jsonl` before it is shown (a crash loses nothing ruled, and a restart
  with the same `--out` carries on the game), with its latency after the balls stopped.
- `serve()`: a local web page — the scoreboard and the last call, for a streaming tool's browser
  source (`/`), and operator controls for what the camera cannot see (`/operator`): declarations
  for the next shot, the incoming player's choice, an override with a reason. The page follows
  the game by server-sent events (`/events`) and reconnects by itself. Bound to localhost unless
  told otherwise; control actions need the token whenever one is set, and one is always set
  when the server is reachable from other machines.
"""
from __future__ import annotations

import json
import math
import queue
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from cueref.pipeline import MediaError, Observer
from cueref.records import new_header
from cueref.referee import GameFiles, OperatorError, Referee
from cueref.table import Table

PAGE = Path(__file__).with_name("web") / "live.html"


# --- the source ------------------------------------------------------------------------------------
@dataclass
class SourceStatus:
    connected: bool = False
    frames: int = 0
    drops: int = 0
    skipped: int = 0  # frames not processed: missed while the stream was down, or dropped to keep up
    message: str = ""
    lost: bool = False  # gave up: no picture for reconnect_s


class LiveSource:
    """(frame, media time, image) from a live source. Media time is the stream's clock: a file's
    own timeline (k / fps), or seconds since the start for a camera or a URL."""

    def __init__(self, source: str, speed: float = 1.0, reconnect_s: float = 60.0, retry_s: float = 1.0,
                 opener=None, depth: int = 150):
        self.source = source
        self.is_file = not (source.isdigit() or "://" in source)
        if self.is_file and not Path(source).exists():
            raise MediaError(f"{source}: no such file (a camera is a number, a stream a URL)")
        self.speed = speed
        self.reconnect_s, self.retry_s = reconnect_s, retry_s
        self.opener = opener or _open_capture
        self.status = SourceStatus()
        self.fps = 30.0
        self.queue: queue.Queue = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self.t_start: float | None = None  # wall clock at media time 0
        self.ended = threading.Event()

    def wall_at(self, media_t: float) -> float:
        """The wall-clock time at which the source showed media time `media_t`."""
        return (self.t_start or 0.0) + media_t / (self.speed if self.is_file else 1.0)

    def start(self) -> None:
        threading.Thread(target=self._run, name="live-source", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def frames(self):
        """Yield frames until the source ends (or gives up reconnecting)."""
        while True:
            item = self.queue.get()
            if item is None:
                return
            yield item

    def _put(self, item) -> None:
        try:
            self.queue.put_nowait(item)
        except queue.Full:
            # Processing fell behind: drop the oldest frame rather than fall further behind.
            try:
                self.queue.get_nowait()
                self.status.skipped += 1
            except queue.Empty:
                pass
            self.queue.put_nowait(item)

    def _run(self) -> None:
        import cv2

        cap, k = None, 0
        lost_since = None
        try:
            while not self._stop.is_set():
                if cap is None:
                    cap = self.opener(self.source)
                    if cap is None or not cap.isOpened():
                        cap = None
                        now = time.monotonic()
                        lost_since = lost_since or now
                        if now - lost_since > self.reconnect_s:
                            self.status.message = f"{self.source}: no picture for {self.reconnect_s:g} s; stopped"
                            self.status.lost = True
                            return
                        self.status.message = f"{self.source}: cannot open; retrying"
                        self._stop.wait(self.retry_s)
                        continue
                    if self.t_start is None:
                        self.fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0) or 30.0
                        self.t_start = time.monotonic()
                    elif self.is_file:
                        # Back on the air where the clock is now: what was missed stays missed.
                        k_now = int((time.monotonic() - self.t_start) * self.speed * self.fps)
                        if k_now > k:
                            self.status.skipped += k_now - k
                            k = k_now
                        cap.set(cv2.CAP_PROP_POS_FRAMES, k)
                    self.status.connected = True
                    if lost_since is not None:
                        self.status.message = f"reconnected after {time.monotonic() - lost_since:.1f} s"
                    lost_since = None
                if self.is_file:
                    due = self.t_start + k / (self.fps * self.speed)
                    wait = due - time.monotonic()
                    if wait > 0:
                        self._stop.wait(wait)
                ok, img = cap.read()
                if not ok:
                    if self.is_file and k >= int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0) - 1:
                        self.status.message = "end of the video"
                        return
                    cap.release()
                    cap = None
                    self.status.connected = False
                    self.status.drops += 1
                    lost_since = time.monotonic()
                    self.status.message = f"{self.source}: the stream dropped; reconnecting"
                    self._stop.wait(self.retry_s)
                    continue
                t = k / self.fps if self.is_file else time.monotonic() - self.t_start
                self._put((k, t, img))
                self.status.frames += 1
                k += 1
        finally:
            if cap is not None:
                cap.release()
            self.status.connected = False
            self.ended.set()
            self.queue.put(None)


def _open_capture(source: str):
    import cv2

    return cv2.VideoCapture(int(source) if source.isdigit() else source)


# --- the referee ---------------------------------------------------------------------------------------
@dataclass
class LiveCall:
    text: str
    ruling: dict
    latency_s: float | None  # wall time from the balls stopping to the call


@dataclass
class LiveReferee:
    source: LiveSource
    game: str
    table: Table
    out: Path
    players: tuple = ("A", "B")
    breaker: str | None = None
    calibration: Path | None = None
    head: str = "auto"
    lock: threading.RLock = field(default_factory=threading.RLock)
    changed: threading.Condition = field(default=None)
    version: int = 0
    latencies: list = field(default_factory=list)
    last_latency: float | None = None  # the last call's, None when the stream's end closed its shot
    error: str | None = None

    def __post_init__(self):
        self.changed = threading.Condition(self.lock)
        self.files = GameFiles(self.out)
        header = new_header(self.game, self.table, players=self.players, breaker=self.breaker)
        header["video"] = self.source.source
        self.referee: Referee = self.files.load(header)
        self.done = threading.Event()
        from vision import rimfit, rimvotes

        # Before the camera starts: its queue would drop the first frames while these load.
        rimfit.warm()
        rimvotes.warm()

    # The processing thread.
    def run(self) -> None:
        from tracking.shots import ShotReconstructor

        cal = self.calibration
        if cal is None and (self.out / "calibration.json").exists():
            cal = self.out / "calibration.json"
        observer = Observer(self.table, game=self.game, calibration=cal, head=self.head)
        recon = None
        t = 0.0
        try:
            for k, t, img in self.source.frames():
                obs = observer(k, t, img)
                if recon is None:
                    if not (self.out / "calibration.json").exists():
                        observer.cal.save(self.out / "calibration.json")
                    prior = sum(1 for e in self.referee.entries if e.get("kind") == "shot")
                    recon = ShotReconstructor(self.table, self.source.fps, video=Path(self.source.source).name,
                                              prior_shots=prior)
                self._take(recon.push(k, t, obs))
            if recon is not None and not self.source.status.lost:
                # The end of the stream closed this shot, not the balls stopping: no latency to measure.
                self._take(recon.finish(t), timed=False)
            elif recon is not None and recon.episode is not None:
                # A shot cut off by the lost picture is not ruled on half its evidence.
                self.error = f"the picture was lost during a shot at {recon.episode.start_t:.1f} s: not ruled"
        except MediaError as e:
            self.error = str(e)
        finally:
            with self.lock:
                self.version += 1
                self.changed.notify_all()
            self.done.set()

    def _take(self, records, timed: bool = True) -> None:
        for rec in records:
            with self.lock:
                calls = self.files.rule(self.referee, rec)
                self.last_latency = None
                if timed:
                    stop = next((e["t"] for e in rec["events"] if e["type"] == "stop"), 0.0)
                    self.last_latency = round(time.monotonic() - self.source.wall_at(rec["t0"] + stop), 3)
                    self.latencies += [self.last_latency] * len(calls)
                self._bump()

    def _bump(self) -> None:
        self.version += 1
        self.changed.notify_all()

    # Operator actions (from the page), each ruled at once and saved.
    def act(self, action: str, body: dict) -> dict:
        with self.lock:
            ref = self.referee
            if action == "declare":
                allowed = {"push_out", "safety", "called", "extension"}
                bad = set(body) - allowed
                if bad:
                    raise OperatorError(f"cannot declare {', '.join(sorted(bad))}: one of {', '.join(sorted(allowed))}")
                ref.declare(**body)
            elif action == "decide":
                ref.decide(str(body.get("choice", "")), body.get("player"))
            elif action in ("override", "amend"):
                shot = body.get("shot")
                if not isinstance(shot, int):
                    last = next((c.ruling.get("shot") for c in reversed(ref.calls) if not c.ruling.get("lag")), None)
                    shot = last
                if shot is None:
                    raise OperatorError("there is no shot to change yet")
                if action == "override":
                    ov = {k: body[k] for k in ("reason", "waive", "foul") if body.get(k) not in (None, [], "")}
                    ref.amend(shot, override=ov)
                else:
                    ref.amend(shot, declared=body.get("declared") or {})
            else:
                raise OperatorError(f"unknown action {action!r}")
            self.files.save(ref)
            self._bump()
            return self.state()

    def state(self) -> dict:
        with self.lock:
            ref = self.referee
            last = ref.last
            return {
                "version": self.version,
                "scoreboard": ref.scoreboard(),
                "last_call": None if last is None else {"text": last.text, "ruling": last.ruling,
                                                         "latency_s": self.last_latency},
                "calls": [{"text": c.text, "shot": c.ruling.get("shot"), "legal": c.ruling.get("legal")}
                          for c in ref.calls[-8:]],
                "options": ref.options(),
                "declared": dict(ref.declared),
                "source": {"connected": self.source.status.connected, "frames": self.source.status.frames,
                           "drops": self.source.status.drops, "skipped": self.source.status.skipped,
                           "message": self.source.status.message},
                "not_ruled": [r["why"] for r in ref.rejected[-3:]],  # records the game could not take
                "error": self.error,
                "log": str(self.files.game),
            }


# --- the web page ---------------------------------------------------------------------------------------
def is_loopback(host: str) -> bool:
    return host in ("localhost", "::1") or host.startswith("127.")


def make_server(live: LiveReferee, host: str = "127.0.0.1", port: int = 8080, token: str | None = None):
    """The HTTP server (not started). A token is made up when the host is not loopback."""
    if token is None and not is_loopback(host):
        token = secrets.token_urlsafe(12)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):  # quiet: the terminal shows the calls
            pass

        def _send(self, code: int, body: bytes, ctype: str) -> None:
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, code: int, obj) -> None:
            self._send(code, json.dumps(obj).encode(), "application/json")

        def do_GET(self):
            url = urlparse(self.path)
            if url.path in ("/", "/operator"):
                self._send(200, PAGE.read_bytes(), "text/html; charset=utf-8")
            elif url.path == "/api/state":
                self._json(200, live.state())
            elif url.path == "/events":
                self._events()
            else:
                self._json(404, {"error": f"no page {url.path}"})

        def _events(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "keep-alive")
            self.end_headers()
            seen = -1
            try:
                while not stopping.is_set():
                    with live.changed:
                        if live.version == seen:
                            live.changed.wait(timeout=10.0)
                    if live.version == seen:
                        self.wfile.write(b": keep-alive\n\n")  # also tells us the page went away
                    else:
                        st = live.state()
                        seen = st["version"]
                        self.wfile.write(b"event: state\ndata: " + json.dumps(st).encode() + b"\n\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return

        def do_POST(self):
            url = urlparse(self.path)
            action = url.path.removeprefix("/api/")
            if token is not None:
                given = self.headers.get("X-Cueref-Token") or parse_qs(url.query).get("token", [None])[0]
                if not given or not secrets.compare_digest(given, token):
                    self._json(403, {"error": "this action needs the operator token"})
                    return
            try:
                n = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(n) or b"{}")
                if not isinstance(body, dict):
                    raise ValueError("expected a JSON object")
            except ValueError as e:
                self._json(400, {"error": f"the request body is not a JSON object: {e}"})
                return
            try:
                self._json(200, live.act(action, body))
            except OperatorError as e:
                self._json(409, {"error": str(e)})

    stopping = threading.Event()
    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    server.token = token
    orig_shutdown = server.shutdown

    def shutdown():
        stopping.set()
        with live.changed:
            live.changed.notify_all()
        orig_shutdown()

    server.shutdown = shutdown
    return server


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else math.nan
