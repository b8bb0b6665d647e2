"""One pass over the prose of every note (``scan_prose``) and what it finds: each proper name and where it is
written, the words written in lower case, and the words written where names go (handles): the records the rules of
``prose_entities``, ``prose_aliases`` and ``prose_mentions`` read."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from site_builder.core.model import Note
from site_builder.core.names import entity_key
from site_builder.library.registries import bold_label, registry_entry, table_entry, table_head
from site_builder.parse.handles import named_handles, versioned_names
from site_builder.parse.lines import walk_lines
from site_builder.parse.proper_names import lower_words, proper_names

# The stream of memory: what happened, day by day. The rest (core memory, standing files, pages, projects) is
# curated: what the memory keeps.
STREAM_KINDS = frozenset({"daily", "session", "dream", "reflections", "episodes"})
_CODE = re.compile(r"(`+)((?:(?!\1).)+?)\1")  # inline code
_FILE_NAME = re.compile(r"\b([A-Z][A-Z_]+)\.(?:md|txt|json|ya?ml|toml|rst)\b")  # "README.md", "HEARTBEAT.md"


@dataclass
class NameSeen:
    """Where one name was written."""

    lines: set[tuple[str, int]] = field(default_factory=set)
    inside: int = 0  # times written inside a sentence
    cited: int = 0  # times cited as a work's author ("Granovetter (1973)"; ``ProperName.cited``)
    alone: int = 0  # times written alone among words in lower case ("messaged on Slack"; ``ProperName.alone``)
    listed: int = 0  # times written after another name in a list ("orgs (Anthropic, Datadog"; ``ProperName.listed``)
    initials: Counter[str] = field(default_factory=Counter)  # its abbreviations ("ACP"; ``ProperName.initials``)
    termed: int = 0  # times written as a concept's name ("Brier score"; ``ProperName.termed``)
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
    tabled: set[str] = field(default_factory=set)  # the items of tables of names ("| Name | Role |": "| Max | …")
    headed: dict[str, set[tuple[str, int]]] = field(default_factory=lambda: defaultdict(set))
    handles: Counter[str] = field(default_factory=Counter)  # lower-case words written where names go
    versioned: Counter[str] = field(default_factory=Counter)  # of them, the ones written with a version
    files: Counter[str] = field(default_factory=Counter)  # the names written as a file's in capitals: "README.md"
    coded: Counter[str] = field(default_factory=Counter)  # the names written as code, by key: "`getUpdates`"


def scan_prose(notes: list[Note]) -> ProseScan:
    """One pass over every line of prose of the notes: the names, words and handles on each (``ProseScan``)."""
    scan = ProseScan()
    for note in notes:
        curated = note.kind not in STREAM_KINDS
        headings = {heading.line: heading.text for heading in note.headings}
        under = head = previous = ""  # the heading (or bold label) the line is under, the header of its table
        for line in walk_lines(note.body.split("\n"), note.body_start):
            if line.role != "text" or not line.text:
                head = previous = ""
                continue
            head, previous = table_head(head, previous, line.text), line.text
            place = (note.path, line.number)
            if line.number in headings:
                under = headings[line.number]
                for name in proper_names(line.text.lstrip("# ")):
                    scan.headed[entity_key(name.text)].add(place)
                    scan.texts[place] = line.text
                continue
            if label := bold_label(line.text):
                under = label  # what the lines below it are, within the section: "**Qué es:**", "**Family:**"
            scan.lowered.update(lower_words(line.text))
            if "." in line.text:
                scan.files.update(_FILE_NAME.findall(line.text))
            scan.handles.update([*named_handles(line.text), *(versioned := versioned_names(line.text))])
            scan.versioned.update(versioned)
            if "`" in line.text:
                scan.coded.update(
                    entity_key(name.text) for span in _CODE.finditer(line.text) for name in proper_names(span[2])
                )
            tabled = table_entry(head, line.text) if curated else None
            if curated and (entry := registry_entry(under, line.text) or tabled):
                scan.listed[f"{note.path}#{under}"].append((entry, line.number))
                scan.texts[place] = line.text
                if entry == tabled:
                    scan.tabled.add(entry)
            for name in proper_names(line.text):
                found = scan.seen[entity_key(name.text)]
                found.lines.add(place)
                found.inside += not name.opens
                found.alone += name.alone
                found.listed += name.listed
                found.cited += name.cited
                found.termed += name.termed
                if name.initials:
                    found.initials[name.initials] += 1
                found.curated |= curated
                found.forms[name.text] += 1
                scan.texts[place] = line.text
    return scan
