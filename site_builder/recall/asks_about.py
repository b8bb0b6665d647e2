"""Questions that ask what memory knows about a thing, and the lines that say what it is.

"What do we know about funwolf?", "Tell me about the North Italy trip", "Who is Jeletor?", "关于馆长，我们知道些什么？"
(and "¿Quién es Daniel?", "Wer ist Oscar?") ask for a thing by its name; the rest of the question is a formula ("know" is on many lines and names nothing). They
are answered first by the lines that say what the thing is: a registry item (``- **funwolf** — Email/discovery…``),
a labelled line (``**Who:** Maddie — friend, collaborator``), a section heading (``### Florentina — distributed
consciousness``), a link to its page (``- [Maddie Ventures](project_maddie.md) — 3 ventures…``), where the name
opens the line. Such a line is long and says the name once, so BM25 ranks it below the short lines that mention the
name in passing; ``search.py`` searches the question as its name alone, looks for the lines that open with it
(``opening_with``) beside the candidates, and gives each a share of the best score (``DEFINES_SUPPORT``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from site_builder.recall.evidence import Row
from site_builder.recall.scripts import fold_accents

DEFINES_SUPPORT = 0.3  # share of the query's best score that a line saying what the thing asked about is gets

_ABOUT = re.compile(
    r"^\W*(?:what\s+(?:do|did|does)\s+(?:we|you|i)\s+know\s+about|what\s+is\s+known\s+about"
    r"|tell\s+me\s+(?:everything\s+|more\s+)?about|who\s+(?:is|are|was|were)"
    # the same in the other languages memory is written in: Spanish, Portuguese, French, German, Italian
    r"|qui[eé]n(?:es)?\s+(?:es|son|era)|qu[eé]\s+(?:sabemos|s[eé]|sabes)\s+(?:de|del|sobre)|quem\s+(?:é|e|era)"
    r"|o\s+que\s+sabemos\s+(?:de|do|da|sobre)|qui\s+(?:est|sont|était)|que\s+sait-on\s+(?:de|du|sur)"
    r"|wer\s+(?:ist|sind|war)|was\s+wissen\s+wir\s+über|chi\s+(?:è|e|era))"
    r"\s+(?:the\s+|el\s+|la\s+|le\s+|der\s+|die\s+|o\s+|a\s+)?(?P<name>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
_ABOUT_CJK = re.compile(
    r"^\W*(?:关于)?(?P<name>[^，,？?\s]{1,20}?)[，,]?\s*(?:我们|你|我)?知道(?:些)?什么|^\W*(?P<who>.{1,20}?)是谁"
)
# What may come before the name on a line that says what it is: a list mark, a heading mark, a quote, a table's
# bar, a link's bracket, emphasis (``_MARKS``), and maybe a short label ("**Who:**", "Name:", "描述：").
_MARKS = re.compile(r"^[\s\-*+>#|\[\d.)_@]*")
# After the name, on a line that says what it is: a dash, colon, bracket, bar or comma, or at most two more words
# to the end (a title: "### Jeletor Agent").
_SAYS = re.compile(r"[*_\])]*\s*(?:[—–:：(|,]|-\s|$)|(?:\s+[^\s.!?]+){1,2}[\s*_\])]*$")
_LABEL = re.compile(r"^[^\s:：*]{1,12}\*{0,2}\s*[:：]\s*[\s*_\[]*")
_SAID = re.compile(r"[*_\])]*\s*[:：]\s*[*_]*[\"“‘'「『]")  # the name, a colon and a quotation: what it said
_ITS = re.compile(r"\s*(?:的|之|'s\b|’s\b)")  # "EmberCF 的实质性学习理论", "funwolf's post": something of it
_LEAD_IN = re.compile(r"[:：][\s*_]*$")  # a line ending in a colon introduces what follows it


def asked_about(question: str) -> str | None:
    """The name a question asks about ("What do we know about funwolf?" -> "funwolf"), or None."""
    found = _ABOUT.match(question)
    if found:
        return found["name"].strip() or None
    found = _ABOUT_CJK.match(question)
    if found:
        return (found["name"] or found["who"] or "").strip() or None
    return None


def opening_with(name: str) -> Callable[[Row], bool]:
    """Does a line say what the named thing is: open with the name (after its marks and maybe a short label) and go
    on with a dash, a colon or a bracket ("**funwolf** — Email…", "Maddie: friend"), or be a short title that opens
    with it ("Jeletor Agent"), or open a link's text with it ("[Maddie Ventures](…) — …")? Not a line that only
    goes on about it ("@funwolf liked a post"), quotes it ('EmberCF: "We correct."'), names something of it
    ("EmberCF 的实质性学习理论": its theory) or leads into the lines below it ("**EmberCF's reply:**")."""
    folded = fold_accents(name.casefold())

    def opens(row: Row) -> bool:
        text = fold_accents(str(row[2]).casefold())
        if _LEAD_IN.search(text):
            return False  # "**EmberCF 的回应：**" leads into the lines below it; it says nothing itself
        marks = _MARKS.match(text)
        link = marks is not None and "[" in marks[0]
        text = text[marks.end() :] if marks else text
        label = _LABEL.match(text)
        return _names(text, folded, link) or (label is not None and _names(text[label.end() :], folded, link))

    return opens


def _names(text: str, name: str, link: bool) -> bool:
    """Does ``text`` open with ``name`` as a whole word (a CJK name may run on: no spaces there) followed by what
    says what it is (``_SAYS``), or anything when it is a link's text?"""
    if not text.startswith(name):
        return False
    rest = text[len(name) :]
    if rest[:1].isalnum() and name[-1].isascii():
        return False
    if _SAID.match(rest) or _ITS.match(rest):
        return False  # 'EmberCF: "We correct."' is what it said, "EmberCF 的理论" its theory: not what it is
    return link or not name[-1].isascii() or _SAYS.match(rest) is not None
