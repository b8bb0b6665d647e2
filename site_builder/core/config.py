"""memwiki.toml: optional settings of a workspace, with defaults, checked against what memwiki knows.

Every setting is declared once in ``SETTINGS`` (table, key, type, allowed values).
A value of the wrong type or out of range is an error at its file:line, and the
commands that would act on it (build, serve, reflect) stop before writing
anything: a site published with a setting the person did not mean is a worse
surprise than a clear message. A key memwiki does not know is a warning naming
the closest known key, so a typo (``titel``) does not pass in silence.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass

import pathspec

from site_builder.core.diagnostics import Diagnostic, Diagnostics

CONFIG_NAME = "memwiki.toml"
LAYOUTS = ("clawd-v2", "openclaw", "tinyclaw", "toebeans", "clawxmemory", "claude-code", "memory-wiki")
PROVIDERS = ("offline", "anthropic")


@dataclass(frozen=True)
class Config:
    """Settings read from ``memwiki.toml``; every field has a working default."""

    title: str = ""  # "" = the agent's name, else the folder's (``library.subject.site_title``)
    language: str = ""  # a BCP 47 tag ("de", "pt-BR", "zh"); "" = told from the notes' text
    base_url: str = ""
    recall_max_tokens: int = 4000
    context_tokens: int = 200_000  # the agent's model's context window, the agent page's bars are drawn against
    reflect_provider: str = "offline"
    reflect_model: str = "claude-haiku-5-5"  # a current small Claude model
    recent_days: int = 7
    layout: str = ""  # "" = detect; else one of LAYOUTS
    publish_install: str = ""  # the pip spec the GitHub Pages workflow installs; "" = the one `init` chose
    exclude: tuple[str, ...] = ()  # gitignore-style patterns of files the site and recall leave out
    keep_templates: bool = False  # True: note templates (a templates folder, {{date}} placeholders) are notes too
    css: str = ""  # a stylesheet of the workspace, linked after the theme's (``io.styling``); "" = none


@dataclass(frozen=True)
class Setting:
    """One key of memwiki.toml: the ``Config`` field it sets, its type, and what a valid value is."""

    field: str
    kind: type
    check: Callable[[object], str] = lambda value: ""  # "" when the value is fine, else what it must be


def _between(low: int, high: int) -> Callable[[object], str]:
    return lambda value: "" if low <= value <= high else f"must be from {low:,} to {high:,}"  # type: ignore[operator]


def _one_of(*choices: str, empty: bool = False) -> Callable[[object], str]:
    def check(value: object) -> str:
        if value in choices or (empty and value == ""):
            return ""
        return "must be one of " + ", ".join(repr(c) for c in choices)

    return check


def _absolute_url(value: object) -> str:
    ok = value == "" or re.match(r"^https?://[^\s/]+", str(value))
    return "" if ok else "must be an absolute http(s) URL like 'https://me.github.io/memory' (or '')"


def _language_tag(value: object) -> str:
    ok = value == "" or re.fullmatch(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*", str(value))
    return "" if ok else "must be a language tag like 'en', 'de', 'pt-BR' or 'zh' (or '' to tell it from the notes)"


def _stylesheet_path(value: object) -> str:
    path = str(value)
    parts = path.replace("\\", "/").split("/")
    if path and (parts[0] in ("", "~") or re.match(r"^[A-Za-z]:", path) or ".." in parts):
        return "must be a path inside the workspace, like 'style/wiki.css'"
    return "" if not path or path.lower().endswith(".css") else "must name a .css file, like 'style/wiki.css'"


def _not_blank(value: object) -> str:
    return "" if str(value).strip() else "must not be empty"


def _patterns(value: object) -> str:
    """'' when ``value`` is a list of gitignore-style patterns (``templates/``, ``drafts/**/*.md``, ``!keep.md``)."""
    assert isinstance(value, list)
    for pattern in value:
        if not isinstance(pattern, str) or not pattern.strip():
            return f"must list patterns in quotes, like ['templates/', 'drafts/**']; {_toml_value(pattern)} is not one"
        try:
            pathspec.GitIgnoreSpec.from_lines([pattern])
        except ValueError as exc:
            return f"holds a pattern that is not a valid glob: {pattern!r} ({exc})"
    return ""


SETTINGS: dict[str, dict[str, Setting]] = {
    "site": {
        "title": Setting("title", str, _not_blank),
        "base_url": Setting("base_url", str, _absolute_url),
        "recent_days": Setting("recent_days", int, _between(1, 3650)),
        "language": Setting("language", str, _language_tag),
        "css": Setting("css", str, _stylesheet_path),
    },
    "recall": {"max_tokens": Setting("recall_max_tokens", int, _between(50, 1_000_000))},
    "agent": {"context_tokens": Setting("context_tokens", int, _between(1_000, 100_000_000))},
    "reflect": {
        "provider": Setting("reflect_provider", str, _one_of(*PROVIDERS)),
        "model": Setting("reflect_model", str, _not_blank),
    },
    "workspace": {
        "layout": Setting("layout", str, _one_of(*LAYOUTS, empty=True)),
        "exclude": Setting("exclude", list, _patterns),
        "keep_templates": Setting("keep_templates", bool),
    },
    "publish": {"install": Setting("publish_install", str)},
}
KIND_NAMES = {str: "text in quotes", int: "a whole number", list: "a list in brackets", bool: "true or false"}


def parse_config(text: str | None, diagnostics: Diagnostics, path: str = CONFIG_NAME) -> Config:
    """The settings in the TOML ``text`` of ``memwiki.toml``; what is wrong goes to ``diagnostics`` at file:line.

    A value in error keeps its default here; ``config_errors`` tells the commands not to go on.
    """
    if text is None:
        return Config()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        diagnostics.error(path, _line_of(str(exc)), f"not valid TOML ({exc})", "config")
        return Config()
    where = _Locator(text)
    values: dict[str, object] = {}
    for table, value in data.items():
        if table not in SETTINGS:
            _unknown(diagnostics, path, where.line(None, table), table, None)
        elif not isinstance(value, dict):
            diagnostics.error(path, where.line(None, table), f"[{table}] must be a table of settings", "config")
        else:
            for key, given in value.items():
                values |= _setting(diagnostics, path, where.line(table, key), table, key, given)
    config = dataclasses.replace(Config(), **values)  # type: ignore[arg-type]
    return dataclasses.replace(
        config, base_url=config.base_url.rstrip("/"), publish_install=config.publish_install.strip()
    )


def setting_line(text: str, table: str, key: str) -> int:
    """The line of ``memwiki.toml``'s ``text`` where ``[table] key`` is set (1 when it is not)."""
    return _Locator(text).line(table, key)


