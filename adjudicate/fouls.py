"""The fouls every game shares (WPA 3), detected once and cited per game.

A game says which balls may be hit first, whether the contact-and-rail rule applies to this shot,
whether the cue ball came from the kitchen, and which article it cites for each foul code; the
detection itself lives only here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from adjudicate.facts import ShotFacts, ball_order, clearly_before
from adjudicate.model import Foul, GameState
from cueref.records import ShotRecord

WPA_ARTICLES = {
    "cue_ball_pocketed": "WPA 3.1",
    "cue_ball_off_table": "WPA 3.1",
    "wrong_ball_first": "WPA 3.2",
    "no_contact": "WPA 3.3",
    "no_rail": "WPA 3.3",
    "object_ball_off_table": "WPA 3.5",
    "ball_disturbed": "WPA 3.6",
    "double_hit": "WPA 3.7",
    "balls_moving": "WPA 3.9",
    "bad_cue_ball_placement": "WPA 3.10",
    "bad_play_from_kitchen": "WPA 3.11",
    "shot_clock": "WPA 3.14",
}


@dataclass(frozen=True)
class FoulRules:
    """How one game applies the general fouls to one shot."""
    articles: dict[str, str] = field(default_factory=lambda: dict(WPA_ARTICLES))
    legal_first: frozenset[str] | None = None  # None: any ball may be contacted first
    legal_first_text: str = ""  # "the lowest ball on the table was the 3"
    contact_and_rail: bool = True  # WPA 3.3 / VN 84 (off on the break and on a push out)
    kitchen: bool = False  # the cue ball was in hand behind the head string (3.10 placement)
    kitchen_play: str | None = None  # "wpa" (3.11), "vn" (VN 93), None (not a foul in the game)


def _name(b: str) -> str:
    return "the cue ball" if b == "cue" else f"the {b}"


def general_fouls(state: GameState, shot: ShotRecord, f: ShotFacts, fr: FoulRules) -> list[Foul]:
    a = fr.articles
    table = state.header.table
    out: list[Foul] = []

    # 3.1 cue ball pocketed or off the table
    if f.cue_pocketed:
        out.append(Foul("cue_ball_pocketed", a["cue_ball_pocketed"], f.cue_pocketed.t,
                        f"the cue ball was pocketed in the {f.cue_pocketed.pocket} pocket"))
    if f.cue_off_table:
        out.append(Foul("cue_ball_off_table", a["cue_ball_off_table"], f.cue_off_table.t,
                        "the cue ball left the table"))

    # 3.7 double hit; the tip on any other ball is a touched ball (3.6)
    cue_strikes = [e for e in f.strikes if e.ball == "cue"]
    if len(cue_strikes) > 1:
        out.append(Foul("double_hit", a["double_hit"], cue_strikes[1].t,
                        f"the tip struck the cue ball {len(cue_strikes)} times"))
    for e in f.strikes:
        if e.ball != "cue":
            out.append(Foul("ball_disturbed", a["ball_disturbed"], e.t,
                            f"the cue struck {_name(e.ball)}, not the cue ball"))

    # 3.2 wrong ball first / 3.3 no contact, no rail
    first = f.first_event
    if first is None:
        if fr.contact_and_rail or fr.legal_first is not None:
            code = "no_contact"
            out.append(Foul(code, a[code], f.stop.t if f.stop else None, "the cue ball contacted no object ball"))
    else:
        hit = f.first_balls
        if fr.legal_first is not None and not (set(hit) & fr.legal_first):
            which = " or ".join(_name(b) for b in hit)
            doubt = " (the contacts could not be told apart)" if len(hit) > 1 else ""
            out.append(Foul("wrong_ball_first", a["wrong_ball_first"], first.t,
                            f"the cue ball first contacted {which}{doubt}; {fr.legal_first_text}"))
        if fr.contact_and_rail and not f.pocketed and f.rail_after_contact() is None:
            out.append(Foul("no_rail", a["no_rail"], f.stop.t if f.stop else first.t,
                            "no ball was pocketed and no ball was driven to a rail after the first contact"))

    # 3.5 object ball off the table
    for e in f.off_table:
        if e.ball != "cue":
            out.append(Foul("object_ball_off_table", a["object_ball_off_table"], e.t,
                            f"{_name(e.ball)} left the table"))

    # 3.6 / VN 88 a ball moved with no contact to explain it
    for e in f.disturbed:
        jump = next((j for j in f.airborne if j.ball == "cue" and j.t - j.t_err <= e.t <= j.until + e.t_err), None)
        how = " while the cue ball was in the air (jump)" if jump else ""
        out.append(Foul("ball_disturbed", a["ball_disturbed"], e.t,
                        f"{_name(e.ball)} moved with no ball contact to explain it{how}"))

    # 3.9 shooting while balls still move: the strike came before the last shot had stopped
    if state.last_stop is not None:
        stop_t, stop_err = state.last_stop
        strike = cue_strikes[0] if cue_strikes else None
        strike_err = strike.t_err if strike else 0.0
        if stop_t - shot.t0 > stop_err + strike_err:
            out.append(Foul("balls_moving", a["balls_moving"], 0.0,
                            f"struck {stop_t - shot.t0:.2f} s before the previous shot's balls had stopped"))

    # 3.10 / 3.11 / VN 93 cue ball in hand behind the head string
    if fr.kitchen:
        cx, _ = shot.before["cue"]
        err = shot.pos_err.get("cue", 0.0)
        if cx - err >= table.head_string_x:
            out.append(Foul("bad_cue_ball_placement", a["bad_cue_ball_placement"], 0.0,
                            f"with ball in hand behind the head string the cue ball was placed "
                            f"{cx - table.head_string_x:.0f} mm on or in front of it"))
        elif fr.kitchen_play:
            out.extend(_kitchen_play(shot, f, fr, table))
    return out


def _kitchen_play(shot: ShotRecord, f: ShotFacts, fr: FoulRules, table) -> list[Foul]:
    """WPA 3.11 / VN 93: from the kitchen the cue ball must cross the head string before it
    contacts a ball behind it (a ball on the string is playable, WPA 1.6); VN 93 also forbids a
    cushion before crossing."""
    rule = fr.articles["bad_play_from_kitchen"]
    first = f.first_event
    if first is not None and not f.cue_left_kitchen_before(first):
        behind = [b for b in f.first_balls if table.in_kitchen(shot.before[b], shot.pos_err.get(b, 0.0))]
        if len(behind) == len(f.first_balls):
            return [Foul("bad_play_from_kitchen", rule, first.t,
                         f"from the kitchen the cue ball first contacted {_name(behind[0])}, which is behind "
                         "the head string, before crossing it")]
    if fr.kitchen_play == "vn":
        for e in f.cushions:
            if e.ball == "cue" and not f.cue_left_kitchen_before(e) and (first is None or clearly_before(e, first)):
                return [Foul("bad_play_from_kitchen", rule, e.t,
                             f"the cue ball touched the {e.rail} rail before leaving the kitchen")]
    elif first is None and kitchen_second_paragraph(shot, f, table):
        return [Foul("bad_play_from_kitchen", rule, f.stop.t if f.stop else None,
                     "from the kitchen the cue ball neither crossed the head string nor hit a ball on or in front of it")]
    return []


def kitchen_second_paragraph(shot: ShotRecord, f: ShotFacts, table) -> bool:
    """WPA 3.11, second paragraph: from the kitchen the cue ball must cross the head string or
    hit a ball on or in front of it. True when it did neither (a ball within its position
    uncertainty of the string counts as on it)."""
    if f.crossed("cue", "head_string"):
        return False
    return all(table.in_kitchen(shot.before[b], shot.pos_err.get(b, 0.0)) for b in f.first_balls)


def lowest_ball(balls) -> str | None:
    objs = [b for b in balls if b != "cue"]
    return min(objs, key=ball_order) if objs else None


def shot_clock_foul(state: GameState, shot: ShotRecord, articles: dict[str, str]):
    """WPA 3.14 / Reg 18: time from the previous stop (spinning included) to the strike.

    Returns (foul or None, extension used now, note). The limit is the header's `shot_clock_s`
    (`after_break_s`, at most 60 s, for the shot after the break). Each player has one extension
    per rack: taken when declared, or automatically when time would otherwise run out (a camera
    can't hear the call; the shooter would have made it); on the shot after the break it reaches
    60 s at most. The stop time's uncertainty goes to the shooter (Reg 25)."""
    rules = state.header.rules
    if rules.shot_clock_s is None or state.last_stop is None or state.phase == "break":
        return None, False, None
    stop_t, stop_err = state.last_stop
    elapsed = shot.t0 - stop_t
    limit = rules.shot_clock_s
    if state.after_break and rules.after_break_s is not None:
        limit = rules.after_break_s
    shooter = state.shooter
    used = False
    if shooter not in state.extensions_used and (shot.declared.extension or elapsed > limit + stop_err):
        used = True
        extended = limit + rules.extension_s
        # The shot after the break may be extended, but not beyond 60 s.
        limit = min(extended, max(limit, 60.0)) if state.after_break else extended
    if elapsed > limit + stop_err:
        return (Foul("shot_clock", articles["shot_clock"], 0.0,
                     f"{elapsed:.1f} s from the balls stopping to the strike; the limit was {limit:.0f} s"),
                used, None)
    note = f"{shooter} used their {rules.extension_s:.0f} s extension (WPA Reg 18)" if used else None
    return None, used, note
