"""Frames → observations → records, with decoding overlapped with the work on the frames.

Decoding (FFmpeg inside OpenCV) releases the GIL, and so do most of detection's OpenCV, numpy
and onnxruntime calls: a decoder thread filling a bounded queue lets the two share the cores
instead of taking turns. `decoded()` is that thread; `observed()` puts the detector behind it
(calibrating on the first frame unless given a calibration); `records()` puts the tracker and
the shot reconstructor behind that. Each stage is usable alone.
"""
from __future__ import annotations

import os
import queue
import threading
from pathlib import Path

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")
# FFmpeg's decoding threads for a review (OpenCV's default: one per core). H.264 decodes a few
# frames at once, each waiting on its references' rows: with the detector and the tracker sharing
# the cores, more frames in flight keep the cores busy (2 cores, the benchmark's 1080p60 clip:
# review 161-170 fps with 2, 172-187 with 4, 178-185 with 6 or 8; cores busy 87 % -> 92 %).
DECODE_THREADS = min(16, max(4, 2 * (os.cpu_count() or 1)))
DECODE_DEPTH, DETECT_DEPTH = 24, 8  # frames queued ahead of the detector, observations ahead of the tracker
# Decoded pictures a review may hold at once: both queues, one in each stage's hands, and slack.
REVIEW_RING = DECODE_DEPTH + DETECT_DEPTH + 8


class MediaError(ValueError):
    """The media cannot be read (missing, not a video, corrupt part way)."""


def open_video(path: Path, threads: int | None = None):
    """An OpenCV capture of `path`; `threads`: FFmpeg's decoding threads (None: OpenCV's default)."""
    import cv2

    if not Path(path).exists():
        raise MediaError(f"{path}: no such file")
    params = [] if threads is None else [cv2.CAP_PROP_N_THREADS, int(threads)]
    cap = cv2.VideoCapture(str(path), cv2.CAP_ANY, params)
    if not cap.isOpened():
        cap.release()
        raise MediaError(f"{path}: cannot be read as a video (not a video, or an unsupported codec)")
    return cap


def video_info(path: Path) -> tuple[float, int]:
    """(frames per second, frame count as the container says; 0 if unknown)."""
    import cv2

    cap = open_video(path)
    try:
        return float(cap.get(cv2.CAP_PROP_FPS) or 0.0) or 30.0, int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
    finally:
        cap.release()


def threaded(items, depth: int = 24, name: str = "stage"):
    """Run an iterator in its own thread, `depth` items ahead of the consumer. An exception in it
    reaches the consumer after the items before it; a consumer that stops early stops it."""
    q: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()
    END = object()

    def work():
        try:
            for item in items:
                if stop.is_set():
                    break
                q.put(item)
        except BaseException as e:  # noqa: BLE001 - handed to the consumer
            q.put(_Raised(e))
        finally:
            q.put(END)

    th = threading.Thread(target=work, name=name, daemon=True)
    th.start()
    try:
        while True:
            item = q.get()
            if item is END:
                break
            if isinstance(item, _Raised):
                raise item.error
            yield item
    finally:
        stop.set()
        while th.is_alive():  # let a producer blocked on a full queue finish
            try:
                q.get_nowait()
            except queue.Empty:
                th.join(0.01)


class _Raised:
    def __init__(self, error: BaseException):
        self.error = error


def frames_of(path: Path, start_frame: int = 0, stop_frame: int | None = None, threads: int | None = DECODE_THREADS,
              ring: int = 0):
    """(frame index, media time, BGR image) of a video from `start_frame`, in this thread. A video
    that ends before the frame count its header announces (truncated, corrupt) raises
    MediaError naming the frame, after the frames before it. `ring` > 0: the pictures are
    decoded into `ring` arrays taken in turn (a picture is overwritten `ring` frames after it
    is yielded), for a consumer that lets go of each picture well before that: no new 6 MB
    picture a frame, whose fresh pages cost the kernel ~0.1-0.2 ms a frame (the review)."""
    import cv2

    cap = open_video(path, threads)
    bufs: list = []
    try:
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0) or 30.0
        count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        if start_frame > 0:
            cap.set(cv2.CAP_PROP_POS_FRAMES, start_frame)
        k = start_frame
        while stop_frame is None or k < stop_frame:
            if len(bufs) < ring:  # the ring's arrays are the first pictures themselves
                ok, img = cap.read()
                if ok:
                    bufs.append(img)
            else:
                ok, img = cap.read(bufs[(k - start_frame) % ring] if ring else None)
            if not ok:
                break
            yield k, k / fps, img
            k += 1
        if stop_frame is None and count and k < count - 2:
            raise MediaError(f"{path}: the video ends at frame {k} of the {count} its header announces "
                             "(truncated or corrupt)")
    finally:
        cap.release()


