"""``PageBuilder``: what every page needs (library, config, Markdown, chrome) and what the pages' inputs read (the
item views pages share are made by ``item_views``)."""

from __future__ import annotations

import functools
import html
import re
import sys

from site_builder.core.config import Config
from site_builder.core.digest import value_digest
from site_builder.core.library import Library
from site_builder.core.model import Entity, Note, Opinion
from site_builder.core.names import href, opinions_page_url, root_of
from site_builder.library.citing import citing_of
from site_builder.library.folders import folder_tree
from site_builder.library.graph import Neighbourhoods
from site_builder.library.link import OPINIONS_PATH
from site_builder.library.opinion_pages import page_number, page_starts
from site_builder.library.projects import find_projects
from site_builder.library.relink import LINKED
from site_builder.library.tags import TagUse, workspace_tags
from site_builder.site.environment import CUSTOM_CSS
from site_builder.site.fragments import Fragments, LinkNames, start_from
from site_builder.site.language import site_language
from site_builder.site.links import SiteLinker
from site_builder.site.markdown import MarkdownRenderer
from site_builder.site.page_inputs import fact_inputs, ordinal
from site_builder.site.search_titles import ShownTitle, placed_titles
from site_builder.site.views import Chrome, NavLink

# The bank pages with a navigation entry of their own, and the kind of fact each lists.
BANK_SECTIONS = {"bank/world.md": "world", "bank/experience.md": "experience"}
BANK_KINDS = {"bank/world.md": "W", "bank/experience.md": "B"}


def counted(count: int, word: str, plural: str = "") -> str:
    """``1 mention``, ``2 mentions``, ``1,204 entities`` (``plural`` when adding an s is wrong)."""
    return f"{count:,} {word if count == 1 else plural or word + 's'}"


# Among the notes a page's inputs read (``PageBuilder.reads``): what reading every file found, settings included
# (the hygiene pages): such a page is never kept on its last inputs (``site.page_reads``).
EVERY_TEXT = "*"

# Stands for a page's way back to the site root in HTML shared by pages at any depth. A private-use character:
# the Markdown renderer removes those from every text, so no text can contain it.
ROOT_MARK = "\ue003"

_MARKUP = re.compile(r"[*_`\[\]<>&@\\~=$]")  # a heading with none of these is shown as written
_TAG = re.compile(r"<[^>]*>")


