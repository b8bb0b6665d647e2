"""A ClawXMemory project's page view and its parts: the sections of its state and its feedback rules
(``project_page``).

Each field is documented by a ``#:`` comment on its line, as in ``page_views`` (``tests/test_views.py`` checks them).
"""

from __future__ import annotations

from dataclasses import dataclass

from site_builder.site.views import BacklinkGroup, LinkView, PageView


@dataclass(frozen=True)
class StateView:
    """A section of a project's memory files (Current Stage, Next Steps…), shown on the project's page."""

    title: str  #: the section's heading
    html: str  #: the text under it, as HTML
    source: LinkView  #: the file and heading it comes from


@dataclass(frozen=True)
class RuleView:
    """A feedback rule: its name, the rule and how to apply it."""

    title: LinkView  #: the rule's name, linking to its file
    rule_html: str  #: its ``## Rule`` section as HTML (else the file's start)
    apply_html: str  #: its ``## How to apply`` section as HTML, "" without one
    date: str  #: when it was captured, "" when not said


@dataclass(frozen=True)
class ProjectPage(PageView):
    """A ClawXMemory project: its meta, state sections, feedback rules, archive and files."""

    template = "project.html"
    crumbs: list[LinkView]  #: the folders above the project
    description: str  #: the meta file's description, "" without one
    facts: list[tuple[str, str]]  #: (label, value): status, aliases, created, updated
    summary_html: str  #: the meta file's body as HTML, "" without one
    meta: LinkView | None  #: the meta file's own page
    state: list[StateView]  #: its state sections in reading order
    rules: list[RuleView]  #: its feedback rules, newest first
    archived: list[LinkView]  #: files under an Archive/ folder
    folders: list[LinkView]  #: its sub-folders
    files: list[LinkView]  #: the notes directly in its folder
    backlinks: list[BacklinkGroup]  #: lines of notes outside the project that link to its notes
