"""Reading a game log (JSON Lines): the header, then lag, shot and decision entries in order.

Errors carry the line number as well as the field, so a reader can say exactly what was wrong
and keep everything it ruled before the bad line.
"""
from __future__ import annotations

from typing import Iterable, Iterator

from cueref.records import Header, RecordError, decode_line, parse_entry, parse_header


class LogError(ValueError):
    def __init__(self, line: int, field: str, message: str):
        where = f"line {line}" + (f", field '{field}'" if field else "")
        super().__init__(f"{where}: {message}")
        self.line, self.field, self.message = line, field, message


def read_header(lines: Iterator[tuple[int, str]]) -> Header:
    for n, text in lines:
        try:
            return parse_header(decode_line(text))
        except RecordError as e:
            raise LogError(n, e.field, e.message) from None
    raise LogError(1, "", "the game log is empty: expected a header line")


def numbered(text_lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Non-blank lines with their 1-based line numbers."""
    for n, text in enumerate(text_lines, start=1):
        if text.strip():
            yield n, text


def entries(lines: Iterator[tuple[int, str]], header: Header):
    """Yield (line number, entry) for each line after the header; raise LogError at a bad one."""
    for n, text in lines:
        try:
            yield n, parse_entry(decode_line(text), header)
        except RecordError as e:
            raise LogError(n, e.field, e.message) from None
