"""What one build renders that the next reuses, and when it still may.

Every link a page shows resolves through the workspace's entities (names,
pages, aliases) and notes (paths, titles): ``LinkNames`` is that, for one
build. The HTML of a note or a line, and the pages whose inputs were digested
with it, hold while the links they show resolve the same.

A new daily log, the change a workspace sees every day, adds a note, so its
names (``2025-11-27``, ``memory/2025-11-27``) now resolve where they did not;
yet no line written before it names a log that did not exist. So when only
notes came, went or were retitled, ``start_from`` works out which names now
resolve differently and looks for them in every note the last build had,
changed or not (a line it rendered may be in a note edited since): when none
writes one, the last build's HTML and page digests still hold (the *epoch* they
were made in carries on; the lines that name those names are rendered again).
Any other change, to entities or aliases (a new page, an alias, a name now seen
on two days), or a note the last build had that names a changed name, starts a
new epoch: everything is rendered again.

The search is conservative: a name is looked for in the whole text, case
and separators ignored (``Anna Lee``, ``anna_lee``, ``Anna%20Lee``), so
a date in a sentence counts as naming that day's log; a changed name that is
not ASCII, where case rules go beyond what a pattern can fold, starts a new
epoch.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from site_builder.core.library import Library
from site_builder.core.model import Note
from site_builder.core.names import entity_key
from site_builder.core.note_paths import folder_page_of
from site_builder.io.staging import Stamp

# A page as a build made it: its view's digest, how its file stood on disk (None: not written there) and its
# search record's digest ("": none, the page is not searched; None: not known, the build did not search).
PageMark = tuple[str, Stamp | None, str | None]

_SEPARATOR = r"(?:[\s_\-]|%20)+"  # what ``entity_key`` makes a "-" of, and a space in a link's URL


@dataclass(frozen=True)
class LinkNames:
    """What every link of one build resolves to. Equal when links resolve the same (``digests`` aside)."""

    entities: dict[str, tuple[str, str, bool]]  # key -> name, slug, placeholder
    aliases: dict[str, str]  # alias key -> entity key
    notes: dict[str, str]  # note path -> title (a wikilink finds a note by its path: ``core.note_paths``)
    digests: dict[str, str] = field(compare=False)  # note path -> content hash: which notes changed since

    @classmethod
    def of(cls, library: Library) -> LinkNames:
        return cls(
            {e.key: (e.name, e.slug, e.placeholder) for e in library.entities.values()},
            dict(library.resolver.aliases),
            {note.path: note.title for note in library.notes},
            {note.path: note.digest for note in library.notes},
        )

    def digest(self) -> str:
        data = repr((sorted(self.entities.items()), sorted(self.aliases.items())))
        return hashlib.sha256((data + repr(sorted(self.notes.items()))).encode()).hexdigest()[:16]


@dataclass
class Fragments:
    """HTML a build rendered that the next one can reuse: notes by path and content hash, lines of Markdown by
    text (valid in ``epoch``, while links resolve as ``names`` says) and each page's mark (``pages``: the next
    build keeps a page whose view is the same and whose file is as it left it)."""

    epoch: str = ""  # the links the HTML and page digests were made under (see the module's note)
    names: LinkNames | None = None
    notes: dict[tuple[str, str], str] = field(default_factory=dict)
    inline: dict[str, str] = field(default_factory=dict)  # with ROOT_MARK for the way back to the site root
    pages: dict[str, PageMark] = field(default_factory=dict)  # site path -> how the page was made
    # Reads the HTML the build cache holds into ``notes`` and ``inline`` when it is first needed (``read``).
    unread: Callable[[], None] | None = field(default=None, compare=False, repr=False)

    def read(self) -> None:
        """The HTML of notes and lines the last build left, read into ``notes`` and ``inline`` (once). A build that
        makes a few pages of thousands renders their notes and lines again instead
        (``site.render_jobs.READ_HTML_FROM``)."""
        if self.unread is not None:
            unread, self.unread = self.unread, None
            unread()

    def update(self, other: Fragments) -> None:
        self.notes.update(other.notes)
        self.inline.update(other.inline)
        self.pages.update(other.pages)


def start_from(last: Fragments | None, names: LinkNames, notes: list[Note]) -> Fragments:
    """This build's fragments before it renders: the last build's HTML in its epoch when the links it shows
    resolve the same (without the lines that name a name that changed), else nothing in a new epoch. The HTML is
    taken when it is read (``Fragments.read``), at once when ``last`` holds it already."""
    if last is None or last.names is None:
        return Fragments(names.digest(), names)
    pattern = None
    if last.names != names:
        changed = changed_names(last.names, names)
        pattern = names_pattern(changed) if changed is not None else None
        if pattern is None or any(_writes(note, pattern) for note in notes if note.path in last.names.digests):
            return Fragments(hashlib.sha256((last.epoch + names.digest()).encode()).hexdigest()[:16], names)
    now = Fragments(last.epoch, names)

    def take() -> None:
        last.read()
        inline = last.inline if pattern is None else {t: h for t, h in last.inline.items() if not pattern.search(t)}
        now.notes, now.inline = {**last.notes, **now.notes}, {**inline, **now.inline}

    if last.unread is None:
        take()
    else:
        now.unread = take
    return now


def changed_names(before: LinkNames, now: LinkNames) -> frozenset[str] | None:
    """The keys (as ``entity_key`` makes them) of the names that resolve differently now: those of the notes that
    came, went or were retitled (and of their folders, for a folder's page). None when entities or aliases changed: any line may link differently."""
    if before.entities != now.entities or before.aliases != now.aliases:
        return None
    names = set()
    for path in before.notes.keys() | now.notes.keys():
        if _differs(before.notes, now.notes, path):  # came, went or retitled: its name, its folder's for its page
            names.add(entity_key(path.rsplit("/", 1)[-1].removesuffix(".md")))
            if (folder := folder_page_of(path)) is not None:
                names.add(entity_key(folder.rsplit("/", 1)[-1]))
    return frozenset(name for name in names if name)


def names_pattern(names: frozenset[str]) -> re.Pattern[str] | None:
    """A pattern that finds any way a text may write one of these keys; None when one is not ASCII."""
    if not all(name.isascii() for name in names):
        return None
    if not names:
        return re.compile(r"(?!)")  # finds nothing
    ways = (_SEPARATOR.join(re.escape(part) for part in name.split("-")) for name in sorted(names))
    return re.compile("|".join(ways), re.IGNORECASE)


def _differs(before: dict[str, str], now: dict[str, str], key: str) -> bool:
    return before.get(key) != now.get(key)


def _writes(note: Note, pattern: re.Pattern[str]) -> bool:
    return bool(pattern.search(note.body) or (note.meta and pattern.search(repr(note.meta))))
