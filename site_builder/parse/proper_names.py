"""Proper names written in plain text: ``Roger Gimbel``, ``Home Assistant``, ``OpenClaw``, ``NVIDIA``.

A name is a run of capitalised words (``Google Search Console``; ``of``, ``de``, ``do``… may join two:
``Kala do Brasil``), a word with a capital inside (``OpenClaw``, ``GitHub``, ``phpIPAM``) or a word in capitals
with a letter or digit more (``NVIDIA``, ``GA4``). What is not prose is left out before looking: code, links and
their addresses, e-mails, paths and file names, ``#tags``, ``@handles``. Each name found says whether it opened a
sentence (the line, a cell, or after ``.``, ``:``…, but not after Chinese or Japanese text, which has no capitals):
a capital there proves nothing, and linking
(``library.prose_entities``) counts such a name only when it is also written capitalised inside a sentence.

The line's words that are written in lower case are given too (``lower_words``): a word a note writes both
ways (``Heartbeat`` and ``heartbeat``) is a common word, not a name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from site_builder.core.stop_words import STOP_WORDS

# Spans that are not prose, masked before the words are looked at (each only when the line can hold one).
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1|`.*$")
_HTML = re.compile(r"<!--.*?(?:-->|$)|<[^>\n]+>")
_LINK_TARGET = re.compile(r"\]\([^)\n]*\)")
_WIKILINK = re.compile(r"\[\[[^\]\n]*\]\]")
_URL = re.compile(r"\b(?:https?|ftp|file)://\S+|\bwww\.\S+")
# A token that is no word of prose: a path, handle, e-mail, #tag, assignment, file name or identifier.
_NOT_A_WORD = re.compile(
    r"[/\\@=<>{}$%^+|]|^#|_|\.(?:md|json|jsonl|ya?ml|toml|txt|py|ts|sh|log|html?|css|csv|png|jpe?g|gif|svg|pdf|sqlite"
    r"|db|env|lock|ini|cfg|conf|xml|zip|tar|gz|ps1|bat|exe|dll|so|js|mjs|tsx|jsx)$",
    re.IGNORECASE,
)
# A run of capitalised words, one space apart, that may hold a small joining word (``Kala do Brasil``): not
# inside a path, handle, tag or identifier. A word has a capital first, or a capital inside (``iPhone``).
_CAPITAL = r"(?:[A-ZÀ-ÖØ-Þ][^\W_]*|[a-z]+[A-Z][^\W_]*)(?:['’.&-][^\W_]+)*"
_JOIN = r"(?:of|de|do|da|dos|das|del|della|di|van|von|der|la|le|y)"
_RUN = re.compile(rf"(?<![\w@#/\\.$&'’-]){_CAPITAL}(?:(?: {_JOIN})? {_CAPITAL})*(?![\w@/\\])")
_POSSESSIVE = re.compile(r"['’]s$")
# A place after Chinese, Japanese or Korean text or punctuation ("与 Florentina、HelixYoda", "（Ronin）", "作者：Pith"),
# maybe past a colon, bracket or emphasis.
# A letter of Chinese, Japanese or Korean, which have no capitals.
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_AFTER_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef][\s*_~:()\[\]|-]*$")


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Small words that may join the capitalised words of one name (``Bank of America``, ``Kala do Brasil``).
JOINERS = frozenset({"of", "de", "do", "da", "dos", "das", "del", "della", "di", "van", "von", "der", "la", "le", "y"})
_WEEKDAYS_MONTHS = _word_set(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun january "
    "february march april may june july august september october november december jan feb mar apr jun jul aug "
    "sep sept oct nov dec today yesterday tomorrow"
)
# Words in capitals that are no one's name: the shouting of notes, time zones, file formats and protocols.
_CAPITALS = _word_set(
    "todo fixme note notes important critical warning warn error fail failed ok done wip tbd fyi asap eta tldr "
    "utc gmt cet cest est edt pst pdt bst ist jst am pm id ids api apis url urls uri http https json yaml toml "
    "csv html css xml sql pdf png jpg svg md cli gui ui ux os ip tcp udp dns ssh ssl tls vpn lan wan usb cpu gpu "
    "ram ssd hdd io ai llm llms mcp rag tts stt ocr pr prs ci cd qa faq dm dms sms mfa otp pin cwd env vm vms "
    "etc no yes new old n/a na nb ps re fw fwd cc bcc eod eow kpi roi sla sdk ide npm pip tbh imo imho btw lol"
)


# Capitalised in English but common words, not names: languages and the peoples' adjectives.
COMMON_CAPITALISED = _word_set(
    "english spanish italian french german chinese japanese russian portuguese catalan dutch swedish korean "
    "arabic hindi latin greek polish turkish hebrew american european african asian british canadian mexican "
    "brazilian indian australian irish scottish swiss austrian belgian danish norwegian finnish ukrainian "
    "western eastern northern southern christmas easter"
)


class ProperName(NamedTuple):
    text: str
    opens: bool  # it opens a sentence, where any word is capitalised
    # a word alone inside a sentence, among words in lower case (or Chinese): "messaged on Slack", not "Defense in
    # Depth", "Phase 2" or the second word of "Cantillon Effect"
    alone: bool = False
    listed: bool = False  # a word after another name in a list inside a sentence: "orgs (Anthropic, Datadog"
    cited: bool = False  # an author cited: "Granovetter (1973)", "Singh et al.", "Pirolli & Card, 1999"
    # named for a concept, not itself written of: "Gall's Law", "Brier score", "Simpson diversity"
    termed: bool = False
    initials: str = ""  # the abbreviation the text gives it: "Agent Continuity Protocol (ACP)"


def proper_names(line: str) -> list[ProperName]:
    """The proper names in one line of prose, in order (each as written)."""
    if line == line.lower():
        return []
    text = prose_text(line)
    found: list[ProperName] = []
    for m in _RUN.finditer(text):
        before = text[: m.start()].rstrip(" *_~")
        tail = before[-TAIL:]  # what the patterns ending at a name look at: not the whole line before it, each time
        # Chinese and Japanese have no capitals: a capitalised word after their text or punctuation is a name's
        opens = not before or (not (before[-1].isalnum() or before[-1] == ",") and not _AFTER_CJK.search(tail))
        alone = not opens and _among_lower_case(before, text[m.end() :])
        listed = not alone and (
            (not opens and _AFTER_LISTED.search(tail) is not None and _SMALL_LETTER.search(before) is not None)
            or (_ARTICLE.match(m[0]) is not None and _LOWER_NEXT.match(text, m.end()) is not None)
        )
        start = len(found)
        run: list[str] = []
        words = m[0].split(" ")
        for word in words:
            if _NOT_A_WORD.search(word) or not (word in JOINERS or _named(word)):
                _close(run, opens, found)  # a file name or a lone letter inside: the name stops there
                run, opens = [], False
            elif _POSSESSIVE.search(word):  # "Dolores Cannon's Nostradamus": two names
                _close([*run, word], opens, found)
                run, opens = [], False
            else:
                run.append(word)
        _close(run, opens, found)
        if (alone or listed) and len(found) == start + 1:
            found[start] = found[start]._replace(alone=alone, listed=listed)
        found[start:] = _what_follows(found[start:], text, m, tail)
    return found


def _what_follows(names: list[ProperName], text: str, run: re.Match[str], before: str) -> list[ProperName]:
    """The names of one run of capitalised words, each marked by what follows it: a concept's word ("Wilson CI",
    "Gall's Law", "Brier score"), a work's year or co-author (cited), its abbreviation ("(ACP)")."""
    marked = []
    at = run.start()
    for name in names:
        at = text.find(name.text, at) + len(name.text)
        after = _TERM_AFTER.match(text, at)
        name = name._replace(termed=bool(after and after[1].casefold() in TERM_HEADS))
        if at == run.end():
            cited = _CITED.match(text, at) or (_VENUE_BEFORE.search(before) and _VENUE_AFTER.match(text, at))
            short = _ABBREVIATED.match(text, at)
            initials = short[1] if short and short[1].casefold() == _initials(name.text) else ""
            name = name._replace(cited=bool(cited), initials=initials)
        marked.append(name)
    return marked