class PageBuilder:
    """Holds what every page needs: the library, config, one Markdown renderer and the navigation."""

    def __init__(
        self,
        library: Library,
        config: Config,
        markdown: MarkdownRenderer,
        reuse: Fragments | None = None,
        templates: str = "",
    ) -> None:
        self.library = library
        self.config = config
        self.md = markdown
        self.templates = templates  # the digest of the workspace's templates (``io.styling``): "" when none
        self.days = library.days
        self.day_position = {day.path: i for i, day in enumerate(self.days)}
        self.by_day = library.by_day
        self.folders = folder_tree(library.notes)
        self.projects = find_projects(library.notes)
        self.language = site_language(library.notes, config.language)
        # What this build renders (and the last one did, when links still resolve the same), for reuse.
        self.fragments = start_from(reuse, LinkNames.of(library), library.notes)
        # The last build's pages: a page whose view is the same renders to the same bytes, whatever the links.
        self.last_pages = reuse.pages if reuse is not None else {}
        # By id(): the library holds every opinion and fact while this lives (render may give the last build's).
        self.opinion_digests_by_id: dict[int, str] = {}
        self.fact_item_html: dict[int, str] = {}  # by id() of the fact: see ``item_views.fact_items``
        # While a page's inputs are worked out (``site.render_jobs.job_inputs``): the notes whose texts they read.
        self.reads: set[str] | None = None
        self.nav = [
            ("days", "Days", "memory/index.html"),
            ("entities", "Entities", "bank/entities/index.html"),
            ("graph", "Graph", "graph.html"),
            *(
                [("opinions", "Opinions", "bank/opinions.html")]
                if library.opinions or library.note(OPINIONS_PATH)
                else []
            ),
            *(
                (BANK_SECTIONS[path], title, path.removesuffix(".md") + ".html")
                for path, title in (("bank/world.md", "World"), ("bank/experience.md", "Experience"))
                if library.note(path)
            ),
            ("agent", "Agent", "agent.html"),
            ("hygiene", "Hygiene", "hygiene.html"),
        ]

    @functools.cached_property
    def shared_inputs(self) -> str:
        """What every page is made from besides its own inputs: the settings, the navigation, what links
        resolve to, the workspace's templates and the titles search lists pages by (memwiki's own code is the build
        cache's key)."""
        shared = f"{self.fragments.epoch}\0{self.config!r}\0{self.language}\0{self.nav!r}\0{self.templates}"
        return shared + (f"\0{sorted(self.search_titles.items())!r}" if self.search_titles else "")

    @functools.cached_property
    def homes(self) -> dict[str, list[Entity]]:
        """The entities whose page is made (no page of their own) and that a note is about, by the note's path: the
        profile of the user, a project's index (the note's page links to theirs)."""
        homes: dict[str, list[Entity]] = {}
        for entity in self.library.entities.values():
            if entity.home and entity.note is None:
                homes.setdefault(entity.home, []).append(entity)
        return homes

    @functools.cached_property
    def tags(self) -> dict[str, TagUse]:
        """Every tag of the workspace by key, in key order (``library.tags``)."""
        return workspace_tags(self.library.notes)

    @functools.cached_property
    def tag_keys(self) -> list[str]:
        """The keys of ``tags``, in order: where the tags nested in one are looked up."""
        return list(self.tags)

    @functools.cached_property
    def search_titles(self) -> dict[str, str]:
        """Page URL -> the title search lists it by, for the searchable pages whose own title another shows too
        (``search_titles``). Which pages those are depends on every page's title: every page's inputs hold it."""
        library = self.library
        notes = (n for n in library.notes if n.kind != "entity" and n.path != OPINIONS_PATH)
        return placed_titles(
            [
                *(ShownTitle(note.url, self.shown_title(note), note.path) for note in notes),
                *(
                    ShownTitle(e.url, self.shown_title(e.note) if e.note and not e.home else e.name, "")
                    for e in library.entities.values()
                ),
                *(
                    ShownTitle(f"{folder}/index.html", project.name, folder + "/")
                    for folder, project in self.projects.items()
                ),
            ]
        )

    def shown_title(self, note: Note) -> str:
        """The title the note's page shows first: its first level-1 heading, as rendered, else its title."""
        heading = next((h.text for h in note.headings if h.level == 1 and h.text.strip()), None)
        if heading is None:
            return note.title
        if not _MARKUP.search(heading):
            return heading
        return " ".join(html.unescape(_TAG.sub("", self.inline(heading, note.url))).split())

    @functools.cached_property
    def neighbourhoods(self) -> Neighbourhoods:
        """Each entity's neighbourhood, for its page's graph and inputs."""
        return Neighbourhoods(self.library)

    @functools.cached_property
    def note_heads(self) -> dict[str, tuple[str, int | None]]:
        """Note path -> its title and day (``ordinal``): what a line linking from it shows of it, for the inputs of
        the pages that show the line (``backlink_inputs``)."""
        return {note.path: (note.title, ordinal(note.date)) for note in self.library.notes}

    def text_digest(self, note: Note) -> str:
        """The digest of the note's text, for a page's inputs: the one way they read a text (noted in ``reads``).
        When the library is the last build's, a page whose inputs read no changed text is kept as it was."""
        if self.reads is not None:
            self.reads.add(note.path)
        return note.digest

    def reads_linked(self, *parts: str) -> None:
        """The page's inputs read, of the linked library, only these parts (``library.relink``'s names) and the
        texts they say they read; a page that does not say so is never held after a relink."""
        if self.reads is not None:
            self.reads.add(LINKED)
            self.reads.update(map(sys.intern, parts))  # one string however many pages name it: saved once

    def reads_every_text(self) -> None:
        """The page's inputs read what every text says (the hygiene pages: what each file's parse found)."""
        if self.reads is not None:
            self.reads.add(EVERY_TEXT)

    def prepare_inputs(self) -> None:
        """Make what the inputs of many pages read (``shared_inputs``, ``neighbourhoods``, ``opinions_citing``,
        ``note_heads``, the opinions' digests) here and now: before render forks, so that its child inherits it, not
        makes it too."""
        _ = self.shared_inputs, self.neighbourhoods, self.opinions_citing, self.note_heads, self.opinion_pages
        _ = self.tags, self.tag_keys
        for opinion in self.library.opinions:
            self.opinion_digest(opinion)

    def opinion_digest(self, opinion: Opinion) -> str:
        """A digest of all an opinion's card shows (statement, confidence, history, evidence), for the inputs of
        the pages that show it: made once per opinion, however many pages show it."""
        found = self.opinion_digests_by_id.get(id(opinion))
        if found is None:
            shown = (
                opinion.id,
                opinion.statement,
                opinion.entities,
                opinion.confidence,
                ordinal(opinion.changed),
                [(ordinal(p.date), p.confidence, p.change, p.fact_id, p.source, p.text) for p in opinion.history],
                [(e.stance, fact_inputs(e.fact)) for e in opinion.evidence],
                opinion.origin.source,
            )
            found = self.opinion_digests_by_id[id(opinion)] = value_digest(shown)
        return found

    @functools.cached_property
    def opinion_pages(self) -> list[int]:
        """Where each page of opinions starts (``library.opinion_pages``)."""
        return page_starts(self.library.opinions)

    @functools.cached_property
    def opinions_citing(self) -> dict[str, list[tuple[int, int]]]:
        """Note path -> the places of the opinions a fact of that note set or moved, each with the first such line
        (``citing_places``: the library's own when it came with it, else kept with it)."""
        return citing_of(self.library)

    def citing(self, note: Note) -> list[tuple[Opinion, int, str]]:
        """The opinions citing ``note``, each with the first line of it cited and the page its card is on."""
        opinions = self.library.opinions
        starts = self.opinion_pages
        return [
            (opinions[place], line, opinions_page_url(page_number(place, starts)))
            for place, line in self.opinions_citing.get(note.path, [])
        ]

    def note_html(self, note: Note, url: str = "") -> str:
        """A note rendered for its own page, or for the page at ``url`` that shows it whole (an entity's page, the
        opinions page); memoised by content and depth: the feed reuses it, the next build too."""
        url = url or note.url
        depth = root_of(url)
        key = (note.path if depth == root_of(note.url) else f"{note.path}\0{depth}", note.digest)
        html = self.fragments.notes.get(key)
        if html is None:
            html = self.fragments.notes[key] = self.md.render_note(note, SiteLinker(self.library, url, note.path))
        return html

    def inline(self, text: str, url: str) -> str:
        """One line of Markdown as HTML for the page at ``url``."""
        return self.inline_marked(text, url).replace(ROOT_MARK, root_of(url))

    def inline_marked(self, text: str, url: str) -> str:
        """One line of Markdown as HTML, rendered once per text (first for the page at ``url``), whatever the
        page: its links start with ``ROOT_MARK`` where the way back to the site root goes."""
        html = self.fragments.inline.get(text)
        if html is None:
            linker = SiteLinker(self.library, url, root=ROOT_MARK)
            html = self.fragments.inline[text] = self.md.render_inline(text, linker)
        return html

    def chrome(
        self,
        url: str,
        *,
        kind: str,
        title: str,
        section: str,
        listed: bool = True,
        searchable: bool = False,
        meta: dict[str, str] | None = None,
        filters: dict[str, list[str]] | None = None,
    ) -> Chrome:
        """The chrome of the page at ``url``; ``section`` marks the current navigation entry."""
        return Chrome(
            kind=kind,
            title=title,
            url=url,
            root=root_of(url),
            site_title=self.config.title,
            lang=self.language,
            base_url=self.config.base_url,
            css=CUSTOM_CSS if self.config.css else "",
            listed=listed,
            searchable=searchable,
            nav=[NavLink(text, href(url, target), key == section) for key, text, target in self.nav],
            pagefind_meta={**(meta or {}), "title": self.search_titles[url]}
            if searchable and url in self.search_titles
            else meta or {},
            pagefind_filters=filters or {},
        )
