"""What one note becomes in the recall index: a row per searchable line, with its neighbours as context.

Imported only when a file has to be indexed (``RecallIndex.update``): a query on
an unchanged workspace needs none of the parsing behind it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from site_builder.core.model import Fact, Note
from site_builder.core.names import entity_key
from site_builder.library.opinions import DEFAULT_CONFIDENCE, opinion_key
from site_builder.parse.lines import walk_lines
from site_builder.parse.link_syntax import plain_sentence

CONTEXT_LINES = 1


@dataclass(frozen=True)
class Doc:
    path: str
    line: int
    date: str | None
    kind: str
    entities: tuple[str, ...]
    content: str
    context: str
    occurred: str | None = None  # "start/end" (ISO dates) of when a fact happens
    confidence: float | None = None
    opinion: str | None = None  # the opinion an O fact states (restatements share it)

    @property
    def about(self) -> tuple[str | None, float | None, str | None]:
        """What a fact's row adds: when it happens, its confidence, its opinion."""
        return self.occurred, self.confidence, self.opinion


def docs_of(note: Note) -> list[Doc]:
    """Every searchable line of a note (code inside fences too; not fence lines, comments or headings), with its neighbours."""
    facts = {f.line: f for f in note.facts}
    headings = {h.line for h in note.headings}
    linked: dict[int, list[str]] = defaultdict(list)
    for link in note.links:
        linked[link.line].append(link.target)
    date = note.date.isoformat() if note.date else None
    rows: list[Doc] = []
    for line in walk_lines(note.body.split("\n"), note.body_start):
        if line.role in ("fence", "comment") or not line.text.strip() or line.number in headings:
            continue
        fact = facts.get(line.number)
        if fact is not None:
            rows.append(_fact_doc(note.path, date, fact))
            continue
        text = plain_sentence(line.text)
        if text and not set(text) <= set("|-: "):
            kind = "log" if note.kind == "daily" else "page"
            rows.append(Doc(note.path, line.number, date, kind, _keys(linked[line.number]), text, ""))
    docs = []
    for i, d in enumerate(rows):
        around = [
            rows[j].content for j in range(max(0, i - CONTEXT_LINES), min(len(rows), i + CONTEXT_LINES + 1)) if j != i
        ]
        context = " ".join(around)  # a new Doc, not dataclasses.replace: this runs for every line of a workspace
        docs.append(Doc(d.path, d.line, d.date, d.kind, d.entities, d.content, context, *d.about))
    return docs


def _fact_doc(path: str, date: str | None, fact: Fact) -> Doc:
    occurred = f"{fact.occurred[0].isoformat()}/{fact.occurred[1].isoformat()}" if fact.occurred else None
    opinion = opinion_key(fact) if fact.kind == "O" else None
    confidence = fact.confidence if fact.confidence is not None or fact.kind != "O" else DEFAULT_CONFIDENCE
    return Doc(path, fact.line, date, fact.kind, _keys(fact.names), fact.content, "", occurred, confidence, opinion)


def _keys(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(k for k in (entity_key(n) for n in names) if k))