# What follows a name cited as a work's author: "et al.", a year in brackets, a co-author and a year.
_CITED = re.compile(
    r",? et al\b|,? \((?:1[6-9]|20)\d\d|, (?:1[6-9]|20)\d\d\)| (?:&|and) [A-Z][\w-]+,? \(?(?:1[6-9]|20)\d\d"
    r"| (?:1[6-9]|20)\d\d[a-z]?[),;]|:? ?\d{4}\.\d{4,5}\b"
)


# Where a journal or venue is cited: after a year ("(Sharpe & Tyndall 2025, Cogn Sci)"), before a bracket's end.
_VENUE_BEFORE = re.compile(r"\b(?:1[6-9]|20)\d\d[a-z]?,\s*$")
_VENUE_AFTER = re.compile(r"\s*[);]")
# The word after a name, past a possessive's 's ("Brier score", "Simpson's paradox").
_TERM_AFTER = re.compile(r"(?:['’]s)?[ -]([A-Za-z]+)\b")
# Words that make a name a concept's, as a name + the word is ("Gall's Law", "Brier score", "Byzantine fault"): the
# concepts of science and reasoning named after their people and places.
TERM_HEADS = _word_set(
    "law laws effect effects paradox principle theorem theory lemma fallacy hypothesis conjecture dilemma razor syndrome "
    "score scores index interval ci distribution entropy reaction causality diversity decomposition filter "
    "sampling constant equation inequality bound curve coefficient transform fault faults generals"
)