def decoded(path: Path, start_frame: int = 0, stop_frame: int | None = None, depth: int = DECODE_DEPTH,
            ring: int = 0):
    """`frames_of` decoded in a thread `depth` frames ahead (`ring`: see `frames_of`; it must
    exceed every frame the consumers may hold: `depth`, their own queues, the ones in hand)."""
    open_video(path).release()  # a missing or unreadable file is said here, not from the thread
    return threaded(frames_of(path, start_frame, stop_frame, ring=ring), depth, "decode")


class Observer:
    """Images → ball observations: calibrates on the first image (or takes a calibration) and
    keeps one detector, so successive frames share work."""

    def __init__(self, table, game: str | None = None, calibration: Path | None = None, head: str = "auto"):
        self.table, self.game, self.calibration, self.head = table, game, calibration, head
        self.cal = None
        self.det = None
        # The detector's compiled steps load meanwhile (numba's cache, the first time in a
        # process: ~0.5 s), while the first frame is decoded and the table found in it.
        self._warming = threading.Thread(target=_warm_detector, name="cueref-warm-detector", daemon=True)
        self._warming.start()

    def __call__(self, k: int, t: float, img):
        if self.det is None:
            self._start(img)
        return self.det.observe(img, k, t)

    def _start(self, img) -> None:
        from vision.calibrate import Calibration, CalibrationError, auto
        from vision.detect import BallDetector
        from vision.identify import ModelMissing

        try:
            cal = Calibration.load(self.calibration) if self.calibration else auto(img, self.table, head=self.head)
        except (CalibrationError, ModelMissing, OSError, KeyError, TypeError) as e:
            if self.calibration:
                raise MediaError(str(e) if str(self.calibration) in str(e) else f"calibration {self.calibration}: {e}") from None
            raise MediaError(f"the table was not found: {e}") from None
        size = (cal.camera.width, cal.camera.height)
        if size != (img.shape[1], img.shape[0]):
            raise MediaError(f"frames are {img.shape[1]}x{img.shape[0]} but the calibration is for "
                             f"{size[0]}x{size[1]}")
        self._warming.join()
        try:
            self.det = BallDetector(cal, game=self.game)
        except ModelMissing as e:
            raise MediaError(str(e)) from None
        self.cal = cal

    @property
    def ball_radius_px(self) -> float:
        return float(self.det.locator.r_full) if self.det is not None else 10.0


def _warm_detector() -> None:
    try:
        from vision import rimfit, rimvotes

        rimfit.warm()
        rimvotes.warm()
    except Exception:  # noqa: BLE001 - the detector's own start says what is wrong, in its thread
        pass


def observed(frames, observer: Observer):
    """(frame, t, observations, image) for each decoded frame. However this ends (an error, the
    consumer stopping), the frames' source is closed with it: a decoder thread is not left
    blocked behind a full queue."""
    try:
        for k, t, img in frames:
            yield k, t, observer(k, t, img), img
    finally:
        close = getattr(frames, "close", None)
        if close is not None:
            close()


def observed_threaded(frames, observer: Observer, depth: int = DETECT_DEPTH):
    """`observed` in a thread of its own: detection (mostly OpenCV, numpy and onnxruntime, which
    release the GIL) overlaps with what the consumer does with the observations (tracking).
    While it runs, OpenCV's own thread pool is off: the stages are the parallelism, and splitting
    each small operation across the cores they already share costs more than it gives (review
    166 fps against 159-162 with it on, the benchmark's clip)."""
    import cv2

    before = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        yield from threaded(observed(frames, observer), depth, "detect")
    finally:
        cv2.setNumThreads(before)


def _tracking_context():
    """Where `ReconstructorProcess` starts its process. Not forked from the review's process: the
    decoder's and the detector's threads may be running already. Forked from a fork server
    instead, started once per process with the tracker's modules imported (numpy, scipy's
    assignment, filterpy: about 0.7 s, 1.1 s of CPU with the interpreter's start), so that a
    process that reviews video after video pays that once, and each tracking process is ready in
    a few milliseconds and exits without an interpreter's teardown. Spawned where there is no
    fork server (Windows)."""
    import multiprocessing as mp

    if "forkserver" not in mp.get_all_start_methods():
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["tracking.shots"])  # (not the main script, as by default)
    return ctx


