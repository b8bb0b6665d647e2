"""The parts of the library a relink patches (``library.relink``): a part keyed by entity or note without the edited
notes' old items and with their new ones, the co-mention counts, the opinions the changed facts state or cite made
again, and linking's warnings with the edited notes' in their place.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from site_builder.core.diagnostics import Diagnostic, Diagnostics
from site_builder.core.library import Library
from site_builder.core.model import Fact, Link, Note, Opinion
from site_builder.core.resolver import Resolver
from site_builder.library.co_mentions import co_mentioned, co_mentions
from site_builder.library.link import recorded_history
from site_builder.library.opinions import group_opinion_facts, make_opinion, opinion_key, restated_differently

# What linking warns about, by stage: the pages' names and aliases, then each link (note by note), then opinions.
_NAMING_CODES = frozenset({"duplicate-entity", "front-matter", "alias"})
_LINK_CODES = frozenset({"broken-link"})
T = TypeVar("T", Link, Fact)


@dataclass(frozen=True)
class Patched(Generic[T]):
    """One part of the library patched: the edited notes' items as they were and as they are (each with its key),
    and the part with the old ones taken out and the new ones put in."""

    old: list[tuple[str, T]]
    new: list[tuple[str, T]]
    now: dict[str, list[T]]


def patched_part(
    last: dict[str, list[T]],
    edited: dict[str, tuple[Note, Note]],
    old: list[tuple[str, T]],
    new: list[tuple[str, T]],
    arrange: Callable[[list[T]], list[T]],
) -> dict[str, list[T]]:
    """``last`` (key -> items of notes) without the edited notes' items and with their new ones, each list put in
    order again (``arrange``); keys without items left out, the keys in order."""
    added: dict[str, list[T]] = defaultdict(list)
    for key, item in new:
        added[key].append(item)
    out = dict(last)
    for key in {key for key, _ in old} | added.keys():
        kept = [item for item in last.get(key, []) if item.path not in edited]
        items = arrange(kept + added.get(key, []))
        if items:
            out[key] = items
        else:
            out.pop(key, None)
    return out if out.keys() == last.keys() else dict(sorted(out.items()))


def patched_related(
    last: dict[str, list[tuple[str, int]]], edited: dict[str, tuple[Note, Note]], resolver: Resolver
) -> tuple[dict[str, list[tuple[str, int]]], set[tuple[str, str]]]:
    """The co-mention counts without the edited notes' old lines and with their new ones; the pairs whose count
    changed (both ways)."""
    change: Counter[tuple[str, str]] = Counter()
    for old, new in edited.values():
        change.subtract(co_mentions(old, resolver))
        change.update(co_mentions(new, resolver))
    moved: dict[str, dict[str, int]] = defaultdict(dict)
    for (a, b), count in change.items():
        if count:
            moved[a][b] = count
    out = dict(last)
    for a, counts in moved.items():
        now = dict(last.get(a, []))
        for b, count in counts.items():
            now[b] = now.get(b, 0) + count
        found = [(-count, b) for b, count in now.items() if count > 0]
        if found:
            out[a] = co_mentioned(found)
        else:
            out.pop(a, None)
    return (out if out.keys() == last.keys() else dict(sorted(out.items()))), {(a, b) for a in moved for b in moved[a]}


def patched_opinions(
    last: Library, edited: dict[str, tuple[Note, Note]], facts: list[Fact], by_path: dict[str, Note]
) -> tuple[list[Opinion], dict[str, list[Fact]]]:
    """The last opinions with those the edited notes' changed facts state or cite made again (the same list when
    there are none), and the facts of each opinion made again (none for one that is gone)."""
    changed = [
        f for old, new in edited.values() for f in set(old.facts) ^ set(new.facts)
    ]  # not those left as they were
    ids = {f.id for f in changed}
    keys = {opinion_key(f) for f in changed if f.kind == "O"}
    recorded = recorded_history(by_path)  # the other points of an opinion are its own O facts: those are in keys
    keys.update(key for key, points in recorded.items() if any(p.fact_id in ids for p in points))
    if not keys:
        return last.opinions, {}
    groups = group_opinion_facts(facts)
    touched = {key: groups.get(key, []) for key in keys}
    by_id = {f.id: f for f in facts}
    again = [make_opinion(key, group, recorded.get(key, []), [], by_id) for key, group in touched.items() if group]
    kept = [opinion for opinion in last.opinions if opinion.id not in keys]
    return sorted(kept + again, key=lambda o: (-o.confidence, o.id)), touched


def patched_problems(
    last: list[Diagnostic], edited: dict[str, tuple[Note, Note]], found: Diagnostics, touched: dict[str, list[Fact]]
) -> Diagnostics | None:
    """What linking warns about: the names' warnings, each link's (the edited notes' new ones in their place) and
    the opinions' (those of the ``touched`` opinions found again). None when the last ones are not in the order
    linking makes them."""
    naming = [d for d in last if d.code in _NAMING_CODES]
    links = [d for d in last if d.code in _LINK_CODES]
    opinions = [d for d in last if d.code not in _NAMING_CODES | _LINK_CODES]
    if naming + links + opinions != last:
        return None
    links = sorted([d for d in links if d.path not in edited] + found.items, key=lambda d: d.path)  # stable
    if touched:  # each warning is on a fact of its opinion: those of the touched ones are found again
        moved = {(f.path, f.line) for old, _ in edited.values() for f in old.facts}
        moved.update((f.path, f.line) for group in touched.values() for f in group)
        again = restated_differently({key: group for key, group in touched.items() if group})
        opinions = [d for d in opinions if (d.path, d.line) not in moved] + again
        opinions.sort(key=lambda d: (d.path, d.line))
    return Diagnostics([*naming, *links, *opinions])