# After another name in a list: "6 orgs (Anthropic, Cursor, Datadog", "Stripe (Smart Contract Bridge), Notion".
_AFTER_LISTED = re.compile(r"\b[A-Z][\w.&+-]*(?: \([^()]*\))?, ?$")
_SMALL_LETTER = re.compile(r"[a-z]")  # a sentence, not a list alone
TAIL = 80


_ARTICLE = re.compile(r"(?:A|An|The) \S+$")  # "A Coinbase job": an article opening a sentence, then one word
_LOWER_NEXT = re.compile(r" [a-z]")


_ABBREVIATED = re.compile(r" ?\(([A-Z][A-Za-z0-9]{1,7})\)")  # "Nostr Wallet Connect (NWC)"


def _initials(name: str) -> str:
    """The first letters of a name's words, but its joining words ("Bank of America": "ba")."""
    return "".join(word[0] for word in name.split(" ") if word not in JOINERS).casefold()


def _among_lower_case(before: str, after: str) -> bool:
    """Is a word between these written alone among words in lower case: after a word in lower case that is not a
    small word ending a title ("Defense in Depth"), or after Chinese or Japanese text, and before no number
    ("Phase 2")?"""
    if re.match(r"\s*\d", after):
        return False
    if _AFTER_CJK.search(before[-TAIL:]):
        return True
    words = before.rstrip().split()
    if not words or not words[-1].rstrip(",").isalpha() or not words[-1].islower():
        return False
    small = words[-1].casefold() in STOP_WORDS or words[-1] in JOINERS
    return not (small and len(words) > 1 and words[-2].lstrip("*_~\"'([")[:1].isupper())


def prose_text(line: str) -> str:
    """The line with what is not prose blanked out (a ``|`` where it was: a name does not run across it)."""
    text = line
    if "`" in text:
        text = _CODE_SPAN.sub(" | ", text)
    if "<" in text:
        text = _HTML.sub(" | ", text)
    if "](" in text:
        text = _LINK_TARGET.sub("] | ", text)
    if "[[" in text:
        text = _WIKILINK.sub(" | ", text)
    if "://" in text or "www." in text:
        text = _URL.sub(" | ", text)
    return text


