"""``recall.json``: the token-budgeted bundle an agent loads at the start of a session.

Filled in order (core memory, opinions, entity directory, the other files by name, most recent facts)
until the budget is spent; whatever does not fit is counted in ``budget.omitted``
and every entity's full detail goes to ``recall/entities/<id>.json``.
Tokens are estimated as one per four characters of the JSON written, which is
close to what Claude and GPT tokenizers give for English prose in JSON.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from site_builder.core.library import Library
from site_builder.core.model import Fact, Opinion
from site_builder.core.names import source_url
from site_builder.core.tokens import estimate_tokens
from site_builder.library.recency import recent_first
from site_builder.recall.directory import directory_line, entity_directory, file_directory
from site_builder.recall.entity_shard import entity_shard, fact_json
from site_builder.recall.shard_inputs import HeldShards, shard_inputs

T = TypeVar("T")

SCHEMA = "memwiki/recall@1"
BUNDLE_PATH = "recall.json"
SHARD_DIR = "recall/entities"


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # made once: a shard has thousands of items


def compact(data: object) -> str:
    return _COMPACT.encode(data)


def dumps(data: object, item_text: Callable[[object], str] = compact) -> str:
    """The exact JSON text memwiki writes: compact, with each top-level key and list item on its own line.

    Compact JSON spends the token budget on content, not indentation; one item
    per line keeps a rebuilt file diffable. ``item_text`` writes a list item (the same as ``compact``).
    """
    if not isinstance(data, dict):
        return compact(data) + "\n"
    lines = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            body = ",\n".join(item_text(item) for item in value)
            lines.append(f"{compact(key)}:[\n{body}]")
        else:
            lines.append(f"{compact(key)}:{compact(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


@dataclass
class Bundle:
    """recall.json and its per-entity shards, as JSON-ready data: the shards made in this build (``shards``), and
    the digest of what each shard is made from (``inputs``, by path, every shard's, when asked for)."""

    data: dict[str, Any]
    shards: dict[str, dict[str, Any]] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)

    @property
    def paths(self) -> list[str]:
        """recall.json and every shard, made in this build or kept from the last."""
        return [BUNDLE_PATH, *sorted(self.shards.keys() | self.inputs.keys())]

    @property
    def estimated_tokens(self) -> int:
        return int(self.data["budget"]["estimated_tokens"])

    @property
    def truncated(self) -> bool:
        return bool(self.data["budget"]["truncated"])

    def report(self) -> str:
        """One line for the terminal: how full the bundle is and what was left out."""
        budget = self.data["budget"]
        line = f"recall.json: ~{budget['estimated_tokens']:,} of {budget['max_tokens']:,} tokens"
        left_out = {k.replace("_", " "): n for k, n in budget["omitted"].items() if n}
        if not left_out:
            return line + "; everything fit."
        parts = ", ".join(f"{n} {what}" for what, n in left_out.items())
        return line + f"; left out {parts} (full detail in recall/entities/)."

    @functools.cached_property
    def files(self) -> dict[str, bytes]:
        """recall.json and the shards made as the bytes written."""
        written: dict[int, str] = {}  # a fact is in the shard of each of its entities: its text is made once

        def item_text(item: object) -> str:
            text = written.get(id(item))
            if text is None:
                text = written[id(item)] = compact(item)
            return text

        out = {BUNDLE_PATH: dumps(self.data).encode()}
        out.update({path: dumps(shard, item_text).encode() for path, shard in self.shards.items()})
        return out


def opinion_json(opinion: Opinion) -> dict[str, Any]:
    """An opinion with its history; each point names the fact that set it and how (``change``)."""
    in_history = {p.fact_id for p in opinion.history}
    return {
        "id": opinion.id,
        "statement": opinion.statement,
        "entities": list(opinion.entities),
        "confidence": opinion.confidence,
        "changed": opinion.changed.isoformat() if opinion.changed else None,
        "source": opinion.origin.source,
        "url": source_url(opinion.origin.source),
        "history": [
            {
                "date": p.date.isoformat() if p.date else None,
                "confidence": p.confidence,
                "change": p.change,
                "source": p.source,
            }
            for p in opinion.history
        ],
        "evidence": [
            {"stance": e.stance, "date": e.fact.date.isoformat() if e.fact.date else None, "source": e.fact.source}
            for e in opinion.evidence
            if e.fact.id not in in_history
        ],
    }


