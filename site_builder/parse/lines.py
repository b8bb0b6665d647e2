"""The one line walker: which lines of a Markdown file are text, code fences or HTML comments.

Every reader of a note's lines uses it (the note parser, the line anchors of
the site, generated blocks, recall rows), so they agree on what is code.
A fence opens with three or more backticks or tildes and closes with a line
of at least as many of the same character; an HTML comment that starts a line
runs to the line holding ``-->``. Inside a fence nothing is a comment.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Literal, NamedTuple

FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
COMMENT_OPEN = re.compile(r"^[ \t]*<!--")
_SPECIAL = re.compile(r"[ \t]*(?:`{3}|~{3}|<!--)")  # how a line that may open a fence or a comment starts

Role = Literal["text", "fence", "code", "comment"]
# OpenClaw's dreaming writes managed blocks into notes: <!-- openclaw:dreaming:light:start --> … :end -->
DREAM_MARK = re.compile(r"<!--\s*openclaw:dreaming:(\w+):(start|end)\s*-->")
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # control characters but tab and newline


def printable(text: str) -> str:
    """``text`` with each control character (but tab and newline) shown as U+FFFD: a NUL in a JSON record would
    make the Markdown memwiki writes from it look like a binary file, which no one can read back."""
    return _UNPRINTABLE.sub("\ufffd", text)


class Line(NamedTuple):
    """One line of a file: its number as a person sees it in an editor, its text and its role.

    ``fence`` is a line that opens or closes a code fence, ``code`` a line inside
    one, ``comment`` a line of an HTML comment that starts a line. (A named tuple: every reader walks every line of
    every note, a heavy workspace's ``bank/opinions.md`` a million of them.)
    """

    number: int
    text: str
    role: Role


def walk_lines(lines: Iterable[str], first: int = 1) -> Iterator[Line]:
    """Classify ``lines`` (without their newlines; a trailing ``\\r`` is ignored), numbered from ``first``."""
    make = tuple.__new__  # ``Line``'s own constructor is a Python function: this is a third of the walk
    fence: str | None = None
    in_comment = False
    for number, text in enumerate(lines, first):
        if fence is None and not in_comment and not _SPECIAL.match(text):
            yield make(Line, (number, text, "text"))  # most lines: neither in nor starting a fence or comment
            continue
        line = text.removesuffix("\r")
        opened = FENCE.match(line)
        if fence is not None:
            if opened and opened[1][0] == fence[0] and len(opened[1]) >= len(fence):
                fence = None
                yield make(Line, (number, text, "fence"))
            else:
                yield make(Line, (number, text, "code"))
        elif in_comment or COMMENT_OPEN.match(line):
            in_comment = "-->" not in line
            yield make(Line, (number, text, "comment"))
        elif opened:
            fence = opened[1]
            yield make(Line, (number, text, "fence"))
        else:
            yield make(Line, (number, text, "text"))