def _close(run: list[str], opens: bool, found: list[ProperName]) -> None:
    """Keep the run of capitalised words as a name, without the small words at its ends; a common word in
    capitals inside it parts two names (``Brave Search API Key``)."""
    common = next((i for i, word in enumerate(run) if 0 < i < len(run) - 1 and word.casefold() in _CAPITALS), None)
    if common is not None:
        _close(run[:common], opens, found)
        _close(run[common + 1 :], False, found)
        return
    while run and run[-1] in JOINERS:
        run.pop()
    while run and (run[0].casefold() in STOP_WORDS or _day_or_month(run[0])):
        run.pop(0)  # "The", "On Monday": not part of the name after them
        opens = False
    while run and (run[-1].casefold() in STOP_WORDS or _day_or_month(run[-1]) or run[-1].casefold() in _CAPITALS):
        run.pop()  # "Brave API", "Session ID": the name before the common word
    if not run or _title(run) or (len(run) == 1 and _shouting(run[0]) and _short_or_common(run[0])):
        return
    if len(run) > 1 and all(map(_shouting, run)):
        return  # "HIGH ACTIVITY MODE": a label shouted
    run[-1] = _POSSESSIVE.sub("", run[-1])
    found.append(ProperName(" ".join(run), opens))
    if opens and len(run) > 1 and run[1] not in JOINERS:  # "Met Roger Gimbel": the first word may be no name's
        _close(run[1:], False, found)


def _day_or_month(word: str) -> bool:
    """A weekday or month, or days of it ("Mondays")."""
    folded = word.casefold()
    return folded in _WEEKDAYS_MONTHS or (folded.endswith("days") and folded[:-1] in _WEEKDAYS_MONTHS)


def lower_words(line: str) -> list[str]:
    """The words of the line's prose written in lower case (not in code, links, paths or file names)."""
    if line == line.upper():
        return []
    return [word for word in _LOWER.findall(prose_text(line)) if word.islower()]


# A word of letters in any alphabet with case ("después", "größe"; "openai-codex" is none), kept when in lower case.
_LOWER = re.compile(r"(?<![\w@#/\\.$&'’-])[^\W\d_]{2,}(?![\w@/\\-]|\.\w)")


_CONTRACTION = re.compile(r"['’](?:m|ve|d|ll|re|t)$|n['’]t$", re.IGNORECASE)
_PLURAL_CAPITALS = re.compile(r"^[A-Z0-9]{2,}s$")  # APIs, URLs, PRs


def generic(word: str, lowered: Mapping[str, int]) -> bool:
    """Is this last word of a name a common word (``CLI``, ``Report``: written in lower case elsewhere)?"""
    return word.casefold() in _CAPITALS or lowered.get(word.casefold(), 0) >= 2


def _named(word: str) -> bool:
    """Is this word written as a name's: a capital first (not a lone letter, not with digits only after), a capital
    inside after at most three small letters (``iPhone``, ``phpIPAM``; not ``systemPrompt``, an identifier), or
    capitals with a digit (``GA4``); each part of a hyphenated one too (``GPT-5.4-Cyber``); two letters only in
    capitals."""
    if len(word) < 2 or "_" in word or _CONTRACTION.search(word) or _PLURAL_CAPITALS.match(word):
        return False
    if "-" in word and any(part[:1].islower() for part in word.split("-")[1:]):
        return False  # "Codex-provided", "Follow-up": a compound word, not a name
    if word[0].isupper():
        return (len(word) > 2 or word.isupper()) and any(c.isalpha() for c in word[1:]) and not word[1:].isdigit()
    prefix = len(word) - len(word.lstrip("abcdefghijklmnopqrstuvwxyz"))
    return 0 < prefix <= 3 and word[prefix:][:1].isupper()  # iPhone, eBay, phpIPAM; not systemPrompt, siteId


def _title(run: list[str]) -> bool:
    """A title in title case (``AI Companies Are Losing``), not a name: a small word capitalised inside it."""
    return any(word.casefold() in STOP_WORDS and word not in JOINERS for word in run[1:-1])


def _short_or_common(word: str) -> bool:
    """Capitals that are no name: four letters or fewer without a digit (``CRM``, ``SOP``), or a common word."""
    return word.casefold() in _CAPITALS or (len(word) <= 4 and not any(c.isdigit() for c in word))


def _shouting(word: str) -> bool:
    return word.isupper()
