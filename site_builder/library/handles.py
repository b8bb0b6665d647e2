"""Handles as entities: a lower-case word the prose writes where names go (``parse.handles``) at least
``MIN_PLACES`` times is a handle when it is written, as a word, at least ``MIN_LINES`` times in at least
``MIN_FILES`` files (as any name in prose must be; counted in the notes' whole text, one pass for all of them), and is
no common word ("explicitly said", "re-audit"; "Memory" at the start of sentences) nor a name the workspace has already (a
name written with capitals once, "Molt Zero" in a title, does not make ``molt_zero`` one)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

from site_builder.core.model import Note
from site_builder.core.stop_words import STOP_WORDS

MIN_PLACES, MIN_LINES, MIN_FILES = 2, 3, 2
_HASH = re.compile(r"(?=[a-f]*\d)[0-9a-f]{7,40}")  # a commit's or a file's digest, with a digit


def found_handles(
    places: Counter[str],
    notes: Iterable[Note],
    taken: Callable[[str], bool],
    lowered: Counter[str],
    versioned: set[str],
) -> list[str]:
    """The handles among the words written where names go (``places``: each word and how often), in order;
    ``taken``: is a name already an entity's; ``lowered``: how often each word is written in lower case;
    ``versioned``: the words written with a version, names though made of words ("youtube-ultimate v2.0")."""
    candidates = sorted(
        word
        for word, count in places.items()
        if count >= MIN_PLACES
        and len(word) > 2
        and word not in STOP_WORDS
        and not _adverb(word, lowered)  # "explicitly said"
        and not _HASH.fullmatch(word)  # "- **ae617f42c** — the fix": a commit
        and not (
            "-" in word and word not in versioned and all(len(part) < 4 or lowered[part] for part in word.split("-"))
        )  # "re-audit", "self-registration"
        and not taken(word)
    )
    if not candidates:
        return []
    written = re.compile(r"(?<![\w#/.-])(" + "|".join(map(re.escape, candidates)) + r")(?![\w/-]|\.\w)")
    lines: Counter[str] = Counter()
    files: Counter[str] = Counter()
    for note in notes:
        here = Counter(written.findall(note.body))
        lines.update(here)
        files.update(here.keys())
    return [word for word in candidates if lines[word] >= MIN_LINES and files[word] >= MIN_FILES]


def _adverb(word: str, lowered: Counter[str]) -> bool:
    """A word in -ly made of one the prose writes ("explicitly" of "explicit", "happily", "simply", "truly",
    "basically"), not a handle that happens to end so ("mladaily")."""
    if not word.endswith("ly"):
        return False
    stem = word[:-2]
    forms = (stem, stem + "e", stem[:-1] + "y", stem[:-1] + "le", stem[:-2])  # "automatically" of "automatic"
    return len(stem) < 3 or stem.endswith("al") or any(lowered[form] for form in forms)
