"""Names and paths: the matching key of an entity name, a slug safe as a file name, the site page of a note, and
the relative URLs between pages (``href``, ``source_url``) that the site and recall both write."""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata

_SEPARATORS = re.compile(r"[\s_\-]+")
_UNSAFE = re.compile(r"[^\w\-]+")
_RESERVED = {
    "con",
    "prn",
    "aux",
    "nul",
    "index",
    "404",
    *(f"com{i}" for i in range(10)),
    *(f"lpt{i}" for i in range(10)),
}
MAX_SLUG = 80


# Names and paths come back on every page that shows them: each pure function below remembers its recent answers.
REMEMBERED = 1 << 16


@functools.lru_cache(maxsize=REMEMBERED)  # a workspace writes the same few thousand names again and again
def entity_key(name: str) -> str:
    """Case-insensitive key with ``-``, ``_`` and space equivalent: 'Peter_Smith' -> 'peter-smith'."""
    text = unicodedata.normalize("NFC", name).strip().casefold()
    return _SEPARATORS.sub("-", text).strip("-")


_ASIDE = re.compile(r"\s*\([^()]*\)$")


def without_aside(name: str) -> str:
    """A name without what is said aside in a bracket at its end: "Kit (me)", "Marcus (newborn)", "Workshop
    Legalization (Mas Mestre)" name Kit, Marcus, the workshop."""
    return _ASIDE.sub("", name).strip()


def slugify(name: str) -> str:
    """A file-name-safe slug: no path separators, dots, reserved names or huge lengths."""
    key = entity_key(name.replace("\x00", ""))
    slug = _UNSAFE.sub("-", key).strip("-")
    slug = re.sub(r"-{2,}", "-", slug)
    digest = hashlib.sha1(key.encode("utf-8")).hexdigest()[:8]
    if not slug:
        return f"entity-{digest}"
    if slug in _RESERVED:
        return f"{slug}-{digest}"
    if len(slug) > MAX_SLUG:
        return f"{slug[:MAX_SLUG].rstrip('-')}-{digest}"
    return slug


def heading_slug(text: str) -> str:
    """Anchor id of a heading: 'Trip to Marrakech!' -> 'trip-to-marrakech'."""
    slug = _UNSAFE.sub("-", entity_key(text)).strip("-")
    return re.sub(r"-{2,}", "-", slug) or "section"


_FILE_NAME = re.compile(r"^[^\W_][\w .'&()+,-]*$")


def entity_file_name(name: str) -> str | None:
    """``bank/entities/<Name>.md`` for a new page, or None when the name is unsafe as a file name
    (path separators, leading dot, control characters, Windows device names, over 100 characters)."""
    clean = unicodedata.normalize("NFC", name).strip()
    if not _FILE_NAME.match(clean) or len(clean) > 100 or clean.endswith((".", " ")):
        return None
    if clean.split(".")[0].casefold() in _RESERVED - {"index", "404"}:
        return None
    return f"bank/entities/{clean}.md"


FOLDER_INDEX = "index.md"  # a folder's own page (its listing follows the note)
OWN_INDEX = frozenset({"memory", "bank/entities"})  # folders whose index page is another page kind
# Site paths memwiki's own pages take; a note whose page would land on one gets ``.md.html`` instead (else one
# page would hide the other: a note called facts.md was never on the site).
RESERVED_URLS = re.compile(
    r"^(index|404|search|graph|agent|hygiene|hygiene-[^/]+|facts|facts-[^/]+|bank/opinions-\d+"
    r"|memory/\d{4}-\d{2}|.*/index)\.html$"
)


@functools.lru_cache(maxsize=REMEMBERED)
def page_url(path: str) -> str:
    """Site path of the page of the note at ``path``: ``x.md`` -> ``x.html``, or ``x.md.html`` where memwiki's own
    pages are (``index.html``, ``search.html``, ``memory/2025-11.html``…). A folder's ``index.md`` is the folder's
    page (``projects/openclaw/index.html``). An entity's page
    (``bank/entities/Anna.md``) is the entity's, named by its slug: ``bank/entities/anna.html``."""
    folder, _, name = path.rpartition("/")
    if folder == "bank/entities" and name.endswith(".md"):
        return f"{folder}/{slugify(name.removesuffix('.md'))}.html"
    if is_folder_page(path):  # the folder's page, as MkDocs and Hugo make it
        return f"{folder}/index.html"
    url = path.removesuffix(".md") + ".html"
    return path + ".html" if RESERVED_URLS.match(url) else url


def is_folder_page(path: str) -> bool:
    """Is the note at ``path`` its folder's page (``a/b/index.md``; not the root's, nor in a folder whose index is
    another page kind)?"""
    folder, _, name = path.rpartition("/")
    return name == FOLDER_INDEX and bool(folder) and folder not in OWN_INDEX


OPINIONS_URL = "bank/opinions.html"  # the first page of opinions; the others follow it in its folder


def opinions_page_url(number: int) -> str:
    """The address of the ``number``-th page of opinions."""
    return OPINIONS_URL if number == 1 else f"bank/opinions-{number}.html"


def root_of(url: str) -> str:
    """Prefix that leads from page ``url`` back to the site root ('' or '../..')."""
    return "../" * url.count("/")


def href(from_url: str, to_url: str) -> str:
    return root_of(from_url) + to_url


@functools.lru_cache(maxsize=REMEMBERED)
def source_url(source: str) -> str:
    """``memory/2025-11-27.md#L12`` -> ``memory/2025-11-27.html#L12``."""
    path, _, anchor = source.partition("#")
    return page_url(path) + (f"#{anchor}" if anchor else "")


TAG_INDEX_URL = "tags/index.html"


def tag_url(key: str) -> str:
    """The page of the tag with this key (``parse.tags.tag_key``): ``tags/project/memwiki.html``."""
    return f"tags/{key}.html"
