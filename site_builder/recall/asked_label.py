"""Questions that ask for one attribute of a thing, and the lines that label it.

"What alias does my LND node use?" asks for an alias; memory writes it as a
label and its value: "LND configured in lnd.conf (alias: ClaudioNode)",
"alias=ClaudioNode", "**Timezone:** Europe/Lisbon". Such a line says the name
of the thing once among many words, so BM25 ranks it below the lines that only
say "Lightning node" twice. The word after the question word ("What alias",
"Which timezone", "¿Qué puerto") is the attribute asked for; each line that
labels it (the word, a colon or an equals sign: ``alias:``, ``**Timezone:**``,
``alias=``) gets a share of the query's best score (``LABEL_SUPPORT``).

Measured on the real questions (``real_recall_check.py``): the LND alias
question 9th → 3rd, the default timezone one 2nd → 1st, R@5 68 → 69 of 90 (at
shares 0.2 and 0.4; 0.4 ranks higher); LoCoMo unchanged (its conversations
label nothing).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from site_builder.core.stop_words import STOP_WORDS
from site_builder.recall.evidence import Row

LABEL_SUPPORT = 0.4  # share of the query's best score that a line labelling the attribute asked for gets

# "What alias …", "Which timezone …", "In which city …", "¿Qué puerto …", "¿Cuál es …" (a verb: no attribute)
_ASKS = re.compile(
    r"^\W*(?:(?:in|on|at|for|with|from|en|con|para|de)\s+)?"
    r"(?:what|which|qu[eé]|cu[aá]l(?:es)?|quel(?:le)?s?|welche[rsmn]?)\s+(?P<word>[^\W\d_][\w-]*)",
    re.IGNORECASE,
)
# Words after "what" that are no attribute: what kind, sort or type of thing; times (``when_asked`` reads those).
_NOT_ATTRIBUTES = frozenset(
    [
        "kind",
        "sort",
        "type",
        "time",
        "times",
        "day",
        "days",
        "date",
        "dates",
        "year",
        "years",
        "month",
        "months",
        "week",
        "weeks",
        "hour",
        "hours",
        "es",
        "son",
        "era",
        "fue",
        "est",
        "sont",
        "ist",
        "sind",
        "war",
    ]
)


def asked_label(question: str) -> Callable[[Row], bool] | None:
    """A test of whether a line labels the attribute the question asks for, or None when it asks for none."""
    found = _ASKS.match(question)
    if found is None:
        return None
    word = found["word"].casefold()
    if word in STOP_WORDS or word in _NOT_ATTRIBUTES:
        return None
    label = re.compile(rf"(?:^|[\s*(|_\[]){re.escape(word)}(?:e?s)?\s*(?:\*\*|__)?\s*[:=：]", re.IGNORECASE)
    return lambda row: label.search(str(row[2])) is not None
