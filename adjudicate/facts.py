"""What happened in one shot, read from its event list, before any game's rules are applied.

Timing comparisons give the shooter the benefit of the doubt (WPA Reg 25, 3.2, 3.3): two events
whose times are closer than their combined uncertainty (the sum of their `t_err`, i.e. their
uncertainty intervals overlap) cannot be ordered, and each rule reads that in the shooter's favour.
"""
from __future__ import annotations

from dataclasses import dataclass

from cueref.records import Event, ShotRecord


def simultaneous(a: Event, b: Event) -> bool:
    return abs(a.t - b.t) <= a.t_err + b.t_err


def clearly_before(a: Event, b: Event) -> bool:
    """`a` happened before `b` even at the ends of both uncertainty intervals."""
    return b.t - a.t > a.t_err + b.t_err


def ball_order(name: str) -> int:
    return 0 if name == "cue" else int(name)


@dataclass(frozen=True)
class ShotFacts:
    record: ShotRecord
    strikes: tuple[Event, ...]
    first: tuple[Event, ...]  # cue-ball collisions that cannot be told from the first one
    pocketed: tuple[Event, ...]
    off_table: tuple[Event, ...]
    cushions: tuple[Event, ...]
    crosses: tuple[Event, ...]
    disturbed: tuple[Event, ...]
    airborne: tuple[Event, ...]
    stop: Event | None

    @property
    def first_balls(self) -> tuple[str, ...]:
        """The balls that may have been the cue ball's first contact, lowest number first."""
        return tuple(sorted({e.other("cue") for e in self.first}, key=ball_order))

    @property
    def first_event(self) -> Event | None:
        return self.first[0] if self.first else None

    @property
    def pocketed_balls(self) -> tuple[str, ...]:
        return tuple(e.ball for e in self.pocketed)

    @property
    def object_pocketed(self) -> tuple[str, ...]:
        return tuple(b for b in self.pocketed_balls if b != "cue")

    @property
    def object_off_table(self) -> tuple[str, ...]:
        return tuple(e.ball for e in self.off_table if e.ball != "cue")

    @property
    def cue_pocketed(self) -> Event | None:
        return next((e for e in self.pocketed if e.ball == "cue"), None)

    @property
    def cue_off_table(self) -> Event | None:
        return next((e for e in self.off_table if e.ball == "cue"), None)

    def pocket_of(self, ball: str) -> str | None:
        return next((e.pocket for e in self.pocketed if e.ball == ball), None)

    def rail_after_contact(self) -> Event | None:
        """The first ball driven to a rail (WPA 2.7: pocketed or off the table counts) not
        clearly before the cue ball's first contact (3.3: contact and rail together → ball first)."""
        first = self.first_event
        if first is None:
            return None
        for e in self.cushions + self.pocketed + self.off_table:
            if not clearly_before(e, first):
                return e
        return None

    def balls_to_rail(self, *, after: Event | None = None, objects_only: bool = True) -> set[str]:
        """Balls driven to a rail (2.7), pocketed and off-table balls included; with `after`, only
        those not clearly before that event."""
        out = set()
        for e in self.cushions + self.pocketed + self.off_table:
            if objects_only and e.ball == "cue":
                continue
            if after is not None and clearly_before(e, after):
                continue
            out.add(e.ball)
        return out

    def crossed(self, ball: str, line: str) -> tuple[Event, ...]:
        return tuple(e for e in self.crosses if e.ball == ball and e.line == line)

    def cue_left_kitchen_before(self, e: Event) -> bool:
        """The cue ball crossed the head string before `e`, or we cannot tell that it did not."""
        return any(not clearly_before(e, c) for c in self.crossed("cue", "head_string"))


def read_shot(record: ShotRecord) -> ShotFacts:
    evs = record.events  # chronological (parse_shot sorts them)
    cue_hits = [e for e in evs if e.type == "collision" and "cue" in e.balls]
    first: tuple[Event, ...] = ()
    # A contact the path shows came after another of the cue ball's (`follows`) was not first,
    # however close their times: there is no doubt to give (WPA Reg 25, 3.2 is for doubt).
    pairs = {frozenset(e.balls) for e in cue_hits}
    candidates = [e for e in cue_hits if e.follows is None or frozenset(e.follows) not in pairs] or cue_hits
    if candidates:
        # Any contact whose interval overlaps the earliest one's could have been first.
        f = candidates[0]
        first = tuple(e for e in candidates if simultaneous(e, f) or e is f)
    return ShotFacts(
        record=record,
        strikes=tuple(e for e in evs if e.type == "strike"),
        first=first,
        pocketed=tuple(e for e in evs if e.type == "pocket"),
        off_table=tuple(e for e in evs if e.type == "off_table"),
        cushions=tuple(e for e in evs if e.type == "cushion"),
        crosses=tuple(e for e in evs if e.type == "cross"),
        disturbed=tuple(e for e in evs if e.type == "disturbed"),
        airborne=tuple(e for e in evs if e.type == "airborne"),
        stop=record.stop(),
    )
