"""Which opinions cite each note: those a fact of the note set or moved (in their history or evidence)."""

from __future__ import annotations

from collections.abc import Collection

from site_builder.core.library import Library
from site_builder.core.model import Opinion
from site_builder.library.opinion_pages import Starts, page_number


def citing_places(opinions: list[Opinion]) -> dict[str, list[tuple[int, int]]]:
    """Note path -> the place in ``opinions`` of each opinion citing it, with the first line of the note it cites,
    in the opinions' order. One pass over every opinion's history and evidence: made once per linked library and
    kept with it (``library.saved``), so that a build reusing the library, which makes the pages of a few notes,
    does not make it again (60 ms on the large race corpus)."""
    cited: dict[str, dict[int, int]] = {}
    for place, opinion in enumerate(opinions):
        add_citing(cited, place, opinion)
    return {path: list(found.items()) for path, found in cited.items()}


def citing_of(library: Library) -> dict[str, list[tuple[int, int]]]:
    """``citing_places`` of ``library``'s opinions: the library's own when it came with it, else worked out and kept
    with it, so that what reads the same library next does not work it out again (serve's page of an edit, made
    from the last build's library: 1.9 s on the large race corpus after a build that linked anew)."""
    if library.citing is None:
        library.citing = citing_places(library.opinions)
    return library.citing


def add_citing(cited: dict[str, dict[int, int]], place: int, opinion: Opinion) -> set[str]:
    """The facts ``opinion`` (at ``place``) cites, added to ``cited`` (note path -> place -> first line cited);
    the paths of their notes."""
    paths = set()
    for fact in [p.fact for p in opinion.history if p.fact] + [e.fact for e in opinion.evidence]:
        found = cited.get(fact.path)
        if found is None:
            found = cited[fact.path] = {}
        known = found.get(place)
        if known is None or fact.line < known:
            found[place] = fact.line
        paths.add(fact.path)
    return paths


def citing_after(
    last: Library, opinions: list[Opinion], remade: Collection[str], starts: Starts
) -> tuple[dict[str, list[tuple[int, int]]], set[str]]:
    """``citing_places(opinions)`` made from the last library's (the kept opinions at their new places, the
    ``remade`` ones found again), and the notes whose citing opinions may show otherwise on their pages: cited by an
    opinion made again, or by one whose card moved to another page (``starts``: where the pages of the last opinions
    and of these start; an opinion added moves the places after it)."""
    was = citing_of(last)
    kept = {opinion.id: place for place, opinion in enumerate(opinions) if opinion.id not in remade}
    before, after = starts
    moved: list[int | None] = [kept.get(opinion.id) for opinion in last.opinions]  # by old place: the new one
    paged = [
        new is None or page_number(old, before) != page_number(new, after) for old, new in enumerate(moved)
    ]  # by old place: made again or on another page
    cited: dict[str, dict[int, int]] = {}
    changed = set()
    for path, found in was.items():
        if any(paged[place] for place, _ in found):
            changed.add(path)
        now = {new: line for place, line in found if (new := moved[place]) is not None}
        if now:
            cited[path] = now
    for place, opinion in enumerate(opinions):
        if opinion.id in remade:
            changed.update(add_citing(cited, place, opinion))
    return {path: sorted(found.items()) for path, found in cited.items()}, changed
