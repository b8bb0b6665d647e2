"""Fuzz: any mix of Retain bullets, links, mentions, front matter, JSONL records and generated-block markers
goes through parse, reflect, render and recall without an exception, and a second reflect changes no byte.

The pipeline runs in memory (the same stages ``build()`` runs, without the disk): a few hundred
examples in the day-to-day run, 10,000 under the ``slow`` marker (settings profile ``fuzz-deep``).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.core.config import Config
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Note
from site_builder.io.layout import detect
from site_builder.io.reader import Workspace
from site_builder.io.sources import source_file
from site_builder.library.hygiene import hygiene_report
from site_builder.library.link import link_notes
from site_builder.parse.note import parse_note
from site_builder.recall.bundle import make_bundle
from site_builder.recall.index import RecallIndex
from site_builder.recall.query import make_query
from site_builder.recall.search import search
from site_builder.reflect.offline import OfflineReflector
from site_builder.reflect.run import PageParser, reflect
from site_builder.site.render import render_site

COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
settings.register_profile("fuzz", max_examples=300, **COMMON)  # type: ignore[arg-type]
settings.register_profile("fuzz-deep", max_examples=10_000, **COMMON)  # type: ignore[arg-type]

NAMES = ["Anna", "Peter", "Anna Lee", "Émile", "王小明", "CON", "../etc", "a/b", "x" * 90, "Zoe", "anna", "Peter-Pan"]
WORDS = ["tea", "tiles", "morning", "not", "never", "budget", "2025-02-30", "Nov 27–Dec 1, 2025", "é", "🦊", "\t"]
PUNCT = "*_`[]()#>|!<>&\"'\\-=:;^~"
SURROGATES: tuple[Literal["Cs"]] = ("Cs",)  # lone surrogates cannot be written as UTF-8
TEXT = st.text(st.characters(exclude_categories=SURROGATES, exclude_characters="\x00\r"), max_size=40)
PLAIN = st.lists(st.one_of(st.sampled_from(WORDS), TEXT, st.sampled_from(list(PUNCT))), max_size=8).map(" ".join)
NAME = st.sampled_from(NAMES)

mention = NAME.map(lambda n: "@" + n.replace(" ", "-"))
wikilink = st.tuples(NAME, st.sampled_from(["", "|Alias", "#Working style", "#", "|"])).map(
    lambda t: f"[[{t[0]}{t[1]}]]"
)
file_link = st.sampled_from(["[plan](plan.md)", "[day](../memory/2025-11-03.md)", "[x](javascript:alert(1))", "[y]()"])
inline = st.lists(st.one_of(PLAIN, mention, wikilink, file_link), max_size=5).map(" ".join)

confidence = st.one_of(st.none(), st.floats(-1, 2).map(lambda c: f"{c:.2f}"), st.sampled_from(["abc", "", "0.5,x=1"]))
retain = st.builds(
    lambda kind, c, who, text, block: f"- {kind}{'' if c is None else f'(c={c})'}{who}: {text}{block}",
    st.sampled_from(["W", "B", "O", "S", "X", "o"]),
    confidence,
    st.lists(mention, max_size=2).map(lambda m: "".join(" " + x for x in m)),
    inline,
    st.sampled_from(["", " ^tea", " ^budget", " ^", " ^Tea-2"]),
)
bare_fact = retain.map(lambda line: line.removeprefix("- "))
marker = st.sampled_from(
    [
        "<!-- memwiki:begin entity -->",
        "<!-- memwiki:begin opinions · written by `memwiki reflect` -->",
        "<!-- memwiki:end -->",
        "<!-- memwiki:begin -->",
        "## From memory",
        "Id `tea` · about [[Anna]] · confidence **0.50** · last changed never",
        "| 2025-11-03 | 0.70 | restated | `0123456789` | [memory/2025-11-03.md#L5](../memory/2025-11-03.md#L5) |",
        "| 2025-02-30 | 1.50 | contradicts | `abcdefabcd-2` | [x](y) |",
    ]
)
structure = st.sampled_from(
    ["## Retain", "## Retain (facts)", "### Notes", "```", "~~~python", "<!-- private -->", "<!-- /private -->", ""]
)
line = st.one_of(inline, retain, bare_fact, marker, structure, st.sampled_from(["<script>alert(1)</script>", "> q"]))
front_matter = st.one_of(
    st.just(""),
    st.sampled_from(
        [
            "---\naliases: [Ania, Anna Lee]\ntype: person\n---\n",
            "---\naliases: [a, b\n---\n",
            "---\n- a\n- b\n---\n",
            "---\nprivate: true\n---\n",
            "---\nprivate: 'yes please'\n---\n",
            "---\naliases: 3\ntype: [x]\n---\n",
            "---\nname: x\n",
        ]
    ),
)
markdown = st.builds(
    lambda fm, lines, end: fm + "\n".join(lines) + end,
    front_matter,
    st.lists(line, max_size=14),
    st.sampled_from(["", "\n"]),
)

record_value = st.one_of(st.text(max_size=20), st.integers(), st.none(), st.lists(st.text(max_size=5), max_size=2))
record = st.fixed_dictionaries(
    {},
    optional={
        "ts": st.sampled_from(["2026-02-12T10:30:00Z", "2026-02-30T00:00:00Z", "yesterday", "2026-02-12"]),
        "type": st.sampled_from(["failure", "success", "insight", "other"]),
        "context": record_value,
        "lesson": record_value,
        "summary": record_value,
        "tags": st.lists(st.sampled_from(["queue", "debugging", "@Anna", ""]), max_size=3),
        "user": st.sampled_from(["Tim Okafor", "@Anna", ""]),
    },
)
jsonl_line = st.one_of(
    record.map(lambda r: json.dumps(r, ensure_ascii=False)), st.sampled_from(["{", "[]", "3", "", '{"ts": }'])
)
jsonl = st.lists(jsonl_line, max_size=6).map("\n".join)

DAYS = st.dates(dt.date(2024, 12, 30), dt.date(2026, 3, 2)).map(lambda d: f"memory/{d.isoformat()}.md")
workspaces = st.builds(
    lambda days, entities, extras: {**days, **entities, **extras},
    st.dictionaries(DAYS, markdown, max_size=3),
    st.dictionaries(st.sampled_from(NAMES[:6]).map(lambda n: f"bank/entities/{n}.md"), markdown, max_size=2),
    st.fixed_dictionaries(
        {},
        optional={
            "memory.md": markdown,
            "bank/opinions.md": markdown,
            "bank/world.md": markdown,
            "memory/reflections.jsonl": jsonl,
            "memory/episodes.jsonl": jsonl,
        },
    ),
)


def parse_all(workspace: Workspace, files: dict[str, str]) -> list[Note]:
    return [parse_note(source_file(workspace, path, text.encode("utf-8"))) for path, text in sorted(files.items())]


def parser(workspace: Workspace) -> PageParser:
    """Reflect's pages parsed as a build parses them."""
    return lambda path, text: parse_note(source_file(workspace, path, text.encode("utf-8", "surrogateescape")))