class _Filler:
    """Adds items while the estimated size of the bundle stays within budget."""

    def __init__(self, budget: int, used: int) -> None:
        self.budget = budget
        self.used = used
        self.truncated = False

    def take(self, items: Sequence[T], as_json: Callable[[T], dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
        """The JSON of the first ``items`` that fit, and how many did not; only those are made JSON of."""
        taken: list[dict[str, Any]] = []
        for number, thing in enumerate(items):
            item = as_json(thing)
            cost = estimate_tokens(compact(item) + ",\n")
            if self.used + cost > self.budget:
                self.truncated = True
                return taken, len(items) - number
            taken.append(item)
            self.used += cost
        return taken, 0


# kept(path, inputs): was the last build's shard at ``path``, made from the same ``inputs``, kept as it is?
KeptShard = Callable[[str, str], bool]


def opinion_facts(opinions: list[Opinion]) -> frozenset[str]:
    """The ids of the facts the opinions show (every point's, every evidence's, every opinion's origin): recall.json
    gives them with their opinions, not among the facts."""
    ids = {p.fact_id for o in opinions for p in o.history} | {e.fact.id for o in opinions for e in o.evidence}
    return frozenset(ids | {o.origin.id for o in opinions})


def make_bundle(
    library: Library,
    title: str,
    max_tokens: int,
    kept: KeptShard | None = None,
    held: HeldShards | None = None,
    in_opinions: frozenset[str] | None = None,
) -> Bundle:
    """Build recall.json within ``max_tokens`` and a shard per entity; with ``kept``, only the shards it did not
    keep from the last build (see ``shard_inputs``; ``held``: the shards whose inputs are the last build's).
    ``in_opinions``: ``opinion_facts`` of the library's opinions, when known."""
    in_opinions = opinion_facts(library.opinions) if in_opinions is None else in_opinions
    facts = [f for f in recent_first(library.facts) if f.id not in in_opinions and not library.dreamed(f)]
    data = _empty_bundle(library, title, max_tokens)
    _fill(data, library, facts, max_tokens)
    _settle(data)
    shards, inputs = _entity_shards(library, kept, held)
    return Bundle(data, shards, inputs)


def _empty_bundle(library: Library, title: str, max_tokens: int) -> dict[str, Any]:
    """recall.json's header, with its lists empty and its numbers not yet counted."""
    days = library.days
    return {
        "schema": SCHEMA,
        "title": title,
        "latest_day": days[-1].date.isoformat() if days and days[-1].date else None,
        "budget": {
            "max_tokens": max_tokens,
            "estimated_tokens": 0,
            "truncated": False,
            "omitted": {"core_lines": 0, "opinions": 0, "entities": 0, "files": 0, "facts": 0},
        },
        "core": {"source": library.core.path if library.core else "memory.md", "text": ""},
        "opinions": [],
        "entities": [],
        "files": [],
        "facts": [],
        "detail": SHARD_DIR + "/<id>.json",
    }


def _fill(data: dict[str, Any], library: Library, facts: list[Fact], max_tokens: int) -> None:
    """Fill ``data`` in order (core memory, opinions, entity directory, files, ``facts``) while it stays within
    ``max_tokens``, counting in ``budget.omitted`` what does not fit."""
    # The header's numbers are filled in at the end; reserve room for their digits
    # and for the brackets a non-empty list adds.
    filler = _Filler(max_tokens, estimate_tokens(dumps(data)) + 12)
    core_text, data["budget"]["omitted"]["core_lines"] = _fit_core(library, filler)
    data["core"]["text"] = core_text
    omitted = data["budget"]["omitted"]
    data["opinions"], omitted["opinions"] = filler.take(library.opinions, opinion_json)
    data["entities"], omitted["entities"] = filler.take(entity_directory(library), lambda e: directory_line(library, e))
    data["files"], omitted["files"] = filler.take(file_directory(library), dict)
    data["facts"], omitted["facts"] = filler.take(facts, fact_json)
    data["budget"]["truncated"] = filler.truncated


def _entity_shards(
    library: Library, kept: KeptShard | None, held: HeldShards | None
) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Each entity's shard by path (but those ``kept`` keeps), and with ``kept`` the digest of what each is made
    from (``held``'s when its inputs are the last build's)."""
    made: dict[int, dict[str, Any]] = {}  # a fact's JSON, made once for the shards of all its entities

    def shared_json(fact: Fact) -> dict[str, Any]:
        found = made.get(id(fact))
        if found is None:
            found = made[id(fact)] = fact_json(fact)
        return found

    shards, inputs = {}, {}
    inputs_of = shard_inputs(library) if kept is not None else None
    for entity in library.entities.values():
        path = f"{SHARD_DIR}/{entity.slug}.json"
        if kept is not None and inputs_of is not None:
            inputs[path] = (held.get(entity, path) if held is not None else None) or inputs_of(entity)
            if kept(path, inputs[path]):
                continue
        shards[path] = entity_shard(library, entity, shared_json)
    return shards, inputs


def _settle(data: dict[str, Any]) -> None:
    """Write the final estimate into the bundle (which changes its size), dropping facts if it no longer fits."""
    budget = data["budget"]
    while True:
        estimate = estimate_tokens(dumps(data))
        if estimate > budget["max_tokens"] and data["facts"]:
            data["facts"].pop()
            budget["omitted"]["facts"] += 1
            budget["truncated"] = True
        elif estimate != budget["estimated_tokens"]:
            budget["estimated_tokens"] = estimate
        else:
            return


def _fit_core(library: Library, filler: _Filler) -> tuple[str, int]:
    note = library.core
    if note is None:
        return "", 0
    lines = _squeeze(note.awake_body).split("\n")
    for keep in range(len(lines), -1, -1):
        text = "\n".join(lines[:keep])
        cost = estimate_tokens(compact(text))
        if filler.used + cost <= filler.budget:
            filler.used += cost
            if keep < len(lines):
                filler.truncated = True
            return text, len(lines) - keep
    return "", len(lines)


def _squeeze(body: str) -> str:
    """Drop trailing spaces and runs of blank lines (private blocks leave them)."""
    out: list[str] = []
    for line in body.strip().split("\n"):
        line = line.rstrip()
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out)
