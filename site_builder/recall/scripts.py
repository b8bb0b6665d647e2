"""Words in any script: Chinese, Japanese and Korean text has no spaces between words.

SQLite's ``unicode61`` tokenizer takes a whole run of CJK characters as one
token, so ``爬虫`` would never match ``我们在做爬虫项目``. The index therefore
keeps, beside each line's text, its CJK runs cut into single characters and
overlapping pairs (``爬虫项目`` → ``爬 虫 项 目 爬虫 虫项 项目``); a query's CJK
runs are cut the same way, so any word of one or more characters is found
inside unspaced text and BM25 ranks lines that share more pairs higher. Latin
scripts keep the stemmed words (accents are folded by the tokenizer).
"""

from __future__ import annotations

import re
import unicodedata

# Han (with extension A and compatibility ideographs), kana, Hangul syllables and jamo.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
CJK_RUN = re.compile(f"[{_CJK}]+")
# Fullwidth punctuation and CJK symbols that separate words like spaces do.
_CJK_PUNCT = re.compile("[\u3000-\u303f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]")


def has_cjk(text: str) -> bool:
    return not text.isascii() and CJK_RUN.search(text) is not None


def spaced(text: str) -> str:
    """The text with each CJK run set apart by spaces, so ``Python爬虫`` still has the word ``python``."""
    if not has_cjk(text):
        return text
    return CJK_RUN.sub(lambda m: f" {m[0]} ", _CJK_PUNCT.sub(" ", text))


def grams(text: str) -> str:
    """Every CJK character and every pair of neighbouring CJK characters of ``text``, space-separated."""
    if text.isascii():
        return ""
    out: list[str] = []
    for run in CJK_RUN.findall(text):
        out.extend(run)
        out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return " ".join(out)


def query_grams(text: str) -> list[str]:
    """What a query's CJK runs are looked up by: a one-character run as itself, a longer run as its pairs."""
    found: list[str] = []
    for run in CJK_RUN.findall(text):
        found.extend([run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)])
    return list(dict.fromkeys(found))


def without_cjk(text: str) -> str:
    return CJK_RUN.sub(" ", text)


def fold_accents(text: str) -> str:
    """``José`` → ``Jose``: letters without their combining marks (what the index's tokenizer does to words)."""
    if text.isascii():
        return text
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare)
