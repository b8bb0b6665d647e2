"""TinyClaw's records as pages: the reflections timeline, the episodes with their tag pages, the skill library.

A reflection or episode is one JSON line; its page shows each record as a card
anchored at its line (``#L3``, the citation recall gives), with a filter by type
or outcome that works without JavaScript (radio buttons and CSS). A line that
is not a readable record is shown as written, marked. Every episode tag gets a
page listing its episodes.
"""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Iterable
from typing import Any

from site_builder.core.model import Note
from site_builder.core.names import href, slugify
from site_builder.parse.records import OUTCOMES, REFLECTION_TYPES, literal
from site_builder.site.builder import PageBuilder
from site_builder.site.folder_page import crumbs
from site_builder.site.page_views import RecordsPage
from site_builder.site.views import LinkView

RECORD_KINDS = ("reflections", "episodes")
TAGS_FOLDER = "episode-tags"  # beside episodes.jsonl: <folder>/episode-tags/<tag>.html


def records_html(builder: PageBuilder, note: Note) -> str:
    """The records of a reflections or episodes note as filterable cards, each at its line's anchor."""
    items = []
    for number, raw in _lines(note):
        record = note.records.get(number)
        if record is None:
            items.append(_unreadable(builder, note.url, number, raw))
        elif note.kind == "reflections":
            items.append(_reflection(builder, note, number, record))
        else:
            items.append(_episode(builder, note, number, record))
    if not items:
        return '<p class="muted">No records yet.</p>'
    values = REFLECTION_TYPES if note.kind == "reflections" else OUTCOMES
    counts = {v: sum(1 for r in note.records.values() if _value(note.kind, r) == v) for v in values}
    return f'<div class="records-view">{_filter(counts, len(items))}<ol class="records">\n{"".join(items)}</ol></div>\n'


def tag_pages(builder: PageBuilder) -> list[RecordsPage]:
    """A page per episode tag: the episodes that carry it, newest first, each linking to its line."""
    pages = []
    for note in (n for n in builder.library.notes if n.kind == "episodes"):
        by_tag: dict[str, list[int]] = {}
        for number, record in note.records.items():
            for tag in _tags(record):
                by_tag.setdefault(tag, []).append(number)
        folder = note.path.rpartition("/")[0]
        for tag, numbers in sorted(by_tag.items()):
            url = tag_url(note, tag)
            cards = [_episode(builder, note, n, note.records[n], url, anchored=False) for n in reversed(numbers)]
            pages.append(
                RecordsPage(
                    chrome=builder.chrome(
                        url, kind="records", title=f"Episodes tagged #{tag}", section="days", searchable=False
                    ),
                    crumbs=[*crumbs(folder, url), LinkView(note.title, href(url, note.url))],
                    html='<ol class="records">\n' + "".join(cards) + "</ol>\n",
                    count=len(numbers),
                )
            )
    return pages


def tag_url(note: Note, tag: str) -> str:
    folder = note.path.rpartition("/")[0]
    return f"{folder + '/' if folder else ''}{TAGS_FOLDER}/{slugify(tag) or 'tag'}.html"


def _lines(note: Note) -> Iterable[tuple[int, str]]:
    for i, line in enumerate(note.body.split("\n")):
        if line.strip():
            yield note.body_start + i, line


def _reflection(builder: PageBuilder, note: Note, number: int, record: dict[str, Any]) -> str:
    kind = _value("reflections", record)
    context = _inline(builder, record.get("context"), note.url)
    action = _inline(builder, record.get("action"), note.url)
    body = [
        f'<p class="record-context">{context}</p>' if context else "",
        f"<p>{_inline(builder, record.get('lesson'), note.url)}</p>",
        f'<p class="record-action"><span aria-hidden="true">→</span> {action}</p>' if action else "",
    ]
    return _card(builder, note, number, record, kind, "".join(body), note.url)


