"""Pick the reflector a workspace asks for: offline (default) or Claude."""

from __future__ import annotations

from site_builder.config import Config
from site_builder.reflect import OfflineReflector, Reflector


class ReflectorError(Exception):
    """The configured reflector cannot be used; the message says why."""


def make_reflector(config: Config, provider: str | None = None) -> Reflector:
    name = provider or config.reflect_provider
    if name == "offline":
        return OfflineReflector()
    raise ReflectorError(f"unknown reflect provider '{name}'; use 'offline' or 'anthropic'")
