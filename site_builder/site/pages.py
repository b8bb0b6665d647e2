"""Build the view of every page of the site from the library (no HTML templates here).

Each ``*_page`` function returns one documented view (``site_builder.site.views``);
``collect_pages`` lists them all in a stable order.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from itertools import groupby

from site_builder.core.config import Config
from site_builder.core.model import KIND_NAMES, Entity, Fact, Library, Note, Opinion
from site_builder.library.hygiene import Section
from site_builder.library.link import OPINIONS_PATH
from site_builder.library.summaries import first_line
from site_builder.parse.link_syntax import plain_sentence
from site_builder.site.charts import ChartPoint, HeatDay, confidence_chart, heatmap
from site_builder.site.links import SiteLinker, href, root_of, source_url
from site_builder.site.markdown import MarkdownRenderer
from site_builder.site.views import (
    BacklinkGroup,
    BacklinkLine,
    DaySummary,
    EntityIndexPage,
    EntityPage,
    EvidenceView,
    FactView,
    HistoryPoint,
    HomePage,
    HygieneItem,
    HygienePage,
    HygieneSection,
    LinkView,
    MonthView,
    NotePage,
    OpinionsPage,
    OpinionView,
    PageView,
    SearchPage,
    TimelinePage,
)


class PageBuilder:
    """Holds what every page needs: the library, config and one Markdown renderer."""

    def __init__(self, library: Library, config: Config, markdown: MarkdownRenderer) -> None:
        self.library = library
        self.config = config
        self.md = markdown
        self.days = library.days
        self._inline: dict[tuple[str, str], str] = {}
        self._notes: dict[str, str] = {}
        self.nav = [
            ("days", "Days", "memory/index.html"),
            ("entities", "Entities", "bank/entities/index.html"),
            ("opinions", "Opinions", "bank/opinions.html"),
            *(
                ("bank", title, path.removesuffix(".md") + ".html")
                for path, title in (("bank/world.md", "World"), ("bank/experience.md", "Experience"))
                if library.note(path)
            ),
            ("hygiene", "Hygiene", "hygiene.html"),
        ]

    def note_html(self, note: Note) -> str:
        """A note rendered for its own page (memoised: the feed reuses it)."""
        html = self._notes.get(note.path)
        if html is None:
            html = self._notes[note.path] = self.md.render_note(note, SiteLinker(self.library, note.url))
        return html

    def inline(self, text: str, url: str) -> str:
        """One line of Markdown as HTML; memoised per folder (links only depend on depth)."""
        key = (text, root_of(url))
        html = self._inline.get(key)
        if html is None:
            html = self._inline[key] = self.md.render_inline(text, SiteLinker(self.library, url))
        return html

    def base(self, url: str, template: str, title: str, section: str, **extra: object) -> dict[str, object]:
        return {
            "template": template,
            "title": title,
            "url": url,
            "root": root_of(url),
            "site_title": self.config.title,
            "section": section,
            "base_url": self.config.base_url,
            "nav": [
                LinkView(text, href(url, target), css="current" if key == section else "")
                for key, text, target in self.nav
            ],
            **extra,
        }

    # -- shared pieces -------------------------------------------------

    def fact_view(self, fact: Fact, url: str) -> FactView:
        linker = SiteLinker(self.library, url)
        entities = []
        for name in fact.entities:
            to = linker.entity(name)
            entities.append(LinkView("@" + name, to.href, css="missing" if to.missing else ""))
        occurred = ""
        if fact.occurred:
            start, end = fact.occurred
            occurred = start.isoformat() if start == end else f"{start.isoformat()} – {end.isoformat()}"
        return FactView(
            id=fact.id,
            kind=fact.kind,
            kind_name=KIND_NAMES[fact.kind],
            html=self.inline(fact.content, url),
            date=fact.date.isoformat() if fact.date else "",
            occurred=occurred,
            source=fact.source,
            href=href(url, source_url(fact.source)),
            confidence=f"{fact.confidence:.2f}" if fact.confidence is not None else "",
            entities=entities,
        )

    def opinion_view(self, opinion: Opinion, url: str) -> OpinionView:
        linker = SiteLinker(self.library, url)
        points = [
            ChartPoint(p.date, p.confidence, href(url, source_url(p.source)), f"{p.change}: {p.text}")
            for p in opinion.history
            if p.date
        ]
        entities = []
        for name in opinion.entities:
            to = linker.entity(name)
            entities.append(LinkView("@" + name, to.href, css="missing" if to.missing else ""))
        return OpinionView(
            id=opinion.id,
            statement_html=self.inline(opinion.statement, url),
            confidence=opinion.confidence,
            confidence_text=f"{opinion.confidence:.2f}",
            changed=opinion.changed.isoformat() if opinion.changed else "",
            chart_svg=confidence_chart(points, f"Confidence over time: {opinion.statement}"),
            entities=entities,
            history=[HistoryPoint(p.date.isoformat(), f"{p.value:.2f}", p.href) for p in points],
            evidence=[EvidenceView(e.stance, self.fact_view(e.fact, url)) for e in opinion.evidence],
            origin_href=href(url, source_url(opinion.origin.source)),
        )

    def day_summary(self, note: Note, url: str) -> DaySummary:
        assert note.date is not None
        return DaySummary(
            title=note.title,
            href=href(url, note.url),
            date=note.date.isoformat(),
            weekday=note.date.strftime("%A"),
            summary=first_line(note),
            fact_count=len(note.facts),
        )

    def entity_links(self, note: Note, url: str) -> list[LinkView]:
        seen: dict[str, Entity] = {}
        for link in note.links:
            entity = self.library.resolver.entity(link.target)
            if (
                entity
                and entity.key not in seen
                and not (link.syntax == "wikilink" and self.library.resolver.note_path(link.target) and not entity.note)
            ):
                seen[entity.key] = entity
        return [
            LinkView(e.name, href(url, e.url), css="missing" if e.placeholder else "")
            for e in sorted(seen.values(), key=lambda e: e.name.casefold())
        ]

    # -- pages -----------------------------------------------------------

    def home_page(self) -> HomePage:
        url = "index.html"
        core = self.library.note("memory.md")
        linker = SiteLinker(self.library, url)
        recent = [self.day_summary(n, url) for n in reversed(self.days[-self.config.recent_days :])]
        counts = sorted(
            ((len(self.library.backlinks.get(k, [])), e) for k, e in self.library.entities.items()),
            key=lambda item: (-item[0], item[1].name.casefold()),
        )
        active = [
            LinkView(e.name, href(url, e.url), f"{n} mentions", "missing" if e.placeholder else "")
            for n, e in counts[:12]
            if n
        ]
        stats = [
            LinkView(f"{len(self.days)} daily logs", "memory/index.html"),
            LinkView(f"{len(self.library.facts)} facts", "memory/index.html"),
            LinkView(f"{len(self.library.entities)} entities", "bank/entities/index.html"),
            LinkView(f"{len(self.library.opinions)} opinions", "bank/opinions.html"),
        ]
        return HomePage(
            **self.base(url, "home.html", self.config.title, "home"),  # type: ignore[arg-type]
            core_html=self.md.render_note(core, linker) if core else "",
            recent=recent,
            active_entities=active,
            opinions=[self.opinion_view(o, url) for o in self.library.opinions[:6]],
            stats=stats,
        )

    def note_page(self, note: Note) -> NotePage:
        url = note.url
        section = {"core": "home", "soul": "home", "daily": "days", "entity": "entities"}.get(note.kind, "bank")
        extra: dict[str, object] = {}
        if note.kind == "daily" and note.date:
            index = self.days.index(note)
            if index > 0:
                extra["prev"] = LinkView(self.days[index - 1].title, href(url, self.days[index - 1].url))
            if index + 1 < len(self.days):
                extra["next"] = LinkView(self.days[index + 1].title, href(url, self.days[index + 1].url))
            month = note.date.strftime("%Y-%m")
            extra["up"] = LinkView(note.date.strftime("%B %Y"), href(url, f"memory/{month}.html"))
            extra["date"] = note.date.isoformat()
        kinds = sorted({f.kind for f in note.facts})
        entities = self.entity_links(note, url)
        return NotePage(
            **self.base(  # type: ignore[arg-type]
                url,
                "note.html",
                note.title,
                section,
                pagefind_meta=_meta(note.kind, note.date),
                pagefind_filters=_filters(note.kind, kinds, [e.text for e in entities], note.date),
            ),
            html=self.note_html(note),
            source=note.path,
            entities=entities,
            **extra,  # type: ignore[arg-type]
        )

    def timeline_page(self) -> TimelinePage:
        url = "memory/index.html"
        by_year: dict[int, dict[dt.date, HeatDay]] = defaultdict(dict)
        for note in self.days:
            assert note.date is not None
            lines = sum(1 for line in note.body.split("\n") if line.strip())
            by_year[note.date.year][note.date] = HeatDay(note.date, lines, href(url, note.url))
        return TimelinePage(
            **self.base(url, "timeline.html", "Daily logs", "days"),  # type: ignore[arg-type]
            heatmaps=[heatmap(year, days) for year, days in sorted(by_year.items(), reverse=True)],
            months=[MonthView(label, href(url, f"memory/{key}.html"), count) for key, label, count in self._months()],
            days=[self.day_summary(n, url) for n in reversed(self.days)],
        )

    def _months(self) -> list[tuple[str, str, int]]:
        out = []
        for key, group in groupby(self.days, key=lambda n: n.date.strftime("%Y-%m") if n.date else ""):
            notes = list(group)
            assert notes[0].date is not None
            out.append((key, notes[0].date.strftime("%B %Y"), len(notes)))
        return list(reversed(out))

    def month_pages(self) -> list[TimelinePage]:
        pages = []
        for key, label, _ in self._months():
            url = f"memory/{key}.html"
            days = [n for n in self.days if n.date and n.date.strftime("%Y-%m") == key]
            pages.append(
                TimelinePage(
                    **self.base(url, "timeline.html", label, "days"),  # type: ignore[arg-type]
                    days=[self.day_summary(n, url) for n in days],
                )
            )
        return pages

    def entity_page(self, entity: Entity) -> EntityPage:
        url = entity.url
        linker = SiteLinker(self.library, url)
        groups = []
        for path, links in groupby(self.library.backlinks.get(entity.key, []), key=lambda link: link.path):
            note = self.library.note(path)
            assert note is not None
            lines = [
                BacklinkLine(
                    self.inline(link.sentence or plain_sentence(note.line_text(link.line)), url),
                    href(url, source_url(f"{path}#L{link.line}")),
                    link.line,
                )
                for link in links
            ]
            date = note.date.isoformat() if note.date else ""
            groups.append(BacklinkGroup(LinkView(note.title, href(url, note.url)), date, lines))
        groups.sort(key=lambda g: (g.date == "", g.date), reverse=False)
        groups = [g for g in groups if g.date][::-1] + [g for g in groups if not g.date]
        facts = self.library.facts_by_entity.get(entity.key, [])
        dates = self.library.seen(entity.key)
        related = [
            LinkView(self.library.entities[k].name, href(url, self.library.entities[k].url), f"{n}×")
            for k, n in self.library.related.get(entity.key, [])[:12]
        ]
        opinions = [self.opinion_view(o, url) for o in self.library.opinions_about(entity.key)]
        note = entity.note
        summary = note.reflected.summary if note else ""
        return EntityPage(
            **self.base(  # type: ignore[arg-type]
                url,
                "entity.html",
                entity.name,
                "entities",
                pagefind_meta=_meta("entity", None),
                pagefind_filters=_filters("entity", [f.kind for f in facts], [entity.name], None),
            ),
            name=entity.name,
            type=entity.type,
            aliases=list(entity.aliases),
            placeholder=entity.placeholder,
            html=self.md.render_note(note, linker) if note else "",
            source=note.path if note else "",
            first_seen=dates[0].isoformat() if dates else "",
            last_seen=dates[-1].isoformat() if dates else "",
            backlinks=groups,
            facts=[self.fact_view(f, url) for f in reversed(facts)],
            related=related,
            opinions=opinions,
            summary=summary,
            summary_html=self.inline(summary, url) if summary else "",
        )

    def entity_index_page(self) -> EntityIndexPage:
        url = "bank/entities/index.html"
        groups: dict[str, list[LinkView]] = defaultdict(list)
        for entity in self.library.entities.values():
            mentions = len(self.library.backlinks.get(entity.key, []))
            label = entity.type or ("no page yet" if entity.placeholder else "other")
            groups[label].append(
                LinkView(
                    entity.name, href(url, entity.url), f"{mentions} mentions", "missing" if entity.placeholder else ""
                )
            )
        ordered = sorted(groups.items(), key=lambda kv: (kv[0] in ("other", "no page yet"), kv[0]))
        return EntityIndexPage(
            **self.base(url, "entities.html", "Entities", "entities"),  # type: ignore[arg-type]
            groups=[(k, sorted(v, key=lambda v: v.text.casefold())) for k, v in ordered],
        )

    def opinions_page(self) -> OpinionsPage:
        url = "bank/opinions.html"
        note = self.library.note(OPINIONS_PATH)
        return OpinionsPage(
            **self.base(url, "opinions.html", "Opinions", "opinions"),  # type: ignore[arg-type]
            opinions=[self.opinion_view(o, url) for o in self.library.opinions],
            html=self.md.render_note(note, SiteLinker(self.library, url)) if note else "",
            source=note.path if note else "",
        )

    def hygiene_page(self, sections: list[Section]) -> HygienePage:
        url = "hygiene.html"
        views = []
        for section in sections:
            items = []
            for finding in section.findings:
                target = (
                    finding.path
                    if finding.path.endswith(".html")
                    else source_url(f"{finding.path}#L{finding.line}" if finding.line else finding.path)
                )
                known = target.split("#")[0].removesuffix(
                    ".html"
                ) + ".md" in self.library.note_by_path or finding.path.endswith(".html")
                where = f"{finding.path}:{finding.line}" if finding.line else finding.path
                items.append(HygieneItem(where, href(url, target) if known else "", finding.message))
            views.append(HygieneSection(section.title, section.explanation, items))
        return HygienePage(
            **self.base(url, "hygiene.html", "Hygiene report", "hygiene"),  # type: ignore[arg-type]
            sections=views,
            total=sum(len(s.items) for s in views),
        )

    def search_page(self) -> SearchPage:
        url = "search.html"
        library = self.library
        present = {n.kind for n in library.notes} | ({"entity"} if library.entities else set())
        return SearchPage(
            **self.base(url, "search.html", "Search", "search"),  # type: ignore[arg-type]
            kinds=[KIND_NAMES[k] for k in "WBOS" if any(f.kind == k for f in library.facts)],
            entities=sorted((e.name for e in library.entities.values()), key=str.casefold),
            years=sorted({str(n.date.year) for n in self.days if n.date}, reverse=True),
            page_kinds=[label for kind, label in PAGE_KINDS.items() if kind in present],
        )

    def not_found_page(self) -> PageView:
        page = self.base("404.html", "404.html", "Page not found", "")
        if self.config.base_url:
            # Hosts serve 404.html at whatever path was missing: only absolute links work there.
            root = self.config.base_url + "/"
            page["root"] = root
            page["nav"] = [LinkView(text, root + target) for _, text, target in self.nav]
        return PageView(**page)  # type: ignore[arg-type]


def collect_pages(builder: PageBuilder, sections: list[Section]) -> list[PageView]:
    """Every page of the site, in a stable order."""
    library = builder.library
    pages: list[PageView] = [builder.home_page(), builder.timeline_page(), *builder.month_pages()]
    for note in library.notes:
        if note.kind == "entity" or note.path == OPINIONS_PATH:
            continue
        pages.append(builder.note_page(note))
    pages.append(builder.opinions_page())
    pages.append(builder.entity_index_page())
    pages.extend(builder.entity_page(e) for e in library.entities.values())
    pages.append(builder.hygiene_page(sections))
    pages.append(builder.search_page())
    pages.append(builder.not_found_page())
    return pages


PAGE_KINDS = {
    "core": "core memory",
    "soul": "persona",
    "daily": "daily log",
    "bank": "bank page",
    "entity": "entity",
    "page": "page",
}


def _filters(page: str, kinds: list[str], entities: list[str], date: dt.date | None) -> dict[str, list[str]]:
    """Pagefind filters: the page's kind, the kinds of its facts, its entities and year."""
    filters: dict[str, list[str]] = {"page": [PAGE_KINDS[page]]}
    if kinds:
        filters["kind"] = sorted(KIND_NAMES[k] for k in set(kinds))
    if date:
        filters["year"] = [str(date.year)]
    if entities:
        filters["entity"] = entities
    return filters


def _meta(page: str, date: dt.date | None) -> dict[str, str]:
    meta = {"page": PAGE_KINDS[page]}
    if date:
        meta["date"] = date.isoformat()
    return meta