def _episode(
    builder: PageBuilder, note: Note, number: int, record: dict[str, Any], url: str = "", *, anchored: bool = True
) -> str:
    url = url or note.url
    who = " · ".join(html.escape(" ".join(str(record[k]).split())) for k in ("user", "agent") if record.get(k))
    tags = "".join(
        f'<a class="chip" href="{html.escape(href(url, tag_url(note, t)))}">#{html.escape(t)}</a> '
        for t in _tags(record)
    )
    body = [
        f"<p>{_inline(builder, record.get('summary'), url)}</p>",
        f'<p class="record-who muted">{who}</p>' if who else "",
        f'<p class="chips">{tags.strip()}</p>' if tags else "",
    ]
    return _card(builder, note, number, record, _value("episodes", record), "".join(body), url, anchored=anchored)


def _card(
    builder: PageBuilder,
    note: Note,
    number: int,
    record: dict[str, Any],
    value: str,
    body: str,
    url: str,
    *,
    anchored: bool = True,
) -> str:
    anchor = f' id="L{number}"' if anchored else ""
    line_href = f"#L{number}" if anchored else href(url, f"{note.url}#L{number}")
    return (
        f'<li class="record v-{html.escape(value)}"{anchor}>'
        f'<p class="record-head"><span class="badge v-{html.escape(value)}">{html.escape(value)}</span> '
        f'{_when(builder, record, url)}<a class="record-line muted" href="{html.escape(line_href)}" '
        f'title="{html.escape(note.path)}, line {number}">L{number}</a></p>{body}</li>\n'
    )


def _unreadable(builder: PageBuilder, url: str, number: int, raw: str) -> str:
    return (
        f'<li class="record v-unreadable" id="L{number}"><p class="record-head"><span class="badge">not a record</span> '
        f'<a class="record-line muted" href="#L{number}">L{number}</a></p>'
        f"<p><code>{builder.inline(raw, url)}</code></p></li>\n"
    )


def _when(builder: PageBuilder, record: dict[str, Any], url: str) -> str:
    """The record's time, linking to its day's page when there is one."""
    ts = record.get("ts")
    if not isinstance(ts, str) or not ts.strip():
        return ""
    try:
        moment = dt.datetime.fromisoformat(ts.replace("Z", "+00:00"))
    except ValueError:
        return f"<span>{html.escape(ts)}</span> "
    text = f'<time datetime="{html.escape(ts)}">{moment:%Y-%m-%d %H:%M}</time>'
    day = builder.by_day.get(moment.date())
    return f'<a href="{html.escape(href(url, day[0].url))}">{text}</a> ' if day else text + " "


def _filter(counts: dict[str, int], total: int) -> str:
    """Radio buttons that show one type of record at a time (CSS only:
    ``.records-view:has(#rf-failure:checked)``); none when every record is of one type."""
    choices = [("all", f"All {total}")] + [(v, f"{v} {n}") for v, n in counts.items() if n]
    if len(choices) <= 2:
        return ""
    parts = []
    for value, label in choices:
        checked = " checked" if value == "all" else ""
        parts.append(
            f'<input class="record-choice" type="radio" name="record-filter" id="rf-{value}"{checked}>'
            f'<label class="chip" for="rf-{value}">{html.escape(label)}</label>\n'
        )
    return '<fieldset class="record-filter"><legend>Show</legend>\n' + "".join(parts) + "</fieldset>\n"


def _value(kind: str, record: dict[str, Any]) -> str:
    if kind == "reflections":
        value = record.get("type")
        return value if value in REFLECTION_TYPES else "insight"
    value = record.get("outcome")
    return value if value in OUTCOMES else "unknown"


def _tags(record: dict[str, Any]) -> list[str]:
    tags = record.get("tags")
    return (
        [str(t).strip() for t in tags if isinstance(t, str | int) and str(t).strip()] if isinstance(tags, list) else []
    )


def _inline(builder: PageBuilder, value: Any, url: str) -> str:
    text = " ".join(str(value).split()) if value not in (None, "") else ""
    return builder.inline(literal(text), url) if text else ""
