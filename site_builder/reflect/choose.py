"""Pick the reflector a workspace asks for: offline (default) or Claude.

The Claude reflector, and with it the ``anthropic`` SDK, is imported only when
asked for: it costs most of a second, which no other command should pay.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder.core.config import Config
from site_builder.reflect.offline import OfflineReflector
from site_builder.reflect.reflector import Reflector

if TYPE_CHECKING:
    import anthropic

TIMEOUT_SECONDS = 60.0
MAX_RETRIES = 2


class ReflectorError(Exception):
    """The configured reflector cannot be used; the message says why."""


def make_reflector(
    config: Config,
    provider: str | None = None,
    root: Path | None = None,
    client: anthropic.Anthropic | None = None,
    max_files: int | None = None,
) -> Reflector:
    """The reflector for ``provider`` (default: ``[reflect] provider``); Claude reads its key from the environment,
    and at most ``max_files`` notes a run (``--max-files``)."""
    name = provider or config.reflect_provider
    if name == "offline":
        return OfflineReflector()
    if name == "anthropic":
        import anthropic

        from site_builder.reflect.claude import CACHE_NAME, ClaudeReflector

        if client is None and os.environ.get("ANTHROPIC_API_KEY"):
            client = anthropic.Anthropic(timeout=TIMEOUT_SECONDS, max_retries=MAX_RETRIES)
        cache = load_cache(root / ".memwiki" / CACHE_NAME) if root else {}
        return ClaudeReflector(client, config.reflect_model, cache, max_files=max_files)
    raise ReflectorError(f"unknown reflect provider '{name}'; use 'offline' or 'anthropic'")


def load_cache(path: Path) -> dict[str, Any]:
    """Cached answers; a missing or damaged cache is simply empty (it is derived)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
