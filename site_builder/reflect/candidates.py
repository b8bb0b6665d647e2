"""Which facts reflect weighs each opinion against: a bounded number per opinion, those that share the most words
with its statement (``verdict_inputs``)."""

from __future__ import annotations

from site_builder.core.library import Library
from site_builder.core.model import Fact, fact_order
from site_builder.library.opinions import VERDICTS
from site_builder.reflect.offline import Words
from site_builder.reflect.reflector import VerdictInput

# The most facts weighed against one opinion in a run (two Claude requests of ``claude.VERDICT_BATCH``).
VERDICT_CANDIDATES = 40


def verdict_inputs(library: Library) -> list[VerdictInput]:
    """Per opinion, the facts about its entities that bear on it most and are not judged yet: of the
    ``VERDICT_CANDIDATES`` sharing the most words with the statement (newest first among equals), those not
    judged, given oldest first. An opinion is weighed against a bounded number of facts, so a heavy workspace
    costs a reflector (and Claude calls) in proportion to its opinions, not opinions x facts, and reflect
    settles in one run; a new fact is among the first weighed against a statement it shares as many words with
    as the others. The facts about a set of entities, and which of them hold each word, are gathered once for
    every opinion about that set."""
    about: dict[tuple[str, ...], _Candidates] = {}
    words = Words()
    items = []
    for opinion in library.opinions:
        judged = {p.fact_id for p in opinion.history if p.change in VERDICTS}
        keys = tuple(sorted({e.key for n in opinion.entities if (e := library.resolver.entity(n))}))
        candidates = about.get(keys)
        if candidates is None:
            candidates = about[keys] = _Candidates(library, keys, words)
        chosen = candidates.for_statement(words.stems(opinion.statement) - words.names(opinion.entities), judged)
        if chosen:
            items.append(VerdictInput(opinion, chosen))
    return items


class _Candidates:
    """The facts about a set of entities, in fact order, and for each word stem the set of the facts holding it (an
    int, one bit per fact: its place in that order)."""

    def __init__(self, library: Library, keys: tuple[str, ...], words: Words) -> None:
        found = {f.id: f for key in keys for f in library.facts_by_entity.get(key, []) if f.kind in ("W", "B", "S")}
        self.facts = sorted(found.values(), key=fact_order)
        holding: dict[str, list[int]] = {}
        for place, fact in enumerate(self.facts):
            for stem in words.stems(fact.content):
                holding.setdefault(stem, []).append(place)
        self.holding = {stem: sum(1 << place for place in places) for stem, places in holding.items()}
        self.every = (1 << len(self.facts)) - 1

    def for_statement(self, stems: frozenset[str] | set[str], judged: set[str]) -> list[Fact]:
        """The facts to weigh against a statement: of the ``VERDICT_CANDIDATES`` facts that share the most of its
        words (newest first among equals), those not judged yet. The same facts give the same choice, judged or
        not, so a second run with no new input weighs nothing new and changes no byte. Each fact's count of shared
        words is added up for all the facts at once, in bits (``levels[i]``: bit i of every fact's count), and the
        facts of each count, from the most words down, are taken newest first: a few dozen operations on ints of a
        bit per fact, not a count and a sort per fact (an entity may have thousands; 29,563 opinions took 5 s)."""
        if len(self.facts) <= VERDICT_CANDIDATES:
            return [fact for fact in self.facts if fact.id not in judged]
        holding = [bits for stem in stems if (bits := self.holding.get(stem))]
        levels = [0] * len(holding).bit_length()
        for bits in holding:
            carry = bits
            for i, level in enumerate(levels):
                levels[i], carry = level ^ carry, level & carry
                if not carry:
                    break
        best: list[int] = []
        for count in range(len(holding), -1, -1):  # down to the facts sharing no word
            same = self.every
            for i, level in enumerate(levels):
                same &= level if count >> i & 1 else ~level
            while same and len(best) < VERDICT_CANDIDATES:
                place = same.bit_length() - 1
                best.append(place)
                same ^= 1 << place
        return [fact for place in sorted(best) if (fact := self.facts[place]).id not in judged]
