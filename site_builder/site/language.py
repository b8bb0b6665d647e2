"""The site's language: ``[site] language`` in memwiki.toml, else told from the notes' text.

It is every page's ``<html lang>`` (screen readers, fonts, hyphenation and a
browser's translate offer follow it) and the language Pagefind indexes the
site in: its stemmer, and for Chinese and Japanese the splitting of unspaced
text into words. One language for the whole site: one index, and every query
is split the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from site_builder.core.model import Note

_HAN, _KANA, _LETTER = re.compile(r"[\u4e00-\u9fff]"), re.compile(r"[\u3040-\u30ff]"), re.compile(r"[^\W\d_]")
_TAG = re.compile(r"<[^>]*>")
SAMPLE = 200  # notes read to tell the language: spread over the workspace
SAMPLE_CHARACTERS = 4_000  # of each: enough to tell, and a workspace of long session dumps is not read whole again


def site_language(notes: Sequence[Note], configured: str = "") -> str:
    """The ``configured`` language, else the one the notes are written in (``text_language``)."""
    if configured:
        return configured
    sample = notes[:: max(1, len(notes) // SAMPLE)]
    return text_language([note.body[:SAMPLE_CHARACTERS] for note in sample])


def text_language(texts: Sequence[str]) -> str:
    """``zh`` or ``ja`` when most letters of the texts (Markdown or HTML) are Chinese or Japanese, else ``en``."""
    sample = _TAG.sub(" ", "\n".join(texts))
    han, kana = len(_HAN.findall(sample)), len(_KANA.findall(sample))
    if not han + kana:  # no Chinese or Japanese character at all (or no text): no need to count the letters
        return "en"
    if (han + kana) * 3 < len(_LETTER.findall(sample)) - han - kana:  # a CJK character says about a word
        return "en"
    return "ja" if kana * 5 > han else "zh"


def index_language(language: str) -> str:
    """The language Pagefind is told: the primary subtag (``pt`` for ``pt-BR``)."""
    return language.split("-")[0].lower()
