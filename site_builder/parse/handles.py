"""Handles in the places only names take: the lower-case names of agents and people on social platforms
("alphasenpai", "molt_zero", "eudaemon_0") that no capital marks as names. Prose treats a word as a name when it is
written after ``@`` ("@augur"), as the one who replied, posted or liked ("skinner replied", but not "the event
replied"), opening a list item before a dash ("- alphasenpai — UTC, not block height", "- **rachel-caretta** — …") or
a reply's citation ("Clawk reply (7099eee2): alphasenpai — …"), after "replied to", "commented on" or
"mentioned by", as a post's author ("**作者**: eudaemon_0", "Author: m0ther"), as a label in bold ("- **lobchan:**
…"), or in Chinese as the one whose thing it is or who did it ("radishzz 的方案", "grimfel 说"). A word with capitals
is one only when a "_" joins it ("CooperK_bot"). One line at a time; which of them are entities is
``library.handles``'s to say."""

from __future__ import annotations

import re

from site_builder.parse.proper_names import CJK, prose_text

# No dots: "harness-detector.py" is a file. Capitals too, for "CooperK_bot"; a word with them is kept only when a
# "_" joins it (``named_handles``).
HANDLE = r"(?i:[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*)"
# What someone does on a social platform, in the past tense (not "replies", "posts": nouns as often; not
# "confirmed", "noted": said of events and tasks as well).
_DID = (
    "replied|said|liked|posted|mentioned|wrote|followed|agreed|tagged|commented|responded|upvoted|reclawked"
    "|dm'?d|joined|reacted|quoted|reposted|pinged|messaged|pushed back|endorsed|proposed|suggested|argued"
)
_DETERMINERS = frozenset(
    [
        "the",
        "a",
        "an",
        "this",
        "that",
        "these",
        "those",
        "my",
        "our",
        "his",
        "her",
        "their",
        "its",
        "your",
        "every",
        "each",
        "no",
        "any",
        "some",
    ]
)
_AT = re.compile(rf"(?<![\w.@/]){'@'}({HANDLE})(?![\w@/-]|\.\w)")
_DID_WORD = re.compile(rf"\b(?:{_DID})\b")
_WHO_DID = re.compile(rf"(?:(\w+)\s+)?(?<![\w@#/.-])({HANDLE})\s+(?:{_DID})\b")
_LEADS = re.compile(
    rf"^\s*(?:[-*+]|\d+[.)])\s+(?:(?:\*\*[^*]+\*\*:?\s*)?@?({HANDLE})|\*\*@?({HANDLE})\*\*)\s+(?:\([^()]*\)\s+)?[—–]\s"
    rf"|\):\s+@?({HANDLE})\s+[—–]\s"  # "Clawk reply (7099eee2): alphasenpai — …"
)
# A label in bold opening with a word in lower case, as no heading's does: "- **lobchan:** home board",
# "**agentchan**: quiet", "**lobchan posts:** 1"
_LABEL = re.compile(rf"^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*@?({HANDLE})(?:\s[^*\n]{{0,40}})?(?::\*\*|\*\*:)")
_TO_WHOM = re.compile(
    rf"\b(?:repl(?:y|ied|ies|ying) to|[Cc]ommented on|mentioned by|thread with|dm(?:'?d)? (?:from|to)|followed by|tagged by"
    rf"|liked by)\s+@?({HANDLE})\b(?![@/-]|\.\w)"
)
_AUTHOR = re.compile(rf"(?:\b(?:author|posted by|handle)|作者|发帖人)\**\s*[:：]\s*\**\s*@?({HANDLE})\b", re.IGNORECASE)
# Chinese: the handle whose thing it is ("radishzz 的方案": radishzz's plan) or who did something ("grimfel 说").
_CJK_DID = re.compile(
    rf"(?<![\w@#/.-])({HANDLE})\s?(?:的|说|提出|认为|回复|评论|分享|发布|写道|写了|定义|扫描|发现|指出|问)",
    re.IGNORECASE,
)
# A package, skill or tool named with its version: "Published whatsapp-ultimate v1.0.1", "youtube-ultimate v2.0".
_VERSIONED = re.compile(rf"(?<![\w@#/.-])({HANDLE}) v\d+(?:\.\d+)+\b")
_JOINED = re.compile(r"^(?=.*[a-z]).*[^\W_]_[^\W_]")  # not a constant in capitals ("COMMIT_ANCHOR")
_SOCIAL = re.compile(
    r"repl|comment|mention|thread|dm|followed|tagged|liked|author|posted by|handle|作者|发帖人", re.IGNORECASE
)
# Words written after @ that are no one: Slack's and Discord's group mentions, the word itself.
NOT_HANDLES = frozenset({"here", "channel", "everyone", "all", "someone", "mention", "mentions", "me", "you"})


def named_handles(text: str) -> list[str]:
    """The lower-case words of a line of prose (not in code, links or URLs) written where names go."""
    text = prose_text(text)
    found = [m[1] for m in _AT.finditer(text)] if "@" in text else []
    if _DID_WORD.search(text):
        found += [m[2] for m in _WHO_DID.finditer(text) if not (m[1] and m[1].casefold() in _DETERMINERS)]
    if "—" in text or "–" in text:
        found += [next(filter(None, m.groups())) for m in _LEADS.finditer(text)]
    if "**" in text[:8]:
        found += [m[1] for m in _LABEL.finditer(text)]
    if CJK.search(text):
        found += [m[1] for m in _CJK_DID.finditer(text)]
    if _SOCIAL.search(text):
        found += [m[1] for m in _TO_WHOM.finditer(text)] + [m[1] for m in _AUTHOR.finditer(text)]
    # "Author: Ann" is no handle; "Author: CooperK_bot" is, as no name of prose has a "_" inside
    return _handles(found)


def _handles(words: list[str]) -> list[str]:
    """Of words written where names go, the handles: in lower case, or joined by a "_"."""
    return [word for word in words if (word.islower() or _JOINED.search(word)) and word not in NOT_HANDLES]


def versioned_names(text: str) -> list[str]:
    """The lower-case names of the line written with a version ("whatsapp-ultimate v1.0.1"): a package's, skill's
    or tool's, whatever words it is made of; written where names go too, beside ``named_handles``."""
    return _handles([m[1] for m in _VERSIONED.finditer(text)]) if " v" in text else []
