"""The pages of opinions: where each starts, and which of them an edit changes.

A page ends after a card whose id's checksum is a multiple of ``CUT_ONE_IN`` once it holds ``CARDS_AT_LEAST``, or at
``CARDS_AT_MOST`` (about 185 a page: a few megabytes even when each card has a long history). Cut by content, as
rsync and backup tools cut files, an opinion added or moved changes the page it lands on and leaves the others as
they were; cut every 200 cards, it moved a card across every later page's edge.
"""

from __future__ import annotations

import bisect
import zlib
from collections.abc import Collection, Sequence

from site_builder.core.model import Opinion

CARDS_AT_LEAST, CUT_ONE_IN, CARDS_AT_MOST = 100, 100, 400
Starts = tuple[list[int], list[int]]  # where the pages of two lists of opinions start, the last's and the new's


def page_starts(opinions: Sequence[Opinion]) -> list[int]:
    """Where each page of ``opinions`` (in their order) starts: the place of its first card."""
    starts, size = [0], 0
    for place, opinion in enumerate(opinions, 1):
        size += 1
        cut = size >= CARDS_AT_MOST or (
            size >= CARDS_AT_LEAST and zlib.crc32(opinion.id.encode("utf-8", "surrogateescape")) % CUT_ONE_IN == 0
        )
        if cut and place < len(opinions):
            starts.append(place)
            size = 0
    return starts


def page_number(place: int, starts: list[int]) -> int:
    """The page (from 1) the ``place``-th opinion's card is on, the pages starting at ``starts``."""
    return bisect.bisect_right(starts, place)


def pages_changed(last: list[Opinion], now: list[Opinion], remade: Collection[str], starts: Starts) -> set[int]:
    """The pages of ``now``'s opinions that differ from ``last``'s, ``remade`` the ids of the opinions made again and
    ``starts`` the pages' (``page_starts``) of each: a page whose cards are others or made again, the first when the
    count of opinions differs, and every page when the links between them do (how many pages there are, each one's
    first and last confidence)."""
    before, after = _pages(last, starts[0]), _pages(now, starts[1])

    def ends(pages: list[list[Opinion]]) -> list[tuple[float, float]]:
        return [(cards[0].confidence, cards[-1].confidence) for cards in pages if cards]

    if ends(before) != ends(after):
        return set(range(1, len(after) + 1))
    changed = {
        number
        for number, (was, cards) in enumerate(zip(before, after, strict=True), 1)
        if [o.id for o in was] != [o.id for o in cards] or any(o.id in remade for o in cards)
    }
    return changed | ({1} if len(last) != len(now) else set())


def _pages(opinions: list[Opinion], starts: list[int]) -> list[list[Opinion]]:
    return [opinions[start:end] for start, end in zip(starts, [*starts[1:], len(opinions)], strict=True)]
