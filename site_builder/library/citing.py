"""Which opinions cite each note: those a fact of the note set or moved (in their history or evidence)."""

from __future__ import annotations

from site_builder.core.model import Opinion


def citing_places(opinions: list[Opinion]) -> dict[str, list[tuple[int, int]]]:
    """Note path -> the place in ``opinions`` of each opinion citing it, with the first line of the note it cites,
    in the opinions' order. One pass over every opinion's history and evidence: made once per linked library and
    kept with it (``io.library_cache``), so that a build reusing the library, which makes the pages of a few notes,
    does not make it again (60 ms on the large race corpus)."""
    cited: dict[str, dict[int, int]] = {}
    for place, opinion in enumerate(opinions):
        add_citing(cited, place, opinion)
    return {path: list(found.items()) for path, found in cited.items()}


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
