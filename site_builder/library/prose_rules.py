"""The rules that tell a name in prose from the language's words and from what the notes only refer by
(``library.prose_entities``): how often, where and how a name is written, over what ``library.prose_scan`` saw."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from site_builder.core.common_words import of_language
from site_builder.core.names import entity_key
from site_builder.library.prose_aliases import alias_like
from site_builder.library.prose_scan import NameSeen
from site_builder.parse.proper_names import COMMON_CAPITALISED, JOINERS, TERM_HEADS, generic

MIN_LINES, MIN_FILES = 3, 2
CITED_SHARE = 3  # a name cited as an author on a third of its lines is a reference, not an entity
TERMED_SHARE = 2  # a name that is a concept's on half its lines ("Brier score") is the concept's
CODED_SHARE = 3  # a name written as code a third as often as on its lines ("`getUpdates`"), past 3 lines, is code
SHOUTED_LOWERED = 3  # times a word in capitals is written in lower case to be a word shouted ("PROVISIONAL")
MIN_ALONE = 2  # times a common word is written alone among words in lower case to be a name ("on Slack")
# Lines a name of several words is written on to be a name of its own beside the name it starts or ends with.
OWN_NAME_LINES = 10
_CAMEL = re.compile(r"[a-z][A-Z]")  # a capital inside a word, as no common word is written


def _common(word: str, seen: dict[str, NameSeen], lowered: Counter[str]) -> bool:
    """Is a word of a name a common word: "Jobs"; not "Bitcoin", which the prose capitalises three times as often as
    it writes "bitcoin"?"""
    found = seen.get(entity_key(word))
    return generic(word, lowered) and (found is None or lowered[word.casefold()] * 3 > len(found.lines))


def given_name(word: str, lowered: Counter[str], common: frozenset[str]) -> bool:
    """Is the word written as a given name is ("Jeffrey": a capital, then small letters only), of no language and
    never in lower case?"""
    plain = word[1:].isalpha() and word[1:].islower()
    return plain and alias_like(word, lowered) and not of_language(word.casefold(), common)


def camel(seen: NameSeen) -> bool:
    """Is the name written with a capital inside ("SixerDemon"), as no word of the language is?"""
    return _CAMEL.search(seen.name) is not None


@dataclass
class NameRules:
    """The rules of ``prose_entities``, over what the scan saw (``seen``, ``lowered``), the notes about things (``home_of``) and
    the common words of the workspace's languages (``core.common_words``)."""

    seen: dict[str, NameSeen]
    lowered: Counter[str]
    home_of: dict[str, str]
    common: frozenset[str]
    coded: Counter[str]

    def counts(self, key: str, inside: int = 1) -> bool:
        """Is the name written often enough, in the curated memory, ``inside`` times inside a sentence?"""
        found = self.seen[key]
        files = {path for path, _ in found.lines}
        if key in self.home_of and self.home_of[key] in files:  # its own page, and a note beside it, name it
            return len(files) >= MIN_FILES
        curated = found.curated or key in self.home_of
        return len(found.lines) >= MIN_LINES and len(files) >= MIN_FILES and found.inside >= inside and curated

    def reference(self, key: str) -> bool:
        """Is the name, without a page of its own, one the notes refer by: a work's author ("Granovetter (1973)",
        "Singh et al."), a concept's eponym ("Brier score", "Gall's Law") or code ("`getUpdates`"), not a thing
        they deal with?"""
        found = self.seen[key]
        lines = len(found.lines)
        cited = found.cited * CITED_SHARE >= lines or found.termed * TERMED_SHARE >= lines
        return key not in self.home_of and (cited or self.coded[key] * CODED_SHARE >= lines > CODED_SHARE)

    def single(self, key: str) -> bool:
        """Is a name of one word an entity?"""
        found = self.seen[key]
        name = found.name
        word = name.casefold()
        # "RESOLVED" beside "resolved" is a word; "OpenClaw" beside the command "openclaw" is the name, and so is a
        # word of no language written alone in sentences as often as in lower case ("Claude" beside `claude` runs)
        rare = self.lowered[word] * 3 <= found.inside or camel(found)
        if not rare and not of_language(word, self.common) and not name.isupper():
            rare = found.alone >= max(MIN_ALONE, self.lowered[word])
        language = of_language(word, self.common) and not camel(found) and key not in self.home_of
        if language and (name.isupper() or found.alone < MIN_ALONE):
            return False  # "Manager", "Phase", "SIEMPRE": a word of the language, not written as names are
        if name.isupper() and self.lowered[word] >= SHOUTED_LOWERED:
            return False  # "PROVISIONAL" beside "provisional" three times or more: a word shouted, not a name
        # a word of no language, never written in lower case and once alone or listed among names in a sentence
        # ("applied to Datadog", "orgs (Anthropic, Datadog"), is a name
        named = found.alone or found.listed
        inside = 1 if not of_language(word, self.common) and not self.lowered[word] and named else 2
        return self.counts(key, inside) and rare and word not in COMMON_CAPITALISED

    def several(self, key: str, words: list[str]) -> bool:
        """Is a name of several words an entity, not a label in title case or another name with a common word?"""
        seen, lowered = self.seen, self.lowered
        if words[-1].isupper() and words[-1].casefold() in self.common and not words[0].isupper():
            return False  # "Daniel SIEMPRE": a name, then a word shouted
        plain = [word for word in words if word not in JOINERS]
        if words[-1].casefold() in TERM_HEADS:
            return False  # "Regression Theorem", "Algernon-Gordon Effect": a concept
        if seen[key].initials:
            return True  # "Agent Continuity Protocol (ACP)": a name the notes abbreviate, of common words or not
        if key not in self.home_of and (
            all(_common(word, seen, lowered) for word in plain)
            or (all(word.casefold() in self.common for word in plain) and seen[key].alone < MIN_ALONE)
        ):
            return False  # "Cron Jobs", "Illusion of Control": common words in title case, not written as names are
        if len(seen[key].lines) >= OWN_NAME_LINES and seen[key].inside >= 2:
            return True  # "Google Drive", "Claude Code": written so often, a name of its own
        head, tail = entity_key(" ".join(words[:-1])), entity_key(" ".join(words[1:]))
        if head in seen and generic(words[-1], lowered) and (" " in seen[head].name or self.single(head)):
            return False  # "Codex CLI": Codex
        return not (tail in seen and generic(words[0], lowered) and (" " in seen[tail].name or self.single(tail)))
