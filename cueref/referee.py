"""A game being refereed: the log so far, its rulings, and what the operator said.

Review, live and check share this: records from tracking come in one at a time, the operator's
input (what a camera cannot see) joins them as the contract's `declared` and `decision` entries,
and every change is ruled by the pure engine (`adjudicate.engine.step`). Amending an earlier
entry (a late declaration, the referee's override) re-rules the log from its start, so the
rulings are always those of the log as it now stands — the same a later `cueref adjudicate`
of the saved log gives.

`GameFiles` keeps a folder's `game.jsonl` and `rulings.jsonl` in step with the referee: lines are
appended and flushed to disk as they are ruled (a crash loses nothing ruled), and a re-ruling
rewrites both files atomically.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from adjudicate.engine import new_game, step
from adjudicate.explain import explain
from cueref.gamelog import LogError, numbered
from cueref.records import RecordError, decode_line, parse_entry, parse_header

DECLARABLE = ("push_out", "safety", "called", "extension", "break")


class OperatorError(ValueError):
    """Operator input the game cannot take here (named, with the options there are)."""


@dataclass
class Call:
    """One ruled lag or shot: its place in the log, the ruling (contract JSON) and its line."""
    entry: int  # index into Referee.entries
    ruling: dict
    text: str


@dataclass
class Referee:
    header: dict
    entries: list[dict] = field(default_factory=list)  # lag, shot and decision entries, as logged
    calls: list[Call] = field(default_factory=list)
    declared: dict = field(default_factory=dict)  # for the next shot
    rejected: list[dict] = field(default_factory=list)  # records the game could not take, with why
    notes: list[str] = field(default_factory=list)
    revision: int = 0  # counts re-rulings: what was saved before one is out of date

    def __post_init__(self):
        self.parsed = parse_header(self.header)
        self.state = new_game(self.parsed)
        self.default_breaker = self.header.get("breaker") or self.header["players"][0]

    def _rerule(self, header: dict, entries: list[dict]) -> None:
        """Rule `entries` again from the start under `header` and take the result; on a
        RecordError nothing changes."""
        fresh = Referee(header)
        for e in entries:
            fresh.take(e)
        self.header, self.parsed, self.state = fresh.header, fresh.parsed, fresh.state
        self.entries, self.calls = fresh.entries, fresh.calls
        self.revision += 1

    # --- what comes in ------------------------------------------------------------------------
    def add_record(self, rec: dict) -> Call | None:
        """Rule a lag or shot record from tracking, with the operator's declarations for it.
        A record the game cannot take (a shot where the rules wait for a lag) is kept aside in
        `rejected` with the reason, and None is returned: a live game goes on."""
        rec = dict(rec)
        if rec.get("kind") == "shot":
            if self.declared:
                rec["declared"] = {**rec.get("declared", {}), **self.declared}
            if self.state.phase == "lag" and "breaker" not in self.header:
                # No lag was seen (or the last one seen had to be replayed and the replay was
                # missed): the default breaker breaks, the lags seen stay in the log as ruled.
                self._rerule({**self.header, "breaker": self.default_breaker}, self.entries)
                self.notes.append(f"a shot came where a lag was expected (none seen, or the re-lag missed): "
                                  f"{self.default_breaker} breaks (--breaker says who)")
        try:
            call = self.take(rec)
        except RecordError as e:
            self.rejected.append({"record": rec, "why": f"{e.field}: {e.message}" if e.field else e.message})
            return None
        if rec.get("kind") == "shot":
            self.declared = {}
        return call

    def declare(self, **what) -> dict:
        """What the shooter declares for the next shot (push out, safety, a called ball and
        pocket, a shot-clock extension); None clears an item. Returns the declarations."""
        for k in what:
            if k not in DECLARABLE:
                raise OperatorError(f"cannot declare {k!r}: one of {', '.join(DECLARABLE)}")
        new = {**self.declared, **{k: v for k, v in what.items() if v is not None}}
        for k, v in what.items():
            if v is None:
                new.pop(k, None)
        self._check_declared(new)
        self.declared = new
        return dict(self.declared)

    def decide(self, choice: str, player: str | None = None) -> None:
        """The choice the last ruling offered (`next.options`), made by its decider."""
        entry = {"kind": "decision", "choice": choice}
        if player:
            entry["player"] = player
        try:
            self.take(entry)
        except RecordError as e:
            raise OperatorError(e.message) from None

    def amend(self, shot: int, declared: dict | None = None, override: dict | None = None) -> list[Call]:
        """Change what an earlier shot declared or add the referee's override (WPA 1.11) to it,
        and rule the log again from the start. Returns the calls that changed. Refused (nothing
        changes) when the log no longer holds together, e.g. a logged decision is no longer
        offered."""
        idx = next((c.entry for c in self.calls if c.ruling.get("shot") == shot and not c.ruling.get("lag")), None)
        if idx is None:
            raise OperatorError(f"there is no shot {shot} yet")
        entries = [dict(e) for e in self.entries]
        e = entries[idx]
        if declared is not None:
            self._check_declared(declared)
            e["declared"] = {**e.get("declared", {}), **declared}
        if override is not None:
            e["override"] = override
        old = [c.ruling for c in self.calls]
        try:
            self._rerule(self.header, entries)
        except RecordError as err:
            raise OperatorError(f"the log would not hold together: {err.field}: {err.message}") from None
        return [c for c, r in zip(self.calls, old) if c.ruling != r] + self.calls[len(old):]

    # --- what goes out ------------------------------------------------------------------------
    @property
    def last(self) -> Call | None:
        return self.calls[-1] if self.calls else None

    def options(self) -> dict | None:
        """The open choice, if any: {decider, options, default, reason}."""
        p = self.state.pending
        if p is None:
            return None
        return {"decider": p.decider, "options": list(p.options), "default": p.default, "reason": p.reason}

    def scoreboard(self) -> dict:
        """Score and who is at the table next, and how (with a choice open: as its default
        would have it, which is what happens unless the decider says otherwise)."""
        st = self.state
        shooter, cue_ball, push = st.shooter, st.cue_ball, st.push_out_allowed
        if st.pending is not None:
            eff = st.pending.effects[st.pending.default]
            shooter, cue_ball, push = eff.shooter, eff.cue_ball, eff.push_out_allowed
        return {"game": self.header["game"], "players": list(self.header["players"]),
                "score": dict(st.score), "racks": dict(st.racks), "rack": st.rack,
                "shooter": shooter, "cue_ball": cue_ball, "push_out_allowed": push,
                "shots": len([c for c in self.calls if not c.ruling.get("lag")])}

    # --- ruling --------------------------------------------------------------------------------
    def take(self, entry: dict) -> Call | None:
        """Rule one entry exactly as given (a logged lag, shot or decision): no declarations
        added, errors raised (RecordError). `add_record` is the forgiving way in for tracking."""
        parsed = parse_entry(entry, self.parsed)
        ruling, self.state = step(self.state, parsed, line=len(self.entries) + 2)
        self.entries.append(entry)
        if ruling is None:
            return None
        call = Call(len(self.entries) - 1, ruling.to_dict(), explain(ruling, parsed))
        self.calls.append(call)
        return call

    def _check_declared(self, declared: dict) -> None:
        probe = {"kind": "shot", "t0": 0.0, "before": {"cue": [100.0, 100.0]}, "after": {"cue": [100.0, 100.0]},
                 "events": [], "declared": declared}
        try:
            parse_entry(probe, self.parsed)
        except RecordError as e:
            raise OperatorError(f"{e.field}: {e.message}") from None


class GameFiles:
    """`game.jsonl` (the log) and `rulings.jsonl` of one referee in a folder, kept on disk as
    they grow: each line flushed and synced when ruled; a re-ruling replaces both atomically."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.game = self.folder / "game.jsonl"
        self.rulings = self.folder / "rulings.jsonl"
        self._written = (0, 0, -1)  # entries, calls and the referee's revision on disk

    def load(self, header: dict) -> Referee:
        """The referee of the log already in the folder (resuming), or a new one with `header`.
        A log cut off mid-line by a crash loses only that line."""
        ref = Referee(header)
        if not self.game.exists():
            self.save(ref, rewrite=True)
            return ref
        with open(self.game, encoding="utf-8") as f:
            lines = list(numbered(f))
        if not lines:
            self.save(ref, rewrite=True)
            return ref
        try:
            saved = decode_line(lines[0][1])
        except RecordError as e:
            raise LogError(lines[0][0], e.field, e.message) from None
        for key in ("game", "players"):
            if saved.get(key) != header.get(key):
                raise LogError(1, key, f"{self.game} is a log of {saved.get(key)!r}, not {header.get(key)!r}: "
                                       "use another --out or the same game and players")
        ref = Referee(saved)
        for n, text in lines[1:]:
            try:
                entry = decode_line(text)
            except RecordError:
                if n == lines[-1][0]:
                    break  # the last line, cut short by a crash
                raise LogError(n, "", "not JSON") from None
            try:
                ref.take(entry)
            except RecordError as e:
                raise LogError(n, e.field, e.message) from None
        self.save(ref, rewrite=True)
        return ref

    def rule(self, ref: Referee, rec: dict) -> list[Call]:
        """A record from tracking ruled by `ref` and saved at once: the calls it made (none when
        the game could not take it: `ref.rejected` says why; more than one never, but a
        re-ruling may have changed earlier ones, which the save rewrites)."""
        n = len(ref.calls)
        ref.add_record(rec)
        self.save(ref)
        return ref.calls[n:]

    def save(self, ref: Referee, rewrite: bool = False) -> None:
        n_entries, n_calls, revision = self._written
        if rewrite or revision != ref.revision:
            self._replace(self.game, [ref.header] + ref.entries)
            self._replace(self.rulings, [c.ruling for c in ref.calls])
        else:
            self._append(self.game, ref.entries[n_entries:])
            self._append(self.rulings, [c.ruling for c in ref.calls[n_calls:]])
        self._written = (len(ref.entries), len(ref.calls), ref.revision)

    @staticmethod
    def _append(path: Path, objs: list[dict]) -> None:
        if not objs:
            return
        with open(path, "a", encoding="utf-8") as f:
            for o in objs:
                f.write(json.dumps(o, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())

    @staticmethod
    def _replace(path: Path, objs: list[dict]) -> None:
        tmp = path.with_suffix(path.suffix + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            for o in objs:
                f.write(json.dumps(o, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
