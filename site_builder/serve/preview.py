"""The edited page first: while serve rebuilds the whole site, the pages of the notes that changed are rendered at
once from the last build's library, so an open page shows the edit in well under a second.

Only an edit of a note the last build showed qualifies (a daily log, a bank page…); a new, deleted or renamed
file, an entity page, the opinions file or a note that became private waits for the full build. The preview is
rendered by the same page code as the build; what it cannot know yet (the note's place in other pages) the full
build brings a moment later, when every open page reloads again.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from site_builder.core.model import Note
from site_builder.io.sources import source_file
from site_builder.io.writer import write_text_atomic
from site_builder.library.citing import citing_of
from site_builder.library.link import OPINIONS_PATH
from site_builder.load import Loaded
from site_builder.parse.note import parse_note
from site_builder.site.builder import PageBuilder
from site_builder.site.environment import make_environment, template_errors, use_templates
from site_builder.site.markdown import MarkdownRenderer
from site_builder.site.note_page import note_page


def preview_pages(last: Loaded, changed: list[str], out: Path) -> list[str]:
    """Render the pages of the ``changed`` notes (workspace-relative paths) into ``out`` from the ``last`` build's
    library; the site paths written, or ``[]`` when any change needs the full build to be shown right."""
    edited = _edited_notes(last, changed)
    if not edited:
        return []
    replaced = {note.path: note for note in edited}
    notes = [replaced.get(note.path, note) for note in last.library.notes]
    library = dataclasses.replace(
        last.library, notes=notes, note_by_path=last.library.note_by_path | replaced, citing=citing_of(last.library)
    )  # the links, entities and opinions stay the last build's until the full build
    styling = last.workspace.styling
    use_templates(styling.templates)
    builder = PageBuilder(library, last.workspace.config, MarkdownRenderer(), templates=styling.digest)
    env = make_environment()
    written = []
    with template_errors():
        for note in edited:
            page = note_page(builder, note)
            write_text_atomic(out, page.chrome.url, env.get_template(page.template).render(page=page))
            written.append(page.chrome.url)
    return written


def _edited_notes(last: Loaded, changed: list[str]) -> list[Note]:
    """The changed notes parsed again, or ``[]`` unless every change is an edit of a note shown on its own page."""
    shown = last.library.note_by_path
    edited = []
    for rel in changed:
        before = shown.get(rel)
        if before is None or before.kind == "entity" or rel == OPINIONS_PATH:
            return []
        try:
            data = (last.root / rel).read_bytes()
        except OSError:  # deleted or moved: the full build says what became of it
            return []
        note = parse_note(source_file(last.workspace, rel, data))
        if note.private or note.url != before.url or note.date != before.date:
            return []
        edited.append(note)
    return edited
