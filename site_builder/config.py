"""memwiki.toml: optional settings of a workspace, with defaults."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import TypeVar

from site_builder.diagnostics import Diagnostics

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
    site = _table(data, "site", diagnostics, path)
    recall = _table(data, "recall", diagnostics, path)
    reflect = _table(data, "reflect", diagnostics, path)
    defaults = Config()
    return Config(
        title=_get(site, "title", str, defaults.title, diagnostics, path),
        base_url=_get(site, "base_url", str, defaults.base_url, diagnostics, path).rstrip("/"),
        recall_max_tokens=_get(recall, "max_tokens", int, defaults.recall_max_tokens, diagnostics, path),
        reflect_provider=_get(reflect, "provider", str, defaults.reflect_provider, diagnostics, path),
        reflect_model=_get(reflect, "model", str, defaults.reflect_model, diagnostics, path),
        recent_days=_get(site, "recent_days", int, defaults.recent_days, diagnostics, path),
    )


def _table(data: dict[str, object], name: str, diagnostics: Diagnostics, path: str) -> dict[str, object]:
    value = data.get(name, {})
    if isinstance(value, dict):
        return value
    diagnostics.warn(path, 0, f"[{name}] must be a table; ignored", "config")
    return {}


def _get(
    table: dict[str, object],
    key: str,
    kind: type[T],
    default: T,
    diagnostics: Diagnostics,
    path: str,
) -> T:
    value = table.get(key, default)
    if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
        return value
    diagnostics.warn(path, 0, f"{key} must be {kind.__name__}; using {default!r}", "config")
    return default


def _line_of(message: str) -> int:
    marker = "line "
    if marker in message:
        digits = message.split(marker, 1)[1].split(",")[0].split(")")[0]
        if digits.isdigit():
            return int(digits)
    return 0
