"""A page per ClawXMemory project, at its folder's index: what it is, where it stands, the rules for working on it.

The state sections of its memory files (Current Stage, Next Steps, Blockers,
Decisions, Constraints, Timeline) are gathered in reading order, each citing
the file and heading it comes from; its feedback rules show the rule and how
to apply it. Those excerpts are left out of search: their own pages are indexed.
"""

from __future__ import annotations

from site_builder.core.model import Note
from site_builder.core.names import heading_slug, href
from site_builder.library.projects import Project, section
from site_builder.library.summaries import description
from site_builder.site.backlinks import folder_backlinks
from site_builder.site.builder import PageBuilder
from site_builder.site.folder_page import crumbs, folder_listing, folder_note
from site_builder.site.links import SiteLinker
from site_builder.site.project_views import ProjectPage, RuleView, StateView
from site_builder.site.search_fields import search_filters, search_meta
from site_builder.site.views import LinkView


def project_pages(builder: PageBuilder) -> list[ProjectPage]:
    """A page per project, but for a project whose folder's ``index.md`` is the folder's page (its own text first)."""
    return [project_page(builder, p) for p in builder.projects.values() if not folder_note(builder, p.folder)]


def project_page(builder: PageBuilder, project: Project) -> ProjectPage:
    url = f"{project.folder}/index.html"
    meta = project.meta
    folders, files = folder_listing(builder, project.folder, url)
    facts = [
        (label, value)
        for label, value in (
            ("Status", project.status),
            ("Also called", ", ".join(project.aliases)),
            ("Started", project.created),
            ("Updated", project.updated),
        )
        if value
    ]
    return ProjectPage(
        chrome=builder.chrome(
            url,
            kind="project",
            title=project.name,
            section="files",
            searchable=True,
            meta=search_meta("project", None),
            filters=search_filters("project", [], [], None),
        ),
        crumbs=crumbs(project.folder.rpartition("/")[0], url),
        description=description(builder.library, meta) if meta else "",
        facts=facts,
        summary_html=_excerpt(builder, meta, meta.body, url) if meta and meta.body.strip() else "",
        meta=LinkView(meta.path.rsplit("/", 1)[-1], href(url, meta.url)) if meta else None,
        state=[
            StateView(s.heading.text, _excerpt(builder, s.note, s.text, url), _cite(url, s.note, s.heading.text))
            for s in project.state()
        ],
        rules=[_rule(builder, note, url) for note in project.feedback],
        archived=[LinkView(n.title, href(url, n.url), n.path[len(project.folder) + 1 :]) for n in project.archived],
        folders=folders,
        files=files,
        backlinks=folder_backlinks(builder, project.folder, url),
    )


def _rule(builder: PageBuilder, note: Note, url: str) -> RuleView:
    rule = section(note, "Rule")
    apply = section(note, "How to apply")
    date = str(note.meta.get("captured_at") or note.meta.get("updated_at") or "")[:10]
    return RuleView(
        title=LinkView(note.title, href(url, note.url)),
        rule_html=_excerpt(builder, note, rule.text if rule else note.body.strip().split("\n\n")[0], url),
        apply_html=_excerpt(builder, note, apply.text, url) if apply and apply.text else "",
        date=date,
    )


def _cite(url: str, note: Note, heading: str) -> LinkView:
    return LinkView(note.title, href(url, f"{note.url}#{heading_slug(heading)}"), note.path)


def _excerpt(builder: PageBuilder, note: Note, text: str, url: str) -> str:
    return builder.md.render_excerpt(text, SiteLinker(builder.library, url, note.path))