def run_pipeline(files: dict[str, str]) -> None:
    """parse -> link -> reflect (twice: the second changes nothing) -> render -> recall.json -> recall index and search."""
    workspace = Workspace(Path("/nonexistent-workspace"), Config(), detect(files))
    library = link_notes(parse_all(workspace, files))
    result = reflect(library, OfflineReflector(), files.get, Diagnostics(), parser(workspace))
    reflected = {**files, **{path: new for path, (_, new) in result.changes.items()}}
    notes = parse_all(workspace, reflected)
    library = link_notes(notes, opinions=result.opinions_now)
    again = reflect(link_notes(notes), OfflineReflector(), reflected.get, Diagnostics(), parser(workspace))
    assert again.changes == {}, sorted(again.changes)  # a second reflect changes no byte
    found = Diagnostics([p for n in notes for p in n.problems])
    site = render_site(library, workspace.config, lambda: hygiene_report(library, found), workspace.layout.names)
    assert "index.html" in site.files
    assert make_bundle(library, "fuzz", 400).files
    index = RecallIndex(None)
    index.update({n.path: "0:0" for n in notes}, notes)
    for text in ("tea Anna", "what happened last week", '"quoted" OR (x', "@Anna [[Peter]]"):
        query = make_query(text, k=5, since=None, until=None, entity=None, kind=None, today=dt.date(2026, 3, 1))
        search(index, query)


@pytest.mark.slow  # 15.5 s
@settings(settings.get_profile("fuzz"))
@given(files=workspaces)
def test_any_workspace_goes_through_every_stage(files: dict[str, str]) -> None:
    run_pipeline(files)


@pytest.mark.slow
@settings(settings.get_profile("fuzz-deep"))
@given(files=workspaces)
def test_any_workspace_goes_through_every_stage_deep(files: dict[str, str]) -> None:
    run_pipeline(files)
