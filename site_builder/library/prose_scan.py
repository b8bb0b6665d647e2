"""What one pass over the prose of every note finds (``library.prose_entities``): each proper name and where it is
written, the words written in lower case, and the words written where names go (handles): the records the rules of
``prose_entities``, ``prose_aliases`` and ``prose_mentions`` read."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field


@dataclass
class NameSeen:
    """Where one name was written."""

    lines: set[tuple[str, int]] = field(default_factory=set)
    inside: int = 0  # times written inside a sentence
    cited: int = 0  # times cited as a work's author ("Granovetter (1973)"; ``ProperName.cited``)
    alone: int = 0  # times written alone among words in lower case ("messaged on Slack"; ``ProperName.alone``)
    curated: bool = False
    forms: Counter[str] = field(default_factory=Counter)

    @property
    def name(self) -> str:
        """The name as the prose writes it most."""
        return self.forms.most_common(1)[0][0]


@dataclass
class ProseScan:
    """What one pass over the prose of every note found: each name and where, the words written in lower case,
    the text of each line a name is on, the headings naming one (a heading names an entity, it makes none) and the
    lower-case words written where names go (``parse.handles``)."""

    seen: dict[str, NameSeen] = field(default_factory=lambda: defaultdict(NameSeen))
    lowered: Counter[str] = field(default_factory=Counter)
    texts: dict[tuple[str, int], str] = field(default_factory=dict)
    listed: dict[str, list[tuple[str, int]]] = field(default_factory=lambda: defaultdict(list))  # registry items
    headed: dict[str, set[tuple[str, int]]] = field(default_factory=lambda: defaultdict(set))
    handles: Counter[str] = field(default_factory=Counter)  # lower-case words written where names go
    files: Counter[str] = field(default_factory=Counter)  # the names written as a file's in capitals: "README.md"
