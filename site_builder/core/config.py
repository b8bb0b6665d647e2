"""memwiki.toml: optional settings of a workspace, with defaults."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import TypeVar

from site_builder.core.diagnostics import Diagnostics

T = TypeVar("T")


@dataclass(frozen=True)
class Config:
    """Settings read from ``memwiki.toml``; every field has a working default."""

    title: str = "memwiki"
    base_url: str = ""
    recall_max_tokens: int = 4000
    reflect_provider: str = "offline"
    reflect_model: str = "claude-haiku-5-5"  # a current small Claude model
    recent_days: int = 7
    layout: str = ""  # "" = detect; else one of io.layout.LAYOUT_NAMES
    publish_install: str = ""  # the pip spec the GitHub Pages workflow installs; "" = the one `init` chose


def parse_config(text: str | None, diagnostics: Diagnostics, path: str = "memwiki.toml") -> Config:
    """Parse the TOML text of ``memwiki.toml``; bad values warn and keep the default."""
    if text is None:
        return Config()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = _line_of(str(exc))
        diagnostics.warn(path, line, f"not valid TOML ({exc}); using defaults", "config")
        return Config()
    where = _Where(text, path, diagnostics)
    site = _table(data, "site", where)
    recall = _table(data, "recall", where)
    reflect = _table(data, "reflect", where)
    workspace = _table(data, "workspace", where)
    publish = _table(data, "publish", where)
    defaults = Config()
    return Config(
        title=_get(site, "title", str, defaults.title, where),
        base_url=_get(site, "base_url", str, defaults.base_url, where).rstrip("/"),
        recall_max_tokens=_get(recall, "max_tokens", int, defaults.recall_max_tokens, where),
        reflect_provider=_get(reflect, "provider", str, defaults.reflect_provider, where),
        reflect_model=_get(reflect, "model", str, defaults.reflect_model, where),
        recent_days=_get(site, "recent_days", int, defaults.recent_days, where),
        layout=_layout(_get(workspace, "layout", str, defaults.layout, where), where),
        publish_install=_get(publish, "install", str, defaults.publish_install, where).strip(),
    )


LAYOUTS = ("clawd-v2", "openclaw", "tinyclaw", "toebeans", "clawxmemory", "claude-code")


def _layout(name: str, where: _Where) -> str:
    if name and name not in LAYOUTS:
        where.warn("layout", f"unknown layout {name!r}; use one of {', '.join(LAYOUTS)} (detecting instead)")
        return ""
    return name


class _Where:
    """Reports a problem at the line of memwiki.toml where the key is written."""

    def __init__(self, text: str, path: str, diagnostics: Diagnostics) -> None:
        self.lines = text.split("\n")
        self.path = path
        self.diagnostics = diagnostics

    def warn(self, key: str, message: str) -> None:
        pattern = re.compile(rf"^\s*(\[\s*)?{re.escape(key)}\s*(=|\])")
        line = next((i + 1 for i, text in enumerate(self.lines) if pattern.match(text)), 1)
        self.diagnostics.warn(self.path, line, message, "config")


def _table(data: dict[str, object], name: str, where: _Where) -> dict[str, object]:
    value = data.get(name, {})
    if isinstance(value, dict):
        return value
    where.warn(name, f"[{name}] must be a table; ignored")
    return {}


def _get(table: dict[str, object], key: str, kind: type[T], default: T, where: _Where) -> T:
    value = table.get(key, default)
    if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
        return value
    where.warn(key, f"{key} must be {kind.__name__}; using {default!r}")
    return default


def _line_of(message: str) -> int:
    marker = "line "
    if marker in message:
        digits = message.split(marker, 1)[1].split(",")[0].split(")")[0]
        if digits.isdigit():
            return int(digits)
    return 0
