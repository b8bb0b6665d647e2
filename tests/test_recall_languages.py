"""Recall in any language: words inside unspaced Chinese, Japanese and Korean text; accents folded."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from site_builder.recall.scripts import grams, query_grams, spaced
from tests.conftest import REPO, recall_results, run, write_workspace

ZH = """# 周二
我们今天在做爬虫项目，用 Python爬虫 抓取代理列表。
下午去爬山了，风景很好。
我家的猫很可爱。
研究瓦力机器人和四足机器人的开源方案。
"""
JA = """# 水曜日
東京で会議がありました。来週は大阪へ出張します。
"""
KO = """# 목요일
서울에서 회의를 했다. 다음 주에 부산에 간다.
"""
LATIN = """# Friday
Café com a Zoë em São Paulo, depois reunião.

## Retain
- W @José: José moved to Coimbra.
"""


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "memory/2026-02-24.md": ZH,
            "memory/2026-02-25.md": JA,
            "memory/2026-02-26.md": KO,
            "memory/2026-02-27.md": LATIN,
        },
    )


def sources(ws: Path, query: str, *args: str) -> list[str]:
    return [r["source"] for r in recall_results(query, str(ws), *args)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("爬虫", ["memory/2026-02-24.md#L2"]),  # two characters inside a sentence, not 爬山
        ("机器人", ["memory/2026-02-24.md#L5"]),
        ("猫", ["memory/2026-02-24.md#L4"]),  # one character
        ("会議", ["memory/2026-02-25.md#L2"]),
        ("大阪へ出張", ["memory/2026-02-25.md#L2"]),
        ("회의", ["memory/2026-02-26.md#L2"]),  # a Korean word with its particle attached: 회의를
        ("부산", ["memory/2026-02-26.md#L2"]),
    ],
)
def test_cjk_words_are_found_inside_unspaced_text(ws: Path, query: str, expected: list[str]) -> None:
    assert sources(ws, query) == expected


def test_a_latin_word_glued_to_chinese_is_a_word(ws: Path) -> None:
    found = recall_results("python", str(ws))
    assert [r["source"] for r in found if "Python" in r["content"]] == ["memory/2026-02-24.md#L2"]  # and its neighbours


def test_cjk_lines_sharing_more_of_the_query_rank_first(ws: Path) -> None:
    assert sources(ws, "爬虫项目")[0] == "memory/2026-02-24.md#L2"
    assert sources(ws, "爬山风景") == ["memory/2026-02-24.md#L3"]


def test_accents_are_folded(ws: Path) -> None:
    assert sources(ws, "cafe sao paulo reuniao")[0] == "memory/2026-02-27.md#L2"
    assert sources(ws, "Coimbra", "--entity", "Jose") == ["memory/2026-02-27.md#L5"]


def test_how_cjk_text_is_cut() -> None:
    assert grams("爬虫项目") == "爬 虫 项 目 爬虫 虫项 项目"
    assert query_grams("爬虫 猫") == ["爬虫", "猫"]
    assert spaced("用Python爬虫。好") == " 用 Python 爬虫   好 "
    assert grams("plain English") == ""


SPANISH_LOG = "# 2026-02-02\n\n" + "".join(
    f"- Hoy {n} de la tarde en la casa con Daniel, y de nuevo en la red con mi nodo de la semana.\n" for n in range(12)
)


def test_a_question_in_another_language_is_searched_without_its_stop_words(tmp_path: Path) -> None:
    """A question such as "¿En qué puerto corre mi relay?" leaves out "en", "qué", "mi": on a Spanish workspace they are on most
    lines, and together they would rank a long line full of them over the short line that answers."""
    ws = write_workspace(
        tmp_path / "ws",
        {"memory/2026-02-02.md": SPANISH_LOG, "USER.md": "# Usuario\n\n- Relay: strfry, puerto 7777\n"},
    )
    assert sources(ws, "¿En qué puerto y con qué software corre mi relay de Nostr?")[0] == "USER.md#L3"
    result = run("recall", "¿Qué es esto?", str(ws))  # only stop words, in Spanish
    assert result.exit_code != 0
    assert "only stop words" in result.output


def test_an_english_question_keeps_words_that_are_stop_words_elsewhere(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory/2026-02-02.md": "# Monday\n\n- Visited the war museum.\n"})
    assert sources(ws, "Which war museum did we visit?") == ["memory/2026-02-02.md#L3"]  # "war": German "was"
    assert sources(ws, "war") == ["memory/2026-02-02.md#L3"]


REAL = REPO.parent / "shared" / "real" / "xiaoqi"


@pytest.mark.slow  # 0.9 s
@pytest.mark.skipif(not REAL.exists(), reason="../shared/real is not present")
def test_a_real_chinese_workspace_finds_every_line_with_the_word(tmp_path: Path) -> None:
    ws = tmp_path / "xiaoqi"
    shutil.copytree(REAL, ws)
    for word in ("爬虫", "机器人"):
        found = set(sources(ws, word, "--k", "200"))
        lines = {
            f"{path.relative_to(ws).as_posix()}#L{number}"
            for path in ws.rglob("*.md")
            for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1)
            if word in line and not re.match(r"^\s{0,3}#{1,6}\s", line)
        }
        assert lines and lines <= found, sorted(lines - found)


def test_page_names_and_aliases_are_looked_up_with_accents_folded(tmp_path: Path) -> None:
    """The alias lookup reads only the query's names and answers as a dict of the whole table would: the later of
    two names that fold alike wins."""
    from site_builder.core.diagnostics import Diagnostics
    from site_builder.io.reader import open_workspace
    from tests.conftest import open_index

    root = write_workspace(
        tmp_path / "ws",
        {
            "memory/2026-02-27.md": "# Friday\n@Zoë fixed the kiln.\nRené came by.\n",
            "bank/entities/Zoë.md": "---\naliases: [Zozo, Renée]\n---\n# Zoë\n",
            "bank/entities/Rene.md": "# Rene\n",
        },
    )
    index = open_index(open_workspace(root), Diagnostics())
    whole = {folded: key for folded, key in index.db.execute("SELECT folded, key FROM aliases ORDER BY rowid")}
    lookup = index.aliases()
    assert dict(lookup) == whole and len(lookup) == len(whole)
    assert {name: lookup.get(name) for name in ("zoe", "zozo", "renee", "rene", "nobody")} == {
        name: whole.get(name) for name in ("zoe", "zozo", "renee", "rene", "nobody")
    }
    assert lookup["zoe"] == "zoë" and "nobody" not in lookup
    assert sources(root, "kiln", "--entity", "Zoe") == ["memory/2026-02-27.md#L2"]
    assert sources(root, "kiln zozo")[0] == "memory/2026-02-27.md#L2"