def config_errors(problems: tuple[Diagnostic, ...] | list[Diagnostic]) -> list[Diagnostic]:
    """The problems of the settings that stop a command (wrong types, values out of range, bad TOML)."""
    return [p for p in problems if p.level == "error"]


def _setting(diagnostics: Diagnostics, path: str, line: int, table: str, key: str, value: object) -> dict[str, object]:
    setting = SETTINGS[table].get(key)
    if setting is None:
        _unknown(diagnostics, path, line, key, table)
        return {}
    wrong_type = not isinstance(value, setting.kind) or (isinstance(value, bool) and setting.kind is not bool)
    problem = f"must be {KIND_NAMES[setting.kind]}" if wrong_type else setting.check(value)
    if problem:
        shown = "" if isinstance(value, list) and not wrong_type else f", not {_toml_value(value)}"  # it names the item
        diagnostics.error(path, line, f"[{table}] {key} {problem}{shown}", "config")
        return {}
    return {setting.field: tuple(value) if isinstance(value, list) else value}


def _unknown(diagnostics: Diagnostics, path: str, line: int, key: str, table: str | None) -> None:
    """A key memwiki does not read: a warning that names the closest one it does."""
    known = [f"[{t}] {k}" for t, keys in SETTINGS.items() for k in keys]
    if table is None:
        candidates = {t: f"[{t}]" for t in SETTINGS} | {k: f"[{t}] {k}" for t, keys in SETTINGS.items() for k in keys}
        what = f"unknown setting '{key}'"
    else:
        candidates = {k: f"[{table}] {k}" for k in SETTINGS[table]}
        what = f"unknown setting '{key}' in [{table}]"
    close = difflib.get_close_matches(key.lower(), list(candidates), n=1, cutoff=0.6)
    hint = f"did you mean {candidates[close[0]]}?" if close else "memwiki reads " + ", ".join(known)
    diagnostics.warn(path, line, f"{what} is ignored; {hint}", "config")


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, int | float):
        return str(value)
    return f"a {type(value).__name__}"


class _Locator:
    """Finds the line of memwiki.toml where a key of a table (or a table) is written."""

    TABLE = re.compile(r"^\s*\[\s*([\w.-]+)\s*\]")
    KEY = re.compile(r"^\s*([\w-]+|\"[^\"]*\"|'[^']*')\s*=")

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")

    def line(self, table: str | None, key: str) -> int:
        current: str | None = None
        for number, text in enumerate(self.lines, 1):
            header = self.TABLE.match(text)
            if header:
                current = header[1]
                if table is None and current == key:
                    return number
                continue
            found = self.KEY.match(text)
            if found and found[1].strip("\"'") == key and current == table:
                return number
        return 1


def _line_of(message: str) -> int:
    found = re.search(r"line (\d+)", message)
    return int(found[1]) if found else 1
