"""`cueref <command>`: thin subcommands that parse arguments, call the stages, write JSON."""
from __future__ import annotations

import argparse
import json
import sys

EXIT_BAD_INPUT = 2


def _adjudicate(args) -> int:
    from adjudicate.engine import new_game, step
    from adjudicate.explain import explain
    from cueref.gamelog import LogError, entries, numbered, read_header
    from cueref.records import RecordError

    name = "<stdin>" if args.log == "-" else args.log
    try:
        f = sys.stdin if args.log == "-" else open(args.log, encoding="utf-8")
    except OSError as e:
        print(f"cueref adjudicate: cannot read {name}: {e.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = sys.stdout
    with f:
        lines = numbered(f)
        try:
            header = read_header(lines)
            state = new_game(header)
            for n, entry in entries(lines, header):
                try:
                    ruling, state = step(state, entry, line=n)
                except RecordError as e:
                    raise LogError(n, e.field, e.message) from None
                if ruling is None:
                    continue
                if args.explain:
                    out.write(explain(ruling, entry) + "\n")
                else:
                    out.write(json.dumps(ruling.to_dict(), ensure_ascii=False) + "\n")
                out.flush()  # what is ruled stays ruled, whatever comes next
        except LogError as e:
            print(f"cueref adjudicate: {name}: {e}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except UnicodeDecodeError as e:
            print(f"cueref adjudicate: {name}: not UTF-8 text ({e.reason} at byte {e.start})", file=sys.stderr)
            return EXIT_BAD_INPUT
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cueref", description="A computer-vision referee for pool.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    a = sub.add_parser(
        "adjudicate", help="rule every lag and shot of a game log (JSON Lines)",
        description="Rule every lag and shot of a game log (the cueref/game-1 contract): one ruling "
                    "per line on stdout, in order. Bad input: exit status 2 with the line and field; "
                    "rulings already printed stay printed.")
    a.add_argument("log", metavar="GAME.jsonl", help="the game log; '-' reads standard input")
    a.add_argument("--explain", action="store_true", help="print one readable line per lag or shot instead of JSON")
    a.set_defaults(func=_adjudicate)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as Unix tools do.
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
