"""What a reflector is: the inputs it gets, the answers it gives and what it reports using.

Two exist: ``OfflineReflector`` (``reflect.offline``) and ``ClaudeReflector``
(``reflect.claude``); ``reflect.choose`` picks one from the settings. A new
reflector implements ``Reflector`` and is added there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Fact, Note, Opinion
from site_builder.io.memo_store import MemoStore


class MalformedAnswer(Exception):
    """A model answered, but not with the structure asked for."""


@dataclass(frozen=True)
class EntityInput:
    """What a reflector needs to summarise one entity."""

    key: str
    name: str
    path: str  # the page the summary goes to
    type: str
    text: str  # the person's own page text (private parts and generated blocks removed)
    facts: list[Fact]
    opinions: list[Opinion]
    related: list[str]
    previous: str  # the summary written last time ("" if none)
    offline: str  # the offline summary, the fallback when the model fails


@dataclass(frozen=True)
class VerdictInput:
    opinion: Opinion
    facts: list[Fact]


@dataclass
class Usage:
    calls: int = 0
    cached: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


class Reflector(Protocol):
    name: str
    usage: Usage

    def summaries(self, entities: list[EntityInput], diagnostics: Diagnostics) -> dict[str, str]:
        """Entity key -> summary; a missing key means keep the previous text."""
        ...

    def verdicts(self, items: list[VerdictInput], diagnostics: Diagnostics) -> dict[tuple[str, str], str]:
        """(opinion id, fact id) -> reinforces / weakens / contradicts / irrelevant; a pair left out is irrelevant."""
        ...

    def read(self, notes: list[Note], store: MemoStore, diagnostics: Diagnostics) -> dict[str, dict[str, Any]]:
        """Note path -> what the reflector found reading the note's prose (``reflect.reader``); {} offline."""
        ...

    def cache_files(self) -> dict[str, bytes]:
        """Files to keep under ``.memwiki/`` between runs (a cache of answers), if any."""
        ...