class ReconstructorProcess:
    """A `tracking.shots.ShotReconstructor` in a process of its own, for a review: tracking and
    event extraction are pure Python, and in the review's process they take turns for the GIL
    with the detector's Python; in a process of their own they use the core time the others
    leave. Observations go over in batches of `BATCH` frames. `push` returns the records the
    process has finished so far (a few frames after the in-process reconstructor would), `drain`
    waits for every frame sent and returns what they gave, `finish` ends the last episode as
    `ShotReconstructor.finish` does. An error in the process is raised again here, at the
    next call. (The benchmark's clip, old and new code alternated, 3 runs each: 142.7 -> 149.3
    fps, medians.)"""

    BATCH = 8

    def __init__(self, table, fps: float, video: str | None = None, prior_shots: int = 0):
        ctx = _tracking_context()
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_reconstruct, args=(child, table, fps, video, prior_shots),
                                 name="cueref-tracking", daemon=True)
        # Started from a thread: the first start in a process waits for the fork server to import
        # the tracker's modules (~0.7 s), time in which the review decodes its first frames,
        # calibrates and loads the detector. The first batch waits for it (`_started`).
        self._start_error: BaseException | None = None
        self._starting: threading.Thread | None = threading.Thread(
            target=self._start, args=(child,), name="cueref-tracking-start", daemon=True)
        self._starting.start()
        self._batch: list = []
        self._waiting = 0  # messages sent and not yet answered
        self._ready: list[dict] = []
        self._answered = False  # whether the process has answered at all

    def _start(self, child) -> None:
        try:
            self._proc.start()
        except BaseException as e:  # noqa: BLE001 - raised again at the first send
            self._start_error = e
        finally:
            child.close()

    def _started(self) -> None:
        """Wait for the process's start (see `__init__`); raise what stopped it."""
        if self._starting is not None:
            self._starting.join()
            self._starting = None
            if self._start_error is not None:
                raise self._start_error

    def push(self, frame: int, t: float, observations) -> list[dict]:
        self._batch.append((frame, t, observations))
        if len(self._batch) >= self.BATCH:
            self._send(("push", self._batch))
            self._batch = []
        # Read every frame: the process's answers (one a batch) never pile up behind a send.
        self._collect(block=False)
        return self._take()

    def drain(self) -> list[dict]:
        if self._batch:
            self._send(("push", self._batch))
            self._batch = []
        self._collect(block=True)
        return self._take()

    def finish(self, t: float) -> list[dict]:
        out = self.drain()
        self._send(("finish", t))
        self._collect(block=True)
        return out + self._take()

    def close(self) -> None:
        try:
            self._started()
        except Exception:  # noqa: BLE001 - it never started: nothing to stop
            pass
        if self._proc.is_alive():
            try:
                self._conn.send(None)
            except (OSError, ValueError):
                pass
            self._proc.join(5)
            if self._proc.is_alive():
                self._proc.terminate()
        self._conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _send(self, msg) -> None:
        self._started()
        try:
            self._conn.send(msg)
        except OSError:  # the process is gone (a broken pipe)
            raise self._ended() from None
        self._waiting += 1

    def _collect(self, block: bool) -> None:
        while self._waiting and (block or self._conn.poll()):
            try:
                kind, value = self._conn.recv()
            except (EOFError, OSError):  # ended, or reset by a process that died
                raise self._ended() from None
            self._answered = True
            self._waiting -= 1
            if kind == "error":
                self._waiting = 0
                raise value
            self._ready.extend(value)

    def _ended(self) -> RuntimeError:
        self._proc.join(1)
        why = f"the tracking process ended unexpectedly (exit code {self._proc.exitcode})"
        if not self._answered:
            # Most likely it never started: a new process imports the main script again (spawn,
            # forkserver), and a script that reviews at its top level starts another review there.
            why += ("; it may not have started: a script that runs a review must do it under "
                    "`if __name__ == \"__main__\":`")
        return RuntimeError(why)

    def _take(self) -> list[dict]:
        out, self._ready = self._ready, []
        return out


def _reconstruct(conn, table, fps, video, prior_shots) -> None:
    """The process of `ReconstructorProcess`: each message answered with the records it gave."""
    from tracking.shots import ShotReconstructor

    recon = ShotReconstructor(table, fps, video=video, prior_shots=prior_shots)
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        kind, value = msg
        try:
            if kind == "push":
                out = [rec for k, t, obs in value for rec in recon.push(k, t, obs)]
            else:
                out = recon.finish(value)
        except Exception as e:  # noqa: BLE001 - raised again in the review's process
            try:
                conn.send(("error", e))
            except Exception:  # noqa: BLE001 - an exception that does not pickle
                conn.send(("error", RuntimeError(f"tracking: {type(e).__name__}: {e}")))
            return
        conn.send(("records", out))
