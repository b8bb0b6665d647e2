"""Tags as Obsidian reads them: ``tags:`` (or ``tag:``) in the front matter, a list or a text ("a, b", "a b"), and
``#tags`` in the text.

A tag holds letters, digits, ``_``, ``-`` and ``/`` (nested tags: ``#project/memwiki``) and at least one letter.
In the text it follows a space, the start of the line, a parenthesis or an emphasis mark (``**#tag**``): ``C#``,
a URL's ``/#fragment`` and ``&#39;`` are none, nor is a link's target (``[a](#anchor)``), ``#123`` (an issue), a
colour (``#fff``, ``#a1b2c3``: ``_colour``) or anything in code. Tags group by ``tag_key``: case, ``_``, ``-`` and
spaces do not tell two apart.
"""

from __future__ import annotations

import re
from typing import Any

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Tag
from site_builder.core.names import slugify

# What may come before a tag's ``#`` (also the private-use mark the renderer puts where a line starts).
BEFORE_TAG = r"(?<![^\s(*_~=\ue001])"
INLINE_TAG = re.compile(BEFORE_TAG + r"#(?P<tag_name>[\w/-]+)")
_HEX = re.compile(r"[0-9a-fA-F]+")
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
_WIKILINK = re.compile(r"!?\[\[[^\]\n]*\]\]|\]\([^)\n]*\)")  # and a link's target
_SEPARATORS = re.compile(r"[,\s]+")
FRONT_KEYS = ("tags", "tag")


def tag_name(written: str) -> str | None:
    """The tag ``written`` names (``#`` and a ``/`` at the end dropped), or None when it is no tag."""
    name = written.strip().removeprefix("#").rstrip("/")
    if not name or not re.fullmatch(r"[\w/-]+", name) or "//" in name or name.startswith("/"):
        return None
    if not any(c.isalpha() for c in name) or _colour(name):
        return None
    return name


def _colour(name: str) -> bool:
    """Hex digits that read as a colour or a hash, not a word: with a digit (``a1b2c3``), six or eight of them
    (``ffeedd``) or three or four of one letter (``fff``); ``#add`` and ``#cafe`` are tags."""
    if not _HEX.fullmatch(name):
        return False
    return (
        any(c.isdigit() for c in name) or len(name) in (6, 8) or (len(name) in (3, 4) and len(set(name.lower())) == 1)
    )


def tag_key(name: str) -> str:
    """The key tags group by, also their page's path under ``tags/``: ``Project/Mem_Wiki`` -> ``project/mem-wiki``."""
    return "/".join(slugify(part) for part in name.split("/"))


def inline_tags(text: str, number: int) -> list[Tag]:
    """The ``#tags`` of one line of text (outside code spans, wikilinks and links' targets)."""
    if "#" not in text:
        return []
    text = _WIKILINK.sub(" ", _CODE_SPAN.sub(" ", text))
    return [Tag(name, number) for m in INLINE_TAG.finditer(text) if (name := tag_name(m["tag_name"]))]


def front_matter_tags(meta: dict[str, Any], fields: dict[str, int], path: str, diagnostics: Diagnostics) -> list[Tag]:
    """The tags of ``tags:`` and ``tag:``, each at its key's line; a value that names no tag is reported there."""
    found: list[Tag] = []
    for key in FRONT_KEYS:
        if key in meta:
            line = fields.get(key, 2)
            found.extend(Tag(name, line, front=True) for name in _names(key, meta[key], path, line, diagnostics))
    return found


def _names(key: str, value: Any, path: str, line: int, diagnostics: Diagnostics) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        items: list[Any] = [v for v in _SEPARATORS.split(value) if v]
    elif isinstance(value, list):
        items = value
    else:
        what = f"{key}: {value!r} is not a list of tags nor a text of them; ignored"
        diagnostics.warn(path, line, what, "front-matter")
        return []
    names = []
    for item in items:
        name = tag_name(item) if isinstance(item, str) else None
        if name is None:
            shown = repr(item) if not isinstance(item, str) else repr(item[:40])
            diagnostics.warn(path, line, f"{key}: {shown} is not a tag (letters, digits, _ - /); left out", "tag")
        else:
            names.append(name)
    return names


def record_tags(records: dict[int, dict[str, Any]]) -> list[Tag]:
    """The tags of TinyClaw's episodes, each at its record's line (their pages list them: ``site.records_page``)."""
    found = []
    for number, record in sorted(records.items()):
        tags = record.get("tags")
        for item in tags if isinstance(tags, list) else []:
            name = tag_name(str(item)) if isinstance(item, str | int) else None
            if name:
                found.append(Tag(name, number))
    return found
